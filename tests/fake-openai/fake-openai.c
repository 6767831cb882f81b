/* fake-openai.c: an OpenAI-compatible test server with fault injection
 *
 *   fake-openai [--rules FILE] [--latency-ms N] [--fault-rate R]
 *               [--faults 429,500,close,slow,malformed] [--retry-after S]
 *               [--api-key KEY] [--no-n] [--seed S]
 *               [--tls-cert PEM --tls-key PEM]
 *
 * Binds 127.0.0.1 on a free port, prints exactly one line,
 * `http://127.0.0.1:PORT/v1` (`https://` with --tls-cert), flushes stdout,
 * then serves until SIGTERM or SIGINT, or until its standard input reaches
 * end of file: a test that spawns it keeps a pipe to its stdin, so a test
 * that dies never leaves it running. (By hand: `cat | fake-openai`, or
 * type Ctrl-D to stop it; with stdin from /dev/null it stops at once.)
 *
 * Endpoints:
 *
 * - `POST /v1/chat/completions`: an OpenAI chat request (model, messages,
 *   temperature, max_tokens, n, seed, stop, response_format); the reply
 *   has `n` identical choices, `finish_reason` "stop", and token counts
 *   that are whitespace-separated words (prompt: all message contents;
 *   completion: the reply times n). The reply text comes from the rules
 *   file, applied to the content of the last `user` message:
 *
 *       {"rules": [{"match": "REGEX", "reply": "TEXT"},
 *                  {"match": "REGEX", "echo": true},
 *                  {"match": "REGEX", "status": 401, "error": "MESSAGE"}],
 *        "default": {"echo": true}}
 *
 *   GRegex patterns, the first match wins; without rules (or when none
 *   matches and there is no "default") the last user message is echoed.
 *   Invalid requests get 400 with an OpenAI-style error body; with
 *   --no-n, so does a request with n > 1 ("n must be 1").
 * - `POST /v1/embeddings`: `{"model", "input": string or array of
 *   strings}`; deterministic pseudo-embeddings of dimension 8 made from a
 *   SHA-256 of each text, normalised to length 1.
 * - `GET /_stats`: `{"requests", "distinct", "max_per_body", "faults",
 *   "chat", "embeddings", "connections"}`, counting every request to the
 *   two endpoints above and every accepted connection; "distinct" and "max_per_body" are per distinct request body
 *   (its SHA-256), so a test can assert that each request was sent once.
 *   `POST /_reset` clears the counters.
 *
 * With --api-key KEY, requests without `Authorization: Bearer KEY` get 401
 * "Incorrect API key provided". With --fault-rate R, each request that
 * passes that check fails with probability R (a GRand seeded by --seed, so
 * a sequence of requests sent one at a time fails the same way every
 * run), in one of the --faults kinds chosen at random (default: all five):
 * `429` (with `Retry-After: S`, default 1, 0 allowed), `500`, `close` (the
 * connection is closed without a response), `slow` (the answer comes after
 * 30 s, longer than a client's timeout) and `malformed` (200 with a body
 * that is not JSON). --latency-ms N delays every response by N ms with a
 * GLib timeout on a paused message: no main loop ever blocks, so
 * concurrent requests overlap.
 *
 * The main thread accepts connections (TCP_NODELAY, a backlog of 1024)
 * and deals them out to --threads worker threads (default: the number of
 * processors, at most 4), each running its own SoupServer on its own main
 * context, so that the server is not what limits a benchmark; counters
 * and the fault generator are shared under a mutex. Connections are kept
 * alive between requests.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <gio/gnetworking.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "stand-in-lifetime.h"

#define EMBEDDING_DIMENSION 8
#define SLOW_MS 30000

typedef enum
{
  FAULT_429,
  FAULT_500,
  FAULT_CLOSE,
  FAULT_SLOW,
  FAULT_MALFORMED,
  N_FAULTS
} FaultKind;

static const char * const fault_names[N_FAULTS] = { "429", "500", "close", "slow", "malformed" };

typedef enum
{
  RULE_ECHO,
  RULE_REPLY,
  RULE_STATUS
} RuleKind;

typedef struct
{
  GRegex *regex;   /* NULL for the default */
  RuleKind kind;
  char *text;      /* the reply, or the error message */
  guint status;
} Rule;

typedef struct _Worker Worker;

/* What the whole program shares. The configuration is read-only once the
 * workers run; the counters and the fault generator are under @lock. */
typedef struct
{
  GPtrArray *rules;     /* of Rule */
  Rule *fallback;       /* "default", or NULL: echo */
  guint latency_ms;
  double fault_rate;
  FaultKind faults[N_FAULTS];
  guint n_faults;
  guint retry_after;
  char *api_key;
  gboolean no_n;
  GTlsCertificate *certificate;

  GMutex lock;
  GRand *rand;
  GHashTable *bodies;   /* SHA-256 hex → count */
  guint64 requests;
  guint64 max_per_body;
  guint64 n_faulted;
  guint64 chat;
  guint64 embeddings;
  guint64 connections;  /* accepted TCP connections: keep-alive tests */

  /* the main thread's */
  GMainLoop *loop;
  GSocketService *service;
  GPtrArray *workers;   /* of Worker */
  guint next_worker;
  StandInLifetime *lifetime;   /* stops it: SIGTERM, SIGINT or the end of stdin */
} Server;

