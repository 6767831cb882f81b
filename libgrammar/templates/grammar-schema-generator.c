/* grammar-schema-generator.c: SQL templates from the schema and the data, without a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-schema-generator-private.h"
#include "grammar-error.h"
#include "grammar-schema-generator.h"
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

/* Templates about one table ----------------------------------------------- */

/* `SELECT Industry FROM company WHERE Name = '[company.Name]'`, or with
 * a foreign key followed,
 * `SELECT c.name FROM project p JOIN client c ON p.client_id = c.client_id WHERE p.name = '[project.name]'`. */
static gboolean
entity_template (GrammarSchemaGenRun         *run,
                 GrammarSchemaGenTableInfo   *info,
                 GrammarSchemaGenColumnInfo  *predicate,
                 GrammarSchemaGenColumnInfo  *projected,
                 GError                     **error)
{
  g_autoptr (GrammarSchemaGenCandidate) candidate = grammar_schema_gen_candidate_new ();
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
entity_templates (GrammarSchemaGenRun        *run,
                  GrammarSchemaGenTableInfo  *info,
                  GError                    **error)
{
  for (guint p = 0; p < info->columns->len; p++)
    {
      GrammarSchemaGenColumnInfo *predicate = grammar_schema_gen_column_at (info, p);

      if (predicate->predicate == PREDICATE_NONE)
        continue;
      for (guint q = 0; q < info->columns->len; q++)
        {
          GrammarSchemaGenColumnInfo *projected = grammar_schema_gen_column_at (info, q);

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
find_link_keys (GrammarSchemaGenTableInfo   *info,
                GrammarSchemaGenColumnInfo **first,
                GrammarSchemaGenColumnInfo **second)
{
  *first = *second = NULL;
  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);

      if (column->predicate == PREDICATE_IDENTIFYING)
        return FALSE;
    }
  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);

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
            GrammarSchemaGenColumnInfo *swap = *first;

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
is_declared_pair (GrammarSchemaGenTableInfo  *info,
                  GrammarSchemaGenColumnInfo *first,
                  GrammarSchemaGenColumnInfo *second)
{
  const char *pair[] = { first->name, second->name, NULL };

  return grammar_table_is_unique_key (info->table, pair);
}

static gboolean
resolve_link_end (GrammarSchemaGenRun         *run,
                  GrammarSchemaGenTableInfo   *info,
                  GrammarSchemaGenColumnInfo  *column,
                  GrammarSchemaGenLinkEnd     *end,
                  char                       **problem,
                  GError                     **error)
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
link_template (GrammarSchemaGenRun         *run,
               GrammarSchemaGenTableInfo   *info,
               GrammarSchemaGenColumnInfo  *keys[2],
               GrammarSchemaGenLinkEnd      ends[2],
               GrammarSchemaGenColumnInfo  *projected,
               const char                  *why,
               GError                     **error)
{
  g_autoptr (GrammarSchemaGenCandidate) candidate = grammar_schema_gen_candidate_new ();
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
link_templates (GrammarSchemaGenRun        *run,
                GrammarSchemaGenTableInfo  *info,
                GError                    **error)
{
  GrammarSchemaGenColumnInfo *keys[2];
  GrammarSchemaGenLinkEnd ends[2] = { { 0 } };
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
      GrammarSchemaGenColumnInfo *projected = grammar_schema_gen_column_at (info, q);

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
drop_columns (GrammarSchemaGenRun       *run,
              GrammarSchemaGenTableInfo *info)
{
  for (guint i = 0; i < info->columns->len; i++)
    {
      GrammarSchemaGenColumnInfo *column = grammar_schema_gen_column_at (info, i);

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
table_templates (GrammarSchemaGenRun  *run,
                 GrammarTable         *table,
                 GError              **error)
{
  const char *name = grammar_table_get_name (table);
  GrammarSchemaGenTableInfo *info;

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
  g_auto (GrammarSchemaGenRun) run = { 0 };
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
