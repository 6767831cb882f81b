/* test-report.c: the report writers, and `grammar report`
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <sys/wait.h>

#include <grammar.h>

#include "grammar-test-util.h"

/* A report as GrammarEvaluation and GrammarComparison write it, by hand,
 * with hostile text where the data has text: quotes, HTML, Markdown, a
 * terminal escape, wide characters, and a key long enough to be elided. */
static const char report_json[] =
  "{\"format\": \"grammar-report-1\", \"source\": \"short.judged.jsonl\", \"styles\": [\"short\"],\n"
  " \"instances\": 570, \"measured\": 560, \"unmeasured\": 10, \"correct\": 157,\n"
  " \"groups\": {\"total\": 57, \"gap\": 27, \"robust\": 8, \"non_robust\": 22, \"unmeasured\": 0,\n"
  "            \"instances\": {\"gap\": 270, \"robust\": 80, \"non_robust\": 220, \"unmeasured\": 0}},\n"
  " \"accuracy\": 0.27543859649122807, \"robustness\": 0.5233333333333333, \"knowledge_accuracy\": 0.5263157894736842,\n"
  " \"retrieval\": {\"accuracy\": 0.3385964912280702, \"robustness\": 0.5666666666666667, \"measured\": 570,"
  " \"unmeasured\": 0},\n"
  " \"intervals\": {\"accuracy\": [0.2396, 0.3144], \"robustness\": [0.46699, 0.57906],\n"
  "               \"retrieval_accuracy\": [0.3005, 0.3788], \"retrieval_robustness\": [0.5101, 0.6215]},\n"
  " \"system_latency_ms\": {\"count\": 570, \"median\": 52, \"p95\": 181.5, \"max\": 2013, \"mean\": 61.25},\n"
  " \"by_style\": [{\"key\": \"short\", \"instances\": 570, \"measured\": 560, \"unmeasured\": 10, \"correct\": 157,\n"
  "   \"groups\": {\"total\": 57, \"gap\": 27, \"robust\": 8, \"non_robust\": 22},\n"
  "   \"accuracy\": 0.2754, \"robustness\": 0.5233, \"knowledge_accuracy\": 0.5263,\n"
  "   \"retrieval\": {\"accuracy\": 0.3386, \"robustness\": 0.5667},\n"
  "   \"intervals\": {\"robustness\": [0.467, 0.5791]}}],\n"
  " \"by_template\": [\n"
  "  {\"key\": \"s59acfeb862c4\", \"instances\": 20, \"unmeasured\": 0, \"groups\": {\"gap\": 1, \"robust\": 0,"
  " \"non_robust\": 1},\n"
  "   \"accuracy\": 0.25, \"robustness\": 0.5, \"knowledge_accuracy\": 0.5,"
  " \"retrieval\": {\"accuracy\": 0.3, \"robustness\": 0.6},\n"
  "   \"intervals\": {\"robustness\": [0.2366, 0.7634]}},\n"
  "  {\"key\": \"Zoë 東京 <b>|*x*|</b>\", \"instances\": 10, \"unmeasured\": 0,"
  " \"groups\": {\"gap\": 1, \"robust\": 0, \"non_robust\": 0},\n"
  "   \"accuracy\": 0.0, \"robustness\": null, \"knowledge_accuracy\": 0.0,"
  " \"retrieval\": {\"accuracy\": 0.1, \"robustness\": null},\n"
  "   \"intervals\": {\"robustness\": null}},\n"
  "  {\"key\": \"a-template-key-that-is-much-longer-than-the-column-allows\", \"instances\": 540,"
  " \"unmeasured\": 10,\n"
  "   \"groups\": {\"gap\": 25, \"robust\": 8, \"non_robust\": 21}, \"accuracy\": 0.2830, \"robustness\": 0.5291,"
  " \"knowledge_accuracy\": 0.537,\n"
  "   \"retrieval\": {\"accuracy\": 0.3444, \"robustness\": 0.5667}, \"intervals\": {\"robustness\": [0.47, 0.58]}}],\n"
  " \"by_table\": [],\n"
  " \"gap_groups\": [{\"group\": \"g7\", \"template\": \"s59acfeb862c4\", \"style\": \"short\",\n"
  "   \"sql\": \"SELECT Industry FROM \\\"Client\\\" WHERE Name = 'O''Brien'\", \"answer\": [[\"Retail\", 3]],"
  " \"instances\": 10,\n"
  "   \"texts\": [\"Industry of O'Brien?\", \"What does O'Brien do?\"], \"attribution\": \"retrieval\"}],\n"
  " \"debug\": [{\"id\": \"q12\", \"group\": \"g9\", \"template\": \"s59acfeb862c4\", \"style\": \"short\",\n"
  "   \"text\": \"Is a | b [link](x) \\\"quoted\\\"?\", \"answer\": [[\"Retail\"]],\n"
  "   \"response\": \"</svg><script>alert(1)</script>\\n\\u001b[31mred & <b>bold</b>\",\n"
  "   \"verdict\": \"incorrect\", \"retrieval\": \"correct\", \"attribution\": \"language-model\","
  " \"reason\": null}],\n"
  " \"comparison\": {\"a\": {\"source\": \"short.judged.jsonl\", \"styles\": [\"short\"]},\n"
  "   \"b\": {\"source\": \"long.judged.jsonl\", \"styles\": [\"long\"]},\n"
  "   \"shared_groups\": 57, \"only_a\": 0, \"only_b\": 0, \"mutual_gap_groups_removed\": 21,"
  " \"groups_compared\": 36,\n"
  "   \"balance\": false, \"lambda_a\": 0.1, \"lambda_b\": 0.15,\n"
  "   \"tests\": [{\"metric\": \"robustness\", \"a\": {\"successes\": 157, \"n\": 300, \"rate\": 0.5233333,"
  " \"interval\": [0.467, 0.5791]},\n"
  "              \"b\": {\"successes\": 122, \"n\": 280, \"rate\": 0.4357142, \"interval\": [0.3789, 0.4942]},\n"
  "              \"difference\": 0.0876190, \"z\": 2.1012345, \"p\": 0.0356123},\n"
  "             {\"metric\": \"retrieval_robustness\", \"a\": {\"successes\": 170, \"n\": 300, \"rate\": 0.5666667,"
  " \"interval\": [0.5101, 0.6215]},\n"
  "              \"b\": {\"successes\": 136, \"n\": 280, \"rate\": 0.4857143, \"interval\": [0.4276, 0.5442]},\n"
  "              \"difference\": 0.0809524, \"z\": 1.95, \"p\": 0.00000123}],\n"
  "   \"less_robust\": \"b\", \"significant\": true, \"alpha\": 0.05, \"module\": \"retrieval\",\n"
  "   \"agreement\": \"agree\",\n"
  "   \"conclusion\": \"long is less robust than short by both figures (accuracy 0.3935 vs 0.5065, z = -2.83,"
  " p = 0.0047; robustness 0.4357 vs 0.5233, z = -2.11, p = 0.035): its wordings fail more often whether the"
  " knowledge-gap groups are counted (accuracy) or left out (robustness, GRAMMAR §3.3, Eq. 1); the accuracy"
  " difference remains with language-model errors removed (retrieval accuracy 0.4419 vs 0.5484, p = 0.008):"
  " retrieval accounts for it\"}}\n";

