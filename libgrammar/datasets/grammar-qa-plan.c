/* grammar-qa-plan.c: the set-based plan of a SQL template: its clauses, keys and ground-truth documents
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "grammar-qa-generator-private.h"
#include "grammar-database-private.h"
#include "grammar-document.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-sql-lexer-private.h"
#include "grammar-qa-generator.h"

/* Set-based planning --------------------------------------------------- */

/* A small SQL scanner, enough to find the top-level clauses of a SELECT
 * and the shape of its WHERE conjuncts. It works on the bound SQL, where
 * placeholders are already `?N` parameters. */

/* The tokens of @sql without spaces and comments, from the SQL lexer:
 * offsets, parenthesis depth, and the number of a `?N` parameter. */
static GArray *
tokenize (const char *sql)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (GrammarQaToken));
  const char *p = sql;
  int depth = 0;

  for (;;)
    {
      GrammarSqlToken sql_token;
      const char *end = grammar_sql_lexer_next (p, &sql_token);
      GrammarQaToken token = { 0 };

      switch (sql_token.kind)
        {
        case GRAMMAR_SQL_TOKEN_END:
          return tokens;
        case GRAMMAR_SQL_TOKEN_SPACE:
        case GRAMMAR_SQL_TOKEN_LINE_COMMENT:
        case GRAMMAR_SQL_TOKEN_COMMENT:
          p = end;
          continue;
        case GRAMMAR_SQL_TOKEN_WORD: token.kind = GRAMMAR_QA_TOKEN_WORD; break;
        case GRAMMAR_SQL_TOKEN_QUOTED:
        case GRAMMAR_SQL_TOKEN_BRACKET: token.kind = GRAMMAR_QA_TOKEN_QUOTED; break;
        case GRAMMAR_SQL_TOKEN_STRING: token.kind = GRAMMAR_QA_TOKEN_STRING; break;
        case GRAMMAR_SQL_TOKEN_NUMBER: token.kind = GRAMMAR_QA_TOKEN_NUMBER; break;
        case GRAMMAR_SQL_TOKEN_PARAM: token.kind = GRAMMAR_QA_TOKEN_PARAM; break;
        case GRAMMAR_SQL_TOKEN_PUNCT:
        default: token.kind = GRAMMAR_QA_TOKEN_PUNCT; break;
        }
      if (token.kind == GRAMMAR_QA_TOKEN_PARAM && *p == '?' && sql_token.length > 1 && sql_token.length < 9)
        token.param = atoi (p + 1);
      token.start = p - sql;
      token.end = end - sql;
      if (token.kind == GRAMMAR_QA_TOKEN_PUNCT && *p == ')' && depth > 0)
        depth--;
      token.depth = depth;
      if (token.kind == GRAMMAR_QA_TOKEN_PUNCT && *p == '(')
        depth++;
      g_array_append_val (tokens, token);
      p = end;
    }
}

static GrammarQaToken *
scan_token_at (GrammarQaScan *scan,
               guint          index)
{
  return &g_array_index (scan->tokens, GrammarQaToken, index);
}

static gboolean
token_is_word (GrammarQaScan *scan,
               guint          index,
               const char    *word)
{
  GrammarQaToken *token;

  if (index >= scan->tokens->len)
    return FALSE;
  token = scan_token_at (scan, index);
  return token->kind == GRAMMAR_QA_TOKEN_WORD &&
         token->end - token->start == strlen (word) &&
         g_ascii_strncasecmp (scan->sql + token->start, word, token->end - token->start) == 0;
}

static gboolean
token_is_one_of (GrammarQaScan      *scan,
                 guint               index,
                 const char * const *words)
{
  for (guint i = 0; words[i] != NULL; i++)
    if (token_is_word (scan, index, words[i]))
      return TRUE;
  return FALSE;
}

static gboolean
token_is_punct (GrammarQaScan *scan,
                guint          index,
                const char    *punct)
{
  GrammarQaToken *token;

  if (index >= scan->tokens->len)
    return FALSE;
  token = scan_token_at (scan, index);
  return token->kind == GRAMMAR_QA_TOKEN_PUNCT &&
         token->end - token->start == strlen (punct) &&
         strncmp (scan->sql + token->start, punct, token->end - token->start) == 0;
}

static gboolean
token_is_name (GrammarQaScan *scan,
               guint          index)
{
  return index < scan->tokens->len &&
         (scan_token_at (scan, index)->kind == GRAMMAR_QA_TOKEN_WORD ||
          scan_token_at (scan, index)->kind == GRAMMAR_QA_TOKEN_QUOTED);
}

/* A token as the SQL text spells it, quotes included. */
static char *
token_dup_text (GrammarQaScan *scan,
                guint          index)
{
  GrammarQaToken *token = scan_token_at (scan, index);

  return g_strndup (scan->sql + token->start, token->end - token->start);
}

/* The identifier a name token stands for, without its quotes. */
static char *
token_dup_name (GrammarQaScan *scan,
                guint          index)
{
  GrammarQaToken *token = scan_token_at (scan, index);
  const char *text = scan->sql + token->start;
  guint length = token->end - token->start;
  GString *name;
  char close;

  if (token->kind != GRAMMAR_QA_TOKEN_QUOTED || length < 2)
    return g_strndup (text, length);

  close = text[0] == '[' ? ']' : text[0];
  name = g_string_sized_new (length);
  for (guint i = 1; i + 1 < length; i++)
    {
      g_string_append_c (name, text[i]);
      if (close != ']' && text[i] == close && text[i + 1] == close)
        i++;
    }
  return g_string_free (name, FALSE);
}

/* The index of the parenthesis that closes the one at @open. */
static guint
matching_paren (GrammarQaScan *scan,
                guint          open)
{
  int depth = scan_token_at (scan, open)->depth;

  for (guint i = open + 1; i < scan->tokens->len; i++)
    if (scan_token_at (scan, i)->depth == depth && token_is_punct (scan, i, ")"))
      return i;
  return scan->tokens->len;
}

