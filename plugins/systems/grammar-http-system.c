/* grammar-http-system.c: the user's own RAG service over HTTP as the system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <grammar-plugin.h>

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
 * Requests go through one #GrammarHttpClient (keep-alive, retries,
 * redaction) and run on the caller's thread-default main context: as
 * many at a time as the stage sends (#GrammarStageRunner:max-concurrency),
 * or at most #GrammarHttpSystem:max-concurrency when that is set. A 408,
 * a 429, a 5xx other than 501 and 505, a lost connection and an attempt
 * that takes longer than #GrammarHttpSystem:timeout are tried again
 * after an exponential back-off with jitter (or the `Retry-After` the
 * server asked for), up to #GrammarHttpSystem:max-retries times; when
 * none is left the error is %GRAMMAR_ERROR_UNAVAILABLE. A reply that is
 * not JSON or lacks the answer fails at once: a broken service is not
 * fixed by asking again. The key from #GrammarHttpSystem:api-key-env is
 * sent as a bearer token and never shown.
 *
 * With #GrammarHttpSystem:samples N, each query is POSTed N more times
 * with the members of #GrammarHttpSystem:sample-params merged into the
 * request (such as `{"temperature": 1.0}`), and the answers of those
 * become the samples of the answer, for SelfCheck-style metrics. A
 * sample's reply that is not JSON or lacks the answer is asked again
 * like a 5xx, up to #GrammarHttpSystem:max-retries times; a sample that
 * still fails leaves the answer with fewer samples, and says so
 * (grammar_answer_get_samples_failed()): the response is kept.
 *
 * The statistics of the client's requests (`requests`, `retries` and
 * those by cause, `timeouts`, `latency-median-ms`, `latency-p95-ms`…, see
 * grammar_http_client_install_statistics()) are read-only properties,
 * shown on the `system:` line at the end of `grammar rag` and
 * `grammar run`.
 *
 * For services whose request is not a flat object,
 * #GrammarHttpSystem:query-pointer writes the query at a JSON pointer
 * inside #GrammarHttpSystem:extra-body instead (such as
 * `/messages/0/content` of an OpenAI chat request). For a pair of
 * endpoints, one that searches and one that answers,
 * #GrammarHttpSystem:search-url is POSTed the query first; the retrieved
 * documents are read from its reply, and written verbatim into the
 * request to #GrammarHttpSystem:url at
 * #GrammarHttpSystem:documents-pointer, whose reply gives the answer.
 *
 * A reply without documents is not taken for a retrieval miss unless
 * the service says it reports them: with #GrammarHttpSystem:retrieved-pointer
 * empty, a pointer that finds null, or an empty array the answer has no
 * retrieved documents at all (grammar_answer_get_retrieved() is %NULL)
 * and retrieval is unmeasured. With
 * #GrammarHttpSystem:reports-documents an empty array is a measured
 * miss: the service always reports the documents it used, and used none.
 *
 * grammar_system_probe_async() POSTs one short query on a client of its
 * own, without retrying a connection that fails or an attempt that takes
 * longer than #GrammarHttpSystem:timeout (the probe fails only where a
 * query would): a service that is down, a wrong address or a key that is
 * refused is told at once, with the address and the error. A reply of
 * 408, 429 or 5xx is asked again, up to three times in all.
 */

#define DEFAULT_QUERY_MEMBER "query"
#define DEFAULT_ANSWER_POINTER "/answer"
#define DEFAULT_RETRIEVED_POINTER "/retrieved"
#define DEFAULT_ID_POINTER "/id"
#define DEFAULT_TEXT_POINTER "/text"
#define DEFAULT_SCORE_POINTER "/score"

#define EXCERPT_BYTES 200

/* The probe: one short query, no retry of a connection that fails or of
 * a timeout; a service that replies 408, 429 or 5xx is up but busy, and
 * is asked up to PROBE_ATTEMPTS times. */
