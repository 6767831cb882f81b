/* test-sqlite.c: the `sqlite` database plugin, through the registry
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <grammar.h>
#include <sqlite3.h>

#include "grammar-test-util.h"

/* Made in a temporary folder by main(), removed at the end. */
static char *tmp_dir;
static char *fixture_path;   /* database file */
static char *script_path;    /* the same data as SQL text */

static const char fixture_sql[] =
  "CREATE TABLE company (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE,\n"
  "  country\n"
  ");\n"
  "CREATE UNIQUE INDEX company_lower_name ON company (lower(name));\n"
  "CREATE TABLE people (\n"
  "  people_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL,\n"
  "  email TEXT,\n"
  "  height REAL,\n"
  "  photo BLOB\n"
  ");\n"
  "CREATE UNIQUE INDEX people_email ON people (email);\n"
  "CREATE TABLE employment (\n"
  "  company_id INTEGER NOT NULL REFERENCES company,\n"
  "  people_id INTEGER NOT NULL,\n"
  "  year_working INTEGER NOT NULL DEFAULT 1,\n"
  "  PRIMARY KEY (company_id, people_id),\n"
  "  FOREIGN KEY (people_id) REFERENCES people (people_id)\n"
  ");\n"
  "CREATE TABLE \"Odd \"\"Name\"\"\" (\"Order Date\" TEXT, \"say \"\"hi\"\"\" INTEGER);\n"
  "CREATE VIEW employee_names AS\n"
  "  SELECT p.name AS person, c.name AS company\n"
  "  FROM employment e JOIN people p USING (people_id) JOIN company c ON c.id = e.company_id;\n"
  "-- a comment between statements\n"
  "INSERT INTO company VALUES (1, 'Acme', 'FR'), (2, 'Globex', NULL), (3, 'Initech', 'FR');\n"
  "INSERT INTO people VALUES\n"
  "  (1, 'O''Brien', 'ob@example.org', 1.8, x'00ff10'),\n"
  "  (2, '100% sure', NULL, NULL, NULL),\n"
  "  (3, 'under_score', NULL, 1.65, NULL),\n"
  "  (4, 'two' || char(10) || 'lines', NULL, NULL, NULL),\n"
  "  (5, 'Zoë 東京', 'zoe@example.jp', NULL, NULL);\n"
  "INSERT INTO employment VALUES (1, 1, 3), (1, 5, 1), (2, 2, 7), (3, 3, 2);\n"
  "INSERT INTO \"Odd \"\"Name\"\"\" VALUES ('2024-01-02', 1), ('2024-01-02', 2), ('2023-12-31', 3);\n";

static const char * const tricky_names[] = {
  "O'Brien", "100% sure", "under_score", "two\nlines", "Zoë 東京", NULL,
};

static GrammarDatabase *
open_database (GError     **error,
               const char  *first_property,
               ...)
{
  GrammarRegistry *registry = grammar_registry_get_default ();
  g_autoptr (GrammarPluginInfo) info = NULL;
  GrammarDatabase *database;
  va_list properties;

  info = grammar_registry_lookup (registry, GRAMMAR_TYPE_DATABASE, "sqlite", error);
  g_assert_nonnull (info);
  va_start (properties, first_property);
  database = (GrammarDatabase *) g_initable_new_valist (grammar_plugin_info_get_gtype (info), first_property,
                                                        properties, NULL, error);
  va_end (properties);
  return database;
}

static void assert_query_fails (GrammarDatabase *database,
                                const char      *sql,
                                GVariant        *parameters,
                                int              code);

static GrammarDatabase *
open_fixture (void)
{
  g_autoptr (GError) error = NULL;
  GrammarDatabase *database = open_database (&error, "uri", fixture_path, NULL);

  g_assert_no_error (error);
  g_assert_true (GRAMMAR_IS_DATABASE (database));
  return database;
}

