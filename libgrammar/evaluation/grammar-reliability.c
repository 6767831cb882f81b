/* grammar-reliability.c: how far reference-free metrics agree with grounded verdicts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "grammar-error.h"
#include "grammar-evaluation-private.h"
#include "grammar-graded-private.h"
#include "grammar-json-private.h"
#include "grammar-jsonl-private.h"
#include "grammar-reliability-private.h"
#include "grammar-stats-private.h"

/**
 * GrammarReliability:
 *
 * GRAMMAR's first question: can a reference-free evaluator be trusted?
 * Its pass or fail on each response is taken as a prediction, and the
 * grounded verdict of the judge as the truth, a correct response being
 * a positive. For every metric of the assessed files it counts the
 * confusion table (true positives: correct responses the metric passed;
 * false positives: incorrect ones it passed; false negatives: correct
 * ones it failed; true negatives: incorrect ones it failed) and gives
 *
 * - precision TP / (TP + FP): low means optimistic, wrong answers pass;
 * - recall TP / (TP + FN): low means cynical, right answers fail;
 * - specificity TN / (TN + FP) and accuracy (TP + TN) / n;
 *
 * each with its Wilson 95 % interval and, for comparison with the
 * paper's Table 1, the normal (z) interval; the AUROC of the metric's
 * continuous score with a percentile bootstrap interval
 * (#GrammarReliability:resamples resamples drawn with
 * #GrammarReliability:seed) up to 2000 scored records, Hanley and
 * McNeil's normal interval above (its `method` says which); the share of records the metric left
 * unmeasured; a one-line verdict; and the same broken down by style and
 * by the tag of the record's semantic group (gap, robust, non-robust).
 *
 * Records whose grounded verdict is unmeasured, and scores that are
 * unmeasured, are left out of the table and counted.
 */

struct _GrammarReliability
{
  GObject parent_instance;

  guint seed;
  guint resamples;

  GPtrArray *evaluations;   /* GrammarEvaluation */
  GHashTable *judged;       /* id → Judged */
  GStringChunk *strings;    /* the ids, styles, templates and groups of Judged */
  GPtrArray *metrics;       /* Metric, in first-seen order */
};

