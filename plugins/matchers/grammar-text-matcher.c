/* grammar-text-matcher.c: the base of the deterministic matchers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "grammar-match-tokens.h"
#include "grammar-text-matcher.h"

/*
 * GrammarTextMatcher:
 *
 * What `exact`, `contains` and `f1` share: the settings of the
 * normalisation (#GrammarTextMatcher:day-first, the alias sets of
 * #GrammarTextMatcher:builtin-aliases and #GrammarTextMatcher:aliases,
 * #GrammarTextMatcher:refusals) and the verdicts every matcher gives
 * alike: a response that is missing (the system failed) or empty, or a
 * true answer without any value, is unmeasured. The subclass compares
 * the rest in GrammarTextMatcherClass.compare().
 *
 * The matcher keeps no state between records, so one instance judges
 * records from several threads at once.
 */

#define QUOTE_CHARS 60

typedef struct
{
  gboolean day_first;
  char *aliases_path;
  gboolean builtin_aliases;
  gboolean refusals;

  GrammarAliases *aliases;
  GrammarRefusal *refusal;
  GRegex *quoted;
} GrammarTextMatcherPrivate;

enum
{
  PROP_0,
  PROP_DAY_FIRST,
  PROP_ALIASES,
  PROP_BUILTIN_ALIASES,
  PROP_REFUSALS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_text_matcher_matcher_iface_init  (GrammarMatcherInterface *iface);
static void grammar_text_matcher_initable_iface_init (GInitableIface          *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarTextMatcher, grammar_text_matcher, G_TYPE_OBJECT, G_TYPE_FLAG_ABSTRACT,
                                G_ADD_PRIVATE_DYNAMIC (GrammarTextMatcher)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_MATCHER,
                                                               grammar_text_matcher_matcher_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_text_matcher_initable_iface_init))

/* ---- verdicts ---- */

/**
 * grammar_text_matcher_verdict:
 * @self: a matcher
 * @kind: the verdict
 * @score: its score
 * @format: printf() format of the reason
 * @...: its arguments
 *
 * Returns: (transfer full): a verdict named after the matcher
 */
GrammarVerdict *
grammar_text_matcher_verdict (GrammarTextMatcher *self,
                              GrammarVerdictKind  kind,
                              double              score,
                              const char         *format,
                              ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  return grammar_verdict_new (kind, score, reason, GRAMMAR_TEXT_MATCHER_GET_CLASS (self)->name);
}

/**
 * grammar_text_matcher_quote:
 * @value: a value
 *
 * Returns: (transfer full): @value in quotes, on one line, cut after
 *   about 60 characters, for a reason
 */
char *
grammar_text_matcher_quote (const char *value)
{
  g_autofree char *flat = g_strdup (value);

  g_strdelimit (flat, "\n\r\t", ' ');
  if (g_utf8_strlen (flat, -1) > QUOTE_CHARS)
    {
      const char *cut = g_utf8_offset_to_pointer (flat, QUOTE_CHARS);

      return g_strdup_printf ("“%.*s…”", (int) (cut - flat), flat);
    }
  return g_strdup_printf ("“%s”", flat);
}

/* ---- the true answer ---- */

/* The text of one cell; NULL for null, which is no value. */
static char *
cell_text (JsonNode *cell)
{
  const char *exact = grammar_json_node_get_number_text (cell);
  double number;

  /* A number kept as the database wrote it (154.80): normalisation
   * reads its value, and every digit is there to compare. */
  if (exact != NULL)
    return g_strdup (exact);
  if (JSON_NODE_HOLDS_NULL (cell))
    return NULL;
  if (!JSON_NODE_HOLDS_VALUE (cell))
    return json_to_string (cell, FALSE);
  switch (json_node_get_value_type (cell))
    {
    case G_TYPE_STRING:
      return g_strdup (json_node_get_string (cell));
    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (cell));
    case G_TYPE_BOOLEAN:
      return g_strdup (json_node_get_boolean (cell) ? "true" : "false");
    case G_TYPE_DOUBLE:
      number = json_node_get_double (cell);
      /* Whole numbers without an exponent, so that 1e6 reads 1000000. */
      if (isfinite (number) && number == floor (number) && fabs (number) < 1e18)
        return g_strdup_printf ("%.0f", number);
      {
        char buffer[G_ASCII_DTOSTR_BUF_SIZE];

        return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.15g", number));
      }
    default:
      return json_to_string (cell, FALSE);
    }
}

