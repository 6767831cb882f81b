/* grammar-report-model.c: the report as a document of headings, paragraphs, tables and charts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "grammar-report-format-private.h"
#include "grammar-report-private.h"
#include "grammar-report-read-private.h"
#include "grammar-report-svg-private.h"
#include "grammar-stats-private.h"


static const GrammarReportColumn figure_columns[] = {
  { "Figure", 0, 0 }, { "Value", COLUMN_NUMERIC, 0 }, { "95 % interval", 0, 0 },
};
static const GrammarReportColumn template_breakdown_columns[] = {
  { "Template", COLUMN_USER | COLUMN_TEMPLATE | COLUMN_WRAP, 60 }, { "Inst.", COLUMN_NUMERIC, 0 },
  { "Unm.", COLUMN_NUMERIC, 0 }, { "Gap/Rob./Non-rob.", COLUMN_NUMERIC, 0 }, { "Acc.", COLUMN_NUMERIC, 0 },
  { "Rob.", COLUMN_NUMERIC, 0 }, { "Rob. 95 %", 0, 0 }, { "K. acc.", COLUMN_NUMERIC, 0 },
  { "R. acc.", COLUMN_NUMERIC, 0 }, { "R. rob.", COLUMN_NUMERIC, 0 },
};
static const GrammarReportColumn group_columns[] = {
  { "Tag", 0, 0 }, { "Groups", COLUMN_NUMERIC, 0 }, { "Instances", COLUMN_NUMERIC, 0 },
};
static const GrammarReportColumn breakdown_columns[] = {
  { "Key", COLUMN_USER, 28 }, { "Inst.", COLUMN_NUMERIC, 0 }, { "Unm.", COLUMN_NUMERIC, 0 },
  { "Gap/Rob./Non-rob.", COLUMN_NUMERIC, 0 }, { "Acc.", COLUMN_NUMERIC, 0 }, { "Rob.", COLUMN_NUMERIC, 0 },
  { "Rob. 95 %", 0, 0 }, { "K. acc.", COLUMN_NUMERIC, 0 }, { "R. acc.", COLUMN_NUMERIC, 0 },
  { "R. rob.", COLUMN_NUMERIC, 0 },
};
/* The text format wraps the values of the lists at 100 columns. */
#define LIST_TEXT (COLUMN_USER | COLUMN_WRAP)
static const GrammarReportColumn gap_columns[] = {
  { "Group", COLUMN_USER, 0 }, { "Instances", COLUMN_NUMERIC, 0 }, { "Attribution", 0, 0 },
  { "Template", COLUMN_USER | COLUMN_TEMPLATE_ID, 0 }, { "Style", COLUMN_USER, 0 }, { "SQL", LIST_TEXT, 100 },
  { "Answer", LIST_TEXT, 100 }, { "Texts", LIST_TEXT, 100 },
};
static const GrammarReportColumn debug_columns[] = {
  { "Record", COLUMN_USER, 0 }, { "Group", COLUMN_USER, 0 }, { "Template", COLUMN_USER | COLUMN_TEMPLATE_ID, 0 },
  { "Style", COLUMN_USER, 0 }, { "Verdict", 0, 0 }, { "Retrieval", 0, 0 }, { "Attribution", 0, 0 },
  { "Text", LIST_TEXT, 100 }, { "Answer", LIST_TEXT, 100 }, { "Response", LIST_TEXT, 100 },
  { "Reason", LIST_TEXT, 100 },
};
static const GrammarReportColumn pair_columns[] = {
  { "B", COLUMN_USER, 0 }, { "Groups", COLUMN_NUMERIC, 0 }, { "Acc. A", COLUMN_NUMERIC, 0 },
  { "Acc. B", COLUMN_NUMERIC, 0 }, { "Acc. p", COLUMN_NUMERIC, 0 }, { "Rob. A", COLUMN_NUMERIC, 0 },
  { "Rob. B", COLUMN_NUMERIC, 0 }, { "Rob. p", COLUMN_NUMERIC, 0 },
};
static const GrammarReportColumn pairing_columns[] = {
  { "Figure", 0, 0 }, { "Value", COLUMN_NUMERIC, 0 },
};
static const GrammarReportColumn reliability_columns[] = {
  { "Metric", COLUMN_USER, 0 }, { "Slice", COLUMN_USER, 0 }, { "n", COLUMN_NUMERIC, 0 },
  { "Precision", COLUMN_NUMERIC, 0 }, { "Prec. 95 %", 0, 0 }, { "Recall", COLUMN_NUMERIC, 0 },
  { "Rec. 95 %", 0, 0 }, { "Spec.", COLUMN_NUMERIC, 0 }, { "Acc.", COLUMN_NUMERIC, 0 },
  { "AUROC", COLUMN_NUMERIC, 0 }, { "AUROC 95 %", 0, 0 }, { "Unm.", COLUMN_NUMERIC, 0 },
};
static const GrammarReportColumn paper_columns[] = {
  { "Metric", COLUMN_USER, 0 }, { "TP", COLUMN_NUMERIC, 0 }, { "FP", COLUMN_NUMERIC, 0 },
  { "FN", COLUMN_NUMERIC, 0 }, { "TN", COLUMN_NUMERIC, 0 }, { "Precision (z 95 %)", 0, 0 },
  { "Recall (z 95 %)", 0, 0 },
};
static const GrammarReportColumn retrieval_columns[] = {
  { "k", 0, 0 }, { "Slice", COLUMN_USER | COLUMN_TEMPLATE | COLUMN_WRAP, 40 }, { "n", COLUMN_NUMERIC, 0 }, { "Hit rate (95 %)", 0, 0 },
  { "Precision (95 %)", 0, 0 }, { "Recall (95 %)", 0, 0 }, { "MRR (95 %)", 0, 0 }, { "nDCG (95 %)", 0, 0 },
};
static const GrammarReportColumn rageval_columns[] = {
  { "Slice", COLUMN_USER, 28 }, { "n", COLUMN_NUMERIC, 0 }, { "RAGEval recall (95 %)", 0, 0 },
  { "EIR n", COLUMN_NUMERIC, 0 }, { "EIR (95 %)", 0, 0 },
};
static const GrammarReportColumn keypoint_columns[] = {
  { "Metric", COLUMN_USER, 0 }, { "Slice", COLUMN_USER, 28 }, { "n", COLUMN_NUMERIC, 0 },
  { "Completeness (95 %)", 0, 0 }, { "Hallucination (95 %)", 0, 0 }, { "Irrelevance (95 %)", 0, 0 },
};
static const GrammarReportColumn paired_columns[] = {
  { "Figure", COLUMN_USER, 0 }, { "Pairs", COLUMN_NUMERIC, 0 }, { "A", COLUMN_NUMERIC, 0 },
  { "B", COLUMN_NUMERIC, 0 }, { "B − A (95 %)", 0, 0 }, { "A>B/B>A/=", 0, 0 }, { "p", COLUMN_NUMERIC, 0 },
  { "Sig.", 0, 0 },
};
static const GrammarReportColumn test_columns[] = {
  { "Metric", 0, 0 }, { "A", COLUMN_NUMERIC, 0 }, { "A 95 %", 0, 0 }, { "B", COLUMN_NUMERIC, 0 },
  { "B 95 %", 0, 0 }, { "Difference", COLUMN_NUMERIC, 0 }, { "z", COLUMN_NUMERIC, 0 },
  { "p", COLUMN_NUMERIC, 0 },
};

/* Document */

static void
cell_clear (GrammarReportCell *cell)
{
  g_free (cell->text);
}

