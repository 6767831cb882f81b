/* grammar-document-generator.c: a document corpus made from the rows of a database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "grammar-json-private.h"
#include "grammar-document-generator-private.h"
#include "grammar-configurable.h"
#include "grammar-document-generator.h"
#include "grammar-config.h"
#include "grammar-error.h"
#include "grammar-file-private.h"
#include "grammar-sql-template.h"

/**
 * GrammarDocumentGenerator:
 *
 * Makes the retrieval corpus of a closed-domain knowledge base from its
 * database, one document per row of each chosen table, so that the
 * ground-truth documents of a query are known (the rows it reads; see
 * grammar_qa_generator_set_documents()).
 *
 * Each document is one JSON line `{"id", "title", "text", "source":
 * {"table", "key"}}` where `key` holds the row's primary key columns.
 * The id is the table name and the key values joined by `-`
 * (`company-1`, `employment-1-7`); in a key of several columns a `-` or
 * `%` inside a value is written `%2D` or `%25`, so ids stay unique.
 *
 * The text comes from a template per table (see
 * grammar_document_generator_set_template()): `{Column}` is a column of
 * the row, `{table.Column}` a column of the row a foreign key of the row
 * points to (`{fk_column.Column}` when several foreign keys point to that
 * table), and `{child: …}` repeats its body for every row of the table
 * `child` whose foreign key points to the row (`{child.fk_column: …}`
 * when it has several), with the child's own fields inside. The
 * repetitions are trimmed and joined with one space; a space at the
 * start or end of the body is kept once around the whole block when it
 * has rows. `{{` and `}}` are literal braces (inside a block, `}` always
 * closes the block). A NULL renders as empty text, integers and whole
 * reals without a decimal point, other reals as SQLite prints them
 * (`433.5`). A table without a template gets the title `TABLE KEY` and
 * a text listing `Column: value.` for every non-NULL column outside the
 * primary key.
 *
 * With a #GrammarDocumentGenerator:llm set, the model writes each page
 * instead: the row's facts (the rendered template, or the row's columns
 * with the rows its foreign keys point to and the rows that point to
 * it) go into a prompt adapted from the GRAMMAR paper's Appendix G.2,
 * which asks for a Wikipedia-style page of 200-400 words that keeps
 * every fact as written. Requests are sent concurrently, at temperature
 * 0, one per document; pages come out in row order. Pages that do not
 * contain every fact verbatim are listed in
 * grammar_document_generator_dup_warnings().
 *
 * Rows are read in primary-key order, and every value is bound as a
 * parameter, never pasted into SQL: the same database gives the same
 * bytes.
 */

/* Requests to a language model in flight at once; the model's own
 * queue decides how many really go out together. */

/* Rows of one related table listed in an LLM prompt. */

/* Pages lacking a fact that are named one by one in the warnings. */


/* The generator ------------------------------------------------------------------ */

static void grammar_document_generator_configurable_init (GrammarConfigurableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GrammarDocumentGenerator, grammar_document_generator, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_CONFIGURABLE,
                                                      grammar_document_generator_configurable_init))

