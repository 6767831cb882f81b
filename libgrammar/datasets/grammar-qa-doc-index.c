/* grammar-qa-doc-index.c: the documents of a QA run, indexed by their source rows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "grammar-qa-generator-private.h"
#include "grammar-document.h"
#include "grammar-error.h"
#include "grammar-value.h"
#include "grammar-file-private.h"
#include "grammar-json-private.h"
#include "grammar-sql-lexer-private.h"
#include "grammar-qa-generator.h"

/* The document index --------------------------------------------------- */

/* The canonical value of a JSON key member, as grammar_qa_append_canonical_value()
 * writes a database value. */
static gboolean
append_canonical_json (GString  *out,
                       JsonNode *node)
{
  const char *number = grammar_json_node_get_number_text (node);
  GType type;

  if (number != NULL)
    {
      g_autoptr (GVariant) value = g_variant_ref_sink (grammar_value_new_decimal (number, -1));

      grammar_qa_append_canonical_value (out, value);
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    grammar_qa_append_canonical_int (out, json_node_get_int (node));
  else if (type == G_TYPE_BOOLEAN)
    grammar_qa_append_canonical_int (out, json_node_get_boolean (node) ? 1 : 0);
  else if (type == G_TYPE_DOUBLE)
    {
      g_autoptr (GVariant) value = g_variant_ref_sink (g_variant_new_double (json_node_get_double (node)));

      grammar_qa_append_canonical_value (out, value);
    }
  else if (type == G_TYPE_STRING)
    g_string_append_printf (out, "s%s", json_node_get_string (node));
  else
    return FALSE;
  return TRUE;
}

static int
compare_key_members (gconstpointer a,
                     gconstpointer b)
{
  return strcmp (((const GrammarQaKeyMember *) a)->lower, ((const GrammarQaKeyMember *) b)->lower);
}

static void
key_member_clear (gpointer data)
{
  g_free (((GrammarQaKeyMember *) data)->lower);
}

/* The canonical text of a document's source row, as grammar_qa_collect_doc_ids()
 * makes it from a query; %FALSE when the document has no source or its
 * key is not an object of numbers and strings. */
static gboolean
document_source_key (JsonParser      *parser,
                     GrammarDocument *document,
                     GString         *out)
{
  const char *table = grammar_document_get_source_table (document);
  const char *key = grammar_document_get_source_key (document);
  JsonNode *node;
  g_autoptr (GArray) members = NULL;
  g_autoptr (GList) names = NULL;
  g_autofree char *lower = NULL;
  JsonObject *object;

  if (table == NULL || key == NULL || !grammar_json_parser_load (parser, key, strlen (key), NULL))
    return FALSE;
  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  object = json_node_get_object (node);
  names = json_object_get_members (object);
  if (names == NULL)
    return FALSE;
  members = g_array_new (FALSE, FALSE, sizeof (GrammarQaKeyMember));
  g_array_set_clear_func (members, key_member_clear);
  for (GList *l = names; l != NULL; l = l->next)
    {
      GrammarQaKeyMember member = { g_ascii_strdown (l->data, -1), l->data };

      g_array_append_val (members, member);
    }
  g_array_sort (members, compare_key_members);

  lower = g_ascii_strdown (table, -1);
  g_string_printf (out, "%s\x1d", lower);
  for (guint m = 0; m < members->len; m++)
    {
      GrammarQaKeyMember *member = &g_array_index (members, GrammarQaKeyMember, m);

      g_string_append_printf (out, "%s=", member->lower);
      if (!append_canonical_json (out, json_object_get_member (object, member->name)))
        return FALSE;
      g_string_append_c (out, '\x1f');
    }
  return TRUE;
}

void
grammar_qa_clear_document_index (GrammarQaGenerator *self)
{
  g_clear_pointer (&self->doc_keys, g_hash_table_unref);
  g_clear_pointer (&self->doc_next, g_array_unref);
  g_clear_pointer (&self->doc_tables, g_hash_table_unref);
}

/* Indexes the documents by their source rows for a run. */
void
grammar_qa_index_documents (GrammarQaGenerator *self)
{
  g_autoptr (GString) key = g_string_new (NULL);
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();

  grammar_qa_clear_document_index (self);
  if (self->documents == NULL)
    return;
  self->doc_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->doc_next = g_array_sized_new (FALSE, TRUE, sizeof (guint), self->documents->len);
  g_array_set_size (self->doc_next, self->documents->len);
  self->doc_tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint d = 0; d < self->documents->len; d++)
    {
      GrammarDocument *document = g_ptr_array_index (self->documents, d);

      if (!document_source_key (parser, document, key))
        continue;
      /* a row's documents are chained, the last one first */
      g_array_index (self->doc_next, guint, d) = GPOINTER_TO_UINT (g_hash_table_lookup (self->doc_keys, key->str));
      g_hash_table_insert (self->doc_keys, g_strdup (key->str), GUINT_TO_POINTER (d + 1));
      g_hash_table_add (self->doc_tables, g_ascii_strdown (grammar_document_get_source_table (document), -1));
    }
}

/* The canonical text of a key value: integers and whole reals alike,
 * since SQL compares them equal. */
void
grammar_qa_append_canonical_int (GString *out,
                                 gint64   value)
{
  char text[24];
  const char *p = grammar_json_format_int (text, value);

  g_string_append_c (out, 'i');
  g_string_append_len (out, p, text + sizeof text - p);
}

/* SQL compares 1.50 equal to 1.5, and 2.00 to the integer 2: a decimal
 * as its digits without the zeros that say nothing, an integer when it
 * is whole and fits one. */
static void
append_canonical_decimal (GString    *out,
                          const char *text)
{
  g_autoptr (GString) digits = g_string_new (text);
  const char *point = strchr (digits->str, '.');
  gint64 whole;

  if (point != NULL)
    {
      while (digits->str[digits->len - 1] == '0')
        g_string_truncate (digits, digits->len - 1);
      if (digits->str[digits->len - 1] == '.')
        g_string_truncate (digits, digits->len - 1);
    }
  if (strcmp (digits->str, "-0") == 0)
    g_string_assign (digits, "0");
  if (g_ascii_string_to_signed (digits->str, 10, G_MININT64, G_MAXINT64, &whole, NULL))
    grammar_qa_append_canonical_int (out, whole);
  else
    g_string_append_printf (out, "n%s", digits->str);
}

void
grammar_qa_append_canonical_value (GString  *out,
                        GVariant *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    grammar_qa_append_canonical_int (out, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    {
      double real = g_variant_get_double (value);
      char text[G_ASCII_DTOSTR_BUF_SIZE];

      if (isfinite (real) && real == floor (real) && fabs (real) < 9.2e18)
        grammar_qa_append_canonical_int (out, (gint64) real);
      else
        g_string_append_printf (out, "d%s", g_ascii_formatd (text, sizeof text, "%.17g", real));
    }
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      g_string_append_c (out, 's');
      g_string_append (out, g_variant_get_string (value, NULL));
    }
  else if (grammar_value_get_decimal (value) != NULL)
    append_canonical_decimal (out, grammar_value_get_decimal (value));
  else
    {
      g_autofree char *text = grammar_value_to_text (value);

      g_string_append_printf (out, "b%s", text);
    }
}
