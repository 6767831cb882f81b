/* grammar-error.h: error domains of libgrammar
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/**
 * GRAMMAR_CONFIG_ERROR:
 *
 * Error domain for keyfile configuration errors. Errors in this domain
 * are from the #GrammarConfigError enumeration. Every such error is
 * something the user fixes in the keyfile: the command line exits with
 * status 2.
 */
#define GRAMMAR_CONFIG_ERROR (grammar_config_error_quark ())

/**
 * GrammarConfigError:
 * @GRAMMAR_CONFIG_ERROR_PARSE: the file is not a valid keyfile or cannot be read
 * @GRAMMAR_CONFIG_ERROR_MISSING_SECTION: a section that is needed or referenced does not exist
 * @GRAMMAR_CONFIG_ERROR_MISSING_PLUGIN: a component section has no `plugin=` key
 * @GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN: no plugin of that name implements the interface
 * @GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY: the plugin has no property of that name
 * @GRAMMAR_CONFIG_ERROR_BAD_VALUE: the text of a key cannot be converted to its property
 * @GRAMMAR_CONFIG_ERROR_CYCLE: sections refer to each other in a cycle
 * @GRAMMAR_CONFIG_ERROR_WRONG_INTERFACE: a referenced section builds a component of another kind
 * @GRAMMAR_CONFIG_ERROR_INIT: the plugin refused its configuration (for example a file that cannot be opened)
 *
 * Error codes for %GRAMMAR_CONFIG_ERROR.
 */
typedef enum {
  GRAMMAR_CONFIG_ERROR_PARSE,
  GRAMMAR_CONFIG_ERROR_MISSING_SECTION,
  GRAMMAR_CONFIG_ERROR_MISSING_PLUGIN,
  GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN,
  GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY,
  GRAMMAR_CONFIG_ERROR_BAD_VALUE,
  GRAMMAR_CONFIG_ERROR_CYCLE,
  GRAMMAR_CONFIG_ERROR_WRONG_INTERFACE,
  GRAMMAR_CONFIG_ERROR_INIT,
} GrammarConfigError;

/**
 * GRAMMAR_DATABASE_ERROR:
 *
 * Error domain for database errors, from the #GrammarDatabaseError
 * enumeration.
 */
#define GRAMMAR_DATABASE_ERROR (grammar_database_error_quark ())

/**
 * GrammarDatabaseError:
 * @GRAMMAR_DATABASE_ERROR_OPEN: the database cannot be opened
 * @GRAMMAR_DATABASE_ERROR_SYNTAX: the SQL text does not compile
 * @GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY: the statement would write, or is not a query
 * @GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS: more than one statement was given
 * @GRAMMAR_DATABASE_ERROR_BIND: a parameter cannot be bound (count or type)
 * @GRAMMAR_DATABASE_ERROR_NO_SUCH_TABLE: the table does not exist
 * @GRAMMAR_DATABASE_ERROR_NO_SUCH_COLUMN: the column does not exist in the table
 * @GRAMMAR_DATABASE_ERROR_QUERY: running the statement failed (busy, I/O, interrupted)
 * @GRAMMAR_DATABASE_ERROR_LIMIT: the statement or its answer exceeded a limit:
 *   the database's `query-timeout` or largest value, or
 *   #GrammarQaGenerator:max-answer-rows or #GrammarQaGenerator:max-answer-bytes;
 *   the message names the limit and its value
 *
 * Error codes for %GRAMMAR_DATABASE_ERROR. All but
 * %GRAMMAR_DATABASE_ERROR_QUERY are input errors the user can fix.
 */
typedef enum {
  GRAMMAR_DATABASE_ERROR_OPEN,
  GRAMMAR_DATABASE_ERROR_SYNTAX,
  GRAMMAR_DATABASE_ERROR_NOT_READ_ONLY,
  GRAMMAR_DATABASE_ERROR_MULTIPLE_STATEMENTS,
  GRAMMAR_DATABASE_ERROR_BIND,
  GRAMMAR_DATABASE_ERROR_NO_SUCH_TABLE,
  GRAMMAR_DATABASE_ERROR_NO_SUCH_COLUMN,
  GRAMMAR_DATABASE_ERROR_QUERY,
  GRAMMAR_DATABASE_ERROR_LIMIT,
} GrammarDatabaseError;

/**
 * GRAMMAR_ERROR:
 *
 * Error domain for the remaining errors of the library, from the
 * #GrammarError enumeration.
 */
#define GRAMMAR_ERROR (grammar_error_quark ())

/**
 * GrammarError:
 * @GRAMMAR_ERROR_FAILED: the operation failed (a server unreachable after retries, an I/O error)
 * @GRAMMAR_ERROR_INVALID_INPUT: an input file or value is malformed
 * @GRAMMAR_ERROR_NOT_SUPPORTED: the component does not implement this operation
 *
 * Error codes for %GRAMMAR_ERROR.
 */
typedef enum {
  GRAMMAR_ERROR_FAILED,
  GRAMMAR_ERROR_INVALID_INPUT,
  GRAMMAR_ERROR_NOT_SUPPORTED,
} GrammarError;

GQuark grammar_config_error_quark   (void);
GQuark grammar_database_error_quark (void);
GQuark grammar_error_quark          (void);

gboolean grammar_error_is_input_error (const GError *error);

gboolean grammar_check_output_not_input (const char          *output,
                                         const char * const  *inputs,
                                         GError             **error);

G_END_DECLS
