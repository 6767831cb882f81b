/* grammar-pipeline-system.c: a retriever and a language model as the system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-pipeline-system.h"

/**
 * GrammarPipelineSystem:
 *
 * The `pipeline` system: the classic retrieval-augmented generation
 * loop. The #GrammarPipelineSystem:retriever finds the documents for a
 * query; their texts, in rank order and joined by a blank line, fill
 * `{context}` of the #GrammarPipelineSystem:prompt, up to
 * #GrammarPipelineSystem:context-chars characters; the query fills
 * `{question}`; the #GrammarPipelineSystem:generator answers the prompt.
 *
 * The answer carries every hit the retriever returned, even one the
 * character budget left out of the prompt.
 *
 * With #GrammarPipelineSystem:samples N, the generator is asked once
 * more, the same prompt for N choices at
 * #GrammarPipelineSystem:sample-temperature (one request: a server that
 * supports `n` answers it at once), and the answer carries them as its
 * samples, for SelfCheck-style metrics. The response itself stays at
 * #GrammarPipelineSystem:temperature.
 */

#define DEFAULT_PROMPT \
  "Answer the question using only the context below. If the context does not contain the answer, " \
  "say that you don't know.\n\nContext:\n{context}\n\nQuestion: {question}\nAnswer:"
#define DEFAULT_CONTEXT_CHARS 6000
#define CONTEXT_SEPARATOR "\n\n"

struct _GrammarPipelineSystem
{
  GObject parent_instance;

  GrammarRetriever *retriever;
  GrammarLlm *generator;
  guint top_k;
  guint context_chars;
  char *prompt;
  char *system_prompt;
  double temperature;
  guint max_tokens;
  guint samples;
  double sample_temperature;
};

enum
{
  PROP_0,
  PROP_RETRIEVER,
  PROP_GENERATOR,
  PROP_TOP_K,
  PROP_CONTEXT_CHARS,
  PROP_PROMPT,
  PROP_SYSTEM_PROMPT,
  PROP_TEMPERATURE,
  PROP_MAX_TOKENS,
  PROP_SAMPLES,
  PROP_SAMPLE_TEMPERATURE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_pipeline_system_system_iface_init   (GrammarSystemInterface *iface);
static void grammar_pipeline_system_initable_iface_init (GInitableIface         *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarPipelineSystem, grammar_pipeline_system, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_SYSTEM,
                                                               grammar_pipeline_system_system_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_pipeline_system_initable_iface_init))

/* ---- the prompt ---- */

/* Appends at most @budget characters of @text, cut at a character
 * boundary; returns how many characters were appended. */
static guint
append_chars (GString    *string,
              const char *text,
              guint       budget)
{
  glong length = g_utf8_strlen (text, -1);
  const char *end;

  if ((gulong) length <= budget)
    {
      g_string_append (string, text);
      return (guint) length;
    }
  end = g_utf8_offset_to_pointer (text, budget);
  g_string_append_len (string, text, end - text);
  return budget;
}

/* The texts of @hits in rank order, joined by a blank line, at most
 * @limit characters in all (separators included); 0: no limit. */
static char *
build_context (GPtrArray *hits,
               guint      limit)
{
  GString *context = g_string_new (NULL);
  const guint separator_chars = (guint) strlen (CONTEXT_SEPARATOR);
  guint used = 0;

  for (guint i = 0; i < hits->len; i++)
    {
      const char *text = grammar_hit_get_text (g_ptr_array_index (hits, i));
      g_autofree char *valid = NULL;
      guint budget;

      if (text == NULL || text[0] == '\0')
        continue;
      /* A retriever may hand over text it did not check; never send
       * broken UTF-8 on, nor cut inside it. */
      if (!g_utf8_validate (text, -1, NULL))
        text = valid = g_utf8_make_valid (text, -1);
      if (context->len > 0)
        {
          if (limit > 0 && used + separator_chars >= limit)
            break;
          g_string_append (context, CONTEXT_SEPARATOR);
          used += separator_chars;
        }
      budget = limit > 0 ? limit - used : G_MAXUINT;
      if (budget == 0)
        break;
      used += append_chars (context, text, budget);
    }
  return g_string_free (context, FALSE);
}

