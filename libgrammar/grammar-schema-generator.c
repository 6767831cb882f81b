/* grammar-schema-generator.c: SQL templates from the schema and the data, without a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-error.h"
#include "grammar-schema-generator.h"
#include "grammar-sql-generator-private.h"

/**
 * GrammarSchemaGenerator:
 *
 * Proposes SQL templates from a database's schema and its data, following
 * the criteria of the GRAMMAR paper (its Table 3 prompt and §B.1) without
 * asking a language model:
 *
 * - one projected column, one placeholder predicate per identified entity;
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

static void grammar_schema_generator_sql_generator_init (GrammarSqlGeneratorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GrammarSchemaGenerator, grammar_schema_generator, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_SQL_GENERATOR,
                                                      grammar_schema_generator_sql_generator_init))

enum {
  PROP_0,
  PROP_DATABASE,
  PROP_SCHEMA,
  PROP_KEEP_PLURAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
grammar_schema_generator_finalize (GObject *object)
{
  GrammarSchemaGenerator *self = GRAMMAR_SCHEMA_GENERATOR (object);

  g_clear_object (&self->database);
  g_clear_object (&self->schema);

  G_OBJECT_CLASS (grammar_schema_generator_parent_class)->finalize (object);
}

static void
grammar_schema_generator_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  GrammarSchemaGenerator *self = GRAMMAR_SCHEMA_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_DATABASE:
      g_value_set_object (value, self->database);
      break;
    case PROP_SCHEMA:
      g_value_set_object (value, self->schema);
      break;
    case PROP_KEEP_PLURAL:
      g_value_set_boolean (value, self->keep_plural);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_schema_generator_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  GrammarSchemaGenerator *self = GRAMMAR_SCHEMA_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_DATABASE:
      self->database = g_value_dup_object (value);
      break;
    case PROP_SCHEMA:
      self->schema = g_value_dup_object (value);
      break;
    case PROP_KEEP_PLURAL:
      grammar_schema_generator_set_keep_plural (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_schema_generator_class_init (GrammarSchemaGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_schema_generator_finalize;
  object_class->get_property = grammar_schema_generator_get_property;
  object_class->set_property = grammar_schema_generator_set_property;

  /**
   * GrammarSchemaGenerator:database:
   *
   * The database whose data is checked (uniqueness, singular answers).
   */
  properties[PROP_DATABASE] =
    g_param_spec_object ("database", NULL, NULL, GRAMMAR_TYPE_DATABASE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarSchemaGenerator:schema:
   *
   * The schema of #GrammarSchemaGenerator:database.
   */
  properties[PROP_SCHEMA] =
    g_param_spec_object ("schema", NULL, NULL, GRAMMAR_TYPE_SCHEMA,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarSchemaGenerator:keep-plural:
   *
   * Whether to keep templates whose answer has several rows for some
   * binding. Off by default, as the paper's criterion “ensure the query
   * yields a specific and singular answer” asks; when on, predicates on
   * descriptive columns that do not identify a row
   * (`SELECT Name FROM company WHERE Industry = '[company.Industry]'`)
   * are proposed too, with a note that their answer can be plural.
   */
  properties[PROP_KEEP_PLURAL] =
    g_param_spec_boolean ("keep-plural", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_schema_generator_init (GrammarSchemaGenerator *self)
{
}

/**
 * grammar_schema_generator_new:
 * @database: the database
 * @schema: its schema, from grammar_database_get_schema()
 *
 * Returns: (transfer full): a new #GrammarSchemaGenerator
 */
GrammarSchemaGenerator *
grammar_schema_generator_new (GrammarDatabase *database,
                              GrammarSchema   *schema)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (database), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (schema), NULL);

  return g_object_new (GRAMMAR_TYPE_SCHEMA_GENERATOR, "database", database, "schema", schema, NULL);
}

/**
 * grammar_schema_generator_get_database:
 * @self: a #GrammarSchemaGenerator
 *
 * Returns: (transfer none): the database
 */
GrammarDatabase *
grammar_schema_generator_get_database (GrammarSchemaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self), NULL);
  return self->database;
}

/**
 * grammar_schema_generator_get_schema:
 * @self: a #GrammarSchemaGenerator
 *
 * Returns: (transfer none): the schema
 */
GrammarSchema *
grammar_schema_generator_get_schema (GrammarSchemaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self), NULL);
  return self->schema;
}

/**
 * grammar_schema_generator_get_keep_plural:
 * @self: a #GrammarSchemaGenerator
 *
 * Returns: whether templates with a plural answer are kept
 */
gboolean
grammar_schema_generator_get_keep_plural (GrammarSchemaGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self), FALSE);
  return self->keep_plural;
}

/**
 * grammar_schema_generator_set_keep_plural:
 * @self: a #GrammarSchemaGenerator
 * @keep_plural: whether to keep templates with a plural answer
 *
 * Sets #GrammarSchemaGenerator:keep-plural.
 */
void
grammar_schema_generator_set_keep_plural (GrammarSchemaGenerator *self,
                                          gboolean                keep_plural)
{
  g_return_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self));

  keep_plural = !!keep_plural;
  if (self->keep_plural == keep_plural)
    return;
  self->keep_plural = keep_plural;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KEEP_PLURAL]);
}

/* Reading column names and types ------------------------------------------ */

/* SQLite's keywords: a name that is one is quoted in the SQL text. */
static const char * const sql_keywords[] = {
  "ABORT", "ACTION", "ADD", "AFTER", "ALL", "ALTER", "ALWAYS", "ANALYZE", "AND", "AS", "ASC",
  "ATTACH", "AUTOINCREMENT", "BEFORE", "BEGIN", "BETWEEN", "BY", "CASCADE", "CASE", "CAST",
  "CHECK", "COLLATE", "COLUMN", "COMMIT", "CONFLICT", "CONSTRAINT", "CREATE", "CROSS",
  "CURRENT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE", "DEFAULT",
  "DEFERRABLE", "DEFERRED", "DELETE", "DESC", "DETACH", "DISTINCT", "DO", "DROP", "EACH",
  "ELSE", "END", "ESCAPE", "EXCEPT", "EXCLUDE", "EXCLUSIVE", "EXISTS", "EXPLAIN", "FAIL",
  "FILTER", "FIRST", "FOLLOWING", "FOR", "FOREIGN", "FROM", "FULL", "GENERATED", "GLOB",
  "GROUP", "GROUPS", "HAVING", "IF", "IGNORE", "IMMEDIATE", "IN", "INDEX", "INDEXED",
  "INITIALLY", "INNER", "INSERT", "INSTEAD", "INTERSECT", "INTO", "IS", "ISNULL", "JOIN",
  "KEY", "LAST", "LEFT", "LIKE", "LIMIT", "MATCH", "MATERIALIZED", "NATURAL", "NO", "NOT",
  "NOTHING", "NOTNULL", "NULL", "NULLS", "OF", "OFFSET", "ON", "OR", "ORDER", "OTHERS",
  "OUTER", "OVER", "PARTITION", "PLAN", "PRAGMA", "PRECEDING", "PRIMARY", "QUERY", "RAISE",
  "RANGE", "RECURSIVE", "REFERENCES", "REGEXP", "REINDEX", "RELEASE", "RENAME", "REPLACE",
  "RESTRICT", "RETURNING", "RIGHT", "ROLLBACK", "ROW", "ROWS", "SAVEPOINT", "SELECT", "SET",
  "TABLE", "TEMP", "TEMPORARY", "THEN", "TIES", "TO", "TRANSACTION", "TRIGGER", "UNBOUNDED",
  "UNION", "UNIQUE", "UPDATE", "USING", "VACUUM", "VALUES", "VIEW", "VIRTUAL", "WHEN",
  "WHERE", "WINDOW", "WITH", "WITHOUT",
};

