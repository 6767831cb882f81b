/* grammar-mysql-database.c: a database read from a MariaDB or MySQL server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errmsg.h>
#include <mysqld_error.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-mysql-cursor.h"
#include "grammar-mysql-database.h"

/**
 * GrammarMysqlDatabase:
 *
 * The `mysql` database plugin: a #GrammarDatabase over one database of
 * a MariaDB or MySQL server, reached through libmariadb.
 *
 * Only single read-only queries ever run, with values bound on the
 * server. The text of a statement is checked by
 * grammar_sql_rewrite_query() with this dialect's refused words and
 * functions before it reaches the server; every session is then
 * `SET SESSION TRANSACTION READ ONLY`, and each statement runs inside
 * its own `START TRANSACTION READ ONLY` … `COMMIT`, so a statement that
 * got past the checks still cannot write a table. The user should only
 * have the SELECT privilege anyway.
 *
 * Connections form a small pool: a cursor holds one connection until it
 * is finalized, because rows are streamed (never stored whole on the
 * client) and a connection streaming rows can run nothing else, while
 * the library reads other queries during a cursor, from worker threads
 * too. A connection that the server dropped is opened again, once,
 * before a statement.
 */

struct _GrammarMysqlDatabase
{
  GrammarServerDatabase parent_instance;

  gboolean initialized;
  gboolean is_mariadb;      /* set by the first connection, before any other */
  char *server_name;        /* for messages: host:port or socket, database, user */

  GMutex pool_lock;
  GPtrArray *idle;          /* MYSQL *, under pool_lock */

  GMutex schema_lock;
  GrammarSchema *schema;    /* read once: queries cannot change it */
};

static void grammar_mysql_database_database_iface_init (GrammarDatabaseInterface *iface);
static void grammar_mysql_database_initable_iface_init (GInitableIface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarMysqlDatabase, grammar_mysql_database, GRAMMAR_TYPE_SERVER_DATABASE, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_DATABASE,
                                                               grammar_mysql_database_database_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_mysql_database_initable_iface_init))

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MYSQL_STMT, mysql_stmt_close)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MYSQL_RES, mysql_free_result)

#define READ_ONLY_MESSAGE "only a single read-only SELECT may run"

/* What the server still allows inside a read-only transaction but has
 * side effects: writing files (INTO OUTFILE), setting variables and
 * session state, locking rows, tables and names, running stored code,
 * and statements that cannot follow a SELECT anyway but cost nothing to
 * name. A bare word refuses every use of it: INSERT and REPLACE are
 * also string functions, which are refused with them, and SET also
 * CAST(… CHARACTER SET …) (CONVERT(… USING …) does the same). LOCK
 * covers LOCK IN SHARE MODE and LOCK TABLES. */
static const char * const refused_words[] = {
  "INTO", "FOR UPDATE", "FOR SHARE", "LOCK", "UNLOCK",
  "HANDLER", "CALL", "DO", "SET", "LOAD", "PREPARE", "EXECUTE", "DEALLOCATE",
  "SHOW", "INSERT", "UPDATE", "DELETE", "REPLACE", "FLUSH", "KILL",
  "NEXT VALUE FOR", "PROCEDURE",
  NULL,
};

/* Functions that read files, sleep, lock, wait for replication, move
 * sequences or run programs, and LAST_INSERT_ID, which with an argument
 * sets what the session returns next. */
static const char * const refused_functions[] = {
  "LOAD_FILE", "SLEEP", "BENCHMARK", "GET_LOCK", "RELEASE_LOCK", "RELEASE_ALL_LOCKS",
  "IS_FREE_LOCK", "IS_USED_LOCK", "MASTER_POS_WAIT", "SOURCE_POS_WAIT", "MASTER_GTID_WAIT",
  "WAIT_FOR_EXECUTED_GTID_SET", "WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS",
  "NEXTVAL", "SETVAL", "LASTVAL", "SYS_EXEC", "SYS_EVAL", "LAST_INSERT_ID",
  NULL,
};

#define SERVER(self) GRAMMAR_SERVER_DATABASE (self)

/* libmariadb is thread-safe once the library is initialized, which
 * mysql_init() would otherwise do lazily, racing with other threads.
 * (mysql_thread_init() does nothing in libmariadb 3.) */
static gpointer
init_library (gpointer data)
{
  return GINT_TO_POINTER (mysql_library_init (0, NULL, NULL) == 0);
}

static gboolean
ensure_library (GError **error)
{
  static GOnce once = G_ONCE_INIT;

  if (GPOINTER_TO_INT (g_once (&once, init_library, NULL)))
    return TRUE;
  g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                       "cannot initialize the MariaDB client library");
  return FALSE;
}

static gboolean
is_connection_lost (unsigned int code)
{
  return code == CR_SERVER_GONE_ERROR || code == CR_SERVER_LOST ||
         code == CR_SERVER_LOST_EXTENDED || code == ER_CONNECTION_KILLED ||
         code == 4031 /* MySQL 8: ER_CLIENT_INTERACTION_TIMEOUT */;
}

static gboolean
is_statement_timeout (unsigned int code)
{
  return code == ER_STATEMENT_TIMEOUT || code == 3024 /* MySQL: ER_QUERY_TIMEOUT */;
}

/**
 * grammar_mysql_database_set_error:
 * @self: the database
 * @code: the error number from mysql_errno() or mysql_stmt_errno()
 * @message: the server's or the library's message
 * @error: where to put the error
 *
 * Sets @error to the #GRAMMAR_DATABASE_ERROR that a server error stands
 * for: the input errors (syntax, unknown tables and columns, missing
 * privileges) apart from failures of the run.
 */
