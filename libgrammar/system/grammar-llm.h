/* grammar-llm.h: a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-chat-request.h"
#include "grammar-chat-response.h"
#include "grammar-embeddings.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_LLM_EXTENSION_POINT_NAME:
 *
 * The GIO extension point that language model plugins implement.
 */
#define GRAMMAR_LLM_EXTENSION_POINT_NAME "grammar-llm"

#define GRAMMAR_TYPE_LLM (grammar_llm_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarLlm, grammar_llm, GRAMMAR, LLM, GObject)

/**
 * GrammarLlmInterface:
 * @g_iface: the parent interface
 * @chat_async: starts a chat completion (required)
 * @chat_finish: finishes @chat_async (required)
 * @embed_async: starts computing embeddings (optional: without it, embedding fails with %GRAMMAR_ERROR_NOT_SUPPORTED)
 * @embed_finish: finishes @embed_async
 *
 * The virtual functions of a language model plugin. Requests are
 * asynchronous because models are usually remote; the synchronous
 * wrappers run them on a private main context.
 */
struct _GrammarLlmInterface
{
  GTypeInterface g_iface;

  void                  (*chat_async)   (GrammarLlm           *self,
                                         GrammarChatRequest   *request,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
  GrammarChatResponse * (*chat_finish)  (GrammarLlm           *self,
                                         GAsyncResult         *result,
                                         GError              **error);
  void                  (*embed_async)  (GrammarLlm           *self,
                                         const char * const   *texts,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
  GrammarEmbeddings *   (*embed_finish) (GrammarLlm           *self,
                                         GAsyncResult         *result,
                                         GError              **error);

  /*< private >*/
  gpointer padding[8];
};

GRAMMAR_AVAILABLE_IN_ALL
void                 grammar_llm_chat_async   (GrammarLlm           *self,
                                               GrammarChatRequest   *request,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GrammarChatResponse *grammar_llm_chat_finish  (GrammarLlm           *self,
                                               GAsyncResult         *result,
                                               GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarChatResponse *grammar_llm_chat         (GrammarLlm           *self,
                                               GrammarChatRequest   *request,
                                               GCancellable         *cancellable,
                                               GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void                 grammar_llm_embed_async  (GrammarLlm           *self,
                                               const char * const   *texts,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GrammarEmbeddings   *grammar_llm_embed_finish (GrammarLlm           *self,
                                               GAsyncResult         *result,
                                               GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarEmbeddings   *grammar_llm_embed        (GrammarLlm           *self,
                                               const char * const   *texts,
                                               GCancellable         *cancellable,
                                               GError              **error);

G_END_DECLS
