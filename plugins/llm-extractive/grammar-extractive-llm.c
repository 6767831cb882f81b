/* grammar-extractive-llm.c: an offline reader that copies the best sentence
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "grammar-extractive-llm.h"

/**
 * GrammarExtractiveLlm:
 *
 * The `extractive` language model plugin: an offline, deterministic
 * reader for a system under test that needs no network and no model. It
 * is a baseline that copies a sentence of the context, not a language
 * model: it never rephrases, computes or combines facts.
 *
 * Prompt convention. Only the last message with the role `user` is read.
 * In it, a line starting with `Context:` (spaces before it allowed,
 * case as written) opens the context: the rest of that line and every
 * line after it, up to the last line starting with `Question:`. The rest
 * of that line and the lines after it are the question, up to a line
 * whose label (the text before its first `:`) ends with `answer` in any
 * case (`Answer:`, `Short answer:`), if there is one. Without both
 * markers, in this order, the whole message is the question, there is no
 * context, and the reply is `I don't know.`
 *
 * Sentences. The context is cut by grammar_document_split_sentences():
 * into paragraphs at blank lines, and a
 * paragraph into sentences after `.`, `!` or `?` (with any closing quotes
 * or brackets and further `.!?` right after it) that is followed by a
 * space or the end of the paragraph, except where the next word starts
 * with a lower-case letter, or where a `.` ends an abbreviation: a word
 * holding another `.` (“U.S.”, “e.g.”), a single letter (“J.”), or one
 * of a short list (“Mr.”, “Dr.”, “Inc.”, “No.”, “Jan.”…). A `.` inside a
 * number (“433.5”) is not followed by a space and never ends one; `。`,
 * `！` and `？` always do. Whitespace in a sentence is collapsed to single
 * spaces.
 *
 * Scoring. Question and sentences are split into words by
 * grammar_document_tokenize(), as the `keyword` retriever does; with
 * #GrammarExtractiveLlm:stop-words the English stop words of
 * grammar_document_is_stop_word() are left out of the question. A
 * sentence scores the number of distinct question words it contains.
 * The reply is the best-scoring sentence, the earliest on a tie, or with
 * #GrammarExtractiveLlm:max-sentences N the best N sentences (score, then
 * position) joined by spaces in context order. When no sentence shares a
 * word with the question the reply is `I don't know.`
 *
 * Sampling. At a temperature of 0 or unset, every choice is the reply
 * above, so a request for n choices gets n identical ones. At a
 * temperature T > 0 each choice draws its sentences (as many as
 * #GrammarExtractiveLlm:max-sentences) among those that share a word
 * with the question, without replacement, each with a weight of
 * exp((score − best score) / T): the best sentences stay the likeliest,
 * and the higher T the more often another one is drawn. The draws are
 * seeded by the request's seed (or #GrammarExtractiveLlm:seed), the
 * prompt and the choice's index, so the same request gives the same
 * choices on every run. This is the offline stand-in for the stochastic
 * samples that SelfCheck-style metrics compare a response with.
 *
 * Max-tokens, stop sequences and the JSON response format are ignored.
 * Token counts are words separated by white space: the prompt's over all
 * messages, the completion's over the reply times n. There are no
 * embeddings: grammar_llm_embed() fails with %GRAMMAR_ERROR_NOT_SUPPORTED.
 */

#define UNKNOWN_REPLY "I don't know."
#define MODEL_NAME "extractive"

struct _GrammarExtractiveLlm
{
  GObject parent_instance;

  gboolean stop_words;
  guint max_sentences;
  guint seed;
};

enum
{
  PROP_0,
  PROP_STOP_WORDS,
  PROP_MAX_SENTENCES,
  PROP_SEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_extractive_llm_llm_iface_init (GrammarLlmInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarExtractiveLlm, grammar_extractive_llm, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_LLM,
                                                               grammar_extractive_llm_llm_iface_init))

/* ---- the prompt ---- */

/* Whether @line starts with @marker after blanks; @rest gets what follows it. */
static gboolean
has_marker (const char  *line,
            const char  *marker,
            const char **rest)
{
  while (*line == ' ' || *line == '\t')
    line++;
  if (!g_str_has_prefix (line, marker))
    return FALSE;
  *rest = line + strlen (marker);
  return TRUE;
}

