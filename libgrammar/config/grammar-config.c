/* grammar-config.c: components built from one keyfile
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "grammar-config.h"
#include "grammar-config-private.h"
#include "grammar-configurable.h"
#include "grammar-error.h"
#include "grammar-registry.h"

/**
 * GrammarConfig:
 *
 * A keyfile that describes the components of a run. Each section is one
 * component: `plugin=` names its implementation, and every other key sets
 * the GObject property of that name, converted from text according to
 * the property's #GParamSpec:
 *
 * - strings as written (keyfile escapes such as `\n` apply); a string
 *   property flagged %GRAMMAR_PARAM_PATH is a path resolved against the
 *   keyfile's folder;
 * - integers and reals in C locale notation, checked against the
 *   property's range;
 * - booleans as `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`);
 * - enumerations by nick or name, flags as nicks separated by `|` or `,`;
 * - string lists separated by `;`;
 * - a property holding an object (a language model, a retriever…) takes
 *   the name of another section, which is built in turn and shared by
 *   every section that names it.
 *
 * ```
 * [database]
 * plugin=sqlite
 * uri=acme/acme.sqlite
 * ```
 *
 * Every error names the file, the section and the key, in the form
 * `FILE: [SECTION] KEY: message`, and is in the %GRAMMAR_CONFIG_ERROR
 * domain, except that errors a plugin raises while it initialises (a file
 * that cannot be opened…) keep their own domain and gain the same prefix.
 */

G_DEFINE_FINAL_TYPE (GrammarConfig, grammar_config, G_TYPE_OBJECT)

G_DEFINE_QUARK (grammar-config-error-quark, grammar_config_error)

static void
grammar_config_finalize (GObject *object)
{
  GrammarConfig *self = GRAMMAR_CONFIG (object);

  g_free (self->path);
  g_free (self->base_dir);
  g_key_file_unref (self->key_file);
  g_hash_table_unref (self->built);
  g_hash_table_unref (self->overrides);
  g_ptr_array_unref (self->building);

  G_OBJECT_CLASS (grammar_config_parent_class)->finalize (object);
}

static void
grammar_config_class_init (GrammarConfigClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = grammar_config_finalize;
}

static void
grammar_config_init (GrammarConfig *self)
{
  self->key_file = g_key_file_new ();
  self->built = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->building = g_ptr_array_new_with_free_func (g_free);
  self->overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
}

static void
value_free (GValue *value)
{
  g_value_unset (value);
  g_free (value);
}

/**
 * grammar_config_override_property:
 * @self: a #GrammarConfig
 * @section: a section
 * @property: a property of the component @section describes
 * @value: the value to give it
 *
 * Gives @property of the component that @section describes @value when
 * the section is built, in place of what its key (if any) says. This is
 * how a program hands a component something it made itself, such as the
 * corpus that #GrammarMethod writes for the retrievers, without editing
 * the keyfile. It must come before the section is built; a property the
 * component does not have is an error when it is built.
 */
void
grammar_config_override_property (GrammarConfig *self,
                                  const char    *section,
                                  const char    *property,
                                  const GValue  *value)
{
  GHashTable *properties;
  GValue *copy;

  g_return_if_fail (GRAMMAR_IS_CONFIG (self));
  g_return_if_fail (section != NULL && property != NULL);
  g_return_if_fail (G_IS_VALUE (value));
  g_return_if_fail (!g_hash_table_contains (self->built, section));

  properties = g_hash_table_lookup (self->overrides, section);
  if (properties == NULL)
    {
      properties = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) value_free);
      g_hash_table_insert (self->overrides, g_strdup (section), properties);
    }
  copy = g_new0 (GValue, 1);
  g_value_init (copy, G_VALUE_TYPE (value));
  g_value_copy (value, copy);
  g_hash_table_insert (properties, g_strdup (property), copy);
}

/* GKeyFile merges a section written twice and keeps the last of a key
 * written twice, and what is built from it can then see a key twice (a
 * GLib-CRITICAL): a keyfile that says one thing in two places is a
 * mistake to show the user, with both places. One pass over the lines,
 * as GKeyFile reads them: "[section]", "key=value", comments. */
static gboolean
check_duplicates (const char  *path,
                  const char  *data,
                  gsize        length,
                  GError     **error)
{
  g_autoptr (GHashTable) sections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *section = NULL;
  const char *end = data + length;
  guint line = 0;

  for (const char *p = data; p < end;)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *next = eol != NULL ? eol + 1 : end;
      g_autofree char *text = g_strndup (p, (eol != NULL ? eol : end) - p);
      char *stripped = g_strstrip (text);
      char *equals;
      gpointer previous;

      line++;
      p = next;
      if (*stripped == '\0' || *stripped == '#')
        continue;
      if (*stripped == '[')
        {
          char *close = strrchr (stripped, ']');

          if (close == NULL)
            continue;  /* GKeyFile says what is wrong */
          g_free (section);
          section = g_strndup (stripped + 1, close - stripped - 1);
          previous = g_hash_table_lookup (sections, section);
          if (previous != NULL)
            {
              g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE,
                           "%s:%u: section [%s] is written twice; the first is at %s:%u",
                           path, line, section, path, GPOINTER_TO_UINT (previous));
              return FALSE;
            }
          g_hash_table_insert (sections, g_strdup (section), GUINT_TO_POINTER (line));
          continue;
        }
      equals = strchr (stripped, '=');
      if (section == NULL || equals == NULL)
        continue;
      *equals = '\0';
      {
        g_autofree char *key = g_strdup_printf ("%s\n%s", section, g_strchomp (stripped));

        previous = g_hash_table_lookup (keys, key);
        if (previous != NULL)
          {
            g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE,
                         "%s:%u: [%s] %s is set twice; the first is at %s:%u",
                         path, line, section, stripped, path, GPOINTER_TO_UINT (previous));
            return FALSE;
          }
        g_hash_table_insert (keys, g_steal_pointer (&key), GUINT_TO_POINTER (line));
      }
    }
  return TRUE;
}

