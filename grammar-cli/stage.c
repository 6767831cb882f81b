/* stage.c: running a record-by-record stage (rag, judge) from the command line
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

typedef struct
{
  const char *input;
  const char *output;
  GrammarCliProgress progress;
} Stage;

static void
on_progress (GrammarStageRunner *runner,
             guint64             done,
             guint64             total,
             guint64             failed,
             gpointer            user_data)
{
  Stage *stage = user_data;

  grammar_cli_progress_draw (&stage->progress, done, total, "%" G_GUINT64_FORMAT " failed", failed);
}

static void
start_stage (GObject             *runner,
             gpointer             data,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  Stage *stage = data;

  grammar_stage_runner_run_async (GRAMMAR_STAGE_RUNNER (runner), stage->input, stage->output, cancellable,
                                  callback, user_data);
}

static void
print_llm_stats (GObject    *object,
                 GHashTable *seen,
                 guint       depth,
                 gboolean    systems)
{
  g_autofree GParamSpec **pspecs = NULL;
  guint n_pspecs = 0;

  if (object == NULL || !g_hash_table_add (seen, object))
    return;
  if (GRAMMAR_IS_LLM (object))
    grammar_cli_print_llm_stats (object);
  else if (systems && GRAMMAR_IS_SYSTEM (object))
    grammar_cli_print_request_stats (object, "system");
  if (depth == 0)
    return;
  /* Its metrics are not properties. */
  if (GRAMMAR_IS_ASSESS_RUNNER (object))
    for (guint i = 0; i < grammar_assess_runner_get_n_metrics (GRAMMAR_ASSESS_RUNNER (object)); i++)
      print_llm_stats (G_OBJECT (grammar_assess_runner_get_metric (GRAMMAR_ASSESS_RUNNER (object), i)), seen,
                       depth, systems);

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    {
      g_autoptr (GObject) value = NULL;

      if (!G_IS_PARAM_SPEC_OBJECT (pspecs[i]) || (pspecs[i]->flags & G_PARAM_READABLE) == 0)
        continue;
      g_object_get (object, pspecs[i]->name, &value, NULL);
      print_llm_stats (value, seen, depth - 1, systems);
    }
}

/* Prints the statistics of every language model @object is or holds in
 * a property (a pipeline's generator, a dense retriever's embedder, an
 * llm-judge's model, an assess runner's metrics' models), looking two
 * levels deep; with @systems, first the `system:` line of the system
 * @object is, when it counts its requests (the `http` system). */
static void
print_stats_within (GObject  *object,
                    gboolean  systems)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  print_llm_stats (object, seen, 2, systems);
}

/* Runs @runner from the input to the output of @options on the default
 * main context, with a progress line when stderr is a terminal (not with
 * -q); SIGINT,
 * SIGTERM and SIGHUP stop it, keeping what was written. Prints the
 * runner's warnings and the statistics of the language models of
 * @service. Returns GRAMMAR_EXIT_OK, 128 + the signal's number when
 * interrupted, or else GRAMMAR_EXIT_FAILED with @error set. */
int
grammar_cli_run_stage (const char                    *command,
                       GrammarStageRunner            *runner,
                       const GrammarCliStageOptions  *options,
                       GObject                       *service,
                       GError                       **error)
{
  Stage stage = { options->input, options->output };
  g_auto (GStrv) warnings = NULL;
  gulong handler = 0;
  int status;

  grammar_cli_progress_init (&stage.progress, command, "records", options->quiet);
  if (stage.progress.enabled)
    handler = g_signal_connect (runner, "progress", G_CALLBACK (on_progress), &stage);
  status = grammar_cli_run_until_done (command, G_OBJECT (runner), start_stage, &stage,
                                       (GrammarCliFinish) grammar_stage_runner_run_finish, error);
  if (handler != 0)
    g_signal_handler_disconnect (runner, handler);
  grammar_cli_progress_end (&stage.progress);

  warnings = grammar_stage_runner_dup_warnings (runner);
  for (guint i = 0; warnings[i] != NULL; i++)
    fprintf (stderr, "grammar %s: %s\n", command, warnings[i]);
  if (grammar_stage_runner_get_n_done (runner) > 0)
    print_stats_within (service, !options->quiet);
  if (status > GRAMMAR_EXIT_FAILED)
    {
      fprintf (stderr, "grammar %s: interrupted; %s keeps the %" G_GUINT64_FORMAT " records written, "
               "run again to resume\n", command, options->output, grammar_stage_runner_get_n_written (runner));
      return status;
    }
  return status;
}

/* Adds the options every record-by-record stage has to @context, to be
 * parsed into @options: -c, -i, -o, --limit, --concurrency and -q. */
