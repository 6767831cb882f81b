/* grammar-json-writer-private.h: the product's own JSON writer: a growing buffer, strings and numbers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * GrammarJsonBuffer:
 * @data: the bytes written, not nul-terminated (%NULL while empty)
 * @len: how many
 * @size: the bytes allocated
 *
 * Where JSON text is written without #JsonBuilder and #JsonGenerator:
 * the QA generator's records, grammar_json_to_data() and every file the
 * product writes take their strings and numbers from here, so that a
 * double is written the same way in all of them. Starts zeroed
 * (`GrammarJsonBuffer buffer = { 0, };`); grammar_json_buffer_clear()
 * frees it.
 */
typedef struct
{
  char *data;
  gsize len;
  gsize size;
} GrammarJsonBuffer;

/* Appends a string literal, without counting its length at run time. */
#define grammar_json_buffer_append_literal(buffer, text) \
  grammar_json_buffer_append ((buffer), (text), sizeof (text) - 1)

G_GNUC_INTERNAL
void        grammar_json_buffer_clear          (GrammarJsonBuffer       *buffer);
G_GNUC_INTERNAL
void        grammar_json_buffer_append         (GrammarJsonBuffer       *buffer,
                                                const char              *text,
                                                gsize                    length);
G_GNUC_INTERNAL
void        grammar_json_buffer_append_c       (GrammarJsonBuffer       *buffer,
                                                char                     c);
G_GNUC_INTERNAL
void        grammar_json_buffer_append_buffer  (GrammarJsonBuffer       *buffer,
                                                const GrammarJsonBuffer *other);
G_GNUC_INTERNAL
void        grammar_json_buffer_append_content (GrammarJsonBuffer       *out,
                                                const char              *text,
                                                gsize                    length);
G_GNUC_INTERNAL
void        grammar_json_buffer_append_string  (GrammarJsonBuffer       *out,
                                                const char              *text,
                                                gsize                    length);
G_GNUC_INTERNAL
void        grammar_json_buffer_append_int     (GrammarJsonBuffer       *out,
                                                gint64                   value);
G_GNUC_INTERNAL
void        grammar_json_buffer_append_double  (GrammarJsonBuffer       *out,
                                                double                   value);
G_GNUC_INTERNAL
char       *grammar_json_content_dup           (const char              *text);
G_GNUC_INTERNAL
const char *grammar_json_format_int            (char                     text[24],
                                                gint64                   value);

G_END_DECLS
