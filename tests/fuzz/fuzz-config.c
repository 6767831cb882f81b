/* fuzz-config.c: a keyfile, read and turned into components and stage properties
 *
 * The input is the text of a keyfile (examples/demo.ini is one). Each of
 * its sections is built with grammar_config_build() — `plugin=probe`
 * names a matcher with a property of every kind a key can set, and keys
 * naming other sections build those — and the `[run]` and `[judge]`
 * sections configure a GrammarMethod and a GrammarJudgeRunner, as
 * `grammar run` and `grammar judge` do.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include <grammar.h>

#include "fuzz-util.h"

#define FUZZ_TYPE_PROBE (fuzz_probe_get_type ())
G_DECLARE_FINAL_TYPE (FuzzProbe, fuzz_probe, FUZZ, PROBE, GObject)

struct _FuzzProbe
{
  GObject parent_instance;

  char *label;
  char *file;
  GStrv names;
  GrammarMatcher *next;
  GrammarLlm *llm;
};

enum {
  PROP_0, PROP_LABEL, PROP_FILE, PROP_COUNT, PROP_BIG, PROP_RATIO, PROP_STRICT,
  PROP_KIND, PROP_COPY_FLAGS, PROP_NAMES, PROP_NEXT, PROP_LLM, N_PROPS
};

static GrammarVerdict *
fuzz_probe_judge (GrammarMatcher *matcher, GrammarRecord *record, GCancellable *cancellable, GError **error)
{
  return grammar_verdict_new (GRAMMAR_VERDICT_CORRECT, 1.0, "probe", "probe");
}

static void
fuzz_probe_matcher_init (GrammarMatcherInterface *iface)
{
  iface->judge = fuzz_probe_judge;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (FuzzProbe, fuzz_probe, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_MATCHER, fuzz_probe_matcher_init))

static void
fuzz_probe_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  FuzzProbe *self = FUZZ_PROBE (object);

  switch (id)
    {
    case PROP_LABEL: g_free (self->label); self->label = g_value_dup_string (value); break;
    case PROP_FILE: g_free (self->file); self->file = g_value_dup_string (value); break;
    case PROP_NAMES: g_strfreev (self->names); self->names = g_value_dup_boxed (value); break;
    case PROP_NEXT: g_set_object (&self->next, g_value_get_object (value)); break;
    case PROP_LLM: g_set_object (&self->llm, g_value_get_object (value)); break;
    default: break;   /* the numbers are only converted */
    }
}

static void
fuzz_probe_finalize (GObject *object)
{
  FuzzProbe *self = FUZZ_PROBE (object);

  g_free (self->label);
  g_free (self->file);
  g_strfreev (self->names);
  g_clear_object (&self->next);
  g_clear_object (&self->llm);
  G_OBJECT_CLASS (fuzz_probe_parent_class)->finalize (object);
}

static void
fuzz_probe_class_init (FuzzProbeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  GParamSpec *props[N_PROPS] = { NULL, };

  object_class->set_property = fuzz_probe_set_property;
  object_class->finalize = fuzz_probe_finalize;
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
fuzz_probe_init (FuzzProbe *self)
{
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean registered;
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarMethod) method = NULL;
  g_autoptr (GrammarJudgeRunner) judge = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) sections = NULL;

  if (!registered)
    {
      grammar_registry_implement (GRAMMAR_TYPE_MATCHER, FUZZ_TYPE_PROBE, "probe", "Every kind of property");
      registered = TRUE;
    }

  config = grammar_config_new_from_data ((const char *) data, (gssize) size, "/nonexistent", &error);
  if (config == NULL)
    return 0;

  sections = g_key_file_get_groups (grammar_config_get_key_file (config), NULL);
  for (guint i = 0; sections[i] != NULL; i++)
    {
      g_autoptr (GObject) component = NULL;
      g_autoptr (GError) build_error = NULL;

      /* Only sections that name the probe: another plugin may open files or servers. */
      g_autofree char *plugin = g_key_file_get_string (grammar_config_get_key_file (config), sections[i],
                                                       "plugin", NULL);
      if (g_strcmp0 (plugin, "probe") != 0)
        continue;
      component = grammar_config_build (config, sections[i], G_TYPE_INVALID, &build_error);
    }

  method = grammar_method_new (config, &error);
  g_clear_error (&error);
  judge = g_object_new (GRAMMAR_TYPE_JUDGE_RUNNER, NULL);
  grammar_config_configure (config, "judge", G_OBJECT (judge), &error);
  return 0;
}
