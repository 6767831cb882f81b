/* grammar-file.c: writing an output file all at once or not at all
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "grammar-error.h"
#include "grammar-file-private.h"

struct _GrammarFileLock
{
  char *path;   /* the lock file, or NULL when nothing was locked */
  int fd;
};

/* @path with its folder's symbolic links resolved, and its own when it
 * exists: two names of one output share one lock. */
static char *
resolve_path (const char *path)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *real_dir = NULL;
  char *real = realpath (path, NULL);

  if (real != NULL)
    return real;
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  real_dir = realpath (dir, NULL);
  return real_dir != NULL ? g_build_filename (real_dir, base, NULL) : g_strdup (path);
}

/* What the lock file at @fd says about its holder: "pid N on HOST". The
 * holder writes it just after taking the lock, so an empty file is read
 * again a few times. */
static char *
describe_holder (int fd)
{
  for (guint attempt = 0; attempt < 20; attempt++)
    {
      char text[256];
      ssize_t n = pread (fd, text, sizeof text - 1, 0);

      if (n > 0)
        {
          text[n] = '\0';
          return g_strdup (g_strstrip (text));
        }
      g_usleep (G_USEC_PER_SEC / 100);
    }
  return g_strdup ("a process that did not say its pid");
}

/*
 * grammar_file_lock:
 * @path: (type filename): the output file or folder a process is about to write
 * @error: return location for a #GError
 *
 * Makes this process the only writer of @path for as long as it holds
 * the lock: an advisory flock(2) on `PATH.lock` (on `PATH/.lock` for a
 * folder), a file beside the output holding the writer's pid and host
 * name. A second writer, in this process or another, fails at once with
 * %GRAMMAR_ERROR_INVALID_INPUT naming @path and the holder.
 *
 * The kernel drops the lock when its process dies, however it dies: a
 * lock file left by a killed process is simply locked again and
 * rewritten by the next writer, there is nothing stale to clean up. A
 * @path that exists and is not a regular file or folder (`/dev/null`, a
 * pipe) is not locked: nothing can be damaged by two writers there;
 * nor is one in a folder where the lock file cannot be made (missing or
 * read-only), where writing the output fails with its own message.
 *
 * Returns: (transfer full): the lock, for grammar_file_unlock(), or %NULL
 *   with @error set
 */
GrammarFileLock *
grammar_file_lock (const char  *path,
                   GError     **error)
{
  g_autofree char *real_path = resolve_path (path);
  g_autofree char *lock_path = NULL;
  g_autofree char *host = NULL;
  GStatBuf info;

  if (g_stat (real_path, &info) == 0 && !S_ISREG (info.st_mode) && !S_ISDIR (info.st_mode))
    {
      GrammarFileLock *lock = g_new0 (GrammarFileLock, 1);

      lock->fd = -1;
      return lock;
    }
  if (g_stat (real_path, &info) == 0 && S_ISDIR (info.st_mode))
    lock_path = g_build_filename (real_path, ".lock", NULL);
  else
    lock_path = g_strconcat (real_path, ".lock", NULL);

  /* The holder removes the lock file when it is done, so the file this
   * process locked may be gone (or replaced) by then: lock again until
   * the file locked is the one at lock_path. */
  for (;;)
    {
      GrammarFileLock *lock;
      g_autofree char *owner = NULL;
      struct stat locked, current;
      int fd = g_open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

      if (fd < 0)
        {
          /* A folder that does not exist or cannot be written: writing
           * the output fails too, with its own message. */
          g_debug ("%s: no lock file: %s", lock_path, g_strerror (errno));
          lock = g_new0 (GrammarFileLock, 1);
          lock->fd = -1;
          return lock;
        }
      if (flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          int saved_errno = errno;
          g_autofree char *holder = NULL;

          if (saved_errno != EWOULDBLOCK)
            {
              g_close (fd, NULL);
              g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: cannot lock %s: %s", path, lock_path,
                           g_strerror (saved_errno));
              return NULL;
            }
          holder = describe_holder (fd);
          g_close (fd, NULL);
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "%s is being written by another process (%s; lock file %s): wait for it to end or stop it, "
                       "or choose another output", path, holder, lock_path);
          return NULL;
        }
      if (fstat (fd, &locked) != 0 || g_stat (lock_path, &current) != 0 || locked.st_ino != current.st_ino ||
          locked.st_dev != current.st_dev)
        {
          g_close (fd, NULL);
          continue;
        }

      if (host == NULL)
        host = g_strdup (g_get_host_name ());
      owner = g_strdup_printf ("pid %ld on %s\n", (long) getpid (), host);
      /* Best effort: the lock holds without the description. */
      if (ftruncate (fd, 0) == 0 && pwrite (fd, owner, strlen (owner), 0) < 0)
        g_debug ("%s: cannot write the owner: %s", lock_path, g_strerror (errno));
      lock = g_new0 (GrammarFileLock, 1);
      lock->path = g_steal_pointer (&lock_path);
      lock->fd = fd;
      return lock;
    }
}

/*
 * grammar_file_unlock:
 * @lock: (transfer full) (nullable): a lock from grammar_file_lock()
 *
 * Releases @lock and removes its lock file: removed while still locked,
 * so that no other writer can lock it in between.
 */
void
grammar_file_unlock (GrammarFileLock *lock)
{
  if (lock == NULL)
    return;
  if (lock->fd >= 0)
    {
      g_unlink (lock->path);
      g_close (lock->fd, NULL);
    }
  g_free (lock->path);
  g_free (lock);
}

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
 * The write holds grammar_file_lock() on @path: a second process
 * writing the same file meanwhile fails at once.
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
  g_autoptr (GrammarFileLock) lock = NULL;
  g_autofree char *real_path = NULL;
  GStatBuf info;
  gboolean ok;

  lock = grammar_file_lock (path, error);
  if (lock == NULL)
    return FALSE;
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
