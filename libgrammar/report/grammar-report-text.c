/* grammar-report-text.c: the report as text for a terminal
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-report-format-private.h"
#include "grammar-report-private.h"

/* Text */

static guint
text_width (const char *text)
{
  guint width = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    width += grammar_report_char_width (g_utf8_get_char (p));
  return width;
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

/* @line (one line, sanitized) cut into lines of at most @width columns,
 * at spaces where it can, added to @lines. */
static void
wrap_line (GPtrArray  *lines,
           const char *line,
           guint       width)
{
  const char *start = line;

  while (text_width (start) > width)
    {
      const char *p = start, *last_space = NULL, *end = start;
      guint used = 0;

      for (; *p != '\0'; p = g_utf8_next_char (p))
        {
          guint w = grammar_report_char_width (g_utf8_get_char (p));

          if (used + w > width)
            break;
          used += w;
          if (*p == ' ' && p > start)
            last_space = p;
          end = g_utf8_next_char (p);
        }
      if (last_space != NULL)
        end = last_space;
      if (end == start)
        end = g_utf8_next_char (start);   /* a character wider than the column */
      g_ptr_array_add (lines, g_strndup (start, end - start));
      start = end;
      while (*start == ' ')
        start++;
    }
  if (*start != '\0' || lines->len == 0)
    g_ptr_array_add (lines, g_strdup (start));
}

/* Adds @text (sanitized, one line) to @lines as column @column shows it:
 * wrapped or elided at its width, after @indent. */
static void
add_cell_line (GPtrArray                 *lines,
               const GrammarReportColumn *column,
               const char                *indent,
               const char                *text)
{
  guint width = column->max_width;
  guint indent_width = text_width (indent);
  g_autofree char *clean = grammar_report_sanitize (text, FALSE, 0);

  if (width > indent_width + 8 && (column->flags & COLUMN_WRAP) != 0)
    {
      g_autoptr (GPtrArray) wrapped = g_ptr_array_new_with_free_func (g_free);

      wrap_line (wrapped, clean, width - indent_width);
      for (guint i = 0; i < wrapped->len; i++)
        g_ptr_array_add (lines, g_strconcat (indent, (char *) g_ptr_array_index (wrapped, i), NULL));
      return;
    }
  {
    g_autofree char *elided = grammar_report_sanitize (clean, FALSE, width > indent_width ? width - indent_width : 0);

    g_ptr_array_add (lines, g_strconcat (indent, elided, NULL));
  }
}

/* The lines a cell of a column table takes: one, or more for a template
 * (its SQL, then its example and id indented) and a wrapped column. */
static GPtrArray *
cell_lines (const GrammarReportColumn *column,
            const GrammarReportCell   *cell)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *preview = NULL;

  /* its parts were cut to size when it was made */
  if ((column->flags & COLUMN_TEMPLATE) != 0 && strstr (cell->text, TEMPLATE_SEPARATOR) != NULL)
    {
      g_auto (GStrv) parts = g_strsplit (cell->text, TEMPLATE_SEPARATOR, 3);

      add_cell_line (lines, column, "", parts[0]);
      if (parts[1] != NULL && *parts[1] != '\0')
        {
          g_autofree char *example = g_strdup_printf ("“%s”", parts[1]);

          add_cell_line (lines, column, "  ", example);
        }
      if (parts[1] != NULL && parts[2] != NULL)
        add_cell_line (lines, column, "  ", parts[2]);
      return lines;
    }
  preview = grammar_report_cell_preview (cell);
  add_cell_line (lines, column, "", preview);
  return lines;
}

