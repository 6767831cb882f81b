/* grammar-cli.h: what the subcommands of `grammar` share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

/* Exit statuses, as DESIGN.md fixes them. */
enum {
  GRAMMAR_EXIT_OK = 0,
  GRAMMAR_EXIT_FAILED = 1,  /* the run failed: a server unreachable, an I/O error */
  GRAMMAR_EXIT_USAGE = 2,   /* bad usage, configuration or input */
};

int            grammar_cli_plugins     (int            argc,
                                        char         **argv);
int            grammar_cli_schema      (int            argc,
                                        char         **argv);
int            grammar_cli_sql_templates (int          argc,
                                          char       **argv);
int            grammar_cli_text_templates (int         argc,
                                           char      **argv);
int            grammar_cli_qa          (int            argc,
                                        char         **argv);
int            grammar_cli_import      (int            argc,
                                        char         **argv);
int            grammar_cli_llm         (int            argc,
                                        char         **argv);
int            grammar_cli_rag         (int            argc,
                                        char         **argv);
int            grammar_cli_assess      (int            argc,
                                        char         **argv);
int            grammar_cli_judge       (int            argc,
                                        char         **argv);
int            grammar_cli_docs        (int            argc,
                                        char         **argv);
int            grammar_cli_report_main (int            argc,
                                        char         **argv);

gboolean       grammar_cli_parse       (GOptionContext *context,
                                        const char     *command,
                                        int            *argc,
                                        char         ***argv,
                                        int            *exit_status);
int            grammar_cli_report      (const char     *command,
                                        const GError   *error);
GrammarConfig *grammar_cli_load_config (const char     *path,
                                        GError        **error);
GrammarAssembly *grammar_cli_load_assembly (const char *path,
                                            GError    **error);
int            grammar_cli_run         (int            argc,
                                        char         **argv);
int            grammar_cli_check       (int            argc,
                                        char         **argv);
void           grammar_cli_print_json  (JsonNode       *node);
gboolean       grammar_cli_check_output (const char         *command,
                                         const char         *output,
                                         const char * const *inputs,
                                         guint               n_inputs,
                                         int                *status);
int            grammar_cli_refuse_output (const char *command,
                                          const char *output,
                                          const char *format,
                                          ...) G_GNUC_PRINTF (3, 4);
void           grammar_cli_print_llm_stats (GObject    *llm);
void           grammar_cli_print_request_stats (GObject    *object,
                                                const char *label);

/* An asynchronous operation of @source, started with @data. */
typedef void     (*GrammarCliStart)  (GObject              *source,
                                      gpointer              data,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
typedef gboolean (*GrammarCliFinish) (GObject              *source,
                                      GAsyncResult         *result,
                                      GError              **error);

int            grammar_cli_run_until_done (const char       *command,
                                           GObject          *source,
                                           GrammarCliStart   start,
                                           gpointer          data,
                                           GrammarCliFinish  finish,
                                           GError          **error);


/* The options every record-by-record stage (rag, judge, assess) has. */
typedef struct
{
  char *config_path;
  char *input;
  char *output;
  gint64 limit;
  int concurrency;     /* -1 when not given */
  gboolean quiet;
} GrammarCliStageOptions;

void           grammar_cli_stage_options_add   (GrammarCliStageOptions        *options,
                                                GOptionContext                *context,
                                                const char                    *input_help,
                                                const char                    *output_help,
                                                const char                    *limit_help,
                                                const char                    *concurrency_help);
void           grammar_cli_stage_options_clear (GrammarCliStageOptions        *options);
gboolean       grammar_cli_stage_options_check (const GrammarCliStageOptions  *options,
                                                const char                    *command,
                                                const char                    *no_input,
                                                const char                    *no_output,
                                                const char                    *problem,
                                                int                            argc,
                                                char                         **argv);
void           grammar_cli_stage_options_apply (const GrammarCliStageOptions  *options,
                                                GrammarStageRunner            *runner);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GrammarCliStageOptions, grammar_cli_stage_options_clear)

/* The texts of a record-by-record stage's command. */
typedef struct
{
  const char *name;
  const char *parameter;
  const char *summary;
  const char *description;
  const char *input_help;
  const char *output_help;
  const char *limit_help;
  const char *concurrency_help;
  const char *no_input;
  const char *no_output;
} GrammarCliStageCommand;

enum
{
  GRAMMAR_CLI_STAGE_RAG,
  GRAMMAR_CLI_STAGE_JUDGE,
  GRAMMAR_CLI_STAGE_ASSESS,
};

extern const GrammarCliStageCommand grammar_cli_stage_commands[];

gboolean       grammar_cli_stage_parse     (const GrammarCliStageCommand  *command,
                                            const GOptionEntry            *entries,
                                            GrammarCliStageOptions        *options,
                                            int                           *argc,
                                            char                        ***argv,
                                            int                           *status);
int            grammar_cli_run_stage       (const char                    *command,
                                            GrammarStageRunner            *runner,
                                            const GrammarCliStageOptions  *options,
                                            GObject                       *service,
                                            GError                       **error);
void           grammar_cli_print_stage_summary (const char         *command,
                                                GrammarStageRunner *runner,
                                                const char         *extra);

gboolean       grammar_cli_check_generator (const char     *command,
                                            GType           interface_type,
                                            const char     *name,
                                            const char     *default_name);
const char    *grammar_cli_plugin_name     (GType           interface_type,
                                            GObject        *object);

/* The progress line of a long command on a terminal (progress.c). */
typedef struct
{
  GMutex lock;        /* qa and docs report from their worker thread */
  gboolean enabled;   /* stderr is a terminal, and no -q */
  gboolean drawn;
  char command[32];
  char unit[32];
  gint64 started;
  gint64 last_drawn;
} GrammarCliProgress;

void           grammar_cli_progress_init    (GrammarCliProgress *self,
                                             const char         *command,
                                             const char         *unit,
                                             gboolean            quiet);
void           grammar_cli_progress_restart (GrammarCliProgress *self,
                                             const char         *command,
                                             const char         *unit);
void           grammar_cli_progress_draw    (GrammarCliProgress *self,
                                             guint64             done,
                                             guint64             total,
                                             const char         *detail,
                                             ...) G_GNUC_PRINTF (4, 5);
void           grammar_cli_progress_clear   (GrammarCliProgress *self);
void           grammar_cli_progress_end     (GrammarCliProgress *self);

G_END_DECLS
