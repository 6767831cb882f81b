/* grammar-qa-generator.c: grounded query-answer pairs from templates and a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-qa-run-private.h"
#include "grammar-qa-generator-private.h"
#include "grammar-database-private.h"
#include "grammar-document.h"
#include "grammar-database.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-sql-lexer-private.h"
#include "grammar-qa-generator.h"

enum
{
  PROP_0,
  PROP_DATABASE,
  PROP_MAX_COMBINATIONS,
  PROP_MAX_ANSWER_ROWS,
  PROP_MAX_ANSWER_BYTES,
  PROP_PER_GROUP,
  PROP_SEED,
  PROP_SET_BASED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_PROGRESS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (GrammarQaGenerator, grammar_qa_generator, G_TYPE_OBJECT)

/* How often, at most, the progress signal is emitted. */

/* Output is written in chunks of about this size. */

static void
grammar_qa_generator_finalize (GObject *object)
{
  GrammarQaGenerator *self = GRAMMAR_QA_GENERATOR (object);

  g_clear_object (&self->database);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  grammar_qa_clear_document_index (self);
  g_ptr_array_unref (self->warnings);
  g_ptr_array_unref (self->left_out);

  G_OBJECT_CLASS (grammar_qa_generator_parent_class)->finalize (object);
}

static void
grammar_qa_generator_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  GrammarQaGenerator *self = GRAMMAR_QA_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_DATABASE:
      g_value_set_object (value, self->database);
      break;
    case PROP_MAX_COMBINATIONS:
      g_value_set_uint64 (value, self->max_combinations);
      break;
    case PROP_MAX_ANSWER_ROWS:
      g_value_set_uint (value, self->max_answer_rows);
      break;
    case PROP_MAX_ANSWER_BYTES:
      g_value_set_uint64 (value, self->max_answer_bytes);
      break;
    case PROP_PER_GROUP:
      g_value_set_uint (value, self->per_group);
      break;
    case PROP_SEED:
      g_value_set_uint64 (value, self->seed);
      break;
    case PROP_SET_BASED:
      g_value_set_boolean (value, self->set_based);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_qa_generator_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  GrammarQaGenerator *self = GRAMMAR_QA_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_DATABASE:
      self->database = g_value_dup_object (value);
      break;
    case PROP_MAX_COMBINATIONS:
      grammar_qa_generator_set_max_combinations (self, g_value_get_uint64 (value));
      break;
    case PROP_MAX_ANSWER_ROWS:
      grammar_qa_generator_set_max_answer_rows (self, g_value_get_uint (value));
      break;
    case PROP_MAX_ANSWER_BYTES:
      grammar_qa_generator_set_max_answer_bytes (self, g_value_get_uint64 (value));
      break;
    case PROP_PER_GROUP:
      grammar_qa_generator_set_per_group (self, g_value_get_uint (value));
      break;
    case PROP_SEED:
      grammar_qa_generator_set_seed (self, g_value_get_uint64 (value));
      break;
    case PROP_SET_BASED:
      grammar_qa_generator_set_set_based (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_qa_generator_class_init (GrammarQaGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_qa_generator_finalize;
  object_class->get_property = grammar_qa_generator_get_property;
  object_class->set_property = grammar_qa_generator_set_property;

  /**
   * GrammarQaGenerator:database:
   *
   * The database that fills the placeholders and answers the queries.
   */
  properties[PROP_DATABASE] =
    g_param_spec_object ("database", NULL, "The database that fills and answers the templates",
                         GRAMMAR_TYPE_DATABASE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarQaGenerator:max-combinations:
   *
   * The largest Cartesian product of distinct placeholder values a
   * template answered per binding may have; a larger one is an error
   * rather than a run of hours. Set-based templates are not limited.
   */
  properties[PROP_MAX_COMBINATIONS] =
    g_param_spec_uint64 ("max-combinations", NULL,
                         "The largest number of placeholder combinations a template answered per binding may have",
                         1, G_MAXUINT64, GRAMMAR_QA_GENERATOR_DEFAULT_MAX_COMBINATIONS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarQaGenerator:max-answer-rows:
   *
   * The most rows the answer of one group may have, or 0 for no limit.
   * A template with a larger answer is left out of the dataset (see
   * grammar_qa_generator_dup_left_out()): an answer of thousands of
   * rows is not one a RAG system can be asked to give, and a template
   * whose answer never ends would otherwise fill the disk.
   */
  properties[PROP_MAX_ANSWER_ROWS] =
    g_param_spec_uint ("max-answer-rows", NULL, "The most rows an answer may have, 0 for no limit",
                       0, G_MAXUINT, GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_ROWS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarQaGenerator:max-answer-bytes:
   *
   * The most bytes the values of one group's answer may have (the
   * length of each text, the size of each blob, 8 for each number, as
   * the database gives them), or 0 for no limit. A template with a
   * larger answer is left out of the dataset (see
   * grammar_qa_generator_dup_left_out()) as soon as the limit is
   * passed, before the answer is held whole or written.
   */
  properties[PROP_MAX_ANSWER_BYTES] =
    g_param_spec_uint64 ("max-answer-bytes", NULL, "The most bytes of values an answer may have, 0 for no limit",
                         0, G_MAXUINT64, GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_BYTES,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarQaGenerator:per-group:
   *
   * The number of text queries each group keeps per style (stratified
   * sampling), or 0 to keep one for every text template.
   */
  properties[PROP_PER_GROUP] =
    g_param_spec_uint ("per-group", NULL, "Text queries per group and style, 0 for all",
                       0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarQaGenerator:seed:
   *
   * The seed of the sampling done for #GrammarQaGenerator:per-group.
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, "The seed of the per-group sampling",
                         0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarQaGenerator:set-based:
   *
   * Whether templates that allow it are answered by one set-based query.
   * When %FALSE every template runs once per combination of values,
   * which gives the same records, only slower; it exists to compare the
   * two plans.
   */
  properties[PROP_SET_BASED] =
    g_param_spec_boolean ("set-based", NULL, "Answer templates that allow it with one set-based query",
                          TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GrammarQaGenerator::progress:
   * @self: the generator
   *
   * Emitted now and then during a run (at most a few times a second, and
   * after each template), so that a user interface can show the counts.
   */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
grammar_qa_generator_init (GrammarQaGenerator *self)
{
  self->max_combinations = GRAMMAR_QA_GENERATOR_DEFAULT_MAX_COMBINATIONS;
  self->max_answer_rows = GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_ROWS;
  self->max_answer_bytes = GRAMMAR_QA_GENERATOR_DEFAULT_MAX_ANSWER_BYTES;
  self->left_out = g_ptr_array_new_with_free_func (g_free);
  self->set_based = TRUE;
  self->warnings = g_ptr_array_new_with_free_func (g_free);
}

/**
 * grammar_qa_generator_new:
 * @database: the database the data comes from
 *
 * Creates a generator that fills and answers templates from @database.
 *
 * Returns: (transfer full): a new #GrammarQaGenerator
 */
GrammarQaGenerator *
grammar_qa_generator_new (GrammarDatabase *database)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (database), NULL);

  return g_object_new (GRAMMAR_TYPE_QA_GENERATOR, "database", database, NULL);
}

/**
 * grammar_qa_generator_get_database:
 * @self: a #GrammarQaGenerator
 *
 * Returns: (transfer none): the database
 */
GrammarDatabase *
grammar_qa_generator_get_database (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), NULL);
  return self->database;
}

/**
 * grammar_qa_generator_get_max_combinations:
 * @self: a #GrammarQaGenerator
 *
 * Returns: the value of #GrammarQaGenerator:max-combinations
 */
guint64
grammar_qa_generator_get_max_combinations (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->max_combinations;
}

/**
 * grammar_qa_generator_set_max_combinations:
 * @self: a #GrammarQaGenerator
 * @max_combinations: the limit, at least 1
 *
 * Sets #GrammarQaGenerator:max-combinations.
 */
void
grammar_qa_generator_set_max_combinations (GrammarQaGenerator *self,
                                           guint64             max_combinations)
{
  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));
  g_return_if_fail (max_combinations > 0);

  if (self->max_combinations == max_combinations)
    return;
  self->max_combinations = max_combinations;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_COMBINATIONS]);
}

