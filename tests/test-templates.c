/* test-templates.c: SQL templates, text templates and template files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <grammar-plugin.h>

#include "grammar-test-util.h"

static char *tmp_dir;
static GrammarDatabase *database;
static GrammarSchema *schema;

static const char fixture_sql[] =
  "CREATE TABLE company (\n"
  "  Company_ID INTEGER PRIMARY KEY,\n"
  "  Name TEXT NOT NULL UNIQUE,\n"
  "  Industry TEXT,\n"
  "  Headquarters TEXT,\n"
  "  Sales REAL\n"
  ");\n"
  "CREATE TABLE people (People_ID INTEGER PRIMARY KEY, Name TEXT, Age INTEGER, Nationality TEXT);\n"
  "CREATE TABLE employment (\n"
  "  Company_ID INTEGER REFERENCES company, People_ID INTEGER REFERENCES people,\n"
  "  Year_working INTEGER, PRIMARY KEY (Company_ID, People_ID)\n"
  ");\n"
  "CREATE TABLE \"Order Items\" (\"Order ID\" INTEGER, \"Unit Price\" REAL);\n"
  "INSERT INTO company VALUES (1, 'ExxonMobil', 'Oil and gas', 'USA', 433.5),\n"
  "  (2, 'O''Brien & Sons', 'Retail', 'Ireland', 1.0);\n"
  "INSERT INTO people VALUES (1, 'Zoë', 30, 'France');\n"
  "INSERT INTO employment VALUES (1, 1, 3);\n";

static const char industry_sql[] = "SELECT Industry FROM company WHERE Name = '[company.Name]'";

/* Helpers. */

static char *
read_file (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static GrammarSqlTemplate *
parse (const char *sql)
{
  g_autoptr (GError) error = NULL;
  GrammarSqlTemplate *sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (sql_template);
  return sql_template;
}

static char *
id_of (const char *sql)
{
  g_autoptr (GrammarSqlTemplate) sql_template = parse (sql);

  return g_strdup (grammar_sql_template_get_id (sql_template));
}

/* Asserts that validating @sql fails with a message holding the id and @reason. */
static void
assert_invalid (const char *sql,
                GQuark      domain,
                int         code,
                const char *reason)
{
  g_autoptr (GrammarSqlTemplate) sql_template = parse (sql);
  g_autoptr (GError) error = NULL;
  g_autofree char *prefix = g_strdup_printf ("%s: ", grammar_sql_template_get_id (sql_template));

  g_assert_false (grammar_sql_template_validate (sql_template, database, schema, &error));
  g_assert_error (error, domain, code);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  grammar_test_assert_contains (error->message, reason);
  g_assert_true (grammar_error_is_input_error (error));
}

static void
assert_parse_fails (const char *sql,
                    const char *reason)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSqlTemplate) sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_LLM, &error);

  g_assert_null (sql_template);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_true (error->message[0] == 's' && error->message[13] == ':');
  grammar_test_assert_contains (error->message, reason);
}

/* Parsing. */

static void
test_parse_bare_and_quoted (void)
{
  g_autoptr (GrammarSqlTemplate) sql_template =
    parse ("  SELECT Industry FROM company WHERE Name = '[company.Name]' AND Company_ID > [company.Company_ID] ;\n");

  g_assert_cmpuint (grammar_sql_template_get_n_placeholders (sql_template), ==, 2);
  g_assert_cmpstr (grammar_sql_template_get_placeholder (sql_template, 0), ==, "[company.Name]");
  g_assert_cmpstr (grammar_sql_template_get_placeholder_table (sql_template, 0), ==, "company");
  g_assert_cmpstr (grammar_sql_template_get_placeholder_column (sql_template, 0), ==, "Name");
  g_assert_cmpstr (grammar_sql_template_get_placeholder (sql_template, 1), ==, "[company.Company_ID]");
  g_assert_cmpstr (grammar_sql_template_get_sql (sql_template), ==,
                   "SELECT Industry FROM company WHERE Name = '[company.Name]' AND Company_ID > [company.Company_ID]");
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (sql_template), ==,
                   "SELECT Industry FROM company WHERE Name = ?1 AND Company_ID > ?2");
  g_assert_cmpint (grammar_sql_template_get_origin (sql_template), ==, GRAMMAR_TEMPLATE_ORIGIN_MANUAL);
  g_assert_cmpuint (g_strv_length ((GStrv) grammar_sql_template_get_tables (sql_template)), ==, 0);
  g_assert_null (grammar_sql_template_get_note (sql_template));
}

static void
test_parse_repeated (void)
{
  g_autoptr (GrammarSqlTemplate) sql_template =
    parse ("SELECT Name FROM people WHERE Name = '[people.Name]' OR Nationality = [People.name] "
           "OR Age = [people.Age] OR Name = [people.Name]");

  g_assert_cmpuint (grammar_sql_template_get_n_placeholders (sql_template), ==, 2);
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (sql_template), ==,
                   "SELECT Name FROM people WHERE Name = ?1 OR Nationality = ?1 OR Age = ?2 OR Name = ?1");
}

static void
test_parse_quoted_names (void)
{
  g_autoptr (GrammarSqlTemplate) double_quoted =
    parse ("SELECT \"Unit Price\" FROM \"Order Items\" WHERE \"Order ID\" = [\"Order Items\".\"Order ID\"]");
  g_autoptr (GrammarSqlTemplate) backquoted =
    parse ("SELECT `Unit Price` FROM `Order Items` WHERE `Order ID` = '[`Order Items`.`Order ID`]'");
  g_autoptr (GrammarSqlTemplate) doubled =
    parse ("SELECT 1 FROM t WHERE a = [\"say \"\"hi\"\"\".b]");

  g_assert_cmpstr (grammar_sql_template_get_placeholder (double_quoted, 0), ==, "[\"Order Items\".\"Order ID\"]");
  g_assert_cmpstr (grammar_sql_template_get_placeholder_table (double_quoted, 0), ==, "Order Items");
  g_assert_cmpstr (grammar_sql_template_get_placeholder_column (double_quoted, 0), ==, "Order ID");
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (double_quoted), ==,
                   "SELECT \"Unit Price\" FROM \"Order Items\" WHERE \"Order ID\" = ?1");
  g_assert_cmpstr (grammar_sql_template_get_placeholder_table (backquoted, 0), ==, "Order Items");
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (backquoted), ==,
                   "SELECT `Unit Price` FROM `Order Items` WHERE `Order ID` = ?1");
  g_assert_cmpstr (grammar_sql_template_get_placeholder_table (doubled, 0), ==, "say \"hi\"");
}