/* The line that ends the question: one whose label, the text before
 * its first `:`, ends with `answer` in any case (“Answer:”, “Short
 * answer:”, “Final Answer: …”), as prompts written for real models often
 * have. */
static gboolean
is_answer_line (const char *line)
{
  const char *colon = strchr (line, ':');
  const char *end = colon;

  if (colon == NULL)
    return FALSE;
  while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  return end - line >= 6 && g_ascii_strncasecmp (end - 6, "answer", 6) == 0;
}

/* The text of lines [first, end): the first without its marker. */
static char *
join_lines (char       **lines,
            guint        first,
            guint        end,
            const char  *marker)
{
  GString *text = g_string_new (NULL);
  const char *rest = lines[first];

  has_marker (lines[first], marker, &rest);
  g_string_append (text, rest);
  for (guint i = first + 1; i < end; i++)
    {
      g_string_append_c (text, '\n');
      g_string_append (text, lines[i]);
    }
  return g_string_free (text, FALSE);
}

/* Finds the context and the question of @message (see the type's
 * documentation); FALSE when it has no context. The question is the
 * last `Question:` line, so that a document quoted in the context may
 * hold such a line itself. */
static gboolean
parse_prompt (const char  *message,
              char       **context,
              char       **question)
{
  g_auto (GStrv) lines = g_strsplit (message, "\n", -1);
  guint n_lines = g_strv_length (lines);
  guint context_line = n_lines, question_line = n_lines, end = n_lines;
  const char *rest;

  for (guint i = 0; i < n_lines; i++)
    {
      gsize length = strlen (lines[i]);

      if (length > 0 && lines[i][length - 1] == '\r')
        lines[i][length - 1] = '\0';
    }
  for (guint i = 0; i < n_lines && context_line == n_lines; i++)
    if (has_marker (lines[i], "Context:", &rest))
      context_line = i;
  for (guint i = context_line + 1; i < n_lines; i++)
    if (has_marker (lines[i], "Question:", &rest))
      question_line = i;
  if (question_line >= n_lines)
    return FALSE;
  for (guint i = question_line + 1; i < n_lines && end == n_lines; i++)
    if (is_answer_line (lines[i]))
      end = i;

  *context = join_lines (lines, context_line, question_line, "Context:");
  *question = join_lines (lines, question_line, end, "Question:");
  return TRUE;
}

/* ---- scoring ---- */

static GHashTable *
word_set (const char *text,
          gboolean    skip_stop_words)
{
  g_auto (GStrv) tokens = grammar_document_tokenize (text);
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; tokens[i] != NULL; i++)
    if (!skip_stop_words || !grammar_document_is_stop_word (tokens[i]))
      g_hash_table_add (set, g_strdup (tokens[i]));
  return set;
}

static guint
score_sentence (GHashTable *question_words,
                const char *sentence)
{
  g_autoptr (GHashTable) words = word_set (sentence, FALSE);
  GHashTableIter iter;
  gpointer word;
  guint score = 0;

  g_hash_table_iter_init (&iter, question_words);
  while (g_hash_table_iter_next (&iter, &word, NULL))
    if (g_hash_table_contains (words, word))
      score++;
  return score;
}

typedef struct
{
  guint index;
  guint score;
} Scored;

