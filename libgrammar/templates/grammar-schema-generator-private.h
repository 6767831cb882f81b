/* grammar-schema-generator-private.h: what the parts of the schema-driven SQL generator share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-schema-generator.h"
#include "grammar-database.h"
#include "grammar-sql-template.h"

G_BEGIN_DECLS



typedef struct _GrammarSchemaGenColumnInfo GrammarSchemaGenColumnInfo;
typedef struct _GrammarSchemaGenTableInfo GrammarSchemaGenTableInfo;
typedef struct _GrammarSchemaGenMultiplicity GrammarSchemaGenMultiplicity;
typedef struct _GrammarSchemaGenRun GrammarSchemaGenRun;
typedef struct _GrammarSchemaGenCandidate GrammarSchemaGenCandidate;
typedef struct _GrammarSchemaGenLinkEnd GrammarSchemaGenLinkEnd;

/* How SQLite reads a declared type (its “type affinity” rules). */
typedef enum {
  AFFINITY_TEXT,
  AFFINITY_INTEGER,
  AFFINITY_REAL,
  AFFINITY_NUMERIC,
  AFFINITY_BLOB,
  AFFINITY_NONE,
} GrammarSchemaGenAffinity;

typedef enum {
  PREDICATE_NONE,         /* never asked by */
  PREDICATE_IDENTIFYING,  /* identifies one row: asked by */
  PREDICATE_PLURAL,       /* a descriptive column shared by several rows */
} GrammarSchemaGenPredicateRole;

typedef enum {
  PROJECTION_NONE,
  PROJECTION_DIRECT,
  PROJECTION_FOLLOW,      /* a foreign key: project the referenced row's name */
} GrammarSchemaGenProjectionRole;

/**
 * GrammarSchemaGenerator:
 *
 * Proposes SQL templates from a database's schema and its data, following
 * the criteria of the GRAMMAR paper (its Table 3 prompt and §B.1) without
 * asking a language model:
 *
 * - one projected column, one grammar_schema_gen_placeholder predicate per identified entity;
 * - the predicate is on a column that identifies one row — a primary key,
 *   a unique constraint, or a column verified unique in the data with one
 *   set-based query — and that a person would ask by: never a surrogate id
 *   (integer primary keys, numeric key columns, columns named `id`, `*_id`,
 *   `*ID`), a foreign key, a date, free text or a measurement; text columns
 *   are preferred, and a number is asked by only when it is declared unique
 *   and the table has no text name;
 * - a predicate column is never projected, nor is a surrogate id;
 * - a foreign key is followed: the template projects the referenced row's
 *   name instead of the raw key
 *   (`SELECT c.name FROM project p JOIN client c ON p.client_id = c.client_id WHERE p.name = '[project.name]'`);
 * - a table that links two others by two foreign keys (an associative
 *   table such as Spider's `employment`) gives join templates asking by
 *   both names, the paper's `Year_working` example;
 * - a template is kept only when its answer is a single row for every
 *   binding found in the data, checked with one grouped query per distinct
 *   `FROM … WHERE` shape (see #GrammarSchemaGenerator:keep-plural).
 *
 * Every kept template carries a note (grammar_sql_template_get_note())
 * saying why it is acceptable; every candidate that was not kept is
 * reported with the reason. Placeholders are written inside quotes for
 * text columns and bare for numbers. The output follows the schema's order
 * of tables and columns, so the same database gives the same templates.
 */
struct _GrammarSchemaGenerator
{
  GObject parent_instance;

  GrammarDatabase *database;
  GrammarSchema *schema;
  gboolean keep_plural;
};

struct _GrammarSchemaGenColumnInfo
{
  GrammarColumn *column;           /* owned by the schema */
  const char *name;
  GrammarSchemaGenAffinity affinity;
  gboolean is_text;                /* quoted grammar_schema_gen_placeholder */
  gboolean declared_unique;
  gboolean in_primary_key;
  GrammarForeignKey *foreign_key;  /* the single-column key from this column, or NULL */
  gboolean in_composite_key;       /* part of a foreign key of several columns */
  const char *key_target;          /* the table a foreign key from this column references */
  gint64 n_values;                 /* not NULL */
  gint64 n_distinct;
  double mean_length;

  GrammarSchemaGenPredicateRole predicate;
  char *predicate_why;             /* the evidence, or why it is not asked by */
  GrammarSchemaGenProjectionRole projection;
  char *projection_why;            /* why it is not projected */
  char *follow_table;              /* PROJECTION_FOLLOW: the referenced table and its */
  char *follow_column;             /* naming column, schema spelling */
  char *follow_key;                /* the referenced column */
};

struct _GrammarSchemaGenTableInfo
{
  GrammarTable *table;  /* owned by the schema */
  const char *name;
  gint64 n_rows;
  GArray *columns;      /* GrammarSchemaGenColumnInfo */
  int best;             /* the column that names a row best, or -1 */
};

/* How many rows share a predicate value, over all bindings. */
struct _GrammarSchemaGenMultiplicity
{
  gint64 n_bindings;
  gint64 n_plural;
  gint64 max_rows;
  char *example;  /* the binding with the most rows, as SQL literals */
};