/* A thread with its own main context and SoupServer: connections are
 * dealt out to the workers in turn, so that both cores serve. */
struct _Worker
{
  Server *server;
  GThread *thread;
  GMainContext *context;
  gint stopping;        /* atomic */
  SoupServer *soup;
  GSocket *idle;        /* see worker_new () */
  GHashTable *delayed;  /* SoupServerMessage → Delayed */
};

/* A response held back: the message is paused until the timeout fires. */
typedef struct
{
  Worker *worker;
  SoupServerMessage *msg;
  GSource *source;
  gulong finished_id;
  gboolean close;
} Delayed;

static void
rule_free (gpointer data)
{
  Rule *rule = data;

  if (rule->regex != NULL)
    g_regex_unref (rule->regex);
  g_free (rule->text);
  g_free (rule);
}

/* Rules */

static Rule *
rule_parse (JsonNode    *node,
            gboolean     needs_match,
            const char  *where,
            GError     **error)
{
  g_autoptr (GError) local_error = NULL;
  JsonObject *object;
  Rule *rule;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not an object", where);
      return NULL;
    }
  object = json_node_get_object (node);
  rule = g_new0 (Rule, 1);
  if (needs_match)
    {
      const char *match = json_object_get_string_member_with_default (object, "match", NULL);

      if (match == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: no \"match\" string", where);
          rule_free (rule);
          return NULL;
        }
      /* no G_REGEX_OPTIMIZE: its JIT compiles on first match, which is
       * not safe from two worker threads at once */
      rule->regex = g_regex_new (match, 0, 0, &local_error);
      if (rule->regex == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", where, local_error->message);
          rule_free (rule);
          return NULL;
        }
    }

  if (json_object_has_member (object, "status"))
    {
      gint64 status = json_object_get_int_member_with_default (object, "status", 0);

      if (status < 100 || status > 599)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: \"status\" must be an HTTP status", where);
          rule_free (rule);
          return NULL;
        }
      rule->kind = RULE_STATUS;
      rule->status = status;
      rule->text = g_strdup (json_object_get_string_member_with_default (object, "error", "error"));
    }
  else if (json_object_has_member (object, "reply"))
    {
      const char *reply = json_object_get_string_member_with_default (object, "reply", NULL);

      if (reply == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: \"reply\" must be a string", where);
          rule_free (rule);
          return NULL;
        }
      rule->kind = RULE_REPLY;
      rule->text = g_strdup (reply);
    }
  else if (json_object_get_boolean_member_with_default (object, "echo", FALSE))
    {
      rule->kind = RULE_ECHO;
    }
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: needs \"reply\", \"echo\": true or \"status\"", where);
      rule_free (rule);
      return NULL;
    }
  return rule;
}

static gboolean
load_rules (Server      *self,
            const char  *path,
            GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonNode *node;

  if (!json_parser_load_from_file (parser, path, error))
    return FALSE;
  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON object", path);
      return FALSE;
    }
  root = json_node_get_object (node);

  node = json_object_get_member (root, "rules");
  if (node != NULL)
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: \"rules\" must be an array", path);
          return FALSE;
        }
      array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *where = g_strdup_printf ("%s: rule %u", path, i + 1);
          Rule *rule = rule_parse (json_array_get_element (array, i), TRUE, where, error);

          if (rule == NULL)
            return FALSE;
          g_ptr_array_add (self->rules, rule);
        }
    }

  node = json_object_get_member (root, "default");
  if (node != NULL)
    {
      g_autofree char *where = g_strdup_printf ("%s: default", path);

      self->fallback = rule_parse (node, FALSE, where, error);
      if (self->fallback == NULL)
        return FALSE;
    }
  return TRUE;
}

/* Responses */

static char *
node_to_string (JsonNode *node)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

static void
set_json (SoupServerMessage *msg,
          guint              status,
          JsonNode          *node)
{
  char *body = node_to_string (node);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, body, strlen (body));
}

static void
set_error (SoupServerMessage *msg,
           guint              status,
           const char        *type,
           const char        *param,
           const char        *message)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, type);
  json_builder_set_member_name (builder, "param");
  if (param != NULL)
    json_builder_add_string_value (builder, param);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  set_json (msg, status, node);
}

static void
set_invalid (SoupServerMessage *msg,
             const char        *param,
             const char        *message)
{
  set_error (msg, SOUP_STATUS_BAD_REQUEST, "invalid_request_error", param, message);
}

static guint
count_words (const char *text)
{
  guint n = 0;
  gboolean in_word = FALSE;

  for (const char *p = text; p != NULL && *p != '\0'; p++)
    {
      gboolean space = g_ascii_isspace (*p);

      if (!space && !in_word)
        n++;
      in_word = !space;
    }
  return n;
}

