/* test-fake-openai.c: the test server's own behaviour, seen by a plain HTTP client
 *
 * tests/fake-openai is what the `openai` plugin's tests and the
 * llm-throughput benchmark stand on; these tests pin what it promises
 * (see the comment at the top of fake-openai.c) with a bare SoupSession.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <signal.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "grammar-test-util.h"

typedef GrammarTestServer Server;

static char *tmpdir;

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

/* Closes the server's stdin and checks that it exits at once and cleanly
 * (under AddressSanitizer, a leak in the server would make that fail). */
static void
server_stop (Server *server)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *rest = NULL;
  gsize length = 0;

  grammar_test_server_close (server);
  g_assert_true (g_subprocess_get_if_exited (server->process));
  g_assert_cmpint (g_subprocess_get_exit_status (server->process), ==, 0);

  /* exactly one line was printed */
  rest = g_data_input_stream_read_upto (server->stdout_pipe, "", 0, &length, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, 0);

  grammar_test_server_free (server);
}

static SoupSession *
make_session (guint timeout)
{
  /* no proxy, whatever the environment says: the server is on 127.0.0.1 */
  return soup_session_new_with_options ("max-conns", 64, "max-conns-per-host", 64, "timeout", timeout,
                                        "proxy-resolver", NULL, NULL);
}

/* What one request got back */
typedef struct
{
  guint status;
  char *body;
  JsonNode *json;       /* NULL if the body is not JSON */
  char *retry_after;
  GError *error;        /* transport error: no response at all */
} Reply;

static void
reply_free (Reply *reply)
{
  g_free (reply->body);
  g_clear_pointer (&reply->json, json_node_unref);
  g_free (reply->retry_after);
  g_clear_error (&reply->error);
  g_free (reply);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Reply, reply_free)

static SoupMessage *
make_message (const char *method,
              const char *url,
              const char *body,
              const char *key)
{
  SoupMessage *msg = soup_message_new (method, url);

  g_assert_nonnull (msg);
  if (body != NULL)
    {
      g_autoptr (GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
    }
  if (key != NULL)
    {
      g_autofree char *header = g_strdup_printf ("Bearer %s", key);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", header);
    }
  return msg;
}

static Reply *
reply_from (SoupMessage *msg,
            GBytes      *bytes,
            GError      *error)
{
  Reply *reply = g_new0 (Reply, 1);

  if (error != NULL)
    {
      reply->error = error;
      return reply;
    }
  reply->status = soup_message_get_status (msg);
  reply->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  reply->json = json_from_string (reply->body, NULL);
  reply->retry_after = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg),
                                                                "Retry-After"));
  return reply;
}

static Reply *
request (SoupSession *session,
         const char  *method,
         const char  *url,
         const char  *body,
         const char  *key)
{
  g_autoptr (SoupMessage) msg = make_message (method, url, body, key);
  g_autoptr (GBytes) bytes = NULL;
  GError *error = NULL;

  bytes = soup_session_send_and_read (session, msg, NULL, &error);
  return reply_from (msg, bytes, error);
}

static Reply *
post (SoupSession *session,
      Server      *server,
      const char  *endpoint,
      const char  *body)
{
  g_autofree char *url = g_strconcat (server->url, endpoint, NULL);

  return request (session, "POST", url, body, NULL);
}

static char *
chat_body (const char *user,
           guint       n)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, "fake-model");
  json_builder_set_member_name (builder, "messages");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "system");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, "You are terse.");
  json_builder_end_object (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "user");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, user);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "temperature");
  json_builder_add_double_value (builder, 0);
  if (n != 1)
    {
      json_builder_set_member_name (builder, "n");
      json_builder_add_int_value (builder, n);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static Reply *
chat (SoupSession *session,
      Server      *server,
      const char  *user,
      guint        n)
{
  g_autofree char *body = chat_body (user, n);

  return post (session, server, "/chat/completions", body);
}

/* The content of choice @index of a 200 chat reply */
static const char *
choice_text (Reply *reply,
             guint  index)
{
  JsonObject *choice;

  g_assert_cmpuint (reply->status, ==, 200);
  g_assert_nonnull (reply->json);
  choice = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (reply->json), "choices"), index);
  g_assert_cmpint (json_object_get_int_member (choice, "index"), ==, index);
  g_assert_cmpstr (json_object_get_string_member (choice, "finish_reason"), ==, "stop");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (choice, "message"), "role"),
                   ==, "assistant");
  return json_object_get_string_member (json_object_get_object_member (choice, "message"), "content");
}