void
grammar_mysql_database_set_error (GrammarMysqlDatabase  *self,
                                  unsigned int           code,
                                  const char            *message,
                                  GError               **error)
{
  switch (code)
    {
    case ER_PARSE_ERROR:
    case ER_SYNTAX_ERROR:
    case ER_SP_DOES_NOT_EXIST:
    case ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT:
    case ER_WRONG_PARAMETERS_TO_NATIVE_FCT:
    case ER_FUNC_INEXISTENT_NAME_COLLISION:
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX, "%s", message);
      break;
    case ER_NO_SUCH_TABLE:
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NO_SUCH_TABLE, "%s", message);
      break;
    case ER_BAD_FIELD_ERROR:
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NO_SUCH_COLUMN, "%s", message);
      break;
    case ER_TABLEACCESS_DENIED_ERROR:
    case ER_COLUMNACCESS_DENIED_ERROR:
    case ER_DBACCESS_DENIED_ERROR:
    case ER_SPECIFIC_ACCESS_DENIED_ERROR:
      /* The user fixes this with a GRANT: a configuration error. */
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                   "%s: %s (grant the user SELECT on what the data comes from)",
                   self->server_name, message);
      break;
    case ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION:
    case ER_OPTION_PREVENTS_STATEMENT:
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
                   READ_ONLY_MESSAGE ": %s", message);
      break;
    default:
      if (is_statement_timeout (code))
        g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT,
                     "query-timeout=%u s exceeded: the server stopped the statement (%s)",
                     grammar_server_database_get_query_timeout (SERVER (self)), message);
      else if (is_connection_lost (code))
        g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_QUERY,
                     "lost the connection to %s: %s", self->server_name, message);
      else
        g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_QUERY, "%s", message);
    }
}

static void
set_connection_error (GrammarMysqlDatabase  *self,
                      MYSQL                 *connection,
                      GError               **error)
{
  grammar_mysql_database_set_error (self, mysql_errno (connection), mysql_error (connection), error);
}

static void
set_statement_error (GrammarMysqlDatabase  *self,
                     MYSQL_STMT            *stmt,
                     GError               **error)
{
  grammar_mysql_database_set_error (self, mysql_stmt_errno (stmt), mysql_stmt_error (stmt), error);
}

/* Connections. */

static void
set_tls_options (GrammarMysqlDatabase *self,
                 MYSQL                *connection)
{
  const char *sslmode = grammar_server_database_get_sslmode (SERVER (self));
  const char *ca_file = grammar_server_database_get_ca_file (SERVER (self));
  my_bool on = 1, off = 0;

  if (g_str_equal (sslmode, "disable"))
    {
      mysql_optionsv (connection, MYSQL_OPT_SSL_ENFORCE, &off);
      return;
    }
  /* libmariadb then uses TLS when the server offers it and goes on in
   * clear text otherwise; require checks afterwards (check_tls). */
  mysql_optionsv (connection, MYSQL_OPT_SSL_ENFORCE, &on);
  if (ca_file != NULL)
    mysql_optionsv (connection, MYSQL_OPT_SSL_CA, ca_file);
  /* libmariadb checks the chain and the host name together: verify-ca
   * is as strict as verify-full. */
  if (g_str_has_prefix (sslmode, "verify-"))
    mysql_optionsv (connection, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &on);
}

static void
set_options (GrammarMysqlDatabase *self,
             MYSQL                *connection)
{
  unsigned int connect_timeout = grammar_server_database_get_connect_timeout (SERVER (self));
  unsigned int query_timeout = grammar_server_database_get_query_timeout (SERVER (self));
  my_bool report_truncation = 1;

  mysql_optionsv (connection, MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
  /* With a statement timeout the server answers within it; without one
   * a long query is legitimate, and the client waits for it. */
  if (query_timeout > 0)
    {
      unsigned int io_timeout = query_timeout + connect_timeout;

      mysql_optionsv (connection, MYSQL_OPT_READ_TIMEOUT, &io_timeout);
      mysql_optionsv (connection, MYSQL_OPT_WRITE_TIMEOUT, &io_timeout);
    }
  /* Text comes and goes as UTF-8 whatever the columns are stored in. */
  mysql_optionsv (connection, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  mysql_optionsv (connection, MYSQL_REPORT_DATA_TRUNCATION, &report_truncation);
  set_tls_options (self, connection);
}

static gboolean
run_simple (MYSQL      *connection,
            const char *sql)
{
  return mysql_real_query (connection, sql, strlen (sql)) == 0;
}

/* The session the library's SQL expects: ANSI identifiers and string
 * concatenation, backslashes as plain characters, UTC, read-only
 * transactions and the statement timeout. */
static gboolean
setup_session (GrammarMysqlDatabase  *self,
               MYSQL                 *connection,
               gboolean               is_mariadb,
               GError               **error)
{
  guint query_timeout = grammar_server_database_get_query_timeout (SERVER (self));
  g_autofree char *timeout = NULL;
  g_autofree char *session = NULL;

  if (query_timeout == 0)
    timeout = g_strdup ("");
  else if (is_mariadb)
    timeout = g_strdup_printf (", max_statement_time = %u", query_timeout);
  else
    timeout = g_strdup_printf (", max_execution_time = %u", query_timeout * 1000);

  session = g_strconcat ("SET SESSION sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES',"
                         " time_zone = '+00:00'", timeout, NULL);
  if (run_simple (connection, session) &&
      run_simple (connection, "SET SESSION TRANSACTION READ ONLY"))
    return TRUE;

  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
               "cannot set up the session on %s: %s", self->server_name, mysql_error (connection));
  return FALSE;
}

static gboolean
check_tls (GrammarMysqlDatabase  *self,
           MYSQL                 *connection,
           GError               **error)
{
  const char *sslmode = grammar_server_database_get_sslmode (SERVER (self));

  if (g_str_equal (sslmode, "disable") || g_str_equal (sslmode, "prefer") ||
      mysql_get_ssl_cipher (connection) != NULL)
    return TRUE;
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
               "cannot connect to %s: sslmode=%s but the connection is not encrypted "
               "(the server does not offer TLS)", self->server_name, sslmode);
  return FALSE;
}

