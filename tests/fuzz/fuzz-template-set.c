/* fuzz-template-set.c: template files
 *
 * The input is a `sql-templates.json` or `text-templates.json` file (the
 * loader tells them apart by their shape). It is loaded without a
 * database — parsing only, as `grammar import` and the template commands
 * do before validating — and what was kept is written out again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <glib/gstdio.h>

#include <grammar.h>

#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = fuzz_write_input (data, size);
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  g_auto (GStrv) styles = NULL;
  g_autofree char *out = NULL;

  if (!grammar_template_set_load (set, path, NULL, NULL, &problems, &error))
    return 0;
  styles = grammar_template_set_dup_styles (set);
  for (guint i = 0; styles[i] != NULL; i++)
    {
      GPtrArray *sql_templates = grammar_template_set_get_sql_templates (set);

      for (guint j = 0; j < sql_templates->len; j++)
        {
          GrammarSqlTemplate *sql_template = g_ptr_array_index (sql_templates, j);
          g_autoptr (GPtrArray) texts = NULL;

          texts = grammar_template_set_get_text_templates_for (set, grammar_sql_template_get_id (sql_template),
                                                               styles[i]);
        }
    }

  /* Written beside the input, and read back: what was kept must load again. */
  out = g_strconcat (path, ".out", NULL);
  if (grammar_template_set_get_sql_templates (set)->len > 0)
    {
      g_autoptr (GrammarTemplateSet) again = grammar_template_set_new ();

      if (!grammar_template_set_save_sql_templates (set, out, &error))
        g_error ("%s", error->message);
      if (!grammar_template_set_load (again, out, NULL, NULL, NULL, &error))
        g_error ("the SQL templates written do not load again: %s", error->message);
    }
  g_unlink (out);
  return 0;
}
