/* test-docs.c: documents from the database (GrammarDocumentGenerator,
 * `grammar docs`) and the ground-truth doc_ids of `grammar qa`
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <grammar.h>

#include "grammar-test-util.h"

static char *tmp_dir;
static char *script_path;

/* Spider's company_employee shape: a REAL primary key, a link table with
 * a composite key and a column of its own, a pure link table with two
 * foreign keys to the same table, a table without a primary key, a
 * value with a quote, one with a newline, non-ASCII text and NULLs; and
 * a composite text key with a `-` in a value and a NULL in another. */
static const char fixture_sql[] =
  "CREATE TABLE company (Company_ID REAL PRIMARY KEY, Name TEXT NOT NULL, Headquarters TEXT,\n"
  "  Industry TEXT, Sales_in_Billion REAL);\n"
  "CREATE TABLE people (People_ID INTEGER PRIMARY KEY, Name TEXT NOT NULL, Age INTEGER, Nationality TEXT);\n"
  "CREATE TABLE employment (Company_ID INTEGER REFERENCES company (Company_ID),\n"
  "  People_ID INTEGER REFERENCES people (People_ID), Year_working INTEGER,\n"
  "  PRIMARY KEY (Company_ID, People_ID));\n"
  "CREATE TABLE mentor (People_ID INTEGER REFERENCES people (People_ID),\n"
  "  Mentor_ID INTEGER REFERENCES people (People_ID), PRIMARY KEY (People_ID, Mentor_ID));\n"
  "CREATE TABLE note (body TEXT);\n"
  "CREATE TABLE badge (kind TEXT, code TEXT, label TEXT, PRIMARY KEY (kind, code));\n"
  "INSERT INTO company VALUES (1, 'Acme', 'USA', 'Retail', 433.5),\n"
  "  (2, 'O''Brien & Sons', 'Dublin' || char(10) || 'Ireland', 'Banking', 10.0),\n"
  "  (3, 'Zoë Ångström AB', 'Sweden', NULL, NULL);\n"
  "INSERT INTO people VALUES (1, 'Ada Byron', 30, 'United Kingdom'), (3, 'Alan Kay', NULL, 'United States'),\n"
  "  (7, 'Grace Hopper', 41, 'United States');\n"
  "INSERT INTO employment VALUES (1, 1, 3), (1, 7, 10), (1, 3, 2), (2, 3, 1);\n"
  "INSERT INTO mentor VALUES (1, 7), (3, 7);\n"
  "INSERT INTO note VALUES ('loose');\n"
  "INSERT INTO badge VALUES ('gold', 'x-1', 'Gold star'), ('gold', NULL, 'Nameless');\n";

static const char templates_section[] =
  "[documents]\n"
  "tables=company;people\n"
  "company.title={Name}\n"
  "company.text={Name} is a company in the {Industry} industry, headquartered in {Headquarters}. "
  "Its sales were {Sales_in_Billion} billion.{employment: {people.Name} works there.}\n"
  "people.text={Name} is {Age} years old and comes from {Nationality}."
  "{employment: Works for {company.Name} for {Year_working} years.}"
  "{mentor.People_ID: Mentored by {Mentor_ID.Name}.}\n";

/* Fixtures --------------------------------------------------------------------- */

/* A keyfile with the fixture database and @extra after it; returns its path. */
static char *
write_config (const char *name,
              const char *extra)
{
  g_autofree char *text = g_strdup_printf ("[database]\nplugin=sqlite\nscript=%s\n\n%s", script_path,
                                           extra != NULL ? extra : "");

  return grammar_test_write_file (tmp_dir, name, text);
}

static GrammarConfig *
load_config (const char *path)
{
  g_autoptr (GError) error = NULL;
  GrammarConfig *config = grammar_config_new_from_file (path, &error);

  g_assert_no_error (error);
  return config;
}

/* A generator for the keyfile at @path, configured from its [documents];
 * the error of grammar_document_generator_configure() goes to @error. */
static GrammarDocumentGenerator *
make_generator (const char  *path,
                GError     **error)
{
  g_autoptr (GrammarConfig) config = load_config (path);
  g_autoptr (GObject) database = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarDocumentGenerator) generator = NULL;
  g_autoptr (GError) local_error = NULL;

  database = grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &local_error);
  g_assert_no_error (local_error);
  schema = grammar_database_get_schema (GRAMMAR_DATABASE (database), NULL, &local_error);
  g_assert_no_error (local_error);
  generator = grammar_document_generator_new (GRAMMAR_DATABASE (database), schema);
  if (!grammar_document_generator_configure (generator, config, "documents", error))
    return NULL;
  return g_steal_pointer (&generator);
}

/* The documents of a run into memory, one JSON object each; NULL with @error. */
static GPtrArray *
generate (GrammarDocumentGenerator  *generator,
          GError                   **error)
{
  g_autoptr (GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *documents = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  if (!grammar_document_generator_generate (generator, stream, NULL, error))
    {
      g_ptr_array_unref (documents);
      return NULL;
    }
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (stream, NULL, NULL));
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GError) parse_error = NULL;
      g_autoptr (JsonNode) node = NULL;

      if (lines[i][0] == '\0')
        {
          g_assert_null (lines[i + 1]);  /* only after the last line */
          continue;
        }
      node = json_from_string (lines[i], &parse_error);
      g_assert_no_error (parse_error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_ptr_array_add (documents, json_object_ref (json_node_get_object (node)));
    }
  return documents;
}

