/* grammar-retrieval-util.h: pieces the retrievers of this module share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

gboolean    grammar_retrieval_check_ids        (GPtrArray   *documents,
                                                GError     **error);
GPtrArray  *grammar_retrieval_copy_documents   (GPtrArray   *documents);
void        grammar_retrieval_stop_words_pspecs (GParamSpec     **words,
                                                 GParamSpec     **file,
                                                 const char      *blurb);
GHashTable *grammar_retrieval_load_stop_words  (GrammarStopWords  kind,
                                                 const char       *file,
                                                 GError          **error);
gboolean    grammar_retrieval_is_stop_word     (GHashTable  *stop_words,
                                                const char  *token);
char       *grammar_retrieval_document_words   (GrammarDocument *document,
                                                gboolean         with_title);

G_END_DECLS
