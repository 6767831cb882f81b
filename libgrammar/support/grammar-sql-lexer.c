/* grammar-sql-lexer.c: the one SQL lexer of libgrammar
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-sql-lexer-private.h"

/* A byte of a bare word: ASCII letters, digits, _ and $, and every byte
 * of a UTF-8 sequence, as SQLite reads identifiers. */
gboolean
grammar_sql_is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || (guchar) c >= 0x80;
}

/* The end of a quoted run starting at @p (on the opening quote): a
 * doubled quote stands for itself. */
static const char *
skip_quoted (const char *p,
             gboolean   *unterminated)
{
  char quote = *p++;

  for (;;)
    {
      if (*p == '\0')
        {
          *unterminated = TRUE;
          return p;
        }
      if (*p == quote && p[1] == quote)
        p += 2;
      else if (*p == quote)
        return p + 1;
      else
        p++;
    }
}

/* The end of a bracketed run: quotes inside the brackets are part of
 * the name. */
static const char *
skip_bracket (const char *p,
              gboolean   *unterminated)
{
  for (p++; *p != '\0' && *p != ']';)
    {
      if (*p == '"' || *p == '`')
        p = skip_quoted (p, unterminated);
      else
        p++;
    }
  if (*p == ']')
    return p + 1;
  *unterminated = TRUE;
  return p;
}

static const char *
skip_comment (const char *p,
              GrammarSqlToken *token)
{
  const char *end;

  if (p[0] == '-')
    {
      token->kind = GRAMMAR_SQL_TOKEN_LINE_COMMENT;
      return p + strcspn (p, "\n");
    }
  token->kind = GRAMMAR_SQL_TOKEN_COMMENT;
  end = strstr (p + 2, "*/");
  if (end == NULL)
    {
      token->unterminated = TRUE;
      return p + strlen (p);
    }
  return end + 2;
}

static const char *
skip_number (const char *p)
{
  while (grammar_sql_is_word_char (*p) || *p == '.')
    {
      /* An exponent may carry a sign: 1e+5. */
      if ((*p == 'e' || *p == 'E') && (p[1] == '+' || p[1] == '-') && g_ascii_isdigit (p[2]))
        p++;
      p++;
    }
  return p;
}

static const char *
skip_punct (const char *p)
{
  static const char * const longer[] = { "->>", "==", "<>", "!=", "<=", ">=", "||", "<<", ">>", "->", NULL };

  for (guint i = 0; longer[i] != NULL; i++)
    if (g_str_has_prefix (p, longer[i]))
      return p + strlen (longer[i]);
  return p + 1;
}

/* Reads the token at @p into @token and returns where it ends. At the
 * end of the text the token is GRAMMAR_SQL_TOKEN_END, of length 0. */
const char *
grammar_sql_lexer_next (const char      *p,
                        GrammarSqlToken *token)
{
  const char *end;

  token->start = p;
  token->unterminated = FALSE;
  if (*p == '\0')
    {
      token->kind = GRAMMAR_SQL_TOKEN_END;
      end = p;
    }
  else if (g_ascii_isspace (*p))
    {
      token->kind = GRAMMAR_SQL_TOKEN_SPACE;
      for (end = p; g_ascii_isspace (*end); end++)
        ;
    }
  else if ((p[0] == '-' && p[1] == '-') || (p[0] == '/' && p[1] == '*'))
    end = skip_comment (p, token);
  else if (*p == '\'')
    {
      token->kind = GRAMMAR_SQL_TOKEN_STRING;
      end = skip_quoted (p, &token->unterminated);
    }
  else if (*p == '"' || *p == '`')
    {
      token->kind = GRAMMAR_SQL_TOKEN_QUOTED;
      end = skip_quoted (p, &token->unterminated);
    }
  else if (*p == '[')
    {
      token->kind = GRAMMAR_SQL_TOKEN_BRACKET;
      end = skip_bracket (p, &token->unterminated);
    }
  else if (g_ascii_isdigit (*p) || (*p == '.' && g_ascii_isdigit (p[1])))
    {
      token->kind = GRAMMAR_SQL_TOKEN_NUMBER;
      end = skip_number (p);
    }
  else if (*p == '?' || ((*p == ':' || *p == '@' || *p == '$') && grammar_sql_is_word_char (p[1])))
    {
      token->kind = GRAMMAR_SQL_TOKEN_PARAM;
      for (end = p + 1; *p == '?' ? g_ascii_isdigit (*end) : grammar_sql_is_word_char (*end); end++)
        ;
    }
  else if (grammar_sql_is_word_char (*p))
    {
      token->kind = GRAMMAR_SQL_TOKEN_WORD;
      for (end = p; grammar_sql_is_word_char (*end); end++)
        ;
    }
  else
    {
      token->kind = GRAMMAR_SQL_TOKEN_PUNCT;
      end = skip_punct (p);
    }
  token->length = end - p;
  return end;
}

/* The text inside the quotes or brackets of @token, with doubled quotes
 * made single; the text itself for another kind. */
char *
grammar_sql_token_unquote (const GrammarSqlToken *token)
{
  GString *text;
  gsize inner;
  char close;

  if (token->kind != GRAMMAR_SQL_TOKEN_STRING && token->kind != GRAMMAR_SQL_TOKEN_QUOTED &&
      token->kind != GRAMMAR_SQL_TOKEN_BRACKET)
    return g_strndup (token->start, token->length);
  close = token->kind == GRAMMAR_SQL_TOKEN_BRACKET ? ']' : token->start[0];
  inner = token->length - 1 - (!token->unterminated && token->length >= 2 ? 1 : 0);
  text = g_string_sized_new (inner);
  for (gsize i = 1; i <= inner; i++)
    {
      g_string_append_c (text, token->start[i]);
      if (token->kind != GRAMMAR_SQL_TOKEN_BRACKET && token->start[i] == close && i < inner &&
          token->start[i + 1] == close)
        i++;
    }
  return g_string_free (text, FALSE);
}
