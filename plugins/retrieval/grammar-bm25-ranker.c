/* grammar-bm25-ranker.c: FTS5's bm25() ranking, computed in memory
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-bm25-ranker.h"
#include "grammar-retrieval-util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* FTS5 answers `MATCH 'a OR b …' ORDER BY bm25()` by computing bm25() for
 * every document that holds any query word, and, once a query, by counting
 * every query word's documents: tens of milliseconds when the words are
 * frequent. This ranker holds the same index in memory (a posting list of
 * (document, frequency) a word, each document's length) and computes the
 * same function, term for term and in the same order as FTS5's
 * fts5Bm25Function() (SQLite ext/fts5/fts5_aux.c):
 *
 *   idf(w)   = log((N - n(w) + 0.5) / (n(w) + 0.5)), 1e-6 when <= 0
 *   score(d) = Σ over the query words, in query order,
 *              idf(w) * (f(w,d) * (k1 + 1)) / (f(w,d) + k1 * (1 - b + b * |d| / avgdl))
 *
 * with k1 = 1.2, b = 0.75, N the documents, n(w) those holding w, f(w,d)
 * the occurrences of w in d, |d| its tokens and avgdl the mean of |d|. The
 * doubles are computed by the same operations, so the scores are equal to
 * the bit and so is the order, ties included (equal scores: the earlier
 * document first, as `ORDER BY score, rowid` says).
 *
 * Only the documents that can still enter the top k are scored
 * (MaxScore, Turtle and Flood 1995): the query words are sorted by the
 * largest contribution each can make; once the k-th best score exceeds
 * the sum of the smallest ones, documents holding only those words cannot
 * enter, so only the other words' lists are walked and the small ones are
 * looked up (a galloping search) for the candidates found there. The
 * bounds are compared with a margin far above the rounding error, so the
 * pruning never drops a document the full computation would keep.
 *
 * The words are those grammar_document_tokenize() makes, the ones the
 * bm25 retriever puts into its FTS5 table separated by spaces.
 * grammar_bm25_ranker_matches_index() checks that FTS5 saw the same
 * vocabulary with the same document counts; the retriever uses the
 * ranker only then. */

#define K1 1.2
#define B 0.75

struct _GrammarBm25Ranker
{
  GHashTable *terms;  /* word -> term number + 1 */
  guint n_terms;
  gsize *offsets;     /* n_terms + 1: a term's postings are [offsets[t], offsets[t + 1]) */
  guint32 *postings;  /* documents, ascending within a term */
  guint32 *freqs;     /* f(w, d) of each posting */
  double *idf;        /* per term */
  double *upper;      /* per term: its largest contribution to a score */
  guint32 *lengths;   /* per document: |d| */
  guint n_documents;
  double avgdl;
};

typedef struct
{
  guint32 term;
  guint32 document;
  guint32 freq;
} Posting;

static int
compare_guint32 (const void *a,
                 const void *b)
{
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

/* Appends the (term, document, frequency) triples of one document, in
 * term order, and returns its length in tokens. */
static guint32
add_document (GrammarBm25Ranker *self,
              GrammarDocument   *document,
              gboolean           index_title,
              guint32            number,
              GArray            *ids,
              GArray            *triples)
{
  g_autofree char *words = grammar_retrieval_document_words (document, index_title);
  g_auto (GStrv) tokens = grammar_document_tokenize (words);
  guint32 n_tokens = 0;

  g_array_set_size (ids, 0);
  for (; tokens[n_tokens] != NULL; n_tokens++)
    {
      gpointer value = g_hash_table_lookup (self->terms, tokens[n_tokens]);
      guint32 id;

      if (value == NULL)
        {
          id = self->n_terms++;
          g_hash_table_insert (self->terms, g_strdup (tokens[n_tokens]), GUINT_TO_POINTER (id + 1));
        }
      else
        id = GPOINTER_TO_UINT (value) - 1;
      g_array_append_val (ids, id);
    }
  qsort (ids->data, ids->len, sizeof (guint32), compare_guint32);
  for (guint i = 0; i < ids->len;)
    {
      Posting posting = { g_array_index (ids, guint32, i), number, 0 };

      for (; i < ids->len && g_array_index (ids, guint32, i) == posting.term; i++)
        posting.freq++;
      g_array_append_val (triples, posting);
    }
  return n_tokens;
}

static inline double
contribution (const GrammarBm25Ranker *self,
              guint32                  term,
              guint32                  freq,
              guint32                  document)
{
  double f = (double) freq;
  double d = (double) self->lengths[document];

  /* the expression of fts5Bm25Function(), operation for operation */
  return self->idf[term] * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * d / self->avgdl)));
}

