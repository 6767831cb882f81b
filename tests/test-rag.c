/* test-rag.c: GrammarRagRunner and `grammar rag`
 *
 * The runner is tested in-process with a test double of GrammarSystem
 * (registered as "rag-double" and built from a keyfile) that counts the
 * queries in flight, fails on request and can interrupt the run. The
 * command is run end to end with the tests/rag-test-system module.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <grammar.h>

#include "grammar-test-util.h"

static char *tmpdir;

/* The test double ---------------------------------------------------------------- */

#define TEST_TYPE_SYSTEM (test_system_get_type ())
G_DECLARE_FINAL_TYPE (TestSystem, test_system, TEST, SYSTEM, GObject)

struct _TestSystem
{
  GObject parent_instance;

  char *fail_text;
  char *down_text;             /* fails as a service that is down would */
  gboolean probe_fails;
  guint delay_ms;
  guint n_probes;

  GPtrArray *asked;            /* the query texts, in the order asked */
  guint in_flight;
  guint max_in_flight;
  guint n_returned;
  guint cancel_after;          /* cancel @cancellable once this many answers came back */
  GCancellable *cancellable;
};

static void test_system_iface_init (GrammarSystemInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestSystem, test_system, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_SYSTEM, test_system_iface_init))

enum { PROP_0, PROP_FAIL_TEXT, PROP_DELAY_MS, PROP_DOWN_TEXT, PROP_PROBE_FAILS };

#define DOWN_MESSAGE "http://ops@rag.example:8080/v1/ask failed after 4 attempts: Could not connect: Connection refused"

static gboolean
test_system_complete (gpointer user_data)
{
  GTask *task = user_data;
  TestSystem *self = g_task_get_source_object (task);
  const char *query = g_task_get_task_data (task);

  self->in_flight--;
  self->n_returned++;
  if (self->fail_text != NULL && strstr (query, self->fail_text) != NULL)
    g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the double fails on “%s”", self->fail_text);
  else if (self->down_text != NULL && strstr (query, self->down_text) != NULL)
    g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE, "%s", DOWN_MESSAGE);
  else
    {
      g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);
      g_autofree char *response = g_strconcat ("answer to: ", query, NULL);

      g_ptr_array_add (hits, grammar_hit_new ("doc-1", 2.5, "The first document."));
      g_ptr_array_add (hits, grammar_hit_new ("doc-2", 1.0, NULL));
      g_task_return_pointer (task, grammar_answer_new (response, hits), g_object_unref);
    }
  /* Like a kill right after this answer was written. */
  if (self->cancel_after > 0 && self->n_returned == self->cancel_after)
    g_cancellable_cancel (self->cancellable);
  return G_SOURCE_REMOVE;
}

static void
test_system_answer_async (GrammarSystem       *system,
                          const char          *query,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  TestSystem *self = TEST_SYSTEM (system);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GSource) source = g_timeout_source_new (self->delay_ms);

  g_ptr_array_add (self->asked, g_strdup (query));
  self->in_flight++;
  self->max_in_flight = MAX (self->max_in_flight, self->in_flight);
  g_task_set_task_data (task, g_strdup (query), g_free);
  g_task_attach_source (task, source, test_system_complete);
  g_object_unref (task);
}

static GrammarAnswer *
test_system_answer_finish (GrammarSystem  *system,
                           GAsyncResult   *result,
                           GError        **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_system_probe_async (GrammarSystem       *system,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  TestSystem *self = TEST_SYSTEM (system);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->n_probes++;
  if (self->probe_fails)
    g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE, "%s", DOWN_MESSAGE);
  else
    g_task_return_boolean (task, TRUE);
}

static gboolean
test_system_probe_finish (GrammarSystem  *system,
                          GAsyncResult   *result,
                          GError        **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
test_system_iface_init (GrammarSystemInterface *iface)
{
  iface->answer_async = test_system_answer_async;
  iface->answer_finish = test_system_answer_finish;
  iface->probe_async = test_system_probe_async;
  iface->probe_finish = test_system_probe_finish;
}

static void
test_system_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TestSystem *self = TEST_SYSTEM (object);

  if (prop_id == PROP_FAIL_TEXT)
    {
      g_free (self->fail_text);
      self->fail_text = g_value_dup_string (value);
    }
  else if (prop_id == PROP_DOWN_TEXT)
    {
      g_free (self->down_text);
      self->down_text = g_value_dup_string (value);
    }
  else if (prop_id == PROP_PROBE_FAILS)
    self->probe_fails = g_value_get_boolean (value);
  else
    self->delay_ms = g_value_get_uint (value);
}

static void
test_system_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TestSystem *self = TEST_SYSTEM (object);

  if (prop_id == PROP_FAIL_TEXT)
    g_value_set_string (value, self->fail_text);
  else if (prop_id == PROP_DOWN_TEXT)
    g_value_set_string (value, self->down_text);
  else if (prop_id == PROP_PROBE_FAILS)
    g_value_set_boolean (value, self->probe_fails);
  else
    g_value_set_uint (value, self->delay_ms);
}

static void
test_system_finalize (GObject *object)
{
  TestSystem *self = TEST_SYSTEM (object);

  g_free (self->fail_text);
  g_free (self->down_text);
  g_ptr_array_unref (self->asked);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (test_system_parent_class)->finalize (object);
}

