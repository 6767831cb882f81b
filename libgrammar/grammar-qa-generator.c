/* grammar-qa-generator.c: grounded query-answer pairs from templates and a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grammar-document.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-sql-lexer-private.h"
#include "grammar-qa-generator.h"

/**
 * GrammarQaGenerator:
 *
 * The data generation of the GRAMMAR papers (Algorithm 1, §3.2): every
 * SQL template of a #GrammarTemplateSet is filled with the distinct,
 * non-NULL values of its placeholders' columns (the Cartesian product
 * when there are several placeholders), its answer comes from the
 * database, and each filled query becomes one *semantic group* of text
 * queries, one per text template. Combinations whose answer is empty are
 * skipped, as the reference implementation does.
 *
 * Values are always bound as parameters. Two plans answer a template:
 *
 * - **set-based** (the normal case): when the template's `WHERE` is a
 *   conjunction of equality predicates `column = placeholder` (and
 *   placeholder-free predicates), with no `GROUP BY`, `HAVING`,
 *   `ORDER BY`, `LIMIT`, compound select, window or aggregate, a single
 *   query answers every binding at once: the placeholder columns become
 *   leading key columns and the rows are cut into groups where the keys
 *   change (see grammar_qa_generator_plan_set_based_query()). Only
 *   combinations that occur in the data come out, which are exactly
 *   those with a non-empty answer. This plan does not enumerate
 *   combinations, so #GrammarQaGenerator:max-combinations does not limit
 *   it.
 * - **per binding**: any other template runs once per combination of
 *   distinct values, enumerated with each column's values in binary
 *   order and the first placeholder varying slowest. The product of the
 *   distinct counts must not exceed #GrammarQaGenerator:max-combinations.
 *
 * Groups come in key order when the set-based query has to be ordered,
 * and in the order the database reads the rows when the schema's keys
 * show that each binding is one row at most (reading a million-row
 * table in index order costs several times more than reading it
 * through); the two plans give the same records, not always in the same
 * order. The rows of one answer come in the order the database gives.
 *
 * The output is JSON Lines, one text query a line with the members
 * `id, group, template, style, text, sql, bindings, answer, doc_ids`
 * (as #GrammarRecord reads them). `bindings` maps each placeholder
 * (`table.column`) to its value, and `answer` is a list of rows of
 * values, as grammar_value_to_json() writes them (reals as Python's
 * repr() does). `doc_ids` lists the ground-truth documents of the query
 * when a corpus is given (see grammar_qa_generator_set_documents()),
 * and is empty otherwise. `group` is `g` and the first 12 hexadecimal digits of
 * the MD5 of the template id, a newline and the `bindings` object as
 * written; `id` is the group, the style and the index of the text
 * template among that template's text templates of that style, joined
 * by `-`. Both stay the same from run to run and whatever other
 * templates are in the set. Records are written as each group is
 * complete, so memory does not grow with the size of the database, and
 * the same inputs give the same bytes. A worker thread formats and
 * writes the records while the calling thread reads the database.
 *
 * With #GrammarQaGenerator:per-group set to N, every group keeps exactly
 * N text queries of each style, chosen without replacement by a random
 * generator seeded from #GrammarQaGenerator:seed, the group and the
 * style (stratified sampling, §4.2 of the paper); templates with fewer
 * than N text templates of a style keep all of them and are listed in
 * grammar_qa_generator_dup_warnings().
 */
struct _GrammarQaGenerator
{
  GObject parent_instance;

  GrammarDatabase *database;
  guint64 max_combinations;
  guint per_group;
  guint64 seed;
  gboolean set_based;
  GPtrArray *documents;    /* of GrammarDocument, or NULL */

  /* Made from the documents for a run. */
  GHashTable *doc_keys;    /* canonical source key → 1 + index of its first document */
  GArray *doc_next;        /* guint: 1 + index of the next document of the same row, or 0 */
  GHashTable *doc_tables;  /* lower-case names of the tables with documents */

  /* Statistics of the last run. */
  guint n_templates;
  guint n_set_based;
  guint64 n_groups;
  guint64 n_records;
  guint64 n_skipped;
  GPtrArray *warnings;
  gint64 last_progress;
};

enum
{
  PROP_0,
  PROP_DATABASE,
  PROP_MAX_COMBINATIONS,
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
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 2)

/* Output is written in chunks of about this size. */
#define FLUSH_SIZE (256 * 1024)

static void clear_document_index (GrammarQaGenerator *self);

static void
grammar_qa_generator_finalize (GObject *object)
{
  GrammarQaGenerator *self = GRAMMAR_QA_GENERATOR (object);

  g_clear_object (&self->database);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  clear_document_index (self);
  g_ptr_array_unref (self->warnings);

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

/* A small SQL scanner, enough to find the top-level clauses of a SELECT
 * and the shape of its WHERE conjuncts. It works on the bound SQL, where
 * placeholders are already `?N` parameters. */

typedef enum
{
  TOKEN_WORD,      /* a bare identifier or keyword */
  TOKEN_QUOTED,    /* "identifier", `identifier` or [identifier] */
  TOKEN_STRING,    /* 'literal' */
  TOKEN_NUMBER,
  TOKEN_PARAM,     /* ?N (param = N), or another parameter form (param = 0) */
  TOKEN_PUNCT,
} TokenKind;

typedef struct
{
  TokenKind kind;
  guint start;
  guint end;
  int depth;  /* parenthesis depth; both parentheses of a pair have the outer depth */
  int param;
} Token;

/* The tokens of @sql without spaces and comments, from the SQL lexer:
 * offsets, parenthesis depth, and the number of a `?N` parameter. */
static GArray *
tokenize (const char *sql)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  const char *p = sql;
  int depth = 0;

  for (;;)
    {
      GrammarSqlToken sql_token;
      const char *end = grammar_sql_lexer_next (p, &sql_token);
      Token token = { 0 };

      switch (sql_token.kind)
        {
        case GRAMMAR_SQL_TOKEN_END:
          return tokens;
        case GRAMMAR_SQL_TOKEN_SPACE:
        case GRAMMAR_SQL_TOKEN_LINE_COMMENT:
        case GRAMMAR_SQL_TOKEN_COMMENT:
          p = end;
          continue;
        case GRAMMAR_SQL_TOKEN_WORD: token.kind = TOKEN_WORD; break;
        case GRAMMAR_SQL_TOKEN_QUOTED:
        case GRAMMAR_SQL_TOKEN_BRACKET: token.kind = TOKEN_QUOTED; break;
        case GRAMMAR_SQL_TOKEN_STRING: token.kind = TOKEN_STRING; break;
        case GRAMMAR_SQL_TOKEN_NUMBER: token.kind = TOKEN_NUMBER; break;
        case GRAMMAR_SQL_TOKEN_PARAM: token.kind = TOKEN_PARAM; break;
        case GRAMMAR_SQL_TOKEN_PUNCT:
        default: token.kind = TOKEN_PUNCT; break;
        }
      if (token.kind == TOKEN_PARAM && *p == '?' && sql_token.length > 1 && sql_token.length < 9)
        token.param = atoi (p + 1);
      token.start = p - sql;
      token.end = end - sql;
      if (token.kind == TOKEN_PUNCT && *p == ')' && depth > 0)
        depth--;
      token.depth = depth;
      if (token.kind == TOKEN_PUNCT && *p == '(')
        depth++;
      g_array_append_val (tokens, token);
      p = end;
    }
}

typedef struct
{
  const char *sql;
  GArray *tokens;
} Scan;

static Token *
scan_token_at (Scan *scan,
               guint index)
{
  return &g_array_index (scan->tokens, Token, index);
}

static gboolean
token_is_word (Scan       *scan,
               guint       index,
               const char *word)
{
  Token *token;

  if (index >= scan->tokens->len)
    return FALSE;
  token = scan_token_at (scan, index);
  return token->kind == TOKEN_WORD &&
         token->end - token->start == strlen (word) &&
         g_ascii_strncasecmp (scan->sql + token->start, word, token->end - token->start) == 0;
}

static gboolean
token_is_one_of (Scan               *scan,
                 guint               index,
                 const char * const *words)
{
  for (guint i = 0; words[i] != NULL; i++)
    if (token_is_word (scan, index, words[i]))
      return TRUE;
  return FALSE;
}

static gboolean
token_is_punct (Scan       *scan,
                guint       index,
                const char *punct)
{
  Token *token;

  if (index >= scan->tokens->len)
    return FALSE;
  token = scan_token_at (scan, index);
  return token->kind == TOKEN_PUNCT &&
         token->end - token->start == strlen (punct) &&
         strncmp (scan->sql + token->start, punct, token->end - token->start) == 0;
}

static gboolean
token_is_name (Scan  *scan,
               guint  index)
{
  return index < scan->tokens->len &&
         (scan_token_at (scan, index)->kind == TOKEN_WORD ||
          scan_token_at (scan, index)->kind == TOKEN_QUOTED);
}

/* The identifier a name token stands for, without its quotes. */
static char *
token_dup_name (Scan  *scan,
                guint  index)
{
  Token *token = scan_token_at (scan, index);
  const char *text = scan->sql + token->start;
  guint length = token->end - token->start;
  GString *name;
  char close;

  if (token->kind != TOKEN_QUOTED || length < 2)
    return g_strndup (text, length);

  close = text[0] == '[' ? ']' : text[0];
  name = g_string_sized_new (length);
  for (guint i = 1; i + 1 < length; i++)
    {
      g_string_append_c (name, text[i]);
      if (close != ']' && text[i] == close && text[i + 1] == close)
        i++;
    }
  return g_string_free (name, FALSE);
}

/* The index of the parenthesis that closes the one at @open. */
static guint
matching_paren (Scan  *scan,
                guint  open)
{
  int depth = scan_token_at (scan, open)->depth;

  for (guint i = open + 1; i < scan->tokens->len; i++)
    if (scan_token_at (scan, i)->depth == depth && token_is_punct (scan, i, ")"))
      return i;
  return scan->tokens->len;
}

/* Set-based planning. */

typedef struct
{
  char *table;                /* NULL for a subquery or a table-valued function */
  char *alias;                /* NULL when there is none */
  GrammarTable *schema_table; /* (nullable) (unowned) */
  gboolean determined;        /* at most one row of it per binding */
} Source;

static void
source_free (Source *source)
{
  g_free (source->table);
  g_free (source->alias);
  g_free (source);
}

typedef struct
{
  guint first;  /* tokens [first, last) */
  guint last;
} Range;

typedef struct
{
  GPtrArray *sources;   /* of Source, in order */
  GArray *conditions;   /* of Range: the conjuncts of the ON clauses */
  gboolean outer;       /* an outer, natural or USING join: no uniqueness reasoning */
} FromClause;

static void
from_clause_clear (FromClause *from)
{
  g_clear_pointer (&from->sources, g_ptr_array_unref);
  g_clear_pointer (&from->conditions, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FromClause, from_clause_clear)

static const char * const refused_clauses[] = {
  "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT", "WINDOW", "VALUES", NULL,
};

/* Aggregates give one row even for an empty match (count 0), which only
 * running each binding reproduces. */
static const char * const aggregate_functions[] = {
  "count", "sum", "total", "avg", "min", "max", "group_concat", "string_agg",
  "json_group_array", "json_group_object", "jsonb_group_array", "jsonb_group_object",
  "median", "percentile", "percentile_cont", "percentile_disc", "mode", "stddev", "variance", NULL,
};

/* Words that end a table reference in FROM rather than alias it. */
static const char * const not_aliases[] = {
  "ON", "USING", "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "OUTER", "CROSS", "NATURAL",
  "WHERE", "INDEXED", "NOT", "GROUP", "ORDER", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "WINDOW", NULL,
};

/* Words that start the next join of a FROM clause. */
static const char * const join_words[] = {
  "JOIN", "INNER", "CROSS", "LEFT", "RIGHT", "FULL", "NATURAL", NULL,
};

static const char * const outer_join_words[] = {
  "LEFT", "RIGHT", "FULL", "OUTER", "NATURAL", "USING", NULL,
};

static gboolean
refuse (GError     **error,
        const char  *template_id,
        const char  *reason)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
               "%s: no set-based plan: %s", template_id, reason);
  return FALSE;
}

static gboolean
range_has_param (Scan  *scan,
                 Range  range)
{
  for (guint i = range.first; i < range.last; i++)
    if (scan_token_at (scan, i)->kind == TOKEN_PARAM)
      return TRUE;
  return FALSE;
}

/* Reads one table reference starting at token @i; returns the index of
 * its last token. */
static guint
parse_source (Scan          *scan,
              guint          i,
              guint          last,
              GrammarSchema *schema,
              GPtrArray     *sources)
{
  Source *source = g_new0 (Source, 1);

  if (token_is_punct (scan, i, "("))
    i = matching_paren (scan, i);
  else if (token_is_name (scan, i))
    {
      /* schema.table names the table after the dot */
      if (token_is_punct (scan, i + 1, ".") && token_is_name (scan, i + 2))
        i += 2;
      if (token_is_punct (scan, i + 1, "("))
        i = matching_paren (scan, i + 1);  /* a table-valued function */
      else
        source->table = token_dup_name (scan, i);
    }
  if (token_is_word (scan, i + 1, "AS") && token_is_name (scan, i + 2))
    i++;
  if (i + 1 < last && token_is_name (scan, i + 1) && !token_is_one_of (scan, i + 1, not_aliases))
    source->alias = token_dup_name (scan, ++i);
  if (source->table != NULL && schema != NULL)
    source->schema_table = grammar_schema_get_table (schema, source->table);
  g_ptr_array_add (sources, source);
  return i;
}

/* Splits the condition at its top-level ANDs, keeping the AND of a
 * BETWEEN and those inside CASE … END. */
