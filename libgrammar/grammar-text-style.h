/* grammar-text-style.h: the text styles of the papers, by name
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

const char * const    *grammar_text_style_list               (void);
gboolean               grammar_text_style_check              (const char            *style,
                                                              GError               **error);
const char            *grammar_text_style_get_summary        (const char            *style);
const char            *grammar_text_style_get_criteria       (const char            *style);
guint                  grammar_text_count_words              (const char            *text);

G_END_DECLS
