/* test-matchers.c: the `exact`, `contains`, `f1` and `llm-judge` matchers
 *
 * Every matcher is built through a GrammarConfig keyfile, as users do,
 * and judges hand-made records: numbers, dates, aliases (built in and
 * from a file), word boundaries, refusals, several rows, diacritics and
 * other scripts, quotes. `llm-judge` talks to tests/fake-openai, whose
 * rules reply according to the response in the prompt.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include <grammar.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "grammar-test-util.h"

#define SECRET "sk-test-JUDGE-SECRET"
#define KEY_ENV "GRAMMAR_TEST_JUDGE_KEY"

static char *tmpdir;

/* ---- building ---- */

static GObject *
build_full (const char  *keyfile,
            const char  *section,
            GError     **error)
{
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (keyfile, -1, tmpdir, error);

  g_assert_nonnull (config);
  return grammar_config_build (config, section, GRAMMAR_TYPE_MATCHER, error);
}

/* A [matcher] section of @plugin with @extra lines. */
static GrammarMatcher *
build_matcher (const char *plugin,
               const char *extra)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *keyfile = g_strdup_printf ("[matcher]\nplugin=%s\n%s", plugin, extra != NULL ? extra : "");
  GObject *matcher = build_full (keyfile, "matcher", &error);

  g_assert_no_error (error);
  g_assert_true (GRAMMAR_IS_MATCHER (matcher));
  return GRAMMAR_MATCHER (matcher);
}

static GrammarRecord *
make_record (const char *query,
             const char *answer_json,
             const char *response)
{
  GrammarRecord *record = grammar_record_new ();
  g_autoptr (GError) error = NULL;

  grammar_record_set_id (record, "r1");
  if (query != NULL)
    grammar_record_set_text (record, query);
  if (answer_json != NULL)
    {
      g_autoptr (JsonNode) answer = json_from_string (answer_json, &error);

      g_assert_no_error (error);
      grammar_record_set_answer (record, answer);
    }
  grammar_record_set_response (record, response);
  return record;
}

static GrammarVerdict *
judge (GrammarMatcher *matcher,
       GrammarRecord  *record)
{
  g_autoptr (GError) error = NULL;
  GrammarVerdict *verdict = grammar_matcher_judge (matcher, record, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (verdict);
  return verdict;
}

typedef struct
{
  const char *answer;     /* JSON */
  const char *response;
  GrammarVerdictKind kind;
  const char *reason;     /* a part of the reason, or NULL */
  const char *query;      /* or NULL */
} Case;

#define C GRAMMAR_VERDICT_CORRECT
#define I GRAMMAR_VERDICT_INCORRECT
#define U GRAMMAR_VERDICT_UNMEASURED

static void
check_cases (GrammarMatcher *matcher,
             const char     *name,
             const Case     *cases,
             gsize           n_cases)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      g_autoptr (GrammarRecord) record = make_record (cases[i].query, cases[i].answer, cases[i].response);
      g_autoptr (GrammarVerdict) verdict = judge (matcher, record);

      if (grammar_verdict_get_kind (verdict) != cases[i].kind)
        g_error ("case %" G_GSIZE_FORMAT ": answer %s, response “%s”: %s expected, got %s (%s)", i,
                 cases[i].answer, cases[i].response, grammar_verdict_kind_to_string (cases[i].kind),
                 grammar_verdict_kind_to_string (grammar_verdict_get_kind (verdict)),
                 grammar_verdict_get_reason (verdict));
      g_assert_cmpstr (grammar_verdict_get_matcher (verdict), ==, name);
      if (cases[i].reason != NULL)
        grammar_test_assert_contains (grammar_verdict_get_reason (verdict), cases[i].reason);
    }
}

static void
check (const char *plugin,
       const char *extra,
       const Case *cases,
       gsize       n_cases)
{
  g_autoptr (GrammarMatcher) matcher = build_matcher (plugin, extra);

  check_cases (matcher, plugin, cases, n_cases);
}

/* ---- contains ---- */

static void
test_contains_basic (void)
{
  static const Case cases[] = {
    { "[[\"Oil and gas\"]]", "EnergySphere is in the oil and gas industry.", C, "found “Oil and gas”" },
    { "[[\"Oil and gas\"]]", "EnergySphere makes cars.", I, "missing “Oil and gas”" },
    /* the light stemmer: plurals, -ing on long stems, a final -e */
    { "[[\"Retailing\"]]", "SuperStore is in the retail sector.", C, NULL },
    { "[[\"Industries\"]]", "It has one industry.", C, NULL },
    { "[[\"Banking\"]]", "Empire is a bank.", I, NULL },
    { "[[\"Manufacture\"]]", "They work in manufacturing.", C, NULL },
  };
  check ("contains", NULL, cases, G_N_ELEMENTS (cases));
}

static void
test_contains_numbers (void)
{
  static const Case cases[] = {
    { "[[433.5]]", "Sales were $433.50 billion.", C, NULL },
    { "[[\"433.50\"]]", "Sales were 433.5 billion.", C, NULL },
    { "[[433.5]]", "Sales were 433.55 billion.", I, "missing “433.5”" },
    { "[[1000]]", "It has 1,000 employees.", C, NULL },
    { "[[\"1,000\"]]", "It has 1000 employees.", C, NULL },
    { "[[1.0]]", "He served 1 year.", C, NULL },
    { "[[3]]", "He served 3.0 years.", C, NULL },
    { "[[3]]", "He served 13 years.", I, NULL },
    { "[[3]]", "Version 3.1 is out.", I, NULL },
    { "[[4]]", "He worked there for four years.", C, NULL },
    { "[[21]]", "It has twenty-one branches.", C, NULL },
    { "[[35]]", "It has thirty five branches.", C, NULL },
    { "[[-3]]", "The change was -3 points.", C, NULL },
    { "[[3]]", "The change was -3 points.", I, NULL },
    { "[[1]]", "It is one of the largest banks.", I, NULL },
    { "[[7]]", "It was ranked 7th.", C, NULL },
    { "[[7]]", "Room 007.", C, NULL },
    /* list numbering is not a value */
    { "[[2]]", "Steps:\n1. Visit the website.\n2. Call them.", I, NULL },
    { "[[2]]", "2.", C, NULL },
  };
  check ("contains", "refusals=false\n", cases, G_N_ELEMENTS (cases));
}

static void
test_contains_dates (void)
{
  static const Case month_first[] = {
    { "[[\"2023-04-01\"]]", "It started on April 1, 2023.", C, NULL },
    { "[[\"2023-04-01\"]]", "It started on the 1st of April, 2023.", C, NULL },
    { "[[\"2023-04-01\"]]", "It started on 1 April 2023.", C, NULL },
    { "[[\"2023-04-01\"]]", "It started on Apr. 1st 2023.", C, NULL },
    { "[[\"2023-04-01\"]]", "It started on 2023/04/01.", C, NULL },
    { "[[\"2023-04-01\"]]", "It started on 04/01/2023.", C, NULL },
    { "[[\"2023-04-01\"]]", "It started on 01/04/2023.", I, NULL },
    { "[[\"2023-04-13\"]]", "It started on 13/04/2023.", C, NULL },   /* the only valid reading */
    { "[[\"2023-04-01 00:00:00\"]]", "It started on April 1, 2023.", C, NULL },
    { "[[\"2023-04-01T00:00:00Z\"]]", "It started on 2023-04-01.", C, NULL },
    { "[[\"April 1, 2023\"]]", "It started on 2023-04-01.", C, NULL },
    { "[[\"2023-04-01\"]]", "It started on April 2, 2023.", I, NULL },
    { "[[2023]]", "It started on April 1, 2023.", C, NULL },
    { "[[\"2023-04-01 10:30\"]]", "It started on April 1, 2023.", I, NULL },
  };
  static const Case day_first[] = {
    { "[[\"2023-04-01\"]]", "It started on 01/04/2023.", C, NULL },
    { "[[\"2023-04-01\"]]", "It started on 04/01/2023.", I, NULL },
    { "[[\"2023-04-01\"]]", "It started on 01.04.2023.", C, NULL },
    { "[[\"2023-12-25\"]]", "It started on 12/25/2023.", C, NULL },  /* the only valid reading */
    { "[[\"01/04/2023\"]]", "It started on April 1, 2023.", C, NULL },
  };
  check ("contains", NULL, month_first, G_N_ELEMENTS (month_first));
  check ("contains", "day-first=true\n", day_first, G_N_ELEMENTS (day_first));
}

