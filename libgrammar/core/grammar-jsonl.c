/* grammar-jsonl.c: the JSON Lines files of the resumable stages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-json-private.h"
#include "grammar-error.h"
#include "grammar-jsonl-private.h"

gboolean
grammar_jsonl_line_is_blank (const char *line,
                             gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isspace (line[i]))
      return FALSE;
  return TRUE;
}

GDataInputStream *
grammar_jsonl_open (const char    *path,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) stream = NULL;
  g_autoptr (GError) local_error = NULL;
  GDataInputStream *lines;

  stream = g_file_read (file, cancellable, &local_error);
  if (stream == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s: %s", path, local_error->message);
      return NULL;
    }
  lines = g_data_input_stream_new (G_INPUT_STREAM (stream));
  g_data_input_stream_set_newline_type (lines, G_DATA_STREAM_NEWLINE_TYPE_LF);
  return lines;
}

/* Reads the next line into @line, %NULL at the end of the file. */
gboolean
grammar_jsonl_read_line (GDataInputStream  *lines,
                         const char        *path,
                         char             **line,
                         gsize             *length,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_autoptr (GError) local_error = NULL;

  *line = g_data_input_stream_read_line (lines, length, cancellable, &local_error);
  if (local_error == NULL)
    return TRUE;
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_steal_pointer (&local_error));
  else
    g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s", path, local_error->message);
  return FALSE;
}

/* json-glib says "<data>:1:21: Parse error: unexpected …"; the user
 * needs the file and its line instead. */
static void
set_json_error (GError     **error,
                const char  *path,
                guint64      line,
                const char  *message)
{
  const char *column = "";
  g_autofree char *column_text = NULL;

  if (g_str_has_prefix (message, "<data>:1:"))
    {
      const char *rest = message + strlen ("<data>:1:");
      const char *colon = strchr (rest, ':');

      if (colon != NULL)
        {
          column_text = g_strndup (rest, colon - rest);
          column = column_text;
          message = colon + 1;
          while (*message == ' ')
            message++;
        }
    }
  if (g_str_has_prefix (message, "Parse error: "))
    message += strlen ("Parse error: ");
  g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s:%" G_GUINT64_FORMAT "%s%s: invalid JSON: %s",
               path, line, *column != '\0' ? ":" : "", column, message);
}

/* Parses one line into a JSON object; the node belongs to @parser. */
JsonObject *
grammar_jsonl_parse_object (JsonParser  *parser,
                            const char  *path,
                            guint64      line,
                            const char  *text,
                            gsize        length,
                            GError     **error)
{
  g_autoptr (GError) local_error = NULL;
  JsonNode *root;

  if (!g_utf8_validate_len (text, length, NULL))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": not valid UTF-8", path, line);
      return NULL;
    }
  if (!grammar_json_check_depth (path, line, text, length, error))
    return NULL;
  if (!grammar_json_parser_load (parser, text, length, &local_error))
    {
      set_json_error (error, path, line, local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": a record must be a JSON object", path, line);
      return NULL;
    }
  return json_node_get_object (root);
}

/* Reads one record: a JSON object whose known members have their types
 * and whose @required string members are there and not empty. The
 * object stays the root of @parser until its next line. */
GrammarRecord *
grammar_jsonl_parse_record (JsonParser          *parser,
                            const char          *path,
                            guint64              line,
                            const char          *text,
                            gsize                length,
                            const char * const  *required,
                            GError             **error)
{
  g_autoptr (GrammarRecord) record = NULL;
  g_autoptr (GError) local_error = NULL;
  JsonObject *object;

  object = grammar_jsonl_parse_object (parser, path, line, text, length, error);
  if (object == NULL)
    return NULL;
  record = grammar_record_new_from_json (json_parser_get_root (parser), &local_error);
  if (record == NULL)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": %s", path, line, local_error->message);
      return NULL;
    }

  for (guint i = 0; required != NULL && required[i] != NULL; i++)
    {
      /* The record checked the type: a present member is a string or null. */
      JsonNode *member = json_object_get_member (object, required[i]);

      if (member == NULL || JSON_NODE_HOLDS_NULL (member) || *json_node_get_string (member) == '\0')
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": the record needs a non-empty “%s”", path, line, required[i]);
          return NULL;
        }
    }
  return g_steal_pointer (&record);
}

gboolean
grammar_jsonl_check_not_same_file (const char    *input_path,
                                   const char    *output_path,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  const char *inputs[] = { input_path, NULL };

  return grammar_check_output_not_input (output_path, inputs, error);
}

/* One line of an output: a JSON object with a string `id`, which @func
 * notes. */
