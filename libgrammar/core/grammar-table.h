/* grammar-table.h: the schema of one table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-column.h"
#include "grammar-foreign-key.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_TABLE (grammar_table_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarTable, grammar_table, GRAMMAR, TABLE, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarTable       *grammar_table_new                       (const char         *name,
                                                             gboolean            is_view);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_table_get_name                  (GrammarTable       *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_table_get_is_view               (GrammarTable       *self);

GRAMMAR_AVAILABLE_IN_ALL
void                grammar_table_add_column                (GrammarTable       *self,
                                                             GrammarColumn      *column);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_table_add_unique_constraint     (GrammarTable       *self,
                                                             const char * const *columns);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_table_add_foreign_key           (GrammarTable       *self,
                                                             GrammarForeignKey  *foreign_key);

GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_table_get_columns               (GrammarTable       *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarColumn      *grammar_table_get_column                (GrammarTable       *self,
                                                             const char         *name);
GRAMMAR_AVAILABLE_IN_ALL
GStrv               grammar_table_dup_primary_key           (GrammarTable       *self);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_table_get_n_unique_constraints  (GrammarTable       *self);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_table_get_unique_constraint     (GrammarTable       *self,
                                                             guint               index);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_table_get_foreign_keys          (GrammarTable       *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_table_is_unique_key             (GrammarTable       *self,
                                                             const char * const *columns);

G_END_DECLS
