/* grammar-mysql-cursor.h: the rows of a MariaDB or MySQL statement
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-mysql-database.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_MYSQL_CURSOR (grammar_mysql_cursor_get_type ())
G_DECLARE_FINAL_TYPE (GrammarMysqlCursor, grammar_mysql_cursor, GRAMMAR, MYSQL_CURSOR, GrammarCursor)

void           grammar_mysql_cursor_register (GTypeModule          *module);

GrammarCursor *grammar_mysql_cursor_new      (GrammarMysqlDatabase *database,
                                              MYSQL                *connection,
                                              MYSQL_STMT           *stmt,
                                              GError              **error);

G_END_DECLS
