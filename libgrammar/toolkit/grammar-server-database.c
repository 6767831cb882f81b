/* grammar-server-database.c: what every database server plugin is told about its server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-config.h"
#include "grammar-database.h"
#include "grammar-error.h"
#include "grammar-server-database.h"

/**
 * GrammarServerDatabase:
 *
 * The base of database plugins that read a server (the `mysql` and
 * `postgres` plugins): the keys of the `[database]` section that say
 * where the server is and who reads it — #GrammarServerDatabase:host or
 * #GrammarServerDatabase:socket, #GrammarServerDatabase:port,
 * #GrammarServerDatabase:database, #GrammarServerDatabase:user,
 * #GrammarServerDatabase:password-env, #GrammarServerDatabase:sslmode,
 * #GrammarServerDatabase:ca-file and the timeouts — their checks, the
 * password read from the environment, and the description of the server
 * that every message names.
 *
 * The password is never a property: only the name of the environment
 * variable that holds it is, and messages name the variable, never its
 * value.
 */

typedef struct
{
  char *host;
  guint port;
  char *socket;
  char *database;
  char *user;
  char *password_env;
  char *sslmode;
  char *ca_file;
  guint connect_timeout;
  guint query_timeout;
} GrammarServerDatabasePrivate;

enum
{
  PROP_0,
  PROP_HOST,
  PROP_PORT,
  PROP_SOCKET,
  PROP_DATABASE,
  PROP_USER,
  PROP_PASSWORD_ENV,
  PROP_SSLMODE,
  PROP_CA_FILE,
  PROP_CONNECT_TIMEOUT,
  PROP_QUERY_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GrammarServerDatabase, grammar_server_database, G_TYPE_OBJECT)

static const char * const default_sslmodes[] = {
  "disable", "prefer", "require", "verify-ca", "verify-full", NULL,
};

static gboolean
is_set (const char *text)
{
  return text != NULL && text[0] != '\0';
}

#define PRIV(self) ((GrammarServerDatabasePrivate *) grammar_server_database_get_instance_private (self))

static char **
string_field (GrammarServerDatabasePrivate *priv,
              guint                         prop_id)
{
  switch (prop_id)
    {
    case PROP_HOST: return &priv->host;
    case PROP_SOCKET: return &priv->socket;
    case PROP_DATABASE: return &priv->database;
    case PROP_USER: return &priv->user;
    case PROP_PASSWORD_ENV: return &priv->password_env;
    case PROP_SSLMODE: return &priv->sslmode;
    case PROP_CA_FILE: return &priv->ca_file;
    default: return NULL;
    }
}

static guint *
uint_field (GrammarServerDatabasePrivate *priv,
            guint                         prop_id)
{
  switch (prop_id)
    {
    case PROP_PORT: return &priv->port;
    case PROP_CONNECT_TIMEOUT: return &priv->connect_timeout;
    case PROP_QUERY_TIMEOUT: return &priv->query_timeout;
    default: return NULL;
    }
}

static void
grammar_server_database_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GrammarServerDatabasePrivate *priv = PRIV (GRAMMAR_SERVER_DATABASE (object));
  char **text = string_field (priv, prop_id);
  guint *number = uint_field (priv, prop_id);

  if (text != NULL)
    g_value_set_string (value, *text);
  else if (number != NULL)
    g_value_set_uint (value, *number);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
