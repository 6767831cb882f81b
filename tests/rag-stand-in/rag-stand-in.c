/* rag-stand-in.c: a stand-in RAG service in the reply shapes users have
 *
 *   rag-stand-in [--shape SHAPE] [--documents FILE] [--latency-ms N]
 *                [--fail-every N] [--stall-every N --stall-ms M]
 *                [--truncate-every N] [--port-file FILE]
 *
 * Binds 127.0.0.1 on a free port, prints exactly one line,
 * `http://127.0.0.1:PORT`, flushes stdout (and writes PORT to --port-file
 * when given), then serves until SIGTERM or SIGINT, or until its standard
 * input reaches end of file: a test that spawns it keeps a pipe to its
 * stdin, so a test that dies never leaves it running.
 *
 * The service answers from a small built-in knowledge set, or from the
 * documents of --documents (documents.jsonl: `id` and `text` a line). A
 * query is answered by word overlap, deterministically: the documents
 * that share words (of three letters or more, case folded, a few
 * question words and articles left out) with the query
 * are retrieved, most shared words first (ties in file order), at most
 * three; the answer is the sentence of the first of them that shares the
 * most words with the query, or "I don't know." when none does. A
 * document's score is the shared words over the query's words.
 *
 * --shape chooses the contract (default `grammar`):
 *
 * - `grammar`: `POST /query` `{"query"}` → `{"answer", "retrieved":
 *   [{"id", "score", "text"}]}`, the http system's default contract;
 * - `openai-chat-citations`: `POST /v1/chat/completions`, an OpenAI chat
 *   request (the query is the last `user` message) → a chat completion
 *   whose `choices[0].message` has `content` (the answer) and
 *   `context.citations` `[{"content", "title", "url", "filepath",
 *   "chunk_id"}]` (the document's id is `filepath`), as Azure OpenAI "On
 *   Your Data" and the servers that copy it reply;
 * - `langchain`: `POST /rag/invoke`, LangServe's `{"input": {"query"}}` →
 *   `{"output": {"query", "result", "source_documents": [{"page_content",
 *   "metadata": {"source", "page"}, "type": "Document"}]}, "metadata":
 *   {"run_id", "feedback_tokens"}}`, a RetrievalQA chain with
 *   return_source_documents (the document's id is `metadata.source`);
 * - `llamaindex`: `POST /query` `{"query"}` → a LlamaIndex Response as
 *   JSON: `{"response", "source_nodes": [{"node": {"id_", "text",
 *   "metadata": {"file_name"}, "class_name": "TextNode"}, "score",
 *   "class_name": "NodeWithScore"}], "metadata": {}}`;
 * - `search-answer`: two endpoints, `POST /search` `{"query"}` →
 *   `{"hits": [{"doc_id", "snippet", "relevance"}]}` and `POST /answer`
 *   `{"query", "documents": [hits]}` → `{"answer"}`, where the answer
 *   comes only from the documents the request carries (none: "I don't
 *   know.").
 *
 * A request in another shape gets 400 with a JSON error. `GET /_stats`
 * gives `{"requests", "failed", "stalled", "truncated"}` (requests to the
 * service's endpoints; /_stats itself is not counted).
 *
 * Faults, for the tests and benchmarks that need them, counted on the
 * service's requests in the order they arrive (the Nth, 2Nth …):
 * --fail-every N answers 503 with `Retry-After: 0`; --stall-every N
 * delays the reply by --stall-ms more (default 2000); --truncate-every N
 * sends 200 with the first half of the JSON reply. --latency-ms N delays
 * every reply by N ms on a timer (the message is paused, the main loop
 * never blocks, so concurrent requests overlap).
 *
 * One thread. Connections are accepted by a GSocketService (backlog 1024)
 * and handed to the SoupServer, which also listens on an idle socket of
 * its own so that it keeps connections alive (libsoup 3.2 closes every
 * connection after one response when a server has no listener).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <gio/gnetworking.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "stand-in-lifetime.h"

#define MAX_RETRIEVED 3
#define MIN_WORD 3

typedef enum
{
  SHAPE_GRAMMAR,
  SHAPE_OPENAI,
  SHAPE_LANGCHAIN,
  SHAPE_LLAMAINDEX,
  SHAPE_SEARCH_ANSWER,
} Shape;

static const char * const shape_names[] = {
  "grammar", "openai-chat-citations", "langchain", "llamaindex", "search-answer", NULL
};

typedef struct
{
  char *id;
  char *text;
  GHashTable *words;    /* set of the text's words */
} Document;

