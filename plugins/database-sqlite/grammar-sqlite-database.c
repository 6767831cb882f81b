/* grammar-sqlite-database.c: a database read from an SQLite file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-sqlite-cursor.h"
#include "grammar-sqlite-database.h"

/* 64 MiB: far more than any answer or document needs, far less than
 * SQLite's own 1e9. */
#define GRAMMAR_SQLITE_DEFAULT_MAX_VALUE_BYTES (64u * 1024 * 1024)

/**
 * GrammarSqliteDatabase:
 *
 * The `sqlite` database plugin: a #GrammarDatabase over an SQLite file,
 * or over a private in-memory database loaded from an SQL script.
 *
 * Only single read-only queries ever run, with bound values. The file
 * is opened read-only and never created; on top of that the connection
 * is put in `query_only` and defensive mode, refuses ATTACH, and an
 * authorizer denies every action but reading while a query is
 * prepared. Statements are checked before anything runs: text with a
 * second statement, or a statement that is not a read-only SELECT,
 * WITH or VALUES query, fails without being stepped.
 *
 * The connection is serialized (SQLite's `FULLMUTEX` mode), so queries
 * and cursors may be used from worker threads.
 *
 * Two limits keep a runaway statement from running for ever or filling
 * the memory: #GrammarSqliteDatabase:query-timeout and
 * #GrammarSqliteDatabase:max-value-bytes. Both fail the statement with
 * %GRAMMAR_DATABASE_ERROR_LIMIT and a message that names the limit.
 */

/* What the authorizer lets through. It is changed only by the thread
 * that holds the connection mutex, so a query prepared by another
 * thread never sees the introspection mode. */
typedef enum
{
  ACCESS_QUERY,       /* user statements: reading only */
  ACCESS_INTROSPECT,  /* our own schema statements: reading and the introspection pragmas */
  ACCESS_SCRIPT,      /* loading script=: anything but files and other databases */
} Access;

struct _GrammarSqliteDatabase
{
  GObject parent_instance;

  char *uri;
  char *script;
  int busy_timeout;
  guint query_timeout;      /* seconds, 0: none */
  guint max_value_bytes;

  sqlite3 *db;
  Access access;            /* under the connection mutex */
  gboolean denied;          /* the authorizer refused something, under the connection mutex */
  GCancellable *stepping;   /* of the statement being stepped, under the connection mutex */
  gint64 deadline;          /* monotonic time the step must end by, 0: none; under the connection mutex */
  gboolean timed_out;       /* the progress handler interrupted for the deadline, under the connection mutex */

  GMutex schema_lock;
  GrammarSchema *schema;    /* read once: queries cannot change it */
};

enum
{
  PROP_0,
  PROP_URI,
  PROP_SCRIPT,
  PROP_BUSY_TIMEOUT,
  PROP_QUERY_TIMEOUT,
  PROP_MAX_VALUE_BYTES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_sqlite_database_database_iface_init (GrammarDatabaseInterface *iface);
static void grammar_sqlite_database_initable_iface_init (GInitableIface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarSqliteDatabase, grammar_sqlite_database, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_DATABASE,
                                                               grammar_sqlite_database_database_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_sqlite_database_initable_iface_init))

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

#define READ_ONLY_MESSAGE "only a single read-only SELECT may run"

/* The pragmas our introspection reads through their table-valued
 * functions. None of them has side effects. */
static const char * const introspection_pragmas[] = {
  "table_info", "index_list", "index_info", "foreign_key_list", "table_list", NULL,
};

/* Pragmas that reach outside the private in-memory database of a script. */
static const char * const script_denied_pragmas[] = {
  "temp_store_directory", "data_store_directory", NULL,
};

static gboolean
is_set (const char *text)
{
  return text != NULL && text[0] != '\0';
}

static const char *
display_name (GrammarSqliteDatabase *self)
{
  return is_set (self->uri) ? self->uri : self->script;
}

static gboolean
in_list (const char * const *list,
         const char         *name)
{
  for (guint i = 0; name != NULL && list[i] != NULL; i++)
    if (g_ascii_strcasecmp (list[i], name) == 0)
      return TRUE;
  return FALSE;
}

static int
authorize_pragma (GrammarSqliteDatabase *self,
                  const char            *name,
                  const char            *argument)
{
  if (self->access == ACCESS_SCRIPT)
    return in_list (script_denied_pragmas, name) ? SQLITE_DENY : SQLITE_OK;

  /* Full-text tables read this counter, from inside any query on them,
   * to notice changes. Without an argument it only reads. */
  if (g_strcmp0 (name, "data_version") == 0 && argument == NULL)
    return SQLITE_OK;

  /* A pragma function runs its pragma as a nested statement. */
  if (self->access == ACCESS_INTROSPECT && in_list (introspection_pragmas, name))
    return SQLITE_OK;
  return SQLITE_DENY;
}

static int
authorize_access (GrammarSqliteDatabase *self,
                  int                    action,
                  const char            *arg1,
                  const char            *arg2)
{
  switch (action)
    {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      /* Disabled already; refused again in case the library was built otherwise. */
      return g_strcmp0 (arg2, "load_extension") == 0 ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_PRAGMA:
      return authorize_pragma (self, arg1, arg2);
    case SQLITE_UPDATE:
      /* Connecting a virtual table (a full-text index, a pragma
       * function) declares its columns by compiling the schema update
       * a CREATE would make, and throws it away. A real write of the
       * schema is stopped before it runs: statements must be
       * read-only, and the connection is defensive and query_only. */
      if (g_strcmp0 (arg1, "sqlite_master") == 0)
        return SQLITE_OK;
      return self->access == ACCESS_SCRIPT ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
      return SQLITE_DENY;
    default:
      /* Any other action changes something: only a script may. */
      return self->access == ACCESS_SCRIPT ? SQLITE_OK : SQLITE_DENY;
    }
}

