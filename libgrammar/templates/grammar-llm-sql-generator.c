/* grammar-llm-sql-generator.c: SQL templates proposed by a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-config.h"
#include "grammar-error.h"
#include "grammar-llm-sql-generator.h"
#include "grammar-sql-generator-private.h"

/**
 * GrammarLlmSqlGenerator:
 *
 * Asks a language model for SQL templates with the GRAMMAR paper's prompt
 * (its Table 3): the criteria of a good template, then the schema written
 * as `CREATE TABLE` statements with column types, primary keys, unique
 * constraints and foreign keys. Only the schema is sent, never a value
 * from the database: as the paper says, schemas and templates are
 * meta-data, so a commercial model can be used without leaking the data.
 *
 * The reply is read defensively, line by line: numbering (`1.`, `1)`),
 * bullets (`-`, `*`), surrounding quotes or backticks and code fences are
 * stripped; blank lines and prose (lines that do not start with `SELECT`
 * or `WITH`) are skipped; inside a code fence a statement may continue
 * over several lines. Every candidate goes through
 * grammar_sql_template_new() and grammar_sql_template_validate(); the
 * lines that fail are reported with the reason and not kept. The models
 * break the prompt's criteria often (the paper says so): the templates
 * are meant to be reviewed, edited and reloaded.
 */
struct _GrammarLlmSqlGenerator
{
  GObject parent_instance;

  GrammarLlm *llm;
  GrammarDatabase *database;
  GrammarSchema *schema;
  double temperature;
  GStrv requirements;
  char *reply;              /* the last reply, through the interface */
};

static void grammar_llm_sql_generator_sql_generator_init (GrammarSqlGeneratorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GrammarLlmSqlGenerator, grammar_llm_sql_generator, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_SQL_GENERATOR,
                                                      grammar_llm_sql_generator_sql_generator_init))

