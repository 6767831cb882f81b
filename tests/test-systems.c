/* test-systems.c: the `pipeline` and `http` systems under test
 *
 * The pipeline runs on test doubles defined here (a retriever that
 * returns fixed texts, a language model that records its request), so
 * that these tests do not depend on the retrieval or reader plugins.
 * The http system talks to a SoupServer running in a thread of its own
 * on 127.0.0.1. Everything is built from keyfiles, as users do.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include <grammar.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#define SECRET "sk-h2-SECRET-7f3a"
#define KEY_ENV "GRAMMAR_TEST_SYSTEMS_KEY"

/* A fixed retriever ---------------------------------------------------------- */

/* Returns its `texts` as hits d1, d2, … with scores n, n-1, …, at most
 * top-k of them when top-k is not 0; or fails with `fail`. */
#define TEST_TYPE_LIST_RETRIEVER (test_list_retriever_get_type ())
G_DECLARE_FINAL_TYPE (TestListRetriever, test_list_retriever, TEST, LIST_RETRIEVER, GObject)

struct _TestListRetriever
{
  GObject parent_instance;

  GStrv texts;
  char *fail;
  char *last_query;
  guint last_top_k;
  guint n_calls;
};

enum { LIST_PROP_0, LIST_PROP_TEXTS, LIST_PROP_FAIL };

static void test_list_retriever_iface_init (GrammarRetrieverInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestListRetriever, test_list_retriever, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_RETRIEVER, test_list_retriever_iface_init))

static GPtrArray *
test_list_retriever_retrieve (GrammarRetriever  *retriever,
                              const char        *query,
                              guint              top_k,
                              GCancellable      *cancellable,
                              GError           **error)
{
  TestListRetriever *self = TEST_LIST_RETRIEVER (retriever);
  g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = self->texts != NULL ? g_strv_length (self->texts) : 0;

  self->n_calls++;
  g_free (self->last_query);
  self->last_query = g_strdup (query);
  self->last_top_k = top_k;
  if (self->fail != NULL)
    {
      g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, self->fail);
      return NULL;
    }
  for (guint i = 0; i < n && (top_k == 0 || i < top_k); i++)
    {
      g_autofree char *id = g_strdup_printf ("d%u", i + 1);

      g_ptr_array_add (hits, grammar_hit_new (id, n - i, self->texts[i]));
    }
  return g_steal_pointer (&hits);
}

static void
test_list_retriever_iface_init (GrammarRetrieverInterface *iface)
{
  iface->retrieve = test_list_retriever_retrieve;
}

static void
test_list_retriever_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TestListRetriever *self = TEST_LIST_RETRIEVER (object);

  if (prop_id == LIST_PROP_TEXTS)
    {
      g_strfreev (self->texts);
      self->texts = g_value_dup_boxed (value);
    }
  else
    {
      g_free (self->fail);
      self->fail = g_value_dup_string (value);
    }
}

static void
test_list_retriever_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TestListRetriever *self = TEST_LIST_RETRIEVER (object);

  if (prop_id == LIST_PROP_TEXTS)
    g_value_set_boxed (value, self->texts);
  else
    g_value_set_string (value, self->fail);
}

static void
test_list_retriever_finalize (GObject *object)
{
  TestListRetriever *self = TEST_LIST_RETRIEVER (object);

  g_strfreev (self->texts);
  g_free (self->fail);
  g_free (self->last_query);
  G_OBJECT_CLASS (test_list_retriever_parent_class)->finalize (object);
}