static int
authorize (void       *user_data,
           int         action,
           const char *arg1,
           const char *arg2,
           const char *database,
           const char *trigger)
{
  GrammarSqliteDatabase *self = user_data;
  int verdict = authorize_access (self, action, arg1, arg2);

  /* SQLite reports some refusals (of a function, say) as plain errors. */
  if (verdict != SQLITE_OK)
    self->denied = TRUE;
  return verdict;
}

static int
progress (void *user_data)
{
  GrammarSqliteDatabase *self = user_data;

  /* Non-zero interrupts the statement being stepped, and only it. */
  if (self->stepping != NULL && g_cancellable_is_cancelled (self->stepping))
    return 1;
  if (self->deadline != 0 && g_get_monotonic_time () > self->deadline)
    {
      self->timed_out = TRUE;
      return 1;
    }
  return 0;
}

static const char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  return (const char *) sqlite3_column_text (stmt, column);
}

static const char *
skip_space_and_comments (const char *sql)
{
  for (;;)
    {
      if (g_ascii_isspace (*sql))
        sql++;
      else if (sql[0] == '-' && sql[1] == '-')
        sql += strcspn (sql, "\n");
      else if (sql[0] == '/' && sql[1] == '*')
        {
          const char *end = strstr (sql + 2, "*/");

          sql = end != NULL ? end + 2 : sql + strlen (sql);
        }
      else
        return sql;
    }
}

static gboolean
is_identifier_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || (guchar) c >= 0x80;
}

static gboolean
starts_with_keyword (const char *sql,
                     const char *keyword)
{
  gsize length = strlen (keyword);

  return g_ascii_strncasecmp (sql, keyword, length) == 0 && !is_identifier_char (sql[length]);
}

/* Step one statement of this connection. Holding the connection mutex
 * makes the progress handler see our cancellable and deadline, and the
 * error message be this statement's. The deadline is per step: the time
 * SQLite spends working out the next row (or the whole answer of an
 * aggregate), not the time the caller spends between rows, so a long
 * answer read at the caller's pace is not cut. */
int
grammar_sqlite_database_step (GrammarSqliteDatabase  *self,
                              sqlite3_stmt           *stmt,
                              GCancellable           *cancellable,
                              GError                **error)
{
  sqlite3_mutex *mutex = sqlite3_db_mutex (self->db);
  GCancellable *outer;
  int rc;

  sqlite3_mutex_enter (mutex);
  outer = self->stepping;
  self->stepping = cancellable;
  self->denied = FALSE;
  self->timed_out = FALSE;
  self->deadline = self->query_timeout > 0
                   ? g_get_monotonic_time () + (gint64) self->query_timeout * G_USEC_PER_SEC : 0;
  rc = sqlite3_step (stmt);
  self->stepping = outer;
  self->deadline = 0;

  if (rc == SQLITE_ROW || rc == SQLITE_DONE)
    ;
  else if ((rc & 0xff) == SQLITE_INTERRUPT && g_cancellable_set_error_if_cancelled (cancellable, error))
    ;
  else if ((rc & 0xff) == SQLITE_INTERRUPT && self->timed_out)
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT,
                 "query-timeout=%u s exceeded: the statement was stopped", self->query_timeout);
  else if ((rc & 0xff) == SQLITE_TOOBIG)
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT,
                 "max-value-bytes=%u exceeded: the statement made a longer value (%s)",
                 self->max_value_bytes, sqlite3_errmsg (self->db));
  else if ((rc & 0xff) == SQLITE_AUTH || self->denied)
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
                 READ_ONLY_MESSAGE ": %s", sqlite3_errmsg (self->db));
  else
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_QUERY,
                 "%s", sqlite3_errmsg (self->db));
  sqlite3_mutex_leave (mutex);

  return rc;
}

static gboolean
check_open (GrammarSqliteDatabase  *self,
            GError                **error)
{
  if (self->db != NULL)
    return TRUE;
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
               "the database is not open (g_initable_init() was not called, or failed)");
  return FALSE;
}

/* The length of the word @text starts with, for messages: whole UTF-8
 * characters, at least one byte, at most a few dozen. */
static int
first_word_length (const char *text)
{
  const char *end = NULL;
  int length = 0;

  while (is_identifier_char (text[length]) && length < 40)
    length++;
  g_utf8_validate_len (text, MAX (length, 1), &end);
  return MAX (end - text, 1);
}

/* Query text: the statement must be a query by its first word. Returns
 * where the statement starts, past spaces, comments and empty
 * statements, or %NULL with @error set. */
static const char *
find_query_start (const char  *sql,
                  GError     **error)
{
  const char *start = skip_space_and_comments (sql);

  while (*start == ';')
    start = skip_space_and_comments (start + 1);

  if (*start == '\0')
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX,
                   "the SQL text holds no statement");
      return NULL;
    }
  if (starts_with_keyword (start, "SELECT") ||
      starts_with_keyword (start, "WITH") ||
      starts_with_keyword (start, "VALUES"))
    return start;

  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
               READ_ONLY_MESSAGE ", not “%.*s”", first_word_length (start), start);
  return NULL;
}

