/* grammar-stats.c: the few statistics the evaluation needs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include <stdlib.h>

#include "grammar-stats-private.h"

/*
 * grammar_stats_wilson:
 * @successes: the number of successes
 * @n: the number of trials
 * @z: the normal quantile (GRAMMAR_STATS_Z95 for 95 %)
 * @low: (out): the lower bound
 * @high: (out): the upper bound
 *
 * The Wilson score interval of a proportion. It is used rather than the
 * normal (Wald) interval because it stays inside [0, 1] and is sensible
 * for rates near 0 or 1 and for small groups, both common here.
 *
 * Returns: %FALSE when @n is 0 (no interval)
 */
gboolean
grammar_stats_wilson (guint64 successes, guint64 n, double z, double *low, double *high)
{
  double p, z2, denominator, centre, half;

  if (n == 0)
    return FALSE;

  p = (double) successes / (double) n;
  z2 = z * z;
  denominator = 1.0 + z2 / n;
  centre = (p + z2 / (2.0 * n)) / denominator;
  half = z * sqrt (p * (1.0 - p) / n + z2 / (4.0 * n * (double) n)) / denominator;
  /* At p̂ = 0 the lower bound is 0 and at p̂ = 1 the upper bound is 1,
   * exactly; rounding would make them 1e-17 or 0.9999999999999999. */
  *low = successes == 0 ? 0.0 : CLAMP (centre - half, 0.0, 1.0);
  *high = successes >= n ? 1.0 : CLAMP (centre + half, 0.0, 1.0);
  return TRUE;
}

/*
 * grammar_stats_two_proportion_z:
 * @successes_a: successes of sample a
 * @n_a: size of sample a
 * @successes_b: successes of sample b
 * @n_b: size of sample b
 * @z: (out): z = (p_a - p_b) / sqrt (p (1 - p) (1/n_a + 1/n_b)), p pooled
 * @p: (out): the two-sided p-value erfc (|z| / sqrt 2)
 *
 * The pooled two-proportion z-test.
 *
 * Returns: %FALSE when the test is undefined (an empty sample, or a pooled
 *   rate of 0 or 1, where both samples agree perfectly and z is 0/0)
 */
gboolean
grammar_stats_two_proportion_z (guint64 successes_a, guint64 n_a,
                                guint64 successes_b, guint64 n_b,
                                double *z, double *p)
{
  double pa, pb, pooled, se;

  if (n_a == 0 || n_b == 0)
    return FALSE;

  pa = (double) successes_a / (double) n_a;
  pb = (double) successes_b / (double) n_b;
  pooled = (double) (successes_a + successes_b) / (double) (n_a + n_b);
  se = sqrt (pooled * (1.0 - pooled) * (1.0 / n_a + 1.0 / n_b));
  if (se == 0.0)
    return FALSE;

  *z = (pa - pb) / se;
  *p = erfc (fabs (*z) / G_SQRT2);
  return TRUE;
}

/*
 * grammar_stats_normal_interval:
 * @successes: the number of successes
 * @n: the number of trials
 * @z: the normal quantile
 * @low: (out): the lower bound, at least 0
 * @high: (out): the upper bound, at most 1
 *
 * The normal (Wald) interval p ± z √(p (1 − p) / n), clamped to [0, 1]:
 * the "Z-test" interval the GRAMMAR paper gives for its Table 1, kept
 * for comparison with it; the Wilson interval is the better one.
 *
 * Returns: %FALSE when @n is 0
 */
gboolean
grammar_stats_normal_interval (guint64 successes, guint64 n, double z, double *low, double *high)
{
  double p, half;

  if (n == 0)
    return FALSE;
  p = (double) successes / (double) n;
  half = z * sqrt (p * (1.0 - p) / n);
  *low = MAX (0.0, p - half);
  *high = MIN (1.0, p + half);
  return TRUE;
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

  return (x->score > y->score) - (x->score < y->score);
}

/*
 * grammar_stats_auroc:
 * @scores: the scores
 * @positive: whether each item is a positive
 * @n: the number of items
 *
 * The area under the ROC curve of @scores as a predictor of @positive:
 * the probability that a positive scores above a negative, ties counting
 * one half (the Mann–Whitney U over the product of the class sizes, with
 * mid-ranks for ties).
 *
 * Returns: the area, or NAN without positives or without negatives
 */
