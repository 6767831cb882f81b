/* grammar-document-template.c: the templates of the document generator: fields, blocks and their parsing
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

/* Templates ------------------------------------------------------------------- */

static void
node_free (GrammarDocgenNode *node)
{
  g_free (node->text);
  g_clear_pointer (&node->body, g_ptr_array_unref);
  g_free (node);
}

void
grammar_docgen_table_template_free (GrammarDocgenTableTemplate *template)
{
  g_free (template->title_source);
  g_free (template->text_source);
  g_clear_pointer (&template->title, g_ptr_array_unref);
  g_clear_pointer (&template->text, g_ptr_array_unref);
  g_free (template);
}

static void
add_text_node (GPtrArray *nodes,
               GString   *text)
{
  GrammarDocgenNode *node;

  if (text->len == 0)
    return;
  node = g_new0 (GrammarDocgenNode, 1);
  node->kind = NODE_TEXT;
  node->text = g_strdup (text->str);
  g_ptr_array_add (nodes, node);
  g_string_truncate (text, 0);
}

GrammarDocgenTableInfo *
grammar_docgen_find_info (GHashTable *infos,
           const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return g_hash_table_lookup (infos, lower);
}

/* The foreign key of @info named by @qualifier: one of its single
 * columns, or the table it points to when only one key does. */
static GrammarDocgenLink *
resolve_qualifier (GrammarDocgenTableInfo  *info,
                   const char              *qualifier,
                   const char              *field,
                   GError                 **error)
{
  g_autoptr (GString) choices = g_string_new (NULL);
  GrammarDocgenLink *found = NULL;
  guint n_found = 0;

  for (guint l = 0; l < info->links->len; l++)
    {
      GrammarDocgenLink *link = g_ptr_array_index (info->links, l);

      if (link->n_columns == 1 && g_ascii_strcasecmp (info->columns[link->columns[0]], qualifier) == 0)
        return link;
    }
  for (guint l = 0; l < info->links->len; l++)
    {
      GrammarDocgenLink *link = g_ptr_array_index (info->links, l);

      if (g_ascii_strcasecmp (link->parent->name, qualifier) != 0)
        continue;
      found = link;
      n_found++;
      g_string_append_printf (choices, "%s{%s.…}", choices->len > 0 ? " or " : "",
                              info->columns[link->columns[0]]);
    }
  if (n_found == 1)
    return found;
  if (n_found > 1)
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "%u foreign keys of “%s” point to “%s” (field {%s}): name the key column, %s",
                 n_found, info->name, qualifier, field, choices->str);
  else
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "unknown field {%s}: “%s” is neither a column of “%s” nor a table or column of one of its foreign keys",
                 field, qualifier, info->name);
  return NULL;
}

static GrammarDocgenNode *
resolve_field (GrammarDocgenTableInfo  *info,
               const char              *field,
               GError                 **error)
{
  const char *dot = strchr (field, '.');
  g_autofree char *qualifier = NULL;
  const char *column;
  GrammarDocgenNode *node;
  GrammarDocgenLink *link;
  int index = grammar_docgen_column_index (info, field);

  if (index < 0 && dot == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "unknown column “%s” in table “%s” (field {%s})", field, info->name, field);
      return NULL;
    }
  node = g_new0 (GrammarDocgenNode, 1);
  node->kind = NODE_FIELD;
  if (index >= 0)
    {
      node->column = (guint) index;
      return node;
    }

  qualifier = g_strstrip (g_strndup (field, dot - field));
  column = dot + 1;
  while (g_ascii_isspace (*column))
    column++;
  link = resolve_qualifier (info, qualifier, field, error);
  if (link == NULL || (index = grammar_docgen_column_index (link->parent, column)) < 0)
    {
      if (link != NULL)
        g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                     "unknown column “%s” in table “%s” (field {%s})", column, link->parent->name, field);
      node_free (node);
      return NULL;
    }
  node->link = link;
  node->column = (guint) index;
  return node;
}

/* The foreign key of the table @name (`child` or `child.fk_column`)
 * that points to @info. */
