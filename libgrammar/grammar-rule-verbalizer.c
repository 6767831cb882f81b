/* grammar-rule-verbalizer.c: text templates from SQL templates, by rules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

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

/* Text styles */

typedef struct
{
  const char *name;
  const char *summary;
  const char *criteria;
} StyleInfo;

/* The criteria of short and long are the paper's (ACL version, Table 6);
 * the other four are written in the same manner. */
static const StyleInfo style_infos[] = {
  { "short", "concise fragments, few words, no articles",
    "Short and Clear: Keep your queries short and straightforward. Cut down on words and skip "
    "parts of speech, such as conjunctions and articles. It's okay to use fragmented phrases as "
    "long as they still convey the full meaning. Valid examples: \"client of '[Project.Name]'\" or "
    "\"client for '[Project.Name]'\"; Invalid Examples: \"Find the client of a project named "
    "'[Project.Name]'.\"" },
  { "long", "complete, complex sentences with context, at least 30 words",
    "Complex Sentence Structure: Ensure your queries are always in complete sentences. Opt for "
    "longer, more complex sentence structures, incorporating elements of speech like conjunctions "
    "and articles for fuller expression. Each query should be at least 30 words long. You can add "
    "context and background information to the query." },
  { "interrogative", "a direct question ending with a question mark",
    "Question Form: Phrase every query as a direct question in a complete sentence that ends with "
    "a question mark. Valid examples: \"What is the client of the project named '[Project.Name]'?\" "
    "or \"Which client is the project '[Project.Name]' for?\"; Invalid Examples: \"Find the client "
    "of the project named '[Project.Name]'.\" or \"client of '[Project.Name]'\"" },
  { "directive", "an imperative instruction",
    "Imperative Form: Phrase every query as an instruction in the imperative mood that starts with "
    "a verb such as find, show, give, tell or look up, and ends with a period, not a question mark. "
    "Valid examples: \"Find the client of the project named '[Project.Name]'.\" or \"Tell me who "
    "the client of '[Project.Name]' is.\"; Invalid Examples: \"What is the client of the project "
    "named '[Project.Name]'?\"" },
  { "formal", "polite, formal register without contractions",
    "Formal Register: Use polite, formal and precise language in complete sentences, as in a "
    "professional letter. Do not use contractions, slang or abbreviations. Valid examples: "
    "\"Kindly state the client of the project named '[Project.Name]'.\" or \"I would be grateful if "
    "you could indicate the client of the project '[Project.Name]'.\"; Invalid Examples: \"who's "
    "the client on '[Project.Name]'?\"" },
  { "casual", "informal chat: contractions, relaxed tone",
    "Casual Register: Write the way people chat informally with a colleague: contractions, "
    "everyday words, a relaxed tone; lowercase and fragments are fine as long as the meaning stays "
    "complete. Valid examples: \"hey, who's the client on '[Project.Name]'?\" or \"so which client "
    "is '[Project.Name]' for?\"; Invalid Examples: \"Kindly state the client of the project named "
    "'[Project.Name]'.\"" },
};

static const char * const style_names[] = {
  "short", "long", "interrogative", "directive", "formal", "casual", NULL
};

static const StyleInfo *
lookup_style (const char *style)
{
  if (style == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (style_infos); i++)
    if (g_str_equal (style_infos[i].name, style))
      return &style_infos[i];
  return NULL;
}

/**
 * grammar_text_style_list:
 *
 * The text styles the verbalizers know: `short`, `long`,
 * `interrogative`, `directive`, `formal` and `casual`.
 *
 * Returns: (transfer none) (array zero-terminated=1): the style names
 */
const char * const *
grammar_text_style_list (void)
{
  return style_names;
}

/**
 * grammar_text_style_check:
 * @style: (nullable): a style name
 * @error: return location for a #GError
 *
 * Checks that @style is one of grammar_text_style_list().
 *
 * Returns: %TRUE when it is; otherwise %FALSE with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error that lists the styles
 */
gboolean
grammar_text_style_check (const char  *style,
                          GError     **error)
{
  g_autofree char *known = NULL;

  if (lookup_style (style) != NULL)
    return TRUE;
  known = g_strjoinv (", ", (GStrv) style_names);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "unknown text style “%s”; the styles are %s", style != NULL ? style : "", known);
  return FALSE;
}

/**
 * grammar_text_style_get_summary:
 * @style: a style name
 *
 * Returns: (nullable): a few words that describe @style, or %NULL for an unknown style
 */
const char *
grammar_text_style_get_summary (const char *style)
{
  const StyleInfo *info = lookup_style (style);

  return info != NULL ? info->summary : NULL;
}

/**
 * grammar_text_style_get_criteria:
 * @style: a style name
 *
 * The linguistic criterion of @style as a language model is given it
 * (the paper's C_t): for `short` and `long` the paper's own words.
 *
 * Returns: (nullable): the criterion, or %NULL for an unknown style
 */
const char *
grammar_text_style_get_criteria (const char *style)
{
  const StyleInfo *info = lookup_style (style);

  return info != NULL ? info->criteria : NULL;
}

/**
 * grammar_text_count_words:
 * @text: UTF-8 text
 *
 * Counts the whitespace-separated words of @text, as the `long` style's
 * criterion of at least 30 words counts them.
 *
 * Returns: the number of words
 */
guint
grammar_text_count_words (const char *text)
{
  guint n = 0;
  gboolean in_word = FALSE;

  g_return_val_if_fail (text != NULL, 0);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gboolean space = g_unichar_isspace (g_utf8_get_char (p));

      if (!space && !in_word)
        n++;
      in_word = !space;
    }
  return n;
}

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

static char *
pluralize (const char *noun)
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

typedef enum {
  TOKEN_WORD,         /* keyword or bare identifier */
  TOKEN_IDENTIFIER,   /* "quoted" or `quoted` identifier, unquoted */
  TOKEN_STRING,
  TOKEN_NUMBER,
  TOKEN_PLACEHOLDER,  /* "[T.C]" as written */
  TOKEN_SYMBOL,
} TokenKind;

typedef struct
{
  TokenKind kind;
  char *text;
  gboolean quoted;    /* a placeholder written as a string literal */
} Token;

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
static GArray *
tokenize (const char *sql)
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

