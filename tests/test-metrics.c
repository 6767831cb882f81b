/* test-metrics.c: the metric plugins, grammar assess and the reliability of the metrics
 *
 * The language-model metrics run against tests/fake-openai, scripted with
 * rules that answer each prompt in one of the shapes models reply in.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <signal.h>
#include <string.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmpdir;

/* Each rule matches the last user message; the first match wins. */
static const char rules[] =
  "{\"rules\": ["
  /* statements, in several shapes */
  " {\"match\": \"atomic statements[\\\\s\\\\S]*answer: RESP-A\", \"reply\": \"```json\\n[\\\"S-A1 holds\\\", \\\"S-A2 holds\\\"]\\n```\"},"
  " {\"match\": \"atomic statements[\\\\s\\\\S]*answer: RESP-B\", \"reply\": \"Statements:\\n1. S-B1 holds\\n2) S-B2 holds\\n- S-B3 holds\\nThat is all.\"},"
  " {\"match\": \"atomic statements[\\\\s\\\\S]*answer: RESP-C\", \"reply\": \"Sure! {\\\"statements\\\": [\\\"S-C1 holds\\\"]}\"},"
  " {\"match\": \"atomic statements[\\\\s\\\\S]*answer: RESP-D\", \"reply\": \"[]\"},"
  " {\"match\": \"atomic statements[\\\\s\\\\S]*answer: RESP-E\", \"reply\": \"[\\\"S-E1 holds\\\"]\"},"
  " {\"match\": \"atomic statements[\\\\s\\\\S]*answer: RESP-P\", \"reply\": \"[\\\"S-P1 holds\\\", \\\"S-P2 holds\\\", \\\"S-P3 holds\\\"]\"},"
  " {\"match\": \"atomic statements[\\\\s\\\\S]*answer: RESP-FAIL\", \"status\": 500, \"error\": \"the model is down\"},"
  " {\"match\": \"atomic statements\", \"reply\": \"[\\\"S-Z1 holds\\\"]\"},"
  /* verdicts on all statements at once */
  " {\"match\": \"supports it[\\\\s\\\\S]*S-A1\", \"reply\": \"Here:\\n[{\\\"statement\\\": \\\"S-A1 holds\\\", \\\"reason\\\": \\\"said\\\", \\\"verdict\\\": 1}, {\\\"statement\\\": \\\"S-A2 holds\\\", \\\"reason\\\": \\\"not said\\\", \\\"verdict\\\": 0}]\"},"
  " {\"match\": \"supports it[\\\\s\\\\S]*S-B1\", \"reply\": \"1. Yes\\n2. Yes\\n3. No\"},"
  " {\"match\": \"supports it[\\\\s\\\\S]*S-C1\", \"reply\": \"The context says so. Verdict: Yes\"},"
  " {\"match\": \"supports it[\\\\s\\\\S]*S-E1\", \"reply\": \"I am not sure what to say.\"},"
  " {\"match\": \"supports it\", \"reply\": \"[1]\"},"
  /* the paper's RAGAS-Fact prompt, one statement each */
  " {\"match\": \"statement: S-P1\", \"reply\": \"Yes (1)\"},"
  " {\"match\": \"statement: S-P2\", \"reply\": \"No\"},"
  " {\"match\": \"statement: S-P3\", \"reply\": \"Null\"},"
  /* SelfCheck-QA */
  " {\"match\": \"Answer B: SAMPLE-Y\", \"reply\": \"Yes.\"},"
  " {\"match\": \"Answer B: SAMPLE-N\", \"reply\": \"**No**, they differ.\"},"
  " {\"match\": \"Answer B: SAMPLE-X\", \"reply\": \"Perhaps.\"},"
  /* SelfCheck NLI, sentence by sample */
  " {\"match\": \"CTX-1[\\\\s\\\\S]*Sentence: Beta\", \"reply\": \"No\"},"
  " {\"match\": \"Sentence: \", \"reply\": \"Yes\"}"
  "], \"default\": {\"reply\": \"Yes\"}}";

static GrammarTestServer *
start_server (const char *extra)
{
  g_autofree char *path = grammar_test_write_file (tmpdir, "rules.json", rules);
  const char *args[] = { "--rules", path, extra, NULL };

  return grammar_test_server_start (args);
}

static GObject *
build (const char  *keyfile,
       const char  *section,
       GType        type,
       GError     **error)
{
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (keyfile, -1, tmpdir, error);

  if (config == NULL)
    return NULL;
  return grammar_config_build (config, section, type, error);
}

