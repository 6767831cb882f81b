/* grammar-value.h: database values as GVariants, the same from every backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

GVariant *grammar_value_new_text    (const char *data,
                                     gssize      length);
GVariant *grammar_value_new_decimal (const char *text,
                                     gssize      length);
GVariant *grammar_value_new_float   (float       value);

const char *grammar_value_get_decimal (GVariant   *value);

char       *grammar_value_to_text     (GVariant   *value);
JsonNode   *grammar_value_to_json     (GVariant   *value);

G_END_DECLS
