/* text-templates.c: `grammar text-templates`, natural-language forms of SQL templates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "grammar-cli.h"

typedef struct
{
  char *config_path;
  char *input;
  char *output;
  GStrv style_args;
  char *generator;
  char *llm_section;
  int per_template;
  gint64 seed;
  int retries;
  gboolean verbose;
  gboolean quiet;

  GStrv styles;       /* parsed from style_args, in order, without repeats */
} Options;

static void
options_clear (Options *options)
{
  g_free (options->config_path);
  g_free (options->input);
  g_free (options->output);
  g_strfreev (options->style_args);
  g_free (options->generator);
  g_free (options->llm_section);
  g_strfreev (options->styles);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

static int
usage_error (const char *message)
{
  fprintf (stderr, "grammar text-templates: %s\nRun “grammar text-templates --help” for the options.\n", message);
  return GRAMMAR_EXIT_USAGE;
}

/* --style short --style long,formal, or --style all: the styles in the
 * order first given. */
static gboolean
parse_styles (Options  *options,
              GError  **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; options->style_args != NULL && options->style_args[i] != NULL; i++)
    {
      g_auto (GStrv) parts = g_strsplit (options->style_args[i], ",", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        {
          const char *name = g_strstrip (parts[j]);

          if (g_str_equal (name, "all"))
            for (const char * const *all = grammar_text_style_list (); *all != NULL; all++)
              g_ptr_array_add (names, g_strdup (*all));
          else if (!grammar_text_style_check (name, error))
            return FALSE;
          else
            g_ptr_array_add (names, g_strdup (name));
        }
    }
  for (guint i = 0; i < names->len; i++)
    if (g_hash_table_add (seen, g_ptr_array_index (names, i)))
      g_strv_builder_add (builder, g_ptr_array_index (names, i));
  options->styles = g_strv_builder_end (builder);
  return TRUE;
}

/* Options checked before anything runs. */
static int
check_options (Options *options,
               int      argc,
               char   **argv)
{
  g_autoptr (GError) error = NULL;

  if (argc > 1)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument “%s”", argv[1]);

      return usage_error (message);
    }
  if (options->input == NULL)
    return usage_error ("no input: pass -i sql-templates.json (or a text-templates.json)");
  if (options->output == NULL)
    return usage_error ("no output file: pass -o text-templates.json");
  if (options->style_args == NULL)
    return usage_error ("no style: pass --style STYLE (short, long, interrogative, directive, formal, casual or all)");
  if (!parse_styles (options, &error))
    return usage_error (error->message);
  if (options->per_template < 1)
    return usage_error ("--per-template must be at least 1");
  if (options->seed < 0)
    return usage_error ("--seed must not be negative");
  if (options->generator != NULL &&
      !grammar_cli_check_generator ("text-templates", GRAMMAR_TYPE_VERBALIZER, options->generator, "rules"))
    return GRAMMAR_EXIT_USAGE;
  if (g_strcmp0 (options->generator, "llm") != 0 && (options->llm_section != NULL || options->retries >= 0))
    return usage_error ("--llm and --retries apply to --generator llm only");
  if (options->retries > 100)
    return usage_error ("--retries must be at most 100");
  return GRAMMAR_EXIT_OK;
}

static void
print_lines (const char *title,
             const char *const *lines,
             guint       n)
{
  if (n == 0)
    return;
  fprintf (stderr, "%s (%u):\n", title, n);
  for (guint i = 0; i < n; i++)
    fprintf (stderr, "  %s\n", lines[i]);
}

/* The verbalizer of the run, with the options of the command line it has. */
static GObject *
make_verbalizer (Options        *options,
                 GrammarAssembly *assembly,
                 GError        **error)
{
  g_autoptr (GObject) verbalizer = NULL;
  GParamSpec *seed;

  verbalizer = grammar_assembly_build_generator (assembly, GRAMMAR_TYPE_VERBALIZER, options->generator,
                                                 options->llm_section, error);
  if (verbalizer == NULL)
    return NULL;
  /* the seed is unsigned for the rules, signed (-1: none) for a model */
  seed = g_object_class_find_property (G_OBJECT_GET_CLASS (verbalizer), "seed");
  if (seed != NULL)
    {
      g_auto (GValue) given = G_VALUE_INIT;
      g_auto (GValue) value = G_VALUE_INIT;

      g_value_init (&given, G_TYPE_INT64);
      g_value_set_int64 (&given, options->seed);
      g_value_init (&value, seed->value_type);
      if (g_value_transform (&given, &value))
        g_object_set_property (verbalizer, "seed", &value);
    }
  if (options->retries >= 0 && g_object_class_find_property (G_OBJECT_GET_CLASS (verbalizer), "retries") != NULL)
    g_object_set (verbalizer, "retries", (guint) options->retries, NULL);
  return g_steal_pointer (&verbalizer);
}

