/* grammar-report.h: the report of a judged run, as text, JSON, Markdown or HTML
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

/**
 * GrammarReportFormat:
 * @GRAMMAR_REPORT_FORMAT_TEXT: aligned tables for a terminal
 * @GRAMMAR_REPORT_FORMAT_JSON: the report JSON itself, pretty-printed
 * @GRAMMAR_REPORT_FORMAT_MARKDOWN: GitHub-flavoured Markdown tables
 * @GRAMMAR_REPORT_FORMAT_HTML: one self-contained HTML page with SVG charts
 *
 * The formats grammar_report_write() renders a report in.
 */
typedef enum {
  GRAMMAR_REPORT_FORMAT_TEXT,
  GRAMMAR_REPORT_FORMAT_JSON,
  GRAMMAR_REPORT_FORMAT_MARKDOWN,
  GRAMMAR_REPORT_FORMAT_HTML,
} GrammarReportFormat;

/**
 * GRAMMAR_TYPE_REPORT_FORMAT:
 *
 * The #GType of #GrammarReportFormat.
 */
#define GRAMMAR_TYPE_REPORT_FORMAT (grammar_report_format_get_type ())

/**
 * GRAMMAR_REPORT_TEXT_MAX_LIST:
 *
 * How many gap groups and errors the text report lists by default (the
 * other formats list them all).
 */
#define GRAMMAR_REPORT_TEXT_MAX_LIST 20

GRAMMAR_AVAILABLE_IN_ALL
GType    grammar_report_format_get_type    (void) G_GNUC_CONST;

GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_report_format_from_string (const char           *text,
                                            GrammarReportFormat  *format);

GRAMMAR_AVAILABLE_IN_ALL
JsonNode *grammar_report_build             (const char           *input,
                                            const char           *against,
                                            gboolean              balance,
                                            double                alpha,
                                            guint                 max_list,
                                            GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode *grammar_report_build_with_assessed (const char         *input,
                                              const char         *against,
                                              const char * const *assessed,
                                              gboolean            balance,
                                              double              alpha,
                                              guint               max_list,
                                              GError            **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode *grammar_report_build_full        (const char           *input,
                                           const char           *against,
                                           const char * const   *assessed,
                                           const guint          *cutoffs,
                                           gsize                 n_cutoffs,
                                           gboolean              balance,
                                           double                alpha,
                                           guint                 max_list,
                                           GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_report_write_full         (const char           *input,
                                            const char           *against,
                                            const char * const   *assessed,
                                            const guint          *cutoffs,
                                            gsize                 n_cutoffs,
                                            gboolean              balance,
                                            double                alpha,
                                            guint                 max_list,
                                            GrammarReportFormat   format,
                                            const char           *path,
                                            GOutputStream        *stream,
                                            GCancellable         *cancellable,
                                            GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_report_write              (JsonNode             *report,
                                            GrammarReportFormat   format,
                                            GOutputStream        *stream,
                                            GCancellable         *cancellable,
                                            GError              **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_report_write_to_file      (JsonNode             *report,
                                            GrammarReportFormat   format,
                                            const char           *path,
                                            GCancellable         *cancellable,
                                            GError              **error);

G_END_DECLS
