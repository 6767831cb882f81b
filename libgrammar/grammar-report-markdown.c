/* grammar-report-markdown.c: the report as Markdown
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

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

static void
markdown_table (GString *out,
                Table   *table)
{
  if (table->rows->len == 0)
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
  for (guint r = 0; r < table->rows->len; r++)
    {
      char **row = g_ptr_array_index (table->rows, r);

      g_string_append (out, "|");
      for (guint c = 0; c < table->n_columns; c++)
        {
          g_string_append_c (out, ' ');
          markdown_escape (out, row[c], (table->columns[c].flags & COLUMN_USER) != 0);
          g_string_append (out, " |");
        }
      g_string_append_c (out, '\n');
    }
}

void
grammar_report_render_markdown (GString  *out,
                 Document *doc)
{
  for (guint i = 0; i < doc->blocks->len; i++)
    {
      Block *block = g_ptr_array_index (doc->blocks, i);

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
