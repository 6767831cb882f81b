/* grammar-retrieval-module.c: the retriever plugins, one GIO module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-bm25-retriever.h"
#include "grammar-keyword-retriever.h"
/* ADD-RETRIEVAL-INCLUDES-HERE */
#include "grammar-dense-retriever.h"

/* GIO finds these three by name when it loads the module. */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  GTypeModule *type_module = G_TYPE_MODULE (module);

  grammar_keyword_retriever_register (type_module);
  grammar_registry_implement (GRAMMAR_TYPE_RETRIEVER, GRAMMAR_TYPE_KEYWORD_RETRIEVER, "keyword",
                              "Ranks documents by the number of distinct query words they share");
  grammar_bm25_retriever_register (type_module);
  grammar_registry_implement (GRAMMAR_TYPE_RETRIEVER, GRAMMAR_TYPE_BM25_RETRIEVER, "bm25",
                              "BM25 ranking over an SQLite FTS5 full-text index");
  /* ADD-RETRIEVAL-REGISTRATIONS-HERE */
  grammar_dense_retriever_register (type_module);
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  const char * const extension_points[] = { GRAMMAR_RETRIEVER_EXTENSION_POINT_NAME, NULL };

  return g_strdupv ((char **) extension_points);
}
