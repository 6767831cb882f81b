/* test-json-inputs.c: every number valid JSON, every input checked first
 *
 * The reproductions of issue 15, part 7, each through the command line:
 * a REAL 1e20 and ±Inf through `grammar run` (qa, rag, judge, report)
 * with valid JSON in every file; a JSONL line and a template file nested
 * 70,000 levels deep; an output that is one of the inputs (also through
 * a symlink); a failed qa, text-templates or import that must leave a
 * finished output as it was, and make none when there was none; a
 * resume on a damaged output; a keyfile with a section or a key written
 * twice; and `grammar run` checking its keyfile before its first stage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmp_dir;

static const char script[] =
  "CREATE TABLE company (company_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT, revenue REAL);\n"
  "INSERT INTO company VALUES (1, 'Acme Rockets', 'Lyon', 1e20), (2, 'Blue Fern', 'Porto', 9e999),\n"
  "  (3, 'Cobalt', 'Oslo', -9e999), (4, 'Dune', 'Cairo', 0.1);\n";

static const char config[] =
  "[database]\nplugin=sqlite\nscript=company.sql\n\n"
  "[documents]\ntables=company\n"
  "company.title={name}\n"
  "company.text={name} is a company in {city} with revenue {revenue}.\n\n"
  "[system]\nplugin=pipeline\nretriever=retriever\ngenerator=reader\n\n"
  "[retriever]\nplugin=keyword\ndocuments=out/documents.jsonl\ntop-k=1\n\n"
  "[reader]\nplugin=extractive\n\n"
  "[matcher]\nplugin=contains\n";

static char *
path_of (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
read_file (const char *name)
{
  g_autofree char *path = path_of (name);
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    g_error ("cannot read %s", path);
  return contents;
}

static void
write_file (const char *name,
            const char *contents)
{
  g_free (grammar_test_write_file (tmp_dir, name, contents));
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *contents = read_file (from);

  write_file (to, contents);
}

/* The method's files, made once: the other tests take their inputs from
 * them. */
static void
ensure_run (void)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_autofree char *report = path_of ("out/report.json");

  if (g_file_test (report, G_FILE_TEST_EXISTS))
    return;
  write_file ("company.sql", script);
  write_file ("run.ini", config);
  grammar_test_run (&run, tmp_dir, "run", "-c", "run.ini", "-d", "out", "-q", NULL);
  if (run.status != 0)
    g_error ("grammar run failed (%d): %s", run.status, run.err);
}

/* Every line (or the whole file) parses as strict JSON: json-glib's own
 * generator wrote "1e+20.0" and "inf.0", which its parser rejects. */
static void
assert_valid_json (const char *name,
                   gboolean    lines)
{
  g_autofree char *contents = read_file (name);
  g_auto (GStrv) parts = lines ? g_strsplit (contents, "\n", -1) : g_strsplit (contents, "\x01", -1);
  guint n = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;

      if (*parts[i] == '\0')
        continue;
      if (!json_parser_load_from_data (parser, parts[i], -1, &error))
        g_error ("%s:%u: %s", name, i + 1, error->message);
      n++;
    }
  g_assert_cmpuint (n, >, 0);
  g_assert_null (strstr (contents, "e+20.0"));
  g_assert_null (strstr (contents, "inf.0"));
  g_assert_null (strstr (contents, "nan.0"));
}

