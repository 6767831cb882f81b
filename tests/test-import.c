/* test-import.c: importing the template and evaluation results files of the Python GRAMMAR tool
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

/* Its TextTemplateGenerator/short.json: SQL → text templates in one style. */
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

/* The two files above without their problems (the Pages column the book
 * table lacks, a text without its placeholder, one with a placeholder its
 * SQL lacks): what an import writes from. */
static const char clean_sql_templates_json[] =
  "{\n"
  "  \"('book',)\": [\"SELECT Year FROM book WHERE Title = '[book.Title]';\",\n"
  "                \"SELECT Price FROM book WHERE Title = '[book.Title]';\"],\n"
  "  \"('author', 'book')\": [\"SELECT a.Country FROM book b JOIN author a ON a.Author_ID = b.Author_ID"
  " WHERE b.Title = '[book.Title]';\"],\n"
  "  \"('book', 'shelf')\": [\"SELECT s.Copies FROM shelf s JOIN book b ON b.Book_ID = s.Book_ID"
  " WHERE b.Title = '[book.Title]' AND s.Room = '[shelf.Room]';\"]\n"
  "}\n";

static const char clean_terse_json[] =
  "{\n"
  "  \"SELECT Year FROM book WHERE Title = '[book.Title]';\": [\n"
  "    \"Year of '[book.Title]'?\", \"When did [book.Title] come out?\", \"Year of '[book.Title]'?\"],\n"
  "  \"SELECT  Price\\nFROM book WHERE Title = '[book.Title]'\": [\"Price of '[book.Title]'?\"],\n"
  "  \"SELECT a.Country FROM book b JOIN author a ON a.Author_ID = b.Author_ID WHERE b.Title = '[book.Title]';\": [\n"
  "    \"Country of the author of '[book.Title]'?\"],\n"
  "  \"SELECT s.Copies FROM shelf s JOIN book b ON b.Book_ID = s.Book_ID WHERE b.Title = '[book.Title]'"
  " AND s.Room = '[shelf.Room]';\": [\n"
  "    \"Copies of '[book.Title]' in the [shelf.Room]?\"],\n"
  "  \"SELECT Name FROM author WHERE Country = '[author.Country]';\": [\"Who is from [author.Country]?\"]\n"
  "}\n";

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
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "short.json", terse_json);
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
  g_assert_cmpstr (styles[0], ==, "short");

  /* Matched by the SQL up to whitespace and semicolons; repeated text once; lost placeholder out. */
  g_assert_cmpuint (count_texts (set, "SELECT Year FROM book WHERE Title = '[book.Title]'", "short"), ==, 2);
  g_assert_cmpuint (count_texts (set, "SELECT Price FROM book WHERE Title = '[book.Title]'", "short"), ==, 1);
  g_assert_cmpuint (count_texts (set, "SELECT Pages FROM book WHERE Title = '[book.Title]'", "short"), ==, 2);
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
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "short.json", terse_json);
  g_autofree char *chatty_path = grammar_test_write_file (tmp_dir, "long.json", chatty_json);
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
  g_assert_cmpstr (styles[1], ==, "long");

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
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "short.json", terse_json);
  g_autofree char *chatty_path = grammar_test_write_file (tmp_dir, "long.json", chatty_json);
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

