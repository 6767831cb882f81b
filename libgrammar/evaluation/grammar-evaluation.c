/* grammar-evaluation.c: group tagging and the robustness metrics of a judged run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "grammar-error.h"
#include "grammar-evaluation.h"
#include "grammar-evaluation-private.h"
#include "grammar-hash-private.h"
#include "grammar-json-private.h"
#include "grammar-jsonl-private.h"

/**
 * GrammarEvaluation:
 *
 * The metrics of one judged run (`judged.jsonl`, one #GrammarRecord a
 * line with its `verdict` and `retrieval`), as GRAMMAR defines them.
 *
 * The records of one `group` (the text queries made from one filled SQL
 * query) ask the same thing in different words. A group is tagged from
 * the measured answer verdicts of its records: `gap` when none is
 * correct (the system lacks the knowledge), `robust` when all are,
 * `non_robust` when some are; a group without a measured record is
 * tagged `unmeasured` and counted in no metric.
 *
 * - accuracy: correct records / measured records;
 * - robustness: correct / measured records of the robust and non-robust
 *   groups, so that knowledge gaps do not hide (or fake) a robustness
 *   problem;
 * - knowledge accuracy: 1 − gap groups / tagged groups;
 * - retrieval accuracy and retrieval robustness: the same two rates for
 *   the effective retrieval verdict, which is correct when the answer is
 *   correct (the context was sufficient) or the retrieval was judged
 *   correct, incorrect when the retrieval was judged incorrect, and
 *   unmeasured otherwise. Retrieval robustness is taken over the groups
 *   tagged by their answers.
 *
 * Incorrect records are attributed to a module: `language-model` when
 * the retrieval was correct, `retrieval` when it was not, `unknown`
 * when it was not measured. grammar_evaluation_to_json() gives all of it,
 * broken down by template, style and table, with Wilson 95 % intervals.
 */
G_DEFINE_FINAL_TYPE (GrammarEvaluation, grammar_evaluation, G_TYPE_OBJECT)

static const char * const tag_names[GRAMMAR_GROUP_N_TAGS] = { "gap", "robust", "non_robust", "unmeasured" };

/* The name of @tag in reports: gap, robust, non_robust or unmeasured. */
const char *
grammar_evaluation_tag_name (GrammarGroupTag tag)
{
  g_return_val_if_fail ((guint) tag < GRAMMAR_GROUP_N_TAGS, NULL);
  return tag_names[tag];
}

static void
template_example_free (gpointer data)
{
  GrammarEvaluationExample *example = data;

  g_free (example->sql);
  g_free (example->example);
  g_free (example);
}

static void
group_free (gpointer data)
{
  GrammarEvaluationGroup *group = data;

  g_clear_pointer (&group->more_keys, g_array_unref);
  g_free (group);
}

static void
grammar_evaluation_finalize (GObject *object)
{
  GrammarEvaluation *self = GRAMMAR_EVALUATION (object);

  g_free (self->source);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->offsets, g_array_unref);
  g_clear_pointer (&self->latencies, g_array_unref);
  g_clear_pointer (&self->next, g_array_unref);
  g_clear_pointer (&self->correct, g_byte_array_unref);
  g_clear_pointer (&self->lines, g_array_unref);
  g_clear_object (&self->reread);
  g_clear_object (&self->parser);
  g_clear_pointer (&self->group_index, g_hash_table_unref);
  g_clear_pointer (&self->templates, g_hash_table_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->styles, g_hash_table_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);

  G_OBJECT_CLASS (grammar_evaluation_parent_class)->finalize (object);
}

static void
grammar_evaluation_class_init (GrammarEvaluationClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_evaluation_finalize;
}

static void
grammar_evaluation_init (GrammarEvaluation *self)
{
  self->records = g_ptr_array_new_with_free_func (g_object_unref);
  self->latencies = g_array_new (FALSE, FALSE, sizeof (double));
  self->strings = g_string_chunk_new (4096);
  self->styles = g_hash_table_new (g_str_hash, g_str_equal);
  self->groups = g_ptr_array_new_with_free_func (group_free);
  self->group_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->templates = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, template_example_free);
  self->next = g_array_new (FALSE, FALSE, sizeof (guint));
  self->correct = g_byte_array_new ();
}

/* Definitions */


GrammarVerdictKind
grammar_evaluation_answer_verdict (GrammarRecord *record)
{
  GrammarVerdict *verdict = grammar_record_get_verdict (record);

  return verdict != NULL ? grammar_verdict_get_kind (verdict) : GRAMMAR_VERDICT_UNMEASURED;
}

/* A correct answer implies that the context was sufficient, whatever the
 * retrieval judge said; but a system that did not report its documents
 * (no `retrieved`) and was given no retrieval verdict has its retrieval
 * unmeasured: it may not have retrieved at all. */
