/* grammar-retriever.h: finds the documents relevant to a query
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-document.h"
#include "grammar-hit.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_RETRIEVER_EXTENSION_POINT_NAME:
 *
 * The GIO extension point that retriever plugins implement.
 */
#define GRAMMAR_RETRIEVER_EXTENSION_POINT_NAME "grammar-retriever"

#define GRAMMAR_TYPE_RETRIEVER (grammar_retriever_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarRetriever, grammar_retriever, GRAMMAR, RETRIEVER, GObject)

/**
 * GrammarRetrieverInterface:
 * @g_iface: the parent interface
 * @index: adds documents to the index, blocking (implement this or @index_async)
 * @retrieve: the top hits for a query, blocking (implement this or @retrieve_async)
 * @index_async: starts adding documents (default: @index, completed at once)
 * @index_finish: finishes @index_async
 * @retrieve_async: starts a retrieval (default: @retrieve, completed at once)
 * @retrieve_finish: finishes @retrieve_async
 *
 * The virtual functions of a retriever plugin. A local retriever
 * implements the blocking pair; a remote one the asynchronous pair.
 */
struct _GrammarRetrieverInterface
{
  GTypeInterface g_iface;

  gboolean    (*index)           (GrammarRetriever     *self,
                                  GPtrArray            *documents,
                                  GCancellable         *cancellable,
                                  GError              **error);
  GPtrArray * (*retrieve)        (GrammarRetriever     *self,
                                  const char           *query,
                                  guint                 top_k,
                                  GCancellable         *cancellable,
                                  GError              **error);
  void        (*index_async)     (GrammarRetriever     *self,
                                  GPtrArray            *documents,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
  gboolean    (*index_finish)    (GrammarRetriever     *self,
                                  GAsyncResult         *result,
                                  GError              **error);
  void        (*retrieve_async)  (GrammarRetriever     *self,
                                  const char           *query,
                                  guint                 top_k,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
  GPtrArray * (*retrieve_finish) (GrammarRetriever     *self,
                                  GAsyncResult         *result,
                                  GError              **error);

  /*< private >*/
  gpointer padding[8];
};

GRAMMAR_AVAILABLE_IN_ALL
gboolean   grammar_retriever_index           (GrammarRetriever     *self,
                                              GPtrArray            *documents,
                                              GCancellable         *cancellable,
                                              GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void       grammar_retriever_index_async     (GrammarRetriever     *self,
                                              GPtrArray            *documents,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
gboolean   grammar_retriever_index_finish    (GrammarRetriever     *self,
                                              GAsyncResult         *result,
                                              GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray *grammar_retriever_retrieve        (GrammarRetriever     *self,
                                              const char           *query,
                                              guint                 top_k,
                                              GCancellable         *cancellable,
                                              GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void       grammar_retriever_retrieve_async  (GrammarRetriever     *self,
                                              const char           *query,
                                              guint                 top_k,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray *grammar_retriever_retrieve_finish (GrammarRetriever     *self,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
