/* run.c: `grammar run`, the whole method in one command
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "grammar-cli.h"

/* `grammar run -c CFG -d OUTDIR` is a shell over GrammarMethod, which
 * runs the stages and keeps their files and manifest in OUTDIR: this file
 * only turns options into the method's properties, prints what the
 * method's signals say, and maps the outcome to an exit status. */

typedef struct
{
  char *config_path;
  char *outdir;
  char **styles;
  char *compare;
  int per_template;
  int per_group;
  gint64 seed;
  int concurrency;
  gboolean force;
  gboolean retry_failed;
  gboolean quiet;
  gboolean probe;
} Options;

static void
options_clear (Options *options)
{
  g_free (options->config_path);
  g_free (options->outdir);
  g_strfreev (options->styles);
  g_free (options->compare);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

typedef struct
{
  gboolean quiet;
  GrammarCliProgress progress;
} Output;

static gboolean
compare_is_two_styles (const char *compare)
{
  g_auto (GStrv) styles = g_strsplit (compare, ",", -1);

  return g_strv_length (styles) == 2 && *g_strstrip (styles[0]) != '\0' && *g_strstrip (styles[1]) != '\0';
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
  else if (options->compare != NULL && !compare_is_two_styles (options->compare))
    problem = "--compare takes two styles, A then B, such as --compare=short,long";
  else if (options->per_template == 0 || options->per_template < -1)
    problem = "--per-template must be at least 1";
  else if (options->per_group == 0 || options->per_group < -1)
    problem = "--per-group must be at least 1";
  else if (options->seed < -1)
    problem = "--seed must not be negative";
  else if (options->concurrency == 0 || options->concurrency < -1)
    problem = "--concurrency must be at least 1";
  if (problem == NULL)
    return TRUE;
  fprintf (stderr, "grammar run: %s\n", problem);
  return FALSE;
}

/* The command line wins over [run]. */
static void
apply_options (GrammarMethod *method,
               Options       *options)
{
  if (options->outdir != NULL)
    grammar_method_set_outdir (method, options->outdir);
  if (options->styles != NULL)
    grammar_method_set_styles (method, (const char * const *) options->styles);
  if (options->compare != NULL)
    {
      g_auto (GStrv) compare = g_strsplit (options->compare, ",", -1);

      for (guint i = 0; compare[i] != NULL; i++)
        g_strstrip (compare[i]);
      grammar_method_set_compare (method, (const char * const *) compare);
    }
  if (options->per_template > 0)
    grammar_method_set_per_template (method, options->per_template);
  if (options->per_group > 0)
    grammar_method_set_per_group (method, options->per_group);
  if (options->seed >= 0)
    grammar_method_set_seed (method, options->seed);
  if (options->concurrency > 0)
    grammar_method_set_concurrency (method, (guint) options->concurrency);
  grammar_method_set_force (method, options->force);
  if (options->retry_failed)
    grammar_method_set_retry_failed (method, TRUE);
}

static void
on_stage_started (GrammarMethod *method,
                  const char    *stage,
                  const char    *style,
                  const char    *path,
                  const char    *reason,
                  Output        *output)
{
  /* The rate of each stage is its own. */
  grammar_cli_progress_restart (&output->progress, stage, g_str_equal (stage, "docs") ? "documents" : "records");
  if (output->quiet)
    return;
  if (g_str_equal (reason, "kept"))
    fprintf (stderr, "\n(kept %s from an earlier run; pass --force to make it again)\n", path);
  else if (g_str_equal (reason, "changed"))
    fprintf (stderr, "\n$ grammar %s → %s (made again: its configuration or inputs changed)\n", stage, path);
  else if (g_str_equal (reason, "resumed"))
    fprintf (stderr, "\n$ grammar %s → %s (resumed)\n", stage, path);
  else if (g_str_equal (reason, "incomplete"))
    fprintf (stderr, "\n$ grammar %s → %s (made again: an earlier run stopped during it)\n", stage, path);
  else
    fprintf (stderr, "\n$ grammar %s → %s\n", stage, path);
}

static void
on_stage_finished (GrammarMethod *method,
                   const char    *stage,
                   const char    *style,
                   const char    *path,
                   const char    *summary,
                   Output        *output)
{
  grammar_cli_progress_clear (&output->progress);
  if (output->quiet || g_str_equal (summary, "kept from an earlier run"))
    return;
  fprintf (stderr, "grammar %s: %s\n", stage, summary);
}

static void
on_warning (GrammarMethod *method,
            const char    *stage,
            const char    *message,
            Output        *output)
{
  grammar_cli_progress_clear (&output->progress);
  fprintf (stderr, "grammar %s: warning: %s\n", stage, message);
}

static void
on_progress (GrammarMethod *method,
             const char    *stage,
             guint64        done,
             guint64        total,
             Output        *output)
{
  grammar_cli_progress_draw (&output->progress, done, total, NULL);
}

/* The text report is the command's output. */
static void
print_text_report (GrammarMethod *method)
{
  g_autofree char *path = grammar_method_dup_report_path (method, "text");
  g_autofree char *contents = NULL;

  if (g_file_get_contents (path, &contents, NULL, NULL))
    {
      printf ("\n%s", contents);
      fflush (stdout);
    }
}

/* Whether @system counts its requests and made some. */
static gboolean
system_asked (GrammarSystem *system)
{
  GParamSpec *pspec = system != NULL ? g_object_class_find_property (G_OBJECT_GET_CLASS (system), "requests") : NULL;
  guint64 requests = 0;

  if (pspec == NULL || pspec->value_type != G_TYPE_UINT64)
    return FALSE;
  g_object_get (system, "requests", &requests, NULL);
  return requests > 0;
}

static void
start_method (GObject             *method,
              gpointer             data,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  grammar_method_run_async (GRAMMAR_METHOD (method), cancellable, callback, user_data);
}

/* The method the options describe. With @check, checked at once: NULL
 * with every problem printed, and @status 2, when there is one
 * (grammar_method_run_async() makes that check itself, first). */
static GrammarMethod *
make_method (const char *command,
             Options    *options,
             gboolean    check,
             int        *status)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarMethod) method = NULL;

  config = grammar_cli_load_config (options->config_path, &error);
  if (config == NULL)
    {
      *status = grammar_cli_report (command, error);
      return NULL;
    }
  method = grammar_method_new (config, &error);
  if (method == NULL)
    {
      /* [run] has a problem: the check lists it with every other */
      g_clear_error (&error);
      method = g_object_new (GRAMMAR_TYPE_METHOD, "config", config, NULL);
    }
  apply_options (method, options);
  if (check && !grammar_method_check (method, &error))
    {
      *status = grammar_cli_report (command, error);
      return NULL;
    }
  return g_steal_pointer (&method);
}