static void
test_list_retriever_class_init (TestListRetrieverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = test_list_retriever_set_property;
  object_class->get_property = test_list_retriever_get_property;
  object_class->finalize = test_list_retriever_finalize;
  g_object_class_install_property (object_class, LIST_PROP_TEXTS,
    g_param_spec_boxed ("texts", NULL, NULL, G_TYPE_STRV, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, LIST_PROP_FAIL,
    g_param_spec_string ("fail", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
test_list_retriever_init (TestListRetriever *self)
{
}

/* A recording language model ------------------------------------------------- */

/* Replies `reply` (or fails with `fail`) from an idle callback on the
 * caller's thread-default main context, as a remote model would, and
 * keeps the last request. */
#define TEST_TYPE_RECORDING_LLM (test_recording_llm_get_type ())
G_DECLARE_FINAL_TYPE (TestRecordingLlm, test_recording_llm, TEST, RECORDING_LLM, GObject)

struct _TestRecordingLlm
{
  GObject parent_instance;

  char *reply;
  char *fail;
  GrammarChatRequest *last_request;
  guint n_calls;
};

enum { LLM_PROP_0, LLM_PROP_REPLY, LLM_PROP_FAIL };

static void test_recording_llm_iface_init (GrammarLlmInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestRecordingLlm, test_recording_llm, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_LLM, test_recording_llm_iface_init))

static gboolean
recording_complete (gpointer user_data)
{
  GTask *task = user_data;
  TestRecordingLlm *self = g_task_get_source_object (task);
  const char *choices[] = { self->reply != NULL ? self->reply : "", NULL };

  if (self->fail != NULL)
    g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s", self->fail);
  else
    g_task_return_pointer (task, grammar_chat_response_new (choices, "recording", 10, 2), g_object_unref);
  return G_SOURCE_REMOVE;
}

static void
test_recording_llm_chat_async (GrammarLlm          *llm,
                               GrammarChatRequest  *request,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  TestRecordingLlm *self = TEST_RECORDING_LLM (llm);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GSource) source = g_idle_source_new ();

  self->n_calls++;
  g_set_object (&self->last_request, request);
  g_source_set_callback (source, recording_complete, task, g_object_unref);
  g_source_attach (source, g_main_context_get_thread_default ());
}

static GrammarChatResponse *
test_recording_llm_chat_finish (GrammarLlm    *llm,
                                GAsyncResult  *result,
                                GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_recording_llm_iface_init (GrammarLlmInterface *iface)
{
  iface->chat_async = test_recording_llm_chat_async;
  iface->chat_finish = test_recording_llm_chat_finish;
}

static void
test_recording_llm_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  TestRecordingLlm *self = TEST_RECORDING_LLM (object);
  char **field = prop_id == LLM_PROP_REPLY ? &self->reply : &self->fail;

  g_free (*field);
  *field = g_value_dup_string (value);
}

static void
test_recording_llm_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TestRecordingLlm *self = TEST_RECORDING_LLM (object);

  g_value_set_string (value, prop_id == LLM_PROP_REPLY ? self->reply : self->fail);
}

static void
test_recording_llm_finalize (GObject *object)
{
  TestRecordingLlm *self = TEST_RECORDING_LLM (object);

  g_free (self->reply);
  g_free (self->fail);
  g_clear_object (&self->last_request);
  G_OBJECT_CLASS (test_recording_llm_parent_class)->finalize (object);
}

static void
test_recording_llm_class_init (TestRecordingLlmClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = test_recording_llm_set_property;
  object_class->get_property = test_recording_llm_get_property;
  object_class->finalize = test_recording_llm_finalize;
  g_object_class_install_property (object_class, LLM_PROP_REPLY,
    g_param_spec_string ("reply", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, LLM_PROP_FAIL,
    g_param_spec_string ("fail", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
test_recording_llm_init (TestRecordingLlm *self)
{
}

/* Building from a keyfile ---------------------------------------------------- */

/* Sets "section.key" = value pairs, NULL-terminated, on @key_file. */
static void
set_keys_va (GKeyFile   *key_file,
             const char *first,
             va_list     ap)
{
  for (const char *name = first; name != NULL; name = va_arg (ap, const char *))
    {
      const char *value = va_arg (ap, const char *);
      const char *dot = strchr (name, '.');
      g_autofree char *section = g_strndup (name, (gsize) (dot - name));

      g_key_file_set_string (key_file, section, dot + 1, value);
    }
}

/* Builds [system] from a keyfile of "section.key", "value" pairs. */
static GrammarSystem *
build_system (GError     **error,
              const char  *first,
              ...)
{
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autoptr (GrammarConfig) config = NULL;
  g_autofree char *text = NULL;
  va_list ap;

  va_start (ap, first);
  set_keys_va (key_file, first, ap);
  va_end (ap);
  text = g_key_file_to_data (key_file, NULL, NULL);
  config = grammar_config_new_from_data (text, -1, g_get_tmp_dir (), error);
  if (config == NULL)
    return NULL;
  return GRAMMAR_SYSTEM (grammar_config_build (config, "system", GRAMMAR_TYPE_SYSTEM, error));
}

/* The pipeline ---------------------------------------------------------------- */

#define ZOE "Zoë leads Tidewatch."           /* 20 characters, 21 bytes */
#define CREME "Crème brûlée is on the menu."  /* the cut falls after "Crè" */
#define THIRD "Third document."
#define TEXTS ZOE ";" CREME ";" THIRD

#define DEFAULT_PROMPT_START \
  "Answer the question using only the context below. If the context does not contain the answer, " \
  "say that you don't know.\n\nContext:\n"

typedef struct
{
  GrammarSystem *system;
  TestListRetriever *retriever;
  TestRecordingLlm *generator;
} Pipeline;

static void
pipeline_clear (Pipeline *pipeline)
{
  g_clear_object (&pipeline->system);
  g_clear_object (&pipeline->retriever);
  g_clear_object (&pipeline->generator);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Pipeline, pipeline_clear)

/* [retriever] plugin=test-list texts=TEXTS, [generator] plugin=test-recording
 * reply=…, [system] plugin=pipeline with the given keys. */
static void
pipeline_build (Pipeline   *pipeline,
                const char *first,
                ...)
{
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  va_list ap;

  g_key_file_set_string (key_file, "retriever", "plugin", "test-list");
  g_key_file_set_string (key_file, "retriever", "texts", TEXTS);
  g_key_file_set_string (key_file, "generator", "plugin", "test-recording");
  g_key_file_set_string (key_file, "generator", "reply", "Zoë Ångström.");
  g_key_file_set_string (key_file, "system", "plugin", "pipeline");
  g_key_file_set_string (key_file, "system", "retriever", "retriever");
  g_key_file_set_string (key_file, "system", "generator", "generator");
  va_start (ap, first);
  set_keys_va (key_file, first, ap);
  va_end (ap);
  text = g_key_file_to_data (key_file, NULL, NULL);

  config = grammar_config_new_from_data (text, -1, g_get_tmp_dir (), &error);
  g_assert_no_error (error);
  pipeline->system = GRAMMAR_SYSTEM (grammar_config_build (config, "system", GRAMMAR_TYPE_SYSTEM, &error));
  g_assert_no_error (error);
  g_object_get (pipeline->system, "retriever", &pipeline->retriever, "generator", &pipeline->generator, NULL);
  g_assert_true (TEST_IS_LIST_RETRIEVER (pipeline->retriever));
  g_assert_true (TEST_IS_RECORDING_LLM (pipeline->generator));
}

static void
on_answered (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Answers through the asynchronous pair on the default main context. */
static GrammarAnswer *
answer_async (GrammarSystem  *system,
              const char     *query,
              GError        **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  grammar_system_answer_async (system, query, NULL, on_answered, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return grammar_system_answer_finish (system, result, error);
}

static const char *
user_message (TestRecordingLlm *generator)
{
  GrammarChatRequest *request = generator->last_request;
  guint n = grammar_chat_request_get_n_messages (request);

  g_assert_cmpstr (grammar_chat_request_get_message_role (request, n - 1), ==, "user");
  return grammar_chat_request_get_message_content (request, n - 1);
}

static void
assert_hit (GrammarAnswer *answer,
            guint          index,
            const char    *id,
            double         score,
            const char    *text)
{
  GPtrArray *hits = grammar_answer_get_retrieved (answer);
  GrammarHit *hit;

  g_assert_cmpuint (index, <, hits->len);
  hit = g_ptr_array_index (hits, index);
  g_assert_cmpstr (grammar_hit_get_document_id (hit), ==, id);
  g_assert_cmpfloat (grammar_hit_get_score (hit), ==, score);
  g_assert_cmpstr (grammar_hit_get_text (hit), ==, text);
}

/* The default prompt, the context in rank order cut at a character
 * (not a byte) boundary, every hit passed on, the defaults of the
 * request, and the asynchronous path. */
static void
test_pipeline_prompt (void)
{
  g_auto (Pipeline) pipeline = { 0 };
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GError) error = NULL;
  GrammarChatRequest *request;

  /* 20 + 2 + 3: all of d1, the separator, and "Crè" (4 bytes) of d2. */
  pipeline_build (&pipeline, "system.context-chars", "25", NULL);
  answer = answer_async (pipeline.system, "Who leads Tidewatch?", &error);
  g_assert_no_error (error);

  g_assert_cmpstr (pipeline.retriever->last_query, ==, "Who leads Tidewatch?");
  g_assert_cmpuint (pipeline.retriever->last_top_k, ==, 0);
  request = pipeline.generator->last_request;
  g_assert_cmpuint (grammar_chat_request_get_n_messages (request), ==, 1);
  g_assert_cmpstr (user_message (pipeline.generator), ==,
                   DEFAULT_PROMPT_START ZOE "\n\nCrè\n\nQuestion: Who leads Tidewatch?\nAnswer:");
  g_assert_cmpfloat (grammar_chat_request_get_temperature (request), ==, 0.0);
  g_assert_cmpuint (grammar_chat_request_get_max_tokens (request), ==, 0);

  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "Zoë Ångström.");
  g_assert_cmpuint (grammar_answer_get_retrieved (answer)->len, ==, 3);
  assert_hit (answer, 0, "d1", 3, ZOE);
  assert_hit (answer, 1, "d2", 2, CREME);
  assert_hit (answer, 2, "d3", 1, THIRD);
}

/* Where the budget ends: no separator without text after it; top-k is
 * passed to the retriever; the synchronous wrapper. */
static void
test_pipeline_budget (void)
{
  const struct { const char *chars; const char *context; } cases[] = {
    { "3", "Zoë" },
    { "20", ZOE },
    { "22", ZOE },                             /* a separator alone is not added */
    { "23", ZOE "\n\nC" },
    { "0", ZOE "\n\n" CREME "\n\n" THIRD },    /* 0: no limit */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Pipeline) pipeline = { 0 };
      g_autoptr (GrammarAnswer) answer = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *expected = g_strdup_printf ("<%s>|q", cases[i].context);

      pipeline_build (&pipeline, "system.context-chars", cases[i].chars,
                      "system.prompt", "<{context}>|{question}", NULL);
      answer = grammar_system_answer (pipeline.system, "q", NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (user_message (pipeline.generator), ==, expected);
      g_assert_cmpuint (grammar_answer_get_retrieved (answer)->len, ==, 3);
    }

  {
    g_auto (Pipeline) pipeline = { 0 };
    g_autoptr (GrammarAnswer) answer = NULL;
    g_autoptr (GError) error = NULL;

    pipeline_build (&pipeline, "system.top-k", "2", "system.prompt", "{context}|{question}", NULL);
    answer = grammar_system_answer (pipeline.system, "q", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (pipeline.retriever->last_top_k, ==, 2);
    g_assert_cmpuint (grammar_answer_get_retrieved (answer)->len, ==, 2);
    g_assert_cmpstr (user_message (pipeline.generator), ==, ZOE "\n\n" CREME "|q");
  }
}

/* {question} is filled once: a question containing "{context}" reaches
 * the model as asked; other braces stay; the system prompt and the
 * sampling options are sent. */
static void
test_pipeline_custom_prompt (void)
{
  g_auto (Pipeline) pipeline = { 0 };
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GError) error = NULL;
  GrammarChatRequest *request;

  pipeline_build (&pipeline,
                  "system.prompt", "Q={question} C={context} {other}",
                  "system.system-prompt", "Be brief.",
                  "system.context-chars", "3",
                  "system.temperature", "0.5",
                  "system.max-tokens", "64",
                  NULL);
  answer = grammar_system_answer (pipeline.system, "What is {context}?", NULL, &error);
  g_assert_no_error (error);
  request = pipeline.generator->last_request;
  g_assert_cmpuint (grammar_chat_request_get_n_messages (request), ==, 2);
  g_assert_cmpstr (grammar_chat_request_get_message_role (request, 0), ==, "system");
  g_assert_cmpstr (grammar_chat_request_get_message_content (request, 0), ==, "Be brief.");
  g_assert_cmpstr (user_message (pipeline.generator), ==, "Q=What is {context}? C=Zoë {other}");
  g_assert_cmpfloat (grammar_chat_request_get_temperature (request), ==, 0.5);
  g_assert_cmpuint (grammar_chat_request_get_max_tokens (request), ==, 64);
}

/* A failure says which module failed; the generator is not asked when
 * retrieval failed. */
static void
test_pipeline_errors (void)
{
  {
    g_auto (Pipeline) pipeline = { 0 };
    g_autoptr (GrammarAnswer) answer = NULL;
    g_autoptr (GError) error = NULL;

    pipeline_build (&pipeline, "retriever.fail", "the index is missing", NULL);
    answer = grammar_system_answer (pipeline.system, "q", NULL, &error);
    g_assert_null (answer);
    g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
    g_assert_cmpstr (error->message, ==, "retriever: the index is missing");
    g_assert_cmpuint (pipeline.generator->n_calls, ==, 0);
  }
  {
    g_auto (Pipeline) pipeline = { 0 };
    g_autoptr (GrammarAnswer) answer = NULL;
    g_autoptr (GError) error = NULL;

    pipeline_build (&pipeline, "generator.fail", "HTTP 429: quota exceeded", NULL);
    answer = answer_async (pipeline.system, "q", &error);
    g_assert_null (answer);
    g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
    g_assert_cmpstr (error->message, ==, "generator: HTTP 429: quota exceeded");
    g_assert_cmpuint (pipeline.retriever->n_calls, ==, 1);
  }
}

/* Configuration mistakes are caught when the section is built. */
static void
test_pipeline_config (void)
{
  const struct { const char *key; const char *value; const char *message; } cases[] = {
    { "system.retriever", "", "[system]: retriever is required" },
    { "system.generator", "", "[system]: generator is required" },
    { "system.prompt", "Context: {context}", "prompt must contain both {context} and {question}" },
    { "system.prompt", "Question: {question}", "prompt must contain both {context} and {question}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarSystem) system =
        build_system (&error,
                      "retriever.plugin", "test-list", "generator.plugin", "test-recording",
                      "system.plugin", "pipeline", "system.retriever", "retriever", "system.generator", "generator",
                      cases[i].key, cases[i].value, NULL);

      g_assert_null (system);
      g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
      g_assert_nonnull (strstr (error->message, cases[i].message));
    }
}

/* The test service --------------------------------------------------------------- */

/* A SoupServer on 127.0.0.1 in a thread with its own main context, so
 * that the blocking grammar_system_answer() can be used against it.
 * The path of a request chooses the reply; what the requests carried is
 * kept for the tests to check. */
typedef struct
{
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  char *url;                  /* http://127.0.0.1:PORT */

  GMutex mutex;
  GCond ready;
  GHashTable *counts;         /* path → requests */
  GHashTable *ports;          /* client ports seen: one per connection */
  char *last_body;
  char *last_authorization;
  char *last_tenant;
} Service;

static Service *service;

typedef struct
{
  int status;
  const char *content_type;
  const char *body;
} Reply;

#define JSON "application/json"

static const char *rfc6901_doc =
  "{\"foo\": [\"bar\", \"baz\"], \"\": 0, \"a/b\": 1, \"c%d\": 2, \"e^f\": 3, \"g|h\": 4,"
  " \"i\\\\j\": 5, \"k\\\"l\": 6, \" \": 7, \"m~n\": 8, \"~1\": \"tilde-one\", \"/\": \"slash\"}";

static Reply
service_reply (const char *path,
               guint       count)
{
  if (g_str_equal (path, "/rag"))
    return (Reply) { 200, JSON,
      "{\"data\": {\"output\": {\"text\": \"Tidewatch is led by Zoë Ångström.\"}},"
      " \"sources\": [{\"doc\": {\"key\": \"d7\"}, \"passage\": \"Zoë leads Tidewatch.\", \"relevance\": 0.92},"
      "               {\"doc\": {\"key\": 3}, \"relevance\": 1}]}" };
  if (g_str_equal (path, "/default"))
    return (Reply) { 200, JSON,
      "{\"answer\": 42, \"retrieved\": [\"d1\", {\"id\": \"d2\", \"text\": \"two\", \"score\": 0.5}]}" };
  if (g_str_equal (path, "/flaky"))
    return count == 1 ? (Reply) { 500, "text/plain", "overloaded" }
                      : (Reply) { 200, JSON, "{\"answer\": \"ok\", \"retrieved\": []}" };
  if (g_str_equal (path, "/busy"))
    return (Reply) { 503, "text/plain", "busy" };    /* with Retry-After: 10 */
  if (g_str_equal (path, "/busy-long"))
    return (Reply) { 429, "text/plain", "slow down" };    /* with Retry-After: 30 */
  if (g_str_equal (path, "/down"))
    return (Reply) { 503, "text/plain", "down for maintenance" };
  if (g_str_equal (path, "/forbidden"))
    return (Reply) { 404, "text/plain", "no such endpoint" };
  if (g_str_equal (path, "/html"))
    return (Reply) { 200, "text/html", "<html><body>Internal oops</body></html>" };
  if (g_str_equal (path, "/missing"))
    return (Reply) { 200, JSON, "{\"result\": \"x\"}" };
  if (g_str_equal (path, "/object"))
    return (Reply) { 200, JSON, "{\"answer\": {\"text\": \"x\"}, \"retrieved\": []}" };
  if (g_str_equal (path, "/null"))
    return (Reply) { 200, JSON, "{\"answer\": null, \"retrieved\": null}" };
  if (g_str_equal (path, "/no-retrieved"))
    return (Reply) { 200, JSON, "{\"answer\": \"x\"}" };
  if (g_str_equal (path, "/bad-item"))
    return (Reply) { 200, JSON, "{\"answer\": \"x\", \"retrieved\": [\"d1\", {\"text\": \"no id\"}]}" };
  if (g_str_equal (path, "/nested-item"))   /* the reply of issue 26: the item lies past the excerpt */
    return (Reply) { 200, JSON, "{\"data\": {\"answer\": \"Margit Kovács leads the Finance team in Budapest since "
                                "2019, according to the staff directory and the 2023 annual report, which both "
                                "list her as head of the department and as the contact for budget questions.\", "
                                "\"sources\": [{\"doc_id\": \"HR-Policy v2.pdf#3\", \"snippet\": \"Finance: "
                                "M. Kovács\", \"relevance\": 0.82}]}}" };
  if (g_str_equal (path, "/doc"))
    return (Reply) { 200, JSON, rfc6901_doc };
  if (g_str_equal (path, "/blank"))   /* json-glib reads it as no document (tests/fuzz) */
    return (Reply) { 200, JSON, " /* nothing */ " };
  /* A user's service: {"data": {"answer", "sources": [{"doc_id", "snippet", "relevance"}]}} */
  if (g_str_equal (path, "/hr/empty"))
    return (Reply) { 200, JSON,
      "{\"data\": {\"answer\": \"Ask Margit Ødegaard <margit.odegaard@hr.example>.\", \"sources\": []}}" };
  if (g_str_equal (path, "/hr/null"))
    return (Reply) { 200, JSON,
      "{\"data\": {\"answer\": \"Ask Margit Ødegaard <margit.odegaard@hr.example>.\", \"sources\": null}}" };
  if (g_str_equal (path, "/hr/sources"))
    return (Reply) { 200, JSON,
      "{\"data\": {\"answer\": \"Ask Margit Ødegaard <margit.odegaard@hr.example>.\", \"sources\":"
      " [{\"doc_id\": \"HR-Policy v2.pdf#3\", \"snippet\": \"Leave is approved by “HR Operations”.\","
      " \"relevance\": 0.87}]}}" };
  return (Reply) { 404, "text/plain", "not found" };
}

/* "/echo": {"answer": <the query>} so that concurrent answers can be
 * told apart; "/long-text": 300 "é" (600 bytes), not JSON; "/auth": a
 * 401 that shows the key it was sent, as careless services do. */
static char *
service_dynamic_reply (const char *path,
                       const char *body,
                       const char *authorization,
                       guint      *status)
{
  *status = 200;
  if (g_str_equal (path, "/auth"))
    {
      *status = 401;
      return g_strdup_printf ("{\"error\": \"invalid key %s\"}",
                              authorization != NULL && g_str_has_prefix (authorization, "Bearer ")
                              ? authorization + strlen ("Bearer ") : "(none)");
    }
  /* "sampled" for a request with a temperature (sample-params), else "main" */
  if (g_str_equal (path, "/sampled"))
    return g_strdup_printf ("{\"answer\": \"%s\", \"retrieved\": []}",
                            strstr (body, "\"temperature\"") != NULL ? "sampled" : "main");
  if (g_str_equal (path, "/echo"))
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (JsonBuilder) builder = json_builder_new ();
      g_autoptr (JsonNode) root = NULL;

      g_assert_true (json_parser_load_from_data (parser, body, -1, NULL));
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "answer");
      json_builder_add_string_value (builder, json_object_get_string_member (
        json_node_get_object (json_parser_get_root (parser)), "query"));
      json_builder_set_member_name (builder, "retrieved");
      json_builder_begin_array (builder);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      return json_to_string (root, FALSE);
    }
  if (g_str_equal (path, "/long-text"))
    {
      GString *text = g_string_new (NULL);

      for (guint i = 0; i < 300; i++)
        g_string_append (text, "é");
      return g_string_free (text, FALSE);
    }
  return NULL;
}

static gboolean
unpause (gpointer user_data)
{
  SoupServerMessage *message = user_data;

  soup_server_message_set_status (message, 200, NULL);
  soup_server_message_set_response (message, JSON, SOUP_MEMORY_COPY, "{\"answer\": \"late\"}", 18);
  soup_server_message_unpause (message);
  return G_SOURCE_REMOVE;
}

static void
service_handle (SoupServer        *server,
                SoupServerMessage *message,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);
  SoupMessageBody *request = soup_server_message_get_request_body (message);
  GInetSocketAddress *address = G_INET_SOCKET_ADDRESS (soup_server_message_get_remote_address (message));
  g_autofree char *body = g_strndup (request->data, (gsize) request->length);
  g_autofree char *dynamic = NULL;
  guint status;
  guint count;
  Reply reply;

  g_mutex_lock (&service->mutex);
  count = GPOINTER_TO_UINT (g_hash_table_lookup (service->counts, path)) + 1;
  g_hash_table_insert (service->counts, g_strdup (path), GUINT_TO_POINTER (count));
  g_hash_table_add (service->ports, GUINT_TO_POINTER (g_inet_socket_address_get_port (address)));
  g_free (service->last_body);
  service->last_body = g_strdup (body);
  g_free (service->last_authorization);
  service->last_authorization = g_strdup (soup_message_headers_get_one (headers, "Authorization"));
  g_free (service->last_tenant);
  service->last_tenant = g_strdup (soup_message_headers_get_one (headers, "X-Tenant"));
  g_mutex_unlock (&service->mutex);

  if (g_str_equal (path, "/sample-truncated") || g_str_equal (path, "/sample-broken"))
    {
      gboolean sampled = strstr (body, "\"temperature\"") != NULL;
      g_autofree char *key = g_strconcat (path, "#sampled", NULL);
      const char *text;

      g_mutex_lock (&service->mutex);
      count = GPOINTER_TO_UINT (g_hash_table_lookup (service->counts, key)) + (sampled ? 1 : 0);
      g_hash_table_insert (service->counts, g_steal_pointer (&key), GUINT_TO_POINTER (count));
      g_mutex_unlock (&service->mutex);
      /* the answer, with the kind of text users have; the first sample's
       * reply (or every one) cut short in the middle of a string */
      if (!sampled)
        text = "{\"answer\": \"Write to margit.o@hr.example.com (see “HR-Policy v2.pdf#3”)\","
               " \"retrieved\": [{\"id\": \"HR-Policy v2.pdf#3\", \"score\": 0.8}]}";
      else if (g_str_equal (path, "/sample-broken") || count == 1)
        text = "{\"answer\": \"Write to margit.o@hr";
      else
        text = "{\"answer\": \"Ask HR at https://hr.example.com/contact\", \"retrieved\": []}";
      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, JSON, SOUP_MEMORY_COPY, text, strlen (text));
      return;
    }
  if (g_str_equal (path, "/busy-once") && count == 1)
    {
      const char *text = "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>";

      soup_message_headers_replace (soup_server_message_get_response_headers (message), "Retry-After", "1");
      soup_server_message_set_status (message, 503, NULL);
      soup_server_message_set_response (message, "text/html", SOUP_MEMORY_STATIC, text, strlen (text));
      return;
    }
  if (g_str_equal (path, "/busy-once") || (g_str_equal (path, "/stall-once") && count > 1))
    {
      const char *text = "{\"answer\": \"Ask Zoë at zoe@example.com\", \"retrieved\": []}";

      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, JSON, SOUP_MEMORY_STATIC, text, strlen (text));
      return;
    }
  if (g_str_equal (path, "/slow") || g_str_equal (path, "/stall-once"))
    {
      GSource *source = g_timeout_source_new (1000);

      soup_server_message_pause (message);
      g_source_set_callback (source, unpause, g_object_ref (message), g_object_unref);
      g_source_attach (source, service->context);
      g_source_unref (source);
      return;
    }
  dynamic = service_dynamic_reply (path, body, soup_message_headers_get_one (headers, "Authorization"), &status);
  if (dynamic != NULL)
    {
      soup_server_message_set_status (message, status, NULL);
      soup_server_message_set_response (message, JSON, SOUP_MEMORY_COPY, dynamic, strlen (dynamic));
      return;
    }
  reply = service_reply (path, count);
  if (g_str_equal (path, "/busy"))
    soup_message_headers_replace (soup_server_message_get_response_headers (message), "Retry-After", "10");
  else if (g_str_equal (path, "/busy-long"))
    soup_message_headers_replace (soup_server_message_get_response_headers (message), "Retry-After", "30");
  soup_server_message_set_status (message, (guint) reply.status, NULL);
  soup_server_message_set_response (message, reply.content_type, SOUP_MEMORY_COPY, reply.body, strlen (reply.body));
}

/* Connections are accepted here and handed to the server, rather than
 * by a listener of libsoup's: in libsoup 3.2 that listener keeps a
 * reference to every socket it accepts, which the leak checker of the
 * sanitizer build reports. */
static gboolean
on_incoming (GSocketService    *listener,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           user_data)
{
  SoupServer *server = user_data;
  g_autoptr (GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr (GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  g_autoptr (GError) error = NULL;

  soup_server_accept_iostream (server, G_IO_STREAM (connection), local, remote, &error);
  g_assert_no_error (error);
  return TRUE;
}

/* A listening socket on 127.0.0.1, on a port of the system's choice. */
static GSocket *
listen_loopback (void)
{
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GError) error = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (socket, address, TRUE, &error);
  g_assert_no_error (error);
  g_socket_listen (socket, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&socket);
}

static guint16
socket_port (GSocket *socket)
{
  g_autoptr (GSocketAddress) address = g_socket_get_local_address (socket, NULL);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address));
}

