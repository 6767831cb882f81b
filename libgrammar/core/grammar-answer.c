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
 * them, and the stochastic samples it gave besides the response when it
 * was asked for some (for SelfCheck-style evaluators). Answers are
 * immutable once made, but for the samples, set once by the system that
 * made the answer. A sample that failed leaves the answer with fewer
 * samples, and says so (grammar_answer_get_samples_failed()).
 *
 * "Not reported" and "nothing retrieved" are different answers: a
 * system that does not tell its documents makes its answer with
 * %NULL, and grammar_answer_get_retrieved() returns %NULL, so that
 * retrieval is unmeasured for it; an empty array is a system that
 * reports its documents and retrieved none, a measured miss.
 */
struct _GrammarAnswer
{
  GObject parent_instance;

  char *response;
  GPtrArray *retrieved;  /* GrammarHit; NULL: not reported */
  GStrv samples;         /* NULL: none asked */
  guint samples_failed;  /* samples asked for that failed */
  char *sample_error;    /* the first of their errors */
};

G_DEFINE_FINAL_TYPE (GrammarAnswer, grammar_answer, G_TYPE_OBJECT)

static void
grammar_answer_finalize (GObject *object)
{
  GrammarAnswer *self = GRAMMAR_ANSWER (object);

  g_free (self->response);
  g_clear_pointer (&self->retrieved, g_ptr_array_unref);
  g_strfreev (self->samples);
  g_free (self->sample_error);

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
}

/**
 * grammar_answer_new:
 * @response: the response text
 * @retrieved: (nullable) (element-type GrammarHit) (transfer none): the retrieved documents in rank order, or %NULL when the system does not tell them
 *
 * Makes an answer. The hits of @retrieved are referenced, not the array
 * itself: changing @retrieved later does not change the answer.
 *
 * An empty @retrieved says that the system retrieved nothing (retrieval
 * is measured, and missed); %NULL that it did not report its documents
 * (retrieval is unmeasured). Earlier versions turned a %NULL
 * @retrieved into an empty array, which made every such answer a
 * retrieval miss.
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
    {
      self->retrieved = g_ptr_array_new_full (retrieved->len, g_object_unref);
      for (guint i = 0; i < retrieved->len; i++)
        g_ptr_array_add (self->retrieved, g_object_ref (g_ptr_array_index (retrieved, i)));
    }
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
 * The documents the system retrieved. %NULL when the system did not
 * report them (the `http` system with `retrieved-pointer=` empty, for
 * instance): retrieval is then unmeasured, not a miss. An empty array
 * is a system that reports its documents and retrieved none.
 *
 * Returns: (transfer none) (nullable) (element-type GrammarHit): the
 *   retrieved documents in rank order, or %NULL when the system did not
 *   report them
 */
GPtrArray *
grammar_answer_get_retrieved (GrammarAnswer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ANSWER (self), NULL);
  return self->retrieved;
}

/**
 * grammar_answer_has_retrieved:
 * @self: a #GrammarAnswer
 *
 * Whether the system reported the documents it retrieved, even none:
 * grammar_answer_get_retrieved() is not %NULL. Bindings that turn a
 * %NULL array into an empty list (PyGObject does) tell "not reported"
 * from "retrieved nothing" with this.
 *
 * Returns: %TRUE when the answer has retrieved documents, possibly none
 */
gboolean
grammar_answer_has_retrieved (GrammarAnswer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ANSWER (self), FALSE);
  return self->retrieved != NULL;
}

/**
 * grammar_answer_get_samples:
 * @self: a #GrammarAnswer
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the
 *   stochastic samples, or %NULL when none were asked for
 */
const char * const *
grammar_answer_get_samples (GrammarAnswer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ANSWER (self), NULL);
  return (const char * const *) self->samples;
}

/**
 * grammar_answer_set_samples:
 * @self: a #GrammarAnswer
 * @samples: (nullable) (array zero-terminated=1): the stochastic samples
 *   the system gave besides the response, or %NULL for none
 *
 * Sets the samples, which SelfCheck-style metrics compare the response
 * with. A system sets them before it hands the answer over.
 */
void
grammar_answer_set_samples (GrammarAnswer      *self,
                            const char * const *samples)
{
  g_return_if_fail (GRAMMAR_IS_ANSWER (self));

  g_strfreev (self->samples);
  self->samples = g_strdupv ((char **) samples);
}

/**
 * grammar_answer_get_samples_failed:
 * @self: a #GrammarAnswer
 *
 * Returns: how many of the samples asked for failed, and are missing
 *   from grammar_answer_get_samples()
 */
guint
grammar_answer_get_samples_failed (GrammarAnswer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ANSWER (self), 0);
  return self->samples_failed;
}

/**
 * grammar_answer_get_sample_error:
 * @self: a #GrammarAnswer
 *
 * Returns: (transfer none) (nullable): why the first failed sample
 *   failed, or %NULL when none did
 */
const char *
grammar_answer_get_sample_error (GrammarAnswer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_ANSWER (self), NULL);
  return self->sample_error;
}

/**
 * grammar_answer_set_samples_failed:
 * @self: a #GrammarAnswer
 * @n_failed: how many of the samples asked for failed
 * @first_error: (nullable): the error of the first of them, or %NULL
 *   when @n_failed is 0
 *
 * Notes that the answer has fewer samples than were asked for: a system
 * whose sample requests failed (after their retries) still gives the
 * response, with the samples it got. A system sets it before it hands
 * the answer over.
 */
void
grammar_answer_set_samples_failed (GrammarAnswer *self,
                                   guint          n_failed,
                                   const char    *first_error)
{
  g_return_if_fail (GRAMMAR_IS_ANSWER (self));

  self->samples_failed = n_failed;
  g_free (self->sample_error);
  self->sample_error = n_failed > 0 ? g_strdup (first_error) : NULL;
}
