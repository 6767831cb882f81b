/* grammar-sql-generator.h: what proposes the SQL templates of a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-database.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_SQL_GENERATOR_EXTENSION_POINT_NAME:
 *
 * The name of the GIO extension point of this interface, for a plugin
 * module's g_io_module_query().
 */
#define GRAMMAR_SQL_GENERATOR_EXTENSION_POINT_NAME "grammar-sql-generator"

#define GRAMMAR_TYPE_SQL_GENERATOR (grammar_sql_generator_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GrammarSqlGenerator, grammar_sql_generator, GRAMMAR, SQL_GENERATOR, GObject)

/**
 * GrammarSqlGeneratorInterface:
 * @g_iface: the parent interface
 * @generate: proposes the SQL templates of @database, with notes for
 *   people (candidates dropped, lines of a reply rejected)
 *
 * The extension point `grammar-sql-generator`: `schema`
 * (#GrammarSchemaGenerator, from the schema and the data) and `llm`
 * (#GrammarLlmSqlGenerator, a language model) are built in; a keyfile's
 * `[sql-generator]` section chooses one with `plugin=`.
 */
struct _GrammarSqlGeneratorInterface
{
  GTypeInterface g_iface;

  GPtrArray *(*generate) (GrammarSqlGenerator  *self,
                          GrammarDatabase      *database,
                          GStrv                *notes,
                          GCancellable         *cancellable,
                          GError              **error);
};

GRAMMAR_AVAILABLE_IN_ALL
GPtrArray *grammar_sql_generator_generate (GrammarSqlGenerator  *self,
                                           GrammarDatabase      *database,
                                           GStrv                *notes,
                                           GCancellable         *cancellable,
                                           GError              **error);

G_END_DECLS