static void
split_conjuncts (Scan   *scan,
                 Range   condition,
                 GArray *conjuncts)
{
  Range current = { condition.first, condition.first };
  gboolean in_between = FALSE;
  int depth = condition.first < condition.last ? scan_token_at (scan, condition.first)->depth : 0;
  int case_depth = 0;

  for (guint i = condition.first; i < condition.last; i++)
    {
      if (scan_token_at (scan, i)->depth != depth)
        continue;
      if (token_is_word (scan, i, "CASE"))
        case_depth++;
      else if (token_is_word (scan, i, "END") && case_depth > 0)
        case_depth--;
      else if (case_depth == 0 && token_is_word (scan, i, "BETWEEN"))
        in_between = TRUE;
      else if (case_depth == 0 && token_is_word (scan, i, "AND"))
        {
          if (in_between)
            {
              in_between = FALSE;
              continue;
            }
          current.last = i;
          g_array_append_val (conjuncts, current);
          current.first = i + 1;
        }
    }
  current.last = condition.last;
  g_array_append_val (conjuncts, current);
}

/* Reads the table references of FROM … (tokens @range) and the
 * conditions of their ON clauses. */
static void
parse_from (Scan          *scan,
            Range          range,
            GrammarSchema *schema,
            FromClause    *from)
{
  gboolean expect_source = TRUE;

  from->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) source_free);
  from->conditions = g_array_new (FALSE, FALSE, sizeof (Range));
  from->outer = FALSE;

  for (guint i = range.first; i < range.last; i++)
    {
      if (scan_token_at (scan, i)->depth != 0)
        continue;
      if (expect_source)
        {
          expect_source = FALSE;
          i = parse_source (scan, i, range.last, schema, from->sources);
        }
      else if (token_is_one_of (scan, i, outer_join_words))
        from->outer = TRUE;
      else if (token_is_punct (scan, i, ",") || token_is_word (scan, i, "JOIN"))
        expect_source = TRUE;
      else if (token_is_word (scan, i, "ON"))
        {
          Range condition = { i + 1, i + 1 };

          while (condition.last < range.last &&
                 (scan_token_at (scan, condition.last)->depth != 0 ||
                  (!token_is_punct (scan, condition.last, ",") &&
                   !token_is_one_of (scan, condition.last, join_words))))
            condition.last++;
          if (condition.last > condition.first)
            split_conjuncts (scan, condition, from->conditions);
          i = condition.last - 1;
        }
    }
}

/* The source a column reference (one name, or qualifier.name) reads,
 * or -1 when that cannot be told from the text and the schema. */
static int
resolve_column (Scan       *scan,
                Range       ref,
                GPtrArray  *sources,
                char      **column)
{
  g_autofree char *qualifier = NULL;
  int found = -1;

  *column = token_dup_name (scan, ref.last - 1);
  if (ref.last - ref.first == 3)
    qualifier = token_dup_name (scan, ref.first);

  for (guint i = 0; i < sources->len; i++)
    {
      Source *source = g_ptr_array_index (sources, i);

      if (qualifier != NULL)
        {
          if ((source->alias != NULL && g_ascii_strcasecmp (source->alias, qualifier) == 0) ||
              (source->alias == NULL && source->table != NULL && g_ascii_strcasecmp (source->table, qualifier) == 0))
            return i;
        }
      else if (source->schema_table == NULL ||
               grammar_table_get_column (source->schema_table, *column) != NULL)
        {
          /* an unqualified name must be in exactly one source */
          if (found >= 0 || source->schema_table == NULL)
            return -1;
          found = i;
        }
    }
  return found;
}

/* Whether the column reference at @ref (one name, or qualifier.name)
 * is the placeholder's column in the placeholder's table. Only then is
 * every value the key takes a distinct value of the placeholder column. */
static gboolean
column_is_placeholder (Scan               *scan,
                       Range               ref,
                       GPtrArray          *sources,
                       GrammarSqlTemplate *sql_template,
                       guint               placeholder)
{
  const char *table = grammar_sql_template_get_placeholder_table (sql_template, placeholder);
  const char *column = grammar_sql_template_get_placeholder_column (sql_template, placeholder);
  g_autofree char *name = token_dup_name (scan, ref.last - 1);
  g_autofree char *qualifier = NULL;
  guint n_matches = 0;

  if (g_ascii_strcasecmp (name, column) != 0)
    return FALSE;
  if (ref.last - ref.first == 3)
    qualifier = token_dup_name (scan, ref.first);

  for (guint i = 0; i < sources->len; i++)
    {
      Source *source = g_ptr_array_index (sources, i);

      if (qualifier != NULL && source->alias != NULL && g_ascii_strcasecmp (source->alias, qualifier) == 0)
        return source->table != NULL && g_ascii_strcasecmp (source->table, table) == 0;
      if (source->table != NULL && g_ascii_strcasecmp (source->table, table) == 0 &&
          (qualifier == NULL || (source->alias == NULL && g_ascii_strcasecmp (source->table, qualifier) == 0)))
        n_matches++;
    }
  /* An unqualified column must not be ambiguous between two uses of the table. */
  return n_matches == 1;
}

/* A column reference, one name or two joined by a dot, exactly filling [@first, @last). */
static gboolean
is_column_ref (Scan  *scan,
               guint  first,
               guint  last)
{
  if (last - first == 1)
    return token_is_name (scan, first);
  return last - first == 3 && token_is_name (scan, first) && token_is_punct (scan, first + 1, ".") &&
         token_is_name (scan, first + 2);
}

static gboolean
is_literal (Scan  *scan,
            guint  first,
            guint  last)
{
  TokenKind kind;

  if (last - first == 2 && (token_is_punct (scan, first, "-") || token_is_punct (scan, first, "+")))
    first++;
  if (last - first != 1)
    return FALSE;
  kind = scan_token_at (scan, first)->kind;
  return kind == TOKEN_STRING || kind == TOKEN_NUMBER;
}

/* Splits `left = right` (possibly in parentheses) into its sides. */
static gboolean
split_equality (Scan  *scan,
                Range  conjunct,
                Range *left,
                Range *right)
{
  guint first = conjunct.first, last = conjunct.last;

  while (last - first > 2 && token_is_punct (scan, first, "(") && matching_paren (scan, first) == last - 1)
    {
      first++;
      last--;
    }
  for (guint i = first + 1; i + 1 < last; i++)
    if (scan_token_at (scan, i)->depth == scan_token_at (scan, first)->depth &&
        (token_is_punct (scan, i, "=") || token_is_punct (scan, i, "==")))
      {
        *left = (Range) { first, i };
        *right = (Range) { i + 1, last };
        return TRUE;
      }
  return FALSE;
}

/* Recognises `column = ?N` or `?N = column` in @conjunct. Returns N, or
 * 0 when the conjunct has another shape. */
static int
parse_placeholder_equality (Scan  *scan,
                            Range  conjunct,
                            Range *column)
{
  Range left, right;

  if (!split_equality (scan, conjunct, &left, &right))
    return 0;
  if (right.last - right.first == 1 && scan_token_at (scan, right.first)->kind == TOKEN_PARAM &&
      is_column_ref (scan, left.first, left.last))
    {
      *column = left;
      return scan_token_at (scan, right.first)->param;
    }
  if (left.last - left.first == 1 && scan_token_at (scan, left.first)->kind == TOKEN_PARAM &&
      is_column_ref (scan, right.first, right.last))
    {
      *column = right;
      return scan_token_at (scan, left.first)->param;
    }
  return 0;
}

/* Uniqueness: when every source of the FROM clause has at most one row
 * per binding, each binding is at most one result row, and the rows
 * need no ordering to come grouped. A source has at most one row when
 * all columns of one of its declared keys are bound: to a placeholder,
 * to a literal, or by an equality to a bound column. */

typedef struct
{
  Scan *scan;
  FromClause *from;
  GHashTable *bound;  /* "source index:lowercase column" */
} Binding;

static char *
bound_key (int         source,
           const char *column)
{
  g_autofree char *lower = g_ascii_strdown (column, -1);

  return g_strdup_printf ("%d:%s", source, lower);
}

static gboolean
bind_column (Binding    *binding,
             int         source,
             const char *column)
{
  return source >= 0 && g_hash_table_add (binding->bound, bound_key (source, column));
}

static gboolean
is_bound (Binding *binding,
          Range    ref,
          int     *source,
          char   **column)
{
  g_autofree char *key = NULL;

  *source = resolve_column (binding->scan, ref, binding->from->sources, column);
  if (*source < 0)
    return FALSE;
  key = bound_key (*source, *column);
  return g_hash_table_contains (binding->bound, key);
}

/* Follows one `a = b` condition; returns whether it bound a column. */
static gboolean
propagate_equality (Binding *binding,
                    Range    conjunct)
{
  Scan *scan = binding->scan;
  g_autofree char *left_column = NULL;
  g_autofree char *right_column = NULL;
  Range left, right;
  int left_source, right_source;
  gboolean left_bound, right_bound;

  if (!split_equality (scan, conjunct, &left, &right) || range_has_param (scan, conjunct))
    return FALSE;
  if (is_column_ref (scan, left.first, left.last) && is_literal (scan, right.first, right.last))
    {
      is_bound (binding, left, &left_source, &left_column);
      return bind_column (binding, left_source, left_column);
    }
  if (is_literal (scan, left.first, left.last) && is_column_ref (scan, right.first, right.last))
    {
      is_bound (binding, right, &right_source, &right_column);
      return bind_column (binding, right_source, right_column);
    }
  if (!is_column_ref (scan, left.first, left.last) || !is_column_ref (scan, right.first, right.last))
    return FALSE;
  left_bound = is_bound (binding, left, &left_source, &left_column);
  right_bound = is_bound (binding, right, &right_source, &right_column);
  if (left_bound && !right_bound)
    return bind_column (binding, right_source, right_column);
  if (right_bound && !left_bound)
    return bind_column (binding, left_source, left_column);
  return FALSE;
}

static gboolean
key_is_bound (Binding            *binding,
              int                 source,
              const char * const *columns)
{
  if (columns == NULL || columns[0] == NULL)
    return FALSE;
  for (guint c = 0; columns[c] != NULL; c++)
    {
      g_autofree char *key = bound_key (source, columns[c]);

      if (!g_hash_table_contains (binding->bound, key))
        return FALSE;
    }
  return TRUE;
}

/* Marks @source determined when one of its keys is bound; then all its
 * columns are bound. */
static gboolean
determine_source (Binding *binding,
                  int      index)
{
  Source *source = g_ptr_array_index (binding->from->sources, index);
  g_auto (GStrv) primary_key = NULL;
  gboolean determined;
  GPtrArray *columns;

  if (source->determined || source->schema_table == NULL)
    return FALSE;
  primary_key = grammar_table_dup_primary_key (source->schema_table);
  determined = key_is_bound (binding, index, (const char * const *) primary_key);
  for (guint u = 0; !determined && u < grammar_table_get_n_unique_constraints (source->schema_table); u++)
    determined = key_is_bound (binding, index, grammar_table_get_unique_constraint (source->schema_table, u));
  if (!determined)
    return FALSE;

  source->determined = TRUE;
  columns = grammar_table_get_columns (source->schema_table);
  for (guint c = 0; c < columns->len; c++)
    bind_column (binding, index, grammar_column_get_name (g_ptr_array_index (columns, c)));
  return TRUE;
}

static gboolean
keys_are_unique (Scan       *scan,
                 FromClause *from,
                 Range      *keys,
                 guint       n_keys,
                 GArray     *others)
{
  g_autoptr (GHashTable) bound = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Binding binding = { scan, from, bound };
  gboolean changed = TRUE;

  if (from->outer)
    return FALSE;
  for (guint k = 0; k < n_keys; k++)
    {
      g_autofree char *column = NULL;
      int source = resolve_column (scan, keys[k], from->sources, &column);

      bind_column (&binding, source, column);
    }
  while (changed)
    {
      changed = FALSE;
      for (guint c = 0; c < from->conditions->len; c++)
        changed |= propagate_equality (&binding, g_array_index (from->conditions, Range, c));
      for (guint c = 0; c < others->len; c++)
        changed |= propagate_equality (&binding, g_array_index (others, Range, c));
      for (guint s = 0; s < from->sources->len; s++)
        changed |= determine_source (&binding, s);
    }
  for (guint s = 0; s < from->sources->len; s++)
    if (!((Source *) g_ptr_array_index (from->sources, s))->determined)
      return FALSE;
  return TRUE;
}

static void
append_range (GString *out,
              Scan    *scan,
              Range    range)
{
  guint start = scan_token_at (scan, range.first)->start;
  guint end = scan_token_at (scan, range.last - 1)->end;

  g_string_append_len (out, scan->sql + start, end - start);
}

/* Finds FROM and WHERE at the top level, and refuses clauses after which
 * rows are no longer the template's rows filtered by the placeholders. */
static gboolean
find_clauses (Scan        *scan,
              const char  *template_id,
              guint       *from,
              guint       *where,
              GError     **error)
{
  *from = *where = 0;
  for (guint i = 1; i < scan->tokens->len; i++)
    {
      if (token_is_word (scan, i, "OVER"))
        return refuse (error, template_id, "it uses a window function");
      if (scan_token_at (scan, i)->depth != 0)
        continue;
      if (token_is_one_of (scan, i, refused_clauses))
        {
          g_autofree char *word = token_dup_name (scan, i);
          g_autofree char *reason = g_strdup_printf ("it has a top-level %s", word);

          return refuse (error, template_id, reason);
        }
      if (*from == 0 && token_is_word (scan, i, "FROM"))
        *from = i;
      else if (*from != 0 && *where == 0 && token_is_word (scan, i, "WHERE"))
        *where = i;
    }
  if (*from == 0 || *where == 0)
    return refuse (error, template_id, "it has no top-level FROM … WHERE");
  return TRUE;
}

