/* test-postgres.c: the `postgres` database plugin, against a real server
 *
 * Run through tests/servers/with-server.py with the fixture
 * tests/servers/postgres-types.sql, which starts a throwaway server and
 * says where it is in GRAMMAR_TEST_DB_*. Without those variables every
 * test is skipped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <glib-object.h>
#include <gobject/gvaluecollector.h>
#include <grammar.h>

#include "grammar-test-util.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
/* Heap in use: under AddressSanitizer, freed memory waits in a
 * quarantine, which makes the process's peak RSS meaningless. */
size_t __sanitizer_get_current_allocated_bytes (void);
#endif

#define PASSWORD_ENV "GRAMMAR_TEST_DB_PASSWORD"

static const char *
server_env (const char *name)
{
  const char *value = g_getenv (name);

  g_assert_nonnull (value);
  return value;
}

static guint
server_port (void)
{
  return (guint) g_ascii_strtoull (server_env ("GRAMMAR_TEST_DB_PORT"), NULL, 10);
}

static GType
postgres_type (void)
{
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autoptr (GError) error = NULL;

  info = grammar_registry_lookup (grammar_registry_get_default (), GRAMMAR_TYPE_DATABASE, "postgres", &error);
  g_assert_no_error (error);
  return grammar_plugin_info_get_gtype (info);
}

/* The database of the test server over TCP, with the properties given
 * after the connection's (later ones win). */
static GrammarDatabase *
open_database (GError     **error,
               const char  *first_property,
               ...)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
  GObjectClass *klass = g_type_class_ref (postgres_type ());
  const char *name;
  va_list args;
  GObject *object;

  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);

#define SET(prop, gtype, setter, v) G_STMT_START { \
    GValue value = G_VALUE_INIT; \
    g_value_init (&value, gtype); \
    setter (&value, v); \
    g_ptr_array_add (names, (gpointer) prop); \
    g_array_append_val (values, value); \
  } G_STMT_END
  SET ("host", G_TYPE_STRING, g_value_set_string, server_env ("GRAMMAR_TEST_DB_HOST"));
  SET ("port", G_TYPE_UINT, g_value_set_uint, server_port ());
  SET ("database", G_TYPE_STRING, g_value_set_string, server_env ("GRAMMAR_TEST_DB_NAME"));
  SET ("user", G_TYPE_STRING, g_value_set_string, server_env ("GRAMMAR_TEST_DB_USER"));
  SET ("password-env", G_TYPE_STRING, g_value_set_string, PASSWORD_ENV);
#undef SET

  va_start (args, first_property);
  for (name = first_property; name != NULL; name = va_arg (args, const char *))
    {
      GParamSpec *pspec = g_object_class_find_property (klass, name);
      GValue value = G_VALUE_INIT;
      g_autofree char *message = NULL;

      guint index;

      g_assert_nonnull (pspec);
      G_VALUE_COLLECT_INIT (&value, pspec->value_type, args, 0, &message);
      g_assert_null (message);
      /* A construct-only property may be given once only. */
      if (g_ptr_array_find_with_equal_func (names, name, g_str_equal, &index))
        {
          g_value_unset (&g_array_index (values, GValue, index));
          g_array_index (values, GValue, index) = value;
          continue;
        }
      g_ptr_array_add (names, (gpointer) name);
      g_array_append_val (values, value);
    }
  va_end (args);

  object = g_object_new_with_properties (G_OBJECT_CLASS_TYPE (klass), names->len,
                                         (const char **) names->pdata, (const GValue *) values->data);
  g_type_class_unref (klass);
  if (!g_initable_init (G_INITABLE (object), NULL, error))
    {
      g_object_unref (object);
      return NULL;
    }
  return GRAMMAR_DATABASE (object);
}

static GrammarDatabase *
open_fixture (void)
{
  g_autoptr (GError) error = NULL;
  GrammarDatabase *database = open_database (&error, NULL);

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

static void
assert_query_fails (GrammarDatabase *database,
                    const char      *sql,
                    GVariant        *parameters,
                    int              code,
                    const char      *needle)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarResult) result = NULL;

  result = grammar_database_query (database, sql, parameters, NULL, &error);
  if (error == NULL || !g_error_matches (error, GRAMMAR_DATABASE_ERROR, code))
    g_error ("“%s”: expected database error %d, got %s", sql, code,
             error != NULL ? error->message : "success");
  g_assert_null (result);
  if (needle != NULL)
    grammar_test_assert_contains (error->message, needle);
}

static void
assert_strv (const char * const *actual,
             const char * const *expected)
{
  g_assert_nonnull (actual);
  g_assert_cmpuint (g_strv_length ((char **) actual), ==, g_strv_length ((char **) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_cmpstr (actual[i], ==, expected[i]);
}

static void
assert_int (GVariant *value,
            gint64    expected)
{
  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_type_string (value), ==, "x");
  g_assert_cmpint (g_variant_get_int64 (value), ==, expected);
}

static void
assert_double (GVariant *value,
               double    expected)
{
  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_type_string (value), ==, "d");
  g_assert_cmpfloat (g_variant_get_double (value), ==, expected);
}

/* An exact decimal: the server's text, kept. */
static void
assert_decimal (GVariant   *value,
                const char *expected)
{
  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_type_string (value), ==, "(s)");
  g_assert_cmpstr (grammar_value_get_decimal (value), ==, expected);
}

static void
assert_string (GVariant   *value,
               const char *expected)
{
  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_type_string (value), ==, "s");
  g_assert_cmpstr (g_variant_get_string (value, NULL), ==, expected);
}

/* Runs @sql as the server's admin, through with-server.py. */
static void
admin_sql (const char *sql)
{
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GError) error = NULL;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                              "python3", server_env ("GRAMMAR_TEST_WITH_SERVER"), "admin-sql", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, sql, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (process, NULL, &error);
  g_assert_no_error (error);
}

static void
test_registry (void)
{
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autoptr (GError) error = NULL;

  info = grammar_registry_lookup (grammar_registry_get_default (), GRAMMAR_TYPE_DATABASE, "postgres", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_plugin_info_get_name (info), ==, "postgres");
  g_assert_cmpstr (grammar_plugin_info_get_description (info), ==, "PostgreSQL server, read-only");
}

static void
test_schema_tables (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GError) error = NULL;
  const char * const expected[] = { "company", "site", "visit", "kinds", "secret", "words", "company_sites", NULL };
  GPtrArray *tables;

  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  tables = grammar_schema_get_tables (schema);

  /* Tables, then views, each in creation order; nothing of the other
   * schema, no sequence. The table the reader cannot read is listed. */
  g_assert_cmpuint (tables->len, ==, g_strv_length ((char **) expected));
  for (guint i = 0; i < tables->len; i++)
    {
      GrammarTable *table = g_ptr_array_index (tables, i);

      g_assert_cmpstr (grammar_table_get_name (table), ==, expected[i]);
      g_assert_cmpint (grammar_table_get_is_view (table), ==, g_str_equal (expected[i], "company_sites"));
    }
}