static void
add_usage (JsonBuilder *builder,
           guint        prompt_tokens,
           guint        completion_tokens,
           gboolean     with_completion)
{
  json_builder_set_member_name (builder, "usage");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "prompt_tokens");
  json_builder_add_int_value (builder, prompt_tokens);
  if (with_completion)
    {
      json_builder_set_member_name (builder, "completion_tokens");
      json_builder_add_int_value (builder, completion_tokens);
    }
  json_builder_set_member_name (builder, "total_tokens");
  json_builder_add_int_value (builder, (gint64) prompt_tokens + completion_tokens);
  json_builder_end_object (builder);
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static gboolean
is_integer (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64;
}

static gboolean
is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* Parses the body as a JSON object; on failure sets a 400 and returns NULL. */
static JsonObject *
parse_object (SoupServerMessage *msg,
              GBytes            *body,
              JsonParser        *parser)
{
  g_autoptr (GError) error = NULL;
  gsize length = 0;
  const char *data = g_bytes_get_data (body, &length);
  JsonNode *root;

  if (length == 0)
    {
      set_invalid (msg, NULL, "We could not parse the JSON body of your request: the body is empty.");
      return NULL;
    }
  if (!g_utf8_validate (data, length, NULL) || !json_parser_load_from_data (parser, data, length, &error))
    {
      g_autofree char *message = g_strdup_printf ("We could not parse the JSON body of your request: %s",
                                                  error != NULL ? error->message : "invalid UTF-8");
      set_invalid (msg, NULL, message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      set_invalid (msg, NULL, "We could not parse the JSON body of your request: expected an object.");
      return NULL;
    }
  return json_node_get_object (root);
}

static void
handle_chat (Server            *self,
             SoupServerMessage *msg,
             GBytes            *body,
             const char        *body_hash)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonBuilder) builder = NULL;
  g_autoptr (JsonNode) response = NULL;
  g_autofree char *reply = NULL;
  g_autofree char *id = NULL;
  JsonObject *request;
  JsonNode *node;
  JsonArray *messages;
  const char *last_user = NULL;
  const char *model;
  guint prompt_tokens = 0;
  gint64 n = 1;
  Rule *rule = NULL;

  request = parse_object (msg, body, parser);
  if (request == NULL)
    return;

  node = json_object_get_member (request, "model");
  if (node == NULL || !is_string (node) || *json_node_get_string (node) == '\0')
    {
      set_invalid (msg, "model", "you must provide a model parameter");
      return;
    }
  model = json_node_get_string (node);

  node = json_object_get_member (request, "messages");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) == 0)
    {
      set_invalid (msg, "messages", "'messages' must be a non-empty array");
      return;
    }
  messages = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      JsonObject *message;
      JsonNode *role, *content;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          set_invalid (msg, "messages", "each message must be an object");
          return;
        }
      message = json_node_get_object (element);
      role = json_object_get_member (message, "role");
      content = json_object_get_member (message, "content");
      if (role == NULL || !is_string (role))
        {
          set_invalid (msg, "messages", "each message needs a 'role' string");
          return;
        }
      if (content == NULL || !is_string (content))
        {
          set_invalid (msg, "messages", "each message needs a 'content' string");
          return;
        }
      prompt_tokens += count_words (json_node_get_string (content));
      if (g_strcmp0 (json_node_get_string (role), "user") == 0)
        last_user = json_node_get_string (content);
    }

  node = json_object_get_member (request, "temperature");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node)
      && (!is_number (node) || json_node_get_double (node) < 0 || json_node_get_double (node) > 2))
    {
      set_invalid (msg, "temperature", "'temperature' must be a number between 0 and 2");
      return;
    }
  node = json_object_get_member (request, "max_tokens");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node) && (!is_integer (node) || json_node_get_int (node) < 1))
    {
      set_invalid (msg, "max_tokens", "'max_tokens' must be a positive integer");
      return;
    }
  node = json_object_get_member (request, "seed");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node) && !is_integer (node))
    {
      set_invalid (msg, "seed", "'seed' must be an integer");
      return;
    }
  node = json_object_get_member (request, "n");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!is_integer (node) || json_node_get_int (node) < 1 || json_node_get_int (node) > 128)
        {
          set_invalid (msg, "n", "'n' must be an integer between 1 and 128");
          return;
        }
      n = json_node_get_int (node);
    }
  node = json_object_get_member (request, "stop");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      gboolean valid = is_string (node);

      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *stop = json_node_get_array (node);

          valid = json_array_get_length (stop) <= 4;
          for (guint i = 0; valid && i < json_array_get_length (stop); i++)
            valid = is_string (json_array_get_element (stop, i));
        }
      if (!valid)
        {
          set_invalid (msg, "stop", "'stop' must be a string or an array of at most 4 strings");
          return;
        }
    }
  node = json_object_get_member (request, "response_format");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      const char *type = NULL;

      if (JSON_NODE_HOLDS_OBJECT (node))
        type = json_object_get_string_member_with_default (json_node_get_object (node), "type", NULL);
      if (g_strcmp0 (type, "text") != 0 && g_strcmp0 (type, "json_object") != 0)
        {
          set_invalid (msg, "response_format", "'response_format.type' must be 'text' or 'json_object'");
          return;
        }
    }

  if (self->no_n && n > 1)
    {
      set_invalid (msg, "n", "n must be 1");
      return;
    }

  if (last_user == NULL)
    last_user = "";
  for (guint i = 0; i < self->rules->len && rule == NULL; i++)
    {
      Rule *candidate = g_ptr_array_index (self->rules, i);

      if (g_regex_match (candidate->regex, last_user, 0, NULL))
        rule = candidate;
    }
  if (rule == NULL)
    rule = self->fallback;

  if (rule != NULL && rule->kind == RULE_STATUS)
    {
      set_error (msg, rule->status, "invalid_request_error", NULL, rule->text);
      return;
    }
  reply = g_strdup (rule != NULL && rule->kind == RULE_REPLY ? rule->text : last_user);

  id = g_strdup_printf ("chatcmpl-%.24s", body_hash);
  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, id);
  json_builder_set_member_name (builder, "object");
  json_builder_add_string_value (builder, "chat.completion");
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, model);
  json_builder_set_member_name (builder, "choices");
  json_builder_begin_array (builder);
  for (gint64 i = 0; i < n; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "index");
      json_builder_add_int_value (builder, i);
      json_builder_set_member_name (builder, "message");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "role");
      json_builder_add_string_value (builder, "assistant");
      json_builder_set_member_name (builder, "content");
      json_builder_add_string_value (builder, reply);
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "finish_reason");
      json_builder_add_string_value (builder, "stop");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  add_usage (builder, prompt_tokens, count_words (reply) * n, TRUE);
  json_builder_end_object (builder);
  response = json_builder_get_root (builder);
  set_json (msg, SOUP_STATUS_OK, response);
}

