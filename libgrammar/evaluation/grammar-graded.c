/* grammar-graded.c: figures measured record by record, summed up by slice with
 * intervals and compared between two runs paired by semantic group
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-graded-private.h"
#include "grammar-json-private.h"
#include "grammar-stats-private.h"

/* The retrieval metrics and the keypoint metrics share this: each record
 * gives one value per figure (NAN: not measured for that record), and a
 * figure is the mean over the records that measured it, with its 95 %
 * interval, overall and by style, template and group tag. Two tables
 * are compared on the semantic groups both measured: the mean of each
 * group's records on each side, their differences tested with
 * Wilcoxon's signed-rank test. */

/* A report of millions of records holds one Row each, 20 bytes: its
 * strings are numbers in names, and its values are kept once per
 * distinct vector of values (these figures take few: 0, 1/k, 1/rank, …). */
typedef struct
{
  guint32 style;            /* index in names; 0 for none */
  guint32 template_id;
  guint32 group;
  guint32 tag;
  guint32 vector;           /* the row's values: n_figures from vectors[vector * n_figures] */
} Row;

struct _GrammarGraded
{
  GrammarGradedFigure *figures;
  guint n_figures;
  guint seed;
  guint resamples;
  GStringChunk *strings;
  GPtrArray *names;         /* interned string of each number; names[0] = NULL */
  GHashTable *name_index;   /* interned string → its number */
  GArray *rows;             /* Row */
  GArray *vectors;          /* double, n_figures per distinct vector */
  GHashTable *vector_index; /* GBytes of a vector → its index + 1 */
};

GrammarGraded *
grammar_graded_new (const GrammarGradedFigure *figures,
                    guint                      n_figures,
                    guint                      seed,
                    guint                      resamples)
{
  GrammarGraded *self = g_new0 (GrammarGraded, 1);

  self->figures = g_memdup2 (figures, n_figures * sizeof (GrammarGradedFigure));
  self->n_figures = n_figures;
  self->seed = seed;
  self->resamples = resamples;
  self->strings = g_string_chunk_new (1024);
  self->names = g_ptr_array_new ();
  g_ptr_array_add (self->names, NULL);
  self->name_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  self->vectors = g_array_new (FALSE, FALSE, sizeof (double));
  self->vector_index = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  return self;
}

void
grammar_graded_free (GrammarGraded *self)
{
  if (self == NULL)
    return;
  g_free (self->figures);
  g_string_chunk_free (self->strings);
  g_ptr_array_unref (self->names);
  g_hash_table_unref (self->name_index);
  g_array_unref (self->rows);
  g_array_unref (self->vectors);
  g_hash_table_unref (self->vector_index);
  g_free (self);
}

/* The number of @text (0 for NULL). */
static guint32
intern (GrammarGraded *self,
        const char    *text)
{
  guint32 number;

  if (text == NULL)
    return 0;
  number = GPOINTER_TO_UINT (g_hash_table_lookup (self->name_index, text));
  if (number == 0)
    {
      char *copy = g_string_chunk_insert (self->strings, text);

      number = self->names->len;
      g_ptr_array_add (self->names, copy);
      g_hash_table_insert (self->name_index, copy, GUINT_TO_POINTER (number));
    }
  return number;
}

static const char *
name_of (GrammarGraded *self,
         guint32        number)
{
  return g_ptr_array_index (self->names, number);
}

void
grammar_graded_add (GrammarGraded *self,
                    const char    *style,
                    const char    *template_id,
                    const char    *group,
                    const char    *tag,
                    const double  *values)
{
  Row row = { intern (self, style), intern (self, template_id), intern (self, group), intern (self, tag), 0 };
  /* compared bit for bit: the same computation gives the same NAN */
  gsize size = self->n_figures * sizeof (double);
  g_autoptr (GBytes) key = g_bytes_new_static (values, size);
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->vector_index, key));

  if (index == 0)
    {
      index = self->vectors->len / MAX (self->n_figures, 1) + 1;
      g_array_append_vals (self->vectors, values, self->n_figures);
      g_hash_table_insert (self->vector_index, g_bytes_new (values, size), GUINT_TO_POINTER (index));
    }
  row.vector = index - 1;
  g_array_append_val (self->rows, row);
}

/* Sets the tag of the rows added without one, from their group: the
 * tags of a run are known only once all its records are read. */
void
grammar_graded_set_tags (GrammarGraded             *self,
                         GrammarGradedTagFunc       tag_of,
                         gpointer                   data)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      if (row->tag == 0 && row->group != 0)
        row->tag = intern (self, tag_of (name_of (self, row->group), data));
    }
}

