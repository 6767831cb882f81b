/* grammar-table.c: the schema of one table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-table.h"

/**
 * GrammarTable:
 *
 * The schema of one table (or view): its columns in declaration order,
 * its primary key (from the columns' key positions), its unique
 * constraints and its foreign keys. Column and table names compare
 * without regard to ASCII case, as SQL identifiers do.
 */
struct _GrammarTable
{
  GObject parent_instance;

  char *name;
  gboolean is_view;
  GPtrArray *columns;       /* GrammarColumn */
  GPtrArray *uniques;       /* GStrv */
  GPtrArray *foreign_keys;  /* GrammarForeignKey */
};

G_DEFINE_FINAL_TYPE (GrammarTable, grammar_table, G_TYPE_OBJECT)

static void
grammar_table_finalize (GObject *object)
{
  GrammarTable *self = GRAMMAR_TABLE (object);

  g_free (self->name);
  g_ptr_array_unref (self->columns);
  g_ptr_array_unref (self->uniques);
  g_ptr_array_unref (self->foreign_keys);

  G_OBJECT_CLASS (grammar_table_parent_class)->finalize (object);
}

static void
grammar_table_class_init (GrammarTableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_table_finalize;
}

static void
grammar_table_init (GrammarTable *self)
{
  self->columns = g_ptr_array_new_with_free_func (g_object_unref);
  self->uniques = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  self->foreign_keys = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * grammar_table_new:
 * @name: the table name
 * @is_view: whether this is a view rather than a stored table
 *
 * Makes an empty table description. Database plugins fill it with
 * grammar_table_add_column() and its siblings.
 *
 * Returns: (transfer full): a new #GrammarTable
 */
GrammarTable *
grammar_table_new (const char *name,
                   gboolean    is_view)
{
  GrammarTable *self;

  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_TABLE, NULL);
  self->name = g_strdup (name);
  self->is_view = is_view;
  return self;
}

/**
 * grammar_table_get_name:
 * @self: a #GrammarTable
 *
 * Returns: the table name
 */
const char *
grammar_table_get_name (GrammarTable *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), NULL);
  return self->name;
}

/**
 * grammar_table_get_is_view:
 * @self: a #GrammarTable
 *
 * Returns: %TRUE for a view
 */
gboolean
grammar_table_get_is_view (GrammarTable *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), FALSE);
  return self->is_view;
}

/**
 * grammar_table_add_column:
 * @self: a #GrammarTable
 * @column: the next column in declaration order
 *
 * Appends a column.
 */
void
grammar_table_add_column (GrammarTable  *self,
                          GrammarColumn *column)
{
  g_return_if_fail (GRAMMAR_IS_TABLE (self));
  g_return_if_fail (GRAMMAR_IS_COLUMN (column));
  g_ptr_array_add (self->columns, g_object_ref (column));
}

/**
 * grammar_table_add_unique_constraint:
 * @self: a #GrammarTable
 * @columns: (array zero-terminated=1): the columns whose values together are unique
 *
 * Records a UNIQUE constraint or unique index (other than the primary key).
 */
void
grammar_table_add_unique_constraint (GrammarTable       *self,
                                     const char * const *columns)
{
  g_return_if_fail (GRAMMAR_IS_TABLE (self));
  g_return_if_fail (columns != NULL && columns[0] != NULL);
  g_ptr_array_add (self->uniques, g_strdupv ((GStrv) columns));
}

/* Where a column is in the table, or past the end for one it lacks. */
static guint
column_position (GrammarTable *self,
                 const char   *name)
{
  for (guint i = 0; i < self->columns->len; i++)
    if (g_ascii_strcasecmp (grammar_column_get_name (g_ptr_array_index (self->columns, i)), name) == 0)
      return i;
  return self->columns->len;
}

static int
compare_name_lists (const char * const *a,
                    const char * const *b)
{
  guint i;

  for (i = 0; a[i] != NULL && b[i] != NULL; i++)
    {
      int order = strcmp (a[i], b[i]);

      if (order != 0)
        return order;
    }
  return (a[i] != NULL) - (b[i] != NULL);
}

/* The canonical order of foreign keys: column positions, then what
 * they reference. */
static int
compare_foreign_keys (GrammarTable      *self,
                      GrammarForeignKey *a,
                      GrammarForeignKey *b)
{
  const char * const *columns_a = grammar_foreign_key_get_columns (a);
  const char * const *columns_b = grammar_foreign_key_get_columns (b);
  int order;
  guint i;

  for (i = 0; columns_a[i] != NULL && columns_b[i] != NULL; i++)
    {
      guint position_a = column_position (self, columns_a[i]);
      guint position_b = column_position (self, columns_b[i]);

      if (position_a != position_b)
        return position_a < position_b ? -1 : 1;
      order = strcmp (columns_a[i], columns_b[i]);
      if (order != 0)
        return order;
    }
  if ((columns_a[i] != NULL) != (columns_b[i] != NULL))
    return columns_a[i] != NULL ? 1 : -1;
  order = strcmp (grammar_foreign_key_get_referenced_table (a), grammar_foreign_key_get_referenced_table (b));
  if (order != 0)
    return order;
  return compare_name_lists (grammar_foreign_key_get_referenced_columns (a),
                             grammar_foreign_key_get_referenced_columns (b));
}

