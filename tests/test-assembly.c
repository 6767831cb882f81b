/* test-assembly.c: GrammarAssembly, its check of a whole keyfile and its problem list
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmpdir;

/* A user's database: quoted, mixed-case names with spaces. */
static const char fixture_sql[] =
  "CREATE TABLE \"Branch\" (\"BranchId\" INTEGER PRIMARY KEY, \"Branch Name\" TEXT NOT NULL);\n"
  "CREATE TABLE \"Book\" (\"BookId\" INTEGER PRIMARY KEY, \"Title\" TEXT NOT NULL,\n"
  "  \"BranchId\" INTEGER REFERENCES \"Branch\" (\"BranchId\"));\n"
  "INSERT INTO \"Branch\" VALUES (1, 'Harbour Street'), (2, 'Old Town');\n"
  "INSERT INTO \"Book\" VALUES (1, 'Kidnapped', 1), (2, 'Waverley', 2);\n";

/* The keyfile of a user: their own section names, comments. */
static const char good_ini[] =
  "# the catalogue of our library\n"
  "[database]\n"
  "plugin=sqlite\n"
  "script=library.sql\n"
  "\n"
  "[system]\n"
  "plugin=pipeline\n"
  "retriever=kb_search\n"
  "generator=answerer\n"
  "samples=2\n"
  "\n"
  "# keyword search over the corpus `grammar docs` wrote\n"
  "[kb_search]\n"
  "plugin=keyword\n"
  "documents=corpus.jsonl\n"
  "top-k=2\n"
  "\n"
  "[answerer]\n"
  "plugin=extractive\n"
  "\n"
  "[matcher]\n"
  "plugin=contains\n"
  "\n"
  "[metrics]\n"
  "metrics=spread\n"
  "\n"
  "[spread]\n"
  "plugin=selfcheck-ngram\n";

static GrammarAssembly *
assembly_for (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (text, -1, tmpdir, &error);

  g_assert_no_error (error);
  return grammar_assembly_new (config);
}

static char *
replace (const char *text,
         const char *old,
         const char *new)
{
  g_auto (GStrv) parts = g_strsplit (text, old, 2);

  g_assert_nonnull (parts[1]);
  return g_strconcat (parts[0], new, parts[1], NULL);
}

static void
test_good (void)
{
  g_autoptr (GrammarAssembly) assembly = assembly_for (good_ini);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  g_auto (GStrv) components = NULL;
  g_auto (GStrv) files = NULL;
  g_autofree char *joined = NULL;

  g_assert_true (grammar_assembly_check (assembly, &error));
  g_assert_no_error (error);
  problems = grammar_assembly_dup_problems (assembly);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);

  components = grammar_assembly_dup_stage_components (assembly, "rag");
  joined = g_strjoinv ("|", components);
  g_assert_cmpstr (joined, ==, "[system] pipeline|[kb_search] keyword|[answerer] extractive");
  files = grammar_assembly_dup_stage_files (assembly, "rag");
  g_assert_cmpuint (g_strv_length (files), ==, 1);
  g_assert_true (g_str_has_suffix (files[0], "/corpus.jsonl"));
  g_assert_cmpstr (grammar_assembly_get_stage_sections (assembly, "judge")[1], ==, "matcher");
  g_assert_cmpstr (grammar_assembly_get_section (assembly, GRAMMAR_TYPE_DATABASE), ==, "database");

  /* the runners and generators built from the configuration go through it,
   * and share its components */
  {
    GrammarConfig *config = grammar_assembly_get_config (assembly);
    g_autoptr (GrammarQaGenerator) qa = grammar_qa_generator_new_from_config (config, &error);
    g_autoptr (GrammarDocumentGenerator) documents = NULL;
    g_autoptr (GrammarRagRunner) rag = NULL;
    g_autoptr (GrammarJudgeRunner) judge = NULL;
    g_autoptr (GrammarAssessRunner) assess = NULL;
    g_autoptr (GrammarDatabase) database = NULL;

    g_assert_no_error (error);
    database = grammar_assembly_build_database (assembly, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (grammar_qa_generator_get_database (qa) == database);
    documents = grammar_document_generator_new_from_config (config, &error);
    g_assert_no_error (error);
    rag = grammar_rag_runner_new_from_config (config, NULL, &error);
    g_assert_no_error (error);
    judge = grammar_judge_runner_new_from_config (config, NULL, &error);
    g_assert_no_error (error);
    assess = grammar_assess_runner_new_from_config (config, &error);
    g_assert_no_error (error);
    g_assert_nonnull (documents);
    g_assert_nonnull (rag);
    g_assert_nonnull (judge);
    g_assert_nonnull (assess);
  }
}

