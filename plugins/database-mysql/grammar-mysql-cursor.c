/* grammar-mysql-cursor.c: the rows of a MariaDB or MySQL statement
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-mysql-cursor.h"

/**
 * GrammarMysqlCursor:
 *
 * A #GrammarCursor over an executed prepared statement, whose rows are
 * read from the server one at a time (never stored whole on the
 * client). It holds its connection, which can run nothing else
 * meanwhile, and gives it back to the database's pool at the end. A
 * cursor dropped before its last row closes the connection instead:
 * reading the rest would cost as much as the whole result.
 *
 * Values follow the cursor contract, and are the bytes the same data
 * gives from SQLite: integers `x`, floating point `d`, decimals by
 * their size, dates and times as text, text `s` (valid UTF-8) and
 * binary strings `ay`, %NULL for SQL NULL.
 */

/* The fetch buffer of one result column. */
typedef struct
{
  enum enum_field_types type;     /* as the server sends it */
  gboolean is_unsigned;
  gboolean is_binary;             /* binary character set (63): bytes, not text */

  union
  {
    gint64 integer;
    double real;
    float single;
    MYSQL_TIME time;
  } fixed;
  char *data;                     /* variable-length values */
  unsigned long capacity;
  unsigned long length;
  my_bool is_null;
  my_bool truncated;
} Column;

struct _GrammarMysqlCursor
{
  GrammarCursor parent_instance;

  GrammarMysqlDatabase *database;
  const GrammarMysqlCursorOwner *owner;
  MYSQL *connection;              /* until the cursor ends */
  MYSQL_STMT *stmt;
  GStrv column_names;
  guint n_columns;
  Column *columns;
  MYSQL_BIND *binds;
  gboolean on_row;
  gboolean finished;
};

G_DEFINE_DYNAMIC_TYPE (GrammarMysqlCursor, grammar_mysql_cursor, GRAMMAR_TYPE_CURSOR)

#define INITIAL_CAPACITY 64

static gboolean
is_integer_type (enum enum_field_types type)
{
  return type == MYSQL_TYPE_TINY || type == MYSQL_TYPE_SHORT || type == MYSQL_TYPE_INT24 ||
         type == MYSQL_TYPE_LONG || type == MYSQL_TYPE_LONGLONG || type == MYSQL_TYPE_YEAR;
}

static gboolean
is_time_type (enum enum_field_types type)
{
  return type == MYSQL_TYPE_DATE || type == MYSQL_TYPE_NEWDATE || type == MYSQL_TYPE_TIME ||
         type == MYSQL_TYPE_DATETIME || type == MYSQL_TYPE_TIMESTAMP;
}

/* Points @bind at @column's buffer for its type: integers, floating
 * point and times in fixed buffers, everything else (decimals, text,
 * bytes, bits) as the bytes the server sends. */
static void
bind_column (Column     *column,
             MYSQL_BIND *bind)
{
  memset (bind, 0, sizeof *bind);
  bind->is_null = &column->is_null;
  bind->error = &column->truncated;
  bind->length = &column->length;

  if (is_integer_type (column->type))
    {
      bind->buffer_type = MYSQL_TYPE_LONGLONG;
      bind->is_unsigned = column->is_unsigned;
      bind->buffer = &column->fixed.integer;
    }
  else if (column->type == MYSQL_TYPE_FLOAT)
    {
      bind->buffer_type = MYSQL_TYPE_FLOAT;
      bind->buffer = &column->fixed.single;
    }
  else if (column->type == MYSQL_TYPE_DOUBLE)
    {
      bind->buffer_type = MYSQL_TYPE_DOUBLE;
      bind->buffer = &column->fixed.real;
    }
  else if (is_time_type (column->type))
    {
      bind->buffer_type = column->type == MYSQL_TYPE_NEWDATE ? MYSQL_TYPE_DATE : column->type;
      bind->buffer = &column->fixed.time;
      bind->buffer_length = sizeof column->fixed.time;
    }
  else if (column->type == MYSQL_TYPE_NULL)
    bind->buffer_type = MYSQL_TYPE_NULL;
  else
    {
      bind->buffer_type = MYSQL_TYPE_BLOB;
      bind->buffer = column->data;
      bind->buffer_length = column->capacity;
    }
}