/* Helpers */

static JsonNode *
parse (const char *text)
{
  g_autoptr (GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  g_assert_no_error (error);
  return node;
}

/* Renders @report in @format; NULL with @error set when that fails. */
static char *
render (JsonNode            *report,
        GrammarReportFormat  format,
        GError             **error)
{
  g_autoptr (GOutputStream) stream = g_memory_output_stream_new_resizable ();

  if (!grammar_report_write (report, format, stream, NULL, error))
    {
      /* Nothing is written before the report is checked. */
      g_assert_cmpuint (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream)), ==, 0);
      return NULL;
    }
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL));   /* NUL-terminated */
  g_assert_true (g_output_stream_close (stream, NULL, NULL));
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
}

static char *
render_text (const char          *json,
             GrammarReportFormat  format)
{
  g_autoptr (JsonNode) report = parse (json);
  g_autoptr (GError) error = NULL;
  char *text = render (report, format, &error);

  g_assert_no_error (error);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  return text;
}

/* Asserts that a line of @text matches @pattern (anchored, multi-line). */
static void
assert_line (const char *text,
             const char *pattern)
{
  g_autofree char *anchored = g_strdup_printf ("^%s$", pattern);

  if (!g_regex_match_simple (anchored, text, G_REGEX_MULTILINE, 0))
    g_error ("no line matches “%s” in:\n%s", pattern, text);
}

static void
assert_absent (const char *text,
               const char *needle)
{
  if (strstr (text, needle) != NULL)
    g_error ("“%s” should not be in:\n%s", needle, text);
}

static guint
count (const char *text,
       const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* Terminal columns, counting wide characters twice. */
static guint
display_width (const char *line,
               gssize      length)
{
  guint width = 0;

  for (const char *p = line; *p != '\0' && (length < 0 || p < line + length); p = g_utf8_next_char (p))
    width += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  return width;
}

/* The lines of the table that follows @heading's underline, up to the
 * next blank line. */
static GStrv
table_after (const char *text,
             const char *heading)
{
  g_autofree char *marker = g_strdup_printf ("%s\n", heading);
  const char *start = strstr (text, marker);
  const char *end;
  g_autofree char *block = NULL;

  g_assert_nonnull (start);
  start = strchr (start + strlen (marker), '\n') + 2;   /* past the underline and the blank line */
  end = strstr (start, "\n\n");
  block = g_strndup (start, end != NULL ? (gsize) (end - start) : strlen (start));
  return g_strsplit (block, "\n", -1);
}

/* Renderers */

static void
test_format_names (void)
{
  static const struct { const char *name; GrammarReportFormat format; } names[] = {
    { "text", GRAMMAR_REPORT_FORMAT_TEXT }, { "json", GRAMMAR_REPORT_FORMAT_JSON },
    { "markdown", GRAMMAR_REPORT_FORMAT_MARKDOWN }, { "html", GRAMMAR_REPORT_FORMAT_HTML },
  };
  GrammarReportFormat format = GRAMMAR_REPORT_FORMAT_HTML;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_true (grammar_report_format_from_string (names[i].name, &format));
      g_assert_cmpint (format, ==, names[i].format);
    }
  g_assert_false (grammar_report_format_from_string ("pdf", &format));
  g_assert_false (grammar_report_format_from_string ("HTML ", &format));
  g_assert_false (grammar_report_format_from_string (NULL, &format));
  g_assert_cmpint (format, ==, GRAMMAR_REPORT_FORMAT_HTML);   /* left as it was */
  g_assert_true (G_TYPE_IS_ENUM (GRAMMAR_TYPE_REPORT_FORMAT));
}

static void
test_text (void)
{
  g_autofree char *text = render_text (report_json, GRAMMAR_REPORT_FORMAT_TEXT);
  g_auto (GStrv) templates = table_after (text, "By template");
  guint width;

  g_assert_true (g_str_has_prefix (text, "GRAMMAR report: short.judged.jsonl\n==="));
  assert_line (text, "Instances +570");
  assert_line (text, "Unmeasured +10");
  assert_line (text, "Accuracy +0\\.2754  \\[0\\.2396, 0\\.3144\\]");
  assert_line (text, "Robustness +0\\.5233  \\[0\\.4670, 0\\.5791\\]");
  assert_line (text, "Knowledge accuracy +0\\.5263");
  assert_line (text, "Retrieval accuracy +0\\.3386  \\[0\\.3005, 0\\.3788\\]");
  assert_line (text, "Retrieval robustness +0\\.5667  \\[0\\.5101, 0\\.6215\\]");
  assert_line (text, "System latency: median 52 ms, 95th percentile 182 ms, longest 2013 ms, mean 61 ms \\(570 queries\\)\\.");
  assert_line (text, "gap +27 +270");
  assert_line (text, "non-robust +22 +220");
  assert_line (text, "robust +8 +80");
  assert_line (text, "total +57 +570");
  assert_absent (text, "0.27543");   /* four decimals */

  /* Breakdowns: every line of a table is as wide as the others, wide
   * characters counted twice; a template's column is 60 wide, the null
   * robustness shows as a dash. */
  assert_line (text, "short +570 +10 +27/8/22 +0\\.2754 +0\\.5233  \\[0\\.4670, 0\\.5791\\] +0\\.5263 +0\\.3386 +0\\.5667");
  g_assert_cmpuint (g_strv_length (templates), ==, 5);
  width = display_width (templates[0], -1);
  for (guint i = 1; templates[i] != NULL; i++)
    g_assert_cmpuint (display_width (templates[i], -1), ==, width);
  assert_line (text, "a-template-key-that-is-much-longer-than-the-column-allows +540 .*");
  assert_line (text, "Zoë 東京 <b>\\|\\*x\\*\\|</b> +10 +0 +1/0/0 +0\\.0000 +— +— +0\\.0000 +0\\.1000 +—");
  g_assert_nonnull (strstr (text, "By table\n--------\n\n(none)\n"));

  /* Gap groups and errors, one block each, with their attribution. */
  assert_line (text, "1 of 27 gap groups listed\\..*");
  assert_line (text, "Group g7");
  assert_line (text, "  Attribution: +retrieval");
  assert_line (text, "  SQL: +SELECT Industry FROM \"Client\" WHERE Name = 'O''Brien'");
  assert_line (text, "  Answer: +\\[\\[\"Retail\",3\\]\\]");
  assert_line (text, "  Texts: +Industry of O'Brien\\?");
  assert_line (text, " +What does O'Brien do\\?");
  assert_line (text, "Record q12");
  assert_line (text, "  Attribution: +language-model");
  assert_line (text, "  Reason: +—");
  /* The terminal escape of the response is not passed to the terminal. */
  assert_absent (text, "\033");
  assert_line (text, " + \\[31mred & <b>bold</b>");

  /* The comparison. */
  assert_line (text, "A: short \\(short\\.judged\\.jsonl\\)\\. B: long \\(long\\.judged\\.jsonl\\)\\.");
  assert_line (text, "Groups compared +36");
  assert_line (text, "Robustness +0\\.5233 \\(157/300\\)  \\[0\\.4670, 0\\.5791\\]  0\\.4357 \\(122/280\\)  "
               "\\[0\\.3789, 0\\.4942\\] +\\+0\\.0876 +\\+2\\.1012 +0\\.0356");
  assert_line (text, "Retrieval robustness .* +<0\\.0001");
  assert_line (text, "Less robust by accuracy: B \\(long\\)\\. Significant at α = 0\\.0500: yes\\. "
               "Module: retrieval\\.");
  assert_line (text, "Conclusion: long is less robust than short by both figures \\(accuracy 0\\.3935 vs 0\\.5065, "
               "z = -2\\.83, p = 0\\.0047; robustness .*\\): .*; the accuracy difference remains .*: retrieval "
               "accounts for it");
}

