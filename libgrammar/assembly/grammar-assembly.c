/* grammar-assembly.c: every component of a run, from one keyfile, checked before anything runs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "grammar-assembly-private.h"
#include "grammar-error.h"
#include "grammar-metric.h"
#include "grammar-plugin-info.h"
#include "grammar-registry.h"
#include "grammar-retriever.h"
#include "grammar-sql-generator.h"
#include "grammar-text-style.h"
#include "grammar-verbalizer.h"

/**
 * GrammarAssembly:
 *
 * The one place where a keyfile becomes components. It knows the role
 * of each section:
 *
 * | section           | role                                               |
 * |-------------------|----------------------------------------------------|
 * | `[database]`      | the database (every generation stage)              |
 * | `[documents]`     | the corpus templates (no plugin)                   |
 * | `[sql-generator]` | the SQL generator (default: the `schema` plugin)   |
 * | `[verbalizer]`    | the verbalizer (default: the `rules` plugin)       |
 * | `[system]`        | the system under test, and the sections it names   |
 * | `[matcher]`       | the judge's matcher (default: the `contains` plugin) |
 * | `[judge]`         | the judge's options (no plugin)                    |
 * | `[metrics]`       | the metrics to score, each a section (no plugin)   |
 * | `[llm]`           | the language model of the commands' `--generator llm` |
 * | `[run]`           | the options of #GrammarMethod (no plugin)          |
 *
 * It builds each component once (through its #GrammarConfig, which keeps
 * every built section) and hands it to #GrammarMethod and to every
 * command of `grammar`.
 *
 * Before anything runs, grammar_assembly_check() (or
 * grammar_assembly_check_run() for the whole method) reads every section
 * without building it: every key against the plugin's properties and
 * their values, every plugin name, the sections each names (and cycles
 * among them), the files that must exist, and the rules that join
 * sections (a metric that compares with the system's samples needs
 * `samples=` in the system, the keypoints metric a matcher, a language
 * model judge its `llm=`). It collects every problem, not only the first:
 * grammar_assembly_dup_problems() lists them, each as
 * `FILE: [SECTION] KEY: what is wrong and how to fix it`. Nothing is
 * opened nor asked during a check: no database, no server, no model.
 */

G_DEFINE_FINAL_TYPE (GrammarAssembly, grammar_assembly, G_TYPE_OBJECT)

/* The roles --------------------------------------------------------------- */

/* The section of each role: SECTION_DATABASE and the others, in
 * grammar-assembly-private.h. */

/* The sections each stage of #GrammarMethod reads, as its fingerprint
 * hashes them (with the sections they name). */
static const struct
{
  const char *stage;
  const char *sections[3];
} stage_sections[] = {
  { "sql-templates", { SECTION_DATABASE, SECTION_SQL_GENERATOR, NULL } },
  { "docs", { SECTION_DOCUMENTS, SECTION_DATABASE, NULL } },
  { "text-templates", { SECTION_DATABASE, SECTION_VERBALIZER, NULL } },
  { "qa", { SECTION_DATABASE, NULL } },
  { "rag", { SECTION_SYSTEM, NULL } },
  { "judge", { SECTION_JUDGE, SECTION_MATCHER, NULL } },
  { "assess", { SECTION_METRICS, NULL } },
  { "report", { NULL } },
};

/* The generators a section may leave out: the plugin used without it. */
static const struct
{
  const char *section;
  const char *plugin;
} generator_defaults[] = {
  { SECTION_SQL_GENERATOR, "schema" },
  { SECTION_VERBALIZER, "rules" },
};

#define DEFAULT_MATCHER "contains"

/* The metrics that compare a response with the system's stochastic
 * samples (their check_record() refuses a record without them). */
static const char * const sample_metrics[] = { "selfcheck", "selfcheck-ngram", NULL };

/* Path properties that name a file the component writes (a cache, an
 * index): they need not exist. Every other path must. */
static const char * const written_paths[] = { "cache", "index", NULL };

static void
grammar_assembly_finalize (GObject *object)
{
  GrammarAssembly *self = GRAMMAR_ASSEMBLY (object);

  g_clear_object (&self->config);
  g_free (self->corpus);
  g_clear_object (&self->schema);
  g_ptr_array_unref (self->problems);
  g_clear_pointer (&self->check, grammar_config_check_free);

  G_OBJECT_CLASS (grammar_assembly_parent_class)->finalize (object);
}

static void
grammar_assembly_class_init (GrammarAssemblyClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_assembly_finalize;
}

static void
grammar_assembly_init (GrammarAssembly *self)
{
  self->problems = g_ptr_array_new_with_free_func (g_free);
}

/**
 * grammar_assembly_new:
 * @config: the keyfile
 *
 * Makes the assembly of @config. Components built through it are kept
 * in @config, so that two assemblies of one configuration share them.
 *
 * Returns: (transfer full): a new #GrammarAssembly
 */
GrammarAssembly *
grammar_assembly_new (GrammarConfig *config)
{
  GrammarAssembly *self;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), NULL);

  self = g_object_new (GRAMMAR_TYPE_ASSEMBLY, NULL);
  self->config = g_object_ref (config);
  return self;
}

