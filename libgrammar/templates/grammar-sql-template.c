/* grammar-sql-template.c: an SQL query template with placeholders
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-database-private.h"
#include "grammar-enums.h"
#include "grammar-error.h"
#include "grammar-value.h"
#include "grammar-sql-lexer-private.h"
#include "grammar-sql-template.h"
#include "grammar-sql-template-private.h"

/**
 * GrammarSqlTemplate:
 *
 * An SQL query with placeholders `[Table.Column]` where values of that
 * column are filled in, as in
 * `SELECT Industry FROM company WHERE Name = '[company.Name]'`.
 *
 * A placeholder is written bare (`WHERE Age = [people.Age]`) or as a
 * string literal that holds nothing else (`'[people.Name]'`); brackets
 * anywhere else inside a string literal, a quoted identifier or a
 * comment are text. Names inside the brackets may be double-quoted or
 * backquoted, as in `["Order Items"."Unit Price"]`. A placeholder used
 * twice stands for the same value.
 *
 * The template never runs with values pasted into its text: the
 * bound SQL (grammar_sql_template_get_bound_sql()) has `?N` parameters
 * where the placeholders were, N being the 1-based index of the
 * distinct placeholder, and values are bound to them.
 *
 * The id is `s` followed by the first 12 hexadecimal digits of the
 * SHA-256 of grammar_sql_normalize() of the text, so reformatting
 * whitespace, or quoting a name that needs no quotes, keeps it, and
 * any other edit changes it. The same template generated from the same
 * schema on SQLite (`People_ID`) and on PostgreSQL (`"People_ID"`) has
 * one id.
 */

G_DEFINE_FINAL_TYPE (GrammarSqlTemplate, grammar_sql_template, G_TYPE_OBJECT)

static void
placeholder_clear (gpointer data)
{
  GrammarSqlTemplatePlaceholder *placeholder = data;

  g_free (placeholder->text);
  g_free (placeholder->table);
  g_free (placeholder->column);
}

static void
grammar_sql_template_finalize (GObject *object)
{
  GrammarSqlTemplate *self = GRAMMAR_SQL_TEMPLATE (object);

  g_free (self->id);
  g_free (self->sql);
  g_free (self->bound_sql);
  g_free (self->note);
  g_strfreev (self->tables);
  g_array_unref (self->placeholders);
  g_array_unref (self->occurrences);

  G_OBJECT_CLASS (grammar_sql_template_parent_class)->finalize (object);
}

static void
grammar_sql_template_class_init (GrammarSqlTemplateClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_sql_template_finalize;
}

static void
grammar_sql_template_init (GrammarSqlTemplate *self)
{
  self->tables = g_new0 (char *, 1);
  self->placeholders = g_array_new (FALSE, TRUE, sizeof (GrammarSqlTemplatePlaceholder));
  g_array_set_clear_func (self->placeholders, placeholder_clear);
  self->occurrences = g_array_new (FALSE, TRUE, sizeof (GrammarSqlTemplateOccurrence));
}

/* Placeholders. */

static gboolean
placeholder_error (const char  *text,
                   const char  *reason,
                   GError     **error)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "placeholder “%.*s”: %s", (int) MIN (strcspn (text, "\n"), 60), text, reason);
  return FALSE;
}

static gboolean
is_bare_name_char (char c)
{
  return c != '\0' && c != '.' && c != ']' && c != '[' && c != '"' && c != '`' && c != '\'' &&
         !g_ascii_isspace (c);
}

/* Reads a name at @p: quoted with " or ` (the quote doubled inside), or
 * bare. Returns where it ends, or %NULL when there is none or the quote
 * is not closed. */
const char *
grammar_sql_template_parse_name (const char  *p,
                                 char       **name)
{
  GString *out = g_string_new (NULL);

  if (*p == '"' || *p == '`')
    {
      char quote = *p++;

      for (;; p++)
        {
          if (*p == '\0')
            {
              g_string_free (out, TRUE);
              return NULL;
            }
          if (*p == quote && p[1] == quote)
            p++;
          else if (*p == quote)
            break;
          g_string_append_c (out, *p);
        }
      p++;
    }
  else
    {
      while (is_bare_name_char (*p))
        g_string_append_c (out, *p++);
    }

  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  *name = g_string_free (out, FALSE);
  return p;
}

