/* grammar-openai-cache.h: responses kept in an SQLite file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _GrammarOpenaiCache GrammarOpenaiCache;

GrammarOpenaiCache *grammar_openai_cache_open   (const char          *path,
                                                 GError             **error);
void                grammar_openai_cache_close  (GrammarOpenaiCache  *cache);
char               *grammar_openai_cache_key    (const char          *model,
                                                 const char          *body);
char               *grammar_openai_cache_lookup (GrammarOpenaiCache  *cache,
                                                 const char          *key);
gboolean            grammar_openai_cache_store  (GrammarOpenaiCache  *cache,
                                                 const char          *key,
                                                 const char          *value,
                                                 GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarOpenaiCache, grammar_openai_cache_close)

G_END_DECLS