static MYSQL *
open_connection (GrammarMysqlDatabase  *self,
                 GError               **error)
{
  GrammarServerDatabase *server = SERVER (self);
  const char *socket = grammar_server_database_get_socket (server);
  const char *password_env = grammar_server_database_get_password_env (server);
  MYSQL *connection;
  const char *password;
  const char *host;
  gboolean is_mariadb;

  if (!grammar_server_database_get_password (server, &password, error))
    return NULL;

  connection = mysql_init (NULL);
  if (connection == NULL)
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                           "out of memory for a MySQL connection");
      return NULL;
    }
  set_options (self, connection);

  /* libmariadb takes “localhost” (or no host) for the Unix socket. */
  host = socket != NULL ? "localhost" : grammar_server_database_get_host (server);
  if (mysql_real_connect (connection, host, grammar_server_database_get_user (server), password,
                          grammar_server_database_get_database (server), grammar_server_database_get_port (server),
                          socket, 0) == NULL)
    {
      unsigned int code = mysql_errno (connection);

      if (code == ER_ACCESS_DENIED_ERROR && password_env != NULL)
        g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                     "cannot connect to %s: %s; the password is read from the environment variable %s "
                     "(password-env=)", self->server_name, mysql_error (connection), password_env);
      else
        g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                     "cannot connect to %s: %s", self->server_name, mysql_error (connection));
      mysql_close (connection);
      return NULL;
    }

  /* The statement timeout is spelled differently by each server. */
  is_mariadb = strstr (mysql_get_server_info (connection), "MariaDB") != NULL;
  if (!check_tls (self, connection, error) || !setup_session (self, connection, is_mariadb, error))
    {
      mysql_close (connection);
      return NULL;
    }
  return connection;
}

/* Takes an idle connection of the pool, or opens one. */
static MYSQL *
acquire_connection (GrammarMysqlDatabase  *self,
                    GError               **error)
{
  MYSQL *connection = NULL;

  g_mutex_lock (&self->pool_lock);
  if (self->idle->len > 0)
    connection = g_ptr_array_steal_index (self->idle, self->idle->len - 1);
  g_mutex_unlock (&self->pool_lock);

  return connection != NULL ? connection : open_connection (self, error);
}

/* Starts the read-only transaction a statement runs in. This is the
 * first thing sent on a connection taken from the pool, so it is where
 * a connection the server dropped (an administrator's KILL, a restart,
 * wait_timeout) shows: then the connection is opened again, once. */
static MYSQL *
begin (GrammarMysqlDatabase  *self,
       GError               **error)
{
  MYSQL *connection = acquire_connection (self, error);

  if (connection == NULL)
    return NULL;
  if (run_simple (connection, "START TRANSACTION READ ONLY"))
    return connection;

  if (is_connection_lost (mysql_errno (connection)))
    {
      g_debug ("%s: reconnecting: %s", self->server_name, mysql_error (connection));
      mysql_close (connection);
      connection = open_connection (self, error);
      if (connection == NULL)
        return NULL;
      if (run_simple (connection, "START TRANSACTION READ ONLY"))
        return connection;
    }

  set_connection_error (self, connection, error);
  mysql_close (connection);
  return NULL;
}

/**
 * grammar_mysql_database_release_connection:
 * @self: the database
 * @connection: (transfer full): a connection from begin()
 * @reusable: whether @connection is in a known state: no result pending
 *
 * Ends the transaction of @connection and puts it back into the pool,
 * or closes it when it is not @reusable or the transaction does not end
 * cleanly.
 */
void
grammar_mysql_database_release_connection (GrammarMysqlDatabase *self,
                                           MYSQL                *connection,
                                           gboolean              reusable)
{
  if (reusable && run_simple (connection, "COMMIT"))
    {
      g_mutex_lock (&self->pool_lock);
      g_ptr_array_add (self->idle, connection);
      g_mutex_unlock (&self->pool_lock);
    }
  else
    mysql_close (connection);
}

/* What a cursor needs of its database. */
static const GrammarMysqlCursorOwner cursor_owner = {
  grammar_mysql_database_release_connection,
  grammar_mysql_database_set_error,
};

/* Statements. */

static char *
rewrite (const char  *sql,
         GArray     **parameter_order,
         guint       *n_parameters,
         GError     **error)
{
  return grammar_sql_rewrite_query (sql, GRAMMAR_SQL_PARAMETERS_POSITIONAL,
                                    refused_words, refused_functions,
                                    parameter_order, n_parameters, error);
}

/* Prepares @sql on @connection and checks that it takes as many
 * placeholders as the rewritten text holds. */
static MYSQL_STMT *
prepare (GrammarMysqlDatabase  *self,
         MYSQL                 *connection,
         const char            *sql,
         guint                  n_placeholders,
         GError               **error)
{
  g_autoptr (MYSQL_STMT) stmt = mysql_stmt_init (connection);

  if (stmt == NULL)
    {
      set_connection_error (self, connection, error);
      return NULL;
    }
  if (mysql_stmt_prepare (stmt, sql, strlen (sql)) != 0)
    {
      set_statement_error (self, stmt, error);
      return NULL;
    }
  if (mysql_stmt_param_count (stmt) != n_placeholders)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                   "the server counts %lu parameter(s) in the statement, not %u",
                   mysql_stmt_param_count (stmt), n_placeholders);
      return NULL;
    }
  if (mysql_stmt_field_count (stmt) == 0)
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
                           READ_ONLY_MESSAGE ": the statement returns no rows");
      return NULL;
    }
  return g_steal_pointer (&stmt);
}

/* A value to bind, kept alive until the statement has run. */
typedef struct
{
  enum enum_field_types type;
  gboolean is_unsigned;
  gint64 integer;
  double real;
  const void *data;
  unsigned long length;
} Value;

static gboolean
bind_unsupported (guint      index,
                  GVariant  *value,
                  GError   **error)
{
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
               "cannot bind parameter ?%u: values of type “%s” are not supported",
               index, g_variant_get_type_string (value));
  return FALSE;
}

/* Fills @out from @value; pointers into @value stay valid while the
 * caller holds the parameters. */
