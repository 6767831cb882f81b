/* grammar-qa-reader.c: the reader of a QA run: set-based and per-binding queries cut into groups
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "grammar-qa-run-private.h"
#include "grammar-qa-generator-private.h"
#include "grammar-document.h"
#include "grammar-database.h"
#include "grammar-error.h"
#include "grammar-value.h"
#include "grammar-file-private.h"
#include "grammar-sql-lexer-private.h"
#include "grammar-qa-generator.h"

/* The reader ----------------------------------------------------------- */

static gpointer
writer_thread (gpointer data)
{
  GrammarQaRun *run = data;

  for (;;)
    {
      GrammarQaBatch *batch = g_async_queue_pop (run->full);
      gboolean last = batch->plan == NULL;

      if (!last)
        grammar_qa_write_batch (&run->writer, batch);
      grammar_qa_batch_reset (batch);
      g_async_queue_push (run->empty, batch);
      if (last)
        break;
    }
  grammar_qa_writer_flush (&run->writer);
  return NULL;
}

void
grammar_qa_run_init (GrammarQaRun       *run,
                     GrammarQaGenerator *self,
                     GOutputStream      *output,
                     GCancellable       *cancellable)
{
  memset (run, 0, sizeof *run);
  run->self = self;
  run->cancellable = cancellable;
  run->writer.self = self;
  run->writer.output = output;
  run->writer.cancellable = cancellable;
  run->writer.per_group = self->per_group;
  run->writer.seed = self->seed;
  run->writer.chosen = g_array_new (FALSE, FALSE, sizeof (guint));
  run->writer.checksum = g_checksum_new (G_CHECKSUM_MD5);
  run->full = g_async_queue_new ();
  run->empty = g_async_queue_new_full ((GDestroyNotify) grammar_qa_batch_free);
  for (guint i = 0; i < GRAMMAR_QA_N_BATCHES; i++)
    g_async_queue_push (run->empty, grammar_qa_batch_new ());
  run->thread = g_thread_try_new ("grammar-qa-writer", writer_thread, run, NULL);
  if (self->doc_keys == NULL)
    return;
  run->doc_keys = self->doc_keys;
  run->documents = self->documents;
  run->doc_next = (const guint *) (gpointer) self->doc_next->data;
  run->group_docs = g_ptr_array_new ();
  run->seen_rows = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  run->key = g_string_new (NULL);
}

/* Hands the batch being filled to the writer. */
gboolean
grammar_qa_run_send (GrammarQaRun  *run,
                     GError       **error)
{
  GrammarQaBatch *batch = run->batch;

  run->batch = NULL;
  if (batch == NULL)
    return TRUE;
  if (run->thread != NULL)
    g_async_queue_push (run->full, batch);
  else
    {
      grammar_qa_write_batch (&run->writer, batch);
      grammar_qa_batch_reset (batch);
      g_async_queue_push (run->empty, batch);
    }
  /* Once failed is set, the writer's error no longer changes. */
  if (g_atomic_int_get (&run->writer.failed))
    {
      g_propagate_error (error, g_error_copy (run->writer.error));
      return FALSE;
    }
  return TRUE;
}

/* Stops the writer; returns its error, if any. */
gboolean
grammar_qa_run_finish (GrammarQaRun  *run,
                       GError       **error)
{
  GrammarQaBatch *end;

  g_clear_pointer (&run->batch, grammar_qa_batch_free);
  if (run->thread != NULL)
    {
      end = g_async_queue_pop (run->empty);
      grammar_qa_batch_reset (end);
      g_async_queue_push (run->full, end);
      g_thread_join (g_steal_pointer (&run->thread));
    }
  else
    grammar_qa_writer_flush (&run->writer);

  if (run->writer.error != NULL)
    {
      if (error != NULL && *error == NULL)
        g_propagate_error (error, g_steal_pointer (&run->writer.error));
      return FALSE;
    }
  return TRUE;
}

