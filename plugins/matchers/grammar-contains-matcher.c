/* grammar-contains-matcher.c: the `contains` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-contains-matcher.h"
#include "grammar-match-answer.h"

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
 * only inside "Empire Bank" does not count. Masking never removes an
 * occurrence of the value looked for (grammar_match_text_mask_names(),
 * value by value): the name inside the email
 * "margit.halvorsen@kestrelridge.example" or inside "Margit Halvorsen
 * Foundation" is not masked when that is the value.
 *
 * A value that is a full date ("2024-06-15") is also found written at
 * a coarser precision that contains it, down to
 * #GrammarContainsMatcher:date-precision: "June 2024", "Q2 2024",
 * "spring 2024" (#GrammarContainsMatcher:hemisphere), "2024". The
 * reason then names the precision.
 *
 * The score is the share of the values found; the reason names the
 * first missing value.
 */

struct _GrammarContainsMatcher
{
  GrammarTextMatcher parent_instance;

  gboolean ignore_query_names;
  GrammarDatePrecision date_precision;
  GrammarHemisphere hemisphere;
};

enum
{
  PROP_0,
  PROP_IGNORE_QUERY_NAMES,
  PROP_DATE_PRECISION,
  PROP_HEMISPHERE,
  N_PROPS
};

/* Where a value that is a full date was found at a coarser precision. */
typedef struct
{
  guint value;                     /* its index in the values */
  const GrammarMatchDate *date;    /* the response's date */
} CoarseFind;

static GParamSpec *properties[N_PROPS];

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarContainsMatcher, grammar_contains_matcher, GRAMMAR_TYPE_TEXT_MATCHER,
                                G_TYPE_FLAG_FINAL, {})

/* With ignore-query-names, masks the query's names in the response for
 * value @i: what of them is not a part of that value. */
static void
mask_names_for (GrammarContainsMatcher *self,
                const GrammarTextMatch *match,
                guint                   i)
{
  if (self->ignore_query_names)
    grammar_match_text_mask_names (match->response, match->query_names, g_ptr_array_index (match->value_texts, i));
}

/* The response's date that contains value @i, a full date, at a
 * precision @coarsest accepts; NULL when there is none. */
static const GrammarMatchDate *
find_coarse_date (GrammarContainsMatcher *self,
                  const GrammarTextMatch *match,
                  guint                   i,
                  GrammarDatePrecision    coarsest)
{
  const GrammarMatchDate *day = grammar_match_text_get_full_date (g_ptr_array_index (match->value_texts, i));

  if (day == NULL || coarsest == GRAMMAR_DATE_PRECISION_DAY)
    return NULL;
  return grammar_match_text_find_date (match->response, day, coarsest, self->hemisphere, match->refusals);
}

/* Whether value @i is in the response; @coarse is set when only a date
 * at a coarser precision holds it. */
static gboolean
value_found (GrammarContainsMatcher *self,
             const GrammarTextMatch *match,
             guint                   i,
             const GrammarMatchDate **coarse)
{
  GrammarMatchText *value = g_ptr_array_index (match->value_texts, i);

  *coarse = NULL;
  if (grammar_match_text_get_length (value) == 0)
    return grammar_match_text_contains_symbols (match->response, value);
  mask_names_for (self, match, i);
  if (grammar_match_text_find (match->response, value, 0, match->refusals) >= 0)
    return TRUE;
  *coarse = find_coarse_date (self, match, i, self->date_precision);
  return *coarse != NULL;
}

/* “2024-06-15” at month precision (“June 2024”) */
static char *
describe_coarse (const GrammarTextMatch *match,
                 const CoarseFind       *find)
{
  g_autofree char *value = grammar_text_matcher_quote (g_ptr_array_index (match->values, find->value));
  g_autofree char *written = grammar_match_text_dup_date_text (match->response, find->date);
  g_autofree char *quoted = grammar_text_matcher_quote (written);

  return g_strdup_printf ("%s at %s precision (%s)", value, grammar_date_precision_to_string (find->date->precision),
                          quoted);
}

/* For a missing full date that the response gives only at a precision
 * coarser than date-precision: " (only at month precision: “June 2024”)";
 * otherwise "". */
static char *
describe_too_coarse (GrammarContainsMatcher *self,
                     const GrammarTextMatch *match,
                     guint                   missing)
{
  const GrammarMatchDate *date;
  g_autofree char *written = NULL;
  g_autofree char *quoted = NULL;

  mask_names_for (self, match, missing);
  date = find_coarse_date (self, match, missing, GRAMMAR_DATE_PRECISION_YEAR);
  if (date == NULL)
    return g_strdup ("");
  written = grammar_match_text_dup_date_text (match->response, date);
  quoted = grammar_text_matcher_quote (written);
  return g_strdup_printf (" (only at %s precision: %s)", grammar_date_precision_to_string (date->precision), quoted);
}

