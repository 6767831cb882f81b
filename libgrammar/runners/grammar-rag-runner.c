/* grammar-rag-runner.c: the system under test, run over a dataset
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-error.h"
#include "grammar-jsonl-private.h"
#include "grammar-rag-runner.h"
#include "grammar-record.h"

/**
 * GrammarRagRunner:
 *
 * Asks the system under test every text query of a dataset
 * (`dataset.jsonl`, one #GrammarRecord a line) and writes
 * `results.jsonl`: each dataset line with the members
 *
 * - `response`: what the system answered, or null when it failed
 * - `retrieved`: the documents it retrieved, `[{"id", "score", "text"}]`
 *   in rank order (absent when it failed)
 * - `samples`: the stochastic responses it gave besides `response`, when
 *   it was configured to give some (such as the `samples` key of the
 *   `pipeline` and `http` systems)
 * - `samples_failed` and `sample_error`: how many of those samples failed
 *   (after their retries) and are missing, and why the first did; only
 *   when some did, the response being kept
 * - `error`: why the query failed (only then)
 * - `latency_ms`: the time from asking to the answer, in milliseconds
 *
 * It is a #GrammarStageRunner: the input check, resume, the limit and
 * the concurrency are its. Up to #GrammarStageRunner:max-concurrency
 * queries are in flight at once. Each result is appended and flushed as
 * soon as it arrives, so the output is in completion order, not input
 * order, and a run that is killed loses only the queries that were in
 * flight.
 *
 * Before the first query, the system is probed once
 * (grammar_system_probe_async()): a service that is down or a wrong
 * address stops the run at once, the output left as it was.
 *
 * A record needs `id` and `text`. A failed query is written with its
 * `error` and counted (grammar_stage_runner_get_n_failed()); the run
 * goes on and still succeeds, unless
 * #GrammarStageRunner:max-consecutive-failures queries in a row failed
 * because the service is unavailable: the run then stops, and those
 * queries are asked again by the next run. With #GrammarRagRunner:retry-failed, the
 * failed records of the output are removed and asked again. Members of
 * a later stage (`verdict`, `judge`, `retrieval`, `assessment`) are dropped from the
 * records written, since they judged another response.
 */

struct _GrammarRagRunner
{
  GrammarStageRunner parent_instance;

  GrammarSystem *system;
  gboolean retry_failed;

  GHashTable *failed;       /* id in the output → GINT_TO_POINTER (its query failed) */
  guint64 n_answered;
  guint64 n_skipped_failed;
};

G_DEFINE_FINAL_TYPE (GrammarRagRunner, grammar_rag_runner, GRAMMAR_TYPE_STAGE_RUNNER)

enum
{
  PROP_0,
  PROP_SYSTEM,
  PROP_RETRY_FAILED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char * const required_members[] = { "id", "text", NULL };

/* The stage */

static void
grammar_rag_runner_begin (GrammarStageRunner *runner)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (runner);

  g_hash_table_remove_all (self->failed);
  self->n_answered = self->n_skipped_failed = 0;
  grammar_stage_runner_warn_caps (runner, "system", G_OBJECT (self->system));
}

static void
on_probed (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;

  if (grammar_system_probe_finish (GRAMMAR_SYSTEM (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, "the system does not answer, so no query was asked: ");
      g_task_return_error (task, error);
    }
}

/* Before the first query: one probe of the system, so that a service
 * that is down stops the run at once. */
static void
grammar_rag_runner_start_async (GrammarStageRunner  *runner,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (runner);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);

  if (grammar_stage_runner_get_n_total (runner) == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  grammar_system_probe_async (self->system, cancellable, on_probed, g_steal_pointer (&task));
}

static gboolean
grammar_rag_runner_start_finish (GrammarStageRunner  *runner,
                                 GAsyncResult        *result,
                                 GError             **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* A record of the output whose query failed is asked again with
 * retry-failed, and otherwise counted among the skipped. */
static gboolean
grammar_rag_runner_note_output (GrammarStageRunner  *runner,
                                JsonObject          *object,
                                const char          *id,
                                gboolean            *redo,
                                GError             **error)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (runner);
  gboolean failed = grammar_jsonl_object_failed (object);
  gboolean any_failed = failed;
  gpointer previous;

  /* An id written twice counts as answered when either line is. */
  if (g_hash_table_lookup_extended (self->failed, id, NULL, &previous))
    any_failed = failed && GPOINTER_TO_INT (previous);
  g_hash_table_insert (self->failed, g_strdup (id), GINT_TO_POINTER (any_failed));
  *redo = failed && self->retry_failed;
  return TRUE;
}

static void
grammar_rag_runner_note_input (GrammarStageRunner *runner,
                               GrammarRecord      *record,
                               gboolean            done)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (runner);

  if (done && GPOINTER_TO_INT (g_hash_table_lookup (self->failed, grammar_record_get_id (record))))
    self->n_skipped_failed++;
}

