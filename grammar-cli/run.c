/* run.c: `grammar run`, the whole method in one command
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include <glib/gstdio.h>

#include "grammar-cli.h"

/* `grammar run -c CFG -d OUTDIR` runs the stages one after the other, each
 * through its own subcommand (the same options, messages and exit
 * statuses as when a user runs it), keeping every stage's file in OUTDIR:
 *
 *   sql-templates.json                 grammar sql-templates
 *   STYLE.text-templates.json          grammar text-templates --style STYLE
 *   documents.jsonl                    grammar docs (when [documents] exists)
 *   STYLE.dataset.jsonl                grammar qa [-d documents.jsonl]
 *   STYLE.results.jsonl                grammar rag
 *   STYLE.judged.jsonl                 grammar judge
 *   report.txt|.json|.md|.html         grammar report [--against the second style]
 *
 * A stage whose file exists is not run again (the generation stages write
 * their files atomically, so a file that exists is complete); `rag` and
 * `judge` always run, since they resume and skip what is done. The corpus
 * this run writes is given to every retriever section of the keyfile (its
 * `documents` key), and `[matcher]` defaults to the `contains` matcher. */

typedef struct
{
  char *config_path;
  char *outdir;
  char **styles;
  int per_template;
  int per_group;
  gint64 seed;
  gboolean force;
  gboolean quiet;
} Options;

static void
options_clear (Options *options)
{
  g_free (options->config_path);
  g_free (options->outdir);
  g_strfreev (options->styles);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* Runs `grammar ARGS…` (@args, of strings, taken) in this process;
 * returns its exit status. */
static int
run_stagev (Options   *options,
            GPtrArray *args)
{
  g_autoptr (GPtrArray) owned = args;
  g_autofree char **argv = NULL;
  g_autofree char *shown = NULL;
  const char *command = g_ptr_array_index (args, 0);
  int argc;
  int status;

  if (options->quiet && !g_str_equal (command, "report"))  /* report prints nothing but the report */
    g_ptr_array_add (args, g_strdup ("-q"));
  g_ptr_array_add (args, NULL);

  shown = g_strjoinv (" ", (char **) args->pdata);
  if (!options->quiet)
    fprintf (stderr, "\n$ grammar %s\n", shown);

  /* GOption rearranges argv: give it a copy of the pointers */
  argc = args->len - 1;
  argv = g_memdup2 (args->pdata, args->len * sizeof (char *));
  if (g_str_equal (command, "sql-templates"))
    status = grammar_cli_sql_templates (argc, argv);
  else if (g_str_equal (command, "text-templates"))
    status = grammar_cli_text_templates (argc, argv);
  else if (g_str_equal (command, "docs"))
    status = grammar_cli_docs (argc, argv);
  else if (g_str_equal (command, "qa"))
    status = grammar_cli_qa (argc, argv);
  else if (g_str_equal (command, "rag"))
    status = grammar_cli_rag (argc, argv);
  else if (g_str_equal (command, "judge"))
    status = grammar_cli_judge (argc, argv);
  else
    status = grammar_cli_report_main (argc, argv);
  fflush (stdout);
  return status;
}

static GPtrArray *
args_new (const char *first,
          va_list     ap)
{
  GPtrArray *args = g_ptr_array_new_with_free_func (g_free);

  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, g_strdup (arg));
  return args;
}

/* run_stagev() with the arguments listed, NULL-terminated. */
static int
run_stage (Options    *options,
           const char *first,
           ...)
{
  GPtrArray *args;
  va_list ap;

  va_start (ap, first);
  args = args_new (first, ap);
  va_end (ap);
  return run_stagev (options, args);
}

static char *
stage_file (Options    *options,
            const char *style,
            const char *name)
{
  g_autofree char *base = style != NULL ? g_strconcat (style, ".", name, NULL) : g_strdup (name);

  return g_build_filename (options->outdir, base, NULL);
}

/* Whether a generation stage must run: its file is missing, or --force
 * (which removes it first, so that a failed stage leaves nothing stale). */
