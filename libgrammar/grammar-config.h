/* grammar-config.h: components built from one keyfile
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

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
G_DECLARE_FINAL_TYPE (GrammarConfig, grammar_config, GRAMMAR, CONFIG, GObject)

GrammarConfig *grammar_config_new_from_file (const char     *path,
                                             GError        **error);
GrammarConfig *grammar_config_new_from_data (const char     *data,
                                             gssize          length,
                                             const char     *base_dir,
                                             GError        **error);
const char    *grammar_config_get_path      (GrammarConfig  *self);
const char    *grammar_config_get_base_dir  (GrammarConfig  *self);
GKeyFile      *grammar_config_get_key_file  (GrammarConfig  *self);
gboolean       grammar_config_has_section   (GrammarConfig  *self,
                                             const char     *section);
char          *grammar_config_resolve_path  (GrammarConfig  *self,
                                             const char     *path);
GObject       *grammar_config_build         (GrammarConfig  *self,
                                             const char     *section,
                                             GType           interface_type,
                                             GError        **error);
void           grammar_config_override_property (GrammarConfig *self,
                                                 const char    *section,
                                                 const char    *property,
                                                 const GValue  *value);
void           grammar_param_spec_set_default_section (GParamSpec *pspec,
                                                       const char *section);
void           grammar_param_spec_set_value_hint (GParamSpec *pspec,
                                                  const char *hint);
void           grammar_param_spec_set_old_spelling (GParamSpec *pspec,
                                                    const char *old_value,
                                                    const char *key,
                                                    const char *value);
gboolean       grammar_config_configure     (GrammarConfig  *self,
                                             const char     *section,
                                             GObject        *object,
                                             GError        **error);

G_END_DECLS