static void
assert_column (GrammarTable *table,
               const char   *name,
               const char   *declared_type,
               gboolean      nullable,
               guint         primary_key_position,
               const char   *default_value)
{
  GrammarColumn *column = grammar_table_get_column (table, name);

  g_assert_nonnull (column);
  g_assert_cmpstr (grammar_column_get_declared_type (column), ==, declared_type);
  g_assert_cmpint (grammar_column_get_nullable (column), ==, nullable);
  g_assert_cmpuint (grammar_column_get_primary_key_position (column), ==, primary_key_position);
  g_assert_cmpstr (grammar_column_get_default_value (column), ==, default_value);
}

static void
test_schema_columns (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GError) error = NULL;
  GrammarTable *site, *kinds, *visit;
  GPtrArray *columns;
  const char * const site_columns[] = { "company_id", "site_no", "city", "code", "opened", NULL };

  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  site = grammar_schema_get_table (schema, "site");
  kinds = grammar_schema_get_table (schema, "kinds");
  visit = grammar_schema_get_table (schema, "visit");

  columns = grammar_table_get_columns (site);
  g_assert_cmpuint (columns->len, ==, 5);
  for (guint i = 0; i < columns->len; i++)
    g_assert_cmpstr (grammar_column_get_name (g_ptr_array_index (columns, i)), ==, site_columns[i]);

  /* The server's spelling of types and defaults; the composite key's positions. */
  assert_column (site, "company_id", "integer", FALSE, 1, NULL);
  assert_column (site, "site_no", "integer", FALSE, 2, NULL);
  assert_column (site, "city", "character varying(40)", FALSE, 0, NULL);
  assert_column (site, "code", "text", TRUE, 0, NULL);
  assert_column (site, "opened", "date", TRUE, 0, "'2000-01-01'::date");
  assert_column (visit, "day", "date", FALSE, 0, "CURRENT_DATE");
  assert_column (kinds, "n_big", "numeric(20,0)", TRUE, 0, NULL);
  assert_column (kinds, "ch", "character(5)", TRUE, 0, NULL);
  assert_column (kinds, "ts_frac", "timestamp(3) without time zone", TRUE, 0, NULL);
  assert_column (kinds, "f8", "double precision", TRUE, 0, NULL);
  assert_column (kinds, "by", "bytea", TRUE, 0, NULL);
}

static void
test_schema_keys (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) site_key = NULL;
  GrammarTable *company, *site, *visit;
  GPtrArray *keys;
  GrammarForeignKey *key;

  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  company = grammar_schema_get_table (schema, "company");
  site = grammar_schema_get_table (schema, "site");
  visit = grammar_schema_get_table (schema, "visit");

  g_assert_cmpuint (grammar_table_get_n_unique_constraints (company), ==, 1);
  assert_strv (grammar_table_get_unique_constraint (company, 0), (const char *[]) { "name", NULL });

  site_key = grammar_table_dup_primary_key (site);
  assert_strv ((const char * const *) site_key, (const char *[]) { "company_id", "site_no", NULL });

  /* The UNIQUE constraint, then the separate unique index; not the
   * index on an expression, the partial one, nor the primary key again. */
  g_assert_cmpuint (grammar_table_get_n_unique_constraints (site), ==, 2);
  assert_strv (grammar_table_get_unique_constraint (site, 0), (const char *[]) { "city", "code", NULL });
  assert_strv (grammar_table_get_unique_constraint (site, 1), (const char *[]) { "code", NULL });

  keys = grammar_table_get_foreign_keys (site);
  g_assert_cmpuint (keys->len, ==, 1);
  key = g_ptr_array_index (keys, 0);
  assert_strv (grammar_foreign_key_get_columns (key), (const char *[]) { "company_id", NULL });
  g_assert_cmpstr (grammar_foreign_key_get_referenced_table (key), ==, "company");
  assert_strv (grammar_foreign_key_get_referenced_columns (key), (const char *[]) { "id", NULL });

  /* In declaration order, the columns of the multi-column key paired
   * with the parent's by position. */
  keys = grammar_table_get_foreign_keys (visit);
  g_assert_cmpuint (keys->len, ==, 2);
  key = g_ptr_array_index (keys, 0);
  assert_strv (grammar_foreign_key_get_columns (key), (const char *[]) { "company", NULL });
  g_assert_cmpstr (grammar_foreign_key_get_referenced_table (key), ==, "company");
  assert_strv (grammar_foreign_key_get_referenced_columns (key), (const char *[]) { "id", NULL });
  key = g_ptr_array_index (keys, 1);
  assert_strv (grammar_foreign_key_get_columns (key), (const char *[]) { "site_number", "site_company", NULL });
  g_assert_cmpstr (grammar_foreign_key_get_referenced_table (key), ==, "site");
  assert_strv (grammar_foreign_key_get_referenced_columns (key), (const char *[]) { "site_no", "company_id", NULL });
}

static void
test_schema_view (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarResult) result = NULL;
  g_autoptr (GError) error = NULL;
  GrammarTable *view;

  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  view = grammar_schema_get_table (schema, "company_sites");
  g_assert_true (grammar_table_get_is_view (view));
  g_assert_cmpuint (grammar_table_get_columns (view)->len, ==, 3);
  assert_column (view, "city", "character varying(40)", TRUE, 0, NULL);
  g_assert_cmpuint (grammar_table_get_n_unique_constraints (view), ==, 0);
  g_assert_cmpuint (grammar_table_get_foreign_keys (view)->len, ==, 0);

  result = query (database, "SELECT company, city, code FROM company_sites ORDER BY city", NULL);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 3);
  assert_string (grammar_result_get_value (result, 0, 1), "Berlin");
  g_assert_null (grammar_result_get_value (result, 1, 2));
}

static void
test_value_types (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  GVariant *by;
  const guint8 bytes[] = { 0x00, 0xff, 0x10 };
  gsize size = 0;
  const void *data;

  result = query (database, "SELECT * FROM kinds ORDER BY id", NULL);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 3);
  g_assert_cmpuint (grammar_result_get_n_columns (result), ==, 24);
  g_assert_cmpstr (grammar_result_get_column_name (result, 1), ==, "b");

  assert_int (grammar_result_get_value (result, 0, 1), 1);
  assert_int (grammar_result_get_value (result, 1, 1), 0);
  assert_int (grammar_result_get_value (result, 0, 2), -32768);
  assert_int (grammar_result_get_value (result, 0, 3), 2147483647);
  assert_int (grammar_result_get_value (result, 0, 4), G_MAXINT64);
  assert_int (grammar_result_get_value (result, 0, 5), 4000000000);
  /* A real's 0.1 is the double 0.1, not 0.100000001490116. */
  assert_double (grammar_result_get_value (result, 0, 6), 0.1);
  assert_double (grammar_result_get_value (result, 0, 7), 0.1);
  /* numeric: the server's text, every digit and trailing zero kept; a
   * whole number without a point that fits int64 an integer. */
  assert_decimal (grammar_result_get_value (result, 0, 8), "98765432109876543210");
  assert_decimal (grammar_result_get_value (result, 0, 9), "1234.50");
  assert_decimal (grammar_result_get_value (result, 0, 10), "12.00");
  assert_decimal (grammar_result_get_value (result, 0, 11), "3.14159265358979323846");
  assert_int (grammar_result_get_value (result, 0, 12), -42);
  assert_string (grammar_result_get_value (result, 0, 13), "2024-02-29");
  assert_string (grammar_result_get_value (result, 0, 14), "13:14:15");
  assert_string (grammar_result_get_value (result, 0, 15), "2024-01-02 03:04:05");
  assert_string (grammar_result_get_value (result, 0, 16), "2024-01-02 03:04:05.25");
  /* In UTC, without the offset. */
  assert_string (grammar_result_get_value (result, 0, 17), "2024-01-02 01:04:05");

  by = grammar_result_get_value (result, 0, 18);
  g_assert_cmpstr (g_variant_get_type_string (by), ==, "ay");
  data = g_variant_get_fixed_array (by, &size, 1);
  g_assert_cmpmem (data, size, bytes, sizeof bytes);

  assert_string (grammar_result_get_value (result, 0, 19), "O'Brien \"quoted\" back\\slash Zoë 東京 😀");
  assert_string (grammar_result_get_value (result, 0, 20), "varchar");
  assert_string (grammar_result_get_value (result, 0, 21), "ab   ");
  assert_string (grammar_result_get_value (result, 0, 22), "{\"a\": [1, \"x\"]}");
  assert_string (grammar_result_get_value (result, 0, 23), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");

  /* The row of NULLs. */
  for (guint column = 1; column < 24; column++)
    g_assert_null (grammar_result_get_value (result, 2, column));
}

