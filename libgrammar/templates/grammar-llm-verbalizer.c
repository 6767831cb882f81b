/* grammar-llm-verbalizer.c: text templates from SQL templates, by a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-error.h"
#include "grammar-llm-verbalizer.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-sync-private.h"

/**
 * GrammarLlmVerbalizer:
 *
 * Turns an SQL template into text templates in a style by asking a
 * #GrammarLlm, as the paper's text template generator g_t does: a
 * prompt that states the task, the criteria every text template must
 * meet and the style's linguistic criterion
 * (grammar_text_style_get_criteria()), then the SQL template and its
 * placeholders.
 *
 * The reply is read line by line, defensively: code fences, empty lines
 * and `##…##` markers are skipped; numbering (`1.`, `2)`, `(3)`),
 * bullets and surrounding quotes are stripped. A line is kept only when
 * it holds exactly the template's placeholders
 * (grammar_text_template_check_placeholders()), meets what can be
 * measured of its style (`long`: at least 30 words; `interrogative`:
 * ends with a question mark; `directive`: does not) and differs from
 * the lines kept so far (ignoring case and spacing). Every other line
 * is dropped with its reason.
 *
 * While fewer than the requested number of texts are kept, the model is
 * asked again for the missing ones, up to #GrammarLlmVerbalizer:retries
 * more times; each new request lists the texts already kept so that
 * the model does not repeat them. A template that ends with fewer texts
 * is not an error: the caller compares the count and reports it.
 */

#define LONG_MIN_WORDS 30

struct _GrammarLlmVerbalizer
{
  GObject parent_instance;

  GrammarLlm *llm;
  guint retries;
  double temperature;
  gint64 seed;
};

static void grammar_llm_verbalizer_verbalizer_init (GrammarVerbalizerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GrammarLlmVerbalizer, grammar_llm_verbalizer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_VERBALIZER,
                                                      grammar_llm_verbalizer_verbalizer_init))

enum {
  PROP_0,
  PROP_LLM,
  PROP_RETRIES,
  PROP_TEMPERATURE,
  PROP_SEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
grammar_llm_verbalizer_dispose (GObject *object)
{
  GrammarLlmVerbalizer *self = GRAMMAR_LLM_VERBALIZER (object);

  g_clear_object (&self->llm);

  G_OBJECT_CLASS (grammar_llm_verbalizer_parent_class)->dispose (object);
}

static void
grammar_llm_verbalizer_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  GrammarLlmVerbalizer *self = GRAMMAR_LLM_VERBALIZER (object);

