/* grammar-keypoint.c: one fact a correct response states, phrased from the grounded answer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-json-private.h"
#include "grammar-keypoint.h"
#include "grammar-sql-lexer-private.h"

/**
 * GrammarKeypoint:
 *
 * One of RAGEval's keypoints: a fact that a correct response states.
 * grammar_keypoint_list_from_record() phrases one for every value of a
 * record's grounded answer, from the column its query projects and the
 * values bound to its placeholders: "the start date of the project whose
 * name is 'Atlas' is 2023-03-01". A keypoint keeps the value, and the
 * table and column it comes from when the projection is a plain column,
 * so that a metric can look for the value, and for the other values of
 * that column, in a response.
 */

struct _GrammarKeypoint
{
  GObject parent_instance;

  char *text;
  char *value;
  char *table;
  char *column;
};

G_DEFINE_FINAL_TYPE (GrammarKeypoint, grammar_keypoint, G_TYPE_OBJECT)

static void
grammar_keypoint_finalize (GObject *object)
{
  GrammarKeypoint *self = GRAMMAR_KEYPOINT (object);

  g_free (self->text);
  g_free (self->value);
  g_free (self->table);
  g_free (self->column);
  G_OBJECT_CLASS (grammar_keypoint_parent_class)->finalize (object);
}

static void
grammar_keypoint_class_init (GrammarKeypointClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_keypoint_finalize;
}

static void
grammar_keypoint_init (GrammarKeypoint *self)
{
}

/**
 * grammar_keypoint_new:
 * @text: the keypoint as a sentence
 * @value: (nullable): the answer value it states, or %NULL
 * @table: (nullable): the table of the value's column, or %NULL
 * @column: (nullable): the column of the value, or %NULL when the
 *   projection is not a plain column (an aggregate, an expression)
 *
 * Returns: (transfer full): a new #GrammarKeypoint
 */
GrammarKeypoint *
grammar_keypoint_new (const char *text,
                      const char *value,
                      const char *table,
                      const char *column)
{
  GrammarKeypoint *self;

  g_return_val_if_fail (text != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_KEYPOINT, NULL);
  self->text = g_strdup (text);
  self->value = g_strdup (value);
  self->table = g_strdup (table);
  self->column = g_strdup (column);
  return self;
}

/**
 * grammar_keypoint_get_text:
 * @self: a #GrammarKeypoint
 *
 * Returns: the keypoint as a sentence
 */
const char *
grammar_keypoint_get_text (GrammarKeypoint *self)
{
  g_return_val_if_fail (GRAMMAR_IS_KEYPOINT (self), NULL);
  return self->text;
}

/**
 * grammar_keypoint_get_value:
 * @self: a #GrammarKeypoint
 *
 * Returns: (nullable): the answer value the keypoint states
 */
const char *
grammar_keypoint_get_value (GrammarKeypoint *self)
{
  g_return_val_if_fail (GRAMMAR_IS_KEYPOINT (self), NULL);
  return self->value;
}

/**
 * grammar_keypoint_get_table:
 * @self: a #GrammarKeypoint
 *
 * Returns: (nullable): the table of the value's column
 */
const char *
grammar_keypoint_get_table (GrammarKeypoint *self)
{
  g_return_val_if_fail (GRAMMAR_IS_KEYPOINT (self), NULL);
  return self->table;
}

/**
 * grammar_keypoint_get_column:
 * @self: a #GrammarKeypoint
 *
 * Returns: (nullable): the column of the value, %NULL when the
 *   projection is not a plain column
 */
const char *
grammar_keypoint_get_column (GrammarKeypoint *self)
{
  g_return_val_if_fail (GRAMMAR_IS_KEYPOINT (self), NULL);
  return self->column;
}

/* Reading the query: the projected columns and the tables they come from */

typedef struct
{
  char *qualifier;   /* nullable */
  char *column;      /* nullable: not a plain column */
  char *aggregate;   /* nullable: count, sum, avg, min, max (lower case) */
  gboolean star;     /* count(*) */
} Projection;

