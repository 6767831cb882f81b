/* grammar-chat-response.h: what a language model answered
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

#define GRAMMAR_TYPE_CHAT_RESPONSE (grammar_chat_response_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarChatResponse, grammar_chat_response, GRAMMAR, CHAT_RESPONSE, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarChatResponse *grammar_chat_response_new                   (const char * const  *choices,
                                                                  const char          *model,
                                                                  guint                prompt_tokens,
                                                                  guint                completion_tokens);
GRAMMAR_AVAILABLE_IN_ALL
const char          *grammar_chat_response_get_text              (GrammarChatResponse *self);
GRAMMAR_AVAILABLE_IN_ALL
const char * const  *grammar_chat_response_get_choices           (GrammarChatResponse *self);
GRAMMAR_AVAILABLE_IN_ALL
guint                grammar_chat_response_get_n_choices         (GrammarChatResponse *self);
GRAMMAR_AVAILABLE_IN_ALL
const char          *grammar_chat_response_get_model             (GrammarChatResponse *self);
GRAMMAR_AVAILABLE_IN_ALL
guint                grammar_chat_response_get_prompt_tokens     (GrammarChatResponse *self);
GRAMMAR_AVAILABLE_IN_ALL
guint                grammar_chat_response_get_completion_tokens (GrammarChatResponse *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean             grammar_chat_response_get_cached            (GrammarChatResponse *self);
GRAMMAR_AVAILABLE_IN_ALL
void                 grammar_chat_response_set_cached            (GrammarChatResponse *self,
                                                                  gboolean             cached);

G_END_DECLS