static void
test_json (void)
{
  g_autoptr (JsonNode) report = parse (report_json);
  g_autofree char *text = render_text (report_json, GRAMMAR_REPORT_FORMAT_JSON);
  g_autoptr (JsonNode) back = parse (text);

  g_assert_true (json_node_equal (report, back));
  g_assert_true (g_str_has_prefix (text, "{\n  \"format\" : \"grammar-report-1\""));
}

static void
test_markdown (void)
{
  g_autofree char *text = render_text (report_json, GRAMMAR_REPORT_FORMAT_MARKDOWN);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint rows = 0;

  g_assert_true (g_str_has_prefix (text, "# GRAMMAR report: short.judged.jsonl\n"));
  assert_line (text, "## Summary");
  assert_line (text, "\\| Figure \\| Value \\| 95 % interval \\|");
  assert_line (text, "\\| --- \\| ---: \\| --- \\|");
  assert_line (text, "\\| Accuracy \\| 0\\.2754 \\| \\[0\\.2396, 0\\.3144\\] \\|");
  assert_line (text, "\\| Robustness \\| 0\\.5233 \\| \\[0\\.4670, 0\\.5791\\] \\|");
  assert_line (text, "\\| gap \\| 27 \\| 270 \\|");
  assert_line (text, "System latency: median 52 ms, 95th percentile 182 ms, longest 2013 ms, mean 61 ms \\(570 queries\\)\\.");
  /* User text: Markdown and HTML are escaped, newlines become <br>. */
  assert_line (text, "\\| Zoë 東京 \\\\<b\\\\>\\\\\\|\\\\\\*x\\\\\\*\\\\\\|\\\\</b\\\\> \\| 10 \\| 0 \\| 1/0/0 \\| "
               "0\\.0000 \\| — \\| — \\| 0\\.0000 \\| 0\\.1000 \\| — \\|");
  g_assert_nonnull (strstr (text, "| Is a \\| b \\[link\\](x) \"quoted\"? |"));
  g_assert_nonnull (strstr (text, "| \\</svg\\>\\<script\\>alert(1)\\</script\\><br> \\[31mred \\& \\<b\\>bold\\</b\\> |"));
  assert_absent (text, "<script>");
  assert_absent (text, "\033");
  assert_line (text, "\\| Robustness \\| 0\\.5233 \\(157/300\\) \\| \\[0\\.4670, 0\\.5791\\] \\| .* \\| \\+0\\.0876 \\| "
               "\\+2\\.1012 \\| 0\\.0356 \\|");
  assert_line (text, "\\*\\*Conclusion:\\*\\* long is less robust than short by both figures \\(accuracy "
               "0\\.3935 vs 0\\.5065, z = -2\\.83, p = 0\\.0047; .*: retrieval accounts for it");

  /* Every row of the errors table has its 11 cells: no unescaped | in the data. */
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "| q12 |"))
      {
        guint bars = 0;

        for (const char *p = lines[i]; *p != '\0'; p++)
          bars += *p == '|' && (p == lines[i] || p[-1] != '\\');
        g_assert_cmpuint (bars, ==, 12);
        rows++;
      }
  g_assert_cmpuint (rows, ==, 1);
}

static void
test_html (void)
{
  g_autofree char *html = render_text (report_json, GRAMMAR_REPORT_FORMAT_HTML);

  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"));
  g_assert_nonnull (strstr (html, "<title>GRAMMAR report: short.judged.jsonl</title>"));
  g_assert_nonnull (strstr (html, "System latency: median 52 ms, 95th percentile 182 ms, longest 2013 ms, mean 61 ms"));
  g_assert_true (g_str_has_suffix (html, "</body>\n</html>\n"));

  /* Charts: groups, by style, by template, the comparison; nothing
   * breaks out of them, no script, nothing loaded from elsewhere. */
  g_assert_cmpuint (count (html, "<svg"), ==, 4);
  g_assert_cmpuint (count (html, "</svg>"), ==, 4);
  g_assert_cmpuint (count (html, "<table>"), ==, count (html, "</table>"));
  g_assert_cmpuint (count (html, "<figure>"), ==, count (html, "</figure>"));
  assert_absent (html, "<script");
  assert_absent (html, "src=");
  /* links only within the page: a template id to its row */
  g_assert_cmpuint (count (html, "href="), ==, 2);
  g_assert_cmpuint (count (html, "<a href=\"#template-s59acfeb862c4\">s59acfeb862c4</a>"), ==, 2);
  g_assert_cmpuint (count (html, "<tr id=\"template-s59acfeb862c4\">"), ==, 1);
  assert_absent (html, "url(");
  assert_absent (html, "@import");
  assert_absent (html, "\033");

  /* Escaped user text, in tables and in the charts' labels. */
  g_assert_nonnull (strstr (html, "&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;\n [31mred &amp; "
                                  "&lt;b&gt;bold&lt;/b&gt;"));
  g_assert_nonnull (strstr (html, "SELECT Industry FROM &quot;Client&quot; WHERE Name = &apos;O&apos;&apos;Brien&apos;"));
  g_assert_nonnull (strstr (html, ">Zoë 東京 &lt;b&gt;|*x*|&lt;/b&gt;<title>"));
  g_assert_nonnull (strstr (html, ">a-template-key-that-is-much-longe…<title>"
                                  "a-template-key-that-is-much-longer-than-the-column-allows</title>"));

  /* Figures: error bars with their bounds, a dash or n/a for null. */
  g_assert_nonnull (strstr (html, "<td class=\"num\">0.2754</td><td class=\"fig\">[0.2396, 0.3144]</td>"));
  g_assert_nonnull (strstr (html, ">0.5233 [0.4670, 0.5791]</text>"));
  g_assert_nonnull (strstr (html, ">0.4357 [0.3789, 0.4942]</text>"));
  g_assert_nonnull (strstr (html, "n/a (undefined)"));
  g_assert_nonnull (strstr (html, "<title>gap: 27</title>"));
  g_assert_nonnull (strstr (html, "gap: 27 groups, 270 instances"));
  g_assert_nonnull (strstr (html, "<p class=\"conclusion\"><strong>Conclusion:</strong> long is less robust than "
                                  "short by both figures (accuracy 0.3935 vs 0.5065, z = -2.83, p = 0.0047; "
                                  "robustness 0.4357 vs 0.5233, z = -2.11, p = 0.035): its wordings fail more often "
                                  "whether the knowledge-gap groups are counted (accuracy) or left out (robustness, "
                                  "GRAMMAR §3.3, Eq. 1); the accuracy difference remains with language-model errors "
                                  "removed (retrieval accuracy 0.4419 vs 0.5484, p = 0.008): retrieval accounts for "
                                  "it</p>"));
}

/* The fixture with what a run's report adds: `templates`, a template
 * without a row of its own, and `pairs`. */
