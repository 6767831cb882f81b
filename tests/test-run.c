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
#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

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
#define PIPELINE_SYSTEM "[system]\nplugin=pipeline\nretriever=retriever\ngenerator=reader\n"

static const char config[] =
  "[database]\nplugin=sqlite\nscript=company.sql\n\n"
  "[documents]\ntables=company;person\n"
  "company.title={name}\n"
  "company.text={name} is a company in {city}, in the {industry} industry.\n"
  "person.title={name}\n"
  "person.text={name} is {age} years old and works for {company.name}.\n\n"
  PIPELINE_SYSTEM "\n"
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

/* @report without its line on the system's latency, which every run
 * measures anew. */
static char *
without_latency (const char *report)
{
  g_auto (GStrv) lines = g_strsplit (report, "\n", -1);
  g_autoptr (GString) kept = g_string_new (NULL);
  gboolean found = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "System latency: "))
        {
          found = TRUE;
          continue;
        }
      g_string_append_printf (kept, "%s%s", lines[i], lines[i + 1] != NULL ? "\n" : "");
    }
  g_assert_true (found);
  return g_string_free (g_steal_pointer (&kept), FALSE);
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
  /* the same report, but for the system's latency, measured again */
  {
    g_autofree char *forced_out = without_latency (forced.out);
    g_autofree char *run_out = without_latency (run.out);

    g_assert_cmpstr (forced_out, ==, run_out);
  }
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

static JsonObject *
member_of (JsonObject *object,
           const char *name)
{
  g_assert_true (json_object_has_member (object, name));
  return json_object_get_object_member (object, name);
}

static const char *
first_style (JsonObject *side)
{
  return json_array_get_string_element (json_object_get_array_member (side, "styles"), 0);
}

/* The keys of the report's by_style, joined by spaces. */
static char *
style_keys (JsonObject *report)
{
  JsonArray *entries = json_object_get_array_member (report, "by_style");
  g_autoptr (GString) keys = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (entries); i++)
    g_string_append_printf (keys, "%s%s", i > 0 ? " " : "",
                            json_object_get_string_member (json_array_get_object_element (entries, i), "key"));
  return g_string_free (g_steal_pointer (&keys), FALSE);
}

/* Three styles: each has its row in the breakdown by style (and its bar
 * in the HTML chart), the comparison is of the two of compare= (or
 * --compare, which wins), each named, and the first style is compared
 * with each other one. Templates are shown by their SQL. */
