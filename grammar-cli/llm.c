/* llm.c: `grammar llm`, one prompt to the configured language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

int
grammar_cli_llm (int    argc,
                 char **argv)
{
  g_autofree char *config_path = NULL;
  g_autofree char *section = NULL;
  g_autofree char *system = NULL;
  g_autofree char *prompt = NULL;
  double temperature = -1.0;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarAssembly) assembly = NULL;
  g_autoptr (GrammarLlm) llm = NULL;
  g_autoptr (GrammarChatRequest) request = NULL;
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path, "The keyfile", "FILE" },
    { "section", 0, 0, G_OPTION_ARG_STRING, &section, "The language model section (default: llm)", "SECTION" },
    { "system", 0, 0, G_OPTION_ARG_STRING, &system, "A system message sent before the prompt", "TEXT" },
    { "temperature", 0, 0, G_OPTION_ARG_DOUBLE, &temperature, "The sampling temperature, 0 to 2 (default: 0)", "T" },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("PROMPT — ask the configured language model one question");
  g_option_context_set_summary (context,
    "Sends PROMPT (the arguments, joined by spaces) to the language model of the\n"
    "[llm] section and prints its reply; handy to check a configuration. The\n"
    "statistics line (requests, cache hits, retries, tokens) goes to stderr.");
  g_option_context_set_description (context,
    "Exit status: 0 success, 1 the run failed (a server unreachable or refusing),\n"
    "2 bad usage or configuration.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "llm", &argc, &argv, &status))
    return status;
  if (argc < 2)
    {
      fprintf (stderr, "grammar llm: no prompt given\nRun “grammar llm --help” for the options.\n");
      return GRAMMAR_EXIT_USAGE;
    }
  if (temperature != -1.0 && (temperature < 0.0 || temperature > 2.0))
    {
      fprintf (stderr, "grammar llm: --temperature must be between 0 and 2\n");
      return GRAMMAR_EXIT_USAGE;
    }
  prompt = g_strjoinv (" ", argv + 1);

  assembly = grammar_cli_load_assembly (config_path, &error);
  if (assembly == NULL)
    return grammar_cli_report ("llm", error);
  llm = grammar_assembly_build_llm (assembly, section, &error);
  if (llm == NULL)
    return grammar_cli_report ("llm", error);

  request = grammar_chat_request_new ();
  if (system != NULL)
    grammar_chat_request_add_message (request, "system", system);
  grammar_chat_request_add_message (request, "user", prompt);
  if (temperature >= 0.0)
    grammar_chat_request_set_temperature (request, temperature);
  response = grammar_llm_chat (llm, request, NULL, &error);
  if (response == NULL)
    {
      grammar_cli_print_llm_stats (G_OBJECT (llm));
      return grammar_cli_report ("llm", error);
    }
  printf ("%s\n", grammar_chat_response_get_text (response));
  fflush (stdout);
  grammar_cli_print_llm_stats (G_OBJECT (llm));
  return GRAMMAR_EXIT_OK;
}
