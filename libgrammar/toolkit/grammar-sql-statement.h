/* grammar-sql-statement.h: one read-only statement, written for a server's parameters
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
 * GrammarSqlParameterStyle:
 * @GRAMMAR_SQL_PARAMETERS_DOLLAR: numbered `$1`, `$2`… (PostgreSQL)
 * @GRAMMAR_SQL_PARAMETERS_POSITIONAL: a plain `?` per occurrence, bound in order (MySQL, ODBC)
 *
 * How a server writes the parameters of a prepared statement. Statements
 * in GRAMMAR use SQLite's `?` and `?N`.
 */
typedef enum
{
  GRAMMAR_SQL_PARAMETERS_DOLLAR,
  GRAMMAR_SQL_PARAMETERS_POSITIONAL,
} GrammarSqlParameterStyle;

GRAMMAR_AVAILABLE_IN_ALL
char *grammar_sql_rewrite_query (const char                *sql,
                                 GrammarSqlParameterStyle   style,
                                 const char * const        *refused_words,
                                 const char * const        *refused_functions,
                                 GArray                   **parameter_order,
                                 guint                     *n_parameters,
                                 GError                   **error);

G_END_DECLS
