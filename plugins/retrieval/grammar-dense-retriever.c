/* grammar-dense-retriever.c: ranks documents by the cosine of their embeddings
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-dense-retriever.h"
#include "grammar-retrieval-util.h"

#include <math.h>
#include <string.h>

#include <sqlite3.h>

/**
 * GrammarDenseRetriever:
 *
 * The `dense` retriever: documents and queries are turned into vectors
 * by the language model of the #GrammarDenseRetriever:embedder property
 * (grammar_llm_embed_async()), and a query's hits are the documents of
 * highest cosine similarity, ties going to the document that comes
 * first in the corpus. A hit's score is the cosine, from -1 to 1.
 *
 * What is embedded for a document is its title and its text, separated
 * by a line break (only the text with #GrammarDenseRetriever:index-title
 * off, or without a title); the hit's text is the document's text.
 *
 * Documents are embedded lazily, on the first retrieval (or by
 * grammar_retriever_index()), in requests of at most
 * #GrammarDenseRetriever:batch-size distinct texts, all sent at once:
 * the embedder's own queue decides how many are in flight. A failure is
 * kept: later retrievals fail with the same error until index() is
 * called again.
 *
 * Vectors are cached in an SQLite file (#GrammarDenseRetriever:cache),
 * keyed by the SHA-256 of the text and the embedder's identity (its type
 * and its `embedding-model` or `model` property), so that a second run
 * sends no request for the texts it has seen, queries included.
 *
 * grammar_retriever_index() replaces the corpus, as the `keyword` and
 * `bm25` retrievers do.
 */

#define DEFAULT_BATCH_SIZE 64
#define CACHE_SUFFIX ".vectors.sqlite"

/* ---- the vector cache ---- */

typedef struct
{
  char *path;
  sqlite3 *db;
  sqlite3_stmt *lookup;
  sqlite3_stmt *store;
} VectorCache;

static void
vector_cache_free (VectorCache *cache)
{
  sqlite3_finalize (cache->lookup);
  sqlite3_finalize (cache->store);
  sqlite3_close (cache->db);
  g_free (cache->path);
  g_free (cache);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VectorCache, vector_cache_free)

static gboolean
cache_failed (VectorCache  *cache,
              const char   *what,
              GError      **error)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s: %s", cache->path, what,
               sqlite3_errmsg (cache->db));
  return FALSE;
}

