/* grammar-rageval-keypoints.c: the `rageval-keypoints` metric
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-rageval-keypoints.h"
#include "grammar-metric-support.h"

/**
 * GrammarRagevalKeypoints:
 *
 * The `rageval-keypoints` metric: RAGEval's completeness, hallucination
 * and irrelevance, grounded in the database. The keypoints of a record
 * are its answer's values, phrased by grammar_keypoint_list_from_record()
 * (`source=answer`). Each keypoint gets one verdict (`verdicts=grounded`):
 *
 * - covers: the #GrammarRagevalKeypoints:matcher finds the value in the
 *   response (judging the response against that one value);
 * - contradicts: not covered, and the matcher finds another value of the
 *   same column of the same table in the #GrammarRagevalKeypoints:database
 *   (the column's distinct values, the other values of the answer left
 *   out): the response states the wrong value. The reason names it;
 * - neither otherwise, and always for a keypoint whose value is not a
 *   plain column (a count, an average, an expression).
 *
 * Completeness is covered / keypoints (the score), hallucination
 * contradicted / keypoints and irrelevance 1 − both; all three are in the
 * evidence with every keypoint's verdict. A record without keypoints
 * (an empty or null answer) or without response is unmeasured.
 *
 * `matcher` and `database` default to the keyfile's `[matcher]` and
 * `[database]` sections. RAGEval's language-model steps (`source=llm`,
 * `verdicts=llm`) are not implemented yet and refused when configured.
 */

struct _GrammarRagevalKeypoints
{
  GObject parent_instance;

  char *source;
  char *verdicts;
  GrammarMatcher *matcher;
  GrammarDatabase *database;
  double threshold;

  GHashTable *domains;      /* "table\x1fcolumn" → GPtrArray of Candidate */
};

/* One value of a column's domain: its text and its words, to skip the
 * matcher for values whose words are not all in the response. */
typedef struct
{
  char *value;
  GStrv words;
} Candidate;

static void
candidate_free (Candidate *candidate)
{
  g_free (candidate->value);
  g_strfreev (candidate->words);
  g_free (candidate);
}

enum
{
  PROP_0,
  PROP_SOURCE,
  PROP_VERDICTS,
  PROP_MATCHER,
  PROP_DATABASE,
  PROP_THRESHOLD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void grammar_rageval_keypoints_metric_iface_init (GrammarMetricInterface *iface);
static void grammar_rageval_keypoints_initable_iface_init (GInitableIface *iface);

/* What verdicts=grounded cannot do without: told by the check of the
 * keyfile (grammar_param_spec_set_required()) and by init. */
static const char needs_matcher[] =
  "verdicts=grounded needs a matcher: add a [matcher] section (such as plugin=contains) or matcher=SECTION";
static const char needs_database[] =
  "verdicts=grounded needs the database the dataset was made from, for the values a response may state "
  "instead: add a [database] section or database=SECTION";

G_DEFINE_DYNAMIC_TYPE_EXTENDED (GrammarRagevalKeypoints, grammar_rageval_keypoints, G_TYPE_OBJECT,
                                G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_METRIC,
                                                               grammar_rageval_keypoints_metric_iface_init)
                                G_IMPLEMENT_INTERFACE_DYNAMIC (G_TYPE_INITABLE,
                                                               grammar_rageval_keypoints_initable_iface_init))

/* The text of a value of a one-column result. */
static char *
variant_text (GVariant *value)
{
  if (value == NULL)
    return NULL;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
    return g_strdup (g_variant_get_boolean (value) ? "true" : "false");
  /* A real in its shortest text (154.8, not 154.80000000000001), a
   * decimal as the database wrote it (154.80). */
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING) ||
      g_variant_is_of_type (value, G_VARIANT_TYPE_INT64) ||
      g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE) ||
      grammar_value_get_decimal (value) != NULL)
    return grammar_value_to_text (value);
  return NULL;
}

