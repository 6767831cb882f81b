/* fuzz-http-system.c: the replies of a RAG service, as the http system reads them
 *
 * The input is optionally up to five lines of JSON pointers
 * (answer-pointer, retrieved-pointer, retrieved-id-pointer,
 * retrieved-text-pointer, retrieved-score-pointer) ended by an empty
 * line, then the body of a 2xx reply; without the empty line the whole
 * input is the body, read with the default pointers. The body is turned
 * into an answer and its retrieved documents by the system's own
 * parse_answer(): plugins/systems/grammar-http-system.c is compiled into
 * this program, so that its private functions are reachable without a
 * server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-http-system.c"

#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean registered;
  static const char * const names[] = {
    "answer-pointer", "retrieved-pointer", "retrieved-id-pointer", "retrieved-text-pointer",
    "retrieved-score-pointer",
  };
  g_autofree char *text = fuzz_strndup (data, size);
  g_autoptr (GrammarHttpSystem) self = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GError) error = NULL;
  const char *body = text;
  char *blank = strstr (text, "\n\n");

  if (!registered)
    {
      grammar_http_system_register (fuzz_type_module ());
      registered = TRUE;
    }

  self = g_object_new (GRAMMAR_TYPE_HTTP_SYSTEM, "url", "http://user:secret@127.0.0.1:9/query", NULL);
  if (blank != NULL && blank - text < 1024)
    {
      g_auto (GStrv) pointers = NULL;

      *blank = '\0';
      body = blank + 2;
      pointers = g_strsplit (text, "\n", G_N_ELEMENTS (names));
      for (guint i = 0; pointers[i] != NULL; i++)
        if (g_utf8_validate (pointers[i], -1, NULL))
          g_object_set (self, names[i], pointers[i], NULL);
    }
  /* As the system is made: settings checked, then the client (no request is sent). */
  if (!g_initable_init (G_INITABLE (self), NULL, &error))
    return 0;

  bytes = g_bytes_new (body, strlen (body));
  answer = parse_answer (self, bytes, &error);
  if (answer != NULL)
    g_assert (grammar_answer_get_response (answer) != NULL);
  else
    g_assert (error != NULL);
  return 0;
}
