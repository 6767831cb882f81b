/* test-run.c: `grammar run`, the whole method in one command
 *
 * A small company database from SQL text, documents rendered from
 * templates, the keyword retriever and the extractive reader, the
 * contains matcher by default: every stage's file in the output folder,
 * the report with the comparison of short and long, a re-run that keeps
 * what is done, and bad input.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <grammar.h>

#include "grammar-test-util.h"

static char *tmp_dir;

static const char script[] =
  "CREATE TABLE company (company_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT, industry TEXT);\n"
  "CREATE TABLE person (person_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, age INTEGER,\n"
  "                     company_id INTEGER REFERENCES company (company_id));\n"
  "INSERT INTO company VALUES (1, 'Acme Rockets', 'Lyon', 'aerospace'), (2, 'Blue Fern', 'Porto', 'farming'),\n"
  "  (3, 'Cobalt & Sons', 'Oslo', 'mining'), (4, 'Dune O''Hara', 'Cairo', 'tourism');\n"
  "INSERT INTO person VALUES (1, 'Ana Lima', 34, 1), (2, 'Bo Chen', 41, 2), (3, 'Cy Diaz', 29, 3),\n"
  "  (4, 'Dee Eko', 52, 4), (5, 'Eli Fox', 38, 1);\n";

/* The retriever's documents= points nowhere: `grammar run` must give it
 * the corpus it writes. */
static const char config[] =
  "[database]\nplugin=sqlite\nscript=company.sql\n\n"
  "[documents]\ntables=company;person\n"
  "company.title={name}\n"
  "company.text={name} is a company in {city}, in the {industry} industry.\n"
  "person.title={name}\n"
  "person.text={name} is {age} years old and works for {company.name}.\n\n"
  "[system]\nplugin=pipeline\nretriever=retriever\ngenerator=reader\n\n"
  "[retriever]\nplugin=keyword\ndocuments=nowhere/documents.jsonl\ntop-k=1\n\n"
  "[reader]\nplugin=extractive\n";

static void
write_fixture (const char *extra)
{
  g_autofree char *text = g_strconcat (config, extra, NULL);

  g_free (grammar_test_write_file (tmp_dir, "company.sql", script));
  g_free (grammar_test_write_file (tmp_dir, "run.ini", text));
}

static gboolean
exists (const char *dir,
        const char *name)
{
  g_autofree char *path = g_build_filename (tmp_dir, dir, name, NULL);

  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

static char *
read_file (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (tmp_dir, dir, name, NULL);
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

static void
test_run_whole_method (void)
{
  g_auto (GrammarTestRun) first = { 0 };
  g_auto (GrammarTestRun) second = { 0 };
  const char *files[] = {
    "sql-templates.json", "documents.jsonl", "short.text-templates.json", "long.text-templates.json",
    "short.dataset.jsonl", "long.dataset.jsonl", "short.results.jsonl", "long.results.jsonl",
    "short.judged.jsonl", "long.judged.jsonl", "report.txt", "report.json", "report.md", "report.html",
  };
  g_autofree char *judged = NULL;
  g_autofree char *results = NULL;
  g_autofree char *report_json = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *report;
  JsonObject *comparison;

  write_fixture ("");
  grammar_test_run (&first, tmp_dir, "run", "-c", "run.ini", "-d", "out", NULL);
  if (first.status != 0)
    g_error ("grammar run failed (%d): %s", first.status, first.err);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    if (!exists ("out", files[i]))
      g_error ("out/%s missing", files[i]);

  /* the retriever found the corpus the run wrote: documents retrieved */
  results = read_file ("out", "short.results.jsonl");
  grammar_test_assert_contains (results, "\"retrieved\":[{\"id\":\"");
  /* judged by the default matcher, contains */
  judged = read_file ("out", "short.judged.jsonl");
  grammar_test_assert_contains (judged, "\"matcher\":\"contains\"");

  /* the report on stdout, comparing short with long */
  grammar_test_assert_contains (first.out, "short");
  grammar_test_assert_contains (first.out, "Conclusion:");
  report_json = read_file ("out", "report.json");
  g_assert_true (json_parser_load_from_data (parser, report_json, -1, NULL));
  report = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (report, "instances"), >, 0);
  g_assert_true (json_object_has_member (report, "robustness"));
  comparison = json_object_get_object_member (report, "comparison");
  g_assert_nonnull (comparison);
  g_assert_cmpint (json_object_get_int_member (comparison, "shared_groups"), >, 0);

  /* a second run keeps every generation stage and resumes rag and judge */
  grammar_test_run (&second, tmp_dir, "run", "-c", "run.ini", "-d", "out", NULL);
  g_assert_cmpint (second.status, ==, 0);
  grammar_test_assert_contains (second.err, "kept");
  grammar_test_assert_contains (second.err, "already in");
  g_assert_cmpstr (second.out, ==, first.out);
}

static void
test_run_styles_and_force (void)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_auto (GrammarTestRun) forced = { 0 };

  write_fixture ("\n[run]\nstyles=short\nper-template=2\n");
  grammar_test_run (&run, tmp_dir, "run", "-c", "run.ini", "-d", "one", "-q", NULL);
  if (run.status != 0)
    g_error ("grammar run failed (%d): %s", run.status, run.err);
  g_assert_true (exists ("one", "short.judged.jsonl"));
  g_assert_false (exists ("one", "long.judged.jsonl"));
  /* one style: no comparison */
  g_assert_null (strstr (run.out, "Conclusion:"));

  grammar_test_run (&forced, tmp_dir, "run", "-c", "run.ini", "-d", "one", "--force", NULL);
  g_assert_cmpint (forced.status, ==, 0);
  g_assert_null (strstr (forced.err, "kept"));
  g_assert_cmpstr (forced.out, ==, run.out);
}

