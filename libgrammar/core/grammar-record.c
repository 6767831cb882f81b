/* grammar-record.c: one text query on its way through the pipeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-json-private.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-record.h"

/**
 * GrammarRecord:
 *
 * One line of the JSON Lines files that the pipeline stages pass on:
 * `dataset.jsonl` (a text query with its SQL, the bindings of its
 * template, the true answer and the documents that hold it),
 * `results.jsonl` (the same with the response of the system under test)
 * and `judged.jsonl` (the same with the verdict of a matcher).
 *
 * The members of a line are, in the order they are written:
 *
 * - `id`, `group`, `template`, `style`, `text`, `sql`: strings
 * - `bindings`: an object, the values of the template's placeholders
 * - `answer`: an array of rows, each an array of values
 * - `doc_ids`: an array of strings, the documents that hold the answer
 * - `response`: a string, or null when the system failed
 * - `samples`: an array of strings, stochastic responses the system gave
 *   besides `response` (only when it was asked for some)
 * - `samples_failed`: a number, how many of the samples asked for failed
 *   and are missing from `samples` (only when some did)
 * - `sample_error`: a string, why the first of those failed
 * - `retrieved`: an array of `{"id": string, "score": number, "text": string}`,
 *   the text being optional. Absent (or null, when read) when the query
 *   failed or the system did not report its documents: retrieval is
 *   then unmeasured. An empty array is a system that reports its
 *   documents and retrieved none, a measured miss.
 * - `error`: a string, or null
 * - `latency_ms`: a number, how long the system under test took to answer,
 *   in milliseconds
 * - `verdict`: `correct`, `incorrect` or `unmeasured`
 * - `retrieval`: the retrieval verdict, `correct`, `incorrect` or `unmeasured`
 * - `judge`: `{"matcher": string, "score": number, "reason": string}`, the
 *   details of the verdict
 * - `assessment`: an object, one #GrammarScore per metric by its name
 *   (`assessed.jsonl`)
 *
 * Members that are not set are not written: `response`, `retrieved`,
 * `samples`, `error`, `verdict`, `judge`, `retrieval` and `assessment`
 * appear only once a stage
 * has set them. Members that GRAMMAR does not know are kept as they
 * were read and written back after the known ones, in their original
 * order, so that no user data is lost from one stage to the next.
 */
struct _GrammarRecord
{
  GObject parent_instance;

  char *id;
  char *group;
  char *template_id;
  char *style;
  char *text;
  char *sql;
  JsonNode *bindings;      /* object, or NULL */
  JsonNode *answer;        /* array, or NULL */
  GStrv doc_ids;

  gboolean has_response;
  char *response;
  GStrv samples;           /* or NULL */
  guint samples_failed;
  char *sample_error;      /* or NULL */
  GPtrArray *retrieved;    /* GrammarHit, or NULL */
  gboolean has_error;
  char *error;
  double latency_ms;       /* negative when unset */

  GrammarVerdict *verdict;
  gboolean has_retrieval;
  GrammarVerdictKind retrieval;

  GPtrArray *scores;       /* GrammarScore, or NULL */

  JsonObject *unknown;     /* members GRAMMAR does not know, in order */
};

G_DEFINE_FINAL_TYPE (GrammarRecord, grammar_record, G_TYPE_OBJECT)

static void
grammar_record_finalize (GObject *object)
{
  GrammarRecord *self = GRAMMAR_RECORD (object);

  g_free (self->id);
  g_free (self->group);
  g_free (self->template_id);
  g_free (self->style);
  g_free (self->text);
  g_free (self->sql);
  g_clear_pointer (&self->bindings, json_node_unref);
  g_clear_pointer (&self->answer, json_node_unref);
  g_strfreev (self->doc_ids);
  g_free (self->response);
  g_strfreev (self->samples);
  g_free (self->sample_error);
  g_clear_pointer (&self->retrieved, g_ptr_array_unref);
  g_clear_pointer (&self->scores, g_ptr_array_unref);
  g_free (self->error);
  g_clear_object (&self->verdict);
  json_object_unref (self->unknown);

  G_OBJECT_CLASS (grammar_record_parent_class)->finalize (object);
}

static void
grammar_record_class_init (GrammarRecordClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_record_finalize;
}

static void
grammar_record_init (GrammarRecord *self)
{
  self->retrieval = GRAMMAR_VERDICT_UNMEASURED;
  self->latency_ms = -1.0;
  self->unknown = json_object_new ();
}

/* json_node_copy() shares the objects, arrays and values of the node it
 * copies: copy everything so that the record and its callers never
 * change each other's JSON. */