/* Set-based planning. */

static void
source_free (GrammarQaSource *source)
{
  g_free (source->table);
  g_free (source->alias);
  g_free (source->qualifier);
  g_free (source);
}

void
grammar_qa_from_clause_clear (GrammarQaFromClause *from)
{
  g_clear_pointer (&from->sources, g_ptr_array_unref);
  g_clear_pointer (&from->conditions, g_array_unref);
}

static const char * const refused_clauses[] = {
  "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT", "WINDOW", "VALUES", NULL,
};

/* Aggregates give one row even for an empty match (count 0), which only
 * running each binding reproduces. */
static const char * const aggregate_functions[] = {
  "count", "sum", "total", "avg", "min", "max", "group_concat", "string_agg",
  "json_group_array", "json_group_object", "jsonb_group_array", "jsonb_group_object",
  "median", "percentile", "percentile_cont", "percentile_disc", "mode", "stddev", "variance", NULL,
};

/* Words that end a table reference in FROM rather than alias it. */
static const char * const not_aliases[] = {
  "ON", "USING", "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "OUTER", "CROSS", "NATURAL",
  "WHERE", "INDEXED", "NOT", "GROUP", "ORDER", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "WINDOW", NULL,
};

/* Words that start the next join of a FROM clause. */
static const char * const join_words[] = {
  "JOIN", "INNER", "CROSS", "LEFT", "RIGHT", "FULL", "NATURAL", NULL,
};

static const char * const outer_join_words[] = {
  "LEFT", "RIGHT", "FULL", "OUTER", "NATURAL", "USING", NULL,
};

static gboolean
refuse (GError     **error,
        const char  *template_id,
        const char  *reason)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
               "%s: no set-based plan: %s", template_id, reason);
  return FALSE;
}

static gboolean
range_has_param (GrammarQaScan  *scan,
                 GrammarQaRange  range)
{
  for (guint i = range.first; i < range.last; i++)
    if (scan_token_at (scan, i)->kind == GRAMMAR_QA_TOKEN_PARAM)
      return TRUE;
  return FALSE;
}

/* Reads one table reference starting at token @i; returns the index of
 * its last token. */
static guint
parse_source (GrammarQaScan *scan,
              guint          i,
              guint          last,
              GrammarSchema *schema,
              GPtrArray     *sources)
{
  GrammarQaSource *source = g_new0 (GrammarQaSource, 1);

  if (token_is_punct (scan, i, "("))
    i = matching_paren (scan, i);
  else if (token_is_name (scan, i))
    {
      /* schema.table names the table after the dot */
      if (token_is_punct (scan, i + 1, ".") && token_is_name (scan, i + 2))
        i += 2;
      if (token_is_punct (scan, i + 1, "("))
        i = matching_paren (scan, i + 1);  /* a table-valued function */
      else
        {
          source->table = token_dup_name (scan, i);
          source->qualifier = token_dup_text (scan, i);
        }
    }
  if (token_is_word (scan, i + 1, "AS") && token_is_name (scan, i + 2))
    i++;
  if (i + 1 < last && token_is_name (scan, i + 1) && !token_is_one_of (scan, i + 1, not_aliases))
    {
      source->alias = token_dup_name (scan, ++i);
      g_free (source->qualifier);
      source->qualifier = token_dup_text (scan, i);
    }
  if (source->table != NULL && schema != NULL)
    source->schema_table = grammar_schema_get_table (schema, source->table);
  g_ptr_array_add (sources, source);
  return i;
}

/* Splits the condition at its top-level ANDs, keeping the AND of a
 * BETWEEN and those inside CASE … END. */
static void
split_conjuncts (GrammarQaScan  *scan,
                 GrammarQaRange  condition,
                 GArray         *conjuncts)
{
  GrammarQaRange current = { condition.first, condition.first };
  gboolean in_between = FALSE;
  int depth = condition.first < condition.last ? scan_token_at (scan, condition.first)->depth : 0;
  int case_depth = 0;

  for (guint i = condition.first; i < condition.last; i++)
    {
      if (scan_token_at (scan, i)->depth != depth)
        continue;
      if (token_is_word (scan, i, "CASE"))
        case_depth++;
      else if (token_is_word (scan, i, "END") && case_depth > 0)
        case_depth--;
      else if (case_depth == 0 && token_is_word (scan, i, "BETWEEN"))
        in_between = TRUE;
      else if (case_depth == 0 && token_is_word (scan, i, "AND"))
        {
          if (in_between)
            {
              in_between = FALSE;
              continue;
            }
          current.last = i;
          g_array_append_val (conjuncts, current);
          current.first = i + 1;
        }
    }
  current.last = condition.last;
  g_array_append_val (conjuncts, current);
}

/* Reads the table references of FROM … (tokens @range) and the
 * conditions of their ON clauses. */
static void
parse_from (GrammarQaScan       *scan,
            GrammarQaRange       range,
            GrammarSchema       *schema,
            GrammarQaFromClause *from)
{
  gboolean expect_source = TRUE;

  from->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) source_free);
  from->conditions = g_array_new (FALSE, FALSE, sizeof (GrammarQaRange));
  from->outer = FALSE;

  for (guint i = range.first; i < range.last; i++)
    {
      if (scan_token_at (scan, i)->depth != 0)
        continue;
      if (expect_source)
        {
          expect_source = FALSE;
          i = parse_source (scan, i, range.last, schema, from->sources);
        }
      else if (token_is_one_of (scan, i, outer_join_words))
        from->outer = TRUE;
      else if (token_is_punct (scan, i, ",") || token_is_word (scan, i, "JOIN"))
        expect_source = TRUE;
      else if (token_is_word (scan, i, "ON"))
        {
          GrammarQaRange condition = { i + 1, i + 1 };

          while (condition.last < range.last &&
                 (scan_token_at (scan, condition.last)->depth != 0 ||
                  (!token_is_punct (scan, condition.last, ",") &&
                   !token_is_one_of (scan, condition.last, join_words))))
            condition.last++;
          if (condition.last > condition.first)
            split_conjuncts (scan, condition, from->conditions);
          i = condition.last - 1;
        }
    }
}