static GrammarReportTable *
table_new (const GrammarReportColumn *columns,
           guint                      n_columns,
           gboolean                   records)
{
  GrammarReportTable *table = g_new0 (GrammarReportTable, 1);

  table->columns = columns;
  table->n_columns = n_columns;
  table->records = records;
  table->cells = g_array_new (FALSE, TRUE, sizeof (GrammarReportCell));
  g_array_set_clear_func (table->cells, (GDestroyNotify) cell_clear);
  table->anchors = g_ptr_array_new_with_free_func (g_free);
  return table;
}

#define TABLE_NEW(columns, records) table_new (columns, G_N_ELEMENTS (columns), records)

/* A cell of @text (taken), valid UTF-8, its first CELL_KEPT characters
 * only: a value of megabytes is not held twice, nor rendered. */
static GrammarReportCell
cell_take (char *text)
{
  GrammarReportCell cell = { text, 0 };

  if (!g_utf8_validate (cell.text, -1, NULL))
    {
      cell.text = g_utf8_make_valid (text, -1);
      g_free (text);
    }
  cell.length = g_utf8_strlen (cell.text, -1);
  if (cell.length > CELL_KEPT)
    {
      char *end = g_utf8_offset_to_pointer (cell.text, CELL_KEPT);

      *end = '\0';
      cell.text = g_realloc (cell.text, end - cell.text + 1);
    }
  return cell;
}

static void
table_add_valist (GrammarReportTable *table,
                  char               *anchor,
                  va_list             ap)
{
  for (guint i = 0; i < table->n_columns; i++)
    {
      GrammarReportCell cell = cell_take (va_arg (ap, char *));

      g_array_append_val (table->cells, cell);
    }
  g_ptr_array_add (table->anchors, anchor);
}

/* Adds a row of exactly n_columns cells, each taken (transfer full). */
static void
table_add (GrammarReportTable *table,
           ...)
{
  va_list ap;

  va_start (ap, table);
  table_add_valist (table, NULL, ap);
  va_end (ap);
}

/* As table_add(), the row with the HTML id @anchor (taken). */
static void
table_add_anchored (GrammarReportTable *table,
                    char  *anchor,
                    ...)
{
  va_list ap;

  va_start (ap, anchor);
  table_add_valist (table, anchor, ap);
  va_end (ap);
}

guint
grammar_report_table_n_rows (const GrammarReportTable *table)
{
  return table->cells->len / table->n_columns;
}

const GrammarReportCell *
grammar_report_table_cell (const GrammarReportTable *table,
                           guint                     row,
                           guint                     column)
{
  return &g_array_index (table->cells, GrammarReportCell, row * table->n_columns + column);
}

/* The first CELL_SHOWN characters of @cell, with "…" when it has more. */
char *
grammar_report_cell_preview (const GrammarReportCell *cell)
{
  const char *end;

  if (cell->length <= CELL_SHOWN)
    return g_strdup (cell->text);
  end = g_utf8_offset_to_pointer (cell->text, CELL_SHOWN);
  return g_strdup_printf ("%.*s…", (int) (end - cell->text), cell->text);
}

/* Where the rest of a value is, when only its first @shown characters
 * are shown; NULL when it is shown whole. */
char *
grammar_report_cell_note (const GrammarReportCell *cell,
                          guint                    shown)
{
  if (cell->length <= shown)
    return NULL;
  return g_strdup_printf ("[%u of %" G_GUINT64_FORMAT " characters shown; the JSON report has the whole value]",
                          shown, cell->length);
}

static void
block_free (GrammarReportBlock *block)
{
  g_free (block->text);
  if (block->table != NULL)
    {
      g_array_unref (block->table->cells);
      g_ptr_array_unref (block->table->anchors);
    }
  g_free (block->table);
  g_free (block);
}

static GrammarReportDocument *
document_new (gboolean charts,
              guint    max_list)
{
  GrammarReportDocument *doc = g_new0 (GrammarReportDocument, 1);

  doc->charts = charts;
  doc->max_list = max_list;
  doc->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) block_free);
  return doc;
}

void
grammar_report_document_free (GrammarReportDocument *doc)
{
  g_ptr_array_unref (doc->blocks);
  g_free (doc->title);
  g_free (doc);
}


/* Adds a block; @text is taken. */
static void
add_block (GrammarReportDocument  *doc,
           GrammarReportBlockKind  kind,
           guint                   level,
           char                   *text)
{
  GrammarReportBlock *block = g_new0 (GrammarReportBlock, 1);

  block->kind = kind;
  block->level = level;
  block->text = text;
  g_ptr_array_add (doc->blocks, block);
}

static void
add_table (GrammarReportDocument *doc,
           GrammarReportTable    *table)
{
  GrammarReportBlock *block = g_new0 (GrammarReportBlock, 1);

  block->kind = BLOCK_TABLE;
  block->table = table;
  g_ptr_array_add (doc->blocks, block);
}

static const char *
metric_title (const char *metric)
{
  static const struct { const char *name, *title; } titles[] = {
    { "accuracy", "Accuracy" }, { "robustness", "Robustness" },
    { "knowledge_accuracy", "Knowledge accuracy" }, { "retrieval_accuracy", "Retrieval accuracy" },
    { "retrieval_robustness", "Retrieval robustness" },
  };

  for (guint i = 0; metric != NULL && i < G_N_ELEMENTS (titles); i++)
    if (g_str_equal (metric, titles[i].name))
      return titles[i].title;
  return metric != NULL ? metric : GRAMMAR_REPORT_NONE;
}

/* The SQL and example text query of template @id, from the report's
 * `templates`; FALSE when it has none for @id. */
static gboolean
template_parts (GrammarReportDocument  *doc,
                const char             *id,
                const char            **sql,
                const char            **example)
{
  JsonObject *entry = id != NULL ? grammar_report_member_object (doc->templates, id) : NULL;

  *sql = grammar_report_member_string (entry, "sql");
  *example = grammar_report_member_string (entry, "example");
  return *sql != NULL;
}

/* How the report shows template @id: its SQL, an example text query and
 * its id (a COLUMN_TEMPLATE cell), or the id alone when the report does
 * not have its SQL. The SQL is cut at 500 characters, the example at
 * CELL_SHOWN: the JSON report has them whole. */
static char *
template_cell (GrammarReportDocument *doc,
               const char            *id)
{
  const char *sql, *example;
  g_autofree char *sql_cut = NULL;
  g_autofree char *example_cut = NULL;

  if (!template_parts (doc, id, &sql, &example))
    return grammar_report_dup_or_none (id);
  sql_cut = grammar_report_cut_chars (sql, 500);
  example_cut = example != NULL ? grammar_report_cut_chars (example, CELL_SHOWN) : g_strdup ("");
  return g_strconcat (sql_cut, TEMPLATE_SEPARATOR, example_cut, TEMPLATE_SEPARATOR, id, NULL);
}

/* The HTML id of template @id's row in the breakdown, or NULL when @id
 * cannot be written in a link as it is. */
