/* grammar-exact-matcher.h: the `exact` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-text-matcher.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_EXACT_MATCHER (grammar_exact_matcher_get_type ())
G_DECLARE_FINAL_TYPE (GrammarExactMatcher, grammar_exact_matcher, GRAMMAR, EXACT_MATCHER, GrammarTextMatcher)

void grammar_exact_matcher_register (GTypeModule *module);

G_END_DECLS
