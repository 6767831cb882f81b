/* grammar-rule-verbalizer.c: text templates from SQL templates, by rules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-rule-verbalizer-private.h"
#include "grammar-error.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-sql-lexer-private.h"

/**
 * GrammarRuleVerbalizer:
 *
 * Turns an SQL template into natural-language text templates in one of
 * the text styles (see grammar_text_style_list()), without a language
 * model.
 *
 * It reads enough of the SQL to know what is asked: the projected
 * column or columns (`SELECT <expr> FROM`, aliases resolved to tables
 * through the `FROM` and `JOIN` clauses; `COUNT`, `MAX`, `MIN`, `AVG`
 * and `SUM` become “number of”, “highest”…), the placeholders with
 * their comparison, and the entity each placeholder's table stands
 * for. Identifiers are humanised (`Graduation_College` → “graduation
 * college”, `StartDate` → “start date”) and table names become singular
 * nouns (`people` → “person”, `companies` → “company”).
 *
 * Rows are told apart by alias, not by table, and a joined row is named
 * by the column that points at it when that says more than its table
 * does: in `FROM employee e JOIN employee s ON e.supervisor_id =
 * s.employee_id WHERE e.name = '[employee.name]'`, `s.name` is “the name
 * of the supervisor of the employee named '[employee.name]'”. A
 * projection from another table than the placeholders' reads “the name
 * of the client of the project …”; from a table linking several, “the
 * year working of the person … with the company …”.
 *
 * Each style has several sentence frames; each frame combines with
 * several ways of naming the entities and, when there are several, of
 * ordering them. Of all distinct combinations, the verbalizer picks
 * @n with a #GRand seeded from #GrammarRuleVerbalizer:seed, the
 * template id and the style, cycling over the frames so that variants
 * differ in structure before they differ in wording. The same seed gives
 * the same texts, byte for byte.
 *
 * |[
 * SELECT Industry FROM company WHERE Name = '[company.Name]'
 *   short          Industry of company '[company.Name]'
 *   interrogative  What is the industry of the company named '[company.Name]'?
 *   directive      Tell me the industry of the company called '[company.Name]'.
 *   formal         Kindly state the industry of the company '[company.Name]'.
 *   casual         hey, what's the industry of '[company.Name]'?
 * ]|
 *
 * Placeholders keep the form the SQL gives them: quoted
 * (`'[company.Name]'`) when the SQL quotes them, bare otherwise.
 */

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
 * Returns: (transfer full): the words, separated by single spaces
 */
char *
grammar_rule_verbalizer_humanize (const char *identifier)
{
  g_autofree char *bare = NULL;
  g_autoptr (GPtrArray) words = NULL;
  GString *text = g_string_new (NULL);
  gboolean keep_acronyms;

  g_return_val_if_fail (identifier != NULL, NULL);

  bare = unquote_identifier (identifier);
  keep_acronyms = has_lowercase (bare);
  words = split_identifier (bare);
  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);
      g_autofree char *lower = g_utf8_strdown (word, -1);

      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, keep_acronyms && is_acronym (word) ? word : lower);
    }
  return g_string_free (text, FALSE);
}

static gboolean
ends_with_any (const char         *word,
               const char * const *endings)
{
  for (guint i = 0; endings[i] != NULL; i++)
    if (g_str_has_suffix (word, endings[i]))
      return TRUE;
  return FALSE;
}

/* English singular of one lowercase word, for the simple regular cases
 * and a few common irregular ones; anything else stays as it is. */
static char *
singularize_word (const char *word)
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
  if (ends_with_any (word, es_endings))
    return g_strndup (word, len - 2);
  if (len > 2 && word[len - 1] == 's' && !ends_with_any (word, s_keepers))
    return g_strndup (word, len - 1);
  return g_strdup (word);
}

