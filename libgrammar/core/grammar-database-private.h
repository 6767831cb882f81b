/* grammar-database-private.h: what the library shares about databases
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-database.h"
#include "grammar-sql-dialect-private.h"

G_BEGIN_DECLS

/* SQLite's spelling of a #GrammarSqlForm: the interface's default, and
 * what statements shown without a database use. */
G_GNUC_INTERNAL
char *grammar_database_sqlite_sql_form (GrammarSqlForm  form,
                                        const char     *expression);

/* grammar_database_sql_form() with the column's declared type read from
 * @table (which may be %NULL). */
G_GNUC_INTERNAL
char *grammar_database_column_sql_form (GrammarDatabase *database,
                                        GrammarSqlForm   form,
                                        GrammarTable    *table,
                                        const char      *column);

G_END_DECLS
