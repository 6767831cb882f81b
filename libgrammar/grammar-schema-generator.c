/* grammar-schema-generator.c: SQL templates from the schema and the data, without a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-error.h"
#include "grammar-schema-generator.h"
#include "grammar-schema-generator-private.h"
#include "grammar-sql-generator-private.h"

static void grammar_schema_generator_sql_generator_init (GrammarSqlGeneratorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GrammarSchemaGenerator, grammar_schema_generator, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_SQL_GENERATOR,
                                                      grammar_schema_generator_sql_generator_init))

enum {
  PROP_0,
  PROP_DATABASE,
  PROP_SCHEMA,
  PROP_KEEP_PLURAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
grammar_schema_generator_finalize (GObject *object)
{
  GrammarSchemaGenerator *self = GRAMMAR_SCHEMA_GENERATOR (object);

  g_clear_object (&self->database);
  g_clear_object (&self->schema);

  G_OBJECT_CLASS (grammar_schema_generator_parent_class)->finalize (object);
}

static void
grammar_schema_generator_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  GrammarSchemaGenerator *self = GRAMMAR_SCHEMA_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_DATABASE:
      g_value_set_object (value, self->database);
      break;
    case PROP_SCHEMA:
      g_value_set_object (value, self->schema);
      break;
    case PROP_KEEP_PLURAL:
      g_value_set_boolean (value, self->keep_plural);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_schema_generator_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  GrammarSchemaGenerator *self = GRAMMAR_SCHEMA_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_DATABASE:
      self->database = g_value_dup_object (value);
      break;
    case PROP_SCHEMA:
      self->schema = g_value_dup_object (value);
      break;
    case PROP_KEEP_PLURAL:
      grammar_schema_generator_set_keep_plural (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_schema_generator_class_init (GrammarSchemaGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_schema_generator_finalize;
  object_class->get_property = grammar_schema_generator_get_property;
  object_class->set_property = grammar_schema_generator_set_property;

  /**
   * GrammarSchemaGenerator:database:
   *
   * The database whose data is checked (uniqueness, singular answers).
   */
  properties[PROP_DATABASE] =
    g_param_spec_object ("database", NULL, NULL, GRAMMAR_TYPE_DATABASE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarSchemaGenerator:schema:
   *
   * The schema of #GrammarSchemaGenerator:database.
   */
  properties[PROP_SCHEMA] =
    g_param_spec_object ("schema", NULL, NULL, GRAMMAR_TYPE_SCHEMA,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarSchemaGenerator:keep-plural:
   *
   * Whether to keep templates whose answer has several rows for some
   * binding. Off by default, as the paper's criterion “ensure the query
   * yields a specific and singular answer” asks; when on, predicates on
   * descriptive columns that do not identify a row
   * (`SELECT Name FROM company WHERE Industry = '[company.Industry]'`)
   * are proposed too, with a note that their answer can be plural.
   */
  properties[PROP_KEEP_PLURAL] =
    g_param_spec_boolean ("keep-plural", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_schema_generator_init (GrammarSchemaGenerator *self)
{
}

/**
 * grammar_schema_generator_new:
 * @database: the database
 * @schema: its schema, from grammar_database_get_schema()
 *
 * Returns: (transfer full): a new #GrammarSchemaGenerator
 */
GrammarSchemaGenerator *
grammar_schema_generator_new (GrammarDatabase *database,
                              GrammarSchema   *schema)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (database), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (schema), NULL);

  return g_object_new (GRAMMAR_TYPE_SCHEMA_GENERATOR, "database", database, "schema", schema, NULL);
}

/**
 * grammar_schema_generator_get_database:
 * @self: a #GrammarSchemaGenerator
 *
 * Returns: (transfer none): the database
 */
GrammarDatabase *
grammar_schema_generator_get_database (GrammarSchemaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self), NULL);
  return self->database;
}

/**
 * grammar_schema_generator_get_schema:
 * @self: a #GrammarSchemaGenerator
 *
 * Returns: (transfer none): the schema
 */
GrammarSchema *
grammar_schema_generator_get_schema (GrammarSchemaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self), NULL);
  return self->schema;
}

/**
 * grammar_schema_generator_get_keep_plural:
 * @self: a #GrammarSchemaGenerator
 *
 * Returns: whether templates with a plural answer are kept
 */