static Token *
token_at (GArray *tokens,
          guint   index)
{
  return index < tokens->len ? &g_array_index (tokens, Token, index) : NULL;
}

static gboolean
is_word (Token      *token,
         const char *word)
{
  return token != NULL && token->kind == TOKEN_WORD && g_ascii_strcasecmp (token->text, word) == 0;
}

static gboolean
is_symbol (Token      *token,
           const char *symbol)
{
  return token != NULL && token->kind == TOKEN_SYMBOL && g_str_equal (token->text, symbol);
}

static gboolean
is_any_word (Token              *token,
             const char * const *words)
{
  for (guint i = 0; words[i] != NULL; i++)
    if (is_word (token, words[i]))
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
static gboolean
is_name (Token *token)
{
  if (token == NULL)
    return FALSE;
  if (token->kind == TOKEN_IDENTIFIER)
    return TRUE;
  return token->kind == TOKEN_WORD && !is_any_word (token, reserved_words);
}

/* The first token from @from on, outside parentheses, that is one of
 * @words (or, with @words NULL, the symbol ","); tokens->len if none. */
static guint
find_top_level (GArray             *tokens,
                guint               from,
                guint               to,
                const char * const *words)
{
  int depth = 0;

  for (guint i = from; i < to; i++)
    {
      Token *token = token_at (tokens, i);

      if (is_symbol (token, "("))
        depth++;
      else if (is_symbol (token, ")"))
        depth--;
      else if (depth == 0 && (words != NULL ? is_any_word (token, words) : is_symbol (token, ",")))
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
      if (is_symbol (token_at (tokens, i), "("))
        depth++;
      else if (is_symbol (token_at (tokens, i), ")") && --depth == 0)
        return i + 1;
    }
  return tokens->len;
}

typedef struct
{
  char *table;
  char *alias;  /* nullable */
} TableRef;

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
static GPtrArray *
read_from_clause (GArray *tokens,
                  guint   from,
                  guint   to)
{
  GPtrArray *refs = g_ptr_array_new_with_free_func (table_ref_free);
  gboolean expect_table = TRUE;
  guint i = from;

  while (i < to)
    {
      Token *token = token_at (tokens, i);

      if (is_symbol (token, "("))
        {
          /* A subquery or an ON/USING group: nothing to name. */
          i = skip_parentheses (tokens, i);
          expect_table = FALSE;
          continue;
        }
      if (expect_table && is_name (token))
        {
          TableRef *ref = g_new0 (TableRef, 1);

          if (is_symbol (token_at (tokens, i + 1), ".") && is_name (token_at (tokens, i + 2)))
            i += 2;   /* schema.table */
          ref->table = g_strdup (token_at (tokens, i)->text);
          i++;
          if (is_word (token_at (tokens, i), "as"))
            i++;
          if (i < to && is_name (token_at (tokens, i)))
            ref->alias = g_strdup (token_at (tokens, i++)->text);
          g_ptr_array_add (refs, ref);
          expect_table = FALSE;
          continue;
        }
      if (is_symbol (token, ",") || is_word (token, "join"))
        expect_table = TRUE;
      i++;
    }
  return refs;
}

typedef struct
{
  char *qualifier;         /* nullable */
  char *column;            /* nullable: "*" or not understood */
  char *alias;             /* nullable */
  const char *aggregate;   /* nullable: "number of", "highest"… */
} Projection;

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

  if (to - from < 3 || !is_name (token_at (tokens, from)) ||
      !is_symbol (token_at (tokens, from + 1), "(") || skip_parentheses (tokens, from + 1) != to)
    return FALSE;
  if (is_word (token_at (tokens, start), "distinct"))
    start++;
  if (start < to - 1)
    read_expression (tokens, start, to - 1, projection);
  if (projection->aggregate == NULL)
    projection->aggregate = aggregate_phrase (token_at (tokens, from)->text);
  return TRUE;
}

