/* sql-templates.c: `grammar sql-templates`, SQL query templates for the configured database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

typedef struct
{
  char *config_path;
  char *output;
  char *generator;
  char *llm_section;
  GStrv requirements;
  gboolean keep_plural;
  gboolean verbose;
  gboolean quiet;
} Options;

static void
options_clear (Options *options)
{
  g_free (options->config_path);
  g_free (options->output);
  g_free (options->generator);
  g_free (options->llm_section);
  g_strfreev (options->requirements);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

static int
usage_error (const char *message)
{
  fprintf (stderr, "grammar sql-templates: %s\nRun “grammar sql-templates --help” for the options.\n", message);
  return GRAMMAR_EXIT_USAGE;
}

/* Options that only make sense together, checked before anything runs. */
static int
check_options (Options *options,
               int      argc,
               char   **argv)
{
  if (argc > 1)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument “%s”", argv[1]);

      return usage_error (message);
    }
  if (options->output == NULL)
    return usage_error ("no output file: pass -o sql-templates.json");
  if (options->generator == NULL)
    options->generator = g_strdup ("schema");
  if (!g_str_equal (options->generator, "schema") && !g_str_equal (options->generator, "llm"))
    {
      g_autofree char *message = g_strdup_printf ("unknown generator “%s”: use schema or llm", options->generator);

      return usage_error (message);
    }
  if (g_str_equal (options->generator, "llm") && options->keep_plural)
    return usage_error ("--keep-plural applies to the schema generator only");
  if (g_str_equal (options->generator, "schema") && (options->llm_section != NULL || options->requirements != NULL))
    return usage_error ("--llm and --requirement apply to --generator llm only");
  if (options->llm_section == NULL)
    options->llm_section = g_strdup ("llm");
  return GRAMMAR_EXIT_OK;
}

static void
print_lines (const char         *title,
             const char * const *lines)
{
  guint n = lines != NULL ? g_strv_length ((GStrv) lines) : 0;

  if (n == 0)
    return;
  fprintf (stderr, "%s (%u):\n", title, n);
  for (guint i = 0; i < n; i++)
    fprintf (stderr, "  %s\n", lines[i]);
}

static void
print_kept (GPtrArray *templates)
{
  for (guint i = 0; i < templates->len; i++)
    {
      GrammarSqlTemplate *template = g_ptr_array_index (templates, i);
      const char *note = grammar_sql_template_get_note (template);

      fprintf (stderr, "  %s  %s\n", grammar_sql_template_get_id (template), grammar_sql_template_get_sql (template));
      if (note != NULL)
        fprintf (stderr, "      %s\n", note);
    }
}

static GPtrArray *
run_schema_generator (Options          *options,
                      GrammarDatabase  *database,
                      GrammarSchema    *schema,
                      GStrv            *dropped,
                      GError          **error)
{
  g_autoptr (GrammarSchemaGenerator) generator = grammar_schema_generator_new (database, schema);

  grammar_schema_generator_set_keep_plural (generator, options->keep_plural);
  return grammar_schema_generator_generate (generator, dropped, NULL, error);
}

static GPtrArray *
run_llm_generator (Options          *options,
                   GrammarConfig    *config,
                   GrammarDatabase  *database,
                   GrammarSchema    *schema,
                   GStrv            *rejected,
                   GError          **error)
{
  g_autoptr (GObject) llm = NULL;
  g_autoptr (GrammarLlmSqlGenerator) generator = NULL;
  g_autofree char *reply = NULL;
  GPtrArray *templates;

  llm = grammar_config_build (config, options->llm_section, GRAMMAR_TYPE_LLM, error);
  if (llm == NULL)
    return NULL;
  generator = grammar_llm_sql_generator_new (GRAMMAR_LLM (llm), database, schema);
  grammar_llm_sql_generator_set_requirements (generator, (const char * const *) options->requirements);

  if (!options->quiet)
    fprintf (stderr, "grammar sql-templates: asking the language model of [%s]…\n", options->llm_section);
  templates = grammar_llm_sql_generator_generate (generator, &reply, rejected, NULL, error);
  grammar_cli_print_llm_stats (llm);
  if (options->verbose && reply != NULL)
    fprintf (stderr, "--- reply of the language model ---\n%s\n--- end of the reply ---\n", reply);
  return templates;
}

