/* grammar-text-template.h: a natural-language form of an SQL template
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "grammar-sql-template.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_TEXT_TEMPLATE (grammar_text_template_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarTextTemplate, grammar_text_template, GRAMMAR, TEXT_TEMPLATE, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarTextTemplate *grammar_text_template_new                (const char          *template_id,
                                                               const char          *style,
                                                               const char          *text);
GRAMMAR_AVAILABLE_IN_ALL
GrammarTextTemplate *grammar_text_template_new_from_json      (JsonNode            *node,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode            *grammar_text_template_to_json            (GrammarTextTemplate *self);
GRAMMAR_AVAILABLE_IN_ALL
const char          *grammar_text_template_get_template_id    (GrammarTextTemplate *self);
GRAMMAR_AVAILABLE_IN_ALL
const char          *grammar_text_template_get_style          (GrammarTextTemplate *self);
GRAMMAR_AVAILABLE_IN_ALL
const char          *grammar_text_template_get_text           (GrammarTextTemplate *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean             grammar_text_template_check_placeholders (GrammarTextTemplate *self,
                                                               GrammarSqlTemplate  *sql_template,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
char                *grammar_text_template_fill               (GrammarTextTemplate *self,
                                                               GrammarSqlTemplate  *sql_template,
                                                               GVariant            *values);

G_END_DECLS
