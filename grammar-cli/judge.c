/* judge.c: `grammar judge`, a matcher over the results of the system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "grammar-cli.h"

/* How often, at most, the progress line is redrawn. */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)

typedef struct
{
  GMainLoop *loop;
  GAsyncResult *result;
  gint64 started;
  gint64 last_drawn;
  gboolean drawn;
} Run;

static void
on_progress (GrammarJudgeRunner *runner,
             guint64             done,
             guint64             total,
             guint64             correct,
             guint64             unmeasured,
             gpointer            user_data)
{
  Run *run = user_data;
  gint64 now = g_get_monotonic_time ();
  double seconds = (now - run->started) / (double) G_USEC_PER_SEC;

  if (done < total && now - run->last_drawn < PROGRESS_INTERVAL_US)
    return;
  run->last_drawn = now;
  run->drawn = TRUE;
  fprintf (stderr, "\r\033[K  %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " records  %" G_GUINT64_FORMAT
           " correct  %" G_GUINT64_FORMAT " unmeasured  %.1f r/s",
           done, total, correct, unmeasured, seconds > 0.0 ? done / seconds : 0.0);
  fflush (stderr);
}

static void
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Run *run = user_data;

  run->result = g_object_ref (result);
  g_main_loop_quit (run->loop);
}

/* Stops the run on SIGINT, SIGTERM or SIGHUP: the matcher calls in
 * flight are cancelled, and a later run judges their groups again. */
static gboolean
on_signal (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_CONTINUE;
}

/* Prints the statistics of a language model the matcher holds in a
 * property (the llm-judge's model). */
static void
print_llm_stats (GObject *matcher)
{
  g_autofree GParamSpec **pspecs = NULL;
  guint n_pspecs = 0;

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (matcher), &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    {
      g_autoptr (GObject) value = NULL;

      if (!G_IS_PARAM_SPEC_OBJECT (pspecs[i]) || (pspecs[i]->flags & G_PARAM_READABLE) == 0)
        continue;
      g_object_get (matcher, pspecs[i]->name, &value, NULL);
      if (GRAMMAR_IS_LLM (value))
        grammar_cli_print_llm_stats (value);
    }
}

static gboolean
is_retrieval_rule (const char *text)
{
  static const char * const rules[] = { "all", "any", "context", "auto", NULL };

  return g_strv_contains (rules, text);
}

static gboolean
check_options (const char *input,
               const char *output,
               const char *retrieval,
               gint64      limit,
               int         concurrency,
               int         argc,
               char      **argv)
{
  const char *problem = NULL;

  if (argc > 1)
    {
      fprintf (stderr, "grammar judge: unexpected argument “%s”\n", argv[1]);
      return FALSE;
    }
  if (input == NULL)
    problem = "no results given; pass -i results.jsonl";
  else if (output == NULL)
    problem = "no output given; pass -o judged.jsonl";
  else if (retrieval != NULL && !is_retrieval_rule (retrieval))
    problem = "--retrieval must be all, any, context or auto";
  else if (limit < 0)
    problem = "--limit must not be negative";
  else if (concurrency == 0 || concurrency < -1)
    problem = "--concurrency must be at least 1";
  if (problem != NULL)
    fprintf (stderr, "grammar judge: %s\nRun “grammar judge --help” for the options.\n", problem);
  return problem == NULL;
}

/* Runs the judging on the default main context, which also takes the
 * signals that interrupt it. */
static gboolean
run_judge (GrammarJudgeRunner  *runner,
           const char          *input,
           const char          *output,
           gboolean             show_progress,
           GError             **error)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr (GAsyncResult) result = NULL;
  const int signals[] = { SIGINT, SIGTERM, SIGHUP };
  guint sources[G_N_ELEMENTS (signals)];
  Run run = { loop, NULL, g_get_monotonic_time (), 0, FALSE };
  gulong handler = 0;
  gboolean ok;

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    sources[i] = g_unix_signal_add (signals[i], on_signal, cancellable);
  if (show_progress)
    handler = g_signal_connect (runner, "progress", G_CALLBACK (on_progress), &run);

  grammar_judge_runner_run_async (runner, input, output, cancellable, on_run_done, &run);
  g_main_loop_run (loop);
  result = run.result;
  ok = grammar_judge_runner_run_finish (runner, result, error);

  if (handler != 0)
    g_signal_handler_disconnect (runner, handler);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_source_remove (sources[i]);
  if (run.drawn)
    fputs ("\r\033[K", stderr);
  return ok;
}

