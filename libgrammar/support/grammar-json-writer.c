/* grammar-json-writer.c: the product's own JSON writer: a growing buffer, strings and numbers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-json-writer-private.h"

/* Records are written directly rather than through JsonBuilder and
 * JsonGenerator: they are simple, and building a tree per line would
 * cost more than the queries. */

void
grammar_json_buffer_clear (GrammarJsonBuffer *buffer)
{
  g_clear_pointer (&buffer->data, g_free);
  buffer->len = buffer->size = 0;
}

static void
buffer_grow (GrammarJsonBuffer *buffer,
             gsize              extra)
{
  gsize size = MAX (buffer->size * 2, buffer->len + extra + 256);

  buffer->data = g_realloc (buffer->data, size);
  buffer->size = size;
}

void
grammar_json_buffer_append (GrammarJsonBuffer *buffer,
                            const char        *text,
                            gsize              length)
{
  /* memcpy() with a NULL pointer is undefined even for no bytes, and an
   * empty buffer has no data yet. */
  if (length == 0)
    return;
  if (buffer->len + length > buffer->size)
    buffer_grow (buffer, length);
  memcpy (buffer->data + buffer->len, text, length);
  buffer->len += length;
}

void
grammar_json_buffer_append_c (GrammarJsonBuffer *buffer,
                              char               c)
{
  if (buffer->len + 1 > buffer->size)
    buffer_grow (buffer, 1);
  buffer->data[buffer->len++] = c;
}


void
grammar_json_buffer_append_buffer (GrammarJsonBuffer       *buffer,
                                   const GrammarJsonBuffer *other)
{
  grammar_json_buffer_append (buffer, other->data, other->len);
}

/* Which bytes JSON strings escape. */
static const guint8 json_escaped[256] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* " */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,  /* \ */
};

static void
append_escape (GrammarJsonBuffer *out,
               guchar             c)
{
  static const char hex[] = "0123456789abcdef";
  char unicode[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };

  switch (c)
    {
    case '"': grammar_json_buffer_append_literal (out, "\\\""); break;
    case '\\': grammar_json_buffer_append_literal (out, "\\\\"); break;
    case '\n': grammar_json_buffer_append_literal (out, "\\n"); break;
    case '\r': grammar_json_buffer_append_literal (out, "\\r"); break;
    case '\t': grammar_json_buffer_append_literal (out, "\\t"); break;
    case '\b': grammar_json_buffer_append_literal (out, "\\b"); break;
    case '\f': grammar_json_buffer_append_literal (out, "\\f"); break;
    default: grammar_json_buffer_append (out, unicode, sizeof unicode); break;
    }
}

/* The content of a JSON string, without its quotes. */
void
grammar_json_buffer_append_content (GrammarJsonBuffer *out,
                                    const char        *text,
                                    gsize              length)
{
  const guchar *p = (const guchar *) text;
  const guchar *end = p + length;
  const guchar *run = p;

  for (; p < end; p++)
    {
      if (G_LIKELY (!json_escaped[*p]))
        continue;
      grammar_json_buffer_append (out, (const char *) run, p - run);
      append_escape (out, *p);
      run = p + 1;
    }
  grammar_json_buffer_append (out, (const char *) run, end - run);
}

void
grammar_json_buffer_append_string (GrammarJsonBuffer *out,
                                   const char        *text,
                                   gsize              length)
{
  grammar_json_buffer_append_c (out, '"');
  grammar_json_buffer_append_content (out, text, length);
  grammar_json_buffer_append_c (out, '"');
}

char *
grammar_json_content_dup (const char *text)
{
  GrammarJsonBuffer buffer = { 0, };

  grammar_json_buffer_append_content (&buffer, text, strlen (text));
  grammar_json_buffer_append_c (&buffer, '\0');
  return buffer.data;
}

/* The common case of grammar_json_buffer_append_double(), without printf: a value in
 * [1e-4, 1e16) with few decimals, such as a price. The first number of
 * decimals whose rounding reads back as @value is the shortest text;
 * reading back is exact, as both the integer and the power of ten are
 * exact doubles and one division rounds as strtod() does. */
