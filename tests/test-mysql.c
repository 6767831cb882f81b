/* test-mysql.c: the `mysql` database plugin, against a throwaway MariaDB
 *
 * Run by tests/servers/with-server.py with tests/servers/mysql-types.sql,
 * which provides the server and the GRAMMAR_TEST_DB_* environment.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#include <grammar.h>

#include "grammar-test-util.h"

#define PASSWORD_ENV "GRAMMAR_TEST_DB_PASSWORD"

static const char *
env (const char *name)
{
  const char *value = g_getenv (name);

  g_assert_nonnull (value);
  return value;
}

static guint
port (void)
{
  return (guint) g_ascii_strtoull (env ("GRAMMAR_TEST_DB_PORT"), NULL, 10);
}

/* A database over TCP; more properties may follow, NULL-terminated. */
static GrammarDatabase *
open_database_valist (GError     **error,
                      const char  *first_property,
                      va_list      more)
{
  GrammarRegistry *registry = grammar_registry_get_default ();
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
  gboolean has_socket = FALSE, has_port = FALSE, has_host = FALSE;
  GObject *object;

  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);
  info = grammar_registry_lookup (registry, GRAMMAR_TYPE_DATABASE, "mysql", NULL);
  g_assert_nonnull (info);

  for (const char *name = first_property; name != NULL; name = va_arg (more, const char *))
    {
      GValue value = G_VALUE_INIT;

      if (g_str_equal (name, "port") || g_str_equal (name, "connect-timeout") ||
          g_str_equal (name, "query-timeout"))
        {
          g_value_init (&value, G_TYPE_UINT);
          g_value_set_uint (&value, va_arg (more, guint));
        }
      else
        {
          g_value_init (&value, G_TYPE_STRING);
          g_value_set_string (&value, va_arg (more, const char *));
        }
      has_socket |= g_str_equal (name, "socket");
      has_port |= g_str_equal (name, "port");
      has_host |= g_str_equal (name, "host");
      g_ptr_array_add (names, (gpointer) name);
      g_array_append_val (values, value);
    }

  /* Defaults: TCP to the test server, as the reader. */
  {
    const char *keys[] = { "database", "user", "password-env", NULL };
    const char *texts[] = { env ("GRAMMAR_TEST_DB_NAME"), env ("GRAMMAR_TEST_DB_USER"), PASSWORD_ENV };

    for (guint k = 0; keys[k] != NULL; k++)
      {
        GValue value = G_VALUE_INIT;
        gboolean given = FALSE;

        for (guint i = 0; i < names->len; i++)
          given |= g_str_equal (g_ptr_array_index (names, i), keys[k]);
        if (given)
          continue;
        g_value_init (&value, G_TYPE_STRING);
        g_value_set_string (&value, texts[k]);
        g_ptr_array_add (names, (gpointer) keys[k]);
        g_array_append_val (values, value);
      }
  }
  if (!has_socket && !has_host)
    {
      GValue value = G_VALUE_INIT;

      g_value_init (&value, G_TYPE_STRING);
      g_value_set_string (&value, env ("GRAMMAR_TEST_DB_HOST"));
      g_ptr_array_add (names, (gpointer) "host");
      g_array_append_val (values, value);
    }
  if (!has_socket && !has_port)
    {
      GValue value = G_VALUE_INIT;

      g_value_init (&value, G_TYPE_UINT);
      g_value_set_uint (&value, port ());
      g_ptr_array_add (names, (gpointer) "port");
      g_array_append_val (values, value);
    }

  object = g_object_new_with_properties (grammar_plugin_info_get_gtype (info), names->len,
                                         (const char **) names->pdata, (const GValue *) values->data);
  if (!g_initable_init (G_INITABLE (object), NULL, error))
    {
      g_object_unref (object);
      return NULL;
    }
  return GRAMMAR_DATABASE (object);
}

static GrammarDatabase *
open_database (GError     **error,
               const char  *first_property,
               ...)
{
  GrammarDatabase *database;
  va_list more;

  va_start (more, first_property);
  database = open_database_valist (error, first_property, more);
  va_end (more);
  return database;
}

static GrammarDatabase *
open_default (void)
{
  g_autoptr (GError) error = NULL;
  GrammarDatabase *database = open_database (&error, NULL);

  g_assert_no_error (error);
  return database;
}

static void
admin_sql (const char *sql)
{
  const char *argv[] = { "python3", env ("GRAMMAR_TEST_WITH_SERVER"), "admin-sql", NULL };
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GBytes) input = g_bytes_new (sql, strlen (sql));
  g_autoptr (GError) error = NULL;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (process, input, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (process));
}

/* The only row of a query, one value. */
static GVariant *
query_value (GrammarDatabase *database,
             const char      *sql,
             GVariant        *parameters)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarResult) result = grammar_database_query (database, sql, parameters, NULL, &error);
  GVariant *value;

  g_assert_no_error (error);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 1);
  value = grammar_result_get_value (result, 0, 0);
  return value != NULL ? g_variant_ref (value) : NULL;
}

static gint64
query_int (GrammarDatabase *database,
           const char      *sql,
           GVariant        *parameters)
{
  g_autoptr (GVariant) value = query_value (database, sql, parameters);

  g_assert_nonnull (value);
  g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64));
  return g_variant_get_int64 (value);
}

static void
assert_query_fails (GrammarDatabase *database,
                    const char      *sql,
                    GVariant        *parameters,
                    int              code,
                    const char      *mentioned)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarResult) result = grammar_database_query (database, sql, parameters, NULL, &error);

  g_assert_null (result);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, code);
  if (mentioned != NULL)
    grammar_test_assert_contains (error->message, mentioned);
}

/* Connecting. */

static void
test_connect_tcp (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();

  g_assert_cmpint (query_int (database, "SELECT 6 * 7", NULL), ==, 42);
}

static void
test_connect_socket (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GVariant) user = NULL;

  database = open_database (&error, "socket", env ("GRAMMAR_TEST_DB_SOCKET"), NULL);
  g_assert_no_error (error);
  user = query_value (database, "SELECT CURRENT_USER()", NULL);
  g_assert_cmpstr (g_variant_get_string (user, NULL), ==, "grammar_reader@localhost");
}

