/* grammar-selfcheck-ngram.c: the `selfcheck-ngram` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "grammar-metric-support.h"
#include "grammar-selfcheck-ngram.h"

/**
 * GrammarSelfcheckNgram:
 *
 * The `selfcheck-ngram` metric: SelfCheckGPT's unigram variant, offline
 * and lexical, not the LLM-based SelfCheck. A unigram model with add-one
 * smoothing is estimated from the samples and the response (words of
 * grammar_document_tokenize()): with N the words counted and V the
 * distinct words, P(w) = (count(w) + 1) / (N + V). Its figure is the
 * average negative log-probability of the response's words, `nll`.
 *
 * Normalisation. The raw average depends on the length of the response
 * and on the number of samples, so it is placed between the two
 * extremes for this very response and sample count: `best`, the average
 * if every sample repeated the response word for word, and `worst`, the
 * average if the samples (of the same N and V) shared no word with it.
 * The score is (worst − nll) / (worst − best), clamped to [0, 1]: 1 when
 * the samples say what the response says, 0 when they say something
 * else entirely; the hallucination figure of the evidence is one minus
 * it, next to the raw average and maximum.
 */

struct _GrammarSelfcheckNgram
{
  GObject parent_instance;

  double threshold;
};

enum
{
  PROP_0,
  PROP_THRESHOLD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_selfcheck_ngram_metric_iface_init (GrammarMetricInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarSelfcheckNgram, grammar_selfcheck_ngram, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_METRIC,
                                                               grammar_selfcheck_ngram_metric_iface_init))

/* Counts the words of @text into @counts; returns how many. */
static guint
count_words (GHashTable *counts,
             const char *text)
{
  g_auto (GStrv) words = grammar_document_tokenize (text);
  guint n = 0;

  for (; words[n] != NULL; n++)
    {
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, words[n]));

      g_hash_table_replace (counts, g_strdup (words[n]), GUINT_TO_POINTER (count + 1));
    }
  return n;
}

/* Adds the counts of @from to @counts. */
static void
merge_counts (GHashTable *counts,
              GHashTable *from)
{
  GHashTableIter iter;
  gpointer word, count;

  g_hash_table_iter_init (&iter, from);
  while (g_hash_table_iter_next (&iter, &word, &count))
    g_hash_table_replace (counts, g_strdup (word),
                          GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, word)) +
                                            GPOINTER_TO_UINT (count)));
}

static GrammarScore *
grammar_selfcheck_ngram_score (GrammarMetric  *metric,
                               GrammarRecord  *record,
                               GCancellable   *cancellable,
                               GError        **error)
{
  const char * const *samples = grammar_record_get_samples (record);
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) own = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) evidence = NULL;
  g_auto (GStrv) words = NULL;
  GrammarScore *score = grammar_metric_support_no_response (record);
  double total = 0.0, worst = 0.0, best_total = 0.0, worst_total = 0.0;
  double denominator, best_denominator, average, best, worst_average, normalised;
  guint n = 0, v, n_words, n_samples;

  if (score != NULL)
    return score;
  if (samples == NULL || samples[0] == NULL)
    return grammar_metric_support_no_samples (record);
  words = grammar_document_tokenize (grammar_record_get_response (record));
  n_words = g_strv_length (words);
  if (n_words == 0)
    return grammar_score_new_unmeasured ("the response has no word");

  for (guint i = 0; samples[i] != NULL; i++)
    n += count_words (counts, samples[i]);
  n_samples = g_strv_length ((GStrv) samples);
  n += count_words (own, grammar_record_get_response (record));
  merge_counts (counts, own);
  v = g_hash_table_size (counts);
  denominator = (double) n + v;
  best_denominator = (double) (n_samples + 1) * n_words + g_hash_table_size (own);
  for (guint i = 0; i < n_words; i++)
    {
      double own_count = GPOINTER_TO_UINT (g_hash_table_lookup (own, words[i]));
      double surprise = -log ((GPOINTER_TO_UINT (g_hash_table_lookup (counts, words[i])) + 1.0) / denominator);

      total += surprise;
      worst = MAX (worst, surprise);
      best_total += -log (((n_samples + 1) * own_count + 1.0) / best_denominator);
      worst_total += -log ((own_count + 1.0) / denominator);
    }
  average = total / n_words;
  best = best_total / n_words;
  worst_average = worst_total / n_words;
  normalised = worst_average - best > 1e-12 ? CLAMP ((worst_average - average) / (worst_average - best), 0.0, 1.0)
                                            : 1.0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "avg_neg_logprob");
  json_builder_add_double_value (builder, average);
  json_builder_set_member_name (builder, "max_neg_logprob");
  json_builder_add_double_value (builder, worst);
  json_builder_set_member_name (builder, "best_neg_logprob");
  json_builder_add_double_value (builder, best);
  json_builder_set_member_name (builder, "worst_neg_logprob");
  json_builder_add_double_value (builder, worst_average);
  json_builder_set_member_name (builder, "hallucination");
  json_builder_add_double_value (builder, 1.0 - normalised);
  json_builder_set_member_name (builder, "words");
  json_builder_add_int_value (builder, n);
  json_builder_set_member_name (builder, "vocabulary");
  json_builder_add_int_value (builder, v);
  json_builder_set_member_name (builder, "samples");
  json_builder_add_int_value (builder, n_samples);
  json_builder_end_object (builder);
  evidence = json_builder_get_root (builder);

  score = grammar_score_new (normalised);
  grammar_score_set_evidence (score, evidence);
  return score;
}

static gboolean
grammar_selfcheck_ngram_check_record (GrammarMetric  *metric,
                                      GrammarRecord  *record,
                                      GError        **error)
{
  return grammar_metric_support_need_samples (record, "selfcheck-ngram", error);
}

static void
grammar_selfcheck_ngram_metric_iface_init (GrammarMetricInterface *iface)
{
  iface->check_record = grammar_selfcheck_ngram_check_record;
  iface->score = grammar_selfcheck_ngram_score;
}

static void
grammar_selfcheck_ngram_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GrammarSelfcheckNgram *self = GRAMMAR_SELFCHECK_NGRAM (object);

  switch (prop_id)
    {
    case PROP_THRESHOLD: g_value_set_double (value, self->threshold); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_selfcheck_ngram_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GrammarSelfcheckNgram *self = GRAMMAR_SELFCHECK_NGRAM (object);

  switch (prop_id)
    {
    case PROP_THRESHOLD: self->threshold = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_selfcheck_ngram_class_init (GrammarSelfcheckNgramClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = grammar_selfcheck_ngram_get_property;
  object_class->set_property = grammar_selfcheck_ngram_set_property;

  properties[PROP_THRESHOLD] =
    g_param_spec_double ("threshold", NULL,
                         "A response passes from this score (1: the samples repeat its words, 0: none of them) on",
                         0.0, 1.0, 0.5, G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_selfcheck_ngram_class_finalize (GrammarSelfcheckNgramClass *klass)
{
}

static void
grammar_selfcheck_ngram_init (GrammarSelfcheckNgram *self)
{
  self->threshold = 0.5;
}

void
grammar_selfcheck_ngram_register (GTypeModule *module)
{
  grammar_selfcheck_ngram_register_type (module);
}