/* Takes the groups of @plan out again: the open batch is dropped, the
 * writer is let finish the batches it has (all of them are back in the
 * empty queue then) and the records it wrote are cut back. */
gboolean
grammar_qa_run_forget_plan (GrammarQaRun   *run,
                            GrammarQaPlan  *plan,
                            GError        **error)
{
  g_autoptr (GPtrArray) idle = g_ptr_array_new ();

  if (run->batch != NULL)
    {
      grammar_qa_batch_reset (run->batch);
      g_async_queue_push (run->empty, g_steal_pointer (&run->batch));
    }
  if (run->thread != NULL)
    {
      for (guint i = 0; i < GRAMMAR_QA_N_BATCHES; i++)
        g_ptr_array_add (idle, g_async_queue_pop (run->empty));
      for (guint i = 0; i < GRAMMAR_QA_N_BATCHES; i++)
        g_async_queue_push (run->empty, g_ptr_array_index (idle, i));
    }
  if (g_atomic_int_get (&run->writer.failed))
    {
      g_propagate_error (error, g_error_copy (run->writer.error));
      return FALSE;
    }
  return grammar_qa_writer_forget_plan (&run->writer, plan, error);
}

void
grammar_qa_run_clear (GrammarQaRun *run)
{
  g_clear_pointer (&run->batch, grammar_qa_batch_free);
  g_async_queue_unref (run->full);
  g_async_queue_unref (run->empty);
  grammar_qa_writer_clear (&run->writer);
  g_clear_pointer (&run->group_docs, g_ptr_array_unref);
  g_clear_pointer (&run->seen_rows, g_hash_table_unref);
  if (run->key != NULL)
    g_string_free (g_steal_pointer (&run->key), TRUE);
}

void
grammar_qa_run_progress (GrammarQaRun *run,
                         gboolean      force)
{
  gint64 now = g_get_monotonic_time ();

  if (!force && now - run->self->last_progress < GRAMMAR_QA_PROGRESS_INTERVAL_US)
    return;
  run->self->last_progress = now;
  g_signal_emit_by_name (run->self, "progress");
}

/* Looks up the documents of the rows the cursor's row read: the key
 * columns of each source start at @first. */
void
grammar_qa_collect_doc_ids (GrammarQaRun  *run,
                            GrammarQaPlan *plan,
                            GrammarCursor *cursor,
                            guint          first)
{
  for (guint s = 0; s < plan->doc_sources->len; s++)
    {
      GrammarQaDocSource *source = g_ptr_array_index (plan->doc_sources, s);
      guint document = 0;
      gboolean complete = TRUE;

      g_string_assign (run->key, source->prefix);
      for (guint k = 0; k < source->n_columns && complete; k++)
        {
          g_autoptr (GVariant) value = grammar_cursor_get_value (cursor, first + source->columns[k]);

          complete = value != NULL;
          if (complete)
            {
              g_string_append (run->key, source->names[k]);
              g_string_append_c (run->key, '=');
              grammar_qa_append_canonical_value (run->key, value);
              g_string_append_c (run->key, '\x1f');
            }
        }
      if (complete)
        document = GPOINTER_TO_UINT (g_hash_table_lookup (run->doc_keys, run->key->str));
      for (; document != 0; document = run->doc_next[document - 1])
        g_ptr_array_add (run->group_docs,
                         (gpointer) grammar_document_get_id (g_ptr_array_index (run->documents, document - 1)));
    }
}