static gboolean
select_list_is_plain (Scan        *scan,
                      Range        list,
                      const char  *template_id,
                      GError     **error)
{
  for (guint i = list.first; i < list.last; i++)
    {
      if (token_is_one_of (scan, i, aggregate_functions) && token_is_punct (scan, i + 1, "("))
        return refuse (error, template_id, "its select list has an aggregate, which answers even an empty match");
      if (scan_token_at (scan, i)->kind == TOKEN_PARAM)
        return refuse (error, template_id, "a placeholder occurs in its select list");
    }
  return TRUE;
}

/* @extra: columns appended to the select list (", a.b, …"), or %NULL;
 * @drop_distinct: leave out the DISTINCT of the select list (the rows
 * are then made distinct by the reader). */
static char *
build_set_based_query (Scan       *scan,
                       guint       list_start,
                       guint       from,
                       guint       where,
                       GArray     *others,
                       Range      *keys,
                       guint       n_keys,
                       gboolean    ordered,
                       const char *extra,
                       gboolean    drop_distinct)
{
  GString *out = g_string_new (NULL);
  const char *separator = "";

  g_string_append_len (out, scan->sql, scan_token_at (scan, drop_distinct ? 1 : list_start)->start);
  for (guint k = 0; k < n_keys; k++)
    {
      append_range (out, scan, keys[k]);
      g_string_append (out, ", ");
    }
  g_string_append_len (out, scan->sql + scan_token_at (scan, list_start)->start,
                       scan_token_at (scan, from)->start - scan_token_at (scan, list_start)->start);
  if (extra != NULL)
    {
      while (out->len > 0 && g_ascii_isspace (out->str[out->len - 1]))
        g_string_truncate (out, out->len - 1);
      g_string_append_printf (out, "%s ", extra);
    }
  g_string_append_len (out, scan->sql + scan_token_at (scan, from)->start,
                       scan_token_at (scan, where)->start - scan_token_at (scan, from)->start);
  g_string_append (out, "WHERE ");
  for (guint c = 0; c < others->len; c++)
    {
      g_string_append_printf (out, "%s(", separator);
      append_range (out, scan, g_array_index (others, Range, c));
      g_string_append (out, ")");
      separator = " AND ";
    }
  for (guint k = 0; k < n_keys; k++)
    {
      g_string_append (out, separator);
      append_range (out, scan, keys[k]);
      g_string_append (out, " IS NOT NULL");
      separator = " AND ";
    }
  if (!ordered)
    return g_string_free (out, FALSE);

  /* By position, as a result alias could shadow a column name; binary
   * so that equal keys are adjacent whatever the column's collation. */
  g_string_append (out, " ORDER BY ");
  for (guint k = 0; k < n_keys; k++)
    g_string_append_printf (out, "%s%u COLLATE BINARY", k > 0 ? ", " : "", k + 1);
  return g_string_free (out, FALSE);
}

/* Assigns each placeholder conjunct to its key; the others are kept. */
static gboolean
collect_conjuncts (Scan               *scan,
                   GArray             *conjuncts,
                   GPtrArray          *sources,
                   GrammarSqlTemplate *sql_template,
                   Range              *keys,
                   GArray             *others,
                   GError            **error)
{
  const char *id = grammar_sql_template_get_id (sql_template);
  guint n_keys = grammar_sql_template_get_n_placeholders (sql_template);

  for (guint c = 0; c < conjuncts->len; c++)
    {
      Range conjunct = g_array_index (conjuncts, Range, c);
      Range column = { 0, 0 };
      int param;

      if (conjunct.first >= conjunct.last)
        return refuse (error, id, "its WHERE clause has an empty condition");
      if (!range_has_param (scan, conjunct))
        {
          g_array_append_val (others, conjunct);
          continue;
        }
      param = parse_placeholder_equality (scan, conjunct, &column);
      if (param < 1 || (guint) param > n_keys)
        return refuse (error, id, "a placeholder is not in a top-level “column = placeholder” condition");
      if (keys[param - 1].last != 0)
        return refuse (error, id, "a placeholder is used more than once");
      if (!column_is_placeholder (scan, column, sources, sql_template, param - 1))
        return refuse (error, id, "a placeholder is compared with another column than its own");
      keys[param - 1] = column;
    }
  for (guint k = 0; k < n_keys; k++)
    if (keys[k].last == 0)
      return refuse (error, id, "a placeholder occurs outside the top-level WHERE conditions");
  return TRUE;
}

/* Ground-truth documents. A document's source is a row: its table and
 * its primary key. The rows a filled query reads are found by adding
 * the primary key columns of every table of its FROM clause that has
 * documents to the query (or to a second query, for templates answered
 * per binding); each key is turned into a canonical text that the
 * documents' keys are looked up by. */

typedef struct
{
  char *prefix;     /* the lower-case table name and \x1d */
  guint n_columns;
  char **names;     /* lower-case key column names, sorted */
  guint *columns;   /* for each name, its column among the document columns */
} DocSource;

/* Which rows of which tables a template reads, for its ground-truth
 * documents (see grammar_qa_generator_set_documents()). */
typedef struct
{
  GHashTable *tables;    /* in: lower-case names of the tables that have documents */
  GPtrArray *sources;    /* out: of DocSource, or NULL when no such table is read */
  guint n_columns;       /* out: the key columns the query reads for them */
  gboolean dedupe;       /* out: DISTINCT was dropped for those columns */
} DocPlan;

static void
doc_source_free (DocSource *source)
{
  g_free (source->prefix);
  g_strfreev (source->names);
  g_free (source->columns);
  g_free (source);
}

static void
refuse_documents (GError     **error,
                  const char  *template_id,
                  const char  *reason)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
               "template %s: no doc_ids: %s", template_id, reason);
}

static char *
quote_name (const char *name)
{
  GString *out = g_string_new ("\"");

  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The source's key columns, as `, "alias"."column"` into @extra. */
static DocSource *
doc_source_new (Source  *source,
                GString *extra,
                guint    first)
{
  g_auto (GStrv) key = grammar_table_dup_primary_key (source->schema_table);
  g_autofree char *qualifier = quote_name (source->alias != NULL ? source->alias : source->table);
  g_autofree char *table = g_ascii_strdown (grammar_table_get_name (source->schema_table), -1);
  DocSource *doc_source;
  guint n = g_strv_length (key);

  if (n == 0)
    return NULL;
  doc_source = g_new0 (DocSource, 1);
  doc_source->prefix = g_strconcat (table, "\x1d", NULL);
  doc_source->n_columns = n;
  doc_source->names = g_new0 (char *, n + 1);
  doc_source->columns = g_new0 (guint, n);
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *column = quote_name (key[k]);

      g_string_append_printf (extra, ", %s.%s", qualifier, column);
      doc_source->names[k] = g_ascii_strdown (key[k], -1);
    }
  qsort (doc_source->names, n, sizeof (char *), compare_names);
  for (guint k = 0; k < n; k++)
    for (guint c = 0; c < n; c++)
      if (g_ascii_strcasecmp (key[c], doc_source->names[k]) == 0)
        doc_source->columns[k] = first + c;
  return doc_source;
}

/* The key columns of the sources of @from that have documents, as
 * `, "a"."x", "b"."y"` into @extra; FALSE when there are none. */
static gboolean
plan_doc_columns (FromClause  *from,
                  DocPlan     *docs,
                  char       **extra)
{
  g_autoptr (GString) columns = g_string_new (NULL);
  g_autoptr (GPtrArray) sources = g_ptr_array_new_with_free_func ((GDestroyNotify) doc_source_free);
  guint n_columns = 0;

  for (guint i = 0; i < from->sources->len; i++)
    {
      Source *source = g_ptr_array_index (from->sources, i);
      g_autofree char *table = NULL;
      DocSource *doc_source;

      if (source->schema_table == NULL)
        continue;
      table = g_ascii_strdown (grammar_table_get_name (source->schema_table), -1);
      if (!g_hash_table_contains (docs->tables, table))
        continue;
      doc_source = doc_source_new (source, columns, n_columns);
      if (doc_source == NULL)
        continue;
      n_columns += doc_source->n_columns;
      g_ptr_array_add (sources, doc_source);
    }
  if (sources->len == 0)
    return FALSE;
  docs->sources = g_steal_pointer (&sources);
  docs->n_columns = n_columns;
  *extra = g_strdup (columns->str);
  return TRUE;
}

/* The rows a template answered per binding reads: its FROM … WHERE with
 * the key columns as the select list, and the placeholders left
 * outside that range kept as columns, so that the parameters stay
 * those of the template. %NULL when no table it reads has documents
 * (without @error) or when its shape is not understood. */
static char *
plan_doc_query (GrammarSqlTemplate  *sql_template,
                GrammarSchema       *schema,
                DocPlan             *docs,
                GError             **error)
{
  static const char * const compound[] = { "UNION", "INTERSECT", "EXCEPT", NULL };
  const char *id = grammar_sql_template_get_id (sql_template);
  g_autoptr (GArray) tokens = NULL;
  g_auto (FromClause) from_clause = { 0, };
  g_autofree char *extra = NULL;
  GString *query;
  guint from = 0, where = 0, end;
  Scan scan;

  scan.sql = grammar_sql_template_get_bound_sql (sql_template);
  scan.tokens = tokens = tokenize (scan.sql);
  if (!token_is_word (&scan, 0, "SELECT"))
    {
      refuse_documents (error, id, "it is not a plain SELECT");
      return NULL;
    }
  end = tokens->len;
  for (guint i = 1; i < tokens->len; i++)
    {
      if (scan_token_at (&scan, i)->depth != 0)
        continue;
      if (token_is_one_of (&scan, i, compound))
        {
          refuse_documents (error, id, "it is a compound SELECT");
          return NULL;
        }
      if (from == 0 && token_is_word (&scan, i, "FROM"))
        from = i;
      else if (from != 0 && where == 0 && token_is_word (&scan, i, "WHERE"))
        where = i;
      else if (from != 0 && end == tokens->len && token_is_one_of (&scan, i, refused_clauses))
        end = i;
    }
  if (from == 0)
    {
      refuse_documents (error, id, "it has no top-level FROM");
      return NULL;
    }
  if (where == 0 || where > end)
    where = end;

  parse_from (&scan, (Range) { from + 1, where }, schema, &from_clause);
  if (!plan_doc_columns (&from_clause, docs, &extra))
    return NULL;
  query = g_string_new ("SELECT DISTINCT ");
  g_string_append (query, extra + 2);
  for (guint i = 0; i < tokens->len; i++)
    if ((i < from || i >= end) && scan_token_at (&scan, i)->kind == TOKEN_PARAM)
      g_string_append_printf (query, ", ?%d", scan_token_at (&scan, i)->param);
  g_string_append_c (query, ' ');
  g_string_append_len (query, scan.sql + scan_token_at (&scan, from)->start,
                       (end < tokens->len ? scan_token_at (&scan, end)->start : strlen (scan.sql)) -
                       scan_token_at (&scan, from)->start);
  return g_string_free (query, FALSE);
}

/**
 * grammar_qa_generator_plan_set_based_query:
 * @sql_template: a validated SQL template
 * @schema: (nullable): the database schema, to recognise unique keys
 * @error: return location for a #GError
 *
 * Works out the single query that answers every binding of
 * @sql_template at once: its select list preceded by the placeholder
 * columns as keys, its `WHERE` without the placeholder conditions but
 * with `key IS NOT NULL`. This is possible when the `WHERE` clause is a
 * conjunction in which each placeholder occurs once, in a condition
 * `column = placeholder` (either way round) comparing it with its own
 * column, and nothing after `WHERE` (grouping, ordering, limits,
 * compound selects) nor an aggregate or window in the select list
 * changes what a binding's rows are.
 *
 * The rows of one binding must come together. When @schema shows that a
 * binding has at most one row — every table of an inner join has all
 * columns of a primary key or unique constraint bound to a placeholder,
 * a literal or, through equalities, to another such column — the query
 * is left unordered, and reads the tables in their own order; otherwise
 * it is ordered by the keys.
 *
 * Returns: (transfer full) (nullable): the query, or %NULL with a
 *   %GRAMMAR_ERROR_NOT_SUPPORTED error saying why the template needs to
 *   run once per binding
 */
static char *plan_set_based (GrammarSqlTemplate  *sql_template,
                             GrammarSchema       *schema,
                             gboolean            *ordered,
                             DocPlan             *docs,
                             GError             **error);

char *
grammar_qa_generator_plan_set_based_query (GrammarSqlTemplate  *sql_template,
                                           GrammarSchema       *schema,
                                           GError             **error)
{
  gboolean ordered;

  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), NULL);
  g_return_val_if_fail (schema == NULL || GRAMMAR_IS_SCHEMA (schema), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return plan_set_based (sql_template, schema, &ordered, NULL, error);
}

/* The set-based query; @ordered tells whether it has to be ordered for
 * the rows of a binding to come together. */