static JsonNode *
report_with_templates (void)
{
  JsonNode *report = parse (report_json);
  JsonObject *root = json_node_get_object (report);
  g_autoptr (JsonNode) templates = parse (
    "{\"s59acfeb862c4\": {\"sql\": \"SELECT Age FROM people WHERE Name = 'Flann O''Brien'\","
    "  \"example\": \"How old is 'Flann O'Brien'?\"},"
    " \"unused\": {\"sql\": \"SELECT 1\", \"example\": null}}");
  g_autoptr (JsonNode) pairs = parse (
    "[{\"a\": {\"styles\": [\"short\"]}, \"b\": {\"styles\": [\"long\"]}, \"groups_compared\": 36,"
    "  \"tests\": [{\"metric\": \"accuracy\", \"a\": {\"rate\": 0.5065}, \"b\": {\"rate\": 0.3935}, \"p\": 0.0047},"
    "            {\"metric\": \"robustness\", \"a\": {\"rate\": 0.5233}, \"b\": {\"rate\": 0.4357}, \"p\": 0.00001}],"
    "  \"conclusion\": \"long is less robust than short\"},"
    " {\"a\": {\"styles\": [\"short\"]}, \"b\": {\"styles\": [\"interrogative\"]}, \"groups_compared\": 30,"
    "  \"tests\": [{\"metric\": \"accuracy\", \"a\": {\"rate\": 0.5}, \"b\": {\"rate\": 0.5}, \"p\": 1},"
    "            {\"metric\": \"robustness\", \"a\": {\"rate\": 0.6}, \"b\": {\"rate\": null}, \"p\": null}],"
    "  \"conclusion\": \"short and interrogative are equally robust\"}]");

  json_object_set_member (root, "templates", json_node_copy (templates));
  json_object_set_member (root, "pairs", json_node_copy (pairs));
  return report;
}

static char *
render_node (JsonNode            *report,
             GrammarReportFormat  format)
{
  g_autoptr (GError) error = NULL;
  char *text = render (report, format, &error);

  g_assert_no_error (error);
  return text;
}

/* Templates are shown by their SQL and an example text query, the id
 * beside them (in HTML the anchor a template id of the lists links to);
 * the pairs of a run of several styles are a table and their conclusions. */
static void
test_templates_and_pairs (void)
{
  g_autoptr (JsonNode) report = report_with_templates ();
  g_autofree char *text = render_node (report, GRAMMAR_REPORT_FORMAT_TEXT);
  g_autofree char *markdown = render_node (report, GRAMMAR_REPORT_FORMAT_MARKDOWN);
  g_autofree char *html = render_node (report, GRAMMAR_REPORT_FORMAT_HTML);

  /* text: the SQL in the key column, the example and id under it */
  assert_line (text, "SELECT Age FROM people WHERE Name = 'Flann O''Brien' +20 +0 +1/0/1 +0\\.2500 .*");
  assert_line (text, "  “How old is 'Flann O'Brien'\\?”");
  assert_line (text, "  s59acfeb862c4");
  /* a template the report has no SQL for keeps its id */
  assert_line (text, "Zoë 東京 <b>\\|\\*x\\*\\|</b> +10 .*");
  assert_line (text, "Every style against short");
  assert_line (text, "B +Groups +Acc\\. A +Acc\\. B +Acc\\. p +Rob\\. A +Rob\\. B +Rob\\. p");
  assert_line (text, "long +36 +0\\.5065 +0\\.3935 +0\\.0047 +0\\.5233 +0\\.4357 +<0\\.0001");
  assert_line (text, "interrogative +30 +0\\.5000 +0\\.5000 +1\\.0000 +0\\.6000 +— +—");
  assert_line (text, "short against long: long is less robust than short");
  assert_line (text, "short against interrogative: short and interrogative are equally robust");

  grammar_test_assert_contains (markdown, "| SELECT Age FROM people WHERE Name = 'Flann O''Brien'<br>“How old is "
                                          "'Flann O'Brien'?”<br>s59acfeb862c4 | 20 |");
  assert_line (markdown, "## Every style against short");

  grammar_test_assert_contains (html, "<tr id=\"template-s59acfeb862c4\"><td class=\"text template\">"
                                      "<code class=\"sql\">SELECT Age FROM people WHERE Name = &apos;Flann "
                                      "O&apos;&apos;Brien&apos;</code><span class=\"example\">“How old is "
                                      "&apos;Flann O&apos;Brien&apos;?”</span><span class=\"id\">s59acfeb862c4"
                                      "</span></td>");
  /* the lists link a template id to its row */
  g_assert_cmpuint (count (html, "<a href=\"#template-s59acfeb862c4\">s59acfeb862c4</a>"), ==, 2);
  /* the chart labels a template by its SQL, the example and id on hover */
  grammar_test_assert_contains (html, ">SELECT Age FROM people WHERE Name…<title>SELECT Age FROM people WHERE "
                                      "Name = &apos;Flann O&apos;&apos;Brien&apos;\nHow old is &apos;Flann "
                                      "O&apos;Brien&apos;?\ns59acfeb862c4</title>");
  grammar_test_assert_contains (html, "<h2>Every style against short</h2>");
}

/* A value longer than 200 characters is cut there in text and Markdown,
 * with a note that says where the rest is; HTML has the rest behind a
 * <details>, up to 2,000 characters, and the JSON has it whole. */
static void
test_long_values (void)
{
  g_autoptr (JsonNode) report = parse (report_json);
  JsonObject *entry = json_array_get_object_element (json_object_get_array_member (json_node_get_object (report),
                                                                                   "debug"), 0);
  g_autoptr (GString) huge = g_string_new ("Tail-first ");
  g_autofree char *text = NULL, *markdown = NULL, *html = NULL, *json = NULL;
  g_autofree char *first = NULL, *kept = NULL;
  const char *reason = "ééé-this-reason-is-three-hundred-characters-long-";

  while (huge->len < 300000)
    g_string_append (huge, "0123456789");
  json_object_set_string_member (entry, "response", huge->str);
  {
    g_autoptr (GString) long_reason = g_string_new (NULL);

    while (g_utf8_strlen (long_reason->str, -1) < 300)
      g_string_append (long_reason, reason);
    g_string_truncate (long_reason, g_utf8_offset_to_pointer (long_reason->str, 300) - long_reason->str);
    json_object_set_string_member (entry, "reason", long_reason->str);
  }
  text = render_node (report, GRAMMAR_REPORT_FORMAT_TEXT);
  markdown = render_node (report, GRAMMAR_REPORT_FORMAT_MARKDOWN);
  html = render_node (report, GRAMMAR_REPORT_FORMAT_HTML);
  json = render_node (report, GRAMMAR_REPORT_FORMAT_JSON);
  first = g_strndup (huge->str, 200);
  kept = g_strndup (huge->str, 2000);

  /* text: wrapped at 100 columns, cut at 200 characters */
  assert_line (text, "  Response: +Tail-first");
  assert_line (text, " +[0-9]+…");
  assert_line (text, " +\\[200 of 300001 characters shown; the JSON report has the whole value\\]");
  assert_line (text, " +\\[200 of 300 characters shown; the JSON report has the whole value\\]");
  g_assert_cmpuint (strlen (text), <, 20000);

  grammar_test_assert_contains (markdown, first);
  grammar_test_assert_contains (markdown, "… \\[200 of 300001 characters shown; the JSON report has the whole "
                                          "value\\] |");
  assert_absent (markdown, kept);
  g_assert_cmpuint (strlen (markdown), <, 20000);

  /* HTML: the first 200 characters, the next 1,800 a click away; a
   * value under 2,000 characters is there whole, without a note */
  g_assert_cmpuint (count (html, "<details><summary>"), ==, 2);
  grammar_test_assert_contains (html, "<details><summary>Tail-first 0123456789");
  grammar_test_assert_contains (html, "<span class=\"more\">… (300001 characters)</span></summary>");
  grammar_test_assert_contains (html, "<span class=\"more\">… (300 characters)</span></summary>");
  grammar_test_assert_contains (html, "…<span class=\"note\">[2000 of 300001 characters shown; the JSON report has "
                                      "the whole value]</span></details>");
  g_assert_cmpuint (count (html, "characters shown"), ==, 1);
  g_assert_cmpuint (strlen (html), <, 60000);

  grammar_test_assert_contains (json, huge->str);
}

