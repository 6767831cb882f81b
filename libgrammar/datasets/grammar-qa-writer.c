/* grammar-qa-writer.c: the writer thread of the QA generator: patterns, batches, groups and records
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "grammar-qa-generator-private.h"
#include "grammar-document.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-hash-private.h"
#include "grammar-sql-lexer-private.h"
#include "grammar-qa-generator.h"
#include "grammar-value.h"
#include "grammar-value-private.h"

/* The writer ----------------------------------------------------------- */

static void
pattern_free (GrammarQaPattern *pattern)
{
  if (pattern == NULL)
    return;
  g_ptr_array_unref (pattern->pieces);
  g_array_unref (pattern->lengths);
  g_array_unref (pattern->slots);
  g_free (pattern);
}


static GVariant *
marker_values (guint n)
{
  g_autoptr (GPtrArray) children = g_ptr_array_new ();

  for (guint p = 0; p < n; p++)
    {
      char marker[16];

      g_snprintf (marker, sizeof marker, "%c%u%c", GRAMMAR_QA_MARKER_START, p, GRAMMAR_QA_MARKER_END);
      g_ptr_array_add (children, g_variant_new_string (marker));
    }
  return g_variant_ref_sink (g_variant_new_tuple ((GVariant **) children->pdata, n));
}

/* Cuts @filled (a fill with marker_values()) at its markers; NULL when
 * the text has marker bytes of its own. */
static GrammarQaPattern *
pattern_new (const char *filled,
             guint       n_placeholders)
{
  GrammarQaPattern *pattern = g_new0 (GrammarQaPattern, 1);
  const char *piece = filled;

  pattern->pieces = g_ptr_array_new_with_free_func (g_free);
  pattern->lengths = g_array_new (FALSE, FALSE, sizeof (gsize));
  pattern->slots = g_array_new (FALSE, FALSE, sizeof (guint));
  for (const char *p = strchr (filled, GRAMMAR_QA_MARKER_START); p != NULL; p = strchr (piece, GRAMMAR_QA_MARKER_START))
    {
      char *end = NULL;
      guint64 slot = g_ascii_strtoull (p + 1, &end, 10);
      GrammarJsonBuffer escaped = { 0, };
      guint index = (guint) slot;

      if (end == p + 1 || *end != GRAMMAR_QA_MARKER_END || slot >= n_placeholders)
        {
          pattern_free (pattern);
          return NULL;
        }
      grammar_json_buffer_append_content (&escaped, piece, p - piece);
      g_array_append_val (pattern->lengths, escaped.len);
      grammar_json_buffer_append_c (&escaped, '\0');
      g_ptr_array_add (pattern->pieces, escaped.data);
      g_array_append_val (pattern->slots, index);
      piece = end + 1;
    }
  if (strchr (piece, GRAMMAR_QA_MARKER_END) != NULL)
    {
      pattern_free (pattern);
      return NULL;
    }
  g_ptr_array_add (pattern->pieces, grammar_json_content_dup (piece));
  g_array_append_val (pattern->lengths, *(gsize[]) { strlen (g_ptr_array_index (pattern->pieces, pattern->slots->len)) });
  return pattern;
}

/* Joins the pieces of @pattern with @values (escaped texts). */
static void
pattern_render (GrammarQaPattern  *pattern,
                GrammarJsonBuffer *values,
                GrammarJsonBuffer *out)
{
  const gsize *lengths = (const gsize *) (gpointer) pattern->lengths->data;
  guint n = pattern->slots->len;

  for (guint i = 0; i < n; i++)
    {
      grammar_json_buffer_append (out, g_ptr_array_index (pattern->pieces, i), lengths[i]);
      grammar_json_buffer_append_buffer (out, &values[g_array_index (pattern->slots, guint, i)]);
    }
  grammar_json_buffer_append (out, g_ptr_array_index (pattern->pieces, n), lengths[n]);
}

