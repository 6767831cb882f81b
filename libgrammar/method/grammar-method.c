/* grammar-method.c: the whole GRAMMAR method as one object
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "grammar-json-private.h"
#include "grammar-method-private.h"
#include "grammar-comparison.h"
#include "grammar-database.h"
#include "grammar-document-generator.h"
#include "grammar-document.h"
#include "grammar-error.h"
#include "grammar-evaluation.h"
#include "grammar-judge-runner.h"
#include "grammar-manifest-private.h"
#include "grammar-matcher.h"
#include "grammar-method.h"
#include "grammar-plugin-info.h"
#include "grammar-qa-generator.h"
#include "grammar-rag-runner.h"
#include "grammar-registry.h"
#include "grammar-report.h"
#include "grammar-retriever.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-schema-generator.h"
#include "grammar-schema.h"
#include "grammar-sync-private.h"
#include "grammar-system.h"
#include "grammar-template-set.h"

/**
 * GrammarMethod:
 *
 * The whole GRAMMAR method, from a database to a report, as one object:
 * the `grammar run` command is a thin shell over it, and a program using
 * the library (from C, or from Python through GObject Introspection) runs
 * the method the same way.
 *
 * It builds its components once, through the #GrammarAssembly of one
 * parsed #GrammarConfig (grammar_method_get_assembly()), checks the whole
 * keyfile before the first stage (grammar_method_check(): every problem
 * at once, nothing written), and runs the stages in order, keeping each
 * stage's file in #GrammarMethod:outdir:
 *
 * | stage            | file                         | from the keyfile             |
 * |------------------|------------------------------|------------------------------|
 * | `sql-templates`  | `sql-templates.json`         | `[database]`                 |
 * | `docs`           | `documents.jsonl`            | `[documents]` (when present) |
 * | `text-templates` | `STYLE.text-templates.json`  | `[database]`                 |
 * | `qa`             | `STYLE.dataset.jsonl`        | `[database]`                 |
 * | `rag`            | `STYLE.results.jsonl`        | `[system]`                   |
 * | `judge`          | `STYLE.judged.jsonl`         | `[judge]`, `[matcher]`       |
 * | `assess`         | `STYLE.assessed.jsonl`       | `[metrics]` (when present)   |
 * | `report`         | `report.{txt,json,md,html}`  |                              |
 *
 * The corpus the `docs` stage writes is given to every retriever section
 * that has a `documents` key, as the value of that property
 * (grammar_assembly_set_corpus()). Without a `[matcher]` section the judge
 * uses the `contains` matcher (grammar_assembly_build_matcher()). The
 * options of the `qa` stage (`per-group`, `seed`, `max-answer-rows`,
 * `max-answer-bytes`) are the #GrammarQaGenerator properties of the same
 * names, handed over by name. The `[run]`
 * section sets the method's properties (`styles`, `compare`,
 * `per-template`, `per-group`, `seed`, `max-answer-rows`,
 * `max-answer-bytes`, `concurrency`, `max-consecutive-failures`); the report shows every style and compares the two
 * of `compare`, by default the first two.
 *
 * The output folder keeps a manifest (`manifest.json`) with a fingerprint
 * of each stage's configuration and inputs: the keyfile sections the stage
 * reads (with the sections they name, and the contents of the files they
 * name), its parameters, and the fingerprints of the stages it reads from.
 * A stage whose fingerprint is unchanged keeps its file; one whose
 * fingerprint changed is made again, and so is everything downstream of it,
 * since their fingerprints include its own. The `rag` and `judge` stages
 * resume a file whose fingerprint is unchanged (they skip the ids already
 * written). #GrammarMethod::stage-started says, for every stage, which of
 * these happens.
 */

enum {
  PROP_0,
  PROP_CONFIG,
  PROP_OUTDIR,
  PROP_STYLES,
  PROP_COMPARE,
  PROP_PER_TEMPLATE,
  PROP_PER_GROUP,
  PROP_SEED,
  PROP_MAX_ANSWER_ROWS,
  PROP_MAX_ANSWER_BYTES,
  PROP_CONCURRENCY,
  PROP_MAX_CONSECUTIVE_FAILURES,
  PROP_FORCE,
  PROP_RETRY_FAILED,
  N_PROPS
};

enum {
  SIGNAL_STAGE_STARTED,
  SIGNAL_STAGE_FINISHED,
  SIGNAL_PROGRESS,
  SIGNAL_WARNING,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (GrammarMethod, grammar_method, G_TYPE_OBJECT)

static const char * const default_styles[] = { "short", "long", NULL };

/* The stages ----------------------------------------------------------------- */

/* Properties -------------------------------------------------------------- */

static void
grammar_method_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GrammarMethod *self = GRAMMAR_METHOD (object);

