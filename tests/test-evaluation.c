/* test-evaluation.c: group tagging, the metrics and the comparison of judged runs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmp_dir;

/* Fixtures: groups of records written as judged.jsonl lines. Each
 * character of @outcomes is one record:
 *
 *   C correct                   c correct, retrieval judged incorrect
 *   L incorrect, retrieval ok   R incorrect, retrieval incorrect
 *   I incorrect, no retrieval   U verdict unmeasured
 *   u unmeasured, retrieval ok  N no verdict (a response only)
 *   n no verdict, retrieval incorrect
 *
 * Every record but I reports one retrieved document: a correct answer
 * counts as a sufficient context only when the system reported what it
 * retrieved (see test_unreported).
 */
static void
add_group (GString    *jsonl,
           const char *group,
           const char *template_id,
           const char *style,
           const char *sql,
           const char *answer,
           const char *outcomes)
{
  for (guint k = 0; outcomes[k] != '\0'; k++)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;
      g_autofree char *id = g_strdup_printf ("%s-%u", group, k);
      g_autofree char *text = g_strdup_printf ("%s wording %u", group, k);
      g_autofree char *reason = g_strdup_printf ("why %s", id);
      g_autofree char *line = NULL;
      const char *verdict = NULL, *retrieval = NULL;

      switch (outcomes[k])
        {
        case 'C': verdict = "correct"; break;
        case 'c': verdict = "correct"; retrieval = "incorrect"; break;
        case 'L': verdict = "incorrect"; retrieval = "correct"; break;
        case 'R': verdict = "incorrect"; retrieval = "incorrect"; break;
        case 'I': verdict = "incorrect"; break;
        case 'U': verdict = "unmeasured"; break;
        case 'u': verdict = "unmeasured"; retrieval = "correct"; break;
        case 'N': break;
        case 'n': retrieval = "incorrect"; break;
        default: g_assert_not_reached ();
        }

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, id);
      json_builder_set_member_name (builder, "group");
      json_builder_add_string_value (builder, group);
      if (template_id != NULL)
        {
          json_builder_set_member_name (builder, "template");
          json_builder_add_string_value (builder, template_id);
        }
      if (style != NULL)
        {
          json_builder_set_member_name (builder, "style");
          json_builder_add_string_value (builder, style);
        }
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, text);
      if (sql != NULL)
        {
          json_builder_set_member_name (builder, "sql");
          json_builder_add_string_value (builder, sql);
        }
      json_builder_set_member_name (builder, "answer");
      json_builder_add_value (builder, json_from_string (answer, NULL));
      json_builder_set_member_name (builder, "response");
      json_builder_add_string_value (builder, "some response");
      if (outcomes[k] != 'I')
        {
          json_builder_set_member_name (builder, "retrieved");
          json_builder_add_value (builder, json_from_string ("[{\"id\": \"d1\", \"score\": 1}]", NULL));
        }
      if (verdict != NULL)
        {
          json_builder_set_member_name (builder, "verdict");
          json_builder_add_string_value (builder, verdict);
        }
      if (retrieval != NULL)
        {
          json_builder_set_member_name (builder, "retrieval");
          json_builder_add_string_value (builder, retrieval);
        }
      if (verdict != NULL)
        {
          json_builder_set_member_name (builder, "judge");
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "matcher");
          json_builder_add_string_value (builder, "test");
          json_builder_set_member_name (builder, "score");
          json_builder_add_double_value (builder, g_str_equal (verdict, "correct") ? 1.0 : 0.0);
          json_builder_set_member_name (builder, "reason");
          json_builder_add_string_value (builder, reason);
          json_builder_end_object (builder);
        }
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      line = json_to_string (root, FALSE);
      g_string_append_printf (jsonl, "%s\n", line);
    }
}

/* The main fixture: seven groups of ten whose numbers are known.
 *
 *   g1  t1 short robust      10 correct
 *   g2  t1 short non_robust  6 correct (retrieval judged incorrect: ignored), 2 L, 1 R, 1 I
 *   g3  t1 short gap         3 L, 7 R         → attribution language-model
 *   g4  t2 short gap         10 R             → attribution retrieval
 *   g5  t2 short gap         10 I, no sql     → attribution unknown
 *   g6  -  short unmeasured  4 U, 2 u, 3 N, 1 n
 *   g10 -  long  non_robust  3 C, 1 L, 4 R, 2 U
 *
 * instances 70, unmeasured 12, measured 58, correct 19:
 *   accuracy 19/58, robustness 19/28 (g1, g2, g10), knowledge 1 − 3/6.
 * effective retrieval, correct/measured per group: g1 10/10, g2 8/9,
 *   g3 3/10, g4 0/10, g5 0/0, g6 2/3, g10 4/8: accuracy 27/50,
 *   robustness 22/27.
 */
static char *
main_fixture (void)
{
  GString *jsonl = g_string_new (NULL);

  add_group (jsonl, "g1", "t1", "short", "SELECT industry FROM company WHERE name = 'A'", "[[\"Oil\"]]", "CCCCCCCCCC");
  add_group (jsonl, "g2", "t1", "short", "SELECT p.name FROM \"people\" p JOIN Company c ON p.cid = c.id",
             "[[\"Ann\"], [\"Bo\"]]", "ccccccLLRI");
  add_group (jsonl, "g3", "t1", "short", "select count(*) from people", "[[42]]", "LLLRRRRRRR");
  add_group (jsonl, "g4", "t2", "short", "SELECT a FROM company, `office` AS o WHERE o.id = 1", "[[1]]", "RRRRRRRRRR");
  add_group (jsonl, "g5", "t2", "short", NULL, "[[\"x\"]]", "IIIIIIIIII");
  add_group (jsonl, "g6", NULL, "short", "SELECT 1", "[[1]]", "UUUUuuNNNn");
  add_group (jsonl, "g10", NULL, "long", "SELECT x FROM [people] WHERE y = 2", "[[\"y\"]]", "CCCLRRRRUU");
  return g_string_free (jsonl, FALSE);
}

static GrammarEvaluation *
load_text (const char  *name,
           const char  *text,
           char       **path_out,
           GError     **error)
{
  g_autofree char *path = grammar_test_write_file (tmp_dir, name, text);
  GrammarEvaluation *evaluation = grammar_evaluation_load (path, NULL, error);

  if (path_out != NULL)
    *path_out = g_steal_pointer (&path);
  return evaluation;
}

static GrammarEvaluation *
load_main (char **path)
{
  g_autofree char *text = main_fixture ();
  g_autoptr (GError) error = NULL;
  GrammarEvaluation *evaluation = load_text ("main.judged.jsonl", text, path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (evaluation);
  return evaluation;
}

/* Records made in memory from JSONL text. */
static GPtrArray *
records_of (const char *jsonl)
{
  g_auto (GStrv) lines = g_strsplit (jsonl, "\n", -1);
  GPtrArray *records = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonNode) node = NULL;
      g_autoptr (GError) error = NULL;
      GrammarRecord *record;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      record = grammar_record_new_from_json (node, &error);
      g_assert_no_error (error);
      g_ptr_array_add (records, record);
    }
  return records;
}

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_node_get_object (node);
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));
  return json_node_get_array (node);
}

static void
assert_keys (JsonObject *object,
             const char *expected)
{
  g_autoptr (GList) members = json_object_get_members (object);
  g_autoptr (GString) keys = g_string_new (NULL);

  for (GList *l = members; l != NULL; l = l->next)
    g_string_append_printf (keys, "%s%s", keys->len > 0 ? " " : "", (const char *) l->data);
  g_assert_cmpstr (keys->str, ==, expected);
}

static void
assert_rate (JsonObject *object,
             const char *name,
             double      expected)
{
  JsonNode *node = json_object_get_member (object, name);

  g_assert_nonnull (node);
  if (isnan (expected))
    g_assert_true (JSON_NODE_HOLDS_NULL (node));
  else
    g_assert_cmpfloat_with_epsilon (json_node_get_double (node), expected, 1e-9);
}

static void
assert_interval (JsonObject *intervals,
                 const char *name,
                 double      low,
                 double      high)
{
  JsonArray *interval = member_array (intervals, name);

  g_assert_cmpuint (json_array_get_length (interval), ==, 2);
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (interval, 0), low, 1e-6);
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (interval, 1), high, 1e-6);
}

static JsonObject *
breakdown (JsonObject *report,
           const char *name,
           const char *key)
{
  JsonArray *entries = member_array (report, name);

  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);

      if (g_str_equal (json_object_get_string_member (entry, "key"), key))
        return entry;
    }
  g_error ("%s has no key %s", name, key);
}

static char *
keys_of (JsonObject *report,
         const char *name)
{
  JsonArray *entries = member_array (report, name);
  GString *keys = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (entries); i++)
    g_string_append_printf (keys, "%s%s", i > 0 ? " " : "",
                            json_object_get_string_member (json_array_get_object_element (entries, i), "key"));
  return g_string_free (keys, FALSE);
}

/* Metrics */

