/* grammar-postgres-database.c: a database read from a PostgreSQL server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-postgres-cursor.h"
#include "grammar-postgres-database.h"

/**
 * GrammarPostgresDatabase:
 *
 * The `postgres` database plugin: a #GrammarDatabase over one schema of
 * a PostgreSQL database, read through libpq.
 *
 * Only single read-only queries ever run, with values bound on the
 * server. Three guards stand in the way of anything else: the text is
 * checked by its words first (grammar_sql_rewrite_query() with the
 * words and functions a read-only transaction still allows, such as
 * `FOR UPDATE`, `nextval()` or `pg_advisory_lock()`), every session is
 * opened with `default_transaction_read_only`, and every statement runs
 * inside `BEGIN READ ONLY` … `COMMIT`. The server's prepared-statement
 * protocol takes one statement only.
 *
 * Rows are streamed in libpq's single-row mode, so that a cursor over a
 * huge table costs flat memory. Each cursor holds a connection of its
 * own from a small pool until its last row, since the library reads one
 * cursor while it runs other queries, possibly from worker threads. A
 * connection the server dropped (a restart, an administrator's
 * pg_terminate_backend()) is opened again once before a statement.
 *
 * The password is read from the environment variable that
 * #GrammarServerDatabase:password-env names, never from the keyfile,
 * and never appears in a message.
 */

/* Idle connections kept for the next statement; more are closed when
 * they come back. */
#define MAX_IDLE_CONNECTIONS 4

#define READ_ONLY_MESSAGE "only a single read-only SELECT may run"

struct _GrammarPostgresDatabase
{
  GrammarServerDatabase parent_instance;

  char *schema_name;

  gboolean opened;          /* g_initable_init() succeeded */
  GMutex pool_lock;
  GPtrArray *idle;          /* of PGconn, under pool_lock */

  GMutex schema_lock;
  GrammarSchema *schema;    /* read once: queries cannot change it */
};

enum
{
  PROP_0,
  PROP_SCHEMA,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_postgres_database_database_iface_init (GrammarDatabaseInterface *iface);
static void grammar_postgres_database_initable_iface_init (GInitableIface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarPostgresDatabase, grammar_postgres_database, GRAMMAR_TYPE_SERVER_DATABASE, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_DATABASE,
                                                               grammar_postgres_database_database_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_postgres_database_initable_iface_init))

/* What a read-only transaction of PostgreSQL still allows, refused by
 * the words of the statement before it reaches the server: locking
 * clauses, writing into a new table (SELECT … INTO), statements that
 * change the session or run other statements, and the data-modifying
 * statements a WITH may hold (the server would refuse those too, but
 * only once the statement runs). */
static const char * const refused_words[] = {
  "INTO", "COPY",
  "FOR UPDATE", "FOR NO KEY UPDATE", "FOR SHARE", "FOR KEY SHARE",
  "LOCK", "LISTEN", "UNLISTEN", "NOTIFY",
  "DO", "CALL", "SET", "RESET", "PREPARE", "EXECUTE", "DEALLOCATE", "DISCARD",
  "VACUUM", "ANALYZE", "CLUSTER", "REFRESH", "TRUNCATE",
  "INSERT", "UPDATE", "DELETE", "MERGE",
  NULL,
};

/* Functions a read-only transaction still runs that read or write the
 * server's files, sleep, take locks, signal other sessions, change the
 * configuration or the session, reach other servers, advance sequences,
 * take a transaction id, or run SQL text given as a string (which would
 * get past the check of the words). */
static const char * const refused_functions[] = {
  /* files of the server */
  "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file",
  "pg_ls_logdir", "pg_ls_waldir", "pg_ls_tmpdir", "pg_ls_archive_statusdir",
  "pg_file_write", "pg_file_rename", "pg_file_unlink",
  /* large objects */
  "lo_import", "lo_export", "lo_get", "lo_open", "lo_put", "lo_creat", "lo_create",
  "lo_unlink", "lo_from_bytea", "loread", "lowrite",
  /* sleeping and locking */
  "pg_sleep", "pg_sleep_for", "pg_sleep_until",
  "pg_advisory_lock", "pg_advisory_lock_shared", "pg_advisory_xact_lock", "pg_advisory_xact_lock_shared",
  "pg_try_advisory_lock", "pg_try_advisory_lock_shared",
  "pg_try_advisory_xact_lock", "pg_try_advisory_xact_lock_shared",
  "pg_advisory_unlock", "pg_advisory_unlock_shared", "pg_advisory_unlock_all",
  /* other sessions and the server */
  "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile",
  "pg_notify", "pg_logical_emit_message", "pg_switch_wal", "pg_create_restore_point",
  "pg_promote", "pg_log_backend_memory_contexts",
  /* session state */
  "set_config",
  /* other servers */
  "dblink", "dblink_exec", "dblink_connect", "dblink_connect_u", "dblink_disconnect",
  "dblink_open", "dblink_fetch", "dblink_close", "dblink_send_query", "dblink_get_result",
  /* sequences and transaction ids */
  "nextval", "setval", "currval", "lastval", "txid_current", "pg_current_xact_id",
  /* SQL text run from a string */
  "query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema",
  "cursor_to_xml", "cursor_to_xmlschema",
  NULL,
};

static gboolean
is_set (const char *text)
{
  return text != NULL && text[0] != '\0';
}

#define SERVER(self) GRAMMAR_SERVER_DATABASE (self)

/* libpq's messages end with a newline and may hold several lines (one
 * per address it tried): one line reads better after our prefix. */
static char *
dup_message (const char *message)
{
  g_autofree char *copy = g_strdup (message != NULL ? message : "");
  g_auto (GStrv) lines = g_strsplit (g_strstrip (copy), "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    g_strstrip (lines[i]);
  return g_strjoinv ("; ", lines);
}

static void
notice_processor (void       *arg,
                  const char *message)
{
  g_autofree char *line = dup_message (message);

  /* Notices (a truncated identifier, a deprecated setting) are not
   * errors; libpq would print them on stderr. */
  g_debug ("%s", line);
}

/* Connecting. */

static gboolean
check_settings (GrammarPostgresDatabase  *self,
                GError                  **error)
{
  if (!PQisthreadsafe ())
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                           "the libpq library was built without thread support");
      return FALSE;
    }
  if (!is_set (self->schema_name))
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                           "schema= is empty: name the schema whose tables are read (public by default)");
      return FALSE;
    }
  return grammar_server_database_check_settings (SERVER (self), error);
}