static GrammarMetric *
build_metric (GrammarTestServer *server,
              const char        *body)
{
  g_autofree char *keyfile = g_strdup_printf (
    "[judge-llm]\nplugin=openai\nbase-url=%s\nmodel=judge\ncache=\nmax-retries=0\n[metric]\n%s",
    server != NULL ? server->url : "http://127.0.0.1:9/v1", body);
  g_autoptr (GError) error = NULL;
  GObject *metric = build (keyfile, "metric", GRAMMAR_TYPE_METRIC, &error);

  g_assert_no_error (error);
  return GRAMMAR_METRIC (metric);
}

/* A results record: @response (NULL: the system failed), one retrieved
 * document of @context (NULL: none retrieved), and @samples. */
static GrammarRecord *
make_record (const char         *response,
             const char         *context,
             const char * const *samples)
{
  g_autofree char *json = NULL;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  GrammarRecord *record;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "q1");
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, "Which industry is Globex in?");
  json_builder_set_member_name (builder, "response");
  if (response != NULL)
    json_builder_add_string_value (builder, response);
  else
    json_builder_add_null_value (builder);
  if (response == NULL)
    {
      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder, "timeout");
    }
  json_builder_set_member_name (builder, "retrieved");
  json_builder_begin_array (builder);
  if (context != NULL)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, "d1");
      json_builder_set_member_name (builder, "score");
      json_builder_add_double_value (builder, 1.0);
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, context);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  if (samples != NULL)
    {
      json_builder_set_member_name (builder, "samples");
      json_builder_begin_array (builder);
      for (guint i = 0; samples[i] != NULL; i++)
        json_builder_add_string_value (builder, samples[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  record = grammar_record_new_from_json (node, &error);
  g_assert_no_error (error);
  return record;
}

static GrammarScore *
score (GrammarMetric *metric,
       GrammarRecord *record)
{
  g_autoptr (GError) error = NULL;
  GrammarScore *result = grammar_metric_score (metric, record, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static gint64
evidence_int (GrammarScore *result,
              const char   *name)
{
  JsonNode *evidence = grammar_score_get_evidence (result);

  g_assert_nonnull (evidence);
  return json_object_get_int_member (json_node_get_object (evidence), name);
}

#define CONTEXT "Globex is a client in the Energy industry."

static void
assert_value (GrammarMetric *metric,
              const char    *response,
              double         expected)
{
  g_autoptr (GrammarRecord) record = make_record (response, CONTEXT, NULL);
  g_autoptr (GrammarScore) result = score (metric, record);

  g_assert_true (grammar_score_is_measured (result));
  g_assert_cmpfloat_with_epsilon (grammar_score_get_value (result), expected, 1e-9);
}

static void
assert_unmeasured (GrammarMetric *metric,
                   GrammarRecord *record,
                   const char    *reason)
{
  g_autoptr (GrammarScore) result = score (metric, record);

  g_assert_false (grammar_score_is_measured (result));
  g_assert_false (grammar_score_get_passed (result));
  grammar_test_assert_contains (grammar_score_get_reason (result), reason);
}

/* RAGAS's two steps, replies in every shape the prompts allow. */
static void
test_faithfulness_replies (void)
{
  GrammarTestServer *server = start_server (NULL);
  g_autoptr (GrammarMetric) metric = build_metric (server, "plugin=ragas-faithfulness\nllm=judge-llm\n");
  g_autoptr (GrammarRecord) unreadable = make_record ("RESP-E", CONTEXT, NULL);
  g_autoptr (GrammarRecord) no_context = make_record ("RESP-A", NULL, NULL);
  g_autoptr (GrammarRecord) failed = make_record (NULL, NULL, NULL);
  g_autoptr (GrammarScore) unreadable_score = NULL;

  assert_value (metric, "RESP-A", 0.5);          /* fenced JSON; JSON objects in prose */
  assert_value (metric, "RESP-B", 2.0 / 3.0);    /* numbered list in prose; numbered verdicts */
  assert_value (metric, "RESP-C", 1.0);          /* object with an array; "Verdict: Yes" */
  assert_unmeasured (metric, no_context, "no retrieved context");
  assert_unmeasured (metric, failed, "the system gave no response: timeout");
  {
    g_autoptr (GrammarRecord) none = make_record ("RESP-D", CONTEXT, NULL);

    assert_unmeasured (metric, none, "no statement");
  }
  /* an unreadable reply is asked again once, then unmeasured */
  unreadable_score = score (metric, unreadable);
  g_assert_false (grammar_score_is_measured (unreadable_score));
  grammar_test_assert_contains (grammar_score_get_reason (unreadable_score), "after 2 attempts");
  g_assert_cmpint (evidence_int (unreadable_score, "requests"), ==, 3);
  grammar_test_server_free (server);
}

/* variant=paper: one request per statement, Yes (1) / No / Null. */
static void
test_faithfulness_paper (void)
{
  GrammarTestServer *server = start_server (NULL);
  g_autoptr (GrammarMetric) metric = build_metric (server, "plugin=ragas-faithfulness\nllm=judge-llm\n"
                                                           "variant=paper\n");
  g_autoptr (GrammarRecord) record = make_record ("RESP-P", CONTEXT, NULL);
  g_autoptr (GrammarScore) result = score (metric, record);

  /* Null counts neither way: 1 supported of 2 judged */
  g_assert_cmpfloat_with_epsilon (grammar_score_get_value (result), 0.5, 1e-9);
  g_assert_cmpint (evidence_int (result, "requests"), ==, 4);
  g_assert_true (grammar_score_get_passed (result));
  grammar_test_server_free (server);
}

static void
test_selfcheck (void)
{
  GrammarTestServer *server = start_server (NULL);
  g_autoptr (GrammarMetric) qa = build_metric (server, "plugin=selfcheck\nllm=judge-llm\n");
  g_autoptr (GrammarMetric) nli = build_metric (server, "plugin=selfcheck\nllm=judge-llm\nvariant=nli\n");
  const char * const qa_samples[] = { "SAMPLE-Y1", "SAMPLE-N1", "SAMPLE-Y2", "SAMPLE-X", NULL };
  const char * const nli_samples[] = { "CTX-1", "CTX-2", NULL };
  g_autoptr (GrammarRecord) qa_record = make_record ("Energy.", CONTEXT, qa_samples);
  g_autoptr (GrammarRecord) nli_record = make_record ("Alpha one. Beta two.", CONTEXT, nli_samples);
  g_autoptr (GrammarRecord) no_samples = make_record ("Energy.", CONTEXT, NULL);
  g_autoptr (GrammarScore) qa_score = score (qa, qa_record);
  g_autoptr (GrammarScore) nli_score = score (nli, nli_record);
  g_autoptr (GError) error = NULL;

  /* 2 Yes, 1 No, 1 unreadable: 2/3, and the paper's rule fails it */
  g_assert_cmpfloat_with_epsilon (grammar_score_get_value (qa_score), 2.0 / 3.0, 1e-9);
  g_assert_false (grammar_score_get_passed (qa_score));
  g_assert_cmpint (evidence_int (qa_score, "requests"), ==, 5);
  /* Alpha: consistent with both; Beta: half: 1 - (0 + 0.5) / 2 */
  g_assert_cmpfloat_with_epsilon (grammar_score_get_value (nli_score), 0.75, 1e-9);
  g_assert_cmpint (evidence_int (nli_score, "requests"), ==, 4);
  /* no samples: refused before any request */
  g_assert_false (grammar_metric_check_record (qa, no_samples, &error));
  grammar_test_assert_contains (error->message, "samples");
  grammar_test_server_free (server);
}

static void
test_offline (void)
{
  g_autoptr (GrammarMetric) lexical = build_metric (NULL, "plugin=faithfulness-lexical\n");
  g_autoptr (GrammarMetric) ngram = build_metric (NULL, "plugin=selfcheck-ngram\n");
  const char * const same[] = { "alpha beta", "Alpha, beta!", NULL };
  const char * const other[] = { "gamma delta", "gamma delta", NULL };
  g_autoptr (GrammarRecord) repeated = make_record ("alpha beta", CONTEXT, same);
  g_autoptr (GrammarRecord) contradicted = make_record ("alpha beta", CONTEXT, other);
  g_autoptr (GrammarScore) repeated_score = score (ngram, repeated);
  g_autoptr (GrammarScore) contradicted_score = score (ngram, contradicted);
  g_autoptr (GrammarRecord) no_context = make_record ("Globex.", NULL, NULL);

  /* one covered sentence of two */
  assert_value (lexical, "Globex is in the Energy industry. The sky is green.", 0.5);
  assert_unmeasured (lexical, no_context, "no retrieved context");
  /* a system that reported no documents (no `retrieved`): not an input
   * error, unmeasured like an empty context */
  {
    g_autoptr (JsonNode) node = json_from_string ("{\"id\": \"HR-7\", \"text\": \"Who approves leave?\", "
                                                  "\"response\": \"Ask margit.odegaard@hr.example.\"}", NULL);
    g_autoptr (GrammarRecord) unreported = grammar_record_new_from_json (node, NULL);
    g_autoptr (GError) error = NULL;

    g_assert_nonnull (unreported);
    g_assert_true (grammar_metric_check_record (lexical, unreported, &error));
    g_assert_no_error (error);
    assert_unmeasured (lexical, unreported, "no retrieved context");
  }
  g_assert_cmpfloat_with_epsilon (grammar_score_get_value (repeated_score), 1.0, 1e-9);
  g_assert_true (grammar_score_get_passed (repeated_score));
  g_assert_cmpfloat_with_epsilon (grammar_score_get_value (contradicted_score), 0.0, 1e-9);
  g_assert_false (grammar_score_get_passed (contradicted_score));

  /* fewer samples than asked (one failed): scored on the one it has;
   * none left: unmeasured, saying why */
  {
    const char * const one[] = { "alpha beta", NULL };
    const char * const none[] = { NULL };
    g_autoptr (GrammarRecord) fewer = make_record ("alpha beta", CONTEXT, one);
    g_autoptr (GrammarRecord) all_failed = make_record ("alpha beta", CONTEXT, none);
    g_autoptr (GrammarScore) fewer_score = NULL;

    grammar_record_set_samples_failed (fewer, 1, "sample 2: http://127.0.0.1:9/ask: the reply is not JSON");
    fewer_score = score (ngram, fewer);
    g_assert_cmpfloat_with_epsilon (grammar_score_get_value (fewer_score), 1.0, 1e-9);
    grammar_record_set_samples_failed (all_failed, 2, "sample 1: http://127.0.0.1:9/ask: HTTP 503: busy");
    assert_unmeasured (ngram, all_failed, "the record has no samples: its 2 failed (sample 1: ");
  }
}

/* The reliability figures on a fixture whose confusion table is known:
 * truth C C C I I I I U C, metric pass P P F P P P F P and unmeasured. */
static void
test_reliability (void)
{
  static const struct { const char *verdict; const char *score; } rows[] = {
    { "correct", "0.9" }, { "correct", "0.8" }, { "correct", "0.3" }, { "incorrect", "0.9" },
    { "incorrect", "0.7" }, { "incorrect", "0.6" }, { "incorrect", "0.1" }, { "unmeasured", "0.9" },
    { "correct", "null" },
  };
  g_autoptr (GString) judged = g_string_new (NULL);
  g_autoptr (GString) assessed = g_string_new (NULL);
  g_autofree char *judged_path = NULL;
  g_autofree char *assessed_path = NULL;
  g_autofree char *other_path = NULL;
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (GrammarReliability) reliability = grammar_reliability_new ();
  g_autoptr (GrammarReliability) mismatched = grammar_reliability_new ();
  g_autoptr (JsonNode) json = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *m, *precision;
  JsonArray *wilson;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_string_append_printf (judged, "{\"id\":\"r%u\",\"group\":\"g%u\",\"style\":\"short\",\"text\":\"q\","
                              "\"answer\":[[\"x\"]],\"response\":\"x\",\"verdict\":\"%s\","
                              "\"judge\":{\"matcher\":\"contains\",\"score\":1}}\n", i, i, rows[i].verdict);
      g_string_append_printf (assessed, "{\"id\":\"r%u\",\"assessment\":{\"m\":{\"plugin\":\"p\",\"score\":%s,"
                              "\"threshold\":0.5%s}}}\n", i, rows[i].score,
                              g_str_equal (rows[i].score, "null") ? ",\"unmeasured\":\"no context\"" : "");
    }
  judged_path = grammar_test_write_file (tmpdir, "fixture.judged.jsonl", judged->str);
  assessed_path = grammar_test_write_file (tmpdir, "fixture.assessed.jsonl", assessed->str);
  other_path = grammar_test_write_file (tmpdir, "other.assessed.jsonl",
                                        "{\"id\":\"r0\",\"assessment\":{}}\n{\"id\":\"zz9\",\"assessment\":{}}\n");
  evaluation = grammar_evaluation_load (judged_path, NULL, &error);
  g_assert_no_error (error);
  grammar_reliability_add_judged (reliability, evaluation);
  g_assert_true (grammar_reliability_add_assessed (reliability, assessed_path, NULL, &error));
  g_assert_no_error (error);
  json = grammar_reliability_to_json (reliability);
  m = json_object_get_object_member (json_node_get_object (json), "m");

  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (m, "confusion"), "tp"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (m, "confusion"), "fp"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (m, "confusion"), "fn"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (m, "confusion"), "tn"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (m, "unmeasured"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (m, "truth_unmeasured"), ==, 1);
  precision = json_object_get_object_member (m, "precision");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (precision, "value"), 0.4, 1e-9);
  wilson = json_object_get_array_member (precision, "wilson");
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (wilson, 0), 0.117621, 1e-5);
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (wilson, 1), 0.769276, 1e-5);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (m, "recall"),
                                                                 "value"), 2.0 / 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (m, "specificity"),
                                                                 "value"), 0.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (m, "accuracy"),
                                                                 "value"), 3.0 / 7.0, 1e-9);
  /* positives .9 .8 .3 against negatives .9 .7 .6 .1: 7.5 of 12 pairs */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (m, "auroc"),
                                                                 "value"), 0.625, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (m, "verdict"), ==,
                   "optimistic: passes 75% of wrong answers (and fails 33% of right ones)");
  g_assert_true (json_object_has_member (json_object_get_object_member (m, "by_style"), "short"));

  /* an assessed file of other results: the first unknown id is named */
  grammar_reliability_add_judged (mismatched, evaluation);
  g_assert_false (grammar_reliability_add_assessed (mismatched, other_path, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "other.assessed.jsonl:2: id “zz9”");
}