enum
{
  PROP_0,
  PROP_DATABASE,
  PROP_SCHEMA,
  PROP_LLM,
  PROP_TABLES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_PROGRESS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
grammar_document_generator_constructed (GObject *object)
{
  GrammarDocumentGenerator *self = GRAMMAR_DOCUMENT_GENERATOR (object);
  GPtrArray *tables;

  G_OBJECT_CLASS (grammar_document_generator_parent_class)->constructed (object);

  g_return_if_fail (GRAMMAR_IS_DATABASE (self->database));
  g_return_if_fail (GRAMMAR_IS_SCHEMA (self->schema));

  tables = grammar_schema_get_tables (self->schema);
  for (guint t = 0; t < tables->len; t++)
    {
      GrammarDocgenTableInfo *info = grammar_docgen_table_info_new (self->database, g_ptr_array_index (tables, t));

      g_hash_table_insert (self->infos, g_ascii_strdown (info->name, -1), info);
      g_ptr_array_add (self->info_order, info);
    }
  for (guint t = 0; t < self->info_order->len; t++)
    grammar_docgen_table_info_add_links (g_ptr_array_index (self->info_order, t), self->infos, self->database);
}

static void
grammar_document_generator_finalize (GObject *object)
{
  GrammarDocumentGenerator *self = GRAMMAR_DOCUMENT_GENERATOR (object);

  g_clear_object (&self->database);
  g_clear_object (&self->schema);
  g_clear_object (&self->llm);
  g_strfreev (self->tables);
  g_free (self->llm_section);
  g_hash_table_unref (self->templates);
  g_ptr_array_unref (self->info_order);
  g_hash_table_unref (self->infos);
  g_ptr_array_unref (self->warnings);

  G_OBJECT_CLASS (grammar_document_generator_parent_class)->finalize (object);
}

static void
grammar_document_generator_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  GrammarDocumentGenerator *self = GRAMMAR_DOCUMENT_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_DATABASE:
      g_value_set_object (value, self->database);
      break;
    case PROP_SCHEMA:
      g_value_set_object (value, self->schema);
      break;
    case PROP_LLM:
      g_value_set_object (value, self->llm);
      break;
    case PROP_TABLES:
      g_value_set_boxed (value, self->tables);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_document_generator_set_property (GObject      *object,
                                         guint         prop_id,
                                         const GValue *value,
                                         GParamSpec   *pspec)
{
  GrammarDocumentGenerator *self = GRAMMAR_DOCUMENT_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_DATABASE:
      self->database = g_value_dup_object (value);
      break;
    case PROP_SCHEMA:
      self->schema = g_value_dup_object (value);
      break;
    case PROP_LLM:
      grammar_document_generator_set_llm (self, g_value_get_object (value));
      break;
    case PROP_TABLES:
      grammar_document_generator_set_tables (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_document_generator_class_init (GrammarDocumentGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = grammar_document_generator_constructed;
  object_class->finalize = grammar_document_generator_finalize;
  object_class->get_property = grammar_document_generator_get_property;
  object_class->set_property = grammar_document_generator_set_property;

  /**
   * GrammarDocumentGenerator:database:
   *
   * The database the rows come from.
   */
  properties[PROP_DATABASE] =
    g_param_spec_object ("database", NULL, "The database the rows come from",
                         GRAMMAR_TYPE_DATABASE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarDocumentGenerator:schema:
   *
   * The schema of #GrammarDocumentGenerator:database: its primary and
   * foreign keys decide ids, fields and blocks.
   */
  properties[PROP_SCHEMA] =
    g_param_spec_object ("schema", NULL, "The schema of the database",
                         GRAMMAR_TYPE_SCHEMA,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarDocumentGenerator:llm:
   *
   * The language model that writes the pages, or %NULL to render the
   * templates.
   */
  properties[PROP_LLM] =
    g_param_spec_object ("llm", NULL, "The language model that writes the pages, or none for the templates",
                         GRAMMAR_TYPE_LLM,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarDocumentGenerator:tables:
   *
   * The tables that get one document per row, in this order; %NULL for
   * every table with a primary key that does not only link others.
   */
  properties[PROP_TABLES] =
    g_param_spec_boxed ("tables", NULL, "The tables that get one document per row",
                        G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GrammarDocumentGenerator::progress:
   * @self: the generator
   *
   * Emitted now and then during a run (at most a few times a second, and
   * after each table), so that a user interface can show the counts.
   */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
grammar_document_generator_init (GrammarDocumentGenerator *self)
{
  self->infos = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) grammar_docgen_table_info_free);
  self->info_order = g_ptr_array_new ();
  self->templates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) grammar_docgen_table_template_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
}

/**
 * grammar_document_generator_new:
 * @database: the database the rows come from
 * @schema: the schema of @database (grammar_database_get_schema())
 *
 * Creates a generator of one document per row, with the default
 * templates and tables until told otherwise.
 *
 * Returns: (transfer full): a new #GrammarDocumentGenerator
 */
GrammarDocumentGenerator *
grammar_document_generator_new (GrammarDatabase *database,
                                GrammarSchema   *schema)
{
  g_return_val_if_fail (GRAMMAR_IS_DATABASE (database), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SCHEMA (schema), NULL);

  return g_object_new (GRAMMAR_TYPE_DOCUMENT_GENERATOR, "database", database, "schema", schema, NULL);
}

/**
 * grammar_document_generator_get_database:
 * @self: a #GrammarDocumentGenerator
 *
 * Returns: (transfer none): the database
 */
GrammarDatabase *
grammar_document_generator_get_database (GrammarDocumentGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), NULL);
  return self->database;
}

/**
 * grammar_document_generator_get_schema:
 * @self: a #GrammarDocumentGenerator
 *
 * Returns: (transfer none): the schema
 */
GrammarSchema *
grammar_document_generator_get_schema (GrammarDocumentGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), NULL);
  return self->schema;
}

/**
 * grammar_document_generator_get_llm:
 * @self: a #GrammarDocumentGenerator
 *
 * Returns: (transfer none) (nullable): the language model that writes
 *   the pages, or %NULL when the templates are rendered
 */
GrammarLlm *
grammar_document_generator_get_llm (GrammarDocumentGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), NULL);
  return self->llm;
}

