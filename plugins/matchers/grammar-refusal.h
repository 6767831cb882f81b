/* grammar-refusal.h: the clauses of a response that refuse or guess
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

typedef enum
{
  GRAMMAR_CLAUSE_ANSWER,    /* states something */
  GRAMMAR_CLAUSE_REFUSAL,   /* says the answer is not known, found or given */
  GRAMMAR_CLAUSE_HEDGE,     /* a guess: "possibly", "suggests", "it's possible that" */
} GrammarClauseKind;

typedef struct
{
  gsize start;              /* bytes of the base text */
  gsize end;
  GrammarClauseKind kind;
} GrammarClause;

typedef struct _GrammarRefusal GrammarRefusal;

GrammarRefusal *grammar_refusal_new   (void);
void            grammar_refusal_free  (GrammarRefusal *self);
GArray         *grammar_refusal_split (GrammarRefusal *self,
                                       const char     *base);
gboolean        grammar_refusal_is_refusal (GrammarRefusal *self,
                                            const char     *base);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarRefusal, grammar_refusal_free)

G_END_DECLS
