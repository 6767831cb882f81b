/* grammar-rule-verbalizer-private.h: what the parts of the rule verbalizer share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "grammar-rule-verbalizer.h"

G_BEGIN_DECLS

#define MAX_COMBINATIONS 64
#define LONG_MIN_WORDS 30

typedef struct _GrammarRulesStyleInfo GrammarRulesStyleInfo;
typedef struct _GrammarRulesToken GrammarRulesToken;
typedef struct _GrammarRulesTableRef GrammarRulesTableRef;
typedef struct _GrammarRulesProjection GrammarRulesProjection;
typedef struct _GrammarRulesEntity GrammarRulesEntity;
typedef struct _GrammarRulesMeaning GrammarRulesMeaning;
typedef struct _GrammarRulesSlots GrammarRulesSlots;
typedef struct _GrammarRulesPattern GrammarRulesPattern;
typedef struct _GrammarRulesRealization GrammarRulesRealization;
typedef struct _GrammarRulesCandidate GrammarRulesCandidate;
typedef struct _GrammarRulesGroup GrammarRulesGroup;
typedef struct _GrammarRulesCandidates GrammarRulesCandidates;

typedef enum {
  TOKEN_WORD,         /* keyword or bare identifier */
  TOKEN_IDENTIFIER,   /* "quoted" or `quoted` identifier, unquoted */
  TOKEN_STRING,
  TOKEN_NUMBER,
  TOKEN_PLACEHOLDER,  /* "[T.C]" as written */
  TOKEN_SYMBOL,
} GrammarRulesTokenKind;

typedef enum {
  COMPARISON_EQ,
  COMPARISON_NE,
  COMPARISON_LT,
  COMPARISON_LE,
  COMPARISON_GT,
  COMPARISON_GE,
  COMPARISON_LIKE,
} GrammarRulesComparison;

/* How the projected table relates to the placeholders' tables. */
typedef enum {
  SHAPE_SIMPLE,       /* one entity, and the projection is its own column */
  SHAPE_FOLLOW,       /* one entity, the projection is another table's (a foreign key followed) */
  SHAPE_LINK,         /* several entities, the projection is a linking table's */
  SHAPE_OWNER_WITH,   /* several entities, the projection is one of theirs */
} GrammarRulesShape;

/* What a column holds, by its declared type: it decides how a column
 * named by a past participle reads (“join date”, “publication year”). */
typedef enum {
  VALUE_KIND_UNKNOWN,
  VALUE_KIND_TEXT,
  VALUE_KIND_INTEGER,
  VALUE_KIND_REAL,
  VALUE_KIND_DATE,
  VALUE_KIND_TIMESTAMP,  /* a date and a time of day (TIMESTAMP, DATETIME) */
  VALUE_KIND_TIME,
  VALUE_KIND_BOOLEAN,
} GrammarRulesValueKind;

typedef enum {
  REGISTER_FULL,    /* complete noun phrases with articles */
  REGISTER_SHORT,   /* no articles, fragments */
  REGISTER_CASUAL,  /* full, or just the placeholder for a named entity */
} GrammarRulesRegister;

/* A target pattern and when it applies. */
enum {
  NEEDS_PLAIN = 1 << 0,        /* one column without aggregate */
  NEEDS_NAMED_FIRST = 1 << 1,  /* the first entity is named by its name or title */
  NEEDS_SIMPLE = 1 << 2,       /* SHAPE_SIMPLE */
  NEEDS_SINGULAR = 1 << 3,     /* one projected column */
  NEEDS_COUNTED = 1 << 4,      /* %E is the counted rows (“employees whose …”) */
  NEEDS_NOT_COUNTED = 1 << 5,  /* %E is not */
  NEEDS_NO_WITH_FIRST = 1 << 6, /* “%F with %X”: not when %F has its own “with” */
  NEEDS_BARE_RELATIVE = 1 << 7, /* %R is “the %A”, not “the %A of the %O”: no noun chain */
  NEEDS_OWN_NOUN = 1 << 8,      /* %O says more than the entities' nouns (“loan”, not “book author”) */
};

struct _GrammarRulesStyleInfo
{
  const char *name;
  const char *summary;
  const char *criteria;
};

struct _GrammarRulesToken
{
  GrammarRulesTokenKind kind;
  char *text;
  gboolean quoted;    /* a placeholder written as a string literal */
};

struct _GrammarRulesTableRef
{
  char *table;
  char *alias;  /* nullable */
};

struct _GrammarRulesProjection
{
  char *qualifier;         /* nullable */
  char *column;            /* nullable: "*" or not understood */
  char *alias;             /* nullable */
  const char *aggregate;   /* nullable: "number of", "highest"… */
};

/* One placeholder and the entity its table stands for. */
struct _GrammarRulesEntity
{
  char *written;       /* as texts write it: '[company.Name]' or [people.Age] */
  char *table;
  char *noun;          /* "company" */
  char *column;        /* as a noun phrase: "name", "ISBN", "sales (in billions)" */
  gboolean column_plural; /* "sales (in billions)" are… */
  GrammarRulesComparison comparison;
  const char *naming;  /* "named" or "titled" for an equality on a name or title, else NULL */
  char *qualifier;     /* the alias of the compared column (`c` in `c.Name = …`), or NULL */
};