/* Fills {context} and {question} in one pass, so that a question
 * containing "{context}" stays as asked. Other braces are kept. */
static char *
fill_prompt (const char *prompt,
             const char *context,
             const char *question)
{
  GString *text = g_string_new (NULL);
  const char *p = prompt;

  while (*p != '\0')
    {
      if (g_str_has_prefix (p, "{context}"))
        {
          g_string_append (text, context);
          p += strlen ("{context}");
        }
      else if (g_str_has_prefix (p, "{question}"))
        {
          g_string_append (text, question);
          p += strlen ("{question}");
        }
      else
        g_string_append_c (text, *p++);
    }
  return g_string_free (text, FALSE);
}

static GrammarChatRequest *
build_request (GrammarPipelineSystem *self,
               const char            *query,
               GPtrArray             *hits)
{
  GrammarChatRequest *request = grammar_chat_request_new ();
  g_autofree char *context = build_context (hits, self->context_chars);
  g_autofree char *prompt = fill_prompt (self->prompt, context, query);

  if (self->system_prompt != NULL && self->system_prompt[0] != '\0')
    grammar_chat_request_add_message (request, "system", self->system_prompt);
  grammar_chat_request_add_message (request, "user", prompt);
  if (self->temperature >= 0)
    grammar_chat_request_set_temperature (request, self->temperature);
  if (self->max_tokens > 0)
    grammar_chat_request_set_max_tokens (request, self->max_tokens);
  return request;
}

/* ---- answering ---- */

typedef struct
{
  char *query;
  GPtrArray *hits;      /* GrammarHit */
  GrammarChatRequest *request;
  char *response;       /* once the generator answered */
} AnswerOp;

static void
answer_op_free (AnswerOp *op)
{
  g_free (op->query);
  g_clear_object (&op->request);
  g_free (op->response);
  g_clear_pointer (&op->hits, g_ptr_array_unref);
  g_free (op);
}

static void
on_samples_done (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  AnswerOp *op = g_task_get_task_data (task);
  g_autoptr (GrammarChatResponse) response = NULL;
  GrammarAnswer *answer;
  GError *error = NULL;

  response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &error);
  if (response == NULL)
    {
      g_prefix_error (&error, "generator (samples): ");
      g_task_return_error (task, error);
      return;
    }
  answer = grammar_answer_new (op->response, op->hits);
  grammar_answer_set_samples (answer, grammar_chat_response_get_choices (response));
  g_task_return_pointer (task, answer, g_object_unref);
}

static void
on_chat_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarPipelineSystem *self = g_task_get_source_object (task);
  AnswerOp *op = g_task_get_task_data (task);
  g_autoptr (GrammarChatResponse) response = NULL;
  GCancellable *cancellable;
  GError *error = NULL;
  const char *text;

  response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &error);
  if (response == NULL)
    {
      g_prefix_error (&error, "generator: ");
      g_task_return_error (task, error);
      return;
    }
  text = grammar_chat_response_get_text (response);
  if (self->samples == 0)
    {
      g_task_return_pointer (task, grammar_answer_new (text != NULL ? text : "", op->hits), g_object_unref);
      return;
    }
  /* The same prompt again, for the samples. */
  op->response = g_strdup (text != NULL ? text : "");
  grammar_chat_request_set_temperature (op->request, self->sample_temperature);
  grammar_chat_request_set_n (op->request, self->samples);
  cancellable = g_task_get_cancellable (task);
  grammar_llm_chat_async (self->generator, op->request, cancellable, on_samples_done, g_steal_pointer (&task));
}

