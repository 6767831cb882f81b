/* grammar-sql-statement.c: one read-only statement, written for a server's parameters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-database.h"
#include "grammar-error.h"
#include "grammar-sql-lexer-private.h"
#include "grammar-sql-statement.h"

#define READ_ONLY_MESSAGE "only a single read-only SELECT may run"

/* The highest parameter number SQLite accepts by default. */
#define MAX_PARAMETER 32766

typedef struct
{
  const char *sql;
  GrammarSqlParameterStyle style;
  const char * const *refused_words;
  const char * const *refused_functions;
  GString *out;
  GArray *order;
  GPtrArray *words;        /* the run of bare words the current one ends, uppercased */
  guint n_parameters;
  gboolean started;        /* the statement's first word was read */
  gboolean ended;          /* a ; was read */
} Rewrite;

static gboolean
is_blank (const GrammarSqlToken *token)
{
  return token->kind == GRAMMAR_SQL_TOKEN_SPACE || token->kind == GRAMMAR_SQL_TOKEN_LINE_COMMENT ||
         token->kind == GRAMMAR_SQL_TOKEN_COMMENT;
}

static gboolean
token_is (const GrammarSqlToken *token,
          const char            *text)
{
  return token->length == strlen (text) && g_ascii_strncasecmp (token->start, text, token->length) == 0;
}

/* The first token after @p that is not space or a comment. */
static void
peek_significant (const char      *p,
                  GrammarSqlToken *token)
{
  do
    p = grammar_sql_lexer_next (p, token);
  while (is_blank (token));
}

static gboolean
refuse (GError    **error,
        const char *what,
        const char *name)
{
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
               READ_ONLY_MESSAGE ": %s “%s” is not allowed", what, name);
  return FALSE;
}

static gboolean
in_list (const char * const *list,
         const char         *name)
{
  for (guint i = 0; list != NULL && list[i] != NULL; i++)
    if (g_ascii_strcasecmp (list[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* Whether the run of words read so far ends with the words of @phrase. */
static gboolean
ends_with_phrase (GPtrArray  *words,
                  const char *phrase)
{
  g_auto (GStrv) parts = g_strsplit_set (phrase, " \t", -1);
  guint n = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      parts[n++] = parts[i];
    else
      g_free (parts[i]);
  parts[n] = NULL;
  if (n == 0 || n > words->len)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (parts[i], g_ptr_array_index (words, words->len - n + i)) != 0)
      return FALSE;
  return TRUE;
}

static gboolean
check_word (Rewrite               *rw,
            const GrammarSqlToken *token,
            const char            *next,
            GError               **error)
{
  g_autofree char *word = g_ascii_strup (token->start, token->length);
  GrammarSqlToken following;

  g_ptr_array_add (rw->words, g_strdup (word));
  for (guint i = 0; rw->refused_words != NULL && rw->refused_words[i] != NULL; i++)
    if (ends_with_phrase (rw->words, rw->refused_words[i]))
      return refuse (error, "the statement word", rw->refused_words[i]);

  /* E'…' reads backslashes as escapes, which our lexer does not. */
  if (token->length == 1 && (token->start[0] == 'E' || token->start[0] == 'e') && next[0] == '\'')
    return refuse (error, "a string with backslash escapes", "E'…'");

  peek_significant (next, &following);
  if (following.kind == GRAMMAR_SQL_TOKEN_PUNCT && token_is (&following, "(") &&
      in_list (rw->refused_functions, word))
    {
      g_autofree char *name = g_strndup (token->start, token->length);

      return refuse (error, "the function", name);
    }
  return TRUE;
}

static gboolean
check_quoted_call (Rewrite               *rw,
                   const GrammarSqlToken *token,
                   const char            *next,
                   GError               **error)
{
  g_autofree char *name = grammar_sql_token_unquote (token);
  GrammarSqlToken following;

  peek_significant (next, &following);
  if (following.kind == GRAMMAR_SQL_TOKEN_PUNCT && token_is (&following, "(") &&
      in_list (rw->refused_functions, name))
    return refuse (error, "the function", name);
  return TRUE;
}

static gboolean
rewrite_parameter (Rewrite               *rw,
                   const GrammarSqlToken *token,
                   GError               **error)
{
  g_autofree char *text = g_strndup (token->start, MIN (token->length, 40));
  guint64 number;

  if (token->start[0] == ':' && token->start > rw->sql && token->start[-1] == ':')
    {
      /* PostgreSQL's x::type cast, not a :name parameter. */
      g_string_append_len (rw->out, token->start, token->length);
      return TRUE;
    }
  if (token->start[0] == '@')
    return refuse (error, "the variable", text);
  if (token->start[0] != '?')
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                   "“%s”: only ? and ?N parameters are supported (and no dollar-quoted strings)", text);
      return FALSE;
    }

  if (token->length == 1)
    number = rw->n_parameters + 1;
  else if (!g_ascii_string_to_unsigned (text + 1, 10, 1, MAX_PARAMETER, &number, NULL))
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_BIND,
                   "parameter “%s” is out of range: number parameters from ?1 to ?%d", text, MAX_PARAMETER);
      return FALSE;
    }

  rw->n_parameters = MAX (rw->n_parameters, (guint) number);
  if (rw->style == GRAMMAR_SQL_PARAMETERS_DOLLAR)
    g_string_append_printf (rw->out, "$%u", (guint) number);
  else
    {
      guint index = (guint) number - 1;

      g_string_append_c (rw->out, '?');
      g_array_append_val (rw->order, index);
    }
  return TRUE;
}

