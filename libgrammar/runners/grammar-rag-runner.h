/* grammar-rag-runner.h: the system under test, run over a dataset
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-config.h"
#include "grammar-stage-runner.h"
#include "grammar-system.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_RAG_RUNNER_DEFAULT_MAX_CONCURRENCY:
 *
 * The default of #GrammarRagRunner:max-concurrency.
 */
#define GRAMMAR_RAG_RUNNER_DEFAULT_MAX_CONCURRENCY GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONCURRENCY

#define GRAMMAR_TYPE_RAG_RUNNER (grammar_rag_runner_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarRagRunner, grammar_rag_runner, GRAMMAR, RAG_RUNNER, GrammarStageRunner)

GRAMMAR_AVAILABLE_IN_ALL
GrammarRagRunner *grammar_rag_runner_new                  (GrammarSystem    *system);
GRAMMAR_AVAILABLE_IN_ALL
GrammarRagRunner *grammar_rag_runner_new_from_config      (GrammarConfig    *config,
                                                           const char       *system_section,
                                                           GError          **error);

GRAMMAR_AVAILABLE_IN_ALL
GrammarSystem    *grammar_rag_runner_get_system           (GrammarRagRunner *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean          grammar_rag_runner_get_retry_failed     (GrammarRagRunner *self);
GRAMMAR_AVAILABLE_IN_ALL
void              grammar_rag_runner_set_retry_failed     (GrammarRagRunner *self,
                                                           gboolean          retry_failed);

GRAMMAR_AVAILABLE_IN_ALL
guint64           grammar_rag_runner_get_n_answered       (GrammarRagRunner *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64           grammar_rag_runner_get_n_skipped_failed (GrammarRagRunner *self);

G_END_DECLS
