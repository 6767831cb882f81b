/* plugins.c: `grammar plugins`, every implementation and its properties
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "grammar-cli.h"

/* A short, human name for the type of a property. */
static char *
describe_type (GParamSpec *pspec)
{
  GType type = pspec->value_type;

  if (type == G_TYPE_STRING)
    return g_strdup ((pspec->flags & GRAMMAR_PARAM_PATH) != 0 ? "path" : "string");
  if (type == G_TYPE_STRV)
    return g_strdup ("string list");
  if (type == G_TYPE_BOOLEAN)
    return g_strdup ("boolean");
  if (G_IS_PARAM_SPEC_INT (pspec))
    return g_strdup_printf ("integer %d…%d", G_PARAM_SPEC_INT (pspec)->minimum, G_PARAM_SPEC_INT (pspec)->maximum);
  if (G_IS_PARAM_SPEC_UINT (pspec))
    return g_strdup_printf ("integer %u…%u", G_PARAM_SPEC_UINT (pspec)->minimum, G_PARAM_SPEC_UINT (pspec)->maximum);
  if (G_IS_PARAM_SPEC_INT64 (pspec))
    return g_strdup_printf ("integer %" G_GINT64_FORMAT "…%" G_GINT64_FORMAT,
                            G_PARAM_SPEC_INT64 (pspec)->minimum, G_PARAM_SPEC_INT64 (pspec)->maximum);
  if (G_IS_PARAM_SPEC_UINT64 (pspec))
    return g_strdup_printf ("integer %" G_GUINT64_FORMAT "…%" G_GUINT64_FORMAT,
                            G_PARAM_SPEC_UINT64 (pspec)->minimum, G_PARAM_SPEC_UINT64 (pspec)->maximum);
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    return g_strdup_printf ("number %g…%g", G_PARAM_SPEC_DOUBLE (pspec)->minimum, G_PARAM_SPEC_DOUBLE (pspec)->maximum);
  if (G_IS_PARAM_SPEC_FLOAT (pspec))
    return g_strdup_printf ("number %g…%g", G_PARAM_SPEC_FLOAT (pspec)->minimum, G_PARAM_SPEC_FLOAT (pspec)->maximum);
  if (G_IS_PARAM_SPEC_ENUM (pspec) || G_IS_PARAM_SPEC_FLAGS (pspec))
    {
      GString *text = g_string_new (G_IS_PARAM_SPEC_ENUM (pspec) ? "one of " : "any of ");

      if (G_IS_PARAM_SPEC_ENUM (pspec))
        {
          GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;

          for (guint i = 0; i < klass->n_values; i++)
            g_string_append_printf (text, "%s%s", i > 0 ? "|" : "", klass->values[i].value_nick);
        }
      else
        {
          GFlagsClass *klass = G_PARAM_SPEC_FLAGS (pspec)->flags_class;

          for (guint i = 0; i < klass->n_values; i++)
            g_string_append_printf (text, "%s%s", i > 0 ? "|" : "", klass->values[i].value_nick);
        }
      return g_string_free (text, FALSE);
    }
  if (g_type_is_a (type, G_TYPE_OBJECT) || G_TYPE_IS_INTERFACE (type))
    {
      const char *interface = grammar_registry_interface_name (type);

      return g_strdup_printf ("section name (%s)", interface != NULL ? interface : g_type_name (type));
    }
  return g_strdup (g_type_name (type));
}