/* Sorts the triples by term with a counting sort, which keeps each term's
 * documents ascending, and computes idf and the bounds. */
static void
build_postings (GrammarBm25Ranker *self,
                GArray            *triples,
                gint64             n_tokens)
{
  g_autofree gsize *next = g_new0 (gsize, self->n_terms + 1);

  self->offsets = g_new0 (gsize, self->n_terms + 1);
  for (guint i = 0; i < triples->len; i++)
    self->offsets[g_array_index (triples, Posting, i).term + 1]++;
  for (guint t = 0; t < self->n_terms; t++)
    self->offsets[t + 1] += self->offsets[t];
  memcpy (next, self->offsets, (self->n_terms + 1) * sizeof (gsize));

  self->postings = g_new (guint32, MAX (triples->len, 1));
  self->freqs = g_new (guint32, MAX (triples->len, 1));
  for (guint i = 0; i < triples->len; i++)
    {
      const Posting *posting = &g_array_index (triples, Posting, i);
      gsize at = next[posting->term]++;

      self->postings[at] = posting->document;
      self->freqs[at] = posting->freq;
    }

  self->avgdl = (double) n_tokens / (double) self->n_documents;
  self->idf = g_new (double, MAX (self->n_terms, 1));
  self->upper = g_new0 (double, MAX (self->n_terms, 1));
  for (guint t = 0; t < self->n_terms; t++)
    {
      gint64 n_hits = (gint64) (self->offsets[t + 1] - self->offsets[t]);
      gint64 n_rows = self->n_documents;
      double idf = log ((n_rows - n_hits + 0.5) / (n_hits + 0.5));

      self->idf[t] = idf <= 0.0 ? 1e-6 : idf;
      for (gsize p = self->offsets[t]; p < self->offsets[t + 1]; p++)
        self->upper[t] = MAX (self->upper[t], contribution (self, t, self->freqs[p], self->postings[p]));
    }
}

/* The index of @documents as the bm25 retriever gives them to FTS5 (the
 * title with the text when @index_title). */
GrammarBm25Ranker *
grammar_bm25_ranker_new (GPtrArray *documents,
                         gboolean   index_title)
{
  g_autoptr (GrammarBm25Ranker) self = g_new0 (GrammarBm25Ranker, 1);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) triples = g_array_new (FALSE, FALSE, sizeof (Posting));
  gint64 n_tokens = 0;

  self->terms = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->n_documents = documents->len;
  self->lengths = g_new0 (guint32, MAX (documents->len, 1));
  for (guint i = 0; i < documents->len; i++)
    {
      self->lengths[i] = add_document (self, g_ptr_array_index (documents, i), index_title, i, ids, triples);
      n_tokens += self->lengths[i];
    }
  if (self->n_documents > 0)
    build_postings (self, triples, n_tokens);
  return g_steal_pointer (&self);
}

void
grammar_bm25_ranker_free (GrammarBm25Ranker *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->terms, g_hash_table_unref);
  g_free (self->offsets);
  g_free (self->postings);
  g_free (self->freqs);
  g_free (self->idf);
  g_free (self->upper);
  g_free (self->lengths);
  g_free (self);
}

/* Whether FTS5's table grammar_fts of @db holds exactly this vocabulary,
 * each word in as many documents: then every word is one FTS5 token
 * (a word unicode61 split would not be in FTS5's vocabulary, and its
 * folding, being idempotent, cannot map the set onto itself otherwise),
 * and the two indexes are the same. @why: what differs, when not. */
