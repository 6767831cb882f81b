/* grammar-report-private.h: the report as a document of blocks, which every format renders
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The report is first turned into a list of blocks (headings, paragraphs,
 * tables, charts) that says what is shown; each format then only decides
 * how, so the four formats cannot drift apart in content. */

enum {
  COLUMN_NUMERIC = 1 << 0,   /* right-aligned */
  COLUMN_USER = 1 << 1,      /* text from the user's data: escaped the most */
};

typedef struct
{
  const char *header;
  guint flags;
  guint max_width;           /* text format: longer cells are elided; 0 = no limit */
} Column;

typedef struct
{
  const Column *columns;
  guint n_columns;
  gboolean records;          /* text format: one "Header: value" block per row */
  GPtrArray *rows;           /* GStrv, n_columns cells each */
} Table;

typedef enum {
  BLOCK_HEADING,
  BLOCK_PARAGRAPH,
  BLOCK_CONCLUSION,
  BLOCK_TABLE,
  BLOCK_CHART,
} BlockKind;

typedef struct
{
  BlockKind kind;
  guint level;               /* headings: 1 or 2 */
  char *text;                /* plain text, or the SVG figure of a chart */
  Table *table;
} Block;

typedef struct
{
  char *title;
  gboolean charts;           /* only the HTML page shows them */
  GPtrArray *blocks;
} Document;

G_GNUC_INTERNAL
gboolean  grammar_report_check            (JsonNode    *report,
                                           GError     **error);
G_GNUC_INTERNAL
Document *grammar_report_document_build   (JsonObject  *root,
                                           gboolean     charts);
G_GNUC_INTERNAL
void      grammar_report_document_free    (Document    *doc);
G_GNUC_INTERNAL
char     *grammar_report_sanitize         (const char  *text,
                                           gboolean     keep_newlines,
                                           guint        max_width);
G_GNUC_INTERNAL
char     *grammar_report_escape_html      (const char  *text,
                                           guint        max_width);
G_GNUC_INTERNAL
void      grammar_report_render_text      (GString     *out,
                                           Document    *doc);
G_GNUC_INTERNAL
void      grammar_report_render_markdown  (GString     *out,
                                           Document    *doc);
G_GNUC_INTERNAL
void      grammar_report_render_html      (GString     *out,
                                           Document    *doc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Document, grammar_report_document_free)

G_END_DECLS