/* Whether anything but spaces, comments and empty statements follows
 * the first statement. Preparing the rest compiles it without running
 * it; a rest that does not compile is a second statement too. */
static gboolean
has_more_statements (GrammarSqliteDatabase *self,
                     const char            *tail)
{
  while (tail != NULL && *skip_space_and_comments (tail) != '\0')
    {
      g_autoptr (sqlite3_stmt) stmt = NULL;
      const char *next = NULL;

      if (sqlite3_prepare_v2 (self->db, tail, -1, &stmt, &next) != SQLITE_OK || stmt != NULL)
        return TRUE;
      if (next == tail)
        break;
      tail = next;
    }
  return FALSE;
}

static void
set_prepare_error (GrammarSqliteDatabase  *self,
                   int                     rc,
                   GError                **error)
{
  /* The authorizer refused an action: the statement does more than read. */
  if ((rc & 0xff) == SQLITE_AUTH || self->denied)
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
                 READ_ONLY_MESSAGE ": %s", sqlite3_errmsg (self->db));
  else
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX,
                 "%s", sqlite3_errmsg (self->db));
}

static sqlite3_stmt *
prepare_query_locked (GrammarSqliteDatabase  *self,
                      const char             *sql,
                      GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  const char *tail = NULL;
  int rc;

  self->denied = FALSE;
  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, &tail);
  if (rc != SQLITE_OK)
    {
      set_prepare_error (self, rc, error);
      return NULL;
    }
  if (stmt == NULL)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX,
                   "the SQL text holds no statement");
      return NULL;
    }
  if (has_more_statements (self, tail))
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS,
                   "the SQL text holds more than one statement; " READ_ONLY_MESSAGE);
      return NULL;
    }
  if (!sqlite3_stmt_readonly (stmt) || sqlite3_column_count (stmt) == 0)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
                   READ_ONLY_MESSAGE);
      return NULL;
    }
  return g_steal_pointer (&stmt);
}

static sqlite3_stmt *
prepare_query (GrammarSqliteDatabase  *self,
               const char             *sql,
               GError                **error)
{
  sqlite3_mutex *mutex = sqlite3_db_mutex (self->db);
  sqlite3_stmt *stmt;

  /* Held so that the error message we read is this statement's. */
  sqlite3_mutex_enter (mutex);
  stmt = prepare_query_locked (self, sql, error);
  sqlite3_mutex_leave (mutex);
  return stmt;
}

/* Parameters. */

static gboolean
bind_failed (int       index,
             int       rc,
             GError  **error)
{
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
               "cannot bind parameter ?%d: %s", index, sqlite3_errstr (rc));
  return FALSE;
}

static gboolean
bind_unsupported (int        index,
                  GVariant  *value,
                  GError   **error)
{
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
               "cannot bind parameter ?%d: values of type “%s” are not supported",
               index, g_variant_get_type_string (value));
  return FALSE;
}

static int
bind_blob (sqlite3_stmt *stmt,
           int           index,
           GVariant     *value)
{
  gsize size = 0;
  const void *data = g_variant_get_fixed_array (value, &size, 1);

  /* A NULL pointer would bind SQL NULL rather than an empty blob. */
  if (size == 0)
    return sqlite3_bind_zeroblob (stmt, index, 0);
  return sqlite3_bind_blob64 (stmt, index, data, size, SQLITE_TRANSIENT);
}