gboolean
grammar_bm25_ranker_matches_index (GrammarBm25Ranker  *self,
                                   sqlite3            *db,
                                   char              **why)
{
  sqlite3_stmt *statement = NULL;
  guint n_rows = 0;
  gboolean same = TRUE;
  int status;

  if (sqlite3_exec (db, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.grammar_vocab "
                        "USING fts5vocab(main, grammar_fts, 'row')", NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, "SELECT term, doc FROM temp.grammar_vocab", -1, &statement, NULL) != SQLITE_OK)
    {
      *why = g_strdup_printf ("cannot read FTS5's vocabulary: %s", sqlite3_errmsg (db));
      return FALSE;
    }
  while (same && (status = sqlite3_step (statement)) == SQLITE_ROW)
    {
      const char *term = (const char *) sqlite3_column_text (statement, 0);
      gpointer value = g_hash_table_lookup (self->terms, term != NULL ? term : "");
      guint t = GPOINTER_TO_UINT (value) - 1;

      n_rows++;
      if (value == NULL || (sqlite3_int64) (self->offsets[t + 1] - self->offsets[t]) != sqlite3_column_int64 (statement, 1))
        {
          *why = g_strdup_printf ("FTS5 indexed the word “%s” differently", term != NULL ? term : "");
          same = FALSE;
        }
    }
  if (same && status != SQLITE_DONE)
    {
      *why = g_strdup_printf ("cannot read FTS5's vocabulary: %s", sqlite3_errmsg (db));
      same = FALSE;
    }
  sqlite3_finalize (statement);
  if (same && n_rows != self->n_terms)
    {
      *why = g_strdup_printf ("FTS5 has %u words, the documents %u", n_rows, self->n_terms);
      same = FALSE;
    }
  return same;
}

/* Query */

typedef struct
{
  guint32 term;
  guint phrase;   /* its place among the query's words */
  gsize at;
  gsize end;
  double upper;
} Cursor;

static int
compare_cursors (const void *a,
                 const void *b)
{
  const Cursor *x = a;
  const Cursor *y = b;

  if (x->upper != y->upper)
    return x->upper < y->upper ? -1 : 1;
  return (x->phrase > y->phrase) - (x->phrase < y->phrase);
}

/* Moves @cursor to its first document >= @document: galloping, then a
 * binary search, since most skips are long. */
static void
seek (const GrammarBm25Ranker *self,
      Cursor                  *cursor,
      guint32                  document)
{
  gsize low = cursor->at;
  gsize step = 1;
  gsize high;

  if (low >= cursor->end || self->postings[low] >= document)
    return;
  while (low + step < cursor->end && self->postings[low + step] < document)
    {
      low += step;
      step *= 2;
    }
  high = MIN (low + step, cursor->end);  /* postings[low] < document; postings[high] >= it, or the end */
  while (high - low > 1)
    {
      gsize middle = low + (high - low) / 2;

      if (self->postings[middle] < document)
        low = middle;
      else
        high = middle;
    }
  cursor->at = high;
}

/* Whether @a ranks below @b: a lower score, or the same and later. */
static inline gboolean
worse (const GrammarBm25Ranked *a,
       const GrammarBm25Ranked *b)
{
  return a->score < b->score || (a->score == b->score && a->document > b->document);
}

/* The heap of the best k so far, its worst at the root. */
static void
sift_down (GrammarBm25Ranked *heap,
           guint              n,
           guint              i)
{
  for (;;)
    {
      guint smallest = i;
      guint left = 2 * i + 1;
      guint right = left + 1;
      GrammarBm25Ranked swap;

      if (left < n && worse (&heap[left], &heap[smallest]))
        smallest = left;
      if (right < n && worse (&heap[right], &heap[smallest]))
        smallest = right;
      if (smallest == i)
        return;
      swap = heap[i];
      heap[i] = heap[smallest];
      heap[smallest] = swap;
      i = smallest;
    }
}

static void
sift_up (GrammarBm25Ranked *heap,
         guint              i)
{
  while (i > 0 && worse (&heap[i], &heap[(i - 1) / 2]))
    {
      GrammarBm25Ranked swap = heap[i];

      heap[i] = heap[(i - 1) / 2];
      heap[(i - 1) / 2] = swap;
      i = (i - 1) / 2;
    }
}

static int
compare_ranked (const void *a,
                const void *b)
{
  if (worse (a, b))
    return 1;
  return worse (b, a) ? -1 : 0;
}

/* Whether FTS5 would see @word as a word no document holds: a word of
 * ASCII letters and digits is one unicode61 token, itself. Any other word
 * missing from the vocabulary might be split or folded by unicode61 into
 * words that are there. */
static gboolean
surely_absent (const char *word)
{
  for (const char *c = word; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) || g_ascii_isupper (*c))
      return FALSE;
  return TRUE;
}