enum {
  PROP_0,
  PROP_LLM,
  PROP_DATABASE,
  PROP_SCHEMA,
  PROP_TEMPERATURE,
  PROP_REQUIREMENTS,
  PROP_REPLY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
grammar_llm_sql_generator_finalize (GObject *object)
{
  GrammarLlmSqlGenerator *self = GRAMMAR_LLM_SQL_GENERATOR (object);

  g_clear_object (&self->llm);
  g_clear_object (&self->database);
  g_clear_object (&self->schema);
  g_free (self->reply);
  g_strfreev (self->requirements);

  G_OBJECT_CLASS (grammar_llm_sql_generator_parent_class)->finalize (object);
}

static void
grammar_llm_sql_generator_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  GrammarLlmSqlGenerator *self = GRAMMAR_LLM_SQL_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_LLM:
      g_value_set_object (value, self->llm);
      break;
    case PROP_DATABASE:
      g_value_set_object (value, self->database);
      break;
    case PROP_SCHEMA:
      g_value_set_object (value, self->schema);
      break;
    case PROP_TEMPERATURE:
      g_value_set_double (value, self->temperature);
      break;
    case PROP_REPLY:
      g_value_set_string (value, self->reply);
      break;
    case PROP_REQUIREMENTS:
      g_value_set_boxed (value, self->requirements);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_llm_sql_generator_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  GrammarLlmSqlGenerator *self = GRAMMAR_LLM_SQL_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_LLM:
      self->llm = g_value_dup_object (value);
      break;
    case PROP_DATABASE:
      self->database = g_value_dup_object (value);
      break;
    case PROP_SCHEMA:
      self->schema = g_value_dup_object (value);
      break;
    case PROP_TEMPERATURE:
      grammar_llm_sql_generator_set_temperature (self, g_value_get_double (value));
      break;
    case PROP_REQUIREMENTS:
      grammar_llm_sql_generator_set_requirements (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_llm_sql_generator_class_init (GrammarLlmSqlGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = grammar_llm_sql_generator_finalize;
  object_class->get_property = grammar_llm_sql_generator_get_property;
  object_class->set_property = grammar_llm_sql_generator_set_property;

  /**
   * GrammarLlmSqlGenerator:llm:
   *
   * The language model asked for templates.
   */
  properties[PROP_LLM] =
    g_param_spec_object ("llm", NULL, NULL, GRAMMAR_TYPE_LLM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarLlmSqlGenerator:database:
   *
   * The database the templates are checked against.
   */
  properties[PROP_DATABASE] =
    g_param_spec_object ("database", NULL, NULL, GRAMMAR_TYPE_DATABASE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarLlmSqlGenerator:schema:
   *
   * The schema of #GrammarLlmSqlGenerator:database, written into the prompt.
   */
  properties[PROP_SCHEMA] =
    g_param_spec_object ("schema", NULL, NULL, GRAMMAR_TYPE_SCHEMA,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarLlmSqlGenerator:temperature:
   *
   * The sampling temperature of the request; 0 by default, so that the
   * same model gives the same templates as far as it can.
   */
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, 0.0, 2.0, 0.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarLlmSqlGenerator:requirements:
   *
   * Extra criteria added to the paper's list (its `{SPECIFIC_REQUIREMENTS}`),
   * one sentence each, such as “Only ask about the company table.”.
   */
  properties[PROP_REQUIREMENTS] =
    g_param_spec_boxed ("requirements", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarLlmSqlGenerator:reply:
   *
   * The whole reply of the language model to the last
   * grammar_sql_generator_generate(), for people to read.
   */
  properties[PROP_REPLY] =
    g_param_spec_string ("reply", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_llm_sql_generator_init (GrammarLlmSqlGenerator *self)
{
}

/**
 * grammar_llm_sql_generator_new:
 * @llm: the language model
 * @database: the database
 * @schema: its schema, from grammar_database_get_schema()
 *
 * Returns: (transfer full): a new #GrammarLlmSqlGenerator
 */
GrammarLlmSqlGenerator *
grammar_llm_sql_generator_new (GrammarLlm      *llm,
                               GrammarDatabase *database,
                               GrammarSchema   *schema)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM (llm), NULL);
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (database), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (schema), NULL);

  return g_object_new (GRAMMAR_TYPE_LLM_SQL_GENERATOR, "llm", llm, "database", database, "schema", schema, NULL);
}

/**
 * grammar_llm_sql_generator_get_llm:
 * @self: a #GrammarLlmSqlGenerator
 *
 * Returns: (transfer none): the language model
 */
GrammarLlm *
grammar_llm_sql_generator_get_llm (GrammarLlmSqlGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), NULL);
  return self->llm;
}

/**
 * grammar_llm_sql_generator_get_database:
 * @self: a #GrammarLlmSqlGenerator
 *
 * Returns: (transfer none): the database
 */
GrammarDatabase *
grammar_llm_sql_generator_get_database (GrammarLlmSqlGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), NULL);
  return self->database;
}

/**
 * grammar_llm_sql_generator_get_schema:
 * @self: a #GrammarLlmSqlGenerator
 *
 * Returns: (transfer none): the schema
 */
GrammarSchema *
grammar_llm_sql_generator_get_schema (GrammarLlmSqlGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), NULL);
  return self->schema;
}

/**
 * grammar_llm_sql_generator_get_temperature:
 * @self: a #GrammarLlmSqlGenerator
 *
 * Returns: the sampling temperature
 */
double
grammar_llm_sql_generator_get_temperature (GrammarLlmSqlGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), 0.0);
  return self->temperature;
}

/**
 * grammar_llm_sql_generator_set_temperature:
 * @self: a #GrammarLlmSqlGenerator
 * @temperature: the sampling temperature, from 0 to 2
 *
 * Sets #GrammarLlmSqlGenerator:temperature.
 */
void
grammar_llm_sql_generator_set_temperature (GrammarLlmSqlGenerator *self,
                                           double                  temperature)
{
  g_return_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self));
  g_return_if_fail (temperature >= 0.0 && temperature <= 2.0);

  if (self->temperature == temperature)
    return;
  self->temperature = temperature;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEMPERATURE]);
}

/**
 * grammar_llm_sql_generator_get_requirements:
 * @self: a #GrammarLlmSqlGenerator
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the extra
 *   criteria, or %NULL when there are none
 */
