/* grammar-sql-generator.c: what proposes the SQL templates of a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-sql-generator.h"
#include "grammar-sql-generator-private.h"

/**
 * GrammarSqlGenerator:
 *
 * Proposes SQL query templates (#GrammarSqlTemplate) for a database: the
 * first stage of the method. `grammar sql-templates --generator NAME`
 * and the `[sql-generator]` section of a keyfile choose the
 * implementation by its plugin name.
 */

G_DEFINE_INTERFACE (GrammarSqlGenerator, grammar_sql_generator, G_TYPE_OBJECT)

static void
grammar_sql_generator_default_init (GrammarSqlGeneratorInterface *iface)
{
}

/**
 * grammar_sql_generator_generate:
 * @self: a #GrammarSqlGenerator
 * @database: the database to propose templates for
 * @notes: (out) (optional) (transfer full) (array zero-terminated=1):
 *   what the generator left out and why, one line each
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Proposes the SQL templates of @database. It may block (a language
 * model is asked synchronously): call it from a worker thread in a
 * program with a user interface.
 *
 * Returns: (transfer container) (element-type GrammarSqlTemplate): the
 *   templates, or %NULL with @error set
 */
GPtrArray *
grammar_sql_generator_generate (GrammarSqlGenerator  *self,
                                GrammarDatabase      *database,
                                GStrv                *notes,
                                GCancellable         *cancellable,
                                GError              **error)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_GENERATOR (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (database), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (notes != NULL)
    *notes = NULL;
  return GRAMMAR_SQL_GENERATOR_GET_IFACE (self)->generate (self, database, notes, cancellable, error);
}

/* A generator built from a keyfile section has no database yet: the one
 * grammar_sql_generator_generate() is given becomes its own, with its
 * schema. One made for another database is moved to this one. */
gboolean
grammar_sql_generator_use_database (GrammarDatabase  **database_slot,
                                    GrammarSchema    **schema_slot,
                                    GrammarDatabase   *database,
                                    GCancellable      *cancellable,
                                    GError           **error)
{
  GrammarSchema *schema;

  if (*database_slot == database && *schema_slot != NULL)
    return TRUE;
  schema = grammar_database_get_schema (database, cancellable, error);
  if (schema == NULL)
    return FALSE;
  g_set_object (database_slot, database);
  g_clear_object (schema_slot);
  *schema_slot = schema;
  return TRUE;
}