/* One run over a template set. */

void
grammar_qa_style_texts_free (GrammarQaStyleTexts *style)
{
  g_free (style->name);
  g_free (style->escaped);
  g_ptr_array_unref (style->texts);
  g_clear_pointer (&style->patterns, g_ptr_array_unref);
  g_free (style->record_middle);
  g_free (style);
}

void
grammar_qa_plan_free (GrammarQaPlan *plan)
{
  g_object_unref (plan->sql_template);
  g_ptr_array_unref (plan->styles);
  g_free (plan->counts);
  g_strfreev (plan->distinct_queries);
  g_free (plan->set_based_query);
  g_clear_pointer (&plan->doc_sources, g_ptr_array_unref);
  g_free (plan->doc_query);
  g_free (plan->template_escaped);
  g_free (plan->hash_prefix);
  g_clear_pointer (&plan->binding_keys, g_ptr_array_unref);
  pattern_free (plan->sql_pattern);
  g_free (plan);
}

/* The records of a run are written by a second thread, so that reading
 * the database and formatting the records overlap. The reader hands
 * over batches of complete groups, each its keys and then its answer
 * rows, as cells: the values copied out of the cursor's GVariants,
 * which are freed in the thread that made them. A fixed number of
 * batches goes round between the two threads, which bounds the memory. */


GrammarQaBatch *
grammar_qa_batch_new (void)
{
  GrammarQaBatch *batch = g_new0 (GrammarQaBatch, 1);

  batch->cells = g_array_new (FALSE, FALSE, sizeof (GrammarQaCell));
  batch->rows = g_array_new (FALSE, FALSE, sizeof (guint));
  batch->doc_spans = g_array_new (FALSE, FALSE, sizeof (GrammarQaDocSpan));
  return batch;
}

/* Forgets the cells from @length on. */
void
grammar_qa_batch_truncate (GrammarQaBatch *batch,
                           guint           length)
{
  for (guint i = length; i < batch->cells->len; i++)
    {
      GrammarQaCell *cell = &g_array_index (batch->cells, GrammarQaCell, i);

      if (cell->kind == GRAMMAR_QA_CELL_OTHER)
        g_variant_unref (cell->variant);
    }
  g_array_set_size (batch->cells, length);
}

void
grammar_qa_batch_reset (GrammarQaBatch *batch)
{
  grammar_qa_batch_truncate (batch, 0);
  batch->plan = NULL;
  batch->texts.len = 0;
  g_array_set_size (batch->rows, 0);
  batch->doc_ids.len = 0;
  g_array_set_size (batch->doc_spans, 0);
}

void
grammar_qa_batch_free (GrammarQaBatch *batch)
{
  grammar_qa_batch_reset (batch);
  g_array_unref (batch->cells);
  grammar_json_buffer_clear (&batch->texts);
  g_array_unref (batch->rows);
  grammar_json_buffer_clear (&batch->doc_ids);
  g_array_unref (batch->doc_spans);
  g_free (batch);
}

/* Adds a copy of @value (which stays the caller's) to the batch. */
void
grammar_qa_batch_add_cell (GrammarQaBatch *batch,
                           GVariant       *value)
{
  GrammarQaCell cell = { GRAMMAR_QA_CELL_NULL, };

  if (value == NULL)
    cell.kind = GRAMMAR_QA_CELL_NULL;
  else
    switch (g_variant_classify (value))
      {
      case G_VARIANT_CLASS_STRING:
        /* A string's serialised form is its text and a NUL; reading it
         * directly skips g_variant_get_string()'s type checks and
         * locks, which show when a million rows are read. */
        {
          const char *text = g_variant_get_data (value);

          cell.kind = GRAMMAR_QA_CELL_TEXT;
          cell.text.offset = batch->texts.len;
          cell.text.length = strlen (text);
          grammar_json_buffer_append (&batch->texts, text, cell.text.length + 1);
          break;
        }
      case G_VARIANT_CLASS_INT64:
        cell.kind = GRAMMAR_QA_CELL_INT;
        cell.integer = g_variant_get_int64 (value);
        break;
      case G_VARIANT_CLASS_DOUBLE:
        cell.kind = GRAMMAR_QA_CELL_DOUBLE;
        cell.real = g_variant_get_double (value);
        break;
      default:
        cell.kind = GRAMMAR_QA_CELL_OTHER;
        cell.variant = g_variant_ref (value);
        break;
      }
  g_array_append_val (batch->cells, cell);
}

