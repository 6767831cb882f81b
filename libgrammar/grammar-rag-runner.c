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
#include "grammar-sync-private.h"

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
 * - `error`: why the query failed (only then)
 * - `latency_ms`: the time from asking to the answer, in milliseconds
 *
 * Up to #GrammarRagRunner:max-concurrency queries are in flight at once,
 * as asynchronous calls on the thread-default main context of the
 * caller. Each result is appended and flushed as soon as it arrives, so
 * the output is in completion order, not input order, and a run that is
 * killed loses only the queries that were in flight.
 *
 * Running again with the same output resumes: the ids already in it are
 * skipped, and an incomplete last line (a run killed while writing it)
 * is removed first. A failed query is written with its `error` and
 * counted (grammar_rag_runner_get_n_failed()); the run goes on and still
 * succeeds. With #GrammarRagRunner:retry-failed, the failed records of
 * the output are removed and asked again.
 *
 * The whole input is checked before the first query is asked: a line
 * that is not a JSON object, a member of the wrong type, a record
 * without `id` or `text` and an id used twice fail the run with
 * %GRAMMAR_ERROR_INVALID_INPUT and a message starting with `FILE:LINE:`,
 * and the output is left as it was. Members of a later stage (`verdict`,
 * `judge`, `retrieval`) are dropped from the records written, since
 * they judged another response.
 */

struct _GrammarRagRunner
{
  GObject parent_instance;

  GrammarSystem *system;
  guint max_concurrency;
  guint64 limit;
  gboolean retry_failed;

  gboolean running;
  guint64 n_total;
  guint64 n_answered;
  guint64 n_failed;
  guint64 n_skipped;
  guint64 n_skipped_failed;
  GStrv warnings;
};

