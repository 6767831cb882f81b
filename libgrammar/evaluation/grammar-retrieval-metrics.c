/* grammar-retrieval-metrics.c: hit rate, precision, recall, MRR, nDCG, RAGEval recall and EIR
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-document.h"
#include "grammar-evaluation-private.h"
#include "grammar-graded-private.h"
#include "grammar-hash-private.h"
#include "grammar-hit.h"
#include "grammar-json-private.h"
#include "grammar-retrieval-metrics-private.h"

/**
 * GrammarRetrievalMetrics:
 *
 * The retrieval figures of judged runs, from what every record already
 * carries: its true documents (`doc_ids`, the documents made from the
 * rows its answer comes from) and the documents the system retrieved, in
 * rank order (`retrieved`). Relevance is binary: a retrieved document is
 * relevant when its id is one of the true ones. For each cutoff k (by
 * default the number of documents the record retrieved):
 *
 * - hit@k: 1 when a true document is among the first k;
 * - precision@k: the distinct true documents among the first k, over k
 *   (a list shorter than k is not padded: its missing ranks count as
 *   irrelevant; precision of an empty list is 0);
 * - recall@k: the distinct true documents among the first k, over the
 *   number of true documents;
 * - MRR (reciprocal rank@k): 1 / the rank of the first true document in
 *   the first k, 0 when there is none;
 * - nDCG@k: Σ rel_i / log2(i + 1) over the first k ranks, over the same
 *   sum for an ideal list, which puts min(k, number of true documents)
 *   relevant documents first.
 *
 * A document retrieved twice counts once: its second rank is irrelevant.
 * Ties in score keep the system's order. Without a cutoff, and for every
 * record alike, RAGEval's recall (a true reference counts when all its
 * sentences appear in a retrieved passage: at the level of documents,
 * when the document was retrieved) and its effective information rate
 * (EIR: the words of the retrieved true documents over the words of all
 * retrieved passages, each passage counted as often as it was retrieved;
 * words as grammar_document_tokenize() cuts them; measured only when every
 * retrieved passage has its text).
 *
 * A record without true documents (no `doc_ids`, or an empty list) or
 * without `retrieved` (a failed query, or a system that does not report
 * what it retrieved) is unmeasured for all of them, never counted as 0.
 * Every figure is a mean over the measured records, with a 95 % interval:
 * Wilson's for hit@k (a proportion of queries), a percentile bootstrap
 * (#GrammarRetrievalMetrics:resamples resamples seeded with
 * #GrammarRetrievalMetrics:seed) for the others, which are means of
 * per-query fractions; overall, by style, by template and by the tag of
 * the record's semantic group. Above 2000 measured records the others'
 * interval is the normal interval of the mean (mean ± z s/√n), whose
 * cost does not grow with the resamples; `method` says which.
 */

#define N_PER_CUTOFF 5

/* The words of a passage are counted once: the passages of a corpus are
 * retrieved again and again, and tokenizing is most of the cost of EIR.
 * A direct-mapped cache, 1 MiB, keyed by the 64-bit hash of the text. */
#define WORD_CACHE 65536

typedef struct
{
  guint64 hash;
  guint words;
  gboolean used;
} WordCount;

struct _GrammarRetrievalMetrics
{
  GObject parent_instance;

  guint seed;
  guint resamples;
  GArray *cutoffs;            /* guint; 0 = what was retrieved */

  GPtrArray *evaluations;     /* GrammarEvaluation */
  GrammarGraded *table;       /* every record's figures, built once; NULL when stale */
  GPtrArray *names;           /* the figure names the table points to */
  guint64 records;
  guint64 no_true_documents;
  guint64 no_retrieval;
  WordCount *word_counts;     /* WORD_CACHE of them, by the hash of a passage's text */
};

