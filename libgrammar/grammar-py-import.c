/* grammar-py-import.c: reading the files of the Python GRAMMAR tool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-error.h"
#include "grammar-py-import.h"

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

      if (file->kind == PY_FILE_TEXT_TEMPLATES)
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