/* A cell as a GVariant again (never for CELL_NULL: keys are not NULL). */
static GVariant *
cell_dup_variant (const GrammarQaCell *cell,
                  const char          *texts)
{
  switch (cell->kind)
    {
    case GRAMMAR_QA_CELL_TEXT:
      return g_variant_ref_sink (g_variant_new_string (texts + cell->text.offset));
    case GRAMMAR_QA_CELL_INT:
      return g_variant_ref_sink (g_variant_new_int64 (cell->integer));
    case GRAMMAR_QA_CELL_DOUBLE:
      return g_variant_ref_sink (g_variant_new_double (cell->real));
    case GRAMMAR_QA_CELL_OTHER:
      return g_variant_ref (cell->variant);
    case GRAMMAR_QA_CELL_NULL:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* A cell as grammar_value_to_json() would write it. */
static void
append_json_cell (GrammarJsonBuffer   *out,
                  const GrammarQaCell *cell,
                  const char          *texts)
{
  switch (cell->kind)
    {
    case GRAMMAR_QA_CELL_TEXT:
      grammar_json_buffer_append_string (out, texts + cell->text.offset, cell->text.length);
      break;
    case GRAMMAR_QA_CELL_INT:
      grammar_json_buffer_append_int (out, cell->integer);
      break;
    case GRAMMAR_QA_CELL_DOUBLE:
      grammar_json_buffer_append_double (out, cell->real);
      break;
    case GRAMMAR_QA_CELL_OTHER:
      grammar_value_append_json (out, cell->variant);
      break;
    case GRAMMAR_QA_CELL_NULL:
    default:
      grammar_json_buffer_append_literal (out, "null");
      break;
    }
}

static const char *
group_text (GrammarQaGroup *group,
            guint           index)
{
  return group->keys[index].kind == GRAMMAR_QA_CELL_TEXT ? group->texts + group->keys[index].text.offset : NULL;
}

static GVariant *
group_tuple (GrammarQaGroup *group)
{
  g_autoptr (GPtrArray) children = NULL;

  if (group->tuple != NULL)
    return group->tuple;
  children = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  for (guint p = 0; p < group->n_keys; p++)
    g_ptr_array_add (children, cell_dup_variant (&group->keys[p], group->texts));
  group->tuple = g_variant_ref_sink (g_variant_new_tuple ((GVariant **) children->pdata, group->n_keys));
  return group->tuple;
}

static gboolean
group_all_texts (GrammarQaGroup *group)
{
  for (guint p = 0; p < group->n_keys; p++)
    if (group->keys[p].kind != GRAMMAR_QA_CELL_TEXT)
      return FALSE;
  return TRUE;
}

void
grammar_qa_writer_clear (GrammarQaWriter *writer)
{
  grammar_json_buffer_clear (&writer->out);
  grammar_json_buffer_clear (&writer->answer);
  grammar_json_buffer_clear (&writer->bindings);
  grammar_json_buffer_clear (&writer->sql);
  grammar_json_buffer_clear (&writer->record_end);
  grammar_json_buffer_clear (&writer->scratch);
  for (guint p = 0; p < writer->n_value_texts; p++)
    grammar_json_buffer_clear (&writer->value_texts[p]);
  g_free (writer->value_texts);
  g_clear_pointer (&writer->chosen, g_array_unref);
  g_clear_pointer (&writer->checksum, g_checksum_free);
  g_clear_error (&writer->error);
}

gboolean
grammar_qa_writer_flush (GrammarQaWriter *writer)
{
  gboolean ok = TRUE;

  if (writer->out.len > 0 && writer->error == NULL)
    ok = g_output_stream_write_all (writer->output, writer->out.data, writer->out.len, NULL,
                                    writer->cancellable, &writer->error);
  writer->flushed += writer->out.len;
  writer->out.len = 0;
  if (!ok)
    g_atomic_int_set (&writer->failed, TRUE);
  return ok;
}

/* A text template's pattern, checked against its own fill. */
static GrammarQaPattern *
text_pattern_new (GrammarTextTemplate *text_template,
                  GrammarSqlTemplate  *sql_template,
                  guint                n)
{
  g_autoptr (GVariant) markers = marker_values (n);
  g_autofree char *filled = NULL;

  if (strchr (grammar_text_template_get_text (text_template), GRAMMAR_QA_MARKER_START) != NULL ||
      strchr (grammar_text_template_get_text (text_template), GRAMMAR_QA_MARKER_END) != NULL)
    return NULL;
  filled = grammar_text_template_fill (text_template, sql_template, markers);
  return filled != NULL ? pattern_new (filled, n) : NULL;
}

static void
prepare_plan (GrammarQaWriter *writer,
              GrammarQaPlan   *plan)
{
  g_autoptr (GVariant) markers = marker_values (plan->n_placeholders);
  g_autofree char *filled_sql = NULL;

  plan->template_escaped = grammar_json_content_dup (grammar_sql_template_get_id (plan->sql_template));
  plan->hash_prefix = g_strconcat (grammar_sql_template_get_id (plan->sql_template), "\n", NULL);
  plan->binding_keys = g_ptr_array_new_with_free_func (g_free);
  for (guint p = 0; p < plan->n_placeholders; p++)
    {
      g_autofree char *key = g_strdup_printf ("%s.%s",
                                              grammar_sql_template_get_placeholder_table (plan->sql_template, p),
                                              grammar_sql_template_get_placeholder_column (plan->sql_template, p));
      GrammarJsonBuffer json = { 0, };

      grammar_json_buffer_append_string (&json, key, strlen (key));
      grammar_json_buffer_append_c (&json, '\0');
      g_ptr_array_add (plan->binding_keys, json.data);
    }

  if (strchr (grammar_sql_template_get_sql (plan->sql_template), GRAMMAR_QA_MARKER_START) == NULL &&
      strchr (grammar_sql_template_get_sql (plan->sql_template), GRAMMAR_QA_MARKER_END) == NULL)
    {
      filled_sql = grammar_sql_template_fill (plan->sql_template, markers);
      plan->sql_pattern = pattern_new (filled_sql, plan->n_placeholders);
    }

  for (guint s = 0; s < plan->styles->len; s++)
    {
      GrammarQaStyleTexts *style = g_ptr_array_index (plan->styles, s);

      style->record_middle = g_strdup_printf ("\",\"template\":\"%s\",\"style\":\"%s\",\"text\":\"",
                                              plan->template_escaped, style->escaped);
      style->escaped_length = strlen (style->escaped);
      style->record_middle_length = strlen (style->record_middle);
      style->patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) pattern_free);
      for (guint t = 0; t < style->texts->len; t++)
        g_ptr_array_add (style->patterns,
                         text_pattern_new (g_ptr_array_index (style->texts, t), plan->sql_template,
                                           plan->n_placeholders));
    }

  if (writer->n_value_texts < plan->n_placeholders)
    {
      writer->value_texts = g_renew (GrammarJsonBuffer, writer->value_texts, plan->n_placeholders);
      memset (writer->value_texts + writer->n_value_texts, 0,
              (plan->n_placeholders - writer->n_value_texts) * sizeof (GrammarJsonBuffer));
      writer->n_value_texts = plan->n_placeholders;
    }
  plan->prepared = TRUE;
}

