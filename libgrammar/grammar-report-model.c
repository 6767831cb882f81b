/* grammar-report-model.c: the report as a document of headings, paragraphs, tables and charts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "grammar-json-private.h"
#include "grammar-error.h"
#include "grammar-report-private.h"
#include "grammar-stats-private.h"

/* Text of the data, as every format shows it */

/* How many terminal columns @c takes. */
guint
grammar_report_char_width (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;
  return g_unichar_iswide (c) ? 2 : 1;
}

/* @text as valid UTF-8 without control or format characters (which
 * could move the terminal's cursor or reorder a line), newlines kept if
 * asked, elided with "…" past @max_width columns (0: no limit). */
char *
grammar_report_sanitize (const char *text,
                         gboolean    keep_newlines,
                         guint       max_width)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *out = g_string_new (NULL);
  guint width = 0;
  gsize last_fit = 0;

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeType type = g_unichar_type (c);

      if (c == '\n' && keep_newlines)
        {
          g_string_append_c (out, '\n');
          continue;
        }
      if (type == G_UNICODE_CONTROL || type == G_UNICODE_FORMAT)
        c = ' ';
      width += grammar_report_char_width (c);
      if (max_width > 0 && width > max_width)
        {
          g_string_truncate (out, last_fit);
          g_string_append (out, "…");
          break;
        }
      g_string_append_unichar (out, c);
      if (max_width > 0 && width <= max_width - 1)
        last_fit = out->len;
    }
  return g_string_free (out, FALSE);
}

/* What a figure that is undefined (null) or absent prints as. */
#define NONE "—"

/* The charts of the HTML page, in pixels. */
/* the most: a chart's labels take what its longest needs */
#define CHART_LABEL_WIDTH 300
#define CHART_PLOT_WIDTH 400
#define CHART_VALUE_WIDTH 190
#define CHART_ROW_HEIGHT 24
#define CHART_LABEL_COLUMNS 34
/* A chart of more rows than this shows the first ones; the table has all. */
#define CHART_MAX_ROWS 60

#define COLOR_GAP "#d62728"
#define COLOR_NON_ROBUST "#ff7f0e"
#define COLOR_ROBUST "#2ca02c"
#define COLOR_UNMEASURED "#9e9e9e"
#define COLOR_A "#1f77b4"
#define COLOR_B "#9467bd"

static const Column figure_columns[] = {
  { "Figure", 0, 0 }, { "Value", COLUMN_NUMERIC, 0 }, { "95 % interval", 0, 0 },
};
static const Column template_breakdown_columns[] = {
  { "Template", COLUMN_USER | COLUMN_TEMPLATE | COLUMN_WRAP, 60 }, { "Inst.", COLUMN_NUMERIC, 0 },
  { "Unm.", COLUMN_NUMERIC, 0 }, { "Gap/Rob./Non-rob.", COLUMN_NUMERIC, 0 }, { "Acc.", COLUMN_NUMERIC, 0 },
  { "Rob.", COLUMN_NUMERIC, 0 }, { "Rob. 95 %", 0, 0 }, { "K. acc.", COLUMN_NUMERIC, 0 },
  { "R. acc.", COLUMN_NUMERIC, 0 }, { "R. rob.", COLUMN_NUMERIC, 0 },
};
static const Column group_columns[] = {
  { "Tag", 0, 0 }, { "Groups", COLUMN_NUMERIC, 0 }, { "Instances", COLUMN_NUMERIC, 0 },
};
static const Column breakdown_columns[] = {
  { "Key", COLUMN_USER, 28 }, { "Inst.", COLUMN_NUMERIC, 0 }, { "Unm.", COLUMN_NUMERIC, 0 },
  { "Gap/Rob./Non-rob.", COLUMN_NUMERIC, 0 }, { "Acc.", COLUMN_NUMERIC, 0 }, { "Rob.", COLUMN_NUMERIC, 0 },
  { "Rob. 95 %", 0, 0 }, { "K. acc.", COLUMN_NUMERIC, 0 }, { "R. acc.", COLUMN_NUMERIC, 0 },
  { "R. rob.", COLUMN_NUMERIC, 0 },
};
/* The text format wraps the values of the lists at 100 columns. */
#define LIST_TEXT (COLUMN_USER | COLUMN_WRAP)
static const Column gap_columns[] = {
  { "Group", COLUMN_USER, 0 }, { "Instances", COLUMN_NUMERIC, 0 }, { "Attribution", 0, 0 },
  { "Template", COLUMN_USER | COLUMN_TEMPLATE_ID, 0 }, { "Style", COLUMN_USER, 0 }, { "SQL", LIST_TEXT, 100 },
  { "Answer", LIST_TEXT, 100 }, { "Texts", LIST_TEXT, 100 },
};
static const Column debug_columns[] = {
  { "Record", COLUMN_USER, 0 }, { "Group", COLUMN_USER, 0 }, { "Template", COLUMN_USER | COLUMN_TEMPLATE_ID, 0 },
  { "Style", COLUMN_USER, 0 }, { "Verdict", 0, 0 }, { "Retrieval", 0, 0 }, { "Attribution", 0, 0 },
  { "Text", LIST_TEXT, 100 }, { "Answer", LIST_TEXT, 100 }, { "Response", LIST_TEXT, 100 },
  { "Reason", LIST_TEXT, 100 },
};
static const Column pair_columns[] = {
  { "B", COLUMN_USER, 0 }, { "Groups", COLUMN_NUMERIC, 0 }, { "Acc. A", COLUMN_NUMERIC, 0 },
  { "Acc. B", COLUMN_NUMERIC, 0 }, { "Acc. p", COLUMN_NUMERIC, 0 }, { "Rob. A", COLUMN_NUMERIC, 0 },
  { "Rob. B", COLUMN_NUMERIC, 0 }, { "Rob. p", COLUMN_NUMERIC, 0 },
};
static const Column pairing_columns[] = {
  { "Figure", 0, 0 }, { "Value", COLUMN_NUMERIC, 0 },
};
static const Column reliability_columns[] = {
  { "Metric", COLUMN_USER, 0 }, { "Slice", COLUMN_USER, 0 }, { "n", COLUMN_NUMERIC, 0 },
  { "Precision", COLUMN_NUMERIC, 0 }, { "Prec. 95 %", 0, 0 }, { "Recall", COLUMN_NUMERIC, 0 },
  { "Rec. 95 %", 0, 0 }, { "Spec.", COLUMN_NUMERIC, 0 }, { "Acc.", COLUMN_NUMERIC, 0 },
  { "AUROC", COLUMN_NUMERIC, 0 }, { "AUROC 95 %", 0, 0 }, { "Unm.", COLUMN_NUMERIC, 0 },
};
static const Column paper_columns[] = {
  { "Metric", COLUMN_USER, 0 }, { "TP", COLUMN_NUMERIC, 0 }, { "FP", COLUMN_NUMERIC, 0 },
  { "FN", COLUMN_NUMERIC, 0 }, { "TN", COLUMN_NUMERIC, 0 }, { "Precision (z 95 %)", 0, 0 },
  { "Recall (z 95 %)", 0, 0 },
};
static const Column retrieval_columns[] = {
  { "k", 0, 0 }, { "Slice", COLUMN_USER | COLUMN_TEMPLATE | COLUMN_WRAP, 40 }, { "n", COLUMN_NUMERIC, 0 }, { "Hit rate (95 %)", 0, 0 },
  { "Precision (95 %)", 0, 0 }, { "Recall (95 %)", 0, 0 }, { "MRR (95 %)", 0, 0 }, { "nDCG (95 %)", 0, 0 },
};
static const Column rageval_columns[] = {
  { "Slice", COLUMN_USER, 28 }, { "n", COLUMN_NUMERIC, 0 }, { "RAGEval recall (95 %)", 0, 0 },
  { "EIR n", COLUMN_NUMERIC, 0 }, { "EIR (95 %)", 0, 0 },
};
static const Column keypoint_columns[] = {
  { "Metric", COLUMN_USER, 0 }, { "Slice", COLUMN_USER, 28 }, { "n", COLUMN_NUMERIC, 0 },
  { "Completeness (95 %)", 0, 0 }, { "Hallucination (95 %)", 0, 0 }, { "Irrelevance (95 %)", 0, 0 },
};
static const Column paired_columns[] = {
  { "Figure", COLUMN_USER, 0 }, { "Pairs", COLUMN_NUMERIC, 0 }, { "A", COLUMN_NUMERIC, 0 },
  { "B", COLUMN_NUMERIC, 0 }, { "B − A (95 %)", 0, 0 }, { "A>B/B>A/=", 0, 0 }, { "p", COLUMN_NUMERIC, 0 },
  { "Sig.", 0, 0 },
};
static const Column test_columns[] = {
  { "Metric", 0, 0 }, { "A", COLUMN_NUMERIC, 0 }, { "A 95 %", 0, 0 }, { "B", COLUMN_NUMERIC, 0 },
  { "B 95 %", 0, 0 }, { "Difference", COLUMN_NUMERIC, 0 }, { "z", COLUMN_NUMERIC, 0 },
  { "p", COLUMN_NUMERIC, 0 },
};

