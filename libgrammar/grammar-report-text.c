/* grammar-report-text.c: the report as text for a terminal
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-report-private.h"

/* Text */

/* How many terminal columns @c takes. */
static guint
char_width (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;
  return g_unichar_iswide (c) ? 2 : 1;
}

static guint
text_width (const char *text)
{
  guint width = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    width += char_width (g_utf8_get_char (p));
  return width;
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
      width += char_width (c);
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

static void
append_padding (GString *out,
                guint    n)
{
  for (guint i = 0; i < n; i++)
    g_string_append_c (out, ' ');
}

static void
append_underline (GString    *out,
                  const char *text,
                  const char *line)
{
  guint width = text_width (text);

  for (guint i = 0; i < width; i++)
    g_string_append (out, line);
  g_string_append_c (out, '\n');
}

static void
text_columns (GString *out,
              Table   *table)
{
  g_autofree guint *widths = g_new0 (guint, table->n_columns);
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint c = 0; c < table->n_columns; c++)
    widths[c] = text_width (table->columns[c].header);
  for (guint r = 0; r < table->rows->len; r++)
    {
      char **row = g_ptr_array_index (table->rows, r);
      char **clean = g_new0 (char *, table->n_columns + 1);

      for (guint c = 0; c < table->n_columns; c++)
        {
          clean[c] = grammar_report_sanitize (row[c], FALSE, table->columns[c].max_width);
          widths[c] = MAX (widths[c], text_width (clean[c]));
        }
      g_ptr_array_add (cells, clean);
    }

  /* Row -2 is the header, -1 the line under it. */
  for (int r = -2; r < (int) cells->len; r++)
    {
      g_autoptr (GString) line = g_string_new (NULL);

      for (guint c = 0; c < table->n_columns; c++)
        {
          const char *cell = r == -1 ? NULL : r == -2 ? table->columns[c].header
                             : ((char **) g_ptr_array_index (cells, r))[c];
          guint pad = cell != NULL ? widths[c] - text_width (cell) : 0;
          gboolean right = (table->columns[c].flags & COLUMN_NUMERIC) != 0;

          if (c > 0)
            g_string_append (line, "  ");
          if (cell == NULL)
            {
              for (guint i = 0; i < widths[c]; i++)
                g_string_append_c (line, '-');
              continue;
            }
          if (right)
            append_padding (line, pad);
          g_string_append (line, cell);
          if (!right)
            append_padding (line, pad);
        }
      g_strchomp (line->str);
      g_string_append_printf (out, "%s\n", line->str);
    }
}

/* One block a row: a title line from the first cell, then the others
 * as "Header: value", lines of a value indented under the first. */
static void
text_records (GString *out,
              Table   *table)
{
  guint header_width = 0;

  for (guint c = 1; c < table->n_columns; c++)
    header_width = MAX (header_width, text_width (table->columns[c].header) + 1);
  for (guint r = 0; r < table->rows->len; r++)
    {
      char **row = g_ptr_array_index (table->rows, r);
      g_autofree char *title = grammar_report_sanitize (row[0], FALSE, 0);

      if (r > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, "%s %s\n", table->columns[0].header, title);
      for (guint c = 1; c < table->n_columns; c++)
        {
          g_autofree char *value = grammar_report_sanitize (row[c], TRUE, 0);
          g_auto (GStrv) lines = g_strsplit (value, "\n", -1);

          g_string_append_printf (out, "  %s:", table->columns[c].header);
          append_padding (out, header_width - text_width (table->columns[c].header));
          for (guint i = 0; lines[i] != NULL; i++)
            {
              g_autofree char *line = grammar_report_sanitize (lines[i], FALSE, table->columns[c].max_width);

              if (i > 0)
                append_padding (out, header_width + 3);
              g_string_append_printf (out, " %s\n", line);
            }
        }
    }
}

void
grammar_report_render_text (GString  *out,
             Document *doc)
{
  for (guint i = 0; i < doc->blocks->len; i++)
    {
      Block *block = g_ptr_array_index (doc->blocks, i);
      g_autofree char *text = block->text != NULL ? grammar_report_sanitize (block->text, FALSE, 0) : NULL;

      if (i > 0)
        g_string_append_c (out, '\n');
      switch (block->kind)
        {
        case BLOCK_HEADING:
          g_string_append_printf (out, "%s\n", text);
          append_underline (out, text, block->level == 1 ? "=" : "-");
          break;
        case BLOCK_PARAGRAPH:
          g_string_append_printf (out, "%s\n", text);
          break;
        case BLOCK_CONCLUSION:
          g_string_append_printf (out, "Conclusion: %s\n", text);
          break;
        case BLOCK_TABLE:
          if (block->table->rows->len == 0)
            g_string_append (out, "(none)\n");
          else if (block->table->records)
            text_records (out, block->table);
          else
            text_columns (out, block->table);
          break;
        case BLOCK_CHART:
          break;
        }
    }
}
