/* main.c: the `grammar` command and its subcommands
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>

#include "grammar-cli.h"

typedef struct
{
  const char *name;
  const char *summary;
  int (*run) (int argc, char **argv);
} Command;

static const Command commands[] = {
  { "plugins", "List every plugin: interface, name, description, properties", grammar_cli_plugins },
  { "schema", "Show the tables, columns, keys and foreign keys of the configured database", grammar_cli_schema },
  { "sql-templates", "Generate SQL query templates from the schema and data (or an LLM)", grammar_cli_sql_templates },
  { "text-templates", "Turn SQL templates into natural-language templates in a style", grammar_cli_text_templates },
  { "qa", "Fill templates with database values: grounded query-answer pairs", grammar_cli_qa },
  { "docs", "Make the document corpus from the database: one document per row", grammar_cli_docs },
  { "rag", "Ask the system under test every query of a dataset (resumable)", grammar_cli_rag },
  { "judge", "Judge every response of a results file, group by group (resumable)", grammar_cli_judge },
  { "assess", "Score every response with the metrics of [metrics] (resumable)", grammar_cli_assess },
  { "report", "Accuracy, robustness and their breakdowns for a judged run; compare two runs",
    grammar_cli_report_main },
  { "run", "The whole method: templates, datasets, the system under test, judge and report", grammar_cli_run },
  { "check", "Check a keyfile and show what `grammar run` would do, running nothing", grammar_cli_check },
  { "import", "Import files of the Python GRAMMAR tool", grammar_cli_import },
  { "llm", "Send one prompt to the configured language model and print its reply", grammar_cli_llm },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "Usage: grammar COMMAND [OPTION…]\n\n"
                "GRAMMAR: grounded and modular evaluation of retrieval-augmented generation.\n\n"
                "Commands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-15s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\nOptions:\n"
                "  -h, --help     Show this help\n"
                "  --version      Show the version\n\n"
                "Run “grammar COMMAND --help” for the options of a command.\n"
                "Exit status: 0 success, 1 the run failed, 2 bad usage, configuration or input\n"
                "(or an output another process is writing), 128 + N stopped by signal N\n"
                "(130 SIGINT, 143 SIGTERM, 129 SIGHUP).\n");
}

static const Command *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (commands[i].name, name))
      return &commands[i];
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  const Command *command;

  setlocale (LC_ALL, "");

  if (argc < 2)
    {
      print_usage (stderr);
      return GRAMMAR_EXIT_USAGE;
    }
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      (g_str_equal (argv[1], "help") && argc == 2))
    {
      print_usage (stdout);
      return GRAMMAR_EXIT_OK;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      printf ("grammar %s\n", GRAMMAR_VERSION);
      return GRAMMAR_EXIT_OK;
    }
  if (g_str_equal (argv[1], "help"))
    {
      char *help_argv[] = { argv[2], (char *) "--help", NULL };

      command = find_command (argv[2]);
      if (command == NULL)
        {
          fprintf (stderr, "grammar: unknown command “%s”; run “grammar --help” for the list\n", argv[2]);
          return GRAMMAR_EXIT_USAGE;
        }
      return command->run (2, help_argv);
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      fprintf (stderr, "grammar: unknown command “%s”; run “grammar --help” for the list\n", argv[1]);
      return GRAMMAR_EXIT_USAGE;
    }
  return command->run (argc - 1, argv + 1);
}
