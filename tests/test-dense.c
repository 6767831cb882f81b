/* test-dense.c: the `dense` retriever against tests/fake-openai
 *
 * The fake server's embeddings are deterministic pseudo-random unit
 * vectors (a SHA-256 of each text), so the expected ranking is computed
 * here from the same vectors, fetched with grammar_llm_embed(), and the
 * server's /_stats counts the embeddings requests the retriever sent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <grammar.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "grammar-test-util.h"

static char *tmpdir;

/* The corpus: document 5 repeats document 1 word for word (one text to
 * embed, two documents with the same score). */
static const struct
{
  const char *id, *title, *text;
} corpus[] = {
  { "acme", "Acme Corp", "Acme Corp is a client in the Retail industry." },
  { "globex", "Globex", "Globex is a client in the Energy industry." },
  { "initech", "Initech", "Initech makes software." },
  { "umbrella", "Umbrella", "Umbrella Corp is based in Raccoon City." },
  { "acme-copy", "Acme Corp", "Acme Corp is a client in the Retail industry." },
  { "hooli", "", "Hooli makes phones." },
};

#define N_DOCS G_N_ELEMENTS (corpus)
#define N_TEXTS (N_DOCS - 1)

/* ---- the server ---- */

typedef GrammarTestServer Server;

static Server *
server_start (const char * const *args)
{
  return grammar_test_server_start (args);
}

static void
server_stop (Server *server)
{
  grammar_test_server_close (server);
  grammar_test_server_free (server);
}