const char * const *
grammar_llm_sql_generator_get_requirements (GrammarLlmSqlGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), NULL);
  return (const char * const *) self->requirements;
}

/**
 * grammar_llm_sql_generator_set_requirements:
 * @self: a #GrammarLlmSqlGenerator
 * @requirements: (nullable) (array zero-terminated=1): extra criteria, one
 *   sentence each, or %NULL for none
 *
 * Sets #GrammarLlmSqlGenerator:requirements.
 */
void
grammar_llm_sql_generator_set_requirements (GrammarLlmSqlGenerator *self,
                                            const char * const     *requirements)
{
  g_return_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self));

  g_strfreev (self->requirements);
  self->requirements = requirements != NULL && requirements[0] != NULL ? g_strdupv ((GStrv) requirements) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUIREMENTS]);
}

/* The prompt --------------------------------------------------------------- */

/* The paper's Table 3, up to the schema. */
static const char prompt_profile[] =
  "You are a SQL query Template Generator: Generate ACCEPTABLE SQL query templates with placeholders "
  "according to the given data schema and requirements. A simple example of an acceptable SQL query "
  "template is: SELECT Industry FROM Company WHERE Name = '[Company.Name]';\n"
  "\n"
  "You must follow the basic criteria below except for other requirements:\n"
  "\n"
  "##CRITERIA##\n"
  "- The placeholder format should be a combination of a table name and a column name, enclosed within "
  "square brackets, e.g., '[User.Name]'.\n"
  "- Use only 'SELECT' queries.\n"
  "- Select specific column(s) instead of using '*'. Avoid projecting attributes that appear in the predicate.\n"
  "- The selected and condition columns in the query MUST BE MEANINGFUL and DESCRIPTIVE to ensure the "
  "queries are easily understood by non-technical users.\n"
  "- Avoid using technical column names that don't clearly signify the nature of the entities or objects "
  "involved, e.g., column for semantically void record identifiers.\n"
  "- Do not create redundant or semantically duplicated queries when translated into natural language.\n"
  "- Each query must contain at least one parameter placeholder in the WHERE clause.\n"
  "- Ensure the query yields a specific and singular answer to avoid multiplicity issues, thus "
  "facilitating accurate chatbot evaluation.\n";

static const char prompt_no_template[] =
  "- If no acceptable SQL template can be generated with the given table and column information, "
  "do not generate any text.\n"
  "\n"
  "##RESPONSE FORMAT##\n"
  "- Output each SQL template as a single line, without any prefix or suffix.\n"
  "- Do not include any other text in your response, even something like ##RESPONSE_END##.\n";

static void
append_name (GString    *out,
             const char *name)
{
  gboolean plain = g_ascii_isalpha (name[0]) || name[0] == '_';

  for (const char *p = name; *p != '\0' && plain; p++)
    plain = g_ascii_isalnum (*p) || *p == '_';
  if (plain)
    {
      g_string_append (out, name);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_names (GString            *out,
              const char * const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      append_name (out, names[i]);
    }
}

static void
describe_table (GString      *out,
                GrammarTable *table)
{
  GPtrArray *columns = grammar_table_get_columns (table);
  GPtrArray *foreign_keys = grammar_table_get_foreign_keys (table);
  g_auto (GStrv) primary_key = grammar_table_dup_primary_key (table);
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < columns->len; i++)
    {
      GrammarColumn *column = g_ptr_array_index (columns, i);
      const char *type = grammar_column_get_declared_type (column);
      g_autoptr (GString) line = g_string_new ("  ");

      append_name (line, grammar_column_get_name (column));
      if (type != NULL && type[0] != '\0')
        g_string_append_printf (line, " %s", type);
      if (!grammar_column_get_nullable (column))
        g_string_append (line, " NOT NULL");
      g_ptr_array_add (lines, g_string_free (g_steal_pointer (&line), FALSE));
    }
  if (primary_key[0] != NULL)
    {
      g_autoptr (GString) line = g_string_new ("  PRIMARY KEY (");

      append_names (line, (const char * const *) primary_key);
      g_string_append_c (line, ')');
      g_ptr_array_add (lines, g_string_free (g_steal_pointer (&line), FALSE));
    }
  for (guint i = 0; i < grammar_table_get_n_unique_constraints (table); i++)
    {
      g_autoptr (GString) line = g_string_new ("  UNIQUE (");

      append_names (line, grammar_table_get_unique_constraint (table, i));
      g_string_append_c (line, ')');
      g_ptr_array_add (lines, g_string_free (g_steal_pointer (&line), FALSE));
    }
  for (guint i = 0; i < foreign_keys->len; i++)
    {
      GrammarForeignKey *fk = g_ptr_array_index (foreign_keys, i);
      g_autoptr (GString) line = g_string_new ("  FOREIGN KEY (");

      append_names (line, grammar_foreign_key_get_columns (fk));
      g_string_append (line, ") REFERENCES ");
      append_name (line, grammar_foreign_key_get_referenced_table (fk));
      g_string_append (line, " (");
      append_names (line, grammar_foreign_key_get_referenced_columns (fk));
      g_string_append_c (line, ')');
      g_ptr_array_add (lines, g_string_free (g_steal_pointer (&line), FALSE));
    }

  g_string_append (out, grammar_table_get_is_view (table) ? "CREATE VIEW " : "CREATE TABLE ");
  append_name (out, grammar_table_get_name (table));
  g_string_append (out, " (\n");
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "%s%s\n", (char *) g_ptr_array_index (lines, i), i + 1 < lines->len ? "," : "");
  g_string_append (out, ");\n");
}

