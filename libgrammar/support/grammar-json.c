/* grammar-json.c: the members the JSON reports write the same way
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "grammar-error.h"
#include "grammar-json-private.h"
#include "grammar-json-writer-private.h"

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

/* Numbers kept as written --------------------------------------------------- */

/* json-glib holds a JSON number as a gint64 or a double: 154.80 reads as
 * 154.8, 12345678901234567890.5 loses its last digits, and an integer
 * beyond 64 bits wraps around. A number that would not read back as
 * written is held instead as an object with this one member, its text
 * (MongoDB's extended JSON writes a decimal so), and written back as
 * that number. */
#define NUMBER_MEMBER "$numberDecimal"

/* The end of the JSON number at @start of @text (the grammar of RFC 8259:
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), or @start when there is
 * none. */
static gsize
scan_number (const char *text,
             gsize       length,
             gsize       start)
{
  gsize i = start;

  if (i < length && text[i] == '-')
    i++;
  if (i < length && text[i] == '0')
    i++;
  else if (i < length && text[i] >= '1' && text[i] <= '9')
    while (i < length && g_ascii_isdigit (text[i]))
      i++;
  else
    return start;
  if (i < length && text[i] == '.')
    {
      if (i + 1 >= length || !g_ascii_isdigit (text[i + 1]))
        return start;
      for (i++; i < length && g_ascii_isdigit (text[i]); i++)
        ;
    }
  if (i < length && (text[i] == 'e' || text[i] == 'E'))
    {
      i++;
      if (i < length && (text[i] == '+' || text[i] == '-'))
        i++;
      if (i >= length || !g_ascii_isdigit (text[i]))
        return start;
      while (i < length && g_ascii_isdigit (text[i]))
        i++;
    }
  return i;
}

static gboolean
is_json_number (const char *text)
{
  gsize length = strlen (text);

  return length > 0 && scan_number (text, length, 0) == length;
}

/* Whether json-glib reads the number @token (@length bytes) as a value
 * that the writer above writes back as the same bytes. */
static gboolean
number_reads_back (const char *token,
                   gsize       length)
{
  const char *end = token + length;
  const char *p = token;
  const char *integer, *fraction = NULL;
  gsize integer_digits, fraction_digits = 0;
  gboolean negative = *p == '-';

  if (negative)
    p++;
  integer = p;
  while (p < end && g_ascii_isdigit (*p))
    p++;
  integer_digits = (gsize) (p - integer);
  if (p == end)
    {
      /* An integer: a gint64, which json-glib wraps around beyond its
       * range; -0 reads back as 0. */
      if (negative && integer_digits == 1 && *integer == '0')
        return FALSE;
      if (integer_digits != 19)
        return integer_digits < 19;
      return memcmp (integer, negative ? "9223372036854775808" : "9223372036854775807", 19) <= 0;
    }

  if (*p == '.')
    {
      fraction = ++p;
      while (p < end && g_ascii_isdigit (*p))
        p++;
      fraction_digits = (gsize) (p - fraction);
    }
  /* The usual case without formatting it: at most 15 significant digits
   * (a double keeps them all, and no shorter text reads as the same
   * double), no exponent, no trailing zero but the one of `2.0`, from
   * 1e-4 on, which the writer writes positionally. */
  if (p == end)
    {
      if (fraction_digits == 1 && *fraction == '0')
        {
          if (integer_digits <= 15)
            return TRUE;
        }
      else if (fraction[fraction_digits - 1] == '0')
        return FALSE;
      else if (integer_digits == 1 && *integer == '0')
        {
          gsize zeros = 0;

          while (fraction[zeros] == '0')
            zeros++;
          if (zeros <= 3 && fraction_digits - zeros <= 15)
            return TRUE;
        }
      else if (integer_digits + fraction_digits <= 15)
        return TRUE;
    }

  /* Otherwise the writer says. */
  {
    g_autofree char *copy = g_strndup (token, length);
    GrammarJsonBuffer written = { 0, };
    gboolean same;

    grammar_json_buffer_append_double (&written, g_ascii_strtod (copy, NULL));
    same = written.len == length && memcmp (written.data, token, length) == 0;
    grammar_json_buffer_clear (&written);
    return same;
  }
}