/* The default value as JSON: null when there is none. */
static JsonNode *
default_to_json (GParamSpec *pspec)
{
  const GValue *value = g_param_spec_get_default_value (pspec);
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  if (G_VALUE_HOLDS_STRING (value) && g_value_get_string (value) != NULL)
    json_node_set_string (node, g_value_get_string (value));
  else if (G_VALUE_HOLDS_BOOLEAN (value))
    json_node_set_boolean (node, g_value_get_boolean (value));
  else if (G_VALUE_HOLDS_ENUM (value))
    {
      GEnumValue *nick = g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->enum_class, g_value_get_enum (value));

      json_node_set_string (node, nick != NULL ? nick->value_nick : "");
    }
  else if (G_VALUE_HOLDS_DOUBLE (value) || G_VALUE_HOLDS_FLOAT (value))
    json_node_set_double (node, G_VALUE_HOLDS_DOUBLE (value) ? g_value_get_double (value) : g_value_get_float (value));
  else if (G_VALUE_HOLDS_INT (value) || G_VALUE_HOLDS_UINT (value) || G_VALUE_HOLDS_INT64 (value) ||
           G_VALUE_HOLDS_UINT64 (value) || G_VALUE_HOLDS_LONG (value) || G_VALUE_HOLDS_ULONG (value))
    {
      GValue as_int64 = G_VALUE_INIT;

      g_value_init (&as_int64, G_TYPE_INT64);
      g_value_transform (value, &as_int64);
      json_node_set_int (node, g_value_get_int64 (&as_int64));
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_STRV) && g_value_get_boxed (value) != NULL)
    {
      const char * const *strings = g_value_get_boxed (value);
      JsonArray *array = json_array_new ();

      for (guint i = 0; strings[i] != NULL; i++)
        json_array_add_string_element (array, strings[i]);
      json_node_init_array (node, array);
      json_array_unref (array);
    }
  else
    json_node_init_null (node);
  return node;
}

static char *
default_to_text (GParamSpec *pspec)
{
  g_autoptr (JsonNode) node = default_to_json (pspec);

  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("none");
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup_printf ("“%s”", json_node_get_string (node));
  return grammar_json_to_data (node, 0, NULL);
}

