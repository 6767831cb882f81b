/* grammar-comparison.c: the hypothesis test between two judged runs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "grammar-error.h"
#include "grammar-comparison.h"
#include "grammar-evaluation-private.h"
#include "grammar-json-private.h"
#include "grammar-stats-private.h"

/**
 * GrammarComparison:
 *
 * Tests whether two judged runs of one dataset differ in robustness,
 * and which module accounts for the difference: the two runs are
 * typically the same queries worded in two styles (the hypothesis being
 * that one style is harder for the system), or one wording for two
 * systems.
 *
 * Groups are paired by their id; groups of only one run are left out.
 * Groups that are gaps in both runs are removed, since neither run
 * knows their answer. With balancing, the run whose remaining gap
 * groups hold the larger share λ of its records drops its gap groups,
 * the last by id first, until its λ is no larger than the other's, so
 * that accuracy compares like with like.
 *
 * Accuracy, robustness, retrieval accuracy and retrieval robustness are
 * then compared with a pooled two-proportion z-test (two-sided).
 *
 * The two figures answer different questions. Robustness R, as the
 * GRAMMAR paper defines it (§3.3, Eq. 1), is each run's accuracy
 * without its own gap groups: wording apart from knowledge. Accuracy
 * over the compared groups (the gaps of both runs gone) also counts a
 * group that is a gap in one run only, which the other run answered, so
 * a failure of that wording. Since accuracy = R × (1 − λ) (Eq. 2), they
 * part when the runs' shares λ of gap-group records differ. The
 * conclusion names both, and when they point in opposite directions or
 * only one is significant it says so, with λ when that explains it,
 * instead of choosing one (see `agreement`).
 *
 * The JSON members `less_robust`, `significant` and `module` are those
 * of the accuracy test: the run with the lower accuracy; whether its
 * p-value is below alpha; and, when it is, `retrieval` when retrieval
 * accuracy (language-model errors removed) differs significantly too, in
 * the same direction and by at least half the accuracy difference,
 * `both` when it differs significantly but by less, `language-model`
 * otherwise; `unknown` when retrieval accuracy is undefined on a side
 * (its system reported no documents, so nothing says whether the
 * context was sufficient). `undetermined` when the accuracy difference
 * is not significant.
 */
/* One side of the comparison: the groups it keeps. */
typedef struct
{
  GrammarEvaluation *evaluation;
  GPtrArray *groups;   /* GrammarEvaluationGroup, unowned, sorted by id */
  GrammarEvaluationTally tally;
  const char *name;    /* how the conclusion calls it */
} Side;

static double
lambda (const Side *side)
{
  return grammar_evaluation_rate (side->tally.group_instances[GRAMMAR_GROUP_GAP], side->tally.instances);
}

static void
side_tally (Side *side)
{
  memset (&side->tally, 0, sizeof side->tally);
  for (guint i = 0; i < side->groups->len; i++)
    grammar_evaluation_tally_add (&side->tally, g_ptr_array_index (side->groups, i));
}

/* The side with the larger λ drops its gap groups, the last by id
 * first, until its λ is no larger than the other's. */
static void
balance_sides (Side *a,
         Side *b)
{
  Side *larger = lambda (a) > lambda (b) ? a : b;
  Side *smaller = larger == a ? b : a;

  for (guint i = larger->groups->len; i > 0 && lambda (larger) > lambda (smaller); i--)
    {
      GrammarEvaluationGroup *group = g_ptr_array_index (larger->groups, i - 1);

      if (group->tag == GRAMMAR_GROUP_GAP)
        {
          g_ptr_array_remove_index (larger->groups, i - 1);
          side_tally (larger);
        }
    }
}

typedef struct
{
  const char *metric;
  guint64 successes[2];
  guint64 n[2];
  double rate[2];
  double difference;   /* a − b, NAN when a rate is undefined */
  double z;            /* NAN when undefined */
  double p;
} Test;