static void
collect_values (JsonNode  *answer,
                GPtrArray *values,
                GArray    *row_starts)
{
  JsonArray *rows = answer != NULL && JSON_NODE_HOLDS_ARRAY (answer) ? json_node_get_array (answer) : NULL;
  guint n_rows = rows != NULL ? json_array_get_length (rows) : 0;

  for (guint r = 0; r < n_rows; r++)
    {
      JsonNode *row = json_array_get_element (rows, r);
      guint start = values->len;

      if (JSON_NODE_HOLDS_ARRAY (row))
        {
          JsonArray *cells = json_node_get_array (row);

          for (guint c = 0; c < json_array_get_length (cells); c++)
            {
              char *text = cell_text (json_array_get_element (cells, c));

              if (text != NULL)
                g_ptr_array_add (values, text);
            }
        }
      else
        {
          /* A bare value: a row of one cell. */
          char *text = cell_text (row);

          if (text != NULL)
            g_ptr_array_add (values, text);
        }
      if (values->len > start)
        g_array_append_val (row_starts, start);
    }
  g_array_append_val (row_starts, values->len);
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

/* ---- judging ---- */

/**
 * grammar_text_matcher_check_record:
 * @record: a record to judge
 * @matcher: the matcher's name, for the verdict
 * @values: (element-type utf8): filled with the text of every non-null
 *   cell of the true answer, row by row
 * @row_starts: (element-type guint): filled with the index in @values of
 *   each row's first cell, then the length of @values
 *
 * The verdicts every matcher gives alike, before comparing anything: a
 * missing response (the system failed), an empty one, or a true answer
 * without a value is unmeasured.
 *
 * Returns: (transfer full) (nullable): an unmeasured verdict, or %NULL
 *   when @record can be judged
 */
GrammarVerdict *
grammar_text_matcher_check_record (GrammarRecord *record,
                                   const char    *matcher,
                                   GPtrArray     *values,
                                   GArray        *row_starts)
{
  const char *response = grammar_record_get_response (record);
  const char *failure = grammar_record_get_error (record);
  g_autofree char *reason = NULL;

  if (response == NULL && failure != NULL)
    reason = g_strdup_printf ("no response: the system failed (%s)", failure);
  else if (response == NULL)
    reason = g_strdup ("no response");
  else if (is_blank (response))
    reason = g_strdup ("the response is empty");
  else
    {
      collect_values (grammar_record_get_answer (record), values, row_starts);
      if (values->len == 0)
        reason = g_strdup ("the true answer is empty");
    }
  return reason != NULL ? grammar_verdict_new (GRAMMAR_VERDICT_UNMEASURED, 0.0, reason, matcher) : NULL;
}

/* The names a query asks about: the values bound to its placeholders,
 * and what it quotes ('EnergySphere', "Empire Bank"). */
static GPtrArray *
collect_query_names (GrammarTextMatcherPrivate *priv,
                     GrammarRecord             *record,
                     const GrammarMatchOptions *options)
{
  GPtrArray *names = g_ptr_array_new_with_free_func ((GDestroyNotify) grammar_match_text_free);
  JsonNode *bindings = grammar_record_get_bindings (record);
  const char *query = grammar_record_get_text (record);

  if (bindings != NULL && JSON_NODE_HOLDS_OBJECT (bindings))
    {
      JsonObjectIter iter;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (bindings));
      while (json_object_iter_next (&iter, NULL, &member))
        {
          g_autofree char *text = cell_text (member);

          if (text != NULL)
            g_ptr_array_add (names, grammar_match_text_new (text, options));
        }
    }
  if (query != NULL)
    {
      g_autofree char *base = grammar_match_base (query);
      g_autoptr (GMatchInfo) match = NULL;

      g_regex_match (priv->quoted, base, 0, &match);
      while (g_match_info_matches (match))
        {
          g_autofree char *single = g_match_info_fetch (match, 1);
          g_autofree char *dual = g_match_info_fetch (match, 2);
          const char *text = single != NULL && single[0] != '\0' ? single : dual;

          if (text != NULL && text[0] != '\0')
            g_ptr_array_add (names, grammar_match_text_new (text, options));
          g_match_info_next (match, NULL);
        }
    }
  return names;
}

