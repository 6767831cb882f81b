/* grammar-system.c: the RAG system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-error.h"
#include "grammar-sync-private.h"
#include "grammar-system.h"

/**
 * GrammarSystem:
 *
 * The retrieval-augmented generation system under test: it answers a
 * text query with a #GrammarAnswer, the response text and, when the
 * system tells them, the documents it retrieved. It may be a retriever
 * with a language model, the user's own service, or answers read from
 * a file.
 *
 * A system that does not tell its documents answers with
 * grammar_answer_new (response, %NULL): its retrieval is then unmeasured.
 * An empty array says that it reports its documents and retrieved none,
 * which counts as a retrieval miss.
 *
 * Plugins implement the `grammar-system` extension point
 * (%GRAMMAR_SYSTEM_EXTENSION_POINT_NAME) with either the blocking
 * #GrammarSystemInterface.answer or the asynchronous pair
 * #GrammarSystemInterface.answer_async and
 * #GrammarSystemInterface.answer_finish, as systems behind a network
 * service do. The interface supplies the other side: the default
 * asynchronous pair calls the blocking function and completes at once,
 * and grammar_system_answer() runs the asynchronous pair on a private
 * main context.
 *
 * A system behind a service may also implement
 * #GrammarSystemInterface.probe_async: one short request without retries
 * that tells at once whether the service answers at all
 * (grammar_system_probe_async()). #GrammarRagRunner probes before its
 * first query, so that a run against a service that is down stops at
 * once rather than after every query's retries.
 */

G_DEFINE_INTERFACE (GrammarSystem, grammar_system, G_TYPE_OBJECT)

static void
grammar_system_real_answer_async (GrammarSystem       *self,
                                  const char          *query,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GrammarSystemInterface *iface = GRAMMAR_SYSTEM_GET_IFACE (self);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GrammarAnswer *answer;
  GError *error = NULL;

  g_task_set_source_tag (task, grammar_system_real_answer_async);

  if (iface->answer == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                               "this system plugin implements neither answer nor answer_async");
      return;
    }

  answer = iface->answer (self, query, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, answer, g_object_unref);
}

static GrammarAnswer *
grammar_system_real_answer_finish (GrammarSystem  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_system_default_init (GrammarSystemInterface *iface)
{
  iface->answer_async = grammar_system_real_answer_async;
  iface->answer_finish = grammar_system_real_answer_finish;
}

/**
 * grammar_system_answer:
 * @self: a #GrammarSystem
 * @query: the text query
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Answers @query, blocking. A system that only implements the
 * asynchronous pair runs it on a private main context, so the caller's
 * main loop does not run meanwhile.
 *
 * Returns: (transfer full) (nullable): the answer, or %NULL with @error set
 */
GrammarAnswer *
grammar_system_answer (GrammarSystem  *self,
                       const char     *query,
                       GCancellable   *cancellable,
                       GError        **error)
{
  GrammarSystemInterface *iface;
  GrammarAnswer *answer;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_SYSTEM (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  iface = GRAMMAR_SYSTEM_GET_IFACE (self);
  if (iface->answer != NULL)
    return iface->answer (self, query, cancellable, error);

  grammar_sync_init (&sync);
  grammar_system_answer_async (self, query, cancellable, grammar_sync_callback, &sync);
  answer = grammar_system_answer_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return answer;
}

/**
 * grammar_system_answer_async:
 * @self: a #GrammarSystem
 * @query: the text query
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the answer is ready
 * @user_data: data for @callback
 *
 * Starts answering @query. @callback is called in the thread-default
 * main context of the caller.
 */
void
grammar_system_answer_async (GrammarSystem       *self,
                             const char          *query,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_SYSTEM (self));
  g_return_if_fail (query != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_report_error (self, callback, user_data, grammar_system_answer_async, error);
      return;
    }
  GRAMMAR_SYSTEM_GET_IFACE (self)->answer_async (self, query, cancellable, callback, user_data);
}

/**
 * grammar_system_answer_finish:
 * @self: a #GrammarSystem
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_system_answer_async().
 *
 * Returns: (transfer full) (nullable): the answer, or %NULL with @error set
 */
GrammarAnswer *
grammar_system_answer_finish (GrammarSystem  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  g_return_val_if_fail (GRAMMAR_IS_SYSTEM (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_async_result_is_tagged (result, grammar_system_answer_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return GRAMMAR_SYSTEM_GET_IFACE (self)->answer_finish (self, result, error);
}

/**
 * grammar_system_probe_async:
 * @self: a #GrammarSystem
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the probe is over
 * @user_data: data for @callback
 *
 * Checks that the system can answer at all, before its first query: a
 * system behind a service sends one short request, without retrying a
 * connection that fails. A system that does
 * not implement #GrammarSystemInterface.probe_async succeeds.
 */
void
grammar_system_probe_async (GrammarSystem       *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GrammarSystemInterface *iface;
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (GRAMMAR_IS_SYSTEM (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  iface = GRAMMAR_SYSTEM_GET_IFACE (self);
  if (iface->probe_async != NULL)
    {
      iface->probe_async (self, cancellable, callback, user_data);
      return;
    }
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, grammar_system_probe_async);
  g_task_return_boolean (task, TRUE);
}

/**
 * grammar_system_probe_finish:
 * @self: a #GrammarSystem
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_system_probe_async().
 *
 * Returns: %TRUE when the system answered; %FALSE with @error set, whose
 *   message names the service and what went wrong
 *   (%GRAMMAR_ERROR_UNAVAILABLE when it could not be reached)
 */
gboolean
grammar_system_probe_finish (GrammarSystem  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (GRAMMAR_IS_SYSTEM (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_async_result_is_tagged (result, grammar_system_probe_async))
    return g_task_propagate_boolean (G_TASK (result), error);
  return GRAMMAR_SYSTEM_GET_IFACE (self)->probe_finish (self, result, error);
}

/**
 * grammar_system_probe:
 * @self: a #GrammarSystem
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * grammar_system_probe_async(), blocking, on a private main context.
 *
 * Returns: %TRUE when the system answered; %FALSE with @error set
 */
gboolean
grammar_system_probe (GrammarSystem  *self,
                      GCancellable   *cancellable,
                      GError        **error)
{
  GrammarSync sync;
  gboolean ok;

  g_return_val_if_fail (GRAMMAR_IS_SYSTEM (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  grammar_sync_init (&sync);
  grammar_system_probe_async (self, cancellable, grammar_sync_callback, &sync);
  ok = grammar_system_probe_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return ok;
}