/* A character after which a JSON value may start, or before which one
 * may end. */
static gboolean
is_value_edge (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' ||
         c == '[' || c == ']' || c == '{' || c == '}';
}

/* Where the string whose text starts at @start of @text ends: the
 * offset of its closing quote, one not escaped by an odd number of
 * backslashes; @length when it has none. Strings are most of a record's
 * bytes, so they are skipped with memchr(). */
static gsize
string_end (const char *text,
            gsize       length,
            gsize       start)
{
  for (gsize i = start; i < length; i++)
    {
      const char *quote = memchr (text + i, '"', length - i);
      gsize backslashes = 0;

      if (quote == NULL)
        return length;
      i = (gsize) (quote - text);
      while (i - backslashes > start && text[i - backslashes - 1] == '\\')
        backslashes++;
      if (backslashes % 2 == 0)
        return i;
    }
  return length;
}

/* The next number of @text from @from that would not read back as
 * written: its start and end. Only while the text is plain JSON:
 * json-glib also reads comments and single-quoted strings, inside which
 * a number is no value, and from the first of them on the text is left
 * to json-glib as it is. */
static gboolean
find_inexact_number (const char *text,
                     gsize       length,
                     gsize       from,
                     gsize      *start,
                     gsize      *end)
{
  for (gsize i = from; i < length; i++)
    {
      char c = text[i];

      if (c == '"')
        i = string_end (text, length, i + 1);
      else if (c == '\'' || c == '/')
        return FALSE;
      else if ((c == '-' || g_ascii_isdigit (c)) && (i == 0 || is_value_edge (text[i - 1])))
        {
          gsize stop = scan_number (text, length, i);

          if (stop > i && (stop == length || is_value_edge (text[stop])) &&
              !number_reads_back (text + i, stop - i))
            {
              *start = i;
              *end = stop;
              return TRUE;
            }
          if (stop > i)
            i = stop - 1;
        }
    }
  return FALSE;
}

/* @text with every number that would not read back as written made an
 * object of its text; %NULL when there is none. */
static char *
wrap_inexact_numbers (const char *text,
                      gsize       length,
                      gsize      *wrapped_length)
{
  GString *wrapped = NULL;
  gsize copied = 0, start, end;

  while (find_inexact_number (text, length, copied, &start, &end))
    {
      if (wrapped == NULL)
        wrapped = g_string_sized_new (length + 64);
      g_string_append_len (wrapped, text + copied, (gssize) (start - copied));
      g_string_append (wrapped, "{\"" NUMBER_MEMBER "\":\"");
      g_string_append_len (wrapped, text + start, (gssize) (end - start));
      g_string_append (wrapped, "\"}");
      copied = end;
    }
  if (wrapped == NULL)
    return NULL;
  g_string_append_len (wrapped, text + copied, (gssize) (length - copied));
  *wrapped_length = wrapped->len;
  return g_string_free (wrapped, FALSE);
}

/**
 * grammar_json_node_get_number_text:
 * @node: a JSON node
 *
 * The text of a JSON number that neither a #gint64 nor a double holds as
 * written: a decimal's `154.80` (a double is 154.8), `12345678901234567890.5`
 * (a double keeps 17 digits), an integer beyond 64 bits, `1E5`. The
 * product reads such a number, and makes a database's exact decimal,
 * as an object whose one member `$numberDecimal` is its text, and writes
 * it back as that number exactly (grammar_json_to_data()).
 *
 * Returns: (nullable): the number's text, which @node owns; %NULL when
 *   @node is not such a number
 */
const char *
grammar_json_node_get_number_text (JsonNode *node)
{
  JsonObject *object;
  JsonNode *member;
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);
  if (json_object_get_size (object) != 1 ||
      (member = json_object_get_member (object, NUMBER_MEMBER)) == NULL ||
      !JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING)
    return NULL;
  text = json_node_get_string (member);
  return is_json_number (text) ? text : NULL;
}

