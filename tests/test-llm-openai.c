/* test-llm-openai.c: the `openai` language model plugin against tests/fake-openai
 *
 * Every test starts its own fake-openai (FAKE_OPENAI), builds the plugin
 * through a GrammarConfig keyfile as users do, and checks the statistics
 * of both sides. The API key is `sk-test-SECRET` in the environment; no
 * error, output, cache or output file may ever show it.
 *
 * The test program is also its own batch client (`--client`), for the
 * tests that need a second process: two processes sharing a cache, and a
 * client killed half-way and run again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <grammar.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "grammar-test-util.h"

#define SECRET "sk-test-SECRET"
#define KEY_ENV "GRAMMAR_TEST_OPENAI_KEY"

static char *tmpdir;

/* ---- the server ---- */

typedef GrammarTestServer Server;

static Server *
server_start (const char *first_arg,
              ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first_arg);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return grammar_test_server_start ((const char * const *) args->pdata);
}

/* Closing its stdin stops it. */
static void
server_stop (Server *server)
{
  grammar_test_server_close (server);
  grammar_test_server_free (server);
}

/* GET /_stats */
static JsonObject *
server_stats (Server *server)
{
  g_autoptr (SoupSession) session = soup_session_new ();
  g_autoptr (SoupMessage) message = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *uri = g_strconcat (server->root, "/_stats", NULL);

  if (server->ca_file != NULL)
    {
      g_autoptr (GTlsDatabase) database = g_tls_file_database_new (server->ca_file, &error);

      g_assert_no_error (error);
      g_object_set (session, "tls-database", database, NULL);
    }
  message = soup_message_new ("GET", uri);
  bytes = soup_session_send_and_read (session, message, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static gint64
stat_of (Server     *server,
         const char *name)
{
  g_autoptr (JsonObject) stats = server_stats (server);

  return json_object_get_int_member (stats, name);
}

/* ---- the client ---- */

static void
assert_no_secret_in (const char *text)
{
  if (text != NULL && strstr (text, SECRET) != NULL)
    g_error ("the API key shows in:\n%s", text);
}

static void
assert_no_secret_in_file (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, NULL))
    return;
  g_assert_null (memmem (contents, length, SECRET, strlen (SECRET)));
}

static void
assert_no_secret_in_cache (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);

  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  assert_no_secret_in_file (path);
  assert_no_secret_in_file (wal);
  assert_no_secret_in_file (shm);
}

/* The keyfile of an [llm] section for @url, with @extra lines. */
static char *
llm_keyfile (const char *url,
             const char *extra)
{
  return g_strdup_printf ("[llm]\nplugin=openai\nbase-url=%s\nmodel=test-model\napi-key-env=" KEY_ENV "\n%s",
                          url, extra != NULL ? extra : "cache=\n");
}

static GObject *
build_llm_full (const char  *url,
                const char  *extra,
                GError     **error)
{
  g_autofree char *data = llm_keyfile (url, extra);
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (data, -1, tmpdir, error);

  g_assert_nonnull (config);
  return grammar_config_build (config, "llm", GRAMMAR_TYPE_LLM, error);
}

static GrammarLlm *
build_llm (const char *url,
           const char *extra)
{
  g_autoptr (GError) error = NULL;
  GObject *llm = build_llm_full (url, extra, &error);

  g_assert_no_error (error);
  g_assert_true (GRAMMAR_IS_LLM (llm));
  return GRAMMAR_LLM (llm);
}

static guint64
llm_stat (GrammarLlm *llm,
          const char *name)
{
  guint64 value = 0;

  g_object_get (llm, name, &value, NULL);
  return value;
}

static GrammarChatRequest *
make_request (const char *prompt,
              double      temperature)
{
  GrammarChatRequest *request = grammar_chat_request_new ();

  grammar_chat_request_add_message (request, "system", "You are a test.");
  grammar_chat_request_add_message (request, "user", prompt);
  if (temperature >= 0)
    grammar_chat_request_set_temperature (request, temperature);
  return request;
}

/* Sends @prompt; returns the reply, or NULL with @error. */
static char *
ask (GrammarLlm  *llm,
     const char  *prompt,
     GError     **error)
{
  g_autoptr (GrammarChatRequest) request = make_request (prompt, -1);
  g_autoptr (GrammarChatResponse) response = grammar_llm_chat (llm, request, NULL, error);

  if (response == NULL)
    {
      assert_no_secret_in ((*error)->message);
      return NULL;
    }
  return g_strdup (grammar_chat_response_get_text (response));
}

/* ---- many requests at once, on the main loop ---- */

typedef struct
{
  guint pending;
  guint n_failed;
  GMainLoop *loop;
  GError *first_error;
} Batch;

static void
on_batch_reply (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Batch *batch = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarChatResponse) response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &error);

  if (response == NULL)
    {
      batch->n_failed++;
      if (batch->first_error == NULL)
        batch->first_error = g_error_copy (error);
    }
  if (--batch->pending == 0)
    g_main_loop_quit (batch->loop);
}