/* The distinct values of table.column, read once. */
static GPtrArray *
domain_of (GrammarRagevalKeypoints  *self,
           const char               *table,
           const char               *column,
           GCancellable             *cancellable,
           GError                  **error)
{
  g_autofree char *key = g_strdup_printf ("%s\x1f%s", table, column);
  GPtrArray *domain = g_hash_table_lookup (self->domains, key);
  g_autoptr (GrammarResult) result = NULL;

  if (domain != NULL)
    return domain;
  result = grammar_database_distinct_values (self->database, table, column, cancellable, error);
  if (result == NULL)
    return NULL;
  domain = g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_free);
  for (guint r = 0; r < grammar_result_get_n_rows (result); r++)
    {
      GVariant *value = grammar_result_get_value (result, r, 0);
      char *text = variant_text (value);
      Candidate *candidate;

      if (text == NULL)
        continue;
      candidate = g_new0 (Candidate, 1);
      candidate->value = text;
      candidate->words = grammar_document_tokenize (text);
      g_ptr_array_add (domain, candidate);
    }
  g_hash_table_insert (self->domains, g_steal_pointer (&key), domain);
  return domain;
}

/* Whether the matcher finds @value in the record's response. */
static gboolean
states (GrammarRagevalKeypoints  *self,
        GrammarRecord            *record,
        const char               *value,
        GCancellable             *cancellable,
        gboolean                 *found,
        GError                  **error)
{
  g_autoptr (GrammarRecord) probe = grammar_record_new ();
  g_autoptr (JsonNode) answer = json_node_new (JSON_NODE_ARRAY);
  g_autoptr (GrammarVerdict) verdict = NULL;
  JsonArray *rows = json_array_new ();
  JsonArray *row = json_array_new ();

  json_array_add_string_element (row, value);
  json_array_add_array_element (rows, row);
  json_node_take_array (answer, rows);
  grammar_record_set_text (probe, grammar_record_get_text (record));
  grammar_record_set_sql (probe, grammar_record_get_sql (record));
  grammar_record_set_bindings (probe, grammar_record_get_bindings (record));
  grammar_record_set_answer (probe, answer);
  grammar_record_set_response (probe, grammar_record_get_response (record));
  verdict = grammar_matcher_judge (self->matcher, probe, cancellable, error);
  if (verdict == NULL)
    return FALSE;
  *found = grammar_verdict_get_kind (verdict) == GRAMMAR_VERDICT_CORRECT;
  return TRUE;
}

static gboolean
all_words_in (const GStrv  words,
              GHashTable  *response_words)
{
  if (words == NULL || words[0] == NULL)
    return FALSE;
  for (guint i = 0; words[i] != NULL; i++)
    if (!g_hash_table_contains (response_words, words[i]))
      return FALSE;
  return TRUE;
}

