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

G_BEGIN_DECLS

#define GRAMMAR_TYPE_ANSWER (grammar_answer_get_type ())
G_DECLARE_FINAL_TYPE (GrammarAnswer, grammar_answer, GRAMMAR, ANSWER, GObject)

GrammarAnswer      *grammar_answer_new           (const char         *response,
                                                  GPtrArray          *retrieved);
const char         *grammar_answer_get_response  (GrammarAnswer      *self);
GPtrArray          *grammar_answer_get_retrieved (GrammarAnswer      *self);
const char * const *grammar_answer_get_samples   (GrammarAnswer      *self);
void                grammar_answer_set_samples   (GrammarAnswer      *self,
                                                  const char * const *samples);

G_END_DECLS
