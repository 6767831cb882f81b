/* grammar-template-set.c: SQL templates and their text forms, as files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-json-private.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-text-style.h"
#include "grammar-template-set.h"

/**
 * GrammarTemplateSet:
 *
 * SQL templates, unique by id and in the order they were added, and
 * text templates that refer to them. It reads and writes the two files
 * of the data-generation stages:
 *
 * - `sql-templates.json`: a JSON array of SQL templates
 *   (grammar_sql_template_to_json()), which people edit by hand — a
 *   hand-added `{"sql": "…"}` is enough;
 * - `text-templates.json`: `{"sql_templates": […], "text_templates":
 *   [{"template", "style", "text"}, …]}`, all that QA generation needs.
 *
 * Loading keeps the valid templates and lists every invalid one with
 * the reason, so that the save → edit → reload loop never loses the good
 * part of a file.
 */
struct _GrammarTemplateSet
{
  GObject parent_instance;

  GPtrArray *sql_templates;    /* GrammarSqlTemplate */
  GHashTable *sql_by_id;       /* id (owned by the template) → GrammarSqlTemplate */
  GPtrArray *text_templates;   /* GrammarTextTemplate */
  GHashTable *text_keys;       /* "id\nstyle\ntext" */
};

G_DEFINE_FINAL_TYPE (GrammarTemplateSet, grammar_template_set, G_TYPE_OBJECT)

static void
grammar_template_set_finalize (GObject *object)
{
  GrammarTemplateSet *self = GRAMMAR_TEMPLATE_SET (object);

  g_hash_table_unref (self->sql_by_id);
  g_ptr_array_unref (self->sql_templates);
  g_hash_table_unref (self->text_keys);
  g_ptr_array_unref (self->text_templates);

  G_OBJECT_CLASS (grammar_template_set_parent_class)->finalize (object);
}

static void
grammar_template_set_class_init (GrammarTemplateSetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_template_set_finalize;
}

static void
grammar_template_set_init (GrammarTemplateSet *self)
{
  self->sql_templates = g_ptr_array_new_with_free_func (g_object_unref);
  self->sql_by_id = g_hash_table_new (g_str_hash, g_str_equal);
  self->text_templates = g_ptr_array_new_with_free_func (g_object_unref);
  self->text_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * grammar_template_set_new:
 *
 * Returns: (transfer full): an empty #GrammarTemplateSet
 */
GrammarTemplateSet *
grammar_template_set_new (void)
{
  return g_object_new (GRAMMAR_TYPE_TEMPLATE_SET, NULL);
}

/**
 * grammar_template_set_add_sql_template:
 * @self: a #GrammarTemplateSet
 * @sql_template: an SQL template
 *
 * Appends an SQL template, unless one with the same id (the same SQL up
 * to whitespace) is there already.
 *
 * Returns: %TRUE when added, %FALSE for a duplicate
 */
gboolean
grammar_template_set_add_sql_template (GrammarTemplateSet *self,
                                       GrammarSqlTemplate *sql_template)
{
  const char *id;

  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), FALSE);

  id = grammar_sql_template_get_id (sql_template);
  if (g_hash_table_contains (self->sql_by_id, id))
    return FALSE;
  g_ptr_array_add (self->sql_templates, g_object_ref (sql_template));
  g_hash_table_insert (self->sql_by_id, (gpointer) id, sql_template);
  return TRUE;
}

static char *
text_key (GrammarTextTemplate *text_template)
{
  return g_strjoin ("\n", grammar_text_template_get_template_id (text_template),
                    grammar_text_template_get_style (text_template),
                    grammar_text_template_get_text (text_template), NULL);
}

/**
 * grammar_template_set_add_text_template:
 * @self: a #GrammarTemplateSet
 * @text_template: a text template
 *
 * Appends a text template. Its SQL template must be in the set already;
 * an entry with the same template, style and text is not added twice.
 * The placeholders are not checked here: see
 * grammar_text_template_check_placeholders().
 *
 * Returns: %TRUE when added; %FALSE when its SQL template is unknown or
 *   the same entry is there already
 */