/**
 * grammar_qa_generator_get_max_answer_rows:
 * @self: a #GrammarQaGenerator
 *
 * Returns: the value of #GrammarQaGenerator:max-answer-rows
 */
guint
grammar_qa_generator_get_max_answer_rows (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->max_answer_rows;
}

/**
 * grammar_qa_generator_set_max_answer_rows:
 * @self: a #GrammarQaGenerator
 * @max_answer_rows: the limit, or 0 for none
 *
 * Sets #GrammarQaGenerator:max-answer-rows.
 */
void
grammar_qa_generator_set_max_answer_rows (GrammarQaGenerator *self,
                                          guint               max_answer_rows)
{
  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));

  if (self->max_answer_rows == max_answer_rows)
    return;
  self->max_answer_rows = max_answer_rows;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_ANSWER_ROWS]);
}

/**
 * grammar_qa_generator_get_max_answer_bytes:
 * @self: a #GrammarQaGenerator
 *
 * Returns: the value of #GrammarQaGenerator:max-answer-bytes
 */
guint64
grammar_qa_generator_get_max_answer_bytes (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->max_answer_bytes;
}

/**
 * grammar_qa_generator_set_max_answer_bytes:
 * @self: a #GrammarQaGenerator
 * @max_answer_bytes: the limit, or 0 for none
 *
 * Sets #GrammarQaGenerator:max-answer-bytes.
 */
