/* test-config.c: keyfile configuration, property conversion and the registry
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <glib/gstdio.h>

#include <grammar.h>

#include "grammar-test-probe.h"
#include "grammar-test-util.h"

/* A stage-like object: plain read-write properties, set after construction */

#define TEST_TYPE_STAGE (test_stage_get_type ())
G_DECLARE_FINAL_TYPE (TestStage, test_stage, TEST, STAGE, GObject)

struct _TestStage
{
  GObject parent_instance;
  int count;
  char *file;
  GrammarMatcher *matcher;
};

enum { STAGE_PROP_0, STAGE_PROP_COUNT, STAGE_PROP_FILE, STAGE_PROP_MATCHER, STAGE_PROP_FIXED, N_STAGE_PROPS };

G_DEFINE_FINAL_TYPE (TestStage, test_stage, G_TYPE_OBJECT)

static void
test_stage_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  TestStage *self = TEST_STAGE (object);

  switch (id)
    {
    case STAGE_PROP_COUNT: self->count = g_value_get_int (value); break;
    case STAGE_PROP_FILE: g_free (self->file); self->file = g_value_dup_string (value); break;
    case STAGE_PROP_MATCHER: g_set_object (&self->matcher, g_value_get_object (value)); break;
    case STAGE_PROP_FIXED: break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
test_stage_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
}

static void
test_stage_finalize (GObject *object)
{
  TestStage *self = TEST_STAGE (object);

  g_free (self->file);
  g_clear_object (&self->matcher);
  G_OBJECT_CLASS (test_stage_parent_class)->finalize (object);
}

static void
test_stage_class_init (TestStageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS;
  GParamSpec *props[N_STAGE_PROPS] = { NULL, };

  object_class->set_property = test_stage_set_property;
  object_class->get_property = test_stage_get_property;
  object_class->finalize = test_stage_finalize;
  props[STAGE_PROP_COUNT] = g_param_spec_int ("count", NULL, "An int", 1, 100, 1, flags);
  props[STAGE_PROP_FILE] = g_param_spec_string ("file", NULL, "A path", NULL, flags | GRAMMAR_PARAM_PATH);
  props[STAGE_PROP_MATCHER] = g_param_spec_object ("matcher", NULL, "A matcher", GRAMMAR_TYPE_MATCHER, flags);
  props[STAGE_PROP_FIXED] = g_param_spec_int ("fixed", NULL, "Construct-only", 0, 1, 0,
                                              flags | G_PARAM_CONSTRUCT_ONLY);
  g_object_class_install_properties (object_class, N_STAGE_PROPS, props);
}

static void
test_stage_init (TestStage *self)
{
  self->count = 1;
}

/* Helpers ------------------------------------------------------------------ */

static char *tmpdir;

static GrammarConfig *
config_from_text (const char *name,
                  const char *text)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr (GError) error = NULL;
  GrammarConfig *config;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  config = grammar_config_new_from_file (path, &error);
  g_assert_no_error (error);
  return config;
}

/* Builds @section of @text and asserts the error's code and that its
 * message contains every one of the NULL-terminated fragments. */
static void
assert_build_error (const char *text,
                    const char *section,
                    GType       interface_type,
                    int         code,
                    ...)
{
  g_autoptr (GrammarConfig) config = config_from_text ("error.ini", text);
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) object = NULL;
  const char *fragment;
  va_list args;

  object = grammar_config_build (config, section, interface_type, &error);
  g_assert_null (object);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, code);
  g_assert_true (grammar_error_is_input_error (error));

  va_start (args, code);
  while ((fragment = va_arg (args, const char *)) != NULL)
    if (strstr (error->message, fragment) == NULL)
      g_error ("message “%s” lacks “%s”", error->message, fragment);
  va_end (args);
}

/* Tests -------------------------------------------------------------------- */

static void
test_parse_error (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "broken.ini", NULL);
  g_autofree char *missing = g_build_filename (tmpdir, "nowhere.ini", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = NULL;

  g_assert_true (g_file_set_contents (path, "[database\nplugin=sqlite\n", -1, NULL));
  config = grammar_config_new_from_file (path, &error);
  g_assert_null (config);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  config = grammar_config_new_from_file (missing, &error);
  g_assert_null (config);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "nowhere.ini"));
}

