/* grammar-py-import.c: reading the files of the Python GRAMMAR tool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-json-private.h"
#include "grammar-error.h"
#include "grammar-py-import.h"
#include "grammar-record.h"
#include "grammar-text-style.h"

/*
 * The Python tool writes, per database:
 *
 * - `SQLTemplateGenerator/sql_templates.json`: an object whose keys are
 *   Python reprs of table tuples, `"('company',)"` or
 *   `"('company', 'people')"`, and whose values are lists of SQL
 *   templates;
 * - `TextTemplateGenerator/<style>.json`: an object mapping the text of
 *   an SQL template to its list of text templates in that style.
 *
 * Both are objects of string lists; the keys tell them apart. Every file
 * is read and classified before anything is added, so that a file of
 * unknown shape changes nothing.
 */

typedef enum
{
  PY_FILE_SQL_TEMPLATES,
  PY_FILE_TEXT_TEMPLATES,
} PyFileKind;

typedef struct
{
  char *path;
  PyFileKind kind;
  JsonParser *parser;
  JsonObject *root;   /* owned by parser */
} PyFile;

static void
py_file_free (gpointer data)
{
  PyFile *file = data;

  g_free (file->path);
  g_clear_object (&file->parser);
  g_free (file);
}

static gboolean
fail (GError     **error,
      const char  *path,
      const char  *reason)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", path, reason);
  return FALSE;
}

/* A Python repr of a tuple: "('a',)" or "('a', 'b')". */
static gboolean
is_tuple_repr (const char *key)
{
  gsize length = strlen (key);

  return length >= 2 && key[0] == '(' && key[length - 1] == ')';
}

static gboolean
is_string_list (JsonNode *node)
{
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (json_node_get_value_type (json_array_get_element (array, i)) != G_TYPE_STRING)
      return FALSE;
  return TRUE;
}

#define KNOWN_SHAPES \
  "expected the Python GRAMMAR tool's SQLTemplateGenerator/sql_templates.json " \
  "(an object of table tuples → lists of SQL) or a TextTemplateGenerator/STYLE.json " \
  "(an object of SQL → lists of text templates)"

/* Which of the two files @root is; anything else is an error naming
 * what is wrong. */
static gboolean
classify (const char  *path,
          JsonNode    *root,
          PyFileKind  *kind,
          GError     **error)
{
  g_autoptr (GList) members = NULL;
  guint n_tuples = 0, n_members = 0;

  if (root == NULL || JSON_NODE_HOLDS_ARRAY (root))
    return fail (error, path, "not a template file of the Python GRAMMAR tool (a JSON array: "
                 "results of its QADataGenerator or evaluation cannot be imported as templates); " KNOWN_SHAPES);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return fail (error, path, "not a template file of the Python GRAMMAR tool; " KNOWN_SHAPES);

  members = json_object_get_members (json_node_get_object (root));
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (json_node_get_object (root), l->data);

      if (!is_string_list (value))
        {
          g_autofree char *reason = g_strdup_printf ("the value of “%s” is not a list of strings; " KNOWN_SHAPES,
                                                     (const char *) l->data);

          return fail (error, path, reason);
        }
      n_tuples += is_tuple_repr (l->data) ? 1 : 0;
      n_members++;
    }

  if (n_tuples > 0 && n_tuples < n_members)
    return fail (error, path, "some keys are table tuples and some are not; " KNOWN_SHAPES);
  *kind = n_tuples > 0 ? PY_FILE_SQL_TEMPLATES : PY_FILE_TEXT_TEMPLATES;
  return TRUE;
}

static PyFile *
read_py_file (const char  *path,
              GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  PyFileKind kind;
  PyFile *file;

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      fail (error, path, local_error->message);
      return NULL;
    }
  if (!grammar_json_check_depth (path, 1, contents, length, error))
    return NULL;
  if (!json_parser_load_from_data (parser, contents, length, &local_error))
    {
      const char *message = local_error->message;

      if (g_str_has_prefix (message, "<data>:"))
        message += strlen ("<data>:");
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s:%s", path, message);
      return NULL;
    }
  if (!classify (path, json_parser_get_root (parser), &kind, error))
    return NULL;

  file = g_new0 (PyFile, 1);
  file->path = g_strdup (path);
  file->kind = kind;
  file->root = json_node_get_object (json_parser_get_root (parser));
  file->parser = g_steal_pointer (&parser);
  return file;
}

