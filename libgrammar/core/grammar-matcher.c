/* grammar-matcher.c: judges a response against the truth
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-error.h"
#include "grammar-matcher.h"
#include "grammar-sync-private.h"

/**
 * GrammarMatcher:
 *
 * A judge of responses: it compares the response of a #GrammarRecord
 * with the record's true answer and returns a #GrammarVerdict, correct,
 * incorrect, or unmeasured when it cannot decide (an empty response, an
 * unparseable judge output). An unmeasured verdict is counted apart,
 * never as incorrect.
 *
 * Plugins implement the `grammar-matcher` extension point
 * (%GRAMMAR_MATCHER_EXTENSION_POINT_NAME) with either the blocking
 * #GrammarMatcherInterface.judge, as deterministic matchers do, or the
 * asynchronous pair #GrammarMatcherInterface.judge_async and
 * #GrammarMatcherInterface.judge_finish, as matchers that ask a
 * language model do. The interface supplies the other side: the
 * default asynchronous pair calls the blocking function and completes
 * at once, and grammar_matcher_judge() runs the asynchronous pair on a
 * private main context.
 */

G_DEFINE_INTERFACE (GrammarMatcher, grammar_matcher, G_TYPE_OBJECT)

static void
grammar_matcher_real_judge_async (GrammarMatcher      *self,
                                  GrammarRecord       *record,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GrammarMatcherInterface *iface = GRAMMAR_MATCHER_GET_IFACE (self);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GrammarVerdict *verdict;
  GError *error = NULL;

  g_task_set_source_tag (task, grammar_matcher_real_judge_async);

  if (iface->judge == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                               "this matcher plugin implements neither judge nor judge_async");
      return;
    }

  verdict = iface->judge (self, record, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, verdict, g_object_unref);
}

static GrammarVerdict *
grammar_matcher_real_judge_finish (GrammarMatcher  *self,
                                   GAsyncResult    *result,
                                   GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_matcher_default_init (GrammarMatcherInterface *iface)
{
  iface->judge_async = grammar_matcher_real_judge_async;
  iface->judge_finish = grammar_matcher_real_judge_finish;
}

/**
 * grammar_matcher_judge:
 * @self: a #GrammarMatcher
 * @record: a record with a response and a true answer
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Judges the response of @record, blocking. A matcher that only
 * implements the asynchronous pair runs it on a private main context,
 * so the caller's main loop does not run meanwhile.
 *
 * Failing to reach a verdict is not an error: the matcher returns an
 * unmeasured verdict. Errors are for failures of the run itself.
 *
 * Returns: (transfer full) (nullable): the verdict, or %NULL with @error set
 */
GrammarVerdict *
grammar_matcher_judge (GrammarMatcher  *self,
                       GrammarRecord   *record,
                       GCancellable    *cancellable,
                       GError         **error)
{
  GrammarMatcherInterface *iface;
  GrammarVerdict *verdict;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_MATCHER (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_RECORD (record), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  iface = GRAMMAR_MATCHER_GET_IFACE (self);
  if (iface->judge != NULL)
    return iface->judge (self, record, cancellable, error);

  grammar_sync_init (&sync);
  grammar_matcher_judge_async (self, record, cancellable, grammar_sync_callback, &sync);
  verdict = grammar_matcher_judge_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return verdict;
}

/**
 * grammar_matcher_judge_async:
 * @self: a #GrammarMatcher
 * @record: a record with a response and a true answer
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the verdict is ready
 * @user_data: data for @callback
 *
 * Starts judging the response of @record. @callback is called in the
 * thread-default main context of the caller.
 */
void
grammar_matcher_judge_async (GrammarMatcher      *self,
                             GrammarRecord       *record,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_MATCHER (self));
  g_return_if_fail (GRAMMAR_IS_RECORD (record));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_report_error (self, callback, user_data, grammar_matcher_judge_async, error);
      return;
    }
  GRAMMAR_MATCHER_GET_IFACE (self)->judge_async (self, record, cancellable, callback, user_data);
}

/**
 * grammar_matcher_judge_finish:
 * @self: a #GrammarMatcher
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_matcher_judge_async().
 *
 * Returns: (transfer full) (nullable): the verdict, or %NULL with @error set
 */
GrammarVerdict *
grammar_matcher_judge_finish (GrammarMatcher  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (GRAMMAR_IS_MATCHER (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_async_result_is_tagged (result, grammar_matcher_judge_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return GRAMMAR_MATCHER_GET_IFACE (self)->judge_finish (self, result, error);
}