gboolean
grammar_schema_generator_get_keep_plural (GrammarSchemaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self), FALSE);
  return self->keep_plural;
}

/**
 * grammar_schema_generator_set_keep_plural:
 * @self: a #GrammarSchemaGenerator
 * @keep_plural: whether to keep templates with a plural answer
 *
 * Sets #GrammarSchemaGenerator:keep-plural.
 */
void
grammar_schema_generator_set_keep_plural (GrammarSchemaGenerator *self,
                                          gboolean                keep_plural)
{
  g_return_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self));

  keep_plural = !!keep_plural;
  if (self->keep_plural == keep_plural)
    return;
  self->keep_plural = keep_plural;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KEEP_PLURAL]);
}

/* What each column can be used for ------------------------------------------ */

static void
column_info_clear (ColumnInfo *info)
{
  g_free (info->predicate_why);
  g_free (info->projection_why);
  g_free (info->follow_table);
  g_free (info->follow_column);
  g_free (info->follow_key);
}

void
grammar_schema_gen_table_info_free (TableInfo *info)
{
  g_array_unref (info->columns);
  g_free (info);
}

ColumnInfo *
grammar_schema_gen_column_at (TableInfo *info,
           guint      index)
{
  return &g_array_index (info->columns, ColumnInfo, index);
}

void
grammar_schema_gen_multiplicity_free (Multiplicity *multiplicity)
{
  g_free (multiplicity->example);
  g_free (multiplicity);
}

void
grammar_schema_gen_run_clear (Run *run)
{
  g_clear_pointer (&run->tables, g_hash_table_unref);
  g_clear_pointer (&run->referenced, g_hash_table_unref);
  g_clear_pointer (&run->checks, g_hash_table_unref);
  g_clear_pointer (&run->ids, g_hash_table_unref);
  g_clear_pointer (&run->kept, g_ptr_array_unref);
  g_clear_pointer (&run->dropped, g_ptr_array_unref);
}

void G_GNUC_PRINTF (2, 3)
grammar_schema_gen_drop (Run        *run,
      const char *format,
      ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (run->dropped, g_strdup_vprintf (format, args));
  va_end (args);
}

/* A name as it is written in SQL text: as is when it can be, quoted by
 * the database's rules otherwise (spaces, keywords, quotes). */
char *
grammar_schema_gen_sql_name (Run        *run,
          const char *name)
{
  if (grammar_schema_gen_is_plain_identifier (name))
    return g_strdup (name);
  return grammar_database_quote_identifier (run->self->database, name);
}

char *
grammar_schema_gen_sql_column (Run        *run,
            const char *alias,
            const char *column)
{
  g_autofree char *quoted = grammar_schema_gen_sql_name (run, column);

  return alias != NULL ? g_strconcat (alias, ".", quoted, NULL) : g_steal_pointer (&quoted);
}

static char *
placeholder_name (const char *name)
{
  g_autoptr (GString) quoted = NULL;

  if (grammar_schema_gen_is_plain_identifier (name) || (g_utf8_validate (name, -1, NULL) && strpbrk (name, " .[]'\"`;\t\n") == NULL))
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
grammar_schema_gen_placeholder (const char *table,
             ColumnInfo *column)
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
surrogate_reason (Run        *run,
                  TableInfo  *table,
                  ColumnInfo *column)
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
  return 0.0;
}

/* One pass over the table: rows, and per column the values, the distinct
 * values and their mean length. */
static gboolean
count_values (Run        *run,
              TableInfo  *info,
              GError    **error)
{
  g_autoptr (GString) sql = g_string_new ("SELECT COUNT(*)");
  g_autoptr (GrammarResult) result = NULL;
  g_autofree char *table = grammar_schema_gen_sql_name (run, info->name);

  for (guint i = 0; i < info->columns->len; i++)
    {
      g_autofree char *column = grammar_schema_gen_sql_name (run, grammar_schema_gen_column_at (info, i)->name);

      g_string_append_printf (sql, ", COUNT(%s), COUNT(DISTINCT %s), AVG(LENGTH(%s))", column, column, column);
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
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);

      column->n_values = grammar_schema_gen_result_int64 (result, 1 + 3 * i);
      column->n_distinct = grammar_schema_gen_result_int64 (result, 2 + 3 * i);
      column->mean_length = result_double (result, 3 + 3 * i);
    }
  return TRUE;
}

