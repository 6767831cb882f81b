/* static-database.c: a database plugin written the way an outside author
 * would write one, against the installed headers and nothing else:
 * <grammar-plugin.h>, the header for plugin authors.
 *
 * Build:
 *   cc -shared -fPIC -o libgrammar-static.so static-database.c \
 *      $(pkg-config --cflags --libs grammar-1)
 *
 * then put the folder holding libgrammar-static.so on GRAMMAR_PLUGIN_PATH
 * (or copy the module into `pkg-config --variable=pluginsdir grammar-1`).
 *
 * Keyfile:
 *   [database]
 *   plugin=static
 *   tables=alpha;beta
 *
 * It reports one table per name, each with the columns `id INTEGER`
 * (the primary key) and `name TEXT NOT NULL`, and refuses every query.
 *
 * The module also brings a SQL generator, the way a third party adds
 * one:
 *   [sql-generator]
 *   plugin=static
 *   column=name
 * proposes `SELECT COLUMN FROM TABLE WHERE id = [TABLE.id]` for every
 * table of the database.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <grammar-plugin.h>

#define STATIC_TYPE_DATABASE (static_database_get_type ())
G_DECLARE_FINAL_TYPE (StaticDatabase, static_database, STATIC, DATABASE, GObject)

struct _StaticDatabase
{
  GObject parent_instance;

  char **tables;
};

enum
{
  PROP_0,
  PROP_TABLES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void static_database_iface_init (GrammarDatabaseInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (StaticDatabase, static_database, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_DATABASE,
                                                               static_database_iface_init))

static GrammarSchema *
static_database_get_schema (GrammarDatabase  *database,
                            GCancellable     *cancellable,
                            GError          **error)
{
  StaticDatabase *self = STATIC_DATABASE (database);
  GrammarSchema *schema;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  schema = grammar_schema_new ();
  for (guint i = 0; self->tables != NULL && self->tables[i] != NULL; i++)
    {
      GrammarTable *table = grammar_table_new (self->tables[i], FALSE);
      GrammarColumn *id = grammar_column_new ("id", "INTEGER", FALSE, 1, NULL);
      GrammarColumn *name = grammar_column_new ("name", "TEXT", FALSE, 0, NULL);

      grammar_table_add_column (table, id);
      grammar_table_add_column (table, name);
      grammar_schema_add_table (schema, table);

      g_object_unref (name);
      g_object_unref (id);
      g_object_unref (table);
    }
  return schema;
}

static GrammarCursor *
static_database_query_cursor (GrammarDatabase  *database,
                              const char       *sql,
                              GVariant         *parameters,
                              GCancellable     *cancellable,
                              GError          **error)
{
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_NOT_SUPPORTED,
               "the static database has a schema but no rows");
  return NULL;
}

static void
static_database_iface_init (GrammarDatabaseInterface *iface)
{
  iface->get_schema = static_database_get_schema;
  iface->query_cursor = static_database_query_cursor;
}

static void
static_database_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  StaticDatabase *self = STATIC_DATABASE (object);

  switch (prop_id)
    {
    case PROP_TABLES:
      g_value_set_boxed (value, self->tables);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
static_database_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  StaticDatabase *self = STATIC_DATABASE (object);

  switch (prop_id)
    {
    case PROP_TABLES:
      g_strfreev (self->tables);
      self->tables = g_value_dup_boxed (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
static_database_finalize (GObject *object)
{
  StaticDatabase *self = STATIC_DATABASE (object);

  g_strfreev (self->tables);

  G_OBJECT_CLASS (static_database_parent_class)->finalize (object);
}

static void
static_database_class_init (StaticDatabaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = static_database_get_property;
  object_class->set_property = static_database_set_property;
  object_class->finalize = static_database_finalize;

  properties[PROP_TABLES] =
    g_param_spec_boxed ("tables", "Tables",
                        "The names of the tables the schema reports",
                        G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
static_database_class_finalize (StaticDatabaseClass *klass)
{
}

static void
static_database_init (StaticDatabase *self)
{
}

/* The SQL generator ------------------------------------------------------ */

