/* judge-test-matcher.c: a matcher for the `grammar judge` tests, as a
 * GIO module.
 *
 * Keyfile:
 *   [matcher]
 *   plugin=test-contains
 *   delay-ms=5            ; the verdict comes back after this long
 *   fail-text=boom        ; a response containing this text fails the matcher
 *   log=judged.txt        ; the id of every record judged is appended, one a line
 *
 * The verdict: unmeasured when the record has no response or its
 * response contains "UNMEASURED"; correct when the response contains the
 * first value of the answer (a string, or a number as JSON writes it);
 * incorrect otherwise. The read-only properties `calls` and
 * `max-in-flight` count the records judged and the most judged at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <grammar.h>

#define JUDGE_TEST_TYPE_MATCHER (judge_test_matcher_get_type ())
G_DECLARE_FINAL_TYPE (JudgeTestMatcher, judge_test_matcher, JUDGE_TEST, MATCHER, GObject)

struct _JudgeTestMatcher
{
  GObject parent_instance;

  guint delay_ms;
  char *fail_text;
  char *log;

  guint64 calls;
  guint in_flight;
  guint max_in_flight;
};

enum { PROP_0, PROP_DELAY_MS, PROP_FAIL_TEXT, PROP_LOG, PROP_CALLS, PROP_MAX_IN_FLIGHT };

static void judge_test_matcher_iface_init (GrammarMatcherInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (JudgeTestMatcher, judge_test_matcher, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_MATCHER, judge_test_matcher_iface_init))

static void
log_call (JudgeTestMatcher *self,
          GrammarRecord    *record)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileOutputStream) stream = NULL;
  g_autofree char *line = NULL;

  if (self->log == NULL)
    return;
  file = g_file_new_for_path (self->log);
  stream = g_file_append_to (file, G_FILE_CREATE_NONE, NULL, NULL);
  line = g_strconcat (grammar_record_get_id (record), "\n", NULL);
  if (stream != NULL)
    g_output_stream_write_all (G_OUTPUT_STREAM (stream), line, strlen (line), NULL, NULL, NULL);
}

/* The first value of the answer as text, or NULL. */
static char *
first_value (GrammarRecord *record)
{
  JsonNode *answer = grammar_record_get_answer (record);
  JsonArray *rows;
  JsonArray *row;
  JsonNode *value;

  if (answer == NULL || (rows = json_node_get_array (answer)) == NULL || json_array_get_length (rows) == 0)
    return NULL;
  row = json_array_get_array_element (rows, 0);
  if (row == NULL || json_array_get_length (row) == 0)
    return NULL;
  value = json_array_get_element (row, 0);
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (value));
  return json_to_string (value, FALSE);
}

static GrammarVerdict *
decide (GrammarRecord *record)
{
  const char *response = grammar_record_get_response (record);
  g_autofree char *expected = first_value (record);

  if (response == NULL)
    return grammar_verdict_new (GRAMMAR_VERDICT_UNMEASURED, 0.0, "no response", "test-contains");
  if (strstr (response, "UNMEASURED") != NULL)
    return grammar_verdict_new (GRAMMAR_VERDICT_UNMEASURED, 0.0, "asked to be unmeasured", "test-contains");
  if (expected != NULL && strstr (response, expected) != NULL)
    return grammar_verdict_new (GRAMMAR_VERDICT_CORRECT, 1.0, "the response contains the answer", "test-contains");
  return grammar_verdict_new (GRAMMAR_VERDICT_INCORRECT, 0.0, "the answer is not in the response", "test-contains");
}

static gboolean
judge_now (gpointer user_data)
{
  GTask *task = user_data;
  JudgeTestMatcher *self = g_task_get_source_object (task);
  GrammarRecord *record = g_task_get_task_data (task);
  const char *response = grammar_record_get_response (record);

  self->in_flight--;
  if (self->fail_text != NULL && response != NULL && strstr (response, self->fail_text) != NULL)
    g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "test-contains fails on “%s”",
                             self->fail_text);
  else if (!g_task_return_error_if_cancelled (task))
    g_task_return_pointer (task, decide (record), g_object_unref);
  return G_SOURCE_REMOVE;
}

