/* grammar-report-html.c: the report as an HTML page with charts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-report-format-private.h"
#include "grammar-report-private.h"

/* HTML */

/* The page fits a window of any width from a phone's (390 px) up: wide
 * tables scroll in their own box, never the page; records are lists of
 * "header: value", not tables; long text wraps anywhere. */
static const char html_style[] =
  "*,*::before,*::after{box-sizing:border-box}\n"
  "body{font-family:system-ui,-apple-system,\"Segoe UI\",sans-serif;margin:2em auto;max-width:75em;"
  "padding:0 1em;color:#222;line-height:1.4;overflow-wrap:anywhere}\n"
  "h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ddd}\n"
  "h3{font-size:1em;margin:1.2em 0 .3em}\n"
  "div.wide{overflow-x:auto;margin:1em 0}\n"
  "table{border-collapse:collapse;font-size:.9em}\n"
  "th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;text-align:left;overflow-wrap:normal}\n"
  "th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
  "td.text{white-space:pre-wrap;overflow-wrap:anywhere;min-width:10em;max-width:36em}\n"
  "td.template{min-width:18em}code.sql{font-size:.95em}span.example{display:block;color:#333;font-style:italic;margin-top:.2em}\n"
  "span.id{display:block;color:#666;font-size:.85em;font-family:ui-monospace,monospace}\n"
  "tr:target{background:#fff8d6}\n"
  "dl.record{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1em 1em;margin:.3em 0 1em;"
  "font-size:.9em}\n"
  "dl.record dt{font-weight:600;color:#444}dl.record dd{margin:0;min-width:0;white-space:pre-wrap}\n"
  "details summary{cursor:pointer}details[open] summary span.more{display:none}\n"
  "span.note{display:block;color:#666;font-size:.85em;margin-top:.3em}\n"
  "figure{margin:1em 0;overflow-x:auto}figcaption{font-size:.85em;color:#555}\n"
  "svg.chart{font-size:12px;max-width:100%;height:auto}svg.chart text{fill:#222}\n"
  "svg.chart text.tick,svg.chart text.na{fill:#666}svg.chart text.inbar{fill:#fff;font-weight:bold}\n"
  "p.conclusion{border-left:4px solid #1f77b4;padding:.5em 1em;background:#f4f8fb}\n"
  "td.fig{white-space:nowrap}\n"
  /* a phone: smaller tables; the charts shrink, but not past reading
   * (their box scrolls then) */
  "@media (max-width:40em){body{padding:0 .6em;margin:1em auto}table,dl.record{font-size:.8em}"
  "svg.chart{min-width:600px}}\n";

/* A value of the data: whole when it is short; else its first
 * CELL_SHOWN characters, the rest of what the model kept one click away
 * (no script: <details>), and where the whole value is when the model
 * kept only its first CELL_KEPT characters. */
static void
html_value (GString                 *out,
            const GrammarReportCell *cell)
{
  g_autofree char *note = NULL;
  g_autofree char *head = NULL;
  g_autofree char *rest = NULL;
  const char *split;

  if (cell->length <= CELL_SHOWN)
    {
      g_autofree char *text = grammar_report_escape_html (cell->text, 0);

      g_string_append (out, text);
      return;
    }
  split = g_utf8_offset_to_pointer (cell->text, CELL_SHOWN);
  {
    g_autofree char *first = g_strndup (cell->text, split - cell->text);

    head = grammar_report_escape_html (first, 0);
  }
  rest = grammar_report_escape_html (split, 0);
  note = grammar_report_cell_note (cell, CELL_KEPT);
  g_string_append_printf (out, "<details><summary>%s<span class=\"more\">… (%" G_GUINT64_FORMAT
                          " characters)</span></summary>%s", head, cell->length, rest);
  if (note != NULL)
    {
      g_autofree char *escaped = grammar_report_escape_html (note, 0);

      g_string_append_printf (out, "…<span class=\"note\">%s</span>", escaped);
    }
  g_string_append (out, "</details>");
}

/* A template: its SQL, an example text query and its id. */
static void
html_template (GString    *out,
               const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, TEMPLATE_SEPARATOR, 3);
  g_autofree char *sql = grammar_report_escape_html (parts[0], 0);

  g_string_append_printf (out, "<code class=\"sql\">%s</code>", sql);
  if (parts[1] != NULL && *parts[1] != '\0')
    {
      g_autofree char *example = grammar_report_escape_html (parts[1], 0);

      g_string_append_printf (out, "<span class=\"example\">“%s”</span>", example);
    }
  if (parts[1] != NULL && parts[2] != NULL)
    {
      g_autofree char *id = grammar_report_escape_html (parts[2], 0);

      g_string_append_printf (out, "<span class=\"id\">%s</span>", id);
    }
}

/* The content of a cell of @column. A template id links to the row of
 * its template when the page has one (@anchors). */
