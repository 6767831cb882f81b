/* grammar-matchers-module.c: the `exact`, `contains`, `f1` and `llm-judge` matchers, a GIO module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-contains-matcher.h"
#include "grammar-exact-matcher.h"
#include "grammar-f1-matcher.h"
#include "grammar-llm-judge-matcher.h"
#include "grammar-match-date.h"
#include "grammar-text-matcher.h"

/* GIO finds these three by name when it loads the module. */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  /* The types of properties, then the abstract base: the three
   * deterministic matchers derive from it. */
  grammar_match_date_register (G_TYPE_MODULE (module));
  grammar_text_matcher_register (G_TYPE_MODULE (module));
  grammar_exact_matcher_register (G_TYPE_MODULE (module));
  grammar_contains_matcher_register (G_TYPE_MODULE (module));
  grammar_f1_matcher_register (G_TYPE_MODULE (module));
  grammar_llm_judge_matcher_register (G_TYPE_MODULE (module));

  grammar_registry_implement (GRAMMAR_TYPE_MATCHER, GRAMMAR_TYPE_EXACT_MATCHER, "exact",
                              "The response, normalised, is exactly the true answer's values");
  grammar_registry_implement (GRAMMAR_TYPE_MATCHER, GRAMMAR_TYPE_CONTAINS_MATCHER, "contains",
                              "Every value of the true answer occurs in the response (normalised: numbers, "
                              "dates, aliases, refusals)");
  grammar_registry_implement (GRAMMAR_TYPE_MATCHER, GRAMMAR_TYPE_F1_MATCHER, "f1",
                              "Token F1 between the response and the true answer, correct from a threshold");
  grammar_registry_implement (GRAMMAR_TYPE_MATCHER, GRAMMAR_TYPE_LLM_JUDGE_MATCHER, "llm-judge",
                              "A language model judges Correct or Incorrect with the GRAMMAR paper's prompt");
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  const char * const extension_points[] = { GRAMMAR_MATCHER_EXTENSION_POINT_NAME, NULL };

  return g_strdupv ((char **) extension_points);
}