static JsonNode *
deep_copy (JsonNode *node)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr (JsonObject) object_copy = json_object_new ();
        g_autoptr (GList) names = json_object_get_members (object);

        for (const GList *l = names; l != NULL; l = l->next)
          json_object_set_member (object_copy, l->data, deep_copy (json_object_get_member (object, l->data)));
        copy = json_node_new (JSON_NODE_OBJECT);
        json_node_set_object (copy, object_copy);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);
        g_autoptr (JsonArray) array_copy = json_array_sized_new (length);

        for (guint i = 0; i < length; i++)
          json_array_add_element (array_copy, deep_copy (json_array_get_element (array, i)));
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_set_array (copy, array_copy);
        return copy;
      }

    case JSON_NODE_VALUE:
      copy = json_node_new (JSON_NODE_VALUE);
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          json_node_set_int (copy, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          json_node_set_double (copy, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
          json_node_set_boolean (copy, json_node_get_boolean (node));
          break;
        default:
          json_node_set_string (copy, json_node_get_string (node));
          break;
        }
      return copy;

    case JSON_NODE_NULL:
    default:
      return json_node_new (JSON_NODE_NULL);
    }
}

/**
 * grammar_record_new:
 *
 * Makes a record with no member set.
 *
 * Returns: (transfer full): a new #GrammarRecord
 */
GrammarRecord *
grammar_record_new (void)
{
  return g_object_new (GRAMMAR_TYPE_RECORD, NULL);
}

/* Reading */

static gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* A number, also one kept as written (grammar_json_node_get_number_text()). */
static gboolean
node_is_number (JsonNode *node)
{
  double value;

  return grammar_json_node_get_real (node, &value);
}

static double
node_number (JsonNode *node)
{
  double value = 0.0;

  grammar_json_node_get_real (node, &value);
  return value;
}

static gboolean
invalid_member (GError     **error,
                const char  *name,
                const char  *expected)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "member “%s” must be %s", name, expected);
  return FALSE;
}

static gboolean
read_string (JsonNode    *node,
             const char  *name,
             char       **field,
             GError     **error)
{
  if (!node_is_string (node))
    return invalid_member (error, name, "a string");
  g_free (*field);
  *field = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
read_nullable_string (JsonNode    *node,
                      const char  *name,
                      char       **field,
                      GError     **error)
{
  if (JSON_NODE_HOLDS_NULL (node))
    {
      g_clear_pointer (field, g_free);
      return TRUE;
    }
  if (!node_is_string (node))
    return invalid_member (error, name, "a string or null");
  g_free (*field);
  *field = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
read_verdict_kind (JsonNode            *node,
                   const char          *name,
                   GrammarVerdictKind  *kind,
                   GError             **error)
{
  if (!node_is_string (node) || !grammar_verdict_kind_from_string (json_node_get_string (node), kind))
    return invalid_member (error, name, "“correct”, “incorrect” or “unmeasured”");
  return TRUE;
}

static gboolean
read_strings (JsonNode    *node,
              const char  *name,
              GStrv       *field,
              GError     **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid_member (error, name, "an array of strings");
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!node_is_string (element))
        return invalid_member (error, name, "an array of strings");
      g_strv_builder_add (builder, json_node_get_string (element));
    }
  g_strfreev (*field);
  *field = g_strv_builder_end (builder);
  return TRUE;
}

static gboolean
read_assessment (GrammarRecord  *self,
                 JsonNode       *node,
                 GError        **error)
{
  g_autoptr (GPtrArray) scores = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GList) names = NULL;
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid_member (error, "assessment", "an object of scores by metric");
  object = json_node_get_object (node);
  names = json_object_get_members (object);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      GrammarScore *score = grammar_score_new_from_json (l->data, json_object_get_member (object, l->data), error);

      if (score == NULL)
        return FALSE;
      g_ptr_array_add (scores, score);
    }
  g_clear_pointer (&self->scores, g_ptr_array_unref);
  self->scores = g_steal_pointer (&scores);
  return TRUE;
}

static gboolean
read_answer (GrammarRecord  *self,
             JsonNode       *node,
             GError        **error)
{
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid_member (error, "answer", "an array of rows");
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (!JSON_NODE_HOLDS_ARRAY (json_array_get_element (array, i)))
      return invalid_member (error, "answer", "an array of rows");
  g_clear_pointer (&self->answer, json_node_unref);
  self->answer = deep_copy (node);
  return TRUE;
}

static gboolean
read_retrieved (GrammarRecord  *self,
                JsonNode       *node,
                GError        **error)
{
  static const char expected[] = "an array of objects with a string “id”, a number “score” and an optional string “text”";
  g_autoptr (GPtrArray) hits = g_ptr_array_new_with_free_func (g_object_unref);
  JsonArray *array;

  /* null: the system did not report its documents, as if absent. */
  if (JSON_NODE_HOLDS_NULL (node))
    {
      g_clear_pointer (&self->retrieved, g_ptr_array_unref);
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid_member (error, "retrieved", expected);
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *object;
      JsonNode *id, *score, *text;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        return invalid_member (error, "retrieved", expected);
      object = json_node_get_object (element);
      id = json_object_get_member (object, "id");
      score = json_object_get_member (object, "score");
      text = json_object_get_member (object, "text");
      if (id == NULL || !node_is_string (id) ||
          score == NULL || !node_is_number (score) ||
          (text != NULL && !JSON_NODE_HOLDS_NULL (text) && !node_is_string (text)))
        return invalid_member (error, "retrieved", expected);

      g_ptr_array_add (hits, grammar_hit_new (json_node_get_string (id),
                                              node_number (score),
                                              text != NULL && node_is_string (text) ? json_node_get_string (text) : NULL));
    }
  g_clear_pointer (&self->retrieved, g_ptr_array_unref);
  self->retrieved = g_steal_pointer (&hits);
  return TRUE;
}