/**
 * grammar_assembly_new_from_file:
 * @path: (type filename): the keyfile
 * @error: return location for a #GError
 *
 * Reads the keyfile (grammar_config_new_from_file()) and makes its
 * assembly.
 *
 * Returns: (transfer full) (nullable): a new #GrammarAssembly, or %NULL
 *   with a %GRAMMAR_CONFIG_ERROR_PARSE error
 */
GrammarAssembly *
grammar_assembly_new_from_file (const char  *path,
                                GError     **error)
{
  g_autoptr (GrammarConfig) config = grammar_config_new_from_file (path, error);

  return config != NULL ? grammar_assembly_new (config) : NULL;
}

/**
 * grammar_assembly_get_config:
 * @self: a #GrammarAssembly
 *
 * Returns: (transfer none): the keyfile
 */
GrammarConfig *
grammar_assembly_get_config (GrammarAssembly *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);
  return self->config;
}

/**
 * grammar_assembly_get_section:
 * @self: a #GrammarAssembly
 * @interface_type: the interface of a role: %GRAMMAR_TYPE_DATABASE,
 *   %GRAMMAR_TYPE_SQL_GENERATOR, %GRAMMAR_TYPE_VERBALIZER,
 *   %GRAMMAR_TYPE_SYSTEM, %GRAMMAR_TYPE_MATCHER or %GRAMMAR_TYPE_LLM
 *
 * The section that describes the component of that role when nothing
 * names another, for messages.
 *
 * Returns: (nullable): the section, or %NULL for another interface
 */
const char *
grammar_assembly_get_section (GrammarAssembly *self,
                              GType            interface_type)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  if (interface_type == GRAMMAR_TYPE_DATABASE)
    return SECTION_DATABASE;
  if (interface_type == GRAMMAR_TYPE_SQL_GENERATOR)
    return SECTION_SQL_GENERATOR;
  if (interface_type == GRAMMAR_TYPE_VERBALIZER)
    return SECTION_VERBALIZER;
  if (interface_type == GRAMMAR_TYPE_SYSTEM)
    return SECTION_SYSTEM;
  if (interface_type == GRAMMAR_TYPE_MATCHER)
    return SECTION_MATCHER;
  if (interface_type == GRAMMAR_TYPE_LLM)
    return SECTION_LLM;
  return NULL;
}

/**
 * grammar_assembly_set_corpus:
 * @self: a #GrammarAssembly
 * @path: (type filename) (nullable): the corpus file a stage of the run
 *   writes, or %NULL
 *
 * Tells the assembly that the run writes its own corpus at @path (the
 * `docs` stage of #GrammarMethod): every retriever section with a
 * `documents` key gets @path as that property when it is built, and a
 * check does not ask for the file the key names. Call it before the
 * system is built.
 */
void
grammar_assembly_set_corpus (GrammarAssembly *self,
                             const char      *path)
{
  GKeyFile *key_file;
  g_auto (GStrv) groups = NULL;
  g_autoptr (GPtrArray) retrievers = NULL;
  g_auto (GValue) value = G_VALUE_INIT;

  g_return_if_fail (GRAMMAR_IS_ASSEMBLY (self));

  g_free (self->corpus);
  self->corpus = g_strdup (path);
  if (path == NULL)
    return;
  key_file = grammar_config_get_key_file (self->config);
  groups = g_key_file_get_groups (key_file, NULL);
  retrievers = grammar_registry_list_plugins (grammar_registry_get_default (), GRAMMAR_TYPE_RETRIEVER);
  g_value_init (&value, G_TYPE_STRING);
  g_value_set_string (&value, path);
  for (guint g = 0; groups[g] != NULL; g++)
    {
      g_autofree char *plugin = g_key_file_get_string (key_file, groups[g], "plugin", NULL);

      if (plugin == NULL || !g_key_file_has_key (key_file, groups[g], "documents", NULL))
        continue;
      g_strstrip (plugin);
      for (guint i = 0; i < retrievers->len; i++)
        if (g_str_equal (grammar_plugin_info_get_name (g_ptr_array_index (retrievers, i)), plugin))
          grammar_config_override_property (self->config, groups[g], "documents", &value);
    }
}

/**
 * grammar_assembly_get_corpus:
 * @self: a #GrammarAssembly
 *
 * Returns: (type filename) (nullable): the corpus of grammar_assembly_set_corpus()
 */
const char *
grammar_assembly_get_corpus (GrammarAssembly *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);
  return self->corpus;
}

/**
 * grammar_assembly_has_documents:
 * @self: a #GrammarAssembly
 *
 * Returns: whether the keyfile describes a corpus (`[documents]`)
 */
gboolean
grammar_assembly_has_documents (GrammarAssembly *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), FALSE);
  return grammar_config_has_section (self->config, SECTION_DOCUMENTS);
}

/**
 * grammar_assembly_has_metrics:
 * @self: a #GrammarAssembly
 *
 * Returns: whether the keyfile names metrics to score (`[metrics]`)
 */
gboolean
grammar_assembly_has_metrics (GrammarAssembly *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), FALSE);
  return grammar_config_has_section (self->config, SECTION_METRICS);
}

/* Checking ------------------------------------------------------------------ */

static void G_GNUC_PRINTF (4, 5)
add_problem (GrammarAssembly *self,
             const char      *section,
             const char      *key,
             const char      *format,
             ...)
{
  const char *path = grammar_config_get_path (self->config);
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (section != NULL && key != NULL)
    g_ptr_array_add (self->problems, g_strdup_printf ("%s: [%s] %s: %s", path, section, key, message));
  else if (section != NULL)
    g_ptr_array_add (self->problems, g_strdup_printf ("%s: [%s]: %s", path, section, message));
  else
    g_ptr_array_add (self->problems, g_strdup_printf ("%s: %s", path, message));
}