static void
test_parse_literals_and_comments (void)
{
  g_autoptr (GrammarSqlTemplate) literals =
    parse ("SELECT Name FROM company WHERE Industry = '[not a placeholder]' "
           "AND Headquarters LIKE '%[company.Headquarters]%' AND \"[x.y]\" = 1 AND Name = [company.Name]");
  g_autoptr (GrammarSqlTemplate) comments =
    parse ("SELECT Industry -- [company.Headquarters] is not one\n"
           "FROM company /* nor [company.Industry] */ WHERE Name = '[company.Name]';");
  g_autoptr (GrammarSqlTemplate) escaped =
    parse ("SELECT Name FROM company WHERE Industry = 'it''s [company.Industry]' AND Name = '[company.Name]'");

  g_assert_cmpuint (grammar_sql_template_get_n_placeholders (literals), ==, 1);
  g_assert_cmpstr (grammar_sql_template_get_placeholder (literals, 0), ==, "[company.Name]");
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (literals), ==,
                   "SELECT Name FROM company WHERE Industry = '[not a placeholder]' "
                   "AND Headquarters LIKE '%[company.Headquarters]%' AND \"[x.y]\" = 1 AND Name = ?1");
  g_assert_cmpuint (grammar_sql_template_get_n_placeholders (comments), ==, 1);
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (comments), ==,
                   "SELECT Industry -- [company.Headquarters] is not one\n"
                   "FROM company /* nor [company.Industry] */ WHERE Name = ?1");
  g_assert_cmpuint (grammar_sql_template_get_n_placeholders (escaped), ==, 1);
  g_assert_cmpstr (grammar_sql_template_get_placeholder (escaped, 0), ==, "[company.Name]");
}

static void
test_parse_errors (void)
{
  assert_parse_fails ("SELECT Industry FROM company WHERE Name = 'ExxonMobil'", "no placeholder");
  assert_parse_fails ("SELECT Industry FROM company WHERE Name = [company.Name", "unbalanced");
  assert_parse_fails ("SELECT Industry FROM company WHERE Name = [Name]", "no “.”");
  assert_parse_fails ("SELECT Industry FROM company WHERE Name = [.Name]", "table name");
  assert_parse_fails ("SELECT Industry FROM company WHERE Name = [company.Name] AND x = 'open",
                      "unterminated string literal");
  assert_parse_fails ("", "no placeholder");
}

/* Ids. */

static void
test_ids (void)
{
  g_autofree char *id = id_of (industry_sql);
  g_autofree char *reformatted = id_of ("SELECT  Industry\n\tFROM company\nWHERE Name = '[company.Name]' ;;\n");
  g_autofree char *other = id_of ("SELECT Headquarters FROM company WHERE Name = '[company.Name]'");
  g_autofree char *literal_a = id_of ("SELECT 1 FROM company WHERE Name = [company.Name] AND Industry = 'a b'");
  g_autofree char *literal_b = id_of ("SELECT 1 FROM company WHERE Name = [company.Name] AND Industry = 'a  b'");
  g_autofree char *normalized = NULL;

  g_assert_cmpuint (strlen (id), ==, 13);
  g_assert_true (id[0] == 's');
  for (guint i = 1; i < 13; i++)
    g_assert_true (g_ascii_isxdigit (id[i]) && !g_ascii_isupper (id[i]));
  g_assert_cmpstr (id, ==, reformatted);
  g_assert_cmpstr (id, !=, other);
  g_assert_cmpstr (literal_a, !=, literal_b);

  normalized = grammar_sql_normalize (" SELECT a -- note\n  FROM t  WHERE b = 'x  y' ; ");
  g_assert_cmpstr (normalized, ==, "SELECT a -- note\nFROM t WHERE b = 'x  y'");
}

/* The quotes a plain name does not need leave the id alone: PostgreSQL
 * writes `"People_ID"` where SQLite writes `People_ID`. */
static void
test_ids_quotes (void)
{
  g_autofree char *bare = id_of ("SELECT p.Age FROM people p WHERE p.Name = '[people.Name]'");
  g_autofree char *quoted = id_of ("SELECT p.\"Age\" FROM \"people\" p WHERE p.`Name` = '[people.Name]'");
  g_autofree char *other_case = id_of ("SELECT p.age FROM people p WHERE p.Name = '[people.Name]'");
  g_autofree char *normalized = grammar_sql_normalize ("SELECT \"order\", \"a b\", \"Größe\", '\"x\"' FROM \"T\"");

  g_assert_cmpstr (bare, ==, quoted);
  g_assert_cmpstr (bare, !=, other_case);
  g_assert_cmpstr (normalized, ==, "SELECT order, \"a b\", \"Größe\", '\"x\"' FROM T");
}

/* Which names each dialect reads bare as themselves. */
static void
test_dialects (void)
{
  static const struct { const char *name; gboolean sqlite, postgres, mysql; } cases[] = {
    { "people", FALSE, FALSE, FALSE },
    { "People_ID", FALSE, TRUE, FALSE },
    { "_x9", FALSE, FALSE, FALSE },
    { "order", TRUE, TRUE, TRUE },
    { "GROUP", TRUE, TRUE, TRUE },
    { "user", FALSE, TRUE, FALSE },
    { "position", FALSE, FALSE, TRUE },
    { "Home Town", TRUE, TRUE, TRUE },
    { "Größe", TRUE, TRUE, TRUE },
    { "9lives", TRUE, TRUE, TRUE },
    { "a\"b", TRUE, TRUE, TRUE },
    { "", TRUE, TRUE, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].name);
      g_assert_cmpint (grammar_sql_dialect_needs_quotes (GRAMMAR_SQL_DIALECT_SQLITE, cases[i].name), ==, cases[i].sqlite);
      g_assert_cmpint (grammar_sql_dialect_needs_quotes (GRAMMAR_SQL_DIALECT_POSTGRES, cases[i].name), ==, cases[i].postgres);
      g_assert_cmpint (grammar_sql_dialect_needs_quotes (GRAMMAR_SQL_DIALECT_MYSQL, cases[i].name), ==, cases[i].mysql);
    }
  /* The sqlite plugin keeps the interface's default, SQLite's rule. */
  g_assert_false (grammar_database_identifier_needs_quotes (database, "People_ID"));
  g_assert_true (grammar_database_identifier_needs_quotes (database, "Order Items"));
}