static VectorCache *
vector_cache_open (const char  *path,
                   GError     **error)
{
  g_autoptr (VectorCache) cache = g_new0 (VectorCache, 1);

  cache->path = g_strdup (path);
  if (sqlite3_open_v2 (path, &cache->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    {
      cache_failed (cache, "cannot open", error);
      return NULL;
    }
  sqlite3_busy_timeout (cache->db, 10000);
  /* WAL: runs sharing the file read while another one writes. */
  if (sqlite3_exec (cache->db,
                    "PRAGMA journal_mode = WAL;"
                    "CREATE TABLE IF NOT EXISTS grammar_vectors ("
                    "  embedder TEXT NOT NULL,"
                    "  sha256 TEXT NOT NULL,"
                    "  dimension INTEGER NOT NULL,"
                    "  vector BLOB NOT NULL,"
                    "  PRIMARY KEY (embedder, sha256)) WITHOUT ROWID;",
                    NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (cache->db,
                          "SELECT dimension, vector FROM grammar_vectors WHERE embedder = ?1 AND sha256 = ?2",
                          -1, &cache->lookup, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (cache->db,
                          "INSERT OR REPLACE INTO grammar_vectors (embedder, sha256, dimension, vector) "
                          "VALUES (?1, ?2, ?3, ?4)",
                          -1, &cache->store, NULL) != SQLITE_OK)
    {
      cache_failed (cache, "not a vector cache", error);
      return NULL;
    }
  return g_steal_pointer (&cache);
}

/* Vectors are stored as little-endian 32-bit floats, whatever the host. */
static float *
vector_cache_lookup (VectorCache *cache,
                     const char  *embedder,
                     const char  *key,
                     guint       *dimension)
{
  float *vector = NULL;

  sqlite3_bind_text (cache->lookup, 1, embedder, -1, SQLITE_STATIC);
  sqlite3_bind_text (cache->lookup, 2, key, -1, SQLITE_STATIC);
  if (sqlite3_step (cache->lookup) == SQLITE_ROW)
    {
      sqlite3_int64 n = sqlite3_column_int64 (cache->lookup, 0);
      const guint32 *data = sqlite3_column_blob (cache->lookup, 1);

      if (n > 0 && n <= G_MAXINT / 4 && sqlite3_column_bytes (cache->lookup, 1) == n * 4)
        {
          vector = g_new (float, n);
          for (sqlite3_int64 i = 0; i < n; i++)
            {
              guint32 bits = GUINT32_FROM_LE (data[i]);

              memcpy (&vector[i], &bits, sizeof bits);
            }
          *dimension = (guint) n;
        }
    }
  sqlite3_reset (cache->lookup);
  sqlite3_clear_bindings (cache->lookup);
  return vector;
}

static gboolean
store_one (VectorCache *cache,
           const char  *embedder,
           const char  *key,
           const float *vector,
           guint        dimension)
{
  g_autofree guint32 *data = g_new (guint32, dimension);
  gboolean stored;

  for (guint i = 0; i < dimension; i++)
    {
      guint32 bits;

      memcpy (&bits, &vector[i], sizeof bits);
      data[i] = GUINT32_TO_LE (bits);
    }
  sqlite3_bind_text (cache->store, 1, embedder, -1, SQLITE_STATIC);
  sqlite3_bind_text (cache->store, 2, key, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (cache->store, 3, dimension);
  sqlite3_bind_blob (cache->store, 4, data, (int) (dimension * sizeof (guint32)), SQLITE_STATIC);
  stored = sqlite3_step (cache->store) == SQLITE_DONE;
  sqlite3_reset (cache->store);
  sqlite3_clear_bindings (cache->store);
  return stored;
}

/* Stores vector i of @embeddings under keys[first + i], in one transaction. */
static gboolean
vector_cache_store (VectorCache        *cache,
                    const char         *embedder,
                    GPtrArray          *keys,
                    guint               first,
                    GrammarEmbeddings  *embeddings,
                    GError            **error)
{
  if (sqlite3_exec (cache->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return cache_failed (cache, "cannot write", error);
  for (guint i = 0; i < grammar_embeddings_get_n_vectors (embeddings); i++)
    {
      guint dimension = 0;
      const float *vector = grammar_embeddings_get_vector (embeddings, i, &dimension);

      if (!store_one (cache, embedder, g_ptr_array_index (keys, first + i), vector, dimension))
        {
          cache_failed (cache, "cannot write", error);
          sqlite3_exec (cache->db, "ROLLBACK", NULL, NULL, NULL);
          return FALSE;
        }
    }
  if (sqlite3_exec (cache->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
    {
      cache_failed (cache, "cannot write", error);
      sqlite3_exec (cache->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  return TRUE;
}

/* ---- vectors ---- */

static char *
text_key (const char *text)
{
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
}

/* A copy of @vector of length 1 (all zeros when it has no length), so
 * that a cosine is a dot product. */
static float *
unit_vector (const float *vector,
             guint        dimension)
{
  float *unit = g_new (float, dimension);
  double norm = 0;

  for (guint i = 0; i < dimension; i++)
    norm += (double) vector[i] * vector[i];
  norm = sqrt (norm);
  for (guint i = 0; i < dimension; i++)
    unit[i] = norm > 0 && isfinite (norm) ? (float) (vector[i] / norm) : 0.0f;
  return unit;
}

static double
dot (const float *a,
     const float *b,
     guint        dimension)
{
  double sum = 0;

  for (guint i = 0; i < dimension; i++)
    sum += (double) a[i] * b[i];
  return sum;
}

/* ---- the corpus and its vectors ---- */

typedef enum
{
  CORPUS_NEW,
  CORPUS_EMBEDDING,
  CORPUS_READY,
  CORPUS_FAILED,
} CorpusState;

/* One set of documents and, once embedded, their vectors. index()
 * replaces the retriever's corpus; one being embedded lives on, through
 * the references of its requests, until they are done. */
typedef struct
{
  CorpusState state;
  GPtrArray *documents;     /* of GrammarDocument, in corpus order */
  char *origin;             /* where they come from, for messages */
  GPtrArray *rows;          /* float *, unit length, one per document */
  guint dimension;          /* 0 until the first vector */
  GError *error;            /* CORPUS_FAILED */
  GPtrArray *waiters;       /* GTask *, resumed when embedded */

  /* while embedding */
  GPtrArray *texts;         /* the distinct texts not in the cache */
  GPtrArray *keys;          /* their cache keys */
  GPtrArray *targets;       /* GArray of guint: the documents of each text */
  guint pending;            /* requests in flight, plus one while sending */
  GCancellable *cancellable;
  GCancellable *caller_cancellable;  /* index()'s, which cancels ours */
  gulong cancelled_id;
} Corpus;

static void
corpus_clear_work (Corpus *corpus)
{
  g_clear_pointer (&corpus->texts, g_ptr_array_unref);
  g_clear_pointer (&corpus->keys, g_ptr_array_unref);
  g_clear_pointer (&corpus->targets, g_ptr_array_unref);
  if (corpus->caller_cancellable != NULL)
    g_cancellable_disconnect (corpus->caller_cancellable, corpus->cancelled_id);
  g_clear_object (&corpus->caller_cancellable);
  g_clear_object (&corpus->cancellable);
}

static void
on_caller_cancelled (GCancellable *caller_cancellable,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static void
corpus_clear (Corpus *corpus)
{
  corpus_clear_work (corpus);
  g_ptr_array_unref (corpus->documents);
  g_free (corpus->origin);
  g_ptr_array_unref (corpus->rows);
  g_clear_error (&corpus->error);
  g_ptr_array_unref (corpus->waiters);
}

static Corpus *
corpus_new (GPtrArray  *documents,
            const char *origin)
{
  Corpus *corpus = g_rc_box_new0 (Corpus);

  corpus->documents = documents;
  corpus->origin = g_strdup (origin);
  corpus->rows = g_ptr_array_new_with_free_func (g_free);
  corpus->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  return corpus;
}

static Corpus *
corpus_ref (Corpus *corpus)
{
  return g_rc_box_acquire (corpus);
}

static void
corpus_unref (Corpus *corpus)
{
  g_rc_box_release_full (corpus, (GDestroyNotify) corpus_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Corpus, corpus_unref)

/* Keeps the first error of an embedding, with where it happened, and
 * stops the other requests. */
static void
corpus_fail (Corpus *corpus,
             GError *error)
{
  if (corpus->error == NULL)
    corpus->error = g_error_copy (error);
  if (corpus->cancellable != NULL)
    g_cancellable_cancel (corpus->cancellable);
}

/* Gives @vector, made unit length, to the documents @targets. */
static gboolean
corpus_set_rows (Corpus       *corpus,
                 GArray       *targets,
                 const float  *vector,
                 guint         dimension,
                 GError      **error)
{
  if (dimension == 0 || (corpus->dimension != 0 && dimension != corpus->dimension))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "dense: vectors of %u and of %u dimensions; does the cache hold another model's "
                   "vectors under the same name? (delete it, or set cache=none)",
                   corpus->dimension, dimension);
      return FALSE;
    }
  corpus->dimension = dimension;
  for (guint i = 0; i < targets->len; i++)
    {
      guint document = g_array_index (targets, guint, i);

      g_free (corpus->rows->pdata[document]);
      corpus->rows->pdata[document] = unit_vector (vector, dimension);
    }
  return TRUE;
}

/* ---- the retriever ---- */

struct _GrammarDenseRetriever
{
  GObject parent_instance;

  /* settings */
  char *documents_path;
  guint top_k;
  GrammarLlm *embedder;
  char *cache_path;
  guint batch_size;
  gboolean index_title;

  /* state */
  char *identity;           /* the embedder's, part of every cache key */
  VectorCache *cache;       /* NULL: no cache */
  Corpus *corpus;
};

enum
{
  PROP_0,
  PROP_DOCUMENTS,
  PROP_TOP_K,
  PROP_EMBEDDER,
  PROP_CACHE,
  PROP_BATCH_SIZE,
  PROP_INDEX_TITLE,
  PROP_N_DOCUMENTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_dense_retriever_retriever_iface_init (GrammarRetrieverInterface *iface);
static void grammar_dense_retriever_initable_iface_init  (GInitableIface            *iface);

static void grammar_dense_retriever_index_async (GrammarRetriever    *retriever,
                                                 GPtrArray           *documents,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarDenseRetriever, grammar_dense_retriever, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_RETRIEVER,
                                                               grammar_dense_retriever_retriever_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_dense_retriever_initable_iface_init))

static gboolean
is_set (const char *text)
{
  return text != NULL && text[0] != '\0';
}

static void resume (GrammarDenseRetriever *self,
                    Corpus                *corpus,
                    GTask                 *task);

/* ---- embedding the corpus ---- */

/* One embeddings request: texts [first, first + n) of the corpus. */
typedef struct
{
  GrammarDenseRetriever *self;
  Corpus *corpus;
  guint first;
  guint n;
  const char **texts;
} Batch;

static void
batch_free (Batch *batch)
{
  g_object_unref (batch->self);
  corpus_unref (batch->corpus);
  g_free (batch->texts);
  g_free (batch);
}

static void
corpus_finish (GrammarDenseRetriever *self,
               Corpus                *corpus)
{
  g_autoptr (GPtrArray) waiters = g_steal_pointer (&corpus->waiters);

  corpus->state = corpus->error != NULL ? CORPUS_FAILED : CORPUS_READY;
  corpus->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  corpus_clear_work (corpus);
  for (guint i = 0; i < waiters->len; i++)
    resume (self, corpus, g_ptr_array_index (waiters, i));
}

static void
corpus_request_done (GrammarDenseRetriever *self,
                     Corpus                *corpus)
{
  if (--corpus->pending == 0)
    corpus_finish (self, corpus);
}

static gboolean
take_batch (Batch              *batch,
            GrammarEmbeddings  *embeddings,
            GError            **error)
{
  GrammarDenseRetriever *self = batch->self;
  Corpus *corpus = batch->corpus;
  g_autoptr (GError) cache_error = NULL;

  if (grammar_embeddings_get_n_vectors (embeddings) != batch->n)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the embedder returned %u vectors for %u texts",
                   grammar_embeddings_get_n_vectors (embeddings), batch->n);
      return FALSE;
    }
  for (guint i = 0; i < batch->n; i++)
    {
      guint dimension = 0;
      const float *vector = grammar_embeddings_get_vector (embeddings, i, &dimension);

      if (!corpus_set_rows (corpus, g_ptr_array_index (corpus->targets, batch->first + i), vector, dimension, error))
        return FALSE;
    }
  /* A cache that cannot be written costs the next run requests, not this one its results. */
  if (self->cache != NULL &&
      !vector_cache_store (self->cache, self->identity, corpus->keys, batch->first, embeddings, &cache_error))
    g_warning ("dense: %s", cache_error->message);
  return TRUE;
}

static void
on_batch_embedded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Batch *batch = user_data;
  Corpus *corpus = batch->corpus;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarEmbeddings) embeddings = grammar_llm_embed_finish (GRAMMAR_LLM (source), result, &error);

  if (embeddings != NULL && corpus->error == NULL)
    take_batch (batch, embeddings, &error);
  if (error != NULL)
    {
      g_prefix_error (&error, "dense: embedding the documents of %s (texts %u to %u of %u): ", corpus->origin,
                      batch->first + 1, batch->first + batch->n, corpus->texts->len);
      corpus_fail (corpus, error);
    }
  corpus_request_done (batch->self, corpus);
  batch_free (batch);
}

static void
send_batch (GrammarDenseRetriever *self,
            Corpus                *corpus,
            guint                  first)
{
  Batch *batch = g_new0 (Batch, 1);

  batch->self = g_object_ref (self);
  batch->corpus = corpus_ref (corpus);
  batch->first = first;
  batch->n = MIN (self->batch_size, corpus->texts->len - first);
  batch->texts = g_new0 (const char *, batch->n + 1);
  for (guint i = 0; i < batch->n; i++)
    batch->texts[i] = g_ptr_array_index (corpus->texts, first + i);
  corpus->pending++;
  grammar_llm_embed_async (self->embedder, batch->texts, corpus->cancellable, on_batch_embedded, batch);
}

/* Finds the vector of document @index in the cache, or puts its text in
 * the list to embed (once per distinct text: @slots maps a key to its
 * place in that list, plus one). */
static gboolean
plan_document (GrammarDenseRetriever  *self,
               Corpus                 *corpus,
               GHashTable             *slots,
               guint                   index,
               GError                **error)
{
  g_autofree char *text = grammar_retrieval_document_words (g_ptr_array_index (corpus->documents, index),
                                                            self->index_title);
  g_autofree char *key = text_key (text);
  guint slot = GPOINTER_TO_UINT (g_hash_table_lookup (slots, key));
  g_autofree float *vector = NULL;
  guint dimension = 0;
  GArray *targets;

  if (slot == 0 && self->cache != NULL &&
      (vector = vector_cache_lookup (self->cache, self->identity, key, &dimension)) != NULL)
    {
      g_autoptr (GArray) one = g_array_new (FALSE, FALSE, sizeof (guint));

      g_array_append_val (one, index);
      return corpus_set_rows (corpus, one, vector, dimension, error);
    }
  if (slot == 0)
    {
      g_ptr_array_add (corpus->texts, g_steal_pointer (&text));
      g_ptr_array_add (corpus->targets, g_array_new (FALSE, FALSE, sizeof (guint)));
      g_hash_table_insert (slots, key, GUINT_TO_POINTER (corpus->texts->len));
      g_ptr_array_add (corpus->keys, g_steal_pointer (&key));
      slot = corpus->texts->len;
    }
  targets = g_ptr_array_index (corpus->targets, slot - 1);
  g_array_append_val (targets, index);
  return TRUE;
}

static void
corpus_start (GrammarDenseRetriever *self,
              Corpus                *corpus)
{
  g_autoptr (GHashTable) slots = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GError) error = NULL;

  corpus->state = CORPUS_EMBEDDING;
  corpus->texts = g_ptr_array_new_with_free_func (g_free);
  corpus->keys = g_ptr_array_new_with_free_func (g_free);
  corpus->targets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  if (corpus->cancellable == NULL)
    corpus->cancellable = g_cancellable_new ();
  g_ptr_array_set_size (corpus->rows, corpus->documents->len);

  for (guint i = 0; i < corpus->documents->len && error == NULL; i++)
    plan_document (self, corpus, slots, i, &error);
  if (error != NULL)
    corpus_fail (corpus, error);

  /* Held while sending, so that no reply can finish the corpus early. */
  corpus->pending = 1;
  for (guint first = 0; error == NULL && first < corpus->texts->len; first += self->batch_size)
    send_batch (self, corpus, first);
  corpus_request_done (self, corpus);
}

/* Resumes @task once @corpus is embedded, starting that if needed. */
static void
corpus_wait (GrammarDenseRetriever *self,
             Corpus                *corpus,
             GTask                 *task)
{
  switch (corpus->state)
    {
    case CORPUS_READY:
    case CORPUS_FAILED:
      resume (self, corpus, task);
      break;
    case CORPUS_NEW:
      g_ptr_array_add (corpus->waiters, g_object_ref (task));
      corpus_start (self, corpus);
      break;
    case CORPUS_EMBEDDING:
      g_ptr_array_add (corpus->waiters, g_object_ref (task));
      break;
    }
}

/* ---- retrieval ---- */

typedef struct
{
  char *query;
  guint top_k;
  Corpus *corpus;
  char *key;
} RetrieveOp;

static void
retrieve_op_free (RetrieveOp *op)
{
  g_free (op->query);
  g_clear_pointer (&op->corpus, corpus_unref);
  g_free (op->key);
  g_free (op);
}

typedef struct
{
  guint document;
  double score;
} Scored;

/* Inserts @scored into @top, best first, keeping at most @top_k. The
 * documents come in corpus order, so only a strictly better score goes
 * before another: ties stay in corpus order. */
static void
insert_top (GArray       *top,
            const Scored *scored,
            guint         top_k)
{
  guint at = top->len;

  while (at > 0 && g_array_index (top, Scored, at - 1).score < scored->score)
    at--;
  if (at >= top_k)
    return;
  g_array_insert_val (top, at, *scored);
  if (top->len > top_k)
    g_array_set_size (top, top_k);
}

static GPtrArray *
rank (Corpus      *corpus,
      const float *query,
      guint        top_k)
{
  GPtrArray *hits = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GArray) top = g_array_sized_new (FALSE, FALSE, sizeof (Scored), MIN (top_k, corpus->documents->len) + 1);

  for (guint i = 0; i < corpus->documents->len; i++)
    {
      Scored scored = { i, dot (g_ptr_array_index (corpus->rows, i), query, corpus->dimension) };

      insert_top (top, &scored, top_k);
    }
  for (guint i = 0; i < top->len; i++)
    {
      const Scored *scored = &g_array_index (top, Scored, i);
      GrammarDocument *document = g_ptr_array_index (corpus->documents, scored->document);

      g_ptr_array_add (hits, grammar_hit_new (grammar_document_get_id (document), scored->score,
                                              grammar_document_get_text (document)));
    }
  return hits;
}

static void
return_ranked (GTask       *task,
               const float *vector,
               guint        dimension)
{
  RetrieveOp *op = g_task_get_task_data (task);
  g_autofree float *unit = NULL;

  if (dimension != op->corpus->dimension)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "dense: the query's vector has %u dimensions, the documents' %u", dimension,
                               op->corpus->dimension);
      return;
    }
  unit = unit_vector (vector, dimension);
  g_task_return_pointer (task, rank (op->corpus, unit, op->top_k), (GDestroyNotify) g_ptr_array_unref);
}

static void
on_query_embedded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarDenseRetriever *self = g_task_get_source_object (task);
  RetrieveOp *op = g_task_get_task_data (task);
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarEmbeddings) embeddings = grammar_llm_embed_finish (GRAMMAR_LLM (source), result, &error);
  g_autoptr (GPtrArray) keys = NULL;
  const float *vector;
  guint dimension = 0;

  if (embeddings == NULL)
    {
      g_prefix_error (&error, "dense: embedding the query: ");
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (grammar_embeddings_get_n_vectors (embeddings) != 1)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "dense: embedding the query: the embedder returned %u vectors for one text",
                               grammar_embeddings_get_n_vectors (embeddings));
      return;
    }
  vector = grammar_embeddings_get_vector (embeddings, 0, &dimension);
  keys = g_ptr_array_new ();
  g_ptr_array_add (keys, op->key);
  if (self->cache != NULL && !vector_cache_store (self->cache, self->identity, keys, 0, embeddings, &error))
    g_warning ("dense: %s", error->message);
  return_ranked (task, vector, dimension);
}

