/* grammar-match-tokens.c: text cut into normalised words, numbers and dates
 *
 * The matchers compare token sequences, never raw strings, so that the
 * same rules apply to a response and to the values of a true answer:
 *
 * - the base text: Unicode NFKD with the diacritics (non-spacing marks)
 *   removed and a few letters without a decomposition spelled out
 *   (ø → o, æ → ae…), curly quotes and dashes made ASCII, every decimal
 *   digit made ASCII;
 * - a token is a run of letters and digits; an apostrophe inside a word
 *   joins it ("couldn't" → "couldnt"); `&` is the word "and"; a letter
 *   of a script written without spaces (Chinese, Japanese, Thai…) is a
 *   token by itself; letters and digits stuck together are cut apart
 *   ("5km" → "5" "km") except ordinals ("1st");
 * - numbers are canonical: "1,000" = "1000", "433.50" = "433.5",
 *   "1.0" = "1", "007" = "7", "-3" keeps its sign, "1st" = "1"; the number
 *   words zero to twenty and thirty to ninety ("twenty-one" too) are
 *   numbers, except "one of";
 * - dates become the three numbers year, month, day: "2023-04-01"
 *   (a midnight time after it, "2023-04-01T00:00:00Z", is dropped),
 *   "2023/04/01", "April 1, 2023", "Apr. 1st 2023", "1 April 2023",
 *   "1st of April, 2023", and "01/04/2023" (day first when @day_first,
 *   else month first; when only one reading is a valid date, that one);
 * - dates at a coarser precision keep their ordinary tokens ("June 2024"
 *   is "june" "2024") and are listed beside them (GrammarMatchDate):
 *   a month ("June 2024", "Jun. 2024", "June of 2024", "2024-06",
 *   "06/2024", "6/2024"; not "2005-06", a span of years), a quarter
 *   ("Q2 2024", "Q2 of 2024", "2024 Q2", "2024-Q2", "second quarter of
 *   2024", "2nd quarter 2024"), a season ("spring 2023", "the fall of
 *   2023", "winter 2023-24": the second year), or a year alone ("2024":
 *   four digits that are no part of a longer date, range, number or
 *   word);
 *   the full dates are listed too, at day precision;
 * - a number that opens a line of a numbered list ("1. Check…") is list
 *   numbering, not a value, and is dropped;
 * - words are case-folded and lightly stemmed (plural -s/-es/-ies, -ing
 *   when at least five letters remain, a final -e), so "Retailing" =
 *   "retail" and "industries" = "industry", but "banking" is not "bank".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "grammar-match-tokens.h"

typedef struct
{
  char *text;        /* as written (diacritics removed), apostrophes dropped */
  char *folded;      /* case-folded */
  gsize start;
  gsize end;
  gboolean digits;   /* ASCII digits only */
  gboolean ordinal;  /* digits and st, nd, rd or th */
  gboolean upper;    /* has letters, all capitals */
} RawToken;

static void
raw_token_clear (RawToken *token)
{
  g_free (token->text);
  g_free (token->folded);
}

/* ---- the base text ---- */

/* Letters that NFKD leaves alone but that readers take for plain
 * Latin letters with a mark. */
static const char *
spelled_out (gunichar c)
{
  switch (c)
    {
    case 0x00D8: return "O";   /* Ø */
    case 0x00F8: return "o";   /* ø */
    case 0x0141: return "L";   /* Ł */
    case 0x0142: return "l";   /* ł */
    case 0x0110: return "D";   /* Đ */
    case 0x0111: return "d";   /* đ */
    case 0x00C6: return "AE";  /* Æ */
    case 0x00E6: return "ae";  /* æ */
    case 0x0152: return "OE";  /* Œ */
    case 0x0153: return "oe";  /* œ */
    case 0x00DE: return "TH";  /* Þ */
    case 0x00FE: return "th";  /* þ */
    case 0x0131: return "i";   /* dotless ı */
    default: return NULL;
    }
}

static gunichar
plain_punctuation (gunichar c)
{
  switch (c)
    {
    case 0x2018: case 0x2019: case 0x201A: case 0x201B: case 0x02BC: case 0x2032: case 0x0060: case 0x00B4:
      return '\'';
    case 0x201C: case 0x201D: case 0x201E: case 0x201F: case 0x00AB: case 0x00BB: case 0x2033:
      return '"';
    case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014: case 0x2015: case 0x2212:
      return '-';
    default:
      return c;
    }
}

/**
 * grammar_match_base:
 * @text: UTF-8 text (invalid bytes are replaced)
 *
 * Returns: (transfer full): @text in NFKD, without diacritics, with ASCII
 *   quotes, dashes and digits; its case is kept
 */