static gboolean
fail_connect (GrammarPostgresDatabase  *self,
              const char               *message,
              GError                  **error)
{
  g_autofree char *server = grammar_server_database_describe (SERVER (self));
  g_autofree char *line = dup_message (message);

  if (grammar_server_database_get_password_env (SERVER (self)) != NULL)
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                 "cannot connect to %s (password from $%s, password-env=): %s",
                 server, grammar_server_database_get_password_env (SERVER (self)), line);
  else
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                 "cannot connect to %s: %s", server, line);
  return FALSE;
}

/* The session settings: read-only, UTC, ISO dates and the shortest exact
 * text of floating-point numbers (extra_float_digits ≥ 1 since
 * PostgreSQL 12), so that REAL 0.1 reads as 0.1. */
static char *
session_options (GrammarPostgresDatabase *self)
{
  return g_strdup_printf ("-c default_transaction_read_only=on -c statement_timeout=%" G_GUINT64_FORMAT
                          " -c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=iso_8601"
                          " -c extra_float_digits=1",
                          (guint64) grammar_server_database_get_query_timeout (SERVER (self)) * 1000);
}

/* Makes unqualified names resolve in the schema, and checks that it
 * exists and the server is recent enough, in one round trip. The
 * schema name is quoted as an identifier and bound, not pasted. */
static gboolean
set_up_session (GrammarPostgresDatabase  *self,
                PGconn                   *conn,
                GError                  **error)
{
  g_autoptr (PGresult) result = NULL;
  char *quoted = PQescapeIdentifier (conn, self->schema_name, strlen (self->schema_name));
  const char *values[2] = { quoted, self->schema_name };

  if (quoted == NULL)
    return fail_connect (self, PQerrorMessage (conn), error);

  result = PQexecParams (conn,
                         "SELECT pg_catalog.set_config('search_path', $1, false),"
                         " EXISTS (SELECT FROM pg_catalog.pg_namespace WHERE nspname = $2)",
                         2, NULL, values, NULL, NULL, 0);
  PQfreemem (quoted);
  if (PQresultStatus (result) != PGRES_TUPLES_OK || PQntuples (result) != 1)
    return fail_connect (self, PQerrorMessage (conn), error);

  if (PQserverVersion (conn) < 120000)
    return fail_connect (self, "PostgreSQL 12 or later is needed", error);
  if (!g_str_equal (PQgetvalue (result, 0, 1), "t"))
    {
      g_autofree char *server = grammar_server_database_describe (SERVER (self));

      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                   "no schema “%s” in %s (schema=)", self->schema_name, server);
      return FALSE;
    }
  return TRUE;
}

static PGconn *
open_connection (GrammarPostgresDatabase  *self,
                 GError                  **error)
{
  g_autofree char *options = session_options (self);
  GrammarServerDatabase *server = SERVER (self);
  g_autofree char *port = g_strdup_printf ("%u", grammar_server_database_get_port (server));
  g_autofree char *timeout = g_strdup_printf ("%u", grammar_server_database_get_connect_timeout (server));
  const char *socket = grammar_server_database_get_socket (server);
  const char *host = grammar_server_database_get_host (server);
  const char *user = grammar_server_database_get_user (server);
  const char *ca_file = grammar_server_database_get_ca_file (server);
  const char *password = NULL;
  const char *keywords[16];
  const char *values[16];
  guint n = 0;
  PGconn *conn;

  if (!grammar_server_database_get_password (server, &password, error))
    return NULL;

#define ADD(keyword, value) G_STMT_START { keywords[n] = (keyword); values[n] = (value); n++; } G_STMT_END
  /* A socket folder is given to libpq as the host. */
  if (socket != NULL)
    ADD ("host", socket);
  else if (host != NULL)
    ADD ("host", host);
  ADD ("port", port);
  ADD ("dbname", grammar_server_database_get_database (server));
  if (user != NULL)
    ADD ("user", user);
  if (password != NULL)
    ADD ("password", password);
  ADD ("sslmode", grammar_server_database_get_sslmode (server));
  if (ca_file != NULL)
    ADD ("sslrootcert", ca_file);
  ADD ("connect_timeout", timeout);
  ADD ("application_name", "grammar");
  ADD ("client_encoding", "UTF8");
  ADD ("options", options);
  ADD (NULL, NULL);
#undef ADD
  g_assert (n <= G_N_ELEMENTS (keywords));

  /* Not expanded: a database name is a name, never a connection string. */
  conn = PQconnectdbParams (keywords, values, 0);
  if (conn == NULL)
    {
      fail_connect (self, "out of memory", error);
      return NULL;
    }
  if (PQstatus (conn) != CONNECTION_OK)
    {
      fail_connect (self, PQerrorMessage (conn), error);
      PQfinish (conn);
      return NULL;
    }

  /* libpq falls back on PGPASSWORD and ~/.pgpass; the password is to
   * come from password-env= only, so that a keyfile says where it is. */
  if (password == NULL && PQconnectionUsedPassword (conn))
    {
      fail_connect (self, "the server asked for a password: name the environment variable "
                          "that holds it with password-env=", error);
      PQfinish (conn);
      return NULL;
    }

  PQsetNoticeProcessor (conn, notice_processor, NULL);
  if (!set_up_session (self, conn, error))
    {
      PQfinish (conn);
      return NULL;
    }
  return conn;
}

/* The pool. */

static PGconn *
take_connection (GrammarPostgresDatabase  *self,
                 GError                  **error)
{
  PGconn *conn = NULL;

  g_mutex_lock (&self->pool_lock);
  if (self->idle->len > 0)
    conn = g_ptr_array_steal_index_fast (self->idle, self->idle->len - 1);
  g_mutex_unlock (&self->pool_lock);

  return conn != NULL ? conn : open_connection (self, error);
}

/* Gives @conn back to the pool, or closes it when it is broken, in a
 * transaction, or one too many. */
static void
release_connection (GrammarPostgresDatabase *self,
                    PGconn                  *conn)
{
  if (conn == NULL)
    return;
  if (PQstatus (conn) == CONNECTION_OK && PQtransactionStatus (conn) == PQTRANS_IDLE)
    {
      g_mutex_lock (&self->pool_lock);
      if (self->idle->len < MAX_IDLE_CONNECTIONS)
        {
          g_ptr_array_add (self->idle, conn);
          conn = NULL;
        }
      g_mutex_unlock (&self->pool_lock);
    }
  g_clear_pointer (&conn, PQfinish);
}

