/* test-import.c: importing the template files of the Python GRAMMAR tool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmp_dir;
static char *config_path;
static GrammarDatabase *database;

static const char fixture_sql[] =
  "CREATE TABLE author (Author_ID INTEGER PRIMARY KEY, Name TEXT UNIQUE, Country TEXT);\n"
  "CREATE TABLE book (Book_ID INTEGER PRIMARY KEY, Title TEXT UNIQUE, Year INTEGER, Price REAL,\n"
  "                   Author_ID INTEGER REFERENCES author);\n"
  "CREATE TABLE shelf (Book_ID INTEGER REFERENCES book, Room TEXT, Copies INTEGER,\n"
  "                    PRIMARY KEY (Book_ID, Room));\n"
  "INSERT INTO author VALUES (1, 'Ursula K. Le Guin', 'USA'), (2, 'Flann O''Brien', 'Ireland'),\n"
  "  (3, 'Zoë 東京', NULL);\n"
  "INSERT INTO book VALUES (1, 'The Dispossessed', 1974, 9.5, 1),\n"
  "  (2, 'The Third Policeman', 1967, 12.0, 2), (3, '100% _Wild_', 2001, NULL, 3),\n"
  "  (4, 'Two\nLines', NULL, 3.25, 3);\n"
  "INSERT INTO shelf VALUES (1, 'Attic', 2), (1, 'Cellar', 1), (2, 'Attic', 4), (4, 'Cellar', 1);\n";

/* The Python tool's SQLTemplateGenerator/sql_templates.json: table tuples → SQL. */
static const char sql_templates_json[] =
  "{\n"
  "  \"('book',)\": [\"SELECT Year FROM book WHERE Title = '[book.Title]';\",\n"
  "                \"SELECT Price FROM book WHERE Title = '[book.Title]';\",\n"
  "                \"SELECT Pages FROM book WHERE Title = '[book.Title]';\"],\n"
  "  \"('author', 'book')\": [\"SELECT a.Country FROM book b JOIN author a ON a.Author_ID = b.Author_ID"
  " WHERE b.Title = '[book.Title]';\"],\n"
  "  \"('book', 'shelf')\": [\"SELECT s.Copies FROM shelf s JOIN book b ON b.Book_ID = s.Book_ID"
  " WHERE b.Title = '[book.Title]' AND s.Room = '[shelf.Room]';\"]\n"
  "}\n";

/* Its TextTemplateGenerator/terse.json: SQL → text templates in one style. */
static const char terse_json[] =
  "{\n"
  "  \"SELECT Year FROM book WHERE Title = '[book.Title]';\": [\n"
  "    \"Year of '[book.Title]'?\", \"When did [book.Title] come out?\", \"Year of it?\",\n"
  "    \"Year of '[book.Title]'?\"],\n"
  "  \"SELECT  Price\\nFROM book WHERE Title = '[book.Title]'\": [\"Price of '[book.Title]'?\"],\n"
  "  \"SELECT Pages FROM book WHERE Title = '[book.Title]';\": [\"Pages of [book.Title]?\", \"Length of [book.Title]?\"],\n"
  "  \"SELECT a.Country FROM book b JOIN author a ON a.Author_ID = b.Author_ID WHERE b.Title = '[book.Title]';\": [\n"
  "    \"Country of the author of '[book.Title]'?\"],\n"
  "  \"SELECT s.Copies FROM shelf s JOIN book b ON b.Book_ID = s.Book_ID WHERE b.Title = '[book.Title]'"
  " AND s.Room = '[shelf.Room]';\": [\n"
  "    \"Copies of '[book.Title]' in the [shelf.Room]?\", \"Copies of '[book.Title]' in [shelf.Room] on [book.Year]?\"],\n"
  "  \"SELECT Name FROM author WHERE Country = '[author.Country]';\": [\"Who is from [author.Country]?\"]\n"
  "}\n";