/**
 * grammar_document_generator_set_llm:
 * @self: a #GrammarDocumentGenerator
 * @llm: (nullable): a language model, or %NULL to render the templates
 *
 * Sets #GrammarDocumentGenerator:llm.
 */
void
grammar_document_generator_set_llm (GrammarDocumentGenerator *self,
                                    GrammarLlm               *llm)
{
  g_return_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self));
  g_return_if_fail (llm == NULL || GRAMMAR_IS_LLM (llm));

  if (g_set_object (&self->llm, llm))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LLM]);
}

/**
 * grammar_document_generator_get_tables:
 * @self: a #GrammarDocumentGenerator
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the
 *   tables given with grammar_document_generator_set_tables(), or %NULL
 *   for the default
 */
const char * const *
grammar_document_generator_get_tables (GrammarDocumentGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), NULL);
  return (const char * const *) self->tables;
}

/**
 * grammar_document_generator_set_tables:
 * @self: a #GrammarDocumentGenerator
 * @tables: (nullable) (array zero-terminated=1): table names, or %NULL
 *   for every table with a primary key that does not only link others
 *
 * Sets #GrammarDocumentGenerator:tables. Each table needs a primary key
 * (the ids are made of it); a run fails on a table without one.
 */
void
grammar_document_generator_set_tables (GrammarDocumentGenerator *self,
                                       const char * const       *tables)
{
  g_return_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self));

  if (self->tables == NULL && tables == NULL)
    return;
  g_strfreev (self->tables);
  self->tables = g_strdupv ((char **) tables);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TABLES]);
}

/**
 * grammar_document_generator_get_llm_section:
 * @self: a #GrammarDocumentGenerator
 *
 * The `llm` key of the section grammar_document_generator_configure()
 * read: the section of the language model to use when pages are to be
 * written by one. The generator does not build it itself (the command
 * line does, for `--generator llm`).
 *
 * Returns: (nullable): the section name, or %NULL when none was given
 */
const char *
grammar_document_generator_get_llm_section (GrammarDocumentGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), NULL);
  return self->llm_section;
}

static GrammarDocgenTableInfo *
lookup_table (GrammarDocumentGenerator  *self,
              const char                *name,
              GError                   **error)
{
  GrammarDocgenTableInfo *info = grammar_docgen_find_info (self->infos, name);

  if (info == NULL)
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                 "no table “%s” in the database", name);
  return info;
}

/* Parses one template; @error says what is wrong, without the key. */
static gboolean
parse_one (GrammarDocumentGenerator  *self,
           GrammarDocgenTableInfo    *info,
           const char                *source,
           GPtrArray                **nodes,
           GError                   **error)
{
  *nodes = NULL;
  if (source == NULL)
    return TRUE;
  *nodes = grammar_docgen_parse_template (self->infos, info, source, error);
  return *nodes != NULL;
}

static gboolean
store_template (GrammarDocumentGenerator  *self,
                const char                *table,
                const char                *title,
                const char                *text,
                char                     **bad_key,
                GError                   **error)
{
  GrammarDocgenTableInfo *info = lookup_table (self, table, error);
  GrammarDocgenTableTemplate *template;
  GPtrArray *title_nodes = NULL, *text_nodes = NULL;

  *bad_key = NULL;
  if (info == NULL)
    return FALSE;
  if (!parse_one (self, info, title, &title_nodes, error))
    {
      *bad_key = g_strconcat (table, ".title", NULL);
      return FALSE;
    }
  if (!parse_one (self, info, text, &text_nodes, error))
    {
      g_clear_pointer (&title_nodes, g_ptr_array_unref);
      *bad_key = g_strconcat (table, ".text", NULL);
      return FALSE;
    }

  template = g_new0 (GrammarDocgenTableTemplate, 1);
  template->title_source = g_strdup (title);
  template->text_source = g_strdup (text);
  template->title = title_nodes;
  template->text = text_nodes;
  g_hash_table_replace (self->templates, g_ascii_strdown (info->name, -1), template);
  return TRUE;
}