/* Every problem of the keyfile, not only the first, each naming its place. */
static void
test_problems (void)
{
  g_autofree char *a = replace (good_ini, "plugin=contains", "plugin=containz");
  g_autofree char *b = replace (a, "top-k=2", "topk=1");
  g_autofree char *c = replace (b, "generator=answerer", "generator=nosuch");
  g_autofree char *d = replace (c, "documents=corpus.jsonl", "documents=missing.jsonl");
  g_autofree char *e = replace (d, "samples=2", "samples=0");
  g_autofree char *text = g_strconcat (e, "[judge]\nretrieval=sometimes\nshout=yes\n", NULL);
  g_autoptr (GrammarAssembly) assembly = assembly_for (text);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  g_autofree char *all = NULL;

  g_assert_false (grammar_assembly_check (assembly, &error));
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  problems = grammar_assembly_dup_problems (assembly);
  all = g_strjoinv ("\n", problems);
  g_test_message ("%s", all);
  g_assert_cmpuint (g_strv_length (problems), ==, 7);
  grammar_test_assert_contains (all, "<keyfile>: [matcher] plugin: unknown matcher plugin “containz”");
  grammar_test_assert_contains (all, "<keyfile>: [kb_search] topk: unknown key for retriever plugin “keyword”");
  grammar_test_assert_contains (all, "<keyfile>: [system] generator: there is no section [nosuch]");
  grammar_test_assert_contains (all, "<keyfile>: [kb_search] documents: no file ");
  grammar_test_assert_contains (all, "<keyfile>: [system] samples: the metric [spread] (selfcheck-ngram)");
  grammar_test_assert_contains (all, "<keyfile>: [judge] retrieval: ");
  grammar_test_assert_contains (all, "<keyfile>: [judge] shout: unknown key");
  /* the error lists them all */
  for (guint i = 0; problems[i] != NULL; i++)
    grammar_test_assert_contains (error->message, problems[i]);
  grammar_test_assert_contains (error->message, "7 problems");
}

/* The corpus a stage of the run writes needs not exist yet. */
static void
test_corpus (void)
{
  g_autofree char *text = replace (good_ini, "documents=corpus.jsonl", "documents=later.jsonl");
  g_autoptr (GrammarAssembly) assembly = assembly_for (text);
  g_autofree char *corpus = g_build_filename (tmpdir, "out", "documents.jsonl", NULL);
  g_auto (GStrv) files = NULL;

  g_assert_false (grammar_assembly_check (assembly, NULL));
  grammar_assembly_set_corpus (assembly, corpus);
  g_assert_true (grammar_assembly_check (assembly, NULL));
  files = grammar_assembly_dup_stage_files (assembly, "rag");
  g_assert_cmpuint (g_strv_length (files), ==, 1);
  g_assert_cmpstr (files[0], ==, corpus);
}

/* The rules that join sections, and a cycle among them. */
static void
test_joins (void)
{
  static const struct
  {
    const char *old, *new, *problem;
  } cases[] = {
    { "[matcher]\nplugin=contains\n", "[matcher]\nplugin=llm-judge\n", "[matcher] llm: missing: name the section" },
    { "plugin=selfcheck-ngram\n", "plugin=rageval-keypoints\n", "[spread] matcher: missing: verdicts=grounded needs" },
    { "generator=answerer", "generator=system", "sections refer to each other in a cycle: [system] → [system]" },
    { "generator=answerer", "generator=kb_search", "[system] generator: section [kb_search] is a " },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = replace (good_ini, cases[i].old, cases[i].new);
      g_autofree char *without_matcher = NULL;
      g_autoptr (GrammarAssembly) assembly = NULL;
      g_autoptr (GError) error = NULL;

      /* keypoints takes [matcher] by default: without it, it has none */
      if (g_str_equal (cases[i].new, "plugin=rageval-keypoints\n"))
        {
          without_matcher = replace (text, "[matcher]\nplugin=contains\n", "");
          g_free (text);
          text = g_steal_pointer (&without_matcher);
        }
      assembly = assembly_for (text);
      g_assert_false (grammar_assembly_check (assembly, &error));
      grammar_test_assert_contains (error->message, cases[i].problem);
    }
}

/* A misspelt stage section is told, not left unread: [metric] for
 * [metrics] would run no metric at all. A section that another names,
 * or whose own problem is told already, is not told again. */
static void
test_stray_sections (void)
{
  g_autofree char *a = g_strconcat (good_ini, "[metric]\nmetrics=spread\n[Judge]\nlimit=3\n", NULL);
  g_autofree char *text = replace (a, "retriever=kb_search", "retriever=unplugged");
  g_autofree char *with_section = g_strconcat (text, "[unplugged]\ntop-k=2\n", NULL);
  g_autoptr (GrammarAssembly) assembly = assembly_for (with_section);
  g_autoptr (GrammarAssembly) good = assembly_for (good_ini);
  g_auto (GStrv) problems = NULL;
  g_autofree char *all = NULL;

  g_assert_true (grammar_assembly_check (good, NULL));
  g_assert_false (grammar_assembly_check (assembly, NULL));
  problems = grammar_assembly_dup_problems (assembly);
  all = g_strjoinv ("\n", problems);
  g_test_message ("%s", all);
  grammar_test_assert_contains (all, "<keyfile>: [metric]: nothing reads this section");
  grammar_test_assert_contains (all, "<keyfile>: [Judge]: nothing reads this section");
  grammar_test_assert_contains (all, "<keyfile>: [unplugged] plugin: missing");
  g_assert_null (strstr (all, "[unplugged]: nothing reads"));
  g_assert_null (strstr (all, "[kb_search]: nothing reads"));
}