G_DEFINE_FINAL_TYPE (GrammarReliability, grammar_reliability, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_SEED,
  PROP_RESAMPLES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* What a judged record brings to its assessed scores (the strings in
 * strings): not the record, so that a report reading the judged file
 * once keeps some 60 bytes a record. */
typedef struct
{
  GrammarVerdictKind answer;
  const char *style;
  const char *template_id;
  const char *group;
  const char *tag;
  guint side;               /* which judged file: 0 the first added */
} Judged;

/* One scored record: what the metric said and what was true. */
typedef struct
{
  double score;
  gboolean measured;
  gboolean passed;
  GrammarVerdictKind truth;
  const char *style;        /* owned by the judged record */
  const char *tag;
} Observation;

/* The keypoint figures of a metric whose scores' evidence has them
 * (rageval-keypoints): every record, and each judged file's records. */
static const GrammarGradedFigure keypoint_figures[] = {
  { "completeness", FALSE },
  { "hallucination", FALSE },
  { "irrelevance", FALSE },
};

typedef struct
{
  char *name;
  char *plugin;
  double threshold;
  GArray *observations;     /* Observation */
  GrammarGraded *keypoints; /* NULL until a score has keypoint figures */
  GrammarGraded *sides[2];
  GPtrArray *unmeasured;    /* Judged (not owned) of the unmeasured scores before keypoints exists */
} Metric;

static void
metric_free (Metric *metric)
{
  g_free (metric->name);
  g_free (metric->plugin);
  g_array_unref (metric->observations);
  grammar_graded_free (metric->keypoints);
  grammar_graded_free (metric->sides[0]);
  grammar_graded_free (metric->sides[1]);
  g_clear_pointer (&metric->unmeasured, g_ptr_array_unref);
  g_free (metric);
}

/* Counting */

typedef struct
{
  guint64 records;
  guint64 unmeasured;       /* the metric gave no score */
  guint64 truth_unmeasured; /* the judge gave no verdict */
  guint64 tp, fp, fn, tn;
  double score_sum;
  guint64 scored;
} Tally;

static void
tally_add (Tally             *tally,
           const Observation *observation)
{
  tally->records++;
  if (!observation->measured)
    {
      tally->unmeasured++;
      return;
    }
  tally->score_sum += observation->score;
  tally->scored++;
  if (observation->truth == GRAMMAR_VERDICT_UNMEASURED)
    {
      tally->truth_unmeasured++;
      return;
    }
  if (observation->truth == GRAMMAR_VERDICT_CORRECT)
    {
      if (observation->passed)
        tally->tp++;
      else
        tally->fn++;
    }
  else if (observation->passed)
    tally->fp++;
  else
    tally->tn++;
}

/* {"successes", "n", "value", "wilson": [lo, hi], "normal": [lo, hi]} */
static void
add_proportion (JsonBuilder *builder,
                const char  *name,
                guint64      successes,
                guint64      n)
{
  double lo = 0.0, hi = 0.0;
  gboolean defined;

  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  grammar_json_add_int (builder, "successes", successes);
  grammar_json_add_int (builder, "n", n);
  grammar_json_add_number (builder, "value", n > 0 ? (double) successes / n : NAN);
  defined = grammar_stats_wilson (successes, n, GRAMMAR_STATS_Z95, &lo, &hi);
  grammar_json_add_interval (builder, "wilson", defined, lo, hi);
  defined = grammar_stats_normal_interval (successes, n, GRAMMAR_STATS_Z95, &lo, &hi);
  grammar_json_add_interval (builder, "normal", defined, lo, hi);
  json_builder_end_object (builder);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

typedef struct
{
  double score;
  gboolean positive;
} Scored;

static int
compare_scored (gconstpointer a,
                gconstpointer b)
{
  const Scored *x = a, *y = b;
  int by_score = compare_doubles (&x->score, &y->score);

  return by_score != 0 ? by_score : (x->positive > y->positive) - (x->positive < y->positive);
}

/* The AUROC of the measured scores of @observations whose truth is
 * known, with a percentile bootstrap interval up to
 * GRAMMAR_STATS_BOOTSTRAP_LIMIT of them, Hanley and McNeil's above. */
static void
add_auroc (GrammarReliability *self,
           JsonBuilder        *builder,
           GPtrArray          *observations)
{
  g_autoptr (GArray) scored = g_array_new (FALSE, FALSE, sizeof (Scored));
  g_autoptr (GArray) scores = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) positive = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr (GArray) areas = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GRand) rand = g_rand_new_with_seed (self->seed);
  double area;
  guint n;

  for (guint i = 0; i < observations->len; i++)
    {
      const Observation *observation = g_ptr_array_index (observations, i);
      Scored one = { observation->score, observation->truth == GRAMMAR_VERDICT_CORRECT };

      if (!observation->measured || observation->truth == GRAMMAR_VERDICT_UNMEASURED)
        continue;
      g_array_append_val (scored, one);
    }
  /* Resampled in a canonical order: the interval depends on the records,
   * not on the order they were read in. */
  g_array_sort (scored, compare_scored);
  for (guint i = 0; i < scored->len; i++)
    {
      g_array_append_val (scores, g_array_index (scored, Scored, i).score);
      g_array_append_val (positive, g_array_index (scored, Scored, i).positive);
    }
  n = scores->len;
  area = grammar_stats_auroc ((double *) scores->data, (gboolean *) positive->data, n);

  json_builder_set_member_name (builder, "auroc");
  json_builder_begin_object (builder);
  grammar_json_add_number (builder, "value", area);
  if (n > GRAMMAR_STATS_BOOTSTRAP_LIMIT)
    {
      /* a sort a resample is most of a large report's time: Hanley and
       * McNeil's normal interval, as the means go normal above the limit */
      guint64 positives = 0;
      double low = 0.0, high = 0.0;
      gboolean defined;

      for (guint i = 0; i < n; i++)
        positives += g_array_index (positive, gboolean, i) != FALSE;
      defined = self->resamples > 0 && grammar_stats_auroc_normal (area, positives, n - positives, &low, &high);
      grammar_json_add_interval (builder, "interval", defined, low, high);
      json_builder_set_member_name (builder, "method");
      json_builder_add_string_value (builder, "hanley-mcneil");
    }
  else
    {
      if (isfinite (area) && self->resamples > 0)
        {
          g_autofree double *sample_scores = g_new (double, n);
          g_autofree gboolean *sample_positive = g_new (gboolean, n);

          for (guint r = 0; r < self->resamples; r++)
            {
              double resampled;

              for (guint i = 0; i < n; i++)
                {
                  guint pick = (guint) g_rand_int_range (rand, 0, (gint32) n);

                  sample_scores[i] = g_array_index (scores, double, pick);
                  sample_positive[i] = g_array_index (positive, gboolean, pick);
                }
              resampled = grammar_stats_auroc (sample_scores, sample_positive, n);
              if (isfinite (resampled))
                g_array_append_val (areas, resampled);
            }
        }
      if (areas->len > 0)
        {
          g_array_sort (areas, compare_doubles);
          grammar_json_add_interval (builder, "interval", TRUE,
                        g_array_index (areas, double, (guint) floor (0.025 * (areas->len - 1))),
                        g_array_index (areas, double, (guint) ceil (0.975 * (areas->len - 1))));
        }
      else
        grammar_json_add_interval (builder, "interval", FALSE, 0.0, 0.0);
      json_builder_set_member_name (builder, "method");
      json_builder_add_string_value (builder, "bootstrap");
    }
  grammar_json_add_int (builder, "resamples", self->resamples);
  grammar_json_add_int (builder, "seed", self->seed);
  json_builder_end_object (builder);
}

