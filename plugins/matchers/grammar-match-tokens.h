/* grammar-match-tokens.h: text cut into normalised words, numbers and dates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

#include "grammar-match-date.h"

G_BEGIN_DECLS

/* What a token was in the text it came from. */
typedef enum
{
  GRAMMAR_MATCH_TOKEN_UPPER  = 1 << 0,   /* its letters were all capitals: "US", "U" of "U.S." */
  GRAMMAR_MATCH_TOKEN_NUMBER = 1 << 1,   /* a number in canonical form, or a part of a date */
} GrammarMatchTokenFlags;

typedef struct
{
  char *text;      /* the canonical form: case-folded, stemmed, or a canonical number */
  gsize start;     /* bytes of the base text (grammar_match_base()) it covers */
  gsize end;
  guint flags;     /* GrammarMatchTokenFlags */
} GrammarMatchToken;

char   *grammar_match_base       (const char *text);
GArray *grammar_match_tokenize   (const char  *base,
                                  gboolean     day_first,
                                  GArray     **dates);
GArray *grammar_match_tokens_new (void);
void    grammar_match_token_clear (GrammarMatchToken *token);

G_END_DECLS
