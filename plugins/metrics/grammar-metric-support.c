/* grammar-metric-support.c: what the metric plugins share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-metric-support.h"

#define EXCERPT_CHARS 120

/* ---- the record ---- */

/* The unmeasured score of a record whose system gave no response, or
 * NULL when it has one. */
GrammarScore *
grammar_metric_support_no_response (GrammarRecord *record)
{
  const char *response = grammar_record_get_response (record);
  g_autofree char *reason = NULL;

  if (response != NULL && response[0] != '\0')
    return NULL;
  if (grammar_record_get_error (record) != NULL)
    reason = g_strdup_printf ("the system gave no response: %s", grammar_record_get_error (record));
  return grammar_score_new_unmeasured (reason != NULL ? reason : "the system gave no response");
}

/* The texts of the retrieved documents in rank order, joined by a blank
 * line; NULL when there is none. */
char *
grammar_metric_support_context (GrammarRecord *record)
{
  GPtrArray *hits = grammar_record_get_retrieved (record);
  g_autoptr (GString) context = g_string_new (NULL);

  for (guint i = 0; hits != NULL && i < hits->len; i++)
    {
      const char *text = grammar_hit_get_text (g_ptr_array_index (hits, i));

      if (text == NULL || text[0] == '\0')
        continue;
      if (context->len > 0)
        g_string_append (context, "\n\n");
      g_string_append (context, text);
    }
  return context->len > 0 ? g_string_free (g_steal_pointer (&context), FALSE) : NULL;
}

/* The documents a record's system reported must have their texts: a
 * file with ids only cannot be judged against its context. A record
 * without `retrieved` (its system reported no documents) passes: it has
 * no context, and its score is unmeasured, as for an empty list. */
gboolean
grammar_metric_support_need_texts (GrammarRecord  *record,
                                   const char     *plugin,
                                   GError        **error)
{
  GPtrArray *hits = grammar_record_get_retrieved (record);

  if (grammar_record_get_response (record) == NULL || hits == NULL)
    return TRUE;
  for (guint i = 0; i < hits->len; i++)
    if (grammar_hit_get_text (g_ptr_array_index (hits, i)) == NULL)
      {
        g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                     "%s needs the texts of the retrieved contexts, and “retrieved” has ids only: "
                     "have the system report them (retrieved-text-pointer of the http system)", plugin);
        return FALSE;
      }
  return TRUE;
}

/* The unmeasured score of a record without a sample: none asked, or
 * every one failed (the system kept the response and said so). A record
 * with fewer samples than asked is scored on those it has. */
GrammarScore *
grammar_metric_support_no_samples (GrammarRecord *record)
{
  g_autofree char *reason = NULL;

  if (grammar_record_get_samples_failed (record) == 0)
    return grammar_score_new_unmeasured ("the record has no samples");
  reason = g_strdup_printf ("the record has no samples: its %u failed (%s)", grammar_record_get_samples_failed (record),
                            grammar_record_get_sample_error (record) != NULL ? grammar_record_get_sample_error (record)
                                                                             : "no error given");
  return grammar_score_new_unmeasured (reason);
}

gboolean
grammar_metric_support_need_samples (GrammarRecord  *record,
                                     const char     *plugin,
                                     GError        **error)
{
  if (grammar_record_get_response (record) == NULL || grammar_record_get_samples (record) != NULL)
    return TRUE;
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "%s needs the system's stochastic samples, and the record has no member “samples”: "
               "set samples=N in the section of the system and run grammar rag again", plugin);
  return FALSE;
}

/* ---- reading replies ---- */

/* @reply without a Markdown code fence around it. */
static char *
strip_fence (const char *reply)
{
  g_autofree char *text = g_strstrip (g_strdup (reply));
  const char *start = text;
  const char *end;

  if (!g_str_has_prefix (text, "```"))
    return g_steal_pointer (&text);
  start = strchr (text, '\n');
  if (start == NULL)
    return g_strdup ("");
  start++;
  end = g_strrstr (start, "```");
  return g_strndup (start, end != NULL ? (gsize) (end - start) : strlen (start));
}

/* The JSON in @text: the whole text, or else from its first @open to
 * its last @close (prose around a JSON block). */
