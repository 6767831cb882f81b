/* test-http-client.c: GrammarHttpClient against a local SoupServer
 *
 * The server runs on a thread of its own, so that the client's main
 * context is the test's alone. Each path answers in one scripted way;
 * the server counts requests per path and the requests it holds at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <grammar-plugin.h>
#include <libsoup/soup.h>

#define SECRET "sk-test-SECRET"

/* ---- the server ---- */

typedef struct
{
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  GMutex mutex;
  GCond ready;
  char *url;
  GHashTable *counts;   /* path → requests */
  guint holding;        /* requests held by /hold now */
  guint max_holding;
} Service;

static Service *service;

static guint
service_count (const char *path)
{
  guint count;

  g_mutex_lock (&service->mutex);
  count = GPOINTER_TO_UINT (g_hash_table_lookup (service->counts, path));
  g_mutex_unlock (&service->mutex);
  return count;
}

static char *
url_of (const char *path)
{
  return g_strconcat (service->url, path, NULL);
}

static gboolean
unpause (gpointer user_data)
{
  SoupServerMessage *message = user_data;

  if (g_str_equal (g_uri_get_path (soup_server_message_get_uri (message)), "/hold"))
    {
      g_mutex_lock (&service->mutex);
      service->holding--;
      g_mutex_unlock (&service->mutex);
    }
  soup_server_message_set_status (message, 200, NULL);
  soup_server_message_set_response (message, "text/plain", SOUP_MEMORY_STATIC, "late", 4);
  soup_server_message_unpause (message);
  return G_SOURCE_REMOVE;
}

static void
hold (SoupServerMessage *message,
      guint              ms)
{
  GSource *source = g_timeout_source_new (ms);

  soup_server_message_pause (message);
  g_source_set_callback (source, unpause, g_object_ref (message), g_object_unref);
  g_source_attach (source, service->context);
  g_source_unref (source);
}

static void
reply (SoupServerMessage *message,
       guint              status,
       const char        *body)
{
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, "text/plain", SOUP_MEMORY_COPY, body, strlen (body));
}

static void
retry_after (SoupServerMessage *message,
             const char        *value)
{
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Retry-After", value);
}

/* The date @seconds from now, as an HTTP date. */
static char *
http_date (int seconds)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr (GDateTime) then = g_date_time_add_seconds (now, seconds);

  return soup_date_time_to_string (then, SOUP_DATE_HTTP);
}

static void
service_handle (SoupServer        *server,
                SoupServerMessage *message,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  SoupMessageBody *request = soup_server_message_get_request_body (message);
  g_autoptr (GBytes) body = soup_message_body_flatten (request);
  guint count;

  g_mutex_lock (&service->mutex);
  count = GPOINTER_TO_UINT (g_hash_table_lookup (service->counts, path)) + 1;
  g_hash_table_replace (service->counts, g_strdup (path), GUINT_TO_POINTER (count));
  if (g_str_equal (path, "/hold"))
    {
      service->holding++;
      service->max_holding = MAX (service->max_holding, service->holding);
    }
  g_mutex_unlock (&service->mutex);

  if (g_str_equal (path, "/ok"))
    reply (message, 200, g_bytes_get_size (body) > 0 ? "posted" : "ok");
  else if (g_str_equal (path, "/retry-after-seconds"))
    {
      reply (message, count == 1 ? 429 : 200, count == 1 ? "slow down" : "ok");
      retry_after (message, "1");
    }
  else if (g_str_equal (path, "/retry-after-date"))
    {
      g_autofree char *date = http_date (2);

      reply (message, count == 1 ? 503 : 200, count == 1 ? "busy" : "ok");
      retry_after (message, date);
    }
  else if (g_str_equal (path, "/always-503"))
    {
      reply (message, 503, "down");
      retry_after (message, "0");
    }
  else if (g_str_equal (path, "/long-429"))
    {
      reply (message, 429, "slow down");
      retry_after (message, "30");
    }
  else if (g_str_equal (path, "/slow"))
    hold (message, 2000);
  else if (g_str_equal (path, "/hold"))
    hold (message, 150);
  else if (g_str_equal (path, "/delay-100"))
    hold (message, 100);
  else if (g_str_equal (path, "/reset-twice"))
    {
      g_autoptr (GIOStream) stream = soup_server_message_steal_connection (message);

      g_io_stream_close (stream, NULL, NULL);
    }
  else if (g_str_equal (path, "/auth"))
    {
      const char *authorization = soup_message_headers_get_one (soup_server_message_get_request_headers (message),
                                                                "Authorization");
      g_autofree char *text = g_strdup_printf ("you sent %s", authorization != NULL ? authorization : "nothing");

      reply (message, 401, text);
    }
  else if (g_str_equal (path, "/bad-then-good"))
    reply (message, 200, count == 1 ? "not json" : "{}");
  else if (g_str_equal (path, "/reset") && count == 1)
    {
      g_autoptr (GIOStream) stream = soup_server_message_steal_connection (message);

      g_io_stream_close (stream, NULL, NULL);
    }
  else if (g_str_equal (path, "/reset"))
    reply (message, 200, "ok");
  else
    reply (message, 404, "no such path");
}