static void
test_numbers (void)
{
  const char *jsonl[] = { "short.dataset.jsonl", "short.results.jsonl", "short.judged.jsonl",
                          "long.dataset.jsonl", "long.results.jsonl", "long.judged.jsonl", "documents.jsonl" };
  const char *json[] = { "report.json", "manifest.json", "sql-templates.json", "short.text-templates.json" };
  g_autofree char *dataset = NULL;
  g_autofree char *judged = NULL;

  ensure_run ();
  for (guint i = 0; i < G_N_ELEMENTS (jsonl); i++)
    {
      g_autofree char *name = g_build_filename ("out", jsonl[i], NULL);

      assert_valid_json (name, TRUE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autofree char *name = g_build_filename ("out", json[i], NULL);

      assert_valid_json (name, FALSE);
    }

  /* The shortest round-trip form, and infinities as documented strings;
   * the judged file carries the answers qa wrote, through rag. */
  dataset = read_file ("out/short.dataset.jsonl");
  judged = read_file ("out/short.judged.jsonl");
  grammar_test_assert_contains (dataset, "\"answer\":[[1e+20]]");
  grammar_test_assert_contains (dataset, "\"answer\":[[0.1]]");
  grammar_test_assert_contains (dataset, "\"answer\":[[\"Infinity\"]]");
  grammar_test_assert_contains (dataset, "\"answer\":[[\"-Infinity\"]]");
  grammar_test_assert_contains (judged, "\"answer\":[[1e+20]]");
  grammar_test_assert_contains (judged, "\"answer\":[[\"Infinity\"]]");
  grammar_test_assert_contains (judged, "\"answer\":[[\"-Infinity\"]]");
}

/* A line of 70,000 "[": json-glib's recursive parser ran out of stack. */
static char *
deep_json (guint levels)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < levels; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < levels; i++)
    g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

static void
test_deep_nesting (void)
{
  g_autofree char *deep = deep_json (70000);
  g_autofree char *line = g_strconcat ("{\"id\": \"x\", \"answer\": ", deep, "}\n", NULL);
  g_autofree char *first = NULL;
  g_autofree char *shallow = NULL;
  g_autofree char *shallow_line = NULL;

  ensure_run ();
  /* The deep line second: the message names its line. */
  first = read_file ("out/short.judged.jsonl");
  *strchr (first, '\n') = '\0';
  {
    g_autofree char *contents = g_strconcat (first, "\n", line, NULL);

    write_file ("deep.jsonl", contents);
  }
  write_file ("deep.json", line);

  {
    g_auto (GrammarTestRun) rag = { 0 }, judge = { 0 }, report = { 0 }, qa = { 0 };

    grammar_test_run (&rag, tmp_dir, "rag", "-c", "run.ini", "-i", "deep.jsonl", "-o", "deep-results.jsonl", NULL);
    g_assert_cmpint (rag.status, ==, 2);
    grammar_test_assert_contains (rag.err, "deep.jsonl:2: JSON nested deeper than 64 levels");
    grammar_test_run (&judge, tmp_dir, "judge", "-c", "run.ini", "-i", "deep.jsonl", "-o", "deep-judged.jsonl",
                      NULL);
    g_assert_cmpint (judge.status, ==, 2);
    grammar_test_assert_contains (judge.err, "deep.jsonl:2: JSON nested deeper than 64 levels");
    grammar_test_run (&report, tmp_dir, "report", "-i", "deep.jsonl", NULL);
    g_assert_cmpint (report.status, ==, 2);
    grammar_test_assert_contains (report.err, "deep.jsonl:2: JSON nested deeper than 64 levels");
    /* a whole JSON file: the text templates qa reads */
    grammar_test_run (&qa, tmp_dir, "qa", "-c", "run.ini", "-i", "deep.json", "-o", "deep-dataset.jsonl", NULL);
    g_assert_cmpint (qa.status, ==, 2);
    grammar_test_assert_contains (qa.err, "deep.json:1: JSON nested deeper than 64 levels");
  }

  /* 64 levels are read (and found wrong for other reasons): the limit
   * is not one below what it says. */
  shallow = deep_json (63);
  shallow_line = g_strconcat ("{\"id\": \"x\", \"answer\": ", shallow, "}\n", NULL);
  write_file ("shallow.jsonl", shallow_line);
  {
    g_auto (GrammarTestRun) report = { 0 };

    grammar_test_run (&report, tmp_dir, "report", "-i", "shallow.jsonl", NULL);
    g_assert_cmpint (report.status, ==, 2);
    g_assert_null (strstr (report.err, "nested deeper"));
  }
}

static void
assert_refused (const char *needle,
                ...)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, needle);
  for (const char *arg = va_arg (ap, const char *); arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  grammar_test_runv (&run, tmp_dir, (const char * const *) args->pdata);
  g_assert_cmpint (run.status, ==, 2);
  grammar_test_assert_contains (run.err, needle);
}

