/* grammar-report-private.h: the report as a document of blocks, which every format renders
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "grammar-report.h"

G_BEGIN_DECLS

/* The report is first turned into a list of blocks (headings, paragraphs,
 * tables, charts) that says what is shown; each format then only decides
 * how, so the four formats cannot drift apart in content. */

enum {
  COLUMN_NUMERIC = 1 << 0,   /* right-aligned */
  COLUMN_USER = 1 << 1,      /* text from the user's data: escaped the most */
  COLUMN_TEMPLATE = 1 << 2,  /* a template: its SQL, example and id, joined by TEMPLATE_SEPARATOR */
  COLUMN_WRAP = 1 << 3,      /* text format: long lines wrap instead of being elided */
  COLUMN_TEMPLATE_ID = 1 << 4, /* a template id: in HTML, a link to its row in the breakdown */
};

/* Between the parts of a COLUMN_TEMPLATE cell (no text of the data has
 * it once sanitized: it is a control character). */
#define TEMPLATE_SEPARATOR "\x1f"

/* A value longer than CELL_SHOWN characters is cut there in the text and
 * Markdown formats, and in HTML shows its first CELL_SHOWN characters
 * with the rest one click away, up to CELL_KEPT characters: the page does
 * not grow with the data. The JSON format has every value whole. */
#define CELL_SHOWN 200
#define CELL_KEPT 2000

typedef struct
{
  const char *header;
  guint flags;
  guint max_width;           /* text format: longer cells are elided (or wrapped); 0 = no limit */
} GrammarReportColumn;

typedef struct
{
  char *text;                /* the value, or its first CELL_KEPT characters */
  guint64 length;            /* the characters of the whole value */
} GrammarReportCell;

typedef struct
{
  const GrammarReportColumn *columns;
  guint n_columns;
  gboolean records;          /* text format: one "Header: value" block per row; HTML: a list */
  GArray *cells;             /* Cell, row after row, n_columns a row */
  GPtrArray *anchors;        /* HTML: the id of each row (char *, NULL for none) */
} GrammarReportTable;

typedef enum {
  BLOCK_HEADING,
  BLOCK_PARAGRAPH,
  BLOCK_CONCLUSION,
  BLOCK_TABLE,
  BLOCK_CHART,
} GrammarReportBlockKind;

typedef struct
{
  GrammarReportBlockKind kind;
  guint level;               /* headings: 1 or 2 */
  char *text;                /* plain text, or the SVG figure of a chart */
  GrammarReportTable *table;
} GrammarReportBlock;

typedef struct
{
  char *title;
  gboolean charts;           /* only the HTML page shows them */
  guint max_list;            /* entries of a list shown, at most (0: all) */
  JsonObject *templates;     /* while it is built: the report's `templates` */
  GPtrArray *blocks;
} GrammarReportDocument;

G_GNUC_INTERNAL
GrammarReportDocument   *grammar_report_document_build  (JsonObject               *root,
                                                         gboolean                  charts,
                                                         guint                     max_list);
G_GNUC_INTERNAL
void                     grammar_report_document_free   (GrammarReportDocument    *doc);
G_GNUC_INTERNAL
guint                    grammar_report_table_n_rows    (const GrammarReportTable *table);
G_GNUC_INTERNAL
const GrammarReportCell *grammar_report_table_cell      (const GrammarReportTable *table,
                                                         guint                     row,
                                                         guint                     column);
G_GNUC_INTERNAL
char                    *grammar_report_cell_preview    (const GrammarReportCell  *cell);
G_GNUC_INTERNAL
char                    *grammar_report_cell_note       (const GrammarReportCell  *cell,
                                                         guint                     shown);
G_GNUC_INTERNAL
void                     grammar_report_render_text     (GString                  *out,
                                                         GrammarReportDocument    *doc);
G_GNUC_INTERNAL
void                     grammar_report_render_markdown (GString                  *out,
                                                         GrammarReportDocument    *doc);
G_GNUC_INTERNAL
void                     grammar_report_render_html     (GString                  *out,
                                                         GrammarReportDocument    *doc);

G_GNUC_INTERNAL
gboolean  grammar_report_write_listed     (JsonNode             *report,
                                           GrammarReportFormat   format,
                                           guint                 max_list,
                                           GOutputStream        *stream,
                                           GCancellable         *cancellable,
                                           GError              **error);
G_GNUC_INTERNAL
gboolean  grammar_report_write_listed_to_file (JsonNode             *report,
                                               GrammarReportFormat   format,
                                               guint                 max_list,
                                               const char           *path,
                                               GCancellable         *cancellable,
                                               GError              **error);
G_GNUC_INTERNAL
JsonNode *grammar_report_build_styles     (const char * const   *judged,
                                           guint                 a,
                                           guint                 b,
                                           const char * const   *assessed,
                                           double                alpha,
                                           guint                 max_list,
                                           GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarReportDocument, grammar_report_document_free)

G_END_DECLS