static void
run_test (Test       *test,
          const char *metric,
          guint64     successes_a,
          guint64     n_a,
          guint64     successes_b,
          guint64     n_b)
{
  test->metric = metric;
  test->successes[0] = successes_a;
  test->n[0] = n_a;
  test->successes[1] = successes_b;
  test->n[1] = n_b;
  for (guint i = 0; i < 2; i++)
    test->rate[i] = grammar_evaluation_rate (test->successes[i], test->n[i]);
  test->difference = test->rate[0] - test->rate[1];
  if (!grammar_stats_two_proportion_z (successes_a, n_a, successes_b, n_b, &test->z, &test->p))
    {
      /* Both samples all successes (or all failures): no difference. */
      gboolean same = n_a > 0 && n_b > 0;

      test->z = same ? 0.0 : NAN;
      test->p = same ? 1.0 : NAN;
    }
}

enum { ACCURACY, ROBUSTNESS, RETRIEVAL_ACCURACY, RETRIEVAL_ROBUSTNESS, N_TESTS };

static void
run_tests (Test       tests[N_TESTS],
           const Side *a,
           const Side *b)
{
  const GrammarEvaluationTally *ta = &a->tally, *tb = &b->tally;

  run_test (&tests[ACCURACY], "accuracy", ta->correct, ta->measured, tb->correct, tb->measured);
  run_test (&tests[ROBUSTNESS], "robustness", ta->answered_correct, ta->answered_measured,
            tb->answered_correct, tb->answered_measured);
  run_test (&tests[RETRIEVAL_ACCURACY], "retrieval_accuracy", ta->retrieval_correct, ta->retrieval_measured,
            tb->retrieval_correct, tb->retrieval_measured);
  run_test (&tests[RETRIEVAL_ROBUSTNESS], "retrieval_robustness",
            ta->answered_retrieval_correct, ta->answered_retrieval_measured,
            tb->answered_retrieval_correct, tb->answered_retrieval_measured);
}

/* The verdict */

/* How the robustness test stands to the accuracy test: the case the
 * conclusion words (see doc/report.md, "Reading the conclusion"). */
typedef enum
{
  AGREEMENT_AGREE,            /* both significant, the same way */
  AGREEMENT_OPPOSITE,         /* both significant, opposite ways */
  AGREEMENT_ACCURACY_ONLY,    /* accuracy significant, robustness not */
  AGREEMENT_ROBUSTNESS_ONLY,  /* robustness significant, accuracy not */
  AGREEMENT_NEITHER,
  AGREEMENT_UNDEFINED,        /* a side has no rate for one of them */
} Agreement;

static const char * const agreement_names[] = {
  "agree", "opposite", "accuracy-only", "robustness-only", "neither", "undefined",
};

typedef struct
{
  int less_robust;     /* by accuracy: 0 = a, 1 = b, -1 = neither */
  gboolean significant;
  const char *module;
  Agreement agreement;
} Verdict;

enum { SIDE_EQUAL = -1, SIDE_UNDEFINED = -2 };

/* The side a test rates lower: 0 = a, 1 = b, SIDE_EQUAL or SIDE_UNDEFINED. */
static int
lower_side (const Test *test)
{
  if (!isfinite (test->difference))
    return SIDE_UNDEFINED;
  if (test->difference == 0.0)
    return SIDE_EQUAL;
  return test->difference < 0.0 ? 0 : 1;
}

static gboolean
is_significant (const Test *test,
                double      alpha)
{
  return isfinite (test->p) && test->p < alpha;
}

static Agreement
agree (const Test tests[N_TESTS],
       double     alpha)
{
  const Test *accuracy = &tests[ACCURACY], *robustness = &tests[ROBUSTNESS];
  gboolean by_accuracy = is_significant (accuracy, alpha), by_robustness = is_significant (robustness, alpha);

  if (lower_side (accuracy) == SIDE_UNDEFINED || lower_side (robustness) == SIDE_UNDEFINED)
    return AGREEMENT_UNDEFINED;
  if (by_accuracy && by_robustness)
    return lower_side (accuracy) == lower_side (robustness) ? AGREEMENT_AGREE : AGREEMENT_OPPOSITE;
  if (by_accuracy)
    return AGREEMENT_ACCURACY_ONLY;
  return by_robustness ? AGREEMENT_ROBUSTNESS_ONLY : AGREEMENT_NEITHER;
}