static gboolean
is_plain_identifier (const char *name)
{
  if (!g_ascii_isalpha (name[0]) && name[0] != '_')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (sql_keywords); i++)
    if (g_ascii_strcasecmp (name, sql_keywords[i]) == 0)
      return FALSE;
  return TRUE;
}

/* How SQLite reads a declared type (its “type affinity” rules). */
typedef enum {
  AFFINITY_TEXT,
  AFFINITY_INTEGER,
  AFFINITY_REAL,
  AFFINITY_NUMERIC,
  AFFINITY_BLOB,
  AFFINITY_NONE,
} Affinity;

static Affinity
affinity_of (const char *declared_type)
{
  g_autofree char *type = NULL;

  if (declared_type == NULL || declared_type[0] == '\0')
    return AFFINITY_NONE;
  type = g_ascii_strup (declared_type, -1);
  if (strstr (type, "INT") != NULL)
    return AFFINITY_INTEGER;
  if (strstr (type, "CHAR") != NULL || strstr (type, "CLOB") != NULL || strstr (type, "TEXT") != NULL)
    return AFFINITY_TEXT;
  if (strstr (type, "BLOB") != NULL)
    return AFFINITY_BLOB;
  if (strstr (type, "REAL") != NULL || strstr (type, "FLOA") != NULL || strstr (type, "DOUB") != NULL)
    return AFFINITY_REAL;
  return AFFINITY_NUMERIC;
}

static gboolean
type_mentions_time (const char *declared_type)
{
  g_autofree char *type = declared_type != NULL ? g_ascii_strup (declared_type, -1) : NULL;

  return type != NULL && (strstr (type, "DATE") != NULL || strstr (type, "TIME") != NULL);
}

/* The words of an identifier, lowercased: `Graduation_College`,
 * `graduation college` and `GraduationCollege` all give
 * {graduation, college}. */
static GStrv
split_words (const char *name)
{
  g_autoptr (GStrvBuilder) words = g_strv_builder_new ();
  g_autoptr (GString) word = g_string_new (NULL);

  for (const char *p = name; ; p++)
    {
      gboolean boundary = *p == '\0' || *p == '_' || *p == ' ' || *p == '-' || *p == '.';

      /* camelCase: a capital after a small letter starts a word. */
      if (!boundary && g_ascii_isupper (*p) && p > name && g_ascii_islower (p[-1]) && word->len > 0)
        {
          g_strv_builder_add (words, word->str);
          g_string_truncate (word, 0);
        }
      if (boundary)
        {
          if (word->len > 0)
            g_strv_builder_add (words, word->str);
          g_string_truncate (word, 0);
          if (*p == '\0')
            break;
          continue;
        }
      g_string_append_c (word, g_ascii_tolower (*p));
    }
  return g_strv_builder_end (words);
}

static gboolean
has_word (const char         *name,
          const char * const *wanted)
{
  g_auto (GStrv) words = split_words (name);

  for (guint i = 0; words[i] != NULL; i++)
    if (g_strv_contains (wanted, words[i]))
      return TRUE;
  return FALSE;
}

static gboolean
last_word_is (const char         *name,
              const char * const *wanted)
{
  g_auto (GStrv) words = split_words (name);
  guint n = g_strv_length (words);

  return n > 0 && g_strv_contains (wanted, words[n - 1]);
}

/* `id`, `People_ID`, `client_id`, `PeopleID`, `clientId`, `uuid`… */
static gboolean
is_named_like_id (const char *name)
{
  static const char * const ids[] = { "id", "uuid", "guid", "rowid", "oid", NULL };
  gsize length = strlen (name);

  if (last_word_is (name, ids))
    return TRUE;
  /* `Person2ID`: a digit does not start a word, so look at the suffix
   * itself; `VALID` or `PAID` in capitals are words, not ids. */
  return length > 2 && g_str_has_suffix (name, "ID") && !g_ascii_isupper (name[length - 3]);
}

static gboolean
is_named_like_time (const char *name)
{
  static const char * const times[] = { "date", "time", "datetime", "timestamp", "dob", "birthday", NULL };
  static const char * const suffixes[] = { "at", "on", NULL };
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return has_word (name, times) || last_word_is (name, suffixes) ||
         g_str_has_suffix (lower, "date") || g_str_has_suffix (lower, "time");
}

static gboolean
is_named_like_free_text (const char *name)
{
  static const char * const texts[] = {
    "description", "desc", "descr", "notes", "note", "comment", "comments", "summary", "text",
    "body", "content", "contents", "details", "remarks", "bio", "biography", "abstract",
    "message", "memo", NULL
  };

  return has_word (name, texts);
}

static gboolean
is_named_like_name (const char *name)
{
  static const char * const names[] = { "name", "title", "label", NULL };
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return has_word (name, names) || g_str_has_suffix (lower, "name");
}

/* What each column can be used for ------------------------------------------ */

typedef enum {
  PREDICATE_NONE,         /* never asked by */
  PREDICATE_IDENTIFYING,  /* identifies one row: asked by */
  PREDICATE_PLURAL,       /* a descriptive column shared by several rows */
} PredicateRole;

typedef enum {
  PROJECTION_NONE,
  PROJECTION_DIRECT,
  PROJECTION_FOLLOW,      /* a foreign key: project the referenced row's name */
} ProjectionRole;

typedef struct
{
  GrammarColumn *column;           /* owned by the schema */
  const char *name;
  Affinity affinity;
  gboolean is_text;                /* quoted placeholder */
  gboolean declared_unique;
  gboolean in_primary_key;
  GrammarForeignKey *foreign_key;  /* the single-column key from this column, or NULL */
  gboolean in_composite_key;       /* part of a foreign key of several columns */
  const char *key_target;          /* the table a foreign key from this column references */
  gint64 n_values;                 /* not NULL */
  gint64 n_distinct;
  double mean_length;

  PredicateRole predicate;
  char *predicate_why;             /* the evidence, or why it is not asked by */
  ProjectionRole projection;
  char *projection_why;            /* why it is not projected */
  char *follow_table;              /* PROJECTION_FOLLOW: the referenced table and its */
  char *follow_column;             /* naming column, schema spelling */
  char *follow_key;                /* the referenced column */
} ColumnInfo;

typedef struct
{
  GrammarTable *table;  /* owned by the schema */
  const char *name;
  gint64 n_rows;
  GArray *columns;      /* ColumnInfo */
  int best;             /* the column that names a row best, or -1 */
} TableInfo;