/* Connections are accepted here and handed to the server, rather than
 * by a listener of libsoup's, which keeps a reference to every socket
 * it accepts (a leak to the sanitizer build). */
static gboolean
on_incoming (GSocketService    *listener,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           user_data)
{
  g_autoptr (GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr (GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  g_autoptr (GError) error = NULL;

  soup_server_accept_iostream (user_data, G_IO_STREAM (connection), local, remote, &error);
  g_assert_no_error (error);
  return TRUE;
}

static GSocket *
listen_loopback (void)
{
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GError) error = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (socket, address, TRUE, &error);
  g_assert_no_error (error);
  g_socket_listen (socket, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&socket);
}

static gpointer
service_thread (gpointer user_data)
{
  g_autoptr (SoupServer) server = NULL;
  g_autoptr (GSocketService) listener = g_socket_service_new ();
  g_autoptr (GSocket) socket = listen_loopback ();
  g_autoptr (GSocket) idle = listen_loopback ();
  g_autoptr (GSocketAddress) address = g_socket_get_local_address (socket, NULL);
  g_autoptr (GError) error = NULL;

  g_main_context_push_thread_default (service->context);
  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, service_handle, NULL, NULL);
  /* The server keeps connections alive only while it has a listener of
   * its own: give it one that nobody connects to. */
  soup_server_listen_socket (server, idle, 0, &error);
  g_assert_no_error (error);
  g_socket_listener_add_socket (G_SOCKET_LISTENER (listener), socket, NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (listener, "incoming", G_CALLBACK (on_incoming), server);
  g_socket_service_start (listener);

  g_mutex_lock (&service->mutex);
  service->url = g_strdup_printf ("http://127.0.0.1:%u",
                                  g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address)));
  g_cond_signal (&service->ready);
  g_mutex_unlock (&service->mutex);

  g_main_loop_run (service->loop);
  g_socket_service_stop (listener);
  g_socket_listener_close (G_SOCKET_LISTENER (listener));
  soup_server_disconnect (server);
  g_clear_object (&server);
  while (g_main_context_iteration (service->context, FALSE))
    ;
  g_main_context_pop_thread_default (service->context);
  return NULL;
}

static void
service_start (void)
{
  service = g_new0 (Service, 1);
  g_mutex_init (&service->mutex);
  g_cond_init (&service->ready);
  service->context = g_main_context_new ();
  service->loop = g_main_loop_new (service->context, FALSE);
  service->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_mutex_lock (&service->mutex);
  service->thread = g_thread_new ("service", service_thread, NULL);
  while (service->url == NULL)
    g_cond_wait (&service->ready, &service->mutex);
  g_mutex_unlock (&service->mutex);
}

static gboolean
quit_loop (gpointer user_data)
{
  g_main_loop_quit (service->loop);
  return G_SOURCE_REMOVE;
}

static void
service_stop (void)
{
  g_main_context_invoke (service->context, quit_loop, NULL);
  g_thread_join (service->thread);
  g_main_loop_unref (service->loop);
  g_main_context_unref (service->context);
  g_hash_table_unref (service->counts);
  g_free (service->url);
  g_mutex_clear (&service->mutex);
  g_cond_clear (&service->ready);
  g_clear_pointer (&service, g_free);
}