/**
 * grammar_table_add_foreign_key:
 * @self: a #GrammarTable
 * @foreign_key: a foreign key of this table
 *
 * Records a foreign key. The table keeps its foreign keys in one order
 * whatever order the database's catalog lists them in (SQLite numbers
 * them from the last declared, MariaDB sorts them by constraint name,
 * PostgreSQL by creation): by the positions of their columns in the
 * table, then by the referenced table and columns. So the same schema
 * gives the same joins, and the same templates, on every backend. Add
 * the columns first.
 */
void
grammar_table_add_foreign_key (GrammarTable      *self,
                               GrammarForeignKey *foreign_key)
{
  guint at;

  g_return_if_fail (GRAMMAR_IS_TABLE (self));
  g_return_if_fail (GRAMMAR_IS_FOREIGN_KEY (foreign_key));

  for (at = self->foreign_keys->len; at > 0; at--)
    if (compare_foreign_keys (self, g_ptr_array_index (self->foreign_keys, at - 1), foreign_key) <= 0)
      break;
  g_ptr_array_insert (self->foreign_keys, at, g_object_ref (foreign_key));
}

/**
 * grammar_table_get_columns:
 * @self: a #GrammarTable
 *
 * Returns: (transfer none) (element-type GrammarColumn): the columns in declaration order
 */
GPtrArray *
grammar_table_get_columns (GrammarTable *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), NULL);
  return self->columns;
}

/**
 * grammar_table_get_column:
 * @self: a #GrammarTable
 * @name: a column name, in any ASCII case
 *
 * The column spelt exactly so when there is one, else the first whose
 * name differs only in ASCII case.
 *
 * Returns: (transfer none) (nullable): the column, or %NULL if the table has none of that name
 */
GrammarColumn *
grammar_table_get_column (GrammarTable *self,
                          const char   *name)
{
  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->columns->len; i++)
    if (strcmp (grammar_column_get_name (g_ptr_array_index (self->columns, i)), name) == 0)
      return g_ptr_array_index (self->columns, i);
  for (guint i = 0; i < self->columns->len; i++)
    {
      GrammarColumn *column = g_ptr_array_index (self->columns, i);

      if (g_ascii_strcasecmp (grammar_column_get_name (column), name) == 0)
        return column;
    }
  return NULL;
}

/**
 * grammar_table_dup_primary_key:
 * @self: a #GrammarTable
 *
 * Returns: (transfer full) (array zero-terminated=1): the primary key columns in key order; empty when the table declares none
 */
GStrv
grammar_table_dup_primary_key (GrammarTable *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  guint position = 1;
  gboolean found;

  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), NULL);

  do
    {
      found = FALSE;
      for (guint i = 0; i < self->columns->len && !found; i++)
        {
          GrammarColumn *column = g_ptr_array_index (self->columns, i);

          if (grammar_column_get_primary_key_position (column) == position)
            {
              g_strv_builder_add (builder, grammar_column_get_name (column));
              found = TRUE;
            }
        }
      position++;
    }
  while (found);

  return g_strv_builder_end (builder);
}

/**
 * grammar_table_get_n_unique_constraints:
 * @self: a #GrammarTable
 *
 * Returns: the number of unique constraints besides the primary key
 */
guint
grammar_table_get_n_unique_constraints (GrammarTable *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), 0);
  return self->uniques->len;
}

/**
 * grammar_table_get_unique_constraint:
 * @self: a #GrammarTable
 * @index: which constraint, below grammar_table_get_n_unique_constraints()
 *
 * Returns: (transfer none) (array zero-terminated=1): the columns of the constraint
 */
const char * const *
grammar_table_get_unique_constraint (GrammarTable *self,
                                     guint         index)
{
  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), NULL);
  g_return_val_if_fail (index < self->uniques->len, NULL);
  return g_ptr_array_index (self->uniques, index);
}

/**
 * grammar_table_get_foreign_keys:
 * @self: a #GrammarTable
 *
 * Returns: (transfer none) (element-type GrammarForeignKey): the foreign keys
 */
GPtrArray *
grammar_table_get_foreign_keys (GrammarTable *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), NULL);
  return self->foreign_keys;
}

static gboolean
same_column_set (const char * const *a,
                 const char * const *b)
{
  guint n = 0;

  for (; a[n] != NULL; n++)
    {
      gboolean found = FALSE;

      for (guint j = 0; b[j] != NULL && !found; j++)
        found = g_ascii_strcasecmp (a[n], b[j]) == 0;
      if (!found)
        return FALSE;
    }
  return n == g_strv_length ((GStrv) b);
}

/**
 * grammar_table_is_unique_key:
 * @self: a #GrammarTable
 * @columns: (array zero-terminated=1): a set of column names
 *
 * Tells whether the schema declares @columns (in any order) as the
 * primary key or as a unique constraint, so that their values identify
 * at most one row. Uniqueness that holds in the data without being
 * declared is not seen here.
 *
 * Returns: %TRUE when the columns are a declared key
 */
gboolean
grammar_table_is_unique_key (GrammarTable       *self,
                             const char * const *columns)
{
  g_auto (GStrv) primary_key = NULL;

  g_return_val_if_fail (GRAMMAR_IS_TABLE (self), FALSE);
  g_return_val_if_fail (columns != NULL, FALSE);

  if (columns[0] == NULL)
    return FALSE;

  primary_key = grammar_table_dup_primary_key (self);
  if (primary_key[0] != NULL && same_column_set (columns, (const char * const *) primary_key))
    return TRUE;

  for (guint i = 0; i < self->uniques->len; i++)
    if (same_column_set (columns, g_ptr_array_index (self->uniques, i)))
      return TRUE;

  return FALSE;
}