/* A true answer that reads as a refusal ("Unknown", "Not available"):
 * the response that gives it is no refusal. */
static gboolean
answer_refuses (GrammarRefusal *refusal,
                GPtrArray      *values)
{
  for (guint i = 0; refusal != NULL && i < values->len; i++)
    {
      g_autofree char *base = grammar_match_base (g_ptr_array_index (values, i));

      if (grammar_refusal_is_refusal (refusal, base))
        return TRUE;
    }
  return FALSE;
}

static GrammarVerdict *
grammar_text_matcher_judge (GrammarMatcher  *matcher,
                            GrammarRecord   *record,
                            GCancellable    *cancellable,
                            GError         **error)
{
  GrammarTextMatcher *self = GRAMMAR_TEXT_MATCHER (matcher);
  GrammarTextMatcherPrivate *priv = grammar_text_matcher_get_instance_private (self);
  GrammarMatchOptions options = { priv->day_first, priv->aliases, NULL };
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) value_texts = g_ptr_array_new_with_free_func ((GDestroyNotify) grammar_match_text_free);
  g_autoptr (GArray) row_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GrammarMatchText) response_text = NULL;
  g_autoptr (GPtrArray) query_names = NULL;
  GrammarVerdict *verdict;
  GrammarTextMatch match;

  verdict = grammar_text_matcher_check_record (record, GRAMMAR_TEXT_MATCHER_GET_CLASS (self)->name,
                                               values, row_starts);
  if (verdict != NULL)
    return verdict;

  for (guint i = 0; i < values->len; i++)
    g_ptr_array_add (value_texts, grammar_match_text_new (g_ptr_array_index (values, i), &options));
  query_names = collect_query_names (priv, record, &options);
  options.refusal = answer_refuses (priv->refusal, values) ? NULL : priv->refusal;
  response_text = grammar_match_text_new (grammar_record_get_response (record), &options);

  match = (GrammarTextMatch) { record, response_text, values, value_texts, row_starts, options.refusal != NULL,
                               query_names };
  return GRAMMAR_TEXT_MATCHER_GET_CLASS (self)->compare (self, &match);
}

static void
grammar_text_matcher_matcher_iface_init (GrammarMatcherInterface *iface)
{
  iface->judge = grammar_text_matcher_judge;
}

/* ---- construction ---- */

static gboolean
grammar_text_matcher_initable_init (GInitable     *initable,
                                    GCancellable  *cancellable,
                                    GError       **error)
{
  GrammarTextMatcher *self = GRAMMAR_TEXT_MATCHER (initable);
  GrammarTextMatcherPrivate *priv = grammar_text_matcher_get_instance_private (self);

  if (priv->aliases_path != NULL && priv->aliases_path[0] != '\0' &&
      !grammar_aliases_load_file (priv->aliases, priv->aliases_path, error))
    {
      g_prefix_error (error, "aliases: ");
      return FALSE;
    }
  return TRUE;
}

static void
grammar_text_matcher_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_text_matcher_initable_init;
}

/* What cannot fail is made here, so that a matcher made without
 * g_initable_init() still judges (without the user's alias file). */
