/* grammar-match-answer.c: what the kind of an answer tells `contains`
 *
 * General rules that read a response the way its answer's kind asks,
 * the same for every column and dataset:
 *
 * - booleans: a true answer that is a truth value (true/false, and for
 *   a yes/no question also 1/0, Y/N, yes/no, t/f) is given by what the
 *   response says: its first "yes" or "no" (not, never, isn't, "out
 *   of" stock…) outside refusing clauses; a response that says neither
 *   and does not refuse affirms; "yes or no" says both;
 * - numbers: a value found in another common form: a fraction as a
 *   percentage (0.15 is "15%", "15 percent", "15 per cent"); a scale
 *   word (1250000 is "1.25 million", 64000 is "64k"); a value with three
 *   decimals or more rounded to fewer ("13.67" for 13.666…); a negative
 *   value as its absolute value after "minus", a loss or a fall ("lost
 *   15,230.50", "fell by 3") or before "below" ("430 m below sea level");
 * - candidates: a value that the response gives only as one of several
 *   alternatives ("either X or Y", "X, Y or Z", "between X and Y",
 *   "Candidates: X, Y") is no answer: the response hedges between it and
 *   others. An alternative that is itself another value of the answer
 *   ("write to A or B", both true) is no hedge;
 * - identifiers: a value written as one word (an email, a URL, a user
 *   name, a code: see is_unit()) is found as a whole word, never as a
 *   part of a longer one ("x@mail.example" is not in
 *   "x@mail.example.org", "quinn_harlow" not in "quinn.harlow"), a URL
 *   also without its scheme or final slash; a whole word is the value
 *   even where a name the query asks about is inside it; a value of
 *   digits and grouping signs (a phone number, an ISBN) is found with
 *   the same digits grouped otherwise, and "+44 20…" as "020…"; a name
 *   without its title ("Dr."); German umlauts spelled out ("Mueller");
 * - times: a timestamp as its day and its hour and minute; a time of
 *   day on the twelve-hour clock ("1pm" for 13:00);
 * - dates: a question that asks for a year or a month ("In which
 *   year…", "what month…") accepts a full date written at that precision.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-match-answer.h"

static const char *
token (GrammarMatchText *text,
       gssize            i)
{
  if (i < 0 || (guint) i >= grammar_match_text_get_length (text))
    return "";
  return grammar_match_text_get_token (text, (guint) i);
}

static gboolean
token_is (GrammarMatchText *text,
          gssize            i,
          const char       *word)
{
  return g_str_equal (token (text, i), word);
}

static gboolean
in_list (const char         *word,
         const char * const *list)
{
  return g_strv_contains (list, word);
}

/* ---- booleans ---- */

/* The words of @question, case folded: runs of ASCII letters and
 * apostrophes; a clause mark (. , ; : ! ? or a line break) before a word
 * is kept as the word "" so that clauses can be told apart. */
static GPtrArray *
question_words (const char *question)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  gboolean clause = TRUE;

  for (const char *p = question; *p != '\0';)
    {
      const char *end = p;

      if (!g_ascii_isalpha (*p))
        {
          if (strchr (".,;:!?\n", *p) != NULL)
            clause = TRUE;
          p++;
          continue;
        }
      while (g_ascii_isalpha (*end) || *end == '\'')
        end++;
      if (clause)
        g_ptr_array_add (words, g_strdup (""));
      g_ptr_array_add (words, g_ascii_strdown (p, end - p));
      clause = FALSE;
      p = end;
    }
  return words;
}

/**
 * grammar_match_answer_is_yes_no_question:
 * @question: (nullable): the text of the query
 *
 * Whether @question asks yes or no: indirectly ("Tell me whether the
 * branch has parking", "Whether 'Harbour Street' has parking"), or with a
 * clause that opens with an auxiliary verb ("Is the member active?",
 * "According to the records, is it discontinued?", "quick question: has
 * it shipped?", a sentence after some context). An auxiliary followed by
 * "you" or "I" opens a polite request ("Could you tell me the quantity",
 * "May I know the date", "Do you know the title"), not a yes/no
 * question.
 *
 * Returns: whether @question asks yes or no
 */
gboolean
grammar_match_answer_is_yes_no_question (const char *question)
{
  static const char * const auxiliaries[] = {
    "is", "are", "was", "were", "does", "do", "did", "has", "have", "had", "can", "could", "will", "would",
    "should", "may", "must", "isn't", "aren't", "doesn't", "hasn't", NULL,
  };
  static const char * const requesters[] = { "you", "i", "we", NULL };
  g_autoptr (GPtrArray) words = NULL;

  if (question == NULL)
    return FALSE;
  words = question_words (question);
  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);

      if (g_str_equal (word, "whether"))
        return TRUE;
      if (i > 0 && ((const char *) g_ptr_array_index (words, i - 1))[0] == '\0' && in_list (word, auxiliaries) &&
          (i + 1 >= words->len || !in_list (g_ptr_array_index (words, i + 1), requesters)))
        return TRUE;
    }
  return FALSE;
}

/**
 * grammar_match_answer_truth:
 * @value: the text of a value
 * @yes_no_question: the query is a yes/no question
 *
 * Returns: 1 when @value is a truth value that says yes, 0 when it says
 *   no, -1 when it is no truth value: `true` and `false` always; `1`,
 *   `0`, `Y`, `N`, `yes`, `no`, `t` and `f` only for a yes/no question
 */
