/* grammar-keyword-retriever.c: ranks documents by the query words they share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-keyword-retriever.h"
#include "grammar-retrieval-util.h"

#include <stdlib.h>

/* GrammarKeywordRetriever: the `keyword` retriever, the sparse baseline of
 * the GRAMMAR paper. A document's score is the number of distinct query
 * words it contains (grammar_document_tokenize() words, minus stop
 * words); ties go to the document that comes first in the corpus;
 * documents sharing no word are not returned.
 *
 * The index maps each word to the ascending list of the documents that
 * contain it, so a query only touches the documents of its own words. */
struct _GrammarKeywordRetriever
{
  GObject parent_instance;

  /* settings */
  char *documents_path;
  guint top_k;
  GrammarStopWords stop_words_kind;
  char *stop_words_file;
  gboolean index_title;

  /* state */
  GHashTable *stop_words;  /* NULL: none (see grammar_retrieval_load_stop_words) */
  GPtrArray *documents;    /* of GrammarDocument, in corpus order */
  GHashTable *postings;    /* word -> GArray of guint32 document indexes, ascending */
};

enum
{
  PROP_0,
  PROP_DOCUMENTS,
  PROP_TOP_K,
  PROP_STOP_WORDS,
  PROP_STOP_WORDS_FILE,
  PROP_INDEX_TITLE,
  PROP_N_DOCUMENTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_keyword_retriever_retriever_iface_init (GrammarRetrieverInterface *iface);
static void grammar_keyword_retriever_initable_iface_init  (GInitableIface            *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarKeywordRetriever, grammar_keyword_retriever, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_RETRIEVER,
                                                               grammar_keyword_retriever_retriever_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_keyword_retriever_initable_iface_init))

/* Indexing */

static void
add_words (GHashTable *postings,
           GHashTable *stop_words,
           const char *text,
           guint32     document)
{
  g_auto (GStrv) words = grammar_document_tokenize (text);

  for (guint i = 0; words[i] != NULL; i++)
    {
      GArray *list;

      if (grammar_retrieval_is_stop_word (stop_words, words[i]))
        continue;
      list = g_hash_table_lookup (postings, words[i]);
      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (postings, g_strdup (words[i]), list);
        }
      /* Documents are added in order: a repeated word of the same
       * document is the list's last entry. */
      if (list->len == 0 || g_array_index (list, guint32, list->len - 1) != document)
        g_array_append_val (list, document);
    }
}

static GHashTable *
build_postings (GPtrArray  *documents,
                GHashTable *stop_words,
                gboolean    index_title)
{
  GHashTable *postings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < documents->len; i++)
    {
      g_autofree char *words = grammar_retrieval_document_words (g_ptr_array_index (documents, i), index_title);

      add_words (postings, stop_words, words, i);
    }
  return postings;
}

static void
use_documents (GrammarKeywordRetriever *self,
               GPtrArray               *documents)
{
  GHashTable *postings = build_postings (documents, self->stop_words, self->index_title);

  g_clear_pointer (&self->postings, g_hash_table_unref);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  self->postings = postings;
  self->documents = documents;
}

static gboolean
grammar_keyword_retriever_index (GrammarRetriever  *retriever,
                                 GPtrArray         *documents,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  GrammarKeywordRetriever *self = GRAMMAR_KEYWORD_RETRIEVER (retriever);

  if (!grammar_retrieval_check_ids (documents, error))
    return FALSE;
  use_documents (self, grammar_retrieval_copy_documents (documents));
  return TRUE;
}

/* Retrieval */

typedef struct
{
  guint32 document;
  guint32 score;
} Scored;

/* The scores of one query: counts[d] is the number of distinct query
 * words document d holds. A query of more than 65,535 distinct known
 * words keeps the first 65,535 (the counts are 16-bit to stay in cache). */
typedef struct
{
  guint16 *counts;
  guint n_documents;
  GArray *touched;   /* the documents with a count, unordered; NULL: dense */
  guint max_score;
} Scores;