static char *
percent (guint64 part,
         guint64 whole)
{
  return g_strdup_printf ("%.0f%%", 100.0 * (double) part / (double) whole);
}

/* One line on how the metric errs. */
static char *
verdict_of (const Tally *tally)
{
  guint64 right = tally->tp + tally->fn, wrong = tally->fp + tally->tn;
  g_autofree char *pass_wrong = NULL;
  g_autofree char *fail_right = NULL;
  double pass_wrong_share, fail_right_share;

  if (right == 0 && wrong == 0)
    return g_strdup ("cannot tell: no record with both a score and a grounded verdict");
  if (wrong == 0)
    return g_strdup_printf ("cannot tell optimism: every scored response is correct; fails %s of them",
                            fail_right = percent (tally->fn, right));
  if (right == 0)
    return g_strdup_printf ("cannot tell cynicism: every scored response is incorrect; passes %s of them",
                            pass_wrong = percent (tally->fp, wrong));
  pass_wrong = percent (tally->fp, wrong);
  fail_right = percent (tally->fn, right);
  pass_wrong_share = (double) tally->fp / wrong;
  fail_right_share = (double) tally->fn / right;
  if (pass_wrong_share >= 0.5 && fail_right_share >= 0.5)
    return g_strdup_printf ("uninformative: passes %s of wrong answers and fails %s of right ones", pass_wrong,
                            fail_right);
  if (pass_wrong_share >= 0.2 && pass_wrong_share >= fail_right_share)
    return g_strdup_printf ("optimistic: passes %s of wrong answers (and fails %s of right ones)", pass_wrong,
                            fail_right);
  if (fail_right_share >= 0.2)
    return g_strdup_printf ("cynical: fails %s of right answers (and passes %s of wrong ones)", fail_right,
                            pass_wrong);
  return g_strdup_printf ("reliable: passes %s of wrong answers and fails %s of right ones", pass_wrong,
                          fail_right);
}

