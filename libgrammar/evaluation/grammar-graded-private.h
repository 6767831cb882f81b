/* grammar-graded-private.h: figures measured record by record, summed up by slice with
 * intervals and compared between two runs paired by semantic group
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* One figure of every record: a proportion (each record 0 or 1, the
 * interval Wilson's) or a graded value in [0, 1] (the interval a seeded
 * percentile bootstrap of the mean, or above GRAMMAR_STATS_BOOTSTRAP_LIMIT
 * values the normal interval: grammar_stats_mean_interval()). */
typedef struct
{
  const char *name;        /* the JSON member */
  gboolean proportion;
} GrammarGradedFigure;

typedef struct _GrammarGraded GrammarGraded;

/* The tag of @group (NULL when unknown). */
typedef const char *(*GrammarGradedTagFunc) (const char *group,
                                             gpointer    data);

G_GNUC_INTERNAL
GrammarGraded *grammar_graded_new          (const GrammarGradedFigure *figures,
                                            guint                      n_figures,
                                            guint                      seed,
                                            guint                      resamples);
G_GNUC_INTERNAL
void           grammar_graded_free         (GrammarGraded             *self);
G_GNUC_INTERNAL
void           grammar_graded_add          (GrammarGraded             *self,
                                            const char                *style,
                                            const char                *template_id,
                                            const char                *group,
                                            const char                *tag,
                                            const double              *values);
G_GNUC_INTERNAL
void           grammar_graded_set_tags     (GrammarGraded             *self,
                                            GrammarGradedTagFunc       tag_of,
                                            gpointer                   data);
G_GNUC_INTERNAL
guint          grammar_graded_get_n_records (GrammarGraded            *self);
G_GNUC_INTERNAL
void           grammar_graded_build_figures (GrammarGraded            *self,
                                             JsonBuilder              *builder,
                                             const char               *style);
G_GNUC_INTERNAL
void           grammar_graded_build_slices (GrammarGraded             *self,
                                            JsonBuilder               *builder);
G_GNUC_INTERNAL
void           grammar_graded_build_paired (GrammarGraded             *a,
                                            const char                *style_a,
                                            GrammarGraded             *b,
                                            const char                *style_b,
                                            double                     alpha,
                                            JsonBuilder               *builder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarGraded, grammar_graded_free)

G_END_DECLS