/**
 * grammar_json_node_new_number:
 * @text: a JSON number, as RFC 8259 writes one (`154.80`, `-3`, `1e+20`)
 *
 * A node for the number @text that gives it back as written: a #gint64
 * or a double when json-glib holds it so, else a node that keeps @text
 * (grammar_json_node_get_number_text()).
 *
 * Returns: (transfer full): a JSON node
 */
JsonNode *
grammar_json_node_new_number (const char *text)
{
  JsonNode *node;
  gsize length;

  g_return_val_if_fail (text != NULL && is_json_number (text), NULL);

  length = strlen (text);
  if (!number_reads_back (text, length))
    {
      g_autoptr (JsonObject) object = json_object_new ();

      json_object_set_string_member (object, NUMBER_MEMBER, text);
      node = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (node, object);
      return node;
    }
  node = json_node_new (JSON_NODE_VALUE);
  if (strpbrk (text, ".eE") == NULL)
    json_node_set_int (node, g_ascii_strtoll (text, NULL, 10));
  else
    json_node_set_double (node, g_ascii_strtod (text, NULL));
  return node;
}

/* A number as a double: an integer, a double or a number kept as its
 * text; %FALSE for anything else. */
gboolean
grammar_json_node_get_real (JsonNode *node,
                            double   *value)
{
  const char *text;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
        return FALSE;
      *value = json_node_get_double (node);
      return TRUE;
    }
  text = grammar_json_node_get_number_text (node);
  if (text == NULL)
    return FALSE;
  *value = g_ascii_strtod (text, NULL);
  return TRUE;
}

/* The text of a value as the product writes it, without a string's
 * quotes: `Paris`, `42`, `154.8`, `154.80`, `true`; %NULL for null, an
 * array or an object. */
char *
grammar_json_node_dup_text (JsonNode *node)
{
  const char *number = grammar_json_node_get_number_text (node);

  if (number != NULL)
    return g_strdup (number);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return grammar_json_to_data (node, 0, NULL);
}

/* A number or a string as the text of an id: a string as it is, a whole
 * number in decimal (7 and 7.0 are "7"), another as written (1.5,
 * 1.50); %NULL for anything else. */
char *
grammar_json_node_dup_id (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double real = json_node_get_double (node);

      if (real == floor (real) && fabs (real) < 9007199254740992.0)
        return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) real);
    }
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return NULL;
  return grammar_json_node_dup_text (node);
}

/* Writing JSON ----------------------------------------------------------- */

static void
append_indent (GrammarJsonBuffer *out,
               guint              indent,
               guint              level)
{
  for (guint i = 0; i < indent * level; i++)
    grammar_json_buffer_append_c (out, ' ');
}

/* Every file the product writes takes its numbers from here (through
 * grammar_json_buffer_append_double()): json-glib's generator writes 1e20 as
 * "1e+20.0" and infinity as "inf.0", which no JSON reader accepts, the
 * product's own included. A finite double is its shortest round-trip
 * text; JSON has no infinity nor NaN, so they are written as the strings
 * "Infinity", "-Infinity" and "NaN" (doc/formats.md), never bare.
 *
 * Laid out as json-glib's generator lays it out ("key" : value when
 * pretty), so that only the numbers differ from what it wrote. */