typedef struct
{
  Document *document;
  guint shared;
  double score;
} Match;

typedef struct
{
  Shape shape;
  GPtrArray *documents; /* of Document */
  guint latency_ms;
  guint fail_every;
  guint stall_every;
  guint stall_ms;
  guint truncate_every;

  guint64 requests;
  guint64 failed;
  guint64 stalled;
  guint64 truncated;

  GMainLoop *loop;
  SoupServer *soup;
  GSocketService *service;
  GSocket *idle;
  StandInLifetime *lifetime;   /* stops it: SIGTERM, SIGINT or the end of stdin */
} Server;

/* The built-in knowledge set: ids shaped like those of real document
 * stores (file names with spaces, a chunk after "#"). */
static const struct { const char *id; const char *text; } builtin[] = {
  { "HR-Policy v2.pdf#3",
    "Employees accrue 2.5 days of paid vacation per month. Leave requests go to hr-leave@acme-corp.example at "
    "least two weeks ahead." },
  { "HR-Policy v2.pdf#4",
    "Parental leave is 16 weeks at full pay. It applies to every employee after six months of service." },
  { "Travel Policy 2024.docx#1",
    "Economy class is booked for flights shorter than six hours. Bookings are made at "
    "https://travel.acme-corp.example/book before the trip." },
  { "IT-Handbook.md#7",
    "Laptops are replaced every 36 months. A lost device is reported to it-security@acme-corp.example within 24 "
    "hours." },
  { "Onboarding FAQ.html#2",
    "New starters collect their badge at the \"Ground Floor\" reception. Margit Köhler runs the first-day tour "
    "at 9:30." },
};

/* ---- the knowledge ---- */

static const char * const stop_words[] = {
  "the", "and", "are", "for", "who", "what", "how", "does", "did", "with", "that", "this", "from", "which",
  "where", "when", "many", "much", "can", "our", "you", "your", NULL
};

/* The words of @text: runs of letters and digits, case folded, of
 * MIN_WORD characters or more, without the stop words. */
static GHashTable *
words_of (const char *text)
{
  GHashTable *words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *folded = g_utf8_casefold (text, -1);
  const char *p = folded;

  while (*p != '\0')
    {
      const char *start;

      while (*p != '\0' && !g_unichar_isalnum (g_utf8_get_char (p)))
        p = g_utf8_next_char (p);
      start = p;
      while (*p != '\0' && g_unichar_isalnum (g_utf8_get_char (p)))
        p = g_utf8_next_char (p);
      if (g_utf8_strlen (start, p - start) >= MIN_WORD)
        {
          char *word = g_strndup (start, p - start);

          if (g_strv_contains (stop_words, word))
            g_free (word);
          else
            g_hash_table_add (words, word);
        }
    }
  return words;
}

static guint
count_shared (GHashTable *query,
              GHashTable *words)
{
  GHashTableIter iter;
  gpointer word;
  guint n = 0;

  g_hash_table_iter_init (&iter, query);
  while (g_hash_table_iter_next (&iter, &word, NULL))
    n += g_hash_table_contains (words, word);
  return n;
}

static void
document_free (gpointer data)
{
  Document *document = data;

  g_free (document->id);
  g_free (document->text);
  g_hash_table_unref (document->words);
  g_free (document);
}

static Document *
document_new (const char *id,
              const char *text)
{
  Document *document = g_new0 (Document, 1);

  document->id = g_strdup (id);
  document->text = g_strdup (text);
  document->words = words_of (text);
  return document;
}

