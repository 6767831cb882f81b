/* grammar-cli.c: what the subcommands of `grammar` share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "grammar-cli.h"

/* Parses a subcommand's options. On --help GOption prints the help and
 * exits 0 itself; on a bad option this prints the message and sets
 * @exit_status to 2. */
gboolean
grammar_cli_parse (GOptionContext   *context,
                   const char       *command,
                   int              *argc,
                   char           ***argv,
                   int              *exit_status)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *prgname = g_strconcat ("grammar ", command, NULL);

  /* GOption's usage line starts with the program name. */
  g_set_prgname (prgname);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fprintf (stderr, "grammar %s: %s\nRun “grammar %s --help” for the options.\n",
               command, error->message, command);
      *exit_status = GRAMMAR_EXIT_USAGE;
      return FALSE;
    }
  return TRUE;
}

/* Prints @error for the user and returns the exit status it calls for.
 * Every command reads its database from the [database] section: an
 * error of the database while a stage runs (a dropped connection, a
 * statement the server refused) names it, as opening errors do. */
int
grammar_cli_report (const char   *command,
                    const GError *error)
{
  if (error->domain == GRAMMAR_DATABASE_ERROR && strstr (error->message, "[database]") == NULL)
    fprintf (stderr, "grammar %s: [database]: %s\n", command, error->message);
  else
    fprintf (stderr, "grammar %s: %s\n", command, error->message);
  return grammar_error_is_input_error (error) ? GRAMMAR_EXIT_USAGE : GRAMMAR_EXIT_FAILED;
}

GrammarConfig *
grammar_cli_load_config (const char  *path,
                         GError     **error)
{
  if (path == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE,
                   "no configuration given; pass -c FILE.ini (see examples/demo.ini)");
      return NULL;
    }
  return grammar_config_new_from_file (path, error);
}

GrammarAssembly *
grammar_cli_load_assembly (const char  *path,
                           GError     **error)
{
  g_autoptr (GrammarConfig) config = grammar_cli_load_config (path, error);

  return config != NULL ? grammar_assembly_new (config) : NULL;
}

void
grammar_cli_print_json (JsonNode *node)
{
  g_autofree char *text = grammar_json_to_data (node, 2, NULL);

  printf ("%s\n", text);
}

/* One line on stderr with what a language model cost, for models
 * that count it (the statistics properties of the `openai` plugin). */
void
grammar_cli_print_llm_stats (GObject *llm)
{
  grammar_cli_print_request_stats (llm, "llm");
}

/* One line on stderr with the requests of @object, a language model or
 * a system that counts them (grammar_format_request_statistics()). */
void
grammar_cli_print_request_stats (GObject    *object,
                                 const char *label)
{
  g_autofree char *line = NULL;

  if (object == NULL)
    return;
  line = grammar_format_request_statistics (object, label);
  if (line != NULL)
    fprintf (stderr, "%s\n", line);
}

/* How long a cancelled command may take to wind down (the calls in
 * flight answering their cancellation, a worker thread noticing it)
 * before it exits all the same: a signal stops every command within 2 s. */
#define STOP_GRACE_MS 1500

typedef struct
{
  const char *command;
  GCancellable *cancellable;
  GAsyncResult *result;
  int signal;   /* the first signal that came, or 0 */
  guint grace;  /* the timeout after it */
} Waiting;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Waiting *waiting = user_data;

  waiting->result = g_object_ref (result);
  g_main_context_wakeup (NULL);
}

/* Signal handlers run here, from the main loop, never in the middle of
 * a write: a line the command writes is either whole or not started, and
 * _exit() leaves it so. An atomic output (qa, docs, a report) is still a
 * temporary file then, and the previous file stays. Output locks are
 * released by the kernel. */
static G_NORETURN void
exit_now (Waiting    *waiting,
          int         number,
          const char *why)
{
  fprintf (stderr, "\ngrammar %s: %s; stopped at once, what was written in whole lines stays\n",
           waiting->command, why);
  fflush (stderr);
  _exit (128 + number);
}

