/* grammar-refusal.c: the clauses of a response that refuse or guess
 *
 * A response is cut into clauses: at the end of a sentence (".", "!" or
 * "?" before a space, except after an initial such as the "S" of "U.S."
 * or a common abbreviation), at a line break or ";", and before a word
 * of contrast ("but", "however", "although", "though", "whereas",
 * "nevertheless", "nonetheless"). A clause is
 *
 * - a refusal when it says the answer is not known, not found or not
 *   given: an apology ("I'm sorry", "unfortunately"), "as an AI", "I
 *   couldn't find", "cannot determine", "the text does not mention", "no
 *   information", "not provided / specified / available / known", "there
 *   is no", "unknown", "I don't know", "need more context", "could you
 *   clarify";
 * - a hedge when it guesses: "it's possible that", "possibly",
 *   "probably", "likely", "suggests", "may be", "might be", "appears to",
 *   "looks like", "usually", "typically";
 *   or advises where to look instead: "it would be best to", "it is
 *   recommended", "I suggest", "you can try", "refer to the official…";
 * - otherwise an answer.
 *
 * The matchers never count a value found in a refusal clause, nor in a
 * hedge clause of a response that also refuses: "I couldn't find
 * Greenfield Bank; it may not be a major player in the banking industry"
 * does not contain "Banking". A response that refuses and then answers
 * ("I don't have access to the database. However, the text says the
 * headquarters are in the United Kingdom.") keeps its answer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-refusal.h"

struct _GrammarRefusal
{
  GRegex *contrast;
  GRegex *refusal;
  GRegex *hedge;
};

#define NEGATION "(?:could\\s+not|couldn't|cannot|can't|can\\s+not|unable\\s+to|not\\s+able\\s+to|" \
                 "impossible\\s+to|not\\s+possible\\s+to|was\\s+not\\s+able\\s+to|wasn't\\s+able\\s+to)"
#define DO_NOT "(?:does\\s+not|doesn't|do\\s+not|don't|did\\s+not|didn't)"

static const char refusal_pattern[] =
  "\\b(?:sorry|apologi[sz]e|apologies|unfortunately|regrettably)\\b"
  "|\\bas\\s+an\\s+ai\\b"
  "|\\b(?:i|we)\\s+(?:do\\s+not|don't|did\\s+not|didn't|cannot|can't|can\\s+not|could\\s+not|couldn't|"
  "am\\s+unable|was\\s+unable|am\\s+not\\s+able|was\\s+not\\s+able|have\\s+no|had\\s+no|lack)\\b"
  "|\\b" NEGATION "\\s+(?:find|locate|determine|identify|provide|access|answer|retrieve|confirm|verify|"
  "tell|say|know|see|give|obtain|ascertain|extract|establish)\\b"
  "|\\b" DO_NOT "\\s+(?:(?:explicitly|specifically|directly|clearly|actually|expressly)\\s+)?(?:mention|specify|state|say|contain|include|provide|indicate|list|reveal|disclose|"
  "give|know|exist)\\b"
  "|\\b" DO_NOT "\\s+have\\s+(?:any|the|access|enough|sufficient|specific|real-time|information|data|"
  "details|knowledge|records)\\b"
  "|\\bno\\s+(?:(?:specific|relevant|available|such|further|additional|direct|explicit|clear|other|"
  "particular|mention\\s+of\\s+any)\\s+)?(?:mention|information|info|data|details|record|records|"
  "reference|evidence|indication|knowledge|answer)\\b"
  "|(?:\\bnot|n't|\\bnever)\\s+(?:been\\s+)?(?:(?:explicitly|specifically|directly|clearly|publicly|readily|"
  "expressly)\\s+)?(?:mentioned|specified|provided|stated|given|available|disclosed|indicated|identified|"
  "found|known|clear|sure|certain|documented|described|recorded)\\b"
  "|\\bthere\\s+(?:is|are|was|were)\\s+no\\b"
  "|\\b(?:unknown|unclear|unspecified|unavailable|undisclosed|undetermined)\\b"
  "|\\b(?:need|needs|require|requires)\\s+(?:more|additional|further)\\s+(?:context|information|details)\\b"
  "|\\b(?:could|can|would)\\s+you\\s+(?:please\\s+)?(?:provide|clarify|specify)\\b";

static const char hedge_pattern[] =
  "\\bit(?:'s|\\s+is)\\s+possible\\s+that\\b"
  "|\\b(?:possibly|probably|presumably|perhaps|likely|suggests?|suggesting|speculat\\w*|assum(?:e|ing))\\b"
  "|\\b(?:may|might|could)\\s+(?:be|have|potentially)\\b"
  "|\\b(?:seems?|appears?)\\s+to\\b"
  /* What things are usually like: no answer about this one. */
  "|\\b(?:looks?|sounds?)\\s+like\\b|\\b(?:usually|typically)\\b"
  /* Advice on where to look: no answer either. */
  "|\\b(?:it\\s+(?:would|might|may)\\s+be\\s+(?:best|advisable|helpful)|it\\s+is\\s+(?:recommended|advisable|best)|"
  "i\\s+(?:would\\s+)?(?:recommend|suggest|advise)|you\\s+(?:can|could|may|might|should)\\s+(?:try|check|visit|"
  "contact|refer|search|consult|look)|(?:refer|consult)\\s+(?:to\\s+)?(?:the\\s+)?(?:official|reliable|other|"
  "relevant))\\b";

