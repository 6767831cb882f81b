/* grammar-value.c: database values as GVariants, the same from every backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-json.h"
#include "grammar-json-writer-private.h"
#include "grammar-value.h"
#include "grammar-value-private.h"

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

/**
 * grammar_value_to_json:
 * @value: (nullable): a database value as a cursor returns it
 *
 * Converts a database value to JSON: integers and reals to numbers,
 * an exact decimal to the number it writes as exactly (`154.80`, see
 * grammar_json_node_new_number()), text to a string, a blob to its
 * base64 text, %NULL to JSON null.
 *
 * Returns: (transfer full): a JSON node
 */
JsonNode *
grammar_value_to_json (GVariant *value)
{
  JsonNode *node;

  if (value == NULL)
    return json_node_new (JSON_NODE_NULL);
  if (grammar_value_get_decimal (value) != NULL)
    return grammar_json_node_new_number (grammar_value_get_decimal (value));

  node = json_node_new (JSON_NODE_VALUE);
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    json_node_set_int (node, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    json_node_set_double (node, g_variant_get_double (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    json_node_set_string (node, g_variant_get_string (value, NULL));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize size = 0;
      const guchar *data = g_variant_get_fixed_array (value, &size, 1);

      g_autofree char *text = g_base64_encode (data, size);

      json_node_set_string (node, text);
    }
  else
    {
      g_autofree char *text = g_variant_print (value, FALSE);

      json_node_set_string (node, text);
    }
  return node;
}

/* A database value written as JSON text into @out, as
 * grammar_value_to_json() describes it. */
void
grammar_value_append_json (GrammarJsonBuffer *out,
                           GVariant          *value)
{
  if (value == NULL)
    grammar_json_buffer_append_literal (out, "null");
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      gsize length = 0;
      const char *text = g_variant_get_string (value, &length);

      grammar_json_buffer_append_string (out, text, length);
    }
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    grammar_json_buffer_append_int (out, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    grammar_json_buffer_append_double (out, g_variant_get_double (value));
  else if (grammar_value_get_decimal (value) != NULL)
    {
      /* An exact decimal: the number as the database wrote it. */
      const char *text = grammar_value_get_decimal (value);

      grammar_json_buffer_append (out, text, strlen (text));
    }
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize size = 0;
      const guchar *data = g_variant_get_fixed_array (value, &size, 1);
      g_autofree char *text = g_base64_encode (data, size);

      grammar_json_buffer_append_string (out, text, strlen (text));
    }
  else
    {
      g_autofree char *text = g_variant_print (value, FALSE);

      grammar_json_buffer_append_string (out, text, strlen (text));
    }
}

/* The value inside a `v`, or the value itself. */
static GVariant *
unbox (GVariant *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_VARIANT))
    return g_variant_get_variant (value);
  return g_variant_ref (value);
}

/* Python's repr() of a float: the shortest digits that read back as the
 * same double, positional from 1e-4 up to 1e16, scientific beyond. */
static char *
format_double (double d)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  char digits[32];
  GString *out;
  const char *p;
  int exponent, n_digits = 0, point;

  if (isnan (d))
    return g_strdup ("nan");
  if (isinf (d))
    return g_strdup (d > 0 ? "inf" : "-inf");

  for (int precision = 0; precision < 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%de", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, d);
      if (g_ascii_strtod (buffer, NULL) == d)
        break;
    }

  out = g_string_new (NULL);
  p = buffer;
  if (*p == '-')
    g_string_append_c (out, *p++);
  for (; *p != 'e'; p++)
    if (g_ascii_isdigit (*p))
      digits[n_digits++] = *p;
  exponent = atoi (p + 1);
  while (n_digits > 1 && digits[n_digits - 1] == '0')
    n_digits--;

  point = exponent + 1;  /* digits before the decimal point */
  if (exponent < -4 || exponent >= 16)
    {
      g_string_append_c (out, digits[0]);
      if (n_digits > 1)
        g_string_append_printf (out, ".%.*s", n_digits - 1, digits + 1);
      g_string_append_printf (out, "e%c%02d", exponent < 0 ? '-' : '+', ABS (exponent));
    }
  else if (point <= 0)
    g_string_append_printf (out, "0.%.*s%.*s", -point, "0000", n_digits, digits);
  else if (point >= n_digits)
    g_string_append_printf (out, "%.*s%.*s.0", n_digits, digits, point - n_digits, "0000000000000000");
  else
    g_string_append_printf (out, "%.*s.%.*s", point, digits, n_digits - point, digits + point);
  return g_string_free (out, FALSE);
}

static char *
format_bytes (GVariant *value)
{
  gsize size = 0;
  const guchar *data = g_variant_get_fixed_array (value, &size, 1);
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < size; i++)
    g_string_append_printf (out, "%02x", data[i]);
  return g_string_free (out, FALSE);
}

/**
 * grammar_value_to_text:
 * @value: a value as a cursor returns it (`x`, `d`, `s`, `ay`; other
 *   integer types and `b` too; a `v` is unboxed)
 *
 * How a value reads inside a text query: a string as it is, an integer
 * in decimal, a real as Python's repr() prints it (`433.5`, `1.0`,
 * `1e+16`), a blob in hexadecimal.
 *
 * Returns: (transfer full): the text
 */
char *
grammar_value_to_text (GVariant *value)
{
  g_autoptr (GVariant) inner = NULL;

  g_return_val_if_fail (value != NULL, NULL);

  inner = unbox (value);
  switch (g_variant_classify (inner))
    {
    case G_VARIANT_CLASS_STRING:
      return g_variant_dup_string (inner, NULL);
    case G_VARIANT_CLASS_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, g_variant_get_int64 (inner));
    case G_VARIANT_CLASS_UINT64:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, g_variant_get_uint64 (inner));
    case G_VARIANT_CLASS_INT32:
      return g_strdup_printf ("%" G_GINT32_FORMAT, g_variant_get_int32 (inner));
    case G_VARIANT_CLASS_UINT32:
      return g_strdup_printf ("%" G_GUINT32_FORMAT, g_variant_get_uint32 (inner));
    case G_VARIANT_CLASS_INT16:
      return g_strdup_printf ("%d", g_variant_get_int16 (inner));
    case G_VARIANT_CLASS_UINT16:
      return g_strdup_printf ("%u", g_variant_get_uint16 (inner));
    case G_VARIANT_CLASS_BYTE:
      return g_strdup_printf ("%u", g_variant_get_byte (inner));
    case G_VARIANT_CLASS_BOOLEAN:
      return g_strdup (g_variant_get_boolean (inner) ? "1" : "0");
    case G_VARIANT_CLASS_DOUBLE:
      return format_double (g_variant_get_double (inner));
    default:
      if (grammar_value_get_decimal (inner) != NULL)
        return g_strdup (grammar_value_get_decimal (inner));
      if (g_variant_is_of_type (inner, G_VARIANT_TYPE_BYTESTRING))
        return format_bytes (inner);
      return g_variant_print (inner, FALSE);
    }
}
