/* grammar-assembly-build.c: the runners and generators of the stages, built by the assembly
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-assembly-private.h"
#include "grammar-metric.h"

/* The assembly is the composition root: it sits above the runners and
 * the generators, which know nothing of it. Their `new_from_config`
 * constructors are declared in their own headers, where their users
 * look for them, and defined here. */

/**
 * grammar_assembly_build_document_generator:
 * @self: a #GrammarAssembly
 * @error: return location for a #GError
 *
 * A document generator over the database, configured from `[documents]`
 * (grammar_document_generator_configure()).
 *
 * Returns: (transfer full) (nullable): a new generator, or %NULL with @error set
 */
GrammarDocumentGenerator *
grammar_assembly_build_document_generator (GrammarAssembly  *self,
                                           GError          **error)
{
  g_autoptr (GrammarDatabase) database = NULL;
  g_autoptr (GrammarDocumentGenerator) generator = NULL;
  GrammarSchema *schema;

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  database = grammar_assembly_build_database (self, NULL, error);
  if (database == NULL || (schema = grammar_assembly_get_schema (self, error)) == NULL)
    return NULL;
  generator = grammar_document_generator_new (database, schema);
  if (!grammar_document_generator_configure (generator, self->config, SECTION_DOCUMENTS, error))
    return NULL;
  return g_steal_pointer (&generator);
}

/**
 * grammar_assembly_build_qa_generator:
 * @self: a #GrammarAssembly
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): a new QA generator over the
 *   database of `[database]`, or %NULL with @error set
 */
GrammarQaGenerator *
grammar_assembly_build_qa_generator (GrammarAssembly  *self,
                                     GError          **error)
{
  g_autoptr (GrammarDatabase) database = grammar_assembly_build_database (self, NULL, error);

  return database != NULL ? grammar_qa_generator_new (database) : NULL;
}

/* The keys of [run] every record-by-record stage takes, as the runner's
 * properties: one setting for every stage, for `grammar run` and the
 * stage commands alike (a stage's own section and the command line win). */
static gboolean
configure_from_run (GrammarAssembly     *self,
                    GrammarStageRunner  *runner,
                    GError             **error)
{
  static const struct { const char *key; const char *property; guint64 min; } keys[] = {
    { "concurrency", "max-concurrency", 1 },
    { "max-consecutive-failures", "max-consecutive-failures", 0 },
  };
  GKeyFile *key_file = grammar_config_get_key_file (self->config);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *value = g_key_file_get_value (key_file, SECTION_RUN, keys[i].key, NULL);
      g_autoptr (GError) local_error = NULL;
      guint64 n = 0;

      if (value == NULL)
        continue;
      if (!g_ascii_string_to_unsigned (g_strstrip (value), 10, keys[i].min, G_MAXUINT, &n, &local_error))
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "%s: [%s] %s: “%s” must be a whole number, at least %" G_GUINT64_FORMAT,
                       grammar_config_get_path (self->config), SECTION_RUN, keys[i].key, value, keys[i].min);
          return FALSE;
        }
      g_object_set (runner, keys[i].property, (guint) n, NULL);
    }
  return TRUE;
}

/**
 * grammar_assembly_build_rag_runner:
 * @self: a #GrammarAssembly
 * @system_section: (nullable): the section of the system under test, or
 *   %NULL for `[system]`
 * @error: return location for a #GError
 *
 * The runner takes the keys `concurrency` and `max-consecutive-failures`
 * of `[run]` (#GrammarStageRunner:max-concurrency and
 * #GrammarStageRunner:max-consecutive-failures), as the judge and assess
 * runners do.
 *
 * Returns: (transfer full) (nullable): a new runner of the system, or
 *   %NULL with @error set
 */
GrammarRagRunner *
grammar_assembly_build_rag_runner (GrammarAssembly  *self,
                                   const char       *system_section,
                                   GError          **error)
{
  g_autoptr (GrammarSystem) system = grammar_assembly_build_system (self, system_section, error);
  g_autoptr (GrammarRagRunner) runner = NULL;

  if (system == NULL)
    return NULL;
  runner = grammar_rag_runner_new (system);
  if (!configure_from_run (self, GRAMMAR_STAGE_RUNNER (runner), error))
    return NULL;
  return g_steal_pointer (&runner);
}