static void
test_numeric_forms (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;

  result = query (database,
                  "SELECT 0.000123::numeric, 123456789012345.5::numeric, 1234567890123456.5::numeric,"
                  " -9223372036854775808::numeric, 9223372036854775808::numeric, 'NaN'::numeric,"
                  " '-0.50'::numeric, 1e20::float8, 'Infinity'::float8",
                  NULL);
  assert_decimal (grammar_result_get_value (result, 0, 0), "0.000123");
  assert_decimal (grammar_result_get_value (result, 0, 1), "123456789012345.5");
  assert_decimal (grammar_result_get_value (result, 0, 2), "1234567890123456.5");
  assert_int (grammar_result_get_value (result, 0, 3), G_MININT64);
  assert_decimal (grammar_result_get_value (result, 0, 4), "9223372036854775808");
  /* not a number JSON can write: its text, as a string */
  assert_string (grammar_result_get_value (result, 0, 5), "NaN");
  assert_decimal (grammar_result_get_value (result, 0, 6), "-0.50");
  assert_double (grammar_result_get_value (result, 0, 7), 1e20);
  g_assert_true (isinf (g_variant_get_double (grammar_result_get_value (result, 0, 8))));
}

static void
test_bound_values (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) round_trip = NULL;
  g_autoptr (GrammarResult) found = NULL;
  g_autoptr (GrammarResult) typed = NULL;
  const char *text = "O'Brien \"quoted\" back\\slash Zoë 東京 😀 ''; --";
  const guint8 blob[] = { 0x00, 0x5c, 0x27, 0xff };
  GVariant *bytes;
  gsize size = 0;
  const void *data;

  /* Returned byte for byte, and equal to the stored text. */
  round_trip = query (database, "SELECT CAST(?1 AS text) AS t, length(?1)", g_variant_new ("(s)", text));
  assert_string (grammar_result_get_value (round_trip, 0, 0), text);
  assert_int (grammar_result_get_value (round_trip, 0, 1), g_utf8_strlen (text, -1));

  found = query (database, "SELECT id FROM kinds WHERE txt = ?1",
                 g_variant_new ("(s)", "O'Brien \"quoted\" back\\slash Zoë 東京 😀"));
  g_assert_cmpuint (grammar_result_get_n_rows (found), ==, 1);
  assert_int (grammar_result_get_value (found, 0, 0), 1);

  /* An exact decimal is compared as the numeric it is: one digit more
   * is another value, which a double would not tell apart. */
  {
    g_autoptr (GrammarResult) same = query (database, "SELECT id FROM kinds WHERE n_long = ?1",
                                            g_variant_new ("(@(s))", grammar_value_new_decimal ("3.14159265358979323846", -1)));
    g_autoptr (GrammarResult) other = query (database, "SELECT id FROM kinds WHERE n_long = ?1",
                                             g_variant_new ("(@(s))", grammar_value_new_decimal ("3.14159265358979323847", -1)));

    g_assert_cmpuint (grammar_result_get_n_rows (same), ==, 1);
    g_assert_cmpuint (grammar_result_get_n_rows (other), ==, 0);
  }

  /* Each GVariant type, and a maybe nothing as NULL. */
  typed = query (database,
                 "SELECT ?1::bigint, ?2::float8, ?3::boolean, ?4::text IS NULL, ?5::bytea, ?6::integer, ?7::text",
                 g_variant_new ("(xdbms@ayiv)", G_GINT64_CONSTANT (-9007199254740993), 0.1, TRUE, NULL,
                                g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, blob, sizeof blob, 1),
                                (gint32) 42, g_variant_new_string ("boxed")));
  assert_int (grammar_result_get_value (typed, 0, 0), G_GINT64_CONSTANT (-9007199254740993));
  assert_double (grammar_result_get_value (typed, 0, 1), 0.1);
  assert_int (grammar_result_get_value (typed, 0, 2), 1);
  assert_int (grammar_result_get_value (typed, 0, 3), 1);
  bytes = grammar_result_get_value (typed, 0, 4);
  data = g_variant_get_fixed_array (bytes, &size, 1);
  g_assert_cmpmem (data, size, blob, sizeof blob);
  assert_int (grammar_result_get_value (typed, 0, 5), 42);
  assert_string (grammar_result_get_value (typed, 0, 6), "boxed");

  /* Values in an av, as the library's plans bind them. */
  {
    GVariant *children[] = { g_variant_new_variant (g_variant_new_int64 (2)) };
    g_autoptr (GrammarResult) result = query (database, "SELECT name FROM company WHERE id = ?",
                                              g_variant_new_array (G_VARIANT_TYPE_VARIANT, children, 1));

    assert_string (grammar_result_get_value (result, 0, 0), "Globex");
  }

  assert_query_fails (database, "SELECT ?1, ?2", g_variant_new ("(i)", 1), GRAMMAR_DATABASE_ERROR_BIND,
                      "parameter ?2 has no value");
  assert_query_fails (database, "SELECT 1", g_variant_new ("(i)", 1), GRAMMAR_DATABASE_ERROR_BIND,
                      "parameter ?1 does not exist");
  assert_query_fails (database, "SELECT ?1", g_variant_new ("(@a{sv})", g_variant_new ("a{sv}", NULL)),
                      GRAMMAR_DATABASE_ERROR_BIND, "not supported");
  assert_query_fails (database, "SELECT ?1, ?3", g_variant_new ("(iii)", 1, 2, 3), GRAMMAR_DATABASE_ERROR_BIND,
                      "parameter $2");
}

static void
test_parameter_twice (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;

  result = query (database,
                  "SELECT count(*), ?1 || '/' || ?1 FROM company WHERE name = ?1 OR lower(name) = lower(?1)",
                  g_variant_new ("(s)", "acme"));
  assert_int (grammar_result_get_value (result, 0, 0), 2);
  assert_string (grammar_result_get_value (result, 0, 1), "acme/acme");
}

#ifndef UNDER_ASAN
static void
read_status (const char *field,
             guint64    *kilobytes)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, field);
  g_assert_nonnull (line);
  *kilobytes = g_ascii_strtoull (line + strlen (field), NULL, 10);
}
#endif

