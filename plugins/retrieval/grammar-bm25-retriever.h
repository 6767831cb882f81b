/* grammar-bm25-retriever.h: BM25 ranking over an SQLite FTS5 index
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_BM25_RETRIEVER (grammar_bm25_retriever_get_type ())
G_DECLARE_FINAL_TYPE (GrammarBm25Retriever, grammar_bm25_retriever, GRAMMAR, BM25_RETRIEVER, GObject)

void grammar_bm25_retriever_register (GTypeModule *module);

G_END_DECLS