/* The source a column reference (one name, or qualifier.name) reads,
 * or -1 when that cannot be told from the text and the schema. */
static int
resolve_column (GrammarQaScan   *scan,
                GrammarQaRange   ref,
                GPtrArray       *sources,
                char           **column)
{
  g_autofree char *qualifier = NULL;
  int found = -1;

  *column = token_dup_name (scan, ref.last - 1);
  if (ref.last - ref.first == 3)
    qualifier = token_dup_name (scan, ref.first);

  for (guint i = 0; i < sources->len; i++)
    {
      GrammarQaSource *source = g_ptr_array_index (sources, i);

      if (qualifier != NULL)
        {
          if ((source->alias != NULL && g_ascii_strcasecmp (source->alias, qualifier) == 0) ||
              (source->alias == NULL && source->table != NULL && g_ascii_strcasecmp (source->table, qualifier) == 0))
            return i;
        }
      else if (source->schema_table == NULL ||
               grammar_table_get_column (source->schema_table, *column) != NULL)
        {
          /* an unqualified name must be in exactly one source */
          if (found >= 0 || source->schema_table == NULL)
            return -1;
          found = i;
        }
    }
  return found;
}

/* Whether the column reference at @ref (one name, or qualifier.name)
 * is the placeholder's column in the placeholder's table. Only then is
 * every value the key takes a distinct value of the placeholder column. */
static gboolean
column_is_placeholder (GrammarQaScan      *scan,
                       GrammarQaRange      ref,
                       GPtrArray          *sources,
                       GrammarSqlTemplate *sql_template,
                       guint               placeholder)
{
  const char *table = grammar_sql_template_get_placeholder_table (sql_template, placeholder);
  const char *column = grammar_sql_template_get_placeholder_column (sql_template, placeholder);
  g_autofree char *name = token_dup_name (scan, ref.last - 1);
  g_autofree char *qualifier = NULL;
  guint n_matches = 0;

  if (g_ascii_strcasecmp (name, column) != 0)
    return FALSE;
  if (ref.last - ref.first == 3)
    qualifier = token_dup_name (scan, ref.first);

  for (guint i = 0; i < sources->len; i++)
    {
      GrammarQaSource *source = g_ptr_array_index (sources, i);

      if (qualifier != NULL && source->alias != NULL && g_ascii_strcasecmp (source->alias, qualifier) == 0)
        return source->table != NULL && g_ascii_strcasecmp (source->table, table) == 0;
      if (source->table != NULL && g_ascii_strcasecmp (source->table, table) == 0 &&
          (qualifier == NULL || (source->alias == NULL && g_ascii_strcasecmp (source->table, qualifier) == 0)))
        n_matches++;
    }
  /* An unqualified column must not be ambiguous between two uses of the table. */
  return n_matches == 1;
}

/* A column reference, one name or two joined by a dot, exactly filling [@first, @last). */
static gboolean
is_column_ref (GrammarQaScan *scan,
               guint          first,
               guint          last)
{
  if (last - first == 1)
    return token_is_name (scan, first);
  return last - first == 3 && token_is_name (scan, first) && token_is_punct (scan, first + 1, ".") &&
         token_is_name (scan, first + 2);
}

static gboolean
is_literal (GrammarQaScan *scan,
            guint          first,
            guint          last)
{
  GrammarQaTokenKind kind;

  if (last - first == 2 && (token_is_punct (scan, first, "-") || token_is_punct (scan, first, "+")))
    first++;
  if (last - first != 1)
    return FALSE;
  kind = scan_token_at (scan, first)->kind;
  return kind == GRAMMAR_QA_TOKEN_STRING || kind == GRAMMAR_QA_TOKEN_NUMBER;
}

/* Splits `left = right` (possibly in parentheses) into its sides. */
static gboolean
split_equality (GrammarQaScan  *scan,
                GrammarQaRange  conjunct,
                GrammarQaRange *left,
                GrammarQaRange *right)
{
  guint first = conjunct.first, last = conjunct.last;

  while (last - first > 2 && token_is_punct (scan, first, "(") && matching_paren (scan, first) == last - 1)
    {
      first++;
      last--;
    }
  for (guint i = first + 1; i + 1 < last; i++)
    if (scan_token_at (scan, i)->depth == scan_token_at (scan, first)->depth &&
        (token_is_punct (scan, i, "=") || token_is_punct (scan, i, "==")))
      {
        *left = (GrammarQaRange) { first, i };
        *right = (GrammarQaRange) { i + 1, last };
        return TRUE;
      }
  return FALSE;
}

/* Recognises `column = ?N` or `?N = column` in @conjunct. Returns N, or
 * 0 when the conjunct has another shape. */
static int
parse_placeholder_equality (GrammarQaScan  *scan,
                            GrammarQaRange  conjunct,
                            GrammarQaRange *column)
{
  GrammarQaRange left, right;

  if (!split_equality (scan, conjunct, &left, &right))
    return 0;
  if (right.last - right.first == 1 && scan_token_at (scan, right.first)->kind == GRAMMAR_QA_TOKEN_PARAM &&
      is_column_ref (scan, left.first, left.last))
    {
      *column = left;
      return scan_token_at (scan, right.first)->param;
    }
  if (left.last - left.first == 1 && scan_token_at (scan, left.first)->kind == GRAMMAR_QA_TOKEN_PARAM &&
      is_column_ref (scan, right.first, right.last))
    {
      *column = right;
      return scan_token_at (scan, left.first)->param;
    }
  return 0;
}

