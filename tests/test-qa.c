/* test-qa.c: grounded query-answer generation (GrammarQaGenerator, `grammar qa`)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <signal.h>

#include <glib/gstdio.h>
#include <grammar.h>
#include <sqlite3.h>

#include "grammar-test-util.h"

/* Made in a temporary folder by main(), removed at the end. */
static char *tmp_dir;
static char *config_path;

static const char fixture_sql[] =
  "CREATE TABLE company (\n"
  "  company_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE,\n"
  "  industry TEXT,\n"
  "  founded INTEGER\n"
  ");\n"
  "CREATE TABLE people (\n"
  "  people_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL,\n"
  "  age INTEGER,\n"
  "  nickname TEXT\n"
  ");\n"
  "CREATE TABLE employment (\n"
  "  company_id INTEGER NOT NULL REFERENCES company,\n"
  "  people_id INTEGER NOT NULL REFERENCES people,\n"
  "  year_working INTEGER,\n"
  "  PRIMARY KEY (company_id, people_id)\n"
  ");\n"
  "INSERT INTO company VALUES (1, 'Acme', 'Tools', 1950), (2, 'Globex', 'Energy', 1980),\n"
  "  (3, 'Initech', 'Software', NULL), (4, 'Umbrella', NULL, 1970);\n"
  "INSERT INTO people VALUES\n"
  "  (1, 'O''Brien', 30, NULL),\n"
  "  (2, '100% sure', 25, NULL),\n"
  "  (3, 'under_score', 41, NULL),\n"
  "  (4, 'two' || char(10) || 'lines', 30, NULL),\n"
  "  (5, 'Zoë 東京', NULL, NULL);\n"
  "INSERT INTO employment VALUES (1, 1, 3), (1, 5, 1), (2, 2, 7), (3, 3, 2), (4, 4, NULL);\n";

static const char industry_sql[] = "SELECT industry FROM company WHERE name = '[company.name]'";
static const char join_sql[] =
  "SELECT e.year_working FROM employment e JOIN company c ON e.company_id = c.company_id"
  " JOIN people p ON e.people_id = p.people_id WHERE c.name = '[company.name]' AND p.name = '[people.name]'";
static const char older_sql[] = "SELECT name FROM people WHERE age > [people.age] ORDER BY name";
static const char age_sql[] = "SELECT age FROM people WHERE name = '[people.name]'";
static const char founded_sql[] = "SELECT name FROM company WHERE founded = [company.founded]";
static const char nickname_sql[] = "SELECT name FROM people WHERE nickname = '[people.nickname]'";

/* Fixtures */

static GrammarDatabase *
open_database (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = grammar_config_new_from_file (config_path, &error);
  GObject *database;

  g_assert_no_error (error);
  database = grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error);
  g_assert_no_error (error);
  return GRAMMAR_DATABASE (database);
}

/* Adds a validated SQL template and its text templates (style, text,
 * style, text…, NULL) to @set; returns the template id. */
static const char *
add_template (GrammarTemplateSet *set,
              GrammarDatabase    *database,
              const char         *sql,
              ...)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (database, NULL, &error);
  g_autoptr (GrammarSqlTemplate) sql_template = NULL;
  const char *style;
  va_list texts;

  g_assert_no_error (error);
  sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, &error);
  g_assert_no_error (error);
  grammar_sql_template_validate (sql_template, database, schema, &error);
  g_assert_no_error (error);
  g_assert_true (grammar_template_set_add_sql_template (set, sql_template));

  va_start (texts, sql);
  while ((style = va_arg (texts, const char *)) != NULL)
    {
      const char *text = va_arg (texts, const char *);
      g_autoptr (GrammarTextTemplate) text_template =
        grammar_text_template_new (grammar_sql_template_get_id (sql_template), style, text);

      grammar_text_template_check_placeholders (text_template, sql_template, &error);
      g_assert_no_error (error);
      g_assert_true (grammar_template_set_add_text_template (set, text_template));
    }
  va_end (texts);
  return grammar_sql_template_get_id (sql_template);
}

/* Runs the generator into memory; returns the JSON Lines, or NULL with @error. */
static char *
generate (GrammarQaGenerator  *generator,
          GrammarTemplateSet  *set,
          GError             **error)
{
  g_autoptr (GOutputStream) stream = g_memory_output_stream_new_resizable ();

  if (!grammar_qa_generator_generate (generator, set, stream, NULL, error))
    return NULL;
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (stream, NULL, NULL));
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
}

static char *
generate_ok (GrammarQaGenerator *generator,
             GrammarTemplateSet *set)
{
  g_autoptr (GError) error = NULL;
  char *text = generate (generator, set, &error);

  g_assert_no_error (error);
  g_assert_nonnull (text);
  return text;
}

/* The records of @jsonl, parsed as GrammarRecord reads them. */
static GPtrArray *
parse_records (const char *jsonl)
{
  GPtrArray *records = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto (GStrv) lines = g_strsplit (jsonl, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      GrammarRecord *record;

      if (lines[i][0] == '\0')
        {
          g_assert_null (lines[i + 1]);  /* only the end may be empty */
          continue;
        }
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      record = grammar_record_new_from_json (json_parser_get_root (parser), &error);
      g_assert_no_error (error);
      g_ptr_array_add (records, record);
    }
  return records;
}

static char *
to_json (JsonNode *node)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

static void
assert_record (GrammarRecord *record,
               const char    *style,
               const char    *text,
               const char    *bindings,
               const char    *answer)
{
  g_autofree char *bindings_json = to_json (grammar_record_get_bindings (record));
  g_autofree char *answer_json = to_json (grammar_record_get_answer (record));

  g_assert_cmpstr (grammar_record_get_style (record), ==, style);
  g_assert_cmpstr (grammar_record_get_text (record), ==, text);
  g_assert_cmpstr (bindings_json, ==, bindings);
  g_assert_cmpstr (answer_json, ==, answer);
  g_assert_nonnull (grammar_record_get_doc_ids (record));
  g_assert_null (grammar_record_get_doc_ids (record)[0]);
}

static char *
expected_group (const char *template_id,
                const char *bindings)
{
  g_autofree char *input = g_strconcat (template_id, "\n", bindings, NULL);
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_MD5, input, -1);

  return g_strdup_printf ("g%.12s", digest);
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = strchr (text, '\n'); p != NULL; p = strchr (p + 1, '\n'))
    n++;
  return n;
}

