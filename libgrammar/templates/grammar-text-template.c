/* grammar-text-template.c: a natural-language form of an SQL template
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-error.h"
#include "grammar-text-template.h"
#include "grammar-sql-template-private.h"
#include "grammar-value.h"

/**
 * GrammarTextTemplate:
 *
 * A question or request in natural language that stands for an SQL
 * template, in one linguistic style, with the same placeholders:
 * `What industry is '[company.Name]' in?` for
 * `SELECT Industry FROM company WHERE Name = '[company.Name]'`. It refers
 * to its SQL template by id. In JSON:
 * `{"template": "s…", "style": "short", "text": "…"}`.
 *
 * In the text, `[Table.Column]` is a placeholder wherever it appears;
 * brackets that do not hold a `Table.Column` pair are plain text.
 */
struct _GrammarTextTemplate
{
  GObject parent_instance;

  char *template_id;
  char *style;
  char *text;
};

G_DEFINE_FINAL_TYPE (GrammarTextTemplate, grammar_text_template, G_TYPE_OBJECT)

static void
grammar_text_template_finalize (GObject *object)
{
  GrammarTextTemplate *self = GRAMMAR_TEXT_TEMPLATE (object);

  g_free (self->template_id);
  g_free (self->style);
  g_free (self->text);

  G_OBJECT_CLASS (grammar_text_template_parent_class)->finalize (object);
}

static void
grammar_text_template_class_init (GrammarTextTemplateClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_text_template_finalize;
}

static void
grammar_text_template_init (GrammarTextTemplate *self)
{
}

/**
 * grammar_text_template_new:
 * @template_id: the id of the SQL template this text stands for
 * @style: the linguistic style (`short`, `long`, `formal`…)
 * @text: the text, with the SQL template's placeholders
 *
 * Makes a text template. Nothing is checked here: see
 * grammar_text_template_check_placeholders().
 *
 * Returns: (transfer full): a new #GrammarTextTemplate
 */
GrammarTextTemplate *
grammar_text_template_new (const char *template_id,
                           const char *style,
                           const char *text)
{
  GrammarTextTemplate *self;

  g_return_val_if_fail (template_id != NULL, NULL);
  g_return_val_if_fail (style != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_TEXT_TEMPLATE, NULL);
  self->template_id = g_strdup (template_id);
  self->style = g_strdup (style);
  self->text = g_strdup (text);
  return self;
}

static const char *
get_string_member (JsonObject  *object,
                   const char  *member,
                   GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "a text template needs a “%s” string member", member);
      return NULL;
    }
  return json_node_get_string (node);
}

/**
 * grammar_text_template_new_from_json:
 * @node: a JSON object `{"template", "style", "text"}`
 * @error: return location for a #GError
 *
 * Reads a text template as grammar_text_template_to_json() writes it.
 * Other members are ignored.
 *
 * Returns: (transfer full) (nullable): the text template, or %NULL with
 *   a %GRAMMAR_ERROR_INVALID_INPUT error naming the missing member
 */
GrammarTextTemplate *
grammar_text_template_new_from_json (JsonNode  *node,
                                     GError   **error)
{
  JsonObject *object;
  const char *template_id, *style, *text;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "a text template must be a JSON object with “template”, “style” and “text”");
      return NULL;
    }
  object = json_node_get_object (node);
  if ((template_id = get_string_member (object, "template", error)) == NULL ||
      (style = get_string_member (object, "style", error)) == NULL ||
      (text = get_string_member (object, "text", error)) == NULL)
    return NULL;
  return grammar_text_template_new (template_id, style, text);
}

/**
 * grammar_text_template_to_json:
 * @self: a #GrammarTextTemplate
 *
 * Returns: (transfer full): the JSON object `{"template", "style", "text"}`
 */
JsonNode *
grammar_text_template_to_json (GrammarTextTemplate *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_TEXT_TEMPLATE (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "template");
  json_builder_add_string_value (builder, self->template_id);
  json_builder_set_member_name (builder, "style");
  json_builder_add_string_value (builder, self->style);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, self->text);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/**
 * grammar_text_template_get_template_id:
 * @self: a #GrammarTextTemplate
 *
 * Returns: the id of the SQL template
 */
const char *
grammar_text_template_get_template_id (GrammarTextTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TEXT_TEMPLATE (self), NULL);
  return self->template_id;
}

/**
 * grammar_text_template_get_style:
 * @self: a #GrammarTextTemplate
 *
 * Returns: the linguistic style
 */
const char *
grammar_text_template_get_style (GrammarTextTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TEXT_TEMPLATE (self), NULL);
  return self->style;
}

/**
 * grammar_text_template_get_text:
 * @self: a #GrammarTextTemplate
 *
 * Returns: the text with its placeholders
 */
const char *
grammar_text_template_get_text (GrammarTextTemplate *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TEXT_TEMPLATE (self), NULL);
  return self->text;
}

/* Placeholders in the text. */

typedef struct
{
  gsize start;
  gsize length;
  int index;      /* of the SQL template's placeholder, or -1 */
} Found;

static int
match_placeholder (GrammarSqlTemplate *sql_template,
                   const char         *table,
                   const char         *column)
{
  guint n = grammar_sql_template_get_n_placeholders (sql_template);

  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (grammar_sql_template_get_placeholder_table (sql_template, i), table) == 0 &&
        g_ascii_strcasecmp (grammar_sql_template_get_placeholder_column (sql_template, i), column) == 0)
      return (int) i;
  return -1;
}

/* Every `[Table.Column]` of @text, in order, with the SQL placeholder it
 * stands for. */