static const char *
skip_blanks (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

gboolean
grammar_placeholder_parse (const char  *text,
                           gsize       *length,
                           char       **table,
                           char       **column,
                           GError     **error)
{
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  const char *p;

  g_return_val_if_fail (text != NULL && text[0] == '[', FALSE);

  if (strchr (text, ']') == NULL)
    return placeholder_error (text, "unbalanced “[”: no “]” closes it", error);

  p = grammar_sql_template_parse_name (skip_blanks (text + 1), &first);
  if (p == NULL)
    return placeholder_error (text, "expected a table name after “[”", error);
  p = skip_blanks (p);
  if (*p != '.')
    return placeholder_error (text, "expected “[Table.Column]”: no “.” between table and column", error);
  p = grammar_sql_template_parse_name (skip_blanks (p + 1), &second);
  if (p == NULL)
    return placeholder_error (text, "expected a column name after “.”", error);
  p = skip_blanks (p);
  if (*p != ']')
    return placeholder_error (text, "expected “]” after the column name", error);

  *length = p + 1 - text;
  if (table != NULL)
    *table = g_steal_pointer (&first);
  if (column != NULL)
    *column = g_steal_pointer (&second);
  return TRUE;
}

/* A small SQL scanner: enough to tell string literals, quoted
 * identifiers, comments, words, placeholders and punctuation apart
 * (GrammarSqlTemplateToken). */

/* Reads the token at @p with the SQL lexer. A `[` that does not start a
 * well-formed placeholder is punctuation: the caller asks the
 * placeholder parser why when it cares. Numbers and `$name` are words,
 * other parameters punctuation, as this file only tells names and
 * keywords from the rest. */
const char *
grammar_sql_template_next_token (const char              *p,
                                 GrammarSqlTemplateToken *token)
{
  GrammarSqlToken sql;
  const char *end;
  gsize length;

  token->start = p;
  token->unterminated = FALSE;
  if (*p == '[')
    {
      gboolean placeholder = grammar_placeholder_parse (p, &length, NULL, NULL, NULL);

      token->kind = placeholder ? GRAMMAR_SQL_TEMPLATE_TOKEN_PLACEHOLDER : GRAMMAR_SQL_TEMPLATE_TOKEN_PUNCT;
      token->length = placeholder ? length : 1;
      return p + token->length;
    }
  end = grammar_sql_lexer_next (p, &sql);
  token->length = sql.length;
  token->unterminated = sql.unterminated;
  switch (sql.kind)
    {
    case GRAMMAR_SQL_TOKEN_END: token->kind = GRAMMAR_SQL_TEMPLATE_TOKEN_END; break;
    case GRAMMAR_SQL_TOKEN_SPACE: token->kind = GRAMMAR_SQL_TEMPLATE_TOKEN_SPACE; break;
    case GRAMMAR_SQL_TOKEN_LINE_COMMENT: token->kind = GRAMMAR_SQL_TEMPLATE_TOKEN_LINE_COMMENT; break;
    case GRAMMAR_SQL_TOKEN_COMMENT: token->kind = GRAMMAR_SQL_TEMPLATE_TOKEN_COMMENT; break;
    case GRAMMAR_SQL_TOKEN_STRING: token->kind = GRAMMAR_SQL_TEMPLATE_TOKEN_STRING; break;
    case GRAMMAR_SQL_TOKEN_QUOTED: token->kind = GRAMMAR_SQL_TEMPLATE_TOKEN_QUOTED; break;
    case GRAMMAR_SQL_TOKEN_NUMBER:
    case GRAMMAR_SQL_TOKEN_WORD: token->kind = GRAMMAR_SQL_TEMPLATE_TOKEN_WORD; break;
    case GRAMMAR_SQL_TOKEN_PARAM:
      token->kind = *p == '$' ? GRAMMAR_SQL_TEMPLATE_TOKEN_WORD : GRAMMAR_SQL_TEMPLATE_TOKEN_PUNCT;
      break;
    case GRAMMAR_SQL_TOKEN_BRACKET:
    case GRAMMAR_SQL_TOKEN_PUNCT:
    default: token->kind = GRAMMAR_SQL_TEMPLATE_TOKEN_PUNCT; break;
    }
  return end;
}

gboolean
grammar_sql_template_token_is (const GrammarSqlTemplateToken *token,
                               const char                    *word)
{
  return token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_WORD && token->length == strlen (word) &&
         g_ascii_strncasecmp (token->start, word, token->length) == 0;
}

gboolean
grammar_sql_template_token_is_punct (const GrammarSqlTemplateToken *token,
                                     char                           c)
{
  return token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_PUNCT && token->start[0] == c;
}

/* A string literal that holds exactly one placeholder: `'[T.C]'`. */
static gboolean
is_quoted_placeholder (const GrammarSqlTemplateToken *token)
{
  gsize length;

  return token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_STRING && !token->unterminated && token->length > 2 &&
         token->start[1] == '[' &&
         grammar_placeholder_parse (token->start + 1, &length, NULL, NULL, NULL) &&
         length == token->length - 2;
}

/* The name a quoted identifier holds when it is ASCII letters, digits
 * and underscores (`"People_ID"`, `"order"`), else %NULL. */
static char *
quoted_plain_name (const GrammarSqlTemplateToken *token)
{
  g_autofree char *name = NULL;

  if (token->kind != GRAMMAR_SQL_TEMPLATE_TOKEN_QUOTED || token->unterminated ||
      grammar_sql_template_parse_name (token->start, &name) != token->start + token->length ||
      !grammar_sql_is_ascii_name (name))
    return NULL;
  return g_steal_pointer (&name);
}

/**
 * grammar_sql_normalize:
 * @sql: SQL text
 *
 * The form of @sql that template ids are computed from: runs of
 * whitespace outside string literals, quoted identifiers and comments
 * become one space (one newline after a `--` comment, which a newline
 * ends), leading and trailing whitespace and trailing semicolons go,
 * and a quoted name of ASCII letters, digits and underscores loses its
 * quotes (`"People_ID"` is `People_ID`): which names a dialect needs
 * quoted differs between databases (PostgreSQL quotes mixed case), and
 * the same template must have the same id on all of them. Nothing else
 * changes: keywords and names keep their case.
 *
 * Returns: (transfer full): the normalised text
 */
char *
grammar_sql_normalize (const char *sql)
{
  GString *out;
  GrammarSqlTemplateTokenKind previous = GRAMMAR_SQL_TEMPLATE_TOKEN_END;
  const char *p;

  g_return_val_if_fail (sql != NULL, NULL);

  out = g_string_new (NULL);
  for (p = sql; *p != '\0';)
    {
      GrammarSqlTemplateToken token;

      g_autofree char *bare = NULL;

      p = grammar_sql_template_next_token (p, &token);
      if (token.kind == GRAMMAR_SQL_TEMPLATE_TOKEN_SPACE)
        g_string_append_c (out, previous == GRAMMAR_SQL_TEMPLATE_TOKEN_LINE_COMMENT ? '\n' : ' ');
      else if ((bare = quoted_plain_name (&token)) != NULL)
        g_string_append (out, bare);
      else
        g_string_append_len (out, token.start, token.length);
      previous = token.kind;
    }

  /* Trailing spaces and semicolons, in any mix; then leading spaces. */
  while (out->len > 0 && (out->str[out->len - 1] == ';' || g_ascii_isspace (out->str[out->len - 1])))
    g_string_truncate (out, out->len - 1);
  if (out->len > 0 && g_ascii_isspace (out->str[0]))
    g_string_erase (out, 0, 1);

  return g_string_free (out, FALSE);
}

static char *
compute_id (const char *sql)
{
  g_autofree char *normalized = grammar_sql_normalize (sql);
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, normalized, -1);

  return g_strdup_printf ("s%.12s", digest);
}

