/* test-answer-types.c: `contains` with its defaults against the
 * hand-labelled answer-types suite
 *
 * bench/matcher-agreement/answer-types.jsonl holds 364 questions with
 * their answer rows, a response and the verdict a careful person gives
 * (emails, URLs, user names, phone numbers, codes, accented names,
 * answers that hold the question's entity, decimals, negatives,
 * percentages, booleans, dates, multi-row and NULL answers, refusals,
 * candidate lists). `contains` built with its defaults must agree with
 * at least 97 % of the labels; the disagreements are printed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <grammar.h>
#include <json-glib/json-glib.h>

#define TARGET 0.97

static GrammarMatcher *
build_contains (const char *extra)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *keyfile = g_strdup_printf ("[matcher]\nplugin=contains\n%s", extra);
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (keyfile, -1, ".", &error);
  GObject *matcher;

  g_assert_no_error (error);
  matcher = grammar_config_build (config, "matcher", GRAMMAR_TYPE_MATCHER, &error);
  g_assert_no_error (error);
  return GRAMMAR_MATCHER (matcher);
}

static GrammarVerdictKind
judge (GrammarMatcher *matcher,
       GrammarRecord  *record,
       char          **reason)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarVerdict) verdict = grammar_matcher_judge (matcher, record, NULL, &error);

  g_assert_no_error (error);
  if (reason != NULL)
    *reason = g_strdup (grammar_verdict_get_reason (verdict));
  return grammar_verdict_get_kind (verdict);
}

static void
test_suite (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "bench", "matcher-agreement",
                                                 "answer-types.jsonl", NULL);
  g_autoptr (GrammarMatcher) contains = build_contains ("");
  g_autofree char *data = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  guint cases = 0, agree = 0;
  double agreement;

  g_file_get_contents (path, &data, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (data, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonNode) node = NULL;
      g_autoptr (GrammarRecord) record = NULL;
      g_autofree char *reason = NULL;
      GrammarVerdictKind label, kind;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      record = grammar_record_new_from_json (node, &error);
      g_assert_no_error (error);
      g_assert_nonnull (grammar_record_get_verdict (record));
      label = grammar_verdict_get_kind (grammar_record_get_verdict (record));
      kind = judge (contains, record, &reason);
      cases++;
      agree += kind == label;
      if (kind != label)
        g_test_message ("%s: label %s, contains %s (%s); question “%s”, response “%s”",
                        grammar_record_get_id (record),
                        grammar_verdict_kind_to_string (label), grammar_verdict_kind_to_string (kind), reason,
                        grammar_record_get_text (record), grammar_record_get_response (record));
    }
  g_assert_cmpuint (cases, >=, 300);
  agreement = (double) agree / cases;
  g_test_message ("contains (defaults) agrees with %u of %u labels: %.4f", agree, cases, agreement);
  if (agreement < TARGET)
    g_error ("contains (defaults) agrees with %.4f of the answer-types labels, below %.2f (disagreements above)",
             agreement, TARGET);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/answer-types/contains-defaults", test_suite);
  return g_test_run ();
}