#define PROBE_QUERY "Are you there? (a probe from grammar before its first query)"
#define PROBE_ATTEMPTS 3

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
  guint samples;
  char *sample_params;
  char *query_pointer;
  char *search_url;
  char *documents_pointer;
  gboolean query_member_given; /* set to another name than the default */
  gboolean reports_documents;

  /* state */
  char *shown_url;          /* url without a password, for messages */
  char *shown_search_url;   /* search-url likewise */
  JsonObject *sample_extra; /* sample-params, parsed; NULL when unset */
  GrammarHttpClient *client;
  GrammarHttpClient *probe_client;  /* made at the first probe */
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
  PROP_SAMPLES,
  PROP_SAMPLE_PARAMS,
  PROP_QUERY_POINTER,
  PROP_SEARCH_URL,
  PROP_DOCUMENTS_POINTER,
  PROP_REPORTS_DOCUMENTS,
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
  redacted = grammar_http_client_redact (self->client, valid);
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
  if (id_node == NULL)
    {
      g_autofree char *place = grammar_json_pointer_describe_miss (item, self->retrieved_id_pointer, "the item");

      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "retrieved item %u: retrieved-id-pointer “%s” matches nothing: %s", index,
                   self->retrieved_id_pointer, place);
      return NULL;
    }
  if (!scalar_to_text (id_node, &id) || id == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "retrieved item %u: retrieved-id-pointer “%s” is %s, not a string or a number", index,
                   self->retrieved_id_pointer, grammar_json_node_kind (id_node));
      return NULL;
    }
  text_node = is_set (self->retrieved_text_pointer)
              ? grammar_json_pointer_resolve (item, self->retrieved_text_pointer) : NULL;
  if (text_node != NULL && !scalar_to_text (text_node, &text))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "retrieved item %u: retrieved-text-pointer “%s” is %s",
                   index, self->retrieved_text_pointer, grammar_json_node_kind (text_node));
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
                       self->retrieved_score_pointer, grammar_json_node_kind (score_node));
          return NULL;
        }
      score = json_node_get_double (score_node);
    }
  return grammar_hit_new (id, score, text);
}

/* The retrieved documents of a reply into @retrieved, %NULL when the
 * reply reports none: no retrieved-pointer, a null there, or an empty
 * array from a service that does not promise to report its documents
 * (reports-documents), which would otherwise count as a retrieval miss. */
static gboolean
parse_retrieved (GrammarHttpSystem  *self,
                 JsonNode           *root,
                 GPtrArray         **retrieved,
                 GError            **error)
{
  g_autoptr (GPtrArray) hits = NULL;
  JsonNode *node;
  JsonArray *array;

  *retrieved = NULL;
  if (!is_set (self->retrieved_pointer))
    return TRUE;
  node = grammar_json_pointer_resolve (root, self->retrieved_pointer);
  if (node == NULL)
    {
      g_autofree char *place = grammar_json_pointer_describe_miss (root, self->retrieved_pointer, "the reply");

      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "retrieved-pointer “%s” matches nothing (set retrieved-pointer= empty if the service does "
                   "not report its documents): %s", self->retrieved_pointer, place);
      return FALSE;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "retrieved-pointer “%s” is %s, not an array",
                   self->retrieved_pointer, grammar_json_node_kind (node));
      return FALSE;
    }
  array = json_node_get_array (node);
  if (json_array_get_length (array) == 0 && !self->reports_documents)
    return TRUE;
  hits = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      GrammarHit *hit = parse_item (self, json_array_get_element (array, i), i, error);

      if (hit == NULL)
        return FALSE;
      g_ptr_array_add (hits, hit);
    }
  *retrieved = g_steal_pointer (&hits);
  return TRUE;
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

  /* A body of only white space, a comment or a byte-order mark is no document: root NULL, "empty" below. */
  if (data == NULL || size == 0 || !json_parser_load_from_data (parser, data, (gssize) size, &local_error) ||
      json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "%s: the reply is not JSON (%s), so answer-pointer “%s” cannot be read; the reply begins %s",
                   self->shown_url, local_error != NULL ? local_error->message : "empty", self->answer_pointer,
                   start);
      return NULL;
    }
  root = json_parser_get_root (parser);
  node = grammar_json_pointer_resolve (root, self->answer_pointer);
  if (node == NULL)
    {
      g_autofree char *place = grammar_json_pointer_describe_miss (root, self->answer_pointer, "the reply");

      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: answer-pointer “%s” matches nothing in the reply "
                   "%s: %s", self->shown_url, self->answer_pointer, start, place);
      return NULL;
    }
  if (!scalar_to_text (node, &text))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: answer-pointer “%s” %s in the reply %s",
                   self->shown_url, self->answer_pointer,
                   JSON_NODE_HOLDS_OBJECT (node) ? "is an object, not a string" : "is an array, not a string", start);
      return NULL;
    }
  /* A retrieved error describes its own place (the keys of the item
   * that failed): the start of the reply would cut before it. */
  if (!parse_retrieved (self, root, &hits, &local_error))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s", self->shown_url, local_error->message);
      return NULL;
    }
  return grammar_answer_new (text != NULL ? text : "", hits);
}