/* The text as given, without surrounding whitespace and trailing
 * semicolons, which the bound statement must not have. */
static char *
trim_sql (const char *sql)
{
  char *trimmed = g_strstrip (g_strdup (sql));
  gsize length = strlen (trimmed);

  while (length > 0 && (trimmed[length - 1] == ';' || g_ascii_isspace (trimmed[length - 1])))
    trimmed[--length] = '\0';
  return trimmed;
}

/* Placeholders are the same when they name the same column, however
 * they are spelt. */
static guint
add_placeholder (GrammarSqlTemplate *self,
                 const char         *text,
                 gsize               length)
{
  GrammarSqlTemplatePlaceholder placeholder = { 0, };
  gsize parsed;

  placeholder.text = g_strndup (text, length);
  grammar_placeholder_parse (placeholder.text, &parsed, &placeholder.table, &placeholder.column, NULL);

  for (guint i = 0; i < self->placeholders->len; i++)
    {
      GrammarSqlTemplatePlaceholder *known = &g_array_index (self->placeholders, GrammarSqlTemplatePlaceholder, i);

      if (g_ascii_strcasecmp (known->table, placeholder.table) == 0 &&
          g_ascii_strcasecmp (known->column, placeholder.column) == 0)
        {
          placeholder_clear (&placeholder);
          return i;
        }
    }

  g_array_append_val (self->placeholders, placeholder);
  return self->placeholders->len - 1;
}

