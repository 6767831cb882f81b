/* test-extractive.c: the `extractive` reader plugin
 *
 * Every reader is built through a GrammarConfig keyfile, as users do,
 * and asked with the prompt convention of doc/reader.md: a `Context:`
 * line, a later `Question:` line, an optional `Answer:` line.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include <grammar.h>

#include "grammar-test-util.h"

#define UNKNOWN "I don't know."

static char *tmpdir;

static GrammarLlm *
build_reader (const char *extra)
{
  g_autofree char *data = g_strdup_printf ("[reader]\nplugin=extractive\n%s", extra != NULL ? extra : "");
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarConfig) config = grammar_config_new_from_data (data, -1, tmpdir, &error);
  GObject *reader;

  g_assert_no_error (error);
  reader = grammar_config_build (config, "reader", GRAMMAR_TYPE_LLM, &error);
  g_assert_no_error (error);
  g_assert_true (GRAMMAR_IS_LLM (reader));
  return GRAMMAR_LLM (reader);
}

static char *
prompt_for (const char *context,
            const char *question)
{
  return g_strdup_printf ("Answer the question from the context.\n\nContext:\n%s\n\nQuestion: %s\nAnswer:",
                          context, question);
}

/* The reply of @reader to one user message, asked synchronously. */
static char *
ask_message (GrammarLlm *reader,
             const char *message)
{
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;

  grammar_chat_request_add_message (request, "system", "You answer from the context only.");
  grammar_chat_request_add_message (request, "user", message);
  response = grammar_llm_chat (reader, request, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_chat_response_get_n_choices (response), ==, 1);
  return g_strdup (grammar_chat_response_get_text (response));
}

static char *
ask (GrammarLlm *reader,
     const char *context,
     const char *question)
{
  g_autofree char *message = prompt_for (context, question);

  return ask_message (reader, message);
}

static void
assert_reply (GrammarLlm *reader,
              const char *context,
              const char *question,
              const char *expected)
{
  g_autofree char *reply = ask (reader, context, question);

  g_assert_cmpstr (reply, ==, expected);
}

static const char acme_context[] =
  "Acme Corp is a client in the Retail industry.\n"
  "Globex is a client in the Energy industry. Initech makes software!\n"
  "\n"
  "Umbrella Corp is based in Raccoon City.";

static void
test_known (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);

  assert_reply (reader, acme_context, "What is the industry of the client named Globex?",
                "Globex is a client in the Energy industry.");
  assert_reply (reader, acme_context, "Which industry is Acme Corp in?",
                "Acme Corp is a client in the Retail industry.");
  assert_reply (reader, acme_context, "What does Initech make?", "Initech makes software!");
  assert_reply (reader, acme_context, "Where is Umbrella based?", "Umbrella Corp is based in Raccoon City.");
}

/* The context and the question as the convention places them: the last
 * user message only, the last Question: line, text up to Answer:. */
static void
test_prompt_convention (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *quoted = NULL;
  g_autofree char *multiline = NULL;
  g_autofree char *crlf = NULL;
  g_autofree char *short_answer = NULL;

  /* An earlier user message about Acme is not what is answered. */
  grammar_chat_request_add_message (request, "user",
                                    "Context: Acme sells anvils.\nQuestion: What does Acme sell?");
  grammar_chat_request_add_message (request, "assistant", "Acme sells anvils.");
  grammar_chat_request_add_message (request, "user",
                                    "Context: Globex sells energy. Acme buys energy.\nQuestion: Who sells energy?");
  grammar_chat_request_add_message (request, "system", "Be brief.");
  response = grammar_llm_chat (reader, request, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_chat_response_get_text (response), ==, "Globex sells energy.");

  /* A document in the context may hold a Question: line of its own. */
  quoted = ask_message (reader,
                        "Context:\n[1] FAQ\nQuestion: Where is the office?\nThe office is in Springfield.\n"
                        "[2] Staff\nMarge works at the plant.\n"
                        "Question: Who works at the plant?\nAnswer: (write it here) office Springfield");
  g_assert_cmpstr (quoted, ==, "[2] Staff Marge works at the plant.");

  /* The question may span lines; text after Answer: is not part of it. */
  multiline = ask_message (reader,
                           "  Context: Bart rides a skateboard. Lisa plays the saxophone.\n"
                           "  Question: Which instrument\n does Lisa play?\n"
                           "  Answer: Bart skateboard rides");
  g_assert_cmpstr (multiline, ==, "Lisa plays the saxophone.");

  /* A prompt written for a real model may end with "Short answer:". */
  short_answer = ask_message (reader,
                              "Context: Bart rides a skateboard. Lisa plays the saxophone.\n"
                              "Question: What does Lisa play?\nShort answer: Bart skateboard");
  g_assert_cmpstr (short_answer, ==, "Lisa plays the saxophone.");

  crlf = ask_message (reader, "Context: Ned owns the Leftorium.\r\nQuestion: What does Ned own?\r\n");
  g_assert_cmpstr (crlf, ==, "Ned owns the Leftorium.");
}

