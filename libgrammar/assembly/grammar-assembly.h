/* grammar-assembly.h: every component of a run, from one keyfile, checked before anything runs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <gio/gio.h>

#include "grammar-assess-runner.h"
#include "grammar-config.h"
#include "grammar-database.h"
#include "grammar-document-generator.h"
#include "grammar-judge-runner.h"
#include "grammar-llm.h"
#include "grammar-matcher.h"
#include "grammar-qa-generator.h"
#include "grammar-rag-runner.h"
#include "grammar-schema.h"
#include "grammar-system.h"

#include "grammar-visibility.h"

G_BEGIN_DECLS

#define GRAMMAR_TYPE_ASSEMBLY (grammar_assembly_get_type ())
GRAMMAR_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GrammarAssembly, grammar_assembly, GRAMMAR, ASSEMBLY, GObject)

GRAMMAR_AVAILABLE_IN_ALL
GrammarAssembly          *grammar_assembly_new                (GrammarConfig       *config);
GRAMMAR_AVAILABLE_IN_ALL
GrammarAssembly          *grammar_assembly_new_from_file      (const char          *path,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarConfig            *grammar_assembly_get_config         (GrammarAssembly     *self);
GRAMMAR_AVAILABLE_IN_ALL
const char               *grammar_assembly_get_section        (GrammarAssembly     *self,
                                                               GType                interface_type);

GRAMMAR_AVAILABLE_IN_ALL
void                      grammar_assembly_set_corpus         (GrammarAssembly     *self,
                                                               const char          *path);
GRAMMAR_AVAILABLE_IN_ALL
const char               *grammar_assembly_get_corpus         (GrammarAssembly     *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_assembly_has_documents      (GrammarAssembly     *self);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_assembly_has_metrics        (GrammarAssembly     *self);

GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_assembly_check              (GrammarAssembly     *self,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_assembly_check_run          (GrammarAssembly     *self,
                                                               GType                run_type,
                                                               const char * const  *styles,
                                                               gboolean             styles_given,
                                                               const char * const  *compare,
                                                               const char          *outdir,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
char                    **grammar_assembly_dup_problems       (GrammarAssembly     *self);

GRAMMAR_AVAILABLE_IN_ALL
const char * const       *grammar_assembly_get_stage_sections (GrammarAssembly     *self,
                                                               const char          *stage);
GRAMMAR_AVAILABLE_IN_ALL
char                    **grammar_assembly_dup_stage_components (GrammarAssembly   *self,
                                                                 const char        *stage);
GRAMMAR_AVAILABLE_IN_ALL
char                    **grammar_assembly_dup_stage_files    (GrammarAssembly     *self,
                                                               const char          *stage);

GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_assembly_configure_run      (GrammarAssembly     *self,
                                                               GObject             *run,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarDatabase          *grammar_assembly_build_database     (GrammarAssembly     *self,
                                                               const char          *section,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSchema            *grammar_assembly_get_schema         (GrammarAssembly     *self,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GObject                  *grammar_assembly_build_generator    (GrammarAssembly     *self,
                                                               GType                interface_type,
                                                               const char          *plugin,
                                                               const char          *llm_section,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarDocumentGenerator *grammar_assembly_build_document_generator (GrammarAssembly *self,
                                                                     GError        **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarQaGenerator       *grammar_assembly_build_qa_generator (GrammarAssembly     *self,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarLlm               *grammar_assembly_build_llm          (GrammarAssembly     *self,
                                                               const char          *section,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarSystem            *grammar_assembly_build_system       (GrammarAssembly     *self,
                                                               const char          *section,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
gboolean                  grammar_assembly_probe_system       (GrammarAssembly     *self,
                                                               const char          *section,
                                                               gboolean            *probed,
                                                               GCancellable        *cancellable,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarMatcher           *grammar_assembly_build_matcher      (GrammarAssembly     *self,
                                                               const char          *section,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarRagRunner         *grammar_assembly_build_rag_runner   (GrammarAssembly     *self,
                                                               const char          *system_section,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarJudgeRunner       *grammar_assembly_build_judge_runner (GrammarAssembly     *self,
                                                               const char          *matcher_section,
                                                               GError             **error);
GRAMMAR_AVAILABLE_IN_ALL
GrammarAssessRunner      *grammar_assembly_build_assess_runner (GrammarAssembly    *self,
                                                                GError            **error);

G_END_DECLS
