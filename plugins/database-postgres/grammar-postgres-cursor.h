/* grammar-postgres-cursor.h: the rows of a PostgreSQL statement, streamed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>
#include <libpq-fe.h>

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PGresult, PQclear)

/* The database a cursor's connection belongs to (grammar-postgres-database.h):
 * the cursor only holds it and hands it to its #GrammarPostgresCursorOwner. */
typedef struct _GrammarPostgresDatabase GrammarPostgresDatabase;

/**
 * GrammarPostgresCursorOwner:
 * @next_result: waits for the next result of the statement
 *   (grammar_postgres_database_next_result())
 * @set_error: turns a failed result or connection into a #GError
 *   (grammar_postgres_database_set_error())
 * @end_statement: ends the statement and gives the connection back
 *   (grammar_postgres_database_end_statement())
 *
 * What a cursor needs of its database, given by the database that makes
 * the cursor, so that the cursor does not call into the database.
 */
typedef struct
{
  PGresult *(*next_result)   (GrammarPostgresDatabase  *database,
                              PGconn                   *conn,
                              GCancellable             *cancellable,
                              GError                  **error);
  void      (*set_error)     (GrammarPostgresDatabase  *database,
                              PGconn                   *conn,
                              const PGresult           *result,
                              gboolean                  preparing,
                              GError                  **error);
  void      (*end_statement) (GrammarPostgresDatabase  *database,
                              PGconn                   *conn,
                              gboolean                  abandon);
} GrammarPostgresCursorOwner;

#define GRAMMAR_TYPE_POSTGRES_CURSOR (grammar_postgres_cursor_get_type ())
G_DECLARE_FINAL_TYPE (GrammarPostgresCursor, grammar_postgres_cursor, GRAMMAR, POSTGRES_CURSOR, GrammarCursor)

void           grammar_postgres_cursor_register (GTypeModule                      *module);

GrammarCursor *grammar_postgres_cursor_new      (GrammarPostgresDatabase          *database,
                                                 const GrammarPostgresCursorOwner *owner,
                                                 PGconn                           *conn,
                                                 PGresult                         *first);

G_END_DECLS
