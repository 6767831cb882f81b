/* grammar-selfcheck.c: the `selfcheck` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-llm-metric.h"
#include "grammar-metric-support.h"
#include "grammar-selfcheck.h"

/**
 * GrammarSelfcheck:
 *
 * The `selfcheck` metric: SelfCheckGPT's idea that a system which knows
 * the answer gives it again when sampled, asked of a language model.
 *
 * `variant=qa` (the default) is the GRAMMAR paper's SelfCheck-QA: for
 * each stochastic sample, the model is shown the query, the response
 * (answer A) and the sample (answer B) and says whether both answer the
 * query with an equivalent meaning. The score is the share of samples
 * it says “Yes” to (the inconsistency, the share of “No”, is in the
 * evidence); with the default threshold 1 a response passes only when
 * it agrees with every sample, the paper's rule.
 *
 * `variant=nli` is SelfCheckGPT's original prompt: every sentence of the
 * response is checked against every sample as its context (“Is the
 * sentence supported by the context above?”); a sentence's
 * inconsistency is its share of “No”, and the score is one minus the
 * mean inconsistency over sentences.
 *
 * Replies that stay unreadable after #GrammarSelfcheck:max-attempts
 * requests count neither way; when none can be read the record is
 * unmeasured. A record without samples is refused by `grammar assess`
 * before any request.
 */

#define QA_PROMPT \
  "Query: {query}\nAnswer A: {answer}\nAnswer B: {sample}\n" \
  "Do both answers address the query with equivalent meaning? Use only \"Yes\" or \"No\" for your evaluation:"

#define NLI_PROMPT \
  "Context: {sample}\nSentence: {sentence}\nIs the sentence supported by the context above? Answer Yes or No:"

struct _GrammarSelfcheck
{
  GrammarLlmMetric parent_instance;
};

static void grammar_selfcheck_metric_iface_init (GrammarMetricInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarSelfcheck, grammar_selfcheck, GRAMMAR_TYPE_LLM_METRIC, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_METRIC,
                                                               grammar_selfcheck_metric_iface_init))

typedef struct
{
  guint n_samples;
  GStrv sentences;      /* nli */
  guint requests;
  guint64 tokens;
} Scoring;

static void
scoring_free (Scoring *scoring)
{
  g_strfreev (scoring->sentences);
  g_free (scoring);
}

static GrammarScore *
with_evidence (GrammarScore *score,
               JsonBuilder  *builder)
{
  g_autoptr (JsonNode) evidence = NULL;

  json_builder_end_object (builder);
  evidence = json_builder_get_root (builder);
  grammar_score_set_evidence (score, evidence);
  return score;
}

static JsonBuilder *
begin_evidence (GrammarLlmMetric *base)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "variant");
  json_builder_add_string_value (builder, grammar_llm_metric_get_variant (base));
  return builder;
}

static void
on_replies (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarLlmMetric *base = g_task_get_source_object (task);
  Scoring *scoring = g_task_get_task_data (task);
  g_autoptr (GPtrArray) replies = NULL;
  g_autoptr (JsonBuilder) builder = begin_evidence (base);
  gboolean nli = g_str_equal (grammar_llm_metric_get_variant (base), "nli");
  guint n_units = nli ? g_strv_length (scoring->sentences) : 1;
  double inconsistency = 0.0;
  guint measured_units = 0, yes = 0, answered = 0;
  GrammarScore *score;
  GError *error = NULL;

  replies = grammar_metric_ask_finish (result, &scoring->requests, &scoring->tokens, &error);
  if (replies == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* Replies are unit by unit (sentence, or the whole response), sample by sample. */
  json_builder_set_member_name (builder, "verdicts");
  json_builder_begin_array (builder);
  for (guint unit = 0; unit < n_units; unit++)
    {
      guint unit_yes = 0, unit_answered = 0;

      if (nli)
        json_builder_begin_array (builder);
      for (guint s = 0; s < scoring->n_samples; s++)
        {
          GrammarMetricReply *reply = g_ptr_array_index (replies, unit * scoring->n_samples + s);

          if (reply->parsed == NULL)
            {
              json_builder_add_null_value (builder);
              continue;
            }
          json_builder_add_int_value (builder, json_node_get_int (reply->parsed));
          unit_answered++;
          unit_yes += json_node_get_int (reply->parsed) == 1;
        }
      if (nli)
        json_builder_end_array (builder);
      if (unit_answered > 0)
        {
          inconsistency += 1.0 - (double) unit_yes / unit_answered;
          measured_units++;
        }
      yes += unit_yes;
      answered += unit_answered;
    }
  json_builder_end_array (builder);
  if (nli)
    {
      json_builder_set_member_name (builder, "sentences");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n_units; i++)
        json_builder_add_string_value (builder, scoring->sentences[i]);
      json_builder_end_array (builder);
    }
  json_builder_set_member_name (builder, "replies");
  json_builder_begin_array (builder);
  for (guint i = 0; i < replies->len; i++)
    json_builder_add_string_value (builder, ((GrammarMetricReply *) g_ptr_array_index (replies, i))->reply);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "requests");
  json_builder_add_int_value (builder, scoring->requests);
  json_builder_set_member_name (builder, "tokens");
  json_builder_add_int_value (builder, (gint64) scoring->tokens);

  if (measured_units == 0)
    {
      g_autofree char *excerpt = grammar_metric_excerpt (replies->len > 0
                                                           ? ((GrammarMetricReply *) replies->pdata[0])->reply
                                                           : "");
      g_autofree char *reason = g_strdup_printf ("no reply of the language model could be read after %u "
                                                 "attempts: “%s”", grammar_llm_metric_get_max_attempts (base), excerpt);

      score = grammar_score_new_unmeasured (reason);
    }
  else
    {
      inconsistency /= measured_units;
      json_builder_set_member_name (builder, "inconsistency");
      json_builder_add_double_value (builder, inconsistency);
      json_builder_set_member_name (builder, "yes");
      json_builder_add_int_value (builder, yes);
      json_builder_set_member_name (builder, "answered");
      json_builder_add_int_value (builder, answered);
      score = grammar_score_new (1.0 - inconsistency);
    }
  g_task_return_pointer (task, with_evidence (score, builder), g_object_unref);
}