/* The figures of @observations, as the members of an open object. */
static void
add_figures (GrammarReliability *self,
             JsonBuilder        *builder,
             GPtrArray          *observations)
{
  g_autofree char *verdict = NULL;
  g_autoptr (GArray) scores = g_array_new (FALSE, FALSE, sizeof (double));
  Tally tally = { 0 };

  for (guint i = 0; i < observations->len; i++)
    {
      const Observation *observation = g_ptr_array_index (observations, i);

      tally_add (&tally, observation);
      if (observation->measured)
        g_array_append_val (scores, observation->score);
    }
  /* Summed in a canonical order: the mean depends on the records, not on
   * the order a concurrent stage wrote them in (to the last bit). */
  g_array_sort (scores, compare_doubles);
  tally.score_sum = 0.0;
  for (guint i = 0; i < scores->len; i++)
    tally.score_sum += g_array_index (scores, double, i);

  grammar_json_add_int (builder, "records", tally.records);
  grammar_json_add_int (builder, "unmeasured", tally.unmeasured);
  grammar_json_add_number (builder, "unmeasured_share",
                           tally.records > 0 ? (double) tally.unmeasured / tally.records : NAN);
  grammar_json_add_int (builder, "truth_unmeasured", tally.truth_unmeasured);
  grammar_json_add_number (builder, "mean_score", tally.scored > 0 ? tally.score_sum / tally.scored : NAN);
  json_builder_set_member_name (builder, "confusion");
  json_builder_begin_object (builder);
  grammar_json_add_int (builder, "tp", tally.tp);
  grammar_json_add_int (builder, "fp", tally.fp);
  grammar_json_add_int (builder, "fn", tally.fn);
  grammar_json_add_int (builder, "tn", tally.tn);
  json_builder_end_object (builder);
  add_proportion (builder, "precision", tally.tp, tally.tp + tally.fp);
  add_proportion (builder, "recall", tally.tp, tally.tp + tally.fn);
  add_proportion (builder, "specificity", tally.tn, tally.tn + tally.fp);
  add_proportion (builder, "accuracy", tally.tp + tally.tn, tally.tp + tally.fp + tally.fn + tally.tn);
  add_auroc (self, builder, observations);
  verdict = verdict_of (&tally);
  json_builder_set_member_name (builder, "verdict");
  json_builder_add_string_value (builder, verdict);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* {key: figures} over the observations of @metric grouped by @field. */
static void
add_breakdown (GrammarReliability *self,
               JsonBuilder        *builder,
               const char         *name,
               Metric             *metric,
               gboolean            by_style)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  g_autoptr (GHashTable) slices = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                          (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < metric->observations->len; i++)
    {
      Observation *observation = &g_array_index (metric->observations, Observation, i);
      const char *key = by_style ? observation->style : observation->tag;
      GPtrArray *slice;

      if (key == NULL)
        key = "(none)";
      slice = g_hash_table_lookup (slices, key);
      if (slice == NULL)
        {
          slice = g_ptr_array_new ();
          g_hash_table_insert (slices, (gpointer) key, slice);
          g_ptr_array_add (keys, (gpointer) key);
        }
      g_ptr_array_add (slice, observation);
    }
  g_ptr_array_sort (keys, compare_keys);

  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  for (guint i = 0; i < keys->len; i++)
    {
      json_builder_set_member_name (builder, g_ptr_array_index (keys, i));
      json_builder_begin_object (builder);
      add_figures (self, builder, g_hash_table_lookup (slices, g_ptr_array_index (keys, i)));
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
}

/**
 * grammar_reliability_to_json:
 * @self: a #GrammarReliability
 *
 * The figures of every metric, as `grammar report --format json` writes
 * them under `reliability`: `{metric: {plugin, threshold, records,
 * unmeasured, unmeasured_share, truth_unmeasured, mean_score, confusion:
 * {tp, fp, fn, tn}, precision, recall, specificity, accuracy (each
 * {successes, n, value, wilson, normal}), auroc: {value, interval,
 * resamples, seed}, verdict, by_style: {style: {…}}, by_group: {tag:
 * {…}}}}`. A figure without data is null.
 *
 * Returns: (transfer full): the JSON object
 */
JsonNode *
grammar_reliability_to_json (GrammarReliability *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_RELIABILITY (self), NULL);

  json_builder_begin_object (builder);
  for (guint m = 0; m < self->metrics->len; m++)
    {
      Metric *metric = g_ptr_array_index (self->metrics, m);
      g_autoptr (GPtrArray) all = g_ptr_array_new ();

      for (guint i = 0; i < metric->observations->len; i++)
        g_ptr_array_add (all, &g_array_index (metric->observations, Observation, i));
      json_builder_set_member_name (builder, metric->name);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "plugin");
      if (metric->plugin != NULL)
        json_builder_add_string_value (builder, metric->plugin);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "threshold");
      json_builder_add_double_value (builder, metric->threshold);
      add_figures (self, builder, all);
      add_breakdown (self, builder, "by_style", metric, TRUE);
      add_breakdown (self, builder, "by_group", metric, FALSE);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* Reading */