static const char *
plugin_of (GrammarAssembly *self,
           const char      *section)
{
  GrammarPluginInfo *info = grammar_config_check_lookup (self->check, section);

  return info != NULL ? grammar_plugin_info_get_name (info) : NULL;
}

/* The sections @section's plugin falls back on (grammar_param_spec_set_default_section())
 * for the object properties its keys leave unset, those of them the keyfile has. */
static GPtrArray *
default_sections (GrammarAssembly *self,
                  const char      *section,
                  GPtrArray      **missing)
{
  GKeyFile *key_file = grammar_config_get_key_file (self->config);
  GrammarPluginInfo *info = grammar_config_check_lookup (self->check, section);
  GPtrArray *taken = g_ptr_array_new ();
  g_autoptr (GTypeClass) klass = NULL;
  g_autofree GParamSpec **pspecs = NULL;
  guint n_pspecs;

  if (missing != NULL)
    *missing = g_ptr_array_new ();
  if (info == NULL)
    return taken;
  klass = g_type_class_ref (grammar_plugin_info_get_gtype (info));
  pspecs = g_object_class_list_properties (G_OBJECT_CLASS (klass), &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    {
      const char *fallback = grammar_param_spec_get_default_section (pspecs[i]);

      if (g_key_file_has_key (key_file, section, pspecs[i]->name, NULL))
        continue;
      if (fallback != NULL && g_key_file_has_group (key_file, fallback))
        g_ptr_array_add (taken, (gpointer) fallback);
      else if (missing != NULL && grammar_param_spec_get_required (pspecs[i]) != NULL)
        g_ptr_array_add (*missing, pspecs[i]);
    }
  return taken;
}

/* The object properties a plugin cannot do without
 * (grammar_param_spec_set_required()) that its section leaves unset,
 * with no default section to fall back on. */
static void
check_required_links (GrammarAssembly *self)
{
  GHashTableIter iter;
  gpointer section;

  g_hash_table_iter_init (&iter, self->check->plugins);
  while (g_hash_table_iter_next (&iter, &section, NULL))
    {
      g_autoptr (GPtrArray) missing = NULL;
      g_autoptr (GPtrArray) taken = default_sections (self, section, &missing);

      for (guint i = 0; i < missing->len; i++)
        {
          GParamSpec *pspec = g_ptr_array_index (missing, i);

          add_problem (self, section, pspec->name, "missing: %s", grammar_param_spec_get_required (pspec));
        }
    }
}

/* The metrics that compare with samples need a system that draws them. */
static void
check_samples (GrammarAssembly    *self,
               const char * const *metrics)
{
  GKeyFile *key_file = grammar_config_get_key_file (self->config);
  GrammarPluginInfo *system = grammar_config_check_lookup (self->check, SECTION_SYSTEM);
  g_autoptr (GTypeClass) klass = NULL;
  g_autofree char *text = NULL;
  GParamSpec *pspec;
  guint64 samples;

  if (system == NULL)
    return;
  klass = g_type_class_ref (grammar_plugin_info_get_gtype (system));
  pspec = g_object_class_find_property (G_OBJECT_CLASS (klass), "samples");
  /* a system of its own kind may give samples some other way */
  if (pspec == NULL || !G_IS_PARAM_SPEC_UINT (pspec))
    return;
  samples = G_PARAM_SPEC_UINT (pspec)->default_value;
  text = g_key_file_get_string (key_file, SECTION_SYSTEM, "samples", NULL);
  if (text != NULL && !g_ascii_string_to_unsigned (g_strstrip (text), 10, 0, G_MAXUINT, &samples, NULL))
    return;  /* told as a bad value already */
  for (guint i = 0; samples == 0 && metrics[i] != NULL; i++)
    {
      const char *plugin = plugin_of (self, metrics[i]);

      if (plugin != NULL && g_strv_contains (sample_metrics, plugin))
        add_problem (self, SECTION_SYSTEM, "samples",
                     "the metric [%s] (%s) compares the response with the system's stochastic samples: "
                     "set samples=N (such as samples=4) in [%s]", metrics[i], plugin, SECTION_SYSTEM);
    }
}

/* The file a path value names: a file: URI's path, "" for none. */
static char *
path_file (const char *path)
{
  const char *query;

  if (g_str_equal (path, ":memory:"))
    return g_strdup ("");
  if (!g_str_has_prefix (path, "file:"))
    return g_strdup (path);
  path += strlen ("file:");
  if (g_str_has_prefix (path, "//"))
    path += 2;
  query = strchr (path, '?');
  return query != NULL ? g_strndup (path, query - path) : g_strdup (path);
}

static void
check_files (GrammarAssembly *self)
{
  for (guint i = 0; i < self->check->paths->len; i++)
    {
      GrammarConfigPath *path = g_ptr_array_index (self->check->paths, i);
      GrammarPluginInfo *info = grammar_config_check_lookup (self->check, path->section);
      g_autofree char *file = NULL;

      /* a section read whole, for a path it reads */
      if (info == NULL || g_strv_contains (written_paths, path->property))
        continue;
      if (self->corpus != NULL && g_str_equal (path->property, "documents") &&
          g_type_is_a (grammar_plugin_info_get_gtype (info), GRAMMAR_TYPE_RETRIEVER))
        continue;  /* the run writes it */
      file = path_file (path->path);
      if (file[0] == '\0' || g_file_test (file, G_FILE_TEST_EXISTS))
        continue;
      if (g_str_equal (path->property, "documents"))
        add_problem (self, path->section, path->key,
                     "no file %s: write the corpus first (grammar docs, or a [%s] section so that grammar run "
                     "writes it), or fix the path", file, SECTION_DOCUMENTS);
      else
        add_problem (self, path->section, path->key, "no file %s: fix the path (relative paths start at the "
                     "keyfile's folder)", file);
    }
}

/* The metrics of [metrics]: each a section, once. */
static void
check_metrics (GrammarAssembly *self)
{
  GKeyFile *key_file = grammar_config_get_key_file (self->config);
  g_auto (GStrv) metrics = NULL;

  if (!g_key_file_has_group (key_file, SECTION_METRICS))
    return;
  grammar_config_check_keys (self->config, SECTION_METRICS, GRAMMAR_TYPE_ASSESS_RUNNER, self->check);
  metrics = g_key_file_get_string_list (key_file, SECTION_METRICS, "metrics", NULL, NULL);
  if (metrics == NULL || metrics[0] == NULL || (metrics[1] == NULL && *g_strstrip (metrics[0]) == '\0'))
    {
      add_problem (self, SECTION_METRICS, "metrics",
                   "name the sections of the metrics to run, such as metrics=faithfulness;selfcheck");
      return;
    }
  for (guint i = 0; metrics[i] != NULL; i++)
    {
      g_strstrip (metrics[i]);
      for (guint j = 0; j < i; j++)
        if (g_str_equal (metrics[i], metrics[j]))
          add_problem (self, SECTION_METRICS, "metrics", "“%s” is listed twice", metrics[i]);
      grammar_config_check_section (self->config, metrics[i], GRAMMAR_TYPE_METRIC, self->check);
    }
  check_samples (self, (const char * const *) metrics);
}

/* The sections with a plugin that no role reaches: their plugin must
 * exist and their keys be right all the same. A section without a plugin
 * is read only in one of the stage roles; any other is a misspelt one
 * ([metric] for [metrics]) whose keys would be left unread. */
static void
check_other_sections (GrammarAssembly *self)
{
  static const char * const stage_sections[] = {
    SECTION_DOCUMENTS, SECTION_JUDGE, SECTION_METRICS, SECTION_RUN, NULL
  };
  GKeyFile *key_file = grammar_config_get_key_file (self->config);
  g_auto (GStrv) groups = g_key_file_get_groups (key_file, NULL);

  for (guint g = 0; groups[g] != NULL; g++)
    {
      if (grammar_config_check_lookup (self->check, groups[g]) != NULL ||
          g_hash_table_contains (self->check->failed, groups[g]))
        continue;  /* read, or its problem told */
      if (g_key_file_has_key (key_file, groups[g], "plugin", NULL))
        grammar_config_check_section (self->config, groups[g], G_TYPE_OBJECT, self->check);
      else if (!g_strv_contains (stage_sections, groups[g]))
        add_problem (self, groups[g], NULL,
                     "nothing reads this section: a section without plugin= is one of [%s], [%s], [%s] "
                     "or [%s], and one with plugin= is a component that another section names",
                     SECTION_DOCUMENTS, SECTION_JUDGE, SECTION_METRICS, SECTION_RUN);
    }
}

static void
check_sections (GrammarAssembly *self)
{
  GKeyFile *key_file = grammar_config_get_key_file (self->config);

  g_clear_pointer (&self->check, grammar_config_check_free);
  self->check = grammar_config_check_new ();
  g_ptr_array_set_size (self->problems, 0);

  grammar_config_check_section (self->config, SECTION_DATABASE, GRAMMAR_TYPE_DATABASE, self->check);
  if (g_key_file_has_group (key_file, SECTION_SQL_GENERATOR))
    grammar_config_check_section (self->config, SECTION_SQL_GENERATOR, GRAMMAR_TYPE_SQL_GENERATOR, self->check);
  if (g_key_file_has_group (key_file, SECTION_VERBALIZER))
    grammar_config_check_section (self->config, SECTION_VERBALIZER, GRAMMAR_TYPE_VERBALIZER, self->check);
  grammar_config_check_section (self->config, SECTION_SYSTEM, GRAMMAR_TYPE_SYSTEM, self->check);
  grammar_config_check_keys (self->config, SECTION_JUDGE, GRAMMAR_TYPE_JUDGE_RUNNER, self->check);
  if (!g_key_file_has_key (key_file, SECTION_JUDGE, "matcher", NULL) &&
      g_key_file_has_group (key_file, SECTION_MATCHER))
    grammar_config_check_section (self->config, SECTION_MATCHER, GRAMMAR_TYPE_MATCHER, self->check);
  check_metrics (self);
  check_other_sections (self);
  /* the problems of the keys first, in the order found */
  for (guint i = 0; i < self->check->problems->len; i++)
    g_ptr_array_insert (self->problems, i,
                        g_strdup (((GError *) g_ptr_array_index (self->check->problems, i))->message));
  check_required_links (self);
  check_files (self);
}

/* compare= names two different styles of the run. */
static void
check_compare (GrammarAssembly    *self,
               const char * const *styles,
               const char * const *compare)
{
  const char *problem = NULL;

  if (compare == NULL)
    return;
  if (g_strv_length ((char **) compare) != 2)
    problem = "name two styles, A then B, such as compare=short;long";
  else if (g_str_equal (compare[0], compare[1]))
    problem = "the two styles must differ";
  else if (!g_strv_contains (styles, compare[0]) || !g_strv_contains (styles, compare[1]))
    problem = "both must be styles of the run";
  if (problem != NULL)
    {
      g_autofree char *list = g_strjoinv (";", (char **) styles);
      g_autofree char *written = g_strjoinv (";", (char **) compare);

      add_problem (self, SECTION_RUN, "compare", "“%s”: %s (the styles are %s)", written, problem, list);
    }
}

static void
check_styles (GrammarAssembly    *self,
              const char * const *styles,
              gboolean            styles_given,
              const char * const *compare)
{
  GKeyFile *key_file = grammar_config_get_key_file (self->config);
  g_autofree char *written = g_key_file_get_value (key_file, SECTION_RUN, "styles", NULL);

  /* An empty styles= would otherwise mean the default styles. */
  if (!styles_given && written != NULL && *g_strstrip (written) == '\0')
    {
      add_problem (self, SECTION_RUN, "styles",
                   "no style given; name them, such as styles=short;long (or leave the key out)");
      return;
    }
  for (guint i = 0; styles[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;

      if (!grammar_text_style_check (styles[i], &error))
        add_problem (self, SECTION_RUN, "styles", "%s", error->message);
      for (guint j = 0; j < i; j++)
        if (g_str_equal (styles[i], styles[j]))
          add_problem (self, SECTION_RUN, "styles", "the style %s is named twice", styles[i]);
    }
  check_compare (self, styles, compare);
}

/* The output folder: one that exists and can be written, or one that can
 * be made (its nearest existing parent can be written). */
static void
check_folder (GrammarAssembly *self,
              const char      *outdir)
{
  g_autofree char *folder = g_canonicalize_filename (outdir, NULL);

  if (g_file_test (folder, G_FILE_TEST_EXISTS) && !g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      add_problem (self, SECTION_RUN, "outdir", "%s is a file, not a folder: choose another output folder", outdir);
      return;
    }
  while (!g_file_test (folder, G_FILE_TEST_EXISTS))
    {
      char *parent = g_path_get_dirname (folder);

      g_free (folder);
      folder = parent;
    }
  if (!g_file_test (folder, G_FILE_TEST_IS_DIR) || g_access (folder, W_OK | X_OK) != 0)
    add_problem (self, SECTION_RUN, "outdir", "cannot write the output folder %s (%s is not writable): choose "
                 "another", outdir, folder);
}

static gboolean
end_check (GrammarAssembly  *self,
           GError          **error)
{
  guint n = self->problems->len;

  if (n == 0)
    return TRUE;
  if (n == 1)
    g_set_error_literal (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                         g_ptr_array_index (self->problems, 0));
  else
    {
      GString *text = g_string_new (NULL);

      g_string_append_printf (text, "%s: %u problems; nothing was run:", grammar_config_get_path (self->config), n);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (text, "\n  %s", (const char *) g_ptr_array_index (self->problems, i));
      g_set_error_literal (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, text->str);
      g_string_free (text, TRUE);
    }
  return FALSE;
}

/**
 * grammar_assembly_check:
 * @self: a #GrammarAssembly
 * @error: return location for a #GError
 *
 * Reads every section of the keyfile without building anything (see
 * #GrammarAssembly) and keeps every problem found, for
 * grammar_assembly_dup_problems().
 *
 * Returns: %TRUE when there is none; %FALSE with a %GRAMMAR_CONFIG_ERROR
 *   error that is the problem, or that lists them all
 */
gboolean
grammar_assembly_check (GrammarAssembly  *self,
                        GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  check_sections (self);
  return end_check (self, error);
}

/**
 * grammar_assembly_check_run:
 * @self: a #GrammarAssembly
 * @run_type: the type whose properties the keys of `[run]` set
 *   (%GRAMMAR_TYPE_METHOD), or %G_TYPE_INVALID to leave `[run]` out
 * @styles: (array zero-terminated=1): the text styles of the run
 * @styles_given: whether @styles were given rather than read from `[run]`
 * @compare: (nullable) (array zero-terminated=1): the two styles the
 *   report compares, or %NULL for the first two
 * @outdir: (type filename) (nullable): the output folder, or %NULL
 * @error: return location for a #GError
 *
 * grammar_assembly_check(), and the options of a whole run: the keys of
 * `[run]`, the styles (each one the verbalizer knows, none twice), the
 * two styles compared, and an output folder that can be written.
 *
 * Returns: %TRUE when there is no problem; %FALSE with @error set as for
 *   grammar_assembly_check()
 */
gboolean
grammar_assembly_check_run (GrammarAssembly     *self,
                            GType                run_type,
                            const char * const  *styles,
                            gboolean             styles_given,
                            const char * const  *compare,
                            const char          *outdir,
                            GError             **error)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), FALSE);
  g_return_val_if_fail (styles != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  check_sections (self);
  if (run_type != G_TYPE_INVALID)
    {
      guint before = self->check->problems->len;

      grammar_config_check_keys (self->config, SECTION_RUN, run_type, self->check);
      for (guint i = before; i < self->check->problems->len; i++)
        g_ptr_array_add (self->problems, g_strdup (((GError *) g_ptr_array_index (self->check->problems, i))->message));
    }
  check_styles (self, styles, styles_given, compare);
  if (outdir != NULL)
    check_folder (self, outdir);
  return end_check (self, error);
}

