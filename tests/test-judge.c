/* test-judge.c: GrammarJudgeRunner and `grammar judge`
 *
 * The matcher is "test-contains" of tests/judge-test-matcher (correct
 * when the response contains the first answer value, unmeasured when it
 * contains "UNMEASURED" or is null), which answers after a timeout and
 * counts its calls. The runner is tested in-process, the command end to
 * end. The real matchers (plugins/matchers) are not used here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <grammar.h>

#include "grammar-test-util.h"

static char *tmpdir;

/* Results files ------------------------------------------------------------------- */

/* One line of results.jsonl: @response NULL is a failed query (null
 * response, an `error`, no `retrieved`); @retrieved and @doc_ids are
 * comma-separated ids, NULL for none ("" for an empty list). */
typedef struct
{
  const char *id;
  const char *group;
  const char *answer;
  const char *response;
  const char *retrieved;
  const char *doc_ids;
} Line;

static void
add_ids (JsonBuilder *builder,
         const char  *name,
         const char  *ids,
         gboolean     as_hits)
{
  g_auto (GStrv) parts = g_strsplit (ids, ",", -1);

  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (!as_hits)
        {
          json_builder_add_string_value (builder, parts[i]);
          continue;
        }
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, parts[i]);
      json_builder_set_member_name (builder, "score");
      json_builder_add_double_value (builder, 1.0);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static char *
line_json (const Line *line)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, line->id);
  if (line->group != NULL)
    {
      json_builder_set_member_name (builder, "group");
      json_builder_add_string_value (builder, line->group);
    }
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, "the question");
  json_builder_set_member_name (builder, "answer");
  json_builder_begin_array (builder);
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, line->answer);
  json_builder_end_array (builder);
  json_builder_end_array (builder);
  if (line->doc_ids != NULL)
    add_ids (builder, "doc_ids", line->doc_ids, FALSE);
  json_builder_set_member_name (builder, "response");
  if (line->response != NULL)
    json_builder_add_string_value (builder, line->response);
  else
    json_builder_add_null_value (builder);
  if (line->retrieved != NULL)
    add_ids (builder, "retrieved", line->retrieved, TRUE);
  if (line->response == NULL)
    {
      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder, "the system failed");
    }
  json_builder_set_member_name (builder, "extra");
  json_builder_add_int_value (builder, 7);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  return json_to_string (node, FALSE);
}

static char *
write_lines (const char *name,
             const Line *lines,
             gsize       n_lines)
{
  g_autoptr (GString) contents = g_string_new (NULL);

  for (gsize i = 0; i < n_lines; i++)
    {
      g_autofree char *text = line_json (&lines[i]);

      g_string_append_printf (contents, "%s\n", text);
    }
  return grammar_test_write_file (tmpdir, name, contents->str);
}

/* A non-robust group g1 (context comparison), a gap group g2, a robust
 * group g3 and two records without a group, interleaved as `grammar rag`
 * writes them (completion order). None has doc_ids. */
static const Line context_lines[] = {
  { "a1", "g1", "Paris", "It is Paris.", "d1,d2", NULL },
  { "b1", "g2", "Rome", "No idea.", "d1", NULL },
  { "a2", "g1", "Paris", "It is Lyon.", "d2,d1,d2", NULL },  /* the same set as a1: the LM failed */
  { "c1", "g3", "Bern", "Bern", "d5", NULL },
  { "a3", "g1", "Paris", "It is Lyon.", "d3", NULL },        /* other documents: retrieval failed */
  { "n1", NULL, "Oslo", "Bergen", "d1", NULL },              /* a group of its own, gap */
  { "b2", "g2", "Rome", "Milan", "d1", NULL },
  { "a4", "g1", "Paris", "UNMEASURED", "d1,d2", NULL },
  { "a5", "g1", "Paris", NULL, NULL, NULL },                 /* the system failed */
  { "n2", NULL, "Oslo", "Oslo", "d1", NULL },
  { "a6", "g1", "Paris", "Lyon", "", NULL },                 /* nothing retrieved */
};

/* Records with the documents that hold their answer. */
static const Line ids_lines[] = {
  { "d1", "g4", "Ann", "Ann", "p1,p2,x", "p1,p2" },
  { "d2", "g4", "Ann", "Ann", "p1", "p1,p2" },
  { "d3", "g4", "Ann", "Bob", "x", "p1,p2" },
  { "d4", "g4", "Ann", NULL, NULL, "p1" },
};

/* The expected outcome of a record: answer verdict, retrieval verdict. */
typedef struct
{
  const char *id;
  const char *verdict;
  const char *retrieval;
} Expected;

static char *
read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

static char *
tmp_path (const char *name)
{
  char *path = g_build_filename (tmpdir, name, NULL);

  g_unlink (path);
  return path;
}

/* The lines of an output, each a JSON object, every id exactly once. */
typedef struct
{
  GPtrArray *nodes;      /* JsonNode, in file order */
  GHashTable *by_id;     /* id → JsonObject */
} Results;

static void
results_clear (Results *results)
{
  g_clear_pointer (&results->by_id, g_hash_table_unref);
  g_clear_pointer (&results->nodes, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Results, results_clear)

static void
read_results (const char *path,
              Results    *results)
{
  g_autofree char *contents = read_file (path);
  g_auto (GStrv) lines = NULL;

  results->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  results->by_id = g_hash_table_new (g_str_hash, g_str_equal);
  if (*contents == '\0')
    return;
  g_assert_true (g_str_has_suffix (contents, "\n"));
  contents[strlen (contents) - 1] = '\0';
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      JsonNode *node = json_from_string (lines[i], &error);
      const char *id;

      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_ptr_array_add (results->nodes, node);
      id = json_object_get_string_member (json_node_get_object (node), "id");
      if (g_hash_table_contains (results->by_id, id))
        g_error ("%s: id %s written twice", path, id);
      g_hash_table_insert (results->by_id, (gpointer) id, json_node_get_object (node));
    }
}

