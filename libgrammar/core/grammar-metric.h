/* grammar-metric.h: scores one record: a reference-free evaluator or a grounded metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-record.h"
#include "grammar-score.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_METRIC_EXTENSION_POINT_NAME:
 *
 * The GIO extension point that metric plugins implement.
 */
#define GRAMMAR_METRIC_EXTENSION_POINT_NAME "grammar-metric"

#define GRAMMAR_TYPE_METRIC (grammar_metric_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarMetric, grammar_metric, GRAMMAR, METRIC, GObject)

/**
 * GrammarMetricInterface:
 * @g_iface: the parent interface
 * @check_record: checks, before any record is scored, that a record has
 *   what the metric reads (default: every record is fine)
 * @score: scores one record, blocking (implement this or @score_async)
 * @score_async: starts scoring one record (default: @score, completed at once)
 * @score_finish: finishes @score_async
 *
 * The virtual functions of a metric plugin (RAGAS-style faithfulness,
 * SelfCheck, their lexical approximations, RAGEval keypoints…). Every
 * implementation also has a `threshold` property (double, 0 to 1).
 */
struct _GrammarMetricInterface
{
  GTypeInterface g_iface;

  gboolean      (*check_record) (GrammarMetric        *self,
                                 GrammarRecord        *record,
                                 GError              **error);
  GrammarScore *(*score)        (GrammarMetric        *self,
                                 GrammarRecord        *record,
                                 GCancellable         *cancellable,
                                 GError              **error);
  void          (*score_async)  (GrammarMetric        *self,
                                 GrammarRecord        *record,
                                 GCancellable         *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data);
  GrammarScore *(*score_finish) (GrammarMetric        *self,
                                 GAsyncResult         *result,
                                 GError              **error);

  /*< private >*/
  gpointer padding[8];
};

GRAMMAR_AVAILABLE_IN_ALL
double        grammar_metric_get_threshold (GrammarMetric        *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean      grammar_metric_check_record  (GrammarMetric        *self,
                                            GrammarRecord        *record,
                                            GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarScore *grammar_metric_score         (GrammarMetric        *self,
                                            GrammarRecord        *record,
                                            GCancellable         *cancellable,
                                            GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void          grammar_metric_score_async   (GrammarMetric        *self,
                                            GrammarRecord        *record,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GrammarScore *grammar_metric_score_finish  (GrammarMetric        *self,
                                            GAsyncResult         *result,
                                            GError              **error);

G_END_DECLS