void
grammar_qa_generator_set_max_answer_bytes (GrammarQaGenerator *self,
                                           guint64             max_answer_bytes)
{
  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));

  if (self->max_answer_bytes == max_answer_bytes)
    return;
  self->max_answer_bytes = max_answer_bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_ANSWER_BYTES]);
}

/**
 * grammar_qa_generator_get_per_group:
 * @self: a #GrammarQaGenerator
 *
 * Returns: the value of #GrammarQaGenerator:per-group
 */
guint
grammar_qa_generator_get_per_group (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->per_group;
}

/**
 * grammar_qa_generator_set_per_group:
 * @self: a #GrammarQaGenerator
 * @per_group: text queries per group and style, or 0 for all
 *
 * Sets #GrammarQaGenerator:per-group.
 */
void
grammar_qa_generator_set_per_group (GrammarQaGenerator *self,
                                    guint               per_group)
{
  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));

  if (self->per_group == per_group)
    return;
  self->per_group = per_group;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PER_GROUP]);
}

/**
 * grammar_qa_generator_get_seed:
 * @self: a #GrammarQaGenerator
 *
 * Returns: the value of #GrammarQaGenerator:seed
 */
guint64
grammar_qa_generator_get_seed (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->seed;
}

/**
 * grammar_qa_generator_set_seed:
 * @self: a #GrammarQaGenerator
 * @seed: the seed
 *
 * Sets #GrammarQaGenerator:seed.
 */
void
grammar_qa_generator_set_seed (GrammarQaGenerator *self,
                               guint64             seed)
{
  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));

  if (self->seed == seed)
    return;
  self->seed = seed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEED]);
}

/**
 * grammar_qa_generator_get_set_based:
 * @self: a #GrammarQaGenerator
 *
 * Returns: the value of #GrammarQaGenerator:set-based
 */
gboolean
grammar_qa_generator_get_set_based (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), FALSE);
  return self->set_based;
}

/**
 * grammar_qa_generator_set_set_based:
 * @self: a #GrammarQaGenerator
 * @set_based: whether to use set-based queries where possible
 *
 * Sets #GrammarQaGenerator:set-based.
 */
void
grammar_qa_generator_set_set_based (GrammarQaGenerator *self,
                                    gboolean            set_based)
{
  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));

  set_based = !!set_based;
  if (self->set_based == set_based)
    return;
  self->set_based = set_based;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SET_BASED]);
}

/**
 * grammar_qa_generator_get_documents:
 * @self: a #GrammarQaGenerator
 *
 * Returns: (transfer none) (nullable) (element-type GrammarDocument): the
 *   documents given with grammar_qa_generator_set_documents()
 */
GPtrArray *
grammar_qa_generator_get_documents (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), NULL);
  return self->documents;
}

/**
 * grammar_qa_generator_set_documents:
 * @self: a #GrammarQaGenerator
 * @documents: (nullable) (element-type GrammarDocument): the corpus, or
 *   %NULL for none
 *
 * Gives the corpus whose documents are the ground truth of the queries:
 * those with a source row (grammar_document_get_source_table() and
 * grammar_document_get_source_key(), as `grammar docs` writes them).
 * The `doc_ids` of a record are then the ids of the documents whose
 * source is a row the filled query reads: for each table of its `FROM`
 * clause (each alias of a table joined twice) that has documents, the
 * rows that satisfy its `FROM`, `JOIN` and `WHERE` with the group's
 * bindings, whatever its select list, grouping or limit keep. They are
 * sorted and unique.
 *
 * Set-based templates read the key columns in the same query as the
 * answer (a `SELECT DISTINCT` template then reads every row and the
 * repeated answer rows are dropped again, so the records are the same
 * as without documents, though the rows of an answer or the groups may
 * come in another order); templates answered per binding run a second
 * query per group. Without documents, `doc_ids` is `[]` and nothing
 * else changes. Key values compare as SQL does: `1` and `1.0` are the
 * same key.
 */
