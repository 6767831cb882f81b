/* grammar-text-style.c: the text styles of the papers: names, summaries and criteria
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include "grammar-rule-verbalizer-private.h"
#include "grammar-error.h"
#include "grammar-text-style.h"
#include "grammar-sql-lexer-private.h"

/* Text styles */

/* The criteria of short and long are the paper's (ACL version, Table 6);
 * the other four are written in the same manner. */
static const GrammarRulesStyleInfo style_infos[] = {
  { "short", "concise fragments, few words, no articles",
    "Short and Clear: Keep your queries short and straightforward. Cut down on words and skip "
    "parts of speech, such as conjunctions and articles. It's okay to use fragmented phrases as "
    "long as they still convey the full meaning. Valid examples: \"client of '[Project.Name]'\" or "
    "\"client for '[Project.Name]'\"; Invalid Examples: \"Find the client of a project named "
    "'[Project.Name]'.\"" },
  { "long", "complete, complex sentences with context, at least 30 words",
    "Complex Sentence Structure: Ensure your queries are always in complete sentences. Opt for "
    "longer, more complex sentence structures, incorporating elements of speech like conjunctions "
    "and articles for fuller expression. Each query should be at least 30 words long. You can add "
    "context and background information to the query." },
  { "interrogative", "a direct question ending with a question mark",
    "Question Form: Phrase every query as a direct question in a complete sentence that ends with "
    "a question mark. Valid examples: \"What is the client of the project named '[Project.Name]'?\" "
    "or \"Which client is the project '[Project.Name]' for?\"; Invalid Examples: \"Find the client "
    "of the project named '[Project.Name]'.\" or \"client of '[Project.Name]'\"" },
  { "directive", "an imperative instruction",
    "Imperative Form: Phrase every query as an instruction in the imperative mood that starts with "
    "a verb such as find, show, give, tell or look up, and ends with a period, not a question mark. "
    "Valid examples: \"Find the client of the project named '[Project.Name]'.\" or \"Tell me who "
    "the client of '[Project.Name]' is.\"; Invalid Examples: \"What is the client of the project "
    "named '[Project.Name]'?\"" },
  { "formal", "polite, formal register without contractions",
    "Formal Register: Use polite, formal and precise language in complete sentences, as in a "
    "professional letter. Do not use contractions, slang or abbreviations. Valid examples: "
    "\"Kindly state the client of the project named '[Project.Name]'.\" or \"I would be grateful if "
    "you could indicate the client of the project '[Project.Name]'.\"; Invalid Examples: \"who's "
    "the client on '[Project.Name]'?\"" },
  { "casual", "informal chat: contractions, relaxed tone",
    "Casual Register: Write the way people chat informally with a colleague: contractions, "
    "everyday words, a relaxed tone; lowercase and fragments are fine as long as the meaning stays "
    "complete. Valid examples: \"hey, who's the client on '[Project.Name]'?\" or \"so which client "
    "is '[Project.Name]' for?\"; Invalid Examples: \"Kindly state the client of the project named "
    "'[Project.Name]'.\"" },
};

static const char * const style_names[] = {
  "short", "long", "interrogative", "directive", "formal", "casual", NULL
};

static const GrammarRulesStyleInfo *
lookup_style (const char *style)
{
  if (style == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (style_infos); i++)
    if (g_str_equal (style_infos[i].name, style))
      return &style_infos[i];
  return NULL;
}

/**
 * grammar_text_style_list:
 *
 * The text styles the verbalizers know: `short`, `long`,
 * `interrogative`, `directive`, `formal` and `casual`.
 *
 * Returns: (transfer none) (array zero-terminated=1): the style names
 */
const char * const *
grammar_text_style_list (void)
{
  return style_names;
}

/**
 * grammar_text_style_check:
 * @style: (nullable): a style name
 * @error: return location for a #GError
 *
 * Checks that @style is one of grammar_text_style_list().
 *
 * Returns: %TRUE when it is; otherwise %FALSE with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error that lists the styles
 */
gboolean
grammar_text_style_check (const char  *style,
                          GError     **error)
{
  g_autofree char *known = NULL;

  if (lookup_style (style) != NULL)
    return TRUE;
  known = g_strjoinv (", ", (GStrv) style_names);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "unknown text style “%s”; the styles are %s", style != NULL ? style : "", known);
  return FALSE;
}

/**
 * grammar_text_style_get_summary:
 * @style: a style name
 *
 * Returns: (nullable): a few words that describe @style, or %NULL for an unknown style
 */
const char *
grammar_text_style_get_summary (const char *style)
{
  const GrammarRulesStyleInfo *info = lookup_style (style);

  return info != NULL ? info->summary : NULL;
}

/**
 * grammar_text_style_get_criteria:
 * @style: a style name
 *
 * The linguistic criterion of @style as a language model is given it
 * (the paper's C_t): for `short` and `long` the paper's own words.
 *
 * Returns: (nullable): the criterion, or %NULL for an unknown style
 */
const char *
grammar_text_style_get_criteria (const char *style)
{
  const GrammarRulesStyleInfo *info = lookup_style (style);

  return info != NULL ? info->criteria : NULL;
}

/**
 * grammar_text_count_words:
 * @text: UTF-8 text
 *
 * Counts the whitespace-separated words of @text, as the `long` style's
 * criterion of at least 30 words counts them.
 *
 * Returns: the number of words
 */
guint
grammar_text_count_words (const char *text)
{
  guint n = 0;
  gboolean in_word = FALSE;

  g_return_val_if_fail (text != NULL, 0);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gboolean space = g_unichar_isspace (g_utf8_get_char (p));

      if (!space && !in_word)
        n++;
      in_word = !space;
    }
  return n;
}
