/* grammar-http-system.h: the user's own RAG service over HTTP as the system under test
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_HTTP_SYSTEM (grammar_http_system_get_type ())
G_DECLARE_FINAL_TYPE (GrammarHttpSystem, grammar_http_system, GRAMMAR, HTTP_SYSTEM, GObject)

void grammar_http_system_register (GTypeModule *module);

G_END_DECLS
