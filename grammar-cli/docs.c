/* docs.c: `grammar docs`, the document corpus made from the database
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
  char *tables;
  gboolean quiet;
} Options;

static void
options_clear (Options *options)
{
  g_free (options->config_path);
  g_free (options->output);
  g_free (options->generator);
  g_free (options->llm_section);
  g_free (options->tables);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* In the generator's worker thread. */
static void
on_progress (GrammarDocumentGenerator *generator,
             gpointer                  user_data)
{
  grammar_cli_progress_draw (user_data, grammar_document_generator_get_n_documents (generator), 0,
                             "tables done: %u", grammar_document_generator_get_n_tables (generator));
}

static void
start_generate (GObject             *generator,
                gpointer             output,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  grammar_document_generator_generate_to_file_async (GRAMMAR_DOCUMENT_GENERATOR (generator), output, cancellable,
                                                     callback, user_data);
}

static int
usage_error (const char *message)
{
  fprintf (stderr, "grammar docs: %s\nRun “grammar docs --help” for the options.\n", message);
  return GRAMMAR_EXIT_USAGE;
}

static int
check_options (Options  *options,
               int       argc,
               char    **argv)
{
  if (argc > 1)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument “%s”", argv[1]);

      return usage_error (message);
    }
  if (options->output == NULL)
    return usage_error ("no output given; pass -o documents.jsonl");
  if (options->generator == NULL)
    options->generator = g_strdup ("template");
  if (!g_str_equal (options->generator, "template") && !g_str_equal (options->generator, "llm"))
    {
      g_autofree char *message = g_strdup_printf ("unknown generator “%s”: use template or llm", options->generator);

      return usage_error (message);
    }
  if (g_str_equal (options->generator, "template") && options->llm_section != NULL)
    return usage_error ("--llm applies to --generator llm only");
  return GRAMMAR_EXIT_OK;
}

/* --tables T1,T2 replaces the tables of the [documents] section. */
static gboolean
apply_tables (GrammarDocumentGenerator  *generator,
              const char                *list,
              GError                   **error)
{
  g_auto (GStrv) names = g_strsplit (list, ",", -1);
  g_autoptr (GStrvBuilder) kept = g_strv_builder_new ();
  g_auto (GStrv) tables = NULL;
  GrammarSchema *schema = grammar_document_generator_get_schema (generator);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_strstrip (names[i]);
      if (names[i][0] == '\0')
        continue;
      if (grammar_schema_get_table (schema, names[i]) == NULL)
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "--tables: no table “%s” in the database (see `grammar schema`)", names[i]);
          return FALSE;
        }
      g_strv_builder_add (kept, names[i]);
    }
  tables = g_strv_builder_end (kept);
  if (tables[0] == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "--tables: no table given");
      return FALSE;
    }
  grammar_document_generator_set_tables (generator, (const char * const *) tables);
  return TRUE;
}

/* The generator the configuration and the options describe; @llm is
 * the language model built for --generator llm. */
static GrammarDocumentGenerator *
make_generator (Options        *options,
                GrammarAssembly *assembly,
                GObject       **llm,
                GError        **error)
{
  g_autoptr (GrammarDocumentGenerator) generator = NULL;
  const char *section;

  generator = grammar_assembly_build_document_generator (assembly, error);
  if (generator == NULL)
    return NULL;
  if (options->tables != NULL && !apply_tables (generator, options->tables, error))
    return NULL;
  if (!g_str_equal (options->generator, "llm"))
    return g_steal_pointer (&generator);

  section = options->llm_section;
  if (section == NULL)
    section = grammar_document_generator_get_llm_section (generator);
  *llm = G_OBJECT (grammar_assembly_build_llm (assembly, section, error));
  if (*llm == NULL)
    return NULL;
  grammar_document_generator_set_llm (generator, GRAMMAR_LLM (*llm));
  return g_steal_pointer (&generator);
}

static void
print_warnings (GrammarDocumentGenerator *generator)
{
  g_auto (GStrv) warnings = grammar_document_generator_dup_warnings (generator);

  for (guint i = 0; warnings[i] != NULL; i++)
    fprintf (stderr, "grammar docs: warning: %s\n", warnings[i]);
}