gboolean
grammar_template_set_add_text_template (GrammarTemplateSet  *self,
                                        GrammarTextTemplate *text_template)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_TEXT_TEMPLATE (text_template), FALSE);

  if (!g_hash_table_contains (self->sql_by_id, grammar_text_template_get_template_id (text_template)))
    return FALSE;
  key = text_key (text_template);
  if (!g_hash_table_add (self->text_keys, g_steal_pointer (&key)))
    return FALSE;
  g_ptr_array_add (self->text_templates, g_object_ref (text_template));
  return TRUE;
}

/**
 * grammar_template_set_get_sql_templates:
 * @self: a #GrammarTemplateSet
 *
 * Returns: (transfer none) (element-type GrammarSqlTemplate): the SQL templates, in order
 */
GPtrArray *
grammar_template_set_get_sql_templates (GrammarTemplateSet *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), NULL);
  return self->sql_templates;
}

/**
 * grammar_template_set_lookup_sql_template:
 * @self: a #GrammarTemplateSet
 * @id: a template id
 *
 * Returns: (transfer none) (nullable): the SQL template of that id, or %NULL
 */
GrammarSqlTemplate *
grammar_template_set_lookup_sql_template (GrammarTemplateSet *self,
                                          const char         *id)
{
  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);
  return g_hash_table_lookup (self->sql_by_id, id);
}

/**
 * grammar_template_set_get_text_templates:
 * @self: a #GrammarTemplateSet
 *
 * Returns: (transfer none) (element-type GrammarTextTemplate): the text templates, in order
 */
GPtrArray *
grammar_template_set_get_text_templates (GrammarTemplateSet *self)
{
  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), NULL);
  return self->text_templates;
}

/**
 * grammar_template_set_get_text_templates_for:
 * @self: a #GrammarTemplateSet
 * @template_id: an SQL template id
 * @style: (nullable): a style, or %NULL for every style
 *
 * The text templates of one SQL template, in order. The array is new;
 * its elements belong to the set.
 *
 * Returns: (transfer container) (element-type GrammarTextTemplate): the text templates
 */
GPtrArray *
grammar_template_set_get_text_templates_for (GrammarTemplateSet *self,
                                             const char         *template_id,
                                             const char         *style)
{
  GPtrArray *matching;

  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), NULL);
  g_return_val_if_fail (template_id != NULL, NULL);

  matching = g_ptr_array_new ();
  for (guint i = 0; i < self->text_templates->len; i++)
    {
      GrammarTextTemplate *text_template = g_ptr_array_index (self->text_templates, i);

      if (g_str_equal (grammar_text_template_get_template_id (text_template), template_id) &&
          (style == NULL || g_str_equal (grammar_text_template_get_style (text_template), style)))
        g_ptr_array_add (matching, text_template);
    }
  return matching;
}

/**
 * grammar_template_set_dup_styles:
 * @self: a #GrammarTemplateSet
 *
 * Returns: (transfer full): the styles of the text templates, each once, in order of first appearance
 */
GStrv
grammar_template_set_dup_styles (GrammarTemplateSet *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), NULL);

  for (guint i = 0; i < self->text_templates->len; i++)
    {
      const char *style = grammar_text_template_get_style (g_ptr_array_index (self->text_templates, i));

      if (g_hash_table_add (seen, (gpointer) style))
        g_strv_builder_add (builder, style);
    }
  return g_strv_builder_end (builder);
}

/* Loading. */

typedef struct
{
  GrammarTemplateSet *self;
  const char *path;
  GrammarDatabase *database;
  GrammarSchema *schema;        /* NULL: parse only */
  GPtrArray *problems;          /* char * */
  GHashTable *renamed;          /* id written in the file → id of the SQL as it is now */
  GHashTable *dropped;          /* id of an invalid SQL template → number of its text templates */
  GPtrArray *dropped_order;     /* those ids, in order */
} Loader;

