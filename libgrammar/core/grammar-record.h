/* grammar-record.h: one text query on its way through the pipeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "grammar-hit.h"
#include "grammar-score.h"
#include "grammar-verdict.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_RECORD (grammar_record_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarRecord, grammar_record, GRAMMAR, RECORD, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarRecord      *grammar_record_new                   (void);
GRAMMAR_AVAILABLE_IN_ALL
GrammarRecord      *grammar_record_new_from_json         (JsonNode           *node,
                                                          GError            **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode           *grammar_record_to_json               (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_record_save_jsonl            (GPtrArray          *records,
                                                          const char         *path,
                                                          GCancellable       *cancellable,
                                                          GError            **error);

GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_id                (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_id                (GrammarRecord      *self,
                                                          const char         *id);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_group             (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_group             (GrammarRecord      *self,
                                                          const char         *group);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_template          (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_template          (GrammarRecord      *self,
                                                          const char         *template_id);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_style             (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_style             (GrammarRecord      *self,
                                                          const char         *style);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_text              (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_text              (GrammarRecord      *self,
                                                          const char         *text);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_sql               (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_sql               (GrammarRecord      *self,
                                                          const char         *sql);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode           *grammar_record_get_bindings          (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_bindings          (GrammarRecord      *self,
                                                          JsonNode           *bindings);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode           *grammar_record_get_answer            (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_answer            (GrammarRecord      *self,
                                                          JsonNode           *answer);
GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_record_get_doc_ids           (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_doc_ids           (GrammarRecord      *self,
                                                          const char * const *doc_ids);

GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_response          (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_response          (GrammarRecord      *self,
                                                          const char         *response);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_record_get_retrieved         (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean            grammar_record_has_retrieved         (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_retrieved         (GrammarRecord      *self,
                                                          GPtrArray          *retrieved);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_error             (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_error             (GrammarRecord      *self,
                                                          const char         *error);
GRAMMAR_AVAILABLE_IN_ALL
double              grammar_record_get_latency_ms        (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_latency_ms        (GrammarRecord      *self,
                                                          double              latency_ms);

GRAMMAR_AVAILABLE_IN_ALL
GrammarVerdict     *grammar_record_get_verdict           (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_verdict           (GrammarRecord      *self,
                                                          GrammarVerdict     *verdict);
GRAMMAR_AVAILABLE_IN_ALL
GrammarVerdictKind  grammar_record_get_retrieval_verdict (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_retrieval_verdict (GrammarRecord      *self,
                                                          GrammarVerdictKind  retrieval);

GRAMMAR_AVAILABLE_IN_ALL
const char * const *grammar_record_get_samples           (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_samples           (GrammarRecord      *self,
                                                          const char * const *samples);
GRAMMAR_AVAILABLE_IN_ALL
guint               grammar_record_get_samples_failed    (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
const char         *grammar_record_get_sample_error      (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_samples_failed    (GrammarRecord      *self,
                                                          guint               n_failed,
                                                          const char         *first_error);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray          *grammar_record_get_scores            (GrammarRecord      *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarScore       *grammar_record_get_score             (GrammarRecord      *self,
                                                          const char         *metric);
GRAMMAR_AVAILABLE_IN_ALL
void                grammar_record_set_scores            (GrammarRecord      *self,
                                                          GPtrArray          *scores);

G_END_DECLS