static JsonNode *
find_json (const char *text,
           char        open,
           char        close)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *first, *last;

  if (json_parser_load_from_data (parser, text, -1, NULL) && json_parser_get_root (parser) != NULL)
    return json_node_copy (json_parser_get_root (parser));
  first = strchr (text, open);
  last = strrchr (text, close);
  if (first == NULL || last == NULL || last < first)
    return NULL;
  if (!json_parser_load_from_data (parser, first, last - first + 1, NULL) || json_parser_get_root (parser) == NULL)
    return NULL;
  return json_node_copy (json_parser_get_root (parser));
}

/* The first array member of an object (`{"statements": [...]}`), or the
 * node itself when it is an array. */
static JsonArray *
as_array (JsonNode *node)
{
  JsonObject *object;
  g_autoptr (GList) members = NULL;

  if (JSON_NODE_HOLDS_ARRAY (node))
    return json_node_get_array (node);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    if (JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, l->data)))
      return json_object_get_array_member (object, l->data);
  return NULL;
}

static const char *
string_of (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      const char *names[] = { "statement", "text", "sentence" };

      for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
        {
          JsonNode *member = json_object_get_member (object, names[i]);

          if (member != NULL && JSON_NODE_HOLDS_VALUE (member) && json_node_get_value_type (member) == G_TYPE_STRING)
            return json_node_get_string (member);
        }
    }
  return NULL;
}

/* The text after a list marker at the start of @line (“1.”, “2)”, “-”,
 * “*”, “•”, “Statement 3:”), or NULL when it has none. */
static const char *
after_marker (const char *line)
{
  const char *p = line;

  if (g_ascii_strncasecmp (p, "statement", 9) == 0)
    {
      p += 9;
      while (*p == ' ')
        p++;
      while (g_ascii_isdigit (*p))
        p++;
      if (*p == ':' || *p == '.' || *p == ')')
        return p + 1;
      return NULL;
    }
  if (g_ascii_isdigit (*p))
    {
      while (g_ascii_isdigit (*p))
        p++;
      if ((*p == '.' || *p == ')' || *p == ':') && (p[1] == ' ' || p[1] == '\t'))
        return p + 1;
      return NULL;
    }
  if ((*p == '-' || *p == '*') && (p[1] == ' ' || p[1] == '\t'))
    return p + 1;
  if (g_str_has_prefix (p, "•"))
    return p + strlen ("•");
  return NULL;
}

/* Strips blanks, Markdown emphasis and quotes around @text. */
static char *
clean_item (const char *text)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  gsize length = strlen (copy);
  const char *start = copy;

  while (length >= 2 && ((start[0] == '"' && start[length - 1] == '"') ||
                         (start[0] == '*' && start[length - 1] == '*') ||
                         (start[0] == '\'' && start[length - 1] == '\'')))
    {
      start++;
      length -= 2;
    }
  return g_strstrip (g_strndup (start, length));
}

/* A list of statements: a JSON array of strings (or of objects with a
 * “statement”), maybe inside an object or a code fence or prose; or
 * numbered or bulleted lines, the other lines being prose around them;
 * or else every non-empty line. An empty JSON array is an empty list. */
JsonNode *
grammar_metric_parse_list (const char *reply,
                           gpointer    data)
{
  g_autofree char *text = strip_fence (reply);
  g_autoptr (JsonNode) json = find_json (text, '[', ']');
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_auto (GStrv) lines = NULL;
  JsonArray *array = json != NULL ? as_array (json) : NULL;
  gboolean marked = FALSE;

  json_builder_begin_array (builder);
  if (array != NULL)
    {
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          const char *item = string_of (json_array_get_element (array, i));
          g_autofree char *clean = item != NULL ? clean_item (item) : NULL;

          if (clean == NULL)
            return NULL;
          if (clean[0] != '\0')
            json_builder_add_string_value (builder, clean);
        }
      json_builder_end_array (builder);
      return json_builder_get_root (builder);
    }

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL && !marked; i++)
    marked = after_marker (g_strstrip (lines[i])) != NULL;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);
      const char *item = marked ? after_marker (line) : line;
      g_autofree char *clean = NULL;
      gsize length;

      if (item == NULL)
        continue;
      clean = clean_item (item);
      length = strlen (clean);
      /* "Statements:" and the like introduce the list. */
      if (length == 0 || (!marked && clean[length - 1] == ':'))
        continue;
      json_builder_add_string_value (builder, clean);
    }
  json_builder_end_array (builder);
  return json_builder_get_root (builder);
}