static Verdict
decide (const Test tests[N_TESTS],
        double     alpha)
{
  const Test *accuracy = &tests[ACCURACY];
  const Test *retrieval = &tests[RETRIEVAL_ACCURACY];
  Verdict verdict = { -1, FALSE, "undetermined", agree (tests, alpha) };

  if (lower_side (accuracy) >= 0)
    verdict.less_robust = lower_side (accuracy);
  verdict.significant = is_significant (accuracy, alpha);
  if (!verdict.significant)
    return verdict;

  /* Retrieval unmeasured on a side: language-model errors cannot be
   * told from retrieval's, and blaming either would be a guess. */
  if (!isfinite (retrieval->difference))
    {
      verdict.module = "unknown";
      return verdict;
    }
  /* With language-model errors removed (an incorrect answer on a
   * sufficient context counts as retrieval-correct), what is left of the
   * difference is the retrieval's. A difference in the other direction
   * does not explain this one. */
  if (is_significant (retrieval, alpha) && retrieval->difference * accuracy->difference > 0.0)
    verdict.module = fabs (retrieval->difference) >= fabs (accuracy->difference) / 2.0 ? "retrieval" : "both";
  else
    verdict.module = "language-model";
  return verdict;
}

static char *
format_fixed (double value,
              const char *format)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_strdup ("undefined");
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, format, value));
}

/* "p = 0.036", with a third digit when two would round across alpha. */
static char *
format_p (double p,
          double alpha)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (p))
    return g_strdup ("p undefined");
  if (p < 0.001)
    return g_strdup ("p < 0.001");
  g_ascii_formatd (buffer, sizeof buffer, "%.2g", p);
  if ((g_ascii_strtod (buffer, NULL) < alpha) != (p < alpha))
    g_ascii_formatd (buffer, sizeof buffer, "%.3g", p);
  return g_strdup_printf ("p = %s", buffer);
}

/* "accuracy 0.3935 vs 0.5065", first side first; "0.3935 vs 0.5065"
 * without @label. */
static char *
rates (const char *label,
       const Test *test,
       int         first)
{
  g_autofree char *x = format_fixed (test->rate[first], "%.4f");
  g_autofree char *y = format_fixed (test->rate[1 - first], "%.4f");

  if (label == NULL)
    return g_strdup_printf ("%s vs %s", x, y);
  return g_strdup_printf ("%s %s vs %s", label, x, y);
}

/* "accuracy 0.3935 vs 0.5065, z = -2.83, p = 0.0047" (@label may be
 * NULL), then ", alpha 0.05" when @alpha_text is given; the rates alone
 * when undefined. */
static char *
figures (const char *label,
         const Test *test,
         int         first,
         double      alpha,
         const char *alpha_text)
{
  g_autofree char *text = rates (label, test, first);
  g_autofree char *z = NULL, *p = NULL;
  double z_first;

  if (!isfinite (test->difference))
    return g_steal_pointer (&text);
  /* z changes sign with the order of the sides; no "-0.00" */
  z_first = first == 0 ? test->z : -test->z;
  z = format_fixed (z_first == 0.0 ? 0.0 : z_first, "%.2f");
  p = format_p (test->p, alpha);
  if (alpha_text != NULL)
    return g_strdup_printf ("%s, z = %s, %s, alpha %s", text, z, p, alpha_text);
  return g_strdup_printf ("%s, z = %s, %s", text, z, p);
}

/* The share of a side's measured records that lie in its gap groups:
 * accuracy is robustness times one minus it (GRAMMAR §3.3, Eq. 2). */
static double
measured_gap_share (const Test tests[N_TESTS],
                    int        side)
{
  return 1.0 - grammar_evaluation_rate (tests[ROBUSTNESS].n[side], tests[ACCURACY].n[side]);
}

/* Why the two figures part, given @worse, the side whose gap groups
 * would explain it (the side accuracy rates worse than robustness does):
 * said with λ when that side's gap groups do hold the larger share of
 * its records, in general terms otherwise. */