/* main() sets this variable to a wrong password before any thread runs. */
#define WRONG_PASSWORD_ENV "GRAMMAR_TEST_WRONG_PASSWORD"
#define WRONG_PASSWORD "not-the-Password-7"

static void
test_connect_wrong_password (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = NULL;

  database = open_database (&error, "password-env", WRONG_PASSWORD_ENV, NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, WRONG_PASSWORD_ENV);
  grammar_test_assert_contains (error->message, "grammar_reader");
  grammar_test_assert_contains (error->message, "127.0.0.1:");
  g_assert_null (strstr (error->message, WRONG_PASSWORD));
  g_assert_null (strstr (error->message, env (PASSWORD_ENV)));
}

static void
test_connect_unset_variable (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = NULL;

  database = open_database (&error, "password-env", "GRAMMAR_TEST_NO_SUCH_VARIABLE", NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, "GRAMMAR_TEST_NO_SUCH_VARIABLE");
  grammar_test_assert_contains (error->message, "is not set");
}

static guint
closed_port (void)
{
  g_autoptr (GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, 0, NULL);
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;

  g_socket_bind (socket, any, TRUE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  /* Bound but not listening: connections are refused. */
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static void
test_connect_closed_port (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = NULL;
  gint64 start = g_get_monotonic_time ();
  guint closed = closed_port ();
  g_autofree char *where = g_strdup_printf ("127.0.0.1:%u", closed);

  database = open_database (&error, "port", closed, "connect-timeout", 2u, NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, where);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_connect_unknown_database (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = NULL;

  database = open_database (&error, "database", "no_such_db", NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, "no_such_db");
}

static void
test_connect_settings (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = NULL;

  /* The test server offers no TLS: require must not go on in clear text. */
  database = open_database (&error, "sslmode", "require", NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  grammar_test_assert_contains (error->message, "sslmode=require");
  g_clear_error (&error);

  database = open_database (&error, "sslmode", "sometimes", NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  g_clear_error (&error);

  database = open_database (&error, "socket", env ("GRAMMAR_TEST_DB_SOCKET"),
                            "host", "127.0.0.1", NULL);
  g_assert_null (database);
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN);
  g_clear_error (&error);

  database = open_database (&error, "sslmode", "disable", NULL);
  g_assert_no_error (error);
  g_assert_cmpint (query_int (database, "SELECT 1", NULL), ==, 1);
}

/* Introspection. */

static GStrv
table_names (GrammarSchema *schema)
{
  GPtrArray *tables = grammar_schema_get_tables (schema);
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();

  for (guint i = 0; i < tables->len; i++)
    g_strv_builder_add (names, grammar_table_get_name (g_ptr_array_index (tables, i)));
  return g_strv_builder_end (names);
}

static char *
joined_table_names (GrammarSchema *schema)
{
  g_auto (GStrv) names = table_names (schema);

  return g_strjoinv (" ", names);
}

static GrammarSchema *
read_schema (GrammarDatabase *database)
{
  g_autoptr (GError) error = NULL;
  GrammarSchema *schema = grammar_database_get_schema (database, NULL, &error);

  g_assert_no_error (error);
  return schema;
}

static void
test_schema_order_without_process (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autoptr (GrammarSchema) schema = read_schema (database);
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarResult) expected = NULL;
  g_autoptr (GString) by_time = g_string_new (NULL);
  g_autofree char *names = joined_table_names (schema);

  /* Without PROCESS the tables come by creation time (to the second),
   * then by name; views by name after them. */
  expected = grammar_database_query (database,
                                     "SELECT TABLE_NAME FROM information_schema.TABLES"
                                     " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'"
                                     " ORDER BY CREATE_TIME, TABLE_NAME", NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < grammar_result_get_n_rows (expected); i++)
    g_string_append_printf (by_time, "%s ",
                            g_variant_get_string (grammar_result_get_value (expected, i, 0), NULL));
  g_string_append (by_time, "book_titles");
  g_assert_cmpstr (names, ==, by_time->str);
}

static void
test_schema_order_with_process (void)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autofree char *names = NULL;

  admin_sql ("GRANT PROCESS ON *.* TO 'grammar_reader'@'localhost';"
             "GRANT PROCESS ON *.* TO 'grammar_reader'@'127.0.0.1';");
  database = open_default ();
  schema = read_schema (database);
  names = joined_table_names (schema);
  g_assert_cmpstr (names, ==,
                   "zeta_authors alpha_books middle_loans value_types latin1_names words digits numbers"
                   " many_refs book_titles");
}

static void
assert_columns (GrammarTable       *table,
                const char * const *expected)
{
  GPtrArray *columns = grammar_table_get_columns (table);

  for (guint i = 0; i < columns->len; i++)
    g_assert_cmpstr (grammar_column_get_name (g_ptr_array_index (columns, i)), ==, expected[i]);
  g_assert_cmpuint (columns->len, ==, g_strv_length ((GStrv) expected));
}

static void
assert_strv (const char * const *actual,
             const char         *expected)
{
  g_autofree char *joined = g_strjoinv (",", (GStrv) actual);

  g_assert_cmpstr (joined, ==, expected);
}

static void
test_schema_keys (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autoptr (GrammarSchema) schema = read_schema (database);
  GrammarTable *authors = grammar_schema_get_table (schema, "zeta_authors");
  GrammarTable *books = grammar_schema_get_table (schema, "alpha_books");
  GrammarTable *loans = grammar_schema_get_table (schema, "middle_loans");
  GrammarTable *view = grammar_schema_get_table (schema, "book_titles");
  GPtrArray *foreign_keys;
  GrammarForeignKey *fk;
  GrammarColumn *column;
  g_auto (GStrv) primary_key = NULL;
  const char * const book_columns[] = { "author_id", "book_no", "title", "isbn", "blurb", "pages", NULL };

  g_assert_nonnull (authors);
  g_assert_false (grammar_table_get_is_view (authors));
  assert_columns (books, book_columns);

  /* Composite primary key, by position. */
  primary_key = grammar_table_dup_primary_key (books);
  assert_strv ((const char * const *) primary_key, "author_id,book_no");
  g_assert_cmpuint (grammar_column_get_primary_key_position (grammar_table_get_column (books, "book_no")), ==, 2);

  /* The UNIQUE constraint; the separate UNIQUE INDEX and the long
   * unique (HASH) key on a TEXT column, in the server's key order; not
   * the prefix index, nor the index repeating the primary key. */
  g_assert_cmpuint (grammar_table_get_n_unique_constraints (authors), ==, 1);
  assert_strv (grammar_table_get_unique_constraint (authors, 0), "email");
  g_assert_cmpuint (grammar_table_get_n_unique_constraints (books), ==, 2);
  assert_strv (grammar_table_get_unique_constraint (books, 0), "isbn");
  assert_strv (grammar_table_get_unique_constraint (books, 1), "blurb");

  /* Types as the server spells them, nullability, defaults. */
  column = grammar_table_get_column (books, "title");
  g_assert_cmpstr (grammar_column_get_declared_type (column), ==, "text");
  g_assert_false (grammar_column_get_nullable (column));
  g_assert_null (grammar_column_get_default_value (column));
  column = grammar_table_get_column (books, "pages");
  g_assert_cmpstr (grammar_column_get_declared_type (column), ==, "int(11)");
  g_assert_true (grammar_column_get_nullable (column));
  g_assert_cmpstr (grammar_column_get_default_value (column), ==, "100");
  column = grammar_table_get_column (loans, "reader");
  g_assert_cmpstr (grammar_column_get_default_value (column), ==, "'anon'");
  column = grammar_table_get_column (loans, "note");
  g_assert_true (grammar_column_get_nullable (column));
  g_assert_null (grammar_column_get_default_value (column));
  column = grammar_table_get_column (grammar_schema_get_table (schema, "value_types"), "big_unsigned");
  g_assert_cmpstr (grammar_column_get_declared_type (column), ==, "bigint(20) unsigned");

  /* Foreign keys in declaration order, the two-column one whole. */
  foreign_keys = grammar_table_get_foreign_keys (loans);
  g_assert_cmpuint (foreign_keys->len, ==, 2);
  fk = g_ptr_array_index (foreign_keys, 0);
  assert_strv (grammar_foreign_key_get_columns (fk), "lender_id");
  g_assert_cmpstr (grammar_foreign_key_get_referenced_table (fk), ==, "zeta_authors");
  assert_strv (grammar_foreign_key_get_referenced_columns (fk), "id");
  fk = g_ptr_array_index (foreign_keys, 1);
  assert_strv (grammar_foreign_key_get_columns (fk), "author_id,book_no");
  g_assert_cmpstr (grammar_foreign_key_get_referenced_table (fk), ==, "alpha_books");
  assert_strv (grammar_foreign_key_get_referenced_columns (fk), "author_id,book_no");
  g_assert_cmpuint (grammar_table_get_foreign_keys (books)->len, ==, 1);

  /* Automatic names by their number: c1 … c11 as declared. */
  foreign_keys = grammar_table_get_foreign_keys (grammar_schema_get_table (schema, "many_refs"));
  g_assert_cmpuint (foreign_keys->len, ==, 11);
  for (guint i = 0; i < foreign_keys->len; i++)
    {
      g_autofree char *expected = g_strdup_printf ("c%u", i + 1);

      assert_strv (grammar_foreign_key_get_columns (g_ptr_array_index (foreign_keys, i)), expected);
    }

  /* The view and its columns. */
  g_assert_nonnull (view);
  g_assert_true (grammar_table_get_is_view (view));
  g_assert_cmpuint (grammar_table_get_columns (view)->len, ==, 2);
}

/* Values. */

static GVariant *
value_of (GrammarDatabase *database,
          const char      *column,
          gint64           id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT \"%s\" FROM value_types WHERE id = ?1", column);

  return query_value (database, sql, g_variant_new ("(x)", id));
}

static void
assert_text (GrammarDatabase *database,
             const char      *column,
             const char      *expected)
{
  g_autoptr (GVariant) value = value_of (database, column, 1);

  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_type_string (value), ==, "s");
  g_assert_cmpstr (g_variant_get_string (value, NULL), ==, expected);
}

