/* grammar-document-generator-private.h: what the parts of the document generator share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-document-generator.h"
#include "grammar-database.h"

G_BEGIN_DECLS

#define MAX_PENDING 256
#define MAX_RELATED_ROWS 50
#define MAX_FACT_WARNINGS 10
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 2)

typedef struct _TableInfo TableInfo;
typedef struct _Row Row;
typedef struct _Link Link;
typedef struct _Node Node;
typedef struct _TableTemplate TableTemplate;
typedef struct _Parser Parser;
typedef struct _Render Render;
typedef struct _Document Document;
typedef struct _Run Run;
typedef struct _Page Page;

typedef enum
{
  NODE_TEXT,
  NODE_FIELD,
  NODE_BLOCK,
} NodeKind;

/* A foreign key, seen from the table that declares it. */
struct _Link
{
  TableInfo *child;       /* the table that declares it (unowned) */
  TableInfo *parent;      /* the table it points to (unowned) */
  guint n_columns;
  guint *columns;         /* in the child */
  guint *parent_columns;  /* in the parent */
  char *parent_sql;       /* the parent row of a child row */
  char *children_sql;     /* the child rows of a parent row */
};

struct _TableInfo
{
  GrammarTable *table;    /* unowned: the schema holds it */
  const char *name;
  guint n_columns;
  const char **columns;   /* the schema's names */
  guint n_key;
  guint *key;             /* primary key columns, in key order */
  GPtrArray *links;       /* of Link: its foreign keys */
  char *rows_sql;         /* every row, in key order */
};

struct _Node
{
  NodeKind kind;
  char *text;          /* NODE_TEXT */
  Link *link;          /* NODE_FIELD: NULL for the row itself, else the foreign key to follow (unowned) */
  guint column;        /* NODE_FIELD: in the row or in the row @link points to */
  Link *children;      /* NODE_BLOCK: the child table's foreign key to the row (unowned) */
  GPtrArray *body;     /* NODE_BLOCK: of Node */
  gboolean space_before;
  gboolean space_after;
};

struct _TableTemplate
{
  char *title_source;
  char *text_source;
  GPtrArray *title;    /* of Node, or NULL for the default */
  GPtrArray *text;     /* of Node, or NULL for the default */
};

struct _Parser
{
  GHashTable *infos;   /* lower-case table name → TableInfo */
  const char *p;       /* where parsing is */
};

struct _GrammarDocumentGenerator
{
  GObject parent_instance;

  GrammarDatabase *database;
  GrammarSchema *schema;
  GrammarLlm *llm;
  GStrv tables;
  char *llm_section;

  GHashTable *infos;       /* lower-case table name → TableInfo */
  GPtrArray *info_order;   /* of TableInfo (unowned), in schema order */
  GHashTable *templates;   /* lower-case table name → TableTemplate */

  /* Statistics of the last run. */
  guint64 n_documents;
  guint n_tables;
  guint n_lacking;
  GPtrArray *warnings;
  gint64 last_progress;
};

struct _Row
{
  TableInfo *info;
  GVariant **values;   /* n_columns, NULL for SQL NULL */
  Row **parents;       /* per link, fetched when first needed */
  gboolean *fetched;
};

/* What a run shares while it renders. */
struct _Render
{
  GrammarDocumentGenerator *self;
  GCancellable *cancellable;
  GPtrArray *facts;    /* (nullable): the value texts used, for the LLM's check */
};

/* One document, before it is written. */
struct _Document
{
  char *id;
  char *title;
  char *text;
  const char *table;
  JsonNode *key;
  char *facts;         /* what an LLM is told, or NULL */
  GPtrArray *values;   /* the facts' values, for the check */
};

struct _Run
{
  GrammarDocumentGenerator *self;
  GOutputStream *output;
  GCancellable *cancellable;   /* the caller's */
  Render render;

  /* LLM mode: pages in row order, the first ones possibly done */
  GMainContext *context;
  GCancellable *stop;          /* cancels the requests in flight */
  gulong cancelled_id;
  GQueue pages;
  guint in_flight;
  GError *error;               /* the first failure of a request */
};

struct _Page
{
  Run *run;
  Document *document;
  gboolean done;
};

G_GNUC_INTERNAL
void grammar_docgen_table_info_free (TableInfo *info);
G_GNUC_INTERNAL
int grammar_docgen_column_index (TableInfo *info, const char *name);
G_GNUC_INTERNAL
gboolean grammar_docgen_is_key_column (TableInfo *info, guint column);
G_GNUC_INTERNAL
TableInfo * grammar_docgen_table_info_new (GrammarDatabase *database, GrammarTable *table);
G_GNUC_INTERNAL
void grammar_docgen_table_info_add_links (TableInfo *info, GHashTable *infos, GrammarDatabase *database);
G_GNUC_INTERNAL
gboolean grammar_docgen_is_pure_link_table (TableInfo *info);
G_GNUC_INTERNAL
void grammar_docgen_table_template_free (TableTemplate *template);
G_GNUC_INTERNAL
TableInfo * grammar_docgen_find_info (GHashTable *infos, const char *name);
G_GNUC_INTERNAL
GPtrArray * grammar_docgen_parse_template (GHashTable *infos, TableInfo *info, const char *source, GError **error);
G_GNUC_INTERNAL
Row * grammar_docgen_row_new_from_cursor (TableInfo *info, GrammarCursor *cursor);
G_GNUC_INTERNAL
gboolean grammar_docgen_render_nodes (Render *render, GPtrArray *nodes, Row *row, GString *out, GError **error);
G_GNUC_INTERNAL
void grammar_docgen_document_free (Document *document);
G_GNUC_INTERNAL
gboolean grammar_docgen_document_new (Render *render, Row *row, TableTemplate *template, Document **out, GError **error);
G_GNUC_INTERNAL
gboolean grammar_docgen_render_text (Render *render, Row *row, TableTemplate *template, GString *out, GError **error);
G_GNUC_INTERNAL
gboolean grammar_docgen_describe_profile (Render *render, Row *row, GString *out, GError **error);
G_GNUC_INTERNAL
GrammarChatRequest * grammar_docgen_build_request (const char *subject, const char *facts);
G_GNUC_INTERNAL
void grammar_docgen_row_free (Row *row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Row, grammar_docgen_row_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Document, grammar_docgen_document_free)

G_END_DECLS