/**
 * grammar_config_new_from_file:
 * @path: (type filename): the keyfile
 * @error: return location for a #GError
 *
 * Reads a keyfile. Nothing is built yet: components are made on demand
 * by grammar_config_build().
 *
 * Returns: (transfer full) (nullable): the configuration, or %NULL with
 *   a %GRAMMAR_CONFIG_ERROR_PARSE error naming the file
 */
GrammarConfig *
grammar_config_new_from_file (const char  *path,
                              GError     **error)
{
  g_autoptr (GrammarConfig) self = NULL;
  g_autoptr (GError) local_error = NULL;
  g_autofree char *absolute = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_CONFIG, NULL);
  self->path = g_strdup (path);
  absolute = g_canonicalize_filename (path, NULL);
  self->base_dir = g_path_get_dirname (absolute);

  {
    g_autofree char *contents = NULL;
    gsize length = 0;

    /* A file that cannot be read is for GKeyFile to report. */
    if (g_file_get_contents (path, &contents, &length, NULL) &&
        !check_duplicates (path, contents, length, error))
      return NULL;
  }
  if (!g_key_file_load_from_file (self->key_file, path, G_KEY_FILE_NONE, &local_error))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE,
                   "%s: %s", path, local_error->message);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * grammar_config_new_from_data:
 * @data: keyfile text
 * @length: the length of @data in bytes, or -1 when it is nul-terminated
 * @base_dir: (type filename) (nullable): the folder relative paths resolve
 *   against, or %NULL for the current folder
 * @error: return location for a #GError
 *
 * Reads a keyfile from memory. Messages name it `<keyfile>`.
 *
 * Returns: (transfer full) (nullable): the configuration, or %NULL with @error set
 */
GrammarConfig *
grammar_config_new_from_data (const char  *data,
                              gssize       length,
                              const char  *base_dir,
                              GError     **error)
{
  g_autoptr (GrammarConfig) self = NULL;
  g_autoptr (GError) local_error = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (GRAMMAR_TYPE_CONFIG, NULL);
  self->path = g_strdup ("<keyfile>");
  self->base_dir = g_canonicalize_filename (base_dir != NULL ? base_dir : ".", NULL);

  if (!check_duplicates (self->path, data, length >= 0 ? (gsize) length : strlen (data), error))
    return NULL;
  if (!g_key_file_load_from_data (self->key_file, data, length, G_KEY_FILE_NONE, &local_error))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_PARSE,
                   "%s: %s", self->path, local_error->message);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * grammar_config_get_path:
 * @self: a #GrammarConfig
 *
 * Returns: (type filename): the keyfile path as given, or `<keyfile>` for one read from memory
 */
const char *
grammar_config_get_path (GrammarConfig *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CONFIG (self), NULL);
  return self->path;
}

/**
 * grammar_config_get_base_dir:
 * @self: a #GrammarConfig
 *
 * Returns: (type filename): the absolute folder relative paths resolve against
 */
const char *
grammar_config_get_base_dir (GrammarConfig *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CONFIG (self), NULL);
  return self->base_dir;
}

/**
 * grammar_config_get_key_file:
 * @self: a #GrammarConfig
 *
 * The keyfile itself, for settings that are not components (a stage's
 * options, for example).
 *
 * Returns: (transfer none): the keyfile
 */
GKeyFile *
grammar_config_get_key_file (GrammarConfig *self)
{
  g_return_val_if_fail (GRAMMAR_IS_CONFIG (self), NULL);
  return self->key_file;
}

/**
 * grammar_config_has_section:
 * @self: a #GrammarConfig
 * @section: a section name
 *
 * Returns: %TRUE when the keyfile has the section
 */
