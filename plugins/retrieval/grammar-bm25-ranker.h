/* grammar-bm25-ranker.h: FTS5's bm25() ranking, computed in memory
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>
#include <sqlite3.h>

G_BEGIN_DECLS

typedef struct _GrammarBm25Ranker GrammarBm25Ranker;

/* One ranked document: its position in the corpus and -bm25(). */
typedef struct
{
  guint32 document;
  double score;
} GrammarBm25Ranked;

GrammarBm25Ranker *grammar_bm25_ranker_new              (GPtrArray          *documents,
                                                         gboolean            index_title);
void               grammar_bm25_ranker_free             (GrammarBm25Ranker  *self);
gboolean           grammar_bm25_ranker_matches_index    (GrammarBm25Ranker  *self,
                                                         sqlite3            *db,
                                                         char              **why);
gboolean           grammar_bm25_ranker_rank             (GrammarBm25Ranker  *self,
                                                         GPtrArray          *words,
                                                         guint               top_k,
                                                         GArray             *ranked);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarBm25Ranker, grammar_bm25_ranker_free)

G_END_DECLS
