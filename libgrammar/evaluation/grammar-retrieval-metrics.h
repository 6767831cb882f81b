/* grammar-retrieval-metrics.h: hit rate, precision, recall, MRR, nDCG, RAGEval recall and EIR
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "grammar-evaluation.h"
#include "grammar-record.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_RETRIEVAL_METRICS (grammar_retrieval_metrics_get_type ())

GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarRetrievalMetrics, grammar_retrieval_metrics, GRAMMAR, RETRIEVAL_METRICS, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarRetrievalMetrics *grammar_retrieval_metrics_new             (void);
GRAMMAR_AVAILABLE_IN_ALL
void                     grammar_retrieval_metrics_set_cutoffs     (GrammarRetrievalMetrics *self,
                                                                    const guint             *cutoffs,
                                                                    gsize                    n_cutoffs);
GRAMMAR_AVAILABLE_IN_ALL
void                     grammar_retrieval_metrics_add_evaluation  (GrammarRetrievalMetrics *self,
                                                                    GrammarEvaluation       *evaluation);
GRAMMAR_AVAILABLE_IN_ALL
guint64                  grammar_retrieval_metrics_get_n_measured  (GrammarRetrievalMetrics *self);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode                *grammar_retrieval_metrics_to_json         (GrammarRetrievalMetrics *self);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode                *grammar_retrieval_metrics_compare         (GrammarRetrievalMetrics *self,
                                                                    GrammarRetrievalMetrics *other,
                                                                    double                   alpha);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                 grammar_retrieval_metrics_measure_record  (GrammarRecord           *record,
                                                                    guint                    cutoff,
                                                                    double                  *hit,
                                                                    double                  *precision,
                                                                    double                  *recall,
                                                                    double                  *reciprocal_rank,
                                                                    double                  *ndcg);

G_END_DECLS