/* The command: all four metrics through HTTP, bad input, an LLM error
 * for one record, resume after kill -9. */

static const char cli_results[] =
  "{\"id\":\"a\",\"text\":\"q\",\"response\":\"RESP-A\",\"samples\":[\"SAMPLE-Y1\",\"SAMPLE-Y2\"],"
  "\"retrieved\":[{\"id\":\"d\",\"score\":1,\"text\":\"" CONTEXT "\"}]}\n"
  "{\"id\":\"b\",\"text\":\"q\",\"response\":\"RESP-B\",\"samples\":[\"SAMPLE-N1\",\"SAMPLE-Y1\"],"
  "\"retrieved\":[{\"id\":\"d\",\"score\":1,\"text\":\"" CONTEXT "\"}]}\n"
  "{\"id\":\"f\",\"text\":\"q\",\"response\":\"RESP-FAIL\",\"samples\":[\"SAMPLE-Y1\"],"
  "\"retrieved\":[{\"id\":\"d\",\"score\":1,\"text\":\"" CONTEXT "\"}]}\n";

static char *
write_cli_config (GrammarTestServer *server,
                  const char        *metrics)
{
  g_autofree char *text = g_strdup_printf (
    "[judge-llm]\nplugin=openai\nbase-url=%s\nmodel=judge\ncache=\nmax-retries=0\n"
    "[metrics]\nmetrics=%s\n"
    "[faithfulness]\nplugin=ragas-faithfulness\nllm=judge-llm\n"
    "[selfcheck]\nplugin=selfcheck\nllm=judge-llm\n"
    "[lexical]\nplugin=faithfulness-lexical\n"
    "[ngram]\nplugin=selfcheck-ngram\n", server != NULL ? server->url : "http://127.0.0.1:9/v1", metrics);

  return grammar_test_write_file (tmpdir, "assess.ini", text);
}

