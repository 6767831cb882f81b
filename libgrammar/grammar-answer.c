/* grammar-answer.c: what the system under test answered
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-answer.h"

/**
 * GrammarAnswer:
 *
 * What a system under test answered to one query: the response text and
 * the documents it retrieved on the way, in rank order, when it tells
 * them. Answers are immutable once made.
 */
struct _GrammarAnswer
{
  GObject parent_instance;

  char *response;
  GPtrArray *retrieved;  /* GrammarHit */
};

G_DEFINE_FINAL_TYPE (GrammarAnswer, grammar_answer, G_TYPE_OBJECT)

static void
grammar_answer_finalize (GObject *object)
{
  GrammarAnswer *self = GRAMMAR_ANSWER (object);

  g_free (self->response);
  g_ptr_array_unref (self->retrieved);

  G_OBJECT_CLASS (grammar_answer_parent_class)->finalize (object);
}

static void
grammar_answer_class_init (GrammarAnswerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_answer_finalize;
}

static void
grammar_answer_init (GrammarAnswer *self)
{
  self->retrieved = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * grammar_answer_new:
 * @response: the response text
 * @retrieved: (nullable) (element-type GrammarHit) (transfer none): the retrieved documents in rank order, or %NULL when the system does not tell them
 *
 * Makes an answer. The hits of @retrieved are referenced, not the array
 * itself: changing @retrieved later does not change the answer.
 *
 * Returns: (transfer full): a new #GrammarAnswer
 */
GrammarAnswer *
grammar_answer_new (const char *response,
                    GPtrArray  *retrieved)
{
  GrammarAnswer *self;

  g_return_val_if_fail (response != NULL, NULL);
  if (retrieved != NULL)
    for (guint i = 0; i < retrieved->len; i++)
      g_return_val_if_fail (GRAMMAR_IS_HIT (g_ptr_array_index (retrieved, i)), NULL);

  self = g_object_new (GRAMMAR_TYPE_ANSWER, NULL);
  self->response = g_strdup (response);
  if (retrieved != NULL)
    for (guint i = 0; i < retrieved->len; i++)
      g_ptr_array_add (self->retrieved, g_object_ref (g_ptr_array_index (retrieved, i)));
  return self;
}

/**
 * grammar_answer_get_response:
 * @self: a #GrammarAnswer
 *
 * Returns: the response text
 */
const char *
grammar_answer_get_response (GrammarAnswer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ANSWER (self), NULL);
  return self->response;
}

/**
 * grammar_answer_get_retrieved:
 * @self: a #GrammarAnswer
 *
 * Returns: (transfer none) (element-type GrammarHit): the retrieved documents in rank order; empty when the system did not tell them
 */
GPtrArray *
grammar_answer_get_retrieved (GrammarAnswer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ANSWER (self), NULL);
  return self->retrieved;
}
