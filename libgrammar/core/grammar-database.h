/* grammar-database.h: the relational database the data comes from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-cursor.h"
#include "grammar-result.h"
#include "grammar-schema.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_DATABASE_ERROR:
 *
 * Error domain for database errors, from the #GrammarDatabaseError
 * enumeration.
 */
#define GRAMMAR_DATABASE_ERROR (grammar_database_error_quark ())

/**
 * GrammarDatabaseError:
 * @GRAMMAR_DATABASE_ERROR_OPEN: the database cannot be opened
 * @GRAMMAR_DATABASE_ERROR_SYNTAX: the SQL text does not compile
 * @GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY: the statement would write, or is not a query
 * @GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS: more than one statement was given
 * @GRAMMAR_DATABASE_ERROR_BIND: a parameter cannot be bound (count or type)
 * @GRAMMAR_DATABASE_ERROR_NO_SUCH_TABLE: the table does not exist
 * @GRAMMAR_DATABASE_ERROR_NO_SUCH_COLUMN: the column does not exist in the table
 * @GRAMMAR_DATABASE_ERROR_QUERY: running the statement failed (busy, I/O, interrupted)
 * @GRAMMAR_DATABASE_ERROR_LIMIT: the statement or its answer exceeded a limit:
 *   the database's `query-timeout` or largest value, or
 *   #GrammarQaGenerator:max-answer-rows or #GrammarQaGenerator:max-answer-bytes;
 *   the message names the limit and its value
 *
 * Error codes for %GRAMMAR_DATABASE_ERROR. All but
 * %GRAMMAR_DATABASE_ERROR_QUERY are input errors the user can fix.
 */
typedef enum {
  GRAMMAR_DATABASE_ERROR_OPEN,
  GRAMMAR_DATABASE_ERROR_SYNTAX,
  GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
  GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS,
  GRAMMAR_DATABASE_ERROR_BIND,
  GRAMMAR_DATABASE_ERROR_NO_SUCH_TABLE,
  GRAMMAR_DATABASE_ERROR_NO_SUCH_COLUMN,
  GRAMMAR_DATABASE_ERROR_QUERY,
  GRAMMAR_DATABASE_ERROR_LIMIT,
} GrammarDatabaseError;

GRAMMAR_AVAILABLE_IN_ALL
GQuark grammar_database_error_quark (void);


/**
 * GRAMMAR_DATABASE_EXTENSION_POINT_NAME:
 *
 * The GIO extension point that database plugins implement.
 */
#define GRAMMAR_DATABASE_EXTENSION_POINT_NAME "grammar-database"

/**
 * GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT:
 *
 * The default `query-timeout` of the database plugins, in seconds: five
 * minutes, far longer than any template of a dataset needs (the largest
 * set-based query of the benchmarks reads 10^6 rows in seconds), and
 * short enough that a runaway statement, such as an unbounded recursive
 * `WITH`, fails while the user is still waiting.
 */
#define GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT 300

/**
 * GrammarSqlForm:
 * @GRAMMAR_SQL_FORM_BINARY: the value of an expression, compared, made
 *   distinct and sorted as SQLite's `BINARY` collation does: text by its
 *   UTF-8 bytes, with no case folding and no padding; numbers and dates
 *   by value
 * @GRAMMAR_SQL_FORM_TEXT_LENGTH: the number of characters of an
 *   expression's value written as text (SQLite's `LENGTH()`), for a
 *   column of any type
 *
 * Expressions the library writes into its own statements, which each
 * SQL dialect spells its way (grammar_database_sql_form()).
 */
typedef enum
{
  GRAMMAR_SQL_FORM_BINARY,
  GRAMMAR_SQL_FORM_TEXT_LENGTH,
} GrammarSqlForm;

#define GRAMMAR_TYPE_DATABASE (grammar_database_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarDatabase, grammar_database, GRAMMAR, DATABASE, GObject)

