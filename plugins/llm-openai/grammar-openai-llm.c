/* grammar-openai-llm.c: a language model behind an OpenAI-compatible HTTP API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gnetworking.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "grammar-openai-cache.h"
#include "grammar-openai-llm.h"

/**
 * GrammarOpenaiLlm:
 *
 * The `openai` language model plugin: chat completions and embeddings
 * from any server speaking the OpenAI HTTP API (OpenAI, vLLM, the
 * llama.cpp server, Ollama's `/v1`).
 *
 * All requests go through one #SoupSession (keep-alive; HTTP/2 where
 * the server offers it) and one queue: at most #GrammarOpenaiLlm:max-concurrency
 * requests are in flight, on the thread-default main context of the
 * caller, without threads; the others wait in the queue, costing only
 * their request body.
 *
 * A 429, 500, 502, 503 or 504, a connection that fails or closes, a
 * request that times out, and a reply that is not valid JSON or lacks
 * what it must hold are tried again, up to #GrammarOpenaiLlm:max-retries
 * times, after an exponential back-off with jitter, or after the
 * `Retry-After` the server asked for. Any other status fails at once
 * with the server's message. The API key is read from the environment
 * variable #GrammarOpenaiLlm:api-key-env and never appears in an error.
 *
 * Chats asking for temperature 0 (the default), or with a seed, are
 * kept in an SQLite response cache (#GrammarOpenaiLlm:cache) keyed by a
 * SHA-256 of the model and the canonical request body, and served from
 * it; sampled ones too with #GrammarOpenaiLlm:cache-sampled. Embeddings
 * are always cached.
 */

#define DEFAULT_BASE_URL "https://api.openai.com/v1"
#define DEFAULT_KEY_ENV "OPENAI_API_KEY"
#define DEFAULT_CACHE "~/.cache/grammar/llm.sqlite"

#define BACKOFF_INITIAL_MS 250
#define BACKOFF_MAX_MS 30000
#define RETRY_AFTER_MAX_S 300

struct _GrammarOpenaiLlm
{
  GObject parent_instance;

  /* properties */
  char *base_url;
  char *model;
  char *embedding_model;
  char *api_key_env;
  char *organization;
  GStrv extra_headers;
  double temperature;
  int max_tokens;
  double timeout;
  int max_concurrency;
  int max_retries;
  int requests_per_minute;
  char *cache_path;
  gboolean cache_sampled;
  char *ca_file;

  /* statistics */
  guint64 n_requests;
  guint64 n_cache_hits;
  guint64 n_retries;
  guint64 n_prompt_tokens;
  guint64 n_completion_tokens;

  /* state */
  char *api_key;            /* never shown */
  char *endpoint;           /* base-url without a trailing slash */
  SoupSession *session;
  GrammarOpenaiCache *cache;
  GQueue queue;             /* Job *, waiting for a slot */
  guint in_flight;
  gboolean pumping;
  gint64 next_send;         /* monotonic µs, for requests-per-minute */
  GSource *pace_source;
  gboolean n_unsupported;   /* the server refused n > 1 once */
};

enum
{
  PROP_0,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_EMBEDDING_MODEL,
  PROP_API_KEY_ENV,
  PROP_ORGANIZATION,
  PROP_EXTRA_HEADERS,
  PROP_TEMPERATURE,
  PROP_MAX_TOKENS,
  PROP_TIMEOUT,
  PROP_MAX_CONCURRENCY,
  PROP_MAX_RETRIES,
  PROP_REQUESTS_PER_MINUTE,
  PROP_CACHE,
  PROP_CACHE_SAMPLED,
  PROP_CA_FILE,
  PROP_REQUESTS,
  PROP_CACHE_HITS,
  PROP_RETRIES,
  PROP_PROMPT_TOKENS,
  PROP_COMPLETION_TOKENS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_openai_llm_llm_iface_init      (GrammarLlmInterface *iface);
static void grammar_openai_llm_initable_iface_init (GInitableIface      *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarOpenaiLlm, grammar_openai_llm, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_LLM,
                                                               grammar_openai_llm_llm_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_openai_llm_initable_iface_init))

