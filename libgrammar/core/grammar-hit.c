/* grammar-hit.c: one document a retriever found
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-hit.h"

/**
 * GrammarHit:
 *
 * One document a retriever returned for a query: the identifier of the
 * document, its relevance score (higher is more relevant; the scale is
 * the retriever's own) and, optionally, the retrieved text. Hits are
 * immutable once made.
 */
struct _GrammarHit
{
  GObject parent_instance;

  char *document_id;
  char *text;
  double score;
};

G_DEFINE_FINAL_TYPE (GrammarHit, grammar_hit, G_TYPE_OBJECT)

static void
grammar_hit_finalize (GObject *object)
{
  GrammarHit *self = GRAMMAR_HIT (object);

  g_free (self->document_id);
  g_free (self->text);

  G_OBJECT_CLASS (grammar_hit_parent_class)->finalize (object);
}

static void
grammar_hit_class_init (GrammarHitClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_hit_finalize;
}

static void
grammar_hit_init (GrammarHit *self)
{
}

/**
 * grammar_hit_new:
 * @document_id: the identifier of the retrieved document
 * @score: the relevance score, higher for more relevant documents
 * @text: (nullable): the retrieved text (the document or a passage of it), or %NULL
 *
 * Makes a hit. Retriever plugins call this for each document they return.
 *
 * Returns: (transfer full): a new #GrammarHit
 */
GrammarHit *
grammar_hit_new (const char *document_id,
                 double      score,
                 const char *text)
{
  GrammarHit *self;

  g_return_val_if_fail (document_id != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_HIT, NULL);
  self->document_id = g_strdup (document_id);
  self->score = score;
  self->text = g_strdup (text);
  return self;
}

/**
 * grammar_hit_get_document_id:
 * @self: a #GrammarHit
 *
 * Returns: the identifier of the retrieved document
 */
const char *
grammar_hit_get_document_id (GrammarHit *self)
{
  g_return_val_if_fail (GRAMMAR_IS_HIT (self), NULL);
  return self->document_id;
}

/**
 * grammar_hit_get_score:
 * @self: a #GrammarHit
 *
 * Returns: the relevance score, on the retriever's own scale
 */
double
grammar_hit_get_score (GrammarHit *self)
{
  g_return_val_if_fail (GRAMMAR_IS_HIT (self), 0.0);
  return self->score;
}

/**
 * grammar_hit_get_text:
 * @self: a #GrammarHit
 *
 * Returns: (nullable): the retrieved text, or %NULL when the retriever gave none
 */
const char *
grammar_hit_get_text (GrammarHit *self)
{
  g_return_val_if_fail (GRAMMAR_IS_HIT (self), NULL);
  return self->text;
}