GrammarVerdictKind
grammar_evaluation_retrieval_verdict (GrammarRecord *record)
{
  GrammarVerdictKind judged = grammar_record_get_retrieval_verdict (record);

  if (grammar_evaluation_answer_verdict (record) == GRAMMAR_VERDICT_CORRECT &&
      (grammar_record_get_retrieved (record) != NULL || judged != GRAMMAR_VERDICT_UNMEASURED))
    return GRAMMAR_VERDICT_CORRECT;
  return judged;
}

/*
 * grammar_evaluation_dup_unreported_warning:
 *
 * The warning of a run whose system answered but reported no documents
 * for any record: its retrieval figures and attribution are unmeasured,
 * not zero. %NULL when some record has documents, or none was answered.
 */
char *
grammar_evaluation_dup_unreported_warning (GrammarEvaluation *self)
{
  if (self->answered == 0 || self->reported > 0)
    return NULL;
  return g_strdup_printf ("retrieval is unmeasured: the system reported no documents for any of the %" G_GUINT64_FORMAT
                          " answered records, so hit rate, MRR, recall and the retrieval/language-model attribution "
                          "are unknown, not zero; if the service does return its documents, point "
                          "retrieved-pointer at them (and set reports-documents=true when an empty list means it "
                          "found none)", self->answered);
}

/* Group ids like "q2" and "q10" sort in their numeric order. */
int
grammar_evaluation_compare_ids (const char *a,
                                const char *b)
{
  const char *p = a, *q = b;

  while (*p != '\0' && *q != '\0')
    {
      if (g_ascii_isdigit (*p) && g_ascii_isdigit (*q))
        {
          const char *p_end, *q_end;
          gsize p_length, q_length;
          int order;

          while (*p == '0' && g_ascii_isdigit (p[1]))
            p++;
          while (*q == '0' && g_ascii_isdigit (q[1]))
            q++;
          for (p_end = p; g_ascii_isdigit (*p_end); p_end++)
            ;
          for (q_end = q; g_ascii_isdigit (*q_end); q_end++)
            ;
          p_length = p_end - p;
          q_length = q_end - q;
          if (p_length != q_length)
            return p_length < q_length ? -1 : 1;
          order = strncmp (p, q, p_length);
          if (order != 0)
            return order;
          p = p_end;
          q = q_end;
          continue;
        }
      if (*p != *q)
        return (guchar) *p < (guchar) *q ? -1 : 1;
      p++;
      q++;
    }
  if (*p != *q)
    return *p == '\0' ? -1 : 1;
  return strcmp (a, b);
}

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const GrammarEvaluationGroup *group_a = *(GrammarEvaluationGroup * const *) a;
  const GrammarEvaluationGroup *group_b = *(GrammarEvaluationGroup * const *) b;

  return grammar_evaluation_compare_ids (group_a->id, group_b->id);
}

#define COUNT(counts, answer, retrieval) \
  G_STMT_START { \
    (counts)->instances++; \
    (counts)->measured += (answer) != GRAMMAR_VERDICT_UNMEASURED; \
    (counts)->correct += (answer) == GRAMMAR_VERDICT_CORRECT; \
    (counts)->retrieval_measured += (retrieval) != GRAMMAR_VERDICT_UNMEASURED; \
    (counts)->retrieval_correct += (retrieval) == GRAMMAR_VERDICT_CORRECT; \
  } G_STMT_END

static GrammarGroupTag
tag_of_counts (guint32 measured,
               guint32 correct)
{
  if (measured == 0)
    return GRAMMAR_GROUP_UNMEASURED;
  if (correct == 0)
    return GRAMMAR_GROUP_GAP;
  if (correct == measured)
    return GRAMMAR_GROUP_ROBUST;
  return GRAMMAR_GROUP_NON_ROBUST;
}

/* Adds a group of @tag whose records add up to @group's counts. */
#define TALLY_ADD(tally, group, group_tag) \
  G_STMT_START { \
    GrammarGroupTag tag_ = (group_tag); \
    (tally)->instances += (group)->instances; \
    (tally)->measured += (group)->measured; \
    (tally)->correct += (group)->correct; \
    (tally)->groups[tag_]++; \
    (tally)->group_instances[tag_] += (group)->instances; \
    (tally)->retrieval_measured += (group)->retrieval_measured; \
    (tally)->retrieval_correct += (group)->retrieval_correct; \
    if (tag_ == GRAMMAR_GROUP_ROBUST || tag_ == GRAMMAR_GROUP_NON_ROBUST) \
      { \
        (tally)->answered_measured += (group)->measured; \
        (tally)->answered_correct += (group)->correct; \
        (tally)->answered_retrieval_measured += (group)->retrieval_measured; \
        (tally)->answered_retrieval_correct += (group)->retrieval_correct; \
      } \
  } G_STMT_END

void
grammar_evaluation_tally_add (GrammarEvaluationTally       *tally,
                              const GrammarEvaluationGroup *group)
{
  TALLY_ADD (tally, group, group->tag);
}

double
grammar_evaluation_rate (guint64 successes,
                         guint64 n)
{
  return n > 0 ? (double) successes / (double) n : NAN;
}

