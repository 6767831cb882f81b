/* grammar-judge-runner.c: the judge stage, a matcher run over results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-json-private.h"
#include "grammar-enums.h"
#include "grammar-config.h"
#include "grammar-error.h"
#include "grammar-judge-runner.h"
#include "grammar-jsonl-private.h"
#include "grammar-record.h"

/**
 * GrammarJudgeRunner:
 *
 * Judges every record of `results.jsonl` (the output of #GrammarRagRunner)
 * and writes `judged.jsonl`: each results line with the members
 *
 * - `verdict` and `judge` `{"matcher", "score", "reason"}`: what the
 *   matcher decided about the response (grammar_record_set_verdict());
 * - `retrieval`: whether the system retrieved what the answer needs
 *   (grammar_record_set_retrieval_verdict()), by the rule of
 *   #GrammarJudgeRunner:retrieval-rule.
 *
 * The retrieval rules:
 *
 * - `all`: correct when every id of the record's `doc_ids` is among the
 *   ids of its `retrieved` documents, incorrect otherwise;
 * - `any`: correct when at least one of them is;
 * - `context` ("context comparison"): a record whose answer is correct
 *   is correct (when it reported its documents); an incorrect record of
 *   a non-robust group (one whose other records have some correct
 *   answers) is correct when it
 *   retrieved the same set of documents as a correct record of its
 *   group, since the language model then failed with a context that was
 *   enough, and incorrect otherwise (unmeasured when a correct record
 *   of the group did not report its documents); the records of a gap
 *   group (no correct answer) have nothing to compare with and are
 *   unmeasured;
 * - `auto`, the default: `all` for a record with `doc_ids`, `context`
 *   for one without.
 *
 * A record without `retrieved` (its system failed, or did not report
 * its documents: an empty `retrieved` is reported, a miss), a record
 * without `doc_ids` under `all` or `any`, and a record whose answer is
 * unmeasured under `context` get an unmeasured retrieval verdict.
 *
 * With #GrammarJudgeRunner:closed-domain, a record with `doc_ids`
 * whose true documents were not retrieved (by the `all` rule, or `any`
 * when that is the retrieval rule) is incorrect without asking the
 * matcher: in a closed domain the language model cannot know the answer
 * otherwise, so a right-looking response is a guess. Its verdict names
 * the matcher `closed-domain`.
 *
 * It is a #GrammarStageRunner: the input check, resume, the limit and
 * the concurrency are its. Since context comparison needs the whole
 * group, the output is written group by group: the input (in the
 * completion order of `grammar rag`, so with its groups interleaved) is
 * counted first, and the records of a group are appended and flushed
 * together once all of them are judged. Up to
 * #GrammarStageRunner:max-concurrency matcher calls are in flight at
 * once. The ids already in the output are skipped, but their verdicts
 * still count for the context comparison of the rest of their group. A
 * record needs `id` and a `response` member (null when the system
 * failed). With #GrammarJudgeRunner:retry-failed, the records of the
 * output whose query had failed (with an `error`) are removed and judged
 * again, from the input, which `grammar rag --retry-failed` may have
 * answered since.
 */

struct _GrammarJudgeRunner
{
  GrammarStageRunner parent_instance;

  GrammarMatcher *matcher;
  gboolean closed_domain;
  GrammarRetrievalRule rule;
  gboolean retry_failed;

  /* The run in progress */
  GHashTable *done;         /* id in the output → Known */
  GHashTable *sizes;        /* group → its number of records in the input, as a pointer to guint64 */
  GHashTable *groups;       /* name → Group, the groups not written yet */
  guint64 n_judged;
  guint64 n_correct;
  guint64 n_incorrect;
  guint64 n_unmeasured;
};

G_DEFINE_FINAL_TYPE (GrammarJudgeRunner, grammar_judge_runner, GRAMMAR_TYPE_STAGE_RUNNER)