double
grammar_stats_auroc (const double *scores, const gboolean *positive, guint n)
{
  g_autofree Scored *items = g_new (Scored, MAX (n, 1));
  double rank_sum = 0.0;
  guint64 n_pos = 0, n_neg;

  for (guint i = 0; i < n; i++)
    {
      items[i].score = scores[i];
      items[i].positive = positive[i];
      n_pos += positive[i] != FALSE;
    }
  n_neg = n - n_pos;
  if (n_pos == 0 || n_neg == 0)
    return NAN;
  qsort (items, n, sizeof (Scored), compare_scored);
  for (guint i = 0; i < n;)
    {
      guint j = i;
      guint64 pos_in_tie = 0;

      while (j < n && items[j].score == items[i].score)
        pos_in_tie += items[j++].positive != FALSE;
      /* ranks i+1 .. j, their mean for every tied item */
      rank_sum += pos_in_tie * ((i + 1.0 + j) / 2.0);
      i = j;
    }
  return (rank_sum - n_pos * (n_pos + 1.0) / 2.0) / ((double) n_pos * (double) n_neg);
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/*
 * grammar_stats_bootstrap_mean:
 * @values: the values
 * @n: how many
 * @resamples: how many resamples (0: no interval)
 * @seed: the seed of the resampling
 * @low: (out): the 2.5th percentile of the resampled means
 * @high: (out): the 97.5th percentile
 *
 * The percentile bootstrap 95 % interval of the mean of @values: @resamples
 * samples of @n values drawn with replacement by a #GRand seeded with
 * @seed, so that the same values, in any order, and seed give the same
 * interval.
 *
 * Returns: %TRUE when the interval is defined (n > 0 and resamples > 0)
 */
gboolean
grammar_stats_bootstrap_mean (const double *values, guint n, guint resamples, guint seed,
                              double *low, double *high)
{
  g_autoptr (GRand) rand = NULL;
  g_autofree double *means = NULL;
  g_autofree double *sorted = NULL;

  if (n == 0 || resamples == 0)
    return FALSE;
  /* Resampled in sorted order, so that the interval depends on the
   * values and not on the order they came in (records of the same run
   * read from another backend, or written by threads). */
  sorted = g_memdup2 (values, n * sizeof (double));
  qsort (sorted, n, sizeof (double), compare_doubles);
  values = sorted;
  rand = g_rand_new_with_seed (seed);
  means = g_new (double, resamples);
  for (guint r = 0; r < resamples; r++)
    {
      double sum = 0.0;

      for (guint i = 0; i < n; i++)
        sum += values[g_rand_int_range (rand, 0, (gint32) n)];
      means[r] = sum / n;
    }
  qsort (means, resamples, sizeof (double), compare_doubles);
  *low = means[(guint) floor (0.025 * (resamples - 1))];
  *high = means[(guint) ceil (0.975 * (resamples - 1))];
  return TRUE;
}

/*
 * grammar_stats_mean_interval:
 * @values: the values
 * @n: how many
 * @resamples: how many bootstrap resamples (0: no interval)
 * @seed: the seed of the resampling
 * @low: (out): the lower bound
 * @high: (out): the upper bound
 * @method: (out) (optional): "bootstrap" or "normal", the interval
 *   @n values get, set even when there is none
 *
 * The 95 % interval of the mean of @values. Up to
 * %GRAMMAR_STATS_BOOTSTRAP_LIMIT values it is the percentile bootstrap of
 * grammar_stats_bootstrap_mean(), whose cost is @resamples × @n random
 * draws. Above, where the central limit theorem makes the mean close to
 * normal, it is the normal interval mean ± z s / √n, z =
 * %GRAMMAR_STATS_Z95 and s the sample standard deviation (n − 1), in
 * one pass (Welford's update, which does not lose the variance to
 * cancellation as the sum of squares minus the squared sum does),
 * clamped to the smallest and largest value, as the bootstrap's means
 * are: a rare event among values in [0, 1] keeps its bound at 0.
 *
 * Returns: %TRUE when the interval is defined (n > 0 and resamples > 0)
 */
gboolean
grammar_stats_mean_interval (const double *values, guint n, guint resamples, guint seed,
                             double *low, double *high, const char **method)
{
  double mean = 0.0, squares = 0.0, half, smallest, largest;

  if (n <= GRAMMAR_STATS_BOOTSTRAP_LIMIT)
    {
      if (method != NULL)
        *method = "bootstrap";
      return grammar_stats_bootstrap_mean (values, n, resamples, seed, low, high);
    }
  if (method != NULL)
    *method = "normal";
  if (resamples == 0)
    return FALSE;
  smallest = largest = values[0];
  for (guint i = 0; i < n; i++)
    {
      double delta = values[i] - mean;

      mean += delta / (i + 1.0);
      squares += delta * (values[i] - mean);
      smallest = MIN (smallest, values[i]);
      largest = MAX (largest, values[i]);
    }
  half = GRAMMAR_STATS_Z95 * sqrt (squares / (n - 1.0)) / sqrt ((double) n);
  *low = MAX (mean - half, smallest);
  *high = MIN (mean + half, largest);
  return TRUE;
}

/*
 * grammar_stats_auroc_normal:
 * @area: the AUROC
 * @positives: how many positive records it was measured on
 * @negatives: how many negative ones
 * @low: (out): the lower bound
 * @high: (out): the upper bound
 *
 * The normal 95 % interval of an AUROC with Hanley and McNeil's (1982)
 * standard error, se² = (A(1 − A) + (n₁ − 1)(Q₁ − A²) + (n₂ − 1)(Q₂ − A²))
 * / (n₁ n₂), Q₁ = A / (2 − A), Q₂ = 2A² / (1 + A), clamped to [0, 1]:
 * what a report uses above %GRAMMAR_STATS_BOOTSTRAP_LIMIT records, where
 * a bootstrap of the AUROC (a sort a resample) is most of its time.
 *
 * Returns: %TRUE when the interval is defined (both classes present)
 */
gboolean
grammar_stats_auroc_normal (double area, guint64 positives, guint64 negatives, double *low, double *high)
{
  double q1, q2, variance, half;

  if (positives == 0 || negatives == 0 || !isfinite (area))
    return FALSE;
  q1 = area / (2.0 - area);
  q2 = 2.0 * area * area / (1.0 + area);
  variance = (area * (1.0 - area) + (positives - 1.0) * (q1 - area * area) + (negatives - 1.0) * (q2 - area * area)) /
             ((double) positives * (double) negatives);
  half = GRAMMAR_STATS_Z95 * sqrt (MAX (variance, 0.0));
  *low = MAX (area - half, 0.0);
  *high = MIN (area + half, 1.0);
  return TRUE;
}

typedef struct
{
  double magnitude;
  gboolean positive;
} Difference;

static int
compare_magnitudes (const void *a, const void *b)
{
  return compare_doubles (&((const Difference *) a)->magnitude, &((const Difference *) b)->magnitude);
}

/*
 * grammar_stats_wilcoxon:
 * @differences: paired differences (b − a)
 * @n: how many
 * @nonzero: (out): how many differences are not zero (the pairs the test uses)
 * @w_plus: (out): the sum of the ranks of the positive differences
 * @z: (out): the normal approximation's z (positive: b higher)
 * @p: (out): the two-sided p-value erfc (|z| / sqrt 2)
 *
 * The Wilcoxon signed-rank test of paired differences: zero differences
 * are dropped (Wilcoxon's convention), the magnitudes ranked with
 * mid-ranks for ties (differences within 1e-12 are tied), and W+ compared
 * with its null mean n(n+1)/4 under the variance n(n+1)(2n+1)/24 minus
 * Σ(t³ − t)/48 over tie groups, with a continuity correction of 1/2.
 *
 * Returns: %TRUE when the test is defined (at least one nonzero
 *   difference); otherwise @z is 0 and @p is 1
 */
gboolean
grammar_stats_wilcoxon (const double *differences, guint n, guint *nonzero, double *w_plus, double *z, double *p)
{
  g_autofree Difference *items = g_new (Difference, MAX (n, 1));
  guint m = 0;
  double sum = 0.0, mean, variance, ties = 0.0, shifted;

  for (guint i = 0; i < n; i++)
    if (fabs (differences[i]) > 1e-12)
      {
        items[m].magnitude = fabs (differences[i]);
        items[m].positive = differences[i] > 0;
        m++;
      }
  *nonzero = m;
  *w_plus = 0.0;
  *z = 0.0;
  *p = 1.0;
  if (m == 0)
    return FALSE;
  qsort (items, m, sizeof (Difference), compare_magnitudes);
  for (guint i = 0; i < m;)
    {
      guint j = i;
      double t;

      while (j < m && items[j].magnitude - items[i].magnitude <= 1e-12)
        j++;
      t = j - i;
      ties += t * t * t - t;
      for (guint k = i; k < j; k++)
        if (items[k].positive)
          sum += (i + 1.0 + j) / 2.0;
      i = j;
    }
  mean = m * (m + 1.0) / 4.0;
  variance = m * (m + 1.0) * (2.0 * m + 1.0) / 24.0 - ties / 48.0;
  *w_plus = sum;
  if (variance <= 0.0)
    return TRUE;
  shifted = sum - mean;
  shifted = shifted > 0.5 ? shifted - 0.5 : shifted < -0.5 ? shifted + 0.5 : 0.0;
  *z = shifted / sqrt (variance);
  *p = erfc (fabs (*z) / G_SQRT2);
  return TRUE;
}
