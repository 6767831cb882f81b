/* grammar-llm-judge-matcher.c: the `llm-judge` matcher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-llm-judge-matcher.h"
#include "grammar-text-matcher.h"

/*
 * GrammarLlmJudgeMatcher:
 *
 * Asks a language model, with the prompt of the GRAMMAR paper (Table 5,
 * "Ours"), whether the response matches the true answer. The reply is
 * read for its first decisive word: "Correct" or "Incorrect", in any
 * case, with any markup around it; "not correct" is incorrect. A reply
 * without such a word is unmeasured and kept in the reason; so is a
 * request that fails (the error message is the reason). Cancelling the
 * request is an error, not a verdict.
 *
 * The true answer is shown as the value itself when there is one; rows
 * of several values are shown with their cells joined by ", " and the
 * rows by "; ".
 */

#define MATCHER_NAME "llm-judge"
#define REPLY_CHARS 200

/* GRAMMAR paper, Table 5, "Ours". */
#define DEFAULT_PROMPT \
  "Evaluate the accuracy of the given response in relation to the true answer for the specified query. " \
  "After evaluating, provide a judgement as either \"Correct\" or \"Incorrect\" based on whether the " \
  "##Given Response## accurately matches the ##True Answer##.\n" \
  "##Query##: {query}\n" \
  "##True Answer##: {true_answer}\n" \
  "##Given Response##: {given_response}\n" \
  "##Judgement##:"

struct _GrammarLlmJudgeMatcher
{
  GObject parent_instance;

  GrammarLlm *llm;
  char *prompt;
  double temperature;
  guint max_tokens;
};

enum
{
  PROP_0,
  PROP_LLM,
  PROP_PROMPT,
  PROP_TEMPERATURE,
  PROP_MAX_TOKENS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_llm_judge_matcher_matcher_iface_init  (GrammarMatcherInterface *iface);
static void grammar_llm_judge_matcher_initable_iface_init (GInitableIface          *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarLlmJudgeMatcher, grammar_llm_judge_matcher, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_MATCHER,
                                                               grammar_llm_judge_matcher_matcher_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_llm_judge_matcher_initable_iface_init))

/* ---- the prompt ---- */

static char *
true_answer_text (GPtrArray *values,
                  GArray    *row_starts)
{
  GString *text = g_string_new (NULL);

  for (guint r = 0; r + 1 < row_starts->len; r++)
    {
      guint first = g_array_index (row_starts, guint, r), last = g_array_index (row_starts, guint, r + 1);

      if (r > 0)
        g_string_append (text, "; ");
      for (guint v = first; v < last; v++)
        g_string_append_printf (text, "%s%s", v > first ? ", " : "", (const char *) g_ptr_array_index (values, v));
    }
  return g_string_free (text, FALSE);
}

/* Fills the three fields in one pass, so that a response that contains
 * "{query}" stays as it was. */
static char *
fill_prompt (const char *prompt,
             const char *query,
             const char *true_answer,
             const char *response)
{
  static const char * const fields[] = { "{query}", "{true_answer}", "{given_response}" };
  const char *values[] = { query, true_answer, response };
  GString *text = g_string_new (NULL);
  const char *p = prompt;

  while (*p != '\0')
    {
      gsize i;

      for (i = 0; i < G_N_ELEMENTS (fields); i++)
        if (g_str_has_prefix (p, fields[i]))
          break;
      if (i < G_N_ELEMENTS (fields))
        {
          g_string_append (text, values[i]);
          p += strlen (fields[i]);
        }
      else
        g_string_append_c (text, *p++);
    }
  return g_string_free (text, FALSE);
}

/* ---- the reply ---- */

/* The first decisive word of @reply: "correct" or "incorrect", whole
 * words in any case ("**Correct**", "Judgement: incorrect."), "not
 * correct" being incorrect. */