/* Document */

static void
cell_clear (Cell *cell)
{
  g_free (cell->text);
}

static Table *
table_new (const Column *columns,
           guint         n_columns,
           gboolean      records)
{
  Table *table = g_new0 (Table, 1);

  table->columns = columns;
  table->n_columns = n_columns;
  table->records = records;
  table->cells = g_array_new (FALSE, TRUE, sizeof (Cell));
  g_array_set_clear_func (table->cells, (GDestroyNotify) cell_clear);
  table->anchors = g_ptr_array_new_with_free_func (g_free);
  return table;
}

#define TABLE_NEW(columns, records) table_new (columns, G_N_ELEMENTS (columns), records)

/* A cell of @text (taken), valid UTF-8, its first CELL_KEPT characters
 * only: a value of megabytes is not held twice, nor rendered. */
static Cell
cell_take (char *text)
{
  Cell cell = { text, 0 };

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
table_add_valist (Table   *table,
                  char    *anchor,
                  va_list  ap)
{
  for (guint i = 0; i < table->n_columns; i++)
    {
      Cell cell = cell_take (va_arg (ap, char *));

      g_array_append_val (table->cells, cell);
    }
  g_ptr_array_add (table->anchors, anchor);
}

/* Adds a row of exactly n_columns cells, each taken (transfer full). */
static void
table_add (Table *table,
           ...)
{
  va_list ap;

  va_start (ap, table);
  table_add_valist (table, NULL, ap);
  va_end (ap);
}

/* As table_add(), the row with the HTML id @anchor (taken). */
static void
table_add_anchored (Table *table,
                    char  *anchor,
                    ...)
{
  va_list ap;

  va_start (ap, anchor);
  table_add_valist (table, anchor, ap);
  va_end (ap);
}

guint
grammar_report_table_n_rows (const Table *table)
{
  return table->cells->len / table->n_columns;
}

const Cell *
grammar_report_table_cell (const Table *table,
                           guint        row,
                           guint        column)
{
  return &g_array_index (table->cells, Cell, row * table->n_columns + column);
}

/* The first CELL_SHOWN characters of @cell, with "…" when it has more. */
char *
grammar_report_cell_preview (const Cell *cell)
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
grammar_report_cell_note (const Cell *cell,
                          guint       shown)
{
  if (cell->length <= shown)
    return NULL;
  return g_strdup_printf ("[%u of %" G_GUINT64_FORMAT " characters shown; the JSON report has the whole value]",
                          shown, cell->length);
}

static void
block_free (Block *block)
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

static Document *
document_new (gboolean charts,
              guint    max_list)
{
  Document *doc = g_new0 (Document, 1);

  doc->charts = charts;
  doc->max_list = max_list;
  doc->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) block_free);
  return doc;
}

void
grammar_report_document_free (Document *doc)
{
  g_ptr_array_unref (doc->blocks);
  g_free (doc->title);
  g_free (doc);
}


/* Adds a block; @text is taken. */
static void
add_block (Document  *doc,
           BlockKind  kind,
           guint      level,
           char      *text)
{
  Block *block = g_new0 (Block, 1);

  block->kind = kind;
  block->level = level;
  block->text = text;
  g_ptr_array_add (doc->blocks, block);
}

static void
add_table (Document *doc,
           Table    *table)
{
  Block *block = g_new0 (Block, 1);

  block->kind = BLOCK_TABLE;
  block->table = table;
  g_ptr_array_add (doc->blocks, block);
}

/* Reading the report JSON: every accessor tolerates a missing member or
 * one of another type, which the report shows as NONE. */

static JsonNode *
member (JsonObject *object,
        const char *name)
{
  return object != NULL ? json_object_get_member (object, name) : NULL;
}

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = member (object, name);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING ?
         json_node_get_string (node) : NULL;
}

static gboolean
node_number (JsonNode *node,
             double   *value)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    *value = json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    return FALSE;
  return isfinite (*value);
}

/* The number @name of @object, or NAN. */
static double
member_number (JsonObject *object,
               const char *name)
{
  double value;

  return node_number (member (object, name), &value) ? value : NAN;
}

static gboolean
member_boolean (JsonObject *object,
                const char *name,
                gboolean   *value)
{
  JsonNode *node = member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return FALSE;
  *value = json_node_get_boolean (node);
  return TRUE;
}

/* The bounds of an interval [lo, hi], or FALSE when it is null or malformed. */
static gboolean
node_interval (JsonNode *node,
               double   *lo,
               double   *hi)
{
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  return json_array_get_length (array) == 2 &&
         node_number (json_array_get_element (array, 0), lo) &&
         node_number (json_array_get_element (array, 1), hi);
}

/* Whether some interval of a mean under @object is the normal one
 * ("method" or, in a paired comparison, "interval_method" is "normal"):
 * more than GRAMMAR_STATS_BOOTSTRAP_LIMIT values were measured. Only
 * then do the captions name it, so that reports small enough for the
 * bootstrap everywhere read as they always did. */
static gboolean
has_normal_interval (JsonObject *object)
{
  g_autoptr (GList) names = object != NULL ? json_object_get_members (object) : NULL;

  if (g_strcmp0 (member_string (object, "method"), "normal") == 0 ||
      g_strcmp0 (member_string (object, "interval_method"), "normal") == 0)
    return TRUE;
  for (GList *l = names; l != NULL; l = l->next)
    if (has_normal_interval (member_object (object, l->data)))
      return TRUE;
  return FALSE;
}

/* Added to a caption's "bootstrap" when has_normal_interval(). */
#define NORMAL_ABOVE "normal above " G_STRINGIFY (GRAMMAR_STATS_BOOTSTRAP_LIMIT)

/* Formatting numbers: four decimals, with the C locale's point whatever
 * the user's locale, since the output is also read by programs. */

