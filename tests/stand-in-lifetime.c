/* stand-in-lifetime.c: how the tests' stand-in servers stop
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>

#include <glib-unix.h>
#include <gio/gunixinputstream.h>

#include "stand-in-lifetime.h"

struct _StandInLifetime
{
  GMainLoop *loop;
  guint sigterm;
  guint sigint;
  GInputStream *input;          /* stdin */
  GCancellable *cancellable;
  gboolean pending;             /* a read is on its way */
  char buffer[256];
};

static gboolean
on_signal (gpointer data)
{
  StandInLifetime *self = data;

  g_main_loop_quit (self->loop);
  return G_SOURCE_CONTINUE;
}

static void read_input (StandInLifetime *self);

static void
input_read (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  StandInLifetime *self = data;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, NULL);

  self->pending = FALSE;
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (n <= 0)
    g_main_loop_quit (self->loop);
  else
    read_input (self);
}

static void
read_input (StandInLifetime *self)
{
  self->pending = TRUE;
  g_input_stream_read_async (self->input, self->buffer, sizeof self->buffer, G_PRIORITY_DEFAULT,
                             self->cancellable, input_read, self);
}

/* Quits @loop on SIGTERM, SIGINT or the end of stdin, from now until
 * stand_in_lifetime_stop(). */
StandInLifetime *
stand_in_lifetime_start (GMainLoop *loop)
{
  StandInLifetime *self = g_new0 (StandInLifetime, 1);

  self->loop = g_main_loop_ref (loop);
  self->sigterm = g_unix_signal_add (SIGTERM, on_signal, self);
  self->sigint = g_unix_signal_add (SIGINT, on_signal, self);
  self->input = g_unix_input_stream_new (0, FALSE);
  self->cancellable = g_cancellable_new ();
  read_input (self);
  return self;
}

/* Stops watching and frees @self; waits for the cancelled read to
 * report, so that nothing is left on the main context. */
void
stand_in_lifetime_stop (StandInLifetime *self)
{
  if (self == NULL)
    return;
  g_source_remove (self->sigterm);
  g_source_remove (self->sigint);
  g_cancellable_cancel (self->cancellable);
  while (self->pending)
    g_main_context_iteration (NULL, TRUE);
  g_object_unref (self->input);
  g_object_unref (self->cancellable);
  g_main_loop_unref (self->loop);
  g_free (self);
}
