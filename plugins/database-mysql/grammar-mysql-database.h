/* grammar-mysql-database.h: a database read from a MariaDB or MySQL server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar-plugin.h>
#include <mysql.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_MYSQL_DATABASE (grammar_mysql_database_get_type ())
G_DECLARE_FINAL_TYPE (GrammarMysqlDatabase, grammar_mysql_database, GRAMMAR, MYSQL_DATABASE, GrammarServerDatabase)

void     grammar_mysql_database_register           (GTypeModule           *module);

void     grammar_mysql_database_release_connection (GrammarMysqlDatabase  *self,
                                                    MYSQL                 *connection,
                                                    gboolean               reusable);
void     grammar_mysql_database_set_error          (GrammarMysqlDatabase  *self,
                                                    unsigned int           code,
                                                    const char            *message,
                                                    GError               **error);

G_END_DECLS
