/* grammar-bm25-retriever.c: BM25 ranking over an SQLite FTS5 index
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-bm25-retriever.h"
#include "grammar-bm25-ranker.h"
#include "grammar-retrieval-util.h"

#include <string.h>

#include <sqlite3.h>

/* GrammarBm25Retriever: the `bm25` retriever. The corpus goes into an
 * SQLite FTS5 table (tokenizer `unicode61 remove_diacritics 2`), one row
 * a document whose rowid is its position in the corpus plus one, and a
 * query ranks the matching documents with FTS5's bm25(); equal scores go
 * to the earlier document. The hit's score is -bm25(), so that a higher
 * score is better, as with the other retrievers.
 *
 * Documents and queries are first split into words by
 * grammar_document_tokenize(), as the keyword retriever does, and the
 * table holds those words separated by spaces: both retrievers agree on
 * what a word is (“Straße” is “strasse”, which unicode61 alone would
 * not say), and unicode61 only splits on the spaces.
 *
 * The index lives in memory, or in the file of the `index` property,
 * where it is kept with a SHA-256 fingerprint of the documents and used
 * again as long as the documents are the same.
 *
 * Common words are left out of the FTS5 query (`prune-common-terms`):
 * FTS5's bm25() gives a word in at least half of the documents the idf
 * log((N - n + 0.5) / (n + 0.5)) <= 0, which it replaces by 1e-6, so
 * such a word adds less than 1e-6 * (k1 + 1) = 2.2e-6 to any score, yet
 * FTS5 would compute bm25() for every document holding it. The counts n
 * come from an fts5vocab table and are cached per word.
 *
 * By default (`engine=memory`) FTS5 is not asked at all: the same
 * ranking is computed by grammar-bm25-ranker.c from an in-memory copy of
 * the index, the same scores to the bit, scoring only the documents that
 * can still enter the top k. The copy is used only when FTS5's
 * vocabulary is checked to be the same; a query with a word it cannot
 * answer exactly goes to FTS5, as every query does with `engine=fts5`. */
struct _GrammarBm25Retriever
{
  GObject parent_instance;

  /* settings */
  char *documents_path;
  guint top_k;
  char *index_path;
  gboolean index_title;
  GrammarStopWords stop_words_kind;
  char *stop_words_file;
  gboolean prune_common_terms;
  char *engine;

  /* state */
  GHashTable *stop_words;  /* NULL: none (see grammar_retrieval_load_stop_words) */
  GPtrArray *documents;    /* of GrammarDocument, in corpus order */
  GMutex lock;             /* guards the connection and its statement */
  sqlite3 *db;
  sqlite3_stmt *query;
  sqlite3_stmt *vocab;     /* documents holding a word, NULL until needed */
  GHashTable *doc_counts;  /* word -> documents holding it (gint64 *), a cache */
  gboolean rebuilt;
  GrammarBm25Ranker *ranker;  /* NULL: FTS5 answers */
};

enum
{
  PROP_0,
  PROP_DOCUMENTS,
  PROP_TOP_K,
  PROP_INDEX,
  PROP_INDEX_TITLE,
  PROP_STOP_WORDS,
  PROP_STOP_WORDS_FILE,
  PROP_PRUNE_COMMON_TERMS,
  PROP_ENGINE,
  PROP_ENGINE_IN_USE,
  PROP_N_DOCUMENTS,
  PROP_REBUILT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Bump when the table layout or the fingerprint changes, so that old
 * index files are rebuilt rather than misread. */
#define INDEX_FORMAT "grammar-bm25 1; grammar_document_tokenize 1; unicode61 remove_diacritics 2"

static void grammar_bm25_retriever_retriever_iface_init (GrammarRetrieverInterface *iface);
static void grammar_bm25_retriever_initable_iface_init  (GInitableIface            *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarBm25Retriever, grammar_bm25_retriever, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_RETRIEVER,
                                                               grammar_bm25_retriever_retriever_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_bm25_retriever_initable_iface_init))

