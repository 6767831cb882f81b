/* grammar-cursor.c: rows of a query, one at a time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-cursor.h"

/**
 * GrammarCursor:
 *
 * A forward-only cursor over the rows of a query, so that large results
 * stream instead of sitting in memory. Values are #GVariant of type
 * `x` (integer), `d` (real), `s` (text, valid UTF-8) or `ay` (blob);
 * SQL NULL is %NULL.
 *
 * ```c
 * g_autoptr(GrammarCursor) cursor = grammar_database_query_cursor (db, sql, NULL, NULL, &error);
 * while (cursor != NULL && grammar_cursor_next (cursor, NULL, &error))
 *   {
 *     g_autoptr(GVariant) value = grammar_cursor_get_value (cursor, 0);
 *     ...
 *   }
 * if (error != NULL)
 *   ...
 * ```
 */

G_DEFINE_ABSTRACT_TYPE (GrammarCursor, grammar_cursor, G_TYPE_OBJECT)

static void
grammar_cursor_class_init (GrammarCursorClass *klass)
{
}

static void
grammar_cursor_init (GrammarCursor *self)
{
}

/**
 * grammar_cursor_next:
 * @self: a #GrammarCursor
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Moves to the next row. Call it once before reading the first row.
 *
 * Returns: %TRUE when there is a row to read; %FALSE at the end of the
 *   result, or with @error set when reading failed
 */
gboolean
grammar_cursor_next (GrammarCursor  *self,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_return_val_if_fail (GRAMMAR_IS_CURSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return GRAMMAR_CURSOR_GET_CLASS (self)->next (self, cancellable, error);
}

/**
 * grammar_cursor_get_n_columns:
 * @self: a #GrammarCursor
 *
 * Returns: the number of columns of the result
 */
guint
grammar_cursor_get_n_columns (GrammarCursor *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CURSOR (self), 0);
  return GRAMMAR_CURSOR_GET_CLASS (self)->get_n_columns (self);
}

/**
 * grammar_cursor_get_column_name:
 * @self: a #GrammarCursor
 * @column: a column index
 *
 * Returns: the name of the result column
 */
const char *
grammar_cursor_get_column_name (GrammarCursor *self,
                                guint          column)
{
  g_return_val_if_fail (GRAMMAR_IS_CURSOR (self), NULL);
  g_return_val_if_fail (column < grammar_cursor_get_n_columns (self), NULL);
  return GRAMMAR_CURSOR_GET_CLASS (self)->get_column_name (self, column);
}

/**
 * grammar_cursor_get_value:
 * @self: a #GrammarCursor
 * @column: a column index
 *
 * Reads a value of the current row.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL for SQL NULL
 */
GVariant *
grammar_cursor_get_value (GrammarCursor *self,
                          guint          column)
{
  g_return_val_if_fail (GRAMMAR_IS_CURSOR (self), NULL);
  g_return_val_if_fail (column < grammar_cursor_get_n_columns (self), NULL);
  return GRAMMAR_CURSOR_GET_CLASS (self)->get_value (self, column);
}