static void
test_system_class_init (TestSystemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = test_system_set_property;
  object_class->get_property = test_system_get_property;
  object_class->finalize = test_system_finalize;
  g_object_class_install_property (object_class, PROP_FAIL_TEXT,
    g_param_spec_string ("fail-text", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_DELAY_MS,
    g_param_spec_uint ("delay-ms", NULL, NULL, 0, 1000, 1, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_DOWN_TEXT,
    g_param_spec_string ("down-text", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_PROBE_FAILS,
    g_param_spec_boolean ("probe-fails", NULL, NULL, FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
test_system_init (TestSystem *self)
{
  self->asked = g_ptr_array_new_with_free_func (g_free);
  self->delay_ms = 1;
}

/* Builds `[system] plugin=rag-double` with the keys of @keys ("k=v\n"…). */
static TestSystem *
make_system (const char *keys)
{
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strdup_printf ("[system]\nplugin=rag-double\n%s", keys != NULL ? keys : "");
  GObject *system;

  config = grammar_config_new_from_data (text, -1, tmpdir, &error);
  g_assert_no_error (error);
  system = grammar_config_build (config, "system", GRAMMAR_TYPE_SYSTEM, &error);
  g_assert_no_error (error);
  g_assert_true (TEST_IS_SYSTEM (system));
  return TEST_SYSTEM (system);
}

/* Files ----------------------------------------------------------------------- */

/* A dataset line as `grammar qa` writes it, with a member of the user's. */
static char *
dataset_line (guint       n,
              const char *text)
{
  return g_strdup_printf ("{\"id\":\"q%u\",\"group\":\"g%u\",\"template\":\"t1\",\"style\":\"short\","
                          "\"text\":\"%s\",\"sql\":\"SELECT capital FROM country WHERE name = ?\","
                          "\"bindings\":{\"country.name\":\"C%u\"},\"answer\":[[\"City %u\"]],"
                          "\"doc_ids\":[\"doc-%u\"],\"extra\":{\"n\":%u}}",
                          n, n, text, n, n, n, n);
}

/* Writes a dataset of @n records "question 1"…, except that the texts of
 * @texts (when not NULL) replace the first ones. */
static char *
write_dataset (const char         *name,
               guint               n,
               const char * const *texts)
{
  g_autoptr (GString) contents = g_string_new (NULL);
  gboolean texts_left = texts != NULL;

  for (guint i = 1; i <= n; i++)
    {
      g_autofree char *question = g_strdup_printf ("question %u", i);
      g_autofree char *line = NULL;

      if (texts_left && texts[i - 1] == NULL)
        texts_left = FALSE;
      line = dataset_line (i, texts_left ? texts[i - 1] : question);
      g_string_append_printf (contents, "%s\n", line);
    }
  return grammar_test_write_file (tmpdir, name, contents->str);
}

static char *
read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* The lines of a results file, each checked to be a JSON object and the
 * file to end with a newline; keyed by id, with every id exactly once. */
typedef struct
{
  GPtrArray *lines;      /* char * */
  GHashTable *by_id;     /* id → JsonObject */
  GPtrArray *nodes;      /* JsonNode */
} Results;

static void
results_clear (Results *results)
{
  g_clear_pointer (&results->lines, g_ptr_array_unref);
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

  results->lines = g_ptr_array_new_with_free_func (g_free);
  results->by_id = g_hash_table_new (g_str_hash, g_str_equal);
  results->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
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
      g_ptr_array_add (results->lines, g_strdup (lines[i]));
      id = json_object_get_string_member (json_node_get_object (node), "id");
      g_assert_false (g_hash_table_contains (results->by_id, id));
      g_hash_table_insert (results->by_id, (gpointer) id, json_node_get_object (node));
    }
}

static JsonObject *
result (Results    *results,
        const char *id)
{
  JsonObject *object = g_hash_table_lookup (results->by_id, id);

  if (object == NULL)
    g_error ("no result for %s", id);
  return object;
}

static char *
member_to_string (JsonObject *object,
                  const char *name)
{
  JsonNode *member = json_object_get_member (object, name);

  g_assert_nonnull (member);
  return json_to_string (member, FALSE);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
assert_asked (TestSystem         *system,
              const char * const *expected)
{
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();

  /* Completion order may differ from input order; compare as sets. */
  for (guint i = 0; i < system->asked->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (system->asked, i));
  g_ptr_array_sort (sorted, compare_strings);
  g_ptr_array_add (sorted, NULL);
  if (!g_strv_equal ((const char * const *) sorted->pdata, expected))
    {
      g_autofree char *got = g_strjoinv ("|", (char **) sorted->pdata);
      g_autofree char *want = g_strjoinv ("|", (char **) expected);

      g_error ("asked %s, expected %s", got, want);
    }
}

static gboolean
strv_has_line (GStrv       lines,
               const char *part1,
               const char *part2)
{
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    if (strstr (lines[i], part1) != NULL && (part2 == NULL || strstr (lines[i], part2) != NULL))
      return TRUE;
  return FALSE;
}

static char *
tmp_path (const char *name)
{
  char *path = g_build_filename (tmpdir, name, NULL);

  g_unlink (path);
  return path;
}

/* The runner ------------------------------------------------------------------ */

static void
test_properties (void)
{
  g_autoptr (TestSystem) system = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_auto (GStrv) warnings = NULL;
  guint max_concurrency = 0;
  guint64 limit = 1;

  g_assert_true (grammar_rag_runner_get_system (runner) == GRAMMAR_SYSTEM (system));
  g_assert_cmpuint (grammar_stage_runner_get_max_concurrency (GRAMMAR_STAGE_RUNNER (runner)), ==, 16);
  g_assert_cmpuint (grammar_stage_runner_get_limit (GRAMMAR_STAGE_RUNNER (runner)), ==, 0);
  g_assert_false (grammar_rag_runner_get_retry_failed (runner));
  g_object_set (runner, "max-concurrency", 9, "limit", (guint64) 5, "retry-failed", TRUE, NULL);
  g_object_get (runner, "max-concurrency", &max_concurrency, "limit", &limit, NULL);
  g_assert_cmpuint (max_concurrency, ==, 9);
  g_assert_cmpuint (limit, ==, 5);
  g_assert_true (grammar_rag_runner_get_retry_failed (runner));
  warnings = grammar_stage_runner_dup_warnings (GRAMMAR_STAGE_RUNNER (runner));
  g_assert_cmpuint (g_strv_length (warnings), ==, 0);
}

static void
test_record_latency (void)
{
  g_autoptr (GrammarRecord) record = grammar_record_new ();
  g_autoptr (GrammarRecord) read = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) input = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpfloat (grammar_record_get_latency_ms (record), <, 0.0);
  grammar_record_set_id (record, "q1");
  node = grammar_record_to_json (record);
  g_assert_false (json_object_has_member (json_node_get_object (node), "latency_ms"));
  g_clear_pointer (&node, json_node_unref);

  grammar_record_set_latency_ms (record, 12.0);
  node = grammar_record_to_json (record);
  text = json_to_string (node, FALSE);
  g_assert_cmpstr (text, ==, "{\"id\":\"q1\",\"latency_ms\":12}");

  input = json_from_string ("{\"id\":\"q1\",\"latency_ms\":3.5}", NULL);
  read = grammar_record_new_from_json (input, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (grammar_record_get_latency_ms (read), ==, 3.5);
  g_clear_pointer (&input, json_node_unref);
  g_clear_object (&read);

  input = json_from_string ("{\"id\":\"q1\",\"latency_ms\":-1}", NULL);
  read = grammar_record_new_from_json (input, &error);
  g_assert_null (read);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "“latency_ms”");
}

static void
test_results (void)
{
  g_autoptr (TestSystem) system = make_system ("delay-ms=20\n");
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autofree char *input = write_dataset ("results-dataset.jsonl", 3, NULL);
  g_autofree char *output = tmp_path ("results.jsonl");
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };
  const char *expected[] = { "question 1", "question 2", "question 3", NULL };

  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_no_error (error);
  assert_asked (system, expected);
  g_assert_cmpuint (grammar_stage_runner_get_n_total (GRAMMAR_STAGE_RUNNER (runner)), ==, 3);
  g_assert_cmpuint (grammar_rag_runner_get_n_answered (runner), ==, 3);
  g_assert_cmpuint (grammar_stage_runner_get_n_failed (GRAMMAR_STAGE_RUNNER (runner)), ==, 0);
  g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, 0);

  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 3);
  for (guint n = 1; n <= 3; n++)
    {
      g_autofree char *id = g_strdup_printf ("q%u", n);
      g_autofree char *dataset = dataset_line (n, "x");
      g_autoptr (JsonNode) dataset_node = json_from_string (dataset, NULL);
      JsonObject *line = result (&results, id);
      g_autofree char *response = g_strdup_printf ("answer to: question %u", n);
      g_autofree char *retrieved = member_to_string (line, "retrieved");
      const char *copied[] = { "group", "template", "style", "sql", "bindings", "answer", "doc_ids", "extra" };
      JsonNode *latency;

      /* The dataset line, as it was… */
      for (guint i = 0; i < G_N_ELEMENTS (copied); i++)
        {
          g_autofree char *got = member_to_string (line, copied[i]);
          g_autofree char *want = member_to_string (json_node_get_object (dataset_node), copied[i]);

          g_assert_cmpstr (got, ==, want);
        }
      /* …with what the system said. */
      g_assert_cmpstr (json_object_get_string_member (line, "response"), ==, response);
      g_assert_cmpstr (retrieved, ==,
                       "[{\"id\":\"doc-1\",\"score\":2.5,\"text\":\"The first document.\"},"
                       "{\"id\":\"doc-2\",\"score\":1.0}]");
      g_assert_false (json_object_has_member (line, "error"));
      latency = json_object_get_member (line, "latency_ms");
      g_assert_nonnull (latency);
      g_assert_cmpint (json_node_get_value_type (latency), ==, G_TYPE_INT64);
      g_assert_cmpint (json_node_get_int (latency), >=, 15);
      g_assert_cmpint (json_node_get_int (latency), <, 5000);
    }
  /* The members, in the order the record writes them. */
  g_assert_true (g_str_has_prefix (g_ptr_array_index (results.lines, 0), "{\"id\":\"q"));
  g_assert_nonnull (strstr (g_ptr_array_index (results.lines, 0), "\"latency_ms\":"));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (results.lines, 0), ",\"extra\":{\"n\":1}}") ||
                 g_str_has_suffix (g_ptr_array_index (results.lines, 0), ",\"extra\":{\"n\":2}}") ||
                 g_str_has_suffix (g_ptr_array_index (results.lines, 0), ",\"extra\":{\"n\":3}}"));
}