gboolean
grammar_config_has_section (GrammarConfig *self,
                            const char    *section)
{
  g_return_val_if_fail (GRAMMAR_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (section != NULL, FALSE);
  return g_key_file_has_group (self->key_file, section);
}

/**
 * grammar_config_resolve_path:
 * @self: a #GrammarConfig
 * @path: (type filename): a path as written in the keyfile
 *
 * Resolves a path the way %GRAMMAR_PARAM_PATH properties are: a relative
 * path against the keyfile's folder, `~/` against the home folder, a
 * `file:` URI with a relative path likewise; absolute paths, `file://`
 * URIs, `:memory:` and the empty string are kept.
 *
 * Returns: (transfer full) (type filename): the resolved path
 */
char *
grammar_config_resolve_path (GrammarConfig *self,
                             const char    *path)
{
  g_return_val_if_fail (GRAMMAR_IS_CONFIG (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (path[0] == '\0' || g_str_equal (path, ":memory:"))
    return g_strdup (path);
  if (g_str_equal (path, "~"))
    return g_strdup (g_get_home_dir ());
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  if (g_str_has_prefix (path, "file:"))
    {
      const char *rest = path + strlen ("file:");

      if (rest[0] == '/' || rest[0] == '\0')
        return g_strdup (path);
      return g_strconcat ("file:", self->base_dir, "/", rest, NULL);
    }
  if (g_path_is_absolute (path))
    return g_strdup (path);
  return g_canonicalize_filename (path, self->base_dir);
}

/* Errors ------------------------------------------------------------------ */

void G_GNUC_PRINTF (6, 7)
grammar_config_set_error (GrammarConfig      *self,
           GError            **error,
           GrammarConfigError  code,
           const char         *section,
           const char         *key,
           const char         *format,
           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (section != NULL && key != NULL)
    g_set_error (error, GRAMMAR_CONFIG_ERROR, code, "%s: [%s] %s: %s", self->path, section, key, message);
  else if (section != NULL)
    g_set_error (error, GRAMMAR_CONFIG_ERROR, code, "%s: [%s]: %s", self->path, section, message);
  else
    g_set_error (error, GRAMMAR_CONFIG_ERROR, code, "%s: %s", self->path, message);
}

/* Conversion of one key --------------------------------------------------- */

static gboolean
parse_boolean (const char *text,
               gboolean   *out)
{
  static const char *yes[] = { "true", "yes", "on", "1" };
  static const char *no[] = { "false", "no", "off", "0" };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    {
      if (g_ascii_strcasecmp (text, yes[i]) == 0)
        return *out = TRUE, TRUE;
      if (g_ascii_strcasecmp (text, no[i]) == 0)
        return *out = FALSE, TRUE;
    }
  return FALSE;
}

static gboolean
integer_range (GParamSpec *pspec,
               gint64     *min,
               guint64    *max,
               gboolean   *is_signed)
{
  *is_signed = TRUE;
  if (G_IS_PARAM_SPEC_INT (pspec))
    *min = G_PARAM_SPEC_INT (pspec)->minimum, *max = (guint64) G_PARAM_SPEC_INT (pspec)->maximum;
  else if (G_IS_PARAM_SPEC_LONG (pspec))
    *min = G_PARAM_SPEC_LONG (pspec)->minimum, *max = (guint64) G_PARAM_SPEC_LONG (pspec)->maximum;
  else if (G_IS_PARAM_SPEC_INT64 (pspec))
    *min = G_PARAM_SPEC_INT64 (pspec)->minimum, *max = (guint64) G_PARAM_SPEC_INT64 (pspec)->maximum;
  else if (G_IS_PARAM_SPEC_CHAR (pspec))
    *min = G_PARAM_SPEC_CHAR (pspec)->minimum, *max = (guint64) G_PARAM_SPEC_CHAR (pspec)->maximum;
  else
    {
      *is_signed = FALSE;
      if (G_IS_PARAM_SPEC_UINT (pspec))
        *min = G_PARAM_SPEC_UINT (pspec)->minimum, *max = G_PARAM_SPEC_UINT (pspec)->maximum;
      else if (G_IS_PARAM_SPEC_ULONG (pspec))
        *min = (gint64) G_PARAM_SPEC_ULONG (pspec)->minimum, *max = G_PARAM_SPEC_ULONG (pspec)->maximum;
      else if (G_IS_PARAM_SPEC_UINT64 (pspec))
        *min = (gint64) G_PARAM_SPEC_UINT64 (pspec)->minimum, *max = G_PARAM_SPEC_UINT64 (pspec)->maximum;
      else if (G_IS_PARAM_SPEC_UCHAR (pspec))
        *min = G_PARAM_SPEC_UCHAR (pspec)->minimum, *max = G_PARAM_SPEC_UCHAR (pspec)->maximum;
      else
        return FALSE;
    }
  return TRUE;
}

static gboolean
convert_integer (GrammarConfig  *self,
                 GParamSpec     *pspec,
                 const char     *section,
                 const char     *key,
                 const char     *text,
                 GValue         *value,
                 GError        **error)
{
  gint64 min = 0, number = 0;
  guint64 max = 0, unumber = 0;
  gboolean is_signed;
  gboolean ok;

  integer_range (pspec, &min, &max, &is_signed);
  if (is_signed)
    ok = g_ascii_string_to_signed (text, 10, min, (gint64) max, &number, NULL);
  else
    ok = g_ascii_string_to_unsigned (text, 10, (guint64) min, max, &unumber, NULL);

  if (!ok)
    {
      if (is_signed)
        grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key,
                   "“%s” is not a whole number from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                   text, min, (gint64) max);
      else
        grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key,
                   "“%s” is not a whole number from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                   text, (guint64) min, max);
      return FALSE;
    }

  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_INT: g_value_set_int (value, (int) number); break;
    case G_TYPE_LONG: g_value_set_long (value, (long) number); break;
    case G_TYPE_INT64: g_value_set_int64 (value, number); break;
    case G_TYPE_CHAR: g_value_set_schar (value, (gint8) number); break;
    case G_TYPE_UINT: g_value_set_uint (value, (guint) unumber); break;
    case G_TYPE_ULONG: g_value_set_ulong (value, (gulong) unumber); break;
    case G_TYPE_UINT64: g_value_set_uint64 (value, unumber); break;
    case G_TYPE_UCHAR: g_value_set_uchar (value, (guchar) unumber); break;
    default: g_assert_not_reached ();
    }
  return TRUE;
}

static gboolean
convert_real (GrammarConfig  *self,
              GParamSpec     *pspec,
              const char     *section,
              const char     *key,
              const char     *text,
              GValue         *value,
              GError        **error)
{
  double min, max, number;
  char *end = NULL;

  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    min = G_PARAM_SPEC_DOUBLE (pspec)->minimum, max = G_PARAM_SPEC_DOUBLE (pspec)->maximum;
  else
    min = G_PARAM_SPEC_FLOAT (pspec)->minimum, max = G_PARAM_SPEC_FLOAT (pspec)->maximum;

  errno = 0;
  number = g_ascii_strtod (text, &end);
  if (text[0] == '\0' || end == NULL || *end != '\0' || errno != 0 || !isfinite (number) ||
      number < min || number > max)
    {
      grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key,
                 "“%s” is not a number from %g to %g", text, min, max);
      return FALSE;
    }

  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    g_value_set_double (value, number);
  else
    g_value_set_float (value, (float) number);
  return TRUE;
}

static char *
describe_enum_values (GEnumClass *klass)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < klass->n_values; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", klass->values[i].value_nick);
  return g_string_free (names, FALSE);
}

static gboolean
convert_enum (GrammarConfig  *self,
              GParamSpec     *pspec,
              const char     *section,
              const char     *key,
              const char     *text,
              GValue         *value,
              GError        **error)
{
  g_autoptr (GEnumClass) klass = g_type_class_ref (pspec->value_type);
  GEnumValue *found = g_enum_get_value_by_nick (klass, text);

  if (found == NULL)
    found = g_enum_get_value_by_name (klass, text);
  if (found == NULL)
    {
      g_autofree char *allowed = describe_enum_values (klass);

      grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key,
                 "“%s” is not one of: %s", text, allowed);
      return FALSE;
    }
  g_value_set_enum (value, found->value);
  return TRUE;
}

