/* grammar-rule-names.c: the words of the rule verbalizer: SQL tokens, names made readable, plurals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include "grammar-rule-verbalizer-private.h"
#include "grammar-error.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-sql-lexer-private.h"

/* Identifiers */

static char *
unquote_identifier (const char *identifier)
{
  gsize len = strlen (identifier);

  if (len >= 2 &&
      ((identifier[0] == '"' && identifier[len - 1] == '"') ||
       (identifier[0] == '`' && identifier[len - 1] == '`') ||
       (identifier[0] == '[' && identifier[len - 1] == ']')))
    return g_strndup (identifier + 1, len - 2);
  return g_strdup (identifier);
}

static gboolean
has_lowercase (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_islower (g_utf8_get_char (p)))
      return TRUE;
  return FALSE;
}

static gboolean
is_acronym (const char *word)
{
  guint n = 0;

  for (const char *p = word; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_islower (c))
        return FALSE;
      if (g_unichar_isupper (c))
        n++;
    }
  return n >= 2;
}

/* Splits at separators and camelCase boundaries: "StartDate" → Start,
 * Date; "HTTPServer" → HTTP, Server; "Sales_in_Billion" → Sales, in,
 * Billion. */
static GPtrArray *
split_identifier (const char *identifier)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  GString *word = g_string_new (NULL);
  gunichar previous = 0;

  for (const char *p = identifier; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gunichar next = g_utf8_get_char (g_utf8_next_char (p));
      gboolean boundary;

      if (c == '_' || c == '-' || c == '.' || g_unichar_isspace (c))
        {
          if (word->len > 0)
            g_ptr_array_add (words, g_strdup (word->str));
          g_string_truncate (word, 0);
          previous = 0;
          continue;
        }
      boundary = g_unichar_isupper (c) &&
                 (g_unichar_islower (previous) || g_unichar_isdigit (previous) ||
                  (g_unichar_isupper (previous) && g_unichar_islower (next)));
      if (boundary && word->len > 0)
        {
          g_ptr_array_add (words, g_strdup (word->str));
          g_string_truncate (word, 0);
        }
      g_string_append_unichar (word, c);
      previous = c;
    }
  if (word->len > 0)
    g_ptr_array_add (words, g_strdup (word->str));
  g_string_free (word, TRUE);
  return words;
}

/**
 * grammar_rule_verbalizer_humanize:
 * @identifier: a table or column name, possibly quoted
 *
 * Turns an identifier into lowercase words: `Graduation_College` →
 * “graduation college”, `StartDate` → “start date”, `hire_date` → “hire
 * date”, `Sales_in_Billion` → “sales in billion”. Acronyms inside a
 * mixed-case name stay (`Company_ID` → “company ID”); a name in
 * capitals only is all lowercased (`CITY_NAME` → “city name”).
 *
 * These are the words only: the texts of #GrammarRuleVerbalizer go on
 * to make them the noun phrase a person says (“sales (in billions)”).
 *
 * Returns: (transfer full): the words, separated by single spaces
 */
char *
grammar_rule_verbalizer_humanize (const char *identifier)
{
  g_autoptr (GPtrArray) words = NULL;

  g_return_val_if_fail (identifier != NULL, NULL);

  words = grammar_rules_identifier_words (identifier);
  g_ptr_array_add (words, NULL);
  return g_strjoinv (" ", (char **) words->pdata);
}

/* The words of grammar_rule_verbalizer_humanize(), one per element. */
GPtrArray *
grammar_rules_identifier_words (const char *identifier)
{
  g_autofree char *bare = unquote_identifier (identifier);
  gboolean keep_acronyms = has_lowercase (bare);
  GPtrArray *words = split_identifier (bare);

  for (guint i = 0; i < words->len; i++)
    {
      char *word = g_ptr_array_index (words, i);

      if (!(keep_acronyms && is_acronym (word)))
        {
          words->pdata[i] = g_utf8_strdown (word, -1);
          g_free (word);
        }
    }
  return words;
}

/* Whether @word ends with one of @endings. */
gboolean
grammar_rules_ends_with_any (const char         *word,
                             const char * const *endings)
{
  for (guint i = 0; endings[i] != NULL; i++)
    if (g_str_has_suffix (word, endings[i]))
      return TRUE;
  return FALSE;
}

/* English singular of one lowercase word, for the simple regular cases
 * and a few common irregular ones; anything else stays as it is. */
