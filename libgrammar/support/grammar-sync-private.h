/* grammar-sync-private.h: running an asynchronous operation to completion
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * GrammarSync:
 *
 * What a blocking wrapper needs to run an asynchronous operation to
 * completion without disturbing the caller's main loop: a private main
 * context, pushed as the thread-default one while the operation runs,
 * and the result the callback received.
 *
 * |[<!-- language="C" -->
 * GrammarSync sync;
 *
 * grammar_sync_init (&sync);
 * iface->chat_async (self, request, cancellable, grammar_sync_callback, &sync);
 * response = iface->chat_finish (self, grammar_sync_wait (&sync), error);
 * grammar_sync_clear (&sync);
 * ]|
 */
typedef struct
{
  GMainContext *context;
  GAsyncResult *result;
} GrammarSync;

G_GNUC_INTERNAL
void          grammar_sync_init     (GrammarSync  *sync);
G_GNUC_INTERNAL
void          grammar_sync_callback (GObject      *source_object,
                                     GAsyncResult *result,
                                     gpointer      user_data);
G_GNUC_INTERNAL
GAsyncResult *grammar_sync_wait     (GrammarSync  *sync);
G_GNUC_INTERNAL
void          grammar_sync_clear    (GrammarSync  *sync);

G_END_DECLS