/* ---- sending ---- */

/* Any 2xx reply is taken as it is: one that is not JSON or lacks the
 * answer fails in on_sent, since asking a broken service again does not
 * fix it. The client tries 408, 429 and 5xx again with this message. */
static gboolean
check_reply (guint     status,
             GBytes   *bytes,
             gpointer  user_data,
             GError  **error)
{
  GrammarHttpSystem *self = user_data;
  g_autofree char *start = NULL;

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    return TRUE;
  start = excerpt (self, bytes);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "HTTP %u: %s", status, start);
  return FALSE;
}

/* A sample's reply must also be one the system can read: one that is
 * not JSON or lacks the answer is asked again like a 5xx (a sample is
 * a sampled reply, so asking again gives another), up to max-retries. */
static gboolean
check_sample_reply (guint     status,
                    GBytes   *bytes,
                    gpointer  user_data,
                    GError  **error)
{
  GrammarHttpSystem *self = user_data;
  g_autoptr (GrammarAnswer) sample = NULL;

  if (!check_reply (status, bytes, user_data, error))
    return FALSE;
  sample = parse_answer (self, bytes, error);
  return sample != NULL;
}

/* ---- answering ---- */

/* The members of @from set on @object (sample-params over the request). */
static void
merge_members (JsonObject *object,
               JsonObject *from)
{
  g_autoptr (GList) members = from != NULL ? json_object_get_members (from) : NULL;

  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (object, l->data, json_node_copy (json_object_get_member (from, l->data)));
}

/* A node that owns a new empty object or array (json_node_init_object
 * and json_node_set_array take a reference of their own). */
static JsonNode *
empty_node (JsonNodeType type)
{
  JsonNode *node = json_node_new (type);

  if (type == JSON_NODE_OBJECT)
    json_node_take_object (node, json_object_new ());
  else
    json_node_take_array (node, json_array_new ());
  return node;
}

static GBytes *
request_bytes (JsonNode *root)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  gsize length = 0;
  char *data;

  json_generator_set_root (generator, root);
  data = json_generator_to_data (generator, &length);
  return g_bytes_new_take (data, length);
}

/* The request of a query as a JSON tree: a copy of extra-body (parsed
 * afresh: json-glib's copies share their members, and the request is
 * written into) with the members of @params (sample-params) merged at
 * the top and the query written as the member query-member, last, or at
 * query-pointer. With @documents (search-url), those are written at
 * documents-pointer. */
static JsonNode *
build_request (GrammarHttpSystem  *self,
               const char         *query,
               JsonObject         *params,
               JsonNode           *documents,
               GError            **error)
{
  g_autoptr (JsonNode) root = is_set (self->extra_body) ? json_from_string (self->extra_body, NULL) : NULL;
  JsonObject *object;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_clear_pointer (&root, json_node_unref);
      root = empty_node (JSON_NODE_OBJECT);
    }
  object = json_node_get_object (root);
  merge_members (object, params);
  if (is_set (self->query_pointer))
    {
      if (!grammar_json_pointer_set (root, self->query_pointer, json_node_init_string (json_node_alloc (), query),
                                     error))
        {
          g_prefix_error (error, "query-pointer: ");
          return NULL;
        }
    }
  else
    {
      json_object_remove_member (object, self->query_member);
      json_object_set_string_member (object, self->query_member, query);
    }
  if (documents != NULL && !grammar_json_pointer_set (root, self->documents_pointer, json_node_copy (documents), error))
    {
      g_prefix_error (error, "documents-pointer: ");
      return NULL;
    }
  return g_steal_pointer (&root);
}

/* The body of a request without documents (query-pointer was checked
 * when the system was built, so this cannot fail). */
static GBytes *
build_body (GrammarHttpSystem *self,
            const char        *query,
            JsonObject        *params)
{
  g_autoptr (JsonNode) request = build_request (self, query, params, NULL, NULL);

  return request_bytes (request);
}

