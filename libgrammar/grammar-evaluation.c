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
#include "grammar-json-private.h"
#include "grammar-stats-private.h"

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
struct _GrammarEvaluation
{
  GObject parent_instance;

  char *source;
  GPtrArray *records;      /* GrammarRecord */
  GPtrArray *groups;       /* GrammarEvaluationGroup, sorted by id */
  GHashTable *group_index; /* id → GrammarEvaluationGroup (in groups) */
  GrammarEvaluationTally tally;
};

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
group_free (gpointer data)
{
  GrammarEvaluationGroup *group = data;

  g_free (group->id);
  g_ptr_array_unref (group->records);
  g_free (group);
}

static void
grammar_evaluation_finalize (GObject *object)
{
  GrammarEvaluation *self = GRAMMAR_EVALUATION (object);

  g_free (self->source);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->group_index, g_hash_table_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);

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
}

/* Definitions */

GrammarVerdictKind
grammar_evaluation_answer_verdict (GrammarRecord *record)
{
  GrammarVerdict *verdict = grammar_record_get_verdict (record);

  return verdict != NULL ? grammar_verdict_get_kind (verdict) : GRAMMAR_VERDICT_UNMEASURED;
}

/* A correct answer implies that the context was sufficient, whatever the
 * retrieval judge said. */
GrammarVerdictKind
grammar_evaluation_retrieval_verdict (GrammarRecord *record)
{
  if (grammar_evaluation_answer_verdict (record) == GRAMMAR_VERDICT_CORRECT)
    return GRAMMAR_VERDICT_CORRECT;
  return grammar_record_get_retrieval_verdict (record);
}

static const char *
record_attribution (GrammarRecord *record)
{
  switch (grammar_evaluation_retrieval_verdict (record))
    {
    case GRAMMAR_VERDICT_CORRECT:
      return "language-model";
    case GRAMMAR_VERDICT_INCORRECT:
      return "retrieval";
    case GRAMMAR_VERDICT_UNMEASURED:
    default:
      return "unknown";
    }
}

/* A gap group's knowledge is missing in the language model when some
 * record had a sufficient context; in the retrieval when none had. */