double
grammar_evaluation_knowledge_accuracy (const GrammarEvaluationTally *tally)
{
  guint tagged = tally->groups[GRAMMAR_GROUP_GAP] + tally->groups[GRAMMAR_GROUP_ROBUST] +
                 tally->groups[GRAMMAR_GROUP_NON_ROBUST];

  return tagged > 0 ? 1.0 - (double) tally->groups[GRAMMAR_GROUP_GAP] / tagged : NAN;
}

/* Reading the records again */

/* Record @index: the kept one, or read again from where its line starts
 * in the source. */
GrammarRecord *
grammar_evaluation_record_at (GrammarEvaluation  *self,
                              guint               index,
                              GError            **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local_error = NULL;
  GrammarRecord *record;
  gsize length = 0;

  if (index < self->records->len)
    return g_object_ref (g_ptr_array_index (self->records, index));

  if (self->reread == NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (self->source);
      g_autoptr (GFileInputStream) stream = g_file_read (file, NULL, &local_error);

      if (stream == NULL)
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s", self->source, local_error->message);
          return NULL;
        }
      self->reread = g_data_input_stream_new (G_INPUT_STREAM (stream));
      g_data_input_stream_set_newline_type (self->reread, G_DATA_STREAM_NEWLINE_TYPE_LF);
      self->parser = json_parser_new ();
    }
  if (!g_seekable_seek (G_SEEKABLE (self->reread), (goffset) g_array_index (self->offsets, guint64, index),
                        G_SEEK_SET, NULL, &local_error) ||
      (text = g_data_input_stream_read_line (self->reread, &length, NULL, &local_error)) == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: read again for the report: %s", self->source,
                   local_error != NULL ? local_error->message : "the file is shorter than when it was read");
      return NULL;
    }
  /* read once already: valid UTF-8, not too deep, a record */
  record = grammar_json_parser_load (self->parser, text, length, NULL) && json_parser_get_root (self->parser) != NULL
             ? grammar_record_new_from_json (json_parser_get_root (self->parser), NULL)
             : NULL;
  if (record == NULL)
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                 "%s changed while the report was read: run the report again once no one writes it",
                 self->source);
  return record;
}

/* Checking and counting the records */

typedef struct
{
  guint64 hash;
  guint index;
} IdEntry;

/* The records being added: where they come from, for messages, and the
 * hash of every id, for the duplicates found at the end: 16 bytes a
 * record where the ids themselves would take some 60. */
typedef struct
{
  GrammarEvaluation *self;
  const char *path;
  gboolean lines;          /* read from @path: places are PATH:LINE */
  GArray *ids;             /* IdEntry */
} Adding;

/* The hash of @text, 0 for NULL. */
static guint64
hash_text (const char *text,
           gssize      length)
{
  if (text == NULL)
    return 0;
  return grammar_hash_fnv1a64_len (text, length < 0 ? strlen (text) : (gsize) length);
}

/* The answer as the product writes it, hashed: an answer is compared
 * with its group's first by this. */
static guint64
hash_answer (JsonNode *answer)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  if (answer == NULL)
    return 0;
  text = grammar_json_to_data (answer, 0, &length);
  return hash_text (text, length);
}

static char *
place (const Adding  *adding,
       guint          index,
       guint64        line,
       const char    *id)
{
  if (adding->lines)
    return g_strdup_printf ("%s:%" G_GUINT64_FORMAT, adding->path, line);
  if (id != NULL && *id != '\0')
    return adding->path != NULL ? g_strdup_printf ("%s: record “%s”", adding->path, id)
                                : g_strdup_printf ("record “%s”", id);
  return adding->path != NULL ? g_strdup_printf ("%s: record %u", adding->path, index + 1)
                              : g_strdup_printf ("record %u", index + 1);
}

static gboolean G_GNUC_PRINTF (6, 7)
invalid (GError       **error,
         const Adding  *adding,
         guint          index,
         guint64        line,
         const char    *id,
         const char    *format,
         ...)
{
  g_autofree char *where = place (adding, index, line, id);
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", where, message);
  return FALSE;
}

static const char *
intern (GrammarEvaluation *self,
        const char        *text)
{
  return text != NULL ? g_string_chunk_insert_const (self->strings, text) : NULL;
}

/* The tables an SQL query names, one a line, interned; NULL for none. */
static GPtrArray *tables_of (const char *sql);

static const char *
intern_tables (GrammarEvaluation *self,
               const char        *sql)
{
  g_autoptr (GPtrArray) tables = tables_of (sql);
  g_autoptr (GString) joined = g_string_new (NULL);

  if (tables->len == 0)
    return NULL;
  for (guint t = 0; t < tables->len; t++)
    {
      if (t > 0)
        g_string_append_c (joined, '\n');
      g_string_append (joined, g_ptr_array_index (tables, t));
    }
  return intern (self, joined->str);
}