static void
problem (Loader     *loader,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static void
problem (Loader     *loader,
         const char *format,
         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (loader->problems, g_strdup_printf ("%s: %s", loader->path, message));
}

/* Whether @message starts with a template id, `s` and 12 hex digits. */
static gboolean
names_template (const char *message)
{
  if (message[0] != 's')
    return FALSE;
  for (guint i = 1; i <= 12; i++)
    if (!g_ascii_isxdigit (message[i]) || g_ascii_isupper (message[i]))
      return FALSE;
  return message[13] == ':';
}

/* "template ID: reason" when the message names the template, else
 * "WHERE: reason". */
static void
template_problem (Loader       *loader,
                  const char   *where,
                  const GError *error)
{
  if (names_template (error->message))
    problem (loader, "template %s", error->message);
  else
    problem (loader, "%s: %s", where, error->message);
}

static void
note_dropped (Loader     *loader,
              const char *id)
{
  if (!g_hash_table_contains (loader->dropped, id))
    {
      g_ptr_array_add (loader->dropped_order, g_strdup (id));
      g_hash_table_insert (loader->dropped, g_strdup (id), GUINT_TO_POINTER (0));
    }
}

static const char *
written_id (JsonNode *node)
{
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  JsonNode *id = object != NULL ? json_object_get_member (object, "id") : NULL;

  if (id == NULL || json_node_get_value_type (id) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (id);
}

static void
load_sql_template (Loader     *loader,
                   JsonNode   *node,
                   const char *where)
{
  g_autoptr (GrammarSqlTemplate) sql_template = NULL;
  g_autoptr (GError) local_error = NULL;
  const char *old_id = written_id (node);
  const char *id;

  sql_template = grammar_sql_template_new_from_json (node, &local_error);
  if (sql_template == NULL)
    {
      template_problem (loader, where, local_error);
      if (old_id != NULL)
        note_dropped (loader, old_id);
      return;
    }

  /* A user who edited the SQL left its old id on the text templates. */
  id = grammar_sql_template_get_id (sql_template);
  if (old_id != NULL && !g_str_equal (old_id, id))
    g_hash_table_insert (loader->renamed, g_strdup (old_id), g_strdup (id));

  if (loader->schema != NULL &&
      !grammar_sql_template_validate (sql_template, loader->database, loader->schema, &local_error))
    {
      template_problem (loader, where, local_error);
      note_dropped (loader, id);
      return;
    }
  if (!grammar_template_set_add_sql_template (loader->self, sql_template))
    problem (loader, "template %s: the same SQL (up to whitespace) as an earlier template; kept once", id);
}

static void
load_text_template (Loader     *loader,
                    JsonNode   *node,
                    const char *where)
{
  g_autoptr (GrammarTextTemplate) text_template = NULL;
  g_autoptr (GError) local_error = NULL;
  GrammarSqlTemplate *sql_template;
  const char *id, *renamed;
  gpointer count;

  text_template = grammar_text_template_new_from_json (node, &local_error);
  if (text_template == NULL)
    {
      problem (loader, "%s: %s", where, local_error->message);
      return;
    }

  id = grammar_text_template_get_template_id (text_template);
  /* A style no verbalizer knows (a typo such as "shouty") would give
   * records of a style that no report compares. */
  if (!grammar_text_style_check (grammar_text_template_get_style (text_template), &local_error))
    {
      problem (loader, "%s: template %s: %s", where, id, local_error->message);
      return;
    }
  renamed = g_hash_table_lookup (loader->renamed, id);
  if (renamed != NULL)
    {
      g_autoptr (GrammarTextTemplate) moved =
        grammar_text_template_new (renamed, grammar_text_template_get_style (text_template),
                                   grammar_text_template_get_text (text_template));

      g_set_object (&text_template, moved);
      id = renamed;
    }

  if (g_hash_table_lookup_extended (loader->dropped, id, NULL, &count))
    {
      g_hash_table_insert (loader->dropped, g_strdup (id), GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
      return;
    }
  sql_template = grammar_template_set_lookup_sql_template (loader->self, id);
  if (sql_template == NULL)
    {
      problem (loader, "%s: unknown SQL template “%s”", where, id);
      return;
    }
  if (!grammar_text_template_check_placeholders (text_template, sql_template, &local_error))
    {
      problem (loader, "template %s", local_error->message);
      return;
    }
  if (!grammar_template_set_add_text_template (loader->self, text_template))
    problem (loader, "template %s: text template “%s” (style %s) appears twice; kept once",
             id, grammar_text_template_get_text (text_template), grammar_text_template_get_style (text_template));
}

static void
report_dropped_texts (Loader *loader)
{
  for (guint i = 0; i < loader->dropped_order->len; i++)
    {
      const char *id = g_ptr_array_index (loader->dropped_order, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (loader->dropped, id));

      if (count > 0)
        problem (loader, "template %s: its %u text template(s) are dropped with it", id, count);
    }
}

static void
load_array (Loader     *loader,
            JsonArray  *array,
            const char *name,
            void      (*load_one) (Loader *, JsonNode *, const char *))
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *where = g_strdup_printf ("%s[%u]", name, i);

      load_one (loader, json_array_get_element (array, i), where);
    }
}

static JsonArray *
get_array_member (JsonObject *object,
                  const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static gboolean
load_root (Loader    *loader,
           JsonNode  *root,
           GError   **error)
{
  JsonArray *sql_templates = NULL, *text_templates = NULL;

  if (root != NULL && JSON_NODE_HOLDS_ARRAY (root))
    {
      load_array (loader, json_node_get_array (root), "templates", load_sql_template);
      return TRUE;
    }
  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    {
      JsonObject *object = json_node_get_object (root);

      sql_templates = get_array_member (object, "sql_templates");
      text_templates = get_array_member (object, "text_templates");
      if (sql_templates != NULL &&
          (text_templates != NULL || !json_object_has_member (object, "text_templates")))
        {
          load_array (loader, sql_templates, "sql_templates", load_sql_template);
          if (text_templates != NULL)
            load_array (loader, text_templates, "text_templates", load_text_template);
          report_dropped_texts (loader);
          return TRUE;
        }
    }

  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
               "%s: not a template file: expected a JSON array of SQL templates (sql-templates.json) "
               "or an object with “sql_templates” and “text_templates” arrays (text-templates.json)",
               loader->path);
  return FALSE;
}

static JsonParser *
parse_file (const char  *path,
            GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s", local_error->message);
      return NULL;
    }
  if (!grammar_json_check_depth (path, 1, contents, length, error))
    return NULL;
  /* json-glib names in-memory data `<data>`; the position is what matters. */
  if (!json_parser_load_from_data (parser, contents, length, &local_error))
    {
      const char *message = local_error->message;

      if (g_str_has_prefix (message, "<data>:"))
        message += strlen ("<data>:");
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s:%s", path, message);
      return NULL;
    }
  return g_steal_pointer (&parser);
}