static gboolean
convert_value (guint      index,
               GVariant  *value,
               Value     *out,
               GError   **error)
{
  gsize length = 0;

  out->type = MYSQL_TYPE_LONGLONG;
  switch (g_variant_classify (value))
    {
    case G_VARIANT_CLASS_VARIANT:
      {
        g_autoptr (GVariant) boxed = g_variant_get_variant (value);

        /* The boxed value lives as long as its container. */
        return convert_value (index, boxed, out, error);
      }
    case G_VARIANT_CLASS_MAYBE:
      {
        g_autoptr (GVariant) just = g_variant_get_maybe (value);

        if (just != NULL)
          return convert_value (index, just, out, error);
        out->type = MYSQL_TYPE_NULL;
        return TRUE;
      }
    case G_VARIANT_CLASS_BOOLEAN:
      out->integer = g_variant_get_boolean (value) ? 1 : 0;
      return TRUE;
    case G_VARIANT_CLASS_BYTE:
      out->integer = g_variant_get_byte (value);
      return TRUE;
    case G_VARIANT_CLASS_INT16:
      out->integer = g_variant_get_int16 (value);
      return TRUE;
    case G_VARIANT_CLASS_UINT16:
      out->integer = g_variant_get_uint16 (value);
      return TRUE;
    case G_VARIANT_CLASS_INT32:
      out->integer = g_variant_get_int32 (value);
      return TRUE;
    case G_VARIANT_CLASS_UINT32:
      out->integer = g_variant_get_uint32 (value);
      return TRUE;
    case G_VARIANT_CLASS_INT64:
      out->integer = g_variant_get_int64 (value);
      return TRUE;
    case G_VARIANT_CLASS_UINT64:
      out->integer = (gint64) g_variant_get_uint64 (value);
      out->is_unsigned = TRUE;
      return TRUE;
    case G_VARIANT_CLASS_DOUBLE:
      out->type = MYSQL_TYPE_DOUBLE;
      out->real = g_variant_get_double (value);
      return TRUE;
    case G_VARIANT_CLASS_STRING:
      out->type = MYSQL_TYPE_STRING;
      out->data = g_variant_get_string (value, &length);
      out->length = length;
      return TRUE;
    case G_VARIANT_CLASS_TUPLE:
      /* An exact decimal: its text, sent as the DECIMAL it is, never
       * through a double. */
      out->data = grammar_value_get_decimal (value);
      if (out->data == NULL)
        return bind_unsupported (index, value, error);
      out->type = MYSQL_TYPE_NEWDECIMAL;
      out->length = strlen (out->data);
      return TRUE;
    case G_VARIANT_CLASS_ARRAY:
      if (!g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
        return bind_unsupported (index, value, error);
      out->type = MYSQL_TYPE_BLOB;
      out->data = g_variant_get_fixed_array (value, &length, 1);
      out->length = length;
      /* A NULL buffer would be taken for no value at all. */
      if (out->data == NULL)
        out->data = "";
      return TRUE;
    default:
      return bind_unsupported (index, value, error);
    }
}

static gboolean
check_parameters (GVariant  *parameters,
                  guint      expected,
                  GError   **error)
{
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
  if (given == expected)
    return TRUE;

  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
               "the statement takes %u parameter(s) but %" G_GSIZE_FORMAT " value(s) were given: "
               "parameter ?%" G_GSIZE_FORMAT " %s",
               expected, given, MIN (given, (gsize) expected) + 1,
               given < expected ? "has no value" : "does not exist");
  return FALSE;
}

/* Converts every value once; a value used by several placeholders (?1
 * twice) is bound at each of them. */
static gboolean
bind_and_execute (GrammarMysqlDatabase  *self,
                  MYSQL_STMT            *stmt,
                  GVariant              *parameters,
                  guint                  n_parameters,
                  GArray                *parameter_order,
                  GError               **error)
{
  g_autofree Value *values = g_new0 (Value, MAX (n_parameters, 1));
  g_autofree MYSQL_BIND *binds = g_new0 (MYSQL_BIND, MAX (parameter_order->len, 1));
  g_autoptr (GPtrArray) children = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);

  for (guint i = 0; i < n_parameters; i++)
    {
      GVariant *child = g_variant_get_child_value (parameters, i);

      g_ptr_array_add (children, child);
      if (!convert_value (i + 1, child, &values[i], error))
        return FALSE;
    }

  for (guint i = 0; i < parameter_order->len; i++)
    {
      Value *value = &values[g_array_index (parameter_order, guint, i)];
      MYSQL_BIND *bind = &binds[i];

      bind->buffer_type = value->type;
      bind->is_unsigned = value->is_unsigned;
      switch (value->type)
        {
        case MYSQL_TYPE_LONGLONG:
          bind->buffer = &value->integer;
          break;
        case MYSQL_TYPE_DOUBLE:
          bind->buffer = &value->real;
          break;
        case MYSQL_TYPE_STRING:
        case MYSQL_TYPE_NEWDECIMAL:
        case MYSQL_TYPE_BLOB:
          bind->buffer = (void *) value->data;
          bind->buffer_length = value->length;
          bind->length = &value->length;
          break;
        default:
          break;
        }
    }

  if (parameter_order->len > 0 && mysql_stmt_bind_param (stmt, binds) != 0)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                   "cannot bind the parameters: %s", mysql_stmt_error (stmt));
      return FALSE;
    }
  if (mysql_stmt_execute (stmt) != 0)
    {
      set_statement_error (self, stmt, error);
      return FALSE;
    }
  return TRUE;
}