/* Makes VmHWM the current RSS (Linux 4.0 and later), so that a peak
 * reached by an earlier test does not hide this one's. */
static void
reset_peak (void)
{
#ifndef UNDER_ASAN
  FILE *file = fopen ("/proc/self/clear_refs", "w");

  if (file == NULL || fputs ("5", file) < 0)
    g_test_message ("cannot reset VmHWM: the peak may be an earlier test's");
  if (file != NULL)
    fclose (file);
#endif
}

/* Bytes the process holds for its heap at its peak so far, or now. */
static guint64
heap_mark (void)
{
#ifdef UNDER_ASAN
  return __sanitizer_get_current_allocated_bytes ();
#else
  guint64 kilobytes = 0;

  read_status ("VmHWM:", &kilobytes);
  return kilobytes * 1024;
#endif
}

static void
test_streaming (void)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autoptr (GError) error = NULL;
  const guint64 limit = 50 * 1024 * 1024;
  guint64 before, peak;
  gint64 sum = 0;
  guint n = 0;

  if (!g_file_test ("/proc/self/status", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /proc/self/status");
      return;
    }

  database = open_fixture ();
  reset_peak ();
  before = heap_mark ();
  peak = before;
  /* About 250 MB of rows if they were all held at once. */
  cursor = grammar_database_query_cursor (database,
                                          "SELECT g, repeat('x', 100) FROM generate_series(1, 2000000) AS g",
                                          NULL, NULL, &error);
  g_assert_no_error (error);
  while (grammar_cursor_next (cursor, NULL, &error))
    {
      g_autoptr (GVariant) value = grammar_cursor_get_value (cursor, 0);

      sum += g_variant_get_int64 (value);
      if (++n % 10000 == 0)
        peak = MAX (peak, heap_mark ());
    }
  g_assert_no_error (error);
  peak = MAX (peak, heap_mark ());

  g_assert_cmpuint (n, ==, 2000000);
  g_assert_cmpint (sum, ==, G_GINT64_CONSTANT (2000000) * 2000001 / 2);
  g_test_message ("heap peak grew by %" G_GUINT64_FORMAT " kB over 2e6 rows", (peak - before) / 1024);
  g_assert_cmpuint (peak - before, <, limit);
}

static void
test_nested_cursors (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarCursor) outer = NULL;
  g_autoptr (GError) error = NULL;
  guint n = 0;

  outer = grammar_database_query_cursor (database, "SELECT id, name FROM company ORDER BY id", NULL, NULL, &error);
  g_assert_no_error (error);
  while (grammar_cursor_next (outer, NULL, &error))
    {
      g_autoptr (GVariant) id = grammar_cursor_get_value (outer, 0);
      g_autoptr (GrammarResult) inner = NULL;

      /* A second statement while the first is still streaming. */
      inner = query (database, "SELECT count(*) FROM site WHERE company_id = ?1", g_variant_new ("(x)", g_variant_get_int64 (id)));
      assert_int (grammar_result_get_value (inner, 0, 0), g_variant_get_int64 (id) == 1 ? 2 : g_variant_get_int64 (id) == 2 ? 1 : 0);
      n++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 5);
  /* Past the end it stays at the end. */
  g_assert_false (grammar_cursor_next (outer, NULL, &error));
  g_assert_no_error (error);
}

static void
test_abandoned_cursor (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GrammarCursor) cursor = NULL;
      g_autoptr (GError) error = NULL;

      /* 10^8 rows made as they are read: the server materializes a set
       * function's rows, so two small ones crossed make them lazily. */
      cursor = grammar_database_query_cursor (database,
                                              "SELECT a * 100000 + b FROM generate_series(1, 1000) AS a,"
                                              " generate_series(1, 100000) AS b",
                                              NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (grammar_cursor_next (cursor, NULL, &error));
      g_assert_true (grammar_cursor_next (cursor, NULL, &error));
      g_assert_no_error (error);
    }
  /* Stopped on the server, not read to the end (which takes minutes);
   * the bound is far from both, so that a loaded machine passes. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
  result = query (database, "SELECT 1", NULL);
  assert_int (grammar_result_get_value (result, 0, 0), 1);
}

static gint64
backend_pid (GrammarDatabase *database)
{
  g_autoptr (GrammarResult) result = query (database, "SELECT pg_backend_pid()", NULL);

  return g_variant_get_int64 (grammar_result_get_value (result, 0, 0));
}

static void
test_reconnect (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  gint64 before = backend_pid (database);

  /* Waits until the sessions are gone (PostgreSQL 14 and later). */
  admin_sql ("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE usename = 'grammar_reader';");

  g_assert_cmpint (backend_pid (database), !=, before);
  result = query (database, "SELECT count(*) FROM company", NULL);
  assert_int (grammar_result_get_value (result, 0, 0), 5);
}

#define SLOW_QUERY "SELECT count(*) FROM generate_series(1, 100000000) AS a, generate_series(1, 100) AS b"

static void
test_query_timeout (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = open_database (&error, "query-timeout", 1u, NULL);
  g_autoptr (GrammarResult) result = NULL;
  gint64 start = g_get_monotonic_time ();

  g_assert_no_error (error);
  result = grammar_database_query (database, SLOW_QUERY, NULL, NULL, &error);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT);
  grammar_test_assert_contains (error->message, "query-timeout=1");
  grammar_test_assert_contains (error->message, "statement timeout");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  g_clear_object (&result);

  /* The session is fine for the next statement. */
  result = query (database, "SELECT 2", NULL);
  assert_int (grammar_result_get_value (result, 0, 0), 2);
}

static gpointer
cancel_later (gpointer data)
{
  g_usleep (300 * 1000);
  g_cancellable_cancel (data);
  return NULL;
}

/* Without query-timeout= the session still has one: the documented
 * default, so that a runaway statement cannot run for ever. */
static void
test_query_timeout_default (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = query (database, "SELECT current_setting('statement_timeout')", NULL);
  guint timeout = 0;

  g_object_get (database, "query-timeout", &timeout, NULL);
  g_assert_cmpuint (timeout, ==, GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT);
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 0), NULL), ==, "5min");
}

static void
test_cancel (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GrammarResult) result = NULL;
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  GThread *thread = g_thread_new ("cancel", cancel_later, cancellable);

  result = grammar_database_query (database, SLOW_QUERY, NULL, cancellable, &error);
  g_thread_join (thread);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);

  result = query (database, "SELECT 3", NULL);
  assert_int (grammar_result_get_value (result, 0, 0), 3);
}

static void
test_wrong_password (void)
{
  g_autofree char *right = g_strdup (server_env (PASSWORD_ENV));
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GError) error = NULL;

  /* Set while nothing else runs, and put back at once. */
  g_setenv (PASSWORD_ENV, "Wrong-Pass-Word-31", TRUE);
  database = open_database (&error, NULL);
  g_setenv (PASSWORD_ENV, right, TRUE);

  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, PASSWORD_ENV);
  grammar_test_assert_contains (error->message, "password authentication failed");
  grammar_test_assert_contains (error->message, server_env ("GRAMMAR_TEST_DB_PORT"));
  g_assert_null (strstr (error->message, "Wrong-Pass-Word-31"));
  g_assert_null (strstr (error->message, right));
}