static void
count_progress (GrammarQaGenerator *generator,
                gpointer            user_data)
{
  (*(guint *) user_data)++;
}

/* Library tests */

static void
test_single_placeholder (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GPtrArray) records = NULL;
  g_autofree char *jsonl = NULL;
  g_autofree char *group = NULL;
  const char *id;
  const char *line_end;
  guint n_progress = 0;

  id = add_template (set, database, industry_sql,
                     "short", "Industry of '[company.name]'?",
                     "short", "What does [company.name] do?",
                     "long", "Tell me, please, which industry the company called [company.name] works in.",
                     NULL);
  g_signal_connect (generator, "progress", G_CALLBACK (count_progress), &n_progress);
  jsonl = generate_ok (generator, set);
  records = parse_records (jsonl);

  /* four companies, three text templates each, in key order */
  g_assert_cmpuint (records->len, ==, 12);
  g_assert_cmpuint (grammar_qa_generator_get_n_templates (generator), ==, 1);
  g_assert_cmpuint (grammar_qa_generator_get_n_set_based (generator), ==, 1);
  g_assert_cmpuint (grammar_qa_generator_get_n_groups (generator), ==, 4);
  g_assert_cmpuint (grammar_qa_generator_get_n_records (generator), ==, 12);
  g_assert_cmpuint (grammar_qa_generator_get_n_skipped (generator), ==, 0);
  g_assert_cmpuint (n_progress, >=, 1);

  assert_record (records->pdata[0], "short", "Industry of 'Acme'?", "{\"company.name\":\"Acme\"}", "[[\"Tools\"]]");
  assert_record (records->pdata[1], "short", "What does Acme do?", "{\"company.name\":\"Acme\"}", "[[\"Tools\"]]");
  assert_record (records->pdata[2], "long",
                 "Tell me, please, which industry the company called Acme works in.",
                 "{\"company.name\":\"Acme\"}", "[[\"Tools\"]]");
  assert_record (records->pdata[3], "short", "Industry of 'Globex'?", "{\"company.name\":\"Globex\"}",
                 "[[\"Energy\"]]");
  /* a NULL in the answer is an answer: kept, as the reference keeps [(None,)] */
  assert_record (records->pdata[9], "short", "Industry of 'Umbrella'?", "{\"company.name\":\"Umbrella\"}",
                 "[[null]]");

  group = expected_group (id, "{\"company.name\":\"Acme\"}");
  for (guint i = 0; i < 3; i++)
    {
      GrammarRecord *record = records->pdata[i];

      g_assert_cmpstr (grammar_record_get_group (record), ==, group);
      g_assert_cmpstr (grammar_record_get_template (record), ==, id);
      g_assert_cmpstr (grammar_record_get_sql (record), ==,
                       "SELECT industry FROM company WHERE name = 'Acme'");
    }
  g_assert_true (g_str_has_suffix (grammar_record_get_id (records->pdata[0]), "-short-0"));
  g_assert_true (g_str_has_suffix (grammar_record_get_id (records->pdata[1]), "-short-1"));
  g_assert_true (g_str_has_suffix (grammar_record_get_id (records->pdata[2]), "-long-0"));
  g_assert_true (g_str_has_prefix (grammar_record_get_id (records->pdata[0]), group));

  /* the members in the order DESIGN.md lists them */
  line_end = strchr (jsonl, '\n');
  {
    const char * const members[] = { "\"id\":", "\"group\":", "\"template\":", "\"style\":", "\"text\":",
                                      "\"sql\":", "\"bindings\":", "\"answer\":", "\"doc_ids\":[]}", NULL };
    const char *at = jsonl;

    for (guint i = 0; members[i] != NULL; i++)
      {
        const char *found = strstr (at, members[i]);

        g_assert_nonnull (found);
        g_assert_true (found < line_end);
        at = found;
      }
  }
}

static void
test_join_sparse (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GPtrArray) records = NULL;
  g_autofree char *jsonl = NULL;

  add_template (set, database, join_sql,
                "short", "How long has [people.name] worked at [company.name]?", NULL);
  jsonl = generate_ok (generator, set);
  records = parse_records (jsonl);

  /* 4 companies × 5 people, of which only the 5 employments have an answer */
  g_assert_cmpuint (grammar_qa_generator_get_n_set_based (generator), ==, 1);
  g_assert_cmpuint (records->len, ==, 5);
  g_assert_cmpuint (grammar_qa_generator_get_n_skipped (generator), ==, 15);
  assert_record (records->pdata[0], "short", "How long has O'Brien worked at Acme?",
                 "{\"company.name\":\"Acme\",\"people.name\":\"O'Brien\"}", "[[3]]");
  assert_record (records->pdata[1], "short", "How long has Zoë 東京 worked at Acme?",
                 "{\"company.name\":\"Acme\",\"people.name\":\"Zoë 東京\"}", "[[1]]");
  assert_record (records->pdata[2], "short", "How long has 100% sure worked at Globex?",
                 "{\"company.name\":\"Globex\",\"people.name\":\"100% sure\"}", "[[7]]");
  assert_record (records->pdata[4], "short", "How long has two\nlines worked at Umbrella?",
                 "{\"company.name\":\"Umbrella\",\"people.name\":\"two\\nlines\"}", "[[null]]");
  g_assert_cmpstr (grammar_record_get_sql (records->pdata[0]), ==,
                   "SELECT e.year_working FROM employment e JOIN company c ON e.company_id = c.company_id"
                   " JOIN people p ON e.people_id = p.people_id WHERE c.name = 'Acme' AND p.name = 'O''Brien'");
}

/* The writer's fast path renders texts from a pattern made once per
 * template; a value holding a quote changes the quotes around it, so
 * its group is filled text by text, and the next groups go back to the
 * pattern. The first group here is O'Brien's. */
