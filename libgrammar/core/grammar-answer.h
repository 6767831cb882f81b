/* grammar-answer.h: what the system under test answered
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-hit.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_ANSWER (grammar_answer_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarAnswer, grammar_answer, GRAMMAR, ANSWER, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarAnswer      *grammar_answer_new           (const char         *response,
                                                  GPtrArray          *retrieved);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_answer_get_response  (GrammarAnswer      *self);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_answer_get_retrieved (GrammarAnswer      *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_answer_has_retrieved (GrammarAnswer      *self);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_answer_get_samples   (GrammarAnswer      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_answer_set_samples   (GrammarAnswer      *self,
                                                  const char * const *samples);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_answer_get_samples_failed (GrammarAnswer *self);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_answer_get_sample_error   (GrammarAnswer *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_answer_set_samples_failed (GrammarAnswer *self,
                                                       guint          n_failed,
                                                       const char    *first_error);

G_END_DECLS