static char *
format_decimal (double value,
                gboolean signed_)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_strdup (NONE);
  if (fabs (value) < 0.00005)
    value = 0.0;   /* no "-0.0000" */
  g_ascii_formatd (buffer, sizeof buffer, "%.4f", value);
  return signed_ && value >= 0.0 ? g_strconcat ("+", buffer, NULL) : g_strdup (buffer);
}

static char *
format_count_value (double value)
{
  if (!isfinite (value))
    return g_strdup (NONE);
  if (value == floor (value) && fabs (value) < 1e15)
    return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) value);
  return format_decimal (value, FALSE);
}

static char *
format_count (JsonObject *object,
              const char *name)
{
  return format_count_value (member_number (object, name));
}

static char *
format_rate (JsonObject *object,
             const char *name)
{
  return format_decimal (member_number (object, name), FALSE);
}

static char *
format_interval_node (JsonNode *node)
{
  g_autofree char *lo_text = NULL;
  g_autofree char *hi_text = NULL;
  double lo, hi;

  if (!node_interval (node, &lo, &hi))
    return g_strdup (NONE);
  lo_text = format_decimal (lo, FALSE);
  hi_text = format_decimal (hi, FALSE);
  return g_strdup_printf ("[%s, %s]", lo_text, hi_text);
}

static char *
format_interval (JsonObject *intervals,
                 const char *name)
{
  return format_interval_node (member (intervals, name));
}

/* A p-value too small for four decimals is not zero. */
static char *
format_p (JsonObject *object)
{
  double p = member_number (object, "p");

  if (isfinite (p) && p > 0.0 && p < 0.0001)
    return g_strdup ("<0.0001");
  return format_decimal (p, FALSE);
}

static char *
dup_or_none (const char *text)
{
  return g_strdup (text != NULL ? text : NONE);
}

/* The strings of @array joined by @separator, or NULL when it has none. */
static char *
join_strings (JsonArray  *array,
              const char *separator)
{
  g_autoptr (GString) joined = g_string_new (NULL);
  guint n = array != NULL ? json_array_get_length (array) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        continue;
      if (joined->len > 0)
        g_string_append (joined, separator);
      g_string_append (joined, json_node_get_string (node));
    }
  return joined->len > 0 ? g_string_free (g_steal_pointer (&joined), FALSE) : NULL;
}

/* An answer (rows of values) as compact JSON. */
static char *
format_json (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return g_strdup (NONE);
  return grammar_json_to_data (node, 0, NULL);
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
  return metric != NULL ? metric : NONE;
}

/* @text cut to its first @n characters, with "…" when it had more. */
static char *
cut_chars (const char *text,
           guint       n)
{
  const char *end;

  if (g_utf8_strlen (text, -1) <= n)
    return g_strdup (text);
  end = g_utf8_offset_to_pointer (text, n);
  return g_strdup_printf ("%.*s…", (int) (end - text), text);
}

/* The SQL and example text query of template @id, from the report's
 * `templates`; FALSE when it has none for @id. */
static gboolean
template_parts (Document    *doc,
                const char  *id,
                const char **sql,
                const char **example)
{
  JsonObject *entry = id != NULL ? member_object (doc->templates, id) : NULL;

  *sql = member_string (entry, "sql");
  *example = member_string (entry, "example");
  return *sql != NULL;
}

/* How the report shows template @id: its SQL, an example text query and
 * its id (a COLUMN_TEMPLATE cell), or the id alone when the report does
 * not have its SQL. The SQL is cut at 500 characters, the example at
 * CELL_SHOWN: the JSON report has them whole. */
static char *
template_cell (Document   *doc,
               const char *id)
{
  const char *sql, *example;
  g_autofree char *sql_cut = NULL;
  g_autofree char *example_cut = NULL;

  if (!template_parts (doc, id, &sql, &example))
    return dup_or_none (id);
  sql_cut = cut_chars (sql, 500);
  example_cut = example != NULL ? cut_chars (example, CELL_SHOWN) : g_strdup ("");
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

/* Checking the required members: the ones every report has, without
 * which the summary would be meaningless. */

static gboolean
require_number (JsonObject  *object,
                const char  *parent,
                const char  *name,
                gboolean     nullable,
                GError     **error)
{
  JsonNode *node = member (object, name);
  g_autofree char *key = parent != NULL ? g_strdup_printf ("%s.%s", parent, name) : g_strdup (name);
  double value;

  if (node == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "the report has no “%s” member", key);
      return FALSE;
    }
  if ((nullable && JSON_NODE_HOLDS_NULL (node)) || node_number (node, &value))
    return TRUE;
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "the report's “%s” must be a number%s", key, nullable ? " or null" : "");
  return FALSE;
}

gboolean
grammar_report_check (JsonNode  *report,
              GError   **error)
{
  static const char * const counts[] = { "instances", "unmeasured" };
  static const char * const tags[] = { "total", "gap", "robust", "non_robust" };
  static const char * const metrics[] = { "accuracy", "robustness", "knowledge_accuracy" };
  JsonObject *root;
  JsonObject *groups;

  if (!JSON_NODE_HOLDS_OBJECT (report))
    {
      g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                           "the report must be a JSON object");
      return FALSE;
    }
  root = json_node_get_object (report);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    if (!require_number (root, NULL, counts[i], FALSE, error))
      return FALSE;
  groups = member_object (root, "groups");
  if (groups == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, member (root, "groups") == NULL ?
                   "the report has no “groups” member" : "the report's “groups” must be an object");
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    if (!require_number (groups, "groups", tags[i], FALSE, error))
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    if (!require_number (root, NULL, metrics[i], TRUE, error))
      return FALSE;
  return TRUE;
}

/* Charts: inline SVG, built here with every piece of user text escaped.
 * Coordinates are whole pixels, printed with %d so that no locale can
 * turn a decimal point into a comma. */

typedef struct
{
  char *label;
  char *title;               /* shown on hover: the whole label, or this when not NULL */
  double value;              /* NAN: undefined */
  double lo, hi;             /* NAN: no interval */
  const char *color;
} ChartRow;

static void
chart_row_clear (ChartRow *row)
{
  g_free (row->label);
  g_free (row->title);
}

static GArray *
chart_rows_new (void)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (ChartRow));

  g_array_set_clear_func (rows, (GDestroyNotify) chart_row_clear);
  return rows;
}

static void
chart_rows_add (GArray     *rows,
                char       *label,
                double      value,
                JsonNode   *interval,
                const char *color)
{
  ChartRow row = { label, NULL, value, NAN, NAN, color };

  node_interval (interval, &row.lo, &row.hi);
  g_array_append_val (rows, row);
}

/* @text escaped for HTML and SVG, control characters dropped first since
 * HTML has no way to write most of them. */
char *
grammar_report_escape_html (const char *text,
             guint       max_width)
{
  g_autofree char *clean = grammar_report_sanitize (text, TRUE, max_width);

  return g_markup_escape_text (clean, -1);
}

static int
chart_x (int    left,
         double value)
{
  return left + (int) lround (CLAMP (value, 0.0, 1.0) * CHART_PLOT_WIDTH);
}

static void
chart_grid (GString *svg,
            int      left,
            int      bottom)
{
  static const char * const ticks[] = { "0", "0.25", "0.5", "0.75", "1" };

  for (guint k = 0; k < G_N_ELEMENTS (ticks); k++)
    {
      int x = left + (int) k * CHART_PLOT_WIDTH / 4;

      g_string_append_printf (svg,
        "<line x1=\"%d\" y1=\"4\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>"
        "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%s</text>\n",
        x, x, bottom, x, bottom + 16, ticks[k]);
    }
}