/* A full date written at a coarser precision ("June 2024"): accepted
 * down to date-precision, when the coarser date contains it. */
#define D615 "[[\"2024-06-15\"]]"

static void
test_contains_date_precision (void)
{
  static const Case day[] = {
    { D615, "It opened on June 15, 2024.", C, "found “2024-06-15”" },
    { D615, "It opened in June 2024.", I, "missing “2024-06-15” (only at month precision: “June 2024”)" },
    { D615, "It opened in Q2 2024.", I, "(only at quarter precision: “Q2 2024”)" },
    { D615, "It opened in 2024.", I, "(only at year precision: “2024”)" },
    { D615, "It opened in May 2024.", I, "missing “2024-06-15”" },
    /* a year alone is still found in a date, as before */
    { "[[2024]]", "It opened in June 2024.", C, "found “2024”" },
    /* only a value that is a full date */
    { "[[\"June 2024\"]]", "It opened in 06/2024.", I, NULL },
  };
  static const Case month[] = {
    { D615, "It opened in June 2024.", C, "found “2024-06-15” at month precision (“June 2024”)" },
    { D615, "It opened in Jun 2024.", C, "at month precision (“Jun 2024”)" },
    { D615, "It opened in Jun. 2024.", C, NULL },
    { D615, "It opened in June of 2024.", C, "(“June of 2024”)" },
    { D615, "It opened in June, 2024.", C, NULL },
    { D615, "It opened in 06/2024.", C, "(“06/2024”)" },
    { D615, "It opened in 6/2024.", C, NULL },
    { D615, "It opened in 2024-06.", C, "(“2024-06”)" },
    { D615, "It opened in 2024/06.", C, NULL },
    { D615, "It opened on June 15, 2024.", C, "found “2024-06-15”" },
    /* containment */
    { D615, "It opened in May 2024.", I, "missing “2024-06-15”" },
    { D615, "It opened in June 2023.", I, NULL },
    { D615, "It opened in 07/2024.", I, NULL },
    /* coarser than allowed */
    { D615, "It opened in Q2 2024.", I, "(only at quarter precision: “Q2 2024”)" },
    { D615, "It opened in the summer of 2024.", I, "(only at season precision: “summer of 2024”)" },
    { D615, "It opened in 2024.", I, NULL },
    /* another day is never a match, nor a span of years, nor a date in a refusal */
    { D615, "It opened on June 14, 2024.", I, NULL },
    { D615, "It opened on 2024-06-14.", I, NULL },
    { "[[\"2005-06-10\"]]", "It won the 2005-06 season.", I, NULL },
    { D615, "I'm sorry, I could not find the opening date, only June 2024.", I, "refusal: " },
    { D615, "I could not find the exact day. It opened in June 2024.", C, "at month precision" },
    /* several values */
    { "[[\"Acme\", \"2024-06-15\"]]", "Acme opened in June 2024.", C,
      "found all 2 values, “2024-06-15” at month precision (“June 2024”)" },
    { "[[\"Acme\", \"2024-06-15\"]]", "Acme opened in July 2024.", I, "missing “2024-06-15” (1 of 2 values found)" },
  };
  static const Case quarter[] = {
    { D615, "It opened in Q2 2024.", C, "found “2024-06-15” at quarter precision (“Q2 2024”)" },
    { D615, "It opened in Q2, 2024.", C, NULL },
    { D615, "It opened in Q2 of 2024.", C, NULL },
    { D615, "It opened in 2024 Q2.", C, "(“2024 Q2”)" },
    { D615, "It opened in 2024-Q2.", C, "(“2024-Q2”)" },
    { D615, "It opened in the second quarter of 2024.", C, "(“second quarter of 2024”)" },
    { D615, "It opened in the 2nd quarter of 2024.", C, "(“2nd quarter of 2024”)" },
    { D615, "It opened in the fourth-quarter 2024 rush.", I, NULL },
    { "[[\"2024-11-02\"]]", "It opened in the fourth-quarter 2024 rush.", C, "(“fourth-quarter 2024”)" },
    { "[[\"2024-01-02\"]]", "It opened in 1st quarter 2024.", C, NULL },
    { D615, "It opened in June 2024.", C, "at month precision" },
    /* containment */
    { D615, "It opened in Q3 2024.", I, "missing “2024-06-15”" },
    { D615, "It opened in the first quarter of 2024.", I, NULL },
    { D615, "It opened in Q2 2023.", I, NULL },
    /* a season is not a quarter, nor a year */
    { D615, "It opened in the summer of 2024.", I, "(only at season precision: “summer of 2024”)" },
    { D615, "It opened in 2024.", I, NULL },
  };
  static const Case season_north[] = {
    { D615, "It opened in the summer of 2024.", C, "found “2024-06-15” at season precision (“summer of 2024”)" },
    { D615, "It opened in Summer 2024.", C, NULL },
    { D615, "It opened in the spring of 2024.", I, "missing “2024-06-15”" },
    { D615, "It opened in June 2024.", C, "at month precision" },
    { D615, "It opened in Q2 2024.", I, "(only at quarter precision: “Q2 2024”)" },
    { D615, "It opened in 2024.", I, NULL },
    { "[[\"2023-04-01\"]]", "It opened in spring 2023.", C, NULL },
    { "[[\"2023-10-05\"]]", "It opened in the fall of 2023.", C, NULL },
    { "[[\"2023-10-05\"]]", "It opened in autumn 2023.", C, NULL },
    { "[[\"2023-04-01\"]]", "It opened in the fall of 2023.", I, NULL },
    /* winter takes the year of its January: winter 2023 is Dec 2022 to Feb 2023 */
    { "[[\"2023-01-10\"]]", "It opened in winter 2023.", C, NULL },
    { "[[\"2022-12-20\"]]", "It opened in winter 2023.", C, NULL },
    { "[[\"2023-12-20\"]]", "It opened in winter 2023.", I, NULL },
    { "[[\"2023-01-10\"]]", "It opened in winter 2022.", I, NULL },
    { "[[\"2023-12-20\"]]", "It opened in winter 2024.", C, NULL },
    { "[[\"2023-12-20\"]]", "It opened in the winter of 2023-24.", C, "(“winter of 2023-24”)" },
    { "[[\"2024-02-20\"]]", "It opened in winter 2023/2024.", C, NULL },
    { "[[\"2024-01-15\"]]", "It opened in summer 2023-24.", I, NULL },
  };
  static const Case season_south[] = {
    { D615, "It opened in winter 2024.", C, "at season precision (“winter 2024”)" },
    { D615, "It opened in summer 2024.", I, NULL },
    { "[[\"2023-10-05\"]]", "It opened in spring 2023.", C, NULL },
    { "[[\"2023-04-01\"]]", "It opened in spring 2023.", I, NULL },
    { "[[\"2023-04-01\"]]", "It opened in autumn 2023.", C, NULL },
    /* summer takes the year of its January: summer 2024 is Dec 2023 to Feb 2024 */
    { "[[\"2024-01-15\"]]", "It opened in summer 2024.", C, NULL },
    { "[[\"2023-12-15\"]]", "It opened in summer 2024.", C, NULL },
    { "[[\"2024-12-15\"]]", "It opened in summer 2024.", I, NULL },
    { "[[\"2024-01-15\"]]", "It opened in summer 2023-24.", C, NULL },
    { "[[\"2024-01-15\"]]", "It opened in winter 2023-24.", I, NULL },
  };
  static const Case year[] = {
    { D615, "It opened in 2024.", C, "found “2024-06-15” at year precision (“2024”)" },
    { D615, "It opened in 2023.", I, "missing “2024-06-15”" },
    { D615, "It opened in June 2024.", C, "at month precision" },
    { D615, "It opened in Q2 2024.", C, "at quarter precision" },
    { D615, "It opened in summer 2024.", C, "at season precision" },
    /* the finest of several */
    { D615, "It opened in 2024, in June 2024.", C, "at month precision (“June 2024”)" },
    /* a coarser date that does not contain it says another month */
    { D615, "It opened in May 2024.", I, NULL },
    { D615, "It opened in Q3 2024.", I, NULL },
    { D615, "It opened on June 14, 2024.", I, NULL },
    /* a span of years, a longer number */
    { D615, "It opened in the 2023-24 season.", I, NULL },
    { D615, "It opened in the 2023-2024 season.", I, NULL },
    { D615, "It scored 2024.5 points.", I, NULL },
    { D615, "It reported its FY2024 results.", I, NULL },
    /* a name the query quotes is masked */
    { D615, "The 2024 Fund opened in 2023.", I, NULL, "When did 'The 2024 Fund' open?" },
    { D615, "The 2024 Fund opened in 2024.", C, NULL, "When did 'The 2024 Fund' open?" },
  };
  check ("contains", NULL, day, G_N_ELEMENTS (day));
  check ("contains", "date-precision=day\n", day, G_N_ELEMENTS (day));
  check ("contains", "date-precision=month\n", month, G_N_ELEMENTS (month));
  check ("contains", "date-precision=month\nday-first=true\n", month, G_N_ELEMENTS (month));
  check ("contains", "date-precision=quarter\n", quarter, G_N_ELEMENTS (quarter));
  check ("contains", "date-precision=season\n", season_north, G_N_ELEMENTS (season_north));
  check ("contains", "date-precision=season\nhemisphere=north\n", season_north, G_N_ELEMENTS (season_north));
  check ("contains", "date-precision=season\nhemisphere=south\n", season_south, G_N_ELEMENTS (season_south));
  check ("contains", "date-precision=year\n", year, G_N_ELEMENTS (year));
}

