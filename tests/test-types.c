/* test-types.c: the data types of libgrammar and the plugin interface wrappers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <grammar.h>

/* Test doubles */

/* A language model that only implements the asynchronous chat, and
 * completes it from an idle callback on the thread-default main context
 * of the caller, as a remote model would. It does not embed. */
#define TEST_TYPE_LLM (test_llm_get_type ())
G_DECLARE_FINAL_TYPE (TestLlm, test_llm, TEST, LLM, GObject)

struct _TestLlm
{
  GObject parent_instance;

  guint n_calls;
  GMainContext *last_context;  /* unowned, only compared */
};

static void test_llm_iface_init (GrammarLlmInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestLlm, test_llm, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_LLM, test_llm_iface_init))

static gboolean
test_llm_complete (gpointer user_data)
{
  GTask *task = user_data;
  GrammarChatRequest *request = g_task_get_task_data (task);
  guint n = grammar_chat_request_get_n_messages (request);
  g_autofree char *text = g_strdup_printf ("echo: %s",
                                           n > 0 ? grammar_chat_request_get_message_content (request, n - 1) : "");
  const char *choices[] = { text, NULL };

  g_task_return_pointer (task, grammar_chat_response_new (choices, "test-model", 3, 2), g_object_unref);
  return G_SOURCE_REMOVE;
}

static void
test_llm_chat_async (GrammarLlm          *llm,
                     GrammarChatRequest  *request,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  TestLlm *self = TEST_LLM (llm);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GSource) source = g_idle_source_new ();

  self->n_calls++;
  self->last_context = g_main_context_get_thread_default ();
  if (self->last_context == NULL)
    self->last_context = g_main_context_default ();
  g_task_set_task_data (task, g_object_ref (request), g_object_unref);
  g_source_set_callback (source, test_llm_complete, task, g_object_unref);
  g_source_attach (source, g_main_context_get_thread_default ());
}

static GrammarChatResponse *
test_llm_chat_finish (GrammarLlm    *llm,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_assert_true (g_task_is_valid (result, llm));
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_llm_iface_init (GrammarLlmInterface *iface)
{
  iface->chat_async = test_llm_chat_async;
  iface->chat_finish = test_llm_chat_finish;
}

static void
test_llm_class_init (TestLlmClass *klass)
{
}

static void
test_llm_init (TestLlm *self)
{
}

/* A matcher that only implements the blocking judge: correct when the
 * response contains the first value of the first answer row. */
#define TEST_TYPE_BLOCKING_MATCHER (test_blocking_matcher_get_type ())
G_DECLARE_FINAL_TYPE (TestBlockingMatcher, test_blocking_matcher, TEST, BLOCKING_MATCHER, GObject)

struct _TestBlockingMatcher
{
  GObject parent_instance;

  guint n_calls;
};

static void test_blocking_matcher_iface_init (GrammarMatcherInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestBlockingMatcher, test_blocking_matcher, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_MATCHER, test_blocking_matcher_iface_init))

static GrammarVerdict *
test_blocking_matcher_judge (GrammarMatcher  *matcher,
                             GrammarRecord   *record,
                             GCancellable    *cancellable,
                             GError         **error)
{
  TestBlockingMatcher *self = TEST_BLOCKING_MATCHER (matcher);
  const char *response = grammar_record_get_response (record);
  JsonNode *answer = grammar_record_get_answer (record);
  JsonArray *row;
  const char *truth;

  self->n_calls++;
  if (answer == NULL)
    {
      g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "no answer");
      return NULL;
    }
  if (response == NULL || *response == '\0')
    return grammar_verdict_new (GRAMMAR_VERDICT_UNMEASURED, 0.0, "empty response", "test");

  row = json_array_get_array_element (json_node_get_array (answer), 0);
  truth = json_array_get_string_element (row, 0);
  if (strstr (response, truth) != NULL)
    return grammar_verdict_new (GRAMMAR_VERDICT_CORRECT, 1.0, NULL, "test");
  return grammar_verdict_new (GRAMMAR_VERDICT_INCORRECT, 0.0, "truth not found", "test");
}

static void
test_blocking_matcher_iface_init (GrammarMatcherInterface *iface)
{
  iface->judge = test_blocking_matcher_judge;
}

static void
test_blocking_matcher_class_init (TestBlockingMatcherClass *klass)
{
}

static void
test_blocking_matcher_init (TestBlockingMatcher *self)
{
}

/* A matcher that implements nothing at all. */
#define TEST_TYPE_EMPTY_MATCHER (test_empty_matcher_get_type ())
G_DECLARE_FINAL_TYPE (TestEmptyMatcher, test_empty_matcher, TEST, EMPTY_MATCHER, GObject)

struct _TestEmptyMatcher
{
  GObject parent_instance;
};

static void test_empty_matcher_iface_init (GrammarMatcherInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestEmptyMatcher, test_empty_matcher, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_MATCHER, test_empty_matcher_iface_init))

static void
test_empty_matcher_iface_init (GrammarMatcherInterface *iface)
{
}

static void
test_empty_matcher_class_init (TestEmptyMatcherClass *klass)
{
}

static void
test_empty_matcher_init (TestEmptyMatcher *self)
{
}

/* A system that only implements the asynchronous pair, completing from
 * an idle callback on the caller's thread-default main context. */
#define TEST_TYPE_ASYNC_SYSTEM (test_async_system_get_type ())
G_DECLARE_FINAL_TYPE (TestAsyncSystem, test_async_system, TEST, ASYNC_SYSTEM, GObject)

struct _TestAsyncSystem
{
  GObject parent_instance;
};

static void test_async_system_iface_init (GrammarSystemInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestAsyncSystem, test_async_system, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_SYSTEM, test_async_system_iface_init))