G_DEFINE_FINAL_TYPE (GrammarRetrievalMetrics, grammar_retrieval_metrics, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_SEED,
  PROP_RESAMPLES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
is_true_document (const char * const *doc_ids,
                  const char         *id)
{
  return id != NULL && g_strv_contains (doc_ids, id);
}

/**
 * grammar_retrieval_metrics_measure_record:
 * @record: a record with `doc_ids` and `retrieved`
 * @cutoff: k, or 0 for the number of documents the record retrieved
 * @hit: (out): hit@k, 0 or 1
 * @precision: (out): precision@k
 * @recall: (out): recall@k
 * @reciprocal_rank: (out): 1 / the rank of the first true document in
 *   the first k, or 0
 * @ndcg: (out): nDCG@k
 *
 * The figures of one record, as #GrammarRetrievalMetrics defines them.
 *
 * Returns: %FALSE, leaving the outputs alone, when @record has no true
 *   document or no `retrieved` member
 */
gboolean
grammar_retrieval_metrics_measure_record (GrammarRecord *record,
                                          guint          cutoff,
                                          double        *hit,
                                          double        *precision,
                                          double        *recall,
                                          double        *reciprocal_rank,
                                          double        *ndcg)
{
  const char * const *doc_ids;
  GPtrArray *retrieved;
  g_autoptr (GHashTable) seen = NULL;
  guint n_true = 0, found = 0, k, n;
  double dcg = 0.0, ideal = 0.0, rr = 0.0;

  g_return_val_if_fail (GRAMMAR_IS_RECORD (record), FALSE);

  doc_ids = grammar_record_get_doc_ids (record);
  retrieved = grammar_record_get_retrieved (record);
  if (doc_ids == NULL || doc_ids[0] == NULL || retrieved == NULL)
    return FALSE;
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; doc_ids[i] != NULL; i++)
    if (g_hash_table_add (seen, (gpointer) doc_ids[i]))
      n_true++;
  g_hash_table_remove_all (seen);

  k = cutoff > 0 ? cutoff : retrieved->len;
  n = MIN (k, retrieved->len);
  for (guint i = 0; i < n; i++)
    {
      const char *id = grammar_hit_get_document_id (g_ptr_array_index (retrieved, i));

      if (!is_true_document (doc_ids, id) || !g_hash_table_add (seen, (gpointer) id))
        continue;
      found++;
      dcg += 1.0 / log2 (i + 2.0);
      if (rr == 0.0)
        rr = 1.0 / (i + 1.0);
    }
  for (guint i = 0; i < MIN (k, n_true); i++)
    ideal += 1.0 / log2 (i + 2.0);

  *hit = found > 0 ? 1.0 : 0.0;
  *precision = k > 0 ? (double) found / k : 0.0;
  *recall = (double) found / n_true;
  *reciprocal_rank = rr;
  *ndcg = ideal > 0.0 ? dcg / ideal : 0.0;
  return TRUE;
}

static guint
count_words (GrammarRetrievalMetrics *self,
             const char              *text)
{
  guint64 hash = grammar_hash_fnv1a64 (text);
  WordCount *slot;

  if (self->word_counts == NULL)
    self->word_counts = g_new0 (WordCount, WORD_CACHE);
  slot = &self->word_counts[hash % WORD_CACHE];
  if (!slot->used || slot->hash != hash)
    {
      g_auto (GStrv) words = grammar_document_tokenize (text);

      slot->hash = hash;
      slot->words = g_strv_length (words);
      slot->used = TRUE;
    }
  return slot->words;
}

/* RAGEval's recall and EIR over everything retrieved; EIR NAN without
 * the passages' text. */
static void
measure_rageval (GrammarRetrievalMetrics *self,
                 GrammarRecord           *record,
                 double                  *recall,
                 double                  *eir)
{
  const char * const *doc_ids = grammar_record_get_doc_ids (record);
  GPtrArray *retrieved = grammar_record_get_retrieved (record);
  g_autoptr (GHashTable) found = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) true_ids = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 relevant_words = 0, all_words = 0;
  gboolean texts = TRUE;

  for (guint i = 0; doc_ids[i] != NULL; i++)
    g_hash_table_add (true_ids, (gpointer) doc_ids[i]);
  for (guint i = 0; i < retrieved->len; i++)
    {
      GrammarHit *hit = g_ptr_array_index (retrieved, i);
      const char *id = grammar_hit_get_document_id (hit);
      const char *text = grammar_hit_get_text (hit);
      guint words = text != NULL ? count_words (self, text) : 0;

      if (text == NULL)
        texts = FALSE;
      all_words += words;
      if (is_true_document (doc_ids, id) && g_hash_table_add (found, (gpointer) id))
        relevant_words += words;
    }
  *recall = (double) g_hash_table_size (found) / g_hash_table_size (true_ids);
  *eir = texts && all_words > 0 ? (double) relevant_words / (double) all_words : NAN;
}

static guint
n_figures (GrammarRetrievalMetrics *self)
{
  return self->cutoffs->len * N_PER_CUTOFF + 2;
}

static char *
cutoff_name (guint cutoff)
{
  return cutoff > 0 ? g_strdup_printf ("%u", cutoff) : g_strdup ("retrieved");
}

