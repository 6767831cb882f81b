/* grammar-report-markdown.c: the report as Markdown
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-report-format-private.h"
#include "grammar-report-private.h"

/* Markdown */

/* Writes @text so that GitHub shows it as it is: ASCII punctuation that
 * Markdown or its inline HTML would interpret is backslash-escaped
 * (links too for user text), and newlines, which would end a table
 * row, become <br>. */
static void
markdown_escape (GString    *out,
                 const char *text,
                 gboolean    user)
{
  g_autofree char *clean = grammar_report_sanitize (text, TRUE, 0);

  for (const char *p = clean; *p != '\0'; p++)
    {
      if (*p == '\n')
        g_string_append (out, "<br>");
      else if (strchr ("\\|<>&`*_~", *p) != NULL || (user && strchr ("[]#!", *p) != NULL))
        g_string_append_printf (out, "\\%c", *p);
      else
        g_string_append_c (out, *p);
    }
}

/* A cell: a template as its SQL, example and id on three lines; a long
 * value cut at CELL_SHOWN characters, with a note saying so. */
static void
markdown_cell (GString                   *out,
               const GrammarReportColumn *column,
               const GrammarReportCell   *cell)
{
  gboolean user = (column->flags & COLUMN_USER) != 0;
  g_autofree char *preview = NULL;
  g_autofree char *note = NULL;

  if ((column->flags & COLUMN_TEMPLATE) != 0 && strstr (cell->text, TEMPLATE_SEPARATOR) != NULL)
    {
      g_auto (GStrv) parts = g_strsplit (cell->text, TEMPLATE_SEPARATOR, 3);
      g_autoptr (GString) shown = g_string_new (parts[0]);

      if (parts[1] != NULL && *parts[1] != '\0')
        g_string_append_printf (shown, "\n“%s”", parts[1]);
      if (parts[1] != NULL && parts[2] != NULL)
        g_string_append_printf (shown, "\n%s", parts[2]);
      markdown_escape (out, shown->str, user);
      return;
    }
  preview = grammar_report_cell_preview (cell);
  note = grammar_report_cell_note (cell, CELL_SHOWN);
  markdown_escape (out, preview, user);
  if (note != NULL)
    {
      g_string_append_c (out, ' ');
      markdown_escape (out, note, TRUE);
    }
}

static void
markdown_table (GString            *out,
                GrammarReportTable *table)
{
  guint n_rows = grammar_report_table_n_rows (table);

  if (n_rows == 0)
    {
      g_string_append (out, "(none)\n");
      return;
    }
  g_string_append (out, "|");
  for (guint c = 0; c < table->n_columns; c++)
    {
      g_string_append_c (out, ' ');
      markdown_escape (out, table->columns[c].header, FALSE);
      g_string_append (out, " |");
    }
  g_string_append (out, "\n|");
  for (guint c = 0; c < table->n_columns; c++)
    g_string_append (out, (table->columns[c].flags & COLUMN_NUMERIC) != 0 ? " ---: |" : " --- |");
  g_string_append_c (out, '\n');
  for (guint r = 0; r < n_rows; r++)
    {
      g_string_append (out, "|");
      for (guint c = 0; c < table->n_columns; c++)
        {
          g_string_append_c (out, ' ');
          markdown_cell (out, &table->columns[c], grammar_report_table_cell (table, r, c));
          g_string_append (out, " |");
        }
      g_string_append_c (out, '\n');
    }
}

void
grammar_report_render_markdown (GString               *out,
                                GrammarReportDocument *doc)
{
  for (guint i = 0; i < doc->blocks->len; i++)
    {
      GrammarReportBlock *block = g_ptr_array_index (doc->blocks, i);

      if (block->kind == BLOCK_CHART)
        continue;
      if (i > 0)
        g_string_append_c (out, '\n');
      switch (block->kind)
        {
        case BLOCK_HEADING:
          g_string_append (out, block->level == 1 ? "# " : "## ");
          markdown_escape (out, block->text, TRUE);
          break;
        case BLOCK_PARAGRAPH:
          markdown_escape (out, block->text, TRUE);
          break;
        case BLOCK_CONCLUSION:
          g_string_append (out, "**Conclusion:** ");
          markdown_escape (out, block->text, TRUE);
          break;
        case BLOCK_TABLE:
          markdown_table (out, block->table);
          continue;
        case BLOCK_CHART:
          break;
        }
      g_string_append_c (out, '\n');
    }
}