struct _GrammarSchemaGenRun
{
  GrammarSchemaGenerator *self;
  GCancellable *cancellable;
  GHashTable *tables;      /* lowercased name → GrammarSchemaGenTableInfo, analysed on demand */
  GHashTable *referenced;  /* "table\ncolumn", lowercased: columns foreign keys point at */
  GHashTable *checks;      /* FROM … WHERE text → Multiplicity */
  GHashTable *ids;         /* template ids kept */
  GPtrArray *kept;         /* GrammarSqlTemplate */
  GPtrArray *dropped;      /* char * */
};

struct _GrammarSchemaGenCandidate
{
  GString *from;           /* the FROM clause after the keyword */
  char *projection;        /* the projected expression */
  GPtrArray *expressions;  /* predicate expressions */
  GPtrArray *placeholders; /* their placeholders, quoted as written */
  GPtrArray *names;        /* their “table.column” names, for messages */
  GPtrArray *aliases;      /* aliases in use */
};

struct _GrammarSchemaGenLinkEnd
{
  GrammarSchemaGenTableInfo *table;
  GrammarSchemaGenColumnInfo *key; /* the referenced column */
  GrammarSchemaGenColumnInfo *name; /* the column asked by */
};

G_GNUC_INTERNAL
GrammarSchemaGenAffinity grammar_schema_gen_affinity_of (const char *declared_type);
G_GNUC_INTERNAL
gboolean grammar_schema_gen_type_mentions_time (const char *declared_type);
G_GNUC_INTERNAL
GStrv grammar_schema_gen_split_words (const char *name);
G_GNUC_INTERNAL
gboolean grammar_schema_gen_is_named_like_id (const char *name);
G_GNUC_INTERNAL
gboolean grammar_schema_gen_is_named_like_time (const char *name);
G_GNUC_INTERNAL
gboolean grammar_schema_gen_is_named_like_free_text (const char *name);
G_GNUC_INTERNAL
gboolean grammar_schema_gen_is_named_like_name (const char *name);
G_GNUC_INTERNAL
void grammar_schema_gen_table_info_free (GrammarSchemaGenTableInfo *info);
G_GNUC_INTERNAL
GrammarSchemaGenColumnInfo * grammar_schema_gen_column_at (GrammarSchemaGenTableInfo *info, guint index);
G_GNUC_INTERNAL
void grammar_schema_gen_multiplicity_free (GrammarSchemaGenMultiplicity *multiplicity);
G_GNUC_INTERNAL
void grammar_schema_gen_drop (GrammarSchemaGenRun *run, const char *format, ...) G_GNUC_PRINTF (2, 3);
G_GNUC_INTERNAL
char * grammar_schema_gen_sql_name (GrammarSchemaGenRun *run, const char *name);
G_GNUC_INTERNAL
char * grammar_schema_gen_sql_column (GrammarSchemaGenRun *run, const char *alias, const char *column);
G_GNUC_INTERNAL
char * grammar_schema_gen_placeholder (const char *table, GrammarSchemaGenColumnInfo *column);
G_GNUC_INTERNAL
gint64 grammar_schema_gen_result_int64 (GrammarResult *result, guint column);
G_GNUC_INTERNAL
GrammarSchemaGenTableInfo * grammar_schema_gen_analyse_table (GrammarSchemaGenRun *run, const char *name,
                                                              GError **error);
G_GNUC_INTERNAL
void grammar_schema_gen_collect_referenced_columns (GrammarSchemaGenRun *run);
G_GNUC_INTERNAL
void grammar_schema_gen_run_clear (GrammarSchemaGenRun *run);
G_GNUC_INTERNAL
GrammarSchemaGenCandidate * grammar_schema_gen_candidate_new (void);
G_GNUC_INTERNAL
const char * grammar_schema_gen_new_alias (GrammarSchemaGenCandidate *candidate, const char *table, const char *hint);
G_GNUC_INTERNAL
void grammar_schema_gen_add_first_table (GrammarSchemaGenRun *run, GrammarSchemaGenCandidate *candidate,
                                         const char *table, const char *alias);
G_GNUC_INTERNAL
void grammar_schema_gen_add_join (GrammarSchemaGenRun *run, GrammarSchemaGenCandidate *candidate, const char *table,
                                  const char *alias, const char *from_alias, const char *from_column,
                                  const char *to_column);
G_GNUC_INTERNAL
void grammar_schema_gen_add_predicate (GrammarSchemaGenRun *run, GrammarSchemaGenCandidate *candidate,
                                       const char *alias, GrammarSchemaGenTableInfo *table,
                                       GrammarSchemaGenColumnInfo *column);
G_GNUC_INTERNAL
gboolean grammar_schema_gen_consider (GrammarSchemaGenRun *run, GrammarSchemaGenCandidate *candidate, const char *why,
                                      GError **error);
G_GNUC_INTERNAL
void grammar_schema_gen_candidate_free (GrammarSchemaGenCandidate *candidate);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GrammarSchemaGenRun, grammar_schema_gen_run_clear)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarSchemaGenCandidate, grammar_schema_gen_candidate_free)

G_END_DECLS