static void
resume_retrieve (GrammarDenseRetriever *self,
                 Corpus                *corpus,
                 GTask                 *task)
{
  RetrieveOp *op = g_task_get_task_data (task);
  const char *texts[] = { op->query, NULL };
  g_autofree float *vector = NULL;
  guint dimension = 0;

  if (corpus->state == CORPUS_FAILED)
    {
      g_task_return_error (task, g_error_copy (corpus->error));
      return;
    }
  if (corpus->documents->len == 0)
    {
      g_task_return_pointer (task, g_ptr_array_new_with_free_func (g_object_unref),
                             (GDestroyNotify) g_ptr_array_unref);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  op->key = text_key (op->query);
  if (self->cache != NULL && (vector = vector_cache_lookup (self->cache, self->identity, op->key, &dimension)) != NULL)
    {
      return_ranked (task, vector, dimension);
      return;
    }
  grammar_llm_embed_async (self->embedder, texts, g_task_get_cancellable (task), on_query_embedded,
                           g_object_ref (task));
}

static void
resume (GrammarDenseRetriever *self,
        Corpus                *corpus,
        GTask                 *task)
{
  if (g_task_get_source_tag (task) != grammar_dense_retriever_index_async)
    resume_retrieve (self, corpus, task);
  else if (corpus->state == CORPUS_FAILED)
    g_task_return_error (task, g_error_copy (corpus->error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
grammar_dense_retriever_retrieve_async (GrammarRetriever    *retriever,
                                        const char          *query,
                                        guint                top_k,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  GrammarDenseRetriever *self = GRAMMAR_DENSE_RETRIEVER (retriever);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  RetrieveOp *op = g_new0 (RetrieveOp, 1);

  g_task_set_source_tag (task, grammar_dense_retriever_retrieve_async);
  g_task_set_task_data (task, op, (GDestroyNotify) retrieve_op_free);
  if (self->corpus == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "dense: the retriever was not initialised (g_initable_init())");
      return;
    }
  op->query = g_strdup (query);
  op->top_k = top_k > 0 ? top_k : self->top_k;
  op->corpus = corpus_ref (self->corpus);
  corpus_wait (self, op->corpus, task);
}

static GPtrArray *
grammar_dense_retriever_retrieve_finish (GrammarRetriever  *retriever,
                                         GAsyncResult      *result,
                                         GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, retriever), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- indexing ---- */

static void
grammar_dense_retriever_index_async (GrammarRetriever    *retriever,
                                     GPtrArray           *documents,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  GrammarDenseRetriever *self = GRAMMAR_DENSE_RETRIEVER (retriever);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (Corpus) corpus = NULL;
  GError *error = NULL;

  g_task_set_source_tag (task, grammar_dense_retriever_index_async);
  if (self->corpus == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "dense: the retriever was not initialised (g_initable_init())");
      return;
    }
  if (!grammar_retrieval_check_ids (documents, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  corpus = corpus_new (grammar_retrieval_copy_documents (documents), "the indexed documents");
  /* Cancelling the indexing stops it: the corpus then fails, as any
   * corpus whose embedding did not finish. */
  corpus->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      corpus->caller_cancellable = g_object_ref (cancellable);
      corpus->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                    g_object_ref (corpus->cancellable), g_object_unref);
    }
  g_clear_pointer (&self->corpus, corpus_unref);
  self->corpus = corpus_ref (corpus);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DOCUMENTS]);
  corpus_wait (self, corpus, task);
}