static void
test_quotes_per_value (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GPtrArray) records = NULL;
  g_autofree char *jsonl = NULL;
  static const char * const expected[] = {
    "How long has \"O'Brien\" worked at 'Acme'?",
    "How long has 'Zoë 東京' worked at 'Acme'?",
    "How long has '100% sure' worked at 'Globex'?",
    "How long has 'under_score' worked at 'Initech'?",
    "How long has 'two\nlines' worked at 'Umbrella'?",
  };

  add_template (set, database, join_sql,
                "short", "How long has '[people.name]' worked at '[company.name]'?", NULL);
  jsonl = generate_ok (generator, set);
  records = parse_records (jsonl);
  g_assert_cmpuint (records->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < records->len; i++)
    g_assert_cmpstr (grammar_record_get_text (records->pdata[i]), ==, expected[i]);
}

static void
test_fallback_non_equality (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *plan = NULL;
  g_autofree char *jsonl = NULL;

  add_template (set, database, older_sql, "short", "Who is older than [people.age]?", NULL);
  plan = grammar_qa_generator_plan_set_based_query (
    grammar_template_set_get_sql_templates (set)->pdata[0], NULL, &error);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED);
  g_assert_null (plan);

  jsonl = generate_ok (generator, set);
  records = parse_records (jsonl);
  /* ages 25, 30, 41 (NULL never filled in); nobody is older than 41 */
  g_assert_cmpuint (grammar_qa_generator_get_n_set_based (generator), ==, 0);
  g_assert_cmpuint (records->len, ==, 2);
  g_assert_cmpuint (grammar_qa_generator_get_n_skipped (generator), ==, 1);
  assert_record (records->pdata[0], "short", "Who is older than 25?", "{\"people.age\":25}",
                 "[[\"O'Brien\"],[\"two\\nlines\"],[\"under_score\"]]");
  assert_record (records->pdata[1], "short", "Who is older than 30?", "{\"people.age\":30}",
                 "[[\"under_score\"]]");
  g_assert_cmpstr (grammar_record_get_sql (records->pdata[0]), ==,
                   "SELECT name FROM people WHERE age > 25 ORDER BY name");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
assert_same_lines (const char *a,
                   const char *b)
{
  g_auto (GStrv) a_lines = g_strsplit (a, "\n", -1);
  g_auto (GStrv) b_lines = g_strsplit (b, "\n", -1);
  guint n = g_strv_length (a_lines);

  g_assert_cmpuint (n, ==, g_strv_length (b_lines));
  qsort (a_lines, n, sizeof (char *), compare_strings);
  qsort (b_lines, n, sizeof (char *), compare_strings);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (a_lines[i], ==, b_lines[i]);
}

/* The same records from both plans, line for line. */
static void
assert_plans_agree (const char *sql,
                    const char *text)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autofree char *set_based = NULL;
  g_autofree char *per_binding = NULL;

  add_template (set, database, sql, "short", text, "long", text, NULL);
  set_based = generate_ok (generator, set);
  if (grammar_qa_generator_get_n_set_based (generator) != 1)
    g_error ("no set-based plan for %s", sql);
  grammar_qa_generator_set_set_based (generator, FALSE);
  per_binding = generate_ok (generator, set);
  g_assert_cmpuint (grammar_qa_generator_get_n_set_based (generator), ==, 0);
  /* unordered set-based queries give the groups in the tables' order */
  assert_same_lines (set_based, per_binding);
  g_assert_cmpuint (count_lines (set_based), >, 0);
}

static void
test_plans_agree (void)
{
  assert_plans_agree (industry_sql, "Industry of [company.name]?");
  assert_plans_agree (join_sql, "[people.name] at [company.name]?");
  assert_plans_agree (age_sql, "How old is '[people.name]'?");
  assert_plans_agree (founded_sql, "Founded in [company.founded]?");
  assert_plans_agree ("SELECT DISTINCT c.industry FROM company c JOIN employment e ON e.company_id = c.company_id"
                      " WHERE c.name = '[company.name]'", "Industry of [company.name]?");
  assert_plans_agree ("SELECT e.year_working FROM employment AS e INNER JOIN company c ON c.company_id = e.company_id"
                      " WHERE c.name = '[company.name]' AND e.people_id = [employment.people_id]",
                      "[employment.people_id] at [company.name]?");
  assert_plans_agree ("SELECT p.name FROM people p JOIN employment e ON e.people_id = p.people_id"
                      " WHERE [employment.company_id] = e.company_id AND p.age BETWEEN 20 AND 40",
                      "Who of company [employment.company_id] is in their twenties or thirties?");
}

/* A template the planner refuses gives the same kind of output. */
static void
test_limit_falls_back (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarTemplateSet) limited_set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GPtrArray) limited_records = NULL;
  g_autofree char *jsonl = NULL;
  g_autofree char *limited_jsonl = NULL;
  g_autofree char *limited_sql = g_strconcat (industry_sql, " LIMIT 5", NULL);

  add_template (set, database, industry_sql, "short", "Industry of [company.name]?", NULL);
  add_template (limited_set, database, limited_sql, "short", "Industry of [company.name]?", NULL);
  jsonl = generate_ok (generator, set);
  limited_jsonl = generate_ok (generator, limited_set);
  g_assert_cmpuint (grammar_qa_generator_get_n_set_based (generator), ==, 0);

  records = parse_records (jsonl);
  limited_records = parse_records (limited_jsonl);
  g_assert_cmpuint (records->len, ==, limited_records->len);
  for (guint i = 0; i < records->len; i++)
    {
      g_autofree char *answer = to_json (grammar_record_get_answer (records->pdata[i]));
      g_autofree char *bindings = to_json (grammar_record_get_bindings (records->pdata[i]));

      assert_record (limited_records->pdata[i], "short", grammar_record_get_text (records->pdata[i]),
                     bindings, answer);
    }
}

static void
assert_refused (const char *sql,
                const char *reason)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *plan = NULL;

  add_template (set, database, sql, NULL);
  plan = grammar_qa_generator_plan_set_based_query (grammar_template_set_get_sql_templates (set)->pdata[0],
                                                    NULL, &error);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED);
  if (strstr (error->message, reason) == NULL)
    g_error ("“%s” not in “%s”", reason, error->message);
  g_assert_null (plan);
}

