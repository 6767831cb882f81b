/* grammar-stats.c: the few statistics the evaluation needs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

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