/* Uniqueness: when every source of the FROM clause has at most one row
 * per binding, each binding is at most one result row, and the rows
 * need no ordering to come grouped. A source has at most one row when
 * all columns of one of its declared keys are bound: to a placeholder,
 * to a literal, or by an equality to a bound column. */

static char *
bound_key (int         source,
           const char *column)
{
  g_autofree char *lower = g_ascii_strdown (column, -1);

  return g_strdup_printf ("%d:%s", source, lower);
}

static gboolean
bind_column (GrammarQaBinding *binding,
             int               source,
             const char       *column)
{
  return source >= 0 && g_hash_table_add (binding->bound, bound_key (source, column));
}

static gboolean
is_bound (GrammarQaBinding  *binding,
          GrammarQaRange     ref,
          int               *source,
          char             **column)
{
  g_autofree char *key = NULL;

  *source = resolve_column (binding->scan, ref, binding->from->sources, column);
  if (*source < 0)
    return FALSE;
  key = bound_key (*source, *column);
  return g_hash_table_contains (binding->bound, key);
}

/* Follows one `a = b` condition; returns whether it bound a column. */
static gboolean
propagate_equality (GrammarQaBinding *binding,
                    GrammarQaRange    conjunct)
{
  GrammarQaScan *scan = binding->scan;
  g_autofree char *left_column = NULL;
  g_autofree char *right_column = NULL;
  GrammarQaRange left, right;
  int left_source, right_source;
  gboolean left_bound, right_bound;

  if (!split_equality (scan, conjunct, &left, &right) || range_has_param (scan, conjunct))
    return FALSE;
  if (is_column_ref (scan, left.first, left.last) && is_literal (scan, right.first, right.last))
    {
      is_bound (binding, left, &left_source, &left_column);
      return bind_column (binding, left_source, left_column);
    }
  if (is_literal (scan, left.first, left.last) && is_column_ref (scan, right.first, right.last))
    {
      is_bound (binding, right, &right_source, &right_column);
      return bind_column (binding, right_source, right_column);
    }
  if (!is_column_ref (scan, left.first, left.last) || !is_column_ref (scan, right.first, right.last))
    return FALSE;
  left_bound = is_bound (binding, left, &left_source, &left_column);
  right_bound = is_bound (binding, right, &right_source, &right_column);
  if (left_bound && !right_bound)
    return bind_column (binding, right_source, right_column);
  if (right_bound && !left_bound)
    return bind_column (binding, left_source, left_column);
  return FALSE;
}

static gboolean
key_is_bound (GrammarQaBinding   *binding,
              int                 source,
              const char * const *columns)
{
  if (columns == NULL || columns[0] == NULL)
    return FALSE;
  for (guint c = 0; columns[c] != NULL; c++)
    {
      g_autofree char *key = bound_key (source, columns[c]);

      if (!g_hash_table_contains (binding->bound, key))
        return FALSE;
    }
  return TRUE;
}

/* Marks @source determined when one of its keys is bound; then all its
 * columns are bound. */
static gboolean
determine_source (GrammarQaBinding *binding,
                  int               index)
{
  GrammarQaSource *source = g_ptr_array_index (binding->from->sources, index);
  g_auto (GStrv) primary_key = NULL;
  gboolean determined;
  GPtrArray *columns;

  if (source->determined || source->schema_table == NULL)
    return FALSE;
  primary_key = grammar_table_dup_primary_key (source->schema_table);
  determined = key_is_bound (binding, index, (const char * const *) primary_key);
  for (guint u = 0; !determined && u < grammar_table_get_n_unique_constraints (source->schema_table); u++)
    determined = key_is_bound (binding, index, grammar_table_get_unique_constraint (source->schema_table, u));
  if (!determined)
    return FALSE;

  source->determined = TRUE;
  columns = grammar_table_get_columns (source->schema_table);
  for (guint c = 0; c < columns->len; c++)
    bind_column (binding, index, grammar_column_get_name (g_ptr_array_index (columns, c)));
  return TRUE;
}

static gboolean
keys_are_unique (GrammarQaScan       *scan,
                 GrammarQaFromClause *from,
                 GrammarQaRange      *keys,
                 guint                n_keys,
                 GArray              *others)
{
  g_autoptr (GHashTable) bound = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GrammarQaBinding binding = { scan, from, bound };
  gboolean changed = TRUE;

  if (from->outer)
    return FALSE;
  for (guint k = 0; k < n_keys; k++)
    {
      g_autofree char *column = NULL;
      int source = resolve_column (scan, keys[k], from->sources, &column);

      bind_column (&binding, source, column);
    }
  while (changed)
    {
      changed = FALSE;
      for (guint c = 0; c < from->conditions->len; c++)
        changed |= propagate_equality (&binding, g_array_index (from->conditions, GrammarQaRange, c));
      for (guint c = 0; c < others->len; c++)
        changed |= propagate_equality (&binding, g_array_index (others, GrammarQaRange, c));
      for (guint s = 0; s < from->sources->len; s++)
        changed |= determine_source (&binding, s);
    }
  for (guint s = 0; s < from->sources->len; s++)
    if (!((GrammarQaSource *) g_ptr_array_index (from->sources, s))->determined)
      return FALSE;
  return TRUE;
}

static void
append_range (GString        *out,
              GrammarQaScan  *scan,
              GrammarQaRange  range)
{
  guint start = scan_token_at (scan, range.first)->start;
  guint end = scan_token_at (scan, range.last - 1)->end;

  g_string_append_len (out, scan->sql + start, end - start);
}

/* Finds FROM and WHERE at the top level, and refuses clauses after which
 * rows are no longer the template's rows filtered by the placeholders. */
