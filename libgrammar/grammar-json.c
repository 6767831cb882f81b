/* grammar-json.c: the members the JSON reports write the same way
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "grammar-error.h"
#include "grammar-json-private.h"
#include "grammar-qa-generator-private.h"

/* Member @name: @value, or null when it is not finite. */
void
grammar_json_add_number (JsonBuilder *builder,
                         const char  *name,
                         double       value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
grammar_json_add_int (JsonBuilder *builder,
                      const char  *name,
                      guint64      value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, (gint64) value);
}

/* Member @name: [@low, @high], or null when the interval is not @defined. */
void
grammar_json_add_interval (JsonBuilder *builder,
                           const char  *name,
                           gboolean     defined,
                           double       low,
                           double       high)
{
  json_builder_set_member_name (builder, name);
  if (!defined)
    {
      json_builder_add_null_value (builder);
      return;
    }
  json_builder_begin_array (builder);
  if (isfinite (low))
    json_builder_add_double_value (builder, low);
  else
    json_builder_add_null_value (builder);
  if (isfinite (high))
    json_builder_add_double_value (builder, high);
  else
    json_builder_add_null_value (builder);
  json_builder_end_array (builder);
}

/* Writing JSON ----------------------------------------------------------- */

static void
append_indent (Buffer *out,
               guint   indent,
               guint   level)
{
  for (guint i = 0; i < indent * level; i++)
    grammar_qa_buffer_append_c (out, ' ');
}

/* Every file the product writes takes its numbers from here (through
 * grammar_qa_append_json_double()): json-glib's generator writes 1e20 as
 * "1e+20.0" and infinity as "inf.0", which no JSON reader accepts, the
 * product's own included. A finite double is its shortest round-trip
 * text; JSON has no infinity nor NaN, so they are written as the strings
 * "Infinity", "-Infinity" and "NaN" (doc/formats.md), never bare.
 *
 * Laid out as json-glib's generator lays it out ("key" : value when
 * pretty), so that only the numbers differ from what it wrote. */
static void
append_node (Buffer   *out,
             JsonNode *node,
             guint     indent,
             guint     level)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_NULL:
      buffer_append_literal (out, "null");
      break;
    case JSON_NODE_VALUE:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_STRING)
          {
            const char *text = json_node_get_string (node);

            if (text != NULL)
              grammar_qa_append_json_string (out, text, strlen (text));
            else
              buffer_append_literal (out, "null");
          }
        else if (type == G_TYPE_DOUBLE)
          grammar_qa_append_json_double (out, json_node_get_double (node));
        else if (type == G_TYPE_BOOLEAN)
          {
            if (json_node_get_boolean (node))
              buffer_append_literal (out, "true");
            else
              buffer_append_literal (out, "false");
          }
        else
          grammar_qa_append_json_int (out, json_node_get_int (node));
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        grammar_qa_buffer_append_c (out, '[');
        if (indent > 0)
          grammar_qa_buffer_append_c (out, '\n');
        for (guint i = 0; i < n; i++)
          {
            append_indent (out, indent, level + 1);
            append_node (out, json_array_get_element (array, i), indent, level + 1);
            if (i + 1 < n)
              grammar_qa_buffer_append_c (out, ',');
            if (indent > 0)
              grammar_qa_buffer_append_c (out, '\n');
          }
        append_indent (out, indent, level);
        grammar_qa_buffer_append_c (out, ']');
      }
      break;
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        guint n = json_object_get_size (object), i = 0;

        grammar_qa_buffer_append_c (out, '{');
        if (indent > 0)
          grammar_qa_buffer_append_c (out, '\n');
        json_object_iter_init_ordered (&iter, object);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            append_indent (out, indent, level + 1);
            grammar_qa_append_json_string (out, name, strlen (name));
            if (indent > 0)
              buffer_append_literal (out, " : ");
            else
              grammar_qa_buffer_append_c (out, ':');
            append_node (out, member, indent, level + 1);
            if (++i < n)
              grammar_qa_buffer_append_c (out, ',');
            if (indent > 0)
              grammar_qa_buffer_append_c (out, '\n');
          }
        append_indent (out, indent, level);
        grammar_qa_buffer_append_c (out, '}');
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Appends @node to @out: on one line when @indent is 0, else pretty
 * with @indent spaces a level. */