char *
grammar_match_base (const char *text)
{
  g_autofree char *valid = NULL;
  g_autofree char *decomposed = NULL;
  GString *base;

  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  decomposed = g_utf8_normalize (text, -1, G_NORMALIZE_NFKD);
  base = g_string_sized_new (strlen (decomposed));

  for (const char *p = decomposed; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      const char *spelled;
      int digit;

      if (g_unichar_type (c) == G_UNICODE_NON_SPACING_MARK)
        continue;
      spelled = spelled_out (c);
      if (spelled != NULL)
        {
          g_string_append (base, spelled);
          continue;
        }
      digit = g_unichar_digit_value (c);
      if (digit >= 0)
        c = '0' + digit;
      g_string_append_unichar (base, plain_punctuation (c));
    }
  return g_string_free (base, FALSE);
}

/* ---- raw tokens ---- */

/* Scripts written without spaces between words: each letter is a token,
 * so that a name inside a sentence can still be found. */
static gboolean
is_isolating (gunichar c)
{
  switch (g_unichar_get_script (c))
    {
    case G_UNICODE_SCRIPT_HAN:
    case G_UNICODE_SCRIPT_HIRAGANA:
    case G_UNICODE_SCRIPT_KATAKANA:
    case G_UNICODE_SCRIPT_THAI:
    case G_UNICODE_SCRIPT_LAO:
    case G_UNICODE_SCRIPT_KHMER:
    case G_UNICODE_SCRIPT_MYANMAR:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
is_word_char (gunichar c)
{
  return g_unichar_isalnum (c) && !is_isolating (c);
}

static void
add_raw (GArray     *raw,
         const char *text,
         gsize       length,
         gsize       start,
         gsize       end)
{
  RawToken token = { 0 };
  gboolean has_letter = FALSE, has_lower = FALSE;

  token.text = g_strndup (text, length);
  token.folded = g_utf8_casefold (token.text, -1);
  token.start = start;
  token.end = end;
  token.digits = TRUE;
  for (const char *p = token.text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_ascii_isdigit (*p))
        token.digits = FALSE;
      if (g_unichar_isalpha (c))
        {
          has_letter = TRUE;
          if (!g_unichar_isupper (c) && !g_unichar_istitle (c))
            has_lower = TRUE;
        }
    }
  token.upper = has_letter && !has_lower;
  g_array_append_val (raw, token);
}

static gboolean
is_ordinal (const char *word)
{
  const char *p = word;
  g_autofree char *suffix = NULL;

  while (g_ascii_isdigit (*p))
    p++;
  if (p == word || strlen (p) != 2)
    return FALSE;
  suffix = g_ascii_strdown (p, -1);
  return g_str_equal (suffix, "st") || g_str_equal (suffix, "nd") ||
         g_str_equal (suffix, "rd") || g_str_equal (suffix, "th");
}

/* A word of @base from @start to @end, apostrophes already dropped into
 * @word: one raw token, or several where letters and digits meet. */
static void
add_word (GArray     *raw,
          const char *word,
          gsize       start,
          gsize       end)
{
  const char *piece = word;

  if (is_ordinal (word))
    {
      add_raw (raw, word, strlen (word), start, end);
      g_array_index (raw, RawToken, raw->len - 1).ordinal = TRUE;
      return;
    }
  for (const char *p = word; ; p = g_utf8_next_char (p))
    {
      gboolean at_end = *p == '\0';

      if (at_end || (p != piece && g_ascii_isdigit (*p) != g_ascii_isdigit (*piece)))
        {
          /* A word that lost an apostrophe no longer lines up with the
           * base text: its pieces share the offsets of the whole word. */
          if (end - start == strlen (word))
            add_raw (raw, piece, p - piece, start + (piece - word), start + (p - word));
          else
            add_raw (raw, piece, p - piece, start, end);
          piece = p;
        }
      if (at_end)
        break;
    }
}

static GArray *
raw_tokenize (const char *base)
{
  GArray *raw = g_array_new (FALSE, TRUE, sizeof (RawToken));
  const char *p = base;

  g_array_set_clear_func (raw, (GDestroyNotify) raw_token_clear);
  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);

      if (c == '&')
        add_raw (raw, "and", 3, p - base, next - base);
      else if (g_unichar_isalnum (c) && is_isolating (c))
        add_raw (raw, p, next - p, p - base, next - base);
      else if (is_word_char (c))
        {
          GString *word = g_string_new (NULL);
          const char *start = p;

          while (*p != '\0')
            {
              c = g_utf8_get_char (p);
              next = g_utf8_next_char (p);
              if (is_word_char (c))
                g_string_append_len (word, p, next - p);
              else if (c != '\'' || !is_word_char (g_utf8_get_char (next)))
                break;
              p = next;
            }
          add_word (raw, word->str, start - base, p - base);
          g_string_free (word, TRUE);
          continue;
        }
      p = next;
    }
  return raw;
}

/* ---- the pass over raw tokens ---- */

typedef struct
{
  const char *base;
  GArray *raw;       /* RawToken */
  GArray *tokens;    /* GrammarMatchToken, the output */
  GArray *dates;     /* GrammarMatchDate, the output */
  gboolean day_first;
} Pass;

static RawToken *
raw_at (Pass *pass,
        guint i)
{
  return i < pass->raw->len ? &g_array_index (pass->raw, RawToken, i) : NULL;
}