static gboolean
read_latency (GrammarRecord  *self,
              JsonNode       *node,
              GError        **error)
{
  if (JSON_NODE_HOLDS_NULL (node))
    {
      self->latency_ms = -1.0;
      return TRUE;
    }
  if (!node_is_number (node) || node_number (node) < 0.0)
    return invalid_member (error, "latency_ms", "a number of milliseconds, not negative");
  self->latency_ms = node_number (node);
  return TRUE;
}

static gboolean
read_samples_failed (GrammarRecord  *self,
                     JsonNode       *node,
                     GError        **error)
{
  double n = node_is_number (node) ? node_number (node) : -1.0;

  if (n < 0.0 || n != floor (n) || n > G_MAXUINT)
    return invalid_member (error, "samples_failed", "a whole number, not negative");
  self->samples_failed = (guint) n;
  return TRUE;
}

static gboolean
read_judge (GrammarRecord       *self,
            JsonNode            *node,
            GrammarVerdictKind   kind,
            GError             **error)
{
  static const char expected[] = "an object with a string “matcher”, a number “score” and a string “reason”";
  g_autofree char *matcher = NULL;
  g_autofree char *reason = NULL;
  double score = kind == GRAMMAR_VERDICT_CORRECT ? 1.0 : 0.0;

  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      JsonObject *object;
      JsonNode *member;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return invalid_member (error, "judge", expected);
      object = json_node_get_object (node);

      member = json_object_get_member (object, "matcher");
      if (member != NULL && !read_nullable_string (member, "judge", &matcher, NULL))
        return invalid_member (error, "judge", expected);
      member = json_object_get_member (object, "reason");
      if (member != NULL && !read_nullable_string (member, "judge", &reason, NULL))
        return invalid_member (error, "judge", expected);
      member = json_object_get_member (object, "score");
      if (member != NULL)
        {
          if (!node_is_number (member))
            return invalid_member (error, "judge", expected);
          score = node_number (member);
        }
    }

  g_clear_object (&self->verdict);
  self->verdict = grammar_verdict_new (kind, score, reason, matcher);
  return TRUE;
}

/**
 * grammar_record_new_from_json:
 * @node: a JSON object, one line of a JSON Lines file
 * @error: return location for a #GError
 *
 * Reads a record. Members of the wrong type fail with
 * %GRAMMAR_ERROR_INVALID_INPUT and a message that names the member;
 * unknown members are kept and written back by grammar_record_to_json().
 * No member is required: each stage checks for the members it needs.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL with @error set
 */
GrammarRecord *
grammar_record_new_from_json (JsonNode  *node,
                              GError   **error)
{
  g_autoptr (GrammarRecord) self = NULL;
  g_autoptr (GList) members = NULL;
  JsonObject *object;
  JsonNode *verdict = NULL;
  JsonNode *judge = NULL;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                           "a record must be a JSON object");
      return NULL;
    }

  self = grammar_record_new ();
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *member = json_object_get_member (object, name);
      gboolean ok = TRUE;

      if (g_str_equal (name, "id"))
        ok = read_string (member, name, &self->id, error);
      else if (g_str_equal (name, "group"))
        ok = read_string (member, name, &self->group, error);
      else if (g_str_equal (name, "template"))
        ok = read_string (member, name, &self->template_id, error);
      else if (g_str_equal (name, "style"))
        ok = read_string (member, name, &self->style, error);
      else if (g_str_equal (name, "text"))
        ok = read_string (member, name, &self->text, error);
      else if (g_str_equal (name, "sql"))
        ok = read_string (member, name, &self->sql, error);
      else if (g_str_equal (name, "bindings"))
        {
          if (!JSON_NODE_HOLDS_OBJECT (member))
            ok = invalid_member (error, name, "an object");
          else
            {
              g_clear_pointer (&self->bindings, json_node_unref);
              self->bindings = deep_copy (member);
            }
        }
      else if (g_str_equal (name, "answer"))
        ok = read_answer (self, member, error);
      else if (g_str_equal (name, "doc_ids"))
        ok = read_strings (member, name, &self->doc_ids, error);
      else if (g_str_equal (name, "response"))
        ok = self->has_response = read_nullable_string (member, name, &self->response, error);
      else if (g_str_equal (name, "samples"))
        ok = read_strings (member, name, &self->samples, error);
      else if (g_str_equal (name, "samples_failed"))
        ok = read_samples_failed (self, member, error);
      else if (g_str_equal (name, "sample_error"))
        ok = read_nullable_string (member, name, &self->sample_error, error);
      else if (g_str_equal (name, "assessment"))
        ok = read_assessment (self, member, error);
      else if (g_str_equal (name, "retrieved"))
        ok = read_retrieved (self, member, error);
      else if (g_str_equal (name, "error"))
        ok = self->has_error = read_nullable_string (member, name, &self->error, error);
      else if (g_str_equal (name, "latency_ms"))
        ok = read_latency (self, member, error);
      else if (g_str_equal (name, "verdict"))
        verdict = member;  /* read once its judge is known */
      else if (g_str_equal (name, "judge"))
        judge = member;
      else if (g_str_equal (name, "retrieval"))
        ok = self->has_retrieval = read_verdict_kind (member, name, &self->retrieval, error);
      else
        json_object_set_member (self->unknown, name, deep_copy (member));

      if (!ok)
        return NULL;
    }

  if (verdict != NULL)
    {
      GrammarVerdictKind kind;

      if (!read_verdict_kind (verdict, "verdict", &kind, error) ||
          !read_judge (self, judge, kind, error))
        return NULL;
    }
  else if (judge != NULL)
    {
      g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                           "member “judge” needs a member “verdict”");
      return NULL;
    }

  return g_steal_pointer (&self);
}