static gboolean
test_async_system_complete (gpointer user_data)
{
  GTask *task = user_data;
  g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (hits, grammar_hit_new ("doc-1", 0.5, NULL));
  g_task_return_pointer (task, grammar_answer_new (g_task_get_task_data (task), hits), g_object_unref);
  return G_SOURCE_REMOVE;
}

static void
test_async_system_answer_async (GrammarSystem       *system,
                                const char          *query,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task = g_task_new (system, cancellable, callback, user_data);
  g_autoptr (GSource) source = g_idle_source_new ();

  g_task_set_task_data (task, g_strdup (query), g_free);
  g_source_set_callback (source, test_async_system_complete, task, g_object_unref);
  g_source_attach (source, g_main_context_get_thread_default ());
}

static GrammarAnswer *
test_async_system_answer_finish (GrammarSystem  *system,
                                 GAsyncResult   *result,
                                 GError        **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_async_system_iface_init (GrammarSystemInterface *iface)
{
  iface->answer_async = test_async_system_answer_async;
  iface->answer_finish = test_async_system_answer_finish;
}

static void
test_async_system_class_init (TestAsyncSystemClass *klass)
{
}

static void
test_async_system_init (TestAsyncSystem *self)
{
}

/* Helpers */

static GrammarRecord *
record_from_string (const char  *text,
                    GError     **error)
{
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) parse_error = NULL;

  node = json_from_string (text, &parse_error);
  g_assert_no_error (parse_error);
  g_assert_nonnull (node);
  return grammar_record_new_from_json (node, error);
}

static char *
record_to_string (GrammarRecord *record)
{
  g_autoptr (JsonNode) node = grammar_record_to_json (record);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_to_string (node, FALSE);
}

static void
async_ready (GObject      *source_object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  g_assert_null (*out);
  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static gboolean
set_flag (gpointer user_data)
{
  gboolean *flag = user_data;

  *flag = TRUE;
  return G_SOURCE_REMOVE;
}

/* Record */

/* Every known member, in an order other than the written one, with
 * unknown members before, between and after them. */
static const char full_record_in[] =
  "{\"x_first\":{\"nested\":[1,2]},"
  "\"judge\":{\"matcher\":\"exact\",\"score\":0.5,\"reason\":\"close\"},"
  "\"retrieval\":\"incorrect\","
  "\"verdict\":\"correct\","
  "\"error\":null,"
  "\"retrieved\":[{\"id\":\"d2\",\"score\":0.25,\"text\":\"passage\"},{\"id\":\"d3\",\"score\":2}],"
  "\"response\":\"Paris\","
  "\"x_middle\":\"kept\","
  "\"doc_ids\":[\"d1\",\"d2\"],"
  "\"answer\":[[\"Paris\",1],[null,2.5]],"
  "\"bindings\":{\"country\":\"France\",\"n\":3},"
  "\"sql\":\"SELECT capital FROM country WHERE name = ?1\","
  "\"text\":\"What is the capital of France?\","
  "\"style\":\"plain\","
  "\"template\":\"t1\","
  "\"group\":\"g1\","
  "\"id\":\"q1\","
  "\"x_last\":[true,false]}";

static const char full_record_out[] =
  "{\"id\":\"q1\","
  "\"group\":\"g1\","
  "\"template\":\"t1\","
  "\"style\":\"plain\","
  "\"text\":\"What is the capital of France?\","
  "\"sql\":\"SELECT capital FROM country WHERE name = ?1\","
  "\"bindings\":{\"country\":\"France\",\"n\":3},"
  "\"answer\":[[\"Paris\",1],[null,2.5]],"
  "\"doc_ids\":[\"d1\",\"d2\"],"
  "\"response\":\"Paris\","
  "\"retrieved\":[{\"id\":\"d2\",\"score\":0.25,\"text\":\"passage\"},{\"id\":\"d3\",\"score\":2.0}],"
  "\"error\":null,"
  "\"verdict\":\"correct\","
  "\"retrieval\":\"incorrect\","
  "\"judge\":{\"matcher\":\"exact\",\"score\":0.5,\"reason\":\"close\"},"
  "\"x_first\":{\"nested\":[1,2]},"
  "\"x_middle\":\"kept\","
  "\"x_last\":[true,false]}";

static void
test_record_round_trip (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarRecord) record = NULL;
  g_autoptr (GrammarRecord) again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text_again = NULL;
  const char * const *doc_ids;
  GrammarVerdict *verdict;
  GPtrArray *retrieved;

  record = record_from_string (full_record_in, &error);
  g_assert_no_error (error);
  g_assert_nonnull (record);

  g_assert_cmpstr (grammar_record_get_id (record), ==, "q1");
  g_assert_cmpstr (grammar_record_get_group (record), ==, "g1");
  g_assert_cmpstr (grammar_record_get_template (record), ==, "t1");
  g_assert_cmpstr (grammar_record_get_style (record), ==, "plain");
  g_assert_cmpstr (grammar_record_get_text (record), ==, "What is the capital of France?");
  g_assert_cmpstr (grammar_record_get_sql (record), ==, "SELECT capital FROM country WHERE name = ?1");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (grammar_record_get_bindings (record)));
  g_assert_true (JSON_NODE_HOLDS_ARRAY (grammar_record_get_answer (record)));

  doc_ids = grammar_record_get_doc_ids (record);
  g_assert_nonnull (doc_ids);
  g_assert_cmpstr (doc_ids[0], ==, "d1");
  g_assert_cmpstr (doc_ids[1], ==, "d2");
  g_assert_null (doc_ids[2]);

  g_assert_cmpstr (grammar_record_get_response (record), ==, "Paris");
  g_assert_null (grammar_record_get_error (record));

  retrieved = grammar_record_get_retrieved (record);
  g_assert_nonnull (retrieved);
  g_assert_cmpuint (retrieved->len, ==, 2);
  g_assert_cmpstr (grammar_hit_get_document_id (g_ptr_array_index (retrieved, 0)), ==, "d2");
  g_assert_cmpfloat (grammar_hit_get_score (g_ptr_array_index (retrieved, 0)), ==, 0.25);
  g_assert_cmpstr (grammar_hit_get_text (g_ptr_array_index (retrieved, 0)), ==, "passage");
  g_assert_cmpfloat (grammar_hit_get_score (g_ptr_array_index (retrieved, 1)), ==, 2.0);
  g_assert_null (grammar_hit_get_text (g_ptr_array_index (retrieved, 1)));

  verdict = grammar_record_get_verdict (record);
  g_assert_nonnull (verdict);
  g_assert_cmpint (grammar_verdict_get_kind (verdict), ==, GRAMMAR_VERDICT_CORRECT);
  g_assert_cmpfloat (grammar_verdict_get_score (verdict), ==, 0.5);
  g_assert_cmpstr (grammar_verdict_get_reason (verdict), ==, "close");
  g_assert_cmpstr (grammar_verdict_get_matcher (verdict), ==, "exact");
  g_assert_cmpint (grammar_record_get_retrieval_verdict (record), ==, GRAMMAR_VERDICT_INCORRECT);

  /* Known members in the stable order, then the unknown ones in theirs */
  text = record_to_string (record);
  g_assert_cmpstr (text, ==, full_record_out);

  /* Writing what was written changes nothing */
  again = record_from_string (text, &error);
  g_assert_no_error (error);
  text_again = record_to_string (again);
  g_assert_cmpstr (text_again, ==, full_record_out);
}

