/* grammar-document.c: a document a retriever indexes, the corpus file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "grammar-json-private.h"
#include "grammar-document.h"
#include "grammar-error.h"

/**
 * GrammarDocument:
 *
 * A document of the corpus a retriever indexes: an identifier unique in
 * the corpus, an optional title, the text and, when the document was
 * made from a database row, the row's table and primary key. Documents
 * are immutable once made.
 *
 * A corpus is stored as `documents.jsonl`, one JSON object a line (see
 * grammar_document_load_jsonl() and grammar_document_to_json()).
 */
struct _GrammarDocument
{
  GObject parent_instance;

  char *id;
  char *title;
  char *text;
  char *source_table;
  char *source_key;
};

enum
{
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_TEXT,
  PROP_SOURCE_TABLE,
  PROP_SOURCE_KEY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GrammarDocument, grammar_document, G_TYPE_OBJECT)

static void
grammar_document_constructed (GObject *object)
{
  GrammarDocument *self = GRAMMAR_DOCUMENT (object);

  /* The getters of id and text never return NULL, even for a document
   * made with g_object_new() and no values. */
  if (self->id == NULL)
    self->id = g_strdup ("");
  if (self->text == NULL)
    self->text = g_strdup ("");

  G_OBJECT_CLASS (grammar_document_parent_class)->constructed (object);
}

static void
grammar_document_finalize (GObject *object)
{
  GrammarDocument *self = GRAMMAR_DOCUMENT (object);

  g_free (self->id);
  g_free (self->title);
  g_free (self->text);
  g_free (self->source_table);
  g_free (self->source_key);

  G_OBJECT_CLASS (grammar_document_parent_class)->finalize (object);
}

static void
grammar_document_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  GrammarDocument *self = GRAMMAR_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_ID: g_value_set_string (value, self->id); break;
    case PROP_TITLE: g_value_set_string (value, self->title); break;
    case PROP_TEXT: g_value_set_string (value, self->text); break;
    case PROP_SOURCE_TABLE: g_value_set_string (value, self->source_table); break;
    case PROP_SOURCE_KEY: g_value_set_string (value, self->source_key); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_document_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  GrammarDocument *self = GRAMMAR_DOCUMENT (object);

  /* All construct-only: each is set once, on a zeroed field. */
  switch (prop_id)
    {
    case PROP_ID: self->id = g_value_dup_string (value); break;
    case PROP_TITLE: self->title = g_value_dup_string (value); break;
    case PROP_TEXT: self->text = g_value_dup_string (value); break;
    case PROP_SOURCE_TABLE: self->source_table = g_value_dup_string (value); break;
    case PROP_SOURCE_KEY: self->source_key = g_value_dup_string (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_document_class_init (GrammarDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = grammar_document_constructed;
  object_class->finalize = grammar_document_finalize;
  object_class->get_property = grammar_document_get_property;
  object_class->set_property = grammar_document_set_property;

  /**
   * GrammarDocument:id:
   *
   * The identifier of the document, unique in the corpus.
   */
  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, flags);
  /**
   * GrammarDocument:title:
   *
   * The title, or %NULL when the document has none.
   */
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  /**
   * GrammarDocument:text:
   *
   * The text of the document (may be empty).
   */
  properties[PROP_TEXT] = g_param_spec_string ("text", NULL, NULL, NULL, flags);
  /**
   * GrammarDocument:source-table:
   *
   * The database table of the row the document was made from, or %NULL.
   */
  properties[PROP_SOURCE_TABLE] = g_param_spec_string ("source-table", NULL, NULL, NULL, flags);
  /**
   * GrammarDocument:source-key:
   *
   * The primary key of the row the document was made from, as a compact
   * JSON object with the key's columns in primary-key order (for example
   * `{"Company_ID":1}`), or %NULL.
   */
  properties[PROP_SOURCE_KEY] = g_param_spec_string ("source-key", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_document_init (GrammarDocument *self)
{
}

/**
 * grammar_document_new:
 * @id: the identifier of the document, unique in the corpus
 * @title: (nullable): the title, or %NULL when the document has none
 * @text: the text of the document
 *
 * Makes a document that comes from no database row.
 *
 * Returns: (transfer full): a new #GrammarDocument
 */
GrammarDocument *
grammar_document_new (const char *id,
                      const char *title,
                      const char *text)
{
  return grammar_document_new_full (id, title, text, NULL, NULL);
}

/**
 * grammar_document_new_full:
 * @id: the identifier of the document, unique in the corpus
 * @title: (nullable): the title, or %NULL when the document has none
 * @text: the text of the document
 * @source_table: (nullable): the table of the row the document was made from
 * @source_key: (nullable): the primary key of that row, a compact JSON
 *   object such as `{"Company_ID":1}`
 *
 * Makes a document, with the database row it was made from.
 *
 * Returns: (transfer full): a new #GrammarDocument
 */
GrammarDocument *
grammar_document_new_full (const char *id,
                           const char *title,
                           const char *text,
                           const char *source_table,
                           const char *source_key)
{
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  return g_object_new (GRAMMAR_TYPE_DOCUMENT,
                       "id", id,
                       "title", title,
                       "text", text,
                       "source-table", source_table,
                       "source-key", source_key,
                       NULL);
}

/**
 * grammar_document_get_id:
 * @self: a #GrammarDocument
 *
 * Returns: the identifier of the document
 */
const char *
grammar_document_get_id (GrammarDocument *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);
  return self->id;
}

/**
 * grammar_document_get_title:
 * @self: a #GrammarDocument
 *
 * Returns: (nullable): the title, or %NULL when the document has none
 */
const char *
grammar_document_get_title (GrammarDocument *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);
  return self->title;
}

/**
 * grammar_document_get_text:
 * @self: a #GrammarDocument
 *
 * Returns: the text of the document
 */
const char *
grammar_document_get_text (GrammarDocument *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);
  return self->text;
}