static gboolean
sql_failed (sqlite3     *db,
            const char  *what,
            GError     **error)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "bm25 index: %s: %s", what, sqlite3_errmsg (db));
  return FALSE;
}

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      GError     **error)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return sql_failed (db, sql, error);
  return TRUE;
}

/* The fingerprint of what the index holds: the format, whether titles
 * are indexed and every document, each field ended by a NUL so that no
 * two different corpora give the same byte stream. */
static char *
fingerprint (GPtrArray *documents,
             gboolean   index_title)
{
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

  g_checksum_update (checksum, (const guchar *) INDEX_FORMAT, sizeof INDEX_FORMAT);
  g_checksum_update (checksum, (const guchar *) (index_title ? "t" : "f"), 2);
  for (guint i = 0; i < documents->len; i++)
    {
      g_autofree char *words = grammar_retrieval_document_words (g_ptr_array_index (documents, i), index_title);

      g_checksum_update (checksum, (const guchar *) words, strlen (words) + 1);
    }
  return g_strdup (g_checksum_get_string (checksum));
}

/* The fingerprint stored in the index, or NULL when there is none. */
static char *
stored_fingerprint (sqlite3 *db)
{
  sqlite3_stmt *statement = NULL;
  char *value = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT value FROM grammar_meta WHERE key = 'fingerprint'", -1, &statement, NULL)
      != SQLITE_OK)
    return NULL;  /* a new file: no meta table yet */
  if (sqlite3_step (statement) == SQLITE_ROW)
    value = g_strdup ((const char *) sqlite3_column_text (statement, 0));
  sqlite3_finalize (statement);
  return value;
}

static gboolean
insert_documents (sqlite3    *db,
                  GPtrArray  *documents,
                  gboolean    index_title,
                  GError    **error)
{
  sqlite3_stmt *insert = NULL;

  if (sqlite3_prepare_v2 (db, "INSERT INTO grammar_fts (rowid, body) VALUES (?1, ?2)", -1, &insert, NULL) != SQLITE_OK)
    return sql_failed (db, "prepare insert", error);
  for (guint i = 0; i < documents->len; i++)
    {
      g_autofree char *words = grammar_retrieval_document_words (g_ptr_array_index (documents, i), index_title);
      g_auto (GStrv) tokens = grammar_document_tokenize (words);
      g_autofree char *body = g_strjoinv (" ", tokens);

      sqlite3_bind_int64 (insert, 1, (sqlite3_int64) i + 1);
      sqlite3_bind_text (insert, 2, body, -1, SQLITE_STATIC);
      if (sqlite3_step (insert) != SQLITE_DONE)
        {
          sql_failed (db, "insert", error);
          sqlite3_finalize (insert);
          return FALSE;
        }
      sqlite3_reset (insert);
    }
  sqlite3_finalize (insert);
  return TRUE;
}

/* Replaces the whole index in one transaction: a reader of the file, or
 * a crash half-way, sees the old index or the new one, never a mix. The
 * table is contentless: the texts are in memory already. */
