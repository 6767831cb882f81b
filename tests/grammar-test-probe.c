/* grammar-test-probe.c: a matcher with one property of every kind a keyfile can set
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-test-probe.h"

enum {
  PROP_0, PROP_LABEL, PROP_FILE, PROP_COUNT, PROP_BIG, PROP_RATIO, PROP_STRICT,
  PROP_KIND, PROP_COPY_FLAGS, PROP_NAMES, PROP_NEXT, PROP_LLM, N_PROPS
};
G_STATIC_ASSERT (N_PROPS - 1 == GRAMMAR_TEST_PROBE_N_PROPERTIES);

static GrammarVerdict *
grammar_test_probe_judge (GrammarMatcher  *matcher,
                          GrammarRecord   *record,
                          GCancellable    *cancellable,
                          GError         **error)
{
  return grammar_verdict_new (GRAMMAR_VERDICT_CORRECT, 1.0, "probe", "probe");
}

static void
grammar_test_probe_matcher_init (GrammarMatcherInterface *iface)
{
  iface->judge = grammar_test_probe_judge;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GrammarTestProbe, grammar_test_probe, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_MATCHER, grammar_test_probe_matcher_init))

static void
grammar_test_probe_set_property (GObject      *object,
                                 guint         id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  GrammarTestProbe *self = GRAMMAR_TEST_PROBE (object);

  switch (id)
    {
    case PROP_LABEL: g_free (self->label); self->label = g_value_dup_string (value); break;
    case PROP_FILE: g_free (self->file); self->file = g_value_dup_string (value); break;
    case PROP_COUNT: self->count = g_value_get_int (value); break;
    case PROP_BIG: self->big = g_value_get_uint64 (value); break;
    case PROP_RATIO: self->ratio = g_value_get_double (value); break;
    case PROP_STRICT: self->strict = g_value_get_boolean (value); break;
    case PROP_KIND: self->kind = g_value_get_enum (value); break;
    case PROP_COPY_FLAGS: self->copy_flags = g_value_get_flags (value); break;
    case PROP_NAMES: g_strfreev (self->names); self->names = g_value_dup_boxed (value); break;
    case PROP_NEXT: g_set_object (&self->next, g_value_get_object (value)); break;
    case PROP_LLM: g_set_object (&self->llm, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
grammar_test_probe_finalize (GObject *object)
{
  GrammarTestProbe *self = GRAMMAR_TEST_PROBE (object);

  g_free (self->label);
  g_free (self->file);
  g_strfreev (self->names);
  g_clear_object (&self->next);
  g_clear_object (&self->llm);
  G_OBJECT_CLASS (grammar_test_probe_parent_class)->finalize (object);
}

static void
grammar_test_probe_class_init (GrammarTestProbeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  GParamSpec *props[N_PROPS] = { NULL, };

  object_class->set_property = grammar_test_probe_set_property;
  object_class->finalize = grammar_test_probe_finalize;

  props[PROP_LABEL] = g_param_spec_string ("label", NULL, "A string", NULL, flags);
  props[PROP_FILE] = g_param_spec_string ("file", NULL, "A path", NULL, flags | GRAMMAR_PARAM_PATH);
  props[PROP_COUNT] = g_param_spec_int ("count", NULL, "An int", -5, 100, 1, flags);
  props[PROP_BIG] = g_param_spec_uint64 ("big", NULL, "A uint64", 0, G_MAXUINT64, 0, flags);
  props[PROP_RATIO] = g_param_spec_double ("ratio", NULL, "A double", 0.0, 1.0, 0.5, flags);
  props[PROP_STRICT] = g_param_spec_boolean ("strict", NULL, "A boolean", FALSE, flags);
  props[PROP_KIND] = g_param_spec_enum ("kind", NULL, "An enum", GRAMMAR_TYPE_VERDICT_KIND,
                                        GRAMMAR_VERDICT_UNMEASURED, flags);
  props[PROP_COPY_FLAGS] = g_param_spec_flags ("copy-flags", NULL, "Flags", G_TYPE_FILE_COPY_FLAGS,
                                               G_FILE_COPY_NONE, flags);
  props[PROP_NAMES] = g_param_spec_boxed ("names", NULL, "A string list", G_TYPE_STRV, flags);
  props[PROP_NEXT] = g_param_spec_object ("next", NULL, "Another matcher", GRAMMAR_TYPE_MATCHER, flags);
  props[PROP_LLM] = g_param_spec_object ("llm", NULL, "A language model", GRAMMAR_TYPE_LLM, flags);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
grammar_test_probe_init (GrammarTestProbe *self)
{
  self->count = 1;
  self->ratio = 0.5;
}

/* Registers the probe as the matcher "probe", as a module would; once. */
void
grammar_test_probe_register (void)
{
  static gsize registered;

  if (g_once_init_enter (&registered))
    {
      grammar_registry_implement (GRAMMAR_TYPE_MATCHER, GRAMMAR_TYPE_TEST_PROBE, "probe",
                                  "Test component with every property kind");
      g_once_init_leave (&registered, 1);
    }
}