/* 1 (yes), 0 (no) or -1 (null, when allowed) for a word; -2 otherwise. */
static int
verdict_word (const char *word,
              gboolean    allow_null)
{
  if (g_ascii_strcasecmp (word, "yes") == 0 || g_str_equal (word, "1") || g_ascii_strcasecmp (word, "true") == 0 ||
      g_ascii_strcasecmp (word, "supported") == 0)
    return 1;
  if (g_ascii_strcasecmp (word, "no") == 0 || g_str_equal (word, "0") || g_ascii_strcasecmp (word, "false") == 0)
    return 0;
  if (allow_null && (g_ascii_strcasecmp (word, "null") == 0 || g_str_equal (word, "-1")))
    return -1;
  return -2;
}

/* The words of @text: runs of letters, digits and '-'. */
static GStrv
words_of (const char *text)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  const char *p = text;

  while (*p != '\0')
    {
      const char *start;

      while (*p != '\0' && !g_ascii_isalnum (*p) && !(*p == '-' && g_ascii_isdigit (p[1])))
        p++;
      start = p;
      if (*p == '-')
        p++;
      while (*p != '\0' && g_ascii_isalnum (*p))
        p++;
      if (p > start)
        {
          g_autofree char *word = g_strndup (start, p - start);

          g_strv_builder_add (builder, word);
        }
    }
  return g_strv_builder_end (builder);
}

/* A verdict: the first word when it is one (“Yes.”, “**No**”), or else
 * the only verdict word in the reply (“Verdict: Yes”); 1, 0 or -1
 * (null), as a JSON integer. */
JsonNode *
grammar_metric_parse_yes_no (const char *reply,
                             gpointer    allow_null)
{
  g_auto (GStrv) words = words_of (reply);
  int found = -2;

  if (words[0] == NULL)
    return NULL;
  found = verdict_word (words[0], GPOINTER_TO_INT (allow_null));
  if (found == -2)
    for (guint i = 1; words[i] != NULL; i++)
      {
        int verdict = verdict_word (words[i], GPOINTER_TO_INT (allow_null));

        /* Digits in prose are not verdicts; two different words are no answer. */
        if (verdict == -2 || g_ascii_isdigit (words[i][0]) || words[i][0] == '-')
          continue;
        if (found != -2 && found != verdict)
          return NULL;
        found = verdict;
      }
  if (found == -2)
    return NULL;
  return json_node_init_int (json_node_alloc (), found);
}

static int
verdict_of (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonNode *member = json_object_get_member (json_node_get_object (node), "verdict");

      return member != NULL ? verdict_of (member) : -2;
    }
  if (!JSON_NODE_HOLDS_VALUE (node))
    return -2;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return verdict_word (json_node_get_string (node), FALSE);
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node) == 1 ? 1 : json_node_get_int (node) == 0 ? 0 : -2;
  if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return json_node_get_boolean (node) ? 1 : 0;
  return -2;
}

/* One verdict per statement, in order: a JSON array of objects with a
 * “verdict” (1/0, "Yes"/"No") or of bare verdicts, maybe in an object,
 * a fence or prose; or else one line per statement that holds a verdict
 * (“1. Yes”, “Verdict: No”). Exactly @n_statements of them, or NULL. */