/* The counts of @group's records with @key (interned) in @breakdown. */
static void
count_key (GrammarEvaluationGroup *group,
           guint                   breakdown,
           const char             *key,
           GrammarVerdictKind      answer,
           GrammarVerdictKind      retrieval)
{
  GrammarEvaluationKeyCounts *counts = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (group->keys) && counts == NULL; i++)
    {
      GrammarEvaluationKeyCounts *slot = &group->keys[i];

      if (slot->instances == 0)
        {
          slot->key = key;
          slot->breakdown = breakdown;
        }
      if (slot->key == key && slot->breakdown == breakdown)
        counts = slot;
    }
  for (guint i = 0; group->more_keys != NULL && i < group->more_keys->len && counts == NULL; i++)
    {
      GrammarEvaluationKeyCounts *slot = &g_array_index (group->more_keys, GrammarEvaluationKeyCounts, i);

      if (slot->key == key && slot->breakdown == breakdown)
        counts = slot;
    }
  if (counts == NULL)
    {
      GrammarEvaluationKeyCounts slot = { key, breakdown, 0, };

      if (group->more_keys == NULL)
        group->more_keys = g_array_new (FALSE, FALSE, sizeof (GrammarEvaluationKeyCounts));
      g_array_append_val (group->more_keys, slot);
      counts = &g_array_index (group->more_keys, GrammarEvaluationKeyCounts, group->more_keys->len - 1);
    }
  COUNT (counts, answer, retrieval);
}

/* Checks @record (record @index, on @line) and counts it in its group. */
static gboolean
add_record (Adding         *adding,
            GrammarRecord  *record,
            guint           index,
            guint64         line,
            GError        **error)
{
  GrammarEvaluation *self = adding->self;
  const char *id = grammar_record_get_id (record);
  const char *group_id = grammar_record_get_group (record);
  const char *template_id = intern (self, grammar_record_get_template (record));
  const char *style = intern (self, grammar_record_get_style (record));
  const char *no_key = intern (self, GRAMMAR_EVALUATION_NO_KEY);
  GrammarVerdictKind answer = grammar_evaluation_answer_verdict (record);
  double latency_ms = grammar_record_get_latency_ms (record);
  GrammarVerdictKind retrieval = grammar_evaluation_retrieval_verdict (record);
  GrammarEvaluationGroup *group;
  guint none = G_MAXUINT;
  guint8 is_correct;
  IdEntry entry;

  if (id == NULL || *id == '\0')
    return invalid (error, adding, index, line, id, "missing id: every record needs a non-empty “id”");
  if (group_id == NULL || *group_id == '\0')
    return invalid (error, adding, index, line, id,
                    "missing group: record “%s” has no “group”, so its group cannot be tagged", id);
  entry.hash = hash_text (id, -1);
  entry.index = index;
  g_array_append_val (adding->ids, entry);

  if (grammar_record_get_verdict (record) == NULL && grammar_record_get_response (record) == NULL)
    return invalid (error, adding, index, line, id,
                    "record “%s” has neither a verdict nor a response: not a judged file; "
                    "run grammar judge first", id);

  group = g_hash_table_lookup (self->group_index, group_id);
  if (group == NULL)
    {
      group = g_new0 (GrammarEvaluationGroup, 1);
      group->id = intern (self, group_id);
      group->sql_hash = hash_text (grammar_record_get_sql (record), -1);
      group->answer_hash = hash_answer (grammar_record_get_answer (record));
      group->tables = intern_tables (self, grammar_record_get_sql (record));
      group->first_line = line;
      group->first = group->last = index;
      group->template_id = template_id;
      group->style = style;
      g_ptr_array_add (self->groups, group);
      if (template_id != NULL && !g_hash_table_contains (self->templates, template_id))
        {
          GrammarEvaluationExample *example = g_new0 (GrammarEvaluationExample, 1);

          example->sql = g_strdup (grammar_record_get_sql (record));
          example->example = g_strdup (grammar_record_get_text (record));
          g_hash_table_insert (self->templates, (gpointer) template_id, example);
        }
      g_hash_table_insert (self->group_index, (gpointer) group->id, group);
    }
  else
    {
      /* The records of one group come from one filled SQL query: the
       * same SQL and the same answer. A difference means two datasets
       * were mixed (their group ids mean different queries), and every
       * group metric would be wrong. */
      const char *what = NULL;

      if (hash_text (grammar_record_get_sql (record), -1) != group->sql_hash)
        what = "sql";
      else if (hash_answer (grammar_record_get_answer (record)) != group->answer_hash)
        what = "answer";
      if (what != NULL)
        {
          g_autofree char *first_place = NULL;

          if (adding->lines)
            first_place = g_strdup_printf ("line %" G_GUINT64_FORMAT, group->first_line);
          else
            first_place = g_strdup_printf ("record “%s”",
                                           grammar_record_get_id (g_ptr_array_index (self->records, group->first)));
          return invalid (error, adding, index, line, id,
                          "group “%s” has another %s than on %s: the input mixes datasets "
                          "(evaluate each dataset on its own, or compare them with --against)",
                          group_id, what, first_place);
        }
      /* The template or style of a group: that of its records when they agree. */
      if (group->template_id != template_id)
        group->mixed_template = TRUE;
      if (group->style != style)
        group->mixed_style = TRUE;
      g_array_index (self->next, guint, group->last) = index;
      group->last = index;
    }
  g_array_append_val (self->next, none);
  is_correct = answer == GRAMMAR_VERDICT_CORRECT;
  g_byte_array_append (self->correct, &is_correct, 1);
  if (grammar_record_get_response (record) != NULL)
    {
      self->answered++;
      self->reported += grammar_record_get_retrieved (record) != NULL;
    }
  COUNT (group, answer, retrieval);
  count_key (group, GRAMMAR_EVALUATION_BY_TEMPLATE, template_id != NULL ? template_id : no_key, answer, retrieval);
  count_key (group, GRAMMAR_EVALUATION_BY_STYLE, style != NULL ? style : no_key, answer, retrieval);
  if (style != NULL)
    g_hash_table_add (self->styles, (gpointer) style);
  if (latency_ms >= 0.0)
    g_array_append_val (self->latencies, latency_ms);
  return TRUE;
}