static const char *
group_attribution (const GrammarEvaluationGroup *group)
{
  if (group->retrieval_correct > 0)
    return "language-model";
  if (group->retrieval_measured > 0)
    return "retrieval";
  return "unknown";
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

static void
group_add (GrammarEvaluationGroup *group,
           GrammarRecord          *record)
{
  GrammarVerdictKind answer = grammar_evaluation_answer_verdict (record);
  GrammarVerdictKind retrieval = grammar_evaluation_retrieval_verdict (record);

  g_ptr_array_add (group->records, g_object_ref (record));
  group->measured += answer != GRAMMAR_VERDICT_UNMEASURED;
  group->correct += answer == GRAMMAR_VERDICT_CORRECT;
  group->retrieval_measured += retrieval != GRAMMAR_VERDICT_UNMEASURED;
  group->retrieval_correct += retrieval == GRAMMAR_VERDICT_CORRECT;
}

static void
group_tag (GrammarEvaluationGroup *group)
{
  if (group->measured == 0)
    group->tag = GRAMMAR_GROUP_UNMEASURED;
  else if (group->correct == 0)
    group->tag = GRAMMAR_GROUP_GAP;
  else if (group->correct == group->measured)
    group->tag = GRAMMAR_GROUP_ROBUST;
  else
    group->tag = GRAMMAR_GROUP_NON_ROBUST;
}

/* The groups of @records (which all have a group), tagged and sorted. */
static GPtrArray *
build_groups (GPtrArray   *records,
              GHashTable **index_out)
{
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func (group_free);

  for (guint i = 0; i < records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (records, i);
      const char *id = grammar_record_get_group (record);
      GrammarEvaluationGroup *group = g_hash_table_lookup (index, id);

      if (group == NULL)
        {
          group = g_new0 (GrammarEvaluationGroup, 1);
          group->id = g_strdup (id);
          group->records = g_ptr_array_new_with_free_func (g_object_unref);
          g_ptr_array_add (groups, group);
          g_hash_table_insert (index, group->id, group);
        }
      group_add (group, record);
    }
  for (guint i = 0; i < groups->len; i++)
    group_tag (g_ptr_array_index (groups, i));
  g_ptr_array_sort (groups, compare_groups);

  if (index_out != NULL)
    *index_out = g_steal_pointer (&index);
  return g_steal_pointer (&groups);
}

void
grammar_evaluation_tally_add (GrammarEvaluationTally       *tally,
                              const GrammarEvaluationGroup *group)
{
  guint64 n = group->records->len;

  tally->instances += n;
  tally->measured += group->measured;
  tally->correct += group->correct;
  tally->groups[group->tag]++;
  tally->group_instances[group->tag] += n;
  tally->retrieval_measured += group->retrieval_measured;
  tally->retrieval_correct += group->retrieval_correct;
  if (group->tag == GRAMMAR_GROUP_ROBUST || group->tag == GRAMMAR_GROUP_NON_ROBUST)
    {
      tally->answered_measured += group->measured;
      tally->answered_correct += group->correct;
      tally->answered_retrieval_measured += group->retrieval_measured;
      tally->answered_retrieval_correct += group->retrieval_correct;
    }
}

static void
tally_groups (GrammarEvaluationTally *tally,
              GPtrArray              *groups)
{
  memset (tally, 0, sizeof *tally);
  for (guint i = 0; i < groups->len; i++)
    grammar_evaluation_tally_add (tally, g_ptr_array_index (groups, i));
}

double
grammar_evaluation_rate (guint64 successes,
                         guint64 n)
{
  return n > 0 ? (double) successes / (double) n : NAN;
}

static double
knowledge_accuracy (const GrammarEvaluationTally *tally)
{
  guint tagged = tally->groups[GRAMMAR_GROUP_GAP] + tally->groups[GRAMMAR_GROUP_ROBUST] +
                 tally->groups[GRAMMAR_GROUP_NON_ROBUST];

  return tagged > 0 ? 1.0 - (double) tally->groups[GRAMMAR_GROUP_GAP] / tagged : NAN;
}

/* Checking the input */

/* Where a record is, for messages: "FILE:LINE" when read from a file,
 * else the record's id. */
typedef struct
{
  const char *path;
  GArray *lines;   /* guint64 per record, or NULL */
  GPtrArray *records;
} Places;

static char *
place (const Places *places,
       guint         i)
{
  GrammarRecord *record = g_ptr_array_index (places->records, i);
  const char *id = grammar_record_get_id (record);

  if (places->lines != NULL)
    return g_strdup_printf ("%s:%" G_GUINT64_FORMAT, places->path,
                            g_array_index (places->lines, guint64, i));
  if (id != NULL && *id != '\0')
    return places->path != NULL ? g_strdup_printf ("%s: record “%s”", places->path, id)
                                : g_strdup_printf ("record “%s”", id);
  return places->path != NULL ? g_strdup_printf ("%s: record %u", places->path, i + 1)
                              : g_strdup_printf ("record %u", i + 1);
}

static gboolean G_GNUC_PRINTF (4, 5)
invalid (GError      **error,
         const Places *places,
         guint         i,
         const char   *format,
         ...)
{
  g_autofree char *where = place (places, i);
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", where, message);
  return FALSE;
}

static gboolean
same_answer (JsonNode *a,
             JsonNode *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return json_node_equal (a, b);
}

/* The records of one group come from one filled SQL query: the same SQL
 * and the same answer. A difference means two datasets were mixed (their
 * group ids mean different queries), and every group metric would be
 * wrong. */
static gboolean
check_group (GrammarRecord  *record,
             GrammarRecord  *first,
             const Places   *places,
             guint           i,
             guint           first_i,
             GError        **error)
{
  const char *what = NULL;
  g_autofree char *first_place = NULL;

  if (g_strcmp0 (grammar_record_get_sql (record), grammar_record_get_sql (first)) != 0)
    what = "sql";
  else if (!same_answer (grammar_record_get_answer (record), grammar_record_get_answer (first)))
    what = "answer";
  if (what == NULL)
    return TRUE;

  if (places->lines != NULL)
    first_place = g_strdup_printf ("line %" G_GUINT64_FORMAT, g_array_index (places->lines, guint64, first_i));
  else
    first_place = g_strdup_printf ("record “%s”", grammar_record_get_id (first));
  return invalid (error, places, i,
                  "group “%s” has another %s than on %s: the input mixes datasets "
                  "(evaluate each dataset on its own, or compare them with --against)",
                  grammar_record_get_group (record), what, first_place);
}

static gboolean
check_records (const Places  *places,
               GError       **error)
{
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) first_of_group = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *records = places->records;

  if (records->len == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s%sno records",
                   places->path != NULL ? places->path : "", places->path != NULL ? ": " : "");
      return FALSE;
    }

  for (guint i = 0; i < records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (records, i);
      const char *id = grammar_record_get_id (record);
      const char *group = grammar_record_get_group (record);
      gpointer first;

      if (id == NULL || *id == '\0')
        return invalid (error, places, i, "missing id: every record needs a non-empty “id”");
      if (group == NULL || *group == '\0')
        return invalid (error, places, i, "missing group: record “%s” has no “group”, so its group cannot be tagged", id);
      if (g_hash_table_lookup_extended (ids, id, NULL, &first))
        {
          g_autofree char *first_place = places->lines != NULL
            ? g_strdup_printf ("line %" G_GUINT64_FORMAT,
                               g_array_index (places->lines, guint64, GPOINTER_TO_UINT (first)))
            : g_strdup_printf ("record %u", GPOINTER_TO_UINT (first) + 1);

          return invalid (error, places, i, "duplicate id “%s” (also on %s)", id, first_place);
        }
      g_hash_table_insert (ids, (gpointer) id, GUINT_TO_POINTER (i));

      if (grammar_record_get_verdict (record) == NULL && grammar_record_get_response (record) == NULL)
        return invalid (error, places, i,
                        "record “%s” has neither a verdict nor a response: not a judged file; "
                        "run grammar judge first", id);

      if (g_hash_table_lookup_extended (first_of_group, group, NULL, &first))
        {
          if (!check_group (record, g_ptr_array_index (records, GPOINTER_TO_UINT (first)),
                            places, i, GPOINTER_TO_UINT (first), error))
            return FALSE;
        }
      else
        g_hash_table_insert (first_of_group, (gpointer) group, GUINT_TO_POINTER (i));
    }
  return TRUE;
}

