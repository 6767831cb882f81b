/* grammar-retrieval-util.c: pieces the retrievers of this module share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-retrieval-util.h"

/* The marker a stop-word set holds when it stands for the built-in
 * English list (grammar_document_is_stop_word()). */
#define ENGLISH_MARKER "\001english"

/* grammar_retrieval_check_ids:
 * Documents given to index() come from programs, not from a checked
 * file: an id used twice would make hits ambiguous, so refuse it with
 * the same wording as the corpus loader. */
gboolean
grammar_retrieval_check_ids (GPtrArray  *documents,
                             GError    **error)
{
  g_autoptr (GHashTable) first = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < documents->len; i++)
    {
      GrammarDocument *document = g_ptr_array_index (documents, i);
      const char *id;
      gpointer where;

      if (!GRAMMAR_IS_DOCUMENT (document))
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "document %u is not a GrammarDocument", i + 1);
          return FALSE;
        }
      id = grammar_document_get_id (document);
      if (g_hash_table_lookup_extended (first, id, NULL, &where))
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "duplicate id “%s” (documents %u and %u)", id, GPOINTER_TO_UINT (where), i + 1);
          return FALSE;
        }
      g_hash_table_insert (first, (gpointer) id, GUINT_TO_POINTER (i + 1));
    }
  return TRUE;
}

/* grammar_retrieval_copy_documents:
 * The caller may change its array after index() returns; keep our own. */
GPtrArray *
grammar_retrieval_copy_documents (GPtrArray *documents)
{
  GPtrArray *copy = g_ptr_array_new_full (documents->len, g_object_unref);

  for (guint i = 0; i < documents->len; i++)
    g_ptr_array_add (copy, g_object_ref (g_ptr_array_index (documents, i)));
  return copy;
}

/* grammar_retrieval_stop_words_pspecs:
 * The two properties of a retriever's stop words: `stop-words`, none or
 * english, and `stop-words-file`, a file of one's own. `stop-words=FILE`,
 * the old spelling, still sets the file for this release. */
void
grammar_retrieval_stop_words_pspecs (GParamSpec **words,
                                     GParamSpec **file,
                                     const char  *blurb)
{
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  *words = g_param_spec_enum ("stop-words", NULL, blurb, GRAMMAR_TYPE_STOP_WORDS, GRAMMAR_STOP_WORDS_NONE,
                              construct);
  grammar_param_spec_set_value_hint (*words, "must be none or english; a file of words goes in stop-words-file");
  grammar_param_spec_set_old_spelling (*words, NULL, "stop-words-file", NULL);
  *file = g_param_spec_string ("stop-words-file", NULL,
                               "A file of more words to ignore, one a line (# starts a comment)",
                               NULL, construct | GRAMMAR_PARAM_PATH);
}

/* grammar_retrieval_load_stop_words:
 * @kind: the built-in list, or none
 * @file: (nullable): a file with one word per line (blank lines and
 *   lines starting with # are skipped; each line is tokenised like the
 *   documents, so "Don't" adds "don" and "t"), or NULL or empty
 * Returns a set of tokens, or NULL for none; sets @error for an
 * unreadable file (a GRAMMAR_CONFIG_ERROR_BAD_VALUE naming the property). */
GHashTable *
grammar_retrieval_load_stop_words (GrammarStopWords   kind,
                                   const char        *file,
                                   GError           **error)
{
  g_autoptr (GHashTable) set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GError) local_error = NULL;
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  if (error != NULL)
    *error = NULL;
  if (kind == GRAMMAR_STOP_WORDS_ENGLISH)
    g_hash_table_add (set, g_strdup (ENGLISH_MARKER));
  if (file == NULL || *file == '\0')
    return g_hash_table_size (set) > 0 ? g_steal_pointer (&set) : NULL;
  if (!g_file_get_contents (file, &contents, NULL, &local_error))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "stop-words-file: %s", local_error->message);
      return NULL;
    }
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) tokens = NULL;

      if (g_str_has_prefix (g_strchug (lines[i]), "#"))
        continue;
      tokens = grammar_document_tokenize (lines[i]);
      for (guint j = 0; tokens[j] != NULL; j++)
        g_hash_table_add (set, g_strdup (tokens[j]));
    }
  return g_steal_pointer (&set);
}

gboolean
grammar_retrieval_is_stop_word (GHashTable *stop_words,
                                const char *token)
{
  if (stop_words == NULL)
    return FALSE;
  if (g_hash_table_contains (stop_words, ENGLISH_MARKER) && grammar_document_is_stop_word (token))
    return TRUE;
  return g_hash_table_contains (stop_words, token);
}

/* grammar_retrieval_document_words:
 * The text a retriever indexes for a document: the title (when asked
 * for and present) and the text, separated so that their last and first
 * words do not join. */
char *
grammar_retrieval_document_words (GrammarDocument *document,
                                  gboolean         with_title)
{
  const char *title = grammar_document_get_title (document);

  if (!with_title || title == NULL || *title == '\0')
    return g_strdup (grammar_document_get_text (document));
  return g_strconcat (title, "\n", grammar_document_get_text (document), NULL);
}