static int
compare_id_entries (gconstpointer a,
                    gconstpointer b)
{
  const IdEntry *x = a, *y = b;

  if (x->hash != y->hash)
    return x->hash < y->hash ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* The line of record @index in the source: one more than the newlines
 * before it (read again, for a message). */
static guint64
line_of (GrammarEvaluation *self,
         guint              index)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInputStream) stream = NULL;
  guint64 offset = g_array_index (self->offsets, guint64, index), line = 1;
  char buffer[65536];

  if (self->lines != NULL)
    return g_array_index (self->lines, guint64, index);
  file = g_file_new_for_path (self->source);
  stream = g_file_read (file, NULL, NULL);

  while (stream != NULL && offset > 0)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, MIN (sizeof buffer, offset), NULL, NULL);

      if (n <= 0)
        break;
      for (gssize i = 0; i < n; i++)
        line += buffer[i] == '\n';
      offset -= n;
    }
  return line;
}

/* The first record (in input order) whose id an earlier record has. */
static gboolean
check_ids (Adding  *adding,
           GError **error)
{
  GArray *ids = adding->ids;
  guint duplicate = G_MAXUINT, original = G_MAXUINT;
  g_autofree char *duplicate_id = NULL;

  g_array_sort (ids, compare_id_entries);
  for (guint i = 0; i + 1 < ids->len; i++)
    {
      const IdEntry *run = &g_array_index (ids, IdEntry, i);
      guint n = 1;

      while (i + n < ids->len && run[n].hash == run[0].hash)
        n++;
      /* the same hash, most likely the same id: compare the ids */
      for (guint later = 1; later < n && run[later].index < duplicate; later++)
        for (guint earlier = 0; earlier < later; earlier++)
          {
            g_autoptr (GrammarRecord) a = grammar_evaluation_record_at (adding->self, run[earlier].index, error);
            g_autoptr (GrammarRecord) b = a != NULL ?
                                          grammar_evaluation_record_at (adding->self, run[later].index, error) : NULL;

            if (b == NULL)
              return FALSE;
            if (g_str_equal (grammar_record_get_id (a), grammar_record_get_id (b)))
              {
                duplicate = run[later].index;
                original = run[earlier].index;
                g_free (duplicate_id);
                duplicate_id = g_strdup (grammar_record_get_id (b));
                break;
              }
          }
      i += n - 1;
    }
  if (duplicate != G_MAXUINT)
    {
      g_autofree char *first_place = NULL;
      guint64 line = 0;

      if (adding->lines && adding->self->offsets != NULL)
        {
          first_place = g_strdup_printf ("line %" G_GUINT64_FORMAT, line_of (adding->self, original));
          line = line_of (adding->self, duplicate);
        }
      else
        first_place = g_strdup_printf ("record %u", original + 1);
      return invalid (error, adding, duplicate, line, duplicate_id, "duplicate id “%s” (also on %s)", duplicate_id,
                      first_place);
    }
  return TRUE;
}

/* Once every record is added: tags, order and the run's counts. */
static gboolean
finish (Adding  *adding,
        GError **error)
{
  GrammarEvaluation *self = adding->self;
  guint64 n = self->next->len;

  if (n == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s%sno records",
                   adding->path != NULL ? adding->path : "", adding->path != NULL ? ": " : "");
      return FALSE;
    }
  if (!check_ids (adding, error))
    return FALSE;
  for (guint i = 0; i < self->groups->len; i++)
    {
      GrammarEvaluationGroup *group = g_ptr_array_index (self->groups, i);

      group->tag = tag_of_counts (group->measured, group->correct);
      grammar_evaluation_tally_add (&self->tally, group);
    }
  g_ptr_array_sort (self->groups, compare_groups);
  return TRUE;
}