/* A results or judged file given as input: the later stages' members
 * judged another response and must not be carried over. */
static void
test_stale_members (void)
{
  g_autoptr (TestSystem) system = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autofree char *input = grammar_test_write_file (tmpdir, "stale.jsonl",
    "{\"id\":\"q1\",\"text\":\"question 1\",\"response\":\"old\",\"error\":\"old failure\",\"latency_ms\":99999,"
    "\"verdict\":\"correct\",\"retrieval\":\"incorrect\",\"judge\":{\"matcher\":\"exact\",\"score\":1,\"reason\":\"r\"}}\n");
  g_autofree char *output = tmp_path ("stale-results.jsonl");
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };
  JsonObject *line;

  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_no_error (error);
  read_results (output, &results);
  line = result (&results, "q1");
  g_assert_cmpstr (json_object_get_string_member (line, "response"), ==, "answer to: question 1");
  g_assert_cmpint (json_object_get_int_member (line, "latency_ms"), <, 99999);
  g_assert_false (json_object_has_member (line, "error"));
  g_assert_false (json_object_has_member (line, "verdict"));
  g_assert_false (json_object_has_member (line, "retrieval"));
  g_assert_false (json_object_has_member (line, "judge"));
}

typedef struct
{
  GArray *done;
  guint64 total;
  guint64 failed;
} Progress;

static void
on_progress (GrammarRagRunner *runner,
             guint64           done,
             guint64           total,
             guint64           failed,
             gpointer          user_data)
{
  Progress *progress = user_data;

  g_array_append_val (progress->done, done);
  progress->total = total;
  progress->failed = failed;
}

static void
test_concurrency (void)
{
  const guint limits[] = { 3, 1, 4 };
  const guint records[] = { 12, 4, 2 };

  for (guint c = 0; c < G_N_ELEMENTS (limits); c++)
    {
      g_autoptr (TestSystem) system = make_system ("delay-ms=10\n");
      g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
      g_autofree char *input = write_dataset ("concurrency.jsonl", records[c], NULL);
      g_autofree char *output = tmp_path ("concurrency-results.jsonl");
      g_autoptr (GError) error = NULL;
      g_auto (Results) results = { 0 };
      Progress progress = { g_array_new (FALSE, FALSE, sizeof (guint64)), 0, 0 };

      grammar_stage_runner_set_max_concurrency (GRAMMAR_STAGE_RUNNER (runner), limits[c]);
      g_signal_connect (runner, "progress", G_CALLBACK (on_progress), &progress);
      g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
      g_assert_no_error (error);

      g_assert_cmpuint (system->asked->len, ==, records[c]);
      g_assert_cmpuint (system->max_in_flight, ==, MIN (limits[c], records[c]));
      read_results (output, &results);
      g_assert_cmpuint (results.lines->len, ==, records[c]);

      /* Once at the start, then once per query. */
      g_assert_cmpuint (progress.done->len, ==, records[c] + 1);
      for (guint i = 0; i < progress.done->len; i++)
        g_assert_cmpuint (g_array_index (progress.done, guint64, i), ==, i);
      g_assert_cmpuint (progress.total, ==, records[c]);
      g_assert_cmpuint (progress.failed, ==, 0);
      g_array_unref (progress.done);
    }
}

