/* grammar-llm-verbalizer.h: text templates from SQL templates, by a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include "grammar-verbalizer.h"
#include "grammar-llm.h"
#include "grammar-template-set.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_LLM_VERBALIZER (grammar_llm_verbalizer_get_type ())
G_DECLARE_FINAL_TYPE (GrammarLlmVerbalizer, grammar_llm_verbalizer, GRAMMAR, LLM_VERBALIZER, GObject)

GrammarLlmVerbalizer *grammar_llm_verbalizer_new             (GrammarLlm            *llm);
GrammarLlm           *grammar_llm_verbalizer_get_llm         (GrammarLlmVerbalizer  *self);
guint                 grammar_llm_verbalizer_get_retries     (GrammarLlmVerbalizer  *self);
void                  grammar_llm_verbalizer_set_retries     (GrammarLlmVerbalizer  *self,
                                                              guint                  retries);
double                grammar_llm_verbalizer_get_temperature (GrammarLlmVerbalizer  *self);
void                  grammar_llm_verbalizer_set_temperature (GrammarLlmVerbalizer  *self,
                                                              double                 temperature);
gint64                grammar_llm_verbalizer_get_seed        (GrammarLlmVerbalizer  *self);
void                  grammar_llm_verbalizer_set_seed        (GrammarLlmVerbalizer  *self,
                                                              gint64                 seed);

GrammarChatRequest   *grammar_llm_verbalizer_build_request   (GrammarLlmVerbalizer  *self,
                                                              GrammarSqlTemplate    *sql_template,
                                                              const char            *style,
                                                              guint                  n,
                                                              const char * const    *accepted,
                                                              GError               **error);
GStrv                 grammar_llm_verbalizer_split_reply     (const char            *reply);

void                  grammar_llm_verbalizer_verbalize_async (GrammarLlmVerbalizer  *self,
                                                              GrammarSqlTemplate    *sql_template,
                                                              const char            *style,
                                                              guint                  n,
                                                              GCancellable          *cancellable,
                                                              GAsyncReadyCallback    callback,
                                                              gpointer               user_data);
GPtrArray            *grammar_llm_verbalizer_verbalize_finish (GrammarLlmVerbalizer *self,
                                                               GAsyncResult         *result,
                                                               GStrv                *dropped,
                                                               GError              **error);
GPtrArray            *grammar_llm_verbalizer_verbalize       (GrammarLlmVerbalizer  *self,
                                                              GrammarSqlTemplate    *sql_template,
                                                              const char            *style,
                                                              guint                  n,
                                                              GStrv                 *dropped,
                                                              GCancellable          *cancellable,
                                                              GError               **error);

G_END_DECLS
