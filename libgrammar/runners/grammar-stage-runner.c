/* grammar-stage-runner.c: a stage that runs record by record over a JSON Lines file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-config.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-jsonl-private.h"
#include "grammar-stage-runner.h"
#include "grammar-sync-private.h"

/**
 * GrammarStageRunner:
 *
 * The skeleton of every stage that reads a JSON Lines file of
 * #GrammarRecord and appends one line per record to another, calling a
 * service for each record: #GrammarRagRunner (the system under test)
 * and #GrammarJudgeRunner (the matcher) are its subclasses.
 *
 * The runner owns what such a stage must get right:
 *
 * - the whole input is checked in a worker thread before anything is
 *   written: a line that is not a JSON object, a member of the wrong
 *   type, a record without a required member and an id used twice fail
 *   the run with %GRAMMAR_ERROR_INVALID_INPUT and a message starting
 *   with `FILE:LINE:`, and the output is left as it was;
 * - resume by id: running again with the same output skips the ids
 *   already in it; an incomplete last line (a run killed while writing
 *   it) is removed first, and records a subclass marks for redoing are
 *   removed and run again;
 * - #GrammarStageRunner:limit (the first records of the input only) and
 *   #GrammarStageRunner:max-concurrency calls in flight at once, as
 *   asynchronous calls on the thread-default main context of the caller;
 * - a service that is down: the run stops after
 *   #GrammarStageRunner:max-consecutive-failures records in a row failed
 *   with %GRAMMAR_ERROR_UNAVAILABLE (grammar_stage_runner_append_failed()),
 *   with a message that gives the last error; those records are not
 *   written, so that the next run asks them again, and what was written
 *   before stays;
 * - the #GrammarStageRunner::progress signal and warnings
 *   (grammar_stage_runner_dup_warnings());
 * - one writer per output: the run holds grammar_file_lock() on the
 *   output from before it is read until the run is over, so that a
 *   second run on the same output (another process, or another runner)
 *   fails at once with %GRAMMAR_ERROR_INVALID_INPUT instead of writing
 *   every record twice;
 * - cancellation: no more records are started, the run ends with
 *   %G_IO_ERROR_CANCELLED once the calls in flight are over, and what
 *   was written stays, in whole lines;
 * - `_run_async()`, `_run_finish()` and the blocking `_run()`.
 *
 * A subclass says what a record needs
 * (grammar_stage_runner_class_set_required_members() and
 * #GrammarStageRunnerClass.check_record), what it processes
 * (#GrammarStageRunnerClass.take), how (#GrammarStageRunnerClass.process_async),
 * and writes what came of it with grammar_stage_runner_append(),
 * counting each record with grammar_stage_runner_count().
 */

typedef struct
{
  guint max_concurrency;
  guint max_consecutive_failures;
  guint64 limit;

  gboolean running;
  GTask *task;              /* the run in progress, not a reference */
  char *output;
  guint64 n_total;
  guint64 n_done;
  guint64 n_failed;
  guint64 n_skipped;
  guint64 n_written;
  GStrv warnings;
} GrammarStageRunnerPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GrammarStageRunner, grammar_stage_runner, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_MAX_CONCURRENCY,
  PROP_MAX_CONSECUTIVE_FAILURES,
  PROP_LIMIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_PROGRESS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const default_required_members[] = { "id", NULL };

/* The state of one run. The preparation (checking the input, reading
 * the output) fills the first part in a worker thread; the records are
 * then processed on the caller's main context. */
typedef struct
{
  char *input;
  char *output;
  guint64 limit;
  const char * const *required;
  GrammarFileLock *lock;    /* on the output, from the preparation to the end */

  /* Preparation */
  GHashTable *done;         /* id in the output → GINT_TO_POINTER (redo) */
  GHashTable *redo_lines;   /* output line numbers to drop */
  GrammarJsonlTail tail;    /* where the complete lines of the output end */
  guint64 n_total;
  guint64 n_skipped;
  GPtrArray *warnings;

  /* Processing */
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

  /* Failures in a row that say the service is unavailable */
  guint n_unavailable;
  GString *held;            /* their lines, not written yet */
  gboolean gave_up;         /* the run stops for them: held lines are dropped */
} Run;

static void
run_free (Run *run)
{
  g_free (run->input);
  g_free (run->output);
  g_clear_pointer (&run->lock, grammar_file_unlock);
  g_clear_pointer (&run->done, g_hash_table_unref);
  g_clear_pointer (&run->redo_lines, g_hash_table_unref);
  g_ptr_array_unref (run->warnings);
  g_clear_object (&run->parser);
  g_clear_object (&run->reader);
  g_clear_object (&run->writer);
  g_clear_error (&run->error);
  if (run->held != NULL)
    g_string_free (run->held, TRUE);
  g_free (run);
}

/* GObject */

static void
grammar_stage_runner_finalize (GObject *object)
{
  GrammarStageRunner *self = GRAMMAR_STAGE_RUNNER (object);
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_free (priv->output);
  g_strfreev (priv->warnings);

  G_OBJECT_CLASS (grammar_stage_runner_parent_class)->finalize (object);
}

