/* generator.c: choosing a SQL generator or a verbalizer on the command line
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "grammar-cli.h"

/* The plugin names of @interface_type, @default_name first: "schema or
 * llm". */
static char *
describe_names (GType       interface_type,
                const char *default_name)
{
  g_autoptr (GPtrArray) infos = grammar_registry_list_plugins (grammar_registry_get_default (), interface_type);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GString *text = g_string_new (NULL);

  g_ptr_array_add (names, (gpointer) default_name);
  for (guint i = 0; i < infos->len; i++)
    {
      const char *name = grammar_plugin_info_get_name (g_ptr_array_index (infos, i));

      if (!g_str_equal (name, default_name))
        g_ptr_array_add (names, (gpointer) name);
    }
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (text, "%s%s", i == 0 ? "" : i + 1 == names->len ? " or " : ", ",
                            (const char *) g_ptr_array_index (names, i));
  return g_string_free (text, FALSE);
}

/* Whether @name (from --generator) names a plugin of @interface_type;
 * otherwise prints the usage error of @command. */
gboolean
grammar_cli_check_generator (const char *command,
                             GType       interface_type,
                             const char *name,
                             const char *default_name)
{
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autofree char *names = NULL;

  info = grammar_registry_lookup (grammar_registry_get_default (), interface_type, name, NULL);
  if (info != NULL)
    return TRUE;
  names = describe_names (interface_type, default_name);
  fprintf (stderr, "grammar %s: unknown generator “%s”: use %s\nRun “grammar %s --help” for the options.\n",
           command, name, names, command);
  return FALSE;
}

/* The name of the plugin @object is, for messages. */
const char *
grammar_cli_plugin_name (GType    interface_type,
                         GObject *object)
{
  g_autoptr (GPtrArray) infos = grammar_registry_list_plugins (grammar_registry_get_default (), interface_type);

  for (guint i = 0; i < infos->len; i++)
    if (grammar_plugin_info_get_gtype (g_ptr_array_index (infos, i)) == G_OBJECT_TYPE (object))
      return g_intern_string (grammar_plugin_info_get_name (g_ptr_array_index (infos, i)));
  return G_OBJECT_TYPE_NAME (object);
}
