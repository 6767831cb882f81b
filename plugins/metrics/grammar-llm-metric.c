/* grammar-llm-metric.c: what the metrics that ask a language model share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-llm-metric.h"

/*
 * GrammarLlmMetric:
 *
 * The abstract base of `ragas-faithfulness` and `selfcheck`: the keys
 * both have — `llm` (required), `variant` (one of two), `max-attempts`
 * (requests per prompt while the reply cannot be read) and `threshold` —
 * and the check of them when the metric is built. Each subclass installs
 * the properties with its own defaults and texts
 * (grammar_llm_metric_class_install_properties()); the values live here.
 */

typedef struct
{
  GrammarLlm *llm;
  char *variant;
  guint max_attempts;
  double threshold;
} GrammarLlmMetricPrivate;

enum
{
  PROP_0,
  PROP_LLM,
  PROP_VARIANT,
  PROP_MAX_ATTEMPTS,
  PROP_THRESHOLD,
  N_PROPS
};

static void grammar_llm_metric_initable_iface_init (GInitableIface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarLlmMetric, grammar_llm_metric, G_TYPE_OBJECT, G_TYPE_FLAG_ABSTRACT,
                                G_ADD_PRIVATE_DYNAMIC (GrammarLlmMetric)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_llm_metric_initable_iface_init))

static gboolean
grammar_llm_metric_initable_init (GInitable     *initable,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  GrammarLlmMetric *self = GRAMMAR_LLM_METRIC (initable);
  GrammarLlmMetricPrivate *priv = grammar_llm_metric_get_instance_private (self);
  GrammarLlmMetricClass *klass = GRAMMAR_LLM_METRIC_GET_CLASS (self);

  if (priv->llm == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "llm is required: the name of the section of a language model (e.g. llm=judge-llm)");
      return FALSE;
    }
  if (g_strcmp0 (priv->variant, klass->variants[0]) == 0 || g_strcmp0 (priv->variant, klass->variants[1]) == 0)
    return TRUE;
  g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "variant: must be %s or %s (not “%s”)",
               klass->variants[0], klass->variants[1], priv->variant != NULL ? priv->variant : "");
  return FALSE;
}

static void
grammar_llm_metric_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_llm_metric_initable_init;
}

static void
grammar_llm_metric_finalize (GObject *object)
{
  GrammarLlmMetricPrivate *priv = grammar_llm_metric_get_instance_private (GRAMMAR_LLM_METRIC (object));

  g_clear_object (&priv->llm);
  g_free (priv->variant);

  G_OBJECT_CLASS (grammar_llm_metric_parent_class)->finalize (object);
}

static void
grammar_llm_metric_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  GrammarLlmMetricPrivate *priv = grammar_llm_metric_get_instance_private (GRAMMAR_LLM_METRIC (object));

  switch (prop_id)
    {
    case PROP_LLM: g_value_set_object (value, priv->llm); break;
    case PROP_VARIANT: g_value_set_string (value, priv->variant); break;
    case PROP_MAX_ATTEMPTS: g_value_set_uint (value, priv->max_attempts); break;
    case PROP_THRESHOLD: g_value_set_double (value, priv->threshold); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_llm_metric_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  GrammarLlmMetricPrivate *priv = grammar_llm_metric_get_instance_private (GRAMMAR_LLM_METRIC (object));

  switch (prop_id)
    {
    case PROP_LLM: g_set_object (&priv->llm, g_value_get_object (value)); break;
    case PROP_VARIANT:
      g_free (priv->variant);
      priv->variant = g_value_dup_string (value);
      break;
    case PROP_MAX_ATTEMPTS: priv->max_attempts = g_value_get_uint (value); break;
    case PROP_THRESHOLD: priv->threshold = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_llm_metric_class_init (GrammarLlmMetricClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_llm_metric_finalize;
}

static void
grammar_llm_metric_class_finalize (GrammarLlmMetricClass *klass)
{
}

static void
grammar_llm_metric_init (GrammarLlmMetric *self)
{
}

/* Installs the four properties on a subclass, with its defaults and
 * texts; construct-only, so the defaults apply when the metric is made. */
void
grammar_llm_metric_class_install_properties (GrammarLlmMetricClass *klass,
                                             const char            *llm_blurb,
                                             const char            *first_variant,
                                             const char            *second_variant,
                                             const char            *variant_blurb,
                                             double                 threshold,
                                             const char            *threshold_blurb)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  GParamSpec *properties[N_PROPS] = { NULL };

  /* GObject does not inherit get_property and set_property: the class
   * that installs a property handles it, here with the base's. */
  G_OBJECT_CLASS (klass)->get_property = grammar_llm_metric_get_property;
  G_OBJECT_CLASS (klass)->set_property = grammar_llm_metric_set_property;
  klass->variants[0] = first_variant;
  klass->variants[1] = second_variant;
  properties[PROP_LLM] = g_param_spec_object ("llm", NULL, llm_blurb, GRAMMAR_TYPE_LLM, flags);
  grammar_param_spec_set_required (properties[PROP_LLM],
                                   "name the section of a language model, such as llm=judge-llm");
  properties[PROP_VARIANT] = g_param_spec_string ("variant", NULL, variant_blurb, first_variant, flags);
  properties[PROP_MAX_ATTEMPTS] =
    g_param_spec_uint ("max-attempts", NULL, "Requests per prompt while the reply cannot be read", 1, 10, 2,
                       flags);
  properties[PROP_THRESHOLD] = g_param_spec_double ("threshold", NULL, threshold_blurb, 0.0, 1.0, threshold,
                                                    flags);
  g_object_class_install_properties (G_OBJECT_CLASS (klass), N_PROPS, properties);
}

GrammarLlm *
grammar_llm_metric_get_llm (GrammarLlmMetric *self)
{
  GrammarLlmMetricPrivate *priv = grammar_llm_metric_get_instance_private (self);

  return priv->llm;
}

const char *
grammar_llm_metric_get_variant (GrammarLlmMetric *self)
{
  GrammarLlmMetricPrivate *priv = grammar_llm_metric_get_instance_private (self);

  return priv->variant;
}

guint
grammar_llm_metric_get_max_attempts (GrammarLlmMetric *self)
{
  GrammarLlmMetricPrivate *priv = grammar_llm_metric_get_instance_private (self);

  return priv->max_attempts;
}

void
grammar_llm_metric_register (GTypeModule *module)
{
  grammar_llm_metric_register_type (module);
}