static void
column_info_clear (ColumnInfo *info)
{
  g_free (info->predicate_why);
  g_free (info->projection_why);
  g_free (info->follow_table);
  g_free (info->follow_column);
  g_free (info->follow_key);
}

static void
table_info_free (TableInfo *info)
{
  g_array_unref (info->columns);
  g_free (info);
}

static ColumnInfo *
column_at (TableInfo *info,
           guint      index)
{
  return &g_array_index (info->columns, ColumnInfo, index);
}

/* How many rows share a predicate value, over all bindings. */
typedef struct
{
  gint64 n_bindings;
  gint64 n_plural;
  gint64 max_rows;
  char *example;  /* the binding with the most rows, as SQL literals */
} Multiplicity;

static void
multiplicity_free (Multiplicity *multiplicity)
{
  g_free (multiplicity->example);
  g_free (multiplicity);
}

typedef struct
{
  GrammarSchemaGenerator *self;
  GCancellable *cancellable;
  GHashTable *tables;      /* lowercased name → TableInfo, analysed on demand */
  GHashTable *referenced;  /* "table\ncolumn", lowercased: columns foreign keys point at */
  GHashTable *checks;      /* FROM … WHERE text → Multiplicity */
  GHashTable *ids;         /* template ids kept */
  GPtrArray *kept;         /* GrammarSqlTemplate */
  GPtrArray *dropped;      /* char * */
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->tables, g_hash_table_unref);
  g_clear_pointer (&run->referenced, g_hash_table_unref);
  g_clear_pointer (&run->checks, g_hash_table_unref);
  g_clear_pointer (&run->ids, g_hash_table_unref);
  g_clear_pointer (&run->kept, g_ptr_array_unref);
  g_clear_pointer (&run->dropped, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void G_GNUC_PRINTF (2, 3)
drop (Run        *run,
      const char *format,
      ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (run->dropped, g_strdup_vprintf (format, args));
  va_end (args);
}

/* A name as it is written in SQL text: as is when it can be, quoted by
 * the database's rules otherwise (spaces, keywords, quotes). */
static char *
sql_name (Run        *run,
          const char *name)
{
  if (is_plain_identifier (name))
    return g_strdup (name);
  return grammar_database_quote_identifier (run->self->database, name);
}

static char *
sql_column (Run        *run,
            const char *alias,
            const char *column)
{
  g_autofree char *quoted = sql_name (run, column);

  return alias != NULL ? g_strconcat (alias, ".", quoted, NULL) : g_steal_pointer (&quoted);
}

static char *
placeholder_name (const char *name)
{
  g_autoptr (GString) quoted = NULL;

  if (is_plain_identifier (name) || (g_utf8_validate (name, -1, NULL) && strpbrk (name, " .[]'\"`;\t\n") == NULL))
    return g_strdup (name);
  quoted = g_string_new ("\"");
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (quoted, '"');
      g_string_append_c (quoted, *p);
    }
  g_string_append_c (quoted, '"');
  return g_string_free (g_steal_pointer (&quoted), FALSE);
}

/* `'[company.Name]'` for text, `[people.Age]` for numbers. */
static char *
placeholder (const char *table,
             ColumnInfo *column)
{
  g_autofree char *t = placeholder_name (table);
  g_autofree char *c = placeholder_name (column->name);

  /* A quote in a name would end the quoted form early: write it bare. */
  gboolean quoted = column->is_text && strchr (table, '\'') == NULL && strchr (column->name, '\'') == NULL;

  return g_strdup_printf (quoted ? "'[%s.%s]'" : "[%s.%s]", t, c);
}

/* Surrogate ids ---------------------------------------------------------- */

/* Why @column is a semantically void record id, or NULL when it is not. */
static const char *
surrogate_reason (Run        *run,
                  TableInfo  *table,
                  ColumnInfo *column)
{
  gboolean numeric = column->affinity == AFFINITY_INTEGER || column->affinity == AFFINITY_REAL ||
                     column->affinity == AFFINITY_NUMERIC;
  g_autofree char *key = g_ascii_strdown (table->name, -1);
  g_autofree char *lower = g_ascii_strdown (column->name, -1);
  g_autofree char *reference = g_strconcat (key, "\n", lower, NULL);

  if (is_named_like_id (column->name))
    return "a surrogate id (named like a record id)";
  if (column->in_primary_key && column->affinity == AFFINITY_INTEGER)
    return "a surrogate id (an integer primary key)";
  if (numeric && (column->in_primary_key || column->foreign_key != NULL || column->in_composite_key ||
                  g_hash_table_contains (run->referenced, reference)))
    return "a surrogate id (a numeric key column)";
  return NULL;
}

/* Table analysis --------------------------------------------------------- */

static gint64
result_int64 (GrammarResult *result,
              guint          column)
{
  GVariant *value = grammar_result_get_value (result, 0, column);

  if (value == NULL)
    return 0;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    return g_variant_get_int64 (value);
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    return (gint64) g_variant_get_double (value);
  return 0;
}

static double
result_double (GrammarResult *result,
               guint          column)
{
  GVariant *value = grammar_result_get_value (result, 0, column);

  if (value == NULL)
    return 0.0;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    return g_variant_get_double (value);
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    return (double) g_variant_get_int64 (value);
  return 0.0;
}

/* One pass over the table: rows, and per column the values, the distinct
 * values and their mean length. */
static gboolean
count_values (Run        *run,
              TableInfo  *info,
              GError    **error)
{
  g_autoptr (GString) sql = g_string_new ("SELECT COUNT(*)");
  g_autoptr (GrammarResult) result = NULL;
  g_autofree char *table = sql_name (run, info->name);

  for (guint i = 0; i < info->columns->len; i++)
    {
      g_autofree char *column = sql_name (run, column_at (info, i)->name);

      g_string_append_printf (sql, ", COUNT(%s), COUNT(DISTINCT %s), AVG(LENGTH(%s))", column, column, column);
    }
  g_string_append_printf (sql, " FROM %s", table);

  result = grammar_database_query (run->self->database, sql->str, NULL, run->cancellable, error);
  if (result == NULL)
    {
      g_prefix_error (error, "cannot count the values of table “%s”: ", info->name);
      return FALSE;
    }
  info->n_rows = result_int64 (result, 0);
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);

      column->n_values = result_int64 (result, 1 + 3 * i);
      column->n_distinct = result_int64 (result, 2 + 3 * i);
      column->mean_length = result_double (result, 3 + 3 * i);
    }
  return TRUE;
}

static void
read_keys (TableInfo *info)
{
  GPtrArray *foreign_keys = grammar_table_get_foreign_keys (info->table);

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);
      const char *single[] = { column->name, NULL };

      column->in_primary_key = grammar_column_get_primary_key_position (column->column) > 0;
      column->declared_unique = grammar_table_is_unique_key (info->table, single);
    }

  for (guint k = 0; k < foreign_keys->len; k++)
    {
      GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, k);
      const char * const *columns = grammar_foreign_key_get_columns (fk);

      for (guint c = 0; columns[c] != NULL; c++)
        for (guint i = 0; i < info->columns->len; i++)
          {
            ColumnInfo *column = column_at (info, i);

            if (g_ascii_strcasecmp (column->name, columns[c]) != 0)
              continue;
            if (columns[1] == NULL && column->foreign_key == NULL)
              column->foreign_key = fk;
            else if (columns[1] != NULL)
              column->in_composite_key = TRUE;
            if (column->key_target == NULL)
              column->key_target = grammar_foreign_key_get_referenced_table (fk);
          }
    }
}