int
grammar_match_answer_truth (const char *value,
                            gboolean    yes_no_question)
{
  static const char * const yes[] = { "1", "y", "yes", "t", NULL };
  static const char * const no[] = { "0", "n", "no", "f", NULL };
  g_autofree char *stripped = g_strstrip (g_strdup (value));
  g_autofree char *folded = g_ascii_strdown (stripped, -1);

  if (g_str_equal (folded, "true"))
    return 1;
  if (g_str_equal (folded, "false"))
    return 0;
  if (!yes_no_question)
    return -1;
  if (in_list (folded, yes))
    return 1;
  if (in_list (folded, no))
    return 0;
  return -1;
}

static char *
span_text (GrammarMatchText *text,
           guint             first,
           guint             last)
{
  gsize start, end, unused;

  grammar_match_text_get_span (text, first, &start, &unused);
  grammar_match_text_get_span (text, last, &unused, &end);
  return g_strndup (grammar_match_text_get_base (text) + start, end - start);
}

static gboolean
is_number (const char *text)
{
  const char *p = text;
  gboolean digits = FALSE, point = FALSE;

  if (*p == '-')
    p++;
  for (; *p != '\0'; p++)
    {
      if (g_ascii_isdigit (*p))
        digits = TRUE;
      else if (*p == '.' && !point && digits)
        point = TRUE;
      else
        return FALSE;
    }
  return digits && p[-1] != '.';
}

/**
 * grammar_match_answer_polarity:
 * @response: a response
 * @skip_refused: leave out the refusing clauses
 * @said: (out) (optional): the word that says it, as written
 *
 * Returns: what the response says first: yes ("yes", "true"), no ("no",
 *   "not", "never", "isn't", "false", "out of" followed by a word), both
 *   ("yes or no"), or none of them
 */
GrammarPolarity
grammar_match_answer_polarity (GrammarMatchText *response,
                               gboolean          skip_refused,
                               char            **said)
{
  /* Tokens are stemmed: "true" is "tru", "false" "fals", "none" "non". */
  static const char * const yes[] = { "yes", "tru", "yeah", "yep", "indeed", NULL };
  static const char * const no[] = {
    "no", "not", "fals", "never", "non", "nope", "neither", "isnt", "arent", "wasnt", "werent", "doesnt",
    "dont", "didnt", "hasnt", "havent", "hadnt", "cant", "cannot", "wont", "couldnt", "shouldnt", NULL,
  };
  guint n = grammar_match_text_get_length (response);

  for (guint i = 0; i < n; i++)
    {
      const char *word = token (response, i);
      GrammarPolarity polarity;
      guint last = i;

      if (grammar_match_text_is_excluded (response, i, skip_refused))
        continue;
      if (in_list (word, yes))
        polarity = GRAMMAR_POLARITY_YES;
      else if (in_list (word, no))
        polarity = GRAMMAR_POLARITY_NO;
      else if (g_str_equal (word, "out") && token_is (response, i + 1, "of") && i + 2 < n &&
               !is_number (token (response, i + 2)))
        polarity = GRAMMAR_POLARITY_NO, last = i + 2;
      else
        continue;
      if (token_is (response, last + 1, "or") &&
          (in_list (token (response, last + 2), yes) || in_list (token (response, last + 2), no)))
        polarity = GRAMMAR_POLARITY_BOTH, last += 2;
      if (said != NULL)
        *said = span_text (response, i, last);
      return polarity;
    }
  return GRAMMAR_POLARITY_NONE;
}

/* ---- numbers ---- */

static guint
fraction_digits (const char *number)
{
  const char *point = strchr (number, '.');

  return point != NULL ? (guint) strlen (point + 1) : 0;
}

/* @number times 10^@power, in the tokens' canonical form: no leading
 * zeros, no trailing zeros in the fraction. */
static char *
shift_decimal (const char *number,
               int         power)
{
  gboolean negative = number[0] == '-';
  const char *p = negative ? number + 1 : number;
  const char *point = strchr (p, '.');
  g_autoptr (GString) digits = g_string_new (NULL);
  GString *out = g_string_new (negative ? "-" : "");
  int integer;
  gsize end;
  int k = 0;

  for (const char *q = p; *q != '\0'; q++)
    if (*q != '.')
      g_string_append_c (digits, *q);
  integer = (point != NULL ? (int) (point - p) : (int) strlen (p)) + power;
  while (integer < 1)
    {
      g_string_prepend_c (digits, '0');
      integer++;
    }
  while ((int) digits->len < integer)
    g_string_append_c (digits, '0');
  while (k < integer - 1 && digits->str[k] == '0')
    k++;
  g_string_append_len (out, digits->str + k, integer - k);
  end = digits->len;
  while (end > (gsize) integer && digits->str[end - 1] == '0')
    end--;
  if (end > (gsize) integer)
    {
      g_string_append_c (out, '.');
      g_string_append_len (out, digits->str + integer, end - integer);
    }
  if (g_str_equal (out->str, "-0"))
    g_string_assign (out, "0");
  return g_string_free (out, FALSE);
}

/* Token @i is followed by a percent sign, "percent" or "per cent":
 * the last token of it, or @i itself for the sign. */
static gssize
percent_after (GrammarMatchText *text,
               guint             i)
{
  const char *base = grammar_match_text_get_base (text);
  gsize start, end;

  grammar_match_text_get_span (text, i, &start, &end);
  while (base[end] == ' ')
    end++;
  if (base[end] == '%')
    return i;
  if (token_is (text, i + 1, "percent"))
    return i + 1;
  if (token_is (text, i + 1, "per") && token_is (text, i + 2, "cent"))
    return i + 2;
  return -1;
}

