/* test-verbalizers.c: text templates from SQL templates, by rules and by a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmpdir;

/* The fixture: companies, people, who worked where, and projects with
 * their clients. */
static const char fixture_sql[] =
  "CREATE TABLE company (Company_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL UNIQUE, Industry TEXT,"
  "  Headquarters TEXT, Sales_in_Billion REAL);\n"
  "CREATE TABLE people (People_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL UNIQUE, Age INTEGER,"
  "  Graduation_College TEXT, StartDate TEXT);\n"
  "CREATE TABLE employment (Company_ID INTEGER REFERENCES company, People_ID INTEGER REFERENCES people,"
  "  Year_working INTEGER, PRIMARY KEY (Company_ID, People_ID));\n"
  "CREATE TABLE client (client_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);\n"
  "CREATE TABLE project (project_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
  "  client_id INTEGER REFERENCES client, hire_date TEXT);\n"
  "CREATE TABLE \"Order Items\" (item_id INTEGER PRIMARY KEY, \"Item Name\" TEXT UNIQUE, \"Unit Price\" REAL);\n"
  "INSERT INTO company VALUES (1, 'Zephyr Mills', 'Textiles', 'Lyon', 12.5);\n"
  "INSERT INTO company VALUES (2, 'Oak & Sons', 'Furniture', 'Leeds', 3.0);\n"
  "INSERT INTO people VALUES (1, 'Ada Byrne', 41, 'Trinity', '2001-09-01');\n"
  "INSERT INTO people VALUES (2, 'Kofi Mensah', 35, 'Legon', '2010-01-15');\n"
  "INSERT INTO employment VALUES (1, 1, 12);\n"
  "INSERT INTO employment VALUES (2, 2, 4);\n"
  "INSERT INTO client VALUES (1, 'Harbour Board');\n"
  "INSERT INTO project VALUES (1, 'Quay Wall', 1, '2020-03-02');\n"
  "INSERT INTO \"Order Items\" VALUES (1, 'Bolt', 0.25);\n";

/* Templates the tests verbalize: what each one is, and its SQL. */
static const char industry_sql[] = "SELECT Industry FROM company WHERE Name = '[company.Name]'";
static const char college_sql[] = "SELECT Graduation_College FROM people WHERE Name = '[people.Name]'";
static const char start_sql[] = "SELECT StartDate FROM people WHERE Name = '[people.Name]'";
static const char join_sql[] =
  "SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID "
  "JOIN people p ON e.People_ID = p.People_ID WHERE c.Name = '[company.Name]' AND p.Name = '[people.Name]';";
static const char follow_sql[] =
  "SELECT c.name FROM project p JOIN client c ON p.client_id = c.client_id WHERE p.name = '[project.name]'";
static const char bare_sql[] = "SELECT Name FROM people WHERE Age = [people.Age]";
static const char compare_sql[] = "SELECT Name FROM company WHERE Sales_in_Billion > [company.Sales_in_Billion]";
static const char count_sql[] = "SELECT COUNT(*) FROM project WHERE hire_date = '[project.hire_date]'";
static const char two_columns_sql[] = "SELECT Industry, Headquarters FROM company WHERE Name = '[company.Name]'";
static const char quoted_sql[] =
  "SELECT \"Unit Price\" FROM \"Order Items\" WHERE \"Item Name\" = '[\"Order Items\".\"Item Name\"]'";

static const char * const all_sql[] = {
  industry_sql, college_sql, start_sql, join_sql, follow_sql, bare_sql, compare_sql, count_sql,
  two_columns_sql, quoted_sql, NULL
};

/* Helpers */

static GrammarSqlTemplate *
new_template (const char *sql)
{
  g_autoptr (GError) error = NULL;
  GrammarSqlTemplate *sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (sql_template);
  return sql_template;
}

static GrammarConfig *
load_config (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "fixture.ini", NULL);
  g_autoptr (GError) error = NULL;
  GrammarConfig *config = grammar_config_new_from_file (path, &error);

  g_assert_no_error (error);
  return config;
}

static GrammarSchema *
fixture_schema (void)
{
  g_autoptr (GrammarConfig) config = load_config ();
  g_autoptr (GObject) database = NULL;
  g_autoptr (GError) error = NULL;
  GrammarSchema *schema;

  database = grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error);
  g_assert_no_error (error);
  schema = grammar_database_get_schema (GRAMMAR_DATABASE (database), NULL, &error);
  g_assert_no_error (error);
  return schema;
}

static GPtrArray *
verbalize (GrammarRuleVerbalizer *verbalizer,
           const char            *sql,
           const char            *style,
           guint                  n)
{
  g_autoptr (GrammarSqlTemplate) sql_template = new_template (sql);
  g_autoptr (GError) error = NULL;
  GPtrArray *texts = grammar_rule_verbalizer_verbalize (verbalizer, sql_template, style, n, &error);

  g_assert_no_error (error);
  g_assert_nonnull (texts);
  return texts;
}

/* Every variant the rules know for @sql in @style. */
static GPtrArray *
all_variants (const char *sql,
              const char *style)
{
  g_autoptr (GrammarRuleVerbalizer) verbalizer = grammar_rule_verbalizer_new (NULL);

  return verbalize (verbalizer, sql, style, 100000);
}

static gboolean
has_text (GPtrArray  *texts,
          const char *text)
{
  for (guint i = 0; i < texts->len; i++)
    if (g_str_equal (grammar_text_template_get_text (g_ptr_array_index (texts, i)), text))
      return TRUE;
  return FALSE;
}

static void
assert_has_text (GPtrArray  *texts,
                 const char *text)
{
  if (has_text (texts, text))
    return;
  for (guint i = 0; i < texts->len; i++)
    g_printerr ("  %s\n", grammar_text_template_get_text (g_ptr_array_index (texts, i)));
  g_error ("“%s” is not among the %u variants above", text, texts->len);
}

static void
assert_distinct (GPtrArray *texts)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < texts->len; i++)
    g_assert_true (g_hash_table_add (seen, (gpointer) grammar_text_template_get_text (g_ptr_array_index (texts, i))));
}

