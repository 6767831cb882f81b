/* grammar-http-client.c: one HTTP client for every plugin that talks to a server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gnetworking.h>
#include <libsoup/soup.h>

#include "grammar-config.h"
#include "grammar-error.h"
#include "grammar-http-client.h"
#include "grammar-sync-private.h"

/**
 * GrammarHttpClient:
 *
 * The HTTP client of every plugin that talks to a server (the `openai`
 * language model, the `http` system under test): one #SoupSession with
 * keep-alive, one queue, retries and redaction, so that they behave
 * alike.
 *
 * Requests run on the thread-default main context of the caller,
 * without threads. At most #GrammarHttpClient:max-concurrency are in
 * flight, or 64 when it is 0 (the default: no cap below the caller's); with #GrammarHttpClient:requests-per-minute they are also
 * spaced out evenly. The others wait in the queue, costing only their
 * body.
 *
 * A 408, a 429, a 5xx other than 501 and 505, a connection that fails
 * or closes, and an attempt that takes longer than
 * #GrammarHttpClient:timeout are tried again, up to
 * #GrammarHttpClient:max-retries times, after an exponential back-off
 * with jitter, or after the `Retry-After` (seconds or an HTTP date) the
 * server asked for. A #GrammarHttpCheckFunc judges each reply and may
 * reject a 2xx one to have it tried again.
 *
 * The client counts what it does, as read-only properties: attempts
 * sent (#GrammarHttpClient:requests), retries and their causes
 * (#GrammarHttpClient:retries-429, #GrammarHttpClient:retries-5xx,
 * #GrammarHttpClient:retries-timeout, #GrammarHttpClient:retries-connection,
 * #GrammarHttpClient:retries-malformed), #GrammarHttpClient:timeouts,
 * #GrammarHttpClient:failures and the latency of the replies
 * (#GrammarHttpClient:latency-median-ms, #GrammarHttpClient:latency-p95-ms,
 * #GrammarHttpClient:latency-max-ms) from a log histogram of fixed size.
 * A plugin shows them as its own with
 * grammar_http_client_install_statistics(), and
 * grammar_format_request_statistics() makes its end-of-run line.
 *
 * Cancelling the #GCancellable of a request ends it promptly with
 * %G_IO_ERROR_CANCELLED wherever it is: waiting in the queue, waiting
 * for its pace, in flight, or waiting out a back-off.
 *
 * The client is told the secrets it sends (grammar_http_client_set_bearer_token(),
 * grammar_http_client_add_secret()) and replaces them with `[redacted]`
 * in every message it produces, including the server's own words.
 *
 * A plugin holds one client, sets it up once from its properties and
 * sends every request through it:
 *
 * |[<!-- language="C" -->
 * self->client = grammar_http_client_new ();
 * g_object_set (self->client, "max-retries", 3, "timeout", 60.0, NULL);
 * grammar_http_client_set_bearer_token (self->client, key);
 * grammar_http_client_send_async (self->client, "POST", url, "application/json", body,
 *                                 check_reply, job, NULL, cancellable, on_sent, job);
 * ]|
 */

#define BACKOFF_INITIAL_MS 250
#define BACKOFF_MAX_MS 30000
#define RETRY_AFTER_MAX_S 300
#define REDACTED "[redacted]"
/* The most requests in flight when max-concurrency sets no cap: more than
 * a stage sends by default (16), and a bound for the callers that hand
 * every request over at once (the document generator, the dense
 * retriever's embedding), which relied on the old default of 8. Keep in
 * step with GRAMMAR_STAGE_RUNNER_UNCAPPED_SERVICE. */
#define UNCAPPED_IN_FLIGHT 64

/* The latency histogram: buckets an eighth of an octave wide (9 %) from
 * LATENCY_MIN_MS up, the last one open; a quantile read from it is off
 * by at most half a bucket, 4.5 %, in a fixed 1.6 KiB however many
 * requests there are. */
#define LATENCY_MIN_MS 0.1
#define LATENCY_STEPS_PER_OCTAVE 8
#define LATENCY_BUCKETS 200

/* Why an attempt was tried again, as the retries-* statistics name it. */
typedef enum
{
  CAUSE_429,
  CAUSE_5XX,
  CAUSE_TIMEOUT,
  CAUSE_CONNECTION,
  CAUSE_MALFORMED,
  N_CAUSES
} Cause;

struct _GrammarHttpClient
{
  GObject parent_instance;

  /* properties */
  guint max_concurrency;
  guint requests_per_minute;
  guint max_retries;
  double timeout;

  /* statistics */
  guint64 n_requests;
  guint64 n_retries;
  guint64 n_failures;
  guint64 n_bytes_sent;
  guint64 n_bytes_received;
  guint64 n_retries_by_cause[N_CAUSES];
  guint64 n_timeouts;
  guint64 latency_counts[LATENCY_BUCKETS];
  guint64 n_latencies;
  double latency_sum_ms;
  double latency_max_ms;

  /* state */
  SoupSession *session;         /* made at the first request */
  GTlsDatabase *tls_database;
  SoupMessageHeaders *headers;  /* sent with every request */
  GPtrArray *secrets;           /* char *, never shown */
  char *key_env;                /* the variable of the bearer token, for hints */
  gboolean has_key;             /* key_env names a set variable */
  gboolean key_hints;           /* the key came from ..._from_env() */
  GQueue queue;                 /* Job *, waiting for a slot */
  guint in_flight;
  gboolean pumping;
  gint64 next_send;             /* monotonic µs, for requests-per-minute */
  GSource *pace_source;
};

enum
{
  PROP_0,
  PROP_MAX_CONCURRENCY,
  PROP_REQUESTS_PER_MINUTE,
  PROP_MAX_RETRIES,
  PROP_TIMEOUT,
  PROP_REQUESTS,
  PROP_RETRIES,
  PROP_FAILURES,
  PROP_BYTES_SENT,
  PROP_BYTES_RECEIVED,
  PROP_RETRIES_429,
  PROP_RETRIES_5XX,
  PROP_RETRIES_TIMEOUT,
  PROP_RETRIES_CONNECTION,
  PROP_RETRIES_MALFORMED,
  PROP_TIMEOUTS,
  PROP_LATENCY_MEDIAN_MS,
  PROP_LATENCY_P95_MS,
  PROP_LATENCY_MAX_MS,
  N_PROPS
};