/* Best score first, then the earliest. */
static int
compare_by_score (gconstpointer a,
                  gconstpointer b)
{
  const Scored *x = a, *y = b;

  if (x->score != y->score)
    return x->score > y->score ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static int
compare_by_index (gconstpointer a,
                  gconstpointer b)
{
  const Scored *x = a, *y = b;

  return x->index < y->index ? -1 : x->index > y->index;
}

/* Keeps @n entries of @scored drawn at random without replacement, each
 * with a weight of exp((score - best) / temperature). */
static void
draw_sentences (GArray *scored,
                guint   n,
                double  temperature,
                GRand  *rand)
{
  g_autoptr (GArray) drawn = g_array_new (FALSE, FALSE, sizeof (Scored));
  g_autoptr (GArray) weights = g_array_sized_new (FALSE, FALSE, sizeof (double), scored->len);
  double total = 0.0;
  guint best = 0;

  for (guint i = 0; i < scored->len; i++)
    best = MAX (best, g_array_index (scored, Scored, i).score);
  for (guint i = 0; i < scored->len; i++)
    {
      double weight = exp (((double) g_array_index (scored, Scored, i).score - best) / temperature);

      g_array_append_val (weights, weight);
      total += weight;
    }
  while (drawn->len < n && scored->len > 0)
    {
      double target = g_rand_double (rand) * total;
      guint pick = scored->len - 1;

      for (guint i = 0; i < scored->len; i++)
        {
          target -= g_array_index (weights, double, i);
          if (target < 0.0)
            {
              pick = i;
              break;
            }
        }
      g_array_append_val (drawn, g_array_index (scored, Scored, pick));
      total -= g_array_index (weights, double, pick);
      g_array_remove_index (scored, pick);
      g_array_remove_index (weights, pick);
    }
  g_array_set_size (scored, 0);
  g_array_append_vals (scored, drawn->data, drawn->len);
}

/* The reply to @question given @context: the best sentences, or with
 * @rand sentences drawn at @temperature. */
static char *
extract (GrammarExtractiveLlm *self,
         const char           *context,
         const char           *question,
         double                temperature,
         GRand                *rand)
{
  g_autoptr (GHashTable) question_words = word_set (question, self->stop_words);
  g_auto (GStrv) sentences = grammar_document_split_sentences (context);
  g_autoptr (GArray) scored = g_array_new (FALSE, FALSE, sizeof (Scored));
  g_autoptr (GString) reply = g_string_new (NULL);

  for (guint i = 0; sentences[i] != NULL; i++)
    {
      Scored entry = { i, score_sentence (question_words, sentences[i]) };

      if (entry.score > 0)
        g_array_append_val (scored, entry);
    }
  if (scored->len == 0)
    return g_strdup (UNKNOWN_REPLY);

  if (rand != NULL)
    draw_sentences (scored, self->max_sentences, temperature, rand);
  else
    {
      g_array_sort (scored, compare_by_score);
      g_array_set_size (scored, MIN (scored->len, self->max_sentences));
    }
  g_array_sort (scored, compare_by_index);
  for (guint i = 0; i < scored->len; i++)
    {
      if (i > 0)
        g_string_append_c (reply, ' ');
      g_string_append (reply, sentences[g_array_index (scored, Scored, i).index]);
    }
  return g_string_free (g_steal_pointer (&reply), FALSE);
}

/* ---- the language model ---- */

static guint
count_words (const char *text)
{
  gboolean in_word = FALSE;
  guint n_words = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gboolean space = g_unichar_isspace (g_utf8_get_char (p));

      if (!space && !in_word)
        n_words++;
      in_word = !space;
    }
  return n_words;
}

static const char *
last_user_message (GrammarChatRequest *request)
{
  for (guint i = grammar_chat_request_get_n_messages (request); i > 0; i--)
    if (g_strcmp0 (grammar_chat_request_get_message_role (request, i - 1), "user") == 0)
      return grammar_chat_request_get_message_content (request, i - 1);
  return NULL;
}

/* Choice @index of the reply to @request. */
static char *
answer (GrammarExtractiveLlm *self,
        GrammarChatRequest   *request,
        guint                 index)
{
  const char *message = last_user_message (request);
  double temperature = grammar_chat_request_get_temperature (request);
  g_autofree char *context = NULL;
  g_autofree char *question = NULL;
  g_autoptr (GRand) rand = NULL;
  gint64 seed = self->seed;

  if (message == NULL || !parse_prompt (message, &context, &question))
    return g_strdup (UNKNOWN_REPLY);
  if (temperature > 0.0)
    {
      guint32 seeds[4];

      grammar_chat_request_get_seed (request, &seed);
      seeds[0] = (guint32) seed;
      seeds[1] = (guint32) ((guint64) seed >> 32);
      seeds[2] = g_str_hash (message);
      seeds[3] = index;
      rand = g_rand_new_with_seed_array (seeds, G_N_ELEMENTS (seeds));
    }
  return extract (self, context, question, temperature, rand);
}