/* The column an expression in [@from, @to) reads. */
static void
read_expression (GArray     *tokens,
                 guint       from,
                 guint       to,
                 Projection *projection)
{
  Token *first = token_at (tokens, from);

  if (to - from == 1 && (is_name (first) || is_symbol (first, "*")))
    {
      projection->column = g_strdup (first->text);
      return;
    }
  if (to - from == 3 && is_name (first) && is_symbol (token_at (tokens, from + 1), ".") &&
      (is_name (token_at (tokens, from + 2)) || is_symbol (token_at (tokens, from + 2), "*")))
    {
      projection->qualifier = g_strdup (first->text);
      projection->column = g_strdup (token_at (tokens, from + 2)->text);
      return;
    }
  if (read_function (tokens, from, to, projection))
    return;

  /* Anything else (arithmetic, CASE…): its first column reference. */
  for (guint i = from; i < to; i++)
    {
      Token *token = token_at (tokens, i);

      if (!is_name (token) || is_symbol (token_at (tokens, i + 1), "("))
        continue;
      if (is_symbol (token_at (tokens, i + 1), ".") && is_name (token_at (tokens, i + 2)))
        {
          projection->qualifier = g_strdup (token->text);
          projection->column = g_strdup (token_at (tokens, i + 2)->text);
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

  if (to - from >= 3 && is_word (token_at (tokens, to - 2), "as") && is_name (token_at (tokens, to - 1)))
    {
      projection->alias = g_strdup (token_at (tokens, to - 1)->text);
      to -= 2;
    }
  else if (to - from >= 2 && is_name (token_at (tokens, to - 1)) &&
           (is_name (token_at (tokens, to - 2)) || is_symbol (token_at (tokens, to - 2), ")")))
    {
      projection->alias = g_strdup (token_at (tokens, to - 1)->text);
      to -= 1;
    }
  if (from < to)
    read_expression (tokens, from, to, projection);
  return projection;
}

static GPtrArray *
read_projections (GArray *tokens,
                  guint   from,
                  guint   to)
{
  GPtrArray *projections = g_ptr_array_new_with_free_func (projection_free);

  if (is_word (token_at (tokens, from), "distinct") || is_word (token_at (tokens, from), "all"))
    from++;
  while (from < to)
    {
      guint end = find_top_level (tokens, from, to, NULL);

      if (end > from)
        g_ptr_array_add (projections, read_projection (tokens, from, end));
      from = end + 1;
    }
  return projections;
}

/* What a template asks */

typedef enum {
  COMPARISON_EQ,
  COMPARISON_NE,
  COMPARISON_LT,
  COMPARISON_LE,
  COMPARISON_GT,
  COMPARISON_GE,
  COMPARISON_LIKE,
} Comparison;

/* One placeholder and the entity its table stands for. */
typedef struct
{
  char *written;       /* as texts write it: '[company.Name]' or [people.Age] */
  char *table;
  char *noun;          /* "company" */
  char *column;        /* humanised: "name" */
  Comparison comparison;
  const char *naming;  /* "named" or "titled" for an equality on a name or title, else NULL */
  char *qualifier;     /* the alias of the compared column (`c` in `c.Name = …`), or NULL */
} Entity;

static void
entity_free (gpointer data)
{
  Entity *entity = data;

  g_free (entity->written);
  g_free (entity->table);
  g_free (entity->noun);
  g_free (entity->column);
  g_free (entity->qualifier);
  g_free (entity);
}

/* How the projected table relates to the placeholders' tables. */
typedef enum {
  SHAPE_SIMPLE,       /* one entity, and the projection is its own column */
  SHAPE_FOLLOW,       /* one entity, the projection is another table's (a foreign key followed) */
  SHAPE_LINK,         /* several entities, the projection is a linking table's */
  SHAPE_OWNER_WITH,   /* several entities, the projection is one of theirs */
} Shape;

typedef struct
{
  char *attribute;     /* "industry", "number of employees", "industry and headquarters" */
  gboolean plural;
  gboolean plain;      /* one column, no aggregate: “the client name” reads well */
  gboolean counting;   /* COUNT(*): rows of the projected table are counted */
  char *owner;         /* noun of the projected row: its table's, or its role's (“supervisor”) */
  int owner_entity;    /* entity whose row is the projected one, or -1 */
  GPtrArray *entities; /* Entity */
  Shape shape;
} Meaning;

static void
meaning_free (Meaning *meaning)
{
  g_free (meaning->attribute);
  g_free (meaning->owner);
  g_ptr_array_unref (meaning->entities);
  g_free (meaning);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Meaning, meaning_free)

static gboolean
comparison_from_token (Token      *token,
                       gboolean    mirrored,
                       Comparison *comparison)
{
  static const struct { const char *symbol; Comparison comparison, mirror; } symbols[] = {
    { "=", COMPARISON_EQ, COMPARISON_EQ }, { "==", COMPARISON_EQ, COMPARISON_EQ },
    { "!=", COMPARISON_NE, COMPARISON_NE }, { "<>", COMPARISON_NE, COMPARISON_NE },
    { "<", COMPARISON_LT, COMPARISON_GT }, { "<=", COMPARISON_LE, COMPARISON_GE },
    { ">", COMPARISON_GT, COMPARISON_LT }, { ">=", COMPARISON_GE, COMPARISON_LE },
  };

  if (is_word (token, "like") || is_word (token, "glob"))
    {
      *comparison = COMPARISON_LIKE;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    if (is_symbol (token, symbols[i].symbol))
      {
        *comparison = mirrored ? symbols[i].mirror : symbols[i].comparison;
        return TRUE;
      }
  return FALSE;
}

/* Fills how @entity is written and compared, and the alias of the
 * column it is compared with, from its first occurrence. */
static void
find_occurrence (GArray     *tokens,
                 const char *placeholder,
                 Entity     *entity)
{
  entity->written = g_strdup (placeholder);
  entity->comparison = COMPARISON_EQ;
  for (guint i = 0; i < tokens->len; i++)
    {
      Token *token = token_at (tokens, i);

      if (token->kind != TOKEN_PLACEHOLDER || g_ascii_strcasecmp (token->text, placeholder) != 0)
        continue;
      if (token->quoted)
        {
          g_free (entity->written);
          entity->written = g_strdup_printf ("'%s'", placeholder);
        }
      if (i > 0 && comparison_from_token (token_at (tokens, i - 1), FALSE, &entity->comparison))
        {
          /* t.col = [T.C] */
          if (i >= 4 && is_name (token_at (tokens, i - 2)) && is_symbol (token_at (tokens, i - 3), ".") &&
              is_name (token_at (tokens, i - 4)))
            entity->qualifier = g_strdup (token_at (tokens, i - 4)->text);
        }
      else if (comparison_from_token (token_at (tokens, i + 1), TRUE, &entity->comparison))
        {
          /* [T.C] = t.col */
          if (is_name (token_at (tokens, i + 2)) && is_symbol (token_at (tokens, i + 3), ".") &&
              is_name (token_at (tokens, i + 4)))
            entity->qualifier = g_strdup (token_at (tokens, i + 2)->text);
        }
      return;
    }
}

/* Whether @column is the entity's @what: `name`, or its noun's (`item
 * name` of an “order item”, `project name` of a “project”). */
static gboolean
is_own (const char *column,
        const char *what,
        const char *noun)
{
  gsize len = strlen (column), what_len = strlen (what);
  g_autofree char *owner = NULL;

  if (g_str_equal (column, what))
    return TRUE;
  if (len <= what_len + 1 || !g_str_has_suffix (column, what) || column[len - what_len - 1] != ' ')
    return FALSE;
  owner = g_strndup (column, len - what_len - 1);
  return g_str_equal (noun, owner) ||
         (g_str_has_suffix (noun, owner) && noun[strlen (noun) - strlen (owner) - 1] == ' ');
}

static GPtrArray *
read_entities (GrammarSqlTemplate *sql_template,
               GArray             *tokens)
{
  GPtrArray *entities = g_ptr_array_new_with_free_func (entity_free);

  for (guint i = 0; i < grammar_sql_template_get_n_placeholders (sql_template); i++)
    {
      Entity *entity = g_new0 (Entity, 1);

      entity->table = g_strdup (grammar_sql_template_get_placeholder_table (sql_template, i));
      entity->noun = grammar_rule_verbalizer_entity_noun (entity->table);
      entity->column = grammar_rule_verbalizer_humanize (
        grammar_sql_template_get_placeholder_column (sql_template, i));
      find_occurrence (tokens, grammar_sql_template_get_placeholder (sql_template, i), entity);
      if (entity->comparison == COMPARISON_EQ && is_own (entity->column, "name", entity->noun))
        entity->naming = "named";
      else if (entity->comparison == COMPARISON_EQ && is_own (entity->column, "title", entity->noun))
        entity->naming = "titled";
      g_ptr_array_add (entities, entity);
    }
  return entities;
}

/* The table reference @name stands for: an alias, else a table name. */
static TableRef *
lookup_ref (GPtrArray  *refs,
            const char *name)
{
  for (guint i = 0; i < refs->len; i++)
    {
      TableRef *ref = g_ptr_array_index (refs, i);

      if (ref->alias != NULL && g_ascii_strcasecmp (ref->alias, name) == 0)
        return ref;
    }
  for (guint i = 0; i < refs->len; i++)
    {
      TableRef *ref = g_ptr_array_index (refs, i);

      if (g_ascii_strcasecmp (ref->table, name) == 0)
        return ref;
    }
  return NULL;
}

/* The row a projected column is read from: its qualifier through the
 * aliases, else the only table, else (with a schema) the first table
 * that has the column, else the first table. */
static TableRef *
resolve_ref (GPtrArray     *refs,
             Projection    *projection,
             GrammarSchema *schema)
{
  if (projection->qualifier != NULL)
    return lookup_ref (refs, projection->qualifier);
  if (refs->len == 0)
    return NULL;
  if (schema != NULL && refs->len > 1 && projection->column != NULL)
    for (guint i = 0; i < refs->len; i++)
      {
        TableRef *ref = g_ptr_array_index (refs, i);
        GrammarTable *table = grammar_schema_get_table (schema, ref->table);

        if (table != NULL && grammar_table_get_column (table, projection->column) != NULL)
          return ref;
      }
  return g_ptr_array_index (refs, 0);
}

/* The row an entity's placeholder picks: the alias of the compared
 * column, else the first reference to the placeholder's table. */
static TableRef *
entity_ref (GPtrArray *refs,
            Entity    *entity)
{
  TableRef *ref = entity->qualifier != NULL ? lookup_ref (refs, entity->qualifier) : NULL;

  return ref != NULL ? ref : lookup_ref (refs, entity->table);
}

/* The entity whose row the projection reads. Rows are told apart by
 * alias, not table: in `employee e JOIN employee s`, `s.name` is not the
 * name of the employee `e.name` picks. */
static int
find_owner_entity (GPtrArray  *entities,
                   GPtrArray  *refs,
                   TableRef   *owner_ref,
                   const char *owner_table)
{
  for (guint i = 0; i < entities->len; i++)
    {
      Entity *entity = g_ptr_array_index (entities, i);
      TableRef *ref = entity_ref (refs, entity);

      if (owner_ref != NULL && ref != NULL ? ref == owner_ref :
          owner_table != NULL && g_ascii_strcasecmp (entity->table, owner_table) == 0)
        return i;
    }
  return -1;
}

/* “director” for `director_id`, “supervisor” for `SupervisorID`,
 * “person” for `People_ID`; NULL for a plain `id`. */
static char *
role_of_column (const char *column)
{
  g_autofree char *words = grammar_rule_verbalizer_humanize (column);
  gsize len = strlen (words);

  if (len > 3 && g_ascii_strcasecmp (words + len - 3, " id") == 0)
    words[len - 3] = '\0';
  if (words[0] == '\0' || g_ascii_strcasecmp (words, "id") == 0)
    return NULL;
  return grammar_rule_verbalizer_entity_noun (words);
}

/* The role of the row @owner in a join condition `o.x = r.role_id`: the
 * name of the column that points at it, when that says more than its
 * table's noun does (`p.director_id = e.employee_id` → “director”,
 * `e.supervisor_id = s.employee_id` → “supervisor”, but
 * `p.client_id = c.client_id` → none). */
static char *
join_role (GArray    *tokens,
           GPtrArray *refs,
           TableRef  *owner,
           const char *owner_noun)
{
  for (guint i = 0; i + 6 < tokens->len; i++)
    {
      Token *t = token_at (tokens, i);
      TableRef *left, *right, *other;
      const char *other_column;
      g_autofree char *role = NULL;
      g_autofree char *other_noun = NULL;

      if (!is_name (t) || !is_symbol (token_at (tokens, i + 1), ".") || !is_name (token_at (tokens, i + 2)) ||
          !(is_symbol (token_at (tokens, i + 3), "=") || is_symbol (token_at (tokens, i + 3), "==")) ||
          !is_name (token_at (tokens, i + 4)) || !is_symbol (token_at (tokens, i + 5), ".") ||
          !is_name (token_at (tokens, i + 6)))
        continue;
      left = lookup_ref (refs, t->text);
      right = lookup_ref (refs, token_at (tokens, i + 4)->text);
      if (left == NULL || right == NULL || left == right || (left != owner && right != owner))
        continue;
      other = left == owner ? right : left;
      other_column = token_at (tokens, left == owner ? i + 6 : i + 2)->text;
      role = role_of_column (other_column);
      other_noun = grammar_rule_verbalizer_entity_noun (other->table);
      if (role != NULL && !g_str_equal (role, owner_noun) && !g_str_equal (role, other_noun))
        return g_steal_pointer (&role);
    }
  return NULL;
}

/* “industry”, “number of employees”, “highest age”; a column named after
 * its table loses the table's noun (`project.Project_Name` → “name”). */
static char *
describe_projection (Projection *projection,
                     const char *table_noun)
{
  g_autofree char *base = NULL;
  gboolean star = projection->column == NULL || g_str_equal (projection->column, "*");

  if (star && projection->alias != NULL && projection->aggregate == NULL)
    base = grammar_rule_verbalizer_humanize (projection->alias);
  else if (star)
    base = g_strdup (projection->aggregate != NULL && table_noun != NULL ? table_noun : "details");
  else
    base = grammar_rule_verbalizer_humanize (projection->column);

  if (!star && table_noun != NULL && g_str_has_prefix (base, table_noun) &&
      base[strlen (table_noun)] == ' ')
    {
      char *rest = g_strdup (base + strlen (table_noun) + 1);

      g_free (base);
      base = rest;
    }
  if (projection->aggregate == NULL)
    return g_steal_pointer (&base);
  if (g_str_equal (projection->aggregate, "number of"))
    {
      g_autofree char *plural = pluralize (base);

      return g_strconcat ("number of ", plural, NULL);
    }
  return g_strconcat (projection->aggregate, " ", base, NULL);
}

static char *
join_conjunction (const char * const *items,
                  guint               n)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (text, i == n - 1 ? " and " : ", ");
      g_string_append (text, items[i]);
    }
  return g_string_free (text, FALSE);
}

/* Finds the parts of a SELECT the reader follows: the projections and
 * the FROM clause's table references. FALSE for anything else. */
static gboolean
read_select (GArray     *tokens,
             GPtrArray **projections,
             GPtrArray **refs)
{
  static const char * const from_word[] = { "from", NULL };
  static const char * const from_end[] = {
    "where", "group", "order", "limit", "having", "window", "union", "intersect", "except", NULL
  };
  guint from, end;

  if (!is_word (token_at (tokens, 0), "select"))
    return FALSE;
  from = find_top_level (tokens, 1, tokens->len, from_word);
  if (from >= tokens->len)
    return FALSE;
  end = find_top_level (tokens, from + 1, tokens->len, from_end);
  *projections = read_projections (tokens, 1, from);
  *refs = read_from_clause (tokens, from + 1, end);
  return (*projections)->len > 0;
}

/* The attribute: what the projections read, named from their rows. */
static void
describe_attribute (Meaning       *meaning,
                    GPtrArray     *projections,
                    GPtrArray     *refs,
                    GrammarSchema *schema)
{
  g_autoptr (GPtrArray) phrases = g_ptr_array_new_with_free_func (g_free);
  Projection *first = g_ptr_array_index (projections, 0);

  for (guint i = 0; i < projections->len; i++)
    {
      Projection *projection = g_ptr_array_index (projections, i);
      TableRef *ref = resolve_ref (refs, projection, schema);
      g_autofree char *noun = ref != NULL ? grammar_rule_verbalizer_entity_noun (ref->table) : NULL;

      g_ptr_array_add (phrases, describe_projection (projection, i == 0 ? meaning->owner : noun));
    }
  meaning->attribute = join_conjunction ((const char * const *) phrases->pdata, phrases->len);
  meaning->plural = phrases->len > 1;
  meaning->plain = projections->len == 1 && first->aggregate == NULL;
  meaning->counting = projections->len == 1 && first->aggregate != NULL &&
                      g_str_equal (first->aggregate, "number of") &&
                      (first->column == NULL || g_str_equal (first->column, "*"));
}

/* Names the projected row: an entity's noun when it is that entity's
 * row, else its role in a join, else its table's noun. */
static void
name_owner (Meaning    *meaning,
            GArray     *tokens,
            GPtrArray  *refs,
            TableRef   *owner_ref,
            const char *owner_table)
{
  g_autofree char *table_noun = owner_table != NULL ? grammar_rule_verbalizer_entity_noun (owner_table) : NULL;
  char *role;

  meaning->owner_entity = find_owner_entity (meaning->entities, refs, owner_ref, owner_table);
  if (meaning->owner_entity >= 0)
    {
      meaning->owner = g_strdup (((Entity *) g_ptr_array_index (meaning->entities, meaning->owner_entity))->noun);
      return;
    }
  role = owner_ref != NULL && table_noun != NULL ? join_role (tokens, refs, owner_ref, table_noun) : NULL;
  meaning->owner = role != NULL ? role : g_steal_pointer (&table_noun);
}

static Meaning *
meaning_new (GrammarSqlTemplate *sql_template,
             GrammarSchema      *schema)
{
  g_autoptr (Meaning) meaning = g_new0 (Meaning, 1);
  g_autoptr (GArray) tokens = tokenize (grammar_sql_template_get_sql (sql_template));
  g_autoptr (GPtrArray) projections = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  guint n_entities;

  meaning->entities = read_entities (sql_template, tokens);
  n_entities = meaning->entities->len;
  if (read_select (tokens, &projections, &refs))
    {
      Projection *first = g_ptr_array_index (projections, 0);
      TableRef *owner_ref = resolve_ref (refs, first, schema);

      name_owner (meaning, tokens, refs, owner_ref, owner_ref != NULL ? owner_ref->table : first->qualifier);
      describe_attribute (meaning, projections, refs, schema);
    }
  else
    {
      /* Not a SELECT the reader follows: ask for its “details” about the
       * first entity. */
      meaning->owner_entity = 0;
      meaning->owner = g_strdup (((Entity *) g_ptr_array_index (meaning->entities, 0))->noun);
      meaning->attribute = g_strdup ("details");
      meaning->plural = TRUE;
    }
  if (n_entities <= 1)
    meaning->shape = meaning->owner_entity >= 0 ? SHAPE_SIMPLE : SHAPE_FOLLOW;
  else
    meaning->shape = meaning->owner_entity >= 0 ? SHAPE_OWNER_WITH : SHAPE_LINK;
  return g_steal_pointer (&meaning);
}

/* Phrasing
 *
 * Formats use slots: %A the attribute, %O the owner noun, %F the first
 * entity as described, %X the other entities, %E all entities, %T the
 * whole target (“the industry of the company named '[company.Name]'”),
 * %R the attribute as a noun phrase without the entities (“the
 * industry”, “the name of the client”), %V “is” or “are”, %W “what's”
 * or “what are”, %N and %P an entity's noun and placeholder, %C its
 * column and %Q the comparison. */

typedef struct
{
  const char *slots[26];
} Slots;

static void
slot_set (Slots      *slots,
          char        letter,
          const char *value)
{
  slots->slots[letter - 'A'] = value;
}

static char *
expand (const char  *format,
        const Slots *slots)
{
  GString *text = g_string_new (NULL);

  for (const char *p = format; *p != '\0'; p++)
    {
      if (p[0] == '%' && p[1] >= 'A' && p[1] <= 'Z' && slots->slots[p[1] - 'A'] != NULL)
        {
          g_string_append (text, slots->slots[p[1] - 'A']);
          p++;
        }
      else
        g_string_append_c (text, *p);
    }
  return g_string_free (text, FALSE);
}

typedef enum {
  REGISTER_FULL,    /* complete noun phrases with articles */
  REGISTER_SHORT,   /* no articles, fragments */
  REGISTER_CASUAL,  /* full, or just the placeholder for a named entity */
} Register;

static const char *
comparison_words (Comparison comparison,
                  Register   reg)
{
  gboolean brief = reg == REGISTER_SHORT;

  switch (comparison)
    {
    case COMPARISON_NE: return brief ? "not" : "other than";
    case COMPARISON_LT: return brief ? "under" : "less than";
    case COMPARISON_LE: return "at most";
    case COMPARISON_GT: return brief ? "over" : "greater than";
    case COMPARISON_GE: return "at least";
    case COMPARISON_LIKE: return "like";
    case COMPARISON_EQ:
    default: return "";
    }
}

/* The ways of naming one entity in a register. A @counted entity is the
 * one whose rows COUNT(*) counts: plural, without article (“employees
 * whose hire date is …”). */
static GPtrArray *
describe_entity (Entity   *entity,
                 Register  reg,
                 gboolean  counted)
{
  static const char * const counted_named[] = { "%N %Q %P", "%N called %P", NULL };
  static const char * const counted_equal[] = { "%N whose %C is %P", "%N with %C %P", NULL };
  static const char * const counted_compare[] = { "%N whose %C is %Q %P", "%N with %C %Q %P", NULL };
  g_autofree char *plural = counted ? pluralize (entity->noun) : NULL;
  static const char * const named_full[] = {
    "the %N %Q %P", "the %N called %P", "the %N %P", "the %N with the %C %P", NULL };
  static const char * const named_short[] = { "%N %P", "%P", NULL };
  static const char * const named_casual[] = { "%P", "the %N %P", NULL };
  static const char * const equal_full[] = { "the %N whose %C is %P", "the %N with %C %P", NULL };
  static const char * const equal_short[] = { "%N with %C %P", NULL };
  static const char * const compare_full[] = { "the %N whose %C is %Q %P", "the %N with %C %Q %P", NULL };
  static const char * const compare_short[] = { "%N with %C %Q %P", NULL };
  const char * const *formats;
  GPtrArray *descriptions = g_ptr_array_new_with_free_func (g_free);
  Slots slots = { { NULL } };

  if (counted)
    formats = entity->naming != NULL ? counted_named :
              entity->comparison == COMPARISON_EQ ? counted_equal : counted_compare;
  else if (entity->naming != NULL)
    formats = reg == REGISTER_SHORT ? named_short : reg == REGISTER_CASUAL ? named_casual : named_full;
  else if (entity->comparison == COMPARISON_EQ)
    formats = reg == REGISTER_SHORT ? equal_short : equal_full;
  else
    formats = reg == REGISTER_SHORT ? compare_short : compare_full;

  slot_set (&slots, 'N', counted ? plural : entity->noun);
  slot_set (&slots, 'P', entity->written);
  slot_set (&slots, 'C', entity->column);
  slot_set (&slots, 'Q', entity->naming != NULL ? entity->naming : comparison_words (entity->comparison, reg));
  for (guint i = 0; formats[i] != NULL; i++)
    g_ptr_array_add (descriptions, expand (formats[i], &slots));
  return descriptions;
}

/* A target pattern and when it applies. */
enum {
  NEEDS_PLAIN = 1 << 0,        /* one column without aggregate */
  NEEDS_NAMED_FIRST = 1 << 1,  /* the first entity is named by its name or title */
  NEEDS_SIMPLE = 1 << 2,       /* SHAPE_SIMPLE */
  NEEDS_SINGULAR = 1 << 3,     /* one projected column */
  NEEDS_COUNTED = 1 << 4,      /* %E is the counted rows (“employees whose …”) */
  NEEDS_NOT_COUNTED = 1 << 5,  /* %E is not */
  NEEDS_NO_WITH_FIRST = 1 << 6, /* “%F with %X”: not when %F has its own “with” */
};

typedef struct
{
  const char *format;
  guint needs;
} Pattern;

/* With COUNT(*), what is counted is the projected table's rows. */
static const Pattern *
counting_patterns (Shape    shape,
                   Register reg)
{
  static const Pattern simple_full[] = { { "the number of %F", 0 }, { NULL, 0 } };
  static const Pattern follow_full[] = {
    { "the %A of %F", 0 }, { "the %A for %F", 0 }, { "the %A associated with %F", 0 }, { NULL, 0 } };
  static const Pattern link_full[] = { { "the %A for %E", 0 }, { "the %A linking %E", 0 }, { NULL, 0 } };
  static const Pattern owner_full[] = {
    { "the number of %F with %X", NEEDS_NO_WITH_FIRST }, { "the number of %F for %X", 0 }, { NULL, 0 } };
  static const Pattern simple_short[] = { { "number of %F", 0 }, { "count of %F", 0 }, { NULL, 0 } };
  static const Pattern follow_short[] = { { "%A of %F", 0 }, { "%A for %F", 0 }, { NULL, 0 } };
  static const Pattern link_short[] = { { "%A for %E", 0 }, { NULL, 0 } };
  static const Pattern owner_short[] = { { "number of %F for %X", 0 }, { NULL, 0 } };
  gboolean brief = reg == REGISTER_SHORT;

  switch (shape)
    {
    case SHAPE_FOLLOW: return brief ? follow_short : follow_full;
    case SHAPE_LINK: return brief ? link_short : link_full;
    case SHAPE_OWNER_WITH: return brief ? owner_short : owner_full;
    case SHAPE_SIMPLE:
    default: return brief ? simple_short : simple_full;
    }
}

static const Pattern *
target_patterns (Shape    shape,
                 Register reg)
{
  static const Pattern simple_full[] = { { "the %A of %F", 0 }, { "the %A for %F", 0 }, { NULL, 0 } };
  static const Pattern follow_full[] = {
    { "the %A of the %O of %F", 0 }, { "the %A of the %O for %F", 0 },
    { "the %A of the %O associated with %F", 0 }, { "the %O %A for %F", NEEDS_PLAIN }, { NULL, 0 } };
  static const Pattern link_full[] = {
    { "the %A of %F with %X", NEEDS_NO_WITH_FIRST }, { "the %A recorded for %E", 0 },
    { "the %A of the %O linking %E", 0 }, { "the %A of the %O for %E", 0 }, { NULL, 0 } };
  static const Pattern owner_full[] = {
    { "the %A of %F with %X", NEEDS_NO_WITH_FIRST }, { "the %A of %F for %X", 0 },
    { "the %A of %F in connection with %X", 0 }, { NULL, 0 } };
  static const Pattern simple_short[] = {
    { "%A of %F", 0 }, { "%A for %F", 0 }, { "%F %A", NEEDS_NAMED_FIRST }, { "%A, %F", 0 }, { NULL, 0 } };
  static const Pattern follow_short[] = {
    { "%O %A of %F", NEEDS_PLAIN }, { "%A of %O of %F", 0 }, { "%O %A for %F", NEEDS_PLAIN }, { NULL, 0 } };
  static const Pattern link_short[] = {
    { "%A for %E", 0 }, { "%A of %F with %X", NEEDS_NO_WITH_FIRST }, { "%A, %E", 0 }, { NULL, 0 } };
  static const Pattern owner_short[] = {
    { "%A of %F with %X", NEEDS_NO_WITH_FIRST }, { "%A for %E", 0 }, { NULL, 0 } };
  gboolean brief = reg == REGISTER_SHORT;

  switch (shape)
    {
    case SHAPE_FOLLOW: return brief ? follow_short : follow_full;
    case SHAPE_LINK: return brief ? link_short : link_full;
    case SHAPE_OWNER_WITH: return brief ? owner_short : owner_full;
    case SHAPE_SIMPLE:
    default: return brief ? simple_short : simple_full;
    }
}

static gboolean
counted_entity (Meaning *meaning)
{
  return meaning->counting && meaning->owner_entity >= 0;
}

static gboolean
pattern_applies (guint       needs,
                 Meaning    *meaning,
                 gboolean    named_first,
                 const char *first)
{
  if ((needs & NEEDS_COUNTED) && !(counted_entity (meaning) && meaning->shape == SHAPE_SIMPLE))
    return FALSE;
  if ((needs & NEEDS_NOT_COUNTED) && counted_entity (meaning))
    return FALSE;
  if ((needs & NEEDS_NO_WITH_FIRST) && first != NULL && strstr (first, " with ") != NULL)
    return FALSE;
  if ((needs & NEEDS_PLAIN) && !meaning->plain)
    return FALSE;
  if ((needs & NEEDS_NAMED_FIRST) && !named_first)
    return FALSE;
  if ((needs & NEEDS_SIMPLE) && meaning->shape != SHAPE_SIMPLE)
    return FALSE;
  if ((needs & NEEDS_SINGULAR) && meaning->plural)
    return FALSE;
  return TRUE;
}

/* One way of saying what is asked: the slots a sentence frame fills. */
typedef struct
{
  char *target;     /* %T */
  char *entities;   /* %E */
  char *relative;   /* %R */
  guint pattern;    /* which target pattern made %T */
} Realization;

static void
realization_free (gpointer data)
{
  Realization *realization = data;

  g_free (realization->target);
  g_free (realization->entities);
  g_free (realization->relative);
  g_free (realization);
}

/* Entity orders: as in the SQL, and reversed, except that the entity
 * whose column is projected always comes first. */
static GPtrArray *
entity_orders (Meaning *meaning)
{
  GPtrArray *orders = g_ptr_array_new_with_free_func (g_free);
  guint n = meaning->entities->len;
  guint *order = g_new (guint, MAX (n, 1));
  guint k = 0;

  if (meaning->owner_entity >= 0)
    order[k++] = meaning->owner_entity;
  for (guint i = 0; i < n; i++)
    if ((int) i != meaning->owner_entity)
      order[k++] = i;
  g_ptr_array_add (orders, order);
  if (n > 1 && meaning->owner_entity < 0)
    {
      guint *reversed = g_new (guint, n);

      for (guint i = 0; i < n; i++)
        reversed[i] = order[n - 1 - i];
      g_ptr_array_add (orders, reversed);
    }
  return orders;
}

/* Every choice of description per entity, as indexes; when there are
 * too many, the i-th description of every entity together. */
#define MAX_COMBINATIONS 64

static GPtrArray *
description_choices (GPtrArray *descriptions)
{
  GPtrArray *choices = g_ptr_array_new_with_free_func (g_free);
  guint n = descriptions->len, total = 1, widest = 0;

  for (guint i = 0; i < n; i++)
    {
      guint len = ((GPtrArray *) g_ptr_array_index (descriptions, i))->len;

      total = MIN (total * len, MAX_COMBINATIONS + 1);
      widest = MAX (widest, len);
    }
  if (total > MAX_COMBINATIONS)
    {
      for (guint k = 0; k < widest; k++)
        {
          guint *choice = g_new (guint, n);

          for (guint i = 0; i < n; i++)
            choice[i] = k % ((GPtrArray *) g_ptr_array_index (descriptions, i))->len;
          g_ptr_array_add (choices, choice);
        }
      return choices;
    }
  for (guint index = 0; index < total; index++)
    {
      guint *choice = g_new (guint, MAX (n, 1));
      guint rest = index;

      for (guint i = 0; i < n; i++)
        {
          guint len = ((GPtrArray *) g_ptr_array_index (descriptions, i))->len;

          choice[i] = rest % len;
          rest /= len;
        }
      g_ptr_array_add (choices, choice);
    }
  return choices;
}

static void
add_realizations (GPtrArray   *realizations,
                  Meaning     *meaning,
                  Register     reg,
                  const char **ordered,
                  gboolean     named_first)
{
  const Pattern *patterns = meaning->counting ? counting_patterns (meaning->shape, reg) :
                           target_patterns (meaning->shape, reg);
  guint n = meaning->entities->len;
  g_autofree char *all = join_conjunction (ordered, n);
  g_autofree char *rest = join_conjunction (ordered + 1, n > 0 ? n - 1 : 0);
  Slots slots = { { NULL } };

  slot_set (&slots, 'A', meaning->attribute);
  slot_set (&slots, 'O', meaning->owner != NULL ? meaning->owner : "record");
  slot_set (&slots, 'F', n > 0 ? ordered[0] : "");
  slot_set (&slots, 'X', rest);
  slot_set (&slots, 'E', all);
  for (guint p = 0; patterns[p].format != NULL; p++)
    {
      Realization *realization;

      if (!pattern_applies (patterns[p].needs, meaning, named_first, n > 0 ? ordered[0] : NULL))
        continue;
      realization = g_new0 (Realization, 1);
      realization->pattern = p;
      realization->target = expand (patterns[p].format, &slots);
      realization->entities = g_strdup (all);
      realization->relative = expand (meaning->shape == SHAPE_SIMPLE || meaning->shape == SHAPE_LINK ||
                                      meaning->counting ? "the %A" : "the %A of the %O", &slots);
      g_ptr_array_add (realizations, realization);
    }
}

/* Removes descriptions that have a “with”, unless all have. */
static void
drop_with (GPtrArray *descriptions)
{
  guint n_with = 0;

  for (guint i = 0; i < descriptions->len; i++)
    n_with += strstr (g_ptr_array_index (descriptions, i), " with ") != NULL ? 1 : 0;
  if (n_with == descriptions->len)
    return;
  for (guint i = descriptions->len; i > 0; i--)
    if (strstr (g_ptr_array_index (descriptions, i - 1), " with ") != NULL)
      g_ptr_array_remove_index (descriptions, i - 1);
}

static GPtrArray *
realize (Meaning  *meaning,
         Register  reg)
{
  GPtrArray *realizations = g_ptr_array_new_with_free_func (realization_free);
  g_autoptr (GPtrArray) descriptions = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) orders = entity_orders (meaning);
  g_autoptr (GPtrArray) choices = NULL;
  guint n = meaning->entities->len;
  g_autofree const char **ordered = g_new0 (const char *, n + 1);

  for (guint i = 0; i < n; i++)
    {
      GPtrArray *described = describe_entity (g_ptr_array_index (meaning->entities, i), reg,
                                              counted_entity (meaning) && (int) i == meaning->owner_entity);

      /* Entities are joined with “with”: their own descriptions without
       * one read better (“… of the person named X with the company Y”). */
      if (n > 1)
        drop_with (described);
      g_ptr_array_add (descriptions, described);
    }
  choices = description_choices (descriptions);

  for (guint o = 0; o < orders->len; o++)
    for (guint c = 0; c < choices->len; c++)
      {
        const guint *order = g_ptr_array_index (orders, o);
        const guint *choice = g_ptr_array_index (choices, c);
        Entity *first = n > 0 ? g_ptr_array_index (meaning->entities, order[0]) : NULL;

        for (guint i = 0; i < n; i++)
          ordered[i] = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (descriptions, order[i]),
                                          choice[order[i]]);
        add_realizations (realizations, meaning, reg, ordered, first != NULL && first->naming != NULL);
      }
  return realizations;
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