static gboolean
find_clauses (GrammarQaScan  *scan,
              const char     *template_id,
              guint          *from,
              guint          *where,
              GError        **error)
{
  *from = *where = 0;
  for (guint i = 1; i < scan->tokens->len; i++)
    {
      if (token_is_word (scan, i, "OVER"))
        return refuse (error, template_id, "it uses a window function");
      if (scan_token_at (scan, i)->depth != 0)
        continue;
      if (token_is_one_of (scan, i, refused_clauses))
        {
          g_autofree char *word = token_dup_name (scan, i);
          g_autofree char *reason = g_strdup_printf ("it has a top-level %s", word);

          return refuse (error, template_id, reason);
        }
      if (*from == 0 && token_is_word (scan, i, "FROM"))
        *from = i;
      else if (*from != 0 && *where == 0 && token_is_word (scan, i, "WHERE"))
        *where = i;
    }
  if (*from == 0 || *where == 0)
    return refuse (error, template_id, "it has no top-level FROM … WHERE");
  return TRUE;
}

static gboolean
select_list_is_plain (GrammarQaScan   *scan,
                      GrammarQaRange   list,
                      const char      *template_id,
                      GError         **error)
{
  for (guint i = list.first; i < list.last; i++)
    {
      if (token_is_one_of (scan, i, aggregate_functions) && token_is_punct (scan, i + 1, "("))
        return refuse (error, template_id, "its select list has an aggregate, which answers even an empty match");
      if (scan_token_at (scan, i)->kind == GRAMMAR_QA_TOKEN_PARAM)
        return refuse (error, template_id, "a placeholder occurs in its select list");
    }
  return TRUE;
}

/* @extra: columns appended to the select list (", a.b, …"), or %NULL;
 * @drop_distinct: leave out the DISTINCT of the select list (the rows
 * are then made distinct by the reader). */
/* A key as the query selects it: in the binary form of @database's
 * dialect (SQLite's when there is none), so that equal keys come
 * together and sort the same way on every backend. */
static char *
range_dup (GrammarQaScan  *scan,
           GrammarQaRange  range)
{
  GString *out = g_string_new (NULL);

  append_range (out, scan, range);
  return g_string_free (out, FALSE);
}

static char *
key_form (GrammarQaScan      *scan,
          GrammarQaRange      key,
          GrammarDatabase    *database,
          GrammarSqlTemplate *sql_template,
          GrammarSchema      *schema,
          guint               placeholder)
{
  g_autofree char *expression = range_dup (scan, key);
  GrammarTable *table = schema != NULL
    ? grammar_schema_get_table (schema, grammar_sql_template_get_placeholder_table (sql_template, placeholder))
    : NULL;
  GrammarColumn *column = table != NULL
    ? grammar_table_get_column (table, grammar_sql_template_get_placeholder_column (sql_template, placeholder))
    : NULL;
  const char *declared_type = column != NULL ? grammar_column_get_declared_type (column) : NULL;

  if (database == NULL)
    return grammar_database_sqlite_sql_form (GRAMMAR_SQL_FORM_BINARY, expression);
  return grammar_database_sql_form (database, GRAMMAR_SQL_FORM_BINARY, expression, declared_type);
}

static char *
build_set_based_query (GrammarQaScan   *scan,
                       guint            list_start,
                       guint            from,
                       guint            where,
                       GArray          *others,
                       GrammarQaRange  *keys,
                       char           **key_forms,
                       guint            n_keys,
                       gboolean         ordered,
                       const char      *extra,
                       gboolean         drop_distinct)
{
  GString *out = g_string_new (NULL);
  const char *separator = "";

  g_string_append_len (out, scan->sql, scan_token_at (scan, drop_distinct ? 1 : list_start)->start);
  for (guint k = 0; k < n_keys; k++)
    g_string_append_printf (out, "%s, ", key_forms[k]);
  g_string_append_len (out, scan->sql + scan_token_at (scan, list_start)->start,
                       scan_token_at (scan, from)->start - scan_token_at (scan, list_start)->start);
  if (extra != NULL)
    {
      while (out->len > 0 && g_ascii_isspace (out->str[out->len - 1]))
        g_string_truncate (out, out->len - 1);
      g_string_append_printf (out, "%s ", extra);
    }
  g_string_append_len (out, scan->sql + scan_token_at (scan, from)->start,
                       scan_token_at (scan, where)->start - scan_token_at (scan, from)->start);
  g_string_append (out, "WHERE ");
  for (guint c = 0; c < others->len; c++)
    {
      g_string_append_printf (out, "%s(", separator);
      append_range (out, scan, g_array_index (others, GrammarQaRange, c));
      g_string_append (out, ")");
      separator = " AND ";
    }
  for (guint k = 0; k < n_keys; k++)
    {
      g_string_append (out, separator);
      append_range (out, scan, keys[k]);
      g_string_append (out, " IS NOT NULL");
      separator = " AND ";
    }
  if (!ordered)
    return g_string_free (out, FALSE);

  /* By position, as a result alias could shadow a column name; the
   * keys are selected in their binary form, so that equal keys are
   * adjacent whatever the column's collation. */
  g_string_append (out, " ORDER BY ");
  for (guint k = 0; k < n_keys; k++)
    g_string_append_printf (out, "%s%u", k > 0 ? ", " : "", k + 1);
  return g_string_free (out, FALSE);
}