static int
scale_of (const char *word)
{
  static const struct { const char *word; int power; } scales[] = {
    { "thousand", 3 }, { "k", 3 }, { "million", 6 }, { "mn", 6 }, { "billion", 9 }, { "bn", 9 },
    { "trillion", 12 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (scales); i++)
    if (g_str_equal (word, scales[i].word))
      return scales[i].power;
  return 0;
}

/* @number rounded half away from zero to @digits decimals equals
 * @rounded (both canonical). */
static gboolean
rounds_to (const char *number,
           const char *rounded,
           guint       digits)
{
  double value = g_ascii_strtod (number, NULL);
  double scale = pow (10.0, digits);
  double r = (value < 0 ? -1 : 1) * floor (fabs (value) * scale + 0.5) / scale;
  char format[16];
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *canonical = NULL;

  g_snprintf (format, sizeof format, "%%.%uf", digits);
  g_ascii_formatd (buffer, sizeof buffer, format, r);
  canonical = shift_decimal (buffer, 0);
  return g_str_equal (canonical, rounded);
}

/**
 * grammar_match_answer_find_number:
 * @response: a response
 * @value: a value
 * @skip_refused: leave out the refusing clauses
 * @written: (out) (optional): how the response writes it
 *
 * Looks for a value that is one number in the other forms a response
 * gives it: a fraction as a percentage, with a scale word, rounded, or
 * a negative number as a loss, a fall or "below".
 *
 * Returns: whether @response holds @value in one of those forms
 */
gboolean
grammar_match_answer_find_number (GrammarMatchText *response,
                                  GrammarMatchText *value,
                                  gboolean          skip_refused,
                                  char            **written)
{
  /* Right before the number ("minus 18", "lost 15,230.50"), or before
   * "by" or "of" ("fell by 3", "a loss of 1,200", "down by 3"; not
   * "down to 18", a level). */
  static const char * const falls[] = {
    "minus", "lost", "loss", "los", "fell", "fall", "dropped", "drop", "decreased", "decreas", "declined",
    "declin", "deficit", "shortfall", NULL,
  };
  static const char * const falls_by[] = {
    "lost", "loss", "los", "fell", "fall", "dropped", "drop", "decreased", "decreas", "declined", "declin", "down",
    "deficit", "shortfall", NULL,
  };
  const char *v;
  g_autofree char *absolute = NULL;
  guint n = grammar_match_text_get_length (response);

  if (grammar_match_text_get_length (value) != 1 || !is_number (v = token (value, 0)))
    return FALSE;
  if (v[0] == '-')
    absolute = g_strdup (v + 1);

  for (guint i = 0; i < n; i++)
    {
      const char *x = token (response, i);
      gssize last = -1;

      if (!is_number (x) || grammar_match_text_is_excluded (response, i, skip_refused))
        continue;

      /* 0.15 as "15%" */
      if (last < 0 && percent_after (response, i) >= 0)
        {
          g_autofree char *fraction = shift_decimal (x, -2);

          if (g_str_equal (fraction, v))
            last = percent_after (response, i);
        }
      /* 1250000 as "1.25 million" */
      if (last < 0 && scale_of (token (response, i + 1)) > 0 &&
          !grammar_match_text_is_excluded (response, i + 1, skip_refused))
        {
          g_autofree char *scaled = shift_decimal (x, scale_of (token (response, i + 1)));

          if (g_str_equal (scaled, v))
            last = i + 1;
        }
      /* 13.666… as "13.67" */
      if (last < 0 && fraction_digits (v) >= 3 && fraction_digits (x) >= 1 &&
          fraction_digits (x) < fraction_digits (v) && (x[0] == '-') == (v[0] == '-') &&
          rounds_to (v, x, fraction_digits (x)))
        last = i;
      /* -430 as "430 m below", "lost 15,230.50", "minus 18" */
      if (last < 0 && absolute != NULL && g_str_equal (x, absolute))
        {
          if (in_list (token (response, (gssize) i - 1), falls) ||
              ((token_is (response, (gssize) i - 1, "by") || token_is (response, (gssize) i - 1, "of")) &&
               in_list (token (response, (gssize) i - 2), falls_by)))
            last = i;
          for (guint k = i + 1; last < 0 && k <= i + 3 && k < n; k++)
            if (token_is (response, k, "below"))
              last = k;
        }
      if (last >= 0)
        {
          if (written != NULL)
            {
              gsize start, end, unused;

              grammar_match_text_get_span (response, i, &start, &unused);
              grammar_match_text_get_span (response, (guint) last, &unused, &end);
              /* the percent sign is no token: "8%" */
              while (grammar_match_text_get_base (response)[end] == ' ' &&
                     grammar_match_text_get_base (response)[end + 1] == '%')
                end++;
              if (grammar_match_text_get_base (response)[end] == '%')
                end++;
              *written = g_strndup (grammar_match_text_get_base (response) + start, end - start);
            }
          return TRUE;
        }
    }
  return FALSE;
}

/* ---- candidates ---- */

/* The item that starts (or ends) at token @j is one of a kind with the
 * value: written with a capital, a digit, or a sign that numbers and
 * addresses carry; not a verb or a common word ("or call the desk"). */
static gboolean
comparable (GrammarMatchText *response,
            gssize            j)
{
  static const char * const adverbs[] = { "possibly", "perhaps", "maybe", "probably", "even", NULL };
  const char *base = grammar_match_text_get_base (response);
  gsize start, end;
  gunichar c;

  if (j < 0 || (guint) j >= grammar_match_text_get_length (response))
    return FALSE;
  if (in_list (token (response, j), adverbs))
    return comparable (response, j + 1);
  grammar_match_text_get_span (response, (guint) j, &start, &end);
  c = g_utf8_get_char (base + start);
  return g_unichar_isupper (c) || g_unichar_isdigit (c);
}

/* Another value of the answer starts at token @j (@ends: ends at it). */
static gboolean
another_value_at (GrammarMatchText *response,
                  GPtrArray        *value_texts,
                  guint             i,
                  gssize            j,
                  gboolean          ends)
{
  for (guint k = 0; k < value_texts->len; k++)
    {
      GrammarMatchText *other = g_ptr_array_index (value_texts, k);
      gssize at = ends ? j + 1 - (gssize) grammar_match_text_get_length (other) : j;

      if (k != i && grammar_match_text_get_length (other) > 0 && at >= 0 &&
          grammar_match_text_equal_at (response, (guint) at, other))
        return TRUE;
    }
  return FALSE;
}

/* The line before the occurrence at @start names a list of candidates:
 * "Candidates: …", "Possible addresses: …", "Options: …". */
static gboolean
after_candidates_label (const char *base,
                        gsize       start)
{
  g_autoptr (GRegex) label = g_regex_new ("\\b(?:candidates?|possibilities|options|alternatives|"
                                          "possible(?:\\s+\\w+){0,2})\\s*:", G_REGEX_CASELESS, 0, NULL);
  gsize line = start;
  g_autofree char *before = NULL;

  while (line > 0 && base[line - 1] != '\n')
    line--;
  before = g_strndup (base + line, start - line);
  return g_regex_match (label, before, 0, NULL);
}

static gboolean
is_alternative (GrammarMatchText *response,
                GPtrArray        *value_texts,
                guint             i,
                guint             at)
{
  guint n = grammar_match_text_get_length (g_ptr_array_index (value_texts, i));
  const char *base = grammar_match_text_get_base (response);
  gsize start, end, next_start, unused;
  gssize after = (gssize) (at + n);

  grammar_match_text_get_span (response, at, &start, &unused);
  grammar_match_text_get_span (response, at + n - 1, &unused, &end);
  if (token_is (response, (gssize) at - 1, "either") || token_is (response, (gssize) at - 1, "between"))
    return TRUE;
  if (token_is (response, (gssize) at - 1, "and"))
    for (gssize k = (gssize) at - 2; k >= 0 && k >= (gssize) at - 5; k--)
      if (token_is (response, k, "between"))
        return TRUE;
  if (token_is (response, (gssize) at - 1, "or") && comparable (response, (gssize) at - 2) &&
      !another_value_at (response, value_texts, i, (gssize) at - 2, TRUE))
    {
      /* "X or Y": the item before "or" may be several words long;
       * its first word is what tells its kind. */
      return TRUE;
    }
  if (token_is (response, after, "or") && comparable (response, after + 1) &&
      !another_value_at (response, value_texts, i, after + 1, FALSE))
    return TRUE;
  /* "X, Y or Z": a comma, another item, and "or" soon after */
  if ((guint) after < grammar_match_text_get_length (response))
    {
      grammar_match_text_get_span (response, (guint) after, &next_start, &unused);
      if (next_start > end && memchr (base + end, ',', next_start - end) != NULL && comparable (response, after) &&
          !another_value_at (response, value_texts, i, after, FALSE))
        for (gssize k = after + 1; k <= after + 4; k++)
          if (token_is (response, k, "or"))
            return TRUE;
    }
  return after_candidates_label (base, start);
}

/**
 * grammar_match_answer_only_candidates:
 * @response: a response
 * @value_texts: (element-type GrammarMatchText): the values of the answer
 * @i: the value looked at
 * @skip_refused: leave out the refusing clauses
 * @written: (out) (optional): the first occurrence, as written
 *
 * Returns: whether @response holds value @i and only as one of several
 *   alternatives ("either X or Y", "X, Y or Z", "between X and Y",
 *   "Candidates: X, Y"); %FALSE when it does not hold it at all
 */
gboolean
grammar_match_answer_only_candidates (GrammarMatchText *response,
                                      GPtrArray        *value_texts,
                                      guint             i,
                                      gboolean          skip_refused,
                                      char            **written)
{
  GrammarMatchText *value = g_ptr_array_index (value_texts, i);
  guint n = grammar_match_text_get_length (value);
  gssize at = 0, first = -1;

  if (n == 0)
    return FALSE;
  while ((at = grammar_match_text_find (response, value, (guint) at, skip_refused)) >= 0)
    {
      if (!is_alternative (response, value_texts, i, (guint) at))
        return FALSE;
      if (first < 0)
        first = at;
      at++;
    }
  if (first < 0)
    return FALSE;
  if (written != NULL)
    *written = span_text (response, (guint) first, (guint) first + n - 1);
  return TRUE;
}


/* ---- identifiers ---- */

/* Tokens @from to the end of @value occur at @at of @response, none of
 * them refused when @skip_refused, nor masked unless @whole: an
 * identifier found as a whole word (find_unit()) is the value, not a
 * part of a name the query asks about. */
static gboolean
tail_at (GrammarMatchText *response,
         guint             at,
         GrammarMatchText *value,
         guint             from,
         gboolean          skip_refused,
         gboolean          whole)
{
  guint n = grammar_match_text_get_length (value);

  if (from >= n || at + (n - from) > grammar_match_text_get_length (response))
    return FALSE;
  for (guint k = from; k < n; k++)
    {
      guint i = at + k - from;

      if (!g_str_equal (token (response, i), token (value, k)) ||
          (whole ? skip_refused && grammar_match_text_is_refused (response, i)
                 : grammar_match_text_is_excluded (response, i, skip_refused)))
        return FALSE;
    }
  return TRUE;
}

static gboolean
is_url (const char *base)
{
  return g_ascii_strncasecmp (base, "http://", 7) == 0 || g_ascii_strncasecmp (base, "https://", 8) == 0;
}

/* An identifier written as one word that must be found whole: an email,
 * a URL, a path or a code with "/", "@" or "_", a code with digits and
 * "-" or ".", a lower-case name with "-" or "." (a user or host name).
 * A capitalised name with a hyphen (Müller-Lüdenscheidt) is no unit. */
static gboolean
is_unit (GrammarMatchText *value)
{
  g_autofree char *base = g_strstrip (g_strdup (grammar_match_text_get_base (value)));
  gboolean digit = FALSE, upper = FALSE, inner = FALSE, strong = FALSE;

  if (grammar_match_text_get_length (value) < 2 || grammar_match_text_get_full_date (value) != NULL)
    return FALSE;
  for (const char *p = base; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c) || (c == ':' && !is_url (base)))
        return FALSE;
      if (g_unichar_isdigit (c))
        digit = TRUE;
      else if (g_unichar_isupper (c))
        upper = TRUE;
      else if (c == '@' || c == '/' || c == '_')
        strong = TRUE;
      else if ((c == '-' || c == '.') && p != base && p[1] != '\0')
        inner = TRUE;
    }
  return strong || (inner && (digit || !upper));
}