  switch (prop_id)
    {
    case PROP_CONFIG:
      g_value_set_object (value, self->config);
      break;
    case PROP_OUTDIR:
      g_value_set_string (value, self->outdir);
      break;
    case PROP_STYLES:
      g_value_set_boxed (value, grammar_method_get_styles (self));
      break;
    case PROP_COMPARE:
      g_value_set_boxed (value, self->compare);
      break;
    case PROP_PER_TEMPLATE:
      g_value_set_uint (value, self->per_template);
      break;
    case PROP_PER_GROUP:
      g_value_set_uint (value, self->per_group);
      break;
    case PROP_SEED:
      g_value_set_uint64 (value, self->seed);
      break;
    case PROP_MAX_ANSWER_ROWS:
      g_value_set_uint (value, self->max_answer_rows);
      break;
    case PROP_MAX_ANSWER_BYTES:
      g_value_set_uint64 (value, self->max_answer_bytes);
      break;
    case PROP_RETRY_FAILED:
      g_value_set_boolean (value, self->retry_failed);
      break;
    case PROP_CONCURRENCY:
      g_value_set_uint (value, self->concurrency);
      break;
    case PROP_MAX_CONSECUTIVE_FAILURES:
      g_value_set_uint (value, self->max_consecutive_failures);
      break;
    case PROP_FORCE:
      g_value_set_boolean (value, self->force);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_method_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GrammarMethod *self = GRAMMAR_METHOD (object);

  switch (prop_id)
    {
    case PROP_CONFIG:
      self->config = g_value_dup_object (value);
      if (self->config != NULL)
        self->assembly = grammar_assembly_new (self->config);
      break;
    case PROP_OUTDIR:
      grammar_method_set_outdir (self, g_value_get_string (value));
      break;
    case PROP_STYLES:
      grammar_method_set_styles (self, g_value_get_boxed (value));
      break;
    case PROP_COMPARE:
      grammar_method_set_compare (self, g_value_get_boxed (value));
      break;
    case PROP_PER_TEMPLATE:
      grammar_method_set_per_template (self, g_value_get_uint (value));
      break;
    case PROP_PER_GROUP:
      grammar_method_set_per_group (self, g_value_get_uint (value));
      break;
    case PROP_SEED:
      grammar_method_set_seed (self, g_value_get_uint64 (value));
      break;
    case PROP_MAX_ANSWER_ROWS:
      if (self->max_answer_rows != g_value_get_uint (value))
        {
          self->max_answer_rows = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_MAX_ANSWER_BYTES:
      if (self->max_answer_bytes != g_value_get_uint64 (value))
        {
          self->max_answer_bytes = g_value_get_uint64 (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_RETRY_FAILED:
      grammar_method_set_retry_failed (self, g_value_get_boolean (value));
      break;
    case PROP_CONCURRENCY:
      grammar_method_set_concurrency (self, g_value_get_uint (value));
      break;
    case PROP_MAX_CONSECUTIVE_FAILURES:
      grammar_method_set_max_consecutive_failures (self, g_value_get_uint (value));
      break;
    case PROP_FORCE:
      grammar_method_set_force (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_method_finalize (GObject *object)
{
  GrammarMethod *self = GRAMMAR_METHOD (object);

  g_clear_object (&self->config);
  g_clear_object (&self->assembly);
  g_free (self->outdir);
  g_strfreev (self->styles);
  g_strfreev (self->compare);
  g_clear_pointer (&self->report, json_node_unref);
  g_clear_object (&self->database);
  g_clear_object (&self->schema);
  g_clear_object (&self->system);
  g_clear_object (&self->judge_runner);
  g_clear_object (&self->assess_runner);
  g_clear_object (&self->sql_generator);
  g_clear_object (&self->verbalizer);
  g_hash_table_unref (self->file_hashes);

  G_OBJECT_CLASS (grammar_method_parent_class)->finalize (object);
}

static void
grammar_method_class_init (GrammarMethodClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = grammar_method_get_property;
  object_class->set_property = grammar_method_set_property;
  object_class->finalize = grammar_method_finalize;

  /**
   * GrammarMethod:config:
   *
   * The keyfile every component is built from.
   */
  properties[PROP_CONFIG] =
    g_param_spec_object ("config", NULL, "The keyfile every component is built from", GRAMMAR_TYPE_CONFIG,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GrammarMethod:outdir:
   *
   * The folder that keeps every stage's file and the manifest; made when
   * missing. In `[run]`, relative to the keyfile's folder.
   */
  properties[PROP_OUTDIR] =
    g_param_spec_string ("outdir", NULL, "The folder of every stage's file (default: grammar-run)",
                         "grammar-run", flags | GRAMMAR_PARAM_PATH);
  /**
   * GrammarMethod:styles:
   *
   * The text styles to generate and run; the report has a row for each,
   * and compares the two of #GrammarMethod:compare. Default: short and
   * long.
   */
  properties[PROP_STYLES] =
    g_param_spec_boxed ("styles", NULL, "The text styles; the report shows each (default: short;long)",
                        G_TYPE_STRV, flags);
  /**
   * GrammarMethod:compare:
   *
   * The two styles (of #GrammarMethod:styles) whose comparison the report
   * concludes on, A then B; %NULL for the first two styles. Whatever it
   * is, the report also compares the first style with each other one.
   */
  properties[PROP_COMPARE] =
    g_param_spec_boxed ("compare", NULL, "The two styles the report compares, A;B (default: the first two styles)",
                        G_TYPE_STRV, flags);
  /**
   * GrammarMethod:per-template:
   *
   * Text templates per SQL template and style.
   */
  properties[PROP_PER_TEMPLATE] =
    g_param_spec_uint ("per-template", NULL, "Text templates per SQL template and style", 1, G_MAXUINT,
                       GRAMMAR_METHOD_DEFAULT_PER_TEMPLATE, flags);
  /**
   * GrammarMethod:per-group:
   *
   * Text queries kept per semantic group and style, sampled with
   * #GrammarMethod:seed; 0 keeps them all.
   */
  properties[PROP_PER_GROUP] =
    g_param_spec_uint ("per-group", NULL, "Text queries per group and style, sampled (0: all)", 0, G_MAXUINT, 0,
                       flags);
  /**
   * GrammarMethod:seed:
   *
   * The seed of the per-group sampling.
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, "The seed of the per-group sampling", 0, G_MAXUINT64, 0, flags);
  /**
   * GrammarMethod:max-answer-rows:
   *
   * #GrammarQaGenerator:max-answer-rows of the `qa` stage. A template
   * that exceeds it (or max-answer-bytes, or the database's
   * `query-timeout`) is left out of the dataset with a warning, and the
   * run goes on.
   */
  properties[PROP_MAX_ANSWER_ROWS] =
    g_param_spec_uint ("max-answer-rows", NULL, "The most rows an answer of the dataset may have (0: no limit)",
                       0, G_MAXUINT, GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_ROWS, flags);
  /**
   * GrammarMethod:max-answer-bytes:
   *
   * #GrammarQaGenerator:max-answer-bytes of the `qa` stage.
   */
  properties[PROP_MAX_ANSWER_BYTES] =
    g_param_spec_uint64 ("max-answer-bytes", NULL,
                         "The most bytes of values an answer of the dataset may have (0: no limit)",
                         0, G_MAXUINT64, GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_BYTES, flags);
  /**
   * GrammarMethod:concurrency:
   *
   * How many records the `rag`, `judge` and `assess` stages process at
   * once (#GrammarStageRunner:max-concurrency), and so how many requests
   * they send at once to the system under test and to the language
   * models. A `max-concurrency` key of `[judge]` or `[metrics]` wins for
   * its stage; a plugin's own `max-concurrency`, when set lower, caps it
   * (the stage warns which cap wins).
   */
  properties[PROP_CONCURRENCY] =
    g_param_spec_uint ("concurrency", NULL, "Records processed at once by rag, judge and assess", 1, G_MAXUINT,
                       GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONCURRENCY, flags);
  grammar_param_spec_set_value_hint (properties[PROP_CONCURRENCY], "must be a whole number, at least 1");
  /**
   * GrammarMethod:max-consecutive-failures:
   *
   * #GrammarStageRunner:max-consecutive-failures of the `rag`, `judge`
   * and `assess` stages: the run stops after this many records in a row
   * failed because the service is unavailable; 0 never stops.
   */
  properties[PROP_MAX_CONSECUTIVE_FAILURES] =
    g_param_spec_uint ("max-consecutive-failures", NULL,
                       "Stop a stage after N records in a row failed because the service is unavailable; 0: never",
                       0, G_MAXUINT, GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONSECUTIVE_FAILURES, flags);
  /**
   * GrammarMethod:force:
   *
   * Make every stage's file again, whatever the manifest says.
   */
  properties[PROP_FORCE] =
    g_param_spec_boolean ("force", NULL, "Make every stage's file again", FALSE, flags);
  /**
   * GrammarMethod:retry-failed:
   *
   * Ask the system again the queries that failed in an earlier run
   * (#GrammarRagRunner:retry-failed), and judge and assess again the
   * records whose query had failed (#GrammarJudgeRunner:retry-failed,
   * #GrammarAssessRunner:retry-failed, which also scores again the
   * records where a metric failed). The stages are resumed as usual, so
   * only those records are asked again.
   */
  properties[PROP_RETRY_FAILED] =
    g_param_spec_boolean ("retry-failed", NULL, "Ask the failed queries (and metrics) of an earlier run again",
                          FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GrammarMethod::stage-started:
   * @self: the method
   * @stage: the stage: `sql-templates`, `docs`, `text-templates`, `qa`,
   *   `rag`, `judge` or `report`
   * @style: (nullable): the text style, for the stages run once per style
   * @path: the stage's file
   * @reason: why the stage runs or not: `new` (no file yet), `changed` (its
   *   configuration or inputs changed since the file was made), `forced`
   *   (#GrammarMethod:force), `resumed` (rag and judge: the file is
   *   continued), `incomplete` (an earlier run stopped during this stage)
   *   or `kept` (the file is up to date and is not made again)
   *
   * Emitted when a stage starts, or is found up to date.
   */
  signals[SIGNAL_STAGE_STARTED] =
    g_signal_new ("stage-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * GrammarMethod::stage-finished:
   * @self: the method
   * @stage: the stage, as for #GrammarMethod::stage-started
   * @style: (nullable): the text style, for the stages run once per style
   * @path: the stage's file
   * @summary: what the stage did, in a sentence (counts, the file)
   *
   * Emitted when a stage succeeded, or was kept.
   */
  signals[SIGNAL_STAGE_FINISHED] =
    g_signal_new ("stage-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * GrammarMethod::progress:
   * @self: the method
   * @stage: the stage running (`docs`, `qa`, `rag`, `judge` or `assess`)
   * @done: records done in this run, including those skipped (for
   *   `docs`, the documents written; for `qa`, the records written)
   * @total: records of the input, or 0 when it is not known in advance
   *   (`docs` and `qa`)
   *
   * Emitted as the long stages advance, at most a few times a second.
   * The per-record stages emit it in the thread that runs the method;
   * `docs` and `qa` in the worker thread that writes their file, before
   * their #GrammarMethod::stage-finished.
   */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_UINT64);
  /**
   * GrammarMethod::warning:
   * @self: the method
   * @stage: the stage that warns
   * @message: the warning
   *
   * Emitted for what a stage left out or could not do without failing
   * (templates dropped, records that failed…).
   */
  signals[SIGNAL_WARNING] =
    g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
grammar_method_init (GrammarMethod *self)
{
  self->outdir = g_strdup ("grammar-run");
  self->per_template = GRAMMAR_METHOD_DEFAULT_PER_TEMPLATE;
  self->concurrency = GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONCURRENCY;
  self->max_consecutive_failures = GRAMMAR_STAGE_RUNNER_DEFAULT_MAX_CONSECUTIVE_FAILURES;
  self->max_answer_rows = GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_ROWS;
  self->max_answer_bytes = GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_BYTES;
  self->file_hashes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/**
 * grammar_method_new:
 * @config: the keyfile
 * @error: return location for a #GError
 *
 * Makes the method for @config, with the properties its `[run]` section
 * sets (`styles`, `compare`, `per-template`, `per-group`, `seed`, `max-answer-rows`,
 * `max-answer-bytes`, `concurrency`, `max-consecutive-failures`, `outdir`). Set
 * properties afterwards to override them.
 *
 * Returns: (transfer full) (nullable): the method, or %NULL with @error set
 *   when `[run]` has an unknown key or a bad value
 */
GrammarMethod *
grammar_method_new (GrammarConfig  *config,
                    GError        **error)
{
  g_autoptr (GrammarMethod) self = NULL;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_METHOD, "config", config, NULL);
  if (!grammar_assembly_configure_run (self->assembly, G_OBJECT (self), error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * grammar_method_get_config:
 * @self: a #GrammarMethod
 *
 * Returns: (transfer none): the keyfile the components come from
 */
GrammarConfig *
grammar_method_get_config (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);

  return self->config;
}

/**
 * grammar_method_get_outdir:
 * @self: a #GrammarMethod
 *
 * Returns: (type filename): the output folder
 */
const char *
grammar_method_get_outdir (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);

  return self->outdir;
}

/**
 * grammar_method_set_outdir:
 * @self: a #GrammarMethod
 * @outdir: (type filename): the output folder
 *
 * Sets #GrammarMethod:outdir.
 */
void
grammar_method_set_outdir (GrammarMethod *self,
                           const char    *outdir)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));
  g_return_if_fail (outdir != NULL && outdir[0] != '\0');

  if (g_strcmp0 (self->outdir, outdir) == 0)
    return;
  g_free (self->outdir);
  self->outdir = g_strdup (outdir);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OUTDIR]);
}

/**
 * grammar_method_get_styles:
 * @self: a #GrammarMethod
 *
 * Returns: (transfer none) (array zero-terminated=1): the text styles
 */
const char * const *
grammar_method_get_styles (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);

  return self->styles != NULL ? (const char * const *) self->styles : default_styles;
}

/**
 * grammar_method_set_styles:
 * @self: a #GrammarMethod
 * @styles: (nullable) (array zero-terminated=1): the text styles, or %NULL
 *   for the default (short and long)
 *
 * Sets #GrammarMethod:styles.
 */
void
grammar_method_set_styles (GrammarMethod      *self,
                           const char * const *styles)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));

  g_strfreev (self->styles);
  self->styles = styles != NULL && styles[0] != NULL ? g_strdupv ((char **) styles) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STYLES]);
}

/**
 * grammar_method_get_compare:
 * @self: a #GrammarMethod
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the two
 *   styles the report compares, or %NULL for the first two styles
 */
const char * const *
grammar_method_get_compare (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);