static GPtrArray *
read_assessed (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *records = g_ptr_array_new_with_free_func (g_object_unref);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonNode) node = NULL;
      g_autoptr (GError) error = NULL;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      g_ptr_array_add (records, grammar_record_new_from_json (node, &error));
      g_assert_no_error (error);
    }
  return records;
}

static void
test_cli (void)
{
  GrammarTestServer *server = start_server (NULL);
  g_autofree char *config = write_cli_config (server, "faithfulness;selfcheck;lexical;ngram");
  g_autofree char *results = grammar_test_write_file (tmpdir, "cli.results.jsonl", cli_results);
  g_autofree char *no_samples = grammar_test_write_file (tmpdir, "bare.results.jsonl",
    "{\"id\":\"a\",\"text\":\"q\",\"response\":\"x\",\"retrieved\":[{\"id\":\"d\",\"score\":1,\"text\":\"t\"}]}\n");
  g_autofree char *output = g_build_filename (tmpdir, "cli.assessed.jsonl", NULL);
  g_autofree char *bad_output = g_build_filename (tmpdir, "bare.assessed.jsonl", NULL);
  g_auto (GrammarTestRun) run = { 0 };
  g_auto (GrammarTestRun) bad = { 0 };
  g_auto (GrammarTestRun) again = { 0 };
  g_autoptr (GPtrArray) records = NULL;

  grammar_test_run (&bad, tmpdir, "assess", "-c", config, "-i", no_samples, "-o", bad_output, NULL);
  g_assert_cmpint (bad.status, ==, 2);
  grammar_test_assert_contains (bad.err, "bare.results.jsonl:1: metric selfcheck:");
  grammar_test_assert_contains (bad.err, "“samples”");
  /* refused before any record was scored */
  g_assert_false (g_file_test (bad_output, G_FILE_TEST_EXISTS));

  grammar_test_run (&run, tmpdir, "assess", "-c", config, "-i", results, "-o", output, NULL);
  /* the model failed on record f: unmeasured, written, exit 1 */
  g_assert_cmpint (run.status, ==, 1);
  grammar_test_assert_contains (run.err, "3 assessed by 4 metrics, 1 with a failed metric");
  grammar_test_assert_contains (run.err, "requests");
  records = read_assessed (output);
  g_assert_cmpuint (records->len, ==, 3);
  for (guint i = 0; i < records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (records, i);
      GrammarScore *faithfulness = grammar_record_get_score (record, "faithfulness");

      g_assert_cmpuint (grammar_record_get_scores (record)->len, ==, 4);
      g_assert_nonnull (grammar_record_get_score (record, "ngram"));
      if (g_str_equal (grammar_record_get_id (record), "f"))
        {
          g_assert_true (grammar_score_is_failed (faithfulness));
          grammar_test_assert_contains (grammar_score_get_reason (faithfulness), "HTTP 500");
        }
      else
        g_assert_true (grammar_score_is_measured (faithfulness));
    }

  /* run again: nothing left to do but the failed one, which --retry-failed redoes */
  grammar_test_run (&again, tmpdir, "assess", "-c", config, "-i", results, "-o", output, "--retry-failed", NULL);
  g_assert_cmpint (again.status, ==, 1);
  grammar_test_assert_contains (again.err, "1 assessed by 4 metrics");
  g_clear_pointer (&records, g_ptr_array_unref);
  records = read_assessed (output);
  g_assert_cmpuint (records->len, ==, 3);
  grammar_test_server_free (server);
}