static GrammarChatResponse *
respond (GrammarExtractiveLlm *self,
         GrammarChatRequest   *request)
{
  guint n = MAX (grammar_chat_request_get_n (request), 1);
  g_autoptr (GPtrArray) choices = g_ptr_array_new_with_free_func (g_free);
  guint prompt_tokens = 0, completion_tokens = 0;

  for (guint i = 0; i < n; i++)
    {
      char *reply = answer (self, request, i);

      completion_tokens += count_words (reply);
      g_ptr_array_add (choices, reply);
    }
  g_ptr_array_add (choices, NULL);
  for (guint i = 0; i < grammar_chat_request_get_n_messages (request); i++)
    prompt_tokens += count_words (grammar_chat_request_get_message_content (request, i));
  return grammar_chat_response_new ((const char * const *) choices->pdata, MODEL_NAME, prompt_tokens,
                                    completion_tokens);
}

static void
grammar_extractive_llm_chat_async (GrammarLlm          *llm,
                                   GrammarChatRequest  *request,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GrammarExtractiveLlm *self = GRAMMAR_EXTRACTIVE_LLM (llm);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, grammar_extractive_llm_chat_async);
  if (g_task_return_error_if_cancelled (task))
    return;
  /* The work is a few microseconds: done here, delivered from the main
   * context like any asynchronous result. */
  g_task_return_pointer (task, respond (self, request), g_object_unref);
}

static GrammarChatResponse *
grammar_extractive_llm_chat_finish (GrammarLlm    *llm,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, llm), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_extractive_llm_embed_async (GrammarLlm          *llm,
                                    const char * const  *texts,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr (GTask) task = g_task_new (llm, cancellable, callback, user_data);

  g_task_set_source_tag (task, grammar_extractive_llm_embed_async);
  g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
                           "the extractive reader computes no embeddings; "
                           "use a plugin that does (such as openai) as the embedder");
}

static GrammarEmbeddings *
grammar_extractive_llm_embed_finish (GrammarLlm    *llm,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, llm), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_extractive_llm_llm_iface_init (GrammarLlmInterface *iface)
{
  iface->chat_async = grammar_extractive_llm_chat_async;
  iface->chat_finish = grammar_extractive_llm_chat_finish;
  iface->embed_async = grammar_extractive_llm_embed_async;
  iface->embed_finish = grammar_extractive_llm_embed_finish;
}

/* ---- construction ---- */

static void
grammar_extractive_llm_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  GrammarExtractiveLlm *self = GRAMMAR_EXTRACTIVE_LLM (object);

  switch (prop_id)
    {
    case PROP_STOP_WORDS: g_value_set_boolean (value, self->stop_words); break;
    case PROP_MAX_SENTENCES: g_value_set_uint (value, self->max_sentences); break;
    case PROP_SEED: g_value_set_uint (value, self->seed); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_extractive_llm_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  GrammarExtractiveLlm *self = GRAMMAR_EXTRACTIVE_LLM (object);

  switch (prop_id)
    {
    case PROP_STOP_WORDS: self->stop_words = g_value_get_boolean (value); break;
    case PROP_MAX_SENTENCES: self->max_sentences = g_value_get_uint (value); break;
    case PROP_SEED: self->seed = g_value_get_uint (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_extractive_llm_class_init (GrammarExtractiveLlmClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = grammar_extractive_llm_get_property;
  object_class->set_property = grammar_extractive_llm_set_property;

  properties[PROP_STOP_WORDS] =
    g_param_spec_boolean ("stop-words", NULL,
                          "Leave the built-in English stop words out of the question's words", TRUE, construct);
  properties[PROP_MAX_SENTENCES] =
    g_param_spec_uint ("max-sentences", NULL,
                       "Reply with the best N sentences, in context order", 1, 1000, 1, construct);
  properties[PROP_SEED] =
    g_param_spec_uint ("seed", NULL,
                       "The seed of the draws at a temperature above 0, when the request has none",
                       0, G_MAXUINT, 0, construct);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_extractive_llm_class_finalize (GrammarExtractiveLlmClass *klass)
{
}

static void
grammar_extractive_llm_init (GrammarExtractiveLlm *self)
{
  self->stop_words = TRUE;
  self->max_sentences = 1;
}

void
grammar_extractive_llm_register (GTypeModule *module)
{
  grammar_extractive_llm_register_type (module);
}
