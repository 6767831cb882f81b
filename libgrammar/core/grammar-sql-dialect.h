/* grammar-sql-dialect.h: the bare names each SQL dialect reads as themselves
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_PLUGIN_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar-plugin.h> can be included directly."
#endif

#include <glib.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GrammarSqlDialect:
 * @GRAMMAR_SQL_DIALECT_SQLITE: SQLite: names are case-insensitive, its
 *   keywords need quotes
 * @GRAMMAR_SQL_DIALECT_POSTGRES: PostgreSQL: a bare name is folded to
 *   lower case, so a name with a capital needs quotes, as do its reserved
 *   words (`user`, `order`, `group`…)
 * @GRAMMAR_SQL_DIALECT_MYSQL: MariaDB and MySQL (with `ANSI_QUOTES`):
 *   names keep their case, their reserved words need quotes
 *
 * The SQL dialects whose rules for bare names the library knows
 * (grammar_sql_dialect_needs_quotes()), for database plugins to
 * implement #GrammarDatabaseInterface.identifier_needs_quotes with.
 */
typedef enum
{
  GRAMMAR_SQL_DIALECT_SQLITE,
  GRAMMAR_SQL_DIALECT_POSTGRES,
  GRAMMAR_SQL_DIALECT_MYSQL,
} GrammarSqlDialect;

GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_sql_dialect_needs_quotes (GrammarSqlDialect  dialect,
                                           const char        *identifier);

G_END_DECLS