static void
test_record_only_set_members (void)
{
  g_autoptr (GrammarRecord) record = grammar_record_new ();
  g_autoptr (GrammarVerdict) verdict = NULL;
  g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *empty = NULL;
  g_autofree char *dataset = NULL;
  g_autofree char *results = NULL;
  g_autofree char *judged = NULL;
  const char *no_doc_ids[] = { NULL };

  g_assert_null (grammar_record_get_id (record));
  g_assert_null (grammar_record_get_doc_ids (record));
  g_assert_null (grammar_record_get_retrieved (record));
  g_assert_null (grammar_record_get_verdict (record));
  g_assert_cmpint (grammar_record_get_retrieval_verdict (record), ==, GRAMMAR_VERDICT_UNMEASURED);

  empty = record_to_string (record);
  g_assert_cmpstr (empty, ==, "{}");

  /* A dataset line: no stage-specific member yet, whatever the setter order */
  grammar_record_set_doc_ids (record, no_doc_ids);
  grammar_record_set_text (record, "How many?");
  grammar_record_set_id (record, "q2");
  dataset = record_to_string (record);
  g_assert_cmpstr (dataset, ==, "{\"id\":\"q2\",\"text\":\"How many?\",\"doc_ids\":[]}");

  /* A failed query of results.jsonl: response and error are written, the
   * response as null */
  grammar_record_set_error (record, "timed out");
  grammar_record_set_response (record, NULL);
  grammar_record_set_retrieved (record, hits);
  results = record_to_string (record);
  g_assert_cmpstr (results, ==,
                   "{\"id\":\"q2\",\"text\":\"How many?\",\"doc_ids\":[],"
                   "\"response\":null,\"retrieved\":[],\"error\":\"timed out\"}");

  /* The hits are referenced, the array is not */
  g_ptr_array_add (hits, grammar_hit_new ("d9", 1.0, NULL));
  g_assert_cmpuint (grammar_record_get_retrieved (record)->len, ==, 0);

  /* judged.jsonl: a verdict without reason nor matcher, and an explicit
   * unmeasured retrieval verdict */
  verdict = grammar_verdict_new (GRAMMAR_VERDICT_UNMEASURED, 0.0, NULL, NULL);
  grammar_record_set_verdict (record, verdict);
  grammar_record_set_retrieval_verdict (record, GRAMMAR_VERDICT_UNMEASURED);
  judged = record_to_string (record);
  g_assert_cmpstr (judged, ==,
                   "{\"id\":\"q2\",\"text\":\"How many?\",\"doc_ids\":[],"
                   "\"response\":null,\"retrieved\":[],\"error\":\"timed out\","
                   "\"verdict\":\"unmeasured\",\"retrieval\":\"unmeasured\",\"judge\":{\"score\":0.0}}");

  /* Unsetting */
  grammar_record_set_verdict (record, NULL);
  grammar_record_set_retrieved (record, NULL);
  grammar_record_set_doc_ids (record, NULL);
  g_assert_null (grammar_record_get_verdict (record));
  g_assert_null (grammar_record_get_retrieved (record));
  g_assert_null (grammar_record_get_doc_ids (record));
}

static void
test_record_copies (void)
{
  g_autoptr (GrammarRecord) record = grammar_record_new ();
  g_autoptr (JsonNode) bindings = json_from_string ("{\"a\":1}", NULL);
  g_autoptr (JsonNode) answer = json_from_string ("[[1]]", NULL);
  g_autofree char *text = NULL;

  grammar_record_set_bindings (record, bindings);
  grammar_record_set_answer (record, answer);
  g_assert_true (grammar_record_get_bindings (record) != bindings);
  g_assert_true (grammar_record_get_answer (record) != answer);

  json_object_set_int_member (json_node_get_object (bindings), "b", 2);
  json_array_add_int_element (json_node_get_array (answer), 3);

  text = record_to_string (record);
  g_assert_cmpstr (text, ==, "{\"bindings\":{\"a\":1},\"answer\":[[1]]}");
}