/* An exact decimal: the server's text, kept. */
static void
assert_decimal (GrammarDatabase *database,
                const char      *column,
                const char      *expected)
{
  g_autoptr (GVariant) value = value_of (database, column, 1);

  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_type_string (value), ==, "(s)");
  g_assert_cmpstr (grammar_value_get_decimal (value), ==, expected);
}

static void
assert_int (GrammarDatabase *database,
            const char      *column,
            gint64           expected)
{
  g_autoptr (GVariant) value = value_of (database, column, 1);

  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_type_string (value), ==, "x");
  g_assert_cmpint (g_variant_get_int64 (value), ==, expected);
}

static void
assert_double (GrammarDatabase *database,
               const char      *column,
               double           expected)
{
  g_autoptr (GVariant) value = value_of (database, column, 1);

  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_type_string (value), ==, "d");
  g_assert_cmpfloat (g_variant_get_double (value), ==, expected);
}

static void
test_values (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autoptr (GVariant) blob = NULL;
  g_autoptr (GVariant) bytes = NULL;
  g_autoptr (GVariant) long_text = NULL;
  g_autoptr (GrammarResult) nulls = NULL;
  g_autoptr (GError) error = NULL;

  /* beyond int64: the exact number of its digits */
  assert_decimal (database, "big_unsigned", "18446744073709551615");
  assert_int (database, "big_signed", G_MININT64);
  assert_int (database, "small_int", -12);
  /* decimals as the server writes them, trailing zeros and all */
  assert_decimal (database, "dec_small", "1234.50");
  assert_decimal (database, "dec_whole", "5.00");
  assert_decimal (database, "dec_big", "12345678901234567890.1234567890");
  assert_double (database, "single_float", 0.1);
  assert_double (database, "double_float", 0.1);
  assert_int (database, "flag", 1);
  assert_text (database, "day", "2024-02-29");
  assert_text (database, "moment", "2024-02-29 13:45:10.123456");
  assert_text (database, "whole_moment", "2024-02-29 13:45:10");
  assert_text (database, "stamp", "2024-02-29 13:45:10");
  assert_text (database, "duration", "-838:59:59");
  assert_int (database, "yr", 2024);
  assert_int (database, "bits", 513);
  assert_text (database, "txt", "Ferrández ✓");
  assert_text (database, "nul_text", "a\xEF\xBF\xBD" "b");
  assert_text (database, "choice", "y");
  assert_text (database, "doc", "{\"a\": [1, 2]}");

  blob = value_of (database, "data", 1);
  g_assert_cmpstr (g_variant_get_type_string (blob), ==, "ay");
  g_assert_cmpmem (g_variant_get_data (blob), g_variant_get_size (blob), "\x00\xff\x10", 3);
  bytes = value_of (database, "short_bytes", 1);
  g_assert_cmpstr (g_variant_get_type_string (bytes), ==, "ay");
  g_assert_cmpmem (g_variant_get_data (bytes), g_variant_get_size (bytes), "ab", 2);

  /* Longer than any first buffer: read whole. */
  long_text = value_of (database, "long_txt", 1);
  g_assert_cmpuint (strlen (g_variant_get_string (long_text, NULL)), ==, 100000);
  g_assert_true (g_str_has_suffix (g_variant_get_string (long_text, NULL), "0123456789"));

  /* Every column of the second row is NULL but its id. */
  nulls = grammar_database_query (database, "SELECT * FROM value_types WHERE id = 2", NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 1; i < grammar_result_get_n_columns (nulls); i++)
    g_assert_null (grammar_result_get_value (nulls, 0, i));
}