static gboolean
convert_flags (GrammarConfig  *self,
               GParamSpec     *pspec,
               const char     *section,
               const char     *key,
               const char     *text,
               GValue         *value,
               GError        **error)
{
  g_autoptr (GFlagsClass) klass = g_type_class_ref (pspec->value_type);
  g_auto (GStrv) parts = g_strsplit_set (text, "|,", -1);
  guint flags = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *part = g_strstrip (parts[i]);
      GFlagsValue *found;

      if (part[0] == '\0')
        continue;
      found = g_flags_get_value_by_nick (klass, part);
      if (found == NULL)
        found = g_flags_get_value_by_name (klass, part);
      if (found == NULL)
        {
          GString *names = g_string_new (NULL);
          g_autofree char *allowed = NULL;

          for (guint j = 0; j < klass->n_values; j++)
            g_string_append_printf (names, "%s%s", j > 0 ? ", " : "", klass->values[j].value_nick);
          allowed = g_string_free (names, FALSE);
          grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key,
                     "“%s” is not one of: %s", part, allowed);
          return FALSE;
        }
      flags |= found->value;
    }
  g_value_set_flags (value, flags);
  return TRUE;
}

static gboolean
convert_key_value (GrammarConfig  *self,
                   GParamSpec     *pspec,
                   const char     *section,
                   const char     *key,
                   const char     *written,
                   GValue         *value,
                   GError        **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *text = NULL;
  GType type = pspec->value_type;

  g_value_init (value, type);

  if (type == G_TYPE_STRV)
    {
      g_auto (GStrv) list = g_key_file_get_string_list (self->key_file, section, key, NULL, &local_error);

      if (list == NULL)
        {
          grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key, "%s", local_error->message);
          return FALSE;
        }
      for (guint i = 0; list[i] != NULL; i++)
        g_strstrip (list[i]);
      g_value_take_boxed (value, g_steal_pointer (&list));
      return TRUE;
    }

  text = written != NULL ? g_strdup (written) : g_key_file_get_string (self->key_file, section, key, &local_error);
  if (text == NULL)
    {
      grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key, "%s", local_error->message);
      return FALSE;
    }

  if (type == G_TYPE_STRING)
    {
      if ((pspec->flags & GRAMMAR_PARAM_PATH) != 0)
        g_value_take_string (value, grammar_config_resolve_path (self, text));
      else
        g_value_take_string (value, g_steal_pointer (&text));
      return TRUE;
    }

  g_strstrip (text);

  if (type == G_TYPE_BOOLEAN)
    {
      gboolean flag;

      if (!parse_boolean (text, &flag))
        {
          grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key,
                     "“%s” is not a boolean (true or false)", text);
          return FALSE;
        }
      g_value_set_boolean (value, flag);
      return TRUE;
    }

  switch (G_TYPE_FUNDAMENTAL (type))
    {
    case G_TYPE_INT: case G_TYPE_UINT: case G_TYPE_LONG: case G_TYPE_ULONG:
    case G_TYPE_INT64: case G_TYPE_UINT64: case G_TYPE_CHAR: case G_TYPE_UCHAR:
      return convert_integer (self, pspec, section, key, text, value, error);
    case G_TYPE_DOUBLE: case G_TYPE_FLOAT:
      return convert_real (self, pspec, section, key, text, value, error);
    case G_TYPE_ENUM:
      return convert_enum (self, pspec, section, key, text, value, error);
    case G_TYPE_FLAGS:
      return convert_flags (self, pspec, section, key, text, value, error);
    case G_TYPE_OBJECT:
    case G_TYPE_INTERFACE:
      {
        GObject *object;

        if (text[0] == '\0')
          return TRUE;  /* empty: leave the property unset (NULL) */
        object = grammar_config_build_section (self, text, type, section, key, error);
        if (object == NULL)
          return FALSE;
        g_value_take_object (value, object);
        return TRUE;
      }
    default:
      grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key,
                 "properties of type %s cannot be set from a keyfile", g_type_name (type));
      return FALSE;
    }
}

static GQuark
value_hint_quark (void)
{
  return g_quark_from_static_string ("grammar-config-value-hint");
}

/**
 * grammar_param_spec_set_value_hint:
 * @pspec: the #GParamSpec of a property that a keyfile key sets
 * @hint: what a good value is, such as `must be all, any or auto`; kept,
 *   not copied (a static string)
 *
 * Gives a property the message a user sees when a keyfile sets it to a
 * value that does not convert: `FILE: [SECTION] KEY: HINT (not “VALUE”)`
 * instead of the converter's own words. Call it in `class_init`.
 */
void
grammar_param_spec_set_value_hint (GParamSpec *pspec,
                                   const char *hint)
{
  g_return_if_fail (G_IS_PARAM_SPEC (pspec));
  g_return_if_fail (hint != NULL);

  g_param_spec_set_qdata (pspec, value_hint_quark (), (gpointer) hint);
}

static GQuark
default_section_quark (void)
{
  return g_quark_from_static_string ("grammar-config-default-section");
}

/**
 * grammar_param_spec_set_default_section:
 * @pspec: the #GParamSpec of an object property that a keyfile key sets
 *   to a section
 * @section: the section to build when the key is not given, if the
 *   keyfile has it; kept, not copied (a static string)
 *
 * Lets a plugin's object property default to a section every keyfile of
 * a run has, such as `[matcher]` or `[database]`: when the plugin's
 * section does not set the key and the keyfile has @section,
 * grammar_config_build() builds @section for it (the same object as
 * every other user of that section). Without @section in the keyfile,
 * the property stays unset. Call it in `class_init`.
 */
