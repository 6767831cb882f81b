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

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_ASSESS_RUNNER (grammar_assess_runner_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarAssessRunner, grammar_assess_runner, GRAMMAR, ASSESS_RUNNER, GrammarStageRunner)

GRAMMAR_AVAILABLE_IN_ALL
GrammarAssessRunner *grammar_assess_runner_new                (void);
GRAMMAR_AVAILABLE_IN_ALL
GrammarAssessRunner *grammar_assess_runner_new_from_config    (GrammarConfig        *config,
                                                               GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void                 grammar_assess_runner_add_metric         (GrammarAssessRunner  *self,
                                                               const char           *name,
                                                               GrammarMetric        *metric);
GRAMMAR_AVAILABLE_IN_ALL
guint                grammar_assess_runner_get_n_metrics      (GrammarAssessRunner  *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarMetric       *grammar_assess_runner_get_metric         (GrammarAssessRunner  *self,
                                                               guint                 index);
GRAMMAR_AVAILABLE_IN_ALL
const char          *grammar_assess_runner_get_metric_name    (GrammarAssessRunner  *self,
                                                               guint                 index);
GRAMMAR_AVAILABLE_IN_ALL
gboolean             grammar_assess_runner_get_retry_failed   (GrammarAssessRunner  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                 grammar_assess_runner_set_retry_failed   (GrammarAssessRunner  *self,
                                                               gboolean              retry_failed);
GRAMMAR_AVAILABLE_IN_ALL
guint64              grammar_assess_runner_get_n_failed_scores (GrammarAssessRunner *self);

G_END_DECLS