static const char contrast_pattern[] =
  "\\b(?:but|however|although|though|whereas|nevertheless|nonetheless)\\b";

/* Words whose full stop ends no sentence. */
static const char * const abbreviations[] = {
  "mr", "mrs", "ms", "dr", "st", "jr", "sr", "inc", "ltd", "co", "corp", "vs", "etc", "no", "mt", "ft",
  "approx", "dept", "est", "prof", "gen", "gov", "univ",
};

/**
 * grammar_refusal_new:
 *
 * Returns: (transfer full): a refusal detector; its patterns are
 *   compiled once and used from any thread
 */
GrammarRefusal *
grammar_refusal_new (void)
{
  GrammarRefusal *self = g_new0 (GrammarRefusal, 1);
  const GRegexCompileFlags flags = G_REGEX_CASELESS | G_REGEX_OPTIMIZE;

  self->contrast = g_regex_new (contrast_pattern, flags, 0, NULL);
  self->refusal = g_regex_new (refusal_pattern, flags, 0, NULL);
  self->hedge = g_regex_new (hedge_pattern, flags, 0, NULL);
  g_assert (self->contrast != NULL && self->refusal != NULL && self->hedge != NULL);
  return self;
}

void
grammar_refusal_free (GrammarRefusal *self)
{
  if (self == NULL)
    return;
  g_regex_unref (self->contrast);
  g_regex_unref (self->refusal);
  g_regex_unref (self->hedge);
  g_free (self);
}

/* The word before the full stop at @dot is an initial ("U.S.") or an
 * abbreviation ("Dr."). */
static gboolean
ends_abbreviation (const char *base,
                   gsize       dot)
{
  gsize start = dot;
  g_autofree char *word = NULL;

  while (start > 0 && g_ascii_isalpha (base[start - 1]))
    start--;
  if (dot - start == 1)
    return TRUE;
  if (dot == start)
    return FALSE;
  word = g_ascii_strdown (base + start, (gssize) (dot - start));
  for (gsize i = 0; i < G_N_ELEMENTS (abbreviations); i++)
    if (g_str_equal (word, abbreviations[i]))
      return TRUE;
  return FALSE;
}

static gint
compare_offsets (gconstpointer a,
                 gconstpointer b)
{
  gsize x = *(const gsize *) a, y = *(const gsize *) b;

  return x < y ? -1 : x > y;
}

static GArray *
find_boundaries (GrammarRefusal *self,
                 const char     *base)
{
  GArray *bounds = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GMatchInfo) match = NULL;
  gsize length = strlen (base);
  gsize zero = 0;

  g_array_append_val (bounds, zero);
  for (gsize k = 0; k < length; k++)
    {
      char c = base[k];
      gsize next = k + 1;

      if (c == '\n' || c == ';')
        g_array_append_val (bounds, next);
      else if (c == '.' || c == '!' || c == '?')
        {
          while (base[next] == '"' || base[next] == '\'' || base[next] == ')' || base[next] == ']')
            next++;
          if ((base[next] == '\0' || g_ascii_isspace (base[next])) && (c != '.' || !ends_abbreviation (base, k)))
            g_array_append_val (bounds, next);
        }
    }
  g_regex_match (self->contrast, base, 0, &match);
  while (g_match_info_matches (match))
    {
      int start = 0;
      gsize offset;

      g_match_info_fetch_pos (match, 0, &start, NULL);
      offset = (gsize) start;
      g_array_append_val (bounds, offset);
      g_match_info_next (match, NULL);
    }
  g_array_append_val (bounds, length);
  g_array_sort (bounds, compare_offsets);
  return bounds;
}

static gboolean
matches_in (GRegex     *regex,
            const char *base,
            gsize       start,
            gsize       end)
{
  return g_regex_match_full (regex, base, (gssize) end, (int) start, 0, NULL, NULL);
}

/**
 * grammar_refusal_split:
 * @self: the detector
 * @base: a base text (grammar_match_base())
 *
 * Returns: (transfer full) (element-type GrammarClause): the clauses of
 *   @base in order, covering it, with their kinds
 */
GArray *
grammar_refusal_split (GrammarRefusal *self,
                       const char     *base)
{
  g_autoptr (GArray) bounds = find_boundaries (self, base);
  GArray *clauses = g_array_new (FALSE, FALSE, sizeof (GrammarClause));

  for (guint i = 0; i + 1 < bounds->len; i++)
    {
      GrammarClause clause = { g_array_index (bounds, gsize, i), g_array_index (bounds, gsize, i + 1),
                               GRAMMAR_CLAUSE_ANSWER };

      if (clause.end <= clause.start)
        continue;
      if (matches_in (self->refusal, base, clause.start, clause.end))
        clause.kind = GRAMMAR_CLAUSE_REFUSAL;
      else if (matches_in (self->hedge, base, clause.start, clause.end))
        clause.kind = GRAMMAR_CLAUSE_HEDGE;
      g_array_append_val (clauses, clause);
    }
  return clauses;
}

/**
 * grammar_refusal_is_refusal:
 * @self: the detector
 * @base: a base text (grammar_match_base())
 *
 * Returns: whether @base, taken as one clause, refuses or hedges: a true
 *   answer such as "Unknown" or "Not available" does, and then the
 *   responses that give it must not be taken for refusals
 */
gboolean
grammar_refusal_is_refusal (GrammarRefusal *self,
                            const char     *base)
{
  gsize length = strlen (base);

  return matches_in (self->refusal, base, 0, length) || matches_in (self->hedge, base, 0, length);
}