static void
set_str (char       **field,
         const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static gboolean
is_set (const char *text)
{
  return text != NULL && text[0] != '\0';
}

/* Any text that may come from the server or the network goes through
 * this before it reaches an error: the key is never shown. */
static char *
redact (GrammarOpenaiLlm *self,
        const char       *text)
{
  g_autoptr (GString) string = g_string_new (text);

  if (is_set (self->api_key))
    g_string_replace (string, self->api_key, "[redacted]", 0);
  return g_string_free (g_steal_pointer (&string), FALSE);
}

/* Members of a reply, read without trusting its shape: NULL or the
 * default when missing or of another type. */
static JsonObject *
get_object (JsonObject *object,
            const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
get_array (JsonObject *object,
           const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

static gint64
get_int (JsonObject *object,
         const char *name,
         gint64      default_value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return default_value;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64: return json_node_get_int (node);
    case G_TYPE_DOUBLE: return (gint64) json_node_get_double (node);
    default: return default_value;
    }
}

/* ---- jobs: one HTTP request, tried until it succeeds or gives up ---- */

typedef enum
{
  JOB_CHAT,
  JOB_EMBED,
} JobKind;

typedef struct _Job Job;

/* Called once, with the parsed reply or an error. */
typedef void (*JobDone) (Job       *job,
                         JsonNode  *root,
                         GError    *error);

struct _Job
{
  GrammarOpenaiLlm *self;       /* a reference */
  JobKind kind;
  const char *path;             /* static: "chat/completions" or "embeddings" */
  GBytes *body;
  guint n;                      /* choices (chat) or texts (embeddings) asked */
  guint index;                  /* of a chat sub-request, where its choices go */
  GCancellable *cancellable;    /* the caller's, nullable */
  GMainContext *context;        /* the caller's thread-default context */
  JobDone done;
  GTask *task;                  /* a reference, for @done */

  guint attempts;
  guint status;                 /* of the last reply, 0 without one */
  SoupMessage *message;
  GCancellable *attempt_cancellable;
  gulong cancelled_id;
  GSource *timer;               /* the timeout of an attempt, or the back-off */
  gboolean timed_out;
};

static void pump (GrammarOpenaiLlm *self);

static void
job_free (Job *job)
{
  g_clear_pointer (&job->body, g_bytes_unref);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_clear_object (&job->task);
  g_clear_object (&job->message);
  g_clear_object (&job->attempt_cancellable);
  if (job->timer != NULL)
    {
      g_source_destroy (job->timer);
      g_source_unref (job->timer);
    }
  g_clear_object (&job->self);
  g_free (job);
}

static Job *
job_new (GrammarOpenaiLlm *self,
         JobKind           kind,
         char             *body,
         guint             n,
         GTask            *task,
         JobDone           done)
{
  Job *job = g_new0 (Job, 1);

  job->self = g_object_ref (self);
  job->kind = kind;
  job->path = kind == JOB_CHAT ? "chat/completions" : "embeddings";
  job->body = g_bytes_new_take (body, strlen (body));
  job->n = n;
  job->task = g_object_ref (task);
  job->cancellable = g_task_get_cancellable (task) != NULL ? g_object_ref (g_task_get_cancellable (task)) : NULL;
  job->context = g_main_context_ref_thread_default ();
  job->done = done;
  return job;
}

static void
job_finish (Job      *job,
            JsonNode *root,
            GError   *error)
{
  job->done (job, root, error);
  job_free (job);
}

static void
enqueue (GrammarOpenaiLlm *self,
         Job              *job,
         gboolean          first)
{
  if (first)
    g_queue_push_head (&self->queue, job);
  else
    g_queue_push_tail (&self->queue, job);
  pump (self);
}

/* The server's own words: error.message of an OpenAI error body, else
 * the start of the body, else the reason phrase. */
static char *
server_message (SoupMessage *message,
                GBytes      *bytes)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  gsize size = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;

  if (data != NULL && size > 0 && json_parser_load_from_data (parser, data, (gssize) size, NULL))
    {
      JsonNode *root = json_parser_get_root (parser);

      if (JSON_NODE_HOLDS_OBJECT (root))
        {
          JsonObject *object = json_node_get_object (root);
          JsonNode *error = json_object_get_member (object, "error");

          const char *text = get_string (get_object (object, "error"), "message");

          if (text != NULL)
            return g_strdup (text);
          if (error != NULL && JSON_NODE_HOLDS_VALUE (error) && json_node_get_value_type (error) == G_TYPE_STRING)
            return g_strdup (json_node_get_string (error));
        }
    }
  if (data != NULL && size > 0 && g_utf8_validate (data, (gssize) MIN (size, 200), NULL))
    return g_strndup (data, MIN (size, 200));
  return g_strdup (soup_message_get_reason_phrase (message) != NULL ? soup_message_get_reason_phrase (message) : "");
}

static gboolean
is_retryable_status (guint status)
{
  return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

/* Checks that a 2xx reply holds what a chat or embeddings reply must. */
static JsonNode *
parse_reply (Job     *job,
             GBytes  *bytes,
             GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);
  JsonNode *root;
  JsonObject *object;
  const char *member = job->kind == JOB_CHAT ? "choices" : "data";
  JsonNode *array;

  if (data == NULL || size == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the reply is empty");
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, (gssize) size, &local_error))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the reply is not valid JSON: %s", local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the reply is not a JSON object");
      return NULL;
    }
  object = json_node_get_object (root);
  array = json_object_get_member (object, member);
  if (array == NULL || !JSON_NODE_HOLDS_ARRAY (array) || json_array_get_length (json_node_get_array (array)) == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the reply has no “%s”", member);
      return NULL;
    }
  return json_node_ref (root);
}