/* `grammar check --probe`: the system of [system] answers one query.
 * Before the plan is printed, so that a service that is down is not
 * preceded by "no problem found". */
static int
probe_system (GrammarMethod *method)
{
  g_autoptr (GError) error = NULL;
  gboolean probed = FALSE;

  if (!grammar_assembly_probe_system (grammar_method_get_assembly (method), NULL, &probed, NULL, &error))
    {
      if (error->domain != GRAMMAR_CONFIG_ERROR)
        g_prefix_error (&error, "probe: the system does not answer: ");
      return grammar_cli_report ("check", error);
    }
  return probed ? GRAMMAR_EXIT_OK : -1;
}

/* The options of `grammar run` and `grammar check` (which takes those that
 * change what runs). */
#define METHOD_OPTION_ENTRIES(options) \
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &(options).config_path, "The keyfile describing the components", "FILE" }, \
    { "outdir", 'd', 0, G_OPTION_ARG_FILENAME, &(options).outdir, \
      "Where every stage's file goes (default: grammar-run)", "DIR" }, \
    { "style", 's', 0, G_OPTION_ARG_STRING_ARRAY, &(options).styles, \
      "A text style, repeatable (default: [run] styles=, else short and long); the report shows each", "STYLE" }, \
    { "compare", 0, 0, G_OPTION_ARG_STRING, &(options).compare, \
      "The two styles the report concludes on, A then B (default: [run] compare=, else the first two)", "A,B" }, \
    { "per-template", 'n', 0, G_OPTION_ARG_INT, &(options).per_template, \
      "Text templates per SQL template and style (default: 3)", "N" }, \
    { "per-group", 0, 0, G_OPTION_ARG_INT, &(options).per_group, "Text queries per group and style (default: all)", "N" }, \
    { "seed", 0, 0, G_OPTION_ARG_INT64, &(options).seed, "The seed of the --per-group sampling (default: 0)", "S" }, \
    { "force", 0, 0, G_OPTION_ARG_NONE, &(options).force, "Make every stage's file again", NULL }