  switch (prop_id)
    {
    case PROP_LLM:
      g_value_set_object (value, self->llm);
      break;
    case PROP_RETRIES:
      g_value_set_uint (value, self->retries);
      break;
    case PROP_TEMPERATURE:
      g_value_set_double (value, self->temperature);
      break;
    case PROP_SEED:
      g_value_set_int64 (value, self->seed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_llm_verbalizer_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  GrammarLlmVerbalizer *self = GRAMMAR_LLM_VERBALIZER (object);

  switch (prop_id)
    {
    case PROP_LLM:
      self->llm = g_value_dup_object (value);
      break;
    case PROP_RETRIES:
      grammar_llm_verbalizer_set_retries (self, g_value_get_uint (value));
      break;
    case PROP_TEMPERATURE:
      grammar_llm_verbalizer_set_temperature (self, g_value_get_double (value));
      break;
    case PROP_SEED:
      grammar_llm_verbalizer_set_seed (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_llm_verbalizer_class_init (GrammarLlmVerbalizerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = grammar_llm_verbalizer_dispose;
  object_class->get_property = grammar_llm_verbalizer_get_property;
  object_class->set_property = grammar_llm_verbalizer_set_property;

  /**
   * GrammarLlmVerbalizer:llm:
   *
   * The language model asked.
   */
  properties[PROP_LLM] =
    g_param_spec_object ("llm", NULL, NULL, GRAMMAR_TYPE_LLM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarLlmVerbalizer:retries:
   *
   * How many more times the model is asked when its replies gave fewer
   * valid distinct texts than requested.
   */
  properties[PROP_RETRIES] =
    g_param_spec_uint ("retries", NULL, NULL, 0, 100, 3,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarLlmVerbalizer:temperature:
   *
   * The sampling temperature of the requests: variety is the point, so
   * not zero.
   */
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, 0.0, 2.0, 0.7,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarLlmVerbalizer:seed:
   *
   * The seed given to the model with the first request (and seed + k
   * with the k-th retry, so that a retry is a new draw), for providers
   * that honour seeds; -1 sends none.
   */
  properties[PROP_SEED] =
    g_param_spec_int64 ("seed", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_llm_verbalizer_init (GrammarLlmVerbalizer *self)
{
  self->retries = 3;
  self->temperature = 0.7;
  self->seed = -1;
}

/**
 * grammar_llm_verbalizer_new:
 * @llm: the language model to ask
 *
 * Returns: (transfer full): a new #GrammarLlmVerbalizer
 */
GrammarLlmVerbalizer *
grammar_llm_verbalizer_new (GrammarLlm *llm)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM (llm), NULL);

  return g_object_new (GRAMMAR_TYPE_LLM_VERBALIZER, "llm", llm, NULL);
}

/**
 * grammar_llm_verbalizer_get_llm:
 * @self: a #GrammarLlmVerbalizer
 *
 * Returns: (transfer none): the language model
 */
GrammarLlm *
grammar_llm_verbalizer_get_llm (GrammarLlmVerbalizer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self), NULL);
  return self->llm;
}

/**
 * grammar_llm_verbalizer_get_retries:
 * @self: a #GrammarLlmVerbalizer
 *
 * Returns: how many more times the model is asked for missing texts
 */
guint
grammar_llm_verbalizer_get_retries (GrammarLlmVerbalizer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self), 0);
  return self->retries;
}

/**
 * grammar_llm_verbalizer_set_retries:
 * @self: a #GrammarLlmVerbalizer
 * @retries: how many more times to ask for missing texts (at most 100)
 *
 * Sets #GrammarLlmVerbalizer:retries.
 */
void
grammar_llm_verbalizer_set_retries (GrammarLlmVerbalizer *self,
                                    guint                 retries)
{
  g_return_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self));
  g_return_if_fail (retries <= 100);

  if (self->retries == retries)
    return;
  self->retries = retries;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRIES]);
}

/**
 * grammar_llm_verbalizer_get_temperature:
 * @self: a #GrammarLlmVerbalizer
 *
 * Returns: the sampling temperature of the requests
 */
double
grammar_llm_verbalizer_get_temperature (GrammarLlmVerbalizer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self), 0.0);
  return self->temperature;
}

/**
 * grammar_llm_verbalizer_set_temperature:
 * @self: a #GrammarLlmVerbalizer
 * @temperature: the sampling temperature, from 0 to 2
 *
 * Sets #GrammarLlmVerbalizer:temperature.
 */
void
grammar_llm_verbalizer_set_temperature (GrammarLlmVerbalizer *self,
                                        double                temperature)
{
  g_return_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self));
  g_return_if_fail (temperature >= 0.0 && temperature <= 2.0);

  if (self->temperature == temperature)
    return;
  self->temperature = temperature;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEMPERATURE]);
}

/**
 * grammar_llm_verbalizer_get_seed:
 * @self: a #GrammarLlmVerbalizer
 *
 * Returns: the seed sent with the first request, or -1 for none
 */
gint64
grammar_llm_verbalizer_get_seed (GrammarLlmVerbalizer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self), -1);
  return self->seed;
}

/**
 * grammar_llm_verbalizer_set_seed:
 * @self: a #GrammarLlmVerbalizer
 * @seed: the seed to send, or -1 for none
 *
 * Sets #GrammarLlmVerbalizer:seed.
 */
void
grammar_llm_verbalizer_set_seed (GrammarLlmVerbalizer *self,
                                 gint64                seed)
{
  g_return_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self));
  g_return_if_fail (seed >= -1);

  if (self->seed == seed)
    return;
  self->seed = seed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEED]);
}

/* The prompt */

/* In the manner of the paper's SQL template prompt (Table 3): a profile
 * with one acceptable example, the criteria, the response format; the
 * style's criterion (Table 6) is the last criterion. */
