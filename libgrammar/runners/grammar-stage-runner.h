/* grammar-stage-runner.h: a stage that runs record by record over a JSON Lines file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "grammar-record.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONCURRENCY:
 *
 * The default of #GrammarStageRunner:max-concurrency: enough to keep a
 * local service busy (against a service that answers in 50 ms, 16 in
 * flight give about 290 queries a second, 4 gave 71).
 */
#define GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONCURRENCY 16

/**
 * GRAMMAR_STAGE_RUNNER_UNCAPPED_SERVICE:
 *
 * How many requests a service whose `max-concurrency` is 0 (no cap of its
 * own, the default of the plugins on #GrammarHttpClient) has in flight at
 * most: grammar_stage_runner_warn_caps() tells a stage whose concurrency
 * is higher.
 */
#define GRAMMAR_STAGE_RUNNER_UNCAPPED_SERVICE 64

/**
 * GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONSECUTIVE_FAILURES:
 *
 * The default of #GrammarStageRunner:max-consecutive-failures.
 */
#define GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONSECUTIVE_FAILURES 10

#define GRAMMAR_TYPE_STAGE_RUNNER (grammar_stage_runner_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GrammarStageRunner, grammar_stage_runner, GRAMMAR, STAGE_RUNNER, GObject)

/**
 * GrammarStageRunnerClass:
 * @parent_class: the parent class
 * @begin: a run starts, on the caller's thread: reset the state of the
 *   last run
 * @check_record: checks one record of the input beyond its required
 *   members, in a worker thread; an error is prefixed with nothing, so
 *   it should start with `FILE:LINE:`
 * @note_output: notes one record already in the output, in a worker
 *   thread; set @redo to have it removed from the output and run again
 * @note_input: notes one record of the input that the run reads (within
 *   the limit), in a worker thread; @done tells whether the output has
 *   it already
 * @take: one record of the input, read on the caller's thread; returns
 *   %TRUE to have it processed with @process_async, %FALSE when the
 *   subclass dealt with it (it was done, or needed no call)
 * @process_async: processes one record, asynchronously
 * @process_finish: finishes @process_async and writes or keeps what it
 *   gave; returns %FALSE with an error to stop the run (a
 *   %G_IO_ERROR_CANCELLED after cancellation just ends it)
 * @end: the records are over (@completed) or the run stops; called
 *   before the output is closed, so a subclass may still write
 * @dup_summary: one line on what the last run did, for people
 * @start_async: optional: the input is checked and the output read, the
 *   first record is not started yet (nor the output opened): a subclass
 *   may check its service here (grammar_stage_runner_get_n_total() tells
 *   how many records the run processes)
 * @start_finish: finishes @start_async; %FALSE with an error stops the
 *   run before any record, the output left as it was
 *
 * The virtual functions of a stage that runs record by record; see
 * #GrammarStageRunner.
 */
struct _GrammarStageRunnerClass
{
  GObjectClass parent_class;

  void      (*begin)          (GrammarStageRunner   *self);
  gboolean  (*check_record)   (GrammarStageRunner   *self,
                               GrammarRecord        *record,
                               JsonObject           *object,
                               const char           *path,
                               guint64               line,
                               GError              **error);
  gboolean  (*note_output)    (GrammarStageRunner   *self,
                               JsonObject           *object,
                               const char           *id,
                               gboolean             *redo,
                               GError              **error);
  void      (*note_input)     (GrammarStageRunner   *self,
                               GrammarRecord        *record,
                               gboolean              done);
  gboolean  (*take)           (GrammarStageRunner   *self,
                               GrammarRecord        *record,
                               gboolean              done);
  void      (*process_async)  (GrammarStageRunner   *self,
                               GrammarRecord        *record,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data);
  gboolean  (*process_finish) (GrammarStageRunner   *self,
                               GAsyncResult         *result,
                               GrammarRecord        *record,
                               GError              **error);
  void      (*end)            (GrammarStageRunner   *self,
                               gboolean              completed);
  char     *(*dup_summary)    (GrammarStageRunner   *self);
  void      (*start_async)    (GrammarStageRunner   *self,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data);
  gboolean  (*start_finish)   (GrammarStageRunner   *self,
                               GAsyncResult         *result,
                               GError              **error);

  /*< private >*/
  gpointer padding[6];
};

GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_class_set_required_members (GrammarStageRunnerClass *klass,
                                                           const char * const      *members);

GRAMMAR_AVAILABLE_IN_ALL
guint     grammar_stage_runner_get_max_concurrency (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_set_max_concurrency (GrammarStageRunner   *self,
                                                    guint                 max_concurrency);
GRAMMAR_AVAILABLE_IN_ALL
guint     grammar_stage_runner_get_max_consecutive_failures (GrammarStageRunner *self);
GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_set_max_consecutive_failures (GrammarStageRunner *self,
                                                             guint               max_consecutive_failures);
GRAMMAR_AVAILABLE_IN_ALL
guint64   grammar_stage_runner_get_limit           (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_set_limit           (GrammarStageRunner   *self,
                                                    guint64               limit);

GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_run_async           (GrammarStageRunner   *self,
                                                    const char           *input,
                                                    const char           *output,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
gboolean  grammar_stage_runner_run_finish          (GrammarStageRunner   *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean  grammar_stage_runner_run                 (GrammarStageRunner   *self,
                                                    const char           *input,
                                                    const char           *output,
                                                    GCancellable         *cancellable,
                                                    GError              **error);

GRAMMAR_AVAILABLE_IN_ALL
guint64   grammar_stage_runner_get_n_total         (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64   grammar_stage_runner_get_n_done          (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64   grammar_stage_runner_get_n_failed        (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64   grammar_stage_runner_get_n_skipped       (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64   grammar_stage_runner_get_n_written       (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
GStrv     grammar_stage_runner_dup_warnings        (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
char     *grammar_stage_runner_dup_summary         (GrammarStageRunner   *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_stage_runner_get_output        (GrammarStageRunner   *self);

/* For subclasses */
GRAMMAR_AVAILABLE_IN_ALL
gboolean  grammar_stage_runner_append              (GrammarStageRunner   *self,
                                                    const GString        *lines,
                                                    guint                 n_records);
GRAMMAR_AVAILABLE_IN_ALL
gboolean  grammar_stage_runner_append_failed       (GrammarStageRunner   *self,
                                                    const GString        *lines,
                                                    const GError         *error);
GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_count               (GrammarStageRunner   *self,
                                                    gboolean              failed);
GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_warn                (GrammarStageRunner   *self,
                                                    const char           *message);
GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_warn_caps           (GrammarStageRunner   *self,
                                                    const char           *name,
                                                    GObject              *service);
GRAMMAR_AVAILABLE_IN_ALL
void      grammar_stage_runner_stop                (GrammarStageRunner   *self,
                                                    GError               *error);

G_END_DECLS
