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

G_BEGIN_DECLS

#define GRAMMAR_TYPE_RECORD (grammar_record_get_type ())
G_DECLARE_FINAL_TYPE (GrammarRecord, grammar_record, GRAMMAR, RECORD, GObject)

GrammarRecord      *grammar_record_new                   (void);
GrammarRecord      *grammar_record_new_from_json         (JsonNode           *node,
                                                          GError            **error);
JsonNode           *grammar_record_to_json               (GrammarRecord      *self);
gboolean            grammar_record_save_jsonl            (GPtrArray          *records,
                                                          const char         *path,
                                                          GCancellable       *cancellable,
                                                          GError            **error);

const char         *grammar_record_get_id                (GrammarRecord      *self);
void                grammar_record_set_id                (GrammarRecord      *self,
                                                          const char         *id);
const char         *grammar_record_get_group             (GrammarRecord      *self);
void                grammar_record_set_group             (GrammarRecord      *self,
                                                          const char         *group);
const char         *grammar_record_get_template          (GrammarRecord      *self);
void                grammar_record_set_template          (GrammarRecord      *self,
                                                          const char         *template_id);
const char         *grammar_record_get_style             (GrammarRecord      *self);
void                grammar_record_set_style             (GrammarRecord      *self,
                                                          const char         *style);
const char         *grammar_record_get_text              (GrammarRecord      *self);
void                grammar_record_set_text              (GrammarRecord      *self,
                                                          const char         *text);
const char         *grammar_record_get_sql               (GrammarRecord      *self);
void                grammar_record_set_sql               (GrammarRecord      *self,
                                                          const char         *sql);
JsonNode           *grammar_record_get_bindings          (GrammarRecord      *self);
void                grammar_record_set_bindings          (GrammarRecord      *self,
                                                          JsonNode           *bindings);
JsonNode           *grammar_record_get_answer            (GrammarRecord      *self);
void                grammar_record_set_answer            (GrammarRecord      *self,
                                                          JsonNode           *answer);
const char * const *grammar_record_get_doc_ids           (GrammarRecord      *self);
void                grammar_record_set_doc_ids           (GrammarRecord      *self,
                                                          const char * const *doc_ids);

const char         *grammar_record_get_response          (GrammarRecord      *self);
void                grammar_record_set_response          (GrammarRecord      *self,
                                                          const char         *response);
GPtrArray          *grammar_record_get_retrieved         (GrammarRecord      *self);
void                grammar_record_set_retrieved         (GrammarRecord      *self,
                                                          GPtrArray          *retrieved);
const char         *grammar_record_get_error             (GrammarRecord      *self);
void                grammar_record_set_error             (GrammarRecord      *self,
                                                          const char         *error);
double              grammar_record_get_latency_ms        (GrammarRecord      *self);
void                grammar_record_set_latency_ms        (GrammarRecord      *self,
                                                          double              latency_ms);

GrammarVerdict     *grammar_record_get_verdict           (GrammarRecord      *self);
void                grammar_record_set_verdict           (GrammarRecord      *self,
                                                          GrammarVerdict     *verdict);
GrammarVerdictKind  grammar_record_get_retrieval_verdict (GrammarRecord      *self);
void                grammar_record_set_retrieval_verdict (GrammarRecord      *self,
                                                          GrammarVerdictKind  retrieval);

const char * const *grammar_record_get_samples           (GrammarRecord      *self);
void                grammar_record_set_samples           (GrammarRecord      *self,
                                                          const char * const *samples);
GPtrArray          *grammar_record_get_scores            (GrammarRecord      *self);
GrammarScore       *grammar_record_get_score             (GrammarRecord      *self,
                                                          const char         *metric);
void                grammar_record_set_scores            (GrammarRecord      *self,
                                                          GPtrArray          *scores);

G_END_DECLS
