/* grammar-method-fingerprint.c: the fingerprint of each stage of GrammarMethod: its options, sections, files and upstream stages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>
#include "grammar-method-private.h"
#include "grammar-comparison.h"
#include "grammar-database.h"
#include "grammar-document-generator.h"
#include "grammar-document.h"
#include "grammar-error.h"
#include "grammar-evaluation.h"
#include "grammar-judge-runner.h"
#include "grammar-manifest-private.h"
#include "grammar-matcher.h"
#include "grammar-method.h"
#include "grammar-plugin-info.h"
#include "grammar-qa-generator.h"
#include "grammar-rag-runner.h"
#include "grammar-registry.h"
#include "grammar-report.h"
#include "grammar-retriever.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-schema-generator.h"
#include "grammar-schema.h"
#include "grammar-sync-private.h"
#include "grammar-system.h"
#include "grammar-template-set.h"

/* Fingerprints ------------------------------------------------------------ */

/* The checksum of a file's contents, or "" when @path is no regular file;
 * each file is read once a run. */
static const char *
file_hash (GrammarMethod *self,
           const char    *path)
{
  const char *known = g_hash_table_lookup (self->file_hashes, path);
  g_autoptr (GChecksum) checksum = NULL;
  g_autoptr (GMappedFile) mapped = NULL;
  char *value;

  if (known != NULL)
    return known;
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    mapped = g_mapped_file_new (path, FALSE, NULL);
  if (mapped != NULL)
    {
      checksum = g_checksum_new (G_CHECKSUM_SHA256);
      g_checksum_update (checksum, (const guchar *) g_mapped_file_get_contents (mapped),
                         g_mapped_file_get_length (mapped));
      value = g_strdup (g_checksum_get_string (checksum));
    }
  else
    value = g_strdup ("");
  g_hash_table_insert (self->file_hashes, g_strdup (path), value);
  return value;
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Adds @section and the sections its values name, recursively, to @seen. */
static void
collect_sections (GKeyFile   *key_file,
                  const char *section,
                  GHashTable *seen)
{
  g_auto (GStrv) keys = NULL;

  if (!g_key_file_has_group (key_file, section) || !g_hash_table_add (seen, g_strdup (section)))
    return;
  keys = g_key_file_get_keys (key_file, section, NULL, NULL);
  for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
    {
      g_auto (GStrv) items = g_key_file_get_string_list (key_file, section, keys[k], NULL, NULL);

      for (guint i = 0; items != NULL && items[i] != NULL; i++)
        collect_sections (key_file, g_strstrip (items[i]), seen);
    }
}

/* Feeds @checksum with the keyfile sections @sections name and every
 * section they refer to, each key with its value and, where the value is
 * a file, the checksum of its contents. */
static void
hash_sections (GrammarMethod      *self,
               GChecksum          *checksum,
               StepKind            kind)
{
  const char * const *sections = grammar_assembly_get_stage_sections (self->assembly, step_names[kind]);
  GKeyFile *key_file = grammar_config_get_key_file (self->config);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree const char **names = NULL;
  guint n_names = 0;

  for (guint i = 0; sections[i] != NULL; i++)
    collect_sections (key_file, sections[i], seen);
  names = (const char **) g_hash_table_get_keys_as_array (seen, &n_names);
  g_qsort_with_data (names, n_names, sizeof (char *), compare_names, NULL);
  for (guint s = 0; s < n_names; s++)
    {
      g_auto (GStrv) keys = g_key_file_get_keys (key_file, names[s], NULL, NULL);
      guint n_keys = keys != NULL ? g_strv_length (keys) : 0;

      g_checksum_update (checksum, (const guchar *) "[", 1);
      g_checksum_update (checksum, (const guchar *) names[s], -1);
      g_checksum_update (checksum, (const guchar *) "]\n", 2);
      if (n_keys > 0)
        g_qsort_with_data (keys, n_keys, sizeof (char *), compare_names, NULL);
      for (guint k = 0; k < n_keys; k++)
        {
          g_autofree char *value = g_key_file_get_value (key_file, names[s], keys[k], NULL);
          g_autofree char *path = NULL;

          g_checksum_update (checksum, (const guchar *) keys[k], -1);
          g_checksum_update (checksum, (const guchar *) "=", 1);
          g_checksum_update (checksum, (const guchar *) (value != NULL ? value : ""), -1);
          g_checksum_update (checksum, (const guchar *) "\n", 1);
          if (value == NULL || value[0] == '\0')
            continue;
          path = grammar_config_resolve_path (self->config, g_strstrip (value));
          g_checksum_update (checksum, (const guchar *) file_hash (self, path), -1);
          g_checksum_update (checksum, (const guchar *) "\n", 1);
        }
    }
}

static void
hash_text (GChecksum  *checksum,
           const char *name,
           const char *text)
{
  g_checksum_update (checksum, (const guchar *) name, -1);
  g_checksum_update (checksum, (const guchar *) "=", 1);
  g_checksum_update (checksum, (const guchar *) (text != NULL ? text : "(none)"), -1);
  g_checksum_update (checksum, (const guchar *) "\n", 1);
}

static void
hash_step (GChecksum  *checksum,
           const char *name,
           Step       *step)
{
  hash_text (checksum, name, step != NULL ? step->fingerprint : NULL);
}

/* What the stage's file depends on: the stage's parameters, the sections
 * it reads and the fingerprints of the stages it reads from. */
char *
grammar_method_step_fingerprint (Run  *run,
                  Step *step)
{
  GrammarMethod *self = run->self;
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  Step *docs = grammar_method_find_step (run, STEP_DOCS, NULL);

  hash_text (checksum, "stage", step_names[step->kind]);
  hash_text (checksum, "style", step->style);
  switch (step->kind)
    {
    case STEP_SQL_TEMPLATES:
      hash_sections (self, checksum, step->kind);
      break;
    case STEP_DOCS:
      hash_sections (self, checksum, step->kind);
      break;
    case STEP_TEXT_TEMPLATES:
      {
        g_autofree char *n = g_strdup_printf ("%u", self->per_template);

        hash_text (checksum, "per-template", n);
        hash_sections (self, checksum, step->kind);
        hash_step (checksum, "sql-templates", grammar_method_find_step (run, STEP_SQL_TEMPLATES, NULL));
      }
      break;
    case STEP_QA:
      {
        g_autofree char *n = g_strdup_printf ("%u", self->per_group);
        g_autofree char *seed = g_strdup_printf ("%" G_GUINT64_FORMAT, self->seed);

        g_autofree char *limits = g_strdup_printf ("%u %" G_GUINT64_FORMAT, self->max_answer_rows,
                                                   self->max_answer_bytes);

        hash_text (checksum, "per-group", n);
        hash_text (checksum, "seed", seed);
        hash_text (checksum, "max-answer-rows max-answer-bytes", limits);
        hash_sections (self, checksum, step->kind);
        hash_step (checksum, "text-templates", grammar_method_find_step (run, STEP_TEXT_TEMPLATES, step->style));
        hash_step (checksum, "docs", docs);
      }
      break;
    case STEP_RAG:
      hash_sections (self, checksum, step->kind);
      hash_step (checksum, "qa", grammar_method_find_step (run, STEP_QA, step->style));
      hash_step (checksum, "docs", docs);
      break;
    case STEP_JUDGE:
      hash_sections (self, checksum, step->kind);
      hash_step (checksum, "rag", grammar_method_find_step (run, STEP_RAG, step->style));
      break;
    case STEP_ASSESS:
      hash_sections (self, checksum, step->kind);
      hash_step (checksum, "rag", grammar_method_find_step (run, STEP_RAG, step->style));
      break;
    case STEP_REPORT:
      hash_text (checksum, "compare", run->compared);
      /* what the report shows changed with its version */
      hash_text (checksum, "report", "2");
      for (guint i = 0; i < run->steps->len; i++)
        {
          Step *judge = g_ptr_array_index (run->steps, i);

          /* the judged and assessed files' contents too: a resumed stage adds records */
          if (judge->kind == STEP_JUDGE || judge->kind == STEP_ASSESS)
            {
              hash_step (checksum, judge->style, judge);
              hash_text (checksum, judge->file, file_hash (self, judge->path));
            }
        }
      break;
    default:
      g_assert_not_reached ();
    }
  return g_strdup (g_checksum_get_string (checksum));
}