/* The set-based query of @sql, knowing the schema's keys or not. */
static void
assert_planned (const char *sql,
                const char *expected,
                gboolean    with_schema)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (database, NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *plan = NULL;

  add_template (set, database, sql, NULL);
  plan = grammar_qa_generator_plan_set_based_query (grammar_template_set_get_sql_templates (set)->pdata[0],
                                                    with_schema ? schema : NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (plan, ==, expected);
}

static void
test_planner (void)
{
  /* company.name is UNIQUE: a binding has one row at most, no ordering needed */
  assert_planned (industry_sql, "SELECT name, industry FROM company WHERE name IS NOT NULL", TRUE);
  assert_planned (industry_sql,
                  "SELECT name COLLATE BINARY, industry FROM company WHERE name IS NOT NULL ORDER BY 1", FALSE);
  assert_planned ("SELECT DISTINCT industry FROM company WHERE ('[company.name]' = company.name) AND founded > 1960",
                  "SELECT DISTINCT company.name, industry FROM company WHERE (founded > 1960)"
                  " AND company.name IS NOT NULL", TRUE);
  /* people.name is not unique: ordered */
  assert_planned (join_sql,
                  "SELECT c.name COLLATE BINARY, p.name COLLATE BINARY, e.year_working FROM employment e"
                  " JOIN company c ON e.company_id = c.company_id"
                  " JOIN people p ON e.people_id = p.people_id WHERE c.name IS NOT NULL AND p.name IS NOT NULL"
                  " ORDER BY 1, 2", TRUE);
  /* the company by its name, then employment by its key (company_id, people_id) */
  assert_planned ("SELECT e.year_working FROM employment AS e INNER JOIN company c ON c.company_id = e.company_id"
                  " WHERE c.name = '[company.name]' AND e.people_id = [employment.people_id]",
                  "SELECT c.name, e.people_id, e.year_working FROM employment AS e INNER JOIN company c"
                  " ON c.company_id = e.company_id WHERE c.name IS NOT NULL AND e.people_id IS NOT NULL", TRUE);
  /* the same through a comma join and a literal */
  assert_planned ("SELECT e.year_working FROM employment e, company c"
                  " WHERE c.company_id = e.company_id AND e.people_id = 3 AND c.name = '[company.name]'",
                  "SELECT c.name, e.year_working FROM employment e, company c"
                  " WHERE (c.company_id = e.company_id) AND (e.people_id = 3) AND c.name IS NOT NULL", TRUE);
  /* an outer join is not reasoned about */
  assert_planned ("SELECT e.year_working FROM company c LEFT JOIN employment e ON c.company_id = e.company_id"
                  " WHERE c.name = '[company.name]'",
                  "SELECT c.name COLLATE BINARY, e.year_working FROM company c LEFT JOIN employment e"
                  " ON c.company_id = e.company_id WHERE c.name IS NOT NULL ORDER BY 1", TRUE);
  assert_planned ("SELECT name FROM people WHERE age BETWEEN 1 AND 99 AND name = [people.name]"
                  " AND CASE WHEN age > 1 AND age < 5 THEN 0 ELSE 1 END",
                  "SELECT name COLLATE BINARY, name FROM people WHERE (age BETWEEN 1 AND 99)"
                  " AND (CASE WHEN age > 1 AND age < 5 THEN 0 ELSE 1 END) AND name IS NOT NULL"
                  " ORDER BY 1", TRUE);

  assert_refused (older_sql, "top-level ORDER");
  assert_refused ("SELECT name FROM people WHERE age = [people.age] LIMIT 1", "top-level LIMIT");
  assert_refused ("SELECT count(*) FROM employment e JOIN company c ON c.company_id = e.company_id"
                  " WHERE c.name = '[company.name]'", "aggregate");
  assert_refused ("SELECT industry FROM company WHERE name = '[company.name]' OR founded = 1",
                  "top-level “column = placeholder”");
  assert_refused ("SELECT p.name FROM people p, company c WHERE p.name = '[company.name]'",
                  "another column");
  assert_refused ("SELECT industry FROM company WHERE lower(name) = '[company.name]'",
                  "top-level “column = placeholder”");
  assert_refused ("SELECT name FROM company WHERE name = '[company.name]' OR industry = '[company.name]'",
                  "top-level “column = placeholder”");
  assert_refused ("SELECT name FROM company WHERE name = '[company.name]' AND industry = '[company.name]'",
                  "more than once");
  assert_refused ("SELECT name FROM company WHERE name IN (SELECT name FROM company WHERE name = '[company.name]')",
                  "top-level “column = placeholder”");
  assert_refused ("SELECT name FROM company WHERE name = '[company.name]' UNION SELECT name FROM people",
                  "top-level UNION");
}

static void
test_tricky_values (void)
{
  /* in binary (UTF-8 byte) order */
  static const char * const names[] = { "100% sure", "O'Brien", "Zoë 東京", "two\nlines", "under_score", NULL };
  static const char * const sql[] = {
    "SELECT age FROM people WHERE name = '100% sure'",
    "SELECT age FROM people WHERE name = 'O''Brien'",
    "SELECT age FROM people WHERE name = 'Zoë 東京'",
    "SELECT age FROM people WHERE name = 'two\nlines'",
    "SELECT age FROM people WHERE name = 'under_score'",
  };
  static const char * const answers[] = { "[[25]]", "[[30]]", "[[null]]", "[[30]]", "[[41]]" };
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GPtrArray) records = NULL;
  g_autofree char *jsonl = NULL;

  add_template (set, database, age_sql, "short", "How old is '[people.name]'?", NULL);
  jsonl = generate_ok (generator, set);
  /* one record a line: the newline of a value is escaped */
  g_assert_cmpuint (count_lines (jsonl), ==, 5);
  records = parse_records (jsonl);
  g_assert_cmpuint (records->len, ==, 5);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();
      g_autoptr (JsonNode) bindings = NULL;
      g_autofree char *bindings_json = NULL;
      /* A value with an apostrophe goes in double quotes. */
      g_autofree char *text = g_strdup_printf (strchr (names[i], '\'') != NULL ? "How old is \"%s\"?" :
                                               "How old is '%s'?", names[i]);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "people.name");
      json_builder_add_string_value (builder, names[i]);
      json_builder_end_object (builder);
      bindings = json_builder_get_root (builder);
      bindings_json = to_json (bindings);

      assert_record (records->pdata[i], "short", text, bindings_json, answers[i]);
      g_assert_cmpstr (grammar_record_get_sql (records->pdata[i]), ==, sql[i]);
    }
}