void
grammar_qa_generator_set_documents (GrammarQaGenerator *self,
                                    GPtrArray          *documents)
{
  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));

  if (documents != NULL)
    g_ptr_array_ref (documents);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  self->documents = documents;
}

/**
 * grammar_qa_generator_get_n_templates:
 * @self: a #GrammarQaGenerator
 *
 * The number of SQL templates the current or last run has finished.
 *
 * Returns: the count
 */
guint
grammar_qa_generator_get_n_templates (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->n_templates;
}

/**
 * grammar_qa_generator_get_n_set_based:
 * @self: a #GrammarQaGenerator
 *
 * How many of the finished templates were answered by one set-based query.
 *
 * Returns: the count
 */
guint
grammar_qa_generator_get_n_set_based (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->n_set_based;
}

/**
 * grammar_qa_generator_get_n_groups:
 * @self: a #GrammarQaGenerator
 *
 * The number of groups (filled SQL queries with a non-empty answer)
 * written so far by the current or last run.
 *
 * Returns: the count
 */
guint64
grammar_qa_generator_get_n_groups (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->n_groups;
}

/**
 * grammar_qa_generator_get_n_records:
 * @self: a #GrammarQaGenerator
 *
 * The number of records (text queries) written so far by the current or
 * last run.
 *
 * Returns: the count
 */
guint64
grammar_qa_generator_get_n_records (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->n_records;
}

/**
 * grammar_qa_generator_get_n_skipped:
 * @self: a #GrammarQaGenerator
 *
 * The number of combinations of placeholder values skipped because their
 * answer is empty. For set-based templates it is the product of the
 * distinct counts minus the groups found.
 *
 * Returns: the count
 */
guint64
grammar_qa_generator_get_n_skipped (GrammarQaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), 0);
  return self->n_skipped;
}

/**
 * grammar_qa_generator_dup_warnings:
 * @self: a #GrammarQaGenerator
 *
 * What the last run found worth telling without failing: templates
 * without text templates, and templates whose groups cannot reach
 * #GrammarQaGenerator:per-group text queries of a style (with the
 * template id, the style and how many there are).
 *
 * Returns: (transfer full): the messages, one line each
 */
GStrv
grammar_qa_generator_dup_warnings (GrammarQaGenerator *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), NULL);

  for (guint i = 0; i < self->warnings->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->warnings, i));
  return g_strv_builder_end (builder);
}

/**
 * grammar_qa_generator_dup_left_out:
 * @self: a #GrammarQaGenerator
 *
 * The templates the last run left out because answering them exceeded
 * a limit: the database's `query-timeout` (or its largest value),
 * #GrammarQaGenerator:max-answer-rows or
 * #GrammarQaGenerator:max-answer-bytes. Each message starts with the
 * template id and names the limit. The run wrote every other template;
 * a caller that reports to a user should still fail (the `grammar qa`
 * command exits with status 2), as for an invalid template.
 *
 * Returns: (transfer full): the messages, one line each
 */
GStrv
grammar_qa_generator_dup_left_out (GrammarQaGenerator *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), NULL);

  for (guint i = 0; i < self->left_out->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->left_out, i));
  return g_strv_builder_end (builder);
}

/* Planning: styles, distinct counts, and which plan answers. */

static GPtrArray *
collect_styles (GrammarTemplateSet *templates,
                GrammarSqlTemplate *sql_template,
                const char * const *styles)
{
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) grammar_qa_style_texts_free);

  for (guint s = 0; styles[s] != NULL; s++)
    {
      g_autoptr (GPtrArray) texts = grammar_template_set_get_text_templates_for (templates,
        grammar_sql_template_get_id (sql_template), styles[s]);
      GrammarQaStyleTexts *style;

      if (texts == NULL)
        texts = g_ptr_array_new ();
      style = g_new0 (GrammarQaStyleTexts, 1);
      style->name = g_strdup (styles[s]);
      style->escaped = grammar_json_content_dup (styles[s]);
      style->texts = g_ptr_array_ref (texts);
      g_ptr_array_add (result, style);
    }
  return result;
}