static GrammarEvaluation *
evaluation_new (GPtrArray   *records,
                GArray      *lines,
                const char  *source,
                GError     **error)
{
  g_autoptr (GrammarEvaluation) self = NULL;
  Places places = { source, lines, records };

  if (!check_records (&places, error))
    return NULL;

  self = g_object_new (GRAMMAR_TYPE_EVALUATION, NULL);
  self->source = g_strdup (source);
  self->records = g_ptr_array_new_full (records->len, g_object_unref);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (self->records, g_object_ref (g_ptr_array_index (records, i)));
  self->groups = build_groups (self->records, &self->group_index);
  tally_groups (&self->tally, self->groups);
  return g_steal_pointer (&self);
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
  g_return_val_if_fail (records != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint i = 0; i < records->len; i++)
    g_return_val_if_fail (GRAMMAR_IS_RECORD (g_ptr_array_index (records, i)), NULL);

  return evaluation_new (records, NULL, source, error);
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

static GrammarRecord *
parse_line (JsonParser  *parser,
            const char  *path,
            guint64      line,
            const char  *text,
            gsize        length,
            GError     **error)
{
  g_autoptr (GError) local_error = NULL;
  GrammarRecord *record;

  if (!g_utf8_validate_len (text, length, NULL))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": not valid UTF-8", path, line);
      return NULL;
    }
  if (!grammar_json_check_depth (path, line, text, length, error))
    return NULL;
  if (!json_parser_load_from_data (parser, text, length, &local_error))
    {
      const char *message = local_error->message;

      /* json-glib says "<data>:1:5: Parse error: …"; the place is ours to give. */
      if (g_str_has_prefix (message, "<data>:"))
        {
          for (guint colons = 0; *message != '\0' && colons < 3; message++)
            colons += *message == ':';
          while (g_ascii_isspace (*message))
            message++;
        }
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": not JSON: %s", path, line, message);
      return NULL;
    }
  /* A line that is only a comment (json-glib skips C comments) or a
   * byte-order mark parses as no document: root NULL. */
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": a record must be a JSON object", path, line);
      return NULL;
    }
  record = grammar_record_new_from_json (json_parser_get_root (parser), &local_error);
  if (record == NULL)
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "%s:%" G_GUINT64_FORMAT ": %s", path, line, local_error->message);
  return record;
}