static GPtrArray *
generate_ok (GrammarDocumentGenerator *generator)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *documents = generate (generator, &error);

  g_assert_no_error (error);
  return documents;
}

static char *
key_json (JsonObject *document)
{
  JsonObject *source = json_object_get_object_member (document, "source");

  return json_to_string (json_object_get_member (source, "key"), FALSE);
}

/* Checks one document: its id, title, text, source table and key JSON. */
static void
assert_document (GPtrArray  *documents,
                 guint       index,
                 const char *id,
                 const char *title,
                 const char *text,
                 const char *table,
                 const char *key)
{
  JsonObject *document;
  g_autofree char *actual_key = NULL;

  g_assert_cmpuint (index, <, documents->len);
  document = g_ptr_array_index (documents, index);
  g_assert_cmpstr (json_object_get_string_member (document, "id"), ==, id);
  g_assert_cmpstr (json_object_get_string_member (document, "title"), ==, title);
  g_assert_cmpstr (json_object_get_string_member (document, "text"), ==, text);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (document, "source"), "table"),
                   ==, table);
  actual_key = key_json (document);
  g_assert_cmpstr (actual_key, ==, key);
}

/* Rendering templates ------------------------------------------------------------ */

static void
test_templates (void)
{
  g_autofree char *path = write_config ("templates.ini", templates_section);
  g_autoptr (GrammarDocumentGenerator) generator = make_generator (path, NULL);
  g_autoptr (GPtrArray) documents = generate_ok (generator);

  g_assert_cmpuint (documents->len, ==, 6);
  /* fields of the row, a REAL key written without .0, a child block */
  assert_document (documents, 0, "company-1", "Acme",
                   "Acme is a company in the Retail industry, headquartered in USA. Its sales were 433.5 billion. "
                   "Ada Byron works there. Alan Kay works there. Grace Hopper works there.",
                   "company", "{\"Company_ID\":1}");
  /* a quote and a newline in values, a whole REAL as an integer */
  assert_document (documents, 1, "company-2", "O'Brien & Sons",
                   "O'Brien & Sons is a company in the Banking industry, headquartered in Dublin\nIreland. "
                   "Its sales were 10 billion. Alan Kay works there.",
                   "company", "{\"Company_ID\":2}");
  /* NULLs render as nothing; an empty block leaves no space */
  assert_document (documents, 2, "company-3", "Zoë Ångström AB",
                   "Zoë Ångström AB is a company in the  industry, headquartered in Sweden. Its sales were  billion.",
                   "company", "{\"Company_ID\":3}");
  /* the default title; fields through the child's foreign keys; a block
   * on one of two foreign keys to the same table */
  assert_document (documents, 3, "people-1", "people 1",
                   "Ada Byron is 30 years old and comes from United Kingdom. Works for Acme for 3 years. "
                   "Mentored by Grace Hopper.",
                   "people", "{\"People_ID\":1}");
  assert_document (documents, 4, "people-3", "people 3",
                   "Alan Kay is  years old and comes from United States. Works for Acme for 2 years. "
                   "Works for O'Brien & Sons for 1 years. Mentored by Grace Hopper.",
                   "people", "{\"People_ID\":3}");
  assert_document (documents, 5, "people-7", "people 7",
                   "Grace Hopper is 41 years old and comes from United States. Works for Acme for 10 years.",
                   "people", "{\"People_ID\":7}");
  g_assert_cmpuint (grammar_document_generator_get_n_documents (generator), ==, 6);
  g_assert_cmpuint (grammar_document_generator_get_n_tables (generator), ==, 2);
}

static void
test_defaults (void)
{
  g_autofree char *path = write_config ("defaults.ini", NULL);
  g_autoptr (GrammarDocumentGenerator) generator = make_generator (path, NULL);
  g_autoptr (GPtrArray) documents = generate_ok (generator);
  g_autoptr (GString) ids = g_string_new (NULL);
  g_auto (GStrv) warnings = NULL;

  /* Every table with a primary key but the pure link table (mentor) and
   * the table without a key (note), in schema order, rows in key order;
   * a `-` inside a value of a composite key is escaped, and a row whose
   * key has a NULL has no id. */
  for (guint i = 0; i < documents->len; i++)
    g_string_append_printf (ids, "%s ", json_object_get_string_member (g_ptr_array_index (documents, i), "id"));
  g_assert_cmpstr (ids->str, ==,
                   "company-1 company-2 company-3 people-1 people-3 people-7 "
                   "employment-1-1 employment-1-3 employment-1-7 employment-2-3 badge-gold-x%2D1 ");
  warnings = grammar_document_generator_dup_warnings (generator);
  g_assert_cmpuint (g_strv_length (warnings), ==, 1);
  g_assert_cmpstr (warnings[0], ==, "table badge: 1 row whose primary key has a NULL left out (no id)");

  /* "Column: value." for the non-NULL columns outside the key */
  assert_document (documents, 1, "company-2", "company 2",
                   "Name: O'Brien & Sons. Headquarters: Dublin\nIreland. Industry: Banking. Sales_in_Billion: 10.",
                   "company", "{\"Company_ID\":2}");
  assert_document (documents, 2, "company-3", "company 3", "Name: Zoë Ångström AB. Headquarters: Sweden.",
                   "company", "{\"Company_ID\":3}");
  assert_document (documents, 7, "employment-1-3", "employment 1-3", "Year_working: 2.",
                   "employment", "{\"Company_ID\":1,\"People_ID\":3}");
  assert_document (documents, 10, "badge-gold-x%2D1", "badge gold-x%2D1", "label: Gold star.",
                   "badge", "{\"kind\":\"gold\",\"code\":\"x-1\"}");
}