G_DEFINE_FINAL_TYPE (GrammarRagRunner, grammar_rag_runner, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_SYSTEM,
  PROP_MAX_CONCURRENCY,
  PROP_LIMIT,
  PROP_RETRY_FAILED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_PROGRESS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The state of one run. The preparation (checking the input, reading
 * the output) fills the first part in a worker thread; the queries then
 * run on the caller's main context. */
typedef struct
{
  char *input;
  char *output;
  guint64 limit;
  gboolean retry_failed;

  /* Preparation */
  GHashTable *done;         /* id in the output → GINT_TO_POINTER (failed) */
  GHashTable *failed_lines; /* output line numbers to drop (retry-failed) */
  GrammarJsonlTail tail;    /* where the complete lines of the output end */
  guint64 n_total;
  guint64 n_skipped;
  guint64 n_skipped_failed;
  GPtrArray *warnings;

  /* Queries */
  JsonParser *parser;
  GDataInputStream *reader;
  guint64 line;
  guint64 n_read;
  GOutputStream *writer;
  guint in_flight;
  gboolean exhausted;
  gboolean write_failed;
  gboolean finished;
  GError *error;            /* the first error that stops the run */
} Run;

static void
run_free (Run *run)
{
  g_free (run->input);
  g_free (run->output);
  g_clear_pointer (&run->done, g_hash_table_unref);
  g_clear_pointer (&run->failed_lines, g_hash_table_unref);
  g_ptr_array_unref (run->warnings);
  g_clear_object (&run->parser);
  g_clear_object (&run->reader);
  g_clear_object (&run->writer);
  g_clear_error (&run->error);
  g_free (run);
}

/* GObject */

static void
grammar_rag_runner_finalize (GObject *object)
{
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (object);

  g_clear_object (&self->system);
  g_strfreev (self->warnings);

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
    case PROP_MAX_CONCURRENCY:
      g_value_set_uint (value, self->max_concurrency);
      break;
    case PROP_LIMIT:
      g_value_set_uint64 (value, self->limit);
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
    case PROP_MAX_CONCURRENCY:
      grammar_rag_runner_set_max_concurrency (self, g_value_get_uint (value));
      break;
    case PROP_LIMIT:
      grammar_rag_runner_set_limit (self, g_value_get_uint64 (value));
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

  object_class->finalize = grammar_rag_runner_finalize;
  object_class->get_property = grammar_rag_runner_get_property;
  object_class->set_property = grammar_rag_runner_set_property;

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
   * GrammarRagRunner:max-concurrency:
   *
   * How many queries are asked at once, at most. A system behind a
   * network service answers faster with several requests in flight; a
   * system that answers in the calling thread is not made parallel by it.
   */
  properties[PROP_MAX_CONCURRENCY] =
    g_param_spec_uint ("max-concurrency", NULL, "How many queries are asked at once, at most",
                       1, G_MAXUINT, GRAMMAR_RAG_RUNNER_DEFAULT_MAX_CONCURRENCY,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarRagRunner:limit:
   *
   * Only the first records of the input are run (a smoke run), or all of
   * them when 0. Records already in the output count towards the limit.
   */
  properties[PROP_LIMIT] =
    g_param_spec_uint64 ("limit", NULL, "How many records of the input to run, 0 for all",
                         0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

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

  /**
   * GrammarRagRunner::progress:
   * @self: the runner
   * @done: the queries finished so far in this run, answered or failed
   * @total: the queries this run asks (the records neither skipped nor beyond the limit)
   * @failed: the queries of @done that failed
   *
   * Emitted once when the queries start and after each query finished.
   */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_UINT64);
}

static void
grammar_rag_runner_init (GrammarRagRunner *self)
{
  self->max_concurrency = GRAMMAR_RAG_RUNNER_DEFAULT_MAX_CONCURRENCY;
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
 * grammar_rag_runner_get_max_concurrency:
 * @self: a #GrammarRagRunner
 *
 * Returns: how many queries are asked at once, at most
 */
guint
grammar_rag_runner_get_max_concurrency (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->max_concurrency;
}

/**
 * grammar_rag_runner_set_max_concurrency:
 * @self: a #GrammarRagRunner
 * @max_concurrency: how many queries to ask at once, at least 1
 *
 * Sets #GrammarRagRunner:max-concurrency.
 */
void
grammar_rag_runner_set_max_concurrency (GrammarRagRunner *self,
                                        guint             max_concurrency)
{
  g_return_if_fail (GRAMMAR_IS_RAG_RUNNER (self));
  g_return_if_fail (max_concurrency >= 1);

  if (self->max_concurrency == max_concurrency)
    return;
  self->max_concurrency = max_concurrency;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONCURRENCY]);
}

/**
 * grammar_rag_runner_get_limit:
 * @self: a #GrammarRagRunner
 *
 * Returns: how many records of the input are run, 0 for all
 */
guint64
grammar_rag_runner_get_limit (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->limit;
}

/**
 * grammar_rag_runner_set_limit:
 * @self: a #GrammarRagRunner
 * @limit: how many records of the input to run, 0 for all
 *
 * Sets #GrammarRagRunner:limit.
 */
void
grammar_rag_runner_set_limit (GrammarRagRunner *self,
                              guint64           limit)
{
  g_return_if_fail (GRAMMAR_IS_RAG_RUNNER (self));

  if (self->limit == limit)
    return;
  self->limit = limit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIMIT]);
}

/**
 * grammar_rag_runner_get_retry_failed:
 * @self: a #GrammarRagRunner
 *
 * Returns: whether failed records of the output are asked again
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
 * @retry_failed: whether to ask the failed records of the output again
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

/* What a dataset record needs: the runner asks its text, and writes it under its id. */
static const char * const required_members[] = { "id", "text", NULL };

/* Preparation, in a worker thread */

static gboolean
is_skipped (Run        *run,
            const char *id,
            gboolean   *failed)
{
  gpointer value;

  if (!g_hash_table_lookup_extended (run->done, id, NULL, &value))
    return FALSE;
  *failed = GPOINTER_TO_INT (value);
  return !(*failed && run->retry_failed);
}

static gboolean
check_not_same_file (Run           *run,
                     GCancellable  *cancellable,
                     GError       **error)
{
  return grammar_jsonl_check_not_same_file (run->input, run->output, cancellable, error);
}

/* Notes one record of the output: the id it holds and whether its query
 * failed. */
static gboolean
scan_output_line (JsonObject  *object,
                  const char  *id,
                  guint64      line,
                  gpointer     user_data,
                  GError     **error)
{
  Run *run = user_data;
  JsonNode *failure;
  gboolean failed;
  gpointer previous;

  failure = json_object_get_member (object, "error");
  failed = failure != NULL && !JSON_NODE_HOLDS_NULL (failure);

  /* An id written twice counts as answered when either line is. */
  if (g_hash_table_lookup_extended (run->done, id, NULL, &previous))
    failed = failed && GPOINTER_TO_INT (previous);
  g_hash_table_insert (run->done, g_strdup (id), GINT_TO_POINTER (failed));
  if (failed)
    g_hash_table_add (run->failed_lines, g_memdup2 (&line, sizeof line));
  return TRUE;
}

