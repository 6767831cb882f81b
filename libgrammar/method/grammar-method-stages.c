/* grammar-method-stages.c: the stages of GrammarMethod that write a file in a worker thread: templates, documents, datasets, report
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>
#include "grammar-method-private.h"
#include "grammar-comparison.h"
#include "grammar-database.h"
#include "grammar-document-generator.h"
#include "grammar-document.h"
#include "grammar-error.h"
#include "grammar-evaluation.h"
#include "grammar-judge-runner.h"
#include "grammar-manifest-private.h"
#include "grammar-matcher.h"
#include "grammar-method.h"
#include "grammar-plugin-info.h"
#include "grammar-qa-generator.h"
#include "grammar-rag-runner.h"
#include "grammar-registry.h"
#include "grammar-report.h"
#include "grammar-report-private.h"
#include "grammar-retriever.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-schema-generator.h"
#include "grammar-schema.h"
#include "grammar-sync-private.h"
#include "grammar-system.h"
#include "grammar-template-set.h"

/* Stages that run in a worker thread --------------------------------------- */

void
grammar_method_work_free (Work *work)
{
  g_free (work->summary);
  g_ptr_array_unref (work->warnings);
  g_free (work);
}

static void
add_warnings (Work  *work,
              GStrv  lines)
{
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    g_ptr_array_add (work->warnings, g_strdup (lines[i]));
}

static gboolean
make_sql_templates (Work          *work,
                    GCancellable  *cancellable,
                    GError       **error)
{
  GrammarMethod *self = work->self;
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GPtrArray) templates = NULL;
  g_auto (GStrv) notes = NULL;
  guint n_notes;

  templates = grammar_sql_generator_generate (self->sql_generator, self->database, &notes, cancellable, error);
  if (templates == NULL)
    return FALSE;
  for (guint i = 0; i < templates->len; i++)
    grammar_template_set_add_sql_template (set, g_ptr_array_index (templates, i));
  if (!grammar_template_set_save_sql_templates (set, work->step->path, error))
    return FALSE;
  n_notes = notes != NULL ? g_strv_length (notes) : 0;
  work->summary = g_strdup_printf ("%u template%s, %u candidate%s left out", templates->len,
                                   templates->len == 1 ? "" : "s", n_notes, n_notes == 1 ? "" : "s");
  return TRUE;
}

/* Loads a template file of this run; a template it lists that is not
 * valid is an input error (the file was edited by hand). */
static GrammarTemplateSet *
load_templates (GrammarMethod  *self,
                const char     *path,
                GError        **error)
{
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_auto (GStrv) problems = NULL;

  if (!grammar_template_set_load (set, path, self->database, self->schema, &problems, error))
    return NULL;
  if (problems != NULL && problems[0] != NULL)
    {
      g_autofree char *list = g_strjoinv ("\n  ", problems);

      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %u template%s not valid:\n  %s", path,
                   g_strv_length (problems), g_strv_length (problems) == 1 ? " is" : "s are", list);
      return NULL;
    }
  return g_steal_pointer (&set);
}

static gboolean
make_text_templates (Work          *work,
                     GCancellable  *cancellable,
                     GError       **error)
{
  GrammarMethod *self = work->self;
  Step *sql = grammar_method_find_step (work->run, STEP_SQL_TEMPLATES, NULL);
  g_autoptr (GrammarTemplateSet) input = load_templates (self, sql->path, error);
  g_autoptr (GrammarTemplateSet) output = NULL;
  g_auto (GStrv) shortfalls = NULL;
  const char *styles[] = { work->step->style, NULL };
  guint n_sql;
  guint n_made;

  if (input == NULL)
    return FALSE;
  output = grammar_verbalizer_make_text_templates (self->verbalizer, input, self->schema, styles, self->per_template,
                                                   NULL, NULL, &shortfalls, NULL, cancellable, error);
  if (output == NULL)
    return FALSE;
  add_warnings (work, shortfalls);
  if (!grammar_template_set_save_text_templates (output, work->step->path, error))
    return FALSE;
  n_sql = grammar_template_set_get_sql_templates (output)->len;
  n_made = grammar_template_set_get_text_templates (output)->len;
  work->summary = g_strdup_printf ("%u text template%s in the style %s for %u SQL template%s", n_made,
                                   n_made == 1 ? "" : "s", work->step->style, n_sql, n_sql == 1 ? "" : "s");
  return TRUE;
}

