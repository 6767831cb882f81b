/* test-retrievers.c: the corpus file, the `keyword` and `bm25` retrievers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <grammar.h>

#include "grammar-test-util.h"

/* Made in a temporary folder by main(), removed at the end. */
static char *tmp_dir;

/* The fruit corpus: rankings below were worked out by hand (keyword) and
 * with SQLite's own FTS5 (bm25). d1 and d4 are the same text, so they tie
 * under both retrievers and must come in corpus order. */
static const char fruit_jsonl[] =
  "{\"id\": \"d1\", \"text\": \"apple banana\"}\n"
  "{\"id\": \"d2\", \"text\": \"Apple, apple; APPLE cherry!\"}\n"
  "{\"id\": \"d3\", \"text\": \"banana cherry date\"}\n"
  "{\"id\": \"d4\", \"text\": \"apple banana\"}\n"
  "{\"id\": \"d5\", \"text\": \"eggplant fig\"}\n"
  "{\"id\": \"d6\", \"text\": \"grape\"}\n"
  "{\"id\": \"d7\", \"text\": \"kiwi lemon\"}\n"
  "{\"id\": \"d8\", \"text\": \"mango\"}\n";

/* Helpers */

static char *
write_corpus (const char *name,
              const char *contents)
{
  return grammar_test_write_file (tmp_dir, name, contents);
}

/* Builds section @section of the keyfile @keyfile (folder: tmp_dir) as a
 * retriever, the way the command line does. */
static GrammarRetriever *
build_retriever (const char  *keyfile,
                 const char  *section,
                 GError     **error)
{
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (keyfile, -1, tmp_dir, error);

  if (config == NULL)
    return NULL;
  return GRAMMAR_RETRIEVER (grammar_config_build (config, section, GRAMMAR_TYPE_RETRIEVER, error));
}

static GrammarRetriever *
make_retriever (const char *plugin,
                const char *settings)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *keyfile = g_strdup_printf ("[r]\nplugin=%s\n%s", plugin, settings);
  GrammarRetriever *retriever = build_retriever (keyfile, "r", &error);

  g_assert_no_error (error);
  g_assert_nonnull (retriever);
  return retriever;
}

/* The hits of @query as "id id id", to compare rankings in one line. */
static char *
ranking (GrammarRetriever *retriever,
         const char       *query,
         guint             top_k)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) hits = grammar_retriever_retrieve (retriever, query, top_k, NULL, &error);
  g_autoptr (GString) ids = g_string_new (NULL);

  g_assert_no_error (error);
  g_assert_nonnull (hits);
  for (guint i = 0; i < hits->len; i++)
    {
      GrammarHit *hit = g_ptr_array_index (hits, i);

      if (i > 0)
        {
          GrammarHit *before = g_ptr_array_index (hits, i - 1);

          /* Hits come best first. */
          g_assert_cmpfloat (grammar_hit_get_score (before), >=, grammar_hit_get_score (hit));
          g_string_append_c (ids, ' ');
        }
      g_string_append (ids, grammar_hit_get_document_id (hit));
    }
  return g_string_free (g_steal_pointer (&ids), FALSE);
}

static void
assert_ranking (GrammarRetriever *retriever,
                const char       *query,
                guint             top_k,
                const char       *expected)
{
  g_autofree char *got = ranking (retriever, query, top_k);

  g_assert_cmpstr (got, ==, expected);
}

static GPtrArray *
documents_of (const char * const *id_text_pairs)
{
  GPtrArray *documents = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; id_text_pairs[i] != NULL; i += 2)
    g_ptr_array_add (documents, grammar_document_new (id_text_pairs[i], NULL, id_text_pairs[i + 1]));
  return documents;
}

/* The corpus file */

static void
test_load_jsonl (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = write_corpus ("load.jsonl",
    "{\"id\": \"a\", \"title\": \"Acme\", \"text\": \"Acme makes tools.\","
    " \"source\": {\"table\": \"company\", \"key\": {\"Company_ID\": 1}}}\n"
    "\n"
    "   \n"
    "{\"id\": 42, \"text\": \"\", \"extra\": [1, 2]}\n"
    "{\"text\": \"x\", \"id\": \"b\", \"source\": {\"table\": \"employment\", \"key\": {\"people_id\": 5, \"company_id\": \"c\"}}}\r\n");
  g_autoptr (GPtrArray) documents = grammar_document_load_jsonl (path, &error);
  GrammarDocument *document;
  g_autofree char *json = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (documents->len, ==, 3);

  document = g_ptr_array_index (documents, 0);
  g_assert_cmpstr (grammar_document_get_id (document), ==, "a");
  g_assert_cmpstr (grammar_document_get_title (document), ==, "Acme");
  g_assert_cmpstr (grammar_document_get_text (document), ==, "Acme makes tools.");
  g_assert_cmpstr (grammar_document_get_source_table (document), ==, "company");
  g_assert_cmpstr (grammar_document_get_source_key (document), ==, "{\"Company_ID\":1}");
  json = grammar_document_to_json (document);
  g_assert_cmpstr (json, ==,
                   "{\"id\":\"a\",\"title\":\"Acme\",\"text\":\"Acme makes tools.\","
                   "\"source\":{\"table\":\"company\",\"key\":{\"Company_ID\":1}}}");

  /* A numeric id becomes its decimal text; the empty text is kept. */
  document = g_ptr_array_index (documents, 1);
  g_assert_cmpstr (grammar_document_get_id (document), ==, "42");
  g_assert_null (grammar_document_get_title (document));
  g_assert_cmpstr (grammar_document_get_text (document), ==, "");
  g_assert_null (grammar_document_get_source_table (document));
  g_assert_null (grammar_document_get_source_key (document));

  /* The key keeps the file's member order (the primary-key order). */
  document = g_ptr_array_index (documents, 2);
  g_assert_cmpstr (grammar_document_get_source_key (document), ==, "{\"people_id\":5,\"company_id\":\"c\"}");
}