static void
test_missing_section (void)
{
  assert_build_error ("[other]\nplugin=probe\n", "matcher", GRAMMAR_TYPE_MATCHER,
                      GRAMMAR_CONFIG_ERROR_MISSING_SECTION, "error.ini", "no section [matcher]", NULL);
  assert_build_error ("[matcher]\nplugin=probe\nnext=elsewhere\n", "matcher", GRAMMAR_TYPE_MATCHER,
                      GRAMMAR_CONFIG_ERROR_MISSING_SECTION, "[matcher] next:", "no section [elsewhere]", NULL);
}

static void
test_missing_plugin (void)
{
  assert_build_error ("[matcher]\nlabel=x\n", "matcher", GRAMMAR_TYPE_MATCHER,
                      GRAMMAR_CONFIG_ERROR_MISSING_PLUGIN, "[matcher] plugin:", "probe", NULL);
}

static void
test_unknown_plugin (void)
{
  assert_build_error ("[matcher]\nplugin=prob\n", "matcher", GRAMMAR_TYPE_MATCHER,
                      GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN, "error.ini: [matcher] plugin:",
                      "unknown matcher plugin “prob”", "available: ", ", probe (plugin folders", NULL);
}

static void
test_unknown_key (void)
{
  assert_build_error ("[matcher]\nplugin=probe\nlabell=x\n", "matcher", GRAMMAR_TYPE_MATCHER,
                      GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY, "error.ini: [matcher] labell:",
                      "label", "count", "ratio", "names", NULL);
}

