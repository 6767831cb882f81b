/* grammar-pipeline-system.h: a retriever and a language model as the system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_PIPELINE_SYSTEM (grammar_pipeline_system_get_type ())
G_DECLARE_FINAL_TYPE (GrammarPipelineSystem, grammar_pipeline_system, GRAMMAR, PIPELINE_SYSTEM, GObject)

void grammar_pipeline_system_register (GTypeModule *module);

G_END_DECLS