/* Sentence ends: numbers and abbreviations do not end a sentence; ! ?
 * quotes and blank lines do. */
static void
test_sentences (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  const char *context =
    "The tower is 433.5 metres tall. Dr. Smith built it in the U.S. State of Ohio for $1.5 million.\n"
    "It opened on Jan. 5 and e.g. tourists came. \"Is it safe?\" asked Bob. Yes! It is perfectly safe.\n"
    "Wait... the lift\nbroke. Acme Inc. Repairs fixed it.\n"
    "A heading without a full stop\n"
    "\n"
    "Another paragraph\t  with   odd    spacing.";

  assert_reply (reader, context, "How tall is the tower?", "The tower is 433.5 metres tall.");
  assert_reply (reader, context, "Who built it in Ohio?",
                "Dr. Smith built it in the U.S. State of Ohio for $1.5 million.");
  assert_reply (reader, context, "When did it open to tourists?", "It opened on Jan. 5 and e.g. tourists came.");
  assert_reply (reader, context, "Who asked?", "\"Is it safe?\" asked Bob.");
  assert_reply (reader, context, "Is it perfectly safe?", "It is perfectly safe.");
  /* A line break alone does not end a sentence; a blank line does. */
  assert_reply (reader, context, "What broke?", "Wait... the lift broke.");
  assert_reply (reader, context, "Who fixed it?", "Acme Inc. Repairs fixed it.");
  assert_reply (reader, context, "What has no full stop?", "A heading without a full stop");
  assert_reply (reader, context, "Which paragraph has odd spacing?", "Another paragraph with odd spacing.");
}

static void
test_ties (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  g_autoptr (GrammarLlm) two = build_reader ("max-sentences=2\n");
  const char *context =
    "Springfield has a nuclear plant and a school. "
    "Shelbyville has a school. "
    "Springfield has a nuclear plant, a school and a bar.";

  /* Two sentences share the most words: the earlier one wins. */
  assert_reply (reader, context, "Which town has a nuclear plant and a school?",
                "Springfield has a nuclear plant and a school.");

  /* The best two, in context order: the third (4 words) and the first (3). */
  assert_reply (two, context, "Springfield nuclear plant bar",
                "Springfield has a nuclear plant and a school. "
                "Springfield has a nuclear plant, a school and a bar.");
  /* Three tie: the earliest two. */
  assert_reply (two, context, "school", "Springfield has a nuclear plant and a school. Shelbyville has a school.");
  /* Only sentences that share a word are returned. */
  assert_reply (two, context, "Where is the bar?", "Springfield has a nuclear plant, a school and a bar.");
}

static void
test_no_markers (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *plain = ask_message (reader, "Acme Corp is in Retail. Which industry is Acme Corp in?");
  g_autofree char *no_question = ask_message (reader, "Context: Acme Corp is in Retail.\nWhich industry is Acme in?");
  g_autofree char *reversed = ask_message (reader, "Question: Which industry is Acme in?\nContext: Acme is in Retail.");
  g_autofree char *lowercase = ask_message (reader, "context: Acme is in Retail.\nquestion: Which industry is Acme in?");

  g_assert_cmpstr (plain, ==, UNKNOWN);
  g_assert_cmpstr (no_question, ==, UNKNOWN);
  g_assert_cmpstr (reversed, ==, UNKNOWN);
  g_assert_cmpstr (lowercase, ==, UNKNOWN);

  /* A request without any user message. */
  grammar_chat_request_add_message (request, "system", "Context: Acme is in Retail.\nQuestion: Acme?");
  response = grammar_llm_chat (reader, request, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (grammar_chat_response_get_text (response), ==, UNKNOWN);
}

static void
test_no_overlap (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);

  assert_reply (reader, acme_context, "Who painted the Mona Lisa?", UNKNOWN);
  /* Only stop words in common with every sentence. */
  assert_reply (reader, acme_context, "What is it in?", UNKNOWN);
  assert_reply (reader, "", "Which industry is Acme in?", UNKNOWN);
  assert_reply (reader, acme_context, "", UNKNOWN);
}