static int
compare_index (gconstpointer a,
               gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

static int
compare_scored (gconstpointer a,
                gconstpointer b)
{
  const Scored *x = a, *y = b;

  if (x->score != y->score)
    return x->score > y->score ? -1 : 1;
  return (x->document > y->document) - (x->document < y->document);
}

/* The distinct word lists of the query, each once. */
static GPtrArray *
query_postings (GrammarKeywordRetriever *self,
                const char              *query)
{
  g_auto (GStrv) words = grammar_document_tokenize (query);
  GPtrArray *lists = g_ptr_array_new ();

  for (guint i = 0; words[i] != NULL && lists->len < G_MAXUINT16; i++)
    {
      GArray *list;

      if (grammar_retrieval_is_stop_word (self->stop_words, words[i]))
        continue;
      list = g_hash_table_lookup (self->postings, words[i]);
      if (list != NULL && !g_ptr_array_find (lists, list, NULL))
        g_ptr_array_add (lists, list);
    }
  return lists;
}

/* Counts the query's words per document. When the lists cover a good
 * part of the corpus (frequent words), keeping a list of the documents
 * touched costs more than walking the whole counts array later. */
static void
score (Scores    *scores,
       GPtrArray *lists,
       guint      n_documents)
{
  gsize total = 0;

  for (guint i = 0; i < lists->len; i++)
    total += ((GArray *) g_ptr_array_index (lists, i))->len;

  scores->counts = g_new0 (guint16, n_documents);
  scores->n_documents = n_documents;
  scores->max_score = lists->len;
  scores->touched = total * 8 < n_documents ? g_array_sized_new (FALSE, FALSE, sizeof (guint32), total) : NULL;

  for (guint i = 0; i < lists->len; i++)
    {
      GArray *list = g_ptr_array_index (lists, i);
      const guint32 *documents = (const guint32 *) list->data;

      if (scores->touched == NULL)
        for (guint j = 0; j < list->len; j++)
          scores->counts[documents[j]]++;
      else
        for (guint j = 0; j < list->len; j++)
          if (scores->counts[documents[j]]++ == 0)
            g_array_append_val (scores->touched, documents[j]);
    }
  if (scores->touched != NULL)
    g_array_sort (scores->touched, compare_index);
}

static void
scores_clear (Scores *scores)
{
  g_clear_pointer (&scores->counts, g_free);
  g_clear_pointer (&scores->touched, g_array_unref);
}

/* The candidates in corpus order: the sorted touched list, or every
 * document when dense. Returns FALSE at the end. */
static gboolean
next_candidate (const Scores *scores,
                guint        *i,
                guint32      *document)
{
  if (scores->touched != NULL)
    {
      if (*i >= scores->touched->len)
        return FALSE;
      *document = g_array_index (scores->touched, guint32, (*i)++);
      return TRUE;
    }
  while (*i < scores->n_documents && scores->counts[*i] == 0)
    (*i)++;
  if (*i >= scores->n_documents)
    return FALSE;
  *document = (*i)++;
  return TRUE;
}

/* The score at the cut: the smallest s such that the documents scoring
 * more than s are fewer than top_k; they are all taken (*above of them),
 * and the places left go to the earliest documents scoring exactly s. */
static guint
threshold (const Scores *scores,
           guint         top_k,
           guint        *above)
{
  g_autofree guint *histogram = g_new0 (guint, scores->max_score + 1);
  guint i = 0, s;
  guint32 document;

  while (next_candidate (scores, &i, &document))
    histogram[scores->counts[document]]++;
  *above = 0;
  for (s = scores->max_score; s > 1; s--)
    {
      if (*above + histogram[s] >= top_k)
        return s;
      *above += histogram[s];
    }
  return 1;
}

static GArray *
select_top (const Scores *scores,
            guint         top_k)
{
  GArray *top = g_array_sized_new (FALSE, FALSE, sizeof (Scored), MIN (top_k, 1024));
  guint above, at_cut = 0, i = 0;
  guint cut = threshold (scores, top_k, &above);
  guint32 document;

  while (top->len < top_k && next_candidate (scores, &i, &document))
    {
      Scored scored = { document, scores->counts[document] };

      if (scored.score > cut || (scored.score == cut && at_cut++ < top_k - above))
        g_array_append_val (top, scored);
    }
  g_array_sort (top, compare_scored);
  return top;
}

static GPtrArray *
grammar_keyword_retriever_retrieve (GrammarRetriever  *retriever,
                                    const char        *query,
                                    guint              top_k,
                                    GCancellable      *cancellable,
                                    GError           **error)
{
  GrammarKeywordRetriever *self = GRAMMAR_KEYWORD_RETRIEVER (retriever);
  GPtrArray *hits = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) lists = NULL;
  g_autoptr (GArray) top = NULL;
  Scores scores = { NULL, };

  if (top_k == 0)
    top_k = self->top_k;
  if (self->documents == NULL || self->documents->len == 0)
    return hits;
  lists = query_postings (self, query);
  if (lists->len == 0)
    return hits;

  score (&scores, lists, self->documents->len);
  top = select_top (&scores, top_k);
  scores_clear (&scores);

  for (guint i = 0; i < top->len; i++)
    {
      const Scored *scored = &g_array_index (top, Scored, i);
      GrammarDocument *document = g_ptr_array_index (self->documents, scored->document);

      g_ptr_array_add (hits, grammar_hit_new (grammar_document_get_id (document), scored->score,
                                              grammar_document_get_text (document)));
    }
  return hits;
}