static gboolean
bind_value (sqlite3_stmt  *stmt,
            int            index,
            GVariant      *value,
            GError       **error)
{
  gsize length = 0;
  const char *text;
  int rc;

  switch (g_variant_classify (value))
    {
    case G_VARIANT_CLASS_VARIANT:
      {
        /* An `av` holds its values boxed. */
        g_autoptr (GVariant) boxed = g_variant_get_variant (value);

        return bind_value (stmt, index, boxed, error);
      }
    case G_VARIANT_CLASS_MAYBE:
      {
        g_autoptr (GVariant) just = g_variant_get_maybe (value);

        if (just != NULL)
          return bind_value (stmt, index, just, error);
        rc = sqlite3_bind_null (stmt, index);
        break;
      }
    case G_VARIANT_CLASS_BOOLEAN:
      rc = sqlite3_bind_int64 (stmt, index, g_variant_get_boolean (value) ? 1 : 0);
      break;
    case G_VARIANT_CLASS_BYTE:
      rc = sqlite3_bind_int64 (stmt, index, g_variant_get_byte (value));
      break;
    case G_VARIANT_CLASS_INT16:
      rc = sqlite3_bind_int64 (stmt, index, g_variant_get_int16 (value));
      break;
    case G_VARIANT_CLASS_UINT16:
      rc = sqlite3_bind_int64 (stmt, index, g_variant_get_uint16 (value));
      break;
    case G_VARIANT_CLASS_INT32:
      rc = sqlite3_bind_int64 (stmt, index, g_variant_get_int32 (value));
      break;
    case G_VARIANT_CLASS_UINT32:
      rc = sqlite3_bind_int64 (stmt, index, g_variant_get_uint32 (value));
      break;
    case G_VARIANT_CLASS_INT64:
      rc = sqlite3_bind_int64 (stmt, index, g_variant_get_int64 (value));
      break;
    case G_VARIANT_CLASS_UINT64:
      if (g_variant_get_uint64 (value) > G_MAXINT64)
        {
          g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                       "cannot bind parameter ?%d: %" G_GUINT64_FORMAT " is beyond SQLite’s 64-bit integers",
                       index, g_variant_get_uint64 (value));
          return FALSE;
        }
      rc = sqlite3_bind_int64 (stmt, index, (sqlite3_int64) g_variant_get_uint64 (value));
      break;
    case G_VARIANT_CLASS_DOUBLE:
      rc = sqlite3_bind_double (stmt, index, g_variant_get_double (value));
      break;
    case G_VARIANT_CLASS_STRING:
      text = g_variant_get_string (value, &length);
      rc = sqlite3_bind_text64 (stmt, index, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
      break;
    case G_VARIANT_CLASS_TUPLE:
      /* An exact decimal, which SQLite has not: its text, which a column
       * of NUMERIC or REAL affinity compares as the number it holds. */
      text = grammar_value_get_decimal (value);
      if (text == NULL)
        return bind_unsupported (index, value, error);
      rc = sqlite3_bind_text64 (stmt, index, text, strlen (text), SQLITE_TRANSIENT, SQLITE_UTF8);
      break;
    case G_VARIANT_CLASS_ARRAY:
      if (!g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
        return bind_unsupported (index, value, error);
      rc = bind_blob (stmt, index, value);
      break;
    default:
      return bind_unsupported (index, value, error);
    }

  return rc == SQLITE_OK || bind_failed (index, rc, error);
}

static gboolean
bind_parameters (sqlite3_stmt  *stmt,
                 GVariant      *parameters,
                 GError       **error)
{
  int expected = sqlite3_bind_parameter_count (stmt);
  gsize given = 0;

  if (parameters != NULL)
    {
      if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE_TUPLE) &&
          !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("av")))
        {
          g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                       "parameters must be a tuple or an array of variants (av), not “%s”",
                       g_variant_get_type_string (parameters));
          return FALSE;
        }
      given = g_variant_n_children (parameters);
    }

  if (given != (gsize) expected)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                   "the statement takes %d parameter(s) but %" G_GSIZE_FORMAT " value(s) were given: "
                   "parameter ?%" G_GSIZE_FORMAT " %s",
                   expected, given, MIN (given, (gsize) expected) + 1,
                   given < (gsize) expected ? "has no value" : "does not exist");
      return FALSE;
    }

  for (gsize i = 0; i < given; i++)
    {
      g_autoptr (GVariant) value = g_variant_get_child_value (parameters, i);

      if (!bind_value (stmt, (int) i + 1, value, error))
        return FALSE;
    }
  return TRUE;
}

static GrammarCursor *
grammar_sqlite_database_query_cursor (GrammarDatabase  *database,
                                      const char       *sql,
                                      GVariant         *parameters,
                                      GCancellable     *cancellable,
                                      GError          **error)
{
  GrammarSqliteDatabase *self = GRAMMAR_SQLITE_DATABASE (database);
  g_autoptr (GVariant) owned = parameters != NULL ? g_variant_ref_sink (parameters) : NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  const char *start;

  if (!check_open (self, error))
    return NULL;
  start = find_query_start (sql, error);
  if (start == NULL)
    return NULL;

  stmt = prepare_query (self, start, error);
  if (stmt == NULL || !bind_parameters (stmt, parameters, error))
    return NULL;

  return grammar_sqlite_cursor_new (self, g_steal_pointer (&stmt));
}

/* The checks of query_cursor, without binding or stepping anything. */
static gboolean
grammar_sqlite_database_check_query (GrammarDatabase  *database,
                                     const char       *sql,
                                     guint            *n_parameters,
                                     GError          **error)
{
  GrammarSqliteDatabase *self = GRAMMAR_SQLITE_DATABASE (database);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  const char *start;

  if (!check_open (self, error))
    return FALSE;
  start = find_query_start (sql, error);
  if (start == NULL)
    return FALSE;

  stmt = prepare_query (self, start, error);
  if (stmt == NULL)
    return FALSE;
  *n_parameters = (guint) sqlite3_bind_parameter_count (stmt);
  return TRUE;
}

/* Schema introspection. Runs with the connection mutex held and the
 * authorizer in introspection mode; names are always bound. */

#define TABLES_SQL \
  "SELECT name, type FROM sqlite_schema" \
  " WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'" \
  " ORDER BY rowid"

/* Since SQLite 3.37 pragma_table_list tells the shadow tables of
 * virtual tables (full-text indexes and the like) apart; they are
 * storage, not data. */
#define TABLES_WITHOUT_SHADOWS_SQL \
  "SELECT name, type FROM sqlite_schema" \
  " WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'" \
  " AND name NOT IN (SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow')" \
  " ORDER BY rowid"

/* SQLite lets primary key columns of rowid tables hold NULL, except for
 * an INTEGER PRIMARY KEY, which is the rowid itself. */
#define COLUMNS_SQL \
  "SELECT name, type, \"notnull\" OR (pk = 1 AND upper(type) = 'INTEGER'" \
  "   AND (SELECT count(*) FROM pragma_table_info(?1, 'main') WHERE pk > 0) = 1)," \
  " dflt_value, pk" \
  " FROM pragma_table_info(?1, 'main') ORDER BY cid"

/* Index list order is newest first; seq descending gives creation order. */
#define UNIQUE_INDEXES_SQL \
  "SELECT name FROM pragma_index_list(?1, 'main')" \
  " WHERE \"unique\" AND NOT partial AND origin <> 'pk' ORDER BY seq DESC"

#define INDEX_COLUMNS_SQL \
  "SELECT name FROM pragma_index_info(?1, 'main') ORDER BY seqno"

/* SQLite numbers foreign keys from the last declared; list them in declaration order. */
#define FOREIGN_KEYS_SQL \
  "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?1, 'main')" \
  " ORDER BY id DESC, seq"