static void
grammar_stage_runner_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  GrammarStageRunner *self = GRAMMAR_STAGE_RUNNER (object);
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_MAX_CONCURRENCY:
      g_value_set_uint (value, priv->max_concurrency);
      break;
    case PROP_MAX_CONSECUTIVE_FAILURES:
      g_value_set_uint (value, priv->max_consecutive_failures);
      break;
    case PROP_LIMIT:
      g_value_set_uint64 (value, priv->limit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_stage_runner_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  GrammarStageRunner *self = GRAMMAR_STAGE_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MAX_CONCURRENCY:
      grammar_stage_runner_set_max_concurrency (self, g_value_get_uint (value));
      break;
    case PROP_MAX_CONSECUTIVE_FAILURES:
      grammar_stage_runner_set_max_consecutive_failures (self, g_value_get_uint (value));
      break;
    case PROP_LIMIT:
      grammar_stage_runner_set_limit (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
grammar_stage_runner_real_take (GrammarStageRunner *self,
                                GrammarRecord      *record,
                                gboolean            done)
{
  return !done;
}

static char *
grammar_stage_runner_real_dup_summary (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  return g_strdup_printf ("%" G_GUINT64_FORMAT " done, %" G_GUINT64_FORMAT " failed, %" G_GUINT64_FORMAT
                          " skipped (already in %s)", priv->n_done - priv->n_failed, priv->n_failed,
                          priv->n_skipped, priv->output != NULL ? priv->output : "the output");
}

static void
grammar_stage_runner_class_init (GrammarStageRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_stage_runner_finalize;
  object_class->get_property = grammar_stage_runner_get_property;
  object_class->set_property = grammar_stage_runner_set_property;
  klass->take = grammar_stage_runner_real_take;
  klass->dup_summary = grammar_stage_runner_real_dup_summary;

  /**
   * GrammarStageRunner:max-concurrency:
   *
   * How many records are processed at once, at most. A service behind a
   * network answers faster with several requests in flight; one that
   * answers in the calling thread is not made parallel by it.
   */
  properties[PROP_MAX_CONCURRENCY] =
    g_param_spec_uint ("max-concurrency", NULL, "How many records are processed at once, at most",
                       1, G_MAXUINT, GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONCURRENCY,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  grammar_param_spec_set_value_hint (properties[PROP_MAX_CONCURRENCY], "must be a whole number, at least 1");

  /**
   * GrammarStageRunner:max-consecutive-failures:
   *
   * The run stops after this many records in a row failed because the
   * service is unavailable (%GRAMMAR_ERROR_UNAVAILABLE: no connection, no
   * reply in time, 5xx until the retries ran out), rather than fail every
   * record after its retries; 0 never stops. A record that fails for
   * another reason (a reply that cannot be read) or succeeds breaks the
   * row.
   */
  properties[PROP_MAX_CONSECUTIVE_FAILURES] =
    g_param_spec_uint ("max-consecutive-failures", NULL,
                       "Stop after N records in a row failed because the service is unavailable; 0: never",
                       0, G_MAXUINT, GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONSECUTIVE_FAILURES,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  grammar_param_spec_set_value_hint (properties[PROP_MAX_CONSECUTIVE_FAILURES],
                                     "must be a whole number, 0 to never stop");

  /**
   * GrammarStageRunner:limit:
   *
   * Only the first records of the input are run (a smoke run), or all of
   * them when 0. Records already in the output count towards the limit.
   */
  properties[PROP_LIMIT] =
    g_param_spec_uint64 ("limit", NULL, "How many records of the input to run, 0 for all",
                         0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GrammarStageRunner::progress:
   * @self: the runner
   * @done: the records processed so far in this run, failed ones included
   * @total: the records this run processes (neither skipped nor beyond the limit)
   * @failed: the records of @done that failed
   *
   * Emitted once when the records start and after each record is done.
   */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_UINT64);
}

static void
grammar_stage_runner_init (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  priv->max_concurrency = GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONCURRENCY;
  priv->max_consecutive_failures = GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONSECUTIVE_FAILURES;
}

static GQuark
required_members_quark (void)
{
  return g_quark_from_static_string ("grammar-stage-runner-required-members");
}

/**
 * grammar_stage_runner_class_set_required_members:
 * @klass: a #GrammarStageRunnerClass
 * @members: (array zero-terminated=1): the members every input record
 *   must have, `id` among them; kept, not copied (a static array)
 *
 * Says which members a record of the input needs, for the input check.
 * Without it, only `id`.
 */
void
grammar_stage_runner_class_set_required_members (GrammarStageRunnerClass *klass,
                                                 const char * const      *members)
{
  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER_CLASS (klass));
  g_return_if_fail (members != NULL);

  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), required_members_quark (), (gpointer) members);
}

static const char * const *
required_members (GrammarStageRunner *self)
{
  for (GType type = G_OBJECT_TYPE (self); type != G_TYPE_INVALID; type = g_type_parent (type))
    {
      const char * const *members = g_type_get_qdata (type, required_members_quark ());

      if (members != NULL)
        return members;
    }
  return default_required_members;
}

/* Settings */

/**
 * grammar_stage_runner_get_max_concurrency:
 * @self: a #GrammarStageRunner
 *
 * Returns: how many records are processed at once, at most
 */
guint
grammar_stage_runner_get_max_concurrency (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), 0);
  return priv->max_concurrency;
}