static void
test_run_bad_input (void)
{
  g_auto (GrammarTestRun) unknown_key = { 0 };
  g_auto (GrammarTestRun) no_config = { 0 };
  g_auto (GrammarTestRun) bad_database = { 0 };

  write_fixture ("\n[run]\nstyle=short\n");
  grammar_test_run (&unknown_key, tmp_dir, "run", "-c", "run.ini", "-d", "bad", NULL);
  g_assert_cmpint (unknown_key.status, ==, 2);
  grammar_test_assert_contains (unknown_key.err, "[run] style");

  grammar_test_run (&no_config, tmp_dir, "run", "-d", "bad", NULL);
  g_assert_cmpint (no_config.status, ==, 2);
  grammar_test_assert_contains (no_config.err, "-c");

  /* a stage's own error stops the run with its status */
  g_free (grammar_test_write_file (tmp_dir, "broken.ini", "[database]\nplugin=sqlite\nscript=missing.sql\n"));
  grammar_test_run (&bad_database, tmp_dir, "run", "-c", "broken.ini", "-d", "bad2", NULL);
  g_assert_cmpint (bad_database.status, ==, 2);
  grammar_test_assert_contains (bad_database.err, "missing.sql");
  g_assert_false (exists ("bad2", "sql-templates.json"));
}

/* Editing one key rebuilds the stages that read it and everything
 * downstream, keeps the others, and says which. */
