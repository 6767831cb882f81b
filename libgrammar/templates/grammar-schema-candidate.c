/* grammar-schema-candidate.c: candidate templates of the schema-driven generator, and the singular-answer check
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include "grammar-database-private.h"
#include "grammar-schema-generator-private.h"
#include "grammar-error.h"
#include "grammar-schema-generator.h"
#include "grammar-sql-generator-private.h"
#include "grammar-value.h"

/* Candidates ------------------------------------------------------------- */

GrammarSchemaGenCandidate *
grammar_schema_gen_candidate_new (void)
{
  GrammarSchemaGenCandidate *candidate = g_new0 (GrammarSchemaGenCandidate, 1);

  candidate->from = g_string_new (NULL);
  candidate->expressions = g_ptr_array_new_with_free_func (g_free);
  candidate->placeholders = g_ptr_array_new_with_free_func (g_free);
  candidate->names = g_ptr_array_new_with_free_func (g_free);
  candidate->aliases = g_ptr_array_new_with_free_func (g_free);
  return candidate;
}

void
grammar_schema_gen_candidate_free (GrammarSchemaGenCandidate *candidate)
{
  g_string_free (candidate->from, TRUE);
  g_free (candidate->projection);
  g_ptr_array_unref (candidate->expressions);
  g_ptr_array_unref (candidate->placeholders);
  g_ptr_array_unref (candidate->names);
  g_ptr_array_unref (candidate->aliases);
  g_free (candidate);
}

static gboolean
alias_taken (GrammarSchemaGenCandidate *candidate,
             const char                *alias)
{
  for (guint i = 0; i < candidate->aliases->len; i++)
    if (g_str_equal (g_ptr_array_index (candidate->aliases, i), alias))
      return TRUE;
  return FALSE;
}

/* The initials of a name's words, ASCII letters only: `employment` →
 * `e`, `project_assignment` → `pa`. */
static char *
initials (const char *name)
{
  g_auto (GStrv) words = name != NULL ? grammar_schema_gen_split_words (name) : NULL;
  GString *letters = g_string_new (NULL);

  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (g_ascii_isalpha (words[i][0]))
      g_string_append_c (letters, words[i][0]);
  return g_string_free (letters, FALSE);
}

/* An alias from the table's initials (`employment e`, as the paper
 * writes it), or from the foreign key column's when those are taken
 * (`employee s` for `supervisor_id`), or a numbered one. */
const char *
grammar_schema_gen_new_alias (GrammarSchemaGenCandidate *candidate,
                              const char                *table,
                              const char                *hint)
{
  g_autofree char *from_table = initials (table);
  g_autofree char *from_hint = NULL;
  char *alias = NULL;

  if (hint != NULL)
    {
      /* `supervisor_id` → `s`, not `si`. */
      g_auto (GStrv) words = grammar_schema_gen_split_words (hint);

      from_hint = words[0] != NULL && g_ascii_isalpha (words[0][0]) ? g_strndup (words[0], 1) : g_strdup ("");
    }
  if (from_table[0] == '\0')
    {
      g_free (from_table);
      from_table = g_strdup ("t");
    }

  /* Initials can spell a keyword (`account_statement` → `as`): of any
   * dialect, so that the template is the same text on every backend. */
  if (!alias_taken (candidate, from_table) && grammar_sql_is_plain_everywhere (from_table))
    alias = g_strdup (from_table);
  else if (from_hint != NULL && from_hint[0] != '\0' && !alias_taken (candidate, from_hint))
    alias = g_strdup (from_hint);
  for (guint n = 2; alias == NULL; n++)
    {
      g_autofree char *numbered = g_strdup_printf ("%s%u", from_table, n);

      if (!alias_taken (candidate, numbered))
        alias = g_steal_pointer (&numbered);
    }
  g_ptr_array_add (candidate->aliases, alias);
  return alias;
}

void
grammar_schema_gen_add_first_table (GrammarSchemaGenRun       *run,
                                    GrammarSchemaGenCandidate *candidate,
                                    const char                *table,
                                    const char                *alias)
{
  g_autofree char *quoted = grammar_schema_gen_sql_name (run, table);

  g_string_append (candidate->from, quoted);
  if (alias != NULL)
    g_string_append_printf (candidate->from, " %s", alias);
}

