/* fuzz-openai.c: the replies of an OpenAI-compatible server, as the openai plugin reads them
 *
 * The first byte of the input picks the HTTP status (200, 400, 429 or 500)
 * and how many choices were asked (1–3); the rest is the reply's body. It
 * goes through the plugin's own code for a reply — check_reply(), then
 * chat_job_done() or embeddings_from_json(), server_message() for the
 * other statuses — and is also read as a cached chat response
 * (response_from_cache()). plugins/llm-openai/grammar-openai-llm.c is
 * compiled into this program so that these private functions are
 * reachable without a server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-openai-llm.c"

#include "fuzz-util.h"

static GrammarOpenaiLlm *llm;

/* A chat reply of @status for a request of @n choices, as on_sent() hands it on. */
static void
chat_reply (guint   status,
            guint   n,
            GBytes *bytes)
{
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GTask) task = g_task_new (llm, NULL, NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarChatResponse) response = NULL;
  ChatOp *op = g_new0 (ChatOp, 1);
  Job *job;

  op->request = g_object_ref (request);
  op->n = n;
  op->slots = g_new0 (char *, n);
  op->pending = 1;
  g_task_set_task_data (task, op, (GDestroyNotify) chat_op_free);

  job = job_new (llm, JOB_CHAT, g_strdup ("{}"), n, task, chat_job_done);
  job->status = status;
  if (!check_reply (status, bytes, job, &error))
    g_assert (error != NULL);
  /* A 400 for n > 1 asks again one choice at a time: a request, which this program does not send. */
  if (error != NULL && n > 1 && status == 400)
    {
      job_free (job);
      return;
    }
  job->done (job, error == NULL ? job->root : NULL, error);
  job_free (job);

  g_clear_error (&error);
  response = g_task_propagate_pointer (task, &error);
  g_assert ((response != NULL) != (error != NULL));
}

static void
embeddings_reply (guint   n,
                  GBytes *bytes)
{
  g_autoptr (GTask) task = g_task_new (llm, NULL, NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarEmbeddings) embeddings = NULL;
  Job *job = job_new (llm, JOB_EMBED, g_strdup ("{}"), n, task, NULL);

  job->status = 200;
  if (check_reply (200, bytes, job, &error))
    embeddings = embeddings_from_json (json_node_get_object (job->root), n, &error);
  g_assert ((embeddings != NULL) != (error != NULL));
  job_free (job);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const guint statuses[] = { 200, 400, 429, 500 };
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GrammarChatResponse) cached = NULL;
  g_autofree char *text = NULL;
  guint status, n;

  if (llm == NULL)
    {
      g_autoptr (GError) error = NULL;

      grammar_openai_llm_register (fuzz_type_module ());
      llm = g_initable_new (GRAMMAR_TYPE_OPENAI_LLM, NULL, &error, "base-url", "http://127.0.0.1:9/v1",
                            "model", "fuzz", NULL);
      if (llm == NULL)
        g_error ("%s", error->message);
    }
  if (size < 1)
    return 0;
  status = statuses[data[0] % G_N_ELEMENTS (statuses)];
  n = 1 + (data[0] >> 2) % 3;
  bytes = g_bytes_new (data + 1, size - 1);

  chat_reply (status, n, bytes);
  embeddings_reply (n, bytes);

  text = fuzz_strndup (data + 1, size - 1);
  cached = response_from_cache (text);
  fuzz_drain_main_context ();
  return 0;
}
