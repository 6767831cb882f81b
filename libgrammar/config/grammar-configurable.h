/* grammar-configurable.h: an object whose keyfile section has keys that are not its properties
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_PLUGIN_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar-plugin.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_CONFIGURABLE (grammar_configurable_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarConfigurable, grammar_configurable, GRAMMAR, CONFIGURABLE, GObject)

/**
 * GrammarConfigurableInterface:
 * @g_iface: the parent interface
 * @set_key: takes a key of its section before it is looked up as a
 *   property: sets @handled and returns %TRUE when the key is its own and
 *   its value is good, returns %FALSE with @error (without the file,
 *   section and key, which the caller adds) when the value is bad, and
 *   leaves @handled %FALSE for a key it does not take
 * @check_key: checks the value a property key set, once it is set;
 *   returns %FALSE with @error (without the file, section and key) when
 *   it does not fit, for instance a table the database does not have
 * @describe_keys: the keys of its section, for the message about an
 *   unknown key (`tables, llm, TABLE.title and TABLE.text`)
 *
 * What an object whose section is read by grammar_config_configure()
 * adds to "each key is the property of that name": keys made of names,
 * such as `TABLE.title`, and checks that need more than a #GParamSpec.
 * Every method is optional.
 */
struct _GrammarConfigurableInterface
{
  GTypeInterface g_iface;

  gboolean (*set_key)       (GrammarConfigurable  *self,
                             const char           *key,
                             const char           *value,
                             gboolean             *handled,
                             GError              **error);
  gboolean (*check_key)     (GrammarConfigurable  *self,
                             const char           *key,
                             GError              **error);
  char    *(*describe_keys) (GrammarConfigurable  *self);
};

GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_configurable_set_key       (GrammarConfigurable  *self,
                                             const char           *key,
                                             const char           *value,
                                             gboolean             *handled,
                                             GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_configurable_check_key     (GrammarConfigurable  *self,
                                             const char           *key,
                                             GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
char    *grammar_configurable_describe_keys (GrammarConfigurable  *self);

G_END_DECLS