/**
 * grammar_document_generator_set_template:
 * @self: a #GrammarDocumentGenerator
 * @table: a table of the database
 * @title: (nullable): the template of the documents' titles, or %NULL
 *   for `TABLE KEY`
 * @text: (nullable): the template of the documents' texts, or %NULL for
 *   the list of columns
 * @error: return location for a #GError
 *
 * Sets how the documents of @table read; see #GrammarDocumentGenerator
 * for the fields and blocks a template may hold. Every field is checked
 * against the schema now.
 *
 * Returns: %TRUE when both templates are valid; otherwise %FALSE with a
 *   %GRAMMAR_ERROR_INVALID_INPUT error naming the template
 *   (`company.text: unknown column “Nmae” in table “company” (field {Nmae})`)
 */
gboolean
grammar_document_generator_set_template (GrammarDocumentGenerator  *self,
                                         const char                *table,
                                         const char                *title,
                                         const char                *text,
                                         GError                   **error)
{
  g_autofree char *bad_key = NULL;

  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), FALSE);
  g_return_val_if_fail (table != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (store_template (self, table, title, text, &bad_key, error))
    return TRUE;
  if (bad_key != NULL)
    g_prefix_error (error, "%s: ", bad_key);
  return FALSE;
}

/* Configuration from a keyfile section ------------------------------------------ */

static gboolean
check_table_key (GrammarDocumentGenerator  *self,
                 const char                *name,
                 GError                   **error)
{
  GrammarDocgenTableInfo *info = lookup_table (self, name, error);

  if (info == NULL)
    return FALSE;
  if (info->n_key == 0)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "table “%s” has no primary key, so its rows have no stable id", info->name);
      return FALSE;
    }
  return TRUE;
}

/* Splits `TABLE.title` or `TABLE.text`; %NULL for another key. */
static char *
template_key_table (const char  *key,
                    const char **part)
{
  const char *dot = strrchr (key, '.');

  if (dot == NULL || dot == key || (strcmp (dot, ".title") != 0 && strcmp (dot, ".text") != 0))
    return NULL;
  *part = dot + 1;
  return g_strndup (key, dot - key);
}

/* `llm` (the section of the language model, for the command line) and
 * `TABLE.title` / `TABLE.text`: one template of a table, the other one
 * kept. */
static gboolean
grammar_document_generator_set_key (GrammarConfigurable  *configurable,
                                    const char           *key,
                                    const char           *value,
                                    gboolean             *handled,
                                    GError              **error)
{
  GrammarDocumentGenerator *self = GRAMMAR_DOCUMENT_GENERATOR (configurable);
  const char *part = NULL;
  g_autofree char *table = NULL;
  g_autofree char *bad_key = NULL;
  g_autoptr (GError) local_error = NULL;
  GrammarDocgenTableTemplate *known;
  GrammarDocgenTableInfo *info;

  if (g_str_equal (key, "llm"))
    {
      *handled = TRUE;
      g_clear_pointer (&self->llm_section, g_free);
      self->llm_section = g_strstrip (g_strdup (value));
      if (self->llm_section[0] == '\0')
        g_clear_pointer (&self->llm_section, g_free);
      return TRUE;
    }
  table = template_key_table (key, &part);
  if (table == NULL)
    return TRUE;
  *handled = TRUE;
  info = lookup_table (self, table, NULL);
  if (info == NULL)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY,
                   "no table “%s” in the database (see `grammar schema`)", table);
      return FALSE;
    }
  known = g_hash_table_lookup (self->templates, info->name);
  if (!store_template (self, table,
                       g_str_equal (part, "title") ? value : known != NULL ? known->title_source : NULL,
                       g_str_equal (part, "text") ? value : known != NULL ? known->text_source : NULL,
                       &bad_key, &local_error))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "%s", local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* Every table of `tables` must be in the database, with a primary key. */
static gboolean
grammar_document_generator_check_key (GrammarConfigurable  *configurable,
                                      const char           *key,
                                      GError              **error)
{
  GrammarDocumentGenerator *self = GRAMMAR_DOCUMENT_GENERATOR (configurable);
  g_autoptr (GError) local_error = NULL;

  if (!g_str_equal (key, "tables"))
    return TRUE;
  for (guint t = 0; self->tables != NULL && self->tables[t] != NULL; t++)
    if (!check_table_key (self, self->tables[t], &local_error))
      {
        g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "%s", local_error->message);
        return FALSE;
      }
  return TRUE;
}

static char *
grammar_document_generator_describe_keys (GrammarConfigurable *configurable)
{
  return g_strdup ("tables, llm, TABLE.title and TABLE.text");
}

static void
grammar_document_generator_configurable_init (GrammarConfigurableInterface *iface)
{
  iface->set_key = grammar_document_generator_set_key;
  iface->check_key = grammar_document_generator_check_key;
  iface->describe_keys = grammar_document_generator_describe_keys;
}