/* The statistics properties, which grammar_http_client_install_statistics()
 * gives a plugin too. */
#define FIRST_STATISTIC PROP_REQUESTS

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GrammarHttpClient, grammar_http_client, G_TYPE_OBJECT)

/* ---- redaction ---- */

/**
 * grammar_http_client_add_secret:
 * @self: a #GrammarHttpClient
 * @secret: (nullable): a text never to show, such as an API key
 *
 * Adds @secret to the texts grammar_http_client_redact() replaces with
 * `[redacted]` in every message of the client. %NULL and empty texts
 * are ignored.
 */
void
grammar_http_client_add_secret (GrammarHttpClient *self,
                                const char        *secret)
{
  g_return_if_fail (GRAMMAR_IS_HTTP_CLIENT (self));

  if (secret == NULL || secret[0] == '\0')
    return;
  for (guint i = 0; i < self->secrets->len; i++)
    if (g_str_equal (self->secrets->pdata[i], secret))
      return;
  g_ptr_array_add (self->secrets, g_strdup (secret));
}

/**
 * grammar_http_client_redact:
 * @self: a #GrammarHttpClient
 * @text: a text that may hold a secret, e.g. a server's reply
 *
 * Returns: (transfer full): @text with every secret of the client
 *   replaced by `[redacted]`
 */
char *
grammar_http_client_redact (GrammarHttpClient *self,
                            const char        *text)
{
  g_autoptr (GString) string = NULL;

  g_return_val_if_fail (GRAMMAR_IS_HTTP_CLIENT (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  string = g_string_new (text);
  for (guint i = 0; i < self->secrets->len; i++)
    g_string_replace (string, self->secrets->pdata[i], REDACTED, 0);
  return g_string_free (g_steal_pointer (&string), FALSE);
}

/* ---- set-up ---- */

/**
 * grammar_http_client_new:
 *
 * Returns: (transfer full): a new client, with 8 requests in flight at
 *   most, 3 retries and a 60 s timeout
 */
GrammarHttpClient *
grammar_http_client_new (void)
{
  return g_object_new (GRAMMAR_TYPE_HTTP_CLIENT, NULL);
}

/**
 * grammar_http_client_set_ca_file:
 * @self: a #GrammarHttpClient
 * @path: (type filename) (nullable): a PEM file of the certificate
 *   authorities to trust for https, or %NULL for the system's
 * @error: return location for a #GError
 *
 * Call it before the first request.
 *
 * Returns: %TRUE, or %FALSE with %GRAMMAR_CONFIG_ERROR_BAD_VALUE when
 *   the file cannot be read as certificates
 */
gboolean
grammar_http_client_set_ca_file (GrammarHttpClient  *self,
                                 const char         *path,
                                 GError            **error)
{
  g_autoptr (GError) local_error = NULL;
  GTlsDatabase *database = NULL;

  g_return_val_if_fail (GRAMMAR_IS_HTTP_CLIENT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (path != NULL && path[0] != '\0')
    {
      database = g_tls_file_database_new (path, &local_error);
      if (database == NULL)
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "ca-file %s: %s", path,
                       local_error->message);
          return FALSE;
        }
    }
  g_clear_object (&self->tls_database);
  self->tls_database = database;
  if (self->session != NULL)
    g_object_set (self->session, "tls-database", self->tls_database, NULL);
  return TRUE;
}

/**
 * grammar_http_client_set_header:
 * @self: a #GrammarHttpClient
 * @name: a header name
 * @value: (nullable): its value, or %NULL to send no such header
 *
 * Sets a header sent with every request.
 */
void
grammar_http_client_set_header (GrammarHttpClient *self,
                                const char        *name,
                                const char        *value)
{
  g_return_if_fail (GRAMMAR_IS_HTTP_CLIENT (self));
  g_return_if_fail (name != NULL);

  if (value != NULL)
    soup_message_headers_replace (self->headers, name, value);
  else
    soup_message_headers_remove (self->headers, name);
}

/**
 * grammar_http_client_add_header_lines:
 * @self: a #GrammarHttpClient
 * @lines: (nullable) (array zero-terminated=1): headers as `Name: value`
 *   lines
 * @error: return location for a #GError
 *
 * Sets each header of @lines, sent with every request (a plugin's
 * `extra-headers` property).
 *
 * Returns: %TRUE, or %FALSE with %GRAMMAR_CONFIG_ERROR_BAD_VALUE naming
 *   the first line without a name and a colon (no header is set then)
 */
gboolean
grammar_http_client_add_header_lines (GrammarHttpClient   *self,
                                      const char * const  *lines,
                                      GError             **error)
{
  g_return_val_if_fail (GRAMMAR_IS_HTTP_CLIENT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    {
      const char *colon = strchr (lines[i], ':');

      if (colon == NULL || colon == lines[i])
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "“%s” is not of the form “Name: value”", lines[i]);
          return FALSE;
        }
    }
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    {
      const char *colon = strchr (lines[i], ':');
      g_autofree char *name = g_strstrip (g_strndup (lines[i], (gsize) (colon - lines[i])));
      g_autofree char *value = g_strstrip (g_strdup (colon + 1));

      soup_message_headers_replace (self->headers, name, value);
    }
  return TRUE;
}

/**
 * grammar_http_client_set_bearer_token:
 * @self: a #GrammarHttpClient
 * @token: (nullable): an API key, or %NULL or empty for none
 *
 * Sends `Authorization: Bearer @token` with every request, and keeps
 * @token out of every message as grammar_http_client_add_secret() does.
 */
void
grammar_http_client_set_bearer_token (GrammarHttpClient *self,
                                      const char        *token)
{
  g_autofree char *value = NULL;

  g_return_if_fail (GRAMMAR_IS_HTTP_CLIENT (self));

  if (token == NULL || token[0] == '\0')
    {
      soup_message_headers_remove (self->headers, "Authorization");
      return;
    }
  grammar_http_client_add_secret (self, token);
  value = g_strconcat ("Bearer ", token, NULL);
  soup_message_headers_replace (self->headers, "Authorization", value);
  memset (value, 0, strlen (value));
}

/**
 * grammar_http_client_set_bearer_token_from_env:
 * @self: a #GrammarHttpClient
 * @variable: (nullable): the name of the environment variable holding an
 *   API key (a plugin's `api-key-env` property), or %NULL or empty for none
 *
 * Sends the key in @variable as grammar_http_client_set_bearer_token()
 * does, and remembers the variable's name: a 401 or 403 reply then ends
 * with a hint naming it (not set, or the key to check), or, without
 * @variable, with a hint to set `api-key-env`. A key given with
 * grammar_http_client_set_bearer_token() gets no such hint.
 */
