/* grammar-sql-generator-private.h: what the built-in SQL generators share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-database.h"
#include "grammar-schema.h"

G_BEGIN_DECLS

G_GNUC_INTERNAL
gboolean grammar_sql_generator_use_database (GrammarDatabase  **database_slot,
                                             GrammarSchema    **schema_slot,
                                             GrammarDatabase   *database,
                                             GCancellable      *cancellable,
                                             GError           **error);

G_END_DECLS