/* ---- the client ---- */

static guint64
statistic (GrammarHttpClient *client,
           const char        *name)
{
  guint64 value = 0;

  g_object_get (client, name, &value, NULL);
  return value;
}

static double
latency (GrammarHttpClient *client,
         const char        *name)
{
  double value = -1;

  g_object_get (client, name, &value, NULL);
  return value;
}

static double
seconds_since (gint64 start)
{
  return (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
}

/* One asynchronous request: its result and when it came. */
typedef struct
{
  GAsyncResult *result;
  gint64 finished;
} Sent;

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Sent *sent = user_data;

  sent->finished = g_get_monotonic_time ();
  sent->result = g_object_ref (result);
}

static void
wait_sent (Sent *sent)
{
  while (sent->result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
spin (double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

static GBytes *
send_path (GrammarHttpClient  *client,
           const char         *path,
           guint              *status,
           GError            **error)
{
  g_autofree char *url = url_of (path);

  return grammar_http_client_send (client, "GET", url, NULL, NULL, NULL, status, error);
}

static void
assert_body (GBytes     *bytes,
             const char *expected)
{
  g_assert_nonnull (bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expected, strlen (expected));
}

/* ---- tests ---- */

static void
test_basic (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autoptr (GBytes) posted = NULL;
  g_autoptr (GBytes) body = g_bytes_new_static ("abc", 3);
  g_autofree char *url = url_of ("/ok");
  guint status = 0;

  got = send_path (client, "/ok", &status, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 200);
  assert_body (got, "ok");
  posted = grammar_http_client_send (client, "POST", url, "text/plain", body, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_body (posted, "posted");

  g_assert_cmpuint (statistic (client, "requests"), ==, 2);
  g_assert_cmpuint (statistic (client, "retries"), ==, 0);
  g_assert_cmpuint (statistic (client, "failures"), ==, 0);
  g_assert_cmpuint (statistic (client, "bytes-sent"), ==, 3);
  g_assert_cmpuint (statistic (client, "bytes-received"), ==, 2 + 6);
}

/* A 429 with Retry-After: 1 is tried again after a second, not sooner. */
static void
test_retry_after_seconds (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  gint64 start = g_get_monotonic_time ();

  got = send_path (client, "/retry-after-seconds", NULL, &error);
  g_assert_no_error (error);
  assert_body (got, "ok");
  g_assert_cmpfloat (seconds_since (start), >=, 0.95);
  g_assert_cmpfloat (seconds_since (start), <, 5.0);
  g_assert_cmpuint (service_count ("/retry-after-seconds"), ==, 2);
  g_assert_cmpuint (statistic (client, "requests"), ==, 2);
  g_assert_cmpuint (statistic (client, "retries"), ==, 1);
  g_assert_cmpuint (statistic (client, "retries-429"), ==, 1);
  g_assert_cmpuint (statistic (client, "retries-5xx"), ==, 0);
  g_assert_cmpuint (statistic (client, "timeouts"), ==, 0);
}

/* Retry-After as an HTTP date two seconds ahead (a date is whole
 * seconds, so the wait is between one and two). */
static void
test_retry_after_date (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  gint64 start = g_get_monotonic_time ();

  got = send_path (client, "/retry-after-date", NULL, &error);
  g_assert_no_error (error);
  assert_body (got, "ok");
  g_assert_cmpfloat (seconds_since (start), >=, 0.9);
  g_assert_cmpfloat (seconds_since (start), <, 5.0);
  g_assert_cmpuint (statistic (client, "retries"), ==, 1);
  g_assert_cmpuint (statistic (client, "retries-5xx"), ==, 1);
  g_assert_cmpuint (statistic (client, "retries-429"), ==, 0);
}

/* A 5xx every time: 1 + max-retries attempts, then an error that says so. */
static void
test_give_up (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autofree char *expected = g_strdup_printf ("%s/always-503 failed after 3 attempts: HTTP 503: Service Unavailable",
                                               service->url);
  guint before = service_count ("/always-503");
  guint status = 0;

  g_object_set (client, "max-retries", 2, NULL);
  got = send_path (client, "/always-503", &status, &error);
  g_assert_null (got);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpuint (status, ==, 503);
  g_assert_cmpuint (service_count ("/always-503") - before, ==, 3);
  g_assert_cmpuint (statistic (client, "requests"), ==, 3);
  g_assert_cmpuint (statistic (client, "retries"), ==, 2);
  g_assert_cmpuint (statistic (client, "failures"), ==, 1);
}

/* A 404 is not tried again. */
static void
test_not_retried (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autofree char *expected = g_strdup_printf ("%s/missing: HTTP 404: Not Found", service->url);
  guint status = 0;

  got = send_path (client, "/missing", &status, &error);
  g_assert_null (got);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpuint (status, ==, 404);
  g_assert_cmpuint (statistic (client, "requests"), ==, 1);
}

/* Each attempt is given timeout seconds. */
static void
test_timeout (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  gint64 start = g_get_monotonic_time ();

  g_object_set (client, "timeout", 0.2, "max-retries", 1, NULL);
  got = send_path (client, "/slow", NULL, &error);
  g_assert_null (got);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE);
  g_assert_true (g_str_has_suffix (error->message, "/slow failed after 2 attempts: no reply within 0.2 s (timeout)"));
  g_assert_cmpfloat (seconds_since (start), >=, 0.4);
  g_assert_cmpfloat (seconds_since (start), <, 1.9);
  g_assert_cmpuint (statistic (client, "requests"), ==, 2);
  /* both attempts timed out, one of them was a retry; no reply, no latency */
  g_assert_cmpuint (statistic (client, "timeouts"), ==, 2);
  g_assert_cmpuint (statistic (client, "retries-timeout"), ==, 1);
  g_assert_cmpuint (statistic (client, "failures"), ==, 1);
  g_assert_cmpfloat (latency (client, "latency-median-ms"), ==, 0.0);
}

/* A connection closed without a reply is tried again. */
static void
test_reset (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;

  got = send_path (client, "/reset", NULL, &error);
  g_assert_no_error (error);
  assert_body (got, "ok");
  g_assert_cmpuint (statistic (client, "retries"), ==, 1);
  g_assert_cmpuint (statistic (client, "retries-connection"), ==, 1);
}

/* The server's words go into the message; the secrets do not. */
static gboolean
check_with_body (guint     status,
                 GBytes   *body,
                 gpointer  user_data,
                 GError  **error)
{
  g_autofree char *text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    return TRUE;
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "HTTP %u: %s", status, text);
  return FALSE;
}

static void
test_redaction (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autofree char *url = url_of ("/auth");
  g_autofree char *redacted = NULL;
  Sent sent = { NULL, 0 };

  grammar_http_client_set_bearer_token (client, SECRET);
  grammar_http_client_add_secret (client, "hunter2");
  redacted = grammar_http_client_redact (client, "a " SECRET " and hunter2");
  g_assert_cmpstr (redacted, ==, "a [redacted] and [redacted]");

  grammar_http_client_send_async (client, "GET", url, NULL, NULL, check_with_body, NULL, NULL, NULL, on_sent, &sent);
  wait_sent (&sent);
  got = grammar_http_client_send_finish (client, sent.result, NULL, &error);
  g_assert_null (got);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
  g_assert_true (g_str_has_suffix (error->message, "/auth: HTTP 401: you sent Bearer [redacted]"));
  g_assert_null (strstr (error->message, SECRET));
  g_clear_object (&sent.result);
}

/* A check function that rejects a 2xx reply has it tried again. */
static gboolean
check_json (guint     status,
            GBytes   *body,
            gpointer  user_data,
            GError  **error)
{
  guint *calls = user_data;

  (*calls)++;
  if (g_bytes_get_size (body) > 0 && ((const char *) g_bytes_get_data (body, NULL))[0] == '{')
    return TRUE;
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "not JSON");
  return FALSE;
}

static void
test_check_retry (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autofree char *url = url_of ("/bad-then-good");
  guint calls = 0;
  Sent sent = { NULL, 0 };

  grammar_http_client_send_async (client, "GET", url, NULL, NULL, check_json, &calls, NULL, NULL, on_sent, &sent);
  wait_sent (&sent);
  got = grammar_http_client_send_finish (client, sent.result, NULL, &error);
  g_assert_no_error (error);
  assert_body (got, "{}");
  g_assert_cmpuint (calls, ==, 2);
  g_assert_cmpuint (statistic (client, "retries"), ==, 1);
  g_assert_cmpuint (statistic (client, "retries-malformed"), ==, 1);
  g_clear_object (&sent.result);
}

/* The latency of the replies: median, 95th percentile and maximum from
 * the histogram, within its 5 %. */
static void
test_latency (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;

  /* 8 replies after 100 ms, 2 at once: the median is a slow one */
  for (guint i = 0; i < 10; i++)
    {
      g_autoptr (GBytes) got = send_path (client, i < 8 ? "/delay-100" : "/ok", NULL, &error);

      g_assert_no_error (error);
      g_assert_nonnull (got);
    }
  g_assert_cmpfloat (latency (client, "latency-median-ms"), >=, 95.0);
  g_assert_cmpfloat (latency (client, "latency-median-ms"), <, 400.0);
  g_assert_cmpfloat (latency (client, "latency-p95-ms"), >=, latency (client, "latency-median-ms"));
  g_assert_cmpfloat (latency (client, "latency-max-ms"), >=, 100.0);
  g_assert_cmpfloat (latency (client, "latency-p95-ms"), <=, latency (client, "latency-max-ms"));

  /* 30 more at once: now the median is a fast one, the p95 a slow one */
  for (guint i = 0; i < 30; i++)
    {
      g_autoptr (GBytes) got = send_path (client, "/ok", NULL, &error);

      g_assert_no_error (error);
    }
  g_assert_cmpfloat (latency (client, "latency-median-ms"), <, 50.0);
  g_assert_cmpfloat (latency (client, "latency-p95-ms"), >=, 95.0);
}

/* The end-of-run line: requests, retries by cause, timeouts, latency. */
static void
test_statistics_line (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) first = NULL;
  g_autoptr (GBytes) second = NULL;
  g_autofree char *line = NULL;
  g_autofree char *fresh = NULL;
  g_autoptr (GrammarHttpClient) unused = grammar_http_client_new ();

  fresh = grammar_format_request_statistics (G_OBJECT (unused), "system");
  g_assert_cmpstr (fresh, ==, "system: 0 requests, 0 retries, 0 timeouts");

  g_object_set (client, "max-retries", 1, NULL);
  first = send_path (client, "/reset-twice", NULL, &error);
  g_assert_null (first);
  g_clear_error (&error);
  second = send_path (client, "/delay-100", NULL, &error);
  g_assert_no_error (error);
  line = grammar_format_request_statistics (G_OBJECT (client), "system");
  g_assert_nonnull (line);
  g_test_message ("%s", line);
  /* the latency is that of the one reply, 100 ms or a little more (the
   * histogram's buckets are 9 % wide) */
  {
    const char *prefix = "system: 3 requests, 1 retries (1 connection lost), 0 timeouts, 1 failed, latency median ";
    double median, p95;

    g_assert_true (g_str_has_prefix (line, prefix));
    g_assert_cmpint (sscanf (line + strlen (prefix), "%lf ms, p95 %lf ms", &median, &p95), ==, 2);
    g_assert_cmpfloat (median, >=, 90.0);
    g_assert_cmpfloat (median, <, 500.0);
    g_assert_cmpfloat (p95, ==, median);
    g_assert_true (g_str_has_suffix (line, " ms"));
  }
}