void
grammar_http_client_set_bearer_token_from_env (GrammarHttpClient *self,
                                               const char        *variable)
{
  gboolean named = variable != NULL && variable[0] != '\0';
  const char *key = named ? g_getenv (variable) : NULL;

  g_return_if_fail (GRAMMAR_IS_HTTP_CLIENT (self));

  self->key_hints = TRUE;
  g_free (self->key_env);
  self->key_env = named ? g_strdup (variable) : NULL;
  self->has_key = key != NULL && key[0] != '\0';
  grammar_http_client_set_bearer_token (self, key);
}

static gboolean
has_property (GObject    *object,
              const char *name,
              GValue     *value)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), name);

  if (pspec == NULL || !(pspec->flags & G_PARAM_READABLE))
    return FALSE;
  g_value_init (value, pspec->value_type);
  g_object_get_property (object, name, value);
  return TRUE;
}

/**
 * grammar_http_client_configure:
 * @self: a #GrammarHttpClient
 * @settings: an object with connection properties, such as a plugin
 *   built from a keyfile section
 * @error: return location for a #GError
 *
 * Sets the client up from the properties @settings has of these:
 * `max-concurrency`, `requests-per-minute`, `max-retries` and `timeout`
 * (copied to the client's own), `api-key-env`
 * (grammar_http_client_set_bearer_token_from_env()), `extra-headers`
 * (grammar_http_client_add_header_lines()) and `ca-file`
 * (grammar_http_client_set_ca_file()). It is how every HTTP plugin turns
 * its section into its client, so that the keys mean the same
 * everywhere. Call it before the first request.
 *
 * Returns: %TRUE, or %FALSE with %GRAMMAR_CONFIG_ERROR_BAD_VALUE naming
 *   the key whose value is wrong
 */
gboolean
grammar_http_client_configure (GrammarHttpClient  *self,
                               GObject            *settings,
                               GError            **error)
{
  static const char * const copied[] = { "max-concurrency", "requests-per-minute", "max-retries", "timeout" };

  g_return_val_if_fail (GRAMMAR_IS_HTTP_CLIENT (self), FALSE);
  g_return_val_if_fail (G_IS_OBJECT (settings), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (gsize i = 0; i < G_N_ELEMENTS (copied); i++)
    {
      g_auto (GValue) value = G_VALUE_INIT;

      if (has_property (settings, copied[i], &value))
        g_object_set_property (G_OBJECT (self), copied[i], &value);
    }
  {
    g_auto (GValue) value = G_VALUE_INIT;

    if (has_property (settings, "api-key-env", &value))
      grammar_http_client_set_bearer_token_from_env (self, g_value_get_string (&value));
  }
  {
    g_auto (GValue) value = G_VALUE_INIT;

    if (has_property (settings, "extra-headers", &value)
        && !grammar_http_client_add_header_lines (self, g_value_get_boxed (&value), error))
      {
        g_prefix_error (error, "extra-headers: ");
        return FALSE;
      }
  }
  {
    g_auto (GValue) value = G_VALUE_INIT;

    if (has_property (settings, "ca-file", &value)
        && !grammar_http_client_set_ca_file (self, g_value_get_string (&value), error))
      return FALSE;
  }
  return TRUE;
}

/* What to do about a 401 or 403, when the key came from a variable or
 * could have. */
static void
add_key_hint (GrammarHttpClient  *self,
              GError             *error)
{
  char *message;

  if (self->key_env == NULL)
    message = g_strconcat (error->message,
                           "; if the server needs a key, set api-key-env to the environment variable holding it",
                           NULL);
  else if (!self->has_key)
    message = g_strdup_printf ("%s; the environment variable %s holding the API key is not set", error->message,
                               self->key_env);
  else
    message = g_strdup_printf ("%s; check the API key in the environment variable %s", error->message,
                               self->key_env);
  g_free (error->message);
  error->message = message;
}

/* ---- jobs: one request, tried until it is accepted or gives up ---- */

typedef enum
{
  JOB_QUEUED,
  JOB_IN_FLIGHT,
  JOB_BACKING_OFF,
} JobState;

typedef struct
{
  GrammarHttpClient *self;      /* a reference */
  GTask *task;
  char *method;
  char *uri;
  char *label;                  /* the address without a password, for messages */
  char *content_type;
  GBytes *body;                 /* nullable */
  GrammarHttpCheckFunc check;
  gpointer check_data;
  GDestroyNotify check_destroy;
  GCancellable *cancellable;    /* the caller's, nullable */
  gulong cancelled_id;
  GSource *cancel_source;       /* brings a cancellation to the job's context */
  GMainContext *context;        /* the caller's thread-default context */

  JobState state;
  GList link;                   /* in the queue while JOB_QUEUED */
  guint attempts;
  guint status;                 /* of the last reply, 0 without one */
  SoupMessage *message;
  GCancellable *attempt_cancellable;
  GSource *timer;               /* the timeout of an attempt, or the back-off */
  gboolean timed_out;
  gint64 attempt_started;       /* monotonic µs */
  Cause retry_cause;            /* why the next attempt is a retry */
} Job;

static void pump (GrammarHttpClient *self);

static void
destroy_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static void
job_free (Job *job)
{
  /* Waits for a handler running in another thread, so that no
   * cancel_source is attached after this. */
  if (job->cancelled_id != 0)
    g_cancellable_disconnect (job->cancellable, job->cancelled_id);
  destroy_source (&job->cancel_source);
  destroy_source (&job->timer);
  if (job->check_destroy != NULL)
    job->check_destroy (job->check_data);
  g_free (job->method);
  g_free (job->uri);
  g_free (job->label);
  g_free (job->content_type);
  g_clear_pointer (&job->body, g_bytes_unref);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_clear_object (&job->message);
  g_clear_object (&job->attempt_cancellable);
  g_clear_object (&job->task);
  g_clear_object (&job->self);
  g_free (job);
}

/* Hands the body (taken) or @error (taken) to the caller. */
static void
job_finish (Job    *job,
            GBytes *body,
            GError *error)
{
  g_task_set_task_data (job->task, GUINT_TO_POINTER (job->status), NULL);
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        job->self->n_failures++;
      g_task_return_error (job->task, error);
    }
  else
    g_task_return_pointer (job->task, body, (GDestroyNotify) g_bytes_unref);
  job_free (job);
}

