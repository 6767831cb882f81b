/* grammar-verbalizer.c: what turns SQL templates into text templates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-error.h"
#include "grammar-sync-private.h"
#include "grammar-text-template.h"
#include "grammar-verbalizer.h"

/**
 * GrammarVerbalizer:
 *
 * Writes text templates (#GrammarTextTemplate): natural-language forms
 * of a SQL template in a style, with its placeholders intact. `grammar
 * text-templates --generator NAME` and the `[verbalizer]` section of a
 * keyfile choose the implementation by its plugin name;
 * grammar_verbalizer_make_text_templates() is the whole stage.
 */

G_DEFINE_INTERFACE (GrammarVerbalizer, grammar_verbalizer, G_TYPE_OBJECT)

static void
grammar_verbalizer_default_init (GrammarVerbalizerInterface *iface)
{
}

/**
 * grammar_verbalizer_verbalize_async:
 * @self: a #GrammarVerbalizer
 * @sql_template: the SQL template
 * @schema: the schema of its database
 * @style: a text style (grammar_text_style_list())
 * @n: how many distinct text templates to write
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when they are written
 * @user_data: data for @callback
 *
 * Starts writing up to @n distinct text templates of @sql_template in
 * @style, on the thread-default main context of the caller.
 */
void
grammar_verbalizer_verbalize_async (GrammarVerbalizer    *self,
                                    GrammarSqlTemplate   *sql_template,
                                    GrammarSchema        *schema,
                                    const char           *style,
                                    guint                 n,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data)
{
  g_return_if_fail (GRAMMAR_IS_VERBALIZER (self));
  g_return_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template));
  g_return_if_fail (GRAMMAR_IS_SCHEMA (schema));
  g_return_if_fail (style != NULL);

  GRAMMAR_VERBALIZER_GET_IFACE (self)->verbalize_async (self, sql_template, schema, style, n, cancellable,
                                                        callback, user_data);
}

/**
 * grammar_verbalizer_verbalize_finish:
 * @self: a #GrammarVerbalizer
 * @result: the #GAsyncResult given to the callback
 * @dropped: (out) (optional) (transfer full) (array zero-terminated=1):
 *   the lines written and dropped, with why
 * @error: return location for a #GError
 *
 * Returns: (transfer container) (element-type GrammarTextTemplate): the
 *   text templates (maybe fewer than asked), or %NULL with @error set
 */
