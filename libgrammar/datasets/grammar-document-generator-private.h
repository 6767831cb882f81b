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

typedef struct _GrammarDocgenTableInfo GrammarDocgenTableInfo;
typedef struct _GrammarDocgenRow GrammarDocgenRow;
typedef struct _GrammarDocgenLink GrammarDocgenLink;
typedef struct _GrammarDocgenNode GrammarDocgenNode;
typedef struct _GrammarDocgenTableTemplate GrammarDocgenTableTemplate;
typedef struct _GrammarDocgenParser GrammarDocgenParser;
typedef struct _GrammarDocgenRender GrammarDocgenRender;
typedef struct _GrammarDocgenDocument GrammarDocgenDocument;
typedef struct _GrammarDocgenRun GrammarDocgenRun;
typedef struct _GrammarDocgenPage GrammarDocgenPage;

typedef enum
{
  NODE_TEXT,
  NODE_FIELD,
  NODE_BLOCK,
} GrammarDocgenNodeKind;

/* A foreign key, seen from the table that declares it. */
struct _GrammarDocgenLink
{
  GrammarDocgenTableInfo *child; /* the table that declares it (unowned) */
  GrammarDocgenTableInfo *parent; /* the table it points to (unowned) */
  guint n_columns;
  guint *columns;         /* in the child */
  guint *parent_columns;  /* in the parent */
  char *parent_sql;       /* the parent row of a child row */
  char *children_sql;     /* the child rows of a parent row */
};

struct _GrammarDocgenTableInfo
{
  GrammarTable *table;    /* unowned: the schema holds it */
  const char *name;
  guint n_columns;
  const char **columns;   /* the schema's names */
  guint n_key;
  guint *key;             /* primary key columns, in key order */
  GPtrArray *links;       /* of GrammarDocgenLink: its foreign keys */
  char *rows_sql;         /* every row, in key order */
};

struct _GrammarDocgenNode
{
  GrammarDocgenNodeKind kind;
  char *text;          /* NODE_TEXT */
  GrammarDocgenLink *link; /* NODE_FIELD: NULL for the row itself, else the foreign key to follow (unowned) */
  guint column;        /* NODE_FIELD: in the row or in the row @link points to */
  GrammarDocgenLink *children; /* NODE_BLOCK: the child table's foreign key to the row (unowned) */
  GPtrArray *body;     /* NODE_BLOCK: of GrammarDocgenNode */
  gboolean space_before;
  gboolean space_after;
};

struct _GrammarDocgenTableTemplate
{
  char *title_source;
  char *text_source;
  GPtrArray *title;    /* of GrammarDocgenNode, or NULL for the default */
  GPtrArray *text;     /* of GrammarDocgenNode, or NULL for the default */
};

struct _GrammarDocgenParser
{
  GHashTable *infos;   /* lower-case table name → GrammarDocgenTableInfo */
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

  GHashTable *infos;       /* lower-case table name → GrammarDocgenTableInfo */
  GPtrArray *info_order;   /* of GrammarDocgenTableInfo (unowned), in schema order */
  GHashTable *templates;   /* lower-case table name → GrammarDocgenTableTemplate */

  /* Statistics of the last run. */
  guint64 n_documents;
  guint n_tables;
  guint n_lacking;
  GPtrArray *warnings;
  gint64 last_progress;
};

struct _GrammarDocgenRow
{
  GrammarDocgenTableInfo *info;
  GVariant **values;   /* n_columns, NULL for SQL NULL */
  GrammarDocgenRow **parents; /* per link, fetched when first needed */
  gboolean *fetched;
};

/* What a run shares while it renders. */
struct _GrammarDocgenRender
{
  GrammarDocumentGenerator *self;
  GCancellable *cancellable;
  GPtrArray *facts;    /* (nullable): the value texts used, for the LLM's check */
};

/* One document, before it is written. */
struct _GrammarDocgenDocument
{
  char *id;
  char *title;
  char *text;
  const char *table;
  JsonNode *key;
  char *facts;         /* what an LLM is told, or NULL */
  GPtrArray *values;   /* the facts' values, for the check */
};

struct _GrammarDocgenRun
{
  GrammarDocumentGenerator *self;
  GOutputStream *output;
  GCancellable *cancellable;   /* the caller's */
  GrammarDocgenRender render;

  /* LLM mode: pages in row order, the first ones possibly done */
  GMainContext *context;
  GCancellable *stop;          /* cancels the requests in flight */
  gulong cancelled_id;
  GQueue pages;
  guint in_flight;
  GError *error;               /* the first failure of a request */
};

struct _GrammarDocgenPage
{
  GrammarDocgenRun *run;
  GrammarDocgenDocument *document;
  gboolean done;
};

G_GNUC_INTERNAL
void grammar_docgen_table_info_free (GrammarDocgenTableInfo *info);
G_GNUC_INTERNAL
int grammar_docgen_column_index (GrammarDocgenTableInfo *info, const char *name);
G_GNUC_INTERNAL
gboolean grammar_docgen_is_key_column (GrammarDocgenTableInfo *info, guint column);
G_GNUC_INTERNAL
GrammarDocgenTableInfo * grammar_docgen_table_info_new (GrammarDatabase *database, GrammarTable *table);
G_GNUC_INTERNAL
void grammar_docgen_table_info_add_links (GrammarDocgenTableInfo *info, GHashTable *infos, GrammarDatabase *database);
G_GNUC_INTERNAL
gboolean grammar_docgen_is_pure_link_table (GrammarDocgenTableInfo *info);
G_GNUC_INTERNAL
void grammar_docgen_table_template_free (GrammarDocgenTableTemplate *template);
G_GNUC_INTERNAL
GrammarDocgenTableInfo * grammar_docgen_find_info (GHashTable *infos, const char *name);
G_GNUC_INTERNAL
GPtrArray * grammar_docgen_parse_template (GHashTable *infos, GrammarDocgenTableInfo *info, const char *source,
                                           GError **error);
G_GNUC_INTERNAL
GrammarDocgenRow * grammar_docgen_row_new_from_cursor (GrammarDocgenTableInfo *info, GrammarCursor *cursor);
G_GNUC_INTERNAL
gboolean grammar_docgen_render_nodes (GrammarDocgenRender *render, GPtrArray *nodes, GrammarDocgenRow *row,
                                      GString *out, GError **error);
G_GNUC_INTERNAL
void grammar_docgen_document_free (GrammarDocgenDocument *document);
G_GNUC_INTERNAL
gboolean grammar_docgen_document_new (GrammarDocgenRender *render, GrammarDocgenRow *row,
                                      GrammarDocgenTableTemplate *template, GrammarDocgenDocument **out,
                                      GError **error);
G_GNUC_INTERNAL
gboolean grammar_docgen_render_text (GrammarDocgenRender *render, GrammarDocgenRow *row,
                                     GrammarDocgenTableTemplate *template, GString *out, GError **error);
G_GNUC_INTERNAL
gboolean grammar_docgen_describe_profile (GrammarDocgenRender *render, GrammarDocgenRow *row, GString *out,
                                          GError **error);
G_GNUC_INTERNAL
GrammarChatRequest * grammar_docgen_build_request (const char *subject, const char *facts);
G_GNUC_INTERNAL
void grammar_docgen_row_free (GrammarDocgenRow *row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarDocgenRow, grammar_docgen_row_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarDocgenDocument, grammar_docgen_document_free)

G_END_DECLS