static gpointer
service_thread (gpointer user_data)
{
  g_autoptr (SoupServer) server = NULL;
  g_autoptr (GSocketService) listener = g_socket_service_new ();
  g_autoptr (GSocket) socket = listen_loopback ();
  g_autoptr (GSocket) idle = listen_loopback ();
  g_autoptr (GError) error = NULL;

  g_main_context_push_thread_default (service->context);
  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, service_handle, NULL, NULL);
  /* The server keeps connections alive only while it has a listener of
   * its own: give it one that nobody connects to. */
  soup_server_listen_socket (server, idle, 0, &error);
  g_assert_no_error (error);
  g_socket_listener_add_socket (G_SOCKET_LISTENER (listener), socket, NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (listener, "incoming", G_CALLBACK (on_incoming), server);
  g_socket_service_start (listener);

  g_mutex_lock (&service->mutex);
  service->url = g_strdup_printf ("http://127.0.0.1:%u", socket_port (socket));
  g_cond_signal (&service->ready);
  g_mutex_unlock (&service->mutex);

  g_main_loop_run (service->loop);
  /* The connections close and free themselves on the context. */
  g_socket_service_stop (listener);
  g_socket_listener_close (G_SOCKET_LISTENER (listener));
  soup_server_disconnect (server);
  g_clear_object (&server);
  while (g_main_context_iteration (service->context, FALSE))
    ;
  g_main_context_pop_thread_default (service->context);
  return NULL;
}