/**
 * `grammar check -c FILE`: the check `grammar run` makes first, and the
 * plan of the run, without running anything nor writing any file.
 */
int
grammar_cli_check (int    argc,
                   char **argv)
{
  g_auto (Options) options = { .per_template = -1, .per_group = -1, .seed = -1, .concurrency = -1 };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarMethod) method = NULL;
  g_autofree char *plan = NULL;
  int status = GRAMMAR_EXIT_OK;
  int probe_status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    METHOD_OPTION_ENTRIES (options),
    { "probe", 0, 0, G_OPTION_ARG_NONE, &options.probe,
      "Also send the system under test one short query, to know that it answers", NULL },
    { NULL }
  };

  context = g_option_context_new ("— check a keyfile and show what `grammar run` would do, running nothing");
  g_option_context_set_summary (context,
    "Reads every section of the keyfile as `grammar run` would build it, without\n"
    "building anything (no database is opened, no server nor model is asked):\n"
    "unknown keys and bad values, plugin names, the sections each names and cycles\n"
    "among them, files that must exist, an output folder that can be written, the\n"
    "styles, and the rules that join sections. Prints every problem found, or the\n"
    "stages a run would make with their components, the files they read and write,\n"
    "and those already done that a run would keep. Takes the options of\n"
    "`grammar run` that change what runs.");
  g_option_context_set_description (context,
    "With --probe, the system under test of [system] is built and sent one short\n"
    "query, as `grammar rag` and `grammar run` do before their first: a service\n"
    "that is down, a wrong url or a refused key is told with the address.\n"
    "Exit status: 0 the keyfile is ready to run, 1 the probe failed, 2 bad usage\n"
    "or a problem in the keyfile (every one is listed); no file is written either\n"
    "way.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "check", &argc, &argv, &status))
    return status;
  if (!check_usage (&options, argc))
    return GRAMMAR_EXIT_USAGE;
  method = make_method ("check", &options, TRUE, &status);
  if (method == NULL)
    return status;
  plan = grammar_method_describe_plan (method, &error);
  if (plan == NULL)
    return grammar_cli_report ("check", error);
  if (options.probe)
    {
      probe_status = probe_system (method);
      if (probe_status > 0)
        return probe_status;
    }
  printf ("%s: no problem found; `grammar run` would make, in %s:\n%s", options.config_path,
          grammar_method_get_outdir (method), plan);
  if (options.probe)
    {
      g_autofree char *plugin = g_key_file_get_string (grammar_config_get_key_file (grammar_method_get_config (method)),
                                                       "system", "plugin", NULL);

      if (probe_status == GRAMMAR_EXIT_OK)
        printf ("probe: the system of [system] answered\n");
      else
        printf ("probe: the %s system of [system] calls no service; nothing to probe\n",
                plugin != NULL ? g_strstrip (plugin) : "(none)");
    }
  return GRAMMAR_EXIT_OK;
}

