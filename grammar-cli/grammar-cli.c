/* grammar-cli.c: what the subcommands of `grammar` share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

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

/* Prints @error for the user and returns the exit status it calls for. */
int
grammar_cli_report (const char   *command,
                    const GError *error)
{
  fprintf (stderr, "grammar %s: %s\n", command, error->message);
  return grammar_error_is_input_error (error) ? GRAMMAR_EXIT_USAGE : GRAMMAR_EXIT_FAILED;
}

/* "SECTION.KEY=VALUE" settings that grammar_cli_load_config() adds to
 * every keyfile it loads: how `grammar run` hands its stages the corpus it
 * wrote. NULL: none. */
static GStrv config_overrides = NULL;

void
grammar_cli_set_config_overrides (const char * const *overrides)
{
  g_strfreev (config_overrides);
  config_overrides = g_strdupv ((char **) overrides);
}

GrammarConfig *
grammar_cli_load_config (const char  *path,
                         GError     **error)
{
  GrammarConfig *config;
  GKeyFile *key_file;

  if (path == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE,
                   "no configuration given; pass -c FILE.ini (see examples/demo.ini)");
      return NULL;
    }
  config = grammar_config_new_from_file (path, error);
  if (config == NULL)
    return NULL;
  key_file = grammar_config_get_key_file (config);
  for (guint i = 0; config_overrides != NULL && config_overrides[i] != NULL; i++)
    {
      const char *setting = config_overrides[i];
      const char *dot = strchr (setting, '.');
      const char *equals = strchr (setting, '=');
      g_autofree char *section = NULL;
      g_autofree char *key = NULL;

      if (dot == NULL || equals == NULL || equals < dot)
        continue;
      section = g_strndup (setting, dot - setting);
      key = g_strndup (dot + 1, equals - dot - 1);
      g_key_file_set_string (key_file, section, key, equals + 1);
    }
  return config;
}

void
grammar_cli_print_json (JsonNode *node)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

/* Adds the statistics property @name of @llm to @value when it has it. */
static gboolean
read_stat (GObject    *llm,
           const char *name,
           guint64    *value)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (llm), name);
  g_auto (GValue) read = G_VALUE_INIT;
  g_auto (GValue) converted = G_VALUE_INIT;

  *value = 0;
  if (pspec == NULL || (pspec->flags & G_PARAM_READABLE) == 0 ||
      !g_value_type_transformable (pspec->value_type, G_TYPE_UINT64))
    return FALSE;
  g_value_init (&read, pspec->value_type);
  g_value_init (&converted, G_TYPE_UINT64);
  g_object_get_property (llm, name, &read);
  if (!g_value_transform (&read, &converted))
    return FALSE;
  *value = g_value_get_uint64 (&converted);
  return TRUE;
}

/* One line on stderr with what a language model cost, for models
 * that count it (the statistics properties of the `openai` plugin). */
void
grammar_cli_print_llm_stats (GObject *llm)
{
  guint64 requests, cache_hits, retries, prompt_tokens, completion_tokens;
  gboolean any = FALSE;

  if (llm == NULL)
    return;
  any |= read_stat (llm, "requests", &requests);
  any |= read_stat (llm, "cache-hits", &cache_hits);
  any |= read_stat (llm, "retries", &retries);
  any |= read_stat (llm, "prompt-tokens", &prompt_tokens);
  any |= read_stat (llm, "completion-tokens", &completion_tokens);
  if (!any)
    return;
  fprintf (stderr, "llm: %" G_GUINT64_FORMAT " requests, %" G_GUINT64_FORMAT " cache hits, %" G_GUINT64_FORMAT
           " retries, %" G_GUINT64_FORMAT " prompt + %" G_GUINT64_FORMAT " completion tokens\n",
           requests, cache_hits, retries, prompt_tokens, completion_tokens);
}
