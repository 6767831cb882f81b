/* grammar-matcher.h: judges a response against the truth
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-record.h"
#include "grammar-verdict.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_MATCHER_EXTENSION_POINT_NAME:
 *
 * The GIO extension point that matcher plugins implement.
 */
#define GRAMMAR_MATCHER_EXTENSION_POINT_NAME "grammar-matcher"

#define GRAMMAR_TYPE_MATCHER (grammar_matcher_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarMatcher, grammar_matcher, GRAMMAR, MATCHER, GObject)

/**
 * GrammarMatcherInterface:
 * @g_iface: the parent interface
 * @judge: judges a record, blocking (implement this or @judge_async)
 * @judge_async: starts judging a record (default: @judge, completed at once)
 * @judge_finish: finishes @judge_async
 *
 * The virtual functions of a matcher plugin. A deterministic matcher
 * implements @judge; one that asks a language model implements the
 * asynchronous pair.
 */
struct _GrammarMatcherInterface
{
  GTypeInterface g_iface;

  GrammarVerdict * (*judge)        (GrammarMatcher       *self,
                                    GrammarRecord        *record,
                                    GCancellable         *cancellable,
                                    GError              **error);
  void             (*judge_async)  (GrammarMatcher       *self,
                                    GrammarRecord        *record,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
  GrammarVerdict * (*judge_finish) (GrammarMatcher       *self,
                                    GAsyncResult         *result,
                                    GError              **error);

  /*< private >*/
  gpointer padding[8];
};

GRAMMAR_AVAILABLE_IN_ALL
GrammarVerdict *grammar_matcher_judge        (GrammarMatcher       *self,
                                              GrammarRecord        *record,
                                              GCancellable         *cancellable,
                                              GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void            grammar_matcher_judge_async  (GrammarMatcher       *self,
                                              GrammarRecord        *record,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GrammarVerdict *grammar_matcher_judge_finish (GrammarMatcher       *self,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