static void
test_tables_and_library_api (void)
{
  g_autofree char *path = write_config ("api.ini", NULL);
  g_autoptr (GrammarDocumentGenerator) generator = make_generator (path, NULL);
  g_autoptr (GPtrArray) documents = NULL;
  g_autoptr (GError) error = NULL;
  const char * const mentor_only[] = { "mentor", NULL };
  const char * const note_only[] = { "note", NULL };

  /* A pure link table when asked for; an id of a composite key. */
  grammar_document_generator_set_tables (generator, mentor_only);
  g_assert_true (grammar_document_generator_set_template (generator, "MENTOR", "{People_ID.Name}",
                                                          "{People_ID.Name} learns from {Mentor_ID.Name}.", &error));
  g_assert_no_error (error);
  documents = generate_ok (generator);
  g_assert_cmpuint (documents->len, ==, 2);
  assert_document (documents, 0, "mentor-1-7", "Ada Byron", "Ada Byron learns from Grace Hopper.",
                   "mentor", "{\"People_ID\":1,\"Mentor_ID\":7}");

  /* A table without a primary key has no stable ids. */
  grammar_document_generator_set_tables (generator, note_only);
  g_clear_pointer (&documents, g_ptr_array_unref);
  documents = generate (generator, &error);
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  grammar_test_assert_contains (error->message, "table “note” has no primary key");
  g_assert_null (documents);
  g_clear_error (&error);

  /* Errors of a template name it and the field. */
  g_assert_false (grammar_document_generator_set_template (generator, "company", NULL, "{Nmae}", &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT);
  g_assert_cmpstr (error->message, ==, "company.text: unknown column “Nmae” in table “company” (field {Nmae})");
  g_clear_error (&error);
  g_assert_false (grammar_document_generator_set_template (generator, "people", "{mentor: {Name}}", NULL, &error));
  grammar_test_assert_contains (error->message, "people.title: 2 foreign keys of “mentor” point to “people”");
  g_clear_error (&error);
  g_assert_false (grammar_document_generator_set_template (generator, "mentor", NULL, "{people.Name}", &error));
  grammar_test_assert_contains (error->message, "2 foreign keys of “mentor” point to “people” (field {people.Name})");
  g_clear_error (&error);
  g_assert_false (grammar_document_generator_set_template (generator, "employment", NULL, "{people.Nmae}", &error));
  g_assert_cmpstr (error->message, ==,
                   "employment.text: unknown column “Nmae” in table “people” (field {people.Nmae})");
  g_clear_error (&error);
  g_assert_false (grammar_document_generator_set_template (generator, "company", NULL, "{{ok}} {Name", &error));
  grammar_test_assert_contains (error->message, "company.text: “{Name” is not closed by “}”");
  g_clear_error (&error);
  g_assert_false (grammar_document_generator_set_template (generator, "company", NULL, "{people: x}", &error));
  grammar_test_assert_contains (error->message, "no foreign key of “people” points to “company”");
  g_clear_error (&error);
  g_assert_false (grammar_document_generator_set_template (generator, "nope", NULL, "x", &error));
  g_assert_cmpstr (error->message, ==, "no table “nope” in the database");
}

static void
test_braces (void)
{
  g_autofree char *path = write_config ("braces.ini",
                                        "[documents]\ntables=people\n"
                                        "people.title={{{Name}}}\n"
                                        "people.text=Set {{a, b}}: {employment:{company.Name}}.\n");
  g_autoptr (GrammarDocumentGenerator) generator = make_generator (path, NULL);
  g_autoptr (GPtrArray) documents = generate_ok (generator);

  /* {{ and }} are braces; a block without spaces around its body joins
   * its rows with one space and adds none around them */
  assert_document (documents, 1, "people-3", "{Alan Kay}", "Set {a, b}: Acme O'Brien & Sons.",
                   "people", "{\"People_ID\":3}");
}

static void
test_configure_errors (void)
{
  static const struct
  {
    const char *section;
    int code;
    const char *message;
  } cases[] = {
    { "[documents]\ncompany.text={Nmae}\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
      "[documents] company.text: unknown column “Nmae” in table “company” (field {Nmae})" },
    { "[documents]\ncompany.title={Name}\ncompany.text={Name} {people: x}\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
      "[documents] company.text: no foreign key of “people” points to “company”" },
    { "[documents]\ntables=company;note\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
      "[documents] tables: table “note” has no primary key" },
    { "[documents]\ntables=company;nope\n", GRAMMAR_CONFIG_ERROR_BAD_VALUE,
      "[documents] tables: no table “nope” in the database" },
    { "[documents]\nnope.text={Name}\n", GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY,
      "[documents] nope.text: no table “nope” in the database" },
    { "[documents]\ncolour=red\n", GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY,
      "[documents] colour: unknown key; the keys of this section are tables, llm, TABLE.title and TABLE.text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_config ("bad.ini", cases[i].section);
      g_autoptr (GError) error = NULL;
      g_autoptr (GrammarDocumentGenerator) generator = make_generator (path, &error);

      g_assert_null (generator);
      g_assert_error (error, GRAMMAR_CONFIG_ERROR, cases[i].code);
      grammar_test_assert_contains (error->message, path);
      grammar_test_assert_contains (error->message, cases[i].message);
    }
}

/* A language model that writes pages ---------------------------------------------- */

/* Replies on the caller's thread-default context after 0-2 ms, so that
 * replies come out of order; keeps every prompt and how many requests
 * were in flight at most. */
#define TEST_TYPE_PAGE_LLM (test_page_llm_get_type ())
G_DECLARE_FINAL_TYPE (TestPageLlm, test_page_llm, TEST, PAGE_LLM, GObject)

struct _TestPageLlm
{
  GObject parent_instance;

  GPtrArray *prompts;
  GArray *temperatures;
  guint in_flight;
  guint max_in_flight;
  const char *fixed_reply;   /* else the profile is echoed */
  int fail_at;               /* this request fails, -1 for none */
};

static void test_page_llm_iface_init (GrammarLlmInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestPageLlm, test_page_llm, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_LLM, test_page_llm_iface_init))

typedef struct
{
  TestPageLlm *self;
  guint index;
} PageCall;

static gboolean
page_complete (gpointer user_data)
{
  GTask *task = user_data;
  PageCall *call = g_task_get_task_data (task);
  TestPageLlm *self = call->self;
  const char *prompt = g_ptr_array_index (self->prompts, call->index);
  const char *profile = strstr (prompt, "Profile:\n");
  g_autofree char *reply = NULL;
  const char *choices[2] = { NULL, NULL };

  self->in_flight--;
  if ((int) call->index == self->fail_at)
    {
      g_task_return_new_error (task, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "the model is down");
      return G_SOURCE_REMOVE;
    }
  reply = self->fixed_reply != NULL ? g_strdup (self->fixed_reply)
                                    : g_strdup_printf ("# Heading\nPage %u. %s", call->index, profile + 9);
  choices[0] = reply;
  g_task_return_pointer (task, grammar_chat_response_new (choices, "page", 10, 10), g_object_unref);
  return G_SOURCE_REMOVE;
}

static void
test_page_llm_chat_async (GrammarLlm          *llm,
                          GrammarChatRequest  *request,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  TestPageLlm *self = TEST_PAGE_LLM (llm);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  PageCall *call = g_new0 (PageCall, 1);
  g_autoptr (GSource) source = NULL;
  double temperature = grammar_chat_request_get_temperature (request);

  call->self = self;
  call->index = self->prompts->len;
  g_task_set_task_data (task, call, g_free);
  g_assert_cmpuint (grammar_chat_request_get_n_messages (request), ==, 1);
  g_ptr_array_add (self->prompts, g_strdup (grammar_chat_request_get_message_content (request, 0)));
  g_array_append_val (self->temperatures, temperature);
  self->in_flight++;
  self->max_in_flight = MAX (self->max_in_flight, self->in_flight);

  source = g_timeout_source_new (2 - call->index % 3);
  g_source_set_callback (source, page_complete, task, g_object_unref);
  g_source_attach (source, g_main_context_get_thread_default ());
}

static GrammarChatResponse *
test_page_llm_chat_finish (GrammarLlm    *llm,
                           GAsyncResult  *result,
                           GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_page_llm_iface_init (GrammarLlmInterface *iface)
{
  iface->chat_async = test_page_llm_chat_async;
  iface->chat_finish = test_page_llm_chat_finish;
}

static void
test_page_llm_finalize (GObject *object)
{
  TestPageLlm *self = TEST_PAGE_LLM (object);

  g_ptr_array_unref (self->prompts);
  g_array_unref (self->temperatures);
  G_OBJECT_CLASS (test_page_llm_parent_class)->finalize (object);
}

static void
test_page_llm_class_init (TestPageLlmClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_page_llm_finalize;
}

static void
test_page_llm_init (TestPageLlm *self)
{
  self->prompts = g_ptr_array_new_with_free_func (g_free);
  self->temperatures = g_array_new (FALSE, FALSE, sizeof (double));
  self->fail_at = -1;
}

static void
test_llm_pages (void)
{
  g_autofree char *path = write_config ("llm.ini", "[documents]\ntables=company;people\n"
                                        "people.text={Name} ({Nationality}){employment: works for {company.Name}}.\n");
  g_autoptr (GrammarDocumentGenerator) generator = make_generator (path, NULL);
  g_autoptr (TestPageLlm) llm = g_object_new (TEST_TYPE_PAGE_LLM, NULL);
  g_autoptr (GPtrArray) documents = NULL;
  g_auto (GStrv) warnings = NULL;
  const char *prompt;

  grammar_document_generator_set_llm (generator, GRAMMAR_LLM (llm));
  documents = generate_ok (generator);

  /* One request per document, at temperature 0, sent concurrently; the
   * pages come out in row order whatever order the replies came in. */
  g_assert_cmpuint (llm->prompts->len, ==, 6);
  g_assert_cmpuint (documents->len, ==, 6);
  g_assert_cmpuint (llm->max_in_flight, >, 1);
  for (guint i = 0; i < llm->temperatures->len; i++)
    g_assert_cmpfloat (g_array_index (llm->temperatures, double, i), ==, 0.0);

  /* A table without a template: its profile, the rows its foreign keys
   * point to and the rows that point to it. */
  prompt = g_ptr_array_index (llm->prompts, 0);
  grammar_test_assert_contains (prompt, "Wikipedia-style page of 200 to 400 words about the company described by "
                                        "the profile below.\n");
  grammar_test_assert_contains (prompt, "keeping names, numbers and dates exactly as written");
  grammar_test_assert_contains (prompt,
                                "Profile:\ncompany profile\n**Name**: Acme\n**Headquarters**: USA\n"
                                "**Industry**: Retail\n**Sales_in_Billion**: 433.5\nRelated rows:\n"
                                "- employment (Company_ID): Year_working: 3; people (People_ID): Name: Ada Byron; Age: 30; "
                                "Nationality: United Kingdom\n");
  grammar_test_assert_contains (prompt, "- employment (Company_ID): Year_working: 10; people (People_ID): Name: Grace Hopper");
  prompt = g_ptr_array_index (llm->prompts, 1);
  grammar_test_assert_contains (prompt, "**Name**: O'Brien & Sons\n**Headquarters**: Dublin\nIreland\n");
  /* A table with a template: the rendered text is the facts. */
  prompt = g_ptr_array_index (llm->prompts, 4);
  grammar_test_assert_contains (prompt, "about the people described by the profile below");
  grammar_test_assert_contains (prompt,
                                "Profile:\nAlan Kay (United States) works for Acme works for O'Brien & Sons.\n");

  /* The page is the reply without its heading; ids and sources as usual. */
  assert_document (documents, 4, "people-3", "people 3",
                   "Page 4. Alan Kay (United States) works for Acme works for O'Brien & Sons.",
                   "people", "{\"People_ID\":3}");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (g_ptr_array_index (documents, 0), "text"),
                                   "Page 0. company profile\n**Name**: Acme"));
  warnings = grammar_document_generator_dup_warnings (generator);
  g_assert_cmpuint (g_strv_length (warnings), ==, 0);
}