char *
grammar_rules_singularize (const char *word)
{
  static const char * const irregular[][2] = {
    { "people", "person" }, { "men", "man" }, { "women", "woman" }, { "children", "child" },
    { "staff", "staff" }, { "data", "data" }, { "series", "series" }, { "species", "species" },
    { "news", "news" }, { "movies", "movie" }, { "cookies", "cookie" }, { "pies", "pie" },
    { "ties", "tie" },
  };
  static const char * const es_endings[] = { "sses", "xes", "ches", "shes", "zzes", NULL };
  static const char * const s_keepers[] = { "ss", "us", "is", NULL };
  gsize len = strlen (word);

  for (guint i = 0; i < G_N_ELEMENTS (irregular); i++)
    if (g_str_equal (word, irregular[i][0]))
      return g_strdup (irregular[i][1]);
  if (len > 3 && g_str_has_suffix (word, "ies"))
    return g_strdup_printf ("%.*sy", (int) (len - 3), word);
  if (grammar_rules_ends_with_any (word, es_endings))
    return g_strndup (word, len - 2);
  if (len > 2 && word[len - 1] == 's' && !grammar_rules_ends_with_any (word, s_keepers))
    return g_strndup (word, len - 1);
  return g_strdup (word);
}

/* The humanised name of @table without the words that say it is a
 * table, which no one says of a row: `tbl_suppliers`, `tblCustomer`,
 * `dim_customer`, `fact_sales`, `stg_orders`, `customer_tbl`,
 * `orders_table`. */
static char *
strip_table_affixes (const char *table)
{
  static const char * const prefixes[] = { "tbl", "tb", "dim", "fact", "stg", "lkp", "lu", "ref", "vw", NULL };
  static const char * const suffixes[] = { "tbl", "table", "tab", "lkp", "dim", NULL };
  g_autoptr (GPtrArray) words = grammar_rules_identifier_words (table);

  if (words->len >= 2 && g_strv_contains (prefixes, g_ptr_array_index (words, 0)))
    g_ptr_array_remove_index (words, 0);
  if (words->len >= 2 && g_strv_contains (suffixes, g_ptr_array_index (words, words->len - 1)))
    g_ptr_array_remove_index (words, words->len - 1);
  g_ptr_array_add (words, NULL);
  return g_strjoinv (" ", (char **) words->pdata);
}

/**
 * grammar_rule_verbalizer_entity_noun:
 * @table: a table name, possibly quoted
 *
 * The noun that names one row of @table: the humanised name with its
 * last word made singular where a simple rule applies (`people` →
 * “person”, `companies` → “company”, `employees` → “employee”,
 * `Order_Items` → “order item”); other names are kept. Words that
 * only say it is a table go (`tbl_suppliers` → “supplier”,
 * `dim_customer` → “customer”, `orders_table` → “order”).
 *
 * Returns: (transfer full): the noun
 */
char *
grammar_rule_verbalizer_entity_noun (const char *table)
{
  g_autofree char *words = NULL;
  g_autofree char *singular = NULL;
  const char *last;

  g_return_val_if_fail (table != NULL, NULL);

  words = strip_table_affixes (table);
  last = strrchr (words, ' ');
  last = last != NULL ? last + 1 : words;
  /* An acronym or a word without letters has no plural to undo. */
  if (!has_lowercase (last))
    return g_steal_pointer (&words);
  singular = grammar_rules_singularize (last);
  return g_strdup_printf ("%.*s%s", (int) (last - words), words, singular);
}

char *
grammar_rules_pluralize (const char *noun)
{
  gsize len = strlen (noun);
  static const char * const es_endings[] = { "s", "x", "ch", "sh", "z", NULL };

  if (g_str_has_suffix (noun, "person"))
    return g_strdup_printf ("%.*speople", (int) (len - 6), noun);
  if (len > 1 && noun[len - 1] == 'y' && strchr ("aeiou", noun[len - 2]) == NULL)
    return g_strdup_printf ("%.*sies", (int) (len - 1), noun);
  if (grammar_rules_ends_with_any (noun, es_endings))
    return g_strconcat (noun, "es", NULL);
  return g_strconcat (noun, "s", NULL);
}

/* Reading the SQL
 *
 * Only as much as naming things needs: a token stream, the projection
 * list, the FROM/JOIN table references with their aliases, and the
 * comparison around each placeholder. A template the reader does not
 * follow still gets texts, with “details” as what is asked for. */