static GrammarCursor *
grammar_mysql_database_query_cursor (GrammarDatabase  *database,
                                     const char       *sql,
                                     GVariant         *parameters,
                                     GCancellable     *cancellable,
                                     GError          **error)
{
  GrammarMysqlDatabase *self = GRAMMAR_MYSQL_DATABASE (database);
  g_autoptr (GVariant) owned = parameters != NULL ? g_variant_ref_sink (parameters) : NULL;
  g_autoptr (GArray) parameter_order = NULL;
  g_autoptr (MYSQL_STMT) stmt = NULL;
  g_autofree char *statement = NULL;
  guint n_parameters = 0;
  MYSQL *connection;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  statement = rewrite (sql, &parameter_order, &n_parameters, error);
  if (statement == NULL || !check_parameters (parameters, n_parameters, error))
    return NULL;

  connection = begin (self, error);
  if (connection == NULL)
    return NULL;

  stmt = prepare (self, connection, statement, parameter_order->len, error);
  if (stmt == NULL ||
      !bind_and_execute (self, stmt, parameters, n_parameters, parameter_order, error))
    {
      gboolean reusable = !is_connection_lost (mysql_errno (connection));

      g_clear_pointer (&stmt, mysql_stmt_close);
      grammar_mysql_database_release_connection (self, connection, reusable);
      return NULL;
    }

  /* The cursor owns the connection from now on, and gives it back. */
  return grammar_mysql_cursor_new (self, &cursor_owner, connection, g_steal_pointer (&stmt), error);
}

/* The checks of query_cursor, and the server's compile, without
 * binding or running anything. */
static gboolean
grammar_mysql_database_check_query (GrammarDatabase  *database,
                                    const char       *sql,
                                    guint            *n_parameters,
                                    GError          **error)
{
  GrammarMysqlDatabase *self = GRAMMAR_MYSQL_DATABASE (database);
  g_autoptr (GArray) parameter_order = NULL;
  g_autoptr (MYSQL_STMT) stmt = NULL;
  g_autofree char *statement = NULL;
  g_autoptr (GError) local_error = NULL;
  guint count = 0;
  MYSQL *connection;

  statement = rewrite (sql, &parameter_order, &count, error);
  if (statement == NULL)
    return FALSE;

  connection = begin (self, error);
  if (connection == NULL)
    return FALSE;
  stmt = prepare (self, connection, statement, parameter_order->len, &local_error);
  g_clear_pointer (&stmt, mysql_stmt_close);
  grammar_mysql_database_release_connection (self, connection, !is_connection_lost (mysql_errno (connection)));

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (n_parameters != NULL)
    *n_parameters = count;
  return TRUE;
}

/* Expressions in this dialect. */

static gboolean
is_text_type (const char *declared_type)
{
  const char * const text_types[] = {
    "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set", "json",
    "uuid", "inet4", "inet6", NULL,
  };
  g_autofree char *base = NULL;
  gsize length;

  if (declared_type == NULL)
    return FALSE;
  length = strcspn (declared_type, "( ");
  base = g_ascii_strdown (declared_type, length);
  return g_strv_contains (text_types, base);
}

static gboolean
is_decimal_type (const char *declared_type)
{
  return declared_type != NULL &&
         (g_ascii_strncasecmp (declared_type, "decimal", strlen ("decimal")) == 0 ||
          g_ascii_strncasecmp (declared_type, "numeric", strlen ("numeric")) == 0);
}

static char *
grammar_mysql_database_sql_form (GrammarDatabase *database,
                                 GrammarSqlForm   form,
                                 const char      *expression,
                                 const char      *declared_type)
{
  GrammarMysqlDatabase *self = GRAMMAR_MYSQL_DATABASE (database);

  switch (form)
    {
    case GRAMMAR_SQL_FORM_BINARY:
      /* Text compares by code point, which is UTF-8 byte order, with no
       * case folding and no padding, only under a NO PAD binary
       * collation; converting first lets latin1 columns take it. Other
       * types keep their value (and their type). */
      if (!is_text_type (declared_type))
        return g_strdup (expression);
      return g_strdup_printf ("(CONVERT((%s) USING utf8mb4) COLLATE %s)", expression,
                              self->is_mariadb ? "utf8mb4_nopad_bin" : "utf8mb4_0900_bin");
    case GRAMMAR_SQL_FORM_TEXT_LENGTH:
      /* A decimal reads as SQLite keeps it, without the trailing zeros
       * of its scale: 1234.50 is 1234.5 (6 characters), 5.00 is 5. */
      if (is_decimal_type (declared_type))
        return g_strdup_printf ("CHAR_LENGTH(IF((%s) LIKE '%%.%%',"
                                " TRIM(TRAILING '.' FROM TRIM(TRAILING '0' FROM (%s))), (%s)))",
                                expression, expression, expression);
      return g_strdup_printf ("CHAR_LENGTH(%s)", expression);
    default:
      g_return_val_if_reached (NULL);
    }
}

/* Schema introspection: a few queries over information_schema for the
 * whole database, grouped by table here. */

/* Tables in creation order: InnoDB numbers tables as they are created
 * (a table rebuilt by ALTER TABLE gets a new number), but only users
 * with the PROCESS privilege may read that list. */
#define MARIADB_TABLE_IDS "information_schema.INNODB_SYS_TABLES"
#define MYSQL_TABLE_IDS "information_schema.INNODB_TABLES"

/* InnoDB names a table `db/name` in the filename encoding, where a
 * space is `@0020` and `ß` is `@1je`: MariaDB spells a name so with
 * CONVERT(… USING filename), compared as bytes. */
#define MARIADB_TABLE_ID_NAME \
  "CAST(i.NAME AS BINARY) = CONCAT(CAST(CONVERT(t.TABLE_SCHEMA USING filename) AS BINARY), '/'," \
  " CAST(CONVERT(t.TABLE_NAME USING filename) AS BINARY))"
#define MYSQL_TABLE_ID_NAME "i.NAME = CONCAT(t.TABLE_SCHEMA, '/', t.TABLE_NAME)"

#define TABLES_BY_ID_SQL \
  "SELECT t.TABLE_NAME FROM information_schema.TABLES t" \
  " LEFT JOIN %s i ON %s" \
  " WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED')" \
  " ORDER BY i.TABLE_ID IS NULL, i.TABLE_ID, t.CREATE_TIME, t.TABLE_NAME"

