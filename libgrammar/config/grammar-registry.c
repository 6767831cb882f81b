/* grammar-registry.c: plugins, found and loaded
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-database.h"
#include "grammar-config.h"
#include "grammar-error.h"
#include "grammar-llm.h"
#include "grammar-matcher.h"
#include "grammar-metric.h"
#include "grammar-registry.h"
#include "grammar-retriever.h"
#include "grammar-llm-sql-generator.h"
#include "grammar-llm-verbalizer.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-schema-generator.h"
#include "grammar-sql-generator.h"
#include "grammar-system.h"
#include "grammar-verbalizer.h"

/**
 * GrammarRegistry:
 *
 * The plugins that implement GRAMMAR's interfaces. Each interface is a
 * GIO extension point (`grammar-database`, `grammar-llm`,
 * `grammar-retriever`, `grammar-matcher`, `grammar-metric`,
 * `grammar-system`, `grammar-sql-generator`, `grammar-verbalizer`)
 * whose required type is the interface. The generators of the library
 * itself (`schema` and `llm` SQL generators, `rules` and `llm`
 * verbalizers) are registered with the first registry. Plugin
 * modules are GIO modules: shared objects named `lib*.so` that export
 * `g_io_module_load()`, `g_io_module_unload()` and `g_io_module_query()`,
 * register their types with G_DEFINE_DYNAMIC_TYPE() and call
 * grammar_registry_implement() for each.
 *
 * The default registry loads, in this order, every folder of the
 * colon-separated `GRAMMAR_PLUGIN_PATH` environment variable and then the
 * installed plugins folder (the `pluginsdir` variable of the `grammar-1`
 * pkg-config file). A module whose file name was already loaded from an
 * earlier folder is skipped, so a folder in `GRAMMAR_PLUGIN_PATH`
 * overrides an installed module of the same name. Loaded modules stay
 * loaded for the life of the process.
 */
struct _GrammarRegistry
{
  GObject parent_instance;

  GIOModuleScope *scope;
  GList *modules;        /* GIOModule, each kept in use */
  GPtrArray *search_path;
};

G_DEFINE_FINAL_TYPE (GrammarRegistry, grammar_registry, G_TYPE_OBJECT)

/* The registry is the one piece of global state: which interfaces exist,
 * the descriptions plugins gave, and the default instance. */
static GMutex descriptions_lock;
static GHashTable *descriptions;  /* GType → char* */

static const struct
{
  const char *name;
  GType (*get_type) (void);
} interfaces[] = {
  { "database", grammar_database_get_type },
  { "llm", grammar_llm_get_type },
  { "retriever", grammar_retriever_get_type },
  { "matcher", grammar_matcher_get_type },
  { "metric", grammar_metric_get_type },
  { "system", grammar_system_get_type },
  { "sql-generator", grammar_sql_generator_get_type },
  { "verbalizer", grammar_verbalizer_get_type },
};

static GType interface_types[G_N_ELEMENTS (interfaces)];

static void
ensure_extension_points (void)
{
  static gsize initialised = 0;

  if (g_once_init_enter (&initialised))
    {
      for (guint i = 0; i < G_N_ELEMENTS (interfaces); i++)
        {
          g_autofree char *point_name = g_strconcat ("grammar-", interfaces[i].name, NULL);
          GIOExtensionPoint *point = g_io_extension_point_register (point_name);

          interface_types[i] = interfaces[i].get_type ();
          g_io_extension_point_set_required_type (point, interface_types[i]);
        }
      g_once_init_leave (&initialised, 1);
    }
}

static int
interface_index (GType interface_type)
{
  ensure_extension_points ();
  for (guint i = 0; i < G_N_ELEMENTS (interfaces); i++)
    if (interface_types[i] == interface_type)
      return (int) i;
  return -1;
}

static char *
extension_point_name (GType interface_type)
{
  int index = interface_index (interface_type);

  return index < 0 ? NULL : g_strconcat ("grammar-", interfaces[index].name, NULL);
}