static void
add_embedding (JsonBuilder *builder,
               const char  *text,
               guint        index)
{
  guint8 digest[32];
  gsize length = sizeof digest;
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  double values[EMBEDDING_DIMENSION];
  double norm = 0;

  g_checksum_update (checksum, (const guchar *) text, -1);
  g_checksum_get_digest (checksum, digest, &length);
  for (guint i = 0; i < EMBEDDING_DIMENSION; i++)
    {
      guint32 word = ((guint32) digest[4 * i] << 24) | ((guint32) digest[4 * i + 1] << 16)
                     | ((guint32) digest[4 * i + 2] << 8) | digest[4 * i + 3];

      /* in [-1, 1), never all zero in practice; the odd offset avoids 0 */
      values[i] = (word + 0.5) / 2147483648.0 - 1.0;
      norm += values[i] * values[i];
    }
  norm = sqrt (norm);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "object");
  json_builder_add_string_value (builder, "embedding");
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, index);
  json_builder_set_member_name (builder, "embedding");
  json_builder_begin_array (builder);
  for (guint i = 0; i < EMBEDDING_DIMENSION; i++)
    json_builder_add_double_value (builder, values[i] / norm);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
handle_embeddings (Server            *self,
                   SoupServerMessage *msg,
                   GBytes            *body)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonBuilder) builder = NULL;
  g_autoptr (JsonNode) response = NULL;
  g_autoptr (GPtrArray) texts = g_ptr_array_new ();
  JsonObject *request;
  JsonNode *node;
  guint tokens = 0;

  request = parse_object (msg, body, parser);
  if (request == NULL)
    return;
  node = json_object_get_member (request, "model");
  if (node == NULL || !is_string (node) || *json_node_get_string (node) == '\0')
    {
      set_invalid (msg, "model", "you must provide a model parameter");
      return;
    }
  node = json_object_get_member (request, "input");
  if (node != NULL && is_string (node))
    {
      g_ptr_array_add (texts, (gpointer) json_node_get_string (node));
    }
  else if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (!is_string (element))
            {
              set_invalid (msg, "input", "'input' must be a string or an array of strings");
              return;
            }
          g_ptr_array_add (texts, (gpointer) json_node_get_string (element));
        }
    }
  if (node == NULL || texts->len == 0)
    {
      set_invalid (msg, "input", "'input' must be a string or a non-empty array of strings");
      return;
    }

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "object");
  json_builder_add_string_value (builder, "list");
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, json_object_get_string_member (request, "model"));
  json_builder_set_member_name (builder, "data");
  json_builder_begin_array (builder);
  for (guint i = 0; i < texts->len; i++)
    {
      add_embedding (builder, g_ptr_array_index (texts, i), i);
      tokens += count_words (g_ptr_array_index (texts, i));
    }
  json_builder_end_array (builder);
  add_usage (builder, tokens, 0, FALSE);
  json_builder_end_object (builder);
  response = json_builder_get_root (builder);
  set_json (msg, SOUP_STATUS_OK, response);
}

/* Delays and closed connections */