static GrammarResult *
query (GrammarDatabase *database,
       const char      *sql,
       GVariant        *parameters)
{
  g_autoptr (GError) error = NULL;
  GrammarResult *result = grammar_database_query (database, sql, parameters, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static gint64
count_rows (GrammarDatabase *database,
            const char      *table)
{
  g_autofree char *quoted = grammar_database_quote_identifier (database, table);
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM %s", quoted);
  g_autoptr (GrammarResult) result = query (database, sql, NULL);

  return g_variant_get_int64 (grammar_result_get_value (result, 0, 0));
}

static void
assert_strv (const char * const *actual,
             const char * const *expected)
{
  g_assert_nonnull (actual);
  g_assert_cmpstrv (actual, expected);
}

/* The registry. */

static void
test_registry (void)
{
  GrammarRegistry *registry = grammar_registry_get_default ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autofree GParamSpec **properties = NULL;
  guint n_properties = 0;
  gboolean seen[3] = { FALSE, };

  info = grammar_registry_lookup (registry, GRAMMAR_TYPE_DATABASE, "sqlite", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_plugin_info_get_name (info), ==, "sqlite");
  g_assert_cmpstr (grammar_plugin_info_get_description (info), ==, "SQLite database file, opened read-only");
  g_assert_true (g_type_is_a (grammar_plugin_info_get_gtype (info), G_TYPE_INITABLE));

  properties = grammar_plugin_info_list_properties (info, &n_properties);
  for (guint i = 0; i < n_properties; i++)
    {
      const char *name = g_param_spec_get_name (properties[i]);

      g_assert_nonnull (g_param_spec_get_blurb (properties[i]));
      if (g_str_equal (name, "uri") || g_str_equal (name, "script"))
        {
          g_assert_true (properties[i]->flags & GRAMMAR_PARAM_PATH);
          seen[g_str_equal (name, "uri") ? 0 : 1] = TRUE;
        }
      else if (g_str_equal (name, "busy-timeout"))
        {
          g_assert_cmpint (G_PARAM_SPEC_INT (properties[i])->default_value, ==, 5000);
          seen[2] = TRUE;
        }
    }
  g_assert_true (seen[0] && seen[1] && seen[2]);
}

/* Introspection. */

static void
test_schema_tables (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (database, NULL, &error);
  const char *expected[] = { "company", "people", "employment", "Odd \"Name\"", "employee_names" };
  GPtrArray *tables;

  g_assert_no_error (error);
  tables = grammar_schema_get_tables (schema);
  g_assert_cmpuint (tables->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < tables->len; i++)
    {
      GrammarTable *table = g_ptr_array_index (tables, i);

      g_assert_cmpstr (grammar_table_get_name (table), ==, expected[i]);
      g_assert_cmpint (grammar_table_get_is_view (table), ==, g_str_equal (expected[i], "employee_names"));
    }
}

static void
test_schema_columns (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (database, NULL, &error);
  GrammarTable *company;
  GrammarTable *employment;
  GrammarColumn *column;

  g_assert_no_error (error);
  company = grammar_schema_get_table (schema, "company");
  g_assert_nonnull (company);
  g_assert_cmpuint (grammar_table_get_columns (company)->len, ==, 3);

  /* An INTEGER PRIMARY KEY is the rowid: never NULL. */
  column = grammar_table_get_column (company, "id");
  g_assert_cmpstr (grammar_column_get_declared_type (column), ==, "INTEGER");
  g_assert_cmpuint (grammar_column_get_primary_key_position (column), ==, 1);
  g_assert_false (grammar_column_get_nullable (column));

  column = grammar_table_get_column (company, "name");
  g_assert_cmpstr (grammar_column_get_declared_type (column), ==, "TEXT");
  g_assert_false (grammar_column_get_nullable (column));
  g_assert_cmpuint (grammar_column_get_primary_key_position (column), ==, 0);

  /* Declared without a type. */
  column = grammar_table_get_column (company, "country");
  g_assert_null (grammar_column_get_declared_type (column));
  g_assert_true (grammar_column_get_nullable (column));

  employment = grammar_schema_get_table (schema, "employment");
  column = grammar_table_get_column (employment, "year_working");
  g_assert_cmpstr (grammar_column_get_default_value (column), ==, "1");
  g_assert_false (grammar_column_get_nullable (column));

  column = grammar_table_get_column (grammar_schema_get_table (schema, "people"), "height");
  g_assert_cmpstr (grammar_column_get_declared_type (column), ==, "REAL");
  g_assert_true (grammar_column_get_nullable (column));
}

static void
test_schema_keys (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (database, NULL, &error);
  const char * const composite[] = { "company_id", "people_id", NULL };
  const char * const company_name[] = { "name", NULL };
  const char * const people_email[] = { "email", NULL };
  const char * const company_id[] = { "company_id", NULL };
  const char * const id[] = { "id", NULL };
  const char * const people_id[] = { "people_id", NULL };
  g_auto (GStrv) primary_key = NULL;
  GrammarTable *company, *people, *employment;
  GPtrArray *foreign_keys;

  g_assert_no_error (error);
  company = grammar_schema_get_table (schema, "company");
  people = grammar_schema_get_table (schema, "people");
  employment = grammar_schema_get_table (schema, "employment");

  /* The composite key, in key order. */
  primary_key = grammar_table_dup_primary_key (employment);
  assert_strv ((const char * const *) primary_key, composite);
  g_assert_true (grammar_table_is_unique_key (employment, composite));
  g_assert_false (grammar_table_is_unique_key (employment, company_id));

  /* UNIQUE in the table, but not the index over an expression. */
  g_assert_cmpuint (grammar_table_get_n_unique_constraints (company), ==, 1);
  assert_strv (grammar_table_get_unique_constraint (company, 0), company_name);
  g_assert_true (grammar_table_is_unique_key (company, company_name));

  /* A unique index made apart from the table. */
  g_assert_cmpuint (grammar_table_get_n_unique_constraints (people), ==, 1);
  assert_strv (grammar_table_get_unique_constraint (people, 0), people_email);

  /* Two foreign keys; the one to company names no column, so it means company's primary key. */
  foreign_keys = grammar_table_get_foreign_keys (employment);
  g_assert_cmpuint (foreign_keys->len, ==, 2);
  /* In declaration order (SQLite numbers them from the last). */
  g_assert_cmpstr (grammar_foreign_key_get_referenced_table (g_ptr_array_index (foreign_keys, 0)), ==, "company");
  g_assert_cmpstr (grammar_foreign_key_get_referenced_table (g_ptr_array_index (foreign_keys, 1)), ==, "people");
  for (guint i = 0; i < foreign_keys->len; i++)
    {
      GrammarForeignKey *key = g_ptr_array_index (foreign_keys, i);
      const char *parent = grammar_foreign_key_get_referenced_table (key);

      if (g_str_equal (parent, "company"))
        {
          assert_strv (grammar_foreign_key_get_columns (key), company_id);
          assert_strv (grammar_foreign_key_get_referenced_columns (key), id);
        }
      else
        {
          g_assert_cmpstr (parent, ==, "people");
          assert_strv (grammar_foreign_key_get_columns (key), people_id);
          assert_strv (grammar_foreign_key_get_referenced_columns (key), people_id);
        }
    }
  g_assert_cmpuint (grammar_table_get_foreign_keys (company)->len, ==, 0);
}

static void
test_schema_view (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (database, NULL, &error);
  g_autoptr (GrammarResult) result = NULL;
  g_auto (GStrv) primary_key = NULL;
  GrammarTable *view;
  GPtrArray *columns;

  g_assert_no_error (error);
  view = grammar_schema_get_table (schema, "employee_names");
  g_assert_true (grammar_table_get_is_view (view));
  columns = grammar_table_get_columns (view);
  g_assert_cmpuint (columns->len, ==, 2);
  g_assert_cmpstr (grammar_column_get_name (g_ptr_array_index (columns, 0)), ==, "person");
  g_assert_cmpstr (grammar_column_get_name (g_ptr_array_index (columns, 1)), ==, "company");
  primary_key = grammar_table_dup_primary_key (view);
  g_assert_null (primary_key[0]);

  result = query (database, "SELECT company FROM employee_names WHERE person = ?", g_variant_new ("(s)", "Zoë 東京"));
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 1);
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 0), NULL), ==, "Acme");
}

