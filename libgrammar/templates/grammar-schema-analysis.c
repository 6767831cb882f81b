/* grammar-schema-analysis.c: what each column of a table can be used for: the analysis behind the schema-driven generator
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include "grammar-schema-generator-private.h"
#include "grammar-error.h"
#include "grammar-value.h"
#include "grammar-schema-generator.h"
#include "grammar-sql-generator-private.h"

/* What each column can be used for ------------------------------------------ */

static void
column_info_clear (GrammarSchemaGenColumnInfo *info)
{
  g_free (info->predicate_why);
  g_free (info->projection_why);
  g_free (info->follow_table);
  g_free (info->follow_column);
  g_free (info->follow_key);
}

void
grammar_schema_gen_table_info_free (GrammarSchemaGenTableInfo *info)
{
  g_array_unref (info->columns);
  g_free (info);
}

GrammarSchemaGenColumnInfo *
grammar_schema_gen_column_at (GrammarSchemaGenTableInfo *info,
                              guint                      index)
{
  return &g_array_index (info->columns, GrammarSchemaGenColumnInfo, index);
}

void
grammar_schema_gen_multiplicity_free (GrammarSchemaGenMultiplicity *multiplicity)
{
  g_free (multiplicity->example);
  g_free (multiplicity);
}

void
grammar_schema_gen_run_clear (GrammarSchemaGenRun *run)
{
  g_clear_pointer (&run->tables, g_hash_table_unref);
  g_clear_pointer (&run->referenced, g_hash_table_unref);
  g_clear_pointer (&run->checks, g_hash_table_unref);
  g_clear_pointer (&run->ids, g_hash_table_unref);
  g_clear_pointer (&run->kept, g_ptr_array_unref);
  g_clear_pointer (&run->dropped, g_ptr_array_unref);
}

void G_GNUC_PRINTF (2, 3)
grammar_schema_gen_drop (GrammarSchemaGenRun        *run,
      const char *format,
      ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (run->dropped, g_strdup_vprintf (format, args));
  va_end (args);
}

/* A name as it is written in SQL text: as is when the database's
 * dialect reads it so, quoted otherwise (grammar_database_write_identifier()). */
char *
grammar_schema_gen_sql_name (GrammarSchemaGenRun *run,
                             const char          *name)
{
  return grammar_database_write_identifier (run->self->database, name);
}

char *
grammar_schema_gen_sql_column (GrammarSchemaGenRun *run,
                               const char          *alias,
                               const char          *column)
{
  g_autofree char *quoted = grammar_schema_gen_sql_name (run, column);

  return alias != NULL ? g_strconcat (alias, ".", quoted, NULL) : g_steal_pointer (&quoted);
}

static char *
placeholder_name (const char *name)
{
  g_autoptr (GString) quoted = NULL;

  if (g_utf8_validate (name, -1, NULL) && strpbrk (name, " .[]'\"`;\t\n") == NULL)
    return g_strdup (name);
  quoted = g_string_new ("\"");
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (quoted, '"');
      g_string_append_c (quoted, *p);
    }
  g_string_append_c (quoted, '"');
  return g_string_free (g_steal_pointer (&quoted), FALSE);
}

/* `'[company.Name]'` for text, `[people.Age]` for numbers. */
char *
grammar_schema_gen_placeholder (const char                 *table,
                                GrammarSchemaGenColumnInfo *column)
{
  g_autofree char *t = placeholder_name (table);
  g_autofree char *c = placeholder_name (column->name);

  /* A quote in a name would end the quoted form early: write it bare. */
  gboolean quoted = column->is_text && strchr (table, '\'') == NULL && strchr (column->name, '\'') == NULL;

  return g_strdup_printf (quoted ? "'[%s.%s]'" : "[%s.%s]", t, c);
}

/* Surrogate ids ---------------------------------------------------------- */