static guint
count_styles_texts (GPtrArray *styles,
                    guint      per_group)
{
  guint n = 0;

  for (guint s = 0; s < styles->len; s++)
    {
      guint n_texts = ((GrammarQaStyleTexts *) g_ptr_array_index (styles, s))->texts->len;

      n += per_group > 0 ? MIN (per_group, n_texts) : n_texts;
    }
  return n;
}

/* The placeholder's column in the binary form of the database's
 * dialect: counted, listed and ordered the way SQLite's BINARY
 * collation does on every backend. */
static char *
placeholder_form (GrammarQaGenerator *self,
                  GrammarSchema      *schema,
                  GrammarSqlTemplate *sql_template,
                  guint               placeholder,
                  char              **quoted_table)
{
  const char *table_name = grammar_sql_template_get_placeholder_table (sql_template, placeholder);
  const char *column_name = grammar_sql_template_get_placeholder_column (sql_template, placeholder);

  *quoted_table = grammar_database_quote_identifier (self->database, table_name);
  return grammar_database_column_sql_form (self->database, GRAMMAR_SQL_FORM_BINARY,
                                           grammar_schema_get_table (schema, table_name), column_name);
}

/* Counts the distinct non-NULL values of a placeholder: @table and
 * @column quoted, @form the column in its binary form. */
static gboolean
count_distinct (GrammarQaGenerator  *self,
                GrammarSchema       *schema,
                GrammarQaPlan       *plan,
                guint                placeholder,
                const char          *table,
                const char          *column,
                const char          *form,
                GCancellable        *cancellable,
                GError             **error)
{
  GrammarSqlTemplate *sql_template = plan->sql_template;
  const char *table_name = grammar_sql_template_get_placeholder_table (sql_template, placeholder);
  const char *column_name = grammar_sql_template_get_placeholder_column (sql_template, placeholder);
  GrammarTable *info = grammar_schema_get_table (schema, table_name);
  const char *key[] = { column_name, NULL };
  g_autoptr (GrammarResult) result = NULL;
  g_autofree char *sql = NULL;
  GVariant *count;

  /* The values of a unique column are distinct already: counting them
   * reads the column, where counting distinct values sorts it (half a
   * second a placeholder for 10^6 rows on PostgreSQL). */
  if (info != NULL && grammar_table_is_unique_key (info, key))
    sql = g_strdup_printf ("SELECT count(%s) FROM %s", column, table);
  else
    sql = g_strdup_printf ("SELECT count(DISTINCT %s) FROM %s", form, table);

  result = grammar_database_query (self->database, sql, NULL, cancellable, error);
  if (result == NULL)
    return FALSE;
  count = grammar_result_get_n_rows (result) == 1 ? grammar_result_get_value (result, 0, 0) : NULL;
  plan->counts[placeholder] = count != NULL && g_variant_is_of_type (count, G_VARIANT_TYPE_INT64)
                              ? (guint64) MAX (g_variant_get_int64 (count), 0) : 0;
  if (plan->counts[placeholder] == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s: placeholder [%s.%s] has no value to fill in: column “%s” of table “%s” holds only NULL",
                   grammar_sql_template_get_id (sql_template), table_name, column_name, column_name, table_name);
      return FALSE;
    }
  return TRUE;
}

static char *
describe_product (GrammarQaPlan *plan)
{
  GString *text = g_string_new (NULL);

  for (guint p = 0; p < plan->n_placeholders; p++)
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, p > 0 ? " × " : "", plan->counts[p]);
  return g_string_free (text, FALSE);
}

static void
plan_documents_per_binding (GrammarQaGenerator *self,
                            GrammarSchema      *schema,
                            GrammarQaPlan      *plan)
{
  g_autoptr (GError) error = NULL;
  GrammarQaDocPlan docs = { self->doc_tables, NULL, 0, FALSE };

  plan->doc_query = grammar_qa_plan_doc_query (plan->sql_template, schema, self->database, &docs, &error);
  plan->doc_sources = docs.sources;
  if (error != NULL)
    g_ptr_array_add (self->warnings, g_strdup (error->message));
}

