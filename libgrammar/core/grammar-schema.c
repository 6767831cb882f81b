/* grammar-schema.c: the schema of a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-schema.h"

/**
 * GrammarSchema:
 *
 * The schema of a database, `S = {S_1 … S_N}` in the GRAMMAR paper: its
 * tables with their columns and constraints. A #GrammarDatabase returns
 * one from grammar_database_get_schema().
 */
struct _GrammarSchema
{
  GObject parent_instance;

  GPtrArray *tables;  /* GrammarTable */
};

G_DEFINE_FINAL_TYPE (GrammarSchema, grammar_schema, G_TYPE_OBJECT)

static void
grammar_schema_finalize (GObject *object)
{
  GrammarSchema *self = GRAMMAR_SCHEMA (object);

  g_ptr_array_unref (self->tables);

  G_OBJECT_CLASS (grammar_schema_parent_class)->finalize (object);
}

static void
grammar_schema_class_init (GrammarSchemaClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_schema_finalize;
}

static void
grammar_schema_init (GrammarSchema *self)
{
  self->tables = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * grammar_schema_new:
 *
 * Returns: (transfer full): a new, empty #GrammarSchema
 */
GrammarSchema *
grammar_schema_new (void)
{
  return g_object_new (GRAMMAR_TYPE_SCHEMA, NULL);
}

/**
 * grammar_schema_add_table:
 * @self: a #GrammarSchema
 * @table: a table
 *
 * Appends a table.
 */
void
grammar_schema_add_table (GrammarSchema *self,
                          GrammarTable  *table)
{
  g_return_if_fail (GRAMMAR_IS_SCHEMA (self));
  g_return_if_fail (GRAMMAR_IS_TABLE (table));
  g_ptr_array_add (self->tables, g_object_ref (table));
}

/**
 * grammar_schema_get_tables:
 * @self: a #GrammarSchema
 *
 * Returns: (transfer none) (element-type GrammarTable): the tables, in the order the database lists them
 */
GPtrArray *
grammar_schema_get_tables (GrammarSchema *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (self), NULL);
  return self->tables;
}

/**
 * grammar_schema_get_table:
 * @self: a #GrammarSchema
 * @name: a table name, in any ASCII case
 *
 * The table of that name: the one spelt exactly so when there is one
 * (PostgreSQL and MariaDB may hold both `people` and `People`), else
 * the first whose name differs only in ASCII case.
 *
 * Returns: (transfer none) (nullable): the table, or %NULL when there is none of that name
 */
GrammarTable *
grammar_schema_get_table (GrammarSchema *self,
                          const char    *name)
{
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->tables->len; i++)
    if (strcmp (grammar_table_get_name (g_ptr_array_index (self->tables, i)), name) == 0)
      return g_ptr_array_index (self->tables, i);
  for (guint i = 0; i < self->tables->len; i++)
    {
      GrammarTable *table = g_ptr_array_index (self->tables, i);

      if (g_ascii_strcasecmp (grammar_table_get_name (table), name) == 0)
        return table;
    }
  return NULL;
}

static void
add_string_array (JsonBuilder        *builder,
                  const char         *member,
                  const char * const *strings)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; strings[i] != NULL; i++)
    json_builder_add_string_value (builder, strings[i]);
  json_builder_end_array (builder);
}

static void
add_column (JsonBuilder   *builder,
            GrammarColumn *column)
{
  const char *type = grammar_column_get_declared_type (column);
  const char *default_value = grammar_column_get_default_value (column);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, grammar_column_get_name (column));
  json_builder_set_member_name (builder, "type");
  if (type != NULL)
    json_builder_add_string_value (builder, type);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "nullable");
  json_builder_add_boolean_value (builder, grammar_column_get_nullable (column));
  json_builder_set_member_name (builder, "primary_key");
  json_builder_add_int_value (builder, grammar_column_get_primary_key_position (column));
  json_builder_set_member_name (builder, "default");
  if (default_value != NULL)
    json_builder_add_string_value (builder, default_value);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
}

static void
add_table (JsonBuilder  *builder,
           GrammarTable *table)
{
  GPtrArray *columns = grammar_table_get_columns (table);
  GPtrArray *foreign_keys = grammar_table_get_foreign_keys (table);
  g_auto (GStrv) primary_key = grammar_table_dup_primary_key (table);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, grammar_table_get_name (table));
  json_builder_set_member_name (builder, "view");
  json_builder_add_boolean_value (builder, grammar_table_get_is_view (table));

  json_builder_set_member_name (builder, "columns");
  json_builder_begin_array (builder);
  for (guint i = 0; i < columns->len; i++)
    add_column (builder, g_ptr_array_index (columns, i));
  json_builder_end_array (builder);

  add_string_array (builder, "primary_key", (const char * const *) primary_key);

  json_builder_set_member_name (builder, "unique");
  json_builder_begin_array (builder);
  for (guint i = 0; i < grammar_table_get_n_unique_constraints (table); i++)
    {
      const char * const *unique = grammar_table_get_unique_constraint (table, i);

      json_builder_begin_array (builder);
      for (guint j = 0; unique[j] != NULL; j++)
        json_builder_add_string_value (builder, unique[j]);
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "foreign_keys");
  json_builder_begin_array (builder);
  for (guint i = 0; i < foreign_keys->len; i++)
    {
      GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, i);

      json_builder_begin_object (builder);
      add_string_array (builder, "columns", grammar_foreign_key_get_columns (fk));
      json_builder_set_member_name (builder, "table");
      json_builder_add_string_value (builder, grammar_foreign_key_get_referenced_table (fk));
      add_string_array (builder, "references", grammar_foreign_key_get_referenced_columns (fk));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_end_object (builder);
}

/**
 * grammar_schema_to_json:
 * @self: a #GrammarSchema
 *
 * Describes the schema as JSON, in the format of `schemas/schema.schema.json`:
 * `{"tables": [{"name", "view", "columns": [{"name", "type", "nullable",
 * "primary_key", "default"}], "primary_key", "unique", "foreign_keys":
 * [{"columns", "table", "references"}]}]}`.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
grammar_schema_to_json (GrammarSchema *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tables");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->tables->len; i++)
    add_table (builder, g_ptr_array_index (self->tables, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