void
grammar_param_spec_set_default_section (GParamSpec *pspec,
                                        const char *section)
{
  g_return_if_fail (G_IS_PARAM_SPEC (pspec));
  g_return_if_fail (g_type_is_a (pspec->value_type, G_TYPE_OBJECT) ||
                    G_TYPE_IS_INTERFACE (pspec->value_type));
  g_return_if_fail (section != NULL);

  g_param_spec_set_qdata (pspec, default_section_quark (), (gpointer) section);
}

static GQuark
required_quark (void)
{
  return g_quark_from_static_string ("grammar-config-required");
}

/**
 * grammar_param_spec_set_required:
 * @pspec: the #GParamSpec of an object property that a keyfile key sets
 *   to a section
 * @fix: what the keyfile must give, such as `name the section of a
 *   language model, such as llm=judge-llm`; kept, not copied (a static
 *   string)
 *
 * Marks a property the component cannot do without (its #GInitable
 * refuses to start without it). The check of a keyfile
 * (grammar_assembly_check()) then tells `FILE: [SECTION] KEY: missing:
 * FIX` for a section that neither sets the key nor has the section of
 * grammar_param_spec_set_default_section() to fall back on, before
 * anything is built. Call it in `class_init`.
 */
void
grammar_param_spec_set_required (GParamSpec *pspec,
                                 const char *fix)
{
  g_return_if_fail (G_IS_PARAM_SPEC (pspec));
  g_return_if_fail (g_type_is_a (pspec->value_type, G_TYPE_OBJECT) ||
                    G_TYPE_IS_INTERFACE (pspec->value_type));
  g_return_if_fail (fix != NULL);

  g_param_spec_set_qdata (pspec, required_quark (), (gpointer) fix);
}

typedef struct
{
  const char *old_value;
  const char *key;
  const char *value;
} OldSpelling;

static GQuark
old_spelling_quark (void)
{
  return g_quark_from_static_string ("grammar-config-old-spelling");
}

/**
 * grammar_param_spec_set_old_spelling:
 * @pspec: the #GParamSpec of a property that a keyfile key sets
 * @old_value: (nullable): the value that is an old spelling, or %NULL
 *   for any value the property refuses
 * @key: the key (a property of the same object) that now takes it
 * @value: (nullable): the value to give @key, or %NULL for the value as
 *   written
 *
 * Keeps an old spelling working for a release: a keyfile that gives
 * @pspec's key @old_value (or a value it refuses) sets @key to @value
 * instead, with a message naming the new spelling. All strings are kept,
 * not copied (static strings). Call it in `class_init`; for instance the
 * retrievers map `stop-words=FILE` to `stop-words-file=FILE`.
 */
void
grammar_param_spec_set_old_spelling (GParamSpec *pspec,
                                     const char *old_value,
                                     const char *key,
                                     const char *value)
{
  OldSpelling *spelling;

  g_return_if_fail (G_IS_PARAM_SPEC (pspec));
  g_return_if_fail (key != NULL);

  spelling = g_new0 (OldSpelling, 1);
  spelling->old_value = old_value;
  spelling->key = key;
  spelling->value = value;
  g_param_spec_set_qdata_full (pspec, old_spelling_quark (), spelling, g_free);
}

/* The property an old spelling of @key really sets, and the text to set
 * it to (in @written), or @pspec itself. */
static GParamSpec *
follow_old_spelling (GrammarConfig  *self,
                     GObjectClass   *klass,
                     GParamSpec     *pspec,
                     const char     *section,
                     const char     *key,
                     gboolean        quiet,
                     char          **written)
{
  const OldSpelling *spelling = g_param_spec_get_qdata (pspec, old_spelling_quark ());
  g_autofree char *text = NULL;
  GParamSpec *target;
  gboolean old;

  if (spelling == NULL || klass == NULL)
    return pspec;
  text = g_key_file_get_string (self->key_file, section, key, NULL);
  if (text == NULL)
    return pspec;
  g_strstrip (text);
  if (spelling->old_value != NULL)
    old = g_str_equal (text, spelling->old_value);
  else
    {
      g_auto (GValue) scratch = G_VALUE_INIT;

      old = !convert_key_value (self, pspec, section, key, text, &scratch, NULL);
    }
  target = old ? g_object_class_find_property (klass, spelling->key) : NULL;
  if (target == NULL)
    return pspec;
  if (!quiet)
    g_message ("%s: [%s] %s=%s is an old spelling, kept for this release: write %s=%s", self->path, section, key,
               text, spelling->key, spelling->value != NULL ? spelling->value : text);
  *written = g_strdup (spelling->value != NULL ? spelling->value : text);
  return target;
}

/* Converts the value of @key for @pspec into @value (initialised here),
 * with the property's hint as the message of a bad value. An old
 * spelling (grammar_param_spec_set_old_spelling()) converts for the
 * property that now takes it, given back in @pspec. */
