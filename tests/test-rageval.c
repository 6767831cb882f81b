/* test-rageval.c: retrieval metrics, keypoints and their report sections,
 * on hand-made fixtures whose figures are computed by hand
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <grammar.h>

#include "grammar-test-util.h"

static GrammarRecord *
record_from (const char *json)
{
  g_autoptr (JsonNode) node = json_from_string (json, NULL);
  g_autoptr (GError) error = NULL;
  GrammarRecord *record;

  g_assert_nonnull (node);
  record = grammar_record_new_from_json (node, &error);
  g_assert_no_error (error);
  return record;
}

static void
assert_measure (GrammarRecord *record,
                guint          k,
                double         hit,
                double         precision,
                double         recall,
                double         rr,
                double         ndcg)
{
  double h, p, r, m, n;

  g_assert_true (grammar_retrieval_metrics_measure_record (record, k, &h, &p, &r, &m, &n));
  g_assert_cmpfloat_with_epsilon (h, hit, 1e-9);
  g_assert_cmpfloat_with_epsilon (p, precision, 1e-9);
  g_assert_cmpfloat_with_epsilon (r, recall, 1e-9);
  g_assert_cmpfloat_with_epsilon (m, rr, 1e-9);
  g_assert_cmpfloat_with_epsilon (n, ndcg, 1e-6);
}

/* doc_ids {a, b}; retrieved x, a, a (again), b. */
static void
test_retrieval_record (void)
{
  g_autoptr (GrammarRecord) record = record_from (
    "{\"id\":\"r\",\"text\":\"q\",\"doc_ids\":[\"a\",\"b\"],\"response\":\"\",\"latency_ms\":0,"
    "\"retrieved\":[{\"id\":\"x\",\"score\":4},{\"id\":\"a\",\"score\":3},{\"id\":\"a\",\"score\":2},"
    "{\"id\":\"b\",\"score\":1}]}");
  g_autoptr (GrammarRecord) tie = record_from (
    "{\"id\":\"t\",\"text\":\"q\",\"doc_ids\":[\"a\"],\"response\":\"\",\"latency_ms\":0,"
    "\"retrieved\":[{\"id\":\"b\",\"score\":1},{\"id\":\"a\",\"score\":1}]}");
  g_autoptr (GrammarRecord) none = record_from (
    "{\"id\":\"n\",\"text\":\"q\",\"doc_ids\":[],\"response\":\"\",\"latency_ms\":0,"
    "\"retrieved\":[{\"id\":\"a\",\"score\":1}]}");
  g_autoptr (GrammarRecord) failed = record_from (
    "{\"id\":\"f\",\"text\":\"q\",\"doc_ids\":[\"a\"],\"response\":null,\"error\":\"boom\",\"latency_ms\":0}");
  double idcg2 = 1.0 + 1.0 / log2 (3.0);
  double unused;

  /* k = what was retrieved (4): a at rank 2, b at rank 4; the second a is
   * irrelevant. DCG = 1/log2 3 + 1/log2 5, ideal DCG two relevant first. */
  assert_measure (record, 0, 1.0, 2.0 / 4.0, 1.0, 0.5, (1.0 / log2 (3.0) + 1.0 / log2 (5.0)) / idcg2);
  /* k = 2: only a. */
  assert_measure (record, 2, 1.0, 1.0 / 2.0, 0.5, 0.5, (1.0 / log2 (3.0)) / idcg2);
  /* k = 1: nothing; MRR 0. */
  assert_measure (record, 1, 0.0, 0.0, 0.0, 0.0, 0.0);
  /* k = 10, larger than retrieved: precision over 10, nDCG as at 4. */
  assert_measure (record, 10, 1.0, 2.0 / 10.0, 1.0, 0.5, (1.0 / log2 (3.0) + 1.0 / log2 (5.0)) / idcg2);
  /* Equal scores keep the system's order: a is second. */
  assert_measure (tie, 0, 1.0, 0.5, 1.0, 0.5, 1.0 / log2 (3.0));
  /* No true documents, no retrieval: unmeasured, not zero. */
  g_assert_false (grammar_retrieval_metrics_measure_record (none, 0, &unused, &unused, &unused, &unused, &unused));
  g_assert_false (grammar_retrieval_metrics_measure_record (failed, 0, &unused, &unused, &unused, &unused, &unused));
}