static GrammarQaPlan *
plan_template (GrammarQaGenerator  *self,
               GrammarSchema       *schema,
               GrammarSqlTemplate  *sql_template,
               GPtrArray           *styles,
               GCancellable        *cancellable,
               GError             **error)
{
  GrammarQaPlan *plan = g_new0 (GrammarQaPlan, 1);
  g_autoptr (GError) refusal = NULL;
  GrammarQaDocPlan docs = { self->doc_tables, NULL, 0, FALSE };

  plan->sql_template = g_object_ref (sql_template);
  plan->n_placeholders = grammar_sql_template_get_n_placeholders (sql_template);
  plan->styles = styles;
  plan->counts = g_new0 (guint64, MAX (plan->n_placeholders, 1));
  plan->distinct_queries = g_new0 (char *, plan->n_placeholders + 1);
  plan->product = 1;

  for (guint p = 0; p < plan->n_placeholders; p++)
    {
      g_autofree char *table = NULL;
      g_autofree char *form = placeholder_form (self, schema, sql_template, p, &table);
      g_autofree char *column = grammar_database_quote_identifier (self->database,
        grammar_sql_template_get_placeholder_column (sql_template, p));

      plan->distinct_queries[p] = g_strdup_printf ("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL ORDER BY 1",
                                                   form, table, column);
      if (!count_distinct (self, schema, plan, p, table, column, form, cancellable, error))
        {
          grammar_qa_plan_free (plan);
          return NULL;
        }
      if (plan->product > G_MAXUINT64 / plan->counts[p])
        plan->product = G_MAXUINT64;
      else
        plan->product *= plan->counts[p];
    }

  if (self->set_based)
    plan->set_based_query = grammar_qa_plan_set_based (sql_template, schema, self->database, &plan->ordered,
                                            self->doc_tables != NULL ? &docs : NULL, &refusal);
  if (plan->set_based_query != NULL)
    {
      plan->doc_sources = g_steal_pointer (&docs.sources);
      plan->n_doc_columns = docs.n_columns;
      plan->dedupe = docs.dedupe;
    }
  else if (self->doc_tables != NULL)
    plan_documents_per_binding (self, schema, plan);
  if (plan->set_based_query == NULL && plan->product > self->max_combinations)
    {
      g_autofree char *factors = describe_product (plan);

      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s: %s%" G_GUINT64_FORMAT " combinations of placeholder values (%s) exceed "
                   "max-combinations (%" G_GUINT64_FORMAT "); raise it (--max-combinations) "
                   "or narrow the template",
                   grammar_sql_template_get_id (sql_template),
                   plan->product == G_MAXUINT64 ? "more than " : "", plan->product, factors,
                   self->max_combinations);
      grammar_qa_plan_free (plan);
      return NULL;
    }
  return plan;
}

static void
warn_short_styles (GrammarQaGenerator *self,
                   GrammarQaPlan      *plan,
                   guint64             n_groups)
{
  const char *id = grammar_sql_template_get_id (plan->sql_template);

  if (self->per_group == 0)
    return;
  for (guint s = 0; s < plan->styles->len; s++)
    {
      GrammarQaStyleTexts *style = g_ptr_array_index (plan->styles, s);

      if (style->texts->len < self->per_group)
        g_ptr_array_add (self->warnings,
                         g_strdup_printf ("template %s, style %s: %u text template(s), fewer than "
                                          "--per-group %u; its %" G_GUINT64_FORMAT " group(s) keep %u",
                                          id, style->name, style->texts->len, self->per_group,
                                          n_groups, style->texts->len));
    }
}

static GPtrArray *
plan_all (GrammarQaGenerator  *self,
          GrammarTemplateSet  *templates,
          GCancellable        *cancellable,
          GError             **error)
{
  GPtrArray *sql_templates = grammar_template_set_get_sql_templates (templates);
  g_auto (GStrv) styles = grammar_template_set_dup_styles (templates);
  g_autoptr (GPtrArray) plans = g_ptr_array_new_with_free_func ((GDestroyNotify) grammar_qa_plan_free);
  const char * const no_styles[] = { NULL };
  const char * const *style_names = styles != NULL ? (const char * const *) styles : no_styles;
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (self->database, cancellable, error);

  if (schema == NULL)
    return NULL;

  for (guint i = 0; i < sql_templates->len; i++)
    {
      GrammarSqlTemplate *sql_template = g_ptr_array_index (sql_templates, i);
      g_autoptr (GPtrArray) texts = collect_styles (templates, sql_template, style_names);
      g_auto (GStrv) mismatches = NULL;
      GrammarQaPlan *plan;

      /* Nothing to say for a template without text: no need to query. */
      if (count_styles_texts (texts, 0) == 0)
        {
          g_ptr_array_add (self->warnings,
                           g_strdup_printf ("template %s has no text templates: nothing generated for it",
                                            grammar_sql_template_get_id (sql_template)));
          continue;
        }
      mismatches = grammar_qa_plan_dup_mismatches (sql_template, schema);
      for (guint m = 0; mismatches[m] != NULL; m++)
        g_ptr_array_add (self->warnings, g_strdup (mismatches[m]));
      plan = plan_template (self, schema, sql_template, g_steal_pointer (&texts), cancellable, error);
      if (plan == NULL)
        return NULL;
      g_ptr_array_add (plans, plan);
    }
  return g_steal_pointer (&plans);
}

