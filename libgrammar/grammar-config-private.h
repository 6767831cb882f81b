/* grammar-config-private.h: checking a keyfile's sections without building them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-config.h"
#include "grammar-plugin-info.h"

G_BEGIN_DECLS

/* A path value a checked section gives (resolved as the property gets it). */
typedef struct
{
  char *section;
  char *key;
  const char *property;  /* the property's name (static) */
  char *path;
} GrammarConfigPath;

typedef struct
{
  GPtrArray *problems;   /* of GError *, in the order found */
  GHashTable *plugins;   /* section → GrammarPluginInfo, of the sections read whole */
  GHashTable *failed;    /* sections whose problem is told */
  GPtrArray *paths;      /* of GrammarConfigPath */
} GrammarConfigCheck;

G_GNUC_INTERNAL
GrammarConfigCheck *grammar_config_check_new     (void);
G_GNUC_INTERNAL
void                grammar_config_check_free    (GrammarConfigCheck *check);
G_GNUC_INTERNAL
void                grammar_config_check_section (GrammarConfig      *self,
                                                  const char         *section,
                                                  GType               wanted_type,
                                                  GrammarConfigCheck *check);
G_GNUC_INTERNAL
void                grammar_config_check_keys    (GrammarConfig      *self,
                                                  const char         *section,
                                                  GType               type,
                                                  GrammarConfigCheck *check);
G_GNUC_INTERNAL
GrammarPluginInfo  *grammar_config_check_lookup  (GrammarConfigCheck *check,
                                                  const char         *section);

G_GNUC_INTERNAL
const char         *grammar_param_spec_get_default_section (GParamSpec *pspec);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarConfigCheck, grammar_config_check_free)

G_END_DECLS