void
grammar_schema_gen_add_join (GrammarSchemaGenRun       *run,
                             GrammarSchemaGenCandidate *candidate,
                             const char                *table,
                             const char                *alias,
                             const char                *from_alias,
                             const char                *from_column,
                             const char                *to_column)
{
  g_autofree char *quoted = grammar_schema_gen_sql_name (run, table);
  g_autofree char *left = grammar_schema_gen_sql_column (run, from_alias, from_column);
  g_autofree char *right = grammar_schema_gen_sql_column (run, alias, to_column);

  g_string_append_printf (candidate->from, " JOIN %s %s ON %s = %s", quoted, alias, left, right);
}

void
grammar_schema_gen_add_predicate (GrammarSchemaGenRun        *run,
                                  GrammarSchemaGenCandidate  *candidate,
                                  const char                 *alias,
                                  GrammarSchemaGenTableInfo  *table,
                                  GrammarSchemaGenColumnInfo *column)
{
  g_ptr_array_add (candidate->expressions, grammar_schema_gen_sql_column (run, alias, column->name));
  g_ptr_array_add (candidate->placeholders, grammar_schema_gen_placeholder (table->name, column));
  g_ptr_array_add (candidate->names, g_strconcat (table->name, ".", column->name, NULL));
}

static char *
candidate_sql (GrammarSchemaGenCandidate *candidate)
{
  g_autoptr (GString) sql = g_string_new (NULL);

  g_string_append_printf (sql, "SELECT %s FROM %s WHERE ", candidate->projection, candidate->from->str);
  for (guint i = 0; i < candidate->expressions->len; i++)
    g_string_append_printf (sql, "%s%s = %s", i > 0 ? " AND " : "",
                            (char *) g_ptr_array_index (candidate->expressions, i),
                            (char *) g_ptr_array_index (candidate->placeholders, i));
  return g_string_free (g_steal_pointer (&sql), FALSE);
}

/* The singular-answer check ---------------------------------------------- */

static char *
join_expressions (GrammarSchemaGenCandidate *candidate,
                  const char                *separator,
                  const char                *suffix)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < candidate->expressions->len; i++)
    g_string_append_printf (text, "%s%s%s", i > 0 ? separator : "",
                            (char *) g_ptr_array_index (candidate->expressions, i), suffix);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
value_as_literal (GVariant *value)
{
  g_autofree char *text = NULL;
  g_autoptr (GString) quoted = NULL;

  if (value == NULL)
    return g_strdup ("NULL");
  text = grammar_value_to_text (value);
  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    return g_steal_pointer (&text);
  quoted = g_string_new ("'");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append_c (quoted, '\'');
      g_string_append_c (quoted, *p);
    }
  g_string_append_c (quoted, '\'');
  return g_string_free (g_steal_pointer (&quoted), FALSE);
}

static gboolean
find_example (GrammarSchemaGenRun           *run,
              GrammarSchemaGenCandidate     *candidate,
              const char                    *where,
              const char                    *group,
              GrammarSchemaGenMultiplicity  *multiplicity,
              GError                       **error)
{
  g_autofree char *sql = g_strdup_printf ("SELECT %s, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s"
                                          " ORDER BY n DESC, %s LIMIT 1",
                                          group, candidate->from->str, where, group, group);
  g_autoptr (GrammarResult) result = grammar_database_query (run->self->database, sql, NULL,
                                                             run->cancellable, error);
  g_autoptr (GString) example = g_string_new (NULL);
  guint n = candidate->expressions->len;

  if (result == NULL)
    return FALSE;
  if (grammar_result_get_n_rows (result) == 0)
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *literal = value_as_literal (grammar_result_get_value (result, 0, i));

      g_string_append_printf (example, "%s%s", i > 0 ? ", " : "", literal);
    }
  multiplicity->example = n > 1 ? g_strdup_printf ("(%s)", example->str) : g_strdup (example->str);
  return TRUE;
}

/* How many rows each binding of the predicates gives, in one grouped
 * query — never one query per binding. Candidates with the same FROM and
 * predicates share the answer. */