static void
test_llm_missing_facts (void)
{
  g_autofree char *path = write_config ("llm-facts.ini", "[documents]\ntables=people\n");
  g_autoptr (GrammarDocumentGenerator) generator = make_generator (path, NULL);
  g_autoptr (TestPageLlm) llm = g_object_new (TEST_TYPE_PAGE_LLM, NULL);
  g_autoptr (GPtrArray) documents = NULL;
  g_auto (GStrv) warnings = NULL;

  llm->fixed_reply = "Ada Byron, aged 30, is from the United Kingdom.";
  grammar_document_generator_set_llm (generator, GRAMMAR_LLM (llm));
  documents = generate_ok (generator);
  g_assert_cmpuint (documents->len, ==, 3);
  warnings = grammar_document_generator_dup_warnings (generator);
  /* people-1's own facts are there, not those of its employment and mentor rows */
  g_assert_cmpuint (g_strv_length (warnings), ==, 3);
  /* “3” is a whole word, not part of “30” */
  g_assert_cmpstr (warnings[0], ==, "people-1: the page does not state 8 of its 11 facts as written: "
                                    "“3”, “Acme”, “USA”, “Retail”, “433.5”, …");
  grammar_test_assert_contains (warnings[1], "people-3: ");
}

static void
test_llm_failure_keeps_file (void)
{
  g_autofree char *path = write_config ("llm-fail.ini", "[documents]\ntables=company;people\n");
  g_autofree char *output = grammar_test_write_file (tmp_dir, "kept.jsonl", "previous\n");
  g_autoptr (GrammarDocumentGenerator) generator = make_generator (path, NULL);
  g_autoptr (TestPageLlm) llm = g_object_new (TEST_TYPE_PAGE_LLM, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GDir) dir = NULL;
  const char *name;

  llm->fail_at = 3;
  grammar_document_generator_set_llm (generator, GRAMMAR_LLM (llm));
  g_assert_false (grammar_document_generator_generate_to_file (generator, output, NULL, &error));
  g_assert_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "people-1: the model is down");
  g_assert_cmpuint (llm->in_flight, ==, 0);
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "previous\n");
  /* no temporary file is left behind */
  dir = g_dir_open (tmp_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_false (g_str_has_prefix (name, ".kept.jsonl"));
}