static void
test_run_three_styles (void)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_auto (GrammarTestRun) again = { 0 };
  g_auto (GrammarTestRun) not_a_style = { 0 };
  g_auto (GrammarTestRun) one_style = { 0 };
  g_auto (GrammarTestRun) same_style = { 0 };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL, *html = NULL, *keys = NULL, *report_json = NULL;
  JsonObject *report, *comparison, *templates;
  JsonArray *pairs;

  write_fixture ("\n[run]\nstyles=short;long;interrogative\ncompare=long;interrogative\nper-template=1\n");
  grammar_test_run (&run, tmp_dir, "run", "-c", "run.ini", "-d", "three", "-q", NULL);
  if (run.status != 0)
    g_error ("grammar run failed (%d): %s", run.status, run.err);
  report_json = read_file ("three", "report.json");
  g_assert_true (json_parser_load_from_data (parser, report_json, -1, NULL));
  report = json_node_get_object (json_parser_get_root (parser));

  keys = style_keys (report);
  g_assert_cmpstr (keys, ==, "short long interrogative");
  comparison = member_of (report, "comparison");
  g_assert_cmpstr (first_style (member_of (comparison, "a")), ==, "long");
  g_assert_cmpstr (first_style (member_of (comparison, "b")), ==, "interrogative");
  pairs = json_object_get_array_member (report, "pairs");
  g_assert_cmpuint (json_array_get_length (pairs), ==, 2);
  g_assert_cmpstr (first_style (member_of (json_array_get_object_element (pairs, 0), "a")), ==, "short");
  g_assert_cmpstr (first_style (member_of (json_array_get_object_element (pairs, 0), "b")), ==, "long");
  g_assert_cmpstr (first_style (member_of (json_array_get_object_element (pairs, 1), "b")), ==, "interrogative");
  g_assert_true (json_object_has_member (json_array_get_object_element (pairs, 1), "conclusion"));
  /* the retrieval figures by style too */
  g_assert_cmpuint (json_object_get_size (member_of (member_of (report, "retrieval_metrics"), "by_style")), ==, 3);
  templates = member_of (report, "templates");
  g_assert_cmpuint (json_object_get_size (templates), >, 0);

  /* what a person reads: the styles named, the templates by their SQL */
  text = read_file ("three", "report.txt");
  g_assert_nonnull (strstr (run.out, text));   /* the run prints report.txt */
  grammar_test_assert_contains (text, "every style in the breakdown by style: short, long, interrogative.");
  grammar_test_assert_contains (text, "\nComparison: long (A) and interrogative (B)\n");
  grammar_test_assert_contains (text, "\nEvery style against short\n");
  grammar_test_assert_contains (text, "\nshort against interrogative: ");
  grammar_test_assert_contains (text, "\nTemplate ");
  grammar_test_assert_contains (text, "\nSELECT ");
  html = read_file ("three", "report.html");
  grammar_test_assert_contains (html, ">interrogative<title>interrogative</title></text>");
  grammar_test_assert_contains (html, "<code class=\"sql\">SELECT ");

  /* --compare wins over compare=, and remakes the report only */
  grammar_test_run (&again, tmp_dir, "run", "-c", "run.ini", "-d", "three", "--compare", "short, long", NULL);
  g_assert_cmpint (again.status, ==, 0);
  grammar_test_assert_contains (again.out, "\nComparison: short (A) and long (B)\n");
  grammar_test_assert_contains (again.err, "(kept three/interrogative.dataset.jsonl from an earlier run");

  grammar_test_run (&not_a_style, tmp_dir, "run", "-c", "run.ini", "-d", "three", "--compare=short,formal", NULL);
  g_assert_cmpint (not_a_style.status, ==, 2);
  grammar_test_assert_contains (not_a_style.err, "run.ini: [run] compare: “short;formal”: both must be styles of the "
                                                 "run (the styles are short;long;interrogative)");
  grammar_test_run (&one_style, tmp_dir, "run", "-c", "run.ini", "-d", "three", "--compare=short", NULL);
  g_assert_cmpint (one_style.status, ==, 2);
  grammar_test_assert_contains (one_style.err, "--compare takes two styles");
  write_fixture ("\n[run]\nstyles=short;long\ncompare=long;long\n");
  grammar_test_run (&same_style, tmp_dir, "run", "-c", "run.ini", "-d", "same", NULL);
  g_assert_cmpint (same_style.status, ==, 2);
  grammar_test_assert_contains (same_style.err, "run.ini: [run] compare: “long;long”: the two styles must differ");
  g_assert_false (exists ("same", "sql-templates.json"));
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

static guint count_lines (const char *path);

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

/* Notes each stage that reported progress, once, with the last counts;
 * docs and qa report from their worker thread. */
typedef struct
{
  GMutex lock;
  GHashTable *last;   /* stage → "done/total" */
} StageProgress;

static void
note_progress (GrammarMethod *method,
               const char    *stage,
               guint64        done,
               guint64        total,
               StageProgress *progress)
{
  g_mutex_lock (&progress->lock);
  g_hash_table_replace (progress->last, g_strdup (stage),
                        g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, done, total));
  g_mutex_unlock (&progress->lock);
}

/* The library object the command is a shell over: properties from [run],
 * a signal per stage, progress for every long stage, the report's data. */
