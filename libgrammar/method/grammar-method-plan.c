/* grammar-method-plan.c: the stages a run of GrammarMethod makes, and what it would do with each
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-method-private.h"

static void
step_free (Step *step)
{
  g_free (step->style);
  g_free (step->file);
  g_free (step->path);
  g_free (step->fingerprint);
  g_free (step);
}

void
grammar_method_run_free (Run *run)
{
  if (run->progress_handler != 0)
    g_signal_handler_disconnect (run->progress_source, run->progress_handler);
  g_clear_object (&run->progress_source);
  g_ptr_array_unref (run->steps);
  g_clear_object (&run->manifest);
  g_free (run->documents);
  g_free (run->compared);
  g_clear_pointer (&run->told, g_hash_table_unref);
  g_clear_pointer (&run->lock, grammar_file_unlock);
  g_free (run);
}

static void
add_step (Run        *run,
          StepKind    kind,
          const char *style,
          const char *file)
{
  Step *step = g_new0 (Step, 1);

  step->kind = kind;
  step->style = g_strdup (style);
  step->file = style != NULL ? g_strconcat (style, ".", file, NULL) : g_strdup (file);
  step->path = g_build_filename (run->self->outdir, step->file, NULL);
  g_ptr_array_add (run->steps, step);
}

/* The indices in @styles (the run's) of the two styles the report
 * compares; @b is G_MAXUINT when the run has one style. Only valid once
 * check_styles() passed. */
void
grammar_method_compared_styles (GrammarMethod      *self,
                                const char * const *styles,
                                guint              *a,
                                guint              *b)
{
  *a = 0;
  *b = styles[1] != NULL ? 1 : G_MAXUINT;
  for (guint i = 0; self->compare != NULL && styles[i] != NULL; i++)
    {
      if (g_str_equal (styles[i], self->compare[0]))
        *a = i;
      else if (self->compare[1] != NULL && g_str_equal (styles[i], self->compare[1]))
        *b = i;
    }
}

/* A run of @self making @styles (grammar_method_get_styles()) with its
 * stages in order; no manifest nor lock yet. */
Run *
grammar_method_run_new (GrammarMethod      *self,
                        const char * const *styles)
{
  Run *run = g_new0 (Run, 1);
  guint a, b;

  run->self = self;
  run->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) step_free);
  grammar_method_compared_styles (self, styles, &a, &b);
  run->compared = g_strdup_printf ("%s;%s", styles[a], b != G_MAXUINT ? styles[b] : "");

  add_step (run, STEP_SQL_TEMPLATES, NULL, "sql-templates.json");
  if (grammar_assembly_has_documents (self->assembly))
    add_step (run, STEP_DOCS, NULL, GRAMMAR_METHOD_DOCUMENTS_FILE);
  for (guint i = 0; styles[i] != NULL; i++)
    {
      add_step (run, STEP_TEXT_TEMPLATES, styles[i], "text-templates.json");
      add_step (run, STEP_QA, styles[i], "dataset.jsonl");
      add_step (run, STEP_RAG, styles[i], "results.jsonl");
      add_step (run, STEP_JUDGE, styles[i], "judged.jsonl");
      if (grammar_assembly_has_metrics (self->assembly))
        add_step (run, STEP_ASSESS, styles[i], "assessed.jsonl");
    }
  add_step (run, STEP_REPORT, NULL, "report.json");
  return run;
}

static gboolean
is_resumable (Step *step)
{
  return step->kind == STEP_RAG || step->kind == STEP_JUDGE || step->kind == STEP_ASSESS;
}

/* Why the stage runs, or "kept" when its file is up to date; the step's
 * fingerprint is known. */
const char *
grammar_method_decide (Run  *run,
                       Step *step)
{
  const char *recorded = NULL;
  gboolean complete = FALSE;
  gboolean exists = g_file_test (step->path, G_FILE_TEST_EXISTS);
  gboolean known = grammar_manifest_lookup (run->manifest, step->file, &recorded, &complete);

  if (run->self->force)
    return exists ? "forced" : "new";
  if (!exists)
    return "new";
  if (!known || !g_str_equal (recorded, step->fingerprint))
    return "changed";
  if (is_resumable (step))
    return "resumed";
  return complete ? "kept" : "incomplete";
}