grammar_server_database_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GrammarServerDatabasePrivate *priv = PRIV (GRAMMAR_SERVER_DATABASE (object));
  char **text = string_field (priv, prop_id);
  guint *number = uint_field (priv, prop_id);

  if (text != NULL)
    {
      g_free (*text);
      *text = g_value_dup_string (value);
      /* An empty sslmode= is the default, not a mode. */
      if (prop_id == PROP_SSLMODE && !is_set (*text))
        {
          g_free (*text);
          *text = g_strdup ("prefer");
        }
    }
  else if (number != NULL)
    *number = g_value_get_uint (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
grammar_server_database_finalize (GObject *object)
{
  GrammarServerDatabasePrivate *priv = PRIV (GRAMMAR_SERVER_DATABASE (object));

  g_free (priv->host);
  g_free (priv->socket);
  g_free (priv->database);
  g_free (priv->user);
  g_free (priv->password_env);
  g_free (priv->sslmode);
  g_free (priv->ca_file);

  G_OBJECT_CLASS (grammar_server_database_parent_class)->finalize (object);
}

static void
grammar_server_database_class_init (GrammarServerDatabaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = grammar_server_database_finalize;
  object_class->get_property = grammar_server_database_get_property;
  object_class->set_property = grammar_server_database_set_property;

  klass->server_name = "database server";
  klass->sslmodes = default_sslmodes;

  /**
   * GrammarServerDatabase:host:
   *
   * The server's host name or IP address, for TCP; excludes
   * #GrammarServerDatabase:socket. Without either, the client library's
   * default socket.
   */
  properties[PROP_HOST] =
    g_param_spec_string ("host", "Host", "Host name or IP address of the server (TCP); excludes socket=",
                         NULL, flags);

  /**
   * GrammarServerDatabase:port:
   *
   * The server's TCP port (for PostgreSQL it also names the socket
   * file); 0 for the server's default (3306, 5432).
   */
  properties[PROP_PORT] =
    g_param_spec_uint ("port", "Port", "TCP port of the server; 0: its default (3306, 5432)",
                       0, 65535, 0, flags);

  /**
   * GrammarServerDatabase:socket:
   *
   * The server's Unix socket instead of #GrammarServerDatabase:host:
   * the socket file for MySQL, its folder for PostgreSQL.
   */
  properties[PROP_SOCKET] =
    g_param_spec_string ("socket", "Socket",
                         "The server's Unix socket (MySQL: the file; PostgreSQL: its folder); excludes host=",
                         NULL, flags | GRAMMAR_PARAM_PATH);

  /**
   * GrammarServerDatabase:database:
   *
   * The database whose tables are read. Required.
   */
  properties[PROP_DATABASE] =
    g_param_spec_string ("database", "Database", "The database to read (required)", NULL, flags);

  /**
   * GrammarServerDatabase:user:
   *
   * The user (role) to log in as: one that may only read.
   */
  properties[PROP_USER] =
    g_param_spec_string ("user", "User", "User to log in as (a read-only one)", NULL, flags);

  /**
   * GrammarServerDatabase:password-env:
   *
   * The name of the environment variable that holds the password. The
   * password itself is never in the keyfile, and never in a message.
   */
  properties[PROP_PASSWORD_ENV] =
    g_param_spec_string ("password-env", "Password variable",
                         "Name of the environment variable that holds the password (never the password)",
                         NULL, flags);

  /**
   * GrammarServerDatabase:sslmode:
   *
   * TLS: `disable`, `prefer` (TLS when the server offers it, the
   * default), `require`, `verify-ca` (the certificate's chain) or
   * `verify-full` (its chain and the host name); PostgreSQL also takes
   * `allow`.
   */
  properties[PROP_SSLMODE] =
    g_param_spec_string ("sslmode", "SSL mode", "disable, prefer, require, verify-ca or verify-full",
                         "prefer", flags);

  /**
   * GrammarServerDatabase:ca-file:
   *
   * A PEM file of the certificate authorities that sign the server's
   * certificate, for `verify-ca` and `verify-full`.
   */
  properties[PROP_CA_FILE] =
    g_param_spec_string ("ca-file", "CA file",
                         "PEM file of the certificate authorities that sign the server's certificate",
                         NULL, flags | GRAMMAR_PARAM_PATH);

  /**
   * GrammarServerDatabase:connect-timeout:
   *
   * Seconds to wait for a connection; 0 waits as long as the system does.
   */
  properties[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", "Connect timeout", "Seconds to wait for a connection",
                       0, G_MAXINT, 10, flags);

  /**
   * GrammarServerDatabase:query-timeout:
   *
   * Seconds a statement may run before the server stops it; 0 for no
   * limit. The server's error becomes %GRAMMAR_DATABASE_ERROR_LIMIT
   * with a message that says `query-timeout=N s exceeded`. The default
   * is %GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT, as for SQLite.
   */
  properties[PROP_QUERY_TIMEOUT] =
    g_param_spec_uint ("query-timeout", "Query timeout",
                       "Seconds a statement may run before the server stops it, 0 for no limit",
                       0, G_MAXINT / 1000, GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_server_database_init (GrammarServerDatabase *self)
{
  GrammarServerDatabasePrivate *priv = PRIV (self);

  priv->sslmode = g_strdup ("prefer");
  priv->connect_timeout = 10;
  priv->query_timeout = GRAMMAR_DATABASE_DEFAULT_QUERY_TIMEOUT;
}

/**
 * grammar_server_database_get_host:
 * @self: a #GrammarServerDatabase
 *
 * Returns: (nullable): #GrammarServerDatabase:host, %NULL when not set
 */
const char *
grammar_server_database_get_host (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), NULL);
  return is_set (PRIV (self)->host) ? PRIV (self)->host : NULL;
}

/**
 * grammar_server_database_get_port:
 * @self: a #GrammarServerDatabase
 *
 * Returns: #GrammarServerDatabase:port, or the server's default port
 *   when it is 0
 */
guint
grammar_server_database_get_port (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), 0);
  return PRIV (self)->port != 0 ? PRIV (self)->port : GRAMMAR_SERVER_DATABASE_GET_CLASS (self)->default_port;
}