/* Assigns each placeholder conjunct to its key; the others are kept. */
static gboolean
collect_conjuncts (GrammarQaScan       *scan,
                   GArray              *conjuncts,
                   GPtrArray           *sources,
                   GrammarSqlTemplate  *sql_template,
                   GrammarQaRange      *keys,
                   GArray              *others,
                   GError             **error)
{
  const char *id = grammar_sql_template_get_id (sql_template);
  guint n_keys = grammar_sql_template_get_n_placeholders (sql_template);

  for (guint c = 0; c < conjuncts->len; c++)
    {
      GrammarQaRange conjunct = g_array_index (conjuncts, GrammarQaRange, c);
      GrammarQaRange column = { 0, 0 };
      int param;

      if (conjunct.first >= conjunct.last)
        return refuse (error, id, "its WHERE clause has an empty condition");
      if (!range_has_param (scan, conjunct))
        {
          g_array_append_val (others, conjunct);
          continue;
        }
      param = parse_placeholder_equality (scan, conjunct, &column);
      if (param < 1 || (guint) param > n_keys)
        return refuse (error, id, "a placeholder is not in a top-level “column = placeholder” condition");
      if (keys[param - 1].last != 0)
        return refuse (error, id, "a placeholder is used more than once");
      if (!column_is_placeholder (scan, column, sources, sql_template, param - 1))
        return refuse (error, id, "a placeholder is compared with another column than its own");
      keys[param - 1] = column;
    }
  for (guint k = 0; k < n_keys; k++)
    if (keys[k].last == 0)
      return refuse (error, id, "a placeholder occurs outside the top-level WHERE conditions");
  return TRUE;
}

/* Ground-truth documents. A document's source is a row: its table and
 * its primary key. The rows a filled query reads are found by adding
 * the primary key columns of every table of its FROM clause that has
 * documents to the query (or to a second query, for templates answered
 * per binding); each key is turned into a canonical text that the
 * documents' keys are looked up by. */

static void
doc_source_free (GrammarQaDocSource *source)
{
  g_free (source->prefix);
  g_strfreev (source->names);
  g_free (source->columns);
  g_free (source);
}

static void
refuse_documents (GError     **error,
                  const char  *template_id,
                  const char  *reason)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
               "template %s: no doc_ids: %s", template_id, reason);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The source's key columns, as `, alias."column"` into @extra: the
 * alias as the statement spells it (a bare `T1` is `t1` to PostgreSQL),
 * the column quoted in the database's dialect. */
static GrammarQaDocSource *
doc_source_new (GrammarDatabase *database,
                GrammarQaSource *source,
                GString         *extra,
                guint            first)
{
  g_auto (GStrv) key = grammar_table_dup_primary_key (source->schema_table);
  const char *qualifier = source->qualifier;
  g_autofree char *table = g_ascii_strdown (grammar_table_get_name (source->schema_table), -1);
  GrammarQaDocSource *doc_source;
  guint n = g_strv_length (key);

  if (n == 0)
    return NULL;
  doc_source = g_new0 (GrammarQaDocSource, 1);
  doc_source->prefix = g_strconcat (table, "\x1d", NULL);
  doc_source->n_columns = n;
  doc_source->names = g_new0 (char *, n + 1);
  doc_source->columns = g_new0 (guint, n);
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *column = grammar_database_quote_identifier (database, key[k]);

      g_string_append_printf (extra, ", %s.%s", qualifier, column);
      doc_source->names[k] = g_ascii_strdown (key[k], -1);
    }
  qsort (doc_source->names, n, sizeof (char *), compare_names);
  for (guint k = 0; k < n; k++)
    for (guint c = 0; c < n; c++)
      if (g_ascii_strcasecmp (key[c], doc_source->names[k]) == 0)
        doc_source->columns[k] = first + c;
  return doc_source;
}

/* The key columns of the sources of @from that have documents, as
 * `, "a"."x", "b"."y"` into @extra; FALSE when there are none. */
static gboolean
plan_doc_columns (GrammarDatabase      *database,
                  GrammarQaFromClause  *from,
                  GrammarQaDocPlan     *docs,
                  char                **extra)
{
  g_autoptr (GString) columns = g_string_new (NULL);
  g_autoptr (GPtrArray) sources = g_ptr_array_new_with_free_func ((GDestroyNotify) doc_source_free);
  guint n_columns = 0;

  for (guint i = 0; i < from->sources->len; i++)
    {
      GrammarQaSource *source = g_ptr_array_index (from->sources, i);
      g_autofree char *table = NULL;
      GrammarQaDocSource *doc_source;

      if (source->schema_table == NULL)
        continue;
      table = g_ascii_strdown (grammar_table_get_name (source->schema_table), -1);
      if (!g_hash_table_contains (docs->tables, table))
        continue;
      doc_source = doc_source_new (database, source, columns, n_columns);
      if (doc_source == NULL)
        continue;
      n_columns += doc_source->n_columns;
      g_ptr_array_add (sources, doc_source);
    }
  if (sources->len == 0)
    return FALSE;
  docs->sources = g_steal_pointer (&sources);
  docs->n_columns = n_columns;
  *extra = g_strdup (columns->str);
  return TRUE;
}

/* The rows a template answered per binding reads: its FROM … WHERE with
 * the key columns as the select list, and the placeholders left
 * outside that range kept as columns, so that the parameters stay
 * those of the template. %NULL when no table it reads has documents
 * (without @error) or when its shape is not understood. */
