/* grammar-verdict.h: a judgement of one response
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GrammarVerdictKind:
 * @GRAMMAR_VERDICT_UNMEASURED: the judge could not decide (empty response, LLM error, unparseable judge output); counted and reported, never taken as incorrect
 * @GRAMMAR_VERDICT_CORRECT: the response answers the query with the true answer
 * @GRAMMAR_VERDICT_INCORRECT: the response does not contain the true answer
 *
 * The outcome of judging a response against the truth.
 */
typedef enum {
  GRAMMAR_VERDICT_UNMEASURED,
  GRAMMAR_VERDICT_CORRECT,
  GRAMMAR_VERDICT_INCORRECT,
} GrammarVerdictKind;

#define GRAMMAR_TYPE_VERDICT (grammar_verdict_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarVerdict, grammar_verdict, GRAMMAR, VERDICT, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarVerdict     *grammar_verdict_new         (GrammarVerdictKind kind,
                                                 double             score,
                                                 const char        *reason,
                                                 const char        *matcher);
GRAMMAR_AVAILABLE_IN_ALL
GrammarVerdictKind  grammar_verdict_get_kind    (GrammarVerdict    *self);
GRAMMAR_AVAILABLE_IN_ALL
double              grammar_verdict_get_score   (GrammarVerdict    *self);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_verdict_get_reason  (GrammarVerdict    *self);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_verdict_get_matcher (GrammarVerdict    *self);

GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_verdict_kind_to_string   (GrammarVerdictKind kind);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_verdict_kind_from_string (const char        *text,
                                                      GrammarVerdictKind *kind);

G_END_DECLS