static void
token_clear (gpointer data)
{
  g_free (((GrammarRulesToken *) data)->text);
}

static void
add_token (GArray                *tokens,
           GrammarRulesTokenKind  kind,
           char                  *text,
           gboolean               quoted)
{
  GrammarRulesToken token = { kind, text, quoted };

  g_array_append_val (tokens, token);
}

static gboolean
looks_like_placeholder (const char *text)
{
  gsize len = strlen (text);

  return len > 2 && text[0] == '[' && text[len - 1] == ']' && strchr (text, '.') != NULL;
}

/* The tokens of @sql from the SQL lexer, with their text: quoted names
 * and strings without their quotes, a bracketed run with a dot or a
 * string holding one as a placeholder `[T.C]`. */
GArray *
grammar_rules_tokenize (const char *sql)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (GrammarRulesToken));
  const char *p = sql;

  g_array_set_clear_func (tokens, token_clear);
  for (;;)
    {
      GrammarSqlToken token;
      char *text;

      p = grammar_sql_lexer_next (p, &token);
      switch (token.kind)
        {
        case GRAMMAR_SQL_TOKEN_END:
          return tokens;
        case GRAMMAR_SQL_TOKEN_SPACE:
        case GRAMMAR_SQL_TOKEN_LINE_COMMENT:
        case GRAMMAR_SQL_TOKEN_COMMENT:
          break;
        case GRAMMAR_SQL_TOKEN_STRING:
          text = grammar_sql_token_unquote (&token);
          if (looks_like_placeholder (text))
            add_token (tokens, TOKEN_PLACEHOLDER, text, TRUE);
          else
            add_token (tokens, TOKEN_STRING, text, FALSE);
          break;
        case GRAMMAR_SQL_TOKEN_QUOTED:
          add_token (tokens, TOKEN_IDENTIFIER, grammar_sql_token_unquote (&token), FALSE);
          break;
        case GRAMMAR_SQL_TOKEN_BRACKET:
          if (memchr (token.start, '.', token.length) != NULL)
            add_token (tokens, TOKEN_PLACEHOLDER, g_strndup (token.start, token.length), FALSE);
          else
            add_token (tokens, TOKEN_IDENTIFIER, grammar_sql_token_unquote (&token), FALSE);
          break;
        case GRAMMAR_SQL_TOKEN_NUMBER:
          add_token (tokens, TOKEN_NUMBER, g_strndup (token.start, token.length), FALSE);
          break;
        case GRAMMAR_SQL_TOKEN_WORD:
          add_token (tokens, TOKEN_WORD, g_strndup (token.start, token.length), FALSE);
          break;
        case GRAMMAR_SQL_TOKEN_PARAM:
          add_token (tokens, *token.start == '$' ? TOKEN_WORD : TOKEN_SYMBOL, g_strndup (token.start, token.length),
                     FALSE);
          break;
        case GRAMMAR_SQL_TOKEN_PUNCT:
        default:
          add_token (tokens, TOKEN_SYMBOL, g_strndup (token.start, token.length), FALSE);
          break;
        }
    }
}

GrammarRulesToken *
grammar_rules_token_at (GArray *tokens,
          guint   index)
{
  return index < tokens->len ? &g_array_index (tokens, GrammarRulesToken, index) : NULL;
}

gboolean
grammar_rules_is_word (GrammarRulesToken *token,
                       const char        *word)
{
  return token != NULL && token->kind == TOKEN_WORD && g_ascii_strcasecmp (token->text, word) == 0;
}

gboolean
grammar_rules_is_symbol (GrammarRulesToken *token,
                         const char        *symbol)
{
  return token != NULL && token->kind == TOKEN_SYMBOL && g_str_equal (token->text, symbol);
}

static gboolean
is_any_word (GrammarRulesToken  *token,
             const char * const *words)
{
  for (guint i = 0; words[i] != NULL; i++)
    if (grammar_rules_is_word (token, words[i]))
      return TRUE;
  return FALSE;
}

static const char * const reserved_words[] = {
  "select", "distinct", "all", "from", "where", "group", "order", "by", "limit", "having",
  "window", "union", "intersect", "except", "join", "inner", "left", "right", "full", "outer",
  "cross", "natural", "on", "using", "as", "and", "or", "not", "case", "when", "then", "else",
  "end", "is", "null", "like", "glob", "in", "between", "exists", "collate", "asc", "desc",
  NULL
};