static sqlite3_stmt *
prepare_internal (GrammarSqliteDatabase  *self,
                  const char             *sql,
                  const char             *name,
                  GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (rc == SQLITE_OK && name != NULL)
    rc = sqlite3_bind_text (stmt, 1, name, -1, SQLITE_TRANSIENT);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_QUERY,
                   "%s", sqlite3_errmsg (self->db));
      return NULL;
    }
  return g_steal_pointer (&stmt);
}

static gboolean
add_columns (GrammarSqliteDatabase  *self,
             GrammarTable           *table,
             GCancellable           *cancellable,
             GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = prepare_internal (self, COLUMNS_SQL, grammar_table_get_name (table), error);
  if (stmt == NULL)
    return FALSE;

  while ((rc = grammar_sqlite_database_step (self, stmt, cancellable, error)) == SQLITE_ROW)
    {
      const char *declared_type = column_text (stmt, 1);
      g_autoptr (GrammarColumn) column = NULL;

      column = grammar_column_new (column_text (stmt, 0),
                                   is_set (declared_type) ? declared_type : NULL,
                                   !sqlite3_column_int (stmt, 2),
                                   sqlite3_column_int (stmt, 4),
                                   column_text (stmt, 3));
      grammar_table_add_column (table, column);
    }
  return rc == SQLITE_DONE;
}

/* Returns the key columns of a unique index in key order, or %NULL when
 * the index covers an expression, which no column set can stand for. */
static GStrv
dup_index_columns (GrammarSqliteDatabase  *self,
                   const char             *index_name,
                   GCancellable           *cancellable,
                   gboolean               *ok,
                   GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (GStrvBuilder) columns = g_strv_builder_new ();
  gboolean has_expression = FALSE;
  int rc;

  *ok = FALSE;
  stmt = prepare_internal (self, INDEX_COLUMNS_SQL, index_name, error);
  if (stmt == NULL)
    return NULL;

  while ((rc = grammar_sqlite_database_step (self, stmt, cancellable, error)) == SQLITE_ROW)
    {
      if (sqlite3_column_type (stmt, 0) == SQLITE_NULL)
        has_expression = TRUE;
      else
        g_strv_builder_add (columns, column_text (stmt, 0));
    }
  *ok = rc == SQLITE_DONE;
  return *ok && !has_expression ? g_strv_builder_end (columns) : NULL;
}

static gboolean
add_unique_constraints (GrammarSqliteDatabase  *self,
                        GrammarTable           *table,
                        GCancellable           *cancellable,
                        GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = prepare_internal (self, UNIQUE_INDEXES_SQL, grammar_table_get_name (table), error);
  if (stmt == NULL)
    return FALSE;

  while ((rc = grammar_sqlite_database_step (self, stmt, cancellable, error)) == SQLITE_ROW)
    {
      gboolean ok;
      g_auto (GStrv) columns = dup_index_columns (self, column_text (stmt, 0), cancellable, &ok, error);

      if (!ok)
        return FALSE;
      /* A UNIQUE that repeats the primary key or another constraint adds nothing. */
      if (columns != NULL && columns[0] != NULL &&
          !grammar_table_is_unique_key (table, (const char * const *) columns))
        grammar_table_add_unique_constraint (table, (const char * const *) columns);
    }
  return rc == SQLITE_DONE;
}

static GrammarTable *
introspect_table (GrammarSqliteDatabase  *self,
                  const char             *name,
                  gboolean                is_view,
                  GCancellable           *cancellable,
                  GError                **error)
{
  g_autoptr (GrammarTable) table = grammar_table_new (name, is_view);

  if (!add_columns (self, table, cancellable, error))
    return NULL;
  if (!is_view && !add_unique_constraints (self, table, cancellable, error))
    return NULL;
  return g_steal_pointer (&table);
}

/* The rows of one foreign key, gathered before the key is made. */
typedef struct
{
  char *parent;
  GStrvBuilder *columns;
  GStrvBuilder *referenced;  /* NULL when the key names no parent columns */
} PendingKey;

static void
pending_key_clear (PendingKey *key)
{
  g_clear_pointer (&key->parent, g_free);
  g_clear_pointer (&key->columns, g_strv_builder_unref);
  g_clear_pointer (&key->referenced, g_strv_builder_unref);
}

static void
pending_key_start (PendingKey   *key,
                   sqlite3_stmt *stmt)
{
  key->parent = g_strdup (column_text (stmt, 1));
  key->columns = g_strv_builder_new ();
  key->referenced = sqlite3_column_type (stmt, 3) == SQLITE_NULL ? NULL : g_strv_builder_new ();
}

static void
pending_key_add_row (PendingKey   *key,
                     sqlite3_stmt *stmt)
{
  const char *referenced = column_text (stmt, 3);

  g_strv_builder_add (key->columns, column_text (stmt, 2));
  if (key->referenced != NULL)
    g_strv_builder_add (key->referenced, referenced != NULL ? referenced : "");
}

/* Names a parent column as the parent declares it, since SQLite
 * matches the names of a foreign key without regard to case. */
static GStrv
canonical_columns (GrammarTable *parent,
                   GStrv         names)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      GrammarColumn *column = grammar_table_get_column (parent, names[i]);

      if (column != NULL)
        {
          g_free (names[i]);
          names[i] = g_strdup (grammar_column_get_name (column));
        }
    }
  return names;
}

/* Makes the key, reading the parent's primary key when the key names no
 * columns. A key whose parent is missing cannot be followed, so it is
 * left out, as SQLite itself only notices it when data changes. */
