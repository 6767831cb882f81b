/* grammar-report.c: the report of a judged run, as text, JSON, Markdown or HTML
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-json-private.h"
#include "grammar-comparison.h"
#include "grammar-error.h"
#include "grammar-evaluation.h"
#include "grammar-evaluation-private.h"
#include "grammar-file-private.h"
#include "grammar-reliability.h"
#include "grammar-retrieval-metrics.h"
#include "grammar-report.h"
#include "grammar-report-private.h"

G_DEFINE_ENUM_TYPE (GrammarReportFormat, grammar_report_format,
  G_DEFINE_ENUM_VALUE (GRAMMAR_REPORT_FORMAT_TEXT, "text"),
  G_DEFINE_ENUM_VALUE (GRAMMAR_REPORT_FORMAT_JSON, "json"),
  G_DEFINE_ENUM_VALUE (GRAMMAR_REPORT_FORMAT_MARKDOWN, "markdown"),
  G_DEFINE_ENUM_VALUE (GRAMMAR_REPORT_FORMAT_HTML, "html"))


/* JSON */

/* Written by the product's one JSON writer, so that numbers come out as
 * in every other file, then to @stream (not into the buffer the other
 * formats share, which would hold a second copy). */
static gboolean
write_json (JsonNode       *report,
            GOutputStream  *stream,
            GCancellable   *cancellable,
            GError        **error)
{
  g_autoptr (GString) out = g_string_new (NULL);

  /* The one number writer of the product (grammar-json.c). */
  grammar_json_append_node (out, report, 2);
  g_string_append_c (out, '\n');
  return g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error);
}

/* Public API */

/**
 * grammar_report_format_from_string:
 * @text: (nullable): a format name: `text`, `json`, `markdown` or `html`
 * @format: (out): return location for the format
 *
 * Looks up a report format by the name the command line uses.
 *
 * Returns: %TRUE if @text names a format, %FALSE otherwise (@format is
 *   then left as it was)
 */
gboolean
grammar_report_format_from_string (const char          *text,
                                   GrammarReportFormat *format)
{
  g_autoptr (GEnumClass) enum_class = NULL;
  GEnumValue *value;

  g_return_val_if_fail (format != NULL, FALSE);

  if (text == NULL)
    return FALSE;
  enum_class = g_type_class_ref (GRAMMAR_TYPE_REPORT_FORMAT);
  value = g_enum_get_value_by_nick (enum_class, text);
  if (value == NULL)
    return FALSE;
  *format = value->value;
  return TRUE;
}