/* “company.Name is unique in the data (19 distinct values in 19 rows)” */
static char *
describe_uniqueness (TableInfo  *table,
                     ColumnInfo *column)
{
  g_autofree char *nulls = NULL;

  if (column->n_values < table->n_rows)
    nulls = g_strdup_printf (", %" G_GINT64_FORMAT " of them NULL", table->n_rows - column->n_values);

  if (column->predicate == PREDICATE_IDENTIFYING && column->declared_unique)
    return g_strdup_printf ("%s.%s is declared unique (%" G_GINT64_FORMAT " distinct values in %"
                            G_GINT64_FORMAT " rows%s)", table->name, column->name, column->n_distinct,
                            table->n_rows, nulls != NULL ? nulls : "");
  if (column->predicate == PREDICATE_IDENTIFYING)
    return g_strdup_printf ("%s.%s is unique in the data (%" G_GINT64_FORMAT " distinct values in %"
                            G_GINT64_FORMAT " rows%s)", table->name, column->name, column->n_distinct,
                            table->n_rows, nulls != NULL ? nulls : "");
  return g_strdup_printf ("%s.%s is not unique (%" G_GINT64_FORMAT " distinct values in %"
                          G_GINT64_FORMAT " rows%s)", table->name, column->name, column->n_distinct,
                          table->n_rows, nulls != NULL ? nulls : "");
}

static gboolean
is_unique (ColumnInfo *column)
{
  return column->declared_unique || column->n_distinct == column->n_values;
}

/* Decides whether a person would ask by @column, and how. */
static void
classify_predicate (TableInfo  *table,
                    ColumnInfo *column,
                    const char *surrogate)
{
  const char *type = grammar_column_get_declared_type (column->column);

  column->predicate = PREDICATE_NONE;
  if (column->n_values == 0)
    column->predicate_why = g_strdup ("NULL in every row");
  else if (column->key_target != NULL)
    column->predicate_why = g_strdup_printf ("a foreign key to %s: a question names the %s row instead",
                                             column->key_target, column->key_target);
  else if (surrogate != NULL)
    column->predicate_why = g_strdup (surrogate);
  else if (column->affinity == AFFINITY_BLOB)
    column->predicate_why = g_strdup ("binary data");
  else if (!column->is_text && !column->declared_unique)
    column->predicate_why = g_strdup ("a number that is not declared unique: a measurement to answer, "
                                      "not a name to ask by");
  else if ((is_named_like_time (column->name) || type_mentions_time (type)) && !column->declared_unique)
    column->predicate_why = g_strdup ("a date or time not declared unique: a value to answer, not a name to ask by");
  else if (column->is_text && !column->declared_unique &&
           (is_named_like_free_text (column->name) || column->mean_length > 64.0))
    column->predicate_why = g_strdup ("free text (a description, not a name to ask by)");
  else if (is_unique (column))
    column->predicate = PREDICATE_IDENTIFYING;
  else
    column->predicate = PREDICATE_PLURAL;

  if (column->predicate != PREDICATE_NONE)
    column->predicate_why = describe_uniqueness (table, column);
}

/* How well a column names a row: a declared unique text column best,
 * then a name or title unique in the data, then other text unique in the
 * data, then a number declared unique ("prefer text columns"). */
static int
identifier_tier (ColumnInfo *column)
{
  if (!column->is_text)
    return 0;
  if (column->declared_unique)
    return 3;
  return is_named_like_name (column->name) ? 2 : 1;
}

static char *
describe_demotion (TableInfo  *info,
                   ColumnInfo *column,
                   ColumnInfo *better)
{
  g_autofree char *evidence = describe_uniqueness (info, column);

  if (!column->is_text)
    return g_strdup_printf ("a number, and %s has a text name to ask by (%s)", info->name, better->name);
  return g_strdup_printf ("%s, but %s has a better name to ask by (%s%s)", evidence, info->name, better->name,
                          better->declared_unique ? ", declared unique" : "");
}

/* Only the columns of the best tier are asked by: a column unique in the
 * data only by chance (six clients in six countries) is not a name when
 * the table declares one. The best of them, names and titles first,
 * stands for the row when a foreign key is followed or a link table
 * joined. */
static void
choose_identifiers (TableInfo *info)
{
  int top = -1;

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);

      if (column->predicate == PREDICATE_IDENTIFYING)
        top = MAX (top, identifier_tier (column));
    }

  info->best = -1;
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);

      if (column->predicate != PREDICATE_IDENTIFYING || identifier_tier (column) != top)
        continue;
      if (info->best < 0 ||
          (is_named_like_name (column->name) && !is_named_like_name (column_at (info, (guint) info->best)->name)))
        info->best = (int) i;
    }

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);
      g_autofree char *why = NULL;

      if (column->predicate != PREDICATE_IDENTIFYING || identifier_tier (column) == top)
        continue;
      why = describe_demotion (info, column, column_at (info, (guint) info->best));
      column->predicate = PREDICATE_NONE;
      g_free (column->predicate_why);
      column->predicate_why = g_steal_pointer (&why);
    }
}

static void
classify_projection (ColumnInfo *column,
                     const char *surrogate)
{
  column->projection = PROJECTION_DIRECT;
  if (column->n_values == 0)
    column->projection_why = g_strdup ("NULL in every row");
  else if (column->foreign_key != NULL)
    return;  /* followed to the referenced row's name: see classify_follow() */
  else if (surrogate != NULL)
    column->projection_why = g_strdup (surrogate);
  else if (column->affinity == AFFINITY_BLOB)
    column->projection_why = g_strdup ("binary data");
  else if (column->in_composite_key && column->foreign_key == NULL)
    column->projection_why = g_strdup ("part of a foreign key of several columns");
  else
    return;
  column->projection = PROJECTION_NONE;
}

static TableInfo *analyse_table (Run         *run,
                                 const char  *name,
                                 GError     **error);