/* Importing. */

typedef struct
{
  GrammarTemplateSet *set;
  GrammarDatabase *database;
  GrammarSchema *schema;          /* NULL: parse only */
  GPtrArray *problems;
  GHashTable *invalid;            /* ids of SQL templates left out */
} Importer;

static void
problem (Importer   *importer,
         const char *path,
         const char *format,
         ...) G_GNUC_PRINTF (3, 4);

static void
problem (Importer   *importer,
         const char *path,
         const char *format,
         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (importer->problems, g_strdup_printf ("%s: %s", path, message));
}

/* Adds the SQL template of @sql unless it is there already; returns
 * its id, or %NULL when it is invalid (reported once, and its id, when
 * it has one, in @invalid_id). */
static const char *
import_sql (Importer    *importer,
            const char  *path,
            const char  *sql,
            char       **invalid_id)
{
  g_autoptr (GrammarSqlTemplate) sql_template = NULL;
  g_autoptr (GError) local_error = NULL;
  GrammarSqlTemplate *known;

  /* Parse errors name the template id too. */
  sql_template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_IMPORT, &local_error);
  if (sql_template == NULL)
    {
      problem (importer, path, "template %s", local_error->message);
      return NULL;
    }
  known = grammar_template_set_lookup_sql_template (importer->set, grammar_sql_template_get_id (sql_template));
  if (known != NULL)
    return grammar_sql_template_get_id (known);
  if (!g_hash_table_contains (importer->invalid, grammar_sql_template_get_id (sql_template)) &&
      (importer->schema == NULL ||
       grammar_sql_template_validate (sql_template, importer->database, importer->schema, &local_error)))
    {
      grammar_template_set_add_sql_template (importer->set, sql_template);
      return grammar_sql_template_get_id (sql_template);
    }

  if (local_error != NULL)
    {
      problem (importer, path, "template %s", local_error->message);
      g_hash_table_add (importer->invalid, g_strdup (grammar_sql_template_get_id (sql_template)));
    }
  if (invalid_id != NULL)
    *invalid_id = g_strdup (grammar_sql_template_get_id (sql_template));
  return NULL;
}

static void
import_sql_file (Importer *importer,
                 PyFile   *file)
{
  g_autoptr (GList) members = json_object_get_members (file->root);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonArray *sqls = json_object_get_array_member (file->root, l->data);

      for (guint i = 0; i < json_array_get_length (sqls); i++)
        import_sql (importer, file->path, json_array_get_string_element (sqls, i), NULL);
    }
}

static void
import_text (Importer   *importer,
             PyFile     *file,
             const char *id,
             const char *style,
             const char *text)
{
  g_autoptr (GrammarTextTemplate) text_template = grammar_text_template_new (id, style, text);
  g_autoptr (GError) local_error = NULL;
  GrammarSqlTemplate *sql_template = grammar_template_set_lookup_sql_template (importer->set, id);

  if (!grammar_text_template_check_placeholders (text_template, sql_template, &local_error))
    problem (importer, file->path, "template %s", local_error->message);
  else
    grammar_template_set_add_text_template (importer->set, text_template);  /* a repeated text is kept once */
}

static void
import_text_file (Importer   *importer,
                  PyFile     *file,
                  const char *style)
{
  g_autoptr (GList) members = json_object_get_members (file->root);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonArray *texts = json_object_get_array_member (file->root, l->data);
      g_autofree char *invalid_id = NULL;
      const char *id = import_sql (importer, file->path, l->data, &invalid_id);

      if (id == NULL)
        {
          if (invalid_id != NULL && json_array_get_length (texts) > 0)
            problem (importer, file->path, "template %s: its %u text template(s) are left out with it",
                     invalid_id, json_array_get_length (texts));
          continue;
        }
      for (guint i = 0; i < json_array_get_length (texts); i++)
        import_text (importer, file, id, style, json_array_get_string_element (texts, i));
    }
}

/* short.json → short */
static char *
style_of (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  return g_steal_pointer (&base);
}

static GPtrArray *
read_all (const char * const  *paths,
          GError             **error)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (py_file_free);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      PyFile *file = read_py_file (paths[i], error);

      if (file == NULL)
        return NULL;
      g_ptr_array_add (files, file);
    }
  return g_steal_pointer (&files);
}