static void
delayed_free (Delayed *delayed)
{
  if (delayed->source != NULL)
    {
      g_source_destroy (delayed->source);
      g_source_unref (delayed->source);
    }
  g_signal_handler_disconnect (delayed->msg, delayed->finished_id);
  g_object_unref (delayed->msg);
  g_free (delayed);
}

static gboolean
delayed_fire (gpointer data)
{
  Delayed *delayed = data;
  SoupServerMessage *msg = g_object_ref (delayed->msg);
  Worker *worker = delayed->worker;
  gboolean close = delayed->close;

  g_clear_pointer (&delayed->source, g_source_unref);
  g_hash_table_remove (worker->delayed, msg);   /* frees delayed */

  if (close)
    {
      /* Take the connection from the server and close it: the client
       * reads end of file where it expected a status line. */
      g_autoptr (GIOStream) stream = soup_server_message_steal_connection (msg);

      if (stream != NULL)
        g_io_stream_close (stream, NULL, NULL);
    }
  else
    {
      soup_server_message_unpause (msg);
    }
  g_object_unref (msg);
  return G_SOURCE_REMOVE;
}

/* The server finished the message while it was held (it is shutting
 * down, or the client went away): forget it. */
static void
delayed_finished (SoupServerMessage *msg,
                  gpointer           data)
{
  Delayed *delayed = data;

  g_hash_table_remove (delayed->worker->delayed, msg);
}

static void
hold (Worker            *worker,
      SoupServerMessage *msg,
      guint              delay_ms,
      gboolean           close)
{
  Delayed *delayed = g_new0 (Delayed, 1);

  delayed->worker = worker;
  delayed->msg = g_object_ref (msg);
  delayed->close = close;
  delayed->finished_id = g_signal_connect (msg, "finished", G_CALLBACK (delayed_finished), delayed);
  delayed->source = g_timeout_source_new (delay_ms);
  g_source_set_callback (delayed->source, delayed_fire, delayed, NULL);
  g_source_attach (delayed->source, worker->context);
  g_hash_table_insert (worker->delayed, msg, delayed);
  soup_server_message_pause (msg);
}

/* Handlers */

static void
count_request (Server     *self,
               GBytes     *body,
               const char *hash)
{
  guint64 count = GPOINTER_TO_SIZE (g_hash_table_lookup (self->bodies, hash)) + 1;

  g_hash_table_insert (self->bodies, g_strdup (hash), GSIZE_TO_POINTER ((gsize) count));
  self->requests++;
  self->max_per_body = MAX (self->max_per_body, count);
}

static gboolean
authorized (Server            *self,
            SoupServerMessage *msg)
{
  const char *header;

  if (self->api_key == NULL)
    return TRUE;
  header = soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Authorization");
  return header != NULL && g_str_has_prefix (header, "Bearer ")
         && g_strcmp0 (header + strlen ("Bearer "), self->api_key) == 0;
}

static void
api_handler (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  Worker *worker = user_data;
  Server *self = worker->server;
  gboolean chat = g_strcmp0 (path, "/v1/chat/completions") == 0;
  gboolean embeddings = g_strcmp0 (path, "/v1/embeddings") == 0;
  g_autoptr (GBytes) body = NULL;
  g_autofree char *hash = NULL;
  guint delay = self->latency_ms;
  gboolean close = FALSE;
  gboolean fault = FALSE;
  FaultKind kind = FAULT_500;

  if (!chat && !embeddings)
    {
      g_autofree char *message = g_strdup_printf ("Unknown request URL: %s %s",
                                                  soup_server_message_get_method (msg), path);

      set_error (msg, SOUP_STATUS_NOT_FOUND, "invalid_request_error", NULL, message);
      return;
    }
  if (soup_server_message_get_method (msg) != SOUP_METHOD_POST)
    {
      set_error (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "invalid_request_error", NULL,
                 "Only POST is allowed on this URL");
      return;
    }

  body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  hash = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, body);
  g_mutex_lock (&self->lock);
  count_request (self, body, hash);
  if (chat)
    self->chat++;
  else
    self->embeddings++;
  if (authorized (self, msg) && self->fault_rate > 0 && g_rand_double (self->rand) < self->fault_rate)
    {
      fault = TRUE;
      kind = self->faults[g_rand_int_range (self->rand, 0, self->n_faults)];
      self->n_faulted++;
    }
  g_mutex_unlock (&self->lock);

  if (!authorized (self, msg))
    {
      set_error (msg, SOUP_STATUS_UNAUTHORIZED, "invalid_request_error", NULL, "Incorrect API key provided");
    }
  else if (fault)
    {
      switch (kind)
        {
        case FAULT_429:
          {
            g_autofree char *seconds = g_strdup_printf ("%u", self->retry_after);

            soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After", seconds);
            set_error (msg, 429, "requests", NULL,
                       "Rate limit reached (injected fault)");
          }
          break;
        case FAULT_500:
          set_error (msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, "server_error", NULL,
                     "The server had an error while processing your request (injected fault)");
          break;
        case FAULT_CLOSE:
          close = TRUE;
          break;
        case FAULT_SLOW:
          delay = MAX (delay, SLOW_MS);
          if (chat)
            handle_chat (self, msg, body, hash);
          else
            handle_embeddings (self, msg, body);
          break;
        case FAULT_MALFORMED:
          {
            static const char truncated[] = "{\"id\": \"chatcmpl-malformed\", \"object\": \"chat.completion\", \"choi";

            soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
            soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                              truncated, strlen (truncated));
          }
          break;
        case N_FAULTS:
        default:
          g_assert_not_reached ();
        }
    }
  else if (chat)
    {
      handle_chat (self, msg, body, hash);
    }
  else
    {
      handle_embeddings (self, msg, body);
    }

  if (delay > 0 || close)
    hold (worker, msg, delay, close);
}