/* A foreign key is projected as the referenced row's name. */
static gboolean
classify_follow (Run         *run,
                 TableInfo   *info,
                 ColumnInfo  *column,
                 GError     **error)
{
  const char *referenced_name = grammar_foreign_key_get_referenced_table (column->foreign_key);
  const char *key = grammar_foreign_key_get_referenced_columns (column->foreign_key)[0];
  GrammarTable *referenced_table = grammar_schema_get_table (run->self->schema, referenced_name);
  TableInfo *referenced;
  ColumnInfo *best;

  column->projection = PROJECTION_NONE;
  if (referenced_table == NULL)
    {
      column->projection_why = g_strdup_printf ("a foreign key to “%s”, which is not in the schema", referenced_name);
      return TRUE;
    }
  if (g_ascii_strcasecmp (grammar_table_get_name (referenced_table), info->name) == 0)
    referenced = info;
  else if ((referenced = analyse_table (run, grammar_table_get_name (referenced_table), error)) == NULL)
    return FALSE;
  if (referenced->best < 0)
    {
      column->projection_why = g_strdup_printf ("a foreign key to %s, which has no column that names its rows "
                                                "to show instead of the raw key", referenced->name);
      return TRUE;
    }

  best = column_at (referenced, (guint) referenced->best);
  if (g_ascii_strcasecmp (best->name, key) == 0)
    {
      /* The key already is the referenced row's name. */
      column->projection = PROJECTION_DIRECT;
      return TRUE;
    }
  column->projection = PROJECTION_FOLLOW;
  column->follow_table = g_strdup (referenced->name);
  column->follow_column = g_strdup (best->name);
  column->follow_key = g_strdup (key);
  return TRUE;
}

static TableInfo *
analyse_table (Run         *run,
               const char  *name,
               GError     **error)
{
  g_autofree char *key = g_ascii_strdown (name, -1);
  TableInfo *info = g_hash_table_lookup (run->tables, key);
  GrammarTable *table;
  GPtrArray *columns;

  if (info != NULL)
    return info;

  table = grammar_schema_get_table (run->self->schema, name);
  columns = grammar_table_get_columns (table);
  info = g_new0 (TableInfo, 1);
  info->table = table;
  info->name = grammar_table_get_name (table);
  info->best = -1;
  info->columns = g_array_sized_new (FALSE, TRUE, sizeof (ColumnInfo), columns->len);
  g_array_set_clear_func (info->columns, (GDestroyNotify) column_info_clear);
  for (guint i = 0; i < columns->len; i++)
    {
      ColumnInfo column = { 0 };

      column.column = g_ptr_array_index (columns, i);
      column.name = grammar_column_get_name (column.column);
      column.affinity = affinity_of (grammar_column_get_declared_type (column.column));
      column.is_text = column.affinity == AFFINITY_TEXT || column.affinity == AFFINITY_NONE ||
                       type_mentions_time (grammar_column_get_declared_type (column.column));
      g_array_append_val (info->columns, column);
    }
  /* Registered before the foreign keys are followed, so that a key to
   * the table itself finds it. */
  g_hash_table_insert (run->tables, g_steal_pointer (&key), info);

  read_keys (info);
  if (!count_values (run, info, error))
    return NULL;

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);
      const char *surrogate = surrogate_reason (run, info, column);

      classify_predicate (info, column, surrogate);
      classify_projection (column, surrogate);
    }
  choose_identifiers (info);

  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);

      if (column->projection == PROJECTION_DIRECT && column->foreign_key != NULL &&
          !classify_follow (run, info, column, error))
        return NULL;
    }
  return info;
}

static void
collect_referenced_columns (Run *run)
{
  GPtrArray *tables = grammar_schema_get_tables (run->self->schema);

  for (guint t = 0; t < tables->len; t++)
    {
      GPtrArray *foreign_keys = grammar_table_get_foreign_keys (g_ptr_array_index (tables, t));

      for (guint k = 0; k < foreign_keys->len; k++)
        {
          GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, k);
          const char * const *columns = grammar_foreign_key_get_referenced_columns (fk);
          g_autofree char *table = g_ascii_strdown (grammar_foreign_key_get_referenced_table (fk), -1);

          for (guint c = 0; columns[c] != NULL; c++)
            {
              g_autofree char *column = g_ascii_strdown (columns[c], -1);

              g_hash_table_add (run->referenced, g_strconcat (table, "\n", column, NULL));
            }
        }
    }
}

/* Candidates ------------------------------------------------------------- */

typedef struct
{
  GString *from;           /* the FROM clause after the keyword */
  char *projection;        /* the projected expression */
  GPtrArray *expressions;  /* predicate expressions */
  GPtrArray *placeholders; /* their placeholders, quoted as written */
  GPtrArray *names;        /* their “table.column” names, for messages */
  GPtrArray *aliases;      /* aliases in use */
} Candidate;

static Candidate *
candidate_new (void)
{
  Candidate *candidate = g_new0 (Candidate, 1);

  candidate->from = g_string_new (NULL);
  candidate->expressions = g_ptr_array_new_with_free_func (g_free);
  candidate->placeholders = g_ptr_array_new_with_free_func (g_free);
  candidate->names = g_ptr_array_new_with_free_func (g_free);
  candidate->aliases = g_ptr_array_new_with_free_func (g_free);
  return candidate;
}

static void
candidate_free (Candidate *candidate)
{
  g_string_free (candidate->from, TRUE);
  g_free (candidate->projection);
  g_ptr_array_unref (candidate->expressions);
  g_ptr_array_unref (candidate->placeholders);
  g_ptr_array_unref (candidate->names);
  g_ptr_array_unref (candidate->aliases);
  g_free (candidate);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Candidate, candidate_free)

static gboolean
alias_taken (Candidate  *candidate,
             const char *alias)
{
  for (guint i = 0; i < candidate->aliases->len; i++)
    if (g_str_equal (g_ptr_array_index (candidate->aliases, i), alias))
      return TRUE;
  return FALSE;
}

/* The initials of a name's words, ASCII letters only: `employment` →
 * `e`, `project_assignment` → `pa`. */
static char *
initials (const char *name)
{
  g_auto (GStrv) words = name != NULL ? split_words (name) : NULL;
  GString *letters = g_string_new (NULL);

  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (g_ascii_isalpha (words[i][0]))
      g_string_append_c (letters, words[i][0]);
  return g_string_free (letters, FALSE);
}

/* An alias from the table's initials (`employment e`, as the paper
 * writes it), or from the foreign key column's when those are taken
 * (`employee s` for `supervisor_id`), or a numbered one. */
static const char *
new_alias (Candidate  *candidate,
           const char *table,
           const char *hint)
{
  g_autofree char *from_table = initials (table);
  g_autofree char *from_hint = NULL;
  char *alias = NULL;

  if (hint != NULL)
    {
      /* `supervisor_id` → `s`, not `si`. */
      g_auto (GStrv) words = split_words (hint);

      from_hint = words[0] != NULL && g_ascii_isalpha (words[0][0]) ? g_strndup (words[0], 1) : g_strdup ("");
    }
  if (from_table[0] == '\0')
    {
      g_free (from_table);
      from_table = g_strdup ("t");
    }

  /* Initials can spell a keyword (`account_statement` → `as`). */
  if (!alias_taken (candidate, from_table) && is_plain_identifier (from_table))
    alias = g_strdup (from_table);
  else if (from_hint != NULL && from_hint[0] != '\0' && !alias_taken (candidate, from_hint))
    alias = g_strdup (from_hint);
  for (guint n = 2; alias == NULL; n++)
    {
      g_autofree char *numbered = g_strdup_printf ("%s%u", from_table, n);

      if (!alias_taken (candidate, numbered))
        alias = g_steal_pointer (&numbered);
    }
  g_ptr_array_add (candidate->aliases, alias);
  return alias;
}

