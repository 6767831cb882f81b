/* grammar-system.h: the RAG system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-answer.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_SYSTEM_EXTENSION_POINT_NAME:
 *
 * The GIO extension point that system-under-test plugins implement.
 */
#define GRAMMAR_SYSTEM_EXTENSION_POINT_NAME "grammar-system"

#define GRAMMAR_TYPE_SYSTEM (grammar_system_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarSystem, grammar_system, GRAMMAR, SYSTEM, GObject)

/**
 * GrammarSystemInterface:
 * @g_iface: the parent interface
 * @answer: answers a query, blocking (implement this or @answer_async)
 * @answer_async: starts answering a query (default: @answer, completed at once)
 * @answer_finish: finishes @answer_async
 * @probe_async: optional: checks that the system can answer at all, with
 *   one short request and no retry (a service that is down, a wrong
 *   address or key); without it, the probe succeeds
 * @probe_finish: finishes @probe_async
 *
 * The virtual functions of a system under test: a retriever with a
 * language model, the user's own service, or answers read from a file.
 */
struct _GrammarSystemInterface
{
  GTypeInterface g_iface;

  GrammarAnswer * (*answer)        (GrammarSystem        *self,
                                          const char           *query,
                                          GCancellable         *cancellable,
                                          GError              **error);
  void                  (*answer_async)  (GrammarSystem        *self,
                                          const char           *query,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
  GrammarAnswer * (*answer_finish) (GrammarSystem        *self,
                                          GAsyncResult         *result,
                                          GError              **error);
  void                  (*probe_async)   (GrammarSystem        *self,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
  gboolean              (*probe_finish)  (GrammarSystem        *self,
                                          GAsyncResult         *result,
                                          GError              **error);

  /*< private >*/
  gpointer padding[6];
};

GRAMMAR_AVAILABLE_IN_ALL
GrammarAnswer *grammar_system_answer        (GrammarSystem        *self,
                                                   const char           *query,
                                                   GCancellable         *cancellable,
                                                   GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void                 grammar_system_answer_async  (GrammarSystem        *self,
                                                   const char           *query,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GrammarAnswer *grammar_system_answer_finish (GrammarSystem        *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

GRAMMAR_AVAILABLE_IN_ALL
void                 grammar_system_probe_async   (GrammarSystem        *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
gboolean             grammar_system_probe_finish  (GrammarSystem        *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean             grammar_system_probe         (GrammarSystem        *self,
                                                   GCancellable         *cancellable,
                                                   GError              **error);

G_END_DECLS
