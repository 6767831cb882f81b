/* grammar-metrics-module.c: the reference-free metrics, a GIO module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-lexical-faithfulness.h"
#include "grammar-llm-metric.h"
#include "grammar-ragas-faithfulness.h"
#include "grammar-rageval-keypoints.h"
#include "grammar-selfcheck-ngram.h"
#include "grammar-selfcheck.h"

/* GIO finds these three by name when it loads the module. */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  /* The abstract base first: the two language-model metrics derive from it. */
  grammar_llm_metric_register (G_TYPE_MODULE (module));
  grammar_ragas_faithfulness_register (G_TYPE_MODULE (module));
  grammar_selfcheck_register (G_TYPE_MODULE (module));
  grammar_lexical_faithfulness_register (G_TYPE_MODULE (module));
  grammar_selfcheck_ngram_register (G_TYPE_MODULE (module));
  grammar_rageval_keypoints_register (G_TYPE_MODULE (module));

  grammar_registry_implement (GRAMMAR_TYPE_METRIC, GRAMMAR_TYPE_RAGAS_FAITHFULNESS, "ragas-faithfulness",
                              "RAGAS faithfulness: a language model splits the response into statements and "
                              "checks each against the retrieved context");
  grammar_registry_implement (GRAMMAR_TYPE_METRIC, GRAMMAR_TYPE_SELFCHECK, "selfcheck",
                              "SelfCheck: a language model compares the response with the system's stochastic "
                              "samples (the paper's SelfCheck-QA, or sentence NLI)");
  grammar_registry_implement (GRAMMAR_TYPE_METRIC, GRAMMAR_TYPE_LEXICAL_FAITHFULNESS, "faithfulness-lexical",
                              "Offline lexical approximation of faithfulness: response sentences whose content "
                              "words the retrieved context covers");
  grammar_registry_implement (GRAMMAR_TYPE_METRIC, GRAMMAR_TYPE_SELFCHECK_NGRAM, "selfcheck-ngram",
                              "Offline SelfCheckGPT unigram: how probable the response's words are under a "
                              "model of the samples");
  grammar_registry_implement (GRAMMAR_TYPE_METRIC, GRAMMAR_TYPE_RAGEVAL_KEYPOINTS, "rageval-keypoints",
                              "RAGEval's completeness, hallucination and irrelevance over keypoints made from the "
                              "grounded answer, contradictions grounded in the database's values");
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  const char * const extension_points[] = { GRAMMAR_METRIC_EXTENSION_POINT_NAME, NULL };

  return g_strdupv ((char **) extension_points);
}
