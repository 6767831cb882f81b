/* grammar-judge-runner.c: the judge stage, a matcher run over results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-error.h"
#include "grammar-judge-runner.h"
#include "grammar-jsonl-private.h"
#include "grammar-record.h"
#include "grammar-sync-private.h"

/**
 * GrammarJudgeRunner:
 *
 * Judges every record of `results.jsonl` (the output of #GrammarRagRunner)
 * and writes `judged.jsonl`: each results line with the members
 *
 * - `verdict` and `judge` `{"matcher", "score", "reason"}`: what the
 *   matcher decided about the response (grammar_record_set_verdict());
 * - `retrieval`: whether the system retrieved what the answer needs
 *   (grammar_record_set_retrieval_verdict()), by the rule of
 *   #GrammarJudgeRunner:retrieval-rule.
 *
 * The retrieval rules:
 *
 * - `all`: correct when every id of the record's `doc_ids` is among the
 *   ids of its `retrieved` documents, incorrect otherwise;
 * - `any`: correct when at least one of them is;
 * - `context` ("context comparison"): a record whose answer is correct
 *   is correct; an incorrect record of a non-robust group (one whose
 *   other records have some correct answers) is correct when it
 *   retrieved the same set of documents as a correct record of its
 *   group, since the language model then failed with a context that was
 *   enough, and incorrect otherwise; the records of a gap group (no
 *   correct answer) have nothing to compare with and are unmeasured;
 * - `auto`, the default: `all` for a record with `doc_ids`, `context`
 *   for one without.
 *
 * A record whose system failed (no `retrieved`), a record without
 * `doc_ids` under `all` or `any`, and a record whose answer is
 * unmeasured under `context` get an unmeasured retrieval verdict.
 *
 * With #GrammarJudgeRunner:closed-domain, a record with `doc_ids`
 * whose true documents were not retrieved (by the `all` rule, or `any`
 * when that is the retrieval rule) is incorrect without asking the
 * matcher: in a closed domain the language model cannot know the answer
 * otherwise, so a right-looking response is a guess. Its verdict names
 * the matcher `closed-domain`.
 *
 * Since context comparison needs the whole group, the output is written
 * group by group: the input (in the completion order of `grammar rag`,
 * so with its groups interleaved) is read first, and the records of a
 * group are appended and flushed together once all of them are judged.
 * Up to #GrammarJudgeRunner:max-concurrency matcher calls are in flight
 * at once, as asynchronous calls on the thread-default main context of
 * the caller.
 *
 * Running again with the same output resumes: the ids already in it are
 * skipped (their verdicts still count for the context comparison of the
 * rest of their group), and an incomplete last line (a run killed while
 * writing it) is removed first. The whole input is checked before the
 * first record is judged: a line that is not a JSON object, a member of
 * the wrong type, a record without `id` or `response` and an id used
 * twice fail the run with %GRAMMAR_ERROR_INVALID_INPUT and a message
 * starting with `FILE:LINE:`, and the output is left as it was.
 */

struct _GrammarJudgeRunner
{
  GObject parent_instance;

  GrammarMatcher *matcher;
  gboolean closed_domain;
  char *retrieval_rule;
  guint max_concurrency;
  guint64 limit;

  gboolean running;
  guint64 n_total;
  guint64 n_judged;
  guint64 n_skipped;
  guint64 n_correct;
  guint64 n_incorrect;
  guint64 n_unmeasured;
  GStrv warnings;
};