static void
test_bad_values (void)
{
  static const struct { const char *line; const char *key; const char *fragment; } cases[] = {
    { "count=many", "count", "“many” is not a whole number from -5 to 100" },
    { "count=101", "count", "from -5 to 100" },
    { "count=3.5", "count", "not a whole number" },
    { "big=-1", "big", "not a whole number" },
    { "ratio=abc", "ratio", "“abc” is not a number" },
    { "ratio=1.5", "ratio", "from 0 to 1" },
    { "ratio=nan", "ratio", "not a number" },
    { "strict=maybe", "strict", "“maybe” is not a boolean" },
    { "kind=sometimes", "kind", "unmeasured, correct, incorrect" },
    { "copy-flags=overwrite|sideways", "copy-flags", "“sideways” is not one of" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("[matcher]\nplugin=probe\n%s\n", cases[i].line);
      g_autofree char *where = g_strdup_printf ("[matcher] %s:", cases[i].key);

      assert_build_error (text, "matcher", GRAMMAR_TYPE_MATCHER, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                          where, cases[i].fragment, NULL);
    }
}

static void
test_conversion (void)
{
  g_autoptr (GrammarConfig) config = config_from_text ("ok.ini",
    "[matcher]\n"
    "plugin = probe\n"
    "label=O'Brien said \"hi\"\\n\n"
    "file=data/x.db\n"
    "count=-5\n"
    "big=18446744073709551615\n"
    "ratio=0.25\n"
    "strict=yes\n"
    "kind=incorrect\n"
    "copy-flags=overwrite|backup\n"
    "names=alpha; beta ;gamma\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) object = grammar_config_build (config, "matcher", GRAMMAR_TYPE_MATCHER, &error);
  g_autofree char *expected_file = g_build_filename (tmpdir, "data", "x.db", NULL);
  GrammarTestProbe *probe;

  g_assert_no_error (error);
  probe = GRAMMAR_TEST_PROBE (object);
  g_assert_cmpstr (probe->label, ==, "O'Brien said \"hi\"\n");
  g_assert_cmpstr (probe->file, ==, expected_file);
  g_assert_cmpint (probe->count, ==, -5);
  g_assert_cmpuint (probe->big, ==, G_MAXUINT64);
  g_assert_cmpfloat (probe->ratio, ==, 0.25);
  g_assert_true (probe->strict);
  g_assert_cmpint (probe->kind, ==, GRAMMAR_VERDICT_INCORRECT);
  g_assert_cmpint (probe->copy_flags, ==, G_FILE_COPY_OVERWRITE | G_FILE_COPY_BACKUP);
  g_assert_cmpstrv (probe->names, ((const char *[]) { "alpha", "beta", "gamma", NULL }));
}

static void
test_paths (void)
{
  g_autoptr (GrammarConfig) config = config_from_text ("paths.ini", "[x]\nplugin=probe\n");
  g_autofree char *home = g_build_filename (g_get_home_dir (), "cache", "llm.sqlite", NULL);
  g_autofree char *relative = g_build_filename (tmpdir, "a.db", NULL);
  g_autofree char *up = NULL;
  g_autofree char *uri = g_strconcat ("file:", tmpdir, "/a.db?mode=ro", NULL);
  g_autofree char *parent = g_path_get_dirname (tmpdir);
  char *resolved;

  up = g_build_filename (parent, "b.db", NULL);
#define CHECK(in, out) resolved = grammar_config_resolve_path (config, in); g_assert_cmpstr (resolved, ==, out); g_free (resolved)
  CHECK ("a.db", relative);
  CHECK ("./a.db", relative);
  CHECK ("../b.db", up);
  CHECK ("/abs/c.db", "/abs/c.db");
  CHECK ("~/cache/llm.sqlite", home);
  CHECK ("file:a.db?mode=ro", uri);
  CHECK ("file:/abs/c.db", "file:/abs/c.db");
  CHECK ("file:///abs/c.db", "file:///abs/c.db");
  CHECK (":memory:", ":memory:");
  CHECK ("", "");
#undef CHECK
  g_assert_cmpstr (grammar_config_get_base_dir (config), ==, tmpdir);
}

static void
test_references (void)
{
  g_autoptr (GrammarConfig) config = config_from_text ("refs.ini",
    "[first]\nplugin=probe\nnext=shared\n"
    "[second]\nplugin=probe\nnext=shared\n"
    "[shared]\nplugin=probe\nlabel=one\n"
    "[lonely]\nplugin=probe\nnext=\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) first = grammar_config_build (config, "first", GRAMMAR_TYPE_MATCHER, &error);
  g_autoptr (GObject) second = NULL;
  g_autoptr (GObject) shared = NULL;
  g_autoptr (GObject) lonely = NULL;
  g_autoptr (GObject) again = NULL;

  g_assert_no_error (error);
  second = grammar_config_build (config, "second", GRAMMAR_TYPE_MATCHER, &error);
  g_assert_no_error (error);
  shared = grammar_config_build (config, "shared", G_TYPE_INVALID, &error);
  g_assert_no_error (error);
  g_assert_true ((GObject *) GRAMMAR_TEST_PROBE (first)->next == shared);
  g_assert_true ((GObject *) GRAMMAR_TEST_PROBE (second)->next == shared);
  g_assert_cmpstr (GRAMMAR_TEST_PROBE (shared)->label, ==, "one");

  again = grammar_config_build (config, "first", GRAMMAR_TYPE_MATCHER, &error);
  g_assert_no_error (error);
  g_assert_true (again == first);

  lonely = grammar_config_build (config, "lonely", GRAMMAR_TYPE_MATCHER, &error);
  g_assert_no_error (error);
  g_assert_null (GRAMMAR_TEST_PROBE (lonely)->next);
}

/* A section without plugin= configures an existing object: its keys are
 * the object's writable properties, converted as for plugins. */
static void
test_configure (void)
{
  g_autoptr (GrammarConfig) config = config_from_text ("stage.ini",
    "[stage]\ncount=7\nfile=out/x.jsonl\nmatcher=m\n"
    "[m]\nplugin=probe\nlabel=shared\n"
    "[bad-value]\ncount=0\n"
    "[unknown]\ncount=2\ncolour=red\n"
    "[fixed]\nfixed=1\n");
  g_autoptr (TestStage) stage = g_object_new (TEST_TYPE_STAGE, NULL);
  g_autoptr (TestStage) other = g_object_new (TEST_TYPE_STAGE, NULL);
  g_autoptr (GObject) matcher = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *expected_file = g_build_filename (tmpdir, "out", "x.jsonl", NULL);

  g_assert_true (grammar_config_configure (config, "stage", G_OBJECT (stage), &error));
  g_assert_no_error (error);
  g_assert_cmpint (stage->count, ==, 7);
  g_assert_cmpstr (stage->file, ==, expected_file);
  matcher = grammar_config_build (config, "m", GRAMMAR_TYPE_MATCHER, &error);
  g_assert_no_error (error);
  g_assert_true (G_OBJECT (stage->matcher) == matcher);

  /* a missing section sets nothing */
  g_assert_true (grammar_config_configure (config, "absent", G_OBJECT (other), &error));
  g_assert_cmpint (other->count, ==, 1);

  g_assert_false (grammar_config_configure (config, "bad-value", G_OBJECT (other), &error));
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  grammar_test_assert_contains (error->message, "stage.ini: [bad-value] count: ");
  g_clear_error (&error);

  g_assert_false (grammar_config_configure (config, "unknown", G_OBJECT (other), &error));
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY);
  grammar_test_assert_contains (error->message, "stage.ini: [unknown] colour: unknown key; "
                                                "the keys of this section are count, file and matcher");
  g_clear_error (&error);

  /* construct-only properties cannot be set on an object that exists */
  g_assert_false (grammar_config_configure (config, "fixed", G_OBJECT (other), &error));
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY);
}

static void
test_cycle (void)
{
  assert_build_error ("[a]\nplugin=probe\nnext=b\n[b]\nplugin=probe\nnext=c\n[c]\nplugin=probe\nnext=a\n",
                      "a", GRAMMAR_TYPE_MATCHER, GRAMMAR_CONFIG_ERROR_CYCLE,
                      "[c] next:", "[a] → [b] → [c] → [a]", NULL);
  assert_build_error ("[a]\nplugin=probe\nnext=a\n", "a", GRAMMAR_TYPE_MATCHER, GRAMMAR_CONFIG_ERROR_CYCLE,
                      "[a] next:", "[a] → [a]", NULL);
}

static void
test_wrong_interface (void)
{
  /* "llm" wants a language model; [other] is a matcher. */
  assert_build_error ("[a]\nplugin=probe\nllm=other\n[other]\nplugin=probe\n", "a", GRAMMAR_TYPE_MATCHER,
                      GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN, "[other] plugin:", "unknown llm plugin “probe”", NULL);
  /* Built already as a matcher, then asked for as a database. */
  {
    g_autoptr (GrammarConfig) config = config_from_text ("wrong.ini", "[m]\nplugin=probe\n");
    g_autoptr (GError) error = NULL;
    g_autoptr (GObject) m = grammar_config_build (config, "m", GRAMMAR_TYPE_MATCHER, &error);
    g_autoptr (GObject) db = NULL;

    g_assert_no_error (error);
    db = grammar_config_build (config, "m", GRAMMAR_TYPE_DATABASE, &error);
    g_assert_null (db);
    g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_WRONG_INTERFACE);
  }
}