static void
test_record_json_not_shared (void)
{
  g_autoptr (JsonNode) input = json_from_string ("{\"id\":\"q\",\"bindings\":{\"a\":1},\"extra\":{\"k\":[1]}}", NULL);
  g_autoptr (GrammarRecord) record = NULL;
  g_autoptr (JsonNode) output = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  JsonObject *object;

  record = grammar_record_new_from_json (input, &error);
  g_assert_no_error (error);

  /* Changing what was read, or what was written, leaves the record alone */
  object = json_node_get_object (input);
  json_object_set_int_member (json_object_get_object_member (object, "bindings"), "b", 2);
  json_array_add_int_element (json_object_get_array_member (json_object_get_object_member (object, "extra"), "k"), 2);

  output = grammar_record_to_json (record);
  object = json_node_get_object (output);
  json_object_set_int_member (json_object_get_object_member (object, "bindings"), "c", 3);
  json_object_set_int_member (json_object_get_object_member (object, "extra"), "z", 3);

  text = record_to_string (record);
  g_assert_cmpstr (text, ==, "{\"id\":\"q\",\"bindings\":{\"a\":1},\"extra\":{\"k\":[1]}}");
}

static void
test_record_verdict_without_judge (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarRecord) record = NULL;
  GrammarVerdict *verdict;

  record = record_from_string ("{\"verdict\":\"correct\"}", &error);
  g_assert_no_error (error);
  verdict = grammar_record_get_verdict (record);
  g_assert_nonnull (verdict);
  g_assert_cmpint (grammar_verdict_get_kind (verdict), ==, GRAMMAR_VERDICT_CORRECT);
  g_assert_cmpfloat (grammar_verdict_get_score (verdict), ==, 1.0);
  g_assert_null (grammar_verdict_get_reason (verdict));
  g_assert_null (grammar_verdict_get_matcher (verdict));
}

static void
test_record_rejects (void)
{
  static const struct
  {
    const char *json;
    const char *member;  /* NULL: the message names no member */
  } cases[] = {
    { "[1, 2]", NULL },
    { "\"text\"", NULL },
    { "{\"id\": 1}", "id" },
    { "{\"group\": null}", "group" },
    { "{\"template\": []}", "template" },
    { "{\"style\": true}", "style" },
    { "{\"text\": {}}", "text" },
    { "{\"sql\": 3.5}", "sql" },
    { "{\"bindings\": [1]}", "bindings" },
    { "{\"bindings\": \"a=1\"}", "bindings" },
    { "{\"answer\": {\"a\": 1}}", "answer" },
    { "{\"answer\": [1, 2]}", "answer" },
    { "{\"doc_ids\": \"d1\"}", "doc_ids" },
    { "{\"doc_ids\": [\"d1\", 2]}", "doc_ids" },
    { "{\"response\": 42}", "response" },
    { "{\"retrieved\": {}}", "retrieved" },
    { "{\"retrieved\": [\"d1\"]}", "retrieved" },
    { "{\"retrieved\": [{\"score\": 1}]}", "retrieved" },
    { "{\"retrieved\": [{\"id\": \"d1\"}]}", "retrieved" },
    { "{\"retrieved\": [{\"id\": \"d1\", \"score\": \"high\"}]}", "retrieved" },
    { "{\"retrieved\": [{\"id\": \"d1\", \"score\": 1, \"text\": 5}]}", "retrieved" },
    { "{\"error\": false}", "error" },
    { "{\"verdict\": \"maybe\"}", "verdict" },
    { "{\"verdict\": 1}", "verdict" },
    { "{\"verdict\": \"correct\", \"judge\": \"exact\"}", "judge" },
    { "{\"verdict\": \"correct\", \"judge\": {\"score\": \"1\"}}", "judge" },
    { "{\"verdict\": \"correct\", \"judge\": {\"matcher\": 1}}", "judge" },
    { "{\"judge\": {\"score\": 1}}", "judge" },
    { "{\"retrieval\": \"Correct\"}", "retrieval" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarRecord) record = NULL;

      g_test_message ("input: %s", cases[i].json);
      record = record_from_string (cases[i].json, &error);
      g_assert_null (record);
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      g_assert_true (grammar_error_is_input_error (error));
      if (cases[i].member != NULL)
        {
          g_autofree char *quoted = g_strdup_printf ("member “%s”", cases[i].member);

          g_assert_nonnull (strstr (error->message, quoted));
        }
    }
}

static void
test_record_doc_ids_message (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarRecord) record = NULL;

  record = record_from_string ("{\"id\":\"q1\",\"doc_ids\":[1]}", &error);
  g_assert_null (record);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_cmpstr (error->message, ==, "member “doc_ids” must be an array of strings");
}

/* Verdict */

static void
test_verdict_kind_strings (void)
{
  static const struct
  {
    GrammarVerdictKind kind;
    const char *text;
  } kinds[] = {
    { GRAMMAR_VERDICT_UNMEASURED, "unmeasured" },
    { GRAMMAR_VERDICT_CORRECT, "correct" },
    { GRAMMAR_VERDICT_INCORRECT, "incorrect" },
  };
  GrammarVerdictKind kind;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_assert_cmpstr (grammar_verdict_kind_to_string (kinds[i].kind), ==, kinds[i].text);
      kind = (GrammarVerdictKind) -1;
      g_assert_true (grammar_verdict_kind_from_string (kinds[i].text, &kind));
      g_assert_cmpint (kind, ==, kinds[i].kind);
    }

  kind = GRAMMAR_VERDICT_CORRECT;
  g_assert_false (grammar_verdict_kind_from_string ("", &kind));
  g_assert_false (grammar_verdict_kind_from_string ("Correct", &kind));
  g_assert_false (grammar_verdict_kind_from_string ("correct ", &kind));
  g_assert_cmpint (kind, ==, GRAMMAR_VERDICT_CORRECT);
  g_assert_true (grammar_verdict_kind_from_string ("incorrect", NULL));

  /* The enumeration is registered for introspection and properties */
  g_assert_true (G_TYPE_IS_ENUM (GRAMMAR_TYPE_VERDICT_KIND));
}