static gboolean
load_documents (GPtrArray   *documents,
                const char  *path,
                GError     **error)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents (path, &contents, NULL, error))
    return FALSE;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *object;
      JsonNode *id;

      if (g_strstrip (lines[i])[0] == '\0')
        continue;
      if (!json_parser_load_from_data (parser, lines[i], -1, error))
        {
          g_prefix_error (error, "%s:%u: ", path, i + 1);
          return FALSE;
        }
      object = JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser))
               ? json_node_get_object (json_parser_get_root (parser)) : NULL;
      id = object != NULL ? json_object_get_member (object, "id") : NULL;
      if (id == NULL || !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING ||
          json_object_get_string_member_with_default (object, "text", NULL) == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s:%u: a document needs a string id and text",
                       path, i + 1);
          return FALSE;
        }
      g_ptr_array_add (documents, document_new (json_node_get_string (id),
                                                json_object_get_string_member (object, "text")));
    }
  return TRUE;
}

static gint
compare_matches (gconstpointer a,
                 gconstpointer b)
{
  const Match *x = a;
  const Match *y = b;

  /* most shared words first; g_array_sort is not stable, so the
   * documents' order decides ties through their position */
  if (x->shared != y->shared)
    return x->shared > y->shared ? -1 : 1;
  return x->score < y->score ? -1 : x->score > y->score ? 1 : 0;
}

/* The documents of @pool that share words with @query, best first, at
 * most MAX_RETRIEVED. */
static GArray *
retrieve (GPtrArray  *pool,
          const char *query)
{
  g_autoptr (GHashTable) words = words_of (query);
  GArray *matches = g_array_new (FALSE, TRUE, sizeof (Match));
  guint n_words = MAX (g_hash_table_size (words), 1);

  for (guint i = 0; i < pool->len; i++)
    {
      Document *document = g_ptr_array_index (pool, i);
      Match match = { document, count_shared (words, document->words), (double) i };

      if (match.shared > 0)
        g_array_append_val (matches, match);
    }
  g_array_sort (matches, compare_matches);
  if (matches->len > MAX_RETRIEVED)
    g_array_set_size (matches, MAX_RETRIEVED);
  for (guint i = 0; i < matches->len; i++)
    {
      Match *match = &g_array_index (matches, Match, i);

      match->score = (double) match->shared / n_words;
    }
  return matches;
}

/* The sentence of the best match that shares the most words with the
 * query (the first of equals), with its full stop. */
static char *
answer_from (GArray     *matches,
             const char *query)
{
  g_autoptr (GHashTable) words = words_of (query);
  g_autofree char *best = NULL;
  guint best_shared = 0;
  const char *text;
  const char *start;

  if (matches->len == 0)
    return g_strdup ("I don't know.");
  text = g_array_index (matches, Match, 0).document->text;
  start = text;
  while (*start != '\0')
    {
      const char *end = start;
      g_autofree char *sentence = NULL;
      g_autoptr (GHashTable) sentence_words = NULL;
      guint shared;

      /* a sentence ends at ". " or at the end: "2.5" and "acme-corp.example" stay whole */
      while (*end != '\0' && !(end[0] == '.' && (end[1] == ' ' || end[1] == '\0')))
        end++;
      if (*end == '.')
        end++;
      sentence = g_strstrip (g_strndup (start, end - start));
      sentence_words = words_of (sentence);
      shared = count_shared (words, sentence_words);
      if (best == NULL || shared > best_shared)
        {
          g_free (best);
          best = g_steal_pointer (&sentence);
          best_shared = shared;
        }
      start = end;
      while (*start == ' ')
        start++;
    }
  return g_steal_pointer (&best);
}

/* ---- requests ---- */