static void
test_values_latin1 (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autoptr (GVariant) name = query_value (database, "SELECT name FROM latin1_names", NULL);

  g_assert_cmpstr (g_variant_get_string (name, NULL), ==, "Ferrández");
}

static void
test_parameters (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  const char tricky[] = "it's a \"quote\" \\ back\\slash \\' \\n é";
  g_autoptr (GVariant) echoed = NULL;
  g_autoptr (GVariant) blob = NULL;
  g_autoptr (GVariant) nothing = NULL;
  const guchar bytes[] = { 0, 0xff, '\'', '\\' };

  /* Byte-exact through the server, whatever the quotes and backslashes. */
  echoed = query_value (database, "SELECT ?1", g_variant_new ("(s)", tricky));
  g_assert_cmpstr (g_variant_get_string (echoed, NULL), ==, tricky);
  blob = query_value (database, "SELECT ?", g_variant_new ("(@ay)",
                                                           g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, bytes,
                                                                                      sizeof bytes, 1)));
  g_assert_cmpmem (g_variant_get_data (blob), g_variant_get_size (blob), bytes, sizeof bytes);

  /* ?1 twice, ?2 once; booleans as 0/1; doubles; NULL. */
  g_assert_cmpint (query_int (database, "SELECT ?1 + ?2 * 10 + ?1 * 100", g_variant_new ("(xx)", 1, 2)), ==, 121);
  g_assert_cmpint (query_int (database, "SELECT ?1 + 0", g_variant_new ("(b)", TRUE)), ==, 1);
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM zeta_authors WHERE name = ?1 OR email = ?1",
                              g_variant_new ("(s)", "Ann")), ==, 1);
  g_assert_cmpint (query_int (database, "SELECT id FROM value_types WHERE double_float = ?",
                              g_variant_new ("(d)", 0.1)), ==, 1);
  /* An exact decimal is compared as a DECIMAL: as a string the server
   * would compare doubles, and the last digit would not count. */
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM value_types WHERE dec_big = ?",
                              g_variant_new ("(@(s))", grammar_value_new_decimal ("12345678901234567890.1234567890", -1))),
                   ==, 1);
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM value_types WHERE dec_big = ?",
                              g_variant_new ("(@(s))", grammar_value_new_decimal ("12345678901234567890.1234567891", -1))),
                   ==, 0);
  nothing = query_value (database, "SELECT ?1", g_variant_new ("(mx)", FALSE, 0));
  g_assert_null (nothing);

  assert_query_fails (database, "SELECT ?1, ?2", g_variant_new ("(x)", 1),
                      GRAMMAR_DATABASE_ERROR_BIND, "?2 has no value");
  assert_query_fails (database, "SELECT 1", g_variant_new ("(x)", 1),
                      GRAMMAR_DATABASE_ERROR_BIND, "does not exist");
}

/* Differences from SQLite that the default collation makes: pinned. */
static void
test_collation (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autofree char *binary = NULL;
  g_autofree char *length = NULL;
  g_autofree char *distinct = NULL;
  g_autofree char *count = NULL;
  g_autofree char *numbers = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarResult) result = NULL;

  /* `=` folds case and ignores trailing spaces, also against a parameter. */
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM words WHERE w = 'APPLE'", NULL), ==, 2);
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM words WHERE w = ?1",
                              g_variant_new ("(s)", "aPPle")), ==, 2);
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM words WHERE w = 'pear'", NULL), ==, 2);
  g_assert_cmpint (query_int (database, "SELECT COUNT(DISTINCT w) FROM words", NULL), ==, 2);

  /* The library's BINARY form tells them all apart, in byte order. */
  binary = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, "w", "varchar(20)");
  count = g_strdup_printf ("SELECT COUNT(DISTINCT %s) FROM words", binary);
  g_assert_cmpint (query_int (database, count, NULL), ==, 4);
  distinct = g_strdup_printf ("SELECT DISTINCT %s FROM words ORDER BY 1", binary);
  result = grammar_database_query (database, distinct, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 4);
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 0), NULL), ==, "Apple");
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 1, 0), NULL), ==, "apple");
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 2, 0), NULL), ==, "pear");
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 3, 0), NULL), ==, "pear ");
  g_clear_object (&result);

  /* On a latin1 column too; numbers keep their type. */
  g_free (binary);
  binary = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, "name", "varchar(50)");
  g_free (distinct);
  distinct = g_strdup_printf ("SELECT %s FROM latin1_names WHERE %s = 'Ferrández'", binary, binary);
  result = grammar_database_query (database, distinct, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_result_get_n_rows (result), ==, 1);
  g_clear_object (&result);
  g_free (binary);
  binary = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, "i", "int(11)");
  numbers = g_strdup_printf ("SELECT MAX(%s) FROM numbers", binary);
  g_assert_cmpint (query_int (database, numbers, NULL), ==, 129);

  /* Characters, not bytes, of any type written as text. */
  length = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_TEXT_LENGTH, "txt", "varchar(50)");
  g_free (count);
  count = g_strdup_printf ("SELECT %s FROM value_types WHERE id = 1", length);
  g_assert_cmpint (query_int (database, count, NULL), ==, 11);
  g_free (length);
  length = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_TEXT_LENGTH, "day", "date");
  g_free (count);
  count = g_strdup_printf ("SELECT %s FROM value_types WHERE id = 1", length);
  g_assert_cmpint (query_int (database, count, NULL), ==, 10);

  /* Decimals as SQLite keeps them: 1234.50 is 1234.5, 5.00 is 5. */
  g_free (length);
  length = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_TEXT_LENGTH, "dec_small", "decimal(10,2)");
  g_free (count);
  count = g_strdup_printf ("SELECT %s FROM value_types WHERE id = 1", length);
  g_assert_cmpint (query_int (database, count, NULL), ==, 6);
  g_free (length);
  length = grammar_database_sql_form (database, GRAMMAR_SQL_FORM_TEXT_LENGTH, "dec_whole", "decimal(10,2)");
  g_free (count);
  count = g_strdup_printf ("SELECT %s FROM value_types WHERE id = 1", length);
  g_assert_cmpint (query_int (database, count, NULL), ==, 1);
}

