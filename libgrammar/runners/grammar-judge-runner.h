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
#include "grammar-stage-runner.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_JUDGE_RUNNER_DEFAULT_MAX_CONCURRENCY:
 *
 * The default of #GrammarJudgeRunner:max-concurrency.
 */
/**
 * GrammarRetrievalRule:
 * @GRAMMAR_RETRIEVAL_RULE_AUTO: `all` for a record with `doc_ids`,
 *   `context` for one without
 * @GRAMMAR_RETRIEVAL_RULE_ALL: every true document retrieved
 * @GRAMMAR_RETRIEVAL_RULE_ANY: at least one true document retrieved
 * @GRAMMAR_RETRIEVAL_RULE_CONTEXT: context comparison inside the
 *   record's group
 *
 * How #GrammarJudgeRunner decides whether a record's retrieval was
 * right.
 */
typedef enum {
  GRAMMAR_RETRIEVAL_RULE_AUTO,
  GRAMMAR_RETRIEVAL_RULE_ALL,
  GRAMMAR_RETRIEVAL_RULE_ANY,
  GRAMMAR_RETRIEVAL_RULE_CONTEXT,
} GrammarRetrievalRule;

#define GRAMMAR_JUDGE_RUNNER_DEFAULT_MAX_CONCURRENCY GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONCURRENCY

#define GRAMMAR_TYPE_JUDGE_RUNNER (grammar_judge_runner_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarJudgeRunner, grammar_judge_runner, GRAMMAR, JUDGE_RUNNER, GrammarStageRunner)

GRAMMAR_AVAILABLE_IN_ALL
GrammarJudgeRunner *grammar_judge_runner_new                 (GrammarMatcher       *matcher);
GRAMMAR_AVAILABLE_IN_ALL
GrammarJudgeRunner *grammar_judge_runner_new_from_config     (GrammarConfig        *config,
                                                              const char           *matcher_section,
                                                              GError              **error);

GRAMMAR_AVAILABLE_IN_ALL
GrammarMatcher     *grammar_judge_runner_get_matcher         (GrammarJudgeRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_judge_runner_set_matcher         (GrammarJudgeRunner   *self,
                                                              GrammarMatcher       *matcher);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_judge_runner_get_closed_domain   (GrammarJudgeRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_judge_runner_set_closed_domain   (GrammarJudgeRunner   *self,
                                                              gboolean              closed_domain);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_judge_runner_get_retrieval_rule  (GrammarJudgeRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_judge_runner_set_retrieval_rule  (GrammarJudgeRunner   *self,
                                                              const char           *rule);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_judge_runner_get_retry_failed    (GrammarJudgeRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_judge_runner_set_retry_failed    (GrammarJudgeRunner   *self,
                                                              gboolean              retry_failed);

GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_judge_runner_get_n_judged        (GrammarJudgeRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_judge_runner_get_n_correct       (GrammarJudgeRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_judge_runner_get_n_incorrect     (GrammarJudgeRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_judge_runner_get_n_unmeasured    (GrammarJudgeRunner   *self);

G_END_DECLS
