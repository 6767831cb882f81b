/* grammar-database.c: the relational database the data comes from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-database-private.h"
#include "grammar-sql-dialect.h"
#include "grammar-database.h"
#include "grammar-error.h"

/**
 * GrammarDatabase:
 *
 * A relational database: the knowledge base that GRAMMAR turns into
 * query–answer pairs. It introspects its schema (tables, columns,
 * declared types, primary and unique keys, foreign keys), runs single
 * read-only statements with bound parameters, and lists the distinct
 * values of a column.
 *
 * Parameters are a #GVariant tuple, or an array of variants (`av`),
 * whose children bind to `?1`, `?2`… in order: `x`, `i`, `u`, `t`, `n`,
 * `q`, `y` and `b` as integers, `d` as a real, `s` as text, `ay` as a
 * blob, and a maybe-typed nothing as NULL.
 *
 * Plugins implement the `grammar-database` extension point; the
 * built-in one is `sqlite`.
 */

G_DEFINE_INTERFACE (GrammarDatabase, grammar_database, G_TYPE_OBJECT)

G_DEFINE_QUARK (grammar-database-error-quark, grammar_database_error)

static char *
grammar_database_real_quote_identifier (GrammarDatabase *self,
                                        const char      *identifier)
{
  GString *quoted = g_string_sized_new (strlen (identifier) + 2);

  g_string_append_c (quoted, '"');
  for (const char *p = identifier; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (quoted, '"');
      g_string_append_c (quoted, *p);
    }
  g_string_append_c (quoted, '"');
  return g_string_free (quoted, FALSE);
}

static gboolean
grammar_database_real_identifier_needs_quotes (GrammarDatabase *self,
                                               const char      *identifier)
{
  return grammar_sql_dialect_needs_quotes (GRAMMAR_SQL_DIALECT_SQLITE, identifier);
}

char *
grammar_database_sqlite_sql_form (GrammarSqlForm  form,
                                  const char     *expression)
{
  switch (form)
    {
    case GRAMMAR_SQL_FORM_TEXT_LENGTH:
      return g_strdup_printf ("LENGTH(%s)", expression);
    case GRAMMAR_SQL_FORM_BINARY:
    default:
      return g_strdup_printf ("%s COLLATE BINARY", expression);
    }
}

char *
grammar_database_column_sql_form (GrammarDatabase *database,
                                  GrammarSqlForm   form,
                                  GrammarTable    *table,
                                  const char      *column)
{
  g_autofree char *quoted = grammar_database_quote_identifier (database, column);
  GrammarColumn *info = table != NULL ? grammar_table_get_column (table, column) : NULL;

  return grammar_database_sql_form (database, form, quoted,
                                    info != NULL ? grammar_column_get_declared_type (info) : NULL);
}

/* SQLite's own spelling: the sqlite plugin needs no sql_form. */
static char *
grammar_database_real_sql_form (GrammarDatabase *self,
                                GrammarSqlForm   form,
                                const char      *expression,
                                const char      *declared_type)
{
  return grammar_database_sqlite_sql_form (form, expression);
}

static GrammarResult *
grammar_database_real_distinct_values (GrammarDatabase  *self,
                                       const char       *table_name,
                                       const char       *column_name,
                                       GCancellable     *cancellable,
                                       GError          **error)
{
  g_autoptr (GrammarSchema) schema = NULL;
  g_autofree char *quoted_table = NULL;
  g_autofree char *quoted_column = NULL;
  g_autofree char *sql = NULL;
  GrammarTable *table;
  GrammarColumn *column;

  schema = grammar_database_get_schema (self, cancellable, error);
  if (schema == NULL)
    return NULL;

  table = grammar_schema_get_table (schema, table_name);
  if (table == NULL)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NO_SUCH_TABLE,
                   "no table “%s” in the database", table_name);
      return NULL;
    }
  column = grammar_table_get_column (table, column_name);
  if (column == NULL)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NO_SUCH_COLUMN,
                   "no column “%s” in table “%s”", column_name, grammar_table_get_name (table));
      return NULL;
    }

  /* In SQLite's binary order on every backend, so that whoever reads
   * the values in turn meets them in the same order. */
  quoted_table = grammar_database_quote_identifier (self, grammar_table_get_name (table));
  quoted_column = grammar_database_column_sql_form (self, GRAMMAR_SQL_FORM_BINARY, table,
                                                    grammar_column_get_name (column));
  sql = g_strdup_printf ("SELECT DISTINCT %s FROM %s ORDER BY 1", quoted_column, quoted_table);
  return grammar_database_query (self, sql, NULL, cancellable, error);
}