static const char chatty_json[] =
  "{\"SELECT Year FROM book WHERE Title = '[book.Title]';\": [\"So, when did '[book.Title]' come out?\"]}\n";

/* Helpers. */

static char *
id_of (const char *sql)
{
  g_autoptr (GrammarSqlTemplate) sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, NULL);

  g_assert_nonnull (sql_template);
  return g_strdup (grammar_sql_template_get_id (sql_template));
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

static guint
count_texts (GrammarTemplateSet *set,
             const char         *sql,
             const char         *style)
{
  g_autofree char *id = id_of (sql);
  g_autoptr (GPtrArray) texts = grammar_template_set_get_text_templates_for (set, id, style);

  return texts->len;
}

/* Library. */

static void
test_parse_only (void)
{
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "terse.json", terse_json);
  /* Text files first: SQL template files are still read first. */
  const char *paths[] = { terse_path, sql_path, NULL };
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  g_auto (GStrv) styles = NULL;
  GPtrArray *sql_templates;

  g_assert_true (grammar_py_import_templates (set, paths, NULL, NULL, NULL, &problems, &error));
  g_assert_no_error (error);

  sql_templates = grammar_template_set_get_sql_templates (set);
  g_assert_cmpuint (sql_templates->len, ==, 6);
  g_assert_cmpstr (grammar_sql_template_get_sql (g_ptr_array_index (sql_templates, 0)), ==,
                   "SELECT Year FROM book WHERE Title = '[book.Title]'");
  /* The SQL that is only a key of the text file comes last. */
  g_assert_cmpstr (grammar_sql_template_get_sql (g_ptr_array_index (sql_templates, 5)), ==,
                   "SELECT Name FROM author WHERE Country = '[author.Country]'");
  for (guint i = 0; i < sql_templates->len; i++)
    g_assert_cmpint (grammar_sql_template_get_origin (g_ptr_array_index (sql_templates, i)), ==,
                     GRAMMAR_TEMPLATE_ORIGIN_IMPORT);

  styles = grammar_template_set_dup_styles (set);
  g_assert_cmpuint (g_strv_length (styles), ==, 1);
  g_assert_cmpstr (styles[0], ==, "terse");

  /* Matched by the SQL up to whitespace and semicolons; repeated text once; lost placeholder out. */
  g_assert_cmpuint (count_texts (set, "SELECT Year FROM book WHERE Title = '[book.Title]'", "terse"), ==, 2);
  g_assert_cmpuint (count_texts (set, "SELECT Price FROM book WHERE Title = '[book.Title]'", "terse"), ==, 1);
  g_assert_cmpuint (count_texts (set, "SELECT Pages FROM book WHERE Title = '[book.Title]'", "terse"), ==, 2);
  g_assert_cmpuint (grammar_template_set_get_text_templates (set)->len, ==, 8);

  g_assert_cmpuint (g_strv_length (problems), ==, 2);
  assert_problem (problems, "lacks the placeholder [book.Title]");
  assert_problem (problems, "has a placeholder the SQL template does not have: [book.Year]");
  for (guint i = 0; problems[i] != NULL; i++)
    g_assert_true (g_str_has_prefix (problems[i], terse_path));
}