/**
 * grammar_rule_verbalizer_entity_noun:
 * @table: a table name, possibly quoted
 *
 * The noun that names one row of @table: the humanised name with its
 * last word made singular where a simple rule applies (`people` →
 * “person”, `companies` → “company”, `employees` → “employee”,
 * `Order_Items` → “order item”); other names are kept.
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

  words = grammar_rule_verbalizer_humanize (table);
  last = strrchr (words, ' ');
  last = last != NULL ? last + 1 : words;
  /* An acronym or a word without letters has no plural to undo. */
  if (!has_lowercase (last))
    return g_steal_pointer (&words);
  singular = singularize_word (last);
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
  if (ends_with_any (noun, es_endings))
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
  g_free (((Token *) data)->text);
}

static void
add_token (GArray     *tokens,
           TokenKind   kind,
           char       *text,
           gboolean    quoted)
{
  Token token = { kind, text, quoted };

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
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));
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

Token *
grammar_rules_token_at (GArray *tokens,
          guint   index)
{
  return index < tokens->len ? &g_array_index (tokens, Token, index) : NULL;
}

gboolean
grammar_rules_is_word (Token      *token,
         const char *word)
{
  return token != NULL && token->kind == TOKEN_WORD && g_ascii_strcasecmp (token->text, word) == 0;
}

gboolean
grammar_rules_is_symbol (Token      *token,
           const char *symbol)
{
  return token != NULL && token->kind == TOKEN_SYMBOL && g_str_equal (token->text, symbol);
}

