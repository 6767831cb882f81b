/* test-sql-generators.c: SQL templates from the schema and from a language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmpdir;

/* Fixtures ------------------------------------------------------------------ */

/* A small consultancy: a self-referencing foreign key, a project with
 * keys to a client and an employee, a link table with a composite key,
 * a link table without one where a pair repeats, a name unique only in
 * the data, text shared by several rows, a column of NULLs, names with
 * quotes and non-ASCII letters, and a table whose column names need
 * quoting. */
static const char company_sql[] =
  "CREATE TABLE employee (\n"
  "  employee_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE,\n"
  "  title TEXT,\n"
  "  hired_on TEXT,\n"
  "  supervisor_id INTEGER REFERENCES employee (employee_id),\n"
  "  nickname TEXT\n"
  ");\n"
  "CREATE TABLE client (\n"
  "  client_id INTEGER PRIMARY KEY,\n"
  "  name TEXT,\n"
  "  country TEXT\n"
  ");\n"
  "CREATE TABLE project (\n"
  "  project_id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL UNIQUE,\n"
  "  budget REAL,\n"
  "  client_id INTEGER REFERENCES client (client_id),\n"
  "  manager_id INTEGER REFERENCES employee (employee_id)\n"
  ");\n"
  "CREATE TABLE assignment (\n"
  "  project_id INTEGER REFERENCES project (project_id),\n"
  "  employee_id INTEGER REFERENCES employee (employee_id),\n"
  "  role TEXT,\n"
  "  hours INTEGER,\n"
  "  PRIMARY KEY (project_id, employee_id)\n"
  ");\n"
  "CREATE TABLE visit (\n"
  "  client_id INTEGER REFERENCES client (client_id),\n"
  "  employee_id INTEGER REFERENCES employee (employee_id),\n"
  "  purpose TEXT\n"
  ");\n"
  "CREATE TABLE bureau (\n"
  "  \"Bureau Name\" TEXT UNIQUE,\n"
  "  \"région\" TEXT,\n"
  "  \"Order\" INTEGER\n"
  ");\n"
  "INSERT INTO employee VALUES (1, 'Margit Halvorsen', 'Director', '2011-03-01', NULL, NULL);\n"
  "INSERT INTO employee VALUES (2, 'Ciarán O''Donnell', 'Engineer', '2014-09-22', 1, NULL);\n"
  "INSERT INTO employee VALUES (3, 'Zoë Ångström', 'Engineer', '2016-04-11', 1, NULL);\n"
  "INSERT INTO employee VALUES (4, 'Jun Takahara', 'Analyst', '2019-07-15', 2, NULL);\n"
  "INSERT INTO client VALUES (1, 'L''Oréal Café', 'France');\n"
  "INSERT INTO client VALUES (2, 'Northgate Rail', 'United Kingdom');\n"
  "INSERT INTO client VALUES (3, 'Bluefin Maritime', 'France');\n"
  "INSERT INTO project VALUES (1, 'Signal Sentinel', 480000.0, 2, 2);\n"
  "INSERT INTO project VALUES (2, 'Tidewatch', 730000.5, 3, 2);\n"
  "INSERT INTO project VALUES (3, 'Crème Brûlée', 12000.0, 1, 3);\n"
  "INSERT INTO assignment VALUES (1, 2, 'Technical lead', 30);\n"
  "INSERT INTO assignment VALUES (1, 4, 'Analyst', 10);\n"
  "INSERT INTO assignment VALUES (2, 3, 'Technical lead', 20);\n"
  "INSERT INTO visit VALUES (1, 2, 'Kick-off');\n"
  "INSERT INTO visit VALUES (1, 2, 'Review');\n"
  "INSERT INTO visit VALUES (2, 3, 'Review');\n"
  "INSERT INTO bureau VALUES ('North', 'Bretagne', 1);\n"
  "INSERT INTO bureau VALUES ('South', 'Provence', 2);\n";

/* Spider's company_employee schema, with rows of our own. */
static const char spider_sql[] =
  "CREATE TABLE \"people\" (\"People_ID\" int, \"Age\" int, \"Name\" text, \"Nationality\" text,\n"
  "  \"Graduation_College\" text, PRIMARY KEY (\"People_ID\"));\n"
  "CREATE TABLE \"company\" (\"Company_ID\" real, \"Name\" text, \"Headquarters\" text, \"Industry\" text,\n"
  "  \"Sales_in_Billion\" real, \"Profits_in_Billion\" real, \"Assets_in_Billion\" real,\n"
  "  \"Market_Value_in_Billion\" real, PRIMARY KEY (\"Company_ID\"));\n"
  "CREATE TABLE \"employment\" (\"Company_ID\" int, \"People_ID\" int, \"Year_working\" int,\n"
  "  PRIMARY KEY (\"Company_ID\",\"People_ID\"),\n"
  "  FOREIGN KEY (\"Company_ID\") REFERENCES `company`(\"Company_ID\"),\n"
  "  FOREIGN KEY (\"People_ID\") REFERENCES `people`(\"People_ID\"));\n"
  "INSERT INTO people VALUES (1, 30, 'Ada Byron', 'United Kingdom', 'Cambridge');\n"
  "INSERT INTO people VALUES (2, 41, 'Grace Hopper', 'United States', 'Yale');\n"
  "INSERT INTO people VALUES (3, 30, 'Alan Kay', 'United States', 'Yale');\n"
  "INSERT INTO company VALUES (1, 'Acme', 'USA', 'Retail', 10.5, 1.5, 20.0, 30.0);\n"
  "INSERT INTO company VALUES (2, 'Globex', 'USA', 'Energy', 20.5, 2.5, 40.0, 60.0);\n"
  "INSERT INTO company VALUES (3, 'Initech', 'UK', 'Retail', 5.0, 0.5, 8.0, 9.0);\n"
  "INSERT INTO employment VALUES (1, 1, 3);\n"
  "INSERT INTO employment VALUES (2, 2, 10);\n"
  "INSERT INTO employment VALUES (3, 3, 1);\n";