/**
 * grammar_document_generator_configure:
 * @self: a #GrammarDocumentGenerator
 * @config: the configuration
 * @section: the section to read, normally `documents`
 * @error: return location for a #GError
 *
 * Reads the generator's settings from a section of @config, which has
 * no `plugin=` key, with grammar_config_configure():
 *
 * - `tables`: the tables that get one document per row, separated by
 *   `;` (default: every table with a primary key that does not only
 *   link others);
 * - `TABLE.title` and `TABLE.text`: the templates of a table (see
 *   grammar_document_generator_set_template());
 * - `llm`: the section of the language model for pages written by one
 *   (see grammar_document_generator_get_llm_section()).
 *
 * A missing section leaves the defaults.
 *
 * Returns: %TRUE on success; otherwise %FALSE with a
 *   %GRAMMAR_CONFIG_ERROR error naming the file, section and key
 */
gboolean
grammar_document_generator_configure (GrammarDocumentGenerator  *self,
                                      GrammarConfig             *config,
                                      const char                *section,
                                      GError                   **error)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), FALSE);
  g_return_val_if_fail (GRAMMAR_IS_CONFIG (config), FALSE);
  g_return_val_if_fail (section != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return grammar_config_configure (config, section, G_OBJECT (self), error);
}

/* Output ------------------------------------------------------------------------ */

static gboolean
write_document (GOutputStream          *output,
                GrammarDocgenDocument  *document,
                GCancellable           *cancellable,
                GError                **error)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GString) line = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, document->id);
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, document->title);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, document->text);
  json_builder_set_member_name (builder, "source");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "table");
  json_builder_add_string_value (builder, document->table);
  json_builder_set_member_name (builder, "key");
  json_builder_add_value (builder, json_node_copy (document->key));
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  line = g_string_new (NULL);
  grammar_json_append_node (line, root, 0);
  g_string_append_c (line, '\n');
  return g_output_stream_write_all (output, line->str, line->len, NULL, cancellable, error);
}

/* A run ---------------------------------------------------------------------------- */

static void
page_free (GrammarDocgenPage *page)
{
  grammar_docgen_document_free (page->document);
  g_free (page);
}

static void
run_progress (GrammarDocgenRun *run,
              gboolean          force)
{
  gint64 now = g_get_monotonic_time ();

  if (!force && now - run->self->last_progress < PROGRESS_INTERVAL_US)
    return;
  run->self->last_progress = now;
  g_signal_emit (run->self, signals[SIGNAL_PROGRESS], 0);
}

static gboolean
run_write (GrammarDocgenRun       *run,
           GrammarDocgenDocument  *document,
           GError                **error)
{
  if (!write_document (run->output, document, run->cancellable, error))
    return FALSE;
  run->self->n_documents++;
  run_progress (run, FALSE);
  return TRUE;
}

/* Whether @haystack holds @needle as a whole word (“3” is not in “30”),
 * ignoring case. */
static gboolean
contains_word (const char *haystack,
               const char *needle)
{
  g_autofree char *text = g_utf8_casefold (haystack, -1);
  g_autofree char *word = g_utf8_casefold (needle, -1);
  gsize length = strlen (word);

  for (const char *p = strstr (text, word); p != NULL; p = strstr (p + 1, word))
    {
      const char *end = p + length;
      gboolean starts = p == text || !g_unichar_isalnum (g_utf8_get_char (p)) ||
                        !g_unichar_isalnum (g_utf8_get_char (g_utf8_prev_char (p)));
      gboolean ends = *end == '\0' || !g_unichar_isalnum (g_utf8_get_char (g_utf8_prev_char (end))) ||
                      !g_unichar_isalnum (g_utf8_get_char (end));

      if (starts && ends)
        return TRUE;
    }
  return FALSE;
}

/* Lists the facts a page does not state verbatim. */
static void
check_facts (GrammarDocumentGenerator *self,
             GrammarDocgenDocument    *document)
{
  g_autoptr (GString) missing = g_string_new (NULL);
  guint n_missing = 0;

  for (guint i = 0; i < document->values->len; i++)
    {
      const char *value = g_ptr_array_index (document->values, i);

      if (contains_word (document->text, value))
        continue;
      if (n_missing++ < 5)
        g_string_append_printf (missing, "%s“%s”", missing->len > 0 ? ", " : "", value);
    }
  if (n_missing == 0)
    return;
  if (self->n_lacking++ < MAX_FACT_WARNINGS)
    g_ptr_array_add (self->warnings,
                     g_strdup_printf ("%s: the page does not state %u of its %u facts as written: %s%s",
                                      document->id, n_missing, document->values->len, missing->str,
                                      n_missing > 5 ? ", …" : ""));
}

