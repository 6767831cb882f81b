/* grammar-schema-names.c: what the names and declared types of columns suggest
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include "grammar-schema-generator-private.h"
#include "grammar-error.h"
#include "grammar-schema-generator.h"
#include "grammar-sql-generator-private.h"

/* Reading column names and types ------------------------------------------ */

GrammarSchemaGenAffinity
grammar_schema_gen_affinity_of (const char *declared_type)
{
  g_autofree char *type = NULL;

  if (declared_type == NULL || declared_type[0] == '\0')
    return AFFINITY_NONE;
  type = g_ascii_strup (declared_type, -1);
  if (strstr (type, "INT") != NULL)
    return AFFINITY_INTEGER;
  if (strstr (type, "CHAR") != NULL || strstr (type, "CLOB") != NULL || strstr (type, "TEXT") != NULL)
    return AFFINITY_TEXT;
  if (strstr (type, "BLOB") != NULL)
    return AFFINITY_BLOB;
  if (strstr (type, "REAL") != NULL || strstr (type, "FLOA") != NULL || strstr (type, "DOUB") != NULL)
    return AFFINITY_REAL;
  return AFFINITY_NUMERIC;
}

gboolean
grammar_schema_gen_type_mentions_time (const char *declared_type)
{
  g_autofree char *type = declared_type != NULL ? g_ascii_strup (declared_type, -1) : NULL;

  return type != NULL && (strstr (type, "DATE") != NULL || strstr (type, "TIME") != NULL);
}

/* The words of an identifier, lowercased: `Graduation_College`,
 * `graduation college` and `GraduationCollege` all give
 * {graduation, college}. */
GStrv
grammar_schema_gen_split_words (const char *name)
{
  g_autoptr (GStrvBuilder) words = g_strv_builder_new ();
  g_autoptr (GString) word = g_string_new (NULL);

  for (const char *p = name; ; p++)
    {
      gboolean boundary = *p == '\0' || *p == '_' || *p == ' ' || *p == '-' || *p == '.';

      /* camelCase: a capital after a small letter starts a word. */
      if (!boundary && g_ascii_isupper (*p) && p > name && g_ascii_islower (p[-1]) && word->len > 0)
        {
          g_strv_builder_add (words, word->str);
          g_string_truncate (word, 0);
        }
      if (boundary)
        {
          if (word->len > 0)
            g_strv_builder_add (words, word->str);
          g_string_truncate (word, 0);
          if (*p == '\0')
            break;
          continue;
        }
      g_string_append_c (word, g_ascii_tolower (*p));
    }
  return g_strv_builder_end (words);
}

static gboolean
has_word (const char         *name,
          const char * const *wanted)
{
  g_auto (GStrv) words = grammar_schema_gen_split_words (name);

  for (guint i = 0; words[i] != NULL; i++)
    if (g_strv_contains (wanted, words[i]))
      return TRUE;
  return FALSE;
}

static gboolean
last_word_is (const char         *name,
              const char * const *wanted)
{
  g_auto (GStrv) words = grammar_schema_gen_split_words (name);
  guint n = g_strv_length (words);

  return n > 0 && g_strv_contains (wanted, words[n - 1]);
}

/* `id`, `People_ID`, `client_id`, `PeopleID`, `clientId`, `uuid`… */
gboolean
grammar_schema_gen_is_named_like_id (const char *name)
{
  static const char * const ids[] = { "id", "uuid", "guid", "rowid", "oid", NULL };
  gsize length = strlen (name);

  if (last_word_is (name, ids))
    return TRUE;
  /* `Person2ID`: a digit does not start a word, so look at the suffix
   * itself; `VALID` or `PAID` in capitals are words, not ids. */
  return length > 2 && g_str_has_suffix (name, "ID") && !g_ascii_isupper (name[length - 3]);
}

gboolean
grammar_schema_gen_is_named_like_time (const char *name)
{
  static const char * const times[] = { "date", "time", "datetime", "timestamp", "dob", "birthday", NULL };
  static const char * const suffixes[] = { "at", "on", NULL };
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return has_word (name, times) || last_word_is (name, suffixes) ||
         g_str_has_suffix (lower, "date") || g_str_has_suffix (lower, "time");
}

gboolean
grammar_schema_gen_is_named_like_free_text (const char *name)
{
  static const char * const texts[] = {
    "description", "desc", "descr", "notes", "note", "comment", "comments", "summary", "text",
    "body", "content", "contents", "details", "remarks", "bio", "biography", "abstract",
    "message", "memo", NULL
  };

  return has_word (name, texts);
}

gboolean
grammar_schema_gen_is_named_like_name (const char *name)
{
  static const char * const names[] = { "name", "title", "label", NULL };
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return has_word (name, names) || g_str_has_suffix (lower, "name");
}