/* The text between raw token @i and the next one (at the end: the rest). */
static gboolean
gap_is (Pass       *pass,
        guint       i,
        const char *text)
{
  RawToken *token = raw_at (pass, i);
  RawToken *next = raw_at (pass, i + 1);
  gsize end = next != NULL ? next->start : strlen (pass->base);
  gsize length = strlen (text);

  return token != NULL && end - token->end == length &&
         strncmp (pass->base + token->end, text, length) == 0;
}

/* Between raw tokens @i and @i + 1 there are only spaces, commas and
 * full stops (a date written in words), on one line. */
static gboolean
gap_is_loose (Pass  *pass,
              guint  i)
{
  RawToken *token = raw_at (pass, i);
  RawToken *next = raw_at (pass, i + 1);

  if (token == NULL || next == NULL || next->start - token->end > 3)
    return FALSE;
  for (gsize k = token->end; k < next->start; k++)
    if (pass->base[k] != ' ' && pass->base[k] != ',' && pass->base[k] != '.')
      return FALSE;
  return TRUE;
}

static void
emit (Pass       *pass,
      const char *text,
      gsize       start,
      gsize       end,
      guint       flags)
{
  GrammarMatchToken token = { g_strdup (text), start, end, flags };

  g_array_append_val (pass->tokens, token);
}

static void
emit_number (Pass  *pass,
             gint64 value,
             gsize  start,
             gsize  end)
{
  char text[32];

  g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, value);
  emit (pass, text, start, end, GRAMMAR_MATCH_TOKEN_NUMBER);
}

/* "1. Check the website": a number opening a line, then "." or ")" and
 * a space, then words. */
static gboolean
is_list_number (Pass  *pass,
                guint  i)
{
  RawToken *token = raw_at (pass, i);
  const char *base = pass->base;
  const char *after = base + token->end;
  gsize k = token->start;

  if (!token->digits || token->end - token->start > 3)
    return FALSE;
  while (k > 0 && base[k - 1] != '\n')
    {
      k--;
      if (base[k] != ' ' && base[k] != '\t')
        return FALSE;
    }
  if ((after[0] != '.' && after[0] != ')') || (after[1] != ' ' && after[1] != '\t'))
    return FALSE;
  for (const char *p = after + 2; *p != '\0' && *p != '\n'; p = g_utf8_next_char (p))
    if (g_unichar_isalpha (g_utf8_get_char (p)))
      return TRUE;
  return FALSE;
}

