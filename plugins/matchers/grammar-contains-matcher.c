/* grammar-contains-matcher.c: the `contains` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-contains-matcher.h"

/*
 * GrammarContainsMatcher:
 *
 * Correct when every value of the true answer (every non-null cell of
 * every row) occurs in the response, both normalised the same way
 * (grammar-match-tokens.c: case, diacritics, punctuation, numbers,
 * dates, stems; grammar-aliases.c: alias sets) and compared as whole
 * tokens, so that "US" is not found in "business". With
 * #GrammarTextMatcher:refusals, an occurrence inside a refusing clause
 * does not count, and a response that misses a value and refuses is
 * incorrect with the reason "refusal: …".
 *
 * With #GrammarContainsMatcher:ignore-query-names, the names the query
 * asks about (the values bound to its placeholders, and what it quotes:
 * 'Empire Bank') are masked in the response: the value "Banking" found
 * only inside "Empire Bank" does not count. A name that is itself a
 * value is not masked.
 *
 * The score is the share of the values found; the reason names the
 * first missing value.
 */

struct _GrammarContainsMatcher
{
  GrammarTextMatcher parent_instance;

  gboolean ignore_query_names;
};

enum
{
  PROP_0,
  PROP_IGNORE_QUERY_NAMES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarContainsMatcher, grammar_contains_matcher, GRAMMAR_TYPE_TEXT_MATCHER,
                                G_TYPE_FLAG_FINAL, {})

static gboolean
value_found (const GrammarTextMatch *match,
             guint                   i)
{
  GrammarMatchText *value = g_ptr_array_index (match->value_texts, i);

  if (grammar_match_text_get_length (value) == 0)
    return grammar_match_text_contains_symbols (match->response, value);
  return grammar_match_text_find (match->response, value, 0, match->refusals) >= 0;
}

static gboolean
is_a_value (const GrammarTextMatch *match,
            GrammarMatchText       *name)
{
  for (guint i = 0; i < match->value_texts->len; i++)
    {
      GrammarMatchText *value = g_ptr_array_index (match->value_texts, i);

      if (grammar_match_text_get_length (value) == grammar_match_text_get_length (name) &&
          grammar_match_text_equal_at (value, 0, name))
        return TRUE;
    }
  return FALSE;
}

static void
mask_query_names (const GrammarTextMatch *match)
{
  for (guint i = 0; i < match->query_names->len; i++)
    {
      GrammarMatchText *name = g_ptr_array_index (match->query_names, i);

      if (!is_a_value (match, name))
        grammar_match_text_mask (match->response, name);
    }
}

static GrammarVerdict *
grammar_contains_matcher_compare (GrammarTextMatcher     *self,
                                  const GrammarTextMatch *match)
{
  guint n = match->values->len, found = 0;
  const char *missing = NULL;
  g_autofree char *quoted = NULL;
  g_autofree char *refusal = NULL;
  double score;

  if (GRAMMAR_CONTAINS_MATCHER (self)->ignore_query_names)
    mask_query_names (match);
  for (guint i = 0; i < n; i++)
    {
      if (value_found (match, i))
        found++;
      else if (missing == NULL)
        missing = g_ptr_array_index (match->values, i);
    }
  score = (double) found / n;

  if (missing == NULL)
    {
      if (n > 1)
        return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_CORRECT, score, "found all %u values", n);
      quoted = grammar_text_matcher_quote (g_ptr_array_index (match->values, 0));
      return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_CORRECT, score, "found %s", quoted);
    }
  if (match->refusals && (refusal = grammar_match_text_dup_refusal (match->response)) != NULL)
    return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_INCORRECT, score, "refusal: %s", refusal);
  quoted = grammar_text_matcher_quote (missing);
  if (n > 1)
    return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_INCORRECT, score,
                                         "missing %s (%u of %u values found)", quoted, found, n);
  return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_INCORRECT, score, "missing %s", quoted);
}

static void
grammar_contains_matcher_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  GrammarContainsMatcher *self = GRAMMAR_CONTAINS_MATCHER (object);

  switch (prop_id)
    {
    case PROP_IGNORE_QUERY_NAMES: g_value_set_boolean (value, self->ignore_query_names); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_contains_matcher_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  GrammarContainsMatcher *self = GRAMMAR_CONTAINS_MATCHER (object);

  switch (prop_id)
    {
    case PROP_IGNORE_QUERY_NAMES: self->ignore_query_names = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_contains_matcher_class_init (GrammarContainsMatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarTextMatcherClass *matcher_class = GRAMMAR_TEXT_MATCHER_CLASS (klass);

  object_class->get_property = grammar_contains_matcher_get_property;
  object_class->set_property = grammar_contains_matcher_set_property;
  matcher_class->name = "contains";
  matcher_class->compare = grammar_contains_matcher_compare;

  properties[PROP_IGNORE_QUERY_NAMES] =
    g_param_spec_boolean ("ignore-query-names", NULL,
                          "A value found only inside a name the query quotes or binds ('Empire Bank') does not count",
                          TRUE, G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_contains_matcher_class_finalize (GrammarContainsMatcherClass *klass)
{
}

static void
grammar_contains_matcher_init (GrammarContainsMatcher *self)
{
  self->ignore_query_names = TRUE;
}

void
grammar_contains_matcher_register (GTypeModule *module)
{
  grammar_contains_matcher_register_type (module);
}