/**
 * grammar_py_import_templates:
 * @set: the set the templates are added to
 * @paths: (array zero-terminated=1) (element-type filename): files of the
 *   Python GRAMMAR tool, of either kind, in any order
 * @style: (nullable): the style of every text template file, or %NULL to
 *   take it from each file's name (`short.json` → `short`)
 * @database: (nullable): the database to validate the SQL templates against
 * @schema: (nullable): its schema, or %NULL to read it from @database
 * @problems: (out) (optional) (transfer full) (array zero-terminated=1):
 *   what was left out, one line each (`FILE: template ID: reason`);
 *   empty when everything was imported
 * @error: return location for a #GError
 *
 * Imports the template files of the Python GRAMMAR tool: its
 * `SQLTemplateGenerator/sql_templates.json`, whose keys are Python table
 * tuples (`"('company', 'people')"`) and whose values are lists of SQL
 * templates, and its `TextTemplateGenerator/STYLE.json` files, which map
 * the text of an SQL template to its text templates in one style. The kind
 * of each file is told from its content.
 *
 * SQL templates are added first, from all SQL template files in order,
 * with origin %GRAMMAR_TEMPLATE_ORIGIN_IMPORT; then the text templates,
 * each matched to its SQL template by id, that is by the SQL up to
 * whitespace and trailing semicolons. An SQL text that is only a key of a
 * text template file is added as an SQL template too. With a database
 * or schema, SQL templates are validated (grammar_sql_template_validate())
 * and invalid ones left out with their text templates; text templates
 * whose placeholders differ from their SQL template's are always left
 * out. What is left out is listed in @problems; a text repeated in a list
 * is kept once.
 *
 * Returns: %TRUE when every file was read; %FALSE with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error naming the file when one cannot
 *   be read, is not JSON or is of neither shape — @set is then unchanged
 */
gboolean
grammar_py_import_templates (GrammarTemplateSet  *set,
                             const char * const  *paths,
                             const char          *style,
                             GrammarDatabase     *database,
                             GrammarSchema       *schema,
                             GStrv               *problems,
                             GError             **error)
{
  g_autoptr (GPtrArray) files = NULL;
  Importer importer = { set, database, NULL, };

  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (set), FALSE);
  g_return_val_if_fail (paths != NULL, FALSE);
  g_return_val_if_fail (database == NULL || GRAMMAR_IS_DATABASE (database), FALSE);
  g_return_val_if_fail (schema == NULL || GRAMMAR_IS_SCHEMA (schema), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  files = read_all (paths, error);
  if (files == NULL)
    return FALSE;
  if (schema != NULL)
    importer.schema = g_object_ref (schema);
  else if (database != NULL && (importer.schema = grammar_database_get_schema (database, NULL, error)) == NULL)
    return FALSE;

  importer.problems = g_ptr_array_new_with_free_func (g_free);
  importer.invalid = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < files->len; i++)
    {
      PyFile *file = g_ptr_array_index (files, i);

      if (file->kind == PY_FILE_SQL_TEMPLATES)
        import_sql_file (&importer, file);
    }
  for (guint i = 0; i < files->len; i++)
    {
      PyFile *file = g_ptr_array_index (files, i);
      g_autofree char *file_style = style != NULL ? g_strdup (style) : style_of (file->path);
      g_autoptr (GError) style_error = NULL;

      if (file->kind != PY_FILE_TEXT_TEMPLATES)
        continue;
      /* `grammar qa` refuses a style no verbalizer knows: say so here,
       * where the style comes from. */
      if (json_object_get_size (file->root) > 0 && !grammar_text_style_check (file_style, &style_error))
        problem (&importer, file->path, "%s%s", style_error->message,
                 style != NULL ? "" : " (the style is the file's name: give it with --style)");
      else
        import_text_file (&importer, file, file_style);
    }

  if (problems != NULL)
    {
      g_ptr_array_add (importer.problems, NULL);
      *problems = (GStrv) g_ptr_array_steal (importer.problems, NULL);
    }
  g_ptr_array_unref (importer.problems);
  g_hash_table_unref (importer.invalid);
  g_clear_object (&importer.schema);
  return TRUE;
}

/* Results of the Python tool's evaluation (`eval_results/results_STYLE_….json`):
 * a JSON array of objects with `query`, `answer`, `gpt_response`,
 * `judgement`, `query_tag`, `retrieval_judgement`, document ids, … */

