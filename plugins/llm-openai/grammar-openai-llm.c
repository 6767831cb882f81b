/* grammar-openai-llm.c: a language model behind an OpenAI-compatible HTTP API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <grammar-plugin.h>

#include "grammar-openai-cache.h"
#include "grammar-openai-llm.h"

/**
 * GrammarOpenaiLlm:
 *
 * The `openai` language model plugin: chat completions and embeddings
 * from any server speaking the OpenAI HTTP API (OpenAI, vLLM, the
 * llama.cpp server, Ollama's `/v1`).
 *
 * All requests go through one #GrammarHttpClient (keep-alive, one
 * queue, retries, redaction): as many requests are in flight as the
 * stage sends (#GrammarStageRunner:max-concurrency), or at most
 * #GrammarOpenaiLlm:max-concurrency when that is set, on the
 * thread-default main context of the caller, without threads; the
 * others wait in the queue, costing only their request body.
 *
 * A 408, a 429, a 5xx other than 501 and 505, a connection that fails or closes, a
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

  /* statistics (requests and retries are the client's) */
  guint64 n_cache_hits;
  guint64 n_prompt_tokens;
  guint64 n_completion_tokens;

  /* state */
  char *endpoint;           /* base-url without a trailing slash */
  GrammarHttpClient *client;
  GrammarOpenaiCache *cache;
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
    case G_TYPE_DOUBLE:
      {
        double value = json_node_get_double (node);

        /* Casting a double outside gint64's range (1e300, a token count
         * from a broken server) is undefined behaviour: found by UBSan
         * under tests/fuzz/fuzz-openai. NaN fails both tests too. */
        if (!(value > (double) G_MININT64 && value < (double) G_MAXINT64))
          return default_value;
        return (gint64) value;
      }
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
  JobDone done;
  GTask *task;                  /* a reference, for @done */

  guint status;                 /* of the last reply, 0 without one */
  JsonNode *root;               /* the reply check_reply accepted */
};

static void
job_free (Job *job)
{
  g_clear_pointer (&job->body, g_bytes_unref);
  g_clear_object (&job->task);
  g_clear_pointer (&job->root, json_node_unref);
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
  job->done = done;
  return job;
}

/* The server's own words: error.message of an OpenAI error body, else
 * the start of the body, else the reason phrase. */
static char *
server_message (guint   status,
                GBytes *bytes)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  gsize size = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;

  if (data != NULL && size > 0 && json_parser_load_from_data (parser, data, (gssize) size, NULL))
    {
      JsonNode *root = json_parser_get_root (parser);

      /* A body of only white space, a comment or a byte-order mark is no document (root NULL). */
      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
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
  return g_strdup (soup_status_get_phrase (status) != NULL ? soup_status_get_phrase (status) : "");
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

/* A 2xx reply that is not a valid chat or embeddings reply is tried
 * again, like a 429 or a 5xx; any other status fails with the server's
 * message (the client redacts it and adds the address). */
static gboolean
check_reply (guint     status,
             GBytes   *bytes,
             gpointer  user_data,
             GError  **error)
{
  Job *job = user_data;
  g_autofree char *message = NULL;

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_clear_pointer (&job->root, json_node_unref);
      job->root = parse_reply (job, bytes, error);
      return job->root != NULL;
    }
  message = server_message (status, bytes);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "HTTP %u: %s", status, message);
  return FALSE;
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;

  bytes = grammar_http_client_send_finish (GRAMMAR_HTTP_CLIENT (source), result, &job->status, &error);
  job->done (job, bytes != NULL ? job->root : NULL, error);
  job_free (job);
}