static const char judged_a[] =
  /* g1: a at rank 1 of 2 passages (3 + 2 words): EIR 3/5 */
  "{\"id\":\"1\",\"group\":\"g1\",\"template\":\"t1\",\"style\":\"short\",\"text\":\"q\",\"answer\":[[\"v\"]],"
  "\"doc_ids\":[\"a\"],\"response\":\"v\",\"latency_ms\":0,\"verdict\":\"correct\",\"retrieval\":\"correct\","
  "\"retrieved\":[{\"id\":\"a\",\"score\":2,\"text\":\"one two three\"},{\"id\":\"x\",\"score\":1,\"text\":\"four five\"}]}\n"
  /* g2: b at rank 2, no text: EIR unmeasured */
  "{\"id\":\"2\",\"group\":\"g2\",\"template\":\"t1\",\"style\":\"short\",\"text\":\"q\",\"answer\":[[\"v\"]],"
  "\"doc_ids\":[\"b\"],\"response\":\"no\",\"latency_ms\":0,\"verdict\":\"incorrect\",\"retrieval\":\"correct\","
  "\"retrieved\":[{\"id\":\"x\",\"score\":2},{\"id\":\"b\",\"score\":1}]}\n"
  /* g3: no true documents: unmeasured */
  "{\"id\":\"3\",\"group\":\"g3\",\"template\":\"t2\",\"style\":\"short\",\"text\":\"q\",\"answer\":[[\"v\"]],"
  "\"doc_ids\":[],\"response\":\"v\",\"latency_ms\":0,\"verdict\":\"correct\","
  "\"retrieved\":[{\"id\":\"x\",\"score\":2}]}\n";

static const char judged_b[] =
  "{\"id\":\"1b\",\"group\":\"g1\",\"template\":\"t1\",\"style\":\"long\",\"text\":\"q\",\"answer\":[[\"v\"]],"
  "\"doc_ids\":[\"a\"],\"response\":\"v\",\"latency_ms\":0,\"verdict\":\"correct\",\"retrieval\":\"correct\","
  "\"retrieved\":[{\"id\":\"x\",\"score\":2,\"text\":\"four five\"},{\"id\":\"a\",\"score\":1,\"text\":\"one two three\"}]}\n"
  "{\"id\":\"2b\",\"group\":\"g2\",\"template\":\"t1\",\"style\":\"long\",\"text\":\"q\",\"answer\":[[\"v\"]],"
  "\"doc_ids\":[\"b\"],\"response\":\"no\",\"latency_ms\":0,\"verdict\":\"incorrect\",\"retrieval\":\"incorrect\","
  "\"retrieved\":[{\"id\":\"x\",\"score\":2},{\"id\":\"y\",\"score\":1}]}\n";

static double
figure_value (JsonObject *slice,
              const char *name,
              gint64     *n)
{
  JsonObject *figure = json_object_get_object_member (slice, name);

  *n = json_object_get_int_member (figure, "n");
  return json_object_get_double_member (figure, "value");
}