/* Why @column is a semantically void record id, or NULL when it is not. */
static const char *
surrogate_reason (GrammarSchemaGenRun        *run,
                  GrammarSchemaGenTableInfo  *table,
                  GrammarSchemaGenColumnInfo *column)
{
  gboolean numeric = column->affinity == AFFINITY_INTEGER || column->affinity == AFFINITY_REAL ||
                     column->affinity == AFFINITY_NUMERIC;
  g_autofree char *key = g_ascii_strdown (table->name, -1);
  g_autofree char *lower = g_ascii_strdown (column->name, -1);
  g_autofree char *reference = g_strconcat (key, "\n", lower, NULL);

  if (grammar_schema_gen_is_named_like_id (column->name))
    return "a surrogate id (named like a record id)";
  if (column->in_primary_key && column->affinity == AFFINITY_INTEGER)
    return "a surrogate id (an integer primary key)";
  if (numeric && (column->in_primary_key || column->foreign_key != NULL || column->in_composite_key ||
                  g_hash_table_contains (run->referenced, reference)))
    return "a surrogate id (a numeric key column)";
  return NULL;
}

/* Table analysis --------------------------------------------------------- */

gint64
grammar_schema_gen_result_int64 (GrammarResult *result,
              guint          column)
{
  GVariant *value = grammar_result_get_value (result, 0, column);

  if (value == NULL)
    return 0;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    return g_variant_get_int64 (value);
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    return (gint64) g_variant_get_double (value);
  if (grammar_value_get_decimal (value) != NULL)
    return (gint64) g_ascii_strtod (grammar_value_get_decimal (value), NULL);
  return 0;
}

static double
result_double (GrammarResult *result,
               guint          column)
{
  GVariant *value = grammar_result_get_value (result, 0, column);

  if (value == NULL)
    return 0.0;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    return g_variant_get_double (value);
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    return (double) g_variant_get_int64 (value);
  if (grammar_value_get_decimal (value) != NULL)
    return g_ascii_strtod (grammar_value_get_decimal (value), NULL);
  return 0.0;
}

/* One pass over the table: rows, and per column the values, the distinct
 * values and their mean length. */
static gboolean
count_values (GrammarSchemaGenRun        *run,
              GrammarSchemaGenTableInfo  *info,
              GError                    **error)
{
  g_autoptr (GString) sql = g_string_new ("SELECT COUNT(*)");
  g_autoptr (GrammarResult) result = NULL;
  g_autofree char *table = grammar_schema_gen_sql_name (run, info->name);

  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *info_column = grammar_schema_gen_column_at (info, i);
      const char *type = grammar_column_get_declared_type (info_column->column);
      g_autofree char *column = grammar_schema_gen_sql_name (run, info_column->name);
      /* Distinct as SQLite's BINARY collation tells values apart, and
       * lengths in characters, whatever the dialect. */
      g_autofree char *binary = grammar_database_sql_form (run->self->database, GRAMMAR_SQL_FORM_BINARY,
                                                           column, type);
      g_autofree char *length = grammar_database_sql_form (run->self->database, GRAMMAR_SQL_FORM_TEXT_LENGTH,
                                                           column, type);

      g_string_append_printf (sql, ", COUNT(%s), COUNT(DISTINCT %s), AVG(%s)", column, binary, length);
    }
  g_string_append_printf (sql, " FROM %s", table);

  result = grammar_database_query (run->self->database, sql->str, NULL, run->cancellable, error);
  if (result == NULL)
    {
      g_prefix_error (error, "cannot count the values of table “%s”: ", info->name);
      return FALSE;
    }
  info->n_rows = grammar_schema_gen_result_int64 (result, 0);
  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);

      column->n_values = grammar_schema_gen_result_int64 (result, 1 + 3 * i);
      column->n_distinct = grammar_schema_gen_result_int64 (result, 2 + 3 * i);
      column->mean_length = result_double (result, 3 + 3 * i);
    }
  return TRUE;
}

