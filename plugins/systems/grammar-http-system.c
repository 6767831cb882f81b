/* grammar-http-system.c: the user's own RAG service over HTTP as the system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gnetworking.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "grammar-http-system.h"
#include "grammar-json-pointer.h"

/**
 * GrammarHttpSystem:
 *
 * The `http` system: the user's own retrieval-augmented generation
 * service. Each query is POSTed to #GrammarHttpSystem:url as a JSON
 * object `{"query": "…"}` (the member named by
 * #GrammarHttpSystem:query-member, merged into
 * #GrammarHttpSystem:extra-body); the reply is a JSON document from
 * which RFC 6901 pointers take the answer and, optionally, the
 * retrieved documents with their ids, texts and scores.
 *
 * Requests share one #SoupSession (keep-alive) and run on the caller's
 * thread-default main context, at most
 * #GrammarHttpSystem:max-concurrency at a time. A 429, a 5xx other
 * than 501, a lost connection and an attempt that takes longer than
 * #GrammarHttpSystem:timeout are tried again after an exponential
 * back-off with jitter (or the `Retry-After` the server asked for), up
 * to #GrammarHttpSystem:max-retries times. A reply that is not JSON or
 * lacks the answer fails at once: a broken service is not fixed by
 * asking again. The key from #GrammarHttpSystem:api-key-env is sent as
 * a bearer token and never shown.
 */

#define DEFAULT_QUERY_MEMBER "query"
#define DEFAULT_ANSWER_POINTER "/answer"
#define DEFAULT_RETRIEVED_POINTER "/retrieved"
#define DEFAULT_ID_POINTER "/id"
#define DEFAULT_TEXT_POINTER "/text"
#define DEFAULT_SCORE_POINTER "/score"

#define BACKOFF_INITIAL_MS 250
#define BACKOFF_MAX_MS 30000
#define RETRY_AFTER_MAX_S 300
#define EXCERPT_BYTES 200

struct _GrammarHttpSystem
{
  GObject parent_instance;

  /* properties */
  char *url;
  char *query_member;
  char *extra_body;
  char *answer_pointer;
  char *retrieved_pointer;
  char *retrieved_id_pointer;
  char *retrieved_text_pointer;
  char *retrieved_score_pointer;
  char *api_key_env;
  GStrv extra_headers;
  double timeout;
  guint max_retries;
  guint max_concurrency;
  char *ca_file;

  /* state */
  char *api_key;            /* never shown */
  char *shown_url;          /* url without a password, for messages */
  JsonObject *extra;        /* extra-body, parsed; NULL when unset */
  SoupSession *session;
  GQueue queue;             /* Job *, waiting for a slot */
  guint in_flight;
  gboolean pumping;
};

enum
{
  PROP_0,
  PROP_URL,
  PROP_QUERY_MEMBER,
  PROP_EXTRA_BODY,
  PROP_ANSWER_POINTER,
  PROP_RETRIEVED_POINTER,
  PROP_RETRIEVED_ID_POINTER,
  PROP_RETRIEVED_TEXT_POINTER,
  PROP_RETRIEVED_SCORE_POINTER,
  PROP_API_KEY_ENV,
  PROP_EXTRA_HEADERS,
  PROP_TIMEOUT,
  PROP_MAX_RETRIES,
  PROP_MAX_CONCURRENCY,
  PROP_CA_FILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_http_system_system_iface_init   (GrammarSystemInterface *iface);
static void grammar_http_system_initable_iface_init (GInitableIface         *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarHttpSystem, grammar_http_system, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_SYSTEM,
                                                               grammar_http_system_system_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_http_system_initable_iface_init))

static gboolean
is_set (const char *text)
{
  return text != NULL && text[0] != '\0';
}

