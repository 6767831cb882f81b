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

G_BEGIN_DECLS

#define GRAMMAR_TYPE_EVALUATION (grammar_evaluation_get_type ())
G_DECLARE_FINAL_TYPE (GrammarEvaluation, grammar_evaluation, GRAMMAR, EVALUATION, GObject)

GrammarEvaluation *grammar_evaluation_new                      (GPtrArray          *records,
                                                                const char         *source,
                                                                GError            **error);
GrammarEvaluation *grammar_evaluation_load                     (const char         *path,
                                                                GCancellable       *cancellable,
                                                                GError            **error);
JsonNode          *grammar_evaluation_to_json                  (GrammarEvaluation  *self,
                                                                guint               max_list);

guint64            grammar_evaluation_get_instances            (GrammarEvaluation  *self);
guint64            grammar_evaluation_get_unmeasured           (GrammarEvaluation  *self);
guint              grammar_evaluation_get_n_groups             (GrammarEvaluation  *self,
                                                                const char         *tag);
double             grammar_evaluation_get_accuracy             (GrammarEvaluation  *self);
double             grammar_evaluation_get_robustness           (GrammarEvaluation  *self);
double             grammar_evaluation_get_knowledge_accuracy   (GrammarEvaluation  *self);
double             grammar_evaluation_get_retrieval_accuracy   (GrammarEvaluation  *self);
double             grammar_evaluation_get_retrieval_robustness (GrammarEvaluation  *self);
GPtrArray         *grammar_evaluation_get_records              (GrammarEvaluation  *self);

G_END_DECLS
