/* grammar-text-style.h: the text styles of the papers, by name
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

GRAMMAR_AVAILABLE_IN_ALL
const char * const    *grammar_text_style_list               (void);
GRAMMAR_AVAILABLE_IN_ALL
gboolean               grammar_text_style_check              (const char            *style,
                                                              GError               **error);
GRAMMAR_AVAILABLE_IN_ALL
const char            *grammar_text_style_get_summary        (const char            *style);
GRAMMAR_AVAILABLE_IN_ALL
const char            *grammar_text_style_get_criteria       (const char            *style);
GRAMMAR_AVAILABLE_IN_ALL
guint                  grammar_text_count_words              (const char            *text);

G_END_DECLS
