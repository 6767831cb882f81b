/* grammar-comparison.h: the hypothesis test between two judged runs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include "grammar-evaluation.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_COMPARISON (grammar_comparison_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarComparison, grammar_comparison, GRAMMAR, COMPARISON, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarComparison *grammar_comparison_new            (GrammarEvaluation  *a,
                                                      GrammarEvaluation  *b,
                                                      gboolean            balance,
                                                      double              alpha,
                                                      GError            **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode          *grammar_comparison_to_json        (GrammarComparison  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char        *grammar_comparison_get_conclusion (GrammarComparison  *self);

G_END_DECLS
