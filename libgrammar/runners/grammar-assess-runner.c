/* grammar-assess-runner.c: every configured metric over a results file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-assess-runner.h"
#include "grammar-config.h"
#include "grammar-error.h"
#include "grammar-jsonl-private.h"
#include "grammar-registry.h"

/**
 * GrammarAssessRunner:
 *
 * Scores every record of a results file (`results.jsonl` from `grammar
 * rag`, or `judged.jsonl`) with every metric it holds, and writes
 * `assessed.jsonl`: each record with the member `assessment`, one
 * #GrammarScore per metric by its name (see #GrammarRecord).
 *
 * It is a #GrammarStageRunner: before any metric is asked, every record
 * of the input is checked with grammar_metric_check_record(), so a file
 * that lacks what a metric reads (the retrieved texts, the samples) is
 * refused with the file, the line, the metric and the member; then
 * resume, the limit, the concurrency and the progress are the runner's.
 * The metrics of one record run at the same time.
 *
 * A metric that fails on a record (its language model could not be
 * reached) leaves that record unmeasured for it, marked `failed`, and
 * the run goes on; grammar_assess_runner_get_n_failed_scores() counts
 * them. With #GrammarAssessRunner:retry-failed, the records of the
 * output with a failed score, and those whose query had failed (an
 * `error`, which `grammar rag --retry-failed` may have answered since),
 * are removed and scored again.
 */

struct _GrammarAssessRunner
{
  GrammarStageRunner parent_instance;

  GPtrArray *metrics;       /* GrammarMetric */
  GPtrArray *names;         /* char *, by metric */
  GPtrArray *plugins;       /* char *, by metric; NULL when unknown */
  GStrv sections;           /* the `metrics` key, for grammar_assess_runner_new_from_config () */
  gboolean retry_failed;

  guint64 n_assessed;
  guint64 n_failed_scores;
};

G_DEFINE_FINAL_TYPE (GrammarAssessRunner, grammar_assess_runner, GRAMMAR_TYPE_STAGE_RUNNER)

enum
{
  PROP_0,
  PROP_METRICS,
  PROP_RETRY_FAILED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char * const required_members[] = { "id", NULL };

/* The stage */

static void
grammar_assess_runner_begin (GrammarStageRunner *runner)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (runner);

  self->n_assessed = self->n_failed_scores = 0;
  for (guint i = 0; i < self->metrics->len; i++)
    grammar_stage_runner_warn_caps (runner, g_ptr_array_index (self->names, i),
                                    g_ptr_array_index (self->metrics, i));
}

static gboolean
grammar_assess_runner_check_record (GrammarStageRunner  *runner,
                                    GrammarRecord       *record,
                                    JsonObject          *object,
                                    const char          *path,
                                    guint64              line,
                                    GError             **error)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (runner);

  for (guint i = 0; i < self->metrics->len; i++)
    {
      g_autoptr (GError) local_error = NULL;

      if (grammar_metric_check_record (g_ptr_array_index (self->metrics, i), record, &local_error))
        continue;
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s:%" G_GUINT64_FORMAT ": metric %s: %s",
                   path, line, (const char *) g_ptr_array_index (self->names, i), local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* Whether an assessment in the output holds a failed score. */
static gboolean
has_failed_score (JsonObject *object)
{
  JsonNode *assessment = json_object_get_member (object, "assessment");
  g_autoptr (GList) names = NULL;

  if (assessment == NULL || !JSON_NODE_HOLDS_OBJECT (assessment))
    return FALSE;
  names = json_object_get_members (json_node_get_object (assessment));
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *score = json_object_get_member (json_node_get_object (assessment), l->data);
      JsonNode *failed;

      if (!JSON_NODE_HOLDS_OBJECT (score))
        continue;
      failed = json_object_get_member (json_node_get_object (score), "failed");
      if (failed != NULL && JSON_NODE_HOLDS_VALUE (failed) && json_node_get_boolean (failed))
        return TRUE;
    }
  return FALSE;
}

