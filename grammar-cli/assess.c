/* assess.c: `grammar assess`, the metrics of [metrics] over a results file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

int
grammar_cli_assess (int    argc,
                    char **argv)
{
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarAssessRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GrammarCliStageOptions) options = { 0 };
  gboolean retry_failed = FALSE;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "retry-failed", 0, 0, G_OPTION_ARG_NONE, &retry_failed,
      "Remove the records where a metric failed from the output and score them again", NULL },
    G_OPTION_ENTRY_NULL
  };

  if (!grammar_cli_stage_parse (&grammar_cli_stage_commands[GRAMMAR_CLI_STAGE_ASSESS], entries, &options, &argc,
                                &argv, &status))
    return status;

  config = grammar_cli_load_config (options.config_path, &error);
  if (config == NULL)
    return grammar_cli_report ("assess", error);
  runner = grammar_assess_runner_new_from_config (config, &error);
  if (runner == NULL)
    return grammar_cli_report ("assess", error);
  grammar_cli_stage_options_apply (&options, GRAMMAR_STAGE_RUNNER (runner));
  if (retry_failed)
    grammar_assess_runner_set_retry_failed (runner, TRUE);

  status = grammar_cli_run_stage ("assess", GRAMMAR_STAGE_RUNNER (runner), &options, G_OBJECT (runner), &error);
  if (error != NULL)
    return grammar_cli_report ("assess", error);
  if (status != GRAMMAR_EXIT_OK)
    return status;
  if (!options.quiet)
    grammar_cli_print_stage_summary ("assess", GRAMMAR_STAGE_RUNNER (runner), NULL);
  return grammar_stage_runner_get_n_failed (GRAMMAR_STAGE_RUNNER (runner)) > 0 ? GRAMMAR_EXIT_FAILED
                                                                                : GRAMMAR_EXIT_OK;
}