static void
pending_key_finish (PendingKey    *key,
                    GrammarSchema *schema,
                    GrammarTable  *table)
{
  GrammarTable *parent = grammar_schema_get_table (schema, key->parent);
  g_auto (GStrv) columns = g_strv_builder_end (key->columns);
  g_auto (GStrv) referenced = NULL;
  g_autoptr (GrammarForeignKey) foreign_key = NULL;

  if (parent != NULL)
    referenced = key->referenced != NULL ? canonical_columns (parent, g_strv_builder_end (key->referenced))
                                         : grammar_table_dup_primary_key (parent);

  if (referenced != NULL && g_strv_length (referenced) == g_strv_length (columns))
    {
      foreign_key = grammar_foreign_key_new ((const char * const *) columns,
                                             grammar_table_get_name (parent),
                                             (const char * const *) referenced);
      grammar_table_add_foreign_key (table, foreign_key);
    }
  else
    g_debug ("%s: leaving out a foreign key of “%s” to “%s”, whose parent key is not found",
             G_STRFUNC, grammar_table_get_name (table), key->parent);

  pending_key_clear (key);
}

static gboolean
add_foreign_keys (GrammarSqliteDatabase  *self,
                  GrammarSchema          *schema,
                  GrammarTable           *table,
                  GCancellable           *cancellable,
                  GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  PendingKey key = { NULL, };
  gint64 id = -1;
  int rc;

  stmt = prepare_internal (self, FOREIGN_KEYS_SQL, grammar_table_get_name (table), error);
  if (stmt == NULL)
    return FALSE;

  while ((rc = grammar_sqlite_database_step (self, stmt, cancellable, error)) == SQLITE_ROW)
    {
      if (key.columns != NULL && sqlite3_column_int64 (stmt, 0) != id)
        pending_key_finish (&key, schema, table);
      if (key.columns == NULL)
        {
          id = sqlite3_column_int64 (stmt, 0);
          pending_key_start (&key, stmt);
        }
      pending_key_add_row (&key, stmt);
    }

  if (rc == SQLITE_DONE && key.columns != NULL)
    pending_key_finish (&key, schema, table);
  pending_key_clear (&key);
  return rc == SQLITE_DONE;
}