static void
test_output_is_input (void)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *link = path_of ("link.jsonl");
  g_autofree char *templates_before = NULL;
  g_autofree char *templates_after = NULL;

  ensure_run ();
  copy_file ("out/short.judged.jsonl", "j.jsonl");
  copy_file ("out/short.text-templates.json", "tt.json");
  copy_file ("out/sql-templates.json", "sql.json");
  g_unlink (link);
  g_assert_cmpint (symlink ("j.jsonl", link), ==, 0);
  before = read_file ("j.jsonl");
  templates_before = read_file ("tt.json");

  assert_refused ("j.jsonl: the output must not be the input j.jsonl",
                  "report", "-i", "j.jsonl", "-o", "j.jsonl", NULL);
  assert_refused ("link.jsonl: the output must not be the input j.jsonl",
                  "report", "-i", "j.jsonl", "-o", "link.jsonl", NULL);
  assert_refused ("link.jsonl: the output must not be the input j.jsonl",
                  "report", "-i", "out/short.judged.jsonl", "--against", "j.jsonl", "-o", "link.jsonl", NULL);
  assert_refused ("tt.json: the output must not be the input tt.json",
                  "qa", "-c", "run.ini", "-i", "tt.json", "-o", "tt.json", NULL);
  assert_refused ("run.ini: the output must not be the input run.ini",
                  "qa", "-c", "run.ini", "-i", "tt.json", "-o", "run.ini", NULL);
  assert_refused ("run.ini: the output must not be the input run.ini",
                  "text-templates", "-c", "run.ini", "-i", "sql.json", "-o", "run.ini", "--style", "short", NULL);
  assert_refused ("run.ini: the output must not be the input run.ini",
                  "sql-templates", "-c", "run.ini", "-o", "run.ini", NULL);
  assert_refused ("run.ini: the output must not be the input run.ini",
                  "docs", "-c", "run.ini", "-o", "run.ini", NULL);
  assert_refused ("run.ini: the output must not be the input run.ini",
                  "rag", "-c", "run.ini", "-i", "out/short.dataset.jsonl", "-o", "run.ini", NULL);
  assert_refused ("link.jsonl: the output must not be the input j.jsonl",
                  "judge", "-c", "run.ini", "-i", "j.jsonl", "-o", "link.jsonl", NULL);
  assert_refused ("sql.json: the output must not be the input sql.json",
                  "import", "--from", "grammar-py", "-o", "sql.json", "sql.json", NULL);

  after = read_file ("j.jsonl");
  g_assert_cmpstr (after, ==, before);
  templates_after = read_file ("tt.json");
  g_assert_cmpstr (templates_after, ==, templates_before);
}

/* Runs the NULL-terminated arguments after @place: a command whose input
 * has a problem. It must exit 2 naming @place, without writing @output. */
static void
run_refused (const char *output,
             const char *place,
             va_list     ap)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *path = path_of (output);
  g_autofree char *base = g_path_get_basename (output);
  g_autofree char *temporary = g_strconcat (".", base, ".", NULL);
  g_autofree char *lock = g_strconcat (base, ".lock", NULL);
  g_autofree char *dir_path = g_path_get_dirname (path);
  g_autoptr (GDir) dir = NULL;
  g_autofree char *expected = NULL;
  gboolean existed = g_file_test (path, G_FILE_TEST_EXISTS);
  const char *name;

  for (const char *arg = va_arg (ap, const char *); arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  g_ptr_array_add (args, NULL);
  grammar_test_runv (&run, tmp_dir, (const char * const *) args->pdata);
  if (run.status != 2)
    g_error ("%s: exit %d, stderr:\n%s", (const char *) args->pdata[0], run.status, run.err);
  grammar_test_assert_contains (run.err, place);
  expected = g_strdup_printf ("nothing written, %s %s\n", output, existed ? "left as it was" : "not created");
  grammar_test_assert_contains (run.err, expected);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS) == existed);

  /* no temporary file (.NAME.XXXXXX) nor lock file left beside it */
  dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, temporary) || g_str_equal (name, lock))
      g_error ("%s left %s behind", (const char *) args->pdata[0], name);
}

