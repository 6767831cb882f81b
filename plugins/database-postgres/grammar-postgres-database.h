/* grammar-postgres-database.h: a database read from a PostgreSQL server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar-plugin.h>
#include <libpq-fe.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_POSTGRES_DATABASE (grammar_postgres_database_get_type ())
G_DECLARE_FINAL_TYPE (GrammarPostgresDatabase, grammar_postgres_database, GRAMMAR, POSTGRES_DATABASE, GrammarServerDatabase)

void      grammar_postgres_database_register      (GTypeModule              *module);

PGresult *grammar_postgres_database_next_result   (GrammarPostgresDatabase  *self,
                                                   PGconn                   *conn,
                                                   GCancellable             *cancellable,
                                                   GError                  **error);
void      grammar_postgres_database_set_error     (GrammarPostgresDatabase  *self,
                                                   PGconn                   *conn,
                                                   const PGresult           *result,
                                                   gboolean                  preparing,
                                                   GError                  **error);
void      grammar_postgres_database_end_statement (GrammarPostgresDatabase  *self,
                                                   PGconn                   *conn,
                                                   gboolean                  abandon);

G_END_DECLS
