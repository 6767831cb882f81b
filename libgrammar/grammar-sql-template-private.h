/* grammar-sql-template-private.h: placeholder parsing shared by the template types
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * grammar_placeholder_parse:
 * @text: text starting with `[`
 * @length: (out): the length of the placeholder, brackets included
 * @table: (out) (optional): the table name, unquoted
 * @column: (out) (optional): the column name, unquoted
 * @error: return location for a #GError
 *
 * Reads one `[Table.Column]` placeholder. Either name may be written in
 * double quotes or backquotes (doubling the quote inside), which allows
 * spaces; a bare name stops at a space, `.`, `]`, `[` or a quote.
 *
 * Returns: %TRUE when @text starts with a placeholder; otherwise %FALSE
 *   with a %GRAMMAR_ERROR_INVALID_INPUT error saying what is wrong
 */
gboolean grammar_placeholder_parse (const char  *text,
                                    gsize       *length,
                                    char       **table,
                                    char       **column,
                                    GError     **error);

G_END_DECLS