static char *
make_database (const char *name,
               const char *sql)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("cannot make %s: %s", name, message);
  g_assert_cmpint (sqlite3_close (db), ==, SQLITE_OK);
  return path;
}

static void
test_schema_broken_view (void)
{
  g_autofree char *path = make_database ("broken-view.db",
                                         "CREATE TABLE a (x);\n"
                                         "CREATE VIEW v AS SELECT x FROM a;\n"
                                         "CREATE TABLE b (y TEXT);\n"
                                         "DROP TABLE a;\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = open_database (&error, "uri", path, NULL);
  g_autoptr (GrammarSchema) schema = NULL;

  g_assert_no_error (error);

  /* The view cannot be read any more; the table still can. */
  g_test_expect_message ("Grammar-SQLite", G_LOG_LEVEL_MESSAGE, "*view “v”*no such table*");
  schema = grammar_database_get_schema (database, NULL, &error);
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_schema_get_tables (schema)->len, ==, 1);
  g_assert_nonnull (grammar_schema_get_table (schema, "b"));
}

static void
test_schema_virtual_table (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarResult) result = NULL;
  g_autofree char *path = NULL;

  if (!sqlite3_compileoption_used ("ENABLE_FTS5"))
    {
      g_test_skip ("SQLite without FTS5");
      return;
    }

  path = make_database ("fts.db",
                        "CREATE VIRTUAL TABLE notes USING fts5 (body);\n"
                        "INSERT INTO notes VALUES ('the quick brown fox'), ('lazy dogs');\n"
                        "CREATE TABLE plain (id INTEGER PRIMARY KEY);\n");
  database = open_database (&error, "uri", path, NULL);
  g_assert_no_error (error);

  /* Queried first, the table connects while user queries are held to reading. */
  result = query (database, "SELECT body FROM notes WHERE notes MATCH ?", g_variant_new ("(s)", "fox"));
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 1);
  assert_query_fails (database, "INSERT INTO notes VALUES ('x')", NULL, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY);
  assert_query_fails (database, "INSERT INTO notes (notes) VALUES ('optimize')", NULL,
                      GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY);

  /* The full-text index's own tables are storage, not data. */
  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_schema_get_tables (schema)->len, ==, 2);
  g_assert_nonnull (grammar_schema_get_table (schema, "notes"));
  g_assert_nonnull (grammar_schema_get_table (schema, "plain"));
}

/* Values. */

static void
test_bound_text_round_trip (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();

  for (guint i = 0; tricky_names[i] != NULL; i++)
    {
      g_autoptr (GrammarResult) found = NULL;
      g_autoptr (GrammarResult) echoed = NULL;

      found = query (database, "SELECT people_id, name FROM people WHERE name = ?1",
                     g_variant_new ("(s)", tricky_names[i]));
      g_assert_cmpuint (grammar_result_get_n_rows (found), ==, 1);
      g_assert_cmpint (g_variant_get_int64 (grammar_result_get_value (found, 0, 0)), ==, i + 1);
      g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (found, 0, 1), NULL), ==, tricky_names[i]);

      echoed = query (database, "SELECT ?", g_variant_new ("(s)", tricky_names[i]));
      g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (echoed, 0, 0), NULL), ==, tricky_names[i]);
    }
}

static void
test_value_types (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  GVariant *value;
  gsize size = 0;
  const guchar *bytes;

  result = query (database, "SELECT NULL AS n, 42 AS i, 2.5 AS r, 'text' AS t, x'00ff10' AS b, x'' AS e", NULL);
  g_assert_cmpuint (grammar_result_get_n_columns (result), ==, 6);
  g_assert_cmpstr (grammar_result_get_column_name (result, 0), ==, "n");
  g_assert_cmpstr (grammar_result_get_column_name (result, 4), ==, "b");

  g_assert_null (grammar_result_get_value (result, 0, 0));
  value = grammar_result_get_value (result, 0, 1);
  g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64));
  g_assert_cmpint (g_variant_get_int64 (value), ==, 42);
  value = grammar_result_get_value (result, 0, 2);
  g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE));
  g_assert_cmpfloat (g_variant_get_double (value), ==, 2.5);
  value = grammar_result_get_value (result, 0, 3);
  g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING));
  value = grammar_result_get_value (result, 0, 4);
  g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING));
  bytes = g_variant_get_fixed_array (value, &size, 1);
  g_assert_cmpmem (bytes, size, "\x00\xff\x10", 3);
  value = grammar_result_get_value (result, 0, 5);
  g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING));
  g_assert_cmpuint (g_variant_n_children (value), ==, 0);
}