/**
 * grammar_stage_runner_set_max_concurrency:
 * @self: a #GrammarStageRunner
 * @max_concurrency: how many records to process at once, at least 1
 *
 * Sets #GrammarStageRunner:max-concurrency.
 */
void
grammar_stage_runner_set_max_concurrency (GrammarStageRunner *self,
                                          guint               max_concurrency)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER (self));
  g_return_if_fail (max_concurrency >= 1);

  if (priv->max_concurrency == max_concurrency)
    return;
  priv->max_concurrency = max_concurrency;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONCURRENCY]);
}

/**
 * grammar_stage_runner_get_max_consecutive_failures:
 * @self: a #GrammarStageRunner
 *
 * Returns: after how many records in a row failed because the service is
 *   unavailable the run stops, 0 for never
 */
guint
grammar_stage_runner_get_max_consecutive_failures (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), 0);
  return priv->max_consecutive_failures;
}

/**
 * grammar_stage_runner_set_max_consecutive_failures:
 * @self: a #GrammarStageRunner
 * @max_consecutive_failures: after how many records in a row failed
 *   because the service is unavailable to stop, 0 for never
 *
 * Sets #GrammarStageRunner:max-consecutive-failures.
 */
void
grammar_stage_runner_set_max_consecutive_failures (GrammarStageRunner *self,
                                                   guint               max_consecutive_failures)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER (self));

  if (priv->max_consecutive_failures == max_consecutive_failures)
    return;
  priv->max_consecutive_failures = max_consecutive_failures;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONSECUTIVE_FAILURES]);
}

/**
 * grammar_stage_runner_get_limit:
 * @self: a #GrammarStageRunner
 *
 * Returns: how many records of the input are run, 0 for all
 */
guint64
grammar_stage_runner_get_limit (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), 0);
  return priv->limit;
}

/**
 * grammar_stage_runner_set_limit:
 * @self: a #GrammarStageRunner
 * @limit: how many records of the input to run, 0 for all
 *
 * Sets #GrammarStageRunner:limit.
 */
void
grammar_stage_runner_set_limit (GrammarStageRunner *self,
                                guint64             limit)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER (self));

  if (priv->limit == limit)
    return;
  priv->limit = limit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIMIT]);
}

/* Preparation, in a worker thread */

static gboolean
is_skipped (Run        *run,
            const char *id)
{
  gpointer redo;

  return g_hash_table_lookup_extended (run->done, id, NULL, &redo) && !GPOINTER_TO_INT (redo);
}

typedef struct
{
  GrammarStageRunner *self;
  Run *run;
  GHashTable *lines;  /* id (the key of run->done) → its line number */
} Scan;

/* Notes one record of the output: its id, and whether the subclass
 * wants it done again. */
static gboolean
scan_output_line (JsonObject  *object,
                  const char  *id,
                  guint64      line,
                  gpointer     user_data,
                  GError     **error)
{
  Scan *scan = user_data;
  GrammarStageRunnerClass *klass = GRAMMAR_STAGE_RUNNER_GET_CLASS (scan->self);
  gboolean redo = FALSE;
  gpointer previous;

  /* Only two writers on one output, or an edit, write an id twice:
   * resuming would hide the damage (and count it as done), so the user
   * is told where it is. (The message gets "FILE:LINE: " before it.) */
  previous = g_hash_table_lookup (scan->lines, id);
  if (previous != NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "id “%s” is already on line %" G_GUINT64_FORMAT "; one output, one line a record",
                   id, (guint64) GPOINTER_TO_SIZE (previous));
      return FALSE;
    }
  if (klass->note_output != NULL && !klass->note_output (scan->self, object, id, &redo, error))
    return FALSE;
  {
    char *key = g_strdup (id);

    g_hash_table_insert (scan->run->done, key, GINT_TO_POINTER (redo));
    g_hash_table_insert (scan->lines, key, GSIZE_TO_POINTER ((gsize) line));
  }
  if (redo)
    g_hash_table_add (scan->run->redo_lines, g_memdup2 (&line, sizeof line));
  return TRUE;
}

static GrammarRecord *
parse_record (GrammarStageRunner  *self,
              Run                 *run,
              JsonParser          *parser,
              guint64              line,
              const char          *text,
              gsize                length,
              GError             **error)
{
  GrammarStageRunnerClass *klass = GRAMMAR_STAGE_RUNNER_GET_CLASS (self);
  g_autoptr (GrammarRecord) record = NULL;

  record = grammar_jsonl_parse_record (parser, run->input, line, text, length, run->required, error);
  if (record == NULL)
    return NULL;
  if (klass->check_record != NULL &&
      !klass->check_record (self, record, json_node_get_object (json_parser_get_root (parser)), run->input, line,
                            error))
    return NULL;
  return g_steal_pointer (&record);
}

/* Checks every record the run would read, and counts what it will
 * process. Nothing is processed when the input has a problem. */