static JsonObject *
parse_object (SoupServerMessage *msg)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr (GBytes) bytes = soup_message_body_flatten (body);
  g_autoptr (JsonParser) parser = json_parser_new ();
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);
  JsonNode *root;

  if (data == NULL || size == 0 || !json_parser_load_from_data (parser, data, (gssize) size, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  return root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_object_ref (json_node_get_object (root)) : NULL;
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* The content of the last user message of an OpenAI chat request. */
static const char *
last_user_content (JsonObject *request)
{
  JsonNode *node = request != NULL ? json_object_get_member (request, "messages") : NULL;
  const char *content = NULL;
  JsonArray *messages;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  messages = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *message = json_array_get_element (messages, i);

      if (JSON_NODE_HOLDS_OBJECT (message) &&
          g_strcmp0 (string_member (json_node_get_object (message), "role"), "user") == 0)
        content = string_member (json_node_get_object (message), "content");
    }
  return content;
}

/* ---- replies ---- */

static void
add_match_grammar (JsonBuilder *builder,
                   Match       *match)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, match->document->id);
  json_builder_set_member_name (builder, "score");
  json_builder_add_double_value (builder, match->score);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, match->document->text);
  json_builder_end_object (builder);
}

static void
add_match_citation (JsonBuilder *builder,
                    Match       *match)
{
  const char *hash = strrchr (match->document->id, '#');
  g_autofree char *title = g_strndup (match->document->id,
                                      hash != NULL ? (gsize) (hash - match->document->id)
                                                   : strlen (match->document->id));
  g_autofree char *escaped = g_uri_escape_string (title, NULL, FALSE);
  g_autofree char *url = g_strdup_printf ("https://docs.acme-corp.example/%s", escaped);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, match->document->text);
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, title);
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, url);
  json_builder_set_member_name (builder, "filepath");
  json_builder_add_string_value (builder, match->document->id);
  json_builder_set_member_name (builder, "chunk_id");
  json_builder_add_string_value (builder, hash != NULL ? hash + 1 : "0");
  json_builder_end_object (builder);
}

static void
add_match_langchain (JsonBuilder *builder,
                     Match       *match,
                     guint        rank)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "page_content");
  json_builder_add_string_value (builder, match->document->text);
  json_builder_set_member_name (builder, "metadata");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "source");
  json_builder_add_string_value (builder, match->document->id);
  json_builder_set_member_name (builder, "page");
  json_builder_add_int_value (builder, rank);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "Document");
  json_builder_end_object (builder);
}

static void
add_match_llamaindex (JsonBuilder *builder,
                      Match       *match)
{
  const char *hash = strrchr (match->document->id, '#');

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "node");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id_");
  json_builder_add_string_value (builder, match->document->id);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, match->document->text);
  json_builder_set_member_name (builder, "metadata");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file_name");
  {
    g_autofree char *file = g_strndup (match->document->id, hash != NULL ? (gsize) (hash - match->document->id)
                                                                          : strlen (match->document->id));
    json_builder_add_string_value (builder, file);
  }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "class_name");
  json_builder_add_string_value (builder, "TextNode");
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "score");
  json_builder_add_double_value (builder, match->score);
  json_builder_set_member_name (builder, "class_name");
  json_builder_add_string_value (builder, "NodeWithScore");
  json_builder_end_object (builder);
}

static void
add_match_hit (JsonBuilder *builder,
               Match       *match)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "doc_id");
  json_builder_add_string_value (builder, match->document->id);
  json_builder_set_member_name (builder, "snippet");
  json_builder_add_string_value (builder, match->document->text);
  json_builder_set_member_name (builder, "relevance");
  json_builder_add_double_value (builder, match->score);
  json_builder_end_object (builder);
}

