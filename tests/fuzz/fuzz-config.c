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
#include "grammar-test-probe.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GrammarConfig) config = NULL;
  g_autoptr (GrammarMethod) method = NULL;
  g_autoptr (GrammarJudgeRunner) judge = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) sections = NULL;

  grammar_test_probe_register ();

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