/* The figures of one record, NAN when it measured none. */
static void
measure (GrammarRetrievalMetrics *self,
         GrammarRecord           *record,
         double                  *values)
{
  guint n = n_figures (self);
  gboolean measured = TRUE;

  for (guint c = 0; c < self->cutoffs->len && measured; c++)
    {
      double *at = values + c * N_PER_CUTOFF;

      measured = grammar_retrieval_metrics_measure_record (record, g_array_index (self->cutoffs, guint, c),
                                                           &at[0], &at[1], &at[2], &at[3], &at[4]);
    }
  if (measured)
    measure_rageval (self, record, &values[n - 2], &values[n - 1]);
  else
    for (guint f = 0; f < n; f++)
      values[f] = NAN;
}

static void
add_to_table (GrammarRetrievalMetrics *self,
              GrammarRecord           *record,
              const char              *tag)
{
  g_autofree double *values = g_new (double, n_figures (self));

  measure (self, record, values);
  grammar_graded_add (self->table, grammar_record_get_style (record), grammar_record_get_template (record),
                      grammar_record_get_group (record), tag, values);
}

static const char *
tag_of (const char *group_id,
        gpointer    data)
{
  GrammarEvaluationGroup *group = grammar_evaluation_lookup_group (data, group_id);

  return group != NULL ? grammar_evaluation_tag_name (group->tag) : NULL;
}

/* The table of every record of the evaluations, measured once: the
 * figures of to_json() and of compare() come from the same table.
 * Records given one at a time (grammar_retrieval_metrics_add_record())
 * go straight into it. */
static GrammarGraded *
ensure_table (GrammarRetrievalMetrics *self)
{
  static const char * const per_cutoff[N_PER_CUTOFF] = { "hit", "precision", "recall", "mrr", "ndcg" };
  guint n = n_figures (self);
  g_autofree GrammarGradedFigure *figures = g_new0 (GrammarGradedFigure, n);
  GPtrArray *names;

  if (self->table != NULL)
    return self->table;
  names = self->names = g_ptr_array_new_with_free_func (g_free);
  for (guint c = 0; c < self->cutoffs->len; c++)
    {
      g_autofree char *k = cutoff_name (g_array_index (self->cutoffs, guint, c));

      for (guint f = 0; f < N_PER_CUTOFF; f++)
        {
          char *name = g_strdup_printf ("%s@%s", per_cutoff[f], k);

          g_ptr_array_add (names, name);
          figures[c * N_PER_CUTOFF + f].name = name;
          figures[c * N_PER_CUTOFF + f].proportion = f == 0;
        }
    }
  figures[n - 2].name = "rageval_recall";
  figures[n - 1].name = "eir";
  self->table = grammar_graded_new (figures, n, self->seed, self->resamples);

  for (guint e = 0; e < self->evaluations->len; e++)
    {
      GrammarEvaluation *evaluation = g_ptr_array_index (self->evaluations, e);
      GPtrArray *records = grammar_evaluation_get_records (evaluation);

      for (guint i = 0; i < records->len; i++)
        {
          GrammarRecord *record = g_ptr_array_index (records, i);
          const char *group_id = grammar_record_get_group (record);

          add_to_table (self, record, group_id != NULL ? tag_of (group_id, evaluation) : NULL);
        }
    }
  return self->table;
}

static void
count_record (GrammarRetrievalMetrics *self,
              GrammarRecord           *record)
{
  const char * const *doc_ids = grammar_record_get_doc_ids (record);

  self->records++;
  if (doc_ids == NULL || doc_ids[0] == NULL)
    self->no_true_documents++;
  else if (grammar_record_get_retrieved (record) == NULL)
    self->no_retrieval++;
}

/* Measures @record as it is read, without keeping it: a report reads
 * each judged record once. Its group's tag is set by
 * grammar_retrieval_metrics_set_tags() once the run is read. Set the
 * cutoffs first: changing them drops what was added this way. */
void
grammar_retrieval_metrics_add_record (GrammarRetrievalMetrics *self,
                                      GrammarRecord           *record)
{
  g_return_if_fail (GRAMMAR_IS_RETRIEVAL_METRICS (self));
  g_return_if_fail (GRAMMAR_IS_RECORD (record));

  ensure_table (self);
  count_record (self, record);
  add_to_table (self, record, NULL);
}

/* Tags the records added by grammar_retrieval_metrics_add_record() with
 * the tags of their groups in @evaluation, the run they were read from. */
