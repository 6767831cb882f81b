/* grammar-keypoint.h: one fact a correct response states, phrased from the grounded answer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-record.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_KEYPOINT (grammar_keypoint_get_type ())

GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarKeypoint, grammar_keypoint, GRAMMAR, KEYPOINT, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarKeypoint *grammar_keypoint_new               (const char      *text,
                                                     const char      *value,
                                                     const char      *table,
                                                     const char      *column);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_keypoint_get_text          (GrammarKeypoint *self);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_keypoint_get_value         (GrammarKeypoint *self);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_keypoint_get_table         (GrammarKeypoint *self);
GRAMMAR_AVAILABLE_IN_ALL
const char      *grammar_keypoint_get_column        (GrammarKeypoint *self);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray       *grammar_keypoint_list_from_record  (GrammarRecord   *record);
GRAMMAR_AVAILABLE_IN_ALL
char            *grammar_keypoint_list_to_reference (GPtrArray       *keypoints);

G_END_DECLS