enum
{
  PROP_0,
  PROP_MATCHER,
  PROP_CLOSED_DOMAIN,
  PROP_RETRIEVAL,
  PROP_RETRIEVAL_RULE,
  PROP_RETRY_FAILED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char * const required_members[] = { "id", NULL };

static const char *
rule_name (GrammarRetrievalRule rule)
{
  g_autoptr (GEnumClass) klass = g_type_class_ref (GRAMMAR_TYPE_RETRIEVAL_RULE);

  return g_enum_get_value (klass, rule)->value_nick;
}

static gboolean
rule_from_string (const char           *text,
                  GrammarRetrievalRule *rule)
{
  g_autoptr (GEnumClass) klass = g_type_class_ref (GRAMMAR_TYPE_RETRIEVAL_RULE);
  GEnumValue *value = text != NULL ? g_enum_get_value_by_nick (klass, text) : NULL;

  if (value == NULL)
    return FALSE;
  *rule = value->value;
  return TRUE;
}

/* What the output already holds about a record: enough to compare the
 * rest of its group with it. */
typedef struct
{
  GrammarVerdictKind kind;  /* unmeasured when it has no verdict */
  char *retrieved;          /* its retrieved ids as a set (see retrieved_key()), or NULL */
} Known;

static void
known_free (Known *known)
{
  g_free (known->retrieved);
  g_free (known);
}

/* The records of one group read so far. Shared by the run's table of
 * groups and by the matcher calls of its records. */
typedef struct
{
  char *name;          /* NULL for a record without `group`, a group of its own */
  guint64 expected;    /* the records of the group in the input, up to the limit */
  guint64 n_read;
  guint pending;       /* matcher calls not back yet */
  gboolean broken;     /* a verdict is missing: the group is not written */
  GPtrArray *records;  /* GrammarRecord to judge and write, in input order */
  GPtrArray *known;    /* Known, owned by the run's `done` table */
} Group;

static void
group_clear (Group *group)
{
  g_free (group->name);
  g_ptr_array_unref (group->records);
  g_ptr_array_unref (group->known);
}

static Group *
group_new (const char *name,
           guint64     expected)
{
  Group *group = g_rc_box_new0 (Group);

  group->name = g_strdup (name);
  group->expected = expected;
  group->records = g_ptr_array_new_with_free_func (g_object_unref);
  group->known = g_ptr_array_new ();
  return group;
}

static Group *
group_ref (Group *group)
{
  return g_rc_box_acquire (group);
}

static void
group_unref (Group *group)
{
  g_rc_box_release_full (group, (GDestroyNotify) group_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Group, group_unref)

/* Retrieval verdicts */

static gboolean
has_doc_ids (GrammarRecord *record)
{
  const char * const *doc_ids = grammar_record_get_doc_ids (record);

  return doc_ids != NULL && doc_ids[0] != NULL;
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The ids of @hits as a set, one text to compare: sorted, without
 * repeats, as a JSON array. %NULL when nothing was retrieved because
 * the system failed. */
static char *
retrieved_key (GPtrArray *hits)
{
  g_autoptr (GPtrArray) ids = NULL;
  g_autoptr (JsonArray) array = json_array_new ();
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_ARRAY);

  if (hits == NULL)
    return NULL;
  ids = g_ptr_array_new ();
  for (guint i = 0; i < hits->len; i++)
    g_ptr_array_add (ids, (gpointer) grammar_hit_get_document_id (g_ptr_array_index (hits, i)));
  g_ptr_array_sort (ids, compare_ids);
  for (guint i = 0; i < ids->len; i++)
    if (i == 0 || g_strcmp0 (g_ptr_array_index (ids, i - 1), g_ptr_array_index (ids, i)) != 0)
      json_array_add_string_element (array, g_ptr_array_index (ids, i));
  json_node_set_array (node, array);
  return grammar_json_to_data (node, 0, NULL);
}

static gboolean
was_retrieved (GPtrArray  *hits,
               const char *id)
{
  for (guint i = 0; i < hits->len; i++)
    if (g_strcmp0 (grammar_hit_get_document_id (g_ptr_array_index (hits, i)), id) == 0)
      return TRUE;
  return FALSE;
}

/* The ids rules: whether the true documents of @record were retrieved,
 * all of them or (@any) at least one. Unmeasured without true
 * documents or without retrieved ones. @missing gets the true ids not
 * retrieved, separated by ", ". */
static GrammarVerdictKind
ids_verdict (GrammarRecord *record,
             gboolean       any,
             GString       *missing)
{
  const char * const *doc_ids = grammar_record_get_doc_ids (record);
  GPtrArray *hits = grammar_record_get_retrieved (record);
  guint n_found = 0;
  guint n_ids = 0;

  if (!has_doc_ids (record) || hits == NULL)
    return GRAMMAR_VERDICT_UNMEASURED;
  for (; doc_ids[n_ids] != NULL; n_ids++)
    {
      if (was_retrieved (hits, doc_ids[n_ids]))
        n_found++;
      else if (missing != NULL)
        g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "", doc_ids[n_ids]);
    }
  if (any ? n_found > 0 : n_found == n_ids)
    return GRAMMAR_VERDICT_CORRECT;
  return GRAMMAR_VERDICT_INCORRECT;
}

static GrammarVerdictKind
answer_kind (GrammarRecord *record)
{
  GrammarVerdict *verdict = grammar_record_get_verdict (record);

  return verdict != NULL ? grammar_verdict_get_kind (verdict) : GRAMMAR_VERDICT_UNMEASURED;
}

/* What context comparison needs to know about a group: whether any of
 * its answers is correct, and the sets of documents of the correct ones. */
typedef struct
{
  gboolean any_correct;
  gboolean unknown_correct;  /* a correct record did not report its documents */
  GHashTable *correct_sets;  /* retrieved_key() of correct records */
} GroupContext;

static void
note_context (GroupContext       *context,
              GrammarVerdictKind  kind,
              char               *key)
{
  if (kind != GRAMMAR_VERDICT_CORRECT)
    {
      g_free (key);
      return;
    }
  context->any_correct = TRUE;
  if (key != NULL)
    g_hash_table_add (context->correct_sets, key);
  else
    context->unknown_correct = TRUE;
}

static GrammarVerdictKind
context_verdict (GrammarRecord *record,
                 GroupContext  *context)
{
  g_autofree char *key = NULL;

  /* Not reported (or failed): nothing to say about the retrieval, even
   * of a correct answer, which the system may have given without any. */
  if (grammar_record_get_retrieved (record) == NULL)
    return GRAMMAR_VERDICT_UNMEASURED;
  switch (answer_kind (record))
    {
    case GRAMMAR_VERDICT_CORRECT:
      return GRAMMAR_VERDICT_CORRECT;
    case GRAMMAR_VERDICT_UNMEASURED:
      return GRAMMAR_VERDICT_UNMEASURED;
    case GRAMMAR_VERDICT_INCORRECT:
    default:
      break;
    }
  /* A gap group has no correct record to compare with. */
  key = retrieved_key (grammar_record_get_retrieved (record));
  if (!context->any_correct || key == NULL)
    return GRAMMAR_VERDICT_UNMEASURED;
  /* The same documents let another query of the group be answered:
   * the context was enough, the language model failed. Other documents
   * than every correct record's: the retrieval failed, unless a correct
   * record did not say which documents it had. */
  if (g_hash_table_contains (context->correct_sets, key))
    return GRAMMAR_VERDICT_CORRECT;
  return context->unknown_correct ? GRAMMAR_VERDICT_UNMEASURED : GRAMMAR_VERDICT_INCORRECT;
}

static void
set_retrieval_verdicts (Group *group,
                        GrammarRetrievalRule rule)
{
  GroupContext context = { FALSE, FALSE, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };

  for (guint i = 0; i < group->known->len; i++)
    {
      Known *known = g_ptr_array_index (group->known, i);

      note_context (&context, known->kind, g_strdup (known->retrieved));
    }
  for (guint i = 0; i < group->records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (group->records, i);

      note_context (&context, answer_kind (record), retrieved_key (grammar_record_get_retrieved (record)));
    }

  for (guint i = 0; i < group->records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (group->records, i);
      GrammarRetrievalRule record_rule = rule;
      GrammarVerdictKind kind;

      if (record_rule == GRAMMAR_RETRIEVAL_RULE_AUTO)
        record_rule = has_doc_ids (record) ? GRAMMAR_RETRIEVAL_RULE_ALL : GRAMMAR_RETRIEVAL_RULE_CONTEXT;
      if (record_rule == GRAMMAR_RETRIEVAL_RULE_CONTEXT)
        kind = context_verdict (record, &context);
      else
        kind = ids_verdict (record, record_rule == GRAMMAR_RETRIEVAL_RULE_ANY, NULL);
      grammar_record_set_retrieval_verdict (record, kind);
    }
  g_hash_table_unref (context.correct_sets);
}

/* The closed-domain rule: a verdict without the matcher for a record
 * whose true documents were not retrieved, else %NULL. */
static GrammarVerdict *
closed_domain_verdict (GrammarJudgeRunner *self,
                       GrammarRecord *record)
{
  g_autoptr (GString) missing = g_string_new (NULL);
  g_autofree char *reason = NULL;

  if (!self->closed_domain ||
      ids_verdict (record, self->rule == GRAMMAR_RETRIEVAL_RULE_ANY, missing) != GRAMMAR_VERDICT_INCORRECT)
    return NULL;
  reason = g_strdup_printf ("closed domain: the true documents were not retrieved (missing %s)", missing->str);
  return grammar_verdict_new (GRAMMAR_VERDICT_INCORRECT, 0.0, reason, "closed-domain");
}

/* The stage */

static void
grammar_judge_runner_begin (GrammarStageRunner *runner)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (runner);