static GrammarScore *
grammar_rageval_keypoints_score (GrammarMetric  *metric,
                                 GrammarRecord  *record,
                                 GCancellable   *cancellable,
                                 GError        **error)
{
  GrammarRagevalKeypoints *self = GRAMMAR_RAGEVAL_KEYPOINTS (metric);
  g_autoptr (GPtrArray) keypoints = NULL;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) evidence = NULL;
  g_autoptr (GHashTable) answer_values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) response_words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) words = NULL;
  g_autofree char *first_contradiction = NULL;
  GrammarScore *score = grammar_metric_support_no_response (record);
  guint covered = 0, contradicted = 0, n;

  if (score != NULL)
    return score;
  keypoints = grammar_keypoint_list_from_record (record);
  n = keypoints->len;
  if (n == 0)
    return grammar_score_new_unmeasured ("no keypoints: the answer has no value");
  for (guint i = 0; i < n; i++)
    g_hash_table_add (answer_values, (gpointer) grammar_keypoint_get_value (g_ptr_array_index (keypoints, i)));
  words = grammar_document_tokenize (grammar_record_get_response (record));
  for (guint i = 0; words[i] != NULL; i++)
    g_hash_table_add (response_words, g_steal_pointer (&words[i]));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "keypoints");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    {
      GrammarKeypoint *keypoint = g_ptr_array_index (keypoints, i);
      const char *value = grammar_keypoint_get_value (keypoint);
      const char *table = grammar_keypoint_get_table (keypoint);
      const char *column = grammar_keypoint_get_column (keypoint);
      const char *verdict = "neither";
      const char *other = NULL;
      gboolean found = FALSE;

      if (!states (self, record, value, cancellable, &found, error))
        return NULL;
      if (found)
        verdict = "covers";
      else if (table != NULL && column != NULL)
        {
          GPtrArray *domain = domain_of (self, table, column, cancellable, error);

          if (domain == NULL)
            return NULL;
          for (guint d = 0; d < domain->len && other == NULL; d++)
            {
              Candidate *candidate = g_ptr_array_index (domain, d);

              if (g_hash_table_contains (answer_values, candidate->value) ||
                  !all_words_in (candidate->words, response_words))
                continue;
              if (!states (self, record, candidate->value, cancellable, &found, error))
                return NULL;
              if (found)
                other = candidate->value;
            }
          if (other != NULL)
            verdict = "contradicts";
        }
      covered += g_str_equal (verdict, "covers");
      contradicted += g_str_equal (verdict, "contradicts");
      if (other != NULL && first_contradiction == NULL)
        first_contradiction = g_strdup_printf ("keypoint %u contradicted: the response states '%s', another %s.%s, "
                                               "not '%s'", i + 1, other, table, column, value);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, grammar_keypoint_get_text (keypoint));
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, value);
      json_builder_set_member_name (builder, "verdict");
      json_builder_add_string_value (builder, verdict);
      if (other != NULL)
        {
          json_builder_set_member_name (builder, "stated");
          json_builder_add_string_value (builder, other);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "completeness");
  json_builder_add_double_value (builder, (double) covered / n);
  json_builder_set_member_name (builder, "hallucination");
  json_builder_add_double_value (builder, (double) contradicted / n);
  json_builder_set_member_name (builder, "irrelevance");
  json_builder_add_double_value (builder, (double) (n - covered - contradicted) / n);
  json_builder_end_object (builder);
  evidence = json_builder_get_root (builder);

  score = grammar_score_new ((double) covered / n);
  grammar_score_set_evidence (score, evidence);
  if (first_contradiction != NULL)
    grammar_score_set_reason (score, first_contradiction);
  else if (covered < n)
    {
      g_autofree char *reason = g_strdup_printf ("%u of %u keypoints covered, none contradicted", covered, n);

      grammar_score_set_reason (score, reason);
    }
  return score;
}

static gboolean
grammar_rageval_keypoints_check_record (GrammarMetric  *metric,
                                        GrammarRecord  *record,
                                        GError        **error)
{
  if (grammar_record_get_answer (record) == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "metric rageval-keypoints: the record has no member “answer”: keypoints are made from the "
                   "grounded answer of a dataset made by grammar qa");
      return FALSE;
    }
  return TRUE;
}

static void
grammar_rageval_keypoints_metric_iface_init (GrammarMetricInterface *iface)
{
  iface->check_record = grammar_rageval_keypoints_check_record;
  iface->score = grammar_rageval_keypoints_score;
}

static gboolean
grammar_rageval_keypoints_initable_init (GInitable     *initable,
                                         GCancellable  *cancellable,
                                         GError       **error)
{
  GrammarRagevalKeypoints *self = GRAMMAR_RAGEVAL_KEYPOINTS (initable);
  const char *problem = NULL;

  if (g_strcmp0 (self->source, "answer") != 0 && g_strcmp0 (self->source, "llm") != 0)
    problem = "source: must be answer or llm";
  else if (g_strcmp0 (self->verdicts, "grounded") != 0 && g_strcmp0 (self->verdicts, "llm") != 0)
    problem = "verdicts: must be grounded or llm";
  else if (g_str_equal (self->source, "llm") || g_str_equal (self->verdicts, "llm"))
    problem = "source=llm and verdicts=llm (RAGEval's prompts) are not implemented in this release: use "
              "source=answer and verdicts=grounded";
  else if (self->matcher == NULL)
    problem = needs_matcher;
  else if (self->database == NULL)
    problem = needs_database;
  if (problem != NULL)
    g_set_error_literal (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, problem);
  return problem == NULL;
}