static gboolean
fail_item (GError     **error,
           const char  *path,
           guint        index,
           const char  *format,
           ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail_item (GError     **error,
           const char  *path,
           guint        index,
           const char  *format,
           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: item %u: %s", path, index, message);
  return FALSE;
}

/* `results_short_balanced.json` → `short` */
static char *
results_style_of (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  gsize length;

  if (!g_str_has_prefix (base, "results_"))
    return NULL;
  length = strcspn (base + strlen ("results_"), "_.");
  return length > 0 ? g_strndup (base + strlen ("results_"), length) : NULL;
}

static JsonNode *
scalar_copy (JsonNode *node)
{
  return json_node_copy (node);
}

/* A number or a string, as the string GRAMMAR keeps ids as. */
static char *
id_string (JsonNode *node)
{
  return grammar_json_node_dup_id (node);
}

/* `answer`: one value, or a list of values (one row each). */
static JsonNode *
answer_rows (JsonNode *answer)
{
  g_autoptr (JsonArray) rows = json_array_new ();
  JsonNode *node;

  if (JSON_NODE_HOLDS_ARRAY (answer))
    {
      JsonArray *values = json_node_get_array (answer);

      for (guint i = 0; i < json_array_get_length (values); i++)
        {
          JsonNode *value = json_array_get_element (values, i);

          if (JSON_NODE_HOLDS_ARRAY (value))
            json_array_add_element (rows, scalar_copy (value));
          else
            {
              JsonArray *row = json_array_new ();

              json_array_add_element (row, scalar_copy (value));
              json_array_add_array_element (rows, row);
            }
        }
    }
  else
    {
      JsonArray *row = json_array_new ();

      json_array_add_element (row, scalar_copy (answer));
      json_array_add_array_element (rows, row);
    }
  node = json_node_new (JSON_NODE_ARRAY);
  json_node_set_array (node, rows);
  return node;
}

static gboolean
string_list (JsonObject  *item,
             const char  *name,
             const char  *path,
             guint        index,
             JsonArray  **list,
             GError     **error)
{
  JsonNode *node = json_object_get_member (item, name);
  JsonArray *array;

  *list = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail_item (error, path, index, "“%s” must be a list of document ids", name);
  array = json_node_get_array (node);
  *list = json_array_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *id = id_string (json_array_get_element (array, i));

      if (id == NULL)
        {
          g_clear_pointer (list, json_array_unref);
          return fail_item (error, path, index, "“%s” must be a list of document ids", name);
        }
      json_array_add_string_element (*list, id);
    }
  return TRUE;
}

static gboolean
add_response (JsonObject  *record,
              JsonObject  *item,
              const char  *path,
              guint        index,
              GError     **error)
{
  JsonNode *node = json_object_get_member (item, "gpt_response");

  if (node == NULL)
    return TRUE;
  /* The tool keeps the choices of the chat completion: the first one is
   * the response. */
  if (JSON_NODE_HOLDS_ARRAY (node))
    node = json_array_get_length (json_node_get_array (node)) > 0
      ? json_array_get_element (json_node_get_array (node), 0) : NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    json_object_set_null_member (record, "response");
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    json_object_set_string_member (record, "response", json_node_get_string (node));
  else
    return fail_item (error, path, index, "“gpt_response” must be a string, a list of strings or null");
  return TRUE;
}

static gboolean
add_verdict (JsonObject  *record,
             JsonObject  *item,
             const char  *path,
             guint        index,
             GError     **error)
{
  JsonNode *node = json_object_get_member (item, "judgement");
  JsonObject *judge = json_object_new ();
  const char *verdict = "unmeasured";

  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      const char *text = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
                         ? json_node_get_string (node) : NULL;

      if (text != NULL && g_ascii_strcasecmp (text, "Correct") == 0)
        verdict = "correct";
      else if (text != NULL && g_ascii_strcasecmp (text, "Incorrect") == 0)
        verdict = "incorrect";
      else
        {
          json_object_unref (judge);
          return fail_item (error, path, index, "unknown judgement “%s” (expected Correct or Incorrect)",
                            text != NULL ? text : "(not a string)");
        }
    }
  json_object_set_string_member (record, "verdict", verdict);
  json_object_set_string_member (judge, "matcher", "grammar-py");
  json_object_set_double_member (judge, "score", g_str_equal (verdict, "correct") ? 1.0 : 0.0);
  json_object_set_string_member (judge, "reason", g_str_equal (verdict, "unmeasured")
                                 ? "no judgement in the imported file" : "imported judgement");
  json_object_set_object_member (record, "judge", judge);
  return TRUE;
}

