/* grammar-value-private.h: database values as the library's JSON writer writes them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-json-writer-private.h"
#include "grammar-value.h"

G_BEGIN_DECLS

/* A database value (or %NULL) appended to @out as JSON text: the text
 * form of grammar_value_to_json(). */
G_GNUC_INTERNAL
void grammar_value_append_json (GrammarJsonBuffer *out,
                                GVariant          *value);

G_END_DECLS