#define LONG_MIN_WORDS 30

/* Candidate texts, in groups: one group per sentence frame (per
 * introduction for `long`). Each text has a sub-key (the target pattern,
 * or the request for `long`) that picking also tries to vary, and groups
 * have a tier: a lower tier is used up before a higher one is touched. */
typedef struct
{
  char *text;
  guint sub;
  gboolean picked;
} Candidate;

typedef struct
{
  guint tier;
  GArray *items;  /* Candidate */
} Group;

typedef struct
{
  GPtrArray *groups;  /* Group, indexed by group key */
  GHashTable *seen;   /* text → NULL */
} Candidates;

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
  slot_set (slots, 'A', meaning->attribute);
  slot_set (slots, 'O', meaning->owner != NULL ? meaning->owner : "record");
  slot_set (slots, 'V', meaning->plural ? "are" : "is");
  slot_set (slots, 'W', meaning->plural ? "what are" : "what's");
  slot_set (slots, 'T', realization->target);
  slot_set (slots, 'E', realization->entities);
  slot_set (slots, 'R', realization->relative);
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
      if (!pattern_applies (frames[f].needs, meaning, TRUE, NULL))
        continue;
      for (guint r = 0; r < realizations->len; r++)
        {
          Realization *realization = g_ptr_array_index (realizations, r);
          Slots slots = { { NULL } };

          fill_common_slots (&slots, meaning, realization);
          candidates_add (candidates, f, 0, realization->pattern,
                          expand (frames[f].format, &slots), capitalize);
        }
    }
}