static gboolean
check_input (GrammarStageRunner  *self,
             Run                 *run,
             GCancellable        *cancellable,
             GError             **error)
{
  GrammarStageRunnerClass *klass = GRAMMAR_STAGE_RUNNER_GET_CLASS (self);
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
      gboolean done;
      const char *id;

      if (!grammar_jsonl_read_line (lines, run->input, &text, &length, cancellable, error))
        return FALSE;
      if (text == NULL)
        break;
      line++;
      if (grammar_jsonl_line_is_blank (text, length))
        continue;
      record = parse_record (self, run, parser, line, text, length, error);
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
      done = is_skipped (run, id);
      if (done)
        run->n_skipped++;
      else
        run->n_total++;
      if (klass->note_input != NULL)
        klass->note_input (self, record, done);
    }

  if (run->limit == 0 && n_known < g_hash_table_size (run->done))
    g_ptr_array_add (run->warnings,
                     g_strdup_printf ("%s: %u records have an id that is not in %s; they were kept",
                                      run->output, g_hash_table_size (run->done) - (guint) n_known, run->input));
  return TRUE;
}

/* Copies the output without the lines to redo. g_file_replace() writes
 * a new file and renames it over the old one when it is closed, so a
 * kill meanwhile keeps the old output. */
static gboolean
drop_redo_lines (Run           *run,
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
      if (g_hash_table_contains (run->redo_lines, &line))
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
                                    run->output, g_hash_table_size (run->redo_lines)));
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

/* Everything that happens before the first record: the input is checked
 * before the output is touched, so that a bad input changes nothing. */
static gboolean
prepare (GrammarStageRunner  *self,
         Run                 *run,
         GCancellable        *cancellable,
         GError             **error)
{
  /* Its keys are those of run->done, which outlives it. */
  g_autoptr (GHashTable) lines = g_hash_table_new (g_str_hash, g_str_equal);
  Scan scan = { self, run, lines };

  if (!grammar_jsonl_check_not_same_file (run->input, run->output, cancellable, error) ||
      (run->lock = grammar_file_lock (run->output, error)) == NULL ||
      !grammar_jsonl_scan_output (run->output, scan_output_line, &scan, &run->tail, cancellable, error) ||
      !check_input (self, run, cancellable, error))
    return FALSE;

  if (g_hash_table_size (run->redo_lines) > 0)
    {
      if (!drop_redo_lines (run, cancellable, error))
        return FALSE;
    }
  else if (run->tail.incomplete_line > 0 &&
           !grammar_jsonl_drop_incomplete_line (run->output, &run->tail, cancellable, error))
    return FALSE;
  if (run->tail.incomplete_line > 0)
    g_ptr_array_add (run->warnings,
                     g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": removed an incomplete last line "
                                      "left by an interrupted run",
                                      run->output, run->tail.incomplete_line));
  return TRUE;
}

