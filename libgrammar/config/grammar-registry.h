/* grammar-registry.h: plugins, found and loaded
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-plugin-info.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_REGISTRY (grammar_registry_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarRegistry, grammar_registry, GRAMMAR, REGISTRY, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarRegistry    *grammar_registry_get_default         (void);

GRAMMAR_AVAILABLE_IN_ALL
void                grammar_registry_implement           (GType             interface_type,
                                                          GType             implementation_type,
                                                          const char       *name,
                                                          const char       *description);

GRAMMAR_AVAILABLE_IN_ALL
const GType        *grammar_registry_get_interfaces      (guint            *n_interfaces);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_registry_interface_name      (GType             interface_type);
GRAMMAR_AVAILABLE_IN_ALL
GType               grammar_registry_interface_from_name (const char       *name);

GRAMMAR_AVAILABLE_IN_ALL
void                grammar_registry_load_directory      (GrammarRegistry  *self,
                                                          const char       *directory);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_registry_get_search_path     (GrammarRegistry  *self);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_registry_list_plugins        (GrammarRegistry  *self,
                                                          GType             interface_type);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_registry_list_all_plugins    (GrammarRegistry  *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarPluginInfo  *grammar_registry_lookup              (GrammarRegistry  *self,
                                                          GType             interface_type,
                                                          const char       *name,
                                                          GError          **error);

G_END_DECLS