/* Killed with SIGKILL half-way, then run again: every id once. */
static void
test_resume_after_kill (void)
{
  GrammarTestServer *server = start_server ("--latency-ms=150");
  g_autofree char *config = write_cli_config (server, "faithfulness");
  g_autoptr (GString) results = g_string_new (NULL);
  g_autofree char *input = NULL;
  g_autofree char *output = g_build_filename (tmpdir, "kill.assessed.jsonl", NULL);
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto (GrammarTestRun) run = { 0 };
  const char *exe = g_getenv ("GRAMMAR_EXE");

  for (guint i = 0; i < 20; i++)
    g_string_append_printf (results, "{\"id\":\"k%u\",\"text\":\"q\",\"response\":\"RESP-A%u\","
                            "\"retrieved\":[{\"id\":\"d\",\"score\":1,\"text\":\"" CONTEXT "\"}]}\n", i, i);
  input = grammar_test_write_file (tmpdir, "kill.results.jsonl", results->str);
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                              exe, "assess", "-c", config, "-i", input, "-o", output, "--concurrency", "1",
                              NULL);
  g_assert_no_error (error);
  /* two requests of 150 ms a record: a few records in 1.2 s */
  g_usleep (1200 * 1000);
  g_subprocess_send_signal (process, SIGKILL);
  g_subprocess_wait (process, NULL, NULL);
  records = read_assessed (output);
  g_assert_cmpuint (records->len, >, 0);
  g_assert_cmpuint (records->len, <, 20);
  g_clear_pointer (&records, g_ptr_array_unref);

  grammar_test_run (&run, tmpdir, "assess", "-c", config, "-i", input, "-o", output, "--concurrency", "8",
                    NULL);
  g_assert_cmpint (run.status, ==, 0);
  grammar_test_assert_contains (run.err, "skipped");
  records = read_assessed (output);
  g_assert_cmpuint (records->len, ==, 20);
  for (guint i = 0; i < records->len; i++)
    g_assert_true (g_hash_table_add (ids, (gpointer) grammar_record_get_id (g_ptr_array_index (records, i))));
  grammar_test_server_free (server);
}

