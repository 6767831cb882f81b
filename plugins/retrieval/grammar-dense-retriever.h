/* grammar-dense-retriever.h: ranks documents by the cosine of their embeddings
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_DENSE_RETRIEVER (grammar_dense_retriever_get_type ())
G_DECLARE_FINAL_TYPE (GrammarDenseRetriever, grammar_dense_retriever, GRAMMAR, DENSE_RETRIEVER, GObject)

void grammar_dense_retriever_register (GTypeModule *module);

G_END_DECLS