static gboolean
rebuild (sqlite3     *db,
         GPtrArray   *documents,
         gboolean     index_title,
         const char  *print,
         GError     **error)
{
  sqlite3_stmt *meta = NULL;

  if (!exec (db, "BEGIN IMMEDIATE", error))
    return FALSE;
  if (!exec (db, "DROP TABLE IF EXISTS grammar_fts;"
                 "CREATE TABLE IF NOT EXISTS grammar_meta (key TEXT PRIMARY KEY, value TEXT);"
                 "CREATE VIRTUAL TABLE grammar_fts USING fts5 "
                 "(body, content='', tokenize='unicode61 remove_diacritics 2')", error) ||
      !insert_documents (db, documents, index_title, error))
    goto rollback;
  if (sqlite3_prepare_v2 (db, "INSERT OR REPLACE INTO grammar_meta (key, value) VALUES ('fingerprint', ?1)",
                          -1, &meta, NULL) != SQLITE_OK)
    {
      sql_failed (db, "prepare meta", error);
      goto rollback;
    }
  sqlite3_bind_text (meta, 1, print, -1, SQLITE_STATIC);
  if (sqlite3_step (meta) != SQLITE_DONE)
    {
      sql_failed (db, "meta", error);
      sqlite3_finalize (meta);
      goto rollback;
    }
  sqlite3_finalize (meta);
  return exec (db, "COMMIT", error);

rollback:
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

static gboolean
open_index (GrammarBm25Retriever  *self,
            sqlite3              **db,
            GError               **error)
{
  const char *path = self->index_path != NULL && *self->index_path != '\0' ? self->index_path : ":memory:";
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;

  if (sqlite3_open_v2 (path, db, flags, NULL) != SQLITE_OK)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "index: cannot open “%s”: %s",
                   path, *db != NULL ? sqlite3_errmsg (*db) : "out of memory");
      g_clear_pointer (db, sqlite3_close);
      return FALSE;
    }
  sqlite3_busy_timeout (*db, 10000);
  /* A file that is not a database fails on the first read: say which
   * property points at it. */
  if (sqlite3_exec (*db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "index: “%s”: %s",
                   path, sqlite3_errmsg (*db));
      g_clear_pointer (db, sqlite3_close);
      return FALSE;
    }
  return TRUE;
}

/* Makes the index hold @documents (taken), reusing an on-disk index with
 * the same fingerprint. */
static gboolean
use_documents (GrammarBm25Retriever  *self,
               GPtrArray             *documents,
               GError               **error)
{
  g_autoptr (GPtrArray) owned = documents;
  g_autofree char *print = fingerprint (documents, self->index_title);
  g_autofree char *stored = NULL;
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  /* Until this succeeds the retriever has no documents: a failed
   * indexing leaves nothing half-usable behind. */
  g_clear_pointer (&self->query, sqlite3_finalize);
  g_clear_pointer (&self->vocab, sqlite3_finalize);
  g_hash_table_remove_all (self->doc_counts);
  g_clear_pointer (&self->ranker, grammar_bm25_ranker_free);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  self->documents = g_ptr_array_new_with_free_func (g_object_unref);
  if (self->db == NULL && !open_index (self, &self->db, error))
    return FALSE;

  stored = stored_fingerprint (self->db);
  self->rebuilt = g_strcmp0 (stored, print) != 0;
  if (self->rebuilt && !rebuild (self->db, documents, self->index_title, print, error))
    return FALSE;

  if (sqlite3_prepare_v3 (self->db,
                          "SELECT rowid, bm25(grammar_fts) AS score FROM grammar_fts WHERE grammar_fts MATCH ?1 "
                          "ORDER BY score, rowid LIMIT ?2",
                          -1, SQLITE_PREPARE_PERSISTENT, &self->query, NULL) != SQLITE_OK)
    return sql_failed (self->db, "prepare query", error);

  if (g_strcmp0 (self->engine, "memory") == 0)
    {
      g_autoptr (GrammarBm25Ranker) ranker = grammar_bm25_ranker_new (documents, self->index_title);
      g_autofree char *why = NULL;

      if (grammar_bm25_ranker_matches_index (ranker, self->db, &why))
        self->ranker = g_steal_pointer (&ranker);
      else
        g_message ("bm25: FTS5 answers every query, the in-memory ranking does not match its index: %s", why);
    }

  g_clear_pointer (&self->documents, g_ptr_array_unref);
  self->documents = g_steal_pointer (&owned);
  return TRUE;
}

static gboolean
grammar_bm25_retriever_index (GrammarRetriever  *retriever,
                              GPtrArray         *documents,
                              GCancellable      *cancellable,
                              GError           **error)
{
  GrammarBm25Retriever *self = GRAMMAR_BM25_RETRIEVER (retriever);
  gboolean was_rebuilt = self->rebuilt;
  gboolean ok;

  if (!grammar_retrieval_check_ids (documents, error))
    return FALSE;
  ok = use_documents (self, grammar_retrieval_copy_documents (documents), error);
  if (self->rebuilt != was_rebuilt)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REBUILT]);
  return ok;
}