/* Runs @command (BEGIN, say) on @conn. A connection the server dropped
 * while it was idle in the pool fails at its first use: it is opened
 * again once, and the command run on the new one, since nothing ran yet. */
static gboolean
run_first_command (GrammarPostgresDatabase  *self,
                   PGconn                  **conn,
                   const char               *command,
                   GError                  **error)
{
  for (guint attempt = 0; ; attempt++)
    {
      g_autoptr (PGresult) result = PQexec (*conn, command);
      g_autoptr (GError) local_error = NULL;

      if (PQresultStatus (result) == PGRES_COMMAND_OK)
        return TRUE;
      if (PQstatus (*conn) != CONNECTION_BAD || attempt > 0)
        {
          grammar_postgres_database_set_error (self, *conn, result, FALSE, error);
          return FALSE;
        }

      {
        g_autofree char *reason = dup_message (PQerrorMessage (*conn));

        g_debug ("the connection was dropped (%s): connecting again", reason);
      }
      g_clear_pointer (conn, PQfinish);
      *conn = open_connection (self, &local_error);
      if (*conn == NULL)
        {
          /* The server went away during the run: not a setting to fix. */
          g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_QUERY,
                       "the connection was lost and cannot be opened again: %s", local_error->message);
          return FALSE;
        }
    }
}

/* Errors. */

/**
 * grammar_postgres_database_set_error:
 * @self: the database
 * @conn: the connection @result came from
 * @result: (nullable): a failed result, or %NULL when libpq returned none
 * @preparing: whether the statement was being prepared rather than run
 * @error: return location for the error
 *
 * Sets @error from a failed result, with the #GrammarDatabaseError code
 * its SQLSTATE calls for: what the server rejects while preparing is an
 * error in the SQL text (%GRAMMAR_DATABASE_ERROR_SYNTAX, as SQLite
 * reports an unknown table), what fails while running is
 * %GRAMMAR_DATABASE_ERROR_QUERY, and a write refused by the read-only
 * transaction is %GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY.
 */
void
grammar_postgres_database_set_error (GrammarPostgresDatabase  *self,
                                     PGconn                   *conn,
                                     const PGresult           *result,
                                     gboolean                  preparing,
                                     GError                  **error)
{
  const char *state = result != NULL ? PQresultErrorField (result, PG_DIAG_SQLSTATE) : NULL;
  const char *primary = result != NULL ? PQresultErrorField (result, PG_DIAG_MESSAGE_PRIMARY) : NULL;
  const char *position = result != NULL ? PQresultErrorField (result, PG_DIAG_STATEMENT_POSITION) : NULL;
  g_autofree char *message = dup_message (primary != NULL ? primary : PQerrorMessage (conn));
  g_autofree char *where = position != NULL ? g_strdup_printf (" (at character %s)", position) : g_strdup ("");

  if (state == NULL || PQstatus (conn) == CONNECTION_BAD)
    {
      g_autofree char *server = grammar_server_database_describe (SERVER (self));

      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_QUERY,
                   "lost the connection to %s: %s", server, message);
    }
  else if (g_str_equal (state, "25006"))
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
                 READ_ONLY_MESSAGE ": %s", message);
  else if (g_str_equal (state, "57014") && grammar_server_database_get_query_timeout (SERVER (self)) > 0 &&
           strstr (message, "statement timeout") != NULL)
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT,
                 "query-timeout=%u s exceeded: the server stopped the statement (%s)",
                 grammar_server_database_get_query_timeout (SERVER (self)), message);
  else if (g_str_equal (state, "42P18"))
    /* A parameter number the statement skips, or one whose type the
     * statement does not tell. */
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                 "%s%s", message, where);
  else if (g_str_equal (state, "42501"))
    g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_QUERY,
                 "%s (the user of the keyfile lacks a privilege)", message);
  else
    g_set_error (error, GRAMMAR_DATABASE_ERROR,
                 preparing ? GRAMMAR_DATABASE_ERROR_SYNTAX : GRAMMAR_DATABASE_ERROR_QUERY,
                 "%s%s", message, where);
}

/* Statements. */

static void
cancel_statement (PGconn *conn)
{
  PGcancel *cancel = PQgetCancel (conn);
  char message[256] = "";

  if (cancel != NULL && !PQcancel (cancel, message, sizeof message))
    g_debug ("cannot cancel the statement: %s", message);
  g_clear_pointer (&cancel, PQfreeCancel);
}

/* Waits until libpq has a result or @cancellable is cancelled, reading
 * what the server sends meanwhile. */
static gboolean
wait_readable (PGconn        *conn,
               GCancellable  *cancellable)
{
  GPollFD fds[2] = { { PQsocket (conn), G_IO_IN, 0 }, { -1, G_IO_IN, 0 } };
  gboolean has_cancellable;
  gboolean cancelled = FALSE;

  /* A row libpq has read already needs no waiting (nor a file
   * descriptor for the cancellable, which would cost one per row). */
  if (!PQisBusy (conn))
    return TRUE;

  has_cancellable = g_cancellable_make_pollfd (cancellable, &fds[1]);
  while (PQisBusy (conn))
    {
      if (g_poll (fds, has_cancellable ? 2 : 1, -1) < 0 && errno != EINTR)
        break;
      if (g_cancellable_is_cancelled (cancellable))
        {
          cancelled = TRUE;
          break;
        }
      if (!PQconsumeInput (conn))
        break;
    }
  if (has_cancellable)
    g_cancellable_release_fd (cancellable);
  return !cancelled;
}

/**
 * grammar_postgres_database_next_result:
 * @self: the database
 * @conn: a connection with a statement sent
 * @cancellable: (nullable): stops the statement on the server
 * @error: return location for a cancellation
 *
 * Waits for the next result of the statement running on @conn: a row in
 * single-row mode, its end, or an error, which the caller reads from the
 * result. When @cancellable is cancelled first, the server is asked to
 * stop the statement, and %NULL comes back with %G_IO_ERROR_CANCELLED.
 *
 * Returns: (transfer full) (nullable): the result, or %NULL when the
 *   statement has no more results or was cancelled
 */