static Metric *
lookup_metric (GrammarReliability *self,
               GrammarScore       *score)
{
  Metric *metric;

  for (guint i = 0; i < self->metrics->len; i++)
    {
      metric = g_ptr_array_index (self->metrics, i);
      if (g_str_equal (metric->name, grammar_score_get_metric (score)))
        return metric;
    }
  metric = g_new0 (Metric, 1);
  metric->name = g_strdup (grammar_score_get_metric (score));
  metric->plugin = g_strdup (grammar_score_get_plugin (score));
  metric->threshold = grammar_score_get_threshold (score);
  metric->observations = g_array_new (FALSE, FALSE, sizeof (Observation));
  g_ptr_array_add (self->metrics, metric);
  return metric;
}

/* The keypoint figures of @score's evidence: numbers `completeness`,
 * `hallucination` and `irrelevance`, or none for an unmeasured score. */
static gboolean
keypoint_values (GrammarScore *score,
                 double       *values)
{
  JsonNode *evidence = grammar_score_get_evidence (score);
  JsonObject *object = evidence != NULL && JSON_NODE_HOLDS_OBJECT (evidence) ? json_node_get_object (evidence) : NULL;

  for (guint f = 0; f < G_N_ELEMENTS (keypoint_figures); f++)
    {
      JsonNode *node = object != NULL ? json_object_get_member (object, keypoint_figures[f].name) : NULL;

      if (!grammar_json_node_get_real (node, &values[f]))
        return FALSE;
    }
  return TRUE;
}

static void
add_keypoints (GrammarReliability *self,
               Metric             *metric,
               GrammarScore       *score,
               Judged             *judged)
{
  double values[G_N_ELEMENTS (keypoint_figures)];
  double unknown[G_N_ELEMENTS (keypoint_figures)];

  for (guint f = 0; f < G_N_ELEMENTS (keypoint_figures); f++)
    unknown[f] = NAN;
  if (!keypoint_values (score, values))
    {
      if (grammar_score_is_measured (score))
        return;
      /* An unmeasured score says nothing of whether the metric gives
       * keypoint figures (a failed query leaves every metric unmeasured):
       * it is counted only once a score of the metric has them. */
      if (metric->keypoints == NULL)
        {
          if (metric->unmeasured == NULL)
            metric->unmeasured = g_ptr_array_new ();
          g_ptr_array_add (metric->unmeasured, judged);
          return;
        }
      memcpy (values, unknown, sizeof values);
    }
  if (metric->keypoints == NULL)
    {
      metric->keypoints = grammar_graded_new (keypoint_figures, G_N_ELEMENTS (keypoint_figures), self->seed,
                                              self->resamples);
      for (guint i = 0; i < 2; i++)
        metric->sides[i] = grammar_graded_new (keypoint_figures, G_N_ELEMENTS (keypoint_figures), self->seed,
                                               self->resamples);
      for (guint i = 0; metric->unmeasured != NULL && i < metric->unmeasured->len; i++)
        {
          Judged *earlier = g_ptr_array_index (metric->unmeasured, i);

          grammar_graded_add (metric->keypoints, earlier->style, earlier->template_id, earlier->group, earlier->tag,
                              unknown);
          grammar_graded_add (metric->sides[earlier->side], earlier->style, earlier->template_id, earlier->group,
                              earlier->tag, unknown);
        }
      g_clear_pointer (&metric->unmeasured, g_ptr_array_unref);
    }
  grammar_graded_add (metric->keypoints, judged->style, judged->template_id, judged->group, judged->tag, values);
  grammar_graded_add (metric->sides[judged->side], judged->style, judged->template_id, judged->group, judged->tag,
                      values);
}