/* The distinct words of a query text but stop words, in query order.
 * Stop words only leave queries: the index keeps every word, so
 * changing the list needs no rebuild. */
static GPtrArray *
query_words (const char *text,
             GHashTable *stop_words)
{
  g_auto (GStrv) words = grammar_document_tokenize (text);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *kept = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; words[i] != NULL; i++)
    if (!grammar_retrieval_is_stop_word (stop_words, words[i]) && g_hash_table_add (seen, words[i]))
      g_ptr_array_add (kept, g_strdup (words[i]));
  return kept;
}

/* The FTS5 query for @words (those with @keep[i] TRUE, or all when @keep
 * is NULL): each a quoted string (so that quotes, `*`, `-`, NEAR, AND,
 * parentheses… are plain words), joined with OR. NULL when none. */
static char *
match_expression (GPtrArray      *words,
                  const gboolean *keep)
{
  g_autoptr (GString) expression = g_string_new (NULL);

  for (guint i = 0; i < words->len; i++)
    {
      if (keep != NULL && !keep[i])
        continue;
      if (expression->len > 0)
        g_string_append (expression, " OR ");
      g_string_append_c (expression, '"');
      for (const char *c = g_ptr_array_index (words, i); *c != '\0'; c++)
        {
          if (*c == '"')
            g_string_append_c (expression, '"');
          g_string_append_c (expression, *c);
        }
      g_string_append_c (expression, '"');
    }
  if (expression->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&expression), FALSE);
}

/* How many documents hold @word, from the fts5vocab table (a temporary
 * one, so that an on-disk index file is not changed), cached. -1 on
 * error. Called with the lock held. */
static gint64
document_count (GrammarBm25Retriever *self,
                const char           *word)
{
  gint64 *cached = g_hash_table_lookup (self->doc_counts, word);
  gint64 count = 0;

  if (cached != NULL)
    return *cached;
  if (self->vocab == NULL &&
      (sqlite3_exec (self->db, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.grammar_vocab "
                               "USING fts5vocab(main, grammar_fts, 'row')", NULL, NULL, NULL) != SQLITE_OK ||
       sqlite3_prepare_v3 (self->db, "SELECT doc FROM temp.grammar_vocab WHERE term = ?1", -1,
                           SQLITE_PREPARE_PERSISTENT, &self->vocab, NULL) != SQLITE_OK))
    return -1;
  sqlite3_bind_text (self->vocab, 1, word, -1, SQLITE_STATIC);
  if (sqlite3_step (self->vocab) == SQLITE_ROW)
    count = sqlite3_column_int64 (self->vocab, 0);
  sqlite3_reset (self->vocab);
  sqlite3_clear_bindings (self->vocab);
  g_hash_table_insert (self->doc_counts, g_strdup (word), g_memdup2 (&count, sizeof count));
  return count;
}

/* Whether FTS5's bm25() gives @word the floor idf 1e-6, as
 * fts5Bm25GetData() does when log((N - n + 0.5) / (n + 0.5)) <= 0, that is
 * when N - n <= n (exact in integers; the row count is N). */
static gboolean
is_common (GrammarBm25Retriever *self,
           const char           *word)
{
  gint64 rows = self->documents->len;
  gint64 hits = document_count (self, word);

  return hits >= 0 && rows - hits <= hits;
}

/* The FTS5 query without the common words, or NULL when there is none to
 * leave out or only such words; @n_pruned: how many were left out. */
static char *
pruned_expression (GrammarBm25Retriever *self,
                   GPtrArray            *words,
                   guint                *n_pruned)
{
  g_autofree gboolean *keep = g_new0 (gboolean, words->len);
  guint n_kept = 0;

  for (guint i = 0; i < words->len; i++)
    {
      keep[i] = !is_common (self, g_ptr_array_index (words, i));
      n_kept += keep[i];
    }
  *n_pruned = words->len - n_kept;
  if (n_kept == 0 || n_kept == words->len)
    return NULL;
  return match_expression (words, keep);
}