  return (const char * const *) self->compare;
}

/**
 * grammar_method_set_compare:
 * @self: a #GrammarMethod
 * @styles: (nullable) (array zero-terminated=1): two styles of
 *   #GrammarMethod:styles, A then B, or %NULL for the first two styles
 *
 * Sets #GrammarMethod:compare. The styles are checked when the run
 * starts: two different styles that the run makes.
 */
void
grammar_method_set_compare (GrammarMethod      *self,
                            const char * const *styles)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));

  g_strfreev (self->compare);
  self->compare = styles != NULL && styles[0] != NULL ? g_strdupv ((char **) styles) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARE]);
}

/**
 * grammar_method_get_per_template:
 * @self: a #GrammarMethod
 *
 * Returns: text templates per SQL template and style
 */
guint
grammar_method_get_per_template (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), 0);

  return self->per_template;
}

/**
 * grammar_method_set_per_template:
 * @self: a #GrammarMethod
 * @per_template: text templates per SQL template and style, at least 1
 *
 * Sets #GrammarMethod:per-template.
 */
void
grammar_method_set_per_template (GrammarMethod *self,
                                 guint          per_template)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));
  g_return_if_fail (per_template >= 1);

  if (self->per_template == per_template)
    return;
  self->per_template = per_template;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PER_TEMPLATE]);
}