  g_hash_table_remove_all (self->done);
  g_hash_table_remove_all (self->sizes);
  g_hash_table_remove_all (self->groups);
  self->n_judged = self->n_correct = self->n_incorrect = self->n_unmeasured = 0;
  grammar_stage_runner_warn_caps (runner, "matcher", G_OBJECT (self->matcher));
}

/* A judged record needs an id to be written under, and a `response`
 * member (null when the system failed): without one the input is a
 * dataset, not results. */
static gboolean
grammar_judge_runner_check_record (GrammarStageRunner  *runner,
                                   GrammarRecord       *record,
                                   JsonObject          *object,
                                   const char          *path,
                                   guint64              line,
                                   GError             **error)
{
  if (json_object_has_member (object, "response"))
    return TRUE;
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "%s:%" G_GUINT64_FORMAT ": the record has no “response”; judge the results of "
               "grammar rag, not a dataset", path, line);
  return FALSE;
}

static gboolean
grammar_judge_runner_note_output (GrammarStageRunner  *runner,
                                  JsonObject          *object,
                                  const char          *id,
                                  gboolean            *redo,
                                  GError             **error)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (runner);
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr (GrammarRecord) record = NULL;
  Known *known;

  json_node_set_object (node, object);
  record = grammar_record_new_from_json (node, error);
  if (record == NULL)
    return FALSE;
  if (self->retry_failed && grammar_record_get_error (record) != NULL)
    {
      /* judged again from the input; an earlier line of the id is not
       * what counts any more */
      *redo = TRUE;
      g_hash_table_remove (self->done, id);
      return TRUE;
    }
  known = g_new0 (Known, 1);
  known->kind = answer_kind (record);
  known->retrieved = retrieved_key (grammar_record_get_retrieved (record));
  /* An id written twice: the last line counts. */
  g_hash_table_replace (self->done, g_strdup (id), known);
  return TRUE;
}