static char *
plan_set_based (GrammarSqlTemplate  *sql_template,
                GrammarSchema       *schema,
                gboolean            *ordered,
                DocPlan             *docs,
                GError             **error)
{
  g_autoptr (GArray) tokens = NULL;
  g_autoptr (GArray) conjuncts = NULL;
  g_autoptr (GArray) others = NULL;
  g_auto (FromClause) from_clause = { 0, };
  g_autofree Range *keys = NULL;
  g_autofree char *extra = NULL;
  const char *id;
  guint n_keys, list_start, from, where;
  Scan scan;

  id = grammar_sql_template_get_id (sql_template);
  n_keys = grammar_sql_template_get_n_placeholders (sql_template);
  scan.sql = grammar_sql_template_get_bound_sql (sql_template);
  scan.tokens = tokens = tokenize (scan.sql);

  if (!token_is_word (&scan, 0, "SELECT"))
    {
      refuse (error, id, "it is not a plain SELECT");
      return NULL;
    }
  list_start = token_is_word (&scan, 1, "DISTINCT") || token_is_word (&scan, 1, "ALL") ? 2 : 1;
  if (!find_clauses (&scan, id, &from, &where, error) ||
      !select_list_is_plain (&scan, (Range) { list_start, from }, id, error))
    return NULL;
  if (range_has_param (&scan, (Range) { from, where }))
    {
      refuse (error, id, "a placeholder occurs in its FROM clause");
      return NULL;
    }

  parse_from (&scan, (Range) { from + 1, where }, schema, &from_clause);
  conjuncts = g_array_new (FALSE, FALSE, sizeof (Range));
  split_conjuncts (&scan, (Range) { where + 1, tokens->len }, conjuncts);
  others = g_array_new (FALSE, FALSE, sizeof (Range));
  keys = g_new0 (Range, MAX (n_keys, 1));
  if (!collect_conjuncts (&scan, conjuncts, from_clause.sources, sql_template, keys, others, error))
    return NULL;

  *ordered = !keys_are_unique (&scan, &from_clause, keys, n_keys, others);
  if (docs != NULL && plan_doc_columns (&from_clause, docs, &extra))
    {
      /* One row per row read, so that every row's key comes out. */
      docs->dedupe = list_start == 2 && token_is_word (&scan, 1, "DISTINCT");
      return build_set_based_query (&scan, list_start, from, where, others, keys, n_keys, *ordered,
                                    extra, docs->dedupe);
    }
  return build_set_based_query (&scan, list_start, from, where, others, keys, n_keys, *ordered, NULL, FALSE);
}

/* Output. Records are written directly rather than through JsonBuilder
 * and JsonGenerator: they are simple, and building a tree per line
 * would cost more than the queries. */

typedef struct
{
  char *data;
  gsize len;
  gsize size;
} Buffer;

static void
buffer_clear (Buffer *buffer)
{
  g_clear_pointer (&buffer->data, g_free);
  buffer->len = buffer->size = 0;
}

static void
buffer_grow (Buffer *buffer,
             gsize   extra)
{
  gsize size = MAX (buffer->size * 2, buffer->len + extra + 256);

  buffer->data = g_realloc (buffer->data, size);
  buffer->size = size;
}

static inline void
buffer_append (Buffer     *buffer,
               const char *text,
               gsize       length)
{
  /* memcpy() with a NULL pointer is undefined even for no bytes, and an
   * empty buffer has no data yet. */
  if (length == 0)
    return;
  if (buffer->len + length > buffer->size)
    buffer_grow (buffer, length);
  memcpy (buffer->data + buffer->len, text, length);
  buffer->len += length;
}

static inline void
buffer_append_c (Buffer *buffer,
                 char    c)
{
  if (buffer->len + 1 > buffer->size)
    buffer_grow (buffer, 1);
  buffer->data[buffer->len++] = c;
}

#define buffer_append_literal(buffer, text) buffer_append ((buffer), (text), sizeof (text) - 1)

static void
buffer_append_buffer (Buffer       *buffer,
                      const Buffer *other)
{
  buffer_append (buffer, other->data, other->len);
}

/* Which bytes JSON strings escape. */
static const guint8 json_escaped[256] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* " */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,  /* \ */
};

static void
append_escape (Buffer *out,
               guchar  c)
{
  static const char hex[] = "0123456789abcdef";
  char unicode[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };

  switch (c)
    {
    case '"': buffer_append_literal (out, "\\\""); break;
    case '\\': buffer_append_literal (out, "\\\\"); break;
    case '\n': buffer_append_literal (out, "\\n"); break;
    case '\r': buffer_append_literal (out, "\\r"); break;
    case '\t': buffer_append_literal (out, "\\t"); break;
    case '\b': buffer_append_literal (out, "\\b"); break;
    case '\f': buffer_append_literal (out, "\\f"); break;
    default: buffer_append (out, unicode, sizeof unicode); break;
    }
}

/* The content of a JSON string, without its quotes. */
static void
append_json_content (Buffer     *out,
                     const char *text,
                     gsize       length)
{
  const guchar *p = (const guchar *) text;
  const guchar *end = p + length;
  const guchar *run = p;

  for (; p < end; p++)
    {
      if (G_LIKELY (!json_escaped[*p]))
        continue;
      buffer_append (out, (const char *) run, p - run);
      append_escape (out, *p);
      run = p + 1;
    }
  buffer_append (out, (const char *) run, end - run);
}

static void
append_json_string (Buffer     *out,
                    const char *text,
                    gsize       length)
{
  buffer_append_c (out, '"');
  append_json_content (out, text, length);
  buffer_append_c (out, '"');
}

static char *
json_content_dup (const char *text)
{
  Buffer buffer = { 0, };

  append_json_content (&buffer, text, strlen (text));
  buffer_append_c (&buffer, '\0');
  return buffer.data;
}

/* The common case of append_json_double(), without printf: a value in
 * [1e-4, 1e16) with few decimals, such as a price. The first number of
 * decimals whose rounding reads back as @value is the shortest text;
 * reading back is exact, as both the integer and the power of ten are
 * exact doubles and one division rounds as strtod() does. */
static gboolean
append_short_decimal (Buffer *out,
                      double  value)
{
  static const double powers[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8 };
  double magnitude = fabs (value);
  char digits[32];

  if (value == 0.0)
    {
      buffer_append (out, signbit (value) ? "-0.0" : "0.0", signbit (value) ? 4 : 3);
      return TRUE;
    }
  if (magnitude < 1e-4 || magnitude >= 1e16)
    return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (powers); k++)
    {
      double product = magnitude * powers[k];
      guint64 integer;
      int n = 0;

      /* Below 2^52 the spacing of doubles near @value is less than one
       * unit of the last decimal, so at most one text of this length
       * reads back as it: no closer one to prefer. */
      if (product >= 4503599627370496.0)
        return FALSE;
      integer = (guint64) (product + 0.5);
      if ((double) integer / powers[k] != magnitude)
        continue;

      do
        {
          digits[n++] = '0' + integer % 10;
          integer /= 10;
        }
      while (integer != 0 || n <= (int) k);
      if (value < 0)
        buffer_append_c (out, '-');
      for (int i = n - 1; i >= (int) k; i--)
        buffer_append_c (out, digits[i]);
      buffer_append_c (out, '.');
      if (k == 0)
        buffer_append_c (out, '0');
      for (int i = (int) k - 1; i >= 0; i--)
        buffer_append_c (out, digits[i]);
      return TRUE;
    }
  return FALSE;
}

/* Writes %g's `d.ddde+XX` (XX at most 15) as digits with a point. */
static void
append_without_exponent (Buffer     *out,
                         const char *text)
{
  char digits[32];
  int n = 0, exponent = atoi (strchr (text, 'e') + 1);

  if (*text == '-')
    buffer_append_c (out, *text++);
  for (; *text != 'e' && n < (int) sizeof digits; text++)
    if (g_ascii_isdigit (*text))
      digits[n++] = *text;
  /* the point goes after exponent + 1 digits */
  for (int i = 0; i <= exponent || i < n; i++)
    {
      if (i == exponent + 1)
        buffer_append_c (out, '.');
      buffer_append_c (out, i < n ? digits[i] : '0');
    }
  if (n <= exponent + 1)
    buffer_append_literal (out, ".0");
}

static void
append_json_int (Buffer *out,
                 gint64  value)
{
  char text[24];
  char *p = text + sizeof text;
  guint64 magnitude = value < 0 ? -(guint64) value : (guint64) value;

  do
    {
      *--p = '0' + magnitude % 10;
      magnitude /= 10;
    }
  while (magnitude != 0);
  if (value < 0)
    *--p = '-';
  buffer_append (out, p, text + sizeof text - p);
}

/* Writes the integer digits of %g (at least 17 of them) as d.ddde+XX. */
static void
append_with_exponent (Buffer     *out,
                      const char *text)
{
  gsize n;

  if (*text == '-')
    buffer_append_c (out, *text++);
  n = strlen (text);
  buffer_append_c (out, text[0]);
  while (n > 1 && text[n - 1] == '0')
    n--;
  if (n > 1)
    {
      buffer_append_c (out, '.');
      buffer_append (out, text + 1, n - 1);
    }
  buffer_append_literal (out, "e+");
  append_json_int (out, (gint64) strlen (text) - 1);
}

/* The shortest text that reads back as the same double, and reads back
 * as a real rather than an integer, as Python's repr() writes it. */
static void
append_json_double (Buffer *out,
                    double  value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  static const char * const formats[] = { "%.15g", "%.16g", "%.17g" };

  if (!isfinite (value))
    {
      /* JSON has no NaN nor infinity. */
      buffer_append_literal (out, "null");
      return;
    }
  if (append_short_decimal (out, value))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (text, sizeof text, formats[i], value);
      if (g_ascii_strtod (text, NULL) == value)
        break;
    }
  /* Python writes [1e-4, 1e16) without an exponent, the rest with one;
   * %g's choice depends on the precision. */
  if (strchr (text, 'e') != NULL && fabs (value) >= 1e-4 && fabs (value) < 1e16)
    append_without_exponent (out, text);
  else if (strchr (text, 'e') == NULL && fabs (value) >= 1e16)
    {
      append_with_exponent (out, text);
      return;
    }
  else
    buffer_append (out, text, strlen (text));
  if (strpbrk (text, ".eE") == NULL)
    buffer_append_literal (out, ".0");
}

