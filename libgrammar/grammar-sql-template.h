/* grammar-sql-template.h: an SQL query template with placeholders
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "grammar-database.h"

G_BEGIN_DECLS

/**
 * GrammarTemplateOrigin:
 * @GRAMMAR_TEMPLATE_ORIGIN_MANUAL: written or edited by hand
 * @GRAMMAR_TEMPLATE_ORIGIN_SCHEMA: made by the schema-driven generator
 * @GRAMMAR_TEMPLATE_ORIGIN_LLM: proposed by a language model
 * @GRAMMAR_TEMPLATE_ORIGIN_IMPORT: imported from another tool's files
 *
 * Where a template came from.
 */
typedef enum {
  GRAMMAR_TEMPLATE_ORIGIN_MANUAL,
  GRAMMAR_TEMPLATE_ORIGIN_SCHEMA,
  GRAMMAR_TEMPLATE_ORIGIN_LLM,
  GRAMMAR_TEMPLATE_ORIGIN_IMPORT,
} GrammarTemplateOrigin;

#define GRAMMAR_TYPE_SQL_TEMPLATE (grammar_sql_template_get_type ())
G_DECLARE_FINAL_TYPE (GrammarSqlTemplate, grammar_sql_template, GRAMMAR, SQL_TEMPLATE, GObject)

GrammarSqlTemplate   *grammar_sql_template_new                   (const char            *sql,
                                                                  GrammarTemplateOrigin  origin,
                                                                  GError               **error);
GrammarSqlTemplate   *grammar_sql_template_new_from_json         (JsonNode              *node,
                                                                  GError               **error);
JsonNode             *grammar_sql_template_to_json               (GrammarSqlTemplate    *self);

const char           *grammar_sql_template_get_id                (GrammarSqlTemplate    *self);
const char           *grammar_sql_template_get_sql               (GrammarSqlTemplate    *self);
const char           *grammar_sql_template_get_bound_sql         (GrammarSqlTemplate    *self);
GrammarTemplateOrigin grammar_sql_template_get_origin            (GrammarSqlTemplate    *self);
const char * const   *grammar_sql_template_get_tables            (GrammarSqlTemplate    *self);
const char           *grammar_sql_template_get_note              (GrammarSqlTemplate    *self);
void                  grammar_sql_template_set_note              (GrammarSqlTemplate    *self,
                                                                  const char            *note);

guint                 grammar_sql_template_get_n_placeholders    (GrammarSqlTemplate    *self);
const char           *grammar_sql_template_get_placeholder       (GrammarSqlTemplate    *self,
                                                                  guint                  index);
const char           *grammar_sql_template_get_placeholder_table (GrammarSqlTemplate    *self,
                                                                  guint                  index);
const char           *grammar_sql_template_get_placeholder_column (GrammarSqlTemplate   *self,
                                                                  guint                  index);

gboolean              grammar_sql_template_validate              (GrammarSqlTemplate    *self,
                                                                  GrammarDatabase       *database,
                                                                  GrammarSchema         *schema,
                                                                  GError               **error);
char                 *grammar_sql_template_fill                  (GrammarSqlTemplate    *self,
                                                                  GVariant              *values);

char                 *grammar_sql_normalize                      (const char            *sql);

G_END_DECLS