static int
month_of (const char *folded)
{
  static const struct { const char *name; int month; } months[] = {
    { "january", 1 }, { "jan", 1 }, { "february", 2 }, { "feb", 2 }, { "march", 3 }, { "mar", 3 },
    { "april", 4 }, { "apr", 4 }, { "may", 5 }, { "june", 6 }, { "jun", 6 }, { "july", 7 },
    { "jul", 7 }, { "august", 8 }, { "aug", 8 }, { "september", 9 }, { "sept", 9 }, { "sep", 9 },
    { "october", 10 }, { "oct", 10 }, { "november", 11 }, { "nov", 11 }, { "december", 12 },
    { "dec", 12 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (months); i++)
    if (g_str_equal (folded, months[i].name))
      return months[i].month;
  return 0;
}

/* The day of a date written in words: "1", "01" or "1st". */
static int
day_of (RawToken *token)
{
  if (token == NULL || (!token->digits && !token->ordinal))
    return 0;
  if (token->digits && strlen (token->text) > 2)
    return 0;
  return (int) g_ascii_strtoll (token->text, NULL, 10);
}

static int
year_of (RawToken *token)
{
  if (token == NULL || !token->digits || strlen (token->text) != 4)
    return 0;
  return (int) g_ascii_strtoll (token->text, NULL, 10);
}

static gboolean
valid_date (int year,
            int month,
            int day)
{
  return year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= 31 &&
         g_date_valid_dmy ((GDateDay) day, (GDateMonth) month, (GDateYear) year);
}

static gboolean
is_zeros (RawToken *token)
{
  if (token == NULL || !token->digits)
    return FALSE;
  for (const char *p = token->text; *p != '\0'; p++)
    if (*p != '0')
      return FALSE;
  return TRUE;
}

/* The raw tokens of a midnight time after the date that ends at raw
 * token @i ("2023-04-01T00:00:00Z", "2023-04-01 00:00"): a database's
 * way of writing a plain date, dropped; 0 when there is none. Another
 * time of day stays, as numbers. */
static guint
midnight_after (Pass *pass,
                guint i)
{
  guint k = i + 1;
  RawToken *t = raw_at (pass, k);

  if (t != NULL && gap_is (pass, i, "") && g_str_equal (t->folded, "t"))
    k++;
  else if (!gap_is (pass, i, " "))
    return 0;
  if (!is_zeros (raw_at (pass, k)) || !gap_is (pass, k, ":") || !is_zeros (raw_at (pass, k + 1)))
    return 0;
  k += 1;
  if (gap_is (pass, k, ":") && is_zeros (raw_at (pass, k + 1)))
    k++;
  if (gap_is (pass, k, ".") && is_zeros (raw_at (pass, k + 1)))
    k++;
  if (gap_is (pass, k, "") && raw_at (pass, k + 1) != NULL && g_str_equal (raw_at (pass, k + 1)->folded, "z"))
    k++;
  return k - i;
}

/* "2023-04-01", "2023/04/01", "01/04/2023", "01.04.2023": three numbers
 * with the same separator, not part of a longer chain. */
static guint
read_numeric_date (Pass *pass,
                   guint i,
                   int  *year,
                   int  *month,
                   int  *day)
{
  static const char * const separators[] = { "-", "/", "." };
  RawToken *a = raw_at (pass, i), *b = raw_at (pass, i + 1), *c = raw_at (pass, i + 2);

  if (c == NULL || !a->digits || !b->digits || !c->digits)
    return 0;
  for (gsize s = 0; s < G_N_ELEMENTS (separators); s++)
    {
      const char *sep = separators[s];
      gsize la = strlen (a->text), lb = strlen (b->text), lc = strlen (c->text);
      int x, y;
      /* Dotted dates ("07.02.2023") are day first wherever they are
       * written (Germany, Scandinavia, Russia…); the setting is for
       * slashes and hyphens, which the US writes month first. */
      gboolean day_first = pass->day_first || g_str_equal (sep, ".");

      if (!gap_is (pass, i, sep) || !gap_is (pass, i + 1, sep))
        continue;
      if ((gap_is (pass, i + 2, sep) && raw_at (pass, i + 3) != NULL && raw_at (pass, i + 3)->digits) ||
          (i > 0 && gap_is (pass, i - 1, sep) && raw_at (pass, i - 1)->digits))
        return 0;
      if (la == 4 && lb <= 2 && lc <= 2)
        {
          *year = atoi (a->text), *month = atoi (b->text), *day = atoi (c->text);
          return valid_date (*year, *month, *day) ? 3 + midnight_after (pass, i + 2) : 0;
        }
      if (lc != 4 || la > 2 || lb > 2)
        return 0;
      *year = atoi (c->text);
      x = atoi (a->text), y = atoi (b->text);
      /* The reading the setting asks for, else the only valid one. */
      *day = day_first ? x : y;
      *month = day_first ? y : x;
      if (valid_date (*year, *month, *day))
        return 3;
      *day = day_first ? y : x;
      *month = day_first ? x : y;
      return valid_date (*year, *month, *day) ? 3 : 0;
    }
  return 0;
}

/* Raw token @k goes on into more digits after a sign ("2021-05"). */
static gboolean
followed_by_digits (Pass  *pass,
                    guint  k)
{
  RawToken *next = raw_at (pass, k + 1);

  return next != NULL && next->digits && (gap_is (pass, k, "-") || gap_is (pass, k, "/") || gap_is (pass, k, "."));
}

/* "1 April 2023", "1st of April, 2023", "April 1, 2023", "Apr. 1st 2023",
 * "14-Sep-2021". */
static guint
read_word_date (Pass *pass,
                guint i,
                int  *year,
                int  *month,
                int  *day)
{
  RawToken *first = raw_at (pass, i);
  guint k = i;

  if ((*month = month_of (first->folded)) != 0)
    {
      if (!gap_is_loose (pass, k) || (*day = day_of (raw_at (pass, k + 1))) == 0 ||
          !gap_is_loose (pass, k + 1) || (*year = year_of (raw_at (pass, k + 2))) == 0)
        return 0;
      return valid_date (*year, *month, *day) ? 3 : 0;
    }
  /* "14-Sep-2021", "14/Sep/2021": the same sign on both sides */
  if ((*day = day_of (first)) != 0 && (gap_is (pass, k, "-") || gap_is (pass, k, "/")) &&
      (*month = month_of (raw_at (pass, k + 1) != NULL ? raw_at (pass, k + 1)->folded : "")) != 0 &&
      gap_is (pass, k + 1, gap_is (pass, k, "-") ? "-" : "/") && (*year = year_of (raw_at (pass, k + 2))) != 0 &&
      !followed_by_digits (pass, k + 2))
    return valid_date (*year, *month, *day) ? 3 : 0;
  if ((*day = day_of (first)) == 0 || !gap_is_loose (pass, k))
    return 0;
  k++;
  if (g_str_equal (raw_at (pass, k)->folded, "of") && gap_is_loose (pass, k))
    k++;
  if ((*month = month_of (raw_at (pass, k)->folded)) == 0 || !gap_is_loose (pass, k) ||
      (*year = year_of (raw_at (pass, k + 1))) == 0)
    return 0;
  return valid_date (*year, *month, *day) ? k + 2 - i : 0;
}

static guint
try_date (Pass *pass,
          guint i)
{
  GrammarMatchDate date = { GRAMMAR_DATE_PRECISION_DAY };
  guint used;

  used = read_numeric_date (pass, i, &date.year, &date.month, &date.day);
  if (used == 0)
    used = read_word_date (pass, i, &date.year, &date.month, &date.day);
  if (used == 0)
    return 0;

  date.start = raw_at (pass, i)->start;
  date.end = raw_at (pass, i + used - 1)->end;
  emit_number (pass, date.year, date.start, date.end);
  emit_number (pass, date.month, date.start, date.end);
  emit_number (pass, date.day, date.start, date.end);
  g_array_append_val (pass->dates, date);
  return used;
}

/* Where the minus sign of the number at raw token @i is, or -1: "-"
 * right before the digits, or before a currency sign that precedes
 * them ("-$250"), after a space, "(" or the start of the text (not
 * "1990-2000"); or the offset of a time zone ("UTC-5", "GMT-3"). */
static gssize
minus_sign (Pass  *pass,
            guint  i)
{
  const char *base = pass->base;
  gsize start = raw_at (pass, i)->start;
  gsize sign;

  if (start == 0)
    return -1;
  sign = start - 1;
  if (base[sign] != '-')
    {
      const char *prev = g_utf8_find_prev_char (base, base + start);
      gunichar c = prev != NULL ? g_utf8_get_char (prev) : 0;

      if (prev == NULL || g_unichar_type (c) != G_UNICODE_CURRENCY_SYMBOL || prev == base || prev[-1] != '-')
        return -1;
      sign = (gsize) (prev - base) - 1;
    }
  if (i > 0 && sign == raw_at (pass, i - 1)->end && sign + 1 == start &&
      (g_str_equal (raw_at (pass, i - 1)->folded, "utc") || g_str_equal (raw_at (pass, i - 1)->folded, "gmt")))
    return (gssize) sign;
  if (sign == 0 || base[sign - 1] == ' ' || base[sign - 1] == '(' || base[sign - 1] == '\n' ||
      base[sign - 1] == '\t')
    return (gssize) sign;
  return -1;
}

static gboolean
is_negative (Pass  *pass,
             guint  i)
{
  return minus_sign (pass, i) >= 0;
}

/* "2.350,00", "18 450,75": groups of three digits after a dot or a
 * space, then a decimal comma and one or two digits, as much of Europe
 * writes numbers; the raw token of the fraction, or 0. Without a group
 * ("12,50") the comma stays a separator: "1,5" may be a list. */
static guint
european_fraction (Pass  *pass,
                   guint  i)
{
  static const char * const separators[] = { ".", " " };
  RawToken *token = raw_at (pass, i);

  if (strlen (token->text) > 3)
    return 0;
  for (gsize s = 0; s < G_N_ELEMENTS (separators); s++)
    {
      guint k = i;
      RawToken *last;

      while (gap_is (pass, k, separators[s]) && raw_at (pass, k + 1) != NULL && raw_at (pass, k + 1)->digits &&
             strlen (raw_at (pass, k + 1)->text) == 3)
        k++;
      if (k == i || !gap_is (pass, k, ",") || (last = raw_at (pass, k + 1)) == NULL || !last->digits ||
          strlen (last->text) > 2 ||
          (raw_at (pass, k + 2) != NULL && raw_at (pass, k + 2)->digits &&
           (gap_is (pass, k + 1, ",") || gap_is (pass, k + 1, "."))))
        continue;
      return k + 1;
    }
  return 0;
}

/* Digits, "1,000" groups and a ".5" fraction, as one canonical number. */
static guint
read_number (Pass *pass,
             guint i)
{
  GString *integer = g_string_new (raw_at (pass, i)->text);
  const char *fraction = "";
  g_autofree char *fraction_kept = NULL;
  GString *text = g_string_new (NULL);
  gsize start = raw_at (pass, i)->start;
  guint k = i;
  gsize skip = 0, length;
  guint european = european_fraction (pass, i);

  if (european > 0)
    {
      while (k + 1 < european)
        g_string_append (integer, raw_at (pass, ++k)->text);
      fraction = raw_at (pass, ++k)->text;
    }
  else if (integer->len <= 3)
    while (gap_is (pass, k, ",") && raw_at (pass, k + 1) != NULL && raw_at (pass, k + 1)->digits &&
           strlen (raw_at (pass, k + 1)->text) == 3)
      g_string_append (integer, raw_at (pass, ++k)->text);
  if (european == 0 && gap_is (pass, k, ".") && raw_at (pass, k + 1) != NULL && raw_at (pass, k + 1)->digits &&
      !(gap_is (pass, k + 1, ".") && raw_at (pass, k + 2) != NULL && raw_at (pass, k + 2)->digits))
    fraction = raw_at (pass, ++k)->text;

  while (skip + 1 < integer->len && integer->str[skip] == '0')
    skip++;
  fraction_kept = g_strdup (fraction);
  length = strlen (fraction_kept);
  while (length > 0 && fraction_kept[length - 1] == '0')
    fraction_kept[--length] = '\0';

  if (is_negative (pass, i) && !(g_str_equal (integer->str + skip, "0") && length == 0))
    {
      g_string_append_c (text, '-');
      start = (gsize) minus_sign (pass, i);
    }
  g_string_append (text, integer->str + skip);
  if (length > 0)
    g_string_append_printf (text, ".%s", fraction_kept);
  emit (pass, text->str, start, raw_at (pass, k)->end, GRAMMAR_MATCH_TOKEN_NUMBER);
  g_string_free (text, TRUE);
  g_string_free (integer, TRUE);
  return k + 1 - i;
}

static int
number_word (const char *folded)
{
  static const char * const small[] = {
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
  };
  static const char * const tens[] = { "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety" };

  for (gsize i = 0; i < G_N_ELEMENTS (small); i++)
    if (g_str_equal (folded, small[i]))
      return (int) i;
  for (gsize i = 0; i < G_N_ELEMENTS (tens); i++)
    if (g_str_equal (folded, tens[i]))
      return 30 + 10 * (int) i;
  return -1;
}

/* "four", "twenty-one", "thirty five"; not "one of the largest". */
static guint
try_number_words (Pass *pass,
                  guint i)
{
  RawToken *token = raw_at (pass, i);
  RawToken *next = raw_at (pass, i + 1);
  int value = number_word (token->folded);
  int unit;

  if (value < 0)
    return 0;
  if (value == 1 && next != NULL && g_str_equal (next->folded, "of"))
    return 0;
  if (value >= 20 && value % 10 == 0 && next != NULL && (gap_is (pass, i, "-") || gap_is (pass, i, " ")) &&
      (unit = number_word (next->folded)) >= 1 && unit <= 9)
    {
      emit_number (pass, value + unit, token->start, next->end);
      return 2;
    }
  emit_number (pass, value, token->start, token->end);
  return 1;
}

static gboolean
is_vowel (char c)
{
  return strchr ("aeiouy", c) != NULL;
}

/* A light English stemmer: enough that the forms a response and a
 * database value use for the same word meet (plural, -ing, final -e),
 * not a full Porter stemmer, which also merges words that differ. */
static void
stem (GString *word)
{
  gsize n = word->len;
  const char *w = word->str;

  for (gsize i = 0; i < n; i++)
    if (!g_ascii_islower (w[i]))
      return;

  if (n > 4 && g_str_has_suffix (w, "ies"))
    g_string_append_c (g_string_truncate (word, n - 3), 'y');
  else if (g_str_has_suffix (w, "sses"))
    g_string_truncate (word, n - 2);
  else if (n > 4 && g_str_has_suffix (w, "es") &&
           (strchr ("sxz", w[n - 3]) != NULL || g_str_has_suffix (w, "ches") || g_str_has_suffix (w, "shes")))
    g_string_truncate (word, n - 2);
  else if (n > 3 && w[n - 1] == 's' && w[n - 2] != 's' && w[n - 2] != 'u' && w[n - 2] != 'i')
    g_string_truncate (word, n - 1);

  n = word->len;
  w = word->str;
  if (n > 5 && g_str_has_suffix (w, "ing"))
    {
      gsize kept = n - 3;

      if (kept > 2 && w[kept - 1] == w[kept - 2] && !is_vowel (w[kept - 1]) && strchr ("lsz", w[kept - 1]) == NULL)
        kept--;
      /* Short stems keep their -ing: banking is not a bank, nor
       * shipping a ship; retailing is retail. */
      if (kept >= 5)
        g_string_truncate (word, kept);
    }
  if (word->len > 3 && word->str[word->len - 1] == 'e')
    g_string_truncate (word, word->len - 1);
}

static void
emit_word (Pass     *pass,
           RawToken *token)
{
  g_autofree char *composed = g_utf8_normalize (token->folded, -1, G_NORMALIZE_NFKC);
  GString *word = g_string_new (composed);

  stem (word);
  emit (pass, word->str, token->start, token->end, token->upper ? GRAMMAR_MATCH_TOKEN_UPPER : 0);
  g_string_free (word, TRUE);
}

/* ---- dates at a coarser precision ---- */

/* Raw token @k and the next one are joined by a loose gap or a dash:
 * "Q2 2024", "Q2, 2024", "2024-Q2", "fourth-quarter". */
static gboolean
gap_joins (Pass  *pass,
           guint  k)
{
  return gap_is_loose (pass, k) || gap_is (pass, k, "-");
}

static gboolean
is_number_separator (Pass  *pass,
                     guint  k)
{
  return gap_is (pass, k, "-") || gap_is (pass, k, "/") || gap_is (pass, k, ".");
}

/* Raw token @k goes on into another number: "2024-06-15", "2024.5". */
static gboolean
followed_by_number (Pass  *pass,
                    guint  k)
{
  RawToken *next = raw_at (pass, k + 1);

  return next != NULL && next->digits && is_number_separator (pass, k);
}

static gboolean
preceded_by_number (Pass  *pass,
                    guint  k)
{
  return k > 0 && raw_at (pass, k - 1)->digits && is_number_separator (pass, k - 1);
}

/* The year that closes a coarse date: four digits that do not go on. */
static int
year_at (Pass  *pass,
         guint  k)
{
  return followed_by_number (pass, k) ? 0 : year_of (raw_at (pass, k));
}

/* "2005-06", "2023/24", "2023-2024": @year, then a dash or a slash and
 * the next year in two or four digits, a span of years. */
static gboolean
is_year_span (int       year,
              RawToken *next)
{
  gsize length = strlen (next->text);
  int value = atoi (next->text);

  return next->digits && ((length == 2 && value == (year + 1) % 100) || (length == 4 && value == year + 1));
}

/* The raw token that comes after @k across a joining gap and an
 * optional "of" ("June of 2024"), or 0 when none does. */
static guint
after_of (Pass  *pass,
          guint  k)
{
  RawToken *next = raw_at (pass, k + 1);

  if (next == NULL || !gap_joins (pass, k))
    return 0;
  if (g_str_equal (next->folded, "of") && raw_at (pass, k + 2) != NULL && gap_joins (pass, k + 1))
    return k + 2;
  return k + 1;
}

/* "Q2": a "q" and one digit from 1 to 4 stuck to it; 0 otherwise. */
static int
quarter_at (Pass  *pass,
            guint  k)
{
  RawToken *q = raw_at (pass, k), *digit = raw_at (pass, k + 1);

  if (q == NULL || digit == NULL || !g_str_equal (q->folded, "q") || !gap_is (pass, k, "") ||
      !digit->digits || strlen (digit->text) != 1 || digit->text[0] < '1' || digit->text[0] > '4')
    return 0;
  return digit->text[0] - '0';
}

/* "second", "2nd": the number of a quarter; 0 otherwise. */
static int
quarter_ordinal (RawToken *token)
{
  static const char * const words[] = { "first", "second", "third", "fourth" };
  int value;

  for (gsize i = 0; i < G_N_ELEMENTS (words); i++)
    if (g_str_equal (token->folded, words[i]))
      return (int) i + 1;
  value = token->ordinal ? atoi (token->text) : 0;
  return value >= 1 && value <= 4 ? value : 0;
}

static int
season_of (const char *folded)
{
  static const struct { const char *name; GrammarSeason season; } seasons[] = {
    { "spring", GRAMMAR_SEASON_SPRING }, { "summer", GRAMMAR_SEASON_SUMMER },
    { "autumn", GRAMMAR_SEASON_AUTUMN }, { "fall", GRAMMAR_SEASON_AUTUMN }, { "winter", GRAMMAR_SEASON_WINTER },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (seasons); i++)
    if (g_str_equal (folded, seasons[i].name))
      return (int) seasons[i].season;
  return -1;
}

/* "2024-06", "2024/06", "06/2024", "6/2024": two numbers that are no
 * part of a longer chain, nor a span of years ("2005-06"). */
static guint
read_numeric_month (Pass             *pass,
                    guint             i,
                    GrammarMatchDate *date)
{
  RawToken *a = raw_at (pass, i), *b = raw_at (pass, i + 1);
  gsize la, lb;

  if (b == NULL || !a->digits || !b->digits || preceded_by_number (pass, i) || followed_by_number (pass, i + 1))
    return 0;
  la = strlen (a->text), lb = strlen (b->text);
  if (la == 4 && lb <= 2 && (gap_is (pass, i, "-") || gap_is (pass, i, "/")) && !is_year_span (atoi (a->text), b))
    date->year = atoi (a->text), date->month = atoi (b->text);
  else if (la <= 2 && lb == 4 && gap_is (pass, i, "/"))
    date->month = atoi (a->text), date->year = atoi (b->text);
  else
    return 0;
  date->precision = GRAMMAR_DATE_PRECISION_MONTH;
  return date->year >= 1 && date->month >= 1 && date->month <= 12 ? 2 : 0;
}

/* "June 2024", "Jun. 2024", "June of 2024". */
static guint
read_word_month (Pass             *pass,
                 guint             i,
                 GrammarMatchDate *date)
{
  guint k;

  if ((date->month = month_of (raw_at (pass, i)->folded)) == 0 || (k = after_of (pass, i)) == 0 ||
      (date->year = year_at (pass, k)) == 0)
    return 0;
  date->precision = GRAMMAR_DATE_PRECISION_MONTH;
  return k + 1 - i;
}

/* "Q2 2024", "Q2 of 2024", "2024 Q2", "2024-Q2", "second quarter of
 * 2024", "2nd quarter 2024". */
static guint
read_quarter (Pass             *pass,
              guint             i,
              GrammarMatchDate *date)
{
  RawToken *next = raw_at (pass, i + 1);
  guint k = 0;

  date->precision = GRAMMAR_DATE_PRECISION_QUARTER;
  if ((date->year = year_at (pass, i)) != 0 && !preceded_by_number (pass, i) && gap_joins (pass, i) &&
      (date->quarter = quarter_at (pass, i + 1)) != 0)
    return 3;
  if ((date->quarter = quarter_at (pass, i)) != 0)
    k = after_of (pass, i + 1);
  else if ((date->quarter = quarter_ordinal (raw_at (pass, i))) != 0 && next != NULL &&
           g_str_equal (next->folded, "quarter") && gap_joins (pass, i))
    k = after_of (pass, i + 1);
  if (k == 0 || (date->year = year_at (pass, k)) == 0)
    return 0;
  return k + 1 - i;
}

/* "spring 2023", "the summer of 2023", "winter 2023-24" (the winter
 * that ends in 2024: a span of years gives the second one, and only to
 * the seasons that run across the new year). */
static guint
read_season (Pass             *pass,
             guint             i,
             GrammarMatchDate *date)
{
  int season = season_of (raw_at (pass, i)->folded);
  guint k;

  if (season < 0 || (k = after_of (pass, i)) == 0 || (date->year = year_of (raw_at (pass, k))) == 0)
    return 0;
  date->precision = GRAMMAR_DATE_PRECISION_SEASON;
  date->season = (GrammarSeason) season;
  if (!followed_by_number (pass, k))
    return k + 1 - i;
  /* Which season runs across the new year depends on the hemisphere,
   * the matcher's setting: grammar_match_date_contains() checks it. */
  if (!(gap_is (pass, k, "-") || gap_is (pass, k, "/")) || !is_year_span (date->year, raw_at (pass, k + 1)) ||
      followed_by_number (pass, k + 1))
    return 0;
  date->year++;
  date->across_years = TRUE;
  return k + 2 - i;
}

/* "2024": a year alone, four digits from 1000 that are no part of a
 * longer number, date or span of years ("2023-24", "2023-2024"), nor
 * stuck to a word ("FY2024", a fiscal year). */
static guint
read_year (Pass             *pass,
           guint             i,
           GrammarMatchDate *date)
{
  if ((date->year = year_at (pass, i)) < 1000 || preceded_by_number (pass, i) || is_negative (pass, i) ||
      (i > 0 && gap_is (pass, i - 1, "")) || (raw_at (pass, i + 1) != NULL && gap_is (pass, i, "")))
    return 0;
  date->precision = GRAMMAR_DATE_PRECISION_YEAR;
  return 1;
}

/* A token that is no date: a number, an ordinal, number words or a word. */
static guint
read_plain (Pass  *pass,
            guint  i)
{
  RawToken *token = raw_at (pass, i);
  guint used;

  if (token->digits)
    return read_number (pass, i);
  if (token->ordinal)
    {
      emit_number (pass, g_ascii_strtoll (token->text, NULL, 10), token->start, token->end);
      return 1;
    }
  if ((used = try_number_words (pass, i)) > 0)
    return used;
  emit_word (pass, token);
  return 1;
}

/* A date coarser than a day: its raw tokens give their ordinary tokens
 * and the date is listed beside them. */
static guint
try_coarse_date (Pass *pass,
                 guint i)
{
  GrammarMatchDate date = { 0 };
  guint span, k;

  span = read_numeric_month (pass, i, &date);
  if (span == 0)
    span = read_word_month (pass, i, &date);
  if (span == 0)
    span = read_quarter (pass, i, &date);
  if (span == 0)
    span = read_season (pass, i, &date);
  if (span == 0)
    span = read_year (pass, i, &date);
  if (span == 0)
    return 0;

  date.start = raw_at (pass, i)->start;
  date.end = raw_at (pass, i + span - 1)->end;
  for (k = i; k < i + span; )
    k += read_plain (pass, k);
  g_array_append_val (pass->dates, date);
  return k - i;
}

void
grammar_match_token_clear (GrammarMatchToken *token)
{
  g_clear_pointer (&token->text, g_free);
}

/**
 * grammar_match_tokens_new:
 *
 * Returns: (transfer full): an empty array of #GrammarMatchToken that
 *   frees its tokens
 */
GArray *
grammar_match_tokens_new (void)
{
  GArray *tokens = g_array_new (FALSE, TRUE, sizeof (GrammarMatchToken));

  g_array_set_clear_func (tokens, (GDestroyNotify) grammar_match_token_clear);
  return tokens;
}

/**
 * grammar_match_tokenize:
 * @base: a base text, from grammar_match_base()
 * @day_first: read "01/04/2023" as 1 April rather than 4 January
 * @dates: (out) (optional) (element-type GrammarMatchDate): the dates
 *   of @base, in order: its full dates and its dates at a coarser
 *   precision
 *
 * Returns: (transfer full): the tokens of @base, in order
 */
GArray *
grammar_match_tokenize (const char  *base,
                        gboolean     day_first,
                        GArray     **dates)
{
  Pass pass = { base, raw_tokenize (base), grammar_match_tokens_new (),
                g_array_new (FALSE, TRUE, sizeof (GrammarMatchDate)), day_first };
  guint i = 0;

  while (i < pass.raw->len)
    {
      guint used;

      if (is_list_number (&pass, i))
        used = 1;
      else if ((used = try_date (&pass, i)) > 0)
        ;
      else if ((used = try_coarse_date (&pass, i)) > 0)
        ;
      else
        used = read_plain (&pass, i);
      i += used;
    }
  g_array_unref (pass.raw);
  if (dates != NULL)
    *dates = pass.dates;
  else
    g_array_unref (pass.dates);
  return pass.tokens;
}
