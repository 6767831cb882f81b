/* grammar-plugin-info.c: what the registry knows of one plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-plugin-info.h"

/**
 * GrammarPluginInfo:
 *
 * One implementation of a GRAMMAR interface, as a plugin module
 * registered it: the interface it implements, its short name (the value
 * of `plugin=` in a keyfile), a one-line description and its type, from
 * which the configurable properties are listed.
 */
struct _GrammarPluginInfo
{
  GObject parent_instance;

  GType interface_type;
  char *interface_name;
  GType gtype;
  char *name;
  char *description;
  GTypeClass *klass;  /* held once properties are listed: keeps the module loaded */
};

G_DEFINE_FINAL_TYPE (GrammarPluginInfo, grammar_plugin_info, G_TYPE_OBJECT)

static void
grammar_plugin_info_finalize (GObject *object)
{
  GrammarPluginInfo *self = GRAMMAR_PLUGIN_INFO (object);

  g_free (self->interface_name);
  g_free (self->name);
  g_free (self->description);
  g_clear_pointer (&self->klass, g_type_class_unref);

  G_OBJECT_CLASS (grammar_plugin_info_parent_class)->finalize (object);
}

static void
grammar_plugin_info_class_init (GrammarPluginInfoClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_plugin_info_finalize;
}

static void
grammar_plugin_info_init (GrammarPluginInfo *self)
{
}

/**
 * grammar_plugin_info_new:
 * @interface_type: the GRAMMAR interface implemented
 * @interface_name: the short name of @interface_type, as
 *   grammar_registry_interface_name() gives it
 * @implementation_type: the implementing type
 * @name: the short name used by `plugin=`
 * @description: (nullable): a one-line description
 *
 * Returns: (transfer full): a new #GrammarPluginInfo
 */
GrammarPluginInfo *
grammar_plugin_info_new (GType       interface_type,
                         const char *interface_name,
                         GType       implementation_type,
                         const char *name,
                         const char *description)
{
  GrammarPluginInfo *self;

  g_return_val_if_fail (interface_name != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_PLUGIN_INFO, NULL);
  self->interface_type = interface_type;
  self->interface_name = g_strdup (interface_name);
  self->gtype = implementation_type;
  self->name = g_strdup (name);
  self->description = g_strdup (description != NULL ? description : "");
  return self;
}

/**
 * grammar_plugin_info_get_interface_type:
 * @self: a #GrammarPluginInfo
 *
 * Returns: the interface the plugin implements, such as #GrammarDatabase
 */
GType
grammar_plugin_info_get_interface_type (GrammarPluginInfo *self)
{
  g_return_val_if_fail (GRAMMAR_IS_PLUGIN_INFO (self), G_TYPE_INVALID);
  return self->interface_type;
}

/**
 * grammar_plugin_info_get_interface_name:
 * @self: a #GrammarPluginInfo
 *
 * Returns: the short name of the interface: `database`, `llm`, `retriever`, `matcher`, `metric` or `system`
 */
const char *
grammar_plugin_info_get_interface_name (GrammarPluginInfo *self)
{
  g_return_val_if_fail (GRAMMAR_IS_PLUGIN_INFO (self), NULL);
  return self->interface_name;
}

/**
 * grammar_plugin_info_get_gtype:
 * @self: a #GrammarPluginInfo
 *
 * Returns: the implementing type
 */
GType
grammar_plugin_info_get_gtype (GrammarPluginInfo *self)
{
  g_return_val_if_fail (GRAMMAR_IS_PLUGIN_INFO (self), G_TYPE_INVALID);
  return self->gtype;
}

/**
 * grammar_plugin_info_get_name:
 * @self: a #GrammarPluginInfo
 *
 * Returns: the short name, the value of `plugin=` in a keyfile
 */
const char *
grammar_plugin_info_get_name (GrammarPluginInfo *self)
{
  g_return_val_if_fail (GRAMMAR_IS_PLUGIN_INFO (self), NULL);
  return self->name;
}

/**
 * grammar_plugin_info_get_description:
 * @self: a #GrammarPluginInfo
 *
 * Returns: the one-line description, possibly empty
 */
const char *
grammar_plugin_info_get_description (GrammarPluginInfo *self)
{
  g_return_val_if_fail (GRAMMAR_IS_PLUGIN_INFO (self), NULL);
  return self->description;
}

/**
 * grammar_plugin_info_list_properties:
 * @self: a #GrammarPluginInfo
 * @n_properties: (out): the number of properties returned
 *
 * Lists the properties a keyfile can set: the writable properties of the
 * plugin type, in the order the plugin installed them. Loads the plugin
 * module if needed and keeps it loaded while @self lives.
 *
 * Returns: (transfer container) (array length=n_properties): the property specifications
 */
GParamSpec **
grammar_plugin_info_list_properties (GrammarPluginInfo *self,
                                     guint             *n_properties)
{
  g_autofree GParamSpec **all = NULL;
  GPtrArray *writable = g_ptr_array_new ();
  guint n_all = 0;

  g_return_val_if_fail (GRAMMAR_IS_PLUGIN_INFO (self), NULL);
  g_return_val_if_fail (n_properties != NULL, NULL);

  if (self->klass == NULL)
    self->klass = g_type_class_ref (self->gtype);
  all = g_object_class_list_properties (G_OBJECT_CLASS (self->klass), &n_all);
  for (guint i = 0; i < n_all; i++)
    if ((all[i]->flags & G_PARAM_WRITABLE) != 0 && all[i]->owner_type != G_TYPE_OBJECT)
      g_ptr_array_add (writable, all[i]);

  *n_properties = writable->len;
  g_ptr_array_add (writable, NULL);
  return (GParamSpec **) g_ptr_array_free (writable, FALSE);
}