static void
stats_handler (SoupServer        *server,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  Server *self = ((Worker *) user_data)->server;
  g_autoptr (JsonBuilder) builder = NULL;
  g_autoptr (JsonNode) node = NULL;

  if (soup_server_message_get_method (msg) != SOUP_METHOD_GET)
    {
      set_error (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "invalid_request_error", NULL, "Use GET");
      return;
    }
  g_mutex_lock (&self->lock);
  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "requests");
  json_builder_add_int_value (builder, self->requests);
  json_builder_set_member_name (builder, "distinct");
  json_builder_add_int_value (builder, g_hash_table_size (self->bodies));
  json_builder_set_member_name (builder, "max_per_body");
  json_builder_add_int_value (builder, self->max_per_body);
  json_builder_set_member_name (builder, "faults");
  json_builder_add_int_value (builder, self->n_faulted);
  json_builder_set_member_name (builder, "chat");
  json_builder_add_int_value (builder, self->chat);
  json_builder_set_member_name (builder, "embeddings");
  json_builder_add_int_value (builder, self->embeddings);
  json_builder_set_member_name (builder, "connections");
  json_builder_add_int_value (builder, self->connections);
  json_builder_end_object (builder);
  g_mutex_unlock (&self->lock);
  node = json_builder_get_root (builder);
  set_json (msg, SOUP_STATUS_OK, node);
}

static void
reset_handler (SoupServer        *server,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  Server *self = ((Worker *) user_data)->server;

  if (soup_server_message_get_method (msg) != SOUP_METHOD_POST)
    {
      set_error (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "invalid_request_error", NULL, "Use POST");
      return;
    }
  g_mutex_lock (&self->lock);
  g_hash_table_remove_all (self->bodies);
  self->requests = self->max_per_body = self->n_faulted = self->chat = self->embeddings = self->connections = 0;
  g_mutex_unlock (&self->lock);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, "{}", 2);
}

/* Stopping */

/* Workers and connections */

typedef struct
{
  Worker *worker;
  GIOStream *stream;
  GSocketAddress *local;
  GSocketAddress *remote;
} Handoff;

static void
handoff_free (gpointer data)
{
  Handoff *handoff = data;

  g_object_unref (handoff->stream);
  g_clear_object (&handoff->local);
  g_clear_object (&handoff->remote);
  g_free (handoff);
}

/* In the worker's thread: from now on the connection is its server's. */
static gboolean
handoff_accept (gpointer data)
{
  Handoff *handoff = data;
  g_autoptr (GError) error = NULL;

  if (!soup_server_accept_iostream (handoff->worker->soup, handoff->stream, handoff->local, handoff->remote, &error))
    g_printerr ("fake-openai: %s\n", error->message);
  return G_SOURCE_REMOVE;
}

static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           data)
{
  Server *self = data;
  g_autoptr (GError) error = NULL;
  Handoff *handoff = g_new0 (Handoff, 1);

  g_mutex_lock (&self->lock);
  self->connections++;
  g_mutex_unlock (&self->lock);
  /* small requests and responses: no Nagle delays */
  g_socket_set_option (g_socket_connection_get_socket (connection), IPPROTO_TCP, TCP_NODELAY, TRUE, NULL);
  handoff->worker = g_ptr_array_index (self->workers, self->next_worker++ % self->workers->len);
  handoff->local = g_socket_connection_get_local_address (connection, NULL);
  handoff->remote = g_socket_connection_get_remote_address (connection, NULL);
  if (self->certificate != NULL)
    {
      handoff->stream = g_tls_server_connection_new (G_IO_STREAM (connection), self->certificate, &error);
      if (handoff->stream == NULL)
        {
          g_printerr ("fake-openai: TLS: %s\n", error->message);
          handoff->stream = g_object_ref (G_IO_STREAM (connection));
          handoff_free (handoff);
          return TRUE;
        }
    }
  else
    {
      handoff->stream = g_object_ref (G_IO_STREAM (connection));
    }
  g_main_context_invoke_full (handoff->worker->context, G_PRIORITY_DEFAULT, handoff_accept, handoff, handoff_free);
  return TRUE;
}