static void
get_schema_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  GError *error = NULL;
  GrammarSchema *schema = grammar_database_get_schema (source_object, cancellable, &error);

  if (schema == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, schema, g_object_unref);
}

static void
grammar_database_real_get_schema_async (GrammarDatabase     *self,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, grammar_database_real_get_schema_async);
  g_task_run_in_thread (task, get_schema_thread);
}

static GrammarSchema *
grammar_database_real_get_schema_finish (GrammarDatabase  *self,
                                         GAsyncResult     *result,
                                         GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  char *sql;
  GVariant *parameters;
} QueryData;

static void
query_data_free (gpointer data)
{
  QueryData *query = data;

  g_free (query->sql);
  g_clear_pointer (&query->parameters, g_variant_unref);
  g_free (query);
}

static void
query_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  QueryData *query = task_data;
  GError *error = NULL;
  GrammarResult *result;

  result = grammar_database_query (source_object, query->sql, query->parameters, cancellable, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
grammar_database_real_query_async (GrammarDatabase     *self,
                                   const char          *sql,
                                   GVariant            *parameters,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  QueryData *query = g_new0 (QueryData, 1);

  query->sql = g_strdup (sql);
  query->parameters = parameters != NULL ? g_variant_ref_sink (parameters) : NULL;
  g_task_set_source_tag (task, grammar_database_real_query_async);
  g_task_set_task_data (task, query, query_data_free);
  g_task_run_in_thread (task, query_thread);
}

static GrammarResult *
grammar_database_real_query_finish (GrammarDatabase  *self,
                                    GAsyncResult     *result,
                                    GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
grammar_database_real_check_query (GrammarDatabase  *self,
                                   const char       *sql,
                                   guint            *n_parameters,
                                   GError          **error)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
               "the %s database plugin cannot check a statement without running it",
               G_OBJECT_TYPE_NAME (self));
  return FALSE;
}

static void
grammar_database_default_init (GrammarDatabaseInterface *iface)
{
  iface->check_query = grammar_database_real_check_query;
  iface->quote_identifier = grammar_database_real_quote_identifier;
  iface->identifier_needs_quotes = grammar_database_real_identifier_needs_quotes;
  iface->distinct_values = grammar_database_real_distinct_values;
  iface->sql_form = grammar_database_real_sql_form;
  iface->get_schema_async = grammar_database_real_get_schema_async;
  iface->get_schema_finish = grammar_database_real_get_schema_finish;
  iface->query_async = grammar_database_real_query_async;
  iface->query_finish = grammar_database_real_query_finish;
}

/**
 * grammar_database_get_schema:
 * @self: a #GrammarDatabase
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Introspects the schema: tables, columns with declared types and
 * nullability, primary keys (composite ones in key order), unique
 * constraints and foreign keys. The schema may be shared with other
 * callers (a read-only database's schema does not change): treat it as
 * read-only.
 *
 * Returns: (transfer full) (nullable): the schema, or %NULL with @error set
 */
GrammarSchema *
grammar_database_get_schema (GrammarDatabase  *self,
                             GCancellable     *cancellable,
                             GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return GRAMMAR_DATABASE_GET_IFACE (self)->get_schema (self, cancellable, error);
}

/**
 * grammar_database_get_schema_async:
 * @self: a #GrammarDatabase
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the schema is ready
 * @user_data: data for @callback
 *
 * Starts grammar_database_get_schema() without blocking.
 */
void
grammar_database_get_schema_async (GrammarDatabase     *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (GRAMMAR_IS_DATABASE (self));

  GRAMMAR_DATABASE_GET_IFACE (self)->get_schema_async (self, cancellable, callback, user_data);
}

/**
 * grammar_database_get_schema_finish:
 * @self: a #GrammarDatabase
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the schema, or %NULL with @error set
 */