/* The smallest report: the required members, all metrics undefined. */
static const char minimal_json[] =
  "{\"instances\": 3, \"unmeasured\": 3, \"groups\": {\"total\": 1, \"gap\": 0, \"robust\": 0, \"non_robust\": 0},\n"
  " \"accuracy\": null, \"robustness\": null, \"knowledge_accuracy\": null}";

static void
test_null_metrics (void)
{
  static const GrammarReportFormat formats[] = {
    GRAMMAR_REPORT_FORMAT_TEXT, GRAMMAR_REPORT_FORMAT_JSON, GRAMMAR_REPORT_FORMAT_MARKDOWN, GRAMMAR_REPORT_FORMAT_HTML,
  };
  g_autofree char *text = render_text (minimal_json, GRAMMAR_REPORT_FORMAT_TEXT);
  g_autofree char *markdown = render_text (minimal_json, GRAMMAR_REPORT_FORMAT_MARKDOWN);
  g_autofree char *html = render_text (minimal_json, GRAMMAR_REPORT_FORMAT_HTML);

  g_assert_true (g_str_has_prefix (text, "GRAMMAR report\n==============\n"));
  assert_line (text, "Accuracy +—  —");
  assert_line (text, "Robustness +—  —");
  assert_line (text, "Knowledge accuracy +—");
  assert_line (text, "Retrieval robustness +—  —");
  assert_line (text, "unmeasured +— +—");
  assert_absent (text, "By style");
  assert_absent (text, "Comparison");
  assert_line (markdown, "\\| Robustness \\| — \\| — \\|");
  g_assert_nonnull (strstr (html, "<title>GRAMMAR report</title>"));
  g_assert_cmpuint (count (html, "<svg"), ==, 1);   /* groups only */

  /* A comparison whose tests are undefined (no group left to compare). */
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr (JsonNode) report = parse (minimal_json);
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL;

      json_object_set_member (json_node_get_object (report), "comparison", parse (
        "{\"tests\": [{\"metric\": \"robustness\", \"a\": {\"successes\": 0, \"n\": 0, \"rate\": null,"
        " \"interval\": null}, \"b\": null, \"difference\": null, \"z\": null, \"p\": null}],"
        " \"less_robust\": null, \"significant\": false}"));
      out = render (report, formats[i], &error);
      g_assert_no_error (error);
      if (formats[i] == GRAMMAR_REPORT_FORMAT_TEXT)
        {
          assert_line (out, "Robustness +— \\(0/0\\)  — +— \\(—/—\\)  — +— +— +—");
          assert_line (out, "Less robust by accuracy: neither\\. Significant at α = —: no\\. Module: —\\.");
        }
    }
}