static void
test_validated (void)
{
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "terse.json", terse_json);
  g_autofree char *chatty_path = grammar_test_write_file (tmp_dir, "chatty.json", chatty_json);
  g_autofree char *pages = id_of ("SELECT Pages FROM book WHERE Title = '[book.Title]'");
  g_autofree char *expected = NULL;
  g_autofree char *dropped = NULL;
  const char *paths[] = { sql_path, terse_path, chatty_path, NULL };
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  g_auto (GStrv) styles = NULL;
  GrammarSqlTemplate *join;

  g_assert_true (grammar_py_import_templates (set, paths, NULL, database, NULL, &problems, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 5);
  g_assert_null (grammar_template_set_lookup_sql_template (set, pages));
  g_assert_cmpuint (grammar_template_set_get_text_templates (set)->len, ==, 7);
  join = g_ptr_array_index (grammar_template_set_get_sql_templates (set), 3);
  g_assert_cmpstr (grammar_sql_template_get_tables (join)[0], ==, "shelf");
  g_assert_cmpstr (grammar_sql_template_get_tables (join)[1], ==, "book");

  styles = grammar_template_set_dup_styles (set);
  g_assert_cmpuint (g_strv_length (styles), ==, 2);
  g_assert_cmpstr (styles[1], ==, "chatty");

  g_assert_cmpuint (g_strv_length (problems), ==, 4);
  expected = g_strdup_printf ("%s: template %s: ", sql_path, pages);
  assert_problem (problems, expected);
  assert_problem (problems, "Pages");
  dropped = g_strdup_printf ("%s: template %s: its 2 text template(s) are left out with it", terse_path, pages);
  assert_problem (problems, dropped);
}

static void
test_style_override (void)
{
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "terse.json", terse_json);
  g_autofree char *chatty_path = grammar_test_write_file (tmp_dir, "chatty.json", chatty_json);
  const char *paths[] = { terse_path, chatty_path, NULL };
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) styles = NULL;

  g_assert_true (grammar_py_import_templates (set, paths, "casual", database, NULL, NULL, &error));
  g_assert_no_error (error);
  styles = grammar_template_set_dup_styles (set);
  g_assert_cmpuint (g_strv_length (styles), ==, 1);
  g_assert_cmpstr (styles[0], ==, "casual");
  g_assert_cmpuint (count_texts (set, "SELECT Year FROM book WHERE Title = '[book.Title]'", "casual"), ==, 3);
}

static void
test_bad_files (void)
{
  g_autofree char *good = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  const char * const bad[][2] = {
    { "broken.json", "{\"('book',)\": [\"SELECT\"" },
    { "qa.json", "[[[\"[('Oil',)]\", [\"What?\"]]]]" },
    { "scalar.json", "\"text\"" },
    { "numbers.json", "{\"SELECT 1\": [1, 2]}" },
    { "nested.json", "{\"SELECT 1\": {\"a\": \"b\"}}" },
    { "mixed.json", "{\"('book',)\": [\"SELECT 1\"], \"SELECT 2\": [\"x\"]}" },
  };
  const char * const reasons[] = {
    "broken.json:1:", "QADataGenerator", "not a template file", "not a list of strings",
    "not a list of strings", "some keys are table tuples",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *path = grammar_test_write_file (tmp_dir, bad[i][0], bad[i][1]);
      const char *paths[] = { good, path, NULL };
      g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) problems = NULL;

      g_assert_false (grammar_py_import_templates (set, paths, NULL, NULL, NULL, &problems, &error));
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      grammar_test_assert_contains (error->message, path);
      grammar_test_assert_contains (error->message, reasons[i]);
      g_assert_null (problems);
      /* Nothing from the good file either. */
      g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 0);
    }

  {
    g_autofree char *missing = g_build_filename (tmp_dir, "missing.json", NULL);
    const char *paths[] = { missing, NULL };
    g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
    g_autoptr (GError) error = NULL;

    g_assert_false (grammar_py_import_templates (set, paths, NULL, NULL, NULL, NULL, &error));
    g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
    grammar_test_assert_contains (error->message, missing);
  }
}

/* Command line. */

static void
test_cli (void)
{
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "terse.json", terse_json);
  g_autofree char *output = g_build_filename (tmp_dir, "imported.json", NULL);
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  g_auto (GrammarTestRun) run = { 0, };

  grammar_test_run (&run, tmp_dir, "import", "--from", "grammar-py", sql_path, terse_path, "-o", output,
                    "-c", config_path, NULL);
  /* Problems in the input: the valid templates are written, status 2. */
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpstr (run.out, ==, "");
  grammar_test_assert_contains (run.err, "no such column: Pages");
  grammar_test_assert_contains (run.err, "lacks the placeholder");
  grammar_test_assert_contains (run.err, "5 SQL template(s) and 6 text template(s) (styles: terse) written to");

  /* What it wrote loads cleanly against the database. */
  g_assert_true (grammar_template_set_load (set, output, database, NULL, &problems, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 5);
  g_assert_cmpuint (grammar_template_set_get_text_templates (set)->len, ==, 6);
  g_assert_cmpint (grammar_sql_template_get_origin (g_ptr_array_index (grammar_template_set_get_sql_templates (set), 0)),
                   ==, GRAMMAR_TEMPLATE_ORIGIN_IMPORT);
}