/* Whether the first @top_k of @hits (of the pruned query, which asked
 * for one more) are provably the unpruned query's first @top_k in the
 * same order. Each left-out word adds to a score something in
 * [0, 1e-6 * (k1 + 1)) (plus rounding: the margin), so any two hits
 * further apart than @slack keep their order, and a document with only
 * common words (score < @slack) cannot pass one above @slack. The hit
 * after the @top_k-th bounds every document not returned. */
static gboolean
provably_same (GPtrArray *hits,
               guint      top_k,
               double     slack)
{
  guint n = MIN (hits->len, top_k + 1);

  for (guint i = 1; i < n; i++)
    if (grammar_hit_get_score (g_ptr_array_index (hits, i - 1)) - grammar_hit_get_score (g_ptr_array_index (hits, i))
        <= slack)
      return FALSE;
  /* fewer: the full query adds documents with only common words */
  return hits->len > top_k && grammar_hit_get_score (g_ptr_array_index (hits, top_k)) > slack;
}

/* Runs the query statement for @expression, adding up to @top_k hits to
 * @hits. */
static gboolean
run_query (GrammarBm25Retriever  *self,
           const char            *expression,
           guint                  top_k,
           GPtrArray             *hits,
           GError               **error)
{
  int status;

  sqlite3_bind_text (self->query, 1, expression, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (self->query, 2, MIN (top_k, (guint) G_MAXINT32));
  while ((status = sqlite3_step (self->query)) == SQLITE_ROW)
    {
      sqlite3_int64 rowid = sqlite3_column_int64 (self->query, 0);
      GrammarDocument *document;

      if (rowid < 1 || rowid > self->documents->len)
        continue;  /* cannot happen: the fingerprint covers the rows */
      document = g_ptr_array_index (self->documents, rowid - 1);
      g_ptr_array_add (hits, grammar_hit_new (grammar_document_get_id (document),
                                              -sqlite3_column_double (self->query, 1),
                                              grammar_document_get_text (document)));
    }
  if (status != SQLITE_DONE)
    sql_failed (self->db, "query", error);
  sqlite3_reset (self->query);
  sqlite3_clear_bindings (self->query);
  return status == SQLITE_DONE;
}

static GPtrArray *
grammar_bm25_retriever_retrieve (GrammarRetriever  *retriever,
                                 const char        *query,
                                 guint              top_k,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  GrammarBm25Retriever *self = GRAMMAR_BM25_RETRIEVER (retriever);
  g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) words = query_words (query, self->stop_words);
  g_autofree char *pruned = NULL;
  g_autofree char *expression = match_expression (words, NULL);
  guint n_pruned = 0;
  g_autoptr (GMutexLocker) locker = NULL;

  if (top_k == 0)
    top_k = self->top_k;
  locker = g_mutex_locker_new (&self->lock);
  if (expression == NULL || self->query == NULL || self->documents->len == 0)
    return g_steal_pointer (&hits);

  if (self->ranker != NULL)
    {
      g_autoptr (GArray) ranked = g_array_new (FALSE, FALSE, sizeof (GrammarBm25Ranked));

      if (grammar_bm25_ranker_rank (self->ranker, words, top_k, ranked))
        {
          for (guint i = 0; i < ranked->len; i++)
            {
              const GrammarBm25Ranked *one = &g_array_index (ranked, GrammarBm25Ranked, i);
              GrammarDocument *document = g_ptr_array_index (self->documents, one->document);

              g_ptr_array_add (hits, grammar_hit_new (grammar_document_get_id (document), one->score,
                                                      grammar_document_get_text (document)));
            }
          return g_steal_pointer (&hits);
        }
    }

  /* The pruned query is answered only when its ranking is provably the
   * full one (see provably_same()); otherwise, on near ties, the full
   * query decides. */
  if (self->prune_common_terms)
    pruned = pruned_expression (self, words, &n_pruned);
  if (pruned != NULL && top_k < G_MAXINT32)
    {
      if (!run_query (self, pruned, top_k + 1, hits, error))
        return NULL;
      if (provably_same (hits, top_k, n_pruned * 2.2e-6 * 1.01 + 1e-12))
        {
          g_ptr_array_set_size (hits, MIN (hits->len, top_k));
          return g_steal_pointer (&hits);
        }
      g_ptr_array_set_size (hits, 0);
    }
  if (!run_query (self, expression, top_k, hits, error))
    return NULL;
  return g_steal_pointer (&hits);
}