guint
grammar_graded_get_n_records (GrammarGraded *self)
{
  return self->rows->len;
}

static double
value_at (GrammarGraded *self,
          guint          row,
          guint          figure)
{
  guint vector = g_array_index (self->rows, Row, row).vector;

  return g_array_index (self->vectors, double, vector * self->n_figures + figure);
}

/* The members of one figure over the rows @indices. */
static void
add_figure (GrammarGraded *self,
            JsonBuilder   *builder,
            guint          figure,
            GArray        *indices)
{
  const GrammarGradedFigure *spec = &self->figures[figure];
  g_autoptr (GArray) measured = g_array_new (FALSE, FALSE, sizeof (double));
  double sum = 0.0, lo = 0.0, hi = 0.0;
  const char *method = "wilson";
  gboolean defined;

  for (guint i = 0; i < indices->len; i++)
    {
      double value = value_at (self, g_array_index (indices, guint, i), figure);

      if (isnan (value))
        continue;
      g_array_append_val (measured, value);
      sum += value;
    }
  json_builder_set_member_name (builder, spec->name);
  json_builder_begin_object (builder);
  grammar_json_add_int (builder, "n", measured->len);
  grammar_json_add_number (builder, "value", measured->len > 0 ? sum / measured->len : NAN);
  if (spec->proportion)
    {
      guint64 successes = (guint64) llround (sum);

      grammar_json_add_int (builder, "successes", successes);
      defined = grammar_stats_wilson (successes, measured->len, GRAMMAR_STATS_Z95, &lo, &hi);
    }
  else
    defined = grammar_stats_mean_interval ((double *) measured->data, measured->len, self->resamples, self->seed,
                                           &lo, &hi, &method);
  grammar_json_add_interval (builder, "interval", defined, lo, hi);
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, method);
  json_builder_end_object (builder);
}

static void
add_figures (GrammarGraded *self,
             JsonBuilder   *builder,
             GArray        *indices)
{
  grammar_json_add_int (builder, "records", indices->len);
  for (guint f = 0; f < self->n_figures; f++)
    add_figure (self, builder, f, indices);
}

/* Adds the figures of the records of @style (NULL: all) as members of an
 * open object. */
void
grammar_graded_build_figures (GrammarGraded *self,
                              JsonBuilder   *builder,
                              const char    *style)
{
  g_autoptr (GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < self->rows->len; i++)
    if (style == NULL || g_strcmp0 (name_of (self, g_array_index (self->rows, Row, i).style), style) == 0)
      g_array_append_val (indices, i);
  add_figures (self, builder, indices);
}

typedef enum { SLICE_STYLE, SLICE_TEMPLATE, SLICE_TAG } SliceKind;

static const char *
slice_key (GrammarGraded *self,
           const Row     *row,
           SliceKind      kind)
{
  const char *key = name_of (self, kind == SLICE_STYLE ? row->style : kind == SLICE_TEMPLATE ? row->template_id
                                                                                            : row->tag);

  return key != NULL ? key : "(none)";
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
add_breakdown (GrammarGraded *self,
               JsonBuilder   *builder,
               const char    *name,
               SliceKind      kind)
{
  g_autoptr (GHashTable) slices = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                          (GDestroyNotify) g_array_unref);
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();

  for (guint i = 0; i < self->rows->len; i++)
    {
      const char *key = slice_key (self, &g_array_index (self->rows, Row, i), kind);
      GArray *indices = g_hash_table_lookup (slices, key);

      if (indices == NULL)
        {
          indices = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (slices, (gpointer) key, indices);
          g_ptr_array_add (keys, (gpointer) key);
        }
      g_array_append_val (indices, i);
    }
  g_ptr_array_sort (keys, compare_keys);
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  for (guint k = 0; k < keys->len; k++)
    {
      json_builder_set_member_name (builder, g_ptr_array_index (keys, k));
      json_builder_begin_object (builder);
      add_figures (self, builder, g_hash_table_lookup (slices, g_ptr_array_index (keys, k)));
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
}

/* Adds `overall`, `by_style`, `by_template` and `by_group` (the group's
 * tag) as members of an open object. */
void
grammar_graded_build_slices (GrammarGraded *self,
                             JsonBuilder   *builder)
{
  json_builder_set_member_name (builder, "overall");
  json_builder_begin_object (builder);
  grammar_graded_build_figures (self, builder, NULL);
  json_builder_end_object (builder);
  add_breakdown (self, builder, "by_style", SLICE_STYLE);
  add_breakdown (self, builder, "by_template", SLICE_TEMPLATE);
  add_breakdown (self, builder, "by_group", SLICE_TAG);
}

typedef struct
{
  double sum;
  guint n;
} GroupMean;

/* group → mean of @figure over the records of @style (NULL: all). */
static GHashTable *
group_means (GrammarGraded *self,
             guint          figure,
             const char    *style)
{
  GHashTable *means = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double value = value_at (self, i, figure);
      GroupMean *mean;

      if (row->group == 0 || isnan (value) || (style != NULL && g_strcmp0 (name_of (self, row->style), style) != 0))
        continue;
      mean = g_hash_table_lookup (means, name_of (self, row->group));
      if (mean == NULL)
        g_hash_table_insert (means, (gpointer) name_of (self, row->group), mean = g_new0 (GroupMean, 1));
      mean->sum += value;
      mean->n++;
    }
  return means;
}