/**
 * grammar_report_write:
 * @report: the report JSON, as grammar_evaluation_to_json() makes it,
 *   with an optional `comparison` member from grammar_comparison_to_json()
 * @format: the format to write
 * @stream: where to write; it is not closed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Renders a report:
 *
 * - %GRAMMAR_REPORT_FORMAT_TEXT: aligned tables for a terminal: the
 *   headline figures with their Wilson intervals, the groups by tag,
 *   the breakdowns by style, template and table, the gap groups and the
 *   errors of non-robust groups with their module attribution, and the
 *   comparison with its tests and conclusion when there is one. Long
 *   cells are elided with "…"; control characters in the data are
 *   shown as spaces.
 * - %GRAMMAR_REPORT_FORMAT_JSON: @report itself, pretty-printed.
 * - %GRAMMAR_REPORT_FORMAT_MARKDOWN: the same content as the text, as
 *   GitHub-flavoured Markdown tables; the data's text is escaped so that
 *   it shows as written.
 * - %GRAMMAR_REPORT_FORMAT_HTML: one self-contained HTML page (inline
 *   CSS, no script, nothing loaded from elsewhere) with the same tables
 *   and SVG charts: groups by tag, robustness by style and by template
 *   with their intervals as error bars, and both sides of a comparison.
 *   All the data's text is escaped.
 *
 * Numbers are written with four decimals and a decimal point whatever
 * the locale; an undefined figure (null) is written as "—".
 *
 * @report must be an object with the members `instances`, `unmeasured`,
 * `groups` (with `total`, `gap`, `robust`, `non_robust`), `accuracy`,
 * `robustness` and `knowledge_accuracy` (numbers, the last three
 * possibly null); otherwise this fails with %GRAMMAR_ERROR_INVALID_INPUT
 * naming the member, before anything is written. The other members are
 * optional: what is missing is left out or shown as "—".
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_report_write (JsonNode             *report,
                      GrammarReportFormat   format,
                      GOutputStream        *stream,
                      GCancellable         *cancellable,
                      GError              **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (Document) doc = NULL;

  g_return_val_if_fail (report != NULL, FALSE);
  g_return_val_if_fail (format <= GRAMMAR_REPORT_FORMAT_HTML, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!grammar_report_check (report, error) || g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (format == GRAMMAR_REPORT_FORMAT_JSON)
    return write_json (report, stream, cancellable, error);
  doc = grammar_report_document_build (json_node_get_object (report), format == GRAMMAR_REPORT_FORMAT_HTML);
  if (format == GRAMMAR_REPORT_FORMAT_TEXT)
    grammar_report_render_text (out, doc);
  else if (format == GRAMMAR_REPORT_FORMAT_MARKDOWN)
    grammar_report_render_markdown (out, doc);
  else
    grammar_report_render_html (out, doc);
  return g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error);
}

typedef struct
{
  JsonNode *report;
  GrammarReportFormat format;
} FileWrite;

static gboolean
write_file_content (GOutputStream  *stream,
                    gpointer        user_data,
                    GCancellable   *cancellable,
                    GError        **error)
{
  FileWrite *write = user_data;

  return grammar_report_write (write->report, write->format, stream, cancellable, error);
}

/**
 * grammar_report_write_to_file:
 * @report: the report JSON, as for grammar_report_write()
 * @format: the format to write
 * @path: (type filename): the file to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Renders @report like grammar_report_write() into the file @path,
 * atomically: @path is replaced only once the whole report is written,
 * so a failure leaves the previous file, or none.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_report_write_to_file (JsonNode             *report,
                              GrammarReportFormat   format,
                              const char           *path,
                              GCancellable         *cancellable,
                              GError              **error)
{
  FileWrite write = { report, format };

  g_return_val_if_fail (report != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Checked first so that a bad report leaves no file behind. */
  if (!grammar_report_check (report, error))
    return FALSE;
  return grammar_file_write_atomically (path, write_file_content, &write, cancellable, error);
}

/**
 * grammar_report_build:
 * @input: (type filename): a judged run (JSON Lines)
 * @against: (type filename) (nullable): a second judged run to compare with
 * @balance: with @against, drop gap groups from the side that has more
 *   until their shares match
 * @alpha: with @against, the significance level of the tests
 * @max_list: how many gap groups and errors to list, at most (0: all)
 * @error: return location for a #GError
 *
 * The report of a judged run: its #GrammarEvaluation as JSON, with the
 * #GrammarComparison of the two runs as its `comparison` member when
 * @against is given. Render it with grammar_report_write().
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error set
 */
JsonNode *
grammar_report_build (const char  *input,
                      const char  *against,
                      gboolean     balance,
                      double       alpha,
                      guint        max_list,
                      GError     **error)
{
  return grammar_report_build_with_assessed (input, against, NULL, balance, alpha, max_list, error);
}

/**
 * grammar_report_build_with_assessed:
 * @input: (type filename): a judged run (JSON Lines)
 * @against: (type filename) (nullable): a second judged run to compare with
 * @assessed: (nullable) (array zero-terminated=1) (element-type filename):
 *   assessed files (`grammar assess`) of the records of @input and
 *   @against, or %NULL
 * @balance: with @against, drop gap groups from the side that has more
 *   until their shares match
 * @alpha: with @against, the significance level of the tests
 * @max_list: how many gap groups and errors to list, at most (0: all)
 * @error: return location for a #GError
 *
 * As grammar_report_build_full() with the default cutoff of the
 * retrieval metrics.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error set
 */
JsonNode *
grammar_report_build_with_assessed (const char         *input,
                                    const char         *against,
                                    const char * const *assessed,
                                    gboolean            balance,
                                    double              alpha,
                                    guint               max_list,
                                    GError            **error)
{
  return grammar_report_build_full (input, against, assessed, NULL, 0, balance, alpha, max_list, error);
}