typedef struct
{
  GrammarConfig *config;
  GrammarDatabase *database;
  GrammarSchema *schema;
} Fixture;

static void
fixture_clear (Fixture *fixture)
{
  g_clear_object (&fixture->schema);
  g_clear_object (&fixture->database);
  g_clear_object (&fixture->config);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Fixture, fixture_clear)

/* The database of a keyfile `[database] plugin=sqlite script=NAME.sql`
 * and, when @llm_reply is not NULL, `[llm] plugin=canned reply=…`. */
static void
fixture_open (Fixture    *fixture,
              const char *name,
              const char *sql,
              const char *llm_reply)
{
  g_autofree char *script_name = g_strconcat (name, ".sql", NULL);
  g_autofree char *script = grammar_test_write_file (tmpdir, script_name, sql);
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  g_key_file_set_string (key_file, "database", "plugin", "sqlite");
  g_key_file_set_string (key_file, "database", "script", script);
  if (llm_reply != NULL)
    {
      g_key_file_set_string (key_file, "llm", "plugin", "canned");
      g_key_file_set_string (key_file, "llm", "reply", llm_reply);
    }
  text = g_key_file_to_data (key_file, NULL, NULL);

  fixture->config = grammar_config_new_from_data (text, -1, tmpdir, &error);
  g_assert_no_error (error);
  fixture->database = GRAMMAR_DATABASE (grammar_config_build (fixture->config, "database",
                                                              GRAMMAR_TYPE_DATABASE, &error));
  g_assert_no_error (error);
  fixture->schema = grammar_database_get_schema (fixture->database, NULL, &error);
  g_assert_no_error (error);
}

/* A canned language model ----------------------------------------------------- */

/* Replies with its `reply` property from an idle callback on the caller's
 * thread-default main context, as a remote model would, and keeps the
 * last request for inspection. */
#define TEST_TYPE_CANNED_LLM (test_canned_llm_get_type ())
G_DECLARE_FINAL_TYPE (TestCannedLlm, test_canned_llm, TEST, CANNED_LLM, GObject)

struct _TestCannedLlm
{
  GObject parent_instance;

  char *reply;
  GrammarChatRequest *last_request;
  guint n_calls;
};

static void test_canned_llm_iface_init (GrammarLlmInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestCannedLlm, test_canned_llm, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_LLM, test_canned_llm_iface_init))

enum { CANNED_PROP_0, CANNED_PROP_REPLY };

static gboolean
canned_complete (gpointer user_data)
{
  GTask *task = user_data;
  TestCannedLlm *self = g_task_get_source_object (task);
  const char *choices[] = { self->reply != NULL ? self->reply : "", NULL };

  g_task_return_pointer (task, grammar_chat_response_new (choices, "canned", 100, 10), g_object_unref);
  return G_SOURCE_REMOVE;
}

static void
test_canned_llm_chat_async (GrammarLlm          *llm,
                            GrammarChatRequest  *request,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  TestCannedLlm *self = TEST_CANNED_LLM (llm);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GSource) source = g_idle_source_new ();

  self->n_calls++;
  g_set_object (&self->last_request, request);
  g_source_set_callback (source, canned_complete, task, g_object_unref);
  g_source_attach (source, g_main_context_get_thread_default ());
}

static GrammarChatResponse *
test_canned_llm_chat_finish (GrammarLlm    *llm,
                             GAsyncResult  *result,
                             GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_canned_llm_iface_init (GrammarLlmInterface *iface)
{
  iface->chat_async = test_canned_llm_chat_async;
  iface->chat_finish = test_canned_llm_chat_finish;
}

static void
test_canned_llm_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TestCannedLlm *self = TEST_CANNED_LLM (object);

  g_assert_cmpuint (prop_id, ==, CANNED_PROP_REPLY);
  g_free (self->reply);
  self->reply = g_value_dup_string (value);
}

static void
test_canned_llm_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  g_value_set_string (value, TEST_CANNED_LLM (object)->reply);
}

static void
test_canned_llm_finalize (GObject *object)
{
  TestCannedLlm *self = TEST_CANNED_LLM (object);

  g_free (self->reply);
  g_clear_object (&self->last_request);
  G_OBJECT_CLASS (test_canned_llm_parent_class)->finalize (object);
}