static void
test_failure (void)
{
  g_autoptr (TestSystem) system = make_system ("fail-text=boom\n");
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  const char *texts[] = { "question 1", "boom question", "question 3", NULL };
  g_autofree char *input = write_dataset ("failure.jsonl", 3, texts);
  g_autofree char *output = tmp_path ("failure-results.jsonl");
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };
  Progress progress = { g_array_new (FALSE, FALSE, sizeof (guint64)), 0, 0 };
  JsonObject *failed;

  g_signal_connect (runner, "progress", G_CALLBACK (on_progress), &progress);
  /* A failed query does not fail the run: it is written and counted. */
  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_rag_runner_get_n_answered (runner), ==, 2);
  g_assert_cmpuint (grammar_stage_runner_get_n_failed (GRAMMAR_STAGE_RUNNER (runner)), ==, 1);
  g_assert_cmpuint (progress.failed, ==, 1);
  g_assert_cmpuint (g_array_index (progress.done, guint64, progress.done->len - 1), ==, 3);
  g_array_unref (progress.done);

  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 3);
  failed = result (&results, "q2");
  g_assert_true (json_object_has_member (failed, "response"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (failed, "response")));
  g_assert_cmpstr (json_object_get_string_member (failed, "error"), ==, "the double fails on “boom”");
  g_assert_false (json_object_has_member (failed, "retrieved"));
  g_assert_true (json_object_has_member (failed, "latency_ms"));
  g_assert_cmpstr (json_object_get_string_member (result (&results, "q3"), "response"), ==,
                   "answer to: question 3");
  g_assert_false (json_object_has_member (result (&results, "q3"), "error"));
}

/* A service that goes down: the stage stops after max-consecutive-failures
 * queries in a row failed with GRAMMAR_ERROR_UNAVAILABLE. The failures of
 * a row that a success broke are written; those of the row that stopped
 * the run are not, and the next run asks them. */
static void
test_service_down (void)
{
  g_autoptr (TestSystem) system = make_system ("down-text=down\n");
  g_autoptr (TestSystem) back = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autoptr (GrammarRagRunner) resumed = grammar_rag_runner_new (GRAMMAR_SYSTEM (back));
  /* 2 answered, a row of 3 that an answer breaks, then a row of 5 */
  const char *texts[] = { "question 1", "question 2", "down 3", "down 4", "down 5", "question 6", "down 7",
                          "down 8", "down 9", "down 10", "down 11", "down 12", "down 13", NULL };
  g_autofree char *input = write_dataset ("down.jsonl", 16, texts);
  g_autofree char *output = tmp_path ("down-results.jsonl");
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };

  g_assert_cmpuint (grammar_stage_runner_get_max_consecutive_failures (GRAMMAR_STAGE_RUNNER (runner)), ==, 10);
  g_object_set (runner, "max-concurrency", 1, "max-consecutive-failures", 5, NULL);
  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE);
  grammar_test_assert_contains (error->message, "5 records in a row failed for want of the service "
                                                "(max-consecutive-failures=5), the last with: " DOWN_MESSAGE);
  grammar_test_assert_contains (error->message, output);
  g_assert_false (grammar_error_is_input_error (error));
  g_clear_error (&error);
  g_assert_cmpuint (system->n_probes, ==, 1);
  g_assert_cmpuint (system->asked->len, ==, 11);     /* none after the row */
  g_assert_cmpuint (grammar_stage_runner_get_n_written (GRAMMAR_STAGE_RUNNER (runner)), ==, 6);
  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 6);
  g_assert_cmpstr (json_object_get_string_member (result (&results, "q4"), "error"), ==, DOWN_MESSAGE);
  g_assert_null (g_hash_table_lookup (results.by_id, "q7"));
  results_clear (&results);

  /* Back up: the 10 not written are asked, once each. */
  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (resumed), input, output, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (back->asked->len, ==, 10);
  g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (resumed)), ==, 6);
  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 16);
  g_assert_cmpstr (json_object_get_string_member (result (&results, "q7"), "response"), ==, "answer to: down 7");
}

/* Failures that are the query's own (a reply that cannot be read) never
 * stop the run, nor do failures in a row with max-consecutive-failures=0. */
static void
test_failures_that_do_not_stop (void)
{
  g_autoptr (TestSystem) malformed = make_system ("fail-text=question\n");
  g_autoptr (TestSystem) down = make_system ("down-text=question\n");
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (malformed));
  g_autoptr (GrammarRagRunner) never = grammar_rag_runner_new (GRAMMAR_SYSTEM (down));
  g_autofree char *input = write_dataset ("all-fail.jsonl", 12, NULL);
  g_autofree char *output = tmp_path ("all-fail-results.jsonl");
  g_autofree char *never_output = tmp_path ("never-results.jsonl");
  g_autoptr (GError) error = NULL;

  g_object_set (runner, "max-consecutive-failures", 3, NULL);
  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_stage_runner_get_n_failed (GRAMMAR_STAGE_RUNNER (runner)), ==, 12);
  g_assert_cmpuint (grammar_stage_runner_get_n_written (GRAMMAR_STAGE_RUNNER (runner)), ==, 12);

  g_object_set (never, "max-consecutive-failures", 0, NULL);
  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (never), input, never_output, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_stage_runner_get_n_written (GRAMMAR_STAGE_RUNNER (never)), ==, 12);
}

/* The probe before the first query: a system that does not answer stops
 * the run, nothing written; nothing to ask, no probe. */