/**
 * grammar_reliability_keypoints_to_json:
 * @self: a #GrammarReliability
 * @alpha: the significance level of the paired tests
 *
 * RAGEval's keypoint figures of the metrics whose scores carry them in
 * their evidence (numbers `completeness`, `hallucination` and
 * `irrelevance`, as the `rageval-keypoints` plugin writes), as `grammar
 * report` writes them under `keypoints`: `{metric: {plugin, records,
 * overall: {records, completeness: {n, value, interval, method},
 * hallucination, irrelevance}, by_style, by_template, by_group}}`, each
 * figure the mean over the records the metric measured with a seeded
 * bootstrap interval (the normal interval above 2000 records, `method`
 * saying which). With two judged files, `paired` compares the
 * second with the first on the semantic groups both measured: `{a, b
 * (the sources), completeness: {pairs, a, b, difference, interval,
 * interval_method, a_higher, b_higher, ties, test, nonzero, w_plus, z, p, significant},
 * …}` (Wilcoxon's signed-rank test of the groups' mean differences).
 *
 * Returns: (transfer full) (nullable): the JSON object, or %NULL when no
 *   metric gives keypoint figures
 */
JsonNode *
grammar_reliability_keypoints_to_json (GrammarReliability *self,
                                       double              alpha)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  gboolean any = FALSE;

  g_return_val_if_fail (GRAMMAR_IS_RELIABILITY (self), NULL);

  json_builder_begin_object (builder);
  for (guint m = 0; m < self->metrics->len; m++)
    {
      Metric *metric = g_ptr_array_index (self->metrics, m);

      if (metric->keypoints == NULL)
        continue;
      any = TRUE;
      json_builder_set_member_name (builder, metric->name);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "plugin");
      if (metric->plugin != NULL)
        json_builder_add_string_value (builder, metric->plugin);
      else
        json_builder_add_null_value (builder);
      grammar_json_add_int (builder, "records", grammar_graded_get_n_records (metric->keypoints));
      grammar_json_add_int (builder, "seed", self->seed);
      grammar_json_add_int (builder, "resamples", self->resamples);
      grammar_graded_build_slices (metric->keypoints, builder);
      if (self->evaluations->len >= 2)
        {
          json_builder_set_member_name (builder, "paired");
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "a");
          json_builder_add_string_value (builder,
            grammar_evaluation_get_source (g_ptr_array_index (self->evaluations, 0)));
          json_builder_set_member_name (builder, "b");
          json_builder_add_string_value (builder,
            grammar_evaluation_get_source (g_ptr_array_index (self->evaluations, 1)));
          grammar_graded_build_paired (metric->sides[0], NULL, metric->sides[1], NULL, alpha, builder);
          json_builder_end_object (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  return any ? json_builder_get_root (builder) : NULL;
}

/**
 * grammar_reliability_add_judged:
 * @self: a #GrammarReliability
 * @evaluation: judged records (the truth)
 *
 * Adds judged records whose grounded verdicts are the truth; add them
 * all before the assessed files.
 */