/**
 * grammar_evaluation_new:
 * @records: (element-type GrammarRecord): the judged records
 * @source: (nullable): the name of the file they come from, shown in the report
 * @error: return location for a #GError
 *
 * Tags the groups of @records and computes the metrics (see
 * #GrammarEvaluation). The records are referenced, not copied.
 *
 * The input fails with %GRAMMAR_ERROR_INVALID_INPUT, the message naming
 * the record, when there is no record, a record has no `id` or no
 * `group`, an id is used twice, a record has neither a verdict nor a
 * response (a results file that was not judged), or the records of one
 * group have different `sql` or `answer` (two datasets mixed).
 *
 * Returns: (transfer full) (nullable): the evaluation, or %NULL with @error set
 */
GrammarEvaluation *
grammar_evaluation_new (GPtrArray   *records,
                        const char  *source,
                        GError     **error)
{
  g_autoptr (GrammarEvaluation) self = NULL;
  g_autoptr (GArray) ids = NULL;
  Adding adding = { NULL, source, FALSE, NULL };

  g_return_val_if_fail (records != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint i = 0; i < records->len; i++)
    g_return_val_if_fail (GRAMMAR_IS_RECORD (g_ptr_array_index (records, i)), NULL);

  self = g_object_new (GRAMMAR_TYPE_EVALUATION, NULL);
  self->source = g_strdup (source);
  ids = g_array_sized_new (FALSE, FALSE, sizeof (IdEntry), records->len);
  adding.self = self;
  adding.ids = ids;
  for (guint i = 0; i < records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (records, i);

      g_ptr_array_add (self->records, g_object_ref (record));
      if (!add_record (&adding, record, i, 0, error))
        return NULL;
    }
  if (!finish (&adding, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* Reading a judged file */

static gboolean
line_is_blank (const char *text)
{
  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

/* Reads @path once. @each, when given, sees every record as it is read;
 * with @keep FALSE the records are then dropped (only where each line
 * starts is kept, for the lists), so that the memory holds the groups,
 * not the records. */
static GrammarEvaluation *
load (const char                  *path,
      gboolean                     keep,
      GrammarEvaluationRecordFunc  each,
      gpointer                     user_data,
      GCancellable                *cancellable,
      GError                     **error)
{
  g_autoptr (GrammarEvaluation) self = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInputStream) stream = NULL;
  g_autoptr (GDataInputStream) lines = NULL;
  /* not immutable: sealing hashes every node, a tenth of the time */
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (IdEntry));
  g_autoptr (GError) local_error = NULL;
  Adding adding = { NULL, path, TRUE, ids };
  guint64 line = 0, offset = 0;
  gboolean slim = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_file_new_for_path (path);
  stream = g_file_read (file, cancellable, &local_error);
  if (stream == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", path, local_error->message);
      return NULL;
    }
  lines = g_data_input_stream_new (G_INPUT_STREAM (stream));
  g_data_input_stream_set_newline_type (lines, G_DATA_STREAM_NEWLINE_TYPE_LF);
  /* A pipe (`-i <(zcat judged.jsonl.gz)`, /dev/stdin) cannot be read
   * again: its records are kept, as a report kept them all before,
   * without what no figure reads. */
  if (!keep && !g_seekable_can_seek (G_SEEKABLE (stream)))
    {
      keep = TRUE;
      slim = TRUE;
    }

  self = g_object_new (GRAMMAR_TYPE_EVALUATION, NULL);
  self->source = g_strdup (path);
  self->offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (keep)
    self->lines = g_array_new (FALSE, FALSE, sizeof (guint64));
  adding.self = self;

  for (;;)
    {
      g_autofree char *text = NULL;
      g_autoptr (GrammarRecord) record = NULL;
      gsize length = 0;
      guint64 start = offset;
      guint index;

      text = g_data_input_stream_read_line (lines, &length, cancellable, &local_error);
      if (local_error != NULL)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_propagate_error (error, g_steal_pointer (&local_error));
          else
            g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s", path, local_error->message);
          return NULL;
        }
      if (text == NULL)
        break;
      line++;
      offset += length + 1;
      if (line_is_blank (text))
        continue;
      record = grammar_jsonl_parse_record (parser, path, line, text, length, NULL, error);
      if (record == NULL)
        return NULL;
      index = self->offsets->len;
      g_array_append_val (self->offsets, start);
      if (keep)
        {
          if (slim)
            {
              grammar_record_set_samples (record, NULL);
              grammar_record_set_bindings (record, NULL);
            }
          g_ptr_array_add (self->records, g_object_ref (record));
          g_array_append_val (self->lines, line);
        }
      if (!add_record (&adding, record, index, line, error))
        return NULL;
      if (each != NULL)
        each (record, user_data);
    }

  if (!finish (&adding, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * grammar_evaluation_load:
 * @path: (type filename): a judged file, `judged.jsonl`
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads a judged file (one JSON record a line, blank lines skipped) and
 * evaluates it as grammar_evaluation_new() does, with @path as source.
 * Problems fail with %GRAMMAR_ERROR_INVALID_INPUT and a message starting
 * `PATH:LINE:`; an empty file fails with `PATH: no records`.
 *
 * Returns: (transfer full) (nullable): the evaluation, or %NULL with @error set
 */
GrammarEvaluation *
grammar_evaluation_load (const char    *path,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load (path, TRUE, NULL, NULL, cancellable, error);
}

/* As grammar_evaluation_load(), for a report, in one pass that keeps no
 * record: @each (nullable) sees every record as it is read, and the
 * lists read their records again from @path. Its records
 * (grammar_evaluation_get_records()) are none. */
GrammarEvaluation *
grammar_evaluation_load_for_report (const char                  *path,
                                    GrammarEvaluationRecordFunc  each,
                                    gpointer                     user_data,
                                    GCancellable                *cancellable,
                                    GError                     **error)
{
  return load (path, FALSE, each, user_data, cancellable, error);
}

/* Accessors */

/**
 * grammar_evaluation_get_instances:
 * @self: a #GrammarEvaluation
 *
 * Returns: the number of records
 */
guint64
grammar_evaluation_get_instances (GrammarEvaluation *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), 0);
  return self->tally.instances;
}

/**
 * grammar_evaluation_get_unmeasured:
 * @self: a #GrammarEvaluation
 *
 * Returns: the number of records whose answer verdict is unmeasured (or missing)
 */
guint64
grammar_evaluation_get_unmeasured (GrammarEvaluation *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), 0);
  return self->tally.instances - self->tally.measured;
}

