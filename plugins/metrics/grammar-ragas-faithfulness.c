/* grammar-ragas-faithfulness.c: the `ragas-faithfulness` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-llm-metric.h"
#include "grammar-metric-support.h"
#include "grammar-ragas-faithfulness.h"

/**
 * GrammarRagasFaithfulness:
 *
 * The `ragas-faithfulness` metric: RAGAS's faithfulness in its two
 * steps. A language model breaks the response into atomic statements
 * (given the question), then gives a natural-language-inference verdict
 * on each statement against the retrieved context. The score is the
 * share of statements the context supports.
 *
 * With `variant=ragas` (the default) the verdicts on all statements come
 * from one request, as a JSON array; with `variant=paper` each statement
 * is asked on its own with the GRAMMAR paper's RAGAS-Fact prompt, whose
 * verdicts are `Yes` (1), `No` (0) and `Null` (-1); a statement judged
 * `Null` counts neither way. A reply that cannot be read is asked again
 * (#GrammarRagasFaithfulness:max-attempts); a response without
 * statements, a record without retrieved context and replies that stay
 * unreadable are unmeasured, with the reason. See doc/metrics.md.
 */

#define STATEMENTS_PROMPT \
  "Break the answer to the question below into atomic statements: short sentences that each state " \
  "one fact and can be understood on their own, with names instead of pronouns. Reply with a JSON " \
  "array of strings, one per statement, and nothing else.\n\n" \
  "question: {question}\nanswer: {answer}\nstatements:"

#define VERDICTS_PROMPT \
  "Natural language inference. For each statement below, decide whether the context supports it. " \
  "Reply with a JSON array holding one object per statement, in the order given: " \
  "{\"statement\": the statement, \"reason\": a short explanation, \"verdict\": 1 if the context " \
  "supports the statement, 0 if it does not}.\n\n" \
  "context: {context}\nstatements:\n{statements}\nverdicts:"

#define PAPER_PROMPT \
  "Natural language inference. Use only 'Yes' (1), 'No' (0) and 'Null' (-1) as verdict.\n" \
  "context: {context}\nstatement: {statement}\nverdict:"

struct _GrammarRagasFaithfulness
{
  GrammarLlmMetric parent_instance;
};

static void grammar_ragas_faithfulness_metric_iface_init (GrammarMetricInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarRagasFaithfulness, grammar_ragas_faithfulness, GRAMMAR_TYPE_LLM_METRIC,
                                G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_METRIC,
                                                               grammar_ragas_faithfulness_metric_iface_init))

typedef struct
{
  GrammarRecord *record;
  char *context;
  JsonNode *statements;     /* array of strings */
  JsonBuilder *evidence;    /* an open object */
  guint requests;
  guint64 tokens;
} Scoring;

static void
scoring_free (Scoring *scoring)
{
  g_clear_object (&scoring->record);
  g_free (scoring->context);
  g_clear_pointer (&scoring->statements, json_node_unref);
  g_clear_object (&scoring->evidence);
  g_free (scoring);
}

static void
add_replies (JsonBuilder *evidence,
             GPtrArray   *replies)
{
  json_builder_set_member_name (evidence, "replies");
  json_builder_begin_array (evidence);
  for (guint i = 0; i < replies->len; i++)
    json_builder_add_string_value (evidence, ((GrammarMetricReply *) g_ptr_array_index (replies, i))->reply);
  json_builder_end_array (evidence);
}

/* Returns @score with the evidence gathered so far. */
static void
return_score (GTask        *task,
              GrammarScore *score)
{
  Scoring *scoring = g_task_get_task_data (task);
  g_autoptr (JsonNode) evidence = NULL;

  json_builder_set_member_name (scoring->evidence, "requests");
  json_builder_add_int_value (scoring->evidence, scoring->requests);
  json_builder_set_member_name (scoring->evidence, "tokens");
  json_builder_add_int_value (scoring->evidence, (gint64) scoring->tokens);
  json_builder_end_object (scoring->evidence);
  evidence = json_builder_get_root (scoring->evidence);
  grammar_score_set_evidence (score, evidence);
  g_task_return_pointer (task, score, g_object_unref);
}