/* A database value as grammar_value_to_json() describes it. */
static void
append_json_value (Buffer   *out,
                   GVariant *value)
{
  if (value == NULL)
    buffer_append_literal (out, "null");
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      gsize length = 0;
      const char *text = g_variant_get_string (value, &length);

      append_json_string (out, text, length);
    }
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    append_json_int (out, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    append_json_double (out, g_variant_get_double (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize size = 0;
      const guchar *data = g_variant_get_fixed_array (value, &size, 1);
      g_autofree char *text = g_base64_encode (data, size);

      append_json_string (out, text, strlen (text));
    }
  else
    {
      g_autofree char *text = g_variant_print (value, FALSE);

      append_json_string (out, text, strlen (text));
    }
}

/* Whether two key values are one group. SQL equality puts 1 and 1.0 in
 * one group, so the sort may interleave them. */
static gboolean
same_key (GVariant *a,
          GVariant *b)
{
  gboolean a_int = g_variant_is_of_type (a, G_VARIANT_TYPE_INT64);
  gboolean b_int = g_variant_is_of_type (b, G_VARIANT_TYPE_INT64);
  gboolean a_double = g_variant_is_of_type (a, G_VARIANT_TYPE_DOUBLE);
  gboolean b_double = g_variant_is_of_type (b, G_VARIANT_TYPE_DOUBLE);

  if (a_int && b_double)
    return (double) g_variant_get_int64 (a) == g_variant_get_double (b);
  if (a_double && b_int)
    return g_variant_get_double (a) == (double) g_variant_get_int64 (b);
  return g_variant_equal (a, b);
}

/* Deterministic sampling: SplitMix64, seeded per group and style so that
 * the choice for one group does not depend on any other. */
static guint64
splitmix64_next (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static guint64
fnv1a64 (const char *text)
{
  guint64 hash = G_GUINT64_CONSTANT (0xCBF29CE484222325);

  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    hash = (hash ^ *p) * G_GUINT64_CONSTANT (0x100000001B3);
  return hash;
}

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* A filled text, cut where the values go: the template's own fill
 * function is run once with marker values, and the pieces between the
 * markers are kept (JSON-escaped). Filling a group is then joining the
 * pieces and the group's values, instead of parsing the template again
 * for every record. */
typedef struct
{
  GPtrArray *pieces;  /* n_slots + 1 escaped texts */
  GArray *lengths;    /* gsize: their lengths */
  GArray *slots;      /* guint: the placeholder after each piece */
} Pattern;

static void
pattern_free (Pattern *pattern)
{
  if (pattern == NULL)
    return;
  g_ptr_array_unref (pattern->pieces);
  g_array_unref (pattern->lengths);
  g_array_unref (pattern->slots);
  g_free (pattern);
}

#define MARKER_START '\x01'
#define MARKER_END '\x02'

static GVariant *
marker_values (guint n)
{
  g_autoptr (GPtrArray) children = g_ptr_array_new ();

  for (guint p = 0; p < n; p++)
    {
      char marker[16];

      g_snprintf (marker, sizeof marker, "%c%u%c", MARKER_START, p, MARKER_END);
      g_ptr_array_add (children, g_variant_new_string (marker));
    }
  return g_variant_ref_sink (g_variant_new_tuple ((GVariant **) children->pdata, n));
}

/* Cuts @filled (a fill with marker_values()) at its markers; NULL when
 * the text has marker bytes of its own. */
static Pattern *
pattern_new (const char *filled,
             guint       n_placeholders)
{
  Pattern *pattern = g_new0 (Pattern, 1);
  const char *piece = filled;

  pattern->pieces = g_ptr_array_new_with_free_func (g_free);
  pattern->lengths = g_array_new (FALSE, FALSE, sizeof (gsize));
  pattern->slots = g_array_new (FALSE, FALSE, sizeof (guint));
  for (const char *p = strchr (filled, MARKER_START); p != NULL; p = strchr (piece, MARKER_START))
    {
      char *end = NULL;
      guint64 slot = g_ascii_strtoull (p + 1, &end, 10);
      Buffer escaped = { 0, };
      guint index = (guint) slot;

      if (end == p + 1 || *end != MARKER_END || slot >= n_placeholders)
        {
          pattern_free (pattern);
          return NULL;
        }
      append_json_content (&escaped, piece, p - piece);
      g_array_append_val (pattern->lengths, escaped.len);
      buffer_append_c (&escaped, '\0');
      g_ptr_array_add (pattern->pieces, escaped.data);
      g_array_append_val (pattern->slots, index);
      piece = end + 1;
    }
  if (strchr (piece, MARKER_END) != NULL)
    {
      pattern_free (pattern);
      return NULL;
    }
  g_ptr_array_add (pattern->pieces, json_content_dup (piece));
  g_array_append_val (pattern->lengths, *(gsize[]) { strlen (g_ptr_array_index (pattern->pieces, pattern->slots->len)) });
  return pattern;
}

/* Joins the pieces of @pattern with @values (escaped texts). */
static void
pattern_render (Pattern *pattern,
                Buffer  *values,
                Buffer  *out)
{
  const gsize *lengths = (const gsize *) (gpointer) pattern->lengths->data;
  guint n = pattern->slots->len;

  for (guint i = 0; i < n; i++)
    {
      buffer_append (out, g_ptr_array_index (pattern->pieces, i), lengths[i]);
      buffer_append_buffer (out, &values[g_array_index (pattern->slots, guint, i)]);
    }
  buffer_append (out, g_ptr_array_index (pattern->pieces, n), lengths[n]);
}

/* One run over a template set. */

typedef struct
{
  char *name;
  char *escaped;      /* JSON string content, without quotes */
  GPtrArray *texts;   /* of GrammarTextTemplate, in the set's order */
  GPtrArray *patterns; /* of Pattern (or NULL: fill each record), made by the writer */
  char *record_middle; /* ","template":"…","style":"…","text":" */
  gsize escaped_length;
  gsize record_middle_length;
} StyleTexts;

static void
style_texts_free (StyleTexts *style)
{
  g_free (style->name);
  g_free (style->escaped);
  g_ptr_array_unref (style->texts);
  g_clear_pointer (&style->patterns, g_ptr_array_unref);
  g_free (style->record_middle);
  g_free (style);
}

/* What was worked out for one SQL template before anything runs. */
typedef struct
{
  GrammarSqlTemplate *sql_template;
  guint n_placeholders;
  GPtrArray *styles;       /* of StyleTexts */
  guint64 *counts;         /* distinct non-NULL values of each placeholder */
  guint64 product;         /* their product, saturated at G_MAXUINT64 */
  char *set_based_query;   /* NULL to run per binding */
  gboolean ordered;        /* FALSE: each row of the query is a binding of its own */

  /* Ground-truth documents, when the run has some */
  GPtrArray *doc_sources;  /* of DocSource: the tables read that have documents, or NULL */
  guint n_doc_columns;     /* their key columns, after the answer's in the set-based query */
  gboolean dedupe;         /* the set-based query lost its DISTINCT: drop repeated answer rows */
  char *doc_query;         /* per binding: the rows read, run once per group */

  /* Made by the writer when it meets the template's first group. */
  gboolean prepared;
  gboolean verified;
  char *template_escaped;
  char *hash_prefix;       /* the template id and a newline */
  GPtrArray *binding_keys; /* "table.column" as JSON strings */
  Pattern *sql_pattern;    /* NULL: fill each group */
} Plan;

static void
plan_free (Plan *plan)
{
  g_object_unref (plan->sql_template);
  g_ptr_array_unref (plan->styles);
  g_free (plan->counts);
  g_free (plan->set_based_query);
  g_clear_pointer (&plan->doc_sources, g_ptr_array_unref);
  g_free (plan->doc_query);
  g_free (plan->template_escaped);
  g_free (plan->hash_prefix);
  g_clear_pointer (&plan->binding_keys, g_ptr_array_unref);
  pattern_free (plan->sql_pattern);
  g_free (plan);
}

/* The records of a run are written by a second thread, so that reading
 * the database and formatting the records overlap. The reader hands
 * over batches of complete groups, each its keys and then its answer
 * rows, as cells: the values copied out of the cursor's GVariants,
 * which are freed in the thread that made them. A fixed number of
 * batches goes round between the two threads, which bounds the memory. */

#define N_BATCHES 4
#define BATCH_GROUPS 1024
#define BATCH_CELLS (64 * 1024)

typedef enum
{
  CELL_NULL,
  CELL_TEXT,
  CELL_INT,
  CELL_DOUBLE,
  CELL_OTHER,   /* a blob, or a type a plugin may add: kept as a GVariant */
} CellKind;

/* One value of a group. */
typedef struct
{
  CellKind kind;
  union
  {
    struct
    {
      gsize offset;   /* in the batch's texts, followed by a NUL */
      gsize length;
    } text;
    gint64 integer;
    double real;
    GVariant *variant;
  };
} Cell;

typedef struct
{
  Plan *plan;              /* NULL: the end */
  guint width;             /* values in an answer row */
  GArray *cells;           /* of Cell: per group, the keys and then the answer rows */
  Buffer texts;            /* the text cells, each followed by a NUL */
  GArray *rows;            /* guint: the number of answer rows of each group */
  Buffer doc_ids;          /* the doc_ids arrays of the groups, as JSON */
  GArray *doc_spans;       /* of DocSpan: each group's, when the run has documents */
} Batch;

typedef struct
{
  gsize offset;
  gsize length;
} DocSpan;

static Batch *
batch_new (void)
{
  Batch *batch = g_new0 (Batch, 1);

  batch->cells = g_array_new (FALSE, FALSE, sizeof (Cell));
  batch->rows = g_array_new (FALSE, FALSE, sizeof (guint));
  batch->doc_spans = g_array_new (FALSE, FALSE, sizeof (DocSpan));
  return batch;
}

/* Forgets the cells from @length on. */
static void
batch_truncate (Batch *batch,
                guint  length)
{
  for (guint i = length; i < batch->cells->len; i++)
    {
      Cell *cell = &g_array_index (batch->cells, Cell, i);

      if (cell->kind == CELL_OTHER)
        g_variant_unref (cell->variant);
    }
  g_array_set_size (batch->cells, length);
}

static void
batch_reset (Batch *batch)
{
  batch_truncate (batch, 0);
  batch->plan = NULL;
  batch->texts.len = 0;
  g_array_set_size (batch->rows, 0);
  batch->doc_ids.len = 0;
  g_array_set_size (batch->doc_spans, 0);
}

static void
batch_free (Batch *batch)
{
  batch_reset (batch);
  g_array_unref (batch->cells);
  buffer_clear (&batch->texts);
  g_array_unref (batch->rows);
  buffer_clear (&batch->doc_ids);
  g_array_unref (batch->doc_spans);
  g_free (batch);
}

/* Adds a copy of @value (which stays the caller's) to the batch. */
static void
batch_add_cell (Batch    *batch,
                GVariant *value)
{
  Cell cell = { CELL_NULL, };

  if (value == NULL)
    cell.kind = CELL_NULL;
  else
    switch (g_variant_classify (value))
      {
      case G_VARIANT_CLASS_STRING:
        /* A string's serialised form is its text and a NUL; reading it
         * directly skips g_variant_get_string()'s type checks and
         * locks, which show when a million rows are read. */
        {
          const char *text = g_variant_get_data (value);

          cell.kind = CELL_TEXT;
          cell.text.offset = batch->texts.len;
          cell.text.length = strlen (text);
          buffer_append (&batch->texts, text, cell.text.length + 1);
          break;
        }
      case G_VARIANT_CLASS_INT64:
        cell.kind = CELL_INT;
        cell.integer = g_variant_get_int64 (value);
        break;
      case G_VARIANT_CLASS_DOUBLE:
        cell.kind = CELL_DOUBLE;
        cell.real = g_variant_get_double (value);
        break;
      default:
        cell.kind = CELL_OTHER;
        cell.variant = g_variant_ref (value);
        break;
      }
  g_array_append_val (batch->cells, cell);
}

/* A cell as a GVariant again (never for CELL_NULL: keys are not NULL). */
static GVariant *
cell_dup_variant (const Cell *cell,
                  const char *texts)
{
  switch (cell->kind)
    {
    case CELL_TEXT:
      return g_variant_ref_sink (g_variant_new_string (texts + cell->text.offset));
    case CELL_INT:
      return g_variant_ref_sink (g_variant_new_int64 (cell->integer));
    case CELL_DOUBLE:
      return g_variant_ref_sink (g_variant_new_double (cell->real));
    case CELL_OTHER:
      return g_variant_ref (cell->variant);
    case CELL_NULL:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* A cell as grammar_value_to_json() would write it. */
static void
append_json_cell (Buffer     *out,
                  const Cell *cell,
                  const char *texts)
{
  switch (cell->kind)
    {
    case CELL_TEXT:
      append_json_string (out, texts + cell->text.offset, cell->text.length);
      break;
    case CELL_INT:
      append_json_int (out, cell->integer);
      break;
    case CELL_DOUBLE:
      append_json_double (out, cell->real);
      break;
    case CELL_OTHER:
      append_json_value (out, cell->variant);
      break;
    case CELL_NULL:
    default:
      buffer_append_literal (out, "null");
      break;
    }
}

/* The values of a group, as the writer sees them. */
typedef struct
{
  const Cell *keys;
  const char *texts;
  guint n_keys;
  GVariant *tuple;   /* made when a template's own fill function is needed */
} Group;

static const char *
group_text (Group *group,
            guint  index)
{
  return group->keys[index].kind == CELL_TEXT ? group->texts + group->keys[index].text.offset : NULL;
}

static GVariant *
group_tuple (Group *group)
{
  g_autoptr (GPtrArray) children = NULL;

  if (group->tuple != NULL)
    return group->tuple;
  children = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  for (guint p = 0; p < group->n_keys; p++)
    g_ptr_array_add (children, cell_dup_variant (&group->keys[p], group->texts));
  group->tuple = g_variant_ref_sink (g_variant_new_tuple ((GVariant **) children->pdata, group->n_keys));
  return group->tuple;
}

static gboolean
group_all_texts (Group *group)
{
  for (guint p = 0; p < group->n_keys; p++)
    if (group->keys[p].kind != CELL_TEXT)
      return FALSE;
  return TRUE;
}

/* The writer's side. */
typedef struct
{
  GrammarQaGenerator *self;
  GOutputStream *output;
  GCancellable *cancellable;
  guint per_group;
  guint64 seed;

  Buffer out;
  Buffer answer;
  Buffer bindings;
  Buffer sql;
  Buffer record_end;       /* ","sql":…,"doc_ids":[]}\n of the group */
  Buffer scratch;
  Buffer *value_texts;     /* per placeholder: the value in a text, escaped */
  guint n_value_texts;
  GArray *chosen;          /* indices of the sampled text templates */
  GChecksum *checksum;     /* MD5 of each group, reset and reused: an
                            * identifier, not a security measure; GLib's
                            * SHA-256 costs 0.6 µs a group, MD5 0.25 µs */

  GError *error;           /* the first failure */
  gint failed;             /* atomic: error is set */
} Writer;

static void
writer_clear (Writer *writer)
{
  buffer_clear (&writer->out);
  buffer_clear (&writer->answer);
  buffer_clear (&writer->bindings);
  buffer_clear (&writer->sql);
  buffer_clear (&writer->record_end);
  buffer_clear (&writer->scratch);
  for (guint p = 0; p < writer->n_value_texts; p++)
    buffer_clear (&writer->value_texts[p]);
  g_free (writer->value_texts);
  g_clear_pointer (&writer->chosen, g_array_unref);
  g_clear_pointer (&writer->checksum, g_checksum_free);
  g_clear_error (&writer->error);
}

static gboolean
writer_flush (Writer *writer)
{
  gboolean ok = TRUE;

  if (writer->out.len > 0 && writer->error == NULL)
    ok = g_output_stream_write_all (writer->output, writer->out.data, writer->out.len, NULL,
                                    writer->cancellable, &writer->error);
  writer->out.len = 0;
  if (!ok)
    g_atomic_int_set (&writer->failed, TRUE);
  return ok;
}

/* A text template's pattern, checked against its own fill. */
static Pattern *
text_pattern_new (GrammarTextTemplate *text_template,
                  GrammarSqlTemplate  *sql_template,
                  guint                n)
{
  g_autoptr (GVariant) markers = marker_values (n);
  g_autofree char *filled = NULL;

  if (strchr (grammar_text_template_get_text (text_template), MARKER_START) != NULL ||
      strchr (grammar_text_template_get_text (text_template), MARKER_END) != NULL)
    return NULL;
  filled = grammar_text_template_fill (text_template, sql_template, markers);
  return filled != NULL ? pattern_new (filled, n) : NULL;
}

static void
prepare_plan (Writer *writer,
              Plan   *plan)
{
  g_autoptr (GVariant) markers = marker_values (plan->n_placeholders);
  g_autofree char *filled_sql = NULL;

  plan->template_escaped = json_content_dup (grammar_sql_template_get_id (plan->sql_template));
  plan->hash_prefix = g_strconcat (grammar_sql_template_get_id (plan->sql_template), "\n", NULL);
  plan->binding_keys = g_ptr_array_new_with_free_func (g_free);
  for (guint p = 0; p < plan->n_placeholders; p++)
    {
      g_autofree char *key = g_strdup_printf ("%s.%s",
                                              grammar_sql_template_get_placeholder_table (plan->sql_template, p),
                                              grammar_sql_template_get_placeholder_column (plan->sql_template, p));
      Buffer json = { 0, };

      append_json_string (&json, key, strlen (key));
      buffer_append_c (&json, '\0');
      g_ptr_array_add (plan->binding_keys, json.data);
    }

  if (strchr (grammar_sql_template_get_sql (plan->sql_template), MARKER_START) == NULL &&
      strchr (grammar_sql_template_get_sql (plan->sql_template), MARKER_END) == NULL)
    {
      filled_sql = grammar_sql_template_fill (plan->sql_template, markers);
      plan->sql_pattern = pattern_new (filled_sql, plan->n_placeholders);
    }

  for (guint s = 0; s < plan->styles->len; s++)
    {
      StyleTexts *style = g_ptr_array_index (plan->styles, s);

      style->record_middle = g_strdup_printf ("\",\"template\":\"%s\",\"style\":\"%s\",\"text\":\"",
                                              plan->template_escaped, style->escaped);
      style->escaped_length = strlen (style->escaped);
      style->record_middle_length = strlen (style->record_middle);
      style->patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) pattern_free);
      for (guint t = 0; t < style->texts->len; t++)
        g_ptr_array_add (style->patterns,
                         text_pattern_new (g_ptr_array_index (style->texts, t), plan->sql_template,
                                           plan->n_placeholders));
    }

  if (writer->n_value_texts < plan->n_placeholders)
    {
      writer->value_texts = g_renew (Buffer, writer->value_texts, plan->n_placeholders);
      memset (writer->value_texts + writer->n_value_texts, 0,
              (plan->n_placeholders - writer->n_value_texts) * sizeof (Buffer));
      writer->n_value_texts = plan->n_placeholders;
    }
  plan->prepared = TRUE;
}

/* The filled SQL of a group as a JSON string, into writer->sql. */
static void
render_sql (Writer *writer,
            Plan   *plan,
            Group  *group)
{
  writer->sql.len = 0;
  buffer_append_c (&writer->sql, '"');
  if (plan->sql_pattern != NULL && group_all_texts (group))
    {
      /* A string literal: the pattern has the quotes, the value its quotes doubled. */
      for (guint p = 0; p < plan->n_placeholders; p++)
        {
          const char *text = group_text (group, p);
          Buffer *literal = &writer->value_texts[p];

          literal->len = 0;
          for (const char *quote = strchr (text, '\''); quote != NULL; quote = strchr (text, '\''))
            {
              append_json_content (literal, text, quote - text + 1);
              buffer_append_c (literal, '\'');
              text = quote + 1;
            }
          append_json_content (literal, text, strlen (text));
        }
      pattern_render (plan->sql_pattern, writer->value_texts, &writer->sql);
    }
  else
    {
      g_autofree char *sql = grammar_sql_template_fill (plan->sql_template, group_tuple (group));

      append_json_content (&writer->sql, sql, strlen (sql));
    }
  buffer_append_c (&writer->sql, '"');
}

/* How each value reads in a text, escaped, into writer->value_texts. */
static void
render_value_texts (Writer *writer,
                    Plan   *plan,
                    Group  *group)
{
  for (guint p = 0; p < plan->n_placeholders; p++)
    {
      Buffer *text = &writer->value_texts[p];

      text->len = 0;
      if (group->keys[p].kind == CELL_TEXT)
        append_json_content (text, group_text (group, p), group->keys[p].text.length);
      else
        {
          g_autoptr (GVariant) value = cell_dup_variant (&group->keys[p], group->texts);
          g_autofree char *string = grammar_value_to_text (value);

          append_json_content (text, string, strlen (string));
        }
    }
}

/* Whether @pattern, with the group's values, gives what @filled is. */
static gboolean
pattern_matches (Writer     *writer,
                 Pattern    *pattern,
                 Buffer     *values,
                 const char *filled)
{
  Buffer expected = { 0, };
  gboolean same;

  writer->scratch.len = 0;
  pattern_render (pattern, values, &writer->scratch);
  append_json_content (&expected, filled, strlen (filled));
  same = expected.len == writer->scratch.len && memcmp (expected.data, writer->scratch.data, expected.len) == 0;
  buffer_clear (&expected);
  return same;
}

/* Checks the patterns against the templates' own fill functions on the
 * first group, and drops any that disagrees (they are then filled for
 * every record). */
static void
verify_patterns (Writer *writer,
                 Plan   *plan,
                 Group  *group)
{
  plan->verified = TRUE;
  if (plan->sql_pattern != NULL && group_all_texts (group))
    {
      g_autofree char *sql = grammar_sql_template_fill (plan->sql_template, group_tuple (group));
      Buffer expected = { 0, };

      append_json_string (&expected, sql, strlen (sql));
      if (expected.len != writer->sql.len || memcmp (expected.data, writer->sql.data, expected.len) != 0)
        {
          g_debug ("%s: the filled SQL does not follow its pattern", grammar_sql_template_get_id (plan->sql_template));
          g_clear_pointer (&plan->sql_pattern, pattern_free);
          writer->sql.len = 0;
          buffer_append_buffer (&writer->sql, &expected);
        }
      buffer_clear (&expected);
    }
  for (guint s = 0; s < plan->styles->len; s++)
    {
      StyleTexts *style = g_ptr_array_index (plan->styles, s);

      for (guint t = 0; t < style->texts->len; t++)
        {
          Pattern *pattern = g_ptr_array_index (style->patterns, t);
          g_autofree char *text = NULL;

          if (pattern == NULL)
            continue;
          text = grammar_text_template_fill (g_ptr_array_index (style->texts, t), plan->sql_template,
                                             group_tuple (group));
          if (!pattern_matches (writer, pattern, writer->value_texts, text))
            {
              g_debug ("%s: a filled text does not follow its pattern", grammar_sql_template_get_id (plan->sql_template));
              g_ptr_array_index (style->patterns, t) = NULL;
              pattern_free (pattern);
            }
        }
    }
}

/* Chooses which text templates of @style a group keeps: all of them, or
 * per-group of them at random, in their original order. */
static void
choose_texts (Writer       *writer,
              const guint8 *digest,
              StyleTexts   *style)
{
  guint n_texts = style->texts->len;
  guint per_group = writer->per_group;
  guint64 state;

  g_array_set_size (writer->chosen, n_texts);
  for (guint i = 0; i < n_texts; i++)
    g_array_index (writer->chosen, guint, i) = i;
  if (per_group == 0 || per_group >= n_texts)
    return;

  memcpy (&state, digest, sizeof state);
  state ^= fnv1a64 (style->name) ^ writer->seed;
  for (guint i = 0; i < per_group; i++)
    {
      guint j = i + (guint) (splitmix64_next (&state) % (n_texts - i));
      guint swap = g_array_index (writer->chosen, guint, i);

      g_array_index (writer->chosen, guint, i) = g_array_index (writer->chosen, guint, j);
      g_array_index (writer->chosen, guint, j) = swap;
    }
  g_array_set_size (writer->chosen, per_group);
  g_array_sort (writer->chosen, compare_uint);
}

static void
write_record (Writer     *writer,
              Plan       *plan,
              Group      *values,
              const char *group,
              StyleTexts *style,
              guint       index)
{
  Pattern *pattern = g_ptr_array_index (style->patterns, index);
  Buffer *out = &writer->out;

  buffer_append_literal (out, "{\"id\":\"");
  buffer_append (out, group, 13);
  buffer_append_c (out, '-');
  buffer_append (out, style->escaped, style->escaped_length);
  buffer_append_c (out, '-');
  append_json_int (out, index);
  buffer_append_literal (out, "\",\"group\":\"");
  buffer_append (out, group, 13);
  buffer_append (out, style->record_middle, style->record_middle_length);
  if (pattern != NULL)
    pattern_render (pattern, writer->value_texts, out);
  else
    {
      g_autofree char *text = grammar_text_template_fill (g_ptr_array_index (style->texts, index),
                                                          plan->sql_template, group_tuple (values));

      append_json_content (out, text, strlen (text));
    }
  buffer_append_buffer (out, &writer->record_end);
}

/* The answer of a group as JSON, into writer->answer. */
static void
render_answer (Writer     *writer,
               const Cell *cells,
               const char *texts,
               guint       n_rows,
               guint       width)
{
  Buffer *answer = &writer->answer;

  answer->len = 0;
  buffer_append_c (answer, '[');
  for (guint r = 0; r < n_rows; r++)
    {
      if (r > 0)
        buffer_append_c (answer, ',');
      buffer_append_c (answer, '[');
      for (guint c = 0; c < width; c++)
        {
          if (c > 0)
            buffer_append_c (answer, ',');
          append_json_cell (answer, &cells[(gsize) r * width + c], texts);
        }
      buffer_append_c (answer, ']');
    }
  buffer_append_c (answer, ']');
}

/* Writes the records of one group: the filled query @keys, with the
 * answer in writer->answer. */
static void
write_group (Writer     *writer,
             Plan       *plan,
             const Cell *keys,
             const char *texts,
             const char *doc_ids,
             gsize       doc_ids_length)
{
  Group values_group = { keys, texts, plan->n_placeholders, NULL };
  guint8 digest[32];
  gsize digest_length = sizeof digest;
  char group[14];

  if (!plan->prepared)
    prepare_plan (writer, plan);

  writer->bindings.len = 0;
  buffer_append_c (&writer->bindings, '{');
  for (guint p = 0; p < plan->n_placeholders; p++)
    {
      const char *key = g_ptr_array_index (plan->binding_keys, p);

      if (p > 0)
        buffer_append_c (&writer->bindings, ',');
      buffer_append (&writer->bindings, key, strlen (key));
      buffer_append_c (&writer->bindings, ':');
      append_json_cell (&writer->bindings, &keys[p], texts);
    }
  buffer_append_c (&writer->bindings, '}');

  g_checksum_reset (writer->checksum);
  g_checksum_update (writer->checksum, (const guchar *) plan->hash_prefix, -1);
  g_checksum_update (writer->checksum, (const guchar *) writer->bindings.data, writer->bindings.len);
  g_checksum_get_digest (writer->checksum, digest, &digest_length);
  group[0] = 'g';
  for (guint i = 0; i < 6; i++)
    {
      group[1 + 2 * i] = "0123456789abcdef"[digest[i] >> 4];
      group[2 + 2 * i] = "0123456789abcdef"[digest[i] & 0xf];
    }
  group[13] = '\0';

  /* render_sql() uses value_texts for the SQL literals, before they
   * take the texts of the values. */
  render_sql (writer, plan, &values_group);
  render_value_texts (writer, plan, &values_group);
  if (!plan->verified)
    verify_patterns (writer, plan, &values_group);

  writer->record_end.len = 0;
  buffer_append_literal (&writer->record_end, "\",\"sql\":");
  buffer_append_buffer (&writer->record_end, &writer->sql);
  buffer_append_literal (&writer->record_end, ",\"bindings\":");
  buffer_append_buffer (&writer->record_end, &writer->bindings);
  buffer_append_literal (&writer->record_end, ",\"answer\":");
  buffer_append_buffer (&writer->record_end, &writer->answer);
  buffer_append_literal (&writer->record_end, ",\"doc_ids\":");
  if (doc_ids != NULL)
    buffer_append (&writer->record_end, doc_ids, doc_ids_length);
  else
    buffer_append_literal (&writer->record_end, "[]");
  buffer_append_literal (&writer->record_end, "}\n");
  for (guint s = 0; s < plan->styles->len; s++)
    {
      StyleTexts *style = g_ptr_array_index (plan->styles, s);

      choose_texts (writer, digest, style);
      for (guint i = 0; i < writer->chosen->len; i++)
        write_record (writer, plan, &values_group, group, style, g_array_index (writer->chosen, guint, i));
    }
  g_clear_pointer (&values_group.tuple, g_variant_unref);
}

static void
write_batch (Writer *writer,
             Batch  *batch)
{
  guint n = batch->plan->n_placeholders;
  const Cell *cells = (const Cell *) (gpointer) batch->cells->data;

  if (g_atomic_int_get (&writer->failed))
    return;
  for (guint g = 0; g < batch->rows->len; g++)
    {
      guint n_rows = g_array_index (batch->rows, guint, g);
      const DocSpan *span = g < batch->doc_spans->len ? &g_array_index (batch->doc_spans, DocSpan, g) : NULL;

      render_answer (writer, cells + n, batch->texts.data, n_rows, batch->width);
      write_group (writer, batch->plan, cells, batch->texts.data,
                   span != NULL ? batch->doc_ids.data + span->offset : NULL, span != NULL ? span->length : 0);
      cells += n + (gsize) n_rows * batch->width;
      if (writer->out.len >= FLUSH_SIZE && !writer_flush (writer))
        return;
    }
}

/* The reader's side. */
typedef struct
{
  GrammarQaGenerator *self;
  GCancellable *cancellable;
  Writer writer;
  GThread *thread;         /* NULL: batches are written by the reader */
  GAsyncQueue *full;       /* batches to write */
  GAsyncQueue *empty;      /* batches to fill */
  Batch *batch;            /* being filled */
  guint group_start;       /* where the open group's cells start in it */
  gsize group_texts;       /* and its texts */
  guint group_rows;        /* its answer rows so far */
  guint records_per_group; /* of the template being read */

  /* Ground-truth documents, when the run has some */
  GHashTable *doc_keys;    /* as in GrammarQaGenerator, or NULL */
  GPtrArray *documents;
  const guint *doc_next;
  GPtrArray *group_docs;   /* const char *: the ids found for the open group */
  GHashTable *seen_rows;   /* GBytes: the open group's answer rows, for Plan.dedupe */
  GString *key;            /* scratch */
} Run;

static gpointer
writer_thread (gpointer data)
{
  Run *run = data;

  for (;;)
    {
      Batch *batch = g_async_queue_pop (run->full);
      gboolean last = batch->plan == NULL;

      if (!last)
        write_batch (&run->writer, batch);
      batch_reset (batch);
      g_async_queue_push (run->empty, batch);
      if (last)
        break;
    }
  writer_flush (&run->writer);
  return NULL;
}

static void
run_init (Run                *run,
          GrammarQaGenerator *self,
          GOutputStream      *output,
          GCancellable       *cancellable)
{
  memset (run, 0, sizeof *run);
  run->self = self;
  run->cancellable = cancellable;
  run->writer.self = self;
  run->writer.output = output;
  run->writer.cancellable = cancellable;
  run->writer.per_group = self->per_group;
  run->writer.seed = self->seed;
  run->writer.chosen = g_array_new (FALSE, FALSE, sizeof (guint));
  run->writer.checksum = g_checksum_new (G_CHECKSUM_MD5);
  run->full = g_async_queue_new ();
  run->empty = g_async_queue_new_full ((GDestroyNotify) batch_free);
  for (guint i = 0; i < N_BATCHES; i++)
    g_async_queue_push (run->empty, batch_new ());
  run->thread = g_thread_try_new ("grammar-qa-writer", writer_thread, run, NULL);
  if (self->doc_keys == NULL)
    return;
  run->doc_keys = self->doc_keys;
  run->documents = self->documents;
  run->doc_next = (const guint *) (gpointer) self->doc_next->data;
  run->group_docs = g_ptr_array_new ();
  run->seen_rows = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  run->key = g_string_new (NULL);
}

/* Hands the batch being filled to the writer. */
static gboolean
run_send (Run     *run,
          GError **error)
{
  Batch *batch = run->batch;

  run->batch = NULL;
  if (batch == NULL)
    return TRUE;
  if (run->thread != NULL)
    g_async_queue_push (run->full, batch);
  else
    {
      write_batch (&run->writer, batch);
      batch_reset (batch);
      g_async_queue_push (run->empty, batch);
    }
  /* Once failed is set, the writer's error no longer changes. */
  if (g_atomic_int_get (&run->writer.failed))
    {
      g_propagate_error (error, g_error_copy (run->writer.error));
      return FALSE;
    }
  return TRUE;
}

/* Stops the writer; returns its error, if any. */
static gboolean
run_finish (Run     *run,
            GError **error)
{
  Batch *end;

  g_clear_pointer (&run->batch, batch_free);
  if (run->thread != NULL)
    {
      end = g_async_queue_pop (run->empty);
      batch_reset (end);
      g_async_queue_push (run->full, end);
      g_thread_join (g_steal_pointer (&run->thread));
    }
  else
    writer_flush (&run->writer);

  if (run->writer.error != NULL)
    {
      if (error != NULL && *error == NULL)
        g_propagate_error (error, g_steal_pointer (&run->writer.error));
      return FALSE;
    }
  return TRUE;
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->batch, batch_free);
  g_async_queue_unref (run->full);
  g_async_queue_unref (run->empty);
  writer_clear (&run->writer);
  g_clear_pointer (&run->group_docs, g_ptr_array_unref);
  g_clear_pointer (&run->seen_rows, g_hash_table_unref);
  if (run->key != NULL)
    g_string_free (g_steal_pointer (&run->key), TRUE);
}

static void
run_progress (Run      *run,
              gboolean  force)
{
  gint64 now = g_get_monotonic_time ();

  if (!force && now - run->self->last_progress < PROGRESS_INTERVAL_US)
    return;
  run->self->last_progress = now;
  g_signal_emit (run->self, signals[SIGNAL_PROGRESS], 0);
}

/* The canonical text of a key value: integers and whole reals alike,
 * since SQL compares them equal. */
static void
append_canonical_int (GString *out,
                      gint64   value)
{
  char text[24];
  char *p = text + sizeof text;
  guint64 magnitude = value < 0 ? -(guint64) value : (guint64) value;

  do
    {
      *--p = '0' + magnitude % 10;
      magnitude /= 10;
    }
  while (magnitude != 0);
  if (value < 0)
    *--p = '-';
  g_string_append_c (out, 'i');
  g_string_append_len (out, p, text + sizeof text - p);
}

static void
append_canonical_value (GString  *out,
                        GVariant *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    append_canonical_int (out, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    {
      double real = g_variant_get_double (value);
      char text[G_ASCII_DTOSTR_BUF_SIZE];

      if (isfinite (real) && real == floor (real) && fabs (real) < 9.2e18)
        append_canonical_int (out, (gint64) real);
      else
        g_string_append_printf (out, "d%s", g_ascii_formatd (text, sizeof text, "%.17g", real));
    }
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      g_string_append_c (out, 's');
      g_string_append (out, g_variant_get_string (value, NULL));
    }
  else
    {
      g_autofree char *text = grammar_value_to_text (value);

      g_string_append_printf (out, "b%s", text);
    }
}

/* Looks up the documents of the rows the cursor's row read: the key
 * columns of each source start at @first. */
static void
collect_doc_ids (Run           *run,
                 Plan          *plan,
                 GrammarCursor *cursor,
                 guint          first)
{
  for (guint s = 0; s < plan->doc_sources->len; s++)
    {
      DocSource *source = g_ptr_array_index (plan->doc_sources, s);
      guint document = 0;
      gboolean complete = TRUE;

      g_string_assign (run->key, source->prefix);
      for (guint k = 0; k < source->n_columns && complete; k++)
        {
          g_autoptr (GVariant) value = grammar_cursor_get_value (cursor, first + source->columns[k]);

          complete = value != NULL;
          if (complete)
            {
              g_string_append (run->key, source->names[k]);
              g_string_append_c (run->key, '=');
              append_canonical_value (run->key, value);
              g_string_append_c (run->key, '\x1f');
            }
        }
      if (complete)
        document = GPOINTER_TO_UINT (g_hash_table_lookup (run->doc_keys, run->key->str));
      for (; document != 0; document = run->doc_next[document - 1])
        g_ptr_array_add (run->group_docs,
                         (gpointer) grammar_document_get_id (g_ptr_array_index (run->documents, document - 1)));
    }
}

/* Whether the answer row that starts at cell @start is new in its group. */
static gboolean
row_is_new (Run   *run,
            guint  start)
{
  Batch *batch = run->batch;
  GByteArray *bytes = g_byte_array_new ();

  for (guint c = start; c < batch->cells->len; c++)
    {
      const Cell *cell = &g_array_index (batch->cells, Cell, c);
      g_autofree char *other = NULL;

      g_byte_array_append (bytes, (const guint8 *) &cell->kind, sizeof cell->kind);
      if (cell->kind == CELL_TEXT)
        g_byte_array_append (bytes, (const guint8 *) batch->texts.data + cell->text.offset, cell->text.length + 1);
      else if (cell->kind == CELL_INT)
        g_byte_array_append (bytes, (const guint8 *) &cell->integer, sizeof cell->integer);
      else if (cell->kind == CELL_DOUBLE)
        g_byte_array_append (bytes, (const guint8 *) &cell->real, sizeof cell->real);
      else if (cell->kind == CELL_OTHER)
        {
          other = g_variant_print (cell->variant, TRUE);
          g_byte_array_append (bytes, (const guint8 *) other, strlen (other) + 1);
        }
    }
  return g_hash_table_add (run->seen_rows, g_byte_array_free_to_bytes (bytes));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The open group's document ids, sorted and unique, as a JSON array. */
static void
add_group_doc_ids (Run   *run,
                   Batch *batch)
{
  DocSpan span = { batch->doc_ids.len, 0 };
  const char *last = NULL;

  g_ptr_array_sort (run->group_docs, compare_strings);
  buffer_append_c (&batch->doc_ids, '[');
  for (guint i = 0; i < run->group_docs->len; i++)
    {
      const char *id = g_ptr_array_index (run->group_docs, i);

      if (last != NULL && strcmp (last, id) == 0)
        continue;
      if (last != NULL)
        buffer_append_c (&batch->doc_ids, ',');
      append_json_string (&batch->doc_ids, id, strlen (id));
      last = id;
    }
  buffer_append_c (&batch->doc_ids, ']');
  span.length = batch->doc_ids.len - span.offset;
  g_array_append_val (batch->doc_spans, span);
}

/* Opens a group with its key values (which stay the caller's). */
static void
group_begin (Run       *run,
             Plan      *plan,
             GVariant **keys,
             guint      width)
{
  Batch *batch = run->batch;

  if (batch == NULL)
    {
      batch = run->batch = g_async_queue_pop (run->empty);
      batch->plan = plan;
      batch->width = width;
    }
  run->group_start = batch->cells->len;
  run->group_texts = batch->texts.len;
  run->group_rows = 0;
  for (guint p = 0; p < plan->n_placeholders; p++)
    batch_add_cell (batch, keys[p]);
  if (run->doc_keys != NULL)
    {
      g_ptr_array_set_size (run->group_docs, 0);
      if (plan->dedupe)
        g_hash_table_remove_all (run->seen_rows);
    }
}

static void
group_add_row (Run           *run,
               GrammarCursor *cursor,
               guint          first_column)
{
  guint n_columns = first_column + run->batch->width;
  guint row_start = run->batch->cells->len;
  gsize texts_start = run->batch->texts.len;

  for (guint c = first_column; c < n_columns; c++)
    {
      g_autoptr (GVariant) value = grammar_cursor_get_value (cursor, c);

      batch_add_cell (run->batch, value);
    }
  if (G_UNLIKELY (run->doc_keys != NULL) && run->batch->plan->n_doc_columns > 0)
    {
      collect_doc_ids (run, run->batch->plan, cursor, n_columns);
      if (run->batch->plan->dedupe && !row_is_new (run, row_start))
        {
          batch_truncate (run->batch, row_start);
          run->batch->texts.len = texts_start;
          return;
        }
    }
  run->group_rows++;
}

/* Closes the open group: dropped when its answer is empty, else kept;
 * a full batch goes to the writer. */
static gboolean
group_end (Run     *run,
           GError **error)
{
  Batch *batch = run->batch;

  if (run->group_rows == 0)
    {
      batch_truncate (batch, run->group_start);
      batch->texts.len = run->group_texts;
      run->self->n_skipped++;
      return TRUE;
    }
  g_array_append_val (batch->rows, run->group_rows);
  if (run->doc_keys != NULL)
    add_group_doc_ids (run, batch);
  run->self->n_groups++;
  run->self->n_records += run->records_per_group;
  if ((run->self->n_groups & 1023) == 0)
    run_progress (run, FALSE);
  if (batch->rows->len >= BATCH_GROUPS || batch->cells->len >= BATCH_CELLS)
    return run_send (run, error);
  return TRUE;
}

static gboolean
propagate_cursor_error (GError  *local_error,
                        GError **error)
{
  if (local_error == NULL)
    return TRUE;
  g_propagate_error (error, local_error);
  return FALSE;
}

static void
clear_values (GVariant **values,
              guint      n)
{
  for (guint i = 0; i < n; i++)
    g_clear_pointer (&values[i], g_variant_unref);
}

/* The set-based plan: one query, cut into groups where the keys change. */
static gboolean
run_set_based (Run     *run,
               Plan    *plan,
               GError **error)
{
  guint n_keys = plan->n_placeholders;
  g_autoptr (GrammarCursor) cursor = NULL;
  g_autofree GVariant **keys = g_new0 (GVariant *, n_keys);
  g_autofree GVariant **row = g_new0 (GVariant *, n_keys);
  GError *local_error = NULL;
  guint64 n_groups = run->self->n_groups;
  gboolean open = FALSE;
  gboolean ok = TRUE;
  guint width;

  cursor = grammar_database_query_cursor (run->self->database, plan->set_based_query, NULL,
                                          run->cancellable, error);
  if (cursor == NULL)
    return FALSE;
  width = grammar_cursor_get_n_columns (cursor) - n_keys - plan->n_doc_columns;

  while (ok && grammar_cursor_next (cursor, run->cancellable, &local_error))
    {
      /* an unordered query has a binding a row */
      gboolean same = open && plan->ordered;

      for (guint k = 0; k < n_keys; k++)
        {
          row[k] = grammar_cursor_get_value (cursor, k);
          same = same && row[k] != NULL && same_key (row[k], keys[k]);
        }
      if (same)
        clear_values (row, n_keys);
      else
        {
          ok = !open || group_end (run, error);
          clear_values (keys, n_keys);
          memcpy (keys, row, n_keys * sizeof *keys);
          memset (row, 0, n_keys * sizeof *row);
          group_begin (run, plan, keys, width);
          open = TRUE;
        }
      group_add_row (run, cursor, n_keys);
    }
  clear_values (keys, n_keys);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (!ok || (open && !group_end (run, error)))
    return FALSE;

  /* The skipped combinations are those that never came. */
  n_groups = run->self->n_groups - n_groups;
  if (plan->product != G_MAXUINT64 && plan->product >= n_groups)
    run->self->n_skipped += plan->product - n_groups;
  return TRUE;
}

/* The documents of the rows one binding of a template answered per
 * binding reads, with its second query. */
static void
read_doc_rows (Run       *run,
               Plan      *plan,
               GVariant  *tuple,
               GError   **error)
{
  g_autoptr (GrammarCursor) cursor = NULL;

  cursor = grammar_database_query_cursor (run->self->database, plan->doc_query, tuple, run->cancellable, error);
  if (cursor == NULL)
    return;
  while (grammar_cursor_next (cursor, run->cancellable, error))
    collect_doc_ids (run, plan, cursor, 0);
}

/* Runs the template for one combination of values. */
static gboolean
run_binding (Run       *run,
             Plan      *plan,
             GVariant **values,
             GError   **error)
{
  g_autoptr (GVariant) tuple = g_variant_ref_sink (g_variant_new_tuple (values, plan->n_placeholders));
  g_autoptr (GrammarCursor) cursor = NULL;
  GError *local_error = NULL;

  cursor = grammar_database_query_cursor (run->self->database,
                                          grammar_sql_template_get_bound_sql (plan->sql_template),
                                          tuple, run->cancellable, error);
  if (cursor == NULL)
    return FALSE;
  group_begin (run, plan, values, grammar_cursor_get_n_columns (cursor));
  while (grammar_cursor_next (cursor, run->cancellable, &local_error))
    group_add_row (run, cursor, 0);
  if (local_error == NULL && run->group_rows > 0 && run->doc_keys != NULL && plan->doc_query != NULL)
    read_doc_rows (run, plan, tuple, &local_error);
  if (local_error != NULL)
    {
      /* dropped as if empty */
      run->group_rows = 0;
      group_end (run, NULL);
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return group_end (run, error);
}

/* The distinct non-NULL values of a placeholder's column, in binary
 * order: the order an ordered set-based plan's keys come in. */
static GrammarCursor *
distinct_values_cursor (GrammarDatabase     *database,
                        GrammarSqlTemplate  *sql_template,
                        guint                placeholder,
                        GCancellable        *cancellable,
                        GError             **error)
{
  g_autofree char *table = grammar_database_quote_identifier (database,
    grammar_sql_template_get_placeholder_table (sql_template, placeholder));
  g_autofree char *column = grammar_database_quote_identifier (database,
    grammar_sql_template_get_placeholder_column (sql_template, placeholder));
  g_autofree char *sql = g_strdup_printf ("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL ORDER BY 1 COLLATE BINARY",
                                          column, table, column);

  return grammar_database_query_cursor (database, sql, NULL, cancellable, error);
}

static GPtrArray *
load_distinct_values (Run      *run,
                      Plan     *plan,
                      guint     placeholder,
                      GError  **error)
{
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  g_autoptr (GrammarCursor) cursor = NULL;
  GError *local_error = NULL;

  cursor = distinct_values_cursor (run->self->database, plan->sql_template, placeholder,
                                   run->cancellable, error);
  if (cursor == NULL)
    return NULL;
  while (grammar_cursor_next (cursor, run->cancellable, &local_error))
    g_ptr_array_add (values, grammar_cursor_get_value (cursor, 0));
  if (!propagate_cursor_error (local_error, error))
    return NULL;
  return g_steal_pointer (&values);
}

static void
clear_value_array (gpointer data)
{
  if (data != NULL)
    g_ptr_array_unref (data);
}

/* The per-binding plan: the first placeholder's values are streamed,
 * the others (whose product is bounded by max-combinations) are held,
 * and every combination runs the template's own statement. */
static gboolean
run_per_binding (Run     *run,
                 Plan    *plan,
                 GError **error)
{
  guint n = plan->n_placeholders;
  g_autoptr (GPtrArray) inner = g_ptr_array_new_with_free_func (clear_value_array);
  g_autoptr (GrammarCursor) outer = NULL;
  g_autofree GVariant **values = g_new0 (GVariant *, n);
  g_autofree guint *index = g_new0 (guint, n);
  GError *local_error = NULL;

  g_ptr_array_add (inner, NULL);
  for (guint p = 1; p < n; p++)
    {
      GPtrArray *column = load_distinct_values (run, plan, p, error);

      if (column == NULL)
        return FALSE;
      g_ptr_array_add (inner, column);
    }
  outer = distinct_values_cursor (run->self->database, plan->sql_template, 0, run->cancellable, error);
  if (outer == NULL)
    return FALSE;

  while (grammar_cursor_next (outer, run->cancellable, &local_error))
    {
      g_autoptr (GVariant) first = grammar_cursor_get_value (outer, 0);
      gboolean more = TRUE;

      values[0] = first;
      memset (index, 0, n * sizeof *index);
      while (more)
        {
          guint p;

          for (p = 1; p < n; p++)
            values[p] = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (inner, p), index[p]);
          if (!run_binding (run, plan, values, error))
            return FALSE;
          /* Advance the odometer, last placeholder fastest. */
          for (p = n - 1; p >= 1; p--)
            {
              if (++index[p] < ((GPtrArray *) g_ptr_array_index (inner, p))->len)
                break;
              index[p] = 0;
            }
          more = p >= 1 && n > 1;
        }
    }
  return propagate_cursor_error (local_error, error);
}

/* Planning: styles, distinct counts, and which plan answers. */

static GPtrArray *
collect_styles (GrammarTemplateSet *templates,
                GrammarSqlTemplate *sql_template,
                const char * const *styles)
{
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) style_texts_free);

  for (guint s = 0; styles[s] != NULL; s++)
    {
      g_autoptr (GPtrArray) texts = grammar_template_set_get_text_templates_for (templates,
        grammar_sql_template_get_id (sql_template), styles[s]);
      StyleTexts *style;

      if (texts == NULL)
        texts = g_ptr_array_new ();
      style = g_new0 (StyleTexts, 1);
      style->name = g_strdup (styles[s]);
      style->escaped = json_content_dup (styles[s]);
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
      guint n_texts = ((StyleTexts *) g_ptr_array_index (styles, s))->texts->len;

      n += per_group > 0 ? MIN (per_group, n_texts) : n_texts;
    }
  return n;
}

