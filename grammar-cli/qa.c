/* qa.c: `grammar qa`, the grounded query-answer dataset
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

typedef struct
{
  GrammarCliProgress line;
  guint n_templates;
} Progress;

static void
progress_clear (Progress *progress)
{
  grammar_cli_progress_end (&progress->line);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Progress, progress_clear)

/* In the generator's worker thread. */
static void
on_progress (GrammarQaGenerator *generator,
             gpointer            user_data)
{
  Progress *progress = user_data;

  grammar_cli_progress_draw (&progress->line, grammar_qa_generator_get_n_records (generator), 0,
                             "%" G_GUINT64_FORMAT " groups, template %u/%u",
                             grammar_qa_generator_get_n_groups (generator),
                             grammar_qa_generator_get_n_templates (generator), progress->n_templates);
}

typedef struct
{
  GrammarTemplateSet *templates;
  const char *output;
} Generate;

static void
start_generate (GObject             *generator,
                gpointer             data,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  Generate *generate = data;

  grammar_qa_generator_generate_to_file_async (GRAMMAR_QA_GENERATOR (generator), generate->templates,
                                               generate->output, cancellable, callback, user_data);
}

static void
print_lines (const char * const *lines)
{
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    fprintf (stderr, "grammar qa: warning: %s\n", lines[i]);
}

static void
print_summary (GrammarQaGenerator *generator,
               const char         *output,
               double              seconds)
{
  guint n_templates = grammar_qa_generator_get_n_templates (generator);

  fprintf (stderr,
           "grammar qa: %u template%s (%u set-based, %u per binding), %" G_GUINT64_FORMAT " groups, "
           "%" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT " empty combinations skipped, %.2f s → %s\n",
           n_templates, n_templates == 1 ? "" : "s", grammar_qa_generator_get_n_set_based (generator),
           n_templates - grammar_qa_generator_get_n_set_based (generator),
           grammar_qa_generator_get_n_groups (generator), grammar_qa_generator_get_n_records (generator),
           grammar_qa_generator_get_n_skipped (generator), seconds, output);
}

static gboolean
check_options (const char *input,
               const char *output,
               int         per_group,
               gint64      seed,
               gint64      max_combinations,
               gint64      max_answer_rows,
               gint64      max_answer_bytes,
               int         argc,
               char      **argv)
{
  const char *problem = NULL;

  if (argc > 1)
    {
      fprintf (stderr, "grammar qa: unexpected argument “%s”\n", argv[1]);
      return FALSE;
    }
  if (input == NULL)
    problem = "no templates given; pass -i text-templates.json";
  else if (output == NULL)
    problem = "no output given; pass -o dataset.jsonl";
  else if (per_group == 0 || per_group < -1)
    problem = "--per-group must be at least 1";
  else if (seed < 0)
    problem = "--seed must not be negative";
  else if (max_combinations < 1)
    problem = "--max-combinations must be at least 1";
  else if (max_answer_rows < 0 || max_answer_rows > G_MAXUINT)
    problem = "--max-answer-rows must be between 0 (no limit) and 4294967295";
  else if (max_answer_bytes < 0)
    problem = "--max-answer-bytes must not be negative";
  if (problem != NULL)
    fprintf (stderr, "grammar qa: %s\nRun “grammar qa --help” for the options.\n", problem);
  return problem == NULL;
}

/* Loads the templates, printing those left out. */
static GrammarTemplateSet *
load_templates (const char       *input,
                GrammarDatabase  *database,
                guint            *n_problems,
                GError          **error)
{
  g_autoptr (GrammarTemplateSet) templates = grammar_template_set_new ();
  g_autoptr (GrammarSchema) schema = NULL;
  g_auto (GStrv) problems = NULL;

  schema = grammar_database_get_schema (database, NULL, error);
  if (schema == NULL)
    return NULL;
  if (!grammar_template_set_load (templates, input, database, schema, &problems, error))
    return NULL;

  print_lines ((const char * const *) problems);
  *n_problems = problems != NULL ? g_strv_length (problems) : 0;
  if (grammar_template_set_get_sql_templates (templates)->len == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s: no valid SQL template to generate from", input);
      return NULL;
    }
  return g_steal_pointer (&templates);
}