/* Refusals: each statement fails before it reaches the server, naming
 * what it refuses. */
static const struct
{
  const char *sql;
  const char *mentioned;
} refused[] = {
  { "SELECT * FROM zeta_authors INTO OUTFILE '/tmp/grammar-out'", "INTO" },
  { "SELECT name FROM zeta_authors LIMIT 1 INTO DUMPFILE '/tmp/grammar-out'", "INTO" },
  { "SELECT * FROM zeta_authors FOR UPDATE", "FOR UPDATE" },
  { "SELECT * FROM zeta_authors LOCK IN SHARE MODE", "LOCK" },
  { "SELECT * FROM zeta_authors FOR SHARE", "FOR SHARE" },
  { "SELECT 1 FROM zeta_authors WHERE (SELECT 1 FROM words LOCK IN SHARE MODE) = 1", "LOCK" },
  { "LOCK TABLES zeta_authors READ", "LOCK" },
  { "UNLOCK TABLES", "UNLOCK" },
  { "HANDLER zeta_authors OPEN", "HANDLER" },
  { "CALL p()", "CALL" },
  { "DO 1", "DO" },
  { "SET @a = 1", "SET" },
  { "SELECT CAST(name AS CHAR CHARACTER SET latin1) FROM zeta_authors", "SET" },
  { "LOAD DATA INFILE '/etc/passwd' INTO TABLE words", "LOAD" },
  { "PREPARE s FROM 'SELECT 1'", "PREPARE" },
  { "EXECUTE s", "EXECUTE" },
  { "DEALLOCATE PREPARE s", "DEALLOCATE" },
  { "SHOW TABLES", "SHOW" },
  { "INSERT INTO words VALUES ('x')", "INSERT" },
  { "UPDATE words SET w = 'x'", "UPDATE" },
  { "DELETE FROM words", "DELETE" },
  { "WITH x AS (SELECT 1) DELETE FROM words", "DELETE" },
  { "WITH x AS (SELECT 1) UPDATE words SET w = 'x'", "UPDATE" },
  { "REPLACE INTO words VALUES ('x')", "REPLACE" },
  { "FLUSH TABLES", "FLUSH" },
  { "KILL 1", "KILL" },
  { "SELECT NEXT VALUE FOR s", "NEXT VALUE FOR" },
  { "SELECT LOAD_FILE('/etc/passwd')", "LOAD_FILE" },
  { "SELECT SLEEP(0)", "SLEEP" },
  { "SELECT sleep (0)", "SLEEP" },
  { "SELECT BENCHMARK(10, 1)", "BENCHMARK" },
  { "SELECT GET_LOCK('a', 0)", "GET_LOCK" },
  { "SELECT RELEASE_LOCK('a')", "RELEASE_LOCK" },
  { "SELECT RELEASE_ALL_LOCKS()", "RELEASE_ALL_LOCKS" },
  { "SELECT IS_FREE_LOCK('a')", "IS_FREE_LOCK" },
  { "SELECT IS_USED_LOCK('a')", "IS_USED_LOCK" },
  { "SELECT MASTER_POS_WAIT('log', 4)", "MASTER_POS_WAIT" },
  { "SELECT SOURCE_POS_WAIT('log', 4)", "SOURCE_POS_WAIT" },
  { "SELECT MASTER_GTID_WAIT('0-1-1')", "MASTER_GTID_WAIT" },
  { "SELECT WAIT_FOR_EXECUTED_GTID_SET('x')", "WAIT_FOR_EXECUTED_GTID_SET" },
  { "SELECT WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS('x')", "WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS" },
  { "SELECT NEXTVAL(s)", "NEXTVAL" },
  { "SELECT SETVAL(s, 1)", "SETVAL" },
  { "SELECT LASTVAL(s)", "LASTVAL" },
  { "SELECT SYS_EXEC('id')", "SYS_EXEC" },
  { "SELECT SYS_EVAL('id')", "SYS_EVAL" },
  { "SELECT LAST_INSERT_ID(5)", "LAST_INSERT_ID" },
  { "SELECT 1 FROM digits PROCEDURE ANALYSE()", "PROCEDURE" },
  { "SELECT @a := 1", "@" },
  { "SELECT @@version", "@" },
  { "SELECT /*! SLEEP(1) */ 1", NULL },
};

