/* grammar-json-pointer.h: RFC 6901 JSON pointers into json-glib trees
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

gboolean  grammar_json_pointer_check   (const char  *pointer,
                                        GError     **error);
JsonNode *grammar_json_pointer_resolve (JsonNode    *root,
                                        const char  *pointer);
char     *grammar_json_pointer_describe_miss (JsonNode   *root,
                                              const char *pointer,
                                              const char *root_name);
gboolean  grammar_json_pointer_set     (JsonNode    *root,
                                        const char  *pointer,
                                        JsonNode    *value,
                                        GError     **error);

const char *grammar_json_node_kind (JsonNode *node);

G_END_DECLS