static void
test_contains_aliases (void)
{
  static const Case builtin[] = {
    { "[[\"USA\"]]", "It is based in the United States of America.", C, NULL },
    { "[[\"USA\"]]", "It is based in the U.S.", C, NULL },
    { "[[\"United States\"]]", "Brad Lohaus is an American former basketball player.", C, NULL },
    { "[[\"UK\"]]", "The headquarters are in Britain.", C, NULL },
    { "[[\"United Kingdom\"]]", "It is a British bank.", C, NULL },
    { "[[\"Netherlands\"]]", "It is a Dutch company.", C, NULL },
    { "[[\"Netherlands\"]]", "It sailed with Holland America Line.", C, NULL },
    { "[[\"Procter & Gamble\"]]", "It is Procter and Gamble.", C, NULL },
    /* a name in capitals only matches capitals */
    { "[[\"US\"]]", "Please contact us.", I, NULL },
    { "[[\"USA\"]]", "It is based in South America.", I, NULL },
    { "[[\"USA\"]]", "It is based in Canada.", I, "missing “USA”" },
  };
  static const Case none[] = {
    { "[[\"USA\"]]", "It is based in the United States.", I, NULL },
  };
  static const Case from_file[] = {
    { "[[\"New York City\"]]", "It is based in the Big Apple.", C, NULL },
    { "[[\"NYC\"]]", "It is based in New York City.", C, NULL },
    { "[[\"NYC\"]]", "It is based in nyc.", I, NULL },
    { "[[\"USA\"]]", "It is based in Murica.", C, NULL },   /* merged with the built-in set */
    { "[[\"USA\"]]", "It is based in the United States.", C, NULL },
    /* a single name keeps its phrase whole */
    { "[[\"Netherlands\"]]", "It sailed with Holland America Line.", I, NULL },
    { "[[\"Netherlands\"]]", "It sailed from Holland.", C, NULL },
  };
  g_autofree char *file = grammar_test_write_file (tmpdir, "aliases.txt",
                                                   "# my aliases\n\nNew York City | Big Apple|NYC\n"
                                                   "United States|Murica\n# a phrase kept whole\nHolland America Line\n");

  check ("contains", NULL, builtin, G_N_ELEMENTS (builtin));
  check ("contains", "builtin-aliases=false\n", none, G_N_ELEMENTS (none));
  /* relative to the keyfile's folder */
  check ("contains", "aliases=aliases.txt\n", from_file, G_N_ELEMENTS (from_file));
}

static void
test_contains_word_boundaries (void)
{
  static const Case cases[] = {
    { "[[\"US\"]]", "It is a business.", I, NULL },
    { "[[\"art\"]]", "It was a party.", I, NULL },
    { "[[\"Iowa\"]]", "He went to Iowa State.", C, NULL },
    { "[[\"Oil\"]]", "It sells oil-based paint.", C, NULL },
    { "[[\"New York\"]]", "It is in New Yorkshire.", I, NULL },
  };
  check ("contains", NULL, cases, G_N_ELEMENTS (cases));
}

static void
test_contains_refusals (void)
{
  static const Case on[] = {
    { "[[\"Banking\"]]",
      "I'm sorry, but I couldn't find any information about Greenfield Bank. It may be a player in the banking "
      "industry.", I, "refusal: I'm sorry" },
    { "[[\"Oil and gas\"]]", "The provided text does not mention the industry of NordGas.", I,
      "refusal: The provided text does not mention" },
    { "[[\"Oil and gas\"]]", "There is no information about oil and gas companies named NordGas.", I, "refusal" },
    { "[[\"Oil and gas\"]]", "The industry of NordGas is not provided in the oil and gas report.", I, "refusal" },
    { "[[\"Oil and gas\"]]", "As an AI, I cannot determine whether NordGas is in oil and gas.", I, "refusal" },
    /* an answer after the refusal counts */
    { "[[\"UK\"]]",
      "I don't have access to your database. However, the text says that Empire Bank is headquartered in the "
      "United Kingdom.", C, NULL },
    { "[[\"UK\"]]", "The main office is in the United Kingdom. The street address is not provided.", C, NULL },
    /* a guess without a refusal is an answer */
    { "[[\"Banking\"]]", "It is probably in the banking industry.", C, NULL },
    /* words of refusal inside an answer */
    { "[[\"Oil and gas\"]]", "The company, which is not publicly listed, is in oil and gas.", C, NULL },
    { "[[\"Unknown\"]]", "The status of the project is unknown.", C, NULL },
    { "[[\"Not available\"]]", "The phone number is not available.", C, NULL },
    /* advice counts against a refusing response */
    { "[[\"Conglomerate\"]]",
      "The text does not explicitly mention its sector. It would be best to read news about the conglomerate.",
      I, "refusal" },
  };
  static const Case off[] = {
    { "[[\"Banking\"]]",
      "I'm sorry, but I couldn't find any information about Greenfield Bank. It may be a player in the banking "
      "industry.", C, NULL },
  };
  check ("contains", NULL, on, G_N_ELEMENTS (on));
  check ("contains", "refusals=false\n", off, G_N_ELEMENTS (off));
}

static void
test_contains_rows (void)
{
  static const Case cases[] = {
    { "[[\"Alice\", 30], [\"Bob\", 25]]", "Alice (30) and Bob (25).", C, "found all 4 values" },
    { "[[\"Alice\", 30], [\"Bob\", 25]]", "Alice is 30.", I, "missing “Bob” (2 of 4 values found)" },
    { "[[\"Alice\", null]]", "Alice.", C, "found “Alice”" },
    { "[[true]]", "That is true.", C, NULL },
  };
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);
  g_autoptr (GrammarRecord) record = make_record (NULL, "[[\"Alice\", 30], [\"Bob\", 25]]", "Bob is 25; Carol.");
  g_autoptr (GrammarVerdict) verdict = judge (matcher, record);

  check_cases (matcher, "contains", cases, G_N_ELEMENTS (cases));
  g_assert_cmpfloat_with_epsilon (grammar_verdict_get_score (verdict), 0.5, 1e-9);
  g_assert_cmpstr (grammar_verdict_get_reason (verdict), ==, "missing “Alice” (2 of 4 values found)");
}

static void
test_contains_unicode (void)
{
  static const Case cases[] = {
    { "[[\"Zürich\"]]", "The office is in ZURICH.", C, NULL },
    { "[[\"Sao Paulo\"]]", "The office is in São Paulo.", C, NULL },
    { "[[\"Ærøskøbing\"]]", "The office is in Aeroskobing.", C, NULL },
    { "[[\"Straße\"]]", "The office is on STRASSE 5.", C, NULL },
    { "[[\"北京\"]]", "总部位于北京。", C, NULL },
    { "[[\"上海\"]]", "总部位于北京。", I, NULL },
    { "[[123]]", "The code is １２３.", C, NULL },
    { "[[\"Wisconsin–Stevens Point\"]]", "He studied at Wisconsin-Stevens Point.", C, NULL },
    { "[[\"ﬁnance\"]]", "It works in finance.", C, NULL },
  };
  check ("contains", NULL, cases, G_N_ELEMENTS (cases));
}