static void
test_metrics (void)
{
  g_autoptr (GrammarEvaluation) evaluation = load_main (NULL);

  g_assert_cmpuint (grammar_evaluation_get_instances (evaluation), ==, 70);
  g_assert_cmpuint (grammar_evaluation_get_unmeasured (evaluation), ==, 12);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, NULL), ==, 7);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "gap"), ==, 3);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "robust"), ==, 1);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "non_robust"), ==, 2);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "unmeasured"), ==, 1);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "bogus"), ==, 0);
  g_assert_cmpfloat_with_epsilon (grammar_evaluation_get_accuracy (evaluation), 19.0 / 58.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (grammar_evaluation_get_robustness (evaluation), 19.0 / 28.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (grammar_evaluation_get_knowledge_accuracy (evaluation), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (grammar_evaluation_get_retrieval_accuracy (evaluation), 27.0 / 50.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (grammar_evaluation_get_retrieval_robustness (evaluation), 22.0 / 27.0, 1e-12);
  g_assert_cmpuint (grammar_evaluation_get_records (evaluation)->len, ==, 70);
  g_assert_cmpstr (grammar_record_get_id (g_ptr_array_index (grammar_evaluation_get_records (evaluation), 0)), ==, "g1-0");
}

/* Undefined metrics are NAN (null in JSON), never 0. */
static void
test_undefined (void)
{
  GString *jsonl = g_string_new (NULL);
  g_autofree char *text = NULL;
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *report, *intervals;

  add_group (jsonl, "a", NULL, NULL, NULL, "[[1]]", "UUN");
  text = g_string_free (jsonl, FALSE);
  records = records_of (text);
  evaluation = grammar_evaluation_new (records, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (grammar_evaluation_get_unmeasured (evaluation), ==, 3);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "unmeasured"), ==, 1);
  g_assert_true (isnan (grammar_evaluation_get_accuracy (evaluation)));
  g_assert_true (isnan (grammar_evaluation_get_robustness (evaluation)));
  g_assert_true (isnan (grammar_evaluation_get_knowledge_accuracy (evaluation)));
  g_assert_true (isnan (grammar_evaluation_get_retrieval_accuracy (evaluation)));
  g_assert_true (isnan (grammar_evaluation_get_retrieval_robustness (evaluation)));

  node = grammar_evaluation_to_json (evaluation, 0);
  report = json_node_get_object (node);
  g_assert_true (json_object_get_null_member (report, "source"));
  g_assert_cmpuint (json_array_get_length (member_array (report, "styles")), ==, 0);
  assert_rate (report, "accuracy", NAN);
  assert_rate (report, "robustness", NAN);
  assert_rate (report, "knowledge_accuracy", NAN);
  assert_rate (member_object (report, "retrieval"), "accuracy", NAN);
  intervals = member_object (report, "intervals");
  g_assert_true (json_object_get_null_member (intervals, "accuracy"));
  g_assert_true (json_object_get_null_member (intervals, "retrieval_robustness"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (member_array (report, "by_style"), 0),
                                                  "key"), ==, "(none)");
  /* no record has its latency */
  g_assert_cmpint (json_object_get_int_member (member_object (report, "system_latency_ms"), "count"), ==, 0);
  g_assert_true (json_object_get_null_member (member_object (report, "system_latency_ms"), "median"));
}

/* system_latency_ms: the distribution of the records' latency_ms, a
 * failed query's included, a record without one left out. */
static void
test_latency (void)
{
  const char *jsonl =
    "{\"id\": \"HR-Policy v2.pdf#3\", \"group\": \"g1\", \"response\": \"margit.o@hr.example.com\", "
    "\"latency_ms\": 40, \"verdict\": \"correct\"}\n"
    "{\"id\": \"HR-Policy v2.pdf#4\", \"group\": \"g1\", \"response\": \"https://hr.example.com\", "
    "\"latency_ms\": 10, \"verdict\": \"incorrect\"}\n"
    "{\"id\": \"q3\", \"group\": \"g2\", \"response\": null, \"error\": \"HTTP 503\", \"latency_ms\": 2000.5, "
    "\"verdict\": \"unmeasured\"}\n"
    "{\"id\": \"q4\", \"group\": \"g2\", \"response\": \"x\", \"latency_ms\": 30, \"verdict\": \"correct\"}\n"
    "{\"id\": \"q5\", \"group\": \"g2\", \"response\": \"x\", \"latency_ms\": 20, \"verdict\": \"correct\"}\n"
    "{\"id\": \"q6\", \"group\": \"g3\", \"response\": \"x\", \"verdict\": \"correct\"}\n";
  g_autoptr (GPtrArray) records = records_of (jsonl);
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *latency;

  evaluation = grammar_evaluation_new (records, NULL, &error);
  g_assert_no_error (error);
  node = grammar_evaluation_to_json (evaluation, 0);
  latency = member_object (json_node_get_object (node), "system_latency_ms");
  assert_keys (latency, "count median p95 max mean");
  g_assert_cmpint (json_object_get_int_member (latency, "count"), ==, 5);
  assert_rate (latency, "median", 30);
  assert_rate (latency, "p95", 2000.5);
  assert_rate (latency, "max", 2000.5);
  assert_rate (latency, "mean", (40 + 10 + 2000.5 + 30 + 20) / 5.0);

  /* an even count: the middle two's mean */
  g_ptr_array_remove_index (records, 2);
  g_clear_object (&evaluation);
  g_clear_pointer (&node, json_node_unref);
  evaluation = grammar_evaluation_new (records, NULL, &error);
  g_assert_no_error (error);
  node = grammar_evaluation_to_json (evaluation, 0);
  latency = member_object (json_node_get_object (node), "system_latency_ms");
  assert_rate (latency, "median", 25);
  assert_rate (latency, "p95", 40);
}

static const char *module_of (GrammarComparison *comparison);

/* Judged lines of the user's HR service; @reported: whether the system
 * reported its documents (`retrieved`, HR-Policy v2.pdf#3 or none). */
static void
add_hr_record (GString    *jsonl,
               const char *id,
               const char *group,
               gboolean    correct,
               const char *retrieved,
               const char *retrieval)
{
  g_string_append_printf (jsonl,
                          "{\"id\":\"%s\",\"group\":\"%s\",\"template\":\"hr-approver\",\"style\":\"short\","
                          "\"text\":\"Who approves “parental leave” for %s?\",\"sql\":\"SELECT approver FROM policy\","
                          "\"answer\":[[\"margit.odegaard@hr.example\"]],\"doc_ids\":[\"HR-Policy v2.pdf#3\"],"
                          "\"response\":\"%s\"%s%s,\"verdict\":\"%s\",\"retrieval\":\"%s\"}\n",
                          id, group, group,
                          correct ? "Ask Margit <margit.odegaard@hr.example>" : "Ask your manager.",
                          retrieved != NULL ? ",\"retrieved\":" : "", retrieved != NULL ? retrieved : "",
                          correct ? "correct" : "incorrect", retrieval);
}

/* A system that reported no documents for some records: their retrieval
 * is unmeasured, even for a correct answer, and a gap group of them is
 * blamed on neither module; a reported empty list is a miss. A run with
 * no reported documents at all says so in `warnings`. */
static void
test_unreported (void)
{
  const char *hit = "[{\"id\":\"HR-Policy v2.pdf#3\",\"score\":0.87}]";
  g_autoptr (GString) mixed = g_string_new (NULL);
  g_autoptr (GString) none = g_string_new (NULL);
  g_autoptr (GPtrArray) mixed_records = NULL;
  g_autoptr (GPtrArray) none_records = NULL;
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (GrammarEvaluation) unreported = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) none_node = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *report, *retrieval, *gap, *debug;
  const char *warning;

  /* "Oslo": non-robust; "Bergen": a gap, nothing reported; "Tromsø": a gap, reported empty. */
  add_hr_record (mixed, "hr-1", "Oslo", TRUE, hit, "correct");
  add_hr_record (mixed, "hr-2", "Oslo", TRUE, NULL, "unmeasured");
  add_hr_record (mixed, "hr-3", "Oslo", FALSE, NULL, "unmeasured");
  add_hr_record (mixed, "hr-4", "Bergen", FALSE, NULL, "unmeasured");
  add_hr_record (mixed, "hr-5", "Bergen", FALSE, NULL, "unmeasured");
  add_hr_record (mixed, "hr-6", "Tromsø", FALSE, "[]", "incorrect");
  mixed_records = records_of (mixed->str);
  evaluation = grammar_evaluation_new (mixed_records, NULL, &error);
  g_assert_no_error (error);

  /* Measured: hr-1 (correct) and hr-6 (a miss); hr-2 is correct but reported nothing. */
  g_assert_cmpfloat_with_epsilon (grammar_evaluation_get_retrieval_accuracy (evaluation), 0.5, 1e-12);
  node = grammar_evaluation_to_json (evaluation, 0);
  report = json_node_get_object (node);
  retrieval = member_object (report, "retrieval");
  g_assert_cmpint (json_object_get_int_member (retrieval, "measured"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (retrieval, "unmeasured"), ==, 4);
  g_assert_false (json_object_has_member (report, "warnings"));
  gap = member_object (member_object (report, "attribution"), "gap_groups");
  g_assert_cmpint (json_object_get_int_member (gap, "unknown"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (gap, "retrieval"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (gap, "language-model"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (member_array (report, "gap_groups"), 0),
                                                  "group"), ==, "Bergen");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (member_array (report, "gap_groups"), 0),
                                                  "attribution"), ==, "unknown");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (member_array (report, "gap_groups"), 1),
                                                  "attribution"), ==, "retrieval");
  g_assert_cmpuint (json_array_get_length (member_array (report, "debug")), ==, 1);
  debug = json_array_get_object_element (member_array (report, "debug"), 0);
  g_assert_cmpstr (json_object_get_string_member (debug, "id"), ==, "hr-3");
  g_assert_cmpstr (json_object_get_string_member (debug, "retrieval"), ==, "unmeasured");
  g_assert_cmpstr (json_object_get_string_member (debug, "attribution"), ==, "unknown");

  /* Nothing reported anywhere: every retrieval figure undefined, every gap unknown, and a warning. */
  add_hr_record (none, "hr-1", "Oslo", TRUE, NULL, "unmeasured");
  add_hr_record (none, "hr-2", "Oslo", FALSE, NULL, "unmeasured");
  add_hr_record (none, "hr-3", "Bergen", FALSE, NULL, "unmeasured");
  add_hr_record (none, "hr-4", "Tromsø", FALSE, NULL, "unmeasured");
  none_records = records_of (none->str);
  unreported = grammar_evaluation_new (none_records, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (isnan (grammar_evaluation_get_retrieval_accuracy (unreported)));
  g_assert_true (isnan (grammar_evaluation_get_retrieval_robustness (unreported)));
  none_node = grammar_evaluation_to_json (unreported, 0);
  report = json_node_get_object (none_node);
  g_assert_cmpint (json_object_get_int_member (member_object (report, "retrieval"), "measured"), ==, 0);
  gap = member_object (member_object (report, "attribution"), "gap_groups");
  g_assert_cmpint (json_object_get_int_member (gap, "unknown"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (gap, "retrieval"), ==, 0);
  g_assert_cmpuint (json_array_get_length (member_array (report, "warnings")), ==, 1);
  warning = json_array_get_string_element (member_array (report, "warnings"), 0);
  grammar_test_assert_contains (warning, "retrieval is unmeasured: the system reported no documents for any of the 4 "
                                         "answered records");
  grammar_test_assert_contains (warning, "retrieved-pointer");
  grammar_test_assert_contains (warning, "reports-documents=true");

  /* Two such runs that differ in accuracy: no module is blamed. */
  {
    g_autoptr (GString) text_a = g_string_new (NULL);
    g_autoptr (GString) text_b = g_string_new (NULL);
    g_autoptr (GPtrArray) records_a = NULL, records_b = NULL;
    g_autoptr (GrammarEvaluation) a = NULL, b = NULL;
    g_autoptr (GrammarComparison) comparison = NULL;
    g_autoptr (JsonNode) comparison_node = NULL;

    for (guint g = 0; g < 20; g++)
      for (guint k = 0; k < 10; k++)
        {
          g_autofree char *id = g_strdup_printf ("hr-%u-%u", g, k);
          g_autofree char *group = g_strdup_printf ("office %u", g);

          add_hr_record (text_a, id, group, TRUE, NULL, "unmeasured");
          add_hr_record (text_b, id, group, k < 5, NULL, "unmeasured");
        }
    records_a = records_of (text_a->str);
    records_b = records_of (text_b->str);
    a = grammar_evaluation_new (records_a, "short.judged.jsonl", &error);
    g_assert_no_error (error);
    b = grammar_evaluation_new (records_b, "long.judged.jsonl", &error);
    g_assert_no_error (error);
    comparison = grammar_comparison_new (a, b, FALSE, 0.05, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (module_of (comparison), ==, "unknown");
    comparison_node = grammar_comparison_to_json (comparison);
    grammar_test_assert_contains (json_object_get_string_member (json_node_get_object (comparison_node), "conclusion"),
                                  "whether retrieval or the language model accounts for it is unknown");
  }
}

static void
test_json (void)
{
  g_autofree char *path = NULL;
  g_autoptr (GrammarEvaluation) evaluation = load_main (&path);
  g_autoptr (JsonNode) node = grammar_evaluation_to_json (evaluation, 0);
  JsonObject *report = json_node_get_object (node);
  JsonObject *groups, *retrieval, *intervals, *templates, *attribution;

  /* `attribution` since g5's attribution is unknown; no `warnings`:
   * documents were reported. */
  assert_keys (report, "format source styles instances measured unmeasured correct groups accuracy robustness "
                       "knowledge_accuracy retrieval intervals attribution system_latency_ms by_template by_style "
                       "by_table templates gap_groups debug");
  g_assert_cmpstr (json_object_get_string_member (report, "format"), ==, "grammar-report-1");
  g_assert_cmpstr (json_object_get_string_member (report, "source"), ==, path);
  g_assert_cmpstr (json_array_get_string_element (member_array (report, "styles"), 0), ==, "long");
  g_assert_cmpstr (json_array_get_string_element (member_array (report, "styles"), 1), ==, "short");
  g_assert_cmpint (json_object_get_int_member (report, "instances"), ==, 70);
  g_assert_cmpint (json_object_get_int_member (report, "measured"), ==, 58);
  g_assert_cmpint (json_object_get_int_member (report, "unmeasured"), ==, 12);
  g_assert_cmpint (json_object_get_int_member (report, "correct"), ==, 19);

  groups = member_object (report, "groups");
  assert_keys (groups, "total gap robust non_robust unmeasured instances");
  g_assert_cmpint (json_object_get_int_member (groups, "total"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (groups, "gap"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (groups, "robust"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (groups, "non_robust"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (groups, "unmeasured"), ==, 1);
  assert_keys (member_object (groups, "instances"), "gap robust non_robust unmeasured");
  g_assert_cmpint (json_object_get_int_member (member_object (groups, "instances"), "gap"), ==, 30);
  g_assert_cmpint (json_object_get_int_member (member_object (groups, "instances"), "non_robust"), ==, 20);

  assert_rate (report, "accuracy", 19.0 / 58.0);
  assert_rate (report, "robustness", 19.0 / 28.0);
  assert_rate (report, "knowledge_accuracy", 0.5);
  retrieval = member_object (report, "retrieval");
  assert_keys (retrieval, "accuracy robustness measured unmeasured");
  assert_rate (retrieval, "accuracy", 27.0 / 50.0);
  assert_rate (retrieval, "robustness", 22.0 / 27.0);
  g_assert_cmpint (json_object_get_int_member (retrieval, "measured"), ==, 50);
  g_assert_cmpint (json_object_get_int_member (retrieval, "unmeasured"), ==, 20);

  /* Wilson 95 %, computed by hand (z = 1.959964) */
  intervals = member_object (report, "intervals");
  assert_keys (intervals, "accuracy robustness retrieval_accuracy retrieval_robustness");
  assert_interval (intervals, "accuracy", 0.220832910849, 0.455759453215);
  assert_interval (intervals, "robustness", 0.493388431809, 0.820667530775);
  assert_interval (intervals, "retrieval_accuracy", 0.403988713992, 0.670303478078);
  assert_interval (intervals, "retrieval_robustness", 0.633013163815, 0.918192928570);

  /* The gap groups g3, g4, g5 by their attribution. */
  attribution = member_object (member_object (report, "attribution"), "gap_groups");
  assert_keys (attribution, "language-model retrieval unknown");
  g_assert_cmpint (json_object_get_int_member (attribution, "language-model"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (attribution, "retrieval"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (attribution, "unknown"), ==, 1);

  /* Each template by the SQL and the text of its first record; records
   * without a template have none. */
  templates = member_object (report, "templates");
  assert_keys (templates, "t1 t2");
  assert_keys (member_object (templates, "t1"), "sql example");
  g_assert_cmpstr (json_object_get_string_member (member_object (templates, "t1"), "sql"), ==,
                   "SELECT industry FROM company WHERE name = 'A'");
  g_assert_cmpstr (json_object_get_string_member (member_object (templates, "t1"), "example"), ==, "g1 wording 0");
  g_assert_cmpstr (json_object_get_string_member (member_object (templates, "t2"), "sql"), ==,
                   "SELECT a FROM company, `office` AS o WHERE o.id = 1");
  g_assert_cmpstr (json_object_get_string_member (member_object (templates, "t2"), "example"), ==, "g4 wording 0");
}

static void
test_breakdowns (void)
{
  g_autoptr (GrammarEvaluation) evaluation = load_main (NULL);
  g_autoptr (JsonNode) node = grammar_evaluation_to_json (evaluation, 0);
  JsonObject *report = json_node_get_object (node);
  g_autofree char *template_keys = keys_of (report, "by_template");
  g_autofree char *style_keys = keys_of (report, "by_style");
  g_autofree char *table_keys = keys_of (report, "by_table");
  JsonObject *entry;

  g_assert_cmpstr (template_keys, ==, "(none) t1 t2");
  g_assert_cmpstr (style_keys, ==, "long short");
  /* FROM / JOIN, quoted names unquoted, lower-cased, `FROM a, b` both */
  g_assert_cmpstr (table_keys, ==, "(none) company office people");

  entry = breakdown (report, "by_template", "t1");
  assert_keys (entry, "key instances measured unmeasured correct groups accuracy robustness knowledge_accuracy "
                      "retrieval intervals");
  g_assert_cmpint (json_object_get_int_member (entry, "instances"), ==, 30);
  g_assert_cmpint (json_object_get_int_member (entry, "correct"), ==, 16);
  g_assert_cmpint (json_object_get_int_member (member_object (entry, "groups"), "gap"), ==, 1);
  assert_rate (entry, "robustness", 16.0 / 20.0);
  assert_rate (entry, "knowledge_accuracy", 1.0 - 1.0 / 3.0);
  assert_rate (member_object (entry, "retrieval"), "accuracy", 21.0 / 29.0);

  entry = breakdown (report, "by_template", "t2");
  assert_rate (entry, "accuracy", 0.0);
  assert_rate (entry, "robustness", NAN);
  assert_rate (entry, "knowledge_accuracy", 0.0);
  g_assert_true (json_object_get_null_member (member_object (entry, "intervals"), "robustness"));

  entry = breakdown (report, "by_template", "(none)");
  g_assert_cmpint (json_object_get_int_member (entry, "measured"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (entry, "unmeasured"), ==, 12);
  g_assert_cmpint (json_object_get_int_member (member_object (entry, "groups"), "unmeasured"), ==, 1);
  assert_rate (entry, "accuracy", 3.0 / 8.0);
  assert_rate (entry, "knowledge_accuracy", 1.0);

  entry = breakdown (report, "by_style", "short");
  g_assert_cmpint (json_object_get_int_member (entry, "instances"), ==, 60);
  g_assert_cmpint (json_object_get_int_member (entry, "correct"), ==, 16);
  entry = breakdown (report, "by_style", "long");
  g_assert_cmpint (json_object_get_int_member (member_object (entry, "groups"), "non_robust"), ==, 1);
  assert_rate (member_object (entry, "retrieval"), "robustness", 4.0 / 8.0);

  g_assert_cmpint (json_object_get_int_member (breakdown (report, "by_table", "company"), "instances"), ==, 30);
  g_assert_cmpint (json_object_get_int_member (breakdown (report, "by_table", "people"), "instances"), ==, 30);
  g_assert_cmpint (json_object_get_int_member (breakdown (report, "by_table", "office"), "instances"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (breakdown (report, "by_table", "(none)"), "instances"), ==, 20);
}

/* A style's groups are tagged from its own records: the same group can
 * be robust in one wording style and a gap in another. */
static void
test_breakdown_tags_per_key (void)
{
  GString *jsonl = g_string_new (NULL);
  g_autofree char *text = NULL;
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *report;

  add_group (jsonl, "q1", NULL, "short", "SELECT 1", "[[1]]", "CC");
  add_group (jsonl, "q1", NULL, "long", "SELECT 1", "[[1]]", "RR");
  text = g_string_free (jsonl, FALSE);
  /* same ids in both styles: make them distinct */
  records = records_of (text);
  for (guint i = 2; i < 4; i++)
    {
      g_autofree char *id = g_strdup_printf ("q1-long-%u", i);

      grammar_record_set_id (g_ptr_array_index (records, i), id);
    }
  evaluation = grammar_evaluation_new (records, "mixed.jsonl", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_evaluation_get_n_groups (evaluation, "non_robust"), ==, 1);

  node = grammar_evaluation_to_json (evaluation, 0);
  report = json_node_get_object (node);
  g_assert_cmpint (json_object_get_int_member (member_object (breakdown (report, "by_style", "short"), "groups"), "robust"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (member_object (breakdown (report, "by_style", "long"), "groups"), "gap"), ==, 1);
}

static void
test_lists (void)
{
  g_autoptr (GrammarEvaluation) evaluation = load_main (NULL);
  g_autoptr (JsonNode) node = grammar_evaluation_to_json (evaluation, 0);
  g_autoptr (JsonNode) capped = grammar_evaluation_to_json (evaluation, 2);
  JsonObject *report = json_node_get_object (node);
  JsonArray *gaps = member_array (report, "gap_groups");
  JsonArray *debug = member_array (report, "debug");
  JsonObject *gap, *entry;
  const char *expected_debug[][3] = {
    { "g2-6", "incorrect", "language-model" }, { "g2-7", "incorrect", "language-model" },
    { "g2-8", "incorrect", "retrieval" }, { "g2-9", "incorrect", "unknown" },
    { "g10-3", "incorrect", "language-model" }, { "g10-4", "incorrect", "retrieval" },
    { "g10-5", "incorrect", "retrieval" }, { "g10-6", "incorrect", "retrieval" },
    { "g10-7", "incorrect", "retrieval" }, { "g10-8", "unmeasured", "unknown" },
    { "g10-9", "unmeasured", "unknown" },
  };

  g_assert_cmpuint (json_array_get_length (gaps), ==, 3);
  gap = json_array_get_object_element (gaps, 0);
  assert_keys (gap, "group template style sql answer instances texts attribution");
  g_assert_cmpstr (json_object_get_string_member (gap, "group"), ==, "g3");
  g_assert_cmpstr (json_object_get_string_member (gap, "template"), ==, "t1");
  g_assert_cmpstr (json_object_get_string_member (gap, "style"), ==, "short");
  g_assert_cmpstr (json_object_get_string_member (gap, "sql"), ==, "select count(*) from people");
  g_assert_cmpint (json_array_get_int_element (json_array_get_array_element (member_array (gap, "answer"), 0), 0), ==, 42);
  g_assert_cmpint (json_object_get_int_member (gap, "instances"), ==, 10);
  g_assert_cmpuint (json_array_get_length (member_array (gap, "texts")), ==, 10);
  g_assert_cmpstr (json_array_get_string_element (member_array (gap, "texts"), 0), ==, "g3 wording 0");
  g_assert_cmpstr (json_object_get_string_member (gap, "attribution"), ==, "language-model");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (gaps, 1), "attribution"), ==, "retrieval");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (gaps, 2), "group"), ==, "g5");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (gaps, 2), "attribution"), ==, "unknown");
  g_assert_true (json_object_get_null_member (json_array_get_object_element (gaps, 2), "sql"));

  /* Failing records of non-robust groups, g2 before g10 (numeric order). */
  g_assert_cmpuint (json_array_get_length (debug), ==, G_N_ELEMENTS (expected_debug));
  for (guint i = 0; i < G_N_ELEMENTS (expected_debug); i++)
    {
      entry = json_array_get_object_element (debug, i);
      g_assert_cmpstr (json_object_get_string_member (entry, "id"), ==, expected_debug[i][0]);
      g_assert_cmpstr (json_object_get_string_member (entry, "verdict"), ==, expected_debug[i][1]);
      g_assert_cmpstr (json_object_get_string_member (entry, "attribution"), ==, expected_debug[i][2]);
    }
  entry = json_array_get_object_element (debug, 0);
  assert_keys (entry, "id group template style text answer response verdict retrieval attribution reason");
  g_assert_cmpstr (json_object_get_string_member (entry, "group"), ==, "g2");
  g_assert_cmpstr (json_object_get_string_member (entry, "text"), ==, "g2 wording 6");
  g_assert_cmpstr (json_object_get_string_member (entry, "response"), ==, "some response");
  g_assert_cmpstr (json_object_get_string_member (entry, "retrieval"), ==, "correct");
  g_assert_cmpstr (json_object_get_string_member (entry, "reason"), ==, "why g2-6");
  g_assert_cmpuint (json_array_get_length (member_array (entry, "answer")), ==, 2);
  g_assert_true (json_object_get_null_member (json_array_get_object_element (debug, 4), "template"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (debug, 9), "reason"), ==, "why g10-8");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (debug, 9), "retrieval"), ==, "unmeasured");

  /* max_list caps both lists */
  report = json_node_get_object (capped);
  g_assert_cmpuint (json_array_get_length (member_array (report, "gap_groups")), ==, 2);
  g_assert_cmpuint (json_array_get_length (member_array (report, "debug")), ==, 2);
  g_assert_cmpint (json_object_get_int_member (member_object (report, "groups"), "gap"), ==, 3);
}

/* Bad input */

static void
assert_load_fails (const char *text,
                   const char *expected)
{
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarEvaluation) evaluation = load_text ("bad.jsonl", text, &path, &error);

  g_assert_null (evaluation);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  message = g_strdup_printf (expected, path);
  if (strstr (error->message, message) == NULL)
    g_error ("“%s” does not hold “%s”", error->message, message);
}

#define LINE(id, group, extra) "{\"id\":\"" id "\",\"group\":\"" group "\",\"sql\":\"SELECT 1\",\"answer\":[[1]]," \
                               "\"response\":\"r\",\"verdict\":\"correct\"" extra "}\n"

static void
test_bad_input (void)
{
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.jsonl", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarEvaluation) evaluation = NULL;

  assert_load_fails ("", "%s: no records");
  assert_load_fails ("\n  \n", "%s: no records");
  assert_load_fails ("{\n", "%s:1:1: invalid JSON");
  /* json-glib reads a comment alone as no document at all (found by tests/fuzz/fuzz-jsonl) */
  assert_load_fails (LINE ("a", "g", "") "/* x */\n", "%s:2: a record must be a JSON object");
  assert_load_fails ("\xef\xbb\xbf\n", "%s:1: a record must be a JSON object");
  assert_load_fails (LINE ("a", "g", "") "[1]\n", "%s:2: a record must be a JSON object");
  assert_load_fails (LINE ("a", "g", "") "{\"id\":\"b\",\"verdict\":\"maybe\"}\n", "%s:2: member “verdict”");
  assert_load_fails (LINE ("a", "g", "") "\n{\"id\":\"b\",\"response\":\"r\",\"verdict\":\"correct\"}\n",
                     "%s:3: missing group");
  assert_load_fails ("{\"group\":\"g\",\"response\":\"r\"}\n", "%s:1: missing id");
  assert_load_fails (LINE ("a", "g", "") LINE ("b", "g", "") LINE ("a", "h", ""),
                     "%s:3: duplicate id “a” (also on line 1)");
  assert_load_fails (LINE ("a", "g", "") LINE ("b", "g", "") LINE ("c", "g", "") LINE ("b", "g", "") LINE ("a", "g", ""),
                     "%s:4: duplicate id “b” (also on line 2)");
  assert_load_fails ("{\"id\":\"a\",\"group\":\"g\",\"text\":\"t\"}\n", "%s:1: record “a” has neither a verdict nor a response");
  assert_load_fails ("{\"id\":\"a\",\"group\":\"g\",\"response\":null}\n", "run grammar judge first");
  assert_load_fails (LINE ("a", "g", "") "{\"id\":\"b\",\"group\":\"g\",\"sql\":\"SELECT 2\",\"answer\":[[1]],\"response\":\"r\"}\n",
                     "%s:2: group “g” has another sql than on line 1: the input mixes datasets");
  assert_load_fails (LINE ("a", "g", "") "{\"id\":\"b\",\"group\":\"g\",\"sql\":\"SELECT 1\",\"answer\":[[2]],\"response\":\"r\"}\n",
                     "%s:2: group “g” has another answer than on line 1");

  evaluation = grammar_evaluation_load (missing, NULL, &error);
  g_assert_null (evaluation);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, missing);
}

static void
test_bad_records (void)
{
  g_autoptr (GPtrArray) none = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) twice = records_of (LINE ("a", "g", "") LINE ("a", "g", ""));
  g_autoptr (GPtrArray) mixed = records_of (LINE ("a", "g", "") "{\"id\":\"b\",\"group\":\"g\",\"response\":\"r\"}\n");
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (GError) error = NULL;

  evaluation = grammar_evaluation_new (none, NULL, &error);
  g_assert_null (evaluation);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_cmpstr (error->message, ==, "no records");
  g_clear_error (&error);

  evaluation = grammar_evaluation_new (twice, "x.jsonl", &error);
  g_assert_null (evaluation);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_cmpstr (error->message, ==, "x.jsonl: record “a”: duplicate id “a” (also on record 1)");
  g_clear_error (&error);

  evaluation = grammar_evaluation_new (mixed, NULL, &error);
  g_assert_null (evaluation);
  grammar_test_assert_contains (error->message, "record “b”: group “g” has another sql than on record “a”");
}

/* Comparison */

/* Two runs of one dataset: a ("short") and b ("long").
 *
 *        a                    b
 *   c1   gap 10 R             gap 10 R           mutual gap: removed
 *   c2   robust 10 C          non_robust 7 C 1 L 2 R
 *   c3   non_robust 7 C 3 L   gap 4 L 6 R
 *   c4   gap 10 R             robust 10 C
 *   c5   5 C 5 R              -                  only a
 *   c6   -                    robust 10 C        only b
 *   c7   gap 10 R             non_robust 8 C 1 L 1 R
 *
 * compared (c2, c3, c4, c7): accuracy 17/40 vs 25/40, robustness 17/20 vs
 * 25/30, retrieval accuracy 20/40 vs 31/40, retrieval robustness 20/20
 * vs 27/30; λ 20/40 vs 10/40.
 *
 * Accuracy and robustness disagree: a answers two groups (c4, c7) only
 * in b's wording, which a's robustness leaves out with a's own gaps, so
 * robustness calls b the less robust (0.8333 < 0.85) while accuracy
 * calls a the less robust (0.425 < 0.625); the verdict follows accuracy.
 */
static void
comparison_fixture (GrammarEvaluation **a,
                    GrammarEvaluation **b)
{
  GString *text_a = g_string_new (NULL), *text_b = g_string_new (NULL);
  g_autofree char *jsonl_a = NULL, *jsonl_b = NULL;
  g_autoptr (GPtrArray) records_a = NULL, records_b = NULL;
  g_autoptr (GError) error = NULL;

  add_group (text_a, "c1", NULL, "short", "SELECT 1", "[[1]]", "RRRRRRRRRR");
  add_group (text_a, "c2", NULL, "short", "SELECT 2", "[[2]]", "CCCCCCCCCC");
  add_group (text_a, "c3", NULL, "short", "SELECT 3", "[[3]]", "CCCCCCCLLL");
  add_group (text_a, "c4", NULL, "short", "SELECT 4", "[[4]]", "RRRRRRRRRR");
  add_group (text_a, "c5", NULL, "short", "SELECT 5", "[[5]]", "CCCCCRRRRR");
  add_group (text_a, "c7", NULL, "short", "SELECT 7", "[[7]]", "RRRRRRRRRR");
  add_group (text_b, "c1", NULL, "long", "SELECT 1", "[[1]]", "RRRRRRRRRR");
  add_group (text_b, "c2", NULL, "long", "SELECT 2", "[[2]]", "CCCCCCCLRR");
  add_group (text_b, "c3", NULL, "long", "SELECT 3", "[[3]]", "LLLLRRRRRR");
  add_group (text_b, "c4", NULL, "long", "SELECT 4", "[[4]]", "CCCCCCCCCC");
  add_group (text_b, "c6", NULL, "long", "SELECT 6", "[[6]]", "CCCCCCCCCC");
  add_group (text_b, "c7", NULL, "long", "SELECT 7", "[[7]]", "CCCCCCCCLR");
  jsonl_a = g_string_free (text_a, FALSE);
  jsonl_b = g_string_free (text_b, FALSE);
  records_a = records_of (jsonl_a);
  records_b = records_of (jsonl_b);
  *a = grammar_evaluation_new (records_a, "short.judged.jsonl", &error);
  g_assert_no_error (error);
  *b = grammar_evaluation_new (records_b, "long.judged.jsonl", &error);
  g_assert_no_error (error);
}

static JsonObject *
find_test (JsonObject *comparison,
           const char *metric)
{
  JsonArray *tests = member_array (comparison, "tests");

  for (guint i = 0; i < json_array_get_length (tests); i++)
    {
      JsonObject *test = json_array_get_object_element (tests, i);

      if (g_str_equal (json_object_get_string_member (test, "metric"), metric))
        return test;
    }
  g_error ("no test of %s", metric);
}

static void
assert_sample (JsonObject *test,
               const char *side,
               gint64      successes,
               gint64      n,
               double      low,
               double      high)
{
  JsonObject *sample = member_object (test, side);

  assert_keys (sample, "successes n rate interval");
  g_assert_cmpint (json_object_get_int_member (sample, "successes"), ==, successes);
  g_assert_cmpint (json_object_get_int_member (sample, "n"), ==, n);
  assert_rate (sample, "rate", (double) successes / n);
  assert_interval (sample, "interval", low, high);
}

static void
assert_z (JsonObject *test,
          double      z,
          double      p)
{
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (test, "z"), z, 1e-6);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (test, "p"), p, 1e-6);
}

