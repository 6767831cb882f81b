/* grammar-exact-matcher.c: the `exact` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-exact-matcher.h"

/*
 * GrammarExactMatcher:
 *
 * Correct when the response, normalised, is the true answer and nothing
 * else: its tokens are exactly the tokens of the answer's rows, each row
 * its cells in column order, the rows in any order. Punctuation and
 * line breaks are not tokens, so one value may end with a full stop, and
 * several values may be separated by commas, semicolons or lines
 * ("Paris, London" or one per line); a word between them ("Paris and
 * London") makes the response differ. The score is 1 or 0.
 */

struct _GrammarExactMatcher
{
  GrammarTextMatcher parent_instance;
};

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarExactMatcher, grammar_exact_matcher, GRAMMAR_TYPE_TEXT_MATCHER,
                                G_TYPE_FLAG_FINAL, {})

/* The tokens of row @row found at @at: how many, or -1. */
static gssize
row_at (const GrammarTextMatch *match,
        guint                   row,
        guint                   at)
{
  guint first = g_array_index (match->row_starts, guint, row);
  guint last = g_array_index (match->row_starts, guint, row + 1);
  guint used = 0;

  for (guint v = first; v < last; v++)
    {
      GrammarMatchText *value = g_ptr_array_index (match->value_texts, v);

      if (!grammar_match_text_equal_at (match->response, at + used, value))
        return -1;
      used += grammar_match_text_get_length (value);
    }
  return (gssize) used;
}

/* Each row once, in any order, and nothing else; at each place the
 * longest row that fits is taken. */
static gboolean
rows_are_response (const GrammarTextMatch *match)
{
  guint n_rows = match->row_starts->len - 1;
  guint length = grammar_match_text_get_length (match->response);
  g_autofree gboolean *used = g_new0 (gboolean, n_rows);
  guint at = 0, n_used = 0;

  while (at < length)
    {
      gssize best_length = 0;
      guint best = n_rows;

      for (guint r = 0; r < n_rows; r++)
        {
          gssize taken = used[r] ? -1 : row_at (match, r, at);

          if (taken > best_length)
            best_length = taken, best = r;
        }
      if (best == n_rows)
        return FALSE;
      used[best] = TRUE;
      n_used++;
      at += (guint) best_length;
    }
  return n_used == n_rows;
}

/* Values made of symbols only ("—") have no tokens: compare the texts. */
static gboolean
has_symbol_values (const GrammarTextMatch *match)
{
  for (guint i = 0; i < match->value_texts->len; i++)
    if (grammar_match_text_get_length (g_ptr_array_index (match->value_texts, i)) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
symbols_equal (const GrammarTextMatch *match)
{
  g_autofree char *response = g_strstrip (g_utf8_casefold (grammar_record_get_response (match->record), -1));
  g_autofree char *value = NULL;

  if (match->values->len != 1)
    return FALSE;
  value = g_strstrip (g_utf8_casefold (g_ptr_array_index (match->values, 0), -1));
  return g_str_equal (response, value);
}

static GrammarVerdict *
grammar_exact_matcher_compare (GrammarTextMatcher     *self,
                               const GrammarTextMatch *match)
{
  g_autofree char *refusal = NULL;
  g_autofree char *quoted = NULL;
  gboolean equal;

  equal = has_symbol_values (match) ? symbols_equal (match) : rows_are_response (match);
  if (equal && match->values->len > 1)
    return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_CORRECT, 1.0, "the response is the %u values",
                                         match->values->len);
  if (equal)
    return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_CORRECT, 1.0, "the response is the value");
  if (match->refusals && (refusal = grammar_match_text_dup_refusal (match->response)) != NULL)
    return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_INCORRECT, 0.0, "refusal: %s", refusal);
  quoted = grammar_text_matcher_quote (g_ptr_array_index (match->values, 0));
  if (match->values->len > 1)
    return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_INCORRECT, 0.0,
                                         "the response is not exactly the %u values (%s, …)",
                                         match->values->len, quoted);
  return grammar_text_matcher_verdict (self, GRAMMAR_VERDICT_INCORRECT, 0.0, "the response is not exactly %s",
                                       quoted);
}

static void
grammar_exact_matcher_class_init (GrammarExactMatcherClass *klass)
{
  GrammarTextMatcherClass *matcher_class = GRAMMAR_TEXT_MATCHER_CLASS (klass);

  matcher_class->name = "exact";
  matcher_class->compare = grammar_exact_matcher_compare;
}

static void
grammar_exact_matcher_class_finalize (GrammarExactMatcherClass *klass)
{
}

static void
grammar_exact_matcher_init (GrammarExactMatcher *self)
{
}

void
grammar_exact_matcher_register (GTypeModule *module)
{
  grammar_exact_matcher_register_type (module);
}
