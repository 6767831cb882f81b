/* grammar-stats-private.h: the few statistics the evaluation needs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The z of a two-sided 95 % interval (the 0.975 quantile of the standard normal). */
#define GRAMMAR_STATS_Z95 1.959963984540054

/* The most values whose mean gets a percentile bootstrap interval; above
 * it, grammar_stats_mean_interval() gives the normal interval, since the
 * bootstrap costs resamples × n random draws. */
#define GRAMMAR_STATS_BOOTSTRAP_LIMIT 2000

G_GNUC_INTERNAL
gboolean grammar_stats_wilson      (guint64  successes,
                                    guint64  n,
                                    double   z,
                                    double  *low,
                                    double  *high);
G_GNUC_INTERNAL
gboolean grammar_stats_two_proportion_z (guint64  successes_a,
                                         guint64  n_a,
                                         guint64  successes_b,
                                         guint64  n_b,
                                         double  *z,
                                         double  *p);

G_GNUC_INTERNAL
gboolean grammar_stats_normal_interval (guint64  successes,
                                        guint64  n,
                                        double   z,
                                        double  *low,
                                        double  *high);
G_GNUC_INTERNAL
double   grammar_stats_auroc        (const double   *scores,
                                     const gboolean *positive,
                                     guint           n);

G_GNUC_INTERNAL
gboolean grammar_stats_auroc_normal (double          area,
                                     guint64         positives,
                                     guint64         negatives,
                                     double         *low,
                                     double         *high);
G_GNUC_INTERNAL
gboolean grammar_stats_bootstrap_mean (const double   *values,
                                       guint           n,
                                       guint           resamples,
                                       guint           seed,
                                       double         *low,
                                       double         *high);
G_GNUC_INTERNAL
gboolean grammar_stats_mean_interval (const double   *values,
                                      guint           n,
                                      guint           resamples,
                                      guint           seed,
                                      double         *low,
                                      double         *high,
                                      const char    **method);
G_GNUC_INTERNAL
gboolean grammar_stats_wilcoxon     (const double   *differences,
                                     guint           n,
                                     guint          *nonzero,
                                     double         *w_plus,
                                     double         *z,
                                     double         *p);

G_END_DECLS
