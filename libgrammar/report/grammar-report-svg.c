/* grammar-report-svg.c: the charts of the HTML report, as inline SVG
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-report-format-private.h"
#include "grammar-report-read-private.h"
#include "grammar-report-svg-private.h"

/* The charts of the HTML page, in pixels. */
/* the most: a chart's labels take what its longest needs */
#define CHART_LABEL_WIDTH 300
#define CHART_PLOT_WIDTH 400
#define CHART_VALUE_WIDTH 190
#define CHART_ROW_HEIGHT 24
#define CHART_LABEL_COLUMNS 34
/* A chart of more rows than this shows the first ones; the table has all. */
#define CHART_MAX_ROWS 60

/* Charts: inline SVG, built here with every piece of user text escaped.
 * Coordinates are whole pixels, printed with %d so that no locale can
 * turn a decimal point into a comma. */

static void
chart_row_clear (GrammarReportChartRow *row)
{
  g_free (row->label);
  g_free (row->title);
}

GArray *
grammar_report_chart_rows_new (void)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (GrammarReportChartRow));

  g_array_set_clear_func (rows, (GDestroyNotify) chart_row_clear);
  return rows;
}

void
grammar_report_chart_rows_add (GArray     *rows,
                               char       *label,
                               double      value,
                               JsonNode   *interval,
                               const char *color)
{
  GrammarReportChartRow row = { label, NULL, value, NAN, NAN, color };

  grammar_report_node_interval (interval, &row.lo, &row.hi);
  g_array_append_val (rows, row);
}

static int
chart_x (int    left,
         double value)
{
  return left + (int) lround (CLAMP (value, 0.0, 1.0) * CHART_PLOT_WIDTH);
}

static void
chart_grid (GString *svg,
            int      left,
            int      bottom)
{
  static const char * const ticks[] = { "0", "0.25", "0.5", "0.75", "1" };

  for (guint k = 0; k < G_N_ELEMENTS (ticks); k++)
    {
      int x = left + (int) k * CHART_PLOT_WIDTH / 4;

      g_string_append_printf (svg,
        "<line x1=\"%d\" y1=\"4\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>"
        "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%s</text>\n",
        x, x, bottom, x, bottom + 16, ticks[k]);
    }
}

static void
chart_row (GString                     *svg,
           const GrammarReportChartRow *row,
           int                          left,
           int                          y)
{
  g_autofree char *label = grammar_report_escape_html (row->label, CHART_LABEL_COLUMNS);
  g_autofree char *full_label = grammar_report_escape_html (row->title != NULL ? row->title : row->label, 0);
  g_autofree char *value = grammar_report_format_decimal (row->value, FALSE);
  g_autofree char *lo = grammar_report_format_decimal (row->lo, FALSE);
  g_autofree char *hi = grammar_report_format_decimal (row->hi, FALSE);
  int middle = y + CHART_ROW_HEIGHT / 2;
  gboolean has_interval = isfinite (row->lo) && isfinite (row->hi);

  g_string_append_printf (svg, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s<title>%s</title></text>\n",
                          left - 8, middle + 4, label, full_label);
  if (!isfinite (row->value))
    {
      g_string_append_printf (svg, "<text x=\"%d\" y=\"%d\" class=\"na\">n/a (undefined)</text>\n",
                              left + 4, middle + 4);
      return;
    }
  g_string_append_printf (svg, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"14\" fill=\"%s\" "
                          "fill-opacity=\"0.45\"/>\n",
                          left, middle - 7, chart_x (left, row->value) - left, row->color);
  if (has_interval)
    g_string_append_printf (svg,
      "<g stroke=\"#222222\" stroke-width=\"1.5\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>\n",
      chart_x (left, row->lo), middle, chart_x (left, row->hi), middle,
      chart_x (left, row->lo), middle - 5, chart_x (left, row->lo), middle + 5,
      chart_x (left, row->hi), middle - 5, chart_x (left, row->hi), middle + 5);
  g_string_append_printf (svg, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/>\n",
                          chart_x (left, row->value), middle, row->color);
  g_string_append_printf (svg, "<text x=\"%d\" y=\"%d\">%s", left + CHART_PLOT_WIDTH + 8,
                          middle + 4, value);
  if (has_interval)
    g_string_append_printf (svg, " [%s, %s]", lo, hi);
  g_string_append (svg, "</text>\n");
}