/* The whole run: styles, compare, [run] keys, the output folder. */
static void
test_run_options (void)
{
  g_autofree char *text = g_strconcat (good_ini, "[run]\nper-group=-2\nstyle=short\n", NULL);
  g_autoptr (GrammarAssembly) assembly = assembly_for (text);
  const char *styles[] = { "short", "bogus", "short", NULL };
  const char *compare[] = { "short", "long", NULL };
  g_autofree char *file = grammar_test_write_file (tmpdir, "a-file", "");
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;

  g_assert_false (grammar_assembly_check_run (assembly, GRAMMAR_TYPE_METHOD, styles, TRUE, compare, file, &error));
  problems = grammar_assembly_dup_problems (assembly);
  g_assert_cmpuint (g_strv_length (problems), ==, 6);
  grammar_test_assert_contains (error->message, "[run] per-group: “-2” is not a whole number");
  grammar_test_assert_contains (error->message, "[run] style: unknown key");
  grammar_test_assert_contains (error->message, "[run] styles: ");
  grammar_test_assert_contains (error->message, "the style short is named twice");
  grammar_test_assert_contains (error->message, "[run] compare: “short;long”: both must be styles of the run");
  grammar_test_assert_contains (error->message, "is a file, not a folder");
}

/* A check opens nothing: a database server that does not answer is not
 * asked, and it takes well under a second. */
static void
test_cheap (void)
{
  g_autoptr (GrammarPluginInfo) postgres =
    grammar_registry_lookup (grammar_registry_get_default (), GRAMMAR_TYPE_DATABASE, "postgres", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GrammarAssembly) assembly = NULL;
  g_autoptr (GError) error = NULL;
  gint64 started;

  if (postgres == NULL)
    {
      g_test_skip ("the postgres plugin is not built");
      return;
    }
  text = replace (good_ini, "plugin=sqlite\nscript=library.sql\n",
                  "plugin=postgres\nhost=192.0.2.1\nport=5432\ndatabase=library\nuser=reader\n");
  assembly = assembly_for (text);
  started = g_get_monotonic_time ();
  g_assert_true (grammar_assembly_check (assembly, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_get_monotonic_time () - started, <, G_USEC_PER_SEC / 2);
}

/* grammar_assembly_probe_system(): a pipeline is not built nor asked; an
 * http service on a port nobody listens to does not answer, and the
 * message names its address without the password. */
static void
test_probe (void)
{
  g_autoptr (GrammarAssembly) pipeline = assembly_for (good_ini);
  g_autoptr (GrammarAssembly) down = NULL;
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *system = NULL;
  g_autofree char *text = NULL;
  gboolean probed = TRUE;
  guint port;

  g_assert_true (grammar_assembly_probe_system (pipeline, NULL, &probed, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (probed);

  /* a port that was free a moment ago, closed again */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  system = g_strdup_printf ("[system]\nplugin=http\nurl=http://hr-bot:s3cret@127.0.0.1:%u/v1/ask\n"
                            "answer-pointer=/data/answer\nretrieved-pointer=\n", port);
  text = replace (good_ini, "[system]\nplugin=pipeline\nretriever=kb_search\ngenerator=answerer\nsamples=2\n", system);
  down = assembly_for (text);
  g_assert_false (grammar_assembly_probe_system (down, NULL, &probed, NULL, &error));
  g_assert_true (probed);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_UNAVAILABLE);
  grammar_test_assert_contains (error->message, "127.0.0.1");
  g_assert_null (strstr (error->message, "s3cret"));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *sql = NULL;
  g_autofree char *corpus = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("grammar-assembly-XXXXXX");
  sql = grammar_test_write_file (tmpdir, "library.sql", fixture_sql);
  corpus = grammar_test_write_file (tmpdir, "corpus.jsonl", "");

  g_test_add_func ("/assembly/good", test_good);
  g_test_add_func ("/assembly/problems", test_problems);
  g_test_add_func ("/assembly/corpus", test_corpus);
  g_test_add_func ("/assembly/joins", test_joins);
  g_test_add_func ("/assembly/stray-sections", test_stray_sections);
  g_test_add_func ("/assembly/run-options", test_run_options);
  g_test_add_func ("/assembly/cheap", test_cheap);
  g_test_add_func ("/assembly/probe", test_probe);
  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