static void
set_str (char       **field,
         const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

/* Any text that may come from the server or the network goes through
 * this before it reaches an error: the key is never shown. */
static char *
redact (GrammarHttpSystem *self,
        const char        *text)
{
  g_autoptr (GString) string = g_string_new (text);

  if (is_set (self->api_key))
    g_string_replace (string, self->api_key, "[redacted]", 0);
  return g_string_free (g_steal_pointer (&string), FALSE);
}

/* The start of a reply for an error message: at most EXCERPT_BYTES,
 * cut at a character boundary, valid UTF-8, without the key. */
static char *
excerpt (GrammarHttpSystem *self,
         GBytes            *bytes)
{
  gsize size = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;
  gsize length = MIN (size, EXCERPT_BYTES);
  const char *end = NULL;
  g_autofree char *valid = NULL;
  g_autofree char *redacted = NULL;

  if (data == NULL || size == 0)
    return g_strdup ("(empty)");
  /* A character cut by the limit is dropped, not shown as U+FFFD. */
  if (!g_utf8_validate_len (data, length, &end) && length < size && length - (gsize) (end - data) < 4)
    length = (gsize) (end - data);
  valid = g_utf8_make_valid (data, (gssize) length);
  redacted = redact (self, valid);
  return g_strdup_printf ("“%s”%s", redacted, length < size ? "…" : "");
}

/* ---- the reply ---- */

/* The shortest text that reads back as the same double. */
static char *
format_double (double value)
{
  const char *formats[] = { "%.15g", "%.16g", "%.17g" };
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buffer, sizeof buffer, formats[i], value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  return g_strdup (buffer);
}

/* A scalar as text: a string as is, a number or a boolean as written
 * in JSON, null as NULL. FALSE for objects and arrays. */
static gboolean
scalar_to_text (JsonNode  *node,
                char     **text)
{
  *text = NULL;
  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING: *text = g_strdup (json_node_get_string (node)); break;
    case G_TYPE_INT64: *text = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node)); break;
    case G_TYPE_DOUBLE: *text = format_double (json_node_get_double (node)); break;
    case G_TYPE_BOOLEAN: *text = g_strdup (json_node_get_boolean (node) ? "true" : "false"); break;
    default: return FALSE;
    }
  return TRUE;
}

static const char *
node_kind (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "an array";
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING: return "a string";
    case G_TYPE_BOOLEAN: return "a boolean";
    default: return "a number";
    }
}

/* The hit of one retrieved item: a string is an id; an object gives
 * its id (required), text and score (optional) through the pointers. */
static GrammarHit *
parse_item (GrammarHttpSystem  *self,
            JsonNode           *item,
            guint               index,
            GError            **error)
{
  JsonNode *id_node;
  JsonNode *text_node;
  JsonNode *score_node;
  g_autofree char *id = NULL;
  g_autofree char *text = NULL;
  double score = 0.0;

  if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
    return grammar_hit_new (json_node_get_string (item), 0.0, NULL);

  id_node = grammar_json_pointer_resolve (item, self->retrieved_id_pointer);
  if (id_node == NULL || !scalar_to_text (id_node, &id) || id == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "retrieved item %u: retrieved-id-pointer “%s” %s", index, self->retrieved_id_pointer,
                   id_node == NULL ? "matches nothing" : "is not a string or a number");
      return NULL;
    }
  text_node = is_set (self->retrieved_text_pointer)
              ? grammar_json_pointer_resolve (item, self->retrieved_text_pointer) : NULL;
  if (text_node != NULL && !scalar_to_text (text_node, &text))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "retrieved item %u: retrieved-text-pointer “%s” is %s",
                   index, self->retrieved_text_pointer, node_kind (text_node));
      return NULL;
    }
  score_node = is_set (self->retrieved_score_pointer)
               ? grammar_json_pointer_resolve (item, self->retrieved_score_pointer) : NULL;
  if (score_node != NULL && !JSON_NODE_HOLDS_NULL (score_node))
    {
      GType type = JSON_NODE_HOLDS_VALUE (score_node) ? json_node_get_value_type (score_node) : G_TYPE_INVALID;

      if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                       "retrieved item %u: retrieved-score-pointer “%s” is %s, not a number", index,
                       self->retrieved_score_pointer, node_kind (score_node));
          return NULL;
        }
      score = json_node_get_double (score_node);
    }
  return grammar_hit_new (id, score, text);
}

static GPtrArray *
parse_retrieved (GrammarHttpSystem  *self,
                 JsonNode           *root,
                 GError            **error)
{
  g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);
  JsonNode *node;
  JsonArray *array;

  if (!is_set (self->retrieved_pointer))
    return g_steal_pointer (&hits);
  node = grammar_json_pointer_resolve (root, self->retrieved_pointer);
  if (node == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "retrieved-pointer “%s” matches nothing (set retrieved-pointer= empty if the service does "
                   "not report its documents)", self->retrieved_pointer);
      return NULL;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    return g_steal_pointer (&hits);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "retrieved-pointer “%s” is %s, not an array",
                   self->retrieved_pointer, node_kind (node));
      return NULL;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      GrammarHit *hit = parse_item (self, json_array_get_element (array, i), i, error);

      if (hit == NULL)
        return NULL;
      g_ptr_array_add (hits, hit);
    }
  return g_steal_pointer (&hits);
}