static const char *
error_message (Reply *reply)
{
  g_assert_nonnull (reply->json);
  return json_object_get_string_member (json_object_get_object_member (json_node_get_object (reply->json),
                                                                       "error"),
                                        "message");
}

static gint64
get_stat (SoupSession *session,
      Server      *server,
      const char  *name)
{
  g_autofree char *url = g_strconcat (server->root, "/_stats", NULL);
  g_autoptr (Reply) reply = request (session, "GET", url, NULL, NULL);

  g_assert_no_error (reply->error);
  g_assert_cmpuint (reply->status, ==, 200);
  return json_object_get_int_member (json_node_get_object (reply->json), name);
}

static void
test_ready_line (void)
{
  Server *server = server_start ("--threads", "1", NULL);
  g_autoptr (GRegex) pattern = g_regex_new ("^http://127\\.0\\.0\\.1:[1-9][0-9]*/v1$", 0, 0, NULL);

  g_assert_true (g_regex_match (pattern, server->url, 0, NULL));
  server_stop (server);
}

static void
test_echo (void)
{
  Server *server = server_start (NULL);
  g_autoptr (SoupSession) session = make_session (10);
  g_autoptr (Reply) one = chat (session, server, "Say  hello\nto me", 1);
  g_autoptr (Reply) three = chat (session, server, "three of them", 3);
  JsonObject *object, *usage;

  g_assert_no_error (one->error);
  g_assert_cmpstr (choice_text (one, 0), ==, "Say  hello\nto me");
  object = json_node_get_object (one->json);
  g_assert_cmpstr (json_object_get_string_member (object, "object"), ==, "chat.completion");
  g_assert_cmpstr (json_object_get_string_member (object, "model"), ==, "fake-model");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (object, "id"), "chatcmpl-"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "choices")), ==, 1);
  usage = json_object_get_object_member (object, "usage");
  /* words: "You are terse." + "Say hello to me" */
  g_assert_cmpint (json_object_get_int_member (usage, "prompt_tokens"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (usage, "completion_tokens"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (usage, "total_tokens"), ==, 11);

  g_assert_no_error (three->error);
  object = json_node_get_object (three->json);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "choices")), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (choice_text (three, i), ==, "three of them");
  usage = json_object_get_object_member (object, "usage");
  g_assert_cmpint (json_object_get_int_member (usage, "completion_tokens"), ==, 9);
  server_stop (server);
}

static void
test_rules (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "rules.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (SoupSession) session = make_session (10);
  Server *server;
  const char *rules =
    "{\"rules\": ["
    "  {\"match\": \"^SQL:\", \"reply\": \"SELECT 1\\nFROM t\"},"
    "  {\"match\": \"repeat\", \"echo\": true},"
    "  {\"match\": \"forbidden|SQL\", \"status\": 403, \"error\": \"No access\"}"
    "], \"default\": {\"reply\": \"default reply\"}}";

  g_file_set_contents (path, rules, -1, &error);
  g_assert_no_error (error);
  server = server_start ("--rules", path, NULL);
  {
    g_autoptr (Reply) sql = chat (session, server, "SQL: give me one, forbidden", 1);
    g_autoptr (Reply) echo = chat (session, server, "please repeat this", 1);
    g_autoptr (Reply) forbidden = chat (session, server, "something forbidden", 1);
    g_autoptr (Reply) fallback = chat (session, server, "anything else", 1);

    /* the first matching rule wins, and a reply may hold \n */
    g_assert_cmpstr (choice_text (sql, 0), ==, "SELECT 1\nFROM t");
    g_assert_cmpstr (choice_text (echo, 0), ==, "please repeat this");
    g_assert_cmpuint (forbidden->status, ==, 403);
    g_assert_cmpstr (error_message (forbidden), ==, "No access");
    g_assert_cmpstr (choice_text (fallback, 0), ==, "default reply");
  }
  server_stop (server);

  /* a bad rules file is refused at start */
  {
    g_autoptr (GSubprocess) process = NULL;

    g_file_set_contents (path, "{\"rules\": [{\"match\": \"(\", \"echo\": true}]}", -1, &error);
    g_assert_no_error (error);
    process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                                g_getenv ("FAKE_OPENAI"), "--rules", path, NULL);
    g_assert_no_error (error);
    g_subprocess_wait (process, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
  }
}