void
grammar_retrieval_metrics_set_tags (GrammarRetrievalMetrics *self,
                                    GrammarEvaluation       *evaluation)
{
  g_return_if_fail (GRAMMAR_IS_RETRIEVAL_METRICS (self));
  g_return_if_fail (GRAMMAR_IS_EVALUATION (evaluation));

  grammar_graded_set_tags (ensure_table (self), tag_of, evaluation);
}

static void
invalidate_table (GrammarRetrievalMetrics *self)
{
  g_clear_pointer (&self->table, grammar_graded_free);
  g_clear_pointer (&self->names, g_ptr_array_unref);
}

/**
 * grammar_retrieval_metrics_set_cutoffs:
 * @self: a #GrammarRetrievalMetrics
 * @cutoffs: (array length=n_cutoffs): the ks, 0 standing for the number
 *   of documents each record retrieved
 * @n_cutoffs: how many; 0 restores the default, `{0}`
 *
 * Sets the cutoffs the figures are computed at, in the order given;
 * repeated values are kept once.
 */
void
grammar_retrieval_metrics_set_cutoffs (GrammarRetrievalMetrics *self,
                                       const guint             *cutoffs,
                                       gsize                    n_cutoffs)
{
  guint zero = 0;

  g_return_if_fail (GRAMMAR_IS_RETRIEVAL_METRICS (self));
  g_return_if_fail (cutoffs != NULL || n_cutoffs == 0);

  invalidate_table (self);
  g_array_set_size (self->cutoffs, 0);
  for (gsize i = 0; i < n_cutoffs; i++)
    {
      gboolean repeated = FALSE;

      for (guint j = 0; j < self->cutoffs->len; j++)
        repeated |= g_array_index (self->cutoffs, guint, j) == cutoffs[i];
      if (!repeated)
        g_array_append_val (self->cutoffs, cutoffs[i]);
    }
  if (self->cutoffs->len == 0)
    g_array_append_val (self->cutoffs, zero);
}

/**
 * grammar_retrieval_metrics_add_evaluation:
 * @self: a #GrammarRetrievalMetrics
 * @evaluation: a judged run
 *
 * Adds the records of @evaluation (its group tags give the `by_group`
 * slices).
 */
void
grammar_retrieval_metrics_add_evaluation (GrammarRetrievalMetrics *self,
                                          GrammarEvaluation       *evaluation)
{
  GPtrArray *records;

  g_return_if_fail (GRAMMAR_IS_RETRIEVAL_METRICS (self));
  g_return_if_fail (GRAMMAR_IS_EVALUATION (evaluation));

  invalidate_table (self);
  g_ptr_array_add (self->evaluations, g_object_ref (evaluation));
  records = grammar_evaluation_get_records (evaluation);
  for (guint i = 0; i < records->len; i++)
    count_record (self, g_ptr_array_index (records, i));
}

/**
 * grammar_retrieval_metrics_get_n_measured:
 * @self: a #GrammarRetrievalMetrics
 *
 * Returns: how many records have true documents and `retrieved`
 */
guint64
grammar_retrieval_metrics_get_n_measured (GrammarRetrievalMetrics *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RETRIEVAL_METRICS (self), 0);
  return self->records - self->no_true_documents - self->no_retrieval;
}

static void
add_cutoffs (GrammarRetrievalMetrics *self,
             JsonBuilder             *builder)
{
  json_builder_set_member_name (builder, "cutoffs");
  json_builder_begin_array (builder);
  for (guint c = 0; c < self->cutoffs->len; c++)
    {
      guint cutoff = g_array_index (self->cutoffs, guint, c);

      if (cutoff > 0)
        json_builder_add_int_value (builder, cutoff);
      else
        json_builder_add_string_value (builder, "retrieved");
    }
  json_builder_end_array (builder);
}

/**
 * grammar_retrieval_metrics_to_json:
 * @self: a #GrammarRetrievalMetrics
 *
 * The figures as `grammar report --format json` writes them under
 * `retrieval_metrics`: `{cutoffs: [k…, "retrieved"], records, measured,
 * no_true_documents, no_retrieval, seed, resamples, overall: {records,
 * FIGURE: {n, value, interval, method[, successes]}…}, by_style,
 * by_template, by_group}` where FIGURE is `hit@K`, `precision@K`,
 * `recall@K`, `mrr@K` and `ndcg@K` for each cutoff K (`retrieved` for the
 * default), `rageval_recall` and `eir`. An undefined figure is null.
 *
 * Returns: (transfer full): the JSON object
 */
