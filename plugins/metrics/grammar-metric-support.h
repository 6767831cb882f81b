/* grammar-metric-support.h: what the metric plugins share: the record's
 * parts, asking a language model with defensive parsing, and the words
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-llm-metric.h"

G_BEGIN_DECLS

/* One prompt's outcome: the last reply, what the parser made of it (NULL:
 * unparseable after every attempt), and how many requests it took. */
typedef struct
{
  char *reply;
  JsonNode *parsed;
  guint attempts;
} GrammarMetricReply;

/* Makes a JSON value of @reply, or NULL when it cannot be read. */
typedef JsonNode *(*GrammarMetricParse) (const char *reply,
                                         gpointer    data);

G_GNUC_INTERNAL
GrammarScore *grammar_metric_support_no_response (GrammarRecord  *record);
G_GNUC_INTERNAL
char         *grammar_metric_support_context     (GrammarRecord  *record);
G_GNUC_INTERNAL
gboolean      grammar_metric_support_need_texts  (GrammarRecord  *record,
                                                  const char     *plugin,
                                                  GError        **error);
G_GNUC_INTERNAL
GrammarScore *grammar_metric_support_no_samples  (GrammarRecord  *record);
G_GNUC_INTERNAL
gboolean      grammar_metric_support_need_samples (GrammarRecord  *record,
                                                   const char     *plugin,
                                                   GError        **error);

G_GNUC_INTERNAL
JsonNode     *grammar_metric_parse_list          (const char     *reply,
                                                  gpointer        data);
G_GNUC_INTERNAL
JsonNode     *grammar_metric_parse_verdicts      (const char     *reply,
                                                  gpointer        n_statements);
G_GNUC_INTERNAL
JsonNode     *grammar_metric_parse_yes_no        (const char     *reply,
                                                  gpointer        allow_null);

G_GNUC_INTERNAL
void          grammar_metric_ask_async           (GrammarLlmMetric    *metric,
                                                  GPtrArray           *prompts,
                                                  GrammarMetricParse   parse,
                                                  gpointer             parse_data,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
G_GNUC_INTERNAL
GPtrArray    *grammar_metric_ask_finish          (GAsyncResult        *result,
                                                  guint               *requests,
                                                  guint64             *tokens,
                                                  GError             **error);
G_GNUC_INTERNAL
void          grammar_metric_reply_free          (GrammarMetricReply  *reply);

G_GNUC_INTERNAL
char         *grammar_metric_fill_prompt         (const char          *prompt,
                                                  const char * const  *names,
                                                  const char * const  *values);
G_GNUC_INTERNAL
char         *grammar_metric_excerpt             (const char          *text);
G_GNUC_INTERNAL
GHashTable   *grammar_metric_content_words       (const char          *text);

G_END_DECLS
