/* grammar-text-matcher.h: the base of the deterministic matchers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

#include "grammar-match-text.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_TEXT_MATCHER (grammar_text_matcher_get_type ())
G_DECLARE_DERIVABLE_TYPE (GrammarTextMatcher, grammar_text_matcher, GRAMMAR, TEXT_MATCHER, GObject)

/* A record ready to be compared: the response and the values of the
 * true answer, cut into tokens by the same rules. */
typedef struct
{
  GrammarRecord *record;
  GrammarMatchText *response;
  GPtrArray *values;        /* char *: every non-null cell, row by row */
  GPtrArray *value_texts;   /* GrammarMatchText, one per value */
  GArray *row_starts;       /* guint: the index in values of each row's first cell, then values->len */
  gboolean refusals;        /* refusal detection is on */
  GPtrArray *query_names;   /* GrammarMatchText: the names the query asks about (quoted, or bound) */
} GrammarTextMatch;

struct _GrammarTextMatcherClass
{
  GObjectClass parent_class;

  const char *name;         /* the plugin name, written in every verdict */

  /* Judges a record whose response is not empty and whose answer has
   * at least one value. */
  GrammarVerdict * (*compare) (GrammarTextMatcher     *self,
                               const GrammarTextMatch *match);
};

GrammarVerdict *grammar_text_matcher_verdict  (GrammarTextMatcher *self,
                                               GrammarVerdictKind  kind,
                                               double              score,
                                               const char         *format,
                                               ...) G_GNUC_PRINTF (4, 5);
char           *grammar_text_matcher_quote    (const char         *value);
GrammarVerdict *grammar_text_matcher_check_record (GrammarRecord  *record,
                                               const char         *matcher,
                                               GPtrArray          *values,
                                               GArray             *row_starts);
void            grammar_text_matcher_register (GTypeModule        *module);

G_END_DECLS
