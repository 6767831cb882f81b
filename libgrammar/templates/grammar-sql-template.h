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

#include "grammar-visibility.h"

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
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarSqlTemplate, grammar_sql_template, GRAMMAR, SQL_TEMPLATE, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarSqlTemplate   *grammar_sql_template_new                   (const char            *sql,
                                                                  GrammarTemplateOrigin  origin,
                                                                  GError               **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSqlTemplate   *grammar_sql_template_new_from_json         (JsonNode              *node,
                                                                  GError               **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode             *grammar_sql_template_to_json               (GrammarSqlTemplate    *self);

GRAMMAR_AVAILABLE_IN_ALL
const char           *grammar_sql_template_get_id                (GrammarSqlTemplate    *self);
GRAMMAR_AVAILABLE_IN_ALL
const char           *grammar_sql_template_get_sql               (GrammarSqlTemplate    *self);
GRAMMAR_AVAILABLE_IN_ALL
const char           *grammar_sql_template_get_bound_sql         (GrammarSqlTemplate    *self);
GRAMMAR_AVAILABLE_IN_ALL
GrammarTemplateOrigin grammar_sql_template_get_origin            (GrammarSqlTemplate    *self);
GRAMMAR_AVAILABLE_IN_ALL
const char * const   *grammar_sql_template_get_tables            (GrammarSqlTemplate    *self);
GRAMMAR_AVAILABLE_IN_ALL
const char           *grammar_sql_template_get_note              (GrammarSqlTemplate    *self);
GRAMMAR_AVAILABLE_IN_ALL
void                  grammar_sql_template_set_note              (GrammarSqlTemplate    *self,
                                                                  const char            *note);

GRAMMAR_AVAILABLE_IN_ALL
guint                 grammar_sql_template_get_n_placeholders    (GrammarSqlTemplate    *self);
GRAMMAR_AVAILABLE_IN_ALL
const char           *grammar_sql_template_get_placeholder       (GrammarSqlTemplate    *self,
                                                                  guint                  index);
GRAMMAR_AVAILABLE_IN_ALL
const char           *grammar_sql_template_get_placeholder_table (GrammarSqlTemplate    *self,
                                                                  guint                  index);
GRAMMAR_AVAILABLE_IN_ALL
const char           *grammar_sql_template_get_placeholder_column (GrammarSqlTemplate   *self,
                                                                  guint                  index);

GRAMMAR_AVAILABLE_IN_ALL
gboolean              grammar_sql_template_validate              (GrammarSqlTemplate    *self,
                                                                  GrammarDatabase       *database,
                                                                  GrammarSchema         *schema,
                                                                  GError               **error);
GRAMMAR_AVAILABLE_IN_ALL
char                 *grammar_sql_template_fill                  (GrammarSqlTemplate    *self,
                                                                  GVariant              *values);

GRAMMAR_AVAILABLE_IN_ALL
char                 *grammar_sql_normalize                      (const char            *sql);

G_END_DECLS