/* The generators' progress, as the method's (in the worker thread). */
static void
on_documents_progress (GrammarDocumentGenerator *generator,
                       Work                     *work)
{
  grammar_method_emit_progress (work->self, step_names[work->step->kind],
                                grammar_document_generator_get_n_documents (generator), 0);
}

static void
on_dataset_progress (GrammarQaGenerator *generator,
                     Work               *work)
{
  grammar_method_emit_progress (work->self, step_names[work->step->kind],
                                grammar_qa_generator_get_n_records (generator), 0);
}

static gboolean
make_documents (Work          *work,
                GCancellable  *cancellable,
                GError       **error)
{
  GrammarMethod *self = work->self;
  g_autoptr (GrammarDocumentGenerator) generator = grammar_assembly_build_document_generator (self->assembly, error);
  g_auto (GStrv) warnings = NULL;
  guint64 n_documents;
  guint n_tables;

  if (generator == NULL)
    return FALSE;
  g_signal_connect (generator, "progress", G_CALLBACK (on_documents_progress), work);
  if (!grammar_document_generator_generate_to_file (generator, work->step->path, cancellable, error))
    return FALSE;
  warnings = grammar_document_generator_dup_warnings (generator);
  add_warnings (work, warnings);
  n_documents = grammar_document_generator_get_n_documents (generator);
  n_tables = grammar_document_generator_get_n_tables (generator);
  work->summary = g_strdup_printf ("%" G_GUINT64_FORMAT " document%s from %u table%s", n_documents,
                                   n_documents == 1 ? "" : "s", n_tables, n_tables == 1 ? "" : "s");
  return TRUE;
}

/* The options of the qa stage are the method's properties of the same
 * name as the generator's (per-group, seed, max-answer-rows,
 * max-answer-bytes: keys of [run] and options of `grammar run`, as they
 * are options of `grammar qa`): each is handed over by its name, so that
 * the list is written once, in the properties of the method. */
static void
share_qa_options (GrammarMethod      *self,
                  GrammarQaGenerator *generator)
{
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (self), &n);

  for (guint i = 0; i < n; i++)
    {
      GParamSpec *theirs = g_object_class_find_property (G_OBJECT_GET_CLASS (generator), pspecs[i]->name);
      g_auto (GValue) value = G_VALUE_INIT;

      if (theirs == NULL || theirs->value_type != pspecs[i]->value_type || (theirs->flags & G_PARAM_WRITABLE) == 0 ||
          (theirs->flags & G_PARAM_CONSTRUCT_ONLY) != 0)
        continue;
      g_value_init (&value, pspecs[i]->value_type);
      g_object_get_property (G_OBJECT (self), pspecs[i]->name, &value);
      g_object_set_property (G_OBJECT (generator), pspecs[i]->name, &value);
    }
}

static gboolean
make_dataset (Work          *work,
              GCancellable  *cancellable,
              GError       **error)
{
  GrammarMethod *self = work->self;
  Step *text = grammar_method_find_step (work->run, STEP_TEXT_TEMPLATES, work->step->style);
  g_autoptr (GrammarTemplateSet) templates = load_templates (self, text->path, error);
  g_autoptr (GrammarQaGenerator) generator = NULL;
  g_autoptr (GPtrArray) documents = NULL;
  g_auto (GStrv) warnings = NULL;
  g_auto (GStrv) left_out = NULL;
  guint n_left_out;
  guint64 n_records;
  guint64 n_groups;

  if (templates == NULL)
    return FALSE;
  if (work->run->documents != NULL && (documents = grammar_document_load_jsonl (work->run->documents, error)) == NULL)
    return FALSE;
  generator = grammar_assembly_build_qa_generator (self->assembly, error);
  if (generator == NULL)
    return FALSE;
  share_qa_options (self, generator);
  grammar_qa_generator_set_documents (generator, documents);
  g_signal_connect (generator, "progress", G_CALLBACK (on_dataset_progress), work);
  if (!grammar_qa_generator_generate_to_file (generator, templates, work->step->path, cancellable, error))
    return FALSE;
  warnings = grammar_qa_generator_dup_warnings (generator);
  add_warnings (work, warnings);
  /* The templates were made by the run (an LLM may write a runaway
   * one): one that exceeds a limit is told and left out, and the run
   * goes on with the others rather than stop after hours of work. */
  left_out = grammar_qa_generator_dup_left_out (generator);
  add_warnings (work, left_out);
  n_left_out = g_strv_length (left_out);
  n_records = grammar_qa_generator_get_n_records (generator);
  n_groups = grammar_qa_generator_get_n_groups (generator);
  work->summary = g_strdup_printf ("%" G_GUINT64_FORMAT " record%s in %" G_GUINT64_FORMAT " group%s", n_records,
                                   n_records == 1 ? "" : "s", n_groups, n_groups == 1 ? "" : "s");
  if (n_left_out > 0)
    {
      char *summary = g_strdup_printf ("%s; %u template%s left out (over a limit)", work->summary, n_left_out,
                                       n_left_out == 1 ? "" : "s");

      g_free (work->summary);
      work->summary = summary;
    }
  return TRUE;
}