static void
test_contains_quotes (void)
{
  static const Case cases[] = {
    { "[[\"O'Brien\"]]", "The manager is Mr. O’Brien.", C, NULL },
    { "[[\"O'Brien\"]]", "The manager is Mr. Obrien.", C, NULL },
    { "[[\"“Blue”\"]]", "It is called \"Blue\".", C, NULL },
    { "[[\"—\"]]", "The value is — as shown.", C, NULL },
    /* the names the query asks about are not answers */
    { "[[\"United States\"]]", "United States Steel is based in Pittsburgh.", I, "missing “United States”",
      "Which country is 'United States Steel' based in?" },
    { "[[\"United States\"]]", "United States Steel is based in the United States.", C, NULL,
      "Which country is 'United States Steel' based in?" },
    { "[[\"Bank\"]]", "The company's name is \"Empire Bank\".", I, NULL, "What is the company's \"Empire Bank\"?" },
    /* a quoted name that is the value itself still counts */
    { "[[\"Empire\"]]", "It is Empire.", C, NULL, "Which is 'Empire'?" },
  };
  static const Case off[] = {
    { "[[\"United States\"]]", "United States Steel is based in Pittsburgh.", C, NULL,
      "Which country is 'United States Steel' based in?" },
  };
  check ("contains", NULL, cases, G_N_ELEMENTS (cases));
  check ("contains", "ignore-query-names=false\n", off, G_N_ELEMENTS (off));
}

/* The values bound to the query's placeholders are masked like quoted names. */
static void
test_contains_bindings (void)
{
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);
  g_autoptr (GrammarRecord) record = make_record ("Where is United States Steel based?", "[[\"United States\"]]",
                                                  "United States Steel is based in Pittsburgh.");
  g_autoptr (JsonNode) bindings = json_from_string ("{\"Company.Name\": \"United States Steel\"}", NULL);
  g_autoptr (GrammarVerdict) before = judge (matcher, record);
  g_autoptr (GrammarVerdict) after = NULL;

  g_assert_cmpint (grammar_verdict_get_kind (before), ==, GRAMMAR_VERDICT_CORRECT);
  grammar_record_set_bindings (record, bindings);
  after = judge (matcher, record);
  g_assert_cmpint (grammar_verdict_get_kind (after), ==, GRAMMAR_VERDICT_INCORRECT);
}

/* Masking the query's names never removes an occurrence of the answer:
 * an email, URL, user name or code made from the name, or a value that
 * holds the name, is found; a value that lies wholly inside the name is
 * still the name (issue 24). */
#define EMAIL_Q "Email for 'Margit Halvorsen'"
#define EMAIL_A "[[\"margit.halvorsen@kestrelridge.example\"]]"

static void
test_contains_names_in_answers (void)
{
  static const Case cases[] = {
    /* emails: the name inside the answer, and the name repeated outside it */
    { EMAIL_A, "Their email address is margit.halvorsen@kestrelridge.example.", C,
      "found “margit.halvorsen@kestrelridge.example”", EMAIL_Q },
    { EMAIL_A,
      "Margit Halvorsen is the Chief Executive Officer of Kestrel Ridge Consulting, hired on 2011-03-01; their "
      "email address is margit.halvorsen@kestrelridge.example. Tobias Wren reports to them.", C, NULL, EMAIL_Q },
    { EMAIL_A, "Margit Halvorsen's email address is margit.halvorsen@kestrelridge.example", C, NULL, EMAIL_Q },
    { EMAIL_A, "Write to Margit Halvorsen at <mailto:margit.halvorsen@kestrelridge.example>.", C, NULL, EMAIL_Q },
    { EMAIL_A, "MARGIT.HALVORSEN@KESTRELRIDGE.EXAMPLE", C, NULL, EMAIL_Q },
    { EMAIL_A, "Margit Halvorsen is the Chief Executive Officer.", I, "missing", EMAIL_Q },
    { EMAIL_A, "Margit Halvorsen works at kestrelridge.example.", I, NULL, EMAIL_Q },
    { EMAIL_A, "Margit Halvorsen: tobias.wren@kestrelridge.example", I, NULL, EMAIL_Q },
    { EMAIL_A, "I couldn't find the email of Margit Halvorsen.", I, "refusal", EMAIL_Q },
    { "[[\"procurement@northgate-rail.example\"]]",
      "Northgate Rail is a client based in Norway; its contact address is procurement@northgate-rail.example.", C,
      NULL, "Contact email of 'Northgate Rail'" },
    { "[[\"ciaran.odonnell@kestrelridge.example\"]]", "Ciarán O'Donnell: ciaran.odonnell@kestrelridge.example", C,
      NULL, "Email for \"Ciarán O'Donnell\"" },
    { "[[\"margit.halvorsen@kestrelridge.example\"], [\"tobias.wren@kestrelridge.example\"]]",
      "Margit Halvorsen (margit.halvorsen@kestrelridge.example) and Tobias Wren (tobias.wren@kestrelridge.example).",
      C, "found all 2 values", "Emails of 'Margit Halvorsen' and 'Tobias Wren'" },
    { "[[\"margit.halvorsen@kestrelridge.example\"], [\"tobias.wren@kestrelridge.example\"]]",
      "Margit Halvorsen (margit.halvorsen@kestrelridge.example) and Tobias Wren.", I,
      "missing “tobias.wren@kestrelridge.example”", "Emails of 'Margit Halvorsen' and 'Tobias Wren'" },
    /* each value with its own masks: the name inside the email is still the name for "Margit" */
    { "[[\"margit.halvorsen@kestrelridge.example\", \"Margit\"]]",
      "Margit Halvorsen: margit.halvorsen@kestrelridge.example", I, "missing “Margit” (1 of 2 values found)",
      "Email and first name of 'Margit Halvorsen'" },
    { "[[\"margit.halvorsen@kestrelridge.example\", \"Margit\"]]",
      "Margit Halvorsen (first name Margit): margit.halvorsen@kestrelridge.example", C, "found all 2 values",
      "Email and first name of 'Margit Halvorsen'" },
    /* URLs */
    { "[[\"https://www.kumo-robotics.example/en/contact\"]]",
      "Kumo Robotics can be reached through https://www.kumo-robotics.example/en/contact today.", C, NULL,
      "Website of 'Kumo Robotics'" },
    { "[[\"https://www.kumo-robotics.example/en/contact\"]]", "Kumo Robotics has a website.", I, NULL,
      "Website of 'Kumo Robotics'" },
    { "[[\"kumo-robotics.example\"]]", "Write to contact@kumo-robotics.example.", C, NULL,
      "Domain of 'Kumo Robotics'" },
    /* user names: with more than the name, or the name written as one word */
    { "[[\"margit_halvorsen_1990\"]]", "Margit Halvorsen signs in as margit_halvorsen_1990.", C, NULL,
      "User name of 'Margit Halvorsen'" },
    { "[[\"margit_halvorsen_1990\"]]", "Margit Halvorsen signs in with her own name.", I, NULL,
      "User name of 'Margit Halvorsen'" },
    { "[[\"margit.halvorsen\"]]", "Margit Halvorsen signs in as margit.halvorsen.", C, NULL,
      "User name of 'Margit Halvorsen'" },
    { "[[\"margit.halvorsen\"]]", "margit.halvorsen", C, NULL, "User name of 'Margit Halvorsen'" },
    { "[[\"margit.halvorsen\"]]", "Margit Halvorsen has a user name.", I, NULL, "User name of 'Margit Halvorsen'" },
    { "[[\"Margit Halvorsen\"]]", "The user margit.halvorsen is Margit Halvorsen.", C, NULL,
      "Who has the user name 'margit.halvorsen'?" },
    { "[[\"Margit Halvorsen\"]]", "margit.halvorsen is a user name.", I, NULL,
      "Who has the user name 'margit.halvorsen'?" },
    /* a name and a value written alike cannot be told apart: not masked */
    { "[[\"Empire Bank\"]]", "It is Empire Bank.", C, NULL, "Which is 'Empire Bank'?" },
    /* codes with hyphens, dots and slashes */
    { "[[\"HARBOR-BRIDGE-2019\"]]", "Harbor Bridge has the code HARBOR-BRIDGE-2019.", C, NULL,
      "Project code of 'Harbor Bridge'" },
    { "[[\"HARBOR-BRIDGE-2019\"]]", "Harbor Bridge started in 2019.", I, NULL, "Project code of 'Harbor Bridge'" },
    { "[[\"kr.harbor.bridge.v2\"]]", "The code of Harbor Bridge is kr.harbor.bridge.v2.", C, NULL,
      "Project code of 'Harbor Bridge'" },
    { "[[\"KR/Harbor Bridge/2019\"]]", "Harbor Bridge is filed under KR/Harbor Bridge/2019.", C, NULL,
      "Project code of 'Harbor Bridge'" },
    { "[[\"KR/Harbor Bridge/2019\"]]", "Harbor Bridge is filed under KR/2019.", I, NULL,
      "Project code of 'Harbor Bridge'" },
    /* an answer that holds the entity of the question */
    { "[[\"Margit Halvorsen Foundation\"]]", "Margit Halvorsen set up the Margit Halvorsen Foundation in 2015.", C,
      NULL, "Which foundation did 'Margit Halvorsen' set up?" },
    { "[[\"Margit Halvorsen Foundation\"]]", "Margit Halvorsen set up a foundation in 2015.", I, NULL,
      "Which foundation did 'Margit Halvorsen' set up?" },
    /* a value wholly inside a name is the name, even inside an email */
    { "[[\"United States\"]]", "United States Steel (info@united-states-steel.example) is in Pittsburgh.", I,
      "missing “United States”", "Which country is 'United States Steel' in?" },
    { "[[\"United States\"]]", "United States Steel and United States Steel Europe are in Pittsburgh.", I, NULL,
      "Which country is 'United States Steel' in?" },
    { "[[\"United States\"]]", "United States Steel is in Pittsburgh, in the United States.", C, NULL,
      "Which country is 'United States Steel' in?" },
    { "[[\"Northgate\"]]", "Write to procurement@northgate-rail.example.", I, NULL,
      "Short name of 'Northgate Rail'" },
  };
  static const Case off[] = {
    { "[[\"Northgate\"]]", "Write to procurement@northgate-rail.example.", C, NULL,
      "Short name of 'Northgate Rail'" },
    { "[[\"margit.halvorsen\"]]", "Margit Halvorsen has a user name.", C, NULL, "User name of 'Margit Halvorsen'" },
  };
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);
  g_autoptr (GrammarRecord) record = make_record ("Email of employee 'Margit Halvorsen'", EMAIL_A,
                                                  "Margit Halvorsen is the Chief Executive Officer; their email "
                                                  "address is margit.halvorsen@kestrelridge.example.");
  g_autoptr (JsonNode) bindings = json_from_string ("{\"employee.name\": \"Margit Halvorsen\"}", NULL);
  g_autoptr (GrammarVerdict) verdict = NULL;

  check_cases (matcher, "contains", cases, G_N_ELEMENTS (cases));
  check ("contains", "ignore-query-names=false\n", off, G_N_ELEMENTS (off));

  /* the same with the name bound to a placeholder, as the demo's records are */
  grammar_record_set_bindings (record, bindings);
  verdict = judge (matcher, record);
  g_assert_cmpint (grammar_verdict_get_kind (verdict), ==, GRAMMAR_VERDICT_CORRECT);
  g_assert_cmpfloat (grammar_verdict_get_score (verdict), ==, 1.0);

  /* the reason of a missing date does not offer a coarser date inside a name */
  {
    g_autoptr (GrammarRecord) dated = make_record ("When did 'The June 2024 Fund' open?", "[[\"2024-06-15\"]]",
                                                   "The June 2024 Fund opened in 2023.");
    g_autoptr (GrammarVerdict) missing = judge (matcher, dated);

    g_assert_cmpstr (grammar_verdict_get_reason (missing), ==, "missing “2024-06-15”");
  }
}