static void
test_config_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) metric = build ("[m]\nplugin=selfcheck\nllm=llm\nvariant=sentences\n"
                                      "[llm]\nplugin=extractive\n", "m", GRAMMAR_TYPE_METRIC, &error);
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data ("[metrics]\nmetrics=\n", -1, tmpdir, NULL);
  g_autoptr (GrammarAssessRunner) runner = NULL;

  g_assert_null (metric);
  grammar_test_assert_contains (error->message, "variant: must be qa or nli (not “sentences”)");
  g_clear_error (&error);
  runner = grammar_assess_runner_new_from_config (config, &error);
  g_assert_null (runner);
  grammar_test_assert_contains (error->message, "metrics=faithfulness;selfcheck");
}

/* Above 2000 scored records the AUROC interval is Hanley and McNeil's
 * normal one, not a bootstrap: 1000 sorts of the scores were most of a
 * large report's time. 2100 records: the first 1050 correct with scores
 * (i + 350) / 2100, the others incorrect with scores (i - 1050) / 2100:
 * the classes overlap on a third of their range. */
/* the 97.5th percentile of the standard normal */
#define Z95 1.959963984540054

static void
test_reliability_large (void)
{
  g_autoptr (GString) judged = g_string_new (NULL);
  g_autoptr (GString) assessed = g_string_new (NULL);
  g_autofree char *judged_path = NULL;
  g_autofree char *assessed_path = NULL;
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (GrammarReliability) reliability = grammar_reliability_new ();
  g_autoptr (JsonNode) json = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *auroc;
  JsonArray *interval;
  double area, q1, q2, se, wins = 0.0;
  const guint n = 2100, half = 1050;

  for (guint i = 0; i < n; i++)
    {
      gboolean right = i < half;
      double score = right ? ((double) i + 350.0) / n : ((double) i - 1050.0) / n;

      g_string_append_printf (judged, "{\"id\":\"r%u\",\"group\":\"g%u\",\"style\":\"short\",\"text\":\"q\","
                              "\"answer\":[[\"x\"]],\"response\":\"x\",\"verdict\":\"%s\"}\n", i, i,
                              right ? "correct" : "incorrect");
      g_string_append_printf (assessed, "{\"id\":\"r%u\",\"assessment\":{\"m\":{\"plugin\":\"p\",\"score\":%.17g,"
                              "\"threshold\":0.5}}}\n", i, score);
    }
  for (guint i = 0; i < half; i++)
    for (guint j = half; j < n; j++)
      {
        double a = ((double) i + 350.0) / n, b = ((double) j - 1050.0) / n;

        wins += a > b ? 1.0 : a == b ? 0.5 : 0.0;
      }
  area = wins / ((double) half * half);
  q1 = area / (2.0 - area);
  q2 = 2.0 * area * area / (1.0 + area);
  se = sqrt ((area * (1.0 - area) + (half - 1.0) * (q1 - area * area) + (half - 1.0) * (q2 - area * area)) /
             ((double) half * half));

  judged_path = grammar_test_write_file (tmpdir, "large.judged.jsonl", judged->str);
  assessed_path = grammar_test_write_file (tmpdir, "large.assessed.jsonl", assessed->str);
  evaluation = grammar_evaluation_load (judged_path, NULL, &error);
  g_assert_no_error (error);
  grammar_reliability_add_judged (reliability, evaluation);
  g_assert_true (grammar_reliability_add_assessed (reliability, assessed_path, NULL, &error));
  g_assert_no_error (error);
  json = grammar_reliability_to_json (reliability);
  auroc = json_object_get_object_member (json_object_get_object_member (json_node_get_object (json), "m"), "auroc");
  g_assert_cmpstr (json_object_get_string_member (auroc, "method"), ==, "hanley-mcneil");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (auroc, "value"), area, 1e-12);
  g_assert_cmpfloat (area, >, 0.5);
  g_assert_cmpfloat (area, <, 1.0);
  interval = json_object_get_array_member (auroc, "interval");
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (interval, 0), area - Z95 * se, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (interval, 1), area + Z95 * se, 1e-9);
}