static void
test_refused (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GError) check_error = NULL;
      g_autoptr (GrammarResult) result = NULL;
      guint n = 0;

      g_test_message ("refused: %s", refused[i].sql);
      result = grammar_database_query (database, refused[i].sql, NULL, NULL, &error);
      g_assert_null (result);
      g_assert_nonnull (error);
      g_assert_true (error->domain == GRAMMAR_DATABASE_ERROR);
      g_assert_true (error->code == GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY ||
                     error->code == GRAMMAR_DATABASE_ERROR_BIND);
      if (refused[i].mentioned != NULL)
        {
          g_autofree char *upper = g_ascii_strup (error->message, -1);

          grammar_test_assert_contains (upper, refused[i].mentioned);
        }
      g_assert_false (grammar_database_check_query (database, refused[i].sql, &n, &check_error));
      g_assert_true (check_error->domain == GRAMMAR_DATABASE_ERROR);
      g_assert_cmpint (check_error->code, ==, error->code);
    }

  /* What is allowed: the same words inside strings and quoted names,
   * and functions without side effects. */
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM words WHERE w <> 'INTO OUTFILE; SLEEP(1)'", NULL),
                   ==, 4);
  g_assert_cmpint (query_int (database, "SELECT CHAR_LENGTH(CONCAT('a', UPPER('b')))", NULL), ==, 2);
  assert_query_fails (database, "SELECT 1; SELECT 2", NULL, GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS, NULL);
}

static void
test_server_errors (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autoptr (GError) error = NULL;
  guint n = 0;

  assert_query_fails (database, "SELECT FROM WHERE", NULL, GRAMMAR_DATABASE_ERROR_SYNTAX, NULL);
  assert_query_fails (database, "SELECT * FROM no_such_table", NULL, GRAMMAR_DATABASE_ERROR_NO_SUCH_TABLE,
                      "no_such_table");
  assert_query_fails (database, "SELECT no_such_column FROM words", NULL, GRAMMAR_DATABASE_ERROR_NO_SUCH_COLUMN,
                      "no_such_column");

  /* check_query compiles on the server without running, and counts. */
  g_assert_true (grammar_database_check_query (database, "SELECT ?1, ?2, ?1 FROM words", &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 2);
  g_assert_false (grammar_database_check_query (database, "SELECT FROM WHERE", &n, &error));
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX);
  g_clear_error (&error);

  /* A table of another database the reader has no grant on. */
  admin_sql ("CREATE DATABASE grammar_secret; CREATE TABLE grammar_secret.t (x INT);");
  assert_query_fails (database, "SELECT x FROM grammar_secret.t", NULL, GRAMMAR_DATABASE_ERROR_OPEN,
                      "denied");
}

/* Streaming and connections. */

static gsize
peak_memory_kb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "VmHWM:");
  g_assert_nonnull (line);
  return (gsize) g_ascii_strtoull (line + strlen ("VmHWM:"), NULL, 10);
}

static void
test_streaming (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autoptr (GError) error = NULL;
  gsize before, after;
  guint64 rows = 0;

  before = peak_memory_kb ();
  cursor = grammar_database_query_cursor (database,
                                          "SELECT a.i, b.i, c.i FROM numbers a, numbers b, numbers c",
                                          NULL, NULL, &error);
  g_assert_no_error (error);
  while (grammar_cursor_next (cursor, NULL, &error))
    {
      /* Only some values are read: under AddressSanitizer every freed
       * value would wait in its quarantine and count as memory used. */
      if (rows++ % 4096 == 0)
        {
          g_autoptr (GVariant) value = grammar_cursor_get_value (cursor, 2);

          g_assert_cmpint (g_variant_get_int64 (value), >=, 0);
          g_assert_cmpint (g_variant_get_int64 (value), <, 130);
        }
    }
  g_assert_no_error (error);
  after = peak_memory_kb ();

  /* Stored on the client, these rows take about 80 MB. */
  g_assert_cmpuint (rows, ==, 130 * 130 * 130);
  g_test_message ("VmHWM %zu kB before, %zu kB after", before, after);
  g_assert_cmpuint (after - before, <, 50 * 1024);
}

static void
test_nested_cursors (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autoptr (GrammarCursor) outer = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) seen = g_string_new (NULL);

  outer = grammar_database_query_cursor (database, "SELECT id, name FROM zeta_authors ORDER BY id",
                                         NULL, NULL, &error);
  g_assert_no_error (error);
  while (grammar_cursor_next (outer, NULL, &error))
    {
      g_autoptr (GVariant) id = grammar_cursor_get_value (outer, 0);
      g_autoptr (GrammarCursor) inner = NULL;

      inner = grammar_database_query_cursor (database,
                                             "SELECT book_no FROM alpha_books WHERE author_id = ?1 ORDER BY book_no",
                                             g_variant_new ("(x)", g_variant_get_int64 (id)), NULL, &error);
      g_assert_no_error (error);
      g_string_append_printf (seen, "%" G_GINT64_FORMAT ":", g_variant_get_int64 (id));
      while (grammar_cursor_next (inner, NULL, &error))
        {
          g_autoptr (GVariant) book = grammar_cursor_get_value (inner, 0);

          g_string_append_printf (seen, "%" G_GINT64_FORMAT ",", g_variant_get_int64 (book));
        }
      g_assert_no_error (error);
      g_string_append_c (seen, ' ');
    }
  g_assert_no_error (error);
  g_assert_cmpstr (seen->str, ==, "1:1,2, 2: 3:1, ");

  /* A cursor dropped early gives no trouble to the next query. */
  {
    g_autoptr (GrammarCursor) early = grammar_database_query_cursor (database,
                                                                      "SELECT a.i FROM numbers a, numbers b",
                                                                      NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (grammar_cursor_next (early, NULL, &error));
  }
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM numbers", NULL), ==, 130);
}

static gpointer
query_from_thread (gpointer data)
{
  GrammarDatabase *database = data;

  for (guint i = 0; i < 30; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarCursor) cursor = NULL;
      guint rows = 0;

      cursor = grammar_database_query_cursor (database, "SELECT i FROM numbers WHERE i < ?1",
                                              g_variant_new ("(x)", (gint64) i + 1), NULL, &error);
      g_assert_no_error (error);
      while (grammar_cursor_next (cursor, NULL, &error))
        rows++;
      g_assert_no_error (error);
      g_assert_cmpuint (rows, ==, i + 1);
    }
  return NULL;
}