static void
test_missing_keys (void)
{
  static const struct { const char *json; const char *message; } cases[] = {
    { "[]", "the report must be a JSON object" },
    { "{\"unmeasured\": 0, \"groups\": {}, \"accuracy\": null}", "the report has no “instances” member" },
    { "{\"instances\": \"570\", \"unmeasured\": 0}", "the report's “instances” must be a number" },
    { "{\"instances\": 1, \"unmeasured\": 0}", "the report has no “groups” member" },
    { "{\"instances\": 1, \"unmeasured\": 0, \"groups\": 3}", "the report's “groups” must be an object" },
    { "{\"instances\": 1, \"unmeasured\": 0, \"groups\": {\"total\": 1, \"robust\": 0, \"non_robust\": 1}}",
      "the report has no “groups.gap” member" },
    { "{\"instances\": 1, \"unmeasured\": 0, \"groups\": {\"total\": 1, \"gap\": 0, \"robust\": 0, \"non_robust\": 1},"
      " \"robustness\": 1, \"knowledge_accuracy\": 1}", "the report has no “accuracy” member" },
    { "{\"instances\": 1, \"unmeasured\": 0, \"groups\": {\"total\": 1, \"gap\": 0, \"robust\": 0, \"non_robust\": 1},"
      " \"accuracy\": \"high\", \"robustness\": 1, \"knowledge_accuracy\": 1}",
      "the report's “accuracy” must be a number or null" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (GrammarReportFormat format = GRAMMAR_REPORT_FORMAT_TEXT; format <= GRAMMAR_REPORT_FORMAT_HTML; format++)
      {
        g_autoptr (JsonNode) report = parse (cases[i].json);
        g_autoptr (GError) error = NULL;
        g_autofree char *out = render (report, format, &error);

        g_assert_null (out);
        g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
        g_assert_cmpstr (error->message, ==, cases[i].message);
      }
}

static void
test_write_to_file (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("grammar-report-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "report.md", NULL);
  g_autofree char *bad_path = g_build_filename (dir, "bad.md", NULL);
  g_autoptr (JsonNode) report = parse (minimal_json);
  g_autoptr (JsonNode) bad = parse ("{\"instances\": 1}");
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autofree char *contents = NULL;

  g_assert_true (grammar_report_write_to_file (report, GRAMMAR_REPORT_FORMAT_MARKDOWN, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "# GRAMMAR report\n"));

  g_assert_false (grammar_report_write_to_file (bad, GRAMMAR_REPORT_FORMAT_MARKDOWN, bad_path, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_false (g_file_test (bad_path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  g_cancellable_cancel (cancellable);
  g_assert_false (grammar_report_write (report, GRAMMAR_REPORT_FORMAT_TEXT, stream, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  grammar_test_remove_tree (dir);
}

/* `grammar report` on judged files written here. Each group has four
 * records; a letter per record: C correct (retrieval correct), I
 * incorrect (retrieval incorrect), L incorrect with a sufficient context
 * (retrieval correct), U unmeasured. */

static char *
judged_jsonl (const char *style,
              const char *groups)
{
  g_auto (GStrv) patterns = g_strsplit (groups, " ", -1);
  GString *out = g_string_new (NULL);

  for (guint g = 0; patterns[g] != NULL; g++)
    for (guint k = 0; patterns[g][k] != '\0'; k++)
      {
        char letter = patterns[g][k];
        const char *verdict = letter == 'C' ? "correct" : letter == 'U' ? "unmeasured" : "incorrect";
        const char *retrieval = letter == 'C' || letter == 'L' ? "correct" : letter == 'U' ? "unmeasured"
                                : "incorrect";

        g_string_append_printf (out,
          "{\"id\": \"%s-%u-%u\", \"group\": \"g%u\", \"template\": \"t%u\", \"style\": \"%s\", "
          "\"text\": \"Industry of client %u, take %u?\", \"sql\": \"SELECT Industry FROM Client WHERE Name = "
          "'O''Brien %u'\", \"answer\": [[\"Retail\"]], \"response\": \"%s\", \"verdict\": \"%s\", "
          "\"retrieval\": \"%s\", \"judge\": {\"matcher\": \"contains\", \"score\": %d}}\n",
          style, g, k, g, g % 2, style, g, k, g, letter == 'C' ? "Retail" : "Bakery", verdict, retrieval,
          letter == 'C');
      }
  return g_string_free (out, FALSE);
}

typedef struct
{
  char *dir;
  char *short_path;
  char *long_path;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *short_jsonl = judged_jsonl ("short", "CCCC CCIL IIII CICC CCCU LIII");
  g_autofree char *long_jsonl = judged_jsonl ("long", "CIIC IIIL IIII CIII CCIU LIII");

  fixture->dir = grammar_test_make_tmp_dir ("grammar-report-cli-XXXXXX");
  fixture->short_path = grammar_test_write_file (fixture->dir, "short.jsonl", short_jsonl);
  fixture->long_path = grammar_test_write_file (fixture->dir, "long.jsonl", long_jsonl);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  grammar_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->short_path);
  g_free (fixture->long_path);
}

static void
test_cli_text (Fixture       *fixture,
               gconstpointer  data)
{
  g_auto (GrammarTestRun) run = { 0 };

  grammar_test_run (&run, fixture->dir, "report", "-i", "short.jsonl", NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  /* 6 groups: 2 gap, 2 robust (one with an unmeasured record), 2 non-robust;
   * 12 of 23 measured right, 12 of 15 outside gap groups. */
  assert_line (run.out, "Instances +24");
  assert_line (run.out, "Unmeasured +1");
  assert_line (run.out, "Accuracy +0\\.5217  \\[0\\.\\d{4}, 0\\.\\d{4}\\]");
  assert_line (run.out, "Robustness +0\\.8000  \\[0\\.\\d{4}, 0\\.\\d{4}\\]");
  assert_line (run.out, "Knowledge accuracy +0\\.6667");
  assert_line (run.out, "gap +2 +8");
  assert_line (run.out, "robust +2 +8");
  assert_line (run.out, "non-robust +2 +8");
  assert_line (run.out, "Group g2");
  assert_line (run.out, "Group g5");
  assert_line (run.out, "Record short-1-3");
  assert_absent (run.out, "Comparison");
}

static void
test_cli_json (Fixture       *fixture,
               gconstpointer  data)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_autoptr (JsonNode) report = NULL;
  JsonObject *root;
  JsonObject *comparison;

  grammar_test_run (&run, fixture->dir, "report", "-i", "short.jsonl", "--format", "json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  report = parse (run.out);
  root = json_node_get_object (report);
  g_assert_cmpint (json_object_get_int_member (root, "instances"), ==, 24);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "groups"), "gap"), ==, 2);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (root, "robustness"), 0.8, 1e-9);
  g_assert_false (json_object_has_member (root, "comparison"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "gap_groups")), ==, 2);
  g_clear_pointer (&report, json_node_unref);
  grammar_test_run_clear (&run);

  grammar_test_run (&run, fixture->dir, "report", "-i", "short.jsonl", "--against", "long.jsonl",
                    "--format", "json", "--max-list", "1", NULL);
  g_assert_cmpint (run.status, ==, 0);
  report = parse (run.out);
  root = json_node_get_object (report);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "gap_groups")), ==, 1);
  comparison = json_object_get_object_member (root, "comparison");
  g_assert_nonnull (comparison);
  g_assert_cmpint (json_object_get_int_member (comparison, "shared_groups"), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (comparison, "less_robust"), ==, "b");
  g_assert_nonnull (json_object_get_string_member (comparison, "conclusion"));
}

static void
test_cli_against (Fixture       *fixture,
                  gconstpointer  data)
{
  g_auto (GrammarTestRun) run = { 0 };

  grammar_test_run (&run, fixture->dir, "report", "-i", "short.jsonl", "--against", "long.jsonl", "--balance",
                    "--alpha", "0.1", NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, "A: short \\(short\\.jsonl\\)\\. B: long \\(long\\.jsonl\\)\\.");
  assert_line (run.out, "Shared groups +6");
  assert_line (run.out, "Gap groups balanced +yes");
  assert_line (run.out, "α +0\\.1000");
  assert_line (run.out, "Robustness +0\\.\\d{4} \\(\\d+/\\d+\\) .*");
  assert_line (run.out, "Less robust by accuracy: B \\(long\\)\\..*");
  /* Balanced, long keeps no gap group: its accuracy is its robustness,
   * and at alpha 0.1 both figures say so. */
  assert_line (run.out, "Conclusion: long is less robust than short by both figures \\(accuracy 0\\.4545 vs "
               "0\\.8000, z = -1\\.83, p = 0\\.067; robustness 0\\.4545 vs 0\\.8000, z = -1\\.83, "
               "p = 0\\.067\\): .*: retrieval accounts for it");
}

static void
test_cli_output_file (Fixture       *fixture,
                      gconstpointer  data)
{
  g_auto (GrammarTestRun) run = { 0 };
  g_autofree char *path = g_build_filename (fixture->dir, "report.html", NULL);
  g_autofree char *html = NULL;

  grammar_test_run (&run, fixture->dir, "report", "-i", "short.jsonl", "--against", "long.jsonl",
                    "--format", "html", "-o", "report.html", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_true (g_file_get_contents (path, &html, NULL, NULL));
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>"));
  g_assert_cmpuint (count (html, "<svg"), ==, 4);
  g_assert_nonnull (strstr (html, "<p class=\"conclusion\">"));
}

static void
assert_usage_error (Fixture            *fixture,
                    const char * const *args,
                    const char         *message)
{
  g_auto (GrammarTestRun) run = { 0 };

  grammar_test_runv (&run, fixture->dir, args);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_true (g_str_has_prefix (run.err, "grammar report: "));
  grammar_test_assert_contains (run.err, message);
}

static void
test_cli_bad_input (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *empty = grammar_test_write_file (fixture->dir, "empty.jsonl", "");
  g_autofree char *bad_verdict = grammar_test_write_file (fixture->dir, "verdict.jsonl",
    "{\"id\": \"a\", \"group\": \"g0\", \"verdict\": \"maybe\"}\n");
  g_autofree char *no_group = grammar_test_write_file (fixture->dir, "nogroup.jsonl",
    "{\"id\": \"a\", \"group\": \"g0\", \"verdict\": \"correct\"}\n{\"id\": \"b\", \"verdict\": \"correct\"}\n");
  g_autofree char *other = grammar_test_write_file (fixture->dir, "other.jsonl",
    "{\"id\": \"a\", \"group\": \"h0\", \"style\": \"long\", \"verdict\": \"correct\"}\n");
  g_autofree char *twice = grammar_test_write_file (fixture->dir, "twice.jsonl",
    "{\"id\": \"a\", \"group\": \"g0\", \"verdict\": \"correct\"}\n"
    "{\"id\": \"b\", \"group\": \"g1\", \"verdict\": \"correct\"}\n"
    "{\"id\": \"c\", \"group\": \"g2\", \"verdict\": \"correct\"}\n"
    "{\"id\": \"b\", \"group\": \"g3\", \"verdict\": \"correct\"}\n"
    "{\"id\": \"a\", \"group\": \"g4\", \"verdict\": \"correct\"}\n");
  const char * const empty_args[] = { "report", "-i", "empty.jsonl", NULL };
  /* the ids are checked once the file is read: the first record, in file order, that repeats an id */
  const char * const twice_args[] = { "report", "-i", "twice.jsonl", "--format", "json", NULL };
  const char * const verdict_args[] = { "report", "-i", "verdict.jsonl", NULL };
  const char * const group_args[] = { "report", "-i", "nogroup.jsonl", NULL };
  const char * const shared_args[] = { "report", "-i", "short.jsonl", "--against", "other.jsonl", NULL };
  const char * const against_args[] = { "report", "-i", "short.jsonl", "--against", "empty.jsonl", NULL };
  const char * const format_args[] = { "report", "-i", "short.jsonl", "--format", "pdf", NULL };
  const char * const input_args[] = { "report", NULL };
  const char * const balance_args[] = { "report", "-i", "short.jsonl", "--balance", NULL };
  const char * const alpha_args[] = { "report", "-i", "short.jsonl", "--against", "long.jsonl", "--alpha", "2",
                                      NULL };
  const char * const max_list_args[] = { "report", "-i", "short.jsonl", "--max-list", "-5", NULL };

  assert_usage_error (fixture, empty_args, "empty.jsonl");
  assert_usage_error (fixture, twice_args, "twice.jsonl:4: duplicate id “b” (also on line 2)");
  assert_usage_error (fixture, verdict_args, "verdict.jsonl:1:");
  assert_usage_error (fixture, group_args, "nogroup.jsonl:2:");
  assert_usage_error (fixture, shared_args, "short.jsonl and other.jsonl share no group");
  assert_usage_error (fixture, against_args, "empty.jsonl");
  assert_usage_error (fixture, format_args, "--format must be text, json, markdown or html");
  assert_usage_error (fixture, input_args, "no judged file given");
  assert_usage_error (fixture, balance_args, "--balance and --alpha only apply with --against");
  assert_usage_error (fixture, alpha_args, "--alpha must be between 0 and 1");
  assert_usage_error (fixture, max_list_args, "--max-list must not be negative");
}


/* A run of a user's HR service that reported no documents (judged as
 * the judge writes it: no `retrieved`, retrieval unmeasured): the
 * retrieval figures read "unmeasured", not 0, the gap groups are
 * attributed to neither module, and the report warns and names the keys
 * to look at. The same records with `"retrieved": []` from a service
 * that reports its documents are misses, with no warning. */
static char *
hr_judged_jsonl (const char *retrieved)
{
  /* a group and the number of its correct takes, of four */
  static const char * const groups[] = { "Oslo", "Bergen", "Tromsø" };
  static const guint correct[] = { 2, 0, 0 };
  GString *out = g_string_new (NULL);

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    for (guint k = 0; k < 4; k++)
      g_string_append_printf (out,
        "{\"id\": \"hr-%u-%u\", \"group\": \"%s\", \"template\": \"hr-approver\", \"style\": \"short\", "
        "\"text\": \"Who approves “parental leave” in %s, take %u?\", \"sql\": \"SELECT approver FROM policy "
        "WHERE office = '%s'\", \"answer\": [[\"margit.odegaard@hr.example\"]], "
        "\"doc_ids\": [\"HR-Policy v2.pdf#3\"], \"response\": \"%s\"%s%s, \"verdict\": \"%s\", "
        "\"retrieval\": \"%s\", \"judge\": {\"matcher\": \"contains\", \"score\": %d}}\n",
        g, k, groups[g], groups[g], k, groups[g],
        k < correct[g] ? "Ask margit.odegaard@hr.example" : "Ask your manager.",
        retrieved != NULL ? ", \"retrieved\": " : "", retrieved != NULL ? retrieved : "",
        k < correct[g] ? "correct" : "incorrect",
        retrieved == NULL ? "unmeasured" : k < correct[g] ? "correct" : "incorrect", k < correct[g]);
  return g_string_free (out, FALSE);
}

static void
test_unreported (void)
{
  g_autofree char *dir = grammar_test_make_tmp_dir ("grammar-report-unreported-XXXXXX");
  g_autofree char *none_jsonl = hr_judged_jsonl (NULL);
  g_autofree char *empty_jsonl = hr_judged_jsonl ("[]");
  g_autofree char *none = grammar_test_write_file (dir, "hr.judged.jsonl", none_jsonl);
  g_autofree char *empty = grammar_test_write_file (dir, "hr-reported.judged.jsonl", empty_jsonl);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) report = NULL;
  g_autofree char *markdown = NULL;
  JsonObject *root;

  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "report", "-i", "hr.judged.jsonl", NULL);
    g_assert_cmpint (run.status, ==, 0);
    assert_line (run.out, "Warning: retrieval is unmeasured: the system reported no documents for any of the 12 "
                 "answered records, .*point retrieved-pointer at them \\(and set reports-documents=true .*");
    assert_line (run.out, "Retrieval accuracy +unmeasured .*");
    assert_line (run.out, "Retrieval robustness +unmeasured .*");
    assert_line (run.out, "Retrieval unmeasured +12 *");
    assert_line (run.out, "Attribution of the 2 gap groups: 2 unknown \\(retrieval unmeasured\\), 0 retrieval, "
                 "0 language-model\\.");
    assert_line (run.out, "Retrieval is unmeasured \\(hit rate, MRR, recall, nDCG, EIR\\): .*0 without true "
                 "documents, 12 without retrieved documents\\.");
    assert_absent (run.out, "0.0000");
  }

  /* Reported empty lists: measured misses, blamed on retrieval. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, dir, "report", "-i", "hr-reported.judged.jsonl", NULL);
    g_assert_cmpint (run.status, ==, 0);
    assert_absent (run.out, "Warning");
    assert_absent (run.out, "Attribution of the");
    assert_line (run.out, "Retrieval accuracy +0\\.1667 .*");
  }

  /* The JSON, and the compared run's warning named by its file. */
  report = grammar_report_build_full (empty, none, NULL, NULL, 0, FALSE, 0.05, 0, &error);
  g_assert_no_error (error);
  root = json_node_get_object (report);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "warnings")), ==, 1);
  g_assert_true (g_str_has_prefix (json_array_get_string_element (json_object_get_array_member (root, "warnings"), 0),
                                   none));
  g_assert_false (json_object_has_member (root, "attribution"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                     json_object_get_array_member (root, "gap_groups"), 0), "attribution"), ==, "retrieval");
  markdown = render (report, GRAMMAR_REPORT_FORMAT_MARKDOWN, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (markdown, "## Warnings"));
  grammar_test_remove_tree (dir);
}

