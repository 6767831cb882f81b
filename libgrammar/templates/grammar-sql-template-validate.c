/* grammar-sql-template-validate.c: checking a GrammarSqlTemplate against a schema and a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-database-private.h"
#include "grammar-error.h"
#include "grammar-sql-template.h"
#include "grammar-sql-template-private.h"

/* Validation. */

static gboolean
invalid (GrammarSqlTemplate  *self,
         GError             **error,
         const char          *format,
         ...) G_GNUC_PRINTF (3, 4);

static gboolean
invalid (GrammarSqlTemplate  *self,
         GError             **error,
         const char          *format,
         ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", self->id, reason);
  return FALSE;
}

static gboolean
resolve_placeholders (GrammarSqlTemplate  *self,
                      GrammarSchema       *schema,
                      GError             **error)
{
  for (guint i = 0; i < self->placeholders->len; i++)
    {
      GrammarSqlTemplatePlaceholder *placeholder = grammar_sql_template_placeholder_at (self, i);
      GrammarTable *table = grammar_schema_get_table (schema, placeholder->table);
      GrammarColumn *column;

      if (table == NULL)
        return invalid (self, error, "unknown table “%s” (placeholder %s)",
                        placeholder->table, placeholder->text);
      column = grammar_table_get_column (table, placeholder->column);
      if (column == NULL)
        return invalid (self, error, "unknown column “%s” in table “%s” (placeholder %s)",
                        placeholder->column, grammar_table_get_name (table), placeholder->text);

      g_free (placeholder->table);
      placeholder->table = g_strdup (grammar_table_get_name (table));
      g_free (placeholder->column);
      placeholder->column = g_strdup (grammar_column_get_name (column));
    }
  return TRUE;
}

/* What the statement looks like outside parentheses. */
typedef struct
{
  GrammarSqlTemplateToken first; /* first significant token */
  gboolean more;          /* something significant after a top-level ';' */
  gssize where;           /* offset of the first top-level WHERE, or -1 */
  GPtrArray *tables;      /* names after FROM and JOIN, unquoted */
} Shape;

static char *
unquote_name (const GrammarSqlTemplateToken *token)
{
  g_autofree char *name = NULL;

  if (token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_WORD)
    return g_strndup (token->start, token->length);
  grammar_sql_template_parse_name (token->start, &name);
  return g_steal_pointer (&name);
}

static gboolean
is_clause_keyword (const GrammarSqlTemplateToken *token)
{
  static const char * const keywords[] = {
    "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "INTERSECT", "EXCEPT",
    "WINDOW", "ON", "USING", NULL,
  };

  for (guint i = 0; keywords[i] != NULL; i++)
    if (grammar_sql_template_token_is (token, keywords[i]))
      return TRUE;
  return FALSE;
}

/* Significant tokens only: no spaces, no comments. */
static const char *
next_significant (const char              *p,
                  GrammarSqlTemplateToken *token)
{
  do
    p = grammar_sql_template_next_token (p, token);
  while (token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_SPACE || token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_COMMENT ||
         token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_LINE_COMMENT);
  return p;
}

/* A table name after FROM, JOIN or a comma of the FROM list; `main.t`
 * names t. */
static const char *
read_table_name (const char                    *p,
                 const GrammarSqlTemplateToken *token,
                 GPtrArray                     *tables)
{
  GrammarSqlTemplateToken dot, name;
  const char *after = next_significant (p, &dot);

  if (grammar_sql_template_token_is_punct (&dot, '.'))
    {
      const char *end = next_significant (after, &name);

      if (name.kind == GRAMMAR_SQL_TEMPLATE_TOKEN_WORD ||
          (name.kind == GRAMMAR_SQL_TEMPLATE_TOKEN_QUOTED && !name.unterminated))
        {
          g_ptr_array_add (tables, unquote_name (&name));
          return end;
        }
    }
  g_ptr_array_add (tables, unquote_name (token));
  return p;
}