G_DEFINE_FINAL_TYPE (GrammarJudgeRunner, grammar_judge_runner, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_MATCHER,
  PROP_CLOSED_DOMAIN,
  PROP_RETRIEVAL_RULE,
  PROP_MAX_CONCURRENCY,
  PROP_LIMIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_PROGRESS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef enum
{
  RULE_AUTO,
  RULE_ALL,
  RULE_ANY,
  RULE_CONTEXT,
} Rule;

static const char * const rule_names[] = {
  [RULE_AUTO] = "auto",
  [RULE_ALL] = "all",
  [RULE_ANY] = "any",
  [RULE_CONTEXT] = "context",
};

static gboolean
rule_from_string (const char *text,
                  Rule       *rule)
{
  for (guint i = 0; i < G_N_ELEMENTS (rule_names); i++)
    if (g_strcmp0 (text, rule_names[i]) == 0)
      {
        *rule = i;
        return TRUE;
      }
  return FALSE;
}

/* What the output already holds about a record: enough to compare the
 * rest of its group with it. */
typedef struct
{
  GrammarVerdictKind kind;  /* unmeasured when it has no verdict */
  char *retrieved;          /* its retrieved ids as a set (see retrieved_key()), or NULL */
} Known;

static void
known_free (Known *known)
{
  g_free (known->retrieved);
  g_free (known);
}

/* The records of one group read so far. Shared by the run's table of
 * groups and by the matcher calls of its records. */
typedef struct
{
  char *name;          /* NULL for a record without `group`, a group of its own */
  guint64 expected;    /* the records of the group in the input, up to the limit */
  guint64 n_read;
  guint pending;       /* matcher calls not back yet */
  gboolean broken;     /* a verdict is missing: the group is not written */
  GPtrArray *records;  /* GrammarRecord to judge and write, in input order */
  GPtrArray *known;    /* Known, owned by the run's `done` table */
} Group;

static void
group_clear (Group *group)
{
  g_free (group->name);
  g_ptr_array_unref (group->records);
  g_ptr_array_unref (group->known);
}

static Group *
group_new (const char *name,
           guint64     expected)
{
  Group *group = g_rc_box_new0 (Group);

  group->name = g_strdup (name);
  group->expected = expected;
  group->records = g_ptr_array_new_with_free_func (g_object_unref);
  group->known = g_ptr_array_new ();
  return group;
}

static Group *
group_ref (Group *group)
{
  return g_rc_box_acquire (group);
}

static void
group_unref (Group *group)
{
  g_rc_box_release_full (group, (GDestroyNotify) group_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Group, group_unref)

/* The state of one run. The preparation (checking the input, reading
 * the output) fills the first part in a worker thread; the judging then
 * runs on the caller's main context. */
typedef struct
{
  char *input;
  char *output;
  guint64 limit;
  Rule rule;
  gboolean closed_domain;

  /* Preparation */
  GHashTable *done;         /* id in the output → Known */
  GHashTable *sizes;        /* group → its number of records in the input, as a pointer to guint64 */
  GrammarJsonlTail tail;
  guint64 n_total;
  guint64 n_skipped;
  GPtrArray *warnings;

  /* Judging */
  JsonParser *parser;
  GDataInputStream *reader;
  guint64 line;
  guint64 n_read;
  GHashTable *groups;       /* name → Group, the groups not written yet */
  GOutputStream *writer;
  guint in_flight;
  guint64 n_decided;
  guint64 n_decided_correct;
  guint64 n_decided_unmeasured;
  gboolean exhausted;
  gboolean write_failed;
  gboolean finished;
  GError *error;            /* the first error that stops the run */
} Run;

static void
run_free (Run *run)
{
  g_free (run->input);
  g_free (run->output);
  g_clear_pointer (&run->groups, g_hash_table_unref);
  g_clear_pointer (&run->done, g_hash_table_unref);
  g_clear_pointer (&run->sizes, g_hash_table_unref);
  g_ptr_array_unref (run->warnings);
  g_clear_object (&run->parser);
  g_clear_object (&run->reader);
  g_clear_object (&run->writer);
  g_clear_error (&run->error);
  g_free (run);
}

/* GObject */

static void
grammar_judge_runner_finalize (GObject *object)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (object);

  g_clear_object (&self->matcher);
  g_free (self->retrieval_rule);
  g_strfreev (self->warnings);

  G_OBJECT_CLASS (grammar_judge_runner_parent_class)->finalize (object);
}

static void
grammar_judge_runner_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MATCHER:
      g_value_set_object (value, self->matcher);
      break;
    case PROP_CLOSED_DOMAIN:
      g_value_set_boolean (value, self->closed_domain);
      break;
    case PROP_RETRIEVAL_RULE:
      g_value_set_string (value, self->retrieval_rule);
      break;
    case PROP_MAX_CONCURRENCY:
      g_value_set_uint (value, self->max_concurrency);
      break;
    case PROP_LIMIT:
      g_value_set_uint64 (value, self->limit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_judge_runner_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MATCHER:
      self->matcher = g_value_dup_object (value);
      break;
    case PROP_CLOSED_DOMAIN:
      grammar_judge_runner_set_closed_domain (self, g_value_get_boolean (value));
      break;
    case PROP_RETRIEVAL_RULE:
      grammar_judge_runner_set_retrieval_rule (self, g_value_get_string (value));
      break;
    case PROP_MAX_CONCURRENCY:
      grammar_judge_runner_set_max_concurrency (self, g_value_get_uint (value));
      break;
    case PROP_LIMIT:
      grammar_judge_runner_set_limit (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_judge_runner_class_init (GrammarJudgeRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_judge_runner_finalize;
  object_class->get_property = grammar_judge_runner_get_property;
  object_class->set_property = grammar_judge_runner_set_property;

  /**
   * GrammarJudgeRunner:matcher:
   *
   * The matcher that judges the responses.
   */
  properties[PROP_MATCHER] =
    g_param_spec_object ("matcher", NULL, "The matcher that judges the responses",
                         GRAMMAR_TYPE_MATCHER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarJudgeRunner:closed-domain:
   *
   * Whether a record whose true documents (`doc_ids`) were not
   * retrieved is incorrect without asking the matcher, as the reference
   * tool does for closed-domain knowledge: the language model cannot
   * know such an answer without its documents. The documents count as
   * retrieved by the `all` rule, or by the `any` rule when that is
   * #GrammarJudgeRunner:retrieval-rule.
   */
  properties[PROP_CLOSED_DOMAIN] =
    g_param_spec_boolean ("closed-domain", NULL,
                          "A record whose true documents were not retrieved is incorrect",
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarJudgeRunner:retrieval-rule:
   *
   * How the retrieval verdict is decided: `all` (every true document
   * retrieved), `any` (at least one), `context` (context comparison
   * inside the record's group) or `auto` (`all` for a record with
   * `doc_ids`, `context` for one without). See #GrammarJudgeRunner.
   */
  properties[PROP_RETRIEVAL_RULE] =
    g_param_spec_string ("retrieval-rule", NULL, "How the retrieval verdict is decided: all, any, context or auto",
                         "auto",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarJudgeRunner:max-concurrency:
   *
   * How many records are judged at once, at most. A matcher that asks a
   * language model is faster with several requests in flight; a
   * deterministic matcher is not made parallel by it.
   */
  properties[PROP_MAX_CONCURRENCY] =
    g_param_spec_uint ("max-concurrency", NULL, "How many records are judged at once, at most",
                       1, G_MAXUINT, GRAMMAR_JUDGE_RUNNER_DEFAULT_MAX_CONCURRENCY,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarJudgeRunner:limit:
   *
   * Only the first records of the input are judged (a smoke run), or all
   * of them when 0. Records already in the output count towards the
   * limit. A group cut by the limit is compared by what is left of it.
   */
  properties[PROP_LIMIT] =
    g_param_spec_uint64 ("limit", NULL, "How many records of the input to judge, 0 for all",
                         0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GrammarJudgeRunner::progress:
   * @self: the runner
   * @done: the records of this run that have their verdict so far
   * @total: the records this run judges (neither skipped nor beyond the limit)
   * @correct: the verdicts of @done that are correct
   * @unmeasured: the verdicts of @done that are unmeasured
   *
   * Emitted once when the judging starts and after each verdict. A
   * record is written later, with the rest of its group.
   */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_UINT64);
}

static void
grammar_judge_runner_init (GrammarJudgeRunner *self)
{
  self->retrieval_rule = g_strdup ("auto");
  self->max_concurrency = GRAMMAR_JUDGE_RUNNER_DEFAULT_MAX_CONCURRENCY;
}

/**
 * grammar_judge_runner_new:
 * @matcher: the matcher that judges the responses
 *
 * Creates a runner that judges with @matcher.
 *
 * Returns: (transfer full): a new #GrammarJudgeRunner
 */
GrammarJudgeRunner *
grammar_judge_runner_new (GrammarMatcher *matcher)
{
  g_return_val_if_fail (GRAMMAR_IS_MATCHER (matcher), NULL);

  return g_object_new (GRAMMAR_TYPE_JUDGE_RUNNER, "matcher", matcher, NULL);
}

/* Configuration from the [judge] section */

#define JUDGE_SECTION "judge"

static gboolean
config_error (GError        **error,
              GrammarConfig  *config,
              int             code,
              const char     *key,
              const char     *message)
{
  g_set_error (error, GRAMMAR_CONFIG_ERROR, code, "%s: [%s] %s: %s",
               grammar_config_get_path (config), JUDGE_SECTION, key, message);
  return FALSE;
}

static gboolean
check_judge_keys (GrammarConfig  *config,
                  GError        **error)
{
  static const char * const known[] = { "matcher", "closed-domain", "retrieval", "max-concurrency", NULL };
  g_auto (GStrv) keys = g_key_file_get_keys (grammar_config_get_key_file (config), JUDGE_SECTION, NULL, NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    if (!g_strv_contains (known, keys[i]))
      return config_error (error, config, GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY, keys[i],
                           "unknown key; the keys of this section are matcher, closed-domain, "
                           "retrieval and max-concurrency");
  return TRUE;
}

static char *
read_judge_string (GrammarConfig *config,
                   const char    *key)
{
  char *value = g_key_file_get_string (grammar_config_get_key_file (config), JUDGE_SECTION, key, NULL);

  return value != NULL ? g_strstrip (value) : NULL;
}

/* Sets the runner's properties from the keys of [judge] that are there. */
static gboolean
configure (GrammarJudgeRunner  *self,
           GrammarConfig       *config,
           GError             **error)
{
  GKeyFile *key_file = grammar_config_get_key_file (config);
  g_autofree char *closed_domain = read_judge_string (config, "closed-domain");
  g_autofree char *retrieval = read_judge_string (config, "retrieval");
  g_autofree char *concurrency = read_judge_string (config, "max-concurrency");
  Rule rule;

  if (closed_domain != NULL)
    {
      g_autoptr (GError) local_error = NULL;
      gboolean value = g_key_file_get_boolean (key_file, JUDGE_SECTION, "closed-domain", &local_error);

      if (local_error != NULL)
        return config_error (error, config, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "closed-domain",
                             "must be true or false");
      grammar_judge_runner_set_closed_domain (self, value);
    }
  if (retrieval != NULL)
    {
      if (!rule_from_string (retrieval, &rule))
        return config_error (error, config, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "retrieval",
                             "must be all, any, context or auto");
      grammar_judge_runner_set_retrieval_rule (self, retrieval);
    }
  if (concurrency != NULL)
    {
      guint64 value = 0;

      if (!g_ascii_string_to_unsigned (concurrency, 10, 1, G_MAXUINT, &value, NULL))
        return config_error (error, config, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "max-concurrency",
                             "must be a whole number, at least 1");
      grammar_judge_runner_set_max_concurrency (self, (guint) value);
    }
  return TRUE;
}

/**
 * grammar_judge_runner_new_from_config:
 * @config: the configuration
 * @matcher_section: (nullable): the section of the matcher, or %NULL for
 *   the `matcher` key of `[judge]`, or else `matcher`
 *
 * Creates a runner as `grammar judge` and `grammar run` do: the matcher
 * is built from its section, and the optional `[judge]` section of
 * @config sets the runner's properties: `closed-domain` (true or false),
 * `retrieval` (all, any, context or auto, #GrammarJudgeRunner:retrieval-rule)
 * and `max-concurrency`. Any other key of `[judge]` is an error.
 *
 * Returns: (transfer full) (nullable): a new #GrammarJudgeRunner, or %NULL
 *   with a %GRAMMAR_CONFIG_ERROR error naming the file, section and key
 */
GrammarJudgeRunner *
grammar_judge_runner_new_from_config (GrammarConfig  *config,
                                      const char     *matcher_section,
                                      GError        **error)
{
  g_autoptr (GrammarJudgeRunner) self = NULL;
  g_autoptr (GObject) matcher = NULL;
  g_autofree char *configured = NULL;
  gboolean has_section;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  has_section = g_key_file_has_group (grammar_config_get_key_file (config), JUDGE_SECTION);
  if (has_section && !check_judge_keys (config, error))
    return NULL;
  if (matcher_section == NULL && has_section)
    {
      configured = read_judge_string (config, "matcher");
      if (configured != NULL && *configured == '\0')
        {
          config_error (error, config, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "matcher",
                        "must name the section of a matcher");
          return NULL;
        }
      matcher_section = configured;
    }

  matcher = grammar_config_build (config, matcher_section != NULL ? matcher_section : "matcher",
                                  GRAMMAR_TYPE_MATCHER, error);
  if (matcher == NULL)
    return NULL;
  self = grammar_judge_runner_new (GRAMMAR_MATCHER (matcher));
  if (has_section && !configure (self, config, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * grammar_judge_runner_get_matcher:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: (transfer none): the matcher that judges the responses
 */
GrammarMatcher *
grammar_judge_runner_get_matcher (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), NULL);
  return self->matcher;
}

/**
 * grammar_judge_runner_get_closed_domain:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: whether a record whose true documents were not retrieved is incorrect without asking the matcher
 */
gboolean
grammar_judge_runner_get_closed_domain (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), FALSE);
  return self->closed_domain;
}

/**
 * grammar_judge_runner_set_closed_domain:
 * @self: a #GrammarJudgeRunner
 * @closed_domain: whether a record whose true documents were not retrieved is incorrect
 *
 * Sets #GrammarJudgeRunner:closed-domain.
 */
void
grammar_judge_runner_set_closed_domain (GrammarJudgeRunner *self,
                                        gboolean            closed_domain)
{
  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));

  closed_domain = !!closed_domain;
  if (self->closed_domain == closed_domain)
    return;
  self->closed_domain = closed_domain;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOSED_DOMAIN]);
}

/**
 * grammar_judge_runner_get_retrieval_rule:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: how the retrieval verdict is decided: `all`, `any`, `context` or `auto`
 */
const char *
grammar_judge_runner_get_retrieval_rule (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), NULL);
  return self->retrieval_rule;
}

/**
 * grammar_judge_runner_set_retrieval_rule:
 * @self: a #GrammarJudgeRunner
 * @rule: (nullable): `all`, `any`, `context` or `auto`; %NULL for `auto`
 *
 * Sets #GrammarJudgeRunner:retrieval-rule.
 */
void
grammar_judge_runner_set_retrieval_rule (GrammarJudgeRunner *self,
                                         const char         *rule)
{
  Rule value = RULE_AUTO;

  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));
  g_return_if_fail (rule == NULL || rule_from_string (rule, &value));

  if (g_str_equal (self->retrieval_rule, rule_names[value]))
    return;
  g_free (self->retrieval_rule);
  self->retrieval_rule = g_strdup (rule_names[value]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRIEVAL_RULE]);
}

