/* grammar-reliability.h: how far reference-free metrics agree with grounded verdicts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "grammar-evaluation.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GRAMMAR_RELIABILITY_DEFAULT_RESAMPLES:
 *
 * The default number of bootstrap resamples of the AUROC interval.
 */
#define GRAMMAR_RELIABILITY_DEFAULT_RESAMPLES 1000

#define GRAMMAR_TYPE_RELIABILITY (grammar_reliability_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarReliability, grammar_reliability, GRAMMAR, RELIABILITY, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarReliability *grammar_reliability_new             (void);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_reliability_add_judged      (GrammarReliability  *self,
                                                         GrammarEvaluation   *evaluation);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_reliability_add_assessed    (GrammarReliability  *self,
                                                         const char          *path,
                                                         GCancellable        *cancellable,
                                                         GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_reliability_get_n_metrics   (GrammarReliability  *self);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode           *grammar_reliability_to_json         (GrammarReliability  *self);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode           *grammar_reliability_keypoints_to_json (GrammarReliability *self,
                                                         double              alpha);

G_END_DECLS