static void
read_keys (GrammarSchemaGenTableInfo *info)
{
  GPtrArray *foreign_keys = grammar_table_get_foreign_keys (info->table);

  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);
      const char *single[] = { column->name, NULL };

      column->in_primary_key = grammar_column_get_primary_key_position (column->column) > 0;
      column->declared_unique = grammar_table_is_unique_key (info->table, single);
    }

  for (guint k = 0; k < foreign_keys->len; k++)
    {
      GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, k);
      const char * const *columns = grammar_foreign_key_get_columns (fk);

      for (guint c = 0; columns[c] != NULL; c++)
        for (guint i = 0; i < info->columns->len; i++)
          {
            GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);

            if (g_ascii_strcasecmp (column->name, columns[c]) != 0)
              continue;
            if (columns[1] == NULL && column->foreign_key == NULL)
              column->foreign_key = fk;
            else if (columns[1] != NULL)
              column->in_composite_key = TRUE;
            if (column->key_target == NULL)
              column->key_target = grammar_foreign_key_get_referenced_table (fk);
          }
    }
}

/* “company.Name is unique in the data (19 distinct values in 19 rows)” */
static char *
describe_uniqueness (GrammarSchemaGenTableInfo  *table,
                     GrammarSchemaGenColumnInfo *column)
{
  g_autofree char *nulls = NULL;

  if (column->n_values < table->n_rows)
    nulls = g_strdup_printf (", %" G_GINT64_FORMAT " of them NULL", table->n_rows - column->n_values);

  if (column->predicate == PREDICATE_IDENTIFYING && column->declared_unique)
    return g_strdup_printf ("%s.%s is declared unique (%" G_GINT64_FORMAT " distinct values in %"
                            G_GINT64_FORMAT " rows%s)", table->name, column->name, column->n_distinct,
                            table->n_rows, nulls != NULL ? nulls : "");
  if (column->predicate == PREDICATE_IDENTIFYING)
    return g_strdup_printf ("%s.%s is unique in the data (%" G_GINT64_FORMAT " distinct values in %"
                            G_GINT64_FORMAT " rows%s)", table->name, column->name, column->n_distinct,
                            table->n_rows, nulls != NULL ? nulls : "");
  return g_strdup_printf ("%s.%s is not unique (%" G_GINT64_FORMAT " distinct values in %"
                          G_GINT64_FORMAT " rows%s)", table->name, column->name, column->n_distinct,
                          table->n_rows, nulls != NULL ? nulls : "");
}

static gboolean
is_unique (GrammarSchemaGenColumnInfo *column)
{
  return column->declared_unique || column->n_distinct == column->n_values;
}

/* Decides whether a person would ask by @column, and how. */
static void
classify_predicate (GrammarSchemaGenTableInfo  *table,
                    GrammarSchemaGenColumnInfo *column,
                    const char                 *surrogate)
{
  const char *type = grammar_column_get_declared_type (column->column);

  column->predicate = PREDICATE_NONE;
  if (column->n_values == 0)
    column->predicate_why = g_strdup ("NULL in every row");
  else if (column->key_target != NULL)
    column->predicate_why = g_strdup_printf ("a foreign key to %s: a question names the %s row instead",
                                             column->key_target, column->key_target);
  else if (surrogate != NULL)
    column->predicate_why = g_strdup (surrogate);
  else if (column->affinity == AFFINITY_BLOB)
    column->predicate_why = g_strdup ("binary data");
  else if (!column->is_text && !column->declared_unique)
    column->predicate_why = g_strdup ("a number that is not declared unique: a measurement to answer, "
                                      "not a name to ask by");
  else if ((grammar_schema_gen_is_named_like_time (column->name) || grammar_schema_gen_type_mentions_time (type)) && !column->declared_unique)
    column->predicate_why = g_strdup ("a date or time not declared unique: a value to answer, not a name to ask by");
  else if (column->is_text && !column->declared_unique &&
           (grammar_schema_gen_is_named_like_free_text (column->name) || column->mean_length > 64.0))
    column->predicate_why = g_strdup ("free text (a description, not a name to ask by)");
  else if (is_unique (column))
    column->predicate = PREDICATE_IDENTIFYING;
  else
    column->predicate = PREDICATE_PLURAL;

  if (column->predicate != PREDICATE_NONE)
    column->predicate_why = describe_uniqueness (table, column);
}

