/* grammar-evaluation.h: group tagging and the robustness metrics of a judged run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_EVALUATION (grammar_evaluation_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarEvaluation, grammar_evaluation, GRAMMAR, EVALUATION, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarEvaluation *grammar_evaluation_new                      (GPtrArray          *records,
                                                                const char         *source,
                                                                GError            **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarEvaluation *grammar_evaluation_load                     (const char         *path,
                                                                GCancellable       *cancellable,
                                                                GError            **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode          *grammar_evaluation_to_json                  (GrammarEvaluation  *self,
                                                                guint               max_list);

GRAMMAR_AVAILABLE_IN_ALL
guint64            grammar_evaluation_get_instances            (GrammarEvaluation  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64            grammar_evaluation_get_unmeasured           (GrammarEvaluation  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint              grammar_evaluation_get_n_groups             (GrammarEvaluation  *self,
                                                                const char         *tag);
GRAMMAR_AVAILABLE_IN_ALL
double             grammar_evaluation_get_accuracy             (GrammarEvaluation  *self);
GRAMMAR_AVAILABLE_IN_ALL
double             grammar_evaluation_get_robustness           (GrammarEvaluation  *self);
GRAMMAR_AVAILABLE_IN_ALL
double             grammar_evaluation_get_knowledge_accuracy   (GrammarEvaluation  *self);
GRAMMAR_AVAILABLE_IN_ALL
double             grammar_evaluation_get_retrieval_accuracy   (GrammarEvaluation  *self);
GRAMMAR_AVAILABLE_IN_ALL
double             grammar_evaluation_get_retrieval_robustness (GrammarEvaluation  *self);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray         *grammar_evaluation_get_records              (GrammarEvaluation  *self);

G_END_DECLS
