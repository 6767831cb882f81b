/* fuzz-py-import.c: the files of the Python GRAMMAR tool (`grammar import`)
 *
 * The input is one or two files separated by a NUL byte (which JSON
 * cannot hold): an `sql_templates.json` and a `short.json` of text
 * templates, imported together as `grammar import` does without a
 * database; the first is also imported as an evaluation results file
 * (`results_short_balanced.json`) and its records evaluated as
 * `grammar report` would.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include <grammar.h>

#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const uint8_t *nul = memchr (data, '\0', size);
  size_t first = nul != NULL ? (size_t) (nul - data) : size;
  const uint8_t *second = nul != NULL ? nul + 1 : (const uint8_t *) "";
  size_t second_size = nul != NULL ? size - first - 1 : 0;
  const char *sql_path = fuzz_write_file ("sql_templates.json", data, first);
  const char *text_path = fuzz_write_file ("short.json", second, second_size);
  const char *results_path = fuzz_write_file ("results_short_balanced.json", data, first);
  const char * const template_paths[] = { sql_path, text_path, NULL };
  const char * const result_paths[] = { results_path, NULL };
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GPtrArray) records = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;

  grammar_py_import_templates (set, template_paths, NULL, NULL, NULL, &problems, &error);
  g_clear_error (&error);

  if (grammar_py_import_results (result_paths, NULL, &records, &error) && records->len > 0)
    {
      g_autoptr (GrammarEvaluation) evaluation = grammar_evaluation_new (records, results_path, &error);

      if (evaluation != NULL)
        {
          g_autoptr (JsonNode) json = grammar_evaluation_to_json (evaluation, 0);
        }
    }
  return 0;
}