static void
test_null_fill_ins (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);

  add_template (set, database, founded_sql, "short", "Founded in [company.founded]?", NULL);
  for (int set_based = 1; set_based >= 0; set_based--)
    {
      g_autofree char *jsonl = NULL;
      g_autoptr (GPtrArray) records = NULL;

      grammar_qa_generator_set_set_based (generator, set_based);
      jsonl = generate_ok (generator, set);
      records = parse_records (jsonl);
      /* Initech's founding year is NULL: never a binding */
      g_assert_cmpuint (records->len, ==, 3);
      assert_record (records->pdata[0], "short", "Founded in 1950?", "{\"company.founded\":1950}", "[[\"Acme\"]]");
      assert_record (records->pdata[1], "short", "Founded in 1970?", "{\"company.founded\":1970}",
                     "[[\"Umbrella\"]]");
      assert_record (records->pdata[2], "short", "Founded in 1980?", "{\"company.founded\":1980}", "[[\"Globex\"]]");
      g_assert_null (strstr (jsonl, "null"));
    }
}

static void
test_all_null_column (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  const char *id;

  add_template (set, database, industry_sql, "short", "Industry of [company.name]?", NULL);
  id = add_template (set, database, nickname_sql, "short", "Who is called [people.nickname]?", NULL);
  for (int set_based = 1; set_based >= 0; set_based--)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *jsonl = NULL;

      grammar_qa_generator_set_set_based (generator, set_based);
      jsonl = generate (generator, set, &error);
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      g_assert_true (grammar_error_is_input_error (error));
      g_assert_nonnull (strstr (error->message, id));
      g_assert_nonnull (strstr (error->message, "[people.nickname]"));
      g_assert_nonnull (strstr (error->message, "only NULL"));
      /* planned before anything is written */
      g_assert_null (jsonl);
      g_assert_cmpuint (grammar_qa_generator_get_n_records (generator), ==, 0);
    }
}

static void
test_max_combinations (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "limited.jsonl", NULL);
  g_autofree char *previous = g_build_filename (tmp_dir, "previous.jsonl", NULL);
  g_autofree char *contents = NULL;
  const char *id;

  g_assert_cmpuint (grammar_qa_generator_get_max_combinations (generator), ==, 1000000);
  id = add_template (set, database, join_sql, "short", "[people.name] at [company.name]?", NULL);
  grammar_qa_generator_set_max_combinations (generator, 19);

  /* set-based: nothing is enumerated, so nothing is limited */
  g_assert_true (grammar_qa_generator_generate_to_file (generator, set, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_unlink (path), ==, 0);

  /* per binding: 4 × 5 = 20 combinations */
  grammar_qa_generator_set_set_based (generator, FALSE);
  g_assert_false (grammar_qa_generator_generate_to_file (generator, set, path, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, id));
  g_assert_nonnull (strstr (error->message, "20 combinations"));
  g_assert_nonnull (strstr (error->message, "4 × 5"));
  g_assert_nonnull (strstr (error->message, "max-combinations (19)"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* a previous file stays as it was */
  g_assert_true (g_file_set_contents (previous, "previous\n", -1, NULL));
  g_assert_false (grammar_qa_generator_generate_to_file (generator, set, previous, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_true (g_file_get_contents (previous, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "previous\n");
  g_clear_error (&error);

  grammar_qa_generator_set_max_combinations (generator, 20);
  g_assert_true (grammar_qa_generator_generate_to_file (generator, set, previous, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (previous, &contents, NULL, NULL));
  g_assert_cmpuint (count_lines (contents), ==, 5);
}

static GHashTable *
ids_by_group (GPtrArray  *records,
              const char *style)
{
  GHashTable *groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < records->len; i++)
    {
      GrammarRecord *record = records->pdata[i];
      GPtrArray *ids;

      if (g_strcmp0 (grammar_record_get_style (record), style) != 0)
        continue;
      ids = g_hash_table_lookup (groups, grammar_record_get_group (record));
      if (ids == NULL)
        {
          ids = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (groups, g_strdup (grammar_record_get_group (record)), ids);
        }
      g_ptr_array_add (ids, g_strdup (grammar_record_get_id (record)));
    }
  return groups;
}

static void
test_per_group (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GHashTable) short_groups = NULL;
  g_autoptr (GHashTable) long_groups = NULL;
  g_autoptr (GHashTable) all_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *first = NULL;
  g_autofree char *again = NULL;
  g_autofree char *other_seed = NULL;
  g_auto (GStrv) warnings = NULL;
  GHashTableIter iter;
  gpointer value;
  const char *id;

  id = add_template (set, database, industry_sql,
                     "short", "Industry of [company.name]?",
                     "short", "What does [company.name] do?",
                     "short", "[company.name]: which industry?",
                     "short", "Sector of [company.name]?",
                     "short", "Which industry is [company.name] in?",
                     "long", "Could you tell me which industry the company [company.name] belongs to?",
                     "long", "I would like to know the industry of the company named [company.name], please.",
                     NULL);
  grammar_qa_generator_set_per_group (generator, 3);
  grammar_qa_generator_set_seed (generator, 7);
  first = generate_ok (generator, set);
  records = parse_records (first);

  /* 4 groups × (3 short + the 2 long there are) */
  g_assert_cmpuint (records->len, ==, 4 * 5);
  short_groups = ids_by_group (records, "short");
  long_groups = ids_by_group (records, "long");
  g_assert_cmpuint (g_hash_table_size (short_groups), ==, 4);
  g_assert_cmpuint (g_hash_table_size (long_groups), ==, 4);
  g_hash_table_iter_init (&iter, short_groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_assert_cmpuint (((GPtrArray *) value)->len, ==, 3);
  g_hash_table_iter_init (&iter, long_groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_assert_cmpuint (((GPtrArray *) value)->len, ==, 2);
  /* without replacement: no id twice */
  for (guint i = 0; i < records->len; i++)
    g_assert_true (g_hash_table_add (all_ids, (gpointer) grammar_record_get_id (records->pdata[i])));

  /* the short style is reported with the template and how many there are */
  warnings = grammar_qa_generator_dup_warnings (generator);
  g_assert_cmpuint (g_strv_length (warnings), ==, 1);
  g_assert_nonnull (strstr (warnings[0], id));
  g_assert_nonnull (strstr (warnings[0], "style long: 2 text template(s)"));

  /* same seed, same bytes; another seed, another choice */
  again = generate_ok (generator, set);
  g_assert_cmpstr (first, ==, again);
  grammar_qa_generator_set_seed (generator, 8);
  other_seed = generate_ok (generator, set);
  g_assert_cmpstr (first, !=, other_seed);
  g_assert_cmpuint (count_lines (other_seed), ==, 20);
}

static void
test_deterministic (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarTemplateSet) reordered = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GPtrArray) reordered_records = NULL;
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *third = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "deterministic.jsonl", NULL);
  g_autofree char *from_file = NULL;
  g_autoptr (GError) error = NULL;

  add_template (set, database, industry_sql, "short", "Industry of [company.name]?", NULL);
  add_template (set, database, join_sql, "short", "[people.name] at [company.name]?", NULL);
  add_template (set, database, older_sql, "short", "Older than [people.age]?", NULL);
  first = generate_ok (generator, set);
  second = generate_ok (generator, set);
  g_assert_cmpstr (first, ==, second);

  /* the same through a file */
  g_assert_true (grammar_qa_generator_generate_to_file (generator, set, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &from_file, NULL, NULL));
  g_assert_cmpstr (from_file, ==, first);

  /* ids do not depend on the other templates of the run */
  add_template (reordered, database, older_sql, "short", "Older than [people.age]?", NULL);
  add_template (reordered, database, industry_sql, "short", "Industry of [company.name]?", NULL);
  third = generate_ok (generator, reordered);
  records = parse_records (first);
  reordered_records = parse_records (third);
  for (guint i = 0; i < reordered_records->len; i++)
    g_hash_table_add (ids, (gpointer) grammar_record_get_id (reordered_records->pdata[i]));
  for (guint i = 0; i < records->len; i++)
    {
      GrammarRecord *record = records->pdata[i];
      g_autofree char *bindings = to_json (grammar_record_get_bindings (record));
      g_autofree char *group = expected_group (grammar_record_get_template (record), bindings);

      g_assert_cmpstr (grammar_record_get_group (record), ==, group);
      if (strstr (grammar_record_get_text (record), " at ") == NULL)
        g_assert_true (g_hash_table_contains (ids, grammar_record_get_id (record)));
    }
}

static void
test_no_text_templates (void)
{
  g_autoptr (GrammarDatabase) database = open_database ();
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = grammar_qa_generator_new (database);
  g_autofree char *jsonl = NULL;
  g_auto (GStrv) warnings = NULL;
  const char *id;

  /* not even its all-NULL column is looked at: nothing would be generated */
  id = add_template (set, database, nickname_sql, NULL);
  add_template (set, database, industry_sql, "short", "Industry of [company.name]?", NULL);
  jsonl = generate_ok (generator, set);
  g_assert_cmpuint (count_lines (jsonl), ==, 4);
  g_assert_cmpuint (grammar_qa_generator_get_n_templates (generator), ==, 1);
  warnings = grammar_qa_generator_dup_warnings (generator);
  g_assert_cmpuint (g_strv_length (warnings), ==, 1);
  g_assert_nonnull (strstr (warnings[0], id));
  g_assert_nonnull (strstr (warnings[0], "no text templates"));
}

/* Command line */

/* A text-templates.json holding one SQL template and one short text. */
static char *
write_templates (const char *name,
                 const char *sql,
                 const char *text)
{
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarSqlTemplate) sql_template = NULL;
  g_autoptr (GrammarTextTemplate) text_template = NULL;
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (tmp_dir, name, NULL);

  sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, &error);
  g_assert_no_error (error);
  text_template = grammar_text_template_new (grammar_sql_template_get_id (sql_template), "short", text);
  grammar_template_set_add_sql_template (set, sql_template);
  grammar_template_set_add_text_template (set, text_template);
  g_assert_true (grammar_template_set_save_text_templates (set, path, &error));
  g_assert_no_error (error);
  return path;
}

static void
assert_file_is (const char *name,
                const char *expected)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected);
}