static gboolean
add_retrieval (JsonObject  *record,
               JsonObject  *item,
               const char  *path,
               guint        index,
               GError     **error)
{
  JsonNode *node = json_object_get_member (item, "retrieval_judgement");
  double number;
  GType type;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (grammar_json_node_get_real (node, &number) && (number == 1.0 || number == 0.0))
    json_object_set_string_member (record, "retrieval", number == 1.0 ? "correct" : "incorrect");
  else if (type == G_TYPE_BOOLEAN)
    json_object_set_string_member (record, "retrieval", json_node_get_boolean (node) ? "correct" : "incorrect");
  else
    return fail_item (error, path, index, "“retrieval_judgement” must be 1, 0 or null");
  return TRUE;
}

/* The members the import reads; all others are kept as they are. */
static const char * const read_members[] = {
  "query", "answer", "gpt_response", "judgement", "query_tag", "true_document_ids",
  "retrieved_document_ids", "retrieval_judgement", NULL
};

/* Makes the JSON of one record, in GRAMMAR's member order. */
static JsonNode *
result_to_record (JsonObject  *item,
                  const char  *path,
                  guint        index,
                  const char  *style,
                  const char  *prefix,
                  GError     **error)
{
  g_autoptr (JsonObject) record = json_object_new ();
  g_autoptr (JsonArray) doc_ids = NULL;
  g_autoptr (JsonArray) retrieved_ids = NULL;
  g_autoptr (GList) members = NULL;
  g_autofree char *id = g_strdup_printf ("%s-%u", prefix, index);
  JsonNode *node;
  JsonNode *root;

  json_object_set_string_member (record, "id", id);

  node = json_object_get_member (item, "query_tag");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      g_autofree char *tag = id_string (node);
      g_autofree char *group = NULL;

      if (tag == NULL)
        {
          fail_item (error, path, index, "“query_tag” must be a number or a string");
          return NULL;
        }
      group = g_strdup_printf ("q%s", tag);
      json_object_set_string_member (record, "group", group);
    }
  if (style != NULL)
    json_object_set_string_member (record, "style", style);

  node = json_object_get_member (item, "query");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          fail_item (error, path, index, "“query” must be a string");
          return NULL;
        }
      json_object_set_string_member (record, "text", json_node_get_string (node));
    }

  node = json_object_get_member (item, "answer");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      /* an object, but for a number kept as written (154.80) */
      if (JSON_NODE_HOLDS_OBJECT (node) && grammar_json_node_get_number_text (node) == NULL)
        {
          fail_item (error, path, index, "“answer” must be a value or a list of values");
          return NULL;
        }
      json_object_set_member (record, "answer", answer_rows (node));
    }

  if (!string_list (item, "true_document_ids", path, index, &doc_ids, error) ||
      !string_list (item, "retrieved_document_ids", path, index, &retrieved_ids, error))
    return NULL;
  if (doc_ids != NULL)
    json_object_set_array_member (record, "doc_ids", g_steal_pointer (&doc_ids));

  if (!add_response (record, item, path, index, error))
    return NULL;
  if (retrieved_ids != NULL)
    {
      JsonArray *hits = json_array_new ();

      for (guint i = 0; i < json_array_get_length (retrieved_ids); i++)
        {
          JsonObject *hit = json_object_new ();

          json_object_set_string_member (hit, "id", json_array_get_string_element (retrieved_ids, i));
          json_object_set_double_member (hit, "score", 0.0);
          json_array_add_object_element (hits, hit);
        }
      json_object_set_array_member (record, "retrieved", hits);
    }

  if (!add_verdict (record, item, path, index, error) ||
      !add_retrieval (record, item, path, index, error))
    return NULL;

  /* closed_domain, retrieved_documents and anything else the tool wrote */
  members = json_object_get_members (item);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (read_members, l->data) && !json_object_has_member (record, l->data))
      json_object_set_member (record, l->data, json_node_copy (json_object_get_member (item, l->data)));

  root = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (root, record);
  return root;
}

