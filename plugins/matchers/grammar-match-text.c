/* grammar-match-text.c: a response or a value, ready to be compared
 *
 * The tokens of a text (grammar-match-tokens.c) with its aliases
 * replaced (grammar-aliases.c) and, for a response, which tokens lie in
 * a refusal (grammar-refusal.c). Searching compares whole tokens, so a
 * value is found only on word boundaries: "US" is not in "business".
 * The dates of the text are kept beside its tokens, so that a full date
 * can also be looked for at a coarser precision ("June 2024").
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-match-text.h"
#include "grammar-match-tokens.h"

#define REFUSAL_EXCERPT_CHARS 80

struct _GrammarMatchText
{
  char *base;
  GArray *tokens;        /* GrammarMatchToken */
  GArray *dates;         /* GrammarMatchDate, full and coarser */
  gboolean *refused;     /* per token */
  gboolean *masked;      /* per token: inside a name the query asks about */
  gboolean has_refusal;
  gsize refusal_start;   /* where the first refusal clause starts, in base */
};

static void
mark_refusals (GrammarMatchText *self,
               GrammarRefusal   *refusal)
{
  g_autoptr (GArray) clauses = grammar_refusal_split (refusal, self->base);

  for (guint i = 0; i < clauses->len && !self->has_refusal; i++)
    {
      GrammarClause *clause = &g_array_index (clauses, GrammarClause, i);

      if (clause->kind == GRAMMAR_CLAUSE_REFUSAL)
        {
          self->has_refusal = TRUE;
          self->refusal_start = clause->start;
        }
    }
  /* Tokens and clauses are both in text order: one walk. A guess only
   * counts against the response when it also refuses. */
  for (guint i = 0, c = 0; i < self->tokens->len; i++)
    {
      gsize start = g_array_index (self->tokens, GrammarMatchToken, i).start;
      GrammarClauseKind kind;

      while (c < clauses->len && g_array_index (clauses, GrammarClause, c).end <= start)
        c++;
      kind = c < clauses->len && g_array_index (clauses, GrammarClause, c).start <= start
               ? g_array_index (clauses, GrammarClause, c).kind : GRAMMAR_CLAUSE_ANSWER;
      self->refused[i] = kind == GRAMMAR_CLAUSE_REFUSAL || (kind == GRAMMAR_CLAUSE_HEDGE && self->has_refusal);
    }
}

/**
 * grammar_match_text_new:
 * @text: a response or the text of a value
 * @options: the rules
 *
 * Returns: (transfer full): @text cut into tokens
 */
GrammarMatchText *
grammar_match_text_new (const char                *text,
                        const GrammarMatchOptions *options)
{
  GrammarMatchText *self = g_new0 (GrammarMatchText, 1);
  g_autoptr (GArray) tokens = NULL;

  self->base = grammar_match_base (text);
  tokens = grammar_match_tokenize (self->base, options->day_first, &self->dates);
  self->tokens = options->aliases != NULL ? grammar_aliases_apply (options->aliases, tokens)
                                          : g_array_ref (tokens);
  self->refused = g_new0 (gboolean, self->tokens->len + 1);
  self->masked = g_new0 (gboolean, self->tokens->len + 1);
  if (options->refusal != NULL)
    mark_refusals (self, options->refusal);
  return self;
}

void
grammar_match_text_free (GrammarMatchText *self)
{
  if (self == NULL)
    return;
  g_free (self->base);
  g_array_unref (self->tokens);
  g_array_unref (self->dates);
  g_free (self->refused);
  g_free (self->masked);
  g_free (self);
}

guint
grammar_match_text_get_length (GrammarMatchText *self)
{
  return self->tokens->len;
}

const char *
grammar_match_text_get_token (GrammarMatchText *self,
                              guint             i)
{
  return g_array_index (self->tokens, GrammarMatchToken, i).text;
}

gboolean
grammar_match_text_is_refused (GrammarMatchText *self,
                               guint             i)
{
  return self->refused[i];
}

gboolean
grammar_match_text_has_refusal (GrammarMatchText *self)
{
  return self->has_refusal;
}

/**
 * grammar_match_text_dup_refusal:
 * @self: a response
 *
 * Returns: (transfer full) (nullable): the response from its first
 *   refusal clause on, spaces collapsed, cut after about 80 characters;
 *   %NULL when it does not refuse
 */