/**
 * grammar_method_get_per_group:
 * @self: a #GrammarMethod
 *
 * Returns: text queries per group and style, or 0 for all
 */
guint
grammar_method_get_per_group (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), 0);

  return self->per_group;
}

/**
 * grammar_method_set_per_group:
 * @self: a #GrammarMethod
 * @per_group: text queries per group and style, or 0 for all
 *
 * Sets #GrammarMethod:per-group.
 */
void
grammar_method_set_per_group (GrammarMethod *self,
                              guint          per_group)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));

  if (self->per_group == per_group)
    return;
  self->per_group = per_group;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PER_GROUP]);
}

/**
 * grammar_method_get_concurrency:
 * @self: a #GrammarMethod
 *
 * Returns: how many records the rag, judge and assess stages process at once
 */
guint
grammar_method_get_concurrency (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), 0);

  return self->concurrency;
}

/**
 * grammar_method_set_concurrency:
 * @self: a #GrammarMethod
 * @concurrency: how many records the rag, judge and assess stages
 *   process at once, at least 1
 *
 * Sets #GrammarMethod:concurrency.
 */
void
grammar_method_set_concurrency (GrammarMethod *self,
                                guint          concurrency)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));
  g_return_if_fail (concurrency >= 1);

  if (self->concurrency == concurrency)
    return;
  self->concurrency = concurrency;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONCURRENCY]);
}

/**
 * grammar_method_get_max_consecutive_failures:
 * @self: a #GrammarMethod
 *
 * Returns: after how many records in a row failed for want of the
 *   service a stage stops, 0 for never
 */