/* Ranks the documents for the query @words (distinct, in query order) as
 * `SELECT rowid, bm25(…) … MATCH '"w1" OR "w2" …' ORDER BY 2, 1 LIMIT
 * @top_k` does, adding the results to @ranked (of GrammarBm25Ranked).
 * FALSE, adding nothing, when a word may not be answered exactly here
 * (see surely_absent()): FTS5 must answer that query. */
gboolean
grammar_bm25_ranker_rank (GrammarBm25Ranker *self,
                          GPtrArray         *words,
                          guint              top_k,
                          GArray            *ranked)
{
  g_autofree Cursor *cursors = g_new0 (Cursor, MAX (words->len, 1));
  g_autofree double *prefix = g_new0 (double, MAX (words->len, 1));
  g_autofree double *parts = g_new0 (double, MAX (words->len, 1));
  g_autofree GrammarBm25Ranked *heap = NULL;
  guint capacity = MIN (top_k, self->n_documents);
  guint n_cursors = 0;
  guint n_heap = 0;
  guint first_essential = 0;
  double threshold = -INFINITY;
  double margin = 0;

  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);
      gpointer value = g_hash_table_lookup (self->terms, word);
      guint32 term = GPOINTER_TO_UINT (value) - 1;

      if (value == NULL)
        {
          if (!surely_absent (word))
            return FALSE;
          continue;  /* no document holds it: it adds 0 to every score */
        }
      cursors[n_cursors] = (Cursor) { term, n_cursors, self->offsets[term], self->offsets[term + 1],
                                      self->upper[term] };
      n_cursors++;
    }
  if (n_cursors == 0 || capacity == 0)
    return TRUE;

  qsort (cursors, n_cursors, sizeof (Cursor), compare_cursors);
  for (guint j = 0; j < n_cursors; j++)
    prefix[j] = (j > 0 ? prefix[j - 1] : 0) + cursors[j].upper;
  heap = g_new (GrammarBm25Ranked, capacity);

  for (;;)
    {
      guint32 document = G_MAXUINT32;
      double partial = 0;
      double score = 0;
      gboolean pruned = FALSE;

      /* the next document holding an essential word */
      for (guint j = first_essential; j < n_cursors; j++)
        if (cursors[j].at < cursors[j].end)
          document = MIN (document, self->postings[cursors[j].at]);
      if (document == G_MAXUINT32)
        break;

      memset (parts, 0, n_cursors * sizeof (double));
      for (guint j = first_essential; j < n_cursors; j++)
        {
          Cursor *cursor = &cursors[j];

          if (cursor->at < cursor->end && self->postings[cursor->at] == document)
            {
              parts[cursor->phrase] = contribution (self, cursor->term, self->freqs[cursor->at], document);
              partial += parts[cursor->phrase];
              cursor->at++;
            }
        }
      /* the other words, largest first, while they can still matter */
      for (guint j = first_essential; j-- > 0;)
        {
          Cursor *cursor = &cursors[j];

          if (n_heap == capacity && partial + prefix[j] < threshold - margin)
            {
              pruned = TRUE;
              break;
            }
          seek (self, cursor, document);
          if (cursor->at < cursor->end && self->postings[cursor->at] == document)
            {
              parts[cursor->phrase] = contribution (self, cursor->term, self->freqs[cursor->at], document);
              partial += parts[cursor->phrase];
            }
        }
      if (pruned)
        continue;

      /* the exact score: FTS5's sum, in query order (the words no
       * document holds add +0.0, which changes nothing) */
      for (guint i = 0; i < n_cursors; i++)
        score += parts[i];
      if (n_heap < capacity)
        {
          heap[n_heap] = (GrammarBm25Ranked) { document, score };
          sift_up (heap, n_heap++);
        }
      else if (score > heap[0].score)  /* equal: the earlier document stays */
        {
          heap[0] = (GrammarBm25Ranked) { document, score };
          sift_down (heap, n_heap, 0);
        }
      else
        continue;

      if (n_heap == capacity)
        {
          threshold = heap[0].score;
          /* far above the rounding of a sum of a few doubles */
          margin = 1e-9 * (1.0 + fabs (threshold));
          while (first_essential < n_cursors && prefix[first_essential] < threshold - margin)
            first_essential++;
        }
    }

  qsort (heap, n_heap, sizeof (GrammarBm25Ranked), compare_ranked);
  g_array_append_vals (ranked, heap, n_heap);
  return TRUE;
}