static void
read_keys (TableInfo *info)
{
  GPtrArray *foreign_keys = grammar_table_get_foreign_keys (info->table);

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);
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
            ColumnInfo *column = grammar_schema_gen_column_at (info, i);

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
describe_uniqueness (TableInfo  *table,
                     ColumnInfo *column)
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
is_unique (ColumnInfo *column)
{
  return column->declared_unique || column->n_distinct == column->n_values;
}

/* Decides whether a person would ask by @column, and how. */
static void
classify_predicate (TableInfo  *table,
                    ColumnInfo *column,
                    const char *surrogate)
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
identifier_tier (ColumnInfo *column)
{
  if (!column->is_text)
    return 0;
  if (column->declared_unique)
    return 3;
  return grammar_schema_gen_is_named_like_name (column->name) ? 2 : 1;
}

static char *
describe_demotion (TableInfo  *info,
                   ColumnInfo *column,
                   ColumnInfo *better)
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
choose_identifiers (TableInfo *info)
{
  int top = -1;

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->predicate == PREDICATE_IDENTIFYING)
        top = MAX (top, identifier_tier (column));
    }

  info->best = -1;
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->predicate != PREDICATE_IDENTIFYING || identifier_tier (column) != top)
        continue;
      if (info->best < 0 ||
          (grammar_schema_gen_is_named_like_name (column->name) && !grammar_schema_gen_is_named_like_name (grammar_schema_gen_column_at (info, (guint) info->best)->name)))
        info->best = (int) i;
    }

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);
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
classify_projection (ColumnInfo *column,
                     const char *surrogate)
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
classify_follow (Run         *run,
                 TableInfo   *info,
                 ColumnInfo  *column,
                 GError     **error)
{
  const char *referenced_name = grammar_foreign_key_get_referenced_table (column->foreign_key);
  const char *key = grammar_foreign_key_get_referenced_columns (column->foreign_key)[0];
  GrammarTable *referenced_table = grammar_schema_get_table (run->self->schema, referenced_name);
  TableInfo *referenced;
  ColumnInfo *best;

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

TableInfo *
grammar_schema_gen_analyse_table (Run         *run,
               const char  *name,
               GError     **error)
{
  g_autofree char *key = g_ascii_strdown (name, -1);
  TableInfo *info = g_hash_table_lookup (run->tables, key);
  GrammarTable *table;
  GPtrArray *columns;

  if (info != NULL)
    return info;

  table = grammar_schema_get_table (run->self->schema, name);
  columns = grammar_table_get_columns (table);
  info = g_new0 (TableInfo, 1);
  info->table = table;
  info->name = grammar_table_get_name (table);
  info->best = -1;
  info->columns = g_array_sized_new (FALSE, TRUE, sizeof (ColumnInfo), columns->len);
  g_array_set_clear_func (info->columns, (GDestroyNotify) column_info_clear);
  for (guint i = 0; i < columns->len; i++)
    {
      ColumnInfo column = { 0 };

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
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);
      const char *surrogate = surrogate_reason (run, info, column);

      classify_predicate (info, column, surrogate);
      classify_projection (column, surrogate);
    }
  choose_identifiers (info);

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->projection == PROJECTION_DIRECT && column->foreign_key != NULL &&
          !classify_follow (run, info, column, error))
        return NULL;
    }
  return info;
}

void
grammar_schema_gen_collect_referenced_columns (Run *run)
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

/* Templates about one table ----------------------------------------------- */

/* `SELECT Industry FROM company WHERE Name = '[company.Name]'`, or with
 * a foreign key followed,
 * `SELECT c.name FROM project p JOIN client c ON p.client_id = c.client_id WHERE p.name = '[project.name]'`. */