static JsonObject *
server_call (Server     *server,
             const char *method,
             const char *path)
{
  g_autoptr (SoupSession) session = soup_session_new ();
  g_autofree char *uri = g_strconcat (server->root, path, NULL);
  g_autoptr (SoupMessage) message = soup_message_new (method, uri);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  bytes = soup_session_send_and_read (session, message, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  if (g_bytes_get_size (bytes) == 0 || !json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                                                    (gssize) g_bytes_get_size (bytes), NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Embeddings requests since the last reset. */
static gint64
embedding_requests (Server *server)
{
  g_autoptr (JsonObject) stats = server_call (server, "GET", "/_stats");

  g_assert_nonnull (stats);
  return json_object_get_int_member (stats, "embeddings");
}

static void
reset_stats (Server *server)
{
  g_autoptr (JsonObject) ignored = server_call (server, "POST", "/_reset");

  g_assert_cmpint (embedding_requests (server), ==, 0);
}

/* ---- fixtures ---- */

static char *
write_corpus (const char *dir)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (gsize i = 0; i < N_DOCS; i++)
    g_string_append_printf (text, "{\"id\": \"%s\", \"title\": \"%s\", \"text\": \"%s\"}\n", corpus[i].id,
                            corpus[i].title, corpus[i].text);
  return grammar_test_write_file (dir, "docs.jsonl", text->str);
}

static GPtrArray *
corpus_documents (void)
{
  GPtrArray *documents = g_ptr_array_new_with_free_func (g_object_unref);

  for (gsize i = 0; i < N_DOCS; i++)
    g_ptr_array_add (documents, grammar_document_new (corpus[i].id, corpus[i].title, corpus[i].text));
  return documents;
}

/* A fresh folder for one test, so that default cache files do not meet. */
static char *
test_dir (const char *name)
{
  char *dir = g_build_filename (tmpdir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

/* A keyfile with an [embedder] on @url, a [reader] and a [retriever]
 * with @extra (embedder=embedder unless @extra sets it). */
static char *
keyfile (const char *url,
         const char *extra)
{
  return g_strdup_printf ("[embedder]\nplugin=openai\nbase-url=%s\nmodel=embed-test\napi-key-env=\ncache=\n"
                          "max-retries=0\n\n"
                          "[reader]\nplugin=extractive\n\n"
                          "[retriever]\nplugin=dense\n%s%s",
                          url, strstr (extra, "embedder=") != NULL ? "" : "embedder=embedder\n", extra);
}

static GObject *
build_full (const char  *dir,
            const char  *url,
            const char  *extra,
            const char  *section,
            GType        type,
            GError     **error)
{
  g_autofree char *data = keyfile (url, extra);
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (data, -1, dir, error);

  g_assert_nonnull (config);
  return grammar_config_build (config, section, type, error);
}

static GrammarRetriever *
build_retriever (const char *dir,
                 const char *url,
                 const char *extra)
{
  g_autoptr (GError) error = NULL;
  GObject *retriever = build_full (dir, url, extra, "retriever", GRAMMAR_TYPE_RETRIEVER, &error);

  g_assert_no_error (error);
  return GRAMMAR_RETRIEVER (retriever);
}

/* ---- the expected ranking, from the embedder's own vectors ---- */

typedef struct
{
  guint index;
  double score;
} Expected;

static int
compare_expected (gconstpointer a,
                  gconstpointer b)
{
  const Expected *x = a, *y = b;

  if (x->score != y->score)
    return x->score > y->score ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static double
cosine (const float *a,
        const float *b,
        guint        dimension)
{
  double ab = 0, aa = 0, bb = 0;

  for (guint i = 0; i < dimension; i++)
    {
      ab += (double) a[i] * b[i];
      aa += (double) a[i] * a[i];
      bb += (double) b[i] * b[i];
    }
  return ab / (sqrt (aa) * sqrt (bb));
}

/* Every document, best first, as the retriever must rank them for @query. */
static GArray *
expected_ranking (Server     *server,
                  const char *dir,
                  const char *query)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) embedder = build_full (dir, server->url, "", "embedder", GRAMMAR_TYPE_LLM, &error);
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GrammarEmbeddings) embeddings = NULL;
  GArray *ranking = g_array_new (FALSE, FALSE, sizeof (Expected));
  const float *query_vector;
  guint dimension = 0;

  g_assert_no_error (error);
  for (gsize i = 0; i < N_DOCS; i++)
    g_ptr_array_add (texts, *corpus[i].title != '\0' ? g_strconcat (corpus[i].title, "\n", corpus[i].text, NULL)
                                                     : g_strdup (corpus[i].text));
  g_ptr_array_add (texts, g_strdup (query));
  g_ptr_array_add (texts, NULL);
  embeddings = grammar_llm_embed (GRAMMAR_LLM (embedder), (const char * const *) texts->pdata, NULL, &error);
  g_assert_no_error (error);
  query_vector = grammar_embeddings_get_vector (embeddings, N_DOCS, &dimension);
  g_assert_cmpuint (dimension, ==, 8);
  for (guint i = 0; i < N_DOCS; i++)
    {
      Expected entry = { i, cosine (grammar_embeddings_get_vector (embeddings, i, NULL), query_vector, dimension) };

      g_array_append_val (ranking, entry);
    }
  g_array_sort (ranking, compare_expected);
  reset_stats (server);
  return ranking;
}

static void
assert_hits (GPtrArray *hits,
             GArray    *ranking,
             guint      n)
{
  g_assert_nonnull (hits);
  g_assert_cmpuint (hits->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      GrammarHit *hit = g_ptr_array_index (hits, i);
      const Expected *expected = &g_array_index (ranking, Expected, i);

      g_assert_cmpstr (grammar_hit_get_document_id (hit), ==, corpus[expected->index].id);
      g_assert_cmpfloat_with_epsilon (grammar_hit_get_score (hit), expected->score, 1e-5);
      g_assert_cmpstr (grammar_hit_get_text (hit), ==, corpus[expected->index].text);
    }
}

static GPtrArray *
retrieve (GrammarRetriever *retriever,
          const char       *query,
          guint             top_k)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *hits = grammar_retriever_retrieve (retriever, query, top_k, NULL, &error);

  g_assert_no_error (error);
  return hits;
}

/* ---- tests ---- */

#define QUERY "Which industry is Globex in?"

static void
test_ranking (void)
{
  const char * const args[] = { NULL };
  Server *server = server_start (args);
  g_autofree char *dir = test_dir ("ranking");
  g_autofree char *docs = write_corpus (dir);
  g_autoptr (GArray) ranking = expected_ranking (server, dir, QUERY);
  g_autoptr (GrammarRetriever) retriever =
    build_retriever (dir, server->url, "documents=docs.jsonl\ntop-k=3\nbatch-size=2\ncache=none\n");
  g_autoptr (GPtrArray) three = NULL;
  g_autoptr (GPtrArray) all = NULL;
  g_autoptr (GPtrArray) one = NULL;
  guint n_documents = 0, acme = 0, copy = 0;

  g_object_get (retriever, "n-documents", &n_documents, NULL);
  g_assert_cmpuint (n_documents, ==, N_DOCS);
  /* Nothing is embedded before the first retrieval. */
  g_assert_cmpint (embedding_requests (server), ==, 0);

  three = retrieve (retriever, QUERY, 0);  /* 0: top-k=3 */
  assert_hits (three, ranking, 3);
  /* Five distinct texts in batches of two, then the query. */
  g_assert_cmpint (embedding_requests (server), ==, 3 + 1);

  all = retrieve (retriever, QUERY, 100);
  assert_hits (all, ranking, N_DOCS);
  one = retrieve (retriever, QUERY, 1);
  assert_hits (one, ranking, 1);

  /* The repeated document scores the same and comes right after the first. */
  for (guint i = 0; i < all->len; i++)
    {
      const char *id = grammar_hit_get_document_id (g_ptr_array_index (all, i));

      if (g_str_equal (id, "acme"))
        acme = i;
      else if (g_str_equal (id, "acme-copy"))
        copy = i;
    }
  g_assert_cmpuint (copy, ==, acme + 1);
  g_assert_cmpfloat (grammar_hit_get_score (g_ptr_array_index (all, acme)), ==,
                     grammar_hit_get_score (g_ptr_array_index (all, copy)));
  server_stop (server);
}

static void
test_cache (void)
{
  const char * const args[] = { NULL };
  Server *server = server_start (args);
  g_autofree char *dir = test_dir ("cache");
  g_autofree char *docs = write_corpus (dir);
  g_autofree char *cache = g_strconcat (docs, ".vectors.sqlite", NULL);
  g_autofree char *none = g_build_filename (dir, "none", NULL);
  g_autoptr (GArray) ranking = expected_ranking (server, dir, QUERY);
  g_autoptr (GArray) other_ranking = expected_ranking (server, dir, "Who makes phones?");

  /* First run: every text is embedded and kept next to the documents. */
  {
    g_autoptr (GrammarRetriever) retriever = build_retriever (dir, server->url, "documents=docs.jsonl\ntop-k=3\n");
    g_autoptr (GPtrArray) hits = retrieve (retriever, QUERY, 0);

    assert_hits (hits, ranking, 3);
    g_assert_cmpint (embedding_requests (server), ==, 1 + 1);
    g_assert_true (g_file_test (cache, G_FILE_TEST_IS_REGULAR));
  }
  reset_stats (server);

  /* Second run: not one request for a text seen before, the query included. */
  {
    g_autoptr (GrammarRetriever) retriever = build_retriever (dir, server->url, "documents=docs.jsonl\ntop-k=3\n");
    g_autoptr (GPtrArray) hits = retrieve (retriever, QUERY, 0);
    g_autoptr (GPtrArray) other = NULL;

    assert_hits (hits, ranking, 3);
    g_assert_cmpint (embedding_requests (server), ==, 0);
    other = retrieve (retriever, "Who makes phones?", 0);
    assert_hits (other, other_ranking, 3);
    g_assert_cmpint (embedding_requests (server), ==, 1);
  }
  reset_stats (server);

  /* Another model's vectors are not taken from the cache. */
  {
    g_autofree char *data = g_strdup_printf ("[embedder]\nplugin=openai\nbase-url=%s\nmodel=other-model\n"
                                             "api-key-env=\ncache=\n\n"
                                             "[retriever]\nplugin=dense\nembedder=embedder\ndocuments=docs.jsonl\n",
                                             server->url);
    g_autoptr (GrammarConfig) config = grammar_config_new_from_data (data, -1, dir, NULL);
    g_autoptr (GError) error = NULL;
    g_autoptr (GObject) retriever = grammar_config_build (config, "retriever", GRAMMAR_TYPE_RETRIEVER, &error);
    g_autoptr (GPtrArray) hits = NULL;

    g_assert_no_error (error);
    hits = retrieve (GRAMMAR_RETRIEVER (retriever), QUERY, 0);
    g_assert_cmpuint (hits->len, ==, 1);
    g_assert_cmpint (embedding_requests (server), ==, 1 + 1);
  }
  reset_stats (server);

  /* cache=none: every run embeds everything, and writes no file. */
  for (guint run = 0; run < 2; run++)
    {
      g_autoptr (GrammarRetriever) retriever =
        build_retriever (dir, server->url, "documents=docs.jsonl\ncache=none\nbatch-size=5\n");
      g_autoptr (GPtrArray) hits = retrieve (retriever, QUERY, 3);

      assert_hits (hits, ranking, 3);
      g_assert_cmpint (embedding_requests (server), ==, 2 * (run + 1));
    }
  g_assert_false (g_file_test (none, G_FILE_TEST_EXISTS));
  reset_stats (server);

  /* An explicit cache file. */
  {
    g_autofree char *explicit = g_build_filename (dir, "sub", "vectors.db", NULL);
    g_autoptr (GrammarRetriever) retriever = NULL;
    g_autoptr (GPtrArray) hits = NULL;

    g_autofree char *sub = g_build_filename (dir, "sub", NULL);

    g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
    retriever = build_retriever (dir, server->url, "documents=docs.jsonl\ncache=sub/vectors.db\n");
    hits = retrieve (retriever, QUERY, 3);
    assert_hits (hits, ranking, 3);
    g_assert_true (g_file_test (explicit, G_FILE_TEST_IS_REGULAR));
  }
  server_stop (server);
}

/* ---- asynchronous use: several retrievals before the corpus is embedded ---- */

typedef struct
{
  GMainLoop *loop;
  GPtrArray *hits[3];
  guint pending;
} Async;

typedef struct
{
  Async *async;
  guint slot;
} Slot;

static void
on_retrieved (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Slot *slot = user_data;
  g_autoptr (GError) error = NULL;

  slot->async->hits[slot->slot] = grammar_retriever_retrieve_finish (GRAMMAR_RETRIEVER (source), result, &error);
  g_assert_no_error (error);
  if (--slot->async->pending == 0)
    g_main_loop_quit (slot->async->loop);
}

static void
test_async (void)
{
  const char * const args[] = { "--latency-ms", "20", NULL };
  Server *server = server_start (args);
  g_autofree char *dir = test_dir ("async");
  g_autofree char *docs = write_corpus (dir);
  const char *queries[3] = { QUERY, "Who makes phones?", "Where is Raccoon City?" };
  GArray *rankings[3];
  g_autoptr (GrammarRetriever) retriever =
    build_retriever (dir, server->url, "documents=docs.jsonl\ntop-k=2\nbatch-size=1\ncache=none\n");
  Async async = { g_main_loop_new (NULL, FALSE), { NULL }, 3 };
  Slot slots[3];

  for (guint i = 0; i < 3; i++)
    rankings[i] = expected_ranking (server, dir, queries[i]);
  for (guint i = 0; i < 3; i++)
    {
      slots[i] = (Slot) { &async, i };
      grammar_retriever_retrieve_async (retriever, queries[i], 0, NULL, on_retrieved, &slots[i]);
    }
  g_main_loop_run (async.loop);

  for (guint i = 0; i < 3; i++)
    {
      assert_hits (async.hits[i], rankings[i], 2);
      g_ptr_array_unref (async.hits[i]);
      g_array_unref (rankings[i]);
    }
  /* The corpus was embedded once, one text a request; then each query. */
  g_assert_cmpint (embedding_requests (server), ==, N_TEXTS + 3);
  g_main_loop_unref (async.loop);
  server_stop (server);
}

/* index() replaces the corpus; duplicate ids are refused. */
static void
test_index (void)
{
  const char * const args[] = { NULL };
  Server *server = server_start (args);
  g_autofree char *dir = test_dir ("index");
  g_autoptr (GArray) ranking = expected_ranking (server, dir, QUERY);
  g_autoptr (GrammarRetriever) retriever = build_retriever (dir, server->url, "top-k=10\nbatch-size=4\n");
  g_autoptr (GPtrArray) documents = corpus_documents ();
  g_autoptr (GPtrArray) empty = NULL;
  g_autoptr (GPtrArray) hits = NULL;
  g_autoptr (GPtrArray) duplicate = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GError) error = NULL;
  guint n_documents = 99;

  /* No documents yet: no hits, no request. */
  empty = retrieve (retriever, QUERY, 0);
  g_assert_cmpuint (empty->len, ==, 0);
  g_assert_cmpint (embedding_requests (server), ==, 0);

  g_assert_true (grammar_retriever_index (retriever, documents, NULL, &error));
  g_assert_no_error (error);
  g_object_get (retriever, "n-documents", &n_documents, NULL);
  g_assert_cmpuint (n_documents, ==, N_DOCS);
  /* index() embeds at once: five texts in batches of four. */
  g_assert_cmpint (embedding_requests (server), ==, 2);
  hits = retrieve (retriever, QUERY, 0);
  assert_hits (hits, ranking, N_DOCS);

  g_ptr_array_add (duplicate, grammar_document_new ("a", NULL, "one"));
  g_ptr_array_add (duplicate, grammar_document_new ("a", NULL, "two"));
  g_assert_false (grammar_retriever_index (retriever, duplicate, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "duplicate id “a”");
  g_clear_error (&error);

  /* The second corpus replaces the first. */
  g_ptr_array_set_size (duplicate, 1);
  g_assert_true (grammar_retriever_index (retriever, duplicate, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&hits, g_ptr_array_unref);
  hits = retrieve (retriever, QUERY, 0);
  g_assert_cmpuint (hits->len, ==, 1);
  g_assert_cmpstr (grammar_hit_get_document_id (g_ptr_array_index (hits, 0)), ==, "a");
  server_stop (server);
}

/* An embedder that fails gives an error that says where, every time. */
static void
test_embedder_errors (void)
{
  const char * const args[] = { "--fault-rate", "1", "--faults", "500", NULL };
  Server *server = server_start (args);
  g_autofree char *dir = test_dir ("errors");
  g_autofree char *docs = write_corpus (dir);
  g_autoptr (GrammarRetriever) failing = build_retriever (dir, server->url, "documents=docs.jsonl\ncache=none\n");
  g_autoptr (GrammarRetriever) extractive =
    build_retriever (dir, server->url, "documents=docs.jsonl\ncache=none\n"
                                       "embedder=reader\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) hits = NULL;
  g_autofree char *where = g_strdup_printf ("dense: embedding the documents of %s (texts 1 to 5 of 5): ", docs);

  hits = grammar_retriever_retrieve (failing, QUERY, 0, NULL, &error);
  g_assert_null (hits);
  /* a 500 after the retries: the server is unavailable, and the code says so through the retriever */
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE);
  g_assert_true (g_str_has_prefix (error->message, where));
  grammar_test_assert_contains (error->message, "embeddings failed after 1 attempt");
  grammar_test_assert_contains (error->message, "injected fault");
  g_clear_error (&error);
  g_assert_cmpint (embedding_requests (server), ==, 1);

  /* The failure is kept: the next query fails alike, without a request. */
  hits = grammar_retriever_retrieve (failing, "another query", 0, NULL, &error);
  g_assert_null (hits);
  g_assert_true (g_str_has_prefix (error->message, where));
  g_clear_error (&error);
  g_assert_cmpint (embedding_requests (server), ==, 1);

  /* A language model without embeddings. */
  hits = grammar_retriever_retrieve (extractive, QUERY, 0, NULL, &error);
  g_assert_null (hits);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, where));
  grammar_test_assert_contains (error->message, "the extractive reader computes no embeddings");
  server_stop (server);
}