#define TABLES_BY_TIME_SQL \
  "SELECT TABLE_NAME FROM information_schema.TABLES" \
  " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED')" \
  " ORDER BY CREATE_TIME, TABLE_NAME"

#define VIEWS_SQL \
  "SELECT TABLE_NAME FROM information_schema.TABLES" \
  " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'VIEW' ORDER BY TABLE_NAME"

#define COLUMNS_SQL \
  "SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT" \
  " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()" \
  " ORDER BY TABLE_NAME, ORDINAL_POSITION"

/* No ORDER BY on the index: the server lists a table's keys in the
 * order it keeps them. */
#define INDEXES_SQL \
  "SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART" \
  " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()"

#define FOREIGN_KEYS_SQL \
  "SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME" \
  " FROM information_schema.KEY_COLUMN_USAGE" \
  " WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_SCHEMA = DATABASE()" \
  " AND REFERENCED_TABLE_NAME IS NOT NULL" \
  " ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION"

static MYSQL_RES *
run_introspection (GrammarMysqlDatabase  *self,
                   MYSQL                 *connection,
                   const char            *sql,
                   GError               **error)
{
  MYSQL_RES *result;

  if (run_simple (connection, sql) && (result = mysql_store_result (connection)) != NULL)
    return result;
  set_connection_error (self, connection, error);
  return NULL;
}

/* The names of the tables, in creation order where the user may know it. */
static GPtrArray *
list_tables (GrammarMysqlDatabase  *self,
             MYSQL                 *connection,
             GError               **error)
{
  g_autofree char *by_id = g_strdup_printf (TABLES_BY_ID_SQL,
                                            self->is_mariadb ? MARIADB_TABLE_IDS : MYSQL_TABLE_IDS,
                                            self->is_mariadb ? MARIADB_TABLE_ID_NAME : MYSQL_TABLE_ID_NAME);
  g_autoptr (MYSQL_RES) result = NULL;
  GPtrArray *names;
  MYSQL_ROW row;

  if (run_simple (connection, by_id))
    result = mysql_store_result (connection);
  else if (mysql_errno (connection) == ER_SPECIFIC_ACCESS_DENIED_ERROR ||
           mysql_errno (connection) == ER_UNKNOWN_TABLE ||
           mysql_errno (connection) == ER_NO_SUCH_TABLE)
    {
      g_debug ("%s: no table ids (%s): tables by creation time", self->server_name, mysql_error (connection));
      if (run_simple (connection, TABLES_BY_TIME_SQL))
        result = mysql_store_result (connection);
    }
  if (result == NULL)
    {
      set_connection_error (self, connection, error);
      return NULL;
    }

  names = g_ptr_array_new_with_free_func (g_free);
  while ((row = mysql_fetch_row (result)) != NULL)
    g_ptr_array_add (names, g_strdup (row[0]));
  return names;
}

/* Per table: the primary key columns by position, and the unique keys. */
typedef struct
{
  GHashTable *primary_key;   /* column name → position (1-based) */
  GPtrArray *unique_keys;    /* GStrv each, in the server's key order */
} TableKeys;

static void
table_keys_free (TableKeys *keys)
{
  g_hash_table_unref (keys->primary_key);
  g_ptr_array_unref (keys->unique_keys);
  g_free (keys);
}

static TableKeys *
table_keys_get (GHashTable *all,
                const char *table)
{
  TableKeys *keys = g_hash_table_lookup (all, table);

  if (keys == NULL)
    {
      keys = g_new0 (TableKeys, 1);
      keys->primary_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      keys->unique_keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
      g_hash_table_insert (all, g_strdup (table), keys);
    }
  return keys;
}

/* Rows of one unique index, gathered until the index changes. */
typedef struct
{
  char *table;
  char *index;
  GStrvBuilder *columns;
  gboolean usable;          /* no prefix (SUB_PART), no expression */
} PendingIndex;

static void
pending_index_finish (PendingIndex *pending,
                      GHashTable   *all)
{
  if (pending->index != NULL && pending->usable)
    {
      TableKeys *keys = table_keys_get (all, pending->table);

      g_ptr_array_add (keys->unique_keys, g_strv_builder_end (pending->columns));
    }
  g_clear_pointer (&pending->table, g_free);
  g_clear_pointer (&pending->index, g_free);
  g_clear_pointer (&pending->columns, g_strv_builder_unref);
}

static GHashTable *
read_keys (GrammarMysqlDatabase  *self,
           MYSQL                 *connection,
           GError               **error)
{
  g_autoptr (MYSQL_RES) result = run_introspection (self, connection, INDEXES_SQL, error);
  g_autoptr (GHashTable) all = NULL;
  PendingIndex pending = { NULL, };
  MYSQL_ROW row;

  if (result == NULL)
    return NULL;
  all = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) table_keys_free);

  while ((row = mysql_fetch_row (result)) != NULL)
    {
      const char *table = row[0], *index = row[1], *column = row[3], *sub_part = row[4];
      gboolean unique = g_strcmp0 (row[2], "0") == 0;

      if (g_strcmp0 (index, "PRIMARY") == 0)
        {
          TableKeys *keys = table_keys_get (all, table);

          g_hash_table_insert (keys->primary_key, g_strdup (column),
                               GUINT_TO_POINTER (g_hash_table_size (keys->primary_key) + 1));
          continue;
        }
      if (!unique)
        continue;
      if (g_strcmp0 (pending.table, table) != 0 || g_strcmp0 (pending.index, index) != 0)
        {
          pending_index_finish (&pending, all);
          pending.table = g_strdup (table);
          pending.index = g_strdup (index);
          pending.columns = g_strv_builder_new ();
          pending.usable = TRUE;
        }
      /* A prefix of a column is not unique for the whole value, and an
       * expression (MySQL 8) stands for no column. */
      if (column == NULL || sub_part != NULL)
        pending.usable = FALSE;
      else
        g_strv_builder_add (pending.columns, column);
    }
  pending_index_finish (&pending, all);
  return g_steal_pointer (&all);
}