/**
 * grammar_server_database_get_socket:
 * @self: a #GrammarServerDatabase
 *
 * Returns: (nullable): #GrammarServerDatabase:socket, %NULL when not set
 */
const char *
grammar_server_database_get_socket (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), NULL);
  return is_set (PRIV (self)->socket) ? PRIV (self)->socket : NULL;
}

/**
 * grammar_server_database_get_database:
 * @self: a #GrammarServerDatabase
 *
 * Returns: (nullable): #GrammarServerDatabase:database, %NULL when not set
 */
const char *
grammar_server_database_get_database (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), NULL);
  return is_set (PRIV (self)->database) ? PRIV (self)->database : NULL;
}

/**
 * grammar_server_database_get_user:
 * @self: a #GrammarServerDatabase
 *
 * Returns: (nullable): #GrammarServerDatabase:user, %NULL when not set
 */
const char *
grammar_server_database_get_user (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), NULL);
  return is_set (PRIV (self)->user) ? PRIV (self)->user : NULL;
}

/**
 * grammar_server_database_get_password_env:
 * @self: a #GrammarServerDatabase
 *
 * Returns: (nullable): #GrammarServerDatabase:password-env, %NULL when not set
 */
const char *
grammar_server_database_get_password_env (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), NULL);
  return is_set (PRIV (self)->password_env) ? PRIV (self)->password_env : NULL;
}

/**
 * grammar_server_database_get_sslmode:
 * @self: a #GrammarServerDatabase
 *
 * Returns: #GrammarServerDatabase:sslmode (`prefer` unless set)
 */
const char *
grammar_server_database_get_sslmode (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), NULL);
  return PRIV (self)->sslmode;
}

/**
 * grammar_server_database_get_ca_file:
 * @self: a #GrammarServerDatabase
 *
 * Returns: (nullable): #GrammarServerDatabase:ca-file, %NULL when not set
 */
const char *
grammar_server_database_get_ca_file (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), NULL);
  return is_set (PRIV (self)->ca_file) ? PRIV (self)->ca_file : NULL;
}

/**
 * grammar_server_database_get_connect_timeout:
 * @self: a #GrammarServerDatabase
 *
 * Returns: #GrammarServerDatabase:connect-timeout, in seconds
 */
guint
grammar_server_database_get_connect_timeout (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), 0);
  return PRIV (self)->connect_timeout;
}

/**
 * grammar_server_database_get_query_timeout:
 * @self: a #GrammarServerDatabase
 *
 * Returns: #GrammarServerDatabase:query-timeout, in seconds (0: none)
 */
guint
grammar_server_database_get_query_timeout (GrammarServerDatabase *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), 0);
  return PRIV (self)->query_timeout;
}

