/* grammar-openai-module.c: the `openai` language model plugin, a GIO module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-openai-llm.h"

/* GIO finds these three by name when it loads the module. */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  grammar_openai_llm_register (G_TYPE_MODULE (module));
  grammar_registry_implement (GRAMMAR_TYPE_LLM, GRAMMAR_TYPE_OPENAI_LLM,
                              "openai", "Any OpenAI-compatible chat and embeddings server");
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
