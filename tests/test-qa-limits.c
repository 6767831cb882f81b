/* test-qa-limits.c: runaway templates: query-timeout, max-value-bytes, max-answer-rows, max-answer-bytes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <grammar.h>

#include "grammar-test-util.h"

/* Made in a temporary folder by main(), removed at the end. */
static char *tmp_dir;
static char *config_path;

/* 3 companies; item has 4000 keys of one row each, and key 4001 with 5
 * rows: its group comes last and exceeds max-answer-rows=3 after about
 * a megabyte of records of the same template was written. */
static const char fixture_sql[] =
  "CREATE TABLE company (company_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, industry TEXT);\n"
  "INSERT INTO company VALUES (1, 'Acme', 'Tools'), (2, 'Globex', 'Energy'), (3, 'Initech', 'Software');\n"
  "CREATE TABLE item (k INTEGER NOT NULL, v TEXT NOT NULL);\n"
  "INSERT INTO item WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)\n"
  "  SELECT i, printf('%0200d', i) FROM n;\n"
  "INSERT INTO item VALUES (4001, 'a'), (4001, 'b'), (4001, 'c'), (4001, 'd'), (4001, 'e');\n";

static const char industry_sql[] = "SELECT industry FROM company WHERE name = '[company.name]'";
static const char runaway_sql[] =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) "
  "SELECT count(*) FROM c, company WHERE company.name = '[company.name]'";
static const char huge_blob_sql[] = "SELECT randomblob(900000000) FROM company WHERE name = '[company.name]'";
static const char big_blob_sql[] = "SELECT randomblob(2000000) FROM company WHERE name = '[company.name]'";
static const char item_sql[] = "SELECT v FROM item WHERE k = [item.k]";
static const char older_sql[] = "SELECT name FROM company WHERE company_id > [company.company_id]";

/* A text-templates.json of @sqls (NULL-terminated), one short text each;
 * the ids go to @ids. */
static char *
write_templates (const char  *name,
                 const char **sqls,
                 GPtrArray   *ids)
{
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (tmp_dir, name, NULL);

  for (guint i = 0; sqls[i] != NULL; i++)
    {
      g_autoptr (GrammarSqlTemplate) sql_template = grammar_sql_template_new (sqls[i], GRAMMAR_TEMPLATE_ORIGIN_MANUAL,
                                                                              &error);
      g_autoptr (GrammarTextTemplate) text_template = NULL;

      g_assert_no_error (error);
      text_template = grammar_text_template_new (grammar_sql_template_get_id (sql_template), "short",
                                                 strstr (sqls[i], "item.k") != NULL ? "Item [item.k]?"
                                                 : strstr (sqls[i], "company_id") != NULL ? "After [company.company_id]?"
                                                 : "About [company.name]?");
      grammar_template_set_add_sql_template (set, sql_template);
      grammar_template_set_add_text_template (set, text_template);
      if (ids != NULL)
        g_ptr_array_add (ids, g_strdup (grammar_sql_template_get_id (sql_template)));
    }
  g_assert_true (grammar_template_set_save_text_templates (set, path, &error));
  g_assert_no_error (error);
  return path;
}

static char *
read_file (const char *name)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

/* The unbounded recursive CTE of the issue stops at query-timeout=1 and
 * is reported by id; the other template is generated. */
static void
test_query_timeout (void)
{
  g_auto (GrammarTestRun) run = { 0, };
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  const char *sqls[] = { industry_sql, runaway_sql, NULL };
  g_autofree char *templates = write_templates ("runaway.json", sqls, ids);
  g_autofree char *config = grammar_test_write_file (tmp_dir, "timeout.ini",
                                                     "[database]\nplugin=sqlite\nscript=fixture.sql\nquery-timeout=1\n");
  g_autofree char *expected = g_strdup_printf ("%s: query-timeout=1 s exceeded", (char *) ids->pdata[1]);
  g_autofree char *dataset = NULL;
  gint64 start = g_get_monotonic_time ();

  grammar_test_run (&run, tmp_dir, "qa", "-q", "-c", config, "-i", templates, "-o", "runaway.jsonl", NULL);
  g_assert_cmpint (run.status, ==, 2);
  grammar_test_assert_contains (run.err, expected);
  grammar_test_assert_contains (run.err, "1 template of");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  dataset = read_file ("runaway.jsonl");
  g_assert_cmpuint (count_lines (dataset), ==, 3);
  g_assert_null (strstr (dataset, ids->pdata[1]));
}

/* The default is the documented one, and the keyfile sets it. */
static void
test_query_timeout_property (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = grammar_config_new_from_file (config_path, &error);
  g_autoptr (GObject) database = NULL;
  guint timeout = 0, max_value = 0;

  g_assert_no_error (error);
  database = grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error);
  g_assert_no_error (error);
  g_object_get (database, "query-timeout", &timeout, "max-value-bytes", &max_value, NULL);
  g_assert_cmpuint (timeout, ==, GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT);
  g_assert_cmpuint (timeout, ==, 300);
  g_assert_cmpuint (max_value, ==, 64 * 1024 * 1024);
}

/* randomblob(900000000) is stopped before SQLite makes it: a small
 * output, and a process that never held the blob. */
