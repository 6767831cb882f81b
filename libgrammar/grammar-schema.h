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

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SCHEMA (grammar_schema_get_type ())
G_DECLARE_FINAL_TYPE (GrammarSchema, grammar_schema, GRAMMAR, SCHEMA, GObject)

GrammarSchema *grammar_schema_new        (void);
void           grammar_schema_add_table  (GrammarSchema *self,
                                          GrammarTable  *table);
GPtrArray     *grammar_schema_get_tables (GrammarSchema *self);
GrammarTable  *grammar_schema_get_table  (GrammarSchema *self,
                                          const char    *name);
JsonNode      *grammar_schema_to_json    (GrammarSchema *self);

G_END_DECLS
