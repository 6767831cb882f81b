/* grammar-sqlite-database.h: a database read from an SQLite file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>
#include <sqlite3.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SQLITE_DATABASE (grammar_sqlite_database_get_type ())
G_DECLARE_FINAL_TYPE (GrammarSqliteDatabase, grammar_sqlite_database, GRAMMAR, SQLITE_DATABASE, GObject)

void grammar_sqlite_database_register (GTypeModule            *module);

int  grammar_sqlite_database_step     (GrammarSqliteDatabase  *self,
                                       sqlite3_stmt           *stmt,
                                       GCancellable           *cancellable,
                                       GError                **error);

G_END_DECLS
