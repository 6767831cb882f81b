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
  if (options->generator != NULL &&
      !grammar_cli_check_generator ("sql-templates", GRAMMAR_TYPE_SQL_GENERATOR, options->generator, "schema"))
    return GRAMMAR_EXIT_USAGE;
  if (g_strcmp0 (options->generator, "llm") == 0 && options->keep_plural)
    return usage_error ("--keep-plural applies to the schema generator only");
  if (g_strcmp0 (options->generator, "llm") != 0 && (options->llm_section != NULL || options->requirements != NULL))
    return usage_error ("--llm and --requirement apply to --generator llm only");
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

/* Sets an option of the command line on the generator, if it has it. */
static void
set_if_known (GObject    *generator,
              const char *property,
              gboolean    given,
              ...)
{
  va_list args;

  if (!given || g_object_class_find_property (G_OBJECT_GET_CLASS (generator), property) == NULL)
    return;
  va_start (args, given);
  g_object_set_valist (generator, property, args);
  va_end (args);
}

static GPtrArray *
run_generator (Options          *options,
               GObject          *generator,
               GrammarDatabase  *database,
               GStrv            *notes,
               GError          **error)
{
  g_autofree char *reply = NULL;
  GPtrArray *templates;
  GObject *llm = NULL;

  set_if_known (generator, "keep-plural", options->keep_plural, options->keep_plural, NULL);
  set_if_known (generator, "requirements", options->requirements != NULL, options->requirements, NULL);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (generator), "llm") != NULL)
    g_object_get (generator, "llm", &llm, NULL);
  if (llm != NULL && !options->quiet)
    fprintf (stderr, "grammar sql-templates: asking the language model…\n");
  templates = grammar_sql_generator_generate (GRAMMAR_SQL_GENERATOR (generator), database, notes, NULL, error);
  if (llm != NULL)
    grammar_cli_print_llm_stats (llm);
  g_clear_object (&llm);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (generator), "reply") != NULL)
    g_object_get (generator, "reply", &reply, NULL);
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
  g_autoptr (GrammarAssembly) assembly = NULL;
  g_autoptr (GObject) database = NULL;
  g_autoptr (GObject) generator = NULL;
  g_autoptr (GPtrArray) templates = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  const char *name;
  const char *source;
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
  {
    const char *inputs[] = { options.config_path };

    if (!grammar_cli_check_output ("sql-templates", options.output, inputs, G_N_ELEMENTS (inputs), &status))
      return status;
  }

  assembly = grammar_cli_load_assembly (options.config_path, &error);
  if (assembly == NULL)
    return grammar_cli_report ("sql-templates", error);
  database = G_OBJECT (grammar_assembly_build_database (assembly, NULL, &error));
  if (database == NULL)
    return grammar_cli_report ("sql-templates", error);
  generator = grammar_assembly_build_generator (assembly, GRAMMAR_TYPE_SQL_GENERATOR, options.generator,
                                                options.llm_section, &error);
  if (generator == NULL)
    return grammar_cli_report ("sql-templates", error);
  name = grammar_cli_plugin_name (GRAMMAR_TYPE_SQL_GENERATOR, generator);
  source = g_str_equal (name, "schema") ? "the schema" : g_str_equal (name, "llm") ? "the language model" : name;

  templates = run_generator (&options, generator, GRAMMAR_DATABASE (database), &lines, &error);
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
      fprintf (stderr, "grammar sql-templates: %u template%s from %s written to %s\n", templates->len,
               templates->len == 1 ? "" : "s", source, options.output);
      if (options.verbose)
        print_kept (templates);
      print_lines (g_str_equal (name, "schema") ? "dropped candidates" : "rejected lines of the reply",
                   (const char * const *) lines);
    }
  return GRAMMAR_EXIT_OK;
}