PGresult *
grammar_postgres_database_next_result (GrammarPostgresDatabase  *self,
                                       PGconn                   *conn,
                                       GCancellable             *cancellable,
                                       GError                  **error)
{
  if (!wait_readable (conn, cancellable))
    {
      cancel_statement (conn);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  return PQgetResult (conn);
}

/**
 * grammar_postgres_database_end_statement:
 * @self: the database
 * @conn: (transfer full) (nullable): the connection a statement ran on
 * @abandon: whether the statement may still be sending rows nobody reads
 *
 * Ends the transaction of a statement and gives @conn back to the pool.
 * An abandoned statement is cancelled on the server first, so that the
 * rest of its rows is not sent only to be thrown away.
 */
void
grammar_postgres_database_end_statement (GrammarPostgresDatabase *self,
                                         PGconn                  *conn,
                                         gboolean                 abandon)
{
  PGresult *result;

  if (conn == NULL)
    return;
  if (abandon)
    cancel_statement (conn);
  while ((result = PQgetResult (conn)) != NULL)
    PQclear (result);

  if (PQstatus (conn) == CONNECTION_OK && PQtransactionStatus (conn) != PQTRANS_IDLE)
    {
      /* Nothing was written: either ends the transaction and releases
       * its snapshot. */
      gboolean failed = PQtransactionStatus (conn) == PQTRANS_INERROR;
      g_autoptr (PGresult) end = PQexec (conn, failed ? "ROLLBACK" : "COMMIT");

      if (PQresultStatus (end) != PGRES_COMMAND_OK)
        g_debug ("cannot end the transaction: %s", PQerrorMessage (conn));
    }
  release_connection (self, conn);
}

/* What a cursor needs of its database. */
static const GrammarPostgresCursorOwner cursor_owner = {
  grammar_postgres_database_next_result,
  grammar_postgres_database_set_error,
  grammar_postgres_database_end_statement,
};

static gboolean
check_open (GrammarPostgresDatabase  *self,
            GError                  **error)
{
  if (self->opened)
    return TRUE;
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
               "the database is not open (g_initable_init() was not called, or failed)");
  return FALSE;
}

static char *
rewrite_query (const char  *sql,
               guint       *n_parameters,
               GError     **error)
{
  return grammar_sql_rewrite_query (sql, GRAMMAR_SQL_PARAMETERS_DOLLAR, refused_words, refused_functions,
                                    NULL, n_parameters, error);
}

/* Parameters, sent as text (bytestrings as binary) with no type, so that
 * the server gives each the type its place in the statement calls for,
 * as SQLite's affinity would. */

typedef struct
{
  guint n;
  char **values;
  int *lengths;
  int *formats;
} Parameters;

static void
parameters_clear (Parameters *parameters)
{
  for (guint i = 0; i < parameters->n; i++)
    g_free (parameters->values[i]);
  g_clear_pointer (&parameters->values, g_free);
  g_clear_pointer (&parameters->lengths, g_free);
  g_clear_pointer (&parameters->formats, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parameters, parameters_clear)

static gboolean
bind_unsupported (guint      index,
                  GVariant  *value,
                  GError   **error)
{
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
               "cannot bind parameter ?%u: values of type “%s” are not supported",
               index + 1, g_variant_get_type_string (value));
  return FALSE;
}

static char *
double_text (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    return g_strdup ("NaN");
  if (isinf (value))
    return g_strdup (value > 0 ? "Infinity" : "-Infinity");
  return g_strdup (g_ascii_dtostr (buffer, sizeof buffer, value));
}

static gboolean
bind_value (Parameters  *parameters,
            guint        index,
            GVariant    *value,
            GError     **error)
{
  char **text = &parameters->values[index];

  switch (g_variant_classify (value))
    {
    case G_VARIANT_CLASS_VARIANT:
      {
        /* An `av` holds its values boxed. */
        g_autoptr (GVariant) boxed = g_variant_get_variant (value);

        return bind_value (parameters, index, boxed, error);
      }
    case G_VARIANT_CLASS_MAYBE:
      {
        g_autoptr (GVariant) just = g_variant_get_maybe (value);

        /* Nothing binds SQL NULL: the value stays NULL. */
        return just == NULL || bind_value (parameters, index, just, error);
      }
    case G_VARIANT_CLASS_BOOLEAN:
      /* As SQLite binds it; the server reads 1 and 0 as booleans too. */
      *text = g_strdup (g_variant_get_boolean (value) ? "1" : "0");
      break;
    case G_VARIANT_CLASS_BYTE:
      *text = g_strdup_printf ("%u", g_variant_get_byte (value));
      break;
    case G_VARIANT_CLASS_INT16:
      *text = g_strdup_printf ("%d", g_variant_get_int16 (value));
      break;
    case G_VARIANT_CLASS_UINT16:
      *text = g_strdup_printf ("%u", g_variant_get_uint16 (value));
      break;
    case G_VARIANT_CLASS_INT32:
      *text = g_strdup_printf ("%d", g_variant_get_int32 (value));
      break;
    case G_VARIANT_CLASS_UINT32:
      *text = g_strdup_printf ("%u", g_variant_get_uint32 (value));
      break;
    case G_VARIANT_CLASS_INT64:
      *text = g_strdup_printf ("%" G_GINT64_FORMAT, g_variant_get_int64 (value));
      break;
    case G_VARIANT_CLASS_UINT64:
      *text = g_strdup_printf ("%" G_GUINT64_FORMAT, g_variant_get_uint64 (value));
      break;
    case G_VARIANT_CLASS_DOUBLE:
      *text = double_text (g_variant_get_double (value));
      break;
    case G_VARIANT_CLASS_STRING:
      *text = g_variant_dup_string (value, NULL);
      break;
    case G_VARIANT_CLASS_TUPLE:
      /* An exact decimal: its text, which the server reads as it wrote it. */
      if (grammar_value_get_decimal (value) == NULL)
        return bind_unsupported (index, value, error);
      *text = g_strdup (grammar_value_get_decimal (value));
      break;
    case G_VARIANT_CLASS_ARRAY:
      {
        gsize size = 0;
        const void *data;

        if (!g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
          return bind_unsupported (index, value, error);
        /* Sent as binary: bytea's binary form is the bytes themselves,
         * where its text form would need escaping. */
        data = g_variant_get_fixed_array (value, &size, 1);
        if (size > G_MAXINT)
          return bind_unsupported (index, value, error);
        *text = size > 0 ? g_memdup2 (data, size) : g_strdup ("");
        parameters->lengths[index] = (int) size;
        parameters->formats[index] = 1;
        break;
      }
    default:
      return bind_unsupported (index, value, error);
    }
  return TRUE;
}

static gboolean
bind_parameters (Parameters  *parameters,
                 guint        expected,
                 GVariant    *values,
                 GError     **error)
{
  gsize given = 0;

  if (values != NULL)
    {
      if (!g_variant_is_of_type (values, G_VARIANT_TYPE_TUPLE) &&
          !g_variant_is_of_type (values, G_VARIANT_TYPE ("av")))
        {
          g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                       "parameters must be a tuple or an array of variants (av), not “%s”",
                       g_variant_get_type_string (values));
          return FALSE;
        }
      given = g_variant_n_children (values);
    }

  if (given != expected)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                   "the statement takes %u parameter(s) but %" G_GSIZE_FORMAT " value(s) were given: "
                   "parameter ?%" G_GSIZE_FORMAT " %s",
                   expected, given, MIN (given, (gsize) expected) + 1,
                   given < (gsize) expected ? "has no value" : "does not exist");
      return FALSE;
    }

  parameters->n = expected;
  parameters->values = g_new0 (char *, MAX (expected, 1));
  parameters->lengths = g_new0 (int, MAX (expected, 1));
  parameters->formats = g_new0 (int, MAX (expected, 1));
  for (guint i = 0; i < expected; i++)
    {
      g_autoptr (GVariant) value = g_variant_get_child_value (values, i);

      if (!bind_value (parameters, i, value, error))
        return FALSE;
    }
  return TRUE;
}