/* The filled SQL of a group as a JSON string, into writer->sql. */
static void
render_sql (GrammarQaWriter *writer,
            GrammarQaPlan   *plan,
            GrammarQaGroup  *group)
{
  writer->sql.len = 0;
  grammar_json_buffer_append_c (&writer->sql, '"');
  if (plan->sql_pattern != NULL && group_all_texts (group))
    {
      /* A string literal: the pattern has the quotes, the value its quotes doubled. */
      for (guint p = 0; p < plan->n_placeholders; p++)
        {
          const char *text = group_text (group, p);
          GrammarJsonBuffer *literal = &writer->value_texts[p];

          literal->len = 0;
          for (const char *quote = strchr (text, '\''); quote != NULL; quote = strchr (text, '\''))
            {
              grammar_json_buffer_append_content (literal, text, quote - text + 1);
              grammar_json_buffer_append_c (literal, '\'');
              text = quote + 1;
            }
          grammar_json_buffer_append_content (literal, text, strlen (text));
        }
      pattern_render (plan->sql_pattern, writer->value_texts, &writer->sql);
    }
  else
    {
      g_autofree char *sql = grammar_sql_template_fill (plan->sql_template, group_tuple (group));

      grammar_json_buffer_append_content (&writer->sql, sql, strlen (sql));
    }
  grammar_json_buffer_append_c (&writer->sql, '"');
}