/* The word of @base around @start..@end: out to the spaces, brackets
 * and quotes (so before a possessive "'s"), and on the left also to an
 * "@", "/" or ":" ("contact@kumo-robotics.example" holds the domain
 * "kumo-robotics.example", "mailto:a@b.example" the email), without the
 * punctuation that ends a sentence. */
static char *
word_around (const char *base,
             gsize       start,
             gsize       end,
             char        lead)
{
  static const char openers[] = " \t\n([{<\"'`@/:";
  static const char closers[] = " \t\n)]}>\"'`,;!?@";
  gsize length = strlen (base);

  while (start > 0 && strchr (openers, base[start - 1]) == NULL)
    start--;
  /* a value that opens with the sign: "@beanstalk.cafe" */
  if (start > 0 && lead != '\0' && base[start - 1] == lead)
    start--;
  while (end < length && strchr (closers, base[end]) == NULL)
    end++;
  while (end > start && (base[end - 1] == '.' || base[end - 1] == ':'))
    end--;
  /* the apostrophe of a possessive joins its word: "ops-team's" */
  if (end >= start + 2 && base[end - 2] == '\'' && (base[end - 1] == 's' || base[end - 1] == 'S'))
    end -= 2;
  return g_utf8_casefold (base + start, (gssize) (end - start));
}