static void
test_run_rebuilds_what_changed (void)
{
  g_auto (GrammarTestRun) first = { 0 };
  g_auto (GrammarTestRun) edited = { 0 };
  g_auto (GrammarTestRun) script_changed = { 0 };
  g_autofree char *edited_config = NULL;
  g_autofree char *manifest = NULL;

  write_fixture ("\n[run]\nstyles=short\n");
  grammar_test_run (&first, tmp_dir, "run", "-c", "run.ini", "-d", "edit", NULL);
  g_assert_cmpint (first.status, ==, 0);
  manifest = read_file ("edit", "manifest.json");
  grammar_test_assert_contains (manifest, "\"short.results.jsonl\"");
  grammar_test_assert_contains (manifest, "\"complete\" : true");

  /* the retriever's top-k: rag, judge and report only */
  {
    g_autoptr (GString) text = g_string_new (config);

    g_string_replace (text, "top-k=1", "top-k=2", 1);
    g_string_append (text, "\n[run]\nstyles=short\n");
    edited_config = g_string_free (g_steal_pointer (&text), FALSE);
  }
  g_free (grammar_test_write_file (tmp_dir, "run.ini", edited_config));
  grammar_test_run (&edited, tmp_dir, "run", "-c", "run.ini", "-d", "edit", NULL);
  g_assert_cmpint (edited.status, ==, 0);
  grammar_test_assert_contains (edited.err, "sql-templates.json from an earlier run");
  grammar_test_assert_contains (edited.err, "documents.jsonl from an earlier run");
  grammar_test_assert_contains (edited.err, "short.text-templates.json from an earlier run");
  grammar_test_assert_contains (edited.err, "short.dataset.jsonl from an earlier run");
  grammar_test_assert_contains (edited.err, "short.results.jsonl (made again: its configuration or inputs changed)");
  grammar_test_assert_contains (edited.err, "short.judged.jsonl (made again: its configuration or inputs changed)");
  grammar_test_assert_contains (edited.err, "report.json (made again: its configuration or inputs changed)");
  grammar_test_assert_contains (edited.err, "0 failed, 0 skipped");  /* made again, not resumed */
  g_assert_null (strstr (edited.err, "(resumed)"));

  /* a file a section names (the database's script): everything */
  write_fixture ("\n[run]\nstyles=short\n");
  g_free (grammar_test_write_file (tmp_dir, "company.sql",
                                   "CREATE TABLE company (company_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
                                   " city TEXT, industry TEXT);\n"
                                   "CREATE TABLE person (person_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
                                   " age INTEGER, company_id INTEGER REFERENCES company (company_id));\n"
                                   "INSERT INTO company VALUES (1, 'Acme Rockets', 'Lyon', 'aerospace'),"
                                   " (2, 'Blue Fern', 'Porto', 'farming');\n"
                                   "INSERT INTO person VALUES (1, 'Ana Lima', 34, 1), (2, 'Bo Chen', 41, 2);\n"));
  grammar_test_run (&script_changed, tmp_dir, "run", "-c", "run.ini", "-d", "edit", NULL);
  g_assert_cmpint (script_changed.status, ==, 0);
  g_assert_null (strstr (script_changed.err, "from an earlier run"));
  grammar_test_assert_contains (script_changed.err, "sql-templates.json (made again");
}

static void
count_stage (GrammarMethod *method,
             const char    *stage,
             const char    *style,
             const char    *path,
             const char    *reason,
             GString       *seen)
{
  g_string_append_printf (seen, "%s%s%s:%s ", stage, style != NULL ? "/" : "", style != NULL ? style : "", reason);
}

/* The library object the command is a shell over: properties from [run],
 * a signal per stage, the report's data. */
static void
test_method_object (void)
{
  g_autofree char *path = NULL;
  g_autofree char *outdir = g_build_filename (tmp_dir, "object", NULL);
  g_autoptr (GrammarConfig) config_object = NULL;
  g_autoptr (GrammarMethod) method = NULL;
  g_autoptr (GString) seen = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  JsonObject *report;

  write_fixture ("\n[run]\nstyles=long;short\nper-template=2\n");
  path = g_build_filename (tmp_dir, "run.ini", NULL);
  config_object = grammar_config_new_from_file (path, &error);
  g_assert_no_error (error);
  method = grammar_method_new (config_object, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (grammar_method_get_styles (method), ((const char *[]) { "long", "short", NULL }));
  g_assert_cmpuint (grammar_method_get_per_template (method), ==, 2);
  grammar_method_set_outdir (method, outdir);
  g_signal_connect (method, "stage-started", G_CALLBACK (count_stage), seen);

  g_assert_true (grammar_method_run (method, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (seen->str, ==,
                   "sql-templates:new docs:new text-templates/long:new qa/long:new rag/long:new judge/long:new "
                   "text-templates/short:new qa/short:new rag/short:new judge/short:new report:new ");
  report = json_node_get_object (grammar_method_get_report (method));
  g_assert_cmpint (json_object_get_int_member (report, "instances"), >, 0);
  g_assert_true (json_object_has_member (report, "comparison"));

  g_string_truncate (seen, 0);
  g_assert_true (grammar_method_run (method, NULL, &error));
  g_assert_cmpstr (seen->str, ==,
                   "sql-templates:kept docs:kept text-templates/long:kept qa/long:kept rag/long:resumed "
                   "judge/long:resumed text-templates/short:kept qa/short:kept rag/short:resumed "
                   "judge/short:resumed report:kept ");
  g_assert_nonnull (grammar_method_get_report (method));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = grammar_test_make_tmp_dir ("test-run-XXXXXX");

  g_test_add_func ("/run/whole-method", test_run_whole_method);
  g_test_add_func ("/run/styles-and-force", test_run_styles_and_force);
  g_test_add_func ("/run/bad-input", test_run_bad_input);
  g_test_add_func ("/run/rebuilds-what-changed", test_run_rebuilds_what_changed);
  g_test_add_func ("/method/object", test_method_object);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