char *
grammar_qa_plan_doc_query (GrammarSqlTemplate  *sql_template,
                           GrammarSchema       *schema,
                           GrammarDatabase     *database,
                           GrammarQaDocPlan    *docs,
                           GError             **error)
{
  static const char * const compound[] = { "UNION", "INTERSECT", "EXCEPT", NULL };
  const char *id = grammar_sql_template_get_id (sql_template);
  g_autoptr (GArray) tokens = NULL;
  g_auto (GrammarQaFromClause) from_clause = { 0, };
  g_autofree char *extra = NULL;
  GString *query;
  guint from = 0, where = 0, end;
  GrammarQaScan scan;

  scan.sql = grammar_sql_template_get_bound_sql (sql_template);
  scan.tokens = tokens = tokenize (scan.sql);
  if (!token_is_word (&scan, 0, "SELECT"))
    {
      refuse_documents (error, id, "it is not a plain SELECT");
      return NULL;
    }
  end = tokens->len;
  for (guint i = 1; i < tokens->len; i++)
    {
      if (scan_token_at (&scan, i)->depth != 0)
        continue;
      if (token_is_one_of (&scan, i, compound))
        {
          refuse_documents (error, id, "it is a compound SELECT");
          return NULL;
        }
      if (from == 0 && token_is_word (&scan, i, "FROM"))
        from = i;
      else if (from != 0 && where == 0 && token_is_word (&scan, i, "WHERE"))
        where = i;
      else if (from != 0 && end == tokens->len && token_is_one_of (&scan, i, refused_clauses))
        end = i;
    }
  if (from == 0)
    {
      refuse_documents (error, id, "it has no top-level FROM");
      return NULL;
    }
  if (where == 0 || where > end)
    where = end;

  parse_from (&scan, (GrammarQaRange) { from + 1, where }, schema, &from_clause);
  if (!plan_doc_columns (database, &from_clause, docs, &extra))
    return NULL;
  query = g_string_new ("SELECT DISTINCT ");
  g_string_append (query, extra + 2);
  for (guint i = 0; i < tokens->len; i++)
    if ((i < from || i >= end) && scan_token_at (&scan, i)->kind == GRAMMAR_QA_TOKEN_PARAM)
      g_string_append_printf (query, ", ?%d", scan_token_at (&scan, i)->param);
  g_string_append_c (query, ' ');
  g_string_append_len (query, scan.sql + scan_token_at (&scan, from)->start,
                       (end < tokens->len ? scan_token_at (&scan, end)->start : strlen (scan.sql)) -
                       scan_token_at (&scan, from)->start);
  return g_string_free (query, FALSE);
}

/**
 * grammar_qa_generator_plan_set_based_query:
 * @sql_template: a validated SQL template
 * @schema: (nullable): the database schema, to recognise unique keys
 * @error: return location for a #GError
 *
 * Works out the single query that answers every binding of
 * @sql_template at once: its select list preceded by the placeholder
 * columns as keys, its `WHERE` without the placeholder conditions but
 * with `key IS NOT NULL`. This is possible when the `WHERE` clause is a
 * conjunction in which each placeholder occurs once, in a condition
 * `column = placeholder` (either way round) comparing it with its own
 * column, and nothing after `WHERE` (grouping, ordering, limits,
 * compound selects) nor an aggregate or window in the select list
 * changes what a binding's rows are.
 *
 * The rows of one binding must come together. When @schema shows that a
 * binding has at most one row — every table of an inner join has all
 * columns of a primary key or unique constraint bound to a placeholder,
 * a literal or, through equalities, to another such column — the query
 * is left unordered, and reads the tables in their own order; otherwise
 * it is ordered by the keys.
 *
 * Returns: (transfer full) (nullable): the query, or %NULL with a
 *   %GRAMMAR_ERROR_NOT_SUPPORTED error saying why the template needs to
 *   run once per binding
 */
char *
grammar_qa_generator_plan_set_based_query (GrammarSqlTemplate  *sql_template,
                                           GrammarSchema       *schema,
                                           GError             **error)
{
  gboolean ordered;

  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), NULL);
  g_return_val_if_fail (schema == NULL || GRAMMAR_IS_SCHEMA (schema), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return grammar_qa_plan_set_based (sql_template, schema, NULL, &ordered, NULL, error);
}

/* The set-based query; @ordered tells whether it has to be ordered for
 * the rows of a binding to come together. */
char *
grammar_qa_plan_set_based (GrammarSqlTemplate  *sql_template,
                           GrammarSchema       *schema,
                           GrammarDatabase     *database,
                           gboolean            *ordered,
                           GrammarQaDocPlan    *docs,
                           GError             **error)
{
  g_autoptr (GArray) tokens = NULL;
  g_autoptr (GArray) conjuncts = NULL;
  g_autoptr (GArray) others = NULL;
  g_auto (GrammarQaFromClause) from_clause = { 0, };
  g_autofree GrammarQaRange *keys = NULL;
  g_auto (GStrv) key_forms = NULL;
  g_autofree char *extra = NULL;
  const char *id;
  guint n_keys, list_start, from, where;
  GrammarQaScan scan;

  id = grammar_sql_template_get_id (sql_template);
  n_keys = grammar_sql_template_get_n_placeholders (sql_template);
  scan.sql = grammar_sql_template_get_bound_sql (sql_template);
  scan.tokens = tokens = tokenize (scan.sql);

  if (!token_is_word (&scan, 0, "SELECT"))
    {
      refuse (error, id, "it is not a plain SELECT");
      return NULL;
    }
  list_start = token_is_word (&scan, 1, "DISTINCT") || token_is_word (&scan, 1, "ALL") ? 2 : 1;
  if (!find_clauses (&scan, id, &from, &where, error) ||
      !select_list_is_plain (&scan, (GrammarQaRange) { list_start, from }, id, error))
    return NULL;
  if (range_has_param (&scan, (GrammarQaRange) { from, where }))
    {
      refuse (error, id, "a placeholder occurs in its FROM clause");
      return NULL;
    }

  parse_from (&scan, (GrammarQaRange) { from + 1, where }, schema, &from_clause);
  conjuncts = g_array_new (FALSE, FALSE, sizeof (GrammarQaRange));
  split_conjuncts (&scan, (GrammarQaRange) { where + 1, tokens->len }, conjuncts);
  others = g_array_new (FALSE, FALSE, sizeof (GrammarQaRange));
  keys = g_new0 (GrammarQaRange, MAX (n_keys, 1));
  if (!collect_conjuncts (&scan, conjuncts, from_clause.sources, sql_template, keys, others, error))
    return NULL;

  *ordered = !keys_are_unique (&scan, &from_clause, keys, n_keys, others);
  key_forms = g_new0 (char *, n_keys + 1);
  for (guint k = 0; k < n_keys; k++)
    key_forms[k] = *ordered ? key_form (&scan, keys[k], database, sql_template, schema, k)
                            : range_dup (&scan, keys[k]);
  if (docs != NULL && plan_doc_columns (database, &from_clause, docs, &extra))
    {
      /* One row per row read, so that every row's key comes out. */
      docs->dedupe = list_start == 2 && token_is_word (&scan, 1, "DISTINCT");
      return build_set_based_query (&scan, list_start, from, where, others, keys, key_forms, n_keys,
                                    *ordered, extra, docs->dedupe);
    }
  return build_set_based_query (&scan, list_start, from, where, others, keys, key_forms, n_keys, *ordered,
                                NULL, FALSE);
}