static void
test_bad_requests (void)
{
  Server *server = server_start (NULL);
  g_autoptr (SoupSession) session = make_session (10);
  const char *bad[] = {
    "",
    "{\"model\": \"m\", \"messages\": [",
    "[1, 2]",
    "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}",
    "{\"model\": \"m\"}",
    "{\"model\": \"m\", \"messages\": []}",
    "{\"model\": \"m\", \"messages\": [{\"role\": \"user\"}]}",
    "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"n\": 0}",
    "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"temperature\": \"hot\"}",
    "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"stop\": [1]}",
    "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"response_format\": {\"type\": \"xml\"}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (Reply) reply = post (session, server, "/chat/completions", bad[i]);

      g_test_message ("body: %s", bad[i]);
      g_assert_no_error (reply->error);
      g_assert_cmpuint (reply->status, ==, 400);
      g_assert_nonnull (error_message (reply));
    }
  {
    const char *good = "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"seed\": 4,"
                       " \"max_tokens\": 10, \"stop\": [\"\\n\"], \"response_format\": {\"type\": \"json_object\"},"
                       " \"temperature\": 0.7}";
    g_autoptr (Reply) reply = post (session, server, "/chat/completions", good);
    g_autoptr (Reply) embeddings = post (session, server, "/embeddings", "{\"model\": \"e\", \"input\": [1]}");
    g_autoptr (Reply) unknown = post (session, server, "/models/x", "{}");
    g_autofree char *url = g_strconcat (server->url, "/chat/completions", NULL);
    g_autoptr (Reply) get = request (session, "GET", url, NULL, NULL);

    g_assert_cmpstr (choice_text (reply, 0), ==, "hi");
    g_assert_cmpuint (embeddings->status, ==, 400);
    g_assert_cmpuint (unknown->status, ==, 404);
    g_assert_cmpuint (get->status, ==, 405);
  }
  server_stop (server);
}

static void
test_api_key (void)
{
  Server *server = server_start ("--api-key", "sk-test-SECRET", NULL);
  g_autoptr (SoupSession) session = make_session (10);
  g_autofree char *url = g_strconcat (server->url, "/chat/completions", NULL);
  g_autofree char *body = chat_body ("hello", 1);
  g_autoptr (Reply) none = request (session, "POST", url, body, NULL);
  g_autoptr (Reply) wrong = request (session, "POST", url, body, "sk-test-WRONG");
  g_autoptr (Reply) right = request (session, "POST", url, body, "sk-test-SECRET");

  g_assert_cmpuint (none->status, ==, 401);
  g_assert_cmpstr (error_message (none), ==, "Incorrect API key provided");
  g_assert_cmpuint (wrong->status, ==, 401);
  g_assert_null (strstr (wrong->body, "SECRET"));
  g_assert_cmpstr (choice_text (right, 0), ==, "hello");
  server_stop (server);
}

static void
test_no_n (void)
{
  Server *server = server_start ("--no-n", NULL);
  g_autoptr (SoupSession) session = make_session (10);
  g_autoptr (Reply) two = chat (session, server, "two", 2);
  g_autoptr (Reply) one = chat (session, server, "one", 1);

  g_assert_cmpuint (two->status, ==, 400);
  g_assert_cmpstr (error_message (two), ==, "n must be 1");
  g_assert_cmpstr (choice_text (one, 0), ==, "one");
  server_stop (server);
}