/**
 * grammar_judge_runner_get_max_concurrency:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: how many records are judged at once, at most
 */
guint
grammar_judge_runner_get_max_concurrency (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->max_concurrency;
}

/**
 * grammar_judge_runner_set_max_concurrency:
 * @self: a #GrammarJudgeRunner
 * @max_concurrency: how many records to judge at once, at least 1
 *
 * Sets #GrammarJudgeRunner:max-concurrency.
 */
void
grammar_judge_runner_set_max_concurrency (GrammarJudgeRunner *self,
                                          guint               max_concurrency)
{
  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));
  g_return_if_fail (max_concurrency >= 1);

  if (self->max_concurrency == max_concurrency)
    return;
  self->max_concurrency = max_concurrency;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONCURRENCY]);
}

/**
 * grammar_judge_runner_get_limit:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: how many records of the input are judged, 0 for all
 */
guint64
grammar_judge_runner_get_limit (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->limit;
}

/**
 * grammar_judge_runner_set_limit:
 * @self: a #GrammarJudgeRunner
 * @limit: how many records of the input to judge, 0 for all
 *
 * Sets #GrammarJudgeRunner:limit.
 */
void
grammar_judge_runner_set_limit (GrammarJudgeRunner *self,
                                guint64             limit)
{
  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));

  if (self->limit == limit)
    return;
  self->limit = limit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIMIT]);
}

