/* judge.c: `grammar judge`, a matcher over the results of the system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

static gboolean
is_retrieval_rule (const char *text)
{
  g_autoptr (GEnumClass) rules = g_type_class_ref (GRAMMAR_TYPE_RETRIEVAL_RULE);

  return g_enum_get_value_by_nick (rules, text) != NULL;
}

int
grammar_cli_judge (int    argc,
                   char **argv)
{
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarJudgeRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *section = NULL;
  g_autofree char *retrieval = NULL;
  g_auto (GrammarCliStageOptions) options = { 0 };
  gboolean closed_domain = FALSE;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "matcher", 0, 0, G_OPTION_ARG_STRING, &section,
      "The section of the matcher (default: matcher= of [judge], else matcher)", "SECTION" },
    { "closed-domain", 0, 0, G_OPTION_ARG_NONE, &closed_domain,
      "A record whose true documents were not retrieved is incorrect, without asking the matcher", NULL },
    { "retrieval", 0, 0, G_OPTION_ARG_STRING, &retrieval,
      "How the retrieval verdict is decided: all, any, context or auto (default: auto)", "RULE" },
    G_OPTION_ENTRY_NULL
  };

  if (!grammar_cli_stage_parse (&grammar_cli_stage_commands[GRAMMAR_CLI_STAGE_JUDGE], entries, &options, &argc,
                                &argv, &status))
    return status;
  if (retrieval != NULL && !is_retrieval_rule (retrieval))
    {
      fprintf (stderr, "grammar judge: --retrieval must be all, any, context or auto\n"
               "Run “grammar judge --help” for the options.\n");
      return GRAMMAR_EXIT_USAGE;
    }

  config = grammar_cli_load_config (options.config_path, &error);
  if (config == NULL)
    return grammar_cli_report ("judge", error);
  runner = grammar_judge_runner_new_from_config (config, section, &error);
  if (runner == NULL)
    return grammar_cli_report ("judge", error);
  if (closed_domain)
    grammar_judge_runner_set_closed_domain (runner, TRUE);
  if (retrieval != NULL)
    grammar_judge_runner_set_retrieval_rule (runner, retrieval);
  grammar_cli_stage_options_apply (&options, GRAMMAR_STAGE_RUNNER (runner));

  status = grammar_cli_run_stage ("judge", GRAMMAR_STAGE_RUNNER (runner), &options,
                                  G_OBJECT (grammar_judge_runner_get_matcher (runner)), &error);
  if (error != NULL)
    return grammar_cli_report ("judge", error);
  if (status != GRAMMAR_EXIT_OK)
    return status;
  if (!options.quiet)
    grammar_cli_print_stage_summary ("judge", GRAMMAR_STAGE_RUNNER (runner), NULL);
  return GRAMMAR_EXIT_OK;
}
