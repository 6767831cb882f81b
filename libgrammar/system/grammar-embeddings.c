/* grammar-embeddings.c: embedding vectors of texts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-embeddings.h"

/**
 * GrammarEmbeddings:
 *
 * The embedding vectors a language model computed for a list of texts:
 * one vector per text, in the order of the texts, all of the same
 * dimension. Embeddings are immutable once made.
 */
struct _GrammarEmbeddings
{
  GObject parent_instance;

  guint n_vectors;
  guint dimension;
  float *data;  /* n_vectors × dimension, row by row */
};

G_DEFINE_FINAL_TYPE (GrammarEmbeddings, grammar_embeddings, G_TYPE_OBJECT)

static void
grammar_embeddings_finalize (GObject *object)
{
  GrammarEmbeddings *self = GRAMMAR_EMBEDDINGS (object);

  g_free (self->data);

  G_OBJECT_CLASS (grammar_embeddings_parent_class)->finalize (object);
}

static void
grammar_embeddings_class_init (GrammarEmbeddingsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_embeddings_finalize;
}

static void
grammar_embeddings_init (GrammarEmbeddings *self)
{
}

/**
 * grammar_embeddings_new:
 * @n_vectors: the number of vectors
 * @dimension: the number of components of each vector
 * @data: (array) (nullable): @n_vectors × @dimension floats, the first vector first; %NULL only when the product is 0
 *
 * Makes embeddings from a copy of @data.
 *
 * Returns: (transfer full): a new #GrammarEmbeddings
 */
GrammarEmbeddings *
grammar_embeddings_new (guint        n_vectors,
                        guint        dimension,
                        const float *data)
{
  GrammarEmbeddings *self;
  gsize n_floats;

  g_return_val_if_fail (dimension == 0 || n_vectors <= G_MAXSIZE / sizeof (float) / dimension, NULL);
  n_floats = (gsize) n_vectors * dimension;
  g_return_val_if_fail (data != NULL || n_floats == 0, NULL);

  self = g_object_new (GRAMMAR_TYPE_EMBEDDINGS, NULL);
  self->n_vectors = n_vectors;
  self->dimension = dimension;
  /* never NULL, so that grammar_embeddings_get_vector() never is */
  self->data = n_floats > 0 ? g_memdup2 (data, n_floats * sizeof (float)) : g_new0 (float, 1);
  return self;
}

/**
 * grammar_embeddings_get_n_vectors:
 * @self: a #GrammarEmbeddings
 *
 * Returns: the number of vectors, one per embedded text
 */
guint
grammar_embeddings_get_n_vectors (GrammarEmbeddings *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EMBEDDINGS (self), 0);
  return self->n_vectors;
}

/**
 * grammar_embeddings_get_dimension:
 * @self: a #GrammarEmbeddings
 *
 * Returns: the number of components of each vector
 */
guint
grammar_embeddings_get_dimension (GrammarEmbeddings *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EMBEDDINGS (self), 0);
  return self->dimension;
}

/**
 * grammar_embeddings_get_vector:
 * @self: a #GrammarEmbeddings
 * @index: which vector, below grammar_embeddings_get_n_vectors()
 * @dimension: (out) (optional): return location for the number of components
 *
 * Gets one vector. The components stay owned by @self and are valid as
 * long as it is.
 *
 * Returns: (transfer none) (array length=dimension): the components of the vector
 */
const float *
grammar_embeddings_get_vector (GrammarEmbeddings *self,
                               guint              index,
                               guint             *dimension)
{
  g_return_val_if_fail (GRAMMAR_IS_EMBEDDINGS (self), NULL);
  g_return_val_if_fail (index < self->n_vectors, NULL);

  if (dimension != NULL)
    *dimension = self->dimension;
  return self->data + (gsize) index * self->dimension;
}