/**
 * grammar_assembly_dup_problems:
 * @self: a #GrammarAssembly
 *
 * The problems the last check found, in the order found, each in the
 * form `FILE: [SECTION] KEY: message`.
 *
 * Returns: (transfer full) (array zero-terminated=1): the problems, empty
 *   when there was none (or no check yet)
 */
char **
grammar_assembly_dup_problems (GrammarAssembly *self)
{
  GStrvBuilder *builder;
  char **problems;

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->problems->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->problems, i));
  problems = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return problems;
}

/* What each stage reads ------------------------------------------------------ */

/**
 * grammar_assembly_get_stage_sections:
 * @self: a #GrammarAssembly
 * @stage: a stage of #GrammarMethod (`sql-templates`, `docs`,
 *   `text-templates`, `qa`, `rag`, `judge`, `assess`, `report`)
 *
 * The sections the stage reads (each with the sections it names), as its
 * fingerprint hashes them.
 *
 * Returns: (transfer none) (array zero-terminated=1): the sections, empty
 *   for an unknown stage
 */
const char * const *
grammar_assembly_get_stage_sections (GrammarAssembly *self,
                                     const char      *stage)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);
  g_return_val_if_fail (stage != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (stage_sections); i++)
    if (g_str_equal (stage_sections[i].stage, stage))
      return stage_sections[i].sections;
  return none;
}

