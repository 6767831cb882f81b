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
  g_autoptr (GOptionContext) context = NULL;
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
  grammar_cli_stage_options_add (&options, context, "The results to judge (JSON Lines, from grammar rag)",
                                 "The judged records to write or resume (JSON Lines)",
                                 "Only the first N records of the results (default: all)",
                                 "Records judged at once, at most (default: 4)");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "judge", &argc, &argv, &status))
    return status;
  if (!grammar_cli_stage_options_check (&options, "judge", "no results given; pass -i results.jsonl",
                                        "no output given; pass -o judged.jsonl",
                                        retrieval != NULL && !is_retrieval_rule (retrieval)
                                          ? "--retrieval must be all, any, context or auto" : NULL,
                                        argc, argv))
    return GRAMMAR_EXIT_USAGE;

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