/* The report as grammar_report_write() renders grammar_report_build_full(). */
static GBytes *
written_from_tree (const char          *input,
                   const char          *against,
                   guint                max_list,
                   GrammarReportFormat  format)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) report = grammar_report_build_full (input, against, NULL, NULL, 0, FALSE, 0.05, max_list, &error);
  g_autoptr (GOutputStream) memory = g_memory_output_stream_new_resizable ();

  g_assert_no_error (error);
  g_assert_true (grammar_report_write (report, format, memory, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (memory, NULL, NULL));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

static GBytes *
written_streaming (const char          *input,
                   const char          *against,
                   guint                max_list,
                   GrammarReportFormat  format)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOutputStream) memory = g_memory_output_stream_new_resizable ();

  g_assert_true (grammar_report_write_full (input, against, NULL, NULL, 0, FALSE, 0.05, max_list, format, NULL,
                                            memory, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (memory, NULL, NULL));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

/* grammar_report_write_full() reads each judged file once and reads the
 * records of its lists again while it writes them: the bytes are those
 * of the report built in memory, in every format, for lines that end in
 * CRLF, are separated by blank lines or end without a newline. */
static void
test_streamed (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *short_jsonl = judged_jsonl ("short", "CCCC CCIL IIII CICC CCCU LIII");
  g_autoptr (GString) odd = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (short_jsonl, "\n", -1);
  g_autofree char *odd_path = NULL;
  const char *inputs[2];
  guint n_lines = g_strv_length (lines);

  /* the same records: CRLF on odd lines, a blank line every fifth, no final newline */
  for (guint i = 0; i < n_lines; i++)
    {
      if (*lines[i] == '\0')
        continue;
      if (i > 0)
        g_string_append (odd, i % 2 == 1 ? "\r\n" : "\n");
      if (i % 5 == 4)
        g_string_append (odd, "\n   \n");
      g_string_append (odd, lines[i]);
    }
  odd_path = grammar_test_write_file (fixture->dir, "odd.jsonl", odd->str);
  inputs[0] = fixture->short_path;
  inputs[1] = odd_path;

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    for (GrammarReportFormat format = GRAMMAR_REPORT_FORMAT_TEXT; format <= GRAMMAR_REPORT_FORMAT_HTML; format++)
      for (guint max_list = 0; max_list <= 3; max_list += 3)
        for (guint against = 0; against < 2; against++)
          {
            const char *other = against ? fixture->long_path : NULL;
            g_autoptr (GBytes) tree = written_from_tree (inputs[i], other, max_list, format);
            g_autoptr (GBytes) streamed = written_streaming (inputs[i], other, max_list, format);

            g_test_message ("input %u, format %d, max-list %u, against %u", i, format, max_list, against);
            g_assert_true (g_bytes_equal (tree, streamed));
            g_assert_cmpuint (g_bytes_get_size (streamed), >, 1000);
          }
}

/* The lists of a report read their records again from the file; those
 * of an evaluation that keeps its records are the same. */
static void
test_streamed_lists (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarEvaluation) kept = grammar_evaluation_load (fixture->short_path, NULL, &error);
  g_autoptr (JsonNode) expected = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonObject *root;
  const char * const lists[] = { "gap_groups", "debug" };

  g_assert_no_error (error);
  expected = grammar_evaluation_to_json (kept, 0);
  report = grammar_report_build_full (fixture->short_path, NULL, NULL, NULL, 0, FALSE, 0.05, 0, &error);
  g_assert_no_error (error);
  root = json_node_get_object (report);
  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      JsonNode *a = json_object_get_member (json_node_get_object (expected), lists[i]);
      JsonNode *b = json_object_get_member (root, lists[i]);

      g_assert_cmpuint (json_array_get_length (json_node_get_array (a)), >, 0);
      g_assert_true (json_node_equal (a, b));
    }
  /* 2 gap groups (g2, g5) and the 3 failing records of the non-robust g1 and g3 (g4 is robust: its U is unmeasured) */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "gap_groups")), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "debug")), ==, 3);
}

