/* grammar-config-check.c: checking the sections of a keyfile without building them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-config-private.h"
#include "grammar-error.h"
#include "grammar-registry.h"

/* Checking without building ----------------------------------------------- */

/* What grammar_config_check_section() found: the problems, the plugin of
 * every section it could read, the path values. Nothing is built: plugin
 * classes are looked at, not instantiated, so a check neither opens a
 * database nor asks a model. */

static void
config_path_free (GrammarConfigPath *path)
{
  g_free (path->section);
  g_free (path->key);
  g_free (path->path);
  g_free (path);
}

GrammarConfigCheck *
grammar_config_check_new (void)
{
  GrammarConfigCheck *check = g_new0 (GrammarConfigCheck, 1);

  check->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  check->plugins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_object_unref);
  check->failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  check->paths = g_ptr_array_new_with_free_func ((GDestroyNotify) config_path_free);
  return check;
}

void
grammar_config_check_free (GrammarConfigCheck *check)
{
  g_ptr_array_unref (check->problems);
  g_hash_table_unref (check->plugins);
  g_hash_table_unref (check->failed);
  g_ptr_array_unref (check->paths);
  g_free (check);
}

static void
add_problem (GrammarConfigCheck *check,
             GError             *error)
{
  if (error != NULL)
    g_ptr_array_add (check->problems, error);
}

static void check_section (GrammarConfig      *self,
                           const char         *section,
                           GType               wanted_type,
                           const char         *from_section,
                           const char         *from_key,
                           GrammarConfigCheck *check);

/* One key of @section for @pspec: converted into a scratch value, or the
 * section it names checked in turn. */
static void
check_key (GrammarConfig      *self,
           GObjectClass       *klass,
           GParamSpec         *pspec,
           const char         *section,
           const char         *key,
           GrammarConfigCheck *check)
{
  g_auto (GValue) scratch = G_VALUE_INIT;
  GError *error = NULL;
  GType type = pspec->value_type;

  if (G_TYPE_FUNDAMENTAL (type) == G_TYPE_OBJECT || G_TYPE_FUNDAMENTAL (type) == G_TYPE_INTERFACE)
    {
      g_autofree char *text = g_key_file_get_string (self->key_file, section, key, NULL);

      if (text != NULL && *g_strstrip (text) != '\0')
        check_section (self, text, type, section, key, check);
      return;
    }
  if (!grammar_config_convert_key_full (self, klass, &pspec, section, key, TRUE, &scratch, &error))
    {
      add_problem (check, error);
      return;
    }
  if ((pspec->flags & GRAMMAR_PARAM_PATH) != 0 && G_VALUE_HOLDS_STRING (&scratch) &&
      g_value_get_string (&scratch) != NULL && g_value_get_string (&scratch)[0] != '\0')
    {
      GrammarConfigPath *path = g_new0 (GrammarConfigPath, 1);

      path->section = g_strdup (section);
      path->key = g_strdup (key);
      path->property = pspec->name;
      path->path = g_value_dup_string (&scratch);
      g_ptr_array_add (check->paths, path);
    }
}

static void
check_plugin_keys (GrammarConfig      *self,
                   const char         *section,
                   GrammarPluginInfo  *info,
                   GrammarConfigCheck *check)
{
  g_autoptr (GTypeClass) klass = g_type_class_ref (grammar_plugin_info_get_gtype (info));
  g_autofree char *owner = g_strdup_printf ("%s plugin “%s”", grammar_plugin_info_get_interface_name (info),
                                            grammar_plugin_info_get_name (info));
  g_autoptr (GPtrArray) named = g_ptr_array_new ();
  g_auto (GStrv) keys = g_key_file_get_keys (self->key_file, section, NULL, NULL);
  g_autofree GParamSpec **pspecs = NULL;
  GHashTable *overrides = g_hash_table_lookup (self->overrides, section);
  guint n_pspecs = 0;

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      GError *error = NULL;
      GParamSpec *pspec;

      if (g_str_equal (keys[i], "plugin"))
        continue;
      pspec = grammar_config_find_key_property (self, G_OBJECT_CLASS (klass), section, keys[i], owner, "plugin, ", 0, &error);
      if (pspec == NULL)
        {
          add_problem (check, error);
          continue;
        }
      g_ptr_array_add (named, (gpointer) pspec->name);
      /* a value given by the program wins over the key's */
      if (overrides == NULL || !g_hash_table_contains (overrides, pspec->name))
        check_key (self, G_OBJECT_CLASS (klass), pspec, section, keys[i], check);
    }
  pspecs = g_object_class_list_properties (G_OBJECT_CLASS (klass), &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    {
      const char *wanted = grammar_param_spec_get_default_section (pspecs[i]);
      gboolean given = FALSE;

      if (wanted == NULL || !g_key_file_has_group (self->key_file, wanted) || g_str_equal (wanted, section))
        continue;
      for (guint j = 0; j < named->len; j++)
        given |= g_str_equal (g_ptr_array_index (named, j), pspecs[i]->name);
      if (!given)
        check_section (self, wanted, pspecs[i]->value_type, section, pspecs[i]->name, check);
    }
  if (overrides != NULL)
    {
      GHashTableIter iter;
      gpointer property;

      g_hash_table_iter_init (&iter, overrides);
      while (g_hash_table_iter_next (&iter, &property, NULL))
        {
          GError *error = NULL;

          if (grammar_config_find_key_property (self, G_OBJECT_CLASS (klass), section, property, owner, "plugin, ", 0,
                                 &error) == NULL)
            add_problem (check, error);
        }
    }
}