static JsonObject *
result (Results    *results,
        const char *id)
{
  JsonObject *object = g_hash_table_lookup (results->by_id, id);

  if (object == NULL)
    g_error ("no record %s in the output", id);
  return object;
}

static void
assert_expected (Results        *results,
                 const Expected *expected,
                 gsize           n_expected)
{
  for (gsize i = 0; i < n_expected; i++)
    {
      JsonObject *object = result (results, expected[i].id);
      const char *verdict = json_object_get_string_member_with_default (object, "verdict", "(none)");
      const char *retrieval = json_object_get_string_member_with_default (object, "retrieval", "(none)");

      if (g_strcmp0 (verdict, expected[i].verdict) != 0 || g_strcmp0 (retrieval, expected[i].retrieval) != 0)
        g_error ("%s: verdict %s, retrieval %s; expected %s, %s", expected[i].id, verdict, retrieval,
                 expected[i].verdict, expected[i].retrieval);
    }
}

static const char *
judge_member (JsonObject *record,
              const char *name)
{
  JsonObject *judge = json_object_get_object_member (record, "judge");

  g_assert_nonnull (judge);
  return json_object_get_string_member_with_default (judge, name, NULL);
}

/* The matcher --------------------------------------------------------------------- */

static GrammarMatcher *
make_matcher (const char *keys)
{
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strdup_printf ("[matcher]\nplugin=test-contains\n%s", keys != NULL ? keys : "");
  GObject *matcher;

  config = grammar_config_new_from_data (text, -1, tmpdir, &error);
  g_assert_no_error (error);
  matcher = grammar_config_build (config, "matcher", GRAMMAR_TYPE_MATCHER, &error);
  g_assert_no_error (error);
  return GRAMMAR_MATCHER (matcher);
}

static guint64
matcher_calls (GrammarMatcher *matcher)
{
  guint64 calls = 0;

  g_object_get (matcher, "calls", &calls, NULL);
  return calls;
}

static GrammarJudgeRunner *
make_runner (GrammarMatcher *matcher,
             const char     *rule)
{
  GrammarJudgeRunner *runner = grammar_judge_runner_new (matcher);

  if (rule != NULL)
    grammar_judge_runner_set_retrieval_rule (runner, rule);
  return runner;
}

/* The runner ---------------------------------------------------------------------- */

static void
test_properties (void)
{
  g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
  g_autoptr (GrammarJudgeRunner) runner = grammar_judge_runner_new (matcher);
  g_auto (GStrv) warnings = NULL;
  g_autofree char *rule = NULL;
  gboolean closed_domain = FALSE;
  guint max_concurrency = 0;
  guint64 limit = 0;

  g_assert_true (grammar_judge_runner_get_matcher (runner) == matcher);
  g_assert_false (grammar_judge_runner_get_closed_domain (runner));
  g_assert_cmpstr (grammar_judge_runner_get_retrieval_rule (runner), ==, "auto");
  g_assert_cmpuint (grammar_stage_runner_get_max_concurrency (GRAMMAR_STAGE_RUNNER (runner)), ==, 16);
  g_assert_cmpuint (grammar_stage_runner_get_limit (GRAMMAR_STAGE_RUNNER (runner)), ==, 0);

  g_object_set (runner, "closed-domain", TRUE, "retrieval-rule", "any", "max-concurrency", 7,
                "limit", (guint64) 9, NULL);
  g_object_get (runner, "closed-domain", &closed_domain, "retrieval-rule", &rule,
                "max-concurrency", &max_concurrency, "limit", &limit, NULL);
  g_assert_true (closed_domain);
  g_assert_cmpstr (rule, ==, "any");
  g_assert_cmpuint (max_concurrency, ==, 7);
  g_assert_cmpuint (limit, ==, 9);
  grammar_judge_runner_set_retrieval_rule (runner, NULL);
  g_assert_cmpstr (grammar_judge_runner_get_retrieval_rule (runner), ==, "auto");

  warnings = grammar_stage_runner_dup_warnings (GRAMMAR_STAGE_RUNNER (runner));
  g_assert_cmpuint (g_strv_length (warnings), ==, 0);
}

/* Runs @rule over the context and ids records into a new output. */
static void
judge_all (const char     *rule,
           const char     *output_name,
           Results        *results,
           GrammarMatcher *matcher)
{
  g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, rule);
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autofree char *input = NULL;
  g_autofree char *output = tmp_path (output_name);
  g_autoptr (GError) error = NULL;

  g_array_append_vals (lines, context_lines, G_N_ELEMENTS (context_lines));
  g_array_append_vals (lines, ids_lines, G_N_ELEMENTS (ids_lines));
  input = write_lines ("all-results.jsonl", (const Line *) lines->data, lines->len);
  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_stage_runner_get_n_total (GRAMMAR_STAGE_RUNNER (runner)), ==, lines->len);
  g_assert_cmpuint (grammar_judge_runner_get_n_judged (runner), ==, lines->len);
  g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, 0);
  read_results (output, results);
  g_assert_cmpuint (results->nodes->len, ==, lines->len);
}