static void
test_to_json_round_trip (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarDocument) original =
    grammar_document_new_full ("k\"1", "Title “quoted”", "Line one\nline two", "orders", "{\"a\":1,\"b\":\"x\"}");
  g_autofree char *line = grammar_document_to_json (original);
  g_autofree char *contents = g_strconcat (line, "\n", NULL);
  g_autofree char *path = write_corpus ("round.jsonl", contents);
  g_autoptr (GPtrArray) documents = grammar_document_load_jsonl (path, &error);
  GrammarDocument *copy;

  g_assert_no_error (error);
  g_assert_cmpuint (documents->len, ==, 1);
  copy = g_ptr_array_index (documents, 0);
  g_assert_cmpstr (grammar_document_get_id (copy), ==, "k\"1");
  g_assert_cmpstr (grammar_document_get_title (copy), ==, "Title “quoted”");
  g_assert_cmpstr (grammar_document_get_text (copy), ==, "Line one\nline two");
  g_assert_cmpstr (grammar_document_get_source_table (copy), ==, "orders");
  g_assert_cmpstr (grammar_document_get_source_key (copy), ==, "{\"a\":1,\"b\":\"x\"}");
}

static void
assert_load_error (const char *contents,
                   const char *expected_part)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = write_corpus ("bad.jsonl", contents);
  g_autoptr (GPtrArray) documents = grammar_document_load_jsonl (path, &error);
  g_autofree char *expected = g_strconcat (path, expected_part, NULL);

  g_assert_null (documents);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  if (!g_str_has_prefix (error->message, expected))
    g_error ("“%s” does not start with “%s”", error->message, expected);
}

static void
test_load_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *missing = g_build_filename (tmp_dir, "no-such.jsonl", NULL);
  g_autoptr (GPtrArray) none = NULL;

  assert_load_error ("{\"id\": \"a\", \"text\": \"x\"}\n\n{\"id\": \"b\", \"text\": \n", ":3: not JSON: column ");
  assert_load_error ("[1, 2]\n", ":1: not a JSON object");
  assert_load_error ("{\"text\": \"x\"}\n", ":1: missing member “id”");
  assert_load_error ("{\"id\": true, \"text\": \"x\"}\n", ":1: “id” must be a string or a number");
  assert_load_error ("{\"id\": \"\", \"text\": \"x\"}\n", ":1: “id” is empty");
  assert_load_error ("{\"id\": \"a\"}\n", ":1: missing member “text”");
  assert_load_error ("{\"id\": \"a\", \"text\": 3}\n", ":1: “text” must be a string");
  assert_load_error ("{\"id\": \"a\", \"text\": \"\", \"title\": []}\n", ":1: “title” must be a string");
  assert_load_error ("{\"id\": \"a\", \"text\": \"\", \"source\": \"t\"}\n", ":1: “source” must be an object");
  assert_load_error ("{\"id\": \"a\", \"text\": \"\", \"source\": {\"table\": \"t\", \"key\": 1}}\n",
                     ":1: “source.key” must be an object");
  assert_load_error ("{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"b\", \"text\": \"y\"}\n{\"id\": \"a\", \"text\": \"z\"}\n",
                     ":3: duplicate id “a” (first on line 1)");
  /* 7 and "7" are the same id once read. */
  assert_load_error ("{\"id\": 7, \"text\": \"x\"}\n{\"id\": \"7\", \"text\": \"y\"}\n",
                     ":2: duplicate id “7” (first on line 1)");

  none = grammar_document_load_jsonl (missing, &error);
  g_assert_null (none);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_true (g_str_has_prefix (error->message, missing));
  grammar_test_assert_contains (error->message, "No such file");
}

/* Tokens */

static void
assert_tokens (const char *text,
               const char *expected)
{
  g_auto (GStrv) tokens = grammar_document_tokenize (text);
  g_autofree char *joined = g_strjoinv ("|", tokens);

  g_assert_cmpstr (joined, ==, expected);
}

static void
test_tokenize (void)
{
  assert_tokens ("", "");
  assert_tokens ("  ,;!  ", "");
  assert_tokens ("Hello, World! hello", "hello|world|hello");
  assert_tokens ("O'Brien's 433.5 km", "o|brien|s|433|5|km");
  /* NFKC and case folding */
  assert_tokens ("ＡＢＣ abc", "abc|abc");
  assert_tokens ("Straße STRASSE", "strasse|strasse");
  assert_tokens ("ﬁne", "fine");
  /* diacritics are removed, decomposed or not */
  assert_tokens ("Zoë Zoe\xcc\x88 café", "zoe|zoe|cafe");
  /* other scripts: letters and digits of any script; ideographs are
   * letters, so a run of them is one word */
  assert_tokens ("東京 タワー", "東京|タワー");
  assert_tokens ("Москва, МОСКВА", "москва|москва");
  assert_tokens ("हिन्दी", "हिनदी");
  /* invalid UTF-8 does not break the split */
  assert_tokens ("ab\xff" "cd é", "ab|cd|e");

  g_assert_true (grammar_document_is_stop_word ("the"));
  g_assert_true (grammar_document_is_stop_word ("what"));
  g_assert_false (grammar_document_is_stop_word ("apple"));
  g_assert_false (grammar_document_is_stop_word ("The"));
}