static void
prepare_in_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  GError *error = NULL;

  if (prepare (GRAMMAR_STAGE_RUNNER (source_object), task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Processing, on the caller's main context */

typedef struct
{
  GTask *task;             /* the run's */
  GrammarRecord *record;
} Item;

static void
item_free (Item *item)
{
  g_object_unref (item->task);
  g_object_unref (item->record);
  g_free (item);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Item, item_free)

static void process_more (GTask *task);
static void write_held (GrammarStageRunner *self,
                        Run                *run);

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
  GrammarStageRunner *self = g_task_get_source_object (task);
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  GrammarStageRunnerClass *klass = GRAMMAR_STAGE_RUNNER_GET_CLASS (self);
  GCancellable *cancellable = g_task_get_cancellable (task);
  gboolean stopped = run->error != NULL || g_cancellable_is_cancelled (cancellable);

  if (run->finished || run->in_flight > 0 || !(run->exhausted || stopped))
    return;

  /* Failures in a row that did not stop the run are kept like any. */
  write_held (self, run);
  if (klass->end != NULL)
    klass->end (self, !stopped);
  run->finished = TRUE;
  priv->running = FALSE;
  priv->task = NULL;
  if (run->writer != NULL)
    g_output_stream_close (run->writer, NULL, NULL);
  /* Before the caller hears of the end, so that it can run again at once. */
  g_clear_pointer (&run->lock, grammar_file_unlock);
  if (run->error != NULL)
    g_task_return_error (task, g_steal_pointer (&run->error));
  else if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

static void
on_processed (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (Item) item = user_data;
  GTask *task = item->task;
  Run *run = g_task_get_task_data (task);
  GrammarStageRunner *self = g_task_get_source_object (task);
  g_autoptr (GError) error = NULL;

  run->in_flight--;
  if (!GRAMMAR_STAGE_RUNNER_GET_CLASS (self)->process_finish (self, result, item->record, &error))
    {
      /* Cut short by the caller: not done, run again on resume. */
      if (!(g_cancellable_is_cancelled (g_task_get_cancellable (task)) &&
            g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
        stop_run (run, g_steal_pointer (&error));
    }

  process_more (task);
  finish_if_done (task);
}

/* The next record of the input, or %NULL at its end (or at the limit),
 * or on an error. */
static GrammarRecord *
next_record (GrammarStageRunner  *self,
             Run                 *run,
             gboolean            *done,
             GError             **error)
{
  while (run->limit == 0 || run->n_read < run->limit)
    {
      g_autofree char *text = NULL;
      gsize length = 0;
      GrammarRecord *record;

      if (!grammar_jsonl_read_line (run->reader, run->input, &text, &length, NULL, error) || text == NULL)
        return NULL;
      run->line++;
      if (grammar_jsonl_line_is_blank (text, length))
        continue;
      record = parse_record (self, run, run->parser, run->line, text, length, error);
      if (record == NULL)
        return NULL;
      run->n_read++;
      *done = is_skipped (run, grammar_record_get_id (record));
      return record;
    }
  return NULL;
}

/* Reads records until max-concurrency are in flight. */
static void
process_more (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  GrammarStageRunner *self = g_task_get_source_object (task);
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  GrammarStageRunnerClass *klass = GRAMMAR_STAGE_RUNNER_GET_CLASS (self);
  GCancellable *cancellable = g_task_get_cancellable (task);

  while (run->in_flight < priv->max_concurrency && !run->exhausted && run->error == NULL &&
         !g_cancellable_is_cancelled (cancellable))
    {
      GError *error = NULL;
      gboolean done = FALSE;
      g_autoptr (GrammarRecord) record = next_record (self, run, &done, &error);
      Item *item;

      if (record == NULL)
        {
          run->exhausted = TRUE;
          if (error != NULL)
            stop_run (run, error);
          break;
        }
      if (!klass->take (self, record, done))
        continue;
      item = g_new0 (Item, 1);
      item->task = g_object_ref (task);
      item->record = g_steal_pointer (&record);
      run->in_flight++;
      klass->process_async (self, item->record, cancellable, on_processed, item);
    }
}

/* The run ends before its first record. */
static void
fail_before_records (GTask  *task,
                     GError *error)
{
  GrammarStageRunner *self = g_task_get_source_object (task);
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  Run *run = g_task_get_task_data (task);

  priv->running = FALSE;
  priv->task = NULL;
  g_clear_pointer (&run->lock, grammar_file_unlock);
  g_task_return_error (task, error);
}

static void
start_records (GTask *task)
{
  GrammarStageRunner *self = g_task_get_source_object (task);
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  Run *run = g_task_get_task_data (task);
  GError *error = NULL;

  if ((run->reader = grammar_jsonl_open (run->input, NULL, &error)) == NULL ||
      (run->writer = grammar_jsonl_open_append (run->output, run->tail.needs_newline, &error)) == NULL)
    {
      fail_before_records (task, error);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, (guint64) 0, priv->n_total, (guint64) 0);

  process_more (task);
  finish_if_done (task);
}

static void
on_started (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarStageRunner *self = GRAMMAR_STAGE_RUNNER (source);
  GError *error = NULL;

  if (!GRAMMAR_STAGE_RUNNER_GET_CLASS (self)->start_finish (self, result, &error))
    fail_before_records (task, error);
  else
    start_records (task);
}

static void
on_prepared (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarStageRunner *self = GRAMMAR_STAGE_RUNNER (source);
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  GrammarStageRunnerClass *klass = GRAMMAR_STAGE_RUNNER_GET_CLASS (self);
  Run *run = g_task_get_task_data (task);
  GError *error = NULL;

  /* Those of the preparation first, then any the subclass gave. */
  for (guint i = 0; priv->warnings != NULL && priv->warnings[i] != NULL; i++)
    g_ptr_array_add (run->warnings, g_strdup (priv->warnings[i]));
  g_ptr_array_add (run->warnings, NULL);
  g_strfreev (priv->warnings);
  priv->warnings = g_strdupv ((char **) run->warnings->pdata);
  g_ptr_array_remove_index (run->warnings, run->warnings->len - 1);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      fail_before_records (task, error);
      return;
    }

  priv->n_total = run->n_total;
  priv->n_skipped = run->n_skipped;
  if (klass->start_async != NULL)
    {
      GCancellable *cancellable = g_task_get_cancellable (task);

      klass->start_async (self, cancellable, on_started, g_steal_pointer (&task));
    }
  else
    start_records (task);
}

/**
 * grammar_stage_runner_run_async:
 * @self: a #GrammarStageRunner
 * @input: the input, JSON Lines of #GrammarRecord
 * @output: the output, JSON Lines, created or resumed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the run is over
 * @user_data: data for @callback
 *
 * Starts processing every record of @input and appending what comes of
 * it to @output, as described for #GrammarStageRunner. The input is
 * checked and the output read in a worker thread; the records are then
 * processed from the thread-default main context of the caller, where
 * @callback is called too.
 *
 * When @cancellable is cancelled, no more records are started and the
 * run ends, with %G_IO_ERROR_CANCELLED, once those in flight are over;
 * what was written so far stays in @output. A runner runs one input at a
 * time.
 */
void
grammar_stage_runner_run_async (GrammarStageRunner  *self,
                                const char          *input,
                                const char          *output,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  GrammarStageRunnerClass *klass;
  g_autoptr (GTask) task = NULL;
  g_autoptr (GTask) prepare_task = NULL;
  Run *run;

  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER (self));
  g_return_if_fail (input != NULL);
  g_return_if_fail (output != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  klass = GRAMMAR_STAGE_RUNNER_GET_CLASS (self);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, grammar_stage_runner_run_async);
  if (priv->running)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING, "the runner is already running an input");
      return;
    }

  priv->running = TRUE;
  priv->task = task;
  priv->n_total = priv->n_done = priv->n_failed = priv->n_skipped = priv->n_written = 0;
  g_clear_pointer (&priv->warnings, g_strfreev);
  g_free (priv->output);
  priv->output = g_strdup (output);
  if (klass->begin != NULL)
    klass->begin (self);

  run = g_new0 (Run, 1);
  run->input = g_strdup (input);
  run->output = g_strdup (output);
  run->limit = priv->limit;
  run->required = required_members (self);
  run->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run->redo_lines = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  run->warnings = g_ptr_array_new_with_free_func (g_free);
  run->parser = json_parser_new_immutable ();
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  prepare_task = g_task_new (self, cancellable, on_prepared, g_object_ref (task));
  g_task_set_source_tag (prepare_task, prepare_in_thread);
  g_task_set_task_data (prepare_task, run, NULL);
  g_task_run_in_thread (prepare_task, prepare_in_thread);
}

