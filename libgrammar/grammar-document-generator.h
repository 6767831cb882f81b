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

G_BEGIN_DECLS

#define GRAMMAR_TYPE_DOCUMENT_GENERATOR (grammar_document_generator_get_type ())
G_DECLARE_FINAL_TYPE (GrammarDocumentGenerator, grammar_document_generator, GRAMMAR, DOCUMENT_GENERATOR, GObject)

GrammarDocumentGenerator *grammar_document_generator_new              (GrammarDatabase           *database,
                                                                       GrammarSchema             *schema);
GrammarDocumentGenerator *grammar_document_generator_new_from_config  (GrammarConfig             *config,
                                                                       GError                   **error);

GrammarDatabase          *grammar_document_generator_get_database     (GrammarDocumentGenerator  *self);
GrammarSchema            *grammar_document_generator_get_schema       (GrammarDocumentGenerator  *self);
GrammarLlm               *grammar_document_generator_get_llm          (GrammarDocumentGenerator  *self);
void                      grammar_document_generator_set_llm          (GrammarDocumentGenerator  *self,
                                                                       GrammarLlm                *llm);
const char * const       *grammar_document_generator_get_tables       (GrammarDocumentGenerator  *self);
void                      grammar_document_generator_set_tables       (GrammarDocumentGenerator  *self,
                                                                       const char * const        *tables);
const char               *grammar_document_generator_get_llm_section  (GrammarDocumentGenerator  *self);
gboolean                  grammar_document_generator_set_template     (GrammarDocumentGenerator  *self,
                                                                       const char                *table,
                                                                       const char                *title,
                                                                       const char                *text,
                                                                       GError                   **error);
gboolean                  grammar_document_generator_configure        (GrammarDocumentGenerator  *self,
                                                                       GrammarConfig             *config,
                                                                       const char                *section,
                                                                       GError                   **error);

gboolean                  grammar_document_generator_generate         (GrammarDocumentGenerator  *self,
                                                                       GOutputStream             *output,
                                                                       GCancellable              *cancellable,
                                                                       GError                   **error);
gboolean                  grammar_document_generator_generate_to_file (GrammarDocumentGenerator  *self,
                                                                       const char                *path,
                                                                       GCancellable              *cancellable,
                                                                       GError                   **error);
void                      grammar_document_generator_generate_to_file_async  (GrammarDocumentGenerator  *self,
                                                                              const char                *path,
                                                                              GCancellable              *cancellable,
                                                                              GAsyncReadyCallback        callback,
                                                                              gpointer                   user_data);
gboolean                  grammar_document_generator_generate_to_file_finish (GrammarDocumentGenerator  *self,
                                                                              GAsyncResult              *result,
                                                                              GError                   **error);

guint64                   grammar_document_generator_get_n_documents  (GrammarDocumentGenerator  *self);
guint                     grammar_document_generator_get_n_tables     (GrammarDocumentGenerator  *self);
GStrv                     grammar_document_generator_dup_warnings     (GrammarDocumentGenerator  *self);

G_END_DECLS