/**
 * grammar_document_get_source_table:
 * @self: a #GrammarDocument
 *
 * Returns: (nullable): the table of the row the document was made from,
 *   or %NULL
 */
const char *
grammar_document_get_source_table (GrammarDocument *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);
  return self->source_table;
}

/**
 * grammar_document_get_source_key:
 * @self: a #GrammarDocument
 *
 * Returns: (nullable): the primary key of the row the document was made
 *   from, a compact JSON object with the columns in primary-key order, or
 *   %NULL
 */
const char *
grammar_document_get_source_key (GrammarDocument *self)
{
  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);
  return self->source_key;
}

/**
 * grammar_document_to_json:
 * @self: a #GrammarDocument
 *
 * Writes the document as one line of `documents.jsonl`: a compact JSON
 * object with the members `id`, `title` (when set), `text` and `source`
 * (`{"table": ..., "key": {...}}`, when the document has a source table),
 * without a newline. grammar_document_load_jsonl() reads it back.
 *
 * Returns: (transfer full): the JSON text
 */
char *
grammar_document_to_json (GrammarDocument *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  g_return_val_if_fail (GRAMMAR_IS_DOCUMENT (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, self->id);
  if (self->title != NULL)
    {
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, self->title);
    }
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, self->text);
  if (self->source_table != NULL)
    {
      g_autoptr (JsonNode) key = self->source_key != NULL ? json_from_string (self->source_key, NULL) : NULL;

      json_builder_set_member_name (builder, "source");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "table");
      json_builder_add_string_value (builder, self->source_table);
      /* A key that is not a JSON object (only possible through the C
       * API) is left out rather than written as something unreadable. */
      if (key != NULL && JSON_NODE_HOLDS_OBJECT (key))
        {
          json_builder_set_member_name (builder, "key");
          json_builder_add_value (builder, g_steal_pointer (&key));
        }
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return grammar_json_to_data (root, 0, NULL);
}

/* Reading documents.jsonl */

typedef struct
{
  const char *path;
  guint       line;
} Place;