static GIOExtensionPoint *
extension_point_for (GType interface_type)
{
  g_autofree char *point_name = extension_point_name (interface_type);

  return point_name != NULL ? g_io_extension_point_lookup (point_name) : NULL;
}

static void
grammar_registry_finalize (GObject *object)
{
  GrammarRegistry *self = GRAMMAR_REGISTRY (object);

  for (GList *l = self->modules; l != NULL; l = l->next)
    g_type_module_unuse (G_TYPE_MODULE (l->data));
  g_list_free (self->modules);
  g_io_module_scope_free (self->scope);
  g_ptr_array_unref (self->search_path);

  G_OBJECT_CLASS (grammar_registry_parent_class)->finalize (object);
}

static void
grammar_registry_class_init (GrammarRegistryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_registry_finalize;
}

/* The implementations libgrammar itself holds. */
static void
register_builtins (void)
{
  static gsize registered = 0;

  if (!g_once_init_enter (&registered))
    return;
  grammar_registry_implement (GRAMMAR_TYPE_SQL_GENERATOR, GRAMMAR_TYPE_SCHEMA_GENERATOR, "schema",
                              "SQL templates from the schema and the data, without a language model");
  grammar_registry_implement (GRAMMAR_TYPE_SQL_GENERATOR, GRAMMAR_TYPE_LLM_SQL_GENERATOR, "llm",
                              "SQL templates proposed by a language model (llm=SECTION)");
  grammar_registry_implement (GRAMMAR_TYPE_VERBALIZER, GRAMMAR_TYPE_RULE_VERBALIZER, "rules",
                              "Text templates from sentence frames and the schema's names, without a language model");
  grammar_registry_implement (GRAMMAR_TYPE_VERBALIZER, GRAMMAR_TYPE_LLM_VERBALIZER, "llm",
                              "Text templates written by a language model (llm=SECTION)");
  g_once_init_leave (&registered, 1);
}

static void
grammar_registry_init (GrammarRegistry *self)
{
  ensure_extension_points ();
  register_builtins ();
  self->scope = g_io_module_scope_new (G_IO_MODULE_SCOPE_BLOCK_DUPLICATES);
  self->search_path = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->search_path, NULL);
}

/**
 * grammar_registry_get_default:
 *
 * Returns the process-wide registry, loading the plugin modules of
 * `GRAMMAR_PLUGIN_PATH` and of the installed plugins folder the first
 * time it is called.
 *
 * Returns: (transfer none): the default registry
 */
GrammarRegistry *
grammar_registry_get_default (void)
{
  static GrammarRegistry *default_registry;

  if (g_once_init_enter (&default_registry))
    {
      GrammarRegistry *registry = g_object_new (GRAMMAR_TYPE_REGISTRY, NULL);
      const char *path = g_getenv ("GRAMMAR_PLUGIN_PATH");

      if (path != NULL)
        {
          g_auto (GStrv) folders = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);

          for (guint i = 0; folders[i] != NULL; i++)
            if (folders[i][0] != '\0')
              grammar_registry_load_directory (registry, folders[i]);
        }
      grammar_registry_load_directory (registry, GRAMMAR_PLUGINSDIR);

      g_once_init_leave (&default_registry, registry);
    }
  return default_registry;
}

/**
 * grammar_registry_load_directory:
 * @self: a #GrammarRegistry
 * @directory: (type filename): a folder of plugin modules
 *
 * Loads every plugin module in @directory that was not loaded before (by
 * file name) and adds the folder to the search path. A folder that does
 * not exist is only added to the search path.
 */
void
grammar_registry_load_directory (GrammarRegistry *self,
                                 const char      *directory)
{
  g_return_if_fail (GRAMMAR_IS_REGISTRY (self));
  g_return_if_fail (directory != NULL);

  g_ptr_array_insert (self->search_path, self->search_path->len - 1, g_strdup (directory));
  if (g_file_test (directory, G_FILE_TEST_IS_DIR))
    self->modules = g_list_concat (self->modules,
                                   g_io_modules_load_all_in_directory_with_scope (directory, self->scope));
}