static const char system_prompt[] =
  "You are a Text Template Generator: rewrite an SQL query template as natural-language query "
  "templates, the way a person would ask for its answer, keeping its placeholders. A simple example: "
  "for the SQL query template SELECT Industry FROM Company WHERE Name = '[Company.Name]'; an "
  "acceptable text template is: What is the industry of the company named '[Company.Name]'?\n"
  "\n"
  "You must follow the basic criteria below except for other requirements:\n"
  "\n"
  "##CRITERIA##\n"
  "- Keep every placeholder of the SQL template exactly as it is written, with its square brackets "
  "and quotes, e.g. '[Company.Name]'. Do not add, drop, rename, translate or fill in placeholders.\n"
  "- Each text template must ask for exactly what the SQL query returns, no more and no less.\n"
  "- Use words a non-technical user understands; do not mention SQL, tables or columns.\n"
  "- Do not create redundant or semantically duplicated text templates: vary the words and the "
  "sentence structure.\n"
  "- %s\n"
  "\n"
  "##RESPONSE FORMAT##\n"
  "- Output each text template as a single line, without any prefix or suffix.\n"
  "- Do not include any other text in your response, even something like ##RESPONSE_END##.";

static char *
build_user_prompt (GrammarSqlTemplate *sql_template,
                   guint               n,
                   const char * const *accepted)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "##SQL TEMPLATE##\n%s\n\n##PLACEHOLDERS##\n",
                          grammar_sql_template_get_sql (sql_template));
  for (guint i = 0; i < grammar_sql_template_get_n_placeholders (sql_template); i++)
    g_string_append_printf (text, "%s\n", grammar_sql_template_get_placeholder (sql_template, i));
  g_string_append_printf (text, "\n##NUMBER OF TEXT TEMPLATES##\n%u\n", n);
  if (accepted != NULL && accepted[0] != NULL)
    {
      g_string_append (text, "\n##ALREADY ACCEPTED (do not repeat them)##\n");
      for (guint i = 0; accepted[i] != NULL; i++)
        g_string_append_printf (text, "%s\n", accepted[i]);
    }
  g_string_append (text, "\n##RESPONSE_START##");
  return g_string_free (text, FALSE);
}

/**
 * grammar_llm_verbalizer_build_request:
 * @self: a #GrammarLlmVerbalizer
 * @sql_template: the SQL template
 * @style: one of grammar_text_style_list()
 * @n: how many text templates to ask for
 * @accepted: (nullable) (array zero-terminated=1): texts kept from earlier
 *   replies, which the model is told not to repeat
 * @error: return location for a #GError
 *
 * The request grammar_llm_verbalizer_verbalize() sends: a system message
 * with the task, the criteria and @style's criterion, and a user message
 * with the SQL template, its placeholders and @n. Temperature and seed
 * are the verbalizer's.
 *
 * Returns: (transfer full) (nullable): the request, or %NULL with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error for an unknown style
 */
GrammarChatRequest *
grammar_llm_verbalizer_build_request (GrammarLlmVerbalizer *self,
                                      GrammarSqlTemplate   *sql_template,
                                      const char           *style,
                                      guint                 n,
                                      const char * const   *accepted,
                                      GError              **error)
{
  g_autoptr (GrammarChatRequest) request = NULL;
  g_autofree char *system = NULL;
  g_autofree char *user = NULL;

  g_return_val_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!grammar_text_style_check (style, error))
    return NULL;

  request = grammar_chat_request_new ();
  system = g_strdup_printf (system_prompt, grammar_text_style_get_criteria (style));
  user = build_user_prompt (sql_template, n, accepted);
  grammar_chat_request_add_message (request, "system", system);
  grammar_chat_request_add_message (request, "user", user);
  grammar_chat_request_set_temperature (request, self->temperature);
  if (self->seed >= 0)
    grammar_chat_request_set_seed (request, self->seed);
  return g_steal_pointer (&request);
}

/* Reading replies */

static gboolean
strip_prefix (char       **line,
              const char  *prefix)
{
  if (!g_str_has_prefix (*line, prefix))
    return FALSE;
  *line += strlen (prefix);
  return TRUE;
}

/* Skips “12.”, “12)”, “12:”, “(12)”, “#12” and “12 -” before the text
 * (followed by a space). */
static char *
strip_numbering (char *line)
{
  char *p = line;
  gboolean hash = *p == '#';

  if (*p == '(' || *p == '#')
    p++;
  if (!g_ascii_isdigit (*p))
    return line;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p == '.' || *p == ')' || *p == ':')
    p++;
  else if (p[0] == ' ' && p[1] == '-')
    p += 2;
  else if (!hash)
    return line;
  if (*p != ' ' && *p != '\t' && *p != '\0')
    return line;
  return p;
}

/* Removes quotes around the whole line. A single quote only goes when it
 * is not the quote of a placeholder (`'[company.Name]' industry`). */