/* The answer of a 2xx reply. A null answer is an empty response, not an
 * error: the service chose not to answer, which the judge records as
 * unmeasured rather than as a failed run. */
static GrammarAnswer *
parse_answer (GrammarHttpSystem  *self,
              GBytes             *bytes,
              GError            **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GPtrArray) hits = NULL;
  g_autofree char *start = excerpt (self, bytes);
  g_autofree char *text = NULL;
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);
  JsonNode *root;
  JsonNode *node;

  if (data == NULL || size == 0 || !json_parser_load_from_data (parser, data, (gssize) size, &local_error))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "%s: the reply is not JSON (%s), so answer-pointer “%s” cannot be read; the reply begins %s",
                   self->shown_url, local_error != NULL ? local_error->message : "empty", self->answer_pointer,
                   start);
      return NULL;
    }
  root = json_parser_get_root (parser);
  node = grammar_json_pointer_resolve (root, self->answer_pointer);
  if (node == NULL || !scalar_to_text (node, &text))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: answer-pointer “%s” %s in the reply %s",
                   self->shown_url, self->answer_pointer,
                   node == NULL ? "matches nothing" : JSON_NODE_HOLDS_OBJECT (node) ? "is an object, not a string"
                                                                                      : "is an array, not a string",
                   start);
      return NULL;
    }
  hits = parse_retrieved (self, root, &local_error);
  if (hits == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s in the reply %s", self->shown_url,
                   local_error->message, start);
      return NULL;
    }
  return grammar_answer_new (text != NULL ? text : "", hits);
}

/* ---- jobs: one query, tried until it succeeds or gives up ---- */

typedef struct
{
  GrammarHttpSystem *self;      /* a reference */
  GTask *task;
  GBytes *body;
  GCancellable *cancellable;    /* the caller's, nullable */
  GMainContext *context;        /* the caller's thread-default context */

  guint attempts;
  SoupMessage *message;
  GCancellable *attempt_cancellable;
  gulong cancelled_id;
  GSource *timer;               /* the timeout of an attempt, or the back-off */
  gboolean timed_out;
} Job;

static void pump (GrammarHttpSystem *self);

static void
clear_timer (Job *job)
{
  if (job->timer != NULL)
    {
      g_source_destroy (job->timer);
      g_clear_pointer (&job->timer, g_source_unref);
    }
}

static void
job_free (Job *job)
{
  clear_timer (job);
  g_clear_pointer (&job->body, g_bytes_unref);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_clear_object (&job->task);
  g_clear_object (&job->message);
  g_clear_object (&job->attempt_cancellable);
  g_clear_object (&job->self);
  g_free (job);
}

/* Hands @answer or @error (one of them, taken) to the caller. */
static void
job_finish (Job           *job,
            GrammarAnswer *answer,
            GError        *error)
{
  if (error != NULL)
    g_task_return_error (job->task, error);
  else
    g_task_return_pointer (job->task, answer, g_object_unref);
  job_free (job);
}

static gboolean
on_backoff_done (gpointer user_data)
{
  Job *job = user_data;

  g_clear_pointer (&job->timer, g_source_unref);
  g_queue_push_head (&job->self->queue, job);
  pump (job->self);
  return G_SOURCE_REMOVE;
}

/* Seconds of a Retry-After header, or -1. */
static double
retry_after (SoupMessage *message)
{
  const char *value = soup_message_headers_get_one (soup_message_get_response_headers (message), "Retry-After");
  char *end = NULL;
  double seconds;

  if (value == NULL)
    return -1;
  seconds = g_ascii_strtod (value, &end);
  if (end == value || seconds < 0 || !isfinite (seconds))
    return -1;
  return MIN (seconds, RETRY_AFTER_MAX_S);
}

/* A query cancelled while it waits to be tried again ends at once, not
 * when the back-off (up to Retry-After's 300 s) is over. */