static void
job_cancelled (Job *job)
{
  job_finish (job, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
}

/* On the job's context, whatever thread cancelled it. */
static gboolean
on_cancel_dispatch (gpointer user_data)
{
  Job *job = user_data;
  GrammarHttpClient *self = job->self;

  g_clear_pointer (&job->cancel_source, g_source_unref);
  switch (job->state)
    {
    case JOB_QUEUED:
      g_queue_unlink (&self->queue, &job->link);
      job_cancelled (job);
      break;
    case JOB_BACKING_OFF:
      job_cancelled (job);
      break;
    case JOB_IN_FLIGHT:
      /* on_sent ends it, with the slot it frees. */
      g_cancellable_cancel (job->attempt_cancellable);
      break;
    default:
      g_assert_not_reached ();
    }
  return G_SOURCE_REMOVE;
}

static void
on_caller_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  Job *job = user_data;
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_HIGH);
  g_source_set_callback (source, on_cancel_dispatch, job, NULL);
  g_source_attach (source, job->context);
  job->cancel_source = source;
}

static gboolean
on_backoff_done (gpointer user_data)
{
  Job *job = user_data;
  GrammarHttpClient *self = job->self;

  g_clear_pointer (&job->timer, g_source_unref);
  job->state = JOB_QUEUED;
  g_queue_push_head_link (&self->queue, &job->link);
  pump (self);
  return G_SOURCE_REMOVE;
}

/* Seconds of a Retry-After header (a number of seconds or an HTTP
 * date), or -1. */
static double
retry_after (SoupMessage *message)
{
  const char *value = soup_message_headers_get_one (soup_message_get_response_headers (message), "Retry-After");
  g_autoptr (GDateTime) date = NULL;
  char *end = NULL;
  double seconds;

  if (value == NULL)
    return -1;
  seconds = g_ascii_strtod (value, &end);
  if (end != value && isfinite (seconds) && seconds >= 0)
    return MIN (seconds, RETRY_AFTER_MAX_S);
  date = soup_date_time_new_from_http_string (value);
  if (date == NULL)
    return -1;
  {
    g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
    double delta = (double) g_date_time_difference (date, now) / G_USEC_PER_SEC;

    return CLAMP (delta, 0, RETRY_AFTER_MAX_S);
  }
}

/* Takes @error: tries again later (after @wait_seconds, or a back-off
 * when negative), or fails with it when no try is left. */
static void
retry_or_fail (Job    *job,
               GError *error,
               double  wait_seconds,
               Cause   cause)
{
  GrammarHttpClient *self = job->self;
  guint delay_ms;

  if (job->attempts > self->max_retries)
    {
      g_autofree char *message = g_strdup_printf ("%s failed after %u attempt%s: %s", job->label, job->attempts,
                                                  job->attempts == 1 ? "" : "s", error->message);
      g_autofree char *redacted = grammar_http_client_redact (self, message);

      /* A 2xx reply the check rejected is the query's problem; anything
       * else that is tried again (no connection, no reply in time, 408,
       * 429, 5xx) says the service is unavailable. */
      GrammarError code = SOUP_STATUS_IS_SUCCESSFUL (job->status) ? GRAMMAR_ERROR_FAILED : GRAMMAR_ERROR_UNAVAILABLE;

      g_error_free (error);
      job_finish (job, NULL, g_error_new_literal (GRAMMAR_ERROR, code, redacted));
      return;
    }
  g_debug ("%s: attempt %u failed, trying again", job->label, job->attempts);
  g_error_free (error);
  job->retry_cause = cause;
  if (wait_seconds >= 0)
    delay_ms = (guint) (wait_seconds * 1000);
  else
    {
      guint64 base = MIN ((guint64) BACKOFF_INITIAL_MS << MIN (job->attempts - 1, 16u), BACKOFF_MAX_MS);

      /* Half fixed, half random: callers that failed together spread out. */
      delay_ms = (guint) (base / 2 + (guint64) g_random_int_range (0, (gint32) (base / 2) + 1));
    }
  job->state = JOB_BACKING_OFF;
  job->timer = g_timeout_source_new (delay_ms);
  g_source_set_callback (job->timer, on_backoff_done, job, NULL);
  g_source_attach (job->timer, job->context);
}

/* Takes @error: fails at once with it. */
static void
fail (Job    *job,
      GError *error)
{
  g_autofree char *message = g_strdup_printf ("%s: %s", job->label, error->message);
  g_autofree char *redacted = grammar_http_client_redact (job->self, message);

  g_error_free (error);
  job_finish (job, NULL, g_error_new_literal (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, redacted));
}

static gboolean
is_retryable_status (guint status)
{
  return status == 408 || status == 429 || (status >= 500 && status <= 599 && status != 501 && status != 505);
}

static void
on_send_failed (Job    *job,
                GError *error)
{
  GrammarHttpClient *self = job->self;

  if (g_cancellable_is_cancelled (job->cancellable))
    job_cancelled (job);
  else if (job->timed_out)
    {
      self->n_timeouts++;
      retry_or_fail (job, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "no reply within %g s (timeout)",
                                       self->timeout), -1, CAUSE_TIMEOUT);
    }
  else if (error->domain == G_TLS_ERROR)
    fail (job, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "TLS: %s%s", error->message,
                            self->tls_database != NULL ? "" : " (a private CA? set ca-file)"));
  else
    retry_or_fail (job, g_error_copy (error), -1, CAUSE_CONNECTION);
}

static void
on_reply (Job    *job,
          GBytes *bytes)
{
  GError *error = NULL;
  gboolean accepted;

  job->status = soup_message_get_status (job->message);
  if (job->check != NULL)
    accepted = job->check (job->status, bytes, job->check_data, &error);
  else
    {
      accepted = SOUP_STATUS_IS_SUCCESSFUL (job->status);
      if (!accepted)
        error = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "HTTP %u: %s", job->status,
                             soup_message_get_reason_phrase (job->message) != NULL
                             ? soup_message_get_reason_phrase (job->message) : "");
    }
  if (accepted)
    job_finish (job, g_bytes_ref (bytes), NULL);
  else if (error == NULL)
    g_critical ("%s: the check function rejected a reply without an error", job->label);
  if (accepted || error == NULL)
    return;
  if (SOUP_STATUS_IS_SUCCESSFUL (job->status))
    retry_or_fail (job, error, -1, CAUSE_MALFORMED);
  else if (is_retryable_status (job->status))
    retry_or_fail (job, error, retry_after (job->message), job->status == 429 ? CAUSE_429 : CAUSE_5XX);
  else
    {
      if (job->self->key_hints
          && (job->status == SOUP_STATUS_UNAUTHORIZED || job->status == SOUP_STATUS_FORBIDDEN))
        add_key_hint (job->self, error);
      fail (job, error);
    }
}