/* How each value reads in a text, escaped, into writer->value_texts. */
static void
render_value_texts (GrammarQaWriter *writer,
                    GrammarQaPlan   *plan,
                    GrammarQaGroup  *group)
{
  for (guint p = 0; p < plan->n_placeholders; p++)
    {
      GrammarJsonBuffer *text = &writer->value_texts[p];

      text->len = 0;
      if (group->keys[p].kind == GRAMMAR_QA_CELL_TEXT)
        grammar_json_buffer_append_content (text, group_text (group, p), group->keys[p].text.length);
      else
        {
          g_autoptr (GVariant) value = cell_dup_variant (&group->keys[p], group->texts);
          g_autofree char *string = grammar_value_to_text (value);

          grammar_json_buffer_append_content (text, string, strlen (string));
        }
    }
}

/* Whether a value of the group, as written in a text, holds a quote.
 * grammar_text_template_fill() then chooses other quotes around it than
 * the text has, which a pattern cannot: such groups are filled text by
 * text. */
static gboolean
values_hold_quotes (GrammarQaWriter *writer,
                    guint            n)
{
  for (guint p = 0; p < n; p++)
    {
      const GrammarJsonBuffer *text = &writer->value_texts[p];

      if (text->len > 0 && (memchr (text->data, '\'', text->len) != NULL || memchr (text->data, '"', text->len) != NULL))
        return TRUE;
    }
  return FALSE;
}

/* Whether @pattern, with the group's values, gives what @filled is. */
static gboolean
pattern_matches (GrammarQaWriter   *writer,
                 GrammarQaPattern  *pattern,
                 GrammarJsonBuffer *values,
                 const char        *filled)
{
  GrammarJsonBuffer expected = { 0, };
  gboolean same;

  writer->scratch.len = 0;
  pattern_render (pattern, values, &writer->scratch);
  grammar_json_buffer_append_content (&expected, filled, strlen (filled));
  same = expected.len == writer->scratch.len && memcmp (expected.data, writer->scratch.data, expected.len) == 0;
  grammar_json_buffer_clear (&expected);
  return same;
}

/* Checks the patterns against the templates' own fill functions on the
 * first group, and drops any that disagrees (they are then filled for
 * every record). */