/* How well a column names a row: a declared unique text column best,
 * then a name or title unique in the data, then other text unique in the
 * data, then a number declared unique ("prefer text columns"). */
static int
identifier_tier (GrammarSchemaGenColumnInfo *column)
{
  if (!column->is_text)
    return 0;
  if (column->declared_unique)
    return 3;
  return grammar_schema_gen_is_named_like_name (column->name) ? 2 : 1;
}

static char *
describe_demotion (GrammarSchemaGenTableInfo  *info,
                   GrammarSchemaGenColumnInfo *column,
                   GrammarSchemaGenColumnInfo *better)
{
  g_autofree char *evidence = describe_uniqueness (info, column);

  if (!column->is_text)
    return g_strdup_printf ("a number, and %s has a text name to ask by (%s)", info->name, better->name);
  return g_strdup_printf ("%s, but %s has a better name to ask by (%s%s)", evidence, info->name, better->name,
                          better->declared_unique ? ", declared unique" : "");
}

/* Only the columns of the best tier are asked by: a column unique in the
 * data only by chance (six clients in six countries) is not a name when
 * the table declares one. The best of them, names and titles first,
 * stands for the row when a foreign key is followed or a link table
 * joined. */
static void
choose_identifiers (GrammarSchemaGenTableInfo *info)
{
  int top = -1;

  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->predicate == PREDICATE_IDENTIFYING)
        top = MAX (top, identifier_tier (column));
    }

  info->best = -1;
  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->predicate != PREDICATE_IDENTIFYING || identifier_tier (column) != top)
        continue;
      if (info->best < 0 ||
          (grammar_schema_gen_is_named_like_name (column->name) && !grammar_schema_gen_is_named_like_name (grammar_schema_gen_column_at (info, (guint) info->best)->name)))
        info->best = (int) i;
    }

  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);
      g_autofree char *why = NULL;

      if (column->predicate != PREDICATE_IDENTIFYING || identifier_tier (column) == top)
        continue;
      why = describe_demotion (info, column, grammar_schema_gen_column_at (info, (guint) info->best));
      column->predicate = PREDICATE_NONE;
      g_free (column->predicate_why);
      column->predicate_why = g_steal_pointer (&why);
    }
}

static void
classify_projection (GrammarSchemaGenColumnInfo *column,
                     const char                 *surrogate)
{
  column->projection = PROJECTION_DIRECT;
  if (column->n_values == 0)
    column->projection_why = g_strdup ("NULL in every row");
  else if (column->foreign_key != NULL)
    return;  /* followed to the referenced row's name: see classify_follow() */
  else if (surrogate != NULL)
    column->projection_why = g_strdup (surrogate);
  else if (column->affinity == AFFINITY_BLOB)
    column->projection_why = g_strdup ("binary data");
  else if (column->in_composite_key && column->foreign_key == NULL)
    column->projection_why = g_strdup ("part of a foreign key of several columns");
  else
    return;
  column->projection = PROJECTION_NONE;
}

