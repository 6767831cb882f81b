/* grammar-report-format.c: the text every format shows: sanitized and escaped data, numbers with four decimals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "grammar-json.h"
#include "grammar-report-format-private.h"
#include "grammar-report-read-private.h"

/* Text of the data, as every format shows it */

/* How many terminal columns @c takes. */
guint
grammar_report_char_width (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;
  return g_unichar_iswide (c) ? 2 : 1;
}

/* @text as valid UTF-8 without control or format characters (which
 * could move the terminal's cursor or reorder a line), newlines kept if
 * asked, elided with "…" past @max_width columns (0: no limit). */
char *
grammar_report_sanitize (const char *text,
                         gboolean    keep_newlines,
                         guint       max_width)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *out = g_string_new (NULL);
  guint width = 0;
  gsize last_fit = 0;

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeType type = g_unichar_type (c);

      if (c == '\n' && keep_newlines)
        {
          g_string_append_c (out, '\n');
          continue;
        }
      if (type == G_UNICODE_CONTROL || type == G_UNICODE_FORMAT)
        c = ' ';
      width += grammar_report_char_width (c);
      if (max_width > 0 && width > max_width)
        {
          g_string_truncate (out, last_fit);
          g_string_append (out, "…");
          break;
        }
      g_string_append_unichar (out, c);
      if (max_width > 0 && width <= max_width - 1)
        last_fit = out->len;
    }
  return g_string_free (out, FALSE);
}

/* @text escaped for HTML and SVG, control characters dropped first since
 * HTML has no way to write most of them. */
char *
grammar_report_escape_html (const char *text,
             guint       max_width)
{
  g_autofree char *clean = grammar_report_sanitize (text, TRUE, max_width);

  return g_markup_escape_text (clean, -1);
}

/* Formatting numbers: four decimals, with the C locale's point whatever
 * the user's locale, since the output is also read by programs. */

char *
grammar_report_format_decimal (double   value,
                               gboolean signed_)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_strdup (GRAMMAR_REPORT_NONE);
  if (fabs (value) < 0.00005)
    value = 0.0;   /* no "-0.0000" */
  g_ascii_formatd (buffer, sizeof buffer, "%.4f", value);
  return signed_ && value >= 0.0 ? g_strconcat ("+", buffer, NULL) : g_strdup (buffer);
}

char *
grammar_report_format_count_value (double value)
{
  if (!isfinite (value))
    return g_strdup (GRAMMAR_REPORT_NONE);
  if (value == floor (value) && fabs (value) < 1e15)
    return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) value);
  return grammar_report_format_decimal (value, FALSE);
}

char *
grammar_report_format_count (JsonObject *object,
                             const char *name)
{
  return grammar_report_format_count_value (grammar_report_member_number (object, name));
}

char *
grammar_report_format_rate (JsonObject *object,
                            const char *name)
{
  return grammar_report_format_decimal (grammar_report_member_number (object, name), FALSE);
}

char *
grammar_report_format_interval_node (JsonNode *node)
{
  g_autofree char *lo_text = NULL;
  g_autofree char *hi_text = NULL;
  double lo, hi;

  if (!grammar_report_node_interval (node, &lo, &hi))
    return g_strdup (GRAMMAR_REPORT_NONE);
  lo_text = grammar_report_format_decimal (lo, FALSE);
  hi_text = grammar_report_format_decimal (hi, FALSE);
  return g_strdup_printf ("[%s, %s]", lo_text, hi_text);
}

char *
grammar_report_format_interval (JsonObject *intervals,
                                const char *name)
{
  return grammar_report_format_interval_node (grammar_report_member (intervals, name));
}

/* A p-value too small for four decimals is not zero. */
char *
grammar_report_format_p (JsonObject *object)
{
  double p = grammar_report_member_number (object, "p");

  if (isfinite (p) && p > 0.0 && p < 0.0001)
    return g_strdup ("<0.0001");
  return grammar_report_format_decimal (p, FALSE);
}

char *
grammar_report_dup_or_none (const char *text)
{
  return g_strdup (text != NULL ? text : GRAMMAR_REPORT_NONE);
}

/* The strings of @array joined by @separator, or NULL when it has none. */
char *
grammar_report_join_strings (JsonArray  *array,
                             const char *separator)
{
  g_autoptr (GString) joined = g_string_new (NULL);
  guint n = array != NULL ? json_array_get_length (array) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        continue;
      if (joined->len > 0)
        g_string_append (joined, separator);
      g_string_append (joined, json_node_get_string (node));
    }
  return joined->len > 0 ? g_string_free (g_steal_pointer (&joined), FALSE) : NULL;
}

/* An answer (rows of values) as compact JSON. */
char *
grammar_report_format_json (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return g_strdup (GRAMMAR_REPORT_NONE);
  return grammar_json_to_data (node, 0, NULL);
}

/* @text cut to its first @n characters, with "…" when it had more. */
char *
grammar_report_cut_chars (const char *text,
                          guint       n)
{
  const char *end;

  if (g_utf8_strlen (text, -1) <= n)
    return g_strdup (text);
  end = g_utf8_offset_to_pointer (text, n);
  return g_strdup_printf ("%.*s…", (int) (end - text), text);
}