static void
grammar_bm25_retriever_retriever_iface_init (GrammarRetrieverInterface *iface)
{
  iface->index = grammar_bm25_retriever_index;
  iface->retrieve = grammar_bm25_retriever_retrieve;
}

/* Set-up */

static gboolean
grammar_bm25_retriever_initable_init (GInitable     *initable,
                                      GCancellable  *cancellable,
                                      GError       **error)
{
  GrammarBm25Retriever *self = GRAMMAR_BM25_RETRIEVER (initable);
  GError *local_error = NULL;
  GPtrArray *documents;

  if (g_strcmp0 (self->engine, "memory") != 0 && g_strcmp0 (self->engine, "fts5") != 0)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "engine: “%s” is neither “memory” nor “fts5”", self->engine != NULL ? self->engine : "");
      return FALSE;
    }
  self->stop_words = grammar_retrieval_load_stop_words (self->stop_words_kind, self->stop_words_file, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  /* Without a corpus there is nothing to index yet; an on-disk index is
   * left as it is until index() brings documents. */
  if (self->documents_path == NULL || *self->documents_path == '\0')
    {
      self->documents = g_ptr_array_new_with_free_func (g_object_unref);
      return open_index (self, &self->db, error);
    }
  documents = grammar_document_load_jsonl (self->documents_path, error);
  if (documents == NULL)
    return FALSE;
  return use_documents (self, documents, error);
}

static void
grammar_bm25_retriever_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_bm25_retriever_initable_init;
}

static void
grammar_bm25_retriever_finalize (GObject *object)
{
  GrammarBm25Retriever *self = GRAMMAR_BM25_RETRIEVER (object);

  g_free (self->documents_path);
  g_free (self->index_path);
  g_free (self->stop_words_file);
  g_free (self->engine);
  g_clear_pointer (&self->ranker, grammar_bm25_ranker_free);
  g_clear_pointer (&self->stop_words, g_hash_table_unref);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  g_clear_pointer (&self->query, sqlite3_finalize);
  g_clear_pointer (&self->vocab, sqlite3_finalize);
  g_clear_pointer (&self->doc_counts, g_hash_table_unref);
  g_clear_pointer (&self->db, sqlite3_close);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (grammar_bm25_retriever_parent_class)->finalize (object);
}