static gpointer
worker_run (gpointer data)
{
  Worker *worker = data;

  g_main_context_push_thread_default (worker->context);
  /* not a GMainLoop: a quit that came before it ran would be lost */
  while (!g_atomic_int_get (&worker->stopping))
    g_main_context_iteration (worker->context, TRUE);

  /* stopping: drop held responses, close the connections */
  g_hash_table_remove_all (worker->delayed);
  soup_server_disconnect (worker->soup);
  while (g_main_context_iteration (worker->context, FALSE))
    ;
  g_clear_object (&worker->soup);
  while (g_main_context_iteration (worker->context, FALSE))
    ;
  g_main_context_pop_thread_default (worker->context);
  return NULL;
}

static void
worker_free (gpointer data)
{
  Worker *worker = data;

  if (worker->thread != NULL)
    {
      g_atomic_int_set (&worker->stopping, TRUE);
      g_main_context_wakeup (worker->context);
      g_thread_join (worker->thread);
    }
  else if (worker->soup != NULL)
    {
      g_main_context_push_thread_default (worker->context);
      g_clear_object (&worker->soup);
      g_main_context_pop_thread_default (worker->context);
    }
  g_clear_object (&worker->idle);
  g_main_context_unref (worker->context);   /* and the handoffs never run */
  g_hash_table_unref (worker->delayed);
  g_free (worker);
}

static Worker *
worker_new (Server        *self,
            guint          index,
            GInetAddress  *loopback,
            GError       **error)
{
  Worker *worker = g_new0 (Worker, 1);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autofree char *name = g_strdup_printf ("worker-%u", index);
  gboolean ok;

  worker->server = self;
  worker->context = g_main_context_new ();
  worker->delayed = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) delayed_free);

  /* made with the worker's context as thread-default, so that the
   * server's sources go there */
  g_main_context_push_thread_default (worker->context);
  worker->soup = soup_server_new ("server-header", "fake-openai ", NULL);
  soup_server_add_handler (worker->soup, "/v1", api_handler, worker, NULL);
  soup_server_add_handler (worker->soup, "/_stats", stats_handler, worker, NULL);
  soup_server_add_handler (worker->soup, "/_reset", reset_handler, worker, NULL);
  /* libsoup keeps a connection alive after a response only while the
   * server has a listener of its own (request_finished in soup-server.c):
   * give it one, on a socket that nobody connects to. */
  worker->idle = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
  ok = worker->idle != NULL && g_socket_bind (worker->idle, address, FALSE, error)
       && g_socket_listen (worker->idle, error) && soup_server_listen_socket (worker->soup, worker->idle, 0, error);
  g_main_context_pop_thread_default (worker->context);
  if (!ok)
    {
      worker_free (worker);
      return NULL;
    }
  worker->thread = g_thread_new (name, worker_run, worker);
  return worker;
}

/* Options */

static gboolean
parse_faults (Server      *self,
              const char  *list,
              GError     **error)
{
  g_auto (GStrv) names = g_strsplit (list, ",", -1);

  self->n_faults = 0;
  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *name = g_strstrip (names[i]);
      guint kind;

      if (*name == '\0')
        continue;
      for (kind = 0; kind < N_FAULTS; kind++)
        if (strcmp (name, fault_names[kind]) == 0)
          break;
      if (kind == N_FAULTS)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--faults: unknown fault “%s” (known: 429, 500, close, slow, malformed)", name);
          return FALSE;
        }
      if (self->n_faults < N_FAULTS)
        self->faults[self->n_faults++] = kind;
    }
  if (self->n_faults == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--faults: no fault named");
      return FALSE;
    }
  return TRUE;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature (address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#ifdef UNDER_ASAN
/* GLib's worker threads ("pool-…", not the "pool-spawner") */
static guint
count_pool_threads (void)
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
  return n;
}
#endif

/* In the sanitizer build, the TLS handshakes that glib-networking runs in
 * GLib's worker threads leave GnuTLS's dynamic thread-local storage in
 * those threads, which LeakSanitizer (GCC 12) crashes on while it checks
 * for leaks at exit. Let those threads end first (they go within half a
 * second of their last task once no idle thread is kept). */
static void
let_worker_threads_end (void)
{
#ifdef UNDER_ASAN
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_thread_pool_set_max_unused_threads (0);
  while (count_pool_threads () > 0 && g_get_monotonic_time () < deadline)
    {
      g_thread_pool_stop_unused_threads ();
      g_usleep (10 * 1000);
    }
#endif
}