GrammarSchema *
grammar_database_get_schema_finish (GrammarDatabase  *self,
                                    GAsyncResult     *result,
                                    GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return GRAMMAR_DATABASE_GET_IFACE (self)->get_schema_finish (self, result, error);
}

/**
 * grammar_database_query_cursor:
 * @self: a #GrammarDatabase
 * @sql: one read-only statement, with `?` placeholders for the parameters
 * @parameters: (nullable): the values to bind, a tuple or `av`; a floating reference is consumed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Prepares @sql, binds @parameters and returns a cursor over its rows.
 * A statement that writes, or text with more than one statement, fails
 * with %GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY or
 * %GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS before anything runs.
 *
 * Returns: (transfer full) (nullable): a cursor before its first row, or %NULL with @error set
 */
GrammarCursor *
grammar_database_query_cursor (GrammarDatabase  *self,
                               const char       *sql,
                               GVariant         *parameters,
                               GCancellable     *cancellable,
                               GError          **error)
{
  g_autoptr (GVariant) owned = NULL;

  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (sql != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Take a floating reference, as GLib functions taking a GVariant do. */
  if (parameters != NULL)
    owned = g_variant_ref_sink (parameters);
  return GRAMMAR_DATABASE_GET_IFACE (self)->query_cursor (self, sql, parameters, cancellable, error);
}

/**
 * grammar_database_query:
 * @self: a #GrammarDatabase
 * @sql: one read-only statement, with `?` placeholders for the parameters
 * @parameters: (nullable): the values to bind, a tuple or `av`
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Runs @sql as grammar_database_query_cursor() does and reads every row.
 *
 * Returns: (transfer full) (nullable): the rows, or %NULL with @error set
 */
GrammarResult *
grammar_database_query (GrammarDatabase  *self,
                        const char       *sql,
                        GVariant         *parameters,
                        GCancellable     *cancellable,
                        GError          **error)
{
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autoptr (GVariant) owned = NULL;

  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (sql != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (parameters != NULL)
    owned = g_variant_ref_sink (parameters);
  cursor = grammar_database_query_cursor (self, sql, parameters, cancellable, error);
  if (cursor == NULL)
    return NULL;
  return grammar_result_new_from_cursor (cursor, cancellable, error);
}

/**
 * grammar_database_query_async:
 * @self: a #GrammarDatabase
 * @sql: one read-only statement, with `?` placeholders for the parameters
 * @parameters: (nullable): the values to bind, a tuple or `av`
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the rows are read
 * @user_data: data for @callback
 *
 * Starts grammar_database_query() without blocking.
 */
void
grammar_database_query_async (GrammarDatabase     *self,
                              const char          *sql,
                              GVariant            *parameters,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr (GVariant) owned = NULL;

  g_return_if_fail (GRAMMAR_IS_DATABASE (self));
  g_return_if_fail (sql != NULL);

  if (parameters != NULL)
    owned = g_variant_ref_sink (parameters);
  GRAMMAR_DATABASE_GET_IFACE (self)->query_async (self, sql, parameters, cancellable, callback, user_data);
}

/**
 * grammar_database_query_finish:
 * @self: a #GrammarDatabase
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the rows, or %NULL with @error set
 */
GrammarResult *
grammar_database_query_finish (GrammarDatabase  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return GRAMMAR_DATABASE_GET_IFACE (self)->query_finish (self, result, error);
}

/**
 * grammar_database_quote_identifier:
 * @self: a #GrammarDatabase
 * @identifier: a table or column name
 *
 * Quotes a name for the database's SQL dialect, so that names with
 * spaces, quotes or reserved words are safe to put into statement text.
 *
 * Returns: (transfer full): the quoted identifier
 */
char *
grammar_database_quote_identifier (GrammarDatabase *self,
                                   const char      *identifier)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (identifier != NULL, NULL);

  return GRAMMAR_DATABASE_GET_IFACE (self)->quote_identifier (self, identifier);
}

/**
 * grammar_database_identifier_needs_quotes:
 * @self: a #GrammarDatabase
 * @identifier: a table or column name, as the schema spells it
 *
 * Whether the database's dialect reads @identifier written bare as
 * another name, or not as a name at all: a name with a capital in
 * PostgreSQL, a reserved word, a space, a character outside ASCII. The
 * one place where the library asks which names to quote: plugins give
 * their dialect's rule (grammar_sql_dialect_needs_quotes()).
 *
 * Returns: %TRUE when @identifier must be quoted in SQL text
 */
gboolean
grammar_database_identifier_needs_quotes (GrammarDatabase *self,
                                          const char      *identifier)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), TRUE);
  g_return_val_if_fail (identifier != NULL, TRUE);

  return GRAMMAR_DATABASE_GET_IFACE (self)->identifier_needs_quotes (self, identifier);
}