static char *
explain (const Test  tests[N_TESTS],
         const Side *sides,
         int         worse)
{
  if (measured_gap_share (tests, worse) > measured_gap_share (tests, 1 - worse) &&
      lambda (&sides[worse]) > lambda (&sides[1 - worse]))
    {
      g_autofree char *x = format_fixed (lambda (&sides[worse]), "%.4f");
      g_autofree char *y = format_fixed (lambda (&sides[1 - worse]), "%.4f");

      return g_strdup_printf ("the gap groups of %s hold more of its records (λ %s vs %s), which accuracy counts "
                              "as failures of its wording and robustness leaves out as knowledge gaps "
                              "(GRAMMAR §3.3, Eq. 1)", sides[worse].name, x, y);
    }
  return g_strdup ("robustness leaves each run's knowledge-gap groups out (GRAMMAR §3.3, Eq. 1), accuracy over "
                   "the compared groups counts them");
}

/* "; the accuracy difference remains with language-model errors removed
 * (…): retrieval accounts for it", for a significant accuracy difference. */
static char *
attribute (const Test     tests[N_TESTS],
           const Verdict *verdict,
           int            first,
           double         alpha)
{
  const Test *accuracy = &tests[ACCURACY];
  const Test *retrieval = &tests[RETRIEVAL_ACCURACY];
  g_autofree char *retrieval_rates = rates ("retrieval accuracy", retrieval, first);
  g_autofree char *p = format_p (retrieval->p, alpha);

  if (g_str_equal (verdict->module, "retrieval"))
    return g_strdup_printf ("; the accuracy difference remains with language-model errors removed (%s, %s): "
                            "retrieval accounts for it", retrieval_rates, p);
  if (g_str_equal (verdict->module, "unknown"))
    return g_strdup_printf ("; retrieval was not measured (%s): whether retrieval or the language model accounts "
                            "for it is unknown", retrieval_rates);
  if (g_str_equal (verdict->module, "both"))
    return g_strdup_printf ("; the accuracy difference shrinks by more than half with language-model errors "
                            "removed (%s, %s): both retrieval and the language model account for it",
                            retrieval_rates, p);
  if (is_significant (retrieval, alpha) && retrieval->difference * accuracy->difference < 0.0)
    return g_strdup_printf ("; with language-model errors removed the accuracy difference turns the other way "
                            "(%s, %s): the language model accounts for it", retrieval_rates, p);
  return g_strdup_printf ("; with language-model errors removed the accuracy difference is not significant "
                          "(%s, %s): the language model accounts for it", retrieval_rates, p);
}

/* The side the sentence starts with: the less accurate, else the less
 * robust, else a. */
static int
subject (int by_accuracy,
         int by_robustness)
{
  if (by_accuracy >= 0)
    return by_accuracy;
  return by_robustness >= 0 ? by_robustness : 0;
}

/* Accuracy is defined and robustness is not: a side has no robust or
 * non-robust group among the compared ones. */
static char *
conclude_without_robustness (const Test     tests[N_TESTS],
                             const Verdict *verdict,
                             const Side    *sides,
                             int            first,
                             double         alpha,
                             const char    *tail)
{
  const Test *accuracy = &tests[ACCURACY], *robustness = &tests[ROBUSTNESS];
  const char *s = sides[first].name, *o = sides[1 - first].name;
  g_autofree char *alpha_text = format_fixed (alpha, "%g");
  g_autofree char *acc = figures (NULL, accuracy, first, alpha, verdict->significant ? NULL : alpha_text);
  g_autofree char *rob = rates (NULL, robustness, first);
  g_autofree char *lacking = NULL;
  g_autofree char *claim = NULL;

  if (!isfinite (robustness->rate[0]) && !isfinite (robustness->rate[1]))
    lacking = g_strdup_printf ("neither %s nor %s has a", s, o);
  else
    lacking = g_strdup_printf ("%s has no", isfinite (robustness->rate[0]) ? sides[1].name : sides[0].name);
  if (lower_side (accuracy) == SIDE_EQUAL)
    claim = g_strdup_printf ("%s and %s are equally accurate (%s)", s, o, acc);
  else if (verdict->significant)
    claim = g_strdup_printf ("%s is less robust than %s by accuracy (%s)", s, o, acc);
  else
    claim = g_strdup_printf ("%s is less robust than %s by accuracy, not significantly (%s)", s, o, acc);
  return g_strdup_printf ("%s, and their robustness cannot be compared (%s): %s robust or non-robust group "
                          "among the compared ones, and robustness leaves gap groups out (GRAMMAR §3.3, Eq. 1)%s",
                          claim, rob, lacking, tail);
}