/* Retrieval verdicts */

static gboolean
has_doc_ids (GrammarRecord *record)
{
  const char * const *doc_ids = grammar_record_get_doc_ids (record);

  return doc_ids != NULL && doc_ids[0] != NULL;
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The ids of @hits as a set, one text to compare: sorted, without
 * repeats, as a JSON array. %NULL when nothing was retrieved because
 * the system failed. */
static char *
retrieved_key (GPtrArray *hits)
{
  g_autoptr (GPtrArray) ids = NULL;
  g_autoptr (JsonArray) array = json_array_new ();
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_ARRAY);

  if (hits == NULL)
    return NULL;
  ids = g_ptr_array_new ();
  for (guint i = 0; i < hits->len; i++)
    g_ptr_array_add (ids, (gpointer) grammar_hit_get_document_id (g_ptr_array_index (hits, i)));
  g_ptr_array_sort (ids, compare_ids);
  for (guint i = 0; i < ids->len; i++)
    if (i == 0 || g_strcmp0 (g_ptr_array_index (ids, i - 1), g_ptr_array_index (ids, i)) != 0)
      json_array_add_string_element (array, g_ptr_array_index (ids, i));
  json_node_set_array (node, array);
  return json_to_string (node, FALSE);
}

static gboolean
was_retrieved (GPtrArray  *hits,
               const char *id)
{
  for (guint i = 0; i < hits->len; i++)
    if (g_strcmp0 (grammar_hit_get_document_id (g_ptr_array_index (hits, i)), id) == 0)
      return TRUE;
  return FALSE;
}

/* The ids rules: whether the true documents of @record were retrieved,
 * all of them or (@any) at least one. Unmeasured without true
 * documents or without retrieved ones. @missing gets the true ids not
 * retrieved, separated by ", ". */
static GrammarVerdictKind
ids_verdict (GrammarRecord *record,
             gboolean       any,
             GString       *missing)
{
  const char * const *doc_ids = grammar_record_get_doc_ids (record);
  GPtrArray *hits = grammar_record_get_retrieved (record);
  guint n_found = 0;
  guint n_ids = 0;

  if (!has_doc_ids (record) || hits == NULL)
    return GRAMMAR_VERDICT_UNMEASURED;
  for (; doc_ids[n_ids] != NULL; n_ids++)
    {
      if (was_retrieved (hits, doc_ids[n_ids]))
        n_found++;
      else if (missing != NULL)
        g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "", doc_ids[n_ids]);
    }
  if (any ? n_found > 0 : n_found == n_ids)
    return GRAMMAR_VERDICT_CORRECT;
  return GRAMMAR_VERDICT_INCORRECT;
}

