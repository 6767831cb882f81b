/* test-json-inputs.c: every number valid JSON, every input checked first
 *
 * The reproductions of issue 15, part 7, each through the command line:
 * a REAL 1e20 and ±Inf through `grammar run` (qa, rag, judge, report)
 * with valid JSON in every file; a JSONL line and a template file nested
 * 70,000 levels deep; an output that is one of the inputs (also through
 * a symlink); a failed qa that must leave a finished dataset as it was; a
 * resume on a damaged output; a keyfile with a section or a key written
 * twice; and `grammar run` checking its keyfile before its first stage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

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

/* A text template naming an unknown SQL template: qa exits 2 and the
 * finished dataset stays byte for byte. */
static void
test_failed_qa_keeps_output (void)
{
  g_autofree char *templates = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *bad = NULL;
  g_autoptr (GRegex) regex = g_regex_new ("\"template\" : \"s[0-9a-f]+\"", 0, 0, NULL);
  g_auto (GrammarTestRun) good = { 0 }, failed = { 0 };

  ensure_run ();
  copy_file ("out/short.text-templates.json", "good.json");
  grammar_test_run (&good, tmp_dir, "qa", "-c", "run.ini", "-i", "good.json", "-o", "k.jsonl", NULL);
  g_assert_cmpint (good.status, ==, 0);
  before = read_file ("k.jsonl");
  g_assert_cmpuint (strlen (before), >, 0);

  templates = read_file ("good.json");
  /* the first "template" : "s…" is in the text templates: the SQL
   * templates have ids, not templates */
  bad = g_regex_replace_literal (regex, templates, -1, 0, "\"template\" : \"nosuch\"", G_REGEX_MATCH_DEFAULT, NULL);
  g_assert_cmpstr (bad, !=, templates);
  write_file ("bad.json", bad);
  grammar_test_run (&failed, tmp_dir, "qa", "-c", "run.ini", "-i", "bad.json", "-o", "k.jsonl", NULL);
  g_assert_cmpint (failed.status, ==, 2);
  grammar_test_assert_contains (failed.err, "unknown SQL template “nosuch”");
  grammar_test_assert_contains (failed.err, "nothing written, k.jsonl left as it was");
  after = read_file ("k.jsonl");
  g_assert_cmpstr (after, ==, before);
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
  g_test_add_func ("/json-inputs/damaged-resume", test_damaged_resume);
  g_test_add_func ("/json-inputs/keyfile-duplicates", test_keyfile_duplicates);
  g_test_add_func ("/json-inputs/run-checks-first", test_run_checks_first);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