static void
test_unset_password_variable (void)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GError) error = NULL;

  g_unsetenv ("GRAMMAR_TEST_NO_SUCH_PASSWORD");
  database = open_database (&error, "password-env", "GRAMMAR_TEST_NO_SUCH_PASSWORD", NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, "password-env=GRAMMAR_TEST_NO_SUCH_PASSWORD");
  grammar_test_assert_contains (error->message, "not set");
}

static void
test_unreachable (void)
{
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *where = NULL;
  gint64 start;
  guint port;

  /* A port that was free a moment ago, and that nothing listens on. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (socket, any, TRUE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  start = g_get_monotonic_time ();
  database = open_database (&error, "host", "127.0.0.1", "port", port, "connect-timeout", 2u, NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  where = g_strdup_printf ("127.0.0.1:%u", port);
  grammar_test_assert_contains (error->message, where);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

static void
test_unknown_database (void)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GError) error = NULL;

  database = open_database (&error, "database", "no_such_database", NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, "no_such_database");
  grammar_test_assert_contains (error->message, "does not exist");
}

static void
test_schema_setting (void)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarDatabase) missing = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarResult) result = NULL;
  g_autoptr (GError) error = NULL;

  missing = open_database (&error, "schema", "no \"such\" schema", NULL);
  g_assert_null (missing);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, "no schema “no \"such\" schema”");
  g_clear_error (&error);

  /* Unqualified names resolve in the schema. */
  database = open_database (&error, "schema", "other", NULL);
  g_assert_no_error (error);
  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_schema_get_tables (schema)->len, ==, 1);
  g_assert_nonnull (grammar_schema_get_table (schema, "elsewhere"));
  result = query (database, "SELECT label FROM elsewhere", NULL);
  assert_string (grammar_result_get_value (result, 0, 0), "seven");
}

static void
test_socket (void)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarResult) result = NULL;
  g_autoptr (GError) error = NULL;

  database = open_database (&error, "host", NULL, "socket", server_env ("GRAMMAR_TEST_DB_SOCKET"), NULL);
  g_assert_no_error (error);
  result = query (database, "SELECT count(*) FROM company", NULL);
  assert_int (grammar_result_get_value (result, 0, 0), 5);
  g_clear_object (&database);

  database = open_database (&error, "socket", server_env ("GRAMMAR_TEST_DB_SOCKET"), NULL);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, "exclude each other");
}

static void
test_permission_denied (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();

  assert_query_fails (database, "SELECT * FROM secret", NULL, GRAMMAR_DATABASE_ERROR_QUERY,
                      "permission denied for table secret");
}

static void
test_server_rejects (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  guint n = 0;

  assert_query_fails (database, "SELECT FROM WHERE", NULL, GRAMMAR_DATABASE_ERROR_SYNTAX, "syntax error");
  assert_query_fails (database, "SELECT * FROM no_such_table", NULL, GRAMMAR_DATABASE_ERROR_SYNTAX,
                      "relation \"no_such_table\" does not exist");
  assert_query_fails (database, "SELECT no_such_column FROM company", NULL, GRAMMAR_DATABASE_ERROR_SYNTAX,
                      "no_such_column");
  /* A failure while running is not the text's fault. */
  assert_query_fails (database, "SELECT 1 / (id - 3) FROM company ORDER BY id", NULL,
                      GRAMMAR_DATABASE_ERROR_QUERY, "division by zero");

  g_assert_false (grammar_database_check_query (database, "SELECT FROM WHERE", &n, &error));
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX);
}

static void
test_check_query (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GError) error = NULL;
  guint n = 99;

  g_assert_true (grammar_database_check_query (database, "SELECT name FROM company WHERE id = ?1 OR name = ?2",
                                               &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (grammar_database_check_query (database, "SELECT 1", &n, &error));
  g_assert_cmpuint (n, ==, 0);
  /* Prepared, not run: a table the user cannot read checks fine. */
  g_assert_true (grammar_database_check_query (database, "SELECT * FROM secret WHERE id = ?", &n, &error));
  g_assert_cmpuint (n, ==, 1);

  g_assert_false (grammar_database_check_query (database, "SELECT nextval('counter')", &n, &error));
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY);
  g_clear_error (&error);
  g_assert_false (grammar_database_check_query (database, "SELECT 1; SELECT 2", &n, &error));
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS);
}

/* Every word and function of the plugin's refused lists, each in a
 * statement the server would otherwise run (or run partly) inside a
 * read-only transaction, and the forms the lexer refuses for every
 * server. */
