/* grammar-jsonl-private.h: the JSON Lines files of the resumable stages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "grammar-record.h"

G_BEGIN_DECLS

/*
 * What `grammar rag` and `grammar judge` share about their files: reading
 * an input line by line with errors that name "FILE:LINE", and resuming
 * an output: reading the ids it holds, removing the incomplete last line
 * a killed run left, and appending whole lines that are flushed at once.
 */

G_GNUC_INTERNAL
gboolean          grammar_jsonl_line_is_blank      (const char        *line,
                                                    gsize              length);
G_GNUC_INTERNAL
GDataInputStream *grammar_jsonl_open               (const char        *path,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
G_GNUC_INTERNAL
gboolean          grammar_jsonl_read_line          (GDataInputStream  *lines,
                                                    const char        *path,
                                                    char             **line,
                                                    gsize             *length,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
G_GNUC_INTERNAL
JsonObject       *grammar_jsonl_parse_object       (JsonParser        *parser,
                                                    const char        *path,
                                                    guint64            line,
                                                    const char        *text,
                                                    gsize              length,
                                                    GError           **error);
G_GNUC_INTERNAL
GrammarRecord    *grammar_jsonl_parse_record       (JsonParser        *parser,
                                                    const char        *path,
                                                    guint64            line,
                                                    const char        *text,
                                                    gsize              length,
                                                    const char * const *required,
                                                    GError           **error);
G_GNUC_INTERNAL
gboolean          grammar_jsonl_check_not_same_file (const char       *input,
                                                     const char       *output,
                                                     GCancellable     *cancellable,
                                                     GError          **error);

/*
 * GrammarJsonlTail:
 * @keep_bytes: the length of the output up to its last complete line
 * @incomplete_line: the number of an incomplete last line, or 0
 * @needs_newline: the last complete line lacks its newline
 *
 * Where the complete lines of an output end.
 */
typedef struct
{
  goffset keep_bytes;
  guint64 incomplete_line;
  gboolean needs_newline;
} GrammarJsonlTail;

/*
 * GrammarJsonlScanFunc:
 * @object: the record of one line of the output
 * @id: its `id`
 * @line: its line number
 * @user_data: the data given to grammar_jsonl_scan_output()
 * @error: return location for a #GError, prefixed with "FILE:LINE: "
 *
 * Notes one record of an output. Failing on the last line, when it has
 * no newline, marks it incomplete instead of failing the scan.
 */
typedef gboolean (*GrammarJsonlScanFunc) (JsonObject  *object,
                                          const char  *id,
                                          guint64      line,
                                          gpointer     user_data,
                                          GError     **error);

G_GNUC_INTERNAL
gboolean          grammar_jsonl_scan_output        (const char        *path,
                                                    GrammarJsonlScanFunc func,
                                                    gpointer           user_data,
                                                    GrammarJsonlTail  *tail,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
G_GNUC_INTERNAL
gboolean          grammar_jsonl_drop_incomplete_line (const char      *path,
                                                      GrammarJsonlTail *tail,
                                                      GCancellable    *cancellable,
                                                      GError         **error);
G_GNUC_INTERNAL
GOutputStream    *grammar_jsonl_open_append        (const char        *path,
                                                    gboolean           needs_newline,
                                                    GError           **error);
G_GNUC_INTERNAL
gboolean          grammar_jsonl_object_failed      (JsonObject        *object);
G_GNUC_INTERNAL
void              grammar_jsonl_append_node        (GString           *lines,
                                                    JsonNode          *node);
G_GNUC_INTERNAL
gboolean          grammar_jsonl_write              (GOutputStream     *stream,
                                                    const char        *path,
                                                    const GString     *lines,
                                                    GError           **error);

G_END_DECLS