static void
test_method_object (void)
{
  g_autofree char *path = NULL;
  g_autofree char *outdir = g_build_filename (tmp_dir, "object", NULL);
  g_autoptr (GrammarConfig) config_object = NULL;
  g_autoptr (GrammarMethod) method = NULL;
  g_autoptr (GString) seen = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *dataset = NULL;
  g_autofree char *documents = NULL;
  g_autofree char *docs_counts = NULL;
  g_autofree char *n_records = NULL;
  g_autofree char *qa_counts = NULL;
  g_autofree char *stage_counts = NULL;
  StageProgress progress;
  gulong handler;
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
  g_mutex_init (&progress.lock);
  progress.last = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  handler = g_signal_connect (method, "progress", G_CALLBACK (note_progress), &progress);

  g_assert_true (grammar_method_run (method, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (seen->str, ==,
                   "sql-templates:new docs:new text-templates/long:new qa/long:new rag/long:new judge/long:new "
                   "text-templates/short:new qa/short:new rag/short:new judge/short:new report:new ");
  /* The last counts are the whole stage's: the documents and records
   * written (no total known in advance), the records answered and judged
   * of the short style, which runs last. */
  g_signal_handler_disconnect (method, handler);
  g_assert_cmpuint (g_hash_table_size (progress.last), ==, 4);
  documents = g_build_filename (outdir, "documents.jsonl", NULL);
  docs_counts = g_strdup_printf ("%u/0", count_lines (documents));
  g_assert_cmpstr (g_hash_table_lookup (progress.last, "docs"), ==, docs_counts);
  dataset = g_build_filename (outdir, "short.dataset.jsonl", NULL);
  n_records = g_strdup_printf ("%u", count_lines (dataset));
  qa_counts = g_strdup_printf ("%s/0", n_records);
  stage_counts = g_strdup_printf ("%s/%s", n_records, n_records);
  g_assert_cmpstr (g_hash_table_lookup (progress.last, "qa"), ==, qa_counts);
  g_assert_cmpstr (g_hash_table_lookup (progress.last, "rag"), ==, stage_counts);
  g_assert_cmpstr (g_hash_table_lookup (progress.last, "judge"), ==, stage_counts);
  g_hash_table_unref (progress.last);
  g_mutex_clear (&progress.lock);
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

/* [run] max-answer-rows and max-answer-bytes reach the qa stage: the
 * templates over the limit are left out with a warning and the run goes
 * on; a bad value stops the run before its first stage. */
static void
test_run_answer_limits (void)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_auto (GrammarTestRun) negative = { 0 };
  g_autofree char *dataset = NULL;

  write_fixture ("\n[run]\nstyles=short\nmax-answer-bytes=8\nmax-answer-rows=5\n");
  grammar_test_run (&run, tmp_dir, "run", "-c", "run.ini", "-d", "limits", NULL);
  if (run.status != 0)
    g_error ("grammar run failed (%d): %s", run.status, run.err);
  grammar_test_assert_contains (run.err, "bytes of values so far exceeds max-answer-bytes=8; the template is left out");
  grammar_test_assert_contains (run.err, "templates left out (over a limit)");
  dataset = read_file ("limits", "short.dataset.jsonl");
  g_assert_cmpstr (dataset, !=, "");

  write_fixture ("\n[run]\nstyles=short\nmax-answer-rows=-1\n");
  grammar_test_run (&negative, tmp_dir, "run", "-c", "run.ini", "-d", "limits-negative", NULL);
  g_assert_cmpint (negative.status, ==, 2);
  grammar_test_assert_contains (negative.err, "[run] max-answer-rows");
  g_assert_false (exists ("limits-negative", "sql-templates.json"));
}

/* Interrupting -------------------------------------------------------------- */

/* Every line of @path is a JSON object with an id; returns the ids. */
static GHashTable *
read_ids (const char *path,
          guint      *n_lines)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  *n_lines = 0;
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (contents[0] == '\0' || g_str_has_suffix (contents, "\n"));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      JsonObject *object;

      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, &error));
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
      object = json_node_get_object (json_parser_get_root (parser));
      g_hash_table_add (ids, g_strdup (json_object_get_string_member (object, "id")));
      (*n_lines)++;
    }
  return ids;
}

static guint
count_lines (const char *path)
{
  guint n = 0;
  g_autoptr (GHashTable) ids = read_ids (path, &n);

  return n;
}

/* SIGINT to `grammar run` while it writes @file (a slow system or a slow
 * matcher): it stops within 2 s with exit 130, @file holds whole JSON
 * lines, and a re-run completes it with every record exactly once. */