static gboolean
on_attempt_timeout (gpointer user_data)
{
  Job *job = user_data;

  job->timed_out = TRUE;
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
clear_timer (Job *job)
{
  if (job->timer != NULL)
    {
      g_source_destroy (job->timer);
      g_clear_pointer (&job->timer, g_source_unref);
    }
}

static gboolean
on_backoff_done (gpointer user_data)
{
  Job *job = user_data;
  GrammarOpenaiLlm *self = job->self;

  g_clear_pointer (&job->timer, g_source_unref);
  enqueue (self, job, TRUE);
  return G_SOURCE_REMOVE;
}

/* Seconds of a Retry-After header, or -1. */
static double
retry_after (SoupMessage *message)
{
  const char *value;
  char *end = NULL;
  double seconds;

  if (message == NULL)
    return -1;
  value = soup_message_headers_get_one (soup_message_get_response_headers (message), "Retry-After");
  if (value == NULL)
    return -1;
  seconds = g_ascii_strtod (value, &end);
  if (end == value || seconds < 0 || !isfinite (seconds))
    return -1;
  return MIN (seconds, RETRY_AFTER_MAX_S);
}

static void
retry_or_fail (Job    *job,
               GError *error,
               double  wait_seconds)
{
  GrammarOpenaiLlm *self = job->self;
  guint delay_ms;

  if (job->attempts > (guint) self->max_retries)
    {
      g_autoptr (GError) final = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                                              "%s/%s failed after %u attempt%s: %s", self->endpoint, job->path,
                                              job->attempts, job->attempts == 1 ? "" : "s", error->message);
      job_finish (job, NULL, final);
      return;
    }
  g_debug ("%s/%s: attempt %u failed (%s), trying again", self->endpoint, job->path, job->attempts, error->message);
  if (wait_seconds >= 0)
    delay_ms = (guint) (wait_seconds * 1000);
  else
    {
      guint64 base = (guint64) BACKOFF_INITIAL_MS << MIN (job->attempts - 1, 16u);

      base = MIN (base, BACKOFF_MAX_MS);
      /* Half fixed, half random: callers that failed together spread out. */
      delay_ms = (guint) (base / 2 + (guint64) g_random_int_range (0, (gint32) (base / 2) + 1));
    }
  job->timer = g_timeout_source_new (delay_ms);
  g_source_set_callback (job->timer, on_backoff_done, job, NULL);
  g_source_attach (job->timer, job->context);
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Job *job = user_data;
  GrammarOpenaiLlm *self = g_object_ref (job->self);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *message = NULL;
  g_autofree char *redacted = NULL;
  guint status;

  bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  self->in_flight--;
  clear_timer (job);
  if (job->cancelled_id != 0)
    {
      g_cancellable_disconnect (job->cancellable, job->cancelled_id);
      job->cancelled_id = 0;
    }
  g_clear_object (&job->attempt_cancellable);
  status = bytes != NULL ? soup_message_get_status (job->message) : 0;
  job->status = status;

  if (bytes == NULL)
    {
      g_autoptr (GError) retry_error = NULL;

      if (g_cancellable_is_cancelled (job->cancellable))
        {
          g_autoptr (GError) cancelled = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");

          job_finish (job, NULL, cancelled);
        }
      else if (job->timed_out)
        {
          retry_error = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "no reply within %g s (timeout)",
                                     self->timeout);
          retry_or_fail (job, retry_error, -1);
        }
      else if (error->domain == G_TLS_ERROR)
        {
          g_autoptr (GError) fatal = NULL;

          redacted = redact (self, error->message);
          fatal = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s/%s: TLS: %s%s", self->endpoint, job->path,
                               redacted, is_set (self->ca_file) ? "" : " (a private CA? set ca-file)");
          job_finish (job, NULL, fatal);
        }
      else
        {
          redacted = redact (self, error->message);
          retry_error = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s", redacted);
          retry_or_fail (job, retry_error, -1);
        }
    }
  else if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      root = parse_reply (job, bytes, &error);
      if (root != NULL)
        job_finish (job, root, NULL);
      else
        retry_or_fail (job, error, -1);
    }
  else
    {
      message = server_message (job->message, bytes);
      redacted = redact (self, message);
      if (is_retryable_status (status))
        {
          g_autoptr (GError) retry_error = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "HTTP %u: %s",
                                                        status, redacted);
          retry_or_fail (job, retry_error, retry_after (job->message));
        }
      else
        {
          g_autoptr (GError) fatal = NULL;
          g_autofree char *hint = NULL;

          if (status == 401 && !is_set (self->api_key_env))
            hint = g_strdup ("; the server needs an API key: set api-key-env to the environment variable holding it");
          else if (status == 401 && !is_set (self->api_key))
            hint = g_strdup_printf ("; the environment variable %s holding the API key is not set", self->api_key_env);
          else if (status == 401)
            hint = g_strdup_printf ("; check the API key in the environment variable %s", self->api_key_env);
          fatal = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s/%s: HTTP %u: %s%s", self->endpoint,
                               job->path, status, redacted, hint != NULL ? hint : "");
          job_finish (job, NULL, fatal);
        }
    }
  pump (self);
  g_object_unref (self);
}