/* What every text of a style must be, whoever made it. */
static void
assert_valid (GPtrArray          *texts,
              GrammarSqlTemplate *sql_template,
              const char         *style)
{
  for (guint i = 0; i < texts->len; i++)
    {
      GrammarTextTemplate *text_template = g_ptr_array_index (texts, i);
      const char *text = grammar_text_template_get_text (text_template);
      g_autoptr (GError) error = NULL;

      g_assert_true (grammar_text_template_check_placeholders (text_template, sql_template, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (grammar_text_template_get_template_id (text_template), ==,
                       grammar_sql_template_get_id (sql_template));
      g_assert_cmpstr (grammar_text_template_get_style (text_template), ==, style);
      if (g_str_equal (style, "long"))
        g_assert_cmpuint (grammar_text_count_words (text), >=, 30);
      if (g_str_equal (style, "interrogative"))
        g_assert_true (g_str_has_suffix (text, "?"));
      if (g_str_equal (style, "directive"))
        g_assert_true (g_str_has_suffix (text, "."));
      if (g_str_equal (style, "short"))
        g_assert_cmpuint (grammar_text_count_words (text), <=, 12);
    }
}

/* Styles */

static void
test_styles (void)
{
  const char * const *styles = grammar_text_style_list ();
  const char * const expected[] = { "short", "long", "interrogative", "directive", "formal", "casual", NULL };
  g_autoptr (GError) error = NULL;

  g_assert_cmpstrv (styles, expected);
  for (guint i = 0; styles[i] != NULL; i++)
    {
      g_assert_true (grammar_text_style_check (styles[i], NULL));
      g_assert_nonnull (grammar_text_style_get_summary (styles[i]));
      g_assert_nonnull (grammar_text_style_get_criteria (styles[i]));
    }
  /* The paper's criteria (Table 6) for short and long. */
  grammar_test_assert_contains (grammar_text_style_get_criteria ("long"), "Each query should be at least 30 words long");
  grammar_test_assert_contains (grammar_text_style_get_criteria ("short"), "skip parts of speech, such as conjunctions and articles");
  grammar_test_assert_contains (grammar_text_style_get_criteria ("interrogative"), "question mark");

  g_assert_false (grammar_text_style_check ("Short", &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "“Short”");
  grammar_test_assert_contains (error->message, "short, long, interrogative, directive, formal, casual");
  g_clear_error (&error);
  g_assert_false (grammar_text_style_check (NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_null (grammar_text_style_get_criteria ("loud"));

  g_assert_cmpuint (grammar_text_count_words (""), ==, 0);
  g_assert_cmpuint (grammar_text_count_words ("  one\ttwo\n three  "), ==, 3);
  g_assert_cmpuint (grammar_text_count_words ("'[company.Name]' industry?"), ==, 2);
}

static void
assert_humanized (const char *identifier,
                  const char *expected)
{
  g_autofree char *words = grammar_rule_verbalizer_humanize (identifier);

  g_assert_cmpstr (words, ==, expected);
}

static void
assert_noun (const char *table,
             const char *expected)
{
  g_autofree char *noun = grammar_rule_verbalizer_entity_noun (table);

  g_assert_cmpstr (noun, ==, expected);
}

static void
test_humanize (void)
{
  assert_humanized ("Graduation_College", "graduation college");
  assert_humanized ("StartDate", "start date");
  assert_humanized ("hire_date", "hire date");
  assert_humanized ("Sales_in_Billion", "sales in billion");
  assert_humanized ("Year_working", "year working");
  assert_humanized ("Company_ID", "company ID");
  assert_humanized ("HTTPServer", "HTTP server");
  assert_humanized ("CITY_NAME", "city name");
  assert_humanized ("\"Unit Price\"", "unit price");
  assert_humanized ("`first-name`", "first name");
  assert_humanized ("Name", "name");
  assert_humanized ("Straße_Nr", "straße nr");

  assert_noun ("people", "person");
  assert_noun ("companies", "company");
  assert_noun ("employees", "employee");
  assert_noun ("company", "company");
  assert_noun ("Order_Items", "order item");
  assert_noun ("addresses", "address");
  assert_noun ("branches", "branch");
  assert_noun ("status", "status");
  assert_noun ("employment", "employment");
  assert_noun ("series", "series");
  assert_noun ("SalesPeople", "sales person");
}

/* The rule verbalizer */

static void
test_rules_every_style (void)
{
  g_autoptr (GrammarSchema) schema = fixture_schema ();
  g_autoptr (GrammarRuleVerbalizer) verbalizer = grammar_rule_verbalizer_new (schema);
  const char * const *styles = grammar_text_style_list ();

  for (guint t = 0; all_sql[t] != NULL; t++)
    for (guint s = 0; styles[s] != NULL; s++)
      for (guint n = 1; n <= 5; n += 2)
        {
          g_autoptr (GrammarSqlTemplate) sql_template = new_template (all_sql[t]);
          g_autoptr (GPtrArray) texts = NULL;
          g_autoptr (GError) error = NULL;

          g_assert_true (grammar_sql_template_validate (sql_template, NULL, schema, &error));
          g_assert_no_error (error);
          texts = grammar_rule_verbalizer_verbalize (verbalizer, sql_template, styles[s], n, &error);
          g_assert_no_error (error);
          if (texts->len != n)
            g_error ("%s, %s: %u of %u", all_sql[t], styles[s], texts->len, n);
          assert_distinct (texts);
          assert_valid (texts, sql_template, styles[s]);
        }
}

/* What good output looks like, from the issue, for the paper's example. */
static void
test_rules_simple_phrasing (void)
{
  g_autoptr (GPtrArray) short_texts = all_variants (industry_sql, "short");
  g_autoptr (GPtrArray) questions = all_variants (industry_sql, "interrogative");
  g_autoptr (GPtrArray) directives = all_variants (industry_sql, "directive");
  g_autoptr (GPtrArray) formal = all_variants (industry_sql, "formal");
  g_autoptr (GPtrArray) casual = all_variants (industry_sql, "casual");
  g_autoptr (GPtrArray) long_texts = all_variants (industry_sql, "long");

  assert_has_text (short_texts, "Industry of company '[company.Name]'");
  assert_has_text (short_texts, "'[company.Name]' industry");
  assert_has_text (questions, "What is the industry of the company named '[company.Name]'?");
  assert_has_text (questions, "What industry does the company called '[company.Name]' have?");
  assert_has_text (directives, "Tell me the industry of the company named '[company.Name]'.");
  assert_has_text (formal, "Kindly state the industry of the company '[company.Name]'.");
  assert_has_text (casual, "hey, what's the industry of '[company.Name]'?");
  assert_has_text (long_texts,
                   "In the course of checking the figures in our system, I need a single detail that I have not "
                   "been able to find so far. It is about the industry, nothing more. Could you tell me the "
                   "industry of the company named '[company.Name]', based on what is currently stored? I will "
                   "pass the answer on to the people who asked me.");

  /* Short texts skip articles; the casual ones are not capitalised. */
  for (guint i = 0; i < short_texts->len; i++)
    g_assert_null (strstr (grammar_text_template_get_text (g_ptr_array_index (short_texts, i)), "the "));
  for (guint i = 0; i < casual->len; i++)
    g_assert_false (g_ascii_isupper (grammar_text_template_get_text (g_ptr_array_index (casual, i))[0]));
}

static void
test_rules_humanized_names (void)
{
  g_autoptr (GPtrArray) college = all_variants (college_sql, "directive");
  g_autoptr (GPtrArray) start = all_variants (start_sql, "interrogative");
  g_autoptr (GPtrArray) quoted = all_variants (quoted_sql, "interrogative");

  assert_has_text (college, "Find the graduation college of the person named '[people.Name]'.");
  assert_has_text (start, "What is the start date of the person named '[people.Name]'?");
  /* Quoted names inside the brackets, as the SQL writes them. */
  assert_has_text (quoted, "What is the unit price of the order item named '[\"Order Items\".\"Item Name\"]'?");
  for (guint i = 0; i < college->len; i++)
    {
      const char *text = grammar_text_template_get_text (g_ptr_array_index (college, i));

      g_assert_null (strstr (text, "Graduation_College"));
      g_assert_null (strstr (text, "the people"));
    }
}

static void
test_rules_join (void)
{
  g_autoptr (GPtrArray) questions = all_variants (join_sql, "interrogative");
  g_autoptr (GPtrArray) short_texts = all_variants (join_sql, "short");
  g_autoptr (GPtrArray) formal = all_variants (join_sql, "formal");

  /* `Year_working` is counted years, asked with “are”. */
  assert_has_text (questions, "What are the years working for the person named '[people.Name]' and the company named '[company.Name]'?");
  assert_has_text (questions, "What are the years working recorded for the company '[company.Name]' and the person '[people.Name]'?");
  assert_has_text (short_texts, "Years working for '[people.Name]' and '[company.Name]'");
  assert_has_text (formal, "With regard to the person '[people.Name]' and the company '[company.Name]', kindly state the years working.");
  /* Both orders of the two entities occur. */
  g_assert_true (has_text (questions, "What are the years working of the employment linking the company '[company.Name]' and the person '[people.Name]'?"));
  g_assert_true (has_text (questions, "What are the years working of the employment linking the person '[people.Name]' and the company '[company.Name]'?"));
  /* Never “with … with”, and the linking row's attribute is never made
   * its first entity's (“Year working of 'Gazprom' with person …”). */
  for (guint i = 0; i < questions->len; i++)
    {
      const char *text = grammar_text_template_get_text (g_ptr_array_index (questions, i));
      const char *with = strstr (text, " with ");

      g_assert_true (with == NULL || strstr (with + 1, " with ") == NULL);
      g_assert_null (strstr (text, "working of the company"));
      g_assert_null (strstr (text, "working of the person"));
    }
  for (guint i = 0; i < short_texts->len; i++)
    g_assert_null (strstr (grammar_text_template_get_text (g_ptr_array_index (short_texts, i)), " with "));
}

static void
test_rules_follow (void)
{
  g_autoptr (GPtrArray) directives = all_variants (follow_sql, "directive");
  g_autoptr (GPtrArray) short_texts = all_variants (follow_sql, "short");

  assert_has_text (directives, "Tell me the name of the client of the project '[project.name]'.");
  assert_has_text (directives, "Tell me the client name for the project named '[project.name]'.");
  assert_has_text (short_texts, "Name of client of project '[project.name]'");
  assert_has_text (short_texts, "Client name for '[project.name]'");
}

static void
test_rules_comparisons_and_aggregates (void)
{
  g_autoptr (GPtrArray) bare = all_variants (bare_sql, "interrogative");
  g_autoptr (GPtrArray) compare = all_variants (compare_sql, "directive");
  g_autoptr (GPtrArray) count = all_variants (count_sql, "interrogative");
  g_autoptr (GPtrArray) count_short = all_variants (count_sql, "short");
  g_autoptr (GPtrArray) two = all_variants (two_columns_sql, "interrogative");

  /* A bare placeholder stays bare. */
  assert_has_text (bare, "What is the name of the person whose age is [people.Age]?");
  for (guint i = 0; i < bare->len; i++)
    g_assert_null (strstr (grammar_text_template_get_text (g_ptr_array_index (bare, i)), "'[people.Age]'"));
  assert_has_text (compare, "Find the name of the company whose sales (in billions) are greater than [company.Sales_in_Billion].");
  assert_has_text (count, "How many projects whose hire date is '[project.hire_date]' are there?");
  assert_has_text (count, "What is the number of projects with hire date '[project.hire_date]'?");
  assert_has_text (count_short, "Number of projects with hire date '[project.hire_date]'");
  assert_has_text (two, "What are the industry and headquarters of the company named '[company.Name]'?");
}

/* Rows are told apart by alias, and a joined row is named by the
 * column that points at it: a self-join asks for the supervisor, not
 * for the employee's own name; two joins of the same tables through
 * different keys never read the same. */
static void
test_rules_roles (void)
{
  const char *supervisor = "SELECT s.name FROM employee e JOIN employee s ON e.supervisor_id = s.employee_id "
                           "WHERE e.name = '[employee.name]'";
  const char *director = "SELECT e.name FROM project p JOIN employee e ON p.director_id = e.employee_id "
                         "WHERE p.name = '[project.name]'";
  const char *manager = "SELECT e.name FROM project p JOIN employee e ON e.employee_id = p.ManagerID "
                        "WHERE p.name = '[project.name]'";
  const char *by_id = "SELECT c.name FROM project p JOIN client c ON c.id = p.client WHERE p.name = '[project.name]'";
  g_autoptr (GPtrArray) supervisors = all_variants (supervisor, "directive");
  g_autoptr (GPtrArray) directors = all_variants (director, "interrogative");
  g_autoptr (GPtrArray) managers = all_variants (manager, "interrogative");
  g_autoptr (GPtrArray) clients = all_variants (by_id, "directive");

  assert_has_text (supervisors, "Tell me the name of the supervisor of the employee named '[employee.name]'.");
  for (guint i = 0; i < supervisors->len; i++)
    g_assert_null (strstr (grammar_text_template_get_text (g_ptr_array_index (supervisors, i)), "the name of the employee"));
  assert_has_text (directors, "What is the name of the director of the project named '[project.name]'?");
  assert_has_text (managers, "What is the name of the manager of the project named '[project.name]'?");
  for (guint i = 0; i < directors->len; i++)
    g_assert_false (has_text (managers, grammar_text_template_get_text (g_ptr_array_index (directors, i))));
  assert_has_text (clients, "Tell me the name of the client of the project named '[project.name]'.");
}

/* A library schema built by hand: the declared types decide how a
 * column named by a participle reads. */
static GrammarSchema *
library_schema (void)
{
  static const char * const columns[][3] = {
    { "members", "name", "TEXT" }, { "members", "joined", "DATE" }, { "members", "born", "INTEGER" },
    { "members", "LastUpdated", "TIMESTAMP" }, { "members", "renewed", "BOOLEAN" },
    { "members", "fine_amt_in_euro", "REAL" }, { "members", "Email_Addr", "TEXT" }, { "members", "DOB", "DATE" },
    { "members", "PhoneNo", "TEXT" }, { "members", "num_awards", "INTEGER" }, { "members", "HomepageURL", "TEXT" },
    { "members", "paid", "REAL" }, { "members", "sold", "INTEGER" }, { "members", "inspected", "DATE" },
    { "members", "Price_in_thousand_USD", "REAL" }, { "members", "weight_kg", "REAL" },
    { "members", "Height_in_cm", "REAL" }, { "members", "member_ID", "INTEGER" },
    { "book", "isbn", "TEXT" }, { "book", "Title", "TEXT" }, { "book", "published", "INTEGER" },
    { "book_author", "isbn", "TEXT" }, { "book_author", "AuthorID", "INTEGER" }, { "book_author", "role", "TEXT" },
    { "Authors", "AuthorID", "INTEGER" }, { "Authors", "FullName", "TEXT" },
    /* Names as ORMs and pandas write them (issue 24). */
    { "members", "joined_on", "DATE" }, { "members", "created_at", "TIMESTAMP" },
    { "members", "created_on_date", "DATE" }, { "members", "renewal_at", "DATE" },
    { "members", "last_updated_at", "DATETIME" }, { "members", "approved_by", "TEXT" },
    { "members", "created_by", "TEXT" }, { "members", "verified_by", "TEXT" }, { "members", "placed_at", "TIMESTAMP" },
    { "members", "terminated_on", "DATE" }, { "members", "effective_on", "DATE" },
    { "members", "shipped_date", "DATE" }, { "members", "last_inspected_date", "DATE" },
    { "members", "is_active", "BOOLEAN" }, { "members", "has_parking", "BOOLEAN" }, { "members", "is_staff", "INTEGER" },
    { "members", "IsFlagship", "BOOLEAN" }, { "members", "has_contract", "BOOLEAN" }, { "members", "has_shipped", "BOOLEAN" },
    { "members", "has_children", "BOOLEAN" }, { "members", "can_login", "BOOLEAN" },
    { "members", "sponsor_full_name", "TEXT" }, { "members", "order_name", "TEXT" },
    { "book", "published_year", "INTEGER" }, { "book", "author_full_name", "TEXT" },
    { "branch", "name", "TEXT" }, { "branch", "opened_on", "DATE" }, { "branch", "city", "TEXT" },
    { "tbl_branch_loans", "branch_id", "INTEGER" }, { "tbl_branch_loans", "loan_code", "TEXT" },
    { "tbl_branch_loans", "is_overdue", "BOOLEAN" },
  };
  GrammarSchema *schema = grammar_schema_new ();

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GrammarTable *table = grammar_schema_get_table (schema, columns[i][0]);
      g_autoptr (GrammarColumn) column = grammar_column_new (columns[i][1], columns[i][2], TRUE, 0, NULL);

      if (table == NULL)
        {
          g_autoptr (GrammarTable) made = grammar_table_new (columns[i][0], FALSE);

          grammar_schema_add_table (schema, made);
          table = made;
        }
      grammar_table_add_column (table, column);
    }
  return schema;
}

/* The interrogative texts of `SELECT @column FROM members WHERE name = …`. */
static GPtrArray *
member_questions (GrammarRuleVerbalizer *verbalizer,
                  const char            *column)
{
  g_autofree char *sql = g_strdup_printf ("SELECT %s FROM members WHERE name = '[members.name]'", column);

  return verbalize (verbalizer, sql, "interrogative", 100000);
}

/* Column names become what a person says: units in parentheses,
 * abbreviations spelt out, codes in capitals, participles made nouns
 * by the column's type, and the verb agreeing. */
static void
test_rules_noun_phrases (void)
{
  static const char * const cases[][2] = {
    { "joined", "What is the join date of the member named '[members.name]'?" },
    { "born", "What is the birth year of the member named '[members.name]'?" },
    { "LastUpdated", "What is the last update date of the member named '[members.name]'?" },
    { "renewed", "What is the renewal status of the member named '[members.name]'?" },
    { "paid", "What is the amount paid of the member named '[members.name]'?" },
    { "sold", "What is the number sold of the member named '[members.name]'?" },
    { "inspected", "What is the date inspected of the member named '[members.name]'?" },
    { "fine_amt_in_euro", "What is the fine amount (in euros) of the member named '[members.name]'?" },
    { "Price_in_thousand_USD", "What is the price (in thousands of USD) of the member named '[members.name]'?" },
    { "weight_kg", "What is the weight (in kg) of the member named '[members.name]'?" },
    { "Height_in_cm", "What is the height (in cm) of the member named '[members.name]'?" },
    { "Email_Addr", "What is the email address of the member named '[members.name]'?" },
    { "DOB", "What is the date of birth of the member named '[members.name]'?" },
    { "PhoneNo", "What is the phone number of the member named '[members.name]'?" },
    { "num_awards", "What is the number of awards of the member named '[members.name]'?" },
    { "HomepageURL", "What is the homepage URL of the member named '[members.name]'?" },
    { "member_ID", "What is the ID of the member named '[members.name]'?" },
  };
  g_autoptr (GrammarSchema) schema = library_schema ();
  g_autoptr (GrammarRuleVerbalizer) typed = grammar_rule_verbalizer_new (schema);
  g_autoptr (GrammarRuleVerbalizer) untyped = grammar_rule_verbalizer_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) questions = member_questions (typed, cases[i][0]);

      assert_has_text (questions, cases[i][1]);
    }
  {
    /* Without a schema a participle is taken for a date. */
    g_autoptr (GPtrArray) born = member_questions (untyped, "born");
    g_autoptr (GPtrArray) sales = all_variants ("SELECT Sales_in_Billion FROM company WHERE Name = '[company.Name]'",
                                                "interrogative");
    g_autoptr (GPtrArray) sales_short = all_variants ("SELECT Sales_in_Billion FROM company WHERE Name = '[company.Name]'",
                                                      "short");
    g_autoptr (GPtrArray) isbn = verbalize (typed, "SELECT Title FROM book WHERE isbn = '[book.isbn]'", "interrogative",
                                            100000);
    g_autoptr (GPtrArray) by_id = all_variants ("SELECT Name FROM company WHERE Company_ID = [company.Company_ID]",
                                                "interrogative");
    g_autoptr (GPtrArray) published = verbalize (typed, "SELECT Title FROM book WHERE published < [book.published]",
                                                 "directive", 100000);

    assert_has_text (born, "What is the birth date of the member named '[members.name]'?");
    assert_has_text (sales, "What are the sales (in billions) of the company named '[company.Name]'?");
    assert_has_text (sales, "For the company named '[company.Name]', what are the sales (in billions)?");
    assert_has_text (sales_short, "Sales (in billions) of company '[company.Name]'");
    assert_has_text (isbn, "What is the title of the book whose ISBN is '[book.isbn]'?");
    assert_has_text (by_id, "What is the name of the company whose ID is [company.Company_ID]?");
    assert_has_text (published, "Find the title of the book whose publication year is less than [book.published].");
  }
}

/* Names as ORMs and pandas write them become what a person says, in
 * every style (issue 24): `joined_on`, `created_at`, `approved_by`,
 * `published_year`, `author_full_name`, and `is_*`/`has_*` as yes/no
 * questions. */
static void
test_rules_orm_names (void)
{
  static const char * const cases[][2] = {
    { "joined_on", "What is the join date of the member named '[members.name]'?" },
    { "created_at", "What is the creation time of the member named '[members.name]'?" },
    { "last_updated_at", "What is the last update time of the member named '[members.name]'?" },
    { "approved_by", "What is the approver of the member named '[members.name]'?" },
    { "created_by", "What is the creator of the member named '[members.name]'?" },
    { "verified_by", "What is the verifier of the member named '[members.name]'?" },
    { "placed_at", "What is the time placed of the member named '[members.name]'?" },
    { "terminated_on", "What is the termination date of the member named '[members.name]'?" },
    { "effective_on", "What is the effective date of the member named '[members.name]'?" },
    { "shipped_date", "What is the shipping date of the member named '[members.name]'?" },
    { "last_inspected_date", "What is the date last inspected of the member named '[members.name]'?" },
    { "sponsor_full_name", "What is the sponsor's full name of the member named '[members.name]'?" },
    { "order_name", "What is the order name of the member named '[members.name]'?" },
    { "is_active", "Is the member named '[members.name]' active?" },
    { "is_staff", "Is the member named '[members.name]' staff?" },
    { "IsFlagship", "Is the member named '[members.name]' a flagship?" },
    { "has_parking", "Does the member named '[members.name]' have parking?" },
    { "has_contract", "Does the member named '[members.name]' have a contract?" },
    { "has_children", "Does the member named '[members.name]' have children?" },
    { "has_shipped", "Has the member named '[members.name]' shipped?" },
    { "can_login", "Can the member named '[members.name]' login?" },
  };
  g_autoptr (GrammarSchema) schema = library_schema ();
  g_autoptr (GrammarRuleVerbalizer) verbalizer = grammar_rule_verbalizer_new (schema);
  const char * const *styles = grammar_text_style_list ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) questions = member_questions (verbalizer, cases[i][0]);

      assert_has_text (questions, cases[i][1]);
    }
  {
    g_autoptr (GPtrArray) year = verbalize (verbalizer, "SELECT published_year FROM book WHERE Title = '[book.Title]'",
                                            "interrogative", 100000);
    g_autoptr (GPtrArray) author = verbalize (verbalizer, "SELECT author_full_name FROM book WHERE Title = '[book.Title]'",
                                              "directive", 100000);
    g_autoptr (GPtrArray) opened = verbalize (verbalizer, "SELECT opened_on FROM branch WHERE name = '[branch.name]'",
                                              "short", 100000);
    g_autoptr (GPtrArray) city = verbalize (verbalizer,
                                            "SELECT b.city FROM tbl_branch_loans l JOIN branch b ON l.branch_id = b.rowid "
                                            "WHERE l.loan_code = '[tbl_branch_loans.loan_code]'", "short", 100000);
    g_autoptr (GPtrArray) counted = verbalize (verbalizer, "SELECT COUNT(*) FROM members WHERE is_active = [members.is_active]",
                                               "interrogative", 100000);
    g_autoptr (GPtrArray) active_short = member_questions (verbalizer, "is_active");

    assert_has_text (year, "What is the year of publication of the book called '[book.Title]'?");
    assert_has_text (author, "Tell me the author's full name of the book called '[book.Title]'.");
    assert_has_text (opened, "Opening date of branch '[branch.name]'");
    assert_has_text (city, "City of branch of branch loan with loan code '[tbl_branch_loans.loan_code]'");
    assert_has_text (counted, "What is the number of members whose active status is [members.is_active]?");
    assert_has_text (active_short, "Could you tell me whether the member named '[members.name]' is active?");
  }
  /* A yes/no column asks a yes/no question in every style. */
  for (guint s = 0; styles[s] != NULL; s++)
    {
      g_autoptr (GPtrArray) texts = verbalize (verbalizer, "SELECT has_parking FROM members WHERE name = '[members.name]'",
                                               styles[s], 100000);

      g_assert_cmpuint (texts->len, >, 0);
      for (guint i = 0; i < texts->len; i++)
        {
          const char *text = grammar_text_template_get_text (g_ptr_array_index (texts, i));

          g_assert_true (strstr (text, "have parking") != NULL || strstr (text, "has parking") != NULL);
          g_assert_null (strstr (text, "has parking of"));
        }
    }
}

