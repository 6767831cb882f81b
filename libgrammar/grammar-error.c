/* grammar-error.c: error domains of libgrammar
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-error.h"

G_DEFINE_QUARK (grammar-config-error-quark, grammar_config_error)
G_DEFINE_QUARK (grammar-database-error-quark, grammar_database_error)
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
