/* grammar-py-import.h: reading the files of the Python GRAMMAR tool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include "grammar-template-set.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_py_import_templates (GrammarTemplateSet  *set,
                                      const char * const  *paths,
                                      const char          *style,
                                      GrammarDatabase     *database,
                                      GrammarSchema       *schema,
                                      GStrv               *problems,
                                      GError             **error);

GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_py_import_results   (const char * const  *paths,
                                      const char          *style,
                                      GPtrArray          **records,
                                      GError             **error);

G_END_DECLS