static void
add_headers (GrammarOpenaiLlm   *self,
             SoupMessageHeaders *headers)
{
  if (is_set (self->api_key))
    {
      g_autofree char *value = g_strconcat ("Bearer ", self->api_key, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
    }
  if (is_set (self->organization))
    soup_message_headers_replace (headers, "OpenAI-Organization", self->organization);
  for (guint i = 0; self->extra_headers != NULL && self->extra_headers[i] != NULL; i++)
    {
      const char *colon = strchr (self->extra_headers[i], ':');
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (colon == NULL)
        continue;
      name = g_strstrip (g_strndup (self->extra_headers[i], (gsize) (colon - self->extra_headers[i])));
      value = g_strstrip (g_strdup (colon + 1));
      soup_message_headers_replace (headers, name, value);
    }
}

/* Requests and replies are small and go as several writes: without
 * TCP_NODELAY, Nagle's algorithm holds the later ones back for an ACK. */
static void
on_network_event (SoupMessage       *message,
                  GSocketClientEvent event,
                  GIOStream         *connection,
                  gpointer           user_data)
{
  if (event == G_SOCKET_CLIENT_CONNECTED && G_IS_SOCKET_CONNECTION (connection))
    g_socket_set_option (g_socket_connection_get_socket (G_SOCKET_CONNECTION (connection)), IPPROTO_TCP,
                         TCP_NODELAY, TRUE, NULL);
}

static void
start_attempt (Job *job)
{
  GrammarOpenaiLlm *self = job->self;
  g_autofree char *uri = g_strconcat (self->endpoint, "/", job->path, NULL);
  gboolean push = job->context != g_main_context_get_thread_default () &&
                  !(job->context == g_main_context_default () && g_main_context_get_thread_default () == NULL);

  self->in_flight++;
  self->n_requests++;
  if (job->attempts > 0)
    self->n_retries++;
  job->attempts++;
  job->timed_out = FALSE;
  job->status = 0;

  g_clear_object (&job->message);
  job->message = soup_message_new ("POST", uri);
  /* libsoup opens a new connection for every POST unless the message is
   * marked idempotent; a request that dies on a stale kept-alive
   * connection is retried below like any reset, so keep-alive is safe. */
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
      job->timer = g_timeout_source_new ((guint) MIN (self->timeout * 1000.0, (double) G_MAXUINT));
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

static gboolean
on_pace (gpointer user_data)
{
  GrammarOpenaiLlm *self = user_data;

  g_clear_pointer (&self->pace_source, g_source_unref);
  pump (self);
  return G_SOURCE_REMOVE;
}

/* Starts queued jobs while there is a free slot and, with
 * requests-per-minute, while the pace allows. */
static void
pump (GrammarOpenaiLlm *self)
{
  if (self->pumping)
    return;
  self->pumping = TRUE;
  while (self->in_flight < (guint) self->max_concurrency && !g_queue_is_empty (&self->queue))
    {
      Job *job = g_queue_peek_head (&self->queue);

      if (g_cancellable_is_cancelled (job->cancellable))
        {
          g_autoptr (GError) cancelled = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");

          g_queue_pop_head (&self->queue);
          job_finish (job, NULL, cancelled);
          continue;
        }
      if (self->requests_per_minute > 0)
        {
          gint64 now = g_get_monotonic_time ();

          if (now < self->next_send)
            {
              /* On the context of the job to start: a timer left on
               * the private context of a finished synchronous call
               * would never fire. */
              if (self->pace_source != NULL)
                {
                  g_source_destroy (self->pace_source);
                  g_clear_pointer (&self->pace_source, g_source_unref);
                }
              self->pace_source = g_timeout_source_new ((guint) ((self->next_send - now + 999) / 1000));
              g_source_set_callback (self->pace_source, on_pace, g_object_ref (self), g_object_unref);
              g_source_attach (self->pace_source, job->context);
              break;
            }
          self->next_send = MAX (now, self->next_send) + 60 * G_USEC_PER_SEC / self->requests_per_minute;
        }
      g_queue_pop_head (&self->queue);
      start_attempt (job);
    }
  self->pumping = FALSE;
}

/* ---- chat ---- */

typedef struct
{
  GrammarChatRequest *request;
  char *cache_key;      /* NULL: not served from nor kept in the cache */
  guint n;
  char **slots;         /* n choices, in order */
  char *model;
  guint prompt_tokens;
  guint completion_tokens;
  guint pending;
  GError *error;
} ChatOp;

static void
chat_op_free (ChatOp *op)
{
  g_clear_object (&op->request);
  g_free (op->cache_key);
  for (guint i = 0; op->slots != NULL && i < op->n; i++)
    g_free (op->slots[i]);
  g_free (op->slots);
  g_free (op->model);
  g_clear_error (&op->error);
  g_free (op);
}

static double
effective_temperature (GrammarOpenaiLlm   *self,
                       GrammarChatRequest *request)
{
  double temperature = self->temperature >= 0 ? self->temperature : grammar_chat_request_get_temperature (request);

  return temperature >= 0 ? temperature : 0.0;
}

/* The request body, with members in a fixed order so that equal
 * requests have equal bodies (and cache keys). */
static char *
build_chat_body (GrammarOpenaiLlm   *self,
                 GrammarChatRequest *request,
                 guint               n,
                 gint64              seed_offset)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  const char * const *stop = grammar_chat_request_get_stop (request);
  guint max_tokens = grammar_chat_request_get_max_tokens (request);
  gint64 seed;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, self->model);
  json_builder_set_member_name (builder, "messages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < grammar_chat_request_get_n_messages (request); i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "role");
      json_builder_add_string_value (builder, grammar_chat_request_get_message_role (request, i));
      json_builder_set_member_name (builder, "content");
      json_builder_add_string_value (builder, grammar_chat_request_get_message_content (request, i));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "temperature");
  json_builder_add_double_value (builder, effective_temperature (self, request));
  if (max_tokens == 0 && self->max_tokens > 0)
    max_tokens = (guint) self->max_tokens;
  if (max_tokens > 0)
    {
      json_builder_set_member_name (builder, "max_tokens");
      json_builder_add_int_value (builder, max_tokens);
    }
  if (n > 1)
    {
      json_builder_set_member_name (builder, "n");
      json_builder_add_int_value (builder, n);
    }
  if (grammar_chat_request_get_seed (request, &seed))
    {
      json_builder_set_member_name (builder, "seed");
      json_builder_add_int_value (builder, seed + seed_offset);
    }
  if (stop != NULL && stop[0] != NULL)
    {
      json_builder_set_member_name (builder, "stop");
      json_builder_begin_array (builder);
      for (guint i = 0; stop[i] != NULL; i++)
        json_builder_add_string_value (builder, stop[i]);
      json_builder_end_array (builder);
    }
  if (grammar_chat_request_get_json_response (request))
    {
      json_builder_set_member_name (builder, "response_format");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "json_object");
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static guint
usage_member (JsonObject *object,
              const char *name)
{
  JsonObject *usage = get_object (object, "usage");
  gint64 value;

  if (usage == NULL)
    return 0;
  value = get_int (usage, name, 0);
  return (guint) CLAMP (value, 0, G_MAXUINT);
}

static void chat_job_done (Job      *job,
                           JsonNode *root,
                           GError   *error);

static void
start_chat_jobs (GrammarOpenaiLlm *self,
                 GTask            *task)
{
  ChatOp *op = g_task_get_task_data (task);

  if (op->n > 1 && self->n_unsupported)
    {
      op->pending = op->n;
      for (guint i = 0; i < op->n; i++)
        {
          Job *job = job_new (self, JOB_CHAT, build_chat_body (self, op->request, 1, i), 1, task, chat_job_done);

          job->index = i;
          g_queue_push_tail (&self->queue, job);
        }
      pump (self);
    }
  else
    {
      op->pending = 1;
      enqueue (self, job_new (self, JOB_CHAT, build_chat_body (self, op->request, op->n, 0), op->n, task,
                              chat_job_done), FALSE);
    }
}

static char *
chat_op_to_json (ChatOp  *op,
                 char   **choices)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, op->model != NULL ? op->model : "");
  json_builder_set_member_name (builder, "choices");
  json_builder_begin_array (builder);
  for (guint i = 0; choices[i] != NULL; i++)
    json_builder_add_string_value (builder, choices[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "prompt_tokens");
  json_builder_add_int_value (builder, op->prompt_tokens);
  json_builder_set_member_name (builder, "completion_tokens");
  json_builder_add_int_value (builder, op->completion_tokens);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static void
chat_complete (GrammarOpenaiLlm *self,
               GTask            *task)
{
  ChatOp *op = g_task_get_task_data (task);
  g_autoptr (GPtrArray) choices = g_ptr_array_new ();

  if (op->error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&op->error));
      return;
    }
  for (guint i = 0; i < op->n; i++)
    if (op->slots[i] != NULL)
      g_ptr_array_add (choices, op->slots[i]);
  g_ptr_array_add (choices, NULL);

  if (op->cache_key != NULL && self->cache != NULL)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *value = chat_op_to_json (op, (char **) choices->pdata);

      if (!grammar_openai_cache_store (self->cache, op->cache_key, value, &error))
        g_warning ("%s", error->message);
    }
  g_task_return_pointer (task,
                         grammar_chat_response_new ((const char * const *) choices->pdata,
                                                    op->model != NULL ? op->model : self->model,
                                                    op->prompt_tokens, op->completion_tokens),
                         g_object_unref);
}