static void
test_comparison (void)
{
  g_autoptr (GrammarEvaluation) a = NULL, b = NULL;
  g_autoptr (GrammarComparison) comparison = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *object, *test;

  comparison_fixture (&a, &b);
  comparison = grammar_comparison_new (a, b, FALSE, 0.05, &error);
  g_assert_no_error (error);
  node = grammar_comparison_to_json (comparison);
  object = json_node_get_object (node);

  assert_keys (object, "a b shared_groups only_a only_b mutual_gap_groups_removed groups_compared balance "
                       "lambda_a lambda_b tests less_robust significant alpha module agreement conclusion");
  g_assert_cmpstr (json_object_get_string_member (member_object (object, "a"), "source"), ==, "short.judged.jsonl");
  g_assert_cmpstr (json_array_get_string_element (member_array (member_object (object, "b"), "styles"), 0), ==, "long");
  g_assert_cmpint (json_object_get_int_member (object, "shared_groups"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (object, "only_a"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (object, "only_b"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (object, "mutual_gap_groups_removed"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (object, "groups_compared"), ==, 4);
  g_assert_false (json_object_get_boolean_member (object, "balance"));
  assert_rate (object, "lambda_a", 0.5);
  assert_rate (object, "lambda_b", 0.25);
  g_assert_cmpuint (json_array_get_length (member_array (object, "tests")), ==, 4);

  /* z and p of the pooled two-proportion test, by hand */
  test = find_test (object, "accuracy");
  assert_keys (test, "metric a b difference z p");
  assert_sample (test, "a", 17, 40, 0.285093925600, 0.578049314580);
  assert_sample (test, "b", 25, 40, 0.470324391373, 0.757770208328);
  assert_rate (test, "difference", 17.0 / 40 - 25.0 / 40);
  assert_z (test, -1.791094651359, 0.073278107335);
  test = find_test (object, "robustness");
  assert_sample (test, "a", 17, 20, 0.639581135259, 0.947631254104);
  assert_sample (test, "b", 25, 30, 0.664356494936, 0.926634576282);
  assert_rate (test, "difference", 17.0 / 20 - 25.0 / 30);
  assert_z (test, 0.157485197087, 0.874862473334);
  test = find_test (object, "retrieval_accuracy");
  assert_sample (test, "a", 20, 40, 0.351995269335, 0.648004730665);
  assert_sample (test, "b", 31, 40, 0.624969032577, 0.876839086765);
  assert_z (test, -2.558312493170, 0.010518152657);
  test = find_test (object, "retrieval_robustness");
  assert_sample (test, "a", 20, 20, 0.838874841947, 1.0);
  assert_sample (test, "b", 27, 30, 0.743789174208, 0.965400111253);
  assert_z (test, 1.458649914979, 0.144661487773);

  /* Robustness would call b (long) the less robust; the verdict follows
   * accuracy: a. Not significant at 0.05 although retrieval accuracy is
   * (p = 0.0105): the module is only sought for a significant accuracy
   * difference. */
  g_assert_cmpstr (json_object_get_string_member (object, "less_robust"), ==, "a");
  g_assert_false (json_object_get_boolean_member (object, "significant"));
  assert_rate (object, "alpha", 0.05);
  g_assert_cmpstr (json_object_get_string_member (object, "module"), ==, "undetermined");
  g_assert_cmpstr (json_object_get_string_member (object, "agreement"), ==, "neither");
  g_assert_cmpstr (grammar_comparison_get_conclusion (comparison), ==,
                   "accuracy and robustness disagree, neither significantly: short has lower accuracy than long "
                   "(0.4250 vs 0.6250, z = -1.79, p = 0.073) but higher robustness (0.8500 vs 0.8333, z = 0.16, "
                   "p = 0.87, alpha 0.05): the gap groups of short hold more of its records (λ 0.5000 vs 0.2500), "
                   "which accuracy counts as failures of its wording and robustness leaves out as knowledge gaps "
                   "(GRAMMAR §3.3, Eq. 1); no module can be blamed");
  g_assert_cmpstr (json_object_get_string_member (object, "conclusion"), ==,
                   grammar_comparison_get_conclusion (comparison));
}

/* At alpha 0.1 the accuracy difference (p = 0.073) is significant, and so
 * is the retrieval accuracy difference, in the same direction and larger
 * (0.275 ≥ 0.2 / 2): retrieval. Robustness points the other way, not
 * significantly: the conclusion says both. */
static const char *alpha_conclusion =
  "accuracy and robustness disagree: short has lower accuracy than long (0.4250 vs 0.6250, z = -1.79, p = 0.073) "
  "but higher robustness, not significantly (0.8500 vs 0.8333, z = 0.16, p = 0.87, alpha 0.1): the gap groups of "
  "short hold more of its records (λ 0.5000 vs 0.2500), which accuracy counts as failures of its wording and "
  "robustness leaves out as knowledge gaps (GRAMMAR §3.3, Eq. 1); the accuracy difference remains with "
  "language-model errors removed (retrieval accuracy 0.5000 vs 0.7750, p = 0.011): retrieval accounts for it";

static void
test_comparison_alpha (void)
{
  g_autoptr (GrammarEvaluation) a = NULL, b = NULL;
  g_autoptr (GrammarComparison) comparison = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *object;

  comparison_fixture (&a, &b);
  comparison = grammar_comparison_new (a, b, FALSE, 0.1, &error);
  g_assert_no_error (error);
  node = grammar_comparison_to_json (comparison);
  object = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (object, "less_robust"), ==, "a");
  g_assert_true (json_object_get_boolean_member (object, "significant"));
  assert_rate (object, "alpha", 0.1);
  g_assert_cmpstr (json_object_get_string_member (object, "module"), ==, "retrieval");
  g_assert_cmpstr (json_object_get_string_member (object, "agreement"), ==, "accuracy-only");
  g_assert_cmpstr (grammar_comparison_get_conclusion (comparison), ==,
                   alpha_conclusion);

  /* swapped sides: the same conclusion, less_robust now b */
  g_clear_object (&comparison);
  g_clear_pointer (&node, json_node_unref);
  comparison = grammar_comparison_new (b, a, FALSE, 0.1, &error);
  g_assert_no_error (error);
  node = grammar_comparison_to_json (comparison);
  object = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (object, "less_robust"), ==, "b");
  g_assert_cmpstr (json_object_get_string_member (object, "module"), ==, "retrieval");
  assert_z (find_test (object, "accuracy"), 1.791094651359, 0.073278107335);
  g_assert_cmpstr (grammar_comparison_get_conclusion (comparison), ==,
                   alpha_conclusion);
}

/* Balancing: a (λ 0.5) drops its gap groups, the last by id first (c7,
 * then c4, since λ 10/30 is still above 0.25), until λ ≤ 0.25.
 * Robustness does not move; accuracy does, and so much that it turns:
 * long becomes the less accurate, still not significantly, and now both
 * figures point the same way. */
static void
test_comparison_balance (void)
{
  g_autoptr (GrammarEvaluation) a = NULL, b = NULL;
  g_autoptr (GrammarComparison) comparison = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *object, *test;

  comparison_fixture (&a, &b);
  comparison = grammar_comparison_new (a, b, TRUE, 0.05, &error);
  g_assert_no_error (error);
  node = grammar_comparison_to_json (comparison);
  object = json_node_get_object (node);
  g_assert_true (json_object_get_boolean_member (object, "balance"));
  assert_rate (object, "lambda_a", 0.0);
  assert_rate (object, "lambda_b", 0.25);
  g_assert_cmpint (json_object_get_int_member (object, "mutual_gap_groups_removed"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (object, "groups_compared"), ==, 4);
  test = find_test (object, "accuracy");
  assert_sample (test, "a", 17, 20, 0.639581135259, 0.947631254104);
  assert_sample (test, "b", 25, 40, 0.470324391373, 0.757770208328);
  assert_z (test, 1.792842914002, 0.072998045430);
  test = find_test (object, "retrieval_accuracy");
  assert_sample (test, "a", 20, 20, 0.838874841947, 1.0);
  assert_z (test, 2.300894966542, 0.021397568697);
  test = find_test (object, "robustness");
  assert_z (test, 0.157485197087, 0.874862473334);
  g_assert_cmpstr (json_object_get_string_member (object, "less_robust"), ==, "b");
  g_assert_false (json_object_get_boolean_member (object, "significant"));
  g_assert_cmpstr (json_object_get_string_member (object, "module"), ==, "undetermined");
  g_assert_cmpstr (json_object_get_string_member (object, "agreement"), ==, "neither");
  g_assert_cmpstr (grammar_comparison_get_conclusion (comparison), ==,
                   "long is less robust than short by both figures, but neither significantly (accuracy 0.6250 vs "
                   "0.8500, z = -1.79, p = 0.073; robustness 0.8333 vs 0.8500, z = -0.16, p = 0.87, alpha 0.05): "
                   "no module can be blamed");
}

/* Twenty groups of ten a side: a answers 9 of 10 in every group (the
 * 10th a retrieval miss); b's outcomes, @outcomes_even in the even groups
 * and @outcomes_odd in the odd ones, decide the verdict. */
static GrammarComparison *
scenario (const char  *outcomes_even,
          const char  *outcomes_odd,
          const char  *style_b,
          const char  *source_b,
          GError     **error)
{
  GString *text_a = g_string_new (NULL), *text_b = g_string_new (NULL);
  g_autofree char *jsonl_a = NULL, *jsonl_b = NULL;
  g_autoptr (GPtrArray) records_a = NULL, records_b = NULL;
  g_autoptr (GrammarEvaluation) a = NULL, b = NULL;

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *group = g_strdup_printf ("h%u", i);

      add_group (text_a, group, NULL, "short", NULL, "[[1]]", "CCCCCCCCCR");
      add_group (text_b, group, NULL, style_b, NULL, "[[1]]", i % 2 == 0 ? outcomes_even : outcomes_odd);
    }
  jsonl_a = g_string_free (text_a, FALSE);
  jsonl_b = g_string_free (text_b, FALSE);
  records_a = records_of (jsonl_a);
  records_b = records_of (jsonl_b);
  a = grammar_evaluation_new (records_a, "a.jsonl", NULL);
  b = grammar_evaluation_new (records_b, source_b, NULL);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  return grammar_comparison_new (a, b, FALSE, 0.05, error);
}

static const char *
module_of (GrammarComparison *comparison)
{
  g_autoptr (JsonNode) node = grammar_comparison_to_json (comparison);
  static char module[32];

  g_strlcpy (module, json_object_get_string_member (json_node_get_object (node), "module"), sizeof module);
  return module;
}

static void
test_comparison_modules (void)
{
  g_autoptr (GrammarComparison) retrieval = scenario ("CCCCCCRRRR", "CCCCCCRRRR", "long", "b.jsonl", NULL);
  g_autoptr (GrammarComparison) language_model = scenario ("CCCCCCLLLR", "CCCCCCLLLR", "long", "b.jsonl", NULL);
  g_autoptr (GrammarComparison) both = scenario ("CCCCCLLLRR", "CCCCCLLLRR", "long", "b.jsonl", NULL);
  g_autoptr (GrammarComparison) opposite = scenario ("CCCCCCLLLL", "CCCCCCLLLL", "long", "b.jsonl", NULL);
  g_autoptr (GrammarComparison) equal = scenario ("CCCCCCCCCR", "CCCCCCCCCR", "short", "b.jsonl", NULL);
  g_autoptr (GrammarComparison) undefined = scenario ("UUUUUUUUUU", "UUUUUUUUUU", "long", "b.jsonl", NULL);
  g_autoptr (JsonNode) node = NULL;
  JsonObject *test;

  /* 180/200 vs 120/200 both ways: the difference is the retrieval's */
  g_assert_cmpstr (module_of (retrieval), ==, "retrieval");
  g_assert_cmpstr (grammar_comparison_get_conclusion (retrieval), ==,
                   "long is less robust than short by both figures (accuracy 0.6000 vs 0.9000, z = -6.93, "
                   "p < 0.001; robustness 0.6000 vs 0.9000, z = -6.93, p < 0.001): its wordings fail more often "
                   "whether the knowledge-gap groups are counted (accuracy) or left out (robustness, GRAMMAR §3.3, "
                   "Eq. 1); the accuracy difference remains with language-model errors removed (retrieval accuracy "
                   "0.6000 vs 0.9000, p < 0.001): retrieval accounts for it");
  /* 180 vs 120, but 180 vs 180 with language-model errors removed */
  g_assert_cmpstr (module_of (language_model), ==, "language-model");
  g_assert_cmpstr (grammar_comparison_get_conclusion (language_model), ==,
                   "long is less robust than short by both figures (accuracy 0.6000 vs 0.9000, z = -6.93, "
                   "p < 0.001; robustness 0.6000 vs 0.9000, z = -6.93, p < 0.001): its wordings fail more often "
                   "whether the knowledge-gap groups are counted (accuracy) or left out (robustness, GRAMMAR §3.3, "
                   "Eq. 1); with language-model errors removed the accuracy difference is not significant "
                   "(retrieval accuracy 0.9000 vs 0.9000, p = 1): the language model accounts for it");
  /* 180 vs 100, and 180 vs 160 (p = 0.0051): less than half is left */
  g_assert_cmpstr (module_of (both), ==, "both");
  g_assert_cmpstr (grammar_comparison_get_conclusion (both), ==,
                   "long is less robust than short by both figures (accuracy 0.5000 vs 0.9000, z = -8.73, "
                   "p < 0.001; robustness 0.5000 vs 0.9000, z = -8.73, p < 0.001): its wordings fail more often "
                   "whether the knowledge-gap groups are counted (accuracy) or left out (robustness, GRAMMAR §3.3, "
                   "Eq. 1); the accuracy difference shrinks by more than half with language-model errors removed "
                   "(retrieval accuracy 0.8000 vs 0.9000, p = 0.0051): both retrieval and the language model "
                   "account for it");
  /* 180 vs 120, but 180 vs 200 with language-model errors removed: a
   * significant retrieval difference the other way does not explain it */
  g_assert_cmpstr (module_of (opposite), ==, "language-model");
  node = grammar_comparison_to_json (opposite);
  assert_z (find_test (json_node_get_object (node), "retrieval_accuracy"), -4.588314677411, 0.000004468387);
  g_clear_pointer (&node, json_node_unref);
  grammar_test_assert_contains (grammar_comparison_get_conclusion (opposite),
                                "; with language-model errors removed the accuracy difference turns the other "
                                "way (retrieval accuracy 1.0000 vs 0.9000, p < 0.001): the language model "
                                "accounts for it");
  /* same style on both sides: named by their files */
  g_assert_cmpstr (module_of (equal), ==, "undetermined");
  g_assert_cmpstr (grammar_comparison_get_conclusion (equal), ==,
                   "a.jsonl and b.jsonl are equally robust by both figures (accuracy 0.9000 vs 0.9000, z = 0.00, "
                   "p = 1; robustness 0.9000 vs 0.9000, z = 0.00, p = 1): no difference to attribute");
  node = grammar_comparison_to_json (equal);
  g_assert_true (json_object_get_null_member (json_node_get_object (node), "less_robust"));
  g_assert_false (json_object_get_boolean_member (json_node_get_object (node), "significant"));
  g_clear_pointer (&node, json_node_unref);

  /* b has no measured record: no accuracy to compare */
  node = grammar_comparison_to_json (undefined);
  test = find_test (json_node_get_object (node), "accuracy");
  g_assert_true (json_object_get_null_member (test, "z"));
  g_assert_true (json_object_get_null_member (test, "p"));
  g_assert_true (json_object_get_null_member (test, "difference"));
  g_assert_true (json_object_get_null_member (member_object (test, "b"), "interval"));
  g_assert_cmpint (json_object_get_int_member (member_object (test, "b"), "n"), ==, 0);
  g_assert_true (json_object_get_null_member (json_node_get_object (node), "less_robust"));
  g_assert_false (json_object_get_boolean_member (json_node_get_object (node), "significant"));
  g_assert_cmpstr (module_of (undefined), ==, "undetermined");
  g_assert_cmpstr (grammar_comparison_get_conclusion (undefined), ==,
                   "neither accuracy nor robustness can be compared (accuracy 0.9000 vs undefined): long has no "
                   "measured record in the compared groups");
}

/* b answers its even groups in every wording and none of its odd ones:
 * the odd groups are gaps in b only. b's robustness leaves them out
 * (100/100 against a's 180/200, significantly higher), but a answered
 * them, so they are failures of b's wording: by accuracy (100/200
 * against 180/200) b is the less robust. Both significant, opposite
 * ways: the conclusion says both, and why (b's λ). */
static void
test_comparison_gap_in_one_run (void)
{
  g_autoptr (GrammarComparison) comparison = scenario ("CCCCCCCCCC", "RRRRRRRRRR", "long", "b.jsonl", NULL);
  g_autoptr (JsonNode) node = grammar_comparison_to_json (comparison);
  JsonObject *object = json_node_get_object (node);
  JsonObject *test;

  g_assert_cmpint (json_object_get_int_member (object, "mutual_gap_groups_removed"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (object, "groups_compared"), ==, 20);
  assert_rate (object, "lambda_a", 0.0);
  assert_rate (object, "lambda_b", 0.5);
  test = find_test (object, "robustness");
  assert_sample (test, "a", 180, 200, 0.850594187567, 0.934329551331);
  assert_sample (test, "b", 100, 100, 0.963006501793, 1.0);
  assert_z (test, -3.273268353540, 0.001063114917);
  test = find_test (object, "accuracy");
  assert_sample (test, "a", 180, 200, 0.850594187567, 0.934329551331);
  assert_sample (test, "b", 100, 200, 0.431360859604, 0.568639140396);
  assert_z (test, 8.728715609440, 0.0);
  test = find_test (object, "retrieval_accuracy");
  assert_z (test, 8.728715609440, 0.0);

  g_assert_cmpstr (json_object_get_string_member (object, "less_robust"), ==, "b");
  g_assert_true (json_object_get_boolean_member (object, "significant"));
  g_assert_cmpstr (json_object_get_string_member (object, "module"), ==, "retrieval");
  g_assert_cmpstr (json_object_get_string_member (object, "agreement"), ==, "opposite");
  g_assert_cmpstr (grammar_comparison_get_conclusion (comparison), ==,
                   "accuracy and robustness disagree, both significantly: long has lower accuracy than short "
                   "(0.5000 vs 0.9000, z = -8.73, p < 0.001) but higher robustness (1.0000 vs 0.9000, z = 3.27, "
                   "p = 0.0011): the gap groups of long hold more of its records (λ 0.5000 vs 0.0000), which "
                   "accuracy counts as failures of its wording and robustness leaves out as knowledge gaps "
                   "(GRAMMAR §3.3, Eq. 1); the accuracy difference remains with language-model errors removed "
                   "(retrieval accuracy 0.5000 vs 0.9000, p < 0.001): retrieval accounts for it");
}

/* Two runs of @n groups: group gI holds @outcomes_a[I] in run a (style
 * @style_a, a.jsonl) and @outcomes_b[I] in run b. */
static GrammarComparison *
compare_groups (const char * const *outcomes_a,
                const char * const *outcomes_b,
                guint               n,
                const char         *style_a,
                const char         *style_b)
{
  GString *text_a = g_string_new (NULL), *text_b = g_string_new (NULL);
  g_autofree char *jsonl_a = NULL, *jsonl_b = NULL;
  g_autoptr (GPtrArray) records_a = NULL, records_b = NULL;
  g_autoptr (GrammarEvaluation) a = NULL, b = NULL;
  g_autoptr (GError) error = NULL;
  GrammarComparison *comparison;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *group = g_strdup_printf ("g%u", i);

      add_group (text_a, group, NULL, style_a, NULL, "[[1]]", outcomes_a[i]);
      add_group (text_b, group, NULL, style_b, NULL, "[[1]]", outcomes_b[i]);
    }
  jsonl_a = g_string_free (text_a, FALSE);
  jsonl_b = g_string_free (text_b, FALSE);
  records_a = records_of (jsonl_a);
  records_b = records_of (jsonl_b);
  a = grammar_evaluation_new (records_a, "a.jsonl", &error);
  g_assert_no_error (error);
  b = grammar_evaluation_new (records_b, "b.jsonl", &error);
  g_assert_no_error (error);
  comparison = grammar_comparison_new (a, b, FALSE, 0.05, &error);
  g_assert_no_error (error);
  return comparison;
}

static const char *
agreement_of (GrammarComparison *comparison)
{
  g_autoptr (JsonNode) node = grammar_comparison_to_json (comparison);
  static char agreement[32];

  g_strlcpy (agreement, json_object_get_string_member (json_node_get_object (node), "agreement"),
             sizeof agreement);
  return agreement;
}

/* The case of issue 16: accuracy calls long the less robust, not
 * significantly (p = 0.052), while robustness calls it the more robust,
 * significantly (0.9785 vs 0.7518, z = 4.65). Long fails every wording of
 * 16 of the 47 groups, which short answers: its robustness leaves them out
 * (91/93), its accuracy counts them (91/141 against short's 106/141). The
 * conclusion says both in one sentence, and why (λ), whichever run is -i. */
static void
test_comparison_contradiction (void)
{
  const char *outcomes_long[47], *outcomes_short[47];
  g_autoptr (GrammarComparison) comparison = NULL;
  g_autoptr (GrammarComparison) swapped = NULL;
  g_autoptr (JsonNode) node = NULL;
  JsonObject *object, *test;
  const char *expected =
    "accuracy and robustness disagree: long has lower accuracy than short, not significantly (0.6454 vs 0.7518, "
    "z = -1.95, p = 0.052, alpha 0.05) but higher robustness (0.9785 vs 0.7518, z = 4.65, p < 0.001): the gap "
    "groups of long hold more of its records (λ 0.3404 vs 0.0000), which accuracy counts as failures of its "
    "wording and robustness leaves out as knowledge gaps (GRAMMAR §3.3, Eq. 1); no module is sought without a "
    "significant accuracy difference";

  for (guint i = 0; i < 47; i++)
    {
      outcomes_long[i] = i < 16 ? "RRR" : i < 45 ? "CCC" : "CCR";
      outcomes_short[i] = i < 24 ? "CCC" : i < 35 ? "CCL" : "CLR";
    }
  comparison = compare_groups (outcomes_long, outcomes_short, 47, "long", "short");
  node = grammar_comparison_to_json (comparison);
  object = json_node_get_object (node);
  test = find_test (object, "accuracy");
  assert_sample (test, "a", 91, 141, 0.563529587656, 0.719538536047);
  assert_sample (test, "b", 106, 141, 0.674428505594, 0.815762635454);
  assert_z (test, -1.946584394067, 0.051584581070);
  test = find_test (object, "robustness");
  assert_sample (test, "a", 91, 93, 0.924945373025, 0.994082500245);
  assert_sample (test, "b", 106, 141, 0.674428505594, 0.815762635454);
  assert_z (test, 4.651765701239, 0.000003291049);

  g_assert_cmpstr (json_object_get_string_member (object, "less_robust"), ==, "a");
  g_assert_false (json_object_get_boolean_member (object, "significant"));
  g_assert_cmpstr (json_object_get_string_member (object, "module"), ==, "undetermined");
  g_assert_cmpstr (json_object_get_string_member (object, "agreement"), ==, "robustness-only");
  g_assert_cmpstr (grammar_comparison_get_conclusion (comparison), ==, expected);

  swapped = compare_groups (outcomes_short, outcomes_long, 47, "short", "long");
  g_assert_cmpstr (agreement_of (swapped), ==, "robustness-only");
  g_assert_cmpstr (grammar_comparison_get_conclusion (swapped), ==, expected);
}

/* The other cases, each with its wording (doc/report.md, "Reading the
 * conclusion"). Groups of ten; a run's groups in @outcomes by index. */
static void
test_comparison_cases (void)
{
  const char *nine[20], *eight[20], *gaps_then_nine[20], *gaps_then_mixed[20], *equal_accuracy[20];
  const char *three_quarters[20], *all_gaps[20], *nine_or_gap[20];
  const char *first_gaps_nine[20], *later_gaps_eight[20], *one_gap_mixed[20];
  g_autoptr (GrammarComparison) accuracy_only = NULL, robustness_only = NULL, robustness_equal = NULL;
  g_autoptr (GrammarComparison) accuracy_equal = NULL, no_robustness = NULL, same_lambda = NULL;
  g_autoptr (GrammarComparison) nothing_significant = NULL;

  for (guint i = 0; i < 20; i++)
    {
      nine[i] = "CCCCCCCCCR";
      eight[i] = "CCCCCCCCRR";
      three_quarters[i] = i % 2 == 0 ? "CCCCCCCCRR" : "CCCCCCCRRR";
      gaps_then_nine[i] = i < 2 ? "RRRRRRRRRR" : "CCCCCCCCCR";
      gaps_then_mixed[i] = i < 4 ? "RRRRRRRRRR" : i % 2 == 0 ? "CCCCCCCCCR" : "CCCCCCCCRR";
      equal_accuracy[i] = i < 2 ? "RRRRRRRRRR" : i < 18 ? "CCCCCCCCCR" : "CCCCCCCCRR";
      all_gaps[i] = "RRRRRRRRRR";
      nine_or_gap[i] = i % 2 == 0 ? "CCCCCCCCCR" : "RRRRRRRRRR";
      first_gaps_nine[i] = i < 4 ? "RRRRRRRRRR" : "CCCCCCCCCR";
      later_gaps_eight[i] = i >= 4 && i < 8 ? "RRRRRRRRRR" : "CCCCCCCCRR";
      one_gap_mixed[i] = i == 0 ? "RRRRRRRRRR" : i < 9 ? "CCCCCCCCCR" : "CCCCCCCCRR";
    }

  /* Accuracy 180/200 vs 136/200 (p < 0.001), robustness 180/200 vs
   * 136/160 (p = 0.15): the same way, only accuracy significant. */
  accuracy_only = compare_groups (nine, gaps_then_mixed, 20, "short", "long");
  g_assert_cmpstr (agreement_of (accuracy_only), ==, "accuracy-only");
  g_assert_cmpstr (grammar_comparison_get_conclusion (accuracy_only), ==,
                   "long is less robust than short by accuracy (0.6800 vs 0.9000, z = -5.40, p < 0.001), but its "
                   "robustness is not significantly lower (0.8500 vs 0.9000, z = -1.44, p = 0.15, alpha 0.05): "
                   "the gap groups of long hold more of its records (λ 0.2000 vs 0.0000), which accuracy counts "
                   "as failures of its wording and robustness leaves out as knowledge gaps (GRAMMAR §3.3, Eq. 1); "
                   "the accuracy difference remains with language-model errors removed (retrieval accuracy 0.6800 "
                   "vs 0.9000, p < 0.001): retrieval accounts for it");

  /* Robustness 162/180 vs 150/200 (p < 0.001), accuracy 162/200 vs
   * 150/200 (p = 0.15): the same way, only robustness significant. */
  robustness_only = compare_groups (gaps_then_nine, three_quarters, 20, "short", "long");
  g_assert_cmpstr (agreement_of (robustness_only), ==, "robustness-only");
  g_assert_cmpstr (grammar_comparison_get_conclusion (robustness_only), ==,
                   "long is less robust than short by robustness (0.7500 vs 0.9000, z = -3.81, p < 0.001), but its "
                   "accuracy is not significantly lower (0.7500 vs 0.8100, z = -1.45, p = 0.15, alpha 0.05): the "
                   "gap groups of short hold more of its records (λ 0.1000 vs 0.0000), which accuracy counts as "
                   "failures of its wording and robustness leaves out as knowledge gaps (GRAMMAR §3.3, Eq. 1); no "
                   "module is sought without a significant accuracy difference");

  /* Accuracy 180/200 vs 90/200, robustness 180/200 vs 90/100: long
   * answers its half of the groups as well as short does. */
  robustness_equal = compare_groups (nine, nine_or_gap, 20, "short", "long");
  g_assert_cmpstr (agreement_of (robustness_equal), ==, "accuracy-only");
  g_assert_cmpstr (grammar_comparison_get_conclusion (robustness_equal), ==,
                   "long is less robust than short by accuracy (0.4500 vs 0.9000, z = -9.61, p < 0.001), but their "
                   "robustness is equal (0.9000 vs 0.9000, z = 0.00, p = 1): the gap groups of long hold more of "
                   "its records (λ 0.5000 vs 0.0000), which accuracy counts as failures of its wording and "
                   "robustness leaves out as knowledge gaps (GRAMMAR §3.3, Eq. 1); the accuracy difference remains "
                   "with language-model errors removed (retrieval accuracy 0.4500 vs 0.9000, p < 0.001): "
                   "retrieval accounts for it");

  /* Accuracy 160/200 both, robustness 160/200 vs 160/180. */
  accuracy_equal = compare_groups (eight, equal_accuracy, 20, "short", "long");
  g_assert_cmpstr (agreement_of (accuracy_equal), ==, "robustness-only");
  g_assert_cmpstr (grammar_comparison_get_conclusion (accuracy_equal), ==,
                   "short is less robust than long by robustness (0.8000 vs 0.8889, z = -2.37, p = 0.018), but their "
                   "accuracy is equal (0.8000 vs 0.8000, z = 0.00, p = 1): the gap groups of long hold more of its "
                   "records (λ 0.1000 vs 0.0000), which accuracy counts as failures of its wording and robustness "
                   "leaves out as knowledge gaps (GRAMMAR §3.3, Eq. 1); no module is sought without a significant "
                   "accuracy difference");

  /* Robustness 128/160 vs 144/160 (p = 0.012), accuracy 128/200 vs
   * 144/200 (p = 0.086): both runs have a fifth of their records in gap
   * groups, so λ does not explain it and the clause is general. */
  same_lambda = compare_groups (first_gaps_nine, later_gaps_eight, 20, "short", "long");
  g_assert_cmpstr (agreement_of (same_lambda), ==, "robustness-only");
  g_assert_cmpstr (grammar_comparison_get_conclusion (same_lambda), ==,
                   "long is less robust than short by robustness (0.8000 vs 0.9000, z = -2.50, p = 0.012), but its "
                   "accuracy is not significantly lower (0.6400 vs 0.7200, z = -1.71, p = 0.086, alpha 0.05): "
                   "robustness leaves each run's knowledge-gap groups out (GRAMMAR §3.3, Eq. 1), accuracy over the "
                   "compared groups counts them; no module is sought without a significant accuracy difference");

  /* Accuracy 160/200 both, robustness 160/200 vs 160/190 (p = 0.28). */
  nothing_significant = compare_groups (eight, one_gap_mixed, 20, "short", "long");
  g_assert_cmpstr (agreement_of (nothing_significant), ==, "neither");
  g_assert_cmpstr (grammar_comparison_get_conclusion (nothing_significant), ==,
                   "short is less robust than long by robustness, not significantly (0.8000 vs 0.8421, z = -1.08, "
                   "p = 0.28, alpha 0.05), and their accuracy is equal (0.8000 vs 0.8000, z = 0.00, p = 1): no "
                   "module can be blamed");

  /* Long fails every group short answers: no robustness to compare. */
  no_robustness = compare_groups (nine, all_gaps, 20, "short", "long");
  g_assert_cmpstr (agreement_of (no_robustness), ==, "undefined");
  g_assert_cmpstr (grammar_comparison_get_conclusion (no_robustness), ==,
                   "long is less robust than short by accuracy (0.0000 vs 0.9000, z = -18.09, p < 0.001), and their "
                   "robustness cannot be compared (undefined vs 0.9000): long has no robust or non-robust group "
                   "among the compared ones, and robustness leaves gap groups out (GRAMMAR §3.3, Eq. 1); the "
                   "accuracy difference remains with language-model errors removed (retrieval accuracy 0.0000 vs "
                   "0.9000, p < 0.001): retrieval accounts for it");
}

static void
test_comparison_errors (void)
{
  GString *text_a = g_string_new (NULL), *text_b = g_string_new (NULL);
  g_autofree char *jsonl_a = NULL, *jsonl_b = NULL;
  g_autoptr (GPtrArray) records_a = NULL, records_b = NULL;
  g_autoptr (GrammarEvaluation) a = NULL, b = NULL;
  g_autoptr (GrammarComparison) comparison = NULL;
  g_autoptr (GError) error = NULL;

  add_group (text_a, "q1", NULL, "short", NULL, "[[1]]", "CR");
  add_group (text_b, "k1", NULL, "long", NULL, "[[1]]", "CR");
  jsonl_a = g_string_free (text_a, FALSE);
  jsonl_b = g_string_free (text_b, FALSE);
  records_a = records_of (jsonl_a);
  records_b = records_of (jsonl_b);
  a = grammar_evaluation_new (records_a, "short.jsonl", NULL);
  b = grammar_evaluation_new (records_b, "other.jsonl", NULL);

  comparison = grammar_comparison_new (a, b, FALSE, 0.05, &error);
  g_assert_null (comparison);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_cmpstr (error->message, ==, "short.jsonl and other.jsonl share no group: compare two runs of the same dataset");
  g_clear_error (&error);

  comparison = grammar_comparison_new (a, a, FALSE, 1.5, &error);
  g_assert_null (comparison);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "alpha");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = grammar_test_make_tmp_dir ("test-evaluation-XXXXXX");

  g_test_add_func ("/evaluation/metrics", test_metrics);
  g_test_add_func ("/evaluation/undefined", test_undefined);
  g_test_add_func ("/evaluation/latency", test_latency);
  g_test_add_func ("/evaluation/json", test_json);
  g_test_add_func ("/evaluation/unreported", test_unreported);
  g_test_add_func ("/evaluation/breakdowns", test_breakdowns);
  g_test_add_func ("/evaluation/breakdown-tags-per-key", test_breakdown_tags_per_key);
  g_test_add_func ("/evaluation/lists", test_lists);
  g_test_add_func ("/evaluation/bad-input", test_bad_input);
  g_test_add_func ("/evaluation/bad-records", test_bad_records);
  g_test_add_func ("/evaluation/comparison", test_comparison);
  g_test_add_func ("/evaluation/comparison/alpha", test_comparison_alpha);
  g_test_add_func ("/evaluation/comparison/balance", test_comparison_balance);
  g_test_add_func ("/evaluation/comparison/modules", test_comparison_modules);
  g_test_add_func ("/evaluation/comparison/gap-in-one-run", test_comparison_gap_in_one_run);
  g_test_add_func ("/evaluation/comparison/contradiction", test_comparison_contradiction);
  g_test_add_func ("/evaluation/comparison/cases", test_comparison_cases);
  g_test_add_func ("/evaluation/comparison/errors", test_comparison_errors);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
