/* grammar-report-svg-private.h: the charts of the HTML report, as inline SVG
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define GRAMMAR_REPORT_COLOR_GAP "#d62728"
#define GRAMMAR_REPORT_COLOR_NON_ROBUST "#ff7f0e"
#define GRAMMAR_REPORT_COLOR_ROBUST "#2ca02c"
#define GRAMMAR_REPORT_COLOR_UNMEASURED "#9e9e9e"
#define GRAMMAR_REPORT_COLOR_A "#1f77b4"
#define GRAMMAR_REPORT_COLOR_B "#9467bd"

/* The group tags in the order the report shows them, with their colour. */
typedef struct
{
  const char *tag;
  const char *title;
  const char *color;
} GrammarReportTag;

#define GRAMMAR_REPORT_N_TAGS 4

G_GNUC_INTERNAL
extern const GrammarReportTag grammar_report_tags[GRAMMAR_REPORT_N_TAGS];

/* One row of an interval chart. */
typedef struct
{
  char *label;
  char *title;               /* shown on hover: the whole label, or this when not NULL */
  double value;              /* NAN: undefined */
  double lo, hi;             /* NAN: no interval */
  const char *color;
} GrammarReportChartRow;

G_GNUC_INTERNAL
GArray *grammar_report_chart_rows_new  (void);
G_GNUC_INTERNAL
void    grammar_report_chart_rows_add  (GArray      *rows,
                                        char        *label,
                                        double       value,
                                        JsonNode    *interval,
                                        const char  *color);
G_GNUC_INTERNAL
char   *grammar_report_interval_chart  (const char  *caption,
                                        GArray      *rows);
G_GNUC_INTERNAL
char   *grammar_report_groups_chart    (JsonObject  *groups);

G_END_DECLS