/* @output, a finished file, stays byte for byte through the command that
 * follows @place. */
static void
assert_keeps_output (const char *output,
                     const char *place,
                     ...)
{
  g_autofree char *before = read_file (output);
  g_autofree char *after = NULL;
  va_list ap;

  g_assert_cmpuint (strlen (before), >, 0);
  va_start (ap, place);
  run_refused (output, place, ap);
  va_end (ap);
  after = read_file (output);
  g_assert_cmpstr (after, ==, before);
}

/* No @output is made by the command that follows @place. */
static void
assert_makes_no_output (const char *output,
                        const char *place,
                        ...)
{
  g_autofree char *path = path_of (output);
  va_list ap;

  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  va_start (ap, place);
  run_refused (output, place, ap);
  va_end (ap);
}

static char *
template_id (const char *sql)
{
  g_autoptr (GrammarSqlTemplate) sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, NULL);

  g_assert_nonnull (sql_template);
  return g_strdup (grammar_sql_template_get_id (sql_template));
}

/* A text template naming an unknown SQL template: qa exits 2 and the
 * finished dataset stays byte for byte; without one, none is made. */
static void
test_failed_qa_keeps_output (void)
{
  g_autofree char *templates = NULL;
  g_autofree char *bad = NULL;
  g_autoptr (GRegex) regex = g_regex_new ("\"template\" : \"s[0-9a-f]+\"", 0, 0, NULL);
  g_auto (GrammarTestRun) good = { 0 };

  ensure_run ();
  copy_file ("out/short.text-templates.json", "good.json");
  grammar_test_run (&good, tmp_dir, "qa", "-c", "run.ini", "-i", "good.json", "-o", "k.jsonl", NULL);
  g_assert_cmpint (good.status, ==, 0);

  templates = read_file ("good.json");
  /* the first "template" : "s…" is in the text templates: the SQL
   * templates have ids, not templates */
  bad = g_regex_replace_literal (regex, templates, -1, 0, "\"template\" : \"nosuch\"", G_REGEX_MATCH_DEFAULT, NULL);
  g_assert_cmpstr (bad, !=, templates);
  write_file ("bad.json", bad);
  assert_keeps_output ("k.jsonl", "bad.json: text_templates[0]: unknown SQL template “nosuch”",
                       "qa", "-c", "run.ini", "-i", "bad.json", "-o", "k.jsonl", NULL);
  assert_makes_no_output ("k-new.jsonl", "bad.json: text_templates[0]: unknown SQL template “nosuch”",
                          "qa", "-c", "run.ini", "-i", "bad.json", "-o", "k-new.jsonl", NULL);
}

/* text-templates with an invalid SQL template, or a text template naming
 * an unknown one, in its input: exit 2, the finished file stays byte for
 * byte (also when it is the input, -i t.json -o t.json), none is made
 * when there was none; with the input fixed, the same command writes. */
