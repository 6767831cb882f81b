/* grammar-file.c: writing an output file all at once or not at all
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "grammar-file-private.h"

/* A temporary file next to @path, so that renaming it is atomic. */
static GFile *
create_temporary (const char  *path,
                  GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *name = g_strdup_printf (".%s.XXXXXX", base);   /* g_mkstemp_full's template */
  g_autofree char *temporary = g_build_filename (dir, name, NULL);
  int fd = g_mkstemp_full (temporary, O_RDWR | O_CLOEXEC, 0666);

  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot create a file in “%s”: %s", dir, g_strerror (saved_errno));
      return NULL;
    }
  g_close (fd, NULL);
  return g_file_new_for_path (temporary);
}

/* Appends to @file what @writer writes, and closes it. */
static gboolean
write_into (GFile              *file,
            GrammarFileWriter   writer,
            gpointer            user_data,
            GCancellable       *cancellable,
            GError            **error)
{
  g_autoptr (GFileOutputStream) stream = g_file_append_to (file, G_FILE_CREATE_NONE, cancellable, error);
  gboolean ok;

  if (stream == NULL)
    return FALSE;
  ok = writer (G_OUTPUT_STREAM (stream), user_data, cancellable, error);
  return g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, ok ? error : NULL) && ok;
}

/*
 * grammar_file_write_atomically:
 * @path: (type filename): the file to write
 * @writer: writes the content
 * @user_data: data for @writer
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Has @writer write the content of @path into a temporary file in the
 * same folder, which replaces @path (or the file a symbolic link @path
 * points to) only when everything succeeded: a failed or interrupted run
 * leaves the previous file, or none. A @path that exists and is not a
 * regular file, such as `/dev/null` or a pipe, is written to directly:
 * there is nothing to replace. I/O errors are prefixed with @path.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_file_write_atomically (const char         *path,
                               GrammarFileWriter   writer,
                               gpointer            user_data,
                               GCancellable       *cancellable,
                               GError            **error)
{
  g_autoptr (GFile) temporary = NULL;
  g_autoptr (GFile) target = NULL;
  g_autoptr (GError) local_error = NULL;
  g_autofree char *real_path = NULL;
  GStatBuf info;
  gboolean ok;

  if (g_stat (path, &info) == 0)
    {
      if (!S_ISREG (info.st_mode))
        {
          target = g_file_new_for_path (path);
          return write_into (target, writer, user_data, cancellable, error);
        }
      /* Replace what a symbolic link points to, not the link. */
      real_path = realpath (path, NULL);
    }
  if (real_path == NULL)
    real_path = g_strdup (path);

  temporary = create_temporary (real_path, &local_error);
  ok = temporary != NULL && write_into (temporary, writer, user_data, cancellable, &local_error);
  target = g_file_new_for_path (real_path);
  if (ok)
    ok = g_file_move (temporary, target, G_FILE_COPY_OVERWRITE | G_FILE_COPY_NO_FALLBACK_FOR_MOVE,
                      cancellable, NULL, NULL, &local_error);
  if (!ok)
    {
      if (temporary != NULL)
        g_file_delete (temporary, NULL, NULL);
      if (local_error->domain == G_IO_ERROR)
        g_prefix_error (&local_error, "%s: ", path);
      g_propagate_error (error, g_steal_pointer (&local_error));
    }
  return ok;
}

typedef struct
{
  char *path;
  GrammarFileWriter writer;
  gpointer user_data;
  GDestroyNotify destroy;
} Write;

static void
write_free (Write *write)
{
  g_free (write->path);
  if (write->destroy != NULL)
    write->destroy (write->user_data);
  g_free (write);
}

static void
write_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  Write *write = task_data;
  GError *error = NULL;

  if (grammar_file_write_atomically (write->path, write->writer, write->user_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* grammar_file_write_atomically() in a worker thread, for the
 * _async() form of a generator's write to a file: a #GTask of
 * @source_object tagged @source_tag, finished with
 * g_task_propagate_boolean(). @destroy frees @user_data afterwards. */
void
grammar_file_write_atomically_async (gpointer             source_object,
                                     gpointer             source_tag,
                                     const char          *path,
                                     GrammarFileWriter    writer,
                                     gpointer             user_data,
                                     GDestroyNotify       destroy,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             callback_data)
{
  g_autoptr (GTask) task = g_task_new (source_object, cancellable, callback, callback_data);
  Write *write = g_new0 (Write, 1);

  write->path = g_strdup (path);
  write->writer = writer;
  write->user_data = user_data;
  write->destroy = destroy;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, write, (GDestroyNotify) write_free);
  g_task_run_in_thread (task, write_in_thread);
}