/* Adds @section and those its values name that the last check read, to
 * @seen in order. */
static void
collect_components (GrammarAssembly *self,
                    const char      *section,
                    GPtrArray       *seen)
{
  GKeyFile *key_file = grammar_config_get_key_file (self->config);
  g_auto (GStrv) keys = NULL;

  if (!g_key_file_has_group (key_file, section) ||
      g_ptr_array_find_with_equal_func (seen, section, g_str_equal, NULL))
    return;
  g_ptr_array_add (seen, g_strdup (section));
  keys = g_key_file_get_keys (key_file, section, NULL, NULL);
  for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
    {
      g_auto (GStrv) items = g_key_file_get_string_list (key_file, section, keys[k], NULL, NULL);

      for (guint i = 0; items != NULL && items[i] != NULL; i++)
        if (self->check != NULL && grammar_config_check_lookup (self->check, g_strstrip (items[i])) != NULL)
          collect_components (self, items[i], seen);
    }
  /* the sections its plugin takes by default */
  if (self->check != NULL)
    {
      g_autoptr (GPtrArray) taken = default_sections (self, section, NULL);

      for (guint i = 0; i < taken->len; i++)
        collect_components (self, g_ptr_array_index (taken, i), seen);
    }
}

/**
 * grammar_assembly_dup_stage_components:
 * @self: a #GrammarAssembly
 * @stage: a stage of #GrammarMethod
 *
 * The components the stage builds, each as `[SECTION] PLUGIN` (or the
 * built-in default of a section the keyfile leaves out), for people.
 * Plugins are known once a check ran.
 *
 * Returns: (transfer full) (array zero-terminated=1): the components
 */
