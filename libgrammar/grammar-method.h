/* grammar-method.h: the whole GRAMMAR method as one object
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "grammar-assembly.h"
#include "grammar-config.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_METHOD_DEFAULT_PER_TEMPLATE:
 *
 * The default of #GrammarMethod:per-template.
 */
#define GRAMMAR_METHOD_DEFAULT_PER_TEMPLATE 3

#define GRAMMAR_TYPE_METHOD (grammar_method_get_type ())
G_DECLARE_FINAL_TYPE (GrammarMethod, grammar_method, GRAMMAR, METHOD, GObject)

GrammarMethod      *grammar_method_new              (GrammarConfig        *config,
                                                     GError              **error);

GrammarConfig      *grammar_method_get_config       (GrammarMethod        *self);
GrammarAssembly    *grammar_method_get_assembly     (GrammarMethod        *self);
const char         *grammar_method_get_outdir       (GrammarMethod        *self);
void                grammar_method_set_outdir       (GrammarMethod        *self,
                                                     const char           *outdir);
const char * const *grammar_method_get_styles       (GrammarMethod        *self);
void                grammar_method_set_styles       (GrammarMethod        *self,
                                                     const char * const   *styles);
const char * const *grammar_method_get_compare      (GrammarMethod        *self);
void                grammar_method_set_compare      (GrammarMethod        *self,
                                                     const char * const   *styles);
guint               grammar_method_get_per_template (GrammarMethod        *self);
void                grammar_method_set_per_template (GrammarMethod        *self,
                                                     guint                 per_template);
guint               grammar_method_get_per_group    (GrammarMethod        *self);
void                grammar_method_set_per_group    (GrammarMethod        *self,
                                                     guint                 per_group);
guint64             grammar_method_get_seed         (GrammarMethod        *self);
void                grammar_method_set_seed         (GrammarMethod        *self,
                                                     guint64               seed);
gboolean            grammar_method_get_force        (GrammarMethod        *self);
void                grammar_method_set_force        (GrammarMethod        *self,
                                                     gboolean              force);

gboolean            grammar_method_check            (GrammarMethod        *self,
                                                     GError              **error);
char               *grammar_method_describe_plan    (GrammarMethod        *self,
                                                     GError              **error);

void                grammar_method_run_async        (GrammarMethod        *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean            grammar_method_run_finish       (GrammarMethod        *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
gboolean            grammar_method_run              (GrammarMethod        *self,
                                                     GCancellable         *cancellable,
                                                     GError              **error);

JsonNode           *grammar_method_get_report       (GrammarMethod        *self);
char               *grammar_method_dup_report_path  (GrammarMethod        *self,
                                                     const char           *format);
guint64             grammar_method_get_n_failed     (GrammarMethod        *self);

G_END_DECLS