gboolean
grammar_config_convert_key_full (GrammarConfig  *self,
                  GObjectClass   *klass,
                  GParamSpec    **pspec,
                  const char     *section,
                  const char     *key,
                  gboolean        quiet,
                  GValue         *value,
                  GError        **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *written = NULL;
  const char *hint;
  g_autofree char *text = NULL;

  *pspec = follow_old_spelling (self, klass, *pspec, section, key, quiet, &written);
  if (convert_key_value (self, *pspec, section, key, written, value, &local_error))
    return TRUE;
  hint = g_param_spec_get_qdata (*pspec, value_hint_quark ());
  if (hint == NULL || !g_error_matches (local_error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  text = g_key_file_get_value (self->key_file, section, key, NULL);
  grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key, "%s (not “%s”)", hint,
             text != NULL ? g_strstrip (text) : "");
  return FALSE;
}

static gboolean
convert_key (GrammarConfig  *self,
             GObjectClass   *klass,
             GParamSpec    **pspec,
             const char     *section,
             const char     *key,
             GValue         *value,
             GError        **error)
{
  return grammar_config_convert_key_full (self, klass, pspec, section, key, FALSE, value, error);
}

/* Setting the keys of a section on an object ------------------------------ */

static char *
describe_settable (GObjectClass *klass,
                   GParamFlags   excluded)
{
  g_autofree GParamSpec **specs = NULL;
  GString *names = g_string_new (NULL);
  guint n = 0;

  specs = g_object_class_list_properties (klass, &n);
  for (guint i = 0; i < n; i++)
    if ((specs[i]->flags & G_PARAM_WRITABLE) != 0 && (specs[i]->flags & excluded) == 0)
      g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", specs[i]->name);
  if (names->len == 0)
    g_string_append (names, "(none)");
  return g_string_free (names, FALSE);
}

/* The writable property a key of @section sets on @klass, or NULL with
 * @error naming the keys there are. Properties with a flag of @excluded
 * (construct-only ones, for an object that exists already) cannot be set. */
GParamSpec *
grammar_config_find_key_property (GrammarConfig  *self,
                   GObjectClass   *klass,
                   const char     *section,
                   const char     *key,
                   const char     *owner,
                   const char     *other_keys,
                   GParamFlags     excluded,
                   GError        **error)
{
  GParamSpec *pspec = g_object_class_find_property (klass, key);
  g_autofree char *known = NULL;

  if (pspec != NULL && (pspec->flags & G_PARAM_WRITABLE) != 0 && (pspec->flags & excluded) == 0)
    return pspec;
  known = describe_settable (klass, excluded);
  grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY, section, key,
             "unknown key for %s; its keys are: %s%s", owner, other_keys, known);
  return NULL;
}

/* The keys of the section that configures @object, for people: its own
 * description, or its writable properties ("a, b and c"). */
char *
grammar_config_describe_section_keys (GObject *object)
{
  g_autofree GParamSpec **specs = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GString *text = g_string_new (NULL);
  guint n = 0;

  if (GRAMMAR_IS_CONFIGURABLE (object))
    {
      char *own = grammar_configurable_describe_keys (GRAMMAR_CONFIGURABLE (object));

      if (own != NULL)
        {
          g_string_free (text, TRUE);
          return own;
        }
    }
  specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  for (guint i = 0; i < n; i++)
    if ((specs[i]->flags & G_PARAM_WRITABLE) != 0 && (specs[i]->flags & G_PARAM_CONSTRUCT_ONLY) == 0)
      g_ptr_array_add (names, (gpointer) specs[i]->name);
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (text, "%s%s", i == 0 ? "" : i + 1 == names->len ? " and " : ", ",
                            (const char *) g_ptr_array_index (names, i));
  if (names->len == 0)
    g_string_append (text, "(none)");
  return g_string_free (text, FALSE);
}

/* @cause, of a key a #GrammarConfigurable refused, as FILE: [SECTION] KEY: … */
static gboolean
configurable_error (GrammarConfig  *self,
                    GError        **error,
                    const char     *section,
                    const char     *key,
                    const GError   *cause)
{
  int code = cause->domain == GRAMMAR_CONFIG_ERROR ? cause->code : GRAMMAR_CONFIG_ERROR_BAD_VALUE;

  grammar_config_set_error (self, error, code, section, key, "%s", cause->message);
  return FALSE;
}

/**
 * grammar_config_configure:
 * @self: a #GrammarConfig
 * @section: the section whose keys to apply
 * @object: the object to configure
 * @error: return location for a #GError
 *
 * Sets every key of @section as the property of that name on @object,
 * converted by the property's #GParamSpec exactly as for the plugins that
 * grammar_config_build() makes (paths resolved against the keyfile's
 * folder, object properties built from the section they name). This is how
 * a section that configures a stage rather than a plugin, such as
 * `[judge]` or `[run]`, is read: it has no `plugin=` key, and each of its
 * keys is a writable property of the stage's object that is not
 * construct-only. A missing section sets nothing.
 *
 * Every error has the form `FILE: [SECTION] KEY: message`; the keys
 * before the one that failed stay set.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
grammar_config_configure (GrammarConfig  *self,
                          const char     *section,
                          GObject        *object,
                          GError        **error)
{
  g_auto (GStrv) keys = NULL;

  g_return_val_if_fail (GRAMMAR_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (section != NULL, FALSE);
  g_return_val_if_fail (G_IS_OBJECT (object), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_key_file_has_group (self->key_file, section))
    return TRUE;
  keys = g_key_file_get_keys (self->key_file, section, NULL, NULL);
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_auto (GValue) value = G_VALUE_INIT;
      g_autoptr (GError) local_error = NULL;
      GParamSpec *pspec;
      gboolean handled = FALSE;

      if (GRAMMAR_IS_CONFIGURABLE (object))
        {
          g_autofree char *text = g_key_file_get_string (self->key_file, section, keys[i], NULL);

          if (text != NULL && !grammar_configurable_set_key (GRAMMAR_CONFIGURABLE (object), keys[i], text, &handled,
                                                             &local_error))
            return configurable_error (self, error, section, keys[i], local_error);
          if (handled)
            continue;
        }
      pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), keys[i]);
      if (pspec == NULL || (pspec->flags & G_PARAM_WRITABLE) == 0 || (pspec->flags & G_PARAM_CONSTRUCT_ONLY) != 0)
        {
          g_autofree char *known = grammar_config_describe_section_keys (object);

          grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_UNKNOWN_KEY, section, keys[i],
                     "unknown key; the keys of this section are %s", known);
          return FALSE;
        }
      if (!convert_key (self, G_OBJECT_GET_CLASS (object), &pspec, section, keys[i], &value, error))
        return FALSE;
      g_object_set_property (object, pspec->name, &value);
      if (GRAMMAR_IS_CONFIGURABLE (object) &&
          !grammar_configurable_check_key (GRAMMAR_CONFIGURABLE (object), pspec->name, &local_error))
        return configurable_error (self, error, section, keys[i], local_error);
    }
  return TRUE;
}

/* Building a section ------------------------------------------------------ */