static gboolean
on_backoff_cancelled (GCancellable *cancellable,
                      gpointer      user_data)
{
  job_finish (user_data, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
  return G_SOURCE_REMOVE;
}

/* Takes @error: tries again later, or fails with it when no try is left. */
static void
retry_or_fail (Job    *job,
               GError *error,
               double  wait_seconds)
{
  GrammarHttpSystem *self = job->self;
  guint delay_ms;

  if (job->attempts > self->max_retries)
    {
      g_prefix_error (&error, "%s failed after %u attempt%s: ", self->shown_url, job->attempts,
                      job->attempts == 1 ? "" : "s");
      job_finish (job, NULL, error);
      return;
    }
  g_debug ("%s: attempt %u failed (%s), trying again", self->shown_url, job->attempts, error->message);
  g_error_free (error);
  if (wait_seconds >= 0)
    delay_ms = (guint) (wait_seconds * 1000);
  else
    {
      guint64 base = MIN ((guint64) BACKOFF_INITIAL_MS << MIN (job->attempts - 1, 16u), BACKOFF_MAX_MS);

      /* Half fixed, half random: callers that failed together spread out. */
      delay_ms = (guint) (base / 2 + (guint64) g_random_int_range (0, (gint32) (base / 2) + 1));
    }
  job->timer = g_timeout_source_new (delay_ms);
  g_source_set_callback (job->timer, on_backoff_done, job, NULL);
  if (job->cancellable != NULL)
    {
      g_autoptr (GSource) cancelled = g_cancellable_source_new (job->cancellable);

      g_source_set_callback (cancelled, G_SOURCE_FUNC (on_backoff_cancelled), job, NULL);
      g_source_add_child_source (job->timer, cancelled);
    }
  g_source_attach (job->timer, job->context);
}

static gboolean
is_retryable_status (guint status)
{
  return status == 408 || status == 429 || (status >= 500 && status <= 599 && status != 501 && status != 505);
}

static char *
auth_hint (GrammarHttpSystem *self)
{
  if (!is_set (self->api_key_env))
    return g_strdup ("; if the service needs a key, set api-key-env to the environment variable holding it");
  if (!is_set (self->api_key))
    return g_strdup_printf ("; the environment variable %s holding the API key is not set", self->api_key_env);
  return g_strdup_printf ("; check the API key in the environment variable %s", self->api_key_env);
}

static void
on_send_failed (Job    *job,
                GError *error)
{
  GrammarHttpSystem *self = job->self;
  g_autofree char *redacted = NULL;

  if (g_cancellable_is_cancelled (job->cancellable))
    job_finish (job, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
  else if (job->timed_out)
    retry_or_fail (job, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "no reply within %g s (timeout)",
                                     self->timeout), -1);
  else if (error->domain == G_TLS_ERROR)
    {
      redacted = redact (self, error->message);
      job_finish (job, NULL, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: TLS: %s%s", self->shown_url,
                                          redacted, is_set (self->ca_file) ? "" : " (a private CA? set ca-file)"));
    }
  else
    {
      redacted = redact (self, error->message);
      retry_or_fail (job, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s", redacted), -1);
    }
}

static void
on_reply (Job    *job,
          GBytes *bytes)
{
  GrammarHttpSystem *self = job->self;
  guint status = soup_message_get_status (job->message);
  g_autofree char *start = NULL;
  GError *error = NULL;

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      GrammarAnswer *answer = parse_answer (self, bytes, &error);

      job_finish (job, answer, error);
      return;
    }
  start = excerpt (self, bytes);
  if (is_retryable_status (status))
    retry_or_fail (job, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "HTTP %u: %s", status, start),
                   retry_after (job->message));
  else
    {
      g_autofree char *hint = status == 401 || status == 403 ? auth_hint (self) : NULL;

      job_finish (job, NULL, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: HTTP %u: %s%s",
                                          self->shown_url, status, start, hint != NULL ? hint : ""));
    }
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr (GrammarHttpSystem) self = g_object_ref (job->self);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;

  bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  self->in_flight--;
  clear_timer (job);
  g_cancellable_disconnect (job->cancellable, job->cancelled_id);
  job->cancelled_id = 0;
  g_clear_object (&job->attempt_cancellable);

  if (bytes == NULL)
    on_send_failed (job, error);
  else
    on_reply (job, bytes);
  pump (self);
}

