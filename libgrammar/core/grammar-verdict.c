/* grammar-verdict.c: the outcome of judging a response
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-verdict.h"

/**
 * GrammarVerdict:
 *
 * What a matcher decided about a response: its kind (correct, incorrect
 * or unmeasured), a score between 0 and 1 (1 for a plain correct
 * verdict, 0 for a plain incorrect one, anything in between for a graded
 * matcher), an optional human-readable reason and the name of the
 * matcher that decided. Verdicts are immutable once made.
 */
struct _GrammarVerdict
{
  GObject parent_instance;

  GrammarVerdictKind kind;
  double score;
  char *reason;
  char *matcher;
};

G_DEFINE_FINAL_TYPE (GrammarVerdict, grammar_verdict, G_TYPE_OBJECT)

static const char * const kind_names[] = {
  [GRAMMAR_VERDICT_UNMEASURED] = "unmeasured",
  [GRAMMAR_VERDICT_CORRECT] = "correct",
  [GRAMMAR_VERDICT_INCORRECT] = "incorrect",
};

static void
grammar_verdict_finalize (GObject *object)
{
  GrammarVerdict *self = GRAMMAR_VERDICT (object);

  g_free (self->reason);
  g_free (self->matcher);

  G_OBJECT_CLASS (grammar_verdict_parent_class)->finalize (object);
}

static void
grammar_verdict_class_init (GrammarVerdictClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_verdict_finalize;
}

static void
grammar_verdict_init (GrammarVerdict *self)
{
}

/**
 * grammar_verdict_new:
 * @kind: the outcome
 * @score: the score, from 0 (wrong) to 1 (right)
 * @reason: (nullable): why the matcher decided so, or %NULL
 * @matcher: (nullable): the name of the matcher that decided, or %NULL
 *
 * Makes a verdict. Matcher plugins call this for each record they judge.
 *
 * Returns: (transfer full): a new #GrammarVerdict
 */
GrammarVerdict *
grammar_verdict_new (GrammarVerdictKind  kind,
                     double              score,
                     const char         *reason,
                     const char         *matcher)
{
  GrammarVerdict *self;

  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (kind_names), NULL);

  self = g_object_new (GRAMMAR_TYPE_VERDICT, NULL);
  self->kind = kind;
  self->score = score;
  self->reason = g_strdup (reason);
  self->matcher = g_strdup (matcher);
  return self;
}

/**
 * grammar_verdict_get_kind:
 * @self: a #GrammarVerdict
 *
 * Returns: the outcome
 */
GrammarVerdictKind
grammar_verdict_get_kind (GrammarVerdict *self)
{
  g_return_val_if_fail (GRAMMAR_IS_VERDICT (self), GRAMMAR_VERDICT_UNMEASURED);
  return self->kind;
}

/**
 * grammar_verdict_get_score:
 * @self: a #GrammarVerdict
 *
 * Returns: the score, from 0 (wrong) to 1 (right)
 */
double
grammar_verdict_get_score (GrammarVerdict *self)
{
  g_return_val_if_fail (GRAMMAR_IS_VERDICT (self), 0.0);
  return self->score;
}

/**
 * grammar_verdict_get_reason:
 * @self: a #GrammarVerdict
 *
 * Returns: (nullable): why the matcher decided so, or %NULL
 */
const char *
grammar_verdict_get_reason (GrammarVerdict *self)
{
  g_return_val_if_fail (GRAMMAR_IS_VERDICT (self), NULL);
  return self->reason;
}

/**
 * grammar_verdict_get_matcher:
 * @self: a #GrammarVerdict
 *
 * Returns: (nullable): the name of the matcher that decided, or %NULL
 */
const char *
grammar_verdict_get_matcher (GrammarVerdict *self)
{
  g_return_val_if_fail (GRAMMAR_IS_VERDICT (self), NULL);
  return self->matcher;
}

/**
 * grammar_verdict_kind_to_string:
 * @kind: a verdict kind
 *
 * Names a verdict kind as the JSON Lines files spell it: `unmeasured`,
 * `correct` or `incorrect`.
 *
 * Returns: the name of @kind
 */
const char *
grammar_verdict_kind_to_string (GrammarVerdictKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (kind_names), NULL);
  return kind_names[kind];
}

/**
 * grammar_verdict_kind_from_string:
 * @text: `unmeasured`, `correct` or `incorrect`
 * @kind: (out) (optional): return location for the kind
 *
 * Parses the name of a verdict kind, as written by
 * grammar_verdict_kind_to_string(). The match is exact.
 *
 * Returns: %TRUE if @text names a kind; %FALSE, leaving @kind untouched, otherwise
 */
gboolean
grammar_verdict_kind_from_string (const char         *text,
                                  GrammarVerdictKind *kind)
{
  g_return_val_if_fail (text != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (g_strcmp0 (text, kind_names[i]) == 0)
      {
        if (kind != NULL)
          *kind = (GrammarVerdictKind) i;
        return TRUE;
      }
  return FALSE;
}