static char *
template_anchor (const char *id)
{
  if (id == NULL || *id == '\0')
    return NULL;
  for (const char *p = id; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      return NULL;
  return g_strconcat ("template-", id, NULL);
}

/* Building the document */

/* The keys of the entries of the breakdown @name, joined by ", ". */
static char *
join_keys (JsonObject *root,
           const char *name)
{
  JsonArray *entries = grammar_report_member_array (root, name);
  g_autoptr (GString) joined = g_string_new (NULL);

  for (guint i = 0; entries != NULL && i < json_array_get_length (entries); i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      const char *key = JSON_NODE_HOLDS_OBJECT (node) ?
                        grammar_report_member_string (json_node_get_object (node), "key") : NULL;

      if (key == NULL)
        continue;
      if (joined->len > 0)
        g_string_append (joined, ", ");
      g_string_append (joined, key);
    }
  return joined->len > 0 ? g_string_free (g_steal_pointer (&joined), FALSE) : NULL;
}

static void
add_title (GrammarReportDocument *doc,
           JsonObject            *root)
{
  const char *source = grammar_report_member_string (root, "source");
  g_autofree char *styles = grammar_report_join_strings (grammar_report_member_array (root, "styles"), ", ");
  g_autofree char *all_styles = join_keys (root, "by_style");

  doc->title = source != NULL ? g_strdup_printf ("GRAMMAR report: %s", source) : g_strdup ("GRAMMAR report");
  add_block (doc, BLOCK_HEADING, 1, g_strdup (doc->title));
  /* A run of several styles: the figures are those of one style, and
   * the breakdown by style has them all. */
  if (styles != NULL && all_styles != NULL && !g_str_equal (styles, all_styles))
    add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
      "Styles: %s for the figures, groups and lists; every style in the breakdown by style: %s.",
      styles, all_styles));
  else if (styles != NULL)
    add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf ("Styles: %s.", styles));
}

/* The report's `warnings`, before any figure they qualify. */
static void
add_warnings (GrammarReportDocument *doc,
              JsonObject            *root)
{
  JsonArray *warnings = grammar_report_member_array (root, "warnings");

  if (warnings == NULL || json_array_get_length (warnings) == 0)
    return;
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Warnings"));
  for (guint i = 0; i < json_array_get_length (warnings); i++)
    {
      JsonNode *node = json_array_get_element (warnings, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf ("Warning: %s.", json_node_get_string (node)));
    }
}

/* A retrieval rate, "unmeasured" when no record's retrieval was measured
 * (a system that reports no documents), rather than a bare "—". */
static char *
format_retrieval_rate (JsonObject *retrieval,
                       const char *name)
{
  if (retrieval != NULL && grammar_report_member (retrieval, "measured") != NULL &&
      grammar_report_member_number (retrieval, "measured") <= 0)
    return g_strdup ("unmeasured");
  return grammar_report_format_rate (retrieval, name);
}

static void
add_summary (GrammarReportDocument *doc,
             JsonObject            *root)
{
  JsonObject *intervals = grammar_report_member_object (root, "intervals");
  JsonObject *retrieval = grammar_report_member_object (root, "retrieval");
  GrammarReportTable *table = TABLE_NEW (figure_columns, FALSE);

  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Summary"));
  table_add (table, g_strdup ("Instances"), grammar_report_format_count (root, "instances"), g_strdup (""));
  if (grammar_report_member (root, "measured") != NULL)
    table_add (table, g_strdup ("Measured"), grammar_report_format_count (root, "measured"), g_strdup (""));
  table_add (table, g_strdup ("Unmeasured"), grammar_report_format_count (root, "unmeasured"), g_strdup (""));
  if (grammar_report_member (root, "correct") != NULL)
    table_add (table, g_strdup ("Correct"), grammar_report_format_count (root, "correct"), g_strdup (""));
  table_add (table, g_strdup ("Accuracy"), grammar_report_format_rate (root, "accuracy"),
             grammar_report_format_interval (intervals, "accuracy"));
  table_add (table, g_strdup ("Robustness"), grammar_report_format_rate (root, "robustness"),
             grammar_report_format_interval (intervals, "robustness"));
  table_add (table, g_strdup ("Knowledge accuracy"), grammar_report_format_rate (root, "knowledge_accuracy"),
             g_strdup (""));
  table_add (table, g_strdup ("Retrieval accuracy"), format_retrieval_rate (retrieval, "accuracy"),
             grammar_report_format_interval (intervals, "retrieval_accuracy"));
  table_add (table, g_strdup ("Retrieval robustness"), format_retrieval_rate (retrieval, "robustness"),
             grammar_report_format_interval (intervals, "retrieval_robustness"));
  if (retrieval != NULL && grammar_report_member (retrieval, "unmeasured") != NULL) table_add (table,
      g_strdup ("Retrieval unmeasured"), grammar_report_format_count (retrieval, "unmeasured"), g_strdup (""));
  add_table (doc, table);
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup (
    "Accuracy: correct / measured records. Robustness: the same over the groups that are not gap "
    "groups. Knowledge accuracy: 1 − gap groups / groups. Retrieval: whether the context was "
    "sufficient (a correct answer counts as sufficient). Intervals: Wilson, 95 %."));
}

/* A duration in milliseconds, as the report shows it. */
static char *
format_ms (double ms)
{
  if (!isfinite (ms))
    return g_strdup ("–");
  if (ms < 10)
    return g_strdup_printf ("%.1f ms", ms);
  if (ms < 10000)
    return g_strdup_printf ("%.0f ms", ms);
  return g_strdup_printf ("%.1f s", ms / 1000);
}

/* One line on how long the system under test took to answer, from
 * `system_latency_ms`, when the records had their latency. */
static void
add_latency (GrammarReportDocument *doc,
             JsonObject            *root)
{
  JsonObject *latency = grammar_report_member_object (root, "system_latency_ms");
  double count = grammar_report_member_number (latency, "count");
  g_autofree char *median = NULL;
  g_autofree char *p95 = NULL;
  g_autofree char *max = NULL;
  g_autofree char *mean = NULL;

  if (latency == NULL || !isfinite (count) || count < 1)
    return;
  median = format_ms (grammar_report_member_number (latency, "median"));
  p95 = format_ms (grammar_report_member_number (latency, "p95"));
  max = format_ms (grammar_report_member_number (latency, "max"));
  mean = format_ms (grammar_report_member_number (latency, "mean"));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "System latency: median %s, 95th percentile %s, longest %s, mean %s (%.0f queries).", median, p95, max, mean,
    count));
}

static void
add_groups (GrammarReportDocument *doc,
            JsonObject            *root)
{
  JsonObject *groups = grammar_report_member_object (root, "groups");
  JsonObject *instances = grammar_report_member_object (groups, "instances");
  GrammarReportTable *table = TABLE_NEW (group_columns, FALSE);

  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Groups"));
  for (guint i = 0; i < GRAMMAR_REPORT_N_TAGS; i++) table_add (table, g_strdup (grammar_report_tags[i].title),
       grammar_report_format_count (groups, grammar_report_tags[i].tag),
       grammar_report_format_count (instances, grammar_report_tags[i].tag));
  table_add (table, g_strdup ("total"), grammar_report_format_count (groups, "total"),
             grammar_report_format_count (root, "instances"));
  add_table (doc, table);
  if (doc->charts)
    add_block (doc, BLOCK_CHART, 0, grammar_report_groups_chart (groups));
}

static char *
format_group_counts (JsonObject *groups)
{
  g_autofree char *gap = grammar_report_format_count (groups, "gap");
  g_autofree char *robust = grammar_report_format_count (groups, "robust");
  g_autofree char *non_robust = grammar_report_format_count (groups, "non_robust");

  return g_strdup_printf ("%s/%s/%s", gap, robust, non_robust);
}