static void
test_config_errors (void)
{
  g_autofree char *dir = test_dir ("config");
  g_autofree char *docs = write_corpus (dir);
  g_autofree char *bad = grammar_test_write_file (dir, "bad.jsonl", "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": 1\n");
  const struct
  {
    const char *extra;
    const char *message;
  } cases[] = {
    { "embedder=\n", "embedder is required" },
    { "documents=missing.jsonl\n", "missing.jsonl" },
    { "documents=bad.jsonl\n", "bad.jsonl:2:" },
    { "batch-size=0\n", "batch-size" },
    { "top-k=0\n", "top-k" },
    { "documents=docs.jsonl\ncache=no-such-folder/vectors.sqlite\n", "cache: " },
    { "embedder=nowhere\n", "nowhere" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GObject) retriever = build_full (dir, "http://127.0.0.1:9/v1", cases[i].extra, "retriever",
                                                  GRAMMAR_TYPE_RETRIEVER, &error);

      g_assert_null (retriever);
      g_assert_nonnull (error);
      g_assert_true (grammar_error_is_input_error (error));
      grammar_test_assert_contains (error->message, cases[i].message);
    }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("test-dense-XXXXXX");

  g_test_add_func ("/dense/ranking", test_ranking);
  g_test_add_func ("/dense/cache", test_cache);
  g_test_add_func ("/dense/async", test_async);
  g_test_add_func ("/dense/index", test_index);
  g_test_add_func ("/dense/embedder-errors", test_embedder_errors);
  g_test_add_func ("/dense/config-errors", test_config_errors);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