static void
projection_free (Projection *projection)
{
  g_free (projection->qualifier);
  g_free (projection->column);
  g_free (projection->aggregate);
  g_free (projection);
}

typedef struct
{
  GrammarSqlTokenKind kind;
  char *text;        /* unquoted for identifiers */
} Token;

static void
token_clear (Token *token)
{
  g_free (token->text);
}

static GArray *
tokenize (const char *sql)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  const char *p = sql;

  g_array_set_clear_func (tokens, (GDestroyNotify) token_clear);
  for (;;)
    {
      GrammarSqlToken raw;
      Token token;

      p = grammar_sql_lexer_next (p, &raw);
      if (raw.kind == GRAMMAR_SQL_TOKEN_END)
        break;
      if (raw.kind == GRAMMAR_SQL_TOKEN_SPACE || raw.kind == GRAMMAR_SQL_TOKEN_COMMENT ||
          raw.kind == GRAMMAR_SQL_TOKEN_LINE_COMMENT)
        continue;
      token.kind = raw.kind;
      token.text = raw.kind == GRAMMAR_SQL_TOKEN_QUOTED || raw.kind == GRAMMAR_SQL_TOKEN_BRACKET
                     ? grammar_sql_token_unquote (&raw) : g_strndup (raw.start, raw.length);
      if (raw.kind == GRAMMAR_SQL_TOKEN_QUOTED || raw.kind == GRAMMAR_SQL_TOKEN_BRACKET)
        token.kind = GRAMMAR_SQL_TOKEN_QUOTED;
      g_array_append_val (tokens, token);
    }
  return tokens;
}

static gboolean
is_word (const Token *token,
         const char  *word)
{
  return token->kind == GRAMMAR_SQL_TOKEN_WORD && g_ascii_strcasecmp (token->text, word) == 0;
}

static gboolean
is_punct (const Token *token,
          const char  *punct)
{
  return token->kind == GRAMMAR_SQL_TOKEN_PUNCT && g_str_equal (token->text, punct);
}

static gboolean
is_name (const Token *token)
{
  static const char * const keywords[] = {
    "as", "on", "join", "inner", "left", "right", "full", "outer", "cross", "natural", "where", "group", "order",
    "limit", "having", "union", "except", "intersect", "using", "select", "from", NULL,
  };

  if (token->kind == GRAMMAR_SQL_TOKEN_QUOTED)
    return TRUE;
  if (token->kind != GRAMMAR_SQL_TOKEN_WORD)
    return FALSE;
  for (guint i = 0; keywords[i] != NULL; i++)
    if (g_ascii_strcasecmp (token->text, keywords[i]) == 0)
      return FALSE;
  return TRUE;
}

/* [qualifier.]column */
static gboolean
read_column (GArray  *tokens,
             guint    from,
             guint    to,
             char   **qualifier,
             char   **column)
{
  Token *t = &g_array_index (tokens, Token, 0);

  if (to == from + 1 && is_name (&t[from]))
    {
      *qualifier = NULL;
      *column = g_strdup (t[from].text);
      return TRUE;
    }
  if (to == from + 3 && is_name (&t[from]) && is_punct (&t[from + 1], ".") && is_name (&t[from + 2]))
    {
      *qualifier = g_strdup (t[from].text);
      *column = g_strdup (t[from + 2].text);
      return TRUE;
    }
  return FALSE;
}