static void
test_refusals (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  const struct
  {
    const char *sql;
    int code;
  } refused[] = {
    /* words */
    { "SELECT * INTO copy_of_company FROM company", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "COPY company TO '/tmp/x'", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH c AS (SELECT 1) COPY company TO STDOUT", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM company FOR UPDATE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM company FOR NO KEY UPDATE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM company FOR SHARE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM company for key  share", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM company c, site s FOR UPDATE OF c", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "LOCK TABLE company", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH x AS (SELECT 1) SELECT 1 FROM x /* */ LOCK", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "LISTEN channel", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 UNLISTEN", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 NOTIFY", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "DO 'BEGIN END'", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 DO", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "CALL some_procedure()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 CALL", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SET search_path = other", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 SET", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 RESET", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 PREPARE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 EXECUTE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 DEALLOCATE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 DISCARD", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 VACUUM", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 ANALYZE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 CLUSTER", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 REFRESH", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1 TRUNCATE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH gone AS (INSERT INTO company VALUES (9, 'x', NULL) RETURNING *) SELECT * FROM gone",
      GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH gone AS (UPDATE company SET name = 'x' RETURNING *) SELECT * FROM gone",
      GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH gone AS (DELETE FROM company RETURNING *) SELECT * FROM gone", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "WITH s AS (SELECT 1) MERGE INTO company USING s ON false WHEN NOT MATCHED THEN DO NOTHING",
      GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    /* functions */
    { "SELECT pg_read_file('/etc/passwd')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_read_binary_file('/etc/passwd')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM pg_ls_dir('.')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_stat_file('postgresql.conf')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM pg_ls_logdir()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM pg_ls_waldir()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM pg_ls_tmpdir()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM pg_ls_archive_statusdir()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_file_write('x', 'y', false)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_file_rename('x', 'y')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_file_unlink('x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_import('/etc/passwd')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_export(1, '/tmp/x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_get(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_open(1, 262144)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_put(1, 0, 'x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_creat(-1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_create(0)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_unlink(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lo_from_bytea(0, 'x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT loread(0, 10)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lowrite(0, 'x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_sleep(10)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_sleep_for('10 seconds')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_sleep_until(now() + interval '10 seconds')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_advisory_lock(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_advisory_lock_shared(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_advisory_xact_lock(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_advisory_xact_lock_shared(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_try_advisory_lock(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_try_advisory_lock_shared(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_try_advisory_xact_lock(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_try_advisory_xact_lock_shared(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_advisory_unlock(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_advisory_unlock_shared(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_advisory_unlock_all()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_terminate_backend(pg_backend_pid())", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_cancel_backend(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_reload_conf()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_rotate_logfile()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_notify('channel', 'payload')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_logical_emit_message(false, 'p', 'x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_switch_wal()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_create_restore_point('x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_promote()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_log_backend_memory_contexts(1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT set_config('search_path', 'other', false)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM dblink('host=example.org', 'SELECT 1') AS t(a int)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT dblink_exec('DELETE FROM company')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT dblink_connect('host=example.org')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT dblink_connect_u('host=example.org')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT dblink_disconnect()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT dblink_open('c', 'SELECT 1')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM dblink_fetch('c', 1) AS t(a int)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT dblink_close('c')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT dblink_send_query('c', 'SELECT 1')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT * FROM dblink_get_result('c') AS t(a int)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT nextval('counter')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT setval('counter', 5)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT currval('counter')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT lastval()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT txid_current()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT pg_current_xact_id()", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT query_to_xml('SELECT 1', true, false, '')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT query_to_xmlschema('SELECT 1', true, false, '')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT query_to_xml_and_xmlschema('SELECT 1', true, false, '')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT cursor_to_xml('c', 1, true, false, '')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT cursor_to_xmlschema('c', true, false, '')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    /* however the name is written */
    { "SELECT pg_catalog.nextval('counter')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT \"nextval\"('counter')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT PG_SLEEP (1)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    /* and what the lexer refuses for every server */
    { "DELETE FROM company", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "EXPLAIN ANALYZE SELECT 1", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "BEGIN", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT 1; SELECT 2", GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS },
    { "SELECT 1; DROP TABLE company", GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS },
    { "SELECT E'\\''; DROP TABLE company; --'", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY },
    { "SELECT $$;$$", GRAMMAR_DATABASE_ERROR_BIND },
    { "SELECT $1", GRAMMAR_DATABASE_ERROR_BIND },
    { "SELECT 'open", GRAMMAR_DATABASE_ERROR_SYNTAX },
    { "", GRAMMAR_DATABASE_ERROR_SYNTAX },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_query_fails (database, refused[i].sql, NULL, refused[i].code, NULL);

  /* Nothing moved. */
  {
    g_autoptr (GrammarResult) result = query (database, "SELECT count(*), last_value FROM company, counter GROUP BY last_value", NULL);

    assert_int (grammar_result_get_value (result, 0, 0), 5);
    assert_int (grammar_result_get_value (result, 0, 1), 1);
  }
}

static void
test_accepted (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;

  /* Refused words inside strings, quoted names and longer words are data;
   * a trailing ; is fine, and so is a cast. */
  result = query (database,
                  "SELECT 'FOR UPDATE; INTO' AS \"set\", name AS \"into\", id::text AS settled"
                  " FROM company WHERE name <> 'pg_sleep(1)' ORDER BY id LIMIT 1;",
                  NULL);
  assert_string (grammar_result_get_value (result, 0, 0), "FOR UPDATE; INTO");
  assert_string (grammar_result_get_value (result, 0, 1), "Acme");
  assert_string (grammar_result_get_value (result, 0, 2), "1");
  g_assert_cmpstr (grammar_result_get_column_name (result, 1), ==, "into");
  g_clear_object (&result);

  result = query (database, "(SELECT 1) UNION ALL VALUES (2)", NULL);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 2);
  g_clear_object (&result);

  /* An empty result still names its columns. */
  result = query (database, "SELECT id, name FROM company WHERE false", NULL);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 0);
  g_assert_cmpuint (grammar_result_get_n_columns (result), ==, 2);
  g_assert_cmpstr (grammar_result_get_column_name (result, 1), ==, "name");
}

static void
test_sql_form (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarResult) server_order = NULL;
  g_autoptr (GrammarResult) binary_order = NULL;
  g_autoptr (GrammarResult) padded = NULL;
  g_autoptr (GrammarResult) json = NULL;
  g_autoptr (GString) lengths = g_string_new ("SELECT ");
  g_autoptr (GrammarResult) averages = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *words = NULL;
  g_autofree char *sql = NULL;
  g_autofree char *ch = NULL;
  g_autofree char *js = NULL;
  g_autofree char *number = NULL;
  const char * const bytes_order[] = { "B", "Z", "a", "b", "é", NULL };
  GPtrArray *columns;

  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);

  /* The column's own collation (ICU) puts a before B; bytes do not. */
  server_order = query (database, "SELECT DISTINCT w FROM words ORDER BY 1", NULL);
  assert_string (grammar_result_get_value (server_order, 0, 0), "a");

  words = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, "\"w\"", "text");
  sql = g_strdup_printf ("SELECT DISTINCT %s FROM words WHERE w IS NOT NULL ORDER BY 1", words);
  binary_order = query (database, sql, NULL);
  g_assert_cmpuint (grammar_result_get_n_rows (binary_order), ==, 5);
  for (guint i = 0; bytes_order[i] != NULL; i++)
    assert_string (grammar_result_get_value (binary_order, i, 0), bytes_order[i]);
  g_clear_pointer (&sql, g_free);

  /* character(n) keeps its padding, as the cursor gives it; json can
   * be made distinct; numbers stay numbers. */
  ch = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, "\"ch\"", "character(5)");
  js = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, "\"js\"", "json");
  number = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, "\"n_money\"", "numeric(10,2)");
  g_assert_cmpstr (number, ==, "\"n_money\"");
  g_clear_pointer (&number, g_free);
  number = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, "\"city\"", "character varying(40)");
  g_assert_cmpstr (number, ==, "(\"city\")::text COLLATE \"C\"");
  sql = g_strdup_printf ("SELECT DISTINCT %s, %s FROM kinds WHERE ch IS NOT NULL ORDER BY 1", ch, js);
  padded = query (database, sql, NULL);
  assert_string (grammar_result_get_value (padded, 0, 0), "ab   ");
  assert_string (grammar_result_get_value (padded, 0, 1), "{\"a\": [1, \"x\"]}");
  g_clear_pointer (&sql, g_free);
  sql = g_strdup_printf ("SELECT COUNT(DISTINCT %s), COUNT(DISTINCT %s) FROM kinds", js, ch);
  json = query (database, sql, NULL);
  assert_int (grammar_result_get_value (json, 0, 0), 1);
  assert_int (grammar_result_get_value (json, 0, 1), 1);
  g_clear_pointer (&sql, g_free);

  /* LENGTH() of every column of every type, as the library averages it. */
  columns = grammar_table_get_columns (grammar_schema_get_table (schema, "kinds"));
  for (guint i = 0; i < columns->len; i++)
    {
      GrammarColumn *column = g_ptr_array_index (columns, i);
      g_autofree char *quoted = grammar_database_quote_identifier (database, grammar_column_get_name (column));
      g_autofree char *length = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_TEXT_LENGTH, quoted,
                                                           grammar_column_get_declared_type (column));

      g_string_append_printf (lengths, "%sAVG(%s)", i > 0 ? ", " : "", length);
    }
  g_string_append (lengths, " FROM kinds");
  averages = query (database, lengths->str, NULL);
  g_assert_cmpuint (grammar_result_get_n_columns (averages), ==, columns->len);
  /* bytea counts its bytes, a boolean is 0 or 1, text its characters. */
  assert_double (grammar_result_get_value (averages, 0, 18), 3);
  assert_double (grammar_result_get_value (averages, 0, 1), 1);
  assert_double (grammar_result_get_value (averages, 0, 20), 7);
  assert_double (grammar_result_get_value (averages, 0, 21), 5);
}

