/* grammar-file-private.h: writing an output file all at once or not at all
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * GrammarFileWriter:
 * @stream: where to write
 * @user_data: the data given to grammar_file_write_atomically()
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes the whole content of a file to @stream (without closing it).
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
typedef gboolean (*GrammarFileWriter) (GOutputStream  *stream,
                                       gpointer        user_data,
                                       GCancellable   *cancellable,
                                       GError        **error);

G_GNUC_INTERNAL
gboolean grammar_file_write_atomically (const char         *path,
                                        GrammarFileWriter   writer,
                                        gpointer            user_data,
                                        GCancellable       *cancellable,
                                        GError            **error);

G_GNUC_INTERNAL
void     grammar_file_write_atomically_async (gpointer             source_object,
                                              gpointer             source_tag,
                                              const char          *path,
                                              GrammarFileWriter    writer,
                                              gpointer             user_data,
                                              GDestroyNotify       destroy,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             callback_data);

G_END_DECLS