static void
server_clear (Server *self)
{
  if (self->service != NULL)
    {
      g_socket_service_stop (self->service);
      g_socket_listener_close (G_SOCKET_LISTENER (self->service));
    }
  g_clear_pointer (&self->lifetime, stand_in_lifetime_stop);
  /* each worker stops and closes its connections */
  g_clear_pointer (&self->workers, g_ptr_array_unref);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&self->service);
  g_clear_pointer (&self->loop, g_main_loop_unref);
  g_clear_pointer (&self->bodies, g_hash_table_unref);
  g_clear_pointer (&self->rules, g_ptr_array_unref);
  g_clear_pointer (&self->fallback, rule_free);
  g_clear_pointer (&self->rand, g_rand_free);
  g_clear_pointer (&self->api_key, g_free);
  g_mutex_clear (&self->lock);
  let_worker_threads_end ();
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *rules = NULL;
  g_autofree char *faults = NULL;
  g_autofree char *tls_cert = NULL;
  g_autofree char *tls_key = NULL;
  g_autoptr (GTlsCertificate) certificate = NULL;
  g_autoptr (GInetAddress) loopback = NULL;
  g_autoptr (GSocketAddress) address = NULL;
  g_autoptr (GSocketAddress) bound = NULL;
  g_autofree char *url = NULL;
  int latency_ms = 0;
  int retry_after = 1;
  double fault_rate = 0;
  int seed = 1;
  int threads = CLAMP (g_get_num_processors (), 1, 4);
  int status = 0;
  Server self = { 0, };
  GOptionEntry entries[] = {
    { "rules", 0, 0, G_OPTION_ARG_FILENAME, &rules, "Reply rules (JSON)", "FILE" },
    { "latency-ms", 0, 0, G_OPTION_ARG_INT, &latency_ms, "Delay every response by N ms", "N" },
    { "fault-rate", 0, 0, G_OPTION_ARG_DOUBLE, &fault_rate, "Fraction of requests that fail (0–1)", "R" },
    { "faults", 0, 0, G_OPTION_ARG_STRING, &faults, "Fault kinds (default: 429,500,close,slow,malformed)", "LIST" },
    { "retry-after", 0, 0, G_OPTION_ARG_INT, &retry_after, "Retry-After seconds of 429 faults (default 1)", "S" },
    { "api-key", 0, 0, G_OPTION_ARG_STRING, &self.api_key, "Require Authorization: Bearer KEY", "KEY" },
    { "no-n", 0, 0, G_OPTION_ARG_NONE, &self.no_n, "Answer 400 to n > 1", NULL },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "Seed of the fault generator (default 1)", "S" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Serving threads (default: the processors, at most 4)", "N" },
    { "tls-cert", 0, 0, G_OPTION_ARG_FILENAME, &tls_cert, "Serve https with this certificate (PEM)", "PEM" },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &tls_key, "The certificate's private key (PEM)", "PEM" },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("- an OpenAI-compatible test server");
  g_option_context_add_main_entries (context, entries, NULL);
  self.rules = g_ptr_array_new_with_free_func (rule_free);
  self.bodies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self.workers = g_ptr_array_new_with_free_func (worker_free);
  g_mutex_init (&self.lock);

  /* Usage errors: exit status 2 */
  status = 2;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    goto out;
  if (argc > 1)
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "unexpected argument “%s”", argv[1]);
      goto out;
    }
  if (latency_ms < 0 || retry_after < 0 || !(fault_rate >= 0 && fault_rate <= 1) || threads < 1 || threads > 64)
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--latency-ms and --retry-after must be ≥ 0, --fault-rate between 0 and 1, --threads 1 to 64");
      goto out;
    }
  if ((tls_cert == NULL) != (tls_key == NULL))
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--tls-cert and --tls-key go together");
      goto out;
    }
  self.latency_ms = latency_ms;
  self.retry_after = retry_after;
  self.fault_rate = fault_rate;
  self.rand = g_rand_new_with_seed ((guint32) seed);
  if (!parse_faults (&self, faults != NULL ? faults : "429,500,close,slow,malformed", &error))
    goto out;

  /* Other failures: exit status 1 */
  status = 1;
  if (rules != NULL && !load_rules (&self, rules, &error))
    goto out;
  if (tls_cert != NULL)
    {
      certificate = g_tls_certificate_new_from_files (tls_cert, tls_key, &error);
      if (certificate == NULL)
        goto out;
    }
  self.certificate = certificate;
  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  for (int i = 0; i < threads; i++)
    {
      Worker *worker = worker_new (&self, i, loopback, &error);

      if (worker == NULL)
        goto out;
      g_ptr_array_add (self.workers, worker);
    }

  /* Connections are accepted here and handed to the workers: libsoup
   * 3.2's own listener (soup_server_listen_local…) never frees the socket
   * of a connection it accepts, which the sanitizer build reports. */
  self.service = g_socket_service_new ();
  /* GLib's default backlog, 10, drops connections when a client opens
   * a hundred at once */
  g_socket_listener_set_backlog (G_SOCKET_LISTENER (self.service), 1024);
  address = g_inet_socket_address_new (loopback, 0);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (self.service), address, G_SOCKET_TYPE_STREAM,
                                      G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error))
    goto out;
  g_signal_connect (self.service, "incoming", G_CALLBACK (on_incoming), &self);
  g_socket_service_start (self.service);
  url = g_strdup_printf ("%s://127.0.0.1:%u/v1", certificate != NULL ? "https" : "http",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  self.loop = g_main_loop_new (NULL, FALSE);
  self.lifetime = stand_in_lifetime_start (self.loop);

  printf ("%s\n", url);
  fflush (stdout);
  g_main_loop_run (self.loop);

  status = 0;

out:
  if (error != NULL)
    g_printerr ("fake-openai: %s\n", error->message);
  server_clear (&self);
  return status;
}