static void
test_stored_value_types (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  gsize size = 0;
  const guchar *bytes;

  result = query (database, "SELECT height, photo, email FROM people WHERE people_id IN (1, 2) ORDER BY people_id", NULL);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 2);
  g_assert_cmpfloat (g_variant_get_double (grammar_result_get_value (result, 0, 0)), ==, 1.8);
  bytes = g_variant_get_fixed_array (grammar_result_get_value (result, 0, 1), &size, 1);
  g_assert_cmpmem (bytes, size, "\x00\xff\x10", 3);
  g_assert_null (grammar_result_get_value (result, 1, 0));
  g_assert_null (grammar_result_get_value (result, 1, 1));
  g_assert_null (grammar_result_get_value (result, 1, 2));
}

static void
test_invalid_utf8 (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  const char *text;

  /* TEXT holding bytes that are not UTF-8, and a NUL byte. */
  result = query (database, "SELECT CAST(x'ff41' AS TEXT), CAST(x'410042' AS TEXT)", NULL);
  text = g_variant_get_string (grammar_result_get_value (result, 0, 0), NULL);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_cmpstr (text, ==, "\xef\xbf\xbd" "A");
  text = g_variant_get_string (grammar_result_get_value (result, 0, 1), NULL);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_cmpstr (text, ==, "A\xef\xbf\xbd" "B");
}

static void
test_bind_types (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  g_autoptr (GVariantBuilder) builder = g_variant_builder_new (G_VARIANT_TYPE ("av"));
  const guchar blob[] = { 0x00, 0xff, 0x10 };
  gsize size = 0;
  const guchar *bytes;

  result = query (database,
                  "SELECT typeof(?1), ?1, typeof(?2), ?2, typeof(?3), typeof(?4), typeof(?5), ?5, typeof(?6), typeof(?7), ?8",
                  g_variant_new ("(xdsbmsu@ayt)", (gint64) -7, 0.25, "s", TRUE, NULL, (guint32) 4000000000u,
                                 g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, blob, sizeof blob, 1),
                                 (guint64) 12));
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 0), NULL), ==, "integer");
  g_assert_cmpint (g_variant_get_int64 (grammar_result_get_value (result, 0, 1)), ==, -7);
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 2), NULL), ==, "real");
  g_assert_cmpfloat (g_variant_get_double (grammar_result_get_value (result, 0, 3)), ==, 0.25);
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 4), NULL), ==, "text");
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 5), NULL), ==, "integer");
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 6), NULL), ==, "null");
  g_assert_null (grammar_result_get_value (result, 0, 7));
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 8), NULL), ==, "integer");
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 9), NULL), ==, "blob");
  g_assert_cmpint (g_variant_get_int64 (grammar_result_get_value (result, 0, 10)), ==, 12);
  g_clear_object (&result);

  /* The `av` form, and a blob that finds its row. */
  g_variant_builder_add (builder, "v", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, blob, sizeof blob, 1));
  g_variant_builder_add (builder, "v", g_variant_new_int32 (1));
  result = query (database, "SELECT name, photo FROM people WHERE photo = ? AND people_id = ?",
                  g_variant_builder_end (builder));
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 1);
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 0), NULL), ==, "O'Brien");
  bytes = g_variant_get_fixed_array (grammar_result_get_value (result, 0, 1), &size, 1);
  g_assert_cmpmem (bytes, size, blob, sizeof blob);
}

static void
assert_query_fails (GrammarDatabase *database,
                    const char      *sql,
                    GVariant        *parameters,
                    int              code)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autoptr (GVariant) owned = parameters != NULL ? g_variant_ref_sink (parameters) : NULL;

  cursor = grammar_database_query_cursor (database, sql, parameters, NULL, &error);
  if (g_test_verbose () && error != NULL)
    g_test_message ("%s → %s", sql, error->message);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, code);
  g_assert_null (cursor);
}

static void
test_bind_errors (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarCursor) cursor = NULL;

  assert_query_fails (database, "SELECT ?1, ?2", g_variant_new ("(i)", 1), GRAMMAR_DATABASE_ERROR_BIND);
  assert_query_fails (database, "SELECT ?1", g_variant_new ("(ii)", 1, 2), GRAMMAR_DATABASE_ERROR_BIND);
  assert_query_fails (database, "SELECT ?1", NULL, GRAMMAR_DATABASE_ERROR_BIND);
  assert_query_fails (database, "SELECT 1", g_variant_new ("(s)", "x"), GRAMMAR_DATABASE_ERROR_BIND);
  assert_query_fails (database, "SELECT ?1", g_variant_new ("(o)", "/a"), GRAMMAR_DATABASE_ERROR_BIND);
  assert_query_fails (database, "SELECT ?1", g_variant_new ("(ai)", NULL), GRAMMAR_DATABASE_ERROR_BIND);
  assert_query_fails (database, "SELECT ?1", g_variant_new ("(t)", G_MAXUINT64), GRAMMAR_DATABASE_ERROR_BIND);
  assert_query_fails (database, "SELECT ?1", g_variant_new_string ("bare"), GRAMMAR_DATABASE_ERROR_BIND);

  /* The message names the parameter. */
  cursor = grammar_database_query_cursor (database, "SELECT ?1, ?2", g_variant_new ("(sh)", "a", 0), NULL, &error);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND);
  g_assert_nonnull (strstr (error->message, "?2"));
  g_clear_error (&error);
  cursor = grammar_database_query_cursor (database, "SELECT ?1, ?2", g_variant_new ("(s)", "a"), NULL, &error);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND);
  g_assert_nonnull (strstr (error->message, "?2"));
}

