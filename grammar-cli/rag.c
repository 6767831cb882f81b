/* rag.c: `grammar rag`, the system under test over a dataset
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
on_progress (GrammarRagRunner *runner,
             guint64           done,
             guint64           total,
             guint64           failed,
             gpointer          user_data)
{
  Run *run = user_data;
  gint64 now = g_get_monotonic_time ();
  double seconds = (now - run->started) / (double) G_USEC_PER_SEC;

  if (done < total && now - run->last_drawn < PROGRESS_INTERVAL_US)
    return;
  run->last_drawn = now;
  run->drawn = TRUE;
  fprintf (stderr, "\r\033[K  %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " queries  %" G_GUINT64_FORMAT " failed  %.1f q/s",
           done, total, failed, seconds > 0.0 ? done / seconds : 0.0);
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

/* Stops the run on SIGINT, SIGTERM or SIGHUP: the queries in flight are
 * cancelled, and a later run asks them again. */
static gboolean
on_signal (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_CONTINUE;
}

/* Prints the statistics of every language model the system holds in a
 * property (the pipeline's generator, a dense retriever's embedder),
 * looking two levels deep. */
static void
print_llm_stats (GObject    *object,
                 GHashTable *seen,
                 guint       depth)
{
  g_autofree GParamSpec **pspecs = NULL;
  guint n_pspecs = 0;

  if (object == NULL || !g_hash_table_add (seen, object))
    return;
  if (GRAMMAR_IS_LLM (object))
    grammar_cli_print_llm_stats (object);
  if (depth == 0)
    return;

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    {
      g_autoptr (GObject) value = NULL;

      if (!G_IS_PARAM_SPEC_OBJECT (pspecs[i]) || (pspecs[i]->flags & G_PARAM_READABLE) == 0)
        continue;
      g_object_get (object, pspecs[i]->name, &value, NULL);
      print_llm_stats (value, seen, depth - 1);
    }
}

static void
print_lines (const char * const *lines)
{
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    fprintf (stderr, "grammar rag: %s\n", lines[i]);
}

static void
print_summary (GrammarRagRunner *runner,
               const char       *output)
{
  guint64 skipped_failed = grammar_rag_runner_get_n_skipped_failed (runner);

  fprintf (stderr, "grammar rag: %" G_GUINT64_FORMAT " answered, %" G_GUINT64_FORMAT " failed, %"
           G_GUINT64_FORMAT " skipped (already in %s)",
           grammar_rag_runner_get_n_answered (runner), grammar_rag_runner_get_n_failed (runner),
           grammar_rag_runner_get_n_skipped (runner), output);
  if (skipped_failed > 0)
    fprintf (stderr, "; %" G_GUINT64_FORMAT " of the skipped had failed, --retry-failed asks them again",
             skipped_failed);
  fputc ('\n', stderr);
}

static gboolean
check_options (const char *input,
               const char *output,
               gint64      limit,
               int         concurrency,
               int         argc,
               char      **argv)
{
  const char *problem = NULL;

  if (argc > 1)
    {
      fprintf (stderr, "grammar rag: unexpected argument “%s”\n", argv[1]);
      return FALSE;
    }
  if (input == NULL)
    problem = "no dataset given; pass -i dataset.jsonl";
  else if (output == NULL)
    problem = "no output given; pass -o results.jsonl";
  else if (limit < 0)
    problem = "--limit must not be negative";
  else if (concurrency < 1)
    problem = "--concurrency must be at least 1";
  if (problem != NULL)
    fprintf (stderr, "grammar rag: %s\nRun “grammar rag --help” for the options.\n", problem);
  return problem == NULL;
}

/* Runs the dataset on the default main context, which also takes the
 * signals that interrupt it. */
static gboolean
run_dataset (GrammarRagRunner  *runner,
             const char        *input,
             const char        *output,
             gboolean           show_progress,
             GError           **error)
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

  grammar_rag_runner_run_async (runner, input, output, cancellable, on_run_done, &run);
  g_main_loop_run (loop);
  result = run.result;
  ok = grammar_rag_runner_run_finish (runner, result, error);

  if (handler != 0)
    g_signal_handler_disconnect (runner, handler);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_source_remove (sources[i]);
  if (run.drawn)
    fputs ("\r\033[K", stderr);
  return ok;
}

