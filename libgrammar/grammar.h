/* grammar.h: GRAMMAR, grounded and modular evaluation of RAG systems
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define GRAMMAR_INSIDE

#include "grammar-version.h"
#include "grammar-error.h"
#include "grammar-enums.h"

#include "grammar-column.h"
#include "grammar-foreign-key.h"
#include "grammar-table.h"
#include "grammar-schema.h"
#include "grammar-cursor.h"
#include "grammar-result.h"
#include "grammar-value.h"
#include "grammar-json.h"

#include "grammar-chat-request.h"
#include "grammar-chat-response.h"
#include "grammar-embeddings.h"
#include "grammar-document.h"
#include "grammar-hit.h"
#include "grammar-verdict.h"
#include "grammar-record.h"
#include "grammar-score.h"
#include "grammar-answer.h"

#include "grammar-database.h"
#include "grammar-llm.h"
#include "grammar-retriever.h"
#include "grammar-matcher.h"
#include "grammar-metric.h"
#include "grammar-system.h"
#include "grammar-stage-runner.h"
#include "grammar-sql-generator.h"
#include "grammar-verbalizer.h"

#include "grammar-sql-template.h"
#include "grammar-text-template.h"
#include "grammar-template-set.h"
#include "grammar-schema-generator.h"
#include "grammar-llm-sql-generator.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-text-style.h"
#include "grammar-llm-verbalizer.h"
#include "grammar-qa-generator.h"
#include "grammar-py-import.h"
#include "grammar-rag-runner.h"
#include "grammar-document-generator.h"
#include "grammar-judge-runner.h"
#include "grammar-evaluation.h"
#include "grammar-comparison.h"
#include "grammar-report.h"
#include "grammar-assess-runner.h"
#include "grammar-reliability.h"
#include "grammar-retrieval-metrics.h"
#include "grammar-keypoint.h"
#include "grammar-request-statistics.h"

#include "grammar-plugin-info.h"
#include "grammar-registry.h"
#include "grammar-config.h"
#include "grammar-assembly.h"
#include "grammar-method.h"

#undef GRAMMAR_INSIDE