/* One of @chars is in the @length bytes of @text. */
static gboolean
strpbrk_n (const char *text,
           gsize       length,
           const char *chars)
{
  for (gsize k = 0; k < length; k++)
    if (strchr (chars, text[k]) != NULL && text[k] != '\0')
      return TRUE;
  return FALSE;
}

/* A URL without its scheme and final slash, case folded. */
static char *
url_key (const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);
  const char *p = folded;
  gsize n;

  if (g_str_has_prefix (p, "https://"))
    p += 8;
  else if (g_str_has_prefix (p, "http://"))
    p += 7;
  n = strlen (p);
  while (n > 0 && p[n - 1] == '/')
    n--;
  return g_strndup (p, n);
}

/* Value @value, a unit (is_unit()), written whole in @response: the
 * word around an occurrence of its tokens is the value (a URL also
 * without its scheme or final slash). @written: that word, or the
 * first word that held the tokens without being the value. */
static gboolean
find_unit (GrammarMatchText *response,
           GrammarMatchText *value,
           gboolean          skip_refused,
           char            **written)
{
  g_autofree char *whole = g_strstrip (g_strdup (grammar_match_text_get_base (value)));
  g_autofree char *folded = g_utf8_casefold (whole, -1);
  gboolean url = is_url (whole);
  g_autofree char *key = url ? url_key (whole) : NULL;
  guint n = grammar_match_text_get_length (value);

  for (guint from = 0; from <= (url ? 1u : 0u); from++)
    for (guint at = 0; at < grammar_match_text_get_length (response); at++)
      {
        gsize start, end, unused;
        g_autofree char *word = NULL;
        gboolean same;

        if (!tail_at (response, at, value, from, skip_refused, TRUE))
          continue;
        grammar_match_text_get_span (response, at, &start, &unused);
        grammar_match_text_get_span (response, at + n - from - 1, &unused, &end);
        if (strpbrk_n (grammar_match_text_get_base (response) + start, end - start, " \t\n"))
          {
            /* Words in prose ("Lena Vogt" for lena.vogt): the tokens
             * decide, as for any value, masks included. */
            same = TRUE;
            for (guint k = at; k < at + n - from; k++)
              same = same && !grammar_match_text_is_excluded (response, k, skip_refused);
            if (same)
              return TRUE;
            continue;
          }
        word = word_around (grammar_match_text_get_base (response), start, end,
                            strchr ("@/:", folded[0]) != NULL ? folded[0] : '\0');
        if (url)
          {
            g_autofree char *word_key = url_key (word);

            same = g_str_equal (word_key, key);
          }
        else
          same = g_str_equal (word, folded);
        if (same || (written != NULL && *written == NULL))
          {
            if (written != NULL)
              {
                g_free (*written);
                *written = g_steal_pointer (&word);
              }
            if (same)
              return TRUE;
          }
      }
  return FALSE;
}

/* "+44 20 7946 0321", "978-0-14-311548-1", "07700 900461": digits and
 * the signs that group them, at least seven digits; @digits gets the
 * digits, @plus whether it opens with "+". */
static gboolean
digit_run (const char *text,
           gsize       length,
           GString    *digits,
           gboolean   *plus)
{
  g_string_truncate (digits, 0);
  *plus = length > 0 && text[0] == '+';
  for (gsize k = 0; k < length; k++)
    if (g_ascii_isdigit (text[k]))
      g_string_append_c (digits, text[k]);
    else if (strchr (" -./()+", text[k]) == NULL || (text[k] == '+' && k > 0))
      return FALSE;
  return digits->len >= 7;
}