/* Placeholders compared with another column ---------------------------- */

/* The column a reference at @ref reads when it is certainly not
 * placeholder @p's own column ("city", or "b.city"): another column
 * name, or a qualifier naming a source of another table. %NULL when it
 * is the placeholder's column or that cannot be told. @suggestion is
 * set to the placeholder of that column ("[branch.city]") when its
 * table is known, else to NULL. */
static char *
dup_other_column (GrammarQaScan       *scan,
                  GrammarQaRange       ref,
                  GPtrArray           *sources,
                  GrammarSqlTemplate  *sql_template,
                  guint                p,
                  char               **suggestion)
{
  const char *table = grammar_sql_template_get_placeholder_table (sql_template, p);
  const char *column = grammar_sql_template_get_placeholder_column (sql_template, p);
  g_autofree char *name = NULL;
  g_autofree char *qualifier = ref.last - ref.first == 3 ? token_dup_name (scan, ref.first) : NULL;
  int source = resolve_column (scan, ref, sources, &name);
  const char *other_table = source >= 0 ? ((GrammarQaSource *) g_ptr_array_index (sources, source))->table : NULL;

  *suggestion = NULL;
  if (g_ascii_strcasecmp (name, column) == 0 && (other_table == NULL || g_ascii_strcasecmp (other_table, table) == 0))
    return NULL;
  if (other_table != NULL)
    *suggestion = g_strdup_printf ("[%s.%s]", other_table, name);
  return qualifier != NULL ? g_strdup_printf ("%s.%s", qualifier, name) : g_steal_pointer (&name);
}

/*
 * grammar_qa_plan_dup_mismatches:
 * @sql_template: a SQL template
 * @schema: (nullable): its database's schema
 *
 * Looks, in the top-level conditions of the WHERE clause, for a
 * placeholder compared with another column than its own, as left by a
 * hand edit (`WHERE city = '[branch.name]'`): its values are those of
 * branch.name, so almost every combination finds nothing and is
 * skipped. Such a template is still valid SQL and is generated; this
 * names the mismatch so that the user can fix it.
 *
 * Returns: (transfer full): one line a mismatch, empty when there is none
 */
GStrv
grammar_qa_plan_dup_mismatches (GrammarSqlTemplate *sql_template,
                                GrammarSchema      *schema)
{
  g_autoptr (GStrvBuilder) lines = g_strv_builder_new ();
  g_autoptr (GArray) tokens = NULL;
  g_autoptr (GArray) conjuncts = NULL;
  g_auto (GrammarQaFromClause) from_clause = { 0, };
  guint from = 0, where = 0, end;
  GrammarQaScan scan;

  scan.sql = grammar_sql_template_get_bound_sql (sql_template);
  scan.tokens = tokens = tokenize (scan.sql);
  for (guint i = 1; i < tokens->len && where == 0; i++)
    if (scan_token_at (&scan, i)->depth == 0 && token_is_word (&scan, i, from == 0 ? "FROM" : "WHERE"))
      {
        if (from == 0)
          from = i;
        else
          where = i;
      }
  if (where == 0)
    return g_strv_builder_end (lines);
  for (end = where + 1; end < tokens->len; end++)
    if (scan_token_at (&scan, end)->depth == 0 && token_is_one_of (&scan, end, refused_clauses))
      break;

  parse_from (&scan, (GrammarQaRange) { from + 1, where }, schema, &from_clause);
  conjuncts = g_array_new (FALSE, FALSE, sizeof (GrammarQaRange));
  split_conjuncts (&scan, (GrammarQaRange) { where + 1, end }, conjuncts);
  for (guint c = 0; c < conjuncts->len; c++)
    {
      GrammarQaRange column = { 0, 0 };
      int param = parse_placeholder_equality (&scan, g_array_index (conjuncts, GrammarQaRange, c), &column);
      g_autofree char *other = NULL;
      g_autofree char *suggestion = NULL;
      g_autofree char *line = NULL;
      const char *table, *own;

      if (param < 1 || (guint) param > grammar_sql_template_get_n_placeholders (sql_template))
        continue;
      other = dup_other_column (&scan, column, from_clause.sources, sql_template, param - 1, &suggestion);
      if (other == NULL)
        continue;
      table = grammar_sql_template_get_placeholder_table (sql_template, param - 1);
      own = grammar_sql_template_get_placeholder_column (sql_template, param - 1);
      line = g_strdup_printf ("template %s: its WHERE compares %s with the placeholder [%s.%s], whose values "
                              "come from %s.%s: combinations where they differ find nothing and are skipped; "
                              "compare %s with it, or use %s%s",
                              grammar_sql_template_get_id (sql_template), other, table, own, table, own, own,
                              suggestion != NULL ? "the placeholder " : "a placeholder of ",
                              suggestion != NULL ? suggestion : other);
      g_strv_builder_add (lines, line);
    }
  return g_strv_builder_end (lines);
}