static void
interrupt_during (const char *dir,
                  const char *file,
                  const char *system,
                  const char *matcher)
{
  const char *exe = g_getenv ("GRAMMAR_EXE");
  g_autofree char *ini = g_strdup_printf ("%s.ini", dir);
  g_autofree char *text = NULL;
  g_autofree char *ini_path = NULL;
  g_autofree char *out = g_build_filename (tmp_dir, dir, NULL);
  g_autofree char *path = g_build_filename (out, file, NULL);
  g_autofree char *dataset = g_build_filename (out, "long.dataset.jsonl", NULL);
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) ids = NULL;
  g_auto (GrammarTestRun) again = { 0 };
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  gint64 interrupted;
  double seconds;
  guint n_partial = 0;
  guint n_lines = 0;

  g_assert_nonnull (exe);
  {
    /* the pipeline's section replaced by @system, when given */
    g_auto (GStrv) parts = g_strsplit (config, PIPELINE_SYSTEM, 2);

    text = g_strconcat (parts[0], *system != '\0' ? system : PIPELINE_SYSTEM, parts[1], matcher, NULL);
  }
  ini_path = grammar_test_write_file (tmp_dir, ini, text);
  g_free (grammar_test_write_file (tmp_dir, "company.sql", script));

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_cwd (launcher, tmp_dir);
  process = g_subprocess_launcher_spawn (launcher, &error, exe, "run", "-c", ini, "-d", dir, NULL);
  g_assert_no_error (error);

  /* wait for the stage to have written something, not everything */
  while (!g_file_test (path, G_FILE_TEST_EXISTS) || count_lines (path) == 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (20 * 1000);
    }
  interrupted = g_get_monotonic_time ();
  g_subprocess_send_signal (process, SIGINT);
  g_assert_true (g_subprocess_wait (process, NULL, &error));
  seconds = (g_get_monotonic_time () - interrupted) / (double) G_USEC_PER_SEC;
  g_test_message ("%s: stopped %.3f s after SIGINT", file, seconds);
  g_assert_cmpfloat (seconds, <, 2.0);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 128 + SIGINT);

  g_clear_pointer (&ids, g_hash_table_unref);
  ids = read_ids (path, &n_partial);
  g_assert_cmpuint (n_partial, >, 0);
  g_assert_cmpuint (g_hash_table_size (ids), ==, n_partial);
  g_assert_cmpuint (n_partial, <, count_lines (dataset));

  grammar_test_run (&again, tmp_dir, "run", "-c", ini, "-d", dir, NULL);
  g_assert_cmpint (again.status, ==, 0);
  grammar_test_assert_contains (again.err, "(resumed)");
  g_clear_pointer (&ids, g_hash_table_unref);
  ids = read_ids (path, &n_lines);
  g_assert_cmpuint (n_lines, ==, count_lines (dataset));
  g_assert_cmpuint (g_hash_table_size (ids), ==, n_lines);
}

static void
test_run_interrupted (void)
{
  /* the system answers in 100 ms, four at a time */
  interrupt_during ("slow-rag", "long.results.jsonl", "[system]\nplugin=rag-test\ndelay-ms=100\n", "");
  /* the matcher judges in 100 ms, four at a time */
  interrupt_during ("slow-judge", "long.judged.jsonl", "",
                    "\n[matcher]\nplugin=test-contains\ndelay-ms=100\n");
}

/* A system that reports no documents (rag-test documents=false, as the
 * http system with retrieved-pointer= empty): results without
 * `retrieved`, retrieval unmeasured rather than 0, no gap group blamed on
 * retrieval, and a warning on stderr and in report.json. The same system
 * reporting its documents is measured: its gap groups are retrieval's. */
