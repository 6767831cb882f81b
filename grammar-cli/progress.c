/* progress.c: the one progress line every long command draws on a terminal
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "grammar-cli.h"

/* The libraries say how far they are through signals (so that Python and
 * other front ends get the counts too); this file is the only place that
 * turns those counts into a line on stderr. The line is redrawn in place
 * ("\r", then erase to the end of the line), at most ten times a second,
 * and cut to the terminal's width: a line that wraps could no longer be
 * erased by "\r". Nothing is drawn when stderr is not a terminal (a log
 * file, a pipe, CI), nor with -q. */

/* How often, at most, the line is redrawn. */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)

/* Sets up @self for @command (the name shown at the start of the line)
 * counting @unit ("records", "documents"); enabled only when stderr is
 * a terminal and @quiet is not set. */
void
grammar_cli_progress_init (GrammarCliProgress *self,
                           const char         *command,
                           const char         *unit,
                           gboolean            quiet)
{
  *self = (GrammarCliProgress) { 0 };
  g_mutex_init (&self->lock);
  self->enabled = !quiet && isatty (fileno (stderr));
  grammar_cli_progress_restart (self, command, unit);
}

/* Starts counting again, for the next stage of `grammar run`: the rate
 * is measured from now. */
void
grammar_cli_progress_restart (GrammarCliProgress *self,
                              const char         *command,
                              const char         *unit)
{
  g_mutex_lock (&self->lock);
  g_strlcpy (self->command, command, sizeof self->command);
  g_strlcpy (self->unit, unit, sizeof self->unit);
  self->started = g_get_monotonic_time ();
  self->last_drawn = 0;
  g_mutex_unlock (&self->lock);
}

static guint
terminal_width (void)
{
  struct winsize size;

  if (ioctl (fileno (stderr), TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return 80;
}

static void
append_duration (GString *line,
                 double   seconds)
{
  guint64 s = (guint64) (seconds + 0.5);

  if (s >= 3600)
    g_string_append_printf (line, "%" G_GUINT64_FORMAT ":%02u:%02u", s / 3600, (guint) (s / 60 % 60),
                            (guint) (s % 60));
  else
    g_string_append_printf (line, "%u:%02u", (guint) (s / 60), (guint) (s % 60));
}

/* Cuts @line to @width characters (not bytes: the units and details may
 * hold any UTF-8). */
static void
fit (GString *line,
     guint    width)
{
  const char *end = line->str;

  for (guint i = 0; i < width && *end != '\0'; i++)
    end = g_utf8_next_char (end);
  g_string_truncate (line, end - line->str);
}

/* Draws “grammar COMMAND: DONE/TOTAL UNIT (P %), DETAIL, RATE/s, M:SS
 * left” (without the total, percentage and time left when @total is 0,
 * unknown), unless the line was drawn less than a tenth of a second ago
 * and @done has not reached @total. @detail (or NULL) is a printf format
 * for counts of the command's own. May be called from any thread.
 */
void
grammar_cli_progress_draw (GrammarCliProgress *self,
                           guint64             done,
                           guint64             total,
                           const char         *detail,
                           ...)
{
  g_autoptr (GString) line = NULL;
  gint64 now;
  double seconds, rate;

  if (!self->enabled)
    return;
  now = g_get_monotonic_time ();
  g_mutex_lock (&self->lock);
  if (self->last_drawn != 0 && now - self->last_drawn < PROGRESS_INTERVAL_US && (total == 0 || done < total))
    {
      g_mutex_unlock (&self->lock);
      return;
    }
  self->last_drawn = now;
  seconds = (now - self->started) / (double) G_USEC_PER_SEC;
  rate = seconds > 0.0 ? done / seconds : 0.0;

  line = g_string_new (NULL);
  g_string_append_printf (line, "grammar %s: %" G_GUINT64_FORMAT, self->command, done);
  if (total > 0)
    g_string_append_printf (line, "/%" G_GUINT64_FORMAT " %s (%u %%)", total, self->unit,
                            (guint) (100.0 * MIN (done, total) / total));
  else
    g_string_append_printf (line, " %s", self->unit);
  if (detail != NULL)
    {
      va_list args;

      g_string_append (line, ", ");
      va_start (args, detail);
      g_string_append_vprintf (line, detail, args);
      va_end (args);
    }
  g_string_append_printf (line, ", %.1f/s", rate);
  if (total > 0 && done < total && rate > 0.0)
    {
      g_string_append (line, ", ");
      append_duration (line, (total - done) / rate);
      g_string_append (line, " left");
    }
  /* The last column stays free: writing into it makes some terminals
   * wrap at once. */
  fit (line, terminal_width () - 1);

  fprintf (stderr, "\r\033[K%s", line->str);
  fflush (stderr);
  self->drawn = TRUE;
  g_mutex_unlock (&self->lock);
}

/* Erases the line, if one was drawn, so that what is printed next starts
 * on a clean line. */
void
grammar_cli_progress_clear (GrammarCliProgress *self)
{
  g_mutex_lock (&self->lock);
  if (self->drawn)
    {
      fputs ("\r\033[K", stderr);
      fflush (stderr);
      self->drawn = FALSE;
    }
  self->last_drawn = 0;
  g_mutex_unlock (&self->lock);
}

/* Erases the line and releases @self; does nothing to a zeroed @self
 * that was never set up (a command that stopped before its run). */
void
grammar_cli_progress_end (GrammarCliProgress *self)
{
  if (self->started == 0)
    return;
  grammar_cli_progress_clear (self);
  self->started = 0;
  g_mutex_clear (&self->lock);
}