static void
add_breakdown_row (GrammarReportDocument *doc,
                   GrammarReportTable    *table,
                   JsonObject            *entry,
                   gboolean               templates)
{
  JsonObject *intervals = grammar_report_member_object (entry, "intervals");
  JsonObject *retrieval = grammar_report_member_object (entry, "retrieval");
  const char *key = grammar_report_member_string (entry, "key");

  table_add_anchored (table, templates ? template_anchor (key) : NULL,
                      templates ? template_cell (doc, key) : grammar_report_dup_or_none (key),
                      grammar_report_format_count (entry, "instances"),
                      grammar_report_format_count (entry, "unmeasured"),
                      format_group_counts (grammar_report_member_object (entry, "groups")),
                      grammar_report_format_rate (entry, "accuracy"), grammar_report_format_rate (entry, "robustness"),
                      grammar_report_format_interval (intervals, "robustness"),
                      grammar_report_format_rate (entry, "knowledge_accuracy"),
                      grammar_report_format_rate (retrieval, "accuracy"),
                      grammar_report_format_rate (retrieval, "robustness"));
}

static void
add_breakdown (GrammarReportDocument *doc,
               JsonObject            *root,
               const char            *name,
               const char            *title,
               const char            *chart_caption)
{
  JsonArray *entries = grammar_report_member_array (root, name);
  g_autoptr (GArray) chart = grammar_report_chart_rows_new ();
  GrammarReportTable *table;

  gboolean templates = g_str_equal (name, "by_template");

  if (entries == NULL)
    return;
  add_block (doc, BLOCK_HEADING, 2, g_strdup (title));
  if (templates && doc->templates != NULL)
    add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup (
      "Each template by the SQL and the text query of its first record, with its id."));
  table = templates ? TABLE_NEW (template_breakdown_columns, FALSE) : TABLE_NEW (breakdown_columns, FALSE);
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *key = entry != NULL ? grammar_report_member_string (entry, "key") : NULL;
      const char *sql, *example;

      if (entry == NULL)
        continue;
      add_breakdown_row (doc, table, entry, templates);
      grammar_report_chart_rows_add (chart, grammar_report_dup_or_none (key),
                                     grammar_report_member_number (entry, "robustness"),
                                     grammar_report_member (grammar_report_member_object (entry, "intervals"),
                                                            "robustness"),
                                     GRAMMAR_REPORT_COLOR_A);
      /* a template's row is labelled with its SQL, the rest on hover */
      if (templates && template_parts (doc, key, &sql, &example))
        {
          GrammarReportChartRow *row = &g_array_index (chart, GrammarReportChartRow, chart->len - 1);

          g_free (row->label);
          row->label = grammar_report_cut_chars (sql, 200);
          row->title = g_strdup_printf ("%s\n%s\n%s", row->label, example != NULL ? example : "", key);
        }
    }
  add_table (doc, table);
  if (doc->charts && chart_caption != NULL && chart->len > 0)
    add_block (doc, BLOCK_CHART, 0, grammar_report_interval_chart (chart_caption, chart));
}

static void
add_breakdowns (GrammarReportDocument *doc,
                JsonObject            *root)
{
  if (grammar_report_member (root, "by_style") == NULL && grammar_report_member (root, "by_template") == NULL &&
      grammar_report_member (root, "by_table") == NULL)
    return;
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup (
    "In the breakdowns: Inst. instances, Unm. unmeasured, groups gap/robust/non-robust, Acc. accuracy, "
    "Rob. robustness with its 95 % interval, K. acc. knowledge accuracy, R. acc. and R. rob. "
    "retrieval accuracy and robustness."));
  add_breakdown (doc, root, "by_style", "By style",
                 "Robustness by style, with 95 % Wilson intervals as error bars.");
  add_breakdown (doc, root, "by_template", "By template",
                 "Robustness by SQL template, with 95 % Wilson intervals as error bars.");
  add_breakdown (doc, root, "by_table", "By table", NULL);
}

/* How many gap groups no figure can blame on either module, from the
 * report's `attribution` (written only when some are unknown). */
static void
add_unknown_share (GrammarReportDocument *doc,
                   JsonObject            *root,
                   const char            *total)
{
  JsonObject *gap = grammar_report_member_object (grammar_report_member_object (root, "attribution"), "gap_groups");
  g_autofree char *language_model = NULL, *retrieval = NULL, *unknown = NULL;

  if (gap == NULL)
    return;
  language_model = grammar_report_format_count (gap, "language-model");
  retrieval = grammar_report_format_count (gap, "retrieval");
  unknown = grammar_report_format_count (gap, "unknown");
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "Attribution of the %s gap groups: %s unknown (retrieval unmeasured), %s retrieval, %s language-model.",
    total, unknown, retrieval, language_model));
}

static void
add_gap_groups (GrammarReportDocument *doc,
                JsonObject            *root)
{
  JsonArray *list = grammar_report_member_array (root, "gap_groups");
  g_autofree char *total = grammar_report_format_count (grammar_report_member_object (root, "groups"), "gap");
  GrammarReportTable *table;
  guint n;

  if (list == NULL)
    return;
  n = json_array_get_length (list);
  if (doc->max_list > 0)
    n = MIN (n, doc->max_list);
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Gap groups"));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "%u of %s gap groups listed. Attribution: language-model when a record of the group had a "
    "sufficient context, retrieval when none had, unknown when retrieval was not measured.", n, total));
  add_unknown_share (doc, root, total);
  table = TABLE_NEW (gap_columns, TRUE);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      g_autofree char *texts = NULL;

      if (entry == NULL)
        continue;
      texts = grammar_report_join_strings (grammar_report_member_array (entry, "texts"), "\n");
      table_add (table, grammar_report_dup_or_none (grammar_report_member_string (entry, "group")),
                 grammar_report_format_count (entry, "instances"),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "attribution")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "template")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "style")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "sql")),
                 grammar_report_format_json (grammar_report_member (entry, "answer")),
                 grammar_report_dup_or_none (texts));
    }
  add_table (doc, table);
}

static void
add_debug (GrammarReportDocument *doc,
           JsonObject            *root)
{
  JsonArray *list = grammar_report_member_array (root, "debug");
  GrammarReportTable *table;
  guint n;

  if (list == NULL)
    return;
  n = json_array_get_length (list);
  if (doc->max_list > 0)
    n = MIN (n, doc->max_list);
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Errors in non-robust groups"));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "%u incorrect or unmeasured records of non-robust groups listed, each attributed to the "
    "language-model (its context was sufficient), to retrieval (it was not) or unknown.", n));
  table = TABLE_NEW (debug_columns, TRUE);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      if (entry == NULL)
        continue;
      table_add (table, grammar_report_dup_or_none (grammar_report_member_string (entry, "id")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "group")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "template")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "style")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "verdict")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "retrieval")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "attribution")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "text")),
                 grammar_report_format_json (grammar_report_member (entry, "answer")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "response")),
                 grammar_report_dup_or_none (grammar_report_member_string (entry, "reason")));
    }
  add_table (doc, table);
}

/* "short", from the side's styles, else its file, else @fallback. */
static char *
side_name (JsonObject *side,
           const char *fallback)
{
  char *styles = grammar_report_join_strings (grammar_report_member_array (side, "styles"), ", ");

  if (styles != NULL)
    return styles;
  return g_strdup (grammar_report_member_string (side, "source") != NULL ?
                   grammar_report_member_string (side, "source") : fallback);
}

static char *
format_side (JsonObject *test,
             const char *side)
{
  JsonObject *object = grammar_report_member_object (test, side);
  g_autofree char *rate = grammar_report_format_rate (object, "rate");
  g_autofree char *successes = grammar_report_format_count (object, "successes");
  g_autofree char *n = grammar_report_format_count (object, "n");

  return g_strdup_printf ("%s (%s/%s)", rate, successes, n);
}

