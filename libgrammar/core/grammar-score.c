/* grammar-score.c: what one metric says of one record
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-error.h"
#include "grammar-json-private.h"
#include "grammar-score.h"

/**
 * GrammarScore:
 *
 * What one #GrammarMetric says of one record: a value in [0, 1], higher
 * meaning that the metric trusts the response more, or no value at all
 * (“unmeasured”) with the reason, never NaN. An unmeasured score is
 * *failed* when an error prevented it (a language model that could not
 * be reached): `grammar assess --retry-failed` computes those again,
 * not the ones the record itself leaves unmeasured (no retrieved
 * context, no samples).
 *
 * The threshold turns the value into pass or fail: a measured score
 * passes when its value is at least the threshold. The evidence is the
 * metric's own JSON object (statements, verdicts, replies of the
 * language model) kept for inspection.
 *
 * In `assessed.jsonl` a score is the member named after its metric of
 * the record's `assessment` object:
 * `{"plugin": "selfcheck", "score": 0.75, "threshold": 1, "passed": false,
 * "evidence": {…}}`, or with `"score": null` and `"unmeasured": "why"`
 * (and `"failed": true` when an error was the reason).
 */
struct _GrammarScore
{
  GObject parent_instance;

  gboolean measured;
  gboolean failed;
  double value;
  double threshold;
  char *reason;
  char *metric;
  char *plugin;
  JsonNode *evidence;
};

G_DEFINE_FINAL_TYPE (GrammarScore, grammar_score, G_TYPE_OBJECT)

static void
grammar_score_finalize (GObject *object)
{
  GrammarScore *self = GRAMMAR_SCORE (object);

  g_free (self->reason);
  g_free (self->metric);
  g_free (self->plugin);
  g_clear_pointer (&self->evidence, json_node_unref);

  G_OBJECT_CLASS (grammar_score_parent_class)->finalize (object);
}

static void
grammar_score_class_init (GrammarScoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_score_finalize;
}

static void
grammar_score_init (GrammarScore *self)
{
  self->threshold = 0.5;
}

/**
 * grammar_score_new:
 * @value: the value, in [0, 1] (clamped; NaN makes the score unmeasured)
 *
 * Returns: (transfer full): a measured score
 */
GrammarScore *
grammar_score_new (double value)
{
  GrammarScore *self;

  if (isnan (value))
    return grammar_score_new_unmeasured ("the metric computed no number");
  self = g_object_new (GRAMMAR_TYPE_SCORE, NULL);
  self->measured = TRUE;
  self->value = CLAMP (value, 0.0, 1.0);
  return self;
}

/**
 * grammar_score_new_unmeasured:
 * @reason: why the record could not be scored
 *
 * Returns: (transfer full): an unmeasured score
 */
GrammarScore *
grammar_score_new_unmeasured (const char *reason)
{
  GrammarScore *self;

  g_return_val_if_fail (reason != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_SCORE, NULL);
  self->reason = g_strdup (reason);
  return self;
}

/**
 * grammar_score_new_failed:
 * @reason: the error that prevented the score
 *
 * Returns: (transfer full): an unmeasured score that an error caused,
 *   worth computing again
 */
GrammarScore *
grammar_score_new_failed (const char *reason)
{
  GrammarScore *self = grammar_score_new_unmeasured (reason);

  self->failed = TRUE;
  return self;
}

static gboolean
invalid (GError     **error,
         const char  *metric,
         const char  *what)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "assessment “%s”: %s", metric, what);
  return FALSE;
}

/**
 * grammar_score_new_from_json:
 * @metric: the name of the metric, the member's name in `assessment`
 * @node: the score as grammar_score_to_json() writes it
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the score, or %NULL with @error set
 */