static gboolean
parse_reply (const char         *reply,
             GrammarVerdictKind *kind)
{
  g_autofree char *folded = g_utf8_casefold (reply, -1);
  g_autofree char *previous = NULL;
  const char *p = folded;

  while (*p != '\0')
    {
      GString *word;

      if (!g_unichar_isalpha (g_utf8_get_char (p)))
        {
          p = g_utf8_next_char (p);
          continue;
        }
      word = g_string_new (NULL);
      while (*p != '\0' && (g_unichar_isalpha (g_utf8_get_char (p)) || *p == '\''))
        {
          if (*p != '\'')
            g_string_append_unichar (word, g_utf8_get_char (p));
          p = g_utf8_next_char (p);
        }
      if (g_str_equal (word->str, "incorrect"))
        *kind = GRAMMAR_VERDICT_INCORRECT;
      else if (g_str_equal (word->str, "correct"))
        *kind = previous != NULL && (g_str_equal (previous, "not") || g_str_equal (previous, "isnt"))
                  ? GRAMMAR_VERDICT_INCORRECT : GRAMMAR_VERDICT_CORRECT;
      else
        {
          g_free (previous);
          previous = g_string_free (word, FALSE);
          continue;
        }
      g_string_free (word, TRUE);
      return TRUE;
    }
  return FALSE;
}

/* @reply on one line, at most about 200 characters. */
static char *
shorten (const char *reply)
{
  g_autofree char *flat = g_strstrip (g_strdup (reply));

  g_strdelimit (flat, "\n\r\t", ' ');
  if (g_utf8_strlen (flat, -1) > REPLY_CHARS)
    {
      const char *cut = g_utf8_offset_to_pointer (flat, REPLY_CHARS);

      return g_strdup_printf ("%.*s…", (int) (cut - flat), flat);
    }
  return g_steal_pointer (&flat);
}

static GrammarVerdict *
verdict_of_reply (const char *reply)
{
  g_autofree char *shown = shorten (reply != NULL ? reply : "");
  g_autofree char *reason = NULL;
  GrammarVerdictKind kind = GRAMMAR_VERDICT_UNMEASURED;

  if (reply == NULL || !parse_reply (reply, &kind))
    {
      reason = g_strdup_printf ("the judge's reply has neither Correct nor Incorrect: “%s”", shown);
      return grammar_verdict_new (GRAMMAR_VERDICT_UNMEASURED, 0.0, reason, MATCHER_NAME);
    }
  reason = g_strdup_printf ("the judge replied “%s”", shown);
  return grammar_verdict_new (kind, kind == GRAMMAR_VERDICT_CORRECT ? 1.0 : 0.0, reason, MATCHER_NAME);
}

/* ---- judging ---- */

static void
on_chat_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *reason = NULL;

  response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &error);
  if (response != NULL)
    {
      g_task_return_pointer (task, verdict_of_reply (grammar_chat_response_get_text (response)), g_object_unref);
      return;
    }
  /* Stopping the run is not a verdict on the response. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  reason = g_strdup_printf ("the judge failed: %s", error->message);
  g_task_return_pointer (task, grammar_verdict_new (GRAMMAR_VERDICT_UNMEASURED, 0.0, reason, MATCHER_NAME),
                         g_object_unref);
}

static GrammarChatRequest *
build_request (GrammarLlmJudgeMatcher *self,
               GrammarRecord          *record,
               GPtrArray              *values,
               GArray                 *row_starts)
{
  GrammarChatRequest *request = grammar_chat_request_new ();
  const char *query = grammar_record_get_text (record);
  g_autofree char *answer = true_answer_text (values, row_starts);
  g_autofree char *prompt = fill_prompt (self->prompt, query != NULL ? query : "", answer,
                                         grammar_record_get_response (record));

  grammar_chat_request_add_message (request, "user", prompt);
  if (self->temperature >= 0)
    grammar_chat_request_set_temperature (request, self->temperature);
  if (self->max_tokens > 0)
    grammar_chat_request_set_max_tokens (request, self->max_tokens);
  return request;
}

static void
grammar_llm_judge_matcher_judge_async (GrammarMatcher      *matcher,
                                       GrammarRecord       *record,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GrammarLlmJudgeMatcher *self = GRAMMAR_LLM_JUDGE_MATCHER (matcher);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) row_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GrammarChatRequest) request = NULL;
  GrammarVerdict *verdict;

  g_task_set_source_tag (task, grammar_llm_judge_matcher_judge_async);
  verdict = grammar_text_matcher_check_record (record, MATCHER_NAME, values, row_starts);
  if (verdict != NULL)
    {
      g_task_return_pointer (task, verdict, g_object_unref);
      return;
    }
  if (self->llm == NULL)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                               "the llm-judge matcher has no language model (llm)");
      return;
    }
  request = build_request (self, record, values, row_starts);
  grammar_llm_chat_async (self->llm, request, cancellable, on_chat_done, g_steal_pointer (&task));
}

static GrammarVerdict *
grammar_llm_judge_matcher_judge_finish (GrammarMatcher  *matcher,
                                        GAsyncResult    *result,
                                        GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, matcher), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_llm_judge_matcher_matcher_iface_init (GrammarMatcherInterface *iface)
{
  iface->judge_async = grammar_llm_judge_matcher_judge_async;
  iface->judge_finish = grammar_llm_judge_matcher_judge_finish;
}

/* ---- construction ---- */