/* The command line ------------------------------------------------------------------ */

static void
test_cli (void)
{
  g_autofree char *path = write_config ("cli.ini", templates_section);
  g_autofree char *bad = write_config ("cli-bad.ini", "[documents]\ncompany.text={Name} in {Nmae}\n");
  g_autofree char *output = g_build_filename (tmp_dir, "cli.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *first_line = NULL;
  g_autofree char *unwritten = g_build_filename (tmp_dir, "x.jsonl", NULL);
  g_auto (GStrv) lines = NULL;
  g_auto (GrammarTestRun) run = { 0, };
  g_auto (GrammarTestRun) tables = { 0, };
  g_auto (GrammarTestRun) failed = { 0, };
  g_auto (GrammarTestRun) usage = { 0, };
  g_auto (GrammarTestRun) no_llm = { 0, };

  grammar_test_run (&run, tmp_dir, "docs", "-c", path, "-o", "cli.jsonl", NULL);
  g_assert_cmpint (run.status, ==, 0);
  grammar_test_assert_contains (run.err, "6 documents from 2 tables");
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 7);
  g_assert_cmpstr (lines[6], ==, "");
  g_assert_cmpstr (lines[0], ==,
                   "{\"id\":\"company-1\",\"title\":\"Acme\",\"text\":\"Acme is a company in the Retail industry, "
                   "headquartered in USA. Its sales were 433.5 billion. Ada Byron works there. Alan Kay works there. "
                   "Grace Hopper works there.\",\"source\":{\"table\":\"company\",\"key\":{\"Company_ID\":1}}}");
  grammar_test_assert_contains (lines[1], "\"text\":\"O'Brien & Sons is a company in the Banking industry, "
                                          "headquartered in Dublin\\nIreland.");

  grammar_test_run (&tables, tmp_dir, "docs", "-q", "-c", path, "-o", "cli.jsonl", "--tables", "people", NULL);
  g_assert_cmpint (tables.status, ==, 0);
  g_assert_cmpstr (tables.err, ==, "");
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "{\"id\":\"people-1\","));
  first_line = g_strdup (contents);

  /* An unknown field: exit 2, the key and the field named, the file kept. */
  grammar_test_run (&failed, tmp_dir, "docs", "-c", bad, "-o", "cli.jsonl", NULL);
  g_assert_cmpint (failed.status, ==, 2);
  grammar_test_assert_contains (failed.err,
                                "[documents] company.text: unknown column “Nmae” in table “company” (field {Nmae})");
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, first_line);

  grammar_test_run (&usage, tmp_dir, "docs", "-c", path, "-o", "x.jsonl", "--generator", "poetry", NULL);
  g_assert_cmpint (usage.status, ==, 2);
  grammar_test_assert_contains (usage.err, "unknown generator “poetry”: use template or llm");
  grammar_test_run (&no_llm, tmp_dir, "docs", "-c", path, "-o", "x.jsonl", "--generator", "llm", NULL);
  g_assert_cmpint (no_llm.status, ==, 2);
  grammar_test_assert_contains (no_llm.err, "there is no section [llm]");
  g_assert_false (g_file_test (unwritten, G_FILE_TEST_EXISTS));
}