static void
chat_job_done (Job      *job,
               JsonNode *root,
               GError   *error)
{
  GrammarOpenaiLlm *self = job->self;
  GTask *task = job->task;
  ChatOp *op = g_task_get_task_data (task);

  /* A server without `n`: ask n times, this time and from now on. */
  if (error != NULL && job->n > 1 && job->status == 400)
    {
      self->n_unsupported = TRUE;
      start_chat_jobs (self, task);
      return;
    }

  if (error != NULL)
    {
      if (op->error == NULL)
        op->error = g_error_copy (error);
    }
  else
    {
      JsonObject *object = json_node_get_object (root);
      JsonArray *choices = get_array (object, "choices");
      guint slot = job->index;

      for (guint i = 0; i < json_array_get_length (choices) && slot < op->n; i++)
        {
          JsonNode *choice = json_array_get_element (choices, i);
          JsonObject *message;
          const char *content;

          if (!JSON_NODE_HOLDS_OBJECT (choice))
            continue;
          message = get_object (json_node_get_object (choice), "message");
          content = message != NULL ? get_string (message, "content") : NULL;
          if (content == NULL)
            continue;
          g_free (op->slots[slot]);
          op->slots[slot++] = g_strdup (content);
        }
      if (slot == job->index && op->error == NULL)
        op->error = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                                 "%s/%s: the reply has no choice with a message content", self->endpoint, job->path);
      if (op->model == NULL && get_string (object, "model") != NULL)
        op->model = g_strdup (get_string (object, "model"));
      op->prompt_tokens += usage_member (object, "prompt_tokens");
      op->completion_tokens += usage_member (object, "completion_tokens");
      self->n_prompt_tokens += usage_member (object, "prompt_tokens");
      self->n_completion_tokens += usage_member (object, "completion_tokens");
    }

  if (--op->pending == 0)
    chat_complete (self, task);
}

static GrammarChatResponse *
response_from_cache (const char *value)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) choices = g_ptr_array_new ();
  GrammarChatResponse *response;
  JsonObject *object;
  JsonArray *array;

  if (!json_parser_load_from_data (parser, value, -1, NULL) || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  object = json_node_get_object (json_parser_get_root (parser));
  array = get_array (object, "choices");
  if (array == NULL || json_array_get_length (array) == 0)
    return NULL;
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      const char *text = json_node_get_string (json_array_get_element (array, i));

      if (text == NULL)
        return NULL;
      g_ptr_array_add (choices, (gpointer) text);
    }
  g_ptr_array_add (choices, NULL);
  response = grammar_chat_response_new ((const char * const *) choices->pdata,
                                        get_string (object, "model") != NULL ? get_string (object, "model") : "",
                                        (guint) get_int (object, "prompt_tokens", 0),
                                        (guint) get_int (object, "completion_tokens", 0));
  grammar_chat_response_set_cached (response, TRUE);
  return response;
}

static void
grammar_openai_llm_chat_async (GrammarLlm          *llm,
                               GrammarChatRequest  *request,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GrammarOpenaiLlm *self = GRAMMAR_OPENAI_LLM (llm);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  ChatOp *op = g_new0 (ChatOp, 1);
  gint64 seed;

  g_task_set_source_tag (task, grammar_openai_llm_chat_async);
  g_task_set_task_data (task, op, (GDestroyNotify) chat_op_free);
  op->request = g_object_ref (request);
  op->n = grammar_chat_request_get_n (request);
  op->slots = g_new0 (char *, op->n);

  if (self->cache != NULL &&
      (effective_temperature (self, request) == 0.0 || grammar_chat_request_get_seed (request, &seed) ||
       self->cache_sampled))
    {
      g_autofree char *body = build_chat_body (self, request, op->n, 0);
      g_autofree char *value = NULL;

      op->cache_key = grammar_openai_cache_key (self->model, body);
      value = grammar_openai_cache_lookup (self->cache, op->cache_key);
      if (value != NULL)
        {
          GrammarChatResponse *response = response_from_cache (value);

          if (response != NULL)
            {
              self->n_cache_hits++;
              g_task_return_pointer (task, response, g_object_unref);
              return;
            }
        }
    }
  start_chat_jobs (self, task);
}

static GrammarChatResponse *
grammar_openai_llm_chat_finish (GrammarLlm    *llm,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, llm), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- embeddings ---- */

typedef struct
{
  char *cache_key;
  guint n_texts;
} EmbedOp;