static void
add_member_string (JsonBuilder *builder,
                   const char  *name,
                   const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

/* The reply of @shape to @query answered from @matches. */
static JsonNode *
build_reply (Shape       shape,
             const char *query,
             GArray     *matches,
             const char *answer,
             guint64     serial)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  switch (shape)
    {
    case SHAPE_GRAMMAR:
      add_member_string (builder, "answer", answer);
      json_builder_set_member_name (builder, "retrieved");
      json_builder_begin_array (builder);
      for (guint i = 0; i < matches->len; i++)
        add_match_grammar (builder, &g_array_index (matches, Match, i));
      json_builder_end_array (builder);
      break;

    case SHAPE_OPENAI:
      {
        g_autofree char *id = g_strdup_printf ("chatcmpl-standin%06" G_GUINT64_FORMAT, serial);

        add_member_string (builder, "id", id);
        add_member_string (builder, "object", "chat.completion");
        json_builder_set_member_name (builder, "created");
        json_builder_add_int_value (builder, 1764000000);
        add_member_string (builder, "model", "acme-rag-gpt");
        json_builder_set_member_name (builder, "choices");
        json_builder_begin_array (builder);
        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "index");
        json_builder_add_int_value (builder, 0);
        json_builder_set_member_name (builder, "message");
        json_builder_begin_object (builder);
        add_member_string (builder, "role", "assistant");
        add_member_string (builder, "content", answer);
        json_builder_set_member_name (builder, "context");
        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "citations");
        json_builder_begin_array (builder);
        for (guint i = 0; i < matches->len; i++)
          add_match_citation (builder, &g_array_index (matches, Match, i));
        json_builder_end_array (builder);
        add_member_string (builder, "intent", query);
        json_builder_end_object (builder);
        json_builder_end_object (builder);
        add_member_string (builder, "finish_reason", "stop");
        json_builder_end_object (builder);
        json_builder_end_array (builder);
        json_builder_set_member_name (builder, "usage");
        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "prompt_tokens");
        json_builder_add_int_value (builder, 120);
        json_builder_set_member_name (builder, "completion_tokens");
        json_builder_add_int_value (builder, 24);
        json_builder_set_member_name (builder, "total_tokens");
        json_builder_add_int_value (builder, 144);
        json_builder_end_object (builder);
      }
      break;

    case SHAPE_LANGCHAIN:
      {
        g_autofree char *run_id = g_strdup_printf ("6f1c2a8e-0000-4000-8000-%012" G_GUINT64_FORMAT, serial);

        json_builder_set_member_name (builder, "output");
        json_builder_begin_object (builder);
        add_member_string (builder, "query", query);
        add_member_string (builder, "result", answer);
        json_builder_set_member_name (builder, "source_documents");
        json_builder_begin_array (builder);
        for (guint i = 0; i < matches->len; i++)
          add_match_langchain (builder, &g_array_index (matches, Match, i), i);
        json_builder_end_array (builder);
        json_builder_end_object (builder);
        json_builder_set_member_name (builder, "metadata");
        json_builder_begin_object (builder);
        add_member_string (builder, "run_id", run_id);
        json_builder_set_member_name (builder, "feedback_tokens");
        json_builder_begin_array (builder);
        json_builder_end_array (builder);
        json_builder_end_object (builder);
      }
      break;

    case SHAPE_LLAMAINDEX:
      add_member_string (builder, "response", answer);
      json_builder_set_member_name (builder, "source_nodes");
      json_builder_begin_array (builder);
      for (guint i = 0; i < matches->len; i++)
        add_match_llamaindex (builder, &g_array_index (matches, Match, i));
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "metadata");
      json_builder_begin_object (builder);
      json_builder_end_object (builder);
      break;

    case SHAPE_SEARCH_ANSWER:
      /* the search half; the answer half is build_answer_only () */
      json_builder_set_member_name (builder, "hits");
      json_builder_begin_array (builder);
      for (guint i = 0; i < matches->len; i++)
        add_match_hit (builder, &g_array_index (matches, Match, i));
      json_builder_end_array (builder);
      break;

    default:
      g_assert_not_reached ();
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* The documents of an /answer request: its "documents", items with
 * doc_id and snippet (as /search gives them) or id and text. */
static GPtrArray *
given_documents (JsonObject *request)
{
  GPtrArray *documents = g_ptr_array_new_with_free_func (document_free);
  JsonNode *node = json_object_get_member (request, "documents");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return documents;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (item) ? json_node_get_object (item) : NULL;
      const char *id = string_member (object, "doc_id") != NULL ? string_member (object, "doc_id")
                                                                : string_member (object, "id");
      const char *text = string_member (object, "snippet") != NULL ? string_member (object, "snippet")
                                                                   : string_member (object, "text");

      if (id != NULL && text != NULL)
        g_ptr_array_add (documents, document_new (id, text));
    }
  return documents;
}