/* Whether the answer row that starts at cell @start is new in its group. */
static gboolean
row_is_new (GrammarQaRun *run,
            guint         start)
{
  GrammarQaBatch *batch = run->batch;
  GByteArray *bytes = g_byte_array_new ();

  for (guint c = start; c < batch->cells->len; c++)
    {
      const GrammarQaCell *cell = &g_array_index (batch->cells, GrammarQaCell, c);
      g_autofree char *other = NULL;

      g_byte_array_append (bytes, (const guint8 *) &cell->kind, sizeof cell->kind);
      if (cell->kind == GRAMMAR_QA_CELL_TEXT)
        g_byte_array_append (bytes, (const guint8 *) batch->texts.data + cell->text.offset, cell->text.length + 1);
      else if (cell->kind == GRAMMAR_QA_CELL_INT)
        g_byte_array_append (bytes, (const guint8 *) &cell->integer, sizeof cell->integer);
      else if (cell->kind == GRAMMAR_QA_CELL_DOUBLE)
        g_byte_array_append (bytes, (const guint8 *) &cell->real, sizeof cell->real);
      else if (cell->kind == GRAMMAR_QA_CELL_OTHER)
        {
          other = g_variant_print (cell->variant, TRUE);
          g_byte_array_append (bytes, (const guint8 *) other, strlen (other) + 1);
        }
    }
  return g_hash_table_add (run->seen_rows, g_byte_array_free_to_bytes (bytes));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The open group's document ids, sorted and unique, as a JSON array. */
static void
add_group_doc_ids (GrammarQaRun   *run,
                   GrammarQaBatch *batch)
{
  GrammarQaDocSpan span = { batch->doc_ids.len, 0 };
  const char *last = NULL;

  g_ptr_array_sort (run->group_docs, compare_strings);
  grammar_json_buffer_append_c (&batch->doc_ids, '[');
  for (guint i = 0; i < run->group_docs->len; i++)
    {
      const char *id = g_ptr_array_index (run->group_docs, i);

      if (last != NULL && strcmp (last, id) == 0)
        continue;
      if (last != NULL)
        grammar_json_buffer_append_c (&batch->doc_ids, ',');
      grammar_json_buffer_append_string (&batch->doc_ids, id, strlen (id));
      last = id;
    }
  grammar_json_buffer_append_c (&batch->doc_ids, ']');
  span.length = batch->doc_ids.len - span.offset;
  g_array_append_val (batch->doc_spans, span);
}

/* Opens a group with its key values (which stay the caller's). */
static void
group_begin (GrammarQaRun   *run,
             GrammarQaPlan  *plan,
             GVariant      **keys,
             guint           width)
{
  GrammarQaBatch *batch = run->batch;

  if (batch == NULL)
    {
      batch = run->batch = g_async_queue_pop (run->empty);
      batch->plan = plan;
      batch->width = width;
    }
  run->group_start = batch->cells->len;
  run->group_texts = batch->texts.len;
  run->group_rows = 0;
  run->group_bytes = 0;
  for (guint p = 0; p < plan->n_placeholders; p++)
    grammar_qa_batch_add_cell (batch, keys[p]);
  if (run->doc_keys != NULL)
    {
      g_ptr_array_set_size (run->group_docs, 0);
      if (plan->dedupe)
        g_hash_table_remove_all (run->seen_rows);
    }
}

/* The bytes of the values of an answer row, as the database gave them:
 * the length of a text, the size of a blob, 8 for a number. */
static guint64
row_bytes (GrammarQaBatch *batch,
           guint           start)
{
  guint64 bytes = 0;

  for (guint c = start; c < batch->cells->len; c++)
    {
      const GrammarQaCell *cell = &g_array_index (batch->cells, GrammarQaCell, c);

      if (cell->kind == GRAMMAR_QA_CELL_TEXT)
        bytes += cell->text.length;
      else if (cell->kind == GRAMMAR_QA_CELL_OTHER)
        bytes += g_variant_get_size (cell->variant);
      else if (cell->kind != GRAMMAR_QA_CELL_NULL)
        bytes += 8;
    }
  return bytes;
}

/* Whether the open group's answer is within max-answer-rows and
 * max-answer-bytes; a template with a larger one is left out. */
static gboolean
check_answer_limits (GrammarQaRun  *run,
                     GError       **error)
{
  GrammarQaGenerator *self = run->self;

  if (self->max_answer_rows > 0 && run->group_rows > self->max_answer_rows)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT,
                   "an answer of more than %u rows exceeds max-answer-rows=%u",
                   self->max_answer_rows, self->max_answer_rows);
      return FALSE;
    }
  if (self->max_answer_bytes > 0 && run->group_bytes > self->max_answer_bytes)
    {
      g_set_error (error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT,
                   "an answer of %u row%s and %" G_GUINT64_FORMAT " bytes of values so far exceeds "
                   "max-answer-bytes=%" G_GUINT64_FORMAT,
                   run->group_rows, run->group_rows == 1 ? "" : "s", run->group_bytes, self->max_answer_bytes);
      return FALSE;
    }
  return TRUE;
}