/* Distinct values. */

static gboolean
result_has_text (GrammarResult *result,
                 const char    *text)
{
  for (guint i = 0; i < grammar_result_get_n_rows (result); i++)
    {
      GVariant *value = grammar_result_get_value (result, i, 0);

      if (text == NULL ? value == NULL
                       : value != NULL && g_strcmp0 (g_variant_get_string (value, NULL), text) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
test_distinct_values (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarResult) countries = NULL;
  g_autoptr (GrammarResult) dates = NULL;
  g_autoptr (GrammarResult) quoted = NULL;

  countries = grammar_database_distinct_values (database, "company", "country", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_result_get_n_rows (countries), ==, 2);
  g_assert_true (result_has_text (countries, "FR"));
  g_assert_true (result_has_text (countries, NULL));

  /* Names that only work quoted. */
  dates = grammar_database_distinct_values (database, "Odd \"Name\"", "Order Date", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_result_get_n_rows (dates), ==, 2);
  g_assert_true (result_has_text (dates, "2024-01-02"));
  g_assert_true (result_has_text (dates, "2023-12-31"));

  quoted = grammar_database_distinct_values (database, "Odd \"Name\"", "say \"hi\"", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_result_get_n_rows (quoted), ==, 3);
}

static void
test_unknown_names (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarResult) result = NULL;

  result = grammar_database_distinct_values (database, "nope", "name", NULL, &error);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NO_SUCH_TABLE);
  g_assert_null (result);
  g_clear_error (&error);

  result = grammar_database_distinct_values (database, "people", "nope", NULL, &error);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NO_SUCH_COLUMN);
  g_assert_null (result);
  g_clear_error (&error);

  /* A query naming what does not exist does not compile. */
  assert_query_fails (database, "SELECT * FROM nope", NULL, GRAMMAR_DATABASE_ERROR_SYNTAX);
  assert_query_fails (database, "SELECT nope FROM people", NULL, GRAMMAR_DATABASE_ERROR_SYNTAX);
  assert_query_fails (database, "SELECT FROM WHERE", NULL, GRAMMAR_DATABASE_ERROR_SYNTAX);
  assert_query_fails (database, "  -- nothing\n", NULL, GRAMMAR_DATABASE_ERROR_SYNTAX);
}

/* Safety. */