GPtrArray *
grammar_verbalizer_verbalize_finish (GrammarVerbalizer  *self,
                                     GAsyncResult       *result,
                                     GStrv              *dropped,
                                     GError            **error)
{
  g_return_val_if_fail (GRAMMAR_IS_VERBALIZER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (dropped != NULL)
    *dropped = NULL;
  return GRAMMAR_VERBALIZER_GET_IFACE (self)->verbalize_finish (self, result, dropped, error);
}

/**
 * grammar_verbalizer_verbalize:
 * @self: a #GrammarVerbalizer
 * @sql_template: the SQL template
 * @schema: the schema of its database
 * @style: a text style (grammar_text_style_list())
 * @n: how many distinct text templates to write
 * @dropped: (out) (optional) (transfer full) (array zero-terminated=1):
 *   the lines written and dropped, with why
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * grammar_verbalizer_verbalize_async() on a private main context,
 * blocking.
 *
 * Returns: (transfer container) (element-type GrammarTextTemplate): the
 *   text templates (maybe fewer than asked), or %NULL with @error set
 */
GPtrArray *
grammar_verbalizer_verbalize (GrammarVerbalizer   *self,
                              GrammarSqlTemplate  *sql_template,
                              GrammarSchema       *schema,
                              const char          *style,
                              guint                n,
                              GStrv               *dropped,
                              GCancellable        *cancellable,
                              GError             **error)
{
  GrammarSync sync;
  GPtrArray *made;

  g_return_val_if_fail (GRAMMAR_IS_VERBALIZER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  grammar_sync_init (&sync);
  grammar_verbalizer_verbalize_async (self, sql_template, schema, style, n, cancellable, grammar_sync_callback,
                                      &sync);
  made = grammar_verbalizer_verbalize_finish (self, grammar_sync_wait (&sync), dropped, error);
  grammar_sync_clear (&sync);
  return made;
}

/* The output set: the input's SQL templates, its text templates of the
 * styles not being made (so that runs per style into one file add up). */
static GrammarTemplateSet *
start_output (GrammarTemplateSet *input,
              const char * const *styles)
{
  GrammarTemplateSet *output = grammar_template_set_new ();
  GPtrArray *sql_templates = grammar_template_set_get_sql_templates (input);
  GPtrArray *text_templates = grammar_template_set_get_text_templates (input);

  for (guint i = 0; i < sql_templates->len; i++)
    grammar_template_set_add_sql_template (output, g_ptr_array_index (sql_templates, i));
  for (guint i = 0; i < text_templates->len; i++)
    {
      GrammarTextTemplate *text_template = g_ptr_array_index (text_templates, i);

      if (!g_strv_contains (styles, grammar_text_template_get_style (text_template)))
        grammar_template_set_add_text_template (output, text_template);
    }
  return output;
}

static GStrv
steal_strv (GPtrArray *lines)
{
  g_ptr_array_add (lines, NULL);
  return (GStrv) g_ptr_array_free (lines, FALSE);
}

/**
 * grammar_verbalizer_make_text_templates:
 * @self: a #GrammarVerbalizer
 * @input: the SQL templates (and maybe text templates of other styles)
 * @schema: the schema of their database
 * @styles: (array zero-terminated=1): the styles to make
 * @per_template: how many distinct text templates per SQL template and style
 * @progress: (scope call) (closure progress_data) (nullable): called
 *   before each SQL template and style
 * @progress_data: data for @progress
 * @shortfalls: (out) (optional) (transfer full) (array zero-terminated=1):
 *   the SQL templates that got fewer than @per_template, one line each
 * @dropped: (out) (optional) (transfer full) (array zero-terminated=1):
 *   the lines the verbalizer wrote and dropped, with why
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * The text-templates stage: every SQL template of @input in every style
 * of @styles, @per_template times. The result holds the SQL templates of
 * @input, its text templates of the other styles (so that runs per style
 * into one file add up), then the new ones. A verbalizer that dropped
 * every line it wrote is a bad reply: %GRAMMAR_ERROR_INVALID_INPUT.
 * It blocks; call it from a worker thread in a program with a user
 * interface.
 *
 * Returns: (transfer full): the text templates, or %NULL with @error set
 */
GrammarTemplateSet *
grammar_verbalizer_make_text_templates (GrammarVerbalizer          *self,
                                        GrammarTemplateSet         *input,
                                        GrammarSchema              *schema,
                                        const char * const         *styles,
                                        guint                       per_template,
                                        GrammarVerbalizerProgress   progress,
                                        gpointer                    progress_data,
                                        GStrv                      *shortfalls,
                                        GStrv                      *dropped,
                                        GCancellable               *cancellable,
                                        GError                    **error)
{
  g_autoptr (GrammarTemplateSet) output = NULL;
  g_autoptr (GPtrArray) short_lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) dropped_lines = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *sql_templates;
  guint n_made = 0;
  guint n_dropped;
  guint done = 0;
  guint total;

  g_return_val_if_fail (GRAMMAR_IS_VERBALIZER (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (input), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (schema), NULL);
  g_return_val_if_fail (styles != NULL, NULL);
  g_return_val_if_fail (per_template >= 1, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  output = start_output (input, styles);
  sql_templates = grammar_template_set_get_sql_templates (input);
  total = sql_templates->len * g_strv_length ((GStrv) styles);
  for (guint s = 0; styles[s] != NULL; s++)
    for (guint i = 0; i < sql_templates->len; i++, done++)
      {
        GrammarSqlTemplate *sql_template = g_ptr_array_index (sql_templates, i);
        g_autoptr (GPtrArray) made = NULL;
        g_auto (GStrv) lines = NULL;

        if (g_cancellable_set_error_if_cancelled (cancellable, error))
          return NULL;
        if (progress != NULL)
          progress (sql_template, styles[s], done, total, progress_data);
        made = grammar_verbalizer_verbalize (self, sql_template, schema, styles[s], per_template, &lines,
                                             cancellable, error);
        if (made == NULL)
          return NULL;
        for (guint j = 0; lines != NULL && lines[j] != NULL; j++)
          g_ptr_array_add (dropped_lines, g_strdup (lines[j]));
        for (guint j = 0; j < made->len; j++)
          if (grammar_template_set_add_text_template (output, g_ptr_array_index (made, j)))
            n_made++;
        if (made->len < per_template)
          g_ptr_array_add (short_lines,
                           g_strdup_printf ("%s (%s): %u of %u — %s", grammar_sql_template_get_id (sql_template),
                                            styles[s], made->len, per_template,
                                            grammar_sql_template_get_sql (sql_template)));
      }

  n_dropped = dropped_lines->len;
  if (dropped != NULL)
    *dropped = steal_strv (g_steal_pointer (&dropped_lines));
  if (shortfalls != NULL)
    *shortfalls = steal_strv (g_steal_pointer (&short_lines));
  /* A verbalizer that never gave one usable line is a bad reply, as with
   * `grammar sql-templates`: nothing is written. */
  if (n_made == 0 && total > 0 && n_dropped > 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "the verbalizer gave no valid text template for any SQL template "
                   "(%u line%s dropped; -v lists them)", n_dropped, n_dropped == 1 ? "" : "s");
      return NULL;
    }
  return g_steal_pointer (&output);
}