/* Adds one member per figure: the two sides paired by semantic group. */
void
grammar_graded_build_paired (GrammarGraded *a,
                             const char    *style_a,
                             GrammarGraded *b,
                             const char    *style_b,
                             double         alpha,
                             JsonBuilder   *builder)
{
  g_return_if_fail (a->n_figures == b->n_figures);

  for (guint f = 0; f < a->n_figures; f++)
    {
      g_autoptr (GHashTable) means_a = group_means (a, f, style_a);
      g_autoptr (GHashTable) means_b = group_means (b, f, style_b);
      g_autoptr (GPtrArray) groups = g_ptr_array_new ();
      g_autoptr (GArray) differences = g_array_new (FALSE, FALSE, sizeof (double));
      GHashTableIter iter;
      gpointer key, data;
      double sum_a = 0.0, sum_b = 0.0, w_plus, z, p, lo = 0.0, hi = 0.0;
      const char *method;
      guint a_higher = 0, b_higher = 0, nonzero, n;
      gboolean tested, defined;

      g_hash_table_iter_init (&iter, means_a);
      while (g_hash_table_iter_next (&iter, &key, &data))
        if (g_hash_table_contains (means_b, key))
          g_ptr_array_add (groups, key);
      g_ptr_array_sort (groups, compare_keys);
      n = groups->len;
      for (guint g = 0; g < n; g++)
        {
          GroupMean *ma = g_hash_table_lookup (means_a, g_ptr_array_index (groups, g));
          GroupMean *mb = g_hash_table_lookup (means_b, g_ptr_array_index (groups, g));
          double va = ma->sum / ma->n, vb = mb->sum / mb->n, d = vb - va;

          sum_a += va;
          sum_b += vb;
          g_array_append_val (differences, d);
          if (d > 1e-12)
            b_higher++;
          else if (d < -1e-12)
            a_higher++;
        }
      tested = grammar_stats_wilcoxon ((double *) differences->data, n, &nonzero, &w_plus, &z, &p);
      defined = grammar_stats_mean_interval ((double *) differences->data, n, a->resamples, a->seed, &lo, &hi,
                                             &method);

      json_builder_set_member_name (builder, a->figures[f].name);
      json_builder_begin_object (builder);
      grammar_json_add_int (builder, "pairs", n);
      grammar_json_add_number (builder, "a", n > 0 ? sum_a / n : NAN);
      grammar_json_add_number (builder, "b", n > 0 ? sum_b / n : NAN);
      grammar_json_add_number (builder, "difference", n > 0 ? (sum_b - sum_a) / n : NAN);
      grammar_json_add_interval (builder, "interval", defined, lo, hi);
      json_builder_set_member_name (builder, "interval_method");
      json_builder_add_string_value (builder, method);
      grammar_json_add_int (builder, "a_higher", a_higher);
      grammar_json_add_int (builder, "b_higher", b_higher);
      grammar_json_add_int (builder, "ties", n - a_higher - b_higher);
      json_builder_set_member_name (builder, "test");
      json_builder_add_string_value (builder, "Wilcoxon signed-rank");
      grammar_json_add_int (builder, "nonzero", nonzero);
      grammar_json_add_number (builder, "w_plus", tested ? w_plus : NAN);
      grammar_json_add_number (builder, "z", tested ? z : NAN);
      grammar_json_add_number (builder, "p", tested ? p : NAN);
      json_builder_set_member_name (builder, "significant");
      json_builder_add_boolean_value (builder, tested && p < alpha);
      json_builder_end_object (builder);
    }
}