static void
test_probe (void)
{
  g_autoptr (TestSystem) system = make_system ("probe-fails=true\n");
  g_autoptr (TestSystem) good = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autoptr (GrammarRagRunner) again = grammar_rag_runner_new (GRAMMAR_SYSTEM (good));
  g_autofree char *input = write_dataset ("probe.jsonl", 3, NULL);
  g_autofree char *output = tmp_path ("probe-results.jsonl");
  g_autoptr (GError) error = NULL;

  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE);
  g_assert_cmpstr (error->message, ==, "the system does not answer, so no query was asked: " DOWN_MESSAGE);
  g_assert_cmpuint (system->asked->len, ==, 0);
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (again), input, output, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (again), input, output, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (good->n_probes, ==, 1);
  g_assert_cmpuint (good->asked->len, ==, 3);
}

static void
test_resume_after_interruption (void)
{
  g_autoptr (TestSystem) first = make_system (NULL);
  g_autoptr (TestSystem) second = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (first));
  g_autoptr (GrammarRagRunner) resumed = grammar_rag_runner_new (GRAMMAR_SYSTEM (second));
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *input = write_dataset ("resume.jsonl", 6, NULL);
  g_autofree char *output = tmp_path ("resume-results.jsonl");
  g_autofree char *written = NULL;
  g_autofree char *torn = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };
  g_auto (GStrv) warnings = NULL;
  const char *missing[] = { "question 3", "question 4", "question 5", "question 6", NULL };

  /* Interrupted once two answers are written; the third was in flight. */
  grammar_stage_runner_set_max_concurrency (GRAMMAR_STAGE_RUNNER (runner), 1);
  first->cancel_after = 2;
  first->cancellable = g_object_ref (cancellable);
  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (first->asked->len, ==, 3);
  g_assert_cmpuint (grammar_rag_runner_get_n_answered (runner), ==, 2);
  written = read_file (output);
  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 2);
  result (&results, "q1");
  result (&results, "q2");
  results_clear (&results);

  /* A kill in the middle of writing the third line. */
  torn = g_strconcat (written, "{\"id\":\"q3\",\"group\":\"g3\",\"te", NULL);
  g_file_set_contents (output, torn, -1, &error);
  g_assert_no_error (error);

  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (resumed), input, output, NULL, &error));
  g_assert_no_error (error);
  assert_asked (second, missing);
  g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (resumed)), ==, 2);
  g_assert_cmpuint (grammar_rag_runner_get_n_answered (resumed), ==, 4);
  warnings = grammar_stage_runner_dup_warnings (GRAMMAR_STAGE_RUNNER (resumed));
  g_assert_true (strv_has_line (warnings, "resume-results.jsonl:3: removed an incomplete last line", NULL));

  /* Every id once; the lines of the first run kept byte for byte. */
  contents = read_file (output);
  g_assert_true (g_str_has_prefix (contents, written));
  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 6);
  for (guint n = 1; n <= 6; n++)
    {
      g_autofree char *id = g_strdup_printf ("q%u", n);

      g_assert_nonnull (json_object_get_string_member (result (&results, id), "response"));
    }
}

/* An output written by hand: complete lines are kept as they are, even a
 * valid last line without its newline. (A blank line is damage: see
 * test-json-inputs.) */
static void
test_resume_by_hand (void)
{
  g_autoptr (TestSystem) system = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autofree char *input = write_dataset ("by-hand.jsonl", 5, NULL);
  g_autofree char *output = grammar_test_write_file (tmpdir, "by-hand-results.jsonl",
    "{\"id\":\"q2\",\"response\":\"old two\"}\n"
    "{\"id\":\"q4\",\"response\":\"old four\"}");
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };
  g_auto (GStrv) warnings = NULL;
  const char *missing[] = { "question 1", "question 3", "question 5", NULL };

  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_no_error (error);
  assert_asked (system, missing);
  warnings = grammar_stage_runner_dup_warnings (GRAMMAR_STAGE_RUNNER (runner));
  g_assert_cmpuint (g_strv_length (warnings), ==, 0);

  contents = read_file (output);
  g_assert_true (g_str_has_prefix (contents, "{\"id\":\"q2\",\"response\":\"old two\"}\n"
                                             "{\"id\":\"q4\",\"response\":\"old four\"}\n{\"id\":\"q"));
  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 5);
  g_assert_cmpstr (json_object_get_string_member (result (&results, "q4"), "response"), ==, "old four");
  g_assert_cmpstr (json_object_get_string_member (result (&results, "q5"), "response"), ==, "answer to: question 5");
}

static void
test_limit (void)
{
  g_autofree char *input = write_dataset ("limit.jsonl", 5, NULL);
  g_autofree char *output = tmp_path ("limit-results.jsonl");
  const guint64 limits[] = { 2, 3, 0 };
  const char *first[] = { "question 1", "question 2", NULL };
  const char *second[] = { "question 3", NULL };
  const char *third[] = { "question 4", "question 5", NULL };
  const char * const *asked[] = { first, second, third };
  const guint64 skipped[] = { 0, 2, 3 };

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_autoptr (TestSystem) system = make_system (NULL);
      g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
      g_autoptr (GError) error = NULL;
      g_auto (Results) results = { 0 };

      grammar_stage_runner_set_limit (GRAMMAR_STAGE_RUNNER (runner), limits[i]);
      g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
      g_assert_no_error (error);
      assert_asked (system, asked[i]);
      g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, skipped[i]);
      g_assert_cmpuint (grammar_stage_runner_get_n_total (GRAMMAR_STAGE_RUNNER (runner)), ==, g_strv_length ((GStrv) asked[i]));
      read_results (output, &results);
      g_assert_cmpuint (results.lines->len, ==, skipped[i] + g_strv_length ((GStrv) asked[i]));
    }

  /* A smoke run reads no further than its limit: a bad line 4 is not seen. */
  {
    g_autoptr (TestSystem) system = make_system (NULL);
    g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
    g_autofree char *line1 = dataset_line (1, "question 1");
    g_autofree char *line2 = dataset_line (2, "question 2");
    g_autofree char *text = g_strdup_printf ("%s\n\n%s\n{broken\n", line1, line2);
    g_autofree char *bad = grammar_test_write_file (tmpdir, "limit-bad.jsonl", text);
    g_autofree char *bad_output = tmp_path ("limit-bad-results.jsonl");
    g_autoptr (GError) error = NULL;

    grammar_stage_runner_set_limit (GRAMMAR_STAGE_RUNNER (runner), 2);
    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), bad, bad_output, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (system->asked->len, ==, 2);
  }
}

