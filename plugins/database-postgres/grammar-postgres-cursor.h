/* grammar-postgres-cursor.h: the rows of a PostgreSQL statement, streamed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-postgres-database.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_POSTGRES_CURSOR (grammar_postgres_cursor_get_type ())
G_DECLARE_FINAL_TYPE (GrammarPostgresCursor, grammar_postgres_cursor, GRAMMAR, POSTGRES_CURSOR, GrammarCursor)

void           grammar_postgres_cursor_register (GTypeModule             *module);

GrammarCursor *grammar_postgres_cursor_new      (GrammarPostgresDatabase *database,
                                                 PGconn                  *conn,
                                                 PGresult                *first);

G_END_DECLS
