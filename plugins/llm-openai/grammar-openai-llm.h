/* grammar-openai-llm.h: a language model behind an OpenAI-compatible HTTP API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_OPENAI_LLM (grammar_openai_llm_get_type ())
G_DECLARE_FINAL_TYPE (GrammarOpenaiLlm, grammar_openai_llm, GRAMMAR, OPENAI_LLM, GObject)

void grammar_openai_llm_register (GTypeModule *module);

G_END_DECLS