int
grammar_cli_run (int    argc,
                 char **argv)
{
  g_auto (Options) options = { .per_template = -1, .per_group = -1, .seed = -1, .concurrency = -1 };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarMethod) method = NULL;
  Output output = { 0 };
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    METHOD_OPTION_ENTRIES (options),
    { "retry-failed", 0, 0, G_OPTION_ARG_NONE, &options.retry_failed,
      "Ask again the queries that failed in an earlier run (and judge and assess them again)", NULL },
    { "concurrency", 0, 0, G_OPTION_ARG_INT, &options.concurrency,
      "Records rag, judge and assess process at once (default: [run] concurrency=, else 16)", "N" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options.quiet, "Only the report and warnings", NULL },
    { NULL }
  };

  context = g_option_context_new ("— the whole method: templates, datasets, the system under test, judge, report");
  g_option_context_set_summary (context,
    "Runs every stage of GRAMMAR for the keyfile: SQL templates, text templates\n"
    "for each style, the document corpus (when the keyfile has [documents]),\n"
    "the query-answer datasets, the system under test ([system]), the judge\n"
    "([matcher], default: contains) and the report: every style, the\n"
    "comparison of two (--compare, by default the first two) and the first\n"
    "style against each other one. Each stage's file stays in the output\n"
    "folder with a manifest of what it was made from: a re-run keeps the\n"
    "stages whose configuration and inputs did not change, makes the others\n"
    "again, and says which.");
  g_option_context_set_description (context,
    "Ctrl-C (or SIGTERM, SIGHUP) stops the run within 2 s: the finished stages'\n"
    "files stay, rag, judge and assess keep every record written, and the next\n"
    "run goes on from there; a second signal exits at once. One run writes a\n"
    "folder at a time: a second one stops at once (DIR/.lock names the first).\n"
    "Before its first query the rag stage sends the system one short query: a\n"
    "service that is down stops the run at once, and a stage stops after\n"
    "[run] max-consecutive-failures= (default 10) records in a row failed for\n"
    "want of the service; the records written stay for the next run.\n"
    "Exit status: 0 success, 1 some queries failed or the run failed (a service\n"
    "that is down included), 2 bad usage, configuration or input, or a folder in\n"
    "use; 128 + the signal's number when interrupted (130, 143, 129).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "run", &argc, &argv, &status))
    return status;
  if (!check_usage (&options, argc))
    return GRAMMAR_EXIT_USAGE;

  /* every problem of the keyfile is told before any stage runs, by the
   * check grammar_method_run_async() makes first */
  method = make_method ("run", &options, FALSE, &status);
  if (method == NULL)
    return status;

  output.quiet = options.quiet;
  grammar_cli_progress_init (&output.progress, "run", "records", options.quiet);
  g_signal_connect (method, "stage-started", G_CALLBACK (on_stage_started), &output);
  g_signal_connect (method, "stage-finished", G_CALLBACK (on_stage_finished), &output);
  g_signal_connect (method, "warning", G_CALLBACK (on_warning), &output);
  g_signal_connect (method, "progress", G_CALLBACK (on_progress), &output);

  status = grammar_cli_run_until_done ("run", G_OBJECT (method), start_method, NULL,
                                       (GrammarCliFinish) grammar_method_run_finish, &error);
  grammar_cli_progress_end (&output.progress);
  /* what the requests to the system cost, when it counts them and this
   * run asked it something */
  if (!options.quiet && system_asked (grammar_method_get_system (method)))
    grammar_cli_print_request_stats (G_OBJECT (grammar_method_get_system (method)), "system");
  if (status == GRAMMAR_EXIT_OK)
    {
      print_text_report (method);
      if (grammar_method_get_n_failed (method) > 0)
        {
          fprintf (stderr, "grammar run: %" G_GUINT64_FORMAT " queries failed (written with their error and judged "
                   "unmeasured); `grammar run --retry-failed` asks them again\n",
                   grammar_method_get_n_failed (method));
          status = GRAMMAR_EXIT_FAILED;
        }
      return status;
    }
  if (error != NULL)
    return grammar_cli_report ("run", error);
  fprintf (stderr, "grammar run: interrupted; the files written stay in %s, run again to go on\n",
           grammar_method_get_outdir (method));
  return status;
}