static void
add_first_table (Run        *run,
                 Candidate  *candidate,
                 const char *table,
                 const char *alias)
{
  g_autofree char *quoted = sql_name (run, table);

  g_string_append (candidate->from, quoted);
  if (alias != NULL)
    g_string_append_printf (candidate->from, " %s", alias);
}

static void
add_join (Run        *run,
          Candidate  *candidate,
          const char *table,
          const char *alias,
          const char *from_alias,
          const char *from_column,
          const char *to_column)
{
  g_autofree char *quoted = sql_name (run, table);
  g_autofree char *left = sql_column (run, from_alias, from_column);
  g_autofree char *right = sql_column (run, alias, to_column);

  g_string_append_printf (candidate->from, " JOIN %s %s ON %s = %s", quoted, alias, left, right);
}

static void
add_predicate (Run        *run,
               Candidate  *candidate,
               const char *alias,
               TableInfo  *table,
               ColumnInfo *column)
{
  g_ptr_array_add (candidate->expressions, sql_column (run, alias, column->name));
  g_ptr_array_add (candidate->placeholders, placeholder (table->name, column));
  g_ptr_array_add (candidate->names, g_strconcat (table->name, ".", column->name, NULL));
}

static char *
candidate_sql (Candidate *candidate)
{
  g_autoptr (GString) sql = g_string_new (NULL);

  g_string_append_printf (sql, "SELECT %s FROM %s WHERE ", candidate->projection, candidate->from->str);
  for (guint i = 0; i < candidate->expressions->len; i++)
    g_string_append_printf (sql, "%s%s = %s", i > 0 ? " AND " : "",
                            (char *) g_ptr_array_index (candidate->expressions, i),
                            (char *) g_ptr_array_index (candidate->placeholders, i));
  return g_string_free (g_steal_pointer (&sql), FALSE);
}

/* The singular-answer check ---------------------------------------------- */

static char *
join_expressions (Candidate  *candidate,
                  const char *separator,
                  const char *suffix)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < candidate->expressions->len; i++)
    g_string_append_printf (text, "%s%s%s", i > 0 ? separator : "",
                            (char *) g_ptr_array_index (candidate->expressions, i), suffix);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
value_as_literal (GVariant *value)
{
  g_autofree char *text = NULL;
  g_autoptr (GString) quoted = NULL;

  if (value == NULL)
    return g_strdup ("NULL");
  text = grammar_value_to_text (value);
  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    return g_steal_pointer (&text);
  quoted = g_string_new ("'");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append_c (quoted, '\'');
      g_string_append_c (quoted, *p);
    }
  g_string_append_c (quoted, '\'');
  return g_string_free (g_steal_pointer (&quoted), FALSE);
}

static gboolean
find_example (Run           *run,
              Candidate     *candidate,
              const char    *where,
              const char    *group,
              Multiplicity  *multiplicity,
              GError       **error)
{
  g_autofree char *sql = g_strdup_printf ("SELECT %s, COUNT(*) AS n FROM %s WHERE %s GROUP BY %s"
                                          " ORDER BY n DESC, %s LIMIT 1",
                                          group, candidate->from->str, where, group, group);
  g_autoptr (GrammarResult) result = grammar_database_query (run->self->database, sql, NULL,
                                                             run->cancellable, error);
  g_autoptr (GString) example = g_string_new (NULL);
  guint n = candidate->expressions->len;

  if (result == NULL)
    return FALSE;
  if (grammar_result_get_n_rows (result) == 0)
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *literal = value_as_literal (grammar_result_get_value (result, 0, i));

      g_string_append_printf (example, "%s%s", i > 0 ? ", " : "", literal);
    }
  multiplicity->example = n > 1 ? g_strdup_printf ("(%s)", example->str) : g_strdup (example->str);
  return TRUE;
}

/* How many rows each binding of the predicates gives, in one grouped
 * query — never one query per binding. Candidates with the same FROM and
 * predicates share the answer. */
static Multiplicity *
check_multiplicity (Run        *run,
                    Candidate  *candidate,
                    GError    **error)
{
  g_autofree char *where = join_expressions (candidate, " AND ", " IS NOT NULL");
  g_autofree char *group = join_expressions (candidate, ", ", "");
  g_autofree char *key = g_strdup_printf ("%s WHERE %s GROUP BY %s", candidate->from->str, where, group);
  g_autofree char *sql = NULL;
  g_autoptr (GrammarResult) result = NULL;
  Multiplicity *multiplicity = g_hash_table_lookup (run->checks, key);

  if (multiplicity != NULL)
    return multiplicity;

  sql = g_strdup_printf ("SELECT COUNT(*), COALESCE(SUM(CASE WHEN n > 1 THEN 1 ELSE 0 END), 0),"
                         " COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM %s) AS bindings", key);
  result = grammar_database_query (run->self->database, sql, NULL, run->cancellable, error);
  if (result == NULL)
    {
      g_prefix_error (error, "cannot check the answers of “SELECT … FROM %s”: ", candidate->from->str);
      return NULL;
    }

  multiplicity = g_new0 (Multiplicity, 1);
  multiplicity->n_bindings = result_int64 (result, 0);
  multiplicity->n_plural = result_int64 (result, 1);
  multiplicity->max_rows = result_int64 (result, 2);
  if (multiplicity->n_plural > 0 && !find_example (run, candidate, where, group, multiplicity, error))
    {
      multiplicity_free (multiplicity);
      return NULL;
    }
  g_hash_table_insert (run->checks, g_steal_pointer (&key), multiplicity);
  return multiplicity;
}

/* `company.Name`, or `(company.Name, people.Name)` */
static char *
describe_names (Candidate *candidate)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < candidate->names->len; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", (char *) g_ptr_array_index (candidate->names, i));
  if (candidate->names->len > 1)
    {
      g_string_prepend_c (names, '(');
      g_string_append_c (names, ')');
    }
  return g_string_free (names, FALSE);
}

static char *
describe_plural (Candidate    *candidate,
                 Multiplicity *multiplicity)
{
  g_autofree char *names = describe_names (candidate);
  const char *what = candidate->names->len > 1 ? "combinations" : "values";

  return g_strdup_printf ("%" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " %s %s match several rows"
                          " (%s: %" G_GINT64_FORMAT " rows)",
                          multiplicity->n_plural, multiplicity->n_bindings, names, what,
                          multiplicity->example != NULL ? multiplicity->example : "for example",
                          multiplicity->max_rows);
}

/* Checks a candidate and keeps it, or reports why not. @why says why it is
 * acceptable (the note). */