/* Bare names of a template take the schema's spelling in the statement
 * that runs; keywords, functions, aliases and literals are left alone. */
static void
test_resolve_bare_names (void)
{
  g_autoptr (GrammarSqlTemplate) spider = parse ("SELECT T1.name, count(*) FROM PEOPLE AS T1 JOIN Employment AS T2 "
                                                 "ON T1.people_id = T2.PEOPLE_ID WHERE T1.nationality = 'name' "
                                                 "AND T1.Name = '[people.Name]' GROUP BY T1.name ORDER BY T1.age");
  g_autoptr (GError) error = NULL;

  g_assert_true (grammar_sql_template_validate (spider, database, schema, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_sql_template_get_bound_sql (spider), ==,
                   "SELECT T1.Name, count(*) FROM people AS T1 JOIN employment AS T2 "
                   "ON T1.People_ID = T2.People_ID WHERE T1.Nationality = 'name' "
                   "AND T1.Name = ?1 GROUP BY T1.Name ORDER BY T1.Age");
  /* The text and the id stay as written. */
  g_assert_true (g_str_has_prefix (grammar_sql_template_get_sql (spider), "SELECT T1.name, count(*) FROM PEOPLE"));
}

/* Foreign keys in one order whatever order they are added in. */
static void
test_foreign_key_order (void)
{
  g_autoptr (GrammarTable) table = grammar_table_new ("employment", FALSE);
  const char *company[] = { "Company_ID", NULL }, *people[] = { "People_ID", NULL };
  const char *pair[] = { "Company_ID", "People_ID", NULL };
  g_autoptr (GrammarForeignKey) to_people = grammar_foreign_key_new (people, "people", people);
  g_autoptr (GrammarForeignKey) to_company = grammar_foreign_key_new (company, "company", company);
  g_autoptr (GrammarForeignKey) to_pair = grammar_foreign_key_new (pair, "contract", pair);
  GPtrArray *keys;

  for (guint i = 0; i < G_N_ELEMENTS (pair) - 1; i++)
    {
      g_autoptr (GrammarColumn) column = grammar_column_new (pair[i], "INTEGER", TRUE, 0, NULL);

      grammar_table_add_column (table, column);
    }
  grammar_table_add_foreign_key (table, to_people);
  grammar_table_add_foreign_key (table, to_pair);
  grammar_table_add_foreign_key (table, to_company);
  keys = grammar_table_get_foreign_keys (table);
  g_assert_cmpuint (keys->len, ==, 3);
  g_assert_true (g_ptr_array_index (keys, 0) == to_company);
  g_assert_true (g_ptr_array_index (keys, 1) == to_pair);
  g_assert_true (g_ptr_array_index (keys, 2) == to_people);
}

/* Values. */

static void
assert_text (GVariant   *value,
             const char *expected)
{
  g_autoptr (GVariant) owned = g_variant_ref_sink (value);
  g_autofree char *text = grammar_value_to_text (owned);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_value_to_text (void)
{
  assert_text (g_variant_new_double (433.5), "433.5");
  assert_text (g_variant_new_double (1.0), "1.0");
  assert_text (g_variant_new_double (0.1), "0.1");
  assert_text (g_variant_new_double (-0.0), "-0.0");
  assert_text (g_variant_new_double (1e16), "1e+16");
  assert_text (g_variant_new_double (1e15), "1000000000000000.0");
  assert_text (g_variant_new_double (0.0001), "0.0001");
  assert_text (g_variant_new_double (0.00001), "1e-05");
  assert_text (g_variant_new_double (1.5e-7), "1.5e-07");
  assert_text (g_variant_new_double (123456789012345678.0), "1.2345678901234568e+17");
  assert_text (g_variant_new_double (2.0 / 3.0), "0.6666666666666666");
  assert_text (g_variant_new_int64 (3), "3");
  assert_text (g_variant_new_int64 (-42), "-42");
  assert_text (g_variant_new_string ("O'Brien"), "O'Brien");
  assert_text (g_variant_new_variant (g_variant_new_string ("boxed")), "boxed");
}

static void
test_fill (void)
{
  g_autoptr (GrammarSqlTemplate) sql_template =
    parse ("SELECT Industry FROM company WHERE Name = '[company.Name]' AND Headquarters = [company.Headquarters] "
           "AND Sales > [company.Sales] AND Company_ID = [company.Company_ID] OR Name = '[company.Name]'");
  g_autofree char *filled = NULL;
  g_autofree char *tricky = NULL;
  g_autoptr (GrammarSqlTemplate) simple = parse (industry_sql);
  GVariant *values[] = {
    g_variant_new_string ("O'Brien"), g_variant_new_string ("100% _sure_\nZoë 東京"),
    g_variant_new_double (1.0), g_variant_new_int64 (3),
  };

  filled = grammar_sql_template_fill (sql_template, g_variant_new_tuple (values, G_N_ELEMENTS (values)));
  g_assert_cmpstr (filled, ==,
                   "SELECT Industry FROM company WHERE Name = 'O''Brien' AND Headquarters = '100% _sure_\nZoë 東京' "
                   "AND Sales > 1.0 AND Company_ID = 3 OR Name = 'O''Brien'");

  {
    GVariantBuilder builder;

    g_variant_builder_init (&builder, G_VARIANT_TYPE ("av"));
    g_variant_builder_add (&builder, "v", g_variant_new_string ("it's ''quoted''"));
    tricky = grammar_sql_template_fill (simple, g_variant_builder_end (&builder));
  }
  g_assert_cmpstr (tricky, ==, "SELECT Industry FROM company WHERE Name = 'it''s ''''quoted'''''");
}

/* Validation. */

static void
test_validate (void)
{
  g_autoptr (GrammarSqlTemplate) join =
    parse ("SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID "
           "JOIN people AS p ON e.People_ID = p.People_ID "
           "WHERE c.Name = '[COMPANY.name]' AND p.Name = '[people.Name]';");
  g_autoptr (GrammarSqlTemplate) comma =
    parse ("SELECT x.Name FROM main.company x, \"people\" WHERE x.Name = [company.Name] "
           "AND x.Company_ID IN (SELECT Company_ID FROM employment)");
  g_autoptr (GrammarSqlTemplate) quoted =
    parse ("SELECT \"Unit Price\" FROM \"Order Items\" WHERE \"Order ID\" = [\"order items\".\"order id\"]");
  g_autoptr (GError) error = NULL;
  const char * const *tables;

  g_assert_true (grammar_sql_template_validate (join, database, schema, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_sql_template_get_placeholder_table (join, 0), ==, "company");
  g_assert_cmpstr (grammar_sql_template_get_placeholder_column (join, 0), ==, "Name");
  g_assert_cmpstr (grammar_sql_template_get_placeholder (join, 0), ==, "[COMPANY.name]");
  tables = grammar_sql_template_get_tables (join);
  g_assert_cmpuint (g_strv_length ((GStrv) tables), ==, 3);
  g_assert_cmpstr (tables[0], ==, "employment");
  g_assert_cmpstr (tables[1], ==, "company");
  g_assert_cmpstr (tables[2], ==, "people");

  g_assert_true (grammar_sql_template_validate (comma, database, schema, &error));
  g_assert_no_error (error);
  tables = grammar_sql_template_get_tables (comma);
  g_assert_cmpuint (g_strv_length ((GStrv) tables), ==, 2);
  g_assert_cmpstr (tables[0], ==, "company");
  g_assert_cmpstr (tables[1], ==, "people");

  /* Without a database only the schema is checked. */
  g_assert_true (grammar_sql_template_validate (quoted, NULL, schema, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_sql_template_get_placeholder_table (quoted, 0), ==, "Order Items");
  g_assert_cmpstr (grammar_sql_template_get_placeholder_column (quoted, 0), ==, "Order ID");
  g_assert_cmpstr (grammar_sql_template_get_tables (quoted)[0], ==, "Order Items");
}

static void
test_validate_errors (void)
{
  g_autoptr (GrammarSqlTemplate) misspelt = parse ("SELECT Industry FROM company WHERE Name = '[company.Nmae]'");
  g_autoptr (GError) error = NULL;
  g_autofree char *expected = NULL;

  g_assert_false (grammar_sql_template_validate (misspelt, database, schema, &error));
  expected = g_strdup_printf ("%s: unknown column “Nmae” in table “company” (placeholder [company.Nmae])",
                              grammar_sql_template_get_id (misspelt));
  g_assert_cmpstr (error->message, ==, expected);

  assert_invalid ("SELECT Industry FROM companies WHERE Name = '[companies.Name]'",
                  GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "unknown table “companies”");
  assert_invalid ("DELETE FROM company WHERE Name = '[company.Name]'",
                  GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "only a single read-only SELECT is accepted, not “DELETE”");
  assert_invalid ("UPDATE company SET Industry = 'x' WHERE Name = '[company.Name]'",
                  GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "not “UPDATE”");
  assert_invalid ("DROP TABLE [company.Name]", GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "not “DROP”");
  assert_invalid ("SELECT Industry FROM company WHERE Name = '[company.Name]'; DELETE FROM company",
                  GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "more than one statement");
  assert_invalid ("SELECT [company.Name] FROM company WHERE Industry = 'Retail'",
                  GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "no placeholder after WHERE");
  assert_invalid ("SELECT Industry FROM company ORDER BY [company.Name]",
                  GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "no WHERE clause");
  assert_invalid ("SELECT Industry FROM company WHERE Name = [company.Name] AND Industry = ?",
                  GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "placeholder");
  /* The database's own refusals keep their domain. */
  assert_invalid ("SELECT Industry FROM company WHERE Name = [company.Name] AND",
                  GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX, "incomplete input");
  assert_invalid ("SELECT Nope FROM company WHERE Name = [company.Name]",
                  GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX, "Nope");
  assert_invalid ("WITH x AS (SELECT 1) DELETE FROM company WHERE Name = [company.Name]",
                  GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY, "read-only");
}

/* JSON of one template. */

static JsonNode *
json_parse (const char *text)
{
  g_autoptr (GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  g_assert_no_error (error);
  return node;
}

static void
test_json (void)
{
  g_autoptr (JsonNode) hand = json_parse ("{\"sql\": \"SELECT Industry FROM company WHERE Name = '[company.Name]';\","
                                          " \"id\": \"sdeadbeef0000\", \"comment\": \"ignored\"}");
  g_autoptr (JsonNode) full = json_parse ("{\"sql\": \"SELECT Industry FROM company WHERE Name = '[company.Name]'\","
                                          " \"origin\": \"llm\", \"tables\": [\"company\"], \"note\": \"why\"}");
  g_autoptr (GrammarSqlTemplate) from_hand = NULL;
  g_autoptr (GrammarSqlTemplate) from_full = NULL;
  g_autoptr (JsonNode) written = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *id = id_of (industry_sql);
  const char * const bad[][2] = {
    { "[1]", "JSON object" },
    { "{\"origin\": \"schema\"}", "“sql”" },
    { "{\"sql\": 3}", "“sql” must be a string" },
    { "{\"sql\": \"SELECT 1 FROM t WHERE a = [t.a]\", \"origin\": \"magic\"}", "unknown origin “magic”" },
    { "{\"sql\": \"SELECT 1 FROM t WHERE a = [t.a]\", \"tables\": \"t\"}", "“tables”" },
    { "{\"sql\": \"SELECT 1\"}", "no placeholder" },
  };

  from_hand = grammar_sql_template_new_from_json (hand, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_sql_template_get_id (from_hand), ==, id);
  g_assert_cmpint (grammar_sql_template_get_origin (from_hand), ==, GRAMMAR_TEMPLATE_ORIGIN_MANUAL);

  from_full = grammar_sql_template_new_from_json (full, &error);
  g_assert_no_error (error);
  g_assert_cmpint (grammar_sql_template_get_origin (from_full), ==, GRAMMAR_TEMPLATE_ORIGIN_LLM);
  g_assert_cmpstr (grammar_sql_template_get_note (from_full), ==, "why");
  written = grammar_sql_template_to_json (from_full);
  text = json_to_string (written, FALSE);
  expected = g_strdup_printf ("{\"id\":\"%s\",\"sql\":\"SELECT Industry FROM company WHERE Name = '[company.Name]'\","
                              "\"tables\":[\"company\"],\"origin\":\"llm\",\"note\":\"why\"}", id);
  g_assert_cmpstr (text, ==, expected);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (JsonNode) node = json_parse (bad[i][0]);
      g_autoptr (GrammarSqlTemplate) sql_template = grammar_sql_template_new_from_json (node, &error);

      g_assert_null (sql_template);
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      grammar_test_assert_contains (error->message, bad[i][1]);
      g_clear_error (&error);
    }

  {
    g_autoptr (GEnumClass) origins = g_type_class_ref (GRAMMAR_TYPE_TEMPLATE_ORIGIN);

    g_assert_cmpstr (g_enum_get_value (origins, GRAMMAR_TEMPLATE_ORIGIN_IMPORT)->value_nick, ==, "import");
    g_assert_cmpstr (g_enum_get_value (origins, GRAMMAR_TEMPLATE_ORIGIN_SCHEMA)->value_nick, ==, "schema");
  }
}

/* Text templates. */

static void
test_text_placeholders (void)
{
  g_autoptr (GrammarSqlTemplate) join =
    parse ("SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID "
           "JOIN people p ON e.People_ID = p.People_ID WHERE c.Name = '[company.Name]' AND p.Name = '[people.Name]'");
  const char *id = grammar_sql_template_get_id (join);
  g_autoptr (GrammarTextTemplate) good =
    grammar_text_template_new (id, "short", "Years of [People.name] at '[company.Name]' [sic]? [company.Name]!");
  g_autoptr (GrammarTextTemplate) lost = grammar_text_template_new (id, "short", "Years at '[company.Name]'?");
  g_autoptr (GrammarTextTemplate) added =
    grammar_text_template_new (id, "long", "Years of [people.Name] at [company.Name] in [company.Industry]?");
  g_autoptr (GError) error = NULL;
  g_autofree char *filled = NULL;
  GVariant *values[] = { g_variant_new_string ("O'Brien & Sons"), g_variant_new_string ("Zoë\n東京") };

  g_assert_true (grammar_text_template_check_placeholders (good, join, &error));
  g_assert_no_error (error);

  g_assert_false (grammar_text_template_check_placeholders (lost, join, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_true (g_str_has_prefix (error->message, id));
  grammar_test_assert_contains (error->message, "lacks the placeholder [people.Name]");
  grammar_test_assert_contains (error->message, "(style short)");
  g_clear_error (&error);

  g_assert_false (grammar_text_template_check_placeholders (added, join, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "[company.Industry]");
  g_clear_error (&error);

  /* A value with an apostrophe is not put between apostrophes. */
  filled = grammar_text_template_fill (good, join, g_variant_new_tuple (values, 2));
  g_assert_cmpstr (filled, ==, "Years of Zoë\n東京 at \"O'Brien & Sons\" [sic]? O'Brien & Sons!");
}

/* The quotes around a value are chosen per value, so that the reader
 * sees where it ends. */
static void
test_text_fill_quotes (void)
{
  g_autoptr (GrammarSqlTemplate) join = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarTextTemplate) single = NULL;
  g_autoptr (GrammarTextTemplate) doubled = NULL;
  g_autoptr (GrammarTextTemplate) mixed = NULL;
  static const struct { const char *company, *person, *single, *doubled, *mixed; } cases[] = {
    { "Acme", "Ann", "'Acme' and 'Ann'.", "\"Acme\" and \"Ann\".", "'Acme' and \"Ann\"." },
    { "O'Brien & Sons", "Tom \"Quill\" Hardy", "\"O'Brien & Sons\" and 'Tom \"Quill\" Hardy'.",
      "\"O'Brien & Sons\" and 'Tom \"Quill\" Hardy'.", "\"O'Brien & Sons\" and 'Tom \"Quill\" Hardy'." },
    { "Rock 'n' \"Roll\"", "'", "“Rock 'n' \"Roll\"” and \"'\".", "“Rock 'n' \"Roll\"” and \"'\".",
      "“Rock 'n' \"Roll\"” and \"'\"." },
  };

  join = grammar_sql_template_new ("SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID "
                                   "JOIN people p ON e.People_ID = p.People_ID WHERE c.Name = '[company.Name]' "
                                   "AND p.Name = '[people.Name]'", GRAMMAR_TEMPLATE_ORIGIN_MANUAL, &error);
  g_assert_no_error (error);
  single = grammar_text_template_new (grammar_sql_template_get_id (join), "short", "'[company.Name]' and '[people.Name]'.");
  doubled = grammar_text_template_new (grammar_sql_template_get_id (join), "short", "\"[company.Name]\" and \"[people.Name]\".");
  mixed = grammar_text_template_new (grammar_sql_template_get_id (join), "short", "'[company.Name]' and \"[people.Name]\".");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GVariant *values[] = { g_variant_new_string (cases[i].company), g_variant_new_string (cases[i].person) };
      g_autoptr (GVariant) tuple = g_variant_ref_sink (g_variant_new_tuple (values, 2));
      g_autofree char *a = grammar_text_template_fill (single, join, tuple);
      g_autofree char *b = grammar_text_template_fill (doubled, join, tuple);
      g_autofree char *c = grammar_text_template_fill (mixed, join, tuple);

      g_assert_cmpstr (a, ==, cases[i].single);
      g_assert_cmpstr (b, ==, cases[i].doubled);
      g_assert_cmpstr (c, ==, cases[i].mixed);
    }
}

static void
test_text_json (void)
{
  g_autoptr (JsonNode) node = json_parse ("{\"template\": \"s000000000000\", \"style\": \"short\", \"text\": \"Hi [a.b]\"}");
  g_autoptr (JsonNode) missing = json_parse ("{\"template\": \"s000000000000\", \"text\": \"Hi [a.b]\"}");
  g_autoptr (GrammarTextTemplate) text_template = NULL;
  g_autoptr (GrammarTextTemplate) none = NULL;
  g_autoptr (JsonNode) written = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  text_template = grammar_text_template_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_text_template_get_template_id (text_template), ==, "s000000000000");
  g_assert_cmpstr (grammar_text_template_get_style (text_template), ==, "short");
  g_assert_cmpstr (grammar_text_template_get_text (text_template), ==, "Hi [a.b]");
  written = grammar_text_template_to_json (text_template);
  text = json_to_string (written, FALSE);
  g_assert_cmpstr (text, ==, "{\"template\":\"s000000000000\",\"style\":\"short\",\"text\":\"Hi [a.b]\"}");

  none = grammar_text_template_new_from_json (missing, &error);
  g_assert_null (none);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "“style”");
}

/* Sets. */

static void
test_set (void)
{
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarSqlTemplate) industry = parse (industry_sql);
  g_autoptr (GrammarSqlTemplate) again = parse ("SELECT Industry  FROM company WHERE Name = '[company.Name]';");
  g_autoptr (GrammarSqlTemplate) age = parse ("SELECT Age FROM people WHERE Name = [people.Name]");
  const char *id = grammar_sql_template_get_id (industry);
  g_autoptr (GrammarTextTemplate) a = grammar_text_template_new (id, "short", "Industry of [company.Name]?");
  g_autoptr (GrammarTextTemplate) a_again = grammar_text_template_new (id, "short", "Industry of [company.Name]?");
  g_autoptr (GrammarTextTemplate) b = grammar_text_template_new (id, "long", "Which industry is [company.Name] in?");
  g_autoptr (GrammarTextTemplate) c = grammar_text_template_new (grammar_sql_template_get_id (age), "formal",
                                                                 "State the age of [people.Name].");
  g_autoptr (GrammarTextTemplate) unknown = grammar_text_template_new ("s0123456789ab", "short", "[x.y]");
  g_autoptr (GPtrArray) for_short = NULL;
  g_autoptr (GPtrArray) for_all = NULL;
  g_auto (GStrv) styles = NULL;

  g_assert_true (grammar_template_set_add_sql_template (set, industry));
  g_assert_false (grammar_template_set_add_sql_template (set, again));
  g_assert_true (grammar_template_set_add_sql_template (set, age));
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 2);
  g_assert_true (grammar_template_set_lookup_sql_template (set, id) == industry);
  g_assert_null (grammar_template_set_lookup_sql_template (set, "s0123456789ab"));

  g_assert_true (grammar_template_set_add_text_template (set, a));
  g_assert_false (grammar_template_set_add_text_template (set, a_again));
  g_assert_true (grammar_template_set_add_text_template (set, b));
  g_assert_true (grammar_template_set_add_text_template (set, c));
  g_assert_false (grammar_template_set_add_text_template (set, unknown));
  g_assert_cmpuint (grammar_template_set_get_text_templates (set)->len, ==, 3);

  for_short = grammar_template_set_get_text_templates_for (set, id, "short");
  g_assert_cmpuint (for_short->len, ==, 1);
  g_assert_true (g_ptr_array_index (for_short, 0) == a);
  for_all = grammar_template_set_get_text_templates_for (set, id, NULL);
  g_assert_cmpuint (for_all->len, ==, 2);

  styles = grammar_template_set_dup_styles (set);
  g_assert_cmpuint (g_strv_length (styles), ==, 3);
  g_assert_cmpstr (styles[0], ==, "short");
  g_assert_cmpstr (styles[1], ==, "long");
  g_assert_cmpstr (styles[2], ==, "formal");
}

static GrammarTemplateSet *
load (const char  *path,
      GStrv       *problems)
{
  GrammarTemplateSet *set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (grammar_template_set_load (set, path, database, NULL, problems, &error));
  g_assert_no_error (error);
  return set;
}

static void
test_file_round_trip (void)
{
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarTemplateSet) sql_loaded = NULL;
  g_autoptr (GrammarTemplateSet) text_loaded = NULL;
  g_autofree char *sql_path = g_build_filename (tmp_dir, "round-sql.json", NULL);
  g_autofree char *sql_again = g_build_filename (tmp_dir, "round-sql-again.json", NULL);
  g_autofree char *text_path = g_build_filename (tmp_dir, "round-text.json", NULL);
  g_autofree char *text_again = g_build_filename (tmp_dir, "round-text-again.json", NULL);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_auto (GStrv) problems = NULL;
  g_autoptr (GError) error = NULL;
  const char *sqls[] = {
    industry_sql,
    "SELECT Headquarters FROM company WHERE Name = '[company.Name]' -- comment \"é\"",
    "SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID "
    "JOIN people p ON e.People_ID = p.People_ID WHERE c.Name = '[company.Name]' AND p.Name = '[people.Name]'",
  };

  for (guint i = 0; i < G_N_ELEMENTS (sqls); i++)
    {
      g_autoptr (GrammarSqlTemplate) sql_template = grammar_sql_template_new (sqls[i], i, &error);
      g_autofree char *text = g_strdup_printf ("Zoë's \"%s\" question\t%s?", sqls[i] + 7,
                                               grammar_sql_template_get_placeholder (sql_template, 0));
      g_autoptr (GrammarTextTemplate) text_template = NULL;
      g_autoptr (GString) all = g_string_new (text);

      g_assert_true (grammar_sql_template_validate (sql_template, database, schema, &error));
      if (i == 1)
        grammar_sql_template_set_note (sql_template, "a note\nover two lines");
      g_assert_true (grammar_template_set_add_sql_template (set, sql_template));
      for (guint j = 1; j < grammar_sql_template_get_n_placeholders (sql_template); j++)
        g_string_append_printf (all, " %s", grammar_sql_template_get_placeholder (sql_template, j));
      text_template = grammar_text_template_new (grammar_sql_template_get_id (sql_template), "short", all->str);
      g_assert_true (grammar_template_set_add_text_template (set, text_template));
    }

  g_assert_true (grammar_template_set_save_sql_templates (set, sql_path, &error));
  g_assert_no_error (error);
  sql_loaded = load (sql_path, &problems);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (sql_loaded)->len, ==, 3);
  g_assert_true (grammar_template_set_save_sql_templates (sql_loaded, sql_again, &error));
  first = read_file (sql_path);
  second = read_file (sql_again);
  g_assert_cmpstr (first, ==, second);
  g_assert_true (g_str_has_prefix (first, "[\n  {\n    \"id\" : \""));
  g_assert_true (g_str_has_suffix (first, "]\n"));
  grammar_test_assert_contains (first, "\"origin\" : \"schema\"");
  g_clear_pointer (&first, g_free);
  g_clear_pointer (&second, g_free);
  g_clear_pointer (&problems, g_strfreev);

  g_assert_true (grammar_template_set_save_text_templates (set, text_path, &error));
  text_loaded = load (text_path, &problems);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (grammar_template_set_get_text_templates (text_loaded)->len, ==, 3);
  g_assert_true (grammar_template_set_save_text_templates (text_loaded, text_again, &error));
  first = read_file (text_path);
  second = read_file (text_again);
  g_assert_cmpstr (first, ==, second);
  g_assert_true (g_str_has_prefix (first, "{\n  \"sql_templates\" : [\n"));
  grammar_test_assert_contains (first, "\"text_templates\" : [\n");
}