static gboolean
count_distinct (GrammarQaGenerator  *self,
                Plan                *plan,
                guint                placeholder,
                GCancellable        *cancellable,
                GError             **error)
{
  GrammarSqlTemplate *sql_template = plan->sql_template;
  const char *table_name = grammar_sql_template_get_placeholder_table (sql_template, placeholder);
  const char *column_name = grammar_sql_template_get_placeholder_column (sql_template, placeholder);
  g_autofree char *table = grammar_database_quote_identifier (self->database, table_name);
  g_autofree char *column = grammar_database_quote_identifier (self->database, column_name);
  g_autofree char *sql = g_strdup_printf ("SELECT count(DISTINCT %s) FROM %s", column, table);
  g_autoptr (GrammarResult) result = NULL;
  GVariant *count;

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
describe_product (Plan *plan)
{
  GString *text = g_string_new (NULL);

  for (guint p = 0; p < plan->n_placeholders; p++)
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, p > 0 ? " × " : "", plan->counts[p]);
  return g_string_free (text, FALSE);
}

static void
plan_documents_per_binding (GrammarQaGenerator *self,
                            GrammarSchema      *schema,
                            Plan               *plan)
{
  g_autoptr (GError) error = NULL;
  DocPlan docs = { self->doc_tables, NULL, 0, FALSE };

  plan->doc_query = plan_doc_query (plan->sql_template, schema, &docs, &error);
  plan->doc_sources = docs.sources;
  if (error != NULL)
    g_ptr_array_add (self->warnings, g_strdup (error->message));
}