static void
embed_op_free (EmbedOp *op)
{
  g_free (op->cache_key);
  g_free (op);
}

/* {"dimension": D, "vectors": [[...], ...]} or the OpenAI reply: both
 * give the vectors in order. */
static GrammarEmbeddings *
embeddings_from_json (JsonObject  *object,
                      guint        n_texts,
                      GError     **error)
{
  JsonArray *data = get_array (object, "data");
  g_autofree float *floats = NULL;
  guint dimension = 0;

  if (data == NULL || json_array_get_length (data) != n_texts)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the reply has %u embeddings for %u texts",
                   data != NULL ? json_array_get_length (data) : 0, n_texts);
      return NULL;
    }
  for (guint i = 0; i < n_texts; i++)
    {
      JsonNode *node = json_array_get_element (data, i);
      JsonObject *item = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonArray *vector = item != NULL ? get_array (item, "embedding") : NULL;
      gint64 index = item != NULL ? get_int (item, "index", i) : i;

      if (vector == NULL || json_array_get_length (vector) == 0 || index < 0 || index >= n_texts)
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "embedding %u of the reply is invalid", i);
          return NULL;
        }
      if (floats == NULL)
        {
          dimension = json_array_get_length (vector);
          floats = g_new0 (float, (gsize) dimension * n_texts);
        }
      else if (json_array_get_length (vector) != dimension)
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the embeddings of the reply differ in dimension");
          return NULL;
        }
      for (guint j = 0; j < dimension; j++)
        {
          JsonNode *element = json_array_get_element (vector, j);

          if (!JSON_NODE_HOLDS_VALUE (element))
            {
              g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "embedding %u of the reply is invalid", i);
              return NULL;
            }
          floats[(gsize) index * dimension + j] = (float) json_node_get_double (element);
        }
    }
  return grammar_embeddings_new (n_texts, dimension, floats);
}

static char *
embeddings_to_json (GrammarEmbeddings *embeddings)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "data");
  json_builder_begin_array (builder);
  for (guint i = 0; i < grammar_embeddings_get_n_vectors (embeddings); i++)
    {
      guint dimension = 0;
      const float *vector = grammar_embeddings_get_vector (embeddings, i, &dimension);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "index");
      json_builder_add_int_value (builder, i);
      json_builder_set_member_name (builder, "embedding");
      json_builder_begin_array (builder);
      for (guint j = 0; j < dimension; j++)
        json_builder_add_double_value (builder, vector[j]);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static void
embed_job_done (Job      *job,
                JsonNode *root,
                GError   *error)
{
  GrammarOpenaiLlm *self = job->self;
  GTask *task = job->task;
  EmbedOp *op = g_task_get_task_data (task);
  g_autoptr (GError) local_error = NULL;
  GrammarEmbeddings *embeddings;

  if (error != NULL)
    {
      g_task_return_error (task, g_error_copy (error));
      return;
    }
  self->n_prompt_tokens += usage_member (json_node_get_object (root), "prompt_tokens");
  embeddings = embeddings_from_json (json_node_get_object (root), op->n_texts, &local_error);
  if (embeddings == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s/%s: %s", self->endpoint, job->path,
                               local_error->message);
      return;
    }
  if (op->cache_key != NULL && self->cache != NULL)
    {
      g_autofree char *value = embeddings_to_json (embeddings);

      if (!grammar_openai_cache_store (self->cache, op->cache_key, value, &local_error))
        g_warning ("%s", local_error->message);
    }
  g_task_return_pointer (task, embeddings, g_object_unref);
}

static const char *
embedding_model (GrammarOpenaiLlm *self)
{
  return is_set (self->embedding_model) ? self->embedding_model : self->model;
}

static void
grammar_openai_llm_embed_async (GrammarLlm          *llm,
                                const char * const  *texts,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GrammarOpenaiLlm *self = GRAMMAR_OPENAI_LLM (llm);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  EmbedOp *op = g_new0 (EmbedOp, 1);
  char *body;

  g_task_set_source_tag (task, grammar_openai_llm_embed_async);
  g_task_set_task_data (task, op, (GDestroyNotify) embed_op_free);
  op->n_texts = g_strv_length ((char **) texts);
  if (op->n_texts == 0)
    {
      g_task_return_pointer (task, grammar_embeddings_new (0, 0, NULL), g_object_unref);
      return;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, embedding_model (self));
  json_builder_set_member_name (builder, "input");
  json_builder_begin_array (builder);
  for (guint i = 0; texts[i] != NULL; i++)
    json_builder_add_string_value (builder, texts[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  body = json_generator_to_data (generator, NULL);

  if (self->cache != NULL)
    {
      g_autofree char *value = NULL;

      op->cache_key = grammar_openai_cache_key (embedding_model (self), body);
      value = grammar_openai_cache_lookup (self->cache, op->cache_key);
      if (value != NULL)
        {
          g_autoptr (JsonParser) parser = json_parser_new ();
          GrammarEmbeddings *embeddings = NULL;

          if (json_parser_load_from_data (parser, value, -1, NULL) &&
              JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
            embeddings = embeddings_from_json (json_node_get_object (json_parser_get_root (parser)), op->n_texts, NULL);
          if (embeddings != NULL)
            {
              self->n_cache_hits++;
              g_free (body);
              g_task_return_pointer (task, embeddings, g_object_unref);
              return;
            }
        }
    }
  enqueue (self, job_new (self, JOB_EMBED, body, op->n_texts, task, embed_job_done), FALSE);
}

static GrammarEmbeddings *
grammar_openai_llm_embed_finish (GrammarLlm    *llm,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, llm), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- construction ---- */

static char *
expand_home (const char *path)
{
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  return g_strdup (path);
}

static gboolean
grammar_openai_llm_initable_init (GInitable     *initable,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  GrammarOpenaiLlm *self = GRAMMAR_OPENAI_LLM (initable);
  g_autoptr (GUri) uri = NULL;
  const char *scheme;
  gsize length;

  if (!is_set (self->model))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "model is required: the name of the model on the server (e.g. model=gpt-4o-mini)");
      return FALSE;
    }
  uri = is_set (self->base_url) ? g_uri_parse (self->base_url, G_URI_FLAGS_NONE, NULL) : NULL;
  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  if (uri == NULL || scheme == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
      !is_set (g_uri_get_host (uri)) || g_uri_get_query (uri) != NULL || g_uri_get_fragment (uri) != NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "base-url “%s” is not an http:// or https:// URL such as https://api.openai.com/v1",
                   self->base_url != NULL ? self->base_url : "");
      return FALSE;
    }
  length = strlen (self->base_url);
  while (length > 0 && self->base_url[length - 1] == '/')
    length--;
  self->endpoint = g_strndup (self->base_url, length);

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
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "ca-file %s: %s",
                       self->ca_file, local_error->message);
          return FALSE;
        }
      g_object_set (self->session, "tls-database", database, NULL);
    }

  if (is_set (self->cache_path))
    {
      g_autoptr (GError) local_error = NULL;
      g_autofree char *path = expand_home (self->cache_path);

      self->cache = grammar_openai_cache_open (path, &local_error);
      if (self->cache == NULL)
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "cache: %s (set cache= to turn it off)",
                       local_error->message);
          return FALSE;
        }
    }
  return TRUE;
}

