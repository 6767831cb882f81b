/* grammar-match-text.h: a response or a value, ready to be compared
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

#include "grammar-aliases.h"
#include "grammar-match-date.h"
#include "grammar-refusal.h"

G_BEGIN_DECLS

/* The rules a matcher applies; the aliases and the refusal detector
 * belong to the matcher. */
typedef struct
{
  gboolean day_first;
  GrammarAliases *aliases;   /* NULL: none */
  GrammarRefusal *refusal;   /* NULL: no refusal detection */
} GrammarMatchOptions;

typedef struct _GrammarMatchText GrammarMatchText;

GrammarMatchText *grammar_match_text_new         (const char              *text,
                                                  const GrammarMatchOptions *options);
void              grammar_match_text_free        (GrammarMatchText        *self);
guint             grammar_match_text_get_length  (GrammarMatchText        *self);
const char       *grammar_match_text_get_token   (GrammarMatchText        *self,
                                                  guint                    i);
gboolean          grammar_match_text_is_refused  (GrammarMatchText        *self,
                                                  guint                    i);
gboolean          grammar_match_text_has_refusal (GrammarMatchText        *self);
char             *grammar_match_text_dup_refusal (GrammarMatchText        *self);
gssize            grammar_match_text_find        (GrammarMatchText        *self,
                                                  GrammarMatchText        *needle,
                                                  guint                    from,
                                                  gboolean                 skip_refused);
gboolean          grammar_match_text_contains_symbols (GrammarMatchText   *self,
                                                  GrammarMatchText        *needle);
void              grammar_match_text_mask_names  (GrammarMatchText        *self,
                                                  GPtrArray               *names,
                                                  GrammarMatchText        *value);
gboolean          grammar_match_text_equal_at    (GrammarMatchText        *self,
                                                  guint                    at,
                                                  GrammarMatchText        *other);
const GrammarMatchDate *grammar_match_text_get_full_date (GrammarMatchText *self);
const GrammarMatchDate *grammar_match_text_find_date   (GrammarMatchText       *self,
                                                        const GrammarMatchDate *day,
                                                        GrammarDatePrecision    coarsest,
                                                        GrammarHemisphere       hemisphere,
                                                        gboolean                skip_refused);
char             *grammar_match_text_dup_date_text (GrammarMatchText       *self,
                                                    const GrammarMatchDate *date);
const char       *grammar_match_text_get_base    (GrammarMatchText        *self);
void              grammar_match_text_get_span    (GrammarMatchText        *self,
                                                  guint                    i,
                                                  gsize                   *start,
                                                  gsize                   *end);
gboolean          grammar_match_text_is_excluded (GrammarMatchText        *self,
                                                  guint                    i,
                                                  gboolean                 skip_refused);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarMatchText, grammar_match_text_free)

G_END_DECLS