static void
test_fault_429 (void)
{
  g_autoptr (SoupSession) session = make_session (10);
  Server *server = server_start ("--fault-rate", "1", "--faults", "429", NULL);
  g_autoptr (Reply) reply = chat (session, server, "hello", 1);

  g_assert_cmpuint (reply->status, ==, 429);
  g_assert_cmpstr (reply->retry_after, ==, "1");
  g_assert_nonnull (error_message (reply));
  g_assert_cmpint (get_stat (session, server, "faults"), ==, 1);
  server_stop (server);

  server = server_start ("--fault-rate", "1.0", "--faults", "429", "--retry-after", "0", NULL);
  {
    g_autoptr (Reply) again = chat (session, server, "hello", 1);

    g_assert_cmpuint (again->status, ==, 429);
    g_assert_cmpstr (again->retry_after, ==, "0");
  }
  server_stop (server);
}

static void
test_fault_500 (void)
{
  g_autoptr (SoupSession) session = make_session (10);
  Server *server = server_start ("--fault-rate", "1", "--faults", "500", NULL);
  g_autoptr (Reply) reply = chat (session, server, "hello", 1);
  g_autoptr (Reply) embeddings = post (session, server, "/embeddings", "{\"model\": \"e\", \"input\": \"x\"}");

  g_assert_cmpuint (reply->status, ==, 500);
  g_assert_nonnull (error_message (reply));
  g_assert_cmpuint (embeddings->status, ==, 500);
  g_assert_cmpint (get_stat (session, server, "faults"), ==, 2);
  server_stop (server);
}

static void
test_fault_close (void)
{
  g_autoptr (SoupSession) session = make_session (10);
  Server *server = server_start ("--fault-rate", "1", "--faults", "close", NULL);

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (Reply) reply = chat (session, server, "hello", 1);

      g_assert_nonnull (reply->error);
      g_test_message ("closed: %s", reply->error->message);
    }
  g_assert_cmpint (get_stat (session, server, "faults"), ==, 3);
  g_assert_cmpint (get_stat (session, server, "requests"), ==, 3);
  server_stop (server);
}

static void
test_fault_slow (void)
{
  g_autoptr (SoupSession) session = make_session (1);
  g_autoptr (SoupSession) other = make_session (10);
  Server *server = server_start ("--fault-rate", "1", "--faults", "slow", NULL);
  gint64 start = g_get_monotonic_time ();
  g_autoptr (Reply) reply = chat (session, server, "hello", 1);

  g_assert_error (reply->error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  /* the server goes on serving, and stops at once with a response held */
  g_assert_cmpint (get_stat (other, server, "faults"), ==, 1);
  server_stop (server);
}

static void
test_fault_malformed (void)
{
  g_autoptr (SoupSession) session = make_session (10);
  Server *server = server_start ("--fault-rate", "1", "--faults", "malformed", NULL);
  g_autoptr (Reply) reply = chat (session, server, "hello", 1);

  g_assert_no_error (reply->error);
  g_assert_cmpuint (reply->status, ==, 200);
  g_assert_null (reply->json);
  g_assert_cmpuint (strlen (reply->body), >, 0);
  server_stop (server);
}

/* Sent one at a time, the same seed fails the same requests; the rate holds. */
static void
test_fault_seed (void)
{
  g_autoptr (SoupSession) session = make_session (10);
  g_autoptr (GString) first = g_string_new (NULL);
  g_autoptr (GString) second = g_string_new (NULL);
  GString *outcomes[] = { first, second };

  for (guint run = 0; run < 2; run++)
    {
      Server *server = server_start ("--fault-rate", "0.5", "--faults", "429,500,malformed", "--seed", "7", NULL);
      guint faults = 0;

      for (guint i = 0; i < 40; i++)
        {
          g_autoptr (Reply) reply = chat (session, server, "hello", 1);

          g_assert_no_error (reply->error);
          g_string_append_printf (outcomes[run], "%u%c ", reply->status, reply->json != NULL ? 'j' : 'x');
          faults += reply->status != 200 || reply->json == NULL;
        }
      g_assert_cmpint (get_stat (session, server, "faults"), ==, faults);
      g_assert_cmpuint (faults, >, 5);
      g_assert_cmpuint (faults, <, 35);
      server_stop (server);
    }
  g_assert_cmpstr (first->str, ==, second->str);
}

typedef struct
{
  GMainLoop *loop;
  guint pending;
  guint ok;
} Batch;

static void
batch_done (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  Batch *batch = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);

  g_assert_no_error (error);
  if (soup_message_get_status (soup_session_get_async_result_message (SOUP_SESSION (source), result)) == 200)
    batch->ok++;
  if (--batch->pending == 0)
    g_main_loop_quit (batch->loop);
}