static void
chart_row (GString        *svg,
           const ChartRow *row,
           int             left,
           int             y)
{
  g_autofree char *label = grammar_report_escape_html (row->label, CHART_LABEL_COLUMNS);
  g_autofree char *full_label = grammar_report_escape_html (row->title != NULL ? row->title : row->label, 0);
  g_autofree char *value = format_decimal (row->value, FALSE);
  g_autofree char *lo = format_decimal (row->lo, FALSE);
  g_autofree char *hi = format_decimal (row->hi, FALSE);
  int middle = y + CHART_ROW_HEIGHT / 2;
  gboolean has_interval = isfinite (row->lo) && isfinite (row->hi);

  g_string_append_printf (svg, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s<title>%s</title></text>\n",
                          left - 8, middle + 4, label, full_label);
  if (!isfinite (row->value))
    {
      g_string_append_printf (svg, "<text x=\"%d\" y=\"%d\" class=\"na\">n/a (undefined)</text>\n",
                              left + 4, middle + 4);
      return;
    }
  g_string_append_printf (svg, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"14\" fill=\"%s\" "
                          "fill-opacity=\"0.45\"/>\n",
                          left, middle - 7, chart_x (left, row->value) - left, row->color);
  if (has_interval)
    g_string_append_printf (svg,
      "<g stroke=\"#222222\" stroke-width=\"1.5\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>\n",
      chart_x (left, row->lo), middle, chart_x (left, row->hi), middle,
      chart_x (left, row->lo), middle - 5, chart_x (left, row->lo), middle + 5,
      chart_x (left, row->hi), middle - 5, chart_x (left, row->hi), middle + 5);
  g_string_append_printf (svg, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/>\n",
                          chart_x (left, row->value), middle, row->color);
  g_string_append_printf (svg, "<text x=\"%d\" y=\"%d\">%s", left + CHART_PLOT_WIDTH + 8,
                          middle + 4, value);
  if (has_interval)
    g_string_append_printf (svg, " [%s, %s]", lo, hi);
  g_string_append (svg, "</text>\n");
}

/* Rows of a value in [0, 1] with its interval as an error bar. */
static char *
interval_chart (const char *caption,
                GArray     *rows)
{
  g_autoptr (GString) svg = g_string_new (NULL);
  g_autofree char *escaped_caption = grammar_report_escape_html (caption, 0);
  guint shown = MIN (rows->len, CHART_MAX_ROWS);
  int bottom = 8 + (int) shown * CHART_ROW_HEIGHT;
  guint label_columns = 0;
  int left, width, height = bottom + 24;

  /* as wide as the longest label needs, up to 8 px a column at 12 px */
  for (guint i = 0; i < shown; i++)
    {
      g_autofree char *label = grammar_report_sanitize (g_array_index (rows, ChartRow, i).label, FALSE,
                                                        CHART_LABEL_COLUMNS);

      label_columns = MAX (label_columns, g_utf8_strlen (label, -1));
    }
  left = CLAMP (16 + 8 * (int) label_columns, 80, CHART_LABEL_WIDTH);
  width = left + CHART_PLOT_WIDTH + CHART_VALUE_WIDTH;

  g_string_append_printf (svg, "<figure>\n<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                          "role=\"img\" aria-label=\"%s\">\n", width, height, width, height, escaped_caption);
  chart_grid (svg, left, bottom);
  for (guint i = 0; i < shown; i++)
    chart_row (svg, &g_array_index (rows, ChartRow, i), left, 8 + (int) i * CHART_ROW_HEIGHT);
  g_string_append_printf (svg, "</svg>\n<figcaption>%s", escaped_caption);
  if (rows->len > shown)
    g_string_append_printf (svg, " The first %u of %u are drawn; the table has all.", shown, rows->len);
  g_string_append (svg, "</figcaption>\n</figure>");
  return g_string_free (g_steal_pointer (&svg), FALSE);
}

static const struct
{
  const char *tag;
  const char *title;
  const char *color;
} chart_tags[] = {
  { "gap", "gap", COLOR_GAP },
  { "non_robust", "non-robust", COLOR_NON_ROBUST },
  { "robust", "robust", COLOR_ROBUST },
  { "unmeasured", "unmeasured", COLOR_UNMEASURED },
};

/* One bar split by tag: the share of the groups (or of their instances)
 * each tag has. */
static void
stacked_bar (GString    *svg,
             const char *title,
             JsonObject *counts,
             int         y)
{
  double total = 0.0;
  int x = 100;

  g_string_append_printf (svg, "<text x=\"92\" y=\"%d\" text-anchor=\"end\">%s</text>\n", y + 19, title);
  for (guint i = 0; i < G_N_ELEMENTS (chart_tags); i++)
    {
      double n = member_number (counts, chart_tags[i].tag);

      total += isfinite (n) && n > 0 ? n : 0.0;
    }
  if (total <= 0.0)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (chart_tags); i++)
    {
      double n = member_number (counts, chart_tags[i].tag);
      g_autofree char *count = format_count_value (n);
      int width;

      if (!isfinite (n) || n <= 0)
        continue;
      width = (int) lround (n / total * 600);
      g_string_append_printf (svg, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"28\" fill=\"%s\">"
                              "<title>%s: %s</title></rect>\n", x, y, width, chart_tags[i].color,
                              chart_tags[i].title, count);
      if (width >= 36)
        g_string_append_printf (svg, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"inbar\">%s</text>\n",
                                x + width / 2, y + 19, count);
      x += width;
    }
}

static char *
groups_chart (JsonObject *groups)
{
  g_autoptr (GString) svg = g_string_new (NULL);
  JsonObject *instances = member_object (groups, "instances");
  int height = 80 + (int) G_N_ELEMENTS (chart_tags) * 20;

  g_string_append_printf (svg, "<figure>\n<svg class=\"chart\" width=\"720\" height=\"%d\" viewBox=\"0 0 720 %d\" "
                          "role=\"img\" aria-label=\"Groups by tag\">\n", height, height);
  stacked_bar (svg, "Groups", groups, 4);
  if (instances != NULL)
    stacked_bar (svg, "Instances", instances, 40);
  for (guint i = 0; i < G_N_ELEMENTS (chart_tags); i++)
    {
      g_autofree char *n_groups = format_count (groups, chart_tags[i].tag);
      g_autofree char *n_instances = format_count (instances, chart_tags[i].tag);
      int y = 84 + (int) i * 20;

      g_string_append_printf (svg, "<rect x=\"100\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                              "<text x=\"118\" y=\"%d\">%s: %s groups, %s instances</text>\n",
                              y - 10, chart_tags[i].color, y, chart_tags[i].title, n_groups, n_instances);
    }
  g_string_append (svg, "</svg>\n<figcaption>Groups by tag: gap (no query of the group answered right), "
                   "non-robust (some), robust (all); the lower bar weighs each group by its "
                   "instances.</figcaption>\n</figure>");
  return g_string_free (g_steal_pointer (&svg), FALSE);
}

/* Building the document */

/* The keys of the entries of the breakdown @name, joined by ", ". */
static char *
join_keys (JsonObject *root,
           const char *name)
{
  JsonArray *entries = member_array (root, name);
  g_autoptr (GString) joined = g_string_new (NULL);

  for (guint i = 0; entries != NULL && i < json_array_get_length (entries); i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      const char *key = JSON_NODE_HOLDS_OBJECT (node) ? member_string (json_node_get_object (node), "key") : NULL;

      if (key == NULL)
        continue;
      if (joined->len > 0)
        g_string_append (joined, ", ");
      g_string_append (joined, key);
    }
  return joined->len > 0 ? g_string_free (g_steal_pointer (&joined), FALSE) : NULL;
}