/* One query on its way: the answer, then its samples. */
typedef struct
{
  char *text;           /* the query */
  GrammarAnswer *answer;
  GStrv samples;        /* samples slots, NULL where one failed */
  guint pending;
  guint n_failed;       /* samples that failed after their retries */
  GError *error;        /* the first failed sample's error */
} Query;

static void
query_free (Query *query)
{
  g_free (query->text);
  g_clear_object (&query->answer);
  g_strfreev (query->samples);
  g_clear_error (&query->error);
  g_free (query);
}

typedef struct
{
  GTask *task;          /* owned */
  guint index;
} SampleSlot;

static void
on_sample_sent (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  SampleSlot *slot = user_data;
  g_autoptr (GTask) task = slot->task;
  GrammarHttpSystem *self = g_task_get_source_object (task);
  Query *query = g_task_get_task_data (task);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GrammarAnswer) sample = NULL;
  g_autoptr (GPtrArray) got = NULL;
  GError *error = NULL;
  guint index = slot->index;

  g_free (slot);
  bytes = grammar_http_client_send_finish (GRAMMAR_HTTP_CLIENT (source), result, NULL, &error);
  sample = bytes != NULL ? parse_answer (self, bytes, &error) : NULL;
  if (sample == NULL)
    {
      /* A cancelled sample cancels the query; any other failure only
       * leaves the answer with fewer samples. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&query->error);
          query->n_failed = G_MAXUINT;
          query->error = error;
        }
      else if (query->n_failed == G_MAXUINT)
        g_error_free (error);
      else
        {
          if (query->error == NULL)
            {
              query->error = error;
              g_prefix_error (&query->error, "sample %u: ", index + 1);
            }
          else
            g_error_free (error);
          query->n_failed++;
        }
    }
  else
    query->samples[index] = g_strdup (grammar_answer_get_response (sample));
  if (--query->pending > 0)
    return;
  if (query->n_failed == G_MAXUINT)
    {
      g_task_return_error (task, g_steal_pointer (&query->error));
      return;
    }
  got = g_ptr_array_new ();
  for (guint i = 0; i < self->samples; i++)
    if (query->samples[i] != NULL)
      g_ptr_array_add (got, query->samples[i]);
  g_ptr_array_add (got, NULL);
  grammar_answer_set_samples (query->answer, (const char * const *) got->pdata);
  if (query->n_failed > 0)
    grammar_answer_set_samples_failed (query->answer, query->n_failed, query->error->message);
  g_task_return_pointer (task, g_steal_pointer (&query->answer), g_object_unref);
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarHttpSystem *self = g_task_get_source_object (task);
  Query *query = g_task_get_task_data (task);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) body = NULL;
  GError *error = NULL;
  GrammarAnswer *answer;

  bytes = grammar_http_client_send_finish (GRAMMAR_HTTP_CLIENT (source), result, NULL, &error);
  answer = bytes != NULL ? parse_answer (self, bytes, &error) : NULL;
  if (answer == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (self->samples == 0)
    {
      g_task_return_pointer (task, answer, g_object_unref);
      return;
    }

  /* The samples: the same query again, N times, with sample-params. */
  query->answer = answer;
  query->samples = g_new0 (char *, self->samples + 1);
  query->pending = self->samples;
  body = build_body (self, query->text, self->sample_extra);
  for (guint i = 0; i < self->samples; i++)
    {
      SampleSlot *slot = g_new0 (SampleSlot, 1);

      slot->task = g_object_ref (task);
      slot->index = i;
      grammar_http_client_send_async (self->client, "POST", self->url, "application/json", body,
                                      check_sample_reply, g_object_ref (self), g_object_unref,
                                      g_task_get_cancellable (task), on_sample_sent, slot);
    }
}

/* ---- search-url: a search endpoint, then an answering one ---- */

/* A query between its two requests. */
typedef struct
{
  GTask *task;          /* owned */
  GPtrArray *hits;      /* of GrammarHit, from the search reply */
} Search;

static void
search_free (Search *search)
{
  g_clear_object (&search->task);
  g_clear_pointer (&search->hits, g_ptr_array_unref);
  g_free (search);
}

/* The JSON of a 2xx reply from @shown_url, or NULL with @error saying
 * which @pointer could not be read. */
