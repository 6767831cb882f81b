/* grammar-evaluation-json.c: GrammarEvaluation as JSON: the figures, their breakdowns and the lists of a report
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-error.h"
#include "grammar-evaluation.h"
#include "grammar-evaluation-private.h"
#include "grammar-json-private.h"
#include "grammar-stats-private.h"

/* Attribution */

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

/* The gap groups by attribution, written only when some is unknown:
 * the share of the groups that no figure can blame on either module. */
static void
add_gap_attribution (JsonBuilder       *builder,
                     GrammarEvaluation *self)
{
  static const char * const modules[] = { "language-model", "retrieval", "unknown" };
  guint64 counts[G_N_ELEMENTS (modules)] = { 0 };

  for (guint i = 0; i < self->groups->len; i++)
    {
      const GrammarEvaluationGroup *group = g_ptr_array_index (self->groups, i);
      const char *module;

      if (group->tag != GRAMMAR_GROUP_GAP)
        continue;
      module = group_attribution (group);
      for (guint m = 0; m < G_N_ELEMENTS (modules); m++)
        counts[m] += g_str_equal (module, modules[m]);
    }
  if (counts[2] == 0)
    return;
  json_builder_set_member_name (builder, "attribution");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "gap_groups");
  json_builder_begin_object (builder);
  for (guint m = 0; m < G_N_ELEMENTS (modules); m++)
    grammar_json_add_int (builder, modules[m], counts[m]);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
}

/* `warnings`, only when there is one: a run whose system reported no
 * documents at all. */
static void
add_warnings (JsonBuilder       *builder,
              GrammarEvaluation *self)
{
  g_autofree char *unreported = grammar_evaluation_dup_unreported_warning (self);

  if (unreported == NULL)
    return;
  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, unreported);
  json_builder_end_array (builder);
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
    grammar_json_add_int (builder, grammar_evaluation_tag_name (i), tally->groups[i]);
  json_builder_set_member_name (builder, "instances");
  json_builder_begin_object (builder);
  for (guint i = 0; i < GRAMMAR_GROUP_N_TAGS; i++)
    grammar_json_add_int (builder, grammar_evaluation_tag_name (i), tally->group_instances[i]);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  grammar_json_add_number (builder, "accuracy", grammar_evaluation_rate (tally->correct, tally->measured));
  grammar_json_add_number (builder, "robustness", grammar_evaluation_rate (tally->answered_correct, tally->answered_measured));
  grammar_json_add_number (builder, "knowledge_accuracy", grammar_evaluation_knowledge_accuracy (tally));

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

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* `system_latency_ms`: how long the system under test took to answer,
 * from the records' `latency_ms` (failed queries too: the time to
 * their error): their count, median, 95th percentile (nearest rank),
 * longest and mean, in milliseconds; the figures are
 * null when no record has one. */
static void
add_latency (JsonBuilder       *builder,
             GrammarEvaluation *self)
{
  g_autoptr (GArray) sorted = g_array_copy (self->latencies);
  guint n = sorted->len;
  double sum = 0.0;

  g_array_sort (sorted, compare_doubles);
  for (guint i = 0; i < n; i++)
    sum += g_array_index (sorted, double, i);
  json_builder_set_member_name (builder, "system_latency_ms");
  json_builder_begin_object (builder);
  grammar_json_add_int (builder, "count", n);
  grammar_json_add_number (builder, "median", n == 0 ? NAN : n % 2 == 1 ? g_array_index (sorted, double, n / 2)
                                             : (g_array_index (sorted, double, n / 2 - 1) +
                                                g_array_index (sorted, double, n / 2)) / 2);
  grammar_json_add_number (builder, "p95",
                           n > 0 ? g_array_index (sorted, double, (guint) MAX (ceil (0.95 * n), 1.0) - 1) : NAN);
  grammar_json_add_number (builder, "max", n > 0 ? g_array_index (sorted, double, n - 1) : NAN);
  grammar_json_add_number (builder, "mean", n > 0 ? sum / n : NAN);
  json_builder_end_object (builder);
}

static void
add_breakdown (JsonBuilder                *builder,
               const char                 *name,
               GrammarEvaluation          *self,
               GrammarEvaluationBreakdown  breakdown)
{
  g_autoptr (GHashTable) tallies = grammar_evaluation_tally_by_key (self, breakdown);
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key_data;

  g_hash_table_iter_init (&iter, tallies);
  while (g_hash_table_iter_next (&iter, &key_data, NULL))
    g_ptr_array_add (keys, key_data);
  g_ptr_array_sort (keys, grammar_evaluation_compare_keys);
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);

      json_builder_begin_object (builder);
      add_string (builder, "key", key);
      add_tally (builder, g_hash_table_lookup (tallies, key));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* template id → {sql, example}: the SQL and the text of the first
 * record of each template, in the order of the ids. */