/* Sends "@prefix I" for I in [0, @n) all at once; the number of failures. */
static guint
send_batch (GrammarLlm  *llm,
            const char  *prefix,
            guint        n,
            GError     **first_error)
{
  Batch batch = { .pending = n };

  if (n == 0)
    return 0;
  batch.loop = g_main_loop_new (NULL, FALSE);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *prompt = g_strdup_printf ("%s %u", prefix, i);
      g_autoptr (GrammarChatRequest) request = make_request (prompt, -1);

      grammar_llm_chat_async (llm, request, NULL, on_batch_reply, &batch);
    }
  g_main_loop_run (batch.loop);
  g_main_loop_unref (batch.loop);
  if (first_error != NULL)
    *first_error = batch.first_error;
  else
    g_clear_error (&batch.first_error);
  return batch.n_failed;
}

/* `test-llm-openai --client CONFIG PREFIX N STOP`: sends N distinct
 * requests through the [llm] of CONFIG; with STOP < N only the first STOP,
 * then prints "paused" and waits for the end of stdin (the test kills it
 * there). Otherwise prints the statistics and exits 0 when all succeeded. */
static int
run_client (int    argc,
            char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GObject) llm = NULL;
  guint n, stop, failed;

  if (argc != 6)
    return 2;
  n = (guint) g_ascii_strtoull (argv[4], NULL, 10);
  stop = (guint) g_ascii_strtoull (argv[5], NULL, 10);
  config = grammar_config_new_from_file (argv[2], &error);
  if (config != NULL)
    llm = grammar_config_build (config, "llm", GRAMMAR_TYPE_LLM, &error);
  if (llm == NULL)
    {
      fprintf (stderr, "client: %s\n", error->message);
      return 2;
    }
  failed = send_batch (GRAMMAR_LLM (llm), argv[3], MIN (n, stop), &error);
  if (failed > 0)
    {
      fprintf (stderr, "client: %u failed: %s\n", failed, error->message);
      return 1;
    }
  if (stop < n)
    {
      printf ("paused\n");
      fflush (stdout);
      while (getchar () != EOF)
        ;
      return 3;
    }
  printf ("requests=%" G_GUINT64_FORMAT " cache-hits=%" G_GUINT64_FORMAT "\n",
          llm_stat (GRAMMAR_LLM (llm), "requests"), llm_stat (GRAMMAR_LLM (llm), "cache-hits"));
  return 0;
}

static GSubprocess *
spawn_client (const char *config,
              const char *prefix,
              guint       n,
              guint       stop)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", &error);
  g_autofree char *n_text = g_strdup_printf ("%u", n);
  g_autofree char *stop_text = g_strdup_printf ("%u", stop);
  GSubprocess *process;

  g_assert_no_error (error);
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                              self_exe, "--client", config, prefix, n_text, stop_text, NULL);
  g_assert_no_error (error);
  return process;
}

static char *
read_line (GSubprocess *process)
{
  g_autoptr (GDataInputStream) out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  g_autoptr (GError) error = NULL;
  char *line;

  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (out), FALSE);
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  return line != NULL ? line : g_strdup ("");
}

/* ---- tests ---- */