/* MariaDB writes the default of a nullable column without one as the
 * text NULL, as it would write the expression; both mean no default. */
static const char *
column_default (const char *value)
{
  return g_strcmp0 (value, "NULL") == 0 ? NULL : value;
}

static gboolean
add_columns (GrammarMysqlDatabase  *self,
             MYSQL                 *connection,
             GHashTable            *tables,
             GHashTable            *keys,
             GError               **error)
{
  g_autoptr (MYSQL_RES) result = run_introspection (self, connection, COLUMNS_SQL, error);
  MYSQL_ROW row;

  if (result == NULL)
    return FALSE;
  while ((row = mysql_fetch_row (result)) != NULL)
    {
      GrammarTable *table = g_hash_table_lookup (tables, row[0]);
      TableKeys *table_keys = g_hash_table_lookup (keys, row[0]);
      g_autoptr (GrammarColumn) column = NULL;
      guint position = 0;

      if (table == NULL)
        continue;
      if (table_keys != NULL)
        position = GPOINTER_TO_UINT (g_hash_table_lookup (table_keys->primary_key, row[1]));
      column = grammar_column_new (row[1], row[2], g_strcmp0 (row[3], "YES") == 0, position,
                                   column_default (row[4]));
      grammar_table_add_column (table, column);
    }
  return TRUE;
}

/* Compares constraint names with the numbers in them by value, so that
 * the automatic names t_ibfk_2 and t_ibfk_10 come in the order they
 * were made. */
static int
natural_compare (const char *a,
                 const char *b)
{
  while (*a != '\0' && *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          char *end_a, *end_b;
          guint64 number_a = g_ascii_strtoull (a, &end_a, 10);
          guint64 number_b = g_ascii_strtoull (b, &end_b, 10);

          if (number_a != number_b)
            return number_a < number_b ? -1 : 1;
          a = end_a;
          b = end_b;
        }
      else if (*a != *b)
        return (guchar) *a < (guchar) *b ? -1 : 1;
      else
        a++, b++;
    }
  return (guchar) *a - (guchar) *b;
}

typedef struct
{
  char *table;
  char *name;
  char *parent;
  GStrvBuilder *columns;
  GStrvBuilder *referenced;
} PendingKey;

static void
pending_key_free (PendingKey *key)
{
  g_free (key->table);
  g_free (key->name);
  g_free (key->parent);
  g_strv_builder_unref (key->columns);
  g_strv_builder_unref (key->referenced);
  g_free (key);
}

static int
compare_pending_keys (gconstpointer a,
                      gconstpointer b)
{
  const PendingKey *key_a = *(PendingKey * const *) a, *key_b = *(PendingKey * const *) b;
  int by_table = strcmp (key_a->table, key_b->table);

  return by_table != 0 ? by_table : natural_compare (key_a->name, key_b->name);
}

static void
add_foreign_key (GrammarSchema *schema,
                 PendingKey    *key)
{
  GrammarTable *table = grammar_schema_get_table (schema, key->table);
  GrammarTable *parent = grammar_schema_get_table (schema, key->parent);
  g_auto (GStrv) columns = g_strv_builder_end (key->columns);
  g_auto (GStrv) referenced = g_strv_builder_end (key->referenced);
  g_autoptr (GrammarForeignKey) foreign_key = NULL;

  /* A key to a table the schema leaves out cannot be followed. */
  if (table == NULL || parent == NULL)
    return;
  foreign_key = grammar_foreign_key_new ((const char * const *) columns,
                                         grammar_table_get_name (parent),
                                         (const char * const *) referenced);
  grammar_table_add_foreign_key (table, foreign_key);
}

static gboolean
add_foreign_keys (GrammarMysqlDatabase  *self,
                  MYSQL                 *connection,
                  GrammarSchema         *schema,
                  GError               **error)
{
  g_autoptr (MYSQL_RES) result = run_introspection (self, connection, FOREIGN_KEYS_SQL, error);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) pending_key_free);
  PendingKey *key = NULL;
  MYSQL_ROW row;

  if (result == NULL)
    return FALSE;
  while ((row = mysql_fetch_row (result)) != NULL)
    {
      if (key == NULL || strcmp (key->table, row[0]) != 0 || strcmp (key->name, row[1]) != 0)
        {
          key = g_new0 (PendingKey, 1);
          key->table = g_strdup (row[0]);
          key->name = g_strdup (row[1]);
          key->parent = g_strdup (row[3]);
          key->columns = g_strv_builder_new ();
          key->referenced = g_strv_builder_new ();
          g_ptr_array_add (keys, key);
        }
      g_strv_builder_add (key->columns, row[2]);
      g_strv_builder_add (key->referenced, row[4]);
    }

  /* information_schema gives no declaration order; InnoDB keeps keys by
   * name, and automatic names count up as keys are declared. */
  g_ptr_array_sort (keys, compare_pending_keys);
  for (guint i = 0; i < keys->len; i++)
    add_foreign_key (schema, g_ptr_array_index (keys, i));
  return TRUE;
}