/* Counts the records of each group the run reads. */
static void
grammar_judge_runner_note_input (GrammarStageRunner *runner,
                                 GrammarRecord      *record,
                                 gboolean            done)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (runner);
  const char *group = grammar_record_get_group (record);
  guint64 *size;

  if (group == NULL)
    return;
  size = g_hash_table_lookup (self->sizes, group);
  if (size == NULL)
    {
      size = g_new0 (guint64, 1);
      g_hash_table_insert (self->sizes, g_strdup (group), size);
    }
  (*size)++;
}

/* Writes the records of a complete group, all in one write. */
static void
write_group (GrammarJudgeRunner *self,
             Group              *group)
{
  g_autoptr (GString) lines = g_string_new (NULL);

  if (group->records->len == 0)
    return;
  set_retrieval_verdicts (group, self->rule);
  for (guint i = 0; i < group->records->len; i++)
    {
      g_autoptr (JsonNode) node = grammar_record_to_json (g_ptr_array_index (group->records, i));

      grammar_jsonl_append_node (lines, node);
    }
  if (!grammar_stage_runner_append (GRAMMAR_STAGE_RUNNER (self), lines, group->records->len))
    return;
  for (guint i = 0; i < group->records->len; i++)
    {
      switch (answer_kind (g_ptr_array_index (group->records, i)))
        {
        case GRAMMAR_VERDICT_CORRECT:
          self->n_correct++;
          break;
        case GRAMMAR_VERDICT_INCORRECT:
          self->n_incorrect++;
          break;
        case GRAMMAR_VERDICT_UNMEASURED:
        default:
          self->n_unmeasured++;
          break;
        }
    }
  self->n_judged += group->records->len;
}