/* Worker threads share the database: each cursor has a connection. */
static void
test_threads (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  GThread *threads[6];

  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    threads[t] = g_thread_new ("query", query_from_thread, database);
  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    g_thread_join (threads[t]);
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM numbers", NULL), ==, 130);
}

/* Cancelling stops a cursor between rows; the database goes on. */
static void
test_cancel (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autoptr (GError) error = NULL;

  cursor = grammar_database_query_cursor (database, "SELECT a.i FROM numbers a, numbers b, numbers c",
                                          NULL, cancellable, &error);
  g_assert_no_error (error);
  g_assert_true (grammar_cursor_next (cursor, cancellable, &error));
  g_cancellable_cancel (cancellable);
  g_assert_false (grammar_cursor_next (cursor, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&cursor);

  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM numbers", NULL), ==, 130);
}

static void
test_reconnect (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  gint64 first = query_int (database, "SELECT CONNECTION_ID()", NULL);
  g_autofree char *kill = g_strdup_printf ("KILL CONNECTION %" G_GINT64_FORMAT, first);
  gint64 second;

  /* The connection went back to the pool; the server drops it. */
  admin_sql (kill);
  second = query_int (database, "SELECT CONNECTION_ID()", NULL);
  g_assert_cmpint (second, !=, first);
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM words", NULL), ==, 4);
}

static char *
session_variable (GrammarDatabase *database,
                  const char      *name)
{
  g_autoptr (GVariant) value = query_value (database,
                                            "SELECT VARIABLE_VALUE FROM information_schema.SESSION_VARIABLES"
                                            " WHERE VARIABLE_NAME = ?1", g_variant_new ("(s)", name));

  return g_variant_dup_string (value, NULL);
}

/* Even a statement that gets past the checks cannot write: a stored
 * function with the rights of its (admin) definer inserts, and the
 * read-only transaction stops it. */
static void
test_read_only_session (void)
{
  g_autoptr (GrammarDatabase) database = open_default ();
  g_autofree char *mode = session_variable (database, "SQL_MODE");
  g_autofree char *zone = session_variable (database, "TIME_ZONE");
  g_autofree char *read_only = session_variable (database, "TX_READ_ONLY");

  g_assert_cmpstr (mode, ==, "PIPES_AS_CONCAT,ANSI_QUOTES,NO_BACKSLASH_ESCAPES");
  g_assert_cmpstr (zone, ==, "+00:00");
  g_assert_cmpstr (read_only, ==, "ON");
  g_assert_cmpint (query_int (database, "SELECT CHAR_LENGTH('a' || 'b')", NULL), ==, 2);

  admin_sql ("DELIMITER //\n"
             "CREATE FUNCTION grammar_test.sneaky_writer () RETURNS INT MODIFIES SQL DATA SQL SECURITY DEFINER\n"
             "BEGIN INSERT INTO grammar_test.words VALUES ('sneaky'); RETURN 1; END//\n"
             "DELIMITER ;\n"
             "GRANT EXECUTE ON FUNCTION grammar_test.sneaky_writer TO 'grammar_reader'@'127.0.0.1';\n");
  assert_query_fails (database, "SELECT sneaky_writer()", NULL, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, NULL);
  g_assert_cmpint (query_int (database, "SELECT COUNT(*) FROM words", NULL), ==, 4);
}

static void
test_query_timeout (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarCursor) cursor = NULL;
  gint64 start;

  database = open_database (&error, "query-timeout", 1u, NULL);
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  cursor = grammar_database_query_cursor (database,
                                          "SELECT COUNT(*) FROM numbers a, numbers b, numbers c, numbers d",
                                          NULL, NULL, &error);
  if (cursor != NULL)
    g_assert_false (grammar_cursor_next (cursor, NULL, &error));
  g_assert_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT);
  grammar_test_assert_contains (error->message, "query-timeout=1");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  g_clear_object (&cursor);

  /* The database goes on. */
  g_assert_cmpint (query_int (database, "SELECT 1", NULL), ==, 1);
}

/* Without query-timeout= the session still has one: the documented
 * default (MariaDB's max_statement_time, in seconds). */
static void
test_query_timeout_default (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDatabase) database = open_database (&error, NULL);
  guint timeout = 0;

  g_assert_no_error (error);
  g_object_get (database, "query-timeout", &timeout, NULL);
  g_assert_cmpuint (timeout, ==, GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT);
  g_assert_cmpint (query_int (database,
                              "SELECT CAST(VARIABLE_VALUE AS SIGNED) FROM information_schema.SESSION_VARIABLES "
                              "WHERE VARIABLE_NAME = 'MAX_STATEMENT_TIME'", NULL), ==,
                   GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT);
}

/* The command line. */

static char *
write_config (const char *dir)
{
  g_autofree char *text = g_strdup_printf ("[database]\n"
                                           "plugin=mysql\n"
                                           "host=%s\n"
                                           "port=%u\n"
                                           "database=%s\n"
                                           "user=%s\n"
                                           "password-env=" PASSWORD_ENV "\n",
                                           env ("GRAMMAR_TEST_DB_HOST"), port (),
                                           env ("GRAMMAR_TEST_DB_NAME"), env ("GRAMMAR_TEST_DB_USER"));

  return grammar_test_write_file (dir, "mysql.ini", text);
}

