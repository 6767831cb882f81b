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

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_METHOD_DEFAULT_PER_TEMPLATE:
 *
 * The default of #GrammarMethod:per-template.
 */
#define GRAMMAR_METHOD_DEFAULT_PER_TEMPLATE 3

#define GRAMMAR_TYPE_METHOD (grammar_method_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarMethod, grammar_method, GRAMMAR, METHOD, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarMethod      *grammar_method_new              (GrammarConfig        *config,
                                                     GError              **error);

GRAMMAR_AVAILABLE_IN_ALL
GrammarConfig      *grammar_method_get_config       (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarAssembly    *grammar_method_get_assembly     (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_method_get_outdir       (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_outdir       (GrammarMethod        *self,
                                                     const char           *outdir);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_method_get_styles       (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_styles       (GrammarMethod        *self,
                                                     const char * const   *styles);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_method_get_compare      (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_compare      (GrammarMethod        *self,
                                                     const char * const   *styles);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_method_get_per_template (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_per_template (GrammarMethod        *self,
                                                     guint                 per_template);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_method_get_per_group    (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_per_group    (GrammarMethod        *self,
                                                     guint                 per_group);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_method_get_concurrency  (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_concurrency  (GrammarMethod        *self,
                                                     guint                 concurrency);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_method_get_max_consecutive_failures (GrammarMethod *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_max_consecutive_failures (GrammarMethod *self,
                                                                 guint          max_consecutive_failures);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_method_get_seed         (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_seed         (GrammarMethod        *self,
                                                     guint64               seed);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_method_get_force        (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_force        (GrammarMethod        *self,
                                                     gboolean              force);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_method_get_retry_failed (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_set_retry_failed (GrammarMethod        *self,
                                                     gboolean              retry_failed);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSystem      *grammar_method_get_system       (GrammarMethod        *self);

GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_method_check            (GrammarMethod        *self,
                                                     GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
char               *grammar_method_describe_plan    (GrammarMethod        *self,
                                                     GError              **error);

GRAMMAR_AVAILABLE_IN_ALL
void                grammar_method_run_async        (GrammarMethod        *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_method_run_finish       (GrammarMethod        *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_method_run              (GrammarMethod        *self,
                                                     GCancellable         *cancellable,
                                                     GError              **error);

GRAMMAR_AVAILABLE_IN_ALL
JsonNode           *grammar_method_get_report       (GrammarMethod        *self);
GRAMMAR_AVAILABLE_IN_ALL
char               *grammar_method_dup_report_path  (GrammarMethod        *self,
                                                     const char           *format);
GRAMMAR_AVAILABLE_IN_ALL
guint64             grammar_method_get_n_failed     (GrammarMethod        *self);

G_END_DECLS
