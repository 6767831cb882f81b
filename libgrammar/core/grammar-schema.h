/* grammar-schema.h: the schema of a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "grammar-table.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SCHEMA (grammar_schema_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarSchema, grammar_schema, GRAMMAR, SCHEMA, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarSchema *grammar_schema_new        (void);
GRAMMAR_AVAILABLE_IN_ALL
void           grammar_schema_add_table  (GrammarSchema *self,
                                          GrammarTable  *table);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray     *grammar_schema_get_tables (GrammarSchema *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarTable  *grammar_schema_get_table  (GrammarSchema *self,
                                          const char    *name);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode      *grammar_schema_to_json    (GrammarSchema *self);

G_END_DECLS