/* The conclusion: one sentence that names the figures it rests on, and
 * says so whenever accuracy and robustness part (opposite directions, or
 * one significant and not the other) instead of choosing one. The
 * wording of each case is in doc/report.md, "Reading the conclusion". */
static char *
conclude (const Test     tests[N_TESTS],
          const Verdict *verdict,
          const Side    *sides,
          double         alpha)
{
  const Test *accuracy = &tests[ACCURACY], *robustness = &tests[ROBUSTNESS];
  int by_accuracy = lower_side (accuracy), by_robustness = lower_side (robustness);
  int first = subject (by_accuracy, by_robustness);
  gboolean acc_significant = is_significant (accuracy, alpha), rob_significant = is_significant (robustness, alpha);
  const char *s = sides[first].name, *o = sides[1 - first].name;
  g_autofree char *alpha_text = format_fixed (alpha, "%g");
  g_autofree char *acc = figures (NULL, accuracy, first, alpha, NULL);
  g_autofree char *acc_alpha = figures (NULL, accuracy, first, alpha, alpha_text);
  g_autofree char *rob = figures (NULL, robustness, first, alpha, NULL);
  g_autofree char *rob_alpha = figures (NULL, robustness, first, alpha, alpha_text);
  g_autofree char *acc_named = figures ("accuracy", accuracy, first, alpha, NULL);
  g_autofree char *rob_named = figures ("robustness", robustness, first, alpha, NULL);
  g_autofree char *rob_named_alpha = figures ("robustness", robustness, first, alpha, alpha_text);
  /* Where accuracy is the harsher figure on the side named first (it
   * alone is significant, or it points the other way), that side's gap
   * groups would explain it; where robustness is, the other side's. */
  g_autofree char *why = explain (tests, sides, verdict->agreement == AGREEMENT_ROBUSTNESS_ONLY &&
                                                by_accuracy != 1 - by_robustness ? 1 - first : first);
  g_autofree char *tail = verdict->significant ? attribute (tests, verdict, first, alpha)
                                               : g_strdup ("; no module can be blamed");
  const char *no_module = "; no module is sought without a significant accuracy difference";

  switch (verdict->agreement)
    {
    case AGREEMENT_UNDEFINED:
      if (by_accuracy == SIDE_UNDEFINED && !isfinite (accuracy->rate[0]) && !isfinite (accuracy->rate[1]))
        return g_strdup_printf ("neither accuracy nor robustness can be compared (%s): neither %s nor %s has a "
                                "measured record in the compared groups", acc_named, s, o);
      if (by_accuracy == SIDE_UNDEFINED)
        return g_strdup_printf ("neither accuracy nor robustness can be compared (%s): %s has no measured record "
                                "in the compared groups", acc_named,
                                isfinite (accuracy->rate[0]) ? sides[1].name : sides[0].name);
      return conclude_without_robustness (tests, verdict, sides, first, alpha, tail);

    case AGREEMENT_AGREE:
      return g_strdup_printf ("%s is less robust than %s by both figures (%s; %s): its wordings fail more often "
                              "whether the knowledge-gap groups are counted (accuracy) or left out (robustness, "
                              "GRAMMAR §3.3, Eq. 1)%s", s, o, acc_named, rob_named, tail);

    case AGREEMENT_ACCURACY_ONLY:
      if (by_robustness == by_accuracy)
        return g_strdup_printf ("%s is less robust than %s by accuracy (%s), but its robustness is not "
                                "significantly lower (%s): %s%s", s, o, acc, rob_alpha, why, tail);
      if (by_robustness == SIDE_EQUAL)
        return g_strdup_printf ("%s is less robust than %s by accuracy (%s), but their robustness is equal (%s): "
                                "%s%s", s, o, acc, rob, why, tail);
      break;

    case AGREEMENT_ROBUSTNESS_ONLY:
      if (by_accuracy == by_robustness)
        return g_strdup_printf ("%s is less robust than %s by robustness (%s), but its accuracy is not "
                                "significantly lower (%s): %s%s", s, o, rob, acc_alpha, why, no_module);
      if (by_accuracy == SIDE_EQUAL)
        return g_strdup_printf ("%s is less robust than %s by robustness (%s), but their accuracy is equal (%s): "
                                "%s%s", s, o, rob, acc, why, no_module);
      break;

    case AGREEMENT_NEITHER:
      if (by_accuracy == SIDE_EQUAL && by_robustness == SIDE_EQUAL)
        return g_strdup_printf ("%s and %s are equally robust by both figures (%s; %s): no difference to attribute",
                                s, o, acc_named, rob_named);
      if (by_accuracy == SIDE_EQUAL)
        return g_strdup_printf ("%s is less robust than %s by robustness, not significantly (%s), and their "
                                "accuracy is equal (%s): no module can be blamed", s, o, rob_alpha, acc);
      if (by_robustness == SIDE_EQUAL)
        return g_strdup_printf ("%s is less robust than %s by accuracy, not significantly (%s), and their "
                                "robustness is equal (%s): no module can be blamed", s, o, acc_alpha, rob);
      if (by_accuracy == by_robustness)
        return g_strdup_printf ("%s is less robust than %s by both figures, but neither significantly (%s; %s): "
                                "no module can be blamed", s, o, acc_named, rob_named_alpha);
      break;

    case AGREEMENT_OPPOSITE:
    default:
      break;
    }

  /* Opposite directions, whatever their significance: both are said. */
  if (acc_significant == rob_significant)
    return g_strdup_printf ("accuracy and robustness disagree, %s significantly: %s has lower accuracy than %s (%s) "
                            "but higher robustness (%s): %s%s", acc_significant ? "both" : "neither", s, o, acc,
                            acc_significant ? rob : rob_alpha, why, tail);
  return g_strdup_printf ("accuracy and robustness disagree: %s has lower accuracy than %s%s (%s) but higher "
                          "robustness%s (%s): %s%s", s, o, acc_significant ? "" : ", not significantly",
                          acc_significant ? acc : acc_alpha, rob_significant ? "" : ", not significantly",
                          rob_significant ? rob : rob_alpha, why, acc_significant ? tail : no_module);
}

