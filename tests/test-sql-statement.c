/* test-sql-statement.c: grammar_sql_rewrite_query(), the statement guard of the server plugins
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <grammar-plugin.h>

static const char * const words[] = { "INTO", "FOR UPDATE", "LOCK IN SHARE MODE", "SET", NULL };
static const char * const functions[] = { "pg_read_file", "sleep", NULL };

static char *
rewrite (const char                *sql,
         GrammarSqlParameterStyle   style,
         GArray                   **order,
         guint                     *n,
         GError                   **error)
{
  return grammar_sql_rewrite_query (sql, style, words, functions, order, n, error);
}

static void
test_parameters (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) order = NULL;
  g_autofree char *dollar = NULL;
  g_autofree char *positional = NULL;
  g_autofree char *bare = NULL;
  guint n = 0;

  /* ?N may repeat and come out of order; strings and quoted names keep their question marks. */
  dollar = rewrite ("SELECT a FROM t WHERE b = ?2 AND c = ?1 OR d = ?2 AND e = '?1' AND \"f?\" = 1;",
                    GRAMMAR_SQL_PARAMETERS_DOLLAR, NULL, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dollar, ==, "SELECT a FROM t WHERE b = $2 AND c = $1 OR d = $2 AND e = '?1' AND \"f?\" = 1");
  g_assert_cmpuint (n, ==, 2);

  positional = rewrite ("SELECT a FROM t WHERE b = ?2 AND c = ?1 OR d = ?2", GRAMMAR_SQL_PARAMETERS_POSITIONAL,
                        &order, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (positional, ==, "SELECT a FROM t WHERE b = ? AND c = ? OR d = ?");
  g_assert_cmpuint (order->len, ==, 3);
  g_assert_cmpuint (g_array_index (order, guint, 0), ==, 1);
  g_assert_cmpuint (g_array_index (order, guint, 1), ==, 0);
  g_assert_cmpuint (g_array_index (order, guint, 2), ==, 1);

  /* A bare ? takes the number after the highest so far, as in SQLite; a PostgreSQL cast is no parameter. */
  bare = rewrite ("  -- why\n SELECT x::text FROM t WHERE a = ?3 AND b = ? AND c = ?",
                  GRAMMAR_SQL_PARAMETERS_DOLLAR, NULL, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (bare, ==, "SELECT x::text FROM t WHERE a = $3 AND b = $4 AND c = $5");
  g_assert_cmpuint (n, ==, 5);
}

static void
test_refused (void)
{
  static const struct
  {
    const char *sql;
    int code;
    const char *message;
  } cases[] = {
    { "", GRAMMAR_DATABASE_ERROR_SYNTAX, "no statement" },
    { " ; -- nothing", GRAMMAR_DATABASE_ERROR_SYNTAX, "no statement" },
    { "DELETE FROM t", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "not “DELETE”" },
    { "COPY t TO '/tmp/x'", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "not “COPY”" },
    { "SELECT 1; SELECT 2", GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS, "more than one statement" },
    { "SELECT 1; DROP TABLE t", GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS, "more than one statement" },
    { "SELECT 'a;b", GRAMMAR_DATABASE_ERROR_SYNTAX, "unterminated quote" },
    { "SELECT 1 /* open", GRAMMAR_DATABASE_ERROR_SYNTAX, "unterminated comment" },
    { "SELECT * INTO OUTFILE '/tmp/x' FROM t", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "“INTO”" },
    { "SELECT * FROM t FOR\n  /* really */ update", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "“FOR UPDATE”" },
    { "SELECT * FROM t LOCK IN SHARE MODE", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "“LOCK IN SHARE MODE”" },
    { "SELECT pg_read_file ('/etc/passwd')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "function “pg_read_file”" },
    { "SELECT pg_catalog.\"pg_read_file\"('x')", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "function “pg_read_file”" },
    { "SELECT SLEEP(5)", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "function “SLEEP”" },
    { "SELECT 1 /*!50000 , SLEEP(5) */", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "executable comment" },
    { "SELECT E'\\'; DROP TABLE t; --'", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "backslash escapes" },
    { "SELECT @a := 1", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "variable “@a”" },
    { "SELECT @@version", GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "variable" },
    { "SELECT $$;$$", GRAMMAR_DATABASE_ERROR_BIND, "only ? and ?N parameters" },
    { "SELECT a FROM t WHERE b = :name", GRAMMAR_DATABASE_ERROR_BIND, "only ? and ?N parameters" },
    { "SELECT a FROM t WHERE b = ?0", GRAMMAR_DATABASE_ERROR_BIND, "out of range" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *sql = rewrite (cases[i].sql, GRAMMAR_SQL_PARAMETERS_DOLLAR, NULL, NULL, &error);

      g_test_message ("%s", cases[i].sql);
      g_assert_null (sql);
      g_assert_error (error, GRAMMAR_DATABASE_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].message));
    }
}

static void
test_allowed (void)
{
  /* Words of the refused lists inside strings, quoted names and longer words are data. */
  static const char * const cases[] = {
    "SELECT 'INTO', \"set\", settings, offset_into FROM t WHERE note = 'FOR UPDATE'",
    "WITH x AS (SELECT 1 AS a) SELECT a FROM x",
    "(SELECT 1)",
    "VALUES (1), (2)",
    "SELECT sleep_hours FROM t",
    "SELECT a || 'it''s' FROM t WHERE b = ?",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *sql = rewrite (cases[i], GRAMMAR_SQL_PARAMETERS_POSITIONAL, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_nonnull (sql);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sql-statement/parameters", test_parameters);
  g_test_add_func ("/sql-statement/refused", test_refused);
  g_test_add_func ("/sql-statement/allowed", test_allowed);
  return g_test_run ();
}