static gboolean
needs_run (Options    *options,
           const char *path)
{
  if (options->force)
    g_unlink (path);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  if (!options->quiet)
    fprintf (stderr, "\n(kept %s from an earlier run; pass --force to make it again)\n", path);
  return FALSE;
}

/* The settings `grammar run` adds to the keyfile for its stages: the
 * corpus it wrote for every retriever section with a `documents` key, and
 * the contains matcher when the keyfile names none. */
static GStrv
stage_overrides (GrammarConfig *config,
                 const char    *documents)
{
  GKeyFile *key_file = grammar_config_get_key_file (config);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) groups = g_key_file_get_groups (key_file, NULL);
  g_autoptr (GPtrArray) retrievers =
    grammar_registry_list_plugins (grammar_registry_get_default (), GRAMMAR_TYPE_RETRIEVER);

  for (guint g = 0; documents != NULL && groups[g] != NULL; g++)
    {
      g_autofree char *plugin = g_key_file_get_string (key_file, groups[g], "plugin", NULL);

      if (plugin == NULL || !g_key_file_has_key (key_file, groups[g], "documents", NULL))
        continue;
      for (guint i = 0; i < retrievers->len; i++)
        if (g_str_equal (grammar_plugin_info_get_name (g_ptr_array_index (retrievers, i)), plugin))
          {
            g_autofree char *setting = g_strdup_printf ("%s.documents=%s", groups[g], documents);

            g_strv_builder_add (builder, setting);
          }
    }
  if (!grammar_config_has_section (config, "matcher"))
    g_strv_builder_add (builder, "matcher.plugin=contains");
  return g_strv_builder_end (builder);
}

static gboolean
check_usage (Options *options,
             int      argc)
{
  const char *problem = NULL;

  if (options->config_path == NULL)
    problem = "no configuration given; pass -c FILE.ini (see examples/demo.ini)";
  else if (argc > 1)
    problem = "unexpected arguments; the options are -c and -d (see --help)";
  else if (options->styles != NULL && (options->styles[0] == NULL || options->styles[0][0] == '\0'))
    problem = "--style needs a style name";
  if (problem == NULL)
    return TRUE;
  fprintf (stderr, "grammar run: %s\n", problem);
  return FALSE;
}

/* Reads the optional [run] section: styles= (default short;long),
 * per-template=, per-group=, seed=. Command-line options win. */
static gboolean
read_run_section (GrammarConfig  *config,
                  Options        *options,
                  GError        **error)
{
  GKeyFile *key_file = grammar_config_get_key_file (config);
  const char *known[] = { "styles", "per-template", "per-group", "seed", NULL };
  g_auto (GStrv) keys = NULL;
  GError *local_error = NULL;

  if (!g_key_file_has_group (key_file, "run"))
    return TRUE;
  keys = g_key_file_get_keys (key_file, "run", NULL, NULL);
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    if (!g_strv_contains (known, keys[i]))
      {
        g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY,
                     "%s: [run] %s: unknown key (known: styles, per-template, per-group, seed)",
                     grammar_config_get_path (config), keys[i]);
        return FALSE;
      }
  if (options->styles == NULL && g_key_file_has_key (key_file, "run", "styles", NULL))
    options->styles = g_key_file_get_string_list (key_file, "run", "styles", NULL, NULL);
  if (options->per_template < 0 && g_key_file_has_key (key_file, "run", "per-template", NULL))
    options->per_template = g_key_file_get_integer (key_file, "run", "per-template", &local_error);
  if (local_error == NULL && options->per_group < 0 && g_key_file_has_key (key_file, "run", "per-group", NULL))
    options->per_group = g_key_file_get_integer (key_file, "run", "per-group", &local_error);
  if (local_error == NULL && options->seed < 0 && g_key_file_has_key (key_file, "run", "seed", NULL))
    options->seed = g_key_file_get_int64 (key_file, "run", "seed", &local_error);
  if (local_error != NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "%s: [run]: %s",
                   grammar_config_get_path (config), local_error->message);
      g_error_free (local_error);
      return FALSE;
    }
  return TRUE;
}

