/* grammar-json-pointer.c: RFC 6901 JSON pointers into json-glib trees
 *
 * A pointer is "" (the whole document) or a sequence of "/token"; in a
 * token "~1" stands for "/" and "~0" for "~". A token selects an object
 * member by name, or an array element by a decimal index without
 * leading zeros.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <grammar.h>

#include "grammar-json-pointer.h"

/*
 * grammar_json_pointer_check:
 * @pointer: a JSON pointer
 * @error: return location for a #GError
 *
 * Checks the syntax of @pointer: empty, or starting with "/", and every
 * "~" followed by "0" or "1".
 *
 * Returns: %TRUE when @pointer is valid, else %FALSE with @error set
 * (%GRAMMAR_CONFIG_ERROR_BAD_VALUE)
 */
gboolean
grammar_json_pointer_check (const char  *pointer,
                            GError     **error)
{
  if (pointer[0] != '\0' && pointer[0] != '/')
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "“%s” is not a JSON pointer: it must be empty or start with “/” (e.g. /answer)", pointer);
      return FALSE;
    }
  for (const char *p = pointer; *p != '\0'; p++)
    if (p[0] == '~' && p[1] != '0' && p[1] != '1')
      {
        g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                     "“%s” is not a JSON pointer: “~” must be followed by 0 (for ~) or 1 (for /)", pointer);
        return FALSE;
      }
  return TRUE;
}

/* The reference token that starts at @start and ends before @end,
 * unescaped. Both escapes are replaced in one pass, so "~01" is "~1". */
static char *
unescape_token (const char *start,
                const char *end)
{
  GString *token = g_string_sized_new ((gsize) (end - start));

  for (const char *p = start; p < end; p++)
    {
      if (p[0] == '~' && p + 1 < end && (p[1] == '0' || p[1] == '1'))
        {
          g_string_append_c (token, p[1] == '0' ? '~' : '/');
          p++;
        }
      else
        g_string_append_c (token, *p);
    }
  return g_string_free (token, FALSE);
}

/* An array index: "0" or digits without a leading zero; "-" (the
 * element after the last) never exists in a reply. */
static gboolean
parse_index (const char *token,
             guint      *index)
{
  guint64 value;

  if (token[0] == '\0' || (token[0] == '0' && token[1] != '\0'))
    return FALSE;
  for (const char *p = token; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  if (!g_ascii_string_to_unsigned (token, 10, 0, G_MAXUINT, &value, NULL))
    return FALSE;
  *index = (guint) value;
  return TRUE;
}

static JsonNode *
step (JsonNode   *node,
      const char *token)
{
  guint index;

  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_object_get_member (json_node_get_object (node), token);
  if (JSON_NODE_HOLDS_ARRAY (node) && parse_index (token, &index))
    {
      JsonArray *array = json_node_get_array (node);

      return index < json_array_get_length (array) ? json_array_get_element (array, index) : NULL;
    }
  return NULL;
}

/*
 * grammar_json_pointer_resolve:
 * @root: the document
 * @pointer: a JSON pointer that grammar_json_pointer_check() accepts
 *
 * Returns: (transfer none) (nullable): the node @pointer refers to in
 * @root, or %NULL when there is none
 */
JsonNode *
grammar_json_pointer_resolve (JsonNode   *root,
                              const char *pointer)
{
  JsonNode *node = root;
  const char *p = pointer;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (pointer != NULL, NULL);

  if (p[0] == '\0')
    return root;
  if (p[0] != '/')
    return NULL;
  while (node != NULL && *p == '/')
    {
      const char *start = p + 1;
      const char *end = strchr (start, '/');
      g_autofree char *token = NULL;

      if (end == NULL)
        end = start + strlen (start);
      token = unescape_token (start, end);
      node = step (node, token);
      p = end;
    }
  return node;
}

#define MAX_KEYS_SHOWN 12

/*
 * grammar_json_node_kind:
 * @node: a JSON node
 *
 * Returns: what @node holds, for messages: "an object", "an array",
 *   "null", "a string", "a boolean" or "a number"
 */
const char *
grammar_json_node_kind (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "an array";
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING: return "a string";
    case G_TYPE_BOOLEAN: return "a boolean";
    default: return "a number";
    }
}

/*
 * grammar_json_pointer_describe_miss:
 * @root: the document
 * @pointer: a JSON pointer that grammar_json_pointer_check() accepts and
 *   that matches nothing in @root
 * @root_name: what @root is called in the message, such as "the item"
 *
 * Says where @pointer stops matching, so that a user can mend it: the
 * keys of the last object it reached (“the item has the keys “doc_id”,
 * “snippet””), the length of the last array, or the kind of the last
 * value.
 *
 * Returns: (transfer full): the description
 */