/* An error while rows are read (the statement timeout, a lost
 * connection) may be left on the connection rather than the statement. */
static void
set_fetch_error (GrammarMysqlCursor  *self,
                 GError             **error)
{
  if (mysql_stmt_errno (self->stmt) != 0)
    self->owner->set_error (self->database, mysql_stmt_errno (self->stmt),
                                      mysql_stmt_error (self->stmt), error);
  else
    self->owner->set_error (self->database, mysql_errno (self->connection),
                                      mysql_error (self->connection), error);
}

static void
finish (GrammarMysqlCursor *self,
        gboolean            reusable)
{
  self->finished = TRUE;
  self->on_row = FALSE;
  if (self->connection == NULL)
    return;

  if (reusable)
    {
      /* Every row has been read: closing the statement sends nothing
       * but its own close, and the connection can serve again. */
      g_clear_pointer (&self->stmt, mysql_stmt_close);
      self->owner->release_connection (self->database, g_steal_pointer (&self->connection), TRUE);
    }
  else
    {
      /* Closing the connection first detaches the statement, whose
       * close would otherwise read every row left. */
      self->owner->release_connection (self->database, g_steal_pointer (&self->connection), FALSE);
      g_clear_pointer (&self->stmt, mysql_stmt_close);
    }
}

/* Reads the values that did not fit their buffers, growing them for
 * the rows to come. */
static gboolean
fetch_truncated (GrammarMysqlCursor  *self,
                 GError             **error)
{
  gboolean rebind = FALSE;

  for (guint i = 0; i < self->n_columns; i++)
    {
      Column *column = &self->columns[i];
      MYSQL_BIND *bind = &self->binds[i];

      if (!column->truncated || bind->buffer_type != MYSQL_TYPE_BLOB)
        continue;
      column->capacity = MAX (column->length + 1, column->capacity * 2);
      column->data = g_realloc (column->data, column->capacity);
      bind->buffer = column->data;
      bind->buffer_length = column->capacity;
      if (mysql_stmt_fetch_column (self->stmt, bind, i, 0) != 0)
        {
          set_fetch_error (self, error);
          return FALSE;
        }
      column->truncated = FALSE;
      rebind = TRUE;
    }
  if (rebind && mysql_stmt_bind_result (self->stmt, self->binds) != 0)
    {
      set_fetch_error (self, error);
      return FALSE;
    }
  return TRUE;
}

static gboolean
grammar_mysql_cursor_next (GrammarCursor  *cursor,
                           GCancellable   *cancellable,
                           GError        **error)
{
  GrammarMysqlCursor *self = GRAMMAR_MYSQL_CURSOR (cursor);
  int rc;

  /* grammar_cursor_next() checks @cancellable between rows; a fetch
   * the server is still computing runs to its end (or the timeout). */
  if (self->finished)
    return FALSE;

  rc = mysql_stmt_fetch (self->stmt);
  if (rc == 0 || (rc == MYSQL_DATA_TRUNCATED && fetch_truncated (self, error)))
    {
      self->on_row = TRUE;
      return TRUE;
    }
  if (rc == MYSQL_NO_DATA)
    {
      finish (self, TRUE);
      return FALSE;
    }
  if (rc != MYSQL_DATA_TRUNCATED)
    set_fetch_error (self, error);
  finish (self, FALSE);
  return FALSE;
}

static guint
grammar_mysql_cursor_get_n_columns (GrammarCursor *cursor)
{
  return GRAMMAR_MYSQL_CURSOR (cursor)->n_columns;
}

static const char *
grammar_mysql_cursor_get_column_name (GrammarCursor *cursor,
                                      guint          column)
{
  return GRAMMAR_MYSQL_CURSOR (cursor)->column_names[column];
}

