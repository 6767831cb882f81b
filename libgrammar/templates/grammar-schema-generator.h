/* grammar-schema-generator.h: SQL templates from the schema and the data, without a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include "grammar-sql-generator.h"
#include "grammar-template-set.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SCHEMA_GENERATOR (grammar_schema_generator_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarSchemaGenerator, grammar_schema_generator, GRAMMAR, SCHEMA_GENERATOR, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarSchemaGenerator *grammar_schema_generator_new             (GrammarDatabase        *database,
                                                                  GrammarSchema          *schema);
GRAMMAR_AVAILABLE_IN_ALL
GrammarDatabase        *grammar_schema_generator_get_database    (GrammarSchemaGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSchema          *grammar_schema_generator_get_schema      (GrammarSchemaGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                grammar_schema_generator_get_keep_plural (GrammarSchemaGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
void                    grammar_schema_generator_set_keep_plural (GrammarSchemaGenerator *self,
                                                                  gboolean                keep_plural);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray              *grammar_schema_generator_generate        (GrammarSchemaGenerator *self,
                                                                  GStrv                  *dropped,
                                                                  GCancellable           *cancellable,
                                                                  GError                **error);

G_END_DECLS
