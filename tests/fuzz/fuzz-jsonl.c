/* fuzz-jsonl.c: JSON Lines records, as the stages read them
 *
 * The input is a JSON Lines file: a dataset, results, judged or assessed
 * records. It is read the ways the stages read it: each line as the
 * input record of a stage (grammar_jsonl_parse_record(), with the `id`
 * the stages require), the file as the output a resumed stage scans
 * (grammar_jsonl_scan_output()), and as the judged and the assessed file
 * of `grammar report --assessed`, whose report is then rendered in every
 * format, and written again by grammar_report_write_full() (one pass,
 * the lists read again), which must give the same bytes; its lists must
 * be those of the same file loaded with its records kept.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include <grammar.h>

#include "grammar-jsonl-private.h"

#include "fuzz-util.h"

static gboolean
count_record (JsonObject  *object,
              const char  *id,
              guint64      line,
              gpointer     user_data,
              GError     **error)
{
  (*(guint64 *) user_data)++;
  return TRUE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const required[] = { "id", NULL };
  const char *path = fuzz_write_input (data, size);
  const char * const assessed[] = { path, NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonNode) report = NULL;
  g_autoptr (GError) error = NULL;
  GrammarJsonlTail tail = { 0, };
  guint64 n_scanned = 0;
  const char *line = (const char *) data;
  const char *end = line + size;
  guint64 number = 0;

  while (line < end)
    {
      const char *newline = memchr (line, '\n', (size_t) (end - line));
      gsize length = (newline != NULL ? newline : end) - line;
      g_autoptr (GrammarRecord) record = NULL;
      g_autoptr (GError) line_error = NULL;

      number++;
      if (!grammar_jsonl_line_is_blank (line, length))
        {
          /* The parser takes the text with its length: no NUL needed after it. */
          record = grammar_jsonl_parse_record (parser, "input.jsonl", number, line, length, required, &line_error);
          if (record != NULL)
            {
              g_autoptr (JsonNode) node = grammar_record_to_json (record);
              g_autofree char *text = json_to_string (node, FALSE);
            }
        }
      line += length + 1;
    }

  grammar_jsonl_scan_output (path, count_record, &n_scanned, &tail, NULL, &error);
  g_clear_error (&error);

  report = grammar_report_build_with_assessed (path, NULL, assessed, FALSE, 0.05, 0, &error);

  /* the lists read again by offset are those of the records kept in memory */
  if (report != NULL)
    {
      g_autoptr (GrammarEvaluation) kept = grammar_evaluation_load (path, NULL, NULL);
      g_autoptr (JsonNode) expected = kept != NULL ? grammar_evaluation_to_json (kept, 0) : NULL;
      const char * const lists[] = { "gap_groups", "debug" };

      if (expected == NULL)
        g_error ("the report was built but the judged file does not load");
      for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
        if (!json_node_equal (json_object_get_member (json_node_get_object (expected), lists[i]),
                              json_object_get_member (json_node_get_object (report), lists[i])))
          g_error ("the report's %s differ from those of the kept records", lists[i]);
    }

  /* Every format of the tree; in text and json, grammar report's own
   * path (one pass, the json lists read again while written) must give
   * the same bytes, or fail where the tree was not built. */
  for (GrammarReportFormat format = GRAMMAR_REPORT_FORMAT_TEXT; format <= GRAMMAR_REPORT_FORMAT_HTML; format++)
    {
      g_autoptr (GOutputStream) tree = g_memory_output_stream_new_resizable ();
      g_autoptr (GOutputStream) streamed = NULL;
      g_autoptr (GBytes) tree_bytes = NULL;
      g_autoptr (GBytes) streamed_bytes = NULL;
      g_autoptr (GError) streamed_error = NULL;
      gboolean ok;

      if (report != NULL)
        grammar_report_write (report, format, tree, NULL, NULL);
      if (format > GRAMMAR_REPORT_FORMAT_JSON)
        continue;
      streamed = g_memory_output_stream_new_resizable ();
      ok = grammar_report_write_full (path, NULL, assessed, NULL, 0, FALSE, 0.05, 0, format, NULL, streamed, NULL,
                                      &streamed_error);
      if (ok != (report != NULL))
        g_error ("grammar_report_write_full %s where the tree %s", ok ? "wrote" : "failed",
                 report != NULL ? "was built" : "was not");
      if (!ok)
        continue;
      g_output_stream_close (tree, NULL, NULL);
      g_output_stream_close (streamed, NULL, NULL);
      tree_bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (tree));
      streamed_bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (streamed));
      if (!g_bytes_equal (tree_bytes, streamed_bytes))
        g_error ("the streamed report (format %d) differs from the tree's", format);
    }
  return 0;
}