static void
service_start (void)
{
  service = g_new0 (Service, 1);
  g_mutex_init (&service->mutex);
  g_cond_init (&service->ready);
  service->context = g_main_context_new ();
  service->loop = g_main_loop_new (service->context, FALSE);
  service->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  service->ports = g_hash_table_new (NULL, NULL);

  g_mutex_lock (&service->mutex);
  service->thread = g_thread_new ("service", service_thread, NULL);
  while (service->url == NULL)
    g_cond_wait (&service->ready, &service->mutex);
  g_mutex_unlock (&service->mutex);
}

static gboolean
quit_loop (gpointer user_data)
{
  g_main_loop_quit (service->loop);
  return G_SOURCE_REMOVE;
}

static void
service_stop (void)
{
  g_main_context_invoke (service->context, quit_loop, NULL);
  g_thread_join (service->thread);
  g_main_loop_unref (service->loop);
  g_main_context_unref (service->context);
  g_hash_table_unref (service->counts);
  g_hash_table_unref (service->ports);
  g_free (service->url);
  g_free (service->last_body);
  g_free (service->last_authorization);
  g_free (service->last_tenant);
  g_mutex_clear (&service->mutex);
  g_cond_clear (&service->ready);
  g_clear_pointer (&service, g_free);
}

static guint
service_count (const char *path)
{
  guint count;

  g_mutex_lock (&service->mutex);
  count = GPOINTER_TO_UINT (g_hash_table_lookup (service->counts, path));
  g_mutex_unlock (&service->mutex);
  return count;
}

/* A copy of a member of the service state, read under the lock. */
static char *
service_last (char **field)
{
  char *copy;

  g_mutex_lock (&service->mutex);
  copy = g_strdup (*field);
  g_mutex_unlock (&service->mutex);
  return copy;
}

/* The http system ------------------------------------------------------------------ */

/* [system] plugin=http url=<service>PATH and the given keys. */
static GrammarSystem *
http_build (const char *path,
            GError    **error,
            const char *first,
            ...)
{
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autoptr (GrammarConfig) config = NULL;
  g_autofree char *url = g_strconcat (service->url, path, NULL);
  g_autofree char *text = NULL;
  va_list ap;

  g_key_file_set_string (key_file, "system", "plugin", "http");
  g_key_file_set_string (key_file, "system", "url", url);
  va_start (ap, first);
  set_keys_va (key_file, first, ap);
  va_end (ap);
  text = g_key_file_to_data (key_file, NULL, NULL);
  config = grammar_config_new_from_data (text, -1, g_get_tmp_dir (), error);
  if (config == NULL)
    return NULL;
  return GRAMMAR_SYSTEM (grammar_config_build (config, "system", GRAMMAR_TYPE_SYSTEM, error));
}

/* Answers @query at @path, expecting an error, and returns its message. */
static char *
http_error (const char *path,
            const char *first,
            ...)
{
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarSystem) system = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *url = g_strconcat (service->url, path, NULL);
  g_autofree char *text = NULL;
  int code;
  va_list ap;

  g_key_file_set_string (key_file, "system", "plugin", "http");
  g_key_file_set_string (key_file, "system", "url", url);
  va_start (ap, first);
  set_keys_va (key_file, first, ap);
  va_end (ap);
  text = g_key_file_to_data (key_file, NULL, NULL);
  config = grammar_config_new_from_data (text, -1, g_get_tmp_dir (), &error);
  g_assert_no_error (error);
  system = GRAMMAR_SYSTEM (grammar_config_build (config, "system", GRAMMAR_TYPE_SYSTEM, &error));
  g_assert_no_error (error);
  answer = grammar_system_answer (system, "Who leads Tidewatch?", NULL, &error);
  g_assert_null (answer);
  /* A service that stays busy or silent is unavailable (a stage stops
   * after several in a row); any other failure is the query's own. */
  code = g_str_equal (path, "/down") || g_str_equal (path, "/slow") ? GRAMMAR_ERROR_UNAVAILABLE : GRAMMAR_ERROR_FAILED;
  g_assert_error (error, GRAMMAR_ERROR, code);
  g_assert_null (strstr (error->message, SECRET));
  return g_strdup (error->message);
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” does not contain “%s”", haystack, needle);
}

/* samples=N: N more requests with sample-params merged in, their
 * answers the samples; a sample-params that is not an object is refused. */
static void
test_http_samples (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/sampled", &error, "system.samples", "3",
                                                 "system.sample-params", "{\"temperature\": 1.0}", NULL);
  g_autoptr (GrammarSystem) bad = NULL;
  const char * const *samples;

  g_assert_no_error (error);
  answer = grammar_system_answer (system, "Who leads Tidewatch?", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "main");
  samples = grammar_answer_get_samples (answer);
  g_assert_nonnull (samples);
  g_assert_cmpuint (g_strv_length ((GStrv) samples), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (samples[i], ==, "sampled");
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (service->counts, "/sampled")), ==, 4);

  bad = http_build ("/sampled", &error, "system.samples", "2", "system.sample-params", "[1]", NULL);
  g_assert_null (bad);
  assert_contains (error->message, "sample-params must be a JSON object");
}

/* query-pointer: the query written inside a copy of extra-body, fresh
 * for every request (an appended element does not pile up), with
 * sample-params at the top; a place that cannot be written is refused
 * when the system is built. */