static Projection *
read_projection (GArray *tokens,
                 guint   from,
                 guint   to)
{
  static const char * const aggregates[] = { "count", "sum", "avg", "min", "max", NULL };
  Token *t = &g_array_index (tokens, Token, 0);
  Projection *projection = g_new0 (Projection, 1);

  /* Drop an alias: "expr AS name" or "expr name". */
  if (to >= from + 3 && is_word (&t[to - 2], "as"))
    to -= 2;
  else if (to >= from + 2 && is_name (&t[to - 1]) && !is_punct (&t[to - 2], "."))
    to -= 1;
  if (read_column (tokens, from, to, &projection->qualifier, &projection->column))
    return projection;
  if (to >= from + 3 && t[from].kind == GRAMMAR_SQL_TOKEN_WORD &&
      is_punct (&t[from + 1], "(") && is_punct (&t[to - 1], ")"))
    {
      for (guint i = 0; aggregates[i] != NULL; i++)
        if (is_word (&t[from], aggregates[i]))
          projection->aggregate = g_strdup (aggregates[i]);
      if (projection->aggregate != NULL)
        {
          guint inner = from + 2;

          if (inner < to - 1 && is_word (&t[inner], "distinct"))
            inner++;
          if (inner == to - 2 && is_punct (&t[inner], "*"))
            projection->star = TRUE;
          else
            read_column (tokens, inner, to - 1, &projection->qualifier, &projection->column);
        }
    }
  return projection;
}

typedef struct
{
  GPtrArray *projections;   /* Projection */
  GHashTable *aliases;      /* alias or table name → table */
  char *first_table;
} Query;

static void
query_clear (Query *query)
{
  g_clear_pointer (&query->projections, g_ptr_array_unref);
  g_clear_pointer (&query->aliases, g_hash_table_unref);
  g_clear_pointer (&query->first_table, g_free);
}

static void
read_query (const char *sql,
            Query      *query)
{
  g_autoptr (GArray) tokens = tokenize (sql);
  Token *t = (Token *) (gpointer) tokens->data;
  guint n = tokens->len, i = 0, start, depth = 0;

  query->projections = g_ptr_array_new_with_free_func ((GDestroyNotify) projection_free);
  query->aliases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  query->first_table = NULL;
  while (i < n && !is_word (&t[i], "select"))
    i++;
  if (i == n)
    return;
  i++;
  if (i < n && (is_word (&t[i], "distinct") || is_word (&t[i], "all")))
    i++;
  for (start = i; i < n; i++)
    {
      if (is_punct (&t[i], "("))
        depth++;
      else if (is_punct (&t[i], ")") && depth > 0)
        depth--;
      if (depth == 0 && (is_punct (&t[i], ",") || is_word (&t[i], "from")))
        {
          if (i > start)
            g_ptr_array_add (query->projections, read_projection (tokens, start, i));
          start = i + 1;
          if (is_word (&t[i], "from"))
            break;
        }
    }
  /* FROM a [AS] x JOIN b [AS] y ON … , c … up to the end of the clause */
  for (gboolean expect_table = TRUE; ++i < n;)
    {
      if (is_punct (&t[i], "("))
        depth++;
      else if (is_punct (&t[i], ")"))
        {
          if (depth == 0)
            break;
          depth--;
        }
      if (depth > 0)
        continue;
      if (is_word (&t[i], "where") || is_word (&t[i], "group") || is_word (&t[i], "order") ||
          is_word (&t[i], "limit") || is_word (&t[i], "union") || is_word (&t[i], "having") ||
          is_word (&t[i], "except") || is_word (&t[i], "intersect"))
        break;
      if (is_word (&t[i], "join") || is_punct (&t[i], ","))
        {
          expect_table = TRUE;
          continue;
        }
      if (expect_table && is_name (&t[i]))
        {
          const char *table = t[i].text;
          guint next = i + 1;

          if (next < n && is_word (&t[next], "as"))
            next++;
          if (next < n && is_name (&t[next]))
            g_hash_table_replace (query->aliases, g_strdup (t[next].text), g_strdup (table));
          g_hash_table_replace (query->aliases, g_strdup (table), g_strdup (table));
          if (query->first_table == NULL)
            query->first_table = g_strdup (table);
          expect_table = FALSE;
        }
    }
}

/* The table of a projected column: its qualifier's, or the only table. */
static const char *
projection_table (Query      *query,
                  Projection *projection)
{
  if (projection->qualifier != NULL)
    return g_hash_table_lookup (query->aliases, projection->qualifier);
  if (query->first_table != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;
      g_autoptr (GHashTable) tables = g_hash_table_new (g_str_hash, g_str_equal);

      g_hash_table_iter_init (&iter, query->aliases);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_hash_table_add (tables, value);
      if (g_hash_table_size (tables) == 1)
        return query->first_table;
    }
  return NULL;
}