typedef struct
{
  gint64 started;
  double latency_ms;
} Query;

static void
on_answered (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  Query *query = g_task_get_task_data (task);
  GError *error = NULL;
  GrammarAnswer *answer;

  answer = grammar_system_answer_finish (GRAMMAR_SYSTEM (source), result, &error);
  query->latency_ms = (double) ((g_get_monotonic_time () - query->started + 500) / 1000);
  if (answer != NULL)
    g_task_return_pointer (task, answer, g_object_unref);
  else
    g_task_return_error (task, error);
}

static void
grammar_rag_runner_process_async (GrammarStageRunner  *runner,
                                  GrammarRecord       *record,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (runner);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Query *query = g_new0 (Query, 1);

  /* An answer that arrives after cancellation is still written. */
  g_task_set_check_cancellable (task, FALSE);
  query->started = g_get_monotonic_time ();
  g_task_set_task_data (task, query, g_free);
  grammar_system_answer_async (self->system, grammar_record_get_text (record), cancellable, on_answered, task);
}

/* The record as results.jsonl has it: the answer's members set, and the
 * members of a later stage, which judged another response, dropped. */
static JsonNode *
result_to_json (GrammarRecord *record,
                GrammarAnswer *answer,
                const GError  *error,
                double         latency_ms)
{
  JsonNode *node;
  JsonObject *object;

  if (answer != NULL)
    {
      grammar_record_set_response (record, grammar_answer_get_response (answer));
      grammar_record_set_retrieved (record, grammar_answer_get_retrieved (answer));
      grammar_record_set_samples (record, grammar_answer_get_samples (answer));
      grammar_record_set_samples_failed (record, grammar_answer_get_samples_failed (answer),
                                         grammar_answer_get_sample_error (answer));
    }
  else
    {
      grammar_record_set_response (record, NULL);
      grammar_record_set_retrieved (record, NULL);
      grammar_record_set_samples (record, NULL);
      grammar_record_set_samples_failed (record, 0, NULL);
      grammar_record_set_error (record, error->message);
    }
  grammar_record_set_latency_ms (record, latency_ms);
  grammar_record_set_verdict (record, NULL);
  grammar_record_set_scores (record, NULL);

  node = grammar_record_to_json (record);
  object = json_node_get_object (node);
  if (answer != NULL && json_object_has_member (object, "error"))
    json_object_remove_member (object, "error");
  if (json_object_has_member (object, "retrieval"))
    json_object_remove_member (object, "retrieval");
  return node;
}

static gboolean
grammar_rag_runner_process_finish (GrammarStageRunner  *runner,
                                   GAsyncResult        *result,
                                   GrammarRecord       *record,
                                   GError             **error)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (runner);
  Query *query = g_task_get_task_data (G_TASK (result));
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GError) local_error = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GString) line = g_string_new (NULL);

  answer = g_task_propagate_pointer (G_TASK (result), &local_error);
  /* Cut short by the caller: not an answer, asked again on resume. */
  if (answer == NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  node = result_to_json (record, answer, local_error, query->latency_ms);
  grammar_jsonl_append_node (line, node);
  if (answer == NULL)
    grammar_stage_runner_append_failed (runner, line, local_error);
  else if (grammar_stage_runner_append (runner, line, 1))
    {
      self->n_answered++;
      grammar_stage_runner_count (runner, FALSE);
    }
  return TRUE;
}

static char *
grammar_rag_runner_dup_summary (GrammarStageRunner *runner)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (runner);

  return g_strdup_printf ("%" G_GUINT64_FORMAT " answered, %" G_GUINT64_FORMAT " failed, %" G_GUINT64_FORMAT
                          " skipped (already in %s)", self->n_answered, grammar_stage_runner_get_n_failed (runner),
                          grammar_stage_runner_get_n_skipped (runner), grammar_stage_runner_get_output (runner));
}

/* GObject */