/* A code that is a key (`isbn`) is no role: the linking row is not
 * “the isbn”, and a table named after what it links (`book_author`) is
 * not named by a “linking” phrase. */
static void
test_rules_code_keys (void)
{
  const char *sql = "SELECT ba.role FROM book_author ba JOIN book b ON ba.isbn = b.isbn JOIN Authors a "
                    "ON ba.AuthorID = a.AuthorID WHERE b.Title = '[book.Title]' AND a.FullName = '[Authors.FullName]'";
  g_autoptr (GrammarSchema) schema = library_schema ();
  g_autoptr (GrammarRuleVerbalizer) verbalizer = grammar_rule_verbalizer_new (schema);
  const char * const *styles = grammar_text_style_list ();

  for (guint s = 0; styles[s] != NULL; s++)
    {
      g_autoptr (GPtrArray) texts = verbalize (verbalizer, sql, styles[s], 100000);

      g_assert_cmpuint (texts->len, >, 0);
      for (guint i = 0; i < texts->len; i++)
        {
          const char *text = grammar_text_template_get_text (g_ptr_array_index (texts, i));

          g_assert_null (strstr (text, "isbn"));
          g_assert_null (strstr (text, "ISBN"));
          g_assert_null (strstr (text, "book author linking"));
        }
      if (g_str_equal (styles[s], "interrogative"))
        assert_has_text (texts, "What is the role recorded for the book titled '[book.Title]' and the author named "
                                "'[Authors.FullName]'?");
    }
  {
    /* A code under another name is no role either; a plain column that
     * points at a row is. */
    g_autoptr (GPtrArray) by_code = all_variants ("SELECT b.Title FROM loans l JOIN book b ON l.book_isbn = b.isbn "
                                                  "WHERE l.loan_code = '[loans.loan_code]'", "interrogative");
    g_autoptr (GPtrArray) managers = all_variants ("SELECT e.name FROM project p JOIN employee e ON p.manager = "
                                                   "e.employee_id WHERE p.name = '[project.name]'", "interrogative");

    assert_has_text (by_code, "What is the title of the book of the loan whose code is '[loans.loan_code]'?");
    for (guint i = 0; i < by_code->len; i++)
      g_assert_null (strstr (grammar_text_template_get_text (g_ptr_array_index (by_code, i)), "ISBN"));
    assert_has_text (managers, "What is the name of the manager of the project named '[project.name]'?");
  }
}