JsonNode *
grammar_retrieval_metrics_to_json (GrammarRetrievalMetrics *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  GrammarGraded *table;

  g_return_val_if_fail (GRAMMAR_IS_RETRIEVAL_METRICS (self), NULL);

  table = ensure_table (self);
  json_builder_begin_object (builder);
  add_cutoffs (self, builder);
  grammar_json_add_int (builder, "records", self->records);
  grammar_json_add_int (builder, "measured", grammar_retrieval_metrics_get_n_measured (self));
  grammar_json_add_int (builder, "no_true_documents", self->no_true_documents);
  grammar_json_add_int (builder, "no_retrieval", self->no_retrieval);
  grammar_json_add_int (builder, "seed", self->seed);
  grammar_json_add_int (builder, "resamples", self->resamples);
  grammar_graded_build_slices (table, builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/**
 * grammar_retrieval_metrics_compare:
 * @self: the figures of run A
 * @other: the figures of run B, with the same cutoffs
 * @alpha: the significance level
 *
 * The paired comparison of the two runs, as `grammar report --against`
 * writes it under `comparison.retrieval_metrics`: on the semantic groups
 * both measured, each group's mean on each side, `{cutoffs, FIGURE:
 * {pairs, a, b, difference (b − a, the mean of the groups' differences),
 * interval (its bootstrap interval, normal above 2000 groups),
 * interval_method ("bootstrap" or "normal"), a_higher, b_higher, ties, test
 * ("Wilcoxon signed-rank"), nonzero, w_plus, z, p, significant}…}`.
 *
 * Returns: (transfer full): the JSON object
 */
JsonNode *
grammar_retrieval_metrics_compare (GrammarRetrievalMetrics *self,
                                   GrammarRetrievalMetrics *other,
                                   double                   alpha)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_RETRIEVAL_METRICS (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_RETRIEVAL_METRICS (other), NULL);
  g_return_val_if_fail (self->cutoffs->len == other->cutoffs->len, NULL);

  json_builder_begin_object (builder);
  add_cutoffs (self, builder);
  grammar_graded_build_paired (ensure_table (self), NULL, ensure_table (other), NULL, alpha, builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* GObject */

static void
grammar_retrieval_metrics_finalize (GObject *object)
{
  GrammarRetrievalMetrics *self = GRAMMAR_RETRIEVAL_METRICS (object);

  invalidate_table (self);
  g_array_unref (self->cutoffs);
  g_ptr_array_unref (self->evaluations);
  g_free (self->word_counts);
  G_OBJECT_CLASS (grammar_retrieval_metrics_parent_class)->finalize (object);
}

static void
grammar_retrieval_metrics_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  GrammarRetrievalMetrics *self = GRAMMAR_RETRIEVAL_METRICS (object);

  switch (prop_id)
    {
    case PROP_SEED: g_value_set_uint (value, self->seed); break;
    case PROP_RESAMPLES: g_value_set_uint (value, self->resamples); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_retrieval_metrics_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  GrammarRetrievalMetrics *self = GRAMMAR_RETRIEVAL_METRICS (object);

  switch (prop_id)
    {
    case PROP_SEED: self->seed = g_value_get_uint (value); break;
    case PROP_RESAMPLES: self->resamples = g_value_get_uint (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
  invalidate_table (self);
}

static void
grammar_retrieval_metrics_class_init (GrammarRetrievalMetricsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_retrieval_metrics_finalize;
  object_class->get_property = grammar_retrieval_metrics_get_property;
  object_class->set_property = grammar_retrieval_metrics_set_property;

  /**
   * GrammarRetrievalMetrics:seed:
   *
   * The seed of the bootstrap resamples: the same seed, the same
   * intervals.
   */
  properties[PROP_SEED] =
    g_param_spec_uint ("seed", NULL, "The seed of the bootstrap", 0, G_MAXUINT, 1,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarRetrievalMetrics:resamples:
   *
   * How many bootstrap resamples make an interval; 0: none.
   */
  properties[PROP_RESAMPLES] =
    g_param_spec_uint ("resamples", NULL, "Bootstrap resamples", 0, 1000000, 1000,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_retrieval_metrics_init (GrammarRetrievalMetrics *self)
{
  guint zero = 0;

  self->seed = 1;
  self->resamples = 1000;
  self->cutoffs = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (self->cutoffs, zero);
  self->evaluations = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * grammar_retrieval_metrics_new:
 *
 * Returns: (transfer full): a new #GrammarRetrievalMetrics, cutoff
 *   "what was retrieved", seed 1, 1000 resamples
 */
GrammarRetrievalMetrics *
grammar_retrieval_metrics_new (void)
{
  return g_object_new (GRAMMAR_TYPE_RETRIEVAL_METRICS, NULL);
}
