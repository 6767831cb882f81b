/* fuzz-json-pointer.c: RFC 6901 JSON pointers (the http system's answer-pointer= and friends)
 *
 * The input is a pointer, a newline, and a JSON document: the pointer is
 * checked as the http system checks its settings and, when accepted,
 * resolved in the document, then written to (a string value) and read
 * back; without a newline the input is the pointer, in a fixed document.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <json-glib/json-glib.h>

#include "grammar-json-pointer.h"

#include "fuzz-util.h"

static const char fixed_document[] =
  "{\"answer\": \"Paris\", \"a/b\": 1, \"m~n\": [true, null, 2.5], \"\": {\"\": [\"x\", {\"id\": 7}]},"
  " \"data\": {\"results\": [{\"id\": \"d1\", \"text\": \"t\", \"score\": 0.5}]}}";

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = fuzz_strndup (data, size);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  char *newline = strchr (text, '\n');
  const char *document = fixed_document;
  JsonNode *found;

  if (newline != NULL)
    {
      *newline = '\0';
      document = newline + 1;
    }
  if (!g_utf8_validate (text, -1, NULL))
    return 0;   /* keyfile values are UTF-8 by the time they are pointers */
  /* The system resolves only pointers its settings check accepted. */
  if (!grammar_json_pointer_check (text, &error))
    return 0;
  /* Only white space is no document (root NULL): the system refuses that reply first. */
  if (!json_parser_load_from_data (parser, document, -1, NULL) || json_parser_get_root (parser) == NULL)
    return 0;
  found = grammar_json_pointer_resolve (json_parser_get_root (parser), text);
  if (found != NULL)
    {
      g_autofree char *shown = json_to_string (found, FALSE);
    }
  else
    {
      /* What the error message says when it matches nothing. */
      g_autofree char *place = grammar_json_pointer_describe_miss (json_parser_get_root (parser), text, "the reply");

      g_assert (place != NULL && g_utf8_validate (place, -1, NULL));
    }
  /* query-pointer= and documents-pointer=: a value written there, which
   * must then be found there (an array written at "-" is its last element) */
  if (text[0] != '\0' && grammar_json_pointer_set (json_parser_get_root (parser), text,
                                                   json_node_init_string (json_node_alloc (), "written"), NULL))
    {
      const char *last = strrchr (text, '/');

      if (!g_str_equal (last, "/-"))
        {
          found = grammar_json_pointer_resolve (json_parser_get_root (parser), text);
          g_assert (found != NULL && JSON_NODE_HOLDS_VALUE (found) &&
                    g_strcmp0 (json_node_get_string (found), "written") == 0);
        }
    }
  return 0;
}