static void
test_verdict_accessors (void)
{
  g_autoptr (GrammarVerdict) verdict = grammar_verdict_new (GRAMMAR_VERDICT_INCORRECT, 0.25, "wrong year", "llm-judge");

  g_assert_cmpint (grammar_verdict_get_kind (verdict), ==, GRAMMAR_VERDICT_INCORRECT);
  g_assert_cmpfloat (grammar_verdict_get_score (verdict), ==, 0.25);
  g_assert_cmpstr (grammar_verdict_get_reason (verdict), ==, "wrong year");
  g_assert_cmpstr (grammar_verdict_get_matcher (verdict), ==, "llm-judge");
}

/* Small data types */

static void
test_chat_request_defaults (void)
{
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  const char *stop[] = { "\n\n", "END", NULL };
  const char *no_stop[] = { NULL };
  gint64 seed = 99;

  g_assert_cmpuint (grammar_chat_request_get_n_messages (request), ==, 0);
  g_assert_cmpfloat (grammar_chat_request_get_temperature (request), ==, -1.0);
  g_assert_cmpuint (grammar_chat_request_get_max_tokens (request), ==, 0);
  g_assert_cmpuint (grammar_chat_request_get_n (request), ==, 1);
  g_assert_false (grammar_chat_request_get_seed (request, &seed));
  g_assert_cmpint (seed, ==, 0);
  g_assert_null (grammar_chat_request_get_stop (request));
  g_assert_false (grammar_chat_request_get_json_response (request));

  grammar_chat_request_add_message (request, "system", "Be brief.");
  grammar_chat_request_add_message (request, "user", "Hi");
  g_assert_cmpuint (grammar_chat_request_get_n_messages (request), ==, 2);
  g_assert_cmpstr (grammar_chat_request_get_message_role (request, 1), ==, "user");
  g_assert_cmpstr (grammar_chat_request_get_message_content (request, 0), ==, "Be brief.");

  grammar_chat_request_set_temperature (request, 0.0);
  g_assert_cmpfloat (grammar_chat_request_get_temperature (request), ==, 0.0);
  grammar_chat_request_set_temperature (request, -3.0);
  g_assert_cmpfloat (grammar_chat_request_get_temperature (request), ==, -1.0);

  grammar_chat_request_set_seed (request, -7);
  g_assert_true (grammar_chat_request_get_seed (request, &seed));
  g_assert_cmpint (seed, ==, -7);
  g_assert_true (grammar_chat_request_get_seed (request, NULL));
  grammar_chat_request_unset_seed (request);
  g_assert_false (grammar_chat_request_get_seed (request, NULL));

  grammar_chat_request_set_stop (request, stop);
  g_assert_cmpstrv (grammar_chat_request_get_stop (request), stop);
  grammar_chat_request_set_stop (request, no_stop);
  g_assert_null (grammar_chat_request_get_stop (request));

  grammar_chat_request_set_n (request, 5);
  grammar_chat_request_set_max_tokens (request, 64);
  grammar_chat_request_set_json_response (request, TRUE);
  g_assert_cmpuint (grammar_chat_request_get_n (request), ==, 5);
  g_assert_cmpuint (grammar_chat_request_get_max_tokens (request), ==, 64);
  g_assert_true (grammar_chat_request_get_json_response (request));
}

static void
test_chat_response (void)
{
  const char *choices[] = { "first", "second", NULL };
  g_autoptr (GrammarChatResponse) empty = grammar_chat_response_new (NULL, NULL, 0, 0);
  g_autoptr (GrammarChatResponse) response = grammar_chat_response_new (choices, "m", 10, 4);

  g_assert_cmpstr (grammar_chat_response_get_text (empty), ==, "");
  g_assert_cmpuint (grammar_chat_response_get_n_choices (empty), ==, 0);
  g_assert_nonnull (grammar_chat_response_get_choices (empty));
  g_assert_null (grammar_chat_response_get_choices (empty)[0]);
  g_assert_null (grammar_chat_response_get_model (empty));

  g_assert_cmpstr (grammar_chat_response_get_text (response), ==, "first");
  g_assert_cmpuint (grammar_chat_response_get_n_choices (response), ==, 2);
  g_assert_cmpstrv (grammar_chat_response_get_choices (response), choices);
  g_assert_cmpstr (grammar_chat_response_get_model (response), ==, "m");
  g_assert_cmpuint (grammar_chat_response_get_prompt_tokens (response), ==, 10);
  g_assert_cmpuint (grammar_chat_response_get_completion_tokens (response), ==, 4);
  g_assert_false (grammar_chat_response_get_cached (response));
  grammar_chat_response_set_cached (response, TRUE);
  g_assert_true (grammar_chat_response_get_cached (response));
}

static void
test_embeddings_vectors (void)
{
  float data[] = { 1.0f, 2.0f, 3.0f, -1.0f, -2.0f, -3.0f };
  g_autoptr (GrammarEmbeddings) embeddings = grammar_embeddings_new (2, 3, data);
  g_autoptr (GrammarEmbeddings) none = grammar_embeddings_new (0, 0, NULL);
  const float *vector;
  guint dimension = 0;

  /* The data is copied */
  data[0] = 100.0f;

  g_assert_cmpuint (grammar_embeddings_get_n_vectors (embeddings), ==, 2);
  g_assert_cmpuint (grammar_embeddings_get_dimension (embeddings), ==, 3);

  vector = grammar_embeddings_get_vector (embeddings, 0, &dimension);
  g_assert_cmpuint (dimension, ==, 3);
  g_assert_cmpfloat (vector[0], ==, 1.0f);
  g_assert_cmpfloat (vector[2], ==, 3.0f);

  vector = grammar_embeddings_get_vector (embeddings, 1, NULL);
  g_assert_cmpfloat (vector[0], ==, -1.0f);
  g_assert_cmpfloat (vector[1], ==, -2.0f);
  g_assert_cmpfloat (vector[2], ==, -3.0f);

  g_assert_cmpuint (grammar_embeddings_get_n_vectors (none), ==, 0);
}