/* ---- latency ---- */

static guint
latency_bucket (double ms)
{
  double steps;

  if (!(ms > LATENCY_MIN_MS))
    return 0;
  steps = floor (log2 (ms / LATENCY_MIN_MS) * LATENCY_STEPS_PER_OCTAVE) + 1;
  return (guint) MIN (steps, (double) (LATENCY_BUCKETS - 1));
}

/* The middle (geometric) of a bucket, in ms. */
static double
latency_of_bucket (guint bucket)
{
  if (bucket == 0)
    return LATENCY_MIN_MS;
  return LATENCY_MIN_MS * exp2 (((double) bucket - 0.5) / LATENCY_STEPS_PER_OCTAVE);
}

static void
note_latency (GrammarHttpClient *self,
              double             ms)
{
  self->latency_counts[latency_bucket (ms)]++;
  self->n_latencies++;
  self->latency_sum_ms += ms;
  self->latency_max_ms = MAX (self->latency_max_ms, ms);
}

/* The @q quantile of the latencies (nearest rank), 0 without any; never
 * above the largest seen. */
static double
latency_quantile (GrammarHttpClient *self,
                  double             q)
{
  guint64 rank, seen = 0;

  if (self->n_latencies == 0)
    return 0.0;
  rank = (guint64) MAX (1.0, ceil (q * (double) self->n_latencies));
  for (guint i = 0; i < LATENCY_BUCKETS; i++)
    {
      seen += self->latency_counts[i];
      if (seen >= rank)
        return MIN (latency_of_bucket (i), self->latency_max_ms);
    }
  return self->latency_max_ms;
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr (GrammarHttpClient) self = g_object_ref (job->self);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;

  bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  self->in_flight--;
  destroy_source (&job->timer);
  g_clear_object (&job->attempt_cancellable);
  if (bytes != NULL)
    {
      self->n_bytes_received += g_bytes_get_size (bytes);
      note_latency (self, (double) (g_get_monotonic_time () - job->attempt_started) / 1000.0);
    }

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
copy_header (const char *name,
             const char *value,
             gpointer    user_data)
{
  soup_message_headers_replace (user_data, name, value);
}

static SoupSession *
get_session (GrammarHttpClient *self)
{
  guint conns = self->max_concurrency > 0 ? self->max_concurrency : UNCAPPED_IN_FLIGHT;

  if (self->session == NULL)
    self->session = soup_session_new_with_options ("max-conns", MAX (conns, 10),
                                                   "max-conns-per-host", conns,
                                                   "user-agent", "grammar",
                                                   "tls-database", self->tls_database,
                                                   NULL);
  return self->session;
}

static void
start_attempt (Job *job)
{
  GrammarHttpClient *self = job->self;
  /* A job queued from one context may be started from the callback of
   * another: libsoup calls back on the thread-default context. */
  g_autoptr (GMainContext) current = g_main_context_ref_thread_default ();
  gboolean push = job->context != current;

  self->in_flight++;
  self->n_requests++;
  if (job->attempts > 0)
    {
      self->n_retries++;
      self->n_retries_by_cause[job->retry_cause]++;
    }
  job->attempts++;
  job->timed_out = FALSE;
  job->status = 0;
  job->state = JOB_IN_FLIGHT;

  g_clear_object (&job->message);
  job->message = soup_message_new (job->method, job->uri);
  /* libsoup opens a new connection for every POST unless the message is
   * marked idempotent; a request that dies on a stale kept-alive
   * connection is tried again like any reset, so keep-alive is safe. */
  soup_message_add_flags (job->message, SOUP_MESSAGE_IDEMPOTENT);
  g_signal_connect (job->message, "network-event", G_CALLBACK (on_network_event), NULL);
  soup_message_headers_foreach (self->headers, copy_header, soup_message_get_request_headers (job->message));
  if (job->body != NULL)
    {
      soup_message_set_request_body_from_bytes (job->message, job->content_type, job->body);
      self->n_bytes_sent += g_bytes_get_size (job->body);
    }

  job->attempt_cancellable = g_cancellable_new ();
  if (self->timeout > 0)
    {
      job->timer = g_timeout_source_new ((guint) MIN (ceil (self->timeout * 1000.0), (double) G_MAXUINT));
      g_source_set_callback (job->timer, on_attempt_timeout, job, NULL);
      g_source_attach (job->timer, job->context);
    }

  if (push)
    g_main_context_push_thread_default (job->context);
  job->attempt_started = g_get_monotonic_time ();
  soup_session_send_and_read_async (get_session (self), job->message, G_PRIORITY_DEFAULT, job->attempt_cancellable,
                                    on_sent, job);
  if (push)
    g_main_context_pop_thread_default (job->context);
}

static gboolean
on_pace (gpointer user_data)
{
  GrammarHttpClient *self = user_data;

  g_clear_pointer (&self->pace_source, g_source_unref);
  pump (self);
  return G_SOURCE_REMOVE;
}

/* TRUE when requests-per-minute lets the next request go now; else
 * arms a timer on @context to try again when it does. */
static gboolean
paced (GrammarHttpClient *self,
       GMainContext      *context)
{
  gint64 now;

  if (self->requests_per_minute == 0)
    return TRUE;
  now = g_get_monotonic_time ();
  if (now < self->next_send)
    {
      /* On the context of the job to start: a timer left on the private
       * context of a finished synchronous call would never fire. */
      destroy_source (&self->pace_source);
      self->pace_source = g_timeout_source_new ((guint) ((self->next_send - now + 999) / 1000));
      /* No reference: dispose destroys it, and a client that nobody
       * holds must not live on for a timer. */
      g_source_set_callback (self->pace_source, on_pace, self, NULL);
      g_source_attach (self->pace_source, context);
      return FALSE;
    }
  self->next_send = MAX (now, self->next_send) + 60 * G_USEC_PER_SEC / self->requests_per_minute;
  return TRUE;
}

/* Starts queued jobs while there is a free slot and the pace allows. */
static void
pump (GrammarHttpClient *self)
{
  guint cap = self->max_concurrency > 0 ? self->max_concurrency : UNCAPPED_IN_FLIGHT;

  if (self->pumping)
    return;
  self->pumping = TRUE;
  while (self->in_flight < cap && !g_queue_is_empty (&self->queue))
    {
      Job *job = g_queue_peek_head (&self->queue);

      /* Cancelled, maybe in another thread, before on_cancel_dispatch ran. */
      if (g_cancellable_is_cancelled (job->cancellable))
        {
          g_queue_unlink (&self->queue, &job->link);
          job_cancelled (job);
          continue;
        }
      if (!paced (self, job->context))
        break;
      g_queue_unlink (&self->queue, &job->link);
      start_attempt (job);
    }
  self->pumping = FALSE;
}

/* ---- sending ---- */

static char *
label_of (const char *uri)
{
  g_autoptr (GUri) parsed = g_uri_parse (uri, G_URI_FLAGS_HAS_PASSWORD, NULL);

  if (parsed != NULL && g_uri_get_password (parsed) != NULL)
    return g_uri_to_string_partial (parsed, G_URI_HIDE_PASSWORD);
  return g_strdup (uri);
}

static gboolean
is_http_uri (const char *uri)
{
  g_autoptr (GUri) parsed = g_uri_parse (uri, SOUP_HTTP_URI_FLAGS, NULL);
  const char *scheme = parsed != NULL ? g_uri_get_scheme (parsed) : NULL;

  return scheme != NULL && (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0) &&
         g_uri_get_host (parsed) != NULL && g_uri_get_host (parsed)[0] != '\0';
}

/**
 * grammar_http_client_send_async:
 * @self: a #GrammarHttpClient
 * @method: the HTTP method, e.g. `POST`
 * @uri: the http:// or https:// address
 * @content_type: (nullable): the type of @body, e.g. `application/json`
 * @body: (nullable): the request body, sent again as is on each attempt
 * @check: (nullable) (scope notified) (closure check_data) (destroy check_destroy):
 *   judges each reply; %NULL accepts 2xx replies and rejects the others
 *   with `HTTP STATUS: REASON`
 * @check_data: data for @check
 * @check_destroy: (nullable): frees @check_data when the request is done
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async) (closure user_data): called when the request
 *   is done
 * @user_data: data for @callback
 *
 * Queues one request, with the headers of the client, and sends it
 * when a slot is free and the pace allows; tries it again as the class
 * description says. @callback is called on the thread-default main
 * context of the caller.
 */
void
grammar_http_client_send_async (GrammarHttpClient    *self,
                                const char           *method,
                                const char           *uri,
                                const char           *content_type,
                                GBytes               *body,
                                GrammarHttpCheckFunc  check,
                                gpointer              check_data,
                                GDestroyNotify        check_destroy,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data)
{
  Job *job;

  g_return_if_fail (GRAMMAR_IS_HTTP_CLIENT (self));
  g_return_if_fail (method != NULL);
  g_return_if_fail (uri != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  job = g_new0 (Job, 1);
  job->self = g_object_ref (self);
  job->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (job->task, grammar_http_client_send_async);
  /* The error of the request, not GTask's own, when cancelled. */
  g_task_set_check_cancellable (job->task, FALSE);
  job->method = g_strdup (method);
  job->uri = g_strdup (uri);
  job->label = label_of (uri);
  job->content_type = g_strdup (content_type);
  job->body = body != NULL ? g_bytes_ref (body) : NULL;
  job->check = check;
  job->check_data = check_data;
  job->check_destroy = check_destroy;
  job->context = g_main_context_ref_thread_default ();
  job->link.data = job;
  job->state = JOB_QUEUED;

  if (!is_http_uri (uri))
    {
      job_finish (job, NULL, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "“%s” is not an http:// or "
                                          "https:// address", job->label));
      return;
    }
  g_queue_push_tail_link (&self->queue, &job->link);
  if (cancellable != NULL)
    {
      job->cancellable = g_object_ref (cancellable);
      job->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled), job, NULL);
    }
  pump (self);
}

