/* rag-test-system.c: a system under test and a language model for the
 * `grammar rag` tests, as a GIO module.
 *
 * Keyfile:
 *   [system]
 *   plugin=rag-test
 *   fail-text=boom        ; a query containing this text fails
 *   fail-while-env=DOWN   ; only while this environment variable is set
 *   log=asked.txt         ; every query asked is appended, one a line
 *   delay-ms=5            ; the answer comes back after this long
 *   generator=llm         ; optional: the response is this model's reply
 *   documents=false       ; reports no documents (retrieval unmeasured)
 *
 *   [llm]
 *   plugin=rag-test
 *   reply=Paris
 *
 * The system answers "answer to: QUERY" (or the model's reply) and
 * reports two retrieved documents, or none with documents=false. The model counts its requests in the
 * read-only property `requests`, as the openai plugin does, so that the
 * command's statistics line can be checked; the system counts its
 * queries in `requests` and those that failed in `failures`, as the
 * http system does, for the `system:` line.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <grammar.h>

/* The language model ------------------------------------------------------------ */

#define RAG_TEST_TYPE_LLM (rag_test_llm_get_type ())
G_DECLARE_FINAL_TYPE (RagTestLlm, rag_test_llm, RAG_TEST, LLM, GObject)

struct _RagTestLlm
{
  GObject parent_instance;

  char *reply;
  guint64 requests;
};

enum { LLM_PROP_0, LLM_PROP_REPLY, LLM_PROP_REQUESTS };

static void rag_test_llm_iface_init (GrammarLlmInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (RagTestLlm, rag_test_llm, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_LLM, rag_test_llm_iface_init))

static void
rag_test_llm_chat_async (GrammarLlm          *llm,
                         GrammarChatRequest  *request,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  RagTestLlm *self = RAG_TEST_LLM (llm);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  const char *choices[] = { self->reply != NULL ? self->reply : "", NULL };

  self->requests++;
  g_task_return_pointer (task, grammar_chat_response_new (choices, "rag-test", 10, 1), g_object_unref);
}

static GrammarChatResponse *
rag_test_llm_chat_finish (GrammarLlm    *llm,
                          GAsyncResult  *result,
                          GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
rag_test_llm_iface_init (GrammarLlmInterface *iface)
{
  iface->chat_async = rag_test_llm_chat_async;
  iface->chat_finish = rag_test_llm_chat_finish;
}

static void
rag_test_llm_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  RagTestLlm *self = RAG_TEST_LLM (object);

  g_free (self->reply);
  self->reply = g_value_dup_string (value);
}

static void
rag_test_llm_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  RagTestLlm *self = RAG_TEST_LLM (object);

  if (prop_id == LLM_PROP_REPLY)
    g_value_set_string (value, self->reply);
  else
    g_value_set_uint64 (value, self->requests);
}

static void
rag_test_llm_finalize (GObject *object)
{
  g_free (RAG_TEST_LLM (object)->reply);
  G_OBJECT_CLASS (rag_test_llm_parent_class)->finalize (object);
}