static gboolean
consider (Run         *run,
          Candidate   *candidate,
          const char  *why,
          GError     **error)
{
  g_autofree char *sql = candidate_sql (candidate);
  g_autofree char *note = NULL;
  g_autoptr (GrammarSqlTemplate) template = NULL;
  g_autoptr (GError) local_error = NULL;
  Multiplicity *multiplicity = check_multiplicity (run, candidate, error);

  if (multiplicity == NULL)
    return FALSE;
  if (multiplicity->n_bindings == 0)
    {
      drop (run, "dropped: %s — no binding of its placeholders has an answer in the data", sql);
      return TRUE;
    }
  if (multiplicity->n_plural > 0)
    {
      g_autofree char *plural = describe_plural (candidate, multiplicity);

      if (!run->self->keep_plural)
        {
          drop (run, "dropped: %s — plural answer: %s", sql, plural);
          return TRUE;
        }
      note = g_strdup_printf ("%s; the answer can be plural: %s; kept because plural answers are allowed",
                              why, plural);
    }
  else if (candidate->names->len > 1)
    {
      g_autofree char *names = describe_names (candidate);

      note = g_strdup_printf ("%s; each of the %" G_GINT64_FORMAT " %s combinations in the data has one row",
                              why, multiplicity->n_bindings, names);
    }
  else
    note = g_strdup (why);

  template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_SCHEMA, &local_error);
  if (template == NULL ||
      !grammar_sql_template_validate (template, run->self->database, run->self->schema, &local_error))
    {
      /* The generator's own SQL should always be valid: say so loudly. */
      drop (run, "dropped: %s — does not validate: %s", sql, local_error->message);
      return TRUE;
    }
  if (!g_hash_table_add (run->ids, g_strdup (grammar_sql_template_get_id (template))))
    return TRUE;
  grammar_sql_template_set_note (template, note);
  g_ptr_array_add (run->kept, g_steal_pointer (&template));
  return TRUE;
}

/* Templates about one table ----------------------------------------------- */

/* `SELECT Industry FROM company WHERE Name = '[company.Name]'`, or with
 * a foreign key followed,
 * `SELECT c.name FROM project p JOIN client c ON p.client_id = c.client_id WHERE p.name = '[project.name]'`. */
static gboolean
entity_template (Run         *run,
                 TableInfo   *info,
                 ColumnInfo  *predicate,
                 ColumnInfo  *projected,
                 GError     **error)
{
  g_autoptr (Candidate) candidate = candidate_new ();
  g_autofree char *why = NULL;

  if (projected->projection == PROJECTION_DIRECT)
    {
      add_first_table (run, candidate, info->name, NULL);
      candidate->projection = sql_column (run, NULL, projected->name);
      add_predicate (run, candidate, NULL, info, predicate);
      why = g_strdup_printf ("%s; projects %s", predicate->predicate_why, projected->name);
    }
  else
    {
      const char *alias = new_alias (candidate, info->name, NULL);
      const char *other = new_alias (candidate, projected->follow_table, projected->name);

      add_first_table (run, candidate, info->name, alias);
      add_join (run, candidate, projected->follow_table, other, alias, projected->name, projected->follow_key);
      candidate->projection = sql_column (run, other, projected->follow_column);
      add_predicate (run, candidate, alias, info, predicate);
      why = g_strdup_printf ("%s; projects %s.%s through the foreign key %s.%s instead of the raw key",
                             predicate->predicate_why, projected->follow_table, projected->follow_column,
                             info->name, projected->name);
    }
  return consider (run, candidate, why, error);
}

static gboolean
entity_templates (Run         *run,
                  TableInfo   *info,
                  GError     **error)
{
  for (guint p = 0; p < info->columns->len; p++)
    {
      ColumnInfo *predicate = column_at (info, p);

      if (predicate->predicate == PREDICATE_NONE)
        continue;
      for (guint q = 0; q < info->columns->len; q++)
        {
          ColumnInfo *projected = column_at (info, q);

          /* Never project what the question already says. */
          if (q == p || projected->projection == PROJECTION_NONE)
            continue;
          if (!entity_template (run, info, predicate, projected, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* Associative tables ------------------------------------------------------ */

/* The two single-column foreign keys of a table that only links two
 * others (no column of its own names its rows), or FALSE. */
static gboolean
find_link_keys (TableInfo   *info,
                ColumnInfo **first,
                ColumnInfo **second)
{
  *first = *second = NULL;
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);

      if (column->predicate == PREDICATE_IDENTIFYING)
        return FALSE;
    }
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);

      if (column->foreign_key == NULL)
        continue;
      if (*first == NULL)
        *first = column;
      else if (*second == NULL)
        *second = column;
      else
        return FALSE;
    }
  if (*second == NULL)
    return FALSE;

  /* Keep the declaration order of the foreign keys, as the paper's
   * example joins company before people. */
  {
    GPtrArray *foreign_keys = grammar_table_get_foreign_keys (info->table);

    for (guint k = 0; k < foreign_keys->len; k++)
      {
        GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, k);

        if (fk == (*second)->foreign_key)
          {
            ColumnInfo *swap = *first;

            *first = *second;
            *second = swap;
            break;
          }
        if (fk == (*first)->foreign_key)
          break;
      }
  }
  return TRUE;
}

static gboolean
is_declared_pair (TableInfo  *info,
                  ColumnInfo *first,
                  ColumnInfo *second)
{
  const char *pair[] = { first->name, second->name, NULL };

  return grammar_table_is_unique_key (info->table, pair);
}

typedef struct
{
  TableInfo *table;
  ColumnInfo *key;      /* the referenced column */
  ColumnInfo *name;     /* the column asked by */
} LinkEnd;

static gboolean
resolve_link_end (Run         *run,
                  TableInfo   *info,
                  ColumnInfo  *column,
                  LinkEnd     *end,
                  char       **problem,
                  GError     **error)
{
  const char *referenced_name = grammar_foreign_key_get_referenced_table (column->foreign_key);
  const char *key = grammar_foreign_key_get_referenced_columns (column->foreign_key)[0];
  GrammarTable *table = grammar_schema_get_table (run->self->schema, referenced_name);

  if (table == NULL)
    {
      *problem = g_strdup_printf ("%s references “%s”, which is not in the schema", column->name, referenced_name);
      return TRUE;
    }
  end->table = analyse_table (run, grammar_table_get_name (table), error);
  if (end->table == NULL)
    return FALSE;
  if (end->table->best < 0)
    {
      *problem = g_strdup_printf ("%s has no column that names its rows to ask by", end->table->name);
      return TRUE;
    }
  end->name = column_at (end->table, (guint) end->table->best);
  end->key = NULL;
  for (guint i = 0; i < end->table->columns->len; i++)
    if (g_ascii_strcasecmp (column_at (end->table, i)->name, key) == 0)
      end->key = column_at (end->table, i);
  if (end->key == NULL)
    *problem = g_strdup_printf ("%s references %s.%s, which is not a column", column->name, end->table->name, key);
  return TRUE;
}

/* `SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID
 *  JOIN people p ON e.People_ID = p.People_ID WHERE c.Name = '[company.Name]' AND p.Name = '[people.Name]'` */