static void
analyse_shape (GrammarSqlTemplate *self,
               Shape              *shape)
{
  gboolean in_from = FALSE, expect_table = FALSE, after_semicolon = FALSE;
  guint depth = 0;
  const char *p = next_significant (self->sql, &shape->first);

  shape->more = FALSE;
  shape->where = -1;
  shape->tables = g_ptr_array_new_with_free_func (g_free);

  for (GrammarSqlTemplateToken token = shape->first; token.kind != GRAMMAR_SQL_TEMPLATE_TOKEN_END;
       p = next_significant (p, &token))
    {
      gboolean name = token.kind == GRAMMAR_SQL_TEMPLATE_TOKEN_WORD ||
                      (token.kind == GRAMMAR_SQL_TEMPLATE_TOKEN_QUOTED && !token.unterminated);

      if (after_semicolon && !grammar_sql_template_token_is_punct (&token, ';'))
        shape->more = TRUE;
      if (grammar_sql_template_token_is_punct (&token, '('))
        depth++;
      else if (grammar_sql_template_token_is_punct (&token, ')') && depth > 0)
        depth--;
      if (depth > 0 || grammar_sql_template_token_is_punct (&token, ')'))
        {
          expect_table = FALSE;
          continue;
        }

      if (grammar_sql_template_token_is_punct (&token, ';'))
        after_semicolon = TRUE;
      else if (grammar_sql_template_token_is (&token, "FROM") || grammar_sql_template_token_is (&token, "JOIN"))
        in_from = expect_table = TRUE;
      else if (is_clause_keyword (&token))
        {
          if (grammar_sql_template_token_is (&token, "WHERE") && shape->where < 0)
            shape->where = token.start - self->sql;
          in_from = expect_table = FALSE;
        }
      else if (expect_table && name)
        {
          p = read_table_name (p, &token, shape->tables);
          expect_table = FALSE;
        }
      else
        expect_table = in_from && grammar_sql_template_token_is_punct (&token, ',');
    }
}

static gboolean
check_shape (GrammarSqlTemplate  *self,
             const Shape         *shape,
             GError             **error)
{
  if (!grammar_sql_template_token_is (&shape->first, "SELECT") &&
      !grammar_sql_template_token_is (&shape->first, "WITH"))
    return invalid (self, error, "only a single read-only SELECT is accepted, not “%.*s”",
                    (int) MIN (shape->first.length, 40), shape->first.start);
  if (shape->more)
    return invalid (self, error, "the SQL text holds more than one statement; "
                    "only a single read-only SELECT is accepted");
  if (shape->where < 0)
    return invalid (self, error, "no WHERE clause: a placeholder must select the rows the answer comes from");

  for (guint i = 0; i < self->occurrences->len; i++)
    if (g_array_index (self->occurrences, GrammarSqlTemplateOccurrence, i).start > (gsize) shape->where)
      return TRUE;
  return invalid (self, error, "no placeholder after WHERE: a placeholder must select the rows "
                  "the answer comes from");
}

static void
set_tables (GrammarSqlTemplate *self,
            GrammarSchema      *schema,
            GPtrArray          *names)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < names->len; i++)
    {
      GrammarTable *table = grammar_schema_get_table (schema, g_ptr_array_index (names, i));
      const char *name;

      if (table == NULL)
        continue;  /* a common table expression, say */
      name = grammar_table_get_name (table);
      if (g_hash_table_add (seen, (gpointer) name))
        g_strv_builder_add (builder, name);
    }
  g_strfreev (self->tables);
  self->tables = g_strv_builder_end (builder);
}

static gboolean
check_with_database (GrammarSqlTemplate  *self,
                     GrammarDatabase     *database,
                     GError             **error)
{
  g_autoptr (GError) local_error = NULL;
  guint n_parameters = 0;

  if (!grammar_database_check_query (database, self->bound_sql, &n_parameters, &local_error))
    {
      if (g_error_matches (local_error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED))
        return TRUE;
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", self->id);
      return FALSE;
    }
  if (n_parameters != self->placeholders->len)
    return invalid (self, error, "the statement takes %u parameter(s) but has %u placeholder(s): "
                    "write every value as a [Table.Column] placeholder, not as ? or :name",
                    n_parameters, self->placeholders->len);
  return TRUE;
}

/* Bare names, resolved against the schema. Templates imported from
 * GRAMMAR-py's Spider SQL, or written by hand, spell names bare in any
 * case (`People_ID`, `FROM People`): SQLite reads them whatever their
 * case, PostgreSQL folds them to lower case and MariaDB keeps the case
 * of table names. The statement that runs takes each such name in the
 * schema's spelling, written as the database's dialect needs it. */

typedef struct
{
  GPtrArray *tables;   /* GrammarTable, the ones the statement reads (all when none is known) */
  GrammarSchema *schema;
} NameScope;

static void
add_spelling (GPtrArray  *spellings,
              const char *word,
              const char *name)
{
  if (g_ascii_strcasecmp (word, name) == 0 &&
      !g_ptr_array_find_with_equal_func (spellings, name, g_str_equal, NULL))
    g_ptr_array_add (spellings, (gpointer) name);
}

