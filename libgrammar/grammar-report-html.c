/* grammar-report-html.c: the report as an HTML page with charts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-report-private.h"

/* HTML */

static const char html_style[] =
  "body{font-family:system-ui,-apple-system,\"Segoe UI\",sans-serif;margin:2em auto;max-width:70em;"
  "padding:0 1em;color:#222;line-height:1.4}\n"
  "h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ddd}\n"
  "table{border-collapse:collapse;margin:1em 0;font-size:.9em}\n"
  "th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;text-align:left}\n"
  "th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
  "td.text{white-space:pre-wrap;overflow-wrap:break-word;max-width:30em}\n"
  "figure{margin:1em 0}figcaption{font-size:.85em;color:#555}\n"
  "svg.chart{font-size:12px;max-width:100%;height:auto}svg.chart text{fill:#222}\n"
  "svg.chart text.tick,svg.chart text.na{fill:#666}svg.chart text.inbar{fill:#fff;font-weight:bold}\n"
  "p.conclusion{border-left:4px solid #1f77b4;padding:.5em 1em;background:#f4f8fb}\n";

static void
html_table (GString *out,
            Table   *table)
{
  if (table->rows->len == 0)
    {
      g_string_append (out, "<p>(none)</p>\n");
      return;
    }
  g_string_append (out, "<table>\n<thead><tr>");
  for (guint c = 0; c < table->n_columns; c++)
    {
      g_autofree char *header = grammar_report_escape_html (table->columns[c].header, 0);

      g_string_append_printf (out, "<th>%s</th>", header);
    }
  g_string_append (out, "</tr></thead>\n<tbody>\n");
  for (guint r = 0; r < table->rows->len; r++)
    {
      char **row = g_ptr_array_index (table->rows, r);

      g_string_append (out, "<tr>");
      for (guint c = 0; c < table->n_columns; c++)
        {
          g_autofree char *cell = grammar_report_escape_html (row[c], 0);
          guint flags = table->columns[c].flags;

          g_string_append_printf (out, "<td%s>%s</td>", (flags & COLUMN_NUMERIC) != 0 ? " class=\"num\"" :
                                  (flags & COLUMN_USER) != 0 ? " class=\"text\"" : "", cell);
        }
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</tbody>\n</table>\n");
}

void
grammar_report_render_html (GString  *out,
             Document *doc)
{
  g_autofree char *title = grammar_report_escape_html (doc->title, 0);

  g_string_append_printf (out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                          "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", title, html_style);
  for (guint i = 0; i < doc->blocks->len; i++)
    {
      Block *block = g_ptr_array_index (doc->blocks, i);
      g_autofree char *text = block->kind != BLOCK_CHART && block->text != NULL ? grammar_report_escape_html (block->text, 0)
                              : NULL;

      switch (block->kind)
        {
        case BLOCK_HEADING:
          g_string_append_printf (out, "<h%u>%s</h%u>\n", block->level, text, block->level);
          break;
        case BLOCK_PARAGRAPH:
          g_string_append_printf (out, "<p>%s</p>\n", text);
          break;
        case BLOCK_CONCLUSION:
          g_string_append_printf (out, "<p class=\"conclusion\"><strong>Conclusion:</strong> %s</p>\n", text);
          break;
        case BLOCK_TABLE:
          html_table (out, block->table);
          break;
        case BLOCK_CHART:
          g_string_append_printf (out, "%s\n", block->text);   /* built escaped */
          break;
        }
    }
  g_string_append (out, "</body>\n</html>\n");
}