GrammarScore *
grammar_score_new_from_json (const char  *metric,
                             JsonNode    *node,
                             GError     **error)
{
  g_autoptr (GrammarScore) self = NULL;
  JsonObject *object;
  JsonNode *value, *member;
  double number;

  g_return_val_if_fail (metric != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, metric, "must be an object"), NULL;
  object = json_node_get_object (node);
  value = json_object_get_member (object, "score");
  if (value == NULL)
    return invalid (error, metric, "has no member “score”"), NULL;
  if (JSON_NODE_HOLDS_NULL (value))
    {
      member = json_object_get_member (object, "unmeasured");
      self = grammar_score_new_unmeasured (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
                                           json_node_get_value_type (member) == G_TYPE_STRING
                                             ? json_node_get_string (member) : "unmeasured");
      member = json_object_get_member (object, "failed");
      self->failed = member != NULL && JSON_NODE_HOLDS_VALUE (member) && json_node_get_boolean (member);
    }
  else if (grammar_json_node_get_real (value, &number))
    {
      if (!(number >= 0.0 && number <= 1.0))
        return invalid (error, metric, "“score” must be a number from 0 to 1 or null"), NULL;
      self = grammar_score_new (number);
    }
  else
    return invalid (error, metric, "“score” must be a number from 0 to 1 or null"), NULL;

  member = json_object_get_member (object, "threshold");
  if (grammar_json_node_get_real (member, &number))
    self->threshold = number;
  member = json_object_get_member (object, "plugin");
  if (member != NULL && JSON_NODE_HOLDS_VALUE (member) && json_node_get_value_type (member) == G_TYPE_STRING)
    self->plugin = g_strdup (json_node_get_string (member));
  member = json_object_get_member (object, "reason");
  if (self->measured && member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
      json_node_get_value_type (member) == G_TYPE_STRING)
    self->reason = g_strdup (json_node_get_string (member));
  member = json_object_get_member (object, "evidence");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    self->evidence = json_node_copy (member);
  self->metric = g_strdup (metric);
  return g_steal_pointer (&self);
}

/**
 * grammar_score_to_json:
 * @self: a #GrammarScore
 *
 * Returns: (transfer full): the score as a JSON object (see #GrammarScore)
 */
JsonNode *
grammar_score_to_json (GrammarScore *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), NULL);

  json_builder_begin_object (builder);
  if (self->plugin != NULL)
    {
      json_builder_set_member_name (builder, "plugin");
      json_builder_add_string_value (builder, self->plugin);
    }
  json_builder_set_member_name (builder, "score");
  if (self->measured)
    json_builder_add_double_value (builder, self->value);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "threshold");
  json_builder_add_double_value (builder, self->threshold);
  if (self->measured)
    {
      json_builder_set_member_name (builder, "passed");
      json_builder_add_boolean_value (builder, grammar_score_get_passed (self));
      if (self->reason != NULL)
        {
          json_builder_set_member_name (builder, "reason");
          json_builder_add_string_value (builder, self->reason);
        }
    }
  else
    {
      json_builder_set_member_name (builder, "unmeasured");
      json_builder_add_string_value (builder, self->reason);
      if (self->failed)
        {
          json_builder_set_member_name (builder, "failed");
          json_builder_add_boolean_value (builder, TRUE);
        }
    }
  if (self->evidence != NULL)
    {
      json_builder_set_member_name (builder, "evidence");
      json_builder_add_value (builder, json_node_copy (self->evidence));
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/**
 * grammar_score_is_measured:
 * @self: a #GrammarScore
 *
 * Returns: whether the score has a value
 */
gboolean
grammar_score_is_measured (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), FALSE);
  return self->measured;
}

/**
 * grammar_score_is_failed:
 * @self: a #GrammarScore
 *
 * Returns: whether an error left the score unmeasured
 */
gboolean
grammar_score_is_failed (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), FALSE);
  return self->failed;
}

/**
 * grammar_score_get_value:
 * @self: a #GrammarScore
 *
 * Returns: the value in [0, 1]; 0 when unmeasured (check
 *   grammar_score_is_measured() first)
 */
double
grammar_score_get_value (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), 0.0);
  return self->measured ? self->value : 0.0;
}