static gboolean
add_tables (GrammarSqliteDatabase  *self,
            GrammarSchema          *schema,
            GCancellable           *cancellable,
            GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gboolean has_table_list = sqlite3_libversion_number () >= 3037000;
  int rc;

  stmt = prepare_internal (self, has_table_list ? TABLES_WITHOUT_SHADOWS_SQL : TABLES_SQL, NULL, error);
  if (stmt == NULL)
    return FALSE;

  while ((rc = grammar_sqlite_database_step (self, stmt, cancellable, error)) == SQLITE_ROW)
    {
      const char *name = column_text (stmt, 0);
      gboolean is_view = g_str_equal (column_text (stmt, 1), "view");
      g_autoptr (GrammarTable) table = NULL;
      g_autoptr (GError) local_error = NULL;

      table = introspect_table (self, name, is_view, cancellable, &local_error);
      if (table != NULL)
        grammar_schema_add_table (schema, table);
      else if (is_view && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        /* A view over a table dropped since cannot be queried, but the
         * rest of the database still can. */
        g_message ("leaving view “%s” of “%s” out of the schema: %s",
                   name, display_name (self), local_error->message);
      else
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }
  return rc == SQLITE_DONE;
}

static GrammarSchema *
introspect_locked (GrammarSqliteDatabase  *self,
                   GCancellable           *cancellable,
                   GError                **error)
{
  g_autoptr (GrammarSchema) schema = grammar_schema_new ();
  GPtrArray *tables;

  if (!add_tables (self, schema, cancellable, error))
    return NULL;

  /* Foreign keys last, so that every parent table is known. */
  tables = grammar_schema_get_tables (schema);
  for (guint i = 0; i < tables->len; i++)
    {
      GrammarTable *table = g_ptr_array_index (tables, i);

      if (!grammar_table_get_is_view (table) &&
          !add_foreign_keys (self, schema, table, cancellable, error))
        return NULL;
    }
  return g_steal_pointer (&schema);
}

static GrammarSchema *
introspect (GrammarSqliteDatabase  *self,
            GCancellable           *cancellable,
            GError                **error)
{
  sqlite3_mutex *mutex = sqlite3_db_mutex (self->db);
  GrammarSchema *schema;

  /* The pragma functions are allowed only to the thread that holds the
   * connection, so no user query can be prepared in between. */
  sqlite3_mutex_enter (mutex);
  self->access = ACCESS_INTROSPECT;
  schema = introspect_locked (self, cancellable, error);
  self->access = ACCESS_QUERY;
  sqlite3_mutex_leave (mutex);

  if (schema == NULL)
    g_prefix_error (error, "cannot read the schema of “%s”: ", display_name (self));
  return schema;
}

static GrammarSchema *
grammar_sqlite_database_get_schema (GrammarDatabase  *database,
                                    GCancellable     *cancellable,
                                    GError          **error)
{
  GrammarSqliteDatabase *self = GRAMMAR_SQLITE_DATABASE (database);
  g_autoptr (GMutexLocker) locker = NULL;

  if (!check_open (self, error))
    return NULL;

  locker = g_mutex_locker_new (&self->schema_lock);
  if (self->schema == NULL)
    self->schema = introspect (self, cancellable, error);
  return self->schema != NULL ? g_object_ref (self->schema) : NULL;
}

/* Opening. */

static gboolean
fail_open (GrammarSqliteDatabase  *self,
           int                     rc,
           GError                **error)
{
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
               "cannot open database “%s”: %s", display_name (self),
               self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
  g_clear_pointer (&self->db, sqlite3_close_v2);
  return FALSE;
}

/* Before any content is read: nothing may reach other files. */
static void
harden (GrammarSqliteDatabase *self)
{
  sqlite3_limit (self->db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_set_authorizer (self->db, authorize, self);
  sqlite3_progress_handler (self->db, 1000, progress, self);
}

/* Once the content is there: nothing may change it. */
static gboolean
lock_down (GrammarSqliteDatabase  *self,
           GError                **error)
{
  int rc;

  sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_busy_timeout (self->db, self->busy_timeout);
  /* SQLite builds a value whole before it hands it over: a limit on the
   * length is the only way to keep randomblob(900000000) out of memory. */
  sqlite3_limit (self->db, SQLITE_LIMIT_LENGTH, (int) self->max_value_bytes);

  self->access = ACCESS_SCRIPT;
  rc = sqlite3_exec (self->db, "PRAGMA query_only = 1", NULL, NULL, NULL);
  self->access = ACCESS_QUERY;
  return rc == SQLITE_OK || fail_open (self, rc, error);
}

/* SQLite reads the file lazily: a file that is not a database opens
 * fine and fails at the first statement. */
static gboolean
check_is_database (GrammarSqliteDatabase  *self,
                   GError                **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (self->db, "SELECT count(*) FROM sqlite_schema", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  return rc == SQLITE_ROW || fail_open (self, rc, error);
}

static gboolean
open_file (GrammarSqliteDatabase  *self,
           GError                **error)
{
  int rc;

  /* SQLite would only say “disk I/O error”. */
  if (!g_str_has_prefix (self->uri, "file:") && g_file_test (self->uri, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                   "cannot open database “%s”: it is a folder, not a file", self->uri);
      return FALSE;
    }

  rc = sqlite3_open_v2 (self->uri, &self->db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX, NULL);
  if (rc != SQLITE_OK)
    return fail_open (self, rc, error);
  harden (self);
  return TRUE;
}

static guint
line_of (const char *text,
         const char *position)
{
  guint line = 1;

  for (const char *p = text; p < position; p++)
    if (*p == '\n')
      line++;
  return line;
}

static gboolean
fail_script (GrammarSqliteDatabase  *self,
             const char             *text,
             const char             *statement,
             GError                **error)
{
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
               "cannot load script “%s”, line %u: %s", self->script,
               line_of (text, skip_space_and_comments (statement)), sqlite3_errmsg (self->db));
  g_clear_pointer (&self->db, sqlite3_close_v2);
  return FALSE;
}

static gboolean
run_script (GrammarSqliteDatabase  *self,
            const char             *text,
            GError                **error)
{
  const char *next = text;

  while (*skip_space_and_comments (next) != '\0')
    {
      const char *statement = next;
      g_autoptr (sqlite3_stmt) stmt = NULL;
      int rc;

      rc = sqlite3_prepare_v2 (self->db, statement, -1, &stmt, &next);
      while (rc == SQLITE_OK && stmt != NULL && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
        ;
      if (rc != SQLITE_OK && rc != SQLITE_DONE)
        return fail_script (self, text, statement, error);
      if (next == statement)
        break;
    }

  if (!sqlite3_get_autocommit (self->db))
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                   "cannot load script “%s”: it leaves a transaction open (no COMMIT at the end?)",
                   self->script);
      g_clear_pointer (&self->db, sqlite3_close_v2);
      return FALSE;
    }
  return TRUE;
}

static gboolean
load_script (GrammarSqliteDatabase  *self,
             GError                **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local_error = NULL;
  gboolean loaded;
  int rc;

  if (!g_file_get_contents (self->script, &text, NULL, &local_error))
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                   "cannot load script: %s", local_error->message);
      return FALSE;
    }

  rc = sqlite3_open_v2 (":memory:", &self->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL);
  if (rc != SQLITE_OK)
    return fail_open (self, rc, error);
  harden (self);

  self->access = ACCESS_SCRIPT;
  loaded = run_script (self, text, error);
  self->access = ACCESS_QUERY;
  return loaded;
}

static gboolean
check_source (GrammarSqliteDatabase  *self,
              GError                **error)
{
  /* Queries run in worker threads, on one serialized connection. */
  if (!sqlite3_threadsafe ())
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                           "the SQLite library was built without thread support");
      return FALSE;
    }
  if (is_set (self->uri) == is_set (self->script))
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                           is_set (self->uri) ? "uri= and script= exclude each other"
                                              : "set either uri= or script=");
      return FALSE;
    }
  return TRUE;
}

static gboolean
grammar_sqlite_database_initable_init (GInitable     *initable,
                                       GCancellable  *cancellable,
                                       GError       **error)
{
  GrammarSqliteDatabase *self = GRAMMAR_SQLITE_DATABASE (initable);

  if (self->db != NULL)
    return TRUE;
  if (!check_source (self, error))
    return FALSE;
  if (!(is_set (self->uri) ? open_file (self, error) : load_script (self, error)))
    return FALSE;
  return lock_down (self, error) && check_is_database (self, error);
}

static void
grammar_sqlite_database_finalize (GObject *object)
{
  GrammarSqliteDatabase *self = GRAMMAR_SQLITE_DATABASE (object);

  g_clear_object (&self->schema);
  g_mutex_clear (&self->schema_lock);
  g_clear_pointer (&self->db, sqlite3_close_v2);
  g_free (self->uri);
  g_free (self->script);

  G_OBJECT_CLASS (grammar_sqlite_database_parent_class)->finalize (object);
}