static void
test_verdicts_and_context (void)
{
  g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
  g_auto (Results) results = { 0 };
  const Expected expected[] = {
    { "a1", "correct", "correct" },
    { "a2", "incorrect", "correct" },
    { "a3", "incorrect", "incorrect" },
    { "a4", "unmeasured", "unmeasured" },
    { "a5", "unmeasured", "unmeasured" },
    { "a6", "incorrect", "incorrect" },
    { "b1", "incorrect", "unmeasured" },
    { "b2", "incorrect", "unmeasured" },
    { "c1", "correct", "correct" },
    { "n1", "incorrect", "unmeasured" },
    { "n2", "correct", "correct" },
    /* auto: the ids rule `all` for records with doc_ids */
    { "d1", "correct", "correct" },
    { "d2", "correct", "incorrect" },
    { "d3", "incorrect", "incorrect" },
    { "d4", "unmeasured", "unmeasured" },
  };
  JsonObject *a1;
  JsonObject *a5;

  judge_all (NULL, "verdicts.jsonl", &results, matcher);
  assert_expected (&results, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (matcher_calls (matcher), ==, 15);

  /* The results line is kept, with the judge's members added. */
  a1 = result (&results, "a1");
  g_assert_cmpstr (judge_member (a1, "matcher"), ==, "test-contains");
  g_assert_cmpstr (judge_member (a1, "reason"), ==, "the response contains the answer");
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (a1, "judge"), "score"), ==, 1.0);
  g_assert_cmpint (json_object_get_int_member (a1, "extra"), ==, 7);
  g_assert_cmpstr (json_object_get_string_member (a1, "response"), ==, "It is Paris.");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (a1, "retrieved")), ==, 2);
  a5 = result (&results, "a5");
  g_assert_cmpstr (json_object_get_string_member (a5, "error"), ==, "the system failed");
  g_assert_cmpstr (judge_member (a5, "reason"), ==, "no response");
}

/* A system that reported no documents (no `retrieved`, not even an
 * empty list): its retrieval is unmeasured under every rule, even for a
 * correct answer, which it may have given without retrieving anything;
 * and closed-domain does not take that for a miss. A reported empty
 * list stays a miss. */
static void
test_unreported (void)
{
  static const Line lines[] = {
    { "hr-1", "Oslo", "margit.odegaard@hr.example", "Ask margit.odegaard@hr.example", NULL, NULL },
    { "hr-2", "Oslo", "margit.odegaard@hr.example", "Ask your manager.", NULL, NULL },
    { "hr-3", "Oslo", "margit.odegaard@hr.example", "Ask your manager.", "HR-Policy v2.pdf#3", NULL },
    { "hr-4", "Bergen", "margit.odegaard@hr.example", "Ask margit.odegaard@hr.example", NULL, "HR-Policy v2.pdf#3" },
    { "hr-5", "Bergen", "margit.odegaard@hr.example", "Ask your manager.", "", "HR-Policy v2.pdf#3" },
  };
  const Expected expected[] = {
    { "hr-1", "correct", "unmeasured" },
    { "hr-2", "incorrect", "unmeasured" },
    { "hr-3", "incorrect", "unmeasured" },  /* the correct hr-1's documents are unknown: nothing to compare */
    { "hr-4", "correct", "unmeasured" },
    { "hr-5", "incorrect", "incorrect" },
  };
  g_autofree char *input = write_lines ("unreported.jsonl", lines, G_N_ELEMENTS (lines));

  for (guint closed = 0; closed < 2; closed++)
    {
      g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
      g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
      g_autofree char *output = tmp_path ("unreported.judged.jsonl");
      g_autoptr (GError) error = NULL;
      g_auto (Results) results = { 0 };

      g_object_set (runner, "closed-domain", (gboolean) closed, NULL);
      g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
      g_assert_no_error (error);
      read_results (output, &results);
      assert_expected (&results, expected, G_N_ELEMENTS (expected));
      g_assert_false (json_object_has_member (result (&results, "hr-4"), "retrieved"));
    }
}

static void
test_ids_rules (void)
{
  g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
  const Expected all[] = {
    { "d1", "correct", "correct" },
    { "d2", "correct", "incorrect" },
    { "d3", "incorrect", "incorrect" },
    { "d4", "unmeasured", "unmeasured" },
    /* no doc_ids: nothing to compare with */
    { "a1", "correct", "unmeasured" },
    { "a3", "incorrect", "unmeasured" },
  };
  const Expected any[] = {
    { "d1", "correct", "correct" },
    { "d2", "correct", "correct" },
    { "d3", "incorrect", "incorrect" },
    { "d4", "unmeasured", "unmeasured" },
    { "a2", "incorrect", "unmeasured" },
  };
  const Expected context[] = {
    /* g4 is non-robust: d3 retrieved {x}, which no correct record did */
    { "d1", "correct", "correct" },
    { "d2", "correct", "correct" },
    { "d3", "incorrect", "incorrect" },
    { "d4", "unmeasured", "unmeasured" },
    { "a2", "incorrect", "correct" },
    { "b1", "incorrect", "unmeasured" },
  };

  {
    g_auto (Results) results = { 0 };

    judge_all ("all", "rule-all.jsonl", &results, matcher);
    assert_expected (&results, all, G_N_ELEMENTS (all));
  }
  {
    g_auto (Results) results = { 0 };

    judge_all ("any", "rule-any.jsonl", &results, matcher);
    assert_expected (&results, any, G_N_ELEMENTS (any));
  }
  {
    g_auto (Results) results = { 0 };

    judge_all ("context", "rule-context.jsonl", &results, matcher);
    assert_expected (&results, context, G_N_ELEMENTS (context));
  }
}