/* doc_ids in `grammar qa` ------------------------------------------------------------ */

static const char single_sql[] = "SELECT Industry FROM company WHERE Name = '[company.Name]'";
static const char join_sql[] =
  "SELECT p.Name FROM people p JOIN employment e ON e.People_ID = p.People_ID "
  "JOIN company c ON c.Company_ID = e.Company_ID WHERE c.Name = '[company.Name]'";
static const char distinct_sql[] =
  "SELECT DISTINCT p.Nationality FROM people p JOIN employment e ON e.People_ID = p.People_ID "
  "WHERE e.Company_ID = [employment.Company_ID]";
static const char older_sql[] = "SELECT Name FROM people WHERE Age > [people.Age] ORDER BY Name";

static char *
template_id (const char *sql)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GrammarSqlTemplate) sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, &error);

  g_assert_no_error (error);
  return g_strdup (grammar_sql_template_get_id (sql_template));
}

/* text-templates.json with one short text per SQL template. */
static char *
write_text_templates (void)
{
  const char * const sqls[] = { single_sql, join_sql, distinct_sql, older_sql };
  const char * const texts[] = { "Industry of [company.Name]?", "Who works at [company.Name]?",
                                 "Nationalities at [employment.Company_ID]?", "Older than [people.Age]?" };
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "sql_templates");
  json_builder_begin_array (builder);
  for (guint i = 0; i < G_N_ELEMENTS (sqls); i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "sql");
      json_builder_add_string_value (builder, sqls[i]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "text_templates");
  json_builder_begin_array (builder);
  for (guint i = 0; i < G_N_ELEMENTS (sqls); i++)
    {
      g_autofree char *id = template_id (sqls[i]);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "template");
      json_builder_add_string_value (builder, id);
      json_builder_set_member_name (builder, "style");
      json_builder_add_string_value (builder, "short");
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, texts[i]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  return grammar_test_write_file (tmp_dir, "text-templates.json", text);
}

