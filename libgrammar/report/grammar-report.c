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
#include "grammar-reliability-private.h"
#include "grammar-retrieval-metrics-private.h"
#include "grammar-report.h"
#include "grammar-report-private.h"
#include "grammar-report-read-private.h"

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
 *   the breakdowns by style, template (by its SQL and an example text
 *   query, from `templates`) and table, the gap groups and the errors of
 *   non-robust groups with their module attribution, the comparison with
 *   its tests and conclusion when there is one, and the `pairs` of a run
 *   of several styles. Long cells are elided with "…" or wrapped; control
 *   characters in the data are shown as spaces.
 * - %GRAMMAR_REPORT_FORMAT_JSON: @report itself, pretty-printed.
 * - %GRAMMAR_REPORT_FORMAT_MARKDOWN: the same content as the text, as
 *   GitHub-flavoured Markdown tables; the data's text is escaped so that
 *   it shows as written.
 * - %GRAMMAR_REPORT_FORMAT_HTML: one self-contained HTML page (inline
 *   CSS, no script, nothing loaded from elsewhere) with the same tables
 *   and SVG charts: groups by tag, robustness by style and by template
 *   with their intervals as error bars, and both sides of a comparison.
 *   All the data's text is escaped. The page fits a window of 390 px
 *   and up without scrolling sideways.
 *
 * In the text, Markdown and HTML formats a value of the data longer than
 * 200 characters is cut there, with a note that the JSON has it whole;
 * the HTML page has the rest of it behind a `<details>`, up to 2,000
 * characters.
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
  g_return_val_if_fail (report != NULL, FALSE);
  g_return_val_if_fail (format <= GRAMMAR_REPORT_FORMAT_HTML, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return grammar_report_write_listed (report, format, 0, stream, cancellable, error);
}

/* As grammar_report_write(), the text, Markdown and HTML formats showing
 * at most @max_list entries of each list (0: all the report has); the
 * JSON is written whole. */
gboolean
grammar_report_write_listed (JsonNode             *report,
                             GrammarReportFormat   format,
                             guint                 max_list,
                             GOutputStream        *stream,
                             GCancellable         *cancellable,
                             GError              **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GrammarReportDocument) doc = NULL;

  if (!grammar_report_check (report, error) || g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (format == GRAMMAR_REPORT_FORMAT_JSON)
    return write_json (report, stream, cancellable, error);
  doc = grammar_report_document_build (json_node_get_object (report), format == GRAMMAR_REPORT_FORMAT_HTML,
                                       max_list);
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
  guint max_list;
} FileWrite;

