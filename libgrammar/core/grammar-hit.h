/* grammar-hit.h: a document a retriever returned
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

#define GRAMMAR_TYPE_HIT (grammar_hit_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarHit, grammar_hit, GRAMMAR, HIT, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarHit *grammar_hit_new         (const char *document_id,
                                     double      score,
                                     const char *text);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_hit_get_document_id (GrammarHit *self);
GRAMMAR_AVAILABLE_IN_ALL
double      grammar_hit_get_score       (GrammarHit *self);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_hit_get_text        (GrammarHit *self);

G_END_DECLS