/* A failed query leaves every metric unmeasured: that gives keypoint
 * figures only to the metric whose other scores have them, and counts
 * there even when it comes first (the bug was rows of "—" for
 * faithfulness and selfcheck in the comparison of a user's run). */
static void
test_reliability_keypoints_unmeasured (void)
{
  const char *judged =
    "{\"id\":\"q-1\",\"group\":\"g1\",\"style\":\"short\",\"text\":\"q\",\"answer\":[[\"x\"]],\"response\":null,"
    "\"error\":\"http://127.0.0.1/v1/ask: the reply is not JSON\",\"verdict\":\"unmeasured\"}\n"
    "{\"id\":\"q-2\",\"group\":\"g2\",\"style\":\"short\",\"text\":\"q\",\"answer\":[[\"x\"]],\"response\":\"x\","
    "\"verdict\":\"correct\"}\n";
  const char *assessed =
    "{\"id\":\"q-1\",\"assessment\":{\"faithfulness-lexical\":{\"plugin\":\"faithfulness-lexical\",\"score\":null,"
    "\"threshold\":0.5,\"unmeasured\":\"the system gave no response\"},\"keypoints\":{\"plugin\":\"rageval-keypoints\","
    "\"score\":null,\"threshold\":1,\"unmeasured\":\"the system gave no response\"}}}\n"
    "{\"id\":\"q-2\",\"assessment\":{\"faithfulness-lexical\":{\"plugin\":\"faithfulness-lexical\",\"score\":1,"
    "\"threshold\":0.5,\"evidence\":{\"sentences\":[]}},\"keypoints\":{\"plugin\":\"rageval-keypoints\",\"score\":1,"
    "\"threshold\":1,\"evidence\":{\"completeness\":1,\"hallucination\":0,\"irrelevance\":0}}}}\n";
  g_autofree char *judged_path = grammar_test_write_file (tmpdir, "failed.judged.jsonl", judged);
  g_autofree char *assessed_path = grammar_test_write_file (tmpdir, "failed.assessed.jsonl", assessed);
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (GrammarReliability) reliability = grammar_reliability_new ();
  g_autoptr (JsonNode) json = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *keypoints;

  evaluation = grammar_evaluation_load (judged_path, NULL, &error);
  g_assert_no_error (error);
  grammar_reliability_add_judged (reliability, evaluation);
  g_assert_true (grammar_reliability_add_assessed (reliability, assessed_path, NULL, &error));
  g_assert_no_error (error);
  json = grammar_reliability_keypoints_to_json (reliability, 0.05);
  g_assert_nonnull (json);
  keypoints = json_node_get_object (json);
  g_assert_false (json_object_has_member (keypoints, "faithfulness-lexical"));
  g_assert_true (json_object_has_member (keypoints, "keypoints"));
  /* Both records counted, the failed one unmeasured. */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (keypoints, "keypoints"), "records"),
                   ==, 2);
}