static GrammarEvaluation *
load (const char    *path,
      gboolean       slim,
      GCancellable  *cancellable,
      GError       **error)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInputStream) stream = NULL;
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GArray) line_numbers = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GError) local_error = NULL;
  guint64 line = 0;

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

  for (;;)
    {
      g_autofree char *text = NULL;
      GrammarRecord *record;
      gsize length = 0;

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
      if (line_is_blank (text))
        continue;
      record = parse_line (parser, path, line, text, length, error);
      if (record == NULL)
        return NULL;
      if (slim)
        {
          /* A judged record's samples are most of its size (several
           * responses each) and no figure of the report reads them, nor
           * the bindings. */
          grammar_record_set_samples (record, NULL);
          grammar_record_set_bindings (record, NULL);
        }
      g_ptr_array_add (records, record);
      g_array_append_val (line_numbers, line);
    }

  return evaluation_new (records, line_numbers, path, error);
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

  return load (path, FALSE, cancellable, error);
}

/* As grammar_evaluation_load(), for a report: the records keep only what
 * the report's figures and lists read (no `samples`, no `bindings`). */
GrammarEvaluation *
grammar_evaluation_load_for_report (const char    *path,
                                    GCancellable  *cancellable,
                                    GError       **error)
{
  return load (path, TRUE, cancellable, error);
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
  return knowledge_accuracy (&self->tally);
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

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

GStrv
grammar_evaluation_dup_styles (GrammarEvaluation *self)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) styles = g_ptr_array_new ();

  for (guint i = 0; i < self->records->len; i++)
    {
      const char *style = grammar_record_get_style (g_ptr_array_index (self->records, i));

      if (style != NULL && g_hash_table_add (seen, (gpointer) style))
        g_ptr_array_add (styles, g_strdup (style));
    }
  g_ptr_array_sort (styles, compare_keys);
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

#define NO_KEY "(none)"

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

typedef enum
{
  BY_TEMPLATE,
  BY_STYLE,
  BY_TABLE,
} Breakdown;

static void
add_to_key (GHashTable    *by_key,
            const char    *key,
            GrammarRecord *record)
{
  GPtrArray *records = g_hash_table_lookup (by_key, key != NULL ? key : NO_KEY);

  if (records == NULL)
    {
      records = g_ptr_array_new ();
      g_hash_table_insert (by_key, g_strdup (key != NULL ? key : NO_KEY), records);
    }
  g_ptr_array_add (records, record);
}

/* key → the records with that key (unowned) */
static GHashTable *
split (GPtrArray *records,
       Breakdown  breakdown)
{
  GHashTable *by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (records, i);

      if (breakdown == BY_TEMPLATE)
        add_to_key (by_key, grammar_record_get_template (record), record);
      else if (breakdown == BY_STYLE)
        add_to_key (by_key, grammar_record_get_style (record), record);
      else
        {
          g_autoptr (GPtrArray) tables = tables_of (grammar_record_get_sql (record));

          if (tables->len == 0)
            add_to_key (by_key, NULL, record);
          for (guint t = 0; t < tables->len; t++)
            add_to_key (by_key, g_ptr_array_index (tables, t), record);
        }
    }
  return by_key;
}

/* JSON */

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_json (JsonBuilder *builder,
          const char  *name,
          JsonNode    *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_value (builder, json_node_copy (value));
  else
    json_builder_add_null_value (builder);
}

static void
add_interval (JsonBuilder *builder,
              const char  *name,
              guint64      successes,
              guint64      n)
{
  double low = 0.0, high = 0.0;
  gboolean defined = grammar_stats_wilson (successes, n, GRAMMAR_STATS_Z95, &low, &high);

  grammar_json_add_interval (builder, name, defined, low, high);
}