static char *
compose_long (Slots *slots,
              guint  intro,
              guint  request,
              guint  closing)
{
  g_autofree char *first = expand (long_intros[intro], slots);
  g_autofree char *second = expand (long_requests[request], slots);
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
  g_autoptr (GPtrArray) realizations = realize (meaning, REGISTER_SHORT);

  guint n_patterns = 0;

  for (guint r = 0; r < realizations->len; r++)
    n_patterns = MAX (n_patterns, ((Realization *) g_ptr_array_index (realizations, r))->pattern + 1);
  /* Grouped by target pattern, so that structures vary first. */
  for (guint f = 0; short_frames[f].format != NULL; f++)
    for (guint r = 0; r < realizations->len; r++)
      {
        Realization *realization = g_ptr_array_index (realizations, r);
        Slots slots = { { NULL } };

        slot_set (&slots, 'T', realization->target);
        candidates_add (candidates, f * n_patterns + realization->pattern, f, 0,
                        expand (short_frames[f].format, &slots), TRUE);
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
      casual = realize (meaning, REGISTER_CASUAL);
      add_framed (candidates, meaning, casual, casual_frames, FALSE);
      return;
    }
  full = realize (meaning, REGISTER_FULL);
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

struct _GrammarRuleVerbalizer
{
  GObject parent_instance;

  GrammarSchema *schema;
  guint64 seed;
};

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
  meaning = meaning_new (sql_template, self->schema);
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