/**
 * grammar_stage_runner_run_finish:
 * @self: a #GrammarStageRunner
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_stage_runner_run_async(). Records that failed do not
 * fail the run when the subclass writes them with their error; they are
 * counted by grammar_stage_runner_get_n_failed().
 *
 * Returns: %TRUE when every record was processed and written; %FALSE
 *   with @error set on a bad input or output
 *   (%GRAMMAR_ERROR_INVALID_INPUT), an output that cannot be written or
 *   a failure the subclass stops at (%GRAMMAR_ERROR_FAILED), or
 *   cancellation (%G_IO_ERROR_CANCELLED)
 */
gboolean
grammar_stage_runner_run_finish (GrammarStageRunner  *self,
                                 GAsyncResult        *result,
                                 GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * grammar_stage_runner_run:
 * @self: a #GrammarStageRunner
 * @input: the input, JSON Lines of #GrammarRecord
 * @output: the output, JSON Lines, created or resumed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Runs the input, blocking: grammar_stage_runner_run_async() on a
 * private main context, so the caller's main loop does not run
 * meanwhile. The services' asynchronous calls run on that context too.
 *
 * Returns: %TRUE when every record was processed and written; %FALSE
 *   with @error set otherwise
 */
gboolean
grammar_stage_runner_run (GrammarStageRunner  *self,
                          const char          *input,
                          const char          *output,
                          GCancellable        *cancellable,
                          GError             **error)
{
  GrammarSync sync;
  gboolean ok;

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), FALSE);
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (output != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  grammar_sync_init (&sync);
  grammar_stage_runner_run_async (self, input, output, cancellable, grammar_sync_callback, &sync);
  ok = grammar_stage_runner_run_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return ok;
}

/* For subclasses */

/**
 * grammar_stage_runner_append:
 * @self: a #GrammarStageRunner
 * @lines: whole JSON Lines, each ending with a newline
 * @n_records: how many records @lines hold
 *
 * Appends @lines to the output of the run in progress, in one write that
 * is flushed at once. A subclass calls it from
 * #GrammarStageRunnerClass.process_finish or #GrammarStageRunnerClass.end.
 * When the output cannot be written, the run stops with that error.
 *
 * Returns: %TRUE when @lines were written
 */
gboolean
grammar_stage_runner_append (GrammarStageRunner *self,
                             const GString      *lines,
                             guint               n_records)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  GError *error = NULL;
  Run *run;

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), FALSE);
  g_return_val_if_fail (lines != NULL, FALSE);
  g_return_val_if_fail (priv->task != NULL, FALSE);

  run = g_task_get_task_data (priv->task);
  if (run->write_failed || run->writer == NULL)
    return FALSE;  /* the run is over: nothing more can be kept */
  if (!grammar_jsonl_write (run->writer, run->output, lines, &error))
    {
      run->write_failed = TRUE;
      stop_run (run, error);
      return FALSE;
    }
  priv->n_written += n_records;
  return TRUE;
}

static void
count_record (GrammarStageRunner *self,
              gboolean            failed)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  priv->n_done++;
  if (failed)
    priv->n_failed++;
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, priv->n_done, priv->n_total, priv->n_failed);
}

/* Writes the lines of the failures in a row held back, unless the run
 * stops for them. */
static void
write_held (GrammarStageRunner *self,
            Run                *run)
{
  guint n_held = 0;

  if (run->held == NULL || run->held->len == 0)
    return;
  for (gsize i = 0; i < run->held->len; i++)
    n_held += run->held->str[i] == '\n';
  if (!run->gave_up)
    grammar_stage_runner_append (self, run->held, n_held);
  g_string_truncate (run->held, 0);
}

/**
 * grammar_stage_runner_count:
 * @self: a #GrammarStageRunner
 * @failed: whether the record failed
 *
 * Counts one record of the run in progress as done, and emits
 * #GrammarStageRunner::progress. It ends a row of failures for want of
 * the service (grammar_stage_runner_append_failed()).
 */
