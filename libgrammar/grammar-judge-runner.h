/* grammar-judge-runner.h: the judge stage, a matcher run over results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-config.h"
#include "grammar-matcher.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_JUDGE_RUNNER_DEFAULT_MAX_CONCURRENCY:
 *
 * The default of #GrammarJudgeRunner:max-concurrency.
 */
#define GRAMMAR_JUDGE_RUNNER_DEFAULT_MAX_CONCURRENCY 4

#define GRAMMAR_TYPE_JUDGE_RUNNER (grammar_judge_runner_get_type ())
G_DECLARE_FINAL_TYPE (GrammarJudgeRunner, grammar_judge_runner, GRAMMAR, JUDGE_RUNNER, GObject)

GrammarJudgeRunner *grammar_judge_runner_new                 (GrammarMatcher       *matcher);
GrammarJudgeRunner *grammar_judge_runner_new_from_config     (GrammarConfig        *config,
                                                              const char           *matcher_section,
                                                              GError              **error);

GrammarMatcher     *grammar_judge_runner_get_matcher         (GrammarJudgeRunner   *self);
gboolean            grammar_judge_runner_get_closed_domain   (GrammarJudgeRunner   *self);
void                grammar_judge_runner_set_closed_domain   (GrammarJudgeRunner   *self,
                                                              gboolean              closed_domain);
const char         *grammar_judge_runner_get_retrieval_rule  (GrammarJudgeRunner   *self);
void                grammar_judge_runner_set_retrieval_rule  (GrammarJudgeRunner   *self,
                                                              const char           *rule);
guint               grammar_judge_runner_get_max_concurrency (GrammarJudgeRunner   *self);
void                grammar_judge_runner_set_max_concurrency (GrammarJudgeRunner   *self,
                                                              guint                 max_concurrency);
guint64             grammar_judge_runner_get_limit           (GrammarJudgeRunner   *self);
void                grammar_judge_runner_set_limit           (GrammarJudgeRunner   *self,
                                                              guint64               limit);

void                grammar_judge_runner_run_async           (GrammarJudgeRunner   *self,
                                                              const char           *input,
                                                              const char           *output,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
gboolean            grammar_judge_runner_run_finish          (GrammarJudgeRunner   *self,
                                                              GAsyncResult         *result,
                                                              GError              **error);
gboolean            grammar_judge_runner_run                 (GrammarJudgeRunner   *self,
                                                              const char           *input,
                                                              const char           *output,
                                                              GCancellable         *cancellable,
                                                              GError              **error);

guint64             grammar_judge_runner_get_n_total         (GrammarJudgeRunner   *self);
guint64             grammar_judge_runner_get_n_judged        (GrammarJudgeRunner   *self);
guint64             grammar_judge_runner_get_n_skipped       (GrammarJudgeRunner   *self);
guint64             grammar_judge_runner_get_n_correct       (GrammarJudgeRunner   *self);
guint64             grammar_judge_runner_get_n_incorrect     (GrammarJudgeRunner   *self);
guint64             grammar_judge_runner_get_n_unmeasured    (GrammarJudgeRunner   *self);
GStrv               grammar_judge_runner_dup_warnings        (GrammarJudgeRunner   *self);

G_END_DECLS