void
grammar_reliability_add_judged (GrammarReliability *self,
                                GrammarEvaluation  *evaluation)
{
  GPtrArray *records;
  guint side;

  g_return_if_fail (GRAMMAR_IS_RELIABILITY (self));
  g_return_if_fail (GRAMMAR_IS_EVALUATION (evaluation));

  side = MIN (self->evaluations->len, 1);
  records = grammar_evaluation_get_records (evaluation);
  for (guint i = 0; i < records->len; i++)
    grammar_reliability_add_judged_record (self, g_ptr_array_index (records, i), side);
  grammar_reliability_add_judged_read (self, evaluation);
}

static const char *
intern (GrammarReliability *self,
        const char         *text)
{
  return text != NULL ? g_string_chunk_insert_const (self->strings, text) : NULL;
}

/* Adds one judged record of the file @side (0 the first, 1 the second)
 * as a report reads it; grammar_reliability_add_judged_read() then adds
 * the evaluation of that file and tags its records. */
void
grammar_reliability_add_judged_record (GrammarReliability *self,
                                       GrammarRecord      *record,
                                       guint               side)
{
  Judged *judged;

  g_return_if_fail (GRAMMAR_IS_RELIABILITY (self));
  g_return_if_fail (GRAMMAR_IS_RECORD (record));

  if (grammar_record_get_id (record) == NULL)
    return;
  judged = g_new0 (Judged, 1);
  judged->answer = grammar_evaluation_answer_verdict (record);
  judged->style = intern (self, grammar_record_get_style (record));
  judged->template_id = intern (self, grammar_record_get_template (record));
  judged->group = intern (self, grammar_record_get_group (record));
  judged->side = MIN (side, 1);
  g_hash_table_replace (self->judged, (gpointer) intern (self, grammar_record_get_id (record)), judged);
}

void
grammar_reliability_add_judged_read (GrammarReliability *self,
                                     GrammarEvaluation  *evaluation)
{
  guint side;
  GHashTableIter iter;
  gpointer data;

  g_return_if_fail (GRAMMAR_IS_RELIABILITY (self));
  g_return_if_fail (GRAMMAR_IS_EVALUATION (evaluation));

  side = MIN (self->evaluations->len, 1);
  g_ptr_array_add (self->evaluations, g_object_ref (evaluation));
  g_hash_table_iter_init (&iter, self->judged);
  while (g_hash_table_iter_next (&iter, NULL, &data))
    {
      Judged *judged = data;
      GrammarEvaluationGroup *group;

      if (judged->side != side || judged->tag != NULL || judged->group == NULL)
        continue;
      group = grammar_evaluation_lookup_group (evaluation, judged->group);
      judged->tag = group != NULL ? grammar_evaluation_tag_name (group->tag) : NULL;
    }
}

/**
 * grammar_reliability_add_assessed:
 * @self: a #GrammarReliability
 * @path: (type filename): an assessed file, from `grammar assess`
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads the scores of @path and pairs each record with the judged
 * record of the same id.
 *
 * Returns: %TRUE, or %FALSE with @error set: %GRAMMAR_ERROR_INVALID_INPUT
 *   naming the file, the line and the first id that no judged record
 *   has (an assessed file of another results file), or a line that is
 *   not a record
 */