static gboolean
group_add_row (GrammarQaRun   *run,
               GrammarCursor  *cursor,
               guint           first_column,
               GError        **error)
{
  guint n_columns = first_column + run->batch->width;
  guint row_start = run->batch->cells->len;
  gsize texts_start = run->batch->texts.len;

  for (guint c = first_column; c < n_columns; c++)
    {
      g_autoptr (GVariant) value = grammar_cursor_get_value (cursor, c);

      grammar_qa_batch_add_cell (run->batch, value);
    }
  if (G_UNLIKELY (run->doc_keys != NULL) && run->batch->plan->n_doc_columns > 0)
    {
      grammar_qa_collect_doc_ids (run, run->batch->plan, cursor, n_columns);
      if (run->batch->plan->dedupe && !row_is_new (run, row_start))
        {
          grammar_qa_batch_truncate (run->batch, row_start);
          run->batch->texts.len = texts_start;
          return TRUE;
        }
    }
  run->group_rows++;
  run->group_bytes += row_bytes (run->batch, row_start);
  return check_answer_limits (run, error);
}

/* Closes the open group: dropped when its answer is empty, else kept;
 * a full batch goes to the writer. */
static gboolean
group_end (GrammarQaRun  *run,
           GError       **error)
{
  GrammarQaBatch *batch = run->batch;

  if (run->group_rows == 0)
    {
      grammar_qa_batch_truncate (batch, run->group_start);
      batch->texts.len = run->group_texts;
      run->self->n_skipped++;
      return TRUE;
    }
  g_array_append_val (batch->rows, run->group_rows);
  if (run->doc_keys != NULL)
    add_group_doc_ids (run, batch);
  run->self->n_groups++;
  run->self->n_records += run->records_per_group;
  if ((run->self->n_groups & 1023) == 0)
    grammar_qa_run_progress (run, FALSE);
  if (batch->rows->len >= GRAMMAR_QA_BATCH_GROUPS || batch->cells->len >= GRAMMAR_QA_BATCH_CELLS)
    return grammar_qa_run_send (run, error);
  return TRUE;
}

static gboolean
propagate_cursor_error (GError  *local_error,
                        GError **error)
{
  if (local_error == NULL)
    return TRUE;
  g_propagate_error (error, local_error);
  return FALSE;
}

static void
clear_values (GVariant **values,
              guint      n)
{
  for (guint i = 0; i < n; i++)
    g_clear_pointer (&values[i], g_variant_unref);
}