/* Reads the output of an earlier run, if there is one: its ids, and
 * where its last complete line ends. */
static gboolean
scan_output (Run           *run,
             GCancellable  *cancellable,
             GError       **error)
{
  return grammar_jsonl_scan_output (run->output, scan_output_line, run, &run->tail, cancellable, error);
}

/* Checks every record the run would read, and counts what it will ask.
 * Nothing is asked when the input has a problem. */
static gboolean
check_input (Run           *run,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint64 line = 0;
  guint64 n_read = 0;
  guint64 n_known = 0;

  lines = grammar_jsonl_open (run->input, cancellable, error);
  if (lines == NULL)
    return FALSE;

  while (run->limit == 0 || n_read < run->limit)
    {
      g_autofree char *text = NULL;
      g_autoptr (GrammarRecord) record = NULL;
      gsize length = 0;
      gpointer first_line;
      gboolean failed = FALSE;
      const char *id;

      if (!grammar_jsonl_read_line (lines, run->input, &text, &length, cancellable, error))
        return FALSE;
      if (text == NULL)
        break;
      line++;
      if (grammar_jsonl_line_is_blank (text, length))
        continue;
      record = grammar_jsonl_parse_record (parser, run->input, line, text, length, required_members, error);
      if (record == NULL)
        return FALSE;
      n_read++;

      id = grammar_record_get_id (record);
      if (g_hash_table_lookup_extended (ids, id, NULL, &first_line))
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": duplicate id “%s” (also on line %" G_GUINT64_FORMAT ")",
                       run->input, line, id, (guint64) GPOINTER_TO_SIZE (first_line));
          return FALSE;
        }
      g_hash_table_insert (ids, g_strdup (id), GSIZE_TO_POINTER (line));

      if (g_hash_table_contains (run->done, id))
        n_known++;
      if (is_skipped (run, id, &failed))
        {
          run->n_skipped++;
          if (failed)
            run->n_skipped_failed++;
        }
      else
        run->n_total++;
    }

  if (run->limit == 0 && n_known < g_hash_table_size (run->done))
    g_ptr_array_add (run->warnings,
                     g_strdup_printf ("%s: %u records have an id that is not in %s; they were kept",
                                      run->output, g_hash_table_size (run->done) - (guint) n_known, run->input));
  return TRUE;
}

/* Copies the output without the lines of failed queries, to ask them
 * again. g_file_replace() writes a new file and renames it over the old
 * one when it is closed, so a kill meanwhile keeps the old output. */
static gboolean
drop_failed_lines (Run           *run,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (run->output);
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (GFileOutputStream) copy = NULL;
  g_autoptr (GError) local_error = NULL;
  guint64 line = 0;

  lines = grammar_jsonl_open (run->output, cancellable, &local_error);
  if (lines == NULL)
    goto failed;
  copy = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, &local_error);
  if (copy == NULL)
    goto failed;

  for (;;)
    {
      g_autofree char *text = NULL;
      gsize length = 0;

      if (!grammar_jsonl_read_line (lines, run->output, &text, &length, cancellable, &local_error))
        goto failed;
      if (text == NULL)
        break;
      line++;
      if (line == run->tail.incomplete_line)
        break;
      if (g_hash_table_contains (run->failed_lines, &line))
        continue;
      if (!g_output_stream_write_all (G_OUTPUT_STREAM (copy), text, length, NULL, cancellable, &local_error) ||
          !g_output_stream_write_all (G_OUTPUT_STREAM (copy), "\n", 1, NULL, cancellable, &local_error))
        goto failed;
    }
  if (!g_output_stream_close (G_OUTPUT_STREAM (copy), cancellable, &local_error))
    goto failed;
  run->tail.needs_newline = FALSE;
  g_ptr_array_add (run->warnings,
                   g_strdup_printf ("%s: removed %u failed records to ask them again",
                                    run->output, g_hash_table_size (run->failed_lines)));
  return TRUE;