GrammarPluginInfo *
grammar_config_find_plugin (GrammarConfig  *self,
             const char     *section,
             const char     *name,
             GType           wanted_type,
             GError        **error)
{
  GrammarRegistry *registry = grammar_registry_get_default ();
  g_autoptr (GError) local_error = NULL;
  GrammarPluginInfo *info;

  if (grammar_registry_interface_name (wanted_type) != NULL)
    {
      info = grammar_registry_lookup (registry, wanted_type, name, &local_error);
      if (info == NULL)
        grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN, section, "plugin", "%s", local_error->message);
      return info;
    }

  /* A property of a more general type (GObject, or a plugin's own
   * interface): take the first plugin of that name whose type fits. */
  {
    g_autoptr (GPtrArray) all = grammar_registry_list_plugins (registry, G_TYPE_INVALID);

    for (guint i = 0; i < all->len; i++)
      {
        info = g_ptr_array_index (all, i);
        if (g_str_equal (grammar_plugin_info_get_name (info), name) &&
            g_type_is_a (grammar_plugin_info_get_gtype (info), wanted_type))
          return g_object_ref (info);
      }
  }
  if (wanted_type == G_TYPE_OBJECT)
    grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN, section, "plugin",
               "no plugin “%s” (see `grammar plugins`)", name);
  else
    grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_UNKNOWN_PLUGIN, section, "plugin",
               "no plugin “%s” provides a %s (see `grammar plugins`)", name, g_type_name (wanted_type));
  return NULL;
}

char *
grammar_config_describe_cycle (GrammarConfig *self,
                const char    *section)
{
  GString *cycle = g_string_new (NULL);
  gboolean in_cycle = FALSE;

  for (guint i = 0; i < self->building->len; i++)
    {
      const char *name = g_ptr_array_index (self->building, i);

      in_cycle = in_cycle || g_str_equal (name, section);
      if (in_cycle)
        g_string_append_printf (cycle, "[%s] → ", name);
    }
  g_string_append_printf (cycle, "[%s]", section);
  return g_string_free (cycle, FALSE);
}

gboolean
grammar_config_is_building (GrammarConfig *self,
             const char    *section)
{
  for (guint i = 0; i < self->building->len; i++)
    if (g_str_equal (g_ptr_array_index (self->building, i), section))
      return TRUE;
  return FALSE;
}

static GObject *
check_type (GrammarConfig  *self,
            GObject        *object,
            const char     *section,
            GType           wanted_type,
            const char     *from_section,
            const char     *from_key,
            GError        **error)
{
  if (wanted_type == G_TYPE_INVALID || G_TYPE_CHECK_INSTANCE_TYPE (object, wanted_type))
    return g_object_ref (object);

  grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_WRONG_INTERFACE, from_section, from_key,
             "section [%s] is a %s, not a %s", section, G_OBJECT_TYPE_NAME (object),
             grammar_registry_interface_name (wanted_type) != NULL
               ? grammar_registry_interface_name (wanted_type) : g_type_name (wanted_type));
  return NULL;
}

/* Puts the values grammar_config_override_property() gave @section in
 * @names and @values, replacing those of keys. */
static gboolean
apply_overrides (GrammarConfig  *self,
                 const char     *section,
                 GObjectClass   *klass,
                 const char     *owner,
                 GPtrArray      *names,
                 GArray         *values,
                 GError        **error)
{
  GHashTable *properties = g_hash_table_lookup (self->overrides, section);
  GHashTableIter iter;
  gpointer key, value;

  if (properties == NULL)
    return TRUE;
  g_hash_table_iter_init (&iter, properties);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GParamSpec *pspec = grammar_config_find_key_property (self, klass, section, key, owner, "plugin, ", 0, error);
      GValue converted = G_VALUE_INIT;
      guint i;

      if (pspec == NULL)
        return FALSE;
      g_value_init (&converted, pspec->value_type);
      if (!g_value_transform (value, &converted))
        {
          grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_BAD_VALUE, section, key, "a %s cannot be given as a %s",
                     G_VALUE_TYPE_NAME (value), g_type_name (pspec->value_type));
          return FALSE;
        }
      for (i = 0; i < names->len && !g_str_equal (g_ptr_array_index (names, i), pspec->name); i++)
        ;
      if (i == names->len)
        {
          GValue empty = G_VALUE_INIT;

          g_ptr_array_add (names, (gpointer) pspec->name);
          g_array_append_val (values, empty);
        }
      else
        g_value_unset (&g_array_index (values, GValue, i));
      g_array_index (values, GValue, i) = converted;
    }
  return TRUE;
}

/* The object properties the section leaves unset and whose default
 * section (grammar_param_spec_set_default_section()) the keyfile has. */
static gboolean
add_default_sections (GrammarConfig  *self,
                      const char     *section,
                      GObjectClass   *klass,
                      GPtrArray      *names,
                      GArray         *values,
                      GError        **error)
{
  guint n_pspecs = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (klass, &n_pspecs);

  for (guint i = 0; i < n_pspecs; i++)
    {
      const char *wanted = g_param_spec_get_qdata (pspecs[i], default_section_quark ());
      GValue value = G_VALUE_INIT;
      GObject *object;
      gboolean named = FALSE;

      if (wanted == NULL || !g_key_file_has_group (self->key_file, wanted) || g_str_equal (wanted, section))
        continue;
      for (guint j = 0; j < names->len; j++)
        named |= g_str_equal (g_ptr_array_index (names, j), pspecs[i]->name);
      if (named)
        continue;
      object = grammar_config_build_section (self, wanted, pspecs[i]->value_type, section, pspecs[i]->name, error);
      if (object == NULL)
        return FALSE;
      g_value_init (&value, pspecs[i]->value_type);
      g_value_take_object (&value, object);
      g_array_append_val (values, value);
      g_ptr_array_add (names, (gpointer) pspecs[i]->name);
    }
  return TRUE;
}