static GrammarVerdictKind
answer_kind (GrammarRecord *record)
{
  GrammarVerdict *verdict = grammar_record_get_verdict (record);

  return verdict != NULL ? grammar_verdict_get_kind (verdict) : GRAMMAR_VERDICT_UNMEASURED;
}

/* What context comparison needs to know about a group: whether any of
 * its answers is correct, and the sets of documents of the correct ones. */
typedef struct
{
  gboolean any_correct;
  GHashTable *correct_sets;  /* retrieved_key() of correct records */
} GroupContext;

static void
note_context (GroupContext       *context,
              GrammarVerdictKind  kind,
              char               *key)
{
  if (kind != GRAMMAR_VERDICT_CORRECT)
    {
      g_free (key);
      return;
    }
  context->any_correct = TRUE;
  if (key != NULL)
    g_hash_table_add (context->correct_sets, key);
}

static GrammarVerdictKind
context_verdict (GrammarRecord *record,
                 GroupContext  *context)
{
  g_autofree char *key = NULL;

  switch (answer_kind (record))
    {
    case GRAMMAR_VERDICT_CORRECT:
      return GRAMMAR_VERDICT_CORRECT;
    case GRAMMAR_VERDICT_UNMEASURED:
      return GRAMMAR_VERDICT_UNMEASURED;
    case GRAMMAR_VERDICT_INCORRECT:
    default:
      break;
    }
  /* A gap group has no correct record to compare with. */
  key = retrieved_key (grammar_record_get_retrieved (record));
  if (!context->any_correct || key == NULL)
    return GRAMMAR_VERDICT_UNMEASURED;
  /* The same documents let another query of the group be answered:
   * the context was enough, the language model failed. */
  return g_hash_table_contains (context->correct_sets, key) ? GRAMMAR_VERDICT_CORRECT : GRAMMAR_VERDICT_INCORRECT;
}

static void
set_retrieval_verdicts (Group *group,
                        Rule   rule)
{
  GroupContext context = { FALSE, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };

  for (guint i = 0; i < group->known->len; i++)
    {
      Known *known = g_ptr_array_index (group->known, i);

      note_context (&context, known->kind, g_strdup (known->retrieved));
    }
  for (guint i = 0; i < group->records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (group->records, i);

      note_context (&context, answer_kind (record), retrieved_key (grammar_record_get_retrieved (record)));
    }

  for (guint i = 0; i < group->records->len; i++)
    {
      GrammarRecord *record = g_ptr_array_index (group->records, i);
      Rule record_rule = rule;
      GrammarVerdictKind kind;

      if (record_rule == RULE_AUTO)
        record_rule = has_doc_ids (record) ? RULE_ALL : RULE_CONTEXT;
      if (record_rule == RULE_CONTEXT)
        kind = context_verdict (record, &context);
      else
        kind = ids_verdict (record, record_rule == RULE_ANY, NULL);
      grammar_record_set_retrieval_verdict (record, kind);
    }
  g_hash_table_unref (context.correct_sets);
}

/* The closed-domain rule: a verdict without the matcher for a record
 * whose true documents were not retrieved, else %NULL. */
static GrammarVerdict *
closed_domain_verdict (Run           *run,
                       GrammarRecord *record)
{
  g_autoptr (GString) missing = g_string_new (NULL);
  g_autofree char *reason = NULL;

  if (!run->closed_domain ||
      ids_verdict (record, run->rule == RULE_ANY, missing) != GRAMMAR_VERDICT_INCORRECT)
    return NULL;
  reason = g_strdup_printf ("closed domain: the true documents were not retrieved (missing %s)", missing->str);
  return grammar_verdict_new (GRAMMAR_VERDICT_INCORRECT, 0.0, reason, "closed-domain");
}

/* Preparation, in a worker thread */

/* A judged record needs an id to be written under, and a `response`
 * member (null when the system failed): without one the input is a
 * dataset, not results. */
static const char * const required_members[] = { "id", NULL };

static GrammarRecord *
parse_input_record (JsonParser  *parser,
                    const char  *path,
                    guint64      line,
                    const char  *text,
                    gsize        length,
                    GError     **error)
{
  g_autoptr (GrammarRecord) record = NULL;

  record = grammar_jsonl_parse_record (parser, path, line, text, length, required_members, error);
  if (record == NULL)
    return NULL;
  if (!json_object_has_member (json_node_get_object (json_parser_get_root (parser)), "response"))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": the record has no “response”; judge the results of "
                   "grammar rag, not a dataset", path, line);
      return NULL;
    }
  return g_steal_pointer (&record);
}

static gboolean
scan_output_line (JsonObject  *object,
                  const char  *id,
                  guint64      line,
                  gpointer     user_data,
                  GError     **error)
{
  Run *run = user_data;
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr (GrammarRecord) record = NULL;
  Known *known;

  json_node_set_object (node, object);
  record = grammar_record_new_from_json (node, error);
  if (record == NULL)
    return FALSE;
  known = g_new0 (Known, 1);
  known->kind = answer_kind (record);
  known->retrieved = retrieved_key (grammar_record_get_retrieved (record));
  /* An id written twice: the last line counts. */
  g_hash_table_replace (run->done, g_strdup (id), known);
  return TRUE;
}

/* Checks every record the run would read, counts what it will judge,
 * and the size of each group. Nothing is judged when the input has a
 * problem. */
