/* grammar-mysql-module.c: the `mysql` database plugin, a GIO module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-mysql-cursor.h"
#include "grammar-mysql-database.h"

/* GIO finds these three by name when it loads the module. */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  grammar_mysql_database_register (G_TYPE_MODULE (module));
  grammar_mysql_cursor_register (G_TYPE_MODULE (module));
  grammar_registry_implement (GRAMMAR_TYPE_DATABASE, GRAMMAR_TYPE_MYSQL_DATABASE,
                              "mysql", "MariaDB or MySQL server, read-only");
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  /* Lets GIO know which extension points the module implements without
   * loading it, when it scans a folder of modules. */
  const char * const extension_points[] = { GRAMMAR_DATABASE_EXTENSION_POINT_NAME, NULL };

  return g_strdupv ((char **) extension_points);
}