void
grammar_json_append_node (GString  *out,
                          JsonNode *node,
                          guint     indent)
{
  Buffer buffer = { 0, };

  append_node (&buffer, node, indent, 0);
  g_string_append_len (out, buffer.data, buffer.len);
  grammar_qa_buffer_clear (&buffer);
}

/* As grammar_json_append_node(), for a node written at depth @level of
 * a document written piece by piece. */
void
grammar_json_append_node_at (GString  *out,
                             JsonNode *node,
                             guint     indent,
                             guint     level)
{
  Buffer buffer = { 0, };

  append_node (&buffer, node, indent, level);
  g_string_append_len (out, buffer.data, buffer.len);
  grammar_qa_buffer_clear (&buffer);
}

/**
 * grammar_json_to_data:
 * @node: a JSON tree
 * @indent: spaces a level, or 0 for one line
 * @length: (out) (optional): return location for the length of the text
 *
 * Writes @node as JSON text, as every file of the product is written: a
 * finite real in the shortest form that reads back as the same double
 * (`0.1`, `1e+20`), infinities and NaN as the strings `"Infinity"`,
 * `"-Infinity"` and `"NaN"` (JSON has no such numbers), and the layout
 * of #JsonGenerator (`"key" : value` when @indent is not 0).
 *
 * Returns: (transfer full): the text, nul-terminated
 */
char *
grammar_json_to_data (JsonNode *node,
                      guint     indent,
                      gsize    *length)
{
  Buffer buffer = { 0, };

  g_return_val_if_fail (node != NULL, NULL);

  append_node (&buffer, node, indent, 0);
  grammar_qa_buffer_append_c (&buffer, '\0');
  if (length != NULL)
    *length = buffer.len - 1;
  return buffer.data;
}

/* Reading JSON ----------------------------------------------------------- */

/* json-glib's parser recurses once a level: a line of 70,000 "[" ran it
 * out of stack (SIGSEGV). One pass over the bytes, counting brackets
 * outside strings, finds such a text before it is parsed; the parser
 * still judges whether the text is valid. @first_line is the number of
 * the text's first line in @path, for the message. */
gboolean
grammar_json_check_depth (const char  *path,
                          guint64      first_line,
                          const char  *text,
                          gsize        length,
                          GError     **error)
{
  guint64 line = first_line;
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (c == '\n')
        line++;
      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > GRAMMAR_JSON_MAX_DEPTH)
            {
              g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                           "%s:%" G_GUINT64_FORMAT ": JSON nested deeper than %d levels",
                           path, line, GRAMMAR_JSON_MAX_DEPTH);
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

/* grammar_json_check_depth() on a whole file; a file that cannot be
 * read passes, for the parser to say why. */
gboolean
grammar_json_check_file_depth (const char  *path,
                               GError     **error)
{
  g_autoptr (GMappedFile) mapped = g_mapped_file_new (path, FALSE, NULL);

  return mapped == NULL ||
         grammar_json_check_depth (path, 1, g_mapped_file_get_contents (mapped),
                                   g_mapped_file_get_length (mapped), error);
}

/* Loads a whole JSON file into @parser, its depth checked first; errors
 * name the file. */
gboolean
grammar_json_load_file (JsonParser  *parser,
                        const char  *path,
                        GError     **error)
{
  g_autoptr (GMappedFile) mapped = NULL;
  g_autoptr (GError) local_error = NULL;
  const char *text;
  gsize length;

  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s", local_error->message);
      return FALSE;
    }
  text = g_mapped_file_get_contents (mapped);
  length = g_mapped_file_get_length (mapped);
  if (!grammar_json_check_depth (path, 1, text, length, error))
    return FALSE;
  if (!json_parser_load_from_data (parser, length > 0 ? text : "", length, &local_error))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", path, local_error->message);
      return FALSE;
    }
  return TRUE;
}