/* Writing */

static void
add_string_member (JsonBuilder *builder,
                   const char  *name,
                   const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_number_member (JsonBuilder *builder,
                   const char  *name,
                   double       value)
{
  json_builder_set_member_name (builder, name);
  /* JSON has no NaN nor infinity */
  json_builder_add_double_value (builder, isfinite (value) ? value : 0.0);
}

/* json-glib prints every double with 17 digits (12.300000000000001):
 * whole milliseconds, the usual case, are written as integers. */
static void
add_latency_member (JsonBuilder *builder,
                    double       latency_ms)
{
  json_builder_set_member_name (builder, "latency_ms");
  if (latency_ms == floor (latency_ms) && latency_ms < 9007199254740992.0)
    json_builder_add_int_value (builder, (gint64) latency_ms);
  else
    json_builder_add_double_value (builder, latency_ms);
}

static void
add_unknown_member (JsonObject  *object,
                    const char  *name,
                    JsonNode    *member,
                    gpointer     user_data)
{
  JsonBuilder *builder = user_data;

  json_builder_set_member_name (builder, name);
  json_builder_add_value (builder, deep_copy (member));
}

/**
 * grammar_record_to_json:
 * @self: a #GrammarRecord
 *
 * Describes the record as one JSON object, with the members that are
 * set in a stable order and then the unknown members that were read,
 * in their original order.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
grammar_record_to_json (GrammarRecord *self)
{
  g_autoptr (JsonBuilder) builder = NULL;

  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);

  builder = json_builder_new ();
  json_builder_begin_object (builder);

  if (self->id != NULL)
    add_string_member (builder, "id", self->id);
  if (self->group != NULL)
    add_string_member (builder, "group", self->group);
  if (self->template_id != NULL)
    add_string_member (builder, "template", self->template_id);
  if (self->style != NULL)
    add_string_member (builder, "style", self->style);
  if (self->text != NULL)
    add_string_member (builder, "text", self->text);
  if (self->sql != NULL)
    add_string_member (builder, "sql", self->sql);

  if (self->bindings != NULL)
    {
      json_builder_set_member_name (builder, "bindings");
      json_builder_add_value (builder, deep_copy (self->bindings));
    }
  if (self->answer != NULL)
    {
      json_builder_set_member_name (builder, "answer");
      json_builder_add_value (builder, deep_copy (self->answer));
    }
  if (self->doc_ids != NULL)
    {
      json_builder_set_member_name (builder, "doc_ids");
      json_builder_begin_array (builder);
      for (guint i = 0; self->doc_ids[i] != NULL; i++)
        json_builder_add_string_value (builder, self->doc_ids[i]);
      json_builder_end_array (builder);
    }

  if (self->has_response)
    add_string_member (builder, "response", self->response);
  if (self->samples != NULL)
    {
      json_builder_set_member_name (builder, "samples");
      json_builder_begin_array (builder);
      for (guint i = 0; self->samples[i] != NULL; i++)
        json_builder_add_string_value (builder, self->samples[i]);
      json_builder_end_array (builder);
    }
  if (self->samples_failed > 0)
    {
      json_builder_set_member_name (builder, "samples_failed");
      json_builder_add_int_value (builder, self->samples_failed);
      if (self->sample_error != NULL)
        add_string_member (builder, "sample_error", self->sample_error);
    }
  if (self->retrieved != NULL)
    {
      json_builder_set_member_name (builder, "retrieved");
      json_builder_begin_array (builder);
      for (guint i = 0; i < self->retrieved->len; i++)
        {
          GrammarHit *hit = g_ptr_array_index (self->retrieved, i);

          json_builder_begin_object (builder);
          add_string_member (builder, "id", grammar_hit_get_document_id (hit));
          add_number_member (builder, "score", grammar_hit_get_score (hit));
          if (grammar_hit_get_text (hit) != NULL)
            add_string_member (builder, "text", grammar_hit_get_text (hit));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }
  if (self->has_error)
    add_string_member (builder, "error", self->error);
  if (self->latency_ms >= 0.0)
    add_latency_member (builder, self->latency_ms);

  if (self->verdict != NULL)
    add_string_member (builder, "verdict",
                       grammar_verdict_kind_to_string (grammar_verdict_get_kind (self->verdict)));
  if (self->has_retrieval)
    add_string_member (builder, "retrieval", grammar_verdict_kind_to_string (self->retrieval));
  if (self->verdict != NULL)
    {
      json_builder_set_member_name (builder, "judge");
      json_builder_begin_object (builder);
      if (grammar_verdict_get_matcher (self->verdict) != NULL)
        add_string_member (builder, "matcher", grammar_verdict_get_matcher (self->verdict));
      add_number_member (builder, "score", grammar_verdict_get_score (self->verdict));
      if (grammar_verdict_get_reason (self->verdict) != NULL)
        add_string_member (builder, "reason", grammar_verdict_get_reason (self->verdict));
      json_builder_end_object (builder);
    }
  if (self->scores != NULL)
    {
      json_builder_set_member_name (builder, "assessment");
      json_builder_begin_object (builder);
      for (guint i = 0; i < self->scores->len; i++)
        {
          GrammarScore *score = g_ptr_array_index (self->scores, i);

          json_builder_set_member_name (builder, grammar_score_get_metric (score));
          json_builder_add_value (builder, grammar_score_to_json (score));
        }
      json_builder_end_object (builder);
    }

  json_object_foreach_member (self->unknown, add_unknown_member, builder);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* Accessors */

static void
replace_string (char       **field,
                const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
}

/**
 * grammar_record_get_id:
 * @self: a #GrammarRecord
 *
 * Returns: (nullable): the identifier of the query, unique in its dataset, or %NULL when unset
 */
const char *
grammar_record_get_id (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->id;
}

/**
 * grammar_record_set_id:
 * @self: a #GrammarRecord
 * @id: (nullable): the identifier of the query, or %NULL to unset it
 *
 * Sets the identifier of the query, member `id`.
 */
void
grammar_record_set_id (GrammarRecord *self,
                       const char    *id)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  replace_string (&self->id, id);
}