static gboolean
on_attempt_timeout (gpointer user_data)
{
  Job *job = user_data;

  job->timed_out = TRUE;
  g_clear_pointer (&job->timer, g_source_unref);
  g_cancellable_cancel (job->attempt_cancellable);
  return G_SOURCE_REMOVE;
}

static void
on_caller_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static void
add_headers (GrammarHttpSystem  *self,
             SoupMessageHeaders *headers)
{
  soup_message_headers_replace (headers, "Accept", "application/json");
  if (is_set (self->api_key))
    {
      g_autofree char *value = g_strconcat ("Bearer ", self->api_key, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
    }
  for (guint i = 0; self->extra_headers != NULL && self->extra_headers[i] != NULL; i++)
    {
      const char *colon = strchr (self->extra_headers[i], ':');
      g_autofree char *name = g_strstrip (g_strndup (self->extra_headers[i], (gsize) (colon - self->extra_headers[i])));
      g_autofree char *value = g_strstrip (g_strdup (colon + 1));

      soup_message_headers_replace (headers, name, value);
    }
}

/* Requests and replies are small and go as several writes: without
 * TCP_NODELAY, Nagle's algorithm holds the later ones back for an ACK. */
static void
on_network_event (SoupMessage        *message,
                  GSocketClientEvent  event,
                  GIOStream          *connection,
                  gpointer            user_data)
{
  if (event == G_SOCKET_CLIENT_CONNECTED && G_IS_SOCKET_CONNECTION (connection))
    g_socket_set_option (g_socket_connection_get_socket (G_SOCKET_CONNECTION (connection)), IPPROTO_TCP,
                         TCP_NODELAY, TRUE, NULL);
}

static void
start_attempt (Job *job)
{
  GrammarHttpSystem *self = job->self;
  /* A job queued from one context may be started from the callback of
   * another: libsoup calls back on the thread-default context. */
  g_autoptr (GMainContext) current = g_main_context_ref_thread_default ();
  gboolean push = job->context != current;

  self->in_flight++;
  job->attempts++;
  job->timed_out = FALSE;

  g_clear_object (&job->message);
  job->message = soup_message_new ("POST", self->url);
  /* libsoup opens a new connection for every POST unless the message is
   * marked idempotent; a request that dies on a stale kept-alive
   * connection is tried again like any reset, so keep-alive is safe. */
  soup_message_add_flags (job->message, SOUP_MESSAGE_IDEMPOTENT);
  g_signal_connect (job->message, "network-event", G_CALLBACK (on_network_event), NULL);
  add_headers (self, soup_message_get_request_headers (job->message));
  soup_message_set_request_body_from_bytes (job->message, "application/json", job->body);

  job->attempt_cancellable = g_cancellable_new ();
  if (job->cancellable != NULL)
    job->cancelled_id = g_cancellable_connect (job->cancellable, G_CALLBACK (on_caller_cancelled),
                                               job->attempt_cancellable, NULL);
  if (self->timeout > 0)
    {
      job->timer = g_timeout_source_new ((guint) MIN (ceil (self->timeout * 1000.0), (double) G_MAXUINT));
      g_source_set_callback (job->timer, on_attempt_timeout, job, NULL);
      g_source_attach (job->timer, job->context);
    }

  if (push)
    g_main_context_push_thread_default (job->context);
  soup_session_send_and_read_async (self->session, job->message, G_PRIORITY_DEFAULT, job->attempt_cancellable,
                                    on_sent, job);
  if (push)
    g_main_context_pop_thread_default (job->context);
}

/* Starts queued jobs while there is a free slot. */
static void
pump (GrammarHttpSystem *self)
{
  if (self->pumping)
    return;
  self->pumping = TRUE;
  while (self->in_flight < self->max_concurrency && !g_queue_is_empty (&self->queue))
    {
      Job *job = g_queue_pop_head (&self->queue);

      if (g_cancellable_is_cancelled (job->cancellable))
        job_finish (job, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
      else
        start_attempt (job);
    }
  self->pumping = FALSE;
}

/* ---- answering ---- */

/* {"<query-member>": query} over the members of extra-body. */
static GBytes *
build_body (GrammarHttpSystem *self,
            const char        *query)
{
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr (JsonObject) object = json_object_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (GList) members = self->extra != NULL ? json_object_get_members (self->extra) : NULL;
  gsize length = 0;
  char *data;

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_str_equal (l->data, self->query_member))
      json_object_set_member (object, l->data, json_node_copy (json_object_get_member (self->extra, l->data)));
  json_object_set_string_member (object, self->query_member, query);
  json_node_set_object (root, object);
  json_generator_set_root (generator, root);
  data = json_generator_to_data (generator, &length);
  return g_bytes_new_take (data, length);
}

static void
grammar_http_system_answer_async (GrammarSystem       *system,
                                  const char          *query,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (system);
  Job *job = g_new0 (Job, 1);

  job->self = g_object_ref (self);
  job->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (job->task, grammar_http_system_answer_async);
  job->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  job->context = g_main_context_ref_thread_default ();

  if (self->session == NULL)
    {
      job_finish (job, NULL, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                                          "the http system was not initialized (g_initable_init)"));
      return;
    }
  job->body = build_body (self, query);
  g_queue_push_tail (&self->queue, job);
  pump (self);
}

