/* grammar-ragas-faithfulness.h: the `ragas-faithfulness` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-llm-metric.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_RAGAS_FAITHFULNESS (grammar_ragas_faithfulness_get_type ())
G_DECLARE_FINAL_TYPE (GrammarRagasFaithfulness, grammar_ragas_faithfulness, GRAMMAR, RAGAS_FAITHFULNESS, GrammarLlmMetric)

void grammar_ragas_faithfulness_register (GTypeModule *module);

G_END_DECLS
