/* grammar-selfcheck.h: the `selfcheck` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-llm-metric.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SELFCHECK (grammar_selfcheck_get_type ())
G_DECLARE_FINAL_TYPE (GrammarSelfcheck, grammar_selfcheck, GRAMMAR, SELFCHECK, GrammarLlmMetric)

void grammar_selfcheck_register (GTypeModule *module);

G_END_DECLS