static void
test_round_trip (void)
{
  Server *server = server_start ("--api-key", SECRET, NULL);
  g_autoptr (GrammarLlm) llm = build_llm (server->url, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *reply = ask (llm, "Say hello to the tests", &error);
  const char * const texts[] = { "one text", "another text", NULL };
  g_autoptr (GrammarEmbeddings) embeddings = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (reply, ==, "Say hello to the tests");
  g_assert_cmpuint (llm_stat (llm, "requests"), ==, 1);
  g_assert_cmpuint (llm_stat (llm, "retries"), ==, 0);
  g_assert_cmpuint (llm_stat (llm, "cache-hits"), ==, 0);
  g_assert_cmpuint (llm_stat (llm, "prompt-tokens"), ==, 4 + 5);
  g_assert_cmpuint (llm_stat (llm, "completion-tokens"), ==, 5);

  embeddings = grammar_llm_embed (llm, texts, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_embeddings_get_n_vectors (embeddings), ==, 2);
  g_assert_cmpuint (grammar_embeddings_get_dimension (embeddings), ==, 8);
  g_assert_cmpint (stat_of (server, "chat"), ==, 1);
  g_assert_cmpint (stat_of (server, "embeddings"), ==, 1);
  server_stop (server);
}

/* libsoup opens a new connection for every POST that is not marked
 * idempotent: requests one after the other must share one connection. */
static void
test_keep_alive (void)
{
  Server *server = server_start (NULL);
  g_autoptr (GrammarLlm) llm = build_llm (server->url, "cache=\nmax-concurrency=1\n");
  /* every stat_of () opens a connection of its own */
  gint64 before = stat_of (server, "connections");

  for (guint i = 0; i < 10; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *prompt = g_strdup_printf ("Request %u on one connection", i);
      g_autofree char *reply = ask (llm, prompt, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (reply, ==, prompt);
    }
  g_assert_cmpint (stat_of (server, "chat"), ==, 10);
  /* libsoup may open a second one while it still holds the first (a bare
   * SoupSession does the same); without keep-alive this is 10 */
  g_assert_cmpint (stat_of (server, "connections") - before - 1, <=, 2);
  server_stop (server);
}

static void
test_config_errors (void)
{
  const char *bad[] = {
    "cache=\nbase-url=ftp://example.com/v1\n",
    "cache=\nextra-headers=NoColonHere\n",
    "cache=\nca-file=does-not-exist.pem\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *data = g_strdup_printf ("[llm]\nplugin=openai\nmodel=m\n%s", bad[i]);
      g_autoptr (GrammarConfig) config = grammar_config_new_from_data (data, -1, tmpdir, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (GObject) llm = grammar_config_build (config, "llm", GRAMMAR_TYPE_LLM, &error);

      g_assert_null (llm);
      g_assert_nonnull (error);
      g_assert_true (grammar_error_is_input_error (error));
    }
  {
    g_autoptr (GrammarConfig) config =
      grammar_config_new_from_data ("[llm]\nplugin=openai\ncache=\n", -1, tmpdir, NULL);
    g_autoptr (GError) error = NULL;
    g_autoptr (GObject) llm = grammar_config_build (config, "llm", GRAMMAR_TYPE_LLM, &error);

    g_assert_null (llm);
    g_assert_true (grammar_error_is_input_error (error));
    grammar_test_assert_contains (error->message, "model");
  }
}

static void
test_status (void)
{
  g_autofree char *rules = grammar_test_write_file (tmpdir, "status-rules.json",
    "{\"rules\": ["
    " {\"match\": \"^bad\", \"status\": 400, \"error\": \"the request is bad\"},"
    " {\"match\": \"^unauthorized\", \"status\": 401, \"error\": \"no entry for " SECRET "\"},"
    " {\"match\": \"^forbidden\", \"status\": 403, \"error\": \"you may not\"},"
    " {\"match\": \"^missing\", \"status\": 404, \"error\": \"no such model\"}"
    "]}");
  Server *server = server_start ("--rules", rules, "--api-key", SECRET, NULL);
  g_autoptr (GrammarLlm) llm = build_llm (server->url, "cache=\nmax-retries=3\n");
  struct { const char *prompt; const char *expected; } cases[] = {
    { "bad one", "HTTP 400: the request is bad" },
    { "unauthorized one", "HTTP 401: no entry for [redacted]; check the API key in the environment variable " KEY_ENV },
    { "forbidden one", "HTTP 403: you may not" },
    { "missing one", "HTTP 404: no such model" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *reply = ask (llm, cases[i].prompt, &error);

      g_assert_null (reply);
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
      grammar_test_assert_contains (error->message, cases[i].expected);
    }
  /* failed at once: no retry */
  g_assert_cmpuint (llm_stat (llm, "requests"), ==, G_N_ELEMENTS (cases));
  g_assert_cmpuint (llm_stat (llm, "retries"), ==, 0);
  g_assert_cmpint (stat_of (server, "requests"), ==, G_N_ELEMENTS (cases));

  /* the wrong key, and none */
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *reply = NULL;
    g_autoptr (GrammarLlm) unset = NULL;

    g_setenv (KEY_ENV, "sk-test-WRONG", TRUE);
    {
      g_autoptr (GrammarLlm) wrong = build_llm (server->url, NULL);

      reply = ask (wrong, "hello", &error);
      g_assert_null (reply);
      grammar_test_assert_contains (error->message, "HTTP 401: Incorrect API key provided");
      grammar_test_assert_contains (error->message, KEY_ENV);
      g_assert_null (strstr (error->message, "sk-test-WRONG"));
      g_clear_error (&error);
    }
    g_unsetenv (KEY_ENV);
    unset = build_llm (server->url, NULL);
    reply = ask (unset, "hello", &error);
    g_assert_null (reply);
    grammar_test_assert_contains (error->message, "the environment variable " KEY_ENV " holding the API key is not set");
    g_setenv (KEY_ENV, SECRET, TRUE);
  }
  server_stop (server);
}

/* Every request fails in one way: tried 1 + max-retries times. */
static void
test_faults_always (gconstpointer data)
{
  const char *kind = data;
  Server *server = server_start ("--fault-rate", "1.0", "--faults", kind, "--retry-after", "0", NULL);
  g_autoptr (GrammarLlm) llm = build_llm (server->url, "cache=\nmax-retries=2\n");
  g_autoptr (GError) error = NULL;
  g_autofree char *reply = ask (llm, "never answered", &error);
  int code;

  g_assert_null (reply);
  /* A reply that cannot be read is the request's problem; the others say the server is unavailable. */
  code = g_str_equal (kind, "malformed") ? GRAMMAR_ERROR_FAILED : GRAMMAR_ERROR_UNAVAILABLE;
  g_assert_error (error, GRAMMAR_ERROR, code);
  grammar_test_assert_contains (error->message, "failed after 3 attempts");
  if (g_str_equal (kind, "429"))
    grammar_test_assert_contains (error->message, "HTTP 429");
  else if (g_str_equal (kind, "500"))
    grammar_test_assert_contains (error->message, "HTTP 500");
  else if (g_str_equal (kind, "malformed"))
    grammar_test_assert_contains (error->message, "not valid JSON");
  g_assert_cmpuint (llm_stat (llm, "requests"), ==, 3);
  g_assert_cmpuint (llm_stat (llm, "retries"), ==, 2);
  g_assert_cmpint (stat_of (server, "requests"), >=, 3);
  g_assert_cmpint (stat_of (server, "distinct"), ==, 1);
  server_stop (server);
}

/* Some requests fail, in every way but slowly: all succeed in the end. */
static void
test_faults_some (void)
{
  Server *server = server_start ("--fault-rate", "0.3", "--faults", "429,500,close,malformed",
                                 "--retry-after", "0", "--seed", "7", NULL);
  g_autoptr (GrammarLlm) llm = build_llm (server->url, "cache=\nmax-retries=12\nmax-concurrency=8\n");
  g_autoptr (GError) error = NULL;
  guint failed = send_batch (llm, "faulty", 40, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (failed, ==, 0);
  g_assert_cmpuint (llm_stat (llm, "retries"), >, 0);
  g_assert_cmpuint (llm_stat (llm, "requests"), ==, 40 + llm_stat (llm, "retries"));
  g_assert_cmpint (stat_of (server, "distinct"), ==, 40);
  g_assert_cmpint (stat_of (server, "faults"), >=, (gint64) llm_stat (llm, "retries"));
  server_stop (server);
}

/* A chat cancelled while it waits out a back-off (the server asked for
 * Retry-After: 30) ends within 100 ms of the cancel, without another
 * attempt. */
typedef struct
{
  GAsyncResult *result;
  gint64 finished;
} Cancelled;

static void
on_cancelled_reply (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Cancelled *cancelled = user_data;

  cancelled->finished = g_get_monotonic_time ();
  cancelled->result = g_object_ref (result);
}

static void
test_cancel_backoff (void)
{
  Server *server = server_start ("--fault-rate", "1.0", "--faults", "429", "--retry-after", "30", NULL);
  g_autoptr (GrammarLlm) llm = build_llm (server->url, "cache=\nmax-retries=3\n");
  g_autoptr (GrammarChatRequest) request = make_request ("wait for me", -1);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  Cancelled cancelled = { NULL, 0 };
  gint64 cancel_time;

  grammar_llm_chat_async (llm, request, cancellable, on_cancelled_reply, &cancelled);
  /* The 429 comes at once; half a second later the chat is backing off. */
  while (stat_of (server, "faults") < 1)
    g_main_context_iteration (NULL, FALSE);
  cancel_time = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < cancel_time)
    g_main_context_iteration (NULL, FALSE);
  g_assert_null (cancelled.result);

  cancel_time = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  while (cancelled.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (cancelled.finished - cancel_time, <, G_USEC_PER_SEC / 10);
  response = grammar_llm_chat_finish (llm, cancelled.result, &error);
  g_assert_null (response);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (stat_of (server, "requests"), ==, 1);
  g_assert_cmpuint (llm_stat (llm, "requests"), ==, 1);
  g_clear_object (&cancelled.result);
  server_stop (server);
}

static void
test_timeout (void)
{
  Server *server = server_start ("--fault-rate", "1.0", "--faults", "slow", NULL);
  g_autoptr (GrammarLlm) llm = build_llm (server->url, "cache=\nmax-retries=1\ntimeout=0.5\n");
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autofree char *reply = ask (llm, "too slow", &error);

  g_assert_null (reply);
  grammar_test_assert_contains (error->message, "timeout");
  grammar_test_assert_contains (error->message, "failed after 2 attempts");
  g_assert_cmpint (g_get_monotonic_time () - start, >=, G_USEC_PER_SEC);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  g_assert_cmpuint (llm_stat (llm, "requests"), ==, 2);
  server_stop (server);
}

static void
test_n (void)
{
  Server *plain = server_start (NULL);
  Server *no_n = server_start ("--no-n", NULL);

  {
    g_autoptr (GrammarLlm) llm = build_llm (plain->url, NULL);
    g_autoptr (GrammarChatRequest) request = make_request ("three of them", 0.7);
    g_autoptr (GError) error = NULL;
    g_autoptr (GrammarChatResponse) response = NULL;

    grammar_chat_request_set_n (request, 3);
    response = grammar_llm_chat (llm, request, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (grammar_chat_response_get_n_choices (response), ==, 3);
    g_assert_cmpuint (llm_stat (llm, "requests"), ==, 1);
    g_assert_cmpint (stat_of (plain, "requests"), ==, 1);
  }
  {
    g_autoptr (GrammarLlm) llm = build_llm (no_n->url, NULL);
    g_autoptr (GrammarChatRequest) request = make_request ("three of them", 0.7);
    g_autoptr (GrammarChatRequest) again = make_request ("two of them", 0.7);
    g_autoptr (GError) error = NULL;
    g_autoptr (GrammarChatResponse) response = NULL;
    g_autoptr (GrammarChatResponse) response2 = NULL;

    grammar_chat_request_set_n (request, 3);
    response = grammar_llm_chat (llm, request, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (grammar_chat_response_get_n_choices (response), ==, 3);
    g_assert_cmpstr (grammar_chat_response_get_choices (response)[2], ==, "three of them");
    /* refused once, then three requests */
    g_assert_cmpint (stat_of (no_n, "requests"), ==, 4);

    /* remembered: no more n > 1 */
    grammar_chat_request_set_n (again, 2);
    response2 = grammar_llm_chat (llm, again, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (grammar_chat_response_get_n_choices (response2), ==, 2);
    g_assert_cmpint (stat_of (no_n, "requests"), ==, 6);
    g_assert_cmpuint (llm_stat (llm, "requests"), ==, 6);
  }
  server_stop (plain);
  server_stop (no_n);
}

static void
test_cache (void)
{
  Server *server = server_start ("--api-key", SECRET, NULL);
  g_autofree char *cache = g_build_filename (tmpdir, "cache-test", "llm.sqlite", NULL);
  g_autofree char *extra = g_strdup_printf ("cache=%s\n", cache);
  g_autofree char *extra_sampled = g_strdup_printf ("cache=%s\ncache-sampled=true\n", cache);

  for (guint run = 0; run < 2; run++)
    {
      g_autoptr (GrammarLlm) llm = build_llm (server->url, extra);
      g_autoptr (GError) error = NULL;

      g_assert_cmpuint (send_batch (llm, "cached", 5, &error), ==, 0);
      g_assert_no_error (error);
      g_assert_cmpuint (llm_stat (llm, "requests"), ==, run == 0 ? 5 : 0);
      g_assert_cmpuint (llm_stat (llm, "cache-hits"), ==, run == 0 ? 0 : 5);
      g_assert_cmpint (stat_of (server, "requests"), ==, 5);

      /* from the cache, and flagged so */
      {
        g_autoptr (GrammarChatRequest) request = make_request ("cached 3", -1);
        g_autoptr (GrammarChatResponse) response = grammar_llm_chat (llm, request, NULL, &error);

        g_assert_no_error (error);
        g_assert_cmpstr (grammar_chat_response_get_text (response), ==, "cached 3");
        g_assert_true (grammar_chat_response_get_cached (response));
      }
    }

  /* sampled: sent every time; seeded: cached */
  for (guint run = 0; run < 2; run++)
    {
      g_autoptr (GrammarLlm) llm = build_llm (server->url, extra);
      g_autoptr (GrammarChatRequest) sampled = make_request ("sampled", 0.9);
      g_autoptr (GrammarChatRequest) seeded = make_request ("seeded", 0.9);
      g_autoptr (GrammarChatResponse) response = NULL;
      g_autoptr (GrammarChatResponse) response2 = NULL;
      g_autoptr (GError) error = NULL;

      grammar_chat_request_set_seed (seeded, 42);
      response = grammar_llm_chat (llm, sampled, NULL, &error);
      g_assert_no_error (error);
      g_assert_false (grammar_chat_response_get_cached (response));
      response2 = grammar_llm_chat (llm, seeded, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (grammar_chat_response_get_cached (response2) == (run == 1));
    }
  g_assert_cmpint (stat_of (server, "requests"), ==, 5 + 3);

  /* cache-sampled: sampled ones too */
  for (guint run = 0; run < 2; run++)
    {
      g_autoptr (GrammarLlm) llm = build_llm (server->url, extra_sampled);
      g_autoptr (GrammarChatRequest) sampled = make_request ("sampled", 0.9);
      g_autoptr (GrammarChatResponse) response = NULL;
      g_autoptr (GError) error = NULL;

      response = grammar_llm_chat (llm, sampled, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (grammar_chat_response_get_cached (response) == (run == 1));
    }
  g_assert_cmpint (stat_of (server, "requests"), ==, 5 + 3 + 1);

  /* embeddings are cached too */
  for (guint run = 0; run < 2; run++)
    {
      g_autoptr (GrammarLlm) llm = build_llm (server->url, extra);
      const char * const texts[] = { "alpha", "beta", "gamma", NULL };
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarEmbeddings) embeddings = grammar_llm_embed (llm, texts, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (grammar_embeddings_get_n_vectors (embeddings), ==, 3);
      g_assert_cmpuint (llm_stat (llm, "cache-hits"), ==, run);
    }
  g_assert_cmpint (stat_of (server, "embeddings"), ==, 1);

  assert_no_secret_in_cache (cache);
  server_stop (server);
}

static char *
client_config (const char *name,
               const char *url,
               const char *cache)
{
  g_autofree char *data = NULL;

  data = g_strdup_printf ("[llm]\nplugin=openai\nbase-url=%s\nmodel=test-model\napi-key-env=" KEY_ENV "\n"
                          "cache=%s\nmax-concurrency=16\n", url, cache);
  return grammar_test_write_file (tmpdir, name, data);
}

static void
wait_client (GSubprocess *process,
             int          expected_status)
{
  g_autoptr (GError) error = NULL;

  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, expected_status);
}

/* Two processes sharing one cache file, at the same time. */
static void
test_two_processes (void)
{
  Server *server = server_start ("--api-key", SECRET, "--latency-ms", "2", NULL);
  g_autofree char *cache = g_build_filename (tmpdir, "shared.sqlite", NULL);
  g_autofree char *config = client_config ("shared.ini", server->url, cache);
  g_autoptr (GSubprocess) first = spawn_client (config, "shared", 60, 60);
  g_autoptr (GSubprocess) second = spawn_client (config, "shared", 60, 60);
  g_autoptr (GSubprocess) third = NULL;
  g_autofree char *line = NULL;
  gint64 sent;

  wait_client (first, 0);
  wait_client (second, 0);
  g_assert_cmpint (stat_of (server, "distinct"), ==, 60);
  sent = stat_of (server, "requests");
  g_assert_cmpint (sent, >=, 60);
  g_assert_cmpint (sent, <=, 120);

  /* all in the cache now */
  third = spawn_client (config, "shared", 60, 60);
  line = read_line (third);
  wait_client (third, 0);
  g_assert_cmpstr (line, ==, "requests=0 cache-hits=60");
  g_assert_cmpint (stat_of (server, "requests"), ==, sent);
  assert_no_secret_in_cache (cache);
  server_stop (server);
}

/* A client killed after half of 200 requests, then run again: every
 * distinct request reaches the server once in all. */
static void
test_resume (void)
{
  Server *server = server_start ("--api-key", SECRET, "--latency-ms", "1", NULL);
  g_autofree char *cache = g_build_filename (tmpdir, "resume.sqlite", NULL);
  g_autofree char *config = client_config ("resume.ini", server->url, cache);
  g_autoptr (GSubprocess) killed = spawn_client (config, "resume", 200, 100);
  g_autoptr (GSubprocess) again = NULL;
  g_autofree char *line = read_line (killed);
  g_autofree char *summary = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpstr (line, ==, "paused");
  g_subprocess_force_exit (killed);
  g_subprocess_wait (killed, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (killed));
  g_assert_cmpint (stat_of (server, "distinct"), ==, 100);

  again = spawn_client (config, "resume", 200, 200);
  summary = read_line (again);
  wait_client (again, 0);
  g_assert_cmpstr (summary, ==, "requests=100 cache-hits=100");
  g_assert_cmpint (stat_of (server, "distinct"), ==, 200);
  g_assert_cmpint (stat_of (server, "max_per_body"), ==, 1);
  g_assert_cmpint (stat_of (server, "requests"), ==, 200);
  assert_no_secret_in_cache (cache);
  server_stop (server);
}

static void
test_requests_per_minute (void)
{
  Server *server = server_start (NULL);
  g_autoptr (GrammarLlm) llm = build_llm (server->url, "cache=\nrequests-per-minute=1200\n");
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  /* 20 a second: the 6th no sooner than 250 ms after the first */
  g_assert_cmpuint (send_batch (llm, "paced", 6, &error), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 240 * 1000);
  g_assert_cmpint (stat_of (server, "requests"), ==, 6);
  server_stop (server);
}

/* Headers, seen by a server of our own on the test's main loop. */
static void
on_header_request (SoupServer        *soup_server,
                   SoupServerMessage *message,
                   const char        *path,
                   GHashTable        *query,
                   gpointer           user_data)
{
  SoupMessageHeaders **seen = user_data;
  static const char reply[] =
    "{\"id\":\"x\",\"object\":\"chat.completion\",\"model\":\"test-model\",\"choices\":[{\"index\":0,"
    "\"message\":{\"role\":\"assistant\",\"content\":\"fine\"},\"finish_reason\":\"stop\"}],"
    "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";

  g_clear_pointer (seen, soup_message_headers_unref);
  *seen = soup_message_headers_ref (soup_server_message_get_request_headers (message));
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, reply, strlen (reply));
  soup_server_message_set_status (message, 200, NULL);
}

static void
on_chat_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GrammarChatResponse **response = user_data;
  g_autoptr (GError) error = NULL;

  *response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &error);
  g_assert_no_error (error);
}

/* libsoup 3.2's own listener (soup_server_listen_local) never frees the
 * socket of an accepted connection: connections are accepted here and
 * handed to the server, as tests/fake-openai does. */
static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           user_data)
{
  g_autoptr (GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr (GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  g_autoptr (GError) error = NULL;

  soup_server_accept_iostream (SOUP_SERVER (user_data), G_IO_STREAM (connection), local, remote, &error);
  g_assert_no_error (error);
  return TRUE;
}

/* A server of our own on the test's main loop, answering chats with @handler. */
typedef struct
{
  SoupServer *soup_server;
  GSocketService *service;
  char *url;
} OwnServer;

static void
own_server_start (OwnServer         *server,
                  SoupServerCallback handler,
                  gpointer           user_data)
{
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;

  server->soup_server = soup_server_new (NULL, NULL);
  server->service = g_socket_service_new ();
  soup_server_add_handler (server->soup_server, "/v1/chat/completions", handler, user_data, NULL);
  g_socket_listener_add_address (G_SOCKET_LISTENER (server->service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  g_signal_connect (server->service, "incoming", G_CALLBACK (on_incoming), server->soup_server);
  g_socket_service_start (server->service);
  server->url = g_strdup_printf ("http://127.0.0.1:%u/v1",
                                 g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
}

static void
own_server_stop (OwnServer *server)
{
  g_socket_service_stop (server->service);
  g_socket_listener_close (G_SOCKET_LISTENER (server->service));
  soup_server_disconnect (server->soup_server);
  g_clear_object (&server->service);
  g_clear_object (&server->soup_server);
  g_clear_pointer (&server->url, g_free);
}

static void
test_headers (void)
{
  OwnServer server = { NULL, };
  g_autoptr (GrammarLlm) llm = NULL;
  g_autoptr (GrammarChatRequest) request = make_request ("headers", -1);
  g_autoptr (GrammarChatResponse) response = NULL;
  SoupMessageHeaders *seen = NULL;

  own_server_start (&server, on_header_request, &seen);

  llm = build_llm (server.url, "cache=\norganization=org-test\nextra-headers=X-Grammar-Test: yes;X-Other:  two words\n");
  grammar_llm_chat_async (llm, request, NULL, on_chat_done, &response);
  while (response == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (grammar_chat_response_get_text (response), ==, "fine");
  g_assert_nonnull (seen);
  g_assert_cmpstr (soup_message_headers_get_one (seen, "Authorization"), ==, "Bearer " SECRET);
  g_assert_cmpstr (soup_message_headers_get_one (seen, "OpenAI-Organization"), ==, "org-test");
  g_assert_cmpstr (soup_message_headers_get_one (seen, "X-Grammar-Test"), ==, "yes");
  g_assert_cmpstr (soup_message_headers_get_one (seen, "X-Other"), ==, "two words");
  soup_message_headers_unref (seen);

  g_clear_object (&llm);
  own_server_stop (&server);
}

static void
on_huge_usage_request (SoupServer        *soup_server,
                       SoupServerMessage *message,
                       const char        *path,
                       GHashTable        *query,
                       gpointer           user_data)
{
  static const char reply[] =
    "{\"model\":\"m\",\"choices\":[{\"message\":{\"content\":\"fine\"}}],"
    "\"usage\":{\"prompt_tokens\":1e300,\"completion_tokens\":-1e300}}";

  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, reply, strlen (reply));
  soup_server_message_set_status (message, 200, NULL);
}

/* Token counts beyond any integer are ignored, not cast (undefined
 * behaviour, which UBSan stops at; found by tests/fuzz/fuzz-openai). */
static void
test_huge_usage (void)
{
  OwnServer server = { NULL, };
  g_autoptr (GrammarLlm) llm = NULL;
  g_autoptr (GrammarChatRequest) request = make_request ("usage", -1);
  g_autoptr (GrammarChatResponse) response = NULL;

  own_server_start (&server, on_huge_usage_request, NULL);
  llm = build_llm (server.url, "cache=\n");
  grammar_llm_chat_async (llm, request, NULL, on_chat_done, &response);
  while (response == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (grammar_chat_response_get_text (response), ==, "fine");
  g_assert_cmpuint (llm_stat (llm, "prompt-tokens"), ==, 0);
  g_assert_cmpuint (llm_stat (llm, "completion-tokens"), ==, 0);

  g_clear_object (&llm);
  own_server_stop (&server);
}

static void
test_https (void)
{
  g_autofree char *openssl = g_find_program_in_path ("openssl");
  g_autofree char *cert = g_build_filename (tmpdir, "cert.pem", NULL);
  g_autofree char *key = g_build_filename (tmpdir, "key.pem", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  int wait_status = 0;
  Server *server;

  if (openssl == NULL)
    {
      g_test_skip ("openssl is not installed: no certificate to test https with");
      return;
    }
  {
    const char *argv[] = { openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                           "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", NULL };

    g_spawn_sync (tmpdir, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &wait_status,
                  &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  }
  server = server_start ("--tls-cert", cert, "--tls-key", key, NULL);
  server->ca_file = g_strdup (cert);
  g_assert_true (g_str_has_prefix (server->url, "https://"));

  {
    g_autofree char *extra = g_strdup_printf ("cache=\nca-file=%s\n", cert);
    g_autoptr (GrammarLlm) llm = build_llm (server->url, extra);
    g_autofree char *reply = ask (llm, "over TLS", &error);

    g_assert_no_error (error);
    g_assert_cmpstr (reply, ==, "over TLS");
  }
  {
    g_autoptr (GrammarLlm) llm = build_llm (server->url, "cache=\nmax-retries=3\n");
    g_autofree char *reply = ask (llm, "over TLS", &error);

    g_assert_null (reply);
    g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
    grammar_test_assert_contains (error->message, "TLS");
    /* a certificate error is not tried again */
    g_assert_cmpuint (llm_stat (llm, "requests"), ==, 1);
  }
  g_assert_cmpint (stat_of (server, "chat"), ==, 1);
  server_stop (server);
}

/* `grammar llm`, and the LLM SQL and text generators of the CLI, end to
 * end through HTTP. */
static void
test_cli (void)
{
  g_autofree char *rules = grammar_test_write_file (tmpdir, "cli-rules.json",
    "{\"rules\": ["
    " {\"match\": \"##DATA SCHEMA##\", \"reply\": \"SELECT Industry FROM Company WHERE Name = '[Company.Name]';\\n"
    "SELECT City FROM Company WHERE Name = '[Company.Name]';\"},"
    " {\"match\": \"##SQL TEMPLATE##\", \"reply\": \"What is the answer for the company named '[Company.Name]'?\\n"
    "Could you tell me about the company called '[Company.Name]'?\\n"
    "Which value belongs to the firm '[Company.Name]'?\"}"
    "], \"default\": {\"echo\": true}}");
  Server *server = server_start ("--rules", rules, "--api-key", SECRET, NULL);
  g_autofree char *dir = g_build_filename (tmpdir, "cli", NULL);
  g_autofree char *script = NULL;
  g_autofree char *config = NULL;
  g_autofree char *data = NULL;
  g_autofree char *cache = g_build_filename (dir, "llm.sqlite", NULL);
  g_autofree char *sql_out = g_build_filename (dir, "sql.json", NULL);
  g_autofree char *text_out = g_build_filename (dir, "text.json", NULL);

  g_mkdir_with_parents (dir, 0700);
  script = grammar_test_write_file (dir, "company.sql",
    "CREATE TABLE Company (Id INTEGER PRIMARY KEY, Name TEXT NOT NULL, Industry TEXT, City TEXT);\n"
    "INSERT INTO Company VALUES (1, 'Acme', 'Tools', 'Paris'), (2, 'Globex', 'Energy', 'Lyon');\n");
  data = g_strdup_printf ("[database]\nplugin=sqlite\nscript=company.sql\n\n"
                          "[llm]\nplugin=openai\nbase-url=%s\nmodel=test-model\napi-key-env=" KEY_ENV "\n"
                          "cache=llm.sqlite\n", server->url);
  config = grammar_test_write_file (dir, "cli.ini", data);

  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "llm", "-c", config, "Say", "hello", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "Say hello\n");
    grammar_test_assert_contains (run.err, "llm: 1 requests, 0 cache hits, 0 retries, 2 prompt + 2 completion tokens");
    /* and the client's figures after them: timeouts and latency */
    grammar_test_assert_contains (run.err, "2 prompt + 2 completion tokens, 0 timeouts, latency median ");
    assert_no_secret_in (run.out);
    assert_no_secret_in (run.err);
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "llm", "-c", config, "--system", "Be brief.", "Say hello", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "llm: 1 requests");
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "llm", "-c", config, "Say", "hello", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "llm: 0 requests, 1 cache hits");
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "sql-templates", "-c", config, "--generator", "llm", "-o", sql_out, NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "llm: 1 requests, 0 cache hits");
    assert_no_secret_in (run.out);
    assert_no_secret_in (run.err);
    assert_no_secret_in_file (sql_out);
  }
  {
    g_auto (GrammarTestRun) run = { 0 };
    g_autofree char *contents = NULL;

    grammar_test_run (&run, dir, "text-templates", "-c", config, "-i", sql_out, "--style", "interrogative",
                      "-n", "2", "--generator", "llm", "-o", text_out, NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "llm: 2 requests, 0 cache hits");
    assert_no_secret_in (run.out);
    assert_no_secret_in (run.err);
    g_assert_true (g_file_get_contents (text_out, &contents, NULL, NULL));
    grammar_test_assert_contains (contents, "company named '[Company.Name]'?");
    assert_no_secret_in (contents);
  }
  {
    /* again: all from the cache */
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "text-templates", "-c", config, "-i", sql_out, "--style", "interrogative",
                      "-n", "2", "--generator", "llm", "-o", text_out, NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "llm: 0 requests, 2 cache hits");
  }
  {
    /* a run failure: exit 1, with the hint and no key */
    g_auto (GrammarTestRun) run = { 0 };
    g_autofree char *bad_data = g_strdup_printf ("[llm]\nplugin=openai\nbase-url=%s\nmodel=m\n"
                                                 "api-key-env=GRAMMAR_TEST_NO_SUCH_VARIABLE\ncache=\n", server->url);
    g_autofree char *bad = grammar_test_write_file (dir, "bad.ini", bad_data);

    grammar_test_run (&run, dir, "llm", "-c", bad, "hello", NULL);
    g_assert_cmpint (run.status, ==, 1);
    grammar_test_assert_contains (run.err, "GRAMMAR_TEST_NO_SUCH_VARIABLE");
  }
  {
    /* a configuration problem: exit 2 */
    g_auto (GrammarTestRun) run = { 0 };
    g_autofree char *bad = grammar_test_write_file (dir, "bad-url.ini",
                                                    "[llm]\nplugin=openai\nbase-url=not a url\nmodel=m\ncache=\n");

    grammar_test_run (&run, dir, "llm", "-c", bad, "hello", NULL);
    g_assert_cmpint (run.status, ==, 2);
    grammar_test_assert_contains (run.err, "base-url");
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "llm", "-c", config, NULL);
    g_assert_cmpint (run.status, ==, 2);
  }
  assert_no_secret_in_cache (cache);
  server_stop (server);
}

int
main (int    argc,
      char **argv)
{
  int status;

  if (argc > 1 && g_str_equal (argv[1], "--client"))
    return run_client (argc, argv);

  g_test_init (&argc, &argv, NULL);
  g_setenv (KEY_ENV, SECRET, TRUE);
  tmpdir = grammar_test_make_tmp_dir ("test-llm-openai-XXXXXX");

  g_test_add_func ("/llm-openai/round-trip", test_round_trip);
  g_test_add_func ("/llm-openai/keep-alive", test_keep_alive);
  g_test_add_func ("/llm-openai/config-errors", test_config_errors);
  g_test_add_func ("/llm-openai/status", test_status);
  g_test_add_data_func ("/llm-openai/faults/429", "429", test_faults_always);
  g_test_add_data_func ("/llm-openai/faults/500", "500", test_faults_always);
  g_test_add_data_func ("/llm-openai/faults/close", "close", test_faults_always);
  g_test_add_data_func ("/llm-openai/faults/malformed", "malformed", test_faults_always);
  g_test_add_func ("/llm-openai/faults/some", test_faults_some);
  g_test_add_func ("/llm-openai/timeout", test_timeout);
  g_test_add_func ("/llm-openai/cancel-backoff", test_cancel_backoff);
  g_test_add_func ("/llm-openai/n", test_n);
  g_test_add_func ("/llm-openai/cache", test_cache);
  g_test_add_func ("/llm-openai/cache-two-processes", test_two_processes);
  g_test_add_func ("/llm-openai/resume", test_resume);
  g_test_add_func ("/llm-openai/requests-per-minute", test_requests_per_minute);
  g_test_add_func ("/llm-openai/headers", test_headers);
  g_test_add_func ("/llm-openai/huge-usage", test_huge_usage);
  g_test_add_func ("/llm-openai/https", test_https);
  g_test_add_func ("/llm-openai/cli", test_cli);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