/**
 * grammar_llm_sql_generator_describe_schema:
 * @self: a #GrammarLlmSqlGenerator
 *
 * The schema as the prompt shows it: one `CREATE TABLE` statement per
 * table or view, with declared column types, `NOT NULL`, the primary key,
 * unique constraints and foreign keys. No data values.
 *
 * Returns: (transfer full): the schema text
 */
char *
grammar_llm_sql_generator_describe_schema (GrammarLlmSqlGenerator *self)
{
  GPtrArray *tables;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), NULL);

  tables = grammar_schema_get_tables (self->schema);
  for (guint i = 0; i < tables->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '\n');
      describe_table (out, g_ptr_array_index (tables, i));
    }
  return g_string_free (out, FALSE);
}

/**
 * grammar_llm_sql_generator_build_request:
 * @self: a #GrammarLlmSqlGenerator
 *
 * The chat request grammar_llm_sql_generator_generate() sends: the
 * paper's prompt (Table 3) with the criteria, the extra requirements and
 * the response format as the system message, and the schema
 * (grammar_llm_sql_generator_describe_schema()) as the user message, at
 * #GrammarLlmSqlGenerator:temperature.
 *
 * Returns: (transfer full): the request
 */
GrammarChatRequest *
grammar_llm_sql_generator_build_request (GrammarLlmSqlGenerator *self)
{
  g_autoptr (GrammarChatRequest) request = grammar_chat_request_new ();
  g_autoptr (GString) system = g_string_new (prompt_profile);
  g_autofree char *schema = NULL;
  g_autofree char *user = NULL;

  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), NULL);

  for (guint i = 0; self->requirements != NULL && self->requirements[i] != NULL; i++)
    g_string_append_printf (system, "- %s\n", self->requirements[i]);
  g_string_append (system, prompt_no_template);

  schema = grammar_llm_sql_generator_describe_schema (self);
  user = g_strdup_printf ("##DATA SCHEMA##\n%s\n##RESPONSE_START##\n", schema);

  grammar_chat_request_add_message (request, "system", system->str);
  grammar_chat_request_add_message (request, "user", user);
  grammar_chat_request_set_temperature (request, self->temperature);
  return g_steal_pointer (&request);
}

/* Reading the reply ---------------------------------------------------------- */

typedef struct
{
  GrammarLlmSqlGenerator *self;
  GPtrArray *kept;          /* GrammarSqlTemplate */
  GPtrArray *rejected;      /* char * */
  GHashTable *lines_by_id;  /* id → line number of the first occurrence */
  guint n_candidates;
  guint n_prose;
  char *first_prose;
  GString *pending;         /* a statement continued over lines, inside a fence */
  guint pending_line;
} Reading;