/* Drops a Markdown heading the model may start with, and spaces. */
static char *
clean_page (const char *reply)
{
  const char *start = reply != NULL ? reply : "";

  while (g_ascii_isspace (*start))
    start++;
  if (*start == '#')
    {
      const char *end = strchr (start, '\n');

      start = end != NULL ? end : start + strlen (start);
    }
  return g_strstrip (g_strdup (start));
}

static void
page_received (GObject      *source_object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GrammarDocgenPage *page = user_data;
  GrammarDocgenRun *run = page->run;
  g_autoptr (GrammarChatResponse) response = NULL;
  g_autoptr (GError) error = NULL;

  run->in_flight--;
  page->done = TRUE;
  response = grammar_llm_chat_finish (GRAMMAR_LLM (source_object), result, &error);
  if (response != NULL)
    {
      page->document->text = clean_page (grammar_chat_response_get_text (response));
      if (page->document->text[0] == '\0')
        g_set_error (&error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED,
                     "%s: the language model returned an empty page", page->document->id);
    }
  else
    g_prefix_error (&error, "%s: ", page->document->id);
  if (error != NULL && run->error == NULL)
    {
      run->error = g_steal_pointer (&error);
      g_cancellable_cancel (run->stop);
    }
}

/* Writes the finished pages at the head of the queue. */
static gboolean
run_write_pages (GrammarDocgenRun  *run,
                 GError           **error)
{
  while (!g_queue_is_empty (&run->pages) && ((GrammarDocgenPage *) g_queue_peek_head (&run->pages))->done)
    {
      GrammarDocgenPage *page = g_queue_pop_head (&run->pages);
      gboolean ok;

      check_facts (run->self, page->document);
      ok = run_write (run, page->document, error);
      page_free (page);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* Writes the pages done at the head of the queue, then waits until
 * fewer than @limit pages are pending: the memory a run holds does not
 * grow with the number of rows. */
static gboolean
run_wait (GrammarDocgenRun  *run,
          guint              limit,
          GError           **error)
{
  for (;;)
    {
      if (run->error != NULL)
        {
          g_propagate_error (error, g_error_copy (run->error));
          return FALSE;
        }
      if (!run_write_pages (run, error))
        return FALSE;
      if (g_queue_get_length (&run->pages) < MAX (limit, 1))
        return TRUE;
      g_main_context_iteration (run->context, TRUE);
    }
}

static gboolean
run_send (GrammarDocgenRun       *run,
          GrammarDocgenDocument  *document,
          gboolean                titled,
          GError                **error)
{
  g_autofree char *subject = titled ? g_strdup_printf ("“%s”, described by the profile below", document->title)
                                    : g_strdup_printf ("the %s described by the profile below", document->table);
  g_autoptr (GrammarChatRequest) request = grammar_docgen_build_request (subject, document->facts);
  GrammarDocgenPage *page = g_new0 (GrammarDocgenPage, 1);

  page->run = run;
  page->document = document;
  g_queue_push_tail (&run->pages, page);
  run->in_flight++;
  grammar_llm_chat_async (run->self->llm, request, run->stop, page_received, page);
  return run_wait (run, MAX_PENDING, error);
}

static void
stop_requests (GCancellable *cancellable,
               gpointer      user_data)
{
  g_cancellable_cancel (user_data);
}

static void
run_init (GrammarDocgenRun         *run,
          GrammarDocumentGenerator *self,
          GOutputStream            *output,
          GCancellable             *cancellable)
{
  memset (run, 0, sizeof *run);
  run->self = self;
  run->output = output;
  run->cancellable = cancellable;
  run->render.self = self;
  run->render.cancellable = cancellable;
  g_queue_init (&run->pages);
  if (self->llm == NULL)
    return;
  /* The requests' callbacks come on a context of our own, so that the
   * caller's main loop is left alone. */
  run->context = g_main_context_new ();
  g_main_context_push_thread_default (run->context);
  run->stop = g_cancellable_new ();
  if (cancellable != NULL)
    run->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (stop_requests),
                                               g_object_ref (run->stop), g_object_unref);
}

/* Lets the requests in flight finish (cancelled when the run failed). */
static void
run_clear (GrammarDocgenRun *run)
{
  if (run->context == NULL)
    return;
  if (run->in_flight > 0 && run->error == NULL)
    g_cancellable_cancel (run->stop);
  while (run->in_flight > 0)
    g_main_context_iteration (run->context, TRUE);
  g_queue_clear_full (&run->pages, (GDestroyNotify) page_free);
  if (run->cancellable != NULL)
    g_cancellable_disconnect (run->cancellable, run->cancelled_id);
  g_clear_object (&run->stop);
  g_clear_error (&run->error);
  g_main_context_pop_thread_default (run->context);
  g_clear_pointer (&run->context, g_main_context_unref);
}

/* Makes and writes (or sends off) the document of one row. */
static gboolean
run_row (GrammarDocgenRun            *run,
         GrammarDocgenRow            *row,
         GrammarDocgenTableTemplate  *template,
         guint                       *n_keyless,
         GError                     **error)
{
  g_autoptr (GrammarDocgenDocument) document = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  gboolean ok;

  if (!grammar_docgen_document_new (&run->render, row, template, &document, error))
    return FALSE;
  if (document == NULL)
    {
      (*n_keyless)++;
      return TRUE;
    }
  if (run->self->llm == NULL)
    {
      if (!grammar_docgen_render_text (&run->render, row, template, text, error))
        return FALSE;
      document->text = g_string_free (g_steal_pointer (&text), FALSE);
      return run_write (run, document, error);
    }

  document->values = g_ptr_array_new_with_free_func (g_free);
  run->render.facts = document->values;
  if (template != NULL && template->text != NULL)
    ok = grammar_docgen_render_nodes (&run->render, template->text, row, text, error);
  else
    ok = grammar_docgen_describe_profile (&run->render, row, text, error);
  run->render.facts = NULL;
  if (!ok)
    return FALSE;
  g_strstrip (text->str);
  document->facts = g_strconcat (text->str, "\n", NULL);
  return run_send (run, g_steal_pointer (&document), template != NULL && template->title != NULL, error);
}

static gboolean
run_table (GrammarDocgenRun        *run,
           GrammarDocgenTableInfo  *info,
           GError                 **error)
{
  g_autofree char *lower = g_ascii_strdown (info->name, -1);
  GrammarDocgenTableTemplate *template = g_hash_table_lookup (run->self->templates, lower);
  g_autoptr (GrammarCursor) cursor = NULL;
  GError *local_error = NULL;
  guint n_keyless = 0;

  cursor = grammar_database_query_cursor (run->self->database, info->rows_sql, NULL, run->cancellable, error);
  if (cursor == NULL)
    return FALSE;
  while (grammar_cursor_next (cursor, run->cancellable, &local_error))
    {
      g_autoptr (GrammarDocgenRow) row = grammar_docgen_row_new_from_cursor (info, cursor);

      if (!run_row (run, row, template, &n_keyless, error))
        return FALSE;
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (n_keyless > 0)
    g_ptr_array_add (run->self->warnings,
                     g_strdup_printf ("table %s: %u row%s whose primary key has a NULL left out (no id)",
                                      info->name, n_keyless, n_keyless == 1 ? "" : "s"));
  run->self->n_tables++;
  run_progress (run, TRUE);
  return TRUE;
}

/* The tables to make documents of, checked. */
static GPtrArray *
choose_tables (GrammarDocumentGenerator  *self,
               GError                   **error)
{
  g_autoptr (GPtrArray) chosen = g_ptr_array_new ();

  if (self->tables == NULL)
    {
      for (guint t = 0; t < self->info_order->len; t++)
        {
          GrammarDocgenTableInfo *info = g_ptr_array_index (self->info_order, t);

          if (info->n_key > 0 && !grammar_table_get_is_view (info->table) && !grammar_docgen_is_pure_link_table (info))
            g_ptr_array_add (chosen, info);
        }
      return g_steal_pointer (&chosen);
    }
  for (guint t = 0; self->tables[t] != NULL; t++)
    {
      if (!check_table_key (self, self->tables[t], error))
        return NULL;
      g_ptr_array_add (chosen, grammar_docgen_find_info (self->infos, self->tables[t]));
    }
  return g_steal_pointer (&chosen);
}

static void
reset_statistics (GrammarDocumentGenerator *self)
{
  self->n_documents = 0;
  self->n_tables = 0;
  self->n_lacking = 0;
  self->last_progress = g_get_monotonic_time ();
  g_ptr_array_set_size (self->warnings, 0);
}

/**
 * grammar_document_generator_generate:
 * @self: a #GrammarDocumentGenerator
 * @output: where the JSON Lines go
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes one document a line into @output, which is left open: the
 * tables in order, the rows of each in primary-key order. With a
 * #GrammarDocumentGenerator:llm the requests run on a private main
 * context of this thread, so the call blocks until every page is
 * written; a failed request fails the run.
 *
 * Returns: %TRUE on success; %FALSE with @error set: a table that does
 *   not exist or has no primary key (%GRAMMAR_ERROR_INVALID_INPUT), or a
 *   database, model or I/O error
 */
gboolean
grammar_document_generator_generate (GrammarDocumentGenerator  *self,
                                     GOutputStream             *output,
                                     GCancellable              *cancellable,
                                     GError                   **error)
{
  g_autoptr (GPtrArray) tables = NULL;
  gboolean ok = TRUE;
  GrammarDocgenRun run;

  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (output), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reset_statistics (self);
  tables = choose_tables (self, error);
  if (tables == NULL)
    return FALSE;

  run_init (&run, self, output, cancellable);
  for (guint t = 0; ok && t < tables->len; t++)
    ok = run_table (&run, g_ptr_array_index (tables, t), error);
  if (ok && self->llm != NULL)
    ok = run_wait (&run, 1, error);
  run_clear (&run);
  if (ok && self->n_lacking > MAX_FACT_WARNINGS)
    g_ptr_array_add (self->warnings,
                     g_strdup_printf ("%u pages in all do not state every fact as written (the first %u are listed)",
                                      self->n_lacking, MAX_FACT_WARNINGS));
  return ok;
}

static gboolean
write_documents (GOutputStream  *stream,
                 gpointer        user_data,
                 GCancellable   *cancellable,
                 GError        **error)
{
  return grammar_document_generator_generate (user_data, stream, cancellable, error);
}

/**
 * grammar_document_generator_generate_to_file:
 * @self: a #GrammarDocumentGenerator
 * @path: (type filename): the documents file to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Like grammar_document_generator_generate(), into a file. The documents
 * go to a temporary file in the same folder, which replaces @path (or
 * the file a symbolic link @path points to) only when everything
 * succeeded: a failed or interrupted run leaves the previous file, or
 * none. A @path that exists and is not a regular file, such as
 * `/dev/null`, is written to directly.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_document_generator_generate_to_file (GrammarDocumentGenerator  *self,
                                             const char                *path,
                                             GCancellable              *cancellable,
                                             GError                   **error)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return grammar_file_write_atomically (path, write_documents, self, cancellable, error);
}

/**
 * grammar_document_generator_generate_to_file_async:
 * @self: a #GrammarDocumentGenerator
 * @path: (type filename): the documents file to write
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the file is written or not
 * @user_data: data for @callback
 *
 * grammar_document_generator_generate_to_file() in a worker thread, so
 * that the caller's main loop (and its signal handlers) keep running.
 * The #GrammarDocumentGenerator::progress signal is emitted in that
 * thread.
 */
void
grammar_document_generator_generate_to_file_async (GrammarDocumentGenerator *self,
                                                   const char               *path,
                                                   GCancellable             *cancellable,
                                                   GAsyncReadyCallback       callback,
                                                   gpointer                  user_data)
{
  g_return_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self));
  g_return_if_fail (path != NULL);

  grammar_file_write_atomically_async (self, grammar_document_generator_generate_to_file_async, path,
                                       write_documents, g_object_ref (self), g_object_unref, cancellable,
                                       callback, user_data);
}

