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

#include "grammar-visibility.h"

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
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarQaGenerator, grammar_qa_generator, GRAMMAR, QA_GENERATOR, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarQaGenerator *grammar_qa_generator_new                  (GrammarDatabase     *database);
GRAMMAR_AVAILABLE_IN_ALL
GrammarQaGenerator *grammar_qa_generator_new_from_config      (GrammarConfig       *config,
                                                               GError             **error);

GRAMMAR_AVAILABLE_IN_ALL
GrammarDatabase    *grammar_qa_generator_get_database         (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_qa_generator_get_max_combinations (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_qa_generator_set_max_combinations (GrammarQaGenerator  *self,
                                                               guint64              max_combinations);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_qa_generator_get_per_group        (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_qa_generator_set_per_group        (GrammarQaGenerator  *self,
                                                               guint                per_group);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_qa_generator_get_seed             (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_qa_generator_set_seed             (GrammarQaGenerator  *self,
                                                               guint64              seed);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_qa_generator_get_max_answer_rows  (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_qa_generator_set_max_answer_rows  (GrammarQaGenerator  *self,
                                                               guint                max_answer_rows);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_qa_generator_get_max_answer_bytes (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_qa_generator_set_max_answer_bytes (GrammarQaGenerator  *self,
                                                               guint64              max_answer_bytes);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_qa_generator_get_set_based        (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_qa_generator_set_set_based        (GrammarQaGenerator  *self,
                                                               gboolean             set_based);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_qa_generator_get_documents        (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_qa_generator_set_documents        (GrammarQaGenerator  *self,
                                                               GPtrArray           *documents);

GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_qa_generator_generate             (GrammarQaGenerator  *self,
                                                               GrammarTemplateSet  *templates,
                                                               GOutputStream       *output,
                                                               GCancellable        *cancellable,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_qa_generator_generate_to_file     (GrammarQaGenerator  *self,
                                                               GrammarTemplateSet  *templates,
                                                               const char          *path,
                                                               GCancellable        *cancellable,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_qa_generator_generate_to_file_async  (GrammarQaGenerator  *self,
                                                                  GrammarTemplateSet  *templates,
                                                                  const char          *path,
                                                                  GCancellable        *cancellable,
                                                                  GAsyncReadyCallback  callback,
                                                                  gpointer             user_data);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_qa_generator_generate_to_file_finish (GrammarQaGenerator  *self,
                                                                  GAsyncResult        *result,
                                                                  GError             **error);

GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_qa_generator_get_n_templates      (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_qa_generator_get_n_set_based      (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_qa_generator_get_n_groups         (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_qa_generator_get_n_records        (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_qa_generator_get_n_skipped        (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
GStrv               grammar_qa_generator_dup_warnings         (GrammarQaGenerator  *self);
GRAMMAR_AVAILABLE_IN_ALL
GStrv               grammar_qa_generator_dup_left_out         (GrammarQaGenerator  *self);

GRAMMAR_AVAILABLE_IN_ALL
char               *grammar_qa_generator_plan_set_based_query (GrammarSqlTemplate  *sql_template,
                                                               GrammarSchema       *schema,
                                                               GError             **error);

G_END_DECLS
