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

typedef struct
{
  char *text;     /* "[T.C]" as written */
  char *table;    /* unquoted; the schema's spelling once validated */
  char *column;
} Placeholder;

typedef struct
{
  gsize start;    /* byte range in sql, the quotes of a quoted placeholder included */
  gsize end;
  guint index;    /* of the distinct placeholder */
} Occurrence;

struct _GrammarSqlTemplate
{
  GObject parent_instance;

  char *id;
  char *sql;
  char *bound_sql;
  GrammarTemplateOrigin origin;
  char *note;
  GStrv tables;
  GArray *placeholders;   /* Placeholder */
  GArray *occurrences;    /* Occurrence, in text order */
};

G_DEFINE_FINAL_TYPE (GrammarSqlTemplate, grammar_sql_template, G_TYPE_OBJECT)

static void
placeholder_clear (gpointer data)
{
  Placeholder *placeholder = data;

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
  self->placeholders = g_array_new (FALSE, TRUE, sizeof (Placeholder));
  g_array_set_clear_func (self->placeholders, placeholder_clear);
  self->occurrences = g_array_new (FALSE, TRUE, sizeof (Occurrence));
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
static const char *
parse_name (const char  *p,
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

  p = parse_name (skip_blanks (text + 1), &first);
  if (p == NULL)
    return placeholder_error (text, "expected a table name after “[”", error);
  p = skip_blanks (p);
  if (*p != '.')
    return placeholder_error (text, "expected “[Table.Column]”: no “.” between table and column", error);
  p = parse_name (skip_blanks (p + 1), &second);
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
 * identifiers, comments, words, placeholders and punctuation apart. */

typedef enum
{
  TOKEN_END,
  TOKEN_SPACE,
  TOKEN_COMMENT,
  TOKEN_LINE_COMMENT,
  TOKEN_STRING,       /* '…' */
  TOKEN_QUOTED,       /* "…" or `…` */
  TOKEN_WORD,
  TOKEN_PLACEHOLDER,  /* [T.C], bare */
  TOKEN_PUNCT,        /* one character */
} TokenKind;

typedef struct
{
  TokenKind kind;
  const char *start;
  gsize length;
  gboolean unterminated;
} Token;

/* Reads the token at @p with the SQL lexer. A `[` that does not start a
 * well-formed placeholder is punctuation: the caller asks the
 * placeholder parser why when it cares. Numbers and `$name` are words,
 * other parameters punctuation, as this file only tells names and
 * keywords from the rest. */
static const char *
next_token (const char *p,
            Token      *token)
{
  GrammarSqlToken sql;
  const char *end;
  gsize length;

  token->start = p;
  token->unterminated = FALSE;
  if (*p == '[')
    {
      gboolean placeholder = grammar_placeholder_parse (p, &length, NULL, NULL, NULL);

      token->kind = placeholder ? TOKEN_PLACEHOLDER : TOKEN_PUNCT;
      token->length = placeholder ? length : 1;
      return p + token->length;
    }
  end = grammar_sql_lexer_next (p, &sql);
  token->length = sql.length;
  token->unterminated = sql.unterminated;
  switch (sql.kind)
    {
    case GRAMMAR_SQL_TOKEN_END: token->kind = TOKEN_END; break;
    case GRAMMAR_SQL_TOKEN_SPACE: token->kind = TOKEN_SPACE; break;
    case GRAMMAR_SQL_TOKEN_LINE_COMMENT: token->kind = TOKEN_LINE_COMMENT; break;
    case GRAMMAR_SQL_TOKEN_COMMENT: token->kind = TOKEN_COMMENT; break;
    case GRAMMAR_SQL_TOKEN_STRING: token->kind = TOKEN_STRING; break;
    case GRAMMAR_SQL_TOKEN_QUOTED: token->kind = TOKEN_QUOTED; break;
    case GRAMMAR_SQL_TOKEN_NUMBER:
    case GRAMMAR_SQL_TOKEN_WORD: token->kind = TOKEN_WORD; break;
    case GRAMMAR_SQL_TOKEN_PARAM: token->kind = *p == '$' ? TOKEN_WORD : TOKEN_PUNCT; break;
    case GRAMMAR_SQL_TOKEN_BRACKET:
    case GRAMMAR_SQL_TOKEN_PUNCT:
    default: token->kind = TOKEN_PUNCT; break;
    }
  return end;
}

static gboolean
token_is (const Token *token,
          const char  *word)
{
  return token->kind == TOKEN_WORD && token->length == strlen (word) &&
         g_ascii_strncasecmp (token->start, word, token->length) == 0;
}

static gboolean
token_is_punct (const Token *token,
                char         c)
{
  return token->kind == TOKEN_PUNCT && token->start[0] == c;
}

/* A string literal that holds exactly one placeholder: `'[T.C]'`. */
static gboolean
is_quoted_placeholder (const Token *token)
{
  gsize length;

  return token->kind == TOKEN_STRING && !token->unterminated && token->length > 2 &&
         token->start[1] == '[' &&
         grammar_placeholder_parse (token->start + 1, &length, NULL, NULL, NULL) &&
         length == token->length - 2;
}

/* The name a quoted identifier holds when it is ASCII letters, digits
 * and underscores (`"People_ID"`, `"order"`), else %NULL. */
static char *
quoted_plain_name (const Token *token)
{
  g_autofree char *name = NULL;

  if (token->kind != TOKEN_QUOTED || token->unterminated ||
      parse_name (token->start, &name) != token->start + token->length || !grammar_sql_is_ascii_name (name))
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
  TokenKind previous = TOKEN_END;
  const char *p;

  g_return_val_if_fail (sql != NULL, NULL);

  out = g_string_new (NULL);
  for (p = sql; *p != '\0';)
    {
      Token token;

      g_autofree char *bare = NULL;

      p = next_token (p, &token);
      if (token.kind == TOKEN_SPACE)
        g_string_append_c (out, previous == TOKEN_LINE_COMMENT ? '\n' : ' ');
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
  Placeholder placeholder = { 0, };
  gsize parsed;

  placeholder.text = g_strndup (text, length);
  grammar_placeholder_parse (placeholder.text, &parsed, &placeholder.table, &placeholder.column, NULL);

  for (guint i = 0; i < self->placeholders->len; i++)
    {
      Placeholder *known = &g_array_index (self->placeholders, Placeholder, i);

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
add_occurrence (GrammarSqlTemplate *self,
                const Token        *token,
                gboolean            quoted)
{
  Occurrence occurrence;

  occurrence.start = token->start - self->sql;
  occurrence.end = occurrence.start + token->length;
  occurrence.index = quoted ? add_placeholder (self, token->start + 1, token->length - 2)
                            : add_placeholder (self, token->start, token->length);
  g_array_append_val (self->occurrences, occurrence);
}

static gboolean
parse_error (GrammarSqlTemplate  *self,
             const Token         *token,
             GError             **error)
{
  g_autoptr (GError) local_error = NULL;
  gsize length;

  if (token->kind == TOKEN_PUNCT)
    {
      grammar_placeholder_parse (token->start, &length, NULL, NULL, &local_error);
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s: %s", self->id, local_error->message);
    }
  else
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "%s: unterminated %s", self->id,
                 token->kind == TOKEN_STRING ? "string literal" : "quoted identifier");
  return FALSE;
}

static gboolean
parse_placeholders (GrammarSqlTemplate  *self,
                    GError             **error)
{
  for (const char *p = self->sql; *p != '\0';)
    {
      Token token;

      p = next_token (p, &token);
      if (token.kind == TOKEN_PLACEHOLDER)
        add_occurrence (self, &token, FALSE);
      else if (is_quoted_placeholder (&token))
        add_occurrence (self, &token, TRUE);
      else if (token_is_punct (&token, '[') || token.unterminated)
        {
          if (token.kind != TOKEN_COMMENT)
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
      Occurrence *occurrence = &g_array_index (self->occurrences, Occurrence, i);

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

static Placeholder *
get_placeholder (GrammarSqlTemplate *self,
                 guint               index)
{
  return &g_array_index (self->placeholders, Placeholder, index);
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
  return get_placeholder (self, index)->text;
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
  return get_placeholder (self, index)->table;
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
  return get_placeholder (self, index)->column;
}

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
      Placeholder *placeholder = get_placeholder (self, i);
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
  Token first;            /* first significant token */
  gboolean more;          /* something significant after a top-level ';' */
  gssize where;           /* offset of the first top-level WHERE, or -1 */
  GPtrArray *tables;      /* names after FROM and JOIN, unquoted */
} Shape;

static char *
unquote_name (const Token *token)
{
  g_autofree char *name = NULL;

  if (token->kind == TOKEN_WORD)
    return g_strndup (token->start, token->length);
  parse_name (token->start, &name);
  return g_steal_pointer (&name);
}

static gboolean
is_clause_keyword (const Token *token)
{
  static const char * const keywords[] = {
    "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "INTERSECT", "EXCEPT",
    "WINDOW", "ON", "USING", NULL,
  };

  for (guint i = 0; keywords[i] != NULL; i++)
    if (token_is (token, keywords[i]))
      return TRUE;
  return FALSE;
}

/* Significant tokens only: no spaces, no comments. */
static const char *
next_significant (const char *p,
                  Token      *token)
{
  do
    p = next_token (p, token);
  while (token->kind == TOKEN_SPACE || token->kind == TOKEN_COMMENT || token->kind == TOKEN_LINE_COMMENT);
  return p;
}

/* A table name after FROM, JOIN or a comma of the FROM list; `main.t`
 * names t. */
static const char *
read_table_name (const char *p,
                 const Token *token,
                 GPtrArray  *tables)
{
  Token dot, name;
  const char *after = next_significant (p, &dot);

  if (token_is_punct (&dot, '.'))
    {
      const char *end = next_significant (after, &name);

      if (name.kind == TOKEN_WORD || (name.kind == TOKEN_QUOTED && !name.unterminated))
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

  for (Token token = shape->first; token.kind != TOKEN_END; p = next_significant (p, &token))
    {
      gboolean name = token.kind == TOKEN_WORD || (token.kind == TOKEN_QUOTED && !token.unterminated);

      if (after_semicolon && !token_is_punct (&token, ';'))
        shape->more = TRUE;
      if (token_is_punct (&token, '('))
        depth++;
      else if (token_is_punct (&token, ')') && depth > 0)
        depth--;
      if (depth > 0 || token_is_punct (&token, ')'))
        {
          expect_table = FALSE;
          continue;
        }

      if (token_is_punct (&token, ';'))
        after_semicolon = TRUE;
      else if (token_is (&token, "FROM") || token_is (&token, "JOIN"))
        in_from = expect_table = TRUE;
      else if (is_clause_keyword (&token))
        {
          if (token_is (&token, "WHERE") && shape->where < 0)
            shape->where = token.start - self->sql;
          in_from = expect_table = FALSE;
        }
      else if (expect_table && name)
        {
          p = read_table_name (p, &token, shape->tables);
          expect_table = FALSE;
        }
      else
        expect_table = in_from && token_is_punct (&token, ',');
    }
}

static gboolean
check_shape (GrammarSqlTemplate  *self,
             const Shape         *shape,
             GError             **error)
{
  if (!token_is (&shape->first, "SELECT") && !token_is (&shape->first, "WITH"))
    return invalid (self, error, "only a single read-only SELECT is accepted, not “%.*s”",
                    (int) MIN (shape->first.length, 40), shape->first.start);
  if (shape->more)
    return invalid (self, error, "the SQL text holds more than one statement; "
                    "only a single read-only SELECT is accepted");
  if (shape->where < 0)
    return invalid (self, error, "no WHERE clause: a placeholder must select the rows the answer comes from");

  for (guint i = 0; i < self->occurrences->len; i++)
    if (g_array_index (self->occurrences, Occurrence, i).start > (gsize) shape->where)
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
is_bare_name (const Token *token)
{
  return token->kind == TOKEN_WORD && (g_ascii_isalpha (token->start[0]) || token->start[0] == '_');
}

/* A word the dialect reserves, which bare is a keyword, not a name. */
static gboolean
is_dialect_keyword (GrammarDatabase *database,
                    const Token     *token)
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
resolve_bare_name (GrammarSqlTemplate  *self,
                   GrammarDatabase     *database,
                   NameScope           *scope,
                   const Token         *token,
                   const Token         *previous,
                   const Token         *next,
                   gboolean             in_from,
                   char               **replacement,
                   GError             **error)
{
  g_autofree char *word = g_strndup (token->start, token->length);
  g_autoptr (GPtrArray) spellings = NULL;
  gboolean after_dot = token_is_punct (previous, '.');
  gboolean before_dot = token_is_punct (next, '.');
  gboolean table_place = in_from && (token_is (previous, "FROM") || token_is (previous, "JOIN") ||
                                     token_is_punct (previous, ','));

  *replacement = NULL;
  if (token_is_punct (next, '(') || next->kind == TOKEN_STRING)
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
  Token previous = { TOKEN_END, "", 0, FALSE }, token, next;
  gboolean in_from = FALSE, ok = TRUE;
  const char *p, *after;

  name_scope_init (&scope, schema, table_names);
  p = next_significant (self->bound_sql, &token);
  g_string_append_len (out, self->bound_sql, token.start - self->bound_sql);
  for (; token.kind != TOKEN_END && ok; token = next, p = after)
    {
      g_autofree char *replacement = NULL;

      after = next_significant (p, &next);
      if (token_is (&token, "FROM") || token_is (&token, "JOIN"))
        in_from = TRUE;
      else if (is_clause_keyword (&token) && !token_is (&token, "ON") && !token_is (&token, "USING"))
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
      Occurrence *occurrence = &g_array_index (self->occurrences, Occurrence, i);
      g_autoptr (GVariant) value = g_variant_get_child_value (values, occurrence->index);
      g_autofree char *literal = sql_literal (value);

      g_string_append_len (out, self->sql + done, occurrence->start - done);
      g_string_append (out, literal);
      done = occurrence->end;
    }
  g_string_append (out, self->sql + done);
  return g_string_free (out, FALSE);
}
