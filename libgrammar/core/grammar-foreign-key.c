/* grammar-foreign-key.c: a foreign key of a table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-foreign-key.h"

/**
 * GrammarForeignKey:
 *
 * A foreign key: columns of one table whose values reference columns of
 * another table, `FK(T_i.A_k → T_j.A_h)` in the GRAMMAR paper. Composite
 * keys list their columns in order, pairwise with the referenced ones.
 */
struct _GrammarForeignKey
{
  GObject parent_instance;

  GStrv columns;
  char *referenced_table;
  GStrv referenced_columns;
};

G_DEFINE_FINAL_TYPE (GrammarForeignKey, grammar_foreign_key, G_TYPE_OBJECT)

static void
grammar_foreign_key_finalize (GObject *object)
{
  GrammarForeignKey *self = GRAMMAR_FOREIGN_KEY (object);

  g_strfreev (self->columns);
  g_free (self->referenced_table);
  g_strfreev (self->referenced_columns);

  G_OBJECT_CLASS (grammar_foreign_key_parent_class)->finalize (object);
}

static void
grammar_foreign_key_class_init (GrammarForeignKeyClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_foreign_key_finalize;
}

static void
grammar_foreign_key_init (GrammarForeignKey *self)
{
}

/**
 * grammar_foreign_key_new:
 * @columns: (array zero-terminated=1): the referencing columns, in order
 * @referenced_table: the referenced table
 * @referenced_columns: (array zero-terminated=1): the referenced columns, pairwise with @columns
 *
 * Returns: (transfer full): a new #GrammarForeignKey
 */
GrammarForeignKey *
grammar_foreign_key_new (const char * const *columns,
                         const char         *referenced_table,
                         const char * const *referenced_columns)
{
  GrammarForeignKey *self;

  g_return_val_if_fail (columns != NULL && columns[0] != NULL, NULL);
  g_return_val_if_fail (referenced_table != NULL, NULL);
  g_return_val_if_fail (referenced_columns != NULL, NULL);
  g_return_val_if_fail (g_strv_length ((GStrv) columns) == g_strv_length ((GStrv) referenced_columns), NULL);

  self = g_object_new (GRAMMAR_TYPE_FOREIGN_KEY, NULL);
  self->columns = g_strdupv ((GStrv) columns);
  self->referenced_table = g_strdup (referenced_table);
  self->referenced_columns = g_strdupv ((GStrv) referenced_columns);
  return self;
}

/**
 * grammar_foreign_key_get_columns:
 * @self: a #GrammarForeignKey
 *
 * Returns: (transfer none) (array zero-terminated=1): the referencing columns
 */
const char * const *
grammar_foreign_key_get_columns (GrammarForeignKey *self)
{
  g_return_val_if_fail (GRAMMAR_IS_FOREIGN_KEY (self), NULL);
  return (const char * const *) self->columns;
}

/**
 * grammar_foreign_key_get_referenced_table:
 * @self: a #GrammarForeignKey
 *
 * Returns: the name of the referenced table
 */
const char *
grammar_foreign_key_get_referenced_table (GrammarForeignKey *self)
{
  g_return_val_if_fail (GRAMMAR_IS_FOREIGN_KEY (self), NULL);
  return self->referenced_table;
}

/**
 * grammar_foreign_key_get_referenced_columns:
 * @self: a #GrammarForeignKey
 *
 * Returns: (transfer none) (array zero-terminated=1): the referenced columns, pairwise with the referencing ones
 */
const char * const *
grammar_foreign_key_get_referenced_columns (GrammarForeignKey *self)
{
  g_return_val_if_fail (GRAMMAR_IS_FOREIGN_KEY (self), NULL);
  return (const char * const *) self->referenced_columns;
}