/* Without a schema, an unqualified column of a join is taken for the
 * first table's; with it, for the table that has it. */
static void
test_rules_schema (void)
{
  const char *sql = "SELECT Industry FROM people p JOIN employment e ON e.People_ID = p.People_ID "
                    "JOIN company c ON c.Company_ID = e.Company_ID WHERE p.Name = '[people.Name]'";
  g_autoptr (GrammarSchema) schema = fixture_schema ();
  g_autoptr (GrammarRuleVerbalizer) with_schema = grammar_rule_verbalizer_new (schema);
  g_autoptr (GPtrArray) texts = verbalize (with_schema, sql, "directive", 100000);

  g_assert_true (grammar_rule_verbalizer_get_schema (with_schema) == schema);
  assert_has_text (texts, "Tell me the industry of the company of the person named '[people.Name]'.");
}

static GBytes *
texts_as_bytes (GPtrArray *texts)
{
  GString *all = g_string_new (NULL);

  for (guint i = 0; i < texts->len; i++)
    g_string_append_printf (all, "%s\n", grammar_text_template_get_text (g_ptr_array_index (texts, i)));
  return g_string_free_to_bytes (all);
}

static void
test_rules_deterministic (void)
{
  const char * const *styles = grammar_text_style_list ();
  guint n_differ = 0;

  for (guint s = 0; styles[s] != NULL; s++)
    for (guint t = 0; all_sql[t] != NULL; t++)
      {
        g_autoptr (GrammarRuleVerbalizer) first = grammar_rule_verbalizer_new (NULL);
        g_autoptr (GrammarRuleVerbalizer) again = g_object_new (GRAMMAR_TYPE_RULE_VERBALIZER, "seed", (guint64) 7, NULL);
        g_autoptr (GPtrArray) a = NULL;
        g_autoptr (GPtrArray) b = NULL;
        g_autoptr (GPtrArray) c = NULL;
        g_autoptr (GBytes) a_bytes = NULL;
        g_autoptr (GBytes) b_bytes = NULL;
        g_autoptr (GBytes) c_bytes = NULL;

        grammar_rule_verbalizer_set_seed (first, 7);
        g_assert_cmpuint (grammar_rule_verbalizer_get_seed (first), ==, 7);
        a = verbalize (first, all_sql[t], styles[s], 3);
        b = verbalize (again, all_sql[t], styles[s], 3);
        a_bytes = texts_as_bytes (a);
        b_bytes = texts_as_bytes (b);
        g_assert_true (g_bytes_equal (a_bytes, b_bytes));

        grammar_rule_verbalizer_set_seed (first, 8);
        c = verbalize (first, all_sql[t], styles[s], 3);
        c_bytes = texts_as_bytes (c);
        n_differ += g_bytes_equal (a_bytes, c_bytes) ? 0 : 1;
      }
  /* Another seed changes the choice or the order almost everywhere. */
  g_assert_cmpuint (n_differ, >=, 50);
}