static void
test_canned_llm_class_init (TestCannedLlmClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = test_canned_llm_set_property;
  object_class->get_property = test_canned_llm_get_property;
  object_class->finalize = test_canned_llm_finalize;
  g_object_class_install_property (object_class, CANNED_PROP_REPLY,
    g_param_spec_string ("reply", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
test_canned_llm_init (TestCannedLlm *self)
{
}

/* Helpers ------------------------------------------------------------------- */

typedef struct
{
  GPtrArray *templates;
  GStrv dropped;
} Generated;

static void
generated_clear (Generated *generated)
{
  g_clear_pointer (&generated->templates, g_ptr_array_unref);
  g_clear_pointer (&generated->dropped, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Generated, generated_clear)

static void
generate (Fixture   *fixture,
          gboolean   keep_plural,
          Generated *generated)
{
  g_autoptr (GrammarSchemaGenerator) generator = grammar_schema_generator_new (fixture->database, fixture->schema);
  g_autoptr (GError) error = NULL;

  grammar_schema_generator_set_keep_plural (generator, keep_plural);
  generated->templates = grammar_schema_generator_generate (generator, &generated->dropped, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (generated->templates);
  g_assert_nonnull (generated->dropped);

  /* Everything it proposes is valid for the schema. */
  for (guint i = 0; generated->dropped[i] != NULL; i++)
    g_assert_null (strstr (generated->dropped[i], "does not validate"));
}

static GrammarSqlTemplate *
find_template (GPtrArray  *templates,
               const char *sql)
{
  for (guint i = 0; i < templates->len; i++)
    {
      GrammarSqlTemplate *template = g_ptr_array_index (templates, i);

      if (g_str_equal (grammar_sql_template_get_sql (template), sql))
        return template;
    }
  return NULL;
}

static GrammarSqlTemplate *
assert_template (GPtrArray  *templates,
                 const char *sql)
{
  GrammarSqlTemplate *template = find_template (templates, sql);

  if (template == NULL)
    {
      g_autoptr (GString) all = g_string_new (NULL);

      for (guint i = 0; i < templates->len; i++)
        g_string_append_printf (all, "  %s\n", grammar_sql_template_get_sql (g_ptr_array_index (templates, i)));
      g_error ("template not generated: %s\ngenerated:\n%s", sql, all->str);
    }
  return template;
}

static const char *
find_line (const char * const *lines,
           const char         *first,
           const char         *second)
{
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], first) != NULL && (second == NULL || strstr (lines[i], second) != NULL))
      return lines[i];
  return NULL;
}

static void
assert_line (const char * const *lines,
             const char         *first,
             const char         *second)
{
  if (find_line (lines, first, second) == NULL)
    {
      g_autofree char *all = g_strjoinv ("\n  ", (GStrv) lines);

      g_error ("no line with “%s” and “%s” among:\n  %s", first, second != NULL ? second : "", all);
    }
}

static gboolean
has_placeholder_column (GrammarSqlTemplate *template,
                        const char         *table,
                        const char         *column)
{
  for (guint i = 0; i < grammar_sql_template_get_n_placeholders (template); i++)
    if (g_ascii_strcasecmp (grammar_sql_template_get_placeholder_table (template, i), table) == 0 &&
        g_ascii_strcasecmp (grammar_sql_template_get_placeholder_column (template, i), column) == 0)
      return TRUE;
  return FALSE;
}

/* The checks every output of the schema generator passes. */
static void
assert_sound (Fixture   *fixture,
              GPtrArray *templates)
{
  for (guint i = 0; i < templates->len; i++)
    {
      GrammarSqlTemplate *template = g_ptr_array_index (templates, i);
      const char *sql = grammar_sql_template_get_sql (template);
      const char *from = strstr (sql, " FROM ");
      g_autofree char *projection = NULL;
      g_autofree char *as_where = NULL;
      g_autofree char *as_and = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_true (grammar_sql_template_validate (template, fixture->database, fixture->schema, &error));
      g_assert_no_error (error);
      g_assert_cmpint (grammar_sql_template_get_origin (template), ==, GRAMMAR_TEMPLATE_ORIGIN_SCHEMA);
      g_assert_nonnull (grammar_sql_template_get_note (template));
      g_assert_true (g_str_has_prefix (sql, "SELECT "));

      /* One projected column, never a predicate's. */
      g_assert_nonnull (from);
      projection = g_strndup (sql + strlen ("SELECT "), from - sql - strlen ("SELECT "));
      g_assert_null (strchr (projection, ','));
      as_where = g_strdup_printf (" WHERE %s = ", projection);
      as_and = g_strdup_printf (" AND %s = ", projection);
      g_assert_null (strstr (sql, as_where));
      g_assert_null (strstr (sql, as_and));

      /* Never a surrogate id: in a projection or a placeholder. */
      g_assert_false (g_str_has_suffix (projection, "_id") || g_str_has_suffix (projection, "_ID"));
      for (guint p = 0; p < grammar_sql_template_get_n_placeholders (template); p++)
        {
          g_autofree char *column = g_ascii_strdown (grammar_sql_template_get_placeholder_column (template, p), -1);

          g_assert_false (g_str_has_suffix (column, "_id"));
          g_assert_cmpstr (column, !=, "id");
        }
    }
}

static GPtrArray *
sql_texts (GPtrArray *templates)
{
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < templates->len; i++)
    {
      GrammarSqlTemplate *template = g_ptr_array_index (templates, i);

      g_ptr_array_add (texts, g_strdup_printf ("%s %s", grammar_sql_template_get_sql (template),
                                               grammar_sql_template_get_note (template)));
    }
  return texts;
}

/* The schema generator ---------------------------------------------------------- */

static void
test_schema_entities (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_auto (Generated) generated = { 0 };
  GrammarSqlTemplate *template;

  fixture_open (&fixture, "company", company_sql, NULL);
  generate (&fixture, FALSE, &generated);
  assert_sound (&fixture, generated.templates);

  /* A declared unique name, the paper's simplest shape. */
  template = assert_template (generated.templates, "SELECT title FROM employee WHERE name = '[employee.name]'");
  g_assert_cmpstr (grammar_sql_template_get_note (template), ==,
                   "employee.name is declared unique (4 distinct values in 4 rows); projects title");
  assert_template (generated.templates, "SELECT hired_on FROM employee WHERE name = '[employee.name]'");

  /* Unique in the data without a constraint: verified, and said so. */
  template = assert_template (generated.templates, "SELECT country FROM client WHERE name = '[client.name]'");
  g_assert_cmpstr (grammar_sql_template_get_note (template), ==,
                   "client.name is unique in the data (3 distinct values in 3 rows); projects country");

  /* A number is projected, bare placeholders never needed here. */
  assert_template (generated.templates, "SELECT budget FROM project WHERE name = '[project.name]'");

  /* Names that need quoting, in the SQL and in the placeholder. */
  assert_template (generated.templates,
                   "SELECT \"région\" FROM bureau WHERE \"Bureau Name\" = '[bureau.\"Bureau Name\"]'");
  assert_template (generated.templates,
                   "SELECT \"Order\" FROM bureau WHERE \"Bureau Name\" = '[bureau.\"Bureau Name\"]'");
}

static void
test_schema_never_ids (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_auto (Generated) generated = { 0 };
  const char * const *dropped;

  fixture_open (&fixture, "company", company_sql, NULL);
  generate (&fixture, TRUE, &generated);
  assert_sound (&fixture, generated.templates);
  dropped = (const char * const *) generated.dropped;

  /* Even with plural answers allowed, ids, foreign keys, dates,
   * measurements and empty columns are not asked by. */
  for (guint i = 0; i < generated.templates->len; i++)
    {
      GrammarSqlTemplate *template = g_ptr_array_index (generated.templates, i);

      g_assert_false (has_placeholder_column (template, "employee", "employee_id"));
      g_assert_false (has_placeholder_column (template, "project", "client_id"));
      g_assert_false (has_placeholder_column (template, "employee", "hired_on"));
      g_assert_false (has_placeholder_column (template, "project", "budget"));
      g_assert_null (strstr (grammar_sql_template_get_sql (template), "nickname"));
    }
  assert_line (dropped, "dropped: column employee.employee_id — a surrogate id", NULL);
  assert_line (dropped, "dropped: column employee.nickname — NULL in every row", NULL);
  assert_line (dropped, "dropped: predicate employee.supervisor_id — a foreign key to employee", NULL);
  assert_line (dropped, "dropped: predicate employee.hired_on — a date", NULL);
  assert_line (dropped, "dropped: predicate project.budget — a number", NULL);
}

static void
test_schema_foreign_keys (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_auto (Generated) generated = { 0 };
  GrammarSqlTemplate *template;

  fixture_open (&fixture, "company", company_sql, NULL);
  generate (&fixture, FALSE, &generated);

  template = assert_template (generated.templates,
                              "SELECT c.name FROM project p JOIN client c ON p.client_id = c.client_id "
                              "WHERE p.name = '[project.name]'");
  g_assert_cmpstr (grammar_sql_template_get_note (template), ==,
                   "project.name is declared unique (3 distinct values in 3 rows); projects client.name "
                   "through the foreign key project.client_id instead of the raw key");
  assert_template (generated.templates,
                   "SELECT e.name FROM project p JOIN employee e ON p.manager_id = e.employee_id "
                   "WHERE p.name = '[project.name]'");

  /* A key to the table itself: the supervisor's name. */
  assert_template (generated.templates,
                   "SELECT s.name FROM employee e JOIN employee s ON e.supervisor_id = s.employee_id "
                   "WHERE e.name = '[employee.name]'");

  /* The raw keys are never projected. */
  for (guint i = 0; i < generated.templates->len; i++)
    {
      const char *sql = grammar_sql_template_get_sql (g_ptr_array_index (generated.templates, i));

      g_assert_false (g_str_has_prefix (sql, "SELECT client_id") || g_str_has_prefix (sql, "SELECT supervisor_id"));
    }
}

static void
test_schema_associative (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_auto (Generated) generated = { 0 };
  GrammarSqlTemplate *template;

  fixture_open (&fixture, "company", company_sql, NULL);
  generate (&fixture, FALSE, &generated);

  template = assert_template (generated.templates,
                              "SELECT a.role FROM assignment a JOIN project p ON a.project_id = p.project_id "
                              "JOIN employee e ON a.employee_id = e.employee_id "
                              "WHERE p.name = '[project.name]' AND e.name = '[employee.name]'");
  g_assert_cmpuint (grammar_sql_template_get_n_placeholders (template), ==, 2);
  g_assert_nonnull (strstr (grammar_sql_template_get_note (template), "its key is the pair of foreign keys"));
  assert_template (generated.templates,
                   "SELECT a.hours FROM assignment a JOIN project p ON a.project_id = p.project_id "
                   "JOIN employee e ON a.employee_id = e.employee_id "
                   "WHERE p.name = '[project.name]' AND e.name = '[employee.name]'");
}

/* The paper's five human-verified templates for Spider's company_employee,
 * on a database of that schema. */
static void
test_schema_spider_shape (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_auto (Generated) generated = { 0 };
  const char *expected[] = {
    "SELECT Industry FROM company WHERE Name = '[company.Name]'",
    "SELECT Headquarters FROM company WHERE Name = '[company.Name]'",
    "SELECT Nationality FROM people WHERE Name = '[people.Name]'",
    "SELECT Graduation_College FROM people WHERE Name = '[people.Name]'",
    "SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID "
    "JOIN people p ON e.People_ID = p.People_ID WHERE c.Name = '[company.Name]' AND p.Name = '[people.Name]'",
  };

  fixture_open (&fixture, "spider", spider_sql, NULL);
  generate (&fixture, FALSE, &generated);
  assert_sound (&fixture, generated.templates);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    assert_template (generated.templates, expected[i]);

  /* What the paper's reviewers removed from the model's first answer. */
  g_assert_null (find_template (generated.templates,
                                "SELECT Name FROM company WHERE Sales_in_Billion = [company.Sales_in_Billion]"));
  g_assert_null (find_template (generated.templates, "SELECT Nationality FROM people WHERE Age = [people.Age]"));
  assert_line ((const char * const *) generated.dropped,
               "SELECT Name FROM company WHERE Industry = '[company.Industry]' — plural answer", NULL);
}

static void
test_schema_plural (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_auto (Generated) strict = { 0 };
  g_auto (Generated) plural = { 0 };
  const char *visit = "SELECT v.purpose FROM visit v JOIN client c ON v.client_id = c.client_id "
                      "JOIN employee e ON v.employee_id = e.employee_id "
                      "WHERE c.name = '[client.name]' AND e.name = '[employee.name]'";
  const char *by_title = "SELECT name FROM employee WHERE title = '[employee.title]'";
  GrammarSqlTemplate *template;

  fixture_open (&fixture, "company", company_sql, NULL);
  generate (&fixture, FALSE, &strict);
  generate (&fixture, TRUE, &plural);
  assert_sound (&fixture, strict.templates);
  assert_sound (&fixture, plural.templates);

  /* A link table without a key, where a pair repeats: the values of the
   * example are written as SQL literals, quotes doubled. */
  g_assert_null (find_template (strict.templates, visit));
  assert_line ((const char * const *) strict.dropped, visit,
               "plural answer: 1 of 2 (client.name, employee.name) combinations match several rows "
               "(('L''Oréal Café', 'Ciarán O''Donnell'): 2 rows)");
  template = assert_template (plural.templates, visit);
  g_assert_nonnull (strstr (grammar_sql_template_get_note (template), "kept because plural answers are allowed"));

  /* A text column shared by several rows. */
  g_assert_null (find_template (strict.templates, by_title));
  assert_line ((const char * const *) strict.dropped, by_title, "plural answer");
  template = assert_template (plural.templates, by_title);
  g_assert_true (g_str_has_prefix (grammar_sql_template_get_note (template),
                                   "employee.title is not unique (3 distinct values in 4 rows)"));
  g_assert_null (find_line ((const char * const *) plural.dropped, "plural answer", NULL));
  g_assert_cmpuint (plural.templates->len, >, strict.templates->len);
}

static void
test_schema_deterministic (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_auto (Generated) first = { 0 };
  g_auto (Generated) second = { 0 };
  g_autoptr (GPtrArray) first_texts = NULL;
  g_autoptr (GPtrArray) second_texts = NULL;

  fixture_open (&fixture, "company", company_sql, NULL);
  generate (&fixture, FALSE, &first);
  generate (&fixture, FALSE, &second);

  first_texts = sql_texts (first.templates);
  second_texts = sql_texts (second.templates);
  g_assert_cmpuint (first_texts->len, ==, second_texts->len);
  for (guint i = 0; i < first_texts->len; i++)
    g_assert_cmpstr (g_ptr_array_index (first_texts, i), ==, g_ptr_array_index (second_texts, i));
  g_assert_true (g_strv_equal ((const char * const *) first.dropped, (const char * const *) second.dropped));

  /* Schema order: employee's templates come before client's. */
  g_assert_true (g_str_has_suffix (grammar_sql_template_get_sql (g_ptr_array_index (first.templates, 0)),
                                   "FROM employee WHERE name = '[employee.name]'"));
}

static void
test_schema_empty_table (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_auto (Generated) generated = { 0 };

  fixture_open (&fixture, "empty",
                "CREATE TABLE city (city_id INTEGER PRIMARY KEY, name TEXT UNIQUE, mayor TEXT);\n"
                "CREATE VIEW big_city AS SELECT name FROM city;\n", NULL);
  generate (&fixture, FALSE, &generated);
  g_assert_cmpuint (generated.templates->len, ==, 0);
  assert_line ((const char * const *) generated.dropped, "dropped: table city — no rows", NULL);
  assert_line ((const char * const *) generated.dropped, "dropped: view big_city", NULL);
}

/* The language model generator ---------------------------------------------------- */

typedef struct
{
  GPtrArray *templates;
  GStrv rejected;
  char *reply;
  GError *error;
  TestCannedLlm *llm;
} Asked;

static void
asked_clear (Asked *asked)
{
  g_clear_pointer (&asked->templates, g_ptr_array_unref);
  g_clear_pointer (&asked->rejected, g_strfreev);
  g_clear_pointer (&asked->reply, g_free);
  g_clear_error (&asked->error);
  g_clear_object (&asked->llm);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Asked, asked_clear)

/* Builds the keyfile's [llm] section (a canned model replying @reply)
 * and asks it for templates over the Spider-shaped database. */
static void
ask (const char *reply,
     Asked      *asked)
{
  g_auto (Fixture) fixture = { 0 };
  g_autoptr (GrammarLlmSqlGenerator) generator = NULL;
  g_autoptr (GError) error = NULL;

  fixture_open (&fixture, "spider", spider_sql, reply);
  asked->llm = TEST_CANNED_LLM (grammar_config_build (fixture.config, "llm", GRAMMAR_TYPE_LLM, &error));
  g_assert_no_error (error);
  generator = grammar_llm_sql_generator_new (GRAMMAR_LLM (asked->llm), fixture.database, fixture.schema);
  asked->templates = grammar_llm_sql_generator_generate (generator, &asked->reply, &asked->rejected, NULL,
                                                         &asked->error);
  g_assert_cmpuint (asked->llm->n_calls, ==, 1);
  g_assert_cmpstr (asked->reply, ==, reply);
  g_assert_nonnull (asked->rejected);
  g_assert_true ((asked->templates == NULL) == (asked->error != NULL));
}

static void
assert_llm_templates (Asked              *asked,
                      const char * const *expected)
{
  g_assert_no_error (asked->error);
  g_assert_cmpuint (asked->templates->len, ==, g_strv_length ((GStrv) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    {
      GrammarSqlTemplate *template = g_ptr_array_index (asked->templates, i);

      g_assert_cmpstr (grammar_sql_template_get_sql (template), ==, expected[i]);
      g_assert_cmpint (grammar_sql_template_get_origin (template), ==, GRAMMAR_TEMPLATE_ORIGIN_LLM);
      g_assert_true (g_str_has_prefix (grammar_sql_template_get_note (template), "proposed by the language model"));
    }
}

static void
test_llm_prompt (void)
{
  g_auto (Asked) asked = { 0 };
  GrammarChatRequest *request;
  const char *system;
  const char *user;

  ask ("SELECT Industry FROM company WHERE Name = '[company.Name]'", &asked);
  request = asked.llm->last_request;
  g_assert_cmpuint (grammar_chat_request_get_n_messages (request), ==, 2);
  g_assert_cmpfloat (grammar_chat_request_get_temperature (request), ==, 0.0);
  g_assert_cmpstr (grammar_chat_request_get_message_role (request, 0), ==, "system");
  system = grammar_chat_request_get_message_content (request, 0);
  user = grammar_chat_request_get_message_content (request, 1);

  /* The paper's criteria. */
  g_assert_nonnull (strstr (system, "You are a SQL query Template Generator"));
  g_assert_nonnull (strstr (system, "##CRITERIA##"));
  g_assert_nonnull (strstr (system, "Avoid projecting attributes that appear in the predicate."));
  g_assert_nonnull (strstr (system, "semantically void record identifiers"));
  g_assert_nonnull (strstr (system, "Ensure the query yields a specific and singular answer"));
  g_assert_nonnull (strstr (system, "Output each SQL template as a single line"));

  /* The schema: tables, typed columns, keys, foreign keys; no data. */
  g_assert_true (g_str_has_prefix (user, "##DATA SCHEMA##\n"));
  g_assert_true (g_str_has_suffix (user, "##RESPONSE_START##\n"));
  g_assert_nonnull (strstr (user, "CREATE TABLE company (\n  Company_ID REAL,\n  Name TEXT,\n"));
  g_assert_nonnull (strstr (user, "  PRIMARY KEY (Company_ID, People_ID),\n"));
  g_assert_nonnull (strstr (user, "  FOREIGN KEY (Company_ID) REFERENCES company (Company_ID),\n"));
  g_assert_null (strstr (user, "Acme"));
  g_assert_null (strstr (system, "Acme"));
}

static void
test_llm_numbered_list (void)
{
  g_auto (Asked) asked = { 0 };
  const char *expected[] = {
    "SELECT Industry FROM company WHERE Name = '[company.Name]'",
    "SELECT Headquarters FROM company WHERE Name = '[company.Name]'",
    "SELECT Nationality FROM people WHERE Name = '[people.Name]'",
    "SELECT Graduation_College FROM people WHERE Name = '[people.Name]'",
    "SELECT Age FROM people WHERE Name = '[people.Name]'",
    NULL
  };

  ask ("1. SELECT Industry FROM company WHERE Name = '[company.Name]';\n"
       "2) SELECT Headquarters FROM company WHERE Name = '[company.Name]';\r\n"
       "- \"SELECT Nationality FROM people WHERE Name = '[people.Name]'\"\n"
       "\n"
       "* `SELECT Graduation_College FROM people WHERE Name = '[people.Name]'`\n"
       "10.   'SELECT Age FROM people WHERE Name = '[people.Name]''\n",
       &asked);
  assert_llm_templates (&asked, expected);
  g_assert_cmpuint (g_strv_length (asked.rejected), ==, 0);
  g_assert_cmpstr (grammar_sql_template_get_note (g_ptr_array_index (asked.templates, 4)), ==,
                   "proposed by the language model (line 6 of its reply)");
}

static void
test_llm_code_block (void)
{
  g_auto (Asked) asked = { 0 };
  const char *expected[] = {
    "SELECT Industry FROM company WHERE Name = '[company.Name]'",
    "SELECT e.Year_working FROM employment e JOIN company c ON e.Company_ID = c.Company_ID "
    "JOIN people p ON e.People_ID = p.People_ID WHERE c.Name = '[company.Name]' AND p.Name = '[people.Name]'",
    "SELECT Nationality FROM people WHERE Name = '[people.Name]'",
    NULL
  };

  /* A statement may continue over lines inside a fence. */
  ask ("```sql\n"
       "SELECT Industry FROM company WHERE Name = '[company.Name]';\n"
       "SELECT e.Year_working\n"
       "  FROM employment e JOIN company c ON e.Company_ID = c.Company_ID\n"
       "  JOIN people p ON e.People_ID = p.People_ID\n"
       "  WHERE c.Name = '[company.Name]' AND p.Name = '[people.Name]';\n"
       "SELECT Nationality FROM people WHERE Name = '[people.Name]'\n"
       "```\n",
       &asked);
  assert_llm_templates (&asked, expected);
  g_assert_cmpuint (g_strv_length (asked.rejected), ==, 0);
}

static void
test_llm_prose_and_sql (void)
{
  g_auto (Asked) asked = { 0 };
  const char *expected[] = {
    "SELECT Industry FROM company WHERE Name = '[company.Name]'",
    "WITH named AS (SELECT Name, Headquarters FROM company) SELECT Headquarters FROM named WHERE Name = '[company.Name]'",
    NULL
  };

  ask ("Here are the SQL templates that follow the criteria:\n"
       "\n"
       "SELECT Industry FROM company WHERE Name = '[company.Name]';\n"
       "Selecting by name gives a single answer.\n"
       "WITH named AS (SELECT Name, Headquarters FROM company) SELECT Headquarters FROM named WHERE Name = '[company.Name]'\n"
       "##RESPONSE_END##\n",
       &asked);
  assert_llm_templates (&asked, expected);
  g_assert_cmpuint (g_strv_length (asked.rejected), ==, 0);
}

static void
test_llm_invalid_lines (void)
{
  g_auto (Asked) asked = { 0 };
  const char *expected[] = { "SELECT Industry FROM company WHERE Name = '[company.Name]'", NULL };

  ask ("SELECT Industry FROM company WHERE Nmae = '[company.Nmae]'\n"
       "SELECT Industry FROM company WHERE Name = '[company.Name]'\n"
       "DELETE FROM company WHERE Name = '[company.Name]'\n"
       "SELECT Industry FROM company WHERE Name = '[company.Name]'; DELETE FROM company\n"
       "SELECT Industry FROM company WHERE Name = 'Acme'\n"
       "SELECT Industry FROM companies WHERE Name = '[companies.Name]'\n"
       "1. SELECT Industry FROM company WHERE Name = '[company.Name]';\n",
       &asked);
  assert_llm_templates (&asked, expected);
  g_assert_cmpuint (g_strv_length (asked.rejected), ==, 6);
  g_assert_true (g_str_has_prefix (asked.rejected[0], "line 1: SELECT Industry FROM company WHERE Nmae"));
  g_assert_nonnull (strstr (asked.rejected[0], "Nmae"));
  g_assert_true (g_str_has_prefix (asked.rejected[1], "line 3: DELETE FROM company"));
  g_assert_nonnull (strstr (asked.rejected[1], "not a query"));
  g_assert_true (g_str_has_prefix (asked.rejected[2], "line 4: "));
  g_assert_true (g_str_has_prefix (asked.rejected[3], "line 5: "));
  g_assert_nonnull (strstr (asked.rejected[3], "no placeholder"));
  g_assert_true (g_str_has_prefix (asked.rejected[4], "line 6: "));
  g_assert_nonnull (strstr (asked.rejected[4], "companies"));
  g_assert_cmpstr (strstr (asked.rejected[5], " — "), ==, " — the same template as line 2");
}

static void
test_llm_unusable_replies (void)
{
  struct {
    const char *reply;
    const char *message;
    guint n_rejected;
  } cases[] = {
    { "", "the language model's reply is empty", 0 },
    { "  \n\n", "the language model's reply is empty", 0 },
    { "I am sorry, I cannot generate templates for this schema.\nPlease give more details.",
      "the language model's reply has no SQL template: 2 lines of prose", 0 },
    { "```python\nprint('hello')\n```\n", "the language model's reply has no SQL template: 1 line of prose", 0 },
    { "SELECT Industry FROM company\nUPDATE company SET Name = 'x' WHERE Name = '[company.Name]'\n",
      "none of the 2 SQL lines of the language model's reply is a valid template (2 rejected; first: line 1:", 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Asked) asked = { 0 };

      ask (cases[i].reply, &asked);
      g_assert_null (asked.templates);
      g_assert_error (asked.error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
      if (!g_str_has_prefix (asked.error->message, cases[i].message))
        g_error ("“%s” does not start with “%s”", asked.error->message, cases[i].message);
      g_assert_cmpuint (g_strv_length (asked.rejected), ==, cases[i].n_rejected);
    }
}

static void
test_llm_parse_saved_reply (void)
{
  g_auto (Fixture) fixture = { 0 };
  g_autoptr (GrammarLlmSqlGenerator) generator = NULL;
  g_autoptr (TestCannedLlm) llm = g_object_new (TEST_TYPE_CANNED_LLM, NULL);
  g_autoptr (GPtrArray) templates = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) rejected = NULL;
  const char *requirements[] = { "Only ask about companies.", NULL };
  g_autoptr (GrammarChatRequest) request = NULL;

  fixture_open (&fixture, "spider", spider_sql, NULL);
  generator = grammar_llm_sql_generator_new (GRAMMAR_LLM (llm), fixture.database, fixture.schema);

  /* Re-reading a saved reply needs no model. */
  templates = grammar_llm_sql_generator_parse_reply (generator,
                                                     "SELECT Industry FROM company WHERE Name = '[company.Name]'",
                                                     &rejected, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (templates->len, ==, 1);
  g_assert_cmpuint (llm->n_calls, ==, 0);

  /* The paper's {SPECIFIC_REQUIREMENTS}, and the temperature. */
  grammar_llm_sql_generator_set_requirements (generator, requirements);
  grammar_llm_sql_generator_set_temperature (generator, 0.5);
  request = grammar_llm_sql_generator_build_request (generator);
  g_assert_nonnull (strstr (grammar_chat_request_get_message_content (request, 0),
                            "facilitating accurate chatbot evaluation.\n- Only ask about companies.\n- If no acceptable"));
  g_assert_cmpfloat (grammar_chat_request_get_temperature (request), ==, 0.5);
}

/* The command line ------------------------------------------------------------------ */

static void
test_cli (void)
{
  g_autofree char *script = grammar_test_write_file (tmpdir, "cli.sql", company_sql);
  g_autofree char *config = grammar_test_write_file (tmpdir, "cli.ini", "[database]\nplugin=sqlite\nscript=cli.sql\n");
  g_autofree char *bad_config = grammar_test_write_file (tmpdir, "bad.ini", "[database\nplugin=sqlite\n");
  g_autofree char *output = g_build_filename (tmpdir, "sql-templates.json", NULL);
  g_autofree char *plural_output = g_build_filename (tmpdir, "plural.json", NULL);
  g_autofree char *never = g_build_filename (tmpdir, "never.json", NULL);
  g_auto (Fixture) fixture = { 0 };
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarTemplateSet) plural_set = grammar_template_set_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  g_auto (GStrv) plural_problems = NULL;

  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "sql-templates", "-c", config, "-o", output, NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.err, "templates from the schema written to"));
    g_assert_nonnull (strstr (run.err, "dropped: SELECT name FROM employee WHERE title = '[employee.title]' — plural answer"));
  }
  fixture_open (&fixture, "cli", company_sql, NULL);
  g_assert_true (grammar_template_set_load (set, output, fixture.database, fixture.schema, &problems, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (set)->len, >, 10);
  g_assert_nonnull (grammar_template_set_lookup_sql_template (set,
    grammar_sql_template_get_id (g_ptr_array_index (grammar_template_set_get_sql_templates (set), 0))));

  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "sql-templates", "-q", "--keep-plural", "-c", config, "-o", plural_output, NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==, "");
  }
  g_assert_true (grammar_template_set_load (plural_set, plural_output, fixture.database, fixture.schema,
                                            &plural_problems, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (plural_problems), ==, 0);
  g_assert_cmpuint (grammar_template_set_get_sql_templates (plural_set)->len, >,
                    grammar_template_set_get_sql_templates (set)->len);

  /* Input errors: exit 2, nothing written. */
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "sql-templates", "-c", config, "-o", never, "--generator", "magic", NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "unknown generator “magic”: use schema or llm"));
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "sql-templates", "-c", config, "-o", never, "--generator", "llm", NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "there is no section [llm]"));
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "sql-templates", "-c", config, NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "no output file"));
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "sql-templates", "-c", bad_config, "-o", never, NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "bad.ini"));
  }
  {
    g_auto (GrammarTestRun) run = { 0 };

    grammar_test_run (&run, tmpdir, "sql-templates", "--help", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, "--generator"));
  }
  g_assert_false (g_file_test (never, G_FILE_TEST_EXISTS));
}

