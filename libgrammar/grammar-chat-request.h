/* grammar-chat-request.h: what is asked of a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_CHAT_REQUEST (grammar_chat_request_get_type ())
G_DECLARE_FINAL_TYPE (GrammarChatRequest, grammar_chat_request, GRAMMAR, CHAT_REQUEST, GObject)

GrammarChatRequest *grammar_chat_request_new                 (void);
void                grammar_chat_request_add_message         (GrammarChatRequest *self,
                                                              const char         *role,
                                                              const char         *content);
guint               grammar_chat_request_get_n_messages      (GrammarChatRequest *self);
const char         *grammar_chat_request_get_message_role    (GrammarChatRequest *self,
                                                              guint               index);
const char         *grammar_chat_request_get_message_content (GrammarChatRequest *self,
                                                              guint               index);

void                grammar_chat_request_set_temperature     (GrammarChatRequest *self,
                                                              double              temperature);
double              grammar_chat_request_get_temperature     (GrammarChatRequest *self);
void                grammar_chat_request_set_max_tokens      (GrammarChatRequest *self,
                                                              guint               max_tokens);
guint               grammar_chat_request_get_max_tokens      (GrammarChatRequest *self);
void                grammar_chat_request_set_n               (GrammarChatRequest *self,
                                                              guint               n);
guint               grammar_chat_request_get_n               (GrammarChatRequest *self);
void                grammar_chat_request_set_seed            (GrammarChatRequest *self,
                                                              gint64              seed);
void                grammar_chat_request_unset_seed          (GrammarChatRequest *self);
gboolean            grammar_chat_request_get_seed            (GrammarChatRequest *self,
                                                              gint64             *seed);
void                grammar_chat_request_set_stop            (GrammarChatRequest *self,
                                                              const char * const *stop);
const char * const *grammar_chat_request_get_stop            (GrammarChatRequest *self);
void                grammar_chat_request_set_json_response   (GrammarChatRequest *self,
                                                              gboolean            json_response);
gboolean            grammar_chat_request_get_json_response   (GrammarChatRequest *self);

G_END_DECLS
