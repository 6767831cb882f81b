/* grammar-metric.c: computes named values over judged records
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-error.h"
#include "grammar-metric.h"
#include "grammar-sync-private.h"

/**
 * GrammarMetric:
 *
 * A metric: it reads a set of judged records and computes one or more
 * named values from them (such as accuracy per query template,
 * RAGAS-style faithfulness, SelfCheck consistency, RAGEval keypoint
 * recall or retrieval recall), each a #GrammarMetricValue with the
 * number of records it is computed from and, when the metric knows it,
 * a confidence interval.
 *
 * Plugins implement the `grammar-metric` extension point
 * (%GRAMMAR_METRIC_EXTENSION_POINT_NAME) with either the blocking
 * #GrammarMetricInterface.compute, as metrics that only count do, or
 * the asynchronous pair #GrammarMetricInterface.compute_async and
 * #GrammarMetricInterface.compute_finish, as metrics that ask a
 * language model do. The interface supplies the other side: the
 * default asynchronous pair calls the blocking function and completes
 * at once, and grammar_metric_compute() runs the asynchronous pair on a
 * private main context.
 */

G_DEFINE_INTERFACE (GrammarMetric, grammar_metric, G_TYPE_OBJECT)

static void
grammar_metric_real_compute_async (GrammarMetric       *self,
                                   GPtrArray           *records,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GrammarMetricInterface *iface = GRAMMAR_METRIC_GET_IFACE (self);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GPtrArray *values;
  GError *error = NULL;

  g_task_set_source_tag (task, grammar_metric_real_compute_async);

  if (iface->compute == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                               "this metric plugin implements neither compute nor compute_async");
      return;
    }

  values = iface->compute (self, records, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, values, (GDestroyNotify) g_ptr_array_unref);
}

static GPtrArray *
grammar_metric_real_compute_finish (GrammarMetric  *self,
                                    GAsyncResult   *result,
                                    GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_metric_default_init (GrammarMetricInterface *iface)
{
  iface->compute_async = grammar_metric_real_compute_async;
  iface->compute_finish = grammar_metric_real_compute_finish;
}

/**
 * grammar_metric_compute:
 * @self: a #GrammarMetric
 * @records: (element-type GrammarRecord): the judged records
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Computes the values of the metric over @records, blocking. A metric
 * that only implements the asynchronous pair runs it on a private main
 * context, so the caller's main loop does not run meanwhile.
 *
 * Returns: (transfer full) (element-type GrammarMetricValue) (nullable): the values, or %NULL with @error set
 */
GPtrArray *
grammar_metric_compute (GrammarMetric  *self,
                        GPtrArray      *records,
                        GCancellable   *cancellable,
                        GError        **error)
{
  GrammarMetricInterface *iface;
  GPtrArray *values;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_METRIC (self), NULL);
  g_return_val_if_fail (records != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  iface = GRAMMAR_METRIC_GET_IFACE (self);
  if (iface->compute != NULL)
    return iface->compute (self, records, cancellable, error);

  grammar_sync_init (&sync);
  grammar_metric_compute_async (self, records, cancellable, grammar_sync_callback, &sync);
  values = grammar_metric_compute_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return values;
}

/**
 * grammar_metric_compute_async:
 * @self: a #GrammarMetric
 * @records: (element-type GrammarRecord): the judged records
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the values are ready
 * @user_data: data for @callback
 *
 * Starts computing the values of the metric over @records. @callback is
 * called in the thread-default main context of the caller. @records
 * must not change until then.
 */
void
grammar_metric_compute_async (GrammarMetric       *self,
                              GPtrArray           *records,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_METRIC (self));
  g_return_if_fail (records != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_report_error (self, callback, user_data, grammar_metric_compute_async, error);
      return;
    }
  GRAMMAR_METRIC_GET_IFACE (self)->compute_async (self, records, cancellable, callback, user_data);
}

/**
 * grammar_metric_compute_finish:
 * @self: a #GrammarMetric
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_metric_compute_async().
 *
 * Returns: (transfer full) (element-type GrammarMetricValue) (nullable): the values, or %NULL with @error set
 */
GPtrArray *
grammar_metric_compute_finish (GrammarMetric  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (GRAMMAR_IS_METRIC (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_async_result_is_tagged (result, grammar_metric_compute_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return GRAMMAR_METRIC_GET_IFACE (self)->compute_finish (self, result, error);
}