failed:
  if (copy != NULL && !g_output_stream_is_closed (G_OUTPUT_STREAM (copy)))
    {
      /* Closing a cancelled replacement leaves the old file in place. */
      g_autoptr (GCancellable) abort = g_cancellable_new ();

      g_cancellable_cancel (abort);
      g_output_stream_close (G_OUTPUT_STREAM (copy), abort, NULL);
    }
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_steal_pointer (&local_error));
  else
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s", run->output, local_error->message);
  return FALSE;
}

static gboolean
drop_incomplete_line (Run           *run,
                      GCancellable  *cancellable,
                      GError       **error)
{
  return grammar_jsonl_drop_incomplete_line (run->output, &run->tail, cancellable, error);
}

/* Everything that happens before the first query: the input is checked
 * before the output is touched, so that a bad input changes nothing. */
static void
prepare_in_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  Run *run = task_data;
  GError *error = NULL;

  if (!check_not_same_file (run, cancellable, &error) ||
      !scan_output (run, cancellable, &error) ||
      !check_input (run, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  if (run->retry_failed && g_hash_table_size (run->failed_lines) > 0)
    {
      if (!drop_failed_lines (run, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  else if (run->tail.incomplete_line > 0 && !drop_incomplete_line (run, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (run->tail.incomplete_line > 0)
    g_ptr_array_add (run->warnings,
                     g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": removed an incomplete last line "
                                      "left by an interrupted run",
                                      run->output, run->tail.incomplete_line));
  g_task_return_boolean (task, TRUE);
}

/* The queries, on the caller's main context */

typedef struct
{
  GTask *task;             /* the run's */
  GrammarRecord *record;
  gint64 started;
} Query;

static void
query_free (Query *query)
{
  g_object_unref (query->task);
  g_object_unref (query->record);
  g_free (query);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Query, query_free)

static void ask_more (GTask *task);

static void
stop_run (Run    *run,
          GError *error)
{
  if (run->error == NULL)
    run->error = error;
  else
    g_error_free (error);
}

static void
finish_if_done (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  GrammarRagRunner *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  gboolean stopped = run->error != NULL || g_cancellable_is_cancelled (cancellable);

  if (run->finished || run->in_flight > 0 || !(run->exhausted || stopped))
    return;

  run->finished = TRUE;
  self->running = FALSE;
  if (run->writer != NULL)
    g_output_stream_close (run->writer, NULL, NULL);
  if (run->error != NULL)
    g_task_return_error (task, g_steal_pointer (&run->error));
  else if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
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
    }
  else
    {
      grammar_record_set_response (record, NULL);
      grammar_record_set_retrieved (record, NULL);
      grammar_record_set_error (record, error->message);
    }
  grammar_record_set_latency_ms (record, latency_ms);
  grammar_record_set_verdict (record, NULL);

  node = grammar_record_to_json (record);
  object = json_node_get_object (node);
  if (answer != NULL && json_object_has_member (object, "error"))
    json_object_remove_member (object, "error");
  if (json_object_has_member (object, "retrieval"))
    json_object_remove_member (object, "retrieval");
  return node;
}

static gboolean
write_line (Run       *run,
            JsonNode  *node,
            GError   **error)
{
  g_autoptr (GString) line = g_string_new (NULL);

  grammar_jsonl_append_node (line, node);
  return grammar_jsonl_write (run->writer, run->output, line, error);
}

static void
on_answered (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (Query) query = user_data;
  GTask *task = query->task;
  Run *run = g_task_get_task_data (task);
  GrammarRagRunner *self = g_task_get_source_object (task);
  g_autoptr (GrammarAnswer) answer = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = NULL;
  GError *write_error = NULL;
  double latency_ms;

  run->in_flight--;
  answer = grammar_system_answer_finish (GRAMMAR_SYSTEM (source), result, &error);
  latency_ms = (double) ((g_get_monotonic_time () - query->started + 500) / 1000);

  /* Cut short by the caller: not an answer, asked again on resume. */
  if (answer == NULL && g_cancellable_is_cancelled (g_task_get_cancellable (task)) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      finish_if_done (task);
      return;
    }

  node = result_to_json (query->record, answer, error, latency_ms);
  if (run->write_failed)
    ;  /* the run is over: nothing more can be kept */
  else if (!write_line (run, node, &write_error))
    {
      run->write_failed = TRUE;
      stop_run (run, write_error);
    }
  else
    {
      if (answer != NULL)
        self->n_answered++;
      else
        self->n_failed++;
      g_signal_emit (self, signals[SIGNAL_PROGRESS], 0,
                     self->n_answered + self->n_failed, self->n_total, self->n_failed);
    }

  ask_more (task);
  finish_if_done (task);
}

/* The next record to ask, or %NULL at the end of the input (or of the
 * limit), or on an error. */
static GrammarRecord *
next_record (Run      *run,
             GError  **error)
{
  while (run->limit == 0 || run->n_read < run->limit)
    {
      g_autofree char *text = NULL;
      g_autoptr (GrammarRecord) record = NULL;
      gsize length = 0;
      gboolean failed;

      if (!grammar_jsonl_read_line (run->reader, run->input, &text, &length, NULL, error) || text == NULL)
        return NULL;
      run->line++;
      if (grammar_jsonl_line_is_blank (text, length))
        continue;
      record = grammar_jsonl_parse_record (run->parser, run->input, run->line, text, length, required_members,
                                           error);
      if (record == NULL)
        return NULL;
      run->n_read++;
      if (!is_skipped (run, grammar_record_get_id (record), &failed))
        return g_steal_pointer (&record);
    }
  return NULL;
}

/* Starts queries until max-concurrency are in flight. */
static void
ask_more (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  GrammarRagRunner *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  while (run->in_flight < self->max_concurrency && !run->exhausted && run->error == NULL &&
         !g_cancellable_is_cancelled (cancellable))
    {
      GError *error = NULL;
      GrammarRecord *record = next_record (run, &error);
      Query *query;

      if (record == NULL)
        {
          run->exhausted = TRUE;
          if (error != NULL)
            stop_run (run, error);
          break;
        }
      query = g_new0 (Query, 1);
      query->task = g_object_ref (task);
      query->record = record;
      query->started = g_get_monotonic_time ();
      run->in_flight++;
      grammar_system_answer_async (self->system, grammar_record_get_text (record), cancellable,
                                   on_answered, query);
    }
}

static gboolean
open_streams (Run     *run,
              GError **error)
{
  run->reader = grammar_jsonl_open (run->input, NULL, error);
  if (run->reader == NULL)
    return FALSE;
  run->writer = grammar_jsonl_open_append (run->output, run->tail.needs_newline, error);
  return run->writer != NULL;
}

static void
on_prepared (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarRagRunner *self = GRAMMAR_RAG_RUNNER (source);
  Run *run = g_task_get_task_data (task);
  GError *error = NULL;

  self->warnings = g_new0 (char *, run->warnings->len + 1);
  for (guint i = 0; i < run->warnings->len; i++)
    self->warnings[i] = g_strdup (g_ptr_array_index (run->warnings, i));

  if (!g_task_propagate_boolean (G_TASK (result), &error) || !open_streams (run, &error))
    {
      self->running = FALSE;
      g_task_return_error (task, error);
      return;
    }

  self->n_total = run->n_total;
  self->n_skipped = run->n_skipped;
  self->n_skipped_failed = run->n_skipped_failed;
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, (guint64) 0, self->n_total, (guint64) 0);

  ask_more (task);
  finish_if_done (task);
}

/**
 * grammar_rag_runner_run_async:
 * @self: a #GrammarRagRunner
 * @input: the dataset, JSON Lines of #GrammarRecord with `id` and `text`
 * @output: the results file, JSON Lines, created or resumed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the run is over
 * @user_data: data for @callback
 *
 * Starts asking the system every query of @input and appending the
 * results to @output, as described for #GrammarRagRunner. The input is
 * checked and the output read in a worker thread; the queries are then
 * asked from the thread-default main context of the caller, where
 * @callback is called too.
 *
 * When @cancellable is cancelled, no more queries are started and the
 * run ends, with %G_IO_ERROR_CANCELLED, once those in flight are over;
 * the results written so far stay in @output. A runner runs one dataset
 * at a time.
 */
void
grammar_rag_runner_run_async (GrammarRagRunner    *self,
                              const char          *input,
                              const char          *output,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GTask) prepare = NULL;
  Run *run;

  g_return_if_fail (GRAMMAR_IS_RAG_RUNNER (self));
  g_return_if_fail (input != NULL);
  g_return_if_fail (output != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, grammar_rag_runner_run_async);
  if (self->running)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING, "the runner is already running a dataset");
      return;
    }

  self->running = TRUE;
  self->n_total = self->n_answered = self->n_failed = self->n_skipped = self->n_skipped_failed = 0;
  g_clear_pointer (&self->warnings, g_strfreev);

  run = g_new0 (Run, 1);
  run->input = g_strdup (input);
  run->output = g_strdup (output);
  run->limit = self->limit;
  run->retry_failed = self->retry_failed;
  run->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run->failed_lines = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  run->warnings = g_ptr_array_new_with_free_func (g_free);
  run->parser = json_parser_new_immutable ();
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  prepare = g_task_new (self, cancellable, on_prepared, g_object_ref (task));
  g_task_set_source_tag (prepare, prepare_in_thread);
  g_task_set_task_data (prepare, run, NULL);
  g_task_run_in_thread (prepare, prepare_in_thread);
}