int
grammar_cli_qa (int    argc,
                char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarAssembly) assembly = NULL;
  g_autoptr (GObject) database = NULL;
  g_autoptr (GrammarTemplateSet) templates = NULL;
  g_autoptr (GrammarQaGenerator) generator = NULL;
  Generate generate = { NULL, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *input = NULL;
  g_autofree char *output = NULL;
  g_autofree char *documents_path = NULL;
  g_autoptr (GPtrArray) documents = NULL;
  g_auto (GStrv) warnings = NULL;
  int per_group = -1;  /* not given: every text template */
  gint64 seed = 0;
  gint64 max_combinations = GRAMMAR_QA_GENERATOR_DEFAULT_MAX_COMBINATIONS;
  gint64 max_answer_rows = GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_ROWS;
  gint64 max_answer_bytes = GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_BYTES;
  g_auto (GStrv) left_out = NULL;
  guint n_left_out;
  gboolean quiet = FALSE;
  guint n_problems = 0;
  gint64 started;
  int status = GRAMMAR_EXIT_OK;
  g_auto (Progress) progress = { 0, };
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path, "The keyfile describing the components", "FILE" },
    { "input", 'i', 0, G_OPTION_ARG_FILENAME, &input, "The text templates (text-templates.json)", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The dataset to write (JSON Lines)", "FILE" },
    { "per-group", 0, 0, G_OPTION_ARG_INT, &per_group,
      "Keep exactly N text queries per group and style, sampled (default: all)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "The seed of the --per-group sampling (default: 0)", "S" },
    { "max-combinations", 0, 0, G_OPTION_ARG_INT64, &max_combinations,
      "Refuse a template answered per binding with more value combinations (default: 1000000)", "N" },
    { "max-answer-rows", 0, 0, G_OPTION_ARG_INT64, &max_answer_rows,
      "Leave out a template with an answer of more rows (default: 1000; 0: no limit)", "N" },
    { "max-answer-bytes", 0, 0, G_OPTION_ARG_INT64, &max_answer_bytes,
      "Leave out a template with an answer of more bytes of values (default: 1048576; 0: no limit)", "N" },
    { "documents", 'd', 0, G_OPTION_ARG_FILENAME, &documents_path,
      "The corpus (documents.jsonl from `grammar docs`): fills doc_ids with the documents of the rows each query reads", "FILE" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress nor summary on stderr (warnings stay)", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— generate grounded query-answer pairs");
  g_option_context_set_summary (context,
    "Fills every SQL template with the distinct values of its placeholder columns\n"
    "(the Cartesian product for several placeholders), answers it from the database,\n"
    "and writes one JSON line per text query: id, group, template, style, text, sql,\n"
    "bindings, answer, doc_ids. Combinations with an empty answer are skipped.\n"
    "doc_ids stays [] unless --documents gives the corpus: then it lists the documents\n"
    "whose source row the filled query reads (its FROM, JOIN and WHERE).\n"
    "Templates whose WHERE is a conjunction of “column = placeholder” conditions are\n"
    "answered by one set-based query (not limited by --max-combinations); the others\n"
    "run once per combination.");
  g_option_context_set_description (context,
    "Invalid templates in the input are listed and nothing is written (exit status 2).\n"
    "A template whose answer exceeds --max-answer-rows or --max-answer-bytes, or whose\n"
    "statement runs longer than the database's query-timeout (a key of its section;\n"
    "default 300 s), is listed and left out, the others generated, and the exit status is 2.\n"
    "The output is replaced only when the run succeeds; an interrupted or failed run\n"
    "leaves the previous file as it was.\n"
    "SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the run within 2 s; a second signal\n"
    "exits at once. One process writes an output at a time: a second one on it\n"
    "stops at once (OUTPUT.lock names the first).\n"
    "Exit status: 0 success, 1 database or I/O failure, 2 bad usage or input, or an\n"
    "output in use; 128 + N when signal N stopped it (130, 143, 129).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "qa", &argc, &argv, &status))
    return status;
  if (!check_options (input, output, per_group, seed, max_combinations, max_answer_rows, max_answer_bytes,
                      argc, argv))
    return GRAMMAR_EXIT_USAGE;
  {
    const char *inputs[] = { input, config_path, documents_path };

    if (!grammar_cli_check_output ("qa", output, inputs, G_N_ELEMENTS (inputs), &status))
      return status;
  }

  assembly = grammar_cli_load_assembly (config_path, &error);
  if (assembly == NULL)
    return grammar_cli_report ("qa", error);
  database = G_OBJECT (grammar_assembly_build_database (assembly, NULL, &error));
  if (database == NULL)
    return grammar_cli_report ("qa", error);
  templates = load_templates (input, GRAMMAR_DATABASE (database), &n_problems, &error);
  if (templates == NULL)
    return grammar_cli_report ("qa", error);
  /* A run that ends with exit 2 must not have replaced a finished
   * dataset with part of it: the input is checked before anything is
   * written. */
  if (n_problems > 0)
    return grammar_cli_refuse_output ("qa", output, "%u template%s of %s %s invalid (listed above)", n_problems,
                                      n_problems == 1 ? "" : "s", input, n_problems == 1 ? "is" : "are");
  if (documents_path != NULL)
    {
      documents = grammar_document_load_jsonl (documents_path, &error);
      if (documents == NULL)
        return grammar_cli_report ("qa", error);
    }

  generator = grammar_qa_generator_new (GRAMMAR_DATABASE (database));
  grammar_qa_generator_set_per_group (generator, MAX (per_group, 0));
  grammar_qa_generator_set_seed (generator, seed);
  grammar_qa_generator_set_max_combinations (generator, max_combinations);
  grammar_qa_generator_set_max_answer_rows (generator, (guint) max_answer_rows);
  grammar_qa_generator_set_max_answer_bytes (generator, (guint64) max_answer_bytes);
  grammar_qa_generator_set_documents (generator, documents);
  progress.n_templates = grammar_template_set_get_sql_templates (templates)->len;
  grammar_cli_progress_init (&progress.line, "qa", "records", quiet);
  if (progress.line.enabled)
    g_signal_connect (generator, "progress", G_CALLBACK (on_progress), &progress);

  started = g_get_monotonic_time ();
  generate.templates = templates;
  generate.output = output;
  /* SIGINT, SIGTERM or SIGHUP cancel the run: the library removes its
   * temporary file and the previous dataset stays */
  status = grammar_cli_run_until_done ("qa", G_OBJECT (generator), start_generate, &generate,
                                       (GrammarCliFinish) grammar_qa_generator_generate_to_file_finish, &error);
  grammar_cli_progress_clear (&progress.line);
  if (status != GRAMMAR_EXIT_OK)
    {
      if (error == NULL)
        {
          fprintf (stderr, "grammar qa: interrupted; %s was left as it was\n", output);
          return status;
        }
      return grammar_cli_report ("qa", error);
    }

  warnings = grammar_qa_generator_dup_warnings (generator);
  print_lines ((const char * const *) warnings);
  if (!quiet)
    print_summary (generator, output, (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC);
  left_out = grammar_qa_generator_dup_left_out (generator);
  for (guint i = 0; left_out[i] != NULL; i++)
    fprintf (stderr, "grammar qa: %s\n", left_out[i]);
  n_left_out = g_strv_length (left_out);
  /* Templates over a limit are left out and the others generated; the
   * status still tells a script that the input needs fixing. */
  if (n_left_out > 0)
    {
      fprintf (stderr, "grammar qa: %u template%s of %s left out (listed above); the others were generated\n",
               n_left_out, n_left_out == 1 ? "" : "s", input);
      return GRAMMAR_EXIT_USAGE;
    }
  return GRAMMAR_EXIT_OK;
}