static GVariant *
integer_value (Column *column)
{
  /* Above G_MAXINT64 a BIGINT UNSIGNED has no int64: an exact decimal
   * of its digits, written to JSON as that number. */
  if (column->is_unsigned && (guint64) column->fixed.integer > G_MAXINT64)
    {
      char digits[24];

      g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, (guint64) column->fixed.integer);
      return grammar_value_new_decimal (digits, -1);
    }
  return g_variant_new_int64 (column->fixed.integer);
}

/* Dates and times as text, in the forms SQLite's date functions use;
 * fractional seconds only when there are some. */
static GVariant *
time_value (Column *column)
{
  const MYSQL_TIME *t = &column->fixed.time;
  GString *text = g_string_new (NULL);

  switch (t->time_type)
    {
    case MYSQL_TIMESTAMP_DATE:
      g_string_append_printf (text, "%04u-%02u-%02u", t->year, t->month, t->day);
      break;
    case MYSQL_TIMESTAMP_TIME:
      /* A TIME is a duration: it may be negative or past 24 hours. */
      g_string_append_printf (text, "%s%02u:%02u:%02u", t->neg ? "-" : "",
                              t->day * 24 + t->hour, t->minute, t->second);
      break;
    default:
      g_string_append_printf (text, "%04u-%02u-%02u %02u:%02u:%02u",
                              t->year, t->month, t->day, t->hour, t->minute, t->second);
      break;
    }
  if (t->time_type != MYSQL_TIMESTAMP_DATE && t->second_part != 0)
    {
      g_string_append_printf (text, ".%06lu", t->second_part);
      while (text->str[text->len - 1] == '0')
        g_string_truncate (text, text->len - 1);
    }
  return g_variant_new_take_string (g_string_free (text, FALSE));
}

/* BIT(n) comes as n bits in big-endian bytes. */
static GVariant *
bit_value (const char *data,
           gsize       length)
{
  guint64 value = 0;

  for (gsize i = 0; i < length; i++)
    value = (value << 8) | (guchar) data[i];
  return g_variant_new_int64 ((gint64) value);
}

static GVariant *
grammar_mysql_cursor_get_value (GrammarCursor *cursor,
                                guint          index)
{
  GrammarMysqlCursor *self = GRAMMAR_MYSQL_CURSOR (cursor);
  Column *column;
  GVariant *value;

  g_return_val_if_fail (self->on_row, NULL);
  g_return_val_if_fail (index < self->n_columns, NULL);

  column = &self->columns[index];
  if (column->is_null || column->type == MYSQL_TYPE_NULL)
    return NULL;

  if (is_integer_type (column->type))
    value = integer_value (column);
  else if (column->type == MYSQL_TYPE_FLOAT)
    value = grammar_value_new_float (column->fixed.single);
  else if (column->type == MYSQL_TYPE_DOUBLE)
    value = g_variant_new_double (column->fixed.real);
  else if (is_time_type (column->type))
    value = time_value (column);
  else if (column->type == MYSQL_TYPE_NEWDECIMAL || column->type == MYSQL_TYPE_DECIMAL)
    value = grammar_value_new_decimal (column->data, (gssize) column->length);
  else if (column->type == MYSQL_TYPE_BIT)
    value = bit_value (column->data, column->length);
  else if (column->is_binary)
    value = g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, column->data, column->length, 1);
  else
    value = grammar_value_new_text (column->data, (gssize) column->length);
  return g_variant_ref_sink (value);
}

static void
grammar_mysql_cursor_finalize (GObject *object)
{
  GrammarMysqlCursor *self = GRAMMAR_MYSQL_CURSOR (object);

  finish (self, FALSE);
  for (guint i = 0; i < self->n_columns; i++)
    g_free (self->columns[i].data);
  g_free (self->columns);
  g_free (self->binds);
  g_strfreev (self->column_names);
  g_clear_object (&self->database);

  G_OBJECT_CLASS (grammar_mysql_cursor_parent_class)->finalize (object);
}