static void
test_retrieval_report (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("test-rageval-XXXXXX");
  g_autofree char *a = grammar_test_write_file (dir, "a.judged.jsonl", judged_a);
  g_autofree char *b = grammar_test_write_file (dir, "b.judged.jsonl", judged_b);
  g_autoptr (GError) error = NULL;
  const guint cutoffs[] = { 1, 0 };
  g_autoptr (JsonNode) report = grammar_report_build_full (a, b, NULL, cutoffs, G_N_ELEMENTS (cutoffs), FALSE, 0.05,
                                                           0, &error);
  JsonObject *measures, *overall, *paired;
  gint64 n;

  g_assert_no_error (error);
  measures = json_object_get_object_member (json_node_get_object (report), "retrieval_metrics");
  g_assert_cmpint (json_object_get_int_member (measures, "records"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (measures, "measured"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (measures, "no_true_documents"), ==, 1);
  overall = json_object_get_object_member (measures, "overall");
  /* hit@1: g1 yes, g2 no; MRR over what was retrieved: (1 + 1/2) / 2. */
  g_assert_cmpfloat_with_epsilon (figure_value (overall, "hit@1", &n), 0.5, 1e-9);
  g_assert_cmpint (n, ==, 2);
  g_assert_cmpfloat_with_epsilon (figure_value (overall, "mrr@retrieved", &n), 0.75, 1e-9);
  g_assert_cmpfloat_with_epsilon (figure_value (overall, "precision@retrieved", &n), 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (figure_value (overall, "rageval_recall", &n), 1.0, 1e-9);
  /* EIR only where every passage has text: 3 / 5. */
  g_assert_cmpfloat_with_epsilon (figure_value (overall, "eir", &n), 0.6, 1e-9);
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (overall, "hit@1"), "method"), ==,
                   "wilson");
  g_assert_true (json_object_has_member (json_object_get_object_member (measures, "by_template"), "t2"));

  /* Paired by group: g1 MRR 1 → 1/2, g2 1/2 → 0: both lower in B. */
  paired = json_object_get_object_member (json_object_get_object_member (json_node_get_object (report),
                                                                         "comparison"), "retrieval_metrics");
  paired = json_object_get_object_member (paired, "mrr@retrieved");
  g_assert_cmpint (json_object_get_int_member (paired, "pairs"), ==, 2);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (paired, "difference"), -0.5, 1e-9);
  g_assert_cmpint (json_object_get_int_member (paired, "a_higher"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (paired, "test"), ==, "Wilcoxon signed-rank");
  /* Two tied differences of −1/2: W+ = 0, mean 1.5, variance 5/4 − 6/48 = 9/8,
   * |0 − 1.5| − 0.5 = 1 → z = −1 / sqrt (9/8). */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (paired, "z"), -1.0 / sqrt (9.0 / 8.0), 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (paired, "p"), erfc (1.0 / sqrt (9.0 / 8.0) / G_SQRT2),
                                  1e-9);
  grammar_test_remove_tree (dir);
}

/* n judged records in groups g0 … g(n−1), each with true document a,
 * retrieved at rank 1 (reciprocal rank 1) when @first says so, else at
 * rank 2 (1/2). Record 0 has style "long", the others "short". */
static char *
large_judged (guint    n,
              gboolean (*first) (guint i))
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text,
      "{\"id\":\"%u\",\"group\":\"g%u\",\"template\":\"t1\",\"style\":\"%s\",\"text\":\"q\","
      "\"answer\":[[\"v\"]],\"doc_ids\":[\"a\"],\"response\":\"v\",\"latency_ms\":0,\"verdict\":\"correct\","
      "\"retrieved\":[{\"id\":\"%s\",\"score\":2},{\"id\":\"%s\",\"score\":1}]}\n",
      i, i, i == 0 ? "long" : "short", first (i) ? "a" : "x", first (i) ? "x" : "a");
  return g_string_free (text, FALSE);
}

static gboolean
even (guint i)
{
  return i % 2 == 0;
}

static gboolean
never (guint i)
{
  return FALSE;
}

static const char *
method_of (JsonObject *slice,
           const char *figure,
           const char *member)
{
  return json_object_get_string_member (json_object_get_object_member (slice, figure), member);
}

static void
assert_interval (JsonObject *figure,
                 double      low,
                 double      high)
{
  JsonArray *interval = json_object_get_array_member (figure, "interval");

  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (interval, 0), low, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (interval, 1), high, 1e-9);
}

/* Above 2000 measured records a mean's interval is the normal one, and
 * the report says so; up to 2000 (the 2000 "short" records, and the
 * small files of test_retrieval_report) it stays the bootstrap. */