static GrammarVerdict *
grammar_contains_matcher_compare (GrammarTextMatcher     *matcher,
                                  const GrammarTextMatch *match)
{
  GrammarContainsMatcher *self = GRAMMAR_CONTAINS_MATCHER (matcher);
  guint n = match->values->len, found = 0, missing = n;
  CoarseFind coarse = { 0, NULL };
  g_autofree char *other = NULL;   /* how a value found in another form is written */
  guint other_value = 0;
  GrammarVerdict *shaped;
  g_autofree char *quoted = NULL;
  g_autofree char *refusal = NULL;
  g_autofree char *detail = NULL;
  double score;

  for (guint i = 0; i < n; i++)
    {
      const GrammarMatchDate *date;
      g_autofree char *written = NULL;

      if (value_found (self, match, i, &date) ||
          grammar_match_answer_found_otherwise (match, i, self->hemisphere, &date, &written))
        {
          if (written != NULL && other == NULL)
            other = g_steal_pointer (&written), other_value = i;
          found++;
          if (date != NULL && coarse.date == NULL)
            coarse = (CoarseFind) { i, date };
        }
      else if (missing == n)
        missing = i;
    }
  score = (double) found / n;

  /* What the kind of the answer asks (grammar-match-answer.c): a truth
   * value is what the response says, yes or no; a value given only as
   * one of several candidates is no answer. */
  if ((shaped = grammar_match_answer_judge_truth (matcher, match)) != NULL)
    return shaped;
  if (missing == n && (shaped = grammar_match_answer_judge_candidates (matcher, match, score)) != NULL)
    return shaped;
  if (missing == n && (shaped = grammar_match_answer_judge_units (matcher, match, score)) != NULL)
    return shaped;

  if (missing == n)
    {
      if (coarse.date != NULL)
        detail = describe_coarse (match, &coarse);
      else if (other != NULL)
        {
          g_autofree char *value = grammar_text_matcher_quote (g_ptr_array_index (match->values, other_value));
          g_autofree char *written = grammar_text_matcher_quote (other);

          detail = g_strdup_printf ("%s as %s", value, written);
        }
      if (n > 1)
        return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_CORRECT, score, "found all %u values%s%s", n,
                                             detail != NULL ? ", " : "", detail != NULL ? detail : "");
      if (detail != NULL)
        return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_CORRECT, score, "found %s", detail);
      quoted = grammar_text_matcher_quote (g_ptr_array_index (match->values, 0));
      return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_CORRECT, score, "found %s", quoted);
    }
  if (match->refusals && (refusal = grammar_match_text_dup_refusal (match->response)) != NULL)
    return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, score, "refusal: %s", refusal);
  quoted = grammar_text_matcher_quote (g_ptr_array_index (match->values, missing));
  detail = describe_too_coarse (self, match, missing);
  if (n > 1)
    return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, score,
                                         "missing %s%s (%u of %u values found)", quoted, detail, found, n);
  return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, score, "missing %s%s", quoted, detail);
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
    case PROP_DATE_PRECISION: g_value_set_enum (value, self->date_precision); break;
    case PROP_HEMISPHERE: g_value_set_enum (value, self->hemisphere); break;
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
    case PROP_DATE_PRECISION: self->date_precision = g_value_get_enum (value); break;
    case PROP_HEMISPHERE: self->hemisphere = g_value_get_enum (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_contains_matcher_class_init (GrammarContainsMatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarTextMatcherClass *matcher_class = GRAMMAR_TEXT_MATCHER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = grammar_contains_matcher_get_property;
  object_class->set_property = grammar_contains_matcher_set_property;
  matcher_class->name = "contains";
  matcher_class->compare = grammar_contains_matcher_compare;

  properties[PROP_IGNORE_QUERY_NAMES] =
    g_param_spec_boolean ("ignore-query-names", NULL,
                          "A value found only inside a name the query quotes or binds ('Empire Bank') does not count",
                          TRUE, flags);

  /**
   * GrammarContainsMatcher:date-precision:
   *
   * The coarsest precision at which a value that is a full date
   * ("2024-06-15") may be written in the response: `day` (the default:
   * only that day), `month` ("June 2024", "06/2024", "2024-06"),
   * `quarter` (also "Q2 2024", "the second quarter of 2024"), `season`
   * (months and "spring 2024", not quarters) or `year` (everything,
   * and "2024" alone). The coarser date must contain the value: "Q3
   * 2024" does not hold 2024-06-15, and a full date of another day is
   * never a match. The reason names the precision found: “2024-06-15”
   * at month precision (“June 2024”).
   */
  properties[PROP_DATE_PRECISION] =
    g_param_spec_enum ("date-precision", NULL,
                       "The coarsest precision of a date accepted for a full date: day, month, quarter, season or year",
                       GRAMMAR_TYPE_DATE_PRECISION, GRAMMAR_DATE_PRECISION_DAY, flags);

  /**
   * GrammarContainsMatcher:hemisphere:
   *
   * Where the seasons of #GrammarContainsMatcher:date-precision are
   * named: `north` (the default: spring is March to May, winter
   * December to February) or `south` (spring is September to November,
   * winter June to August). Seasons are meteorological; the season
   * that runs across the new year takes the year of its January:
   * "winter 2023" is December 2022 to February 2023 in the north.
   */
  properties[PROP_HEMISPHERE] =
    g_param_spec_enum ("hemisphere", NULL, "Where seasons are named: north (spring is March to May) or south",
                       GRAMMAR_TYPE_HEMISPHERE, GRAMMAR_HEMISPHERE_NORTH, flags);
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