/* Never more than max-concurrency requests in flight. */
static void
test_concurrency (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autofree char *url = url_of ("/hold");
  Sent sent[6] = { { NULL, 0 } };
  gint64 start = g_get_monotonic_time ();

  g_object_set (client, "max-concurrency", 2, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (sent); i++)
    grammar_http_client_send_async (client, "GET", url, NULL, NULL, NULL, NULL, NULL, NULL, on_sent, &sent[i]);
  for (guint i = 0; i < G_N_ELEMENTS (sent); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) got = NULL;

      wait_sent (&sent[i]);
      got = grammar_http_client_send_finish (client, sent[i].result, NULL, &error);
      g_assert_no_error (error);
      assert_body (got, "late");
      g_clear_object (&sent[i].result);
    }
  g_mutex_lock (&service->mutex);
  g_assert_cmpuint (service->max_holding, ==, 2);
  g_mutex_unlock (&service->mutex);
  g_assert_cmpfloat (seconds_since (start), >=, 3 * 0.15 - 0.01);
}

/* requests-per-minute spaces the requests out. */
static void
test_pacing (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autofree char *url = url_of ("/ok");
  Sent sent[4] = { { NULL, 0 } };
  gint64 start = g_get_monotonic_time ();

  g_object_set (client, "requests-per-minute", 600, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (sent); i++)
    grammar_http_client_send_async (client, "GET", url, NULL, NULL, NULL, NULL, NULL, NULL, on_sent, &sent[i]);
  for (guint i = 0; i < G_N_ELEMENTS (sent); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) got = NULL;

      wait_sent (&sent[i]);
      got = grammar_http_client_send_finish (client, sent[i].result, NULL, &error);
      g_assert_no_error (error);
      g_clear_object (&sent[i].result);
    }
  g_assert_cmpfloat (seconds_since (start), >=, 0.29);
}

