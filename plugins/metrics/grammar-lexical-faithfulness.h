/* grammar-faithfulness-lexical.h: the `faithfulness-lexical` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_LEXICAL_FAITHFULNESS (grammar_lexical_faithfulness_get_type ())
G_DECLARE_FINAL_TYPE (GrammarLexicalFaithfulness, grammar_lexical_faithfulness, GRAMMAR, LEXICAL_FAITHFULNESS, GObject)

void grammar_lexical_faithfulness_register (GTypeModule *module);

G_END_DECLS