static void
add_title (Document   *doc,
           JsonObject *root)
{
  const char *source = member_string (root, "source");
  g_autofree char *styles = join_strings (member_array (root, "styles"), ", ");
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

static void
add_summary (Document   *doc,
             JsonObject *root)
{
  JsonObject *intervals = member_object (root, "intervals");
  JsonObject *retrieval = member_object (root, "retrieval");
  Table *table = TABLE_NEW (figure_columns, FALSE);

  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Summary"));
  table_add (table, g_strdup ("Instances"), format_count (root, "instances"), g_strdup (""));
  if (member (root, "measured") != NULL)
    table_add (table, g_strdup ("Measured"), format_count (root, "measured"), g_strdup (""));
  table_add (table, g_strdup ("Unmeasured"), format_count (root, "unmeasured"), g_strdup (""));
  if (member (root, "correct") != NULL)
    table_add (table, g_strdup ("Correct"), format_count (root, "correct"), g_strdup (""));
  table_add (table, g_strdup ("Accuracy"), format_rate (root, "accuracy"),
             format_interval (intervals, "accuracy"));
  table_add (table, g_strdup ("Robustness"), format_rate (root, "robustness"),
             format_interval (intervals, "robustness"));
  table_add (table, g_strdup ("Knowledge accuracy"), format_rate (root, "knowledge_accuracy"), g_strdup (""));
  table_add (table, g_strdup ("Retrieval accuracy"), format_rate (retrieval, "accuracy"),
             format_interval (intervals, "retrieval_accuracy"));
  table_add (table, g_strdup ("Retrieval robustness"), format_rate (retrieval, "robustness"),
             format_interval (intervals, "retrieval_robustness"));
  if (retrieval != NULL && member (retrieval, "unmeasured") != NULL)
    table_add (table, g_strdup ("Retrieval unmeasured"), format_count (retrieval, "unmeasured"), g_strdup (""));
  add_table (doc, table);
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup (
    "Accuracy: correct / measured records. Robustness: the same over the groups that are not gap "
    "groups. Knowledge accuracy: 1 − gap groups / groups. Retrieval: whether the context was "
    "sufficient (a correct answer counts as sufficient). Intervals: Wilson, 95 %."));
}

static void
add_groups (Document   *doc,
            JsonObject *root)
{
  JsonObject *groups = member_object (root, "groups");
  JsonObject *instances = member_object (groups, "instances");
  Table *table = TABLE_NEW (group_columns, FALSE);

  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Groups"));
  for (guint i = 0; i < G_N_ELEMENTS (chart_tags); i++)
    table_add (table, g_strdup (chart_tags[i].title), format_count (groups, chart_tags[i].tag),
               format_count (instances, chart_tags[i].tag));
  table_add (table, g_strdup ("total"), format_count (groups, "total"), format_count (root, "instances"));
  add_table (doc, table);
  if (doc->charts)
    add_block (doc, BLOCK_CHART, 0, groups_chart (groups));
}

static char *
format_group_counts (JsonObject *groups)
{
  g_autofree char *gap = format_count (groups, "gap");
  g_autofree char *robust = format_count (groups, "robust");
  g_autofree char *non_robust = format_count (groups, "non_robust");

  return g_strdup_printf ("%s/%s/%s", gap, robust, non_robust);
}

static void
add_breakdown_row (Document   *doc,
                   Table      *table,
                   JsonObject *entry,
                   gboolean    templates)
{
  JsonObject *intervals = member_object (entry, "intervals");
  JsonObject *retrieval = member_object (entry, "retrieval");
  const char *key = member_string (entry, "key");

  table_add_anchored (table, templates ? template_anchor (key) : NULL,
             templates ? template_cell (doc, key) : dup_or_none (key), format_count (entry, "instances"),
             format_count (entry, "unmeasured"), format_group_counts (member_object (entry, "groups")),
             format_rate (entry, "accuracy"), format_rate (entry, "robustness"),
             format_interval (intervals, "robustness"), format_rate (entry, "knowledge_accuracy"),
             format_rate (retrieval, "accuracy"), format_rate (retrieval, "robustness"));
}

static void
add_breakdown (Document   *doc,
               JsonObject *root,
               const char *name,
               const char *title,
               const char *chart_caption)
{
  JsonArray *entries = member_array (root, name);
  g_autoptr (GArray) chart = chart_rows_new ();
  Table *table;

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
      const char *key = entry != NULL ? member_string (entry, "key") : NULL;
      const char *sql, *example;

      if (entry == NULL)
        continue;
      add_breakdown_row (doc, table, entry, templates);
      chart_rows_add (chart, dup_or_none (key), member_number (entry, "robustness"),
                      member (member_object (entry, "intervals"), "robustness"), COLOR_A);
      /* a template's row is labelled with its SQL, the rest on hover */
      if (templates && template_parts (doc, key, &sql, &example))
        {
          ChartRow *row = &g_array_index (chart, ChartRow, chart->len - 1);

          g_free (row->label);
          row->label = cut_chars (sql, 200);
          row->title = g_strdup_printf ("%s\n%s\n%s", row->label, example != NULL ? example : "", key);
        }
    }
  add_table (doc, table);
  if (doc->charts && chart_caption != NULL && chart->len > 0)
    add_block (doc, BLOCK_CHART, 0, interval_chart (chart_caption, chart));
}

static void
add_breakdowns (Document   *doc,
                JsonObject *root)
{
  if (member (root, "by_style") == NULL && member (root, "by_template") == NULL &&
      member (root, "by_table") == NULL)
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

static void
add_gap_groups (Document   *doc,
                JsonObject *root)
{
  JsonArray *list = member_array (root, "gap_groups");
  g_autofree char *total = format_count (member_object (root, "groups"), "gap");
  Table *table;
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
  table = TABLE_NEW (gap_columns, TRUE);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      g_autofree char *texts = NULL;

      if (entry == NULL)
        continue;
      texts = join_strings (member_array (entry, "texts"), "\n");
      table_add (table, dup_or_none (member_string (entry, "group")), format_count (entry, "instances"),
                 dup_or_none (member_string (entry, "attribution")), dup_or_none (member_string (entry, "template")),
                 dup_or_none (member_string (entry, "style")), dup_or_none (member_string (entry, "sql")),
                 format_json (member (entry, "answer")), dup_or_none (texts));
    }
  add_table (doc, table);
}

static void
add_debug (Document   *doc,
           JsonObject *root)
{
  JsonArray *list = member_array (root, "debug");
  Table *table;
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
      table_add (table, dup_or_none (member_string (entry, "id")), dup_or_none (member_string (entry, "group")),
                 dup_or_none (member_string (entry, "template")), dup_or_none (member_string (entry, "style")),
                 dup_or_none (member_string (entry, "verdict")), dup_or_none (member_string (entry, "retrieval")),
                 dup_or_none (member_string (entry, "attribution")), dup_or_none (member_string (entry, "text")),
                 format_json (member (entry, "answer")), dup_or_none (member_string (entry, "response")),
                 dup_or_none (member_string (entry, "reason")));
    }
  add_table (doc, table);
}

/* "short", from the side's styles, else its file, else @fallback. */
static char *
side_name (JsonObject *side,
           const char *fallback)
{
  char *styles = join_strings (member_array (side, "styles"), ", ");

  if (styles != NULL)
    return styles;
  return g_strdup (member_string (side, "source") != NULL ? member_string (side, "source") : fallback);
}