static gboolean
check_input (Run           *run,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint64 line = 0;
  guint64 n_read = 0;
  guint64 n_known = 0;

  lines = grammar_jsonl_open (run->input, cancellable, error);
  if (lines == NULL)
    return FALSE;

  while (run->limit == 0 || n_read < run->limit)
    {
      g_autofree char *text = NULL;
      g_autoptr (GrammarRecord) record = NULL;
      gsize length = 0;
      gpointer first_line;
      const char *id;
      const char *group;

      if (!grammar_jsonl_read_line (lines, run->input, &text, &length, cancellable, error))
        return FALSE;
      if (text == NULL)
        break;
      line++;
      if (grammar_jsonl_line_is_blank (text, length))
        continue;
      record = parse_input_record (parser, run->input, line, text, length, error);
      if (record == NULL)
        return FALSE;
      n_read++;

      id = grammar_record_get_id (record);
      if (g_hash_table_lookup_extended (ids, id, NULL, &first_line))
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": duplicate id “%s” (also on line %" G_GUINT64_FORMAT ")",
                       run->input, line, id, (guint64) GPOINTER_TO_SIZE (first_line));
          return FALSE;
        }
      g_hash_table_insert (ids, g_strdup (id), GSIZE_TO_POINTER (line));

      group = grammar_record_get_group (record);
      if (group != NULL)
        {
          guint64 *size = g_hash_table_lookup (run->sizes, group);

          if (size == NULL)
            {
              size = g_new0 (guint64, 1);
              g_hash_table_insert (run->sizes, g_strdup (group), size);
            }
          (*size)++;
        }

      if (g_hash_table_contains (run->done, id))
        {
          n_known++;
          run->n_skipped++;
        }
      else
        run->n_total++;
    }

  if (run->limit == 0 && n_known < g_hash_table_size (run->done))
    g_ptr_array_add (run->warnings,
                     g_strdup_printf ("%s: %u records have an id that is not in %s; they were kept",
                                      run->output, g_hash_table_size (run->done) - (guint) n_known, run->input));
  return TRUE;
}

/* Everything that happens before the first verdict: the input is
 * checked before the output is touched, so that a bad input changes
 * nothing. */