static gboolean
grammar_dense_retriever_index_finish (GrammarRetriever  *retriever,
                                      GAsyncResult      *result,
                                      GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, retriever), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
grammar_dense_retriever_retriever_iface_init (GrammarRetrieverInterface *iface)
{
  iface->index_async = grammar_dense_retriever_index_async;
  iface->index_finish = grammar_dense_retriever_index_finish;
  iface->retrieve_async = grammar_dense_retriever_retrieve_async;
  iface->retrieve_finish = grammar_dense_retriever_retrieve_finish;
}

/* ---- set-up ---- */

/* The embedder's type and model name: vectors of another model are
 * never taken from the cache. */
static char *
embedder_identity (GrammarLlm *embedder)
{
  const char * const names[] = { "embedding-model", "model" };
  GObjectClass *klass = G_OBJECT_GET_CLASS (embedder);

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GParamSpec *pspec = g_object_class_find_property (klass, names[i]);
      g_autofree char *model = NULL;

      if (pspec == NULL || pspec->value_type != G_TYPE_STRING || (pspec->flags & G_PARAM_READABLE) == 0)
        continue;
      g_object_get (embedder, names[i], &model, NULL);
      if (is_set (model))
        return g_strdup_printf ("%s:%s", G_OBJECT_TYPE_NAME (embedder), model);
    }
  return g_strdup (G_OBJECT_TYPE_NAME (embedder));
}

