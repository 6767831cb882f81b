/* grammar-document.c: a document a retriever indexes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-document.h"

/**
 * GrammarDocument:
 *
 * A document of the corpus a retriever indexes: an identifier unique in
 * the corpus, an optional title and the text. Documents are immutable
 * once made.
 */
struct _GrammarDocument
{
  GObject parent_instance;

  char *id;
  char *title;
  char *text;
};

G_DEFINE_FINAL_TYPE (GrammarDocument, grammar_document, G_TYPE_OBJECT)

static void
grammar_document_finalize (GObject *object)
{
  GrammarDocument *self = GRAMMAR_DOCUMENT (object);

  g_free (self->id);
  g_free (self->title);
  g_free (self->text);

  G_OBJECT_CLASS (grammar_document_parent_class)->finalize (object);
}

static void
grammar_document_class_init (GrammarDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_document_finalize;
}

static void
grammar_document_init (GrammarDocument *self)
{
}

/**
 * grammar_document_new:
 * @id: the identifier of the document, unique in the corpus
 * @title: (nullable): the title, or %NULL when the document has none
 * @text: the text of the document
 *
 * Makes a document.
 *
 * Returns: (transfer full): a new #GrammarDocument
 */
GrammarDocument *
grammar_document_new (const char *id,
                      const char *title,
                      const char *text)
{
  GrammarDocument *self;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_DOCUMENT, NULL);
  self->id = g_strdup (id);
  self->title = g_strdup (title);
  self->text = g_strdup (text);
  return self;
}

/**
 * grammar_document_get_id:
 * @self: a #GrammarDocument
 *
 * Returns: the identifier of the document
 */
const char *
grammar_document_get_id (GrammarDocument *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);
  return self->id;
}

/**
 * grammar_document_get_title:
 * @self: a #GrammarDocument
 *
 * Returns: (nullable): the title, or %NULL when the document has none
 */
const char *
grammar_document_get_title (GrammarDocument *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);
  return self->title;
}

/**
 * grammar_document_get_text:
 * @self: a #GrammarDocument
 *
 * Returns: the text of the document
 */
const char *
grammar_document_get_text (GrammarDocument *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);
  return self->text;
}