gboolean
grammar_reliability_add_assessed (GrammarReliability  *self,
                                  const char          *path,
                                  GCancellable        *cancellable,
                                  GError             **error)
{
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  static const char * const required[] = { "id", NULL };
  guint64 number = 0;

  g_return_val_if_fail (GRAMMAR_IS_RELIABILITY (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  lines = grammar_jsonl_open (path, cancellable, error);
  if (lines == NULL)
    return FALSE;
  for (;;)
    {
      g_autofree char *text = NULL;
      g_autoptr (GrammarRecord) record = NULL;
      GPtrArray *scores;
      Judged *judged;
      gsize length = 0;

      if (!grammar_jsonl_read_line (lines, path, &text, &length, cancellable, error))
        return FALSE;
      if (text == NULL)
        break;
      number++;
      if (grammar_jsonl_line_is_blank (text, length))
        continue;
      record = grammar_jsonl_parse_record (parser, path, number, text, length, required, error);
      if (record == NULL)
        return FALSE;
      judged = g_hash_table_lookup (self->judged, grammar_record_get_id (record));
      if (judged == NULL)
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": id “%s” is in no judged file: the assessed file was made from "
                       "other results than the judged one", path, number, grammar_record_get_id (record));
          return FALSE;
        }
      scores = grammar_record_get_scores (record);
      for (guint i = 0; scores != NULL && i < scores->len; i++)
        {
          GrammarScore *score = g_ptr_array_index (scores, i);
          Observation observation = {
            grammar_score_get_value (score), grammar_score_is_measured (score), grammar_score_get_passed (score),
            judged->answer, judged->style, judged->tag,
          };

          Metric *metric = lookup_metric (self, score);

          g_array_append_val (metric->observations, observation);
          add_keypoints (self, metric, score, judged);
        }
    }
  return TRUE;
}

/**
 * grammar_reliability_get_n_metrics:
 * @self: a #GrammarReliability
 *
 * Returns: how many metrics the assessed files hold
 */
guint
grammar_reliability_get_n_metrics (GrammarReliability *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RELIABILITY (self), 0);
  return self->metrics->len;
}

/* GObject */

static void
grammar_reliability_finalize (GObject *object)
{
  GrammarReliability *self = GRAMMAR_RELIABILITY (object);

  g_hash_table_unref (self->judged);
  g_string_chunk_free (self->strings);
  g_ptr_array_unref (self->metrics);
  g_ptr_array_unref (self->evaluations);

  G_OBJECT_CLASS (grammar_reliability_parent_class)->finalize (object);
}

static void
grammar_reliability_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  GrammarReliability *self = GRAMMAR_RELIABILITY (object);

  switch (prop_id)
    {
    case PROP_SEED: g_value_set_uint (value, self->seed); break;
    case PROP_RESAMPLES: g_value_set_uint (value, self->resamples); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_reliability_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  GrammarReliability *self = GRAMMAR_RELIABILITY (object);

  switch (prop_id)
    {
    case PROP_SEED: self->seed = g_value_get_uint (value); break;
    case PROP_RESAMPLES: self->resamples = g_value_get_uint (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_reliability_class_init (GrammarReliabilityClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_reliability_finalize;
  object_class->get_property = grammar_reliability_get_property;
  object_class->set_property = grammar_reliability_set_property;

  /**
   * GrammarReliability:seed:
   *
   * The seed of the bootstrap resamples: the same seed, the same
   * intervals.
   */
  properties[PROP_SEED] =
    g_param_spec_uint ("seed", NULL, "The seed of the bootstrap", 0, G_MAXUINT, 1,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarReliability:resamples:
   *
   * How many bootstrap resamples make the AUROC interval; 0: none.
   */
  properties[PROP_RESAMPLES] =
    g_param_spec_uint ("resamples", NULL, "Bootstrap resamples of the AUROC interval", 0, 1000000,
                       GRAMMAR_RELIABILITY_DEFAULT_RESAMPLES, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_reliability_init (GrammarReliability *self)
{
  self->seed = 1;
  self->resamples = GRAMMAR_RELIABILITY_DEFAULT_RESAMPLES;
  self->evaluations = g_ptr_array_new_with_free_func (g_object_unref);
  self->judged = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  self->strings = g_string_chunk_new (4096);
  self->metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) metric_free);
}

/**
 * grammar_reliability_new:
 *
 * Returns: (transfer full): a new #GrammarReliability, without data
 */
GrammarReliability *
grammar_reliability_new (void)
{
  return g_object_new (GRAMMAR_TYPE_RELIABILITY, NULL);
}