void
grammar_stage_runner_count (GrammarStageRunner *self,
                            gboolean            failed)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER (self));

  if (priv->task != NULL)
    {
      Run *run = g_task_get_task_data (priv->task);

      run->n_unavailable = 0;
      write_held (self, run);
    }
  count_record (self, failed);
}

/**
 * grammar_stage_runner_append_failed:
 * @self: a #GrammarStageRunner
 * @lines: the whole JSON line of one record that failed, ending with a
 *   newline
 * @error: why it failed
 *
 * Writes one record that failed and counts it, as
 * grammar_stage_runner_append() and grammar_stage_runner_count() do.
 *
 * A failure with %GRAMMAR_ERROR_UNAVAILABLE (the service could not be
 * reached) counts towards #GrammarStageRunner:max-consecutive-failures,
 * and its line is held back while the row lasts: it is written when a
 * record succeeds or fails for another reason, or when the run ends.
 * When the row reaches the maximum, the run stops with a
 * %GRAMMAR_ERROR_UNAVAILABLE error that gives @error's message, once the
 * records in flight are over; the lines of the row are then dropped, so
 * that the next run asks those records again.
 *
 * Returns: %TRUE when @lines were written or held back
 */
gboolean
grammar_stage_runner_append_failed (GrammarStageRunner *self,
                                    const GString      *lines,
                                    const GError       *error)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  Run *run;

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), FALSE);
  g_return_val_if_fail (lines != NULL, FALSE);
  g_return_val_if_fail (error != NULL, FALSE);
  g_return_val_if_fail (priv->task != NULL, FALSE);

  if (priv->max_consecutive_failures == 0 || !g_error_matches (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE))
    {
      if (!grammar_stage_runner_append (self, lines, 1))
        return FALSE;
      grammar_stage_runner_count (self, TRUE);
      return TRUE;
    }

  run = g_task_get_task_data (priv->task);
  if (run->write_failed || run->writer == NULL)
    return FALSE;
  run->n_unavailable++;
  if (!run->gave_up)
    {
      if (run->held == NULL)
        run->held = g_string_new (NULL);
      g_string_append_len (run->held, lines->str, (gssize) lines->len);
    }
  count_record (self, TRUE);
  if (!run->gave_up && run->n_unavailable >= priv->max_consecutive_failures)
    {
      run->gave_up = TRUE;
      g_string_truncate (run->held, 0);
      stop_run (run, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE,
                                  "%u records in a row failed for want of the service "
                                  "(max-consecutive-failures=%u), the last with: %s; the stage stopped. "
                                  "%s keeps the records written; run again to resume once the service answers",
                                  run->n_unavailable, priv->max_consecutive_failures, error->message, run->output));
    }
  return TRUE;
}

/**
 * grammar_stage_runner_warn:
 * @self: a #GrammarStageRunner
 * @message: what the run noticed
 *
 * Adds @message to the warnings of the run in progress
 * (grammar_stage_runner_dup_warnings()), for a subclass, from
 * #GrammarStageRunnerClass.begin on.
 */
void
grammar_stage_runner_warn (GrammarStageRunner *self,
                           const char         *message)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  guint n;

  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER (self));
  g_return_if_fail (message != NULL);

  n = priv->warnings != NULL ? g_strv_length (priv->warnings) : 0;
  priv->warnings = g_renew (char *, priv->warnings, n + 2);
  priv->warnings[n] = g_strdup (message);
  priv->warnings[n + 1] = NULL;
}

/**
 * grammar_stage_runner_stop:
 * @self: a #GrammarStageRunner
 * @error: (transfer full): why
 *
 * Stops the run in progress with @error, once the records in flight are
 * over (only the first error is kept).
 */
void
grammar_stage_runner_stop (GrammarStageRunner *self,
                           GError             *error)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER (self));
  g_return_if_fail (error != NULL);

  if (priv->task == NULL)
    {
      g_error_free (error);
      return;
    }
  stop_run (g_task_get_task_data (priv->task), error);
}