/* What the kind of an answer asks (grammar-match-answer.c). */
static void
test_contains_truth_values (void)
{
  static const Case cases[] = {
    { "[[true]]", "Yes, the room is booked.", C, "says yes", "Is room 12 booked?" },
    { "[[true]]", "No, it is free.", I, "says no", "Is room 12 booked?" },
    { "[[false]]", "No.", C, NULL, "Is room 14 booked?" },
    { "[[false]]", "The room isn't booked this week.", C, NULL, "Is room 14 booked?" },
    { "[[1]]", "Yes, it is.", C, NULL, "Does the shop deliver on Sundays?" },
    { "[[0]]", "Yes, it is.", I, NULL, "Does the shop deliver on Sundays?" },
    { "[[0]]", "The title is out of print.", C, NULL, "Is the title in print?" },
    { "[[\"N\"]]", "Not any more.", C, NULL, "Has the order shipped?" },
    { "[[true]]", "The flag is true.", C, NULL, "Flag of order 7" },
    { "[[true]]", "false", I, NULL, "Flag of order 7" },
    { "[[true]]", "The patient has a pacemaker.", C, "affirms", "Does the patient have a pacemaker?" },
    { "[[true]]", "Yes or no, depending on the ward.", I, "both", "Is the bed free?" },
    { "[[true]]", "I'm sorry, I couldn't find that.", I, "refusal", "Is the bed free?" },
    /* 1 and 0 are numbers unless the question asks yes or no */
    { "[[1]]", "There is 1 copy left.", C, NULL, "How many copies are left?" },
    { "[[1]]", "Yes, there are some.", I, NULL, "How many copies are left?" },
    /* yes/no questions as the rule verbalizer writes them in every style:
     * indirect ("whether"), or an auxiliary opening a later clause */
    { "[[1]]", "Yes, Harbour Street has parking.", C, "says yes", "Whether 'Harbour Street' has parking" },
    { "[[0]]", "No, Quay's End does not have parking.", C, "says no",
      "Could you tell me whether the branch named \"Quay's End\" has parking?" },
    { "[[1]]", "No, she is not.", I, "says no", "Tell me whether the member 'Ana Ruiz' is active." },
    { "[[1]]", "Yes, Raj Patel is an active member.", C, NULL,
      "While reviewing the member entries in our database, I want to make sure that I have one fact exactly "
      "right. Is the member named 'Raj Patel' active, according to the records that we have?" },
    { "[[0]]", "No.", C, NULL, "According to the records, is the product whose SKU is 'TWL-7' discontinued?" },
    { "[[1]]", "yep", C, NULL, "quick question: is 'Ray Moss' active?" },
    /* a polite request is no yes/no question: 0 and 1 stay numbers */
    { "[[0]]", "There are 0 copies left.", C, NULL, "Could you tell me how many copies of 'Dune' are left?" },
    { "[[0]]", "The quantity is 0.", C, NULL, "Can you find the quantity for the order 'SO-1003'?" },
    { "[[1]]", "Yes, I can.", I, NULL, "Do you know the quantity for the order 'SO-1001'?" },
  };
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);

  check_cases (matcher, "contains", cases, G_N_ELEMENTS (cases));
}

static void
test_contains_number_forms (void)
{
  static const Case cases[] = {
    { "[[0.08]]", "The fee is 8% of the order.", C, "as “8%”" },
    { "[[0.08]]", "The fee is 8 per cent.", C, NULL },
    { "[[0.08]]", "The fee is 80%.", I, NULL },
    { "[[32.5]]", "It is 32.5%.", C, NULL },
    { "[[4300000]]", "Sales were 4.3 million.", C, "as “4.3 million”" },
    { "[[4300000]]", "Sales were 4.3 billion.", I, NULL },
    { "[[4.3]]", "Sales were 4.3 billion.", C, NULL },
    { "[[72000]]", "She earns 72k.", C, NULL },
    { "[[2.3333333333333335]]", "The average is 2.33.", C, NULL },
    { "[[2.3333333333333335]]", "The average is 2.34.", I, NULL },
    { "[[2.3333333333333335]]", "The average is 2.", I, NULL },
    { "[[19.99]]", "It costs 20.0.", I, NULL },
    { "[[-40]]", "The account lost 40 last week.", C, NULL },
    { "[[-40]]", "Membership fell by 40.", C, NULL },
    { "[[-40]]", "The lake is 40 m below the road.", C, NULL },
    { "[[-40]]", "It is minus 40 outside.", C, NULL },
    { "[[-40]]", "It went down to 40.", I, NULL },
    { "[[-40]]", "It rose by 40.", I, NULL },
    { "[[-40]]", "The balance is -€40.", C, NULL },
    { "[[-3]]", "The server runs on UTC-3.", C, NULL },
    { "[[3]]", "The server runs on UTC-3.", I, NULL },
    { "[[1999.5]]", "Es kostet 1.999,50 €.", C, NULL },
    { "[[31250.4]]", "Le total est 31 250,40 €.", C, NULL },
    { "[[12.5]]", "Rooms 12,5 and 7.", I, NULL },
  };
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);

  check_cases (matcher, "contains", cases, G_N_ELEMENTS (cases));
}