static gboolean
append_short_decimal (GrammarJsonBuffer *out,
                      double             value)
{
  static const double powers[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8 };
  double magnitude = fabs (value);
  char digits[32];

  if (value == 0.0)
    {
      grammar_json_buffer_append (out, signbit (value) ? "-0.0" : "0.0", signbit (value) ? 4 : 3);
      return TRUE;
    }
  if (magnitude < 1e-4 || magnitude >= 1e16)
    return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (powers); k++)
    {
      double product = magnitude * powers[k];
      guint64 integer;
      int n = 0;

      /* Below 2^52 the spacing of doubles near @value is less than one
       * unit of the last decimal, so at most one text of this length
       * reads back as it: no closer one to prefer. */
      if (product >= 4503599627370496.0)
        return FALSE;
      integer = (guint64) (product + 0.5);
      if ((double) integer / powers[k] != magnitude)
        continue;

      do
        {
          digits[n++] = '0' + integer % 10;
          integer /= 10;
        }
      while (integer != 0 || n <= (int) k);
      if (value < 0)
        grammar_json_buffer_append_c (out, '-');
      for (int i = n - 1; i >= (int) k; i--)
        grammar_json_buffer_append_c (out, digits[i]);
      grammar_json_buffer_append_c (out, '.');
      if (k == 0)
        grammar_json_buffer_append_c (out, '0');
      for (int i = (int) k - 1; i >= 0; i--)
        grammar_json_buffer_append_c (out, digits[i]);
      return TRUE;
    }
  return FALSE;
}

/* Writes %g's `d.ddde+XX` (XX at most 15) as digits with a point. */
static void
append_without_exponent (GrammarJsonBuffer *out,
                         const char        *text)
{
  char digits[32];
  int n = 0, exponent = atoi (strchr (text, 'e') + 1);

  if (*text == '-')
    grammar_json_buffer_append_c (out, *text++);
  for (; *text != 'e' && n < (int) sizeof digits; text++)
    if (g_ascii_isdigit (*text))
      digits[n++] = *text;
  /* the point goes after exponent + 1 digits */
  for (int i = 0; i <= exponent || i < n; i++)
    {
      if (i == exponent + 1)
        grammar_json_buffer_append_c (out, '.');
      grammar_json_buffer_append_c (out, i < n ? digits[i] : '0');
    }
  if (n <= exponent + 1)
    grammar_json_buffer_append_literal (out, ".0");
}

/* Writes the decimal digits of @value at the end of @text, without
 * printf; returns where they start (@text + 24 is where they end). */
const char *
grammar_json_format_int (char   text[24],
                       gint64 value)
{
  char *p = text + 24;
  guint64 magnitude = value < 0 ? -(guint64) value : (guint64) value;

  do
    {
      *--p = '0' + magnitude % 10;
      magnitude /= 10;
    }
  while (magnitude != 0);
  if (value < 0)
    *--p = '-';
  return p;
}

void
grammar_json_buffer_append_int (GrammarJsonBuffer *out,
                                gint64             value)
{
  char text[24];
  const char *p = grammar_json_format_int (text, value);

  grammar_json_buffer_append (out, p, text + sizeof text - p);
}

/* Writes the integer digits of %g (at least 17 of them) as d.ddde+XX. */
static void
append_with_exponent (GrammarJsonBuffer *out,
                      const char        *text)
{
  gsize n;

  if (*text == '-')
    grammar_json_buffer_append_c (out, *text++);
  n = strlen (text);
  grammar_json_buffer_append_c (out, text[0]);
  while (n > 1 && text[n - 1] == '0')
    n--;
  if (n > 1)
    {
      grammar_json_buffer_append_c (out, '.');
      grammar_json_buffer_append (out, text + 1, n - 1);
    }
  grammar_json_buffer_append_literal (out, "e+");
  grammar_json_buffer_append_int (out, (gint64) strlen (text) - 1);
}

/* The shortest text that reads back as the same double, and reads back
 * as a real rather than an integer, as Python's repr() writes it: the
 * one number writer of every file the product writes (through
 * grammar_json_append_node() for the others). */
void
grammar_json_buffer_append_double (GrammarJsonBuffer *out,
                                   double             value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  static const char * const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (!isfinite (value))
    {
      /* JSON has no NaN nor infinity: they are written as strings, never
       * bare and never as null, which would say there was no value
       * (doc/formats.md, "Numbers"). */
      if (isnan (value))
        grammar_json_buffer_append_literal (out, "\"NaN\"");
      else if (value > 0)
        grammar_json_buffer_append_literal (out, "\"Infinity\"");
      else
        grammar_json_buffer_append_literal (out, "\"-Infinity\"");
      return;
    }
  if (append_short_decimal (out, value))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (text, sizeof text, formats[i], value);
      if (g_ascii_strtod (text, NULL) == value)
        break;
    }
  /* Python writes [1e-4, 1e16) without an exponent, the rest with one;
   * %g's choice depends on the precision. */
  if (strchr (text, 'e') != NULL && fabs (value) >= 1e-4 && fabs (value) < 1e16)
    append_without_exponent (out, text);
  else if (strchr (text, 'e') == NULL && fabs (value) >= 1e16)
    {
      append_with_exponent (out, text);
      return;
    }
  else
    grammar_json_buffer_append (out, text, strlen (text));
  if (strpbrk (text, ".eE") == NULL)
    grammar_json_buffer_append_literal (out, ".0");
}
