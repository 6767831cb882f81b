/* grammar-rageval-keypoints.h: the `rageval-keypoints` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_RAGEVAL_KEYPOINTS (grammar_rageval_keypoints_get_type ())
G_DECLARE_FINAL_TYPE (GrammarRagevalKeypoints, grammar_rageval_keypoints, GRAMMAR, RAGEVAL_KEYPOINTS, GObject)

void grammar_rageval_keypoints_register (GTypeModule *module);

G_END_DECLS