/* How the conclusion names a side: its style when each has its own
 * single style, else its file, else "a" / "b". */
static void
name_sides (Side  *sides,
            GStrv  styles[2])
{
  const char *source_a = grammar_evaluation_get_source (sides[0].evaluation);
  const char *source_b = grammar_evaluation_get_source (sides[1].evaluation);

  if (g_strv_length (styles[0]) == 1 && g_strv_length (styles[1]) == 1 &&
      !g_str_equal (styles[0][0], styles[1][0]))
    {
      sides[0].name = styles[0][0];
      sides[1].name = styles[1][0];
    }
  else if (source_a != NULL && source_b != NULL && !g_str_equal (source_a, source_b))
    {
      sides[0].name = source_a;
      sides[1].name = source_b;
    }
  else
    {
      sides[0].name = "a";
      sides[1].name = "b";
    }
}

/* Pairing */

typedef struct
{
  guint shared;
  guint only_a;
  guint only_b;
  guint mutual_gaps;
} Pairing;

struct _GrammarComparison
{
  GObject parent_instance;

  char *sources[2];
  GStrv styles[2];
  Pairing pairing;
  gboolean balance;
  double lambdas[2];
  Test tests[N_TESTS];
  Verdict verdict;
  double alpha;
  char *conclusion;
};

G_DEFINE_FINAL_TYPE (GrammarComparison, grammar_comparison, G_TYPE_OBJECT)

static void
grammar_comparison_finalize (GObject *object)
{
  GrammarComparison *self = GRAMMAR_COMPARISON (object);

  for (guint i = 0; i < 2; i++)
    {
      g_free (self->sources[i]);
      g_strfreev (self->styles[i]);
    }
  g_free (self->conclusion);

  G_OBJECT_CLASS (grammar_comparison_parent_class)->finalize (object);
}

static void
grammar_comparison_class_init (GrammarComparisonClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_comparison_finalize;
}

static void
grammar_comparison_init (GrammarComparison *self)
{
}

/* JSON */