int
grammar_cli_docs (int    argc,
                  char **argv)
{
  g_auto (Options) options = { NULL, };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GrammarAssembly) assembly = NULL;
  g_autoptr (GrammarDocumentGenerator) generator = NULL;
  g_autoptr (GObject) llm = NULL;
  g_autoptr (GError) error = NULL;
  GrammarCliProgress progress;
  guint64 n_documents;
  guint n_tables;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &options.config_path, "The keyfile describing the components", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output, "The documents to write (JSON Lines)", "FILE" },
    { "generator", 'g', 0, G_OPTION_ARG_STRING, &options.generator,
      "template (default: render the [documents] templates) or llm (a model writes each page)", "NAME" },
    { "llm", 0, 0, G_OPTION_ARG_STRING, &options.llm_section,
      "The language model section for --generator llm (default: llm= of [documents], else llm)", "SECTION" },
    { "tables", 0, 0, G_OPTION_ARG_STRING, &options.tables,
      "Only these tables, comma-separated (default: tables= of [documents])", "T1,T2" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options.quiet, "No progress nor summary on stderr (warnings stay)", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— make the document corpus from the database");
  g_option_context_set_summary (context,
    "Writes one document per row of each chosen table as a JSON line\n"
    "{id, title, text, source: {table, key}}, the rows in primary-key order. The\n"
    "[documents] section of the keyfile chooses the tables (tables=) and how each\n"
    "reads (TABLE.title=, TABLE.text= with {Column}, {table.Column} and\n"
    "{child_table: …} fields); see doc/documents.md. With --generator llm the\n"
    "language model writes a Wikipedia-style page of 200-400 words from each row's\n"
    "facts instead.");
  g_option_context_set_description (context,
    "The output is replaced only when the run succeeds; an interrupted or failed run\n"
    "leaves the previous file as it was. A re-run with --generator llm sends no\n"
    "request whose answer is in the model's cache.\n"
    "SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the run within 2 s; a second signal\n"
    "exits at once. One process writes an output at a time: a second one on it\n"
    "stops at once (OUTPUT.lock names the first).\n"
    "Exit status: 0 success, 1 database, model or I/O failure, 2 bad usage,\n"
    "configuration or input, or an output in use; 128 + N when signal N stopped it\n"
    "(130, 143, 129).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "docs", &argc, &argv, &status))
    return status;
  status = check_options (&options, argc, argv);
  if (status != GRAMMAR_EXIT_OK)
    return status;
  {
    const char *inputs[] = { options.config_path };

    if (!grammar_cli_check_output ("docs", options.output, inputs, G_N_ELEMENTS (inputs), &status))
      return status;
  }

  assembly = grammar_cli_load_assembly (options.config_path, &error);
  if (assembly == NULL)
    return grammar_cli_report ("docs", error);
  generator = make_generator (&options, assembly, &llm, &error);
  if (generator == NULL)
    return grammar_cli_report ("docs", error);

  grammar_cli_progress_init (&progress, "docs", "documents", options.quiet);
  if (progress.enabled)
    g_signal_connect (generator, "progress", G_CALLBACK (on_progress), &progress);
  /* SIGINT, SIGTERM or SIGHUP cancel the run: the library removes its
   * temporary file and the previous corpus stays */
  status = grammar_cli_run_until_done ("docs", G_OBJECT (generator), start_generate, options.output,
                                       (GrammarCliFinish) grammar_document_generator_generate_to_file_finish,
                                       &error);
  grammar_cli_progress_end (&progress);
  if (status != GRAMMAR_EXIT_OK)
    {
      grammar_cli_print_llm_stats (llm);
      if (error == NULL)
        {
          fprintf (stderr, "grammar docs: interrupted; %s was left as it was\n", options.output);
          return status;
        }
      return grammar_cli_report ("docs", error);
    }

  print_warnings (generator);
  n_documents = grammar_document_generator_get_n_documents (generator);
  n_tables = grammar_document_generator_get_n_tables (generator);
  if (!options.quiet)
    {
      fprintf (stderr, "grammar docs: %" G_GUINT64_FORMAT " document%s from %u table%s → %s\n",
               n_documents, n_documents == 1 ? "" : "s", n_tables, n_tables == 1 ? "" : "s", options.output);
      grammar_cli_print_llm_stats (llm);
    }
  return GRAMMAR_EXIT_OK;
}