static void
rag_test_llm_class_init (RagTestLlmClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = rag_test_llm_set_property;
  object_class->get_property = rag_test_llm_get_property;
  object_class->finalize = rag_test_llm_finalize;
  g_object_class_install_property (object_class, LLM_PROP_REPLY,
    g_param_spec_string ("reply", NULL, "The reply to every request", NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, LLM_PROP_REQUESTS,
    g_param_spec_uint64 ("requests", NULL, "Requests answered", 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
rag_test_llm_class_finalize (RagTestLlmClass *klass)
{
}

static void
rag_test_llm_init (RagTestLlm *self)
{
}

/* The system ------------------------------------------------------------------- */

#define RAG_TEST_TYPE_SYSTEM (rag_test_system_get_type ())
G_DECLARE_FINAL_TYPE (RagTestSystem, rag_test_system, RAG_TEST, SYSTEM, GObject)

struct _RagTestSystem
{
  GObject parent_instance;

  char *fail_text;
  char *fail_while;
  guint64 requests;
  guint64 failures;
  char *log;
  guint delay_ms;
  GrammarLlm *generator;
  gboolean no_documents;
};

enum { SYS_PROP_0, SYS_PROP_FAIL_TEXT, SYS_PROP_LOG, SYS_PROP_DELAY_MS, SYS_PROP_GENERATOR, SYS_PROP_DOCUMENTS,
       SYS_PROP_FAIL_WHILE, SYS_PROP_REQUESTS, SYS_PROP_FAILURES };

static void rag_test_system_iface_init (GrammarSystemInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (RagTestSystem, rag_test_system, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_SYSTEM, rag_test_system_iface_init))

static void
log_query (RagTestSystem *self,
           const char    *query)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileOutputStream) stream = NULL;
  g_autofree char *line = NULL;

  if (self->log == NULL)
    return;
  file = g_file_new_for_path (self->log);
  stream = g_file_append_to (file, G_FILE_CREATE_NONE, NULL, NULL);
  line = g_strconcat (query, "\n", NULL);
  if (stream != NULL)
    g_output_stream_write_all (G_OUTPUT_STREAM (stream), line, strlen (line), NULL, NULL, NULL);
}

static void
return_answer (GTask      *task,
               const char *response)
{
  RagTestSystem *self = g_task_get_source_object (task);
  g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->no_documents)
    {
      g_task_return_pointer (task, grammar_answer_new (response, NULL), g_object_unref);
      return;
    }

  g_ptr_array_add (hits, grammar_hit_new ("doc-1", 2.5, "The first document."));
  g_ptr_array_add (hits, grammar_hit_new ("doc-2", 1.0, NULL));
  g_task_return_pointer (task, grammar_answer_new (response, hits), g_object_unref);
}

static void
on_generated (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  g_autoptr (GrammarChatResponse) response = NULL;
  GError *error = NULL;

  response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &error);
  if (response == NULL)
    g_task_return_error (task, error);
  else
    return_answer (task, grammar_chat_response_get_text (response));
}

static gboolean
answer_now (gpointer user_data)
{
  GTask *task = user_data;
  RagTestSystem *self = g_task_get_source_object (task);
  const char *query = g_task_get_task_data (task);
  g_autofree char *response = NULL;

  self->requests++;
  if (self->fail_text != NULL && strstr (query, self->fail_text) != NULL &&
      (self->fail_while == NULL || g_getenv (self->fail_while) != NULL))
    {
      self->failures++;
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "rag-test fails on “%s”", self->fail_text);
      return G_SOURCE_REMOVE;
    }
  if (self->generator != NULL)
    {
      g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();

      grammar_chat_request_add_message (request, "user", query);
      grammar_llm_chat_async (self->generator, request, g_task_get_cancellable (task),
                              on_generated, g_object_ref (task));
      return G_SOURCE_REMOVE;
    }
  response = g_strconcat ("answer to: ", query, NULL);
  return_answer (task, response);
  return G_SOURCE_REMOVE;
}

static void
rag_test_system_answer_async (GrammarSystem       *system,
                              const char          *query,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  RagTestSystem *self = RAG_TEST_SYSTEM (system);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GSource) source = g_timeout_source_new (self->delay_ms);

  log_query (self, query);
  g_task_set_task_data (task, g_strdup (query), g_free);
  g_task_attach_source (task, source, answer_now);
  g_object_unref (task);  /* the source holds it */
}

