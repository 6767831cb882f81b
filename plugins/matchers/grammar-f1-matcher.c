/* grammar-f1-matcher.c: the `f1` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-f1-matcher.h"

/*
 * GrammarF1Matcher:
 *
 * The token F1 of the reading-comprehension benchmarks (SQuAD): the
 * response's tokens and the tokens of all the answer's values, both
 * normalised as the other matchers do and without the articles "a",
 * "an", "the", compared as bags; precision = shared / response tokens,
 * recall = shared / answer tokens, F1 their harmonic mean. The score is
 * F1; correct when F1 reaches #GrammarF1Matcher:threshold. With
 * #GrammarTextMatcher:refusals, the tokens of refusing clauses are left
 * out of the response.
 */

#define DEFAULT_THRESHOLD 0.5

struct _GrammarF1Matcher
{
  GrammarTextMatcher parent_instance;

  double threshold;
};

enum
{
  PROP_0,
  PROP_THRESHOLD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarF1Matcher, grammar_f1_matcher, GRAMMAR_TYPE_TEXT_MATCHER,
                                G_TYPE_FLAG_FINAL, {})

static gboolean
is_article (const char *token)
{
  return g_str_equal (token, "a") || g_str_equal (token, "an") || g_str_equal (token, "the");
}

/* Adds the tokens of @text to the bag @counts; returns how many. */
static guint
count_tokens (GHashTable       *counts,
              GrammarMatchText *text,
              gboolean          skip_refused)
{
  guint n = 0;

  for (guint i = 0; i < grammar_match_text_get_length (text); i++)
    {
      const char *token = grammar_match_text_get_token (text, i);

      if (is_article (token) || (skip_refused && grammar_match_text_is_refused (text, i)))
        continue;
      g_hash_table_insert (counts, (gpointer) token,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, token)) + 1));
      n++;
    }
  return n;
}

static guint
shared_tokens (GHashTable *a,
               GHashTable *b)
{
  GHashTableIter iter;
  gpointer key, value;
  guint shared = 0;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    shared += MIN (GPOINTER_TO_UINT (value), GPOINTER_TO_UINT (g_hash_table_lookup (b, key)));
  return shared;
}

static GrammarVerdict *
grammar_f1_matcher_compare (GrammarTextMatcher     *matcher,
                            const GrammarTextMatch *match)
{
  GrammarF1Matcher *self = GRAMMAR_F1_MATCHER (matcher);
  g_autoptr (GHashTable) response = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) answer = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *refusal = NULL;
  guint n_response, n_answer = 0, shared;
  double precision = 0, recall = 0, f1 = 0;

  n_response = count_tokens (response, match->response, match->refusals);
  for (guint i = 0; i < match->value_texts->len; i++)
    n_answer += count_tokens (answer, g_ptr_array_index (match->value_texts, i), FALSE);
  shared = shared_tokens (response, answer);
  if (shared > 0)
    {
      precision = (double) shared / n_response;
      recall = (double) shared / n_answer;
      f1 = 2 * precision * recall / (precision + recall);
    }

  if (f1 >= self->threshold && shared > 0)
    return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_CORRECT, f1,
                                         "F1 %.2f (precision %.2f, recall %.2f)", f1, precision, recall);
  if (match->refusals && (refusal = grammar_match_text_dup_refusal (match->response)) != NULL)
    return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, f1, "refusal: %s (F1 %.2f)",
                                         refusal, f1);
  return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, f1,
                                       "F1 %.2f below %.2f (precision %.2f, recall %.2f)",
                                       f1, self->threshold, precision, recall);
}

static void
grammar_f1_matcher_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  GrammarF1Matcher *self = GRAMMAR_F1_MATCHER (object);

  switch (prop_id)
    {
    case PROP_THRESHOLD: g_value_set_double (value, self->threshold); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_f1_matcher_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  GrammarF1Matcher *self = GRAMMAR_F1_MATCHER (object);

  switch (prop_id)
    {
    case PROP_THRESHOLD: self->threshold = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_f1_matcher_class_init (GrammarF1MatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarTextMatcherClass *matcher_class = GRAMMAR_TEXT_MATCHER_CLASS (klass);

  object_class->get_property = grammar_f1_matcher_get_property;
  object_class->set_property = grammar_f1_matcher_set_property;
  matcher_class->name = "f1";
  matcher_class->compare = grammar_f1_matcher_compare;

  properties[PROP_THRESHOLD] =
    g_param_spec_double ("threshold", NULL, "The least token F1 of a correct response, from 0 to 1",
                         0.0, 1.0, DEFAULT_THRESHOLD,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_f1_matcher_class_finalize (GrammarF1MatcherClass *klass)
{
}

static void
grammar_f1_matcher_init (GrammarF1Matcher *self)
{
  self->threshold = DEFAULT_THRESHOLD;
}

void
grammar_f1_matcher_register (GTypeModule *module)
{
  grammar_f1_matcher_register_type (module);
}