static void
test_run_unreported (void)
{
  const struct { const char *dir; const char *system; gboolean reported; } cases[] = {
    { "unreported", "[system]\nplugin=rag-test\ndocuments=false\n", FALSE },
    { "reported", "[system]\nplugin=rag-test\n", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (GrammarTestRun) run = { 0 };
      g_auto (GStrv) parts = g_strsplit (config, PIPELINE_SYSTEM, 2);
      g_autofree char *text = g_strconcat (parts[0], cases[i].system, parts[1], NULL);
      g_autofree char *ini = g_strdup_printf ("%s.ini", cases[i].dir);
      g_autofree char *results = NULL;
      g_autofree char *json = NULL;
      g_autoptr (JsonNode) report = NULL;
      g_autoptr (GError) error = NULL;
      JsonObject *root, *gap;
      guint n_gap;

      g_free (grammar_test_write_file (tmp_dir, ini, text));
      g_free (grammar_test_write_file (tmp_dir, "company.sql", script));
      grammar_test_run (&run, tmp_dir, "run", "-c", ini, "-d", cases[i].dir, "-q", NULL);
      g_assert_cmpint (run.status, ==, 0);
      results = read_file (cases[i].dir, "short.results.jsonl");
      json = read_file (cases[i].dir, "report.json");
      report = json_from_string (json, &error);
      g_assert_no_error (error);
      root = json_node_get_object (report);
      n_gap = json_object_get_int_member (json_object_get_object_member (root, "groups"), "gap");
      g_assert_cmpuint (n_gap, >, 0);
      if (cases[i].reported)
        {
          g_assert_nonnull (strstr (results, "\"retrieved\":[{\"id\":\"doc-1\""));
          g_assert_null (strstr (run.err, "retrieval is unmeasured"));
          g_assert_false (json_object_has_member (root, "warnings"));
          g_assert_false (json_object_has_member (root, "attribution"));
          continue;
        }
      g_assert_null (strstr (results, "\"retrieved\""));
      grammar_test_assert_contains (run.err, "grammar report: warning: retrieval is unmeasured: the system reported "
                                             "no documents");
      grammar_test_assert_contains (run.err, "reports-documents");
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "warnings")), >=, 1);
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "retrieval"), "measured"), ==,
                       0);
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "retrieval_metrics"),
                                                   "measured"), ==, 0);
      gap = json_object_get_object_member (json_object_get_object_member (root, "attribution"), "gap_groups");
      g_assert_cmpint (json_object_get_int_member (gap, "unknown"), ==, n_gap);
      g_assert_cmpint (json_object_get_int_member (gap, "retrieval"), ==, 0);
      g_assert_cmpint (json_object_get_int_member (gap, "language-model"), ==, 0);
    }
}

/* Lines of @text that contain @needle. */
static guint
count_containing (const char *text,
                  const char *needle)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += strstr (lines[i], needle) != NULL;
  return n;
}