/**
 * grammar_rag_runner_run_finish:
 * @self: a #GrammarRagRunner
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_rag_runner_run_async(). Queries that failed do not
 * fail the run: they are written with their `error` and counted by
 * grammar_rag_runner_get_n_failed().
 *
 * Returns: %TRUE when every query was asked and written; %FALSE with
 *   @error set on a bad input or output (%GRAMMAR_ERROR_INVALID_INPUT),
 *   an output that cannot be written (%GRAMMAR_ERROR_FAILED) or
 *   cancellation (%G_IO_ERROR_CANCELLED)
 */
gboolean
grammar_rag_runner_run_finish (GrammarRagRunner  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * grammar_rag_runner_run:
 * @self: a #GrammarRagRunner
 * @input: the dataset, JSON Lines of #GrammarRecord with `id` and `text`
 * @output: the results file, JSON Lines, created or resumed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Runs the dataset, blocking: grammar_rag_runner_run_async() on a
 * private main context, so the caller's main loop does not run
 * meanwhile. The system's asynchronous calls run on that context too.
 *
 * Returns: %TRUE when every query was asked and written, failed queries
 *   included; %FALSE with @error set otherwise
 */
gboolean
grammar_rag_runner_run (GrammarRagRunner  *self,
                        const char        *input,
                        const char        *output,
                        GCancellable      *cancellable,
                        GError           **error)
{
  GrammarSync sync;
  gboolean ok;

  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), FALSE);
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (output != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  grammar_sync_init (&sync);
  grammar_rag_runner_run_async (self, input, output, cancellable, grammar_sync_callback, &sync);
  ok = grammar_rag_runner_run_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return ok;
}