/* Writes @group once every record of it is read and judged. */
static void
finish_group_if_done (GrammarJudgeRunner *self,
                      Group              *group)
{
  if (group->n_read < group->expected || group->pending > 0 || group->broken)
    return;
  write_group (self, group);
  /* Done with: a group of its own was never in the table. */
  if (group->name != NULL)
    g_hash_table_remove (self->groups, group->name);
}

/* Writes the groups left when the input ended earlier than its check
 * said (the file changed meanwhile): what was judged is kept. */
static void
grammar_judge_runner_end (GrammarStageRunner *runner,
                          gboolean            completed)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (runner);
  g_autoptr (GList) groups = NULL;

  if (completed)
    {
      groups = g_hash_table_get_values (self->groups);
      for (const GList *l = groups; l != NULL; l = l->next)
        {
          Group *group = l->data;

          if (!group->broken && group->pending == 0)
            write_group (self, group);
        }
    }
  g_hash_table_remove_all (self->groups);
}

static void
note_verdict (GrammarJudgeRunner *self,
              GrammarRecord      *record,
              GrammarVerdict     *verdict)
{
  grammar_record_set_verdict (record, verdict);
  grammar_stage_runner_count (GRAMMAR_STAGE_RUNNER (self), FALSE);
}

/* The group @record belongs to, made when its first record is read. */
static Group *
lookup_group (GrammarJudgeRunner *self,
              GrammarRecord      *record)
{
  const char *name = grammar_record_get_group (record);
  const guint64 *size;
  Group *group;

  if (name == NULL)
    return group_new (NULL, 1);
  group = g_hash_table_lookup (self->groups, name);
  if (group != NULL)
    return group_ref (group);
  size = g_hash_table_lookup (self->sizes, name);
  group = group_new (name, size != NULL ? *size : 1);
  g_hash_table_insert (self->groups, group->name, group_ref (group));
  return group;
}

#define GROUP_KEY "grammar-judge-runner-group"

/* Takes one record of the input: one already in the output is only
 * noted for its group, one whose documents were not retrieved in a
 * closed domain is incorrect at once, and the others go to the matcher. */
static gboolean
grammar_judge_runner_take (GrammarStageRunner *runner,
                           GrammarRecord      *record,
                           gboolean            done)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (runner);
  g_autoptr (Group) group = lookup_group (self, record);
  g_autoptr (GrammarVerdict) verdict = NULL;
  Known *known = g_hash_table_lookup (self->done, grammar_record_get_id (record));

  group->n_read++;
  if (known != NULL)
    {
      g_ptr_array_add (group->known, known);
      finish_group_if_done (self, group);
      return FALSE;
    }

  g_ptr_array_add (group->records, g_object_ref (record));
  verdict = closed_domain_verdict (self, record);
  if (verdict != NULL)
    {
      note_verdict (self, record, verdict);
      finish_group_if_done (self, group);
      return FALSE;
    }
  group->pending++;
  g_object_set_data_full (G_OBJECT (record), GROUP_KEY, group_ref (group), (GDestroyNotify) group_unref);
  return TRUE;
}

