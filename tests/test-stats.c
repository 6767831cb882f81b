/* test-stats.c: the interval of a mean, bootstrapped up to
 * GRAMMAR_STATS_BOOTSTRAP_LIMIT values and normal above, against figures
 * computed by hand; the Wilson interval of a proportion at its ends
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <glib.h>

#include "grammar-stats-private.h"

#define RESAMPLES 1000
#define SEED 1

/* n values of 0 and 1, the first ones 1. */
static double *
zeros_and_ones (guint n,
                guint ones)
{
  double *values = g_new (double, n);

  for (guint i = 0; i < n; i++)
    values[i] = i < ones ? 1.0 : 0.0;
  return values;
}

/* At the limit the interval is the bootstrap's, to the bit: reports of up
 * to 2000 records print what they always printed. */
static void
test_bootstrap_at_limit (void)
{
  guint n = GRAMMAR_STATS_BOOTSTRAP_LIMIT;
  g_autofree double *values = g_new (double, n);
  double lo, hi, boot_lo, boot_hi;
  const char *method = NULL;

  g_assert_cmpuint (n, ==, 2000);
  for (guint i = 0; i < n; i++)
    values[i] = (i * 37 % 101) / 100.0;
  g_assert_true (grammar_stats_bootstrap_mean (values, n, RESAMPLES, SEED, &boot_lo, &boot_hi));
  g_assert_true (grammar_stats_mean_interval (values, n, RESAMPLES, SEED, &lo, &hi, &method));
  g_assert_cmpstr (method, ==, "bootstrap");
  g_assert_true (lo == boot_lo);
  g_assert_true (hi == boot_hi);
  g_assert_cmpfloat (lo, <, hi);
}

/* 2001 values alternating 1, 0, 1, …: 1001 ones. Mean m = 1001/2001; the
 * squared deviations sum to n m (1 − m), so s² = n m (1 − m) / (n − 1) and
 * the half width is z s / √n = z √(m (1 − m) / (n − 1)). */
static void
test_normal_above_limit (void)
{
  guint n = GRAMMAR_STATS_BOOTSTRAP_LIMIT + 1;
  g_autofree double *values = g_new (double, n);
  double m = 1001.0 / 2001.0;
  double half = GRAMMAR_STATS_Z95 * sqrt (m * (1.0 - m) / 2000.0);
  double lo, hi;
  const char *method = NULL;

  for (guint i = 0; i < n; i++)
    values[i] = i % 2 == 0 ? 1.0 : 0.0;
  g_assert_true (grammar_stats_mean_interval (values, n, RESAMPLES, SEED, &lo, &hi, &method));
  g_assert_cmpstr (method, ==, "normal");
  g_assert_cmpfloat_with_epsilon (lo, m - half, 1e-12);
  g_assert_cmpfloat_with_epsilon (hi, m + half, 1e-12);
  /* about ± 0.0219 around 0.5002 */
  g_assert_cmpfloat_with_epsilon (half, 0.0219, 0.0001);
}

/* Values far from 0 with a small spread: the sum of squares minus the
 * squared sum would lose the variance to cancellation. 1e9 + (0 or 1)
 * alternating gives the same half width as 0 or 1. */
static void
test_normal_shifted (void)
{
  guint n = GRAMMAR_STATS_BOOTSTRAP_LIMIT + 1;
  g_autofree double *values = g_new (double, n);
  double m = 1001.0 / 2001.0;
  double half = GRAMMAR_STATS_Z95 * sqrt (m * (1.0 - m) / 2000.0);
  double lo, hi;

  for (guint i = 0; i < n; i++)
    values[i] = 1e9 + (i % 2 == 0 ? 1.0 : 0.0);
  g_assert_true (grammar_stats_mean_interval (values, n, RESAMPLES, SEED, &lo, &hi, NULL));
  g_assert_cmpfloat_with_epsilon (hi - lo, 2.0 * half, 1e-6);
  g_assert_cmpfloat_with_epsilon ((lo + hi) / 2.0, 1e9 + m, 1e-6);
}

/* Equal values: no spread, a zero-width interval at the value, on both
 * sides of the limit (the bootstrap's means are sums over n, the value
 * to rounding). */
static void
test_equal_values (void)
{
  const guint sizes[] = { 10, GRAMMAR_STATS_BOOTSTRAP_LIMIT + 1, 5000 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autofree double *values = g_new (double, sizes[k]);
      double lo = NAN, hi = NAN;

      for (guint i = 0; i < sizes[k]; i++)
        values[i] = 0.37;
      g_assert_true (grammar_stats_mean_interval (values, sizes[k], RESAMPLES, SEED, &lo, &hi, NULL));
      g_assert_cmpfloat (lo, ==, hi);
      g_assert_cmpfloat_with_epsilon (lo, 0.37, 1e-12);
    }
}

/* Just above the limit the normal interval is where the bootstrap's would
 * be: the switch does not make the interval jump. p = 0.3: 600 ones. */
