/* driver.c: fires many distinct chat requests through a GrammarLlm at once
 *
 *   driver --base-url URL --concurrency C [--requests N] [--timeout S]
 *          [--max-retries R] [--plugin openai] [--bare]
 *
 * Builds the [llm] section with GrammarConfig (cache off, no API key),
 * starts N grammar_llm_chat_async() calls with distinct prompts on one
 * main loop, waits for all of them and prints one JSON line (with --bare,
 * the same request bodies go straight through one SoupSession with the
 * same connection limit and no plugin at all: the reference the plugin
 * is measured against):
 *   {"requests", "ok", "failed", "seconds", "requests_per_second",
 *    "http_requests", "retries", "first_error"}
 * Built and run by bench/llm-throughput/run against the build tree.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include <grammar.h>
#include <libsoup/soup.h>

typedef struct
{
  GMainLoop *loop;
  guint pending;
  guint ok;
  guint failed;
  char *first_error;
} Run;

static void
chat_done (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  Run *run = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarChatResponse) response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &error);

  if (response != NULL && grammar_chat_response_get_text (response) != NULL)
    {
      run->ok++;
    }
  else
    {
      run->failed++;
      if (run->first_error == NULL)
        run->first_error = g_strdup (error != NULL ? error->message : "no text");
    }
  if (--run->pending == 0)
    g_main_loop_quit (run->loop);
}

/* --bare: libsoup alone */

typedef struct
{
  Run *run;
  SoupSession *session;
  const char *url;
  int next;
  int requests;
} Bare;

static void bare_send (Bare *bare);

static void
bare_done (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  SoupMessage *message = data;
  Bare *bare = g_object_get_data (G_OBJECT (message), "bare");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);

  if (bytes != NULL && soup_message_get_status (message) == SOUP_STATUS_OK)
    {
      bare->run->ok++;
    }
  else
    {
      bare->run->failed++;
      if (bare->run->first_error == NULL)
        bare->run->first_error = g_strdup (error != NULL ? error->message : soup_message_get_reason_phrase (message));
    }
  g_object_unref (message);
  if (bare->next < bare->requests)
    bare_send (bare);
  if (--bare->run->pending == 0)
    g_main_loop_quit (bare->run->loop);
}

static void
bare_send (Bare *bare)
{
  SoupMessage *message = soup_message_new ("POST", bare->url);
  char *body = g_strdup_printf ("{\"model\":\"bench-model\",\"messages\":[{\"role\":\"user\",\"content\":"
                                "\"Request %d of the throughput benchmark: say something.\"}],\"temperature\":0.0}",
                                bare->next++);
  g_autoptr (GBytes) bytes = g_bytes_new_take (body, strlen (body));

  soup_message_set_request_body_from_bytes (message, "application/json", bytes);
  soup_message_add_flags (message, SOUP_MESSAGE_IDEMPOTENT);
  g_object_set_data (G_OBJECT (message), "bare", bare);
  soup_session_send_and_read_async (bare->session, message, G_PRIORITY_DEFAULT, NULL, bare_done, message);
}

static void
run_bare (Run        *run,
          const char *base_url,
          int         concurrency,
          int         requests)
{
  g_autofree char *url = g_strconcat (base_url, "/chat/completions", NULL);
  Bare bare = { run, NULL, url, 0, requests };

  bare.session = soup_session_new_with_options ("max-conns", MAX (concurrency, 10),
                                                "max-conns-per-host", concurrency, NULL);
  for (int i = 0; i < concurrency && i < requests; i++)
    bare_send (&bare);
  g_main_loop_run (run->loop);
  g_object_unref (bare.session);
}

