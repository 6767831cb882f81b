/* grammar-document.h: a document of the retrieval corpus
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_DOCUMENT (grammar_document_get_type ())
G_DECLARE_FINAL_TYPE (GrammarDocument, grammar_document, GRAMMAR, DOCUMENT, GObject)

GrammarDocument *grammar_document_new       (const char      *id,
                                             const char      *title,
                                             const char      *text);
const char      *grammar_document_get_id    (GrammarDocument *self);
const char      *grammar_document_get_title (GrammarDocument *self);
const char      *grammar_document_get_text  (GrammarDocument *self);

G_END_DECLS