/* A foreign key is projected as the referenced row's name. */
static gboolean
classify_follow (GrammarSchemaGenRun         *run,
                 GrammarSchemaGenTableInfo   *info,
                 GrammarSchemaGenColumnInfo  *column,
                 GError                     **error)
{
  const char *referenced_name = grammar_foreign_key_get_referenced_table (column->foreign_key);
  const char *key = grammar_foreign_key_get_referenced_columns (column->foreign_key)[0];
  GrammarTable *referenced_table = grammar_schema_get_table (run->self->schema, referenced_name);
  GrammarSchemaGenTableInfo *referenced;
  GrammarSchemaGenColumnInfo *best;

  column->projection = PROJECTION_NONE;
  if (referenced_table == NULL)
    {
      column->projection_why = g_strdup_printf ("a foreign key to “%s”, which is not in the schema", referenced_name);
      return TRUE;
    }
  if (g_ascii_strcasecmp (grammar_table_get_name (referenced_table), info->name) == 0)
    referenced = info;
  else if ((referenced = grammar_schema_gen_analyse_table (run, grammar_table_get_name (referenced_table), error)) == NULL)
    return FALSE;
  if (referenced->best < 0)
    {
      column->projection_why = g_strdup_printf ("a foreign key to %s, which has no column that names its rows "
                                                "to show instead of the raw key", referenced->name);
      return TRUE;
    }

  best = grammar_schema_gen_column_at (referenced, (guint) referenced->best);
  if (g_ascii_strcasecmp (best->name, key) == 0)
    {
      /* The key already is the referenced row's name. */
      column->projection = PROJECTION_DIRECT;
      return TRUE;
    }
  column->projection = PROJECTION_FOLLOW;
  column->follow_table = g_strdup (referenced->name);
  column->follow_column = g_strdup (best->name);
  column->follow_key = g_strdup (key);
  return TRUE;
}

GrammarSchemaGenTableInfo *
grammar_schema_gen_analyse_table (GrammarSchemaGenRun  *run,
                                  const char           *name,
                                  GError              **error)
{
  g_autofree char *key = g_ascii_strdown (name, -1);
  GrammarSchemaGenTableInfo *info = g_hash_table_lookup (run->tables, key);
  GrammarTable *table;
  GPtrArray *columns;

  if (info != NULL)
    return info;

  table = grammar_schema_get_table (run->self->schema, name);
  columns = grammar_table_get_columns (table);
  info = g_new0 (GrammarSchemaGenTableInfo, 1);
  info->table = table;
  info->name = grammar_table_get_name (table);
  info->best = -1;
  info->columns = g_array_sized_new (FALSE, TRUE, sizeof (GrammarSchemaGenColumnInfo), columns->len);
  g_array_set_clear_func (info->columns, (GDestroyNotify) column_info_clear);
  for (guint i = 0; i < columns->len; i++)
    {
      GrammarSchemaGenColumnInfo column = { 0 };

      column.column = g_ptr_array_index (columns, i);
      column.name = grammar_column_get_name (column.column);
      column.affinity = grammar_schema_gen_affinity_of (grammar_column_get_declared_type (column.column));
      column.is_text = column.affinity == AFFINITY_TEXT || column.affinity == AFFINITY_NONE ||
                       grammar_schema_gen_type_mentions_time (grammar_column_get_declared_type (column.column));
      g_array_append_val (info->columns, column);
    }
  /* Registered before the foreign keys are followed, so that a key to
   * the table itself finds it. */
  g_hash_table_insert (run->tables, g_steal_pointer (&key), info);

  read_keys (info);
  if (!count_values (run, info, error))
    return NULL;

  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);
      const char *surrogate = surrogate_reason (run, info, column);

      classify_predicate (info, column, surrogate);
      classify_projection (column, surrogate);
    }
  choose_identifiers (info);

  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->projection == PROJECTION_DIRECT && column->foreign_key != NULL &&
          !classify_follow (run, info, column, error))
        return NULL;
    }
  return info;
}

void
grammar_schema_gen_collect_referenced_columns (GrammarSchemaGenRun *run)
{
  GPtrArray *tables = grammar_schema_get_tables (run->self->schema);

  for (guint t = 0; t < tables->len; t++)
    {
      GPtrArray *foreign_keys = grammar_table_get_foreign_keys (g_ptr_array_index (tables, t));

      for (guint k = 0; k < foreign_keys->len; k++)
        {
          GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, k);
          const char * const *columns = grammar_foreign_key_get_referenced_columns (fk);
          g_autofree char *table = g_ascii_strdown (grammar_foreign_key_get_referenced_table (fk), -1);

          for (guint c = 0; columns[c] != NULL; c++)
            {
              g_autofree char *column = g_ascii_strdown (columns[c], -1);

              g_hash_table_add (run->referenced, g_strconcat (table, "\n", column, NULL));
            }
        }
    }
}