static GrammarDocgenLink *
resolve_children (GrammarDocgenParser     *parser,
                  GrammarDocgenTableInfo  *info,
                  const char              *name,
                  GError                 **error)
{
  g_autofree char *table_name = g_strdup (name);
  char *dot = strchr (table_name, '.');
  const char *column = NULL;
  GrammarDocgenTableInfo *child = grammar_docgen_find_info (parser->infos, table_name);
  GrammarDocgenLink *found = NULL;
  guint n_found = 0;

  if (child == NULL && dot != NULL)
    {
      *dot = '\0';
      column = g_strstrip (dot + 1);
      g_strstrip (table_name);
      child = grammar_docgen_find_info (parser->infos, table_name);
    }
  if (child == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "unknown table “%s” (block {%s: …})", table_name, name);
      return NULL;
    }
  for (guint l = 0; l < child->links->len; l++)
    {
      GrammarDocgenLink *link = g_ptr_array_index (child->links, l);

      if (link->parent != info ||
          (column != NULL && (link->n_columns != 1 || g_ascii_strcasecmp (child->columns[link->columns[0]], column) != 0)))
        continue;
      found = link;
      n_found++;
    }
  if (n_found == 1)
    return found;
  if (n_found == 0)
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "no foreign key of “%s”%s%s points to “%s” (block {%s: …})", child->name,
                 column != NULL ? " on column " : "", column != NULL ? column : "", info->name, name);
  else
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "%u foreign keys of “%s” point to “%s” (block {%s: …}): write {%s.KEY_COLUMN: …}",
                 n_found, child->name, info->name, name, child->name);
  return NULL;
}

static GPtrArray *parse_body (GrammarDocgenParser     *parser,
                              GrammarDocgenTableInfo  *info,
                              gboolean    nested,
                              GError    **error);

/* Reads `{name}` or `{name: body}`; the parser is on the `{`. */
static GrammarDocgenNode *
parse_braces (GrammarDocgenParser     *parser,
              GrammarDocgenTableInfo  *info,
              GError                 **error)
{
  const char *start = parser->p + 1;
  const char *end = start + strcspn (start, "{}:");
  g_autofree char *name = g_strstrip (g_strndup (start, end - start));
  GrammarDocgenLink *children;
  GrammarDocgenNode *node;

  if (*end == '\0' || *end == '{')
    {
      const char *shown = start;

      /* at most 40 bytes, cut between characters */
      g_utf8_validate_len (start, MIN (end - start, 40), &shown);
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "“{%.*s” is not closed by “}” (write {{ for a literal brace)", (int) (shown - start), start);
      return NULL;
    }
  if (name[0] == '\0')
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "a field without a name: “{%.*s”", (int) (end - start + 1), start);
      return NULL;
    }
  if (*end == '}')
    {
      parser->p = end + 1;
      return resolve_field (info, name, error);
    }

  children = resolve_children (parser, info, name, error);
  if (children == NULL)
    return NULL;
  node = g_new0 (GrammarDocgenNode, 1);
  node->kind = NODE_BLOCK;
  node->children = children;
  node->space_before = g_ascii_isspace (end[1]);
  parser->p = end + 1;
  node->body = parse_body (parser, children->child, TRUE, error);
  if (node->body == NULL)
    {
      node_free (node);
      return NULL;
    }
  /* parse_body() stopped after the closing brace */
  node->space_after = parser->p - 2 > end && g_ascii_isspace (parser->p[-2]);
  return node;
}

/* Reads text and fields up to the end, or (@nested) up to and past the
 * `}` that closes a block. */
static GPtrArray *
parse_body (GrammarDocgenParser     *parser,
            GrammarDocgenTableInfo  *info,
            gboolean                 nested,
            GError                 **error)
{
  g_autoptr (GPtrArray) nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  g_autoptr (GString) text = g_string_new (NULL);

  while (*parser->p != '\0')
    {
      const char *p = parser->p;
      GrammarDocgenNode *node;

      if (p[0] == '{' && p[1] == '{')
        {
          g_string_append_c (text, '{');
          parser->p += 2;
        }
      else if (p[0] == '}' && nested)
        {
          add_text_node (nodes, text);
          parser->p++;
          return g_steal_pointer (&nodes);
        }
      else if (p[0] == '}' && p[1] == '}')
        {
          g_string_append_c (text, '}');
          parser->p += 2;
        }
      else if (p[0] == '}')
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "a “}” without its “{” (write }} for a literal brace)");
          return NULL;
        }
      else if (p[0] == '{')
        {
          add_text_node (nodes, text);
          node = parse_braces (parser, info, error);
          if (node == NULL)
            return NULL;
          g_ptr_array_add (nodes, node);
        }
      else
        {
          g_string_append_c (text, *p);
          parser->p++;
        }
    }
  if (nested)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "a block “{…: …” is not closed by “}”");
      return NULL;
    }
  add_text_node (nodes, text);
  return g_steal_pointer (&nodes);
}

GPtrArray *
grammar_docgen_parse_template (GHashTable              *infos,
                               GrammarDocgenTableInfo  *info,
                               const char              *source,
                               GError                 **error)
{
  GrammarDocgenParser parser = { infos, source };

  return parse_body (&parser, info, FALSE, error);
}