static void
add_pairing (GrammarReportDocument *doc,
             JsonObject            *comparison)
{
  GrammarReportTable *table = TABLE_NEW (pairing_columns, FALSE);
  gboolean balance;

  table_add (table, g_strdup ("Shared groups"), grammar_report_format_count (comparison, "shared_groups"));
  table_add (table, g_strdup ("Groups only in A (left out)"), grammar_report_format_count (comparison, "only_a"));
  table_add (table, g_strdup ("Groups only in B (left out)"), grammar_report_format_count (comparison, "only_b"));
  table_add (table, g_strdup ("Gap groups of both, removed"),
             grammar_report_format_count (comparison, "mutual_gap_groups_removed"));
  table_add (table, g_strdup ("Groups compared"), grammar_report_format_count (comparison, "groups_compared"));
  table_add (table, g_strdup ("Gap groups balanced"),
             g_strdup (!grammar_report_member_boolean (comparison, "balance", &balance) ? GRAMMAR_REPORT_NONE :
                       balance ? "yes" : "no"));
  table_add (table, g_strdup ("λ A (gap instances share)"), grammar_report_format_rate (comparison, "lambda_a"));
  table_add (table, g_strdup ("λ B (gap instances share)"), grammar_report_format_rate (comparison, "lambda_b"));
  table_add (table, g_strdup ("α"), grammar_report_format_rate (comparison, "alpha"));
  add_table (doc, table);
}

static void
add_tests (GrammarReportDocument *doc,
           JsonArray             *tests,
           const char            *name_a,
           const char            *name_b)
{
  g_autoptr (GArray) chart = grammar_report_chart_rows_new ();
  GrammarReportTable *table = TABLE_NEW (test_columns, FALSE);

  for (guint i = 0; tests != NULL && i < json_array_get_length (tests); i++)
    {
      JsonNode *node = json_array_get_element (tests, i);
      JsonObject *test = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *title = metric_title (grammar_report_member_string (test, "metric"));
      JsonObject *a = grammar_report_member_object (test, "a");
      JsonObject *b = grammar_report_member_object (test, "b");

      if (test == NULL)
        continue;
      table_add (table, g_strdup (title), format_side (test, "a"), grammar_report_format_interval (a, "interval"),
                 format_side (test, "b"), grammar_report_format_interval (b, "interval"),
                 grammar_report_format_decimal (grammar_report_member_number (test, "difference"), TRUE),
                 grammar_report_format_decimal (grammar_report_member_number (test, "z"), TRUE),
                 grammar_report_format_p (test));
      grammar_report_chart_rows_add (chart, g_strdup_printf ("%s · A (%s)", title, name_a),
                                     grammar_report_member_number (a, "rate"), grammar_report_member (a, "interval"),
                                     GRAMMAR_REPORT_COLOR_A);
      grammar_report_chart_rows_add (chart, g_strdup_printf ("%s · B (%s)", title, name_b),
                                     grammar_report_member_number (b, "rate"), grammar_report_member (b, "interval"),
                                     GRAMMAR_REPORT_COLOR_B);
    }
  add_table (doc, table);
  if (doc->charts && chart->len > 0)
    add_block (doc, BLOCK_CHART, 0, grammar_report_interval_chart (
      "A against B on the groups compared, with 95 % Wilson intervals as error bars.", chart));
}

static void
add_verdict (GrammarReportDocument *doc,
             JsonObject            *comparison,
             const char            *name_a,
             const char            *name_b)
{
  const char *less = grammar_report_member_string (comparison, "less_robust");
  const char *module = grammar_report_member_string (comparison, "module");
  const char *conclusion = grammar_report_member_string (comparison, "conclusion");
  g_autofree char *alpha = grammar_report_format_rate (comparison, "alpha");
  g_autofree char *less_text = NULL;
  gboolean significant;

  if (less == NULL)
    less_text = g_strdup ("neither");
  else if (g_str_equal (less, "a") || g_str_equal (less, "b"))
    less_text = g_strdup_printf ("%s (%s)", g_str_equal (less, "a") ? "A" : "B",
                                 g_str_equal (less, "a") ? name_a : name_b);
  else
    less_text = g_strdup (less);
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "Less robust by accuracy: %s. Significant at α = %s: %s. Module: %s.", less_text, alpha,
    !grammar_report_member_boolean (comparison, "significant", &significant) ? GRAMMAR_REPORT_NONE :
    significant ? "yes" : "no",
    module != NULL ? module : GRAMMAR_REPORT_NONE));
  if (conclusion != NULL)
    add_block (doc, BLOCK_CONCLUSION, 0, g_strdup (conclusion));
}

static void add_paired_rows (GrammarReportTable      *table,
                             JsonObject *paired,
                             const char *prefix);

static void
add_comparison (GrammarReportDocument *doc,
                JsonObject            *root)
{
  JsonObject *comparison = grammar_report_member_object (root, "comparison");
  JsonObject *a = grammar_report_member_object (comparison, "a");
  JsonObject *b = grammar_report_member_object (comparison, "b");
  g_autofree char *name_a = side_name (a, "A");
  g_autofree char *name_b = side_name (b, "B");
  const char *source_a = grammar_report_member_string (a, "source");
  const char *source_b = grammar_report_member_string (b, "source");

  if (comparison == NULL)
    return;
  add_block (doc, BLOCK_HEADING, 2, g_strdup_printf ("Comparison: %s (A) and %s (B)", name_a, name_b));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf ("A: %s (%s). B: %s (%s).",
                                                       name_a, source_a != NULL ? source_a : GRAMMAR_REPORT_NONE,
                                                       name_b, source_b != NULL ? source_b : GRAMMAR_REPORT_NONE));
  add_pairing (doc, comparison);
  add_tests (doc, grammar_report_member_array (comparison, "tests"), name_a, name_b);
  add_verdict (doc, comparison, name_a, name_b);
  if (grammar_report_member_object (comparison, "retrieval_metrics") != NULL)
    {
      GrammarReportTable *paired = TABLE_NEW (paired_columns, FALSE);

      add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
        "Retrieval, B against A on the semantic groups both runs measured: each group's mean on each side; the "
        "difference's bootstrap 95 %% interval%s; Wilcoxon's signed-rank test of the groups' differences.",
        grammar_report_has_normal_interval (grammar_report_member_object (comparison, "retrieval_metrics")) ?
        " (" GRAMMAR_REPORT_NORMAL_ABOVE " groups)" : ""));
      add_paired_rows (paired, grammar_report_member_object (comparison, "retrieval_metrics"), "");
      add_table (doc, paired);
    }
}

/* The test of @metric among a comparison's tests, or NULL. */
static JsonObject *
find_test (JsonObject *comparison,
           const char *metric)
{
  JsonArray *tests = grammar_report_member_array (comparison, "tests");

  for (guint i = 0; tests != NULL && i < json_array_get_length (tests); i++)
    {
      JsonNode *node = json_array_get_element (tests, i);
      JsonObject *test = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      if (g_strcmp0 (grammar_report_member_string (test, "metric"), metric) == 0)
        return test;
    }
  return NULL;
}

/* A run of several styles: the first style against each other one, the
 * accuracy and robustness tests of each pair and its conclusion. */
