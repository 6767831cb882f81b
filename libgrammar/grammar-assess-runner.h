/* grammar-assess-runner.h: every configured metric over a results file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-config.h"
#include "grammar-metric.h"
#include "grammar-stage-runner.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_ASSESS_RUNNER (grammar_assess_runner_get_type ())
G_DECLARE_FINAL_TYPE (GrammarAssessRunner, grammar_assess_runner, GRAMMAR, ASSESS_RUNNER, GrammarStageRunner)

GrammarAssessRunner *grammar_assess_runner_new                (void);
GrammarAssessRunner *grammar_assess_runner_new_from_config    (GrammarConfig        *config,
                                                               GError              **error);
void                 grammar_assess_runner_add_metric         (GrammarAssessRunner  *self,
                                                               const char           *name,
                                                               GrammarMetric        *metric);
guint                grammar_assess_runner_get_n_metrics      (GrammarAssessRunner  *self);
GrammarMetric       *grammar_assess_runner_get_metric         (GrammarAssessRunner  *self,
                                                               guint                 index);
const char          *grammar_assess_runner_get_metric_name    (GrammarAssessRunner  *self,
                                                               guint                 index);
gboolean             grammar_assess_runner_get_retry_failed   (GrammarAssessRunner  *self);
void                 grammar_assess_runner_set_retry_failed   (GrammarAssessRunner  *self,
                                                               gboolean              retry_failed);
guint64              grammar_assess_runner_get_n_failed_scores (GrammarAssessRunner *self);

G_END_DECLS
