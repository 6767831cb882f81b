/* grammar-sqlite-cursor.c: the rows of an SQLite statement
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-sqlite-cursor.h"

/**
 * GrammarSqliteCursor:
 *
 * A #GrammarCursor over a prepared SQLite statement. It keeps its
 * database alive, so that the connection outlives every statement on it.
 * Values come out as the cursor contract says: `x`, `d`, `s` (always
 * valid UTF-8) and `ay`, and %NULL for SQL NULL.
 */
struct _GrammarSqliteCursor
{
  GrammarCursor parent_instance;

  GrammarSqliteDatabase *database;
  sqlite3_stmt *stmt;
  GStrv column_names;
  guint n_columns;
  gboolean on_row;
  gboolean finished;
};

G_DEFINE_DYNAMIC_TYPE (GrammarSqliteCursor, grammar_sqlite_cursor, GRAMMAR_TYPE_CURSOR)

static gboolean
grammar_sqlite_cursor_next (GrammarCursor  *cursor,
                            GCancellable   *cancellable,
                            GError        **error)
{
  GrammarSqliteCursor *self = GRAMMAR_SQLITE_CURSOR (cursor);
  int rc;

  /* Stepping a finished statement again would silently rerun it. */
  if (self->finished)
    return FALSE;

  rc = grammar_sqlite_database_step (self->database, self->stmt, cancellable, error);
  self->on_row = rc == SQLITE_ROW;
  self->finished = !self->on_row;
  return self->on_row;
}

static guint
grammar_sqlite_cursor_get_n_columns (GrammarCursor *cursor)
{
  return GRAMMAR_SQLITE_CURSOR (cursor)->n_columns;
}

static const char *
grammar_sqlite_cursor_get_column_name (GrammarCursor *cursor,
                                       guint          column)
{
  return GRAMMAR_SQLITE_CURSOR (cursor)->column_names[column];
}

/* SQLite stores whatever bytes it was given as TEXT: repaired into
 * UTF-8 without NUL, the same way as every backend's text. */
static GVariant *
text_value (sqlite3_stmt *stmt,
            int           column)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);

  return grammar_value_new_text (text, text != NULL ? sqlite3_column_bytes (stmt, column) : 0);
}

static GVariant *
blob_value (sqlite3_stmt *stmt,
            int           column)
{
  const void *data = sqlite3_column_blob (stmt, column);
  g_autoptr (GBytes) bytes = g_bytes_new (data, sqlite3_column_bytes (stmt, column));

  return g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, bytes, TRUE);
}

static GVariant *
grammar_sqlite_cursor_get_value (GrammarCursor *cursor,
                                 guint          column)
{
  GrammarSqliteCursor *self = GRAMMAR_SQLITE_CURSOR (cursor);
  GVariant *value = NULL;

  g_return_val_if_fail (self->on_row, NULL);

  switch (sqlite3_column_type (self->stmt, column))
    {
    case SQLITE_INTEGER:
      value = g_variant_new_int64 (sqlite3_column_int64 (self->stmt, column));
      break;
    case SQLITE_FLOAT:
      value = g_variant_new_double (sqlite3_column_double (self->stmt, column));
      break;
    case SQLITE_TEXT:
      value = text_value (self->stmt, column);
      break;
    case SQLITE_BLOB:
      value = blob_value (self->stmt, column);
      break;
    case SQLITE_NULL:
    default:
      return NULL;
    }
  return g_variant_ref_sink (value);
}

static void
grammar_sqlite_cursor_finalize (GObject *object)
{
  GrammarSqliteCursor *self = GRAMMAR_SQLITE_CURSOR (object);

  /* The statement goes before the database, whose connection it uses. */
  sqlite3_finalize (self->stmt);
  g_strfreev (self->column_names);
  g_clear_object (&self->database);

  G_OBJECT_CLASS (grammar_sqlite_cursor_parent_class)->finalize (object);
}

static void
grammar_sqlite_cursor_class_init (GrammarSqliteCursorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarCursorClass *cursor_class = GRAMMAR_CURSOR_CLASS (klass);

  object_class->finalize = grammar_sqlite_cursor_finalize;
  cursor_class->next = grammar_sqlite_cursor_next;
  cursor_class->get_n_columns = grammar_sqlite_cursor_get_n_columns;
  cursor_class->get_column_name = grammar_sqlite_cursor_get_column_name;
  cursor_class->get_value = grammar_sqlite_cursor_get_value;
}

static void
grammar_sqlite_cursor_class_finalize (GrammarSqliteCursorClass *klass)
{
}

static void
grammar_sqlite_cursor_init (GrammarSqliteCursor *self)
{
}

/**
 * grammar_sqlite_cursor_register:
 * @module: the plugin module
 *
 * Registers %GRAMMAR_TYPE_SQLITE_CURSOR with the type system.
 */
void
grammar_sqlite_cursor_register (GTypeModule *module)
{
  grammar_sqlite_cursor_register_type (module);
}

/**
 * grammar_sqlite_cursor_new:
 * @database: the database @stmt was prepared on
 * @stmt: (transfer full): a prepared statement, bound and not yet stepped
 *
 * Wraps @stmt into a cursor, which finalizes the statement when it goes.
 *
 * Returns: (transfer full): a cursor before its first row
 */
GrammarCursor *
grammar_sqlite_cursor_new (GrammarSqliteDatabase *database,
                           sqlite3_stmt          *stmt)
{
  GrammarSqliteCursor *self;
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_SQLITE_DATABASE (database), NULL);
  g_return_val_if_fail (stmt != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_SQLITE_CURSOR, NULL);
  self->database = g_object_ref (database);
  self->stmt = stmt;
  self->n_columns = sqlite3_column_count (stmt);

  /* SQLite may free a column name when the statement is re-prepared,
   * while callers keep our pointer for as long as the cursor lives. */
  for (guint i = 0; i < self->n_columns; i++)
    {
      const char *name = sqlite3_column_name (stmt, i);
      /* Whatever bytes the statement named it with, as valid UTF-8. */
      g_autofree char *valid = g_utf8_make_valid (name != NULL ? name : "", -1);

      g_strv_builder_add (names, valid);
    }
  self->column_names = g_strv_builder_end (names);

  return GRAMMAR_CURSOR (self);
}
