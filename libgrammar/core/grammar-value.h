/* grammar-value.h: database values as GVariants, the same from every backend
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
GVariant *grammar_value_new_text    (const char *data,
                                     gssize      length);
GRAMMAR_AVAILABLE_IN_ALL
GVariant *grammar_value_new_decimal (const char *text,
                                     gssize      length);
GRAMMAR_AVAILABLE_IN_ALL
GVariant *grammar_value_new_float   (float       value);

GRAMMAR_AVAILABLE_IN_ALL
const char *grammar_value_get_decimal (GVariant   *value);

GRAMMAR_AVAILABLE_IN_ALL
char       *grammar_value_to_text     (GVariant   *value);
GRAMMAR_AVAILABLE_IN_ALL
JsonNode   *grammar_value_to_json     (GVariant   *value);

G_END_DECLS
