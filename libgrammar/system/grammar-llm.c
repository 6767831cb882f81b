/* grammar-llm.c: a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-error.h"
#include "grammar-llm.h"
#include "grammar-sync-private.h"

/**
 * GrammarLlm:
 *
 * A language model: it completes chats and, optionally, computes
 * embeddings of texts. GRAMMAR asks models to write the query templates
 * and their rewordings, to play the system under test, and to judge
 * responses.
 *
 * Plugins implement the `grammar-llm` extension point
 * (%GRAMMAR_LLM_EXTENSION_POINT_NAME) with the asynchronous pair
 * #GrammarLlmInterface.chat_async and #GrammarLlmInterface.chat_finish,
 * and, if the model computes embeddings,
 * #GrammarLlmInterface.embed_async and #GrammarLlmInterface.embed_finish.
 * An implementation attaches its sources to the thread-default main
 * context of the caller; grammar_llm_chat() and grammar_llm_embed()
 * rely on that to block on a private main context.
 */

G_DEFINE_INTERFACE (GrammarLlm, grammar_llm, G_TYPE_OBJECT)

static void
grammar_llm_default_init (GrammarLlmInterface *iface)
{
}

/**
 * grammar_llm_chat_async:
 * @self: a #GrammarLlm
 * @request: what to ask
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the response is ready
 * @user_data: data for @callback
 *
 * Starts a chat completion. @callback is called in the thread-default
 * main context of the caller.
 */
void
grammar_llm_chat_async (GrammarLlm          *self,
                        GrammarChatRequest  *request,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GrammarLlmInterface *iface;
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_LLM (self));
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (request));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  iface = GRAMMAR_LLM_GET_IFACE (self);
  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_report_error (self, callback, user_data, grammar_llm_chat_async, error);
      return;
    }
  if (iface->chat_async == NULL)
    {
      g_task_report_new_error (self, callback, user_data, grammar_llm_chat_async,
                               GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                               "this language model plugin does not complete chats");
      return;
    }
  iface->chat_async (self, request, cancellable, callback, user_data);
}

/**
 * grammar_llm_chat_finish:
 * @self: a #GrammarLlm
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_llm_chat_async().
 *
 * Returns: (transfer full) (nullable): the response, or %NULL with @error set
 */
GrammarChatResponse *
grammar_llm_chat_finish (GrammarLlm    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_async_result_is_tagged (result, grammar_llm_chat_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return GRAMMAR_LLM_GET_IFACE (self)->chat_finish (self, result, error);
}

/**
 * grammar_llm_chat:
 * @self: a #GrammarLlm
 * @request: what to ask
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Completes a chat, blocking. The request runs on a private main
 * context, so the caller's main loop does not run meanwhile.
 *
 * Returns: (transfer full) (nullable): the response, or %NULL with @error set
 */
GrammarChatResponse *
grammar_llm_chat (GrammarLlm          *self,
                  GrammarChatRequest  *request,
                  GCancellable        *cancellable,
                  GError             **error)
{
  GrammarChatResponse *response;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_LLM (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (request), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  grammar_sync_init (&sync);
  grammar_llm_chat_async (self, request, cancellable, grammar_sync_callback, &sync);
  response = grammar_llm_chat_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return response;
}

/**
 * grammar_llm_embed_async:
 * @self: a #GrammarLlm
 * @texts: (array zero-terminated=1): the texts to embed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the embeddings are ready
 * @user_data: data for @callback
 *
 * Starts computing one embedding vector per text. When the plugin does
 * not compute embeddings, the operation fails with
 * %GRAMMAR_ERROR_NOT_SUPPORTED.
 */
void
grammar_llm_embed_async (GrammarLlm          *self,
                         const char * const  *texts,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  GrammarLlmInterface *iface;
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_LLM (self));
  g_return_if_fail (texts != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  iface = GRAMMAR_LLM_GET_IFACE (self);
  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_report_error (self, callback, user_data, grammar_llm_embed_async, error);
      return;
    }
  if (iface->embed_async == NULL)
    {
      g_task_report_new_error (self, callback, user_data, grammar_llm_embed_async,
                               GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                               "this language model plugin does not compute embeddings");
      return;
    }
  iface->embed_async (self, texts, cancellable, callback, user_data);
}

/**
 * grammar_llm_embed_finish:
 * @self: a #GrammarLlm
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_llm_embed_async().
 *
 * Returns: (transfer full) (nullable): one vector per text, in the order of the texts, or %NULL with @error set
 */
GrammarEmbeddings *
grammar_llm_embed_finish (GrammarLlm    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_async_result_is_tagged (result, grammar_llm_embed_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return GRAMMAR_LLM_GET_IFACE (self)->embed_finish (self, result, error);
}

/**
 * grammar_llm_embed:
 * @self: a #GrammarLlm
 * @texts: (array zero-terminated=1): the texts to embed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Computes one embedding vector per text, blocking, on a private main
 * context. When the plugin does not compute embeddings, fails with
 * %GRAMMAR_ERROR_NOT_SUPPORTED.
 *
 * Returns: (transfer full) (nullable): one vector per text, in the order of the texts, or %NULL with @error set
 */
GrammarEmbeddings *
grammar_llm_embed (GrammarLlm          *self,
                   const char * const  *texts,
                   GCancellable        *cancellable,
                   GError             **error)
{
  GrammarEmbeddings *embeddings;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_LLM (self), NULL);
  g_return_val_if_fail (texts != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  grammar_sync_init (&sync);
  grammar_llm_embed_async (self, texts, cancellable, grammar_sync_callback, &sync);
  embeddings = grammar_llm_embed_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return embeddings;
}
