/* grammar-column.h: one column of a table schema
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

#define GRAMMAR_TYPE_COLUMN (grammar_column_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarColumn, grammar_column, GRAMMAR, COLUMN, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarColumn *grammar_column_new                      (const char *name,
                                                        const char *declared_type,
                                                        gboolean    nullable,
                                                        guint       primary_key_position,
                                                        const char *default_value);
GRAMMAR_AVAILABLE_IN_ALL
const char    *grammar_column_get_name                 (GrammarColumn *self);
GRAMMAR_AVAILABLE_IN_ALL
const char    *grammar_column_get_declared_type        (GrammarColumn *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean       grammar_column_get_nullable             (GrammarColumn *self);
GRAMMAR_AVAILABLE_IN_ALL
guint          grammar_column_get_primary_key_position (GrammarColumn *self);
GRAMMAR_AVAILABLE_IN_ALL
const char    *grammar_column_get_default_value        (GrammarColumn *self);

G_END_DECLS
