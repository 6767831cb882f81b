/* grammar-chat-request.c: what to ask a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-chat-request.h"

/**
 * GrammarChatRequest:
 *
 * A chat completion request: a list of messages, each a role (`system`,
 * `user`, `assistant`) with its content, and the sampling options.
 * Options left unset are not sent, so the provider's defaults apply:
 * the temperature is unset while negative, the token limit while 0 and
 * the seed until grammar_chat_request_set_seed() is called. One choice
 * is asked for unless grammar_chat_request_set_n() says otherwise.
 *
 * ```c
 * g_autoptr(GrammarChatRequest) request = grammar_chat_request_new ();
 * grammar_chat_request_add_message (request, "system", "Answer briefly.");
 * grammar_chat_request_add_message (request, "user", question);
 * grammar_chat_request_set_temperature (request, 0.0);
 * ```
 */
struct _GrammarChatRequest
{
  GObject parent_instance;

  GPtrArray *roles;     /* char* */
  GPtrArray *contents;  /* char* */
  double temperature;
  guint max_tokens;
  guint n;
  gboolean has_seed;
  gint64 seed;
  GStrv stop;
  gboolean json_response;
};

G_DEFINE_FINAL_TYPE (GrammarChatRequest, grammar_chat_request, G_TYPE_OBJECT)

static void
grammar_chat_request_finalize (GObject *object)
{
  GrammarChatRequest *self = GRAMMAR_CHAT_REQUEST (object);

  g_ptr_array_unref (self->roles);
  g_ptr_array_unref (self->contents);
  g_strfreev (self->stop);

  G_OBJECT_CLASS (grammar_chat_request_parent_class)->finalize (object);
}

static void
grammar_chat_request_class_init (GrammarChatRequestClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_chat_request_finalize;
}

static void
grammar_chat_request_init (GrammarChatRequest *self)
{
  self->roles = g_ptr_array_new_with_free_func (g_free);
  self->contents = g_ptr_array_new_with_free_func (g_free);
  self->temperature = -1.0;
  self->n = 1;
}

/**
 * grammar_chat_request_new:
 *
 * Makes a request without messages, with every option unset and one
 * choice asked for.
 *
 * Returns: (transfer full): a new #GrammarChatRequest
 */
GrammarChatRequest *
grammar_chat_request_new (void)
{
  return g_object_new (GRAMMAR_TYPE_CHAT_REQUEST, NULL);
}

/**
 * grammar_chat_request_add_message:
 * @self: a #GrammarChatRequest
 * @role: the role of the author: `system`, `user` or `assistant`
 * @content: the text of the message
 *
 * Appends a message to the conversation.
 */
void
grammar_chat_request_add_message (GrammarChatRequest *self,
                                  const char         *role,
                                  const char         *content)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (self));
  g_return_if_fail (role != NULL);
  g_return_if_fail (content != NULL);

  g_ptr_array_add (self->roles, g_strdup (role));
  g_ptr_array_add (self->contents, g_strdup (content));
}

/**
 * grammar_chat_request_get_n_messages:
 * @self: a #GrammarChatRequest
 *
 * Returns: the number of messages
 */
guint
grammar_chat_request_get_n_messages (GrammarChatRequest *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), 0);
  return self->roles->len;
}

/**
 * grammar_chat_request_get_message_role:
 * @self: a #GrammarChatRequest
 * @index: which message, below grammar_chat_request_get_n_messages()
 *
 * Returns: the role of the message
 */
const char *
grammar_chat_request_get_message_role (GrammarChatRequest *self,
                                       guint               index)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), NULL);
  g_return_val_if_fail (index < self->roles->len, NULL);
  return g_ptr_array_index (self->roles, index);
}

/**
 * grammar_chat_request_get_message_content:
 * @self: a #GrammarChatRequest
 * @index: which message, below grammar_chat_request_get_n_messages()
 *
 * Returns: the text of the message
 */
const char *
grammar_chat_request_get_message_content (GrammarChatRequest *self,
                                          guint               index)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), NULL);
  g_return_val_if_fail (index < self->contents->len, NULL);
  return g_ptr_array_index (self->contents, index);
}

/**
 * grammar_chat_request_set_temperature:
 * @self: a #GrammarChatRequest
 * @temperature: the sampling temperature, or a negative value to leave it unset
 *
 * Sets the sampling temperature. While it is unset (the default) the
 * provider's default temperature applies.
 */
void
grammar_chat_request_set_temperature (GrammarChatRequest *self,
                                      double              temperature)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (self));
  self->temperature = temperature >= 0.0 ? temperature : -1.0;
}