/**
 * grammar_registry_get_search_path:
 * @self: a #GrammarRegistry
 *
 * Returns: (transfer none) (array zero-terminated=1): the folders searched for modules, in order
 */
const char * const *
grammar_registry_get_search_path (GrammarRegistry *self)
{
  g_return_val_if_fail (GRAMMAR_IS_REGISTRY (self), NULL);
  return (const char * const *) self->search_path->pdata;
}

/**
 * grammar_registry_implement:
 * @interface_type: the GRAMMAR interface, such as %GRAMMAR_TYPE_DATABASE
 * @implementation_type: a type implementing it
 * @name: the short name a keyfile's `plugin=` uses
 * @description: a one-line description, shown by `grammar plugins`
 *
 * Registers an implementation. Plugin modules call this from
 * `g_io_module_load()`, once per type they provide:
 *
 * ```c
 * void
 * g_io_module_load (GIOModule *module)
 * {
 *   my_database_register_type (G_TYPE_MODULE (module));
 *   grammar_registry_implement (GRAMMAR_TYPE_DATABASE, MY_TYPE_DATABASE,
 *                               "mine", "My own database");
 * }
 * ```
 */
void
grammar_registry_implement (GType       interface_type,
                            GType       implementation_type,
                            const char *name,
                            const char *description)
{
  g_autofree char *point_name = NULL;

  g_return_if_fail (name != NULL);
  g_return_if_fail (g_type_is_a (implementation_type, interface_type));

  point_name = extension_point_name (interface_type);
  g_return_if_fail (point_name != NULL);

  g_io_extension_point_implement (point_name, implementation_type, name, 0);

  g_mutex_lock (&descriptions_lock);
  if (descriptions == NULL)
    descriptions = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_hash_table_replace (descriptions, GSIZE_TO_POINTER (implementation_type),
                        g_strdup (description != NULL ? description : ""));
  g_mutex_unlock (&descriptions_lock);
}

/**
 * grammar_registry_get_interfaces:
 * @n_interfaces: (out): the number of interfaces
 *
 * Returns: (transfer none) (array length=n_interfaces): the GRAMMAR interfaces plugins can implement
 */
const GType *
grammar_registry_get_interfaces (guint *n_interfaces)
{
  g_return_val_if_fail (n_interfaces != NULL, NULL);

  ensure_extension_points ();
  *n_interfaces = G_N_ELEMENTS (interface_types);
  return interface_types;
}

/**
 * grammar_registry_interface_name:
 * @interface_type: a GRAMMAR interface
 *
 * Returns: (nullable): its short name (`database`, `llm`, `retriever`,
 *   `matcher`, `metric`, `system`), or %NULL for another type
 */
const char *
grammar_registry_interface_name (GType interface_type)
{
  int index = interface_index (interface_type);

  return index < 0 ? NULL : interfaces[index].name;
}

/**
 * grammar_registry_interface_from_name:
 * @name: a short interface name such as `database`
 *
 * Returns: the interface type, or %G_TYPE_INVALID when @name is none
 */
GType
grammar_registry_interface_from_name (const char *name)
{
  g_return_val_if_fail (name != NULL, G_TYPE_INVALID);

  ensure_extension_points ();
  for (guint i = 0; i < G_N_ELEMENTS (interfaces); i++)
    if (g_str_equal (interfaces[i].name, name))
      return interface_types[i];
  return G_TYPE_INVALID;
}

static GrammarPluginInfo *
info_from_extension (GType        interface_type,
                     GIOExtension *extension)
{
  GType type = g_io_extension_get_type (extension);
  const char *description;

  g_mutex_lock (&descriptions_lock);
  description = descriptions != NULL ? g_hash_table_lookup (descriptions, GSIZE_TO_POINTER (type)) : NULL;
  g_mutex_unlock (&descriptions_lock);

  return grammar_plugin_info_new (interface_type, grammar_registry_interface_name (interface_type),
                                  type, g_io_extension_get_name (extension), description);
}

