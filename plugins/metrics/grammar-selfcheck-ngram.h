/* grammar-selfcheck-ngram.h: the `selfcheck-ngram` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_SELFCHECK_NGRAM (grammar_selfcheck_ngram_get_type ())
G_DECLARE_FINAL_TYPE (GrammarSelfcheckNgram, grammar_selfcheck_ngram, GRAMMAR, SELFCHECK_NGRAM, GObject)

void grammar_selfcheck_ngram_register (GTypeModule *module);

G_END_DECLS
