/* grammar-metric.h: computes named values over judged records
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-metric-value.h"
#include "grammar-record.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_METRIC_EXTENSION_POINT_NAME:
 *
 * The GIO extension point that metric plugins implement.
 */
#define GRAMMAR_METRIC_EXTENSION_POINT_NAME "grammar-metric"

#define GRAMMAR_TYPE_METRIC (grammar_metric_get_type ())
G_DECLARE_INTERFACE (GrammarMetric, grammar_metric, GRAMMAR, METRIC, GObject)

/**
 * GrammarMetricInterface:
 * @g_iface: the parent interface
 * @compute: computes the values, blocking (implement this or @compute_async)
 * @compute_async: starts computing (default: @compute, completed at once)
 * @compute_finish: finishes @compute_async
 *
 * The virtual functions of a metric plugin (RAGAS-style faithfulness,
 * SelfCheck, RAGEval keypoints, retrieval metrics…).
 */
struct _GrammarMetricInterface
{
  GTypeInterface g_iface;

  GPtrArray * (*compute)        (GrammarMetric        *self,
                                 GPtrArray            *records,
                                 GCancellable         *cancellable,
                                 GError              **error);
  void        (*compute_async)  (GrammarMetric        *self,
                                 GPtrArray            *records,
                                 GCancellable         *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data);
  GPtrArray * (*compute_finish) (GrammarMetric        *self,
                                 GAsyncResult         *result,
                                 GError              **error);

  /*< private >*/
  gpointer padding[8];
};

GPtrArray *grammar_metric_compute        (GrammarMetric        *self,
                                          GPtrArray            *records,
                                          GCancellable         *cancellable,
                                          GError              **error);
void       grammar_metric_compute_async  (GrammarMetric        *self,
                                          GPtrArray            *records,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
GPtrArray *grammar_metric_compute_finish (GrammarMetric        *self,
                                          GAsyncResult         *result,
                                          GError              **error);

G_END_DECLS