static void
add_pairs (GrammarReportDocument *doc,
           JsonObject            *root)
{
  JsonArray *pairs = grammar_report_member_array (root, "pairs");
  g_autofree char *first = NULL;
  GrammarReportTable *table;
  guint n = pairs != NULL ? json_array_get_length (pairs) : 0;

  if (n == 0)
    return;
  for (guint i = 0; i < n && first == NULL; i++)
    {
      JsonNode *node = json_array_get_element (pairs, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        first = side_name (grammar_report_member_object (json_node_get_object (node), "a"), "A");
    }
  add_block (doc, BLOCK_HEADING, 2, g_strdup_printf ("Every style against %s", first != NULL ? first : "A"));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "A is %s, B each other style; the groups of each pair are compared as above (the groups both share, without "
    "those that are gaps in both). Acc. and Rob.: accuracy and robustness of each side, with the p of their "
    "two-proportion z-test.", first != NULL ? first : "A"));
  table = TABLE_NEW (pair_columns, FALSE);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (pairs, i);
      JsonObject *pair = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *accuracy = find_test (pair, "accuracy");
      JsonObject *robustness = find_test (pair, "robustness");

      if (pair == NULL)
        continue;
      table_add (table, side_name (grammar_report_member_object (pair, "b"), "B"),
                 grammar_report_format_count (pair, "groups_compared"),
                 grammar_report_format_rate (grammar_report_member_object (accuracy, "a"), "rate"),
                 grammar_report_format_rate (grammar_report_member_object (accuracy, "b"), "rate"),
                 grammar_report_format_p (accuracy),
                 grammar_report_format_rate (grammar_report_member_object (robustness, "a"), "rate"),
                 grammar_report_format_rate (grammar_report_member_object (robustness, "b"), "rate"),
                 grammar_report_format_p (robustness));
    }
  add_table (doc, table);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (pairs, i);
      JsonObject *pair = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *conclusion = grammar_report_member_string (pair, "conclusion");
      g_autofree char *name_a = NULL, *name_b = NULL;

      if (conclusion == NULL)
        continue;
      name_a = side_name (grammar_report_member_object (pair, "a"), "A");
      name_b = side_name (grammar_report_member_object (pair, "b"), "B");
      add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf ("%s against %s: %s", name_a, name_b, conclusion));
    }
}

/* "0.19" of a proportion {value}, NONE when undefined. */
static char *
format_proportion (JsonObject *figures,
                   const char *name)
{
  return grammar_report_format_rate (grammar_report_member_object (figures, name), "value");
}

static char *
format_percent_interval (JsonObject *proportion,
                         const char *interval)
{
  double value = grammar_report_member_number (proportion, "value");
  double lo, hi;

  if (!isfinite (value) || !grammar_report_node_interval (grammar_report_member (proportion, interval), &lo, &hi))
    return g_strdup (GRAMMAR_REPORT_NONE);
  return g_strdup_printf ("%.0f%% (%.0f–%.0f%%)", 100.0 * value, 100.0 * lo, 100.0 * hi);
}

static void
add_reliability_row (GrammarReportTable *table,
                     const char         *metric,
                     const char         *slice,
                     JsonObject         *figures)
{
  JsonObject *auroc = grammar_report_member_object (figures, "auroc");

  table_add (table, g_strdup (metric), g_strdup (slice),
             grammar_report_format_count (grammar_report_member_object (figures, "accuracy"), "n"),
             format_proportion (figures, "precision"),
             grammar_report_format_interval (grammar_report_member_object (figures, "precision"), "wilson"),
             format_proportion (figures, "recall"),
             grammar_report_format_interval (grammar_report_member_object (figures, "recall"), "wilson"),
             format_proportion (figures, "specificity"), format_proportion (figures, "accuracy"),
             grammar_report_format_rate (auroc, "value"), grammar_report_format_interval (auroc, "interval"),
             grammar_report_format_rate (figures, "unmeasured_share"));
}

static void
add_slices (GrammarReportTable *table,
            const char         *metric,
            JsonObject         *slices,
            const char         *prefix)
{
  g_autoptr (GList) keys = slices != NULL ? json_object_get_members (slices) : NULL;

  for (GList *l = keys; l != NULL; l = l->next)
    {
      g_autofree char *slice = g_strdup_printf ("%s %s", prefix, (const char *) l->data);

      add_reliability_row (table, metric, slice, grammar_report_member_object (slices, l->data));
    }
}

/* How far each reference-free metric agrees with the grounded verdicts. */
static void
add_reliability (GrammarReportDocument *doc,
                 JsonObject            *root)
{
  JsonObject *reliability = grammar_report_member_object (root, "reliability");
  g_autoptr (GList) metrics = reliability != NULL ? json_object_get_members (reliability) : NULL;
  g_autoptr (GArray) chart = grammar_report_chart_rows_new ();
  GrammarReportTable *table, *paper, *slices;

  if (metrics == NULL)
    return;
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Reliability of the metrics"));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup (
    "Each metric's pass or fail is a prediction of the grounded verdict (correct = positive). Low precision: "
    "optimistic, wrong answers pass. Low recall: cynical, right answers fail. 95 % Wilson intervals; AUROC of "
    "the score with a bootstrap interval (Hanley–McNeil's above 2000 records); Unm.: the share of records the "
    "metric left unmeasured."));
  table = TABLE_NEW (reliability_columns, FALSE);
  paper = TABLE_NEW (paper_columns, FALSE);
  slices = TABLE_NEW (reliability_columns, FALSE);
  for (GList *l = metrics; l != NULL; l = l->next)
    {
      JsonObject *figures = grammar_report_member_object (reliability, l->data);
      JsonObject *confusion = grammar_report_member_object (figures, "confusion");
      const char *verdict = grammar_report_member_string (figures, "verdict");

      add_reliability_row (table, l->data, "all", figures);
      table_add (paper, g_strdup (l->data), grammar_report_format_count (confusion, "tp"),
                 grammar_report_format_count (confusion, "fp"), grammar_report_format_count (confusion, "fn"),
                 grammar_report_format_count (confusion, "tn"),
                 format_percent_interval (grammar_report_member_object (figures, "precision"), "normal"),
                 format_percent_interval (grammar_report_member_object (figures, "recall"), "normal"));
      add_slices (slices, l->data, grammar_report_member_object (figures, "by_style"), "style");
      add_slices (slices, l->data, grammar_report_member_object (figures, "by_group"), "group");
      add_block (doc, BLOCK_CONCLUSION, 0, g_strdup_printf ("%s: %s", (const char *) l->data,
                                                            verdict != NULL ? verdict : GRAMMAR_REPORT_NONE));
      grammar_report_chart_rows_add (chart, g_strdup_printf ("%s · precision", (const char *) l->data),
                                     grammar_report_member_number (grammar_report_member_object (figures, "precision"), "value"),
                                     grammar_report_member (grammar_report_member_object (figures, "precision"), "wilson"),
                                     GRAMMAR_REPORT_COLOR_NON_ROBUST);
      grammar_report_chart_rows_add (chart, g_strdup_printf ("%s · recall", (const char *) l->data),
                                     grammar_report_member_number (grammar_report_member_object (figures, "recall"), "value"),
                                     grammar_report_member (grammar_report_member_object (figures, "recall"), "wilson"),
                                     GRAMMAR_REPORT_COLOR_ROBUST);
    }
  add_table (doc, table);
  if (doc->charts && chart->len > 0)
    add_block (doc, BLOCK_CHART, 0, grammar_report_interval_chart (
      "Precision (the share of right answers among those the metric passes) and recall (the share of right "
      "answers it passes), with 95 % Wilson intervals.", chart));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup ("As the GRAMMAR paper's Table 1 (normal z intervals):"));
  add_table (doc, paper);
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Reliability by style and by group tag"));
  add_table (doc, slices);
}