static gboolean
link_template (Run         *run,
               TableInfo   *info,
               ColumnInfo  *keys[2],
               LinkEnd      ends[2],
               ColumnInfo  *projected,
               const char  *why,
               GError     **error)
{
  g_autoptr (Candidate) candidate = candidate_new ();
  const char *alias = new_alias (candidate, info->name, NULL);
  const char *aliases[2];
  g_autofree char *note = NULL;

  add_first_table (run, candidate, info->name, alias);
  for (guint i = 0; i < 2; i++)
    {
      aliases[i] = new_alias (candidate, ends[i].table->name, keys[i]->name);
      add_join (run, candidate, ends[i].table->name, aliases[i], alias, keys[i]->name, ends[i].key->name);
    }
  candidate->projection = sql_column (run, alias, projected->name);
  for (guint i = 0; i < 2; i++)
    add_predicate (run, candidate, aliases[i], ends[i].table, ends[i].name);

  note = g_strdup_printf ("%s; %s; %s; projects %s", why, ends[0].name->predicate_why,
                          ends[1].name->predicate_why, projected->name);
  return consider (run, candidate, note, error);
}

static gboolean
link_templates (Run         *run,
                TableInfo   *info,
                GError     **error)
{
  ColumnInfo *keys[2];
  LinkEnd ends[2] = { { 0 } };
  g_autofree char *problem = NULL;
  g_autofree char *why = NULL;

  if (!find_link_keys (info, &keys[0], &keys[1]))
    return TRUE;
  for (guint i = 0; i < 2 && problem == NULL; i++)
    if (!resolve_link_end (run, info, keys[i], &ends[i], &problem, error))
      return FALSE;
  if (problem == NULL && ends[0].table == ends[1].table)
    problem = g_strdup_printf ("both foreign keys reference %s, and the two names would be one placeholder "
                               "[%s.%s] bound to one value", ends[0].table->name, ends[0].table->name,
                               ends[0].name->name);
  if (problem != NULL)
    {
      drop (run, "dropped: join templates of %s — it links two tables, but %s", info->name, problem);
      return TRUE;
    }

  if (is_declared_pair (info, keys[0], keys[1]))
    why = g_strdup_printf ("%s links %s and %s (its key is the pair of foreign keys %s, %s)", info->name,
                           ends[0].table->name, ends[1].table->name, keys[0]->name, keys[1]->name);
  else
    why = g_strdup_printf ("%s links %s and %s (foreign keys %s, %s, not declared unique together)", info->name,
                           ends[0].table->name, ends[1].table->name, keys[0]->name, keys[1]->name);

  for (guint q = 0; q < info->columns->len; q++)
    {
      ColumnInfo *projected = column_at (info, q);

      if (projected == keys[0] || projected == keys[1] || projected->projection != PROJECTION_DIRECT)
        continue;
      if (!link_template (run, info, keys, ends, projected, why, error))
        return FALSE;
    }
  return TRUE;
}

/* The whole schema --------------------------------------------------------- */

/* Columns never used, one line each, so that the list of dropped
 * candidates stays short: the same reason would repeat for every
 * template otherwise. */
static void
drop_columns (Run       *run,
              TableInfo *info)
{
  for (guint i = 0; i < info->columns->len; i++)
    {
      ColumnInfo *column = column_at (info, i);

      if (column->predicate == PREDICATE_NONE && column->projection == PROJECTION_NONE &&
          g_strcmp0 (column->predicate_why, column->projection_why) == 0)
        drop (run, "dropped: column %s.%s — %s", info->name, column->name, column->predicate_why);
      else
        {
          if (column->predicate == PREDICATE_NONE)
            drop (run, "dropped: predicate %s.%s — %s", info->name, column->name, column->predicate_why);
          if (column->projection == PROJECTION_NONE)
            drop (run, "dropped: projection %s.%s — %s", info->name, column->name, column->projection_why);
        }
    }
}

static gboolean
table_templates (Run           *run,
                 GrammarTable  *table,
                 GError       **error)
{
  const char *name = grammar_table_get_name (table);
  TableInfo *info;

  if (grammar_table_get_is_view (table))
    {
      drop (run, "dropped: view %s — views repeat their tables' data; templates are made from tables", name);
      return TRUE;
    }
  info = analyse_table (run, name, error);
  if (info == NULL)
    return FALSE;
  if (info->n_rows == 0)
    {
      drop (run, "dropped: table %s — no rows: nothing to fill in", name);
      return TRUE;
    }
  drop_columns (run, info);
  return entity_templates (run, info, error) && link_templates (run, info, error);
}

/**
 * grammar_schema_generator_generate:
 * @self: a #GrammarSchemaGenerator
 * @dropped: (out) (optional) (transfer full) (array zero-terminated=1): return
 *   location for the candidates that were not kept, one line each in the
 *   form `dropped: WHAT — WHY`, where WHAT is a candidate's SQL, or
 *   `column T.C`, `predicate T.C` or `projection T.C` when a column is
 *   ruled out for every template at once
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Proposes the templates. Each is valid for the schema
 * (grammar_sql_template_validate()), has the origin
 * %GRAMMAR_TEMPLATE_ORIGIN_SCHEMA and a note saying why it is acceptable.
 * The database is read with a few set-based queries: one per table for
 * the uniqueness of its columns, one per distinct `FROM … WHERE` shape for
 * the singular-answer check.
 *
 * Returns: (transfer container) (element-type GrammarSqlTemplate) (nullable): the
 *   kept templates in schema order (possibly none), or %NULL with @error
 *   set when the database cannot be read
 */
GPtrArray *
grammar_schema_generator_generate (GrammarSchemaGenerator  *self,
                                   GStrv                   *dropped,
                                   GCancellable            *cancellable,
                                   GError                 **error)
{
  g_auto (Run) run = { 0 };
  GPtrArray *tables;

  g_return_val_if_fail (GRAMMAR_IS_SCHEMA_GENERATOR (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (self->database) && GRAMMAR_IS_SCHEMA (self->schema), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  run.self = self;
  run.cancellable = cancellable;
  run.tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) table_info_free);
  run.referenced = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run.checks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) multiplicity_free);
  run.ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run.kept = g_ptr_array_new_with_free_func (g_object_unref);
  run.dropped = g_ptr_array_new_with_free_func (g_free);

  collect_referenced_columns (&run);
  tables = grammar_schema_get_tables (self->schema);
  for (guint i = 0; i < tables->len; i++)
    if (!table_templates (&run, g_ptr_array_index (tables, i), error))
      return NULL;

  if (dropped != NULL)
    {
      g_ptr_array_add (run.dropped, NULL);
      *dropped = (GStrv) g_ptr_array_steal (run.dropped, NULL);
    }
  return g_steal_pointer (&run.kept);
}

/* GrammarSqlGenerator: the notes are the candidates dropped, with why. */
static GPtrArray *
grammar_schema_generator_generate_for (GrammarSqlGenerator  *generator,
                                       GrammarDatabase      *database,
                                       GStrv                *notes,
                                       GCancellable         *cancellable,
                                       GError              **error)
{
  GrammarSchemaGenerator *self = GRAMMAR_SCHEMA_GENERATOR (generator);

  if (!grammar_sql_generator_use_database (&self->database, &self->schema, database, cancellable, error))
    return NULL;
  return grammar_schema_generator_generate (self, notes, cancellable, error);
}

static void
grammar_schema_generator_sql_generator_init (GrammarSqlGeneratorInterface *iface)
{
  iface->generate = grammar_schema_generator_generate_for;
}