static void
test_methods_agree (void)
{
  guint n = GRAMMAR_STATS_BOOTSTRAP_LIMIT + 1;
  g_autofree double *values = zeros_and_ones (n, 600);
  double lo, hi, boot_lo, boot_hi;
  const char *method = NULL;

  g_assert_true (grammar_stats_mean_interval (values, n, RESAMPLES, SEED, &lo, &hi, &method));
  g_assert_cmpstr (method, ==, "normal");
  g_assert_true (grammar_stats_bootstrap_mean (values, n, RESAMPLES, SEED, &boot_lo, &boot_hi));
  g_assert_cmpfloat_with_epsilon (lo, boot_lo, 0.01);
  g_assert_cmpfloat_with_epsilon (hi, boot_hi, 0.01);
  g_assert_cmpfloat (lo, <, 600.0 / 2001.0);
  g_assert_cmpfloat (hi, >, 600.0 / 2001.0);
}

/* No values, or no resamples: no interval, whichever method it would be. */
static void
test_undefined (void)
{
  guint n = GRAMMAR_STATS_BOOTSTRAP_LIMIT + 1;
  g_autofree double *values = zeros_and_ones (n, 1);
  double lo = 7.0, hi = 7.0;
  const char *method = NULL;

  g_assert_false (grammar_stats_mean_interval (values, 0, RESAMPLES, SEED, &lo, &hi, &method));
  g_assert_cmpstr (method, ==, "bootstrap");
  g_assert_false (grammar_stats_mean_interval (values, 10, 0, SEED, &lo, &hi, &method));
  g_assert_cmpstr (method, ==, "bootstrap");
  g_assert_false (grammar_stats_mean_interval (values, n, 0, SEED, &lo, &hi, &method));
  g_assert_cmpstr (method, ==, "normal");
  g_assert_cmpfloat (lo, ==, 7.0);
  g_assert_cmpfloat (hi, ==, 7.0);
}

/* One success among 2001: mean ± z s/√n goes below 0; the interval stops
 * at the smallest value, as every resampled mean would. */
static void
test_clamped (void)
{
  g_autofree double *values = g_new0 (double, 2001);
  double low = -1.0, high = -1.0, mean = 1.0 / 2001.0;
  double s = sqrt ((1.0 - mean) * (1.0 - mean) / 2000.0 + 2000.0 * mean * mean / 2000.0);
  const char *method = NULL;

  values[1000] = 1.0;
  g_assert_true (grammar_stats_mean_interval (values, 2001, 1000, 1, &low, &high, &method));
  g_assert_cmpstr (method, ==, "normal");
  g_assert_cmpfloat (mean - GRAMMAR_STATS_Z95 * s / sqrt (2001.0), <, 0.0);
  g_assert_cmpfloat (low, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (high, mean + GRAMMAR_STATS_Z95 * s / sqrt (2001.0), 1e-12);
}

/* The Wilson interval of a proportion: at p̂ = 1 the upper bound is 1 and
 * at p̂ = 0 the lower bound is 0, exactly, for any n (report.json wrote
 * 0.9999999999999999); in between, the textbook figure (3 of 10:
 * [0.1078, 0.6032]). */
static void
test_wilson (void)
{
  double low = -1.0, high = -1.0;

  for (guint64 n = 1; n <= 5000; n += (n < 100 ? 1 : 997))
    {
      g_assert_true (grammar_stats_wilson (n, n, GRAMMAR_STATS_Z95, &low, &high));
      g_assert_cmpfloat (high, ==, 1.0);
      g_assert_cmpfloat (low, >, 0.0);
      g_assert_cmpfloat (low, <, 1.0);
      g_assert_true (grammar_stats_wilson (0, n, GRAMMAR_STATS_Z95, &low, &high));
      g_assert_cmpfloat (low, ==, 0.0);
      g_assert_cmpfloat (high, >, 0.0);
      g_assert_cmpfloat (high, <, 1.0);
    }
  g_assert_true (grammar_stats_wilson (3, 10, GRAMMAR_STATS_Z95, &low, &high));
  g_assert_cmpfloat_with_epsilon (low, 0.1078, 1e-4);
  g_assert_cmpfloat_with_epsilon (high, 0.6032, 1e-4);
  g_assert_false (grammar_stats_wilson (0, 0, GRAMMAR_STATS_Z95, &low, &high));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stats/mean-interval/bootstrap-at-limit", test_bootstrap_at_limit);
  g_test_add_func ("/stats/mean-interval/normal-above-limit", test_normal_above_limit);
  g_test_add_func ("/stats/mean-interval/normal-shifted", test_normal_shifted);
  g_test_add_func ("/stats/mean-interval/equal-values", test_equal_values);
  g_test_add_func ("/stats/mean-interval/methods-agree", test_methods_agree);
  g_test_add_func ("/stats/mean-interval/clamped", test_clamped);
  g_test_add_func ("/stats/mean-interval/undefined", test_undefined);
  g_test_add_func ("/stats/wilson", test_wilson);
  return g_test_run ();
}
