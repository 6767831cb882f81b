/* grammar-metric.c: scores one record: a reference-free evaluator or a grounded metric
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
 * A metric scores one record of `results.jsonl` (the query, the
 * response, the retrieved contexts, the stochastic samples and the true
 * answer) into a #GrammarScore: a value in [0, 1], higher meaning that
 * the metric trusts the response more, or unmeasured with the reason,
 * plus the metric's evidence. The metric's `threshold` property turns
 * the value into pass or fail. Aggregates (means, pass rates, and how
 * reliable a metric is against the grounded verdicts) come from the
 * core, not from the plugins: see `grammar assess` and `grammar report
 * --assessed`.
 *
 * Plugins implement the `grammar-metric` extension point
 * (%GRAMMAR_METRIC_EXTENSION_POINT_NAME) with either the blocking
 * #GrammarMetricInterface.score, as offline metrics do, or the
 * asynchronous pair #GrammarMetricInterface.score_async and
 * #GrammarMetricInterface.score_finish, as metrics that ask a language
 * model do, and have a `threshold` property of type double (0 to 1)
 * with their default, so that the keyfile can set it. An error from the plugin (a language model that could
 * not be reached) makes the record unmeasured for that metric, and the
 * run goes on; a record that cannot be scored by its nature (no
 * retrieved context) is a #GrammarScore made with
 * grammar_score_new_unmeasured(), not an error.
 */

G_DEFINE_INTERFACE (GrammarMetric, grammar_metric, G_TYPE_OBJECT)

static void
grammar_metric_real_score_async (GrammarMetric       *self,
                                 GrammarRecord       *record,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GrammarMetricInterface *iface = GRAMMAR_METRIC_GET_IFACE (self);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GrammarScore *score;
  GError *error = NULL;

  g_task_set_source_tag (task, grammar_metric_real_score_async);

  if (iface->score == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                               "this metric plugin implements neither score nor score_async");
      return;
    }

  score = iface->score (self, record, cancellable, &error);
  if (score == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, score, g_object_unref);
}

static GrammarScore *
grammar_metric_real_score_finish (GrammarMetric  *self,
                                  GAsyncResult   *result,
                                  GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_metric_default_init (GrammarMetricInterface *iface)
{
  iface->score_async = grammar_metric_real_score_async;
  iface->score_finish = grammar_metric_real_score_finish;

}

/**
 * grammar_metric_get_threshold:
 * @self: a #GrammarMetric
 *
 * Returns: the value of the metric's `threshold` property, 0.5 when it
 *   has none
 */
double
grammar_metric_get_threshold (GrammarMetric *self)
{
  GParamSpec *pspec;
  double threshold = 0.5;

  g_return_val_if_fail (GRAMMAR_IS_METRIC (self), 0.5);

  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), "threshold");
  if (pspec != NULL && pspec->value_type == G_TYPE_DOUBLE)
    g_object_get (self, "threshold", &threshold, NULL);
  return threshold;
}

/**
 * grammar_metric_check_record:
 * @self: a #GrammarMetric
 * @record: a record of the input
 * @error: return location for a #GError
 *
 * Checks that @record has the members the metric reads (the retrieved
 * texts, the samples), so that a file that lacks them is refused before
 * any request. A record whose system failed passes: it is scored
 * unmeasured.
 *
 * Returns: %TRUE when the metric can score @record
 */
gboolean
grammar_metric_check_record (GrammarMetric  *self,
                             GrammarRecord  *record,
                             GError        **error)
{
  GrammarMetricInterface *iface;

  g_return_val_if_fail (GRAMMAR_IS_METRIC (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_RECORD (record), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  iface = GRAMMAR_METRIC_GET_IFACE (self);
  return iface->check_record == NULL || iface->check_record (self, record, error);
}

/**
 * grammar_metric_score:
 * @self: a #GrammarMetric
 * @record: the record to score
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Scores @record, blocking. A metric that only implements the
 * asynchronous pair runs it on a private main context.
 *
 * Returns: (transfer full) (nullable): the score, its threshold set, or
 *   %NULL with @error set
 */
GrammarScore *
grammar_metric_score (GrammarMetric  *self,
                      GrammarRecord  *record,
                      GCancellable   *cancellable,
                      GError        **error)
{
  GrammarScore *score;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_METRIC (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_RECORD (record), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  grammar_sync_init (&sync);
  grammar_metric_score_async (self, record, cancellable, grammar_sync_callback, &sync);
  score = grammar_metric_score_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return score;
}

/**
 * grammar_metric_score_async:
 * @self: a #GrammarMetric
 * @record: the record to score; it must not change until @callback
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the score is ready
 * @user_data: data for @callback
 *
 * Starts scoring @record. @callback is called in the thread-default
 * main context of the caller.
 */
void
grammar_metric_score_async (GrammarMetric       *self,
                            GrammarRecord       *record,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_METRIC (self));
  g_return_if_fail (GRAMMAR_IS_RECORD (record));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_report_error (self, callback, user_data, grammar_metric_score_async, error);
      return;
    }
  GRAMMAR_METRIC_GET_IFACE (self)->score_async (self, record, cancellable, callback, user_data);
}

/**
 * grammar_metric_score_finish:
 * @self: a #GrammarMetric
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_metric_score_async() and sets the score's threshold
 * to the metric's.
 *
 * Returns: (transfer full) (nullable): the score, or %NULL with @error set
 */
GrammarScore *
grammar_metric_score_finish (GrammarMetric  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  GrammarScore *score;

  g_return_val_if_fail (GRAMMAR_IS_METRIC (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_async_result_is_tagged (result, grammar_metric_score_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  score = GRAMMAR_METRIC_GET_IFACE (self)->score_finish (self, result, error);
  if (score != NULL)
    grammar_score_set_threshold (score, grammar_metric_get_threshold (self));
  return score;
}