/* Reads dataset.jsonl into text → answer (compact JSON), counting records per template. */
static GHashTable *
read_dataset (const char *path,
              GHashTable *per_template)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTable *answers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (JsonNode) node = json_from_string (lines[i], &error);
      JsonObject *record;
      const char *template_id;

      g_assert_no_error (error);
      record = json_node_get_object (node);
      template_id = json_object_get_string_member (record, "template");
      g_hash_table_insert (per_template, g_strdup (template_id),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (per_template, template_id)) + 1));
      g_hash_table_insert (answers, g_strdup (json_object_get_string_member (record, "text")),
                           json_to_string (json_object_get_member (record, "answer"), FALSE));
    }
  return answers;
}

/* The point of importing: `grammar qa` runs on the imported templates. */
static void
test_cli_then_qa (void)
{
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "terse.json", terse_json);
  g_autofree char *imported = g_build_filename (tmp_dir, "for-qa.json", NULL);
  g_autofree char *dataset = g_build_filename (tmp_dir, "terse.jsonl", NULL);
  g_autofree char *copies = id_of ("SELECT s.Copies FROM shelf s JOIN book b ON b.Book_ID = s.Book_ID "
                                   "WHERE b.Title = '[book.Title]' AND s.Room = '[shelf.Room]'");
  g_autoptr (GHashTable) per_template = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) answers = NULL;
  g_auto (GrammarTestRun) import_run = { 0, };
  g_auto (GrammarTestRun) qa_run = { 0, };

  grammar_test_run (&import_run, tmp_dir, "import", "--from", "grammar-py", sql_path, terse_path, "-o", imported,
                    "-c", config_path, "-q", NULL);
  /* The fixture holds invalid templates on purpose (see test_cli). */
  g_assert_cmpint (import_run.status, ==, 2);
  grammar_test_run (&qa_run, tmp_dir, "qa", "-c", config_path, "-i", imported, "-o", dataset, "-q", NULL);
  if (qa_run.status != 0)
    g_error ("grammar qa failed: %s", qa_run.err);

  answers = read_dataset (dataset, per_template);
  g_assert_cmpstr (g_hash_table_lookup (answers, "Year of 'The Dispossessed'?"), ==, "[[1974]]");
  g_assert_cmpstr (g_hash_table_lookup (answers, "When did 100% _Wild_ come out?"), ==, "[[2001]]");
  g_assert_cmpstr (g_hash_table_lookup (answers, "Price of 'The Third Policeman'?"), ==, "[[12.0]]");
  g_assert_cmpstr (g_hash_table_lookup (answers, "Country of the author of 'The Third Policeman'?"), ==,
                   "[[\"Ireland\"]]");
  g_assert_cmpstr (g_hash_table_lookup (answers, "Copies of 'The Dispossessed' in the Cellar?"), ==, "[[1]]");
  g_assert_cmpstr (g_hash_table_lookup (answers, "Who is from Ireland?"), ==, "[[\"Flann O'Brien\"]]");
  /* Title × Room: only the four books on a shelf of that room answer. */
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (per_template, copies)), ==, 4);
}