static void
verify_patterns (GrammarQaWriter *writer,
                 GrammarQaPlan   *plan,
                 GrammarQaGroup  *group)
{
  plan->verified = TRUE;
  if (plan->sql_pattern != NULL && group_all_texts (group))
    {
      g_autofree char *sql = grammar_sql_template_fill (plan->sql_template, group_tuple (group));
      GrammarJsonBuffer expected = { 0, };

      grammar_json_buffer_append_string (&expected, sql, strlen (sql));
      if (expected.len != writer->sql.len || memcmp (expected.data, writer->sql.data, expected.len) != 0)
        {
          g_debug ("%s: the filled SQL does not follow its pattern", grammar_sql_template_get_id (plan->sql_template));
          g_clear_pointer (&plan->sql_pattern, pattern_free);
          writer->sql.len = 0;
          grammar_json_buffer_append_buffer (&writer->sql, &expected);
        }
      grammar_json_buffer_clear (&expected);
    }
  for (guint s = 0; s < plan->styles->len; s++)
    {
      GrammarQaStyleTexts *style = g_ptr_array_index (plan->styles, s);

      for (guint t = 0; t < style->texts->len; t++)
        {
          GrammarQaPattern *pattern = g_ptr_array_index (style->patterns, t);
          g_autofree char *text = NULL;

          if (pattern == NULL)
            continue;
          text = grammar_text_template_fill (g_ptr_array_index (style->texts, t), plan->sql_template,
                                             group_tuple (group));
          if (!pattern_matches (writer, pattern, writer->value_texts, text))
            {
              g_debug ("%s: a filled text does not follow its pattern", grammar_sql_template_get_id (plan->sql_template));
              g_ptr_array_index (style->patterns, t) = NULL;
              pattern_free (pattern);
            }
        }
    }
}

/* Chooses which text templates of @style a group keeps: all of them, or
 * per-group of them at random, in their original order. */
static void
choose_texts (GrammarQaWriter     *writer,
              const guint8        *digest,
              GrammarQaStyleTexts *style)
{
  guint n_texts = style->texts->len;
  guint per_group = writer->per_group;
  guint64 state;

  g_array_set_size (writer->chosen, n_texts);
  for (guint i = 0; i < n_texts; i++)
    g_array_index (writer->chosen, guint, i) = i;
  if (per_group == 0 || per_group >= n_texts)
    return;

  memcpy (&state, digest, sizeof state);
  state ^= grammar_hash_fnv1a64 (style->name) ^ writer->seed;
  for (guint i = 0; i < per_group; i++)
    {
      guint j = i + (guint) (grammar_hash_splitmix64_next (&state) % (n_texts - i));
      guint swap = g_array_index (writer->chosen, guint, i);

      g_array_index (writer->chosen, guint, i) = g_array_index (writer->chosen, guint, j);
      g_array_index (writer->chosen, guint, j) = swap;
    }
  g_array_set_size (writer->chosen, per_group);
  g_array_sort (writer->chosen, grammar_qa_compare_uint);
}

static void
write_record (GrammarQaWriter     *writer,
              GrammarQaPlan       *plan,
              GrammarQaGroup      *values,
              const char          *group,
              GrammarQaStyleTexts *style,
              guint                index,
              gboolean             quotes)
{
  GrammarQaPattern *pattern = quotes ? NULL : g_ptr_array_index (style->patterns, index);
  GrammarJsonBuffer *out = &writer->out;

  grammar_json_buffer_append_literal (out, "{\"id\":\"");
  grammar_json_buffer_append (out, group, 13);
  grammar_json_buffer_append_c (out, '-');
  grammar_json_buffer_append (out, style->escaped, style->escaped_length);
  grammar_json_buffer_append_c (out, '-');
  grammar_json_buffer_append_int (out, index);
  grammar_json_buffer_append_literal (out, "\",\"group\":\"");
  grammar_json_buffer_append (out, group, 13);
  grammar_json_buffer_append (out, style->record_middle, style->record_middle_length);
  if (pattern != NULL)
    pattern_render (pattern, writer->value_texts, out);
  else
    {
      g_autofree char *text = grammar_text_template_fill (g_ptr_array_index (style->texts, index),
                                                          plan->sql_template, group_tuple (values));

      grammar_json_buffer_append_content (out, text, strlen (text));
    }
  grammar_json_buffer_append_buffer (out, &writer->record_end);
}