static void
grammar_rageval_keypoints_initable_iface_init (GInitableIface *iface)
{
  iface->init = grammar_rageval_keypoints_initable_init;
}

static void
grammar_rageval_keypoints_finalize (GObject *object)
{
  GrammarRagevalKeypoints *self = GRAMMAR_RAGEVAL_KEYPOINTS (object);

  g_free (self->source);
  g_free (self->verdicts);
  g_clear_object (&self->matcher);
  g_clear_object (&self->database);
  g_hash_table_unref (self->domains);
  G_OBJECT_CLASS (grammar_rageval_keypoints_parent_class)->finalize (object);
}

static void
grammar_rageval_keypoints_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  GrammarRagevalKeypoints *self = GRAMMAR_RAGEVAL_KEYPOINTS (object);

  switch (prop_id)
    {
    case PROP_SOURCE: g_value_set_string (value, self->source); break;
    case PROP_VERDICTS: g_value_set_string (value, self->verdicts); break;
    case PROP_MATCHER: g_value_set_object (value, self->matcher); break;
    case PROP_DATABASE: g_value_set_object (value, self->database); break;
    case PROP_THRESHOLD: g_value_set_double (value, self->threshold); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_rageval_keypoints_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  GrammarRagevalKeypoints *self = GRAMMAR_RAGEVAL_KEYPOINTS (object);

  switch (prop_id)
    {
    case PROP_SOURCE: g_free (self->source); self->source = g_value_dup_string (value); break;
    case PROP_VERDICTS: g_free (self->verdicts); self->verdicts = g_value_dup_string (value); break;
    case PROP_MATCHER: g_set_object (&self->matcher, g_value_get_object (value)); break;
    case PROP_DATABASE: g_set_object (&self->database, g_value_get_object (value)); break;
    case PROP_THRESHOLD: self->threshold = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_rageval_keypoints_class_init (GrammarRagevalKeypointsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = grammar_rageval_keypoints_finalize;
  object_class->get_property = grammar_rageval_keypoints_get_property;
  object_class->set_property = grammar_rageval_keypoints_set_property;

  properties[PROP_SOURCE] =
    g_param_spec_string ("source", NULL, "Where keypoints come from: answer (the grounded answer's values)",
                         "answer", flags);
  properties[PROP_VERDICTS] =
    g_param_spec_string ("verdicts", NULL,
                         "How keypoints are judged: grounded (the matcher and the database's values)",
                         "grounded", flags);
  properties[PROP_MATCHER] =
    g_param_spec_object ("matcher", NULL, "The matcher that finds a value in a response (default: [matcher])",
                         GRAMMAR_TYPE_MATCHER, flags);
  grammar_param_spec_set_default_section (properties[PROP_MATCHER], "matcher");
  grammar_param_spec_set_required (properties[PROP_MATCHER], needs_matcher);
  properties[PROP_DATABASE] =
    g_param_spec_object ("database", NULL,
                         "The database of the dataset, for the values a response may state instead "
                         "(default: [database])",
                         GRAMMAR_TYPE_DATABASE, flags);
  grammar_param_spec_set_default_section (properties[PROP_DATABASE], "database");
  grammar_param_spec_set_required (properties[PROP_DATABASE], needs_database);
  properties[PROP_THRESHOLD] =
    g_param_spec_double ("threshold", NULL, "A response passes from this completeness on", 0.0, 1.0, 1.0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_rageval_keypoints_class_finalize (GrammarRagevalKeypointsClass *klass)
{
}

static void
grammar_rageval_keypoints_init (GrammarRagevalKeypoints *self)
{
  self->source = g_strdup ("answer");
  self->verdicts = g_strdup ("grounded");
  self->threshold = 1.0;
  self->domains = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
}

void
grammar_rageval_keypoints_register (GTypeModule *module)
{
  grammar_rageval_keypoints_register_type (module);
}