static void
test_http_query_pointer (void)
{
  const struct { const char *extra; const char *pointer; const char *body; } cases[] = {
    { "{\"model\": \"m\", \"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"}, "
      "{\"role\": \"user\", \"content\": \"\"}]}", "/messages/1/content",
      "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
      "{\"role\":\"user\",\"content\":\"Who leads “Tidewatch”?\"}]}" },
    { "{\"inputs\": [\"context\"]}", "/inputs/-", "{\"inputs\":[\"context\",\"Who leads “Tidewatch”?\"]}" },
    { "{\"inputs\": [\"context\"]}", "/inputs/1", "{\"inputs\":[\"context\",\"Who leads “Tidewatch”?\"]}" },
    { "{\"inputs\": [null, 2]}", "/inputs/0", "{\"inputs\":[\"Who leads “Tidewatch”?\",2]}" },
    { "{\"input\": {\"query\": \"old\"}, \"config\": {}}", "/input/query",
      "{\"input\":{\"query\":\"Who leads “Tidewatch”?\"},\"config\":{}}" },
    { NULL, "/q~1text", "{\"q/text\":\"Who leads “Tidewatch”?\"}" },
  };
  const struct { const char *extra; const char *pointer; const char *message; } refused[] = {
    { "{\"inputs\": [\"context\"]}", "/inputs/3", "query-pointer: “/inputs/3”: “3” is not an index of the array at "
      "“/inputs” (1 element), in the request extra-body={\"inputs\": [\"context\"]}" },
    { "{\"inputs\": [\"context\"]}", "/inputs/0/text", "“/inputs/0” is not an object or an array to write into" },
    { NULL, "/messages/0/content", "nothing is at “/messages/0” to write into, in the request {} (extra-body is "
      "not set)" },
    { "{}", "messages", "query-pointer: “messages” is not a JSON pointer" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarSystem) system =
        http_build ("/sampled", &error, "system.query-pointer", cases[i].pointer,
                    cases[i].extra != NULL ? "system.extra-body" : NULL, cases[i].extra, NULL);

      g_assert_no_error (error);
      for (guint round = 0; round < 2; round++)
        {
          g_autoptr (GrammarAnswer) answer = grammar_system_answer (system, "Who leads “Tidewatch”?", NULL, &error);
          g_autofree char *body = NULL;

          g_assert_no_error (error);
          body = service_last (&service->last_body);
          g_assert_cmpstr (body, ==, cases[i].body);
        }
    }

  /* the samples' requests: sample-params merged at the top */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GrammarSystem) system =
      http_build ("/sampled", &error, "system.query-pointer", "/input/query", "system.extra-body", "{\"input\": {}}",
                  "system.samples", "1", "system.sample-params", "{\"temperature\": 1}", NULL);
    g_autoptr (GrammarAnswer) answer = NULL;
    g_autofree char *body = NULL;

    g_assert_no_error (error);
    answer = grammar_system_answer (system, "Who leads Tidewatch?", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (grammar_answer_get_samples (answer)[0], ==, "sampled");
    body = service_last (&service->last_body);
    g_assert_cmpstr (body, ==, "{\"input\":{\"query\":\"Who leads Tidewatch?\"},\"temperature\":1}");
  }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarSystem) system =
        http_build ("/sampled", &error, "system.query-pointer", refused[i].pointer,
                    refused[i].extra != NULL ? "system.extra-body" : NULL, refused[i].extra, NULL);

      g_assert_null (system);
      g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
      assert_contains (error->message, refused[i].message);
    }

  /* sample-params that take away the place: the samples' request is tried too */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GrammarSystem) system =
      http_build ("/sampled", &error, "system.query-pointer", "/messages/0/content",
                  "system.extra-body", "{\"messages\": [{\"role\": \"user\"}]}", "system.samples", "1",
                  "system.sample-params", "{\"messages\": []}", NULL);

    g_assert_null (system);
    assert_contains (error->message, "nothing is at “/messages/0” to write into, in the request extra-body="
                                     "{\"messages\": [{\"role\": \"user\"}]} with sample-params={\"messages\": []}");
  }
}

static guint64
system_statistic (GrammarSystem *system,
                  const char    *name)
{
  guint64 value = 0;

  g_object_get (system, name, &value, NULL);
  return value;
}

/* A sample whose reply is cut short is asked again, like a 5xx, and the
 * answer has all its samples; the statistics count the retry by cause. */
static void
test_http_sample_retried (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/sample-truncated", &error, "system.samples", "2",
                                                 "system.sample-params", "{\"temperature\": 1.0}",
                                                 "system.max-retries", "2", NULL);
  g_autofree char *line = NULL;
  const char * const *samples;

  g_assert_no_error (error);
  answer = grammar_system_answer (system, "How do I reach “HR”?", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==,
                   "Write to margit.o@hr.example.com (see “HR-Policy v2.pdf#3”)");
  samples = grammar_answer_get_samples (answer);
  g_assert_cmpuint (g_strv_length ((GStrv) samples), ==, 2);
  g_assert_cmpstr (samples[0], ==, "Ask HR at https://hr.example.com/contact");
  g_assert_cmpstr (samples[1], ==, "Ask HR at https://hr.example.com/contact");
  g_assert_cmpuint (grammar_answer_get_samples_failed (answer), ==, 0);
  g_assert_null (grammar_answer_get_sample_error (answer));
  g_assert_cmpuint (service_count ("/sample-truncated"), ==, 4);

  g_assert_cmpuint (system_statistic (system, "requests"), ==, 4);
  g_assert_cmpuint (system_statistic (system, "retries"), ==, 1);
  g_assert_cmpuint (system_statistic (system, "retries-malformed"), ==, 1);
  g_assert_cmpuint (system_statistic (system, "timeouts"), ==, 0);
  line = grammar_format_request_statistics (G_OBJECT (system), "system");
  g_assert_true (g_str_has_prefix (line, "system: 4 requests, 1 retries (1 malformed reply), 0 timeouts, latency median "));
}

/* A sample that fails every time leaves the answer with fewer samples,
 * noted with the first error: the response is kept. */
static void
test_http_sample_failed (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/sample-broken", &error, "system.samples", "2",
                                                 "system.sample-params", "{\"temperature\": 1.0}",
                                                 "system.max-retries", "1", NULL);
  const char * const *samples;

  g_assert_no_error (error);
  answer = grammar_system_answer (system, "How do I reach “HR”?", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==,
                   "Write to margit.o@hr.example.com (see “HR-Policy v2.pdf#3”)");
  g_assert_cmpuint (grammar_answer_get_retrieved (answer)->len, ==, 1);
  samples = grammar_answer_get_samples (answer);
  g_assert_nonnull (samples);
  g_assert_cmpuint (g_strv_length ((GStrv) samples), ==, 0);
  g_assert_cmpuint (grammar_answer_get_samples_failed (answer), ==, 2);
  g_test_message ("%s", grammar_answer_get_sample_error (answer));
  g_assert_true (g_str_has_prefix (grammar_answer_get_sample_error (answer), "sample "));
  assert_contains (grammar_answer_get_sample_error (answer), "failed after 2 attempts");
  /* the primary once, each sample twice */
  g_assert_cmpuint (service_count ("/sample-broken"), ==, 1 + 2 * 2);
  g_assert_cmpuint (system_statistic (system, "retries-malformed"), ==, 2);
  g_assert_cmpuint (system_statistic (system, "failures"), ==, 2);
}

/* The rag runner writes what the system said of its failed samples:
 * results.jsonl keeps the response, with samples_failed and
 * sample_error, and reads them back. */
static void
test_http_sample_failed_results (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/sample-broken", &error, "system.samples", "2",
                                                 "system.sample-params", "{\"temperature\": 1.0}",
                                                 "system.max-retries", "0", NULL);
  g_autoptr (GrammarRagRunner) runner = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-systems-XXXXXX", &error);
  g_autofree char *input = g_build_filename (dir, "dataset.jsonl", NULL);
  g_autofree char *output = g_build_filename (dir, "results.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GrammarRecord) record = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (input, "{\"id\": \"HR-Policy v2.pdf#3\", \"text\": \"How do I reach “HR”?\"}\n",
                                      -1, &error));
  runner = grammar_rag_runner_new (system);
  g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_stage_runner_get_n_failed (GRAMMAR_STAGE_RUNNER (runner)), ==, 0);

  g_assert_true (g_file_get_contents (output, &contents, NULL, &error));
  assert_contains (contents, "\"response\":\"Write to margit.o@hr.example.com (see “HR-Policy v2.pdf#3”)\"");
  assert_contains (contents, "\"samples\":[],\"samples_failed\":2,\"sample_error\":\"sample ");
  g_assert_null (strstr (contents, "\"error\""));
  node = json_from_string (contents, &error);
  g_assert_no_error (error);
  record = grammar_record_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_record_get_samples_failed (record), ==, 2);
  g_assert_true (g_str_has_prefix (grammar_record_get_sample_error (record), "sample "));

  g_unlink (input);
  g_unlink (output);
  g_rmdir (dir);
}

/* The request (query member, extra body, key, extra header) and the
 * answer and hits read through custom pointers. */
