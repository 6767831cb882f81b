/* grammar-document-rows.c: the rows of the document generator, their values, and the facts of a row for a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "grammar-document-generator-private.h"
#include "grammar-configurable.h"
#include "grammar-document-generator.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-sql-template.h"
#include "grammar-value.h"

/* Values and rows --------------------------------------------------------------- */

/* How a value reads in a document: a NULL as nothing, an integer or a
 * whole real without a point, another value as grammar_value_to_text()
 * writes it. */
static void
append_value (GString  *out,
              GVariant *value)
{
  g_autofree char *text = NULL;

  if (value == NULL)
    return;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      g_string_append (out, g_variant_get_string (value, NULL));
      return;
    }
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    {
      double real = g_variant_get_double (value);

      if (isfinite (real) && real == floor (real) && fabs (real) < 1e16)
        {
          g_string_append_printf (out, "%.0f", real);
          return;
        }
    }
  /* Another real in its shortest text that reads back as it (154.8,
   * 1.2345678901234567e+19: the value the dataset holds, where SQLite
   * prints 15 digits), a decimal as the database wrote it (154.80). */
  text = grammar_value_to_text (value);
  g_string_append (out, text);
}

static char *
value_dup_text (GVariant *value)
{
  GString *out = g_string_new (NULL);

  append_value (out, value);
  return g_string_free (out, FALSE);
}

