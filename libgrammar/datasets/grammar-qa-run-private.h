/* grammar-qa-run-private.h: a run of the QA generator: the reader, which queries the database and hands batches to the writer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-qa-generator-private.h"

G_BEGIN_DECLS







G_GNUC_INTERNAL
gboolean grammar_qa_same_key (GVariant *a, GVariant *b);
G_GNUC_INTERNAL
void grammar_qa_run_init (GrammarQaRun *run, GrammarQaGenerator *self, GOutputStream *output,
                          GCancellable *cancellable);
G_GNUC_INTERNAL
gboolean grammar_qa_run_send (GrammarQaRun *run, GError **error);
G_GNUC_INTERNAL
gboolean grammar_qa_run_finish (GrammarQaRun *run, GError **error);
G_GNUC_INTERNAL
gboolean grammar_qa_run_forget_plan (GrammarQaRun *run, GrammarQaPlan *plan, GError **error);
G_GNUC_INTERNAL
void grammar_qa_run_clear (GrammarQaRun *run);
G_GNUC_INTERNAL
void grammar_qa_run_progress (GrammarQaRun *run, gboolean force);
G_GNUC_INTERNAL
gboolean grammar_qa_run_set_based (GrammarQaRun *run, GrammarQaPlan *plan, GError **error);
G_GNUC_INTERNAL
gboolean grammar_qa_run_per_binding (GrammarQaRun *run, GrammarQaPlan *plan, GError **error);



G_END_DECLS