static gboolean
import_results_file (const char  *path,
                     const char  *style,
                     GHashTable  *ids,
                     GPtrArray   *records,
                     GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GMappedFile) mapped = NULL;
  const char *text;
  gsize length;
  g_autofree char *file_style = style != NULL ? g_strdup (style) : results_style_of (path);
  g_autofree char *prefix = file_style != NULL ? g_strdup (file_style) : style_of (path);
  JsonNode *root;
  JsonArray *items;

  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    return fail (error, path, local_error->message);
  text = g_mapped_file_get_contents (mapped);
  length = g_mapped_file_get_length (mapped);
  if (!grammar_json_check_depth (path, 1, text, length, error))
    return FALSE;
  /* The answers' numbers as written: 154.80 stays 154.80. */
  if (!grammar_json_parser_load (parser, text, length, &local_error))
    {
      const char *message = local_error->message;

      if (g_str_has_prefix (message, "<data>"))
        message += strlen ("<data>");
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s%s%s", path,
                   *message == ':' ? "" : ": ", message);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return fail (error, path, "not an evaluation results file of the Python GRAMMAR tool (expected a JSON array "
                 "of objects with “query”, “judgement”, “query_tag”, …)");

  items = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonNode *item = json_array_get_element (items, i);
      g_autoptr (JsonNode) node = NULL;
      g_autoptr (GrammarRecord) record = NULL;
      const char *other;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        return fail_item (error, path, i, "not a JSON object");
      node = result_to_record (json_node_get_object (item), path, i, file_style, prefix, error);
      if (node == NULL)
        return FALSE;
      record = grammar_record_new_from_json (node, &local_error);
      if (record == NULL)
        return fail_item (error, path, i, "%s", local_error->message);

      other = g_hash_table_lookup (ids, grammar_record_get_id (record));
      if (other != NULL)
        return fail_item (error, path, i, "its id “%s” is also made from %s: import files of the same style "
                          "apart, or give each its --style", grammar_record_get_id (record), other);
      g_hash_table_insert (ids, g_strdup (grammar_record_get_id (record)), (gpointer) path);
      g_ptr_array_add (records, g_steal_pointer (&record));
    }
  return TRUE;
}

/**
 * grammar_py_import_results:
 * @paths: (array zero-terminated=1) (element-type filename): evaluation
 *   results of the Python GRAMMAR tool (`eval_results/results_STYLE_….json`)
 * @style: (nullable): the style of every record, or %NULL to take it from
 *   each file's name (`results_short_balanced.json` → `short`; none when
 *   the name is not `results_STYLE…`)
 * @records: (out) (transfer full) (element-type GrammarRecord): the
 *   judged records, in file order
 * @error: return location for a #GError
 *
 * Imports the evaluation results of the Python GRAMMAR tool as judged
 * records, ready for grammar_evaluation_new(). Each item of the JSON
 * array becomes a record with `id` `STYLE-INDEX` (the file name's stem
 * when there is no style), `group` `q` + `query_tag`, `text` from `query`,
 * `answer` from `answer` (one row per value of a list), `doc_ids` from
 * `true_document_ids`, `response` from `gpt_response` (its first element
 * when a list), `retrieved` from `retrieved_document_ids` (score 0),
 * `verdict` from `judgement` (Correct or Incorrect, any case; unmeasured
 * when missing or null), `retrieval` from `retrieval_judgement` (1 or 0;
 * unset when missing) and `judge` `{"matcher": "grammar-py", "score": 1
 * or 0, "reason": "imported judgement"}`. Other members, such as
 * `closed_domain` and `retrieved_documents`, are kept as they are.
 *
 * Returns: %TRUE on success; %FALSE with a %GRAMMAR_ERROR_INVALID_INPUT
 *   error naming the file (and the item, counted from 0) when a file
 *   cannot be read, is not such a file, has an unknown judgement, or two
 *   items get the same id
 */
gboolean
grammar_py_import_results (const char * const  *paths,
                           const char          *style,
                           GPtrArray          **records,
                           GError             **error)
{
  g_autoptr (GPtrArray) imported = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (paths != NULL, FALSE);
  g_return_val_if_fail (records != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; paths[i] != NULL; i++)
    if (!import_results_file (paths[i], style, ids, imported, error))
      return FALSE;
  *records = g_steal_pointer (&imported);
  return TRUE;
}