char **
grammar_assembly_dup_stage_components (GrammarAssembly *self,
                                       const char      *stage)
{
  const char * const *sections = grammar_assembly_get_stage_sections (self, stage);
  g_autoptr (GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  GStrvBuilder *builder = g_strv_builder_new ();
  char **components;

  for (guint i = 0; sections[i] != NULL; i++)
    {
      collect_components (self, sections[i], seen);
      for (guint d = 0; d < G_N_ELEMENTS (generator_defaults); d++)
        if (g_str_equal (sections[i], generator_defaults[d].section) &&
            !grammar_config_has_section (self->config, sections[i]))
          g_ptr_array_add (seen, g_strdup_printf ("\n%s (built in)", generator_defaults[d].plugin));
      if (g_str_equal (sections[i], SECTION_MATCHER) && !grammar_config_has_section (self->config, SECTION_MATCHER) &&
          !g_key_file_has_key (grammar_config_get_key_file (self->config), SECTION_JUDGE, "matcher", NULL))
        g_ptr_array_add (seen, g_strdup ("\n" DEFAULT_MATCHER " (built in, no [" SECTION_MATCHER "])"));
    }
  for (guint i = 0; i < seen->len; i++)
    {
      const char *section = g_ptr_array_index (seen, i);
      const char *plugin = section[0] != '\n' && self->check != NULL ? plugin_of (self, section) : NULL;

      if (section[0] == '\n')
        g_strv_builder_add (builder, section + 1);
      else
        {
          g_autofree char *line = plugin != NULL ? g_strdup_printf ("[%s] %s", section, plugin)
                                                 : g_strdup_printf ("[%s]", section);

          g_strv_builder_add (builder, line);
        }
    }
  components = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return components;
}

/**
 * grammar_assembly_dup_stage_files:
 * @self: a #GrammarAssembly
 * @stage: a stage of #GrammarMethod
 *
 * The files the components of the stage read (a database script, a
 * corpus, an alias list…), as the keyfile names them; known once a check
 * ran.
 *
 * Returns: (transfer full) (array zero-terminated=1): the files
 */
char **
grammar_assembly_dup_stage_files (GrammarAssembly *self,
                                  const char      *stage)
{
  const char * const *sections = grammar_assembly_get_stage_sections (self, stage);
  g_autoptr (GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  GStrvBuilder *builder = g_strv_builder_new ();
  char **files;

  for (guint i = 0; sections[i] != NULL; i++)
    collect_components (self, sections[i], seen);
  for (guint i = 0; self->check != NULL && i < self->check->paths->len; i++)
    {
      GrammarConfigPath *path = g_ptr_array_index (self->check->paths, i);
      g_autofree char *file = NULL;

      if (!g_ptr_array_find_with_equal_func (seen, path->section, g_str_equal, NULL) ||
          g_strv_contains (written_paths, path->property))
        continue;
      file = path_file (path->path);
      if (file[0] != '\0')
        g_strv_builder_add (builder, file);
    }
  /* the corpus the run writes, for the retrievers it is given to */
  for (guint i = 0; self->corpus != NULL && self->check != NULL && i < seen->len; i++)
    {
      GrammarPluginInfo *info = grammar_config_check_lookup (self->check, g_ptr_array_index (seen, i));

      if (info != NULL && g_type_is_a (grammar_plugin_info_get_gtype (info), GRAMMAR_TYPE_RETRIEVER) &&
          g_key_file_has_key (grammar_config_get_key_file (self->config), g_ptr_array_index (seen, i), "documents",
                              NULL))
        {
          g_strv_builder_add (builder, self->corpus);
          break;
        }
    }
  files = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return files;
}

/* Building ------------------------------------------------------------------ */

/**
 * grammar_assembly_configure_run:
 * @self: a #GrammarAssembly
 * @run: the object the keys of `[run]` configure (a #GrammarMethod)
 * @error: return location for a #GError
 *
 * Sets the keys of `[run]` on @run (grammar_config_configure()).
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_assembly_configure_run (GrammarAssembly  *self,
                                GObject          *run,
                                GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), FALSE);
  g_return_val_if_fail (G_IS_OBJECT (run), FALSE);

  return grammar_config_configure (self->config, SECTION_RUN, run, error);
}

/**
 * grammar_assembly_build_database:
 * @self: a #GrammarAssembly
 * @section: (nullable): the section of the database, or %NULL for `[database]`
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the database, or %NULL with @error set
 */
GrammarDatabase *
grammar_assembly_build_database (GrammarAssembly  *self,
                                 const char       *section,
                                 GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  return GRAMMAR_DATABASE (grammar_config_build (self->config, section != NULL ? section : SECTION_DATABASE,
                                                 GRAMMAR_TYPE_DATABASE, error));
}

/**
 * grammar_assembly_get_schema:
 * @self: a #GrammarAssembly
 * @error: return location for a #GError
 *
 * The schema of the database of `[database]`, read once.
 *
 * Returns: (transfer none) (nullable): the schema, or %NULL with @error set
 */
GrammarSchema *
grammar_assembly_get_schema (GrammarAssembly  *self,
                             GError          **error)
{
  g_autoptr (GrammarDatabase) database = NULL;

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  if (self->schema != NULL)
    return self->schema;
  database = grammar_assembly_build_database (self, NULL, error);
  if (database != NULL)
    self->schema = grammar_database_get_schema (database, NULL, error);
  return self->schema;
}

/**
 * grammar_assembly_build_generator:
 * @self: a #GrammarAssembly
 * @interface_type: %GRAMMAR_TYPE_SQL_GENERATOR or %GRAMMAR_TYPE_VERBALIZER
 * @plugin: (nullable): a plugin to use instead of the keyfile's section
 *   (`--generator` of the commands), or %NULL
 * @llm_section: (nullable): the language model a @plugin that has an
 *   `llm` property gets, or %NULL for `[llm]`
 * @error: return location for a #GError
 *
 * The SQL generator or the verbalizer: the plugin @plugin when given,
 * else the keyfile's `[sql-generator]` or `[verbalizer]`, else the
 * built-in `schema` or `rules` plugin.
 *
 * Returns: (transfer full) (nullable): the generator, or %NULL with @error set
 */
GObject *
grammar_assembly_build_generator (GrammarAssembly  *self,
                                  GType             interface_type,
                                  const char       *plugin,
                                  const char       *llm_section,
                                  GError          **error)
{
  const char *section = interface_type == GRAMMAR_TYPE_SQL_GENERATOR ? SECTION_SQL_GENERATOR : SECTION_VERBALIZER;
  const char *name = plugin;
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autoptr (GTypeClass) klass = NULL;
  g_autoptr (GrammarLlm) llm = NULL;
  GType type;

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);
  g_return_val_if_fail (interface_type == GRAMMAR_TYPE_SQL_GENERATOR || interface_type == GRAMMAR_TYPE_VERBALIZER,
                        NULL);

  if (plugin == NULL && grammar_config_has_section (self->config, section))
    return grammar_config_build (self->config, section, interface_type, error);
  for (guint i = 0; name == NULL && i < G_N_ELEMENTS (generator_defaults); i++)
    if (g_str_equal (generator_defaults[i].section, section))
      name = generator_defaults[i].plugin;
  info = grammar_registry_lookup (grammar_registry_get_default (), interface_type, name, error);
  if (info == NULL)
    return NULL;
  type = grammar_plugin_info_get_gtype (info);
  klass = g_type_class_ref (type);
  if (plugin == NULL || g_object_class_find_property (G_OBJECT_CLASS (klass), "llm") == NULL)
    return g_object_new (type, NULL);
  llm = grammar_assembly_build_llm (self, llm_section, error);
  if (llm == NULL)
    return NULL;
  return g_object_new (type, "llm", llm, NULL);
}

/**
 * grammar_assembly_build_llm:
 * @self: a #GrammarAssembly
 * @section: (nullable): the section of the language model, or %NULL for `[llm]`
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the language model, or %NULL with @error set
 */
GrammarLlm *
grammar_assembly_build_llm (GrammarAssembly  *self,
                            const char       *section,
                            GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  return GRAMMAR_LLM (grammar_config_build (self->config, section != NULL ? section : SECTION_LLM, GRAMMAR_TYPE_LLM,
                                            error));
}

/**
 * grammar_assembly_build_system:
 * @self: a #GrammarAssembly
 * @section: (nullable): the section of the system under test, or %NULL
 *   for `[system]`
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the system, or %NULL with @error set
 */
GrammarSystem *
grammar_assembly_build_system (GrammarAssembly  *self,
                               const char       *section,
                               GError          **error)
{
  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  return GRAMMAR_SYSTEM (grammar_config_build (self->config, section != NULL ? section : SECTION_SYSTEM,
                                               GRAMMAR_TYPE_SYSTEM, error));
}

/* Whether the plugin of @section implements grammar_system_probe_async():
 * a system without one (the pipeline, which may need the corpus a run
 * writes) is not built to be probed. An unknown plugin counts as having
 * one, so that building it tells what is wrong. */
static gboolean
system_has_probe (GrammarAssembly  *self,
                  const char       *section,
                  char            **plugin)
{
  GKeyFile *key_file = grammar_config_get_key_file (self->config);
  g_autoptr (GrammarPluginInfo) info = NULL;
  GrammarSystemInterface *iface;
  gpointer klass;
  gboolean has_probe;

  *plugin = g_key_file_get_string (key_file, section, "plugin", NULL);
  if (*plugin != NULL)
    info = grammar_registry_lookup (grammar_registry_get_default (), GRAMMAR_TYPE_SYSTEM, g_strstrip (*plugin), NULL);
  if (info == NULL)
    return TRUE;
  klass = g_type_class_ref (grammar_plugin_info_get_gtype (info));
  iface = g_type_interface_peek (klass, GRAMMAR_TYPE_SYSTEM);
  has_probe = iface != NULL && iface->probe_async != NULL;
  g_type_class_unref (klass);
  return has_probe;
}

/**
 * grammar_assembly_probe_system:
 * @self: a #GrammarAssembly
 * @section: (nullable): the section of the system under test, or %NULL
 *   for `[system]`
 * @probed: (out) (optional): set to whether a request was sent: %FALSE
 *   for a system that calls no service (such as `pipeline`)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * What `grammar check --probe` does: builds the system under test and
 * sends it one short query with grammar_system_probe(), when its plugin
 * has a probe (a service such as `http`). A plugin without a probe is not
 * built, and the call succeeds with @probed %FALSE.
 *
 * Returns: %TRUE when the system answered or has nothing to probe;
 *   %FALSE with @error set when it could not be built (a
 *   %GRAMMAR_CONFIG_ERROR) or did not answer (the message names the
 *   service and the error)
 */
gboolean
grammar_assembly_probe_system (GrammarAssembly  *self,
                               const char       *section,
                               gboolean         *probed,
                               GCancellable     *cancellable,
                               GError          **error)
{
  g_autoptr (GrammarSystem) system = NULL;
  g_autofree char *plugin = NULL;

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (probed != NULL)
    *probed = FALSE;
  if (section == NULL)
    section = SECTION_SYSTEM;
  if (!system_has_probe (self, section, &plugin))
    return TRUE;
  system = grammar_assembly_build_system (self, section, error);
  if (system == NULL)
    return FALSE;
  if (probed != NULL)
    *probed = TRUE;
  return grammar_system_probe (system, cancellable, error);
}

/**
 * grammar_assembly_build_matcher:
 * @self: a #GrammarAssembly
 * @section: (nullable): the section of the matcher, or %NULL for
 *   `[matcher]`, or the built-in `contains` matcher without that section
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the matcher, or %NULL with @error set
 */
GrammarMatcher *
grammar_assembly_build_matcher (GrammarAssembly  *self,
                                const char       *section,
                                GError          **error)
{
  g_autoptr (GrammarPluginInfo) info = NULL;

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  if (section != NULL || grammar_config_has_section (self->config, SECTION_MATCHER))
    return GRAMMAR_MATCHER (grammar_config_build (self->config, section != NULL ? section : SECTION_MATCHER,
                                                  GRAMMAR_TYPE_MATCHER, error));
  info = grammar_registry_lookup (grammar_registry_get_default (), GRAMMAR_TYPE_MATCHER, DEFAULT_MATCHER, error);
  return info != NULL ? g_object_new (grammar_plugin_info_get_gtype (info), NULL) : NULL;
}