static char *
read_output (const char *path)
{
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

/* Problems in the input: listed, exit 2, nothing written — a finished
 * output stays byte for byte, none is made when there was none. The
 * input without them: written. */
static void
test_cli (void)
{
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "short.json", terse_json);
  g_autofree char *clean_sql_path = grammar_test_write_file (tmp_dir, "clean_sql_templates.json",
                                                             clean_sql_templates_json);
  g_autofree char *clean_terse_path = grammar_test_write_file (tmp_dir, "clean/short.json", clean_terse_json);
  g_autofree char *output = g_build_filename (tmp_dir, "imported.json", NULL);
  g_autofree char *not_created = g_strdup_printf ("4 problems in the input (listed above); nothing written, %s "
                                                  "not created", output);
  g_autofree char *left = g_strdup_printf ("4 problems in the input (listed above); nothing written, %s "
                                           "left as it was", output);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;

  {
    g_auto (GrammarTestRun) run = { 0, };

    grammar_test_run (&run, tmp_dir, "import", "--from", "grammar-py", sql_path, terse_path, "-o", output,
                      "-c", config_path, NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_cmpstr (run.out, ==, "");
    grammar_test_assert_contains (run.err, "no such column: Pages");
    grammar_test_assert_contains (run.err, "lacks the placeholder");
    grammar_test_assert_contains (run.err, not_created);
    g_assert_null (strstr (run.err, "written to"));
    g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  }

  {
    g_auto (GrammarTestRun) run = { 0, };

    grammar_test_run (&run, tmp_dir, "import", "--from", "grammar-py", clean_sql_path, clean_terse_path,
                      "-o", output, "-c", config_path, NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "");
    grammar_test_assert_contains (run.err, "5 SQL template(s) and 6 text template(s) (styles: short) written to");
  }
  /* What it wrote loads cleanly against the database. */
  g_assert_true (grammar_template_set_load (set, output, database, NULL, &problems, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 5);
  g_assert_cmpuint (grammar_template_set_get_text_templates (set)->len, ==, 6);
  g_assert_cmpint (grammar_sql_template_get_origin (g_ptr_array_index (grammar_template_set_get_sql_templates (set), 0)),
                   ==, GRAMMAR_TEMPLATE_ORIGIN_IMPORT);

  before = read_output (output);
  {
    g_auto (GrammarTestRun) run = { 0, };

    grammar_test_run (&run, tmp_dir, "import", "--from", "grammar-py", sql_path, terse_path, "-o", output,
                      "-c", config_path, NULL);
    g_assert_cmpint (run.status, ==, 2);
    grammar_test_assert_contains (run.err, left);
  }
  after = read_output (output);
  g_assert_cmpstr (after, ==, before);
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
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "clean_sql_templates.json", clean_sql_templates_json);
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "clean/short.json", clean_terse_json);
  g_autofree char *imported = g_build_filename (tmp_dir, "for-qa.json", NULL);
  g_autofree char *dataset = g_build_filename (tmp_dir, "short.jsonl", NULL);
  g_autofree char *copies = id_of ("SELECT s.Copies FROM shelf s JOIN book b ON b.Book_ID = s.Book_ID "
                                   "WHERE b.Title = '[book.Title]' AND s.Room = '[shelf.Room]'");
  g_autoptr (GHashTable) per_template = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) answers = NULL;
  g_auto (GrammarTestRun) import_run = { 0, };
  g_auto (GrammarTestRun) qa_run = { 0, };

  grammar_test_run (&import_run, tmp_dir, "import", "--from", "grammar-py", sql_path, terse_path, "-o", imported,
                    "-c", config_path, "-q", NULL);
  if (import_run.status != 0)
    g_error ("grammar import failed: %s", import_run.err);
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
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "short.json", terse_json);
  g_autofree char *pages_path = grammar_test_write_file (tmp_dir, "pages.json",
    "{\"SELECT Pages FROM book WHERE Title = '[book.Title]';\": [\"Pages of [book.Title]?\"]}\n");
  g_autofree char *output = g_build_filename (tmp_dir, "styled.json", NULL);
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) styles = NULL;

  /* A text template lacking its placeholder: reported even with -q, and
   * nothing written. */
  {
    g_auto (GrammarTestRun) run = { 0, };

    grammar_test_run (&run, tmp_dir, "import", "--from=grammar-py", "--style", "short", "-q", terse_path,
                      "-o", output, NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_null (strstr (run.err, "written to"));
    grammar_test_assert_contains (run.err, "lacks the placeholder");
    grammar_test_assert_contains (run.err, "nothing written");
    g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  }

  /* Without -c nothing is validated: the Pages template is imported. */
  {
    g_auto (GrammarTestRun) run = { 0, };

    grammar_test_run (&run, tmp_dir, "import", "--from=grammar-py", "--style", "short", "-q", pages_path,
                      "-o", output, NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==, "");
  }
  g_assert_true (grammar_template_set_load (set, output, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, ==, 1);
  g_assert_cmpstr (grammar_sql_template_get_sql (g_ptr_array_index (grammar_template_set_get_sql_templates (set), 0)),
                   ==, "SELECT Pages FROM book WHERE Title = '[book.Title]'");
  styles = grammar_template_set_dup_styles (set);
  g_assert_cmpstr (styles[0], ==, "short");
}

static void
test_cli_errors (void)
{
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  g_autofree char *qa_path = grammar_test_write_file (tmp_dir, "short.json", "[[[\"[('Oil',)]\", [\"What?\"]]]]");
  g_autofree char *empty_path = grammar_test_write_file (tmp_dir, "empty.json", "{}");
  /* text templates whose style, taken from the file's name, is none of the known ones */
  g_autofree char *terse_path = grammar_test_write_file (tmp_dir, "terse.json", terse_json);
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
    { { "--from", "grammar-py", sql_path, terse_path, "-o", output },
      "terse.json: unknown text style “terse”; the styles are short, long, interrogative, directive, formal, "
      "casual (the style is the file's name: give it with --style)" },
    { { "--from", "grammar-py", "--style", "shouty", sql_path, terse_path, "-o", output },
      "terse.json: unknown text style “shouty”; the styles are short, long, interrogative, directive, formal, "
      "casual\n" },
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

/* Evaluation results of the Python tool (eval_results/results_STYLE_….json). */

static const char results_json[] =
  "[\n"
  "  {\"query\": \"Industry of A?\", \"answer\": \"Oil\", \"true_document_ids\": [1],\n"
  "   \"retrieved_documents\": \"A drills.\", \"gpt_response\": [\"Oil and gas.\", \"ignored\"],\n"
  "   \"retrieval_judgement\": 1, \"retrieved_document_ids\": [1, 3], \"query_tag\": 0,\n"
  "   \"judgement\": \"Correct\", \"closed_domain\": true},\n"
  "  {\"query\": \"Industry of the company A?\", \"answer\": \"Oil\", \"true_document_ids\": [1],\n"
  "   \"gpt_response\": \"No idea\", \"retrieval_judgement\": 0, \"retrieved_document_ids\": [2],\n"
  "   \"query_tag\": 0, \"judgement\": \"incorrect\"},\n"
  "  {\"query\": \"Sales of B?\", \"answer\": 433.5, \"true_document_ids\": [2], \"gpt_response\": null,\n"
  "   \"query_tag\": 1},\n"
  "  {\"query\": \"Which companies?\", \"answer\": [\"A\", \"B\"], \"true_document_ids\": [\"x\"],\n"
  "   \"gpt_response\": [], \"query_tag\": 2, \"judgement\": null, \"retrieval_judgement\": null,\n"
  "   \"extra\": {\"k\": 1}}\n"
  "]\n";

static char *
record_json (GrammarRecord *record,
             const char    *member)
{
  g_autoptr (JsonNode) node = grammar_record_to_json (record);
  JsonNode *value = json_object_get_member (json_node_get_object (node), member);

  return value != NULL ? json_to_string (value, FALSE) : NULL;
}

static void
test_results (void)
{
  g_autofree char *path = grammar_test_write_file (tmp_dir, "results_short_balanced.json", results_json);
  const char *paths[] = { path, NULL };
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *answer0 = NULL, *answer2 = NULL, *answer3 = NULL;
  g_autofree char *closed = NULL, *documents = NULL, *extra = NULL, *retrieved = NULL, *judge = NULL;
  GrammarRecord *record;
  GrammarVerdict *verdict;

  g_assert_true (grammar_py_import_results (paths, NULL, &records, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (records->len, ==, 4);

  record = g_ptr_array_index (records, 0);
  g_assert_cmpstr (grammar_record_get_id (record), ==, "short-0");
  g_assert_cmpstr (grammar_record_get_group (record), ==, "q0");
  g_assert_cmpstr (grammar_record_get_style (record), ==, "short");
  g_assert_cmpstr (grammar_record_get_text (record), ==, "Industry of A?");
  answer0 = record_json (record, "answer");
  g_assert_cmpstr (answer0, ==, "[[\"Oil\"]]");
  g_assert_cmpstr (grammar_record_get_doc_ids (record)[0], ==, "1");
  g_assert_cmpstr (grammar_record_get_response (record), ==, "Oil and gas.");
  retrieved = record_json (record, "retrieved");
  g_assert_cmpstr (retrieved, ==, "[{\"id\":\"1\",\"score\":0.0},{\"id\":\"3\",\"score\":0.0}]");
  verdict = grammar_record_get_verdict (record);
  g_assert_cmpint (grammar_verdict_get_kind (verdict), ==, GRAMMAR_VERDICT_CORRECT);
  judge = record_json (record, "judge");
  g_assert_cmpstr (judge, ==, "{\"matcher\":\"grammar-py\",\"score\":1.0,\"reason\":\"imported judgement\"}");
  g_assert_cmpint (grammar_record_get_retrieval_verdict (record), ==, GRAMMAR_VERDICT_CORRECT);
  closed = record_json (record, "closed_domain");
  documents = record_json (record, "retrieved_documents");
  g_assert_cmpstr (closed, ==, "true");
  g_assert_cmpstr (documents, ==, "\"A drills.\"");

  record = g_ptr_array_index (records, 1);
  g_assert_cmpint (grammar_verdict_get_kind (grammar_record_get_verdict (record)), ==, GRAMMAR_VERDICT_INCORRECT);
  g_assert_cmpfloat (grammar_verdict_get_score (grammar_record_get_verdict (record)), ==, 0.0);
  g_assert_cmpint (grammar_record_get_retrieval_verdict (record), ==, GRAMMAR_VERDICT_INCORRECT);
  g_assert_cmpstr (grammar_record_get_response (record), ==, "No idea");

  record = g_ptr_array_index (records, 2);
  answer2 = record_json (record, "answer");
  g_assert_cmpstr (answer2, ==, "[[433.5]]");
  g_assert_null (grammar_record_get_response (record));
  g_assert_null (grammar_record_get_retrieved (record));
  g_assert_cmpint (grammar_verdict_get_kind (grammar_record_get_verdict (record)), ==, GRAMMAR_VERDICT_UNMEASURED);
  g_assert_cmpint (grammar_record_get_retrieval_verdict (record), ==, GRAMMAR_VERDICT_UNMEASURED);

  record = g_ptr_array_index (records, 3);
  answer3 = record_json (record, "answer");
  g_assert_cmpstr (answer3, ==, "[[\"A\"],[\"B\"]]");
  g_assert_null (grammar_record_get_response (record));
  g_assert_cmpint (grammar_verdict_get_kind (grammar_record_get_verdict (record)), ==, GRAMMAR_VERDICT_UNMEASURED);
  extra = record_json (record, "extra");
  g_assert_cmpstr (extra, ==, "{\"k\":1}");
}

static void
test_results_style (void)
{
  g_autofree char *short_path = grammar_test_write_file (tmp_dir, "results_short_balanced.json", results_json);
  g_autofree char *plain_path = grammar_test_write_file (tmp_dir, "my-results.json", results_json);
  const char *short_paths[] = { short_path, NULL };
  const char *plain_paths[] = { plain_path, NULL };
  const char *both_paths[] = { short_path, short_path, NULL };
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (grammar_py_import_results (short_paths, "terse", &records, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_record_get_id (g_ptr_array_index (records, 3)), ==, "terse-3");
  g_assert_cmpstr (grammar_record_get_style (g_ptr_array_index (records, 3)), ==, "terse");
  g_clear_pointer (&records, g_ptr_array_unref);

  /* no style in the name: ids from the file stem, no style */
  g_assert_true (grammar_py_import_results (plain_paths, NULL, &records, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_record_get_id (g_ptr_array_index (records, 0)), ==, "my-results-0");
  g_assert_null (grammar_record_get_style (g_ptr_array_index (records, 0)));
  g_clear_pointer (&records, g_ptr_array_unref);

  /* two files of one style would make the same ids */
  g_assert_false (grammar_py_import_results (both_paths, NULL, &records, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "item 0: its id “short-0” is also made from");
  g_assert_null (records);
}

static void
test_results_bad (void)
{
  struct
  {
    const char *json;
    const char *message;
  } cases[] = {
    { "[{\"query_tag\": 0, \"judgement\": \"Correct\"}, {\"query_tag\": 0, \"judgement\": \"Maybe\"}]",
      "item 1: unknown judgement “Maybe” (expected Correct or Incorrect)" },
    { "[{\"query_tag\": 0, \"judgement\": 1}]", "item 0: unknown judgement" },
    { "[{\"query_tag\": 0, \"retrieval_judgement\": 2}]", "item 0: “retrieval_judgement” must be 1, 0 or null" },
    { "[{\"query_tag\": [0]}]", "item 0: “query_tag” must be a number or a string" },
    { "[{\"query_tag\": 0, \"gpt_response\": 5}]", "item 0: “gpt_response” must be" },
    { "[{\"query_tag\": 0, \"answer\": {\"a\": 1}}]", "item 0: “answer” must be" },
    { "[{\"query_tag\": 0}, 3]", "item 1: not a JSON object" },
    { "{\"query_tag\": 0}", "not an evaluation results file" },
    { "[{\"query_tag\": 0", "results_bad_x.json:" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = grammar_test_write_file (tmp_dir, "results_bad_x.json", cases[i].json);
      const char *paths[] = { path, NULL };
      g_autoptr (GPtrArray) records = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_false (grammar_py_import_results (paths, NULL, &records, &error));
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      grammar_test_assert_contains (error->message, path);
      grammar_test_assert_contains (error->message, cases[i].message);
    }
}

/* grammar import tells results from templates, and `grammar report`'s
 * evaluation reads what it writes. */
static void
test_cli_results (void)
{
  g_autofree char *path = grammar_test_write_file (tmp_dir, "results_long_balanced.json", results_json);
  g_autofree char *output = g_build_filename (tmp_dir, "long.judged.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GrammarTestRun) run = { 0, };

  grammar_test_run (&run, tmp_dir, "import", "--from", "grammar-py", path, "-o", output, NULL);
  g_assert_cmpint (run.status, ==, 0);
  grammar_test_assert_contains (run.err, "4 judged record(s) written to");
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_cmpstr (lines[4], ==, "");
  g_assert_true (g_str_has_prefix (lines[0], "{\"id\":\"long-0\",\"group\":\"q0\",\"style\":\"long\","));

  evaluation = grammar_evaluation_load (output, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_evaluation_get_instances (evaluation), ==, 4);
  g_assert_cmpuint (grammar_evaluation_get_unmeasured (evaluation), ==, 2);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "non_robust"), ==, 1);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "unmeasured"), ==, 2);
  g_assert_cmpfloat (grammar_evaluation_get_robustness (evaluation), ==, 0.5);
}

static void
test_cli_results_errors (void)
{
  g_autofree char *results = grammar_test_write_file (tmp_dir, "results_short_balanced.json", results_json);
  g_autofree char *bad = grammar_test_write_file (tmp_dir, "results_bad_y.json",
                                                  "[{\"query_tag\": 0, \"judgement\": \"Maybe\"}]");
  g_autofree char *sql_path = grammar_test_write_file (tmp_dir, "sql_templates.json", sql_templates_json);
  g_autofree char *output = g_build_filename (tmp_dir, "never.jsonl", NULL);
  struct
  {
    const char *args[8];
    const char *message;
  } cases[] = {
    { { "--from", "grammar-py", sql_path, results, "-o", output }, "not an evaluation results file" },
    { { "--from", "grammar-py", bad, "-o", output }, "item 0: unknown judgement “Maybe”" },
    { { "--from", "grammar-py", results, "-o", output, "-c", config_path }, "-c is for template files" },
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

/* Fixture. */

static void
open_fixture (void)
{
  g_autofree char *script = grammar_test_write_file (tmp_dir, "fixture.sql", fixture_sql);
  g_autofree char *clean_dir = g_build_filename (tmp_dir, "clean", NULL);
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GError) error = NULL;

  config_path = grammar_test_write_file (tmp_dir, "test.ini", "[database]\nplugin=sqlite\nscript=fixture.sql\n");
  /* the clean fixtures, named like the Python tool's files */
  g_assert_cmpint (g_mkdir_with_parents (clean_dir, 0755), ==, 0);
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
  g_test_add_func ("/import/results", test_results);
  g_test_add_func ("/import/results/style", test_results_style);
  g_test_add_func ("/import/results/bad", test_results_bad);
  g_test_add_func ("/import/cli/results", test_cli_results);
  g_test_add_func ("/import/cli/results-errors", test_cli_results_errors);

  status = g_test_run ();

  g_clear_object (&database);
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  g_free (config_path);
  return status;
}