static void
on_judged (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;
  GrammarVerdict *verdict = grammar_matcher_judge_finish (GRAMMAR_MATCHER (source), result, &error);

  if (verdict != NULL)
    g_task_return_pointer (task, verdict, g_object_unref);
  else
    g_task_return_error (task, error);
}

static void
grammar_judge_runner_process_async (GrammarStageRunner  *runner,
                                    GrammarRecord       *record,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (runner);
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_check_cancellable (task, FALSE);
  grammar_matcher_judge_async (self->matcher, record, cancellable, on_judged, task);
}

static gboolean
grammar_judge_runner_process_finish (GrammarStageRunner  *runner,
                                     GAsyncResult        *result,
                                     GrammarRecord       *record,
                                     GError             **error)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (runner);
  /* the record and its group hold each other until the verdict is back */
  g_autoptr (Group) group = g_object_steal_data (G_OBJECT (record), GROUP_KEY);
  g_autoptr (GrammarVerdict) verdict = NULL;
  g_autoptr (GError) local_error = NULL;

  group->pending--;
  verdict = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (verdict == NULL)
    {
      /* The group misses a verdict: it is judged again on resume. */
      group->broken = TRUE;
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: the matcher failed: %s",
                     grammar_record_get_id (record), local_error->message);
      return FALSE;
    }
  note_verdict (self, record, verdict);
  finish_group_if_done (self, group);
  return TRUE;
}

static char *
grammar_judge_runner_dup_summary (GrammarStageRunner *runner)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (runner);

  return g_strdup_printf ("judged %" G_GUINT64_FORMAT " records: %" G_GUINT64_FORMAT " correct, %" G_GUINT64_FORMAT
                          " incorrect, %" G_GUINT64_FORMAT " unmeasured; %" G_GUINT64_FORMAT
                          " already in the output", self->n_judged, self->n_correct, self->n_incorrect,
                          self->n_unmeasured, grammar_stage_runner_get_n_skipped (runner));
}

/* GObject */

static void
grammar_judge_runner_finalize (GObject *object)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (object);

  g_clear_object (&self->matcher);
  g_hash_table_unref (self->groups);
  g_hash_table_unref (self->done);
  g_hash_table_unref (self->sizes);

  G_OBJECT_CLASS (grammar_judge_runner_parent_class)->finalize (object);
}

static void
grammar_judge_runner_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MATCHER:
      g_value_set_object (value, self->matcher);
      break;
    case PROP_CLOSED_DOMAIN:
      g_value_set_boolean (value, self->closed_domain);
      break;
    case PROP_RETRIEVAL:
      g_value_set_enum (value, self->rule);
      break;
    case PROP_RETRIEVAL_RULE:
      g_value_set_string (value, rule_name (self->rule));
      break;
    case PROP_RETRY_FAILED:
      g_value_set_boolean (value, self->retry_failed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_rule (GrammarJudgeRunner   *self,
          GrammarRetrievalRule  rule)
{
  if (self->rule == rule)
    return;
  self->rule = rule;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRIEVAL]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRIEVAL_RULE]);
}