static void
loader_clear (Loader *loader)
{
  g_ptr_array_unref (loader->problems);
  g_hash_table_unref (loader->renamed);
  g_hash_table_unref (loader->dropped);
  g_ptr_array_unref (loader->dropped_order);
  g_clear_object (&loader->schema);
}

/**
 * grammar_template_set_load:
 * @self: a #GrammarTemplateSet
 * @path: (type filename): a `sql-templates.json` or `text-templates.json` file
 * @database: (nullable): the database to validate the SQL templates against
 * @schema: (nullable): its schema, or %NULL to read it from @database
 * @problems: (out) (optional) (transfer full) (array zero-terminated=1): the
 *   templates left out, one line each, `FILE: template ID: reason` (or
 *   `FILE: templates[3]: reason` for an entry without SQL); empty when all
 *   were kept
 * @error: return location for a #GError
 *
 * Adds the templates of a file, whichever of the two formats it is. Every
 * SQL template is validated (grammar_sql_template_validate()) when a
 * database or schema is given — without them only parsing is done — and
 * every text template's placeholders are checked against its SQL
 * template. Valid templates are kept; each invalid one is a line in
 * @problems, and so are duplicates (kept once). Text templates that refer
 * to an SQL template by the id it had before its SQL was edited follow it.
 *
 * Returns: %TRUE when the file was read, even if some templates were left
 *   out; %FALSE with a %GRAMMAR_ERROR_INVALID_INPUT error naming the file
 *   (and, for bad JSON, the line and column) when it cannot be read or is
 *   not of either shape
 */