/**
 * grammar_assembly_build_judge_runner:
 * @self: a #GrammarAssembly
 * @matcher_section: (nullable): the section of the matcher, or %NULL for
 *   the `matcher` key of `[judge]`, else grammar_assembly_build_matcher()
 * @error: return location for a #GError
 *
 * A judge runner whose properties are the keys of the optional `[judge]`
 * section (`matcher`, `closed-domain`, `retrieval`, `max-concurrency`;
 * any other is an error).
 *
 * Returns: (transfer full) (nullable): a new runner, or %NULL with @error set
 */
GrammarJudgeRunner *
grammar_assembly_build_judge_runner (GrammarAssembly  *self,
                                     const char       *matcher_section,
                                     GError          **error)
{
  g_autoptr (GrammarJudgeRunner) runner = NULL;
  g_autoptr (GrammarMatcher) matcher = NULL;

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  runner = g_object_new (GRAMMAR_TYPE_JUDGE_RUNNER, NULL);
  if (!configure_from_run (self, GRAMMAR_STAGE_RUNNER (runner), error) ||
      !grammar_config_configure (self->config, SECTION_JUDGE, G_OBJECT (runner), error))
    return NULL;
  if (matcher_section == NULL && grammar_judge_runner_get_matcher (runner) != NULL)
    return g_steal_pointer (&runner);
  matcher = grammar_assembly_build_matcher (self, matcher_section, error);
  if (matcher == NULL)
    return NULL;
  grammar_judge_runner_set_matcher (runner, matcher);
  return g_steal_pointer (&runner);
}

/**
 * grammar_assembly_build_assess_runner:
 * @self: a #GrammarAssembly
 * @error: return location for a #GError
 *
 * An assess runner whose properties are the keys of `[metrics]`:
 * `metrics`, the sections of the metrics separated by `;`, each built as
 * a #GrammarMetric, `max-concurrency` and `retry-failed`.
 *
 * Returns: (transfer full) (nullable): a new runner, or %NULL with @error set
 */
GrammarAssessRunner *
grammar_assembly_build_assess_runner (GrammarAssembly  *self,
                                      GError          **error)
{
  g_autoptr (GrammarAssessRunner) runner = NULL;
  g_auto (GStrv) sections = NULL;
  const char *path;

  g_return_val_if_fail (GRAMMAR_IS_ASSEMBLY (self), NULL);

  path = grammar_config_get_path (self->config);
  runner = grammar_assess_runner_new ();
  if (!configure_from_run (self, GRAMMAR_STAGE_RUNNER (runner), error) ||
      !grammar_config_configure (self->config, SECTION_METRICS, G_OBJECT (runner), error))
    return NULL;
  g_object_get (runner, "metrics", &sections, NULL);
  if (sections == NULL || sections[0] == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "%s: [%s] metrics: name the sections of the metrics to run, e.g. "
                   "metrics=faithfulness;selfcheck", path, SECTION_METRICS);
      return NULL;
    }
  for (guint i = 0; sections[i] != NULL; i++)
    {
      g_autoptr (GObject) metric = NULL;

      for (guint j = 0; j < i; j++)
        if (g_str_equal (sections[j], sections[i]))
          {
            g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                         "%s: [%s] metrics: “%s” is listed twice", path, SECTION_METRICS, sections[i]);
            return NULL;
          }
      metric = grammar_config_build (self->config, sections[i], GRAMMAR_TYPE_METRIC, error);
      if (metric == NULL)
        return NULL;
      grammar_assess_runner_add_metric (runner, sections[i], GRAMMAR_METRIC (metric));
    }
  return g_steal_pointer (&runner);
}

/* The constructors of the runners and generators ---------------------------- */

/**
 * grammar_document_generator_new_from_config:
 * @config: the configuration
 * @error: return location for a #GError
 *
 * Creates a generator as `grammar docs` and `grammar run` do, through the
 * #GrammarAssembly of @config (grammar_assembly_build_document_generator()):
 * over the database of `[database]`, configured from `[documents]`.
 *
 * Returns: (transfer full) (nullable): a new generator, or %NULL with @error set
 */
