/* rag.c: `grammar rag`, the system under test over a dataset
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

int
grammar_cli_rag (int    argc,
                 char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GObject) system = NULL;
  g_autoptr (GrammarRagRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *section = NULL;
  g_auto (GrammarCliStageOptions) options = { 0 };
  gboolean retry_failed = FALSE;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "system", 0, 0, G_OPTION_ARG_STRING, &section, "The section of the system under test (default: system)",
      "SECTION" },
    { "retry-failed", 0, 0, G_OPTION_ARG_NONE, &retry_failed,
      "Remove the failed records from the output and ask them again", NULL },
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
  grammar_cli_stage_options_add (&options, context, "The dataset (JSON Lines, from grammar qa)",
                                 "The results to write or resume (JSON Lines)",
                                 "Only the first N records of the dataset (default: all)",
                                 "Queries asked at once, at most (default: 4)");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "rag", &argc, &argv, &status))
    return status;
  if (!grammar_cli_stage_options_check (&options, "rag", "no dataset given; pass -i dataset.jsonl",
                                        "no output given; pass -o results.jsonl", NULL, argc, argv))
    return GRAMMAR_EXIT_USAGE;

  config = grammar_cli_load_config (options.config_path, &error);
  if (config == NULL)
    return grammar_cli_report ("rag", error);
  system = grammar_config_build (config, section != NULL ? section : "system", GRAMMAR_TYPE_SYSTEM, &error);
  if (system == NULL)
    return grammar_cli_report ("rag", error);

  runner = grammar_rag_runner_new (GRAMMAR_SYSTEM (system));
  grammar_cli_stage_options_apply (&options, GRAMMAR_STAGE_RUNNER (runner));
  grammar_rag_runner_set_retry_failed (runner, retry_failed);

  status = grammar_cli_run_stage ("rag", GRAMMAR_STAGE_RUNNER (runner), &options, system, &error);
  if (error != NULL)
    return grammar_cli_report ("rag", error);
  if (status != GRAMMAR_EXIT_OK)
    return status;
  if (!options.quiet)
    {
      guint64 skipped_failed = grammar_rag_runner_get_n_skipped_failed (runner);
      g_autofree char *extra = NULL;

      if (skipped_failed > 0)
        extra = g_strdup_printf ("; %" G_GUINT64_FORMAT " of the skipped had failed, --retry-failed asks them again",
                                 skipped_failed);
      grammar_cli_print_stage_summary ("rag", GRAMMAR_STAGE_RUNNER (runner), extra);
    }
  return grammar_stage_runner_get_n_failed (GRAMMAR_STAGE_RUNNER (runner)) > 0 ? GRAMMAR_EXIT_FAILED
                                                                                : GRAMMAR_EXIT_OK;
}