static void
html_cell (GString                   *out,
           const GrammarReportColumn *column,
           const GrammarReportCell   *cell,
           GHashTable                *anchors)
{
  if ((column->flags & COLUMN_TEMPLATE) != 0 && strstr (cell->text, TEMPLATE_SEPARATOR) != NULL)
    {
      html_template (out, cell->text);
      return;
    }
  if ((column->flags & COLUMN_TEMPLATE_ID) != 0 && cell->length <= CELL_SHOWN)
    {
      g_autofree char *anchor = g_strconcat ("template-", cell->text, NULL);

      if (g_hash_table_contains (anchors, anchor))
        {
          g_autofree char *text = grammar_report_escape_html (cell->text, 0);

          /* the anchor holds only ASCII letters, digits, "-", "_" and "." */
          g_string_append_printf (out, "<a href=\"#%s\">%s</a>", anchor, text);
          return;
        }
    }
  html_value (out, cell);
}

static const char *
cell_class (const GrammarReportColumn *column)
{
  if ((column->flags & COLUMN_NUMERIC) != 0)
    return " class=\"num\"";
  if ((column->flags & COLUMN_TEMPLATE) != 0)
    return " class=\"text template\"";
  if ((column->flags & COLUMN_USER) != 0)
    return " class=\"text\"";
  return " class=\"fig\"";
}

static void
html_table (GString            *out,
            GrammarReportTable *table,
            GHashTable         *anchors)
{
  guint n_rows = grammar_report_table_n_rows (table);

  if (n_rows == 0)
    {
      g_string_append (out, "<p>(none)</p>\n");
      return;
    }
  g_string_append (out, "<div class=\"wide\">\n<table>\n<thead><tr>");
  for (guint c = 0; c < table->n_columns; c++)
    {
      g_autofree char *header = grammar_report_escape_html (table->columns[c].header, 0);

      g_string_append_printf (out, "<th>%s</th>", header);
    }
  g_string_append (out, "</tr></thead>\n<tbody>\n");
  for (guint r = 0; r < n_rows; r++)
    {
      const char *anchor = g_ptr_array_index (table->anchors, r);

      if (anchor != NULL)
        g_string_append_printf (out, "<tr id=\"%s\">", anchor);
      else
        g_string_append (out, "<tr>");
      for (guint c = 0; c < table->n_columns; c++)
        {
          g_string_append_printf (out, "<td%s>", cell_class (&table->columns[c]));
          html_cell (out, &table->columns[c], grammar_report_table_cell (table, r, c), anchors);
          g_string_append (out, "</td>");
        }
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</tbody>\n</table>\n</div>\n");
}

/* A table of records (gap groups, errors) as one list a record, which
 * fits any width where eleven columns would not. */
static void
html_records (GString            *out,
              GrammarReportTable *table,
              GHashTable         *anchors)
{
  guint n_rows = grammar_report_table_n_rows (table);

  if (n_rows == 0)
    {
      g_string_append (out, "<p>(none)</p>\n");
      return;
    }
  for (guint r = 0; r < n_rows; r++)
    {
      g_autofree char *header = grammar_report_escape_html (table->columns[0].header, 0);

      g_string_append_printf (out, "<h3>%s ", header);
      html_value (out, grammar_report_table_cell (table, r, 0));
      g_string_append (out, "</h3>\n<dl class=\"record\">\n");
      for (guint c = 1; c < table->n_columns; c++)
        {
          g_autofree char *name = grammar_report_escape_html (table->columns[c].header, 0);

          g_string_append_printf (out, "<dt>%s</dt><dd>", name);
          html_cell (out, &table->columns[c], grammar_report_table_cell (table, r, c), anchors);
          g_string_append (out, "</dd>\n");
        }
      g_string_append (out, "</dl>\n");
    }
}

/* The ids of the rows of the page's tables. */
static GHashTable *
document_anchors (GrammarReportDocument *doc)
{
  GHashTable *anchors = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < doc->blocks->len; i++)
    {
      GrammarReportBlock *block = g_ptr_array_index (doc->blocks, i);

      for (guint r = 0; block->table != NULL && r < block->table->anchors->len; r++)
        if (g_ptr_array_index (block->table->anchors, r) != NULL)
          g_hash_table_add (anchors, g_ptr_array_index (block->table->anchors, r));
    }
  return anchors;
}

void
grammar_report_render_html (GString               *out,
                            GrammarReportDocument *doc)
{
  g_autofree char *title = grammar_report_escape_html (doc->title, 0);
  g_autoptr (GHashTable) anchors = document_anchors (doc);

  g_string_append_printf (out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                          "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", title, html_style);
  for (guint i = 0; i < doc->blocks->len; i++)
    {
      GrammarReportBlock *block = g_ptr_array_index (doc->blocks, i);
      g_autofree char *text = block->kind != BLOCK_CHART && block->text != NULL ?
                              grammar_report_escape_html (block->text, 0) : NULL;

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
          if (block->table->records)
            html_records (out, block->table, anchors);
          else
            html_table (out, block->table, anchors);
          break;
        case BLOCK_CHART:
          g_string_append_printf (out, "%s\n", block->text);   /* built escaped */
          break;
        }
    }
  g_string_append (out, "</body>\n</html>\n");
}