static void
assert_no_stray_files (void)
{
  g_autoptr (GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] == '.')
      g_error ("a temporary file was left: %s", name);
}

static void
test_cli (void)
{
  g_auto (GrammarTestRun) ok = { 0, }, quiet = { 0, }, sampled = { 0, }, help = { 0, };
  g_autofree char *templates = write_templates ("industry.json", industry_sql, "Industry of [company.name]?");
  g_autofree char *dataset = NULL;
  g_autofree char *dataset_path = g_build_filename (tmp_dir, "cli.jsonl", NULL);
  g_autofree char *quiet_dataset = NULL;

  grammar_test_run (&ok, tmp_dir, "qa", "-c", config_path, "-i", templates, "-o", "cli.jsonl", NULL);
  g_assert_cmpint (ok.status, ==, 0);
  grammar_test_assert_contains (ok.err, "1 template (1 set-based, 0 per binding), 4 groups, 4 records, "
                                "0 empty combinations skipped");
  g_assert_true (g_file_get_contents (dataset_path, &dataset, NULL, NULL));
  g_assert_cmpuint (count_lines (dataset), ==, 4);
  grammar_test_assert_contains (dataset, "\"text\":\"Industry of Acme?\"");

  grammar_test_run (&quiet, tmp_dir, "qa", "-q", "-c", config_path, "-i", templates, "-o", "quiet.jsonl", NULL);
  g_assert_cmpint (quiet.status, ==, 0);
  g_assert_cmpstr (quiet.err, ==, "");
  assert_file_is ("quiet.jsonl", dataset);

  grammar_test_run (&sampled, tmp_dir, "qa", "-c", config_path, "-i", templates, "-o", "sampled.jsonl",
                    "--per-group", "2", "--seed", "3", NULL);
  g_assert_cmpint (sampled.status, ==, 0);
  grammar_test_assert_contains (sampled.err, "warning: template ");
  grammar_test_assert_contains (sampled.err, "style short: 1 text template(s), fewer than --per-group 2; its 4 group(s) keep 1");

  grammar_test_run (&help, tmp_dir, "qa", "--help", NULL);
  g_assert_cmpint (help.status, ==, 0);
  grammar_test_assert_contains (help.out, "--per-group");
  grammar_test_assert_contains (help.out, "--max-combinations");
  assert_no_stray_files ();
}