static gboolean
scan_line (JsonParser            *parser,
           const char            *path,
           guint64                line,
           const char            *text,
           gsize                  length,
           GrammarJsonlScanFunc   func,
           gpointer               user_data,
           GError               **error)
{
  JsonObject *object;
  JsonNode *id;
  GError *local_error = NULL;

  object = grammar_jsonl_parse_object (parser, path, line, text, length, error);
  if (object == NULL)
    return FALSE;
  id = json_object_get_member (object, "id");
  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING)
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                   "%s:%" G_GUINT64_FORMAT ": the record has no string “id”", path, line);
      return FALSE;
    }
  if (!func (object, json_node_get_string (id), line, user_data, &local_error))
    {
      g_prefix_error (&local_error, "%s:%" G_GUINT64_FORMAT ": ", path, line);
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

/* Reads the output of an earlier run, if there is one: @func sees each
 * of its records, and @tail is where its last complete line ends. A
 * complete line that is not a record stops the scan: only a killed
 * run's last line is ever incomplete, anything else is damage the user
 * should look at. */
gboolean
grammar_jsonl_scan_output (const char            *path,
                           GrammarJsonlScanFunc   func,
                           gpointer               user_data,
                           GrammarJsonlTail      *tail,
                           GCancellable          *cancellable,
                           GError               **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GDataInputStream) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local_error = NULL;
  goffset size;
  goffset offset = 0;
  guint64 line = 0;

  memset (tail, 0, sizeof *tail);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, cancellable, &local_error);
  if (info == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return TRUE;
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT, "%s: %s", path, local_error->message);
      return FALSE;
    }
  size = g_file_info_get_size (info);
  lines = grammar_jsonl_open (path, cancellable, error);
  if (lines == NULL)
    return FALSE;

  for (;;)
    {
      g_autofree char *text = NULL;
      gsize length = 0;
      gboolean terminated;

      if (!grammar_jsonl_read_line (lines, path, &text, &length, cancellable, error))
        return FALSE;
      if (text == NULL)
        break;
      line++;
      terminated = offset + (goffset) length < size;
      /* The product never writes a blank line: one is damage (two
       * writers, an edit), not the end of a killed run. */
      if (terminated && grammar_jsonl_line_is_blank (text, length))
        {
          g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_INVALID_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": a blank line; every line of an output is one record",
                       path, line);
          return FALSE;
        }
      if (!grammar_jsonl_line_is_blank (text, length) &&
          !scan_line (parser, path, line, text, length, func, user_data, terminated ? error : NULL))
        {
          if (terminated)
            return FALSE;
          /* Cut off by a kill while it was written: drop it. */
          tail->incomplete_line = line;
          break;
        }
      offset += length + (terminated ? 1 : 0);
      tail->needs_newline = !terminated && length > 0;
    }
  tail->keep_bytes = offset;
  return TRUE;
}

/* Cuts the output after its last complete line. */
gboolean
grammar_jsonl_drop_incomplete_line (const char        *path,
                                    GrammarJsonlTail  *tail,
                                    GCancellable      *cancellable,
                                    GError           **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileIOStream) stream = NULL;
  g_autoptr (GError) local_error = NULL;

  stream = g_file_open_readwrite (file, cancellable, &local_error);
  if (stream == NULL ||
      !g_seekable_truncate (G_SEEKABLE (stream), tail->keep_bytes, cancellable, &local_error) ||
      !g_io_stream_close (G_IO_STREAM (stream), cancellable, &local_error))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s", path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* Opens the output for appending, created when missing; a last line
 * without its newline gets one first. */
GOutputStream *
grammar_jsonl_open_append (const char  *path,
                           gboolean     needs_newline,
                           GError     **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileOutputStream) stream = NULL;
  g_autoptr (GError) local_error = NULL;

  stream = g_file_append_to (file, G_FILE_CREATE_NONE, NULL, &local_error);
  if (stream == NULL ||
      (needs_newline &&
       !g_output_stream_write_all (G_OUTPUT_STREAM (stream), "\n", 1, NULL, NULL, &local_error)))
    {
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: %s", path, local_error->message);
      return NULL;
    }
  return G_OUTPUT_STREAM (g_steal_pointer (&stream));
}

/* Adds @node to @lines as one line. */
void
grammar_jsonl_append_node (GString  *lines,
                           JsonNode *node)
{
  grammar_json_append_node (lines, node, 0);
  g_string_append_c (lines, '\n');
}

/* The size of the file under @stream, or -1 when it cannot be cut back
 * to it (not a file, or not one that can be truncated). */
static goffset
truncatable_size (GOutputStream *stream)
{
  g_autoptr (GFileInfo) info = NULL;

  if (!G_IS_FILE_OUTPUT_STREAM (stream) || !g_seekable_can_truncate (G_SEEKABLE (stream)))
    return -1;
  info = g_file_output_stream_query_info (G_FILE_OUTPUT_STREAM (stream), G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                          NULL, NULL);
  return info != NULL ? g_file_info_get_size (info) : -1;
}

/* One write for all of @lines, then a flush: a kill leaves at most a
 * prefix of them, whose last line has no newline, and the next run
 * removes that line. A write that fails (the disk full, a file-size
 * limit: the kernel writes what fits, then refuses the rest) is cut back
 * to the size before it, so that the file keeps whole lines only, as
 * the process that saw the error can do and a killed one cannot. */
gboolean
grammar_jsonl_write (GOutputStream  *stream,
                     const char     *path,
                     const GString  *lines,
                     GError        **error)
{
  g_autoptr (GError) local_error = NULL;
  goffset before = truncatable_size (stream);

  if (!g_output_stream_write_all (stream, lines->str, lines->len, NULL, NULL, &local_error) ||
      !g_output_stream_flush (stream, NULL, &local_error))
    {
      if (before >= 0)
        g_seekable_truncate (G_SEEKABLE (stream), before, NULL, NULL);
      g_set_error (error, GRAMMAR_ERROR, GRAMMAR_ERROR_FAILED, "%s: cannot write: %s",
                   path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/*
 * grammar_jsonl_object_failed:
 * @object: a line of a stage's output
 *
 * Returns: whether the line records a query that failed: an `error`
 *   member that is not null, as the rag stage writes it (and the later
 *   stages keep it)
 */
gboolean
grammar_jsonl_object_failed (JsonObject *object)
{
  JsonNode *error = json_object_get_member (object, "error");

  return error != NULL && !JSON_NODE_HOLDS_NULL (error);
}