char *
grammar_match_text_dup_refusal (GrammarMatchText *self)
{
  g_auto (GStrv) words = NULL;
  GString *text;
  const char *cut;

  if (!self->has_refusal)
    return NULL;
  words = g_strsplit_set (self->base + self->refusal_start, " \t\n\r", -1);
  text = g_string_new (NULL);
  for (guint i = 0; words[i] != NULL && g_utf8_strlen (text->str, -1) <= REFUSAL_EXCERPT_CHARS; i++)
    if (words[i][0] != '\0')
      g_string_append_printf (text, "%s%s", text->len > 0 ? " " : "", words[i]);
  if (g_utf8_strlen (text->str, -1) > REFUSAL_EXCERPT_CHARS)
    {
      cut = g_utf8_offset_to_pointer (text->str, REFUSAL_EXCERPT_CHARS);
      g_string_truncate (text, cut - text->str);
      g_string_append (text, "…");
    }
  return g_string_free (text, FALSE);
}

/**
 * grammar_match_text_equal_at:
 * @self: a text
 * @at: a token position of @self
 * @other: another text
 *
 * Returns: whether the tokens of @other occur in @self at @at
 */
gboolean
grammar_match_text_equal_at (GrammarMatchText *self,
                             guint             at,
                             GrammarMatchText *other)
{
  if (at + other->tokens->len > self->tokens->len)
    return FALSE;
  for (guint k = 0; k < other->tokens->len; k++)
    if (!g_str_equal (grammar_match_text_get_token (self, at + k), grammar_match_text_get_token (other, k)))
      return FALSE;
  return TRUE;
}

/**
 * grammar_match_text_find:
 * @self: the text searched
 * @needle: the text sought, at least one token
 * @from: the first token position to try
 * @skip_refused: also ignore occurrences that touch a refused token
 *
 * Occurrences that touch a masked token (grammar_match_text_mask_names()) are
 * always ignored.
 *
 * Returns: the token position of the first occurrence, or -1
 */
gssize
grammar_match_text_find (GrammarMatchText *self,
                         GrammarMatchText *needle,
                         guint             from,
                         gboolean          skip_refused)
{
  guint n = needle->tokens->len;

  if (n == 0)
    return -1;
  for (guint at = from; at + n <= self->tokens->len; at++)
    {
      gboolean refused = FALSE;

      if (!grammar_match_text_equal_at (self, at, needle))
        continue;
      for (guint k = 0; k < n; k++)
        refused = refused || grammar_match_text_is_excluded (self, at + k, skip_refused);
      if (!refused)
        return (gssize) at;
    }
  return -1;
}

/**
 * grammar_match_text_contains_symbols:
 * @self: the text searched
 * @needle: a text without any token, such as "—" or "?"
 *
 * A value made of symbols only has no token to look for: it is found
 * when its text, spaces trimmed and case folded, is in @self.
 *
 * Returns: whether @needle's text is in @self's
 */
gboolean
grammar_match_text_contains_symbols (GrammarMatchText *self,
                                     GrammarMatchText *needle)
{
  g_autofree char *haystack = g_utf8_casefold (self->base, -1);
  g_autofree char *copy = g_strstrip (g_strdup (needle->base));
  g_autofree char *sought = g_utf8_casefold (copy, -1);

  return sought[0] != '\0' && strstr (haystack, sought) != NULL;
}

/* A span of token positions, @start to @end - 1. */
typedef struct
{
  guint start;
  guint end;
} Span;

/* Whether tokens @start to @end - 1 of @self are written as one word: at
 * least two tokens with no space between them ("margit.halvorsen",
 * "northgate-rail", "KR/2019/004"), as user names, codes, emails and URLs
 * are, where a name is written with spaces ("Margit Halvorsen"). */