static void
reading_clear (Reading *reading)
{
  g_clear_pointer (&reading->kept, g_ptr_array_unref);
  g_clear_pointer (&reading->rejected, g_ptr_array_unref);
  g_clear_pointer (&reading->lines_by_id, g_hash_table_unref);
  g_clear_pointer (&reading->first_prose, g_free);
  if (reading->pending != NULL)
    g_string_free (g_steal_pointer (&reading->pending), TRUE);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Reading, reading_clear)

static gboolean
is_quote (char c)
{
  return c == '"' || c == '\'' || c == '`';
}

/* Strips what models put around a template: `1.`, `1)`, `-`, `*`, and
 * matching quotes or backticks around the whole line. */
static char *
strip_decorations (const char *line)
{
  char *text = g_strstrip (g_strdup (line));
  gboolean changed = TRUE;

  while (changed)
    {
      gsize length = strlen (text);
      const char *p = text;

      changed = FALSE;
      if (g_ascii_isdigit (*p))
        {
          while (g_ascii_isdigit (*p))
            p++;
          if ((*p == '.' || *p == ')') && (g_ascii_isspace (p[1]) || p[1] == '\0' || is_quote (p[1])))
            changed = TRUE, p++;
          else
            p = text;
        }
      else if ((*p == '-' || *p == '*' || *p == '+') && g_ascii_isspace (p[1]))
        changed = TRUE, p++;
      else if (length >= 2 && is_quote (text[0]) && text[length - 1] == text[0])
        {
          text[length - 1] = '\0';
          changed = TRUE, p++;
        }
      if (changed)
        {
          memmove (text, p, strlen (p) + 1);
          g_strstrip (text);
        }
    }
  return text;
}

static gboolean
starts_with_word (const char *text,
                  const char *word)
{
  gsize length = strlen (word);

  return g_ascii_strncasecmp (text, word, length) == 0 &&
         (text[length] == '\0' || g_ascii_isspace (text[length]) || text[length] == '(');
}

static gboolean
is_statement_start (const char *text)
{
  return starts_with_word (text, "SELECT") || starts_with_word (text, "WITH");
}

/* A statement that is not a query: reported, not taken for prose. */
static const char *
other_statement (const char *text)
{
  static const char * const keywords[] = {
    "INSERT", "UPDATE", "DELETE", "DROP", "CREATE", "ALTER", "REPLACE", "PRAGMA", "ATTACH",
    "DETACH", "VACUUM", "REINDEX", "ANALYZE", "BEGIN", "COMMIT", "TRUNCATE", "MERGE", "GRANT",
  };

  /* Upper case only: “Replace the …” or “Analyze …” is prose. */
  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (g_str_has_prefix (text, keywords[i]) && starts_with_word (text, keywords[i]))
      return keywords[i];
  return NULL;
}

static void G_GNUC_PRINTF (4, 5)
reject (Reading    *reading,
        guint       line,
        const char *sql,
        const char *format,
        ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (reading->rejected, g_strdup_printf ("line %u: %s — %s", line, sql, reason));
}

static void
take_candidate (Reading    *reading,
                guint       line,
                const char *sql)
{
  g_autoptr (GrammarSqlTemplate) template = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *note = NULL;
  gpointer first_line;

  reading->n_candidates++;
  template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_LLM, &error);
  if (template == NULL ||
      !grammar_sql_template_validate (template, reading->self->database, reading->self->schema, &error))
    {
      reject (reading, line, sql, "%s", error->message);
      return;
    }
  if (g_hash_table_lookup_extended (reading->lines_by_id, grammar_sql_template_get_id (template), NULL, &first_line))
    {
      reject (reading, line, sql, "the same template as line %u", GPOINTER_TO_UINT (first_line));
      return;
    }
  g_hash_table_insert (reading->lines_by_id, g_strdup (grammar_sql_template_get_id (template)),
                       GUINT_TO_POINTER (line));
  note = g_strdup_printf ("proposed by the language model (line %u of its reply)", line);
  grammar_sql_template_set_note (template, note);
  g_ptr_array_add (reading->kept, g_steal_pointer (&template));
}

