/* grammar-report-read-private.h: reading the report JSON: members of any type, numbers, intervals, the required ones
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "grammar-stats-private.h"

G_BEGIN_DECLS

/* Every accessor tolerates a NULL object, a missing member or one of
 * another type, which the report shows as GRAMMAR_REPORT_NONE. */

G_GNUC_INTERNAL
JsonNode   *grammar_report_member              (JsonObject  *object,
                                                const char  *name);
G_GNUC_INTERNAL
JsonObject *grammar_report_member_object       (JsonObject  *object,
                                                const char  *name);
G_GNUC_INTERNAL
JsonArray  *grammar_report_member_array        (JsonObject  *object,
                                                const char  *name);
G_GNUC_INTERNAL
const char *grammar_report_member_string       (JsonObject  *object,
                                                const char  *name);
G_GNUC_INTERNAL
gboolean    grammar_report_node_number         (JsonNode    *node,
                                                double      *value);
G_GNUC_INTERNAL
double      grammar_report_member_number       (JsonObject  *object,
                                                const char  *name);
G_GNUC_INTERNAL
gboolean    grammar_report_member_boolean      (JsonObject  *object,
                                                const char  *name,
                                                gboolean    *value);
G_GNUC_INTERNAL
gboolean    grammar_report_node_interval       (JsonNode    *node,
                                                double      *lo,
                                                double      *hi);
G_GNUC_INTERNAL
gboolean    grammar_report_has_normal_interval (JsonObject  *object);

/* Added to a caption's "bootstrap" when grammar_report_has_normal_interval(). */
#define GRAMMAR_REPORT_NORMAL_ABOVE "normal above " G_STRINGIFY (GRAMMAR_STATS_BOOTSTRAP_LIMIT)

G_GNUC_INTERNAL
gboolean    grammar_report_check               (JsonNode    *report,
                                                GError     **error);

G_END_DECLS
