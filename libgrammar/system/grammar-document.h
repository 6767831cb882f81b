/* grammar-document.h: a document of the retrieval corpus
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

/**
 * GrammarStopWords:
 * @GRAMMAR_STOP_WORDS_NONE: no stop words: every word counts
 * @GRAMMAR_STOP_WORDS_ENGLISH: GRAMMAR's built-in English stop words
 *   (grammar_document_is_stop_word())
 *
 * Which built-in stop words a retriever leaves out (its `stop-words`
 * key); a file of words of one's own is a separate key, `stop-words-file`.
 */
typedef enum {
  GRAMMAR_STOP_WORDS_NONE,
  GRAMMAR_STOP_WORDS_ENGLISH,
} GrammarStopWords;

#define GRAMMAR_TYPE_DOCUMENT (grammar_document_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarDocument, grammar_document, GRAMMAR, DOCUMENT, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarDocument *grammar_document_new              (const char      *id,
                                                    const char      *title,
                                                    const char      *text);
GRAMMAR_AVAILABLE_IN_ALL
GrammarDocument *grammar_document_new_full         (const char      *id,
                                                    const char      *title,
                                                    const char      *text,
                                                    const char      *source_table,
                                                    const char      *source_key);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_document_get_id           (GrammarDocument *self);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_document_get_title        (GrammarDocument *self);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_document_get_text         (GrammarDocument *self);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_document_get_source_table (GrammarDocument *self);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_document_get_source_key   (GrammarDocument *self);
GRAMMAR_AVAILABLE_IN_ALL
char            *grammar_document_to_json          (GrammarDocument *self);

GRAMMAR_AVAILABLE_IN_ALL
GPtrArray       *grammar_document_load_jsonl       (const char      *path,
                                                    GError         **error);

GRAMMAR_AVAILABLE_IN_ALL
char           **grammar_document_tokenize         (const char      *text);
GRAMMAR_AVAILABLE_IN_ALL
gboolean         grammar_document_is_stop_word     (const char      *token);
GRAMMAR_AVAILABLE_IN_ALL
char           **grammar_document_split_sentences  (const char      *text);

G_END_DECLS