static void
test_retrieval_large (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("test-rageval-XXXXXX");
  g_autofree char *text_a = large_judged (2001, even);
  g_autofree char *text_b = large_judged (2001, never);
  g_autofree char *a = grammar_test_write_file (dir, "a.judged.jsonl", text_a);
  g_autofree char *b = grammar_test_write_file (dir, "b.judged.jsonl", text_b);
  g_autofree char *small_a = grammar_test_write_file (dir, "small-a.judged.jsonl", judged_a);
  g_autofree char *small_b = grammar_test_write_file (dir, "small-b.judged.jsonl", judged_b);
  g_autoptr (GError) error = NULL;
  const guint cutoffs[] = { 0 };
  g_autoptr (JsonNode) report = NULL;
  g_autoptr (JsonNode) small = NULL;
  g_autoptr (GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autofree char *rendered = NULL;
  JsonObject *measures, *overall, *by_style, *paired;
  /* Reciprocal ranks: 1001 of 1 (the even records), 1000 of 1/2, that is
   * 1/2 + b/2 with b 1001 ones among 2001 bits (mean q, sample variance
   * n q (1 − q) / (n − 1)). z: the 0.975 quantile of the standard normal. */
  double q = 1001.0 / 2001.0, z = 1.959963984540054;
  double half = z * 0.5 * sqrt (q * (1.0 - q) / 2000.0);

  report = grammar_report_build_full (a, b, NULL, cutoffs, G_N_ELEMENTS (cutoffs), FALSE, 0.05, 0, &error);
  g_assert_no_error (error);
  measures = json_object_get_object_member (json_node_get_object (report), "retrieval_metrics");
  g_assert_cmpint (json_object_get_int_member (measures, "measured"), ==, 2001);
  overall = json_object_get_object_member (measures, "overall");
  g_assert_cmpfloat_with_epsilon (figure_value (overall, "mrr@retrieved", &(gint64) { 0 }), 0.5 + q / 2.0, 1e-12);
  g_assert_cmpstr (method_of (overall, "mrr@retrieved", "method"), ==, "normal");
  assert_interval (json_object_get_object_member (overall, "mrr@retrieved"), 0.5 + q / 2.0 - half,
                   0.5 + q / 2.0 + half);
  g_assert_cmpstr (method_of (overall, "precision@retrieved", "method"), ==, "normal");
  g_assert_cmpstr (method_of (overall, "hit@retrieved", "method"), ==, "wilson");
  by_style = json_object_get_object_member (measures, "by_style");
  g_assert_cmpstr (method_of (json_object_get_object_member (by_style, "short"), "mrr@retrieved", "method"), ==,
                   "bootstrap");
  g_assert_cmpstr (method_of (json_object_get_object_member (by_style, "long"), "mrr@retrieved", "method"), ==,
                   "bootstrap");

  /* B retrieves a at rank 2 everywhere: differences −1/2 in the 1001 even
   * groups, 0 in the others, so the interval is −(the above). */
  paired = json_object_get_object_member (json_object_get_object_member (json_object_get_object_member (
    json_node_get_object (report), "comparison"), "retrieval_metrics"), "mrr@retrieved");
  g_assert_cmpint (json_object_get_int_member (paired, "pairs"), ==, 2001);
  g_assert_cmpstr (json_object_get_string_member (paired, "interval_method"), ==, "normal");
  assert_interval (paired, -q / 2.0 - half, -q / 2.0 + half);

  g_assert_true (grammar_report_write (report, GRAMMAR_REPORT_FORMAT_TEXT, stream, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL));   /* NUL-terminated */
  g_assert_true (g_output_stream_close (stream, NULL, NULL));
  rendered = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
  grammar_test_assert_contains (rendered, "bootstrap 95 % intervals (seed 1, 1000 resamples; normal above 2000 "
                                          "records)");
  grammar_test_assert_contains (rendered, "the difference's bootstrap 95 % interval (normal above 2000 groups)");

  small = grammar_report_build_full (small_a, small_b, NULL, cutoffs, G_N_ELEMENTS (cutoffs), FALSE, 0.05, 0, &error);
  g_assert_no_error (error);
  paired = json_object_get_object_member (json_object_get_object_member (json_node_get_object (small), "comparison"),
                                          "retrieval_metrics");
  g_assert_cmpstr (method_of (paired, "mrr@retrieved", "interval_method"), ==, "bootstrap");
  overall = json_object_get_object_member (json_object_get_object_member (json_node_get_object (small),
                                                                          "retrieval_metrics"), "overall");
  g_assert_cmpstr (method_of (overall, "mrr@retrieved", "method"), ==, "bootstrap");
  grammar_test_remove_tree (dir);
}

static GPtrArray *
keypoints_of (const char *json)
{
  g_autoptr (GrammarRecord) record = record_from (json);

  return grammar_keypoint_list_from_record (record);
}

static void
test_keypoint_phrasing (void)
{
  g_autoptr (GPtrArray) one = keypoints_of (
    "{\"id\":\"1\",\"text\":\"q\",\"sql\":\"SELECT p.start_date FROM project AS p WHERE p.name = 'Atlas'\","
    "\"bindings\":{\"project.name\":\"Atlas\"},\"answer\":[[\"2023-03-01\"]]}");
  g_autoptr (GPtrArray) two = keypoints_of (
    "{\"id\":\"2\",\"text\":\"q\",\"sql\":\"SELECT e.name FROM employee e JOIN project p ON p.director_id = "
    "e.employee_id WHERE p.budget > 10\",\"bindings\":{\"project.budget\":10},\"answer\":[[\"Ada\"],[null],[\"Bo\"]]}");
  g_autoptr (GPtrArray) count = keypoints_of (
    "{\"id\":\"3\",\"text\":\"q\",\"sql\":\"SELECT count(*) FROM employee WHERE title = 'CEO'\","
    "\"bindings\":{\"employee.title\":\"CEO\"},\"answer\":[[1]]}");
  g_autoptr (GPtrArray) empty = keypoints_of ("{\"id\":\"4\",\"text\":\"q\",\"sql\":\"SELECT a FROM t\",\"answer\":[]}");
  g_autofree char *reference = NULL;
  GrammarKeypoint *keypoint;

  g_assert_cmpuint (one->len, ==, 1);
  keypoint = g_ptr_array_index (one, 0);
  g_assert_cmpstr (grammar_keypoint_get_text (keypoint), ==,
                   "the start date of the project whose name is 'Atlas' is 2023-03-01");
  g_assert_cmpstr (grammar_keypoint_get_table (keypoint), ==, "project");
  g_assert_cmpstr (grammar_keypoint_get_column (keypoint), ==, "start_date");

  g_assert_cmpuint (two->len, ==, 2);   /* the null is no keypoint */
  keypoint = g_ptr_array_index (two, 1);
  g_assert_cmpstr (grammar_keypoint_get_text (keypoint), ==,
                   "one of the name of the employee for the project whose budget is '10' is Bo");
  g_assert_cmpstr (grammar_keypoint_get_table (keypoint), ==, "employee");

  keypoint = g_ptr_array_index (count, 0);
  g_assert_cmpstr (grammar_keypoint_get_text (keypoint), ==,
                   "the number of employee rows of the employee whose title is 'CEO' is 1");
  g_assert_null (grammar_keypoint_get_column (keypoint));
  g_assert_cmpuint (empty->len, ==, 0);

  reference = grammar_keypoint_list_to_reference (one);
  g_assert_cmpstr (reference, ==, "The start date of the project whose name is 'Atlas' is 2023-03-01.");
}

static const char keypoint_config[] =
  "[database]\nplugin=sqlite\nscript=staff.sql\n\n"
  "[matcher]\nplugin=contains\n\n"
  "[metrics]\nmetrics=keypoints\n\n"
  "[keypoints]\nplugin=rageval-keypoints\nsource=answer\nverdicts=grounded\n";

static const char keypoint_sql[] =
  "CREATE TABLE employee (id INTEGER PRIMARY KEY, name TEXT, title TEXT);\n"
  "INSERT INTO employee VALUES (1, 'Ada Park', 'Chief Executive Officer'), (2, 'Bo Lind', 'Data Engineer'),"
  " (3, 'Cy Moss', 'Data Engineer'), (4, 'Di Roy', 'Designer');\n";

static const char keypoint_results[] =
  /* covers */
  "{\"id\":\"1\",\"text\":\"Title of 'Ada Park'\",\"sql\":\"SELECT title FROM employee WHERE name = 'Ada Park'\","
  "\"bindings\":{\"employee.name\":\"Ada Park\"},\"answer\":[[\"Chief Executive Officer\"]],"
  "\"response\":\"Ada Park is the Chief Executive Officer.\",\"latency_ms\":0}\n"
  /* contradicts: another title of the column */
  "{\"id\":\"2\",\"text\":\"Title of 'Di Roy'\",\"sql\":\"SELECT title FROM employee WHERE name = 'Di Roy'\","
  "\"bindings\":{\"employee.name\":\"Di Roy\"},\"answer\":[[\"Designer\"]],"
  "\"response\":\"Di Roy works as a data engineer.\",\"latency_ms\":0}\n"
  /* neither; and a name of the query is no contradiction */
  "{\"id\":\"3\",\"text\":\"Name of the designer\",\"sql\":\"SELECT name FROM employee WHERE title = 'Designer'\","
  "\"bindings\":{\"employee.title\":\"Designer\"},\"answer\":[[\"Di Roy\"]],"
  "\"response\":\"I do not know who the designer is.\",\"latency_ms\":0}\n"
  /* two keypoints: one covered, one contradicted by a third name */
  "{\"id\":\"4\",\"text\":\"Data engineers\",\"sql\":\"SELECT name FROM employee WHERE title = 'Data Engineer'\","
  "\"bindings\":{\"employee.title\":\"Data Engineer\"},\"answer\":[[\"Bo Lind\"],[\"Cy Moss\"]],"
  "\"response\":\"The data engineers are Bo Lind and Ada Park.\",\"latency_ms\":0}\n"
  /* no keypoints */
  "{\"id\":\"5\",\"text\":\"Nobody\",\"sql\":\"SELECT name FROM employee WHERE title = 'Pilot'\","
  "\"bindings\":{\"employee.title\":\"Pilot\"},\"answer\":[],\"response\":\"Nobody.\",\"latency_ms\":0}\n";

static void
test_keypoints_grounded (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("test-rageval-XXXXXX");
  g_autofree char *config_path = grammar_test_write_file (dir, "cfg.ini", keypoint_config);
  g_autofree char *sql = grammar_test_write_file (dir, "staff.sql", keypoint_sql);
  g_autofree char *input = grammar_test_write_file (dir, "results.jsonl", keypoint_results);
  g_autofree char *output = g_build_filename (dir, "assessed.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarAssessRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  static const double completeness[] = { 1.0, 0.0, 0.0, 0.5 };
  static const double hallucination[] = { 0.0, 1.0, 0.0, 0.5 };

  config = grammar_config_new_from_file (config_path, &error);
  g_assert_no_error (error);
  runner = grammar_assess_runner_new_from_config (config, &error);
  g_assert_no_error (error);
  grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr (GrammarRecord) record = record_from (lines[i]);
      guint id = (guint) g_ascii_strtoull (grammar_record_get_id (record), NULL, 10) - 1;
      GrammarScore *score = grammar_record_get_score (record, "keypoints");
      JsonObject *evidence;

      g_assert_nonnull (score);
      if (id == 4)
        {
          g_assert_false (grammar_score_is_measured (score));
          continue;
        }
      evidence = json_node_get_object (grammar_score_get_evidence (score));
      g_assert_cmpfloat_with_epsilon (grammar_score_get_value (score), completeness[id], 1e-9);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (evidence, "hallucination"), hallucination[id],
                                      1e-9);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (evidence, "irrelevance"),
                                      1.0 - completeness[id] - hallucination[id], 1e-9);
      if (id == 1)
        grammar_test_assert_contains (grammar_score_get_reason (score), "states 'Data Engineer'");
      if (id == 3)
        grammar_test_assert_contains (grammar_score_get_reason (score), "states 'Ada Park'");
    }
  grammar_test_remove_tree (dir);
}

static void
test_keypoints_refused (void)
{
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarAssessRunner) runner = NULL;
  g_autoptr (GError) error = NULL;

  config = grammar_config_new_from_data ("[metrics]\nmetrics=keypoints\n[keypoints]\nplugin=rageval-keypoints\n",
                                         -1, NULL, &error);
  g_assert_no_error (error);
  runner = grammar_assess_runner_new_from_config (config, &error);
  g_assert_null (runner);
  g_assert_nonnull (error);
  grammar_test_assert_contains (error->message, "needs a matcher");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rageval/retrieval/record", test_retrieval_record);
  g_test_add_func ("/rageval/retrieval/report", test_retrieval_report);
  g_test_add_func ("/rageval/retrieval/large", test_retrieval_large);
  g_test_add_func ("/rageval/keypoints/phrasing", test_keypoint_phrasing);
  g_test_add_func ("/rageval/keypoints/grounded", test_keypoints_grounded);
  g_test_add_func ("/rageval/keypoints/refused", test_keypoints_refused);
  return g_test_run ();
}
