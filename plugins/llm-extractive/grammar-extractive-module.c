/* grammar-extractive-module.c: the `extractive` reader plugin, a GIO module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-extractive-llm.h"

/* GIO finds these three by name when it loads the module. */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  grammar_extractive_llm_register (G_TYPE_MODULE (module));
  grammar_registry_implement (GRAMMAR_TYPE_LLM, GRAMMAR_TYPE_EXTRACTIVE_LLM, "extractive",
                              "Offline reader: answers with the context sentence that best matches the question");
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  const char * const extension_points[] = { GRAMMAR_LLM_EXTENSION_POINT_NAME, NULL };

  return g_strdupv ((char **) extension_points);
}
