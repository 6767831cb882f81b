/* grammar-score.h: what one metric says of one record
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SCORE (grammar_score_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarScore, grammar_score, GRAMMAR, SCORE, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarScore *grammar_score_new            (double         value);
GRAMMAR_AVAILABLE_IN_ALL
GrammarScore *grammar_score_new_unmeasured (const char    *reason);
GRAMMAR_AVAILABLE_IN_ALL
GrammarScore *grammar_score_new_failed     (const char    *reason);
GRAMMAR_AVAILABLE_IN_ALL
GrammarScore *grammar_score_new_from_json  (const char    *metric,
                                            JsonNode      *node,
                                            GError       **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode     *grammar_score_to_json        (GrammarScore  *self);

GRAMMAR_AVAILABLE_IN_ALL
gboolean      grammar_score_is_measured    (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean      grammar_score_is_failed      (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
double        grammar_score_get_value      (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char   *grammar_score_get_reason     (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
void          grammar_score_set_reason     (GrammarScore  *self,
                                            const char    *reason);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode     *grammar_score_get_evidence   (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
void          grammar_score_set_evidence   (GrammarScore  *self,
                                            JsonNode      *evidence);
GRAMMAR_AVAILABLE_IN_ALL
double        grammar_score_get_threshold  (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
void          grammar_score_set_threshold  (GrammarScore  *self,
                                            double         threshold);
GRAMMAR_AVAILABLE_IN_ALL
gboolean      grammar_score_get_passed     (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
const char   *grammar_score_get_metric     (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
void          grammar_score_set_metric     (GrammarScore  *self,
                                            const char    *metric);
GRAMMAR_AVAILABLE_IN_ALL
const char   *grammar_score_get_plugin     (GrammarScore  *self);
GRAMMAR_AVAILABLE_IN_ALL
void          grammar_score_set_plugin     (GrammarScore  *self,
                                            const char    *plugin);

G_END_DECLS