static void
grammar_selfcheck_score_async (GrammarMetric       *metric,
                               GrammarRecord       *record,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GrammarLlmMetric *base = GRAMMAR_LLM_METRIC (metric);
  g_autoptr (GTask) task = g_task_new (base, cancellable, callback, user_data);
  g_autoptr (GPtrArray) prompts = g_ptr_array_new_with_free_func (g_free);
  const char * const *samples = grammar_record_get_samples (record);
  const char *response = grammar_record_get_response (record);
  Scoring *scoring = g_new0 (Scoring, 1);
  GrammarScore *score;

  g_task_set_source_tag (task, grammar_selfcheck_score_async);
  g_task_set_task_data (task, scoring, (GDestroyNotify) scoring_free);

  score = grammar_metric_support_no_response (record);
  if (score == NULL && (samples == NULL || samples[0] == NULL))
    score = grammar_metric_support_no_samples (record);
  if (score != NULL)
    {
      g_autoptr (JsonBuilder) builder = begin_evidence (base);

      g_task_return_pointer (task, with_evidence (score, builder), g_object_unref);
      return;
    }
  scoring->n_samples = g_strv_length ((GStrv) samples);

  if (g_str_equal (grammar_llm_metric_get_variant (base), "nli"))
    {
      scoring->sentences = grammar_document_split_sentences (response);
      if (scoring->sentences[0] == NULL)
        {
          g_autoptr (JsonBuilder) builder = begin_evidence (base);

          g_task_return_pointer (task, with_evidence (grammar_score_new_unmeasured ("the response has no sentence"),
                                                      builder), g_object_unref);
          return;
        }
      for (guint i = 0; scoring->sentences[i] != NULL; i++)
        for (guint s = 0; samples[s] != NULL; s++)
          {
            const char * const names[] = { "{sample}", "{sentence}", NULL };
            const char * const values[] = { samples[s], scoring->sentences[i], NULL };

            g_ptr_array_add (prompts, grammar_metric_fill_prompt (NLI_PROMPT, names, values));
          }
    }
  else
    for (guint s = 0; samples[s] != NULL; s++)
      {
        const char * const names[] = { "{query}", "{answer}", "{sample}", NULL };
        const char * const values[] = { grammar_record_get_text (record), response, samples[s], NULL };

        g_ptr_array_add (prompts, grammar_metric_fill_prompt (QA_PROMPT, names, values));
      }

  grammar_metric_ask_async (base, prompts, grammar_metric_parse_yes_no,
                            GINT_TO_POINTER (FALSE), cancellable, on_replies, g_steal_pointer (&task));
}

static GrammarScore *
grammar_selfcheck_score_finish (GrammarMetric  *metric,
                                GAsyncResult   *result,
                                GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, metric), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
grammar_selfcheck_check_record (GrammarMetric  *metric,
                                GrammarRecord  *record,
                                GError        **error)
{
  return grammar_metric_support_need_samples (record, "selfcheck", error);
}

static void
grammar_selfcheck_metric_iface_init (GrammarMetricInterface *iface)
{
  iface->check_record = grammar_selfcheck_check_record;
  iface->score_async = grammar_selfcheck_score_async;
  iface->score_finish = grammar_selfcheck_score_finish;
}

static void
grammar_selfcheck_class_init (GrammarSelfcheckClass *klass)
{
  grammar_llm_metric_class_install_properties (GRAMMAR_LLM_METRIC_CLASS (klass),
                                               "The section of the language model that compares (required)",
                                               "qa", "nli",
                                               "qa: the paper's SelfCheck-QA prompt per sample; "
                                               "nli: each sentence against each sample",
                                               1.0, "A response passes from this share of consistent samples on "
                                                    "(1: all, the paper's rule)");
}

static void
grammar_selfcheck_class_finalize (GrammarSelfcheckClass *klass)
{
}

static void
grammar_selfcheck_init (GrammarSelfcheck *self)
{
}

void
grammar_selfcheck_register (GTypeModule *module)
{
  grammar_selfcheck_register_type (module);
}