/* Called before each SQL template and style the model is asked for. */
static void
show_progress (GrammarSqlTemplate *sql_template,
               const char         *style,
               guint               done,
               guint               total,
               gpointer            user_data)
{
  grammar_cli_progress_draw (user_data, done, total, "now %s %s", grammar_sql_template_get_id (sql_template),
                             style);
}

static GrammarTemplateSet *
load_input (Options          *options,
            GrammarDatabase  *database,
            GrammarSchema    *schema,
            guint            *n_problems,
            GError          **error)
{
  g_autoptr (GrammarTemplateSet) input = grammar_template_set_new ();
  g_auto (GStrv) problems = NULL;

  if (!grammar_template_set_load (input, options->input, database, schema, &problems, error))
    return NULL;
  *n_problems = problems != NULL ? g_strv_length (problems) : 0;
  if (*n_problems > 0)
    print_lines ("invalid templates", (const char * const *) problems, *n_problems);
  if (grammar_template_set_get_sql_templates (input)->len == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s: no valid SQL template to make text templates from", options->input);
      return NULL;
    }
  return g_steal_pointer (&input);
}

static void
print_summary (Options            *options,
               const char         *name,
               GrammarTemplateSet *input,
               GrammarTemplateSet *output)
{
  g_autofree char *styles = g_strjoinv (", ", options->styles);
  guint n_sql = grammar_template_set_get_sql_templates (input)->len;
  guint n_made = 0;
  GPtrArray *made = grammar_template_set_get_text_templates (output);

  for (guint i = 0; i < made->len; i++)
    if (g_strv_contains ((const char * const *) options->styles,
                         grammar_text_template_get_style (g_ptr_array_index (made, i))))
      n_made++;
  fprintf (stderr, "grammar text-templates: %u text template%s (%s; %s, seed %" G_GINT64_FORMAT ") for %u SQL template%s written to %s\n",
           n_made, n_made == 1 ? "" : "s", styles, name, options->seed,
           n_sql, n_sql == 1 ? "" : "s", options->output);
}

