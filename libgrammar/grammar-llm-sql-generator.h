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

G_BEGIN_DECLS

#define GRAMMAR_TYPE_LLM_SQL_GENERATOR (grammar_llm_sql_generator_get_type ())
G_DECLARE_FINAL_TYPE (GrammarLlmSqlGenerator, grammar_llm_sql_generator, GRAMMAR, LLM_SQL_GENERATOR, GObject)

GrammarLlmSqlGenerator *grammar_llm_sql_generator_new              (GrammarLlm             *llm,
                                                                    GrammarDatabase        *database,
                                                                    GrammarSchema          *schema);
GrammarLlm             *grammar_llm_sql_generator_get_llm          (GrammarLlmSqlGenerator *self);
GrammarDatabase        *grammar_llm_sql_generator_get_database     (GrammarLlmSqlGenerator *self);
GrammarSchema          *grammar_llm_sql_generator_get_schema       (GrammarLlmSqlGenerator *self);
double                  grammar_llm_sql_generator_get_temperature  (GrammarLlmSqlGenerator *self);
void                    grammar_llm_sql_generator_set_temperature  (GrammarLlmSqlGenerator *self,
                                                                    double                  temperature);
const char * const     *grammar_llm_sql_generator_get_requirements (GrammarLlmSqlGenerator *self);
void                    grammar_llm_sql_generator_set_requirements (GrammarLlmSqlGenerator *self,
                                                                    const char * const     *requirements);

char                   *grammar_llm_sql_generator_describe_schema  (GrammarLlmSqlGenerator *self);
GrammarChatRequest     *grammar_llm_sql_generator_build_request    (GrammarLlmSqlGenerator *self);
GPtrArray              *grammar_llm_sql_generator_parse_reply      (GrammarLlmSqlGenerator *self,
                                                                    const char             *reply,
                                                                    GStrv                  *rejected,
                                                                    GError                **error);
GPtrArray              *grammar_llm_sql_generator_generate         (GrammarLlmSqlGenerator *self,
                                                                    char                  **reply,
                                                                    GStrv                  *rejected,
                                                                    GCancellable           *cancellable,
                                                                    GError                **error);

G_END_DECLS