static void
test_from_data (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data ("[m]\nplugin=probe\nfile=z\n", -1, "/srv", &error);
  g_autoptr (GObject) m = NULL;

  g_assert_no_error (error);
  m = grammar_config_build (config, "m", GRAMMAR_TYPE_MATCHER, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (GRAMMAR_TEST_PROBE (m)->file, ==, "/srv/z");
  g_assert_true (grammar_config_has_section (config, "m"));
  g_assert_false (grammar_config_has_section (config, "n"));

  g_clear_object (&config);
  config = grammar_config_new_from_data ("no group here\n", -1, NULL, &error);
  g_assert_null (config);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "<keyfile>"));
}

static void
test_registry (void)
{
  GrammarRegistry *registry = grammar_registry_get_default ();
  g_autoptr (GPtrArray) matchers = grammar_registry_list_plugins (registry, GRAMMAR_TYPE_MATCHER);
  g_autoptr (GPtrArray) all = grammar_registry_list_plugins (registry, G_TYPE_INVALID);
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree GParamSpec **specs = NULL;
  const char * const *path = grammar_registry_get_search_path (registry);
  const char *env_path = g_getenv ("GRAMMAR_PLUGIN_PATH");
  guint n_specs = 0, n_interfaces = 0;
  const GType *interfaces = grammar_registry_get_interfaces (&n_interfaces);

  g_assert_cmpuint (n_interfaces, ==, 8);
  for (guint i = 0; i < n_interfaces; i++)
    g_assert_true (grammar_registry_interface_from_name (grammar_registry_interface_name (interfaces[i])) == interfaces[i]);
  g_assert_true (grammar_registry_interface_from_name ("nothing") == G_TYPE_INVALID);

  /* the test's own probe, among the matchers the plugin folders bring */
  for (guint i = 0; i < matchers->len && info == NULL; i++)
    if (g_str_equal (grammar_plugin_info_get_name (g_ptr_array_index (matchers, i)), "probe"))
      info = g_object_ref (g_ptr_array_index (matchers, i));
  g_assert_nonnull (info);
  g_assert_cmpstr (grammar_plugin_info_get_name (info), ==, "probe");
  g_assert_cmpstr (grammar_plugin_info_get_interface_name (info), ==, "matcher");
  g_assert_cmpstr (grammar_plugin_info_get_description (info), ==, "Test component with every property kind");
  specs = grammar_plugin_info_list_properties (info, &n_specs);
  g_assert_cmpuint (n_specs, ==, GRAMMAR_TEST_PROBE_N_PROPERTIES);
  g_assert_cmpstr (specs[0]->name, ==, "label");

  /* The in-tree SQLite module is found through GRAMMAR_PLUGIN_PATH. */
  g_clear_object (&info);
  info = grammar_registry_lookup (registry, GRAMMAR_TYPE_DATABASE, "sqlite", &error);
  g_assert_no_error (error);
  g_assert_true (g_type_is_a (grammar_plugin_info_get_gtype (info), GRAMMAR_TYPE_DATABASE));
  g_assert_cmpuint (all->len, >=, 2);

  g_clear_object (&info);
  info = grammar_registry_lookup (registry, GRAMMAR_TYPE_DATABASE, "oracle", &error);
  g_assert_null (info);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN);
  /* Server plugins are listed too when they are built. */
  g_assert_nonnull (strstr (error->message, "available: "));
  g_assert_nonnull (strstr (error->message, " sqlite"));

  /* Search path: every GRAMMAR_PLUGIN_PATH folder, then the installed one. */
  g_assert_nonnull (env_path);
  {
    g_auto (GStrv) folders = g_strsplit (env_path, ":", -1);
    guint n = g_strv_length ((GStrv) path);

    g_assert_cmpuint (n, ==, g_strv_length (folders) + 1);
    for (guint i = 0; folders[i] != NULL; i++)
      g_assert_cmpstr (path[i], ==, folders[i]);
    g_assert_true (g_str_has_suffix (path[n - 1], "/grammar-1/plugins"));
  }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  grammar_test_probe_register ();
  tmpdir = g_dir_make_tmp ("grammar-config-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/config/parse-error", test_parse_error);
  g_test_add_func ("/config/missing-section", test_missing_section);
  g_test_add_func ("/config/missing-plugin", test_missing_plugin);
  g_test_add_func ("/config/unknown-plugin", test_unknown_plugin);
  g_test_add_func ("/config/unknown-key", test_unknown_key);
  g_test_add_func ("/config/bad-values", test_bad_values);
  g_test_add_func ("/config/conversion", test_conversion);
  g_test_add_func ("/config/paths", test_paths);
  g_test_add_func ("/config/references", test_references);
  g_test_add_func ("/config/cycle", test_cycle);
  g_test_add_func ("/config/configure", test_configure);
  g_test_add_func ("/config/wrong-interface", test_wrong_interface);
  g_test_add_func ("/config/from-data", test_from_data);
  g_test_add_func ("/registry/plugins", test_registry);

  status = g_test_run ();

  {
    g_autoptr (GFile) dir = g_file_new_for_path (tmpdir);
    g_autoptr (GFileEnumerator) children = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                                                      G_FILE_QUERY_INFO_NONE, NULL, NULL);
    GFileInfo *child;

    while (children != NULL && (child = g_file_enumerator_next_file (children, NULL, NULL)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmpdir, g_file_info_get_name (child), NULL);

        g_unlink (path);
        g_object_unref (child);
      }
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }
  return status;
}
