/* grammar-embeddings.h: embedding vectors of texts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_EMBEDDINGS (grammar_embeddings_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarEmbeddings, grammar_embeddings, GRAMMAR, EMBEDDINGS, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarEmbeddings *grammar_embeddings_new           (guint              n_vectors,
                                                     guint              dimension,
                                                     const float       *data);
GRAMMAR_AVAILABLE_IN_ALL
guint              grammar_embeddings_get_n_vectors (GrammarEmbeddings *self);
GRAMMAR_AVAILABLE_IN_ALL
guint              grammar_embeddings_get_dimension (GrammarEmbeddings *self);
GRAMMAR_AVAILABLE_IN_ALL
const float       *grammar_embeddings_get_vector    (GrammarEmbeddings *self,
                                                     guint              index,
                                                     guint             *dimension);

G_END_DECLS
