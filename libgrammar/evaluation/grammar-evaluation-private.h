/* grammar-evaluation-private.h: the groups of an evaluation, for the comparison
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-evaluation.h"
#include "grammar-record.h"

G_BEGIN_DECLS

typedef enum
{
  GRAMMAR_GROUP_GAP,
  GRAMMAR_GROUP_ROBUST,
  GRAMMAR_GROUP_NON_ROBUST,
  GRAMMAR_GROUP_UNMEASURED,
  GRAMMAR_GROUP_N_TAGS,
} GrammarGroupTag;

/* The counts of a group's records with one key of a breakdown (template
 * or style): a style's robustness is that of its own wordings. */
typedef struct
{
  const char *key;             /* interned; "(none)" for none */
  guint breakdown;
  guint32 instances;
  guint32 measured;
  guint32 correct;
  guint32 retrieval_measured;
  guint32 retrieval_correct;
} GrammarEvaluationKeyCounts;

/* The records of one group id and what they add up to, some 200 bytes
 * whatever its records hold. */
typedef struct
{
  const char *id;              /* interned */
  GrammarGroupTag tag;
  guint32 instances;           /* records */
  guint32 measured;            /* answer verdict correct or incorrect */
  guint32 correct;
  guint32 retrieval_measured;  /* effective retrieval verdict measured */
  guint32 retrieval_correct;
  guint first;                 /* its records, by index in input order, */
  guint last;                  /* linked from first to last */
  guint64 first_line;          /* line of its first record, 0 when not read from a file */
  guint64 sql_hash;            /* of its first record, which every record shares */
  guint64 answer_hash;
  const char *tables;          /* interned: the tables its SQL names, one a line; NULL for none */
  const char *template_id;     /* of its first record; mixed_template when not all agree */
  const char *style;
  gboolean mixed_template;
  gboolean mixed_style;
  GrammarEvaluationKeyCounts keys[3];  /* by template and by style; more in more_keys */
  GArray *more_keys;
} GrammarEvaluationGroup;

/* The lists of a report. */
typedef enum
{
  GRAMMAR_EVALUATION_LIST_GAP_GROUPS,
  GRAMMAR_EVALUATION_LIST_DEBUG,
} GrammarEvaluationList;

/* Sees one record as a judged file is read. */
typedef void (*GrammarEvaluationRecordFunc) (GrammarRecord *record,
                                             gpointer       user_data);

/* Takes one entry of a list; FALSE with @error set stops. */
typedef gboolean (*GrammarEvaluationEntryFunc) (JsonNode  *entry,
                                                gpointer   user_data,
                                                GError   **error);

/* The counts every metric is made of, summed over groups. */
typedef struct
{
  guint64 instances;
  guint64 measured;
  guint64 correct;
  guint groups[GRAMMAR_GROUP_N_TAGS];
  guint64 group_instances[GRAMMAR_GROUP_N_TAGS];
  guint64 answered_measured;   /* measured records of robust and non_robust groups */
  guint64 answered_correct;
  guint64 retrieval_measured;
  guint64 retrieval_correct;
  guint64 answered_retrieval_measured;
  guint64 answered_retrieval_correct;
} GrammarEvaluationTally;

/* What the parts of GrammarEvaluation share: grammar-evaluation.c reads
 * and counts the records, grammar-evaluation-json.c writes them out. */

/* What a report shows of a template: the SQL and the text of its first
 * record, so that a person reads what the template asks rather than its
 * id. Kept per template, not per record. */
typedef struct
{
  char *sql;
  char *example;
} GrammarEvaluationExample;

/* The breakdowns of a report. */
typedef enum
{
  GRAMMAR_EVALUATION_BY_TEMPLATE,
  GRAMMAR_EVALUATION_BY_STYLE,
  GRAMMAR_EVALUATION_BY_TABLE,
} GrammarEvaluationBreakdown;

/* The key of a record that has none. */
#define GRAMMAR_EVALUATION_NO_KEY "(none)"

struct _GrammarEvaluation
{
  GObject parent_instance;

