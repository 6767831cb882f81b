/* grammar-qa-generator.h: grounded query-answer pairs from templates and a database
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
#include "grammar-document.h"
#include "grammar-template-set.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_QA_GENERATOR_DEFAULT_MAX_COMBINATIONS:
 *
 * The default of #GrammarQaGenerator:max-combinations.
 */
#define GRAMMAR_QA_GENERATOR_DEFAULT_MAX_COMBINATIONS 1000000
/**
 * GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_ROWS:
 *
 * The default of #GrammarQaGenerator:max-answer-rows.
 */
#define GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_ROWS 1000
/**
 * GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_BYTES:
 *
 * The default of #GrammarQaGenerator:max-answer-bytes (1 MiB).
 */
#define GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_BYTES 1048576

#define GRAMMAR_TYPE_QA_GENERATOR (grammar_qa_generator_get_type ())
G_DECLARE_FINAL_TYPE (GrammarQaGenerator, grammar_qa_generator, GRAMMAR, QA_GENERATOR, GObject)

GrammarQaGenerator *grammar_qa_generator_new                  (GrammarDatabase     *database);
GrammarQaGenerator *grammar_qa_generator_new_from_config      (GrammarConfig       *config,
                                                               GError             **error);

GrammarDatabase    *grammar_qa_generator_get_database         (GrammarQaGenerator  *self);
guint64             grammar_qa_generator_get_max_combinations (GrammarQaGenerator  *self);
void                grammar_qa_generator_set_max_combinations (GrammarQaGenerator  *self,
                                                               guint64              max_combinations);
guint               grammar_qa_generator_get_per_group        (GrammarQaGenerator  *self);
void                grammar_qa_generator_set_per_group        (GrammarQaGenerator  *self,
                                                               guint                per_group);
guint64             grammar_qa_generator_get_seed             (GrammarQaGenerator  *self);
void                grammar_qa_generator_set_seed             (GrammarQaGenerator  *self,
                                                               guint64              seed);
guint               grammar_qa_generator_get_max_answer_rows  (GrammarQaGenerator  *self);
void                grammar_qa_generator_set_max_answer_rows  (GrammarQaGenerator  *self,
                                                               guint                max_answer_rows);
guint64             grammar_qa_generator_get_max_answer_bytes (GrammarQaGenerator  *self);
void                grammar_qa_generator_set_max_answer_bytes (GrammarQaGenerator  *self,
                                                               guint64              max_answer_bytes);
gboolean            grammar_qa_generator_get_set_based        (GrammarQaGenerator  *self);
void                grammar_qa_generator_set_set_based        (GrammarQaGenerator  *self,
                                                               gboolean             set_based);
GPtrArray          *grammar_qa_generator_get_documents        (GrammarQaGenerator  *self);
void                grammar_qa_generator_set_documents        (GrammarQaGenerator  *self,
                                                               GPtrArray           *documents);

gboolean            grammar_qa_generator_generate             (GrammarQaGenerator  *self,
                                                               GrammarTemplateSet  *templates,
                                                               GOutputStream       *output,
                                                               GCancellable        *cancellable,
                                                               GError             **error);
gboolean            grammar_qa_generator_generate_to_file     (GrammarQaGenerator  *self,
                                                               GrammarTemplateSet  *templates,
                                                               const char          *path,
                                                               GCancellable        *cancellable,
                                                               GError             **error);
void                grammar_qa_generator_generate_to_file_async  (GrammarQaGenerator  *self,
                                                                  GrammarTemplateSet  *templates,
                                                                  const char          *path,
                                                                  GCancellable        *cancellable,
                                                                  GAsyncReadyCallback  callback,
                                                                  gpointer             user_data);
gboolean            grammar_qa_generator_generate_to_file_finish (GrammarQaGenerator  *self,
                                                                  GAsyncResult        *result,
                                                                  GError             **error);

guint               grammar_qa_generator_get_n_templates      (GrammarQaGenerator  *self);
guint               grammar_qa_generator_get_n_set_based      (GrammarQaGenerator  *self);
guint64             grammar_qa_generator_get_n_groups         (GrammarQaGenerator  *self);
guint64             grammar_qa_generator_get_n_records        (GrammarQaGenerator  *self);
guint64             grammar_qa_generator_get_n_skipped        (GrammarQaGenerator  *self);
GStrv               grammar_qa_generator_dup_warnings         (GrammarQaGenerator  *self);
GStrv               grammar_qa_generator_dup_left_out         (GrammarQaGenerator  *self);

char               *grammar_qa_generator_plan_set_based_query (GrammarSqlTemplate  *sql_template,
                                                               GrammarSchema       *schema,
                                                               GError             **error);

G_END_DECLS