static gboolean
write_file_content (GOutputStream  *stream,
                    gpointer        user_data,
                    GCancellable   *cancellable,
                    GError        **error)
{
  FileWrite *write = user_data;

  return grammar_report_write_listed (write->report, write->format, write->max_list, stream, cancellable, error);
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
  g_return_val_if_fail (report != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return grammar_report_write_listed_to_file (report, format, 0, path, cancellable, error);
}

/* As grammar_report_write_to_file(), with the lists capped as
 * grammar_report_write_listed() does. */
gboolean
grammar_report_write_listed_to_file (JsonNode             *report,
                                     GrammarReportFormat   format,
                                     guint                 max_list,
                                     const char           *path,
                                     GCancellable         *cancellable,
                                     GError              **error)
{
  FileWrite write = { report, format, max_list };

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

/* What sees each judged record as a report reads it: the record is
 * measured and dropped, never kept. */
typedef struct
{
  GrammarRetrievalMetrics *retrieval;
  GrammarReliability *reliability;  /* with assessed files, else NULL */
  guint side;
} Reading;

static void
read_record (GrammarRecord *record,
             gpointer       user_data)
{
  Reading *reading = user_data;

  grammar_retrieval_metrics_add_record (reading->retrieval, record);
  if (reading->reliability != NULL)
    grammar_reliability_add_judged_record (reading->reliability, record, reading->side);
}

/* Reads the judged file @path once into an evaluation, its retrieval
 * metrics at @cutoffs and, when given, @reliability's judged records. */
static GrammarEvaluation *
read_judged (const char               *path,
             guint                     side,
             const guint              *cutoffs,
             gsize                     n_cutoffs,
             GrammarReliability       *reliability,
             GrammarRetrievalMetrics **retrieval,
             GError                  **error)
{
  g_autoptr (GrammarRetrievalMetrics) metrics = grammar_retrieval_metrics_new ();
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  Reading reading = { metrics, reliability, side };

  grammar_retrieval_metrics_set_cutoffs (metrics, cutoffs, n_cutoffs);
  evaluation = grammar_evaluation_load_for_report (path, read_record, &reading, NULL, error);
  if (evaluation == NULL)
    return NULL;
  grammar_retrieval_metrics_set_tags (metrics, evaluation);
  if (reliability != NULL)
    grammar_reliability_add_judged_read (reliability, evaluation);
  *retrieval = g_steal_pointer (&metrics);
  return g_steal_pointer (&evaluation);
}

/* The warning of the compared run @b, when it has one, added to the
 * report's `warnings` with the run named. */
static void
add_against_warning (JsonObject        *root,
                     GrammarEvaluation *b,
                     const char        *against)
{
  g_autofree char *warning = grammar_evaluation_dup_unreported_warning (b);
  g_autofree char *named = NULL;
  JsonArray *warnings;

  if (warning == NULL)
    return;
  if (!json_object_has_member (root, "warnings"))
    {
      json_object_set_array_member (root, "warnings", json_array_new ());
      named = g_strdup_printf ("%s: %s", against, warning);
    }
  else  /* the run's own warning says it all already */
    named = g_strdup_printf ("%s: retrieval is unmeasured there too, its system reported no documents either",
                             against);
  warnings = json_object_get_array_member (root, "warnings");
  json_array_add_string_element (warnings, named);
}

/* The report of grammar_report_build_full(); with @lists FALSE its
 * `gap_groups` and `debug` are empty and @input's evaluation is returned
 * in @evaluation, for a writer that reads them one at a time. */
static JsonNode *
build (const char          *input,
       const char          *against,
       const char * const  *assessed,
       const guint         *cutoffs,
       gsize                n_cutoffs,
       gboolean             balance,
       double               alpha,
       guint                max_list,
       gboolean             lists,
       GrammarEvaluation  **evaluation,
       GError             **error)
{
  g_autoptr (GrammarEvaluation) a = NULL;
  g_autoptr (GrammarEvaluation) b = NULL;
  g_autoptr (GrammarRetrievalMetrics) retrieval_a = NULL;
  g_autoptr (GrammarRetrievalMetrics) retrieval_b = NULL;
  g_autoptr (GrammarReliability) reliability = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonObject *root;

  if (assessed != NULL && assessed[0] != NULL)
    reliability = grammar_reliability_new ();
  a = read_judged (input, 0, cutoffs, n_cutoffs, reliability, &retrieval_a, error);
  if (a == NULL)
    return NULL;
  report = grammar_evaluation_build_json (a, lists, max_list, error);
  if (report == NULL)
    return NULL;
  root = json_node_get_object (report);
  json_object_set_member (root, "retrieval_metrics", grammar_retrieval_metrics_to_json (retrieval_a));
  if (against != NULL)
    {
      g_autoptr (GrammarComparison) comparison = NULL;
      JsonNode *comparison_json;

      b = read_judged (against, 1, cutoffs, n_cutoffs, reliability, &retrieval_b, error);
      if (b == NULL)
        return NULL;
      add_against_warning (root, b, against);
      comparison = grammar_comparison_new (a, b, balance, alpha, error);
      if (comparison == NULL)
        return NULL;
      comparison_json = grammar_comparison_to_json (comparison);
      json_object_set_member (json_node_get_object (comparison_json), "retrieval_metrics",
                              grammar_retrieval_metrics_compare (retrieval_a, retrieval_b, alpha));
      json_object_set_member (root, "comparison", comparison_json);
    }
  if (reliability != NULL)
    {
      JsonNode *keypoints;

      for (guint i = 0; assessed[i] != NULL; i++)
        if (!grammar_reliability_add_assessed (reliability, assessed[i], NULL, error))
          return NULL;
      json_object_set_member (root, "reliability", grammar_reliability_to_json (reliability));
      keypoints = grammar_reliability_keypoints_to_json (reliability, alpha);
      if (keypoints != NULL)
        json_object_set_member (root, "keypoints", keypoints);
    }
  if (evaluation != NULL)
    *evaluation = g_steal_pointer (&a);
  return g_steal_pointer (&report);
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
  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (cutoffs != NULL || n_cutoffs == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return build (input, against, assessed, cutoffs, n_cutoffs, balance, alpha, max_list, TRUE, NULL, error);
}

/* The keys of the entries of a breakdown array. */
static gboolean
breakdown_has_key (JsonArray  *entries,
                   const char *key)
{
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      if (entry != NULL && g_strcmp0 (json_object_get_string_member_with_default (entry, "key", NULL), key) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Adds to @by_style (the report's retrieval_metrics.by_style) the styles
 * of @retrieval it does not have yet. */
static void
add_retrieval_styles (JsonObject              *by_style,
                      GrammarRetrievalMetrics *retrieval)
{
  g_autoptr (JsonNode) measures = grammar_retrieval_metrics_to_json (retrieval);
  JsonObject *styles = json_object_get_object_member (json_node_get_object (measures), "by_style");
  g_autoptr (GList) names = styles != NULL ? json_object_get_members (styles) : NULL;

  for (GList *l = by_style != NULL ? names : NULL; l != NULL; l = l->next)
    if (!json_object_has_member (by_style, l->data))
      json_object_set_member (by_style, l->data, json_object_dup_member (styles, l->data));
}

/* The report of a run of several styles, one judged file a style in the
 * run's order: the report of @judged[@a] against @judged[@b] (no
 * comparison when @b is G_MAXUINT), whose `by_style` (and that of its
 * `retrieval_metrics`) then has every style, each measured on its own
 * file, and whose `pairs` holds the
 * comparison of the first style with each other one. Each file is read
 * once more for this, and no record is kept. */
JsonNode *
grammar_report_build_styles (const char * const  *judged,
                             guint                a,
                             guint                b,
                             const char * const  *assessed,
                             double               alpha,
                             guint                max_list,
                             GError             **error)
{
  g_autoptr (JsonNode) report = NULL;
  g_autoptr (JsonArray) by_style = NULL;
  g_autoptr (JsonArray) pairs = NULL;
  g_autoptr (GrammarEvaluation) first = NULL;
  JsonObject *root, *retrieval_by_style;

  g_return_val_if_fail (judged != NULL && judged[0] != NULL, NULL);
  g_return_val_if_fail (a < g_strv_length ((char **) judged), NULL);
  g_return_val_if_fail (b == G_MAXUINT || (b < g_strv_length ((char **) judged) && b != a), NULL);

  report = build (judged[a], b != G_MAXUINT ? judged[b] : NULL, assessed, NULL, 0, FALSE, alpha, max_list, TRUE,
                  NULL, error);
  if (report == NULL || judged[1] == NULL)
    return g_steal_pointer (&report);
  root = json_node_get_object (report);
  by_style = json_array_new ();
  pairs = json_array_new ();
  retrieval_by_style = json_object_get_object_member (json_object_get_object_member (root, "retrieval_metrics"),
                                                      "by_style");
  for (guint i = 0; judged[i] != NULL; i++)
    {
      g_autoptr (GrammarRetrievalMetrics) retrieval = NULL;
      g_autoptr (GrammarEvaluation) evaluation = read_judged (judged[i], 0, NULL, 0, NULL, &retrieval, error);
      g_autoptr (JsonNode) styles = NULL;
      JsonArray *entries;

      if (evaluation == NULL)
        return NULL;
      add_retrieval_styles (retrieval_by_style, retrieval);
      styles = grammar_evaluation_by_style_json (evaluation);
      entries = json_node_get_array (styles);
      for (guint e = 0; e < json_array_get_length (entries); e++)
        {
          JsonObject *entry = json_array_get_object_element (entries, e);

          if (!breakdown_has_key (by_style, json_object_get_string_member_with_default (entry, "key", NULL)))
            json_array_add_element (by_style, json_array_dup_element (entries, e));
        }
      if (i == 0)
        first = g_steal_pointer (&evaluation);
      else
        {
          g_autoptr (GrammarComparison) comparison = grammar_comparison_new (first, evaluation, FALSE, alpha, error);

          if (comparison == NULL)
            return NULL;
          json_array_add_element (pairs, grammar_comparison_to_json (comparison));
        }
    }
  json_object_set_array_member (root, "by_style", g_steal_pointer (&by_style));
  json_object_set_array_member (root, "pairs", g_steal_pointer (&pairs));
  return g_steal_pointer (&report);
}

/* Writing a report while its lists are read */

#define FLUSH_AT (1 << 20)

typedef struct
{
  GString *out;
  GOutputStream *stream;
  GCancellable *cancellable;
  guint n;                   /* entries of the list being written */
} Streaming;

static gboolean
flush (Streaming  *streaming,
       gboolean    all,
       GError    **error)
{
  if (!all && streaming->out->len < FLUSH_AT)
    return TRUE;
  if (!g_output_stream_write_all (streaming->stream, streaming->out->str, streaming->out->len, NULL,
                                  streaming->cancellable, error))
    return FALSE;
  g_string_truncate (streaming->out, 0);
  return TRUE;
}

/* An entry at depth 2 of the report, laid out as in write_json(). */
static gboolean
write_entry (JsonNode  *entry,
             gpointer   user_data,
             GError   **error)
{
  Streaming *streaming = user_data;

  if (streaming->n++ > 0)
    g_string_append (streaming->out, ",\n");
  g_string_append (streaming->out, "    ");
  grammar_json_append_node_at (streaming->out, entry, 2, 2);
  return !g_cancellable_set_error_if_cancelled (streaming->cancellable, error) && flush (streaming, FALSE, error);
}

/* The report as write_json() writes it, byte for byte, its lists read
 * from @evaluation one entry at a time instead of held in @report. */
static gboolean
write_json_streaming (JsonNode           *report,
                      GrammarEvaluation  *evaluation,
                      guint               max_list,
                      GOutputStream      *stream,
                      GCancellable       *cancellable,
                      GError            **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  Streaming streaming = { out, stream, cancellable, 0 };
  JsonObject *root = json_node_get_object (report);
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  guint n = json_object_get_size (root), i = 0;

  g_string_append (out, "{\n");
  json_object_iter_init_ordered (&iter, root);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      g_autoptr (JsonNode) name_node = json_node_init_string (json_node_alloc (), name);
      gboolean gap_groups = g_str_equal (name, "gap_groups");

      g_string_append (out, "  ");
      grammar_json_append_node_at (out, name_node, 2, 1);
      g_string_append (out, " : ");
      if (gap_groups || g_str_equal (name, "debug"))
        {
          streaming.n = 0;
          g_string_append (out, "[\n");
          if (!grammar_evaluation_foreach_listed (evaluation,
                                                  gap_groups ? GRAMMAR_EVALUATION_LIST_GAP_GROUPS
                                                             : GRAMMAR_EVALUATION_LIST_DEBUG,
                                                  max_list, write_entry, &streaming, error))
            return FALSE;
          g_string_append (out, streaming.n > 0 ? "\n  ]" : "  ]");
        }
      else
        grammar_json_append_node_at (out, member, 2, 1);
      if (++i < n)
        g_string_append_c (out, ',');
      g_string_append_c (out, '\n');
      if (!flush (&streaming, FALSE, error))
        return FALSE;
    }
  g_string_append (out, "}\n");
  return flush (&streaming, TRUE, error);
}

typedef struct
{
  const char *input;
  const char *against;
  const char * const *assessed;
  const guint *cutoffs;
  gsize n_cutoffs;
  gboolean balance;
  double alpha;
  guint max_list;
  GrammarReportFormat format;
} Request;

static gboolean
write_request (GOutputStream  *stream,
               gpointer        user_data,
               GCancellable   *cancellable,
               GError        **error)
{
  const Request *request = user_data;
  g_autoptr (GrammarEvaluation) evaluation = NULL;
  g_autoptr (JsonNode) report = NULL;
  gboolean json = request->format == GRAMMAR_REPORT_FORMAT_JSON;

  report = build (request->input, request->against, request->assessed, request->cutoffs, request->n_cutoffs,
                  request->balance, request->alpha, request->max_list, !json, json ? &evaluation : NULL, error);
  if (report == NULL)
    return FALSE;
  if (!json)
    return grammar_report_write (report, request->format, stream, cancellable, error);
  if (!grammar_report_check (report, error) || g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return write_json_streaming (report, evaluation, request->max_list, stream, cancellable, error);
}

/**
 * grammar_report_write_full:
 * @input: (type filename): a judged run (JSON Lines)
 * @against: (type filename) (nullable): a second judged run to compare with
 * @assessed: (nullable) (array zero-terminated=1) (element-type filename):
 *   assessed files of the records of @input and @against, or %NULL
 * @cutoffs: (nullable) (array length=n_cutoffs): the ks of the retrieval
 *   metrics, 0 for what each record retrieved
 * @n_cutoffs: how many; 0 for the default, what was retrieved
 * @balance: with @against, drop gap groups from the side that has more
 *   until their shares match
 * @alpha: with @against, the significance level of the tests
 * @max_list: how many gap groups and errors to list, at most (0: all)
 * @format: the format to write
 * @path: (type filename) (nullable): the file to write, replaced
 *   atomically once the whole report is written; %NULL for @stream
 * @stream: (nullable): where to write when @path is %NULL
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Makes the report of grammar_report_build_full() and writes it as
 * grammar_report_write() does, the same bytes, reading each judged file
 * once without keeping its records: the memory holds the counts of the
 * groups and some 60 bytes a record, whatever the records hold. The
 * `json` format reads the records of its lists again, one entry at a
 * time, while it writes them; the other formats hold their lists.
 *
 * Returns: %TRUE on success, %FALSE with @error set (%GRAMMAR_ERROR_INVALID_INPUT
 *   for what grammar_report_build_full() rejects)
 */
gboolean
grammar_report_write_full (const char          *input,
                           const char          *against,
                           const char * const  *assessed,
                           const guint         *cutoffs,
                           gsize                n_cutoffs,
                           gboolean             balance,
                           double               alpha,
                           guint                max_list,
                           GrammarReportFormat  format,
                           const char          *path,
                           GOutputStream       *stream,
                           GCancellable        *cancellable,
                           GError             **error)
{
  Request request = { input, against, assessed, cutoffs, n_cutoffs, balance, alpha, max_list, format };

  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (cutoffs != NULL || n_cutoffs == 0, FALSE);
  g_return_val_if_fail (format <= GRAMMAR_REPORT_FORMAT_HTML, FALSE);
  g_return_val_if_fail (path != NULL || G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (path != NULL)
    return grammar_file_write_atomically (path, write_request, &request, cancellable, error);
  return write_request (stream, &request, cancellable, error);
}
