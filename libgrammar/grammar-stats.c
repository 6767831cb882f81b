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
  *low = MAX (0.0, centre - half);
  *high = MIN (1.0, centre + half);
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