static char *
strip_quotes (char *line)
{
  static const char * const pairs[][2] = {
    { "\"", "\"" }, { "“", "”" }, { "`", "`" }, { "«", "»" }, { "'", "'" },
  };
  gsize len = strlen (line);

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      gsize open = strlen (pairs[i][0]), close = strlen (pairs[i][1]);

      if (len < open + close || !g_str_has_prefix (line, pairs[i][0]) || !g_str_has_suffix (line, pairs[i][1]))
        continue;
      if (pairs[i][0][0] == '\'' && (line[1] == '[' || line[len - 2] == ']'))
        continue;
      line[len - close] = '\0';
      return g_strstrip (line + open);
    }
  return line;
}

/* One line of a reply as a candidate text, or NULL for a line that is
 * not one (empty, a code fence, a ##…## marker). */
static char *
clean_line (const char *raw)
{
  g_autofree char *copy = g_strdup (raw);
  char *line = g_strstrip (copy);

  if (g_str_has_prefix (line, "```") || g_str_has_prefix (line, "##"))
    return NULL;
  if (strip_prefix (&line, "- ") || strip_prefix (&line, "* ") || strip_prefix (&line, "• ") ||
      strip_prefix (&line, "+ "))
    line = g_strstrip (line);
  line = g_strstrip (strip_numbering (line));
  line = strip_quotes (line);
  if (*line == '\0')
    return NULL;
  return g_strdup (line);
}

/**
 * grammar_llm_verbalizer_split_reply:
 * @reply: the text a language model answered
 *
 * The candidate texts of a reply, one per line: empty lines, code fences
 * and `##…##` markers are skipped; numbering (`1.`, `2)`, `(3)`, `#4`),
 * bullets (`-`, `*`, `•`) and quotes around a whole line are stripped.
 * Nothing is checked yet.
 *
 * Returns: (transfer full): the candidate lines, possibly none
 */
GStrv
grammar_llm_verbalizer_split_reply (const char *reply)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) lines = NULL;

  g_return_val_if_fail (reply != NULL, NULL);

  lines = g_strsplit_set (reply, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = clean_line (lines[i]);

      if (line != NULL)
        g_strv_builder_add (builder, line);
    }
  return g_strv_builder_end (builder);
}

/* What can be measured of a style's criterion. */
static gboolean
check_style (const char  *text,
             const char  *style,
             GError     **error)
{
  gsize len = strlen (text);
  gboolean question = len > 0 && (text[len - 1] == '?' || g_str_has_suffix (text, "?\"") ||
                                  g_str_has_suffix (text, "?'"));

  if (g_str_equal (style, "long") && grammar_text_count_words (text) < LONG_MIN_WORDS)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "has %u words; the long style needs at least %u", grammar_text_count_words (text),
                   LONG_MIN_WORDS);
      return FALSE;
    }
  if (g_str_equal (style, "interrogative") && !question)
    {
      g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                           "does not end with a question mark, as the interrogative style needs");
      return FALSE;
    }
  if (g_str_equal (style, "directive") && question)
    {
      g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                           "is a question; the directive style needs an instruction");
      return FALSE;
    }
  return TRUE;
}

/* The text as compared for distinctness: case and spacing ignored. */
static char *
comparison_key (const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);
  g_auto (GStrv) words = g_strsplit_set (folded, " \t", -1);
  GString *key = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      g_string_append_printf (key, key->len > 0 ? " %s" : "%s", words[i]);
  return g_string_free (key, FALSE);
}

/* Verbalizing */

typedef struct
{
  GrammarSqlTemplate *sql_template;
  char *style;
  guint n;
  guint attempt;        /* requests sent so far */
  GPtrArray *accepted;  /* GrammarTextTemplate */
  GHashTable *seen;     /* comparison keys of the accepted texts */
  GPtrArray *dropped;   /* char *, why each dropped line was */
} Verbalization;

static void
verbalization_free (gpointer data)
{
  Verbalization *verbalization = data;

  g_object_unref (verbalization->sql_template);
  g_free (verbalization->style);
  g_ptr_array_unref (verbalization->accepted);
  g_hash_table_unref (verbalization->seen);
  g_ptr_array_unref (verbalization->dropped);
  g_free (verbalization);
}

