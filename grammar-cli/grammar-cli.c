/* grammar-cli.c: what the subcommands of `grammar` share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

/* Parses a subcommand's options. On --help GOption prints the help and
 * exits 0 itself; on a bad option this prints the message and sets
 * @exit_status to 2. */
gboolean
grammar_cli_parse (GOptionContext   *context,
                   const char       *command,
                   int              *argc,
                   char           ***argv,
                   int              *exit_status)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *prgname = g_strconcat ("grammar ", command, NULL);

  /* GOption's usage line starts with the program name. */
  g_set_prgname (prgname);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fprintf (stderr, "grammar %s: %s\nRun “grammar %s --help” for the options.\n",
               command, error->message, command);
      *exit_status = GRAMMAR_EXIT_USAGE;
      return FALSE;
    }
  return TRUE;
}

/* Prints @error for the user and returns the exit status it calls for. */
int
grammar_cli_report (const char   *command,
                    const GError *error)
{
  fprintf (stderr, "grammar %s: %s\n", command, error->message);
  return grammar_error_is_input_error (error) ? GRAMMAR_EXIT_USAGE : GRAMMAR_EXIT_FAILED;
}

GrammarConfig *
grammar_cli_load_config (const char  *path,
                         GError     **error)
{
  if (path == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE,
                   "no configuration given; pass -c FILE.ini (see examples/demo.ini)");
      return NULL;
    }
  return grammar_config_new_from_file (path, error);
}

void
grammar_cli_print_json (JsonNode *node)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}