/* The set-based plan: one query, cut into groups where the keys change. */
gboolean
grammar_qa_run_set_based (GrammarQaRun   *run,
                          GrammarQaPlan  *plan,
                          GError        **error)
{
  guint n_keys = plan->n_placeholders;
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autofree GVariant **keys = g_new0 (GVariant *, n_keys);
  g_autofree GVariant **row = g_new0 (GVariant *, n_keys);
  GError *local_error = NULL;
  guint64 n_groups = run->self->n_groups;
  gboolean open = FALSE;
  gboolean ok = TRUE;
  guint width;

  cursor = grammar_database_query_cursor (run->self->database, plan->set_based_query, NULL,
                                          run->cancellable, error);
  if (cursor == NULL)
    return FALSE;
  width = grammar_cursor_get_n_columns (cursor) - n_keys - plan->n_doc_columns;

  while (ok && grammar_cursor_next (cursor, run->cancellable, &local_error))
    {
      /* an unordered query has a binding a row */
      gboolean same = open && plan->ordered;

      for (guint k = 0; k < n_keys; k++)
        {
          row[k] = grammar_cursor_get_value (cursor, k);
          same = same && row[k] != NULL && grammar_qa_same_key (row[k], keys[k]);
        }
      if (same)
        clear_values (row, n_keys);
      else
        {
          ok = !open || group_end (run, error);
          clear_values (keys, n_keys);
          memcpy (keys, row, n_keys * sizeof *keys);
          memset (row, 0, n_keys * sizeof *row);
          group_begin (run, plan, keys, width);
          open = TRUE;
        }
      ok = ok && group_add_row (run, cursor, n_keys, &local_error);
    }
  clear_values (keys, n_keys);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (!ok || (open && !group_end (run, error)))
    return FALSE;

  /* The skipped combinations are those that never came. */
  n_groups = run->self->n_groups - n_groups;
  if (plan->product != G_MAXUINT64 && plan->product >= n_groups)
    run->self->n_skipped += plan->product - n_groups;
  return TRUE;
}

/* The documents of the rows one binding of a template answered per
 * binding reads, with its second query. */
static void
read_doc_rows (GrammarQaRun   *run,
               GrammarQaPlan  *plan,
               GVariant       *tuple,
               GError        **error)
{
  g_autoptr (GrammarCursor) cursor = NULL;

  cursor = grammar_database_query_cursor (run->self->database, plan->doc_query, tuple, run->cancellable, error);
  if (cursor == NULL)
    return;
  while (grammar_cursor_next (cursor, run->cancellable, error))
    grammar_qa_collect_doc_ids (run, plan, cursor, 0);
}