static gboolean
is_any_word (Token              *token,
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
grammar_rules_is_name (Token *token)
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
      Token *token = grammar_rules_token_at (tokens, i);

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
  TableRef *ref = data;

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
      Token *token = grammar_rules_token_at (tokens, i);

      if (grammar_rules_is_symbol (token, "("))
        {
          /* A subquery or an ON/USING group: nothing to name. */
          i = skip_parentheses (tokens, i);
          expect_table = FALSE;
          continue;
        }
      if (expect_table && grammar_rules_is_name (token))
        {
          TableRef *ref = g_new0 (TableRef, 1);

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
  Projection *projection = data;

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

static void read_expression (GArray *tokens, guint from, guint to, Projection *projection);

/* `f(args)` in [@from, @to): the column of the arguments, with the
 * aggregate's phrase; other functions (lower, trim…) are see-through. */
static gboolean
read_function (GArray     *tokens,
               guint       from,
               guint       to,
               Projection *projection)
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
read_expression (GArray     *tokens,
                 guint       from,
                 guint       to,
                 Projection *projection)
{
  Token *first = grammar_rules_token_at (tokens, from);

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
      Token *token = grammar_rules_token_at (tokens, i);

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
static Projection *
read_projection (GArray *tokens,
                 guint   from,
                 guint   to)
{
  Projection *projection = g_new0 (Projection, 1);

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

/* Sentence frames per style */

static const Pattern interrogative_frames[] = {
  { "What %V %T?", 0 },
  { "Could you tell me %T?", 0 },
  { "Do you know %T?", 0 },
  { "Can you find %T?", 0 },
  { "May I know %T?", 0 },
  { "Would you tell me %T?", 0 },
  { "For %E, what %V %R?", NEEDS_NOT_COUNTED },
  { "What %V %R recorded for %E?", NEEDS_NOT_COUNTED },
  { "What %A does %E have?", NEEDS_SIMPLE | NEEDS_SINGULAR | NEEDS_NOT_COUNTED },
  { "How many %E are there?", NEEDS_COUNTED },
  { NULL, 0 }
};

static const Pattern directive_frames[] = {
  { "Tell me %T.", 0 },
  { "Find %T.", 0 },
  { "Retrieve %T.", 0 },
  { "Look up %T.", 0 },
  { "Give me %T.", 0 },
  { "Show me %T.", 0 },
  { "Get %T.", 0 },
  { "Identify %T.", 0 },
  { "Determine %T.", 0 },
  { "For %E, give me %R.", NEEDS_NOT_COUNTED },
  { "Find out %R recorded for %E.", NEEDS_NOT_COUNTED },
  { "Count %E.", NEEDS_COUNTED },
  { NULL, 0 }
};

static const Pattern formal_frames[] = {
  { "Kindly state %T.", 0 },
  { "Please provide %T.", 0 },
  { "I would like to request %T.", 0 },
  { "Would you kindly indicate %T?", 0 },
  { "I would be grateful if you could provide %T.", 0 },
  { "Please be so kind as to specify %T.", 0 },
  { "May I request %T?", 0 },
  { "It would be appreciated if you could confirm %T.", 0 },
  { "With regard to %E, kindly state %R.", NEEDS_NOT_COUNTED },
  { "Kindly state how many %E there are.", NEEDS_COUNTED },
  { NULL, 0 }
};

static const Pattern casual_frames[] = {
  { "hey, %W %T?", 0 },
  { "so %W %T?", 0 },
  { "any idea what %T %V?", 0 },
  { "quick question: %W %T?", 0 },
  { "%W %T again?", 0 },
  { "mind telling me %T?", 0 },
  { "need %T, thanks!", 0 },
  { "got %T handy?", 0 },
  { "so for %E, %W %R?", NEEDS_NOT_COUNTED },
  { "how many %E are there?", NEEDS_COUNTED },
  { NULL, 0 }
};

/* The paper's short examples are bare fragments; with a question mark
 * they are a fallback for when more variants are asked than that. */
static const Pattern short_frames[] = { { "%T", 0 }, { "%T?", 0 }, { NULL, 0 } };

/* The long style: an introduction that gives context, the request, and
 * a closing; the closings also make up the 30 words when needed. */
static const char * const long_intros[] = {
  "I am going through the information that we keep about each %O in our records, and there is "
  "one particular detail that I have not been able to find so far.",
  "For a report that I am putting together about the %O records stored in our database, I need "
  "to check one specific piece of information before I can finish it.",
  "Our records describe every %O with several attributes, and the %A %V exactly what I need to "
  "know at the moment for the work I am doing.",
  "While reviewing the data that we hold, I realised that I do not remember one of the details "
  "that were recorded, and I would like to confirm it before moving on.",
};

static const char * const long_requests[] = {
  "Could you please tell me what %T %V, based on the information that is currently available?",
  "I would like to find out %T, so that I can complete my notes with accurate and reliable "
  "information.",
  "Please look up %T and let me know what the records say about it.",
  "Can you find %T for me and share the answer as soon as you have it?",
};

static const char * const long_closings[] = {
  "",
  " Thank you in advance for taking the time to check this for me.",
  " It matters that the answer comes from the stored records rather than from a guess.",
};


static void
candidate_clear (gpointer data)
{
  g_free (((Candidate *) data)->text);
}

static void
group_free (gpointer data)
{
  Group *group = data;

  g_array_unref (group->items);
  g_free (group);
}

static void
candidates_init (Candidates *candidates)
{
  candidates->groups = g_ptr_array_new_with_free_func (group_free);
  candidates->seen = g_hash_table_new (g_str_hash, g_str_equal);
}

static void
candidates_clear (Candidates *candidates)
{
  g_hash_table_unref (candidates->seen);
  g_ptr_array_unref (candidates->groups);
}

static Group *
candidates_group (Candidates *candidates,
                  guint       key)
{
  while (candidates->groups->len <= key)
    {
      Group *group = g_new0 (Group, 1);

      group->items = g_array_new (FALSE, FALSE, sizeof (Candidate));
      g_array_set_clear_func (group->items, candidate_clear);
      g_ptr_array_add (candidates->groups, group);
    }
  return g_ptr_array_index (candidates->groups, key);
}

/* Adds @text (taking it) unless an identical text is there already. */
static void
candidates_add (Candidates *candidates,
                guint       key,
                guint       tier,
                guint       sub,
                char       *text,
                gboolean    capitalize)
{
  Group *group = candidates_group (candidates, key);
  Candidate candidate = { text, sub, FALSE };

  group->tier = tier;
  if (capitalize && g_ascii_islower (text[0]))
    text[0] = g_ascii_toupper (text[0]);
  if (g_hash_table_contains (candidates->seen, text))
    {
      g_free (text);
      return;
    }
  g_hash_table_add (candidates->seen, text);
  g_array_append_val (group->items, candidate);
}

static void
fill_common_slots (Slots       *slots,
                   Meaning     *meaning,
                   Realization *realization)
{
  grammar_rules_slot_set (slots, 'A', meaning->attribute);
  grammar_rules_slot_set (slots, 'O', meaning->owner != NULL ? meaning->owner : "record");
  grammar_rules_slot_set (slots, 'V', meaning->plural ? "are" : "is");
  grammar_rules_slot_set (slots, 'W', meaning->plural ? "what are" : "what's");
  grammar_rules_slot_set (slots, 'T', realization->target);
  grammar_rules_slot_set (slots, 'E', realization->entities);
  grammar_rules_slot_set (slots, 'R', realization->relative);
}

static void
add_framed (Candidates    *candidates,
            Meaning       *meaning,
            GPtrArray     *realizations,
            const Pattern *frames,
            gboolean       capitalize)
{
  for (guint f = 0; frames[f].format != NULL; f++)
    {
      if (!grammar_rules_pattern_applies (frames[f].needs, meaning, TRUE, NULL))
        continue;
      for (guint r = 0; r < realizations->len; r++)
        {
          Realization *realization = g_ptr_array_index (realizations, r);
          Slots slots = { { NULL } };

          fill_common_slots (&slots, meaning, realization);
          candidates_add (candidates, f, 0, realization->pattern,
                          grammar_rules_expand (frames[f].format, &slots), capitalize);
        }
    }
}

static char *
compose_long (Slots *slots,
              guint  intro,
              guint  request,
              guint  closing)
{
  g_autofree char *first = grammar_rules_expand (long_intros[intro], slots);
  g_autofree char *second = grammar_rules_expand (long_requests[request], slots);
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%s %s%s", first, second, long_closings[closing]);
  /* Every introduction is long enough today; this keeps the criterion
   * true whatever the frames become. */
  for (guint k = 1; grammar_text_count_words (text->str) < LONG_MIN_WORDS && k < G_N_ELEMENTS (long_closings); k++)
    if (k != closing)
      g_string_append (text, long_closings[k]);
  return g_string_free (text, FALSE);
}

static void
add_long (Candidates *candidates,
          Meaning    *meaning,
          GPtrArray  *realizations)
{
  for (guint i = 0; i < G_N_ELEMENTS (long_intros); i++)
    for (guint q = 0; q < G_N_ELEMENTS (long_requests); q++)
      for (guint c = 0; c < G_N_ELEMENTS (long_closings); c++)
        for (guint r = 0; r < realizations->len; r++)
          {
            Slots slots = { { NULL } };

            fill_common_slots (&slots, meaning, g_ptr_array_index (realizations, r));
            candidates_add (candidates, i, 0, q, compose_long (&slots, i, q, c), TRUE);
          }
}

static void
add_short (Candidates *candidates,
           Meaning    *meaning)
{
  g_autoptr (GPtrArray) realizations = grammar_rules_realize (meaning, REGISTER_SHORT);

  guint n_patterns = 0;

  for (guint r = 0; r < realizations->len; r++)
    n_patterns = MAX (n_patterns, ((Realization *) g_ptr_array_index (realizations, r))->pattern + 1);
  /* Grouped by target pattern, so that structures vary first. */
  for (guint f = 0; short_frames[f].format != NULL; f++)
    for (guint r = 0; r < realizations->len; r++)
      {
        Realization *realization = g_ptr_array_index (realizations, r);
        Slots slots = { { NULL } };

        grammar_rules_slot_set (&slots, 'T', realization->target);
        candidates_add (candidates, f * n_patterns + realization->pattern, f, 0,
                        grammar_rules_expand (short_frames[f].format, &slots), TRUE);
      }
}

static void
collect_candidates (Candidates *candidates,
                    Meaning    *meaning,
                    const char *style)
{
  g_autoptr (GPtrArray) full = NULL;
  g_autoptr (GPtrArray) casual = NULL;

  if (g_str_equal (style, "short"))
    {
      add_short (candidates, meaning);
      return;
    }
  if (g_str_equal (style, "casual"))
    {
      casual = grammar_rules_realize (meaning, REGISTER_CASUAL);
      add_framed (candidates, meaning, casual, casual_frames, FALSE);
      return;
    }
  full = grammar_rules_realize (meaning, REGISTER_FULL);
  if (g_str_equal (style, "long"))
    add_long (candidates, meaning, full);
  else if (g_str_equal (style, "interrogative"))
    add_framed (candidates, meaning, full, interrogative_frames, TRUE);
  else if (g_str_equal (style, "directive"))
    add_framed (candidates, meaning, full, directive_frames, TRUE);
  else
    add_framed (candidates, meaning, full, formal_frames, TRUE);
}

/* Picking */

static void
shuffle_pointers (GPtrArray *array,
                  GRand     *rand)
{
  for (guint i = array->len; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      gpointer swap = array->pdata[i - 1];

      array->pdata[i - 1] = array->pdata[j];
      array->pdata[j] = swap;
    }
}

static void
shuffle_candidates (GArray *items,
                    GRand  *rand)
{
  for (guint i = items->len; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      Candidate swap = g_array_index (items, Candidate, i - 1);

      g_array_index (items, Candidate, i - 1) = g_array_index (items, Candidate, j);
      g_array_index (items, Candidate, j) = swap;
    }
}

/* The next text of @group: the first not yet picked whose sub-key is not
 * among @used_subs, else the first not yet picked. */
static Candidate *
next_of_group (Group      *group,
               GHashTable *used_subs)
{
  Candidate *fallback = NULL;

  for (guint i = 0; i < group->items->len; i++)
    {
      Candidate *candidate = &g_array_index (group->items, Candidate, i);

      if (candidate->picked)
        continue;
      if (!g_hash_table_contains (used_subs, GUINT_TO_POINTER (candidate->sub + 1)))
        return candidate;
      if (fallback == NULL)
        fallback = candidate;
    }
  return fallback;
}

/* Takes one text of each group of @tier in turn, in a shuffled order of
 * groups, so that variants differ in structure before they differ in
 * wording. Returns FALSE once the tier has nothing left. */
static gboolean
pick_round (GPtrArray  *groups,
            guint       tier,
            GHashTable *used_subs,
            GPtrArray  *picked)
{
  gboolean any = FALSE;

  for (guint g = 0; g < groups->len; g++)
    {
      Group *group = g_ptr_array_index (groups, g);
      Candidate *candidate;

      if (group->tier != tier || (candidate = next_of_group (group, used_subs)) == NULL)
        continue;
      candidate->picked = TRUE;
      g_hash_table_add (used_subs, GUINT_TO_POINTER (candidate->sub + 1));
      g_ptr_array_add (picked, candidate->text);
      any = TRUE;
    }
  return any;
}

/* Every text, in the order to take them. The texts stay owned by
 * @candidates. */
static GPtrArray *
pick (Candidates *candidates,
      GRand      *rand)
{
  g_autoptr (GPtrArray) groups = g_ptr_array_new ();
  GPtrArray *picked = g_ptr_array_new ();
  guint max_tier = 0;

  for (guint g = 0; g < candidates->groups->len; g++)
    {
      Group *group = g_ptr_array_index (candidates->groups, g);

      shuffle_candidates (group->items, rand);
      g_ptr_array_add (groups, group);
      max_tier = MAX (max_tier, group->tier);
    }
  shuffle_pointers (groups, rand);

  for (guint tier = 0; tier <= max_tier; tier++)
    {
      g_autoptr (GHashTable) used_subs = g_hash_table_new (NULL, NULL);

      /* Sub-keys vary within a round; the next round starts afresh. */
      while (pick_round (groups, tier, used_subs, picked))
        g_hash_table_remove_all (used_subs);
    }
  return picked;
}

static GRand *
rand_for (guint64             seed,
          GrammarSqlTemplate *sql_template,
          const char         *style)
{
  guint32 words[4] = {
    (guint32) (seed & 0xffffffffu),
    (guint32) (seed >> 32),
    g_str_hash (grammar_sql_template_get_id (sql_template)),
    g_str_hash (style),
  };

  return g_rand_new_with_seed_array (words, G_N_ELEMENTS (words));
}

/* The object */

static void grammar_rule_verbalizer_verbalizer_init (GrammarVerbalizerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GrammarRuleVerbalizer, grammar_rule_verbalizer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_VERBALIZER,
                                                      grammar_rule_verbalizer_verbalizer_init))

enum {
  PROP_0,
  PROP_SCHEMA,
  PROP_SEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
grammar_rule_verbalizer_dispose (GObject *object)
{
  GrammarRuleVerbalizer *self = GRAMMAR_RULE_VERBALIZER (object);

  g_clear_object (&self->schema);

  G_OBJECT_CLASS (grammar_rule_verbalizer_parent_class)->dispose (object);
}

static void
grammar_rule_verbalizer_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GrammarRuleVerbalizer *self = GRAMMAR_RULE_VERBALIZER (object);

  switch (prop_id)
    {
    case PROP_SCHEMA:
      g_value_set_object (value, self->schema);
      break;
    case PROP_SEED:
      g_value_set_uint64 (value, self->seed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_rule_verbalizer_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GrammarRuleVerbalizer *self = GRAMMAR_RULE_VERBALIZER (object);

  switch (prop_id)
    {
    case PROP_SCHEMA:
      self->schema = g_value_dup_object (value);
      break;
    case PROP_SEED:
      grammar_rule_verbalizer_set_seed (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_rule_verbalizer_class_init (GrammarRuleVerbalizerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = grammar_rule_verbalizer_dispose;
  object_class->get_property = grammar_rule_verbalizer_get_property;
  object_class->set_property = grammar_rule_verbalizer_set_property;

  /**
   * GrammarRuleVerbalizer:schema:
   *
   * The schema of the templates' database, or %NULL. With it, a
   * projected column that names no table is found in the joined table
   * that has it.
   */
  properties[PROP_SCHEMA] =
    g_param_spec_object ("schema", NULL, NULL, GRAMMAR_TYPE_SCHEMA,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarRuleVerbalizer:seed:
   *
   * The seed of the choice among the variants; with the same seed, the
   * same template and style give the same texts.
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_rule_verbalizer_init (GrammarRuleVerbalizer *self)
{
}

/**
 * grammar_rule_verbalizer_new:
 * @schema: (nullable): the schema of the templates' database
 *
 * Returns: (transfer full): a new #GrammarRuleVerbalizer with seed 0
 */
GrammarRuleVerbalizer *
grammar_rule_verbalizer_new (GrammarSchema *schema)
{
  g_return_val_if_fail (schema == NULL || GRAMMAR_IS_SCHEMA (schema), NULL);

  return g_object_new (GRAMMAR_TYPE_RULE_VERBALIZER, "schema", schema, NULL);
}

/**
 * grammar_rule_verbalizer_get_schema:
 * @self: a #GrammarRuleVerbalizer
 *
 * Returns: (transfer none) (nullable): the schema, or %NULL
 */
GrammarSchema *
grammar_rule_verbalizer_get_schema (GrammarRuleVerbalizer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RULE_VERBALIZER (self), NULL);
  return self->schema;
}

/**
 * grammar_rule_verbalizer_get_seed:
 * @self: a #GrammarRuleVerbalizer
 *
 * Returns: the seed
 */
guint64
grammar_rule_verbalizer_get_seed (GrammarRuleVerbalizer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RULE_VERBALIZER (self), 0);
  return self->seed;
}

/**
 * grammar_rule_verbalizer_set_seed:
 * @self: a #GrammarRuleVerbalizer
 * @seed: the seed
 *
 * Sets #GrammarRuleVerbalizer:seed.
 */
void
grammar_rule_verbalizer_set_seed (GrammarRuleVerbalizer *self,
                                  guint64                seed)
{
  g_return_if_fail (GRAMMAR_IS_RULE_VERBALIZER (self));

  if (self->seed == seed)
    return;
  self->seed = seed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEED]);
}

/**
 * grammar_rule_verbalizer_verbalize:
 * @self: a #GrammarRuleVerbalizer
 * @sql_template: the SQL template
 * @style: one of grammar_text_style_list()
 * @n: how many distinct text templates to make
 * @error: return location for a #GError
 *
 * Makes @n distinct text templates of @sql_template in @style. When the
 * rules know fewer than @n distinct variants, all of them are returned:
 * compare the length of the result with @n to report it. Every text
 * passes grammar_text_template_check_placeholders(); `long` ones have at
 * least 30 words, `interrogative` ones end with a question mark.
 *
 * Returns: (transfer container) (element-type GrammarTextTemplate) (nullable): the
 *   text templates, or %NULL with a %GRAMMAR_ERROR_INVALID_INPUT error for
 *   an unknown style
 */
GPtrArray *
grammar_rule_verbalizer_verbalize (GrammarRuleVerbalizer *self,
                                   GrammarSqlTemplate    *sql_template,
                                   const char            *style,
                                   guint                  n,
                                   GError               **error)
{
  g_autoptr (Meaning) meaning = NULL;
  g_autoptr (GRand) rand = NULL;
  g_autoptr (GPtrArray) picked = NULL;
  GPtrArray *text_templates;
  const char *id;
  Candidates candidates;

  g_return_val_if_fail (GRAMMAR_IS_RULE_VERBALIZER (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!grammar_text_style_check (style, error))
    return NULL;

  id = grammar_sql_template_get_id (sql_template);
  meaning = grammar_rules_meaning_new (sql_template, self->schema);
  rand = rand_for (self->seed, sql_template, style);
  candidates_init (&candidates);
  collect_candidates (&candidates, meaning, style);
  /* All of them in picking order: a text that fails the check below
   * makes room for the next. */
  picked = pick (&candidates, rand);

  text_templates = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < picked->len && text_templates->len < n; i++)
    {
      g_autoptr (GrammarTextTemplate) text_template = grammar_text_template_new (id, style, g_ptr_array_index (picked, i));
      g_autoptr (GError) local_error = NULL;

      /* The rules cannot lose a placeholder; should a template's SQL
       * still defeat them, a text that fails is left out rather than
       * written. */
      if (!grammar_text_template_check_placeholders (text_template, sql_template, &local_error))
        {
          g_debug ("%s: dropped “%s”: %s", id, (const char *) g_ptr_array_index (picked, i), local_error->message);
          continue;
        }
      g_ptr_array_add (text_templates, g_steal_pointer (&text_template));
    }
  candidates_clear (&candidates);
  return text_templates;
}

/* GrammarVerbalizer: the rules answer at once. A verbalizer built from a
 * keyfile section has no schema yet: the one it is given becomes its
 * own. */
static void
grammar_rule_verbalizer_verbalize_async (GrammarVerbalizer    *verbalizer,
                                         GrammarSqlTemplate   *sql_template,
                                         GrammarSchema        *schema,
                                         const char           *style,
                                         guint                 n,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data)
{
  GrammarRuleVerbalizer *self = GRAMMAR_RULE_VERBALIZER (verbalizer);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;
  GPtrArray *made;

  if (self->schema == NULL)
    self->schema = g_object_ref (schema);
  made = grammar_rule_verbalizer_verbalize (self, sql_template, style, n, &error);
  if (made != NULL)
    g_task_return_pointer (task, made, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

static GPtrArray *
grammar_rule_verbalizer_verbalize_finish (GrammarVerbalizer  *verbalizer,
                                          GAsyncResult       *result,
                                          GStrv              *dropped,
                                          GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_rule_verbalizer_verbalizer_init (GrammarVerbalizerInterface *iface)
{
  iface->verbalize_async = grammar_rule_verbalizer_verbalize_async;
  iface->verbalize_finish = grammar_rule_verbalizer_verbalize_finish;
}