static void
on_retrieved (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarPipelineSystem *self = g_task_get_source_object (task);
  AnswerOp *op = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;

  op->hits = grammar_retriever_retrieve_finish (GRAMMAR_RETRIEVER (source), result, &error);
  if (op->hits == NULL)
    {
      if (error == NULL)
        error = g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "returned no hit list");
      g_prefix_error (&error, "retriever: ");
      g_task_return_error (task, error);
      return;
    }
  op->request = build_request (self, op->query, op->hits);
  grammar_llm_chat_async (self->generator, op->request, cancellable, on_chat_done, g_steal_pointer (&task));
}

static void
grammar_pipeline_system_answer_async (GrammarSystem       *system,
                                      const char          *query,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  GrammarPipelineSystem *self = GRAMMAR_PIPELINE_SYSTEM (system);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  AnswerOp *op = g_new0 (AnswerOp, 1);

  g_task_set_source_tag (task, grammar_pipeline_system_answer_async);
  op->query = g_strdup (query);
  g_task_set_task_data (task, op, (GDestroyNotify) answer_op_free);

  if (self->retriever == NULL || self->generator == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "the pipeline system needs a retriever and a generator");
      g_object_unref (task);
      return;
    }
  grammar_retriever_retrieve_async (self->retriever, query, self->top_k, cancellable, on_retrieved, task);
}

static GrammarAnswer *
grammar_pipeline_system_answer_finish (GrammarSystem  *system,
                                       GAsyncResult   *result,
                                       GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, system), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- construction ---- */

static gboolean
grammar_pipeline_system_initable_init (GInitable     *initable,
                                       GCancellable  *cancellable,
                                       GError       **error)
{
  GrammarPipelineSystem *self = GRAMMAR_PIPELINE_SYSTEM (initable);

  if (self->retriever == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "retriever is required: the name of the section of a retriever (e.g. retriever=retriever)");
      return FALSE;
    }
  if (self->generator == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "generator is required: the name of the section of a language model (e.g. generator=llm)");
      return FALSE;
    }
  /* Without either field the retrieval or the question never reaches
   * the model: surely a mistake in the prompt. */
  if (self->prompt == NULL || strstr (self->prompt, "{question}") == NULL ||
      strstr (self->prompt, "{context}") == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "prompt must contain both {context} and {question}");
      return FALSE;
    }
  return TRUE;
}

static void
grammar_pipeline_system_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_pipeline_system_initable_init;
}

static void
grammar_pipeline_system_system_iface_init (GrammarSystemInterface *iface)
{
  iface->answer_async = grammar_pipeline_system_answer_async;
  iface->answer_finish = grammar_pipeline_system_answer_finish;
}

static void
grammar_pipeline_system_dispose (GObject *object)
{
  GrammarPipelineSystem *self = GRAMMAR_PIPELINE_SYSTEM (object);

  g_clear_object (&self->retriever);
  g_clear_object (&self->generator);

  G_OBJECT_CLASS (grammar_pipeline_system_parent_class)->dispose (object);
}

static void
grammar_pipeline_system_finalize (GObject *object)
{
  GrammarPipelineSystem *self = GRAMMAR_PIPELINE_SYSTEM (object);

  g_free (self->prompt);
  g_free (self->system_prompt);

  G_OBJECT_CLASS (grammar_pipeline_system_parent_class)->finalize (object);
}