static void
flush_pending (Reading *reading)
{
  if (reading->pending == NULL)
    return;
  take_candidate (reading, reading->pending_line, reading->pending->str);
  g_string_free (g_steal_pointer (&reading->pending), TRUE);
}

static void
read_line (Reading    *reading,
           guint       number,
           const char *line,
           gboolean    in_fence)
{
  g_autofree char *text = strip_decorations (line);

  if (text[0] == '\0')
    {
      flush_pending (reading);
      return;
    }
  if (is_statement_start (text))
    {
      flush_pending (reading);
      if (!in_fence)
        {
          take_candidate (reading, number, text);
          return;
        }
      reading->pending = g_string_new (text);
      reading->pending_line = number;
    }
  else if (other_statement (text) != NULL)
    {
      flush_pending (reading);
      reading->n_candidates++;
      reject (reading, number, text, "not a query: a template is a single read-only SELECT, "
              "and this statement starts with %s", other_statement (text));
      return;
    }
  else if (in_fence && reading->pending != NULL)
    {
      g_autofree char *continued = g_strstrip (g_strdup (line));

      g_string_append_printf (reading->pending, " %s", continued);
    }
  else
    {
      reading->n_prose++;
      if (reading->first_prose == NULL)
        reading->first_prose = g_strdup (text);
      return;
    }

  /* A semicolon ends a statement written over several lines. */
  if (reading->pending != NULL && g_str_has_suffix (reading->pending->str, ";"))
    flush_pending (reading);
}

/* At most @length characters of @text, never cutting one in two. */
static char *
shorten (const char *text,
         glong       length)
{
  if (!g_utf8_validate (text, -1, NULL) || g_utf8_strlen (text, -1) <= length)
    return g_strdup (text);
  {
    g_autofree char *start = g_utf8_substring (text, 0, length);

    return g_strconcat (start, "…", NULL);
  }
}

static gboolean
reply_error (Reading     *reading,
             const char  *reply,
             GError     **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (reply));
  g_autofree char *first_prose = shorten (reading->first_prose != NULL ? reading->first_prose : "", 80);

  if (stripped[0] == '\0')
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "the language model's reply is empty: no SQL template");
  else if (reading->n_candidates == 0 && reading->n_prose == 0)
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "the language model's reply has no SQL template: only code fences and blank lines");
  else if (reading->n_candidates == 0)
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "the language model's reply has no SQL template: %u line%s of prose and no line starting "
                 "with SELECT (first: “%s”)", reading->n_prose, reading->n_prose == 1 ? "" : "s", first_prose);
  else
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "none of the %u SQL line%s of the language model's reply is a valid template "
                 "(%u rejected; first: %s)", reading->n_candidates, reading->n_candidates == 1 ? "" : "s",
                 reading->rejected->len, (char *) g_ptr_array_index (reading->rejected, 0));
  return FALSE;
}

/**
 * grammar_llm_sql_generator_parse_reply:
 * @self: a #GrammarLlmSqlGenerator
 * @reply: the text of a language model's reply
 * @rejected: (out) (optional) (transfer full) (array zero-terminated=1): return
 *   location for the SQL lines that were not kept, each as
 *   `line N: SQL — reason`; set even when an error is returned
 * @error: return location for a #GError
 *
 * Reads the templates out of a reply to the prompt of
 * grammar_llm_sql_generator_build_request() (see #GrammarLlmSqlGenerator
 * for the rules). A repeated template is rejected as such. Each kept
 * template has the origin %GRAMMAR_TEMPLATE_ORIGIN_LLM and a note giving
 * its line in the reply.
 *
 * Returns: (transfer container) (element-type GrammarSqlTemplate) (nullable): the
 *   valid templates in reply order, or %NULL with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error when there is none: the reply is
 *   empty, has only prose, or every SQL line was rejected (the message
 *   says which, and how many lines were rejected)
 */