/**
 * grammar_evaluation_get_n_groups:
 * @self: a #GrammarEvaluation
 * @tag: (nullable): `gap`, `robust`, `non_robust` or `unmeasured`, or %NULL for all groups
 *
 * Returns: the number of groups with @tag, or of all groups; 0 for an unknown tag
 */
guint
grammar_evaluation_get_n_groups (GrammarEvaluation *self,
                                 const char        *tag)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), 0);

  if (tag == NULL)
    return self->groups->len;
  for (guint i = 0; i < GRAMMAR_GROUP_N_TAGS; i++)
    if (g_str_equal (tag, tag_names[i]))
      return self->tally.groups[i];
  return 0;
}

/**
 * grammar_evaluation_get_accuracy:
 * @self: a #GrammarEvaluation
 *
 * Returns: correct records / measured records, or NAN when no record was measured
 */
double
grammar_evaluation_get_accuracy (GrammarEvaluation *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), NAN);
  return grammar_evaluation_rate (self->tally.correct, self->tally.measured);
}

/**
 * grammar_evaluation_get_robustness:
 * @self: a #GrammarEvaluation
 *
 * Returns: correct / measured records of the robust and non-robust groups, or NAN when there is no such group
 */
double
grammar_evaluation_get_robustness (GrammarEvaluation *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), NAN);
  return grammar_evaluation_rate (self->tally.answered_correct, self->tally.answered_measured);
}

/**
 * grammar_evaluation_get_knowledge_accuracy:
 * @self: a #GrammarEvaluation
 *
 * Returns: 1 − gap groups / (gap + robust + non-robust groups), or NAN when every group is unmeasured
 */
double
grammar_evaluation_get_knowledge_accuracy (GrammarEvaluation *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), NAN);
  return grammar_evaluation_knowledge_accuracy (&self->tally);
}

/**
 * grammar_evaluation_get_retrieval_accuracy:
 * @self: a #GrammarEvaluation
 *
 * The effective retrieval verdict of a record is correct when its
 * answer is correct or its retrieval was judged correct.
 *
 * Returns: effective retrieval correct / measured over all records, or NAN when none was measured
 */
double
grammar_evaluation_get_retrieval_accuracy (GrammarEvaluation *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), NAN);
  return grammar_evaluation_rate (self->tally.retrieval_correct, self->tally.retrieval_measured);
}

/**
 * grammar_evaluation_get_retrieval_robustness:
 * @self: a #GrammarEvaluation
 *
 * Returns: effective retrieval correct / measured over the records of the robust and non-robust groups (tagged by their answers), or NAN when none was measured
 */
double
grammar_evaluation_get_retrieval_robustness (GrammarEvaluation *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), NAN);
  return grammar_evaluation_rate (self->tally.answered_retrieval_correct,
                                  self->tally.answered_retrieval_measured);
}

/**
 * grammar_evaluation_get_records:
 * @self: a #GrammarEvaluation
 *
 * The records an evaluation made by grammar_evaluation_new() or
 * grammar_evaluation_load() holds.
 *
 * Returns: (transfer none) (element-type GrammarRecord): the records, in input order
 */
GPtrArray *
grammar_evaluation_get_records (GrammarEvaluation *self)
{
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), NULL);
  return self->records;
}

const char *
grammar_evaluation_get_source (GrammarEvaluation *self)
{
  return self->source;
}

int
grammar_evaluation_compare_keys (gconstpointer a,
                                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

GStrv
grammar_evaluation_dup_styles (GrammarEvaluation *self)
{
  g_autoptr (GPtrArray) styles = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer style;

  g_hash_table_iter_init (&iter, self->styles);
  while (g_hash_table_iter_next (&iter, &style, NULL))
    g_ptr_array_add (styles, g_strdup (style));
  g_ptr_array_sort (styles, grammar_evaluation_compare_keys);
  g_ptr_array_add (styles, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&styles), FALSE);
}