static void
test_http_custom_pointers (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarSystem) system =
    http_build ("/rag", &error,
                "system.query-member", "question",
                "system.extra-body", "{\"top_k\": 3, \"question\": \"overridden\"}",
                "system.answer-pointer", "/data/output/text",
                "system.retrieved-pointer", "/sources",
                "system.retrieved-id-pointer", "/doc/key",
                "system.retrieved-text-pointer", "/passage",
                "system.retrieved-score-pointer", "/relevance",
                "system.api-key-env", KEY_ENV,
                "system.extra-headers", "X-Tenant: acme",
                NULL);
  g_autofree char *body = NULL;
  g_autofree char *authorization = NULL;
  g_autofree char *tenant = NULL;

  g_assert_no_error (error);
  answer = grammar_system_answer (system, "Who leads “Tidewatch”?", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "Tidewatch is led by Zoë Ångström.");
  g_assert_cmpuint (grammar_answer_get_retrieved (answer)->len, ==, 2);
  assert_hit (answer, 0, "d7", 0.92, "Zoë leads Tidewatch.");
  assert_hit (answer, 1, "3", 1.0, NULL);     /* a numeric id; no passage */

  body = service_last (&service->last_body);
  g_assert_cmpstr (body, ==, "{\"top_k\":3,\"question\":\"Who leads “Tidewatch”?\"}");
  authorization = service_last (&service->last_authorization);
  g_assert_cmpstr (authorization, ==, "Bearer " SECRET);
  tenant = service_last (&service->last_tenant);
  g_assert_cmpstr (tenant, ==, "acme");
}

/* The default pointers: a number answer as its text, a string item as
 * an id, a missing score as 0; no key sent without api-key-env. */
static void
test_http_defaults (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/default", &error, NULL);
  g_autofree char *body = NULL;
  g_autofree char *authorization = NULL;

  g_assert_no_error (error);
  answer = grammar_system_answer (system, "How many?", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "42");
  g_assert_cmpuint (grammar_answer_get_retrieved (answer)->len, ==, 2);
  assert_hit (answer, 0, "d1", 0.0, NULL);
  assert_hit (answer, 1, "d2", 0.5, "two");
  body = service_last (&service->last_body);
  g_assert_cmpstr (body, ==, "{\"query\":\"How many?\"}");
  authorization = service_last (&service->last_authorization);
  g_assert_null (authorization);
}

/* null answer: an empty response, no error; null retrieved: not reported. */
static void
test_http_null (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/null", &error, NULL);

  g_assert_no_error (error);
  answer = grammar_system_answer (system, "q", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "");
  g_assert_null (grammar_answer_get_retrieved (answer));
}

/* The keys of the user's service at @path: where the answer and the
 * sources are. */
static GrammarSystem *
hr_build (const char  *path,
          const char  *retrieved_pointer,
          const char  *reports_documents,
          GError     **error)
{
  return http_build (path, error,
                     "system.answer-pointer", "/data/answer",
                     "system.retrieved-pointer", retrieved_pointer,
                     "system.retrieved-id-pointer", "/doc_id",
                     "system.retrieved-text-pointer", "/snippet",
                     "system.retrieved-score-pointer", "/relevance",
                     reports_documents != NULL ? "system.reports-documents" : NULL, reports_documents,
                     NULL);
}

/* "Not reported" (no documents: retrieval unmeasured) against "reported
 * empty" (a retrieval miss): an empty sources list is not reported
 * unless reports-documents says the service always reports them; a null
 * list and retrieved-pointer= are never reported; real sources are
 * read either way. */
static void
test_http_unreported (void)
{
  const struct { const char *path; const char *pointer; const char *reports; int n_hits; } cases[] = {
    { "/hr/empty", "/data/sources", NULL, -1 },
    { "/hr/empty", "/data/sources", "false", -1 },
    { "/hr/empty", "/data/sources", "true", 0 },
    { "/hr/null", "/data/sources", NULL, -1 },
    { "/hr/null", "/data/sources", "true", -1 },
    { "/hr/sources", "", NULL, -1 },
    { "/hr/sources", "/data/sources", NULL, 1 },
    { "/hr/sources", "/data/sources", "true", 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarAnswer) answer = NULL;
      g_autoptr (GrammarSystem) system = hr_build (cases[i].path, cases[i].pointer, cases[i].reports, &error);
      GPtrArray *hits;

      g_test_message ("%s retrieved-pointer=%s reports-documents=%s", cases[i].path, cases[i].pointer,
                      cases[i].reports != NULL ? cases[i].reports : "(unset)");
      g_assert_no_error (error);
      answer = grammar_system_answer (system, "Who approves “parental leave”?", NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (grammar_answer_get_response (answer), ==, "Ask Margit Ødegaard <margit.odegaard@hr.example>.");
      hits = grammar_answer_get_retrieved (answer);
      if (cases[i].n_hits < 0)
        {
          g_assert_null (hits);
          continue;
        }
      g_assert_nonnull (hits);
      g_assert_cmpuint (hits->len, ==, (guint) cases[i].n_hits);
      if (hits->len > 0)
        assert_hit (answer, 0, "HR-Policy v2.pdf#3", 0.87, "Leave is approved by “HR Operations”.");
    }
}

/* reports-documents=true without retrieved-pointer: refused when built,
 * naming both keys. */
static void
test_http_reports_documents_config (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSystem) system = hr_build ("/hr/empty", "", "true", &error);
  g_autoptr (GrammarSystem) plain = NULL;
  gboolean reports = TRUE;

  g_assert_null (system);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  assert_contains (error->message, "reports-documents=true needs retrieved-pointer");
  g_clear_error (&error);

  plain = http_build ("/hr/empty", &error, NULL);
  g_assert_no_error (error);
  g_object_get (plain, "reports-documents", &reports, NULL);
  g_assert_false (reports);
}

/* Through the rag runner into results.jsonl: no `retrieved` member when
 * the service reported none, `"retrieved": []` when it says it reports
 * them and found none, the sources otherwise. */
static void
test_http_results_file (void)
{
  /* n_retrieved -1: no member */
  const struct { const char *path; const char *reports; int n_retrieved; } cases[] = {
    { "/hr/empty", NULL, -1 },
    { "/hr/empty", "true", 0 },
    { "/hr/sources", NULL, 1 },
  };
  g_autoptr (GError) dir_error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-systems-XXXXXX", &dir_error);
  g_autofree char *input = NULL;
  const char *dataset =
    "{\"id\":\"HR-7\",\"group\":\"q7\",\"text\":\"Who approves “parental leave”?\","
    "\"doc_ids\":[\"HR-Policy v2.pdf#3\"]}\n";

  g_assert_no_error (dir_error);
  input = g_build_filename (dir, "hr.dataset.jsonl", NULL);
  g_assert_true (g_file_set_contents (input, dataset, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarSystem) system = hr_build (cases[i].path, "/data/sources", cases[i].reports, &error);
      g_autoptr (GrammarRagRunner) runner = NULL;
      g_autofree char *output = g_build_filename (dir, "hr.results.jsonl", NULL);
      g_autofree char *contents = NULL;
      g_autoptr (JsonNode) line = NULL;
      JsonObject *object;

      g_assert_no_error (error);
      runner = grammar_rag_runner_new (system);
      g_assert_true (grammar_stage_runner_run (GRAMMAR_STAGE_RUNNER (runner), input, output, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
      line = json_from_string (contents, &error);
      g_assert_no_error (error);
      object = json_node_get_object (line);
      g_assert_cmpstr (json_object_get_string_member (object, "response"), ==,
                       "Ask Margit Ødegaard <margit.odegaard@hr.example>.");
      if (cases[i].n_retrieved < 0)
        g_assert_false (json_object_has_member (object, "retrieved"));
      else
        {
          JsonArray *retrieved = json_object_get_array_member (object, "retrieved");

          g_assert_nonnull (retrieved);
          g_assert_cmpuint (json_array_get_length (retrieved), ==, (guint) cases[i].n_retrieved);
          if (cases[i].n_retrieved > 0)
            g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (retrieved, 0), "id"), ==,
                             "HR-Policy v2.pdf#3");
        }
      g_assert_cmpint (g_remove (output), ==, 0);
    }
  g_assert_cmpint (g_remove (input), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* RFC 6901's own examples, "~01" unescaped in one pass, array indices,
 * and what matches nothing. */
static void
test_http_pointers (void)
{
  const struct { const char *pointer; const char *answer; const char *error; } cases[] = {
    { "/foo/0", "bar", NULL },
    { "/foo/1", "baz", NULL },
    { "/", "0", NULL },
    { "/a~1b", "1", NULL },
    { "/c%d", "2", NULL },
    { "/e^f", "3", NULL },
    { "/g|h", "4", NULL },
    { "/i\\j", "5", NULL },
    { "/k\"l", "6", NULL },
    { "/ ", "7", NULL },
    { "/m~0n", "8", NULL },
    { "/~01", "tilde-one", NULL },
    { "/~1", "slash", NULL },
    { "/foo/01", NULL, "answer-pointer “/foo/01” matches nothing" },
    { "/foo/2", NULL, "answer-pointer “/foo/2” matches nothing" },
    { "/foo/-", NULL, "answer-pointer “/foo/-” matches nothing" },
    { "/m~n", NULL, "answer-pointer “/m~n”" },   /* refused when built */
    { "/foo", NULL, "answer-pointer “/foo” is an array, not a string" },
    { "", NULL, "answer-pointer “” is an object, not a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarAnswer) answer = NULL;
      g_autoptr (GrammarSystem) system =
        http_build ("/doc", &error, "system.answer-pointer", cases[i].pointer, "system.retrieved-pointer", "", NULL);

      if (system == NULL)
        {
          g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
          g_assert_nonnull (cases[i].error);
          assert_contains (error->message, "answer-pointer: “/m~n” is not a JSON pointer");
          continue;
        }
      answer = grammar_system_answer (system, "q", NULL, &error);
      if (cases[i].answer != NULL)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (grammar_answer_get_response (answer), ==, cases[i].answer);
          g_assert_null (grammar_answer_get_retrieved (answer));
        }
      else
        {
          g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
          assert_contains (error->message, cases[i].error);
          assert_contains (error->message, "in the reply “{\"foo\": [\"bar\", \"baz\"]");
        }
    }
}

/* A 500 then a success: tried again, answered. A service that stays
 * down: given up after max-retries, saying how many attempts. */
static void
test_http_retry (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/flaky", &error, NULL);
  g_autofree char *message = NULL;

  g_assert_no_error (error);
  answer = grammar_system_answer (system, "q", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "ok");
  g_assert_cmpuint (service_count ("/flaky"), ==, 2);

  message = http_error ("/down", "system.max-retries", "1", NULL);
  assert_contains (message, "/down failed after 2 attempts: HTTP 503: “down for maintenance”");
  g_assert_cmpuint (service_count ("/down"), ==, 2);
}

/* A 503 with Retry-After, then an answer: one retry, counted by its
 * cause among the system's statistics; a stall past the timeout, then an
 * answer: one timeout. */
static void
test_http_statistics (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GrammarAnswer) late = NULL;
  g_autoptr (GrammarSystem) busy = http_build ("/busy-once", &error, NULL);
  g_autoptr (GrammarSystem) stalled = http_build ("/stall-once", &error, "system.timeout", "0.3", NULL);
  g_autofree char *busy_line = NULL;
  g_autofree char *stalled_line = NULL;
  gint64 start = g_get_monotonic_time ();

  g_assert_no_error (error);
  answer = grammar_system_answer (busy, "Who runs “Tidewatch”?", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (answer), ==, "Ask Zoë at zoe@example.com");
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 900 * 1000);   /* it waited as asked */
  g_assert_cmpuint (system_statistic (busy, "requests"), ==, 2);
  g_assert_cmpuint (system_statistic (busy, "retries"), ==, 1);
  g_assert_cmpuint (system_statistic (busy, "retries-5xx"), ==, 1);
  g_assert_cmpuint (system_statistic (busy, "retries-429"), ==, 0);
  g_assert_cmpuint (system_statistic (busy, "timeouts"), ==, 0);
  busy_line = grammar_format_request_statistics (G_OBJECT (busy), "system");
  g_test_message ("%s", busy_line);
  g_assert_true (g_str_has_prefix (busy_line, "system: 2 requests, 1 retries (1 HTTP 5xx), 0 timeouts, latency median "));

  late = grammar_system_answer (stalled, "Who runs “Tidewatch”?", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_answer_get_response (late), ==, "Ask Zoë at zoe@example.com");
  g_assert_cmpuint (system_statistic (stalled, "timeouts"), ==, 1);
  g_assert_cmpuint (system_statistic (stalled, "retries-timeout"), ==, 1);
  stalled_line = grammar_format_request_statistics (G_OBJECT (stalled), "system");
  g_test_message ("%s", stalled_line);
  g_assert_true (g_str_has_prefix (stalled_line, "system: 2 requests, 1 retries (1 timeout), 1 timeouts, latency median "));
}