/* The same number: the same digits, or a country code (+44 20…) for
 * the trunk 0 of the national form (020…), or for nothing (+1 555… for
 * 555…). */
static gboolean
same_phone (GString  *a,
            gboolean  a_plus,
            GString  *b,
            gboolean  b_plus)
{
  if (g_str_equal (a->str, b->str))
    return TRUE;
  if (a_plus == b_plus)
    return FALSE;
  if (b_plus)
    return same_phone (b, b_plus, a, a_plus);
  for (gsize cc = 1; cc <= 3 && cc < a->len; cc++)
    if ((b->str[0] == '0' && g_str_equal (a->str + cc, b->str + 1)) || g_str_equal (a->str + cc, b->str))
      return TRUE;
  return FALSE;
}

/* A value of digits and grouping signs (a phone number, an ISBN) is in
 * the response when a run of digits and such signs there has the same
 * digits, grouped in any way. */
static gboolean
find_digits (GrammarMatchText *response,
             GrammarMatchText *value,
             gboolean          skip_refused,
             char            **written)
{
  g_autofree char *whole = g_strstrip (g_strdup (grammar_match_text_get_base (value)));
  g_autoptr (GString) wanted = g_string_new (NULL);
  g_autoptr (GString) found = g_string_new (NULL);
  const char *base = grammar_match_text_get_base (response);
  gboolean wanted_plus, found_plus;

  if (grammar_match_text_get_length (value) < 2 || !digit_run (whole, strlen (whole), wanted, &wanted_plus))
    return FALSE;
  for (const char *p = base; *p != '\0'; )
    {
      const char *start = p, *end = p, *q;

      if (!g_ascii_isdigit (*p) && !((*p == '+' || *p == '(') && g_ascii_isdigit (p[1])))
        {
          p++;
          continue;
        }
      /* digits, and signs between them: a sign or two, then a digit */
      for (q = p; *q != '\0'; q++)
        {
          if (g_ascii_isdigit (*q))
            end = q + 1;
          else if (strchr (" -./()+", *q) == NULL ||
                   !(g_ascii_isdigit (q[1]) || (q[1] != '\0' && strchr (" -()", q[1]) != NULL && g_ascii_isdigit (q[2]))))
            break;
        }
      p = q > p ? q : p + 1;
      if (!digit_run (start, end - start, found, &found_plus) || !same_phone (wanted, wanted_plus, found, found_plus))
        continue;
      for (guint i = 0; i < grammar_match_text_get_length (response); i++)
        {
          gsize s, e;

          grammar_match_text_get_span (response, i, &s, &e);
          if (s < (gsize) (end - base) && e > (gsize) (start - base) &&
              grammar_match_text_is_excluded (response, i, skip_refused))
            goto next;
        }
      *written = g_strndup (start, end - start);
      return TRUE;
    next:
      ;
    }
  return FALSE;
}

static const char * const titles[] = { "dr", "mr", "mrs", "ms", "prof", "sir", "dame", NULL };

/* "Dr. Zoë Lefèvre" is "Zoë Lefèvre"; "https://www.x.example" is
 * "www.x.example": a value found without its title or scheme. */
static gboolean
find_without_first (GrammarMatchText *response,
                    GrammarMatchText *value,
                    gboolean          skip_refused,
                    char            **written)
{
  g_autofree char *whole = g_strstrip (g_strdup (grammar_match_text_get_base (value)));
  guint n = grammar_match_text_get_length (value);

  if (n < 3 || is_url (whole) || !in_list (token (value, 0), titles))
    return FALSE;
  for (guint at = 0; at < grammar_match_text_get_length (response); at++)
    if (tail_at (response, at, value, 1, skip_refused, FALSE))
      {
        *written = span_text (response, at, at + n - 2);
        return TRUE;
      }
  return FALSE;
}

/* "2023-06-01 09:15:00": a timestamp, found as its day and its hour
 * and minute ("1 June 2023 at 09:15"); the seconds may be left out. A
 * day without the time is not the value, as doc/matchers.md says. */
static gboolean
find_timestamp (GrammarMatchText *response,
                GrammarMatchText *value,
                gboolean          skip_refused,
                char            **written)
{
  g_autoptr (GRegex) stamp = g_regex_new ("^\\s*(\\d{4}-\\d{2}-\\d{2})[ T](\\d{2}:\\d{2})(?::\\d{2}(?:\\.\\d+)?)?"
                                          "(?:Z|[+-]\\d{2}:?\\d{2})?\\s*$", 0, 0, NULL);
  g_autoptr (GMatchInfo) info = NULL;
  g_autofree char *day = NULL;
  g_autofree char *time = NULL;
  g_autoptr (GrammarMatchText) day_text = NULL;
  g_autoptr (GrammarMatchText) time_text = NULL;
  GrammarMatchOptions options = { FALSE, NULL, NULL };
  gssize at, at_time;

  if (!g_regex_match (stamp, grammar_match_text_get_base (value), 0, &info))
    return FALSE;
  day = g_match_info_fetch (info, 1);
  time = g_match_info_fetch (info, 2);
  day_text = grammar_match_text_new (day, &options);
  time_text = grammar_match_text_new (time, &options);
  if ((at = grammar_match_text_find (response, day_text, 0, skip_refused)) < 0 ||
      (at_time = grammar_match_text_find (response, time_text, 0, skip_refused)) < 0)
    return FALSE;
  *written = span_text (response, (guint) MIN (at, at_time),
                        (guint) MAX (at + grammar_match_text_get_length (day_text),
                                     at_time + grammar_match_text_get_length (time_text)) - 1);
  return TRUE;
}


