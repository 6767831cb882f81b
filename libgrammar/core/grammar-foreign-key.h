/* grammar-foreign-key.h: a foreign key of a table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_FOREIGN_KEY (grammar_foreign_key_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarForeignKey, grammar_foreign_key, GRAMMAR, FOREIGN_KEY, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarForeignKey  *grammar_foreign_key_new                    (const char * const *columns,
                                                                const char         *referenced_table,
                                                                const char * const *referenced_columns);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_foreign_key_get_columns            (GrammarForeignKey *self);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_foreign_key_get_referenced_table   (GrammarForeignKey *self);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_foreign_key_get_referenced_columns (GrammarForeignKey *self);

G_END_DECLS