static void
add_templates (JsonBuilder       *builder,
               GrammarEvaluation *self)
{
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer id;

  g_hash_table_iter_init (&iter, self->templates);
  while (g_hash_table_iter_next (&iter, &id, NULL))
    g_ptr_array_add (ids, id);
  g_ptr_array_sort (ids, grammar_evaluation_compare_keys);
  json_builder_set_member_name (builder, "templates");
  json_builder_begin_object (builder);
  for (guint i = 0; i < ids->len; i++)
    {
      const GrammarEvaluationExample *example = g_hash_table_lookup (self->templates, g_ptr_array_index (ids, i));

      json_builder_set_member_name (builder, g_ptr_array_index (ids, i));
      json_builder_begin_object (builder);
      add_string (builder, "sql", example->sql);
      add_string (builder, "example", example->example);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
}

/* The records of @group whose answer is not correct (the only ones the
 * lists show: every record of a gap group, the failing ones of a
 * non-robust group), in input order, read again when not kept. */
static GPtrArray *
failing_records (GrammarEvaluation            *self,
                 const GrammarEvaluationGroup *group,
                 GError                      **error)
{
  g_autoptr (GPtrArray) records = g_ptr_array_new_full (group->instances - group->correct, g_object_unref);

  for (guint i = group->first; i != G_MAXUINT; i = g_array_index (self->next, guint, i))
    {
      GrammarRecord *record;

      if (self->correct->data[i])
        continue;
      record = grammar_evaluation_record_at (self, i, error);

      if (record == NULL)
        return NULL;
      g_ptr_array_add (records, record);
      if (g_strcmp0 (grammar_record_get_group (record), group->id) != 0)
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                       "%s changed while the report was read: run the report again once no one writes it",
                       self->source);
          return NULL;
        }
    }
  return g_steal_pointer (&records);
}

static JsonNode *
gap_group_json (const GrammarEvaluationGroup *group,
                GPtrArray                    *records)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  GrammarRecord *first = g_ptr_array_index (records, 0);

  json_builder_begin_object (builder);
  add_string (builder, "group", group->id);
  add_string (builder, "template", group->mixed_template ? NULL : group->template_id);
  add_string (builder, "style", group->mixed_style ? NULL : group->style);
  add_string (builder, "sql", grammar_record_get_sql (first));
  add_json (builder, "answer", grammar_record_get_answer (first));
  grammar_json_add_int (builder, "instances", group->instances);
  json_builder_set_member_name (builder, "texts");
  json_builder_begin_array (builder);
  for (guint i = 0; i < records->len; i++)
    {
      const char *text = grammar_record_get_text (g_ptr_array_index (records, i));

      if (text != NULL)
        json_builder_add_string_value (builder, text);
      else
        json_builder_add_null_value (builder);
    }
  json_builder_end_array (builder);
  add_string (builder, "attribution", group_attribution (group));
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static JsonNode *
debug_record_json (GrammarRecord *record)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
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
  return json_builder_get_root (builder);
}

static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  GrammarRecord *record_a = *(GrammarRecord * const *) a;
  GrammarRecord *record_b = *(GrammarRecord * const *) b;

  return grammar_evaluation_compare_ids (grammar_record_get_id (record_a), grammar_record_get_id (record_b));
}

/*
 * grammar_evaluation_foreach_listed:
 *
 * Gives @func the entries of the list @list, one at a time and in order
 * (records that were not kept are read again): `gap_groups`, the gap
 * groups with the texts of their records, or `debug`, the failing
 * records of non-robust groups, where the system knew the answer but
 * missed it in some wordings. At most @max_list entries (0: all).
 */
