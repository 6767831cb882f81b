/* grammar-match-answer.h: what the kind of an answer tells `contains`
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

#include "grammar-match-text.h"
#include "grammar-text-matcher.h"

G_BEGIN_DECLS

/* What a response says to a yes/no question. */
typedef enum
{
  GRAMMAR_POLARITY_NONE,        /* neither yes nor no: an affirmative statement, or a refusal */
  GRAMMAR_POLARITY_YES,
  GRAMMAR_POLARITY_NO,
  GRAMMAR_POLARITY_BOTH,        /* "yes or no" */
} GrammarPolarity;

gboolean             grammar_match_answer_is_yes_no_question (const char       *question);
int                  grammar_match_answer_truth      (const char       *value,
                                                      gboolean          yes_no_question);
GrammarPolarity      grammar_match_answer_polarity   (GrammarMatchText *response,
                                                      gboolean          skip_refused,
                                                      char            **said);
gboolean             grammar_match_answer_find_number (GrammarMatchText *response,
                                                      GrammarMatchText *value,
                                                      gboolean          skip_refused,
                                                      char            **written);
gboolean             grammar_match_answer_only_candidates (GrammarMatchText *response,
                                                      GPtrArray        *value_texts,
                                                      guint             i,
                                                      gboolean          skip_refused,
                                                      char            **written);
GrammarDatePrecision grammar_match_answer_asked_precision (const char     *question);
gboolean             grammar_match_answer_found_otherwise (const GrammarTextMatch  *match,
                                                      guint                    i,
                                                      GrammarHemisphere        hemisphere,
                                                      const GrammarMatchDate **coarse,
                                                      char                   **written);
GrammarVerdict      *grammar_match_answer_judge_truth (GrammarTextMatcher     *matcher,
                                                      const GrammarTextMatch *match);
GrammarVerdict      *grammar_match_answer_judge_units (GrammarTextMatcher     *matcher,
                                                      const GrammarTextMatch *match,
                                                      double                  score);
GrammarVerdict      *grammar_match_answer_judge_candidates (GrammarTextMatcher     *matcher,
                                                      const GrammarTextMatch *match,
                                                      double                  score);

G_END_DECLS