guint
grammar_method_get_max_consecutive_failures (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), 0);

  return self->max_consecutive_failures;
}

/**
 * grammar_method_set_max_consecutive_failures:
 * @self: a #GrammarMethod
 * @max_consecutive_failures: after how many records in a row failed for
 *   want of the service a stage stops, 0 for never
 *
 * Sets #GrammarMethod:max-consecutive-failures.
 */
void
grammar_method_set_max_consecutive_failures (GrammarMethod *self,
                                             guint          max_consecutive_failures)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));

  if (self->max_consecutive_failures == max_consecutive_failures)
    return;
  self->max_consecutive_failures = max_consecutive_failures;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONSECUTIVE_FAILURES]);
}

/**
 * grammar_method_get_seed:
 * @self: a #GrammarMethod
 *
 * Returns: the seed of the per-group sampling
 */
guint64
grammar_method_get_seed (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), 0);

  return self->seed;
}

/**
 * grammar_method_set_seed:
 * @self: a #GrammarMethod
 * @seed: the seed of the per-group sampling
 *
 * Sets #GrammarMethod:seed.
 */
void
grammar_method_set_seed (GrammarMethod *self,
                         guint64        seed)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));

  if (self->seed == seed)
    return;
  self->seed = seed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEED]);
}

/**
 * grammar_method_get_force:
 * @self: a #GrammarMethod
 *
 * Returns: whether every stage's file is made again
 */
gboolean
grammar_method_get_force (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), FALSE);

  return self->force;
}

/**
 * grammar_method_set_force:
 * @self: a #GrammarMethod
 * @force: whether to make every stage's file again
 *
 * Sets #GrammarMethod:force.
 */
void
grammar_method_set_force (GrammarMethod *self,
                          gboolean       force)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));

  force = !!force;
  if (self->force == force)
    return;
  self->force = force;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FORCE]);
}

/**
 * grammar_method_get_retry_failed:
 * @self: a #GrammarMethod
 *
 * Returns: whether the failed queries of an earlier run are asked again
 */
gboolean
grammar_method_get_retry_failed (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), FALSE);

  return self->retry_failed;
}

/**
 * grammar_method_set_retry_failed:
 * @self: a #GrammarMethod
 * @retry_failed: whether to ask the failed queries of an earlier run again
 *
 * Sets #GrammarMethod:retry-failed.
 */
void
grammar_method_set_retry_failed (GrammarMethod *self,
                                 gboolean       retry_failed)
{
  g_return_if_fail (GRAMMAR_IS_METHOD (self));

  retry_failed = !!retry_failed;
  if (self->retry_failed == retry_failed)
    return;
  self->retry_failed = retry_failed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRY_FAILED]);
}

/**
 * grammar_method_get_system:
 * @self: a #GrammarMethod
 *
 * The system under test, once a run built it for its rag stage: its
 * statistics (such as those of the `http` system) are the run's.
 *
 * Returns: (transfer none) (nullable): the system, or %NULL when no rag
 *   stage ran
 */
GrammarSystem *
grammar_method_get_system (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);

  return self->system;
}

/**
 * grammar_method_get_report:
 * @self: a #GrammarMethod
 *
 * The report of the last run that finished (the data of `report.json`).
 *
 * Returns: (transfer none) (nullable): the report, or %NULL before a run
 *   finished
 */
JsonNode *
grammar_method_get_report (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);

  return self->report;
}

/**
 * grammar_method_dup_report_path:
 * @self: a #GrammarMethod
 * @format: `text`, `json`, `markdown` or `html`
 *
 * Returns: (transfer full) (type filename) (nullable): the report file of
 *   that format in the output folder, or %NULL for an unknown format
 */
char *
grammar_method_dup_report_path (GrammarMethod *self,
                                const char    *format)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);
  g_return_val_if_fail (format != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (report_formats); i++)
    if (g_str_equal (report_formats[i].name, format))
      return g_build_filename (self->outdir, report_formats[i].file, NULL);
  return NULL;
}

/**
 * grammar_method_get_n_failed:
 * @self: a #GrammarMethod
 *
 * The records the system under test failed to answer in the last run
 * (written with their error and judged unmeasured), over every style.
 *
 * Returns: the number of failed records
 */
guint64
grammar_method_get_n_failed (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), 0);

  return self->n_failed;
}

/* Components ---------------------------------------------------------------- */

/* What the generation stages use, built before the first stage runs. */
static gboolean
ensure_generation (GrammarMethod  *self,
                   GError        **error)
{
  if (self->schema == NULL)
    {
      GrammarSchema *schema = grammar_assembly_get_schema (self->assembly, error);

      if (schema == NULL)
        return FALSE;
      self->schema = g_object_ref (schema);
      self->database = grammar_assembly_build_database (self->assembly, NULL, error);
    }
  if (self->sql_generator == NULL)
    self->sql_generator = GRAMMAR_SQL_GENERATOR (grammar_assembly_build_generator (self->assembly,
                                                                                  GRAMMAR_TYPE_SQL_GENERATOR,
                                                                                  NULL, NULL, error));
  if (self->sql_generator == NULL)
    return FALSE;
  if (self->verbalizer == NULL)
    self->verbalizer = GRAMMAR_VERBALIZER (grammar_assembly_build_generator (self->assembly, GRAMMAR_TYPE_VERBALIZER,
                                                                             NULL, NULL, error));
  return self->verbalizer != NULL;
}

/* The run, stage after stage ----------------------------------------------- */

static void next_step (GTask *task);