static void
grammar_rag_runner_finalize (GObject *object)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (object);

  g_clear_object (&self->system);
  g_hash_table_unref (self->failed);

  G_OBJECT_CLASS (grammar_rag_runner_parent_class)->finalize (object);
}

static void
grammar_rag_runner_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (object);

  switch (prop_id)
    {
    case PROP_SYSTEM:
      g_value_set_object (value, self->system);
      break;
    case PROP_RETRY_FAILED:
      g_value_set_boolean (value, self->retry_failed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_rag_runner_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (object);

  switch (prop_id)
    {
    case PROP_SYSTEM:
      self->system = g_value_dup_object (value);
      break;
    case PROP_RETRY_FAILED:
      grammar_rag_runner_set_retry_failed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_rag_runner_class_init (GrammarRagRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarStageRunnerClass *runner_class = GRAMMAR_STAGE_RUNNER_CLASS (klass);

  object_class->finalize = grammar_rag_runner_finalize;
  object_class->get_property = grammar_rag_runner_get_property;
  object_class->set_property = grammar_rag_runner_set_property;
  runner_class->begin = grammar_rag_runner_begin;
  runner_class->note_output = grammar_rag_runner_note_output;
  runner_class->note_input = grammar_rag_runner_note_input;
  runner_class->process_async = grammar_rag_runner_process_async;
  runner_class->process_finish = grammar_rag_runner_process_finish;
  runner_class->dup_summary = grammar_rag_runner_dup_summary;
  runner_class->start_async = grammar_rag_runner_start_async;
  runner_class->start_finish = grammar_rag_runner_start_finish;
  grammar_stage_runner_class_set_required_members (runner_class, required_members);

  /**
   * GrammarRagRunner:system:
   *
   * The system under test that answers the queries.
   */
  properties[PROP_SYSTEM] =
    g_param_spec_object ("system", NULL, "The system under test",
                         GRAMMAR_TYPE_SYSTEM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarRagRunner:retry-failed:
   *
   * Whether records of the output whose query failed (those with an
   * `error`) are removed from it and asked again. Otherwise they are
   * skipped like the other records already in the output.
   */
  properties[PROP_RETRY_FAILED] =
    g_param_spec_boolean ("retry-failed", NULL, "Ask again the queries that failed in an earlier run",
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_rag_runner_init (GrammarRagRunner *self)
{
  self->failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * grammar_rag_runner_new:
 * @system: the system under test
 *
 * Creates a runner that asks @system.
 *
 * Returns: (transfer full): a new #GrammarRagRunner
 */
GrammarRagRunner *
grammar_rag_runner_new (GrammarSystem *system)
{
  g_return_val_if_fail (GRAMMAR_IS_SYSTEM (system), NULL);

  return g_object_new (GRAMMAR_TYPE_RAG_RUNNER, "system", system, NULL);
}

/**
 * grammar_rag_runner_get_system:
 * @self: a #GrammarRagRunner
 *
 * Returns: (transfer none): the system under test
 */
GrammarSystem *
grammar_rag_runner_get_system (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), NULL);
  return self->system;
}

/**
 * grammar_rag_runner_get_retry_failed:
 * @self: a #GrammarRagRunner
 *
 * Returns: whether failed queries of the output are asked again
 */
gboolean
grammar_rag_runner_get_retry_failed (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), FALSE);
  return self->retry_failed;
}

/**
 * grammar_rag_runner_set_retry_failed:
 * @self: a #GrammarRagRunner
 * @retry_failed: whether to ask the failed queries of the output again
 *
 * Sets #GrammarRagRunner:retry-failed.
 */
void
grammar_rag_runner_set_retry_failed (GrammarRagRunner *self,
                                     gboolean          retry_failed)
{
  g_return_if_fail (GRAMMAR_IS_RAG_RUNNER (self));

  retry_failed = !!retry_failed;
  if (self->retry_failed == retry_failed)
    return;
  self->retry_failed = retry_failed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRY_FAILED]);
}

/**
 * grammar_rag_runner_get_n_answered:
 * @self: a #GrammarRagRunner
 *
 * Returns: the queries of the last run that the system answered
 */
guint64
grammar_rag_runner_get_n_answered (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->n_answered;
}

/**
 * grammar_rag_runner_get_n_skipped_failed:
 * @self: a #GrammarRagRunner
 *
 * Returns: the records the last run skipped whose query had failed in
 *   an earlier run (see #GrammarRagRunner:retry-failed)
 */
guint64
grammar_rag_runner_get_n_skipped_failed (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->n_skipped_failed;
}