static void
test_refusals (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *attach = g_strdup_printf ("ATTACH '%s' AS other", fixture_path);
  g_autofree char *attach_select = g_strdup_printf ("SELECT * FROM people; ATTACH '%s' AS other", fixture_path);
  g_autofree char *other_path = g_build_filename (tmp_dir, "vacuumed.db", NULL);
  g_autofree char *vacuum = g_strdup_printf ("VACUUM INTO '%s'", other_path);
  const struct
  {
    const char *sql;
    int code;
  } refused[] = {
    { "DROP TABLE people", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "DROP TABLE no_such_table", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1; DELETE FROM people", GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS },
    { "SELECT 1; SELECT 2", GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS },
    { "SELECT 1; garbage", GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS },
    { "PRAGMA writable_schema=1", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "PRAGMA table_info(people)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "INSERT INTO people (name) VALUES ('x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "UPDATE people SET name = 'x'", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "DELETE FROM employment", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "CREATE TABLE t (a)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "CREATE TEMP TABLE t (a)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { attach, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { attach_select, GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS },
    { "DETACH main", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { vacuum, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "BEGIN", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "EXPLAIN SELECT 1", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH x AS (SELECT 1) DELETE FROM people", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH x AS (SELECT 1) INSERT INTO company (name) SELECT 'x' FROM x", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT load_extension('libc')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "/* hidden */ DROP TABLE people", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_query_fails (database, refused[i].sql, NULL, refused[i].code);

  /* Pragma functions run their pragma when stepped: refused then. */
  {
    g_autoptr (GrammarResult) result = NULL;

    result = grammar_database_query (database, "SELECT * FROM pragma_table_info('people')", NULL, NULL, &error);
    g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY);
    g_assert_null (result);
    g_clear_error (&error);
  }

  /* Nothing changed, and no file was written. */
  g_assert_false (g_file_test (other_path, G_FILE_TEST_EXISTS));
  g_assert_cmpint (count_rows (database, "people"), ==, 5);
  g_assert_cmpint (count_rows (database, "employment"), ==, 4);
  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_schema_get_tables (schema)->len, ==, 5);
  g_clear_object (&schema);

  /* Not the cached schema: a fresh connection reads the file again. */
  g_clear_object (&database);
  database = open_fixture ();
  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_schema_get_tables (schema)->len, ==, 5);
  g_assert_cmpint (count_rows (database, "people"), ==, 5);
}

/* Compiling without running: the refusals of a query, and the parameter count. */
static void
test_check_query (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  g_autoptr (GError) error = NULL;
  const struct
  {
    const char *sql;
    guint n_parameters;
  } accepted[] = {
    { "SELECT 1", 0 },
    { "SELECT name FROM people WHERE name = ?1 OR email = ?1;", 1 },
    { "SELECT name FROM people WHERE name = ? AND email = ?", 2 },
    { "-- why\nWITH x(n) AS (SELECT ?1) SELECT n FROM x WHERE n = ?2", 2 },
  };
  const struct
  {
    const char *sql;
    int code;
  } refused[] = {
    { "DELETE FROM people WHERE name = ?", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "DROP TABLE people", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "UPDATE people SET name = ?1", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH x AS (SELECT 1) DELETE FROM people", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1; DELETE FROM people", GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS },
    { "SELECT name FROM people WHERE", GRAMMAR_DATABASE_ERROR_SYNTAX },
    { "SELECT nope FROM people", GRAMMAR_DATABASE_ERROR_SYNTAX },
    { "", GRAMMAR_DATABASE_ERROR_SYNTAX },
  };

  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      guint n_parameters = 99;

      g_assert_true (grammar_database_check_query (database, accepted[i].sql, &n_parameters, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (n_parameters, ==, accepted[i].n_parameters);
    }
  g_assert_true (grammar_database_check_query (database, "SELECT 1", NULL, &error));

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      guint n_parameters = 99;

      g_assert_false (grammar_database_check_query (database, refused[i].sql, &n_parameters, &error));
      g_assert_error (error, GRAMMAR_DATABASE_ERROR, refused[i].code);
      g_assert_cmpuint (n_parameters, ==, 99);
      g_clear_error (&error);
    }

  /* Only compiled: an error that stepping raises is not seen. */
  g_assert_true (grammar_database_check_query (database, "SELECT abs(-9223372036854775807 - 1)", NULL, &error));
  result = grammar_database_query (database, "SELECT abs(-9223372036854775807 - 1)", NULL, NULL, &error);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_QUERY);
  g_assert_null (result);
  g_assert_cmpint (count_rows (database, "people"), ==, 5);
}

/* A runaway statement stops at query-timeout with an error naming it,
 * and the connection goes on; a value longer than max-value-bytes is
 * refused before SQLite makes it. */
static void
test_limits (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = open_database (&error, "uri", fixture_path, "query-timeout", 1u,
                                                        "max-value-bytes", 1000u, NULL);
  g_autoptr (GrammarResult) result = NULL;
  gint64 start = g_get_monotonic_time ();
  gint64 elapsed;

  g_assert_no_error (error);
  result = grammar_database_query (database,
                                   "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) "
                                   "SELECT count(*) FROM c, people WHERE people.name = ?1",
                                   g_variant_new_parsed ("('Ada',)"), NULL, &error);
  elapsed = g_get_monotonic_time () - start;
  g_assert_null (result);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT);
  g_assert_cmpstr (error->message, ==, "query-timeout=1 s exceeded: the statement was stopped");
  g_assert_cmpint (elapsed, >=, G_USEC_PER_SEC);
  g_assert_cmpint (elapsed, <, 10 * G_USEC_PER_SEC);
  g_clear_error (&error);
  g_assert_cmpint (count_rows (database, "people"), ==, 5);

  result = grammar_database_query (database, "SELECT randomblob(1001)", NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT);
  grammar_test_assert_contains (error->message, "max-value-bytes=1000 exceeded");
  g_clear_error (&error);
  result = grammar_database_query (database, "SELECT randomblob(1000)", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
}

static void
test_accepted_forms (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  const char * const accepted[] = {
    "SELECT 1;",
    "SELECT 1 ;  ",
    "SELECT 1; -- the end",
    "SELECT 1 /* inline */ ; /* trailing */",
    "SELECT 1;;",
    "; SELECT 1",
    "-- leading comment\nSELECT 1",
    "  /* leading */ select 1",
    "WITH x(n) AS (SELECT 1) SELECT n FROM x",
    "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1) SELECT max(n) FROM c",
    "VALUES (1)",
  };

  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autoptr (GrammarResult) result = query (database, accepted[i], NULL);

      g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 1);
      g_assert_cmpint (g_variant_get_int64 (grammar_result_get_value (result, 0, 0)), ==, 1);
    }
}

static void
test_cursor (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarCursor) cursor = NULL;
  guint rows = 0;

  cursor = grammar_database_query_cursor (database, "SELECT name AS who FROM people ORDER BY people_id", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_cursor_get_n_columns (cursor), ==, 1);
  g_assert_cmpstr (grammar_cursor_get_column_name (cursor, 0), ==, "who");
  while (grammar_cursor_next (cursor, NULL, &error))
    {
      g_autoptr (GVariant) value = grammar_cursor_get_value (cursor, 0);

      g_assert_cmpstr (g_variant_get_string (value, NULL), ==, tricky_names[rows]);
      rows++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (rows, ==, 5);

  /* A finished cursor stays finished rather than running the query again. */
  g_assert_false (grammar_cursor_next (cursor, NULL, &error));
  g_assert_no_error (error);

  /* The cursor keeps the database alive. */
  g_clear_object (&cursor);
  cursor = grammar_database_query_cursor (database, "SELECT 7", NULL, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&database);
  g_assert_true (grammar_cursor_next (cursor, NULL, &error));
  g_assert_no_error (error);
}