static gboolean
entity_template (Run         *run,
                 TableInfo   *info,
                 ColumnInfo  *predicate,
                 ColumnInfo  *projected,
                 GError     **error)
{
  g_autoptr (Candidate) candidate = grammar_schema_gen_candidate_new ();
  g_autofree char *why = NULL;

  if (projected->projection == PROJECTION_DIRECT)
    {
      grammar_schema_gen_add_first_table (run, candidate, info->name, NULL);
      candidate->projection = grammar_schema_gen_sql_column (run, NULL, projected->name);
      grammar_schema_gen_add_predicate (run, candidate, NULL, info, predicate);
      why = g_strdup_printf ("%s; projects %s", predicate->predicate_why, projected->name);
    }
  else
    {
      const char *alias = grammar_schema_gen_new_alias (candidate, info->name, NULL);
      const char *other = grammar_schema_gen_new_alias (candidate, projected->follow_table, projected->name);

      grammar_schema_gen_add_first_table (run, candidate, info->name, alias);
      grammar_schema_gen_add_join (run, candidate, projected->follow_table, other, alias, projected->name, projected->follow_key);
      candidate->projection = grammar_schema_gen_sql_column (run, other, projected->follow_column);
      grammar_schema_gen_add_predicate (run, candidate, alias, info, predicate);
      why = g_strdup_printf ("%s; projects %s.%s through the foreign key %s.%s instead of the raw key",
                             predicate->predicate_why, projected->follow_table, projected->follow_column,
                             info->name, projected->name);
    }
  return grammar_schema_gen_consider (run, candidate, why, error);
}

static gboolean
entity_templates (Run         *run,
                  TableInfo   *info,
                  GError     **error)
{
  for (guint p = 0; p < info->columns->len; p++)
    {
      ColumnInfo *predicate = grammar_schema_gen_column_at (info, p);

      if (predicate->predicate == PREDICATE_NONE)
        continue;
      for (guint q = 0; q < info->columns->len; q++)
        {
          ColumnInfo *projected = grammar_schema_gen_column_at (info, q);

          /* Never project what the question already says. */
          if (q == p || projected->projection == PROJECTION_NONE)
            continue;
          if (!entity_template (run, info, predicate, projected, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* Associative tables ------------------------------------------------------ */

/* The two single-column foreign keys of a table that only links two
 * others (no column of its own names its rows), or FALSE. */
static gboolean
find_link_keys (TableInfo   *info,
                ColumnInfo **first,
                ColumnInfo **second)
{
  *first = *second = NULL;
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->predicate == PREDICATE_IDENTIFYING)
        return FALSE;
    }
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->foreign_key == NULL)
        continue;
      if (*first == NULL)
        *first = column;
      else if (*second == NULL)
        *second = column;
      else
        return FALSE;
    }
  if (*second == NULL)
    return FALSE;

  /* Keep the declaration order of the foreign keys, as the paper's
   * example joins company before people. */
  {
    GPtrArray *foreign_keys = grammar_table_get_foreign_keys (info->table);

    for (guint k = 0; k < foreign_keys->len; k++)
      {
        GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, k);

        if (fk == (*second)->foreign_key)
          {
            ColumnInfo *swap = *first;

            *first = *second;
            *second = swap;
            break;
          }
        if (fk == (*first)->foreign_key)
          break;
      }
  }
  return TRUE;
}

static gboolean
is_declared_pair (TableInfo  *info,
                  ColumnInfo *first,
                  ColumnInfo *second)
{
  const char *pair[] = { first->name, second->name, NULL };

  return grammar_table_is_unique_key (info->table, pair);
}

typedef struct
{
  TableInfo *table;
  ColumnInfo *key;      /* the referenced column */
  ColumnInfo *name;     /* the column asked by */
} LinkEnd;

static gboolean
resolve_link_end (Run         *run,
                  TableInfo   *info,
                  ColumnInfo  *column,
                  LinkEnd     *end,
                  char       **problem,
                  GError     **error)
{
  const char *referenced_name = grammar_foreign_key_get_referenced_table (column->foreign_key);
  const char *key = grammar_foreign_key_get_referenced_columns (column->foreign_key)[0];
  GrammarTable *table = grammar_schema_get_table (run->self->schema, referenced_name);

  if (table == NULL)
    {
      *problem = g_strdup_printf ("%s references “%s”, which is not in the schema", column->name, referenced_name);
      return TRUE;
    }
  end->table = grammar_schema_gen_analyse_table (run, grammar_table_get_name (table), error);
  if (end->table == NULL)
    return FALSE;
  if (end->table->best < 0)
    {
      *problem = g_strdup_printf ("%s has no column that names its rows to ask by", end->table->name);
      return TRUE;
    }
  end->name = grammar_schema_gen_column_at (end->table, (guint) end->table->best);
  end->key = NULL;
  for (guint i = 0; i < end->table->columns->len; i++)
    if (g_ascii_strcasecmp (grammar_schema_gen_column_at (end->table, i)->name, key) == 0)
      end->key = grammar_schema_gen_column_at (end->table, i);
  if (end->key == NULL)
    *problem = g_strdup_printf ("%s references %s.%s, which is not a column", column->name, end->table->name, key);
  return TRUE;
}