static void
append_node (GrammarJsonBuffer *out,
             JsonNode          *node,
             guint              indent,
             guint              level)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_NULL:
      grammar_json_buffer_append_literal (out, "null");
      break;
    case JSON_NODE_VALUE:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_STRING)
          {
            const char *text = json_node_get_string (node);

            if (text != NULL)
              grammar_json_buffer_append_string (out, text, strlen (text));
            else
              grammar_json_buffer_append_literal (out, "null");
          }
        else if (type == G_TYPE_DOUBLE)
          grammar_json_buffer_append_double (out, json_node_get_double (node));
        else if (type == G_TYPE_BOOLEAN)
          {
            if (json_node_get_boolean (node))
              grammar_json_buffer_append_literal (out, "true");
            else
              grammar_json_buffer_append_literal (out, "false");
          }
        else
          grammar_json_buffer_append_int (out, json_node_get_int (node));
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        grammar_json_buffer_append_c (out, '[');
        if (indent > 0)
          grammar_json_buffer_append_c (out, '\n');
        for (guint i = 0; i < n; i++)
          {
            append_indent (out, indent, level + 1);
            append_node (out, json_array_get_element (array, i), indent, level + 1);
            if (i + 1 < n)
              grammar_json_buffer_append_c (out, ',');
            if (indent > 0)
              grammar_json_buffer_append_c (out, '\n');
          }
        append_indent (out, indent, level);
        grammar_json_buffer_append_c (out, ']');
      }
      break;
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        guint n = json_object_get_size (object), i = 0;
        const char *number = grammar_json_node_get_number_text (node);

        if (number != NULL)
          {
            grammar_json_buffer_append (out, number, strlen (number));
            break;
          }
        grammar_json_buffer_append_c (out, '{');
        if (indent > 0)
          grammar_json_buffer_append_c (out, '\n');
        json_object_iter_init_ordered (&iter, object);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            append_indent (out, indent, level + 1);
            grammar_json_buffer_append_string (out, name, strlen (name));
            if (indent > 0)
              grammar_json_buffer_append_literal (out, " : ");
            else
              grammar_json_buffer_append_c (out, ':');
            append_node (out, member, indent, level + 1);
            if (++i < n)
              grammar_json_buffer_append_c (out, ',');
            if (indent > 0)
              grammar_json_buffer_append_c (out, '\n');
          }
        append_indent (out, indent, level);
        grammar_json_buffer_append_c (out, '}');
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
  GrammarJsonBuffer buffer = { 0, };

  append_node (&buffer, node, indent, 0);
  g_string_append_len (out, buffer.data, buffer.len);
  grammar_json_buffer_clear (&buffer);
}

/* As grammar_json_append_node(), for a node written at depth @level of
 * a document written piece by piece. */
void
grammar_json_append_node_at (GString  *out,
                             JsonNode *node,
                             guint     indent,
                             guint     level)
{
  GrammarJsonBuffer buffer = { 0, };

  append_node (&buffer, node, indent, level);
  g_string_append_len (out, buffer.data, buffer.len);
  grammar_json_buffer_clear (&buffer);
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
  GrammarJsonBuffer buffer = { 0, };

  g_return_val_if_fail (node != NULL, NULL);

  append_node (&buffer, node, indent, 0);
  grammar_json_buffer_append_c (&buffer, '\0');
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

/* json_parser_load_from_data(), with every number that json-glib would
 * not read back as written kept as its text (grammar_json_node_get_number_text());
 * errors are json-glib's, for the text as given. */
gboolean
grammar_json_parser_load (JsonParser  *parser,
                          const char  *text,
                          gsize        length,
                          GError     **error)
{
  gsize wrapped_length = 0;
  g_autofree char *wrapped = wrap_inexact_numbers (text, length, &wrapped_length);

  /* Wrapping a value in an object leaves valid text valid, and invalid
   * text invalid: only the places in json-glib's message would move. */
  if (wrapped != NULL && json_parser_load_from_data (parser, wrapped, (gssize) wrapped_length, NULL))
    return TRUE;
  return json_parser_load_from_data (parser, length > 0 ? text : "", (gssize) length, error);
}

/**
 * grammar_json_from_data:
 * @text: (array length=length) (element-type guint8): JSON text
 * @length: how many bytes, or -1 when @text ends with a NUL
 * @error: return location for a #GError
 *
 * Parses JSON as the product reads its files: as json_from_string(),
 * but a number that json-glib would not give back as written (`154.80`,
 * an integer beyond 64 bits) keeps its text
 * (grammar_json_node_get_number_text()), so that grammar_json_to_data()
 * writes the text back byte for byte.
 *
 * Returns: (transfer full) (nullable): the root node, or %NULL with
 *   @error set (a %JSON_PARSER_ERROR) when @text is not JSON or empty
 */
JsonNode *
grammar_json_from_data (const char  *text,
                        gssize       length,
                        GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (length < 0)
    length = (gssize) strlen (text);
  if (!grammar_json_parser_load (parser, text, (gsize) length, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_PARSE, "no JSON value");
      return NULL;
    }
  return json_node_copy (root);
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
  if (!grammar_json_parser_load (parser, text, length, &local_error))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", path, local_error->message);
      return FALSE;
    }
  return TRUE;
}