static void
assert_problem (GStrv       problems,
                const char *expected)
{
  for (guint i = 0; problems[i] != NULL; i++)
    if (strstr (problems[i], expected) != NULL)
      return;
  g_error ("no problem holds “%s”", expected);
}

static void
test_load_keeps_valid (void)
{
  g_autofree char *path = grammar_test_write_file (tmp_dir, "edited.json",
    "[\n"
    "  {\"id\": \"s000000000000\", \"sql\": \"SELECT Industry FROM company WHERE Name = '[company.Name]'\","
    "   \"tables\": [\"company\"], \"origin\": \"schema\"},\n"
    "  {\"sql\": \"SELECT Industry FROM company WHERE Name = '[company.Nmae]'\", \"origin\": \"llm\"},\n"
    "  {\"sql\": \"DELETE FROM company WHERE Name = '[company.Name]'\"},\n"
    "  {\"sql\": \"SELECT Industry FROM company WHERE Name = 'ExxonMobil'\"},\n"
    "  {\"origin\": \"manual\"},\n"
    "  {\"sql\": \"SELECT Age FROM people WHERE Name = [people.Name]\"},\n"
    "  {\"sql\": \"SELECT  Industry FROM company WHERE Name = '[company.Name]';\"}\n"
    "]\n");
  g_autofree char *misspelt = id_of ("SELECT Industry FROM company WHERE Name = '[company.Nmae]'");
  g_autofree char *deleting = id_of ("DELETE FROM company WHERE Name = '[company.Name]'");
  g_autofree char *expected = NULL;
  g_autoptr (GrammarTemplateSet) set = NULL;
  g_auto (GStrv) problems = NULL;
  GPtrArray *sql_templates;
  GrammarSqlTemplate *hand_added;

  set = load (path, &problems);
  sql_templates = grammar_template_set_get_sql_templates (set);
  g_assert_cmpuint (sql_templates->len, ==, 2);
  g_assert_cmpuint (g_strv_length (problems), ==, 5);

  expected = g_strdup_printf ("%s: template %s: unknown column “Nmae” in table “company” (placeholder [company.Nmae])",
                              path, misspelt);
  g_assert_cmpstr (problems[0], ==, expected);
  assert_problem (problems, deleting);
  assert_problem (problems, "not “DELETE”");
  assert_problem (problems, ": no placeholder");
  assert_problem (problems, "edited.json: templates[4]: an SQL template needs an “sql” string member");
  assert_problem (problems, "the same SQL (up to whitespace) as an earlier template");
  for (guint i = 0; problems[i] != NULL; i++)
    g_assert_true (g_str_has_prefix (problems[i], path));

  /* The hand-added entry gets its id and origin. */
  hand_added = g_ptr_array_index (sql_templates, 1);
  g_assert_cmpstr (grammar_sql_template_get_sql (hand_added), ==, "SELECT Age FROM people WHERE Name = [people.Name]");
  g_assert_cmpint (grammar_sql_template_get_origin (hand_added), ==, GRAMMAR_TEMPLATE_ORIGIN_MANUAL);
  g_assert_true (g_str_has_prefix (grammar_sql_template_get_id (hand_added), "s"));
  g_assert_cmpstr (grammar_sql_template_get_tables (hand_added)[0], ==, "people");
  g_clear_pointer (&problems, g_strfreev);

  /* The duplicate is not a problem of the file but is said anyway. */
  {
    g_autofree char *dup_path = grammar_test_write_file (tmp_dir, "dup.json",
      "[{\"sql\": \"SELECT Age FROM people WHERE Name = [people.Name]\"},"
      " {\"sql\": \"SELECT Age FROM people WHERE Name = [people.Name];\"}]");
    g_autoptr (GrammarTemplateSet) dup = load (dup_path, &problems);

    g_assert_cmpuint (grammar_template_set_get_sql_templates (dup)->len, ==, 1);
    g_assert_cmpuint (g_strv_length (problems), ==, 1);
    grammar_test_assert_contains (problems[0], "the same SQL");
  }
}