static void
emit_warnings (GrammarMethod      *self,
               Step               *step,
               const char * const *lines)
{
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    g_signal_emit (self, signals[SIGNAL_WARNING], 0, step_names[step->kind], lines[i]);
}

/* Before the caller hears of the end, so that it can run again at once. */
static void
release_folder (GTask *task)
{
  Run *run = g_task_get_task_data (task);

  if (run != NULL)
    g_clear_pointer (&run->lock, grammar_file_unlock);
}

static void
fail (GTask  *task,
      GError *error)
{
  release_folder (task);
  g_task_return_error (task, error);
  g_object_unref (task);
}

/* The stage succeeded: record it complete, say so, go on. */
static void
step_done (GTask      *task,
           const char *summary)
{
  Run *run = g_task_get_task_data (task);
  Step *step = g_ptr_array_index (run->steps, run->current);
  GError *error = NULL;

  grammar_manifest_set (run->manifest, step->file, step->fingerprint, TRUE);
  if (!grammar_manifest_save (run->manifest, &error))
    {
      fail (task, error);
      return;
    }
  if (step->kind == STEP_DOCS)
    run->documents = g_strdup (step->path);
  g_signal_emit (run->self, signals[SIGNAL_STAGE_FINISHED], 0, step_names[step->kind], step->style, step->path,
                 summary);
  run->current++;
  next_step (task);
}

static void
on_work_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  Work *work = g_task_get_task_data (G_TASK (result));
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      fail (task, error);
      return;
    }
  g_ptr_array_add (work->warnings, NULL);
  emit_warnings (work->self, work->step, (const char * const *) work->warnings->pdata);
  step_done (task, work->summary);
}

/* For the stages that run in a worker thread (grammar-method-stages.c). */
void
grammar_method_emit_progress (GrammarMethod *self,
                              const char    *stage,
                              guint64        done,
                              guint64        total)
{
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, stage, done, total);
}

static void
emit_progress (GTask   *task,
               guint64  done,
               guint64  total)
{
  Run *run = g_task_get_task_data (task);
  Step *step = g_ptr_array_index (run->steps, run->current);

  g_signal_emit (run->self, signals[SIGNAL_PROGRESS], 0, step_names[step->kind], done, total);
}

static void
on_runner_progress (GrammarStageRunner *runner,
                    guint64             done,
                    guint64             total,
                    guint64             failed,
                    gpointer            user_data)
{
  emit_progress (user_data, done, total);
}

static void
watch_progress (GTask              *task,
                GrammarStageRunner *runner)
{
  Run *run = g_task_get_task_data (task);

  run->progress_source = g_object_ref (G_OBJECT (runner));
  run->progress_handler = g_signal_connect (runner, "progress", G_CALLBACK (on_runner_progress), task);
}

static void
unwatch_progress (Run *run)
{
  if (run->progress_handler != 0)
    g_signal_handler_disconnect (run->progress_source, run->progress_handler);
  run->progress_handler = 0;
  g_clear_object (&run->progress_source);
}

/* Failed queries of an earlier run stay failed unless asked again: say
 * how, since the run's own count of failures does not include them. */
static void
note_skipped_failed (GrammarMethod      *self,
                     Step               *step,
                     GrammarStageRunner *runner)
{
  guint64 n = GRAMMAR_IS_RAG_RUNNER (runner) ? grammar_rag_runner_get_n_skipped_failed (GRAMMAR_RAG_RUNNER (runner))
                                             : 0;
  g_autofree char *message = NULL;
  const char *lines[2] = { NULL, NULL };

  if (n == 0)
    return;
  message = g_strdup_printf ("%" G_GUINT64_FORMAT " of the records kept from an earlier run had failed (written "
                             "with their error and judged unmeasured); `grammar run --retry-failed` asks them again",
                             n);
  lines[0] = message;
  emit_warnings (self, step, lines);
}

static void
on_runner_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);
  GrammarStageRunner *runner = GRAMMAR_STAGE_RUNNER (source);
  Step *step = g_ptr_array_index (run->steps, run->current);
  g_auto (GStrv) warnings = grammar_stage_runner_dup_warnings (runner);
  g_autofree char *summary = NULL;
  GError *error = NULL;

  unwatch_progress (run);
  /* The same note from the same stage of each style (a plugin's
   * max-concurrency that caps the stage) is told once. */
  if (run->told == NULL)
    run->told = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      const char *lines[] = { warnings[i], NULL };

      if (g_hash_table_add (run->told, g_strconcat (step_names[step->kind], ": ", warnings[i], NULL)))
        emit_warnings (run->self, step, lines);
    }
  if (!grammar_stage_runner_run_finish (runner, result, &error))
    {
      fail (task, error);
      return;
    }
  run->self->n_failed += grammar_stage_runner_get_n_failed (runner);
  note_skipped_failed (run->self, step, runner);
  summary = grammar_stage_runner_dup_summary (runner);
  step_done (task, summary);
}

/* The method's concurrency and max-consecutive-failures, but where the
 * stage's own section (@section: [judge], [metrics]) sets the key. */
static void
share_stage_options (GrammarMethod      *self,
                     GrammarStageRunner *runner,
                     const char         *section)
{
  GKeyFile *key_file = grammar_config_get_key_file (self->config);

  if (section == NULL || !g_key_file_has_key (key_file, section, "max-concurrency", NULL))
    grammar_stage_runner_set_max_concurrency (runner, self->concurrency);
  if (section == NULL || !g_key_file_has_key (key_file, section, "max-consecutive-failures", NULL))
    grammar_stage_runner_set_max_consecutive_failures (runner, self->max_consecutive_failures);
}