static void
grammar_sqlite_database_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GrammarSqliteDatabase *self = GRAMMAR_SQLITE_DATABASE (object);

  switch (prop_id)
    {
    case PROP_URI:
      g_value_set_string (value, self->uri);
      break;
    case PROP_SCRIPT:
      g_value_set_string (value, self->script);
      break;
    case PROP_BUSY_TIMEOUT:
      g_value_set_int (value, self->busy_timeout);
      break;
    case PROP_QUERY_TIMEOUT:
      g_value_set_uint (value, self->query_timeout);
      break;
    case PROP_MAX_VALUE_BYTES:
      g_value_set_uint (value, self->max_value_bytes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_sqlite_database_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GrammarSqliteDatabase *self = GRAMMAR_SQLITE_DATABASE (object);

  switch (prop_id)
    {
    case PROP_URI:
      g_free (self->uri);
      self->uri = g_value_dup_string (value);
      break;
    case PROP_SCRIPT:
      g_free (self->script);
      self->script = g_value_dup_string (value);
      break;
    case PROP_BUSY_TIMEOUT:
      self->busy_timeout = g_value_get_int (value);
      break;
    case PROP_QUERY_TIMEOUT:
      self->query_timeout = g_value_get_uint (value);
      break;
    case PROP_MAX_VALUE_BYTES:
      self->max_value_bytes = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_sqlite_database_class_init (GrammarSqliteDatabaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = grammar_sqlite_database_finalize;
  object_class->get_property = grammar_sqlite_database_get_property;
  object_class->set_property = grammar_sqlite_database_set_property;

  /**
   * GrammarSqliteDatabase:uri:
   *
   * The database file: a path, or an SQLite `file:` URI. It is opened
   * read-only and never created.
   */
  properties[PROP_URI] =
    g_param_spec_string ("uri", "Database file",
                         "Path of the SQLite database file, or an SQLite file: URI; "
                         "opened read-only, never created",
                         NULL, flags | GRAMMAR_PARAM_PATH);

  /**
   * GrammarSqliteDatabase:script:
   *
   * An SQL script loaded into a private in-memory database instead of
   * opening a file, for demos and test fixtures. Once loaded, the
   * database is as read-only as a file.
   */
  properties[PROP_SCRIPT] =
    g_param_spec_string ("script", "SQL script",
                         "Path of an .sql file run into a private in-memory database, "
                         "instead of uri= (for demos and fixtures)",
                         NULL, flags | GRAMMAR_PARAM_PATH);

  /**
   * GrammarSqliteDatabase:busy-timeout:
   *
   * How long a query waits, in milliseconds, for a lock another
   * connection holds on the file before it fails.
   */
  properties[PROP_BUSY_TIMEOUT] =
    g_param_spec_int ("busy-timeout", "Busy timeout",
                      "Milliseconds a query waits for a lock held by another process before it fails",
                      0, G_MAXINT, 5000, flags);

  /**
   * GrammarSqliteDatabase:query-timeout:
   *
   * Seconds SQLite may work on one step of a statement (the next row,
   * or the whole answer of an aggregate) before the statement is
   * stopped with %GRAMMAR_DATABASE_ERROR_LIMIT and a message that says
   * `query-timeout=N s exceeded`; 0 for no limit. The default,
   * %GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT, is the server plugins' too.
   */
  properties[PROP_QUERY_TIMEOUT] =
    g_param_spec_uint ("query-timeout", "Query timeout",
                       "Seconds SQLite may work on one row of a statement before it is stopped, 0 for no limit",
                       0, G_MAXINT / 1000, GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT, flags);

  /**
   * GrammarSqliteDatabase:max-value-bytes:
   *
   * The longest text or blob a statement may make or read, in bytes
   * (SQLite's `SQLITE_LIMIT_LENGTH`); a longer one stops the statement
   * with %GRAMMAR_DATABASE_ERROR_LIMIT before it is held in memory.
   */
  properties[PROP_MAX_VALUE_BYTES] =
    g_param_spec_uint ("max-value-bytes", "Largest value",
                       "The longest text or blob, in bytes, a statement may make or read",
                       1, 1000000000, GRAMMAR_SQLITE_DEFAULT_MAX_VALUE_BYTES, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_sqlite_database_class_finalize (GrammarSqliteDatabaseClass *klass)
{
}

static void
grammar_sqlite_database_init (GrammarSqliteDatabase *self)
{
  g_mutex_init (&self->schema_lock);
  self->busy_timeout = 5000;
  self->query_timeout = GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT;
  self->max_value_bytes = GRAMMAR_SQLITE_DEFAULT_MAX_VALUE_BYTES;
}

static void
grammar_sqlite_database_database_iface_init (GrammarDatabaseInterface *iface)
{
  iface->get_schema = grammar_sqlite_database_get_schema;
  iface->query_cursor = grammar_sqlite_database_query_cursor;
  iface->check_query = grammar_sqlite_database_check_query;
}

static void
grammar_sqlite_database_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_sqlite_database_initable_init;
}

/**
 * grammar_sqlite_database_register:
 * @module: the plugin module
 *
 * Registers %GRAMMAR_TYPE_SQLITE_DATABASE with the type system.
 */
void
grammar_sqlite_database_register (GTypeModule *module)
{
  grammar_sqlite_database_register_type (module);
}