GPtrArray *
grammar_evaluation_get_groups (GrammarEvaluation *self)
{
  return self->groups;
}


GrammarEvaluationGroup *
grammar_evaluation_lookup_group (GrammarEvaluation *self,
                                 const char        *id)
{
  return g_hash_table_lookup (self->group_index, id);
}

/* Breakdowns */

/* The tables an SQL query names after FROM or JOIN, lower-cased and
 * unquoted; `FROM a, b` names both. */
static GPtrArray *
tables_of (const char *sql)
{
  static gsize initialized;
  static GRegex *keyword, *item;
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);

  /* Compiled once; they live as long as the program, like GLib's own. */
  if (g_once_init_enter (&initialized))
    {
      keyword = g_regex_new ("\\b(?:FROM|JOIN)\\b", G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, NULL);
      item = g_regex_new (
        "\\s*(?:\"((?:[^\"]|\"\")+)\"|`([^`]+)`|\\[([^\\]]+)\\]|"
        "((?:[A-Za-z_][A-Za-z0-9_$]*\\.)?[A-Za-z_][A-Za-z0-9_$]*))"
        "(?:\\s+(?:AS\\s+)?(?!(?:WHERE|JOIN|ON|USING|GROUP|ORDER|LIMIT|LEFT|RIGHT|INNER|OUTER|CROSS|"
        "NATURAL|FULL|UNION|EXCEPT|INTERSECT|HAVING|WINDOW)\\b)[A-Za-z_][A-Za-z0-9_]*)?\\s*(,)?",
        G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&initialized, 1);
    }

  if (sql == NULL)
    return g_steal_pointer (&tables);
  g_regex_match (keyword, sql, 0, &match);
  for (; g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      int start, end;
      gboolean more = TRUE;

      g_match_info_fetch_pos (match, 0, &start, &end);
      while (more)
        {
          g_autoptr (GMatchInfo) item_match = NULL;
          g_autofree char *comma = NULL;
          char *name = NULL;

          if (!g_regex_match_full (item, sql, -1, end, G_REGEX_MATCH_ANCHORED, &item_match, NULL))
            break;
          for (int group = 1; group <= 4 && (name == NULL || *name == '\0'); group++)
            {
              g_free (name);
              name = g_match_info_fetch (item_match, group);
            }
          comma = g_match_info_fetch (item_match, 5);
          more = comma != NULL && *comma == ',';
          g_match_info_fetch_pos (item_match, 0, NULL, &end);
          if (name != NULL && *name != '\0')
            {
              char *lower = g_utf8_strdown (name, -1);

              if (!g_ptr_array_find_with_equal_func (tables, lower, g_str_equal, NULL))
                g_ptr_array_add (tables, lower);
              else
                g_free (lower);
            }
          g_free (name);
        }
    }
  return g_steal_pointer (&tables);
}


static GrammarEvaluationTally *
tally_of_key (GHashTable *tallies,
              const char *key)
{
  GrammarEvaluationTally *tally = g_hash_table_lookup (tallies, key);

  if (tally == NULL)
    g_hash_table_insert (tallies, g_strdup (key), tally = g_new0 (GrammarEvaluationTally, 1));
  return tally;
}

/* key → the tally of its groups, each group tagged from its records with
 * that key: a style's robustness is that of its own wordings. The tables
 * of a group are those of its SQL, which all its records share. */
GHashTable *
grammar_evaluation_tally_by_key (GrammarEvaluation          *self,
                                 GrammarEvaluationBreakdown  breakdown)
{
  GHashTable *tallies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < self->groups->len; i++)
    {
      GrammarEvaluationGroup *group = g_ptr_array_index (self->groups, i);

      if (breakdown == GRAMMAR_EVALUATION_BY_TABLE)
        {
          g_auto (GStrv) tables = g_strsplit (group->tables != NULL ? group->tables : GRAMMAR_EVALUATION_NO_KEY,
                                              "\n", -1);

          for (guint t = 0; tables[t] != NULL; t++)
            grammar_evaluation_tally_add (tally_of_key (tallies, tables[t]), group);
          continue;
        }
      for (guint k = 0; k < G_N_ELEMENTS (group->keys) + (group->more_keys != NULL ? group->more_keys->len : 0); k++)
        {
          const GrammarEvaluationKeyCounts *counts =
            k < G_N_ELEMENTS (group->keys) ? &group->keys[k]
                                           : &g_array_index (group->more_keys, GrammarEvaluationKeyCounts,
                                                             k - G_N_ELEMENTS (group->keys));

          if (counts->instances == 0 || counts->breakdown != breakdown)
            continue;
          TALLY_ADD (tally_of_key (tallies, counts->key), counts, tag_of_counts (counts->measured, counts->correct));
        }
    }
  return tallies;
}