static void
test_load_parse_only (void)
{
  g_autofree char *path = grammar_test_write_file (tmp_dir, "unchecked.json",
    "[{\"sql\": \"SELECT Nope FROM nowhere WHERE x = [nowhere.x]\"}, {\"sql\": \"SELECT 1\"}]");
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;

  g_assert_true (grammar_template_set_load (set, path, NULL, NULL, &problems, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 1);
  g_assert_cmpuint (g_strv_length (problems), ==, 1);
}

static void
test_load_text_templates (void)
{
  g_autofree char *industry = id_of (industry_sql);
  g_autofree char *misspelt = id_of ("SELECT Industry FROM company WHERE Name = '[company.Nmae]'");
  g_autofree char *edited = id_of ("SELECT Headquarters FROM company WHERE Name = '[company.Name]'");
  g_autofree char *text = g_strdup_printf (
    "{\"sql_templates\": [\n"
    "  {\"id\": \"%s\", \"sql\": \"%s\"},\n"
    "  {\"id\": \"%s\", \"sql\": \"SELECT Industry FROM company WHERE Name = '[company.Nmae]'\"},\n"
    "  {\"id\": \"sffffffffffff\", \"sql\": \"SELECT Headquarters FROM company WHERE Name = '[company.Name]'\"}\n"
    "], \"text_templates\": [\n"
    "  {\"template\": \"%s\", \"style\": \"short\", \"text\": \"Industry of '[company.Name]'?\"},\n"
    "  {\"template\": \"%s\", \"style\": \"short\", \"text\": \"Industry of it?\"},\n"
    "  {\"template\": \"%s\", \"style\": \"short\", \"text\": \"Industry of [company.Nmae]?\"},\n"
    "  {\"template\": \"%s\", \"style\": \"long\", \"text\": \"And of [company.Nmae]?\"},\n"
    "  {\"template\": \"sffffffffffff\", \"style\": \"short\", \"text\": \"Where is [company.Name]?\"},\n"
    "  {\"template\": \"s0123456789ab\", \"style\": \"short\", \"text\": \"Who?\"},\n"
    "  {\"template\": \"%s\", \"text\": \"no style\"}\n"
    "]}\n", industry, industry_sql, misspelt, industry, industry, misspelt, misspelt, industry);
  g_autofree char *path = grammar_test_write_file (tmp_dir, "texts.json", text);
  g_autoptr (GrammarTemplateSet) set = NULL;
  g_auto (GStrv) problems = NULL;
  GPtrArray *text_templates;

  set = load (path, &problems);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 2);
  text_templates = grammar_template_set_get_text_templates (set);
  g_assert_cmpuint (text_templates->len, ==, 2);
  /* The text of the edited SQL follows it to its new id. */
  g_assert_cmpstr (grammar_text_template_get_template_id (g_ptr_array_index (text_templates, 1)), ==, edited);

  g_assert_cmpuint (g_strv_length (problems), ==, 5);
  assert_problem (problems, "unknown column “Nmae”");
  assert_problem (problems, "lacks the placeholder [company.Name]");
  assert_problem (problems, "texts.json: text_templates[5]: unknown SQL template “s0123456789ab”");
  assert_problem (problems, "texts.json: text_templates[6]: a text template needs a “style” string member");
  {
    g_autofree char *dropped = g_strdup_printf ("template %s: its 2 text template(s) are dropped with it", misspelt);

    assert_problem (problems, dropped);
  }
}