/* Runs `grammar ARGS…` in @dir with GRAMMAR_TEST_DB_PASSWORD set to @password. */
static void
run_cli_with_password (GrammarTestRun     *run,
                       const char         *dir,
                       const char         *password,
                       const char * const *args)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                         G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (argv, (gpointer) env ("GRAMMAR_EXE"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_setenv (launcher, PASSWORD_ENV, password, TRUE);
  g_subprocess_launcher_set_cwd (launcher, dir);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
}

static void
test_cli_schema (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("grammar-mysql-XXXXXX");
  g_autofree char *ini = write_config (dir);
  const char * const args[] = { "schema", "-c", ini, "--json", NULL };
  g_auto (GrammarTestRun) run = { 0, };
  g_auto (GrammarTestRun) wrong = { 0, };

  run_cli_with_password (&run, dir, env (PASSWORD_ENV), args);
  g_assert_cmpint (run.status, ==, 0);
  grammar_test_assert_contains (run.out, "\"middle_loans\"");
  grammar_test_assert_contains (run.out, "\"alpha_books\"");

  run_cli_with_password (&wrong, dir, WRONG_PASSWORD, args);
  g_assert_cmpint (wrong.status, ==, 2);
  grammar_test_assert_contains (wrong.err, "[database]");
  grammar_test_assert_contains (wrong.err, PASSWORD_ENV);
  grammar_test_assert_contains (wrong.err, "grammar_reader");
  g_assert_null (strstr (wrong.err, WRONG_PASSWORD));
  g_assert_null (strstr (wrong.err, env (PASSWORD_ENV)));

  grammar_test_remove_tree (dir);
}

/* Names MariaDB needs quoted (its reserved words, spaces), and table
 * names, which are case sensitive here, spelt bare in another case by a
 * template: the statement that runs takes the schema's spelling. */
static void
test_quoted_names (void)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarSqlTemplate) spider = NULL;
  g_autoptr (GrammarSqlTemplate) ambiguous = NULL;
  g_autoptr (GrammarResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *written = NULL;

  admin_sql ("SET SESSION sql_mode = 'ANSI_QUOTES';"
             "CREATE DATABASE names_test CHARACTER SET utf8mb4;"
             "CREATE TABLE names_test.people (People_ID INTEGER PRIMARY KEY, Name VARCHAR(40) NOT NULL,"
             "  \"position\" VARCHAR(40), \"Home Town\" VARCHAR(40));"
             "CREATE TABLE names_test.twin (id INTEGER PRIMARY KEY);"
             "CREATE TABLE names_test.Twin (id INTEGER PRIMARY KEY);"
             "INSERT INTO names_test.people VALUES (1, 'Ada Byron', 'analyst', 'London'),"
             "  (2, 'Grace Hopper', 'admiral', 'New York');"
             "GRANT SELECT ON names_test.* TO 'grammar_reader'@'localhost';"
             "GRANT SELECT ON names_test.* TO 'grammar_reader'@'127.0.0.1';");

  database = open_database (&error, "database", "names_test", NULL);
  g_assert_no_error (error);
  g_assert_false (grammar_database_identifier_needs_quotes (database, "People_ID"));
  g_assert_true (grammar_database_identifier_needs_quotes (database, "position"));
  g_assert_true (grammar_database_identifier_needs_quotes (database, "Home Town"));
  g_assert_false (grammar_database_identifier_needs_quotes (database, "user"));
  written = grammar_database_write_identifier (database, "position");
  g_assert_cmpstr (written, ==, "\"position\"");

  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
  spider = grammar_sql_template_new ("SELECT T1.position FROM PEOPLE AS T1 WHERE T1.name = '[people.Name]'",
                                     GRAMMAR_TEMPLATE_ORIGIN_IMPORT, &error);
  g_assert_no_error (error);
  g_assert_true (grammar_sql_template_validate (spider, database, schema, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (spider), ==,
                   "SELECT T1.\"position\" FROM people AS T1 WHERE T1.Name = ?1");
  result = grammar_database_query (database, grammar_sql_template_get_bound_sql (spider),
                                   g_variant_new ("(s)", "Grace Hopper"), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_variant_get_string (grammar_result_get_value (result, 0, 0), NULL), ==, "admiral");

  /* `twin` and `Twin` are two tables: `TWIN` could be either. */
  ambiguous = grammar_sql_template_new ("SELECT id FROM TWIN WHERE id = [twin.id]", GRAMMAR_TEMPLATE_ORIGIN_IMPORT, &error);
  g_assert_no_error (error);
  g_assert_false (grammar_sql_template_validate (ambiguous, database, schema, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "the bare name “TWIN” could be"));
  g_assert_nonnull (strstr (error->message, "“twin”"));
  g_assert_nonnull (strstr (error->message, "“Twin”"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_setenv (WRONG_PASSWORD_ENV, WRONG_PASSWORD, TRUE);

  if (g_getenv ("GRAMMAR_TEST_WITH_SERVER") == NULL)
    {
      g_test_skip ("run through tests/servers/with-server.py mysql");
      return 77;
    }

  g_test_add_func ("/mysql/connect/tcp", test_connect_tcp);
  g_test_add_func ("/mysql/connect/socket", test_connect_socket);
  g_test_add_func ("/mysql/connect/wrong-password", test_connect_wrong_password);
  g_test_add_func ("/mysql/connect/unset-variable", test_connect_unset_variable);
  g_test_add_func ("/mysql/connect/closed-port", test_connect_closed_port);
  g_test_add_func ("/mysql/connect/unknown-database", test_connect_unknown_database);
  g_test_add_func ("/mysql/connect/settings", test_connect_settings);
  g_test_add_func ("/mysql/schema/order-without-process", test_schema_order_without_process);
  g_test_add_func ("/mysql/schema/order-with-process", test_schema_order_with_process);
  g_test_add_func ("/mysql/schema/keys", test_schema_keys);
  g_test_add_func ("/mysql/quoted-names", test_quoted_names);
  g_test_add_func ("/mysql/values", test_values);
  g_test_add_func ("/mysql/values/latin1", test_values_latin1);
  g_test_add_func ("/mysql/parameters", test_parameters);
  g_test_add_func ("/mysql/collation", test_collation);
  g_test_add_func ("/mysql/refused", test_refused);
  g_test_add_func ("/mysql/server-errors", test_server_errors);
  g_test_add_func ("/mysql/streaming", test_streaming);
  g_test_add_func ("/mysql/nested-cursors", test_nested_cursors);
  g_test_add_func ("/mysql/threads", test_threads);
  g_test_add_func ("/mysql/cancel", test_cancel);
  g_test_add_func ("/mysql/reconnect", test_reconnect);
  g_test_add_func ("/mysql/read-only-session", test_read_only_session);
  g_test_add_func ("/mysql/query-timeout", test_query_timeout);
  g_test_add_func ("/mysql/query-timeout-default", test_query_timeout_default);
  g_test_add_func ("/mysql/cli/schema", test_cli_schema);

  return g_test_run ();
}
