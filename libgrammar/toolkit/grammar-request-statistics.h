/* grammar-request-statistics.h: the end-of-run line of a component that sends requests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib-object.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

GRAMMAR_AVAILABLE_IN_ALL
char *grammar_format_request_statistics (GObject    *object,
                                         const char *label);

G_END_DECLS