gboolean
grammar_evaluation_foreach_listed (GrammarEvaluation            *self,
                                   GrammarEvaluationList         list,
                                   guint                         max_list,
                                   GrammarEvaluationEntryFunc    func,
                                   gpointer                      user_data,
                                   GError                      **error)
{
  guint n = 0;

  for (guint i = 0; i < self->groups->len && (max_list == 0 || n < max_list); i++)
    {
      GrammarEvaluationGroup *group = g_ptr_array_index (self->groups, i);
      g_autoptr (GPtrArray) records = NULL;

      if (group->tag != (list == GRAMMAR_EVALUATION_LIST_GAP_GROUPS ? GRAMMAR_GROUP_GAP : GRAMMAR_GROUP_NON_ROBUST))
        continue;
      records = failing_records (self, group, error);
      if (records == NULL)
        return FALSE;
      if (list == GRAMMAR_EVALUATION_LIST_GAP_GROUPS)
        {
          g_autoptr (JsonNode) entry = gap_group_json (group, records);

          if (!func (entry, user_data, error))
            return FALSE;
          n++;
          continue;
        }
      g_ptr_array_sort (records, compare_records);
      for (guint r = 0; r < records->len && (max_list == 0 || n < max_list); r++)
        {
          GrammarRecord *record = g_ptr_array_index (records, r);
          g_autoptr (JsonNode) entry = NULL;

          if (grammar_evaluation_answer_verdict (record) == GRAMMAR_VERDICT_CORRECT)
            continue;
          entry = debug_record_json (record);
          if (!func (entry, user_data, error))
            return FALSE;
          n++;
        }
    }
  return TRUE;
}

static gboolean
add_entry (JsonNode  *entry,
           gpointer   user_data,
           GError   **error)
{
  json_builder_add_value (user_data, json_node_copy (entry));
  return TRUE;
}

/*
 * grammar_evaluation_build_json:
 *
 * The report of grammar_evaluation_to_json(); with @lists FALSE its
 * `gap_groups` and `debug` are left empty, for a writer that gives them
 * with grammar_evaluation_foreach_listed().
 */
JsonNode *
grammar_evaluation_build_json (GrammarEvaluation  *self,
                               gboolean            lists,
                               guint               max_list,
                               GError            **error)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_auto (GStrv) styles = NULL;
  static const char * const list_names[] = { "gap_groups", "debug" };

  styles = grammar_evaluation_dup_styles (self);
  json_builder_begin_object (builder);
  add_string (builder, "format", "grammar-report-1");
  add_string (builder, "source", self->source);
  json_builder_set_member_name (builder, "styles");
  json_builder_begin_array (builder);
  for (guint i = 0; styles[i] != NULL; i++)
    json_builder_add_string_value (builder, styles[i]);
  json_builder_end_array (builder);
  add_warnings (builder, self);

  add_tally (builder, &self->tally);
  add_gap_attribution (builder, self);
  add_latency (builder, self);
  add_breakdown (builder, "by_template", self, GRAMMAR_EVALUATION_BY_TEMPLATE);
  add_breakdown (builder, "by_style", self, GRAMMAR_EVALUATION_BY_STYLE);
  add_breakdown (builder, "by_table", self, GRAMMAR_EVALUATION_BY_TABLE);
  add_templates (builder, self);
  for (guint l = 0; l < G_N_ELEMENTS (list_names); l++)
    {
      json_builder_set_member_name (builder, list_names[l]);
      json_builder_begin_array (builder);
      if (lists && !grammar_evaluation_foreach_listed (self, l, max_list, add_entry, builder, error))
        return NULL;
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/*
 * grammar_evaluation_by_style_json:
 *
 * The `by_style` breakdown of the report alone, an array.
 */
JsonNode *
grammar_evaluation_by_style_json (GrammarEvaluation *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (builder);
  add_breakdown (builder, "by_style", self, GRAMMAR_EVALUATION_BY_STYLE);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return json_object_dup_member (json_node_get_object (root), "by_style");
}

/**
 * grammar_evaluation_to_json:
 * @self: a #GrammarEvaluation
 * @max_list: the most entries of `gap_groups` and of `debug`, 0 for all
 *
 * Makes the report (format `grammar-report-1`, described in the
 * evaluation guide): the counts, the metrics and their Wilson 95 %
 * intervals (null when undefined), the breakdowns `by_template`,
 * `by_style` and `by_table`, `templates` (each template id's SQL and
 * text query, those of its first record), the gap groups with their
 * attribution and the `debug` list of the incorrect or unmeasured
 * records of non-robust groups. Groups are listed in the order of their ids (numbers in
 * numeric order), records of a group by id.
 *
 * Returns: (transfer full): the report, a JSON object without `comparison`
 */
JsonNode *
grammar_evaluation_to_json (GrammarEvaluation *self,
                            guint              max_list)
{
  g_autoptr (GError) error = NULL;
  JsonNode *report;

  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (self), NULL);

  /* Only an evaluation of the report's own loader reads its records
   * again, and only that can fail (its file changed meanwhile). */
  report = grammar_evaluation_build_json (self, TRUE, max_list, &error);
  if (report == NULL)
    {
      g_warning ("%s", error->message);
      report = grammar_evaluation_build_json (self, FALSE, max_list, NULL);
    }
  return report;
}
