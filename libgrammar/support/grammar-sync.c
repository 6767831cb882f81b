/* grammar-sync.c: running an asynchronous operation to completion
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-sync-private.h"

/*
 * grammar_sync_init:
 * @sync: the state to initialise, on the caller's stack
 *
 * Makes a private main context and pushes it as the thread-default
 * one, so that the asynchronous operation started next attaches its
 * sources (and its #GTask callback) to it.
 */
void
grammar_sync_init (GrammarSync *sync)
{
  sync->context = g_main_context_new ();
  sync->result = NULL;
  g_main_context_push_thread_default (sync->context);
}

/*
 * grammar_sync_callback:
 * @source_object: the object the operation ran on
 * @result: the result of the operation
 * @user_data: the #GrammarSync given to grammar_sync_init()
 *
 * The #GAsyncReadyCallback to give to the asynchronous operation: it
 * keeps a reference to @result for grammar_sync_wait().
 */
void
grammar_sync_callback (GObject      *source_object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GrammarSync *sync = user_data;

  g_assert (sync->result == NULL);
  sync->result = g_object_ref (result);
  g_main_context_wakeup (sync->context);
}

/*
 * grammar_sync_wait:
 * @sync: the state given as user data to the operation
 *
 * Iterates the private main context until the operation completed.
 *
 * Returns: (transfer none): the result to give to the finish function
 */
GAsyncResult *
grammar_sync_wait (GrammarSync *sync)
{
  while (sync->result == NULL)
    g_main_context_iteration (sync->context, TRUE);
  return sync->result;
}

/*
 * grammar_sync_clear:
 * @sync: the state given to grammar_sync_init()
 *
 * Pops the private main context and frees the state. Call it once the
 * result has been finished, on the thread that called
 * grammar_sync_init().
 */
void
grammar_sync_clear (GrammarSync *sync)
{
  g_main_context_pop_thread_default (sync->context);
  g_clear_object (&sync->result);
  g_clear_pointer (&sync->context, g_main_context_unref);
}
