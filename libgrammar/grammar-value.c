/* grammar-value.c: database values as GVariants, the same from every backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-value.h"

/* The most significant digits a double keeps exactly (DBL_DIG). */
#define MAX_DOUBLE_DIGITS 15

/**
 * grammar_value_new_text:
 * @data: (array length=length) (element-type guint8): the bytes of a text value
 * @length: how many bytes, or -1 when @data ends with a NUL
 *
 * A database text value as a GVariant string. A string must be UTF-8
 * without NUL: a NUL byte becomes U+FFFD, and so does any sequence that
 * is not UTF-8, so that a value from a column in another encoding, or
 * with stray bytes, still reads. Valid text is copied once and checked
 * once: reading a million rows spends a good part of its time here.
 *
 * Returns: (transfer floating): an `s` value
 */
GVariant *
grammar_value_new_text (const char *data,
                        gssize      length)
{
  g_autoptr (GString) repaired = NULL;
  g_autofree char *valid = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (data == NULL)
    return g_variant_new_string ("");
  if (length < 0)
    length = (gssize) strlen (data);

  /* g_utf8_validate_len() refuses a NUL among the bytes, too. */
  if (g_utf8_validate_len (data, (gsize) length, NULL))
    {
      char *copy = g_malloc ((gsize) length + 1);
      g_autoptr (GBytes) bytes = NULL;

      memcpy (copy, data, (gsize) length);
      copy[length] = '\0';
      bytes = g_bytes_new_take (copy, (gsize) length + 1);
      return g_variant_new_from_bytes (G_VARIANT_TYPE_STRING, bytes, TRUE);
    }

  repaired = g_string_sized_new ((gsize) length + 8);
  for (gssize i = 0; i < length; i++)
    {
      if (data[i] == '\0')
        g_string_append (repaired, "\xEF\xBF\xBD");
      else
        g_string_append_c (repaired, data[i]);
    }
  valid = g_utf8_make_valid (repaired->str, (gssize) repaired->len);
  return g_variant_new_take_string (g_steal_pointer (&valid));
}

/**
 * grammar_value_new_decimal:
 * @text: (array length=length) (element-type guint8): an exact decimal as
 *   a server writes it: an optional sign, digits, an optional fraction
 * @length: how many bytes, or -1 when @text ends with a NUL
 *
 * An exact decimal (`DECIMAL`, `NUMERIC`) as SQLite's `NUMERIC` type
 * affinity stores the same literal, so that every backend gives the
 * same value — a whole number that fits 64 bits as an integer (`12.00` is 12),
 * a number of at most 15 significant digits as a double (`1234.50` is
 * 1234.5), and anything a double would round, or that is not a plain
 * decimal such as `NaN`, as its exact text.
 *
 * Returns: (transfer floating): an `x`, `d` or `s` value
 */
GVariant *
grammar_value_new_decimal (const char *text,
                           gssize      length)
{
  g_autofree char *copy = NULL;
  const char *p, *integer, *fraction = NULL;
  gsize integer_length, fraction_length = 0;
  guint significant = 0, trailing_zeros = 0;
  gboolean seen_nonzero = FALSE;

  g_return_val_if_fail (text != NULL, NULL);

  copy = length < 0 ? g_strdup (text) : g_strndup (text, (gsize) length);
  p = copy;
  if (*p == '-' || *p == '+')
    p++;
  integer = p;
  while (g_ascii_isdigit (*p))
    p++;
  integer_length = (gsize) (p - integer);
  if (*p == '.')
    {
      fraction = ++p;
      while (g_ascii_isdigit (*p))
        p++;
      fraction_length = (gsize) (p - fraction);
    }
  if (*p != '\0' || integer_length + fraction_length == 0)
    return grammar_value_new_text (copy, -1);

  /* Trailing zeros of the fraction say nothing about the value. */
  while (fraction_length > 0 && fraction[fraction_length - 1] == '0')
    fraction_length--;

  if (fraction_length == 0)
    {
      g_autofree char *whole = g_strndup (copy, (gsize) (integer - copy) + integer_length);
      gint64 number;

      if (g_ascii_string_to_signed (whole, 10, G_MININT64, G_MAXINT64, &number, NULL))
        return g_variant_new_int64 (number);
      /* A whole number beyond 64 bits keeps every digit. */
      return grammar_value_new_text (copy, -1);
    }

  /* Digits from the first non-zero one to the last kept. */
  for (const char *d = integer; d < fraction + fraction_length; d++)
    {
      if (!g_ascii_isdigit (*d))
        continue;
      if (*d != '0')
        {
          significant += trailing_zeros + 1;
          trailing_zeros = 0;
          seen_nonzero = TRUE;
        }
      else if (seen_nonzero)
        trailing_zeros++;
    }
  if (significant <= MAX_DOUBLE_DIGITS)
    return g_variant_new_double (g_ascii_strtod (copy, NULL));
  return grammar_value_new_text (copy, -1);
}

/**
 * grammar_value_new_float:
 * @value: a 4-byte floating-point value (`REAL` on PostgreSQL, `FLOAT` on MySQL)
 *
 * A 4-byte float as the double its shortest decimal text reads as: it
 * holds about 7 digits, and the value meant is `0.1`, not the
 * `0.100000001490116` its bits make as a double. SQLite, which has only
 * doubles, stores `0.1`.
 *
 * Returns: (transfer floating): a `d` value
 */
GVariant *
grammar_value_new_float (float value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_variant_new_double (value);
  for (int precision = 1; precision <= 9; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (text, sizeof text, format, value);
      if ((float) g_ascii_strtod (text, NULL) == value)
        break;
    }
  return g_variant_new_double (g_ascii_strtod (text, NULL));
}
