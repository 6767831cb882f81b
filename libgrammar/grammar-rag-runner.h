/* grammar-rag-runner.h: the system under test, run over a dataset
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-system.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_RAG_RUNNER_DEFAULT_MAX_CONCURRENCY:
 *
 * The default of #GrammarRagRunner:max-concurrency.
 */
#define GRAMMAR_RAG_RUNNER_DEFAULT_MAX_CONCURRENCY 4

#define GRAMMAR_TYPE_RAG_RUNNER (grammar_rag_runner_get_type ())
G_DECLARE_FINAL_TYPE (GrammarRagRunner, grammar_rag_runner, GRAMMAR, RAG_RUNNER, GObject)

GrammarRagRunner *grammar_rag_runner_new                 (GrammarSystem        *system);

GrammarSystem    *grammar_rag_runner_get_system          (GrammarRagRunner     *self);
guint             grammar_rag_runner_get_max_concurrency (GrammarRagRunner     *self);
void              grammar_rag_runner_set_max_concurrency (GrammarRagRunner     *self,
                                                          guint                 max_concurrency);
guint64           grammar_rag_runner_get_limit           (GrammarRagRunner     *self);
void              grammar_rag_runner_set_limit           (GrammarRagRunner     *self,
                                                          guint64               limit);
gboolean          grammar_rag_runner_get_retry_failed    (GrammarRagRunner     *self);
void              grammar_rag_runner_set_retry_failed    (GrammarRagRunner     *self,
                                                          gboolean              retry_failed);

void              grammar_rag_runner_run_async           (GrammarRagRunner     *self,
                                                          const char           *input,
                                                          const char           *output,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
gboolean          grammar_rag_runner_run_finish          (GrammarRagRunner     *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
gboolean          grammar_rag_runner_run                 (GrammarRagRunner     *self,
                                                          const char           *input,
                                                          const char           *output,
                                                          GCancellable         *cancellable,
                                                          GError              **error);

guint64           grammar_rag_runner_get_n_total         (GrammarRagRunner     *self);
guint64           grammar_rag_runner_get_n_answered      (GrammarRagRunner     *self);
guint64           grammar_rag_runner_get_n_failed        (GrammarRagRunner     *self);
guint64           grammar_rag_runner_get_n_skipped       (GrammarRagRunner     *self);
guint64           grammar_rag_runner_get_n_skipped_failed (GrammarRagRunner    *self);
GStrv             grammar_rag_runner_dup_warnings        (GrammarRagRunner     *self);

G_END_DECLS