static void
test_rules_fewer_than_asked (void)
{
  g_autoptr (GrammarRuleVerbalizer) verbalizer = grammar_rule_verbalizer_new (NULL);
  g_autoptr (GPtrArray) texts = verbalize (verbalizer, industry_sql, "short", 1000);
  g_autoptr (GPtrArray) none = verbalize (verbalizer, industry_sql, "short", 0);

  g_assert_cmpuint (texts->len, >, 3);
  g_assert_cmpuint (texts->len, <, 1000);
  assert_distinct (texts);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_rules_unknown_style (void)
{
  g_autoptr (GrammarRuleVerbalizer) verbalizer = grammar_rule_verbalizer_new (NULL);
  g_autoptr (GrammarSqlTemplate) sql_template = new_template (industry_sql);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) texts = grammar_rule_verbalizer_verbalize (verbalizer, sql_template, "poetic", 3, &error);

  g_assert_null (texts);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "short, long, interrogative, directive, formal, casual");
}

/* Templates the reader does not follow still get texts, placeholders intact. */
static void
test_rules_unusual_sql (void)
{
  const char * const odd[] = {
    "SELECT Name || ' (' || Headquarters || ')' AS label FROM company WHERE Industry = '[company.Industry]'",
    "SELECT max(Year_working) FROM employment WHERE People_ID IN (SELECT People_ID FROM people WHERE Name = '[people.Name]')",
    "SELECT * FROM company WHERE Name = '[company.Name]' -- all of it",
    "WITH x AS (SELECT Name, Industry FROM company) SELECT Industry FROM x WHERE Name = '[company.Name]'",
    "SELECT lower(Name) FROM people WHERE Name LIKE '[people.Name]' OR [people.Name] = Name",
    NULL
  };
  g_autoptr (GrammarRuleVerbalizer) verbalizer = grammar_rule_verbalizer_new (NULL);
  const char * const *styles = grammar_text_style_list ();

  for (guint t = 0; odd[t] != NULL; t++)
    for (guint s = 0; styles[s] != NULL; s++)
      {
        g_autoptr (GrammarSqlTemplate) sql_template = new_template (odd[t]);
        g_autoptr (GPtrArray) texts = grammar_rule_verbalizer_verbalize (verbalizer, sql_template, styles[s], 3, NULL);

        g_assert_cmpuint (texts->len, ==, 3);
        assert_valid (texts, sql_template, styles[s]);
      }
  {
    g_autoptr (GPtrArray) highest = all_variants (odd[1], "interrogative");

    assert_has_text (highest, "What is the highest number of years working of the employment of the person named '[people.Name]'?");
  }
}

/* A language model test double: canned replies from a queue, completed
 * from an idle callback on the caller's thread-default main context. A
 * reply "!error" fails. It records every request. */

#define TEST_TYPE_CANNED_LLM (test_canned_llm_get_type ())
G_DECLARE_FINAL_TYPE (TestCannedLlm, test_canned_llm, TEST, CANNED_LLM, GObject)

struct _TestCannedLlm
{
  GObject parent_instance;

  GQueue replies;        /* char * */
  GPtrArray *requests;   /* GrammarChatRequest */
};

static void test_canned_llm_iface_init (GrammarLlmInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestCannedLlm, test_canned_llm, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_LLM, test_canned_llm_iface_init))

enum { CANNED_PROP_0, CANNED_PROP_REPLIES };

static gboolean
test_canned_llm_complete (gpointer user_data)
{
  GTask *task = user_data;
  const char *reply = g_task_get_task_data (task);
  const char *choices[] = { reply, NULL };

  if (g_task_return_error_if_cancelled (task))
    return G_SOURCE_REMOVE;
  if (g_str_equal (reply, "!error"))
    g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the canned model is unreachable");
  else
    g_task_return_pointer (task, grammar_chat_response_new (choices, "canned", 10, 10), g_object_unref);
  return G_SOURCE_REMOVE;
}

static void
test_canned_llm_chat_async (GrammarLlm          *llm,
                            GrammarChatRequest  *request,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  TestCannedLlm *self = TEST_CANNED_LLM (llm);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GSource) source = g_idle_source_new ();
  char *reply = g_queue_pop_head (&self->replies);

  g_ptr_array_add (self->requests, g_object_ref (request));
  g_task_set_task_data (task, reply != NULL ? reply : g_strdup (""), g_free);
  g_source_set_callback (source, test_canned_llm_complete, task, g_object_unref);
  g_source_attach (source, g_main_context_get_thread_default ());
}

static GrammarChatResponse *
test_canned_llm_chat_finish (GrammarLlm    *llm,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_assert_true (g_task_is_valid (result, llm));
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_canned_llm_iface_init (GrammarLlmInterface *iface)
{
  iface->chat_async = test_canned_llm_chat_async;
  iface->chat_finish = test_canned_llm_chat_finish;
}

static void
test_canned_llm_add (TestCannedLlm *self,
                     const char    *reply)
{
  g_queue_push_tail (&self->replies, g_strdup (reply));
}

static void
test_canned_llm_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TestCannedLlm *self = TEST_CANNED_LLM (object);
  const char * const *replies = g_value_get_boxed (value);

  g_assert_cmpuint (prop_id, ==, CANNED_PROP_REPLIES);
  for (guint i = 0; replies != NULL && replies[i] != NULL; i++)
    test_canned_llm_add (self, replies[i]);
}

static void
test_canned_llm_finalize (GObject *object)
{
  TestCannedLlm *self = TEST_CANNED_LLM (object);

  g_queue_clear_full (&self->replies, g_free);
  g_ptr_array_unref (self->requests);
  G_OBJECT_CLASS (test_canned_llm_parent_class)->finalize (object);
}

static void
test_canned_llm_class_init (TestCannedLlmClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = test_canned_llm_set_property;
  object_class->finalize = test_canned_llm_finalize;
  g_object_class_install_property (object_class, CANNED_PROP_REPLIES,
    g_param_spec_boxed ("replies", NULL, NULL, G_TYPE_STRV, G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));
}

static void
test_canned_llm_init (TestCannedLlm *self)
{
  g_queue_init (&self->replies);
  self->requests = g_ptr_array_new_with_free_func (g_object_unref);
}

static const char *
request_message (TestCannedLlm *llm,
                 guint          index,
                 const char    *role)
{
  GrammarChatRequest *request = g_ptr_array_index (llm->requests, index);

  for (guint i = 0; i < grammar_chat_request_get_n_messages (request); i++)
    if (g_str_equal (grammar_chat_request_get_message_role (request, i), role))
      return grammar_chat_request_get_message_content (request, i);
  g_assert_not_reached ();
}