static void
judge_test_matcher_judge_async (GrammarMatcher      *matcher,
                                GrammarRecord       *record,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  JudgeTestMatcher *self = JUDGE_TEST_MATCHER (matcher);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GSource) source = g_timeout_source_new (self->delay_ms);

  log_call (self, record);
  self->calls++;
  self->in_flight++;
  self->max_in_flight = MAX (self->max_in_flight, self->in_flight);
  g_task_set_task_data (task, g_object_ref (record), g_object_unref);
  g_task_attach_source (task, source, judge_now);
  g_object_unref (task);  /* the source holds it */
}

static GrammarVerdict *
judge_test_matcher_judge_finish (GrammarMatcher  *matcher,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
judge_test_matcher_iface_init (GrammarMatcherInterface *iface)
{
  iface->judge_async = judge_test_matcher_judge_async;
  iface->judge_finish = judge_test_matcher_judge_finish;
}

static void
judge_test_matcher_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  JudgeTestMatcher *self = JUDGE_TEST_MATCHER (object);

  switch (prop_id)
    {
    case PROP_DELAY_MS:
      self->delay_ms = g_value_get_uint (value);
      break;
    case PROP_FAIL_TEXT:
      g_free (self->fail_text);
      self->fail_text = g_value_dup_string (value);
      break;
    case PROP_LOG:
      g_free (self->log);
      self->log = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
judge_test_matcher_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  JudgeTestMatcher *self = JUDGE_TEST_MATCHER (object);

  switch (prop_id)
    {
    case PROP_DELAY_MS:
      g_value_set_uint (value, self->delay_ms);
      break;
    case PROP_FAIL_TEXT:
      g_value_set_string (value, self->fail_text);
      break;
    case PROP_LOG:
      g_value_set_string (value, self->log);
      break;
    case PROP_CALLS:
      g_value_set_uint64 (value, self->calls);
      break;
    case PROP_MAX_IN_FLIGHT:
      g_value_set_uint (value, self->max_in_flight);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
judge_test_matcher_finalize (GObject *object)
{
  JudgeTestMatcher *self = JUDGE_TEST_MATCHER (object);

  g_free (self->fail_text);
  g_free (self->log);
  G_OBJECT_CLASS (judge_test_matcher_parent_class)->finalize (object);
}

static void
judge_test_matcher_class_init (JudgeTestMatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = judge_test_matcher_set_property;
  object_class->get_property = judge_test_matcher_get_property;
  object_class->finalize = judge_test_matcher_finalize;
  g_object_class_install_property (object_class, PROP_DELAY_MS,
    g_param_spec_uint ("delay-ms", NULL, "How long a verdict takes, in milliseconds", 0, 10000, 2,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_FAIL_TEXT,
    g_param_spec_string ("fail-text", NULL, "A response containing this text fails the matcher", NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_LOG,
    g_param_spec_string ("log", NULL, "A file the id of every record judged is appended to", NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GRAMMAR_PARAM_PATH));
  g_object_class_install_property (object_class, PROP_CALLS,
    g_param_spec_uint64 ("calls", NULL, "Records judged", 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_MAX_IN_FLIGHT,
    g_param_spec_uint ("max-in-flight", NULL, "The most records judged at once", 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
judge_test_matcher_class_finalize (JudgeTestMatcherClass *klass)
{
}

static void
judge_test_matcher_init (JudgeTestMatcher *self)
{
  self->delay_ms = 2;
}

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  judge_test_matcher_register_type (G_TYPE_MODULE (module));
  grammar_registry_implement (GRAMMAR_TYPE_MATCHER, JUDGE_TEST_TYPE_MATCHER, "test-contains",
                              "Correct when the response contains the first answer value (tests)");
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  const char * const extension_points[] = { GRAMMAR_MATCHER_EXTENSION_POINT_NAME, NULL };

  return g_strdupv ((char **) extension_points);
}