static JsonNode *
plugin_to_json (GrammarPluginInfo *info)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autofree GParamSpec **specs = NULL;
  guint n_specs = 0;

  specs = grammar_plugin_info_list_properties (info, &n_specs);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "interface");
  json_builder_add_string_value (builder, grammar_plugin_info_get_interface_name (info));
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, grammar_plugin_info_get_name (info));
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, grammar_plugin_info_get_description (info));
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, g_type_name (grammar_plugin_info_get_gtype (info)));
  json_builder_set_member_name (builder, "properties");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_specs; i++)
    {
      GParamSpec *pspec = specs[i];
      const char *blurb = g_param_spec_get_blurb (pspec);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, pspec->name);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, g_type_name (pspec->value_type));
      json_builder_set_member_name (builder, "default");
      json_builder_add_value (builder, default_to_json (pspec));
      json_builder_set_member_name (builder, "blurb");
      json_builder_add_string_value (builder, blurb != NULL ? blurb : "");
      json_builder_set_member_name (builder, "path");
      json_builder_add_boolean_value (builder, (pspec->flags & GRAMMAR_PARAM_PATH) != 0);
      if (G_IS_PARAM_SPEC_ENUM (pspec))
        {
          GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;

          json_builder_set_member_name (builder, "enum_values");
          json_builder_begin_array (builder);
          for (guint j = 0; j < klass->n_values; j++)
            json_builder_add_string_value (builder, klass->values[j].value_nick);
          json_builder_end_array (builder);
        }
      else if (G_IS_PARAM_SPEC_FLAGS (pspec))
        {
          GFlagsClass *klass = G_PARAM_SPEC_FLAGS (pspec)->flags_class;

          json_builder_set_member_name (builder, "enum_values");
          json_builder_begin_array (builder);
          for (guint j = 0; j < klass->n_values; j++)
            json_builder_add_string_value (builder, klass->values[j].value_nick);
          json_builder_end_array (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static void
print_plugin (GrammarPluginInfo *info)
{
  g_autofree GParamSpec **specs = NULL;
  guint n_specs = 0;
  int width = 0;

  specs = grammar_plugin_info_list_properties (info, &n_specs);
  printf ("  %s — %s\n", grammar_plugin_info_get_name (info), grammar_plugin_info_get_description (info));
  for (guint i = 0; i < n_specs; i++)
    width = MAX (width, (int) strlen (specs[i]->name));
  for (guint i = 0; i < n_specs; i++)
    {
      g_autofree char *type = describe_type (specs[i]);
      g_autofree char *default_text = default_to_text (specs[i]);
      const char *blurb = g_param_spec_get_blurb (specs[i]);

      printf ("      %-*s  %s, default %s\n", width, specs[i]->name, type, default_text);
      if (blurb != NULL && blurb[0] != '\0')
        printf ("      %-*s  %s\n", width, "", blurb);
    }
}

static void
print_text (GrammarRegistry *registry,
            GType            only)
{
  const char * const *path = grammar_registry_get_search_path (registry);
  const GType *interfaces;
  guint n_interfaces = 0;

  printf ("Plugin folders, searched in order:\n");
  for (guint i = 0; path[i] != NULL; i++)
    printf ("  %s%s\n", path[i], g_file_test (path[i], G_FILE_TEST_IS_DIR) ? "" : "  (missing)");

  interfaces = grammar_registry_get_interfaces (&n_interfaces);
  for (guint i = 0; i < n_interfaces; i++)
    {
      g_autoptr (GPtrArray) infos = NULL;

      if (only != G_TYPE_INVALID && interfaces[i] != only)
        continue;
      infos = grammar_registry_list_plugins (registry, interfaces[i]);
      printf ("\n%s (%s):\n", grammar_registry_interface_name (interfaces[i]), g_type_name (interfaces[i]));
      if (infos->len == 0)
        printf ("  none installed\n");
      for (guint j = 0; j < infos->len; j++)
        print_plugin (g_ptr_array_index (infos, j));
    }
}

static void
print_json (GrammarRegistry *registry,
            GType            only)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (GPtrArray) infos = grammar_registry_list_plugins (registry, only);
  g_autoptr (JsonNode) root = NULL;
  const char * const *path = grammar_registry_get_search_path (registry);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "search_path");
  json_builder_begin_array (builder);
  for (guint i = 0; path[i] != NULL; i++)
    json_builder_add_string_value (builder, path[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "plugins");
  json_builder_begin_array (builder);
  for (guint i = 0; i < infos->len; i++)
    json_builder_add_value (builder, plugin_to_json (g_ptr_array_index (infos, i)));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  grammar_cli_print_json (root);
}

int
grammar_cli_plugins (int    argc,
                     char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autofree char *interface_name = NULL;
  gboolean as_json = FALSE;
  GType only = G_TYPE_INVALID;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, "Print JSON (schemas/plugins.schema.json)", NULL },
    { "interface", 'i', 0, G_OPTION_ARG_STRING, &interface_name,
      "Only this interface: database, llm, retriever, matcher, metric or system", "NAME" },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— list every plugin");
  g_option_context_set_summary (context,
    "Lists every implementation of GRAMMAR's interfaces, found in GRAMMAR_PLUGIN_PATH and\n"
    "the installed plugins folder, with its description and the properties a keyfile\n"
    "section can set (type, default, description).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "plugins", &argc, &argv, &status))
    return status;
  if (argc > 1)
    {
      fprintf (stderr, "grammar plugins: unexpected argument “%s”\n", argv[1]);
      return GRAMMAR_EXIT_USAGE;
    }
  if (interface_name != NULL)
    {
      only = grammar_registry_interface_from_name (interface_name);
      if (only == G_TYPE_INVALID)
        {
          fprintf (stderr, "grammar plugins: unknown interface “%s”; use database, llm, retriever, matcher, metric or system\n",
                   interface_name);
          return GRAMMAR_EXIT_USAGE;
        }
    }

  if (as_json)
    print_json (grammar_registry_get_default (), only);
  else
    print_text (grammar_registry_get_default (), only);
  return GRAMMAR_EXIT_OK;
}