/* Prepares @sql as the unnamed statement of @conn. */
static gboolean
prepare (GrammarPostgresDatabase  *self,
         PGconn                   *conn,
         const char               *sql,
         GError                  **error)
{
  g_autoptr (PGresult) result = PQprepare (conn, "", sql, 0, NULL);

  if (PQresultStatus (result) == PGRES_COMMAND_OK)
    return TRUE;
  grammar_postgres_database_set_error (self, conn, result, TRUE, error);
  return FALSE;
}

/* Sends the prepared statement in single-row mode and reads its first
 * result, which tells the columns even when there is no row. */
static PGresult *
start_statement (GrammarPostgresDatabase  *self,
                 PGconn                   *conn,
                 Parameters               *parameters,
                 GCancellable             *cancellable,
                 GError                  **error)
{
  g_autoptr (PGresult) first = NULL;
  ExecStatusType status;

  if (!PQsendQueryPrepared (conn, "", (int) parameters->n, (const char * const *) parameters->values,
                            parameters->lengths, parameters->formats, 0) ||
      !PQsetSingleRowMode (conn))
    {
      grammar_postgres_database_set_error (self, conn, NULL, FALSE, error);
      return NULL;
    }

  first = grammar_postgres_database_next_result (self, conn, cancellable, error);
  if (first == NULL)
    {
      if (error != NULL && *error == NULL)
        grammar_postgres_database_set_error (self, conn, NULL, FALSE, error);
      return NULL;
    }
  status = PQresultStatus (first);
  if (status != PGRES_SINGLE_TUPLE && status != PGRES_TUPLES_OK)
    {
      grammar_postgres_database_set_error (self, conn, first, FALSE, error);
      return NULL;
    }
  return g_steal_pointer (&first);
}