static void
prepare_in_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  Run *run = task_data;
  GError *error = NULL;

  if (!grammar_jsonl_check_not_same_file (run->input, run->output, cancellable, &error) ||
      !grammar_jsonl_scan_output (run->output, scan_output_line, run, &run->tail, cancellable, &error) ||
      !check_input (run, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (run->tail.incomplete_line > 0)
    {
      if (!grammar_jsonl_drop_incomplete_line (run->output, &run->tail, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (run->warnings,
                       g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": removed an incomplete last line "
                                        "left by an interrupted run",
                                        run->output, run->tail.incomplete_line));
    }
  g_task_return_boolean (task, TRUE);
}

/* Judging, on the caller's main context */

typedef struct
{
  GTask *task;             /* the run's */
  Group *group;
  GrammarRecord *record;
} Judgement;

static void
judgement_free (Judgement *judgement)
{
  g_object_unref (judgement->task);
  group_unref (judgement->group);
  g_object_unref (judgement->record);
  g_free (judgement);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Judgement, judgement_free)

static void ask_more (GTask *task);

static void
stop_run (Run    *run,
          GError *error)
{
  if (run->error == NULL)
    run->error = error;
  else
    g_error_free (error);
}

/* Writes the records of a complete group, all in one write. */
static void
write_group (GTask *task,
             Group *group)
{
  Run *run = g_task_get_task_data (task);
  GrammarJudgeRunner *self = g_task_get_source_object (task);
  g_autoptr (GString) lines = g_string_new (NULL);
  GError *error = NULL;

  if (group->records->len == 0 || run->write_failed)
    return;
  set_retrieval_verdicts (group, run->rule);
  for (guint i = 0; i < group->records->len; i++)
    {
      g_autoptr (JsonNode) node = grammar_record_to_json (g_ptr_array_index (group->records, i));

      grammar_jsonl_append_node (lines, node);
    }
  if (!grammar_jsonl_write (run->writer, run->output, lines, &error))
    {
      run->write_failed = TRUE;
      stop_run (run, error);
      return;
    }
  for (guint i = 0; i < group->records->len; i++)
    {
      switch (answer_kind (g_ptr_array_index (group->records, i)))
        {
        case GRAMMAR_VERDICT_CORRECT:
          self->n_correct++;
          break;
        case GRAMMAR_VERDICT_INCORRECT:
          self->n_incorrect++;
          break;
        case GRAMMAR_VERDICT_UNMEASURED:
        default:
          self->n_unmeasured++;
          break;
        }
    }
  self->n_judged += group->records->len;
}

/* Writes @group once every record of it is read and judged. */
static void
finish_group_if_done (GTask *task,
                      Group *group)
{
  Run *run = g_task_get_task_data (task);

  if (group->n_read < group->expected || group->pending > 0 || group->broken)
    return;
  write_group (task, group);
  /* Done with: a group of its own was never in the table. */
  if (group->name != NULL)
    g_hash_table_remove (run->groups, group->name);
}

/* Writes the groups left when the input ended earlier than its check
 * said (the file changed meanwhile): what was judged is kept. */
static void
flush_groups (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  g_autoptr (GList) groups = g_hash_table_get_values (run->groups);

  for (const GList *l = groups; l != NULL; l = l->next)
    {
      Group *group = l->data;

      if (!group->broken && group->pending == 0)
        write_group (task, group);
    }
  g_hash_table_remove_all (run->groups);
}

static void
finish_if_done (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  GrammarJudgeRunner *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  gboolean stopped = run->error != NULL || g_cancellable_is_cancelled (cancellable);

  if (run->finished || run->in_flight > 0 || !(run->exhausted || stopped))
    return;

  if (!stopped)
    flush_groups (task);
  run->finished = TRUE;
  self->running = FALSE;
  if (run->writer != NULL)
    g_output_stream_close (run->writer, NULL, NULL);
  if (run->error != NULL)
    g_task_return_error (task, g_steal_pointer (&run->error));
  else if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

static void
note_verdict (GTask          *task,
              GrammarRecord  *record,
              GrammarVerdict *verdict)
{
  Run *run = g_task_get_task_data (task);
  GrammarJudgeRunner *self = g_task_get_source_object (task);

  grammar_record_set_verdict (record, verdict);
  run->n_decided++;
  if (grammar_verdict_get_kind (verdict) == GRAMMAR_VERDICT_CORRECT)
    run->n_decided_correct++;
  else if (grammar_verdict_get_kind (verdict) == GRAMMAR_VERDICT_UNMEASURED)
    run->n_decided_unmeasured++;
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, run->n_decided, self->n_total,
                 run->n_decided_correct, run->n_decided_unmeasured);
}

static void
on_judged (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr (Judgement) judgement = user_data;
  GTask *task = judgement->task;
  Run *run = g_task_get_task_data (task);
  g_autoptr (GrammarVerdict) verdict = NULL;
  g_autoptr (GError) error = NULL;

  run->in_flight--;
  judgement->group->pending--;
  verdict = grammar_matcher_judge_finish (GRAMMAR_MATCHER (source), result, &error);

  if (verdict == NULL)
    {
      /* The group misses a verdict: it is judged again on resume. */
      judgement->group->broken = TRUE;
      if (!(g_cancellable_is_cancelled (g_task_get_cancellable (task)) &&
            g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
        stop_run (run, g_error_new (GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: the matcher failed: %s",
                                    grammar_record_get_id (judgement->record), error->message));
    }
  else
    {
      note_verdict (task, judgement->record, verdict);
      finish_group_if_done (task, judgement->group);
    }

  ask_more (task);
  finish_if_done (task);
}

/* The group @record belongs to, made when its first record is read. */
static Group *
lookup_group (Run           *run,
              GrammarRecord *record)
{
  const char *name = grammar_record_get_group (record);
  const guint64 *size;
  Group *group;

  if (name == NULL)
    return group_new (NULL, 1);
  group = g_hash_table_lookup (run->groups, name);
  if (group != NULL)
    return group_ref (group);
  size = g_hash_table_lookup (run->sizes, name);
  group = group_new (name, size != NULL ? *size : 1);
  g_hash_table_insert (run->groups, group->name, group_ref (group));
  return group;
}

/* Takes one record of the input: one already in the output is only
 * noted for its group, one whose documents were not retrieved in a
 * closed domain is incorrect at once, and the others go to the matcher. */
static void
take_record (GTask         *task,
             GrammarRecord *record)
{
  Run *run = g_task_get_task_data (task);
  GrammarJudgeRunner *self = g_task_get_source_object (task);
  g_autoptr (Group) group = lookup_group (run, record);
  g_autoptr (GrammarVerdict) verdict = NULL;
  Known *known = g_hash_table_lookup (run->done, grammar_record_get_id (record));
  Judgement *judgement;

  group->n_read++;
  if (known != NULL)
    {
      g_ptr_array_add (group->known, known);
      finish_group_if_done (task, group);
      return;
    }

  g_ptr_array_add (group->records, g_object_ref (record));
  verdict = closed_domain_verdict (run, record);
  if (verdict != NULL)
    {
      note_verdict (task, record, verdict);
      finish_group_if_done (task, group);
      return;
    }

  judgement = g_new0 (Judgement, 1);
  judgement->task = g_object_ref (task);
  judgement->group = group_ref (group);
  judgement->record = g_object_ref (record);
  group->pending++;
  run->in_flight++;
  grammar_matcher_judge_async (self->matcher, record, g_task_get_cancellable (task), on_judged, judgement);
}

/* The next record of the input, or %NULL at its end (or at the limit),
 * or on an error. */
static GrammarRecord *
next_record (Run      *run,
             GError  **error)
{
  while (run->limit == 0 || run->n_read < run->limit)
    {
      g_autofree char *text = NULL;
      gsize length = 0;
      GrammarRecord *record;

      if (!grammar_jsonl_read_line (run->reader, run->input, &text, &length, NULL, error) || text == NULL)
        return NULL;
      run->line++;
      if (grammar_jsonl_line_is_blank (text, length))
        continue;
      record = parse_input_record (run->parser, run->input, run->line, text, length, error);
      if (record != NULL)
        run->n_read++;
      return record;
    }
  return NULL;
}

/* Reads records until max-concurrency matcher calls are in flight. */
static void
ask_more (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  GrammarJudgeRunner *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  while (run->in_flight < self->max_concurrency && !run->exhausted && run->error == NULL &&
         !g_cancellable_is_cancelled (cancellable))
    {
      GError *error = NULL;
      g_autoptr (GrammarRecord) record = next_record (run, &error);

      if (record == NULL)
        {
          run->exhausted = TRUE;
          if (error != NULL)
            stop_run (run, error);
          break;
        }
      take_record (task, record);
    }
}

static void
on_prepared (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GrammarJudgeRunner *self = GRAMMAR_JUDGE_RUNNER (source);
  Run *run = g_task_get_task_data (task);
  GError *error = NULL;

  self->warnings = g_new0 (char *, run->warnings->len + 1);
  for (guint i = 0; i < run->warnings->len; i++)
    self->warnings[i] = g_strdup (g_ptr_array_index (run->warnings, i));

  if (!g_task_propagate_boolean (G_TASK (result), &error) ||
      (run->reader = grammar_jsonl_open (run->input, NULL, &error)) == NULL ||
      (run->writer = grammar_jsonl_open_append (run->output, run->tail.needs_newline, &error)) == NULL)
    {
      self->running = FALSE;
      g_task_return_error (task, error);
      return;
    }

  self->n_total = run->n_total;
  self->n_skipped = run->n_skipped;
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, (guint64) 0, self->n_total, (guint64) 0, (guint64) 0);

  ask_more (task);
  finish_if_done (task);
}

/**
 * grammar_judge_runner_run_async:
 * @self: a #GrammarJudgeRunner
 * @input: the results, JSON Lines of #GrammarRecord with `id` and `response`
 * @output: the judged records, JSON Lines, created or resumed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the run is over
 * @user_data: data for @callback
 *
 * Starts judging every record of @input and appending the judged
 * records to @output, group by group, as described for
 * #GrammarJudgeRunner. The input is checked and the output read in a
 * worker thread; the matcher is then called from the thread-default
 * main context of the caller, where @callback is called too.
 *
 * When @cancellable is cancelled, no more records are judged and the run
 * ends, with %G_IO_ERROR_CANCELLED, once the matcher calls in flight are
 * over; the groups written so far stay in @output. A runner runs one
 * input at a time.
 */
void
grammar_judge_runner_run_async (GrammarJudgeRunner  *self,
                                const char          *input,
                                const char          *output,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GTask) prepare = NULL;
  Run *run;

  g_return_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self));
  g_return_if_fail (input != NULL);
  g_return_if_fail (output != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, grammar_judge_runner_run_async);
  if (self->running)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING, "the runner is already judging");
      return;
    }

  self->running = TRUE;
  self->n_total = self->n_judged = self->n_skipped = 0;
  self->n_correct = self->n_incorrect = self->n_unmeasured = 0;
  g_clear_pointer (&self->warnings, g_strfreev);

  run = g_new0 (Run, 1);
  run->input = g_strdup (input);
  run->output = g_strdup (output);
  run->limit = self->limit;
  rule_from_string (self->retrieval_rule, &run->rule);
  run->closed_domain = self->closed_domain;
  run->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) known_free);
  run->sizes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  run->groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) group_unref);
  run->warnings = g_ptr_array_new_with_free_func (g_free);
  run->parser = json_parser_new_immutable ();
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  prepare = g_task_new (self, cancellable, on_prepared, g_object_ref (task));
  g_task_set_source_tag (prepare, prepare_in_thread);
  g_task_set_task_data (prepare, run, NULL);
  g_task_run_in_thread (prepare, prepare_in_thread);
}

