/* fuzz-matcher.c: the matchers' normaliser (words, numbers, dates, aliases, refusals)
 *
 * The input is lines: the question, the system's response, then the
 * answer's values, one a line. The record they make is judged by the
 * `exact`, `contains` and `f1` matchers (with the built-in aliases and
 * refusal detection, month-first and day-first dates, both hemispheres),
 * which cut both texts into normalised tokens, numbers and dates; the
 * question is also read as a line of an aliases file.
 *
 * The matchers are compiled into this program from plugins/matchers and
 * their types registered here, as their module registers them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include <grammar.h>

#include "grammar-aliases.h"
#include "grammar-contains-matcher.h"
#include "grammar-exact-matcher.h"
#include "grammar-f1-matcher.h"
#include "grammar-match-date.h"
#include "grammar-text-matcher.h"

#include "fuzz-util.h"

static GPtrArray *matchers;

static void
add_matcher (GType type,
             const char *first_property,
             ...)
{
  g_autoptr (GError) error = NULL;
  GObject *matcher;
  va_list args;

  va_start (args, first_property);
  matcher = g_initable_new_valist (type, first_property, args, NULL, &error);
  va_end (args);
  if (matcher == NULL)
    g_error ("%s", error->message);
  g_ptr_array_add (matchers, matcher);
}

static void
make_matchers (void)
{
  GTypeModule *module = fuzz_type_module ();

  grammar_match_date_register (module);
  grammar_text_matcher_register (module);
  grammar_exact_matcher_register (module);
  grammar_contains_matcher_register (module);
  grammar_f1_matcher_register (module);

  matchers = g_ptr_array_new_with_free_func (g_object_unref);
  add_matcher (GRAMMAR_TYPE_EXACT_MATCHER, NULL, NULL);
  add_matcher (GRAMMAR_TYPE_CONTAINS_MATCHER, NULL, NULL);
  add_matcher (GRAMMAR_TYPE_CONTAINS_MATCHER, "day-first", TRUE, "hemisphere", GRAMMAR_HEMISPHERE_SOUTH, NULL);
  add_matcher (GRAMMAR_TYPE_F1_MATCHER, NULL, NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = fuzz_strndup (data, size);
  g_auto (GStrv) lines = NULL;
  g_autoptr (GrammarRecord) record = grammar_record_new ();
  g_autoptr (GrammarAliases) aliases = grammar_aliases_new (FALSE);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) answer = NULL;
  g_autoptr (GError) error = NULL;
  guint n_lines;

  if (matchers == NULL)
    make_matchers ();
  /* Records are read from JSON, which holds UTF-8 only. */
  if (!g_utf8_validate (text, -1, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  n_lines = g_strv_length (lines);
  if (n_lines < 3)
    return 0;

  grammar_aliases_add_set (aliases, lines[0], &error);

  json_builder_begin_array (builder);
  for (guint i = 2; i < n_lines; i++)
    {
      json_builder_begin_array (builder);
      json_builder_add_string_value (builder, lines[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);
  answer = json_builder_get_root (builder);

  grammar_record_set_id (record, "fuzz");
  grammar_record_set_text (record, lines[0]);
  grammar_record_set_response (record, lines[1]);
  grammar_record_set_answer (record, answer);
  for (guint i = 0; i < matchers->len; i++)
    {
      g_autoptr (GrammarVerdict) verdict = NULL;
      g_autoptr (GError) judge_error = NULL;

      verdict = grammar_matcher_judge (g_ptr_array_index (matchers, i), record, NULL, &judge_error);
    }
  return 0;
}