static void
add_occurrence (GrammarSqlTemplate            *self,
                const GrammarSqlTemplateToken *token,
                gboolean                       quoted)
{
  GrammarSqlTemplateOccurrence occurrence;

  occurrence.start = token->start - self->sql;
  occurrence.end = occurrence.start + token->length;
  occurrence.index = quoted ? add_placeholder (self, token->start + 1, token->length - 2)
                            : add_placeholder (self, token->start, token->length);
  g_array_append_val (self->occurrences, occurrence);
}

static gboolean
parse_error (GrammarSqlTemplate             *self,
             const GrammarSqlTemplateToken  *token,
             GError                        **error)
{
  g_autoptr (GError) local_error = NULL;
  gsize length;

  if (token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_PUNCT)
    {
      grammar_placeholder_parse (token->start, &length, NULL, NULL, &local_error);
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s: %s", self->id, local_error->message);
    }
  else
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "%s: unterminated %s", self->id,
                 token->kind == GRAMMAR_SQL_TEMPLATE_TOKEN_STRING ? "string literal" : "quoted identifier");
  return FALSE;
}

static gboolean
parse_placeholders (GrammarSqlTemplate  *self,
                    GError             **error)
{
  for (const char *p = self->sql; *p != '\0';)
    {
      GrammarSqlTemplateToken token;

      p = grammar_sql_template_next_token (p, &token);
      if (token.kind == GRAMMAR_SQL_TEMPLATE_TOKEN_PLACEHOLDER)
        add_occurrence (self, &token, FALSE);
      else if (is_quoted_placeholder (&token))
        add_occurrence (self, &token, TRUE);
      else if (grammar_sql_template_token_is_punct (&token, '[') || token.unterminated)
        {
          if (token.kind != GRAMMAR_SQL_TEMPLATE_TOKEN_COMMENT)
            return parse_error (self, &token, error);
        }
    }

  if (self->placeholders->len == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s: no placeholder: write the value a query asks about as [Table.Column]", self->id);
      return FALSE;
    }
  return TRUE;
}

static char *
make_bound_sql (GrammarSqlTemplate *self)
{
  GString *out = g_string_new (NULL);
  gsize done = 0;

  for (guint i = 0; i < self->occurrences->len; i++)
    {
      GrammarSqlTemplateOccurrence *occurrence = &g_array_index (self->occurrences, GrammarSqlTemplateOccurrence, i);

      g_string_append_len (out, self->sql + done, occurrence->start - done);
      g_string_append_printf (out, "?%u", occurrence->index + 1);
      done = occurrence->end;
    }
  g_string_append (out, self->sql + done);
  return g_string_free (out, FALSE);
}

/**
 * grammar_sql_template_new:
 * @sql: the SQL text, with `[Table.Column]` placeholders
 * @origin: where the template comes from
 * @error: return location for a #GError
 *
 * Parses the placeholders of @sql. Surrounding whitespace and trailing
 * semicolons are dropped. Nothing is checked against a database yet:
 * see grammar_sql_template_validate().
 *
 * Returns: (transfer full) (nullable): the template, or %NULL with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error naming the id when @sql has no
 *   placeholder, a malformed one (an unbalanced `[`, no `.`) or an
 *   unterminated literal
 */