static gboolean
fail (GError     **error,
      const Place *place,
      const char  *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError     **error,
      const Place *place,
      const char  *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s:%u: %s", place->path, place->line, message);
  return FALSE;
}

/* The id member: a string, or a JSON number written as its decimal text
 * (corpora made by scripts often number their documents). */
static char *
read_id (JsonObject  *object,
         const Place *place,
         GError     **error)
{
  JsonNode *node = json_object_get_member (object, "id");
  char *id;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      fail (error, place, "missing member “id”");
      return NULL;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
      *json_node_get_string (node) == '\0')
    {
      fail (error, place, "“id” is empty");
      return NULL;
    }
  id = grammar_json_node_dup_id (node);
  if (id == NULL)
    fail (error, place, "“id” must be a string or a number");
  return id;
}

static gboolean
read_string (JsonObject   *object,
             const char   *name,
             gboolean      required,
             const char  **value,
             const Place  *place,
             GError      **error)
{
  JsonNode *node = json_object_get_member (object, name);

  *value = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return required ? fail (error, place, "missing member “%s”", name) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (error, place, "“%s” must be a string", name);
  *value = json_node_get_string (node);
  return TRUE;
}

/* The optional source member: {"table": "...", "key": {...}}. The key is
 * kept as compact JSON text; json-glib keeps the members in file order,
 * which is the primary-key order the writer used. */
static gboolean
read_source (JsonObject  *object,
             char       **table,
             char       **key,
             const Place *place,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, "source");
  JsonObject *source;
  JsonNode *key_node;
  const char *table_name;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (error, place, "“source” must be an object {\"table\": ..., \"key\": {...}}");
  source = json_node_get_object (node);
  if (!read_string (source, "table", TRUE, &table_name, place, error))
    {
      g_prefix_error (error, "source: ");
      return FALSE;
    }
  key_node = json_object_get_member (source, "key");
  if (key_node != NULL && !JSON_NODE_HOLDS_NULL (key_node) && !JSON_NODE_HOLDS_OBJECT (key_node))
    return fail (error, place, "“source.key” must be an object");

  *table = g_strdup (table_name);
  if (key_node != NULL && JSON_NODE_HOLDS_OBJECT (key_node))
    *key = grammar_json_to_data (key_node, 0, NULL);
  return TRUE;
}

/* json-glib starts its messages with "<data>:LINE:COLUMN: "; the line is
 * always 1 here and the real place is already in front: say "column N". */
static char *
json_error_text (const char *message)
{
  const char *column, *end, *rest;

  if (!g_str_has_prefix (message, "<data>:1:"))
    return g_strdup (message);
  column = message + strlen ("<data>:1:");
  for (end = column; g_ascii_isdigit (*end); end++)
    ;
  if (end == column || end[0] != ':')
    return g_strdup (message);
  rest = end + 1;
  while (*rest == ' ')
    rest++;
  return g_strdup_printf ("column %.*s: %s", (int) (end - column), column, rest);
}

static GrammarDocument *
parse_line (JsonParser  *parser,
            const char  *line,
            const Place *place,
            GError     **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *source_table = NULL;
  g_autofree char *source_key = NULL;
  const char *title, *text;
  JsonNode *root;
  JsonObject *object;

  if (!grammar_json_check_depth (place->path, place->line, line, strlen (line), error))
    return NULL;
  if (!grammar_json_parser_load (parser, line, strlen (line), &local_error))
    {
      g_autofree char *text = json_error_text (local_error->message);

      fail (error, place, "not JSON: %s", text);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (error, place, "not a JSON object");
      return NULL;
    }
  object = json_node_get_object (root);

  if ((id = read_id (object, place, error)) == NULL ||
      !read_string (object, "title", FALSE, &title, place, error) ||
      !read_string (object, "text", TRUE, &text, place, error) ||
      !read_source (object, &source_table, &source_key, place, error))
    return NULL;

  return grammar_document_new_full (id, title, text, source_table, source_key);
}