static void
test_contains_candidates (void)
{
  static const Case cases[] = {
    { "[[\"Lisbon\"]]", "It is either Lisbon or Porto.", I, "candidates" },
    { "[[\"Lisbon\"]]", "Lisbon or Porto.", I, "candidates" },
    { "[[\"Porto\"]]", "It might be Lisbon, Braga or Porto.", I, "candidates" },
    { "[[\"Lisbon\"]]", "It might be Lisbon, Braga or Porto.", I, "candidates" },
    { "[[\"Lisbon\"]]", "Lisbon, or possibly Porto.", I, "candidates" },
    { "[[1200]]", "Somewhere between 1,100 and 1,200.", I, "candidates" },
    { "[[\"k.ito\"]]", "Possible accounts: k.ito, kito2.", I, "candidates" },
    { "[[\"Lisbon\"]]", "Lisbon, not Porto.", C, NULL },
    { "[[\"Lisbon\"]]", "The office is in Lisbon or nearby.", C, NULL },
    { "[[\"a@x.example\"]]", "Write to a@x.example or call us.", C, NULL },
    { "[[\"Lisbon\"], [\"Porto\"]]", "Lisbon or Porto, both.", C, NULL },
    { "[[\"Lisbon\"]]", "Lisbon or Porto? It is Lisbon.", C, NULL },
    /* a guess after a refusal, worded "looks like" or "usually" */
    { "[[\"k.ito\"]]", "I can't see the accounts, but names there usually look like k.ito.", I, "refusal" },
    { "[[\"Lisbon\"]]", "The office looks like it is in Lisbon.", C, NULL },
  };
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);

  check_cases (matcher, "contains", cases, G_N_ELEMENTS (cases));
}

static void
test_contains_identifiers (void)
{
  static const Case cases[] = {
    { "[[\"r.ng@shop.example\"]]", "Write to r.ng@shop.example.", C, NULL },
    { "[[\"r.ng@shop.example\"]]", "Write to R.NG@SHOP.EXAMPLE.", C, NULL },
    { "[[\"r.ng@shop.example\"]]", "Write to r.ng@shop.example.net.", I, "as a whole" },
    { "[[\"r_ng@shop.example\"]]", "Write to r.ng@shop.example.", I, "as a whole" },
    { "[[\"ops-team\"]]", "The owner is ops_team.", I, "as a whole" },
    { "[[\"ops-team\"]]", "The owner is ops-team's lead.", C, NULL },
    { "[[\"3.2.1\"]]", "Version 3.2.10 is deployed.", I, NULL },
    { "[[\"3.2.1\"]]", "Version 3.2.1 is deployed.", C, NULL },
    { "[[\"https://www.kite.example/about\"]]", "See www.kite.example/about.", C, NULL },
    { "[[\"https://www.kite.example/about\"]]", "See <https://www.kite.example/about/>.", C, NULL },
    { "[[\"https://www.kite.example/about\"]]", "See https://www.kite.example/about-us.", I, NULL },
    { "[[\"Anne-Marie Dubois\"]]", "It is Anne Marie Dubois.", C, NULL },
    { "[[\"+33 1 55 55 12 34\"]]", "Call 01 55 55 12 34.", C, "as “01 55 55 12 34”" },
    { "[[\"+33 1 55 55 12 34\"]]", "Call 01 55 55 12 43.", I, NULL },
    { "[[\"979-10-90636-07-1\"]]", "ISBN 9791090636071", C, NULL },
    { "[[\"0612 345678\"]]", "Her number is 0612-345-678.", C, NULL },
    { "[[\"Prof. Ana Lima\"]]", "It is Ana Lima.", C, NULL },
    { "[[\"Prof. Ana Lima\"]]", "It is Ana Silva.", I, NULL },
    { "[[\"2022-03-08 16:45:00\"]]", "It opened on 8 March 2022 at 16:45.", C, NULL },
    { "[[\"2022-03-08 16:45:00\"]]", "It opened on 8 March 2022 at 17:45.", I, NULL },
    { "[[\"2022-03-08 16:45:00\"]]", "It opened on 8 March 2022.", I, NULL },
    { "[[\"17:30\"]]", "It closes at 5:30 pm.", C, NULL },
    { "[[\"17:30\"]]", "It closes at 5:30 am.", I, NULL },
    { "[[\"08:00\"]]", "It opens at 8 a.m.", C, NULL },
    { "[[\"08:00\"]]", "It opens at 8 pm.", I, NULL },
    { "[[\"Björn Groß\"]]", "It was Bjoern Gross.", C, NULL },
    { "[[\"Björn Groß\"]]", "It was Bjorn Gross.", C, NULL },
    { "[[\"Björn Groß\"]]", "It was Bjoern Grosz.", I, NULL },
    /* an identifier found whole is the value, even holding the name asked about */
    { "[[\"ana.lima@uni.example\"]]", "Ana Lima's address is ana.lima@uni.example.", C, NULL,
      "Email of 'Ana Lima'" },
    { "[[\"ana.lima@uni.example\"]]", "Write to Ana Lima at the university.", I, NULL, "Email of 'Ana Lima'" },
  };
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);

  check_cases (matcher, "contains", cases, G_N_ELEMENTS (cases));
}

static void
test_contains_date_forms (void)
{
  static const Case cases[] = {
    { "[[\"2020-05-03\"]]", "It was signed on 03.05.2020.", C, NULL },
    { "[[\"2020-05-03\"]]", "It was signed on 05.03.2020.", I, NULL },
    { "[[\"2020-05-03\"]]", "It was signed on 5/3/2020.", C, NULL },
    { "[[\"2020-05-03\"]]", "It was signed on 3-May-2020.", C, NULL },
    { "[[\"2020-05-03\"]]", "It was signed on 3/May/2020.", C, NULL },
    { "[[\"2020-05-03\"]]", "It was signed in May 2020.", I, "only at month precision", "When was it signed?" },
    { "[[\"2020-05-03\"]]", "It was signed in May 2020.", C, "month precision", "In which month was it signed?" },
    { "[[\"2020-05-03\"]]", "It was signed in 2020.", C, "year precision", "What year was it signed?" },
    { "[[\"2020-05-03\"]]", "It was signed in 2019.", I, NULL, "What year was it signed?" },
  };
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);

  check_cases (matcher, "contains", cases, G_N_ELEMENTS (cases));
}

/* ---- what every matcher shares ---- */

static void
test_unmeasured (void)
{
  static const char * const plugins[] = { "exact", "contains", "f1" };

  for (gsize p = 0; p < G_N_ELEMENTS (plugins); p++)
    {
      g_autoptr (GrammarMatcher) matcher = build_matcher (plugins[p], NULL);
      g_autoptr (GrammarRecord) failed = make_record ("q", "[[\"x\"]]", NULL);
      g_autoptr (GrammarRecord) none = make_record ("q", "[[\"x\"]]", NULL);
      static const Case cases[] = {
        { "[[\"x\"]]", "", U, "the response is empty" },
        { "[[\"x\"]]", " \n\t ", U, "the response is empty" },
        { "[]", "x", U, "the true answer is empty" },
        { "[[null]]", "x", U, "the true answer is empty" },
        { "[[]]", "x", U, "the true answer is empty" },
      };
      g_autoptr (GrammarVerdict) v1 = NULL;
      g_autoptr (GrammarVerdict) v2 = NULL;

      grammar_record_set_error (failed, "HTTP 500: boom");
      v1 = judge (matcher, failed);
      g_assert_cmpint (grammar_verdict_get_kind (v1), ==, GRAMMAR_VERDICT_UNMEASURED);
      g_assert_cmpstr (grammar_verdict_get_reason (v1), ==, "no response: the system failed (HTTP 500: boom)");
      g_assert_cmpstr (grammar_verdict_get_matcher (v1), ==, plugins[p]);
      v2 = judge (matcher, none);
      g_assert_cmpstr (grammar_verdict_get_reason (v2), ==, "no response");
      check_cases (matcher, plugins[p], cases, G_N_ELEMENTS (cases));
    }
}

