/* grammar-plugin.h: GRAMMAR for plugin authors
 *
 * Everything of <grammar.h>, and the toolkit that only a plugin needs:
 * the HTTP client of the plugins that talk to a server
 * (#GrammarHttpClient), the base class of the server databases
 * (#GrammarServerDatabase), the read-only statement guard of the
 * database backends (grammar_sql_rewrite_query()), the rules of the SQL
 * dialects for bare names (grammar_sql_dialect_needs_quotes()) and the
 * interface of a component whose section has keys that are not its
 * properties (#GrammarConfigurable). An application includes
 * <grammar.h>; a plugin includes this header, and builds with
 * `pkg-config --cflags --libs grammar-1` as an application does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar.h"

#define GRAMMAR_PLUGIN_INSIDE

#include "grammar-configurable.h"
#include "grammar-http-client.h"
#include "grammar-server-database.h"
#include "grammar-sql-dialect.h"
#include "grammar-sql-statement.h"

#undef GRAMMAR_PLUGIN_INSIDE
