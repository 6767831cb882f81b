/* driver.c: judges judged records again with a matcher plugin
 *
 *   driver --plugin NAME [--set KEY=VALUE]... --out FILE INPUT.jsonl
 *
 * Builds a `[matcher]` section with GrammarConfig (plugin=NAME, one line
 * a --set), reads INPUT (judged.jsonl: GrammarRecord lines with the
 * reference `verdict`), judges every record with grammar_matcher_judge()
 * and writes one JSON line a record to FILE:
 *   {"id", "reference": "correct"|"incorrect"|"unmeasured",
 *    "verdict", "score", "reason"}
 * Prints one JSON line: {"records", "seconds"}. Built and run by
 * bench/matcher-agreement/run against the build tree.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include <grammar.h>

static char *plugin = NULL;
static char *out_path = NULL;
static char **settings = NULL;

static const GOptionEntry entries[] = {
  { "plugin", 0, 0, G_OPTION_ARG_STRING, &plugin, "The matcher plugin", "NAME" },
  { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &settings, "Another KEY=VALUE line of the section", "KEY=VALUE" },
  { "out", 0, 0, G_OPTION_ARG_FILENAME, &out_path, "Where the verdicts go (JSON lines)", "FILE" },
  { NULL }
};

static void
die (const char *what,
     GError     *error)
{
  g_printerr ("driver: %s: %s\n", what, error->message);
  exit (1);
}

static GrammarMatcher *
build (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) keyfile = g_string_new ("[matcher]\n");
  g_autoptr (GrammarConfig) config = NULL;
  GObject *matcher;

  g_string_append_printf (keyfile, "plugin=%s\n", plugin);
  for (guint i = 0; settings != NULL && settings[i] != NULL; i++)
    g_string_append_printf (keyfile, "%s\n", settings[i]);
  config = grammar_config_new_from_data (keyfile->str, -1, ".", &error);
  if (config == NULL)
    die ("configuration", error);
  matcher = grammar_config_build (config, "matcher", GRAMMAR_TYPE_MATCHER, &error);
  if (matcher == NULL)
    die ("configuration", error);
  return GRAMMAR_MATCHER (matcher);
}

static char *
verdict_line (GrammarRecord  *record,
              GrammarVerdict *verdict)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  GrammarVerdict *reference = grammar_record_get_verdict (record);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, grammar_record_get_id (record));
  json_builder_set_member_name (builder, "reference");
  json_builder_add_string_value (builder, grammar_verdict_kind_to_string (
    reference != NULL ? grammar_verdict_get_kind (reference) : GRAMMAR_VERDICT_UNMEASURED));
  json_builder_set_member_name (builder, "verdict");
  json_builder_add_string_value (builder, grammar_verdict_kind_to_string (grammar_verdict_get_kind (verdict)));
  json_builder_set_member_name (builder, "score");
  json_builder_add_double_value (builder, grammar_verdict_get_score (verdict));
  json_builder_set_member_name (builder, "reason");
  json_builder_add_string_value (builder, grammar_verdict_get_reason (verdict));
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GOptionContext) context = g_option_context_new ("INPUT.jsonl");
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarMatcher) matcher = NULL;
  g_autoptr (GFile) input = NULL;
  g_autoptr (GFileInputStream) stream = NULL;
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  FILE *out;
  char *line;
  guint n = 0;
  gint64 start;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    die ("options", error);
  if (plugin == NULL || out_path == NULL || argc != 2)
    {
      g_printerr ("driver: --plugin, --out and one INPUT are required\n");
      return 2;
    }

  matcher = build ();
  input = g_file_new_for_commandline_arg (argv[1]);
  stream = g_file_read (input, NULL, &error);
  if (stream == NULL)
    die (argv[1], error);
  lines = g_data_input_stream_new (G_INPUT_STREAM (stream));
  out = fopen (out_path, "w");
  if (out == NULL)
    {
      g_printerr ("driver: cannot write %s\n", out_path);
      return 1;
    }

  start = g_get_monotonic_time ();
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error)) != NULL)
    {
      g_autofree char *text = line;
      g_autoptr (GrammarRecord) record = NULL;
      g_autoptr (GrammarVerdict) verdict = NULL;
      g_autofree char *json = NULL;

      if (g_strstrip (text)[0] == '\0')
        continue;
      if (!json_parser_load_from_data (parser, text, -1, &error) ||
          (record = grammar_record_new_from_json (json_parser_get_root (parser), &error)) == NULL)
        die (argv[1], error);
      verdict = grammar_matcher_judge (matcher, record, NULL, &error);
      if (verdict == NULL)
        die ("judge", error);
      json = verdict_line (record, verdict);
      fprintf (out, "%s\n", json);
      n++;
    }
  if (error != NULL)
    die (argv[1], error);
  fclose (out);
  printf ("{\"records\": %u, \"seconds\": %.6f}\n", n, (g_get_monotonic_time () - start) / 1e6);
  return 0;
}