static void
test_closed_domain (void)
{
  g_autofree char *input = write_lines ("closed.jsonl", ids_lines, G_N_ELEMENTS (ids_lines));
  g_autoptr (GError) error = NULL;

  /* The ids rule `all`: d2 misses p2, d3 both; d4's system failed, so
   * nothing says its documents were not retrieved. */
  {
    g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
    g_autofree char *output = tmp_path ("closed-all.jsonl");
    g_auto (Results) results = { 0 };
    const Expected expected[] = {
      { "d1", "correct", "correct" },
      { "d2", "incorrect", "incorrect" },
      { "d3", "incorrect", "incorrect" },
      { "d4", "unmeasured", "unmeasured" },
    };
    JsonObject *d2;

    grammar_judge_runner_set_closed_domain (runner, TRUE);
    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (matcher_calls (matcher), ==, 2);
    g_assert_cmpuint (grammar_judge_runner_get_n_correct (runner), ==, 1);
    g_assert_cmpuint (grammar_judge_runner_get_n_incorrect (runner), ==, 2);
    g_assert_cmpuint (grammar_judge_runner_get_n_unmeasured (runner), ==, 1);
    read_results (output, &results);
    assert_expected (&results, expected, G_N_ELEMENTS (expected));
    d2 = result (&results, "d2");
    g_assert_cmpstr (judge_member (d2, "matcher"), ==, "closed-domain");
    g_assert_cmpstr (judge_member (d2, "reason"), ==,
                     "closed domain: the true documents were not retrieved (missing p2)");
    g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (d2, "judge"), "score"), ==, 0.0);
    g_assert_cmpstr (judge_member (result (&results, "d3"), "reason"), ==,
                     "closed domain: the true documents were not retrieved (missing p1, p2)");
    g_assert_cmpstr (judge_member (result (&results, "d1"), "matcher"), ==, "test-contains");
  }
  /* With the rule `any`, d2 retrieved one of its documents: judged. */
  {
    g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, "any");
    g_autofree char *output = tmp_path ("closed-any.jsonl");
    g_auto (Results) results = { 0 };
    const Expected expected[] = {
      { "d1", "correct", "correct" },
      { "d2", "correct", "correct" },
      { "d3", "incorrect", "incorrect" },
    };

    grammar_judge_runner_set_closed_domain (runner, TRUE);
    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_cmpuint (matcher_calls (matcher), ==, 3);
    read_results (output, &results);
    assert_expected (&results, expected, G_N_ELEMENTS (expected));
    g_assert_cmpstr (judge_member (result (&results, "d3"), "matcher"), ==, "closed-domain");
    g_assert_cmpstr (judge_member (result (&results, "d2"), "matcher"), ==, "test-contains");
  }
}

/* @n_groups groups of @per_group records g<G>-<R>, interleaved: record
 * R of every group, then record R+1 of every group. Odd records are
 * correct. */
static char *
write_interleaved (const char *name,
                   guint       n_groups,
                   guint       per_group)
{
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);

  for (guint r = 0; r < per_group; r++)
    for (guint g = 0; g < n_groups; g++)
      {
        Line line = { NULL, NULL, "yes", NULL, "d1", NULL };

        line.id = g_strdup_printf ("g%u-%u", g, r);
        line.group = g_strdup_printf ("g%u", g);
        line.response = r % 2 == 1 ? "yes" : "no";
        g_ptr_array_add (strings, (gpointer) line.id);
        g_ptr_array_add (strings, (gpointer) line.group);
        g_array_append_val (lines, line);
      }
  return write_lines (name, (const Line *) lines->data, lines->len);
}

/* Each group is written as one block, its records in input order. */
static void
assert_group_blocks (Results *results,
                     guint    per_group)
{
  g_autoptr (GHashTable) finished = g_hash_table_new (g_str_hash, g_str_equal);
  const char *current = NULL;
  guint expected_record = 0;

  for (guint i = 0; i < results->nodes->len; i++)
    {
      JsonObject *object = json_node_get_object (g_ptr_array_index (results->nodes, i));
      const char *group = json_object_get_string_member (object, "group");
      g_autofree char *id = NULL;

      if (g_strcmp0 (group, current) != 0)
        {
          g_assert_cmpuint (expected_record, ==, current == NULL ? 0 : per_group);
          g_assert_false (g_hash_table_contains (finished, group));
          g_hash_table_add (finished, (gpointer) group);
          current = group;
          expected_record = 0;
        }
      id = g_strdup_printf ("%s-%u", group, expected_record++);
      g_assert_cmpstr (json_object_get_string_member (object, "id"), ==, id);
    }
  g_assert_cmpuint (expected_record, ==, current == NULL ? 0 : per_group);
}

static void
test_interleaved_groups (void)
{
  g_autoptr (GrammarMatcher) matcher = make_matcher ("delay-ms=3\n");
  g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
  g_autofree char *input = write_interleaved ("interleaved.jsonl", 5, 4);
  g_autofree char *output = tmp_path ("interleaved-judged.jsonl");
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };
  const Expected expected[] = {
    { "g0-0", "incorrect", "correct" },   /* same documents as g0-1, which is correct */
    { "g0-1", "correct", "correct" },
    { "g4-3", "correct", "correct" },
  };

  grammar_stage_runner_set_max_concurrency (GRAMMAR_STAGE_RUNNER (runner), 3);
  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_no_error (error);
  read_results (output, &results);
  g_assert_cmpuint (results.nodes->len, ==, 20);
  assert_group_blocks (&results, 4);
  assert_expected (&results, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (grammar_judge_runner_get_n_correct (runner), ==, 10);
  g_assert_cmpuint (grammar_judge_runner_get_n_incorrect (runner), ==, 10);
}

static void
test_concurrency (void)
{
  g_autofree char *input = write_interleaved ("concurrency.jsonl", 4, 3);
  g_autoptr (GError) error = NULL;
  const guint limits[] = { 1, 3 };

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_autoptr (GrammarMatcher) matcher = make_matcher ("delay-ms=5\n");
      g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
      g_autofree char *output = tmp_path ("concurrency-judged.jsonl");
      guint max_in_flight = 0;

      grammar_stage_runner_set_max_concurrency (GRAMMAR_STAGE_RUNNER (runner), limits[i]);
      g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
      g_assert_no_error (error);
      g_object_get (matcher, "max-in-flight", &max_in_flight, NULL);
      g_assert_cmpuint (max_in_flight, ==, limits[i]);
      g_assert_cmpuint (matcher_calls (matcher), ==, 12);
    }
}