static void
grammar_judge_runner_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MATCHER:
      grammar_judge_runner_set_matcher (self, g_value_get_object (value));
      break;
    case PROP_CLOSED_DOMAIN:
      grammar_judge_runner_set_closed_domain (self, g_value_get_boolean (value));
      break;
    case PROP_RETRIEVAL:
      set_rule (self, g_value_get_enum (value));
      break;
    case PROP_RETRIEVAL_RULE:
      grammar_judge_runner_set_retrieval_rule (self, g_value_get_string (value));
      break;
    case PROP_RETRY_FAILED:
      grammar_judge_runner_set_retry_failed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_judge_runner_class_init (GrammarJudgeRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GrammarStageRunnerClass *runner_class = GRAMMAR_STAGE_RUNNER_CLASS (klass);

  object_class->finalize = grammar_judge_runner_finalize;
  object_class->get_property = grammar_judge_runner_get_property;
  object_class->set_property = grammar_judge_runner_set_property;
  runner_class->begin = grammar_judge_runner_begin;
  runner_class->check_record = grammar_judge_runner_check_record;
  runner_class->note_output = grammar_judge_runner_note_output;
  runner_class->note_input = grammar_judge_runner_note_input;
  runner_class->take = grammar_judge_runner_take;
  runner_class->process_async = grammar_judge_runner_process_async;
  runner_class->process_finish = grammar_judge_runner_process_finish;
  runner_class->end = grammar_judge_runner_end;
  runner_class->dup_summary = grammar_judge_runner_dup_summary;
  grammar_stage_runner_class_set_required_members (runner_class, required_members);

  /**
   * GrammarJudgeRunner:matcher:
   *
   * The matcher that judges the responses. In a keyfile's `[judge]`
   * section, `matcher=SECTION` names the section it is built from.
   */
  properties[PROP_MATCHER] =
    g_param_spec_object ("matcher", NULL, "The section of the matcher that judges the responses",
                         GRAMMAR_TYPE_MATCHER,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarJudgeRunner:closed-domain:
   *
   * Whether a record whose true documents (`doc_ids`) were not
   * retrieved is incorrect without asking the matcher, as the reference
   * tool does for closed-domain knowledge: the language model cannot
   * know such an answer without its documents. The documents count as
   * retrieved by the `all` rule, or by the `any` rule when that is
   * #GrammarJudgeRunner:retrieval.
   */
  properties[PROP_CLOSED_DOMAIN] =
    g_param_spec_boolean ("closed-domain", NULL,
                          "A record whose true documents were not retrieved is incorrect",
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  grammar_param_spec_set_value_hint (properties[PROP_CLOSED_DOMAIN], "must be true or false");

  /**
   * GrammarJudgeRunner:retrieval:
   *
   * How the retrieval verdict is decided: `all` (every true document
   * retrieved), `any` (at least one), `context` (context comparison
   * inside the record's group) or `auto` (`all` for a record with
   * `doc_ids`, `context` for one without). See #GrammarJudgeRunner.
   * The `retrieval` key of `[judge]`.
   */
  properties[PROP_RETRIEVAL] =
    g_param_spec_enum ("retrieval", NULL, "How the retrieval verdict is decided: all, any, context or auto",
                       GRAMMAR_TYPE_RETRIEVAL_RULE, GRAMMAR_RETRIEVAL_RULE_AUTO,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  grammar_param_spec_set_value_hint (properties[PROP_RETRIEVAL], "must be all, any, context or auto");

  /**
   * GrammarJudgeRunner:retrieval-rule:
   *
   * #GrammarJudgeRunner:retrieval by its name (`all`, `any`, `context`
   * or `auto`).
   */
  properties[PROP_RETRIEVAL_RULE] =
    g_param_spec_string ("retrieval-rule", NULL, "How the retrieval verdict is decided, by name",
                         "auto",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * GrammarJudgeRunner:retry-failed:
   *
   * Whether the records of the output whose query had failed are judged
   * again, from the input (after `grammar rag --retry-failed` answered
   * some of them).
   */
  properties[PROP_RETRY_FAILED] =
    g_param_spec_boolean ("retry-failed", NULL, "Judge again the records whose query had failed in an earlier run",
                          FALSE, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_judge_runner_init (GrammarJudgeRunner *self)
{
  self->rule = GRAMMAR_RETRIEVAL_RULE_AUTO;
  self->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) known_free);
  self->sizes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) group_unref);
}

/**
 * grammar_judge_runner_new:
 * @matcher: the matcher that judges the responses
 *
 * Creates a runner that judges with @matcher.
 *
 * Returns: (transfer full): a new #GrammarJudgeRunner
 */
GrammarJudgeRunner *
grammar_judge_runner_new (GrammarMatcher *matcher)
{
  g_return_val_if_fail (GRAMMAR_IS_MATCHER (matcher), NULL);

  return g_object_new (GRAMMAR_TYPE_JUDGE_RUNNER, "matcher", matcher, NULL);
}

/**
 * grammar_judge_runner_get_matcher:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: (transfer none) (nullable): the matcher that judges the responses
 */
GrammarMatcher *
grammar_judge_runner_get_matcher (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), NULL);
  return self->matcher;
}