/* A score passes from its threshold on, is never NaN, and keeps what
 * assessed.jsonl says of it through a round trip. */
static void
test_score_json (void)
{
  g_autoptr (GrammarScore) score = grammar_score_new (0.75);
  g_autoptr (GrammarScore) nan_score = grammar_score_new (NAN);
  g_autoptr (GrammarScore) failed = grammar_score_new_failed ("HTTP 500: busy");
  g_autoptr (GrammarScore) copy = NULL;
  g_autoptr (GrammarScore) failed_copy = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (JsonNode) failed_node = NULL;
  g_autoptr (JsonNode) bad = json_from_string ("{\"score\": 1.5}", NULL);
  g_autoptr (JsonNode) evidence = json_from_string ("{\"yes\": 3}", NULL);
  g_autoptr (GError) error = NULL;

  grammar_score_set_threshold (score, 0.75);
  g_assert_true (grammar_score_get_passed (score));
  grammar_score_set_threshold (score, 0.8);
  g_assert_false (grammar_score_get_passed (score));
  grammar_score_set_plugin (score, "selfcheck");
  grammar_score_set_evidence (score, evidence);

  g_assert_false (grammar_score_is_measured (nan_score));
  g_assert_false (grammar_score_get_passed (nan_score));
  g_assert_cmpstr (grammar_score_get_reason (nan_score), ==, "the metric computed no number");

  node = grammar_score_to_json (score);
  copy = grammar_score_new_from_json ("consistency", node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_score_get_metric (copy), ==, "consistency");
  g_assert_cmpstr (grammar_score_get_plugin (copy), ==, "selfcheck");
  g_assert_cmpfloat (grammar_score_get_value (copy), ==, 0.75);
  g_assert_cmpfloat (grammar_score_get_threshold (copy), ==, 0.8);
  g_assert_false (grammar_score_get_passed (copy));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (grammar_score_get_evidence (copy)), "yes"), ==, 3);

  failed_node = grammar_score_to_json (failed);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (failed_node), "score")));
  failed_copy = grammar_score_new_from_json ("consistency", failed_node, &error);
  g_assert_no_error (error);
  g_assert_true (grammar_score_is_failed (failed_copy));
  g_assert_cmpstr (grammar_score_get_reason (failed_copy), ==, "HTTP 500: busy");

  g_assert_null (grammar_score_new_from_json ("consistency", bad, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "consistency"));
}

static void
test_answer_and_documents (void)
{
  g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarAnswer) bare = grammar_answer_new ("no context", NULL);
  g_autoptr (GrammarDocument) document = grammar_document_new ("d1", NULL, "Paris is the capital.");
  GrammarHit *hit;

  g_ptr_array_add (hits, grammar_hit_new ("d1", 3.5, "Paris is the capital."));
  answer = grammar_answer_new ("Paris", hits);
  g_ptr_array_set_size (hits, 0);

  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "Paris");
  g_assert_cmpuint (grammar_answer_get_retrieved (answer)->len, ==, 1);
  hit = g_ptr_array_index (grammar_answer_get_retrieved (answer), 0);
  g_assert_cmpstr (grammar_hit_get_document_id (hit), ==, "d1");
  g_assert_cmpfloat (grammar_hit_get_score (hit), ==, 3.5);

  /* Not reported (NULL) and reported empty (a miss) stay apart. */
  g_assert_null (grammar_answer_get_retrieved (bare));
  g_assert_false (grammar_answer_has_retrieved (bare));
  g_assert_true (grammar_answer_has_retrieved (answer));
  {
    g_autoptr (GPtrArray) none = g_ptr_array_new_with_free_func (g_object_unref);
    g_autoptr (GrammarAnswer) missed = grammar_answer_new ("Margit Ødegaard <margit@hr.example>", none);

    g_assert_nonnull (grammar_answer_get_retrieved (missed));
    g_assert_true (grammar_answer_has_retrieved (missed));
    g_assert_cmpuint (grammar_answer_get_retrieved (missed)->len, ==, 0);
  }

  g_assert_cmpstr (grammar_document_get_id (document), ==, "d1");
  g_assert_null (grammar_document_get_title (document));
  g_assert_cmpstr (grammar_document_get_text (document), ==, "Paris is the capital.");
}

/* Interfaces */

static void
test_llm_blocking_over_async (void)
{
  g_autoptr (TestLlm) llm = g_object_new (TEST_TYPE_LLM, NULL);
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  gboolean default_context_ran = FALSE;
  guint idle_id;

  /* The caller's own main context must not run while the wrapper blocks */
  idle_id = g_idle_add (set_flag, &default_context_ran);

  grammar_chat_request_add_message (request, "user", "ping");
  response = grammar_llm_chat (GRAMMAR_LLM (llm), request, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (response);
  g_assert_cmpstr (grammar_chat_response_get_text (response), ==, "echo: ping");
  g_assert_cmpstr (grammar_chat_response_get_model (response), ==, "test-model");
  g_assert_cmpuint (grammar_chat_response_get_prompt_tokens (response), ==, 3);
  g_assert_cmpuint (llm->n_calls, ==, 1);

  /* It ran on a private context, pushed as thread-default, then popped */
  g_assert_nonnull (llm->last_context);
  g_assert_true (llm->last_context != g_main_context_default ());
  g_assert_null (g_main_context_get_thread_default ());
  g_assert_false (default_context_ran);

  g_source_remove (idle_id);
}

static void
test_llm_async (void)
{
  g_autoptr (TestLlm) llm = g_object_new (TEST_TYPE_LLM, NULL);
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;

  grammar_chat_request_add_message (request, "user", "pong");
  grammar_llm_chat_async (GRAMMAR_LLM (llm), request, NULL, async_ready, &result);
  g_assert_null (result);
  response = grammar_llm_chat_finish (GRAMMAR_LLM (llm), wait_for_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_chat_response_get_text (response), ==, "echo: pong");
  g_assert_true (llm->last_context == g_main_context_default ());
}

static void
test_llm_cancelled (void)
{
  g_autoptr (TestLlm) llm = g_object_new (TEST_TYPE_LLM, NULL);
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GrammarChatResponse) async_response = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) async_error = NULL;

  g_cancellable_cancel (cancellable);

  response = grammar_llm_chat (GRAMMAR_LLM (llm), request, cancellable, &error);
  g_assert_null (response);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  grammar_llm_chat_async (GRAMMAR_LLM (llm), request, cancellable, async_ready, &result);
  async_response = grammar_llm_chat_finish (GRAMMAR_LLM (llm), wait_for_result (&result), &async_error);
  g_assert_null (async_response);
  g_assert_error (async_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* The plugin was never asked */
  g_assert_cmpuint (llm->n_calls, ==, 0);
}