static gboolean
grammar_assess_runner_note_output (GrammarStageRunner  *runner,
                                   JsonObject          *object,
                                   const char          *id,
                                   gboolean            *redo,
                                   GError             **error)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (runner);

  /* a record whose query had failed: `grammar rag --retry-failed` may
   * have answered it since */
  *redo = self->retry_failed && (has_failed_score (object) || grammar_jsonl_object_failed (object));
  return TRUE;
}

typedef struct
{
  GPtrArray *scores;        /* GrammarScore or NULL, by metric */
  guint pending;
  GError *cancelled;
  GError *unavailable;      /* a metric's service could not be reached */
} Assessment;

typedef struct
{
  GTask *task;
  guint index;
} Slot;

/* A metric cut short by cancellation leaves its slot empty. */
static void
score_unref (gpointer score)
{
  if (score != NULL)
    g_object_unref (score);
}

static void
assessment_free (Assessment *assessment)
{
  g_ptr_array_unref (assessment->scores);
  g_clear_error (&assessment->cancelled);
  g_clear_error (&assessment->unavailable);
  g_free (assessment);
}

static void
on_scored (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Slot *slot = user_data;
  g_autoptr (GTask) task = slot->task;
  Assessment *assessment = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr (GError) error = NULL;
  GrammarScore *score;
  guint index = slot->index;

  g_free (slot);
  score = grammar_metric_score_finish (GRAMMAR_METRIC (source), result, &error);
  if (score == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      g_cancellable_is_cancelled (cancellable))
    {
      if (assessment->cancelled == NULL)
        assessment->cancelled = g_steal_pointer (&error);
    }
  else if (score == NULL)
    {
      score = grammar_score_new_failed (error != NULL ? error->message : "the metric gave no score");
      if (assessment->unavailable == NULL && g_error_matches (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE))
        assessment->unavailable = g_error_copy (error);
    }
  g_ptr_array_index (assessment->scores, index) = score;

  if (--assessment->pending > 0)
    return;
  if (assessment->cancelled != NULL)
    g_task_return_error (task, g_steal_pointer (&assessment->cancelled));
  else
    g_task_return_boolean (task, TRUE);
}

static void
grammar_assess_runner_process_async (GrammarStageRunner  *runner,
                                     GrammarRecord       *record,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (runner);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Assessment *assessment = g_new0 (Assessment, 1);

  /* Scores that arrive after cancellation are still written. */
  g_task_set_check_cancellable (task, FALSE);
  assessment->scores = g_ptr_array_new_full (self->metrics->len, score_unref);
  g_ptr_array_set_size (assessment->scores, self->metrics->len);
  assessment->pending = self->metrics->len;
  g_task_set_task_data (task, assessment, (GDestroyNotify) assessment_free);
  if (self->metrics->len == 0)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }
  for (guint i = 0; i < self->metrics->len; i++)
    {
      Slot *slot = g_new0 (Slot, 1);

      slot->task = i + 1 < self->metrics->len ? g_object_ref (task) : task;
      slot->index = i;
      grammar_metric_score_async (g_ptr_array_index (self->metrics, i), record, cancellable, on_scored, slot);
    }
}

static gboolean
grammar_assess_runner_process_finish (GrammarStageRunner  *runner,
                                      GAsyncResult        *result,
                                      GrammarRecord       *record,
                                      GError             **error)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (runner);
  Assessment *assessment = g_task_get_task_data (G_TASK (result));
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GString) line = g_string_new (NULL);
  guint failed = 0;

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  for (guint i = 0; i < assessment->scores->len; i++)
    {
      GrammarScore *score = g_ptr_array_index (assessment->scores, i);

      grammar_score_set_metric (score, g_ptr_array_index (self->names, i));
      if (grammar_score_get_plugin (score) == NULL)
        grammar_score_set_plugin (score, g_ptr_array_index (self->plugins, i));
      failed += grammar_score_is_failed (score);
    }
  grammar_record_set_scores (record, assessment->scores);
  node = grammar_record_to_json (record);
  grammar_jsonl_append_node (line, node);
  /* A metric whose service is down counts towards max-consecutive-failures. */
  if (assessment->unavailable != NULL)
    {
      if (grammar_stage_runner_append_failed (runner, line, assessment->unavailable))
        {
          self->n_assessed++;
          self->n_failed_scores += failed;
        }
    }
  else if (grammar_stage_runner_append (runner, line, 1))
    {
      self->n_assessed++;
      self->n_failed_scores += failed;
      grammar_stage_runner_count (runner, failed > 0);
    }
  return TRUE;
}

