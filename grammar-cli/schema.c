/* schema.c: `grammar schema`, what the configured database holds
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "grammar-cli.h"

static char *
join_columns (const char * const *columns)
{
  return g_strjoinv (", ", (GStrv) columns);
}

/* The single-column foreign key starting at @column, if any. */
static GrammarForeignKey *
foreign_key_of (GrammarTable *table,
                const char   *column)
{
  GPtrArray *foreign_keys = grammar_table_get_foreign_keys (table);

  for (guint i = 0; i < foreign_keys->len; i++)
    {
      GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, i);
      const char * const *columns = grammar_foreign_key_get_columns (fk);

      if (columns[1] == NULL && g_ascii_strcasecmp (columns[0], column) == 0)
        return fk;
    }
  return NULL;
}

static char *
describe_column (GrammarTable  *table,
                 GrammarColumn *column)
{
  const char *name = grammar_column_get_name (column);
  const char *single[] = { name, NULL };
  guint position = grammar_column_get_primary_key_position (column);
  GrammarForeignKey *fk = foreign_key_of (table, name);
  GString *notes = g_string_new (NULL);

  if (position > 0)
    g_string_append_printf (notes, "primary key %u  ", position);
  else if (grammar_table_is_unique_key (table, single))
    g_string_append (notes, "unique  ");
  if (!grammar_column_get_nullable (column))
    g_string_append (notes, "not null  ");
  if (fk != NULL)
    g_string_append_printf (notes, "→ %s(%s)  ", grammar_foreign_key_get_referenced_table (fk),
                            grammar_foreign_key_get_referenced_columns (fk)[0]);
  if (grammar_column_get_default_value (column) != NULL)
    g_string_append_printf (notes, "default %s  ", grammar_column_get_default_value (column));
  g_strchomp (notes->str);
  notes->len = strlen (notes->str);
  return g_string_free (notes, FALSE);
}

static void
print_table (GrammarTable *table)
{
  GPtrArray *columns = grammar_table_get_columns (table);
  GPtrArray *foreign_keys = grammar_table_get_foreign_keys (table);
  g_auto (GStrv) primary_key = grammar_table_dup_primary_key (table);
  int name_width = 0, type_width = 0;

  printf ("\n%s %s\n", grammar_table_get_is_view (table) ? "VIEW" : "TABLE", grammar_table_get_name (table));
  for (guint i = 0; i < columns->len; i++)
    {
      GrammarColumn *column = g_ptr_array_index (columns, i);
      const char *type = grammar_column_get_declared_type (column);

      name_width = MAX (name_width, (int) g_utf8_strlen (grammar_column_get_name (column), -1));
      type_width = MAX (type_width, (int) strlen (type != NULL ? type : "-"));
    }
  for (guint i = 0; i < columns->len; i++)
    {
      GrammarColumn *column = g_ptr_array_index (columns, i);
      const char *name = grammar_column_get_name (column);
      const char *type = grammar_column_get_declared_type (column);
      g_autofree char *notes = describe_column (table, column);
      int pad = name_width - (int) g_utf8_strlen (name, -1);

      g_autofree char *line = g_strdup_printf ("  %s%*s  %-*s  %s", name, pad, "", type_width,
                                               type != NULL ? type : "-", notes);

      printf ("%s\n", g_strchomp (line));
    }

  if (primary_key[0] != NULL && primary_key[1] != NULL)
    {
      g_autofree char *text = join_columns ((const char * const *) primary_key);

      printf ("  primary key (%s)\n", text);
    }
  for (guint i = 0; i < grammar_table_get_n_unique_constraints (table); i++)
    {
      const char * const *unique = grammar_table_get_unique_constraint (table, i);
      g_autofree char *text = join_columns (unique);

      if (unique[1] != NULL)
        printf ("  unique (%s)\n", text);
    }
  for (guint i = 0; i < foreign_keys->len; i++)
    {
      GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, i);
      const char * const *columns = grammar_foreign_key_get_columns (fk);
      g_autofree char *from = NULL;
      g_autofree char *to = NULL;

      /* A single-column key is shown on its column already. */
      if (columns[1] == NULL)
        continue;
      from = join_columns (columns);
      to = join_columns (grammar_foreign_key_get_referenced_columns (fk));
      printf ("  foreign key (%s) → %s(%s)\n", from, grammar_foreign_key_get_referenced_table (fk), to);
    }
}

static void
print_text (const char    *config_path,
            const char    *section,
            GObject       *database,
            GrammarSchema *schema)
{
  GPtrArray *tables = grammar_schema_get_tables (schema);
  guint n_views = 0;

  for (guint i = 0; i < tables->len; i++)
    n_views += grammar_table_get_is_view (g_ptr_array_index (tables, i)) ? 1 : 0;

  printf ("Database [%s] of %s (%s): %u tables, %u views\n", section, config_path,
          G_OBJECT_TYPE_NAME (database), tables->len - n_views, n_views);
  for (guint i = 0; i < tables->len; i++)
    print_table (g_ptr_array_index (tables, i));
}

int
grammar_cli_schema (int    argc,
                    char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarAssembly) assembly = NULL;
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *section = NULL;
  gboolean as_json = FALSE;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path, "The keyfile describing the components", "FILE" },
    { "section", 's', 0, G_OPTION_ARG_STRING, &section, "The database section (default: database)", "NAME" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, "Print JSON (schemas/schema.schema.json)", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— show the schema of the configured database");
  g_option_context_set_summary (context,
    "Introspects the database of the keyfile's [database] section: tables and views,\n"
    "columns with declared types and nullability, primary keys (composite ones in key\n"
    "order), unique constraints and foreign keys.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "schema", &argc, &argv, &status))
    return status;
  if (argc > 1)
    {
      fprintf (stderr, "grammar schema: unexpected argument “%s”\n", argv[1]);
      return GRAMMAR_EXIT_USAGE;
    }
  assembly = grammar_cli_load_assembly (config_path, &error);
  if (assembly == NULL)
    return grammar_cli_report ("schema", error);
  if (section == NULL)
    section = g_strdup (grammar_assembly_get_section (assembly, GRAMMAR_TYPE_DATABASE));
  database = grammar_assembly_build_database (assembly, section, &error);
  if (database == NULL)
    return grammar_cli_report ("schema", error);
  schema = grammar_database_get_schema (database, NULL, &error);
  if (schema == NULL)
    return grammar_cli_report ("schema", error);

  if (as_json)
    {
      g_autoptr (JsonNode) node = grammar_schema_to_json (schema);

      grammar_cli_print_json (node);
    }
  else
    print_text (config_path, section, G_OBJECT (database), schema);
  return GRAMMAR_EXIT_OK;
}