GrammarDocumentGenerator *
grammar_document_generator_new_from_config (GrammarConfig  *config,
                                            GError        **error)
{
  g_autoptr (GrammarAssembly) assembly = NULL;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  assembly = grammar_assembly_new (config);
  return grammar_assembly_build_document_generator (assembly, error);
}

/**
 * grammar_qa_generator_new_from_config:
 * @config: the configuration
 * @error: return location for a #GError
 *
 * Creates a generator over the database of `[database]`, as `grammar qa`
 * and `grammar run` do, through the #GrammarAssembly of @config
 * (grammar_assembly_build_qa_generator()).
 *
 * Returns: (transfer full) (nullable): a new generator, or %NULL with @error set
 */
GrammarQaGenerator *
grammar_qa_generator_new_from_config (GrammarConfig  *config,
                                      GError        **error)
{
  g_autoptr (GrammarAssembly) assembly = NULL;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  assembly = grammar_assembly_new (config);
  return grammar_assembly_build_qa_generator (assembly, error);
}

/**
 * grammar_rag_runner_new_from_config:
 * @config: the configuration
 * @system_section: (nullable): the section of the system under test, or
 *   %NULL for `[system]`
 * @error: return location for a #GError
 *
 * Creates a runner as `grammar rag` and `grammar run` do, through the
 * #GrammarAssembly of @config (grammar_assembly_build_rag_runner()).
 *
 * Returns: (transfer full) (nullable): a new #GrammarRagRunner, or %NULL
 *   with a %GRAMMAR_CONFIG_ERROR error naming the file, section and key
 */
GrammarRagRunner *
grammar_rag_runner_new_from_config (GrammarConfig  *config,
                                    const char     *system_section,
                                    GError        **error)
{
  g_autoptr (GrammarAssembly) assembly = NULL;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  assembly = grammar_assembly_new (config);
  return grammar_assembly_build_rag_runner (assembly, system_section, error);
}

/**
 * grammar_judge_runner_new_from_config:
 * @config: the configuration
 * @matcher_section: (nullable): the section of the matcher, or %NULL for
 *   the `matcher` key of `[judge]`, or else `[matcher]`, or else the
 *   built-in `contains` matcher
 * @error: return location for a #GError
 *
 * Creates a runner as `grammar judge` and `grammar run` do, through the
 * #GrammarAssembly of @config (grammar_assembly_build_judge_runner()):
 * the keys of the optional `[judge]` section are the runner's properties
 * (`matcher`, `closed-domain`, `retrieval`, `max-concurrency`); any other
 * key of `[judge]` is an error.
 *
 * Returns: (transfer full) (nullable): a new #GrammarJudgeRunner, or %NULL
 *   with a %GRAMMAR_CONFIG_ERROR error naming the file, section and key
 */
GrammarJudgeRunner *
grammar_judge_runner_new_from_config (GrammarConfig  *config,
                                      const char     *matcher_section,
                                      GError        **error)
{
  g_autoptr (GrammarAssembly) assembly = NULL;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  assembly = grammar_assembly_new (config);
  return grammar_assembly_build_judge_runner (assembly, matcher_section, error);
}

/**
 * grammar_assess_runner_new_from_config:
 * @config: the configuration
 * @error: return location for a #GError
 *
 * Creates a runner as `grammar assess` and `grammar run` do, through the
 * #GrammarAssembly of @config (grammar_assembly_build_assess_runner()):
 * the keys of the `[metrics]` section are the runner's properties
 * (`metrics`, the sections of the metrics separated by `;`, each built
 * as a #GrammarMetric, `max-concurrency` and `retry-failed`).
 *
 * Returns: (transfer full) (nullable): a new #GrammarAssessRunner, or
 *   %NULL with a %GRAMMAR_CONFIG_ERROR error naming the file, section
 *   and key
 */
GrammarAssessRunner *
grammar_assess_runner_new_from_config (GrammarConfig  *config,
                                       GError        **error)
{
  g_autoptr (GrammarAssembly) assembly = NULL;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  assembly = grammar_assembly_new (config);
  return grammar_assembly_build_assess_runner (assembly, error);
}
