/* grammar-llm-sql-generator.h: SQL templates proposed by a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include "grammar-sql-generator.h"
#include "grammar-llm.h"
#include "grammar-template-set.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_LLM_SQL_GENERATOR (grammar_llm_sql_generator_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarLlmSqlGenerator, grammar_llm_sql_generator, GRAMMAR, LLM_SQL_GENERATOR, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarLlmSqlGenerator *grammar_llm_sql_generator_new              (GrammarLlm             *llm,
                                                                    GrammarDatabase        *database,
                                                                    GrammarSchema          *schema);
GRAMMAR_AVAILABLE_IN_ALL
GrammarLlm             *grammar_llm_sql_generator_get_llm          (GrammarLlmSqlGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarDatabase        *grammar_llm_sql_generator_get_database     (GrammarLlmSqlGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSchema          *grammar_llm_sql_generator_get_schema       (GrammarLlmSqlGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
double                  grammar_llm_sql_generator_get_temperature  (GrammarLlmSqlGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
void                    grammar_llm_sql_generator_set_temperature  (GrammarLlmSqlGenerator *self,
                                                                    double                  temperature);
GRAMMAR_AVAILABLE_IN_ALL
const char * const     *grammar_llm_sql_generator_get_requirements (GrammarLlmSqlGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
void                    grammar_llm_sql_generator_set_requirements (GrammarLlmSqlGenerator *self,
                                                                    const char * const     *requirements);

GRAMMAR_AVAILABLE_IN_ALL
char                   *grammar_llm_sql_generator_describe_schema  (GrammarLlmSqlGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarChatRequest     *grammar_llm_sql_generator_build_request    (GrammarLlmSqlGenerator *self);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray              *grammar_llm_sql_generator_parse_reply      (GrammarLlmSqlGenerator *self,
                                                                    const char             *reply,
                                                                    GStrv                  *rejected,
                                                                    GError                **error);
GRAMMAR_AVAILABLE_IN_ALL
GPtrArray              *grammar_llm_sql_generator_generate         (GrammarLlmSqlGenerator *self,
                                                                    char                  **reply,
                                                                    GStrv                  *rejected,
                                                                    GCancellable           *cancellable,
                                                                    GError                **error);

G_END_DECLS