/* Keeps @line when it is valid and new; otherwise says why not. */
static void
consider_line (Verbalization *verbalization,
               const char    *line,
               guint          line_number)
{
  g_autoptr (GrammarTextTemplate) text_template = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *key = NULL;

  text_template = grammar_text_template_new (grammar_sql_template_get_id (verbalization->sql_template),
                                             verbalization->style, line);
  if (!grammar_text_template_check_placeholders (text_template, verbalization->sql_template, &error))
    {
      g_ptr_array_add (verbalization->dropped,
                       g_strdup_printf ("reply %u, line %u: %s", verbalization->attempt, line_number,
                                        error->message));
      return;
    }
  if (!check_style (line, verbalization->style, &error))
    {
      g_ptr_array_add (verbalization->dropped,
                       g_strdup_printf ("reply %u, line %u: “%s” %s", verbalization->attempt,
                                        line_number, line, error->message));
      return;
    }
  key = comparison_key (line);
  if (g_hash_table_contains (verbalization->seen, key))
    {
      g_ptr_array_add (verbalization->dropped,
                       g_strdup_printf ("reply %u, line %u: “%s” repeats a text already kept",
                                        verbalization->attempt, line_number, line));
      return;
    }
  if (verbalization->accepted->len >= verbalization->n)
    return;   /* enough: the rest of the reply is surplus, not wrong */
  g_hash_table_add (verbalization->seen, g_steal_pointer (&key));
  g_ptr_array_add (verbalization->accepted, g_steal_pointer (&text_template));
}

/* Messages number lines as the reply has them, blank ones included. */
static void
consider_reply (Verbalization *verbalization,
                const char    *reply)
{
  g_auto (GStrv) lines = g_strsplit (reply != NULL ? reply : "", "\n", -1);
  guint n_candidates = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = clean_line (lines[i]);

      if (line == NULL)
        continue;
      n_candidates++;
      consider_line (verbalization, line, i + 1);
    }
  if (n_candidates == 0)
    g_ptr_array_add (verbalization->dropped,
                     g_strdup_printf ("reply %u: no text template in the reply", verbalization->attempt));
}

static void send_request (GTask *task);