static void
test_load_errors (void)
{
  g_autofree char *not_json = grammar_test_write_file (tmp_dir, "broken.json", "[\n  {\"sql\": \"SELECT\"\n");
  g_autofree char *wrong_shape = grammar_test_write_file (tmp_dir, "shape.json", "{\"templates\": []}");
  g_autofree char *scalar = grammar_test_write_file (tmp_dir, "scalar.json", "42");
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.json", NULL);
  const char *paths[] = { not_json, wrong_shape, scalar, missing };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) problems = NULL;

      g_assert_false (grammar_template_set_load (set, paths[i], database, NULL, &problems, &error));
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      grammar_test_assert_contains (error->message, paths[i]);
      g_assert_null (problems);
      g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 0);
      if (i == 0)
        grammar_test_assert_contains (error->message, "broken.json:2:");
      if (i == 1)
        grammar_test_assert_contains (error->message, "not a template file");
    }
}

static void
test_save_atomic (void)
{
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autofree char *path = g_build_filename (tmp_dir, "no-such-dir", "out.json", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_false (grammar_template_set_save_sql_templates (set, path, &error));
  g_assert_nonnull (error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* Fixture. */

static void
open_fixture (void)
{
  g_autofree char *script = grammar_test_write_file (tmp_dir, "fixture.sql", fixture_sql);
  g_autofree char *keyfile = grammar_test_write_file (tmp_dir, "test.ini", "[database]\nplugin=sqlite\nscript=fixture.sql\n");
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GError) error = NULL;

  config = grammar_config_new_from_file (keyfile, &error);
  g_assert_no_error (error);
  database = GRAMMAR_DATABASE (grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error));
  g_assert_no_error (error);
  schema = grammar_database_get_schema (database, NULL, &error);
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = grammar_test_make_tmp_dir ("test-templates-XXXXXX");
  open_fixture ();

  g_test_add_func ("/templates/parse/bare-and-quoted", test_parse_bare_and_quoted);
  g_test_add_func ("/templates/parse/repeated", test_parse_repeated);
  g_test_add_func ("/templates/parse/quoted-names", test_parse_quoted_names);
  g_test_add_func ("/templates/parse/literals-and-comments", test_parse_literals_and_comments);
  g_test_add_func ("/templates/parse/errors", test_parse_errors);
  g_test_add_func ("/templates/ids", test_ids);
  g_test_add_func ("/templates/ids/quotes", test_ids_quotes);
  g_test_add_func ("/templates/names/dialects", test_dialects);
  g_test_add_func ("/templates/names/resolve", test_resolve_bare_names);
  g_test_add_func ("/templates/names/foreign-key-order", test_foreign_key_order);
  g_test_add_func ("/templates/values/to-text", test_value_to_text);
  g_test_add_func ("/templates/values/fill", test_fill);
  g_test_add_func ("/templates/validate/valid", test_validate);
  g_test_add_func ("/templates/validate/errors", test_validate_errors);
  g_test_add_func ("/templates/json", test_json);
  g_test_add_func ("/templates/text/placeholders", test_text_placeholders);
  g_test_add_func ("/templates/text/fill-quotes", test_text_fill_quotes);
  g_test_add_func ("/templates/text/json", test_text_json);
  g_test_add_func ("/templates/set/add", test_set);
  g_test_add_func ("/templates/set/round-trip", test_file_round_trip);
  g_test_add_func ("/templates/set/load-keeps-valid", test_load_keeps_valid);
  g_test_add_func ("/templates/set/load-parse-only", test_load_parse_only);
  g_test_add_func ("/templates/set/load-text-templates", test_load_text_templates);
  g_test_add_func ("/templates/set/load-errors", test_load_errors);
  g_test_add_func ("/templates/set/save-atomic", test_save_atomic);

  status = g_test_run ();

  g_clear_object (&schema);
  g_clear_object (&database);
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