/* Runs @dataset (text) with an output holding @previous (or none), and
 * checks the run fails with an input error starting with
 * "DATASET:@where" and containing @message, before asking anything and
 * without touching the output. */
static void
assert_bad_input (const char *dataset,
                  const char *previous,
                  const char *where,
                  const char *message)
{
  g_autoptr (TestSystem) system = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autofree char *input = grammar_test_write_file (tmpdir, "bad.jsonl", dataset);
  g_autofree char *output = tmp_path ("bad-results.jsonl");
  g_autofree char *prefix = g_strconcat (input, where, NULL);
  g_autoptr (GError) error = NULL;

  if (previous != NULL)
    g_free (grammar_test_write_file (tmpdir, "bad-results.jsonl", previous));
  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("“%s” does not start with “%s”", error->message, prefix);
  grammar_test_assert_contains (error->message, message);
  g_assert_cmpuint (system->asked->len, ==, 0);
  if (previous == NULL)
    g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  else
    {
      g_autofree char *contents = read_file (output);

      g_assert_cmpstr (contents, ==, previous);
    }
}

static void
test_bad_input (void)
{
  g_autofree char *line1 = dataset_line (1, "question 1");
  g_autofree char *line2 = dataset_line (2, "question 2");
  g_autofree char *text = NULL;

  /* Not JSON, after a blank line: lines count as the editor counts them;
   * the previous output, incomplete last line included, stays as it was. */
  text = g_strdup_printf ("%s\n\n%s\n{\"id\": \"q3\", \"text\": \n", line1, line2);
  assert_bad_input (text, "{\"id\":\"q1\",\"response\":\"r\"}\n{\"id\":\"q2\",\"res",
                    ":4:", "invalid JSON: unexpected end of file");
  g_clear_pointer (&text, g_free);

  text = g_strdup_printf ("%s\n{\"id\":\"q2\",\"group\":\"g2\"}\n", line1);
  assert_bad_input (text, NULL, ":2: ", "the record needs a non-empty “text”");
  g_clear_pointer (&text, g_free);

  assert_bad_input ("{\"text\":\"question\"}\n", NULL, ":1: ", "the record needs a non-empty “id”");
  assert_bad_input ("{\"id\":\"q1\",\"text\":\"t\",\"group\":5}\n", NULL, ":1: ", "member “group” must be a string");
  assert_bad_input ("[1, 2]\n", NULL, ":1: ", "a record must be a JSON object");
  assert_bad_input ("{\"id\":\"q1\",\"text\":\"\xff\xfe\"}\n", NULL, ":1: ", "not valid UTF-8");

  /* Duplicate ids name both lines. */
  text = g_strdup_printf ("%s\n%s\n\n%s\n", line1, line2, line1);
  assert_bad_input (text, NULL, ":4: ", "duplicate id “q1” (also on line 1)");
  g_clear_pointer (&text, g_free);
}

static void
test_missing_input (void)
{
  g_autoptr (TestSystem) system = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autofree char *input = tmp_path ("missing.jsonl");
  g_autofree char *output = tmp_path ("missing-results.jsonl");
  g_autoptr (GError) error = NULL;

  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "missing.jsonl");
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

static void
test_damaged_output (void)
{
  g_autofree char *line1 = dataset_line (1, "question 1");
  g_autofree char *line2 = dataset_line (2, "question 2");
  g_autofree char *dataset = g_strdup_printf ("%s\n%s\n", line1, line2);
  const char *previous = "{\"id\":\"q1\",\"response\":\"r\"}\n{\"id\":\"q2\",\"resp\n{\"id\":\"q3\"}\n";
  g_autoptr (TestSystem) system = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autofree char *input = grammar_test_write_file (tmpdir, "damaged.jsonl", dataset);
  g_autofree char *output = grammar_test_write_file (tmpdir, "damaged-results.jsonl", previous);
  g_autofree char *contents = NULL;
  g_autofree char *prefix = g_strconcat (output, ":2:", NULL);
  g_autoptr (GError) error = NULL;

  /* Only a last line can be cut by a kill: a bad line inside is damage. */
  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_cmpuint (system->asked->len, ==, 0);
  contents = read_file (output);
  g_assert_cmpstr (contents, ==, previous);
}

/* The disk full in the middle of a write (a file-size limit stands for
 * it: with SIGXFSZ ignored, the kernel writes what fits under the limit
 * and then fails with EFBIG): the run stops with the error, the output
 * keeps whole lines only, every one counted as written, and a run
 * without the limit resumes it to every record once. */
static void
test_disk_full (void)
{
  g_autoptr (TestSystem) system = make_system (NULL);
  g_autoptr (TestSystem) second = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autoptr (GrammarRagRunner) resumed = grammar_rag_runner_new (GRAMMAR_SYSTEM (second));
  g_autofree char *input = write_dataset ("disk-full.jsonl", 40, NULL);
  g_autofree char *output = tmp_path ("disk-full-results.jsonl");
  g_autofree char *written = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Results) results = { 0 };
  g_auto (GStrv) warnings = NULL;
  struct rlimit saved, low;
  void (*handler) (int);
  gboolean ok;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  low = saved;
  low.rlim_cur = 3000;  /* a few records: each line is some 400 bytes */
  handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &low), ==, 0);
  ok = grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, handler);

  g_assert_false (ok);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "disk-full-results.jsonl: cannot write: "));
  g_clear_error (&error);
  written = read_file (output);
  g_assert_cmpuint (strlen (written), <, 3000);
  read_results (output, &results);  /* whole JSON lines, the last with its newline */
  g_assert_cmpuint (results.lines->len, >, 0);
  g_assert_cmpuint (results.lines->len, <, 40);
  g_assert_cmpuint (grammar_stage_runner_get_n_written (GRAMMAR_STAGE_RUNNER (runner)), ==, results.lines->len);
  results_clear (&results);

  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (resumed), input, output, NULL, &error));
  g_assert_no_error (error);
  warnings = grammar_stage_runner_dup_warnings (GRAMMAR_STAGE_RUNNER (resumed));
  g_assert_cmpuint (g_strv_length (warnings), ==, 0);  /* no incomplete line to remove */
  contents = read_file (output);
  g_assert_true (g_str_has_prefix (contents, written));
  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 40);
}