/* Phrasing */

static char *
words_of (const char *name)
{
  g_autofree char *lower = g_utf8_strdown (name, -1);

  return g_strdelimit (g_steal_pointer (&lower), "_", ' ');
}

/* A value as the dataset writes it: 154.8, not 154.80000000000001; a
 * decimal's 154.80 as the database wrote it. */
static char *
value_text (JsonNode *node)
{
  return grammar_json_node_dup_text (node);
}

/* "the employee whose name is 'Ada' and whose …", from the bindings
 * ("employee.name": "Ada"); NULL without bindings. */
static char *
subject_of (JsonNode   *bindings,
            const char *table,
            gboolean   *same_table)
{
  JsonObject *object = bindings != NULL && JSON_NODE_HOLDS_OBJECT (bindings) ? json_node_get_object (bindings)
                                                                              : NULL;
  g_autoptr (GList) members = object != NULL ? json_object_get_members (object) : NULL;
  g_autoptr (GString) subject = g_string_new (NULL);
  g_autofree char *last_table = NULL;

  *same_table = FALSE;
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *placeholder = l->data;
      const char *dot = strrchr (placeholder, '.');
      g_autofree char *binding_table = dot != NULL ? g_strndup (placeholder, dot - placeholder) : NULL;
      g_autofree char *column = words_of (dot != NULL ? dot + 1 : placeholder);
      g_autofree char *value = value_text (json_object_get_member (object, placeholder));
      g_autofree char *noun = binding_table != NULL ? words_of (binding_table) : g_strdup ("record");

      if (value == NULL)
        value = g_strdup ("null");
      if (subject->len == 0)
        *same_table = table != NULL && g_strcmp0 (binding_table, table) == 0;
      if (subject->len > 0 && g_strcmp0 (last_table, binding_table) == 0)
        g_string_append_printf (subject, " and whose %s is '%s'", column, value);
      else
        g_string_append_printf (subject, "%sthe %s whose %s is '%s'", subject->len > 0 ? " and " : "", noun,
                                column, value);
      g_free (last_table);
      last_table = g_steal_pointer (&binding_table);
    }
  return subject->len > 0 ? g_string_free (g_steal_pointer (&subject), FALSE) : NULL;
}

/* "the start date", "the number of projects", "the average budget" */
static char *
attribute_of (Projection *projection,
              const char *table,
              guint       index)
{
  g_autofree char *column = projection->column != NULL ? words_of (projection->column) : NULL;
  g_autofree char *noun = table != NULL ? words_of (table) : NULL;

  if (projection->aggregate == NULL)
    return column != NULL ? g_strdup_printf ("the %s", column) : g_strdup_printf ("answer value %u", index + 1);
  if (g_str_equal (projection->aggregate, "count"))
    {
      if (column != NULL)
        return g_strdup_printf ("the number of %s values", column);
      return noun != NULL ? g_strdup_printf ("the number of %s rows", noun) : g_strdup ("the number of rows");
    }
  return g_strdup_printf ("the %s %s",
                          g_str_equal (projection->aggregate, "sum") ? "total"
                          : g_str_equal (projection->aggregate, "avg") ? "average"
                          : g_str_equal (projection->aggregate, "min") ? "lowest" : "highest",
                          column != NULL ? column : "value");
}

/**
 * grammar_keypoint_list_from_record:
 * @record: a dataset record, with `answer` and usually `sql` and `bindings`
 *
 * RAGEval's keypoints of a grounded answer, phrased without a language
 * model: one for every non-null value of every row of the record's
 * `answer`, in order. The keypoint names what the query projects — the
 * column ("the start date"), or its aggregate ("the number of project
 * rows", "the average budget") — and whose it is, from the values bound
 * to the placeholders ("of the project whose name is 'Atlas'"); a
 * single-row answer says "… is VALUE", a longer one "one … is VALUE".
 * The projected column's table comes from its qualifier (aliases
 * resolved) or, for an unqualified column, from the only table of the
 * query; otherwise it is %NULL.
 *
 * Returns: (transfer full) (element-type GrammarKeypoint): the
 *   keypoints, empty when the answer has no value
 */