static gboolean
grammar_llm_judge_matcher_initable_init (GInitable     *initable,
                                         GCancellable  *cancellable,
                                         GError       **error)
{
  GrammarLlmJudgeMatcher *self = GRAMMAR_LLM_JUDGE_MATCHER (initable);

  if (self->llm == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "llm is required: the name of the section of a language model (e.g. llm=judge-llm)");
      return FALSE;
    }
  /* Without them the judge compares nothing: surely a mistake. */
  if (self->prompt == NULL || strstr (self->prompt, "{true_answer}") == NULL ||
      strstr (self->prompt, "{given_response}") == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "prompt must contain both {true_answer} and {given_response}");
      return FALSE;
    }
  return TRUE;
}

static void
grammar_llm_judge_matcher_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_llm_judge_matcher_initable_init;
}

static void
grammar_llm_judge_matcher_dispose (GObject *object)
{
  GrammarLlmJudgeMatcher *self = GRAMMAR_LLM_JUDGE_MATCHER (object);

  g_clear_object (&self->llm);

  G_OBJECT_CLASS (grammar_llm_judge_matcher_parent_class)->dispose (object);
}

static void
grammar_llm_judge_matcher_finalize (GObject *object)
{
  GrammarLlmJudgeMatcher *self = GRAMMAR_LLM_JUDGE_MATCHER (object);

  g_free (self->prompt);

  G_OBJECT_CLASS (grammar_llm_judge_matcher_parent_class)->finalize (object);
}

static void
grammar_llm_judge_matcher_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  GrammarLlmJudgeMatcher *self = GRAMMAR_LLM_JUDGE_MATCHER (object);

  switch (prop_id)
    {
    case PROP_LLM: g_value_set_object (value, self->llm); break;
    case PROP_PROMPT: g_value_set_string (value, self->prompt); break;
    case PROP_TEMPERATURE: g_value_set_double (value, self->temperature); break;
    case PROP_MAX_TOKENS: g_value_set_uint (value, self->max_tokens); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_llm_judge_matcher_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  GrammarLlmJudgeMatcher *self = GRAMMAR_LLM_JUDGE_MATCHER (object);

  switch (prop_id)
    {
    case PROP_LLM: g_set_object (&self->llm, g_value_get_object (value)); break;
    case PROP_PROMPT:
      g_free (self->prompt);
      self->prompt = g_value_dup_string (value);
      break;
    case PROP_TEMPERATURE: self->temperature = g_value_get_double (value); break;
    case PROP_MAX_TOKENS: self->max_tokens = g_value_get_uint (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_llm_judge_matcher_class_init (GrammarLlmJudgeMatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = grammar_llm_judge_matcher_dispose;
  object_class->finalize = grammar_llm_judge_matcher_finalize;
  object_class->get_property = grammar_llm_judge_matcher_get_property;
  object_class->set_property = grammar_llm_judge_matcher_set_property;

  properties[PROP_LLM] =
    g_param_spec_object ("llm", NULL, "The section of the language model that judges (required)",
                         GRAMMAR_TYPE_LLM, flags);
  grammar_param_spec_set_required (properties[PROP_LLM],
                                   "name the section of a language model, such as llm=judge-llm");
  properties[PROP_PROMPT] =
    g_param_spec_string ("prompt", NULL,
                         "The judge's prompt; {query}, {true_answer} and {given_response} are filled in "
                         "(default: the GRAMMAR paper's)",
                         DEFAULT_PROMPT, flags);
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, "The sampling temperature asked for; -1: the model's default",
                         -1.0, 2.0, 0.0, flags);
  properties[PROP_MAX_TOKENS] =
    g_param_spec_uint ("max-tokens", NULL, "The most tokens of the judge's reply; 0: unset",
                       0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_llm_judge_matcher_class_finalize (GrammarLlmJudgeMatcherClass *klass)
{
}

static void
grammar_llm_judge_matcher_init (GrammarLlmJudgeMatcher *self)
{
  self->prompt = g_strdup (DEFAULT_PROMPT);
}

void
grammar_llm_judge_matcher_register (GTypeModule *module)
{
  grammar_llm_judge_matcher_register_type (module);
}