static void
test_llm_embed_not_supported (void)
{
  g_autoptr (TestLlm) llm = g_object_new (TEST_TYPE_LLM, NULL);
  const char *texts[] = { "a", "b", NULL };
  g_autoptr (GrammarEmbeddings) embeddings = NULL;
  g_autoptr (GrammarEmbeddings) async_embeddings = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) async_error = NULL;

  embeddings = grammar_llm_embed (GRAMMAR_LLM (llm), texts, NULL, &error);
  g_assert_null (embeddings);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "this language model plugin does not compute embeddings");
  g_assert_false (grammar_error_is_input_error (error));

  grammar_llm_embed_async (GRAMMAR_LLM (llm), texts, NULL, async_ready, &result);
  g_assert_null (result);
  async_embeddings = grammar_llm_embed_finish (GRAMMAR_LLM (llm), wait_for_result (&result), &async_error);
  g_assert_null (async_embeddings);
  g_assert_error (async_error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED);
}

static GrammarRecord *
make_judgeable_record (const char *response)
{
  GrammarRecord *record = grammar_record_new ();
  g_autoptr (JsonNode) answer = json_from_string ("[[\"Paris\"]]", NULL);

  grammar_record_set_answer (record, answer);
  grammar_record_set_response (record, response);
  return record;
}

static void
test_matcher_async_over_blocking (void)
{
  g_autoptr (TestBlockingMatcher) matcher = g_object_new (TEST_TYPE_BLOCKING_MATCHER, NULL);
  g_autoptr (GrammarRecord) right = make_judgeable_record ("It is Paris.");
  g_autoptr (GrammarRecord) wrong = make_judgeable_record ("It is Lyon.");
  g_autoptr (GrammarRecord) broken = grammar_record_new ();
  g_autoptr (GrammarVerdict) verdict = NULL;
  g_autoptr (GrammarVerdict) wrong_verdict = NULL;
  g_autoptr (GrammarVerdict) broken_verdict = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GAsyncResult) wrong_result = NULL;
  g_autoptr (GAsyncResult) broken_result = NULL;
  g_autoptr (GError) error = NULL;

  /* Through the asynchronous API: the callback never runs before the
   * call returns, even though the plugin answers at once */
  grammar_matcher_judge_async (GRAMMAR_MATCHER (matcher), right, NULL, async_ready, &result);
  g_assert_null (result);
  g_assert_cmpuint (matcher->n_calls, ==, 1);
  verdict = grammar_matcher_judge_finish (GRAMMAR_MATCHER (matcher), wait_for_result (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (verdict);
  g_assert_cmpint (grammar_verdict_get_kind (verdict), ==, GRAMMAR_VERDICT_CORRECT);
  g_assert_cmpstr (grammar_verdict_get_matcher (verdict), ==, "test");

  grammar_matcher_judge_async (GRAMMAR_MATCHER (matcher), wrong, NULL, async_ready, &wrong_result);
  wrong_verdict = grammar_matcher_judge_finish (GRAMMAR_MATCHER (matcher), wait_for_result (&wrong_result), &error);
  g_assert_no_error (error);
  g_assert_cmpint (grammar_verdict_get_kind (wrong_verdict), ==, GRAMMAR_VERDICT_INCORRECT);

  /* Errors of the blocking function come through too */
  grammar_matcher_judge_async (GRAMMAR_MATCHER (matcher), broken, NULL, async_ready, &broken_result);
  broken_verdict = grammar_matcher_judge_finish (GRAMMAR_MATCHER (matcher), wait_for_result (&broken_result), &error);
  g_assert_null (broken_verdict);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
}

static void
test_matcher_blocking_direct (void)
{
  g_autoptr (TestBlockingMatcher) matcher = g_object_new (TEST_TYPE_BLOCKING_MATCHER, NULL);
  g_autoptr (GrammarRecord) empty = make_judgeable_record ("");
  g_autoptr (GrammarVerdict) verdict = NULL;
  g_autoptr (GError) error = NULL;

  verdict = grammar_matcher_judge (GRAMMAR_MATCHER (matcher), empty, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (grammar_verdict_get_kind (verdict), ==, GRAMMAR_VERDICT_UNMEASURED);
  g_assert_cmpuint (matcher->n_calls, ==, 1);
}

static void
test_matcher_not_implemented (void)
{
  g_autoptr (TestEmptyMatcher) matcher = g_object_new (TEST_TYPE_EMPTY_MATCHER, NULL);
  g_autoptr (GrammarRecord) record = make_judgeable_record ("Paris");
  g_autoptr (GrammarVerdict) verdict = NULL;
  g_autoptr (GError) error = NULL;

  verdict = grammar_matcher_judge (GRAMMAR_MATCHER (matcher), record, NULL, &error);
  g_assert_null (verdict);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED);
}

static void
test_system_blocking_over_async (void)
{
  g_autoptr (TestAsyncSystem) system = g_object_new (TEST_TYPE_ASYNC_SYSTEM, NULL);
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GError) error = NULL;

  answer = grammar_system_answer (GRAMMAR_SYSTEM (system), "capital of France?", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (answer);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "capital of France?");
  g_assert_cmpuint (grammar_answer_get_retrieved (answer)->len, ==, 1);
  g_assert_null (g_main_context_get_thread_default ());
}