static void
test_stop_words (void)
{
  g_autoptr (GrammarLlm) with = build_reader (NULL);
  g_autoptr (GrammarLlm) without = build_reader ("stop-words=false\n");
  const char *context = "The CEO is the boss of the company and of the board. Acme hired Bob as CEO.";
  gboolean stop_words = FALSE;

  g_object_get (without, "stop-words", &stop_words, NULL);
  g_assert_false (stop_words);
  /* ceo, acme: 1 against 2. With who, is, the, of counted too: 4 against 2. */
  assert_reply (with, context, "Who is the CEO of Acme?", "Acme hired Bob as CEO.");
  assert_reply (without, context, "Who is the CEO of Acme?", "The CEO is the boss of the company and of the board.");
}

static void
test_unicode (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  const char *context =
    "Die Königsallee ist eine Straße in Düsseldorf. "
    "Das Café „Zur Linde“ liegt in Zürich. "
    "Der ﬁlm läuft im Kino.\n"
    "東京は首都です。大阪 は 大きい。";

  /* Case folding: STRASSE is Straße. */
  assert_reply (reader, context, "Welche STRASSE?", "Die Königsallee ist eine Straße in Düsseldorf.");
  /* A decomposed é (e + U+0301) and no diacritics at all match the composed é. */
  assert_reply (reader, context, "Wo liegt das Cafe\xcc\x81?", "Das Café „Zur Linde“ liegt in Zürich.");
  assert_reply (reader, context, "zurich", "Das Café „Zur Linde“ liegt in Zürich.");
  /* NFKC: the ligature ﬁ is f i. */
  assert_reply (reader, context, "Welcher FILM?", "Der ﬁlm läuft im Kino.");
  /* Full-width full stops end sentences without a space. */
  assert_reply (reader, context, "大阪", "大阪 は 大きい。");
}

/* ---- asynchronous use, n choices, token counts ---- */

typedef struct
{
  GMainLoop *loop;
  GrammarChatResponse *response;
  GError *error;
  guint pending;
} AsyncState;

static void
on_chat (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  AsyncState *state = user_data;
  g_autoptr (GrammarChatResponse) response = grammar_llm_chat_finish (GRAMMAR_LLM (source), result, &state->error);

  if (response != NULL)
    {
      g_clear_object (&state->response);
      state->response = g_steal_pointer (&response);
    }
  if (--state->pending == 0)
    g_main_loop_quit (state->loop);
}