/* A judged file from a pipe (`-i <(zcat judged.jsonl.gz)`, /dev/stdin)
 * cannot be read again for the lists: its records are kept, and the
 * report is the file's, but for its source. */
static void
test_streamed_pipe (Fixture       *fixture,
                    gconstpointer  data)
{
  char *script = g_strdup ("cat short.jsonl | \"$GRAMMAR_EXE\" report -i /dev/stdin --format json");
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *from_file = NULL;
  g_auto (GStrv) parts = NULL;
  g_autoptr (GError) error = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (fixture->dir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, fixture->dir, "report", "-i", "short.jsonl", "--format", "json", NULL);
    g_assert_cmpint (run.status, ==, 0);
    from_file = g_strdup (run.out);
  }
  /* the same report but for "source" */
  parts = g_strsplit (from_file, "\"source\" : \"short.jsonl\"", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  expected = g_strjoinv ("\"source\" : \"/dev/stdin\"", parts);
  g_assert_cmpstr (out, ==, expected);
  grammar_test_assert_contains (out, "\"gap_groups\" : [\n    {");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* a duplicate id in a pipe is named by its lines, blank ones counted */
  g_free (script);
  script = g_strdup ("printf '%s\\n' '{\"id\":\"a\",\"group\":\"g0\",\"verdict\":\"correct\"}' '' "
                     "'{\"id\":\"b\",\"group\":\"g1\",\"verdict\":\"correct\"}' "
                     "'{\"id\":\"a\",\"group\":\"g2\",\"verdict\":\"correct\"}' | \"$GRAMMAR_EXE\" report -i /dev/stdin");
  argv[2] = script;
  g_assert_true (g_spawn_sync (fixture->dir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 2);
  grammar_test_assert_contains (err, "/dev/stdin:4: duplicate id “a” (also on line 1)");
  g_free (script);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/report/format-names", test_format_names);
  g_test_add_func ("/report/text", test_text);
  g_test_add_func ("/report/json", test_json);
  g_test_add_func ("/report/markdown", test_markdown);
  g_test_add_func ("/report/html", test_html);
  g_test_add_func ("/report/templates-and-pairs", test_templates_and_pairs);
  g_test_add_func ("/report/long-values", test_long_values);
  g_test_add_func ("/report/null-metrics", test_null_metrics);
  g_test_add_func ("/report/missing-keys", test_missing_keys);
  g_test_add_func ("/report/write-to-file", test_write_to_file);
  g_test_add_func ("/report/unreported", test_unreported);
  g_test_add ("/report/cli/text", Fixture, NULL, fixture_set_up, test_cli_text, fixture_tear_down);
  g_test_add ("/report/cli/json", Fixture, NULL, fixture_set_up, test_cli_json, fixture_tear_down);
  g_test_add ("/report/cli/against", Fixture, NULL, fixture_set_up, test_cli_against, fixture_tear_down);
  g_test_add ("/report/cli/output-file", Fixture, NULL, fixture_set_up, test_cli_output_file, fixture_tear_down);
  g_test_add ("/report/cli/bad-input", Fixture, NULL, fixture_set_up, test_cli_bad_input, fixture_tear_down);
  g_test_add ("/report/streamed", Fixture, NULL, fixture_set_up, test_streamed, fixture_tear_down);
  g_test_add ("/report/streamed-lists", Fixture, NULL, fixture_set_up, test_streamed_lists, fixture_tear_down);
  g_test_add ("/report/streamed-pipe", Fixture, NULL, fixture_set_up, test_streamed_pipe, fixture_tear_down);

  return g_test_run ();
}