/**
 * GrammarDatabaseInterface:
 * @g_iface: the parent interface
 * @get_schema: introspects the schema (required)
 * @query_cursor: prepares and starts a single read-only statement with bound parameters (required)
 * @quote_identifier: quotes a table or column name for the SQL dialect (default: ANSI double quotes)
 * @distinct_values: the distinct values of one column (default: `SELECT DISTINCT` through @query_cursor)
 * @get_schema_async: starts @get_schema (default: @get_schema in a worker thread)
 * @get_schema_finish: finishes @get_schema_async
 * @query_async: starts a query whose rows are read into a #GrammarResult (default: @query_cursor in a worker thread)
 * @query_finish: finishes @query_async
 * @check_query: compiles a statement without running it, with the same refusals as @query_cursor, and counts its parameters (default: fails with %GRAMMAR_ERROR_NOT_SUPPORTED)
 * @sql_form: writes one of the library's expressions in the dialect (default: SQLite's)
 * @identifier_needs_quotes: whether a table or column name must be quoted
 *   to be read as itself, in the dialect (default: SQLite's rule, see
 *   grammar_sql_dialect_needs_quotes())
 *
 * The virtual functions of a database plugin. Implementations refuse
 * anything but a single read-only statement, and never build SQL by
 * pasting values into text.
 */
struct _GrammarDatabaseInterface
{
  GTypeInterface g_iface;

  GrammarSchema * (*get_schema)        (GrammarDatabase      *self,
                                        GCancellable         *cancellable,
                                        GError              **error);
  GrammarCursor * (*query_cursor)      (GrammarDatabase      *self,
                                        const char           *sql,
                                        GVariant             *parameters,
                                        GCancellable         *cancellable,
                                        GError              **error);
  char *          (*quote_identifier)  (GrammarDatabase      *self,
                                        const char           *identifier);
  GrammarResult * (*distinct_values)   (GrammarDatabase      *self,
                                        const char           *table,
                                        const char           *column,
                                        GCancellable         *cancellable,
                                        GError              **error);

  void            (*get_schema_async)  (GrammarDatabase      *self,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
  GrammarSchema * (*get_schema_finish) (GrammarDatabase      *self,
                                        GAsyncResult         *result,
                                        GError              **error);
  void            (*query_async)       (GrammarDatabase      *self,
                                        const char           *sql,
                                        GVariant             *parameters,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
  GrammarResult * (*query_finish)      (GrammarDatabase      *self,
                                        GAsyncResult         *result,
                                        GError              **error);
  gboolean        (*check_query)       (GrammarDatabase      *self,
                                        const char           *sql,
                                        guint                *n_parameters,
                                        GError              **error);
  char *          (*sql_form)          (GrammarDatabase      *self,
                                        GrammarSqlForm        form,
                                        const char           *expression,
                                        const char           *declared_type);
  gboolean        (*identifier_needs_quotes) (GrammarDatabase *self,
                                              const char      *identifier);

  /*< private >*/
  gpointer padding[5];
};

GRAMMAR_AVAILABLE_IN_ALL
GrammarSchema *grammar_database_get_schema        (GrammarDatabase      *self,
                                                   GCancellable         *cancellable,
                                                   GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void           grammar_database_get_schema_async  (GrammarDatabase      *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSchema *grammar_database_get_schema_finish (GrammarDatabase      *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarCursor *grammar_database_query_cursor      (GrammarDatabase      *self,
                                                   const char           *sql,
                                                   GVariant             *parameters,
                                                   GCancellable         *cancellable,
                                                   GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarResult *grammar_database_query             (GrammarDatabase      *self,
                                                   const char           *sql,
                                                   GVariant             *parameters,
                                                   GCancellable         *cancellable,
                                                   GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void           grammar_database_query_async       (GrammarDatabase      *self,
                                                   const char           *sql,
                                                   GVariant             *parameters,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GrammarResult *grammar_database_query_finish      (GrammarDatabase      *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
char          *grammar_database_quote_identifier  (GrammarDatabase      *self,
                                                   const char           *identifier);
GRAMMAR_AVAILABLE_IN_ALL
gboolean       grammar_database_identifier_needs_quotes (GrammarDatabase *self,
                                                         const char      *identifier);
GRAMMAR_AVAILABLE_IN_ALL
char          *grammar_database_write_identifier  (GrammarDatabase      *self,
                                                   const char           *identifier);
GRAMMAR_AVAILABLE_IN_ALL
gboolean       grammar_database_check_query       (GrammarDatabase      *self,
                                                   const char           *sql,
                                                   guint                *n_parameters,
                                                   GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
char          *grammar_database_sql_form          (GrammarDatabase      *self,
                                                   GrammarSqlForm        form,
                                                   const char           *expression,
                                                   const char           *declared_type);
GRAMMAR_AVAILABLE_IN_ALL
GrammarResult *grammar_database_distinct_values   (GrammarDatabase      *self,
                                                   const char           *table,
                                                   const char           *column,
                                                   GCancellable         *cancellable,
                                                   GError              **error);

G_END_DECLS