  char *source;
  /* The records: kept (grammar_evaluation_new(), grammar_evaluation_load())
   * or, read for a report, only where each one's line starts in @source,
   * to be read again for the lists. A record is an index into either. */
  GPtrArray *records;      /* GrammarRecord, in input order; empty when not kept */
  GArray *offsets;         /* guint64 a record, when read from a file */
  GArray *next;            /* guint a record: the next record of its group, G_MAXUINT for none */
  GByteArray *correct;     /* a record: 1 when its answer is correct (the lists skip it) */
  GArray *lines;           /* guint64 a kept record read from a file: its line */
  GDataInputStream *reread;
  JsonParser *parser;
  GStringChunk *strings;   /* group ids, templates, styles, tables */
  GHashTable *styles;      /* the styles, interned */
  GPtrArray *groups;       /* GrammarEvaluationGroup, sorted by id */
  GHashTable *group_index; /* id → GrammarEvaluationGroup (in groups) */
  GHashTable *templates;   /* template id (interned) → GrammarEvaluationExample */
  GrammarEvaluationTally tally;
  guint64 answered;        /* records with a response */
  guint64 reported;        /* records whose system reported its documents (`retrieved`, even empty) */
  GArray *latencies;       /* double: the latency_ms of each record that has one */
};

G_GNUC_INTERNAL
GrammarRecord      *grammar_evaluation_record_at         (GrammarEvaluation            *self,
                                                          guint                         index,
                                                          GError                      **error);
G_GNUC_INTERNAL
double              grammar_evaluation_knowledge_accuracy (const GrammarEvaluationTally *tally);
G_GNUC_INTERNAL
int                 grammar_evaluation_compare_keys      (gconstpointer                 a,
                                                          gconstpointer                 b);
G_GNUC_INTERNAL
GHashTable         *grammar_evaluation_tally_by_key      (GrammarEvaluation            *self,
                                                          GrammarEvaluationBreakdown    breakdown);

G_GNUC_INTERNAL
GrammarVerdictKind  grammar_evaluation_answer_verdict    (GrammarRecord                *record);
G_GNUC_INTERNAL
GrammarVerdictKind  grammar_evaluation_retrieval_verdict (GrammarRecord                *record);
G_GNUC_INTERNAL
char               *grammar_evaluation_dup_unreported_warning (GrammarEvaluation       *self);
G_GNUC_INTERNAL
int                 grammar_evaluation_compare_ids       (const char                   *a,
                                                          const char                   *b);
G_GNUC_INTERNAL
GrammarEvaluation  *grammar_evaluation_load_for_report   (const char                   *path,
                                                          GrammarEvaluationRecordFunc   each,
                                                          gpointer                      user_data,
                                                          GCancellable                 *cancellable,
                                                          GError                      **error);
G_GNUC_INTERNAL
JsonNode           *grammar_evaluation_build_json        (GrammarEvaluation            *self,
                                                          gboolean                      lists,
                                                          guint                         max_list,
                                                          GError                      **error);
G_GNUC_INTERNAL
JsonNode           *grammar_evaluation_by_style_json     (GrammarEvaluation            *self);
G_GNUC_INTERNAL
gboolean            grammar_evaluation_foreach_listed    (GrammarEvaluation            *self,
                                                          GrammarEvaluationList         list,
                                                          guint                         max_list,
                                                          GrammarEvaluationEntryFunc    func,
                                                          gpointer                      user_data,
                                                          GError                      **error);
G_GNUC_INTERNAL
const char         *grammar_evaluation_get_source        (GrammarEvaluation            *self);
G_GNUC_INTERNAL
GStrv               grammar_evaluation_dup_styles        (GrammarEvaluation            *self);
G_GNUC_INTERNAL
GPtrArray          *grammar_evaluation_get_groups        (GrammarEvaluation            *self);
G_GNUC_INTERNAL
GrammarEvaluationGroup *grammar_evaluation_lookup_group  (GrammarEvaluation            *self,
                                                          const char                   *id);
G_GNUC_INTERNAL
void                grammar_evaluation_tally_add         (GrammarEvaluationTally       *tally,
                                                          const GrammarEvaluationGroup *group);
G_GNUC_INTERNAL
const char         *grammar_evaluation_tag_name          (GrammarGroupTag               tag);
G_GNUC_INTERNAL
double              grammar_evaluation_rate              (guint64                       successes,
                                                          guint64                       n);

G_END_DECLS