static GrammarAnswer *
rag_test_system_answer_finish (GrammarSystem  *system,
                               GAsyncResult   *result,
                               GError        **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
rag_test_system_iface_init (GrammarSystemInterface *iface)
{
  iface->answer_async = rag_test_system_answer_async;
  iface->answer_finish = rag_test_system_answer_finish;
}

static void
rag_test_system_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  RagTestSystem *self = RAG_TEST_SYSTEM (object);

  switch (prop_id)
    {
    case SYS_PROP_FAIL_TEXT:
      g_free (self->fail_text);
      self->fail_text = g_value_dup_string (value);
      break;
    case SYS_PROP_LOG:
      g_free (self->log);
      self->log = g_value_dup_string (value);
      break;
    case SYS_PROP_FAIL_WHILE:
      g_free (self->fail_while);
      self->fail_while = g_value_dup_string (value);
      break;
    case SYS_PROP_DELAY_MS:
      self->delay_ms = g_value_get_uint (value);
      break;
    case SYS_PROP_GENERATOR:
      g_set_object (&self->generator, g_value_get_object (value));
      break;
    case SYS_PROP_DOCUMENTS:
      self->no_documents = !g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rag_test_system_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  RagTestSystem *self = RAG_TEST_SYSTEM (object);

  switch (prop_id)
    {
    case SYS_PROP_FAIL_TEXT:
      g_value_set_string (value, self->fail_text);
      break;
    case SYS_PROP_LOG:
      g_value_set_string (value, self->log);
      break;
    case SYS_PROP_FAIL_WHILE:
      g_value_set_string (value, self->fail_while);
      break;
    case SYS_PROP_REQUESTS:
      g_value_set_uint64 (value, self->requests);
      break;
    case SYS_PROP_FAILURES:
      g_value_set_uint64 (value, self->failures);
      break;
    case SYS_PROP_DELAY_MS:
      g_value_set_uint (value, self->delay_ms);
      break;
    case SYS_PROP_GENERATOR:
      g_value_set_object (value, self->generator);
      break;
    case SYS_PROP_DOCUMENTS:
      g_value_set_boolean (value, !self->no_documents);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rag_test_system_finalize (GObject *object)
{
  RagTestSystem *self = RAG_TEST_SYSTEM (object);

  g_free (self->fail_text);
  g_free (self->fail_while);
  g_free (self->log);
  g_clear_object (&self->generator);
  G_OBJECT_CLASS (rag_test_system_parent_class)->finalize (object);
}

static void
rag_test_system_class_init (RagTestSystemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = rag_test_system_set_property;
  object_class->get_property = rag_test_system_get_property;
  object_class->finalize = rag_test_system_finalize;
  g_object_class_install_property (object_class, SYS_PROP_FAIL_TEXT,
    g_param_spec_string ("fail-text", NULL, "Queries containing this text fail", NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, SYS_PROP_FAIL_WHILE,
    g_param_spec_string ("fail-while-env", NULL, "fail-text fails only while this environment variable is set", NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, SYS_PROP_REQUESTS,
    g_param_spec_uint64 ("requests", NULL, "Queries asked (statistics)", 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, SYS_PROP_FAILURES,
    g_param_spec_uint64 ("failures", NULL, "Queries that failed (statistics)", 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, SYS_PROP_LOG,
    g_param_spec_string ("log", NULL, "A file every query asked is appended to", NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GRAMMAR_PARAM_PATH));
  g_object_class_install_property (object_class, SYS_PROP_DELAY_MS,
    g_param_spec_uint ("delay-ms", NULL, "How long an answer takes, in milliseconds", 0, 10000, 0,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, SYS_PROP_GENERATOR,
    g_param_spec_object ("generator", NULL, "The language model that writes the response", GRAMMAR_TYPE_LLM,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, SYS_PROP_DOCUMENTS,
    g_param_spec_boolean ("documents", NULL, "Reports the retrieved documents; false: none reported", TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
rag_test_system_class_finalize (RagTestSystemClass *klass)
{
}

static void
rag_test_system_init (RagTestSystem *self)
{
}

/* The module ------------------------------------------------------------------- */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  rag_test_llm_register_type (G_TYPE_MODULE (module));
  rag_test_system_register_type (G_TYPE_MODULE (module));
  grammar_registry_implement (GRAMMAR_TYPE_LLM, RAG_TEST_TYPE_LLM, "rag-test", "Replies with a fixed text (tests)");
  grammar_registry_implement (GRAMMAR_TYPE_SYSTEM, RAG_TEST_TYPE_SYSTEM, "rag-test",
                              "Answers without a network, fails on request (tests)");
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  const char * const extension_points[] = {
    GRAMMAR_LLM_EXTENSION_POINT_NAME, GRAMMAR_SYSTEM_EXTENSION_POINT_NAME, NULL
  };

  return g_strdupv ((char **) extension_points);
}