/* Runs a record-by-record stage (rag, judge) from @input to the step's file. */
static void
start_runner (GTask              *task,
              GrammarStageRunner *runner,
              Step               *input,
              Step               *step)
{
  GrammarMethod *self = g_task_get_source_object (task);

  share_stage_options (self, runner,
                       step->kind == STEP_JUDGE ? "judge" : step->kind == STEP_ASSESS ? "metrics" : NULL);
  watch_progress (task, runner);
  grammar_stage_runner_run_async (runner, input->path, step->path, g_task_get_cancellable (task), on_runner_done,
                                  task);
}

static void
start_step (GTask *task,
            Step  *step)
{
  Run *run = g_task_get_task_data (task);
  GrammarMethod *self = run->self;
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;

  switch (step->kind)
    {
    case STEP_RAG:
      {
        g_autoptr (GrammarRagRunner) runner = NULL;
        Step *dataset = grammar_method_find_step (run, STEP_QA, step->style);

        if (self->system == NULL && (self->system = grammar_assembly_build_system (self->assembly, NULL, &error)) == NULL)
          {
            fail (task, error);
            return;
          }
        runner = grammar_rag_runner_new (self->system);
        grammar_rag_runner_set_retry_failed (runner, self->retry_failed);
        start_runner (task, GRAMMAR_STAGE_RUNNER (runner), dataset, step);
      }
      break;
    case STEP_JUDGE:
      {
        Step *results = grammar_method_find_step (run, STEP_RAG, step->style);

        if (self->judge_runner == NULL &&
            (self->judge_runner = grammar_assembly_build_judge_runner (self->assembly, NULL, &error)) == NULL)
          {
            fail (task, error);
            return;
          }
        grammar_judge_runner_set_retry_failed (self->judge_runner, self->retry_failed);
        start_runner (task, GRAMMAR_STAGE_RUNNER (self->judge_runner), results, step);
      }
      break;
    case STEP_ASSESS:
      {
        Step *results = grammar_method_find_step (run, STEP_RAG, step->style);

        if (self->assess_runner == NULL &&
            (self->assess_runner = grammar_assembly_build_assess_runner (self->assembly, &error)) == NULL)
          {
            fail (task, error);
            return;
          }
        if (self->retry_failed)
          grammar_assess_runner_set_retry_failed (self->assess_runner, TRUE);
        start_runner (task, GRAMMAR_STAGE_RUNNER (self->assess_runner), results, step);
      }
      break;
    default:
      {
        g_autoptr (GTask) thread = g_task_new (self, cancellable, on_work_done, task);
        Work *work = g_new0 (Work, 1);

        work->self = self;
        work->run = run;
        work->step = step;
        work->warnings = g_ptr_array_new_with_free_func (g_free);
        g_task_set_task_data (thread, work, (GDestroyNotify) grammar_method_work_free);
        g_task_run_in_thread (thread, grammar_method_run_work_in_thread);
      }
    }
}

/* Loads the report a kept report stage made, for grammar_method_get_report(). */
static gboolean
load_kept_report (GrammarMethod  *self,
                  GError        **error)
{
  g_autofree char *path = grammar_method_dup_report_path (self, "json");
  g_autoptr (JsonParser) parser = json_parser_new ();

  if (!grammar_json_load_file (parser, path, error))
    return FALSE;
  g_clear_pointer (&self->report, json_node_unref);
  self->report = json_parser_steal_root (parser);
  return TRUE;
}

static void
next_step (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  GrammarMethod *self = run->self;
  Step *step;
  const char *reason;
  GError *error = NULL;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      release_folder (task);
      g_task_return_error_if_cancelled (task);
      g_object_unref (task);
      return;
    }
  if (run->current == run->steps->len)
    {
      release_folder (task);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  step = g_ptr_array_index (run->steps, run->current);
  g_free (step->fingerprint);
  step->fingerprint = grammar_method_step_fingerprint (run, step);
  reason = grammar_method_decide (run, step);
  g_signal_emit (self, signals[SIGNAL_STAGE_STARTED], 0, step_names[step->kind], step->style, step->path, reason);

  if (g_str_equal (reason, "kept"))
    {
      if (step->kind == STEP_REPORT && !load_kept_report (self, &error))
        {
          fail (task, error);
          return;
        }
      if (step->kind == STEP_DOCS)
        run->documents = g_strdup (step->path);
      g_signal_emit (self, signals[SIGNAL_STAGE_FINISHED], 0, step_names[step->kind], step->style, step->path,
                     "kept from an earlier run");
      run->current++;
      next_step (task);
      return;
    }

  /* A stale file goes before the stage runs, so that a failure leaves
   * nothing that looks finished. */
  if (!g_str_equal (reason, "resumed") && g_unlink (step->path) != 0 && errno != ENOENT)
    {
      int saved = errno;

      fail (task, g_error_new (G_IO_ERROR, g_io_error_from_errno (saved), "cannot remove %s: %s", step->path,
                               g_strerror (saved)));
      return;
    }
  grammar_manifest_set (run->manifest, step->file, step->fingerprint, FALSE);
  if (!grammar_manifest_save (run->manifest, &error))
    {
      fail (task, error);
      return;
    }
  start_step (task, step);
}

/**
 * grammar_method_check:
 * @self: a #GrammarMethod
 * @error: return location for a #GError
 *
 * Checks, without running or writing anything, everything the run would
 * build and write: every section of the keyfile and the options of the
 * method (grammar_assembly_check_run()). grammar_method_run_async() does
 * it first. The problems are listed by grammar_assembly_dup_problems() of
 * grammar_method_get_assembly().
 *
 * Returns: %TRUE when there is no problem; %FALSE with a
 *   %GRAMMAR_CONFIG_ERROR error that is the problem or lists them all
 */