static void
test_failed_text_templates_keeps_output (void)
{
  const char *nosuch = "SELECT nosuch FROM company WHERE name = '[company.name]'";
  g_autofree char *id = template_id (nosuch);
  g_autofree char *sql_place = g_strdup_printf ("bad-sql.json: template %s: no such column: nosuch", id);
  g_autofree char *sql = NULL;
  g_autofree char *bad_sql = NULL;
  g_autofree char *text = NULL;
  g_autofree char *bad_text = NULL;
  g_autofree char *made = NULL;
  g_autoptr (GRegex) regex = g_regex_new ("\"template\" : \"s[0-9a-f]+\"", 0, 0, NULL);
  g_auto (GrammarTestRun) good = { 0 }, again = { 0 };

  ensure_run ();
  grammar_test_run (&good, tmp_dir, "text-templates", "-c", "run.ini", "-i", "out/sql-templates.json",
                    "-o", "tt-out.json", "--style", "short", "-q", NULL);
  g_assert_cmpint (good.status, ==, 0);

  /* an SQL template reading a column company lacks, after the valid ones */
  sql = read_file ("out/sql-templates.json");
  g_assert_true (g_str_has_suffix (sql, "}\n]\n"));
  sql[strlen (sql) - strlen ("\n]\n")] = '\0';
  bad_sql = g_strdup_printf ("%s,\n  {\"sql\": \"%s\"}\n]\n", sql, nosuch);
  write_file ("bad-sql.json", bad_sql);
  assert_keeps_output ("tt-out.json", sql_place,
                       "text-templates", "-c", "run.ini", "-i", "bad-sql.json", "-o", "tt-out.json",
                       "--style", "long", NULL);
  assert_makes_no_output ("tt-new.json", sql_place,
                          "text-templates", "-c", "run.ini", "-i", "bad-sql.json", "-o", "tt-new.json",
                          "--style", "short", NULL);

  /* a text template of another style naming an unknown SQL template,
   * in the file that is both input and output */
  text = read_file ("tt-out.json");
  bad_text = g_regex_replace_literal (regex, text, -1, 0, "\"template\" : \"nosuch\"", G_REGEX_MATCH_DEFAULT, NULL);
  g_assert_cmpstr (bad_text, !=, text);
  write_file ("tt-bad.json", bad_text);
  assert_keeps_output ("tt-bad.json", "tt-bad.json: text_templates[0]: unknown SQL template “nosuch”",
                       "text-templates", "-c", "run.ini", "-i", "tt-bad.json", "-o", "tt-bad.json",
                       "--style", "long", NULL);

  /* the input fixed, the same file takes the long texts */
  write_file ("tt-bad.json", text);
  grammar_test_run (&again, tmp_dir, "text-templates", "-c", "run.ini", "-i", "tt-bad.json", "-o", "tt-bad.json",
                    "--style", "long", "-q", NULL);
  g_assert_cmpint (again.status, ==, 0);
  made = read_file ("tt-bad.json");
  grammar_test_assert_contains (made, "\"style\" : \"long\"");
  grammar_test_assert_contains (made, "\"style\" : \"short\"");
}

/* import of the Python tool's template files with an invalid SQL
 * template, a text template whose placeholder its SQL template lacks, or
 * a file that is not JSON: exit 2, the finished file stays byte for
 * byte, none is made when there was none. */
static void
test_failed_import_keeps_output (void)
{
  const char *city = "SELECT city FROM company WHERE name = '[company.name]'";
  const char *nosuch = "SELECT nosuch FROM company WHERE name = '[company.name]'";
  g_autofree char *city_id = template_id (city);
  g_autofree char *nosuch_id = template_id (nosuch);
  g_autofree char *sql = g_strdup_printf ("{\"('company',)\": [\"%s\"]}\n", city);
  g_autofree char *bad_sql = g_strdup_printf ("{\"('company',)\": [\"%s\", \"%s\"]}\n", city, nosuch);
  g_autofree char *short_texts = g_strdup_printf ("{\"%s\": [\"City of [company.name]?\"]}\n", city);
  g_autofree char *bad_texts = g_strdup_printf ("{\"%s\": [\"City of [company.name]?\", \"City of [company.nme]?\"]}\n",
                                                city);
  g_autofree char *column_place = g_strdup_printf ("py-bad-sql.json: template %s: no such column: nosuch", nosuch_id);
  g_autofree char *text_place = g_strdup_printf ("bad/short.json: template %s: text template “City of "
                                                 "[company.nme]?” (style short): has a placeholder the SQL "
                                                 "template does not have: [company.nme]", city_id);
  g_auto (GrammarTestRun) good = { 0 };

  ensure_run ();
  {
    g_autofree char *bad_dir = path_of ("bad");

    g_assert_cmpint (g_mkdir_with_parents (bad_dir, 0755), ==, 0);
  }
  write_file ("py-sql.json", sql);
  write_file ("py-bad-sql.json", bad_sql);
  write_file ("short.json", short_texts);
  write_file ("bad/short.json", bad_texts);
  write_file ("py-broken.json", "{\"('company',)\": [");
  grammar_test_run (&good, tmp_dir, "import", "--from", "grammar-py", "-c", "run.ini", "-o", "imported.json",
                    "py-sql.json", "short.json", NULL);
  g_assert_cmpint (good.status, ==, 0);
  grammar_test_assert_contains (good.err, "1 SQL template(s) and 1 text template(s) (styles: short) written to "
                                "imported.json");

  assert_keeps_output ("imported.json", column_place,
                       "import", "--from", "grammar-py", "-c", "run.ini", "-o", "imported.json",
                       "py-bad-sql.json", "short.json", NULL);
  assert_keeps_output ("imported.json", text_place,
                       "import", "--from", "grammar-py", "-o", "imported.json", "py-sql.json", "bad/short.json", NULL);
  assert_makes_no_output ("import-new.json", column_place,
                          "import", "--from", "grammar-py", "-c", "run.ini", "-o", "import-new.json",
                          "py-bad-sql.json", "short.json", NULL);
  assert_makes_no_output ("import-new.json", text_place,
                          "import", "--from", "grammar-py", "-o", "import-new.json", "py-sql.json", "bad/short.json",
                          NULL);

  /* A file that is not JSON stops the import before anything is read. */
  {
    g_auto (GrammarTestRun) broken = { 0 };
    g_autofree char *before = read_file ("imported.json");
    g_autofree char *after = NULL;

    grammar_test_run (&broken, tmp_dir, "import", "--from", "grammar-py", "-o", "imported.json", "py-sql.json",
                      "py-broken.json", NULL);
    g_assert_cmpint (broken.status, ==, 2);
    grammar_test_assert_contains (broken.err, "py-broken.json:1:");
    after = read_file ("imported.json");
    g_assert_cmpstr (after, ==, before);
  }
}

