/* grammar-document-schema.c: the schema of the document generator, as its queries need it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "grammar-document-generator-private.h"
#include "grammar-database-private.h"
#include "grammar-configurable.h"
#include "grammar-document-generator.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-sql-template.h"

/* The schema, as the queries need it ------------------------------------- */


static void
link_free (GrammarDocgenLink *link)
{
  g_free (link->columns);
  g_free (link->parent_columns);
  g_free (link->parent_sql);
  g_free (link->children_sql);
  g_free (link);
}

void
grammar_docgen_table_info_free (GrammarDocgenTableInfo *info)
{
  g_free (info->columns);
  g_free (info->key);
  g_ptr_array_unref (info->links);
  g_free (info->rows_sql);
  g_free (info);
}

int
grammar_docgen_column_index (GrammarDocgenTableInfo *info,
                             const char             *name)
{
  for (guint c = 0; c < info->n_columns; c++)
    if (g_ascii_strcasecmp (info->columns[c], name) == 0)
      return (int) c;
  return -1;
}

gboolean
grammar_docgen_is_key_column (GrammarDocgenTableInfo *info,
                              guint                   column)
{
  for (guint k = 0; k < info->n_key; k++)
    if (info->key[k] == column)
      return TRUE;
  return FALSE;
}

/* `"a", "b"` or `"a" = ?1 AND "b" = ?2`, quoted by the database. */
static char *
join_columns (GrammarDatabase        *database,
              GrammarDocgenTableInfo *info,
              const guint            *columns,
              guint                   n,
              const char             *separator,
              gboolean                compare)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *quoted = grammar_database_quote_identifier (database, info->columns[columns[i]]);

      g_string_append_printf (out, "%s%s", i > 0 ? separator : "", quoted);
      if (compare)
        g_string_append_printf (out, " = ?%u", i + 1);
    }
  return g_string_free (out, FALSE);
}

/* The ORDER BY of @columns: text by its bytes on every backend, so that
 * documents come in the same order from each. */
static char *
order_columns (GrammarDatabase        *database,
               GrammarDocgenTableInfo *info,
               const guint            *columns,
               guint                   n)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *form = grammar_database_column_sql_form (database, GRAMMAR_SQL_FORM_BINARY, info->table,
                                                                info->columns[columns[i]]);

      g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", form);
    }
  return g_string_free (out, FALSE);
}

static guint *
all_columns (GrammarDocgenTableInfo *info)
{
  guint *columns = g_new (guint, MAX (info->n_columns, 1));

  for (guint c = 0; c < info->n_columns; c++)
    columns[c] = c;
  return columns;
}

/* The SELECT of every column of @info and its ORDER BY (the key, or
 * every column when there is none, so the order is always defined). */
static void
table_info_make_sql (GrammarDocgenTableInfo *info,
                     GrammarDatabase        *database)
{
  g_autofree guint *every = all_columns (info);
  g_autofree char *quoted = grammar_database_quote_identifier (database, info->name);
  g_autofree char *list = join_columns (database, info, every, info->n_columns, ", ", FALSE);
  g_autofree char *order = info->n_key > 0 ? order_columns (database, info, info->key, info->n_key)
                                           : order_columns (database, info, every, info->n_columns);

  info->rows_sql = g_strdup_printf ("SELECT %s FROM %s ORDER BY %s", list, quoted, order);
}

GrammarDocgenTableInfo *
grammar_docgen_table_info_new (GrammarDatabase *database,
                GrammarTable    *table)
{
  GrammarDocgenTableInfo *info = g_new0 (GrammarDocgenTableInfo, 1);
  GPtrArray *columns = grammar_table_get_columns (table);
  g_auto (GStrv) key = grammar_table_dup_primary_key (table);
  guint n = 0;

  info->table = table;
  info->name = grammar_table_get_name (table);
  info->n_columns = columns->len;
  info->columns = g_new0 (const char *, columns->len + 1);
  for (guint c = 0; c < columns->len; c++)
    info->columns[c] = grammar_column_get_name (g_ptr_array_index (columns, c));
  info->key = g_new0 (guint, g_strv_length (key) + 1);
  for (guint k = 0; key[k] != NULL; k++)
    {
      int index = grammar_docgen_column_index (info, key[k]);

      if (index >= 0)
        info->key[n++] = (guint) index;
    }
  info->n_key = n;
  info->links = g_ptr_array_new_with_free_func ((GDestroyNotify) link_free);
  table_info_make_sql (info, database);
  return info;
}