static void
add_tally (JsonBuilder                  *builder,
           const GrammarEvaluationTally *tally)
{
  grammar_json_add_int (builder, "instances", tally->instances);
  grammar_json_add_int (builder, "measured", tally->measured);
  grammar_json_add_int (builder, "unmeasured", tally->instances - tally->measured);
  grammar_json_add_int (builder, "correct", tally->correct);

  json_builder_set_member_name (builder, "groups");
  json_builder_begin_object (builder);
  grammar_json_add_int (builder, "total", tally->groups[GRAMMAR_GROUP_GAP] + tally->groups[GRAMMAR_GROUP_ROBUST] +
                             tally->groups[GRAMMAR_GROUP_NON_ROBUST] + tally->groups[GRAMMAR_GROUP_UNMEASURED]);
  for (guint i = 0; i < GRAMMAR_GROUP_N_TAGS; i++)
    grammar_json_add_int (builder, tag_names[i], tally->groups[i]);
  json_builder_set_member_name (builder, "instances");
  json_builder_begin_object (builder);
  for (guint i = 0; i < GRAMMAR_GROUP_N_TAGS; i++)
    grammar_json_add_int (builder, tag_names[i], tally->group_instances[i]);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  grammar_json_add_number (builder, "accuracy", grammar_evaluation_rate (tally->correct, tally->measured));
  grammar_json_add_number (builder, "robustness", grammar_evaluation_rate (tally->answered_correct, tally->answered_measured));
  grammar_json_add_number (builder, "knowledge_accuracy", knowledge_accuracy (tally));

  json_builder_set_member_name (builder, "retrieval");
  json_builder_begin_object (builder);
  grammar_json_add_number (builder, "accuracy", grammar_evaluation_rate (tally->retrieval_correct, tally->retrieval_measured));
  grammar_json_add_number (builder, "robustness", grammar_evaluation_rate (tally->answered_retrieval_correct,
                                                              tally->answered_retrieval_measured));
  grammar_json_add_int (builder, "measured", tally->retrieval_measured);
  grammar_json_add_int (builder, "unmeasured", tally->instances - tally->retrieval_measured);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "intervals");
  json_builder_begin_object (builder);
  add_interval (builder, "accuracy", tally->correct, tally->measured);
  add_interval (builder, "robustness", tally->answered_correct, tally->answered_measured);
  add_interval (builder, "retrieval_accuracy", tally->retrieval_correct, tally->retrieval_measured);
  add_interval (builder, "retrieval_robustness", tally->answered_retrieval_correct,
                tally->answered_retrieval_measured);
  json_builder_end_object (builder);
}

static void
add_breakdown (JsonBuilder *builder,
               const char  *name,
               GPtrArray   *records,
               Breakdown    breakdown)
{
  g_autoptr (GHashTable) by_key = split (records, breakdown);
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key_data;

  g_hash_table_iter_init (&iter, by_key);
  while (g_hash_table_iter_next (&iter, &key_data, NULL))
    g_ptr_array_add (keys, key_data);
  g_ptr_array_sort (keys, compare_keys);
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      /* A group is tagged from its records with this key: a style's
       * robustness is that of its own wordings. */
      g_autoptr (GPtrArray) groups = build_groups (g_hash_table_lookup (by_key, key), NULL);
      GrammarEvaluationTally tally;

      tally_groups (&tally, groups);
      json_builder_begin_object (builder);
      add_string (builder, "key", key);
      add_tally (builder, &tally);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* The template or style of a group: that of its records when they agree. */
static const char *
common_string (GPtrArray   *records,
               const char *(*get) (GrammarRecord *))
{
  const char *value = get (g_ptr_array_index (records, 0));

  for (guint i = 1; i < records->len; i++)
    if (g_strcmp0 (value, get (g_ptr_array_index (records, i))) != 0)
      return NULL;
  return value;
}

static void
add_gap_group (JsonBuilder                  *builder,
               const GrammarEvaluationGroup *group)
{
  GrammarRecord *first = g_ptr_array_index (group->records, 0);

  json_builder_begin_object (builder);
  add_string (builder, "group", group->id);
  add_string (builder, "template", common_string (group->records, grammar_record_get_template));
  add_string (builder, "style", common_string (group->records, grammar_record_get_style));
  add_string (builder, "sql", grammar_record_get_sql (first));
  add_json (builder, "answer", grammar_record_get_answer (first));
  grammar_json_add_int (builder, "instances", group->records->len);
  json_builder_set_member_name (builder, "texts");
  json_builder_begin_array (builder);
  for (guint i = 0; i < group->records->len; i++)
    {
      const char *text = grammar_record_get_text (g_ptr_array_index (group->records, i));

      if (text != NULL)
        json_builder_add_string_value (builder, text);
      else
        json_builder_add_null_value (builder);
    }
  json_builder_end_array (builder);
  add_string (builder, "attribution", group_attribution (group));
  json_builder_end_object (builder);
}

static void
add_debug_record (JsonBuilder   *builder,
                  GrammarRecord *record)
{
  GrammarVerdict *verdict = grammar_record_get_verdict (record);

  json_builder_begin_object (builder);
  add_string (builder, "id", grammar_record_get_id (record));
  add_string (builder, "group", grammar_record_get_group (record));
  add_string (builder, "template", grammar_record_get_template (record));
  add_string (builder, "style", grammar_record_get_style (record));
  add_string (builder, "text", grammar_record_get_text (record));
  add_json (builder, "answer", grammar_record_get_answer (record));
  add_string (builder, "response", grammar_record_get_response (record));
  add_string (builder, "verdict", grammar_verdict_kind_to_string (grammar_evaluation_answer_verdict (record)));
  add_string (builder, "retrieval", grammar_verdict_kind_to_string (grammar_evaluation_retrieval_verdict (record)));
  add_string (builder, "attribution", record_attribution (record));
  add_string (builder, "reason", verdict != NULL ? grammar_verdict_get_reason (verdict) : NULL);
  json_builder_end_object (builder);
}

static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  GrammarRecord *record_a = *(GrammarRecord * const *) a;
  GrammarRecord *record_b = *(GrammarRecord * const *) b;

  return grammar_evaluation_compare_ids (grammar_record_get_id (record_a), grammar_record_get_id (record_b));
}

