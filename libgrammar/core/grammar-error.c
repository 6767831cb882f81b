/* grammar-error.c: error domains of libgrammar
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "grammar-config.h"
#include "grammar-database.h"
#include "grammar-error.h"

G_DEFINE_QUARK (grammar-error-quark, grammar_error)

/**
 * grammar_error_is_input_error:
 * @error: an error from libgrammar or one of its plugins
 *
 * Tells whether @error is something the user fixes in the input
 * (configuration, template, data file, SQL text) rather than a failure of
 * the run itself. The command line maps the first to exit status 2 and
 * the second to 1.
 *
 * Returns: %TRUE for configuration, input and SQL errors
 */
gboolean
grammar_error_is_input_error (const GError *error)
{
  g_return_val_if_fail (error != NULL, FALSE);

  if (error->domain == GRAMMAR_CONFIG_ERROR)
    return TRUE;
  if (error->domain == GRAMMAR_DATABASE_ERROR)
    return error->code != GRAMMAR_DATABASE_ERROR_QUERY;
  if (error->domain == GRAMMAR_ERROR)
    return error->code == GRAMMAR_ERROR_INVALID_INPUT;
  if (error->domain == G_KEY_FILE_ERROR || error->domain == G_OPTION_ERROR)
    return TRUE;
  return FALSE;
}

/* Whether two paths name one file: the same path, or the same file
 * identifier (a symlink or a hard link to it). */
static gboolean
same_file (GFile *a,
           GFile *b)
{
  g_autoptr (GFileInfo) a_info = NULL;
  g_autoptr (GFileInfo) b_info = NULL;

  if (g_file_equal (a, b))
    return TRUE;
  a_info = g_file_query_info (a, G_FILE_ATTRIBUTE_ID_FILE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  b_info = g_file_query_info (b, G_FILE_ATTRIBUTE_ID_FILE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  return a_info != NULL && b_info != NULL &&
         g_strcmp0 (g_file_info_get_attribute_string (a_info, G_FILE_ATTRIBUTE_ID_FILE),
                    g_file_info_get_attribute_string (b_info, G_FILE_ATTRIBUTE_ID_FILE)) == 0;
}

/**
 * grammar_check_output_not_input:
 * @output: the file a command is about to write
 * @inputs: (array zero-terminated=1): the files it reads; %NULL members
 *   of the array end it
 * @error: return location for a #GError
 *
 * The one check every command makes before it writes: @output must not
 * be one of its @inputs, by path or through a symlink or a hard link,
 * since writing it would destroy what the command reads.
 *
 * Returns: %TRUE when @output is none of @inputs; %FALSE with
 *   %GRAMMAR_ERROR_INVALID_INPUT otherwise
 */
gboolean
grammar_check_output_not_input (const char          *output,
                                const char * const  *inputs,
                                GError             **error)
{
  g_autoptr (GFile) output_file = NULL;

  g_return_val_if_fail (output != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  output_file = g_file_new_for_path (output);
  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    {
      g_autoptr (GFile) input_file = g_file_new_for_path (inputs[i]);

      if (same_file (input_file, output_file))
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "%s: the output must not be the input %s", output, inputs[i]);
          return FALSE;
        }
    }
  return TRUE;
}
