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

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_LLM_VERBALIZER (grammar_llm_verbalizer_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarLlmVerbalizer, grammar_llm_verbalizer, GRAMMAR, LLM_VERBALIZER, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarLlmVerbalizer *grammar_llm_verbalizer_new             (GrammarLlm            *llm);
GRAMMAR_AVAILABLE_IN_ALL
GrammarLlm           *grammar_llm_verbalizer_get_llm         (GrammarLlmVerbalizer  *self);
GRAMMAR_AVAILABLE_IN_ALL
guint                 grammar_llm_verbalizer_get_retries     (GrammarLlmVerbalizer  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                  grammar_llm_verbalizer_set_retries     (GrammarLlmVerbalizer  *self,
                                                              guint                  retries);
GRAMMAR_AVAILABLE_IN_ALL
double                grammar_llm_verbalizer_get_temperature (GrammarLlmVerbalizer  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                  grammar_llm_verbalizer_set_temperature (GrammarLlmVerbalizer  *self,
                                                              double                 temperature);
GRAMMAR_AVAILABLE_IN_ALL
gint64                grammar_llm_verbalizer_get_seed        (GrammarLlmVerbalizer  *self);
GRAMMAR_AVAILABLE_IN_ALL
void                  grammar_llm_verbalizer_set_seed        (GrammarLlmVerbalizer  *self,
                                                              gint64                 seed);

GRAMMAR_AVAILABLE_IN_ALL
GrammarChatRequest   *grammar_llm_verbalizer_build_request   (GrammarLlmVerbalizer  *self,
                                                              GrammarSqlTemplate    *sql_template,
                                                              const char            *style,
                                                              guint                  n,
                                                              const char * const    *accepted,
                                                              GError               **error);
GRAMMAR_AVAILABLE_IN_ALL
GStrv                 grammar_llm_verbalizer_split_reply     (const char            *reply);

GRAMMAR_AVAILABLE_IN_ALL
void                  grammar_llm_verbalizer_verbalize_async (GrammarLlmVerbalizer  *self,
                                                              GrammarSqlTemplate    *sql_template,
                                                              const char            *style,
                                                              guint                  n,
                                                              GCancellable          *cancellable,
                                                              GAsyncReadyCallback    callback,
                                                              gpointer               user_data);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray            *grammar_llm_verbalizer_verbalize_finish (GrammarLlmVerbalizer *self,
                                                               GAsyncResult         *result,
                                                               GStrv                *dropped,
                                                               GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray            *grammar_llm_verbalizer_verbalize       (GrammarLlmVerbalizer  *self,
                                                              GrammarSqlTemplate    *sql_template,
                                                              const char            *style,
                                                              guint                  n,
                                                              GStrv                 *dropped,
                                                              GCancellable          *cancellable,
                                                              GError               **error);

G_END_DECLS