static void
on_judged (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GrammarVerdict **verdict = user_data;
  g_autoptr (GError) error = NULL;

  *verdict = grammar_matcher_judge_finish (GRAMMAR_MATCHER (source), result, &error);
  g_assert_no_error (error);
}

static GrammarVerdict *
judge_on_main_loop (GrammarMatcher *matcher,
                    GrammarRecord  *record)
{
  GrammarVerdict *verdict = NULL;

  grammar_matcher_judge_async (matcher, record, NULL, on_judged, &verdict);
  while (verdict == NULL)
    g_main_context_iteration (NULL, TRUE);
  return verdict;
}

static void
test_async (void)
{
  g_autoptr (GrammarMatcher) matcher = build_matcher ("contains", NULL);
  g_autoptr (GrammarRecord) record = make_record ("q", "[[\"USA\"]]", "It is in the United States.");
  g_autoptr (GrammarVerdict) verdict = judge_on_main_loop (matcher, record);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarVerdict) cancelled = NULL;

  g_assert_cmpint (grammar_verdict_get_kind (verdict), ==, GRAMMAR_VERDICT_CORRECT);
  g_assert_cmpfloat (grammar_verdict_get_score (verdict), ==, 1.0);
  g_cancellable_cancel (cancellable);
  cancelled = grammar_matcher_judge (matcher, record, cancellable, &error);
  g_assert_null (cancelled);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- exact ---- */

static void
test_exact (void)
{
  static const Case cases[] = {
    { "[[\"Oil and gas\"]]", "oil and gas.", C, "the response is the value" },
    { "[[\"Oil and gas\"]]", "  “Oil & Gas”\n", C, NULL },
    { "[[\"Oil and gas\"]]", "The oil and gas industry.", I, "the response is not exactly “Oil and gas”" },
    { "[[\"USA\"]]", "United States", C, NULL },
    { "[[\"2023-04-01\"]]", "April 1, 2023", C, NULL },
    { "[[433.5]]", "433.50", C, NULL },
    { "[[\"Paris\"], [\"London\"]]", "London, Paris", C, "the response is the 2 values" },
    { "[[\"Paris\"], [\"London\"]]", "Paris\nLondon\n", C, NULL },
    { "[[\"Paris\"], [\"London\"]]", "Paris and London", I, "the response is not exactly the 2 values (“Paris”, …)" },
    { "[[\"Paris\"], [\"London\"]]", "Paris", I, NULL },
    { "[[\"Paris\"], [\"London\"]]", "Paris, London, Rome", I, NULL },
    { "[[\"Alice\", 30], [\"Bob\", 25]]", "Bob 25; Alice 30", C, NULL },
    { "[[\"Alice\", 30], [\"Bob\", 25]]", "Alice 25; Bob 30", I, NULL },
    { "[[\"New York\"], [\"New York City\"]]", "New York City, New York", C, NULL },
    { "[[\"—\"]]", " — ", C, NULL },
    { "[[\"Paris\"]]", "I'm sorry, I don't know.", I, "refusal: I'm sorry" },
  };
  check ("exact", NULL, cases, G_N_ELEMENTS (cases));
}

/* ---- f1 ---- */

static void
test_f1 (void)
{
  static const Case cases[] = {
    { "[[\"oil and gas\"]]", "Oil and gas industry", C, "F1 0.86 (precision 0.75, recall 1.00)" },
    { "[[\"oil and gas\"]]", "The oil and gas industry in the region", C, "F1 0.67" },
    { "[[\"oil and gas\"]]", "Cars", I, "F1 0.00 below 0.50 (precision 0.00, recall 0.00)" },
    { "[[\"oil and gas\"]]", "I'm sorry, I don't know about oil and gas.", I, "refusal: I'm sorry" },
  };
  static const Case strict[] = {
    { "[[\"oil and gas\"]]", "The oil and gas industry in the region", I, "F1 0.67 below 0.90" },
    { "[[\"oil and gas\"]]", "oil & gas", C, "F1 1.00" },
  };
  g_autoptr (GrammarMatcher) matcher = build_matcher ("f1", NULL);
  g_autoptr (GrammarRecord) record = make_record (NULL, "[[\"oil and gas\"]]", "Oil and gas industry");
  g_autoptr (GrammarVerdict) verdict = judge (matcher, record);

  check_cases (matcher, "f1", cases, G_N_ELEMENTS (cases));
  g_assert_cmpfloat_with_epsilon (grammar_verdict_get_score (verdict), 6.0 / 7.0, 1e-9);
  check ("f1", "threshold=0.9\n", strict, G_N_ELEMENTS (strict));
}

/* ---- configuration ---- */

static void
assert_config_error (const char *keyfile,
                     int         code,
                     const char *part1,
                     const char *part2)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) matcher = build_full (keyfile, "matcher", &error);

  g_assert_null (matcher);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, code);
  grammar_test_assert_contains (error->message, part1);
  if (part2 != NULL)
    grammar_test_assert_contains (error->message, part2);
}