/* `SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID
 *  JOIN people p ON e.People_ID = p.People_ID WHERE c.Name = '[company.Name]' AND p.Name = '[people.Name]'` */
static gboolean
link_template (Run         *run,
               TableInfo   *info,
               ColumnInfo  *keys[2],
               LinkEnd      ends[2],
               ColumnInfo  *projected,
               const char  *why,
               GError     **error)
{
  g_autoptr (Candidate) candidate = grammar_schema_gen_candidate_new ();
  const char *alias = grammar_schema_gen_new_alias (candidate, info->name, NULL);
  const char *aliases[2];
  g_autofree char *note = NULL;

  grammar_schema_gen_add_first_table (run, candidate, info->name, alias);
  for (guint i = 0; i < 2; i++)
    {
      aliases[i] = grammar_schema_gen_new_alias (candidate, ends[i].table->name, keys[i]->name);
      grammar_schema_gen_add_join (run, candidate, ends[i].table->name, aliases[i], alias, keys[i]->name, ends[i].key->name);
    }
  candidate->projection = grammar_schema_gen_sql_column (run, alias, projected->name);
  for (guint i = 0; i < 2; i++)
    grammar_schema_gen_add_predicate (run, candidate, aliases[i], ends[i].table, ends[i].name);

  note = g_strdup_printf ("%s; %s; %s; projects %s", why, ends[0].name->predicate_why,
                          ends[1].name->predicate_why, projected->name);
  return grammar_schema_gen_consider (run, candidate, note, error);
}

static gboolean
link_templates (Run         *run,
                TableInfo   *info,
                GError     **error)
{
  ColumnInfo *keys[2];
  LinkEnd ends[2] = { { 0 } };
  g_autofree char *problem = NULL;
  g_autofree char *why = NULL;

  if (!find_link_keys (info, &keys[0], &keys[1]))
    return TRUE;
  for (guint i = 0; i < 2 && problem == NULL; i++)
    if (!resolve_link_end (run, info, keys[i], &ends[i], &problem, error))
      return FALSE;
  if (problem == NULL && ends[0].table == ends[1].table)
    problem = g_strdup_printf ("both foreign keys reference %s, and the two names would be one grammar_schema_gen_placeholder "
                               "[%s.%s] bound to one value", ends[0].table->name, ends[0].table->name,
                               ends[0].name->name);
  if (problem != NULL)
    {
      grammar_schema_gen_drop (run, "dropped: join templates of %s — it links two tables, but %s", info->name, problem);
      return TRUE;
    }

  if (is_declared_pair (info, keys[0], keys[1]))
    why = g_strdup_printf ("%s links %s and %s (its key is the pair of foreign keys %s, %s)", info->name,
                           ends[0].table->name, ends[1].table->name, keys[0]->name, keys[1]->name);
  else
    why = g_strdup_printf ("%s links %s and %s (foreign keys %s, %s, not declared unique together)", info->name,
                           ends[0].table->name, ends[1].table->name, keys[0]->name, keys[1]->name);

  for (guint q = 0; q < info->columns->len; q++)
    {
      ColumnInfo *projected = grammar_schema_gen_column_at (info, q);

      if (projected == keys[0] || projected == keys[1] || projected->projection != PROJECTION_DIRECT)
        continue;
      if (!link_template (run, info, keys, ends, projected, why, error))
        return FALSE;
    }
  return TRUE;
}

/* The whole schema --------------------------------------------------------- */

/* Columns never used, one line each, so that the list of dropped
 * candidates stays short: the same reason would repeat for every
 * template otherwise. */