/* gap_groups, then debug: the failing records of non-robust groups,
 * where the system knew the answer but missed it in some wordings. */
static void
add_lists (JsonBuilder *builder,
           GPtrArray   *groups,
           guint        max_list)
{
  guint n = 0;

  json_builder_set_member_name (builder, "gap_groups");
  json_builder_begin_array (builder);
  for (guint i = 0; i < groups->len && (max_list == 0 || n < max_list); i++)
    {
      GrammarEvaluationGroup *group = g_ptr_array_index (groups, i);

      if (group->tag == GRAMMAR_GROUP_GAP)
        {
          add_gap_group (builder, group);
          n++;
        }
    }
  json_builder_end_array (builder);

  n = 0;
  json_builder_set_member_name (builder, "debug");
  json_builder_begin_array (builder);
  for (guint i = 0; i < groups->len && (max_list == 0 || n < max_list); i++)
    {
      GrammarEvaluationGroup *group = g_ptr_array_index (groups, i);
      g_autoptr (GPtrArray) records = NULL;

      if (group->tag != GRAMMAR_GROUP_NON_ROBUST)
        continue;
      /* a sorted view: the copy would inherit the unref of group->records */
      records = g_ptr_array_copy (group->records, NULL, NULL);
      g_ptr_array_set_free_func (records, NULL);
      g_ptr_array_sort (records, compare_records);
      for (guint r = 0; r < records->len && (max_list == 0 || n < max_list); r++)
        {
          GrammarRecord *record = g_ptr_array_index (records, r);

          if (grammar_evaluation_answer_verdict (record) != GRAMMAR_VERDICT_CORRECT)
            {
              add_debug_record (builder, record);
              n++;
            }
        }
    }
  json_builder_end_array (builder);
}

/**
 * grammar_evaluation_to_json:
 * @self: a #GrammarEvaluation
 * @max_list: the most entries of `gap_groups` and of `debug`, 0 for all
 *
 * Makes the report (format `grammar-report-1`, described in the
 * evaluation guide): the counts, the metrics and their Wilson 95 %
 * intervals (null when undefined), the breakdowns `by_template`,
 * `by_style` and `by_table`, the gap groups with their attribution and
 * the `debug` list of the incorrect or unmeasured records of non-robust
 * groups. Groups are listed in the order of their ids (numbers in
 * numeric order), records of a group by id.
 *
 * Returns: (transfer full): the report, a JSON object without `comparison`
 */
JsonNode *
grammar_evaluation_to_json (GrammarEvaluation *self,
                            guint              max_list)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_auto (GStrv) styles = NULL;

  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), NULL);

  styles = grammar_evaluation_dup_styles (self);
  json_builder_begin_object (builder);
  add_string (builder, "format", "grammar-report-1");
  add_string (builder, "source", self->source);
  json_builder_set_member_name (builder, "styles");
  json_builder_begin_array (builder);
  for (guint i = 0; styles[i] != NULL; i++)
    json_builder_add_string_value (builder, styles[i]);
  json_builder_end_array (builder);

  add_tally (builder, &self->tally);
  add_breakdown (builder, "by_template", self->records, BY_TEMPLATE);
  add_breakdown (builder, "by_style", self->records, BY_STYLE);
  add_breakdown (builder, "by_table", self->records, BY_TABLE);
  add_lists (builder, self->groups, max_list);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
