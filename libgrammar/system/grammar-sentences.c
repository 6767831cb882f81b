/* grammar-sentences.c: cutting a text into sentences
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-document.h"

/* Words that end in a `.` that usually does not end the sentence. */
static const char * const abbreviations[] = {
  "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "inc", "ltd", "co", "corp", "no",
  "nos", "approx", "dept", "fig", "vol", "al", "cf", "ca", "gen", "gov", "rev", "lt", "col", "capt",
  "sgt", "ave", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
};

static gboolean
is_closer (gunichar c)
{
  return c == '"' || c == '\'' || c == ')' || c == ']' || c == 0x201D || c == 0x2019 || c == 0x00BB ||
         c == '.' || c == '!' || c == '?';
}

static gboolean
is_opener (gunichar c)
{
  return c == '"' || c == '\'' || c == '(' || c == '[' || c == 0x201C || c == 0x2018 || c == 0x00AB;
}

/* The `.` at @dot ends the word that starts after the last space before
 * it (not before @start): is that word an abbreviation? */
static gboolean
is_abbreviation (const char *start,
                 const char *dot)
{
  const char *word = dot;
  g_autofree char *text = NULL;

  while (word > start && word[-1] != ' ')
    word--;
  while (word < dot && is_opener (g_utf8_get_char (word)))
    word = g_utf8_next_char (word);
  if (word == dot)
    return FALSE;
  text = g_strndup (word, dot - word);
  if (strchr (text, '.') != NULL)
    return TRUE;
  if (g_utf8_strlen (text, -1) == 1 && g_unichar_isalpha (g_utf8_get_char (text)))
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (abbreviations); i++)
    if (g_ascii_strcasecmp (text, abbreviations[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Whether the word after the space at @p starts with a lower-case letter. */
static gboolean
next_is_lower (const char *p)
{
  return *p == ' ' && g_unichar_islower (g_utf8_get_char (p + 1));
}

static void
add_sentence (GPtrArray  *sentences,
              const char *start,
              const char *end)
{
  while (start < end && *start == ' ')
    start++;
  while (end > start && end[-1] == ' ')
    end--;
  if (end > start)
    g_ptr_array_add (sentences, g_strndup (start, end - start));
}

/* Whether the terminal punctuation at @p ends a sentence; @end is set to
 * where the sentence ends (after any closing marks). */
static gboolean
ends_sentence (const char  *start,
               const char  *p,
               const char **end)
{
  gunichar c = g_utf8_get_char (p);
  const char *after = g_utf8_next_char (p);

  /* CJK full stops need no space after them. */
  if (c == 0x3002 || c == 0xFF01 || c == 0xFF1F)
    {
      *end = after;
      return TRUE;
    }
  if (c != '.' && c != '!' && c != '?')
    return FALSE;
  while (*after != '\0' && is_closer (g_utf8_get_char (after)))
    after = g_utf8_next_char (after);
  if (*after != '\0' && *after != ' ')
    return FALSE;
  if (next_is_lower (after) || (c == '.' && is_abbreviation (start, p)))
    return FALSE;
  *end = after;
  return TRUE;
}

/* @paragraph has its white space collapsed to single spaces. */
static void
split_paragraph (const char *paragraph,
                 GPtrArray  *sentences)
{
  const char *start = paragraph;
  const char *p = paragraph;

  while (*p != '\0')
    {
      const char *end;

      if (ends_sentence (start, p, &end))
        {
          add_sentence (sentences, start, end);
          start = p = end;
        }
      else
        p = g_utf8_next_char (p);
    }
  add_sentence (sentences, start, p);
}

static gboolean
is_blank_line (const char *line)
{
  for (const char *p = line; *p != '\0'; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

/* Appends @line to @paragraph, every run of white space as one space. */
static void
append_collapsed (GString    *paragraph,
                  const char *line)
{
  for (const char *p = line; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_unichar_isspace (c))
        g_string_append_unichar (paragraph, c);
      else if (paragraph->len > 0 && paragraph->str[paragraph->len - 1] != ' ')
        g_string_append_c (paragraph, ' ');
    }
  if (paragraph->len > 0 && paragraph->str[paragraph->len - 1] != ' ')
    g_string_append_c (paragraph, ' ');
}

/**
 * grammar_document_split_sentences:
 * @text: a text
 *
 * Cuts @text into sentences, as the extractive reader and the metrics
 * that judge a response sentence by sentence do. The text is cut into
 * paragraphs at blank lines, and a paragraph into sentences after `.`,
 * `!` or `?` (with any closing quotes or brackets and further `.!?`
 * right after it) that is followed by a space or the end of the
 * paragraph, except where the next word starts with a lower-case
 * letter, or where a `.` ends an abbreviation: a word holding another
 * `.` (“U.S.”, “e.g.”), a single letter (“J.”), or one of a short list
 * (“Mr.”, “Dr.”, “Inc.”, “No.”, “Jan.”…). A `.` inside a number
 * (“433.5”) is not followed by a space and never ends one; `。`, `！` and
 * `？` always do. White space in a sentence is collapsed to single spaces.
 *
 * Returns: (transfer full) (array zero-terminated=1): the sentences, in
 *   text order; empty for a text of white space
 */
char **
grammar_document_split_sentences (const char *text)
{
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) paragraph = g_string_new (NULL);
  GPtrArray *sentences = g_ptr_array_new ();

  g_return_val_if_fail (text != NULL, NULL);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (!is_blank_line (lines[i]))
        {
          append_collapsed (paragraph, lines[i]);
          continue;
        }
      split_paragraph (paragraph->str, sentences);
      g_string_truncate (paragraph, 0);
    }
  split_paragraph (paragraph->str, sentences);
  g_ptr_array_add (sentences, NULL);
  return (char **) g_ptr_array_free (sentences, FALSE);
}