/* The cache file: cache= if given (empty: none), else next to the
 * documents file, else none. */
static char *
cache_file (GrammarDenseRetriever *self)
{
  if (self->cache_path != NULL)
    return is_set (self->cache_path) ? g_strdup (self->cache_path) : NULL;
  if (is_set (self->documents_path))
    return g_strconcat (self->documents_path, CACHE_SUFFIX, NULL);
  return NULL;
}

static gboolean
grammar_dense_retriever_initable_init (GInitable     *initable,
                                       GCancellable  *cancellable,
                                       GError       **error)
{
  GrammarDenseRetriever *self = GRAMMAR_DENSE_RETRIEVER (initable);
  g_autoptr (GError) local_error = NULL;
  g_autofree char *cache_path = NULL;
  GPtrArray *documents;

  if (self->embedder == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "embedder is required: the name of a section with a language model that computes "
                   "embeddings (e.g. embedder=embedder, and an [embedder] section with plugin=openai)");
      return FALSE;
    }
  self->identity = embedder_identity (self->embedder);

  if ((cache_path = cache_file (self)) != NULL)
    {
      self->cache = vector_cache_open (cache_path, &local_error);
      if (self->cache == NULL)
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "cache: %s (set cache=none to turn the vector cache off)", local_error->message);
          return FALSE;
        }
    }

  if (!is_set (self->documents_path))
    documents = g_ptr_array_new_with_free_func (g_object_unref);
  else if ((documents = grammar_document_load_jsonl (self->documents_path, error)) == NULL)
    return FALSE;
  self->corpus = corpus_new (documents, is_set (self->documents_path) ? self->documents_path : "index()");
  return TRUE;
}