gboolean
grammar_method_check (GrammarMethod  *self,
                      GError        **error)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), FALSE);

  if (grammar_assembly_has_documents (self->assembly))
    {
      g_autofree char *corpus = g_build_filename (self->outdir, GRAMMAR_METHOD_DOCUMENTS_FILE, NULL);

      if (g_strcmp0 (corpus, grammar_assembly_get_corpus (self->assembly)) != 0 && self->system == NULL)
        grammar_assembly_set_corpus (self->assembly, corpus);
    }
  return grammar_assembly_check_run (self->assembly, GRAMMAR_TYPE_METHOD, grammar_method_get_styles (self),
                                     self->styles != NULL, (const char * const *) self->compare, self->outdir,
                                     error);
}

/**
 * grammar_method_describe_plan:
 * @self: a #GrammarMethod
 * @error: return location for a #GError
 *
 * What a run would do, for people, without running nor writing anything:
 * each stage in order with its file, the components and plugins it
 * builds, the files it reads, and whether it would run or its file is
 * done and kept (from the manifest of the output folder, as
 * grammar_method_run_async() decides it). Call grammar_method_check()
 * first, so that the plugins are known.
 *
 * Returns: (transfer full) (nullable): the plan, one line or more per
 *   stage, or %NULL with @error set when the manifest cannot be read
 */
char *
grammar_method_describe_plan (GrammarMethod  *self,
                              GError        **error)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);
  /* the file checksums are the running run's */
  g_return_val_if_fail (!self->running, NULL);

  return grammar_method_describe_run (self, grammar_method_get_styles (self), error);
}

/* Everything the generation stages build, built before the first stage
 * runs: what only the database tells (a [documents] template naming a
 * column it lacks) is reported before any stage has written. */
static gboolean
check_components (GrammarMethod  *self,
                  GError        **error)
{
  if (!grammar_method_check (self, error) || !ensure_generation (self, error))
    return FALSE;
  if (grammar_assembly_has_documents (self->assembly))
    {
      g_autoptr (GrammarDocumentGenerator) documents =
        grammar_assembly_build_document_generator (self->assembly, error);

      if (documents == NULL)
        return FALSE;
    }
  return TRUE;
}

/**
 * grammar_method_get_assembly:
 * @self: a #GrammarMethod
 *
 * Returns: (transfer none): the assembly the components come from
 */
GrammarAssembly *
grammar_method_get_assembly (GrammarMethod *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), NULL);

  return self->assembly;
}

/**
 * grammar_method_run_async:
 * @self: a #GrammarMethod
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the run is over
 * @user_data: data for @callback
 *
 * Runs every stage of the method into #GrammarMethod:outdir, on the
 * thread-default main context (the generation stages work in a thread of
 * their own). Cancelling stops the stage running: the files of the
 * finished stages stay, the rag and judge files keep every record written,
 * and a later run goes on from there.
 *
 * The run holds an advisory lock on the folder (its file `.lock`, see
 * grammar_file_lock()) until it is over: a second run on the same folder,
 * in this process or another, fails at once with
 * %GRAMMAR_ERROR_INVALID_INPUT naming the folder and the process that
 * holds it.
 */
void
grammar_method_run_async (GrammarMethod       *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task;
  Run *run;
  GError *error = NULL;

  g_return_if_fail (GRAMMAR_IS_METHOD (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, grammar_method_run_async);
  if (self->running)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING, "the method is already running");
      g_object_unref (task);
      return;
    }
  if (!check_components (self, &error))
    {
      fail (task, error);
      return;
    }
  if (g_mkdir_with_parents (self->outdir, 0777) != 0)
    {
      int saved = errno;

      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "cannot make the folder %s: %s",
                               self->outdir, g_strerror (saved));
      g_object_unref (task);
      return;
    }

  run = grammar_method_run_new (self, grammar_method_get_styles (self));
  g_task_set_task_data (task, run, (GDestroyNotify) grammar_method_run_free);
  /* One run per folder: two would write every stage's file twice. */
  run->lock = grammar_file_lock (self->outdir, &error);
  if (run->lock == NULL)
    {
      fail (task, error);
      return;
    }
  run->manifest = grammar_manifest_load (self->outdir, &error);
  if (run->manifest == NULL)
    {
      fail (task, error);
      return;
    }
  self->running = TRUE;
  self->n_failed = 0;
  g_hash_table_remove_all (self->file_hashes);
  next_step (task);
}

/**
 * grammar_method_run_finish:
 * @self: a #GrammarMethod
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Finishes grammar_method_run_async(). A run whose system under test
 * failed on some records succeeds (they are written with their error and
 * judged unmeasured): grammar_method_get_n_failed() counts them.
 *
 * Returns: %TRUE when every stage finished, %FALSE with @error set
 */
gboolean
grammar_method_run_finish (GrammarMethod  *self,
                           GAsyncResult   *result,
                           GError        **error)
{
  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  self->running = FALSE;
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * grammar_method_run:
 * @self: a #GrammarMethod
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Runs the method and waits for it, on a main context of its own (see
 * grammar_method_run_async()).
 *
 * Returns: %TRUE when every stage finished, %FALSE with @error set
 */
gboolean
grammar_method_run (GrammarMethod  *self,
                    GCancellable   *cancellable,
                    GError        **error)
{
  GrammarSync sync;
  gboolean ok;

  g_return_val_if_fail (GRAMMAR_IS_METHOD (self), FALSE);

  grammar_sync_init (&sync);
  grammar_method_run_async (self, cancellable, grammar_sync_callback, &sync);
  ok = grammar_method_run_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return ok;
}