GPtrArray *
grammar_keypoint_list_from_record (GrammarRecord *record)
{
  GPtrArray *keypoints = g_ptr_array_new_with_free_func (g_object_unref);
  JsonNode *answer;
  JsonArray *rows;
  Query query = { 0 };
  const char *sql;

  g_return_val_if_fail (GRAMMAR_IS_RECORD (record), keypoints);

  answer = grammar_record_get_answer (record);
  if (answer == NULL || !JSON_NODE_HOLDS_ARRAY (answer))
    return keypoints;
  rows = json_node_get_array (answer);
  sql = grammar_record_get_sql (record);
  read_query (sql != NULL ? sql : "", &query);
  for (guint r = 0; r < json_array_get_length (rows); r++)
    {
      JsonNode *row = json_array_get_element (rows, r);
      JsonArray *cells = JSON_NODE_HOLDS_ARRAY (row) ? json_node_get_array (row) : NULL;

      for (guint c = 0; cells != NULL && c < json_array_get_length (cells); c++)
        {
          g_autofree char *value = value_text (json_array_get_element (cells, c));
          Projection *projection = c < query.projections->len ? g_ptr_array_index (query.projections, c) : NULL;
          Projection none = { 0 };
          const char *table;
          g_autofree char *attribute = NULL;
          g_autofree char *subject = NULL;
          g_autofree char *owner = NULL;
          g_autofree char *text = NULL;
          gboolean same_table;

          if (value == NULL)
            continue;
          if (projection == NULL)
            projection = &none;
          table = projection_table (&query, projection);
          attribute = attribute_of (projection, table, c);
          subject = subject_of (grammar_record_get_bindings (record), table, &same_table);
          if (subject != NULL && (same_table || table == NULL || projection->aggregate != NULL))
            owner = g_strdup_printf (" of %s", subject);
          else if (subject != NULL)
            {
              g_autofree char *noun = words_of (table);

              owner = g_strdup_printf (" of the %s for %s", noun, subject);
            }
          else if (table != NULL && projection->aggregate == NULL)
            {
              g_autofree char *noun = words_of (table);

              owner = g_strdup_printf (" of a %s", noun);
            }
          else
            owner = g_strdup ("");
          text = json_array_get_length (rows) > 1
                   ? g_strdup_printf ("one of %s%s is %s", attribute, owner, value)
                   : g_strdup_printf ("%s%s is %s", attribute, owner, value);
          g_ptr_array_add (keypoints, grammar_keypoint_new (text, value, projection->aggregate == NULL ? table : NULL,
                                                            projection->aggregate == NULL ? projection->column
                                                                                          : NULL));
        }
    }
  query_clear (&query);
  return keypoints;
}

/**
 * grammar_keypoint_list_to_reference:
 * @keypoints: (element-type GrammarKeypoint): keypoints
 *
 * A reference answer made of the keypoints: each as a sentence, its
 * first letter upper-case, ending with a full stop, separated by spaces.
 * RAGEval asks a language model for keypoints of a reference answer; this
 * is the reference the product gives it.
 *
 * Returns: (transfer full): the reference answer, "" without keypoints
 */
char *
grammar_keypoint_list_to_reference (GPtrArray *keypoints)
{
  g_autoptr (GString) text = g_string_new (NULL);

  g_return_val_if_fail (keypoints != NULL, NULL);

  for (guint i = 0; i < keypoints->len; i++)
    {
      const char *sentence = grammar_keypoint_get_text (g_ptr_array_index (keypoints, i));
      gunichar first = g_utf8_get_char (sentence);
      char buffer[8];
      gsize length = g_unichar_to_utf8 (g_unichar_toupper (first), buffer);

      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append_len (text, buffer, length);
      g_string_append (text, g_utf8_next_char (sentence));
      g_string_append_c (text, '.');
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}