/**
 * grammar_score_get_reason:
 * @self: a #GrammarScore
 *
 * Returns: (nullable): why the score is unmeasured, or a note on a
 *   measured one
 */
const char *
grammar_score_get_reason (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), NULL);
  return self->reason;
}

/**
 * grammar_score_set_reason:
 * @self: a #GrammarScore
 * @reason: (nullable): a note on a measured score
 *
 * Sets the note of a measured score; an unmeasured score keeps its
 * reason.
 */
void
grammar_score_set_reason (GrammarScore *self,
                          const char   *reason)
{
  g_return_if_fail (GRAMMAR_IS_SCORE (self));

  if (!self->measured)
    return;
  g_free (self->reason);
  self->reason = g_strdup (reason);
}

/**
 * grammar_score_get_evidence:
 * @self: a #GrammarScore
 *
 * Returns: (transfer none) (nullable): what the metric kept of its work
 */
JsonNode *
grammar_score_get_evidence (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), NULL);
  return self->evidence;
}

/**
 * grammar_score_set_evidence:
 * @self: a #GrammarScore
 * @evidence: (nullable) (transfer none): a JSON object, copied
 *
 * Sets what the metric kept of its work: statements, verdicts, the
 * replies of the language model.
 */
void
grammar_score_set_evidence (GrammarScore *self,
                            JsonNode     *evidence)
{
  g_return_if_fail (GRAMMAR_IS_SCORE (self));

  g_clear_pointer (&self->evidence, json_node_unref);
  if (evidence != NULL)
    self->evidence = json_node_copy (evidence);
}

/**
 * grammar_score_get_threshold:
 * @self: a #GrammarScore
 *
 * Returns: the value from which the score passes
 */
double
grammar_score_get_threshold (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), 0.0);
  return self->threshold;
}

/**
 * grammar_score_set_threshold:
 * @self: a #GrammarScore
 * @threshold: the value from which the score passes, in [0, 1]
 *
 * Sets the threshold; grammar_metric_score_finish() sets the metric's.
 */
void
grammar_score_set_threshold (GrammarScore *self,
                             double        threshold)
{
  g_return_if_fail (GRAMMAR_IS_SCORE (self));
  self->threshold = threshold;
}

/**
 * grammar_score_get_passed:
 * @self: a #GrammarScore
 *
 * Returns: whether the score is measured and its value is at least its
 *   threshold
 */
gboolean
grammar_score_get_passed (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), FALSE);
  /* A hair below: 0.1 + 0.2 summed shares must reach 0.3. */
  return self->measured && self->value >= self->threshold - 1e-9;
}

/**
 * grammar_score_get_metric:
 * @self: a #GrammarScore
 *
 * Returns: (nullable): the name of the metric (its keyfile section)
 */
const char *
grammar_score_get_metric (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), NULL);
  return self->metric;
}

/**
 * grammar_score_set_metric:
 * @self: a #GrammarScore
 * @metric: (nullable): the name of the metric
 *
 * Sets the name of the metric, the member of `assessment` it is written as.
 */
void
grammar_score_set_metric (GrammarScore *self,
                          const char   *metric)
{
  g_return_if_fail (GRAMMAR_IS_SCORE (self));
  g_free (self->metric);
  self->metric = g_strdup (metric);
}

/**
 * grammar_score_get_plugin:
 * @self: a #GrammarScore
 *
 * Returns: (nullable): the plugin of the metric
 */
const char *
grammar_score_get_plugin (GrammarScore *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCORE (self), NULL);
  return self->plugin;
}

/**
 * grammar_score_set_plugin:
 * @self: a #GrammarScore
 * @plugin: (nullable): the plugin name of the metric
 *
 * Sets the plugin of the metric that computed the score.
 */
void
grammar_score_set_plugin (GrammarScore *self,
                          const char   *plugin)
{
  g_return_if_fail (GRAMMAR_IS_SCORE (self));
  g_free (self->plugin);
  self->plugin = g_strdup (plugin);
}