#define STATIC_TYPE_SQL_GENERATOR (static_sql_generator_get_type ())
G_DECLARE_FINAL_TYPE (StaticSqlGenerator, static_sql_generator, STATIC, SQL_GENERATOR, GObject)

struct _StaticSqlGenerator
{
  GObject parent_instance;

  char *column;
};

enum
{
  GEN_PROP_0,
  GEN_PROP_COLUMN,
  GEN_N_PROPS
};

static GParamSpec *generator_properties[GEN_N_PROPS];

static void static_sql_generator_iface_init (GrammarSqlGeneratorInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (StaticSqlGenerator, static_sql_generator, G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (GRAMMAR_TYPE_SQL_GENERATOR,
                                                               static_sql_generator_iface_init))

static GPtrArray *
static_sql_generator_generate (GrammarSqlGenerator  *generator,
                               GrammarDatabase      *database,
                               GStrv                *notes,
                               GCancellable         *cancellable,
                               GError              **error)
{
  StaticSqlGenerator *self = STATIC_SQL_GENERATOR (generator);
  g_autoptr (GrammarSchema) schema = grammar_database_get_schema (database, cancellable, error);
  g_autoptr (GPtrArray) templates = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *tables;

  if (schema == NULL)
    return NULL;
  tables = grammar_schema_get_tables (schema);
  for (guint i = 0; i < tables->len; i++)
    {
      const char *name = grammar_table_get_name (g_ptr_array_index (tables, i));
      g_autofree char *sql = g_strdup_printf ("SELECT %s FROM %s WHERE id = [%s.id]", self->column, name, name);
      GrammarSqlTemplate *template = grammar_sql_template_new (sql, GRAMMAR_TEMPLATE_ORIGIN_MANUAL, error);

      if (template == NULL)
        return NULL;
      g_ptr_array_add (templates, template);
    }
  return g_steal_pointer (&templates);
}

static void
static_sql_generator_iface_init (GrammarSqlGeneratorInterface *iface)
{
  iface->generate = static_sql_generator_generate;
}

static void
static_sql_generator_finalize (GObject *object)
{
  g_free (STATIC_SQL_GENERATOR (object)->column);
  G_OBJECT_CLASS (static_sql_generator_parent_class)->finalize (object);
}

static void
static_sql_generator_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  if (prop_id == GEN_PROP_COLUMN)
    g_value_set_string (value, STATIC_SQL_GENERATOR (object)->column);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
static_sql_generator_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  StaticSqlGenerator *self = STATIC_SQL_GENERATOR (object);

  if (prop_id == GEN_PROP_COLUMN)
    {
      g_free (self->column);
      self->column = g_value_dup_string (value);
    }
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
static_sql_generator_class_init (StaticSqlGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = static_sql_generator_finalize;
  object_class->get_property = static_sql_generator_get_property;
  object_class->set_property = static_sql_generator_set_property;
  generator_properties[GEN_PROP_COLUMN] =
    g_param_spec_string ("column", NULL, "The column every template asks for", "name",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, GEN_N_PROPS, generator_properties);
}

static void
static_sql_generator_class_finalize (StaticSqlGeneratorClass *klass)
{
}

static void
static_sql_generator_init (StaticSqlGenerator *self)
{
}

/* The three entry points of a GIO module. */

G_MODULE_EXPORT void
g_io_module_load (GIOModule *module)
{
  static_database_register_type (G_TYPE_MODULE (module));
  static_sql_generator_register_type (G_TYPE_MODULE (module));
  grammar_registry_implement (GRAMMAR_TYPE_DATABASE, STATIC_TYPE_DATABASE, "static",
                              "Fixed schema for testing third-party plugins");
  grammar_registry_implement (GRAMMAR_TYPE_SQL_GENERATOR, STATIC_TYPE_SQL_GENERATOR, "static",
                              "One template per table, for testing third-party plugins");
}

G_MODULE_EXPORT void
g_io_module_unload (GIOModule *module)
{
}

G_MODULE_EXPORT char **
g_io_module_query (void)
{
  char *extension_points[] = { GRAMMAR_DATABASE_EXTENSION_POINT_NAME, GRAMMAR_SQL_GENERATOR_EXTENSION_POINT_NAME,
                               NULL };

  return g_strdupv (extension_points);
}