static GrammarAnswer *
grammar_http_system_answer_finish (GrammarSystem  *system,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, system), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- construction ---- */

static gboolean
check_url (GrammarHttpSystem  *self,
           GError            **error)
{
  g_autoptr (GUri) uri = is_set (self->url) ? g_uri_parse (self->url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;

  if (uri == NULL || scheme == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
      !is_set (g_uri_get_host (uri)))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   is_set (self->url) ? "url “%s” is not an http:// or https:// URL"
                                      : "url is required: the address the queries are POSTed to%s",
                   is_set (self->url) ? self->url : " (e.g. url=http://127.0.0.1:8000/query)");
      return FALSE;
    }
  self->shown_url = g_uri_to_string_partial (uri, G_URI_HIDE_PASSWORD);
  return TRUE;
}

static gboolean
check_pointers (GrammarHttpSystem  *self,
                GError            **error)
{
  const struct { const char *name; const char *value; } pointers[] = {
    { "answer-pointer", self->answer_pointer },
    { "retrieved-pointer", self->retrieved_pointer },
    { "retrieved-id-pointer", self->retrieved_id_pointer },
    { "retrieved-text-pointer", self->retrieved_text_pointer },
    { "retrieved-score-pointer", self->retrieved_score_pointer },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pointers); i++)
    if (!grammar_json_pointer_check (pointers[i].value != NULL ? pointers[i].value : "", error))
      {
        g_prefix_error (error, "%s: ", pointers[i].name);
        return FALSE;
      }
  return TRUE;
}

static gboolean
check_extra_body (GrammarHttpSystem  *self,
                  GError            **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;
  JsonNode *root;

  if (!is_set (self->extra_body))
    return TRUE;
  if (!json_parser_load_from_data (parser, self->extra_body, -1, &local_error))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "extra-body is not JSON: %s",
                   local_error->message);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "extra-body must be a JSON object such as {\"top_k\": 5}");
      return FALSE;
    }
  self->extra = json_object_ref (json_node_get_object (root));
  return TRUE;
}

static gboolean
check_headers (GrammarHttpSystem  *self,
               GError            **error)
{
  for (guint i = 0; self->extra_headers != NULL && self->extra_headers[i] != NULL; i++)
    {
      const char *colon = strchr (self->extra_headers[i], ':');

      if (colon == NULL || colon == self->extra_headers[i])
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "extra-headers: “%s” is not of the form “Name: value”", self->extra_headers[i]);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
grammar_http_system_initable_init (GInitable     *initable,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (initable);

  if (self->session != NULL)
    return TRUE;
  if (!check_url (self, error) || !check_pointers (self, error) || !check_extra_body (self, error) ||
      !check_headers (self, error))
    return FALSE;
  if (!is_set (self->query_member))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "query-member must name the member of the request that holds the query (e.g. query)");
      return FALSE;
    }
  if (is_set (self->api_key_env))
    self->api_key = g_strdup (g_getenv (self->api_key_env));

  self->session = soup_session_new_with_options ("max-conns", MAX (self->max_concurrency, 10),
                                                 "max-conns-per-host", self->max_concurrency,
                                                 "user-agent", "grammar",
                                                 NULL);
  if (is_set (self->ca_file))
    {
      g_autoptr (GError) local_error = NULL;
      g_autoptr (GTlsDatabase) database = g_tls_file_database_new (self->ca_file, &local_error);

      if (database == NULL)
        {
          g_clear_object (&self->session);
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "ca-file %s: %s",
                       self->ca_file, local_error->message);
          return FALSE;
        }
      g_object_set (self->session, "tls-database", database, NULL);
    }
  return TRUE;
}