static void
set_json (SoupServerMessage *msg,
          guint              status,
          JsonNode          *root,
          gboolean           truncate)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  gsize length = 0;
  char *data;

  json_generator_set_root (generator, root);
  data = json_generator_to_data (generator, &length);
  if (truncate)
    length /= 2;
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, data, length);
}

static void
set_error (SoupServerMessage *msg,
           guint              status,
           const char        *message)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "error");
  json_builder_add_string_value (builder, message);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  set_json (msg, status, root, FALSE);
}

/* ---- held replies ---- */

typedef struct
{
  SoupServerMessage *msg;
  guint source;
  gulong finished_id;
} Held;

static void
held_free (Held *held)
{
  if (held->source != 0)
    g_source_remove (held->source);
  g_signal_handler_disconnect (held->msg, held->finished_id);
  g_object_unref (held->msg);
  g_free (held);
}

static gboolean
held_fire (gpointer data)
{
  Held *held = data;

  held->source = 0;
  soup_server_message_unpause (held->msg);
  held_free (held);
  return G_SOURCE_REMOVE;
}

/* The client went away, or the server is shutting down, while the reply was held. */
static void
held_finished (SoupServerMessage *msg,
               gpointer           data)
{
  held_free (data);
}

static void
hold (SoupServerMessage *msg,
      guint              delay_ms)
{
  Held *held;

  if (delay_ms == 0)
    return;
  held = g_new0 (Held, 1);
  held->msg = g_object_ref (msg);
  held->finished_id = g_signal_connect (msg, "finished", G_CALLBACK (held_finished), held);
  held->source = g_timeout_add (delay_ms, held_fire, held);
  soup_server_message_pause (msg);
}

/* ---- handlers ---- */

static gboolean
is_nth (guint64 serial,
        guint   every)
{
  return every > 0 && serial % every == 0;
}

static void
service_handler (SoupServer        *soup,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query_params,
                 gpointer           data)
{
  Server *self = data;
  g_autoptr (JsonObject) request = NULL;
  g_autoptr (GArray) matches = NULL;
  g_autoptr (GPtrArray) given = NULL;
  g_autoptr (JsonNode) reply = NULL;
  g_autofree char *answer = NULL;
  const char *query = NULL;
  gboolean answer_only = FALSE;
  guint64 serial;
  guint delay = self->latency_ms;
  gboolean truncate;

  if (soup_server_message_get_method (msg) != SOUP_METHOD_POST)
    {
      set_error (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "POST only");
      return;
    }
  serial = ++self->requests;
  if (is_nth (serial, self->fail_every))
    {
      self->failed++;
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After", "0");
      set_error (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "the service is overloaded, try again");
      hold (msg, delay);
      return;
    }

  request = parse_object (msg);
  switch (self->shape)
    {
    case SHAPE_GRAMMAR:
    case SHAPE_LLAMAINDEX:
      query = string_member (request, "query");
      break;
    case SHAPE_OPENAI:
      query = last_user_content (request);
      break;
    case SHAPE_LANGCHAIN:
      {
        JsonNode *input = request != NULL ? json_object_get_member (request, "input") : NULL;

        query = input != NULL && JSON_NODE_HOLDS_OBJECT (input)
                ? string_member (json_node_get_object (input), "query") : NULL;
      }
      break;
    case SHAPE_SEARCH_ANSWER:
      query = string_member (request, "query");
      answer_only = g_str_equal (path, "/answer");
      break;
    default:
      g_assert_not_reached ();
    }
  if (query == NULL)
    {
      set_error (msg, SOUP_STATUS_BAD_REQUEST, self->shape == SHAPE_OPENAI ? "messages has no user message"
                                               : self->shape == SHAPE_LANGCHAIN ? "input.query is required"
                                                                                 : "query is required");
      return;
    }

  if (answer_only)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();

      given = given_documents (request);
      matches = retrieve (given, query);
      answer = answer_from (matches, query);
      json_builder_begin_object (builder);
      add_member_string (builder, "answer", answer);
      json_builder_end_object (builder);
      reply = json_builder_get_root (builder);
    }
  else
    {
      matches = retrieve (self->documents, query);
      answer = answer_from (matches, query);
      reply = build_reply (self->shape, query, matches, answer, serial);
    }
  truncate = is_nth (serial, self->truncate_every);
  self->truncated += truncate;
  set_json (msg, SOUP_STATUS_OK, reply, truncate);
  if (is_nth (serial, self->stall_every))
    {
      self->stalled++;
      delay += self->stall_ms;
    }
  hold (msg, delay);
}

