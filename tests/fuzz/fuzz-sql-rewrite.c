/* fuzz-sql-rewrite.c: a statement rewritten for a server's parameters
 *
 * The input is a statement in SQLite's dialect with `?` and `?N`
 * parameters, as the database plugins receive it; it is rewritten for
 * PostgreSQL (`$N`) and MySQL (`?` in order) with the words and
 * functions those plugins refuse.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <grammar-plugin.h>

#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const refused_words[] = { "INSERT", "UPDATE", "DELETE", "INTO", "COPY", "LOCK", NULL };
  static const char * const refused_functions[] = { "pg_sleep", "sleep", "benchmark", "load_file", NULL };
  g_autofree char *sql = fuzz_strndup (data, size);

  for (GrammarSqlParameterStyle style = GRAMMAR_SQL_PARAMETERS_DOLLAR; style <= GRAMMAR_SQL_PARAMETERS_POSITIONAL;
       style++)
    {
      g_autoptr (GArray) order = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *rewritten = NULL;
      guint n_parameters = 0;

      rewritten = grammar_sql_rewrite_query (sql, style, refused_words, refused_functions, &order, &n_parameters,
                                             &error);
      g_assert ((rewritten != NULL) == (error == NULL));
      /* Each ? of the result takes one of the values the statement says it takes. */
      if (rewritten != NULL && order != NULL)
        for (guint i = 0; i < order->len; i++)
          g_assert (g_array_index (order, guint, i) < n_parameters);
    }
  return 0;
}