static void
test_huge_value (void)
{
  g_auto (GrammarTestRun) run = { 0, };
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  const char *sqls[] = { industry_sql, huge_blob_sql, big_blob_sql, NULL };
  g_autofree char *templates = write_templates ("blobs.json", sqls, ids);
  g_autofree char *huge = g_strdup_printf ("%s: max-value-bytes=67108864 exceeded", (char *) ids->pdata[1]);
  g_autofree char *big = g_strdup_printf ("%s: an answer of 1 row and 2000000 bytes of values so far exceeds "
                                          "max-answer-bytes=1048576", (char *) ids->pdata[2]);
  g_autofree char *dataset_path = g_build_filename (tmp_dir, "blobs.jsonl", NULL);
  GStatBuf info;
  struct rusage usage;

  grammar_test_run (&run, tmp_dir, "qa", "-q", "-c", config_path, "-i", templates, "-o", "blobs.jsonl", NULL);
  g_assert_cmpint (run.status, ==, 2);
  grammar_test_assert_contains (run.err, huge);
  grammar_test_assert_contains (run.err, big);
  grammar_test_assert_contains (run.err, "2 templates of");
  g_assert_cmpint (g_stat (dataset_path, &info), ==, 0);
  g_assert_cmpint (info.st_size, <, 4096);
  /* The largest child so far: 900 MB of blob would show (ASan included). */
  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &usage), ==, 0);
  g_assert_cmpint (usage.ru_maxrss, <, 400 * 1024);
}

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

/* A template whose last group exceeds max-answer-rows after a megabyte
 * of its records was written (the writer flushes every 256 KiB): its
 * records are cut back out, the templates around it stay. */
static void
test_max_answer_rows (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  const char *sqls[] = { industry_sql, item_sql, older_sql, NULL };
  g_autofree char *path = write_templates ("rows.json", sqls, ids);
  g_autoptr (GrammarConfig) config = grammar_config_new_from_file (config_path, &error);
  g_autoptr (GObject) database = grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error);
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = NULL;
  g_auto (GStrv) problems = NULL;
  g_auto (GStrv) left_out = NULL;
  g_autofree char *limited = NULL;
  g_autofree char *unlimited = NULL;
  g_autofree char *expected = NULL;
  g_auto (GrammarTestRun) run = { 0, };
  g_autofree char *file = NULL;

  g_assert_no_error (error);
  schema = grammar_database_get_schema (GRAMMAR_DATABASE (database), NULL, &error);
  g_assert_no_error (error);
  g_assert_true (grammar_template_set_load (set, path, GRAMMAR_DATABASE (database), schema, &problems, &error));
  g_assert_no_error (error);
  g_assert_true (problems == NULL || problems[0] == NULL);
  generator = grammar_qa_generator_new (GRAMMAR_DATABASE (database));
  g_assert_cmpuint (grammar_qa_generator_get_max_answer_rows (generator), ==, 1000);
  g_assert_cmpuint (grammar_qa_generator_get_max_answer_bytes (generator), ==, 1048576);

  unlimited = generate (generator, set, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_lines (unlimited), ==, 3 + 4001 + 2);
  g_assert_cmpuint (strlen (unlimited), >, 1024 * 1024);

  g_object_set (generator, "max-answer-rows", 3u, NULL);
  limited = generate (generator, set, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_lines (limited), ==, 3 + 2);
  g_assert_null (strstr (limited, ids->pdata[1]));
  g_assert_cmpuint (grammar_qa_generator_get_n_records (generator), ==, 5);
  g_assert_cmpuint (grammar_qa_generator_get_n_templates (generator), ==, 2);
  left_out = grammar_qa_generator_dup_left_out (generator);
  g_assert_cmpuint (g_strv_length (left_out), ==, 1);
  expected = g_strdup_printf ("%s: an answer of more than 3 rows exceeds max-answer-rows=3", (char *) ids->pdata[1]);
  grammar_test_assert_contains (left_out[0], expected);

  /* The same through a file and the command line. */
  grammar_test_run (&run, tmp_dir, "qa", "-q", "-c", config_path, "-i", path, "-o", "rows.jsonl",
                    "--max-answer-rows", "3", NULL);
  g_assert_cmpint (run.status, ==, 2);
  grammar_test_assert_contains (run.err, expected);
  file = read_file ("rows.jsonl");
  g_assert_cmpstr (file, ==, limited);
}

static void
test_cli_options (void)
{
  g_auto (GrammarTestRun) help = { 0, }, negative = { 0, }, unlimited = { 0, };
  const char *sqls[] = { big_blob_sql, NULL };
  g_autofree char *templates = write_templates ("big.json", sqls, NULL);

  grammar_test_run (&help, tmp_dir, "qa", "--help", NULL);
  grammar_test_assert_contains (help.out, "--max-answer-rows");
  grammar_test_assert_contains (help.out, "--max-answer-bytes");

  grammar_test_run (&negative, tmp_dir, "qa", "-c", config_path, "-i", templates, "-o", "x.jsonl",
                    "--max-answer-bytes", "-1", NULL);
  g_assert_cmpint (negative.status, ==, 2);
  grammar_test_assert_contains (negative.err, "--max-answer-bytes must not be negative");

  /* 0: no limit; the 2 MB blobs are written */
  grammar_test_run (&unlimited, tmp_dir, "qa", "-q", "-c", config_path, "-i", templates, "-o", "big.jsonl",
                    "--max-answer-bytes", "0", NULL);
  g_assert_cmpint (unlimited.status, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *script = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = grammar_test_make_tmp_dir ("grammar-qa-limits-XXXXXX");
  script = grammar_test_write_file (tmp_dir, "fixture.sql", fixture_sql);
  config_path = grammar_test_write_file (tmp_dir, "fixture.ini", "[database]\nplugin=sqlite\nscript=fixture.sql\n");

  g_test_add_func ("/qa-limits/query-timeout", test_query_timeout);
  g_test_add_func ("/qa-limits/query-timeout-default", test_query_timeout_property);
  g_test_add_func ("/qa-limits/huge-value", test_huge_value);
  g_test_add_func ("/qa-limits/max-answer-rows", test_max_answer_rows);
  g_test_add_func ("/qa-limits/cli-options", test_cli_options);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  g_free (config_path);
  return status;
}