static void
test_limit (void)
{
  g_autofree char *input = write_interleaved ("limit.jsonl", 2, 3);
  g_autofree char *output = tmp_path ("limit-judged.jsonl");
  g_autoptr (GError) error = NULL;

  {
    g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
    g_auto (Results) results = { 0 };

    grammar_stage_runner_set_limit (GRAMMAR_STAGE_RUNNER (runner), 4);
    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_cmpuint (grammar_stage_runner_get_n_total (GRAMMAR_STAGE_RUNNER (runner)), ==, 4);
    read_results (output, &results);
    g_assert_cmpuint (results.nodes->len, ==, 4);
    result (&results, "g1-1");
  }
  {
    g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
    g_auto (Results) results = { 0 };

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, 4);
    g_assert_cmpuint (grammar_judge_runner_get_n_judged (runner), ==, 2);
    g_assert_cmpuint (matcher_calls (matcher), ==, 2);
    read_results (output, &results);
    g_assert_cmpuint (results.nodes->len, ==, 6);
  }
}

/* Interruptions ------------------------------------------------------------------- */

typedef struct
{
  GCancellable *cancellable;
  guint64 after;
} CancelAfter;

static void
cancel_after (GrammarJudgeRunner *runner,
              guint64             done,
              guint64             total,
              guint64             failed,
              gpointer            user_data)
{
  CancelAfter *cancel = user_data;

  if (done == cancel->after)
    g_cancellable_cancel (cancel->cancellable);
}

static void
test_resume_after_interruption (void)
{
  g_autofree char *input = write_interleaved ("interrupted.jsonl", 6, 3);
  g_autofree char *output = tmp_path ("interrupted-judged.jsonl");
  g_autofree char *reference = tmp_path ("uninterrupted-judged.jsonl");
  g_autoptr (GError) error = NULL;
  guint written;

  {
    g_autoptr (GrammarMatcher) matcher = make_matcher ("delay-ms=2\n");
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
    g_autoptr (GCancellable) cancellable = g_cancellable_new ();
    CancelAfter cancel = { cancellable, 14 };
    g_auto (Results) results = { 0 };

    grammar_stage_runner_set_max_concurrency (GRAMMAR_STAGE_RUNNER (runner), 2);
    g_signal_connect (runner, "progress", G_CALLBACK (cancel_after), &cancel);
    g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, cancellable, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    read_results (output, &results);
    written = results.nodes->len;
    /* Only whole groups, and not all of them. */
    g_assert_cmpuint (written % 3, ==, 0);
    g_assert_cmpuint (written, >=, 3);
    g_assert_cmpuint (written, <, 18);
    g_assert_cmpuint (grammar_judge_runner_get_n_judged (runner), ==, written);
    assert_group_blocks (&results, 3);
  }
  {
    g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
    g_auto (Results) results = { 0 };
    g_auto (Results) reference_results = { 0 };

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, written);
    g_assert_cmpuint (matcher_calls (matcher), ==, 18 - written);
    read_results (output, &results);
    g_assert_cmpuint (results.nodes->len, ==, 18);

    /* The same verdicts as a run that was not interrupted. */
    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, reference, NULL, &error));
    read_results (reference, &reference_results);
    for (guint i = 0; i < reference_results.nodes->len; i++)
      {
        JsonObject *want = json_node_get_object (g_ptr_array_index (reference_results.nodes, i));
        JsonObject *got = result (&results, json_object_get_string_member (want, "id"));

        g_assert_cmpstr (json_object_get_string_member (got, "verdict"), ==,
                         json_object_get_string_member (want, "verdict"));
        g_assert_cmpstr (json_object_get_string_member (got, "retrieval"), ==,
                         json_object_get_string_member (want, "retrieval"));
      }
  }
}

static void
test_resume_partial_line (void)
{
  g_autofree char *input = write_interleaved ("partial.jsonl", 2, 2);
  g_autofree char *output = tmp_path ("partial-judged.jsonl");
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *cut = NULL;
  g_autofree char *last_id = NULL;
  gsize length;

  {
    g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  }
  /* Like a kill while the last line was written: half of it is there. */
  contents = read_file (output);
  length = strlen (contents);
  {
    const char *last = g_strrstr_len (contents, length - 1, "\n") + 1;
    g_autoptr (JsonNode) node = json_from_string (last, NULL);

    last_id = g_strdup (json_object_get_string_member (json_node_get_object (node), "id"));
    cut = g_strndup (contents, (last - contents) + (length - (last - contents)) / 2);
  }
  g_assert_true (g_file_set_contents (output, cut, -1, NULL));
  {
    g_autoptr (GrammarMatcher) matcher = make_matcher ("log=partial-log.txt\n");
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
    g_autofree char *log_path = g_build_filename (tmpdir, "partial-log.txt", NULL);
    g_autofree char *log = NULL;
    g_autofree char *expected_log = g_strconcat (last_id, "\n", NULL);
    g_auto (GStrv) warnings = NULL;
    g_auto (Results) results = { 0 };

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_no_error (error);
    log = read_file (log_path);
    g_assert_cmpstr (log, ==, expected_log);
    g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, 3);
    warnings = grammar_stage_runner_dup_warnings (GRAMMAR_STAGE_RUNNER (runner));
    g_assert_cmpuint (g_strv_length (warnings), ==, 1);
    grammar_test_assert_contains (warnings[0], "partial-judged.jsonl:4: removed an incomplete last line");
    read_results (output, &results);
    g_assert_cmpuint (results.nodes->len, ==, 4);
  }
}

/* A record of the output counts for the context comparison of the rest
 * of its group. */
static void
test_resume_uses_known_records (void)
{
  const Line first[] = { { "a1", "g1", "Paris", "It is Paris.", "d1,d2", NULL } };
  const Line rest[] = {
    { "a1", "g1", "Paris", "It is Paris.", "d1,d2", NULL },
    { "a2", "g1", "Paris", "It is Lyon.", "d2,d1", NULL },
    { "a3", "g1", "Paris", "It is Lyon.", "d3", NULL },
  };
  g_autofree char *first_input = write_lines ("known-first.jsonl", first, G_N_ELEMENTS (first));
  g_autofree char *input = write_lines ("known-all.jsonl", rest, G_N_ELEMENTS (rest));
  g_autofree char *output = tmp_path ("known-judged.jsonl");
  g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };
  const Expected expected[] = {
    { "a1", "correct", "correct" },
    { "a2", "incorrect", "correct" },
    { "a3", "incorrect", "incorrect" },
  };

  {
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), first_input, output, NULL, &error));
  }
  {
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, 1);
  }
  g_assert_cmpuint (matcher_calls (matcher), ==, 3);
  read_results (output, &results);
  assert_expected (&results, expected, G_N_ELEMENTS (expected));
}

