/* grammar-mysql-cursor.h: the rows of a MariaDB or MySQL statement
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>
#include <mysql.h>

G_BEGIN_DECLS

/* The database a cursor's connection belongs to (grammar-mysql-database.h):
 * the cursor only holds it and hands it to its #GrammarMysqlCursorOwner. */
typedef struct _GrammarMysqlDatabase GrammarMysqlDatabase;

/**
 * GrammarMysqlCursorOwner:
 * @release_connection: gives the connection back when the rows end
 *   (grammar_mysql_database_release_connection())
 * @set_error: turns a server error into a #GError
 *   (grammar_mysql_database_set_error())
 *
 * What a cursor needs of its database, given by the database that makes
 * the cursor, so that the cursor does not call into the database.
 */
typedef struct
{
  void (*release_connection) (GrammarMysqlDatabase  *database,
                              MYSQL                 *connection,
                              gboolean               reusable);
  void (*set_error)          (GrammarMysqlDatabase  *database,
                              unsigned int           code,
                              const char            *message,
                              GError               **error);
} GrammarMysqlCursorOwner;

#define GRAMMAR_TYPE_MYSQL_CURSOR (grammar_mysql_cursor_get_type ())
G_DECLARE_FINAL_TYPE (GrammarMysqlCursor, grammar_mysql_cursor, GRAMMAR, MYSQL_CURSOR, GrammarCursor)

void           grammar_mysql_cursor_register (GTypeModule                   *module);

GrammarCursor *grammar_mysql_cursor_new      (GrammarMysqlDatabase          *database,
                                              const GrammarMysqlCursorOwner *owner,
                                              MYSQL                         *connection,
                                              MYSQL_STMT                    *stmt,
                                              GError                       **error);

G_END_DECLS