gboolean
grammar_template_set_load (GrammarTemplateSet  *self,
                           const char          *path,
                           GrammarDatabase     *database,
                           GrammarSchema       *schema,
                           GStrv               *problems,
                           GError             **error)
{
  g_autoptr (JsonParser) parser = NULL;
  Loader loader = { self, path, database, NULL, };
  gboolean loaded;

  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (database == NULL || GRAMMAR_IS_DATABASE (database), FALSE);
  g_return_val_if_fail (schema == NULL || GRAMMAR_IS_SCHEMA (schema), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  parser = parse_file (path, error);
  if (parser == NULL)
    return FALSE;

  if (schema != NULL)
    loader.schema = g_object_ref (schema);
  else if (database != NULL && (loader.schema = grammar_database_get_schema (database, NULL, error)) == NULL)
    return FALSE;

  loader.problems = g_ptr_array_new_with_free_func (g_free);
  loader.renamed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  loader.dropped = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  loader.dropped_order = g_ptr_array_new_with_free_func (g_free);

  loaded = load_root (&loader, json_parser_get_root (parser), error);
  if (loaded && problems != NULL)
    {
      g_ptr_array_add (loader.problems, NULL);
      *problems = (GStrv) g_ptr_array_steal (loader.problems, NULL);
    }
  loader_clear (&loader);
  return loaded;
}

/* Saving. */

static JsonNode *
sql_templates_to_json (GrammarTemplateSet *self)
{
  JsonArray *array = json_array_sized_new (self->sql_templates->len);
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < self->sql_templates->len; i++)
    json_array_add_element (array, grammar_sql_template_to_json (g_ptr_array_index (self->sql_templates, i)));
  json_node_take_array (node, array);
  return node;
}

static JsonNode *
text_templates_to_json (GrammarTemplateSet *self)
{
  JsonArray *array = json_array_sized_new (self->text_templates->len);
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < self->text_templates->len; i++)
    json_array_add_element (array, grammar_text_template_to_json (g_ptr_array_index (self->text_templates, i)));
  json_node_take_array (node, array);
  return node;
}

static gboolean
write_text (GOutputStream  *stream,
            gpointer        user_data,
            GCancellable   *cancellable,
            GError        **error)
{
  GString *text = user_data;

  return g_output_stream_write_all (stream, text->str, text->len, NULL, cancellable, error);
}

static gboolean
save_json (JsonNode    *root,
           const char  *path,
           GError     **error)
{
  g_autoptr (GString) text = g_string_new (NULL);

  grammar_json_append_node (text, root, 2);
  g_string_append_c (text, '\n');

  /* As every other output: a temporary file renamed over @path, under
   * @path's lock, so never half a file nor two writers at once. */
  return grammar_file_write_atomically (path, write_text, text, NULL, error);
}

/**
 * grammar_template_set_save_sql_templates:
 * @self: a #GrammarTemplateSet
 * @path: (type filename): the file to write
 * @error: return location for a #GError
 *
 * Writes `sql-templates.json`: a JSON array of the SQL templates,
 * indented by two spaces. The file is replaced at once, never left
 * half-written: a failed write leaves the previous file, or none. A
 * second process writing @path meanwhile fails at once with
 * %GRAMMAR_ERROR_INVALID_INPUT.
 *
 * Returns: %TRUE on success
 */
gboolean
grammar_template_set_save_sql_templates (GrammarTemplateSet  *self,
                                         const char          *path,
                                         GError             **error)
{
  g_autoptr (JsonNode) root = NULL;

  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  root = sql_templates_to_json (self);
  return save_json (root, path, error);
}

/**
 * grammar_template_set_save_text_templates:
 * @self: a #GrammarTemplateSet
 * @path: (type filename): the file to write
 * @error: return location for a #GError
 *
 * Writes `text-templates.json`: `{"sql_templates": […],
 * "text_templates": […]}`, indented by two spaces. The file is replaced
 * at once, never left half-written: a failed write leaves the previous
 * file, or none. A second process writing @path meanwhile fails at once
 * with %GRAMMAR_ERROR_INVALID_INPUT.
 *
 * Returns: %TRUE on success
 */
gboolean
grammar_template_set_save_text_templates (GrammarTemplateSet  *self,
                                          const char          *path,
                                          GError             **error)
{
  g_autoptr (JsonNode) root = NULL;
  JsonObject *object;

  g_return_val_if_fail (GRAMMAR_IS_TEMPLATE_SET (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  root = json_node_new (JSON_NODE_OBJECT);
  object = json_object_new ();
  json_object_set_member (object, "sql_templates", sql_templates_to_json (self));
  json_object_set_member (object, "text_templates", text_templates_to_json (self));
  json_node_take_object (root, object);
  return save_json (root, path, error);
}
