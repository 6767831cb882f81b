/* grammar-retrieval-metrics-private.h: records measured as a report reads them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-evaluation.h"
#include "grammar-record.h"
#include "grammar-retrieval-metrics.h"

G_BEGIN_DECLS

G_GNUC_INTERNAL
void grammar_retrieval_metrics_add_record (GrammarRetrievalMetrics *self,
                                           GrammarRecord           *record);
G_GNUC_INTERNAL
void grammar_retrieval_metrics_set_tags   (GrammarRetrievalMetrics *self,
                                           GrammarEvaluation       *evaluation);

G_END_DECLS
