/* fuzz-util.c: what the libFuzzer harnesses of tests/fuzz share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "fuzz-util.h"

#include <glib/gstdio.h>
#include <stdlib.h>

/* A critical (a failed g_return_if_fail) or an error is a bug of the
 * code under test: abort, which libFuzzer reports as a crash and keeps
 * the input of. GLib's own fatal criticals (G_DEBUG=fatal-criticals)
 * stop with SIGTRAP, which libFuzzer does not catch. */
static GLogWriterOutput
fuzz_log_writer (GLogLevelFlags   log_level,
                 const GLogField *fields,
                 gsize            n_fields,
                 gpointer         user_data)
{
  GLogWriterOutput output = g_log_writer_standard_streams (log_level, fields, n_fields, user_data);

  if (log_level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR))
    abort ();
  return output;
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_log_set_writer_func (fuzz_log_writer, NULL, NULL);
  return 0;
}

char *
fuzz_strndup (const uint8_t *data,
              size_t         size)
{
  return g_strndup ((const char *) data, size);
}

static char *tmp_dir;

static void
remove_tmp_dir (void)
{
  g_autoptr (GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (tmp_dir);
}

const char *
fuzz_write_file (const char    *name,
                 const uint8_t *data,
                 size_t         size)
{
  static GHashTable *paths;
  g_autoptr (GError) error = NULL;
  char *path;

  if (tmp_dir == NULL)
    {
      /* One folder per process: libFuzzer's -fork and -jobs run harnesses side by side. */
      tmp_dir = g_dir_make_tmp ("grammar-fuzz-XXXXXX", &error);
      if (tmp_dir == NULL)
        g_error ("%s", error->message);
      atexit (remove_tmp_dir);
      paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    }
  path = g_hash_table_lookup (paths, name);
  if (path == NULL)
    {
      path = g_build_filename (tmp_dir, name, NULL);
      g_hash_table_insert (paths, g_strdup (name), path);
    }
  /* Without the fsync of g_file_set_contents(): it would cost most of the time of a run. */
  if (!g_file_set_contents_full (path, (const char *) data, (gssize) size, G_FILE_SET_CONTENTS_NONE, 0600, &error))
    g_error ("%s", error->message);
  return path;
}

const char *
fuzz_write_input (const uint8_t *data,
                  size_t         size)
{
  return fuzz_write_file ("input", data, size);
}

/* A module that is always loaded: the types live in the harness. */
typedef GTypeModule FuzzModule;
typedef GTypeModuleClass FuzzModuleClass;

static GType fuzz_module_get_type (void);
G_DEFINE_TYPE (FuzzModule, fuzz_module, G_TYPE_TYPE_MODULE)

static gboolean
fuzz_module_load (GTypeModule *module)
{
  return TRUE;
}

static void
fuzz_module_unload (GTypeModule *module)
{
}

static void
fuzz_module_class_init (FuzzModuleClass *klass)
{
  klass->load = fuzz_module_load;
  klass->unload = fuzz_module_unload;
}

static void
fuzz_module_init (FuzzModule *self)
{
}

GTypeModule *
fuzz_type_module (void)
{
  static GTypeModule *module;

  if (module == NULL)
    {
      module = g_object_new (fuzz_module_get_type (), NULL);
      g_type_module_set_name (module, "fuzz");
      g_type_module_use (module);
    }
  return module;
}

void
fuzz_drain_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}