/* The stages up to the judged file of one style; the worst status. */
static int
run_style (Options    *options,
           const char *style,
           const char *sql_templates,
           const char *documents)
{
  g_autofree char *text_templates = stage_file (options, style, "text-templates.json");
  g_autofree char *dataset = stage_file (options, style, "dataset.jsonl");
  g_autofree char *results = stage_file (options, style, "results.jsonl");
  g_autofree char *judged = stage_file (options, style, "judged.jsonl");
  g_autofree char *per_template = g_strdup_printf ("%d", options->per_template < 0 ? 3 : options->per_template);
  int status;
  int worst = GRAMMAR_EXIT_OK;

  if (needs_run (options, text_templates) &&
      (status = run_stage (options, "text-templates", "-c", options->config_path, "-i", sql_templates,
                           "--style", style, "-n", per_template, "-o", text_templates, NULL)) != 0)
    return status;
  if (needs_run (options, dataset))
    {
      GPtrArray *args = g_ptr_array_new_with_free_func (g_free);
      const char *qa[] = { "qa", "-c", options->config_path, "-i", text_templates, "-o", dataset };

      for (guint i = 0; i < G_N_ELEMENTS (qa); i++)
        g_ptr_array_add (args, g_strdup (qa[i]));
      if (documents != NULL)
        {
          g_ptr_array_add (args, g_strdup ("-d"));
          g_ptr_array_add (args, g_strdup (documents));
        }
      if (options->per_group > 0)
        {
          g_ptr_array_add (args, g_strdup_printf ("--per-group=%d", options->per_group));
          g_ptr_array_add (args, g_strdup_printf ("--seed=%" G_GINT64_FORMAT, MAX (options->seed, 0)));
        }
      if ((status = run_stagev (options, args)) != 0)
        return status;
    }
  if (options->force)
    {
      g_unlink (results);
      g_unlink (judged);
    }
  /* a failed query is recorded and judged unmeasured: go on, but say so */
  status = run_stage (options, "rag", "-c", options->config_path, "-i", dataset, "-o", results, NULL);
  if (status == GRAMMAR_EXIT_USAGE)
    return status;
  worst = MAX (worst, status);
  status = run_stage (options, "judge", "-c", options->config_path, "-i", results, "-o", judged, NULL);
  if (status != 0)
    return status;
  return worst;
}

static int
write_reports (Options    *options,
               const char *first,
               const char *second)
{
  const char *formats[][2] = { { "json", "report.json" }, { "markdown", "report.md" }, { "html", "report.html" } };
  g_autofree char *text = g_build_filename (options->outdir, "report.txt", NULL);
  int status;

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *path = g_build_filename (options->outdir, formats[i][1], NULL);

      status = second != NULL
               ? run_stage (options, "report", "-i", first, "--against", second, "--format", formats[i][0],
                            "-o", path, NULL)
               : run_stage (options, "report", "-i", first, "--format", formats[i][0], "-o", path, NULL);
      if (status != 0)
        return status;
    }
  status = second != NULL
           ? run_stage (options, "report", "-i", first, "--against", second, "-o", text, NULL)
           : run_stage (options, "report", "-i", first, "-o", text, NULL);
  if (status != 0)
    return status;
  /* the text report is the command's output */
  {
    g_autofree char *contents = NULL;

    if (g_file_get_contents (text, &contents, NULL, NULL))
      {
        printf ("\n%s", contents);
        fflush (stdout);
      }
  }
  return GRAMMAR_EXIT_OK;
}