static void
grammar_openai_llm_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_openai_llm_initable_init;
}

static void
grammar_openai_llm_llm_iface_init (GrammarLlmInterface *iface)
{
  iface->chat_async = grammar_openai_llm_chat_async;
  iface->chat_finish = grammar_openai_llm_chat_finish;
  iface->embed_async = grammar_openai_llm_embed_async;
  iface->embed_finish = grammar_openai_llm_embed_finish;
}

static void
grammar_openai_llm_dispose (GObject *object)
{
  GrammarOpenaiLlm *self = GRAMMAR_OPENAI_LLM (object);

  if (self->pace_source != NULL)
    {
      g_source_destroy (self->pace_source);
      g_clear_pointer (&self->pace_source, g_source_unref);
    }
  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);
  g_clear_pointer (&self->cache, grammar_openai_cache_close);

  G_OBJECT_CLASS (grammar_openai_llm_parent_class)->dispose (object);
}

static void
grammar_openai_llm_finalize (GObject *object)
{
  GrammarOpenaiLlm *self = GRAMMAR_OPENAI_LLM (object);

  g_free (self->base_url);
  g_free (self->model);
  g_free (self->embedding_model);
  g_free (self->api_key_env);
  g_free (self->organization);
  g_strfreev (self->extra_headers);
  g_free (self->cache_path);
  g_free (self->ca_file);
  if (self->api_key != NULL)
    memset (self->api_key, 0, strlen (self->api_key));
  g_free (self->api_key);
  g_free (self->endpoint);

  G_OBJECT_CLASS (grammar_openai_llm_parent_class)->finalize (object);
}