/* Measured figures: {n, value, interval} as "0.4714 [0.4327, 0.5105]". */
static char *
format_figure (JsonObject *figures,
               const char *name)
{
  JsonObject *figure = grammar_report_member_object (figures, name);
  g_autofree char *value = grammar_report_format_rate (figure, "value");
  g_autofree char *interval = NULL;
  double lo, hi;

  if (figure == NULL || !isfinite (grammar_report_member_number (figure, "value")))
    return g_strdup (GRAMMAR_REPORT_NONE);
  if (!grammar_report_node_interval (grammar_report_member (figure, "interval"), &lo, &hi))
    return g_steal_pointer (&value);
  interval = grammar_report_format_interval (figure, "interval");
  return g_strdup_printf ("%s %s", value, interval);
}

static char *
cutoff_label (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return g_strdup (GRAMMAR_REPORT_NONE);
}

static char *
figure_name (const char *figure,
             const char *k)
{
  return g_strdup_printf ("%s@%s", figure, k);
}

static void
add_retrieval_rows (GrammarReportTable *table,
                    JsonArray          *cutoffs,
                    guint               n_cutoffs,
                    const char         *slice,
                    JsonObject         *figures)
{
  for (guint c = 0; cutoffs != NULL && c < MIN (n_cutoffs, json_array_get_length (cutoffs)); c++)
    {
      g_autofree char *k = cutoff_label (json_array_get_element (cutoffs, c));
      g_autofree char *hit = figure_name ("hit", k);
      g_autofree char *precision = figure_name ("precision", k);
      g_autofree char *recall = figure_name ("recall", k);
      g_autofree char *mrr = figure_name ("mrr", k);
      g_autofree char *ndcg = figure_name ("ndcg", k);

      table_add (table, g_strdup (k), g_strdup (slice),
                 grammar_report_format_count (grammar_report_member_object (figures, hit), "n"),
                 format_figure (figures, hit), format_figure (figures, precision), format_figure (figures, recall),
                 format_figure (figures, mrr), format_figure (figures, ndcg));
    }
}

/* Calls @add for "all" and every slice of `by_style` and `by_group`. */
typedef void (*SliceRowFunc) (GrammarReportTable      *table,
                              gpointer    data,
                              const char *slice,
                              JsonObject *figures);

static void
for_each_slice (GrammarReportDocument *doc,
                JsonObject            *measures,
                gboolean               templates,
                GrammarReportTable    *table,
                SliceRowFunc           add,
                gpointer               data)
{
  static const struct { const char *member; const char *prefix; } breakdowns[] = {
    { "by_style", "style" }, { "by_group", "group" }, { "by_template", "template" },
  };

  add (table, data, "all", grammar_report_member_object (measures, "overall"));
  for (guint b = 0; b < G_N_ELEMENTS (breakdowns); b++)
    {
      JsonObject *slices = grammar_report_member_object (measures, breakdowns[b].member);
      g_autoptr (GList) keys = slices != NULL ? json_object_get_members (slices) : NULL;

      if (g_str_equal (breakdowns[b].member, "by_template") != templates)
        continue;
      for (GList *l = keys; l != NULL; l = l->next)
        {
          const char *sql, *example;
          g_autofree char *slice = NULL;

          /* a template by its SQL, as in the breakdown */
          if (templates && template_parts (doc, l->data, &sql, &example))
            slice = template_cell (doc, l->data);
          else
            slice = g_strdup_printf ("%s %s", breakdowns[b].prefix, (const char *) l->data);
          add (table, data, slice, grammar_report_member_object (slices, l->data));
        }
    }
}

static void
retrieval_row (GrammarReportTable *table,
               gpointer            cutoffs,
               const char         *slice,
               JsonObject         *figures)
{
  add_retrieval_rows (table, cutoffs, G_MAXUINT, slice, figures);
}

/* The template table shows the first cutoff only; JSON has them all. */
static void
retrieval_template_row (GrammarReportTable *table,
                        gpointer            cutoffs,
                        const char         *slice,
                        JsonObject         *figures)
{
  add_retrieval_rows (table, cutoffs, 1, slice, figures);
}

static void
rageval_row (GrammarReportTable *table,
             gpointer            data,
             const char         *slice,
             JsonObject         *figures)
{
  table_add (table, g_strdup (slice),
             grammar_report_format_count (grammar_report_member_object (figures, "rageval_recall"), "n"),
             format_figure (figures, "rageval_recall"),
             grammar_report_format_count (grammar_report_member_object (figures, "eir"), "n"),
             format_figure (figures, "eir"));
}

/* One chart row a style for each of @names, with their intervals. */
static void
chart_by_style (GArray             *chart,
                const char         *prefix,
                JsonObject         *by_style,
                const char * const *names,
                const char * const *titles,
                const char * const *colors)
{
  g_autoptr (GList) styles = by_style != NULL ? json_object_get_members (by_style) : NULL;

  for (GList *l = styles; l != NULL; l = l->next)
    for (guint i = 0; names[i] != NULL; i++)
      {
        JsonObject *figure = grammar_report_member_object (grammar_report_member_object (by_style, l->data), names[i]);

        grammar_report_chart_rows_add (chart, g_strdup_printf ("%s%s · %s", prefix, (const char *) l->data, titles[i]),
                                       grammar_report_member_number (figure, "value"),
                                       grammar_report_member (figure, "interval"), colors[i]);
      }
}

/* Hit rate, precision, recall, MRR and nDCG at each cutoff, RAGEval's
 * recall and EIR, by slice. */
static void
add_retrieval_metrics (GrammarReportDocument *doc,
                       JsonObject            *root)
{
  JsonObject *measures = grammar_report_member_object (root, "retrieval_metrics");
  JsonArray *cutoffs = grammar_report_member_array (measures, "cutoffs");
  g_autofree char *k = NULL;
  g_autofree char *measured = NULL, *no_true = NULL, *no_retrieval = NULL, *seed = NULL, *resamples = NULL;
  GrammarReportTable *table, *rageval, *templates;

  if (measures == NULL)
    return;
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Retrieval"));
  measured = grammar_report_format_count (measures, "measured");
  no_true = grammar_report_format_count (measures, "no_true_documents");
  no_retrieval = grammar_report_format_count (measures, "no_retrieval");
  seed = grammar_report_format_count (measures, "seed");
  resamples = grammar_report_format_count (measures, "resamples");
  if (grammar_report_member_number (measures, "measured") <= 0)
    {
      add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
        "Retrieval is unmeasured (hit rate, MRR, recall, nDCG, EIR): no record has both true documents (doc_ids) "
        "and the documents the system retrieved (retrieved): %s without true documents, %s without retrieved "
        "documents.", no_true, no_retrieval));
      return;
    }
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "Binary relevance: a retrieved document is relevant when it is one of the record's true documents (doc_ids); "
    "k = “retrieved” is what each query retrieved. Means over %s measured records (%s without true documents and "
    "%s without retrieved documents are unmeasured, not zero); hit rate with Wilson 95 %% intervals, the other "
    "figures with bootstrap 95 %% intervals (seed %s, %s resamples%s). RAGEval recall: the share of true documents "
    "retrieved; EIR: the words of the retrieved true documents over all retrieved words.",
    measured, no_true, no_retrieval, seed, resamples,
    grammar_report_has_normal_interval (measures) ? "; " GRAMMAR_REPORT_NORMAL_ABOVE " records" : ""));
  table = TABLE_NEW (retrieval_columns, FALSE);
  for_each_slice (doc, measures, FALSE, table, retrieval_row, cutoffs);
  add_table (doc, table);
  rageval = TABLE_NEW (rageval_columns, FALSE);
  for_each_slice (doc, measures, FALSE, rageval, rageval_row, NULL);
  add_table (doc, rageval);
  if (doc->charts && cutoffs != NULL && json_array_get_length (cutoffs) > 0)
    {
      g_autoptr (GArray) chart = grammar_report_chart_rows_new ();
      g_autofree char *hit = NULL, *mrr = NULL, *ndcg = NULL;
      g_autofree char *caption = NULL;

      k = cutoff_label (json_array_get_element (cutoffs, 0));
      hit = figure_name ("hit", k);
      mrr = figure_name ("mrr", k);
      ndcg = figure_name ("ndcg", k);
      {
        const char *names[] = { hit, mrr, ndcg, "eir", NULL };
        const char *titles[] = { "hit rate", "MRR", "nDCG", "EIR", NULL };
        const char *colors[] = { GRAMMAR_REPORT_COLOR_ROBUST, GRAMMAR_REPORT_COLOR_A, GRAMMAR_REPORT_COLOR_B,
                                 GRAMMAR_REPORT_COLOR_NON_ROBUST, NULL };

        chart_by_style (chart, "", grammar_report_member_object (measures, "by_style"), names, titles, colors);
      }
      caption = g_strdup_printf ("Retrieval by style at k = %s: hit rate (Wilson), MRR, nDCG and EIR (bootstrap%s), "
                                 "with 95 %% intervals.", k,
                                 grammar_report_has_normal_interval (grammar_report_member_object (measures, "by_style")) ?
                                 ", or " GRAMMAR_REPORT_NORMAL_ABOVE " records" : "");
      add_block (doc, BLOCK_CHART, 0, grammar_report_interval_chart (caption, chart));
    }
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Retrieval by template"));
  templates = TABLE_NEW (retrieval_columns, FALSE);
  /* for_each_slice adds "all" first: the reference line. */
  for_each_slice (doc, measures, TRUE, templates, retrieval_template_row, cutoffs);
  add_table (doc, templates);
}