/**
 * grammar_record_get_group:
 * @self: a #GrammarRecord
 *
 * Returns: (nullable): the group of the query (the queries made from one SQL query with one set of bindings), or %NULL when unset
 */
const char *
grammar_record_get_group (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->group;
}

/**
 * grammar_record_set_group:
 * @self: a #GrammarRecord
 * @group: (nullable): the group of the query, or %NULL to unset it
 *
 * Sets the group of the query, member `group`. Queries of one group ask
 * the same thing in different words, and share their answer.
 */
void
grammar_record_set_group (GrammarRecord *self,
                          const char    *group)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  replace_string (&self->group, group);
}

/**
 * grammar_record_get_template:
 * @self: a #GrammarRecord
 *
 * Returns: (nullable): the identifier of the template the query was made from, or %NULL when unset
 */
const char *
grammar_record_get_template (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->template_id;
}

/**
 * grammar_record_set_template:
 * @self: a #GrammarRecord
 * @template_id: (nullable): the identifier of the template, or %NULL to unset it
 *
 * Sets the template the query was made from, member `template`.
 */
void
grammar_record_set_template (GrammarRecord *self,
                             const char    *template_id)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  replace_string (&self->template_id, template_id);
}

/**
 * grammar_record_get_style:
 * @self: a #GrammarRecord
 *
 * Returns: (nullable): the wording style of the query, or %NULL when unset
 */
const char *
grammar_record_get_style (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->style;
}

/**
 * grammar_record_set_style:
 * @self: a #GrammarRecord
 * @style: (nullable): the wording style of the query, or %NULL to unset it
 *
 * Sets the wording style of the query, member `style`.
 */
void
grammar_record_set_style (GrammarRecord *self,
                          const char    *style)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  replace_string (&self->style, style);
}

/**
 * grammar_record_get_text:
 * @self: a #GrammarRecord
 *
 * Returns: (nullable): the text of the query, or %NULL when unset
 */
const char *
grammar_record_get_text (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->text;
}

/**
 * grammar_record_set_text:
 * @self: a #GrammarRecord
 * @text: (nullable): the text of the query, or %NULL to unset it
 *
 * Sets the text of the query, member `text`: what the system under
 * test is asked.
 */
void
grammar_record_set_text (GrammarRecord *self,
                         const char    *text)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  replace_string (&self->text, text);
}

/**
 * grammar_record_get_sql:
 * @self: a #GrammarRecord
 *
 * Returns: (nullable): the SQL query whose result is the true answer, or %NULL when unset
 */