char *
grammar_json_pointer_describe_miss (JsonNode   *root,
                                    const char *pointer,
                                    const char *root_name)
{
  JsonNode *node = root;
  const char *p = pointer;
  g_autofree char *reached = NULL;   /* the pointer to node */
  g_autofree char *where = NULL;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (pointer != NULL, NULL);

  reached = g_strdup ("");
  while (*p == '/')
    {
      const char *start = p + 1;
      const char *end = strchr (start, '/');
      g_autofree char *token = NULL;
      JsonNode *next;

      if (end == NULL)
        end = start + strlen (start);
      token = unescape_token (start, end);
      next = step (node, token);
      if (next == NULL)
        break;
      node = next;
      g_free (reached);
      reached = g_strndup (pointer, (gsize) (end - pointer));
      p = end;
    }

  where = reached[0] == '\0' ? g_strdup (root_name) : g_strdup_printf ("“%s” in %s", reached, root_name);
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr (GList) members = json_object_get_members (object);
      GString *text = g_string_new (where);
      guint shown = 0;

      if (members == NULL)
        {
          g_string_append (text, " is an empty object");
          return g_string_free (text, FALSE);
        }
      g_string_append (text, members->next == NULL ? " has the key " : " has the keys ");
      for (GList *l = members; l != NULL && shown < MAX_KEYS_SHOWN; l = l->next, shown++)
        g_string_append_printf (text, "%s“%s”", shown > 0 ? ", " : "", (const char *) l->data);
      if (g_list_length (members) > MAX_KEYS_SHOWN)
        g_string_append_printf (text, " and %u more", g_list_length (members) - MAX_KEYS_SHOWN);
      return g_string_free (text, FALSE);
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      guint length = json_array_get_length (json_node_get_array (node));

      return g_strdup_printf ("%s is an array of %u item%s", where, length, length == 1 ? "" : "s");
    }
  return g_strdup_printf ("%s is %s", where, grammar_json_node_kind (node));
}

/* Replaces the element @index of the array that @parent holds by
 * @value: json-glib cannot replace an element, so @parent gets a new
 * array with the other elements (their nodes copied, sharing what they
 * hold). */
static void
replace_element (JsonNode *parent,
                 guint     index,
                 JsonNode *value)
{
  JsonArray *array = json_node_get_array (parent);
  g_autoptr (JsonArray) replaced = json_array_sized_new (json_array_get_length (array));

  for (guint i = 0; i < json_array_get_length (array); i++)
    json_array_add_element (replaced, i == index ? value : json_node_copy (json_array_get_element (array, i)));
  json_node_set_array (parent, replaced);
}

/*
 * grammar_json_pointer_set:
 * @root: the document, changed
 * @pointer: a JSON pointer that grammar_json_pointer_check() accepts, not empty
 * @value: (transfer full): the value to write there
 * @error: return location for a #GError
 *
 * Writes @value where @pointer points in @root: the pointer without its
 * last token must exist; in an object the member is set (added or
 * replaced), in an array the element is replaced, or appended when the
 * last token is "-" or the length of the array.
 *
 * Returns: %TRUE when written, else %FALSE with @error set
 * (%GRAMMAR_CONFIG_ERROR_BAD_VALUE), saying what was missing
 */
gboolean
grammar_json_pointer_set (JsonNode    *root,
                          const char  *pointer,
                          JsonNode    *value,
                          GError     **error)
{
  g_autoptr (JsonNode) owned = value;
  const char *last = strrchr (pointer, '/');
  g_autofree char *parent_pointer = NULL;
  g_autofree char *token = NULL;
  JsonNode *parent;
  guint index;

  g_return_val_if_fail (root != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (pointer[0] != '/' || last == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "“%s” points at the whole document, not at a place in it", pointer);
      return FALSE;
    }
  parent_pointer = g_strndup (pointer, (gsize) (last - pointer));
  token = unescape_token (last + 1, last + 1 + strlen (last + 1));
  parent = grammar_json_pointer_resolve (root, parent_pointer);
  if (parent != NULL && JSON_NODE_HOLDS_OBJECT (parent))
    {
      json_object_set_member (json_node_get_object (parent), token, g_steal_pointer (&owned));
      return TRUE;
    }
  if (parent != NULL && JSON_NODE_HOLDS_ARRAY (parent))
    {
      JsonArray *array = json_node_get_array (parent);
      guint length = json_array_get_length (array);

      if (g_str_equal (token, "-") || (parse_index (token, &index) && index == length))
        {
          json_array_add_element (array, g_steal_pointer (&owned));
          return TRUE;
        }
      if (parse_index (token, &index) && index < length)
        {
          replace_element (parent, index, g_steal_pointer (&owned));
          return TRUE;
        }
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "“%s”: “%s” is not an index of the array at “%s” (%u element%s)", pointer, token,
                   parent_pointer, length, length == 1 ? "" : "s");
      return FALSE;
    }
  g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
               parent == NULL ? "“%s”: nothing is at “%s” to write into"
                              : "“%s”: “%s” is not an object or an array to write into",
               pointer, parent_pointer);
  return FALSE;
}