static void
warn_caps (GrammarStageRunner *self,
           const char         *name,
           GObject            *object,
           GHashTable         *seen,
           guint               depth)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);
  GParamSpec *pspec;
  g_autofree GParamSpec **pspecs = NULL;
  guint n_pspecs = 0;

  if (object == NULL || GRAMMAR_IS_STAGE_RUNNER (object) || !g_hash_table_add (seen, object))
    return;
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), "max-concurrency");
  if (pspec != NULL && (pspec->flags & G_PARAM_READABLE) != 0)
    {
      g_auto (GValue) value = G_VALUE_INIT;
      g_auto (GValue) cap = G_VALUE_INIT;

      g_value_init (&value, pspec->value_type);
      g_value_init (&cap, G_TYPE_UINT);
      g_object_get_property (object, "max-concurrency", &value);
      if (g_value_transform (&value, &cap) && g_value_get_uint (&cap) == 0 &&
          priv->max_concurrency > GRAMMAR_STAGE_RUNNER_UNCAPPED_SERVICE)
        {
          g_autofree char *message =
            g_strdup_printf ("%s: at most %u requests are in flight while its max-concurrency is unset; set "
                             "max-concurrency=%u for concurrency %u", name, GRAMMAR_STAGE_RUNNER_UNCAPPED_SERVICE,
                             priv->max_concurrency, priv->max_concurrency);

          grammar_stage_runner_warn (self, message);
        }
      else if (g_value_get_uint (&cap) > 0 && g_value_get_uint (&cap) < priv->max_concurrency)
        {
          g_autofree char *message =
            g_strdup_printf ("%s: max-concurrency=%u caps concurrency %u: at most %u requests are in flight "
                             "(leave max-concurrency unset to let concurrency decide)", name,
                             g_value_get_uint (&cap), priv->max_concurrency, g_value_get_uint (&cap));

          grammar_stage_runner_warn (self, message);
        }
    }
  if (depth == 0)
    return;
  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    {
      g_autoptr (GObject) value = NULL;
      g_autofree char *inner = NULL;

      if (!G_IS_PARAM_SPEC_OBJECT (pspecs[i]) || (pspecs[i]->flags & G_PARAM_READABLE) == 0)
        continue;
      g_object_get (object, pspecs[i]->name, &value, NULL);
      inner = g_strdup_printf ("%s %s", name, pspecs[i]->name);
      warn_caps (self, inner, value, seen, depth - 1);
    }
}

/**
 * grammar_stage_runner_warn_caps:
 * @self: a #GrammarStageRunner
 * @name: what @service is, for people, such as `system`
 * @service: the object the records are sent to
 *
 * Adds a warning to the run in progress for each `max-concurrency` of
 * @service, or of an object it holds in a property (two levels deep),
 * that is set below #GrammarStageRunner:max-concurrency: that one caps
 * how many records are in flight, and the user is told which cap wins.
 * One that is 0 (no cap of its own) caps at
 * %GRAMMAR_STAGE_RUNNER_UNCAPPED_SERVICE, told when the concurrency is
 * higher.
 */
void
grammar_stage_runner_warn_caps (GrammarStageRunner *self,
                                const char         *name,
                                GObject            *service)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  g_return_if_fail (GRAMMAR_IS_STAGE_RUNNER (self));
  g_return_if_fail (name != NULL);

  warn_caps (self, name, service, seen, 2);
}

/* Counts */

/**
 * grammar_stage_runner_get_n_total:
 * @self: a #GrammarStageRunner
 *
 * Returns: the records the last run processes: those of the input,
 *   within the limit, that were not in the output already
 */
guint64
grammar_stage_runner_get_n_total (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), 0);
  return priv->n_total;
}

/**
 * grammar_stage_runner_get_n_done:
 * @self: a #GrammarStageRunner
 *
 * Returns: the records the last run processed, failed ones included
 */
guint64
grammar_stage_runner_get_n_done (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), 0);
  return priv->n_done;
}

/**
 * grammar_stage_runner_get_n_failed:
 * @self: a #GrammarStageRunner
 *
 * Returns: the records of the last run that failed and were written
 *   with their error
 */
guint64
grammar_stage_runner_get_n_failed (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), 0);
  return priv->n_failed;
}

/**
 * grammar_stage_runner_get_n_skipped:
 * @self: a #GrammarStageRunner
 *
 * Returns: the records of the input (within the limit) the last run
 *   skipped, since the output had them already
 */
guint64
grammar_stage_runner_get_n_skipped (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), 0);
  return priv->n_skipped;
}

/**
 * grammar_stage_runner_get_n_written:
 * @self: a #GrammarStageRunner
 *
 * Returns: the records the last run wrote to its output
 */
guint64
grammar_stage_runner_get_n_written (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), 0);
  return priv->n_written;
}

/**
 * grammar_stage_runner_dup_warnings:
 * @self: a #GrammarStageRunner
 *
 * What the last run noticed without failing: an incomplete last line it
 * removed, records it removed to redo, records of the output whose id is
 * not in the input.
 *
 * Returns: (transfer full) (array zero-terminated=1): the warnings,
 *   possibly none
 */
GStrv
grammar_stage_runner_dup_warnings (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), NULL);
  return priv->warnings != NULL ? g_strdupv (priv->warnings) : g_new0 (char *, 1);
}

/**
 * grammar_stage_runner_dup_summary:
 * @self: a #GrammarStageRunner
 *
 * Returns: (transfer full): one line on what the last run did, such as
 *   `630 answered, 0 failed, 0 skipped (already in results.jsonl)`
 */
char *
grammar_stage_runner_dup_summary (GrammarStageRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), NULL);
  return GRAMMAR_STAGE_RUNNER_GET_CLASS (self)->dup_summary (self);
}

/**
 * grammar_stage_runner_get_output:
 * @self: a #GrammarStageRunner
 *
 * Returns: (nullable) (type filename): the output of the last run
 */
const char *
grammar_stage_runner_get_output (GrammarStageRunner *self)
{
  GrammarStageRunnerPrivate *priv = grammar_stage_runner_get_instance_private (self);

  g_return_val_if_fail (GRAMMAR_IS_STAGE_RUNNER (self), NULL);
  return priv->output;
}