static void
test_distinct_values (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  g_autoptr (GrammarResult) result = NULL;
  g_autoptr (GError) error = NULL;

  result = grammar_database_distinct_values (database, "company", "country", NULL, &error);
  g_assert_no_error (error);
  /* FR, DE and NULL. */
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 3);
}

static void
query_done (GObject      *source,
            GAsyncResult *res,
            gpointer      user_data)
{
  GrammarResult **result = user_data;
  g_autoptr (GError) error = NULL;

  *result = grammar_database_query_finish (GRAMMAR_DATABASE (source), res, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr (GrammarDatabase) database = open_fixture ();
  GrammarResult *results[4] = { NULL, };

  /* Several at once from worker threads, each on a connection of its own. */
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    grammar_database_query_async (database, "SELECT count(*) FROM site WHERE company_id = ?1",
                                  g_variant_new ("(u)", i + 1), NULL, query_done, &results[i]);
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      while (results[i] == NULL)
        g_main_context_iteration (NULL, TRUE);
      assert_int (grammar_result_get_value (results[i], 0, 0), i == 0 ? 2 : i == 1 ? 1 : 0);
      g_object_unref (results[i]);
    }
}

/* The command line. */

static char *
write_keyfile (const char *dir,
               const char *password_env)
{
  g_autofree char *text = g_strdup_printf ("[database]\n"
                                           "plugin=postgres\n"
                                           "host=%s\n"
                                           "port=%s\n"
                                           "database=%s\n"
                                           "user=%s\n"
                                           "password-env=%s\n",
                                           server_env ("GRAMMAR_TEST_DB_HOST"), server_env ("GRAMMAR_TEST_DB_PORT"),
                                           server_env ("GRAMMAR_TEST_DB_NAME"), server_env ("GRAMMAR_TEST_DB_USER"),
                                           password_env);

  return grammar_test_write_file (dir, "postgres.ini", text);
}

static void
test_cli_schema (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("grammar-postgres-XXXXXX");
  g_autofree char *ini = write_keyfile (dir, PASSWORD_ENV);
  g_auto (GrammarTestRun) run = { 0, };

  grammar_test_run (&run, dir, "schema", "-c", ini, "--json", NULL);
  if (run.status != 0)
    g_error ("grammar schema failed (%d): %s", run.status, run.err);
  grammar_test_assert_contains (run.out, "\"company_sites\"");
  grammar_test_assert_contains (run.out, "\"character varying(40)\"");
  grammar_test_assert_contains (run.out, "\"site_number\"");
  grammar_test_remove_tree (dir);
}

/* The unbounded recursive CTE of issue 15 as a template: stopped by the
 * server at query-timeout=1, reported by its id, the other template
 * generated, exit 2. */
static void
test_cli_qa_runaway (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("grammar-postgres-XXXXXX");
  g_autofree char *ini = write_keyfile (dir, PASSWORD_ENV);
  g_autofree char *keyfile = NULL;
  g_autofree char *with_timeout = NULL;
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *templates = g_build_filename (dir, "runaway.json", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *dataset = NULL;
  g_auto (GrammarTestRun) run = { 0, };
  const char *sqls[] = {
    "SELECT country FROM company WHERE name = '[company.name]'",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) "
    "SELECT count(*) FROM c, company WHERE company.name = '[company.name]'",
  };
  const char *runaway_id = NULL;
  gint64 start;

  for (guint i = 0; i < G_N_ELEMENTS (sqls); i++)
    {
      g_autoptr (GrammarSqlTemplate) sql_template = grammar_sql_template_new (sqls[i], GRAMMAR_TEMPLATE_ORIGIN_MANUAL,
                                                                              &error);
      g_autoptr (GrammarTextTemplate) text_template = NULL;

      g_assert_no_error (error);
      text_template = grammar_text_template_new (grammar_sql_template_get_id (sql_template), "short",
                                                 "About [company.name]?");
      grammar_template_set_add_sql_template (set, sql_template);
      grammar_template_set_add_text_template (set, text_template);
    }
  runaway_id = grammar_sql_template_get_id (g_ptr_array_index (grammar_template_set_get_sql_templates (set), 1));
  g_assert_true (grammar_template_set_save_text_templates (set, templates, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (ini, &keyfile, NULL, NULL));
  with_timeout = g_strconcat (keyfile, "query-timeout=1\n", NULL);
  g_assert_true (g_file_set_contents (ini, with_timeout, -1, NULL));

  start = g_get_monotonic_time ();
  grammar_test_run (&run, dir, "qa", "-q", "-c", ini, "-i", "runaway.json", "-o", "runaway.jsonl", NULL);
  g_assert_cmpint (run.status, ==, 2);
  expected = g_strdup_printf ("%s: query-timeout=1 s exceeded", runaway_id);
  grammar_test_assert_contains (run.err, expected);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 30 * G_USEC_PER_SEC);
  dataset = g_build_filename (dir, "runaway.jsonl", NULL);
  g_assert_true (g_file_test (dataset, G_FILE_TEST_IS_REGULAR));
  grammar_test_remove_tree (dir);
}

static void
test_cli_wrong_password (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("grammar-postgres-XXXXXX");
  g_autofree char *ini = write_keyfile (dir, PASSWORD_ENV);
  g_autofree char *right = g_strdup (server_env (PASSWORD_ENV));
  g_auto (GrammarTestRun) run = { 0, };

  g_setenv (PASSWORD_ENV, "Wrong-Pass-Word-31", TRUE);
  grammar_test_run (&run, dir, "schema", "-c", ini, "--json", NULL);
  g_setenv (PASSWORD_ENV, right, TRUE);

  g_assert_cmpint (run.status, ==, 2);
  grammar_test_assert_contains (run.err, "[database]");
  grammar_test_assert_contains (run.err, PASSWORD_ENV);
  grammar_test_assert_contains (run.err, "127.0.0.1:");
  g_assert_null (strstr (run.err, "Wrong-Pass-Word-31"));
  g_assert_null (strstr (run.err, right));
  grammar_test_remove_tree (dir);
}

/* Names as pandas' to_sql and ORMs make them: quoted, in mixed case,
 * reserved words among them. Every statement the library writes reads
 * them, and templates that spell them bare, as GRAMMAR-py's Spider SQL
 * does, run once resolved against the schema. */