static gpointer
cancel_soon (gpointer data)
{
  g_usleep (100 * G_TIME_SPAN_MILLISECOND);
  g_cancellable_cancel (data);
  return NULL;
}

static void
test_cancel (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autoptr (GrammarResult) result = NULL;
  GThread *thread;

  /* Long enough to still run when the cancellable fires. */
  cursor = grammar_database_query_cursor (database,
                                          "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5000000000)"
                                          " SELECT count(*) FROM c",
                                          NULL, cancellable, &error);
  g_assert_no_error (error);
  thread = g_thread_new ("cancel", cancel_soon, cancellable);
  g_assert_false (grammar_cursor_next (cursor, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_thread_join (thread);
  g_clear_error (&error);

  /* Other statements are not affected. */
  result = query (database, "SELECT 1", NULL);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 1);
}

/* Asynchronous queries. */

typedef struct
{
  GMainLoop *loop;
  guint pending;
  GPtrArray *results;
  GError *error;
} AsyncData;

static void
query_done (GObject      *source,
            GAsyncResult *async_result,
            gpointer      user_data)
{
  AsyncData *data = user_data;
  GrammarResult *result = grammar_database_query_finish (GRAMMAR_DATABASE (source), async_result,
                                                          data->error == NULL ? &data->error : NULL);

  if (result != NULL)
    g_ptr_array_add (data->results, result);
  if (--data->pending == 0)
    g_main_loop_quit (data->loop);
}

static void
schema_done (GObject      *source,
             GAsyncResult *async_result,
             gpointer      user_data)
{
  AsyncData *data = user_data;
  GrammarSchema *schema = grammar_database_get_schema_finish (GRAMMAR_DATABASE (source), async_result,
                                                               data->error == NULL ? &data->error : NULL);

  if (schema != NULL)
    g_ptr_array_add (data->results, schema);
  if (--data->pending == 0)
    g_main_loop_quit (data->loop);
}

static void
test_async (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  AsyncData data = { loop, 0, results, NULL };

  for (guint i = 0; tricky_names[i] != NULL; i++)
    {
      grammar_database_query_async (database, "SELECT people_id FROM people WHERE name = ?",
                                    g_variant_new ("(s)", tricky_names[i]), NULL, query_done, &data);
      data.pending++;
    }
  grammar_database_get_schema_async (database, NULL, schema_done, &data);
  data.pending++;
  g_main_loop_run (loop);

  g_assert_no_error (data.error);
  g_assert_cmpuint (results->len, ==, 6);
  for (guint i = 0; i < results->len; i++)
    {
      GObject *object = g_ptr_array_index (results, i);

      if (GRAMMAR_IS_RESULT (object))
        g_assert_cmpuint (grammar_result_get_n_rows (GRAMMAR_RESULT (object)), ==, 1);
      else
        g_assert_cmpuint (grammar_schema_get_tables (GRAMMAR_SCHEMA (object))->len, ==, 5);
    }
}

static void
test_async_error (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  AsyncData data = { loop, 1, results, NULL };

  grammar_database_query_async (database, "DELETE FROM people", NULL, NULL, query_done, &data);
  g_main_loop_run (loop);
  g_assert_error (data.error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY);
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_error (&data.error);
}

/* The script= mode. */

static void
test_script (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = open_database (&error, "script", script_path, NULL);
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarResult) result = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *script = NULL;

  g_assert_no_error (error);
  g_object_get (database, "uri", &uri, "script", &script, NULL);
  g_assert_null (uri);
  g_assert_cmpstr (script, ==, script_path);

  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_schema_get_tables (schema)->len, ==, 5);
  g_assert_cmpuint (grammar_table_get_foreign_keys (grammar_schema_get_table (schema, "employment"))->len, ==, 2);

  result = query (database, "SELECT person FROM employee_names WHERE company = ? ORDER BY person",
                  g_variant_new ("(s)", "Acme"));
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 2);
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 0), NULL), ==, "O'Brien");

  /* Loaded, it is as read-only as a file. */
  assert_query_fails (database, "INSERT INTO company (name) VALUES ('x')", NULL, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY);
  assert_query_fails (database, "DROP VIEW employee_names", NULL, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY);
  assert_query_fails (database, "PRAGMA query_only=0", NULL, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY);
  assert_query_fails (database, "SELECT 1; UPDATE people SET name = ''", NULL,
                      GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS);
  g_assert_cmpint (count_rows (database, "company"), ==, 3);
}

static void
assert_open_fails (const char *property,
                   const char *value,
                   const char *mentioned)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = open_database (&error, property, value, NULL);

  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  g_assert_null (database);
  if (g_test_verbose ())
    g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, mentioned));
}