/* "13:00" is "1pm", "09:30" is "9:30 a.m.": a time of day, found on the
 * twelve-hour clock. */
static gboolean
find_twelve_hour (GrammarMatchText *response,
                  GrammarMatchText *value,
                  gboolean          skip_refused,
                  char            **written)
{
  g_autoptr (GRegex) clock = g_regex_new ("^\\s*(\\d{1,2}):(\\d{2})(?::00)?\\s*$", 0, 0, NULL);
  g_autoptr (GMatchInfo) info = NULL;
  g_autofree char *hour_text = NULL;
  g_autofree char *minute_text = NULL;
  g_autofree char *hour = NULL;
  g_autofree char *minute = NULL;
  const char *half;
  int h, m;
  guint n = grammar_match_text_get_length (response);

  if (!g_regex_match (clock, grammar_match_text_get_base (value), 0, &info))
    return FALSE;
  hour_text = g_match_info_fetch (info, 1);
  minute_text = g_match_info_fetch (info, 2);
  h = atoi (hour_text), m = atoi (minute_text);
  if (h > 23 || m > 59)
    return FALSE;
  half = h < 12 ? "am" : "pm";
  hour = g_strdup_printf ("%d", h % 12 == 0 ? 12 : h % 12);
  minute = g_strdup_printf ("%d", m);
  for (guint i = 0; i < n; i++)
    {
      guint k = i + 1;

      if (!token_is (response, i, hour) || grammar_match_text_is_excluded (response, i, skip_refused))
        continue;
      /* "9:30": the minutes (a canonical number: "00" is "0") */
      if (token_is (response, k, minute) && is_number (token (response, k)) && k < n)
        k++;
      else if (m != 0)
        continue;
      if (token_is (response, k, half) ||
          (token_is (response, k, half[0] == 'a' ? "a" : "p") && token_is (response, k + 1, "m")))
        {
          *written = span_text (response, i, token_is (response, k, half) ? k : k + 1);
          return TRUE;
        }
    }
  return FALSE;
}

/* "Müller" is also written "Mueller": German umlauts and ß spelled
 * out. */
static gboolean
find_spelled_out (GrammarMatchText *response,
                  const char       *value,
                  gboolean          skip_refused,
                  char            **written)
{
  static const struct { const char *letter; const char *spelled; } umlauts[] = {
    { "ä", "ae" }, { "ö", "oe" }, { "ü", "ue" }, { "Ä", "Ae" }, { "Ö", "Oe" }, { "Ü", "Ue" }, { "ß", "ss" },
  };
  g_autofree char *composed = g_utf8_normalize (value, -1, G_NORMALIZE_NFC);
  g_autoptr (GString) spelled = g_string_new (composed);
  g_autoptr (GrammarMatchText) text = NULL;
  GrammarMatchOptions options = { FALSE, NULL, NULL };
  guint replaced = 0;
  gssize at;

  for (gsize i = 0; i < G_N_ELEMENTS (umlauts); i++)
    replaced += g_string_replace (spelled, umlauts[i].letter, umlauts[i].spelled, 0);
  if (replaced == 0)
    return FALSE;
  text = grammar_match_text_new (spelled->str, &options);
  if (grammar_match_text_get_length (text) == 0 || (at = grammar_match_text_find (response, text, 0, skip_refused)) < 0)
    return FALSE;
  *written = span_text (response, (guint) at, (guint) at + grammar_match_text_get_length (text) - 1);
  return TRUE;
}

/* ---- dates ---- */

/**
 * grammar_match_answer_asked_precision:
 * @question: (nullable): the text of the query
 *
 * Returns: the precision of date the question asks for: year for "which
 *   year", "what year", "in what year"; month for "which month", "what
 *   month"; otherwise day
 */
GrammarDatePrecision
grammar_match_answer_asked_precision (const char *question)
{
  g_autoptr (GRegex) year = NULL;
  g_autoptr (GRegex) month = NULL;

  if (question == NULL)
    return GRAMMAR_DATE_PRECISION_DAY;
  year = g_regex_new ("\\b(?:which|what)\\s+year\\b", G_REGEX_CASELESS, 0, NULL);
  month = g_regex_new ("\\b(?:which|what)\\s+month\\b", G_REGEX_CASELESS, 0, NULL);
  if (g_regex_match (year, question, 0, NULL))
    return GRAMMAR_DATE_PRECISION_YEAR;
  if (g_regex_match (month, question, 0, NULL))
    return GRAMMAR_DATE_PRECISION_MONTH;
  return GRAMMAR_DATE_PRECISION_DAY;
}

/* ---- for the contains matcher ---- */

/**
 * grammar_match_answer_found_otherwise:
 * @match: the record
 * @i: a value that contains did not find as it is written
 * @hemisphere: where seasons are named
 * @coarse: (out): the response's date when value @i is a full date
 *   found at the precision the question asks for
 * @written: (out): how the response writes a number found in another
 *   form
 *
 * Returns: whether value @i is in the response in a form its kind
 *   allows: a number as a percentage, with a scale word, rounded or as
 *   a loss; a full date at the precision the question asks for
 */
