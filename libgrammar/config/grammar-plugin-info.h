/* grammar-plugin-info.h: what the registry knows of one plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_PLUGIN_INFO (grammar_plugin_info_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarPluginInfo, grammar_plugin_info, GRAMMAR, PLUGIN_INFO, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarPluginInfo *grammar_plugin_info_new                (GType              interface_type,
                                                           const char        *interface_name,
                                                           GType              implementation_type,
                                                           const char        *name,
                                                           const char        *description);
GRAMMAR_AVAILABLE_IN_ALL
GType              grammar_plugin_info_get_interface_type (GrammarPluginInfo *self);
GRAMMAR_AVAILABLE_IN_ALL
const char        *grammar_plugin_info_get_interface_name (GrammarPluginInfo *self);
GRAMMAR_AVAILABLE_IN_ALL
GType              grammar_plugin_info_get_gtype          (GrammarPluginInfo *self);
GRAMMAR_AVAILABLE_IN_ALL
const char        *grammar_plugin_info_get_name           (GrammarPluginInfo *self);
GRAMMAR_AVAILABLE_IN_ALL
const char        *grammar_plugin_info_get_description    (GrammarPluginInfo *self);
GRAMMAR_AVAILABLE_IN_ALL
GParamSpec       **grammar_plugin_info_list_properties    (GrammarPluginInfo *self,
                                                           guint             *n_properties);

G_END_DECLS