static gboolean
add_tables (GrammarMysqlDatabase  *self,
            MYSQL                 *connection,
            GrammarSchema         *schema,
            GError               **error)
{
  g_autoptr (GPtrArray) names = list_tables (self, connection, error);
  g_autoptr (MYSQL_RES) views = NULL;
  g_autoptr (GHashTable) keys = NULL;
  g_autoptr (GHashTable) tables = NULL;
  g_autoptr (GPtrArray) ordered = g_ptr_array_new_with_free_func (g_object_unref);
  MYSQL_ROW row;

  if (names == NULL)
    return FALSE;
  views = run_introspection (self, connection, VIEWS_SQL, error);
  if (views == NULL)
    return FALSE;
  keys = read_keys (self, connection, error);
  if (keys == NULL)
    return FALSE;

  tables = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (ordered, grammar_table_new (g_ptr_array_index (names, i), FALSE));
  while ((row = mysql_fetch_row (views)) != NULL)
    g_ptr_array_add (ordered, grammar_table_new (row[0], TRUE));
  for (guint i = 0; i < ordered->len; i++)
    {
      GrammarTable *table = g_ptr_array_index (ordered, i);

      g_hash_table_insert (tables, (gpointer) grammar_table_get_name (table), table);
    }

  if (!add_columns (self, connection, tables, keys, error))
    return FALSE;

  for (guint i = 0; i < ordered->len; i++)
    {
      GrammarTable *table = g_ptr_array_index (ordered, i);
      TableKeys *table_keys = g_hash_table_lookup (keys, grammar_table_get_name (table));

      /* A unique key that repeats the primary key or another one adds nothing. */
      for (guint k = 0; table_keys != NULL && k < table_keys->unique_keys->len; k++)
        {
          const char * const *columns = g_ptr_array_index (table_keys->unique_keys, k);

          if (columns[0] != NULL && !grammar_table_is_unique_key (table, columns))
            grammar_table_add_unique_constraint (table, columns);
        }
      grammar_schema_add_table (schema, table);
    }
  return TRUE;
}

static GrammarSchema *
introspect (GrammarMysqlDatabase  *self,
            GError               **error)
{
  g_autoptr (GrammarSchema) schema = grammar_schema_new ();
  MYSQL *connection = begin (self, error);
  gboolean ok;

  if (connection == NULL)
    return NULL;
  /* Foreign keys last, so that every parent table is known. */
  ok = add_tables (self, connection, schema, error) &&
       add_foreign_keys (self, connection, schema, error);
  grammar_mysql_database_release_connection (self, connection, !is_connection_lost (mysql_errno (connection)));

  if (!ok)
    {
      g_prefix_error (error, "cannot read the schema of %s: ", self->server_name);
      return NULL;
    }
  return g_steal_pointer (&schema);
}

static GrammarSchema *
grammar_mysql_database_get_schema (GrammarDatabase  *database,
                                   GCancellable     *cancellable,
                                   GError          **error)
{
  GrammarMysqlDatabase *self = GRAMMAR_MYSQL_DATABASE (database);
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self->schema_lock);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (self->schema == NULL)
    self->schema = introspect (self, error);
  return self->schema != NULL ? g_object_ref (self->schema) : NULL;
}

/* Opening. */

static gboolean
grammar_mysql_database_initable_init (GInitable     *initable,
                                      GCancellable  *cancellable,
                                      GError       **error)
{
  GrammarMysqlDatabase *self = GRAMMAR_MYSQL_DATABASE (initable);
  MYSQL *connection;

  if (self->initialized)
    return TRUE;
  g_free (self->server_name);
  self->server_name = grammar_server_database_describe (SERVER (self));
  if (!ensure_library (error) || !grammar_server_database_check_settings (SERVER (self), error))
    return FALSE;

  /* The first connection checks the settings and the credentials now
   * rather than at the first query, and tells which server this is. */
  connection = open_connection (self, error);
  if (connection == NULL)
    return FALSE;
  self->is_mariadb = strstr (mysql_get_server_info (connection), "MariaDB") != NULL;
  g_ptr_array_add (self->idle, connection);
  self->initialized = TRUE;
  return TRUE;
}

static void
grammar_mysql_database_finalize (GObject *object)
{
  GrammarMysqlDatabase *self = GRAMMAR_MYSQL_DATABASE (object);

  g_clear_object (&self->schema);
  g_mutex_clear (&self->schema_lock);
  g_ptr_array_unref (self->idle);
  g_mutex_clear (&self->pool_lock);
  g_free (self->server_name);

  G_OBJECT_CLASS (grammar_mysql_database_parent_class)->finalize (object);
}

static void
grammar_mysql_database_class_init (GrammarMysqlDatabaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarServerDatabaseClass *server_class = GRAMMAR_SERVER_DATABASE_CLASS (klass);
  static const char * const sslmodes[] = { "disable", "prefer", "require", "verify-ca", "verify-full", NULL };

  object_class->finalize = grammar_mysql_database_finalize;

  /* The keys (host, port, socket, database, user, password-env,
   * sslmode, ca-file, connect-timeout, query-timeout) are
   * GrammarServerDatabase's. libmariadb checks the chain and the host
   * name together: verify-ca is as strict as verify-full. */
  server_class->server_name = "MySQL server";
  server_class->default_port = 3306;
  server_class->sslmodes = sslmodes;
}

static void
grammar_mysql_database_class_finalize (GrammarMysqlDatabaseClass *klass)
{
}

static void
grammar_mysql_database_init (GrammarMysqlDatabase *self)
{
  g_mutex_init (&self->pool_lock);
  g_mutex_init (&self->schema_lock);
  self->idle = g_ptr_array_new_with_free_func ((GDestroyNotify) mysql_close);
}

/* MariaDB keeps a bare name's case; its reserved words need
 * quotes (in double quotes: the session runs with ANSI_QUOTES). */
static gboolean
grammar_mysql_database_identifier_needs_quotes (GrammarDatabase *database,
                                                const char      *identifier)
{
  return grammar_sql_dialect_needs_quotes (GRAMMAR_SQL_DIALECT_MYSQL, identifier);
}

static void
grammar_mysql_database_database_iface_init (GrammarDatabaseInterface *iface)
{
  iface->get_schema = grammar_mysql_database_get_schema;
  iface->query_cursor = grammar_mysql_database_query_cursor;
  iface->check_query = grammar_mysql_database_check_query;
  iface->sql_form = grammar_mysql_database_sql_form;
  iface->identifier_needs_quotes = grammar_mysql_database_identifier_needs_quotes;
}

static void
grammar_mysql_database_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_mysql_database_initable_init;
}

/**
 * grammar_mysql_database_register:
 * @module: the plugin module
 *
 * Registers %GRAMMAR_TYPE_MYSQL_DATABASE with the type system.
 */
void
grammar_mysql_database_register (GTypeModule *module)
{
  grammar_mysql_database_register_type (module);
}
