/* grammar-retriever.c: finds the documents relevant to a query
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-error.h"
#include "grammar-retriever.h"
#include "grammar-sync-private.h"

/**
 * GrammarRetriever:
 *
 * A retriever: it indexes a corpus of #GrammarDocument and returns, for
 * a text query, the documents most relevant to it as #GrammarHit in
 * rank order. GRAMMAR uses retrievers inside a system under test and to
 * measure retrieval on its own, against the documents that hold the
 * true answer.
 *
 * Plugins implement the `grammar-retriever` extension point
 * (%GRAMMAR_RETRIEVER_EXTENSION_POINT_NAME) with, for each of indexing
 * and retrieval, either the blocking function
 * (#GrammarRetrieverInterface.index, #GrammarRetrieverInterface.retrieve),
 * as a local retriever does, or the asynchronous pair, as a remote one
 * does. The interface supplies the other side: the default asynchronous
 * pairs call the blocking functions and complete at once, and
 * grammar_retriever_index() and grammar_retriever_retrieve() run the
 * asynchronous pairs on a private main context.
 */

G_DEFINE_INTERFACE (GrammarRetriever, grammar_retriever, G_TYPE_OBJECT)

static void
grammar_retriever_real_index_async (GrammarRetriever    *self,
                                    GPtrArray           *documents,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  GrammarRetrieverInterface *iface = GRAMMAR_RETRIEVER_GET_IFACE (self);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;

  g_task_set_source_tag (task, grammar_retriever_real_index_async);

  if (iface->index == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                               "this retriever plugin implements neither index nor index_async");
      return;
    }

  if (iface->index (self, documents, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static gboolean
grammar_retriever_real_index_finish (GrammarRetriever  *self,
                                     GAsyncResult      *result,
                                     GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
grammar_retriever_real_retrieve_async (GrammarRetriever    *self,
                                       const char          *query,
                                       guint                top_k,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GrammarRetrieverInterface *iface = GRAMMAR_RETRIEVER_GET_IFACE (self);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GPtrArray *hits;
  GError *error = NULL;

  g_task_set_source_tag (task, grammar_retriever_real_retrieve_async);

  if (iface->retrieve == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                               "this retriever plugin implements neither retrieve nor retrieve_async");
      return;
    }

  hits = iface->retrieve (self, query, top_k, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, hits, (GDestroyNotify) g_ptr_array_unref);
}

static GPtrArray *
grammar_retriever_real_retrieve_finish (GrammarRetriever  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_retriever_default_init (GrammarRetrieverInterface *iface)
{
  iface->index_async = grammar_retriever_real_index_async;
  iface->index_finish = grammar_retriever_real_index_finish;
  iface->retrieve_async = grammar_retriever_real_retrieve_async;
  iface->retrieve_finish = grammar_retriever_real_retrieve_finish;
}

/**
 * grammar_retriever_index:
 * @self: a #GrammarRetriever
 * @documents: (element-type GrammarDocument): the documents to add
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Adds @documents to the index, blocking. A retriever that only
 * implements the asynchronous pair runs it on a private main context,
 * so the caller's main loop does not run meanwhile.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_retriever_index (GrammarRetriever  *self,
                         GPtrArray         *documents,
                         GCancellable      *cancellable,
                         GError           **error)
{
  GrammarRetrieverInterface *iface;
  gboolean indexed;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_RETRIEVER (self), FALSE);
  g_return_val_if_fail (documents != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  iface = GRAMMAR_RETRIEVER_GET_IFACE (self);
  if (iface->index != NULL)
    return iface->index (self, documents, cancellable, error);

  grammar_sync_init (&sync);
  grammar_retriever_index_async (self, documents, cancellable, grammar_sync_callback, &sync);
  indexed = grammar_retriever_index_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return indexed;
}

/**
 * grammar_retriever_index_async:
 * @self: a #GrammarRetriever
 * @documents: (element-type GrammarDocument): the documents to add
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the documents are indexed
 * @user_data: data for @callback
 *
 * Starts adding @documents to the index. @callback is called in the
 * thread-default main context of the caller. @documents must not change
 * until then.
 */
void
grammar_retriever_index_async (GrammarRetriever    *self,
                               GPtrArray           *documents,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_RETRIEVER (self));
  g_return_if_fail (documents != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_report_error (self, callback, user_data, grammar_retriever_index_async, error);
      return;
    }
  GRAMMAR_RETRIEVER_GET_IFACE (self)->index_async (self, documents, cancellable, callback, user_data);
}

/**
 * grammar_retriever_index_finish:
 * @self: a #GrammarRetriever
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_retriever_index_async().
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_retriever_index_finish (GrammarRetriever  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (GRAMMAR_IS_RETRIEVER (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_async_result_is_tagged (result, grammar_retriever_index_async))
    return g_task_propagate_boolean (G_TASK (result), error);
  return GRAMMAR_RETRIEVER_GET_IFACE (self)->index_finish (self, result, error);
}

/**
 * grammar_retriever_retrieve:
 * @self: a #GrammarRetriever
 * @query: the text query
 * @top_k: the most hits to return
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Finds the documents most relevant to @query, blocking. A retriever
 * that only implements the asynchronous pair runs it on a private main
 * context, so the caller's main loop does not run meanwhile.
 *
 * Returns: (transfer full) (element-type GrammarHit) (nullable): at most @top_k hits, most relevant first, or %NULL with @error set
 */
GPtrArray *
grammar_retriever_retrieve (GrammarRetriever  *self,
                            const char        *query,
                            guint              top_k,
                            GCancellable      *cancellable,
                            GError           **error)
{
  GrammarRetrieverInterface *iface;
  GPtrArray *hits;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_RETRIEVER (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  iface = GRAMMAR_RETRIEVER_GET_IFACE (self);
  if (iface->retrieve != NULL)
    return iface->retrieve (self, query, top_k, cancellable, error);

  grammar_sync_init (&sync);
  grammar_retriever_retrieve_async (self, query, top_k, cancellable, grammar_sync_callback, &sync);
  hits = grammar_retriever_retrieve_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return hits;
}

/**
 * grammar_retriever_retrieve_async:
 * @self: a #GrammarRetriever
 * @query: the text query
 * @top_k: the most hits to return
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the hits are ready
 * @user_data: data for @callback
 *
 * Starts finding the documents most relevant to @query. @callback is
 * called in the thread-default main context of the caller.
 */
void
grammar_retriever_retrieve_async (GrammarRetriever    *self,
                                  const char          *query,
                                  guint                top_k,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_RETRIEVER (self));
  g_return_if_fail (query != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_report_error (self, callback, user_data, grammar_retriever_retrieve_async, error);
      return;
    }
  GRAMMAR_RETRIEVER_GET_IFACE (self)->retrieve_async (self, query, top_k, cancellable, callback, user_data);
}

/**
 * grammar_retriever_retrieve_finish:
 * @self: a #GrammarRetriever
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_retriever_retrieve_async().
 *
 * Returns: (transfer full) (element-type GrammarHit) (nullable): the hits, most relevant first, or %NULL with @error set
 */
GPtrArray *
grammar_retriever_retrieve_finish (GrammarRetriever  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (GRAMMAR_IS_RETRIEVER (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_async_result_is_tagged (result, grammar_retriever_retrieve_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return GRAMMAR_RETRIEVER_GET_IFACE (self)->retrieve_finish (self, result, error);
}
