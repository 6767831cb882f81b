/* grammar-column.c: one column of a table schema
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-column.h"

/**
 * GrammarColumn:
 *
 * A column of a table as the database declares it: its name, declared
 * type, whether it may hold NULL, its place in the primary key and its
 * default value. Columns are immutable once made.
 */
struct _GrammarColumn
{
  GObject parent_instance;

  char *name;
  char *declared_type;
  char *default_value;
  guint primary_key_position;
  gboolean nullable;
};

G_DEFINE_FINAL_TYPE (GrammarColumn, grammar_column, G_TYPE_OBJECT)

static void
grammar_column_finalize (GObject *object)
{
  GrammarColumn *self = GRAMMAR_COLUMN (object);

  g_free (self->name);
  g_free (self->declared_type);
  g_free (self->default_value);

  G_OBJECT_CLASS (grammar_column_parent_class)->finalize (object);
}

static void
grammar_column_class_init (GrammarColumnClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_column_finalize;
}

static void
grammar_column_init (GrammarColumn *self)
{
}

/**
 * grammar_column_new:
 * @name: the column name
 * @declared_type: (nullable): the type as declared (`TEXT`, `int`, `REAL`...), or %NULL when none is declared
 * @nullable: whether the column may hold NULL
 * @primary_key_position: 1-based position in the primary key, or 0 when the column is not part of it
 * @default_value: (nullable): the SQL text of the default value
 *
 * Makes the description of a column. Database plugins call this while
 * they introspect a schema.
 *
 * Returns: (transfer full): a new #GrammarColumn
 */
GrammarColumn *
grammar_column_new (const char *name,
                    const char *declared_type,
                    gboolean    nullable,
                    guint       primary_key_position,
                    const char *default_value)
{
  GrammarColumn *self;

  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_COLUMN, NULL);
  self->name = g_strdup (name);
  self->declared_type = g_strdup (declared_type);
  self->nullable = nullable;
  self->primary_key_position = primary_key_position;
  self->default_value = g_strdup (default_value);
  return self;
}

/**
 * grammar_column_get_name:
 * @self: a #GrammarColumn
 *
 * Returns: the column name
 */
const char *
grammar_column_get_name (GrammarColumn *self)
{
  g_return_val_if_fail (GRAMMAR_IS_COLUMN (self), NULL);
  return self->name;
}

/**
 * grammar_column_get_declared_type:
 * @self: a #GrammarColumn
 *
 * Returns: (nullable): the declared type, or %NULL when the column has none
 */
const char *
grammar_column_get_declared_type (GrammarColumn *self)
{
  g_return_val_if_fail (GRAMMAR_IS_COLUMN (self), NULL);
  return self->declared_type;
}

/**
 * grammar_column_get_nullable:
 * @self: a #GrammarColumn
 *
 * Returns: %TRUE if the column may hold NULL
 */
gboolean
grammar_column_get_nullable (GrammarColumn *self)
{
  g_return_val_if_fail (GRAMMAR_IS_COLUMN (self), FALSE);
  return self->nullable;
}

/**
 * grammar_column_get_primary_key_position:
 * @self: a #GrammarColumn
 *
 * Returns: the 1-based position of the column in the primary key, 0 when it is not part of it
 */
guint
grammar_column_get_primary_key_position (GrammarColumn *self)
{
  g_return_val_if_fail (GRAMMAR_IS_COLUMN (self), 0);
  return self->primary_key_position;
}

/**
 * grammar_column_get_default_value:
 * @self: a #GrammarColumn
 *
 * Returns: (nullable): the SQL text of the default value, or %NULL
 */
const char *
grammar_column_get_default_value (GrammarColumn *self)
{
  g_return_val_if_fail (GRAMMAR_IS_COLUMN (self), NULL);
  return self->default_value;
}
