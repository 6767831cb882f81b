/* grammar-systems-module.c: the `pipeline` and `http` systems under test, a GIO module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-http-system.h"
#include "grammar-pipeline-system.h"

/* GIO finds these three by name when it loads the module. */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  grammar_pipeline_system_register (G_TYPE_MODULE (module));
  grammar_http_system_register (G_TYPE_MODULE (module));
  grammar_registry_implement (GRAMMAR_TYPE_SYSTEM, GRAMMAR_TYPE_PIPELINE_SYSTEM, "pipeline",
                              "A retriever and a language model: the retrieved texts fill the prompt");
  grammar_registry_implement (GRAMMAR_TYPE_SYSTEM, GRAMMAR_TYPE_HTTP_SYSTEM, "http",
                              "Your own RAG service: the query POSTed as JSON, the answer read with JSON pointers");
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  const char * const extension_points[] = { GRAMMAR_SYSTEM_EXTENSION_POINT_NAME, NULL };

  return g_strdupv ((char **) extension_points);
}
