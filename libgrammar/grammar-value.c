/* grammar-value.c: database values as GVariants, the same from every backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-value.h"

/* An exact decimal is a tuple of its text: no database value is a
 * tuple otherwise, so the type alone says what it is. */
#define DECIMAL_TYPE ((const GVariantType *) "(s)")

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

/* Whether @text is a number as JSON writes it, without an exponent:
 * `-?(0|[1-9][0-9]*)(\.[0-9]+)?`; @has_point says whether it has a
 * fraction. */
static gboolean
is_json_decimal (const char *text,
                 gboolean   *has_point)
{
  const char *p = text;

  if (*p == '-')
    p++;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (g_ascii_isdigit (*p))
      p++;
  else
    return FALSE;
  *has_point = *p == '.';
  if (*has_point)
    {
      if (!g_ascii_isdigit (*++p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  return *p == '\0';
}

/**
 * grammar_value_new_decimal:
 * @text: (array length=length) (element-type guint8): an exact decimal as
 *   a server writes it: an optional minus sign, digits, an optional fraction
 * @length: how many bytes, or -1 when @text ends with a NUL
 *
 * An exact decimal (`DECIMAL`, `NUMERIC`) that keeps the server's text:
 * `154.80` stays `154.80`, and `12345678901234567890.5` keeps every digit,
 * where a double would make them `154.8` and `1.2345678901234567e+19`. A
 * whole number without a point that fits 64 bits is an integer (`x`),
 * whose text is the same; any other decimal is a decimal value, the
 * tuple `(s)` of its text (grammar_value_get_decimal()), written to JSON
 * as that number exactly (`"answer":[[154.80]]`). Text that is not such a
 * number (`NaN`, `Infinity`) is a string (`s`).
 *
 * SQLite has no decimal type: it stores `154.80` in a `DECIMAL` column as
 * the double 154.8, which is then what SQLite gives.
 *
 * Returns: (transfer floating): an `x`, `(s)` or `s` value
 */
GVariant *
grammar_value_new_decimal (const char *text,
                           gssize      length)
{
  g_autofree char *copy = NULL;
  gboolean has_point = FALSE;
  gint64 number;

  g_return_val_if_fail (text != NULL, NULL);

  copy = length < 0 ? g_strdup (text) : g_strndup (text, (gsize) length);
  if (!is_json_decimal (copy, &has_point))
    return grammar_value_new_text (copy, -1);
  /* -0 would read back as 0 */
  if (!has_point && strcmp (copy, "-0") != 0 &&
      g_ascii_string_to_signed (copy, 10, G_MININT64, G_MAXINT64, &number, NULL))
    return g_variant_new_int64 (number);
  return g_variant_new ("(s)", copy);
}

/**
 * grammar_value_get_decimal:
 * @value: (nullable): a database value
 *
 * The text of an exact decimal that grammar_value_new_decimal() made,
 * such as `154.80`: a JSON number, with a point or beyond 64 bits.
 *
 * Returns: (nullable): the text, which @value owns; %NULL when @value
 *   is not a decimal
 */
const char *
grammar_value_get_decimal (GVariant *value)
{
  const char *text = NULL;

  if (value == NULL || !g_variant_is_of_type (value, DECIMAL_TYPE))
    return NULL;
  g_variant_get (value, "(&s)", &text);
  return text;
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