/* Sends the job through the client, which queues, paces and retries it. */
static void
enqueue (GrammarOpenaiLlm *self,
         Job              *job)
{
  g_autofree char *uri = g_strconcat (self->endpoint, "/", job->path, NULL);

  grammar_http_client_send_async (self->client, "POST", uri, "application/json", job->body, check_reply, job,
                                  NULL, g_task_get_cancellable (job->task), on_sent, job);
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
          enqueue (self, job);
        }
    }
  else
    {
      op->pending = 1;
      enqueue (self, job_new (self, JOB_CHAT, build_chat_body (self, op->request, op->n, 0), op->n, task,
                              chat_job_done));
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

  if (!json_parser_load_from_data (parser, value, -1, NULL) || json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
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

          if (json_parser_load_from_data (parser, value, -1, NULL) && json_parser_get_root (parser) != NULL &&
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
  enqueue (self, job_new (self, JOB_EMBED, body, op->n_texts, task, embed_job_done));
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

/* The client of every request, set up from the plugin's connection
 * properties, with the organization header. */
static GrammarHttpClient *
make_client (GrammarOpenaiLlm  *self,
             GError           **error)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();

  if (!grammar_http_client_configure (client, G_OBJECT (self), error))
    return NULL;
  if (is_set (self->organization))
    grammar_http_client_set_header (client, "OpenAI-Organization", self->organization);
  return g_steal_pointer (&client);
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

  self->client = make_client (self, error);
  if (self->client == NULL)
    return FALSE;

  /* unset: the user's cache folder ($XDG_CACHE_HOME/grammar/llm.sqlite) */
  if (self->cache_path == NULL)
    self->cache_path = g_build_filename (g_get_user_cache_dir (), "grammar", "llm.sqlite", NULL);
  if (is_set (self->cache_path))
    {
      g_autoptr (GError) local_error = NULL;

      self->cache = grammar_openai_cache_open (self->cache_path, &local_error);
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

  g_clear_object (&self->client);
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
  g_free (self->endpoint);

  G_OBJECT_CLASS (grammar_openai_llm_parent_class)->finalize (object);
}

static guint64
client_statistic (GrammarOpenaiLlm *self,
                  const char       *name)
{
  guint64 value = 0;

  if (self->client != NULL)
    g_object_get (self->client, name, &value, NULL);
  return value;
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
    case PROP_REQUESTS: g_value_set_uint64 (value, client_statistic (self, "requests")); break;
    case PROP_CACHE_HITS: g_value_set_uint64 (value, self->n_cache_hits); break;
    case PROP_RETRIES: g_value_set_uint64 (value, client_statistic (self, "retries")); break;
    case PROP_PROMPT_TOKENS: g_value_set_uint64 (value, self->n_prompt_tokens); break;
    case PROP_COMPLETION_TOKENS: g_value_set_uint64 (value, self->n_completion_tokens); break;
    default:
      /* the client's statistics, grammar_http_client_install_statistics() */
      if (prop_id >= N_PROPS)
        grammar_http_client_get_statistic (self->client, pspec, value);
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
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
    g_param_spec_int ("max-concurrency", NULL,
                      "The most requests in flight at once; 0: no cap of its own, as many as the stage sends",
                      0, 1024, 0, construct);
  properties[PROP_MAX_RETRIES] =
    g_param_spec_int ("max-retries", NULL,
                      "Tries again after 429, 5xx, a lost connection, a timeout or an invalid reply, up to N times",
                      0, 20, 5, construct);
  properties[PROP_REQUESTS_PER_MINUTE] =
    g_param_spec_int ("requests-per-minute", NULL, "Spaces out requests to at most N a minute; 0: no limit",
                      0, G_MAXINT / 2, 0, construct);
  properties[PROP_CACHE] =
    g_param_spec_string ("cache", NULL,
                         "The SQLite response cache file (default: $XDG_CACHE_HOME/grammar/llm.sqlite); "
                         "empty: no cache",
                         NULL, construct | GRAMMAR_PARAM_PATH);
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
  grammar_http_client_install_statistics (object_class, N_PROPS);
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
  self->max_concurrency = 0;
  self->max_retries = 5;
}

void
grammar_openai_llm_register (GTypeModule *module)
{
  grammar_openai_llm_register_type (module);
}