static GPtrArray *
llm_verbalize (TestCannedLlm *llm,
               const char    *sql,
               const char    *style,
               guint          n,
               guint          retries,
               GStrv         *dropped)
{
  g_autoptr (GrammarLlmVerbalizer) verbalizer = grammar_llm_verbalizer_new (GRAMMAR_LLM (llm));
  g_autoptr (GrammarSqlTemplate) sql_template = new_template (sql);
  g_autoptr (GError) error = NULL;
  GPtrArray *texts;

  grammar_llm_verbalizer_set_retries (verbalizer, retries);
  texts = grammar_llm_verbalizer_verbalize (verbalizer, sql_template, style, n, dropped, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (texts);
  assert_valid (texts, sql_template, style);
  assert_distinct (texts);
  return texts;
}

static void
test_llm_split_reply (void)
{
  const char *reply =
    "Here are three templates:\n"
    "```text\n"
    "1. What is the industry of '[company.Name]'?\n"
    "  2) \"Which industry is '[company.Name]' in?\"  \n"
    "\n"
    "- “Could you tell me the industry of '[company.Name]'?”\n"
    "* (4) 'Tell me the industry of [company.Name].'\n"
    "'[company.Name]' industry\n"
    "#5 Industry of '[company.Name]'\r\n"
    "```\n"
    "##RESPONSE_END##\n";
  const char * const expected[] = {
    "Here are three templates:",
    "What is the industry of '[company.Name]'?",
    "Which industry is '[company.Name]' in?",
    "Could you tell me the industry of '[company.Name]'?",
    "Tell me the industry of [company.Name].",
    "'[company.Name]' industry",
    "Industry of '[company.Name]'",
    NULL
  };
  g_auto (GStrv) lines = grammar_llm_verbalizer_split_reply (reply);
  g_auto (GStrv) none = grammar_llm_verbalizer_split_reply ("\n  \n```\n```\n");

  g_assert_cmpstrv (lines, expected);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
}

static void
test_llm_request (void)
{
  g_autoptr (TestCannedLlm) llm = g_object_new (TEST_TYPE_CANNED_LLM, NULL);
  g_autoptr (GrammarLlmVerbalizer) verbalizer = grammar_llm_verbalizer_new (GRAMMAR_LLM (llm));
  g_autoptr (GrammarSqlTemplate) sql_template = new_template (join_sql);
  g_autoptr (GrammarChatRequest) request = NULL;
  g_autoptr (GError) error = NULL;
  const char * const accepted[] = { "Years of '[people.Name]' at '[company.Name]'", NULL };
  gint64 seed = 0;

  g_assert_cmpuint (grammar_llm_verbalizer_get_retries (verbalizer), ==, 3);
  g_assert_cmpint (grammar_llm_verbalizer_get_seed (verbalizer), ==, -1);
  g_assert_true (grammar_llm_verbalizer_get_llm (verbalizer) == GRAMMAR_LLM (llm));
  grammar_llm_verbalizer_set_temperature (verbalizer, 0.9);
  grammar_llm_verbalizer_set_seed (verbalizer, 42);

  request = grammar_llm_verbalizer_build_request (verbalizer, sql_template, "long", 4, accepted, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_chat_request_get_n_messages (request), ==, 2);
  g_assert_cmpstr (grammar_chat_request_get_message_role (request, 0), ==, "system");
  grammar_test_assert_contains (grammar_chat_request_get_message_content (request, 0), "Text Template Generator");
  grammar_test_assert_contains (grammar_chat_request_get_message_content (request, 0), "##CRITERIA##");
  grammar_test_assert_contains (grammar_chat_request_get_message_content (request, 0), grammar_text_style_get_criteria ("long"));
  grammar_test_assert_contains (grammar_chat_request_get_message_content (request, 0), "single line");
  grammar_test_assert_contains (grammar_chat_request_get_message_content (request, 1), grammar_sql_template_get_sql (sql_template));
  grammar_test_assert_contains (grammar_chat_request_get_message_content (request, 1), "##PLACEHOLDERS##\n[company.Name]\n[people.Name]\n");
  grammar_test_assert_contains (grammar_chat_request_get_message_content (request, 1), "##NUMBER OF TEXT TEMPLATES##\n4\n");
  grammar_test_assert_contains (grammar_chat_request_get_message_content (request, 1), accepted[0]);
  g_assert_cmpfloat (grammar_chat_request_get_temperature (request), ==, 0.9);
  g_assert_true (grammar_chat_request_get_seed (request, &seed));
  g_assert_cmpint (seed, ==, 42);

  g_clear_object (&request);
  request = grammar_llm_verbalizer_build_request (verbalizer, sql_template, "sarcastic", 4, NULL, &error);
  g_assert_null (request);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
}

/* Lines that lose or add a placeholder are dropped; a retry fills up. */
static void
test_llm_drop_and_retry (void)
{
  g_autoptr (TestCannedLlm) llm = g_object_new (TEST_TYPE_CANNED_LLM, NULL);
  g_autoptr (GPtrArray) texts = NULL;
  g_auto (GStrv) dropped = NULL;

  test_canned_llm_add (llm,
    "1. What is the industry of the company named '[company.Name]'?\n"
    "\n"
    "2. What is the industry of the company?\n"
    "3. What is the industry of '[company.Name]' where [people.Name] works?\n"
    "4. what is the industry of the company named   '[company.Name]'?\n");
  test_canned_llm_add (llm,
    "```\n"
    "- \"Which industry is '[company.Name]' in?\"\n"
    "- Could you tell me the industry of '[company.Name]'?\n"
    "- And one more than asked: what does '[company.Name]' do?\n"
    "```\n");
  test_canned_llm_add (llm, "never asked for");

  texts = llm_verbalize (llm, industry_sql, "interrogative", 3, 3, &dropped);
  g_assert_cmpuint (texts->len, ==, 3);
  g_assert_true (has_text (texts, "What is the industry of the company named '[company.Name]'?"));
  g_assert_true (has_text (texts, "Which industry is '[company.Name]' in?"));
  g_assert_true (has_text (texts, "Could you tell me the industry of '[company.Name]'?"));
  g_assert_cmpuint (llm->requests->len, ==, 2);

  /* The retry asks for the two missing and lists what was kept; the
   * reply's surplus third line is ignored, not reported. */
  grammar_test_assert_contains (request_message (llm, 0, "user"), "##NUMBER OF TEXT TEMPLATES##\n3\n");
  grammar_test_assert_contains (request_message (llm, 1, "user"), "##NUMBER OF TEXT TEMPLATES##\n2\n");
  grammar_test_assert_contains (request_message (llm, 1, "user"), "##ALREADY ACCEPTED (do not repeat them)##\n"
                                "What is the industry of the company named '[company.Name]'?\n");
  grammar_test_assert_contains (request_message (llm, 0, "system"), "question mark");

  g_assert_cmpuint (g_strv_length (dropped), ==, 3);
  /* Lines are numbered as in the reply, blank ones included. */
  grammar_test_assert_contains (dropped[0], "reply 1, line 3:");
  grammar_test_assert_contains (dropped[0], "lacks the placeholder [company.Name]");
  grammar_test_assert_contains (dropped[1], "reply 1, line 4:");
  grammar_test_assert_contains (dropped[1], "[people.Name]");
  grammar_test_assert_contains (dropped[2], "reply 1, line 5:");
  grammar_test_assert_contains (dropped[2], "repeats a text already kept");
}

/* A model that never gives enough: the texts it gave, after the retries. */
static void
test_llm_never_enough (void)
{
  g_autoptr (TestCannedLlm) llm = g_object_new (TEST_TYPE_CANNED_LLM, NULL);
  g_autoptr (GPtrArray) texts = NULL;
  g_auto (GStrv) dropped = NULL;

  for (guint i = 0; i < 5; i++)
    test_canned_llm_add (llm,
      "Year_working of [people.Name] at [company.Name]\n"
      "Years of '[people.Name]' at '[company.Name]'\n"
      "years worked by '[people.Name]'\n");

  texts = llm_verbalize (llm, join_sql, "short", 3, 2, &dropped);
  g_assert_cmpuint (texts->len, ==, 2);
  g_assert_cmpuint (llm->requests->len, ==, 3);
  g_assert_cmpuint (g_queue_get_length (&llm->replies), ==, 2);
  /* Reply 1: one without [company.Name]; replies 2 and 3: two repeats and that one. */
  g_assert_cmpuint (g_strv_length (dropped), ==, 7);
  grammar_test_assert_contains (dropped[6], "reply 3, line 3:");
}

static void
test_llm_empty_replies (void)
{
  g_autoptr (TestCannedLlm) llm = g_object_new (TEST_TYPE_CANNED_LLM, NULL);
  g_autoptr (GPtrArray) texts = NULL;
  g_auto (GStrv) dropped = NULL;

  test_canned_llm_add (llm, "");
  test_canned_llm_add (llm, "```\n```");
  texts = llm_verbalize (llm, industry_sql, "formal", 3, 3, &dropped);
  g_assert_cmpuint (texts->len, ==, 0);
  g_assert_cmpuint (llm->requests->len, ==, 4);
  g_assert_cmpuint (g_strv_length (dropped), ==, 4);
  grammar_test_assert_contains (dropped[0], "reply 1: no text template in the reply");
  grammar_test_assert_contains (dropped[3], "reply 4: no text template in the reply");
}

/* What can be measured of a style is checked too. */
static void
test_llm_style_checks (void)
{
  g_autoptr (TestCannedLlm) llm = g_object_new (TEST_TYPE_CANNED_LLM, NULL);
  g_autoptr (GPtrArray) long_texts = NULL;
  g_autoptr (GPtrArray) directives = NULL;
  g_auto (GStrv) long_dropped = NULL;
  g_auto (GStrv) directive_dropped = NULL;
  const char *long_text =
    "Because I am preparing a short briefing about the firms we work with, and I want every detail in it "
    "to be right, could you tell me which industry the company named '[company.Name]' belongs to?";

  test_canned_llm_add (llm, "Industry of '[company.Name]'?");
  test_canned_llm_add (llm, long_text);
  long_texts = llm_verbalize (llm, industry_sql, "long", 1, 3, &long_dropped);
  g_assert_cmpuint (long_texts->len, ==, 1);
  g_assert_true (has_text (long_texts, long_text));
  grammar_test_assert_contains (long_dropped[0], "has 3 words; the long style needs at least 30");

  test_canned_llm_add (llm, "What is the industry of '[company.Name]'?\nFind the industry of '[company.Name]'.");
  directives = llm_verbalize (llm, industry_sql, "directive", 1, 0, &directive_dropped);
  g_assert_cmpuint (directives->len, ==, 1);
  grammar_test_assert_contains (directive_dropped[0], "is a question");
}

static void
test_llm_error (void)
{
  g_autoptr (TestCannedLlm) llm = g_object_new (TEST_TYPE_CANNED_LLM, NULL);
  g_autoptr (GrammarLlmVerbalizer) verbalizer = grammar_llm_verbalizer_new (GRAMMAR_LLM (llm));
  g_autoptr (GrammarSqlTemplate) sql_template = new_template (industry_sql);
  g_autoptr (GPtrArray) texts = NULL;
  g_autoptr (GPtrArray) unknown = NULL;
  g_autoptr (GError) error = NULL;

  test_canned_llm_add (llm, "Industry of '[company.Name]'");
  test_canned_llm_add (llm, "!error");
  texts = grammar_llm_verbalizer_verbalize (verbalizer, sql_template, "short", 3, NULL, NULL, &error);
  g_assert_null (texts);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
  g_clear_error (&error);

  unknown = grammar_llm_verbalizer_verbalize (verbalizer, sql_template, "poetic", 3, NULL, NULL, &error);
  g_assert_null (unknown);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_cmpuint (llm->requests->len, ==, 2);
}

static void
async_ready (GObject      *source_object,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The asynchronous form runs on the caller's main context; a keyfile
 * section builds the double, as users configure a model. */
static void
test_llm_async_from_config (void)
{
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GObject) llm = NULL;
  g_autoptr (GrammarLlmVerbalizer) verbalizer = NULL;
  g_autoptr (GrammarSqlTemplate) sql_template = new_template (follow_sql);
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GPtrArray) texts = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) dropped = NULL;

  config = grammar_config_new_from_data ("[llm]\nplugin=canned\n"
                                         "replies=Client of '[project.name]'\\nClient of [project.name]\n",
                                         -1, tmpdir, &error);
  g_assert_no_error (error);
  llm = grammar_config_build (config, "llm", GRAMMAR_TYPE_LLM, &error);
  g_assert_no_error (error);
  verbalizer = g_object_new (GRAMMAR_TYPE_LLM_VERBALIZER, "llm", llm, "retries", 0, NULL);

  grammar_llm_verbalizer_verbalize_async (verbalizer, sql_template, "short", 2, NULL, async_ready, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  texts = grammar_llm_verbalizer_verbalize_finish (verbalizer, result, &dropped, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (texts->len, ==, 2);
  g_assert_cmpuint (g_strv_length (dropped), ==, 0);
  g_assert_cmpuint (TEST_CANNED_LLM (llm)->requests->len, ==, 1);
}

/* The command */

static char *
read_file (const char *name)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static gboolean
file_exists (const char *name)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static GrammarTemplateSet *
load_output (const char *name)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarSchema) schema = fixture_schema ();
  g_auto (GStrv) problems = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (grammar_template_set_load (set, path, NULL, schema, &problems, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  return g_steal_pointer (&set);
}

static guint
count_style (GrammarTemplateSet *set,
             const char         *style)
{
  GPtrArray *texts = grammar_template_set_get_text_templates (set);
  guint n = 0;

  for (guint i = 0; i < texts->len; i++)
    n += g_str_equal (grammar_text_template_get_style (g_ptr_array_index (texts, i)), style) ? 1 : 0;
  return n;
}

static void
write_sql_templates (void)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; i < 5; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "sql");
      json_builder_add_string_value (builder, all_sql[i]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  path = grammar_test_write_file (tmpdir, "sql-templates.json", text);
}

