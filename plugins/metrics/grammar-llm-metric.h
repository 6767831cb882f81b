/* grammar-llm-metric.h: what the metrics that ask a language model share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_LLM_METRIC (grammar_llm_metric_get_type ())
G_DECLARE_DERIVABLE_TYPE (GrammarLlmMetric, grammar_llm_metric, GRAMMAR, LLM_METRIC, GObject)

/* @variants: the two values `variant` takes, the first the default,
 * set by grammar_llm_metric_class_install_properties (). */
struct _GrammarLlmMetricClass
{
  GObjectClass parent_class;

  const char *variants[2];
};

void        grammar_llm_metric_register                  (GTypeModule           *module);
void        grammar_llm_metric_class_install_properties  (GrammarLlmMetricClass *klass,
                                                          const char            *llm_blurb,
                                                          const char            *first_variant,
                                                          const char            *second_variant,
                                                          const char            *variant_blurb,
                                                          double                 threshold,
                                                          const char            *threshold_blurb);
GrammarLlm *grammar_llm_metric_get_llm                   (GrammarLlmMetric      *self);
const char *grammar_llm_metric_get_variant               (GrammarLlmMetric      *self);
guint       grammar_llm_metric_get_max_attempts          (GrammarLlmMetric      *self);

G_END_DECLS