static void
test_latency_overlaps (void)
{
  Server *server = server_start ("--latency-ms", "200", "--threads", "3", NULL);
  g_autoptr (SoupSession) session = make_session (10);
  g_autofree char *url = g_strconcat (server->url, "/chat/completions", NULL);
  Batch batch = { g_main_loop_new (NULL, FALSE), 10, 0 };
  gint64 start, elapsed;

  /* one request alone takes the latency */
  start = g_get_monotonic_time ();
  {
    g_autoptr (Reply) reply = chat (session, server, "warm up", 1);

    g_assert_cmpstr (choice_text (reply, 0), ==, "warm up");
  }
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 200 * 1000);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *text = g_strdup_printf ("request %u", i);
      g_autofree char *body = chat_body (text, 1);
      g_autoptr (SoupMessage) msg = make_message ("POST", url, body, NULL);

      soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, batch_done, &batch);
    }
  g_main_loop_run (batch.loop);
  elapsed = g_get_monotonic_time () - start;
  g_test_message ("10 requests at 200 ms: %" G_GINT64_FORMAT " ms", elapsed / 1000);
  g_assert_cmpuint (batch.ok, ==, 10);
  g_assert_cmpint (elapsed, >=, 200 * 1000);
  g_assert_cmpint (elapsed, <, 1000 * 1000);   /* one after another would be 2,000 ms */
  /* the workers that served them share their counters */
  g_assert_cmpint (get_stat (session, server, "chat"), ==, 11);
  g_assert_cmpint (get_stat (session, server, "distinct"), ==, 11);
  g_main_loop_unref (batch.loop);
  server_stop (server);
}

static void
test_stats (void)
{
  Server *server = server_start (NULL);
  g_autoptr (SoupSession) session = make_session (10);
  const char *names[] = { "requests", "distinct", "max_per_body", "faults", "chat", "embeddings" };
  g_autofree char *reset_url = g_strconcat (server->root, "/_reset", NULL);

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (Reply) reply = chat (session, server, "same", 1);

      g_assert_cmpuint (reply->status, ==, 200);
    }
  {
    g_autoptr (Reply) other = chat (session, server, "other", 1);
    g_autoptr (Reply) bad = post (session, server, "/chat/completions", "{");
    g_autoptr (Reply) embeddings = post (session, server, "/embeddings", "{\"model\": \"e\", \"input\": \"x\"}");

    g_assert_cmpuint (other->status, ==, 200);
    g_assert_cmpuint (bad->status, ==, 400);
    g_assert_cmpuint (embeddings->status, ==, 200);
  }
  g_assert_cmpint (get_stat (session, server, "requests"), ==, 6);
  g_assert_cmpint (get_stat (session, server, "distinct"), ==, 4);
  g_assert_cmpint (get_stat (session, server, "max_per_body"), ==, 3);
  g_assert_cmpint (get_stat (session, server, "faults"), ==, 0);
  g_assert_cmpint (get_stat (session, server, "chat"), ==, 5);
  g_assert_cmpint (get_stat (session, server, "embeddings"), ==, 1);

  {
    g_autoptr (Reply) reset = request (session, "POST", reset_url, "", NULL);

    g_assert_cmpuint (reset->status, ==, 200);
  }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpint (get_stat (session, server, names[i]), ==, 0);
  {
    g_autoptr (Reply) again = chat (session, server, "same", 1);

    g_assert_cmpuint (again->status, ==, 200);
  }
  g_assert_cmpint (get_stat (session, server, "distinct"), ==, 1);
  g_assert_cmpint (get_stat (session, server, "max_per_body"), ==, 1);
  server_stop (server);
}

