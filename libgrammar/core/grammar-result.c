/* grammar-result.c: the rows of a query, in memory
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-json.h"
#include "grammar-result.h"
#include "grammar-value.h"

/**
 * GrammarResult:
 *
 * All rows of a query, read from a #GrammarCursor. Values are typed as
 * the cursor's are: #GVariant `x`, `d`, `s` or `ay`, and %NULL for SQL
 * NULL. For results too large for memory, read the cursor directly.
 */
struct _GrammarResult
{
  GObject parent_instance;

  GStrv columns;
  guint n_columns;
  GPtrArray *values;  /* n_rows × n_columns GVariant, NULL for SQL NULL */
};

G_DEFINE_FINAL_TYPE (GrammarResult, grammar_result, G_TYPE_OBJECT)

static void
value_free (gpointer value)
{
  if (value != NULL)
    g_variant_unref (value);
}

static void
grammar_result_finalize (GObject *object)
{
  GrammarResult *self = GRAMMAR_RESULT (object);

  g_strfreev (self->columns);
  g_ptr_array_unref (self->values);

  G_OBJECT_CLASS (grammar_result_parent_class)->finalize (object);
}

static void
grammar_result_class_init (GrammarResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_result_finalize;
}

static void
grammar_result_init (GrammarResult *self)
{
  self->values = g_ptr_array_new_with_free_func (value_free);
}

/**
 * grammar_result_new_from_cursor:
 * @cursor: a cursor before its first row
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads every remaining row of @cursor.
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 */
GrammarResult *
grammar_result_new_from_cursor (GrammarCursor  *cursor,
                                GCancellable   *cancellable,
                                GError        **error)
{
  g_autoptr (GrammarResult) self = NULL;
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr (GError) local_error = NULL;

  g_return_val_if_fail (GRAMMAR_IS_CURSOR (cursor), NULL);

  self = g_object_new (GRAMMAR_TYPE_RESULT, NULL);
  self->n_columns = grammar_cursor_get_n_columns (cursor);
  for (guint i = 0; i < self->n_columns; i++)
    g_strv_builder_add (names, grammar_cursor_get_column_name (cursor, i));
  self->columns = g_strv_builder_end (names);

  while (grammar_cursor_next (cursor, cancellable, &local_error))
    for (guint i = 0; i < self->n_columns; i++)
      g_ptr_array_add (self->values, grammar_cursor_get_value (cursor, i));

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * grammar_result_get_n_rows:
 * @self: a #GrammarResult
 *
 * Returns: the number of rows
 */
guint
grammar_result_get_n_rows (GrammarResult *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RESULT (self), 0);
  return self->n_columns == 0 ? 0 : self->values->len / self->n_columns;
}

/**
 * grammar_result_get_n_columns:
 * @self: a #GrammarResult
 *
 * Returns: the number of columns
 */
guint
grammar_result_get_n_columns (GrammarResult *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RESULT (self), 0);
  return self->n_columns;
}

/**
 * grammar_result_get_column_name:
 * @self: a #GrammarResult
 * @column: a column index
 *
 * Returns: the name of the column
 */
const char *
grammar_result_get_column_name (GrammarResult *self,
                                guint          column)
{
  g_return_val_if_fail (GRAMMAR_IS_RESULT (self), NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);
  return self->columns[column];
}

/**
 * grammar_result_get_value:
 * @self: a #GrammarResult
 * @row: a row index
 * @column: a column index
 *
 * Returns: (transfer none) (nullable): the value, or %NULL for SQL NULL
 */
GVariant *
grammar_result_get_value (GrammarResult *self,
                          guint          row,
                          guint          column)
{
  g_return_val_if_fail (GRAMMAR_IS_RESULT (self), NULL);
  g_return_val_if_fail (row < grammar_result_get_n_rows (self), NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);
  return g_ptr_array_index (self->values, (gsize) row * self->n_columns + column);
}

/**
 * grammar_result_to_json:
 * @self: a #GrammarResult
 *
 * Describes the rows as JSON: an array of rows, each an array of values
 * converted by grammar_value_to_json(). This is the `answer` format of
 * `dataset.jsonl`.
 *
 * Returns: (transfer full): a JSON array node
 */
JsonNode *
grammar_result_to_json (GrammarResult *self)
{
  g_autoptr (JsonArray) rows = json_array_new ();
  JsonNode *node;
  guint n_rows;

  g_return_val_if_fail (GRAMMAR_IS_RESULT (self), NULL);

  n_rows = grammar_result_get_n_rows (self);
  for (guint r = 0; r < n_rows; r++)
    {
      JsonArray *row = json_array_sized_new (self->n_columns);

      for (guint c = 0; c < self->n_columns; c++)
        json_array_add_element (row, grammar_value_to_json (grammar_result_get_value (self, r, c)));
      json_array_add_array_element (rows, row);
    }

  node = json_node_new (JSON_NODE_ARRAY);
  json_node_set_array (node, rows);
  return node;
}