static JsonNode *
reply_json (GrammarHttpSystem  *self,
            const char         *shown_url,
            GBytes             *bytes,
            const char         *what,
            const char         *pointer,
            GError            **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);

  if (data == NULL || size == 0 || !json_parser_load_from_data (parser, data, (gssize) size, &local_error) ||
      json_parser_get_root (parser) == NULL)
    {
      g_autofree char *start = excerpt (self, bytes);

      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "%s: the reply is not JSON (%s), so %s “%s” cannot be read; the reply begins %s", shown_url,
                   local_error != NULL ? local_error->message : "empty", what, pointer, start);
      return NULL;
    }
  return json_node_ref (json_parser_get_root (parser));
}

static void
on_answered (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Search *search = user_data;
  GrammarHttpSystem *self = g_task_get_source_object (search->task);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  GError *error = NULL;
  JsonNode *node;

  bytes = grammar_http_client_send_finish (GRAMMAR_HTTP_CLIENT (source), result, NULL, &error);
  root = bytes != NULL ? reply_json (self, self->shown_url, bytes, "answer-pointer", self->answer_pointer, &error)
                       : NULL;
  if (root == NULL)
    {
      g_task_return_error (search->task, error);
      search_free (search);
      return;
    }
  node = grammar_json_pointer_resolve (root, self->answer_pointer);
  if (node == NULL || !scalar_to_text (node, &text))
    {
      g_autofree char *start = excerpt (self, bytes);

      g_task_return_new_error (search->task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "%s: answer-pointer “%s” %s in the reply %s", self->shown_url, self->answer_pointer,
                               node == NULL ? "matches nothing" : "is an object or an array, not a string", start);
      search_free (search);
      return;
    }
  g_task_return_pointer (search->task, grammar_answer_new (text != NULL ? text : "", search->hits),
                         g_object_unref);
  search_free (search);
}

static void
on_searched (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Search *search = user_data;
  GrammarHttpSystem *self = g_task_get_source_object (search->task);
  Query *query = g_task_get_task_data (search->task);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonNode) request = NULL;
  g_autoptr (JsonNode) documents = NULL;
  g_autoptr (GBytes) body = NULL;
  g_autoptr (GError) local_error = NULL;
  GError *error = NULL;
  JsonNode *node;

  bytes = grammar_http_client_send_finish (GRAMMAR_HTTP_CLIENT (source), result, NULL, &error);
  root = bytes != NULL ? reply_json (self, self->shown_search_url, bytes, "retrieved-pointer",
                                     self->retrieved_pointer, &error)
                       : NULL;
  if (root == NULL)
    {
      g_task_return_error (search->task, error);
      search_free (search);
      return;
    }
  /* hits stay NULL when the search reports no documents */
  if (!parse_retrieved (self, root, &search->hits, &local_error))
    {
      g_task_return_new_error (search->task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s",
                               self->shown_search_url, local_error->message);
      search_free (search);
      return;
    }
  /* the documents as the search gave them (null: none) */
  node = grammar_json_pointer_resolve (root, self->retrieved_pointer);
  documents = node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_copy (node) : empty_node (JSON_NODE_ARRAY);
  request = build_request (self, query->text, NULL, documents, &error);
  if (request == NULL)
    {
      g_task_return_error (search->task, error);
      search_free (search);
      return;
    }
  body = request_bytes (request);
  grammar_http_client_send_async (self->client, "POST", self->url, "application/json", body, check_reply,
                                  g_object_ref (self), g_object_unref, g_task_get_cancellable (search->task),
                                  on_answered, search);
}

/* With search-url: the query to the search endpoint first. */
static void
search_then_answer (GrammarHttpSystem *self,
                    GTask             *task,
                    const char        *query)
{
  Search *search = g_new0 (Search, 1);
  g_autoptr (GBytes) body = build_body (self, query, NULL);

  search->task = task;
  grammar_http_client_send_async (self->client, "POST", self->search_url, "application/json", body, check_reply,
                                  g_object_ref (self), g_object_unref, g_task_get_cancellable (task), on_searched,
                                  search);
}

static void
grammar_http_system_answer_async (GrammarSystem       *system,
                                  const char          *query,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (system);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GBytes) body = NULL;
  Query *state;

  g_task_set_source_tag (task, grammar_http_system_answer_async);
  if (self->client == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "the http system was not initialized (g_initable_init)");
      return;
    }
  state = g_new0 (Query, 1);
  state->text = g_strdup (query);
  g_task_set_task_data (task, state, (GDestroyNotify) query_free);
  if (is_set (self->search_url))
    {
      search_then_answer (self, g_steal_pointer (&task), query);
      return;
    }
  body = build_body (self, query, NULL);
  grammar_http_client_send_async (self->client, "POST", self->url, "application/json", body, check_reply,
                                  g_object_ref (self), g_object_unref, cancellable, on_sent,
                                  g_steal_pointer (&task));
}

