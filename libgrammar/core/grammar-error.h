/* grammar-error.h: the library's own error domain and how errors are told apart
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib.h>

#include "grammar-visibility.h"

G_BEGIN_DECLS

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
 * @GRAMMAR_ERROR_UNAVAILABLE: a service could not be reached or did not
 *   answer: the connection failed (refused, host not found, reset), no
 *   reply came in time, or it answered 408, 429 or 5xx until the retries
 *   ran out. Unlike a reply that cannot be read, it says nothing of the
 *   query, so a stage stops after several in a row
 *   (#GrammarStageRunner:max-consecutive-failures).
 *
 * Error codes for %GRAMMAR_ERROR.
 */
typedef enum {
  GRAMMAR_ERROR_FAILED,
  GRAMMAR_ERROR_INVALID_INPUT,
  GRAMMAR_ERROR_NOT_SUPPORTED,
  GRAMMAR_ERROR_UNAVAILABLE,
} GrammarError;

GRAMMAR_AVAILABLE_IN_ALL
GQuark grammar_error_quark (void);

GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_error_is_input_error (const GError *error);

GRAMMAR_AVAILABLE_IN_ALL
gboolean grammar_check_output_not_input (const char          *output,
                                         const char * const  *inputs,
                                         GError             **error);

G_END_DECLS