GrammarSqlTemplate *
grammar_sql_template_new (const char             *sql,
                          GrammarTemplateOrigin   origin,
                          GError                **error)
{
  g_autoptr (GrammarSqlTemplate) self = NULL;

  g_return_val_if_fail (sql != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_SQL_TEMPLATE, NULL);
  self->sql = trim_sql (sql);
  self->id = compute_id (self->sql);
  self->origin = origin;

  if (!parse_placeholders (self, error))
    return NULL;
  self->bound_sql = make_bound_sql (self);
  return g_steal_pointer (&self);
}

/* JSON. */

static gboolean
json_error (GError     **error,
            const char  *format,
            ...) G_GNUC_PRINTF (2, 3);

static gboolean
json_error (GError     **error,
            const char  *format,
            ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, message);
  return FALSE;
}

static gboolean
get_optional_string (JsonObject  *object,
                     const char  *member,
                     const char **value,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *value = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_STRING)
    return json_error (error, "“%s” must be a string", member);
  *value = json_node_get_string (node);
  return TRUE;
}

static gboolean
parse_origin (const char             *nick,
              GrammarTemplateOrigin  *origin,
              GError                **error)
{
  g_autoptr (GEnumClass) enum_class = g_type_class_ref (GRAMMAR_TYPE_TEMPLATE_ORIGIN);
  GEnumValue *value;

  if (nick == NULL)
    {
      *origin = GRAMMAR_TEMPLATE_ORIGIN_MANUAL;
      return TRUE;
    }
  value = g_enum_get_value_by_nick (enum_class, nick);
  if (value == NULL)
    return json_error (error, "unknown origin “%s” (expected manual, schema, llm or import)", nick);
  *origin = value->value;
  return TRUE;
}

static gboolean
parse_tables (JsonObject  *object,
              GStrv       *tables,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, "tables");
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  *tables = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return json_error (error, "“tables” must be an array of table names");

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (json_node_get_value_type (element) != G_TYPE_STRING)
        return json_error (error, "“tables” must be an array of table names");
      g_strv_builder_add (builder, json_node_get_string (element));
    }
  *tables = g_strv_builder_end (builder);
  return TRUE;
}

/**
 * grammar_sql_template_new_from_json:
 * @node: a JSON object `{"sql", "origin"?, "tables"?, "note"?, "id"?}`
 * @error: return location for a #GError
 *
 * Reads a template as grammar_sql_template_to_json() writes it, or as
 * a user adds one by hand: only `sql` is required, a missing `origin`
 * means `manual`, and the id is always computed again from the SQL (an
 * id that no longer matches an edited text is no error). Members this
 * version does not know are ignored.
 *
 * Returns: (transfer full) (nullable): the template, or %NULL with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error
 */
GrammarSqlTemplate *
grammar_sql_template_new_from_json (JsonNode  *node,
                                    GError   **error)
{
  g_autoptr (GrammarSqlTemplate) self = NULL;
  g_auto (GStrv) tables = NULL;
  GrammarTemplateOrigin origin = GRAMMAR_TEMPLATE_ORIGIN_MANUAL;
  JsonObject *object;
  const char *sql, *origin_nick, *note;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      json_error (error, "an SQL template must be a JSON object with an “sql” member");
      return NULL;
    }
  object = json_node_get_object (node);
  if (!get_optional_string (object, "sql", &sql, error) ||
      !get_optional_string (object, "origin", &origin_nick, error) ||
      !get_optional_string (object, "note", &note, error) ||
      !parse_origin (origin_nick, &origin, error) ||
      !parse_tables (object, &tables, error))
    return NULL;
  if (sql == NULL)
    {
      json_error (error, "an SQL template needs an “sql” string member");
      return NULL;
    }

  self = grammar_sql_template_new (sql, origin, error);
  if (self == NULL)
    return NULL;
  if (tables != NULL)
    {
      g_strfreev (self->tables);
      self->tables = g_steal_pointer (&tables);
    }
  grammar_sql_template_set_note (self, note);
  return g_steal_pointer (&self);
}