static void
drop_columns (Run       *run,
              TableInfo *info)
{
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->predicate == PREDICATE_NONE && column->projection == PROJECTION_NONE &&
          g_strcmp0 (column->predicate_why, column->projection_why) == 0)
        grammar_schema_gen_drop (run, "dropped: column %s.%s — %s", info->name, column->name, column->predicate_why);
      else
        {
          if (column->predicate == PREDICATE_NONE)
            grammar_schema_gen_drop (run, "dropped: predicate %s.%s — %s", info->name, column->name, column->predicate_why);
          if (column->projection == PROJECTION_NONE)
            grammar_schema_gen_drop (run, "dropped: projection %s.%s — %s", info->name, column->name, column->projection_why);
        }
    }
}

static gboolean
table_templates (Run           *run,
                 GrammarTable  *table,
                 GError       **error)
{
  const char *name = grammar_table_get_name (table);
  TableInfo *info;

  if (grammar_table_get_is_view (table))
    {
      grammar_schema_gen_drop (run, "dropped: view %s — views repeat their tables' data; templates are made from tables", name);
      return TRUE;
    }
  info = grammar_schema_gen_analyse_table (run, name, error);
  if (info == NULL)
    return FALSE;
  if (info->n_rows == 0)
    {
      grammar_schema_gen_drop (run, "dropped: table %s — no rows: nothing to fill in", name);
      return TRUE;
    }
  drop_columns (run, info);
  return entity_templates (run, info, error) && link_templates (run, info, error);
}

/**
 * grammar_schema_generator_generate:
 * @self: a #GrammarSchemaGenerator
 * @dropped: (out) (optional) (transfer full) (array zero-terminated=1): return
 *   location for the candidates that were not kept, one line each in the
 *   form `dropped: WHAT — WHY`, where WHAT is a candidate's SQL, or
 *   `column T.C`, `predicate T.C` or `projection T.C` when a column is
 *   ruled out for every template at once
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Proposes the templates. Each is valid for the schema
 * (grammar_sql_template_validate()), has the origin
 * %GRAMMAR_TEMPLATE_ORIGIN_SCHEMA and a note saying why it is acceptable.
 * The database is read with a few set-based queries: one per table for
 * the uniqueness of its columns, one per distinct `FROM … WHERE` shape for
 * the singular-answer check.
 *
 * Returns: (transfer container) (element-type GrammarSqlTemplate) (nullable): the
 *   kept templates in schema order (possibly none), or %NULL with @error
 *   set when the database cannot be read
 */
GPtrArray *
grammar_schema_generator_generate (GrammarSchemaGenerator  *self,
                                   GStrv                   *dropped,
                                   GCancellable            *cancellable,
                                   GError                 **error)
{
  g_auto (Run) run = { 0 };
  GPtrArray *tables;

  g_return_val_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self->database) && GRAMMAR_IS_SCHEMA (self->schema), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  run.self = self;
  run.cancellable = cancellable;
  run.tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) grammar_schema_gen_table_info_free);
  run.referenced = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run.checks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) grammar_schema_gen_multiplicity_free);
  run.ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run.kept = g_ptr_array_new_with_free_func (g_object_unref);
  run.dropped = g_ptr_array_new_with_free_func (g_free);

  grammar_schema_gen_collect_referenced_columns (&run);
  tables = grammar_schema_get_tables (self->schema);
  for (guint i = 0; i < tables->len; i++)
    if (!table_templates (&run, g_ptr_array_index (tables, i), error))
      return NULL;

  if (dropped != NULL)
    {
      g_ptr_array_add (run.dropped, NULL);
      *dropped = (GStrv) g_ptr_array_steal (run.dropped, NULL);
    }
  return g_steal_pointer (&run.kept);
}

/* GrammarSqlGenerator: the notes are the candidates dropped, with why. */
static GPtrArray *
grammar_schema_generator_generate_for (GrammarSqlGenerator  *generator,
                                       GrammarDatabase      *database,
                                       GStrv                *notes,
                                       GCancellable         *cancellable,
                                       GError              **error)
{
  GrammarSchemaGenerator *self = GRAMMAR_SCHEMA_GENERATOR (generator);

  if (!grammar_sql_generator_use_database (&self->database, &self->schema, database, cancellable, error))
    return NULL;
  return grammar_schema_generator_generate (self, notes, cancellable, error);
}

static void
grammar_schema_generator_sql_generator_init (GrammarSqlGeneratorInterface *iface)
{
  iface->generate = grammar_schema_generator_generate_for;
}