static void
grammar_keyword_retriever_retriever_iface_init (GrammarRetrieverInterface *iface)
{
  iface->index = grammar_keyword_retriever_index;
  iface->retrieve = grammar_keyword_retriever_retrieve;
}

/* Set-up */

static gboolean
grammar_keyword_retriever_initable_init (GInitable     *initable,
                                         GCancellable  *cancellable,
                                         GError       **error)
{
  GrammarKeywordRetriever *self = GRAMMAR_KEYWORD_RETRIEVER (initable);
  GError *local_error = NULL;
  GPtrArray *documents;

  self->stop_words = grammar_retrieval_load_stop_words (self->stop_words_kind, self->stop_words_file, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (self->documents_path == NULL || *self->documents_path == '\0')
    {
      use_documents (self, g_ptr_array_new_with_free_func (g_object_unref));
      return TRUE;
    }
  documents = grammar_document_load_jsonl (self->documents_path, error);
  if (documents == NULL)
    return FALSE;
  use_documents (self, documents);
  return TRUE;
}

static void
grammar_keyword_retriever_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_keyword_retriever_initable_init;
}

static void
grammar_keyword_retriever_finalize (GObject *object)
{
  GrammarKeywordRetriever *self = GRAMMAR_KEYWORD_RETRIEVER (object);

  g_free (self->documents_path);
  g_free (self->stop_words_file);
  g_clear_pointer (&self->stop_words, g_hash_table_unref);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  g_clear_pointer (&self->postings, g_hash_table_unref);

  G_OBJECT_CLASS (grammar_keyword_retriever_parent_class)->finalize (object);
}

static void
grammar_keyword_retriever_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  GrammarKeywordRetriever *self = GRAMMAR_KEYWORD_RETRIEVER (object);

  switch (prop_id)
    {
    case PROP_DOCUMENTS: g_value_set_string (value, self->documents_path); break;
    case PROP_TOP_K: g_value_set_uint (value, self->top_k); break;
    case PROP_STOP_WORDS: g_value_set_enum (value, self->stop_words_kind); break;
    case PROP_STOP_WORDS_FILE: g_value_set_string (value, self->stop_words_file); break;
    case PROP_INDEX_TITLE: g_value_set_boolean (value, self->index_title); break;
    case PROP_N_DOCUMENTS: g_value_set_uint (value, self->documents != NULL ? self->documents->len : 0); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_keyword_retriever_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  GrammarKeywordRetriever *self = GRAMMAR_KEYWORD_RETRIEVER (object);

  switch (prop_id)
    {
    case PROP_DOCUMENTS:
      g_free (self->documents_path);
      self->documents_path = g_value_dup_string (value);
      break;
    case PROP_TOP_K: self->top_k = g_value_get_uint (value); break;
    case PROP_STOP_WORDS: self->stop_words_kind = g_value_get_enum (value); break;
    case PROP_STOP_WORDS_FILE:
      g_free (self->stop_words_file);
      self->stop_words_file = g_value_dup_string (value);
      break;
    case PROP_INDEX_TITLE: self->index_title = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_keyword_retriever_class_init (GrammarKeywordRetrieverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = grammar_keyword_retriever_finalize;
  object_class->get_property = grammar_keyword_retriever_get_property;
  object_class->set_property = grammar_keyword_retriever_set_property;

  properties[PROP_DOCUMENTS] =
    g_param_spec_string ("documents", NULL, "The corpus, a documents.jsonl file (empty: none until index())",
                         NULL, construct | GRAMMAR_PARAM_PATH);
  properties[PROP_TOP_K] =
    g_param_spec_uint ("top-k", NULL, "Hits to return when the caller asks for 0", 1, G_MAXUINT, 1, construct);
  grammar_retrieval_stop_words_pspecs (&properties[PROP_STOP_WORDS], &properties[PROP_STOP_WORDS_FILE],
                                       "Words to ignore: none, or english (a built-in list)");
  properties[PROP_INDEX_TITLE] =
    g_param_spec_boolean ("index-title", NULL, "Index each document's title with its text", TRUE, construct);
  properties[PROP_N_DOCUMENTS] =
    g_param_spec_uint ("n-documents", NULL, "Documents in the index", 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_keyword_retriever_class_finalize (GrammarKeywordRetrieverClass *klass)
{
}

static void
grammar_keyword_retriever_init (GrammarKeywordRetriever *self)
{
}

void
grammar_keyword_retriever_register (GTypeModule *module)
{
  grammar_keyword_retriever_register_type (module);
}
