/* grammar-document-generator.h: a document corpus made from the rows of a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-config.h"
#include "grammar-database.h"
#include "grammar-llm.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_DOCUMENT_GENERATOR (grammar_document_generator_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarDocumentGenerator, grammar_document_generator, GRAMMAR, DOCUMENT_GENERATOR, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarDocumentGenerator *grammar_document_generator_new              (GrammarDatabase           *database,
                                                                       GrammarSchema             *schema);
GRAMMAR_AVAILABLE_IN_ALL
GrammarDocumentGenerator *grammar_document_generator_new_from_config  (GrammarConfig             *config,
                                                                       GError                   **error);

GRAMMAR_AVAILABLE_IN_ALL
GrammarDatabase          *grammar_document_generator_get_database     (GrammarDocumentGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSchema            *grammar_document_generator_get_schema       (GrammarDocumentGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarLlm               *grammar_document_generator_get_llm          (GrammarDocumentGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                      grammar_document_generator_set_llm          (GrammarDocumentGenerator  *self,
                                                                       GrammarLlm                *llm);
GRAMMAR_AVAILABLE_IN_ALL
const char * const       *grammar_document_generator_get_tables       (GrammarDocumentGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                      grammar_document_generator_set_tables       (GrammarDocumentGenerator  *self,
                                                                       const char * const        *tables);
GRAMMAR_AVAILABLE_IN_ALL
const char               *grammar_document_generator_get_llm_section  (GrammarDocumentGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_document_generator_set_template     (GrammarDocumentGenerator  *self,
                                                                       const char                *table,
                                                                       const char                *title,
                                                                       const char                *text,
                                                                       GError                   **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_document_generator_configure        (GrammarDocumentGenerator  *self,
                                                                       GrammarConfig             *config,
                                                                       const char                *section,
                                                                       GError                   **error);

GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_document_generator_generate         (GrammarDocumentGenerator  *self,
                                                                       GOutputStream             *output,
                                                                       GCancellable              *cancellable,
                                                                       GError                   **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_document_generator_generate_to_file (GrammarDocumentGenerator  *self,
                                                                       const char                *path,
                                                                       GCancellable              *cancellable,
                                                                       GError                   **error);
GRAMMAR_AVAILABLE_IN_ALL
void                      grammar_document_generator_generate_to_file_async  (GrammarDocumentGenerator  *self,
                                                                              const char                *path,
                                                                              GCancellable              *cancellable,
                                                                              GAsyncReadyCallback        callback,
                                                                              gpointer                   user_data);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_document_generator_generate_to_file_finish (GrammarDocumentGenerator  *self,
                                                                              GAsyncResult              *result,
                                                                              GError                   **error);

GRAMMAR_AVAILABLE_IN_ALL
guint64                   grammar_document_generator_get_n_documents  (GrammarDocumentGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint                     grammar_document_generator_get_n_tables     (GrammarDocumentGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
GStrv                     grammar_document_generator_dup_warnings     (GrammarDocumentGenerator  *self);

G_END_DECLS
