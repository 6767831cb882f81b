/* grammar-server-database.h: what every database server plugin is told about its server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_PLUGIN_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar-plugin.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SERVER_DATABASE (grammar_server_database_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GrammarServerDatabase, grammar_server_database, GRAMMAR, SERVER_DATABASE, GObject)

/**
 * GrammarServerDatabaseClass:
 * @parent_class: the parent class
 * @server_name: what the server is called in messages (“PostgreSQL server”)
 * @default_port: the port when #GrammarServerDatabase:port is 0
 * @sslmodes: the values #GrammarServerDatabase:sslmode may take, %NULL-terminated
 *
 * A database plugin for a server sets these in its class_init.
 */
struct _GrammarServerDatabaseClass
{
  GObjectClass parent_class;

  const char *server_name;
  guint default_port;
  const char * const *sslmodes;

  /*< private >*/
  gpointer padding[8];
};

GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_server_database_get_host            (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint       grammar_server_database_get_port            (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_server_database_get_socket          (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_server_database_get_database        (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_server_database_get_user            (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_server_database_get_password_env    (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_server_database_get_sslmode         (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_server_database_get_ca_file         (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint       grammar_server_database_get_connect_timeout (GrammarServerDatabase  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint       grammar_server_database_get_query_timeout   (GrammarServerDatabase  *self);

GRAMMAR_AVAILABLE_IN_ALL
gboolean    grammar_server_database_check_settings      (GrammarServerDatabase  *self,
                                                         GError                **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean    grammar_server_database_get_password        (GrammarServerDatabase  *self,
                                                         const char            **password,
                                                         GError                **error);
GRAMMAR_AVAILABLE_IN_ALL
char       *grammar_server_database_describe            (GrammarServerDatabase  *self);

G_END_DECLS