static void
stats_handler (SoupServer        *soup,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query_params,
               gpointer           data)
{
  Server *self = data;
  g_autofree char *text = g_strdup_printf ("{\"requests\": %" G_GUINT64_FORMAT ", \"failed\": %" G_GUINT64_FORMAT
                                           ", \"stalled\": %" G_GUINT64_FORMAT ", \"truncated\": %"
                                           G_GUINT64_FORMAT "}",
                                           self->requests, self->failed, self->stalled, self->truncated);

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, text, strlen (text));
}

static void
not_found_handler (SoupServer        *soup,
                   SoupServerMessage *msg,
                   const char        *path,
                   GHashTable        *query_params,
                   gpointer           data)
{
  g_autofree char *message = g_strdup_printf ("no endpoint %s", path);

  set_error (msg, SOUP_STATUS_NOT_FOUND, message);
}

static void
add_handlers (Server *self)
{
  static const char * const paths[][2] = {
    [SHAPE_GRAMMAR] = { "/query", NULL },
    [SHAPE_OPENAI] = { "/v1/chat/completions", NULL },
    [SHAPE_LANGCHAIN] = { "/rag/invoke", NULL },
    [SHAPE_LLAMAINDEX] = { "/query", NULL },
    [SHAPE_SEARCH_ANSWER] = { "/search", "/answer" },
  };

  soup_server_add_handler (self->soup, NULL, not_found_handler, self, NULL);
  soup_server_add_handler (self->soup, "/_stats", stats_handler, self, NULL);
  for (guint i = 0; i < 2; i++)
    if (paths[self->shape][i] != NULL)
      soup_server_add_handler (self->soup, paths[self->shape][i], service_handler, self, NULL);
}

/* ---- the program ---- */