static GPtrArray *
embeddings_of (SoupSession *session,
               Server      *server,
               const char  *body)
{
  g_autoptr (Reply) reply = post (session, server, "/embeddings", body);
  GPtrArray *vectors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  JsonArray *data;

  g_assert_cmpuint (reply->status, ==, 200);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (reply->json), "model"), ==, "emb");
  g_assert_true (json_object_has_member (json_object_get_object_member (json_node_get_object (reply->json), "usage"),
                                         "prompt_tokens"));
  data = json_object_get_array_member (json_node_get_object (reply->json), "data");
  for (guint i = 0; i < json_array_get_length (data); i++)
    {
      JsonObject *item = json_array_get_object_element (data, i);
      JsonArray *embedding = json_object_get_array_member (item, "embedding");
      GArray *vector = g_array_new (FALSE, FALSE, sizeof (double));
      double norm = 0;

      g_assert_cmpint (json_object_get_int_member (item, "index"), ==, i);
      g_assert_cmpuint (json_array_get_length (embedding), ==, 8);
      for (guint j = 0; j < json_array_get_length (embedding); j++)
        {
          double value = json_array_get_double_element (embedding, j);

          g_array_append_val (vector, value);
          norm += value * value;
        }
      g_assert_cmpfloat_with_epsilon (norm, 1.0, 1e-9);
      g_ptr_array_add (vectors, vector);
    }
  return vectors;
}

static gboolean
same_vector (GArray *a,
             GArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, a->len * sizeof (double)) == 0;
}

static void
test_embeddings (void)
{
  g_autoptr (SoupSession) session = make_session (10);
  Server *server = server_start (NULL);
  g_autoptr (GPtrArray) single = embeddings_of (session, server, "{\"model\": \"emb\", \"input\": \"alpha\"}");
  g_autoptr (GPtrArray) batch = embeddings_of (session, server,
                                               "{\"model\": \"emb\", \"input\": [\"beta\", \"alpha\", \"alpha\"]}");
  g_autoptr (GPtrArray) later = NULL;

  g_assert_cmpuint (single->len, ==, 1);
  g_assert_cmpuint (batch->len, ==, 3);
  g_assert_true (same_vector (single->pdata[0], batch->pdata[1]));
  g_assert_true (same_vector (batch->pdata[1], batch->pdata[2]));
  g_assert_false (same_vector (batch->pdata[0], batch->pdata[1]));
  server_stop (server);

  /* another server process gives the same vectors */
  server = server_start (NULL);
  later = embeddings_of (session, server, "{\"model\": \"emb\", \"input\": [\"alpha\"]}");
  g_assert_true (same_vector (single->pdata[0], later->pdata[0]));
  server_stop (server);
}

static void
test_stops (void)
{
  g_autoptr (GError) error = NULL;
  Server *server = server_start ("--latency-ms", "50", NULL);

  /* SIGTERM: exits cleanly */
  g_subprocess_send_signal (server->process, SIGTERM);
  g_subprocess_wait (server->process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (server->process));
  g_assert_cmpint (g_subprocess_get_exit_status (server->process), ==, 0);
  /* server_stop also closes stdin: harmless once it has exited */
  server_stop (server);

  /* end of file on stdin is checked by every other test's server_stop */
  server = server_start (NULL);
  server_stop (server);

  /* bad options: exit status 2 */
  {
    g_autoptr (GSubprocess) process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                                        | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                                                        g_getenv ("FAKE_OPENAI"), "--faults", "teapot", NULL);

    g_assert_no_error (error);
    g_subprocess_wait (process, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 2);
  }
}

/* https with a certificate made now by openssl: a client that trusts it
 * gets answers, one that uses the system's trust is refused. */
