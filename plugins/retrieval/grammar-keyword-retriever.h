/* grammar-keyword-retriever.h: ranks documents by the query words they share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_KEYWORD_RETRIEVER (grammar_keyword_retriever_get_type ())
G_DECLARE_FINAL_TYPE (GrammarKeywordRetriever, grammar_keyword_retriever, GRAMMAR, KEYWORD_RETRIEVER, GObject)

void grammar_keyword_retriever_register (GTypeModule *module);

G_END_DECLS