static gboolean
write_templates (Options    *options,
                 GPtrArray  *templates,
                 GError    **error)
{
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();

  for (guint i = 0; i < templates->len; i++)
    grammar_template_set_add_sql_template (set, g_ptr_array_index (templates, i));
  return grammar_template_set_save_sql_templates (set, options->output, error);
}

int
grammar_cli_sql_templates (int    argc,
                           char **argv)
{
  g_auto (Options) options = { 0 };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GObject) database = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GPtrArray) templates = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean use_llm;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &options.config_path, "The keyfile; its [database] section is the database", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output, "Where to write the templates (JSON)", "FILE" },
    { "generator", 'g', 0, G_OPTION_ARG_STRING, &options.generator, "schema (default: from the schema and the data) or llm", "NAME" },
    { "llm", 0, 0, G_OPTION_ARG_STRING, &options.llm_section, "The language model section for --generator llm (default: llm)", "SECTION" },
    { "requirement", 'r', 0, G_OPTION_ARG_STRING_ARRAY, &options.requirements, "An extra criterion for the language model (repeatable)", "TEXT" },
    { "keep-plural", 0, 0, G_OPTION_ARG_NONE, &options.keep_plural, "Also keep templates whose answer can be several rows", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &options.verbose, "Also print the kept templates with their notes, and the language model's reply", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options.quiet, "No summary on stderr", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— generate SQL query templates");
  g_option_context_set_summary (context,
    "Proposes SQL query templates such as\n"
    "  SELECT Industry FROM company WHERE Name = '[company.Name]'\n"
    "for the database of the keyfile's [database] section, and writes them to a JSON file\n"
    "to review, edit and pass to `grammar text-templates`.\n"
    "\n"
    "--generator schema (the default) needs no language model: it follows the paper's\n"
    "criteria using the schema and the data (asks by columns that identify one row and\n"
    "that a person would ask by, follows foreign keys, joins associative tables, keeps\n"
    "only templates with a singular answer) and says why it dropped every other candidate.\n"
    "--generator llm sends the paper's prompt with the schema (never the data) to the\n"
    "language model of the [llm] section and keeps the valid templates of its reply.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "sql-templates", &argc, &argv, &status))
    return status;
  status = check_options (&options, argc, argv);
  if (status != GRAMMAR_EXIT_OK)
    return status;
  use_llm = g_str_equal (options.generator, "llm");

  config = grammar_cli_load_config (options.config_path, &error);
  if (config == NULL)
    return grammar_cli_report ("sql-templates", error);
  database = grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error);
  if (database == NULL)
    return grammar_cli_report ("sql-templates", error);
  schema = grammar_database_get_schema (GRAMMAR_DATABASE (database), NULL, &error);
  if (schema == NULL)
    return grammar_cli_report ("sql-templates", error);

  if (use_llm)
    templates = run_llm_generator (&options, config, GRAMMAR_DATABASE (database), schema, &lines, &error);
  else
    templates = run_schema_generator (&options, GRAMMAR_DATABASE (database), schema, &lines, &error);
  if (templates == NULL)
    {
      if (!options.quiet)
        print_lines ("rejected lines of the reply", (const char * const *) lines);
      return grammar_cli_report ("sql-templates", error);
    }

  if (!write_templates (&options, templates, &error))
    return grammar_cli_report ("sql-templates", error);

  if (!options.quiet)
    {
      fprintf (stderr, "grammar sql-templates: %u template%s from the %s written to %s\n", templates->len,
               templates->len == 1 ? "" : "s", use_llm ? "language model" : "schema", options.output);
      if (options.verbose)
        print_kept (templates);
      print_lines (use_llm ? "rejected lines of the reply" : "dropped candidates", (const char * const *) lines);
    }
  return GRAMMAR_EXIT_OK;
}