static gint64
report_count (const char *dir,
              const char *name)
{
  g_autofree char *text = read_file (dir, "report.json");
  g_autoptr (JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_object_get_int_member (json_node_get_object (json_parser_get_root (parser)), name);
}

/* The queries about “Cobalt & Sons” fail while the service is down: the
 * run says how many failed and which option asks them again, and prints
 * the system's statistics; a plain re-run keeps them failed; --retry-failed
 * asks those again, and only those, and judges them again. */
static void
test_run_retry_failed (void)
{
  g_auto (GrammarTestRun) first = { 0 };
  g_auto (GrammarTestRun) plain = { 0 };
  g_auto (GrammarTestRun) retried = { 0 };
  g_autofree char *text = NULL;
  g_autofree char *results = NULL;
  g_autofree char *judged = NULL;
  g_autofree char *stats = NULL;
  g_autofree char *stats_again = NULL;
  g_autofree char *short_dataset = NULL;
  g_autofree char *long_dataset = NULL;
  g_autofree char *long_results = NULL;
  guint n_failed, n_failed_both, n_records, n_all;
  gint64 unmeasured_before;

  {
    g_auto (GStrv) parts = g_strsplit (config, PIPELINE_SYSTEM, 2);

    text = g_strconcat (parts[0], "[system]\nplugin=rag-test\nfail-text=Cobalt\nfail-while-env=RAG_TEST_DOWN\n",
                        parts[1], NULL);
  }
  g_free (grammar_test_write_file (tmp_dir, "retry.ini", text));
  g_free (grammar_test_write_file (tmp_dir, "company.sql", script));

  g_setenv ("RAG_TEST_DOWN", "1", TRUE);
  grammar_test_run (&first, tmp_dir, "run", "-c", "retry.ini", "-d", "retry", NULL);
  g_unsetenv ("RAG_TEST_DOWN");
  if (first.status != 1)
    g_error ("grammar run exited %d, not 1: %s", first.status, first.err);
  results = read_file ("retry", "short.results.jsonl");
  n_failed = count_containing (results, "\"error\":\"rag-test fails on");
  short_dataset = read_file ("retry", "short.dataset.jsonl");
  long_dataset = read_file ("retry", "long.dataset.jsonl");
  n_records = count_containing (short_dataset, "\"id\"");
  n_all = n_records + count_containing (long_dataset, "\"id\"");
  g_assert_cmpuint (n_failed, >, 0);
  g_assert_cmpuint (n_failed, <, n_records);
  grammar_test_assert_contains (first.err, "`grammar run --retry-failed` asks them again");
  g_assert_null (strstr (first.err, "grammar rag --retry-failed"));
  /* the system's line: every query of both styles asked once */
  long_results = read_file ("retry", "long.results.jsonl");
  n_failed_both = n_failed + count_containing (long_results, "\"error\":\"rag-test fails on");
  stats = g_strdup_printf ("system: %u requests, 0 retries, %u failed\n", n_all, n_failed_both);
  grammar_test_assert_contains (first.err, stats);
  unmeasured_before = report_count ("retry", "unmeasured");

  /* the service is back; a plain re-run does not ask them again */
  grammar_test_run (&plain, tmp_dir, "run", "-c", "retry.ini", "-d", "retry", NULL);
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_null (strstr (plain.err, "system: "));   /* nothing asked */
  {
    g_autofree char *kept = g_strdup_printf ("grammar rag: warning: %u of the records kept from an earlier run "
                                             "had failed", n_failed);

    grammar_test_assert_contains (plain.err, kept);
    grammar_test_assert_contains (plain.err, "`grammar run --retry-failed` asks them again");
  }
  g_free (results);
  results = read_file ("retry", "short.results.jsonl");
  g_assert_cmpuint (count_containing (results, "\"error\":"), ==, n_failed);

  /* --retry-failed asks them, and only them, again */
  grammar_test_run (&retried, tmp_dir, "run", "-c", "retry.ini", "-d", "retry", "--retry-failed", NULL);
  if (retried.status != 0)
    g_error ("grammar run --retry-failed failed (%d): %s", retried.status, retried.err);
  stats_again = g_strdup_printf ("system: %u requests, 0 retries\n", n_failed_both);
  grammar_test_assert_contains (retried.err, stats_again);
  grammar_test_assert_contains (retried.err, "removed");
  g_free (results);
  results = read_file ("retry", "short.results.jsonl");
  g_assert_cmpuint (count_containing (results, "\"error\":"), ==, 0);
  g_assert_cmpuint (count_containing (results, "\"id\""), ==, n_records);
  /* judged again: no verdict of a failed query left, one line an id */
  judged = read_file ("retry", "short.judged.jsonl");
  g_assert_cmpuint (count_containing (judged, "\"error\":"), ==, 0);
  g_assert_cmpuint (count_containing (judged, "\"id\""), ==, n_records);
  g_assert_cmpint (report_count ("retry", "unmeasured"), <, unmeasured_before);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = grammar_test_make_tmp_dir ("test-run-XXXXXX");
  grammar_test_add_plugin_path ("judge-test-matcher");
  grammar_test_add_plugin_path ("rag-test-system");

  g_test_add_func ("/run/whole-method", test_run_whole_method);
  g_test_add_func ("/run/styles-and-force", test_run_styles_and_force);
  g_test_add_func ("/run/three-styles", test_run_three_styles);
  g_test_add_func ("/run/bad-input", test_run_bad_input);
  g_test_add_func ("/run/rebuilds-what-changed", test_run_rebuilds_what_changed);
  g_test_add_func ("/method/object", test_method_object);
  g_test_add_func ("/run/answer-limits", test_run_answer_limits);
  g_test_add_func ("/run/interrupted", test_run_interrupted);
  g_test_add_func ("/run/unreported", test_run_unreported);
  g_test_add_func ("/run/retry-failed", test_run_retry_failed);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