/* 401: not tried again; the message names the variable, never the key,
 * even when the service echoes it. Other 4xx: not tried again. */
static void
test_http_unauthorized (void)
{
  g_autofree char *message = http_error ("/auth", "system.api-key-env", KEY_ENV, NULL);
  g_autofree char *not_set = NULL;
  g_autofree char *not_found = NULL;

  assert_contains (message, "/auth: HTTP 401: “{\"error\": \"invalid key [redacted]\"}”");
  assert_contains (message, "check the API key in the environment variable " KEY_ENV);
  g_assert_cmpuint (service_count ("/auth"), ==, 1);

  not_set = http_error ("/auth", "system.api-key-env", "GRAMMAR_TEST_SYSTEMS_UNSET", NULL);
  assert_contains (not_set, "the environment variable GRAMMAR_TEST_SYSTEMS_UNSET holding the API key is not set");

  not_found = http_error ("/forbidden", NULL);
  assert_contains (not_found, "/forbidden: HTTP 404: “no such endpoint”");
  g_assert_cmpuint (service_count ("/forbidden"), ==, 1);
}

/* Replies without the answer: named pointer, start of the reply. */
static void
test_http_bad_replies (void)
{
  g_autofree char *html = http_error ("/html", NULL);
  g_autofree char *long_text = http_error ("/long-text", NULL);
  g_autofree char *missing = http_error ("/missing", NULL);
  g_autofree char *object = http_error ("/object", NULL);
  g_autofree char *no_retrieved = http_error ("/no-retrieved", NULL);
  g_autofree char *bad_item = http_error ("/bad-item", NULL);
  g_autofree char *blank = http_error ("/blank", NULL);
  g_autofree char *hundred = NULL;
  GString *expected = g_string_new ("the reply begins “");

  assert_contains (html, "the reply is not JSON");
  assert_contains (html, "answer-pointer “/answer” cannot be read; the reply begins "
                         "“<html><body>Internal oops</body></html>”");
  g_assert_cmpuint (service_count ("/html"), ==, 1);   /* not tried again */

  /* 200 bytes are 100 "é": never half a character. */
  for (guint i = 0; i < 100; i++)
    g_string_append (expected, "é");
  g_string_append (expected, "”…");
  hundred = g_string_free (expected, FALSE);
  assert_contains (long_text, hundred);
  g_assert_true (g_utf8_validate (long_text, -1, NULL));

  assert_contains (missing, "answer-pointer “/answer” matches nothing in the reply “{\"result\": \"x\"}”");
  assert_contains (object, "answer-pointer “/answer” is an object, not a string");
  assert_contains (no_retrieved, "retrieved-pointer “/retrieved” matches nothing (set retrieved-pointer= empty");
  assert_contains (bad_item, "retrieved item 1: retrieved-id-pointer “/id” matches nothing: the item has the key “text”");
  assert_contains (missing, "matches nothing in the reply “{\"result\": \"x\"}”: the reply has the key “result”");
  assert_contains (no_retrieved, "not report its documents): the reply has the key “answer”");
  /* White space only: an error like an empty reply, not a critical (found by tests/fuzz/fuzz-http-system) */
  assert_contains (blank, "the reply is not JSON (empty)");
}

/* A pointer that misses shows the keys where it stopped, even when the
 * failing item lies past the start of the reply that is quoted. */
static void
test_http_pointer_miss_shows_keys (void)
{
  g_autofree char *item = http_error ("/nested-item", "system.answer-pointer", "/data/answer",
                                      "system.retrieved-pointer", "/data/sources", NULL);
  g_autofree char *answer = http_error ("/nested-item", "system.answer-pointer", "/data/reply", NULL);
  g_autofree char *deep = http_error ("/nested-item", "system.answer-pointer", "/data/answer",
                                      "system.retrieved-pointer", "/data/sources/4", NULL);
  g_autofree char *wrong_kind = http_error ("/nested-item", "system.answer-pointer", "/data/answer",
                                            "system.retrieved-pointer", "/data/sources",
                                            "system.retrieved-id-pointer", "/relevance/x", NULL);

  assert_contains (item, "retrieved item 0: retrieved-id-pointer “/id” matches nothing: the item has the keys "
                         "“doc_id”, “snippet”, “relevance”");
  g_assert_null (strstr (item, "Margit"));
  assert_contains (answer, "answer-pointer “/data/reply” matches nothing in the reply");
  assert_contains (answer, "“/data” in the reply has the keys “answer”, “sources”");
  assert_contains (deep, "“/data/sources” in the reply is an array of 1 item");
  assert_contains (wrong_kind, "“/relevance” in the item is a number");
}

/* An attempt that takes longer than timeout is abandoned. */
static void
test_http_timeout (void)
{
  g_autofree char *message = http_error ("/slow", "system.timeout", "0.2", "system.max-retries", "0", NULL);

  assert_contains (message, "/slow failed after 1 attempt: no reply within 0.2 s (timeout)");
}

/* Probes @system, expecting it to fail with @code, and returns the
 * message; @requests is how many requests @path got meanwhile. */