static void
keypoint_row (GrammarReportTable *table,
              gpointer            metric,
              const char         *slice,
              JsonObject         *figures)
{
  table_add (table, g_strdup (metric), g_strdup (slice),
             grammar_report_format_count (grammar_report_member_object (figures, "completeness"), "n"),
             format_figure (figures, "completeness"), format_figure (figures, "hallucination"),
             format_figure (figures, "irrelevance"));
}

static void
add_paired_rows (GrammarReportTable *table,
                 JsonObject         *paired,
                 const char         *prefix)
{
  g_autoptr (GList) names = paired != NULL ? json_object_get_members (paired) : NULL;

  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonObject *test = grammar_report_member_object (paired, l->data);
      g_autofree char *difference = NULL;
      g_autofree char *interval = NULL;
      g_autofree char *a_higher = NULL, *b_higher = NULL, *ties = NULL;
      gboolean significant = FALSE;

      if (test == NULL)
        continue;   /* "cutoffs", "a", "b" */
      difference = grammar_report_format_decimal (grammar_report_member_number (test, "difference"), TRUE);
      interval = grammar_report_format_interval (test, "interval");
      a_higher = grammar_report_format_count (test, "a_higher");
      b_higher = grammar_report_format_count (test, "b_higher");
      ties = grammar_report_format_count (test, "ties");
      table_add (table, g_strdup_printf ("%s%s", prefix, (const char *) l->data),
                 grammar_report_format_count (test, "pairs"),
                 grammar_report_format_rate (test, "a"), grammar_report_format_rate (test, "b"),
                 g_strdup_printf ("%s %s", difference, interval),
                 g_strdup_printf ("%s/%s/%s", a_higher, b_higher, ties),
                 grammar_report_format_p (test),
                 g_strdup (!grammar_report_member_boolean (test, "significant", &significant) ? GRAMMAR_REPORT_NONE :
                           significant ? "yes" : "no"));
    }
}

/* RAGEval's completeness, hallucination and irrelevance of the keypoint
 * metrics, by slice, and paired between the two runs. */
static void
add_keypoints (GrammarReportDocument *doc,
               JsonObject            *root)
{
  JsonObject *keypoints = grammar_report_member_object (root, "keypoints");
  g_autoptr (GList) metrics = keypoints != NULL ? json_object_get_members (keypoints) : NULL;
  g_autoptr (GArray) chart = grammar_report_chart_rows_new ();
  GrammarReportTable *table, *paired = NULL;
  const char *normal = grammar_report_has_normal_interval (keypoints) ?
                       " (" GRAMMAR_REPORT_NORMAL_ABOVE " records)" : "";
  gboolean paired_normal = FALSE;

  if (metrics == NULL)
    return;
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Keypoints"));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "RAGEval's keypoint metrics: completeness (the share of keypoints the response covers), hallucination (the "
    "share it contradicts) and irrelevance (neither). Means over the records with keypoints, with bootstrap "
    "95 %% intervals%s.", normal));
  table = TABLE_NEW (keypoint_columns, FALSE);
  for (GList *l = metrics; l != NULL; l = l->next)
    {
      JsonObject *metric = grammar_report_member_object (keypoints, l->data);
      JsonObject *pairs = grammar_report_member_object (metric, "paired");
      const char *names[] = { "completeness", "hallucination", NULL };
      const char *titles[] = { "completeness", "hallucination", NULL };
      const char *colors[] = { GRAMMAR_REPORT_COLOR_ROBUST, GRAMMAR_REPORT_COLOR_GAP, NULL };
      g_autofree char *prefix = g_strdup_printf ("%s · ", (const char *) l->data);

      for_each_slice (doc, metric, FALSE, table, keypoint_row, l->data);
      chart_by_style (chart, prefix, grammar_report_member_object (metric, "by_style"), names, titles, colors);
      if (pairs != NULL)
        {
          if (paired == NULL)
            paired = TABLE_NEW (paired_columns, FALSE);
          add_paired_rows (paired, pairs, prefix);
          paired_normal = paired_normal || grammar_report_has_normal_interval (pairs);
        }
    }
  add_table (doc, table);
  if (doc->charts && chart->len > 0)
    {
      g_autofree char *caption = g_strdup_printf (
        "Keypoints by style: completeness (higher is better) and hallucination (lower is better), with bootstrap "
        "95 %% intervals%s.", normal);

      add_block (doc, BLOCK_CHART, 0, grammar_report_interval_chart (caption, chart));
    }
  if (paired != NULL)
    {
      add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
        "B against A on the semantic groups both runs measured: each group's mean on each side; the difference's "
        "bootstrap 95 %% interval%s; Wilcoxon's signed-rank test of the groups' differences.",
        paired_normal ? " (" GRAMMAR_REPORT_NORMAL_ABOVE " groups)" : ""));
      add_table (doc, paired);
    }
}

GrammarReportDocument *
grammar_report_document_build (JsonObject *root,
                               gboolean    charts,
                               guint       max_list)
{
  g_autoptr (GrammarReportDocument) doc = document_new (charts, max_list);

  doc->templates = grammar_report_member_object (root, "templates");
  add_title (doc, root);
  add_warnings (doc, root);
  add_summary (doc, root);
  add_latency (doc, root);
  add_groups (doc, root);
  add_breakdowns (doc, root);
  add_gap_groups (doc, root);
  add_debug (doc, root);
  add_retrieval_metrics (doc, root);
  add_comparison (doc, root);
  add_pairs (doc, root);
  add_reliability (doc, root);
  add_keypoints (doc, root);
  doc->templates = NULL;
  return g_steal_pointer (&doc);
}