void
grammar_cli_stage_options_add (GrammarCliStageOptions *options,
                               GOptionContext         *context,
                               const char             *input_help,
                               const char             *output_help,
                               const char             *limit_help,
                               const char             *concurrency_help)
{
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &options->config_path, "The keyfile describing the components",
      "FILE" },
    { "input", 'i', 0, G_OPTION_ARG_FILENAME, &options->input, input_help, "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options->output, output_help, "FILE" },
    { "limit", 0, 0, G_OPTION_ARG_INT64, &options->limit, limit_help, "N" },
    { "concurrency", 0, 0, G_OPTION_ARG_INT, &options->concurrency, concurrency_help, "N" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options->quiet, "No progress nor summary on stderr (warnings stay)",
      NULL },
    G_OPTION_ENTRY_NULL
  };

  options->concurrency = -1;
  g_option_context_add_main_entries (context, entries, NULL);
}

void
grammar_cli_stage_options_clear (GrammarCliStageOptions *options)
{
  g_clear_pointer (&options->config_path, g_free);
  g_clear_pointer (&options->input, g_free);
  g_clear_pointer (&options->output, g_free);
}

/* Checks @options: no argument left, -i and -o given (else @no_input or
 * @no_output), @problem (one of the stage's own, or NULL), --limit not
 * negative and --concurrency at least 1 or not given. Prints the first
 * problem with a hint. */
gboolean
grammar_cli_stage_options_check (const GrammarCliStageOptions  *options,
                                 const char                    *command,
                                 const char                    *no_input,
                                 const char                    *no_output,
                                 const char                    *problem,
                                 int                            argc,
                                 char                         **argv)
{
  if (argc > 1)
    {
      fprintf (stderr, "grammar %s: unexpected argument “%s”\n", command, argv[1]);
      return FALSE;
    }
  if (options->input == NULL)
    problem = no_input;
  else if (options->output == NULL)
    problem = no_output;
  else if (problem != NULL)
    ;
  else if (options->limit < 0)
    problem = "--limit must not be negative";
  else if (options->concurrency == 0 || options->concurrency < -1)
    problem = "--concurrency must be at least 1";
  if (problem != NULL)
    fprintf (stderr, "grammar %s: %s\nRun “grammar %s --help” for the options.\n", command, problem, command);
  return problem == NULL;
}

/* Sets the limit and, when given, the concurrency of @options on @runner. */
void
grammar_cli_stage_options_apply (const GrammarCliStageOptions *options,
                                 GrammarStageRunner           *runner)
{
  if (options->concurrency > 0)
    grammar_stage_runner_set_max_concurrency (runner, (guint) options->concurrency);
  grammar_stage_runner_set_limit (runner, (guint64) options->limit);
}