JsonNode *
grammar_metric_parse_verdicts (const char *reply,
                               gpointer    n_statements)
{
  guint n = GPOINTER_TO_UINT (n_statements);
  g_autofree char *text = strip_fence (reply);
  g_autoptr (JsonNode) json = find_json (text, '[', ']');
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  JsonArray *array = json != NULL ? as_array (json) : NULL;
  g_auto (GStrv) lines = NULL;
  guint count = 0;

  json_builder_begin_array (builder);
  if (array != NULL)
    {
      if (json_array_get_length (array) != n)
        return NULL;
      for (guint i = 0; i < n; i++)
        {
          int verdict = verdict_of (json_array_get_element (array, i));

          if (verdict < 0)
            return NULL;
          json_builder_add_int_value (builder, verdict);
        }
      json_builder_end_array (builder);
      return json_builder_get_root (builder);
    }

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);
      const char *verdict_at = g_strrstr (line, "erdict");
      const char *item = after_marker (line);
      g_autoptr (JsonNode) verdict = NULL;

      /* "Verdict: Yes" anywhere, or a numbered line that is a verdict. */
      if (verdict_at != NULL)
        verdict = grammar_metric_parse_yes_no (verdict_at + strlen ("erdict"), GINT_TO_POINTER (FALSE));
      else if (item != NULL)
        {
          g_auto (GStrv) words = words_of (item);

          if (words[0] != NULL && words[1] == NULL)
            verdict = grammar_metric_parse_yes_no (item, GINT_TO_POINTER (FALSE));
        }
      if (verdict == NULL)
        continue;
      json_builder_add_int_value (builder, json_node_get_int (verdict));
      count++;
    }
  json_builder_end_array (builder);
  if (count != n)
    return NULL;
  return json_builder_get_root (builder);
}

/* ---- asking ---- */

typedef struct
{
  GrammarLlm *llm;
  GPtrArray *prompts;       /* char * */
  guint max_attempts;
  GrammarMetricParse parse;
  gpointer parse_data;
  GPtrArray *replies;       /* GrammarMetricReply, one per prompt */
  guint pending;
  guint requests;
  guint64 tokens;
  GError *error;
} Ask;

typedef struct
{
  GTask *task;
  guint index;
} AskSlot;

static void
ask_free (Ask *ask)
{
  g_clear_object (&ask->llm);
  g_ptr_array_unref (ask->prompts);
  g_ptr_array_unref (ask->replies);
  g_clear_error (&ask->error);
  g_free (ask);
}

void
grammar_metric_reply_free (GrammarMetricReply *reply)
{
  g_free (reply->reply);
  g_clear_pointer (&reply->parsed, json_node_unref);
  g_free (reply);
}

static void ask_one (GTask *task,
                     guint  index);

static void
ask_slot_done (GTask *task)
{
  Ask *ask = g_task_get_task_data (task);

  if (--ask->pending > 0)
    return;
  if (ask->error != NULL)
    g_task_return_error (task, g_steal_pointer (&ask->error));
  else
    g_task_return_pointer (task, g_ptr_array_ref (ask->replies), (GDestroyNotify) g_ptr_array_unref);
}

static void
on_asked (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  AskSlot *slot = user_data;
  g_autoptr (GTask) task = slot->task;
  Ask *ask = g_task_get_task_data (task);
  GrammarMetricReply *reply = g_ptr_array_index (ask->replies, slot->index);
  g_autoptr (GrammarChatResponse) response = NULL;
  GError *error = NULL;
  guint index = slot->index;
  const char *text;

  g_free (slot);
  response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &error);
  if (response == NULL)
    {
      if (ask->error == NULL)
        ask->error = error;
      else
        g_error_free (error);
      ask_slot_done (task);
      return;
    }
  if (!grammar_chat_response_get_cached (response))
    ask->tokens += grammar_chat_response_get_prompt_tokens (response) +
                   grammar_chat_response_get_completion_tokens (response);
  text = grammar_chat_response_get_text (response);
  g_free (reply->reply);
  reply->reply = g_strdup (text != NULL ? text : "");
  g_clear_pointer (&reply->parsed, json_node_unref);
  reply->parsed = ask->parse (reply->reply, ask->parse_data);
  if (reply->parsed == NULL && reply->attempts < ask->max_attempts && ask->error == NULL)
    {
      ask_one (g_steal_pointer (&task), index);
      return;
    }
  ask_slot_done (task);
}

/* Sends prompt @index; an attempt after the first asks with another
 * seed, so that a cached unreadable reply is not simply given back. */