static gboolean
on_grace_over (gpointer data)
{
  Waiting *waiting = data;

  waiting->grace = 0;
  exit_now (waiting, waiting->signal, "the work in flight did not stop within 1.5 s");
}

static gboolean
on_signal (Waiting *waiting,
           int      number)
{
  /* A second signal (a second Ctrl-C) means now. */
  if (waiting->signal != 0)
    exit_now (waiting, number, "a second signal");
  waiting->signal = number;
  waiting->grace = g_timeout_add (STOP_GRACE_MS, on_grace_over, waiting);
  g_cancellable_cancel (waiting->cancellable);
  return G_SOURCE_CONTINUE;
}

static gboolean on_sigint (gpointer data) { return on_signal (data, SIGINT); }
static gboolean on_sigterm (gpointer data) { return on_signal (data, SIGTERM); }
static gboolean on_sighup (gpointer data) { return on_signal (data, SIGHUP); }

/* Runs @start (with @data) on the default main context until @finish says it is over,
 * cancelling it on SIGINT, SIGTERM or SIGHUP; a second signal, or a
 * command that is not over 1.5 s after the first, exits the process at
 * once with 128 + the signal's number. Returns GRAMMAR_EXIT_OK, or
 * 128 + the signal's number when a signal stopped it, or
 * GRAMMAR_EXIT_FAILED with @error set when it failed. @command names
 * the command in messages. */
int
grammar_cli_run_until_done (const char       *command,
                            GObject          *source,
                            GrammarCliStart   start,
                            gpointer          data,
                            GrammarCliFinish  finish,
                            GError          **error)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) local_error = NULL;
  Waiting waiting = { command, cancellable, NULL, 0, 0 };
  guint sources[3];
  gboolean ok;

  sources[0] = g_unix_signal_add (SIGINT, on_sigint, &waiting);
  sources[1] = g_unix_signal_add (SIGTERM, on_sigterm, &waiting);
  sources[2] = g_unix_signal_add (SIGHUP, on_sighup, &waiting);
  start (source, data, cancellable, on_done, &waiting);
  while (waiting.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    g_source_remove (sources[i]);
  if (waiting.grace != 0)
    g_source_remove (waiting.grace);

  ok = finish (source, waiting.result, &local_error);
  g_object_unref (waiting.result);
  if (ok)
    return GRAMMAR_EXIT_OK;
  if (waiting.signal != 0 && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return 128 + waiting.signal;
  g_propagate_error (error, g_steal_pointer (&local_error));
  return GRAMMAR_EXIT_FAILED;
}

/* grammar_check_output_not_input() on the @n_inputs files a command was
 * given, the options not given (%NULL) left out; FALSE with @status set
 * and the message printed when @output is one of them. */
gboolean
grammar_cli_check_output (const char         *command,
                          const char         *output,
                          const char * const *inputs,
                          guint               n_inputs,
                          int                *status)
{
  g_autoptr (GPtrArray) given = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;

  if (output == NULL)
    return TRUE;
  for (guint i = 0; i < n_inputs; i++)
    if (inputs[i] != NULL)
      g_ptr_array_add (given, (gpointer) inputs[i]);
  g_ptr_array_add (given, NULL);
  if (grammar_check_output_not_input (output, (const char * const *) given->pdata, &error))
    return TRUE;
  *status = grammar_cli_report (command, error);
  return FALSE;
}

/* For a command whose input had problems (listed already): says that
 * nothing was written, so that a run that exits 2 never replaced a
 * finished output with part of it, nor made a new one. Prints
 * "grammar COMMAND: <format>; nothing written, OUTPUT left as it was"
 * (or "not created") and returns the exit status, 2. */
int
grammar_cli_refuse_output (const char *command,
                           const char *output,
                           const char *format,
                           ...)
{
  g_autofree char *problem = NULL;
  va_list args;

  va_start (args, format);
  problem = g_strdup_vprintf (format, args);
  va_end (args);
  fprintf (stderr, "grammar %s: %s; nothing written, %s %s\n", command, problem, output,
           g_file_test (output, G_FILE_TEST_EXISTS) ? "left as it was" : "not created");
  return GRAMMAR_EXIT_USAGE;
}