static void
grammar_bm25_retriever_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  GrammarBm25Retriever *self = GRAMMAR_BM25_RETRIEVER (object);

  switch (prop_id)
    {
    case PROP_DOCUMENTS: g_value_set_string (value, self->documents_path); break;
    case PROP_TOP_K: g_value_set_uint (value, self->top_k); break;
    case PROP_INDEX: g_value_set_string (value, self->index_path); break;
    case PROP_INDEX_TITLE: g_value_set_boolean (value, self->index_title); break;
    case PROP_STOP_WORDS: g_value_set_enum (value, self->stop_words_kind); break;
    case PROP_STOP_WORDS_FILE: g_value_set_string (value, self->stop_words_file); break;
    case PROP_PRUNE_COMMON_TERMS: g_value_set_boolean (value, self->prune_common_terms); break;
    case PROP_ENGINE: g_value_set_string (value, self->engine); break;
    case PROP_ENGINE_IN_USE: g_value_set_string (value, self->ranker != NULL ? "memory" : "fts5"); break;
    case PROP_N_DOCUMENTS: g_value_set_uint (value, self->documents != NULL ? self->documents->len : 0); break;
    case PROP_REBUILT: g_value_set_boolean (value, self->rebuilt); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_bm25_retriever_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  GrammarBm25Retriever *self = GRAMMAR_BM25_RETRIEVER (object);

  switch (prop_id)
    {
    case PROP_DOCUMENTS:
      g_free (self->documents_path);
      self->documents_path = g_value_dup_string (value);
      break;
    case PROP_TOP_K: self->top_k = g_value_get_uint (value); break;
    case PROP_INDEX:
      g_free (self->index_path);
      self->index_path = g_value_dup_string (value);
      break;
    case PROP_INDEX_TITLE: self->index_title = g_value_get_boolean (value); break;
    case PROP_STOP_WORDS: self->stop_words_kind = g_value_get_enum (value); break;
    case PROP_STOP_WORDS_FILE:
      g_free (self->stop_words_file);
      self->stop_words_file = g_value_dup_string (value);
      break;
    case PROP_PRUNE_COMMON_TERMS: self->prune_common_terms = g_value_get_boolean (value); break;
    case PROP_ENGINE:
      g_free (self->engine);
      self->engine = g_value_dup_string (value);
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_bm25_retriever_class_init (GrammarBm25RetrieverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  const GParamFlags readable = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = grammar_bm25_retriever_finalize;
  object_class->get_property = grammar_bm25_retriever_get_property;
  object_class->set_property = grammar_bm25_retriever_set_property;

  properties[PROP_DOCUMENTS] =
    g_param_spec_string ("documents", NULL, "The corpus, a documents.jsonl file (empty: none until index())",
                         NULL, construct | GRAMMAR_PARAM_PATH);
  properties[PROP_TOP_K] =
    g_param_spec_uint ("top-k", NULL, "Hits to return when the caller asks for 0", 1, G_MAXUINT, 1, construct);
  properties[PROP_INDEX] =
    g_param_spec_string ("index", NULL,
                         "The SQLite file that keeps the index between runs, rebuilt when the documents change "
                         "(empty: in memory)",
                         NULL, construct | GRAMMAR_PARAM_PATH);
  properties[PROP_INDEX_TITLE] =
    g_param_spec_boolean ("index-title", NULL, "Index each document's title with its text", TRUE, construct);
  grammar_retrieval_stop_words_pspecs (&properties[PROP_STOP_WORDS], &properties[PROP_STOP_WORDS_FILE],
                                       "Query words to ignore: none, or english (a built-in list)");
  properties[PROP_PRUNE_COMMON_TERMS] =
    g_param_spec_boolean ("prune-common-terms", NULL,
                          "Leave query words found in at least half of the documents out of the FTS5 query "
                          "(bm25() gives them the idf 1e-6): much faster, scores lower by under 2.2e-6 a word",
                          TRUE, construct);
  properties[PROP_ENGINE] =
    g_param_spec_string ("engine", NULL,
                         "Who ranks: “memory” (FTS5's bm25() computed from an in-memory copy of the index, "
                         "the same ranking and scores, much faster) or “fts5” (every query asks SQLite)",
                         "memory", construct);
  properties[PROP_ENGINE_IN_USE] =
    g_param_spec_string ("engine-in-use", NULL,
                         "“memory” when the in-memory ranking answers (it does when its vocabulary is FTS5's), "
                         "else “fts5”",
                         NULL, readable);
  properties[PROP_N_DOCUMENTS] =
    g_param_spec_uint ("n-documents", NULL, "Documents in the index", 0, G_MAXUINT, 0, readable);
  properties[PROP_REBUILT] =
    g_param_spec_boolean ("rebuilt", NULL,
                          "Whether the last indexing built the index (FALSE: an on-disk index was used again)",
                          FALSE, readable);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_bm25_retriever_class_finalize (GrammarBm25RetrieverClass *klass)
{
}

static void
grammar_bm25_retriever_init (GrammarBm25Retriever *self)
{
  g_mutex_init (&self->lock);
  self->doc_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
grammar_bm25_retriever_register (GTypeModule *module)
{
  grammar_bm25_retriever_register_type (module);
}