static gboolean
is_blank (const char *line)
{
  for (; *line != '\0'; line++)
    if (!g_ascii_isspace (*line))
      return FALSE;
  return TRUE;
}

/**
 * grammar_document_load_jsonl:
 * @path: the `documents.jsonl` file
 * @error: return location for a #GError
 *
 * Reads a corpus: one JSON object a line, with the members `id` (a
 * string, required; a JSON number is taken as its decimal text), `title`
 * (a string, optional), `text` (a string, required, may be empty) and
 * `source` (optional: `{"table": "...", "key": {...}}`, the database
 * row the document was made from). Blank lines are skipped; other
 * members are ignored.
 *
 * Errors are %GRAMMAR_ERROR_INVALID_INPUT with a message that starts
 * with `PATH:LINE:` (a line that is not a JSON object, a missing or
 * ill-typed member, an id used twice), or with `PATH:` when the file
 * cannot be read.
 *
 * Returns: (transfer full) (element-type GrammarDocument) (nullable): the
 *   documents in file order, or %NULL with @error set
 */
GPtrArray *
grammar_document_load_jsonl (const char  *path,
                             GError     **error)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInputStream) file_stream = NULL;
  g_autoptr (GDataInputStream) data = NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GHashTable) first_line = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) documents = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GError) local_error = NULL;
  Place place = { path, 0 };

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_file_new_for_path (path);
  file_stream = g_file_read (file, NULL, &local_error);
  if (file_stream == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", path, local_error->message);
      return NULL;
    }
  data = g_data_input_stream_new (G_INPUT_STREAM (file_stream));
  g_data_input_stream_set_newline_type (data, G_DATA_STREAM_NEWLINE_TYPE_LF);

  for (;;)
    {
      g_autofree char *line = NULL;
      g_autoptr (GrammarDocument) document = NULL;
      gsize length;
      gpointer first;

      line = g_data_input_stream_read_line (data, &length, NULL, &local_error);
      if (line == NULL && local_error != NULL)
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", path, local_error->message);
          return NULL;
        }
      if (line == NULL)
        break;
      place.line++;
      if (is_blank (line))
        continue;
      if ((document = parse_line (parser, line, &place, error)) == NULL)
        return NULL;
      if (g_hash_table_lookup_extended (first_line, document->id, NULL, &first))
        {
          fail (error, &place, "duplicate id “%s” (first on line %u)", document->id, GPOINTER_TO_UINT (first));
          return NULL;
        }
      g_hash_table_insert (first_line, g_strdup (document->id), GUINT_TO_POINTER (place.line));
      g_ptr_array_add (documents, g_steal_pointer (&document));
    }
  return g_steal_pointer (&documents);
}

/* Tokens */

/* Appends the token text[start, end) to tokens: lower-case ASCII
 * already; other text is put back in composed form (NFC) so that equal
 * words are equal strings. */
static void
add_token (GPtrArray  *tokens,
           const char *start,
           const char *end,
           gboolean    ascii)
{
  if (end == start)
    return;
  if (ascii)
    g_ptr_array_add (tokens, g_strndup (start, end - start));
  else
    g_ptr_array_add (tokens, g_utf8_normalize (start, end - start, G_NORMALIZE_NFC));
}

static void
tokenize_ascii (const char *text,
                GPtrArray  *tokens)
{
  const char *start = NULL;
  const char *p;

  for (p = text; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p))
        {
          if (start == NULL)
            start = p;
          continue;
        }
      if (start != NULL)
        add_token (tokens, start, p, TRUE);
      start = NULL;
    }
  if (start != NULL)
    add_token (tokens, start, p, TRUE);
  for (guint i = 0; i < tokens->len; i++)
    {
      char *token = g_ptr_array_index (tokens, i);

      for (char *c = token; *c != '\0'; c++)
        *c = g_ascii_tolower (*c);
    }
}

/* A word is a run of letters and digits; combining marks that survive
 * the diacritic folding (spacing marks, as in Indic scripts) continue
 * the word rather than break it. */
