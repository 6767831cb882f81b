/* grammar-sql-lexer-private.h: the one SQL lexer of libgrammar
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * GrammarSqlTokenKind:
 *
 * What grammar_sql_lexer_next() found. Template parsing
 * (grammar-sql-template.c), the QA planner (grammar-qa-plan.c) and the
 * rule verbalizer (grammar-rule-verbalizer.c) read SQL with it, each
 * keeping the kinds it needs.
 */
typedef enum
{
  GRAMMAR_SQL_TOKEN_END,
  GRAMMAR_SQL_TOKEN_SPACE,
  GRAMMAR_SQL_TOKEN_LINE_COMMENT,  /* -- to the end of the line */
  GRAMMAR_SQL_TOKEN_COMMENT,       /* slash-star to star-slash */
  GRAMMAR_SQL_TOKEN_STRING,        /* '…', '' inside for a quote */
  GRAMMAR_SQL_TOKEN_QUOTED,        /* "…" or `…`, doubled quotes inside */
  GRAMMAR_SQL_TOKEN_BRACKET,       /* […]: a placeholder [T.C], or SQLite's bracket quoting */
  GRAMMAR_SQL_TOKEN_NUMBER,        /* 12, 1.5, .5, 1e+5, 0x1F */
  GRAMMAR_SQL_TOKEN_WORD,          /* a keyword or a bare identifier */
  GRAMMAR_SQL_TOKEN_PARAM,         /* ?, ?N, :name, @name, $name */
  GRAMMAR_SQL_TOKEN_PUNCT,         /* an operator or punctuation: ( , <= || ->> */
} GrammarSqlTokenKind;

typedef struct
{
  GrammarSqlTokenKind kind;
  const char *start;
  gsize length;
  gboolean unterminated;   /* a quote, bracket or comment without its end */
} GrammarSqlToken;

G_GNUC_INTERNAL
gboolean     grammar_sql_is_word_char     (char                   c);
G_GNUC_INTERNAL
const char  *grammar_sql_lexer_next       (const char            *p,
                                           GrammarSqlToken       *token);
G_GNUC_INTERNAL
char        *grammar_sql_token_unquote    (const GrammarSqlToken *token);

G_END_DECLS