static void
test_cli_help (void)
{
  g_auto (GrammarTestRun) run = { 0 };

  grammar_test_run (&run, tmpdir, "text-templates", "--help", NULL);
  g_assert_cmpint (run.status, ==, 0);
  grammar_test_assert_contains (run.out, "grammar text-templates");
  grammar_test_assert_contains (run.out, "--style");
  grammar_test_assert_contains (run.out, "--per-template");
  grammar_test_assert_contains (run.out, "--generator");
  grammar_test_assert_contains (run.out, "--retries");
  for (const char * const *style = grammar_text_style_list (); *style != NULL; style++)
    grammar_test_assert_contains (run.out, *style);
  grammar_test_assert_contains (run.out, "comma list");
}

static void
test_cli_rules (void)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_autoptr (GrammarTemplateSet) set = NULL;

  grammar_test_run (&run, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "sql-templates.json",
                    "-o", "cli-short.json", "--style", "short", "--style", "long,interrogative", NULL);
  g_assert_cmpint (run.status, ==, 0);
  grammar_test_assert_contains (run.err, "45 text templates (short, long, interrogative; rules, seed 0) for 5 SQL templates written to cli-short.json");
  g_assert_cmpstr (run.out, ==, "");

  set = load_output ("cli-short.json");
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 5);
  g_assert_cmpuint (count_style (set, "short"), ==, 15);
  g_assert_cmpuint (count_style (set, "long"), ==, 15);
  g_assert_cmpuint (count_style (set, "interrogative"), ==, 15);
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr (GrammarSqlTemplate) sql_template = new_template (all_sql[i]);
      const char *id = grammar_sql_template_get_id (sql_template);
      g_autoptr (GPtrArray) texts = grammar_template_set_get_text_templates_for (set, id, "long");

      g_assert_cmpuint (texts->len, ==, 3);
      assert_valid (texts, sql_template, "long");
    }
}

static void
test_cli_deterministic (void)
{
  g_auto (GrammarTestRun) first = { 0 }, again = { 0 }, other = { 0 };
  g_autofree char *first_text = NULL;
  g_autofree char *again_text = NULL;
  g_autofree char *other_text = NULL;

  grammar_test_run (&first, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "sql-templates.json",
                    "-o", "seed-a.json", "--style", "all", "-n", "2", "--seed", "11", "-q", NULL);
  grammar_test_run (&again, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "sql-templates.json",
                    "-o", "seed-b.json", "--style", "all", "-n", "2", "--seed", "11", "-q", NULL);
  grammar_test_run (&other, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "sql-templates.json",
                    "-o", "seed-c.json", "--style", "all", "-n", "2", "--seed", "12", "-q", NULL);
  g_assert_cmpint (first.status, ==, 0);
  g_assert_cmpint (again.status, ==, 0);
  g_assert_cmpint (other.status, ==, 0);
  g_assert_cmpstr (first.err, ==, "");

  first_text = read_file ("seed-a.json");
  again_text = read_file ("seed-b.json");
  other_text = read_file ("seed-c.json");
  g_assert_cmpstr (first_text, ==, again_text);
  g_assert_cmpstr (first_text, !=, other_text);
}

/* Runs per style into one file add up; running a style again replaces it. */
static void
test_cli_accumulate (void)
{
  g_auto (GrammarTestRun) first = { 0 }, second = { 0 }, third = { 0 };
  g_autoptr (GrammarTemplateSet) set = NULL;

  grammar_test_run (&first, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "acc.json",
                    "--style", "short", "-q", NULL);
  grammar_test_run (&second, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "acc.json", "-o", "acc.json",
                    "--style", "formal", "-n", "2", "-q", NULL);
  grammar_test_run (&third, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "acc.json", "-o", "acc.json",
                    "--style", "formal,formal", "-n", "4", "--seed", "3", "-q", NULL);
  g_assert_cmpint (first.status, ==, 0);
  g_assert_cmpint (second.status, ==, 0);
  g_assert_cmpint (third.status, ==, 0);

  set = load_output ("acc.json");
  g_assert_cmpuint (count_style (set, "short"), ==, 15);
  g_assert_cmpuint (count_style (set, "formal"), ==, 20);
}

static void
test_cli_fewer_than_asked (void)
{
  g_auto (GrammarTestRun) run = { 0 };

  grammar_test_run (&run, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "many.json",
                    "--style", "short", "--per-template", "400", "-q", NULL);
  g_assert_cmpint (run.status, ==, 0);
  grammar_test_assert_contains (run.err, "SQL templates with fewer than 400 text templates per style (5):");
  grammar_test_assert_contains (run.err, "(short): ");
  grammar_test_assert_contains (run.err, " of 400 — SELECT Industry FROM company");
  g_assert_true (file_exists ("many.json"));
}