/* --------------------------------------------------------------------------------- */

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("grammar-sql-generators-XXXXXX");
  grammar_registry_implement (GRAMMAR_TYPE_LLM, TEST_TYPE_CANNED_LLM, "canned", "Replies with canned text (tests)");

  g_test_add_func ("/schema-generator/entities", test_schema_entities);
  g_test_add_func ("/schema-generator/never-ids", test_schema_never_ids);
  g_test_add_func ("/schema-generator/foreign-keys", test_schema_foreign_keys);
  g_test_add_func ("/schema-generator/associative", test_schema_associative);
  g_test_add_func ("/schema-generator/spider-shape", test_schema_spider_shape);
  g_test_add_func ("/schema-generator/plural", test_schema_plural);
  g_test_add_func ("/schema-generator/deterministic", test_schema_deterministic);
  g_test_add_func ("/schema-generator/empty-table", test_schema_empty_table);
  g_test_add_func ("/llm-sql-generator/prompt", test_llm_prompt);
  g_test_add_func ("/llm-sql-generator/numbered-list", test_llm_numbered_list);
  g_test_add_func ("/llm-sql-generator/code-block", test_llm_code_block);
  g_test_add_func ("/llm-sql-generator/prose-and-sql", test_llm_prose_and_sql);
  g_test_add_func ("/llm-sql-generator/invalid-lines", test_llm_invalid_lines);
  g_test_add_func ("/llm-sql-generator/unusable-replies", test_llm_unusable_replies);
  g_test_add_func ("/llm-sql-generator/parse-saved-reply", test_llm_parse_saved_reply);
  g_test_add_func ("/sql-templates/cli", test_cli);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