/* Two writers left an id twice, or a blank line: resuming stops there. */
static void
test_damaged_resume (void)
{
  g_autofree char *results = NULL;
  g_autofree char *duplicated = NULL;
  g_autofree char *blank = NULL;
  char *second;

  ensure_run ();
  results = read_file ("out/short.results.jsonl");
  second = strchr (results, '\n') + 1;
  /* line 1 again after line 2 */
  {
    g_autofree char *line1 = g_strndup (results, second - results);
    g_autofree char *line2 = g_strndup (second, strchr (second, '\n') + 1 - second);

    duplicated = g_strconcat (line1, line2, line1, strchr (second, '\n') + 1, NULL);
    blank = g_strconcat (line1, "\n", second, NULL);
  }
  write_file ("dup-results.jsonl", duplicated);
  write_file ("blank-results.jsonl", blank);
  write_file ("dup-judged.jsonl", duplicated);

  {
    g_auto (GrammarTestRun) dup = { 0 }, gap = { 0 }, judge = { 0 };
    g_autofree char *after = NULL;

    grammar_test_run (&dup, tmp_dir, "rag", "-c", "run.ini", "-i", "out/short.dataset.jsonl",
                      "-o", "dup-results.jsonl", NULL);
    g_assert_cmpint (dup.status, ==, 2);
    grammar_test_assert_contains (dup.err, "dup-results.jsonl:3: id “");
    grammar_test_assert_contains (dup.err, "” is already on line 1");
    after = read_file ("dup-results.jsonl");
    g_assert_cmpstr (after, ==, duplicated);

    grammar_test_run (&gap, tmp_dir, "rag", "-c", "run.ini", "-i", "out/short.dataset.jsonl",
                      "-o", "blank-results.jsonl", NULL);
    g_assert_cmpint (gap.status, ==, 2);
    grammar_test_assert_contains (gap.err, "blank-results.jsonl:2: a blank line");

    /* judge shares the resume: its output damaged the same way */
    grammar_test_run (&judge, tmp_dir, "judge", "-c", "run.ini", "-i", "out/short.results.jsonl",
                      "-o", "dup-judged.jsonl", NULL);
    g_assert_cmpint (judge.status, ==, 2);
    grammar_test_assert_contains (judge.err, "dup-judged.jsonl:3: id “");
  }
}

