/* grammar-postgres-cursor.c: the rows of a PostgreSQL statement, streamed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "grammar-postgres-cursor.h"

/**
 * GrammarPostgresCursor:
 *
 * A #GrammarCursor over a statement running in libpq's single-row mode:
 * each row is one result, read when the cursor moves to it, so that no
 * more than a row is held whatever the size of the result. The cursor
 * holds its connection, in a read-only transaction, until the last row
 * has been read (or until it goes), and keeps its database alive.
 *
 * Values come out as the cursor contract says, the way SQLite would
 * give the same data: integers and booleans as `x`, floating-point
 * numbers as `d` (a `real` from its shortest text, so 0.1 is 0.1),
 * `numeric` as `x` when it is a whole number that fits, as `d` with at
 * most 15 significant digits, and as its exact text otherwise; `bytea`
 * as `ay`; dates and times as ISO text in UTC; anything else as its
 * text, always valid UTF-8; and %NULL for SQL NULL.
 */
struct _GrammarPostgresCursor
{
  GrammarCursor parent_instance;

  GrammarPostgresDatabase *database;
  const GrammarPostgresCursorOwner *owner;
  PGconn *conn;            /* until the statement ends */
  PGresult *pending;       /* the first result, read to learn the columns */
  PGresult *row;           /* the current row */
  GStrv column_names;
  Oid *column_types;
  guint n_columns;
  gboolean finished;
};

G_DEFINE_DYNAMIC_TYPE (GrammarPostgresCursor, grammar_postgres_cursor, GRAMMAR_TYPE_CURSOR)

/* Type OIDs, fixed in PostgreSQL's catalog (pg_type.dat). */
enum
{
  OID_BOOL = 16,
  OID_BYTEA = 17,
  OID_INT8 = 20,
  OID_INT2 = 21,
  OID_INT4 = 23,
  OID_OID = 26,
  OID_FLOAT4 = 700,
  OID_FLOAT8 = 701,
  OID_TIMESTAMPTZ = 1184,
  OID_NUMERIC = 1700,
};

static void
end_statement (GrammarPostgresCursor *self,
               gboolean               abandon)
{
  g_clear_pointer (&self->pending, PQclear);
  g_clear_pointer (&self->row, PQclear);
  self->owner->end_statement (self->database, g_steal_pointer (&self->conn), abandon);
  self->finished = TRUE;
}

static gboolean
grammar_postgres_cursor_next (GrammarCursor  *cursor,
                              GCancellable   *cancellable,
                              GError        **error)
{
  GrammarPostgresCursor *self = GRAMMAR_POSTGRES_CURSOR (cursor);
  PGresult *result;

  if (self->finished)
    return FALSE;

  g_clear_pointer (&self->row, PQclear);
  if (self->pending != NULL)
    result = g_steal_pointer (&self->pending);
  else
    {
      result = self->owner->next_result (self->database, self->conn, cancellable, error);
      if (result == NULL)
        {
          /* Cancelled (the server was told), or no end result came. */
          if (error != NULL && *error == NULL)
            self->owner->set_error (self->database, self->conn, NULL, FALSE, error);
          end_statement (self, FALSE);
          return FALSE;
        }
    }

  switch (PQresultStatus (result))
    {
    case PGRES_SINGLE_TUPLE:
      self->row = result;
      return TRUE;
    case PGRES_TUPLES_OK:
      /* The end of the rows: the transaction ends and the connection
       * goes back to the pool now, not when the cursor goes. */
      PQclear (result);
      end_statement (self, FALSE);
      return FALSE;
    default:
      self->owner->set_error (self->database, self->conn, result, FALSE, error);
      PQclear (result);
      end_statement (self, FALSE);
      return FALSE;
    }
}

static guint
grammar_postgres_cursor_get_n_columns (GrammarCursor *cursor)
{
  return GRAMMAR_POSTGRES_CURSOR (cursor)->n_columns;
}

static const char *
grammar_postgres_cursor_get_column_name (GrammarCursor *cursor,
                                         guint          column)
{
  return GRAMMAR_POSTGRES_CURSOR (cursor)->column_names[column];
}

static GVariant *
bytea_value (const char *text)
{
  size_t length = 0;
  unsigned char *data = PQunescapeBytea ((const unsigned char *) text, &length);
  GVariant *value;

  if (data == NULL)
    return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, NULL, 0, 1);
  value = g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data, length, 1);
  PQfreemem (data);
  return value;
}

static GVariant *
timestamptz_value (const char *text,
                   int         length)
{
  /* The session is in UTC: the offset says nothing, and SQLite's
   * datetime text has none. */
  if (length > 3 && g_str_has_suffix (text, "+00"))
    length -= 3;
  return grammar_value_new_text (text, length);
}

