/* grammar-aliases.h: sets of names that mean the same thing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

typedef struct _GrammarAliases GrammarAliases;

GrammarAliases *grammar_aliases_new        (gboolean        builtin);
void            grammar_aliases_free       (GrammarAliases *self);
gboolean        grammar_aliases_add_set    (GrammarAliases *self,
                                            const char     *line,
                                            GError        **error);
gboolean        grammar_aliases_load_file  (GrammarAliases *self,
                                            const char     *path,
                                            GError        **error);
guint           grammar_aliases_get_n_sets (GrammarAliases *self);
GArray         *grammar_aliases_apply      (GrammarAliases *self,
                                            GArray         *tokens);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarAliases, grammar_aliases_free)

G_END_DECLS
