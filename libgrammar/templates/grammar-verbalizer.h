/* grammar-verbalizer.h: what turns SQL templates into text templates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-schema.h"
#include "grammar-sql-template.h"
#include "grammar-template-set.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_VERBALIZER_EXTENSION_POINT_NAME:
 *
 * The name of the GIO extension point of this interface, for a plugin
 * module's g_io_module_query().
 */
#define GRAMMAR_VERBALIZER_EXTENSION_POINT_NAME "grammar-verbalizer"

#define GRAMMAR_TYPE_VERBALIZER (grammar_verbalizer_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarVerbalizer, grammar_verbalizer, GRAMMAR, VERBALIZER, GObject)

/**
 * GrammarVerbalizerInterface:
 * @g_iface: the parent interface
 * @verbalize_async: starts writing up to @n distinct text templates of
 *   @sql_template in @style
 * @verbalize_finish: finishes @verbalize_async, with the lines it
 *   dropped and why
 *
 * The extension point `grammar-verbalizer`: `rules`
 * (#GrammarRuleVerbalizer, no language model) and `llm`
 * (#GrammarLlmVerbalizer) are built in; a keyfile's `[verbalizer]`
 * section chooses one with `plugin=`.
 */
struct _GrammarVerbalizerInterface
{
  GTypeInterface g_iface;

  void       (*verbalize_async)  (GrammarVerbalizer    *self,
                                  GrammarSqlTemplate   *sql_template,
                                  GrammarSchema        *schema,
                                  const char           *style,
                                  guint                 n,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
  GPtrArray *(*verbalize_finish) (GrammarVerbalizer    *self,
                                  GAsyncResult         *result,
                                  GStrv                *dropped,
                                  GError              **error);
};

/**
 * GrammarVerbalizerProgress:
 * @sql_template: the SQL template about to be verbalized
 * @style: in this style
 * @done: how many (template, style) pairs are done
 * @total: how many there are
 * @user_data: the data given with the function
 *
 * Called by grammar_verbalizer_make_text_templates() before each pair.
 */
typedef void (*GrammarVerbalizerProgress) (GrammarSqlTemplate *sql_template,
                                           const char         *style,
                                           guint               done,
                                           guint               total,
                                           gpointer            user_data);

GRAMMAR_AVAILABLE_IN_ALL
void                grammar_verbalizer_verbalize_async     (GrammarVerbalizer          *self,
                                                            GrammarSqlTemplate         *sql_template,
                                                            GrammarSchema              *schema,
                                                            const char                 *style,
                                                            guint                       n,
                                                            GCancellable               *cancellable,
                                                            GAsyncReadyCallback         callback,
                                                            gpointer                    user_data);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_verbalizer_verbalize_finish    (GrammarVerbalizer          *self,
                                                            GAsyncResult               *result,
                                                            GStrv                      *dropped,
                                                            GError                    **error);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_verbalizer_verbalize           (GrammarVerbalizer          *self,
                                                            GrammarSqlTemplate         *sql_template,
                                                            GrammarSchema              *schema,
                                                            const char                 *style,
                                                            guint                       n,
                                                            GStrv                      *dropped,
                                                            GCancellable               *cancellable,
                                                            GError                    **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarTemplateSet *grammar_verbalizer_make_text_templates (GrammarVerbalizer          *self,
                                                            GrammarTemplateSet         *input,
                                                            GrammarSchema              *schema,
                                                            const char * const         *styles,
                                                            guint                       per_template,
                                                            GrammarVerbalizerProgress   progress,
                                                            gpointer                    progress_data,
                                                            GStrv                      *shortfalls,
                                                            GStrv                      *dropped,
                                                            GCancellable               *cancellable,
                                                            GError                    **error);

G_END_DECLS