static char *
format_side (JsonObject *test,
             const char *side)
{
  JsonObject *object = member_object (test, side);
  g_autofree char *rate = format_rate (object, "rate");
  g_autofree char *successes = format_count (object, "successes");
  g_autofree char *n = format_count (object, "n");

  return g_strdup_printf ("%s (%s/%s)", rate, successes, n);
}

static void
add_pairing (Document   *doc,
             JsonObject *comparison)
{
  Table *table = TABLE_NEW (pairing_columns, FALSE);
  gboolean balance;

  table_add (table, g_strdup ("Shared groups"), format_count (comparison, "shared_groups"));
  table_add (table, g_strdup ("Groups only in A (left out)"), format_count (comparison, "only_a"));
  table_add (table, g_strdup ("Groups only in B (left out)"), format_count (comparison, "only_b"));
  table_add (table, g_strdup ("Gap groups of both, removed"), format_count (comparison, "mutual_gap_groups_removed"));
  table_add (table, g_strdup ("Groups compared"), format_count (comparison, "groups_compared"));
  table_add (table, g_strdup ("Gap groups balanced"),
             g_strdup (!member_boolean (comparison, "balance", &balance) ? NONE : balance ? "yes" : "no"));
  table_add (table, g_strdup ("λ A (gap instances share)"), format_rate (comparison, "lambda_a"));
  table_add (table, g_strdup ("λ B (gap instances share)"), format_rate (comparison, "lambda_b"));
  table_add (table, g_strdup ("α"), format_rate (comparison, "alpha"));
  add_table (doc, table);
}

static void
add_tests (Document   *doc,
           JsonArray  *tests,
           const char *name_a,
           const char *name_b)
{
  g_autoptr (GArray) chart = chart_rows_new ();
  Table *table = TABLE_NEW (test_columns, FALSE);

  for (guint i = 0; tests != NULL && i < json_array_get_length (tests); i++)
    {
      JsonNode *node = json_array_get_element (tests, i);
      JsonObject *test = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *title = metric_title (member_string (test, "metric"));
      JsonObject *a = member_object (test, "a");
      JsonObject *b = member_object (test, "b");

      if (test == NULL)
        continue;
      table_add (table, g_strdup (title), format_side (test, "a"), format_interval (a, "interval"),
                 format_side (test, "b"), format_interval (b, "interval"),
                 format_decimal (member_number (test, "difference"), TRUE),
                 format_decimal (member_number (test, "z"), TRUE), format_p (test));
      chart_rows_add (chart, g_strdup_printf ("%s · A (%s)", title, name_a), member_number (a, "rate"),
                      member (a, "interval"), COLOR_A);
      chart_rows_add (chart, g_strdup_printf ("%s · B (%s)", title, name_b), member_number (b, "rate"),
                      member (b, "interval"), COLOR_B);
    }
  add_table (doc, table);
  if (doc->charts && chart->len > 0)
    add_block (doc, BLOCK_CHART, 0, interval_chart (
      "A against B on the groups compared, with 95 % Wilson intervals as error bars.", chart));
}

static void
add_verdict (Document   *doc,
             JsonObject *comparison,
             const char *name_a,
             const char *name_b)
{
  const char *less = member_string (comparison, "less_robust");
  const char *module = member_string (comparison, "module");
  const char *conclusion = member_string (comparison, "conclusion");
  g_autofree char *alpha = format_rate (comparison, "alpha");
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
    !member_boolean (comparison, "significant", &significant) ? NONE : significant ? "yes" : "no",
    module != NULL ? module : NONE));
  if (conclusion != NULL)
    add_block (doc, BLOCK_CONCLUSION, 0, g_strdup (conclusion));
}

static void add_paired_rows (Table      *table,
                             JsonObject *paired,
                             const char *prefix);

static void
add_comparison (Document   *doc,
                JsonObject *root)
{
  JsonObject *comparison = member_object (root, "comparison");
  JsonObject *a = member_object (comparison, "a");
  JsonObject *b = member_object (comparison, "b");
  g_autofree char *name_a = side_name (a, "A");
  g_autofree char *name_b = side_name (b, "B");
  const char *source_a = member_string (a, "source");
  const char *source_b = member_string (b, "source");

  if (comparison == NULL)
    return;
  add_block (doc, BLOCK_HEADING, 2, g_strdup_printf ("Comparison: %s (A) and %s (B)", name_a, name_b));
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf ("A: %s (%s). B: %s (%s).",
                                                       name_a, source_a != NULL ? source_a : NONE,
                                                       name_b, source_b != NULL ? source_b : NONE));
  add_pairing (doc, comparison);
  add_tests (doc, member_array (comparison, "tests"), name_a, name_b);
  add_verdict (doc, comparison, name_a, name_b);
  if (member_object (comparison, "retrieval_metrics") != NULL)
    {
      Table *paired = TABLE_NEW (paired_columns, FALSE);

      add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
        "Retrieval, B against A on the semantic groups both runs measured: each group's mean on each side; the "
        "difference's bootstrap 95 %% interval%s; Wilcoxon's signed-rank test of the groups' differences.",
        has_normal_interval (member_object (comparison, "retrieval_metrics")) ? " (" NORMAL_ABOVE " groups)" : ""));
      add_paired_rows (paired, member_object (comparison, "retrieval_metrics"), "");
      add_table (doc, paired);
    }
}

/* The test of @metric among a comparison's tests, or NULL. */
static JsonObject *
find_test (JsonObject *comparison,
           const char *metric)
{
  JsonArray *tests = member_array (comparison, "tests");

  for (guint i = 0; tests != NULL && i < json_array_get_length (tests); i++)
    {
      JsonNode *node = json_array_get_element (tests, i);
      JsonObject *test = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      if (g_strcmp0 (member_string (test, "metric"), metric) == 0)
        return test;
    }
  return NULL;
}

/* A run of several styles: the first style against each other one, the
 * accuracy and robustness tests of each pair and its conclusion. */
static void
add_pairs (Document   *doc,
           JsonObject *root)
{
  JsonArray *pairs = member_array (root, "pairs");
  g_autofree char *first = NULL;
  Table *table;
  guint n = pairs != NULL ? json_array_get_length (pairs) : 0;

  if (n == 0)
    return;
  for (guint i = 0; i < n && first == NULL; i++)
    {
      JsonNode *node = json_array_get_element (pairs, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        first = side_name (member_object (json_node_get_object (node), "a"), "A");
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
      table_add (table, side_name (member_object (pair, "b"), "B"), format_count (pair, "groups_compared"),
                 format_rate (member_object (accuracy, "a"), "rate"), format_rate (member_object (accuracy, "b"), "rate"),
                 format_p (accuracy), format_rate (member_object (robustness, "a"), "rate"),
                 format_rate (member_object (robustness, "b"), "rate"), format_p (robustness));
    }
  add_table (doc, table);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (pairs, i);
      JsonObject *pair = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *conclusion = member_string (pair, "conclusion");
      g_autofree char *name_a = NULL, *name_b = NULL;

      if (conclusion == NULL)
        continue;
      name_a = side_name (member_object (pair, "a"), "A");
      name_b = side_name (member_object (pair, "b"), "B");
      add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf ("%s against %s: %s", name_a, name_b, conclusion));
    }
}

/* "0.19" of a proportion {value}, NONE when undefined. */
static char *
format_proportion (JsonObject *figures,
                   const char *name)
{
  return format_rate (member_object (figures, name), "value");
}

