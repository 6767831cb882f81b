/* grammar-json.h: JSON text as every file of the product writes it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

GRAMMAR_AVAILABLE_IN_ALL
char       *grammar_json_to_data              (JsonNode    *node,
                                               guint        indent,
                                               gsize       *length);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode   *grammar_json_from_data            (const char  *text,
                                               gssize       length,
                                               GError     **error);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode   *grammar_json_node_new_number      (const char  *text);
GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_json_node_get_number_text (JsonNode    *node);

G_END_DECLS