static GObject *
instantiate (GrammarConfig      *self,
             const char         *section,
             GrammarPluginInfo  *info,
             GError            **error)
{
  GType type = grammar_plugin_info_get_gtype (info);
  g_autoptr (GTypeClass) klass = g_type_class_ref (type);
  g_auto (GStrv) keys = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_autoptr (GObject) object = NULL;
  g_autofree char *owner = g_strdup_printf ("%s plugin “%s”", grammar_plugin_info_get_interface_name (info),
                                            grammar_plugin_info_get_name (info));
  gsize n_keys = 0;

  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);

  keys = g_key_file_get_keys (self->key_file, section, &n_keys, NULL);
  for (gsize i = 0; i < n_keys; i++)
    {
      GParamSpec *pspec;
      GValue value = G_VALUE_INIT;

      if (g_str_equal (keys[i], "plugin"))
        continue;

      pspec = grammar_config_find_key_property (self, G_OBJECT_CLASS (klass), section, keys[i], owner, "plugin, ", 0, error);
      if (pspec == NULL)
        return NULL;

      g_array_append_val (values, value);
      if (!convert_key (self, G_OBJECT_CLASS (klass), &pspec, section, keys[i],
                        &g_array_index (values, GValue, values->len - 1), error))
        return NULL;
      g_ptr_array_add (names, (gpointer) pspec->name);
    }

  if (!add_default_sections (self, section, G_OBJECT_CLASS (klass), names, values, error) ||
      !apply_overrides (self, section, G_OBJECT_CLASS (klass), owner, names, values, error))
    return NULL;
  object = g_object_new_with_properties (type, names->len, (const char **) names->pdata,
                                         (const GValue *) values->data);
  if (G_IS_INITABLE (object))
    {
      g_autoptr (GError) local_error = NULL;

      if (!g_initable_init (G_INITABLE (object), NULL, &local_error))
        {
          g_prefix_error (&local_error, "%s: [%s]: ", self->path, section);
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }
  return g_steal_pointer (&object);
}

GObject *
grammar_config_build_section (GrammarConfig  *self,
               const char     *section,
               GType           wanted_type,
               const char     *from_section,
               const char     *from_key,
               GError        **error)
{
  g_autoptr (GrammarPluginInfo) info = NULL;
  g_autofree char *plugin = NULL;
  GObject *object;

  object = g_hash_table_lookup (self->built, section);
  if (object != NULL)
    return check_type (self, object, section, wanted_type, from_section, from_key, error);

  if (!g_key_file_has_group (self->key_file, section))
    {
      if (from_section != NULL)
        grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_MISSING_SECTION, from_section, from_key,
                   "there is no section [%s]", section);
      else
        grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_MISSING_SECTION, NULL, NULL,
                   "there is no section [%s]; add one with plugin= and its keys", section);
      return NULL;
    }

  if (grammar_config_is_building (self, section))
    {
      g_autofree char *cycle = grammar_config_describe_cycle (self, section);

      grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_CYCLE, from_section, from_key,
                 "sections refer to each other in a cycle: %s", cycle);
      return NULL;
    }

  plugin = g_key_file_get_string (self->key_file, section, "plugin", NULL);
  if (plugin != NULL)
    g_strstrip (plugin);
  if (plugin == NULL || plugin[0] == '\0')
    {
      g_autoptr (GPtrArray) available = NULL;
      GString *names = g_string_new (NULL);
      g_autofree char *list = NULL;

      if (grammar_registry_interface_name (wanted_type) != NULL)
        {
          available = grammar_registry_list_plugins (grammar_registry_get_default (), wanted_type);
          for (guint i = 0; i < available->len; i++)
            g_string_append_printf (names, "%s%s", i > 0 ? ", " : "",
                                    grammar_plugin_info_get_name (g_ptr_array_index (available, i)));
        }
      list = g_string_free (names, FALSE);
      grammar_config_set_error (self, error, GRAMMAR_CONFIG_ERROR_MISSING_PLUGIN, section, "plugin",
                 "missing; name the implementation%s%s", list[0] != '\0' ? ", one of: " : "", list);
      return NULL;
    }

  info = grammar_config_find_plugin (self, section, plugin, wanted_type, error);
  if (info == NULL)
    return NULL;

  g_ptr_array_add (self->building, g_strdup (section));
  object = instantiate (self, section, info, error);
  g_ptr_array_remove_index (self->building, self->building->len - 1);
  if (object == NULL)
    return NULL;

  g_hash_table_insert (self->built, g_strdup (section), object);
  return g_object_ref (object);
}

/**
 * grammar_config_build:
 * @self: a #GrammarConfig
 * @section: the section to build
 * @interface_type: the interface the component must implement, such as
 *   %GRAMMAR_TYPE_DATABASE, or %G_TYPE_INVALID for any
 * @error: return location for a #GError
 *
 * Builds the component a section describes, and every section its keys
 * refer to. Each section is built once: building it again, or naming it
 * from several sections, gives the same object.
 *
 * Returns: (transfer full) (nullable): the component, or %NULL with @error set
 */
GObject *
grammar_config_build (GrammarConfig  *self,
                      const char     *section,
                      GType           interface_type,
                      GError        **error)
{
  g_return_val_if_fail (GRAMMAR_IS_CONFIG (self), NULL);
  g_return_val_if_fail (section != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return grammar_config_build_section (self, section, interface_type, NULL, NULL, error);
}

/* The section grammar_param_spec_set_default_section() gave @pspec, or NULL. */
const char *
grammar_param_spec_get_default_section (GParamSpec *pspec)
{
  return g_param_spec_get_qdata (pspec, default_section_quark ());
}

/* The fix of grammar_param_spec_set_required(), or NULL. */
const char *
grammar_param_spec_get_required (GParamSpec *pspec)
{
  return g_param_spec_get_qdata (pspec, required_quark ());
}