static char *
format_percent_interval (JsonObject *proportion,
                         const char *interval)
{
  double value = member_number (proportion, "value");
  double lo, hi;

  if (!isfinite (value) || !node_interval (member (proportion, interval), &lo, &hi))
    return g_strdup (NONE);
  return g_strdup_printf ("%.0f%% (%.0f–%.0f%%)", 100.0 * value, 100.0 * lo, 100.0 * hi);
}

static void
add_reliability_row (Table      *table,
                     const char *metric,
                     const char *slice,
                     JsonObject *figures)
{
  JsonObject *auroc = member_object (figures, "auroc");

  table_add (table, g_strdup (metric), g_strdup (slice),
             format_count (member_object (figures, "accuracy"), "n"),
             format_proportion (figures, "precision"), format_interval (member_object (figures, "precision"), "wilson"),
             format_proportion (figures, "recall"), format_interval (member_object (figures, "recall"), "wilson"),
             format_proportion (figures, "specificity"), format_proportion (figures, "accuracy"),
             format_rate (auroc, "value"), format_interval (auroc, "interval"),
             format_rate (figures, "unmeasured_share"));
}

static void
add_slices (Table      *table,
            const char *metric,
            JsonObject *slices,
            const char *prefix)
{
  g_autoptr (GList) keys = slices != NULL ? json_object_get_members (slices) : NULL;

  for (GList *l = keys; l != NULL; l = l->next)
    {
      g_autofree char *slice = g_strdup_printf ("%s %s", prefix, (const char *) l->data);

      add_reliability_row (table, metric, slice, member_object (slices, l->data));
    }
}

/* How far each reference-free metric agrees with the grounded verdicts. */
static void
add_reliability (Document   *doc,
                 JsonObject *root)
{
  JsonObject *reliability = member_object (root, "reliability");
  g_autoptr (GList) metrics = reliability != NULL ? json_object_get_members (reliability) : NULL;
  g_autoptr (GArray) chart = chart_rows_new ();
  Table *table, *paper, *slices;

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
      JsonObject *figures = member_object (reliability, l->data);
      JsonObject *confusion = member_object (figures, "confusion");
      const char *verdict = member_string (figures, "verdict");

      add_reliability_row (table, l->data, "all", figures);
      table_add (paper, g_strdup (l->data), format_count (confusion, "tp"), format_count (confusion, "fp"),
                 format_count (confusion, "fn"), format_count (confusion, "tn"),
                 format_percent_interval (member_object (figures, "precision"), "normal"),
                 format_percent_interval (member_object (figures, "recall"), "normal"));
      add_slices (slices, l->data, member_object (figures, "by_style"), "style");
      add_slices (slices, l->data, member_object (figures, "by_group"), "group");
      add_block (doc, BLOCK_CONCLUSION, 0, g_strdup_printf ("%s: %s", (const char *) l->data,
                                                            verdict != NULL ? verdict : NONE));
      chart_rows_add (chart, g_strdup_printf ("%s · precision", (const char *) l->data),
                      member_number (member_object (figures, "precision"), "value"),
                      member (member_object (figures, "precision"), "wilson"), COLOR_NON_ROBUST);
      chart_rows_add (chart, g_strdup_printf ("%s · recall", (const char *) l->data),
                      member_number (member_object (figures, "recall"), "value"),
                      member (member_object (figures, "recall"), "wilson"), COLOR_ROBUST);
    }
  add_table (doc, table);
  if (doc->charts && chart->len > 0)
    add_block (doc, BLOCK_CHART, 0, interval_chart (
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
  JsonObject *figure = member_object (figures, name);
  g_autofree char *value = format_rate (figure, "value");
  g_autofree char *interval = NULL;
  double lo, hi;

  if (figure == NULL || !isfinite (member_number (figure, "value")))
    return g_strdup (NONE);
  if (!node_interval (member (figure, "interval"), &lo, &hi))
    return g_steal_pointer (&value);
  interval = format_interval (figure, "interval");
  return g_strdup_printf ("%s %s", value, interval);
}

static char *
cutoff_label (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return g_strdup (NONE);
}

static char *
figure_name (const char *figure,
             const char *k)
{
  return g_strdup_printf ("%s@%s", figure, k);
}

static void
add_retrieval_rows (Table      *table,
                    JsonArray  *cutoffs,
                    guint       n_cutoffs,
                    const char *slice,
                    JsonObject *figures)
{
  for (guint c = 0; cutoffs != NULL && c < MIN (n_cutoffs, json_array_get_length (cutoffs)); c++)
    {
      g_autofree char *k = cutoff_label (json_array_get_element (cutoffs, c));
      g_autofree char *hit = figure_name ("hit", k);
      g_autofree char *precision = figure_name ("precision", k);
      g_autofree char *recall = figure_name ("recall", k);
      g_autofree char *mrr = figure_name ("mrr", k);
      g_autofree char *ndcg = figure_name ("ndcg", k);

      table_add (table, g_strdup (k), g_strdup (slice), format_count (member_object (figures, hit), "n"),
                 format_figure (figures, hit), format_figure (figures, precision), format_figure (figures, recall),
                 format_figure (figures, mrr), format_figure (figures, ndcg));
    }
}

/* Calls @add for "all" and every slice of `by_style` and `by_group`. */
typedef void (*SliceRowFunc) (Table      *table,
                              gpointer    data,
                              const char *slice,
                              JsonObject *figures);

static void
for_each_slice (Document     *doc,
                JsonObject   *measures,
                gboolean      templates,
                Table        *table,
                SliceRowFunc  add,
                gpointer      data)
{
  static const struct { const char *member; const char *prefix; } breakdowns[] = {
    { "by_style", "style" }, { "by_group", "group" }, { "by_template", "template" },
  };

  add (table, data, "all", member_object (measures, "overall"));
  for (guint b = 0; b < G_N_ELEMENTS (breakdowns); b++)
    {
      JsonObject *slices = member_object (measures, breakdowns[b].member);
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
          add (table, data, slice, member_object (slices, l->data));
        }
    }
}

static void
retrieval_row (Table      *table,
               gpointer    cutoffs,
               const char *slice,
               JsonObject *figures)
{
  add_retrieval_rows (table, cutoffs, G_MAXUINT, slice, figures);
}

/* The template table shows the first cutoff only; JSON has them all. */
static void
retrieval_template_row (Table      *table,
                        gpointer    cutoffs,
                        const char *slice,
                        JsonObject *figures)
{
  add_retrieval_rows (table, cutoffs, 1, slice, figures);
}

static void
rageval_row (Table      *table,
             gpointer    data,
             const char *slice,
             JsonObject *figures)
{
  table_add (table, g_strdup (slice), format_count (member_object (figures, "rageval_recall"), "n"),
             format_figure (figures, "rageval_recall"), format_count (member_object (figures, "eir"), "n"),
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
        JsonObject *figure = member_object (member_object (by_style, l->data), names[i]);

        chart_rows_add (chart, g_strdup_printf ("%s%s · %s", prefix, (const char *) l->data, titles[i]),
                        member_number (figure, "value"), member (figure, "interval"), colors[i]);
      }
}

/* Hit rate, precision, recall, MRR and nDCG at each cutoff, RAGEval's
 * recall and EIR, by slice. */
