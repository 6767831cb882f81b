/* grammar-lexical-faithfulness.c: the `faithfulness-lexical` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-lexical-faithfulness.h"
#include "grammar-metric-support.h"

/**
 * GrammarLexicalFaithfulness:
 *
 * The `faithfulness-lexical` metric: an offline, lexical approximation
 * of faithfulness, not RAGAS. The response is cut into sentences
 * (grammar_document_split_sentences()); a sentence's content words are
 * its words (grammar_document_tokenize()) without the built-in English
 * stop words; a sentence is covered when at least
 * #GrammarLexicalFaithfulness:coverage of its content words occur in
 * the retrieved context. The score is covered sentences / sentences with
 * content words. A response without content words and a record without
 * retrieved context are unmeasured.
 */

struct _GrammarLexicalFaithfulness
{
  GObject parent_instance;

  double coverage;
  double threshold;
};

enum
{
  PROP_0,
  PROP_COVERAGE,
  PROP_THRESHOLD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_lexical_faithfulness_metric_iface_init (GrammarMetricInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarLexicalFaithfulness, grammar_lexical_faithfulness, G_TYPE_OBJECT,
                                G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_METRIC,
                                                               grammar_lexical_faithfulness_metric_iface_init))

static GrammarScore *
grammar_lexical_faithfulness_score (GrammarMetric  *metric,
                                    GrammarRecord  *record,
                                    GCancellable   *cancellable,
                                    GError        **error)
{
  GrammarLexicalFaithfulness *self = GRAMMAR_LEXICAL_FAITHFULNESS (metric);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) evidence = NULL;
  g_autoptr (GHashTable) context_words = NULL;
  g_autofree char *context = NULL;
  g_auto (GStrv) sentences = NULL;
  GrammarScore *score = grammar_metric_support_no_response (record);
  guint covered = 0, counted = 0;

  if (score != NULL)
    return score;
  context = grammar_metric_support_context (record);
  if (context == NULL)
    return grammar_score_new_unmeasured ("no retrieved context");
  context_words = grammar_metric_content_words (context);
  sentences = grammar_document_split_sentences (grammar_record_get_response (record));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "sentences");
  json_builder_begin_array (builder);
  for (guint i = 0; sentences[i] != NULL; i++)
    {
      g_autoptr (GHashTable) words = grammar_metric_content_words (sentences[i]);
      GHashTableIter iter;
      gpointer word;
      guint found = 0;
      double share;

      if (g_hash_table_size (words) == 0)
        continue;
      g_hash_table_iter_init (&iter, words);
      while (g_hash_table_iter_next (&iter, &word, NULL))
        found += g_hash_table_contains (context_words, word);
      share = (double) found / g_hash_table_size (words);
      counted++;
      covered += share >= self->coverage - 1e-9;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, sentences[i]);
      json_builder_set_member_name (builder, "coverage");
      json_builder_add_double_value (builder, share);
      json_builder_set_member_name (builder, "covered");
      json_builder_add_boolean_value (builder, share >= self->coverage - 1e-9);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  evidence = json_builder_get_root (builder);

  score = counted > 0 ? grammar_score_new ((double) covered / counted)
                      : grammar_score_new_unmeasured ("the response has no content word");
  grammar_score_set_evidence (score, evidence);
  return score;
}

static gboolean
grammar_lexical_faithfulness_check_record (GrammarMetric  *metric,
                                           GrammarRecord  *record,
                                           GError        **error)
{
  return grammar_metric_support_need_texts (record, "faithfulness-lexical", error);
}

static void
grammar_lexical_faithfulness_metric_iface_init (GrammarMetricInterface *iface)
{
  iface->check_record = grammar_lexical_faithfulness_check_record;
  iface->score = grammar_lexical_faithfulness_score;
}

static void
grammar_lexical_faithfulness_get_property (GObject    *object,
                                           guint       prop_id,
                                           GValue     *value,
                                           GParamSpec *pspec)
{
  GrammarLexicalFaithfulness *self = GRAMMAR_LEXICAL_FAITHFULNESS (object);

  switch (prop_id)
    {
    case PROP_COVERAGE: g_value_set_double (value, self->coverage); break;
    case PROP_THRESHOLD: g_value_set_double (value, self->threshold); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_lexical_faithfulness_set_property (GObject      *object,
                                           guint         prop_id,
                                           const GValue *value,
                                           GParamSpec   *pspec)
{
  GrammarLexicalFaithfulness *self = GRAMMAR_LEXICAL_FAITHFULNESS (object);

  switch (prop_id)
    {
    case PROP_COVERAGE: self->coverage = g_value_get_double (value); break;
    case PROP_THRESHOLD: self->threshold = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_lexical_faithfulness_class_init (GrammarLexicalFaithfulnessClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = grammar_lexical_faithfulness_get_property;
  object_class->set_property = grammar_lexical_faithfulness_set_property;

  properties[PROP_COVERAGE] =
    g_param_spec_double ("coverage", NULL,
                         "A sentence is covered when this share of its content words is in the context",
                         0.0, 1.0, 0.8, flags);
  properties[PROP_THRESHOLD] =
    g_param_spec_double ("threshold", NULL, "A response passes from this share of covered sentences on",
                         0.0, 1.0, 0.5, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_lexical_faithfulness_class_finalize (GrammarLexicalFaithfulnessClass *klass)
{
}

static void
grammar_lexical_faithfulness_init (GrammarLexicalFaithfulness *self)
{
  self->coverage = 0.8;
  self->threshold = 0.5;
}

void
grammar_lexical_faithfulness_register (GTypeModule *module)
{
  grammar_lexical_faithfulness_register_type (module);
}