static GrammarAnswer *
grammar_http_system_answer_finish (GrammarSystem  *system,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, system), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- the probe ---- */

static GrammarHttpClient *make_client (GrammarHttpSystem  *self,
                                       GError            **error);

static void send_probe (GTask *task);

static void
on_probe_sent (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  g_autoptr (GBytes) bytes = NULL;
  GError *error = NULL;
  guint status = 0;
  guint attempts;

  bytes = grammar_http_client_send_finish (GRAMMAR_HTTP_CLIENT (source), result, &status, &error);
  if (bytes != NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  /* Up but busy (a reply came, with a status the queries would retry). */
  attempts = GPOINTER_TO_UINT (g_task_get_task_data (task)) + 1;
  if (status != 0 && g_error_matches (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE) && attempts < PROBE_ATTEMPTS)
    {
      g_error_free (error);
      g_task_set_task_data (task, GUINT_TO_POINTER (attempts), NULL);
      send_probe (g_steal_pointer (&task));
      return;
    }
  g_task_return_error (task, error);
}

static void
send_probe (GTask *task)
{
  GrammarHttpSystem *self = g_task_get_source_object (task);
  g_autoptr (GBytes) body = build_body (self, PROBE_QUERY, NULL);
  /* With search-url a query goes there first (the answer endpoint
   * expects the documents the search found). */
  const char *url = is_set (self->search_url) ? self->search_url : self->url;

  grammar_http_client_send_async (self->probe_client, "POST", url, "application/json", body, check_reply,
                                  g_object_ref (self), g_object_unref, g_task_get_cancellable (task), on_probe_sent,
                                  task);
}

/* One query, on a client of its own: the same address, key and headers,
 * no retry, the same timeout: a service slow to answer (a model loading)
 * was given a longer timeout by its user. Its reply need only
 * be a 2xx: whether the answer can be read is each query's own matter. */
static void
grammar_http_system_probe_async (GrammarSystem       *system,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (system);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;

  g_task_set_source_tag (task, grammar_http_system_probe_async);
  if (self->client == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "the http system was not initialized (g_initable_init)");
      return;
    }
  if (self->probe_client == NULL)
    {
      self->probe_client = make_client (self, &error);
      if (self->probe_client == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_object_set (self->probe_client, "max-retries", 0, NULL);
    }
  send_probe (g_steal_pointer (&task));
}

static gboolean
grammar_http_system_probe_finish (GrammarSystem  *system,
                                  GAsyncResult   *result,
                                  GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, system), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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

/* A service that reports its documents says where they are. */
static gboolean
check_reports_documents (GrammarHttpSystem  *self,
                         GError            **error)
{
  if (!self->reports_documents || is_set (self->retrieved_pointer))
    return TRUE;
  g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
               "reports-documents=true needs retrieved-pointer, the place of the documents in the reply "
               "(e.g. retrieved-pointer=/sources)");
  return FALSE;
}

/* Parses the JSON object of the property @name, when set. */
static gboolean
parse_object_param (const char  *name,
                    const char  *text,
                    const char  *example,
                    JsonObject **object,
                    GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;
  JsonNode *root;

  if (!is_set (text))
    return TRUE;
  if (!json_parser_load_from_data (parser, text, -1, &local_error))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "%s is not JSON: %s", name,
                   local_error->message);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "%s must be a JSON object such as %s", name, example);
      return FALSE;
    }
  *object = json_object_ref (json_node_get_object (root));
  return TRUE;
}

static gboolean
check_extra_body (GrammarHttpSystem  *self,
                  GError            **error)
{
  g_autoptr (JsonObject) extra = NULL;   /* checked only: each request parses its own copy */

  return parse_object_param ("extra-body", self->extra_body, "{\"top_k\": 5}", &extra, error) &&
         parse_object_param ("sample-params", self->sample_params, "{\"temperature\": 1.0}", &self->sample_extra,
                             error);
}