/* The report's `warnings` (retrieval unmeasured, ...) as the stage's, so
 * that they are shown where the run is watched, not only in the files. */
static void
add_report_warnings (Work     *work,
                     JsonNode *report)
{
  JsonObject *root = json_node_get_object (report);
  JsonArray *warnings = json_object_has_member (root, "warnings") ? json_object_get_array_member (root, "warnings")
                                                                   : NULL;

  for (guint i = 0; warnings != NULL && i < json_array_get_length (warnings); i++)
    g_ptr_array_add (work->warnings, g_strdup (json_array_get_string_element (warnings, i)));
}

/* The report: every style's row in the breakdown by style, the
 * comparison of the two styles of compare= (the first two by default)
 * with its conclusion, and the first style against each other one. */
static gboolean
make_report (Work          *work,
             GCancellable  *cancellable,
             GError       **error)
{
  GrammarMethod *self = work->self;
  const char * const *styles = grammar_method_get_styles (self);
  guint n = g_strv_length ((char **) styles);
  g_autofree const char **judged = g_new0 (const char *, n + 1);
  const char *assessed[3] = { NULL, NULL, NULL };
  g_autoptr (JsonNode) full = NULL;
  guint a, b;

  grammar_method_compared_styles (self, styles, &a, &b);
  for (guint i = 0; i < n; i++)
    judged[i] = grammar_method_find_step (work->run, STEP_JUDGE, styles[i])->path;
  /* the reliability of the metrics, over the styles the report compares */
  for (guint i = 0, k = 0; i < 2; i++)
    {
      guint style = i == 0 ? a : b;
      Step *step = style != G_MAXUINT ? grammar_method_find_step (work->run, STEP_ASSESS, styles[style]) : NULL;

      if (step != NULL)
        assessed[k++] = step->path;
    }
  full = grammar_report_build_styles (judged, a, b, assessed, 0.05, 0, error);
  if (full == NULL)
    return FALSE;
  add_report_warnings (work, full);
  for (guint i = 0; i < G_N_ELEMENTS (report_formats); i++)
    {
      g_autofree char *path = g_build_filename (self->outdir, report_formats[i].file, NULL);
      GrammarReportFormat format = report_formats[i].format;
      /* the text report lists 20 gap groups and errors, as `grammar report` does */
      guint max_list = format == GRAMMAR_REPORT_FORMAT_TEXT ? GRAMMAR_REPORT_TEXT_MAX_LIST : 0;

      if (!grammar_report_write_listed_to_file (full, format, max_list, path, cancellable, error))
        return FALSE;
    }
  g_clear_pointer (&self->report, json_node_unref);
  self->report = json_node_ref (full);
  work->summary = g_strdup_printf ("report.txt, report.json, report.md and report.html in %s", self->outdir);
  return TRUE;
}

typedef gboolean (*WorkFunc) (Work          *work,
                              GCancellable  *cancellable,
                              GError       **error);

void
grammar_method_run_work_in_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  Work *work = task_data;
  WorkFunc func = NULL;
  GError *error = NULL;

  switch (work->step->kind)
    {
    case STEP_SQL_TEMPLATES: func = make_sql_templates; break;
    case STEP_DOCS: func = make_documents; break;
    case STEP_TEXT_TEMPLATES: func = make_text_templates; break;
    case STEP_QA: func = make_dataset; break;
    case STEP_REPORT: func = make_report; break;
    default: g_assert_not_reached ();
    }
  if (func (work, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}