/* A key value as JSON: whole reals as integers, like the id. */
static JsonNode *
value_to_key_json (GVariant *value)
{
  if (value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    {
      double real = g_variant_get_double (value);

      if (isfinite (real) && real == floor (real) && fabs (real) < 1e15)
        {
          JsonNode *node = json_node_new (JSON_NODE_VALUE);

          json_node_set_int (node, (gint64) real);
          return node;
        }
    }
  return grammar_value_to_json (value);
}


void
grammar_docgen_row_free (GrammarDocgenRow *row)
{
  if (row == NULL)
    return;
  for (guint c = 0; c < row->info->n_columns; c++)
    g_clear_pointer (&row->values[c], g_variant_unref);
  for (guint l = 0; l < row->info->links->len; l++)
    grammar_docgen_row_free (row->parents[l]);
  g_free (row->values);
  g_free (row->parents);
  g_free (row->fetched);
  g_free (row);
}

GrammarDocgenRow *
grammar_docgen_row_new_from_cursor (GrammarDocgenTableInfo *info,
                                    GrammarCursor          *cursor)
{
  GrammarDocgenRow *row = g_new0 (GrammarDocgenRow, 1);

  row->info = info;
  row->values = g_new0 (GVariant *, MAX (info->n_columns, 1));
  row->parents = g_new0 (GrammarDocgenRow *, MAX (info->links->len, 1));
  row->fetched = g_new0 (gboolean, MAX (info->links->len, 1));
  for (guint c = 0; c < info->n_columns; c++)
    row->values[c] = grammar_cursor_get_value (cursor, c);
  return row;
}

/* The values of @columns of @row as a parameter tuple, or %NULL when
 * one is NULL (then nothing matches). */
static GVariant *
row_parameters (GrammarDocgenRow *row,
                const guint      *columns,
                guint             n)
{
  g_autofree GVariant **values = g_new0 (GVariant *, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      values[i] = row->values[columns[i]];
      if (values[i] == NULL)
        return NULL;
    }
  return g_variant_ref_sink (g_variant_new_tuple (values, n));
}

static void
add_fact (GrammarDocgenRender *render,
          const char          *text)
{
  if (render->facts != NULL && text[0] != '\0')
    g_ptr_array_add (render->facts, g_strdup (text));
}

/* The row a foreign key of @row points to, or %NULL. */
static gboolean
row_get_parent (GrammarDocgenRender  *render,
                GrammarDocgenRow     *row,
                GrammarDocgenLink    *link,
                GrammarDocgenRow    **parent,
                GError              **error)
{
  guint index;
  g_autoptr (GVariant) parameters = NULL;
  g_autoptr (GrammarCursor) cursor = NULL;
  GError *local_error = NULL;

  g_ptr_array_find (row->info->links, link, &index);
  *parent = row->parents[index];
  if (row->fetched[index])
    return TRUE;
  row->fetched[index] = TRUE;
  parameters = row_parameters (row, link->columns, link->n_columns);
  if (parameters == NULL)
    return TRUE;
  cursor = grammar_database_query_cursor (render->self->database, link->parent_sql, parameters,
                                          render->cancellable, error);
  if (cursor == NULL)
    return FALSE;
  if (grammar_cursor_next (cursor, render->cancellable, &local_error))
    row->parents[index] = grammar_docgen_row_new_from_cursor (link->parent, cursor);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  *parent = row->parents[index];
  return TRUE;
}

/* The rows of @link's table that point to @row. */
static GrammarCursor *
row_query_children (GrammarDocgenRender  *render,
                    GrammarDocgenRow     *row,
                    GrammarDocgenLink    *link,
                    GError              **error)
{
  g_autoptr (GVariant) parameters = row_parameters (row, link->parent_columns, link->n_columns);

  if (parameters == NULL)
    return NULL;
  return grammar_database_query_cursor (render->self->database, link->children_sql, parameters,
                                        render->cancellable, error);
}

static gboolean
render_field (GrammarDocgenRender  *render,
              GrammarDocgenNode    *node,
              GrammarDocgenRow     *row,
              GString              *out,
              GError              **error)
{
  GrammarDocgenRow *target = row;
  gsize start = out->len;

  if (node->link != NULL && !row_get_parent (render, row, node->link, &target, error))
    return FALSE;
  if (target != NULL)
    append_value (out, target->values[node->column]);
  add_fact (render, out->str + start);
  return TRUE;
}

static gboolean
render_block (GrammarDocgenRender  *render,
              GrammarDocgenNode    *node,
              GrammarDocgenRow     *row,
              GString              *out,
              GError              **error)
{
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autoptr (GString) joined = g_string_new (NULL);
  GError *local_error = NULL;

  cursor = row_query_children (render, row, node->children, &local_error);
  if (cursor == NULL)
    {
      if (local_error == NULL)
        return TRUE;
      g_propagate_error (error, local_error);
      return FALSE;
    }
  while (grammar_cursor_next (cursor, render->cancellable, &local_error))
    {
      g_autoptr (GrammarDocgenRow) child = grammar_docgen_row_new_from_cursor (node->children->child, cursor);
      g_autoptr (GString) part = g_string_new (NULL);

      if (!grammar_docgen_render_nodes (render, node->body, child, part, error))
        return FALSE;
      g_strstrip (part->str);
      g_string_set_size (part, strlen (part->str));
      if (part->len == 0)
        continue;
      if (joined->len > 0)
        g_string_append_c (joined, ' ');
      g_string_append_len (joined, part->str, part->len);
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (joined->len == 0)
    return TRUE;
  if (node->space_before)
    g_string_append_c (out, ' ');
  g_string_append_len (out, joined->str, joined->len);
  if (node->space_after)
    g_string_append_c (out, ' ');
  return TRUE;
}

gboolean
grammar_docgen_render_nodes (GrammarDocgenRender  *render,
                             GPtrArray            *nodes,
                             GrammarDocgenRow     *row,
                             GString              *out,
                             GError              **error)
{
  for (guint n = 0; n < nodes->len; n++)
    {
      GrammarDocgenNode *node = g_ptr_array_index (nodes, n);
      gboolean ok = TRUE;

      if (node->kind == NODE_TEXT)
        g_string_append (out, node->text);
      else if (node->kind == NODE_FIELD)
        ok = render_field (render, node, row, out, error);
      else
        ok = render_block (render, node, row, out, error);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* The key values of @row joined by @separator; in a key of several
 * columns `-` and `%` inside values are escaped so that ids stay
 * unique. Returns %FALSE when a key value is NULL. */
static gboolean
append_key (GString          *out,
            GrammarDocgenRow *row,
            const char       *separator)
{
  GrammarDocgenTableInfo *info = row->info;

  for (guint k = 0; k < info->n_key; k++)
    {
      GVariant *value = row->values[info->key[k]];
      g_autofree char *text = NULL;

      if (value == NULL)
        return FALSE;
      if (k > 0)
        g_string_append (out, separator);
      text = value_dup_text (value);
      if (info->n_key == 1)
        {
          g_string_append (out, text);
          continue;
        }
      for (const char *p = text; *p != '\0'; p++)
        {
          if (*p == '-')
            g_string_append (out, "%2D");
          else if (*p == '%')
            g_string_append (out, "%25");
          else
            g_string_append_c (out, *p);
        }
    }
  return TRUE;
}

/* `Column: value.` for each non-NULL column outside the key. */
static void
append_default_text (GString          *out,
                     GrammarDocgenRow *row)
{
  for (guint c = 0; c < row->info->n_columns; c++)
    {
      g_autofree char *text = NULL;
      gsize length;

      if (grammar_docgen_is_key_column (row->info, c) || row->values[c] == NULL)
        continue;
      text = value_dup_text (row->values[c]);
      length = strlen (text);
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s: %s", row->info->columns[c], text);
      /* a value that ends a sentence itself needs no second full stop */
      if (length == 0 || strchr (".!?", text[length - 1]) == NULL)
        g_string_append_c (out, '.');
    }
}

void
grammar_docgen_document_free (GrammarDocgenDocument *document)
{
  g_free (document->id);
  g_free (document->title);
  g_free (document->text);
  g_clear_pointer (&document->key, json_node_unref);
  g_free (document->facts);
  g_clear_pointer (&document->values, g_ptr_array_unref);
  g_free (document);
}

static JsonNode *
row_key_json (GrammarDocgenRow *row)
{
  g_autoptr (JsonObject) object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  for (guint k = 0; k < row->info->n_key; k++)
    json_object_set_member (object, row->info->columns[row->info->key[k]],
                            value_to_key_json (row->values[row->info->key[k]]));
  json_node_set_object (node, object);
  return node;
}

/* The id, key and title of @row's document into @out, which is %NULL
 * when the row's key has a NULL (no id can be made). */
gboolean
grammar_docgen_document_new (GrammarDocgenRender         *render,
                             GrammarDocgenRow            *row,
                             GrammarDocgenTableTemplate  *template,
                             GrammarDocgenDocument      **out,
                             GError                     **error)
{
  g_autoptr (GrammarDocgenDocument) document = g_new0 (GrammarDocgenDocument, 1);
  g_autoptr (GString) id = g_string_new (row->info->name);
  g_autoptr (GString) title = g_string_new (NULL);

  *out = NULL;
  g_string_append_c (id, '-');
  if (!append_key (id, row, "-"))
    return TRUE;
  if (template != NULL && template->title != NULL)
    {
      if (!grammar_docgen_render_nodes (render, template->title, row, title, error))
        return FALSE;
    }
  else
    {
      g_string_append_printf (title, "%s ", row->info->name);
      append_key (title, row, "-");
    }
  document->id = g_string_free (g_steal_pointer (&id), FALSE);
  document->title = g_strstrip (g_string_free (g_steal_pointer (&title), FALSE));
  document->table = row->info->name;
  document->key = row_key_json (row);
  *out = g_steal_pointer (&document);
  return TRUE;
}

gboolean
grammar_docgen_render_text (GrammarDocgenRender         *render,
                            GrammarDocgenRow            *row,
                            GrammarDocgenTableTemplate  *template,
                            GString                     *out,
                            GError                     **error)
{
  if (template != NULL && template->text != NULL)
    return grammar_docgen_render_nodes (render, template->text, row, out, error);
  append_default_text (out, row);
  return TRUE;
}

/* The facts of a row for a language model --------------------------------------- */

/* Whether column @c of @row is a number in a primary or foreign key: a
 * surrogate id, which says nothing to a reader (the rows a foreign key
 * points to are described instead). */
static gboolean
is_id_column (GrammarDocgenRow *row,
              guint             c)
{
  GPtrArray *links = row->info->links;

  if (row->values[c] == NULL || g_variant_is_of_type (row->values[c], G_VARIANT_TYPE_STRING))
    return FALSE;
  if (grammar_docgen_is_key_column (row->info, c))
    return TRUE;
  for (guint l = 0; l < links->len; l++)
    {
      GrammarDocgenLink *link = g_ptr_array_index (links, l);

      for (guint i = 0; i < link->n_columns; i++)
        if (link->columns[i] == c)
          return TRUE;
    }
  return FALSE;
}

/* `Column: value; …` for the non-NULL columns of @row, leaving out
 * surrogate ids and the columns of @skip. */
static void
describe_row (GrammarDocgenRender *render,
              GrammarDocgenRow    *row,
              GrammarDocgenLink   *skip,
              GString             *out)
{
  gboolean first = TRUE;

  for (guint c = 0; c < row->info->n_columns; c++)
    {
      GVariant *value = row->values[c];
      gboolean skipped = FALSE;
      gsize start;

      for (guint i = 0; skip != NULL && i < skip->n_columns; i++)
        skipped |= skip->columns[i] == c;
      if (value == NULL || skipped || is_id_column (row, c))
        continue;
      g_string_append_printf (out, "%s%s: ", first ? "" : "; ", row->info->columns[c]);
      start = out->len;
      append_value (out, value);
      add_fact (render, out->str + start);
      first = FALSE;
    }
}

static gboolean
describe_parents (GrammarDocgenRender  *render,
                  GrammarDocgenRow     *row,
                  GrammarDocgenLink    *skip,
                  GString              *out,
                  GError              **error)
{
  for (guint l = 0; l < row->info->links->len; l++)
    {
      GrammarDocgenLink *link = g_ptr_array_index (row->info->links, l);
      GrammarDocgenRow *parent = NULL;

      if (link == skip)
        continue;
      if (!row_get_parent (render, row, link, &parent, error))
        return FALSE;
      if (parent == NULL)
        continue;
      g_string_append_printf (out, "%s%s (%s): ", out->len > 0 ? "; " : "",
                              link->parent->name, row->info->columns[link->columns[0]]);
      describe_row (render, parent, NULL, out);
    }
  return TRUE;
}

/* One line per row that points to @row, at most MAX_RELATED_ROWS a table. */
static gboolean
describe_children (GrammarDocgenRender  *render,
                   GrammarDocgenRow     *row,
                   GString              *out,
                   GError              **error)
{
  GPtrArray *infos = render->self->info_order;

  for (guint t = 0; t < infos->len; t++)
    {
      GrammarDocgenTableInfo *child_info = g_ptr_array_index (infos, t);

      for (guint l = 0; l < child_info->links->len; l++)
        {
          GrammarDocgenLink *link = g_ptr_array_index (child_info->links, l);
          g_autoptr (GrammarCursor) cursor = NULL;
          GError *local_error = NULL;
          guint n = 0;

          if (link->parent != row->info)
            continue;
          cursor = row_query_children (render, row, link, &local_error);
          while (cursor != NULL && n <= MAX_RELATED_ROWS &&
                 grammar_cursor_next (cursor, render->cancellable, &local_error))
            {
              g_autoptr (GrammarDocgenRow) child = NULL;
              g_autoptr (GString) part = NULL;

              if (++n > MAX_RELATED_ROWS)
                {
                  g_string_append_printf (out, "- (more %s rows not listed)\n", child_info->name);
                  break;
                }
              child = grammar_docgen_row_new_from_cursor (child_info, cursor);
              part = g_string_new (NULL);
              describe_row (render, child, link, part);
              if (!describe_parents (render, child, link, part, error))
                return FALSE;
              g_string_append_printf (out, "- %s (%s): %s", child_info->name,
                                      child_info->columns[link->columns[0]], part->str);
              g_string_append_c (out, '\n');
            }
          if (local_error != NULL)
            {
              g_propagate_error (error, local_error);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* The profile of a row without a template, as in the paper's Table 8:
 * a heading, one `**Column**: value` line per column, the rows its
 * foreign keys point to, and the rows that point to it. */
gboolean
grammar_docgen_describe_profile (GrammarDocgenRender  *render,
                                 GrammarDocgenRow     *row,
                                 GString              *out,
                                 GError              **error)
{
  g_autoptr (GString) related = g_string_new (NULL);

  g_string_append_printf (out, "%s profile\n", row->info->name);
  for (guint c = 0; c < row->info->n_columns; c++)
    {
      GVariant *value = row->values[c];
      gsize start;

      if (value == NULL || is_id_column (row, c))
        continue;
      g_string_append_printf (out, "**%s**: ", row->info->columns[c]);
      start = out->len;
      append_value (out, value);
      add_fact (render, out->str + start);
      g_string_append_c (out, '\n');
    }
  for (guint l = 0; l < row->info->links->len; l++)
    {
      GrammarDocgenLink *link = g_ptr_array_index (row->info->links, l);
      GrammarDocgenRow *parent = NULL;

      if (!row_get_parent (render, row, link, &parent, error))
        return FALSE;
      if (parent == NULL)
        continue;
      g_string_append_printf (out, "**%s** (%s): ", link->parent->name, row->info->columns[link->columns[0]]);
      describe_row (render, parent, NULL, out);
      g_string_append_c (out, '\n');
    }
  if (!describe_children (render, row, related, error))
    return FALSE;
  if (related->len > 0)
    g_string_append_printf (out, "Related rows:\n%s", related->str);
  return TRUE;
}

/* The prompt, adapted from Appendix G.2 of the GRAMMAR paper: a profile
 * of facts becomes a Wikipedia-style page of 200-400 words. */
GrammarChatRequest *
grammar_docgen_build_request (const char *subject,
               const char *facts)
{
  GrammarChatRequest *request = grammar_chat_request_new ();
  g_autofree char *prompt = g_strdup_printf (
    "Write a Wikipedia-style page of 200 to 400 words about %s.\n"
    "\n"
    "Rules:\n"
    "- State every fact of the profile, keeping names, numbers and dates exactly as written.\n"
    "- Do not change or contradict any fact. You may add general background, but no other names, "
    "numbers or dates.\n"
    "- Weave the facts into flowing prose instead of copying the profile as a list.\n"
    "- Write plain paragraphs only: no title, headings, lists or Markdown.\n"
    "\n"
    "Profile:\n"
    "%s",
    subject, facts);

  grammar_chat_request_add_message (request, "user", prompt);
  grammar_chat_request_set_temperature (request, 0.0);
  grammar_chat_request_set_max_tokens (request, 1024);
  return request;
}
