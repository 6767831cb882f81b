/* grammar-sqlite-cursor.h: the rows of an SQLite statement
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-sqlite-database.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SQLITE_CURSOR (grammar_sqlite_cursor_get_type ())
G_DECLARE_FINAL_TYPE (GrammarSqliteCursor, grammar_sqlite_cursor, GRAMMAR, SQLITE_CURSOR, GrammarCursor)

void           grammar_sqlite_cursor_register (GTypeModule           *module);

GrammarCursor *grammar_sqlite_cursor_new      (GrammarSqliteDatabase *database,
                                               sqlite3_stmt          *stmt);

G_END_DECLS