int
grammar_cli_text_templates (int    argc,
                            char **argv)
{
  g_auto (Options) options = { .per_template = 3, .retries = -1 };
  g_autoptr (GObject) verbalizer = NULL;
  g_auto (GStrv) shortfalls = NULL;
  g_auto (GStrv) dropped = NULL;
  g_autofree char *title = NULL;
  GObject *llm = NULL;
  GrammarCliProgress progress;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarAssembly) assembly = NULL;
  g_autoptr (GObject) database = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarTemplateSet) input = NULL;
  g_autoptr (GrammarTemplateSet) output = NULL;
  g_autoptr (GError) error = NULL;
  int status = GRAMMAR_EXIT_OK;
  guint n_problems = 0;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &options.config_path, "The keyfile; its [database] section is the database", "FILE" },
    { "input", 'i', 0, G_OPTION_ARG_FILENAME, &options.input, "The SQL templates (sql-templates.json, or a text-templates.json)", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output, "Where to write the text templates (text-templates.json)", "FILE" },
    { "style", 's', 0, G_OPTION_ARG_STRING_ARRAY, &options.style_args, "short, long, interrogative, directive, formal, casual, or all; repeatable, or a comma list", "STYLE" },
    { "per-template", 'n', 0, G_OPTION_ARG_INT, &options.per_template, "Distinct text templates per SQL template and style (default: 3)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &options.seed, "The seed of the choice among variants (default: 0)", "S" },
    { "generator", 'g', 0, G_OPTION_ARG_STRING, &options.generator, "rules (default: no language model) or llm", "NAME" },
    { "llm", 0, 0, G_OPTION_ARG_STRING, &options.llm_section, "The language model section for --generator llm (default: llm)", "SECTION" },
    { "retries", 0, 0, G_OPTION_ARG_INT, &options.retries, "For --generator llm: ask again up to N times for missing texts (default: 3)", "N" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &options.verbose, "Also list the lines of the language model's replies that were dropped, and why", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options.quiet, "No progress nor summary on stderr", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— turn SQL templates into natural-language text templates");
  g_option_context_set_summary (context,
    "Writes, for every SQL template of the input, N distinct text templates in each\n"
    "style asked, such as\n"
    "  What is the industry of the company named '[company.Name]'?\n"
    "with the SQL template's placeholders intact, for `grammar qa`.\n"
    "\n"
    "Styles (the papers' linguistic criteria):\n"
    "  short          concise fragments, few words, no articles\n"
    "  long           complete, complex sentences with context, at least 30 words\n"
    "  interrogative  a direct question ending with a question mark\n"
    "  directive      an imperative instruction\n"
    "  formal         polite, formal register without contractions\n"
    "  casual         informal chat: contractions, relaxed tone\n"
    "\n"
    "--generator rules (the default) needs no language model: it reads the projected\n"
    "columns, the joined tables and the placeholders, humanises their names and combines\n"
    "sentence frames; the same --seed gives the same output, byte for byte.\n"
    "--generator llm sends the text template prompt with the style's criterion to the\n"
    "language model of the [llm] section (or --llm SECTION); lines that lose or add a\n"
    "placeholder, or miss what can be checked of the style, are dropped, and the model is\n"
    "asked again for the missing ones up to --retries times.");
  g_option_context_set_description (context,
    "The input may be a text-templates.json: its text templates of the other styles are\n"
    "kept and those of the styles asked are made anew, so that runs per style into one\n"
    "file add up (-i t.json -o t.json). Invalid templates in the input are listed and\n"
    "nothing is written (exit status 2). SQL templates that end with fewer than N\n"
    "text templates are listed.\n"
    "The output is replaced only when the run succeeds; a failed run leaves the\n"
    "previous file as it was, or none.\n"
    "Exit status: 0 success, 1 the run failed (a model unreachable), 2 bad usage or input\n"
    "(also: a language model that gave no usable line at all).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "text-templates", &argc, &argv, &status))
    return status;
  status = check_options (&options, argc, argv);
  if (status != GRAMMAR_EXIT_OK)
    return status;
  {
    /* -i and -o may be one file: runs per style add up in it (the
     * templates are read whole before it is replaced, atomically). */
    const char *inputs[] = { options.config_path };

    if (!grammar_cli_check_output ("text-templates", options.output, inputs, G_N_ELEMENTS (inputs), &status))
      return status;
  }

  assembly = grammar_cli_load_assembly (options.config_path, &error);
  if (assembly == NULL)
    return grammar_cli_report ("text-templates", error);
  database = G_OBJECT (grammar_assembly_build_database (assembly, NULL, &error));
  if (database == NULL)
    return grammar_cli_report ("text-templates", error);
  schema = grammar_database_get_schema (GRAMMAR_DATABASE (database), NULL, &error);
  if (schema == NULL)
    return grammar_cli_report ("text-templates", error);
  input = load_input (&options, GRAMMAR_DATABASE (database), schema, &n_problems, &error);
  if (input == NULL)
    return grammar_cli_report ("text-templates", error);
  /* A run that ends with exit 2 must not have replaced a finished file
   * with part of it: the input is checked before anything is made, and
   * no language model is asked. */
  if (n_problems > 0)
    return grammar_cli_refuse_output ("text-templates", options.output,
                                      "%u template%s of %s %s invalid (listed above)", n_problems,
                                      n_problems == 1 ? "" : "s", options.input, n_problems == 1 ? "is" : "are");

  verbalizer = make_verbalizer (&options, assembly, &error);
  if (verbalizer == NULL)
    return grammar_cli_report ("text-templates", error);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (verbalizer), "llm") != NULL)
    g_object_get (verbalizer, "llm", &llm, NULL);
  /* Only the language model is slow enough to need it. */
  grammar_cli_progress_init (&progress, "text-templates", "templates", options.quiet || llm == NULL);
  output = grammar_verbalizer_make_text_templates (GRAMMAR_VERBALIZER (verbalizer), input, schema,
                                                  (const char * const *) options.styles,
                                                  (guint) options.per_template,
                                                  progress.enabled ? show_progress : NULL, &progress,
                                                  &shortfalls, &dropped, NULL, &error);
  grammar_cli_progress_end (&progress);
  if (llm != NULL)
    grammar_cli_print_llm_stats (llm);
  g_clear_object (&llm);
  if (options.verbose && dropped != NULL)
    print_lines ("dropped lines of the replies", (const char * const *) dropped, g_strv_length (dropped));
  if (output == NULL)
    return grammar_cli_report ("text-templates", error);
  if (!grammar_template_set_save_text_templates (output, options.output, &error))
    return grammar_cli_report ("text-templates", error);

  if (!options.quiet)
    print_summary (&options, grammar_cli_plugin_name (GRAMMAR_TYPE_VERBALIZER, verbalizer), input, output);
  /* Listed even with --quiet: a template short of texts is a result to
   * act on, not progress. */
  title = g_strdup_printf ("SQL templates with fewer than %d text templates per style", options.per_template);
  print_lines (title, (const char * const *) shortfalls, g_strv_length (shortfalls));
  return GRAMMAR_EXIT_OK;
}
