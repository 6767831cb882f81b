/* grammar-config.h: components built from one keyfile
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_CONFIG_ERROR:
 *
 * Error domain for keyfile configuration errors. Errors in this domain
 * are from the #GrammarConfigError enumeration. Every such error is
 * something the user fixes in the keyfile: the command line exits with
 * status 2.
 */
#define GRAMMAR_CONFIG_ERROR (grammar_config_error_quark ())

/**
 * GrammarConfigError:
 * @GRAMMAR_CONFIG_ERROR_PARSE: the file is not a valid keyfile or cannot be read
 * @GRAMMAR_CONFIG_ERROR_MISSING_SECTION: a section that is needed or referenced does not exist
 * @GRAMMAR_CONFIG_ERROR_MISSING_PLUGIN: a component section has no `plugin=` key
 * @GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN: no plugin of that name implements the interface
 * @GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY: the plugin has no property of that name
 * @GRAMMAR_CONFIG_ERROR_BAD_VALUE: the text of a key cannot be converted to its property
 * @GRAMMAR_CONFIG_ERROR_CYCLE: sections refer to each other in a cycle
 * @GRAMMAR_CONFIG_ERROR_WRONG_INTERFACE: a referenced section builds a component of another kind
 * @GRAMMAR_CONFIG_ERROR_INIT: the plugin refused its configuration (for example a file that cannot be opened)
 *
 * Error codes for %GRAMMAR_CONFIG_ERROR.
 */
typedef enum {
  GRAMMAR_CONFIG_ERROR_PARSE,
  GRAMMAR_CONFIG_ERROR_MISSING_SECTION,
  GRAMMAR_CONFIG_ERROR_MISSING_PLUGIN,
  GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN,
  GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY,
  GRAMMAR_CONFIG_ERROR_BAD_VALUE,
  GRAMMAR_CONFIG_ERROR_CYCLE,
  GRAMMAR_CONFIG_ERROR_WRONG_INTERFACE,
  GRAMMAR_CONFIG_ERROR_INIT,
} GrammarConfigError;

GRAMMAR_AVAILABLE_IN_ALL
GQuark grammar_config_error_quark (void);


/**
 * GRAMMAR_PARAM_PATH:
 *
 * A #GParamFlags bit for string properties that hold a file path. A
 * keyfile value for such a property is resolved against the keyfile's
 * folder when it is relative, and a leading `~/` is the home folder;
 * an SQLite-style `file:` URI with a relative path is resolved the same
 * way.
 */
#define GRAMMAR_PARAM_PATH (1 << G_PARAM_USER_SHIFT)

#define GRAMMAR_TYPE_CONFIG (grammar_config_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarConfig, grammar_config, GRAMMAR, CONFIG, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarConfig *grammar_config_new_from_file (const char     *path,
                                             GError        **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarConfig *grammar_config_new_from_data (const char     *data,
                                             gssize          length,
                                             const char     *base_dir,
                                             GError        **error);
GRAMMAR_AVAILABLE_IN_ALL
const char    *grammar_config_get_path      (GrammarConfig  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char    *grammar_config_get_base_dir  (GrammarConfig  *self);
GRAMMAR_AVAILABLE_IN_ALL
GKeyFile      *grammar_config_get_key_file  (GrammarConfig  *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean       grammar_config_has_section   (GrammarConfig  *self,
                                             const char     *section);
GRAMMAR_AVAILABLE_IN_ALL
char          *grammar_config_resolve_path  (GrammarConfig  *self,
                                             const char     *path);
GRAMMAR_AVAILABLE_IN_ALL
GObject       *grammar_config_build         (GrammarConfig  *self,
                                             const char     *section,
                                             GType           interface_type,
                                             GError        **error);
GRAMMAR_AVAILABLE_IN_ALL
void           grammar_config_override_property (GrammarConfig *self,
                                                 const char    *section,
                                                 const char    *property,
                                                 const GValue  *value);
GRAMMAR_AVAILABLE_IN_ALL
void           grammar_param_spec_set_default_section (GParamSpec *pspec,
                                                       const char *section);
GRAMMAR_AVAILABLE_IN_ALL
void           grammar_param_spec_set_required (GParamSpec *pspec,
                                                const char *fix);
GRAMMAR_AVAILABLE_IN_ALL
void           grammar_param_spec_set_value_hint (GParamSpec *pspec,
                                                  const char *hint);
GRAMMAR_AVAILABLE_IN_ALL
void           grammar_param_spec_set_old_spelling (GParamSpec *pspec,
                                                    const char *old_value,
                                                    const char *key,
                                                    const char *value);
GRAMMAR_AVAILABLE_IN_ALL
gboolean       grammar_config_configure     (GrammarConfig  *self,
                                             const char     *section,
                                             GObject        *object,
                                             GError        **error);

G_END_DECLS
