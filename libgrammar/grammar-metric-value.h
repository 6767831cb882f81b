/* grammar-metric-value.h: one named value a metric computed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_METRIC_VALUE (grammar_metric_value_get_type ())
G_DECLARE_FINAL_TYPE (GrammarMetricValue, grammar_metric_value, GRAMMAR, METRIC_VALUE, GObject)

GrammarMetricValue *grammar_metric_value_new          (const char         *name,
                                                       double              value,
                                                       guint               count);
void                grammar_metric_value_set_interval (GrammarMetricValue *self,
                                                       double              lower,
                                                       double              upper);
const char         *grammar_metric_value_get_name     (GrammarMetricValue *self);
double              grammar_metric_value_get_value    (GrammarMetricValue *self);
guint               grammar_metric_value_get_count    (GrammarMetricValue *self);
gboolean            grammar_metric_value_get_interval (GrammarMetricValue *self,
                                                       double             *lower,
                                                       double             *upper);

G_END_DECLS