/* The schema's spellings of @word: among table names when @tables, among
 * the columns of the tables read when @columns. */
static GPtrArray *
find_spellings (NameScope  *scope,
                const char *word,
                gboolean    tables,
                gboolean    columns)
{
  GPtrArray *spellings = g_ptr_array_new ();
  GPtrArray *all = grammar_schema_get_tables (scope->schema);

  for (guint t = 0; tables && t < all->len; t++)
    add_spelling (spellings, word, grammar_table_get_name (g_ptr_array_index (all, t)));
  for (guint t = 0; columns && t < scope->tables->len; t++)
    {
      GPtrArray *table_columns = grammar_table_get_columns (g_ptr_array_index (scope->tables, t));

      for (guint c = 0; c < table_columns->len; c++)
        add_spelling (spellings, word, grammar_column_get_name (g_ptr_array_index (table_columns, c)));
    }
  return spellings;
}

static void
name_scope_init (NameScope     *scope,
                 GrammarSchema *schema,
                 GPtrArray     *names)
{
  GPtrArray *all = grammar_schema_get_tables (schema);

  scope->schema = schema;
  scope->tables = g_ptr_array_new ();
  for (guint t = 0; t < all->len; t++)
    for (guint n = 0; n < names->len; n++)
      if (g_ascii_strcasecmp (grammar_table_get_name (g_ptr_array_index (all, t)), g_ptr_array_index (names, n)) == 0)
        {
          g_ptr_array_add (scope->tables, g_ptr_array_index (all, t));
          break;
        }
  if (scope->tables->len == 0)
    g_ptr_array_extend (scope->tables, all, NULL, NULL);
}

static gboolean
is_bare_name (const GrammarSqlTemplateToken *token)
{
  return token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_WORD &&
         (g_ascii_isalpha (token->start[0]) || token->start[0] == '_');
}

/* A word the dialect reserves, which bare is a keyword, not a name. */
static gboolean
is_dialect_keyword (GrammarDatabase               *database,
                    const GrammarSqlTemplateToken *token)
{
  g_autofree char *lower = g_ascii_strdown (token->start, token->length);

  return grammar_sql_is_ascii_name (lower) && grammar_database_identifier_needs_quotes (database, lower);
}

static char *
list_spellings (GPtrArray *spellings)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < spellings->len; i++)
    g_string_append_printf (out, "%s“%s”", i == 0 ? "" : i + 1 == spellings->len ? " and " : ", ",
                            (const char *) g_ptr_array_index (spellings, i));
  return g_string_free (out, FALSE);
}

/* How the bare name @token is written for @database, into @replacement:
 * %NULL to keep it as written. */
static gboolean
resolve_bare_name (GrammarSqlTemplate             *self,
                   GrammarDatabase                *database,
                   NameScope                      *scope,
                   const GrammarSqlTemplateToken  *token,
                   const GrammarSqlTemplateToken  *previous,
                   const GrammarSqlTemplateToken  *next,
                   gboolean                        in_from,
                   char                          **replacement,
                   GError                        **error)
{
  g_autofree char *word = g_strndup (token->start, token->length);
  g_autoptr (GPtrArray) spellings = NULL;
  gboolean after_dot = grammar_sql_template_token_is_punct (previous, '.');
  gboolean before_dot = grammar_sql_template_token_is_punct (next, '.');
  gboolean table_place = in_from && (grammar_sql_template_token_is (previous, "FROM") ||
                                     grammar_sql_template_token_is (previous, "JOIN") ||
                                     grammar_sql_template_token_is_punct (previous, ','));

  *replacement = NULL;
  if (grammar_sql_template_token_is_punct (next, '(') || next->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_STRING)
    return TRUE;  /* a function, or the type of a literal: DATE '2020-01-31' */
  if (!after_dot && !before_dot && !table_place && is_dialect_keyword (database, token))
    return TRUE;

  spellings = find_spellings (scope, word, !after_dot, !before_dot && !table_place);
  if (spellings->len == 0)
    return TRUE;  /* an alias, a keyword, a common table expression… */
  if (g_ptr_array_find_with_equal_func (spellings, word, g_str_equal, NULL) &&
      !grammar_database_identifier_needs_quotes (database, word))
    return TRUE;  /* the database reads it as written */
  if (spellings->len > 1)
    {
      g_autofree char *candidates = list_spellings (spellings);

      return invalid (self, error, "the bare name “%s” could be %s, which differ only in case: "
                      "quote the one meant, as \"%s\"", word, candidates,
                      (const char *) g_ptr_array_index (spellings, 0));
    }
  *replacement = grammar_database_write_identifier (database, g_ptr_array_index (spellings, 0));
  return TRUE;
}

