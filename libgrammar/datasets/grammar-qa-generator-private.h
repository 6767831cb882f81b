/* grammar-qa-generator-private.h: what the parts of the QA generator share: plans, the JSON writer, the writer thread, the document index
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-qa-generator.h"
#include "grammar-document.h"
#include "grammar-json-writer-private.h"

G_BEGIN_DECLS

#define GRAMMAR_QA_PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 2)
#define GRAMMAR_QA_FLUSH_SIZE (256 * 1024)
#define GRAMMAR_QA_MARKER_START '\x01'
#define GRAMMAR_QA_MARKER_END '\x02'
#define GRAMMAR_QA_N_BATCHES 4
#define GRAMMAR_QA_BATCH_GROUPS 1024
#define GRAMMAR_QA_BATCH_CELLS (64 * 1024)

typedef struct _GrammarQaToken GrammarQaToken;
typedef struct _GrammarQaScan GrammarQaScan;
typedef struct _GrammarQaSource GrammarQaSource;
typedef struct _GrammarQaRange GrammarQaRange;
typedef struct _GrammarQaFromClause GrammarQaFromClause;
typedef struct _GrammarQaBinding GrammarQaBinding;
typedef struct _GrammarQaDocSource GrammarQaDocSource;
typedef struct _GrammarQaDocPlan GrammarQaDocPlan;
typedef struct _GrammarQaPattern GrammarQaPattern;
typedef struct _GrammarQaStyleTexts GrammarQaStyleTexts;
typedef struct _GrammarQaPlan GrammarQaPlan;
typedef struct _GrammarQaCell GrammarQaCell;
typedef struct _GrammarQaBatch GrammarQaBatch;
typedef struct _GrammarQaDocSpan GrammarQaDocSpan;
typedef struct _GrammarQaGroup GrammarQaGroup;
typedef struct _GrammarQaWriter GrammarQaWriter;
typedef struct _GrammarQaRun GrammarQaRun;
typedef struct _GrammarQaKeyMember GrammarQaKeyMember;
typedef struct _GrammarQaWrite GrammarQaWrite;

typedef enum
{
  GRAMMAR_QA_TOKEN_WORD, /* a bare identifier or keyword */
  GRAMMAR_QA_TOKEN_QUOTED, /* "identifier", `identifier` or [identifier] */
  GRAMMAR_QA_TOKEN_STRING, /* 'literal' */
  GRAMMAR_QA_TOKEN_NUMBER,
  GRAMMAR_QA_TOKEN_PARAM, /* ?N (param = N), or another parameter form (param = 0) */
  GRAMMAR_QA_TOKEN_PUNCT,
} GrammarQaTokenKind;

typedef enum
{
  GRAMMAR_QA_CELL_NULL,
  GRAMMAR_QA_CELL_TEXT,
  GRAMMAR_QA_CELL_INT,
  GRAMMAR_QA_CELL_DOUBLE,
  GRAMMAR_QA_CELL_OTHER, /* a blob, or a type a plugin may add: kept as a GVariant */
} GrammarQaCellKind;

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
  guint max_answer_rows;       /* 0: none */
  guint64 max_answer_bytes;    /* 0: none */
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
  GPtrArray *left_out;     /* messages of the templates that exceeded a limit */
  gint64 last_progress;
};

struct _GrammarQaToken
{
  GrammarQaTokenKind kind;
  guint start;
  guint end;
  int depth;  /* parenthesis depth; both parentheses of a pair have the outer depth */
  int param;
};

struct _GrammarQaScan
{
  const char *sql;
  GArray *tokens;
};

struct _GrammarQaSource
{
  char *table;                /* NULL for a subquery or a table-valued function */
  char *alias;                /* NULL when there is none */
  char *qualifier;            /* the alias, or else the table, as the SQL text spells it */
  GrammarTable *schema_table; /* (nullable) (unowned) */
  gboolean determined;        /* at most one row of it per binding */
};

struct _GrammarQaRange
{
  guint first;  /* tokens [first, last) */
  guint last;
};

struct _GrammarQaFromClause
{
  GPtrArray *sources;   /* of GrammarQaSource, in order */
  GArray *conditions;   /* of GrammarQaRange: the conjuncts of the ON clauses */
  gboolean outer;       /* an outer, natural or USING join: no uniqueness reasoning */
};

struct _GrammarQaBinding
{
  GrammarQaScan *scan;
  GrammarQaFromClause *from;
  GHashTable *bound;  /* "source index:lowercase column" */
};

struct _GrammarQaDocSource
{
  char *prefix;     /* the lower-case table name and \x1d */
  guint n_columns;
  char **names;     /* lower-case key column names, sorted */
  guint *columns;   /* for each name, its column among the document columns */
};