/* A run of the generator ------------------------------------------------ */

static void
reset_statistics (GrammarQaGenerator *self)
{
  self->n_templates = 0;
  self->n_set_based = 0;
  self->n_groups = 0;
  self->n_records = 0;
  self->n_skipped = 0;
  self->last_progress = g_get_monotonic_time ();
  g_ptr_array_set_size (self->warnings, 0);
  g_ptr_array_set_size (self->left_out, 0);
}

/* After a template exceeded a limit: its records are taken out of the
 * output and the counts, and the run goes on without it. */
static gboolean
leave_out (GrammarQaRun   *run,
           GrammarQaPlan  *plan,
           guint64         n_groups,
           guint64         n_records,
           guint64         n_skipped,
           GError         *limit,
           GError        **error)
{
  GrammarQaGenerator *self = run->self;

  if (!grammar_qa_run_forget_plan (run, plan, error))
    return FALSE;
  self->n_groups = n_groups;
  self->n_records = n_records;
  self->n_skipped = n_skipped;
  g_ptr_array_add (self->left_out, g_strdup_printf ("%s: %s; the template is left out",
                                                    grammar_sql_template_get_id (plan->sql_template),
                                                    limit->message));
  return TRUE;
}

static gboolean
run_plans (GrammarQaRun  *run,
           GPtrArray     *plans,
           GError       **error)
{
  GrammarQaGenerator *self = run->self;

  for (guint i = 0; i < plans->len; i++)
    {
      GrammarQaPlan *plan = g_ptr_array_index (plans, i);
      guint64 n_groups = self->n_groups;
      guint64 n_records = self->n_records;
      guint64 n_skipped = self->n_skipped;
      g_autoptr (GError) local_error = NULL;
      gboolean ok;

      run->records_per_group = count_styles_texts (plan->styles, self->per_group);
      ok = plan->set_based_query != NULL ? grammar_qa_run_set_based (run, plan, &local_error)
                                         : grammar_qa_run_per_binding (run, plan, &local_error);
      if (!ok && g_error_matches (local_error, GRAMMAR_DATABASE_ERROR, GRAMMAR_DATABASE_ERROR_LIMIT))
        {
          if (!leave_out (run, plan, n_groups, n_records, n_skipped, local_error, error))
            return FALSE;
          grammar_qa_run_progress (run, TRUE);
          continue;
        }
      if (!ok)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      /* a batch holds the groups of one template */
      if (!grammar_qa_run_send (run, error))
        return FALSE;
      self->n_set_based += plan->set_based_query != NULL ? 1 : 0;
      self->n_templates++;
      warn_short_styles (self, plan, self->n_groups - n_groups);
      grammar_qa_run_progress (run, TRUE);
    }
  return TRUE;
}

/**
 * grammar_qa_generator_generate:
 * @self: a #GrammarQaGenerator
 * @templates: the SQL templates and their text templates
 * @output: where the JSON Lines go
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Generates the dataset of @templates into @output, which is left open.
 * Every template is planned before anything is written, so that input
 * errors (a placeholder column holding only NULL, too many combinations
 * for a template answered per binding) stop the run before it starts.
 * SQL templates without text templates are skipped with a warning.
 * A template whose answer exceeds a limit (the database's
 * `query-timeout`, #GrammarQaGenerator:max-answer-rows,
 * #GrammarQaGenerator:max-answer-bytes) is left out, its records taken
 * out of @output again, and listed in grammar_qa_generator_dup_left_out();
 * the run goes on with the others and succeeds. Records already
 * written are cut back only on an @output that can be truncated (a
 * file or a memory stream); on another the run fails instead.
 *
 * The records are formatted and written by a worker thread while this
 * one reads the database; the #GrammarQaGenerator::progress signal is
 * emitted in the calling thread.
 *
 * Returns: %TRUE on success; %FALSE with @error set, in the
 *   %GRAMMAR_ERROR domain with %GRAMMAR_ERROR_INVALID_INPUT for input
 *   errors (naming the template), or a database or I/O error
 */
