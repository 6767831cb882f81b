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

/*
 * GrammarFileLock:
 *
 * An advisory lock that makes a process the only writer of an output
 * (grammar_file_lock()); grammar_file_unlock() releases it.
 */
typedef struct _GrammarFileLock GrammarFileLock;

G_GNUC_INTERNAL
GrammarFileLock *grammar_file_lock   (const char       *path,
                                      GError          **error);
G_GNUC_INTERNAL
void             grammar_file_unlock (GrammarFileLock  *lock);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarFileLock, grammar_file_unlock)

G_END_DECLS