/**
 * grammar_database_write_identifier:
 * @self: a #GrammarDatabase
 * @identifier: a table or column name, as the schema spells it
 *
 * @identifier as the statements the library writes spell it: bare
 * when the dialect reads it bare as itself, quoted
 * (grammar_database_quote_identifier()) when it needs quotes
 * (grammar_database_identifier_needs_quotes()). So `People_ID` is
 * written bare for SQLite and MariaDB, `"People_ID"` for PostgreSQL,
 * and `"order"` for all of them.
 *
 * Returns: (transfer full): the name as SQL text
 */
char *
grammar_database_write_identifier (GrammarDatabase *self,
                                   const char      *identifier)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (identifier != NULL, NULL);

  if (!grammar_database_identifier_needs_quotes (self, identifier))
    return g_strdup (identifier);
  return grammar_database_quote_identifier (self, identifier);
}

/**
 * grammar_database_sql_form:
 * @self: a #GrammarDatabase
 * @form: which expression
 * @expression: the SQL expression it applies to, e.g. a quoted column name
 * @declared_type: (nullable): the declared type of @expression's column, as
 *   grammar_database_get_schema() reports it
 *
 * Writes an expression the library puts into its own statements in the
 * database's dialect: SQLite's `x COLLATE BINARY` is `x COLLATE "C"` on
 * PostgreSQL, for instance, and only for text. Plugins for SQLite need
 * not implement it.
 *
 * Returns: (transfer full): the expression
 */
char *
grammar_database_sql_form (GrammarDatabase *self,
                           GrammarSqlForm   form,
                           const char      *expression,
                           const char      *declared_type)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (expression != NULL, NULL);

  return GRAMMAR_DATABASE_GET_IFACE (self)->sql_form (self, form, expression, declared_type);
}

/**
 * grammar_database_distinct_values:
 * @self: a #GrammarDatabase
 * @table: a table name
 * @column: a column of @table
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Lists the distinct values of a column (NULL included when present),
 * the fill-in values of a placeholder in GRAMMAR's Algorithm 1, in
 * SQLite's binary order: numbers by value, text by its UTF-8 bytes.
 *
 * Returns: (transfer full) (nullable): a one-column result, or %NULL with @error set
 */
GrammarResult *
grammar_database_distinct_values (GrammarDatabase  *self,
                                  const char       *table,
                                  const char       *column,
                                  GCancellable     *cancellable,
                                  GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), NULL);
  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (column != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return GRAMMAR_DATABASE_GET_IFACE (self)->distinct_values (self, table, column, cancellable, error);
}

/**
 * grammar_database_check_query:
 * @self: a #GrammarDatabase
 * @sql: one statement, with `?` placeholders for parameters
 * @n_parameters: (out) (optional): the number of parameters the statement takes
 * @error: return location for a #GError
 *
 * Compiles @sql without running it, and refuses it as
 * grammar_database_query_cursor() would: a statement that writes, more
 * than one statement, or SQL that does not compile. Plugins that cannot
 * do this fail with %GRAMMAR_ERROR_NOT_SUPPORTED; the statement is then
 * still checked when it runs.
 *
 * Returns: %TRUE when @sql is a single read-only query
 */
gboolean
grammar_database_check_query (GrammarDatabase  *self,
                              const char       *sql,
                              guint            *n_parameters,
                              GError          **error)
{
  guint n = 0;

  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self), FALSE);
  g_return_val_if_fail (sql != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!GRAMMAR_DATABASE_GET_IFACE (self)->check_query (self, sql, &n, error))
    return FALSE;
  if (n_parameters != NULL)
    *n_parameters = n;
  return TRUE;
}