static gboolean
check_start (const GrammarSqlToken *token,
             GError               **error)
{
  if (token->kind == GRAMMAR_SQL_TOKEN_WORD &&
      (token_is (token, "SELECT") || token_is (token, "WITH") || token_is (token, "VALUES")))
    return TRUE;
  g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
               READ_ONLY_MESSAGE ", not “%.*s”", (int) MIN (token->length, 40), token->start);
  return FALSE;
}

static gboolean
rewrite_token (Rewrite               *rw,
               const GrammarSqlToken *token,
               const char            *next,
               GError               **error)
{
  if (token->unterminated)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX,
                   "unterminated %s: “%.*s”",
                   token->kind == GRAMMAR_SQL_TOKEN_COMMENT ? "comment" : "quote",
                   (int) MIN (token->length, 40), token->start);
      return FALSE;
    }
  if (is_blank (token))
    {
      /* MySQL runs the text of an executable comment (slash-star-bang),
       * and reads slash-star-plus as optimizer hints. */
      if (token->kind == GRAMMAR_SQL_TOKEN_COMMENT && (token->start[2] == '!' || token->start[2] == '+'))
        return refuse (error, "the executable comment", token->start[2] == '!' ? "/*!" : "/*+");
      if (rw->started && !rw->ended)
        g_string_append_len (rw->out, token->start, token->length);
      return TRUE;
    }
  if (token->kind == GRAMMAR_SQL_TOKEN_PUNCT && token_is (token, ";"))
    {
      rw->ended = rw->started;
      return TRUE;
    }
  if (rw->ended)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS,
                   "the SQL text holds more than one statement; " READ_ONLY_MESSAGE);
      return FALSE;
    }
  if (!rw->started && !(token->kind == GRAMMAR_SQL_TOKEN_PUNCT && token_is (token, "(")))
    {
      if (!check_start (token, error))
        return FALSE;
      rw->started = TRUE;
    }

  if (token->kind != GRAMMAR_SQL_TOKEN_WORD)
    g_ptr_array_set_size (rw->words, 0);

  switch (token->kind)
    {
    case GRAMMAR_SQL_TOKEN_WORD:
      if (!check_word (rw, token, next, error))
        return FALSE;
      break;
    case GRAMMAR_SQL_TOKEN_QUOTED:
      if (!check_quoted_call (rw, token, next, error))
        return FALSE;
      break;
    case GRAMMAR_SQL_TOKEN_PARAM:
      return rewrite_parameter (rw, token, error);
    case GRAMMAR_SQL_TOKEN_PUNCT:
      if (token_is (token, ":") && next[0] == '=')
        return refuse (error, "the assignment", ":=");
      break;
    default:
      break;
    }
  g_string_append_len (rw->out, token->start, token->length);
  return TRUE;
}

/**
 * grammar_sql_rewrite_query:
 * @sql: the text of one query, with `?` and `?N` parameters
 * @style: how the server writes parameters
 * @refused_words: (nullable) (array zero-terminated=1): words, or phrases of
 *   consecutive words such as `FOR UPDATE`, refused anywhere outside strings
 *   and quoted names (case does not matter)
 * @refused_functions: (nullable) (array zero-terminated=1): names of
 *   functions refused when called
 * @parameter_order: (out) (optional) (transfer full) (element-type guint):
 *   with %GRAMMAR_SQL_PARAMETERS_POSITIONAL, for each `?` of the result in
 *   order, the 0-based index of the value it takes
 * @n_parameters: (out) (optional): how many values the statement takes
 *   (its highest parameter number)
 * @error: return location for a #GrammarDatabaseError
 *
 * Checks that @sql is a single read-only query by its words, the way a
 * server plugin needs before it prepares the statement, and writes its
 * parameters in the server's style. The server's own read-only session
 * is the second guard; this one refuses what a read-only transaction
 * still allows: the @refused_words and @refused_functions of the
 * dialect (locking clauses, `INTO`, functions that read files, sleep,
 * lock or change the session), MySQL's executable comments, `E'…'`
 * strings with backslash escapes, variables and named parameters.
 *
 * A trailing `;` is dropped; anything after it is a second statement.
 *
 * Returns: (transfer full): the statement for the server, or %NULL with
 *   @error set
 */
char *
grammar_sql_rewrite_query (const char                *sql,
                           GrammarSqlParameterStyle   style,
                           const char * const        *refused_words,
                           const char * const        *refused_functions,
                           GArray                   **parameter_order,
                           guint                     *n_parameters,
                           GError                   **error)
{
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GString) out = g_string_new (NULL);
  Rewrite rw = { sql, style, refused_words, refused_functions, out, order, words, 0, FALSE, FALSE };
  const char *p;

  g_return_val_if_fail (sql != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (p = sql;;)
    {
      GrammarSqlToken token;
      const char *next = grammar_sql_lexer_next (p, &token);

      if (token.kind == GRAMMAR_SQL_TOKEN_END)
        break;
      if (!rewrite_token (&rw, &token, next, error))
        return NULL;
      p = next;
    }

  if (!rw.started)
    {
      g_set_error_literal (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_SYNTAX,
                           "the SQL text holds no statement");
      return NULL;
    }
  while (out->len > 0 && g_ascii_isspace (out->str[out->len - 1]))
    g_string_truncate (out, out->len - 1);

  if (parameter_order != NULL)
    *parameter_order = g_steal_pointer (&order);
  if (n_parameters != NULL)
    *n_parameters = rw.n_parameters;
  return g_string_free (g_steal_pointer (&out), FALSE);
}