/* The figures depend on the records, not on the order a concurrent
 * stage wrote them in: the same assessed lines forwards and backwards
 * give the same JSON, mean_score included, to the last bit. */
static char *
reliability_json_of (const char *judged_path,
                     const char *assessed_path)
{
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (GrammarReliability) reliability = grammar_reliability_new ();
  g_autoptr (JsonNode) json = NULL;
  g_autoptr (GError) error = NULL;

  evaluation = grammar_evaluation_load (judged_path, NULL, &error);
  g_assert_no_error (error);
  grammar_reliability_add_judged (reliability, evaluation);
  g_assert_true (grammar_reliability_add_assessed (reliability, assessed_path, NULL, &error));
  g_assert_no_error (error);
  json = grammar_reliability_to_json (reliability);
  return json_to_string (json, FALSE);
}

static void
test_reliability_order (void)
{
  g_autoptr (GString) judged = g_string_new (NULL);
  g_autoptr (GString) forwards = g_string_new (NULL);
  g_autoptr (GString) backwards = g_string_new (NULL);
  g_autofree char *judged_path = NULL;
  g_autofree char *forwards_path = NULL;
  g_autofree char *backwards_path = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  const guint n = 500;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (judged, "{\"id\":\"r%u\",\"group\":\"g%u\",\"style\":\"short\",\"text\":\"q\","
                            "\"answer\":[[\"x\"]],\"response\":\"x\",\"verdict\":\"%s\"}\n", i, i,
                            i % 3 == 0 ? "incorrect" : "correct");
  for (guint k = 0; k < n; k++)
    {
      guint i = n - 1 - k;

      g_string_append_printf (forwards, "{\"id\":\"r%u\",\"assessment\":{\"m\":{\"plugin\":\"p\","
                              "\"score\":%.17g,\"threshold\":0.5}}}\n", k, fmod (k / 7.0 + k * 0.013, 1.0));
      g_string_append_printf (backwards, "{\"id\":\"r%u\",\"assessment\":{\"m\":{\"plugin\":\"p\","
                              "\"score\":%.17g,\"threshold\":0.5}}}\n", i, fmod (i / 7.0 + i * 0.013, 1.0));
    }
  judged_path = grammar_test_write_file (tmpdir, "order.judged.jsonl", judged->str);
  forwards_path = grammar_test_write_file (tmpdir, "order.forwards.jsonl", forwards->str);
  backwards_path = grammar_test_write_file (tmpdir, "order.backwards.jsonl", backwards->str);
  first = reliability_json_of (judged_path, forwards_path);
  second = reliability_json_of (judged_path, backwards_path);
  g_assert_cmpstr (first, ==, second);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("test-metrics-XXXXXX");

  g_test_add_func ("/metrics/faithfulness/replies", test_faithfulness_replies);
  g_test_add_func ("/metrics/faithfulness/paper", test_faithfulness_paper);
  g_test_add_func ("/metrics/selfcheck", test_selfcheck);
  g_test_add_func ("/metrics/offline", test_offline);
  g_test_add_func ("/metrics/reliability", test_reliability);
  g_test_add_func ("/metrics/reliability/large", test_reliability_large);
  g_test_add_func ("/metrics/reliability/order", test_reliability_order);
  g_test_add_func ("/metrics/reliability/keypoints-unmeasured", test_reliability_keypoints_unmeasured);
  g_test_add_func ("/metrics/config-errors", test_config_errors);
  g_test_add_func ("/assess/cli", test_cli);
  g_test_add_func ("/assess/resume-after-kill", test_resume_after_kill);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