static GVariant *
grammar_postgres_cursor_get_value (GrammarCursor *cursor,
                                   guint          column)
{
  GrammarPostgresCursor *self = GRAMMAR_POSTGRES_CURSOR (cursor);
  const char *text;
  int length;
  GVariant *value;

  g_return_val_if_fail (self->row != NULL, NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);

  if (PQgetisnull (self->row, 0, column))
    return NULL;
  text = PQgetvalue (self->row, 0, column);
  length = PQgetlength (self->row, 0, column);

  switch (self->column_types[column])
    {
    case OID_BOOL:
      value = g_variant_new_int64 (text[0] == 't' ? 1 : 0);
      break;
    case OID_INT2:
    case OID_INT4:
    case OID_INT8:
    case OID_OID:
      value = g_variant_new_int64 (g_ascii_strtoll (text, NULL, 10));
      break;
    case OID_FLOAT4:
    case OID_FLOAT8:
      /* The shortest text that reads back as the same number
       * (extra_float_digits=1): a real's 0.1 becomes the double 0.1. */
      value = g_variant_new_double (g_ascii_strtod (text, NULL));
      break;
    case OID_NUMERIC:
      value = grammar_value_new_decimal (text, length);
      break;
    case OID_BYTEA:
      value = bytea_value (text);
      break;
    case OID_TIMESTAMPTZ:
      value = timestamptz_value (text, length);
      break;
    default:
      /* text, varchar, date, time, timestamp, json, uuid, enums…: the
       * server's text of the value (ISO for dates, in UTC). */
      value = grammar_value_new_text (text, length);
      break;
    }
  return g_variant_ref_sink (value);
}

static void
grammar_postgres_cursor_finalize (GObject *object)
{
  GrammarPostgresCursor *self = GRAMMAR_POSTGRES_CURSOR (object);

  /* Left before its end: the rest of the rows is not wanted. */
  if (!self->finished)
    end_statement (self, TRUE);
  g_strfreev (self->column_names);
  g_free (self->column_types);
  g_clear_object (&self->database);

  G_OBJECT_CLASS (grammar_postgres_cursor_parent_class)->finalize (object);
}

static void
grammar_postgres_cursor_class_init (GrammarPostgresCursorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarCursorClass *cursor_class = GRAMMAR_CURSOR_CLASS (klass);

  object_class->finalize = grammar_postgres_cursor_finalize;
  cursor_class->next = grammar_postgres_cursor_next;
  cursor_class->get_n_columns = grammar_postgres_cursor_get_n_columns;
  cursor_class->get_column_name = grammar_postgres_cursor_get_column_name;
  cursor_class->get_value = grammar_postgres_cursor_get_value;
}

static void
grammar_postgres_cursor_class_finalize (GrammarPostgresCursorClass *klass)
{
}

static void
grammar_postgres_cursor_init (GrammarPostgresCursor *self)
{
}

/**
 * grammar_postgres_cursor_register:
 * @module: the plugin module
 *
 * Registers %GRAMMAR_TYPE_POSTGRES_CURSOR with the type system.
 */
void
grammar_postgres_cursor_register (GTypeModule *module)
{
  grammar_postgres_cursor_register_type (module);
}

/**
 * grammar_postgres_cursor_new:
 * @database: the database @conn belongs to
 * @owner: what the cursor needs of @database
 * @conn: (transfer full): a connection running a statement in single-row mode
 * @first: (transfer full): the statement's first result: a row, or its end
 *
 * Wraps the running statement into a cursor, which gives @conn back to
 * @database when the rows end or the cursor goes.
 *
 * Returns: (transfer full): a cursor before its first row
 */
GrammarCursor *
grammar_postgres_cursor_new (GrammarPostgresDatabase          *database,
                             const GrammarPostgresCursorOwner *owner,
                             PGconn                           *conn,
                             PGresult                         *first)
{
  GrammarPostgresCursor *self;
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();

  g_return_val_if_fail (G_IS_OBJECT (database), NULL);
  g_return_val_if_fail (owner != NULL, NULL);
  g_return_val_if_fail (conn != NULL, NULL);
  g_return_val_if_fail (first != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_POSTGRES_CURSOR, NULL);
  self->database = g_object_ref (database);
  self->owner = owner;
  self->conn = conn;
  self->pending = first;
  self->n_columns = (guint) MAX (PQnfields (first), 0);
  self->column_types = g_new0 (Oid, MAX (self->n_columns, 1));

  for (guint i = 0; i < self->n_columns; i++)
    {
      /* In a SQL_ASCII database a name is whatever bytes were stored. */
      g_autofree char *name = g_utf8_make_valid (PQfname (first, (int) i), -1);

      g_strv_builder_add (names, name);
      self->column_types[i] = PQftype (first, (int) i);
    }
  self->column_names = g_strv_builder_end (names);

  return GRAMMAR_CURSOR (self);
}