static gboolean
is_word_char (gunichar c)
{
  GUnicodeType type;

  if (g_unichar_isalnum (c))
    return TRUE;
  type = g_unichar_type (c);
  return type == G_UNICODE_SPACING_MARK || type == G_UNICODE_ENCLOSING_MARK;
}

static void
tokenize_unicode (const char *text,
                  GPtrArray  *tokens)
{
  g_autofree char *valid = g_utf8_validate (text, -1, NULL) ? NULL : g_utf8_make_valid (text, -1);
  g_autofree char *compatible = g_utf8_normalize (valid != NULL ? valid : text, -1, G_NORMALIZE_NFKC);
  g_autofree char *folded = g_utf8_casefold (compatible, -1);
  /* Decomposed, a letter with a diacritic is the base letter followed by
   * non-spacing marks, which are dropped: “Zoë” is the word “zoe”. */
  g_autofree char *decomposed = g_utf8_normalize (folded, -1, G_NORMALIZE_NFD);
  g_autoptr (GString) word = g_string_new (NULL);
  gboolean ascii = TRUE;

  for (const char *p = decomposed; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_type (c) == G_UNICODE_NON_SPACING_MARK)
        continue;
      if (is_word_char (c))
        {
          g_string_append_unichar (word, c);
          ascii = ascii && c < 0x80;
          continue;
        }
      add_token (tokens, word->str, word->str + word->len, ascii);
      g_string_truncate (word, 0);
      ascii = TRUE;
    }
  add_token (tokens, word->str, word->str + word->len, ascii);
}

static gboolean
is_ascii (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if (*p >= 0x80)
      return FALSE;
  return TRUE;
}

/**
 * grammar_document_tokenize:
 * @text: a text
 *
 * Splits @text into the words retrievers compare, the same way for
 * documents and queries: the text is normalised (NFKC) and case-folded
 * (g_utf8_casefold(), so “ＡＢＣ” is “abc” and “Straße” is “strasse”),
 * diacritics are removed (“Zoë” is “zoe”), and every character that is
 * neither a letter nor a digit separates words. Words are in text order
 * and may repeat.
 *
 * Returns: (transfer full) (array zero-terminated=1): the words
 */
char **
grammar_document_tokenize (const char *text)
{
  GPtrArray *tokens = g_ptr_array_new ();

  g_return_val_if_fail (text != NULL, NULL);

  /* Most corpora are mostly ASCII, where normalising changes nothing and
   * case folding is ASCII lower-casing: skip the three Unicode passes. */
  if (is_ascii (text))
    tokenize_ascii (text, tokens);
  else
    tokenize_unicode (text, tokens);
  g_ptr_array_add (tokens, NULL);
  return (char **) g_ptr_array_free (tokens, FALSE);
}

/* A short list of very frequent English function words. */
static const char * const english_stop_words[] = {
  "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as",
  "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can",
  "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further",
  "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his",
  "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my",
  "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our",
  "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than",
  "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this",
  "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what",
  "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your",
  "yours", "yourself", "yourselves",
};

static gpointer
make_stop_word_set (gpointer data)
{
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);

  for (gsize i = 0; i < G_N_ELEMENTS (english_stop_words); i++)
    g_hash_table_add (set, (gpointer) english_stop_words[i]);
  return set;
}

/**
 * grammar_document_is_stop_word:
 * @token: a word as grammar_document_tokenize() returns it
 *
 * Whether @token is in GRAMMAR's built-in list of English stop words,
 * about 130 very frequent function words (“the”, “of”, “what”, “is”…)
 * that retrievers and readers may ignore.
 *
 * Returns: %TRUE for a stop word
 */
gboolean
grammar_document_is_stop_word (const char *token)
{
  static GOnce once = G_ONCE_INIT;

  g_return_val_if_fail (token != NULL, FALSE);

  g_once (&once, make_stop_word_set, NULL);
  return g_hash_table_contains (once.retval, token);
}
