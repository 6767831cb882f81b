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
  g_autoptr (GrammarConfig) config = NULL;
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

  if (!grammar_cli_stage_parse (&grammar_cli_stage_commands[GRAMMAR_CLI_STAGE_RAG], entries, &options, &argc, &argv,
                                &status))
    return status;

  config = grammar_cli_load_config (options.config_path, &error);
  if (config == NULL)
    return grammar_cli_report ("rag", error);
  runner = grammar_rag_runner_new_from_config (config, section, &error);
  if (runner == NULL)
    return grammar_cli_report ("rag", error);
  grammar_cli_stage_options_apply (&options, GRAMMAR_STAGE_RUNNER (runner));
  grammar_rag_runner_set_retry_failed (runner, retry_failed);

  status = grammar_cli_run_stage ("rag", GRAMMAR_STAGE_RUNNER (runner), &options,
                                  G_OBJECT (grammar_rag_runner_get_system (runner)), &error);
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