/* The answer of a group as JSON, into writer->answer. */
static void
render_answer (GrammarQaWriter     *writer,
               const GrammarQaCell *cells,
               const char          *texts,
               guint                n_rows,
               guint                width)
{
  GrammarJsonBuffer *answer = &writer->answer;

  answer->len = 0;
  grammar_json_buffer_append_c (answer, '[');
  for (guint r = 0; r < n_rows; r++)
    {
      if (r > 0)
        grammar_json_buffer_append_c (answer, ',');
      grammar_json_buffer_append_c (answer, '[');
      for (guint c = 0; c < width; c++)
        {
          if (c > 0)
            grammar_json_buffer_append_c (answer, ',');
          append_json_cell (answer, &cells[(gsize) r * width + c], texts);
        }
      grammar_json_buffer_append_c (answer, ']');
    }
  grammar_json_buffer_append_c (answer, ']');
}

/* Writes the records of one group: the filled query @keys, with the
 * answer in writer->answer. */
static void
write_group (GrammarQaWriter     *writer,
             GrammarQaPlan       *plan,
             const GrammarQaCell *keys,
             const char          *texts,
             const char          *doc_ids,
             gsize                doc_ids_length)
{
  GrammarQaGroup values_group = { keys, texts, plan->n_placeholders, NULL };
  guint8 digest[32];
  gsize digest_length = sizeof digest;
  char group[14];
  gboolean quotes;

  if (!plan->prepared)
    prepare_plan (writer, plan);

  writer->bindings.len = 0;
  grammar_json_buffer_append_c (&writer->bindings, '{');
  for (guint p = 0; p < plan->n_placeholders; p++)
    {
      const char *key = g_ptr_array_index (plan->binding_keys, p);

      if (p > 0)
        grammar_json_buffer_append_c (&writer->bindings, ',');
      grammar_json_buffer_append (&writer->bindings, key, strlen (key));
      grammar_json_buffer_append_c (&writer->bindings, ':');
      append_json_cell (&writer->bindings, &keys[p], texts);
    }
  grammar_json_buffer_append_c (&writer->bindings, '}');

  g_checksum_reset (writer->checksum);
  g_checksum_update (writer->checksum, (const guchar *) plan->hash_prefix, -1);
  g_checksum_update (writer->checksum, (const guchar *) writer->bindings.data, writer->bindings.len);
  g_checksum_get_digest (writer->checksum, digest, &digest_length);
  group[0] = 'g';
  for (guint i = 0; i < 6; i++)
    {
      group[1 + 2 * i] = "0123456789abcdef"[digest[i] >> 4];
      group[2 + 2 * i] = "0123456789abcdef"[digest[i] & 0xf];
    }
  group[13] = '\0';

  /* render_sql() uses value_texts for the SQL literals, before they
   * take the texts of the values. */
  render_sql (writer, plan, &values_group);
  render_value_texts (writer, plan, &values_group);
  quotes = values_hold_quotes (writer, plan->n_placeholders);
  if (!plan->verified && !quotes)
    verify_patterns (writer, plan, &values_group);

  writer->record_end.len = 0;
  grammar_json_buffer_append_literal (&writer->record_end, "\",\"sql\":");
  grammar_json_buffer_append_buffer (&writer->record_end, &writer->sql);
  grammar_json_buffer_append_literal (&writer->record_end, ",\"bindings\":");
  grammar_json_buffer_append_buffer (&writer->record_end, &writer->bindings);
  grammar_json_buffer_append_literal (&writer->record_end, ",\"answer\":");
  grammar_json_buffer_append_buffer (&writer->record_end, &writer->answer);
  grammar_json_buffer_append_literal (&writer->record_end, ",\"doc_ids\":");
  if (doc_ids != NULL)
    grammar_json_buffer_append (&writer->record_end, doc_ids, doc_ids_length);
  else
    grammar_json_buffer_append_literal (&writer->record_end, "[]");
  grammar_json_buffer_append_literal (&writer->record_end, "}\n");
  for (guint s = 0; s < plan->styles->len; s++)
    {
      GrammarQaStyleTexts *style = g_ptr_array_index (plan->styles, s);

      choose_texts (writer, digest, style);
      for (guint i = 0; i < writer->chosen->len; i++)
        write_record (writer, plan, &values_group, group, style, g_array_index (writer->chosen, guint, i), quotes);
    }
  g_clear_pointer (&values_group.tuple, g_variant_unref);
}