static void
link_make_sql (GrammarDocgenLink *link,
               GrammarDatabase   *database)
{
  GrammarDocgenTableInfo *child = link->child, *parent = link->parent;
  g_autofree guint *every_child = all_columns (child);
  g_autofree guint *every_parent = all_columns (parent);
  g_autofree char *child_name = grammar_database_quote_identifier (database, child->name);
  g_autofree char *parent_name = grammar_database_quote_identifier (database, parent->name);
  g_autofree char *child_list = join_columns (database, child, every_child, child->n_columns, ", ", FALSE);
  g_autofree char *parent_list = join_columns (database, parent, every_parent, parent->n_columns, ", ", FALSE);
  g_autofree char *by_parent = join_columns (database, parent, link->parent_columns, link->n_columns, " AND ", TRUE);
  g_autofree char *by_child = join_columns (database, child, link->columns, link->n_columns, " AND ", TRUE);
  const char *order = strstr (child->rows_sql, " ORDER BY ");

  link->parent_sql = g_strdup_printf ("SELECT %s FROM %s WHERE %s", parent_list, parent_name, by_parent);
  link->children_sql = g_strdup_printf ("SELECT %s FROM %s WHERE %s%s", child_list, child_name, by_child, order);
}

/* Resolves the foreign keys of @info; those whose columns are not found
 * are left out. */
void
grammar_docgen_table_info_add_links (GrammarDocgenTableInfo *info,
                                     GHashTable             *infos,
                                     GrammarDatabase        *database)
{
  GPtrArray *foreign_keys = grammar_table_get_foreign_keys (info->table);

  for (guint f = 0; f < foreign_keys->len; f++)
    {
      GrammarForeignKey *foreign_key = g_ptr_array_index (foreign_keys, f);
      const char * const *columns = grammar_foreign_key_get_columns (foreign_key);
      const char * const *referenced = grammar_foreign_key_get_referenced_columns (foreign_key);
      g_autofree char *parent_name = g_ascii_strdown (grammar_foreign_key_get_referenced_table (foreign_key), -1);
      GrammarDocgenTableInfo *parent = g_hash_table_lookup (infos, parent_name);
      guint n = g_strv_length ((char **) columns);
      GrammarDocgenLink *link;
      gboolean complete = parent != NULL && n > 0 && referenced != NULL && g_strv_length ((char **) referenced) == n;

      if (!complete)
        continue;
      link = g_new0 (GrammarDocgenLink, 1);
      link->child = info;
      link->parent = parent;
      link->n_columns = n;
      link->columns = g_new0 (guint, n);
      link->parent_columns = g_new0 (guint, n);
      for (guint c = 0; c < n && complete; c++)
        {
          int mine = grammar_docgen_column_index (info, columns[c]);
          int theirs = grammar_docgen_column_index (parent, referenced[c]);

          complete = mine >= 0 && theirs >= 0;
          link->columns[c] = (guint) MAX (mine, 0);
          link->parent_columns[c] = (guint) MAX (theirs, 0);
        }
      if (!complete)
        {
          link_free (link);
          continue;
        }
      link_make_sql (link, database);
      g_ptr_array_add (info->links, link);
    }
}

/* Whether every column of @info is in one of its foreign keys: a table
 * that only links others says nothing of its own. */
gboolean
grammar_docgen_is_pure_link_table (GrammarDocgenTableInfo *info)
{
  for (guint c = 0; c < info->n_columns; c++)
    {
      gboolean linked = FALSE;

      for (guint l = 0; l < info->links->len && !linked; l++)
        {
          GrammarDocgenLink *link = g_ptr_array_index (info->links, l);

          for (guint i = 0; i < link->n_columns && !linked; i++)
            linked = link->columns[i] == c;
        }
      if (!linked)
        return FALSE;
    }
  return info->n_columns > 0;
}