static void
add_run (JsonBuilder *builder,
         const char  *name,
         const char  *source,
         GStrv        styles)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "source");
  if (source != NULL)
    json_builder_add_string_value (builder, source);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "styles");
  json_builder_begin_array (builder);
  for (guint i = 0; styles[i] != NULL; i++)
    json_builder_add_string_value (builder, styles[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
add_sample (JsonBuilder *builder,
            const char  *name,
            const Test  *test,
            guint        side)
{
  double low, high;

  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  grammar_json_add_int (builder, "successes", test->successes[side]);
  grammar_json_add_int (builder, "n", test->n[side]);
  grammar_json_add_number (builder, "rate", test->rate[side]);
  json_builder_set_member_name (builder, "interval");
  if (grammar_stats_wilson (test->successes[side], test->n[side], GRAMMAR_STATS_Z95, &low, &high))
    {
      json_builder_begin_array (builder);
      json_builder_add_double_value (builder, low);
      json_builder_add_double_value (builder, high);
      json_builder_end_array (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
}

static void
add_tests (JsonBuilder *builder,
           const Test   tests[N_TESTS])
{
  json_builder_set_member_name (builder, "tests");
  json_builder_begin_array (builder);
  for (guint i = 0; i < N_TESTS; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "metric");
      json_builder_add_string_value (builder, tests[i].metric);
      add_sample (builder, "a", &tests[i], 0);
      add_sample (builder, "b", &tests[i], 1);
      grammar_json_add_number (builder, "difference", tests[i].difference);
      grammar_json_add_number (builder, "z", tests[i].z);
      grammar_json_add_number (builder, "p", tests[i].p);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* Fills both sides with the shared groups that are not gaps in both. */
static void
pair (Side    *a,
      Side    *b,
      Pairing *pairing)
{
  GPtrArray *groups_a = grammar_evaluation_get_groups (a->evaluation);
  GPtrArray *groups_b = grammar_evaluation_get_groups (b->evaluation);

  for (guint i = 0; i < groups_a->len; i++)
    {
      GrammarEvaluationGroup *group_a = g_ptr_array_index (groups_a, i);
      GrammarEvaluationGroup *group_b = grammar_evaluation_lookup_group (b->evaluation, group_a->id);

      if (group_b == NULL)
        {
          pairing->only_a++;
          continue;
        }
      pairing->shared++;
      if (group_a->tag == GRAMMAR_GROUP_GAP && group_b->tag == GRAMMAR_GROUP_GAP)
        {
          pairing->mutual_gaps++;
          continue;
        }
      g_ptr_array_add (a->groups, group_a);
      g_ptr_array_add (b->groups, group_b);
    }
  pairing->only_b = groups_b->len - pairing->shared;
}

/**
 * grammar_comparison_new:
 * @a: the evaluation of one run
 * @b: the evaluation of the other run, of the same dataset
 * @balance: whether to balance the share of gap-group records (see #GrammarComparison)
 * @alpha: the significance level, between 0 and 1 (0.05 is usual)
 * @error: return location for a #GError
 *
 * Compares two evaluations (see #GrammarComparison). Fails with
 * %GRAMMAR_ERROR_INVALID_INPUT when they share no group id (they are of
 * different datasets) or @alpha is not between 0 and 1.
 *
 * Returns: (transfer full) (nullable): the comparison, or %NULL with @error set
 */
GrammarComparison *
grammar_comparison_new (GrammarEvaluation  *a,
                        GrammarEvaluation  *b,
                        gboolean            balance,
                        double              alpha,
                        GError            **error)
{
  g_autoptr (GrammarComparison) self = NULL;
  g_autoptr (GPtrArray) groups_a = g_ptr_array_new ();
  g_autoptr (GPtrArray) groups_b = g_ptr_array_new ();
  Side sides[2] = { { a, groups_a, }, { b, groups_b, } };

  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (a), NULL);
  g_return_val_if_fail (GRAMMAR_IS_EVALUATION (b), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(alpha > 0.0 && alpha < 1.0))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "the significance level alpha must be between 0 and 1 (0.05 is usual)");
      return NULL;
    }

  self = g_object_new (GRAMMAR_TYPE_COMPARISON, NULL);
  pair (&sides[0], &sides[1], &self->pairing);
  if (self->pairing.shared == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s and %s share no group: compare two runs of the same dataset",
                   grammar_evaluation_get_source (a) != NULL ? grammar_evaluation_get_source (a) : "the first run",
                   grammar_evaluation_get_source (b) != NULL ? grammar_evaluation_get_source (b) : "the second run");
      return NULL;
    }
  side_tally (&sides[0]);
  side_tally (&sides[1]);
  if (balance)
    balance_sides (&sides[0], &sides[1]);

  self->balance = balance;
  self->alpha = alpha;
  for (guint i = 0; i < 2; i++)
    {
      self->sources[i] = g_strdup (grammar_evaluation_get_source (sides[i].evaluation));
      self->styles[i] = grammar_evaluation_dup_styles (sides[i].evaluation);
      self->lambdas[i] = lambda (&sides[i]);
    }
  name_sides (sides, self->styles);
  run_tests (self->tests, &sides[0], &sides[1]);
  self->verdict = decide (self->tests, alpha);
  self->conclusion = conclude (self->tests, &self->verdict, sides, alpha);
  return g_steal_pointer (&self);
}

/**
 * grammar_comparison_to_json:
 * @self: a #GrammarComparison
 *
 * Makes the `comparison` object of the report (described in the
 * evaluation guide): the pairing of the groups, λ of both runs, the four
 * tests (accuracy, robustness, retrieval accuracy, retrieval robustness)
 * with rates, Wilson 95 % intervals, difference a − b, z and two-sided p,
 * then `less_robust`, `significant`, `alpha`, `module` (these four of the
 * accuracy test), `agreement` (how the robustness test stands to it:
 * `agree`, `opposite`, `accuracy-only`, `robustness-only`, `neither` or
 * `undefined`) and `conclusion`.
 *
 * Returns: (transfer full): the comparison as a JSON object
 */
JsonNode *
grammar_comparison_to_json (GrammarComparison *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_COMPARISON (self), NULL);

  json_builder_begin_object (builder);
  add_run (builder, "a", self->sources[0], self->styles[0]);
  add_run (builder, "b", self->sources[1], self->styles[1]);
  grammar_json_add_int (builder, "shared_groups", self->pairing.shared);
  grammar_json_add_int (builder, "only_a", self->pairing.only_a);
  grammar_json_add_int (builder, "only_b", self->pairing.only_b);
  grammar_json_add_int (builder, "mutual_gap_groups_removed", self->pairing.mutual_gaps);
  grammar_json_add_int (builder, "groups_compared", self->pairing.shared - self->pairing.mutual_gaps);
  json_builder_set_member_name (builder, "balance");
  json_builder_add_boolean_value (builder, self->balance);
  grammar_json_add_number (builder, "lambda_a", self->lambdas[0]);
  grammar_json_add_number (builder, "lambda_b", self->lambdas[1]);
  add_tests (builder, self->tests);
  json_builder_set_member_name (builder, "less_robust");
  if (self->verdict.less_robust >= 0)
    json_builder_add_string_value (builder, self->verdict.less_robust == 0 ? "a" : "b");
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "significant");
  json_builder_add_boolean_value (builder, self->verdict.significant);
  grammar_json_add_number (builder, "alpha", self->alpha);
  json_builder_set_member_name (builder, "module");
  json_builder_add_string_value (builder, self->verdict.module);
  json_builder_set_member_name (builder, "agreement");
  json_builder_add_string_value (builder, agreement_names[self->verdict.agreement]);
  json_builder_set_member_name (builder, "conclusion");
  json_builder_add_string_value (builder, self->conclusion);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/**
 * grammar_comparison_get_conclusion:
 * @self: a #GrammarComparison
 *
 * The conclusion names the figures it rests on, accuracy over the
 * compared groups and robustness (accuracy without each run's gap
 * groups), and says so in the same sentence when they point in opposite
 * directions or only one of them is significant.
 *
 * Returns: the conclusion in one line, e.g. `long is less robust than short by both figures (accuracy 0.3935 vs 0.5065, z = -2.83, p = 0.0047; robustness …): …: retrieval accounts for it`
 */
const char *
grammar_comparison_get_conclusion (GrammarComparison *self)
{
  g_return_val_if_fail (GRAMMAR_IS_COMPARISON (self), NULL);
  return self->conclusion;
}