/* Which rows of which tables a template reads, for its ground-truth
 * documents (see grammar_qa_generator_set_documents()). */
struct _GrammarQaDocPlan
{
  GHashTable *tables;    /* in: lower-case names of the tables that have documents */
  GPtrArray *sources;    /* out: of GrammarQaDocSource, or NULL when no such table is read */
  guint n_columns;       /* out: the key columns the query reads for them */
  gboolean dedupe;       /* out: DISTINCT was dropped for those columns */
};

/* A filled text, cut where the values go: the template's own fill
 * function is run once with marker values, and the pieces between the
 * markers are kept (JSON-escaped). Filling a group is then joining the
 * pieces and the group's values, instead of parsing the template again
 * for every record. */
struct _GrammarQaPattern
{
  GPtrArray *pieces;  /* n_slots + 1 escaped texts */
  GArray *lengths;    /* gsize: their lengths */
  GArray *slots;      /* guint: the placeholder after each piece */
};

struct _GrammarQaStyleTexts
{
  char *name;
  char *escaped;      /* JSON string content, without quotes */
  GPtrArray *texts;   /* of GrammarTextTemplate, in the set's order */
  GPtrArray *patterns; /* of GrammarQaPattern (or NULL: fill each record), made by the writer */
  char *record_middle; /* ","template":"…","style":"…","text":" */
  gsize escaped_length;
  gsize record_middle_length;
};

/* What was worked out for one SQL template before anything runs. */
struct _GrammarQaPlan
{
  GrammarSqlTemplate *sql_template;
  guint n_placeholders;
  GPtrArray *styles;       /* of GrammarQaStyleTexts */
  guint64 *counts;         /* distinct non-NULL values of each placeholder */
  GStrv distinct_queries;  /* of each placeholder: its distinct non-NULL values in binary order */
  guint64 product;         /* their product, saturated at G_MAXUINT64 */
  char *set_based_query;   /* NULL to run per binding */
  gboolean ordered;        /* FALSE: each row of the query is a binding of its own */

  /* Ground-truth documents, when the run has some */
  GPtrArray *doc_sources;  /* of GrammarQaDocSource: the tables read that have documents, or NULL */
  guint n_doc_columns;     /* their key columns, after the answer's in the set-based query */
  gboolean dedupe;         /* the set-based query lost its DISTINCT: drop repeated answer rows */
  char *doc_query;         /* per binding: the rows read, run once per group */

  /* Made by the writer when it meets the template's first group. */
  gboolean prepared;
  gboolean verified;
  char *template_escaped;
  char *hash_prefix;       /* the template id and a newline */
  GPtrArray *binding_keys; /* "table.column" as JSON strings */
  GrammarQaPattern *sql_pattern; /* NULL: fill each group */
};

/* One value of a group. */
struct _GrammarQaCell
{
  GrammarQaCellKind kind;
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
};

struct _GrammarQaBatch
{
  GrammarQaPlan *plan;     /* NULL: the end */
  guint width;             /* values in an answer row */
  GArray *cells;           /* of GrammarQaCell: per group, the keys and then the answer rows */
  GrammarJsonBuffer texts;            /* the text cells, each followed by a NUL */
  GArray *rows;            /* guint: the number of answer rows of each group */
  GrammarJsonBuffer doc_ids;          /* the doc_ids arrays of the groups, as JSON */
  GArray *doc_spans;       /* of GrammarQaDocSpan: each group's, when the run has documents */
};

struct _GrammarQaDocSpan
{
  gsize offset;
  gsize length;
};

/* The values of a group, as the writer sees them. */
struct _GrammarQaGroup
{
  const GrammarQaCell *keys;
  const char *texts;
  guint n_keys;
  GVariant *tuple;   /* made when a template's own fill function is needed */
};

/* The writer's side. */
struct _GrammarQaWriter
{
  GrammarQaGenerator *self;
  GOutputStream *output;
  GCancellable *cancellable;
  guint per_group;
  guint64 seed;

  GrammarJsonBuffer out;
  GrammarJsonBuffer answer;
  GrammarJsonBuffer bindings;
  GrammarJsonBuffer sql;
  GrammarJsonBuffer record_end;       /* ","sql":…,"doc_ids":[]}\n of the group */
  GrammarJsonBuffer scratch;
  GrammarJsonBuffer *value_texts;     /* per placeholder: the value in a text, escaped */
  guint n_value_texts;
  GArray *chosen;          /* indices of the sampled text templates */
  GChecksum *checksum;     /* MD5 of each group, reset and reused: an
                            * identifier, not a security measure; GLib's
                            * SHA-256 costs 0.6 µs a group, MD5 0.25 µs */