/* keyword */

static GrammarRetriever *
fruit_retriever (const char *plugin,
                 const char *more_settings)
{
  g_autofree char *path = write_corpus ("fruit.jsonl", fruit_jsonl);
  g_autofree char *settings = g_strdup_printf ("documents=fruit.jsonl\n%s", more_settings);

  return make_retriever (plugin, settings);
}

static void
test_keyword_ranking (void)
{
  g_autoptr (GrammarRetriever) retriever = fruit_retriever ("keyword", "top-k=3\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) hits = NULL;
  GrammarHit *hit;
  guint n;

  g_object_get (retriever, "n-documents", &n, NULL);
  g_assert_cmpuint (n, ==, 8);

  /* d2 shares two words; the three sharing one come in corpus order. */
  assert_ranking (retriever, "apple cherry", 10, "d2 d1 d3 d4");
  /* a word repeated in the query or the document counts once */
  assert_ranking (retriever, "apple apple APPLE", 10, "d1 d2 d4");
  assert_ranking (retriever, "banana date", 10, "d3 d1 d4");
  /* top-k; 0 takes the top-k property (3) */
  assert_ranking (retriever, "apple cherry", 2, "d2 d1");
  assert_ranking (retriever, "apple cherry", 0, "d2 d1 d3");
  assert_ranking (retriever, "apple cherry", 1, "d2");
  /* no shared word: no hit */
  assert_ranking (retriever, "zucchini", 10, "");
  assert_ranking (retriever, "", 10, "");
  assert_ranking (retriever, "  ?!  ", 10, "");

  hits = grammar_retriever_retrieve (retriever, "cherry date apple", 2, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hits->len, ==, 2);
  hit = g_ptr_array_index (hits, 0);
  g_assert_cmpstr (grammar_hit_get_document_id (hit), ==, "d2");
  g_assert_cmpfloat (grammar_hit_get_score (hit), ==, 2.0);
  g_assert_cmpstr (grammar_hit_get_text (hit), ==, "Apple, apple; APPLE cherry!");
  hit = g_ptr_array_index (hits, 1);
  g_assert_cmpstr (grammar_hit_get_document_id (hit), ==, "d3");
  g_assert_cmpfloat (grammar_hit_get_score (hit), ==, 2.0);
}

static const char unicode_jsonl[] =
  "{\"id\": \"u1\", \"title\": \"Zebra\", \"text\": \"Die Straße von Zoë\"}\n"
  "{\"id\": \"u2\", \"text\": \"ＡＢＣ Corporation in 東京\"}\n"
  "{\"id\": \"u3\", \"text\": \"O'Brien said: \\\"NEAR (the) * -end\\\"\"}\n"
  "{\"id\": \"u4\", \"text\": \"\"}\n";

static void
check_unicode (const char *plugin)
{
  g_autofree char *path = write_corpus ("unicode.jsonl", unicode_jsonl);
  g_autoptr (GrammarRetriever) retriever = make_retriever (plugin, "documents=unicode.jsonl\n");
  g_autoptr (GrammarRetriever) untitled = make_retriever (plugin, "documents=unicode.jsonl\nindex-title=false\n");

  assert_ranking (retriever, "strasse", 5, "u1");
  assert_ranking (retriever, "STRAẞE", 5, "u1");
  assert_ranking (retriever, "zoe", 5, "u1");
  assert_ranking (retriever, "abc", 5, "u2");
  assert_ranking (retriever, "東京", 5, "u2");
  /* the title is indexed with the text, unless index-title=false */
  assert_ranking (retriever, "zebra", 5, "u1");
  assert_ranking (untitled, "zebra", 5, "");
  assert_ranking (untitled, "zoe", 5, "u1");
  /* quotes and FTS5 syntax in the query are plain text */
  assert_ranking (retriever, "O'Brien", 5, "u3");
  assert_ranking (retriever, "\"NEAR(\" AND * - OR ) end", 5, "u3");
  assert_ranking (retriever, "\"", 5, "");
  assert_ranking (retriever, "NOT", 5, "");
  /* the empty document never matches, even an empty query */
  assert_ranking (retriever, "", 5, "");
}

static void
test_keyword_unicode (void)
{
  check_unicode ("keyword");
}

static void
test_stop_words (void)
{
  g_autofree char *corpus = write_corpus ("stop.jsonl",
                                          "{\"id\": \"s1\", \"text\": \"the history of the company\"}\n"
                                          "{\"id\": \"s2\", \"text\": \"what is the company about\"}\n"
                                          "{\"id\": \"s3\", \"text\": \"company history\"}\n");
  g_autofree char *list = write_corpus ("stop-words.txt", "# my list\nCompany\n\n  history  \n");
  g_autoptr (GrammarRetriever) plain = make_retriever ("keyword", "documents=stop.jsonl\n");
  g_autoptr (GrammarRetriever) english = make_retriever ("keyword", "documents=stop.jsonl\nstop-words=english\n");
  g_autoptr (GrammarRetriever) listed = make_retriever ("keyword", "documents=stop.jsonl\nstop-words=stop-words.txt\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarRetriever) broken = NULL;
  g_autoptr (GrammarRetriever) bm25_plain = NULL;
  g_autoptr (GrammarRetriever) bm25_english = NULL;

  /* "what is the" are words like any other without stop words */
  assert_ranking (plain, "what is the history of the company", 5, "s1 s2 s3");
  /* with the English list only "history" and "company" count */
  assert_ranking (english, "what is the history of the company", 5, "s1 s3 s2");
  assert_ranking (english, "what is the", 5, "");
  /* a file: its words are ignored, case-folded like the text */
  assert_ranking (listed, "company history", 5, "");
  assert_ranking (listed, "the company", 5, "s1 s2");

  /* bm25 drops stop words from queries */
  bm25_plain = make_retriever ("bm25", "documents=stop.jsonl\n");
  bm25_english = make_retriever ("bm25", "documents=stop.jsonl\nstop-words=english\n");
  assert_ranking (bm25_plain, "what is the", 5, "s2 s1");
  assert_ranking (bm25_english, "what is the", 5, "");
  assert_ranking (bm25_english, "What is the history?", 5, "s3 s1");

  broken = build_retriever ("[r]\nplugin=keyword\nstop-words=missing.txt\n", "r", &error);
  g_assert_null (broken);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  grammar_test_assert_contains (error->message, "stop-words");
  grammar_test_assert_contains (error->message, "missing.txt");
}

/* stop-words is a keyword (none, english) and stop-words-file a path: a
 * file named like a keyword beside the keyfile changes nothing, both
 * keys add up, a bad keyword is an error naming the new key, and the old
 * spelling stop-words=FILE still works, with a message. */
static void
test_stop_words_keys (void)
{
  g_autofree char *corpus = write_corpus ("keys.jsonl",
                                          "{\"id\": \"k1\", \"text\": \"the history of the company\"}\n"
                                          "{\"id\": \"k2\", \"text\": \"what is the company about\"}\n"
                                          "{\"id\": \"k3\", \"text\": \"company history\"}\n");
  g_autofree char *english_file = write_corpus ("english", "company\n");
  g_autofree char *none_file = write_corpus ("none", "history\n");
  g_autofree char *list = write_corpus ("keys-stop.txt", "company\n");
  g_autoptr (GrammarRetriever) english = NULL;
  g_autoptr (GrammarRetriever) none = NULL;
  g_autoptr (GrammarRetriever) both = NULL;
  g_autoptr (GrammarRetriever) old = NULL;
  g_autoptr (GrammarRetriever) bad = NULL;
  g_autoptr (GError) error = NULL;
  GrammarStopWords kind;
  g_autofree char *file = NULL;

  /* the files "english" and "none" are not read */
  english = make_retriever ("keyword", "documents=keys.jsonl\nstop-words=english\n");
  assert_ranking (english, "what is the company", 5, "k1 k2 k3");
  none = make_retriever ("bm25", "documents=keys.jsonl\nstop-words=none\n");
  assert_ranking (none, "history", 5, "k3 k1");
  /* the built-in list and a file of one's own together */
  both = make_retriever ("keyword", "documents=keys.jsonl\nstop-words=english\nstop-words-file=keys-stop.txt\n");
  assert_ranking (both, "what is the company", 5, "");
  assert_ranking (both, "the history", 5, "k1 k3");
  /* the old spelling: the file, with a message naming the new key */
  g_test_expect_message ("Grammar", G_LOG_LEVEL_MESSAGE,
                         "*stop-words=keys-stop.txt is an old spelling*write stop-words-file=keys-stop.txt*");
  old = make_retriever ("keyword", "documents=keys.jsonl\nstop-words=keys-stop.txt\n");
  g_test_assert_expected_messages ();
  g_object_get (old, "stop-words", &kind, "stop-words-file", &file, NULL);
  g_assert_cmpint (kind, ==, GRAMMAR_STOP_WORDS_NONE);
  g_assert_cmpstr (file, ==, list);
  assert_ranking (old, "company history", 5, "k1 k3");
  /* a bad keyword that is no file either */
  g_test_expect_message ("Grammar", G_LOG_LEVEL_MESSAGE, "*old spelling*");
  bad = build_retriever ("[r]\nplugin=keyword\nstop-words=englsh\n", "r", &error);
  g_test_assert_expected_messages ();
  g_assert_null (bad);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  grammar_test_assert_contains (error->message, "stop-words-file");
  grammar_test_assert_contains (error->message, "englsh");
}

/* The keyword ranking against a plain reading of its rule, on a random
 * corpus large enough that both ways of picking the top documents (the
 * sorted candidates and the walk over all documents) are used. */
static void
test_keyword_brute_force (void)
{
  const guint n_documents = 3000, vocabulary = 400;
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autoptr (GPtrArray) documents = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) word_sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autoptr (GrammarRetriever) retriever = make_retriever ("keyword", "");
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < n_documents; i++)
    {
      g_autoptr (GString) text = g_string_new (NULL);
      GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      guint length = g_rand_int_range (rand, 1, 12);
      g_autofree char *id = g_strdup_printf ("doc%u", i);

      for (guint j = 0; j < length; j++)
        {
          /* skewed: low word numbers are frequent */
          guint w = g_rand_int_range (rand, 0, 1 + g_rand_int_range (rand, 0, vocabulary));
          g_autofree char *word = g_strdup_printf ("w%u", w);

          g_string_append_printf (text, "%s%s", j > 0 ? " " : "", word);
          g_hash_table_add (set, g_steal_pointer (&word));
        }
      g_ptr_array_add (documents, grammar_document_new (id, NULL, text->str));
      g_ptr_array_add (word_sets, set);
    }
  grammar_retriever_index (retriever, documents, NULL, &error);
  g_assert_no_error (error);

  for (guint q = 0; q < 300; q++)
    {
      guint length = g_rand_int_range (rand, 1, 6), top_k = g_rand_int_range (rand, 1, 12);
      g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GString) query = g_string_new (NULL);
      g_autoptr (GString) expected = g_string_new (NULL);
      g_autofree guint *scores = g_new0 (guint, n_documents);
      guint found = 0;

      for (guint j = 0; j < length; j++)
        {
          char *word = g_strdup_printf ("w%u", g_rand_int_range (rand, 0, q % 2 ? 20 : vocabulary));

          g_string_append_printf (query, "%s ", word);
          if (!g_ptr_array_find_with_equal_func (words, word, g_str_equal, NULL))
            g_ptr_array_add (words, word);
          else
            g_free (word);
        }
      for (guint d = 0; d < n_documents; d++)
        for (guint j = 0; j < words->len; j++)
          scores[d] += g_hash_table_contains (g_ptr_array_index (word_sets, d), g_ptr_array_index (words, j));
      /* best score first, then corpus order */
      for (guint s = words->len; s > 0 && found < top_k; s--)
        for (guint d = 0; d < n_documents && found < top_k; d++)
          if (scores[d] == s)
            {
              g_string_append_printf (expected, "%sdoc%u", found > 0 ? " " : "", d);
              found++;
            }
      assert_ranking (retriever, query->str, top_k, expected->str);
    }
}

