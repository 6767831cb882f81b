/* fuzz-util.h: what the libFuzzer harnesses of tests/fuzz share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>
#include <stddef.h>
#include <stdint.h>

G_BEGIN_DECLS

int          LLVMFuzzerInitialize   (int           *argc,
                                     char        ***argv);
int          LLVMFuzzerTestOneInput (const uint8_t *data,
                                     size_t         size);

/* The input as a NUL-terminated string (the parsers take C strings). */
char        *fuzz_strndup           (const uint8_t *data,
                                     size_t         size);
/* The path of one file, private to this process, that holds the input
 * after the call: for the readers that only take files. */
const char  *fuzz_write_input       (const uint8_t *data,
                                     size_t         size);
/* The same with a name of its own, for readers that go by file names;
 * the same name is the same file. */
const char  *fuzz_write_file        (const char    *name,
                                     const uint8_t *data,
                                     size_t         size);
/* A type module in which a harness registers the dynamic types of a
 * plugin it compiled in, as the plugin's module would. */
GTypeModule *fuzz_type_module       (void);
/* Runs what the input left on the main context (GTask returns, idles). */
void         fuzz_drain_main_context (void);

G_END_DECLS