static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           data)
{
  Server *self = data;
  g_autoptr (GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr (GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  g_autoptr (GError) error = NULL;

  g_socket_set_option (g_socket_connection_get_socket (connection), IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  if (!soup_server_accept_iostream (self->soup, G_IO_STREAM (connection), local, remote, &error))
    g_printerr ("rag-stand-in: %s\n", error->message);
  return TRUE;
}

static gboolean
parse_shape (const char  *name,
             Shape       *shape,
             GError     **error)
{
  for (guint i = 0; shape_names[i] != NULL; i++)
    if (g_str_equal (name, shape_names[i]))
      {
        *shape = i;
        return TRUE;
      }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "--shape %s: not one of grammar, openai-chat-citations, langchain, llamaindex, search-answer", name);
  return FALSE;
}

static gboolean
start (Server      *self,
       const char  *port_file,
       GError     **error)
{
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  guint port;

  self->soup = soup_server_new ("server-header", "rag-stand-in ", NULL);
  add_handlers (self);
  /* libsoup keeps a connection alive after a response only while the
   * server has a listener of its own: one on a socket nobody connects to */
  self->idle = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
  if (self->idle == NULL || !g_socket_bind (self->idle, address, FALSE, error) ||
      !g_socket_listen (self->idle, error) || !soup_server_listen_socket (self->soup, self->idle, 0, error))
    return FALSE;
  self->service = g_socket_service_new ();
  g_socket_listener_set_backlog (G_SOCKET_LISTENER (self->service), 1024);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (self->service), address, G_SOCKET_TYPE_STREAM,
                                      G_SOCKET_PROTOCOL_TCP, NULL, &bound, error))
    return FALSE;
  g_signal_connect (self->service, "incoming", G_CALLBACK (on_incoming), self);
  g_socket_service_start (self->service);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  if (port_file != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%u\n", port);

      if (!g_file_set_contents (port_file, text, -1, error))
        return FALSE;
    }
  printf ("http://127.0.0.1:%u\n", port);
  fflush (stdout);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  Server self = { 0 };
  g_autoptr (GOptionContext) context = g_option_context_new ("— a stand-in RAG service for tests and benchmarks");
  g_autoptr (GError) error = NULL;
  g_autofree char *shape = NULL;
  g_autofree char *documents = NULL;
  g_autofree char *port_file = NULL;
  int latency = 0, fail_every = 0, stall_every = 0, stall_ms = 2000, truncate_every = 0;
  const GOptionEntry entries[] = {
    { "shape", 0, 0, G_OPTION_ARG_STRING, &shape, "The reply shape (default grammar)", "SHAPE" },
    { "documents", 0, 0, G_OPTION_ARG_FILENAME, &documents, "documents.jsonl to answer from", "FILE" },
    { "latency-ms", 0, 0, G_OPTION_ARG_INT, &latency, "Delay every reply by N ms", "N" },
    { "fail-every", 0, 0, G_OPTION_ARG_INT, &fail_every, "503 with Retry-After: 0 on every Nth request", "N" },
    { "stall-every", 0, 0, G_OPTION_ARG_INT, &stall_every, "Delay every Nth reply by --stall-ms more", "N" },
    { "stall-ms", 0, 0, G_OPTION_ARG_INT, &stall_ms, "The stall (default 2000)", "M" },
    { "truncate-every", 0, 0, G_OPTION_ARG_INT, &truncate_every, "Cut every Nth JSON reply in half", "N" },
    { "port-file", 0, 0, G_OPTION_ARG_FILENAME, &port_file, "Write the port to FILE once listening", "FILE" },
    { NULL }
  };
  int status = 1;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      !parse_shape (shape != NULL ? shape : "grammar", &self.shape, &error))
    goto out;
  if (latency < 0 || fail_every < 0 || stall_every < 0 || stall_ms < 0 || truncate_every < 0)
    {
      g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "the numbers must not be negative");
      goto out;
    }
  self.latency_ms = latency;
  self.fail_every = fail_every;
  self.stall_every = stall_every;
  self.stall_ms = stall_ms;
  self.truncate_every = truncate_every;
  self.documents = g_ptr_array_new_with_free_func (document_free);
  if (documents != NULL)
    {
      if (!load_documents (self.documents, documents, &error))
        goto out;
    }
  else
    for (guint i = 0; i < G_N_ELEMENTS (builtin); i++)
      g_ptr_array_add (self.documents, document_new (builtin[i].id, builtin[i].text));

  self.loop = g_main_loop_new (NULL, FALSE);
  if (!start (&self, port_file, &error))
    goto out;
  self.lifetime = stand_in_lifetime_start (self.loop);
  g_main_loop_run (self.loop);
  status = 0;

out:
  if (error != NULL)
    g_printerr ("rag-stand-in: %s\n", error->message);
  if (self.service != NULL)
    {
      g_socket_service_stop (self.service);
      g_socket_listener_close (G_SOCKET_LISTENER (self.service));
    }
  if (self.soup != NULL)
    soup_server_disconnect (self.soup);
  /* the cancelled read still reports, and frees its task */
  g_clear_pointer (&self.lifetime, stand_in_lifetime_stop);
  g_clear_object (&self.service);
  g_clear_object (&self.soup);
  g_clear_object (&self.idle);
  g_clear_pointer (&self.loop, g_main_loop_unref);
  g_clear_pointer (&self.documents, g_ptr_array_unref);
  return status;
}