static GArray *
find_placeholders (const char         *text,
                   GrammarSqlTemplate *sql_template)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (Found));

  for (const char *p = strchr (text, '['); p != NULL; p = strchr (p, '['))
    {
      g_autofree char *table = NULL;
      g_autofree char *column = NULL;
      Found one;

      if (!grammar_placeholder_parse (p, &one.length, &table, &column, NULL))
        {
          p++;
          continue;
        }
      one.start = p - text;
      one.index = match_placeholder (sql_template, table, column);
      g_array_append_val (found, one);
      p += one.length;
    }
  return found;
}

static gboolean
placeholder_problem (GrammarTextTemplate  *self,
                     const char           *problem,
                     int                   length,
                     const char           *placeholder,
                     GError              **error)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "%s: text template “%s” (style %s): %s %.*s",
               self->template_id, self->text, self->style, problem, length, placeholder);
  return FALSE;
}

/**
 * grammar_text_template_check_placeholders:
 * @self: a #GrammarTextTemplate
 * @sql_template: the SQL template the text stands for
 * @error: return location for a #GError
 *
 * Checks that the text holds every placeholder of @sql_template at
 * least once and no other `[Table.Column]` placeholder (names compare
 * without regard to ASCII case): a text that lost a placeholder would
 * ask a question the answer does not fit, one with an extra placeholder
 * could not be filled.
 *
 * Returns: %TRUE when the placeholders match; otherwise %FALSE with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error that starts with the SQL template
 *   id and names the text, its style and the placeholder missing or extra
 */
gboolean
grammar_text_template_check_placeholders (GrammarTextTemplate  *self,
                                          GrammarSqlTemplate   *sql_template,
                                          GError              **error)
{
  g_autoptr (GArray) found = NULL;
  guint n;

  g_return_val_if_fail (GRAMMAR_IS_TEXT_TEMPLATE (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  found = find_placeholders (self->text, sql_template);
  for (guint i = 0; i < found->len; i++)
    {
      Found *one = &g_array_index (found, Found, i);

      if (one->index < 0)
        return placeholder_problem (self, "has a placeholder the SQL template does not have:",
                                    (int) one->length, self->text + one->start, error);
    }

  n = grammar_sql_template_get_n_placeholders (sql_template);
  for (guint index = 0; index < n; index++)
    {
      gboolean present = FALSE;

      for (guint i = 0; i < found->len && !present; i++)
        present = g_array_index (found, Found, i).index == (int) index;
      if (!present)
        return placeholder_problem (self, "lacks the placeholder", -1,
                                    grammar_sql_template_get_placeholder (sql_template, index), error);
    }
  return TRUE;
}

/* Whether the placeholder @one of @text is written between two equal
 * quotes, ' or ". */
static gboolean
is_quoted (const char  *text,
           const Found *one)
{
  char before, after;

  if (one->start == 0)
    return FALSE;
  before = text[one->start - 1];
  after = text[one->start + one->length];
  return (before == '\'' || before == '"') && after == before;
}

/* The quotes a value that holds a quote is written in. */
static void
quotes_for (const char  *value,
            const char **open,
            const char **close)
{
  gboolean single = strchr (value, '\'') != NULL;
  gboolean double_quote = strchr (value, '"') != NULL;

  if (single && double_quote)
    {
      *open = "“";
      *close = "”";
    }
  else
    *open = *close = single ? "\"" : "'";
}

/**
 * grammar_text_template_fill:
 * @self: a #GrammarTextTemplate
 * @sql_template: the SQL template the text stands for
 * @values: a tuple, or an array of variants (`av`), with one value per
 *   distinct placeholder of @sql_template
 *
 * The text query: each placeholder replaced by its value as
 * grammar_value_to_text() writes it. Quotes written around a
 * placeholder in the text stay, unless the value holds that quote
 * itself: a value with an apostrophe goes in double quotes (`"Flann
 * O'Brien"`, not `'Flann O'Brien'`), one with a double quote in single
 * quotes, and one with both in typographic quotes (“…”), so that a
 * reader still sees where the value ends. The choice is made per value.
 *
 * Returns: (transfer full): the filled text
 */
char *
grammar_text_template_fill (GrammarTextTemplate *self,
                            GrammarSqlTemplate  *sql_template,
                            GVariant            *values)
{
  g_autoptr (GVariant) owned = NULL;
  g_autoptr (GArray) found = NULL;
  GString *out;
  gsize done = 0;

  g_return_val_if_fail (GRAMMAR_IS_TEXT_TEMPLATE (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), NULL);
  g_return_val_if_fail (values != NULL && g_variant_is_container (values), NULL);
  g_return_val_if_fail (g_variant_n_children (values) == grammar_sql_template_get_n_placeholders (sql_template),
                        NULL);

  owned = g_variant_ref_sink (values);
  found = find_placeholders (self->text, sql_template);
  out = g_string_new (NULL);
  for (guint i = 0; i < found->len; i++)
    {
      Found *one = &g_array_index (found, Found, i);
      g_autoptr (GVariant) value = NULL;
      g_autofree char *text = NULL;

      if (one->index < 0)
        continue;  /* not the template's: left as written */
      value = g_variant_get_child_value (values, one->index);
      text = grammar_value_to_text (value);
      if (is_quoted (self->text, one) && strchr (text, self->text[one->start - 1]) != NULL)
        {
          const char *open, *close;

          quotes_for (text, &open, &close);
          g_string_append_len (out, self->text + done, one->start - 1 - done);
          g_string_append (out, open);
          g_string_append (out, text);
          g_string_append (out, close);
          done = one->start + one->length + 1;
          continue;
        }
      g_string_append_len (out, self->text + done, one->start - done);
      g_string_append (out, text);
      done = one->start + one->length;
    }
  g_string_append (out, self->text + done);
  return g_string_free (out, FALSE);
}