static void
test_script_errors (void)
{
  g_autofree char *bad = grammar_test_write_file (tmp_dir, "bad.sql", "CREATE TABLE t (a);\n\n  INSERT INTO nope VALUES (1);\n");
  g_autofree char *attach_path = g_build_filename (tmp_dir, "attached.db", NULL);
  g_autofree char *attach_sql = g_strdup_printf ("ATTACH '%s' AS other;\nCREATE TABLE other.t (a);\n", attach_path);
  g_autofree char *attach = grammar_test_write_file (tmp_dir, "attach.sql", attach_sql);
  g_autofree char *vacuum_path = g_build_filename (tmp_dir, "vacuumed.db", NULL);
  g_autofree char *vacuum_sql = g_strdup_printf ("CREATE TABLE t (a);\nVACUUM INTO '%s';\n", vacuum_path);
  g_autofree char *vacuum = grammar_test_write_file (tmp_dir, "vacuum.sql", vacuum_sql);
  g_autofree char *open = grammar_test_write_file (tmp_dir, "open.sql", "BEGIN;\nCREATE TABLE t (a);\n");
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.sql", NULL);

  /* The file, the line and SQLite's words. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GrammarDatabase) database = open_database (&error, "script", bad, NULL);

    g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
    g_assert_nonnull (strstr (error->message, bad));
    g_assert_nonnull (strstr (error->message, "line 3"));
    g_assert_nonnull (strstr (error->message, "no such table"));
  }

  /* A script stays inside its private database. */
  assert_open_fails ("script", attach, attach);
  g_assert_false (g_file_test (attach_path, G_FILE_TEST_EXISTS));
  assert_open_fails ("script", vacuum, vacuum);
  g_assert_false (g_file_test (vacuum_path, G_FILE_TEST_EXISTS));

  assert_open_fails ("script", open, open);
  assert_open_fails ("script", missing, missing);
}

/* Opening. */

static void
test_open_errors (void)
{
  g_autofree char *missing = g_build_filename (tmp_dir, "no", "such.db", NULL);
  g_autofree char *text = g_strnfill (4096, 'x');
  g_autofree char *not_database = grammar_test_write_file (tmp_dir, "not-a-database.db", text);
  g_autofree char *missing_uri = g_strconcat ("file:", missing, "?mode=ro", NULL);

  assert_open_fails ("uri", missing, missing);
  assert_open_fails ("uri", missing_uri, missing);
  assert_open_fails ("uri", not_database, not_database);
  assert_open_fails ("uri", tmp_dir, tmp_dir);

  /* No file appeared: opening never creates. */
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

static void
test_open_uri (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *uri = g_strconcat ("file:", fixture_path, "?immutable=1", NULL);
  g_autoptr (GrammarDatabase) database = open_database (&error, "uri", uri, "busy-timeout", 100, NULL);
  g_autoptr (GrammarDatabase) writable = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (count_rows (database, "people"), ==, 5);

  /* A URI cannot ask for more than read-only. */
  g_clear_pointer (&uri, g_free);
  uri = g_strconcat ("file:", fixture_path, "?mode=rw", NULL);
  writable = open_database (&error, "uri", uri, NULL);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  g_assert_null (writable);
}

static void
test_source_required (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) both = NULL;
  g_autoptr (GrammarDatabase) neither = NULL;

  both = open_database (&error, "uri", fixture_path, "script", script_path, NULL);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, "exclude"));
  g_assert_null (both);
  g_clear_error (&error);

  neither = open_database (&error, NULL);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, "uri="));
  g_assert_null (neither);
}

/* Fixtures. */

static void
make_fixtures (void)
{
  tmp_dir = grammar_test_make_tmp_dir ("grammar-sqlite-XXXXXX");

  fixture_path = make_database ("fixture.db", fixture_sql);
  script_path = grammar_test_write_file (tmp_dir, "fixture.sql", fixture_sql);
}

static void
remove_fixtures (void)
{
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  g_free (fixture_path);
  g_free (script_path);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  make_fixtures ();

  g_test_add_func ("/sqlite/registry", test_registry);
  g_test_add_func ("/sqlite/schema/tables", test_schema_tables);
  g_test_add_func ("/sqlite/schema/columns", test_schema_columns);
  g_test_add_func ("/sqlite/schema/keys", test_schema_keys);
  g_test_add_func ("/sqlite/schema/view", test_schema_view);
  g_test_add_func ("/sqlite/schema/broken-view", test_schema_broken_view);
  g_test_add_func ("/sqlite/schema/virtual-table", test_schema_virtual_table);
  g_test_add_func ("/sqlite/values/bound-text", test_bound_text_round_trip);
  g_test_add_func ("/sqlite/values/types", test_value_types);
  g_test_add_func ("/sqlite/values/stored-types", test_stored_value_types);
  g_test_add_func ("/sqlite/values/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/sqlite/bind/types", test_bind_types);
  g_test_add_func ("/sqlite/bind/errors", test_bind_errors);
  g_test_add_func ("/sqlite/distinct-values", test_distinct_values);
  g_test_add_func ("/sqlite/unknown-names", test_unknown_names);
  g_test_add_func ("/sqlite/safety/refusals", test_refusals);
  g_test_add_func ("/sqlite/safety/accepted", test_accepted_forms);
  g_test_add_func ("/sqlite/limits", test_limits);
  g_test_add_func ("/sqlite/check-query", test_check_query);
  g_test_add_func ("/sqlite/cursor", test_cursor);
  g_test_add_func ("/sqlite/cancel", test_cancel);
  g_test_add_func ("/sqlite/async/query", test_async);
  g_test_add_func ("/sqlite/async/error", test_async_error);
  g_test_add_func ("/sqlite/script/load", test_script);
  g_test_add_func ("/sqlite/script/errors", test_script_errors);
  g_test_add_func ("/sqlite/open/errors", test_open_errors);
  g_test_add_func ("/sqlite/open/uri", test_open_uri);
  g_test_add_func ("/sqlite/open/source-required", test_source_required);

  status = g_test_run ();
  remove_fixtures ();
  return status;
}