static void
test_same_file (void)
{
  g_autoptr (TestSystem) system = make_system (NULL);
  g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  g_autofree char *input = write_dataset ("same.jsonl", 2, NULL);
  g_autofree char *before = read_file (input);
  g_autofree char *after = NULL;
  g_autofree char *dir = g_path_get_dirname (input);
  g_autofree char *other_spelling = g_build_filename (dir, ".", "same.jsonl", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_false (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, other_spelling, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "the output must not be the input");
  after = read_file (input);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (system->asked->len, ==, 0);
}

static void
test_retry_failed (void)
{
  const char *texts[] = { "question 1", "boom question", "question 3", NULL };
  g_autofree char *input = write_dataset ("retry.jsonl", 3, texts);
  g_autofree char *output = tmp_path ("retry-results.jsonl");
  g_autoptr (GError) error = NULL;
  const char *none[] = { NULL };
  const char *boom[] = { "boom question", NULL };

  {
    g_autoptr (TestSystem) system = make_system ("fail-text=boom\n");
    g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_cmpuint (grammar_stage_runner_get_n_failed (GRAMMAR_STAGE_RUNNER (runner)), ==, 1);
  }
  /* By default a failed record is in the output, so it is skipped. */
  {
    g_autoptr (TestSystem) system = make_system (NULL);
    g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));

    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    assert_asked (system, none);
    g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, 3);
    g_assert_cmpuint (grammar_rag_runner_get_n_skipped_failed (runner), ==, 1);
  }
  /* With retry-failed it is removed and asked again. */
  {
    g_autoptr (TestSystem) system = make_system (NULL);
    g_autoptr (GrammarRagRunner) runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
    g_auto (Results) results = { 0 };
    g_auto (GStrv) warnings = NULL;
    JsonObject *retried;

    grammar_rag_runner_set_retry_failed (runner, TRUE);
    g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
    g_assert_no_error (error);
    assert_asked (system, boom);
    g_assert_cmpuint (grammar_stage_runner_get_n_skipped (GRAMMAR_STAGE_RUNNER (runner)), ==, 2);
    g_assert_cmpuint (grammar_rag_runner_get_n_answered (runner), ==, 1);
    warnings = grammar_stage_runner_dup_warnings (GRAMMAR_STAGE_RUNNER (runner));
    g_assert_true (strv_has_line (warnings, "retry-results.jsonl: removed 1 failed records", NULL));

    read_results (output, &results);
    g_assert_cmpuint (results.lines->len, ==, 3);
    retried = result (&results, "q2");
    g_assert_cmpstr (json_object_get_string_member (retried, "response"), ==, "answer to: boom question");
    g_assert_false (json_object_has_member (retried, "error"));
  }
}

/* The command ----------------------------------------------------------------- */

static char *
count_lines (const char *path)
{
  g_autofree char *contents = read_file (path);
  guint n = 0;

  for (const char *p = contents; *p != '\0'; p++)
    n += *p == '\n';
  return g_strdup_printf ("%u", n);
}