/**
 * grammar_server_database_describe:
 * @self: a #GrammarServerDatabase
 *
 * The server as messages name it: its kind, where it is, the database
 * and the user — “PostgreSQL server 10.0.0.5:5432, database “crm”, user
 * “grammar_reader””. Never the password.
 *
 * Returns: (transfer full): the description
 */
char *
grammar_server_database_describe (GrammarServerDatabase *self)
{
  GrammarServerDatabasePrivate *priv;
  GString *text;

  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), NULL);

  priv = PRIV (self);
  text = g_string_new (GRAMMAR_SERVER_DATABASE_GET_CLASS (self)->server_name);
  if (is_set (priv->socket))
    {
      g_string_append_printf (text, " at socket “%s”", priv->socket);
      if (priv->port != 0)
        g_string_append_printf (text, " (port %u)", priv->port);
    }
  else
    g_string_append_printf (text, " %s:%u", is_set (priv->host) ? priv->host : "localhost",
                            grammar_server_database_get_port (self));
  if (is_set (priv->database))
    g_string_append_printf (text, ", database “%s”", priv->database);
  if (is_set (priv->user))
    g_string_append_printf (text, ", user “%s”", priv->user);
  return g_string_free (text, FALSE);
}

/**
 * grammar_server_database_check_settings:
 * @self: a #GrammarServerDatabase
 * @error: return location for a %GRAMMAR_DATABASE_ERROR_OPEN error
 *
 * Checks the keys before anything connects: a database named, not both
 * a host and a socket, an sslmode the plugin knows, no CA file with TLS
 * turned off, and the password's environment variable set when one is
 * named.
 *
 * Returns: %TRUE when the settings can be used
 */
gboolean
grammar_server_database_check_settings (GrammarServerDatabase  *self,
                                        GError                **error)
{
  GrammarServerDatabasePrivate *priv;
  const char * const *sslmodes;
  const char *password;

  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), FALSE);

  priv = PRIV (self);
  sslmodes = GRAMMAR_SERVER_DATABASE_GET_CLASS (self)->sslmodes;
  if (!is_set (priv->database))
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                           "set database= to the database to read");
      return FALSE;
    }
  if (is_set (priv->host) && is_set (priv->socket))
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                           "host= and socket= exclude each other");
      return FALSE;
    }
  if (!g_strv_contains (sslmodes, priv->sslmode))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) sslmodes);

      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                   "sslmode=%s is not one of %s", priv->sslmode, known);
      return FALSE;
    }
  if (is_set (priv->ca_file) && g_str_equal (priv->sslmode, "disable"))
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
                           "ca-file= is set but sslmode=disable turns TLS off");
      return FALSE;
    }
  return grammar_server_database_get_password (self, &password, error);
}

/**
 * grammar_server_database_get_password:
 * @self: a #GrammarServerDatabase
 * @password: (out) (transfer none) (nullable): the password, or %NULL
 *   when #GrammarServerDatabase:password-env is not set
 * @error: return location for a %GRAMMAR_DATABASE_ERROR_OPEN error
 *
 * Reads the password from the environment variable
 * #GrammarServerDatabase:password-env names. The error names the
 * variable and the server, never a password.
 *
 * Returns: %FALSE when the variable is named but not set
 */
gboolean
grammar_server_database_get_password (GrammarServerDatabase  *self,
                                      const char            **password,
                                      GError                **error)
{
  GrammarServerDatabasePrivate *priv;
  g_autofree char *server = NULL;

  g_return_val_if_fail (GRAMMAR_IS_SERVER_DATABASE (self), FALSE);
  g_return_val_if_fail (password != NULL, FALSE);

  priv = PRIV (self);
  *password = NULL;
  if (!is_set (priv->password_env))
    return TRUE;
  *password = g_getenv (priv->password_env);
  if (*password != NULL)
    return TRUE;
  server = grammar_server_database_describe (self);
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_OPEN,
               "cannot connect to %s: password-env=%s names an environment variable that is not set",
               server, priv->password_env);
  return FALSE;
}