int
grammar_cli_rag (int    argc,
                 char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GObject) system = NULL;
  g_autoptr (GrammarRagRunner) runner = NULL;
  g_autoptr (GHashTable) seen = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *input = NULL;
  g_autofree char *output = NULL;
  g_autofree char *section = NULL;
  g_auto (GStrv) warnings = NULL;
  gint64 limit = 0;
  int concurrency = GRAMMAR_RAG_RUNNER_DEFAULT_MAX_CONCURRENCY;
  gboolean retry_failed = FALSE;
  gboolean quiet = FALSE;
  gboolean ok;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path, "The keyfile describing the components", "FILE" },
    { "input", 'i', 0, G_OPTION_ARG_FILENAME, &input, "The dataset (JSON Lines, from grammar qa)", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The results to write or resume (JSON Lines)", "FILE" },
    { "system", 0, 0, G_OPTION_ARG_STRING, &section, "The section of the system under test (default: system)",
      "SECTION" },
    { "limit", 0, 0, G_OPTION_ARG_INT64, &limit, "Only the first N records of the dataset (default: all)", "N" },
    { "concurrency", 0, 0, G_OPTION_ARG_INT, &concurrency, "Queries asked at once, at most (default: 4)", "N" },
    { "retry-failed", 0, 0, G_OPTION_ARG_NONE, &retry_failed,
      "Remove the failed records from the output and ask them again", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress nor summary on stderr (warnings stay)", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— ask the system under test every query of a dataset");
  g_option_context_set_summary (context,
    "Asks the system of the [system] section every text query of the dataset and\n"
    "appends one JSON line per query to the output: the dataset line with\n"
    "response, retrieved ([{id, score, text}]), error (only when the query failed)\n"
    "and latency_ms. Lines are written in the order the answers arrive.");
  g_option_context_set_description (context,
    "Running again with the same output resumes: ids already in it are skipped,\n"
    "and an incomplete last line left by an interrupted run is removed. Ctrl-C\n"
    "stops the run: the results written stay, the queries in flight are asked\n"
    "again by the next run.\n"
    "Exit status: 0 every query answered, 1 some queries failed (they are written\n"
    "with their error) or the run failed, 2 bad usage, configuration or input.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "rag", &argc, &argv, &status))
    return status;
  if (!check_options (input, output, limit, concurrency, argc, argv))
    return GRAMMAR_EXIT_USAGE;

  config = grammar_cli_load_config (config_path, &error);
  if (config == NULL)
    return grammar_cli_report ("rag", error);
  system = grammar_config_build (config, section != NULL ? section : "system", GRAMMAR_TYPE_SYSTEM, &error);
  if (system == NULL)
    return grammar_cli_report ("rag", error);

  runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  grammar_rag_runner_set_max_concurrency (runner, concurrency);
  grammar_rag_runner_set_limit (runner, limit);
  grammar_rag_runner_set_retry_failed (runner, retry_failed);

  ok = run_dataset (runner, input, output, !quiet && isatty (fileno (stderr)), &error);
  warnings = grammar_rag_runner_dup_warnings (runner);
  print_lines ((const char * const *) warnings);
  if (grammar_rag_runner_get_n_answered (runner) + grammar_rag_runner_get_n_failed (runner) > 0)
    {
      seen = g_hash_table_new (NULL, NULL);
      print_llm_stats (system, seen, 2);
    }

  if (!ok && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      fprintf (stderr, "grammar rag: interrupted; %s keeps the %" G_GUINT64_FORMAT " results written, "
               "run again to resume\n", output,
               grammar_rag_runner_get_n_answered (runner) + grammar_rag_runner_get_n_failed (runner));
      return GRAMMAR_EXIT_FAILED;
    }
  if (!ok)
    return grammar_cli_report ("rag", error);
  if (!quiet)
    print_summary (runner, output);
  return grammar_rag_runner_get_n_failed (runner) > 0 ? GRAMMAR_EXIT_FAILED : GRAMMAR_EXIT_OK;
}