gboolean
grammar_match_answer_found_otherwise (const GrammarTextMatch  *match,
                                      guint                    i,
                                      GrammarHemisphere        hemisphere,
                                      const GrammarMatchDate **coarse,
                                      char                   **written)
{
  GrammarMatchText *value = g_ptr_array_index (match->value_texts, i);
  const GrammarMatchDate *day = grammar_match_text_get_full_date (value);
  GrammarDatePrecision asked;

  *coarse = NULL;
  *written = NULL;
  if (grammar_match_text_get_length (value) == 0)
    return FALSE;
  if (grammar_match_answer_find_number (match->response, value, match->refusals, written) ||
      find_digits (match->response, value, match->refusals, written) ||
      find_without_first (match->response, value, match->refusals, written) ||
      find_timestamp (match->response, value, match->refusals, written) ||
      find_twelve_hour (match->response, value, match->refusals, written) ||
      find_spelled_out (match->response, g_ptr_array_index (match->values, i), match->refusals, written))
    return TRUE;
  /* a whole word is the value as written: the reason needs no "as" */
  if (is_unit (value) && find_unit (match->response, value, match->refusals, written))
    {
      g_clear_pointer (written, g_free);
      return TRUE;
    }
  g_clear_pointer (written, g_free);
  if (day == NULL ||
      (asked = grammar_match_answer_asked_precision (grammar_record_get_text (match->record))) ==
        GRAMMAR_DATE_PRECISION_DAY)
    return FALSE;
  *coarse = grammar_match_text_find_date (match->response, day, asked, hemisphere, match->refusals);
  return *coarse != NULL;
}

/**
 * grammar_match_answer_judge_truth:
 * @matcher: the matcher, for the verdict
 * @match: the record
 *
 * Returns: (transfer full) (nullable): the verdict of a record whose
 *   answer is one truth value (grammar_match_answer_truth()), from what
 *   the response says (grammar_match_answer_polarity()); %NULL for any
 *   other answer
 */
GrammarVerdict *
grammar_match_answer_judge_truth (GrammarTextMatcher     *matcher,
                                  const GrammarTextMatch *match)
{
  gboolean yes_no = grammar_match_answer_is_yes_no_question (grammar_record_get_text (match->record));
  g_autofree char *said = NULL;
  g_autofree char *quoted = NULL;
  g_autofree char *refusal = NULL;
  GrammarPolarity polarity;
  int truth;

  if (match->values->len != 1 ||
      (truth = grammar_match_answer_truth (g_ptr_array_index (match->values, 0), yes_no)) < 0)
    return NULL;
  quoted = grammar_text_matcher_quote (g_ptr_array_index (match->values, 0));
  polarity = grammar_match_answer_polarity (match->response, match->refusals, &said);
  if (polarity == GRAMMAR_POLARITY_NONE && match->refusals &&
      (refusal = grammar_match_text_dup_refusal (match->response)) != NULL)
    return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, 0.0, "refusal: %s", refusal);
  if (polarity == GRAMMAR_POLARITY_BOTH)
    return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, 0.0,
                                         "the response says both yes and no (“%s”) for %s", said, quoted);
  if (polarity == GRAMMAR_POLARITY_NONE)
    return grammar_text_matcher_verdict (matcher, truth ? GRAMMAR_VERDICT_CORRECT : GRAMMAR_VERDICT_INCORRECT,
                                         truth ? 1.0 : 0.0, "the response affirms without a yes or a no, for %s",
                                         quoted);
  if ((polarity == GRAMMAR_POLARITY_YES) == (truth == 1))
    return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_CORRECT, 1.0, "the response says %s (“%s”) for %s",
                                         truth ? "yes" : "no", said, quoted);
  return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, 0.0, "the response says %s (“%s”) for %s",
                                       truth ? "no" : "yes", said, quoted);
}

/**
 * grammar_match_answer_judge_units:
 * @matcher: the matcher, for the verdict
 * @match: a record whose values were all found
 * @score: the score of the verdict
 *
 * Returns: (transfer full) (nullable): an incorrect verdict when a
 *   value that is one word (an email, a URL, a user name, a code) is in
 *   the response only as a part of another word: "x@mail.example" in
 *   "x@mail.example.org", "quinn_harlow" in "quinn.harlow"; otherwise
 *   %NULL
 */
GrammarVerdict *
grammar_match_answer_judge_units (GrammarTextMatcher     *matcher,
                                  const GrammarTextMatch *match,
                                  double                  score)
{
  for (guint i = 0; i < match->value_texts->len; i++)
    {
      GrammarMatchText *value = g_ptr_array_index (match->value_texts, i);
      g_autofree char *written = NULL;
      g_autofree char *quoted = NULL;
      g_autofree char *other = NULL;

      if (!is_unit (value) || find_unit (match->response, value, match->refusals, &written) ||
          find_digits (match->response, value, match->refusals, &other))
        continue;
      quoted = grammar_text_matcher_quote (g_ptr_array_index (match->values, i));
      if (written == NULL)
        continue;
      return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, score,
                                           "missing %s as a whole: the response has “%s”", quoted, written);
    }
  return NULL;
}

/**
 * grammar_match_answer_judge_candidates:
 * @matcher: the matcher, for the verdict
 * @match: a record whose values were all found
 * @score: the score of the verdict
 *
 * Returns: (transfer full) (nullable): an incorrect verdict when the
 *   response gives one of the values only as one of several candidates
 *   (grammar_match_answer_only_candidates()); otherwise %NULL
 */
GrammarVerdict *
grammar_match_answer_judge_candidates (GrammarTextMatcher     *matcher,
                                       const GrammarTextMatch *match,
                                       double                  score)
{
  for (guint i = 0; i < match->value_texts->len; i++)
    {
      g_autofree char *written = NULL;
      g_autofree char *quoted = NULL;

      if (grammar_match_answer_only_candidates (match->response, match->value_texts, i, match->refusals, &written))
        {
          quoted = grammar_text_matcher_quote (g_ptr_array_index (match->values, i));
          return grammar_text_matcher_verdict (matcher, GRAMMAR_VERDICT_INCORRECT, score,
                                               "candidates: %s is only one of several alternatives (“%s”)", quoted,
                                               written);
        }
    }
  return NULL;
}