/* Runs the template for one combination of values. */
static gboolean
run_binding (GrammarQaRun   *run,
             GrammarQaPlan  *plan,
             GVariant      **values,
             GError        **error)
{
  g_autoptr (GVariant) tuple = g_variant_ref_sink (g_variant_new_tuple (values, plan->n_placeholders));
  g_autoptr (GrammarCursor) cursor = NULL;
  GError *local_error = NULL;

  cursor = grammar_database_query_cursor (run->self->database,
                                          grammar_sql_template_get_bound_sql (plan->sql_template),
                                          tuple, run->cancellable, error);
  if (cursor == NULL)
    return FALSE;
  group_begin (run, plan, values, grammar_cursor_get_n_columns (cursor));
  while (grammar_cursor_next (cursor, run->cancellable, &local_error) &&
         group_add_row (run, cursor, 0, &local_error))
    ;
  if (local_error == NULL && run->group_rows > 0 && run->doc_keys != NULL && plan->doc_query != NULL)
    read_doc_rows (run, plan, tuple, &local_error);
  if (local_error != NULL)
    {
      /* dropped as if empty */
      run->group_rows = 0;
      group_end (run, NULL);
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return group_end (run, error);
}

/* The distinct non-NULL values of a placeholder's column, in binary
 * order: the order an ordered set-based plan's keys come in. */
static GrammarCursor *
distinct_values_cursor (GrammarDatabase  *database,
                        GrammarQaPlan    *plan,
                        guint             placeholder,
                        GCancellable     *cancellable,
                        GError          **error)
{
  return grammar_database_query_cursor (database, plan->distinct_queries[placeholder], NULL, cancellable, error);
}

static GPtrArray *
load_distinct_values (GrammarQaRun   *run,
                      GrammarQaPlan  *plan,
                      guint           placeholder,
                      GError        **error)
{
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  g_autoptr (GrammarCursor) cursor = NULL;
  GError *local_error = NULL;

  cursor = distinct_values_cursor (run->self->database, plan, placeholder,
                                   run->cancellable, error);
  if (cursor == NULL)
    return NULL;
  while (grammar_cursor_next (cursor, run->cancellable, &local_error))
    g_ptr_array_add (values, grammar_cursor_get_value (cursor, 0));
  if (!propagate_cursor_error (local_error, error))
    return NULL;
  return g_steal_pointer (&values);
}

static void
clear_value_array (gpointer data)
{
  if (data != NULL)
    g_ptr_array_unref (data);
}

/* The per-binding plan: the first placeholder's values are streamed,
 * the others (whose product is bounded by max-combinations) are held,
 * and every combination runs the template's own statement. */
gboolean
grammar_qa_run_per_binding (GrammarQaRun   *run,
                            GrammarQaPlan  *plan,
                            GError        **error)
{
  guint n = plan->n_placeholders;
  g_autoptr (GPtrArray) inner = g_ptr_array_new_with_free_func (clear_value_array);
  g_autoptr (GrammarCursor) outer = NULL;
  g_autofree GVariant **values = g_new0 (GVariant *, n);
  g_autofree guint *index = g_new0 (guint, n);
  GError *local_error = NULL;

  g_ptr_array_add (inner, NULL);
  for (guint p = 1; p < n; p++)
    {
      GPtrArray *column = load_distinct_values (run, plan, p, error);

      if (column == NULL)
        return FALSE;
      g_ptr_array_add (inner, column);
    }
  outer = distinct_values_cursor (run->self->database, plan, 0, run->cancellable, error);
  if (outer == NULL)
    return FALSE;

  while (grammar_cursor_next (outer, run->cancellable, &local_error))
    {
      g_autoptr (GVariant) first = grammar_cursor_get_value (outer, 0);
      gboolean more = TRUE;

      values[0] = first;
      memset (index, 0, n * sizeof *index);
      while (more)
        {
          guint p;

          for (p = 1; p < n; p++)
            values[p] = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (inner, p), index[p]);
          if (!run_binding (run, plan, values, error))
            return FALSE;
          /* Advance the odometer, last placeholder fastest. */
          for (p = n - 1; p >= 1; p--)
            {
              if (++index[p] < ((GPtrArray *) g_ptr_array_index (inner, p))->len)
                break;
              index[p] = 0;
            }
          more = p >= 1 && n > 1;
        }
    }
  return propagate_cursor_error (local_error, error);
}

/* Whether two key values are one group. SQL equality puts 1 and 1.0 in
 * one group, so the sort may interleave them. */
gboolean
grammar_qa_same_key (GVariant *a,
          GVariant *b)
{
  gboolean a_int = g_variant_is_of_type (a, G_VARIANT_TYPE_INT64);
  gboolean b_int = g_variant_is_of_type (b, G_VARIANT_TYPE_INT64);
  gboolean a_double = g_variant_is_of_type (a, G_VARIANT_TYPE_DOUBLE);
  gboolean b_double = g_variant_is_of_type (b, G_VARIANT_TYPE_DOUBLE);

  if (a_int && b_double)
    return (double) g_variant_get_int64 (a) == g_variant_get_double (b);
  if (a_double && b_int)
    return g_variant_get_double (a) == (double) g_variant_get_int64 (b);
  /* Decimals by their value: 1.50 is 1.5, and 2.00 is 2. */
  if (grammar_value_get_decimal (a) != NULL || grammar_value_get_decimal (b) != NULL)
    {
      g_autoptr (GString) a_key = g_string_new (NULL);
      g_autoptr (GString) b_key = g_string_new (NULL);

      grammar_qa_append_canonical_value (a_key, a);
      grammar_qa_append_canonical_value (b_key, b);
      return g_string_equal (a_key, b_key);
    }
  return g_variant_equal (a, b);
}