static void
grammar_text_matcher_constructed (GObject *object)
{
  GrammarTextMatcher *self = GRAMMAR_TEXT_MATCHER (object);
  GrammarTextMatcherPrivate *priv = grammar_text_matcher_get_instance_private (self);

  G_OBJECT_CLASS (grammar_text_matcher_parent_class)->constructed (object);

  priv->aliases = grammar_aliases_new (priv->builtin_aliases);
  /* A quote opens after a non-word character and closes before one, so
   * that the apostrophe of "company's" opens nothing. */
  priv->quoted = g_regex_new ("(?<![\\w'\"])(?:'([^'\\n]+)'|\"([^\"\\n]+)\")(?![\\w'\"])",
                              G_REGEX_OPTIMIZE, 0, NULL);
  g_assert (priv->quoted != NULL);
  if (priv->refusals)
    priv->refusal = grammar_refusal_new ();
}

static void
grammar_text_matcher_finalize (GObject *object)
{
  GrammarTextMatcher *self = GRAMMAR_TEXT_MATCHER (object);
  GrammarTextMatcherPrivate *priv = grammar_text_matcher_get_instance_private (self);

  g_free (priv->aliases_path);
  g_clear_pointer (&priv->aliases, grammar_aliases_free);
  g_clear_pointer (&priv->refusal, grammar_refusal_free);
  g_clear_pointer (&priv->quoted, g_regex_unref);

  G_OBJECT_CLASS (grammar_text_matcher_parent_class)->finalize (object);
}

static void
grammar_text_matcher_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  GrammarTextMatcher *self = GRAMMAR_TEXT_MATCHER (object);
  GrammarTextMatcherPrivate *priv = grammar_text_matcher_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_DAY_FIRST: g_value_set_boolean (value, priv->day_first); break;
    case PROP_ALIASES: g_value_set_string (value, priv->aliases_path); break;
    case PROP_BUILTIN_ALIASES: g_value_set_boolean (value, priv->builtin_aliases); break;
    case PROP_REFUSALS: g_value_set_boolean (value, priv->refusals); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_text_matcher_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  GrammarTextMatcher *self = GRAMMAR_TEXT_MATCHER (object);
  GrammarTextMatcherPrivate *priv = grammar_text_matcher_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_DAY_FIRST: priv->day_first = g_value_get_boolean (value); break;
    case PROP_ALIASES:
      g_free (priv->aliases_path);
      priv->aliases_path = g_value_dup_string (value);
      break;
    case PROP_BUILTIN_ALIASES: priv->builtin_aliases = g_value_get_boolean (value); break;
    case PROP_REFUSALS: priv->refusals = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_text_matcher_class_init (GrammarTextMatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = grammar_text_matcher_constructed;
  object_class->finalize = grammar_text_matcher_finalize;
  object_class->get_property = grammar_text_matcher_get_property;
  object_class->set_property = grammar_text_matcher_set_property;

  properties[PROP_DAY_FIRST] =
    g_param_spec_boolean ("day-first", NULL,
                          "Read 01/04/2023 as 1 April (day first) rather than January 4 (month first)",
                          FALSE, flags);
  properties[PROP_ALIASES] =
    g_param_spec_string ("aliases", NULL,
                         "A file of extra alias sets: one a line, names separated by |, # comments",
                         NULL, flags | GRAMMAR_PARAM_PATH);
  properties[PROP_BUILTIN_ALIASES] =
    g_param_spec_boolean ("builtin-aliases", NULL,
                          "Use the built-in alias sets (countries: USA = United States = American…)",
                          TRUE, flags);
  properties[PROP_REFUSALS] =
    g_param_spec_boolean ("refusals", NULL,
                          "Detect refusals (\"I couldn't find…\"): a value in a refusing clause is not counted",
                          TRUE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_text_matcher_class_finalize (GrammarTextMatcherClass *klass)
{
}

static void
grammar_text_matcher_init (GrammarTextMatcher *self)
{
  GrammarTextMatcherPrivate *priv = grammar_text_matcher_get_instance_private (self);

  priv->builtin_aliases = TRUE;
  priv->refusals = TRUE;
}

void
grammar_text_matcher_register (GTypeModule *module)
{
  grammar_text_matcher_register_type (module);
}