/* "template|first binding value" → "doc_ids joined by spaces", from a dataset. */
static GHashTable *
read_doc_ids (const char *path)
{
  GHashTable *result = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr (JsonNode) node = json_from_string (lines[i], NULL);
      JsonObject *record = json_node_get_object (node);
      JsonObject *bindings = json_object_get_object_member (record, "bindings");
      g_autoptr (GList) members = json_object_get_values (bindings);
      JsonArray *doc_ids = json_object_get_array_member (record, "doc_ids");
      g_autoptr (GString) ids = g_string_new (NULL);
      g_autofree char *value = json_to_string (members->data, FALSE);

      for (guint d = 0; d < json_array_get_length (doc_ids); d++)
        g_string_append_printf (ids, "%s%s", d > 0 ? " " : "", json_array_get_string_element (doc_ids, d));
      g_hash_table_insert (result, g_strdup_printf ("%s|%s", json_object_get_string_member (record, "template"), value),
                           g_strdup (ids->str));
    }
  return result;
}

static void
assert_doc_ids (GHashTable *doc_ids,
                const char *sql,
                const char *value,
                const char *expected)
{
  g_autofree char *id = template_id (sql);
  g_autofree char *key = g_strdup_printf ("%s|%s", id, value);

  if (!g_hash_table_contains (doc_ids, key))
    g_error ("no record for %s", key);
  g_assert_cmpstr (g_hash_table_lookup (doc_ids, key), ==, expected);
}