/* The files a stage reads from other stages. */
static void
add_inputs (Run          *run,
            Step         *step,
            GStrvBuilder *reads)
{
  static const StepKind inputs[][2] = {
    [STEP_SQL_TEMPLATES] = { -1, -1 },
    [STEP_DOCS] = { -1, -1 },
    [STEP_TEXT_TEMPLATES] = { STEP_SQL_TEMPLATES, -1 },
    [STEP_QA] = { STEP_TEXT_TEMPLATES, STEP_DOCS },
    [STEP_RAG] = { STEP_QA, -1 },
    [STEP_JUDGE] = { STEP_RAG, -1 },
    [STEP_ASSESS] = { STEP_RAG, -1 },
  };

  if (step->kind == STEP_REPORT)
    {
      for (guint i = 0; i < run->steps->len; i++)
        {
          Step *other = g_ptr_array_index (run->steps, i);

          if (other->kind == STEP_JUDGE || other->kind == STEP_ASSESS)
            g_strv_builder_add (reads, other->path);
        }
      return;
    }
  for (guint i = 0; i < 2; i++)
    {
      Step *input = (int) inputs[step->kind][i] >= 0
                      ? grammar_method_find_step (run, inputs[step->kind][i],
                                                  inputs[step->kind][i] == STEP_SQL_TEMPLATES ||
                                                    inputs[step->kind][i] == STEP_DOCS ? NULL : step->style)
                      : NULL;

      if (input != NULL)
        g_strv_builder_add (reads, input->path);
    }
}

static void
describe_step (GrammarMethod *self,
               Run           *run,
               Step          *step,
               const char    *reason,
               GString       *text)
{
  const char *stage = step_names[step->kind];
  const char *recorded = NULL;
  gboolean complete = FALSE;
  g_auto (GStrv) components = grammar_assembly_dup_stage_components (self->assembly, stage);
  g_auto (GStrv) files = grammar_assembly_dup_stage_files (self->assembly, stage);
  g_autoptr (GStrvBuilder) reads = g_strv_builder_new ();
  g_auto (GStrv) read = NULL;

  /* a resumed stage whose file was finished has nothing left to do */
  if (g_str_equal (reason, "resumed") && grammar_manifest_lookup (run->manifest, step->file, &recorded, &complete) &&
      complete)
    reason = "kept";
  g_string_append_printf (text, "%s%s%s → %s: %s\n", stage, step->style != NULL ? " " : "",
                          step->style != NULL ? step->style : "", step->path,
                          g_str_equal (reason, "kept")
                            ? "done, would be kept"
                            : g_str_equal (reason, "new") ? "would run"
                            : g_str_equal (reason, "resumed") ? "would resume (the records written are kept)"
                            : g_str_equal (reason, "forced") ? "would run again (--force)"
                            : g_str_equal (reason, "changed") ? "would run again (its configuration or inputs changed)"
                            : "would run again (an earlier run stopped during it)");
  if (components[0] != NULL)
    {
      g_autofree char *list = g_strjoinv (", ", components);

      g_string_append_printf (text, "    components: %s\n", list);
    }
  add_inputs (run, step, reads);
  g_strv_builder_addv (reads, (const char **) files);
  read = g_strv_builder_end (reads);
  if (read[0] != NULL)
    {
      g_autofree char *list = g_strjoinv (", ", read);

      g_string_append_printf (text, "    reads: %s\n", list);
    }
  if (step->kind == STEP_REPORT)
    g_string_append_printf (text, "    writes: report.txt, report.json, report.md and report.html in %s\n",
                            self->outdir);
}

/* The text of grammar_method_describe_plan() for a run of @self making
 * @styles. */
char *
grammar_method_describe_run (GrammarMethod       *self,
                             const char * const  *styles,
                             GError             **error)
{
  Run *run;
  GString *text;

  run = grammar_method_run_new (self, styles);
  run->manifest = grammar_manifest_load (self->outdir, error);
  if (run->manifest == NULL)
    {
      grammar_method_run_free (run);
      return NULL;
    }
  text = g_string_new (NULL);
  g_hash_table_remove_all (self->file_hashes);
  if (grammar_assembly_has_documents (self->assembly))
    run->documents = g_build_filename (self->outdir, GRAMMAR_METHOD_DOCUMENTS_FILE, NULL);
  for (guint i = 0; i < run->steps->len; i++)
    {
      Step *step = g_ptr_array_index (run->steps, i);

      step->fingerprint = grammar_method_step_fingerprint (run, step);
      describe_step (self, run, step, grammar_method_decide (run, step), text);
    }
  g_hash_table_remove_all (self->file_hashes);
  grammar_method_run_free (run);
  return g_string_free (text, FALSE);
}
