/* grammar-sql-dialect-private.h: the dialect rules the library shares
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether @identifier is read bare as itself by every dialect the
 * library knows: aliases the library makes up are, so that a template
 * is the same text on every backend. */
G_GNUC_INTERNAL
gboolean grammar_sql_is_plain_everywhere (const char *identifier);
/* ASCII letters, digits and underscores, starting with a letter or an
 * underscore. */
G_GNUC_INTERNAL
gboolean grammar_sql_is_ascii_name (const char *identifier);

G_END_DECLS