static void
test_matcher_failure (void)
{
  g_autofree char *input = write_lines ("failing.jsonl", context_lines, G_N_ELEMENTS (context_lines));
  g_autofree char *output = tmp_path ("failing-judged.jsonl");
  g_autoptr (GError) error = NULL;

  {
    g_autoptr (GrammarMatcher) matcher = make_matcher ("fail-text=Milan\n");
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
    g_auto (Results) results = { 0 };

    g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
    g_assert_cmpstr (error->message, ==, "b2: the matcher failed: test-contains fails on “Milan”");
    g_clear_error (&error);
    /* The group of b2 (g2) is not written; it is judged again. */
    read_results (output, &results);
    g_assert_false (g_hash_table_contains (results.by_id, "b1"));
    g_assert_false (g_hash_table_contains (results.by_id, "b2"));
  }
  {
    g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
    g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
    g_auto (Results) results = { 0 };

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_no_error (error);
    read_results (output, &results);
    g_assert_cmpuint (results.nodes->len, ==, G_N_ELEMENTS (context_lines));
    g_assert_cmpuint (matcher_calls (matcher), ==, G_N_ELEMENTS (context_lines) -
                                                   grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)));
  }
}

/* Bad files ----------------------------------------------------------------------- */

static void
test_bad_input (void)
{
  g_autofree char *good = line_json (&context_lines[0]);
  g_autofree char *other = line_json (&context_lines[1]);
  struct {
    const char *name;
    char *contents;
    const char *message;
  } cases[] = {
    { "bad-json.jsonl", g_strdup_printf ("%s\n{\"id\": nope}\n", good), "bad-json.jsonl:2:11: invalid JSON: unexpected identifier" },
    { "bad-type.jsonl", g_strdup_printf ("%s\n\n{\"id\":\"x\",\"group\":3,\"response\":\"r\"}\n", good),
      "bad-type.jsonl:3: member “group” must be a string" },
    { "no-id.jsonl", g_strdup_printf ("%s\n{\"response\":\"r\"}\n", other), "no-id.jsonl:2: the record needs a non-empty “id”" },
    { "no-response.jsonl", g_strdup ("{\"id\":\"q1\",\"text\":\"t\"}\n"),
      "no-response.jsonl:1: the record has no “response”; judge the results of grammar rag, not a dataset" },
    { "duplicate.jsonl", g_strdup_printf ("%s\n%s\n%s\n", good, other, good),
      "duplicate.jsonl:3: duplicate id “a1” (also on line 1)" },
    { "array.jsonl", g_strdup ("[1]\n"), "array.jsonl:1: a record must be a JSON object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
      g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
      g_autofree char *input = grammar_test_write_file (tmpdir, cases[i].name, cases[i].contents);
      g_autofree char *output = tmp_path ("bad-judged.jsonl");
      g_autoptr (GError) error = NULL;

      g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      grammar_test_assert_contains (error->message, cases[i].message);
      g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
      g_assert_cmpuint (matcher_calls (matcher), ==, 0);
      g_free (cases[i].contents);
    }
}

static void
test_bad_output (void)
{
  g_autofree char *input = write_lines ("damaged-input.jsonl", context_lines, 3);
  g_autofree char *line = line_json (&context_lines[0]);
  g_autofree char *damaged = g_strdup_printf ("not json\n%s\n", line);
  g_autofree char *output = grammar_test_write_file (tmpdir, "damaged-judged.jsonl", damaged);
  g_autofree char *after = NULL;
  g_autoptr (GrammarMatcher) matcher = make_matcher (NULL);
  g_autoptr (GrammarJudgeRunner) runner = make_runner (matcher, NULL);
  g_autoptr (GError) error = NULL;

  /* A complete line that is not a record is damage, not an interruption. */
  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "damaged-judged.jsonl:1:");
  after = read_file (output);
  g_assert_cmpstr (after, ==, damaged);
  g_assert_cmpuint (matcher_calls (matcher), ==, 0);
  g_clear_error (&error);

  /* The output must not be the input. */
  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, input, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "the output must not be the input");
}

/* Configuration ------------------------------------------------------------------- */

static GrammarJudgeRunner *
runner_from_config (const char  *text,
                    const char  *matcher_section,
                    GError     **error)
{
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (text, -1, tmpdir, NULL);

  g_assert_nonnull (config);
  return grammar_judge_runner_new_from_config (config, matcher_section, error);
}

