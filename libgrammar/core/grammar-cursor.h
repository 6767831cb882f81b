/* grammar-cursor.h: rows of a query, one at a time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_CURSOR (grammar_cursor_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GrammarCursor, grammar_cursor, GRAMMAR, CURSOR, GObject)

/**
 * GrammarCursorClass:
 * @parent_class: the parent class
 * @next: moves to the next row; returns %FALSE at the end or on error
 * @get_n_columns: the number of result columns
 * @get_column_name: the name of a result column
 * @get_value: the value of a column in the current row, %NULL for SQL NULL
 *
 * The virtual functions a database plugin implements for its cursor.
 */
struct _GrammarCursorClass
{
  GObjectClass parent_class;

  gboolean     (*next)            (GrammarCursor  *self,
                                   GCancellable   *cancellable,
                                   GError        **error);
  guint        (*get_n_columns)   (GrammarCursor  *self);
  const char * (*get_column_name) (GrammarCursor  *self,
                                   guint           column);
  GVariant *   (*get_value)       (GrammarCursor  *self,
                                   guint           column);

  /*< private >*/
  gpointer padding[8];
};

GRAMMAR_AVAILABLE_IN_ALL
gboolean    grammar_cursor_next            (GrammarCursor  *self,
                                            GCancellable   *cancellable,
                                            GError        **error);
GRAMMAR_AVAILABLE_IN_ALL
guint       grammar_cursor_get_n_columns   (GrammarCursor  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_cursor_get_column_name (GrammarCursor  *self,
                                            guint           column);
GRAMMAR_AVAILABLE_IN_ALL
GVariant   *grammar_cursor_get_value       (GrammarCursor  *self,
                                            guint           column);

G_END_DECLS