void
grammar_qa_write_batch (GrammarQaWriter *writer,
                        GrammarQaBatch  *batch)
{
  guint n = batch->plan->n_placeholders;
  const GrammarQaCell *cells = (const GrammarQaCell *) (gpointer) batch->cells->data;

  if (g_atomic_int_get (&writer->failed))
    return;
  if (batch->plan != writer->plan)
    {
      writer->plan = batch->plan;
      writer->plan_start = writer->flushed + writer->out.len;
    }
  for (guint g = 0; g < batch->rows->len; g++)
    {
      guint n_rows = g_array_index (batch->rows, guint, g);
      const GrammarQaDocSpan *span = g < batch->doc_spans->len ?
                                     &g_array_index (batch->doc_spans, GrammarQaDocSpan, g) : NULL;

      render_answer (writer, cells + n, batch->texts.data, n_rows, batch->width);
      write_group (writer, batch->plan, cells, batch->texts.data,
                   span != NULL ? batch->doc_ids.data + span->offset : NULL, span != NULL ? span->length : 0);
      cells += n + (gsize) n_rows * batch->width;
      if (writer->out.len >= GRAMMAR_QA_FLUSH_SIZE && !grammar_qa_writer_flush (writer))
        return;
    }
}

/* Takes the records of @plan out of the output again, when the writer
 * is idle. They are usually still in the buffer (a template's records
 * are flushed every FLUSH_SIZE bytes); when some were written, the
 * output is cut back, which needs a stream that can be truncated (a
 * file, a memory stream), not a pipe. */
gboolean
grammar_qa_writer_forget_plan (GrammarQaWriter  *writer,
                               GrammarQaPlan    *plan,
                               GError          **error)
{
  GSeekable *seekable = G_IS_SEEKABLE (writer->output) ? G_SEEKABLE (writer->output) : NULL;

  if (writer->plan != plan)
    return TRUE;
  writer->plan = NULL;
  if (writer->plan_start >= writer->flushed)
    {
      writer->out.len = writer->plan_start - writer->flushed;
      return TRUE;
    }
  writer->out.len = 0;
  if (seekable == NULL || !g_seekable_can_truncate (seekable))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                   "template %s cannot be left out: its first records are written to an output "
                   "that cannot be cut back (a pipe?)",
                   grammar_sql_template_get_id (plan->sql_template));
      return FALSE;
    }
  /* The dataset file is opened for appending: the next records go to
   * the new end whatever the position. */
  if (!g_seekable_truncate (seekable, writer->plan_start, writer->cancellable, error))
    return FALSE;
  if (g_seekable_can_seek (seekable) &&
      !g_seekable_seek (seekable, writer->plan_start, G_SEEK_SET, writer->cancellable, error))
    return FALSE;
  writer->flushed = writer->plan_start;
  return TRUE;
}

int
grammar_qa_compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}
