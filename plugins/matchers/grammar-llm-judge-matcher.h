/* grammar-llm-judge-matcher.h: the `llm-judge` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_LLM_JUDGE_MATCHER (grammar_llm_judge_matcher_get_type ())
G_DECLARE_FINAL_TYPE (GrammarLlmJudgeMatcher, grammar_llm_judge_matcher, GRAMMAR, LLM_JUDGE_MATCHER, GObject)

void grammar_llm_judge_matcher_register (GTypeModule *module);

G_END_DECLS