static void
text_columns (GString            *out,
              GrammarReportTable *table)
{
  guint n_rows = grammar_report_table_n_rows (table);
  g_autofree guint *widths = g_new0 (guint, table->n_columns);
  /* GPtrArray of lines a cell, row after row */
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  gboolean tall = FALSE;

  for (guint c = 0; c < table->n_columns; c++)
    widths[c] = text_width (table->columns[c].header);
  for (guint r = 0; r < n_rows; r++)
    for (guint c = 0; c < table->n_columns; c++)
      {
        GPtrArray *lines = cell_lines (&table->columns[c], grammar_report_table_cell (table, r, c));

        for (guint i = 0; i < lines->len; i++)
          widths[c] = MAX (widths[c], text_width (g_ptr_array_index (lines, i)));
        g_ptr_array_add (cells, lines);
      }

  for (guint i = 0; i < cells->len; i++)
    tall = tall || ((GPtrArray *) g_ptr_array_index (cells, i))->len > 1;

  /* Row -2 is the header, -1 the line under it; a row of cells of
   * several lines takes as many lines, and then a blank line parts the
   * rows. */
  for (int r = -2; r < (int) n_rows; r++)
    {
      guint height = 1;

      for (guint c = 0; r >= 0 && c < table->n_columns; c++)
        height = MAX (height, ((GPtrArray *) g_ptr_array_index (cells, r * table->n_columns + c))->len);
      if (tall && r > 0)
        g_string_append_c (out, '\n');
      for (guint k = 0; k < height; k++)
        {
          g_autoptr (GString) line = g_string_new (NULL);

          for (guint c = 0; c < table->n_columns; c++)
            {
              GPtrArray *lines = r >= 0 ? g_ptr_array_index (cells, r * table->n_columns + c) : NULL;
              const char *cell = r == -1 ? NULL : r == -2 ? table->columns[c].header
                                 : k < lines->len ? g_ptr_array_index (lines, k) : "";
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
}

/* One block a row: a title line from the first cell, then the others
 * as "Header: value", lines of a value indented under the first; a
 * value longer than CELL_SHOWN characters is cut there, with a line
 * saying so. */
static void
text_records (GString            *out,
              GrammarReportTable *table)
{
  guint header_width = 0;
  guint n_rows = grammar_report_table_n_rows (table);

  for (guint c = 1; c < table->n_columns; c++)
    header_width = MAX (header_width, text_width (table->columns[c].header) + 1);
  for (guint r = 0; r < n_rows; r++)
    {
      g_autofree char *first = grammar_report_cell_preview (grammar_report_table_cell (table, r, 0));
      g_autofree char *title = grammar_report_sanitize (first, FALSE, 0);

      if (r > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, "%s %s\n", table->columns[0].header, title);
      for (guint c = 1; c < table->n_columns; c++)
        {
          const GrammarReportCell *cell = grammar_report_table_cell (table, r, c);
          g_autofree char *preview = grammar_report_cell_preview (cell);
          g_autofree char *note = grammar_report_cell_note (cell, CELL_SHOWN);
          g_autofree char *value = grammar_report_sanitize (preview, TRUE, 0);
          g_auto (GStrv) lines = g_strsplit (value, "\n", -1);

          g_string_append_printf (out, "  %s:", table->columns[c].header);
          append_padding (out, header_width - text_width (table->columns[c].header));
          for (guint i = 0, k = 0; lines[i] != NULL; i++)
            {
              g_autoptr (GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);

              add_cell_line (shown, &table->columns[c], "", lines[i]);
              for (guint j = 0; j < shown->len; j++, k++)
                {
                  if (k > 0)
                    append_padding (out, header_width + 3);
                  g_string_append_printf (out, " %s\n", (char *) g_ptr_array_index (shown, j));
                }
            }
          if (note != NULL)
            {
              append_padding (out, header_width + 3);
              g_string_append_printf (out, " %s\n", note);
            }
        }
    }
}

void
grammar_report_render_text (GString               *out,
                            GrammarReportDocument *doc)
{
  for (guint i = 0; i < doc->blocks->len; i++)
    {
      GrammarReportBlock *block = g_ptr_array_index (doc->blocks, i);
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
          if (grammar_report_table_n_rows (block->table) == 0)
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