const char *
grammar_record_get_sql (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->sql;
}

/**
 * grammar_record_set_sql:
 * @self: a #GrammarRecord
 * @sql: (nullable): the SQL query, or %NULL to unset it
 *
 * Sets the SQL query whose result is the true answer, member `sql`.
 */
void
grammar_record_set_sql (GrammarRecord *self,
                        const char    *sql)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  replace_string (&self->sql, sql);
}

/**
 * grammar_record_get_bindings:
 * @self: a #GrammarRecord
 *
 * Returns: (transfer none) (nullable): the JSON object of placeholder values, or %NULL when unset
 */
JsonNode *
grammar_record_get_bindings (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->bindings;
}

/**
 * grammar_record_set_bindings:
 * @self: a #GrammarRecord
 * @bindings: (nullable) (transfer none): a JSON object from placeholder names to their values, or %NULL to unset it
 *
 * Sets the values the template's placeholders were filled with, member
 * `bindings`. The record keeps a copy of @bindings.
 */
void
grammar_record_set_bindings (GrammarRecord *self,
                             JsonNode      *bindings)
{
  JsonNode *copy;

  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  g_return_if_fail (bindings == NULL || JSON_NODE_HOLDS_OBJECT (bindings));

  copy = bindings != NULL ? deep_copy (bindings) : NULL;
  g_clear_pointer (&self->bindings, json_node_unref);
  self->bindings = copy;
}

/**
 * grammar_record_get_answer:
 * @self: a #GrammarRecord
 *
 * Returns: (transfer none) (nullable): the JSON array of answer rows, or %NULL when unset
 */
JsonNode *
grammar_record_get_answer (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->answer;
}

/**
 * grammar_record_set_answer:
 * @self: a #GrammarRecord
 * @answer: (nullable) (transfer none): a JSON array of rows, each an array of values, as grammar_result_to_json() makes; or %NULL to unset it
 *
 * Sets the true answer, member `answer`. The record keeps a copy of
 * @answer.
 */
void
grammar_record_set_answer (GrammarRecord *self,
                           JsonNode      *answer)
{
  JsonNode *copy;

  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  g_return_if_fail (answer == NULL || JSON_NODE_HOLDS_ARRAY (answer));

  copy = answer != NULL ? deep_copy (answer) : NULL;
  g_clear_pointer (&self->answer, json_node_unref);
  self->answer = copy;
}

/**
 * grammar_record_get_doc_ids:
 * @self: a #GrammarRecord
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the identifiers of the documents that hold the answer, or %NULL when unset
 */
const char * const *
grammar_record_get_doc_ids (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return (const char * const *) self->doc_ids;
}

/**
 * grammar_record_set_doc_ids:
 * @self: a #GrammarRecord
 * @doc_ids: (nullable) (array zero-terminated=1): the identifiers of the documents, or %NULL to unset them
 *
 * Sets the documents that hold the answer, member `doc_ids`: the
 * relevant documents a retriever should find. An empty list is set
 * (and written) as such.
 */
void
grammar_record_set_doc_ids (GrammarRecord      *self,
                            const char * const *doc_ids)
{
  GStrv copy;

  g_return_if_fail (GRAMMAR_IS_RECORD (self));

  copy = g_strdupv ((GStrv) doc_ids);
  g_strfreev (self->doc_ids);
  self->doc_ids = copy;
}

/**
 * grammar_record_get_response:
 * @self: a #GrammarRecord
 *
 * Returns: (nullable): the response of the system under test, or %NULL when it gave none or none was set
 */
const char *
grammar_record_get_response (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->response;
}

/**
 * grammar_record_set_response:
 * @self: a #GrammarRecord
 * @response: (nullable): the response, or %NULL when the system gave none
 *
 * Sets the response of the system under test, member `response`. Once
 * set, the member is written, as null when @response is %NULL.
 */
void
grammar_record_set_response (GrammarRecord *self,
                             const char    *response)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  replace_string (&self->response, response);
  self->has_response = TRUE;
}

/**
 * grammar_record_get_retrieved:
 * @self: a #GrammarRecord
 *
 * Returns: (transfer none) (nullable) (element-type GrammarHit): the documents the system retrieved, in rank order, or %NULL when unset (the query failed, or the system did not report its documents)
 */
GPtrArray *
grammar_record_get_retrieved (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->retrieved;
}

/**
 * grammar_record_has_retrieved:
 * @self: a #GrammarRecord
 *
 * Whether the record has a `retrieved` member, even an empty one: the
 * system reported its documents. Without one the query failed or the
 * system did not report them, and retrieval is unmeasured. Bindings
 * that turn a %NULL array into an empty list (PyGObject does) tell the
 * two apart with this.
 *
 * Returns: %TRUE when grammar_record_get_retrieved() is not %NULL
 */
gboolean
grammar_record_has_retrieved (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), FALSE);
  return self->retrieved != NULL;
}

