/* grammar-report-read.c: reading the report JSON: members of any type, numbers, intervals, the required ones
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-error.h"
#include "grammar-report-read-private.h"

/* Every accessor tolerates a missing member or one of another type,
 * which the report shows as GRAMMAR_REPORT_NONE. */

JsonNode *
grammar_report_member (JsonObject *object,
                       const char *name)
{
  return object != NULL ? json_object_get_member (object, name) : NULL;
}

JsonObject *
grammar_report_member_object (JsonObject *object,
                              const char *name)
{
  JsonNode *node = grammar_report_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

JsonArray *
grammar_report_member_array (JsonObject *object,
                             const char *name)
{
  JsonNode *node = grammar_report_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

const char *
grammar_report_member_string (JsonObject *object,
                              const char *name)
{
  JsonNode *node = grammar_report_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING ?
         json_node_get_string (node) : NULL;
}

gboolean
grammar_report_node_number (JsonNode *node,
                            double   *value)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    *value = json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    return FALSE;
  return isfinite (*value);
}

/* The number @name of @object, or NAN. */
double
grammar_report_member_number (JsonObject *object,
                              const char *name)
{
  double value;

  return grammar_report_node_number (grammar_report_member (object, name), &value) ? value : NAN;
}

gboolean
grammar_report_member_boolean (JsonObject *object,
                               const char *name,
                               gboolean   *value)
{
  JsonNode *node = grammar_report_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return FALSE;
  *value = json_node_get_boolean (node);
  return TRUE;
}

/* The bounds of an interval [lo, hi], or FALSE when it is null or malformed. */
gboolean
grammar_report_node_interval (JsonNode *node,
                              double   *lo,
                              double   *hi)
{
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  return json_array_get_length (array) == 2 &&
         grammar_report_node_number (json_array_get_element (array, 0), lo) &&
         grammar_report_node_number (json_array_get_element (array, 1), hi);
}

/* Whether some interval of a mean under @object is the normal one
 * ("method" or, in a paired comparison, "interval_method" is "normal"):
 * more than GRAMMAR_STATS_BOOTSTRAP_LIMIT values were measured. Only
 * then do the captions name it, so that reports small enough for the
 * bootstrap everywhere read as they always did. */
gboolean
grammar_report_has_normal_interval (JsonObject *object)
{
  g_autoptr (GList) names = object != NULL ? json_object_get_members (object) : NULL;

  if (g_strcmp0 (grammar_report_member_string (object, "method"), "normal") == 0 ||
      g_strcmp0 (grammar_report_member_string (object, "interval_method"), "normal") == 0)
    return TRUE;
  for (GList *l = names; l != NULL; l = l->next)
    if (grammar_report_has_normal_interval (grammar_report_member_object (object, l->data)))
      return TRUE;
  return FALSE;
}

/* Checking the required members: the ones every report has, without
 * which the summary would be meaningless. */

static gboolean
require_number (JsonObject  *object,
                const char  *parent,
                const char  *name,
                gboolean     nullable,
                GError     **error)
{
  JsonNode *node = grammar_report_member (object, name);
  g_autofree char *key = parent != NULL ? g_strdup_printf ("%s.%s", parent, name) : g_strdup (name);
  double value;

  if (node == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "the report has no “%s” member", key);
      return FALSE;
    }
  if ((nullable && JSON_NODE_HOLDS_NULL (node)) || grammar_report_node_number (node, &value))
    return TRUE;
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "the report's “%s” must be a number%s", key, nullable ? " or null" : "");
  return FALSE;
}

gboolean
grammar_report_check (JsonNode  *report,
              GError   **error)
{
  static const char * const counts[] = { "instances", "unmeasured" };
  static const char * const tags[] = { "total", "gap", "robust", "non_robust" };
  static const char * const metrics[] = { "accuracy", "robustness", "knowledge_accuracy" };
  JsonObject *root;
  JsonObject *groups;

  if (!JSON_NODE_HOLDS_OBJECT (report))
    {
      g_set_error_literal (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                           "the report must be a JSON object");
      return FALSE;
    }
  root = json_node_get_object (report);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    if (!require_number (root, NULL, counts[i], FALSE, error))
      return FALSE;
  groups = grammar_report_member_object (root, "groups");
  if (groups == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, grammar_report_member (root, "groups") == NULL ?
                   "the report has no “groups” member" : "the report's “groups” must be an object");
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    if (!require_number (groups, "groups", tags[i], FALSE, error))
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    if (!require_number (root, NULL, metrics[i], TRUE, error))
      return FALSE;
  return TRUE;
}