GPtrArray *
grammar_llm_sql_generator_parse_reply (GrammarLlmSqlGenerator  *self,
                                       const char              *reply,
                                       GStrv                   *rejected,
                                       GError                 **error)
{
  g_auto (Reading) reading = { 0 };
  g_auto (GStrv) lines = NULL;
  gboolean in_fence = FALSE;

  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), NULL);
  g_return_val_if_fail (reply != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  reading.self = self;
  reading.kept = g_ptr_array_new_with_free_func (g_object_unref);
  reading.rejected = g_ptr_array_new_with_free_func (g_free);
  reading.lines_by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  lines = g_strsplit (reply, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      g_autofree char *trimmed = g_strstrip (g_strdup (line));

      if (g_str_has_prefix (trimmed, "```") || g_str_has_prefix (trimmed, "~~~"))
        {
          flush_pending (&reading);
          in_fence = !in_fence;
          continue;
        }
      read_line (&reading, i + 1, line, in_fence);
    }
  flush_pending (&reading);

  if (reading.kept->len == 0)
    reply_error (&reading, reply, error);
  if (rejected != NULL)
    {
      g_ptr_array_add (reading.rejected, NULL);
      *rejected = (GStrv) g_ptr_array_steal (reading.rejected, NULL);
    }
  if (reading.kept->len == 0)
    return NULL;
  return g_steal_pointer (&reading.kept);
}

/**
 * grammar_llm_sql_generator_generate:
 * @self: a #GrammarLlmSqlGenerator
 * @reply: (out) (optional) (transfer full): return location for the raw
 *   text of the reply, for inspection; set even when the reply is unusable
 * @rejected: (out) (optional) (transfer full) (array zero-terminated=1): return
 *   location for the SQL lines that were not kept (see
 *   grammar_llm_sql_generator_parse_reply())
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Sends the request of grammar_llm_sql_generator_build_request() through
 * grammar_llm_chat() and reads the templates out of the reply with
 * grammar_llm_sql_generator_parse_reply().
 *
 * Returns: (transfer container) (element-type GrammarSqlTemplate) (nullable): the
 *   valid templates, or %NULL with @error set: the model's own error when
 *   it cannot be reached, %GRAMMAR_ERROR_INVALID_INPUT when its reply is
 *   unusable
 */
GPtrArray *
grammar_llm_sql_generator_generate (GrammarLlmSqlGenerator  *self,
                                    char                   **reply,
                                    GStrv                   *rejected,
                                    GCancellable            *cancellable,
                                    GError                 **error)
{
  g_autoptr (GrammarChatRequest) request = NULL;
  g_autoptr (GrammarChatResponse) response = NULL;
  const char *text;

  g_return_val_if_fail (GRAMMAR_IS_LLM_SQL_GENERATOR (self), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  request = grammar_llm_sql_generator_build_request (self);
  response = grammar_llm_chat (self->llm, request, cancellable, error);
  if (response == NULL)
    return NULL;

  text = grammar_chat_response_get_text (response);
  if (text == NULL)
    text = "";
  if (reply != NULL)
    *reply = g_strdup (text);
  return grammar_llm_sql_generator_parse_reply (self, text, rejected, error);
}

/* GrammarSqlGenerator: the notes are the rejected lines of the reply,
 * which #GrammarLlmSqlGenerator:reply keeps whole. */
static GPtrArray *
grammar_llm_sql_generator_generate_for (GrammarSqlGenerator  *generator,
                                        GrammarDatabase      *database,
                                        GStrv                *notes,
                                        GCancellable         *cancellable,
                                        GError              **error)
{
  GrammarLlmSqlGenerator *self = GRAMMAR_LLM_SQL_GENERATOR (generator);

  if (self->llm == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "llm is required: the name of a section with a language model (e.g. llm=llm)");
      return NULL;
    }
  if (!grammar_sql_generator_use_database (&self->database, &self->schema, database, cancellable, error))
    return NULL;
  g_clear_pointer (&self->reply, g_free);
  return grammar_llm_sql_generator_generate (self, &self->reply, notes, cancellable, error);
}

static void
grammar_llm_sql_generator_sql_generator_init (GrammarSqlGeneratorInterface *iface)
{
  iface->generate = grammar_llm_sql_generator_generate_for;
}