/* Cancelled while it waits out a Retry-After of 30 s: over in 100 ms. */
static void
test_cancel_backoff (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autofree char *url = url_of ("/long-429");
  guint before = service_count ("/long-429");
  Sent sent = { NULL, 0 };
  gint64 cancelled;

  grammar_http_client_send_async (client, "GET", url, NULL, NULL, NULL, NULL, NULL, cancellable, on_sent, &sent);
  while (service_count ("/long-429") == before)
    g_main_context_iteration (NULL, FALSE);
  spin (0.3);   /* the 429 is back: the request waits out its Retry-After */
  g_assert_null (sent.result);
  cancelled = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  wait_sent (&sent);
  g_assert_cmpint (sent.finished - cancelled, <, G_USEC_PER_SEC / 10);
  got = grammar_http_client_send_finish (client, sent.result, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (service_count ("/long-429") - before, ==, 1);
  g_assert_cmpuint (statistic (client, "failures"), ==, 0);
  g_clear_object (&sent.result);
}

/* Cancelled while queued behind a request in flight, then the one in
 * flight: each over in 100 ms. */
static void
test_cancel_queued (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GCancellable) first_cancellable = g_cancellable_new ();
  g_autoptr (GCancellable) second_cancellable = g_cancellable_new ();
  g_autoptr (GError) first_error = NULL;
  g_autoptr (GError) second_error = NULL;
  g_autoptr (GBytes) first_got = NULL;
  g_autoptr (GBytes) second_got = NULL;
  g_autofree char *slow = url_of ("/slow");
  g_autofree char *ok = url_of ("/ok");
  guint before = service_count ("/slow");
  Sent first = { NULL, 0 };
  Sent second = { NULL, 0 };
  gint64 cancelled;

  g_object_set (client, "max-concurrency", 1, NULL);
  grammar_http_client_send_async (client, "GET", slow, NULL, NULL, NULL, NULL, NULL, first_cancellable, on_sent,
                                  &first);
  grammar_http_client_send_async (client, "GET", ok, NULL, NULL, NULL, NULL, NULL, second_cancellable, on_sent,
                                  &second);
  while (service_count ("/slow") == before)
    g_main_context_iteration (NULL, FALSE);

  cancelled = g_get_monotonic_time ();
  g_cancellable_cancel (second_cancellable);
  wait_sent (&second);
  g_assert_cmpint (second.finished - cancelled, <, G_USEC_PER_SEC / 10);
  g_assert_null (first.result);
  second_got = grammar_http_client_send_finish (client, second.result, NULL, &second_error);
  g_assert_error (second_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  cancelled = g_get_monotonic_time ();
  g_cancellable_cancel (first_cancellable);
  wait_sent (&first);
  g_assert_cmpint (first.finished - cancelled, <, G_USEC_PER_SEC / 10);
  first_got = grammar_http_client_send_finish (client, first.result, NULL, &first_error);
  g_assert_error (first_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (statistic (client, "requests"), ==, 1);
  g_clear_object (&first.result);
  g_clear_object (&second.result);
}

/* Cancelled while it waits for its pace (one request a minute). */
static void
test_cancel_pacing (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) first_got = NULL;
  g_autoptr (GBytes) got = NULL;
  g_autofree char *url = url_of ("/ok");
  Sent first = { NULL, 0 };
  Sent second = { NULL, 0 };
  gint64 cancelled;

  g_object_set (client, "requests-per-minute", 1, NULL);
  grammar_http_client_send_async (client, "GET", url, NULL, NULL, NULL, NULL, NULL, NULL, on_sent, &first);
  grammar_http_client_send_async (client, "GET", url, NULL, NULL, NULL, NULL, NULL, cancellable, on_sent, &second);
  wait_sent (&first);
  first_got = grammar_http_client_send_finish (client, first.result, NULL, &error);
  g_assert_no_error (error);
  spin (0.1);
  g_assert_null (second.result);

  cancelled = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  wait_sent (&second);
  g_assert_cmpint (second.finished - cancelled, <, G_USEC_PER_SEC / 10);
  got = grammar_http_client_send_finish (client, second.result, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (statistic (client, "requests"), ==, 1);
  g_clear_object (&first.result);
  g_clear_object (&second.result);
}

/* A request whose cancellable is cancelled before it is sent never goes. */
static void
test_cancel_before (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;

  g_cancellable_cancel (cancellable);
  got = grammar_http_client_send (client, "GET", service->url, NULL, NULL, cancellable, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (statistic (client, "requests"), ==, 0);
}

static void
test_bad_input (void)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) got = NULL;
  const char * const good[] = { "X-One: 1", "X-Two:2", NULL };
  const char * const bad[] = { "X-Three 3", NULL };

  got = grammar_http_client_send (client, "GET", "ftp://127.0.0.1/x", NULL, NULL, NULL, NULL, &error);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "“ftp://127.0.0.1/x” is not an http:// or https:// address");
  g_clear_error (&error);

  g_assert_true (grammar_http_client_add_header_lines (client, good, &error));
  g_assert_no_error (error);
  g_assert_false (grammar_http_client_add_header_lines (client, bad, &error));
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  g_assert_cmpstr (error->message, ==, "“X-Three 3” is not of the form “Name: value”");
  g_clear_error (&error);

  g_assert_false (grammar_http_client_set_ca_file (client, "/nonexistent/ca.pem", &error));
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  g_assert_true (g_str_has_prefix (error->message, "ca-file /nonexistent/ca.pem: "));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  service_start ();

  g_test_add_func ("/http-client/basic", test_basic);
  g_test_add_func ("/http-client/retry-after-seconds", test_retry_after_seconds);
  g_test_add_func ("/http-client/retry-after-date", test_retry_after_date);
  g_test_add_func ("/http-client/give-up", test_give_up);
  g_test_add_func ("/http-client/not-retried", test_not_retried);
  g_test_add_func ("/http-client/timeout", test_timeout);
  g_test_add_func ("/http-client/reset", test_reset);
  g_test_add_func ("/http-client/redaction", test_redaction);
  g_test_add_func ("/http-client/check-retry", test_check_retry);
  g_test_add_func ("/http-client/latency", test_latency);
  g_test_add_func ("/http-client/statistics-line", test_statistics_line);
  g_test_add_func ("/http-client/concurrency", test_concurrency);
  g_test_add_func ("/http-client/pacing", test_pacing);
  g_test_add_func ("/http-client/cancel-backoff", test_cancel_backoff);
  g_test_add_func ("/http-client/cancel-queued", test_cancel_queued);
  g_test_add_func ("/http-client/cancel-pacing", test_cancel_pacing);
  g_test_add_func ("/http-client/cancel-before", test_cancel_before);
  g_test_add_func ("/http-client/bad-input", test_bad_input);

  status = g_test_run ();
  service_stop ();
  return status;
}