/* A name a table, column or alias can have. */
gboolean
grammar_rules_is_name (GrammarRulesToken *token)
{
  if (token == NULL)
    return FALSE;
  if (token->kind == TOKEN_IDENTIFIER)
    return TRUE;
  return token->kind == TOKEN_WORD && !is_any_word (token, reserved_words);
}

/* The first token from @from on, outside parentheses, that is one of
 * @words (or, with @words NULL, the symbol ","); tokens->len if none. */
guint
grammar_rules_find_top_level (GArray             *tokens,
                guint               from,
                guint               to,
                const char * const *words)
{
  int depth = 0;

  for (guint i = from; i < to; i++)
    {
      GrammarRulesToken *token = grammar_rules_token_at (tokens, i);

      if (grammar_rules_is_symbol (token, "("))
        depth++;
      else if (grammar_rules_is_symbol (token, ")"))
        depth--;
      else if (depth == 0 && (words != NULL ? is_any_word (token, words) : grammar_rules_is_symbol (token, ",")))
        return i;
    }
  return to;
}

/* The index just past the parenthesis that closes the one at @open. */
static guint
skip_parentheses (GArray *tokens,
                  guint   open)
{
  int depth = 0;

  for (guint i = open; i < tokens->len; i++)
    {
      if (grammar_rules_is_symbol (grammar_rules_token_at (tokens, i), "("))
        depth++;
      else if (grammar_rules_is_symbol (grammar_rules_token_at (tokens, i), ")") && --depth == 0)
        return i + 1;
    }
  return tokens->len;
}

static void
table_ref_free (gpointer data)
{
  GrammarRulesTableRef *ref = data;

  g_free (ref->table);
  g_free (ref->alias);
  g_free (ref);
}

/* Table references of the FROM clause in tokens [@from, @to): names
 * after FROM, a comma or JOIN, each with its alias. */
GPtrArray *
grammar_rules_read_from_clause (GArray *tokens,
                  guint   from,
                  guint   to)
{
  GPtrArray *refs = g_ptr_array_new_with_free_func (table_ref_free);
  gboolean expect_table = TRUE;
  guint i = from;

  while (i < to)
    {
      GrammarRulesToken *token = grammar_rules_token_at (tokens, i);

      if (grammar_rules_is_symbol (token, "("))
        {
          /* A subquery or an ON/USING group: nothing to name. */
          i = skip_parentheses (tokens, i);
          expect_table = FALSE;
          continue;
        }
      if (expect_table && grammar_rules_is_name (token))
        {
          GrammarRulesTableRef *ref = g_new0 (GrammarRulesTableRef, 1);

          if (grammar_rules_is_symbol (grammar_rules_token_at (tokens, i + 1), ".") && grammar_rules_is_name (grammar_rules_token_at (tokens, i + 2)))
            i += 2;   /* schema.table */
          ref->table = g_strdup (grammar_rules_token_at (tokens, i)->text);
          i++;
          if (grammar_rules_is_word (grammar_rules_token_at (tokens, i), "as"))
            i++;
          if (i < to && grammar_rules_is_name (grammar_rules_token_at (tokens, i)))
            ref->alias = g_strdup (grammar_rules_token_at (tokens, i++)->text);
          g_ptr_array_add (refs, ref);
          expect_table = FALSE;
          continue;
        }
      if (grammar_rules_is_symbol (token, ",") || grammar_rules_is_word (token, "join"))
        expect_table = TRUE;
      i++;
    }
  return refs;
}

static void
projection_free (gpointer data)
{
  GrammarRulesProjection *projection = data;

  g_free (projection->qualifier);
  g_free (projection->column);
  g_free (projection->alias);
  g_free (projection);
}

