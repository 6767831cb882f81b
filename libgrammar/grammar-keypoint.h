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

G_BEGIN_DECLS

#define GRAMMAR_TYPE_KEYPOINT (grammar_keypoint_get_type ())

G_DECLARE_FINAL_TYPE (GrammarKeypoint, grammar_keypoint, GRAMMAR, KEYPOINT, GObject)

GrammarKeypoint *grammar_keypoint_new               (const char      *text,
                                                     const char      *value,
                                                     const char      *table,
                                                     const char      *column);
const char      *grammar_keypoint_get_text          (GrammarKeypoint *self);
const char      *grammar_keypoint_get_value         (GrammarKeypoint *self);
const char      *grammar_keypoint_get_table         (GrammarKeypoint *self);
const char      *grammar_keypoint_get_column        (GrammarKeypoint *self);
GPtrArray       *grammar_keypoint_list_from_record  (GrammarRecord   *record);
char            *grammar_keypoint_list_to_reference (GPtrArray       *keypoints);

G_END_DECLS