static void
check_index_call (const char *plugin)
{
  const char * const first[] = { "x1", "red green", "x2", "green blue", NULL };
  const char * const second[] = { "y1", "blue", "y2", "blue green", NULL };
  const char * const twice[] = { "z", "a", "z", "b", NULL };
  g_autoptr (GrammarRetriever) retriever = make_retriever (plugin, "");
  g_autoptr (GPtrArray) documents = documents_of (first);
  g_autoptr (GError) error = NULL;
  guint n;

  /* no corpus yet: no hits, no error */
  assert_ranking (retriever, "green", 5, "");

  g_assert_true (grammar_retriever_index (retriever, documents, NULL, &error));
  g_assert_no_error (error);
  assert_ranking (retriever, "green", 5, "x1 x2");
  /* the caller's array may change afterwards */
  g_ptr_array_set_size (documents, 0);
  assert_ranking (retriever, "green", 5, "x1 x2");

  /* index() replaces the corpus */
  g_clear_pointer (&documents, g_ptr_array_unref);
  documents = documents_of (second);
  g_assert_true (grammar_retriever_index (retriever, documents, NULL, &error));
  assert_ranking (retriever, "green", 5, "y2");
  assert_ranking (retriever, "red", 5, "");
  g_object_get (retriever, "n-documents", &n, NULL);
  g_assert_cmpuint (n, ==, 2);

  /* duplicate ids are refused */
  g_clear_pointer (&documents, g_ptr_array_unref);
  documents = documents_of (twice);
  g_assert_false (grammar_retriever_index (retriever, documents, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "duplicate id “z” (documents 1 and 2)");
}

static void
test_keyword_index (void)
{
  check_index_call ("keyword");
}

static void
on_retrieved (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GPtrArray **hits = user_data;
  g_autoptr (GError) error = NULL;

  *hits = grammar_retriever_retrieve_finish (GRAMMAR_RETRIEVER (source), result, &error);
  g_assert_no_error (error);
}

static void
check_async (const char *plugin)
{
  g_autoptr (GrammarRetriever) retriever = fruit_retriever (plugin, "top-k=2\n");
  g_autoptr (GPtrArray) hits = NULL;

  grammar_retriever_retrieve_async (retriever, "apple", 0, NULL, on_retrieved, &hits);
  while (hits == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (hits->len, ==, 2);
  g_assert_cmpstr (grammar_hit_get_document_id (g_ptr_array_index (hits, 0)), ==,
                   g_str_equal (plugin, "bm25") ? "d2" : "d1");
}

static void
test_keyword_async (void)
{
  check_async ("keyword");
}

/* bm25 */

static void
test_bm25_ranking (void)
{
  g_autoptr (GrammarRetriever) retriever = fruit_retriever ("bm25", "top-k=2\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) hits = NULL;

  /* the order SQLite's FTS5 gives with bm25(): d2 has "apple" three times */
  assert_ranking (retriever, "apple", 10, "d2 d1 d4");
  assert_ranking (retriever, "apple cherry", 10, "d2 d3 d1 d4");
  assert_ranking (retriever, "Banana DATE", 10, "d3 d1 d4");
  assert_ranking (retriever, "cherry", 10, "d3 d2");
  assert_ranking (retriever, "apple cherry", 0, "d2 d3");
  assert_ranking (retriever, "apple cherry", 1, "d2");
  assert_ranking (retriever, "zucchini", 10, "");
  assert_ranking (retriever, "", 10, "");

  hits = grammar_retriever_retrieve (retriever, "banana date", 3, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hits->len, ==, 3);
  /* -bm25(): positive, the tie exact */
  g_assert_cmpfloat_with_epsilon (grammar_hit_get_score (g_ptr_array_index (hits, 0)), 1.7642384794742723, 1e-9);
  g_assert_cmpfloat (grammar_hit_get_score (g_ptr_array_index (hits, 1)), ==,
                     grammar_hit_get_score (g_ptr_array_index (hits, 2)));
  g_assert_cmpstr (grammar_hit_get_text (g_ptr_array_index (hits, 0)), ==, "banana cherry date");
}

/* A corpus where "the" is in 90 % of the documents, "and" in exactly half
 * (the boundary: FTS5's idf is log(1) = 0, floored too) and "of" in 40 %,
 * with rarer words w0…w29 in between. */
static char *
common_words_corpus (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autoptr (GString) jsonl = g_string_new (NULL);

  for (guint d = 0; d < 200; d++)
    {
      guint length = g_rand_int_range (rand, 3, 12);

      g_string_append_printf (jsonl, "{\"id\": \"c%03u\", \"text\": \"", d);
      if (d % 10 != 0)
        g_string_append (jsonl, "the ");
      if (d % 2 == 0)
        g_string_append (jsonl, "and and ");
      if (d % 5 < 2)
        g_string_append (jsonl, "of ");
      for (guint i = 0; i < length; i++)
        g_string_append_printf (jsonl, "w%u ", MIN (g_rand_int_range (rand, 0, 30), g_rand_int_range (rand, 0, 30)));
      g_string_append (jsonl, "the\"}\n");
    }
  return write_corpus ("common.jsonl", jsonl->str);
}

static void
test_bm25_prune_common_terms (void)
{
  g_autofree char *path = common_words_corpus ();
  g_autoptr (GrammarRetriever) pruned = make_retriever ("bm25", "documents=common.jsonl\nengine=fts5\n");
  g_autoptr (GrammarRetriever) full =
    make_retriever ("bm25", "documents=common.jsonl\nengine=fts5\nprune-common-terms=false\n");
  const char *queries[] = {
    "the w3", "The and of w17?", "and w0 w1 the", "w29 the and", "w28 w29", "of the", "the and",
    "the", "of", "w5 of", "nothing here but the", "w27 and the of w2",
  };
  guint top_ks[] = { 1, 3, 10, 60, 250 };
  gboolean some_score_differs = FALSE;
  gboolean prune = FALSE;
  g_autofree char *expected = NULL;

  g_object_get (pruned, "prune-common-terms", &prune, NULL);
  g_assert_true (prune);
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    for (guint k = 0; k < G_N_ELEMENTS (top_ks); k++)
      {
        g_autoptr (GPtrArray) a = grammar_retriever_retrieve (pruned, queries[q], top_ks[k], NULL, NULL);
        g_autoptr (GPtrArray) b = grammar_retriever_retrieve (full, queries[q], top_ks[k], NULL, NULL);
        g_autofree char *ranking_a = ranking (pruned, queries[q], top_ks[k]);
        g_autofree char *ranking_b = ranking (full, queries[q], top_ks[k]);

        /* the same documents in the same order as FTS5 without pruning… */
        g_assert_cmpstr (ranking_a, ==, ranking_b);
        g_assert_cmpuint (a->len, ==, b->len);
        /* …and scores lower by less than 2.2e-6 for each of the two
         * common words left out ("and" and "the"; "of" is kept) */
        for (guint i = 0; i < a->len; i++)
          {
            double score_a = grammar_hit_get_score (g_ptr_array_index (a, i));
            double score_b = grammar_hit_get_score (g_ptr_array_index (b, i));

            g_assert_cmpfloat (score_a, <=, score_b);
            g_assert_cmpfloat (score_b - score_a, <, 2 * 2.2e-6);
            some_score_differs = some_score_differs || score_a != score_b;
          }
      }
  /* the pruned queries did run: a left-out word leaves its tiny trace */
  g_assert_true (some_score_differs);
  /* documents with only common words still come when rarer ones run out */
  expected = ranking (full, "the w29", 200);
  g_assert_cmpuint (strlen (expected), >, 100);
  assert_ranking (pruned, "the w29", 200, expected);
}

static char *
engine_in_use (GrammarRetriever *retriever)
{
  char *engine = NULL;

  g_object_get (retriever, "engine-in-use", &engine, NULL);
  return engine;
}

/* The same hits, scores equal to the bit, from the in-memory ranking
 * and from FTS5 itself (no pruning), for @queries at several k. */
static void
assert_same_as_fts5 (GrammarRetriever  *memory,
                     GrammarRetriever  *fts5,
                     const char       **queries,
                     guint              n_queries)
{
  guint top_ks[] = { 1, 2, 3, 10, 250 };

  for (guint q = 0; q < n_queries; q++)
    for (guint k = 0; k < G_N_ELEMENTS (top_ks); k++)
      {
        g_autoptr (GError) error = NULL;
        g_autoptr (GPtrArray) a = grammar_retriever_retrieve (memory, queries[q], top_ks[k], NULL, &error);
        g_autoptr (GPtrArray) b = grammar_retriever_retrieve (fts5, queries[q], top_ks[k], NULL, &error);

        g_assert_no_error (error);
        if (a->len != b->len)
          g_error ("“%s”, k = %u: %u hits in memory, %u from FTS5", queries[q], top_ks[k], a->len, b->len);
        for (guint i = 0; i < a->len; i++)
          {
            GrammarHit *x = g_ptr_array_index (a, i);
            GrammarHit *y = g_ptr_array_index (b, i);

            if (!g_str_equal (grammar_hit_get_document_id (x), grammar_hit_get_document_id (y)) ||
                grammar_hit_get_score (x) != grammar_hit_get_score (y))
              g_error ("“%s”, k = %u, hit %u: %s %.17g in memory, %s %.17g from FTS5", queries[q], top_ks[k], i,
                       grammar_hit_get_document_id (x), grammar_hit_get_score (x),
                       grammar_hit_get_document_id (y), grammar_hit_get_score (y));
          }
      }
}

static void
test_bm25_memory_engine (void)
{
  g_autofree char *common = common_words_corpus ();
  g_autofree char *fruit = write_corpus ("fruit-engine.jsonl", fruit_jsonl);
  g_autofree char *unicode = write_corpus ("unicode-engine.jsonl", unicode_jsonl);
  g_autoptr (GrammarRetriever) memory = make_retriever ("bm25", "documents=common.jsonl\n");
  g_autoptr (GrammarRetriever) fts5 =
    make_retriever ("bm25", "documents=common.jsonl\nengine=fts5\nprune-common-terms=false\n");
  g_autoptr (GrammarRetriever) fruit_memory = make_retriever ("bm25", "documents=fruit-engine.jsonl\n");
  g_autoptr (GrammarRetriever) fruit_fts5 = make_retriever ("bm25", "documents=fruit-engine.jsonl\nengine=fts5\n");
  g_autoptr (GrammarRetriever) unicode_memory = make_retriever ("bm25", "documents=unicode-engine.jsonl\n");
  g_autoptr (GrammarRetriever) unicode_fts5 =
    make_retriever ("bm25", "documents=unicode-engine.jsonl\nengine=fts5\n");
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  g_autoptr (GPtrArray) random_queries = g_ptr_array_new_with_free_func (g_free);
  const char *words[] = { "the", "and", "of", "w0", "w1", "w2", "w3", "w7", "w12", "w20", "w28", "w29", "absent" };
  const char *fixed[] = {
    "the w3", "The and of w17?", "and w0 w1 the", "w29 the and", "w28 w29", "of the", "the and", "the", "of",
    "nothing here but the", "w27 and the of w2", "w5 absent", "ñandú w4", "東京タワー w6 the",
  };
  const char *fruit_queries[] = { "apple", "apple cherry", "Banana DATE", "cherry", "zucchini", "banana date" };
  const char *unicode_queries[] = { "strasse", "STRAẞE", "zoe", "abc", "東京", "zebra", "O'Brien", "\"NEAR(\" AND" };
  g_autofree char *used = engine_in_use (memory);
  g_autofree char *used_fts5 = engine_in_use (fts5);

  g_assert_cmpstr (used, ==, "memory");
  g_assert_cmpstr (used_fts5, ==, "fts5");
  assert_same_as_fts5 (memory, fts5, fixed, G_N_ELEMENTS (fixed));
  for (guint q = 0; q < 300; q++)
    {
      g_autoptr (GString) query = g_string_new (NULL);
      guint length = g_rand_int_range (rand, 1, 7);

      for (guint i = 0; i < length; i++)
        g_string_append_printf (query, "%s ", words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
      g_ptr_array_add (random_queries, g_string_free (g_steal_pointer (&query), FALSE));
    }
  assert_same_as_fts5 (memory, fts5, (const char **) random_queries->pdata, random_queries->len);
  /* ties (d1 and d4 are the same text): the earlier document first */
  assert_same_as_fts5 (fruit_memory, fruit_fts5, fruit_queries, G_N_ELEMENTS (fruit_queries));
  assert_same_as_fts5 (unicode_memory, unicode_fts5, unicode_queries, G_N_ELEMENTS (unicode_queries));
  assert_ranking (fruit_memory, "banana date", 3, "d3 d1 d4");
}

static void
test_bm25_bad_engine (void)
{
  g_autofree char *corpus = write_corpus ("small-engine.jsonl", "{\"id\": \"a\", \"text\": \"x\"}\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarRetriever) retriever =
    build_retriever ("[r]\nplugin=bm25\ndocuments=small-engine.jsonl\nengine=lucene\n", "r", &error);

  g_assert_null (retriever);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  grammar_test_assert_contains (error->message, "engine");
  grammar_test_assert_contains (error->message, "lucene");
}

static void
test_bm25_unicode (void)
{
  check_unicode ("bm25");
}

static void
test_bm25_index (void)
{
  check_index_call ("bm25");
}

static void
test_bm25_async (void)
{
  check_async ("bm25");
}

static gboolean
was_rebuilt (GrammarRetriever *retriever)
{
  gboolean rebuilt;

  g_object_get (retriever, "rebuilt", &rebuilt, NULL);
  return rebuilt;
}

static void
test_bm25_on_disk (void)
{
  g_autofree char *corpus = write_corpus ("disk.jsonl", fruit_jsonl);
  g_autofree char *index = g_build_filename (tmp_dir, "sub", "index.sqlite", NULL);
  const char settings[] = "documents=disk.jsonl\nindex=sub/index.sqlite\n";
  g_autoptr (GrammarRetriever) first = NULL;
  g_autoptr (GrammarRetriever) second = NULL;
  g_autoptr (GrammarRetriever) third = NULL;
  g_autoptr (GrammarRetriever) untitled = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *changed = NULL;
  g_autofree char *folder = g_path_get_dirname (index);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);

  first = make_retriever ("bm25", settings);
  g_assert_true (was_rebuilt (first));
  g_assert_true (g_file_test (index, G_FILE_TEST_IS_REGULAR));
  assert_ranking (first, "apple cherry", 10, "d2 d3 d1 d4");
  g_clear_object (&first);

  /* the same documents: the file's index is used as it is */
  second = make_retriever ("bm25", settings);
  g_assert_false (was_rebuilt (second));
  assert_ranking (second, "apple cherry", 10, "d2 d3 d1 d4");
  g_clear_object (&second);

  /* another setting that changes what is indexed rebuilds */
  untitled = make_retriever ("bm25", "documents=disk.jsonl\nindex=sub/index.sqlite\nindex-title=false\n");
  g_assert_true (was_rebuilt (untitled));
  g_clear_object (&untitled);

  /* a changed corpus: rebuilt, and the new text is found */
  changed = g_strconcat (fruit_jsonl, "{\"id\": \"d9\", \"text\": \"cherry cherry\"}\n", NULL);
  g_free (write_corpus ("disk.jsonl", changed));
  third = make_retriever ("bm25", settings);
  g_assert_true (was_rebuilt (third));
  assert_ranking (third, "cherry", 10, "d9 d3 d2");
}

static void
test_bm25_bad_index (void)
{
  g_autofree char *corpus = write_corpus ("small.jsonl", "{\"id\": \"a\", \"text\": \"x\"}\n");
  g_autofree char *not_db = write_corpus ("not-a-db.sqlite", "this is not an SQLite database, just some text\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarRetriever) retriever =
    build_retriever ("[r]\nplugin=bm25\ndocuments=small.jsonl\nindex=not-a-db.sqlite\n", "r", &error);

  g_assert_null (retriever);
  g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
  grammar_test_assert_contains (error->message, "index");
  grammar_test_assert_contains (error->message, "not-a-db.sqlite");
}

/* Through GrammarConfig */

static void
test_config_errors (void)
{
  const char *plugins[] = { "keyword", "bm25" };
  g_autofree char *bad = write_corpus ("broken.jsonl", "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"a\"\n");

  for (guint i = 0; i < G_N_ELEMENTS (plugins); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *keyfile = g_strdup_printf ("[r]\nplugin=%s\ndocuments=broken.jsonl\n", plugins[i]);
      g_autofree char *place = g_strconcat (bad, ":2: not JSON", NULL);
      g_autoptr (GrammarRetriever) retriever = build_retriever (keyfile, "r", &error);
      g_autoptr (GrammarRetriever) no_file = NULL;
      g_autoptr (GrammarRetriever) zero = NULL;

      /* the loader's error passes through, with its file and line */
      g_assert_null (retriever);
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      grammar_test_assert_contains (error->message, place);
      g_assert_true (grammar_error_is_input_error (error));
      g_clear_error (&error);

      g_free (keyfile);
      keyfile = g_strdup_printf ("[r]\nplugin=%s\ndocuments=absent.jsonl\n", plugins[i]);
      no_file = build_retriever (keyfile, "r", &error);
      g_assert_null (no_file);
      g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      grammar_test_assert_contains (error->message, "absent.jsonl");
      g_clear_error (&error);

      g_free (keyfile);
      keyfile = g_strdup_printf ("[r]\nplugin=%s\ntop-k=0\n", plugins[i]);
      zero = build_retriever (keyfile, "r", &error);
      g_assert_null (zero);
      g_assert_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE);
      grammar_test_assert_contains (error->message, "top-k");
    }
}

static void
test_registered (void)
{
  GrammarRegistry *registry = grammar_registry_get_default ();
  g_autoptr (GPtrArray) plugins = grammar_registry_list_plugins (registry, GRAMMAR_TYPE_RETRIEVER);
  gboolean keyword = FALSE, bm25 = FALSE;

  for (guint i = 0; i < plugins->len; i++)
    {
      const char *name = grammar_plugin_info_get_name (g_ptr_array_index (plugins, i));

      keyword = keyword || g_str_equal (name, "keyword");
      bm25 = bm25 || g_str_equal (name, "bm25");
    }
  g_assert_true (keyword);
  g_assert_true (bm25);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = grammar_test_make_tmp_dir ("grammar-retrievers-XXXXXX");

  g_test_add_func ("/corpus/load", test_load_jsonl);
  g_test_add_func ("/corpus/round-trip", test_to_json_round_trip);
  g_test_add_func ("/corpus/errors", test_load_errors);
  g_test_add_func ("/corpus/tokenize", test_tokenize);
  g_test_add_func ("/keyword/ranking", test_keyword_ranking);
  g_test_add_func ("/keyword/unicode", test_keyword_unicode);
  g_test_add_func ("/keyword/stop-words", test_stop_words);
  g_test_add_func ("/keyword/stop-words-keys", test_stop_words_keys);
  g_test_add_func ("/keyword/brute-force", test_keyword_brute_force);
  g_test_add_func ("/keyword/index", test_keyword_index);
  g_test_add_func ("/keyword/async", test_keyword_async);
  g_test_add_func ("/bm25/ranking", test_bm25_ranking);
  g_test_add_func ("/bm25/prune-common-terms", test_bm25_prune_common_terms);
  g_test_add_func ("/bm25/memory-engine", test_bm25_memory_engine);
  g_test_add_func ("/bm25/bad-engine", test_bm25_bad_engine);
  g_test_add_func ("/bm25/unicode", test_bm25_unicode);
  g_test_add_func ("/bm25/index", test_bm25_index);
  g_test_add_func ("/bm25/async", test_bm25_async);
  g_test_add_func ("/bm25/on-disk", test_bm25_on_disk);
  g_test_add_func ("/bm25/bad-index", test_bm25_bad_index);
  g_test_add_func ("/config/errors", test_config_errors);
  g_test_add_func ("/config/registered", test_registered);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
