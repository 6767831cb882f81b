/* grammar-config-private.h: checking a keyfile's sections without building them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-config.h"
#include "grammar-error.h"
#include "grammar-plugin-info.h"

G_BEGIN_DECLS

/* grammar-config.c and grammar-config-check.c share the configuration. */
struct _GrammarConfig
{
  GObject parent_instance;

  char *path;          /* as the user gave it, for messages */
  char *base_dir;      /* absolute */
  GKeyFile *key_file;
  GHashTable *built;   /* section → GObject */
  GHashTable *overrides; /* section → (property → GValue *) */
  GPtrArray *building; /* sections being built, outermost first */
};

G_GNUC_INTERNAL
void               grammar_config_set_error           (GrammarConfig      *self,
                                                       GError            **error,
                                                       GrammarConfigError  code,
                                                       const char         *section,
                                                       const char         *key,
                                                       const char         *format,
                                                       ...) G_GNUC_PRINTF (6, 7);
G_GNUC_INTERNAL
gboolean           grammar_config_convert_key_full    (GrammarConfig      *self,
                                                       GObjectClass       *klass,
                                                       GParamSpec        **pspec,
                                                       const char         *section,
                                                       const char         *key,
                                                       gboolean            quiet,
                                                       GValue             *value,
                                                       GError            **error);
G_GNUC_INTERNAL
GParamSpec        *grammar_config_find_key_property   (GrammarConfig      *self,
                                                       GObjectClass       *klass,
                                                       const char         *section,
                                                       const char         *key,
                                                       const char         *owner,
                                                       const char         *other_keys,
                                                       GParamFlags         excluded,
                                                       GError            **error);
G_GNUC_INTERNAL
char              *grammar_config_describe_section_keys (GObject          *object);
G_GNUC_INTERNAL
GrammarPluginInfo *grammar_config_find_plugin         (GrammarConfig      *self,
                                                       const char         *section,
                                                       const char         *name,
                                                       GType               wanted_type,
                                                       GError            **error);
G_GNUC_INTERNAL
char              *grammar_config_describe_cycle      (GrammarConfig      *self,
                                                       const char         *section);
G_GNUC_INTERNAL
gboolean           grammar_config_is_building         (GrammarConfig      *self,
                                                       const char         *section);
G_GNUC_INTERNAL
GObject           *grammar_config_build_section       (GrammarConfig      *self,
                                                       const char         *section,
                                                       GType               wanted_type,
                                                       const char         *from_section,
                                                       const char         *from_key,
                                                       GError            **error);

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
G_GNUC_INTERNAL
const char         *grammar_param_spec_get_required        (GParamSpec *pspec);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarConfigCheck, grammar_config_check_free)

G_END_DECLS