/**
 * grammar_judge_runner_set_matcher:
 * @self: a #GrammarJudgeRunner
 * @matcher: the matcher that judges the responses
 *
 * Sets #GrammarJudgeRunner:matcher, between runs.
 */
void
grammar_judge_runner_set_matcher (GrammarJudgeRunner *self,
                                  GrammarMatcher     *matcher)
{
  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));
  g_return_if_fail (matcher == NULL || GRAMMAR_IS_MATCHER (matcher));

  if (g_set_object (&self->matcher, matcher))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATCHER]);
}

/**
 * grammar_judge_runner_get_closed_domain:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: whether a record whose true documents were not retrieved is
 *   incorrect without asking the matcher
 */
gboolean
grammar_judge_runner_get_closed_domain (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), FALSE);
  return self->closed_domain;
}

/**
 * grammar_judge_runner_set_closed_domain:
 * @self: a #GrammarJudgeRunner
 * @closed_domain: whether the domain is closed
 *
 * Sets #GrammarJudgeRunner:closed-domain.
 */
void
grammar_judge_runner_set_closed_domain (GrammarJudgeRunner *self,
                                        gboolean            closed_domain)
{
  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));

  closed_domain = !!closed_domain;
  if (self->closed_domain == closed_domain)
    return;
  self->closed_domain = closed_domain;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOSED_DOMAIN]);
}

/**
 * grammar_judge_runner_get_retrieval_rule:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the name of the retrieval rule: `all`, `any`, `context` or `auto`
 */
const char *
grammar_judge_runner_get_retrieval_rule (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), NULL);
  return rule_name (self->rule);
}

/**
 * grammar_judge_runner_set_retrieval_rule:
 * @self: a #GrammarJudgeRunner
 * @rule: (nullable): `all`, `any`, `context` or `auto`; %NULL for `auto`
 *
 * Sets #GrammarJudgeRunner:retrieval by its name.
 */
void
grammar_judge_runner_set_retrieval_rule (GrammarJudgeRunner *self,
                                         const char         *rule)
{
  GrammarRetrievalRule value = GRAMMAR_RETRIEVAL_RULE_AUTO;

  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));
  g_return_if_fail (rule == NULL || rule_from_string (rule, &value));

  set_rule (self, value);
}

/**
 * grammar_judge_runner_get_n_judged:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records the current or last run judged and wrote
 */
guint64
grammar_judge_runner_get_n_judged (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_judged;
}

/**
 * grammar_judge_runner_get_n_correct:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records written by the current or last run whose verdict is correct
 */
guint64
grammar_judge_runner_get_n_correct (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_correct;
}

/**
 * grammar_judge_runner_get_n_incorrect:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records written by the current or last run whose verdict is incorrect
 */
guint64
grammar_judge_runner_get_n_incorrect (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_incorrect;
}

/**
 * grammar_judge_runner_get_n_unmeasured:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records written by the current or last run whose verdict is unmeasured
 */
guint64
grammar_judge_runner_get_n_unmeasured (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_unmeasured;
}


/**
 * grammar_judge_runner_get_retry_failed:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: whether the records whose query had failed are judged again
 */
gboolean
grammar_judge_runner_get_retry_failed (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), FALSE);
  return self->retry_failed;
}

/**
 * grammar_judge_runner_set_retry_failed:
 * @self: a #GrammarJudgeRunner
 * @retry_failed: whether to judge again the records of the output whose
 *   query had failed
 *
 * Sets #GrammarJudgeRunner:retry-failed.
 */
void
grammar_judge_runner_set_retry_failed (GrammarJudgeRunner *self,
                                       gboolean            retry_failed)
{
  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));

  retry_failed = !!retry_failed;
  if (self->retry_failed == retry_failed)
    return;
  self->retry_failed = retry_failed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRY_FAILED]);
}