int
grammar_cli_run (int    argc,
                 char **argv)
{
  g_auto (Options) options = { .per_template = -1, .per_group = -1, .seed = -1 };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_auto (GStrv) overrides = NULL;
  g_autofree char *sql_templates = NULL;
  g_autofree char *documents = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  const char *default_styles[] = { "short", "long", NULL };
  const char * const *styles;
  int exit_status = GRAMMAR_EXIT_OK;
  int worst = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &options.config_path, "The keyfile describing the components", "FILE" },
    { "outdir", 'd', 0, G_OPTION_ARG_FILENAME, &options.outdir,
      "Where every stage's file goes (default: grammar-run)", "DIR" },
    { "style", 's', 0, G_OPTION_ARG_STRING_ARRAY, &options.styles,
      "A text style, repeatable (default: [run] styles=, else short and long); the report compares the first two",
      "STYLE" },
    { "per-template", 'n', 0, G_OPTION_ARG_INT, &options.per_template,
      "Text templates per SQL template and style (default: 3)", "N" },
    { "per-group", 0, 0, G_OPTION_ARG_INT, &options.per_group, "Text queries per group and style (default: all)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &options.seed, "The seed of the --per-group sampling (default: 0)", "S" },
    { "force", 0, 0, G_OPTION_ARG_NONE, &options.force, "Make every stage's file again", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options.quiet, "Only the report and warnings", NULL },
    { NULL }
  };

  context = g_option_context_new ("— the whole method: templates, datasets, the system under test, judge, report");
  g_option_context_set_summary (context,
    "Runs every stage of GRAMMAR for the keyfile: SQL templates, text templates\n"
    "for each style, the document corpus (when the keyfile has [documents]),\n"
    "the query-answer datasets, the system under test ([system]), the judge\n"
    "([matcher], default: contains) and the report, comparing the first two\n"
    "styles. Each stage's file stays in the output folder, and a re-run keeps\n"
    "the finished ones (rag and judge resume).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "run", &argc, &argv, &exit_status))
    return exit_status;
  if (!check_usage (&options, argc))
    return GRAMMAR_EXIT_USAGE;
  if (options.outdir == NULL)
    options.outdir = g_strdup ("grammar-run");

  config = grammar_cli_load_config (options.config_path, &error);
  if (config == NULL || !read_run_section (config, &options, &error))
    return grammar_cli_report ("run", error);
  styles = options.styles != NULL ? (const char * const *) options.styles : default_styles;
  if (g_mkdir_with_parents (options.outdir, 0777) != 0)
    {
      fprintf (stderr, "grammar run: cannot make the folder %s: %s\n", options.outdir, g_strerror (errno));
      return GRAMMAR_EXIT_USAGE;
    }

  sql_templates = stage_file (&options, NULL, "sql-templates.json");
  if (needs_run (&options, sql_templates) &&
      (exit_status = run_stage (&options, "sql-templates", "-c", options.config_path, "-o", sql_templates, NULL)) != 0)
    return exit_status;
  if (grammar_config_has_section (config, "documents"))
    {
      g_autofree char *relative = stage_file (&options, NULL, "documents.jsonl");

      documents = g_canonicalize_filename (relative, NULL);
      if (needs_run (&options, documents) &&
          (exit_status = run_stage (&options, "docs", "-c", options.config_path, "-o", documents, NULL)) != 0)
        return exit_status;
    }

  overrides = stage_overrides (config, documents);
  grammar_cli_set_config_overrides ((const char * const *) overrides);
  for (guint i = 0; styles[i] != NULL; i++)
    {
      exit_status = run_style (&options, styles[i], sql_templates, documents);
      if (exit_status == GRAMMAR_EXIT_USAGE || (exit_status != 0 && exit_status != GRAMMAR_EXIT_FAILED))
        break;
      worst = MAX (worst, exit_status);
      exit_status = GRAMMAR_EXIT_OK;
    }
  grammar_cli_set_config_overrides (NULL);
  if (exit_status != GRAMMAR_EXIT_OK)
    return exit_status;

  first = stage_file (&options, styles[0], "judged.jsonl");
  if (styles[1] != NULL)
    second = stage_file (&options, styles[1], "judged.jsonl");
  exit_status = write_reports (&options, first, second);
  return exit_status != GRAMMAR_EXIT_OK ? exit_status : worst;
}