static const char *
aggregate_phrase (const char *function)
{
  static const char * const phrases[][2] = {
    { "count", "number of" }, { "max", "highest" }, { "min", "lowest" },
    { "avg", "average" }, { "sum", "total" }, { "total", "total" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (phrases); i++)
    if (g_ascii_strcasecmp (function, phrases[i][0]) == 0)
      return phrases[i][1];
  return NULL;
}

static void read_expression (GArray *tokens, guint from, guint to, GrammarRulesProjection *projection);

/* `f(args)` in [@from, @to): the column of the arguments, with the
 * aggregate's phrase; other functions (lower, trim…) are see-through. */
static gboolean
read_function (GArray                 *tokens,
               guint                   from,
               guint                   to,
               GrammarRulesProjection *projection)
{
  guint start = from + 2;

  if (to - from < 3 || !grammar_rules_is_name (grammar_rules_token_at (tokens, from)) ||
      !grammar_rules_is_symbol (grammar_rules_token_at (tokens, from + 1), "(") || skip_parentheses (tokens, from + 1) != to)
    return FALSE;
  if (grammar_rules_is_word (grammar_rules_token_at (tokens, start), "distinct"))
    start++;
  if (start < to - 1)
    read_expression (tokens, start, to - 1, projection);
  if (projection->aggregate == NULL)
    projection->aggregate = aggregate_phrase (grammar_rules_token_at (tokens, from)->text);
  return TRUE;
}

/* The column an expression in [@from, @to) reads. */
static void
read_expression (GArray                 *tokens,
                 guint                   from,
                 guint                   to,
                 GrammarRulesProjection *projection)
{
  GrammarRulesToken *first = grammar_rules_token_at (tokens, from);

  if (to - from == 1 && (grammar_rules_is_name (first) || grammar_rules_is_symbol (first, "*")))
    {
      projection->column = g_strdup (first->text);
      return;
    }
  if (to - from == 3 && grammar_rules_is_name (first) && grammar_rules_is_symbol (grammar_rules_token_at (tokens, from + 1), ".") &&
      (grammar_rules_is_name (grammar_rules_token_at (tokens, from + 2)) || grammar_rules_is_symbol (grammar_rules_token_at (tokens, from + 2), "*")))
    {
      projection->qualifier = g_strdup (first->text);
      projection->column = g_strdup (grammar_rules_token_at (tokens, from + 2)->text);
      return;
    }
  if (read_function (tokens, from, to, projection))
    return;

  /* Anything else (arithmetic, CASE…): its first column reference. */
  for (guint i = from; i < to; i++)
    {
      GrammarRulesToken *token = grammar_rules_token_at (tokens, i);

      if (!grammar_rules_is_name (token) || grammar_rules_is_symbol (grammar_rules_token_at (tokens, i + 1), "("))
        continue;
      if (grammar_rules_is_symbol (grammar_rules_token_at (tokens, i + 1), ".") && grammar_rules_is_name (grammar_rules_token_at (tokens, i + 2)))
        {
          projection->qualifier = g_strdup (token->text);
          projection->column = g_strdup (grammar_rules_token_at (tokens, i + 2)->text);
        }
      else
        projection->column = g_strdup (token->text);
      return;
    }
}

/* One item of the projection list, tokens [@from, @to). */
static GrammarRulesProjection *
read_projection (GArray *tokens,
                 guint   from,
                 guint   to)
{
  GrammarRulesProjection *projection = g_new0 (GrammarRulesProjection, 1);

  if (to - from >= 3 && grammar_rules_is_word (grammar_rules_token_at (tokens, to - 2), "as") && grammar_rules_is_name (grammar_rules_token_at (tokens, to - 1)))
    {
      projection->alias = g_strdup (grammar_rules_token_at (tokens, to - 1)->text);
      to -= 2;
    }
  else if (to - from >= 2 && grammar_rules_is_name (grammar_rules_token_at (tokens, to - 1)) &&
           (grammar_rules_is_name (grammar_rules_token_at (tokens, to - 2)) || grammar_rules_is_symbol (grammar_rules_token_at (tokens, to - 2), ")")))
    {
      projection->alias = g_strdup (grammar_rules_token_at (tokens, to - 1)->text);
      to -= 1;
    }
  if (from < to)
    read_expression (tokens, from, to, projection);
  return projection;
}

GPtrArray *
grammar_rules_read_projections (GArray *tokens,
                  guint   from,
                  guint   to)
{
  GPtrArray *projections = g_ptr_array_new_with_free_func (projection_free);

  if (grammar_rules_is_word (grammar_rules_token_at (tokens, from), "distinct") || grammar_rules_is_word (grammar_rules_token_at (tokens, from), "all"))
    from++;
  while (from < to)
    {
      guint end = grammar_rules_find_top_level (tokens, from, to, NULL);

      if (end > from)
        g_ptr_array_add (projections, read_projection (tokens, from, end));
      from = end + 1;
    }
  return projections;
}