  GError *error;           /* the first failure */
  gint failed;             /* atomic: error is set */

  /* Where the records of the template being written start, so that a
   * template that exceeds a limit can be taken out again. */
  GrammarQaPlan *plan;     /* of the last batch written */
  goffset plan_start;      /* its first byte in the output */
  goffset flushed;         /* bytes written to the output */
};

/* The reader's side. */
struct _GrammarQaRun
{
  GrammarQaGenerator *self;
  GCancellable *cancellable;
  GrammarQaWriter writer;
  GThread *thread;         /* NULL: batches are written by the reader */
  GAsyncQueue *full;       /* batches to write */
  GAsyncQueue *empty;      /* batches to fill */
  GrammarQaBatch *batch;   /* being filled */
  guint group_start;       /* where the open group's cells start in it */
  gsize group_texts;       /* and its texts */
  guint group_rows;        /* its answer rows so far */
  guint64 group_bytes;     /* and the bytes of their values */
  guint records_per_group; /* of the template being read */

  /* Ground-truth documents, when the run has some */
  GHashTable *doc_keys;    /* as in GrammarQaGenerator, or NULL */
  GPtrArray *documents;
  const guint *doc_next;
  GPtrArray *group_docs;   /* const char *: the ids found for the open group */
  GHashTable *seen_rows;   /* GBytes: the open group's answer rows, for GrammarQaPlan.dedupe */
  GString *key;            /* scratch */
};

struct _GrammarQaKeyMember
{
  char *lower;
  const char *name;
};

struct _GrammarQaWrite
{
  GrammarQaGenerator *self;
  GrammarTemplateSet *templates;
};

G_GNUC_INTERNAL
int grammar_qa_compare_uint (gconstpointer a, gconstpointer b);
G_GNUC_INTERNAL
void grammar_qa_append_canonical_int (GString *out, gint64 value);
G_GNUC_INTERNAL
void grammar_qa_append_canonical_value (GString *out, GVariant *value);
G_GNUC_INTERNAL
void grammar_qa_collect_doc_ids (GrammarQaRun *run, GrammarQaPlan *plan, GrammarCursor *cursor, guint first);
G_GNUC_INTERNAL
char * grammar_qa_plan_doc_query (GrammarSqlTemplate *sql_template, GrammarSchema *schema, GrammarDatabase *database,
                                  GrammarQaDocPlan *docs, GError **error);
G_GNUC_INTERNAL
char * grammar_qa_plan_set_based (GrammarSqlTemplate *sql_template, GrammarSchema *schema, GrammarDatabase *database,
                                  gboolean *ordered, GrammarQaDocPlan *docs, GError **error);
G_GNUC_INTERNAL
GStrv grammar_qa_plan_dup_mismatches (GrammarSqlTemplate *sql_template, GrammarSchema *schema);
G_GNUC_INTERNAL
void grammar_qa_from_clause_clear (GrammarQaFromClause *from);
G_GNUC_INTERNAL
void grammar_qa_style_texts_free (GrammarQaStyleTexts *style);
G_GNUC_INTERNAL
void grammar_qa_plan_free (GrammarQaPlan *plan);
G_GNUC_INTERNAL
GrammarQaBatch * grammar_qa_batch_new (void);
G_GNUC_INTERNAL
void grammar_qa_batch_truncate (GrammarQaBatch *batch, guint length);
G_GNUC_INTERNAL
void grammar_qa_batch_reset (GrammarQaBatch *batch);
G_GNUC_INTERNAL
void grammar_qa_batch_free (GrammarQaBatch *batch);
G_GNUC_INTERNAL
void grammar_qa_batch_add_cell (GrammarQaBatch *batch, GVariant *value);
G_GNUC_INTERNAL
void grammar_qa_writer_clear (GrammarQaWriter *writer);
G_GNUC_INTERNAL
gboolean grammar_qa_writer_flush (GrammarQaWriter *writer);
G_GNUC_INTERNAL
void grammar_qa_write_batch (GrammarQaWriter *writer, GrammarQaBatch *batch);
G_GNUC_INTERNAL
gboolean grammar_qa_writer_forget_plan (GrammarQaWriter *writer, GrammarQaPlan *plan, GError **error);
G_GNUC_INTERNAL
void grammar_qa_clear_document_index (GrammarQaGenerator *self);
G_GNUC_INTERNAL
void grammar_qa_index_documents (GrammarQaGenerator *self);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GrammarQaFromClause, grammar_qa_from_clause_clear)

G_END_DECLS