/* Rows of a value in [0, 1] with its interval as an error bar. */
char *
grammar_report_interval_chart (const char *caption,
                               GArray     *rows)
{
  g_autoptr (GString) svg = g_string_new (NULL);
  g_autofree char *escaped_caption = grammar_report_escape_html (caption, 0);
  guint shown = MIN (rows->len, CHART_MAX_ROWS);
  int bottom = 8 + (int) shown * CHART_ROW_HEIGHT;
  guint label_columns = 0;
  int left, width, height = bottom + 24;

  /* as wide as the longest label needs, up to 8 px a column at 12 px */
  for (guint i = 0; i < shown; i++)
    {
      g_autofree char *label = grammar_report_sanitize (g_array_index (rows, GrammarReportChartRow, i).label, FALSE,
                                                        CHART_LABEL_COLUMNS);

      label_columns = MAX (label_columns, g_utf8_strlen (label, -1));
    }
  left = CLAMP (16 + 8 * (int) label_columns, 80, CHART_LABEL_WIDTH);
  width = left + CHART_PLOT_WIDTH + CHART_VALUE_WIDTH;

  g_string_append_printf (svg, "<figure>\n<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                          "role=\"img\" aria-label=\"%s\">\n", width, height, width, height, escaped_caption);
  chart_grid (svg, left, bottom);
  for (guint i = 0; i < shown; i++)
    chart_row (svg, &g_array_index (rows, GrammarReportChartRow, i), left, 8 + (int) i * CHART_ROW_HEIGHT);
  g_string_append_printf (svg, "</svg>\n<figcaption>%s", escaped_caption);
  if (rows->len > shown)
    g_string_append_printf (svg, " The first %u of %u are drawn; the table has all.", shown, rows->len);
  g_string_append (svg, "</figcaption>\n</figure>");
  return g_string_free (g_steal_pointer (&svg), FALSE);
}

const GrammarReportTag grammar_report_tags[GRAMMAR_REPORT_N_TAGS] = {
  { "gap", "gap", GRAMMAR_REPORT_COLOR_GAP },
  { "non_robust", "non-robust", GRAMMAR_REPORT_COLOR_NON_ROBUST },
  { "robust", "robust", GRAMMAR_REPORT_COLOR_ROBUST },
  { "unmeasured", "unmeasured", GRAMMAR_REPORT_COLOR_UNMEASURED },
};

/* One bar split by tag: the share of the groups (or of their instances)
 * each tag has. */
static void
stacked_bar (GString    *svg,
             const char *title,
             JsonObject *counts,
             int         y)
{
  double total = 0.0;
  int x = 100;

  g_string_append_printf (svg, "<text x=\"92\" y=\"%d\" text-anchor=\"end\">%s</text>\n", y + 19, title);
  for (guint i = 0; i < GRAMMAR_REPORT_N_TAGS; i++)
    {
      double n = grammar_report_member_number (counts, grammar_report_tags[i].tag);

      total += isfinite (n) && n > 0 ? n : 0.0;
    }
  if (total <= 0.0)
    return;
  for (guint i = 0; i < GRAMMAR_REPORT_N_TAGS; i++)
    {
      double n = grammar_report_member_number (counts, grammar_report_tags[i].tag);
      g_autofree char *count = grammar_report_format_count_value (n);
      int width;

      if (!isfinite (n) || n <= 0)
        continue;
      width = (int) lround (n / total * 600);
      g_string_append_printf (svg, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"28\" fill=\"%s\">"
                              "<title>%s: %s</title></rect>\n", x, y, width, grammar_report_tags[i].color,
                              grammar_report_tags[i].title, count);
      if (width >= 36)
        g_string_append_printf (svg, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"inbar\">%s</text>\n",
                                x + width / 2, y + 19, count);
      x += width;
    }
}

char *
grammar_report_groups_chart (JsonObject *groups)
{
  g_autoptr (GString) svg = g_string_new (NULL);
  JsonObject *instances = grammar_report_member_object (groups, "instances");
  int height = 80 + (int) GRAMMAR_REPORT_N_TAGS * 20;

  g_string_append_printf (svg, "<figure>\n<svg class=\"chart\" width=\"720\" height=\"%d\" viewBox=\"0 0 720 %d\" "
                          "role=\"img\" aria-label=\"Groups by tag\">\n", height, height);
  stacked_bar (svg, "Groups", groups, 4);
  if (instances != NULL)
    stacked_bar (svg, "Instances", instances, 40);
  for (guint i = 0; i < GRAMMAR_REPORT_N_TAGS; i++)
    {
      g_autofree char *n_groups = grammar_report_format_count (groups, grammar_report_tags[i].tag);
      g_autofree char *n_instances = grammar_report_format_count (instances, grammar_report_tags[i].tag);
      int y = 84 + (int) i * 20;

      g_string_append_printf (svg, "<rect x=\"100\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                              "<text x=\"118\" y=\"%d\">%s: %s groups, %s instances</text>\n",
                              y - 10, grammar_report_tags[i].color, y, grammar_report_tags[i].title,
                              n_groups, n_instances);
    }
  g_string_append (svg, "</svg>\n<figcaption>Groups by tag: gap (no query of the group answered right), "
                   "non-robust (some), robust (all); the lower bar weighs each group by its "
                   "instances.</figcaption>\n</figure>");
  return g_string_free (g_steal_pointer (&svg), FALSE);
}
