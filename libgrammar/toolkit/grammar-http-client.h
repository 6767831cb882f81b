/* grammar-http-client.h: one HTTP client for every plugin that talks to a server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_PLUGIN_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar-plugin.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GrammarHttpCheckFunc:
 * @status: the HTTP status of the reply
 * @body: the body of the reply
 * @user_data: (closure): the data given with the function
 * @error: where to put what is wrong with the reply
 *
 * Judges one reply of a request sent with grammar_http_client_send_async().
 * It is called for every reply, whatever its status.
 *
 * Returns %TRUE to accept the reply: the request is done and
 * grammar_http_client_send_finish() returns its body. Returns %FALSE
 * with @error set to reject it: a 2xx, 408, 429 or 5xx (but 501 and 505)
 * reply is then tried again while retries are left; any other status
 * fails at once. The message of @error, prefixed with the request's
 * address and redacted, becomes the error of the request.
 *
 * Returns: %TRUE to accept the reply
 */
typedef gboolean (*GrammarHttpCheckFunc) (guint     status,
                                          GBytes   *body,
                                          gpointer  user_data,
                                          GError  **error);

#define GRAMMAR_TYPE_HTTP_CLIENT (grammar_http_client_get_type ())

GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarHttpClient, grammar_http_client, GRAMMAR, HTTP_CLIENT, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarHttpClient *grammar_http_client_new               (void);

GRAMMAR_AVAILABLE_IN_ALL
gboolean           grammar_http_client_set_ca_file       (GrammarHttpClient    *self,
                                                          const char           *path,
                                                          GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void               grammar_http_client_set_header        (GrammarHttpClient    *self,
                                                          const char           *name,
                                                          const char           *value);
GRAMMAR_AVAILABLE_IN_ALL
gboolean           grammar_http_client_add_header_lines  (GrammarHttpClient    *self,
                                                          const char * const   *lines,
                                                          GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void               grammar_http_client_set_bearer_token  (GrammarHttpClient    *self,
                                                          const char           *token);
GRAMMAR_AVAILABLE_IN_ALL
void               grammar_http_client_set_bearer_token_from_env
                                                         (GrammarHttpClient    *self,
                                                          const char           *variable);
GRAMMAR_AVAILABLE_IN_ALL
gboolean           grammar_http_client_configure         (GrammarHttpClient    *self,
                                                          GObject              *settings,
                                                          GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
void               grammar_http_client_add_secret        (GrammarHttpClient    *self,
                                                          const char           *secret);
GRAMMAR_AVAILABLE_IN_ALL
char              *grammar_http_client_redact            (GrammarHttpClient    *self,
                                                          const char           *text);

GRAMMAR_AVAILABLE_IN_ALL
void               grammar_http_client_send_async        (GrammarHttpClient    *self,
                                                          const char           *method,
                                                          const char           *uri,
                                                          const char           *content_type,
                                                          GBytes               *body,
                                                          GrammarHttpCheckFunc  check,
                                                          gpointer              check_data,
                                                          GDestroyNotify        check_destroy,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
GRAMMAR_AVAILABLE_IN_ALL
GBytes            *grammar_http_client_send_finish       (GrammarHttpClient    *self,
                                                          GAsyncResult         *result,
                                                          guint                *status,
                                                          GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
GBytes            *grammar_http_client_send              (GrammarHttpClient    *self,
                                                          const char           *method,
                                                          const char           *uri,
                                                          const char           *content_type,
                                                          GBytes               *body,
                                                          GCancellable         *cancellable,
                                                          guint                *status,
                                                          GError              **error);

GRAMMAR_AVAILABLE_IN_ALL
guint              grammar_http_client_install_statistics (GObjectClass      *klass,
                                                           guint              first_prop_id);
GRAMMAR_AVAILABLE_IN_ALL
void               grammar_http_client_get_statistic     (GrammarHttpClient    *self,
                                                          GParamSpec           *pspec,
                                                          GValue               *value);

G_END_DECLS