static void
test_cli_invalid_templates_kept_out (void)
{
  g_auto (GrammarTestRun) run = { 0, };
  g_autoptr (GrammarSqlTemplate) valid = grammar_sql_template_new (industry_sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, NULL);
  g_autofree char *contents =
    g_strdup_printf ("{\"sql_templates\": [\n"
                     "  {\"sql\": \"%s\"},\n"
                     "  {\"sql\": \"SELECT industry FROM company WHERE nmae = '[company.nmae]'\"}\n"
                     "], \"text_templates\": [{\"template\": \"%s\", \"style\": \"short\","
                     " \"text\": \"Industry of [company.name]?\"}]}\n",
                     industry_sql, grammar_sql_template_get_id (valid));
  g_autofree char *templates = grammar_test_write_file (tmp_dir, "mixed.json", contents);

  grammar_test_run (&run, tmp_dir, "qa", "-c", config_path, "-i", "mixed.json", "-o", "mixed.jsonl", NULL);
  /* The invalid template is named and nothing is written: a run that
   * exits 2 leaves the output as it was. */
  g_assert_cmpint (run.status, ==, 2);
  grammar_test_assert_contains (run.err, "warning: mixed.json: template s");
  grammar_test_assert_contains (run.err, "nmae");
  grammar_test_assert_contains (run.err, "1 template of mixed.json is invalid (listed above); nothing written");
  g_assert_null (strstr (run.err, "records"));
}

/* A text template in a style no verbalizer knows ("shouty", a typo) is
 * refused like any invalid template: exit 2, the file, the entry and the
 * template named, nothing written. */
static void
test_cli_unknown_style (void)
{
  g_auto (GrammarTestRun) run = { 0, };
  g_autoptr (GrammarSqlTemplate) valid = grammar_sql_template_new (industry_sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, NULL);
  g_autofree char *contents =
    g_strdup_printf ("{\"sql_templates\": [{\"sql\": \"%s\"}], \"text_templates\": [\n"
                     "  {\"template\": \"%s\", \"style\": \"short\", \"text\": \"Industry of [company.name]?\"},\n"
                     "  {\"template\": \"%s\", \"style\": \"shouty\", \"text\": \"INDUSTRY OF [company.name]!\"}]}\n",
                     industry_sql, grammar_sql_template_get_id (valid), grammar_sql_template_get_id (valid));
  g_autofree char *templates = grammar_test_write_file (tmp_dir, "shouty.json", contents);
  g_autofree char *expected = g_strdup_printf ("shouty.json: text_templates[1]: template %s: unknown text style “shouty”; "
                                               "the styles are short, long,", grammar_sql_template_get_id (valid));

  grammar_test_run (&run, tmp_dir, "qa", "-c", config_path, "-i", "shouty.json", "-o", "shouty.jsonl", NULL);
  g_assert_cmpint (run.status, ==, 2);
  grammar_test_assert_contains (run.err, expected);
  grammar_test_assert_contains (run.err, "1 template of shouty.json is invalid (listed above); nothing written");
  g_assert_false (g_file_test ("shouty.jsonl", G_FILE_TEST_EXISTS));
}

/* A hand edit that compares a placeholder with another column than its
 * own (`WHERE industry = '[company.name]'`) still runs, but the warning
 * names the template, the column and the placeholder, with the fix; a
 * qualified column of another table (c.name for [people.name]) too. A
 * placeholder compared with its own column, through an alias or not,
 * gives no warning. */
static void
test_cli_placeholder_column_mismatch (void)
{
  g_auto (GrammarTestRun) edited = { 0, }, joined = { 0, }, fine = { 0, };
  g_autofree char *edited_path =
    write_templates ("edited.json", "SELECT industry FROM company WHERE industry = '[company.name]'", "Industry of [company.name]?");
  g_autofree char *joined_path =
    write_templates ("joined.json",
                     "SELECT e.year_working FROM employment e JOIN company c ON e.company_id = c.company_id"
                     " JOIN people p ON e.people_id = p.people_id WHERE c.name = '[people.name]'",
                     "Years of [people.name]?");
  g_autofree char *fine_path = write_templates ("fine.json", join_sql, "Years of [people.name] at [company.name]?");
  g_autoptr (GrammarSqlTemplate) edited_template =
    grammar_sql_template_new ("SELECT industry FROM company WHERE industry = '[company.name]'", GRAMMAR_TEMPLATE_ORIGIN_MANUAL, NULL);
  g_autofree char *expected =
    g_strdup_printf ("warning: template %s: its WHERE compares industry with the placeholder [company.name], whose "
                     "values come from company.name: combinations where they differ find nothing and are skipped; "
                     "compare name with it, or use the placeholder [company.industry]",
                     grammar_sql_template_get_id (edited_template));

  grammar_test_run (&edited, tmp_dir, "qa", "-c", config_path, "-i", edited_path, "-o", "edited.jsonl", NULL);
  g_assert_cmpint (edited.status, ==, 0);
  grammar_test_assert_contains (edited.err, expected);

  grammar_test_run (&joined, tmp_dir, "qa", "-c", config_path, "-i", joined_path, "-o", "joined.jsonl", NULL);
  g_assert_cmpint (joined.status, ==, 0);
  grammar_test_assert_contains (joined.err, "its WHERE compares c.name with the placeholder [people.name]");
  grammar_test_assert_contains (joined.err, "or use the placeholder [company.name]");

  grammar_test_run (&fine, tmp_dir, "qa", "-c", config_path, "-i", fine_path, "-o", "fine.jsonl", NULL);
  g_assert_cmpint (fine.status, ==, 0);
  g_assert_null (strstr (fine.err, "warning"));
}