static guint64
statistic (GObject    *object,
           const char *name)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), name);
  g_auto (GValue) value = G_VALUE_INIT;

  if (pspec == NULL)
    return 0;
  g_value_init (&value, G_TYPE_UINT64);
  if (!g_value_type_transformable (pspec->value_type, G_TYPE_UINT64))
    return 0;
  {
    g_auto (GValue) raw = G_VALUE_INIT;

    g_value_init (&raw, pspec->value_type);
    g_object_get_property (object, name, &raw);
    g_value_transform (&raw, &value);
  }
  return g_value_get_uint64 (&value);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("- LLM throughput driver");
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GObject) llm = NULL;
  g_autofree char *keyfile = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *plugin = NULL;
  int concurrency = 8;
  int requests = 2000;
  int max_retries = 10;
  double timeout = 60;
  gboolean bare = FALSE;
  Run run = { 0, };
  gint64 start;
  double seconds;
  GOptionEntry entries[] = {
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, "The server", "URL" },
    { "concurrency", 0, 0, G_OPTION_ARG_INT, &concurrency, "max-concurrency", "C" },
    { "requests", 0, 0, G_OPTION_ARG_INT, &requests, "Distinct chat requests (default 2000)", "N" },
    { "timeout", 0, 0, G_OPTION_ARG_DOUBLE, &timeout, "The plugin's timeout in seconds", "S" },
    { "max-retries", 0, 0, G_OPTION_ARG_INT, &max_retries, "The plugin's max-retries (default 10)", "R" },
    { "plugin", 0, 0, G_OPTION_ARG_STRING, &plugin, "The LLM plugin (default openai)", "NAME" },
    { "bare", 0, 0, G_OPTION_ARG_NONE, &bare, "libsoup alone, no plugin: the reference", NULL },
    G_OPTION_ENTRY_NULL
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || base_url == NULL || requests < 1)
    {
      g_printerr ("driver: %s\n", error != NULL ? error->message : "--base-url and --requests ≥ 1 are needed");
      return 2;
    }

  keyfile = g_strdup_printf ("[llm]\n"
                             "plugin=%s\n"
                             "base-url=%s\n"
                             "model=bench-model\n"
                             "api-key-env=\n"
                             "cache=\n"
                             "max-concurrency=%d\n"
                             "max-retries=%d\n"
                             "timeout=%g\n",
                             plugin != NULL ? plugin : "openai", base_url, concurrency, max_retries, timeout);
  config = grammar_config_new_from_data (keyfile, -1, g_get_tmp_dir (), &error);
  if (config != NULL)
    llm = grammar_config_build (config, "llm", GRAMMAR_TYPE_LLM, &error);
  if (llm == NULL)
    {
      g_printerr ("driver: %s\n", error->message);
      return 2;
    }

  run.loop = g_main_loop_new (NULL, FALSE);
  run.pending = requests;
  start = g_get_monotonic_time ();
  if (bare)
    run_bare (&run, base_url, concurrency, requests);
  for (int i = 0; i < requests && !bare; i++)
    {
      g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
      g_autofree char *prompt = g_strdup_printf ("Request %d of the throughput benchmark: say something.", i);

      grammar_chat_request_add_message (request, "user", prompt);
      grammar_llm_chat_async (GRAMMAR_LLM (llm), request, NULL, chat_done, &run);
    }
  if (!bare)
    g_main_loop_run (run.loop);
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;

  {
    g_autofree char *escaped = run.first_error != NULL ? g_strescape (run.first_error, NULL) : NULL;

    printf ("{\"requests\": %d, \"ok\": %u, \"failed\": %u, \"seconds\": %.6f, \"requests_per_second\": %.1f,"
            " \"http_requests\": %" G_GUINT64_FORMAT ", \"retries\": %" G_GUINT64_FORMAT ", \"first_error\": %s%s%s}\n",
            requests, run.ok, run.failed, seconds, requests / seconds,
            bare ? (guint64) requests : statistic (llm, "requests"), bare ? 0 : statistic (llm, "retries"),
            escaped != NULL ? "\"" : "", escaped != NULL ? escaped : "null", escaped != NULL ? "\"" : "");
  }
  g_main_loop_unref (run.loop);
  g_free (run.first_error);
  return run.failed == 0 ? 0 : 1;
}
