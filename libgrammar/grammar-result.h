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

G_BEGIN_DECLS

#define GRAMMAR_TYPE_RESULT (grammar_result_get_type ())
G_DECLARE_FINAL_TYPE (GrammarResult, grammar_result, GRAMMAR, RESULT, GObject)

GrammarResult *grammar_result_new_from_cursor (GrammarCursor  *cursor,
                                               GCancellable   *cancellable,
                                               GError        **error);
guint          grammar_result_get_n_rows      (GrammarResult  *self);
guint          grammar_result_get_n_columns   (GrammarResult  *self);
const char    *grammar_result_get_column_name (GrammarResult  *self,
                                               guint           column);
GVariant      *grammar_result_get_value       (GrammarResult  *self,
                                               guint           row,
                                               guint           column);
JsonNode      *grammar_result_to_json         (GrammarResult  *self);

G_END_DECLS
