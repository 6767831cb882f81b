/* grammar-assembly-private.h: what the parts of GrammarAssembly share: its fields and the sections of the roles
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-assembly.h"
#include "grammar-config-private.h"

G_BEGIN_DECLS

/* grammar-assembly.c (the roles, the check, the components) and
 * grammar-assembly-build.c (the runners and generators) share the
 * assembly. */
struct _GrammarAssembly
{
  GObject parent_instance;

  GrammarConfig *config;
  char *corpus;          /* the corpus a stage of the run writes, or NULL */
  GrammarSchema *schema; /* of the database, once read */
  GPtrArray *problems;   /* of char *, from the last check */
  GrammarConfigCheck *check;  /* the last check */
};

/* The section of each role (the table in the documentation of
 * #GrammarAssembly). */
#define SECTION_DATABASE "database"
#define SECTION_DOCUMENTS "documents"
#define SECTION_SQL_GENERATOR "sql-generator"
#define SECTION_VERBALIZER "verbalizer"
#define SECTION_SYSTEM "system"
#define SECTION_MATCHER "matcher"
#define SECTION_JUDGE "judge"
#define SECTION_METRICS "metrics"
#define SECTION_LLM "llm"
#define SECTION_RUN "run"

G_END_DECLS