static gboolean
written_as_one_word (GrammarMatchText *self,
                     guint             start,
                     guint             end)
{
  gsize from, to;

  if (end < start + 2)
    return FALSE;
  /* the tokens of an alias's name all cover the alias ("U.S.A." is
   * "united" "states"): not words of their own */
  for (guint i = start + 1; i < end; i++)
    if (g_array_index (self->tokens, GrammarMatchToken, i).start <
        g_array_index (self->tokens, GrammarMatchToken, i - 1).end)
      return FALSE;
  from = g_array_index (self->tokens, GrammarMatchToken, start).start;
  to = g_array_index (self->tokens, GrammarMatchToken, end - 1).end;
  for (const char *p = self->base + from; p < self->base + to; p = g_utf8_next_char (p))
    if (g_unichar_isspace (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

/* Every occurrence of @value in @self, masks and refusals ignored. */
static GArray *
find_spans (GrammarMatchText *self,
            GrammarMatchText *value)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (Span));
  guint n = value->tokens->len;

  for (guint at = 0; n > 0 && at + n <= self->tokens->len; at++)
    if (grammar_match_text_equal_at (self, at, value))
      g_array_append_val (spans, ((Span) { at, at + n }));
  return spans;
}

/* Whether an occurrence of the value overlaps @name and extends beyond
 * it: the name is then a part of the value ("margit halvorsen" of
 * "margit.halvorsen@kestrelridge.example", "Margit Halvorsen" of "Margit
 * Halvorsen Foundation"). An occurrence of the value that lies wholly
 * inside the name does not count: it is the name. */
static gboolean
inside_value (GArray     *occurrences,
              const Span *name)
{
  for (guint i = 0; i < occurrences->len; i++)
    {
      const Span *value = &g_array_index (occurrences, Span, i);

      if (value->start < name->end && value->end > name->start &&
          (value->start < name->start || value->end > name->end))
        return TRUE;
    }
  return FALSE;
}

/**
 * grammar_match_text_mask_names:
 * @self: a response
 * @names: (element-type GrammarMatchText): the names the query asks about
 * @value: the value about to be looked for
 *
 * Masks, in place of what was masked before, the occurrences of @names in
 * @self that are the names and not @value: @value found only inside them
 * does not count (grammar_match_text_find(), grammar_match_text_find_date()).
 * The occurrences of @value are found first, and masking never removes
 * text that belongs to one of them:
 *
 * - an occurrence of a name that an occurrence of @value overlaps and
 *   extends beyond (an email, URL, user name or code made from the name,
 *   "Margit Halvorsen Foundation") is not masked. An email or a URL has
 *   no space in it and is cut into consecutive tokens ("margit"
 *   "halvorsen" "kestrelridge" "example"), so the occurrence of a value
 *   that is one covers it whole;
 * - an occurrence of @value that lies wholly inside an occurrence of a
 *   name is the name: asked about 'United States Steel', "United States
 *   Steel is in Pittsburgh" does not hold "United States", nor does
 *   "procurement@northgate-rail.example" hold "Northgate" when the query
 *   asks about 'Northgate Rail';
 * - a name whose tokens are those of @value is masked only where it is
 *   written as the name is and @value is not: as one word (no space
 *   between its tokens: "margit.halvorsen") or with spaces ("Margit
 *   Halvorsen"). Written alike, the two cannot be told apart, and the
 *   name is not masked.
 *
 * Each value is looked for with its own masks: a name inside an email
 * that is one value is still a name for another value ("Margit" is not
 * found in "margit.halvorsen@kestrelridge.example" when the query asks
 * about 'Margit Halvorsen').
 */
void
grammar_match_text_mask_names (GrammarMatchText *self,
                               GPtrArray        *names,
                               GrammarMatchText *value)
{
  g_autoptr (GArray) occurrences = find_spans (self, value);
  guint length = value->tokens->len;
  gboolean value_one_word = written_as_one_word (value, 0, length);

  memset (self->masked, 0, (self->tokens->len + 1) * sizeof (gboolean));
  for (guint i = 0; i < names->len; i++)
    {
      GrammarMatchText *name = g_ptr_array_index (names, i);
      guint n = name->tokens->len;
      gboolean one_word = written_as_one_word (name, 0, n);
      gboolean same = n == length && grammar_match_text_equal_at (value, 0, name);

      if (same && value_one_word == one_word)
        continue;
      for (guint at = 0; n > 0 && at + n <= self->tokens->len; at++)
        {
          Span span = { at, at + n };

          if (!grammar_match_text_equal_at (self, at, name) ||
              (same && written_as_one_word (self, at, at + n) != one_word) ||
              inside_value (occurrences, &span))
            continue;
          for (guint k = at; k < at + n; k++)
            self->masked[k] = TRUE;
        }
    }
}

/* Whether a token that overlaps @start–@end of the base text is masked,
 * or refused when @skip_refused. Aliases keep the offsets of what they
 * replace, so offsets, not positions, tie a date to its tokens. */
static gboolean
span_is_excluded (GrammarMatchText *self,
                  gsize             start,
                  gsize             end,
                  gboolean          skip_refused)
{
  for (guint i = 0; i < self->tokens->len; i++)
    {
      GrammarMatchToken *token = &g_array_index (self->tokens, GrammarMatchToken, i);

      if (token->start < end && token->end > start && grammar_match_text_is_excluded (self, i, skip_refused))
        return TRUE;
    }
  return FALSE;
}

/**
 * grammar_match_text_get_full_date:
 * @self: a value
 *
 * Returns: (nullable): the date @self is, when it is a full date and
 *   nothing else ("2024-06-15", "June 15, 2024", "2024-06-15 00:00:00");
 *   otherwise %NULL
 */
const GrammarMatchDate *
grammar_match_text_get_full_date (GrammarMatchText *self)
{
  const GrammarMatchDate *date;

  if (self->dates->len != 1 || self->tokens->len != 3)
    return NULL;
  date = &g_array_index (self->dates, GrammarMatchDate, 0);
  if (date->precision != GRAMMAR_DATE_PRECISION_DAY)
    return NULL;
  for (guint i = 0; i < self->tokens->len; i++)
    {
      GrammarMatchToken *token = &g_array_index (self->tokens, GrammarMatchToken, i);

      if (token->start < date->start || token->end > date->end)
        return NULL;
    }
  return date;
}

/**
 * grammar_match_text_find_date:
 * @self: the text searched
 * @day: a full date
 * @coarsest: the coarsest precision accepted
 * @hemisphere: where seasons are named
 * @skip_refused: also ignore dates that touch a refused token
 *
 * Looks for a date of @self written at a coarser precision than a day
 * that @coarsest accepts (grammar_date_precision_accepts()) and that
 * contains @day. Dates that touch a masked token are always ignored.
 * Full dates are never returned: a day is found by its tokens
 * (grammar_match_text_find()).
 *
 * Returns: (nullable): the finest such date (the first of them), or
 *   %NULL
 */
const GrammarMatchDate *
grammar_match_text_find_date (GrammarMatchText       *self,
                              const GrammarMatchDate *day,
                              GrammarDatePrecision    coarsest,
                              GrammarHemisphere       hemisphere,
                              gboolean                skip_refused)
{
  const GrammarMatchDate *best = NULL;

  for (guint i = 0; i < self->dates->len; i++)
    {
      const GrammarMatchDate *date = &g_array_index (self->dates, GrammarMatchDate, i);

      if (date->precision == GRAMMAR_DATE_PRECISION_DAY ||
          !grammar_date_precision_accepts (coarsest, date->precision) ||
          (best != NULL && best->precision <= date->precision) ||
          !grammar_match_date_contains (date, day, hemisphere) ||
          span_is_excluded (self, date->start, date->end, skip_refused))
        continue;
      best = date;
    }
  return best;
}

/**
 * grammar_match_text_dup_date_text:
 * @self: a text
 * @date: one of its dates
 *
 * Returns: (transfer full): how @date is written in @self (without
 *   diacritics, like every base text)
 */
char *
grammar_match_text_dup_date_text (GrammarMatchText       *self,
                                  const GrammarMatchDate *date)
{
  return g_strndup (self->base + date->start, date->end - date->start);
}

/**
 * grammar_match_text_get_base:
 * @self: a text
 *
 * Returns: its base text (grammar_match_base()), which token spans index
 */
const char *
grammar_match_text_get_base (GrammarMatchText *self)
{
  return self->base;
}

/**
 * grammar_match_text_get_span:
 * @self: a text
 * @i: a token position
 * @start: (out): where token @i starts in the base text
 * @end: (out): where it ends
 */
void
grammar_match_text_get_span (GrammarMatchText *self,
                             guint             i,
                             gsize            *start,
                             gsize            *end)
{
  GrammarMatchToken *token = &g_array_index (self->tokens, GrammarMatchToken, i);

  *start = token->start;
  *end = token->end;
}

/**
 * grammar_match_text_is_excluded:
 * @self: a response
 * @i: a token position
 * @skip_refused: also exclude refused tokens
 *
 * Returns: whether token @i is masked (inside a name the query asks
 *   about), or refused when @skip_refused: no value is read from it
 */
gboolean
grammar_match_text_is_excluded (GrammarMatchText *self,
                                guint             i,
                                gboolean          skip_refused)
{
  return self->masked[i] || (skip_refused && self->refused[i]);
}
