/* grammar-result.h: the rows of a query, in memory
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "grammar-cursor.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_RESULT (grammar_result_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarResult, grammar_result, GRAMMAR, RESULT, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarResult *grammar_result_new_from_cursor (GrammarCursor  *cursor,
                                               GCancellable   *cancellable,
                                               GError        **error);
GRAMMAR_AVAILABLE_IN_ALL
guint          grammar_result_get_n_rows      (GrammarResult  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint          grammar_result_get_n_columns   (GrammarResult  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char    *grammar_result_get_column_name (GrammarResult  *self,
                                               guint           column);
GRAMMAR_AVAILABLE_IN_ALL
GVariant      *grammar_result_get_value       (GrammarResult  *self,
                                               guint           row,
                                               guint           column);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode      *grammar_result_to_json         (GrammarResult  *self);

G_END_DECLS
