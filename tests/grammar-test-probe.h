/* grammar-test-probe.h: a matcher with one property of every kind a keyfile can set
 *
 * Shared by test-config and the config fuzz harness: `plugin=probe`
 * builds it, and its fields show what each key was converted to.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_TEST_PROBE (grammar_test_probe_get_type ())
G_DECLARE_FINAL_TYPE (GrammarTestProbe, grammar_test_probe, GRAMMAR, TEST_PROBE, GObject)

struct _GrammarTestProbe
{
  GObject parent_instance;

  char *label;
  char *file;
  int count;
  guint64 big;
  double ratio;
  gboolean strict;
  GrammarVerdictKind kind;
  GFileCopyFlags copy_flags;
  GStrv names;
  GrammarMatcher *next;
  GrammarLlm *llm;
};

/* How many properties it has: one of every kind. */
#define GRAMMAR_TEST_PROBE_N_PROPERTIES 11

void grammar_test_probe_register (void);

G_END_DECLS