static void
grammar_dense_retriever_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_dense_retriever_initable_init;
}

static void
grammar_dense_retriever_dispose (GObject *object)
{
  GrammarDenseRetriever *self = GRAMMAR_DENSE_RETRIEVER (object);

  g_clear_pointer (&self->corpus, corpus_unref);
  g_clear_object (&self->embedder);

  G_OBJECT_CLASS (grammar_dense_retriever_parent_class)->dispose (object);
}

static void
grammar_dense_retriever_finalize (GObject *object)
{
  GrammarDenseRetriever *self = GRAMMAR_DENSE_RETRIEVER (object);

  g_free (self->documents_path);
  g_free (self->cache_path);
  g_free (self->identity);
  g_clear_pointer (&self->cache, vector_cache_free);

  G_OBJECT_CLASS (grammar_dense_retriever_parent_class)->finalize (object);
}

static void
grammar_dense_retriever_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GrammarDenseRetriever *self = GRAMMAR_DENSE_RETRIEVER (object);

  switch (prop_id)
    {
    case PROP_DOCUMENTS: g_value_set_string (value, self->documents_path); break;
    case PROP_TOP_K: g_value_set_uint (value, self->top_k); break;
    case PROP_EMBEDDER: g_value_set_object (value, self->embedder); break;
    case PROP_CACHE: g_value_set_string (value, self->cache_path); break;
    case PROP_BATCH_SIZE: g_value_set_uint (value, self->batch_size); break;
    case PROP_INDEX_TITLE: g_value_set_boolean (value, self->index_title); break;
    case PROP_N_DOCUMENTS: g_value_set_uint (value, self->corpus != NULL ? self->corpus->documents->len : 0); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_dense_retriever_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GrammarDenseRetriever *self = GRAMMAR_DENSE_RETRIEVER (object);

  switch (prop_id)
    {
    case PROP_DOCUMENTS:
      g_free (self->documents_path);
      self->documents_path = g_value_dup_string (value);
      break;
    case PROP_TOP_K: self->top_k = g_value_get_uint (value); break;
    case PROP_EMBEDDER:
      g_clear_object (&self->embedder);
      self->embedder = g_value_dup_object (value);
      break;
    case PROP_CACHE:
      g_free (self->cache_path);
      self->cache_path = g_value_dup_string (value);
      break;
    case PROP_BATCH_SIZE: self->batch_size = g_value_get_uint (value); break;
    case PROP_INDEX_TITLE: self->index_title = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_dense_retriever_class_init (GrammarDenseRetrieverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = grammar_dense_retriever_dispose;
  object_class->finalize = grammar_dense_retriever_finalize;
  object_class->get_property = grammar_dense_retriever_get_property;
  object_class->set_property = grammar_dense_retriever_set_property;

  properties[PROP_DOCUMENTS] =
    g_param_spec_string ("documents", NULL, "The corpus, a documents.jsonl file (empty: none until index())",
                         NULL, construct | GRAMMAR_PARAM_PATH);
  properties[PROP_TOP_K] =
    g_param_spec_uint ("top-k", NULL, "Hits to return when the caller asks for 0", 1, G_MAXUINT, 1, construct);
  properties[PROP_EMBEDDER] =
    g_param_spec_object ("embedder", NULL,
                         "The language model that computes the embeddings: a section name (required)",
                         GRAMMAR_TYPE_LLM, construct);
  properties[PROP_CACHE] =
    g_param_spec_string ("cache", NULL,
                         "The SQLite vector cache (default: DOCUMENTS" CACHE_SUFFIX ", none without documents); "
                         "empty: no cache",
                         NULL, construct | GRAMMAR_PARAM_PATH);
  /* cache=none, the old spelling of an empty cache=, for this release */
  grammar_param_spec_set_old_spelling (properties[PROP_CACHE], "none", "cache", "");
  properties[PROP_BATCH_SIZE] =
    g_param_spec_uint ("batch-size", NULL, "Texts per embeddings request", 1, 100000, DEFAULT_BATCH_SIZE,
                       construct);
  properties[PROP_INDEX_TITLE] =
    g_param_spec_boolean ("index-title", NULL, "Embed each document's title with its text", TRUE, construct);
  properties[PROP_N_DOCUMENTS] =
    g_param_spec_uint ("n-documents", NULL, "Documents in the corpus", 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_dense_retriever_class_finalize (GrammarDenseRetrieverClass *klass)
{
}

static void
grammar_dense_retriever_init (GrammarDenseRetriever *self)
{
  self->top_k = 1;
  self->batch_size = DEFAULT_BATCH_SIZE;
  self->index_title = TRUE;
}

/* Registers the type with @module and implements the `dense` retriever. */
void
grammar_dense_retriever_register (GTypeModule *module)
{
  grammar_dense_retriever_register_type (module);
  grammar_registry_implement (GRAMMAR_TYPE_RETRIEVER, GRAMMAR_TYPE_DENSE_RETRIEVER, "dense",
                              "Ranks documents by the cosine similarity of their embeddings");
}