static void
test_cli_quiet_and_style (void)
{
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "terse.json", terse_json);
  g_autofree char *output = g_build_filename (tmp_dir, "styled.json", NULL);
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) styles = NULL;
  g_auto (GrammarTestRun) run = { 0, };

  /* Without -c nothing is validated: the Pages template stays. */
  grammar_test_run (&run, tmp_dir, "import", "--from=grammar-py", "--style", "short", "-q", terse_path,
                    "-o", output, NULL);
  /* A text template lacking its placeholder: reported, status 2. */
  g_assert_cmpint (run.status, ==, 2);
  g_assert_null (strstr (run.err, "written to"));
  grammar_test_assert_contains (run.err, "lacks the placeholder");
  g_assert_true (grammar_template_set_load (set, output, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 6);
  styles = grammar_template_set_dup_styles (set);
  g_assert_cmpstr (styles[0], ==, "short");
}

static void
test_cli_errors (void)
{
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  g_autofree char *qa_path = grammar_test_write_file (tmp_dir, "short.json", "[[[\"[('Oil',)]\", [\"What?\"]]]]");
  g_autofree char *empty_path = grammar_test_write_file (tmp_dir, "empty.json", "{}");
  g_autofree char *output = g_build_filename (tmp_dir, "never.json", NULL);
  g_autofree char *bad_config = grammar_test_write_file (tmp_dir, "bad.ini", "[database]\nplugin=sqlite\nuri=missing.sqlite\n");
  struct
  {
    const char *args[8];
    const char *message;
  } cases[] = {
    { { "--from", "grammar-py", sql_path, qa_path, "-o", output }, "QADataGenerator" },
    { { "--from", "ragas", sql_path, "-o", output }, "unknown --from" },
    { { sql_path, "-o", output }, "--from grammar-py" },
    { { "--from", "grammar-py", sql_path }, "no output file" },
    { { "--from", "grammar-py", "-o", output }, "no input file" },
    { { "--from", "grammar-py", empty_path, "-o", output }, "no valid SQL template" },
    { { "--from", "grammar-py", sql_path, "-o", output, "-c", bad_config }, "missing.sqlite" },
    { { "--from", "grammar-py", "--bogus", sql_path, "-o", output }, "bogus" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (GrammarTestRun) run = { 0, };
      const char **a = cases[i].args;

      grammar_test_run (&run, tmp_dir, "import", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], NULL);
      g_assert_cmpint (run.status, ==, 2);
      grammar_test_assert_contains (run.err, cases[i].message);
      g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
    }
}

static void
test_cli_help (void)
{
  g_auto (GrammarTestRun) run = { 0, };

  grammar_test_run (&run, tmp_dir, "import", "--help", NULL);
  g_assert_cmpint (run.status, ==, 0);
  grammar_test_assert_contains (run.out, "--from");
  grammar_test_assert_contains (run.out, "--style");
}

/* Fixture. */

static void
open_fixture (void)
{
  g_autofree char *script = grammar_test_write_file (tmp_dir, "fixture.sql", fixture_sql);
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GError) error = NULL;

  config_path = grammar_test_write_file (tmp_dir, "test.ini", "[database]\nplugin=sqlite\nscript=fixture.sql\n");
  config = grammar_config_new_from_file (config_path, &error);
  g_assert_no_error (error);
  database = GRAMMAR_DATABASE (grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error));
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = grammar_test_make_tmp_dir ("test-import-XXXXXX");
  open_fixture ();

  g_test_add_func ("/import/parse-only", test_parse_only);
  g_test_add_func ("/import/validated", test_validated);
  g_test_add_func ("/import/style-override", test_style_override);
  g_test_add_func ("/import/bad-files", test_bad_files);
  g_test_add_func ("/import/cli/import", test_cli);
  g_test_add_func ("/import/cli/then-qa", test_cli_then_qa);
  g_test_add_func ("/import/cli/quiet-and-style", test_cli_quiet_and_style);
  g_test_add_func ("/import/cli/errors", test_cli_errors);
  g_test_add_func ("/import/cli/help", test_cli_help);

  status = g_test_run ();

  g_clear_object (&database);
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  g_free (config_path);
  return status;
}