static int
compare_infos (gconstpointer a,
               gconstpointer b)
{
  GrammarPluginInfo *info_a = *(GrammarPluginInfo **) a;
  GrammarPluginInfo *info_b = *(GrammarPluginInfo **) b;
  int by_interface = interface_index (grammar_plugin_info_get_interface_type (info_a)) -
                     interface_index (grammar_plugin_info_get_interface_type (info_b));

  if (by_interface != 0)
    return by_interface;
  return g_strcmp0 (grammar_plugin_info_get_name (info_a), grammar_plugin_info_get_name (info_b));
}

/**
 * grammar_registry_list_plugins:
 * @self: a #GrammarRegistry
 * @interface_type: a GRAMMAR interface, or %G_TYPE_INVALID for all of them
 *
 * Lists the registered implementations, by interface and then by name.
 *
 * Returns: (transfer container) (element-type GrammarPluginInfo): the plugins
 */
GPtrArray *
grammar_registry_list_plugins (GrammarRegistry *self,
                               GType            interface_type)
{
  GPtrArray *infos = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (GRAMMAR_IS_REGISTRY (self), infos);

  for (guint i = 0; i < G_N_ELEMENTS (interfaces); i++)
    {
      GIOExtensionPoint *point;

      if (interface_type != G_TYPE_INVALID && interface_types[i] != interface_type)
        continue;
      point = extension_point_for (interface_types[i]);
      for (GList *l = g_io_extension_point_get_extensions (point); l != NULL; l = l->next)
        g_ptr_array_add (infos, info_from_extension (interface_types[i], l->data));
    }
  g_ptr_array_sort (infos, compare_infos);
  return infos;
}

/**
 * grammar_registry_list_all_plugins:
 * @self: a #GrammarRegistry
 *
 * Lists the implementations of every interface, by interface and then by
 * name: grammar_registry_list_plugins() with %G_TYPE_INVALID, for
 * bindings that cannot pass an invalid type.
 *
 * Returns: (transfer container) (element-type GrammarPluginInfo): the plugins
 */
GPtrArray *
grammar_registry_list_all_plugins (GrammarRegistry *self)
{
  return grammar_registry_list_plugins (self, G_TYPE_INVALID);
}

/**
 * grammar_registry_lookup:
 * @self: a #GrammarRegistry
 * @interface_type: a GRAMMAR interface
 * @name: a plugin name
 * @error: return location for a #GError
 *
 * Finds the implementation of @interface_type called @name. When there
 * is none, the %GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN error lists the
 * names that exist.
 *
 * Returns: (transfer full) (nullable): the plugin, or %NULL with @error set
 */
GrammarPluginInfo *
grammar_registry_lookup (GrammarRegistry  *self,
                         GType             interface_type,
                         const char       *name,
                         GError          **error)
{
  GIOExtensionPoint *point;
  GIOExtension *extension;
  g_autoptr (GPtrArray) available = NULL;
  g_autoptr (GString) names = NULL;

  g_return_val_if_fail (GRAMMAR_IS_REGISTRY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  point = extension_point_for (interface_type);
  g_return_val_if_fail (point != NULL, NULL);

  extension = g_io_extension_point_get_extension_by_name (point, name);
  if (extension != NULL)
    return info_from_extension (interface_type, extension);

  available = grammar_registry_list_plugins (self, interface_type);
  names = g_string_new (NULL);
  for (guint i = 0; i < available->len; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "",
                            grammar_plugin_info_get_name (g_ptr_array_index (available, i)));
  g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN,
               "unknown %s plugin “%s”; available: %s (plugin folders: see `grammar plugins`)",
               grammar_registry_interface_name (interface_type), name,
               available->len > 0 ? names->str : "none");
  return NULL;
}
