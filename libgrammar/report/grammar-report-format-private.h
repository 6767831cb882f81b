/* grammar-report-format-private.h: the text every format shows: sanitized and escaped data, numbers with four decimals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What a figure that is undefined (null) or absent prints as. */
#define GRAMMAR_REPORT_NONE "—"

G_GNUC_INTERNAL
guint  grammar_report_char_width           (gunichar     c);
G_GNUC_INTERNAL
char  *grammar_report_sanitize             (const char  *text,
                                            gboolean     keep_newlines,
                                            guint        max_width);
G_GNUC_INTERNAL
char  *grammar_report_escape_html          (const char  *text,
                                            guint        max_width);

G_GNUC_INTERNAL
char  *grammar_report_format_decimal       (double       value,
                                            gboolean     signed_);
G_GNUC_INTERNAL
char  *grammar_report_format_count_value   (double       value);
G_GNUC_INTERNAL
char  *grammar_report_format_count         (JsonObject  *object,
                                            const char  *name);
G_GNUC_INTERNAL
char  *grammar_report_format_rate          (JsonObject  *object,
                                            const char  *name);
G_GNUC_INTERNAL
char  *grammar_report_format_interval_node (JsonNode    *node);
G_GNUC_INTERNAL
char  *grammar_report_format_interval      (JsonObject  *intervals,
                                            const char  *name);
G_GNUC_INTERNAL
char  *grammar_report_format_p             (JsonObject  *object);
G_GNUC_INTERNAL
char  *grammar_report_dup_or_none          (const char  *text);
G_GNUC_INTERNAL
char  *grammar_report_join_strings         (JsonArray   *array,
                                            const char  *separator);
G_GNUC_INTERNAL
char  *grammar_report_format_json          (JsonNode    *node);
G_GNUC_INTERNAL
char  *grammar_report_cut_chars            (const char  *text,
                                            guint        n);

G_END_DECLS