static GrammarRetrievalMetrics *
retrieval_metrics_of (GrammarEvaluation *evaluation,
                      const guint       *cutoffs,
                      gsize              n_cutoffs)
{
  GrammarRetrievalMetrics *metrics = grammar_retrieval_metrics_new ();

  grammar_retrieval_metrics_set_cutoffs (metrics, cutoffs, n_cutoffs);
  grammar_retrieval_metrics_add_evaluation (metrics, evaluation);
  return metrics;
}

/**
 * grammar_report_build_full:
 * @input: (type filename): a judged run (JSON Lines)
 * @against: (type filename) (nullable): a second judged run to compare with
 * @assessed: (nullable) (array zero-terminated=1) (element-type filename):
 *   assessed files (`grammar assess`) of the records of @input and
 *   @against, or %NULL
 * @cutoffs: (nullable) (array length=n_cutoffs): the ks of the retrieval
 *   metrics, 0 for what each record retrieved
 * @n_cutoffs: how many; 0 for the default, what was retrieved
 * @balance: with @against, drop gap groups from the side that has more
 *   until their shares match
 * @alpha: with @against, the significance level of the tests
 * @max_list: how many gap groups and errors to list, at most (0: all)
 * @error: return location for a #GError
 *
 * The report of a judged run: its #GrammarEvaluation as JSON, with
 *
 * - `retrieval_metrics`: the #GrammarRetrievalMetrics of @input at
 *   @cutoffs;
 * - `comparison`: the #GrammarComparison of the two runs when @against
 *   is given, with the paired comparison of their retrieval metrics as
 *   its `retrieval_metrics` member;
 * - `reliability`: the reliability of the metrics of @assessed against
 *   the grounded verdicts of @input and @against (see
 *   #GrammarReliability), and `keypoints`: the keypoint figures of the
 *   metrics that give them (see grammar_reliability_keypoints_to_json()).
 *
 * Render it with grammar_report_write().
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error set
 */
JsonNode *
grammar_report_build_full (const char         *input,
                           const char         *against,
                           const char * const *assessed,
                           const guint        *cutoffs,
                           gsize               n_cutoffs,
                           gboolean            balance,
                           double              alpha,
                           guint               max_list,
                           GError            **error)
{
  g_autoptr (GrammarEvaluation) a = NULL;
  g_autoptr (GrammarEvaluation) b = NULL;
  g_autoptr (GrammarComparison) comparison = NULL;
  g_autoptr (GrammarRetrievalMetrics) retrieval_a = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonObject *root;

  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (cutoffs != NULL || n_cutoffs == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  a = grammar_evaluation_load_for_report (input, NULL, error);
  if (a == NULL)
    return NULL;
  report = grammar_evaluation_to_json (a, max_list);
  root = json_node_get_object (report);
  retrieval_a = retrieval_metrics_of (a, cutoffs, n_cutoffs);
  json_object_set_member (root, "retrieval_metrics", grammar_retrieval_metrics_to_json (retrieval_a));
  if (against != NULL)
    {
      g_autoptr (GrammarRetrievalMetrics) retrieval_b = NULL;
      JsonNode *comparison_json;

      b = grammar_evaluation_load_for_report (against, NULL, error);
      if (b == NULL)
        return NULL;
      comparison = grammar_comparison_new (a, b, balance, alpha, error);
      if (comparison == NULL)
        return NULL;
      comparison_json = grammar_comparison_to_json (comparison);
      retrieval_b = retrieval_metrics_of (b, cutoffs, n_cutoffs);
      json_object_set_member (json_node_get_object (comparison_json), "retrieval_metrics",
                              grammar_retrieval_metrics_compare (retrieval_a, retrieval_b, alpha));
      json_object_set_member (root, "comparison", comparison_json);
    }
  if (assessed != NULL && assessed[0] != NULL)
    {
      g_autoptr (GrammarReliability) reliability = grammar_reliability_new ();
      JsonNode *keypoints;

      grammar_reliability_add_judged (reliability, a);
      if (b != NULL)
        grammar_reliability_add_judged (reliability, b);
      for (guint i = 0; assessed[i] != NULL; i++)
        if (!grammar_reliability_add_assessed (reliability, assessed[i], NULL, error))
          return NULL;
      json_object_set_member (root, "reliability", grammar_reliability_to_json (reliability));
      keypoints = grammar_reliability_keypoints_to_json (reliability, alpha);
      if (keypoints != NULL)
        json_object_set_member (root, "keypoints", keypoints);
    }
  return g_steal_pointer (&report);
}
