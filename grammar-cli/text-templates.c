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
  if (options->generator == NULL)
    options->generator = g_strdup ("rules");
  if (!g_str_equal (options->generator, "rules") && !g_str_equal (options->generator, "llm"))
    {
      g_autofree char *message = g_strdup_printf ("unknown generator “%s”: use rules or llm", options->generator);

      return usage_error (message);
    }
  if (g_str_equal (options->generator, "rules") && (options->llm_section != NULL || options->retries >= 0))
    return usage_error ("--llm and --retries apply to --generator llm only");
  if (options->retries > 100)
    return usage_error ("--retries must be at most 100");
  if (options->llm_section == NULL)
    options->llm_section = g_strdup ("llm");
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

/* What the run makes, for the summary and the report of short falls. */
typedef struct
{
  GrammarRuleVerbalizer *rules;
  GrammarLlmVerbalizer *llm;
  GPtrArray *shortfalls;   /* char * */
  GPtrArray *dropped;      /* char *, LLM lines dropped */
  guint n_made;
  guint n_done;
  guint n_total;
} Run;

static void
run_clear (Run *run)
{
  g_clear_object (&run->rules);
  g_clear_object (&run->llm);
  g_clear_pointer (&run->shortfalls, g_ptr_array_unref);
  g_clear_pointer (&run->dropped, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static gboolean
make_verbalizer (Options        *options,
                 GrammarConfig  *config,
                 GrammarSchema  *schema,
                 Run            *run,
                 GError        **error)
{
  g_autoptr (GObject) llm = NULL;

  if (g_str_equal (options->generator, "rules"))
    {
      run->rules = grammar_rule_verbalizer_new (schema);
      grammar_rule_verbalizer_set_seed (run->rules, (guint64) options->seed);
      return TRUE;
    }
  llm = grammar_config_build (config, options->llm_section, GRAMMAR_TYPE_LLM, error);
  if (llm == NULL)
    return FALSE;
  run->llm = grammar_llm_verbalizer_new (GRAMMAR_LLM (llm));
  grammar_llm_verbalizer_set_seed (run->llm, options->seed);
  if (options->retries >= 0)
    grammar_llm_verbalizer_set_retries (run->llm, options->retries);
  return TRUE;
}

static void
show_progress (Options    *options,
               Run        *run,
               const char *id,
               const char *style)
{
  if (options->quiet || run->llm == NULL || !isatty (fileno (stderr)))
    return;
  fprintf (stderr, "\r\033[K[%u/%u] %s %s…", run->n_done + 1, run->n_total, id, style);
  fflush (stderr);
}

/* Verbalizes one SQL template in one style into @set. */
static gboolean
verbalize_one (Options             *options,
               Run                 *run,
               GrammarSqlTemplate  *sql_template,
               const char          *style,
               GrammarTemplateSet  *set,
               GError             **error)
{
  g_autoptr (GPtrArray) made = NULL;
  g_auto (GStrv) dropped = NULL;
  guint n = (guint) options->per_template;

  show_progress (options, run, grammar_sql_template_get_id (sql_template), style);
  if (run->rules != NULL)
    made = grammar_rule_verbalizer_verbalize (run->rules, sql_template, style, n, error);
  else
    made = grammar_llm_verbalizer_verbalize (run->llm, sql_template, style, n, &dropped, NULL, error);
  if (made == NULL)
    return FALSE;

  for (guint i = 0; dropped != NULL && dropped[i] != NULL; i++)
    g_ptr_array_add (run->dropped, g_strdup (dropped[i]));
  for (guint i = 0; i < made->len; i++)
    if (grammar_template_set_add_text_template (set, g_ptr_array_index (made, i)))
      run->n_made++;
  if (made->len < n)
    g_ptr_array_add (run->shortfalls,
                     g_strdup_printf ("%s (%s): %u of %u — %s", grammar_sql_template_get_id (sql_template),
                                      style, made->len, n, grammar_sql_template_get_sql (sql_template)));
  run->n_done++;
  return TRUE;
}

/* The output set: the input's SQL templates, its text templates of the
 * styles not being made (so that runs per style into one file add up),
 * then the new ones. */
static GrammarTemplateSet *
start_output (GrammarTemplateSet *input,
              const char * const *styles)
{
  GrammarTemplateSet *output = grammar_template_set_new ();
  GPtrArray *sql_templates = grammar_template_set_get_sql_templates (input);
  GPtrArray *text_templates = grammar_template_set_get_text_templates (input);

  for (guint i = 0; i < sql_templates->len; i++)
    grammar_template_set_add_sql_template (output, g_ptr_array_index (sql_templates, i));
  for (guint i = 0; i < text_templates->len; i++)
    {
      GrammarTextTemplate *text_template = g_ptr_array_index (text_templates, i);

      if (!g_strv_contains (styles, grammar_text_template_get_style (text_template)))
        grammar_template_set_add_text_template (output, text_template);
    }
  return output;
}

static GrammarTemplateSet *
generate (Options             *options,
          Run                 *run,
          GrammarTemplateSet  *input,
          GError             **error)
{
  g_autoptr (GrammarTemplateSet) output = start_output (input, (const char * const *) options->styles);
  GPtrArray *sql_templates = grammar_template_set_get_sql_templates (input);

  run->n_total = sql_templates->len * g_strv_length (options->styles);
  for (guint s = 0; options->styles[s] != NULL; s++)
    for (guint i = 0; i < sql_templates->len; i++)
      if (!verbalize_one (options, run, g_ptr_array_index (sql_templates, i), options->styles[s], output, error))
        return NULL;
  if (!options->quiet && run->llm != NULL && isatty (fileno (stderr)))
    fputs ("\r\033[K", stderr);

  /* A model that never gave one usable line is a bad reply, as with
   * `grammar sql-templates`: nothing is written. */
  if (run->llm != NULL && run->n_made == 0 && run->n_total > 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "the language model gave no valid text template for any SQL template "
                   "(%u line%s dropped; -v lists them)", run->dropped->len, run->dropped->len == 1 ? "" : "s");
      return NULL;
    }
  return g_steal_pointer (&output);
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
    print_lines ("templates left out", (const char * const *) problems, *n_problems);
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
               Run                *run,
               GrammarTemplateSet *input)
{
  g_autofree char *styles = g_strjoinv (", ", options->styles);
  guint n_sql = grammar_template_set_get_sql_templates (input)->len;

  fprintf (stderr, "grammar text-templates: %u text template%s (%s; %s, seed %" G_GINT64_FORMAT ") for %u SQL template%s written to %s\n",
           run->n_made, run->n_made == 1 ? "" : "s", styles,
           run->rules != NULL ? "rules" : "language model", options->seed,
           n_sql, n_sql == 1 ? "" : "s", options->output);
}

/* Listed even with --quiet: a template short of texts is a result to
 * act on, not progress. */
static void
print_shortfalls (Options *options,
                  Run     *run)
{
  g_autofree char *title = g_strdup_printf ("SQL templates with fewer than %d text templates per style",
                                            options->per_template);

  print_lines (title, (const char * const *) run->shortfalls->pdata, run->shortfalls->len);
}

int
grammar_cli_text_templates (int    argc,
                            char **argv)
{
  g_auto (Options) options = { .per_template = 3, .retries = -1 };
  g_auto (Run) run = { 0 };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarConfig) config = NULL;
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
    "left out, the others written, and the exit status is 2. SQL templates that end with fewer than N text templates are listed.\n"
    "The output is replaced only when the run succeeds.\n"
    "Exit status: 0 success, 1 the run failed (a model unreachable), 2 bad usage or input\n"
    "(also: a language model that gave no usable line at all).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "text-templates", &argc, &argv, &status))
    return status;
  status = check_options (&options, argc, argv);
  if (status != GRAMMAR_EXIT_OK)
    return status;

  config = grammar_cli_load_config (options.config_path, &error);
  if (config == NULL)
    return grammar_cli_report ("text-templates", error);
  database = grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error);
  if (database == NULL)
    return grammar_cli_report ("text-templates", error);
  schema = grammar_database_get_schema (GRAMMAR_DATABASE (database), NULL, &error);
  if (schema == NULL)
    return grammar_cli_report ("text-templates", error);
  input = load_input (&options, GRAMMAR_DATABASE (database), schema, &n_problems, &error);
  if (input == NULL)
    return grammar_cli_report ("text-templates", error);

  run.shortfalls = g_ptr_array_new_with_free_func (g_free);
  run.dropped = g_ptr_array_new_with_free_func (g_free);
  if (!make_verbalizer (&options, config, schema, &run, &error))
    return grammar_cli_report ("text-templates", error);
  output = generate (&options, &run, input, &error);
  if (run.llm != NULL)
    grammar_cli_print_llm_stats (G_OBJECT (grammar_llm_verbalizer_get_llm (run.llm)));
  if (options.verbose)
    print_lines ("dropped lines of the replies", (const char * const *) run.dropped->pdata, run.dropped->len);
  if (output == NULL)
    return grammar_cli_report ("text-templates", error);
  if (!grammar_template_set_save_text_templates (output, options.output, &error))
    return grammar_cli_report ("text-templates", error);

  if (!options.quiet)
    print_summary (&options, &run, input);
  print_shortfalls (&options, &run);
  /* The valid templates are written; the status still tells a script
   * that the input needs fixing. */
  if (n_problems > 0)
    {
      fprintf (stderr, "grammar text-templates: %u template%s of %s left out (listed above); "
               "the others were written\n", n_problems, n_problems == 1 ? "" : "s", options.input);
      return GRAMMAR_EXIT_USAGE;
    }
  return GRAMMAR_EXIT_OK;
}