static gboolean
resolve_bare_names (GrammarSqlTemplate  *self,
                    GrammarDatabase     *database,
                    GrammarSchema       *schema,
                    GPtrArray           *table_names,
                    GError             **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  NameScope scope;
  GrammarSqlTemplateToken previous = { GRAMMAR_SQL_TEMPLATE_TOKEN_END, "", 0, FALSE }, token, next;
  gboolean in_from = FALSE, ok = TRUE;
  const char *p, *after;

  name_scope_init (&scope, schema, table_names);
  p = next_significant (self->bound_sql, &token);
  g_string_append_len (out, self->bound_sql, token.start - self->bound_sql);
  for (; token.kind != GRAMMAR_SQL_TEMPLATE_TOKEN_END && ok; token = next, p = after)
    {
      g_autofree char *replacement = NULL;

      after = next_significant (p, &next);
      if (grammar_sql_template_token_is (&token, "FROM") || grammar_sql_template_token_is (&token, "JOIN"))
        in_from = TRUE;
      else if (is_clause_keyword (&token) && !grammar_sql_template_token_is (&token, "ON") &&
               !grammar_sql_template_token_is (&token, "USING"))
        in_from = FALSE;
      else if (is_bare_name (&token))
        ok = resolve_bare_name (self, database, &scope, &token, &previous, &next, in_from, &replacement, error);

      if (replacement != NULL)
        g_string_append (out, replacement);
      else
        g_string_append_len (out, token.start, token.length);
      /* What lies between this token and the next: spaces, comments. */
      g_string_append_len (out, token.start + token.length, next.start - (token.start + token.length));
      previous = token;
    }
  g_ptr_array_unref (scope.tables);
  if (!ok)
    return FALSE;
  g_free (self->bound_sql);
  self->bound_sql = g_string_free (g_steal_pointer (&out), FALSE);
  return TRUE;
}

/**
 * grammar_sql_template_validate:
 * @self: a #GrammarSqlTemplate
 * @database: (nullable): the database the template runs on, or %NULL to
 *   check against @schema only
 * @schema: the schema of the database
 * @error: return location for a #GError
 *
 * Checks the template against a database: every placeholder names a
 * table and a column of @schema (in any ASCII case; the placeholder's
 * table and column then take the schema's spelling); the text is a
 * single read-only `SELECT` (or `WITH` query); a placeholder occurs
 * after the top-level `WHERE`; and the database compiles the bound
 * statement (grammar_database_check_query()) and finds as many
 * parameters as there are distinct placeholders — a database plugin
 * that cannot check without running skips that part. Sets the tables
 * the query reads (grammar_sql_template_get_tables()).
 *
 * With a @database, the names the SQL writes bare (`People_ID`, `FROM
 * People`) are looked up in @schema without regard to ASCII case and
 * the statement that runs (grammar_sql_template_get_bound_sql()) spells
 * them as the schema does, written as the database's dialect needs
 * (grammar_database_write_identifier()): GRAMMAR-py's Spider templates
 * run on PostgreSQL against tables made with quoted mixed-case names.
 * A bare name the database reads as written is kept; keywords of the
 * dialect, functions, aliases, literals and quoted names are left
 * alone. A bare name that could be several names of the schema that
 * differ only in case (`people` and `People`) is refused, naming them.
 * The text and the id stay as written.
 *
 * Returns: %TRUE when the template is valid; otherwise %FALSE with an
 *   error whose message starts with the template id and gives the
 *   reason, in the %GRAMMAR_ERROR_INVALID_INPUT domain or, when the
 *   database refused the statement, the database's
 */
gboolean
grammar_sql_template_validate (GrammarSqlTemplate  *self,
                               GrammarDatabase     *database,
                               GrammarSchema       *schema,
                               GError             **error)
{
  Shape shape;
  gboolean valid;

  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), FALSE);
  g_return_val_if_fail (database == NULL || GRAMMAR_IS_DATABASE (database), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (schema), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!resolve_placeholders (self, schema, error))
    return FALSE;

  analyse_shape (self, &shape);
  valid = check_shape (self, &shape, error);
  if (valid)
    set_tables (self, schema, shape.tables);
  if (valid && database != NULL)
    valid = resolve_bare_names (self, database, schema, shape.tables, error);
  g_ptr_array_unref (shape.tables);

  return valid && (database == NULL || check_with_database (self, database, error));
}
