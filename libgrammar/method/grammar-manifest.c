/* grammar-manifest.c: what each stage's file of a run was made from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "grammar-json-private.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-manifest-private.h"

/* The manifest of an output folder, `manifest.json`:
 *
 *   {"version": 1,
 *    "stages": {"sql-templates.json": {"fingerprint": "…", "complete": true}, …}}
 *
 * one entry per stage file, named relative to the folder: the fingerprint
 * of the configuration and inputs it was made from, and whether the stage
 * finished. GrammarMethod records a stage as incomplete before it starts
 * and complete when it succeeded. */

#define MANIFEST_FILE "manifest.json"
#define MANIFEST_VERSION 1

typedef struct
{
  char *fingerprint;
  gboolean complete;
} Entry;

struct _GrammarManifest
{
  GObject parent_instance;

  char *path;
  GTree *entries;   /* file → Entry, sorted so that the file is stable */
};

G_DEFINE_FINAL_TYPE (GrammarManifest, grammar_manifest, G_TYPE_OBJECT)

static void
entry_free (Entry *entry)
{
  g_free (entry->fingerprint);
  g_free (entry);
}

static void
grammar_manifest_finalize (GObject *object)
{
  GrammarManifest *self = GRAMMAR_MANIFEST (object);

  g_free (self->path);
  g_tree_unref (self->entries);
  G_OBJECT_CLASS (grammar_manifest_parent_class)->finalize (object);
}

static void
grammar_manifest_class_init (GrammarManifestClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_manifest_finalize;
}

static int
compare_files (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  return strcmp (a, b);
}

static void
grammar_manifest_init (GrammarManifest *self)
{
  self->entries = g_tree_new_full (compare_files, NULL, g_free, (GDestroyNotify) entry_free);
}

static gboolean
bad_manifest (GrammarManifest  *self,
              const char       *problem,
              GError          **error)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "%s: %s; it is not a manifest of `grammar run` (remove it, and every stage is made again)",
               self->path, problem);
  return FALSE;
}

static gboolean
read_entries (GrammarManifest  *self,
              JsonNode         *root,
              GError          **error)
{
  JsonObject *object;
  JsonNode *stages;
  g_autoptr (GList) files = NULL;

  /* json-glib reads a file of only white space, comments or a byte-order mark as no document: root NULL. */
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return bad_manifest (self, "not a JSON object", error);
  object = json_node_get_object (root);
  if (json_object_get_int_member_with_default (object, "version", 0) != MANIFEST_VERSION)
    return bad_manifest (self, "no \"version\": 1", error);
  stages = json_object_get_member (object, "stages");
  if (stages == NULL || !JSON_NODE_HOLDS_OBJECT (stages))
    return bad_manifest (self, "no \"stages\" object", error);

  files = json_object_get_members (json_node_get_object (stages));
  for (GList *l = files; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (json_node_get_object (stages), l->data);
      JsonObject *stage;
      const char *fingerprint;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return bad_manifest (self, "a stage that is not an object", error);
      stage = json_node_get_object (node);
      fingerprint = json_object_get_string_member_with_default (stage, "fingerprint", NULL);
      if (fingerprint == NULL)
        return bad_manifest (self, "a stage without \"fingerprint\"", error);
      grammar_manifest_set (self, l->data, fingerprint,
                            json_object_get_boolean_member_with_default (stage, "complete", FALSE));
    }
  return TRUE;
}

/* grammar_manifest_load:
 * @folder: the output folder
 *
 * Reads @folder's manifest; a folder without one gives an empty manifest.
 * Returns: (transfer full): the manifest, or NULL with @error set when
 * the file cannot be read or is not a manifest. */
GrammarManifest *
grammar_manifest_load (const char  *folder,
                       GError     **error)
{
  g_autoptr (GrammarManifest) self = g_object_new (GRAMMAR_TYPE_MANIFEST, NULL);
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) local_error = NULL;

  self->path = g_build_filename (folder, MANIFEST_FILE, NULL);
  if (!g_file_test (self->path, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&self);
  if (!grammar_json_check_file_depth (self->path, error))
    return NULL;
  parser = json_parser_new ();
  if (!json_parser_load_from_mapped_file (parser, self->path, &local_error))
    {
      if (local_error->domain == JSON_PARSER_ERROR)
        {
          bad_manifest (self, local_error->message, error);
          return NULL;
        }
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", self->path);
      return NULL;
    }
  if (!read_entries (self, json_parser_get_root (parser), error))
    return NULL;
  return g_steal_pointer (&self);
}

/* Whether @file has an entry; then its fingerprint and whether the stage
 * finished. */
gboolean
grammar_manifest_lookup (GrammarManifest  *self,
                         const char       *file,
                         const char      **fingerprint,
                         gboolean         *complete)
{
  Entry *entry = g_tree_lookup (self->entries, file);

  if (entry == NULL)
    return FALSE;
  *fingerprint = entry->fingerprint;
  *complete = entry->complete;
  return TRUE;
}

void
grammar_manifest_set (GrammarManifest *self,
                      const char      *file,
                      const char      *fingerprint,
                      gboolean         complete)
{
  Entry *entry = g_new0 (Entry, 1);

  entry->fingerprint = g_strdup (fingerprint);
  entry->complete = complete;
  g_tree_replace (self->entries, g_strdup (file), entry);
}

static gboolean
add_entry (gpointer key,
           gpointer value,
           gpointer user_data)
{
  JsonBuilder *builder = user_data;
  Entry *entry = value;

  json_builder_set_member_name (builder, key);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "fingerprint");
  json_builder_add_string_value (builder, entry->fingerprint);
  json_builder_set_member_name (builder, "complete");
  json_builder_add_boolean_value (builder, entry->complete);
  json_builder_end_object (builder);
  return FALSE;
}

static gboolean
write_manifest (GOutputStream  *stream,
                gpointer        user_data,
                GCancellable   *cancellable,
                GError        **error)
{
  GrammarManifest *self = user_data;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, MANIFEST_VERSION);
  json_builder_set_member_name (builder, "stages");
  json_builder_begin_object (builder);
  g_tree_foreach (self->entries, add_entry, builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = grammar_json_to_data (root, 2, &length);
  return g_output_stream_write_all (stream, text, length, NULL, cancellable, error) &&
         g_output_stream_write_all (stream, "\n", 1, NULL, cancellable, error);
}

/* Writes the manifest, atomically. */
gboolean
grammar_manifest_save (GrammarManifest  *self,
                       GError          **error)
{
  return grammar_file_write_atomically (self->path, write_manifest, self, NULL, error);
}
