/* grammar-visibility.h: which declarations libgrammar exports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GRAMMAR_INSIDE) && !defined(GRAMMAR_PLUGIN_INSIDE) && !defined(GRAMMAR_COMPILATION)
#error "Only <grammar.h> can be included directly."
#endif

#include <glib.h>

/* The library is built with hidden symbols (gnu_symbol_visibility:
 * 'hidden'): only what a public header marks with one of the macros
 * below is exported, and tests/test-exports.py checks that the two sets
 * are the same. A new public function, or the G_DECLARE_* line of a new
 * public type, takes GRAMMAR_AVAILABLE_IN_ALL on the line before it;
 * tools/annotate-public-headers.py adds the missing ones. */

#if defined(GRAMMAR_COMPILATION) && defined(__GNUC__)
#  define _GRAMMAR_EXTERN __attribute__((visibility ("default"))) extern
#else
#  define _GRAMMAR_EXTERN extern
#endif

/**
 * GRAMMAR_AVAILABLE_IN_ALL:
 *
 * Marks a declaration of the public API that every version of the
 * library has: the symbol is exported.
 */
#define GRAMMAR_AVAILABLE_IN_ALL _GRAMMAR_EXTERN

/**
 * GRAMMAR_DEPRECATED:
 *
 * Marks a public declaration that is deprecated: it stays exported, and
 * the compiler warns where it is used.
 */
#define GRAMMAR_DEPRECATED G_DEPRECATED _GRAMMAR_EXTERN

/**
 * GRAMMAR_DEPRECATED_FOR:
 * @f: the name of what to use instead
 *
 * Marks a public declaration that is deprecated in favour of @f: it
 * stays exported, and the compiler warns where it is used.
 */
#define GRAMMAR_DEPRECATED_FOR(f) G_DEPRECATED_FOR (f) _GRAMMAR_EXTERN