static Plan *
plan_template (GrammarQaGenerator  *self,
               GrammarSchema       *schema,
               GrammarSqlTemplate  *sql_template,
               GPtrArray           *styles,
               GCancellable        *cancellable,
               GError             **error)
{
  Plan *plan = g_new0 (Plan, 1);
  g_autoptr (GError) refusal = NULL;
  DocPlan docs = { self->doc_tables, NULL, 0, FALSE };

  plan->sql_template = g_object_ref (sql_template);
  plan->n_placeholders = grammar_sql_template_get_n_placeholders (sql_template);
  plan->styles = styles;
  plan->counts = g_new0 (guint64, MAX (plan->n_placeholders, 1));
  plan->product = 1;

  for (guint p = 0; p < plan->n_placeholders; p++)
    {
      if (!count_distinct (self, plan, p, cancellable, error))
        {
          plan_free (plan);
          return NULL;
        }
      if (plan->product > G_MAXUINT64 / plan->counts[p])
        plan->product = G_MAXUINT64;
      else
        plan->product *= plan->counts[p];
    }

  if (self->set_based)
    plan->set_based_query = plan_set_based (sql_template, schema, &plan->ordered,
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
      plan_free (plan);
      return NULL;
    }
  return plan;
}

static void
warn_short_styles (GrammarQaGenerator *self,
                   Plan               *plan,
                   guint64             n_groups)
{
  const char *id = grammar_sql_template_get_id (plan->sql_template);

  if (self->per_group == 0)
    return;
  for (guint s = 0; s < plan->styles->len; s++)
    {
      StyleTexts *style = g_ptr_array_index (plan->styles, s);

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
  g_autoptr (GPtrArray) plans = g_ptr_array_new_with_free_func ((GDestroyNotify) plan_free);
  const char * const no_styles[] = { NULL };
  const char * const *style_names = styles != NULL ? (const char * const *) styles : no_styles;
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (self->database, cancellable, error);

  if (schema == NULL)
    return NULL;

  for (guint i = 0; i < sql_templates->len; i++)
    {
      GrammarSqlTemplate *sql_template = g_ptr_array_index (sql_templates, i);
      g_autoptr (GPtrArray) texts = collect_styles (templates, sql_template, style_names);
      Plan *plan;

      /* Nothing to say for a template without text: no need to query. */
      if (count_styles_texts (texts, 0) == 0)
        {
          g_ptr_array_add (self->warnings,
                           g_strdup_printf ("template %s has no text templates: nothing generated for it",
                                            grammar_sql_template_get_id (sql_template)));
          continue;
        }
      plan = plan_template (self, schema, sql_template, g_steal_pointer (&texts), cancellable, error);
      if (plan == NULL)
        return NULL;
      g_ptr_array_add (plans, plan);
    }
  return g_steal_pointer (&plans);
}

/* The canonical value of a JSON key member, as append_canonical_value()
 * writes a database value. */
static gboolean
append_canonical_json (GString  *out,
                       JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    append_canonical_int (out, json_node_get_int (node));
  else if (type == G_TYPE_BOOLEAN)
    append_canonical_int (out, json_node_get_boolean (node) ? 1 : 0);
  else if (type == G_TYPE_DOUBLE)
    {
      g_autoptr (GVariant) value = g_variant_ref_sink (g_variant_new_double (json_node_get_double (node)));

      append_canonical_value (out, value);
    }
  else if (type == G_TYPE_STRING)
    g_string_append_printf (out, "s%s", json_node_get_string (node));
  else
    return FALSE;
  return TRUE;
}

typedef struct
{
  char *lower;
  const char *name;
} KeyMember;

static int
compare_key_members (gconstpointer a,
                     gconstpointer b)
{
  return strcmp (((const KeyMember *) a)->lower, ((const KeyMember *) b)->lower);
}

static void
key_member_clear (gpointer data)
{
  g_free (((KeyMember *) data)->lower);
}

/* The canonical text of a document's source row, as collect_doc_ids()
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

  if (table == NULL || key == NULL || !json_parser_load_from_data (parser, key, -1, NULL))
    return FALSE;
  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  object = json_node_get_object (node);
  names = json_object_get_members (object);
  if (names == NULL)
    return FALSE;
  members = g_array_new (FALSE, FALSE, sizeof (KeyMember));
  g_array_set_clear_func (members, key_member_clear);
  for (GList *l = names; l != NULL; l = l->next)
    {
      KeyMember member = { g_ascii_strdown (l->data, -1), l->data };

      g_array_append_val (members, member);
    }
  g_array_sort (members, compare_key_members);

  lower = g_ascii_strdown (table, -1);
  g_string_printf (out, "%s\x1d", lower);
  for (guint m = 0; m < members->len; m++)
    {
      KeyMember *member = &g_array_index (members, KeyMember, m);

      g_string_append_printf (out, "%s=", member->lower);
      if (!append_canonical_json (out, json_object_get_member (object, member->name)))
        return FALSE;
      g_string_append_c (out, '\x1f');
    }
  return TRUE;
}

static void
clear_document_index (GrammarQaGenerator *self)
{
  g_clear_pointer (&self->doc_keys, g_hash_table_unref);
  g_clear_pointer (&self->doc_next, g_array_unref);
  g_clear_pointer (&self->doc_tables, g_hash_table_unref);
}

/* Indexes the documents by their source rows for a run. */
static void
index_documents (GrammarQaGenerator *self)
{
  g_autoptr (GString) key = g_string_new (NULL);
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();

  clear_document_index (self);
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
}

static gboolean
run_plans (Run        *run,
           GPtrArray  *plans,
           GError    **error)
{
  GrammarQaGenerator *self = run->self;

  for (guint i = 0; i < plans->len; i++)
    {
      Plan *plan = g_ptr_array_index (plans, i);
      guint64 n_groups = self->n_groups;
      gboolean ok;

      run->records_per_group = count_styles_texts (plan->styles, self->per_group);
      ok = plan->set_based_query != NULL ? run_set_based (run, plan, error) : run_per_binding (run, plan, error);
      /* a batch holds the groups of one template */
      if (!ok || !run_send (run, error))
        return FALSE;
      self->n_set_based += plan->set_based_query != NULL ? 1 : 0;
      self->n_templates++;
      warn_short_styles (self, plan, self->n_groups - n_groups);
      run_progress (run, TRUE);
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
  Run run;
  gboolean ok;

  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (templates), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (output), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reset_statistics (self);
  /* The documents are held for the run: the index points into them. */
  documents = self->documents != NULL ? g_ptr_array_ref (self->documents) : NULL;
  index_documents (self);
  plans = plan_all (self, templates, cancellable, error);
  if (plans == NULL)
    {
      clear_document_index (self);
      return FALSE;
    }

  run_init (&run, self, output, cancellable);
  ok = run_plans (&run, plans, &local_error);
  ok = run_finish (&run, &local_error) && ok;
  run_clear (&run);
  clear_document_index (self);
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return ok;
}

typedef struct
{
  GrammarQaGenerator *self;
  GrammarTemplateSet *templates;
} QaWrite;

static gboolean
write_dataset (GOutputStream  *stream,
               gpointer        user_data,
               GCancellable   *cancellable,
               GError        **error)
{
  QaWrite *write = user_data;

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
  QaWrite write = { self, templates };

  g_return_val_if_fail (GRAMMAR_IS_QA_GENERATOR (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (templates), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return grammar_file_write_atomically (path, write_dataset, &write, cancellable, error);
}

static void
qa_write_free (QaWrite *write)
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
  QaWrite *write;

  g_return_if_fail (GRAMMAR_IS_QA_GENERATOR (self));
  g_return_if_fail (GRAMMAR_IS_TEMPLATE_SET (templates));
  g_return_if_fail (path != NULL);

  write = g_new0 (QaWrite, 1);
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
