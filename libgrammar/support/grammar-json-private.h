/* grammar-json-private.h: the members the JSON reports write the same way
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "grammar-json.h"

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

/* How deep the JSON the product reads may nest: deeper than any file it
 * writes, far shallower than what json-glib's recursive parser survives. */
#define GRAMMAR_JSON_MAX_DEPTH 64

G_GNUC_INTERNAL
void     grammar_json_append_node (GString    *out,
                                   JsonNode   *node,
                                   guint       indent);
G_GNUC_INTERNAL
void     grammar_json_append_node_at (GString    *out,
                                      JsonNode   *node,
                                      guint       indent,
                                      guint       level);
G_GNUC_INTERNAL
gboolean grammar_json_check_depth (const char *path,
                                   guint64     first_line,
                                   const char *text,
                                   gsize       length,
                                   GError    **error);
G_GNUC_INTERNAL
gboolean grammar_json_check_file_depth (const char *path,
                                        GError    **error);
G_GNUC_INTERNAL
gboolean grammar_json_parser_load (JsonParser *parser,
                                   const char *text,
                                   gsize       length,
                                   GError    **error);
G_GNUC_INTERNAL
gboolean grammar_json_node_get_real (JsonNode *node,
                                     double   *value);
G_GNUC_INTERNAL
char    *grammar_json_node_dup_text (JsonNode *node);
G_GNUC_INTERNAL
char    *grammar_json_node_dup_id   (JsonNode *node);
G_GNUC_INTERNAL
gboolean grammar_json_load_file   (JsonParser *parser,
                                   const char *path,
                                   GError    **error);

G_END_DECLS