/**
 * grammar_record_set_retrieved:
 * @self: a #GrammarRecord
 * @retrieved: (nullable) (element-type GrammarHit) (transfer none): the retrieved documents in rank order, or %NULL to unset them
 *
 * Sets the documents the system under test retrieved, member
 * `retrieved`. The hits are referenced, not the array itself.
 */
void
grammar_record_set_retrieved (GrammarRecord *self,
                              GPtrArray     *retrieved)
{
  GPtrArray *copy = NULL;

  g_return_if_fail (GRAMMAR_IS_RECORD (self));

  if (retrieved != NULL)
    {
      for (guint i = 0; i < retrieved->len; i++)
        g_return_if_fail (GRAMMAR_IS_HIT (g_ptr_array_index (retrieved, i)));

      copy = g_ptr_array_new_full (retrieved->len, g_object_unref);
      for (guint i = 0; i < retrieved->len; i++)
        g_ptr_array_add (copy, g_object_ref (g_ptr_array_index (retrieved, i)));
    }
  g_clear_pointer (&self->retrieved, g_ptr_array_unref);
  self->retrieved = copy;
}

/**
 * grammar_record_get_error:
 * @self: a #GrammarRecord
 *
 * Returns: (nullable): why the system under test gave no response, or %NULL
 */
const char *
grammar_record_get_error (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->error;
}

/**
 * grammar_record_set_error:
 * @self: a #GrammarRecord
 * @error: (nullable): the message of the failure, or %NULL when there was none
 *
 * Sets why the system under test gave no response, member `error`. Once
 * set, the member is written, as null when @error is %NULL.
 */
void
grammar_record_set_error (GrammarRecord *self,
                          const char    *error)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  replace_string (&self->error, error);
  self->has_error = TRUE;
}

/**
 * grammar_record_get_latency_ms:
 * @self: a #GrammarRecord
 *
 * Returns: how long the system under test took to answer, in milliseconds, or a negative number when unset
 */
double
grammar_record_get_latency_ms (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), -1.0);
  return self->latency_ms;
}

/**
 * grammar_record_set_latency_ms:
 * @self: a #GrammarRecord
 * @latency_ms: the time in milliseconds, or a negative number to unset it
 *
 * Sets how long the system under test took to answer, member
 * `latency_ms`, written once set.
 */
void
grammar_record_set_latency_ms (GrammarRecord *self,
                               double         latency_ms)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  self->latency_ms = isfinite (latency_ms) && latency_ms >= 0.0 ? latency_ms : -1.0;
}

/**
 * grammar_record_get_verdict:
 * @self: a #GrammarRecord
 *
 * Returns: (transfer none) (nullable): the verdict on the response, or %NULL when it was not judged
 */
GrammarVerdict *
grammar_record_get_verdict (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->verdict;
}

/**
 * grammar_record_set_verdict:
 * @self: a #GrammarRecord
 * @verdict: (nullable): the verdict of a matcher, or %NULL to unset it
 *
 * Sets the verdict on the response: its kind is written as member
 * `verdict`, its score, reason and matcher as member `judge`.
 */
void
grammar_record_set_verdict (GrammarRecord  *self,
                            GrammarVerdict *verdict)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  g_return_if_fail (verdict == NULL || GRAMMAR_IS_VERDICT (verdict));

  g_set_object (&self->verdict, verdict);
}

/**
 * grammar_record_get_retrieval_verdict:
 * @self: a #GrammarRecord
 *
 * Returns: whether the system retrieved the documents that hold the answer; %GRAMMAR_VERDICT_UNMEASURED until set
 */
GrammarVerdictKind
grammar_record_get_retrieval_verdict (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), GRAMMAR_VERDICT_UNMEASURED);
  return self->retrieval;
}

/**
 * grammar_record_set_retrieval_verdict:
 * @self: a #GrammarRecord
 * @retrieval: whether the system retrieved the documents that hold the answer
 *
 * Sets the retrieval verdict, member `retrieval`, written once set.
 */
void
grammar_record_set_retrieval_verdict (GrammarRecord      *self,
                                      GrammarVerdictKind  retrieval)
{
  g_return_if_fail (GRAMMAR_IS_RECORD (self));
  g_return_if_fail ((guint) retrieval <= GRAMMAR_VERDICT_INCORRECT);

  self->retrieval = retrieval;
  self->has_retrieval = TRUE;
}

/**
 * grammar_record_get_samples:
 * @self: a #GrammarRecord
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the
 *   stochastic samples the system gave besides the response, or %NULL
 *   when the record has none
 */
const char * const *
grammar_record_get_samples (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return (const char * const *) self->samples;
}

/**
 * grammar_record_set_samples:
 * @self: a #GrammarRecord
 * @samples: (nullable) (array zero-terminated=1): the samples, or %NULL
 *   to unset them
 *
 * Sets the stochastic samples of the system under test, member `samples`.
 */
