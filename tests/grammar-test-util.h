/* grammar-test-util.h: helpers the test programs share
 *
 * Running the `grammar` command and keeping files in a temporary folder
 * are needed by several test programs; one copy here keeps them alike.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What one run of the command left: its exit status and both outputs. */
typedef struct
{
  int status;
  char *out;
  char *err;
} GrammarTestRun;

void  grammar_test_run_clear      (GrammarTestRun     *run);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GrammarTestRun, grammar_test_run_clear)

void  grammar_test_run            (GrammarTestRun     *run,
                                   const char         *cwd,
                                   ...) G_GNUC_NULL_TERMINATED;
void  grammar_test_runv           (GrammarTestRun     *run,
                                   const char         *cwd,
                                   const char * const *args);

void  grammar_test_assert_contains (const char        *haystack,
                                    const char        *needle);

char *grammar_test_make_tmp_dir   (const char         *tmpl);
char *grammar_test_write_file     (const char         *dir,
                                   const char         *name,
                                   const char         *contents);
void  grammar_test_remove_tree    (const char         *path);
void  grammar_test_add_plugin_path (const char        *module);

/* A running tests/fake-openai server ($FAKE_OPENAI): its process, the
 * pipe to its stdin (closing it stops the server) and its URL. */
typedef struct
{
  GSubprocess *process;
  GOutputStream *stdin_pipe;
  GDataInputStream *stdout_pipe;
  char *url;      /* http(s)://127.0.0.1:PORT/v1 */
  char *root;     /* http(s)://127.0.0.1:PORT */
  char *ca_file;  /* the CA a TLS server's certificate is signed by, or NULL */
} GrammarTestServer;

GrammarTestServer *grammar_test_server_start (const char * const *args);
void               grammar_test_server_close (GrammarTestServer  *server);
void               grammar_test_server_free  (GrammarTestServer  *server);

G_END_DECLS