static void
test_qa_doc_ids (void)
{
  g_autofree char *path = write_config ("qa.ini", NULL);
  g_autofree char *templates = write_text_templates ();
  g_autofree char *dataset = g_build_filename (tmp_dir, "qa.jsonl", NULL);
  g_autofree char *plain = g_build_filename (tmp_dir, "qa-plain.jsonl", NULL);
  g_autoptr (GHashTable) doc_ids = NULL;
  g_autoptr (GHashTable) no_doc_ids = NULL;
  g_auto (GrammarTestRun) docs = { 0, };
  g_auto (GrammarTestRun) qa = { 0, };
  g_auto (GrammarTestRun) qa_plain = { 0, };
  g_auto (GrammarTestRun) qa_missing = { 0, };
  GHashTableIter iter;
  gpointer value;

  grammar_test_run (&docs, tmp_dir, "docs", "-q", "-c", path, "-o", "qa-docs.jsonl", NULL);
  g_assert_cmpint (docs.status, ==, 0);
  grammar_test_run (&qa, tmp_dir, "qa", "-q", "-c", path, "-i", templates, "-o", "qa.jsonl",
                    "--documents", "qa-docs.jsonl", NULL);
  g_assert_cmpint (qa.status, ==, 0);
  doc_ids = read_doc_ids (dataset);

  /* One table: the row it reads. A NULL answer still reads a row. */
  assert_doc_ids (doc_ids, single_sql, "\"Acme\"", "company-1");
  assert_doc_ids (doc_ids, single_sql, "\"O'Brien & Sons\"", "company-2");
  assert_doc_ids (doc_ids, single_sql, "\"Zoë Ångström AB\"", "company-3");
  /* A join: every row of every table it reads, sorted. */
  assert_doc_ids (doc_ids, join_sql, "\"Acme\"",
                  "company-1 employment-1-1 employment-1-3 employment-1-7 people-1 people-3 people-7");
  assert_doc_ids (doc_ids, join_sql, "\"O'Brien & Sons\"", "company-2 employment-2-3 people-3");
  /* SELECT DISTINCT: the rows behind the repeated answer too. */
  assert_doc_ids (doc_ids, distinct_sql, "1",
                  "employment-1-1 employment-1-3 employment-1-7 people-1 people-3 people-7");
  /* A template answered per binding. */
  assert_doc_ids (doc_ids, older_sql, "30", "people-7");
  g_assert_cmpuint (g_hash_table_size (doc_ids), ==, 8);

  /* Without --documents, doc_ids stay empty and the rest is the same. */
  grammar_test_run (&qa_plain, tmp_dir, "qa", "-q", "-c", path, "-i", templates, "-o", "qa-plain.jsonl", NULL);
  g_assert_cmpint (qa_plain.status, ==, 0);
  no_doc_ids = read_doc_ids (plain);
  g_assert_cmpuint (g_hash_table_size (no_doc_ids), ==, 8);
  g_hash_table_iter_init (&iter, no_doc_ids);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_assert_cmpstr (value, ==, "");

  /* A corpus that cannot be read is an input error. */
  grammar_test_run (&qa_missing, tmp_dir, "qa", "-q", "-c", path, "-i", templates, "-o", "qa-missing.jsonl",
                    "--documents", "missing.jsonl", NULL);
  g_assert_cmpint (qa_missing.status, ==, 2);
  grammar_test_assert_contains (qa_missing.err, "missing.jsonl");
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The answers of a dataset with their doc_ids, sorted: what must not
 * depend on the plan. */
static char *
summarize (const char *jsonl)
{
  g_auto (GStrv) lines = g_strsplit (jsonl, "\n", -1);
  g_autoptr (GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr (JsonNode) node = json_from_string (lines[i], NULL);
      JsonObject *record = json_node_get_object (node);
      g_autofree char *answer = json_to_string (json_object_get_member (record, "answer"), FALSE);
      g_autofree char *ids = json_to_string (json_object_get_member (record, "doc_ids"), FALSE);

      g_ptr_array_add (kept, g_strdup_printf ("%s %s %s", json_object_get_string_member (record, "id"), answer, ids));
    }
  g_ptr_array_sort (kept, compare_lines);
  g_ptr_array_add (kept, NULL);
  return g_strjoinv ("\n", (char **) kept->pdata);
}

static char *
generate_dataset (GrammarQaGenerator *generator,
                  GrammarTemplateSet *set)
{
  g_autoptr (GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  grammar_qa_generator_generate (generator, set, stream, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (stream, NULL, NULL));
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
  return summarize (text);
}

static void
test_qa_library_plans_agree (void)
{
  g_autofree char *path = write_config ("plans.ini", NULL);
  g_autofree char *templates = write_text_templates ();
  /* hand-written: a real key, two documents of one row, one without source */
  g_autofree char *corpus = grammar_test_write_file (tmp_dir, "hand.jsonl",
    "{\"id\":\"acme-b\",\"text\":\"Acme, part two\",\"source\":{\"table\":\"COMPANY\",\"key\":{\"company_id\":1.0}}}\n"
    "{\"id\":\"acme-a\",\"text\":\"Acme\",\"source\":{\"table\":\"company\",\"key\":{\"Company_ID\":1}}}\n"
    "{\"id\":\"free\",\"text\":\"No source\"}\n"
    "{\"id\":\"job\",\"text\":\"x\",\"source\":{\"table\":\"employment\",\"key\":{\"People_ID\":3,\"Company_ID\":2}}}\n");
  g_autoptr (GrammarConfig) config = load_config (path);
  g_autoptr (GObject) database = NULL;
  g_autoptr (GrammarSchema) schema = NULL;
  g_autoptr (GrammarTemplateSet) set = grammar_template_set_new ();
  g_autoptr (GrammarQaGenerator) generator = NULL;
  g_autoptr (GPtrArray) documents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) problems = NULL;
  g_autofree char *set_based = NULL;
  g_autofree char *per_binding = NULL;

  database = grammar_config_build (config, "database", GRAMMAR_TYPE_DATABASE, &error);
  g_assert_no_error (error);
  schema = grammar_database_get_schema (GRAMMAR_DATABASE (database), NULL, &error);
  g_assert_no_error (error);
  g_assert_true (grammar_template_set_load (set, templates, GRAMMAR_DATABASE (database), schema, &problems, &error));
  g_assert_no_error (error);
  documents = grammar_document_load_jsonl (corpus, &error);
  g_assert_no_error (error);

  generator = grammar_qa_generator_new (GRAMMAR_DATABASE (database));
  grammar_qa_generator_set_documents (generator, documents);
  g_assert_true (grammar_qa_generator_get_documents (generator) == documents);
  set_based = generate_dataset (generator, set);
  grammar_qa_generator_set_set_based (generator, FALSE);
  per_binding = generate_dataset (generator, set);
  g_assert_cmpstr (set_based, ==, per_binding);

  /* Keys match whatever the case of names and 1 or 1.0; a row may have
   * several documents. */
  grammar_test_assert_contains (set_based, "[[\"Retail\"]] [\"acme-a\",\"acme-b\"]");
  grammar_test_assert_contains (set_based, "[[\"Alan Kay\"]] [\"job\"]");
  grammar_test_assert_contains (set_based, "[[\"Banking\"]] []");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = grammar_test_make_tmp_dir ("test-docs-XXXXXX");
  script_path = grammar_test_write_file (tmp_dir, "fixture.sql", fixture_sql);

  g_test_add_func ("/docs/templates", test_templates);
  g_test_add_func ("/docs/defaults", test_defaults);
  g_test_add_func ("/docs/tables-and-library-api", test_tables_and_library_api);
  g_test_add_func ("/docs/braces", test_braces);
  g_test_add_func ("/docs/configure-errors", test_configure_errors);
  g_test_add_func ("/docs/llm-pages", test_llm_pages);
  g_test_add_func ("/docs/llm-missing-facts", test_llm_missing_facts);
  g_test_add_func ("/docs/llm-failure-keeps-file", test_llm_failure_keeps_file);
  g_test_add_func ("/docs/cli", test_cli);
  g_test_add_func ("/docs/qa-doc-ids", test_qa_doc_ids);
  g_test_add_func ("/docs/qa-plans-agree", test_qa_library_plans_agree);

  status = g_test_run ();

  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  g_free (script_path);
  return status;
}