static void
test_cli_bad_usage (void)
{
  const struct { const char *args[12]; const char *message; } cases[] = {
    { { "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "bad.json", "--style", "shouty", NULL },
      "unknown text style “shouty”; the styles are short, long, interrogative, directive, formal, casual" },
    { { "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "bad.json", NULL }, "no style" },
    { { "-c", "fixture.ini", "-o", "bad.json", "--style", "short", NULL }, "no input" },
    { { "-c", "fixture.ini", "-i", "sql-templates.json", "--style", "short", NULL }, "no output file" },
    { { "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "bad.json", "--style", "short", "-n", "0", NULL },
      "--per-template must be at least 1" },
    { { "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "bad.json", "--style", "short", "--retries", "2", NULL },
      "--llm and --retries apply to --generator llm only" },
    { { "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "bad.json", "--style", "short", "-g", "magic", NULL },
      "unknown generator “magic”" },
    { { "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "bad.json", "--style", "short", "extra", NULL },
      "unexpected argument “extra”" },
    { { "-c", "fixture.ini", "-i", "not-json.json", "-o", "bad.json", "--style", "short", NULL }, "not-json.json" },
    { { "-c", "fixture.ini", "-i", "missing.json", "-o", "bad.json", "--style", "short", NULL }, "missing.json" },
    { { "-c", "fixture.ini", "-i", "all-invalid.json", "-o", "bad.json", "--style", "short", NULL },
      "no valid SQL template" },
    { { "-c", "fixture.ini", "-i", "sql-templates.json", "-o", "bad.json", "--style", "short", "-g", "llm", NULL },
      "llm" },
    { { "-i", "sql-templates.json", "-o", "bad.json", "--style", "short", NULL }, "no configuration given" },
  };
  g_autofree char *not_json = grammar_test_write_file (tmpdir, "not-json.json", "[{\"sql\": ");
  g_autofree char *all_invalid = grammar_test_write_file (tmpdir, "all-invalid.json",
                                                          "[{\"sql\": \"SELECT Nmae FROM company WHERE Name = '[company.Nmae]'\"}]");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) args = g_ptr_array_new ();
      g_auto (GrammarTestRun) run = { 0 };

      g_ptr_array_add (args, (gpointer) "text-templates");
      for (guint j = 0; cases[i].args[j] != NULL; j++)
        g_ptr_array_add (args, (gpointer) cases[i].args[j]);
      g_ptr_array_add (args, NULL);
      grammar_test_runv (&run, tmpdir, (const char * const *) args->pdata);
      if (run.status != 2)
        g_error ("case %u: exit %d, stderr:\n%s", i, run.status, run.err);
      grammar_test_assert_contains (run.err, cases[i].message);
      g_assert_false (file_exists ("bad.json"));
    }
}

/* Invalid templates in the input are listed and nothing is written: a
 * finished output stays byte for byte, none is made when there was none. */
static void
test_cli_invalid_templates (void)
{
  g_autofree char *input = grammar_test_write_file (tmpdir, "some-invalid.json",
    "[{\"sql\": \"SELECT Industry FROM company WHERE Name = '[company.Name]'\"},"
    " {\"sql\": \"SELECT Industry FROM company WHERE Name = '[company.Nmae]'\"},"
    " {\"sql\": \"DELETE FROM company WHERE Name = '[company.Name]'\"}]");
  g_autofree char *valid = grammar_test_write_file (tmpdir, "one-valid.json",
    "[{\"sql\": \"SELECT Industry FROM company WHERE Name = '[company.Name]'\"}]");
  g_autofree char *output = g_build_filename (tmpdir, "some.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (GrammarTemplateSet) set = NULL;

  g_assert_false (file_exists ("some.json"));
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "some-invalid.json",
                      "-o", "some.json", "--style", "casual", NULL);
    g_assert_cmpint (run.status, ==, 2);
    grammar_test_assert_contains (run.err, "invalid templates (2):");
    grammar_test_assert_contains (run.err, "Nmae");
    grammar_test_assert_contains (run.err, "2 templates of some-invalid.json are invalid (listed above); "
                                  "nothing written, some.json not created");
    g_assert_null (strstr (run.err, "written to"));
    g_assert_false (file_exists ("some.json"));
  }

  /* the valid template alone: written */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "one-valid.json",
                      "-o", "some.json", "--style", "casual", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "3 text templates (casual; rules, seed 0) for 1 SQL template "
                                  "written to some.json");
    set = load_output ("some.json");
    g_assert_cmpuint (count_style (set, "casual"), ==, 3);
  }

  /* the invalid input again, over that finished file */
  g_assert_true (g_file_get_contents (output, &before, NULL, NULL));
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "text-templates", "-c", "fixture.ini", "-i", "some-invalid.json",
                      "-o", "some.json", "--style", "short", NULL);
    g_assert_cmpint (run.status, ==, 2);
    grammar_test_assert_contains (run.err, "nothing written, some.json left as it was");
  }
  g_assert_true (g_file_get_contents (output, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
}

/* Fixtures */

static void
make_fixtures (void)
{
  g_autofree char *script = NULL;
  g_autofree char *ini = NULL;

  tmpdir = grammar_test_make_tmp_dir ("grammar-verbalizers-XXXXXX");
  script = grammar_test_write_file (tmpdir, "fixture.sql", fixture_sql);
  ini = grammar_test_write_file (tmpdir, "fixture.ini", "[database]\nplugin=sqlite\nscript=fixture.sql\n");
  write_sql_templates ();
}

static void
remove_fixtures (void)
{
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  grammar_registry_implement (GRAMMAR_TYPE_LLM, TEST_TYPE_CANNED_LLM, "canned",
                              "Test language model with canned replies");
  make_fixtures ();

  g_test_add_func ("/verbalizers/styles", test_styles);
  g_test_add_func ("/verbalizers/humanize", test_humanize);
  g_test_add_func ("/verbalizers/rules/every-style", test_rules_every_style);
  g_test_add_func ("/verbalizers/rules/simple-phrasing", test_rules_simple_phrasing);
  g_test_add_func ("/verbalizers/rules/humanized-names", test_rules_humanized_names);
  g_test_add_func ("/verbalizers/rules/join", test_rules_join);
  g_test_add_func ("/verbalizers/rules/follow", test_rules_follow);
  g_test_add_func ("/verbalizers/rules/comparisons-and-aggregates", test_rules_comparisons_and_aggregates);
  g_test_add_func ("/verbalizers/rules/roles", test_rules_roles);
  g_test_add_func ("/verbalizers/rules/noun-phrases", test_rules_noun_phrases);
  g_test_add_func ("/verbalizers/rules/orm-names", test_rules_orm_names);
  g_test_add_func ("/verbalizers/rules/code-keys", test_rules_code_keys);
  g_test_add_func ("/verbalizers/rules/schema", test_rules_schema);
  g_test_add_func ("/verbalizers/rules/deterministic", test_rules_deterministic);
  g_test_add_func ("/verbalizers/rules/fewer-than-asked", test_rules_fewer_than_asked);
  g_test_add_func ("/verbalizers/rules/unknown-style", test_rules_unknown_style);
  g_test_add_func ("/verbalizers/rules/unusual-sql", test_rules_unusual_sql);
  g_test_add_func ("/verbalizers/llm/split-reply", test_llm_split_reply);
  g_test_add_func ("/verbalizers/llm/request", test_llm_request);
  g_test_add_func ("/verbalizers/llm/drop-and-retry", test_llm_drop_and_retry);
  g_test_add_func ("/verbalizers/llm/never-enough", test_llm_never_enough);
  g_test_add_func ("/verbalizers/llm/empty-replies", test_llm_empty_replies);
  g_test_add_func ("/verbalizers/llm/style-checks", test_llm_style_checks);
  g_test_add_func ("/verbalizers/llm/error", test_llm_error);
  g_test_add_func ("/verbalizers/llm/async-from-config", test_llm_async_from_config);
  g_test_add_func ("/verbalizers/cli/help", test_cli_help);
  g_test_add_func ("/verbalizers/cli/rules", test_cli_rules);
  g_test_add_func ("/verbalizers/cli/deterministic", test_cli_deterministic);
  g_test_add_func ("/verbalizers/cli/accumulate", test_cli_accumulate);
  g_test_add_func ("/verbalizers/cli/fewer-than-asked", test_cli_fewer_than_asked);
  g_test_add_func ("/verbalizers/cli/bad-usage", test_cli_bad_usage);
  g_test_add_func ("/verbalizers/cli/invalid-templates", test_cli_invalid_templates);

  status = g_test_run ();
  remove_fixtures ();
  return status;
}