static GrammarSchemaGenMultiplicity *
check_multiplicity (GrammarSchemaGenRun        *run,
                    GrammarSchemaGenCandidate  *candidate,
                    GError                    **error)
{
  g_autofree char *where = join_expressions (candidate, " AND ", " IS NOT NULL");
  g_autofree char *group = join_expressions (candidate, ", ", "");
  g_autofree char *key = g_strdup_printf ("%s WHERE %s GROUP BY %s", candidate->from->str, where, group);
  g_autofree char *sql = NULL;
  g_autoptr (GrammarResult) result = NULL;
  GrammarSchemaGenMultiplicity *multiplicity = g_hash_table_lookup (run->checks, key);

  if (multiplicity != NULL)
    return multiplicity;

  sql = g_strdup_printf ("SELECT COUNT(*), COALESCE(SUM(CASE WHEN n > 1 THEN 1 ELSE 0 END), 0),"
                         " COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM %s) AS bindings", key);
  result = grammar_database_query (run->self->database, sql, NULL, run->cancellable, error);
  if (result == NULL)
    {
      g_prefix_error (error, "cannot check the answers of “SELECT … FROM %s”: ", candidate->from->str);
      return NULL;
    }

  multiplicity = g_new0 (GrammarSchemaGenMultiplicity, 1);
  multiplicity->n_bindings = grammar_schema_gen_result_int64 (result, 0);
  multiplicity->n_plural = grammar_schema_gen_result_int64 (result, 1);
  multiplicity->max_rows = grammar_schema_gen_result_int64 (result, 2);
  if (multiplicity->n_plural > 0 && !find_example (run, candidate, where, group, multiplicity, error))
    {
      grammar_schema_gen_multiplicity_free (multiplicity);
      return NULL;
    }
  g_hash_table_insert (run->checks, g_steal_pointer (&key), multiplicity);
  return multiplicity;
}

/* `company.Name`, or `(company.Name, people.Name)` */
static char *
describe_names (GrammarSchemaGenCandidate *candidate)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < candidate->names->len; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", (char *) g_ptr_array_index (candidate->names, i));
  if (candidate->names->len > 1)
    {
      g_string_prepend_c (names, '(');
      g_string_append_c (names, ')');
    }
  return g_string_free (names, FALSE);
}

static char *
describe_plural (GrammarSchemaGenCandidate    *candidate,
                 GrammarSchemaGenMultiplicity *multiplicity)
{
  g_autofree char *names = describe_names (candidate);
  const char *what = candidate->names->len > 1 ? "combinations" : "values";

  return g_strdup_printf ("%" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " %s %s match several rows"
                          " (%s: %" G_GINT64_FORMAT " rows)",
                          multiplicity->n_plural, multiplicity->n_bindings, names, what,
                          multiplicity->example != NULL ? multiplicity->example : "for example",
                          multiplicity->max_rows);
}

/* Checks a candidate and keeps it, or reports why not. @why says why it is
 * acceptable (the note). */
gboolean
grammar_schema_gen_consider (GrammarSchemaGenRun        *run,
                             GrammarSchemaGenCandidate  *candidate,
                             const char                 *why,
                             GError                    **error)
{
  g_autofree char *sql = candidate_sql (candidate);
  g_autofree char *note = NULL;
  g_autoptr (GrammarSqlTemplate) template = NULL;
  g_autoptr (GError) local_error = NULL;
  GrammarSchemaGenMultiplicity *multiplicity = check_multiplicity (run, candidate, error);

  if (multiplicity == NULL)
    return FALSE;
  if (multiplicity->n_bindings == 0)
    {
      grammar_schema_gen_drop (run, "dropped: %s — no binding of its placeholders has an answer in the data", sql);
      return TRUE;
    }
  if (multiplicity->n_plural > 0)
    {
      g_autofree char *plural = describe_plural (candidate, multiplicity);

      if (!run->self->keep_plural)
        {
          grammar_schema_gen_drop (run, "dropped: %s — plural answer: %s", sql, plural);
          return TRUE;
        }
      note = g_strdup_printf ("%s; the answer can be plural: %s; kept because plural answers are allowed",
                              why, plural);
    }
  else if (candidate->names->len > 1)
    {
      g_autofree char *names = describe_names (candidate);

      note = g_strdup_printf ("%s; each of the %" G_GINT64_FORMAT " %s combinations in the data has one row",
                              why, multiplicity->n_bindings, names);
    }
  else
    note = g_strdup (why);

  template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_SCHEMA, &local_error);
  if (template == NULL ||
      !grammar_sql_template_validate (template, run->self->database, run->self->schema, &local_error))
    {
      /* The generator's own SQL should always be valid: say so loudly. */
      grammar_schema_gen_drop (run, "dropped: %s — does not validate: %s", sql, local_error->message);
      return TRUE;
    }
  if (!g_hash_table_add (run->ids, g_strdup (grammar_sql_template_get_id (template))))
    return TRUE;
  grammar_sql_template_set_note (template, note);
  g_ptr_array_add (run->kept, g_steal_pointer (&template));
  return TRUE;
}