/* Counts */

/**
 * grammar_rag_runner_get_n_total:
 * @self: a #GrammarRagRunner
 *
 * Returns: the queries the current or last run asks: the records of the input up to the limit, less those skipped
 */
guint64
grammar_rag_runner_get_n_total (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->n_total;
}

/**
 * grammar_rag_runner_get_n_answered:
 * @self: a #GrammarRagRunner
 *
 * Returns: the queries of the current or last run that the system answered, and that were written
 */
guint64
grammar_rag_runner_get_n_answered (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->n_answered;
}

/**
 * grammar_rag_runner_get_n_failed:
 * @self: a #GrammarRagRunner
 *
 * Returns: the queries of the current or last run that failed, written with their `error`
 */
guint64
grammar_rag_runner_get_n_failed (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->n_failed;
}

/**
 * grammar_rag_runner_get_n_skipped:
 * @self: a #GrammarRagRunner
 *
 * Returns: the records of the input (up to the limit) that the current or last run skipped because the output already had them
 */
guint64
grammar_rag_runner_get_n_skipped (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->n_skipped;
}

/**
 * grammar_rag_runner_get_n_skipped_failed:
 * @self: a #GrammarRagRunner
 *
 * Returns: the skipped records whose query had failed in an earlier run (see #GrammarRagRunner:retry-failed)
 */
guint64
grammar_rag_runner_get_n_skipped_failed (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), 0);
  return self->n_skipped_failed;
}

/**
 * grammar_rag_runner_dup_warnings:
 * @self: a #GrammarRagRunner
 *
 * What the last run changed in or noticed about the output before
 * asking: an incomplete last line removed, failed records removed to be
 * asked again, records whose id is not in the input.
 *
 * Returns: (transfer full) (array zero-terminated=1): the messages, one a line, possibly none
 */
GStrv
grammar_rag_runner_dup_warnings (GrammarRagRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RAG_RUNNER (self), NULL);

  if (self->warnings == NULL)
    return g_new0 (char *, 1);
  return g_strdupv (self->warnings);
}