/**
 * grammar_judge_runner_run_finish:
 * @self: a #GrammarJudgeRunner
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_judge_runner_run_async(). An unmeasured verdict is
 * not a failure: it is written and counted
 * (grammar_judge_runner_get_n_unmeasured()).
 *
 * Returns: %TRUE when every record was judged and written; %FALSE with
 *   @error set on a bad input or output (%GRAMMAR_ERROR_INVALID_INPUT),
 *   a matcher that failed or an output that cannot be written
 *   (%GRAMMAR_ERROR_FAILED), or cancellation (%G_IO_ERROR_CANCELLED)
 */
gboolean
grammar_judge_runner_run_finish (GrammarJudgeRunner  *self,
                                 GAsyncResult        *result,
                                 GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * grammar_judge_runner_run:
 * @self: a #GrammarJudgeRunner
 * @input: the results, JSON Lines of #GrammarRecord with `id` and `response`
 * @output: the judged records, JSON Lines, created or resumed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Judges the input, blocking: grammar_judge_runner_run_async() on a
 * private main context, so the caller's main loop does not run
 * meanwhile. The matcher's asynchronous calls run on that context too.
 *
 * Returns: %TRUE when every record was judged and written; %FALSE with
 *   @error set otherwise
 */
gboolean
grammar_judge_runner_run (GrammarJudgeRunner  *self,
                          const char          *input,
                          const char          *output,
                          GCancellable        *cancellable,
                          GError             **error)
{
  GrammarSync sync;
  gboolean ok;

  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), FALSE);
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (output != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  grammar_sync_init (&sync);
  grammar_judge_runner_run_async (self, input, output, cancellable, grammar_sync_callback, &sync);
  ok = grammar_judge_runner_run_finish (self, grammar_sync_wait (&sync), error);
  grammar_sync_clear (&sync);
  return ok;
}

/* Counts */

/**
 * grammar_judge_runner_get_n_total:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records the current or last run judges: those of the input up to the limit, less those skipped
 */
guint64
grammar_judge_runner_get_n_total (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_total;
}

/**
 * grammar_judge_runner_get_n_judged:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records the current or last run judged and wrote
 */
guint64
grammar_judge_runner_get_n_judged (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_judged;
}

/**
 * grammar_judge_runner_get_n_skipped:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records of the input (up to the limit) that the current or last run skipped because the output already had them
 */
guint64
grammar_judge_runner_get_n_skipped (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_skipped;
}

/**
 * grammar_judge_runner_get_n_correct:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records written by the current or last run whose verdict is correct
 */
guint64
grammar_judge_runner_get_n_correct (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_correct;
}

/**
 * grammar_judge_runner_get_n_incorrect:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records written by the current or last run whose verdict is incorrect
 */
guint64
grammar_judge_runner_get_n_incorrect (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_incorrect;
}

/**
 * grammar_judge_runner_get_n_unmeasured:
 * @self: a #GrammarJudgeRunner
 *
 * Returns: the records written by the current or last run whose verdict is unmeasured
 */
guint64
grammar_judge_runner_get_n_unmeasured (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), 0);
  return self->n_unmeasured;
}

/**
 * grammar_judge_runner_dup_warnings:
 * @self: a #GrammarJudgeRunner
 *
 * What the last run changed in or noticed about the output before
 * judging: an incomplete last line removed, records whose id is not in
 * the input.
 *
 * Returns: (transfer full) (array zero-terminated=1): the messages, one a line, possibly none
 */
GStrv
grammar_judge_runner_dup_warnings (GrammarJudgeRunner *self)
{
  g_return_val_if_fail (GRAMMAR_IS_JUDGE_RUNNER (self), NULL);

  if (self->warnings == NULL)
    return g_new0 (char *, 1);
  return g_strdupv (self->warnings);
}
