/* grammar-metric-value.c: one named value a metric computed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-metric-value.h"

/**
 * GrammarMetricValue:
 *
 * One value a metric computed over judged records: its name (such as
 * `accuracy` or `faithfulness`), the value, the number of records it is
 * computed from and, optionally, a confidence interval around it. The
 * value is immutable once made; the interval is set once it is known.
 */
struct _GrammarMetricValue
{
  GObject parent_instance;

  char *name;
  double value;
  guint count;
  gboolean has_interval;
  double lower;
  double upper;
};

G_DEFINE_FINAL_TYPE (GrammarMetricValue, grammar_metric_value, G_TYPE_OBJECT)

static void
grammar_metric_value_finalize (GObject *object)
{
  GrammarMetricValue *self = GRAMMAR_METRIC_VALUE (object);

  g_free (self->name);

  G_OBJECT_CLASS (grammar_metric_value_parent_class)->finalize (object);
}

static void
grammar_metric_value_class_init (GrammarMetricValueClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_metric_value_finalize;
}

static void
grammar_metric_value_init (GrammarMetricValue *self)
{
}

/**
 * grammar_metric_value_new:
 * @name: the name of the value, such as `accuracy`
 * @value: the value
 * @count: the number of records the value is computed from
 *
 * Makes a metric value without a confidence interval.
 *
 * Returns: (transfer full): a new #GrammarMetricValue
 */
GrammarMetricValue *
grammar_metric_value_new (const char *name,
                          double      value,
                          guint       count)
{
  GrammarMetricValue *self;

  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_METRIC_VALUE, NULL);
  self->name = g_strdup (name);
  self->value = value;
  self->count = count;
  return self;
}

/**
 * grammar_metric_value_set_interval:
 * @self: a #GrammarMetricValue
 * @lower: the lower bound of the confidence interval
 * @upper: the upper bound, not below @lower
 *
 * Sets the confidence interval of the value (for example a 95 % Wilson
 * interval for a proportion).
 */
void
grammar_metric_value_set_interval (GrammarMetricValue *self,
                                   double              lower,
                                   double              upper)
{
  g_return_if_fail (GRAMMAR_IS_METRIC_VALUE (self));
  g_return_if_fail (!isnan (lower) && !isnan (upper));
  g_return_if_fail (lower <= upper);

  self->has_interval = TRUE;
  self->lower = lower;
  self->upper = upper;
}

/**
 * grammar_metric_value_get_name:
 * @self: a #GrammarMetricValue
 *
 * Returns: the name of the value
 */
const char *
grammar_metric_value_get_name (GrammarMetricValue *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METRIC_VALUE (self), NULL);
  return self->name;
}

/**
 * grammar_metric_value_get_value:
 * @self: a #GrammarMetricValue
 *
 * Returns: the value
 */
double
grammar_metric_value_get_value (GrammarMetricValue *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METRIC_VALUE (self), 0.0);
  return self->value;
}

/**
 * grammar_metric_value_get_count:
 * @self: a #GrammarMetricValue
 *
 * Returns: the number of records the value is computed from
 */
guint
grammar_metric_value_get_count (GrammarMetricValue *self)
{
  g_return_val_if_fail (GRAMMAR_IS_METRIC_VALUE (self), 0);
  return self->count;
}

/**
 * grammar_metric_value_get_interval:
 * @self: a #GrammarMetricValue
 * @lower: (out) (optional): return location for the lower bound
 * @upper: (out) (optional): return location for the upper bound
 *
 * Gets the confidence interval, if one was set with
 * grammar_metric_value_set_interval(). Without one, @lower and @upper
 * are set to 0 (never NaN).
 *
 * Returns: %TRUE if the value has a confidence interval
 */
gboolean
grammar_metric_value_get_interval (GrammarMetricValue *self,
                                   double             *lower,
                                   double             *upper)
{
  g_return_val_if_fail (GRAMMAR_IS_METRIC_VALUE (self), FALSE);

  if (lower != NULL)
    *lower = self->has_interval ? self->lower : 0.0;
  if (upper != NULL)
    *upper = self->has_interval ? self->upper : 0.0;
  return self->has_interval;
}