static void
add_retrieval_metrics (Document   *doc,
                       JsonObject *root)
{
  JsonObject *measures = member_object (root, "retrieval_metrics");
  JsonArray *cutoffs = member_array (measures, "cutoffs");
  g_autofree char *k = NULL;
  g_autofree char *measured = NULL, *no_true = NULL, *no_retrieval = NULL, *seed = NULL, *resamples = NULL;
  Table *table, *rageval, *templates;

  if (measures == NULL)
    return;
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Retrieval"));
  measured = format_count (measures, "measured");
  no_true = format_count (measures, "no_true_documents");
  no_retrieval = format_count (measures, "no_retrieval");
  seed = format_count (measures, "seed");
  resamples = format_count (measures, "resamples");
  if (member_number (measures, "measured") <= 0)
    {
      add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
        "No record has both true documents (doc_ids) and the documents the system retrieved (retrieved): "
        "%s without true documents, %s without retrieved documents.", no_true, no_retrieval));
      return;
    }
  add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
    "Binary relevance: a retrieved document is relevant when it is one of the record's true documents (doc_ids); "
    "k = “retrieved” is what each query retrieved. Means over %s measured records (%s without true documents and "
    "%s without retrieved documents are unmeasured, not zero); hit rate with Wilson 95 %% intervals, the other "
    "figures with bootstrap 95 %% intervals (seed %s, %s resamples%s). RAGEval recall: the share of true documents "
    "retrieved; EIR: the words of the retrieved true documents over all retrieved words.",
    measured, no_true, no_retrieval, seed, resamples,
    has_normal_interval (measures) ? "; " NORMAL_ABOVE " records" : ""));
  table = TABLE_NEW (retrieval_columns, FALSE);
  for_each_slice (doc, measures, FALSE, table, retrieval_row, cutoffs);
  add_table (doc, table);
  rageval = TABLE_NEW (rageval_columns, FALSE);
  for_each_slice (doc, measures, FALSE, rageval, rageval_row, NULL);
  add_table (doc, rageval);
  if (doc->charts && cutoffs != NULL && json_array_get_length (cutoffs) > 0)
    {
      g_autoptr (GArray) chart = chart_rows_new ();
      g_autofree char *hit = NULL, *mrr = NULL, *ndcg = NULL;
      g_autofree char *caption = NULL;

      k = cutoff_label (json_array_get_element (cutoffs, 0));
      hit = figure_name ("hit", k);
      mrr = figure_name ("mrr", k);
      ndcg = figure_name ("ndcg", k);
      {
        const char *names[] = { hit, mrr, ndcg, "eir", NULL };
        const char *titles[] = { "hit rate", "MRR", "nDCG", "EIR", NULL };
        const char *colors[] = { COLOR_ROBUST, COLOR_A, COLOR_B, COLOR_NON_ROBUST, NULL };

        chart_by_style (chart, "", member_object (measures, "by_style"), names, titles, colors);
      }
      caption = g_strdup_printf ("Retrieval by style at k = %s: hit rate (Wilson), MRR, nDCG and EIR (bootstrap%s), "
                                 "with 95 %% intervals.", k,
                                 has_normal_interval (member_object (measures, "by_style")) ?
                                 ", or " NORMAL_ABOVE " records" : "");
      add_block (doc, BLOCK_CHART, 0, interval_chart (caption, chart));
    }
  add_block (doc, BLOCK_HEADING, 2, g_strdup ("Retrieval by template"));
  templates = TABLE_NEW (retrieval_columns, FALSE);
  /* for_each_slice adds "all" first: the reference line. */
  for_each_slice (doc, measures, TRUE, templates, retrieval_template_row, cutoffs);
  add_table (doc, templates);
}

static void
keypoint_row (Table      *table,
              gpointer    metric,
              const char *slice,
              JsonObject *figures)
{
  table_add (table, g_strdup (metric), g_strdup (slice), format_count (member_object (figures, "completeness"), "n"),
             format_figure (figures, "completeness"), format_figure (figures, "hallucination"),
             format_figure (figures, "irrelevance"));
}

static void
add_paired_rows (Table      *table,
                 JsonObject *paired,
                 const char *prefix)
{
  g_autoptr (GList) names = paired != NULL ? json_object_get_members (paired) : NULL;

  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonObject *test = member_object (paired, l->data);
      g_autofree char *difference = NULL;
      g_autofree char *interval = NULL;
      g_autofree char *a_higher = NULL, *b_higher = NULL, *ties = NULL;
      gboolean significant = FALSE;

      if (test == NULL)
        continue;   /* "cutoffs", "a", "b" */
      difference = format_decimal (member_number (test, "difference"), TRUE);
      interval = format_interval (test, "interval");
      a_higher = format_count (test, "a_higher");
      b_higher = format_count (test, "b_higher");
      ties = format_count (test, "ties");
      table_add (table, g_strdup_printf ("%s%s", prefix, (const char *) l->data), format_count (test, "pairs"),
                 format_rate (test, "a"), format_rate (test, "b"),
                 g_strdup_printf ("%s %s", difference, interval),
                 g_strdup_printf ("%s/%s/%s", a_higher, b_higher, ties),
                 format_p (test),
                 g_strdup (!member_boolean (test, "significant", &significant) ? NONE : significant ? "yes" : "no"));
    }
}

/* RAGEval's completeness, hallucination and irrelevance of the keypoint
 * metrics, by slice, and paired between the two runs. */
static void
add_keypoints (Document   *doc,
               JsonObject *root)
{
  JsonObject *keypoints = member_object (root, "keypoints");
  g_autoptr (GList) metrics = keypoints != NULL ? json_object_get_members (keypoints) : NULL;
  g_autoptr (GArray) chart = chart_rows_new ();
  Table *table, *paired = NULL;
  const char *normal = has_normal_interval (keypoints) ? " (" NORMAL_ABOVE " records)" : "";
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
      JsonObject *metric = member_object (keypoints, l->data);
      JsonObject *pairs = member_object (metric, "paired");
      const char *names[] = { "completeness", "hallucination", NULL };
      const char *titles[] = { "completeness", "hallucination", NULL };
      const char *colors[] = { COLOR_ROBUST, COLOR_GAP, NULL };
      g_autofree char *prefix = g_strdup_printf ("%s · ", (const char *) l->data);

      for_each_slice (doc, metric, FALSE, table, keypoint_row, l->data);
      chart_by_style (chart, prefix, member_object (metric, "by_style"), names, titles, colors);
      if (pairs != NULL)
        {
          if (paired == NULL)
            paired = TABLE_NEW (paired_columns, FALSE);
          add_paired_rows (paired, pairs, prefix);
          paired_normal = paired_normal || has_normal_interval (pairs);
        }
    }
  add_table (doc, table);
  if (doc->charts && chart->len > 0)
    {
      g_autofree char *caption = g_strdup_printf (
        "Keypoints by style: completeness (higher is better) and hallucination (lower is better), with bootstrap "
        "95 %% intervals%s.", normal);

      add_block (doc, BLOCK_CHART, 0, interval_chart (caption, chart));
    }
  if (paired != NULL)
    {
      add_block (doc, BLOCK_PARAGRAPH, 0, g_strdup_printf (
        "B against A on the semantic groups both runs measured: each group's mean on each side; the difference's "
        "bootstrap 95 %% interval%s; Wilcoxon's signed-rank test of the groups' differences.",
        paired_normal ? " (" NORMAL_ABOVE " groups)" : ""));
      add_table (doc, paired);
    }
}

Document *
grammar_report_document_build (JsonObject *root,
                               gboolean    charts,
                               guint       max_list)
{
  g_autoptr (Document) doc = document_new (charts, max_list);

  doc->templates = member_object (root, "templates");
  add_title (doc, root);
  add_summary (doc, root);
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