static void
test_config (void)
{
  g_autofree char *bad = grammar_test_write_file (tmpdir, "bad-aliases.txt", "USA|US\n  |  \n");

  assert_config_error ("[matcher]\nplugin=contains\nthresold=0.5\n", GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY,
                       "thresold", "ignore-query-names");
  assert_config_error ("[matcher]\nplugin=f1\nthreshold=1.5\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "threshold", "“1.5” is not a number from 0 to 1");
  assert_config_error ("[matcher]\nplugin=f1\nthreshold=-0.1\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "threshold", NULL);
  assert_config_error ("[matcher]\nplugin=contains\nday-first=maybe\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "day-first", NULL);
  assert_config_error ("[matcher]\nplugin=contains\ndate-precision=week\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "date-precision", "“week” is not one of: day, month, quarter, season, year");
  assert_config_error ("[matcher]\nplugin=contains\nhemisphere=east\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "hemisphere", "“east” is not one of: north, south");
  assert_config_error ("[matcher]\nplugin=exact\ndate-precision=month\n", GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY,
                       "date-precision", NULL);
  assert_config_error ("[matcher]\nplugin=exact\naliases=missing.txt\n", GRAMMAR_CONFIG_ERROR_INIT,
                       "aliases: ", "missing.txt");
  assert_config_error ("[matcher]\nplugin=contains\naliases=bad-aliases.txt\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "aliases: ", "bad-aliases.txt:2: an alias set needs at least one name");
  assert_config_error ("[matcher]\nplugin=llm-judge\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE, "llm is required", NULL);
  assert_config_error ("[llm]\nplugin=openai\nmodel=m\nbase-url=http://127.0.0.1:9/v1\ncache=\n"
                       "[matcher]\nplugin=llm-judge\nllm=llm\nprompt=Judge {given_response}\n",
                       GRAMMAR_CONFIG_ERROR_BAD_VALUE, "prompt must contain both {true_answer} and {given_response}",
                       NULL);
  assert_config_error ("[matcher]\nplugin=llm-judge\ntemperature=3\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "temperature", NULL);
}

/* ---- llm-judge ---- */

static JsonObject *
server_stats (GrammarTestServer *server)
{
  g_autoptr (SoupSession) session = soup_session_new ();
  g_autofree char *uri = g_strconcat (server->root, "/_stats", NULL);
  g_autoptr (SoupMessage) message = soup_message_new ("GET", uri);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = soup_session_send_and_read (session, message, NULL, &error);
  g_autoptr (JsonParser) parser = json_parser_new ();

  g_assert_no_error (error);
  json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static gint64
chat_requests (GrammarTestServer *server)
{
  g_autoptr (JsonObject) stats = server_stats (server);

  return json_object_get_int_member (stats, "chat");
}

/* The replies depend on the response in the prompt; the first two rules
 * also check that the prompt is the paper's, filled in. */
static const char judge_rules[] =
  "{\"rules\": ["
  " {\"match\": \"^Evaluate the accuracy of the given response in relation to the true answer for the specified "
  "query\\\\. After evaluating, provide a judgement as either \\\"Correct\\\" or \\\"Incorrect\\\" based on whether "
  "the ##Given Response## accurately matches the ##True Answer##\\\\.\\\\n##Query##: Which industry\\\\?\\\\n"
  "##True Answer##: Oil and gas\\\\n##Given Response##: RESP-CORRECT\\\\n##Judgement##:$\", \"reply\": \"Correct\"},"
  " {\"match\": \"##True Answer##: Alice, 30; Bob, 25\\\\n##Given Response##: RESP-ROWS\\\\n\", \"reply\": \"correct.\"},"
  " {\"match\": \"RESP-INCORRECT\", \"reply\": \"Incorrect\"},"
  " {\"match\": \"RESP-MARKDOWN\", \"reply\": \"**Judgement**: INCORRECT.\"},"
  " {\"match\": \"RESP-NOT\", \"reply\": \"The response is not correct.\"},"
  " {\"match\": \"RESP-GARBAGE\", \"reply\": \"I cannot judge this; the answer is ambiguous.\"},"
  " {\"match\": \"RESP-LONG\", \"reply\": \"%s\"},"
  " {\"match\": \"RESP-ERROR\", \"status\": 400, \"error\": \"the judge request is bad\"},"
  " {\"match\": \"RESP-KEY\", \"status\": 401, \"error\": \"no entry for " SECRET "\"}"
  "], \"default\": {\"reply\": \"no rule matched\"}}";

static GrammarMatcher *
build_judge (GrammarTestServer *server)
{
  g_autofree char *keyfile = g_strdup_printf (
    "[judge-llm]\nplugin=openai\nbase-url=%s\nmodel=judge\napi-key-env=" KEY_ENV "\ncache=\nmax-retries=0\n"
    "[matcher]\nplugin=llm-judge\nllm=judge-llm\n", server->url);
  g_autoptr (GError) error = NULL;
  GObject *matcher = build_full (keyfile, "matcher", &error);

  g_assert_no_error (error);
  return GRAMMAR_MATCHER (matcher);
}

static void
test_llm_judge (void)
{
  g_autofree char *long_reply = g_strnfill (300, 'x');
  g_autofree char *rules_text = g_strdup_printf (judge_rules, long_reply);
  g_autofree char *rules = grammar_test_write_file (tmpdir, "judge-rules.json", rules_text);
  const char * const args[] = { "--rules", rules, "--api-key", SECRET, NULL };
  GrammarTestServer *server = grammar_test_server_start (args);
  g_autoptr (GrammarMatcher) matcher = build_judge (server);
  static const Case cases[] = {
    { "[[\"Oil and gas\"]]", "RESP-CORRECT", C, "the judge replied “Correct”", "Which industry?" },
    { "[[\"Alice\", 30], [\"Bob\", 25]]", "RESP-ROWS", C, NULL, "Who?" },
    { "[[\"x\"]]", "RESP-INCORRECT", I, "the judge replied “Incorrect”", "q" },
    { "[[\"x\"]]", "RESP-MARKDOWN", I, NULL, "q" },
    { "[[\"x\"]]", "RESP-NOT", I, NULL, "q" },
    { "[[\"x\"]]", "RESP-GARBAGE", U,
      "the judge's reply has neither Correct nor Incorrect: “I cannot judge this; the answer is ambiguous.”", "q" },
    { "[[\"x\"]]", "RESP-ERROR", U, "the judge failed: ", "q" },
    { "[[\"x\"]]", "RESP-KEY", U, "the judge failed: ", "q" },
    { "[[\"Oil and gas\"]]", "RESP-CORRECT but another query", U, "“no rule matched”", "Which industry?" },
  };

  check_cases (matcher, "llm-judge", cases, G_N_ELEMENTS (cases));
  g_assert_cmpint (chat_requests (server), ==, G_N_ELEMENTS (cases));

  /* scores, the error's message, never the key, a long reply cut */
  {
    g_autoptr (GrammarRecord) right = make_record ("Which industry?", "[[\"Oil and gas\"]]", "RESP-CORRECT");
    g_autoptr (GrammarRecord) failed = make_record ("q", "[[\"x\"]]", "RESP-ERROR");
    g_autoptr (GrammarRecord) key = make_record ("q", "[[\"x\"]]", "RESP-KEY");
    g_autoptr (GrammarRecord) chatty = make_record ("q", "[[\"x\"]]", "RESP-LONG");
    g_autoptr (GrammarVerdict) v_right = judge_on_main_loop (matcher, right);
    g_autoptr (GrammarVerdict) v_failed = judge (matcher, failed);
    g_autoptr (GrammarVerdict) v_key = judge (matcher, key);
    g_autoptr (GrammarVerdict) v_chatty = judge (matcher, chatty);
    const char *reason = grammar_verdict_get_reason (v_chatty);

    g_assert_cmpfloat (grammar_verdict_get_score (v_right), ==, 1.0);
    grammar_test_assert_contains (grammar_verdict_get_reason (v_failed), "HTTP 400: the judge request is bad");
    g_assert_null (strstr (grammar_verdict_get_reason (v_key), SECRET));
    g_assert_cmpint (grammar_verdict_get_kind (v_chatty), ==, GRAMMAR_VERDICT_UNMEASURED);
    g_assert_true (g_str_has_suffix (reason, "…”"));
    g_assert_null (strstr (reason, long_reply));
    g_assert_nonnull (strstr (reason, long_reply + 100));
  }

  /* nothing to judge: no request */
  {
    g_autoptr (GrammarRecord) empty = make_record ("q", "[[\"x\"]]", "");
    g_autoptr (GrammarRecord) no_answer = make_record ("q", "[]", "RESP-CORRECT");
    g_autoptr (GrammarVerdict) v1 = judge_on_main_loop (matcher, empty);
    g_autoptr (GrammarVerdict) v2 = judge (matcher, no_answer);
    gint64 before = chat_requests (server);

    g_assert_cmpstr (grammar_verdict_get_reason (v1), ==, "the response is empty");
    g_assert_cmpstr (grammar_verdict_get_reason (v2), ==, "the true answer is empty");
    g_assert_cmpint (chat_requests (server), ==, before);
  }
  grammar_test_server_close (server);
  grammar_test_server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("grammar-matchers-XXXXXX");
  g_setenv (KEY_ENV, SECRET, TRUE);

  g_test_add_func ("/matchers/contains/basic", test_contains_basic);
  g_test_add_func ("/matchers/contains/numbers", test_contains_numbers);
  g_test_add_func ("/matchers/contains/dates", test_contains_dates);
  g_test_add_func ("/matchers/contains/date-precision", test_contains_date_precision);
  g_test_add_func ("/matchers/contains/aliases", test_contains_aliases);
  g_test_add_func ("/matchers/contains/word-boundaries", test_contains_word_boundaries);
  g_test_add_func ("/matchers/contains/refusals", test_contains_refusals);
  g_test_add_func ("/matchers/contains/rows", test_contains_rows);
  g_test_add_func ("/matchers/contains/unicode", test_contains_unicode);
  g_test_add_func ("/matchers/contains/quotes", test_contains_quotes);
  g_test_add_func ("/matchers/contains/bindings", test_contains_bindings);
  g_test_add_func ("/matchers/contains/names-in-answers", test_contains_names_in_answers);
  g_test_add_func ("/matchers/contains/truth-values", test_contains_truth_values);
  g_test_add_func ("/matchers/contains/number-forms", test_contains_number_forms);
  g_test_add_func ("/matchers/contains/candidates", test_contains_candidates);
  g_test_add_func ("/matchers/contains/identifiers", test_contains_identifiers);
  g_test_add_func ("/matchers/contains/date-forms", test_contains_date_forms);
  g_test_add_func ("/matchers/unmeasured", test_unmeasured);
  g_test_add_func ("/matchers/async", test_async);
  g_test_add_func ("/matchers/exact", test_exact);
  g_test_add_func ("/matchers/f1", test_f1);
  g_test_add_func ("/matchers/config", test_config);
  g_test_add_func ("/matchers/llm-judge", test_llm_judge);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