static void
check_section (GrammarConfig      *self,
               const char         *section,
               GType               wanted_type,
               const char         *from_section,
               const char         *from_key,
               GrammarConfigCheck *check)
{
  GrammarPluginInfo *known = g_hash_table_lookup (check->plugins, section);
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autofree char *plugin = NULL;
  GError *error = NULL;

  if (known != NULL)
    {
      GType type = grammar_plugin_info_get_gtype (known);

      if (wanted_type != G_TYPE_INVALID && !g_type_is_a (type, wanted_type))
        grammar_config_set_error (self, &error, GRAMMAR_CONFIG_ERROR_WRONG_INTERFACE, from_section, from_key,
                   "section [%s] is a %s, not a %s", section, g_type_name (type),
                   grammar_registry_interface_name (wanted_type) != NULL
                     ? grammar_registry_interface_name (wanted_type) : g_type_name (wanted_type));
      add_problem (check, error);
      return;
    }
  if (grammar_config_is_building (self, section))
    {
      g_autofree char *cycle = grammar_config_describe_cycle (self, section);

      grammar_config_set_error (self, &error, GRAMMAR_CONFIG_ERROR_CYCLE, from_section, from_key,
                 "sections refer to each other in a cycle: %s", cycle);
      add_problem (check, error);
      return;
    }
  if (g_hash_table_contains (check->failed, section))
    return;  /* told once */
  if (!g_key_file_has_group (self->key_file, section))
    {
      if (from_section != NULL)
        grammar_config_set_error (self, &error, GRAMMAR_CONFIG_ERROR_MISSING_SECTION, from_section, from_key,
                   "there is no section [%s]", section);
      else
        grammar_config_set_error (self, &error, GRAMMAR_CONFIG_ERROR_MISSING_SECTION, NULL, NULL,
                   "there is no section [%s]; add one with plugin= and its keys", section);
      add_problem (check, error);
      return;
    }
  g_hash_table_add (check->failed, g_strdup (section));
  plugin = g_key_file_get_string (self->key_file, section, "plugin", NULL);
  if (plugin == NULL || *g_strstrip (plugin) == '\0')
    {
      /* what grammar_config_build_section() says, with the plugins there are */
      g_autoptr (GObject) none = grammar_config_build_section (self, section, wanted_type, from_section, from_key, &error);

      add_problem (check, error);
      return;
    }
  info = grammar_config_find_plugin (self, section, plugin, wanted_type, &error);
  if (info == NULL)
    {
      add_problem (check, error);
      return;
    }
  g_ptr_array_add (self->building, g_strdup (section));
  check_plugin_keys (self, section, info, check);
  g_ptr_array_remove_index (self->building, self->building->len - 1);
  g_hash_table_remove (check->failed, section);
  g_hash_table_insert (check->plugins, g_strdup (section), g_steal_pointer (&info));
}

/* Checks @section as grammar_config_build() would build it, and every
 * section it names, adding what is wrong to @check. */
void
grammar_config_check_section (GrammarConfig      *self,
                              const char         *section,
                              GType               wanted_type,
                              GrammarConfigCheck *check)
{
  g_return_if_fail (GRAMMAR_IS_CONFIG (self));
  g_return_if_fail (section != NULL && check != NULL);

  check_section (self, section, wanted_type, NULL, NULL, check);
}

/* Checks the keys of @section as grammar_config_configure() would set
 * them on an object of @type (which must not be a #GrammarConfigurable:
 * its own keys need the object). */
void
grammar_config_check_keys (GrammarConfig      *self,
                           const char         *section,
                           GType               type,
                           GrammarConfigCheck *check)
{
  g_autoptr (GTypeClass) klass = NULL;
  g_autoptr (GObject) object = NULL;
  g_auto (GStrv) keys = NULL;

  g_return_if_fail (GRAMMAR_IS_CONFIG (self));
  g_return_if_fail (section != NULL && check != NULL);

  if (!g_key_file_has_group (self->key_file, section))
    return;
  klass = g_type_class_ref (type);
  keys = g_key_file_get_keys (self->key_file, section, NULL, NULL);
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_CLASS (klass), keys[i]);
      GError *error = NULL;

      if (pspec == NULL || (pspec->flags & G_PARAM_WRITABLE) == 0 || (pspec->flags & G_PARAM_CONSTRUCT_ONLY) != 0)
        {
          g_autofree char *known = NULL;

          if (object == NULL)
            object = g_object_new (type, NULL);
          known = grammar_config_describe_section_keys (object);
          grammar_config_set_error (self, &error, GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY, section, keys[i],
                     "unknown key; the keys of this section are %s", known);
          add_problem (check, error);
          continue;
        }
      check_key (self, G_OBJECT_CLASS (klass), pspec, section, keys[i], check);
    }
}

/* The plugin @section names, once grammar_config_check_section() read it. */
GrammarPluginInfo *
grammar_config_check_lookup (GrammarConfigCheck *check,
                             const char         *section)
{
  return g_hash_table_lookup (check->plugins, section);
}