/**
 * grammar_sql_template_to_json:
 * @self: a #GrammarSqlTemplate
 *
 * The template as an element of `sql-templates.json`:
 * `{"id", "sql", "tables", "origin", "note"?}`, members in that order.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
grammar_sql_template_to_json (GrammarSqlTemplate *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (GEnumClass) enum_class = NULL;

  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);

  enum_class = g_type_class_ref (GRAMMAR_TYPE_TEMPLATE_ORIGIN);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, self->id);
  json_builder_set_member_name (builder, "sql");
  json_builder_add_string_value (builder, self->sql);
  json_builder_set_member_name (builder, "tables");
  json_builder_begin_array (builder);
  for (guint i = 0; self->tables[i] != NULL; i++)
    json_builder_add_string_value (builder, self->tables[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "origin");
  json_builder_add_string_value (builder, g_enum_get_value (enum_class, self->origin)->value_nick);
  if (self->note != NULL)
    {
      json_builder_set_member_name (builder, "note");
      json_builder_add_string_value (builder, self->note);
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* Getters. */

/**
 * grammar_sql_template_get_id:
 * @self: a #GrammarSqlTemplate
 *
 * Returns: the id, `s` and 12 hexadecimal digits, stable under whitespace changes
 */
const char *
grammar_sql_template_get_id (GrammarSqlTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  return self->id;
}

/**
 * grammar_sql_template_get_sql:
 * @self: a #GrammarSqlTemplate
 *
 * Returns: the SQL text with its placeholders, without trailing semicolons
 */
const char *
grammar_sql_template_get_sql (GrammarSqlTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  return self->sql;
}

/**
 * grammar_sql_template_get_bound_sql:
 * @self: a #GrammarSqlTemplate
 *
 * The statement that runs: each placeholder occurrence (with its quotes
 * when it was written as a string literal) replaced by `?N`, N being the
 * 1-based index of the distinct placeholder; once validated against a
 * database, its bare names in the schema's spelling
 * (grammar_sql_template_validate()).
 *
 * Returns: the SQL text with parameters
 */
const char *
grammar_sql_template_get_bound_sql (GrammarSqlTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  return self->bound_sql;
}

/**
 * grammar_sql_template_get_origin:
 * @self: a #GrammarSqlTemplate
 *
 * Returns: where the template came from
 */
GrammarTemplateOrigin
grammar_sql_template_get_origin (GrammarSqlTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), GRAMMAR_TEMPLATE_ORIGIN_MANUAL);
  return self->origin;
}

/**
 * grammar_sql_template_get_tables:
 * @self: a #GrammarSqlTemplate
 *
 * The tables the query reads (named after `FROM` and `JOIN` outside
 * parentheses), in the schema's spelling and order of appearance, as
 * grammar_sql_template_validate() found them; before that, what the
 * JSON form said, or nothing.
 *
 * Returns: (transfer none) (array zero-terminated=1): the table names
 */
const char * const *
grammar_sql_template_get_tables (GrammarSqlTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  return (const char * const *) self->tables;
}

/**
 * grammar_sql_template_get_note:
 * @self: a #GrammarSqlTemplate
 *
 * Returns: (nullable): a free-form remark (why a generator kept the template, say)
 */
const char *
grammar_sql_template_get_note (GrammarSqlTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  return self->note;
}

/**
 * grammar_sql_template_set_note:
 * @self: a #GrammarSqlTemplate
 * @note: (nullable): a free-form remark, or %NULL for none
 *
 * Sets the remark saved with the template.
 */
void
grammar_sql_template_set_note (GrammarSqlTemplate *self,
                               const char         *note)
{
  g_return_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self));
  g_free (self->note);
  self->note = g_strdup (note);
}

/**
 * grammar_sql_template_get_n_placeholders:
 * @self: a #GrammarSqlTemplate
 *
 * Returns: the number of distinct placeholders (at least one)
 */
guint
grammar_sql_template_get_n_placeholders (GrammarSqlTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), 0);
  return self->placeholders->len;
}

GrammarSqlTemplatePlaceholder *
grammar_sql_template_placeholder_at (GrammarSqlTemplate *self,
                                     guint               index)
{
  return &g_array_index (self->placeholders, GrammarSqlTemplatePlaceholder, index);
}

