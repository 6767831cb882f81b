/* grammar-template-set.h: SQL templates and their text forms, as files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include "grammar-sql-template.h"
#include "grammar-text-template.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_TEMPLATE_SET (grammar_template_set_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarTemplateSet, grammar_template_set, GRAMMAR, TEMPLATE_SET, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarTemplateSet *grammar_template_set_new                    (void);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_template_set_add_sql_template       (GrammarTemplateSet  *self,
                                                                 GrammarSqlTemplate  *sql_template);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_template_set_add_text_template      (GrammarTemplateSet  *self,
                                                                 GrammarTextTemplate *text_template);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_template_set_get_sql_templates      (GrammarTemplateSet  *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSqlTemplate *grammar_template_set_lookup_sql_template    (GrammarTemplateSet  *self,
                                                                 const char          *id);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_template_set_get_text_templates     (GrammarTemplateSet  *self);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_template_set_get_text_templates_for (GrammarTemplateSet  *self,
                                                                 const char          *template_id,
                                                                 const char          *style);
GRAMMAR_AVAILABLE_IN_ALL
GStrv               grammar_template_set_dup_styles             (GrammarTemplateSet  *self);

GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_template_set_load                   (GrammarTemplateSet  *self,
                                                                 const char          *path,
                                                                 GrammarDatabase     *database,
                                                                 GrammarSchema       *schema,
                                                                 GStrv               *problems,
                                                                 GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_template_set_save_sql_templates     (GrammarTemplateSet  *self,
                                                                 const char          *path,
                                                                 GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_template_set_save_text_templates    (GrammarTemplateSet  *self,
                                                                 const char          *path,
                                                                 GError             **error);

G_END_DECLS