static void
test_tls (void)
{
  g_autofree char *openssl = g_find_program_in_path ("openssl");
  g_autofree char *cert = g_build_filename (tmpdir, "cert.pem", NULL);
  g_autofree char *key = g_build_filename (tmpdir, "key.pem", NULL);
  g_autoptr (GSubprocess) maker = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GTlsDatabase) database = NULL;
  g_autoptr (SoupSession) trusting = NULL;
  g_autoptr (SoupSession) strict = make_session (10);
  Server *server;

  if (openssl == NULL)
    {
      g_test_skip ("no openssl command to make a certificate");
      return;
    }
  maker = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                            openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                            "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                            "-addext", "subjectAltName=IP:127.0.0.1", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (maker, NULL, &error);
  g_assert_no_error (error);

  server = server_start ("--tls-cert", cert, "--tls-key", key, NULL);
  g_assert_true (g_str_has_prefix (server->url, "https://127.0.0.1:"));

  database = g_tls_file_database_new (cert, &error);
  g_assert_no_error (error);
  trusting = make_session (10);
  soup_session_set_tls_database (trusting, database);
  {
    g_autoptr (Reply) reply = chat (trusting, server, "over TLS", 1);
    g_autoptr (Reply) refused = chat (strict, server, "over TLS", 1);

    g_assert_no_error (reply->error);
    g_assert_cmpstr (choice_text (reply, 0), ==, "over TLS");
    g_assert_nonnull (refused->error);
    g_test_message ("untrusted: %s", refused->error->message);
  }
  server_stop (server);
  g_remove (cert);
  g_remove (key);
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature (address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* In the sanitizer build, TLS handshakes that glib-networking ran in
 * GLib's worker threads leave GnuTLS's dynamic thread-local storage in
 * them, which LeakSanitizer (GCC 12) crashes on at exit ("Tracer caught
 * signal 11"). Let those threads end first: they do within half a second
 * of their last task once no idle thread is kept. fake-openai does the same. */
static void
let_worker_threads_end (void)
{
#ifdef UNDER_ASAN
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_thread_pool_set_max_unused_threads (0);
  for (;;)
    {
      g_autoptr (GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
      const char *name;
      guint n = 0;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename ("/proc/self/task", name, "comm", NULL);
          g_autofree char *comm = NULL;

          if (g_file_get_contents (path, &comm, NULL, NULL) && g_str_has_prefix (comm, "pool-")
              && !g_str_has_prefix (comm, "pool-spawner"))
            n++;
        }
      if (n == 0 || g_get_monotonic_time () > deadline)
        break;
      g_thread_pool_stop_unused_threads ();
      g_usleep (10 * 1000);
    }
#endif
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("test-fake-openai-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);

  g_test_add_func ("/fake-openai/ready-line", test_ready_line);
  g_test_add_func ("/fake-openai/echo", test_echo);
  g_test_add_func ("/fake-openai/rules", test_rules);
  g_test_add_func ("/fake-openai/bad-requests", test_bad_requests);
  g_test_add_func ("/fake-openai/api-key", test_api_key);
  g_test_add_func ("/fake-openai/no-n", test_no_n);
  g_test_add_func ("/fake-openai/fault/429", test_fault_429);
  g_test_add_func ("/fake-openai/fault/500", test_fault_500);
  g_test_add_func ("/fake-openai/fault/close", test_fault_close);
  g_test_add_func ("/fake-openai/fault/slow", test_fault_slow);
  g_test_add_func ("/fake-openai/fault/malformed", test_fault_malformed);
  g_test_add_func ("/fake-openai/fault/seed", test_fault_seed);
  g_test_add_func ("/fake-openai/latency-overlaps", test_latency_overlaps);
  g_test_add_func ("/fake-openai/stats", test_stats);
  g_test_add_func ("/fake-openai/embeddings", test_embeddings);
  g_test_add_func ("/fake-openai/stops", test_stops);
  g_test_add_func ("/fake-openai/tls", test_tls);
  status = g_test_run ();

  {
    g_autofree char *rules = g_build_filename (tmpdir, "rules.json", NULL);

    g_remove (rules);
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }
  let_worker_threads_end ();
  return status;
}