static void
test_config (void)
{
  const char *matchers = "[matcher]\nplugin=test-contains\n\n[strict]\nplugin=test-contains\ndelay-ms=1\n";
  struct {
    const char *judge;
    int code;
    const char *message;
  } bad[] = {
    { "[judge]\nretrieval=some\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE, "[judge] retrieval: must be all, any, context or auto" },
    { "[judge]\nclosed-domain=maybe\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE, "[judge] closed-domain: must be true or false" },
    { "[judge]\nmax-concurrency=0\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE, "[judge] max-concurrency: must be a whole number" },
    { "[judge]\nmatchers=strict\n", GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY, "[judge] matchers: unknown key" },
    { "[judge]\nmatcher=nowhere\n", GRAMMAR_CONFIG_ERROR_MISSING_SECTION, "nowhere" },
  };

  /* No [judge]: the defaults and [matcher]. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GrammarJudgeRunner) runner = runner_from_config (matchers, NULL, &error);
    guint delay_ms = 0;

    g_assert_no_error (error);
    g_assert_cmpstr (grammar_judge_runner_get_retrieval_rule (runner), ==, "auto");
    g_assert_false (grammar_judge_runner_get_closed_domain (runner));
    g_assert_cmpuint (grammar_stage_runner_get_max_concurrency (GRAMMAR_STAGE_RUNNER (runner)), ==, 16);
    g_object_get (grammar_judge_runner_get_matcher (runner), "delay-ms", &delay_ms, NULL);
    g_assert_cmpuint (delay_ms, ==, 2);
  }
  /* Every key of [judge]. */
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *text = g_strconcat (matchers, "\n[judge]\nmatcher=strict\nclosed-domain=true\n"
                                         "retrieval=context\nmax-concurrency=9\n", NULL);
    g_autoptr (GrammarJudgeRunner) runner = runner_from_config (text, NULL, &error);
    guint delay_ms = 0;

    g_assert_no_error (error);
    g_assert_cmpstr (grammar_judge_runner_get_retrieval_rule (runner), ==, "context");
    g_assert_true (grammar_judge_runner_get_closed_domain (runner));
    g_assert_cmpuint (grammar_stage_runner_get_max_concurrency (GRAMMAR_STAGE_RUNNER (runner)), ==, 9);
    g_object_get (grammar_judge_runner_get_matcher (runner), "delay-ms", &delay_ms, NULL);
    g_assert_cmpuint (delay_ms, ==, 1);
  }
  /* The section given by the caller wins over matcher=. */
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *text = g_strconcat (matchers, "\n[judge]\nmatcher=strict\n", NULL);
    g_autoptr (GrammarJudgeRunner) runner = runner_from_config (text, "matcher", &error);
    guint delay_ms = 0;

    g_assert_no_error (error);
    g_object_get (grammar_judge_runner_get_matcher (runner), "delay-ms", &delay_ms, NULL);
    g_assert_cmpuint (delay_ms, ==, 2);
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *text = g_strconcat (matchers, "\n", bad[i].judge, NULL);
      g_autoptr (GrammarJudgeRunner) runner = runner_from_config (text, NULL, &error);

      g_assert_null (runner);
      g_assert_error (error, GRAMMAR_CONFIG_ERROR, bad[i].code);
      grammar_test_assert_contains (error->message, bad[i].message);
    }
}

/* The command --------------------------------------------------------------------- */

static guint
count_lines (const char *path)
{
  g_autofree char *contents = read_file (path);
  guint n = 0;

  for (const char *p = contents; *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

static char *
make_cli_dir (const char *name)
{
  char *dir = g_build_filename (tmpdir, name, NULL);
  g_autoptr (GString) contents = g_string_new (NULL);

  g_mkdir (dir, 0755);
  for (guint i = 0; i < G_N_ELEMENTS (ids_lines); i++)
    {
      g_autofree char *line = line_json (&ids_lines[i]);

      g_string_append_printf (contents, "%s\n", line);
    }
  g_free (grammar_test_write_file (dir, "results.jsonl", contents->str));
  return dir;
}

static void
test_cli_run_and_resume (void)
{
  g_autofree char *dir = make_cli_dir ("cli");
  g_autofree char *log = g_build_filename (dir, "judged.txt", NULL);
  g_autofree char *output = g_build_filename (dir, "judged.jsonl", NULL);

  g_free (grammar_test_write_file (dir, "judge.ini",
                                   "[matcher]\nplugin=test-contains\nlog=judged.txt\n\n"
                                   "[other]\nplugin=test-contains\nlog=other.txt\n\n"
                                   "[judge]\nclosed-domain=true\nretrieval=context\nmax-concurrency=2\n"));
  /* [judge]: closed domain by `all` (d2 and d3 without the matcher),
   * retrieval by context comparison. */
  {
    g_auto (GrammarTestRun) run = { 0 };
    g_auto (Results) results = { 0 };
    const Expected expected[] = {
      { "d1", "correct", "correct" },
      { "d2", "incorrect", "incorrect" },
      { "d3", "incorrect", "incorrect" },
      { "d4", "unmeasured", "unmeasured" },
    };

    grammar_test_run (&run, dir, "judge", "-c", "judge.ini", "-i", "results.jsonl", "-o", "judged.jsonl", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "");
    g_assert_cmpstr (run.err, ==, "grammar judge: judged 4 records: 1 correct, 2 incorrect, 1 unmeasured; "
                                  "0 already in the output\n");
    read_results (output, &results);
    assert_expected (&results, expected, G_N_ELEMENTS (expected));
    g_assert_cmpstr (judge_member (result (&results, "d2"), "matcher"), ==, "closed-domain");
    g_assert_cmpuint (count_lines (log), ==, 2);
  }
  /* Again: nothing left to judge. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "judge", "-c", "judge.ini", "-i", "results.jsonl", "-o", "judged.jsonl", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==, "grammar judge: judged 0 records: 0 correct, 0 incorrect, 0 unmeasured; "
                                  "4 already in the output\n");
    g_assert_cmpuint (count_lines (log), ==, 2);
  }
  /* The options win over [judge]: rule `any` (d2 goes to the matcher and
   * its retrieval is correct), another matcher, --limit, --quiet. */
  {
    g_auto (GrammarTestRun) run = { 0 };
    g_auto (Results) results = { 0 };
    g_autofree char *other_output = g_build_filename (dir, "any.jsonl", NULL);
    g_autofree char *other_log = g_build_filename (dir, "other.txt", NULL);
    const Expected expected[] = {
      { "d1", "correct", "correct" },
      { "d2", "correct", "correct" },
      { "d3", "incorrect", "incorrect" },
    };

    grammar_test_run (&run, dir, "judge", "-c", "judge.ini", "-i", "results.jsonl", "-o", "any.jsonl",
                      "--retrieval", "any", "--matcher", "other", "--concurrency", "1", "--limit", "3", "-q", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==, "");
    read_results (other_output, &results);
    g_assert_cmpuint (results.nodes->len, ==, 3);
    assert_expected (&results, expected, G_N_ELEMENTS (expected));
    g_assert_cmpuint (count_lines (other_log), ==, 2);
    g_assert_cmpuint (count_lines (log), ==, 2);
  }
  /* --closed-domain without [judge]. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    g_free (grammar_test_write_file (dir, "plain.ini", "[matcher]\nplugin=test-contains\n"));
    grammar_test_run (&run, dir, "judge", "-c", "plain.ini", "-i", "results.jsonl", "-o", "plain.jsonl", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "judged 4 records: 2 correct, 1 incorrect, 1 unmeasured;");
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "judge", "-c", "plain.ini", "-i", "results.jsonl", "-o", "closed.jsonl",
                      "--closed-domain", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "judged 4 records: 1 correct, 2 incorrect, 1 unmeasured;");
  }
}

static void
test_cli_usage (void)
{
  g_autofree char *dir = make_cli_dir ("cli-usage");
  g_autofree char *line1 = line_json (&ids_lines[0]);
  g_autofree char *bad = g_strdup_printf ("%s\nnot json\n", line1);
  struct {
    const char *args[14];
    int status;
    const char *message;
  } cases[] = {
    { { "judge", "-c", "judge.ini", "-i", "results.jsonl", NULL }, 2, "no output given; pass -o judged.jsonl" },
    { { "judge", "-c", "judge.ini", "-o", "out.jsonl", NULL }, 2, "no results given; pass -i results.jsonl" },
    { { "judge", "-c", "judge.ini", "-i", "results.jsonl", "-o", "out.jsonl", "--retrieval", "most", NULL }, 2,
      "--retrieval must be all, any, context or auto" },
    { { "judge", "-c", "judge.ini", "-i", "results.jsonl", "-o", "out.jsonl", "--concurrency", "0", NULL }, 2,
      "--concurrency must be at least 1" },
    { { "judge", "-c", "judge.ini", "-i", "results.jsonl", "-o", "out.jsonl", "--limit", "-2", NULL }, 2,
      "--limit must not be negative" },
    { { "judge", "-c", "judge.ini", "-i", "results.jsonl", "-o", "out.jsonl", "extra", NULL }, 2,
      "unexpected argument “extra”" },
    { { "judge", "-i", "results.jsonl", "-o", "out.jsonl", NULL }, 2, "no configuration given" },
    { { "judge", "-c", "judge.ini", "-i", "results.jsonl", "-o", "out.jsonl", "--matcher", "nope", NULL }, 2, "nope" },
    { { "judge", "-c", "bad-judge.ini", "-i", "results.jsonl", "-o", "out.jsonl", NULL }, 2,
      "[judge] retrieval: must be all, any, context or auto" },
    { { "judge", "-c", "judge.ini", "-i", "bad.jsonl", "-o", "out.jsonl", NULL }, 2,
      "grammar judge: bad.jsonl:2:3: invalid JSON" },
    { { "judge", "-c", "judge.ini", "-i", "nowhere.jsonl", "-o", "out.jsonl", NULL }, 2, "nowhere.jsonl" },
    { { "judge", "-c", "failing.ini", "-i", "results.jsonl", "-o", "out.jsonl", NULL }, 1,
      "grammar judge: d3: the matcher failed: test-contains fails on “Bob”" },
  };

  g_free (grammar_test_write_file (dir, "judge.ini", "[matcher]\nplugin=test-contains\n"));
  g_free (grammar_test_write_file (dir, "bad-judge.ini", "[matcher]\nplugin=test-contains\n[judge]\nretrieval=x\n"));
  g_free (grammar_test_write_file (dir, "failing.ini", "[matcher]\nplugin=test-contains\nfail-text=Bob\n"));
  g_free (grammar_test_write_file (dir, "bad.jsonl", bad));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (GrammarTestRun) run = { 0 };
      g_autofree char *out = g_build_filename (dir, "out.jsonl", NULL);

      g_unlink (out);
      grammar_test_runv (&run, dir, cases[i].args);
      g_assert_cmpint (run.status, ==, cases[i].status);
      grammar_test_assert_contains (run.err, cases[i].message);
      if (cases[i].status == 2)
        g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }

  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "judge", "--help", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.out, "--closed-domain");
    grammar_test_assert_contains (run.out, "--retrieval");
    grammar_test_assert_contains (run.out, "--matcher");
    grammar_test_assert_contains (run.out, "Exit status: 0 every record judged");
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "--help", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.out, "  judge ");
  }
}

/* ---------------------------------------------------------------------------------- */

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("grammar-judge-XXXXXX");
  grammar_test_add_plugin_path ("judge-test-matcher");

  g_test_add_func ("/judge-runner/properties", test_properties);
  g_test_add_func ("/judge-runner/verdicts-and-context", test_verdicts_and_context);
  g_test_add_func ("/judge-runner/ids-rules", test_ids_rules);
  g_test_add_func ("/judge-runner/unreported", test_unreported);
  g_test_add_func ("/judge-runner/closed-domain", test_closed_domain);
  g_test_add_func ("/judge-runner/interleaved-groups", test_interleaved_groups);
  g_test_add_func ("/judge-runner/concurrency", test_concurrency);
  g_test_add_func ("/judge-runner/limit", test_limit);
  g_test_add_func ("/judge-runner/resume-after-interruption", test_resume_after_interruption);
  g_test_add_func ("/judge-runner/resume-partial-line", test_resume_partial_line);
  g_test_add_func ("/judge-runner/resume-uses-known-records", test_resume_uses_known_records);
  g_test_add_func ("/judge-runner/matcher-failure", test_matcher_failure);
  g_test_add_func ("/judge-runner/bad-input", test_bad_input);
  g_test_add_func ("/judge-runner/bad-output", test_bad_output);
  g_test_add_func ("/judge-runner/config", test_config);
  g_test_add_func ("/judge/cli/run-and-resume", test_cli_run_and_resume);
  g_test_add_func ("/judge/cli/usage", test_cli_usage);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
