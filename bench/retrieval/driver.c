/* driver.c: times a retriever plugin on a corpus and a list of queries
 *
 *   driver --plugin NAME --documents FILE [--queries FILE]... [--index FILE]
 *          [--top-k 10] [--set KEY=VALUE]... [--out PREFIX]
 *
 * Builds a `[retriever]` section with GrammarConfig (plugin=NAME,
 * documents=FILE, index=FILE when given, one line a --set), which loads
 * the corpus and indexes it; then, for each --queries FILE in turn,
 * retrieves every query of the file (one a line) with
 * grammar_retriever_retrieve() and writes each query's hits as a line
 * `ID<TAB>SCORE<TAB>ID<TAB>SCORE…` (scores with 17 digits, so that equal
 * lines mean equal doubles; an empty line when there is none) to PREFIX.N
 * (N = 0, 1… in --queries order). Prints one JSON line:
 *   {"load_seconds", "build_seconds", "rebuilt", "engine",
 *    "sets": [{"queries", "query_seconds", "queries_per_second", "hits"}…]}
 * load_seconds times grammar_document_load_jsonl() alone; build_seconds
 * the whole set-up (loading again and indexing). Built and run by
 * bench/retrieval/run against the build tree.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include <grammar.h>

static char *plugin = NULL;
static char *documents = NULL;
static char **queries_paths = NULL;
static char *index_path = NULL;
static char *out_path = NULL;
static int top_k = 10;
static char **settings = NULL;

static const GOptionEntry entries[] = {
  { "plugin", 0, 0, G_OPTION_ARG_STRING, &plugin, "The retriever plugin", "NAME" },
  { "documents", 0, 0, G_OPTION_ARG_FILENAME, &documents, "The corpus (documents.jsonl)", "FILE" },
  { "queries", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &queries_paths, "Queries, one a line (repeatable)", "FILE" },
  { "index", 0, 0, G_OPTION_ARG_FILENAME, &index_path, "The index= setting (bm25)", "FILE" },
  { "top-k", 0, 0, G_OPTION_ARG_INT, &top_k, "Hits per query (default 10)", "K" },
  { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &settings, "Another KEY=VALUE line of the section", "KEY=VALUE" },
  { "out", 0, 0, G_OPTION_ARG_FILENAME, &out_path, "Where the first hits go (PREFIX.N)", "PREFIX" },
  { NULL }
};

static void
die (const char *what,
     GError     *error)
{
  g_printerr ("driver: %s: %s\n", what, error->message);
  exit (1);
}

static GrammarRetriever *
build (double *seconds)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) keyfile = g_string_new ("[retriever]\n");
  g_autoptr (GrammarConfig) config = NULL;
  gint64 start;
  GObject *retriever;

  g_string_append_printf (keyfile, "plugin=%s\ndocuments=%s\n", plugin, documents);
  if (index_path != NULL)
    g_string_append_printf (keyfile, "index=%s\n", index_path);
  for (guint i = 0; settings != NULL && settings[i] != NULL; i++)
    g_string_append_printf (keyfile, "%s\n", settings[i]);
  config = grammar_config_new_from_data (keyfile->str, -1, NULL, &error);
  if (config == NULL)
    die ("config", error);

  start = g_get_monotonic_time ();
  retriever = grammar_config_build (config, "retriever", GRAMMAR_TYPE_RETRIEVER, &error);
  *seconds = (g_get_monotonic_time () - start) / 1e6;
  if (retriever == NULL)
    die ("build", error);
  return GRAMMAR_RETRIEVER (retriever);
}

/* Runs the queries of @path; appends their JSON object to @json. */
static void
run_queries (GrammarRetriever *retriever,
             const char       *path,
             guint             set,
             GString          *json)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto (GStrv) queries = NULL;
  g_autoptr (GString) firsts = g_string_new (NULL);
  guint n_queries = 0, n_hits = 0;
  double seconds;
  gint64 start;

  if (!g_file_get_contents (path, &contents, NULL, &error))
    die ("queries", error);
  queries = g_strsplit (contents, "\n", -1);

  start = g_get_monotonic_time ();
  for (guint i = 0; queries[i] != NULL; i++)
    {
      g_autoptr (GPtrArray) hits = NULL;

      if (queries[i][0] == '\0' && queries[i + 1] == NULL)
        break;  /* the file's last newline */
      hits = grammar_retriever_retrieve (retriever, queries[i], top_k, NULL, &error);
      if (hits == NULL)
        die ("retrieve", error);
      n_queries++;
      n_hits += hits->len;
      for (guint h = 0; h < hits->len; h++)
        g_string_append_printf (firsts, "%s%s\t%.17g", h > 0 ? "\t" : "",
                                grammar_hit_get_document_id (g_ptr_array_index (hits, h)),
                                grammar_hit_get_score (g_ptr_array_index (hits, h)));
      g_string_append_c (firsts, '\n');
    }
  seconds = (g_get_monotonic_time () - start) / 1e6;

  if (out_path != NULL)
    {
      g_autofree char *out = g_strdup_printf ("%s.%u", out_path, set);

      if (!g_file_set_contents (out, firsts->str, firsts->len, &error))
        die ("out", error);
    }
  g_string_append_printf (json, "%s{\"queries\": %u, \"query_seconds\": %.4f, \"queries_per_second\": %.1f, "
                          "\"hits\": %u}", set > 0 ? ", " : "", n_queries, seconds,
                          seconds > 0 ? n_queries / seconds : 0.0, n_hits);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("- time a retriever");
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarRetriever) retriever = NULL;
  g_autoptr (GPtrArray) loaded = NULL;
  g_autoptr (GString) sets = g_string_new (NULL);
  double load_seconds, build_seconds;
  gboolean rebuilt = TRUE;
  g_autofree char *engine = NULL;
  gint64 start;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    die ("options", error);
  if (plugin == NULL || documents == NULL)
    {
      g_printerr ("driver: --plugin and --documents are required\n");
      return 2;
    }

  start = g_get_monotonic_time ();
  loaded = grammar_document_load_jsonl (documents, &error);
  load_seconds = (g_get_monotonic_time () - start) / 1e6;
  if (loaded == NULL)
    die ("documents", error);
  g_clear_pointer (&loaded, g_ptr_array_unref);

  retriever = build (&build_seconds);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (retriever), "rebuilt") != NULL)
    g_object_get (retriever, "rebuilt", &rebuilt, NULL);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (retriever), "engine-in-use") != NULL)
    g_object_get (retriever, "engine-in-use", &engine, NULL);

  for (guint i = 0; queries_paths != NULL && queries_paths[i] != NULL; i++)
    run_queries (retriever, queries_paths[i], i, sets);

  printf ("{\"load_seconds\": %.3f, \"build_seconds\": %.3f, \"rebuilt\": %s, \"engine\": \"%s\", "
          "\"sets\": [%s]}\n",
          load_seconds, build_seconds, rebuilt ? "true" : "false", engine != NULL ? engine : "", sets->str);
  return 0;
}
