/* grammar-comparison.h: the hypothesis test between two judged runs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include "grammar-evaluation.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_COMPARISON (grammar_comparison_get_type ())
G_DECLARE_FINAL_TYPE (GrammarComparison, grammar_comparison, GRAMMAR, COMPARISON, GObject)

GrammarComparison *grammar_comparison_new            (GrammarEvaluation  *a,
                                                      GrammarEvaluation  *b,
                                                      gboolean            balance,
                                                      double              alpha,
                                                      GError            **error);
JsonNode          *grammar_comparison_to_json        (GrammarComparison  *self);
const char        *grammar_comparison_get_conclusion (GrammarComparison  *self);

G_END_DECLS