static void
reply_received (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarLlmVerbalizer *self = g_task_get_source_object (task);
  Verbalization *verbalization = g_task_get_task_data (task);
  g_autoptr (GrammarChatResponse) response = NULL;
  GError *error = NULL;

  response = grammar_llm_chat_finish (GRAMMAR_LLM (source_object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  consider_reply (verbalization, grammar_chat_response_get_text (response));

  if (verbalization->accepted->len < verbalization->n && verbalization->attempt <= self->retries)
    send_request (g_steal_pointer (&task));
  else
    g_task_return_pointer (task, g_ptr_array_ref (verbalization->accepted),
                           (GDestroyNotify) g_ptr_array_unref);
}

/* Asks for the texts still missing. Takes @task. */
static void
send_request (GTask *task)
{
  GrammarLlmVerbalizer *self = g_task_get_source_object (task);
  Verbalization *verbalization = g_task_get_task_data (task);
  g_autoptr (GrammarChatRequest) request = NULL;
  g_autoptr (GPtrArray) accepted = g_ptr_array_new ();

  for (guint i = 0; i < verbalization->accepted->len; i++)
    g_ptr_array_add (accepted, (gpointer) grammar_text_template_get_text (g_ptr_array_index (verbalization->accepted, i)));
  g_ptr_array_add (accepted, NULL);

  request = grammar_llm_verbalizer_build_request (self, verbalization->sql_template, verbalization->style,
                                                  verbalization->n - verbalization->accepted->len,
                                                  (const char * const *) accepted->pdata, NULL);
  if (self->seed >= 0)
    grammar_chat_request_set_seed (request, self->seed + verbalization->attempt);
  verbalization->attempt++;
  grammar_llm_chat_async (self->llm, request, g_task_get_cancellable (task), reply_received, task);
}

/**
 * grammar_llm_verbalizer_verbalize_async:
 * @self: a #GrammarLlmVerbalizer
 * @sql_template: the SQL template
 * @style: one of grammar_text_style_list()
 * @n: how many distinct text templates to collect
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when done
 * @user_data: data for @callback
 *
 * Starts collecting @n distinct valid text templates of @sql_template in
 * @style from the model; see #GrammarLlmVerbalizer.
 */
void
grammar_llm_verbalizer_verbalize_async (GrammarLlmVerbalizer *self,
                                        GrammarSqlTemplate   *sql_template,
                                        const char           *style,
                                        guint                 n,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GError) error = NULL;
  Verbalization *verbalization;

  g_return_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self));
  g_return_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, grammar_llm_verbalizer_verbalize_async);

  verbalization = g_new0 (Verbalization, 1);
  verbalization->sql_template = g_object_ref (sql_template);
  verbalization->style = g_strdup (style != NULL ? style : "");
  verbalization->n = n;
  verbalization->accepted = g_ptr_array_new_with_free_func (g_object_unref);
  verbalization->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  verbalization->dropped = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, verbalization, verbalization_free);

  if (!grammar_text_style_check (style, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (n == 0)
    {
      g_task_return_pointer (task, g_ptr_array_ref (verbalization->accepted),
                             (GDestroyNotify) g_ptr_array_unref);
      return;
    }
  send_request (g_steal_pointer (&task));
}

/**
 * grammar_llm_verbalizer_verbalize_finish:
 * @self: a #GrammarLlmVerbalizer
 * @result: the #GAsyncResult given to the callback
 * @dropped: (out) (optional) (transfer full): why each dropped line was
 *   dropped, one message per line (“reply 2, line 3: …”)
 * @error: return location for a #GError
 *
 * Finishes grammar_llm_verbalizer_verbalize_async(). Fewer than the
 * requested number of texts is not an error: compare the length.
 *
 * Returns: (transfer container) (element-type GrammarTextTemplate) (nullable): the
 *   text templates kept, or %NULL with @error set: an unknown style
 *   (%GRAMMAR_ERROR_INVALID_INPUT) or the model's own error
 */
GPtrArray *
grammar_llm_verbalizer_verbalize_finish (GrammarLlmVerbalizer  *self,
                                         GAsyncResult          *result,
                                         GStrv                 *dropped,
                                         GError               **error)
{
  Verbalization *verbalization;

  g_return_val_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  verbalization = g_task_get_task_data (G_TASK (result));
  if (dropped != NULL)
    {
      g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

      for (guint i = 0; i < verbalization->dropped->len; i++)
        g_strv_builder_add (builder, g_ptr_array_index (verbalization->dropped, i));
      *dropped = g_strv_builder_end (builder);
    }
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * grammar_llm_verbalizer_verbalize:
 * @self: a #GrammarLlmVerbalizer
 * @sql_template: the SQL template
 * @style: one of grammar_text_style_list()
 * @n: how many distinct text templates to collect
 * @dropped: (out) (optional) (transfer full): why each dropped line was dropped
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * The blocking form of grammar_llm_verbalizer_verbalize_async(); it
 * runs on a private main context and leaves the caller's alone.
 *
 * Returns: (transfer container) (element-type GrammarTextTemplate) (nullable): the
 *   text templates kept, or %NULL with @error set
 */
GPtrArray *
grammar_llm_verbalizer_verbalize (GrammarLlmVerbalizer  *self,
                                  GrammarSqlTemplate    *sql_template,
                                  const char            *style,
                                  guint                  n,
                                  GStrv                 *dropped,
                                  GCancellable          *cancellable,
                                  GError               **error)
{
  GPtrArray *text_templates;
  GrammarSync sync;

  g_return_val_if_fail (GRAMMAR_IS_LLM_VERBALIZER (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  grammar_sync_init (&sync);
  grammar_llm_verbalizer_verbalize_async (self, sql_template, style, n, cancellable,
                                          grammar_sync_callback, &sync);
  text_templates = grammar_llm_verbalizer_verbalize_finish (self, grammar_sync_wait (&sync), dropped, error);
  grammar_sync_clear (&sync);
  return text_templates;
}

/* GrammarVerbalizer: the model needs no schema. */
static void
verbalize_async_for (GrammarVerbalizer    *verbalizer,
                     GrammarSqlTemplate   *sql_template,
                     GrammarSchema        *schema,
                     const char           *style,
                     guint                 n,
                     GCancellable         *cancellable,
                     GAsyncReadyCallback   callback,
                     gpointer              user_data)
{
  grammar_llm_verbalizer_verbalize_async (GRAMMAR_LLM_VERBALIZER (verbalizer), sql_template, style, n, cancellable,
                                          callback, user_data);
}

static GPtrArray *
verbalize_finish_for (GrammarVerbalizer  *verbalizer,
                      GAsyncResult       *result,
                      GStrv              *dropped,
                      GError            **error)
{
  return grammar_llm_verbalizer_verbalize_finish (GRAMMAR_LLM_VERBALIZER (verbalizer), result, dropped, error);
}

static void
grammar_llm_verbalizer_verbalizer_init (GrammarVerbalizerInterface *iface)
{
  iface->verbalize_async = verbalize_async_for;
  iface->verbalize_finish = verbalize_finish_for;
}
