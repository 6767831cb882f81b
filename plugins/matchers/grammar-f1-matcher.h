/* grammar-f1-matcher.h: the `f1` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-text-matcher.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_F1_MATCHER (grammar_f1_matcher_get_type ())
G_DECLARE_FINAL_TYPE (GrammarF1Matcher, grammar_f1_matcher, GRAMMAR, F1_MATCHER, GrammarTextMatcher)

void grammar_f1_matcher_register (GTypeModule *module);

G_END_DECLS