/**
 * grammar_sql_template_get_placeholder:
 * @self: a #GrammarSqlTemplate
 * @index: which distinct placeholder, in order of first appearance
 *
 * Returns: the placeholder as written in the SQL, brackets included
 *   (`[company.Name]`), without the quotes of a quoted placeholder
 */
const char *
grammar_sql_template_get_placeholder (GrammarSqlTemplate *self,
                                      guint               index)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  g_return_val_if_fail (index < self->placeholders->len, NULL);
  return grammar_sql_template_placeholder_at (self, index)->text;
}

/**
 * grammar_sql_template_get_placeholder_table:
 * @self: a #GrammarSqlTemplate
 * @index: which distinct placeholder
 *
 * Returns: the table of the placeholder, unquoted; in the schema's
 *   spelling once grammar_sql_template_validate() succeeded
 */
const char *
grammar_sql_template_get_placeholder_table (GrammarSqlTemplate *self,
                                            guint               index)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  g_return_val_if_fail (index < self->placeholders->len, NULL);
  return grammar_sql_template_placeholder_at (self, index)->table;
}

/**
 * grammar_sql_template_get_placeholder_column:
 * @self: a #GrammarSqlTemplate
 * @index: which distinct placeholder
 *
 * Returns: the column of the placeholder, unquoted; in the schema's
 *   spelling once grammar_sql_template_validate() succeeded
 */
const char *
grammar_sql_template_get_placeholder_column (GrammarSqlTemplate *self,
                                             guint               index)
{
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  g_return_val_if_fail (index < self->placeholders->len, NULL);
  return grammar_sql_template_placeholder_at (self, index)->column;
}

/* Values. */

static GVariant *
unbox (GVariant *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_VARIANT))
    return g_variant_get_variant (value);
  return g_variant_ref (value);
}

/* A value as an SQL literal, for display. */
static char *
sql_literal (GVariant *value)
{
  g_autoptr (GVariant) inner = unbox (value);
  g_autofree char *text = NULL;
  GString *out;

  if (g_variant_is_of_type (inner, G_VARIANT_TYPE_BYTESTRING))
    {
      g_autofree char *hex = grammar_value_to_text (inner);

      return g_strdup_printf ("X'%s'", hex);
    }
  text = grammar_value_to_text (inner);
  if (!g_variant_is_of_type (inner, G_VARIANT_TYPE_STRING))
    return g_steal_pointer (&text);

  out = g_string_new ("'");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append_c (out, '\'');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/**
 * grammar_sql_template_fill:
 * @self: a #GrammarSqlTemplate
 * @values: a tuple, or an array of variants (`av`), with one value per
 *   distinct placeholder
 *
 * The SQL text with the values written in as SQL literals (strings
 * quoted, with `'` doubled; the quotes of a quoted placeholder replaced
 * too), for people to read. It is never run: values are always bound
 * to grammar_sql_template_get_bound_sql().
 *
 * Returns: (transfer full): the filled SQL text
 */
char *
grammar_sql_template_fill (GrammarSqlTemplate *self,
                           GVariant           *values)
{
  g_autoptr (GVariant) owned = NULL;
  GString *out;
  gsize done = 0;

  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (self), NULL);
  g_return_val_if_fail (values != NULL, NULL);
  g_return_val_if_fail (g_variant_is_container (values), NULL);
  g_return_val_if_fail (g_variant_n_children (values) == self->placeholders->len, NULL);

  owned = g_variant_ref_sink (values);
  out = g_string_new (NULL);
  for (guint i = 0; i < self->occurrences->len; i++)
    {
      GrammarSqlTemplateOccurrence *occurrence = &g_array_index (self->occurrences, GrammarSqlTemplateOccurrence, i);
      g_autoptr (GVariant) value = g_variant_get_child_value (values, occurrence->index);
      g_autofree char *literal = sql_literal (value);

      g_string_append_len (out, self->sql + done, occurrence->start - done);
      g_string_append (out, literal);
      done = occurrence->end;
    }
  g_string_append (out, self->sql + done);
  return g_string_free (out, FALSE);
}