/* query-pointer, search-url and documents-pointer: set together as
 * they must be, and a trial request built with them, so that a pointer
 * into extra-body that cannot be written is told now, naming the key. */
static gboolean
check_adapters (GrammarHttpSystem  *self,
                GError            **error)
{
  g_autoptr (GUri) uri = NULL;
  g_autoptr (JsonNode) request = NULL;
  g_autoptr (JsonNode) documents = NULL;
  g_autoptr (GError) local_error = NULL;
  gboolean with_samples;
  const char *scheme;

  if (is_set (self->query_pointer) && self->query_member_given && is_set (self->query_member))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "query-member and query-pointer are both set: query-member names the member of a flat request "
                   "that holds the query, query-pointer the place inside extra-body where it is written; keep one");
      return FALSE;
    }
  if (is_set (self->query_pointer) && !grammar_json_pointer_check (self->query_pointer, error))
    {
      g_prefix_error (error, "query-pointer: ");
      return FALSE;
    }
  if (!is_set (self->search_url))
    {
      if (is_set (self->documents_pointer))
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "documents-pointer is set without search-url: it says where the documents found by "
                       "search-url go in the request to url");
          return FALSE;
        }
    }
  else
    {
      uri = g_uri_parse (self->search_url, G_URI_FLAGS_NONE, NULL);
      scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
      if (uri == NULL || scheme == NULL ||
          (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
          !is_set (g_uri_get_host (uri)))
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "search-url “%s” is not an http:// or https:// URL", self->search_url);
          return FALSE;
        }
      g_free (self->shown_search_url);
      self->shown_search_url = g_uri_to_string_partial (uri, G_URI_HIDE_PASSWORD);
      if (!is_set (self->documents_pointer))
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "search-url needs documents-pointer: where the documents it finds go in the request to url "
                       "(e.g. documents-pointer=/documents)");
          return FALSE;
        }
      if (!grammar_json_pointer_check (self->documents_pointer, error))
        {
          g_prefix_error (error, "documents-pointer: ");
          return FALSE;
        }
      if (!is_set (self->retrieved_pointer))
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "search-url needs retrieved-pointer: where the documents are in the reply of search-url");
          return FALSE;
        }
      if (self->samples > 0)
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "samples cannot be used with search-url yet: ask the answering endpoint for samples with a "
                       "system of its own");
          return FALSE;
        }
      documents = empty_node (JSON_NODE_ARRAY);
    }
  if (!is_set (self->query_pointer) && documents == NULL)
    return TRUE;
  /* the requests of the answers, and those of the samples (sample-params may replace a member on the way) */
  request = build_request (self, "", NULL, documents, &local_error);
  with_samples = request != NULL && self->sample_extra != NULL;
  if (with_samples)
    {
      g_clear_pointer (&request, json_node_unref);
      request = build_request (self, "", self->sample_extra, documents, &local_error);
    }
  if (request == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "%s, in the request %s%s%s%s",
                   local_error->message, is_set (self->extra_body) ? "extra-body=" : "",
                   is_set (self->extra_body) ? self->extra_body : "{} (extra-body is not set)",
                   with_samples ? " with sample-params=" : "", with_samples ? self->sample_params : "");
      return FALSE;
    }
  return TRUE;
}

/* The client of the queries, set up from the plugin's connection
 * properties; the service is asked for JSON. */
static GrammarHttpClient *
make_client (GrammarHttpSystem  *self,
             GError            **error)
{
  g_autoptr (GrammarHttpClient) client = grammar_http_client_new ();

  grammar_http_client_set_header (client, "Accept", "application/json");
  if (!grammar_http_client_configure (client, G_OBJECT (self), error))
    return NULL;
  return g_steal_pointer (&client);
}

static gboolean
grammar_http_system_initable_init (GInitable     *initable,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (initable);

  if (self->client != NULL)
    return TRUE;
  if (!check_url (self, error) || !check_pointers (self, error) || !check_reports_documents (self, error) ||
      !check_extra_body (self, error) || !check_adapters (self, error))
    return FALSE;
  if (!is_set (self->query_member) && !is_set (self->query_pointer))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "query-member must name the member of the request that holds the query (e.g. query)");
      return FALSE;
    }
  self->client = make_client (self, error);
  return self->client != NULL;
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
  iface->probe_async = grammar_http_system_probe_async;
  iface->probe_finish = grammar_http_system_probe_finish;
}