static GrammarCursor *
grammar_postgres_database_query_cursor (GrammarDatabase  *database,
                                        const char       *sql,
                                        GVariant         *values,
                                        GCancellable     *cancellable,
                                        GError          **error)
{
  GrammarPostgresDatabase *self = GRAMMAR_POSTGRES_DATABASE (database);
  g_autoptr (GVariant) owned = values != NULL ? g_variant_ref_sink (values) : NULL;
  g_auto (Parameters) parameters = { 0, };
  g_autofree char *statement = NULL;
  PGresult *first;
  PGconn *conn;
  guint n_parameters = 0;

  if (!check_open (self, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  statement = rewrite_query (sql, &n_parameters, error);
  if (statement == NULL || !bind_parameters (&parameters, n_parameters, values, error))
    return NULL;

  conn = take_connection (self, error);
  if (conn == NULL)
    return NULL;
  if (!run_first_command (self, &conn, "BEGIN READ ONLY", error) ||
      !prepare (self, conn, statement, error))
    {
      grammar_postgres_database_end_statement (self, conn, FALSE);
      return NULL;
    }

  /* On failure nothing runs any more: an error, or a cancellation the
   * server was told of. */
  first = start_statement (self, conn, &parameters, cancellable, error);
  if (first == NULL)
    {
      grammar_postgres_database_end_statement (self, conn, FALSE);
      return NULL;
    }
  return grammar_postgres_cursor_new (self, &cursor_owner, conn, first);
}

/* The checks of query_cursor, and the server's parse and analysis of
 * the statement, without running it. */
static gboolean
grammar_postgres_database_check_query (GrammarDatabase  *database,
                                       const char       *sql,
                                       guint            *n_parameters,
                                       GError          **error)
{
  GrammarPostgresDatabase *self = GRAMMAR_POSTGRES_DATABASE (database);
  g_autoptr (PGresult) described = NULL;
  g_autofree char *statement = NULL;
  gboolean ok = FALSE;
  PGconn *conn;
  guint count = 0;

  if (!check_open (self, error))
    return FALSE;
  statement = rewrite_query (sql, &count, error);
  if (statement == NULL)
    return FALSE;

  conn = take_connection (self, error);
  if (conn == NULL)
    return FALSE;
  if (run_first_command (self, &conn, "BEGIN READ ONLY", error) &&
      prepare (self, conn, statement, error))
    {
      described = PQdescribePrepared (conn, "");
      if (PQresultStatus (described) == PGRES_COMMAND_OK)
        ok = TRUE;
      else
        grammar_postgres_database_set_error (self, conn, described, TRUE, error);
    }
  grammar_postgres_database_end_statement (self, conn, FALSE);

  /* The server counts the parameters as we do: the highest number. */
  if (ok)
    *n_parameters = (guint) MAX (PQnparams (described), 0);
  return ok;
}

/* The library's own expressions. */

static gboolean
type_is (const char *declared_type,
         const char *name)
{
  gsize length = strlen (name);

  /* `numeric` and `numeric(10,2)`, not `numeric_range`. */
  return g_ascii_strncasecmp (declared_type, name, length) == 0 &&
         (declared_type[length] == '\0' || declared_type[length] == '(' || declared_type[length] == '[' ||
          declared_type[length] == ' ');
}

/* Types whose values are compared by value, not as text. */
static gboolean
is_ordered_by_value (const char *declared_type)
{
  static const char * const types[] = {
    "smallint", "integer", "bigint", "numeric", "real", "double precision", "boolean", "oid",
    "date", "time", "timestamp", "interval", "bytea", "money",
  };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (type_is (declared_type, types[i]) && strchr (declared_type, '[') == NULL)
      return TRUE;
  return FALSE;
}

/* character(n), not character varying(n), nor an array of either. */
static gboolean
is_blank_padded (const char *declared_type)
{
  return strchr (declared_type, '[') == NULL &&
         ((type_is (declared_type, "character") && !g_str_has_prefix (declared_type, "character varying")) ||
          type_is (declared_type, "bpchar"));
}

static char *
grammar_postgres_database_sql_form (GrammarDatabase *database,
                                    GrammarSqlForm   form,
                                    const char      *expression,
                                    const char      *declared_type)
{
  switch (form)
    {
    case GRAMMAR_SQL_FORM_TEXT_LENGTH:
      /* SQLite's LENGTH() counts the bytes of a blob, and a boolean is
       * the integer 0 or 1 there, as it is out of our cursors. As a
       * double, so that AVG() of it is a double as in SQLite, not a
       * numeric with more digits than a double keeps. */
      if (declared_type != NULL && type_is (declared_type, "bytea"))
        return g_strdup_printf ("CAST(octet_length(%s) AS double precision)", expression);
      if (declared_type != NULL && type_is (declared_type, "boolean"))
        return g_strdup_printf ("CAST(length(((%s)::int)::text) AS double precision)", expression);
      /* With its padding, as the cursor gives the value. */
      if (declared_type != NULL && is_blank_padded (declared_type))
        return g_strdup_printf ("CAST(length(pg_catalog.textin(pg_catalog.bpcharout(%s))) AS double precision)",
                                expression);
      return g_strdup_printf ("CAST(length((%s)::text) AS double precision)", expression);

    case GRAMMAR_SQL_FORM_BINARY:
    default:
      /* Numbers, dates and bytea compare by value already, and COLLATE
       * applies to text types only; without a type, the expression
       * cannot be told apart and stays as it is. */
      if (declared_type == NULL || is_ordered_by_value (declared_type))
        return g_strdup (expression);
      /* The cast of character(n) to text drops the padding that its
       * output, and so our cursor's value, keeps. */
      if (is_blank_padded (declared_type))
        return g_strdup_printf ("pg_catalog.textin(pg_catalog.bpcharout(%s)) COLLATE \"C\"", expression);
      /* Text, and anything else the cursor gives as text (json, uuid,
       * enums, arrays…): its text, by bytes. The cast also makes types
       * without equality (json) usable in DISTINCT. */
      return g_strdup_printf ("(%s)::text COLLATE \"C\"", expression);
    }
}

/* Schema introspection: four catalog queries for the whole schema, in
 * one read-only repeatable-read transaction so that they agree. The
 * schema name is always bound. Partitions are left out: their rows are
 * read through their partitioned table. */

#define TABLES_SQL \
  "SELECT c.oid, c.relname, c.relkind IN ('v', 'm')" \
  " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace" \
  " WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition" \
  " ORDER BY c.relkind IN ('v', 'm'), c.oid"

/* A generated column's expression is not a default. */
#define COLUMNS_SQL \
  "SELECT a.attrelid, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull," \
  " CASE WHEN a.attgenerated = '' THEN pg_catalog.pg_get_expr(d.adbin, d.adrelid) END," \
  " COALESCE((SELECT k.position FROM pg_catalog.pg_constraint p," \
  "   unnest(p.conkey) WITH ORDINALITY AS k(attnum, position)" \
  "   WHERE p.conrelid = a.attrelid AND p.contype = 'p' AND k.attnum = a.attnum), 0)" \
  " FROM pg_catalog.pg_attribute a" \
  " JOIN pg_catalog.pg_class c ON c.oid = a.attrelid" \
  " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace" \
  " LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum" \
  " WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND a.attnum > 0 AND NOT a.attisdropped" \
  " ORDER BY a.attrelid, a.attnum"

/* Unique constraints are unique indexes too: both, in creation order.
 * An expression's attnum is 0, which no attribute has; INCLUDE columns
 * come after the key columns. */
#define UNIQUE_KEYS_SQL \
  "SELECT i.indrelid, i.indexrelid, a.attname" \
  " FROM pg_catalog.pg_index i" \
  " JOIN pg_catalog.pg_class c ON c.oid = i.indrelid" \
  " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace" \
  " CROSS JOIN LATERAL unnest(i.indkey::pg_catalog.int2[]) WITH ORDINALITY AS k(attnum, position)" \
  " LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum" \
  " WHERE n.nspname = $1 AND i.indisunique AND NOT i.indisprimary AND i.indisvalid" \
  " AND i.indpred IS NULL AND i.indexprs IS NULL AND k.position <= i.indnkeyatts" \
  " ORDER BY i.indexrelid, k.position"

#define FOREIGN_KEYS_SQL \
  "SELECT f.conrelid, f.oid, p.relname, pn.nspname, a.attname, pa.attname" \
  " FROM pg_catalog.pg_constraint f" \
  " JOIN pg_catalog.pg_class c ON c.oid = f.conrelid" \
  " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace" \
  " JOIN pg_catalog.pg_class p ON p.oid = f.confrelid" \
  " JOIN pg_catalog.pg_namespace pn ON pn.oid = p.relnamespace" \
  " CROSS JOIN LATERAL unnest(f.conkey, f.confkey) WITH ORDINALITY AS k(attnum, parent_attnum, position)" \
  " JOIN pg_catalog.pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.attnum" \
  " JOIN pg_catalog.pg_attribute pa ON pa.attrelid = f.confrelid AND pa.attnum = k.parent_attnum" \
  " WHERE n.nspname = $1 AND f.contype = 'f' AND f.conparentid = 0" \
  " ORDER BY f.oid, k.position"

static PGresult *
catalog_query (GrammarPostgresDatabase  *self,
               PGconn                   *conn,
               const char               *sql,
               GError                  **error)
{
  const char *values[1] = { self->schema_name };
  g_autoptr (PGresult) result = PQexecParams (conn, sql, 1, NULL, values, NULL, NULL, 0);

  if (PQresultStatus (result) != PGRES_TUPLES_OK)
    {
      grammar_postgres_database_set_error (self, conn, result, FALSE, error);
      return NULL;
    }
  return g_steal_pointer (&result);
}

static gpointer
oid_key (const PGresult *result,
         int             row,
         int             column)
{
  return GUINT_TO_POINTER ((guint) strtoul (PQgetvalue (result, row, column), NULL, 10));
}

static const char *
nullable_value (const PGresult *result,
                int             row,
                int             column)
{
  return PQgetisnull (result, row, column) ? NULL : PQgetvalue (result, row, column);
}

static gboolean
add_tables (GrammarPostgresDatabase  *self,
            PGconn                   *conn,
            GrammarSchema            *schema,
            GHashTable               *by_oid,
            GError                  **error)
{
  g_autoptr (PGresult) tables = catalog_query (self, conn, TABLES_SQL, error);
  g_autoptr (PGresult) columns = NULL;
  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (g_object_unref);

  if (tables == NULL)
    return FALSE;
  for (int i = 0; i < PQntuples (tables); i++)
    {
      GrammarTable *table = grammar_table_new (PQgetvalue (tables, i, 1),
                                               g_str_equal (PQgetvalue (tables, i, 2), "t"));

      g_ptr_array_add (made, table);
      g_hash_table_insert (by_oid, oid_key (tables, i, 0), table);
    }

  columns = catalog_query (self, conn, COLUMNS_SQL, error);
  if (columns == NULL)
    return FALSE;
  for (int i = 0; i < PQntuples (columns); i++)
    {
      GrammarTable *table = g_hash_table_lookup (by_oid, oid_key (columns, i, 0));
      g_autoptr (GrammarColumn) column = NULL;

      if (table == NULL)
        continue;
      column = grammar_column_new (PQgetvalue (columns, i, 1),
                                   PQgetvalue (columns, i, 2),
                                   !g_str_equal (PQgetvalue (columns, i, 3), "t"),
                                   (guint) strtoul (PQgetvalue (columns, i, 5), NULL, 10),
                                   nullable_value (columns, i, 4));
      grammar_table_add_column (table, column);
    }

  /* Added once complete, in the order of the catalog. */
  for (guint i = 0; i < made->len; i++)
    grammar_schema_add_table (schema, g_ptr_array_index (made, i));
  return TRUE;
}

static void
finish_unique_key (GrammarTable  *table,
                   GStrvBuilder **builder,
                   gboolean      *complete)
{
  g_auto (GStrv) columns = g_strv_builder_end (*builder);

  g_clear_pointer (builder, g_strv_builder_unref);
  /* A UNIQUE that repeats the primary key or another constraint adds nothing. */
  if (table != NULL && *complete && columns[0] != NULL &&
      !grammar_table_is_unique_key (table, (const char * const *) columns))
    grammar_table_add_unique_constraint (table, (const char * const *) columns);
  *complete = TRUE;
}

static gboolean
add_unique_keys (GrammarPostgresDatabase  *self,
                 PGconn                   *conn,
                 GHashTable               *by_oid,
                 GError                  **error)
{
  g_autoptr (PGresult) keys = catalog_query (self, conn, UNIQUE_KEYS_SQL, error);
  GStrvBuilder *builder = NULL;
  GrammarTable *table = NULL;
  gboolean complete = TRUE;
  const char *index = NULL;

  if (keys == NULL)
    return FALSE;
  for (int i = 0; i < PQntuples (keys); i++)
    {
      if (builder != NULL && !g_str_equal (index, PQgetvalue (keys, i, 1)))
        finish_unique_key (table, &builder, &complete);
      if (builder == NULL)
        {
          builder = g_strv_builder_new ();
          index = PQgetvalue (keys, i, 1);
          table = g_hash_table_lookup (by_oid, oid_key (keys, i, 0));
        }
      if (PQgetisnull (keys, i, 2))
        complete = FALSE;
      else
        g_strv_builder_add (builder, PQgetvalue (keys, i, 2));
    }
  if (builder != NULL)
    finish_unique_key (table, &builder, &complete);
  return TRUE;
}

/* The rows of one foreign key, gathered before the key is made. */
typedef struct
{
  GrammarTable *table;
  GrammarTable *parent;   /* NULL when it is not in the schema */
  GStrvBuilder *columns;
  GStrvBuilder *referenced;
} PendingKey;

static void
pending_key_finish (PendingKey *key)
{
  g_auto (GStrv) columns = g_strv_builder_end (key->columns);
  g_auto (GStrv) referenced = g_strv_builder_end (key->referenced);

  /* A key to a table of another schema, or of a partition, cannot be
   * followed within the schema. */
  if (key->table != NULL && key->parent != NULL)
    {
      g_autoptr (GrammarForeignKey) foreign_key = NULL;

      foreign_key = grammar_foreign_key_new ((const char * const *) columns,
                                             grammar_table_get_name (key->parent),
                                             (const char * const *) referenced);
      grammar_table_add_foreign_key (key->table, foreign_key);
    }
  g_clear_pointer (&key->columns, g_strv_builder_unref);
  g_clear_pointer (&key->referenced, g_strv_builder_unref);
}

static gboolean
add_foreign_keys (GrammarPostgresDatabase  *self,
                  PGconn                   *conn,
                  GrammarSchema            *schema,
                  GHashTable               *by_oid,
                  GError                  **error)
{
  g_autoptr (PGresult) keys = catalog_query (self, conn, FOREIGN_KEYS_SQL, error);
  PendingKey key = { NULL, };
  const char *constraint = NULL;

  if (keys == NULL)
    return FALSE;
  for (int i = 0; i < PQntuples (keys); i++)
    {
      if (key.columns != NULL && !g_str_equal (constraint, PQgetvalue (keys, i, 1)))
        pending_key_finish (&key);
      if (key.columns == NULL)
        {
          constraint = PQgetvalue (keys, i, 1);
          key.table = g_hash_table_lookup (by_oid, oid_key (keys, i, 0));
          key.parent = g_str_equal (PQgetvalue (keys, i, 3), self->schema_name)
                         ? grammar_schema_get_table (schema, PQgetvalue (keys, i, 2)) : NULL;
          key.columns = g_strv_builder_new ();
          key.referenced = g_strv_builder_new ();
        }
      g_strv_builder_add (key.columns, PQgetvalue (keys, i, 4));
      g_strv_builder_add (key.referenced, PQgetvalue (keys, i, 5));
    }
  if (key.columns != NULL)
    pending_key_finish (&key);
  return TRUE;
}

static GrammarSchema *
introspect (GrammarPostgresDatabase  *self,
            GError                  **error)
{
  g_autoptr (GrammarSchema) schema = grammar_schema_new ();
  g_autoptr (GHashTable) by_oid = g_hash_table_new (NULL, NULL);
  gboolean ok;
  PGconn *conn;

  conn = take_connection (self, error);
  if (conn == NULL)
    return NULL;
  ok = run_first_command (self, &conn, "BEGIN READ ONLY ISOLATION LEVEL REPEATABLE READ", error) &&
       add_tables (self, conn, schema, by_oid, error) &&
       add_unique_keys (self, conn, by_oid, error) &&
       /* Foreign keys last, so that every parent table is known. */
       add_foreign_keys (self, conn, schema, by_oid, error);
  grammar_postgres_database_end_statement (self, conn, FALSE);

  if (!ok)
    {
      g_autofree char *server = grammar_server_database_describe (SERVER (self));

      g_prefix_error (error, "cannot read the schema “%s” of %s: ", self->schema_name, server);
      return NULL;
    }
  return g_steal_pointer (&schema);
}

static GrammarSchema *
grammar_postgres_database_get_schema (GrammarDatabase  *database,
                                      GCancellable     *cancellable,
                                      GError          **error)
{
  GrammarPostgresDatabase *self = GRAMMAR_POSTGRES_DATABASE (database);
  g_autoptr (GMutexLocker) locker = NULL;

  if (!check_open (self, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  locker = g_mutex_locker_new (&self->schema_lock);
  if (self->schema == NULL)
    self->schema = introspect (self, error);
  return self->schema != NULL ? g_object_ref (self->schema) : NULL;
}

/* Opening: one connection, kept for the first statement, tells a wrong
 * setting or password at once rather than at the first query. */
static gboolean
grammar_postgres_database_initable_init (GInitable     *initable,
                                         GCancellable  *cancellable,
                                         GError       **error)
{
  GrammarPostgresDatabase *self = GRAMMAR_POSTGRES_DATABASE (initable);
  PGconn *conn;

  if (self->opened)
    return TRUE;
  if (!check_settings (self, error))
    return FALSE;
  conn = open_connection (self, error);
  if (conn == NULL)
    return FALSE;
  release_connection (self, conn);
  self->opened = TRUE;
  return TRUE;
}

static void
grammar_postgres_database_finalize (GObject *object)
{
  GrammarPostgresDatabase *self = GRAMMAR_POSTGRES_DATABASE (object);

  g_clear_object (&self->schema);
  g_mutex_clear (&self->schema_lock);
  g_ptr_array_unref (self->idle);
  g_mutex_clear (&self->pool_lock);
  g_free (self->schema_name);

  G_OBJECT_CLASS (grammar_postgres_database_parent_class)->finalize (object);
}

static void
grammar_postgres_database_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  GrammarPostgresDatabase *self = GRAMMAR_POSTGRES_DATABASE (object);

  switch (prop_id)
    {
    case PROP_SCHEMA:
      g_value_set_string (value, self->schema_name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_postgres_database_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  GrammarPostgresDatabase *self = GRAMMAR_POSTGRES_DATABASE (object);

  switch (prop_id)
    {
    case PROP_SCHEMA:
      g_free (self->schema_name);
      self->schema_name = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_postgres_database_class_init (GrammarPostgresDatabaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarServerDatabaseClass *server_class = GRAMMAR_SERVER_DATABASE_CLASS (klass);
  static const char * const sslmodes[] = {
    "disable", "allow", "prefer", "require", "verify-ca", "verify-full", NULL,
  };
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = grammar_postgres_database_finalize;
  object_class->get_property = grammar_postgres_database_get_property;
  object_class->set_property = grammar_postgres_database_set_property;

  /* The keys of the server (host, port, socket, database, user,
   * password-env, sslmode, ca-file, connect-timeout, query-timeout)
   * are GrammarServerDatabase's; libpq also knows sslmode=allow. */
  server_class->server_name = "PostgreSQL server";
  server_class->default_port = 5432;
  server_class->sslmodes = sslmodes;

  /**
   * GrammarPostgresDatabase:schema:
   *
   * The schema whose tables and views are the database; unqualified
   * names in statements resolve there.
   */
  properties[PROP_SCHEMA] =
    g_param_spec_string ("schema", "Schema", "Schema whose tables and views are read",
                         "public", flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_postgres_database_class_finalize (GrammarPostgresDatabaseClass *klass)
{
}

static void
grammar_postgres_database_init (GrammarPostgresDatabase *self)
{
  g_mutex_init (&self->pool_lock);
  g_mutex_init (&self->schema_lock);
  self->idle = g_ptr_array_new_with_free_func ((GDestroyNotify) PQfinish);
  self->schema_name = g_strdup ("public");
}

/* PostgreSQL folds a bare name to lower case: `People_ID`
 * needs quotes, as do its reserved words (`user`). */
static gboolean
grammar_postgres_database_identifier_needs_quotes (GrammarDatabase *database,
                                                   const char      *identifier)
{
  return grammar_sql_dialect_needs_quotes (GRAMMAR_SQL_DIALECT_POSTGRES, identifier);
}

static void
grammar_postgres_database_database_iface_init (GrammarDatabaseInterface *iface)
{
  iface->get_schema = grammar_postgres_database_get_schema;
  iface->query_cursor = grammar_postgres_database_query_cursor;
  iface->check_query = grammar_postgres_database_check_query;
  iface->sql_form = grammar_postgres_database_sql_form;
  iface->identifier_needs_quotes = grammar_postgres_database_identifier_needs_quotes;
}

static void
grammar_postgres_database_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_postgres_database_initable_init;
}

/**
 * grammar_postgres_database_register:
 * @module: the plugin module
 *
 * Registers %GRAMMAR_TYPE_POSTGRES_DATABASE with the type system.
 */
void
grammar_postgres_database_register (GTypeModule *module)
{
  grammar_postgres_database_register_type (module);
}