static void
print_summary (GrammarJudgeRunner *runner)
{
  fprintf (stderr, "grammar judge: judged %" G_GUINT64_FORMAT " records: %" G_GUINT64_FORMAT " correct, %"
           G_GUINT64_FORMAT " incorrect, %" G_GUINT64_FORMAT " unmeasured; %" G_GUINT64_FORMAT
           " already in the output\n",
           grammar_judge_runner_get_n_judged (runner), grammar_judge_runner_get_n_correct (runner),
           grammar_judge_runner_get_n_incorrect (runner), grammar_judge_runner_get_n_unmeasured (runner),
           grammar_judge_runner_get_n_skipped (runner));
}

int
grammar_cli_judge (int    argc,
                   char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarJudgeRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *input = NULL;
  g_autofree char *output = NULL;
  g_autofree char *section = NULL;
  g_autofree char *retrieval = NULL;
  g_auto (GStrv) warnings = NULL;
  gint64 limit = 0;
  int concurrency = -1;
  gboolean closed_domain = FALSE;
  gboolean quiet = FALSE;
  gboolean ok;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path, "The keyfile describing the components", "FILE" },
    { "input", 'i', 0, G_OPTION_ARG_FILENAME, &input, "The results to judge (JSON Lines, from grammar rag)", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The judged records to write or resume (JSON Lines)",
      "FILE" },
    { "matcher", 0, 0, G_OPTION_ARG_STRING, &section,
      "The section of the matcher (default: matcher= of [judge], else matcher)", "SECTION" },
    { "closed-domain", 0, 0, G_OPTION_ARG_NONE, &closed_domain,
      "A record whose true documents were not retrieved is incorrect, without asking the matcher", NULL },
    { "retrieval", 0, 0, G_OPTION_ARG_STRING, &retrieval,
      "How the retrieval verdict is decided: all, any, context or auto (default: auto)", "RULE" },
    { "limit", 0, 0, G_OPTION_ARG_INT64, &limit, "Only the first N records of the results (default: all)", "N" },
    { "concurrency", 0, 0, G_OPTION_ARG_INT, &concurrency, "Records judged at once, at most (default: 4)", "N" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress nor summary on stderr (warnings stay)", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— judge every response of the system under test");
  g_option_context_set_summary (context,
    "Judges every record of the results with the matcher of the [matcher] section\n"
    "and appends it to the output with verdict, judge {matcher, score, reason} and\n"
    "retrieval (whether the system retrieved what the answer needs). Records are\n"
    "written group by group, once every record of a group is judged.\n"
    "\n"
    "The optional [judge] section of the keyfile sets matcher=SECTION,\n"
    "closed-domain=true|false, retrieval=all|any|context|auto and\n"
    "max-concurrency=N; the options of the command line win.");
  g_option_context_set_description (context,
    "Retrieval rules: all (every id of doc_ids retrieved), any (one of them),\n"
    "context (an incorrect record is compared with the correct records of its\n"
    "group: the same retrieved documents mean the language model failed), auto\n"
    "(all with doc_ids, context without).\n"
    "Running again with the same output resumes: ids already in it are skipped,\n"
    "and an incomplete last line left by an interrupted run is removed.\n"
    "Exit status: 0 every record judged (unmeasured ones included), 1 the matcher\n"
    "failed or the run was interrupted, 2 bad usage, configuration or input.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "judge", &argc, &argv, &status))
    return status;
  if (!check_options (input, output, retrieval, limit, concurrency, argc, argv))
    return GRAMMAR_EXIT_USAGE;

  config = grammar_cli_load_config (config_path, &error);
  if (config == NULL)
    return grammar_cli_report ("judge", error);
  runner = grammar_judge_runner_new_from_config (config, section, &error);
  if (runner == NULL)
    return grammar_cli_report ("judge", error);
  if (closed_domain)
    grammar_judge_runner_set_closed_domain (runner, TRUE);
  if (retrieval != NULL)
    grammar_judge_runner_set_retrieval_rule (runner, retrieval);
  if (concurrency > 0)
    grammar_judge_runner_set_max_concurrency (runner, concurrency);
  grammar_judge_runner_set_limit (runner, limit);

  ok = run_judge (runner, input, output, !quiet && isatty (fileno (stderr)), &error);
  warnings = grammar_judge_runner_dup_warnings (runner);
  for (guint i = 0; warnings[i] != NULL; i++)
    fprintf (stderr, "grammar judge: %s\n", warnings[i]);
  if (grammar_judge_runner_get_n_total (runner) > 0)
    print_llm_stats (G_OBJECT (grammar_judge_runner_get_matcher (runner)));

  if (!ok && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      fprintf (stderr, "grammar judge: interrupted; %s keeps the %" G_GUINT64_FORMAT " records written, "
               "run again to resume\n", output, grammar_judge_runner_get_n_judged (runner));
      return GRAMMAR_EXIT_FAILED;
    }
  if (!ok)
    return grammar_cli_report ("judge", error);
  if (!quiet)
    print_summary (runner);
  return GRAMMAR_EXIT_OK;
}