static void
grammar_mysql_cursor_class_init (GrammarMysqlCursorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarCursorClass *cursor_class = GRAMMAR_CURSOR_CLASS (klass);

  object_class->finalize = grammar_mysql_cursor_finalize;
  cursor_class->next = grammar_mysql_cursor_next;
  cursor_class->get_n_columns = grammar_mysql_cursor_get_n_columns;
  cursor_class->get_column_name = grammar_mysql_cursor_get_column_name;
  cursor_class->get_value = grammar_mysql_cursor_get_value;
}

static void
grammar_mysql_cursor_class_finalize (GrammarMysqlCursorClass *klass)
{
}

static void
grammar_mysql_cursor_init (GrammarMysqlCursor *self)
{
}

/**
 * grammar_mysql_cursor_register:
 * @module: the plugin module
 *
 * Registers %GRAMMAR_TYPE_MYSQL_CURSOR with the type system.
 */
void
grammar_mysql_cursor_register (GTypeModule *module)
{
  grammar_mysql_cursor_register_type (module);
}

static void
set_columns (GrammarMysqlCursor *self,
             MYSQL_RES          *metadata)
{
  MYSQL_FIELD *fields = mysql_fetch_fields (metadata);
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();

  self->n_columns = mysql_num_fields (metadata);
  self->columns = g_new0 (Column, self->n_columns);
  self->binds = g_new0 (MYSQL_BIND, self->n_columns);
  for (guint i = 0; i < self->n_columns; i++)
    {
      Column *column = &self->columns[i];
      g_autofree char *name = NULL;

      column->type = fields[i].type;
      column->is_unsigned = (fields[i].flags & UNSIGNED_FLAG) != 0;
      /* BINARY_FLAG is also set for text under a _bin collation; only
       * the binary character set means bytes. */
      column->is_binary = fields[i].charsetnr == 63;
      column->capacity = INITIAL_CAPACITY;
      column->data = g_malloc (column->capacity);
      bind_column (column, &self->binds[i]);

      name = g_utf8_make_valid (fields[i].name, fields[i].name_length);
      g_strv_builder_add (names, name);
    }
  self->column_names = g_strv_builder_end (names);
}

/**
 * grammar_mysql_cursor_new:
 * @database: the database @connection belongs to
 * @owner: what the cursor needs of @database
 * @connection: (transfer full): the connection @stmt ran on, in its transaction
 * @stmt: (transfer full): an executed statement whose rows are not read yet
 * @error: where to put an error
 *
 * Wraps @stmt into a cursor, which gives @connection back to @database
 * when it ends.
 *
 * Returns: (transfer full): a cursor before its first row, or %NULL
 */
GrammarCursor *
grammar_mysql_cursor_new (GrammarMysqlDatabase          *database,
                          const GrammarMysqlCursorOwner *owner,
                          MYSQL                         *connection,
                          MYSQL_STMT                    *stmt,
                          GError                       **error)
{
  g_autoptr (GrammarMysqlCursor) self = NULL;
  MYSQL_RES *metadata;

  g_return_val_if_fail (G_IS_OBJECT (database), NULL);
  g_return_val_if_fail (owner != NULL, NULL);
  g_return_val_if_fail (connection != NULL && stmt != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_MYSQL_CURSOR, NULL);
  self->database = g_object_ref (database);
  self->owner = owner;
  self->connection = connection;
  self->stmt = stmt;

  metadata = mysql_stmt_result_metadata (stmt);
  if (metadata == NULL)
    {
      owner->set_error (database, mysql_stmt_errno (stmt), mysql_stmt_error (stmt), error);
      return NULL;
    }
  set_columns (self, metadata);
  mysql_free_result (metadata);

  if (mysql_stmt_bind_result (stmt, self->binds) != 0)
    {
      owner->set_error (database, mysql_stmt_errno (stmt), mysql_stmt_error (stmt), error);
      return NULL;
    }
  return GRAMMAR_CURSOR (g_steal_pointer (&self));
}