/* What `grammar rag` and `grammar judge` say about themselves. */
const GrammarCliStageCommand grammar_cli_stage_commands[] = {
  [GRAMMAR_CLI_STAGE_RAG] = {
    "rag", "— ask the system under test every query of a dataset",
    "Asks the system of the [system] section every text query of the dataset and\n"
    "appends one JSON line per query to the output: the dataset line with\n"
    "response, retrieved ([{id, score, text}]), error (only when the query failed)\n"
    "and latency_ms. Lines are written in the order the answers arrive.",
    "Running again with the same output resumes: ids already in it are skipped,\n"
    "and an incomplete last line left by an interrupted run is removed. Ctrl-C\n"
    "stops the run: the results written stay, the queries in flight are asked\n"
    "again by the next run.\n"
    "Before the first query the system is sent one short query: a service that is\n"
    "down, a wrong url or a refused key stops the run at once. The run also stops\n"
    "after [run] max-consecutive-failures= (default 10) queries in a row failed for\n"
    "want of the service (no connection, timeouts, 5xx after the retries); those\n"
    "are not written, and the next run asks them again.\n"
    "SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the run within 2 s, keeping every\n"
    "whole line written; a second signal exits at once. One process writes an\n"
    "output at a time: a second one on it stops at once (OUTPUT.lock names the first).\n"
    "Exit status: 0 every query answered, 1 some queries failed (they are written\n"
    "with their error) or the run failed (a service that is down included), 2 bad\n"
    "usage, configuration or input, or an output in use; 128 + N when signal N\n"
    "stopped it (130, 143, 129).",
    "The dataset (JSON Lines, from grammar qa)",
    "The results to write or resume (JSON Lines)",
    "Only the first N records of the dataset (default: all)",
    "Queries asked at once, at most (default: [run] concurrency=, else 16)",
    "no dataset given; pass -i dataset.jsonl",
    "no output given; pass -o results.jsonl",
  },
  [GRAMMAR_CLI_STAGE_JUDGE] = {
    "judge", "— judge every response of the system under test",
    "Judges every record of the results with the matcher of the [matcher] section\n"
    "and appends it to the output with verdict, judge {matcher, score, reason} and\n"
    "retrieval (whether the system retrieved what the answer needs). Records are\n"
    "written group by group, once every record of a group is judged.\n"
    "\n"
    "The optional [judge] section of the keyfile sets matcher=SECTION,\n"
    "closed-domain=true|false, retrieval=all|any|context|auto and\n"
    "max-concurrency=N; the options of the command line win.",
    "Retrieval rules: all (every id of doc_ids retrieved), any (one of them),\n"
    "context (an incorrect record is compared with the correct records of its\n"
    "group: the same retrieved documents mean the language model failed), auto\n"
    "(all with doc_ids, context without).\n"
    "Running again with the same output resumes: ids already in it are skipped,\n"
    "and an incomplete last line left by an interrupted run is removed.\n"
    "SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the run within 2 s, keeping every\n"
    "whole line written; a second signal exits at once. One process writes an\n"
    "output at a time: a second one on it stops at once (OUTPUT.lock names the first).\n"
    "Exit status: 0 every record judged (unmeasured ones included), 1 the matcher\n"
    "failed, 2 bad usage, configuration or input, or an output in use; 128 + N\n"
    "when signal N stopped it (130, 143, 129).",
    "The results to judge (JSON Lines, from grammar rag)",
    "The judged records to write or resume (JSON Lines)",
    "Only the first N records of the results (default: all)",
    "Records judged at once, at most (default: [judge] max-concurrency=, else [run]\n"
    "concurrency=, else 16)",
    "no results given; pass -i results.jsonl",
    "no output given; pass -o judged.jsonl",
  },
  [GRAMMAR_CLI_STAGE_ASSESS] = {
    "assess", "— score every response with the metrics of [metrics]",
    "Scores every record of the results with every metric that the metrics key of\n"
    "the [metrics] section names (metrics=faithfulness;selfcheck, each a section\n"
    "with plugin=ragas-faithfulness, selfcheck, faithfulness-lexical or\n"
    "selfcheck-ngram) and appends it to the output with assessment: one\n"
    "{plugin, score, threshold, passed, evidence} per metric, or score null with\n"
    "unmeasured (the reason) when the metric could not score it. [metrics] may\n"
    "also set max-concurrency and retry-failed.",
    "Every record is checked before any request: a metric that needs the\n"
    "retrieved texts (faithfulness) or the samples (selfcheck, see samples= of the\n"
    "system) stops the run with exit status 2 when a record lacks them.\n"
    "Running again with the same output resumes: ids already in it are skipped,\n"
    "and an incomplete last line left by an interrupted run is removed.\n"
    "grammar report -i judged.jsonl --assessed assessed.jsonl shows how far each\n"
    "metric agrees with the grounded verdicts.\n"
    "SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the run within 2 s, keeping every\n"
    "whole line written; a second signal exits at once. One process writes an\n"
    "output at a time: a second one on it stops at once (OUTPUT.lock names the first).\n"
    "Exit status: 0 every record scored (unmeasured ones included), 1 a metric\n"
    "failed on some records (written unmeasured, --retry-failed scores them again),\n"
    "2 bad usage, configuration or input, or an output in use; 128 + N when\n"
    "signal N stopped it (130, 143, 129).",
    "The results to score (JSON Lines, from grammar rag or grammar judge)",
    "The assessed records to write or resume (JSON Lines)",
    "Only the first N records of the results (default: all)",
    "Records scored at once, at most (default: [metrics] max-concurrency=, else [run]\n"
    "concurrency=, else 16)",
    "no results given; pass -i results.jsonl",
    "no output given; pass -o assessed.jsonl",
  },
};

/* Parses the command line of a stage: its own @entries and the options
 * every stage has. Returns TRUE to go on; otherwise FALSE with the exit
 * status in @status (--help, or a usage error, printed). */
gboolean
grammar_cli_stage_parse (const GrammarCliStageCommand  *command,
                         const GOptionEntry            *entries,
                         GrammarCliStageOptions        *options,
                         int                           *argc,
                         char                        ***argv,
                         int                           *status)
{
  g_autoptr (GOptionContext) context = g_option_context_new (command->parameter);

  g_option_context_set_summary (context, command->summary);
  g_option_context_set_description (context, command->description);
  grammar_cli_stage_options_add (options, context, command->input_help, command->output_help,
                                 command->limit_help, command->concurrency_help);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, command->name, argc, argv, status))
    return FALSE;
  if (!grammar_cli_stage_options_check (options, command->name, command->no_input, command->no_output, NULL,
                                        *argc, *argv))
    {
      *status = GRAMMAR_EXIT_USAGE;
      return FALSE;
    }
  {
    /* The runner checks its input; the keyfile is one too. */
    const char *inputs[] = { options->config_path };

    return grammar_cli_check_output (command->name, options->output, inputs, G_N_ELEMENTS (inputs), status);
  }
}

/* Prints the runner's one-line summary of its last run, and @extra. */
void
grammar_cli_print_stage_summary (const char         *command,
                                 GrammarStageRunner *runner,
                                 const char         *extra)
{
  g_autofree char *summary = grammar_stage_runner_dup_summary (runner);

  fprintf (stderr, "grammar %s: %s%s\n", command, summary, extra != NULL ? extra : "");
}