static void
test_cli_failures (void)
{
  g_auto (GrammarTestRun) usage = { 0, }, bad_json = { 0, }, all_null = { 0, }, too_many = { 0, }, failing = { 0, },
               bad_count = { 0, };
  g_autofree char *nickname = write_templates ("nickname.json", nickname_sql, "Who is [people.nickname]?");
  g_autofree char *older = write_templates ("older.json", older_sql, "Older than [people.age]?");
  g_autofree char *broken = grammar_test_write_file (tmp_dir, "broken.json", "{\"sql_templates\": [");
  /* the constant overflows when the statement runs, not when it compiles */
  g_autofree char *failing_templates =
    write_templates ("failing.json",
                     "SELECT industry FROM company WHERE name = '[company.name]' AND abs(-9223372036854775807 - 1) > 0",
                     "Industry of [company.name]?");
  g_autofree char *previous = grammar_test_write_file (tmp_dir, "previous.jsonl", "previous\n");
  g_autofree char *none = g_build_filename (tmp_dir, "none.jsonl", NULL);

  grammar_test_run (&usage, tmp_dir, "qa", "-c", config_path, "-i", older, NULL);
  g_assert_cmpint (usage.status, ==, 2);
  grammar_test_assert_contains (usage.err, "pass -o");

  grammar_test_run (&bad_count, tmp_dir, "qa", "-c", config_path, "-i", older, "-o", "x.jsonl",
                    "--per-group", "0", NULL);
  g_assert_cmpint (bad_count.status, ==, 2);
  grammar_test_assert_contains (bad_count.err, "--per-group must be at least 1");

  grammar_test_run (&bad_json, tmp_dir, "qa", "-c", config_path, "-i", broken, "-o", "previous.jsonl", NULL);
  g_assert_cmpint (bad_json.status, ==, 2);
  grammar_test_assert_contains (bad_json.err, "broken.json");
  assert_file_is ("previous.jsonl", "previous\n");

  grammar_test_run (&all_null, tmp_dir, "qa", "-c", config_path, "-i", nickname, "-o", "previous.jsonl", NULL);
  g_assert_cmpint (all_null.status, ==, 2);
  grammar_test_assert_contains (all_null.err, "[people.nickname] has no value to fill in");
  assert_file_is ("previous.jsonl", "previous\n");

  grammar_test_run (&too_many, tmp_dir, "qa", "-c", config_path, "-i", older, "-o", "none.jsonl",
                    "--max-combinations", "2", NULL);
  g_assert_cmpint (too_many.status, ==, 2);
  grammar_test_assert_contains (too_many.err, "3 combinations of placeholder values (3) exceed max-combinations (2)");
  g_assert_false (g_file_test (none, G_FILE_TEST_EXISTS));

  grammar_test_run (&failing, tmp_dir, "qa", "-c", config_path, "-i", failing_templates, "-o", "previous.jsonl", NULL);
  g_assert_cmpint (failing.status, ==, 1);
  grammar_test_assert_contains (failing.err, "overflow");
  assert_file_is ("previous.jsonl", "previous\n");
  assert_no_stray_files ();
}

/* A run interrupted by SIGINT leaves the previous dataset and no
 * temporary file, whether the signal comes during generation (exit
 * 128 + SIGINT) or before it (killed). */
static void
test_cli_interrupted (void)
{
  g_autofree char *db_path = g_build_filename (tmp_dir, "big.sqlite", NULL);
  g_autofree char *config = grammar_test_write_file (tmp_dir, "big.ini", "[database]\nplugin=sqlite\nuri=big.sqlite\n");
  g_autofree char *templates = NULL;
  g_autofree char *previous = grammar_test_write_file (tmp_dir, "interrupted.jsonl", "previous\n");
  g_autoptr (GError) error = NULL;
  const char *exe = g_getenv ("GRAMMAR_EXE");
  const char *argv[] = { exe, "qa", "-q", "-c", "big.ini", "-i", "big.json", "-o", "interrupted.jsonl", NULL };
  sqlite3 *db = NULL;
  GPid pid;
  int wait_status = 0;

  g_assert_cmpint (sqlite3_open (db_path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db,
    "CREATE TABLE thing (thing_id INTEGER PRIMARY KEY, label TEXT NOT NULL);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)"
    " INSERT INTO thing SELECT i, 'thing ' || i FROM n;", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  /* LIMIT makes it run once per binding: a few seconds */
  templates = write_templates ("big.json", "SELECT thing_id FROM thing WHERE label = '[thing.label]' LIMIT 1",
                               "Which number has [thing.label]?");

  g_spawn_async (tmp_dir, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  g_usleep (G_USEC_PER_SEC / 2);
  kill (pid, SIGINT);
  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_test_message ("interrupted run: %s %d", WIFEXITED (wait_status) ? "exit status" : "signal",
                  WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : WTERMSIG (wait_status));
  g_assert_false (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0);
  if (WIFEXITED (wait_status))
    g_assert_cmpint (WEXITSTATUS (wait_status), ==, 128 + SIGINT);
  assert_file_is ("interrupted.jsonl", "previous\n");
  assert_no_stray_files ();
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *script = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = grammar_test_make_tmp_dir ("grammar-qa-XXXXXX");
  script = grammar_test_write_file (tmp_dir, "fixture.sql", fixture_sql);
  config_path = grammar_test_write_file (tmp_dir, "fixture.ini", "[database]\nplugin=sqlite\nscript=fixture.sql\n");

  g_test_add_func ("/qa/single-placeholder", test_single_placeholder);
  g_test_add_func ("/qa/join-sparse", test_join_sparse);
  g_test_add_func ("/qa/quotes-per-value", test_quotes_per_value);
  g_test_add_func ("/qa/fallback-non-equality", test_fallback_non_equality);
  g_test_add_func ("/qa/plans-agree", test_plans_agree);
  g_test_add_func ("/qa/limit-falls-back", test_limit_falls_back);
  g_test_add_func ("/qa/planner", test_planner);
  g_test_add_func ("/qa/tricky-values", test_tricky_values);
  g_test_add_func ("/qa/null-fill-ins", test_null_fill_ins);
  g_test_add_func ("/qa/all-null-column", test_all_null_column);
  g_test_add_func ("/qa/max-combinations", test_max_combinations);
  g_test_add_func ("/qa/per-group", test_per_group);
  g_test_add_func ("/qa/deterministic", test_deterministic);
  g_test_add_func ("/qa/no-text-templates", test_no_text_templates);
  g_test_add_func ("/qa/cli", test_cli);
  g_test_add_func ("/qa/cli-invalid-templates", test_cli_invalid_templates_kept_out);
  g_test_add_func ("/qa/cli-unknown-style", test_cli_unknown_style);
  g_test_add_func ("/qa/cli-placeholder-column-mismatch", test_cli_placeholder_column_mismatch);
  g_test_add_func ("/qa/cli-failures", test_cli_failures);
  g_test_add_func ("/qa/cli-interrupted", test_cli_interrupted);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  g_free (config_path);
  return status;
}