static void
grammar_openai_llm_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  GrammarOpenaiLlm *self = GRAMMAR_OPENAI_LLM (object);

  switch (prop_id)
    {
    case PROP_BASE_URL: g_value_set_string (value, self->base_url); break;
    case PROP_MODEL: g_value_set_string (value, self->model); break;
    case PROP_EMBEDDING_MODEL: g_value_set_string (value, self->embedding_model); break;
    case PROP_API_KEY_ENV: g_value_set_string (value, self->api_key_env); break;
    case PROP_ORGANIZATION: g_value_set_string (value, self->organization); break;
    case PROP_EXTRA_HEADERS: g_value_set_boxed (value, self->extra_headers); break;
    case PROP_TEMPERATURE: g_value_set_double (value, self->temperature); break;
    case PROP_MAX_TOKENS: g_value_set_int (value, self->max_tokens); break;
    case PROP_TIMEOUT: g_value_set_double (value, self->timeout); break;
    case PROP_MAX_CONCURRENCY: g_value_set_int (value, self->max_concurrency); break;
    case PROP_MAX_RETRIES: g_value_set_int (value, self->max_retries); break;
    case PROP_REQUESTS_PER_MINUTE: g_value_set_int (value, self->requests_per_minute); break;
    case PROP_CACHE: g_value_set_string (value, self->cache_path); break;
    case PROP_CACHE_SAMPLED: g_value_set_boolean (value, self->cache_sampled); break;
    case PROP_CA_FILE: g_value_set_string (value, self->ca_file); break;
    case PROP_REQUESTS: g_value_set_uint64 (value, self->n_requests); break;
    case PROP_CACHE_HITS: g_value_set_uint64 (value, self->n_cache_hits); break;
    case PROP_RETRIES: g_value_set_uint64 (value, self->n_retries); break;
    case PROP_PROMPT_TOKENS: g_value_set_uint64 (value, self->n_prompt_tokens); break;
    case PROP_COMPLETION_TOKENS: g_value_set_uint64 (value, self->n_completion_tokens); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_openai_llm_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  GrammarOpenaiLlm *self = GRAMMAR_OPENAI_LLM (object);

  switch (prop_id)
    {
    case PROP_BASE_URL: set_str (&self->base_url, g_value_get_string (value)); break;
    case PROP_MODEL: set_str (&self->model, g_value_get_string (value)); break;
    case PROP_EMBEDDING_MODEL: set_str (&self->embedding_model, g_value_get_string (value)); break;
    case PROP_API_KEY_ENV: set_str (&self->api_key_env, g_value_get_string (value)); break;
    case PROP_ORGANIZATION: set_str (&self->organization, g_value_get_string (value)); break;
    case PROP_EXTRA_HEADERS:
      g_strfreev (self->extra_headers);
      self->extra_headers = g_value_dup_boxed (value);
      break;
    case PROP_TEMPERATURE: self->temperature = g_value_get_double (value); break;
    case PROP_MAX_TOKENS: self->max_tokens = g_value_get_int (value); break;
    case PROP_TIMEOUT: self->timeout = g_value_get_double (value); break;
    case PROP_MAX_CONCURRENCY: self->max_concurrency = g_value_get_int (value); break;
    case PROP_MAX_RETRIES: self->max_retries = g_value_get_int (value); break;
    case PROP_REQUESTS_PER_MINUTE: self->requests_per_minute = g_value_get_int (value); break;
    case PROP_CACHE: set_str (&self->cache_path, g_value_get_string (value)); break;
    case PROP_CACHE_SAMPLED: self->cache_sampled = g_value_get_boolean (value); break;
    case PROP_CA_FILE: set_str (&self->ca_file, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_openai_llm_class_init (GrammarOpenaiLlmClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  const GParamFlags stat = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->dispose = grammar_openai_llm_dispose;
  object_class->finalize = grammar_openai_llm_finalize;
  object_class->get_property = grammar_openai_llm_get_property;
  object_class->set_property = grammar_openai_llm_set_property;

  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL,
                         "The API's URL, up to /v1 (http://127.0.0.1:8000/v1 for vLLM, llama.cpp or Ollama)",
                         DEFAULT_BASE_URL, construct);
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, "The chat model's name on the server (required)", NULL, construct);
  properties[PROP_EMBEDDING_MODEL] =
    g_param_spec_string ("embedding-model", NULL, "The embeddings model's name (default: model)", NULL, construct);
  properties[PROP_API_KEY_ENV] =
    g_param_spec_string ("api-key-env", NULL,
                         "The environment variable holding the API key (the key is never in a file); empty: no key",
                         DEFAULT_KEY_ENV, construct);
  properties[PROP_ORGANIZATION] =
    g_param_spec_string ("organization", NULL, "Sent as the OpenAI-Organization header", NULL, construct);
  properties[PROP_EXTRA_HEADERS] =
    g_param_spec_boxed ("extra-headers", NULL, "More HTTP headers, “Name: value” each", G_TYPE_STRV, construct);
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, "The temperature of every chat; -1: each request's (default 0)",
                         -1.0, 2.0, -1.0, construct);
  properties[PROP_MAX_TOKENS] =
    g_param_spec_int ("max-tokens", NULL, "The most tokens of a reply when the request sets none; 0: unset",
                      0, G_MAXINT, 0, construct);
  properties[PROP_TIMEOUT] =
    g_param_spec_double ("timeout", NULL, "Seconds to wait for a reply before trying again; 0: forever",
                         0.0, 86400.0, 60.0, construct);
  properties[PROP_MAX_CONCURRENCY] =
    g_param_spec_int ("max-concurrency", NULL, "The most requests in flight at once", 1, 1024, 8, construct);
  properties[PROP_MAX_RETRIES] =
    g_param_spec_int ("max-retries", NULL,
                      "Tries again after 429, 5xx, a lost connection, a timeout or an invalid reply, up to N times",
                      0, 20, 5, construct);
  properties[PROP_REQUESTS_PER_MINUTE] =
    g_param_spec_int ("requests-per-minute", NULL, "Spaces out requests to at most N a minute; 0: no limit",
                      0, G_MAXINT / 2, 0, construct);
  properties[PROP_CACHE] =
    g_param_spec_string ("cache", NULL, "The SQLite response cache file; empty: no cache",
                         DEFAULT_CACHE, construct | GRAMMAR_PARAM_PATH);
  properties[PROP_CACHE_SAMPLED] =
    g_param_spec_boolean ("cache-sampled", NULL,
                          "Also serve sampled chats (temperature > 0, no seed) from the cache", FALSE, construct);
  properties[PROP_CA_FILE] =
    g_param_spec_string ("ca-file", NULL, "PEM file of the CAs to trust for https (default: the system's)",
                         NULL, construct | GRAMMAR_PARAM_PATH);
  properties[PROP_REQUESTS] =
    g_param_spec_uint64 ("requests", NULL, "HTTP requests sent (statistics)", 0, G_MAXUINT64, 0, stat);
  properties[PROP_CACHE_HITS] =
    g_param_spec_uint64 ("cache-hits", NULL, "Requests answered from the cache (statistics)", 0, G_MAXUINT64, 0, stat);
  properties[PROP_RETRIES] =
    g_param_spec_uint64 ("retries", NULL, "HTTP requests sent again (statistics)", 0, G_MAXUINT64, 0, stat);
  properties[PROP_PROMPT_TOKENS] =
    g_param_spec_uint64 ("prompt-tokens", NULL, "Prompt tokens the server counted (statistics)", 0, G_MAXUINT64, 0, stat);
  properties[PROP_COMPLETION_TOKENS] =
    g_param_spec_uint64 ("completion-tokens", NULL, "Completion tokens the server counted (statistics)",
                         0, G_MAXUINT64, 0, stat);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_openai_llm_class_finalize (GrammarOpenaiLlmClass *klass)
{
}

static void
grammar_openai_llm_init (GrammarOpenaiLlm *self)
{
  self->base_url = g_strdup (DEFAULT_BASE_URL);
  self->api_key_env = g_strdup (DEFAULT_KEY_ENV);
  self->temperature = -1.0;
  self->timeout = 60.0;
  self->max_concurrency = 8;
  self->max_retries = 5;
  self->cache_path = g_strdup (DEFAULT_CACHE);
  g_queue_init (&self->queue);
}

void
grammar_openai_llm_register (GTypeModule *module)
{
  grammar_openai_llm_register_type (module);
}
