/* fuzz-sql-template.c: the SQL template parser and the SQL lexer
 *
 * The input is the SQL of a template (`SELECT … WHERE T.c = [T.c]`). It
 * is cut into tokens by the lexer every SQL reader of libgrammar shares,
 * normalised, parsed as a template and, when that succeeds, filled with
 * values, written as JSON and read back; it is also used as the text of
 * a text template (`What is … [T.c]?`) against a fixed SQL template.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include <grammar.h>

#include "grammar-sql-lexer-private.h"

#include "fuzz-util.h"

static GVariant *
values_for (guint n)
{
  g_autoptr (GVariantBuilder) builder = g_variant_builder_new (G_VARIANT_TYPE ("av"));

  /* Every kind of value a database gives: text with quotes, numbers, null. */
  for (guint i = 0; i < n; i++)
    switch (i % 4)
      {
      case 0: g_variant_builder_add (builder, "v", g_variant_new_string ("O'Brien [x] \"q\"")); break;
      case 1: g_variant_builder_add (builder, "v", g_variant_new_int64 (-42)); break;
      case 2: g_variant_builder_add (builder, "v", g_variant_new_double (1e20)); break;
      default: g_variant_builder_add (builder, "v", g_variant_new_maybe (G_VARIANT_TYPE_STRING, NULL)); break;
      }
  return g_variant_ref_sink (g_variant_builder_end (builder));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *sql = fuzz_strndup (data, size);
  g_autoptr (GrammarSqlTemplate) sql_template = NULL;
  g_autoptr (GrammarSqlTemplate) fixed = NULL;
  g_autoptr (GrammarTextTemplate) text_template = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *normalized = NULL;
  GrammarSqlToken token;

  for (const char *p = grammar_sql_lexer_next (sql, &token); token.kind != GRAMMAR_SQL_TOKEN_END;
       p = grammar_sql_lexer_next (p, &token))
    {
      g_free (grammar_sql_token_unquote (&token));
    }

  normalized = grammar_sql_normalize (sql);

  sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, &error);
  if (sql_template != NULL)
    {
      guint n = grammar_sql_template_get_n_placeholders (sql_template);
      g_autoptr (GVariant) values = values_for (n);
      g_autofree char *filled = grammar_sql_template_fill (sql_template, values);
      g_autoptr (JsonNode) node = grammar_sql_template_to_json (sql_template);
      g_autoptr (GrammarSqlTemplate) again = grammar_sql_template_new_from_json (node, NULL);

      for (guint i = 0; i < n; i++)
        {
          grammar_sql_template_get_placeholder_table (sql_template, i);
          grammar_sql_template_get_placeholder_column (sql_template, i);
        }
      grammar_sql_template_get_tables (sql_template);
      grammar_sql_template_get_bound_sql (sql_template);
    }

  fixed = grammar_sql_template_new ("SELECT m.name FROM member m WHERE m.city = [member.city] AND m.age > [member.age]",
                                    GRAMMAR_TEMPLATE_ORIGIN_MANUAL, NULL);
  g_assert (fixed != NULL);
  text_template = grammar_text_template_new (grammar_sql_template_get_id (fixed), "short", sql);
  g_clear_error (&error);
  if (grammar_text_template_check_placeholders (text_template, fixed, &error))
    {
      g_autoptr (GVariant) values = values_for (2);
      g_autofree char *text = grammar_text_template_fill (text_template, fixed, values);
    }
  return 0;
}
