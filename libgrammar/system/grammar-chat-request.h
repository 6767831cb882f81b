/* grammar-chat-request.h: what is asked of a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_CHAT_REQUEST (grammar_chat_request_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarChatRequest, grammar_chat_request, GRAMMAR, CHAT_REQUEST, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarChatRequest *grammar_chat_request_new                 (void);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_chat_request_add_message         (GrammarChatRequest *self,
                                                              const char         *role,
                                                              const char         *content);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_chat_request_get_n_messages      (GrammarChatRequest *self);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_chat_request_get_message_role    (GrammarChatRequest *self,
                                                              guint               index);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_chat_request_get_message_content (GrammarChatRequest *self,
                                                              guint               index);

GRAMMAR_AVAILABLE_IN_ALL
void                grammar_chat_request_set_temperature     (GrammarChatRequest *self,
                                                              double              temperature);
GRAMMAR_AVAILABLE_IN_ALL
double              grammar_chat_request_get_temperature     (GrammarChatRequest *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_chat_request_set_max_tokens      (GrammarChatRequest *self,
                                                              guint               max_tokens);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_chat_request_get_max_tokens      (GrammarChatRequest *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_chat_request_set_n               (GrammarChatRequest *self,
                                                              guint               n);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_chat_request_get_n               (GrammarChatRequest *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_chat_request_set_seed            (GrammarChatRequest *self,
                                                              gint64              seed);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_chat_request_unset_seed          (GrammarChatRequest *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_chat_request_get_seed            (GrammarChatRequest *self,
                                                              gint64             *seed);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_chat_request_set_stop            (GrammarChatRequest *self,
                                                              const char * const *stop);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_chat_request_get_stop            (GrammarChatRequest *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_chat_request_set_json_response   (GrammarChatRequest *self,
                                                              gboolean            json_response);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_chat_request_get_json_response   (GrammarChatRequest *self);

G_END_DECLS