static void
test_cli_run_and_resume (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "cli", NULL);
  g_autofree char *config = NULL;
  g_autofree char *fixed = NULL;
  g_autofree char *dataset = NULL;
  g_autofree char *output = NULL;
  g_autofree char *asked = NULL;
  g_autofree char *n = NULL;
  g_auto (Results) results = { 0 };
  const char *texts[] = { "question 1", "question 2", "boom question", "question 4", NULL };

  g_mkdir (dir, 0755);
  config = grammar_test_write_file (dir, "rag.ini",
                                    "[system]\nplugin=rag-test\nfail-text=boom\nlog=asked.txt\ndelay-ms=2\n"
                                    "generator=llm\n\n[llm]\nplugin=rag-test\nreply=Paris\n\n"
                                    "[other]\nplugin=rag-test\nlog=asked.txt\n");
  fixed = grammar_test_write_file (dir, "fixed.ini", "[system]\nplugin=rag-test\nlog=asked.txt\n");
  {
    g_autofree char *text = NULL;
    g_autoptr (GString) contents = g_string_new (NULL);

    for (guint i = 0; texts[i] != NULL; i++)
      {
        text = dataset_line (i + 1, texts[i]);
        g_string_append_printf (contents, "%s\n", text);
        g_free (g_steal_pointer (&text));
      }
    dataset = grammar_test_write_file (dir, "dataset.jsonl", contents->str);
  }
  output = g_build_filename (dir, "results.jsonl", NULL);
  asked = g_build_filename (dir, "asked.txt", NULL);

  /* One query fails: everything is written, and the status says so. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "rag", "-c", "rag.ini", "-i", "dataset.jsonl", "-o", "results.jsonl",
                      "--concurrency", "2", NULL);
    g_assert_cmpint (run.status, ==, 1);
    grammar_test_assert_contains (run.err, "grammar rag: 3 answered, 1 failed, 0 skipped (already in results.jsonl)\n");
    grammar_test_assert_contains (run.err, "llm: 3 requests");
    /* the system counts its queries too: the same line for it */
    grammar_test_assert_contains (run.err, "system: 4 requests, 0 retries, 1 failed\n");
    g_assert_cmpstr (run.out, ==, "");
  }
  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 4);
  g_assert_cmpstr (json_object_get_string_member (result (&results, "q1"), "response"), ==, "Paris");
  g_assert_cmpstr (json_object_get_string_member (result (&results, "q3"), "error"), ==, "rag-test fails on “boom”");
  results_clear (&results);
  n = count_lines (asked);
  g_assert_cmpstr (n, ==, "4");
  g_clear_pointer (&n, g_free);

  /* Again: nothing left to ask. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "rag", "-c", "rag.ini", "-i", "dataset.jsonl", "-o", "results.jsonl", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "0 answered, 0 failed, 4 skipped (already in results.jsonl); "
                                           "1 of the skipped had failed, --retry-failed asks them again\n");
    g_assert_null (strstr (run.err, "llm:"));
  }
  n = count_lines (asked);
  g_assert_cmpstr (n, ==, "4");
  g_clear_pointer (&n, g_free);

  /* The failed one again, with a system that does not fail. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "rag", "-c", "fixed.ini", "-i", "dataset.jsonl", "-o", "results.jsonl",
                      "--retry-failed", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "grammar rag: results.jsonl: removed 1 failed records to ask them again\n");
    grammar_test_assert_contains (run.err, "1 answered, 0 failed, 3 skipped (already in results.jsonl)\n");
  }
  read_results (output, &results);
  g_assert_cmpuint (results.lines->len, ==, 4);
  g_assert_cmpstr (json_object_get_string_member (result (&results, "q3"), "response"), ==,
                   "answer to: boom question");
  results_clear (&results);

  /* --limit and --system, into a new output; --quiet prints nothing. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "rag", "-c", "rag.ini", "-i", "dataset.jsonl", "-o", "smoke.jsonl",
                      "--limit", "2", "--system", "other", "--quiet", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==, "");
  }
  {
    g_autofree char *smoke = g_build_filename (dir, "smoke.jsonl", NULL);

    read_results (smoke, &results);
    g_assert_cmpuint (results.lines->len, ==, 2);
    g_assert_cmpstr (json_object_get_string_member (result (&results, "q2"), "response"), ==,
                     "answer to: question 2");
  }
}

static void
test_cli_usage (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "cli-usage", NULL);
  g_autofree char *config = NULL;
  g_autofree char *dataset = NULL;
  g_autofree char *line1 = dataset_line (1, "question 1");
  g_autofree char *bad = g_strdup_printf ("%s\nnot json\n", line1);
  struct {
    const char *args[12];
    int status;
    const char *message;
  } cases[] = {
    { { "rag", "-c", "rag.ini", "-i", "dataset.jsonl", NULL }, 2, "no output given; pass -o results.jsonl" },
    { { "rag", "-c", "rag.ini", "-o", "out.jsonl", NULL }, 2, "no dataset given; pass -i dataset.jsonl" },
    { { "rag", "-c", "rag.ini", "-i", "dataset.jsonl", "-o", "out.jsonl", "--concurrency", "0", NULL }, 2,
      "--concurrency must be at least 1" },
    { { "rag", "-c", "rag.ini", "-i", "dataset.jsonl", "-o", "out.jsonl", "--limit", "-1", NULL }, 2,
      "--limit must not be negative" },
    { { "rag", "-c", "rag.ini", "-i", "dataset.jsonl", "-o", "out.jsonl", "extra", NULL }, 2,
      "unexpected argument “extra”" },
    { { "rag", "-i", "dataset.jsonl", "-o", "out.jsonl", NULL }, 2, "no configuration given" },
    { { "rag", "-c", "rag.ini", "-i", "dataset.jsonl", "-o", "out.jsonl", "--system", "nope", NULL }, 2, "nope" },
    { { "rag", "-c", "rag.ini", "-i", "bad.jsonl", "-o", "out.jsonl", NULL }, 2,
      "grammar rag: bad.jsonl:2:3: invalid JSON: unexpected identifier" },
    { { "rag", "-c", "rag.ini", "-i", "nowhere.jsonl", "-o", "out.jsonl", NULL }, 2, "nowhere.jsonl" },
  };

  g_mkdir (dir, 0755);
  config = grammar_test_write_file (dir, "rag.ini", "[system]\nplugin=rag-test\n");
  dataset = grammar_test_write_file (dir, "dataset.jsonl", "");
  g_free (grammar_test_write_file (dir, "bad.jsonl", bad));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (GrammarTestRun) run = { 0 };
      g_autofree char *out = g_build_filename (dir, "out.jsonl", NULL);

      grammar_test_runv (&run, dir, cases[i].args);
      g_assert_cmpint (run.status, ==, cases[i].status);
      grammar_test_assert_contains (run.err, cases[i].message);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }

  /* An empty dataset is a run with nothing to ask. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "rag", "-c", "rag.ini", "-i", "dataset.jsonl", "-o", "empty.jsonl", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.err, "0 answered, 0 failed, 0 skipped");
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "rag", "--help", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.out, "--concurrency");
    grammar_test_assert_contains (run.out, "--retry-failed");
    grammar_test_assert_contains (run.out, "Exit status: 0 every query answered, 1 some queries failed");
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "--help", NULL);
    g_assert_cmpint (run.status, ==, 0);
    grammar_test_assert_contains (run.out, "  rag ");
  }
}

/* ------------------------------------------------------------------------------ */

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("grammar-rag-XXXXXX");
  grammar_test_add_plugin_path ("rag-test-system");
  grammar_registry_implement (GRAMMAR_TYPE_SYSTEM, TEST_TYPE_SYSTEM, "rag-double", "A test double (tests)");

  g_test_add_func ("/rag-runner/properties", test_properties);
  g_test_add_func ("/rag-runner/record-latency", test_record_latency);
  g_test_add_func ("/rag-runner/results", test_results);
  g_test_add_func ("/rag-runner/stale-members", test_stale_members);
  g_test_add_func ("/rag-runner/concurrency", test_concurrency);
  g_test_add_func ("/rag-runner/failure", test_failure);
  g_test_add_func ("/rag-runner/service-down", test_service_down);
  g_test_add_func ("/rag-runner/failures-that-do-not-stop", test_failures_that_do_not_stop);
  g_test_add_func ("/rag-runner/probe", test_probe);
  g_test_add_func ("/rag-runner/resume-after-interruption", test_resume_after_interruption);
  g_test_add_func ("/rag-runner/resume-by-hand", test_resume_by_hand);
  g_test_add_func ("/rag-runner/limit", test_limit);
  g_test_add_func ("/rag-runner/bad-input", test_bad_input);
  g_test_add_func ("/rag-runner/missing-input", test_missing_input);
  g_test_add_func ("/rag-runner/damaged-output", test_damaged_output);
  g_test_add_func ("/rag-runner/disk-full", test_disk_full);
  g_test_add_func ("/rag-runner/same-file", test_same_file);
  g_test_add_func ("/rag-runner/retry-failed", test_retry_failed);
  g_test_add_func ("/rag/cli/run-and-resume", test_cli_run_and_resume);
  g_test_add_func ("/rag/cli/usage", test_cli_usage);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