/**
 * grammar_document_generator_generate_to_file_finish:
 * @self: a #GrammarDocumentGenerator
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes grammar_document_generator_generate_to_file_async().
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_document_generator_generate_to_file_finish (GrammarDocumentGenerator  *self,
                                                    GAsyncResult              *result,
                                                    GError                   **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * grammar_document_generator_get_n_documents:
 * @self: a #GrammarDocumentGenerator
 *
 * Returns: the number of documents the current or last run wrote
 */
guint64
grammar_document_generator_get_n_documents (GrammarDocumentGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), 0);
  return self->n_documents;
}

/**
 * grammar_document_generator_get_n_tables:
 * @self: a #GrammarDocumentGenerator
 *
 * Returns: the number of tables the current or last run finished
 */
guint
grammar_document_generator_get_n_tables (GrammarDocumentGenerator *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), 0);
  return self->n_tables;
}

/**
 * grammar_document_generator_dup_warnings:
 * @self: a #GrammarDocumentGenerator
 *
 * What the last run found worth telling without failing: rows left out
 * because their key has a NULL, and pages a language model wrote that
 * do not state every fact as written.
 *
 * Returns: (transfer full): the messages, one line each
 */
GStrv
grammar_document_generator_dup_warnings (GrammarDocumentGenerator *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT_GENERATOR (self), NULL);

  for (guint i = 0; i < self->warnings->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->warnings, i));
  return g_strv_builder_end (builder);
}