/* The value mapping every database plugin shares: a decimal keeps the
 * server's text, and is written to JSON as that number. */
static void
test_values (void)
{
  static const struct
  {
    const char *decimal;
    const char *printed;
    const char *json;
  } decimals[] = {
    { "12.00", "('12.00',)", "12.00" },
    { "-7", "int64 -7", "-7" },
    { "0", "int64 0", "0" },
    { "-0", "('-0',)", "-0" },
    { "1234.50", "('1234.50',)", "1234.50" },
    { "-0.10", "('-0.10',)", "-0.10" },
    { "154.8", "('154.8',)", "154.8" },
    { "99999999.99", "('99999999.99',)", "99999999.99" },
    { "9223372036854775807", "int64 9223372036854775807", "9223372036854775807" },
    { "9223372036854775808", "('9223372036854775808',)", "9223372036854775808" },
    { "-98765432109876543210", "('-98765432109876543210',)", "-98765432109876543210" },
    { "1234567890.1234567", "('1234567890.1234567',)", "1234567890.1234567" },
    { "0.000000000000000001", "('0.000000000000000001',)", "0.000000000000000001" },
    /* not a JSON number: the text as a string */
    { "NaN", "'NaN'", "\"NaN\"" },
    { "Infinity", "'Infinity'", "\"Infinity\"" },
    { "+1.5", "'+1.5'", "\"+1.5\"" },
    { ".5", "'.5'", "\".5\"" },
    { "007", "'007'", "\"007\"" },
  };
  g_autoptr (GVariant) nul = g_variant_ref_sink (grammar_value_new_text ("a\0b", 3));
  g_autoptr (GVariant) latin1 = g_variant_ref_sink (grammar_value_new_text ("Ferr\xe1ndez", -1));
  g_autoptr (GVariant) utf8 = g_variant_ref_sink (grammar_value_new_text ("Ferrández", 4));
  g_autoptr (GVariant) tenth = g_variant_ref_sink (grammar_value_new_float (0.1f));

  for (guint i = 0; i < G_N_ELEMENTS (decimals); i++)
    {
      g_autoptr (GVariant) value = g_variant_ref_sink (grammar_value_new_decimal (decimals[i].decimal, -1));
      g_autofree char *printed = g_variant_print (value, TRUE);
      g_autoptr (JsonNode) node = grammar_value_to_json (value);
      g_autofree char *json = grammar_json_to_data (node, 0, NULL);
      g_autofree char *text = grammar_value_to_text (value);

      g_assert_cmpstr (printed, ==, decimals[i].printed);
      g_assert_cmpstr (json, ==, decimals[i].json);
      /* in a question, and in an SQL literal, as the server wrote it */
      g_assert_cmpstr (text, ==, decimals[i].decimal);
      if (g_str_has_prefix (printed, "("))
        g_assert_cmpstr (grammar_value_get_decimal (value), ==, decimals[i].decimal);
      else
        g_assert_null (grammar_value_get_decimal (value));
    }
  /* Not past the length given. */
  {
    g_autoptr (GVariant) cut = g_variant_ref_sink (grammar_value_new_decimal ("12.50xyz", 5));

    g_assert_cmpstr (grammar_value_get_decimal (cut), ==, "12.50");
  }
  g_assert_null (grammar_value_get_decimal (NULL));
  g_assert_null (grammar_value_get_decimal (nul));
  g_assert_cmpstr (g_variant_get_string (nul, NULL), ==, "a\xEF\xBF\xBD" "b");
  g_assert_cmpstr (g_variant_get_string (latin1, NULL), ==, "Ferr\xEF\xBF\xBD" "ndez");
  g_assert_cmpstr (g_variant_get_string (utf8, NULL), ==, "Ferr");
  g_assert_cmpfloat (g_variant_get_double (tenth), ==, 0.1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/types/record/round-trip", test_record_round_trip);
  g_test_add_func ("/types/record/only-set-members", test_record_only_set_members);
  g_test_add_func ("/types/record/copies", test_record_copies);
  g_test_add_func ("/types/record/json-not-shared", test_record_json_not_shared);
  g_test_add_func ("/types/record/verdict-without-judge", test_record_verdict_without_judge);
  g_test_add_func ("/types/record/rejects", test_record_rejects);
  g_test_add_func ("/types/record/doc-ids-message", test_record_doc_ids_message);
  g_test_add_func ("/types/verdict/kind-strings", test_verdict_kind_strings);
  g_test_add_func ("/types/verdict/accessors", test_verdict_accessors);
  g_test_add_func ("/types/chat-request/defaults", test_chat_request_defaults);
  g_test_add_func ("/types/chat-response/choices", test_chat_response);
  g_test_add_func ("/types/embeddings/vectors", test_embeddings_vectors);
  g_test_add_func ("/types/score/json", test_score_json);
  g_test_add_func ("/types/answer/retrieved", test_answer_and_documents);
  g_test_add_func ("/types/llm/blocking-over-async", test_llm_blocking_over_async);
  g_test_add_func ("/types/llm/async", test_llm_async);
  g_test_add_func ("/types/llm/cancelled", test_llm_cancelled);
  g_test_add_func ("/types/llm/embed-not-supported", test_llm_embed_not_supported);
  g_test_add_func ("/types/matcher/async-over-blocking", test_matcher_async_over_blocking);
  g_test_add_func ("/types/matcher/blocking", test_matcher_blocking_direct);
  g_test_add_func ("/types/matcher/not-implemented", test_matcher_not_implemented);
  g_test_add_func ("/types/system/blocking-over-async", test_system_blocking_over_async);
  g_test_add_func ("/types/values/from-databases", test_values);

  return g_test_run ();
}
