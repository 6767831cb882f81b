/* grammar-sql-template-private.h: placeholder parsing shared by the template types, and the parts of GrammarSqlTemplate
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-sql-template.h"

G_BEGIN_DECLS

/*
 * grammar_placeholder_parse:
 * @text: text starting with `[`
 * @length: (out): the length of the placeholder, brackets included
 * @table: (out) (optional): the table name, unquoted
 * @column: (out) (optional): the column name, unquoted
 * @error: return location for a #GError
 *
 * Reads one `[Table.Column]` placeholder. Either name may be written in
 * double quotes or backquotes (doubling the quote inside), which allows
 * spaces; a bare name stops at a space, `.`, `]`, `[` or a quote.
 *
 * Returns: %TRUE when @text starts with a placeholder; otherwise %FALSE
 *   with a %GRAMMAR_ERROR_INVALID_INPUT error saying what is wrong
 */
gboolean grammar_placeholder_parse (const char  *text,
                                    gsize       *length,
                                    char       **table,
                                    char       **column,
                                    GError     **error);

/* What the parts of GrammarSqlTemplate share: grammar-sql-template.c
 * parses the text and fills it, grammar-sql-template-validate.c checks it
 * against a schema and a database. */

typedef struct
{
  char *text;     /* "[T.C]" as written */
  char *table;    /* unquoted; the schema's spelling once validated */
  char *column;
} GrammarSqlTemplatePlaceholder;

typedef struct
{
  gsize start;    /* byte range in sql, the quotes of a quoted placeholder included */
  gsize end;
  guint index;    /* of the distinct placeholder */
} GrammarSqlTemplateOccurrence;

struct _GrammarSqlTemplate
{
  GObject parent_instance;

  char *id;
  char *sql;
  char *bound_sql;
  GrammarTemplateOrigin origin;
  char *note;
  GStrv tables;
  GArray *placeholders;   /* GrammarSqlTemplatePlaceholder */
  GArray *occurrences;    /* GrammarSqlTemplateOccurrence, in text order */
};

/* The tokens of the template's text: string literals, quoted
 * identifiers, comments, words, placeholders and punctuation apart. */
typedef enum
{
  GRAMMAR_SQL_TEMPLATE_TOKEN_END,
  GRAMMAR_SQL_TEMPLATE_TOKEN_SPACE,
  GRAMMAR_SQL_TEMPLATE_TOKEN_COMMENT,
  GRAMMAR_SQL_TEMPLATE_TOKEN_LINE_COMMENT,
  GRAMMAR_SQL_TEMPLATE_TOKEN_STRING,       /* '…' */
  GRAMMAR_SQL_TEMPLATE_TOKEN_QUOTED,       /* "…" or `…` */
  GRAMMAR_SQL_TEMPLATE_TOKEN_WORD,
  GRAMMAR_SQL_TEMPLATE_TOKEN_PLACEHOLDER,  /* [T.C], bare */
  GRAMMAR_SQL_TEMPLATE_TOKEN_PUNCT,        /* one character */
} GrammarSqlTemplateTokenKind;

typedef struct
{
  GrammarSqlTemplateTokenKind kind;
  const char *start;
  gsize length;
  gboolean unterminated;
} GrammarSqlTemplateToken;

G_GNUC_INTERNAL
const char   *grammar_sql_template_parse_name     (const char                     *p,
                                                   char                          **name);
G_GNUC_INTERNAL
const char   *grammar_sql_template_next_token     (const char                     *p,
                                                   GrammarSqlTemplateToken        *token);
G_GNUC_INTERNAL
gboolean      grammar_sql_template_token_is       (const GrammarSqlTemplateToken  *token,
                                                   const char                     *word);
G_GNUC_INTERNAL
gboolean      grammar_sql_template_token_is_punct (const GrammarSqlTemplateToken  *token,
                                                   char                            c);
G_GNUC_INTERNAL
GrammarSqlTemplatePlaceholder *
              grammar_sql_template_placeholder_at (GrammarSqlTemplate             *self,
                                                   guint                           index);

G_END_DECLS