void
grammar_record_set_samples (GrammarRecord      *self,
                            const char * const *samples)
{
  GStrv copy;

  g_return_if_fail (GRAMMAR_IS_RECORD (self));

  copy = g_strdupv ((GStrv) samples);
  g_strfreev (self->samples);
  self->samples = copy;
}

/**
 * grammar_record_get_samples_failed:
 * @self: a #GrammarRecord
 *
 * Returns: how many of the samples asked for failed and are missing
 *   from grammar_record_get_samples(), member `samples_failed`
 */
guint
grammar_record_get_samples_failed (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), 0);
  return self->samples_failed;
}

/**
 * grammar_record_get_sample_error:
 * @self: a #GrammarRecord
 *
 * Returns: (transfer none) (nullable): why the first failed sample
 *   failed, member `sample_error`, or %NULL
 */
const char *
grammar_record_get_sample_error (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->sample_error;
}

/**
 * grammar_record_set_samples_failed:
 * @self: a #GrammarRecord
 * @n_failed: how many samples failed, 0 to unset
 * @first_error: (nullable): the error of the first of them
 *
 * Sets members `samples_failed` and `sample_error`, written only when
 * @n_failed is not 0.
 */
void
grammar_record_set_samples_failed (GrammarRecord *self,
                                   guint          n_failed,
                                   const char    *first_error)
{
  char *copy;

  g_return_if_fail (GRAMMAR_IS_RECORD (self));

  copy = n_failed > 0 ? g_strdup (first_error) : NULL;
  g_free (self->sample_error);
  self->sample_error = copy;
  self->samples_failed = n_failed;
}

/**
 * grammar_record_get_scores:
 * @self: a #GrammarRecord
 *
 * Returns: (transfer none) (nullable) (element-type GrammarScore): the
 *   scores of the metrics that assessed the record, in the order they
 *   are written, or %NULL when it was not assessed
 */
GPtrArray *
grammar_record_get_scores (GrammarRecord *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  return self->scores;
}

/**
 * grammar_record_get_score:
 * @self: a #GrammarRecord
 * @metric: the name of a metric
 *
 * Returns: (transfer none) (nullable): the score of @metric, or %NULL
 */
GrammarScore *
grammar_record_get_score (GrammarRecord *self,
                          const char    *metric)
{
  g_return_val_if_fail (GRAMMAR_IS_RECORD (self), NULL);
  g_return_val_if_fail (metric != NULL, NULL);

  for (guint i = 0; self->scores != NULL && i < self->scores->len; i++)
    if (g_strcmp0 (grammar_score_get_metric (g_ptr_array_index (self->scores, i)), metric) == 0)
      return g_ptr_array_index (self->scores, i);
  return NULL;
}

/**
 * grammar_record_set_scores:
 * @self: a #GrammarRecord
 * @scores: (nullable) (element-type GrammarScore) (transfer none): the
 *   scores, each with its metric name set, or %NULL to unset them
 *
 * Sets the member `assessment`: one score per metric, by its name.
 */
void
grammar_record_set_scores (GrammarRecord *self,
                           GPtrArray     *scores)
{
  GPtrArray *copy = NULL;

  g_return_if_fail (GRAMMAR_IS_RECORD (self));

  if (scores != NULL)
    {
      copy = g_ptr_array_new_with_free_func (g_object_unref);
      for (guint i = 0; i < scores->len; i++)
        {
          g_return_if_fail (grammar_score_get_metric (g_ptr_array_index (scores, i)) != NULL);
          g_ptr_array_add (copy, g_object_ref (g_ptr_array_index (scores, i)));
        }
    }
  g_clear_pointer (&self->scores, g_ptr_array_unref);
  self->scores = copy;
}

static gboolean
write_records (GOutputStream  *stream,
               gpointer        user_data,
               GCancellable   *cancellable,
               GError        **error)
{
  GPtrArray *records = user_data;
  for (guint i = 0; i < records->len; i++)
    {
      g_autoptr (JsonNode) node = grammar_record_to_json (g_ptr_array_index (records, i));
      g_autofree char *line = NULL;
      gsize length;

      line = grammar_json_to_data (node, 0, &length);
      if (!g_output_stream_write_all (stream, line, length, NULL, cancellable, error) ||
          !g_output_stream_write_all (stream, "\n", 1, NULL, cancellable, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * grammar_record_save_jsonl:
 * @records: (element-type GrammarRecord): the records, in the order to write
 * @path: (type filename): the JSON Lines file to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes @records to @path, one grammar_record_to_json() line each, all
 * at once or not at all: the lines go to a temporary file in the same
 * folder that replaces @path only when everything was written, so a
 * failed or interrupted write leaves the previous file, or none.
 *
 * Returns: %TRUE on success, %FALSE with @error set (its message names
 *   @path)
 */
gboolean
grammar_record_save_jsonl (GPtrArray     *records,
                           const char    *path,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_return_val_if_fail (records != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return grammar_file_write_atomically (path, write_records, records, cancellable, error);
}