/* The choices of one request at @temperature with @seed (negative: none). */
static GStrv
sample (GrammarLlm *reader,
        double      temperature,
        gint64      seed,
        guint       n)
{
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autofree char *prompt = prompt_for (acme_context, "Which client is in the Energy or the Retail industry?");
  g_autoptr (GError) error = NULL;

  grammar_chat_request_add_message (request, "user", prompt);
  grammar_chat_request_set_n (request, n);
  grammar_chat_request_set_temperature (request, temperature);
  if (seed >= 0)
    grammar_chat_request_set_seed (request, seed);
  response = grammar_llm_chat (reader, request, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (grammar_chat_response_get_n_choices (response), ==, n);
  return g_strdupv ((GStrv) grammar_chat_response_get_choices (response));
}

/* At a temperature above 0 the choices are drawn among the sentences
 * that share a word with the question, the same on every run, and
 * another seed draws others. */
static void
test_sampling (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  g_auto (GStrv) first = sample (reader, 1.0, -1, 40);
  g_auto (GStrv) again = sample (reader, 1.0, -1, 40);
  g_auto (GStrv) other_seed = sample (reader, 1.0, 7, 40);
  g_auto (GStrv) cold = sample (reader, 0.0, -1, 5);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_true (g_strv_equal ((const char * const *) first, (const char * const *) again));
  g_assert_false (g_strv_equal ((const char * const *) first, (const char * const *) other_seed));
  for (guint i = 0; first[i] != NULL; i++)
    {
      g_assert_nonnull (strstr (acme_context, first[i]));
      g_assert_true (strstr (first[i], "Energy") != NULL || strstr (first[i], "Retail") != NULL ||
                     strstr (first[i], "client") != NULL || strstr (first[i], "industry") != NULL);
      g_hash_table_add (seen, first[i]);
    }
  /* more than one sentence is drawn over 40 draws */
  g_assert_cmpuint (g_hash_table_size (seen), >, 1);
  for (guint i = 1; cold[i] != NULL; i++)
    g_assert_cmpstr (cold[i], ==, cold[0]);
}

static void
test_async (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autofree char *prompt = prompt_for (acme_context, "What is the industry of the client named Globex?");
  AsyncState state = { g_main_loop_new (NULL, FALSE), NULL, NULL, 1 };
  const char * const *choices;

  grammar_chat_request_add_message (request, "system", "Be brief.");
  grammar_chat_request_add_message (request, "user", prompt);
  grammar_chat_request_set_n (request, 3);
  grammar_chat_request_set_temperature (request, 0.0);
  grammar_llm_chat_async (reader, request, NULL, on_chat, &state);
  /* The result is delivered from the main loop, never during the call. */
  g_assert_null (state.response);
  g_main_loop_run (state.loop);

  g_assert_no_error (state.error);
  g_assert_nonnull (state.response);
  choices = grammar_chat_response_get_choices (state.response);
  g_assert_cmpuint (grammar_chat_response_get_n_choices (state.response), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (choices[i], ==, "Globex is a client in the Energy industry.");
  g_assert_cmpstr (grammar_chat_response_get_model (state.response), ==, "extractive");
  /* 2 + 45 words of prompt; an 8-word reply three times. */
  g_assert_cmpuint (grammar_chat_response_get_prompt_tokens (state.response), ==, 2 + 45);
  g_assert_cmpuint (grammar_chat_response_get_completion_tokens (state.response), ==, 8 * 3);

  g_clear_object (&state.response);
  g_main_loop_unref (state.loop);
}

static void
test_cancelled (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;

  grammar_chat_request_add_message (request, "user", "Context: a.\nQuestion: a?");
  g_cancellable_cancel (cancellable);
  response = grammar_llm_chat (reader, request, cancellable, &error);
  g_assert_null (response);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_embeddings (void)
{
  g_autoptr (GrammarLlm) reader = build_reader (NULL);
  const char * const texts[] = { "one", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarEmbeddings) embeddings = grammar_llm_embed (reader, texts, NULL, &error);

  g_assert_null (embeddings);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED);
  grammar_test_assert_contains (error->message, "extractive reader computes no embeddings");
}

static void
test_config (void)
{
  g_autoptr (GrammarLlm) reader = build_reader ("max-sentences=3\nstop-words=true\n");
  guint max_sentences = 0;
  const char *bad[] = { "max-sentences=0\n", "stop-words=maybe\n", "temperature=0\n" };

  g_object_get (reader, "max-sentences", &max_sentences, NULL);
  g_assert_cmpuint (max_sentences, ==, 3);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *data = g_strdup_printf ("[reader]\nplugin=extractive\n%s", bad[i]);
      g_autoptr (GrammarConfig) config = grammar_config_new_from_data (data, -1, tmpdir, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (GObject) object = grammar_config_build (config, "reader", GRAMMAR_TYPE_LLM, &error);
      g_autofree char *key = g_strndup (bad[i], strcspn (bad[i], "="));

      g_assert_null (object);
      g_assert_true (grammar_error_is_input_error (error));
      grammar_test_assert_contains (error->message, key);
    }
}

/* `grammar llm` with an [llm] section of the extractive plugin: offline. */
static void
test_cli (void)
{
  g_autofree char *config = grammar_test_write_file (tmpdir, "reader.conf", "[llm]\nplugin=extractive\n");
  g_autofree char *prompt = prompt_for (acme_context, "Where is Umbrella based?");
  g_auto (GrammarTestRun) run = { 0 };

  grammar_test_run (&run, tmpdir, "llm", "-c", config, prompt, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "Umbrella Corp is based in Raccoon City.\n");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("test-extractive-XXXXXX");

  g_test_add_func ("/extractive/known", test_known);
  g_test_add_func ("/extractive/prompt-convention", test_prompt_convention);
  g_test_add_func ("/extractive/sentences", test_sentences);
  g_test_add_func ("/extractive/ties", test_ties);
  g_test_add_func ("/extractive/no-markers", test_no_markers);
  g_test_add_func ("/extractive/no-overlap", test_no_overlap);
  g_test_add_func ("/extractive/stop-words", test_stop_words);
  g_test_add_func ("/extractive/unicode", test_unicode);
  g_test_add_func ("/extractive/async", test_async);
  g_test_add_func ("/extractive/cancelled", test_cancelled);
  g_test_add_func ("/extractive/embeddings", test_embeddings);
  g_test_add_func ("/extractive/sampling", test_sampling);
  g_test_add_func ("/extractive/config", test_config);
  g_test_add_func ("/extractive/cli", test_cli);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