/* GKeyFile merged them, and a GLib-CRITICAL followed (fatal here). */
static void
test_keyfile_duplicates (void)
{
  g_auto (GrammarTestRun) section = { 0 }, key = { 0 };

  write_file ("company.sql", script);
  write_file ("dup-section.ini", "[database]\nplugin=sqlite\nscript=company.sql\n\n[reader]\nplugin=extractive\n\n"
                                 "# again\n[reader]\nplugin=extractive\n");
  write_file ("dup-key.ini", "[database]\nplugin=sqlite\nscript=company.sql\n  plugin = sqlite\n");
  grammar_test_run (&section, tmp_dir, "schema", "-c", "dup-section.ini", NULL);
  g_assert_cmpint (section.status, ==, 2);
  grammar_test_assert_contains (section.err,
                                "dup-section.ini:9: section [reader] is written twice; the first is at dup-section.ini:5");
  g_assert_null (strstr (section.err, "CRITICAL"));
  grammar_test_run (&key, tmp_dir, "run", "-c", "dup-key.ini", "-d", "dup-out", NULL);
  g_assert_cmpint (key.status, ==, 2);
  grammar_test_assert_contains (key.err, "dup-key.ini:4: [database] plugin is set twice; the first is at dup-key.ini:2");
}

/* Each mistake stops `grammar run` before its first stage wrote. */
static void
test_run_checks_first (void)
{
  struct {
    const char *extra;
    const char *needle;
  } cases[] = {
    { "[run]\nstyles=bogus\n", "bad.ini: [run] styles: unknown text style “bogus”" },
    { "[run]\nstyles=\n", "bad.ini: [run] styles: no style given" },
    { "[run]\nstyles=short;short\n", "bad.ini: [run] styles: the style short is named twice" },
    { "[run]\nper-template=-1\n", "bad.ini: [run] per-template: “-1” is not a whole number" },
    { "[run]\nper-group=-2\n", "bad.ini: [run] per-group: “-2” is not a whole number" },
    { "[run]\nseed=-5\n", "bad.ini: [run] seed: “-5” is not a whole number" },
  };

  write_file ("company.sql", script);
  for (guint i = 0; i <= G_N_ELEMENTS (cases); i++)
    {
      g_auto (GrammarTestRun) run = { 0 };
      g_autofree char *outdir = path_of ("checked");
      g_autofree char *text = NULL;
      const char *needle;

      if (i < G_N_ELEMENTS (cases))
        {
          text = g_strconcat (config, "\n", cases[i].extra, NULL);
          needle = cases[i].needle;
        }
      else
        {
          /* a [documents] template naming a column the table lacks */
          text = g_strdup (config);
          g_assert_nonnull (strstr (text, "{city}"));
          memcpy (strstr (text, "{city}"), "{ctiy}", 6);
          needle = "bad.ini: [documents] company.text: unknown column “ctiy”";
        }
      write_file ("bad.ini", text);
      grammar_test_remove_tree (outdir);
      grammar_test_run (&run, tmp_dir, "run", "-c", "bad.ini", "-d", "checked", NULL);
      g_assert_cmpint (run.status, ==, 2);
      grammar_test_assert_contains (run.err, needle);
      g_assert_null (strstr (run.err, "$ grammar"));
      g_assert_false (g_file_test (outdir, G_FILE_TEST_EXISTS));
    }
}

int
main (int    argc,
      char **argv)
{
  int status;

  /* A GLib-CRITICAL in a command fails the test that ran it. */
  g_setenv ("G_DEBUG", "fatal-criticals", TRUE);
  g_test_init (&argc, &argv, NULL);
  tmp_dir = grammar_test_make_tmp_dir ("test-json-inputs-XXXXXX");

  g_test_add_func ("/json-inputs/numbers", test_numbers);
  g_test_add_func ("/json-inputs/deep-nesting", test_deep_nesting);
  g_test_add_func ("/json-inputs/output-is-input", test_output_is_input);
  g_test_add_func ("/json-inputs/failed-qa-keeps-output", test_failed_qa_keeps_output);
  g_test_add_func ("/json-inputs/failed-text-templates-keeps-output", test_failed_text_templates_keeps_output);
  g_test_add_func ("/json-inputs/failed-import-keeps-output", test_failed_import_keeps_output);
  g_test_add_func ("/json-inputs/damaged-resume", test_damaged_resume);
  g_test_add_func ("/json-inputs/keyfile-duplicates", test_keyfile_duplicates);
  g_test_add_func ("/json-inputs/run-checks-first", test_run_checks_first);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