static char *
probe_error (GrammarSystem *system,
             const char    *path,
             int            code,
             guint          requests)
{
  g_autoptr (GError) error = NULL;
  guint before = path != NULL ? service_count (path) : 0;

  g_assert_false (grammar_system_probe (system, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, code);
  g_assert_null (strstr (error->message, SECRET));
  if (path != NULL)
    g_assert_cmpuint (service_count (path) - before, ==, requests);
  return g_strdup (error->message);
}

/* The probe: one query, no retry of a connection that fails, a timeout
 * of an attempt over the timeout; a service that answers 5xx is asked 3
 * times in all. */
static void
test_http_probe (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSystem) up = http_build ("/default", &error, NULL);
  g_autoptr (GrammarSystem) missing = http_build ("/forbidden", &error, NULL);
  g_autoptr (GrammarSystem) down = http_build ("/down", &error, "system.max-retries", "5", NULL);
  g_autoptr (GrammarSystem) slow = http_build ("/slow", &error, "system.timeout", "0.2", NULL);
  g_autoptr (GrammarSystem) closed = NULL;
  g_autofree char *message = NULL;
  g_autofree char *url = NULL;
  g_autofree char *shown = NULL;
  guint before = service_count ("/default");
  gint64 start;

  g_assert_no_error (error);
  g_assert_true (grammar_system_probe (up, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (service_count ("/default") - before, ==, 1);

  message = probe_error (missing, "/forbidden", GRAMMAR_ERROR_FAILED, 1);
  assert_contains (message, "/forbidden: HTTP 404: “no such endpoint”");
  g_clear_pointer (&message, g_free);

  message = probe_error (down, "/down", GRAMMAR_ERROR_UNAVAILABLE, 3);
  assert_contains (message, "/down failed after 1 attempt: HTTP 503: “down for maintenance”");
  g_clear_pointer (&message, g_free);

  start = g_get_monotonic_time ();
  message = probe_error (slow, "/slow", GRAMMAR_ERROR_UNAVAILABLE, 1);
  assert_contains (message, "/slow failed after 1 attempt: no reply within 0.2 s (timeout)");
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_clear_pointer (&message, g_free);

  /* A port nobody listens on: told at once, the password not shown. */
  {
    g_autoptr (GSocket) socket = listen_loopback ();
    guint16 port = socket_port (socket);
    g_autoptr (GKeyFile) key_file = g_key_file_new ();
    g_autoptr (GrammarConfig) config = NULL;
    g_autofree char *text = NULL;

    g_socket_close (socket, NULL);
    url = g_strdup_printf ("http://ops:" SECRET "@127.0.0.1:%u/v1/ask", port);
    shown = g_strdup_printf ("http://ops@127.0.0.1:%u/v1/ask failed after 1 attempt: ", port);
    g_key_file_set_string (key_file, "system", "plugin", "http");
    g_key_file_set_string (key_file, "system", "url", url);
    text = g_key_file_to_data (key_file, NULL, NULL);
    config = grammar_config_new_from_data (text, -1, g_get_tmp_dir (), &error);
    g_assert_no_error (error);
    closed = GRAMMAR_SYSTEM (grammar_config_build (config, "system", GRAMMAR_TYPE_SYSTEM, &error));
    g_assert_no_error (error);
  }
  start = g_get_monotonic_time ();
  message = probe_error (closed, NULL, GRAMMAR_ERROR_UNAVAILABLE, 0);
  assert_contains (message, shown);
  assert_contains (message, "Connection refused");
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
}

/* Queries in flight at once, more than max-concurrency, each answered
 * with its own reply, over kept-alive connections. */
static void
test_http_concurrent (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/echo", &error, "system.max-concurrency", "2", NULL);
  GAsyncResult *results[6] = { NULL };
  guint n_ports;

  g_assert_no_error (error);
  g_mutex_lock (&service->mutex);
  g_hash_table_remove_all (service->ports);
  g_mutex_unlock (&service->mutex);

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autofree char *query = g_strdup_printf ("query %u", i);

      grammar_system_answer_async (system, query, NULL, on_answered, &results[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr (GrammarAnswer) answer = NULL;
      g_autofree char *query = g_strdup_printf ("query %u", i);

      while (results[i] == NULL)
        g_main_context_iteration (NULL, TRUE);
      answer = grammar_system_answer_finish (system, results[i], &error);
      g_assert_no_error (error);
      g_assert_cmpstr (grammar_answer_get_response (answer), ==, query);
      g_clear_object (&results[i]);
    }
  g_assert_cmpuint (service_count ("/echo"), ==, G_N_ELEMENTS (results));
  g_mutex_lock (&service->mutex);
  n_ports = g_hash_table_size (service->ports);
  g_mutex_unlock (&service->mutex);
  g_assert_cmpuint (n_ports, <=, 2);   /* at most max-concurrency connections */
}

/* Cancelling a query in flight. */
static void
test_http_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/slow", &error, NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  gint64 start = g_get_monotonic_time ();
  guint before = service_count ("/slow");

  g_assert_no_error (error);
  grammar_system_answer_async (system, "q", cancellable, on_answered, &result);
  while (service_count ("/slow") == before)   /* until the service holds it */
    g_main_context_iteration (NULL, FALSE);
  g_cancellable_cancel (cancellable);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  answer = grammar_system_answer_finish (system, result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC / 2);
}

static gboolean
cancel_later (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

/* Retry-After is obeyed (no second attempt within its 10 s), and a
 * query cancelled while it waits ends at once. */
static void
test_http_cancel_backoff (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/busy", &error, NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GrammarAnswer) answer = NULL;
  gint64 start = g_get_monotonic_time ();
  GSource *timeout = g_timeout_source_new (300);

  g_assert_no_error (error);
  grammar_system_answer_async (system, "q", cancellable, on_answered, &result);
  g_source_set_callback (timeout, cancel_later, cancellable, NULL);
  g_source_attach (timeout, NULL);
  g_source_unref (timeout);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  answer = grammar_system_answer_finish (system, result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (service_count ("/busy"), ==, 1);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
}

typedef struct
{
  GAsyncResult *result;
  gint64 finished;
} Cancelled;

static void
on_cancelled_answer (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  Cancelled *cancelled = user_data;

  cancelled->finished = g_get_monotonic_time ();
  cancelled->result = g_object_ref (result);
}

/* A query cancelled while it waits out a back-off (the service asked
 * for Retry-After: 30) ends within 100 ms of the cancel. */
static void
test_http_cancel_backoff_prompt (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSystem) system = http_build ("/busy-long", &error, NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GrammarAnswer) answer = NULL;
  Cancelled cancelled = { NULL, 0 };
  guint before = service_count ("/busy-long");
  gint64 cancel_time;

  g_assert_no_error (error);
  grammar_system_answer_async (system, "q", cancellable, on_cancelled_answer, &cancelled);
  while (service_count ("/busy-long") == before)   /* until the first attempt arrives */
    g_main_context_iteration (NULL, FALSE);
  cancel_time = g_get_monotonic_time () + G_USEC_PER_SEC / 2;   /* its 429 is back by then */
  while (g_get_monotonic_time () < cancel_time)
    g_main_context_iteration (NULL, FALSE);
  g_assert_null (cancelled.result);

  cancel_time = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  while (cancelled.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (cancelled.finished - cancel_time, <, G_USEC_PER_SEC / 10);
  answer = grammar_system_answer_finish (system, cancelled.result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (service_count ("/busy-long"), ==, before + 1);
  g_clear_object (&cancelled.result);
}

/* Configuration mistakes are caught when the section is built. */
static void
test_http_config (void)
{
  const struct { const char *key; const char *value; const char *message; } cases[] = {
    { "system.url", "", "url is required" },
    { "system.url", "ftp://127.0.0.1/x", "url “ftp://127.0.0.1/x” is not an http:// or https:// URL" },
    { "system.answer-pointer", "answer", "answer-pointer: “answer” is not a JSON pointer" },
    { "system.retrieved-id-pointer", "/a~2", "retrieved-id-pointer: “/a~2” is not a JSON pointer" },
    { "system.extra-body", "[1]", "extra-body must be a JSON object" },
    { "system.extra-body", "{top_k: 3", "extra-body is not JSON" },
    { "system.extra-headers", "X-Tenant acme", "extra-headers: “X-Tenant acme” is not of the form" },
    { "system.query-member", "", "query-member must name" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarSystem) system = http_build ("/x", &error, cases[i].key, cases[i].value, NULL);

      g_assert_null (system);
      g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
      assert_contains (error->message, "[system]: ");
      assert_contains (error->message, cases[i].message);
    }
}

/* ------------------------------------------------------------------------------- */

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_setenv (KEY_ENV, SECRET, TRUE);
  g_unsetenv ("GRAMMAR_TEST_SYSTEMS_UNSET");
  grammar_registry_implement (GRAMMAR_TYPE_RETRIEVER, TEST_TYPE_LIST_RETRIEVER, "test-list",
                              "Returns fixed texts (tests)");
  grammar_registry_implement (GRAMMAR_TYPE_LLM, TEST_TYPE_RECORDING_LLM, "test-recording",
                              "Replies with fixed text and keeps the request (tests)");
  service_start ();

  g_test_add_func ("/pipeline/prompt", test_pipeline_prompt);
  g_test_add_func ("/pipeline/budget", test_pipeline_budget);
  g_test_add_func ("/pipeline/custom-prompt", test_pipeline_custom_prompt);
  g_test_add_func ("/pipeline/errors", test_pipeline_errors);
  g_test_add_func ("/pipeline/config", test_pipeline_config);
  g_test_add_func ("/http/custom-pointers", test_http_custom_pointers);
  g_test_add_func ("/http/samples", test_http_samples);
  g_test_add_func ("/http/sample-retried", test_http_sample_retried);
  g_test_add_func ("/http/statistics", test_http_statistics);
  g_test_add_func ("/http/sample-failed", test_http_sample_failed);
  g_test_add_func ("/http/sample-failed-results", test_http_sample_failed_results);
  g_test_add_func ("/http/defaults", test_http_defaults);
  g_test_add_func ("/http/null", test_http_null);
  g_test_add_func ("/http/pointers", test_http_pointers);
  g_test_add_func ("/http/retry", test_http_retry);
  g_test_add_func ("/http/unauthorized", test_http_unauthorized);
  g_test_add_func ("/http/bad-replies", test_http_bad_replies);
  g_test_add_func ("/http/pointer-miss-shows-keys", test_http_pointer_miss_shows_keys);
  g_test_add_func ("/http/timeout", test_http_timeout);
  g_test_add_func ("/http/cancel", test_http_cancel);
  g_test_add_func ("/http/cancel-backoff", test_http_cancel_backoff);
  g_test_add_func ("/http/cancel-backoff-prompt", test_http_cancel_backoff_prompt);
  g_test_add_func ("/http/concurrent", test_http_concurrent);
  g_test_add_func ("/http/config", test_http_config);
  g_test_add_func ("/http/query-pointer", test_http_query_pointer);
  g_test_add_func ("/http/unreported", test_http_unreported);
  g_test_add_func ("/http/reports-documents-config", test_http_reports_documents_config);
  g_test_add_func ("/http/results-file", test_http_results_file);
  g_test_add_func ("/http/probe", test_http_probe);

  status = g_test_run ();
  service_stop ();
  return status;
}