struct _GrammarRulesMeaning
{
  char *attribute;     /* "industry", "number of employees", "industry and headquarters" */
  gboolean plural;
  gboolean plain;      /* one column, no aggregate: “the client name” reads well */
  gboolean counting;   /* COUNT(*): rows of the projected table are counted */
  char *owner;         /* noun of the projected row: its table's, or its role's (“supervisor”) */
  int owner_entity;    /* entity whose row is the projected one, or -1 */
  GPtrArray *entities; /* Entity */
  GrammarRulesShape shape;
  /* A yes/no column (`is_active`, `has_parking`): what it says of its
   * row, and the question's verb and rest; NULL otherwise. */
  char *statement;     /* "is active", "has parking" */
  char *auxiliary;     /* "is", "does" */
  char *predicate;     /* "active", "have parking" */
};

struct _GrammarRulesSlots
{
  const char *slots[26];
};

struct _GrammarRulesPattern
{
  const char *format;
  guint needs;
};

/* One way of saying what is asked: the slots a sentence frame fills. */
struct _GrammarRulesRealization
{
  char *target;     /* %T */
  char *entities;   /* %E */
  char *relative;   /* %R */
  char *question;   /* %I: a yes/no column's question, “is the customer … active” */
  guint pattern;    /* which target pattern made %T */
};

/* Candidate texts, in groups: one group per sentence frame (per
 * introduction for `long`). Each text has a sub-key (the target pattern,
 * or the request for `long`) that picking also tries to vary, and groups
 * have a tier: a lower tier is used up before a higher one is touched. */
struct _GrammarRulesCandidate
{
  char *text;
  guint sub;
  gboolean picked;
};

struct _GrammarRulesGroup
{
  guint tier;
  GArray *items;  /* Candidate */
};

struct _GrammarRulesCandidates
{
  GPtrArray *groups;  /* Group, indexed by group key */
  GHashTable *seen;   /* text → NULL */
};

struct _GrammarRuleVerbalizer
{
  GObject parent_instance;

  GrammarSchema *schema;
  guint64 seed;
};

G_GNUC_INTERNAL
gboolean grammar_rules_ends_with_any (const char *word, const char * const *endings);
G_GNUC_INTERNAL
char * grammar_rules_pluralize (const char *noun);
G_GNUC_INTERNAL
char * grammar_rules_singularize (const char *word);
G_GNUC_INTERNAL
GPtrArray * grammar_rules_identifier_words (const char *identifier);
G_GNUC_INTERNAL
GrammarRulesValueKind grammar_rules_value_kind (const char *declared_type);
G_GNUC_INTERNAL
gboolean grammar_rules_is_code_word (const char *word);
G_GNUC_INTERNAL
char * grammar_rules_column_phrase (const char *column, GrammarRulesValueKind kind, const char *owner_noun);
G_GNUC_INTERNAL
gboolean grammar_rules_column_predicate (const char *column, char **statement, char **auxiliary, char **rest);
G_GNUC_INTERNAL
char * grammar_rules_compound (const char *owner, const char *attribute);
G_GNUC_INTERNAL
gboolean grammar_rules_phrase_is_plural (const char *phrase);
G_GNUC_INTERNAL
char * grammar_rules_phrase_pluralize (const char *phrase);
G_GNUC_INTERNAL
char * grammar_rules_phrase_aggregate (const char *aggregate, const char *phrase);
G_GNUC_INTERNAL
GArray * grammar_rules_tokenize (const char *sql);
G_GNUC_INTERNAL
GrammarRulesToken * grammar_rules_token_at (GArray *tokens, guint index);
G_GNUC_INTERNAL
gboolean grammar_rules_is_word (GrammarRulesToken *token, const char *word);
G_GNUC_INTERNAL
gboolean grammar_rules_is_symbol (GrammarRulesToken *token, const char *symbol);
G_GNUC_INTERNAL
gboolean grammar_rules_is_name (GrammarRulesToken *token);
G_GNUC_INTERNAL
guint grammar_rules_find_top_level (GArray *tokens, guint from, guint to, const char * const *words);
G_GNUC_INTERNAL
GPtrArray * grammar_rules_read_from_clause (GArray *tokens, guint from, guint to);
G_GNUC_INTERNAL
GPtrArray * grammar_rules_read_projections (GArray *tokens, guint from, guint to);
G_GNUC_INTERNAL
GrammarRulesMeaning * grammar_rules_meaning_new (GrammarSqlTemplate *sql_template, GrammarSchema *schema);
G_GNUC_INTERNAL
void grammar_rules_slot_set (GrammarRulesSlots *slots, char letter, const char *value);
G_GNUC_INTERNAL
char * grammar_rules_expand (const char *format, const GrammarRulesSlots *slots);
G_GNUC_INTERNAL
gboolean grammar_rules_pattern_applies (guint needs, GrammarRulesMeaning *meaning, gboolean named_first,
                                        const char *first);
G_GNUC_INTERNAL
GPtrArray * grammar_rules_realize (GrammarRulesMeaning *meaning, GrammarRulesRegister reg);
G_GNUC_INTERNAL
void grammar_rules_meaning_free (GrammarRulesMeaning *meaning);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GrammarRulesMeaning, grammar_rules_meaning_free)

G_END_DECLS
