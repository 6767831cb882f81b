/* grammar-test-util.c: helpers the test programs share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "grammar-test-util.h"

void
grammar_test_run_clear (GrammarTestRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

/* Runs `$GRAMMAR_EXE ARGS…` (NULL-terminated) in @cwd and collects its
 * output. meson sets GRAMMAR_EXE, so the tests run the built command, not
 * whichever one is on the PATH. */
void
grammar_test_runv (GrammarTestRun     *run,
                   const char         *cwd,
                   const char * const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  const char *exe = g_getenv ("GRAMMAR_EXE");
  int wait_status = 0;

  g_assert_nonnull (exe);
  g_ptr_array_add (argv, (gpointer) exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (cwd, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &run->out, &run->err, &wait_status, &error);
  g_assert_no_error (error);
  /* A crash is never an expected outcome: only exit statuses are compared. */
  g_assert_true (WIFEXITED (wait_status));
  run->status = WEXITSTATUS (wait_status);
}

/* The same with the arguments inline, the usual way a test spells a command. */
void
grammar_test_run (GrammarTestRun *run,
                  const char     *cwd,
                  ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const char *arg;
  va_list ap;

  va_start (ap, cwd);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  grammar_test_runv (run, cwd, (const char * const *) args->pdata);
}

/* Unlike g_assert_nonnull (strstr (…)), shows the text that was searched. */
void
grammar_test_assert_contains (const char *haystack,
                              const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
}

/* A fresh folder under the system's temporary one, from a template such as
 * "grammar-cli-XXXXXX"; remove it with grammar_test_remove_tree(). */
char *
grammar_test_make_tmp_dir (const char *tmpl)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp (tmpl, &error);

  g_assert_no_error (error);
  return dir;
}

/* Writes @contents to @dir/@name and returns that path (free it). */
char *
grammar_test_write_file (const char *dir,
                         const char *name,
                         const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* Removes @path and everything under it: tests leave output files and
 * sometimes folders behind, and nothing should outlive the test program. */
void
grammar_test_remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        grammar_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* Starts fake-openai with @args and waits for the URL it prints when it
 * is ready: no sleeping. */
GrammarTestServer *
grammar_test_server_start (const char * const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  const char *exe = g_getenv ("FAKE_OPENAI");
  GrammarTestServer *server = g_new0 (GrammarTestServer, 1);
  gsize length = 0;

  g_assert_nonnull (exe);
  g_ptr_array_add (argv, (gpointer) exe);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  server->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  server->stdin_pipe = g_object_ref (g_subprocess_get_stdin_pipe (server->process));
  server->stdout_pipe = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));

  server->url = g_data_input_stream_read_line_utf8 (server->stdout_pipe, &length, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (server->url);
  g_assert_true (g_str_has_suffix (server->url, "/v1"));
  server->root = g_strndup (server->url, strlen (server->url) - strlen ("/v1"));
  return server;
}

/* Closes the server's stdin, which stops it, and waits for it to exit;
 * the caller may then look at its exit status and remaining output. */
void
grammar_test_server_close (GrammarTestServer *server)
{
  g_autoptr (GError) error = NULL;

  g_output_stream_close (server->stdin_pipe, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait (server->process, NULL, &error);
  g_assert_no_error (error);
}

void
grammar_test_server_free (GrammarTestServer *server)
{
  g_object_unref (server->stdin_pipe);
  g_object_unref (server->stdout_pipe);
  g_object_unref (server->process);
  g_free (server->url);
  g_free (server->root);
  g_free (server->ca_file);
  g_free (server);
}

/* Puts the folder of the test module @module (a subfolder of the tests'
 * build folder, e.g. "rag-test-system") first on GRAMMAR_PLUGIN_PATH,
 * before the registry first loads. */
void
grammar_test_add_plugin_path (const char *module)
{
  const char *builddir = g_getenv ("G_TEST_BUILDDIR");
  const char *path = g_getenv ("GRAMMAR_PLUGIN_PATH");
  g_autofree char *module_dir = NULL;
  g_autofree char *new_path = NULL;

  g_assert_nonnull (builddir);
  module_dir = g_build_filename (builddir, module, NULL);
  new_path = path != NULL && *path != '\0' ? g_strconcat (module_dir, ":", path, NULL) : g_strdup (module_dir);
  g_setenv ("GRAMMAR_PLUGIN_PATH", new_path, TRUE);
}