static void
test_quoted_names (void)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarDatabase) twins = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarSchema) twins_schema = NULL;
  g_autoptr (GrammarSchemaGenerator) generator = NULL;
  g_autoptr (GPtrArray) templates = NULL;
  g_autoptr (GrammarSqlTemplate) spider = NULL;
  g_autoptr (GrammarSqlTemplate) ambiguous = NULL;
  g_autoptr (GrammarSqlTemplate) exact = NULL;
  g_autoptr (GrammarResult) result = NULL;
  g_auto (GStrv) dropped = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *written = NULL;
  gboolean joined = FALSE;

  admin_sql ("CREATE SCHEMA pandas;"
             "CREATE TABLE pandas.\"People\" (\"People_ID\" bigint PRIMARY KEY, \"Name\" text NOT NULL UNIQUE,"
             "  \"Home Town\" text, \"Größe\" integer);"
             "CREATE TABLE pandas.\"user\" (\"user\" text PRIMARY KEY, \"People_ID\" bigint"
             "  REFERENCES pandas.\"People\" (\"People_ID\"), \"order\" integer NOT NULL);"
             "INSERT INTO pandas.\"People\" VALUES (1, 'Ada Byron', 'London', 165), (2, 'Grace Hopper', 'New York', 160),"
             "  (3, 'Alan Turing', 'London', 178);"
             "INSERT INTO pandas.\"user\" VALUES ('ada', 1, 2), ('grace', 2, 1), ('alan', 3, 3);"
             "CREATE SCHEMA twins;"
             "CREATE TABLE twins.people (id integer PRIMARY KEY, name text);"
             "CREATE TABLE twins.\"People\" (\"People_ID\" integer PRIMARY KEY, \"Name\" text);"
             "INSERT INTO twins.people VALUES (1, 'lower');"
             "INSERT INTO twins.\"People\" VALUES (1, 'Upper');"
             "GRANT USAGE ON SCHEMA pandas, twins TO grammar_reader;"
             "GRANT SELECT ON ALL TABLES IN SCHEMA pandas, twins TO grammar_reader;");

  database = open_database (&error, "schema", "pandas", NULL);
  g_assert_no_error (error);

  /* The dialect's rule: PostgreSQL folds bare names to lower case. */
  g_assert_true (grammar_database_identifier_needs_quotes (database, "People_ID"));
  g_assert_true (grammar_database_identifier_needs_quotes (database, "user"));
  g_assert_true (grammar_database_identifier_needs_quotes (database, "Home Town"));
  g_assert_true (grammar_database_identifier_needs_quotes (database, "größe"));
  g_assert_false (grammar_database_identifier_needs_quotes (database, "people_id"));
  g_assert_false (grammar_database_identifier_needs_quotes (database, "name"));
  written = grammar_database_write_identifier (database, "People");
  g_assert_cmpstr (written, ==, "\"People\"");

  /* The schema generator counts, checks and writes templates that run. */
  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  generator = grammar_schema_generator_new (database, schema);
  templates = grammar_schema_generator_generate (generator, &dropped, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (templates->len, >, 0);
  for (guint i = 0; i < templates->len; i++)
    {
      const char *sql = grammar_sql_template_get_sql (g_ptr_array_index (templates, i));

      g_assert_null (strstr (sql, " People_ID"));
      if (strstr (sql, "JOIN \"People\" p ON u.\"People_ID\" = p.\"People_ID\"") != NULL)
        joined = TRUE;
    }
  g_assert_true (joined);

  /* A Spider-style template with bare names runs. */
  spider = grammar_sql_template_new ("SELECT p.Name FROM user u JOIN People p ON u.People_ID = p.People_ID "
                                     "WHERE u.user = '[user.user]'", GRAMMAR_TEMPLATE_ORIGIN_IMPORT, &error);
  g_assert_no_error (error);
  g_assert_true (grammar_sql_template_validate (spider, database, schema, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (spider), ==,
                   "SELECT p.\"Name\" FROM \"user\" u JOIN \"People\" p ON u.\"People_ID\" = p.\"People_ID\" "
                   "WHERE u.\"user\" = ?1");
  result = query (database, grammar_sql_template_get_bound_sql (spider), g_variant_new ("(s)", "grace"));
  assert_string (grammar_result_get_value (result, 0, 0), "Grace Hopper");

  /* Where the schema has the name in two cases, a bare name is refused
   * unless the database reads it as it is written. */
  twins = open_database (&error, "schema", "twins", NULL);
  g_assert_no_error (error);
  twins_schema = grammar_database_get_schema (twins, NULL, &error);
  g_assert_no_error (error);
  ambiguous = grammar_sql_template_new ("SELECT \"Name\" FROM People WHERE \"People_ID\" = [People.People_ID]",
                                        GRAMMAR_TEMPLATE_ORIGIN_IMPORT, &error);
  g_assert_no_error (error);
  g_assert_false (grammar_sql_template_validate (ambiguous, twins, twins_schema, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, grammar_sql_template_get_id (ambiguous));
  grammar_test_assert_contains (error->message, "“people” and “People”");
  g_clear_error (&error);
  exact = grammar_sql_template_new ("SELECT name FROM people WHERE id = [people.id]",
                                    GRAMMAR_TEMPLATE_ORIGIN_IMPORT, &error);
  g_assert_no_error (error);
  g_assert_true (grammar_sql_template_validate (exact, twins, twins_schema, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (exact), ==, "SELECT name FROM people WHERE id = ?1");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("GRAMMAR_TEST_DB_PORT") == NULL || g_strcmp0 (g_getenv ("GRAMMAR_TEST_SERVER"), "postgres") != 0)
    {
      g_test_skip ("run through tests/servers/with-server.py postgres");
      return g_test_run ();
    }

  g_test_add_func ("/postgres/registry", test_registry);
  g_test_add_func ("/postgres/schema/tables", test_schema_tables);
  g_test_add_func ("/postgres/schema/columns", test_schema_columns);
  g_test_add_func ("/postgres/schema/keys", test_schema_keys);
  g_test_add_func ("/postgres/schema/view", test_schema_view);
  g_test_add_func ("/postgres/values/types", test_value_types);
  g_test_add_func ("/postgres/values/numeric", test_numeric_forms);
  g_test_add_func ("/postgres/values/bound", test_bound_values);
  g_test_add_func ("/postgres/values/parameter-twice", test_parameter_twice);
  g_test_add_func ("/postgres/cursor/streaming", test_streaming);
  g_test_add_func ("/postgres/cursor/nested", test_nested_cursors);
  g_test_add_func ("/postgres/cursor/abandoned", test_abandoned_cursor);
  g_test_add_func ("/postgres/cursor/cancel", test_cancel);
  g_test_add_func ("/postgres/async", test_async);
  g_test_add_func ("/postgres/reconnect", test_reconnect);
  g_test_add_func ("/postgres/query-timeout", test_query_timeout);
  g_test_add_func ("/postgres/query-timeout-default", test_query_timeout_default);
  g_test_add_func ("/postgres/open/wrong-password", test_wrong_password);
  g_test_add_func ("/postgres/open/unset-password-variable", test_unset_password_variable);
  g_test_add_func ("/postgres/open/unreachable", test_unreachable);
  g_test_add_func ("/postgres/open/unknown-database", test_unknown_database);
  g_test_add_func ("/postgres/open/schema", test_schema_setting);
  g_test_add_func ("/postgres/quoted-names", test_quoted_names);
  g_test_add_func ("/postgres/open/socket", test_socket);
  g_test_add_func ("/postgres/permission-denied", test_permission_denied);
  g_test_add_func ("/postgres/server-rejects", test_server_rejects);
  g_test_add_func ("/postgres/check-query", test_check_query);
  g_test_add_func ("/postgres/safety/refusals", test_refusals);
  g_test_add_func ("/postgres/safety/accepted", test_accepted);
  g_test_add_func ("/postgres/sql-form", test_sql_form);
  g_test_add_func ("/postgres/distinct-values", test_distinct_values);
  g_test_add_func ("/postgres/cli/schema", test_cli_schema);
  g_test_add_func ("/postgres/cli-qa-runaway", test_cli_qa_runaway);
  g_test_add_func ("/postgres/cli/wrong-password", test_cli_wrong_password);

  return g_test_run ();
}