static void
grammar_pipeline_system_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GrammarPipelineSystem *self = GRAMMAR_PIPELINE_SYSTEM (object);

  switch (prop_id)
    {
    case PROP_RETRIEVER: g_value_set_object (value, self->retriever); break;
    case PROP_GENERATOR: g_value_set_object (value, self->generator); break;
    case PROP_TOP_K: g_value_set_uint (value, self->top_k); break;
    case PROP_CONTEXT_CHARS: g_value_set_uint (value, self->context_chars); break;
    case PROP_PROMPT: g_value_set_string (value, self->prompt); break;
    case PROP_SYSTEM_PROMPT: g_value_set_string (value, self->system_prompt); break;
    case PROP_TEMPERATURE: g_value_set_double (value, self->temperature); break;
    case PROP_MAX_TOKENS: g_value_set_uint (value, self->max_tokens); break;
    case PROP_SAMPLES: g_value_set_uint (value, self->samples); break;
    case PROP_SAMPLE_TEMPERATURE: g_value_set_double (value, self->sample_temperature); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_pipeline_system_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GrammarPipelineSystem *self = GRAMMAR_PIPELINE_SYSTEM (object);

  switch (prop_id)
    {
    case PROP_RETRIEVER: g_set_object (&self->retriever, g_value_get_object (value)); break;
    case PROP_GENERATOR: g_set_object (&self->generator, g_value_get_object (value)); break;
    case PROP_TOP_K: self->top_k = g_value_get_uint (value); break;
    case PROP_CONTEXT_CHARS: self->context_chars = g_value_get_uint (value); break;
    case PROP_PROMPT:
      g_free (self->prompt);
      self->prompt = g_value_dup_string (value);
      break;
    case PROP_SYSTEM_PROMPT:
      g_free (self->system_prompt);
      self->system_prompt = g_value_dup_string (value);
      break;
    case PROP_TEMPERATURE: self->temperature = g_value_get_double (value); break;
    case PROP_MAX_TOKENS: self->max_tokens = g_value_get_uint (value); break;
    case PROP_SAMPLES: self->samples = g_value_get_uint (value); break;
    case PROP_SAMPLE_TEMPERATURE: self->sample_temperature = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_pipeline_system_class_init (GrammarPipelineSystemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = grammar_pipeline_system_dispose;
  object_class->finalize = grammar_pipeline_system_finalize;
  object_class->get_property = grammar_pipeline_system_get_property;
  object_class->set_property = grammar_pipeline_system_set_property;

  properties[PROP_RETRIEVER] =
    g_param_spec_object ("retriever", NULL, "The section of the retriever that finds the context (required)",
                         GRAMMAR_TYPE_RETRIEVER, flags);
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, "The section of the language model that answers (required)",
                         GRAMMAR_TYPE_LLM, flags);
  properties[PROP_TOP_K] =
    g_param_spec_uint ("top-k", NULL, "How many documents to retrieve; 0: the retriever's own top-k",
                       0, G_MAXUINT, 0, flags);
  properties[PROP_CONTEXT_CHARS] =
    g_param_spec_uint ("context-chars", NULL,
                       "The most characters of context in the prompt, the last document cut; 0: no limit",
                       0, G_MAXUINT, DEFAULT_CONTEXT_CHARS, flags);
  properties[PROP_PROMPT] =
    g_param_spec_string ("prompt", NULL, "The user message; {context} and {question} are filled in",
                         DEFAULT_PROMPT, flags);
  properties[PROP_SYSTEM_PROMPT] =
    g_param_spec_string ("system-prompt", NULL, "A system message sent before the prompt; empty: none",
                         "", flags);
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, "The sampling temperature asked for; -1: the model's default",
                         -1.0, 2.0, 0.0, flags);
  properties[PROP_MAX_TOKENS] =
    g_param_spec_uint ("max-tokens", NULL, "The most tokens of an answer; 0: unset", 0, G_MAXUINT, 0, flags);
  properties[PROP_SAMPLES] =
    g_param_spec_uint ("samples", NULL,
                       "Stochastic samples asked for besides the response (for SelfCheck); 0: none",
                       0, 100, 0, flags);
  properties[PROP_SAMPLE_TEMPERATURE] =
    g_param_spec_double ("sample-temperature", NULL, "The sampling temperature of the samples",
                         0.0, 2.0, 1.0, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_pipeline_system_class_finalize (GrammarPipelineSystemClass *klass)
{
}

static void
grammar_pipeline_system_init (GrammarPipelineSystem *self)
{
  self->context_chars = DEFAULT_CONTEXT_CHARS;
  self->sample_temperature = 1.0;
  self->prompt = g_strdup (DEFAULT_PROMPT);
  self->system_prompt = g_strdup ("");
}

void
grammar_pipeline_system_register (GTypeModule *module)
{
  grammar_pipeline_system_register_type (module);
}