static char *
grammar_assess_runner_dup_summary (GrammarStageRunner *runner)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (runner);

  return g_strdup_printf ("%" G_GUINT64_FORMAT " assessed by %u metric%s, %" G_GUINT64_FORMAT
                          " with a failed metric (%" G_GUINT64_FORMAT " scores), %" G_GUINT64_FORMAT
                          " skipped (already in %s)", self->n_assessed, self->metrics->len,
                          self->metrics->len == 1 ? "" : "s", grammar_stage_runner_get_n_failed (runner),
                          self->n_failed_scores, grammar_stage_runner_get_n_skipped (runner),
                          grammar_stage_runner_get_output (runner));
}

/* GObject */

static void
grammar_assess_runner_finalize (GObject *object)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (object);

  g_ptr_array_unref (self->metrics);
  g_ptr_array_unref (self->names);
  g_ptr_array_unref (self->plugins);
  g_strfreev (self->sections);

  G_OBJECT_CLASS (grammar_assess_runner_parent_class)->finalize (object);
}

static void
grammar_assess_runner_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (object);

  switch (prop_id)
    {
    case PROP_METRICS:
      g_value_set_boxed (value, self->sections);
      break;
    case PROP_RETRY_FAILED:
      g_value_set_boolean (value, self->retry_failed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_assess_runner_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  GrammarAssessRunner *self = GRAMMAR_ASSESS_RUNNER (object);

  switch (prop_id)
    {
    case PROP_METRICS:
      g_strfreev (self->sections);
      self->sections = g_value_dup_boxed (value);
      break;
    case PROP_RETRY_FAILED:
      grammar_assess_runner_set_retry_failed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_assess_runner_class_init (GrammarAssessRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarStageRunnerClass *runner_class = GRAMMAR_STAGE_RUNNER_CLASS (klass);

  object_class->finalize = grammar_assess_runner_finalize;
  object_class->get_property = grammar_assess_runner_get_property;
  object_class->set_property = grammar_assess_runner_set_property;
  runner_class->begin = grammar_assess_runner_begin;
  runner_class->check_record = grammar_assess_runner_check_record;
  runner_class->note_output = grammar_assess_runner_note_output;
  runner_class->process_async = grammar_assess_runner_process_async;
  runner_class->process_finish = grammar_assess_runner_process_finish;
  runner_class->dup_summary = grammar_assess_runner_dup_summary;
  grammar_stage_runner_class_set_required_members (runner_class, required_members);

  /**
   * GrammarAssessRunner:metrics:
   *
   * The sections of the metrics, the `metrics` key of the keyfile's
   * `[metrics]` section; grammar_assess_runner_new_from_config() builds
   * them. Metrics added with grammar_assess_runner_add_metric() are not
   * listed here.
   */
  properties[PROP_METRICS] =
    g_param_spec_boxed ("metrics", NULL, "The sections of the metrics to run, in order",
                        G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarAssessRunner:retry-failed:
   *
   * Whether records of the output with a failed score, or whose query
   * had failed, are removed from it and scored again.
   */
  properties[PROP_RETRY_FAILED] =
    g_param_spec_boolean ("retry-failed", NULL, "Score again the records where a metric failed in an earlier run",
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_assess_runner_init (GrammarAssessRunner *self)
{
  self->metrics = g_ptr_array_new_with_free_func (g_object_unref);
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->plugins = g_ptr_array_new_with_free_func (g_free);
}

/**
 * grammar_assess_runner_new:
 *
 * Creates a runner without metrics; add them with
 * grammar_assess_runner_add_metric().
 *
 * Returns: (transfer full): a new #GrammarAssessRunner
 */
GrammarAssessRunner *
grammar_assess_runner_new (void)
{
  return g_object_new (GRAMMAR_TYPE_ASSESS_RUNNER, NULL);
}

/* The registered name of @metric's type, or NULL. */
static char *
plugin_name (GrammarMetric *metric)
{
  g_autoptr (GPtrArray) plugins = grammar_registry_list_plugins (grammar_registry_get_default (),
                                                                 GRAMMAR_TYPE_METRIC);

  for (guint i = 0; plugins != NULL && i < plugins->len; i++)
    if (grammar_plugin_info_get_gtype (g_ptr_array_index (plugins, i)) == G_OBJECT_TYPE (metric))
      return g_strdup (grammar_plugin_info_get_name (g_ptr_array_index (plugins, i)));
  return NULL;
}

/**
 * grammar_assess_runner_add_metric:
 * @self: a #GrammarAssessRunner
 * @name: the name of the metric: the member of `assessment` it writes
 * @metric: the metric
 *
 * Adds a metric, between runs. Names must differ.
 */
void
grammar_assess_runner_add_metric (GrammarAssessRunner *self,
                                  const char          *name,
                                  GrammarMetric       *metric)
{
  g_return_if_fail (GRAMMAR_IS_ASSESS_RUNNER (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (GRAMMAR_IS_METRIC (metric));

  for (guint i = 0; i < self->names->len; i++)
    g_return_if_fail (!g_str_equal (g_ptr_array_index (self->names, i), name));
  g_ptr_array_add (self->metrics, g_object_ref (metric));
  g_ptr_array_add (self->names, g_strdup (name));
  g_ptr_array_add (self->plugins, plugin_name (metric));
}

/**
 * grammar_assess_runner_get_n_metrics:
 * @self: a #GrammarAssessRunner
 *
 * Returns: how many metrics the runner holds
 */
guint
grammar_assess_runner_get_n_metrics (GrammarAssessRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSESS_RUNNER (self), 0);
  return self->metrics->len;
}

/**
 * grammar_assess_runner_get_metric:
 * @self: a #GrammarAssessRunner
 * @index: which metric, from 0
 *
 * Returns: (transfer none): the metric
 */
GrammarMetric *
grammar_assess_runner_get_metric (GrammarAssessRunner *self,
                                  guint                index)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSESS_RUNNER (self), NULL);
  g_return_val_if_fail (index < self->metrics->len, NULL);
  return g_ptr_array_index (self->metrics, index);
}

/**
 * grammar_assess_runner_get_metric_name:
 * @self: a #GrammarAssessRunner
 * @index: which metric, from 0
 *
 * Returns: the name of the metric
 */
const char *
grammar_assess_runner_get_metric_name (GrammarAssessRunner *self,
                                       guint                index)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSESS_RUNNER (self), NULL);
  g_return_val_if_fail (index < self->names->len, NULL);
  return g_ptr_array_index (self->names, index);
}

/**
 * grammar_assess_runner_get_retry_failed:
 * @self: a #GrammarAssessRunner
 *
 * Returns: whether records with a failed score are scored again
 */
gboolean
grammar_assess_runner_get_retry_failed (GrammarAssessRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSESS_RUNNER (self), FALSE);
  return self->retry_failed;
}

/**
 * grammar_assess_runner_set_retry_failed:
 * @self: a #GrammarAssessRunner
 * @retry_failed: whether to score again the records with a failed score
 *
 * Sets #GrammarAssessRunner:retry-failed.
 */
void
grammar_assess_runner_set_retry_failed (GrammarAssessRunner *self,
                                        gboolean             retry_failed)
{
  g_return_if_fail (GRAMMAR_IS_ASSESS_RUNNER (self));

  retry_failed = !!retry_failed;
  if (self->retry_failed == retry_failed)
    return;
  self->retry_failed = retry_failed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRY_FAILED]);
}

/**
 * grammar_assess_runner_get_n_failed_scores:
 * @self: a #GrammarAssessRunner
 *
 * Returns: the scores of the last run that a metric's error left
 *   unmeasured
 */
guint64
grammar_assess_runner_get_n_failed_scores (GrammarAssessRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSESS_RUNNER (self), 0);
  return self->n_failed_scores;
}
