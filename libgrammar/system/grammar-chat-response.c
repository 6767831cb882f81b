/* grammar-chat-response.c: what a language model answered
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-chat-response.h"

/**
 * GrammarChatResponse:
 *
 * The answer of a language model to a #GrammarChatRequest: the
 * generated choices (one unless more were asked for), the model that
 * actually answered, the token counts the provider reported and whether
 * the response came from a cache rather than the provider. Only the
 * cached flag changes after the response is made.
 */
struct _GrammarChatResponse
{
  GObject parent_instance;

  GStrv choices;
  char *model;
  guint prompt_tokens;
  guint completion_tokens;
  gboolean cached;
};

G_DEFINE_FINAL_TYPE (GrammarChatResponse, grammar_chat_response, G_TYPE_OBJECT)

static void
grammar_chat_response_finalize (GObject *object)
{
  GrammarChatResponse *self = GRAMMAR_CHAT_RESPONSE (object);

  g_strfreev (self->choices);
  g_free (self->model);

  G_OBJECT_CLASS (grammar_chat_response_parent_class)->finalize (object);
}

static void
grammar_chat_response_class_init (GrammarChatResponseClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_chat_response_finalize;
}

static void
grammar_chat_response_init (GrammarChatResponse *self)
{
}

/**
 * grammar_chat_response_new:
 * @choices: (nullable) (array zero-terminated=1): the generated texts, or %NULL for none
 * @model: (nullable): the name of the model that answered, or %NULL when the provider does not say
 * @prompt_tokens: the number of tokens of the request, 0 when unknown
 * @completion_tokens: the number of tokens generated, 0 when unknown
 *
 * Makes a response. Language model plugins call this when a request
 * completes.
 *
 * Returns: (transfer full): a new #GrammarChatResponse
 */
GrammarChatResponse *
grammar_chat_response_new (const char * const *choices,
                           const char         *model,
                           guint               prompt_tokens,
                           guint               completion_tokens)
{
  GrammarChatResponse *self;

  self = g_object_new (GRAMMAR_TYPE_CHAT_RESPONSE, NULL);
  self->choices = choices != NULL ? g_strdupv ((GStrv) choices) : g_new0 (char *, 1);
  self->model = g_strdup (model);
  self->prompt_tokens = prompt_tokens;
  self->completion_tokens = completion_tokens;
  return self;
}

/**
 * grammar_chat_response_get_text:
 * @self: a #GrammarChatResponse
 *
 * Gets the text of the first choice, the one that matters when a
 * single choice was asked for.
 *
 * Returns: the first choice, or an empty string when there is none
 */
const char *
grammar_chat_response_get_text (GrammarChatResponse *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_RESPONSE (self), NULL);
  return self->choices[0] != NULL ? self->choices[0] : "";
}

/**
 * grammar_chat_response_get_choices:
 * @self: a #GrammarChatResponse
 *
 * Returns: (transfer none) (array zero-terminated=1): the generated texts, possibly none
 */
const char * const *
grammar_chat_response_get_choices (GrammarChatResponse *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_RESPONSE (self), NULL);
  return (const char * const *) self->choices;
}

/**
 * grammar_chat_response_get_n_choices:
 * @self: a #GrammarChatResponse
 *
 * Returns: the number of generated texts
 */
guint
grammar_chat_response_get_n_choices (GrammarChatResponse *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_RESPONSE (self), 0);
  return g_strv_length (self->choices);
}

/**
 * grammar_chat_response_get_model:
 * @self: a #GrammarChatResponse
 *
 * Returns: (nullable): the name of the model that answered, or %NULL when unknown
 */
const char *
grammar_chat_response_get_model (GrammarChatResponse *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_RESPONSE (self), NULL);
  return self->model;
}

/**
 * grammar_chat_response_get_prompt_tokens:
 * @self: a #GrammarChatResponse
 *
 * Returns: the number of tokens of the request, 0 when unknown
 */
guint
grammar_chat_response_get_prompt_tokens (GrammarChatResponse *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_RESPONSE (self), 0);
  return self->prompt_tokens;
}

/**
 * grammar_chat_response_get_completion_tokens:
 * @self: a #GrammarChatResponse
 *
 * Returns: the number of tokens generated, 0 when unknown
 */
guint
grammar_chat_response_get_completion_tokens (GrammarChatResponse *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_RESPONSE (self), 0);
  return self->completion_tokens;
}

/**
 * grammar_chat_response_get_cached:
 * @self: a #GrammarChatResponse
 *
 * Returns: %TRUE if the response was read from a cache rather than asked of the provider
 */
gboolean
grammar_chat_response_get_cached (GrammarChatResponse *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CHAT_RESPONSE (self), FALSE);
  return self->cached;
}

/**
 * grammar_chat_response_set_cached:
 * @self: a #GrammarChatResponse
 * @cached: whether the response was read from a cache
 *
 * Marks the response as read from a cache. Caching layers call this;
 * token counts then describe the original request, not a new cost.
 */
void
grammar_chat_response_set_cached (GrammarChatResponse *self,
                                  gboolean             cached)
{
  g_return_if_fail (GRAMMAR_IS_CHAT_RESPONSE (self));
  self->cached = !!cached;
}