static void
grammar_http_system_dispose (GObject *object)
{
  GrammarHttpSystem *self = GRAMMAR_HTTP_SYSTEM (object);

  g_clear_object (&self->client);
  g_clear_object (&self->probe_client);

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
  g_free (self->shown_url);
  g_clear_pointer (&self->sample_extra, json_object_unref);
  g_free (self->sample_params);
  g_free (self->query_pointer);
  g_free (self->search_url);
  g_free (self->documents_pointer);
  g_free (self->shown_search_url);

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
    case PROP_SAMPLES: g_value_set_uint (value, self->samples); break;
    case PROP_SAMPLE_PARAMS: g_value_set_string (value, self->sample_params); break;
    case PROP_QUERY_POINTER: g_value_set_string (value, self->query_pointer); break;
    case PROP_SEARCH_URL: g_value_set_string (value, self->search_url); break;
    case PROP_DOCUMENTS_POINTER: g_value_set_string (value, self->documents_pointer); break;
    case PROP_REPORTS_DOCUMENTS: g_value_set_boolean (value, self->reports_documents); break;
    default:
      /* the client's statistics, grammar_http_client_install_statistics() */
      if (prop_id >= N_PROPS)
        grammar_http_client_get_statistic (self->client, pspec, value);
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
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
    case PROP_QUERY_MEMBER:
      set_str (&self->query_member, g_value_get_string (value));
      /* GObject sets a construct-only property to its default when it is
       * not given: only another name counts as given */
      self->query_member_given = g_strcmp0 (self->query_member, DEFAULT_QUERY_MEMBER) != 0;
      break;
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
    case PROP_SAMPLES: self->samples = g_value_get_uint (value); break;
    case PROP_SAMPLE_PARAMS: set_str (&self->sample_params, g_value_get_string (value)); break;
    case PROP_QUERY_POINTER: set_str (&self->query_pointer, g_value_get_string (value)); break;
    case PROP_SEARCH_URL: set_str (&self->search_url, g_value_get_string (value)); break;
    case PROP_DOCUMENTS_POINTER: set_str (&self->documents_pointer, g_value_get_string (value)); break;
    case PROP_REPORTS_DOCUMENTS: self->reports_documents = g_value_get_boolean (value); break;
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
    g_param_spec_uint ("max-concurrency", NULL,
                       "The most requests in flight at once; 0: no cap of its own, as many as the stage sends",
                       0, 1024, 0, flags);
  properties[PROP_CA_FILE] =
    g_param_spec_string ("ca-file", NULL, "PEM file of the CAs to trust for https (default: the system's)",
                         NULL, flags | GRAMMAR_PARAM_PATH);
  properties[PROP_SAMPLES] =
    g_param_spec_uint ("samples", NULL,
                       "Asks each query N more times for stochastic samples (for SelfCheck); 0: none",
                       0, 100, 0, flags);
  properties[PROP_SAMPLE_PARAMS] =
    g_param_spec_string ("sample-params", NULL,
                         "A JSON object whose members are merged into the requests of the samples, such as "
                         "{\"temperature\": 1.0}", NULL, flags);
  properties[PROP_REPORTS_DOCUMENTS] =
    g_param_spec_boolean ("reports-documents", NULL,
                          "The service always reports the documents it used, so an empty list at retrieved-pointer "
                          "is a retrieval miss; false: an empty list is “not reported”, retrieval unmeasured",
                          FALSE, flags);

  properties[PROP_QUERY_POINTER] =
    pointer_param ("query-pointer", "The JSON pointer inside extra-body where the query is written, such as "
                   "/messages/0/content (instead of query-member)", NULL);
  properties[PROP_SEARCH_URL] =
    g_param_spec_string ("search-url", NULL,
                         "A search endpoint POSTed the query first; its reply gives the retrieved documents, which "
                         "go to url with the query (see documents-pointer)", NULL, flags);
  properties[PROP_DOCUMENTS_POINTER] =
    pointer_param ("documents-pointer", "With search-url: the JSON pointer in the request to url where the found "
                   "documents are written, such as /documents", NULL);

  g_object_class_install_properties (object_class, N_PROPS, properties);
  grammar_http_client_install_statistics (object_class, N_PROPS);
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
  self->max_concurrency = 0;
}

void
grammar_http_system_register (GTypeModule *module)
{
  grammar_http_system_register_type (module);
}
