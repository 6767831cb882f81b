/* grammar-method-private.h: what the parts of GrammarMethod share: its stages, its run, its components
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-file-private.h"

#include "grammar-manifest-private.h"
#include "grammar-assembly.h"
#include "grammar-method.h"
#include "grammar-report.h"
#include "grammar-assess-runner.h"
#include "grammar-judge-runner.h"
#include "grammar-sql-generator.h"
#include "grammar-verbalizer.h"
#include "grammar-system.h"

G_BEGIN_DECLS

/* The stages by StepKind, as the manifest, the signals and the messages
 * name them. */
static const char * const step_names[] G_GNUC_UNUSED = {
  "sql-templates", "docs", "text-templates", "qa", "rag", "judge", "assess", "report"
};

/* The report's files, by format. */
static const struct
{
  const char *name;
  const char *file;
  GrammarReportFormat format;
} report_formats[] G_GNUC_UNUSED = {
  { "json", "report.json", GRAMMAR_REPORT_FORMAT_JSON },
  { "markdown", "report.md", GRAMMAR_REPORT_FORMAT_MARKDOWN },
  { "html", "report.html", GRAMMAR_REPORT_FORMAT_HTML },
  { "text", "report.txt", GRAMMAR_REPORT_FORMAT_TEXT },
};



/* The corpus the docs stage writes in the output folder. */
#define GRAMMAR_METHOD_DOCUMENTS_FILE "documents.jsonl"

typedef struct _Step Step;
typedef struct _Run Run;
typedef struct _Work Work;

typedef enum
{
  STEP_SQL_TEMPLATES,
  STEP_DOCS,
  STEP_TEXT_TEMPLATES,
  STEP_QA,
  STEP_RAG,
  STEP_JUDGE,
  STEP_ASSESS,
  STEP_REPORT,
} StepKind;

struct _GrammarMethod
{
  GObject parent_instance;

  GrammarConfig *config;
  GrammarAssembly *assembly;  /* builds every component, from config */
  char *outdir;
  GStrv styles;
  GStrv compare;             /* NULL: the first two styles */
  guint per_template;
  guint per_group;
  guint64 seed;
  guint max_answer_rows;
  guint64 max_answer_bytes;
  guint concurrency;              /* of every record-by-record stage */
  guint max_consecutive_failures;
  gboolean force;
  gboolean retry_failed;

  gboolean running;
  JsonNode *report;
  guint64 n_failed;

  /* built once through the assembly, when first needed */
  GrammarDatabase *database;
  GrammarSchema *schema;
  GrammarSystem *system;
  GrammarSqlGenerator *sql_generator;
  GrammarVerbalizer *verbalizer;
  GrammarJudgeRunner *judge_runner;
  GrammarAssessRunner *assess_runner;
  GHashTable *file_hashes;   /* path → checksum of its contents, or "" */
};

struct _Step
{
  StepKind kind;
  char *style;        /* NULL for the stages that are not per style */
  char *file;         /* the file's name in the output folder */
  char *path;
  char *fingerprint;  /* once the stage started */
};

struct _Run
{
  GrammarMethod *self;   /* not a reference: the task holds one */
  GPtrArray *steps;      /* of Step, in the order they run */
  guint current;
  GrammarManifest *manifest;
  char *documents;       /* the corpus this run made, or NULL */
  gulong progress_handler;
  GObject *progress_source;
  GrammarFileLock *lock; /* on the output folder, while the run lasts */
  char *compared;        /* the two styles the report compares, "A;B" ("A;" with one style) */
  GHashTable *told;      /* the warnings of record-by-record stages emitted, once each (NULL until one) */
};

struct _Work
{
  GrammarMethod *self;
  Run *run;
  Step *step;
  char *summary;
  GPtrArray *warnings;   /* of char * */
};

G_GNUC_INTERNAL
char * grammar_method_step_fingerprint (Run *run, Step *step);
G_GNUC_INTERNAL
void grammar_method_work_free (Work *work);
G_GNUC_INTERNAL
void grammar_method_emit_progress (GrammarMethod *self, const char *stage, guint64 done, guint64 total);
G_GNUC_INTERNAL
void grammar_method_compared_styles (GrammarMethod *self, const char * const *styles, guint *a, guint *b);
G_GNUC_INTERNAL
Run *grammar_method_run_new (GrammarMethod *self, const char * const *styles);
G_GNUC_INTERNAL
void grammar_method_run_free (Run *run);
G_GNUC_INTERNAL
const char *grammar_method_decide (Run *run, Step *step);
G_GNUC_INTERNAL
char *grammar_method_describe_run (GrammarMethod *self, const char * const *styles, GError **error);
G_GNUC_INTERNAL
void grammar_method_run_work_in_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable);



/* The step of the run that makes @kind (in @style), or NULL. */
static inline Step *
grammar_method_find_step (Run        *run,
                          StepKind    kind,
                          const char *style)
{
  for (guint i = 0; i < run->steps->len; i++)
    {
      Step *step = g_ptr_array_index (run->steps, i);

      if (step->kind == kind && g_strcmp0 (step->style, style) == 0)
        return step;
    }
  return NULL;
}

G_END_DECLS
