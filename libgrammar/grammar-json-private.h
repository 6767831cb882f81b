/* grammar-json-private.h: the members the JSON reports write the same way
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The evaluation, the comparison and the reliability write numbers that
 * may be undefined (a rate of no records) as null, never as NaN, and an
 * interval as [low, high] or null. */

G_GNUC_INTERNAL
void grammar_json_add_number   (JsonBuilder *builder,
                                const char  *name,
                                double       value);
G_GNUC_INTERNAL
void grammar_json_add_int      (JsonBuilder *builder,
                                const char  *name,
                                guint64      value);
G_GNUC_INTERNAL
void grammar_json_add_interval (JsonBuilder *builder,
                                const char  *name,
                                gboolean     defined,
                                double       low,
                                double       high);

G_END_DECLS
