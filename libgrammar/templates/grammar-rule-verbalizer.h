/* grammar-rule-verbalizer.h: text templates from SQL templates, by rules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include "grammar-verbalizer.h"
#include "grammar-schema.h"
#include "grammar-template-set.h"
#include "grammar-text-style.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_RULE_VERBALIZER (grammar_rule_verbalizer_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarRuleVerbalizer, grammar_rule_verbalizer, GRAMMAR, RULE_VERBALIZER, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarRuleVerbalizer *grammar_rule_verbalizer_new           (GrammarSchema         *schema);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSchema         *grammar_rule_verbalizer_get_schema    (GrammarRuleVerbalizer *self);
GRAMMAR_AVAILABLE_IN_ALL
guint64                grammar_rule_verbalizer_get_seed      (GrammarRuleVerbalizer *self);
GRAMMAR_AVAILABLE_IN_ALL
void                   grammar_rule_verbalizer_set_seed      (GrammarRuleVerbalizer *self,
                                                              guint64                seed);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray             *grammar_rule_verbalizer_verbalize     (GrammarRuleVerbalizer *self,
                                                              GrammarSqlTemplate    *sql_template,
                                                              const char            *style,
                                                              guint                  n,
                                                              GError               **error);

GRAMMAR_AVAILABLE_IN_ALL
char                  *grammar_rule_verbalizer_humanize      (const char            *identifier);
GRAMMAR_AVAILABLE_IN_ALL
char                  *grammar_rule_verbalizer_entity_noun   (const char            *table);

G_END_DECLS
