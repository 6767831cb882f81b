/* grammar-configurable.c: an object whose keyfile section has keys that are not its properties
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-configurable.h"

/**
 * GrammarConfigurable:
 *
 * An object configured from a keyfile section by
 * grammar_config_configure() whose keys are not all properties:
 * #GrammarDocumentGenerator takes `TABLE.title` and `TABLE.text` for
 * any table of the database, and checks `tables` against the schema.
 */

G_DEFINE_INTERFACE (GrammarConfigurable, grammar_configurable, G_TYPE_OBJECT)

static void
grammar_configurable_default_init (GrammarConfigurableInterface *iface)
{
}

/**
 * grammar_configurable_set_key:
 * @self: a #GrammarConfigurable
 * @key: a key of its section
 * @value: the key's value, as written
 * @handled: (out): whether @key is one of the object's own keys
 * @error: return location for a #GError
 *
 * Gives the object a key before it is looked up as a property.
 *
 * Returns: %FALSE with @error set when @key is the object's own and its
 *   value is bad; %TRUE otherwise
 */
gboolean
grammar_configurable_set_key (GrammarConfigurable  *self,
                              const char           *key,
                              const char           *value,
                              gboolean             *handled,
                              GError              **error)
{
  GrammarConfigurableInterface *iface;

  g_return_val_if_fail (GRAMMAR_IS_CONFIGURABLE (self), FALSE);
  g_return_val_if_fail (key != NULL && value != NULL && handled != NULL, FALSE);

  *handled = FALSE;
  iface = GRAMMAR_CONFIGURABLE_GET_IFACE (self);
  if (iface->set_key == NULL)
    return TRUE;
  return iface->set_key (self, key, value, handled, error);
}

/**
 * grammar_configurable_check_key:
 * @self: a #GrammarConfigurable
 * @key: a key that set the property of that name
 * @error: return location for a #GError
 *
 * Checks the value a property key set.
 *
 * Returns: %TRUE when it fits, %FALSE with @error set otherwise
 */
gboolean
grammar_configurable_check_key (GrammarConfigurable  *self,
                                const char           *key,
                                GError              **error)
{
  GrammarConfigurableInterface *iface;

  g_return_val_if_fail (GRAMMAR_IS_CONFIGURABLE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  iface = GRAMMAR_CONFIGURABLE_GET_IFACE (self);
  return iface->check_key == NULL || iface->check_key (self, key, error);
}

/**
 * grammar_configurable_describe_keys:
 * @self: a #GrammarConfigurable
 *
 * Returns: (transfer full) (nullable): the keys of the object's section
 *   for people, or %NULL to list its writable properties
 */
char *
grammar_configurable_describe_keys (GrammarConfigurable *self)
{
  GrammarConfigurableInterface *iface;

  g_return_val_if_fail (GRAMMAR_IS_CONFIGURABLE (self), NULL);

  iface = GRAMMAR_CONFIGURABLE_GET_IFACE (self);
  return iface->describe_keys != NULL ? iface->describe_keys (self) : NULL;
}