/**
 * grammar_chat_request_get_temperature:
 * @self: a #GrammarChatRequest
 *
 * Returns: the sampling temperature, or -1 when it is unset
 */
double
grammar_chat_request_get_temperature (GrammarChatRequest *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), -1.0);
  return self->temperature;
}

/**
 * grammar_chat_request_set_max_tokens:
 * @self: a #GrammarChatRequest
 * @max_tokens: the most tokens to generate, or 0 to leave it unset
 *
 * Limits the length of each choice. While it is 0 (the default) the
 * provider's limit applies.
 */
void
grammar_chat_request_set_max_tokens (GrammarChatRequest *self,
                                     guint               max_tokens)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (self));
  self->max_tokens = max_tokens;
}

/**
 * grammar_chat_request_get_max_tokens:
 * @self: a #GrammarChatRequest
 *
 * Returns: the most tokens to generate, or 0 when it is unset
 */
guint
grammar_chat_request_get_max_tokens (GrammarChatRequest *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), 0);
  return self->max_tokens;
}

/**
 * grammar_chat_request_set_n:
 * @self: a #GrammarChatRequest
 * @n: the number of choices to generate, at least 1
 *
 * Asks for several choices at once, as SelfCheck-style metrics do to
 * sample a model repeatedly. The default is 1.
 */
void
grammar_chat_request_set_n (GrammarChatRequest *self,
                            guint               n)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (self));
  g_return_if_fail (n >= 1);
  self->n = n;
}

/**
 * grammar_chat_request_get_n:
 * @self: a #GrammarChatRequest
 *
 * Returns: the number of choices to generate
 */
guint
grammar_chat_request_get_n (GrammarChatRequest *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), 1);
  return self->n;
}

/**
 * grammar_chat_request_set_seed:
 * @self: a #GrammarChatRequest
 * @seed: the sampling seed
 *
 * Sets the seed of the provider's sampler, for providers that make
 * sampling reproducible with one.
 */
void
grammar_chat_request_set_seed (GrammarChatRequest *self,
                               gint64              seed)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (self));
  self->has_seed = TRUE;
  self->seed = seed;
}

/**
 * grammar_chat_request_unset_seed:
 * @self: a #GrammarChatRequest
 *
 * Leaves the seed unset again, as it is by default.
 */
void
grammar_chat_request_unset_seed (GrammarChatRequest *self)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (self));
  self->has_seed = FALSE;
  self->seed = 0;
}

/**
 * grammar_chat_request_get_seed:
 * @self: a #GrammarChatRequest
 * @seed: (out) (optional): return location for the seed, set to 0 when it is unset
 *
 * Gets the seed set with grammar_chat_request_set_seed().
 *
 * Returns: %TRUE if a seed is set
 */
gboolean
grammar_chat_request_get_seed (GrammarChatRequest *self,
                               gint64             *seed)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), FALSE);

  if (seed != NULL)
    *seed = self->seed;
  return self->has_seed;
}

/**
 * grammar_chat_request_set_stop:
 * @self: a #GrammarChatRequest
 * @stop: (nullable) (array zero-terminated=1): the texts that end generation, or %NULL for none
 *
 * Sets the stop sequences. An empty list is the same as %NULL.
 */
void
grammar_chat_request_set_stop (GrammarChatRequest *self,
                               const char * const *stop)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (self));

  g_clear_pointer (&self->stop, g_strfreev);
  if (stop != NULL && stop[0] != NULL)
    self->stop = g_strdupv ((GStrv) stop);
}

/**
 * grammar_chat_request_get_stop:
 * @self: a #GrammarChatRequest
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the stop sequences, or %NULL when there are none
 */
const char * const *
grammar_chat_request_get_stop (GrammarChatRequest *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), NULL);
  return (const char * const *) self->stop;
}

/**
 * grammar_chat_request_set_json_response:
 * @self: a #GrammarChatRequest
 * @json_response: whether to ask for a JSON object as the response
 *
 * Asks the provider to constrain the response to a JSON object, for
 * providers that can (as judges that parse the response do). The
 * default is %FALSE.
 */
void
grammar_chat_request_set_json_response (GrammarChatRequest *self,
                                        gboolean            json_response)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_REQUEST (self));
  self->json_response = !!json_response;
}

/**
 * grammar_chat_request_get_json_response:
 * @self: a #GrammarChatRequest
 *
 * Returns: %TRUE if a JSON object is asked for as the response
 */
gboolean
grammar_chat_request_get_json_response (GrammarChatRequest *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_REQUEST (self), FALSE);
  return self->json_response;
}
