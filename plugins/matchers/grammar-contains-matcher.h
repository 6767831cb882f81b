/* grammar-contains-matcher.h: the `contains` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-text-matcher.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_CONTAINS_MATCHER (grammar_contains_matcher_get_type ())
G_DECLARE_FINAL_TYPE (GrammarContainsMatcher, grammar_contains_matcher, GRAMMAR, CONTAINS_MATCHER, GrammarTextMatcher)

void grammar_contains_matcher_register (GTypeModule *module);

G_END_DECLS
