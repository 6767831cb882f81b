/* import.c: `grammar import`, files of the Python GRAMMAR tool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

typedef struct
{
  char *from;
  char *output;
  char *config_path;
  char *style;
  gboolean quiet;
} Options;

static void
options_clear (Options *options)
{
  g_free (options->from);
  g_free (options->output);
  g_free (options->config_path);
  g_free (options->style);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

static gboolean
check_usage (Options  *options,
             int       argc,
             int      *status)
{
  const char *problem = NULL;

  if (options->from == NULL)
    problem = "say where the files come from: --from grammar-py";
  else if (!g_str_equal (options->from, "grammar-py"))
    problem = "unknown --from value; the only source so far is grammar-py (the Python GRAMMAR tool)";
  else if (options->output == NULL)
    problem = "no output file given; pass -o text-templates.json (templates) or -o judged.jsonl (eval results)";
  else if (argc < 2)
    problem = "no input file given: pass the Python tool's sql_templates.json and STYLE.json files, "
              "or its eval_results/results_STYLE_….json";

  if (problem == NULL)
    return TRUE;
  fprintf (stderr, "grammar import: %s\n", problem);
  *status = GRAMMAR_EXIT_USAGE;
  return FALSE;
}

/* The database to validate against, when a keyfile is given. */
static gboolean
open_database (const char       *config_path,
               GrammarDatabase **database,
               GError          **error)
{
  g_autoptr (GrammarAssembly) assembly = NULL;

  *database = NULL;
  if (config_path == NULL)
    return TRUE;
  assembly = grammar_cli_load_assembly (config_path, error);
  if (assembly == NULL)
    return FALSE;
  *database = grammar_assembly_build_database (assembly, NULL, error);
  return *database != NULL;
}

static void
print_summary (GrammarTemplateSet *set,
               const char         *output)
{
  g_auto (GStrv) styles = grammar_template_set_dup_styles (set);
  g_autofree char *style_list = g_strjoinv (", ", styles);

  fprintf (stderr, "grammar import: %u SQL template(s) and %u text template(s)%s%s%s written to %s\n",
           grammar_template_set_get_sql_templates (set)->len,
           grammar_template_set_get_text_templates (set)->len,
           styles[0] != NULL ? " (styles: " : "", style_list, styles[0] != NULL ? ")" : "", output);
}

/* An evaluation results file of the Python tool: a JSON array of objects
 * with `judgement` or `query_tag`. Anything else (or a file that cannot
 * be read) goes to the template import, whose errors say what is wrong. */
static gboolean
is_results_file (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonArray *items;
  gboolean tagged = FALSE;

  if (!json_parser_load_from_mapped_file (parser, path, NULL))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return FALSE;
  items = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonNode *item = json_array_get_element (items, i);

      if (!JSON_NODE_HOLDS_OBJECT (item))
        return FALSE;
      tagged |= json_object_has_member (json_node_get_object (item), "judgement") ||
                json_object_has_member (json_node_get_object (item), "query_tag");
    }
  return tagged;
}

/* The Python tool's evaluation results become a judged file that
 * `grammar report` reads. */
static int
import_results (Options  *options,
                char    **paths)
{
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GError) error = NULL;

  if (options->config_path != NULL)
    {
      fprintf (stderr, "grammar import: -c is for template files; evaluation results are not validated "
               "against a database\n");
      return GRAMMAR_EXIT_USAGE;
    }
  for (guint i = 0; paths[i] != NULL; i++)
    if (!is_results_file (paths[i]))
      {
        fprintf (stderr, "grammar import: %s: not an evaluation results file of the Python GRAMMAR tool "
                 "while other inputs are: import results and templates apart\n", paths[i]);
        return GRAMMAR_EXIT_USAGE;
      }
  if (!grammar_py_import_results ((const char * const *) paths, options->style, &records, &error))
    return grammar_cli_report ("import", error);
  if (records->len == 0)
    {
      fprintf (stderr, "grammar import: no result in the input; nothing written\n");
      return GRAMMAR_EXIT_USAGE;
    }
  if (!grammar_record_save_jsonl (records, options->output, NULL, &error))
    return grammar_cli_report ("import", error);
  if (!options->quiet)
    fprintf (stderr, "grammar import: %u judged record(s) written to %s\n", records->len, options->output);
  return GRAMMAR_EXIT_OK;
}

int
grammar_cli_import (int    argc,
                    char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarTemplateSet) set = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  guint n_problems;
  g_auto (Options) options = { 0, };
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &options.from, "Where the files come from: grammar-py", "TOOL" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output,
      "The text-templates.json (or, for eval results, judged.jsonl) to write", "FILE" },
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &options.config_path,
      "A keyfile whose [database] the SQL templates are validated against", "FILE" },
    { "style", 0, 0, G_OPTION_ARG_STRING, &options.style,
      "The style of the text templates or results (default: each file's name, short.json → short, "
      "results_short_balanced.json → short)", "STYLE" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options.quiet, "Do not print the summary", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("FILE… — import the template files of another tool");
  g_option_context_set_summary (context,
    "Reads the Python GRAMMAR tool's SQLTemplateGenerator/sql_templates.json and\n"
    "TextTemplateGenerator/STYLE.json files (the kind of each file is told from its\n"
    "content) and writes one text-templates.json that `grammar qa` takes. Text\n"
    "templates are matched to their SQL template by the SQL text up to whitespace.\n"
    "With -c, SQL templates are validated against the configured database. Invalid\n"
    "templates are listed on stderr and nothing is written (exit status 2), as for\n"
    "a file that cannot be read or is of another shape. The output is replaced only\n"
    "when the import succeeds; a failed one leaves the previous file as it was, or none.\n"
    "\n"
    "Its eval_results/results_STYLE_….json files (JSON arrays of objects with\n"
    "judgement and query_tag) are imported as a judged file instead, one record a\n"
    "line (group q<query_tag>, verdict from judgement, retrieval from\n"
    "retrieval_judgement), that `grammar report` takes.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "import", &argc, &argv, &status))
    return status;
  if (!check_usage (&options, argc, &status))
    return status;
  if (!grammar_cli_check_output ("import", options.output, (const char * const *) argv + 1, argc - 1, &status))
    return status;
  {
    const char *inputs[] = { options.config_path };

    if (!grammar_cli_check_output ("import", options.output, inputs, G_N_ELEMENTS (inputs), &status))
      return status;
  }

  for (int i = 1; i < argc; i++)
    if (is_results_file (argv[i]))
      return import_results (&options, argv + 1);

  if (!open_database (options.config_path, &database, &error))
    return grammar_cli_report ("import", error);

  set = grammar_template_set_new ();
  if (!grammar_py_import_templates (set, (const char * const *) argv + 1, options.style, database, NULL,
                                    &problems, &error))
    return grammar_cli_report ("import", error);
  for (guint i = 0; problems[i] != NULL; i++)
    fprintf (stderr, "grammar import: %s\n", problems[i]);
  n_problems = g_strv_length (problems);
  /* A run that ends with exit 2 must not have replaced a finished file
   * with part of it. */
  if (n_problems > 0)
    return grammar_cli_refuse_output ("import", options.output, "%u problem%s in the input (listed above)",
                                      n_problems, n_problems == 1 ? "" : "s");

  if (grammar_template_set_get_sql_templates (set)->len == 0)
    return grammar_cli_refuse_output ("import", options.output, "no valid SQL template in the input");
  if (!grammar_template_set_save_text_templates (set, options.output, &error))
    return grammar_cli_report ("import", error);
  if (!options.quiet)
    print_summary (set, options.output);
  return GRAMMAR_EXIT_OK;
}