gboolean
grammar_qa_generator_generate (GrammarQaGenerator  *self,
                               GrammarTemplateSet  *templates,
                               GOutputStream       *output,
                               GCancellable        *cancellable,
                               GError             **error)
{
  g_autoptr (GPtrArray) plans = NULL;
  g_autoptr (GPtrArray) documents = NULL;
  g_autoptr (GError) local_error = NULL;
  GrammarQaRun run;
  gboolean ok;

  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (templates), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (output), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reset_statistics (self);
  /* The documents are held for the run: the index points into them. */
  documents = self->documents != NULL ? g_ptr_array_ref (self->documents) : NULL;
  grammar_qa_index_documents (self);
  plans = plan_all (self, templates, cancellable, error);
  if (plans == NULL)
    {
      grammar_qa_clear_document_index (self);
      return FALSE;
    }

  grammar_qa_run_init (&run, self, output, cancellable);
  ok = run_plans (&run, plans, &local_error);
  ok = grammar_qa_run_finish (&run, &local_error) && ok;
  grammar_qa_run_clear (&run);
  grammar_qa_clear_document_index (self);
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return ok;
}

static gboolean
write_dataset (GOutputStream  *stream,
               gpointer        user_data,
               GCancellable   *cancellable,
               GError        **error)
{
  GrammarQaWrite *write = user_data;

  return grammar_qa_generator_generate (write->self, write->templates, stream, cancellable, error);
}

/**
 * grammar_qa_generator_generate_to_file:
 * @self: a #GrammarQaGenerator
 * @templates: the SQL templates and their text templates
 * @path: (type filename): the dataset file to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Like grammar_qa_generator_generate(), into a file. The records are
 * written to a temporary file in the same folder, which replaces @path
 * (or the file a symbolic link @path points to) only when everything
 * succeeded: a failed or interrupted run leaves the previous file, or
 * none. A @path that exists and is not a regular file, such as
 * `/dev/null` or a pipe, is written to directly.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_qa_generator_generate_to_file (GrammarQaGenerator  *self,
                                       GrammarTemplateSet  *templates,
                                       const char          *path,
                                       GCancellable        *cancellable,
                                       GError             **error)
{
  GrammarQaWrite write = { self, templates };

  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (templates), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return grammar_file_write_atomically (path, write_dataset, &write, cancellable, error);
}

static void
qa_write_free (GrammarQaWrite *write)
{
  g_object_unref (write->self);
  g_object_unref (write->templates);
  g_free (write);
}

/**
 * grammar_qa_generator_generate_to_file_async:
 * @self: a #GrammarQaGenerator
 * @templates: the SQL templates and their text templates
 * @path: (type filename): the dataset file to write
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the file is written or not
 * @user_data: data for @callback
 *
 * grammar_qa_generator_generate_to_file() in a worker thread, so that
 * the caller's main loop (and its signal handlers) keep running. The
 * #GrammarQaGenerator::progress signal is emitted in that thread.
 */
void
grammar_qa_generator_generate_to_file_async (GrammarQaGenerator  *self,
                                             GrammarTemplateSet  *templates,
                                             const char          *path,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data)
{
  GrammarQaWrite *write;

  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));
  g_return_if_fail (GRAMMAR_IS_TEMPLATE_SET (templates));
  g_return_if_fail (path != NULL);

  write = g_new0 (GrammarQaWrite, 1);
  write->self = g_object_ref (self);
  write->templates = g_object_ref (templates);
  grammar_file_write_atomically_async (self, grammar_qa_generator_generate_to_file_async, path, write_dataset,
                                       write, (GDestroyNotify) qa_write_free, cancellable, callback, user_data);
}

/**
 * grammar_qa_generator_generate_to_file_finish:
 * @self: a #GrammarQaGenerator
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_qa_generator_generate_to_file_async().
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_qa_generator_generate_to_file_finish (GrammarQaGenerator  *self,
                                              GAsyncResult        *result,
                                              GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
