/* grammar-reliability-private.h: judged records added as a report reads them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-evaluation.h"
#include "grammar-record.h"
#include "grammar-reliability.h"

G_BEGIN_DECLS

G_GNUC_INTERNAL
void grammar_reliability_add_judged_record (GrammarReliability *self,
                                            GrammarRecord      *record,
                                            guint               side);
G_GNUC_INTERNAL
void grammar_reliability_add_judged_read   (GrammarReliability *self,
                                            GrammarEvaluation  *evaluation);

G_END_DECLS
