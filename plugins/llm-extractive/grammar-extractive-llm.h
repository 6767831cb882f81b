/* grammar-extractive-llm.h: an offline reader that copies the best sentence
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_EXTRACTIVE_LLM (grammar_extractive_llm_get_type ())
G_DECLARE_FINAL_TYPE (GrammarExtractiveLlm, grammar_extractive_llm, GRAMMAR, EXTRACTIVE_LLM, GObject)

void grammar_extractive_llm_register (GTypeModule *module);

G_END_DECLS