static void
grammar_http_system_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_http_system_initable_init;
}

static void
grammar_http_system_system_iface_init (GrammarSystemInterface *iface)
{
  iface->answer_async = grammar_http_system_answer_async;
  iface->answer_finish = grammar_http_system_answer_finish;
}

static void
grammar_http_system_dispose (GObject *object)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (object);

  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (grammar_http_system_parent_class)->dispose (object);
}

static void
grammar_http_system_finalize (GObject *object)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (object);

  g_free (self->url);
  g_free (self->query_member);
  g_free (self->extra_body);
  g_free (self->answer_pointer);
  g_free (self->retrieved_pointer);
  g_free (self->retrieved_id_pointer);
  g_free (self->retrieved_text_pointer);
  g_free (self->retrieved_score_pointer);
  g_free (self->api_key_env);
  g_strfreev (self->extra_headers);
  g_free (self->ca_file);
  if (self->api_key != NULL)
    memset (self->api_key, 0, strlen (self->api_key));
  g_free (self->api_key);
  g_free (self->shown_url);
  g_clear_pointer (&self->extra, json_object_unref);

  G_OBJECT_CLASS (grammar_http_system_parent_class)->finalize (object);
}

static void
grammar_http_system_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (object);

  switch (prop_id)
    {
    case PROP_URL: g_value_set_string (value, self->url); break;
    case PROP_QUERY_MEMBER: g_value_set_string (value, self->query_member); break;
    case PROP_EXTRA_BODY: g_value_set_string (value, self->extra_body); break;
    case PROP_ANSWER_POINTER: g_value_set_string (value, self->answer_pointer); break;
    case PROP_RETRIEVED_POINTER: g_value_set_string (value, self->retrieved_pointer); break;
    case PROP_RETRIEVED_ID_POINTER: g_value_set_string (value, self->retrieved_id_pointer); break;
    case PROP_RETRIEVED_TEXT_POINTER: g_value_set_string (value, self->retrieved_text_pointer); break;
    case PROP_RETRIEVED_SCORE_POINTER: g_value_set_string (value, self->retrieved_score_pointer); break;
    case PROP_API_KEY_ENV: g_value_set_string (value, self->api_key_env); break;
    case PROP_EXTRA_HEADERS: g_value_set_boxed (value, self->extra_headers); break;
    case PROP_TIMEOUT: g_value_set_double (value, self->timeout); break;
    case PROP_MAX_RETRIES: g_value_set_uint (value, self->max_retries); break;
    case PROP_MAX_CONCURRENCY: g_value_set_uint (value, self->max_concurrency); break;
    case PROP_CA_FILE: g_value_set_string (value, self->ca_file); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_http_system_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (object);

  switch (prop_id)
    {
    case PROP_URL: set_str (&self->url, g_value_get_string (value)); break;
    case PROP_QUERY_MEMBER: set_str (&self->query_member, g_value_get_string (value)); break;
    case PROP_EXTRA_BODY: set_str (&self->extra_body, g_value_get_string (value)); break;
    case PROP_ANSWER_POINTER: set_str (&self->answer_pointer, g_value_get_string (value)); break;
    case PROP_RETRIEVED_POINTER: set_str (&self->retrieved_pointer, g_value_get_string (value)); break;
    case PROP_RETRIEVED_ID_POINTER: set_str (&self->retrieved_id_pointer, g_value_get_string (value)); break;
    case PROP_RETRIEVED_TEXT_POINTER: set_str (&self->retrieved_text_pointer, g_value_get_string (value)); break;
    case PROP_RETRIEVED_SCORE_POINTER: set_str (&self->retrieved_score_pointer, g_value_get_string (value)); break;
    case PROP_API_KEY_ENV: set_str (&self->api_key_env, g_value_get_string (value)); break;
    case PROP_EXTRA_HEADERS:
      g_strfreev (self->extra_headers);
      self->extra_headers = g_value_dup_boxed (value);
      break;
    case PROP_TIMEOUT: self->timeout = g_value_get_double (value); break;
    case PROP_MAX_RETRIES: self->max_retries = g_value_get_uint (value); break;
    case PROP_MAX_CONCURRENCY: self->max_concurrency = g_value_get_uint (value); break;
    case PROP_CA_FILE: set_str (&self->ca_file, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
pointer_param (const char *name,
               const char *blurb,
               const char *default_value)
{
  return g_param_spec_string (name, NULL, blurb, default_value,
                              G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
}

static void
grammar_http_system_class_init (GrammarHttpSystemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = grammar_http_system_dispose;
  object_class->finalize = grammar_http_system_finalize;
  object_class->get_property = grammar_http_system_get_property;
  object_class->set_property = grammar_http_system_set_property;

  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, "The http:// or https:// address each query is POSTed to (required)",
                         NULL, flags);
  properties[PROP_QUERY_MEMBER] =
    g_param_spec_string ("query-member", NULL, "The member of the JSON request that holds the query",
                         DEFAULT_QUERY_MEMBER, flags);
  properties[PROP_EXTRA_BODY] =
    g_param_spec_string ("extra-body", NULL, "A JSON object whose members are sent with every query", NULL, flags);
  properties[PROP_ANSWER_POINTER] =
    pointer_param ("answer-pointer", "The JSON pointer (RFC 6901) to the answer in the reply",
                   DEFAULT_ANSWER_POINTER);
  properties[PROP_RETRIEVED_POINTER] =
    pointer_param ("retrieved-pointer", "The JSON pointer to the array of retrieved documents; empty: none reported",
                   DEFAULT_RETRIEVED_POINTER);
  properties[PROP_RETRIEVED_ID_POINTER] =
    pointer_param ("retrieved-id-pointer", "The JSON pointer to a document's id, within an item (a string item is "
                   "the id)", DEFAULT_ID_POINTER);
  properties[PROP_RETRIEVED_TEXT_POINTER] =
    pointer_param ("retrieved-text-pointer", "The JSON pointer to a document's text, within an item (optional)",
                   DEFAULT_TEXT_POINTER);
  properties[PROP_RETRIEVED_SCORE_POINTER] =
    pointer_param ("retrieved-score-pointer", "The JSON pointer to a document's score, within an item (optional)",
                   DEFAULT_SCORE_POINTER);
  properties[PROP_API_KEY_ENV] =
    g_param_spec_string ("api-key-env", NULL,
                         "The environment variable holding a key sent as “Authorization: Bearer”; empty: no key",
                         NULL, flags);
  properties[PROP_EXTRA_HEADERS] =
    g_param_spec_boxed ("extra-headers", NULL, "More HTTP headers, “Name: value” each", G_TYPE_STRV, flags);
  properties[PROP_TIMEOUT] =
    g_param_spec_double ("timeout", NULL, "Seconds to wait for a reply before trying again; 0: forever",
                         0.0, 86400.0, 60.0, flags);
  properties[PROP_MAX_RETRIES] =
    g_param_spec_uint ("max-retries", NULL,
                       "Tries again after 408, 429, 5xx, a lost connection or a timeout, up to N times",
                       0, 20, 3, flags);
  properties[PROP_MAX_CONCURRENCY] =
    g_param_spec_uint ("max-concurrency", NULL, "The most requests in flight at once", 1, 1024, 8, flags);
  properties[PROP_CA_FILE] =
    g_param_spec_string ("ca-file", NULL, "PEM file of the CAs to trust for https (default: the system's)",
                         NULL, flags | GRAMMAR_PARAM_PATH);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_http_system_class_finalize (GrammarHttpSystemClass *klass)
{
}

static void
grammar_http_system_init (GrammarHttpSystem *self)
{
  self->query_member = g_strdup (DEFAULT_QUERY_MEMBER);
  self->answer_pointer = g_strdup (DEFAULT_ANSWER_POINTER);
  self->retrieved_pointer = g_strdup (DEFAULT_RETRIEVED_POINTER);
  self->retrieved_id_pointer = g_strdup (DEFAULT_ID_POINTER);
  self->retrieved_text_pointer = g_strdup (DEFAULT_TEXT_POINTER);
  self->retrieved_score_pointer = g_strdup (DEFAULT_SCORE_POINTER);
  self->timeout = 60.0;
  self->max_retries = 3;
  self->max_concurrency = 8;
  g_queue_init (&self->queue);
}

void
grammar_http_system_register (GTypeModule *module)
{
  grammar_http_system_register_type (module);
}