/**
 * grammar_http_client_send_finish:
 * @self: a #GrammarHttpClient
 * @result: the #GAsyncResult given to the callback
 * @status: (out) (optional): the HTTP status of the last reply, 0
 *   without one; set on error too
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the body of the accepted reply, or %NULL
 *   with %G_IO_ERROR_CANCELLED when cancelled, or a %GRAMMAR_ERROR
 *   whose message names the address and, after retries, the number of
 *   attempts: %GRAMMAR_ERROR_UNAVAILABLE when the server could not be
 *   reached or kept failing (connection, timeout, 408, 429, 5xx),
 *   %GRAMMAR_ERROR_FAILED otherwise
 */
GBytes *
grammar_http_client_send_finish (GrammarHttpClient  *self,
                                 GAsyncResult       *result,
                                 guint              *status,
                                 GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  if (status != NULL)
    *status = GPOINTER_TO_UINT (g_task_get_task_data (G_TASK (result)));
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * grammar_http_client_send:
 * @self: a #GrammarHttpClient
 * @method: the HTTP method, e.g. `GET`
 * @uri: the http:// or https:// address
 * @content_type: (nullable): the type of @body
 * @body: (nullable): the request body
 * @cancellable: (nullable): a #GCancellable
 * @status: (out) (optional): the HTTP status of the last reply
 * @error: return location for a #GError
 *
 * The blocking form of grammar_http_client_send_async() without a
 * check function: 2xx replies are accepted.
 *
 * Returns: (transfer full): the body of the reply, or %NULL with @error
 */
GBytes *
grammar_http_client_send (GrammarHttpClient  *self,
                          const char         *method,
                          const char         *uri,
                          const char         *content_type,
                          GBytes             *body,
                          GCancellable       *cancellable,
                          guint              *status,
                          GError            **error)
{
  GrammarSync sync;
  GBytes *reply;

  g_return_val_if_fail (GRAMMAR_IS_HTTP_CLIENT (self), NULL);

  grammar_sync_init (&sync);
  grammar_http_client_send_async (self, method, uri, content_type, body, NULL, NULL, NULL, cancellable,
                                  grammar_sync_callback, &sync);
  reply = grammar_http_client_send_finish (self, grammar_sync_wait (&sync), status, error);
  grammar_sync_clear (&sync);
  return reply;
}

/* ---- statistics for plugins ---- */

/**
 * grammar_http_client_install_statistics:
 * @klass: the class of a plugin that holds a #GrammarHttpClient
 * @first_prop_id: the id to give the first property installed
 *
 * Installs on @klass a read-only property for each statistics property
 * of #GrammarHttpClient (`requests`, `retries`, `retries-429`,
 * `timeouts`, `latency-median-ms`, …) that @klass does not have yet,
 * with ids from @first_prop_id on. The plugin's `get_property` hands
 * those ids to grammar_http_client_get_statistic(). Call it at the end
 * of `class_init`. It is how the plugins that talk to a server show the
 * same statistics, which grammar_format_request_statistics() puts on
 * the end-of-run line.
 *
 * Returns: the number of properties installed
 */
guint
grammar_http_client_install_statistics (GObjectClass *klass,
                                        guint         first_prop_id)
{
  guint n = 0;

  g_return_val_if_fail (G_IS_OBJECT_CLASS (klass), 0);
  g_return_val_if_fail (first_prop_id > 0, 0);

  /* the client's own class may not be made yet */
  g_type_class_unref (g_type_class_ref (GRAMMAR_TYPE_HTTP_CLIENT));
  for (guint i = FIRST_STATISTIC; i < N_PROPS; i++)
    {
      GParamSpec *from = properties[i];
      GParamSpec *pspec;

      if (g_object_class_find_property (klass, from->name) != NULL)
        continue;
      if (G_IS_PARAM_SPEC_DOUBLE (from))
        pspec = g_param_spec_double (from->name, NULL, g_param_spec_get_blurb (from), 0.0, G_MAXDOUBLE, 0.0,
                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
      else
        pspec = g_param_spec_uint64 (from->name, NULL, g_param_spec_get_blurb (from), 0, G_MAXUINT64, 0,
                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
      g_object_class_install_property (klass, first_prop_id + n, pspec);
      n++;
    }
  return n;
}

/**
 * grammar_http_client_get_statistic:
 * @self: (nullable): a #GrammarHttpClient, or %NULL when the plugin has
 *   none yet
 * @pspec: a property grammar_http_client_install_statistics() installed
 * @value: the #GValue of the property, as `get_property` is given it
 *
 * Sets @value to the client's statistic of the same name as @pspec, or
 * to 0 without a client.
 */
void
grammar_http_client_get_statistic (GrammarHttpClient *self,
                                   GParamSpec        *pspec,
                                   GValue            *value)
{
  g_return_if_fail (self == NULL || GRAMMAR_IS_HTTP_CLIENT (self));
  g_return_if_fail (G_IS_PARAM_SPEC (pspec));

  if (self != NULL)
    g_object_get_property (G_OBJECT (self), pspec->name, value);
  else if (G_VALUE_HOLDS_DOUBLE (value))
    g_value_set_double (value, 0.0);
  else
    g_value_set_uint64 (value, 0);
}

/* ---- GObject ---- */

static void
grammar_http_client_dispose (GObject *object)
{
  GrammarHttpClient *self = GRAMMAR_HTTP_CLIENT (object);

  destroy_source (&self->pace_source);
  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (grammar_http_client_parent_class)->dispose (object);
}

static void
free_secret (gpointer data)
{
  memset (data, 0, strlen (data));
  g_free (data);
}

static void
grammar_http_client_finalize (GObject *object)
{
  GrammarHttpClient *self = GRAMMAR_HTTP_CLIENT (object);

  g_clear_object (&self->tls_database);
  g_clear_pointer (&self->headers, soup_message_headers_unref);
  g_clear_pointer (&self->secrets, g_ptr_array_unref);
  g_free (self->key_env);

  G_OBJECT_CLASS (grammar_http_client_parent_class)->finalize (object);
}

static void
grammar_http_client_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  GrammarHttpClient *self = GRAMMAR_HTTP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_MAX_CONCURRENCY: g_value_set_uint (value, self->max_concurrency); break;
    case PROP_REQUESTS_PER_MINUTE: g_value_set_uint (value, self->requests_per_minute); break;
    case PROP_MAX_RETRIES: g_value_set_uint (value, self->max_retries); break;
    case PROP_TIMEOUT: g_value_set_double (value, self->timeout); break;
    case PROP_REQUESTS: g_value_set_uint64 (value, self->n_requests); break;
    case PROP_RETRIES: g_value_set_uint64 (value, self->n_retries); break;
    case PROP_FAILURES: g_value_set_uint64 (value, self->n_failures); break;
    case PROP_BYTES_SENT: g_value_set_uint64 (value, self->n_bytes_sent); break;
    case PROP_BYTES_RECEIVED: g_value_set_uint64 (value, self->n_bytes_received); break;
    case PROP_RETRIES_429: g_value_set_uint64 (value, self->n_retries_by_cause[CAUSE_429]); break;
    case PROP_RETRIES_5XX: g_value_set_uint64 (value, self->n_retries_by_cause[CAUSE_5XX]); break;
    case PROP_RETRIES_TIMEOUT: g_value_set_uint64 (value, self->n_retries_by_cause[CAUSE_TIMEOUT]); break;
    case PROP_RETRIES_CONNECTION: g_value_set_uint64 (value, self->n_retries_by_cause[CAUSE_CONNECTION]); break;
    case PROP_RETRIES_MALFORMED: g_value_set_uint64 (value, self->n_retries_by_cause[CAUSE_MALFORMED]); break;
    case PROP_TIMEOUTS: g_value_set_uint64 (value, self->n_timeouts); break;
    case PROP_LATENCY_MEDIAN_MS: g_value_set_double (value, latency_quantile (self, 0.5)); break;
    case PROP_LATENCY_P95_MS: g_value_set_double (value, latency_quantile (self, 0.95)); break;
    case PROP_LATENCY_MAX_MS: g_value_set_double (value, self->latency_max_ms); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_http_client_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  GrammarHttpClient *self = GRAMMAR_HTTP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_MAX_CONCURRENCY:
      self->max_concurrency = g_value_get_uint (value);
      pump (self);
      break;
    case PROP_REQUESTS_PER_MINUTE: self->requests_per_minute = g_value_get_uint (value); break;
    case PROP_MAX_RETRIES: self->max_retries = g_value_get_uint (value); break;
    case PROP_TIMEOUT: self->timeout = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_http_client_class_init (GrammarHttpClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags stat = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->dispose = grammar_http_client_dispose;
  object_class->finalize = grammar_http_client_finalize;
  object_class->get_property = grammar_http_client_get_property;
  object_class->set_property = grammar_http_client_set_property;

  /**
   * GrammarHttpClient:max-concurrency:
   *
   * The most requests in flight at once, and the most connections kept
   * open (fixed at the first request); 0, the default, sets no cap of the
   * client's own: as many as the caller sends (a stage sends
   * #GrammarStageRunner:max-concurrency at most), up to 64 at once for a
   * caller that hands over every request together.
   */
  properties[PROP_MAX_CONCURRENCY] =
    g_param_spec_uint ("max-concurrency", NULL, NULL, 0, 1024, 0, flags);
  /**
   * GrammarHttpClient:requests-per-minute:
   *
   * Spaces requests out to at most this many a minute; 0: no limit.
   */
  properties[PROP_REQUESTS_PER_MINUTE] =
    g_param_spec_uint ("requests-per-minute", NULL, NULL, 0, G_MAXINT / 2, 0, flags);
  /**
   * GrammarHttpClient:max-retries:
   *
   * How many times a request is tried again before it fails.
   */
  properties[PROP_MAX_RETRIES] =
    g_param_spec_uint ("max-retries", NULL, NULL, 0, 20, 3, flags);
  /**
   * GrammarHttpClient:timeout:
   *
   * Seconds to wait for the reply of one attempt before trying again;
   * 0: forever.
   */
  properties[PROP_TIMEOUT] =
    g_param_spec_double ("timeout", NULL, NULL, 0.0, 86400.0, 60.0, flags);
  /**
   * GrammarHttpClient:requests:
   *
   * Attempts sent, first tries and retries (statistics).
   */
  properties[PROP_REQUESTS] =
    g_param_spec_uint64 ("requests", NULL, NULL, 0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:retries:
   *
   * Attempts that were a request tried again (statistics).
   */
  properties[PROP_RETRIES] =
    g_param_spec_uint64 ("retries", NULL, NULL, 0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:failures:
   *
   * Requests that ended in an error other than a cancellation
   * (statistics).
   */
  properties[PROP_FAILURES] =
    g_param_spec_uint64 ("failures", NULL, NULL, 0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:bytes-sent:
   *
   * Bytes of request bodies sent, over all attempts (statistics).
   */
  properties[PROP_BYTES_SENT] =
    g_param_spec_uint64 ("bytes-sent", NULL, NULL, 0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:bytes-received:
   *
   * Bytes of reply bodies received, over all attempts (statistics).
   */
  properties[PROP_BYTES_RECEIVED] =
    g_param_spec_uint64 ("bytes-received", NULL, NULL, 0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:retries-429:
   *
   * Retries after a 429 Too Many Requests (statistics).
   */
  properties[PROP_RETRIES_429] =
    g_param_spec_uint64 ("retries-429", NULL, "Retries after an HTTP 429 (statistics)", 0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:retries-5xx:
   *
   * Retries after a 5xx or a 408 (statistics).
   */
  properties[PROP_RETRIES_5XX] =
    g_param_spec_uint64 ("retries-5xx", NULL, "Retries after an HTTP 5xx or 408 (statistics)", 0, G_MAXUINT64, 0,
                         stat);
  /**
   * GrammarHttpClient:retries-timeout:
   *
   * Retries after an attempt that timed out (statistics).
   */
  properties[PROP_RETRIES_TIMEOUT] =
    g_param_spec_uint64 ("retries-timeout", NULL, "Retries after a timeout (statistics)", 0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:retries-connection:
   *
   * Retries after a connection that failed or closed (statistics).
   */
  properties[PROP_RETRIES_CONNECTION] =
    g_param_spec_uint64 ("retries-connection", NULL, "Retries after a connection failed or closed (statistics)",
                         0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:retries-malformed:
   *
   * Retries after a 2xx reply the #GrammarHttpCheckFunc rejected, such
   * as one that is not JSON (statistics).
   */
  properties[PROP_RETRIES_MALFORMED] =
    g_param_spec_uint64 ("retries-malformed", NULL, "Retries after a malformed 2xx reply (statistics)",
                         0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:timeouts:
   *
   * Attempts that got no reply within #GrammarHttpClient:timeout,
   * tried again or not (statistics).
   */
  properties[PROP_TIMEOUTS] =
    g_param_spec_uint64 ("timeouts", NULL, "Attempts that timed out (statistics)", 0, G_MAXUINT64, 0, stat);
  /**
   * GrammarHttpClient:latency-median-ms:
   *
   * The median time, in milliseconds, from sending an attempt to its
   * whole reply, over the attempts that got a reply; 0 before the first.
   * Read from a log histogram: within 5 % (statistics).
   */
  properties[PROP_LATENCY_MEDIAN_MS] =
    g_param_spec_double ("latency-median-ms", NULL, "Median latency of the replies, in ms (statistics)",
                         0.0, G_MAXDOUBLE, 0.0, stat);
  /**
   * GrammarHttpClient:latency-p95-ms:
   *
   * The 95th percentile of the latencies of
   * #GrammarHttpClient:latency-median-ms (statistics).
   */
  properties[PROP_LATENCY_P95_MS] =
    g_param_spec_double ("latency-p95-ms", NULL, "95th percentile of the latency of the replies, in ms (statistics)",
                         0.0, G_MAXDOUBLE, 0.0, stat);
  /**
   * GrammarHttpClient:latency-max-ms:
   *
   * The longest of the latencies of #GrammarHttpClient:latency-median-ms
   * (statistics).
   */
  properties[PROP_LATENCY_MAX_MS] =
    g_param_spec_double ("latency-max-ms", NULL, "Longest latency of a reply, in ms (statistics)",
                         0.0, G_MAXDOUBLE, 0.0, stat);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_http_client_init (GrammarHttpClient *self)
{
  self->max_concurrency = 0;
  self->max_retries = 3;
  self->timeout = 60.0;
  self->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  self->secrets = g_ptr_array_new_with_free_func (free_secret);
  g_queue_init (&self->queue);
}