static GrammarScore *
unreadable (GPtrArray  *replies,
            guint       max_attempts,
            const char *what)
{
  for (guint i = 0; i < replies->len; i++)
    {
      GrammarMetricReply *reply = g_ptr_array_index (replies, i);

      if (reply->parsed == NULL)
        {
          g_autofree char *excerpt = grammar_metric_excerpt (reply->reply);
          g_autofree char *reason = g_strdup_printf ("the language model's %s could not be read after %u "
                                                     "attempts: “%s”", what, max_attempts, excerpt);

          return grammar_score_new_unmeasured (reason);
        }
    }
  return NULL;
}

/* supported / judged over the verdicts (1, 0, or -1 for Null). */
static GrammarScore *
score_verdicts (JsonArray *verdicts)
{
  guint supported = 0, judged = 0;

  for (guint i = 0; i < json_array_get_length (verdicts); i++)
    {
      gint64 verdict = json_array_get_int_element (verdicts, i);

      if (verdict < 0)
        continue;
      judged++;
      supported += verdict == 1;
    }
  if (judged == 0)
    return grammar_score_new_unmeasured ("every statement was judged Null");
  return grammar_score_new ((double) supported / judged);
}

static void
on_verdicts (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarLlmMetric *base = g_task_get_source_object (task);
  Scoring *scoring = g_task_get_task_data (task);
  g_autoptr (GPtrArray) replies = NULL;
  g_autoptr (JsonArray) verdicts = json_array_new ();
  GrammarScore *score;
  GError *error = NULL;

  replies = grammar_metric_ask_finish (result, &scoring->requests, &scoring->tokens, &error);
  if (replies == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  score = unreadable (replies, grammar_llm_metric_get_max_attempts (base), "verdicts");
  for (guint i = 0; score == NULL && i < replies->len; i++)
    {
      JsonNode *parsed = ((GrammarMetricReply *) g_ptr_array_index (replies, i))->parsed;

      /* variant=ragas: one array for all; variant=paper: one integer each */
      if (JSON_NODE_HOLDS_ARRAY (parsed))
        for (guint j = 0; j < json_array_get_length (json_node_get_array (parsed)); j++)
          json_array_add_int_element (verdicts, json_array_get_int_element (json_node_get_array (parsed), j));
      else
        json_array_add_int_element (verdicts, json_node_get_int (parsed));
    }
  json_builder_set_member_name (scoring->evidence, "verdicts");
  json_builder_add_value (scoring->evidence, json_node_init_array (json_node_alloc (), verdicts));
  add_replies (scoring->evidence, replies);
  return_score (task, score != NULL ? score : score_verdicts (verdicts));
}

static void
on_statements (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarLlmMetric *base = g_task_get_source_object (task);
  Scoring *scoring = g_task_get_task_data (task);
  g_autoptr (GPtrArray) replies = NULL;
  g_autoptr (GPtrArray) prompts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) numbered = g_string_new (NULL);
  GrammarMetricReply *reply;
  GrammarScore *score;
  JsonArray *statements;
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;
  gboolean paper = g_str_equal (grammar_llm_metric_get_variant (base), "paper");

  replies = grammar_metric_ask_finish (result, &scoring->requests, &scoring->tokens, &error);
  if (replies == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  reply = g_ptr_array_index (replies, 0);
  json_builder_set_member_name (scoring->evidence, "statements_reply");
  json_builder_add_string_value (scoring->evidence, reply->reply);
  score = unreadable (replies, grammar_llm_metric_get_max_attempts (base), "statements");
  if (score != NULL)
    {
      return_score (task, score);
      return;
    }
  scoring->statements = json_node_ref (reply->parsed);
  json_builder_set_member_name (scoring->evidence, "statements");
  json_builder_add_value (scoring->evidence, json_node_copy (scoring->statements));
  statements = json_node_get_array (scoring->statements);
  if (json_array_get_length (statements) == 0)
    {
      return_score (task, grammar_score_new_unmeasured ("the response holds no statement"));
      return;
    }

  for (guint i = 0; i < json_array_get_length (statements); i++)
    {
      const char *statement = json_array_get_string_element (statements, i);

      if (paper)
        {
          const char *names[] = { "{context}", "{statement}", NULL };
          const char *values[] = { scoring->context, statement, NULL };

          g_ptr_array_add (prompts, grammar_metric_fill_prompt (PAPER_PROMPT, names, values));
        }
      else
        g_string_append_printf (numbered, "%u. %s\n", i + 1, statement);
    }
  if (!paper)
    {
      const char *names[] = { "{context}", "{statements}", NULL };
      const char *values[] = { scoring->context, numbered->str, NULL };

      g_ptr_array_add (prompts, grammar_metric_fill_prompt (VERDICTS_PROMPT, names, values));
      grammar_metric_ask_async (base, prompts, grammar_metric_parse_verdicts,
                                GUINT_TO_POINTER (json_array_get_length (statements)), cancellable, on_verdicts,
                                g_steal_pointer (&task));
      return;
    }
  grammar_metric_ask_async (base, prompts, grammar_metric_parse_yes_no,
                            GINT_TO_POINTER (TRUE), cancellable, on_verdicts, g_steal_pointer (&task));
}

static void
grammar_ragas_faithfulness_score_async (GrammarMetric       *metric,
                                        GrammarRecord       *record,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  GrammarLlmMetric *base = GRAMMAR_LLM_METRIC (metric);
  g_autoptr (GTask) task = g_task_new (base, cancellable, callback, user_data);
  g_autoptr (GPtrArray) prompts = g_ptr_array_new_with_free_func (g_free);
  Scoring *scoring = g_new0 (Scoring, 1);
  GrammarScore *score;
  const char *names[] = { "{question}", "{answer}", NULL };
  const char *values[] = { grammar_record_get_text (record), grammar_record_get_response (record), NULL };

  g_task_set_source_tag (task, grammar_ragas_faithfulness_score_async);
  g_task_set_task_data (task, scoring, (GDestroyNotify) scoring_free);
  scoring->record = g_object_ref (record);
  scoring->evidence = json_builder_new ();
  json_builder_begin_object (scoring->evidence);
  json_builder_set_member_name (scoring->evidence, "variant");
  json_builder_add_string_value (scoring->evidence, grammar_llm_metric_get_variant (base));

  score = grammar_metric_support_no_response (record);
  if (score != NULL)
    {
      return_score (task, score);
      return;
    }
  scoring->context = grammar_metric_support_context (record);
  if (scoring->context == NULL)
    {
      return_score (task, grammar_score_new_unmeasured ("no retrieved context"));
      return;
    }
  if (values[0] == NULL)
    values[0] = "";
  g_ptr_array_add (prompts, grammar_metric_fill_prompt (STATEMENTS_PROMPT, names, values));
  grammar_metric_ask_async (base, prompts, grammar_metric_parse_list, NULL, cancellable,
                            on_statements, g_steal_pointer (&task));
}

static GrammarScore *
grammar_ragas_faithfulness_score_finish (GrammarMetric  *metric,
                                         GAsyncResult   *result,
                                         GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, metric), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
grammar_ragas_faithfulness_check_record (GrammarMetric  *metric,
                                         GrammarRecord  *record,
                                         GError        **error)
{
  return grammar_metric_support_need_texts (record, "ragas-faithfulness", error);
}

static void
grammar_ragas_faithfulness_metric_iface_init (GrammarMetricInterface *iface)
{
  iface->check_record = grammar_ragas_faithfulness_check_record;
  iface->score_async = grammar_ragas_faithfulness_score_async;
  iface->score_finish = grammar_ragas_faithfulness_score_finish;
}

static void
grammar_ragas_faithfulness_class_init (GrammarRagasFaithfulnessClass *klass)
{
  grammar_llm_metric_class_install_properties (GRAMMAR_LLM_METRIC_CLASS (klass),
                                               "The section of the language model that extracts and judges (required)",
                                               "ragas", "paper",
                                               "ragas: all verdicts in one JSON reply; paper: the GRAMMAR paper's "
                                               "RAGAS-Fact prompt, one statement at a time (Yes/No/Null)",
                                               0.5, "A response passes from this share of supported statements on");
}

static void
grammar_ragas_faithfulness_class_finalize (GrammarRagasFaithfulnessClass *klass)
{
}

static void
grammar_ragas_faithfulness_init (GrammarRagasFaithfulness *self)
{
}

void
grammar_ragas_faithfulness_register (GTypeModule *module)
{
  grammar_ragas_faithfulness_register_type (module);
}