static void
ask_one (GTask *task,
         guint  index)
{
  Ask *ask = g_task_get_task_data (task);
  GrammarMetricReply *reply = g_ptr_array_index (ask->replies, index);
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  AskSlot *slot = g_new0 (AskSlot, 1);

  grammar_chat_request_add_message (request, "user", g_ptr_array_index (ask->prompts, index));
  grammar_chat_request_set_temperature (request, 0.0);
  if (reply->attempts > 0)
    grammar_chat_request_set_seed (request, reply->attempts);
  reply->attempts++;
  ask->requests++;
  slot->task = task;
  slot->index = index;
  grammar_llm_chat_async (ask->llm, request, g_task_get_cancellable (task), on_asked, slot);
}

/* Asks the language model of @metric every prompt of @prompts at once,
 * at temperature 0, and parses each reply with @parse; a reply it cannot
 * read is asked again, up to the metric's `max-attempts` requests per
 * prompt. The result is one
 * GrammarMetricReply per prompt, its `parsed` NULL when no reply could
 * be read; the first error of the language model fails the whole. */
void
grammar_metric_ask_async (GrammarLlmMetric    *metric,
                          GPtrArray           *prompts,
                          GrammarMetricParse   parse,
                          gpointer             parse_data,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task = g_task_new (metric, cancellable, callback, user_data);
  Ask *ask = g_new0 (Ask, 1);

  ask->llm = g_object_ref (grammar_llm_metric_get_llm (metric));
  ask->prompts = g_ptr_array_ref (prompts);
  ask->max_attempts = MAX (grammar_llm_metric_get_max_attempts (metric), 1);
  ask->parse = parse;
  ask->parse_data = parse_data;
  ask->replies = g_ptr_array_new_with_free_func ((GDestroyNotify) grammar_metric_reply_free);
  for (guint i = 0; i < prompts->len; i++)
    g_ptr_array_add (ask->replies, g_new0 (GrammarMetricReply, 1));
  ask->pending = prompts->len;
  g_task_set_task_data (task, ask, (GDestroyNotify) ask_free);
  if (prompts->len == 0)
    {
      g_task_return_pointer (task, g_ptr_array_ref (ask->replies), (GDestroyNotify) g_ptr_array_unref);
      g_object_unref (task);
      return;
    }
  for (guint i = 0; i < prompts->len; i++)
    ask_one (i + 1 < prompts->len ? g_object_ref (task) : task, i);
}

GPtrArray *
grammar_metric_ask_finish (GAsyncResult  *result,
                           guint         *requests,
                           guint64       *tokens,
                           GError       **error)
{
  Ask *ask = g_task_get_task_data (G_TASK (result));

  *requests += ask->requests;
  *tokens += ask->tokens;
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- prompts ---- */

/* @prompt with its {name} fields filled from @names and @values (NULL
 * ends @names), in one pass, so that a value holding "{context}" stays
 * as it is. */
char *
grammar_metric_fill_prompt (const char         *prompt,
                            const char * const *names,
                            const char * const *values)
{
  GString *text = g_string_new (NULL);
  const char *p = prompt;

  while (*p != '\0')
    {
      gboolean filled = FALSE;

      for (guint i = 0; names[i] != NULL && !filled; i++)
        if (g_str_has_prefix (p, names[i]))
          {
            g_string_append (text, values[i] != NULL ? values[i] : "");
            p += strlen (names[i]);
            filled = TRUE;
          }
      if (!filled)
        g_string_append_c (text, *p++);
    }
  return g_string_free (text, FALSE);
}

/* ---- text ---- */

/* The start of @text on one line, for messages. */
char *
grammar_metric_excerpt (const char *text)
{
  g_autofree char *flat = g_strdup (text != NULL ? text : "");

  g_strdelimit (flat, "\r\n\t", ' ');
  g_strstrip (flat);
  if (g_utf8_strlen (flat, -1) <= EXCERPT_CHARS)
    return g_steal_pointer (&flat);
  return g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (flat, EXCERPT_CHARS) - flat), flat);
}

/* The words of @text as retrievers see them, stop words left out. */
GHashTable *
grammar_metric_content_words (const char *text)
{
  g_auto (GStrv) tokens = grammar_document_tokenize (text);
  GHashTable *words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; tokens[i] != NULL; i++)
    if (!grammar_document_is_stop_word (tokens[i]))
      g_hash_table_add (words, g_strdup (tokens[i]));
  return words;
}
