/* test-value-fidelity.c: database values leave the product as the database gave them
 *
 * Issue 16, part 1. A value must come out of every stage, file and
 * report byte for byte as its database gave it: a real in its shortest
 * text that reads back as the same double (154.8, never
 * 154.80000000000001), an exact decimal of PostgreSQL or MariaDB as the
 * server wrote it (154.80, 12345678901234567890.5, 99999999999999999999),
 * an integer beyond 2^53 with every digit, dates and text as given.
 *
 * - /value-fidelity/json/…: the JSON reader and writer every file goes
 *   through keep each number as written;
 * - /value-fidelity/pipeline: tests/servers/value-fidelity.sql, through
 *   docs, qa, rag (tests/rag-test-system), judge, assess (keypoints) and
 *   report in its four formats, every value compared with the bytes its
 *   database gives. Run from SQLite here, and by meson under
 *   tests/servers/with-server.py from PostgreSQL and MariaDB, whose
 *   decimals keep their trailing zeros and all their digits;
 * - /value-fidelity/matching: the contains matcher finds 154.80 in
 *   "154.8" and tells 12345678901234567890.5 from …890.4;
 * - /value-fidelity/import: `grammar import --from grammar-py` keeps the
 *   numbers of the Python tool's files, and the report shows them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>
#include <json-glib/json-glib.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmp_dir;

/* The server the program runs against (with-server.py sets it), or NULL
 * for SQLite. */
static const char *server;

/* JSON numbers, kept as written -------------------------------------------------- */

/* @text through the product's reader and writer. */
static char *
round_trip (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = grammar_json_from_data (text, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return grammar_json_to_data (node, 0, NULL);
}

/* What json-glib alone makes of @text, written by the product's writer. */
static char *
json_glib_round_trip (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = json_from_string (text, &error);

  g_assert_no_error (error);
  return grammar_json_to_data (node, 0, NULL);
}

static void
test_json_numbers (void)
{
  static const char * const tokens[] = {
    "154.80", "154.8", "0.10", "12.00", "1.0", "2.0", "-0.0", "0.0", "0", "-0", "-0.5",
    "9007199254740993", "-9007199254740993", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "-9223372036854775809", "99999999999999999999",
    "12345678901234567890.5", "0.1000000000000000055511151231257827", "123456789012345.6",
    "1234567890123456.7", "1e400", "-1e400", "1E5", "1e5", "1e+20", "1e-05", "0.00001",
    "0.0001", "0.00012", "2.5e-3", "1.5e+300",
  };

  /* Every number written back as it was read. */
  for (guint i = 0; i < G_N_ELEMENTS (tokens); i++)
    {
      g_autofree char *array = g_strdup_printf ("[%s]", tokens[i]);
      g_autofree char *written = round_trip (array);

      g_assert_cmpstr (written, ==, array);
    }

  /* Kept as its text only when json-glib would change it. */
  {
    g_autoptr (JsonNode) kept = grammar_json_node_new_number ("154.80");
    g_autoptr (JsonNode) plain = grammar_json_node_new_number ("154.8");
    g_autoptr (JsonNode) integer = grammar_json_node_new_number ("9223372036854775807");
    g_autoptr (JsonNode) beyond = grammar_json_node_new_number ("9223372036854775808");
    g_autofree char *kept_text = grammar_json_to_data (kept, 0, NULL);

    g_assert_cmpstr (grammar_json_node_get_number_text (kept), ==, "154.80");
    g_assert_cmpstr (kept_text, ==, "154.80");
    g_assert_null (grammar_json_node_get_number_text (plain));
    g_assert_cmpfloat (json_node_get_double (plain), ==, 154.8);
    g_assert_null (grammar_json_node_get_number_text (integer));
    g_assert_cmpint (json_node_get_int (integer), ==, G_MAXINT64);
    g_assert_cmpstr (grammar_json_node_get_number_text (beyond), ==, "9223372036854775808");
  }

  /* Strings and member names are never numbers; the layout of a file
   * with other values around the numbers stays. */
  {
    const char *text = "{\"12.50\":12.50,\"s\":\"a 12.50 \\\"b\\\" 1.10\",\"n\":[1.10,{\"x\":-0}],\"t\":true,\"z\":null,"
                       "\"e\":\"ends in \\\\\",\"after\":0.50}";
    g_autofree char *written = round_trip (text);

    g_assert_cmpstr (written, ==, text);
  }

  /* A member that only looks like a kept number is an object. */
  {
    const char *text = "{\"$numberDecimal\":\"not a number\"}";
    g_autofree char *written = round_trip (text);

    g_assert_cmpstr (written, ==, text);
  }

  /* Not JSON but read by json-glib (comments, single quotes): from
   * there on the text is left to json-glib as it is, which reads doubles. */
  {
    g_autofree char *comment = round_trip ("[12.50 /* \" */, 1.50, \"2.50\"]");
    g_autofree char *quoted = round_trip ("['a', 12.50]");

    g_assert_cmpstr (comment, ==, "[12.50,1.5,\"2.50\"]");
    g_assert_cmpstr (quoted, ==, "[\"a\",12.5]");
  }
}

/* Random doubles in their shortest text are plain doubles; random
 * decimals come back byte for byte, kept as text exactly when json-glib
 * and the writer would not give them back. */
static void
test_json_numbers_random (void)
{
  for (guint i = 0; i < 20000; i++)
    {
      double value = g_test_rand_double_range (-1e6, 1e6) * pow (10.0, g_test_rand_int_range (-12, 12));
      g_autoptr (JsonNode) node = json_node_init_double (json_node_alloc (), value);
      g_autofree char *text = grammar_json_to_data (node, 0, NULL);
      g_autoptr (JsonNode) read = grammar_json_from_data (text, -1, NULL);

      g_assert_nonnull (read);
      g_assert_null (grammar_json_node_get_number_text (read));
      g_assert_cmpfloat (json_node_get_double (read), ==, value);
    }

  for (guint i = 0; i < 20000; i++)
    {
      g_autoptr (GString) token = g_string_new (g_test_rand_bit () ? "-" : "");
      guint integer = g_test_rand_int_range (1, 22);
      guint fraction = g_test_rand_int_range (0, 12);
      g_autofree char *array = NULL;
      g_autofree char *written = NULL;
      g_autofree char *json_glib = NULL;
      g_autoptr (JsonNode) node = NULL;
      JsonNode *element;

      g_string_append_c (token, (char) ('1' + g_test_rand_int_range (0, 9)));
      for (guint d = 1; d < integer; d++)
        g_string_append_c (token, (char) ('0' + g_test_rand_int_range (0, 10)));
      if (g_test_rand_int_range (0, 4) == 0)
        g_string_assign (token, token->str[0] == '-' ? "-0" : "0");
      if (fraction > 0)
        {
          g_string_append_c (token, '.');
          for (guint d = 0; d < fraction; d++)
            g_string_append_c (token, (char) ('0' + g_test_rand_int_range (0, 10)));
        }
      if (g_test_rand_int_range (0, 6) == 0)
        g_string_append_printf (token, "e%d", g_test_rand_int_range (-30, 30));

      array = g_strdup_printf ("[%s]", token->str);
      written = round_trip (array);
      g_assert_cmpstr (written, ==, array);

      node = grammar_json_from_data (array, -1, NULL);
      element = json_array_get_element (json_node_get_array (node), 0);
      json_glib = json_glib_round_trip (array);
      if (g_str_equal (json_glib, array))
        g_assert_null (grammar_json_node_get_number_text (element));
      else
        g_assert_cmpstr (grammar_json_node_get_number_text (element), ==, token->str);
    }
}

/* A record read from a line and written again is the same line, with
 * its answer, bindings and unknown members as they were. */
static void
test_json_record (void)
{
  const char *line =
    "{\"id\":\"q1\",\"group\":\"g1\",\"bindings\":{\"item.amount\":154.80},"
    "\"answer\":[[12345678901234567890.5,99999999999999999999,\"0.10\",2265.8,0.10]],"
    "\"response\":\"154.8\",\"latency_ms\":3.50,\"kept\":{\"price\":1.50}}";
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = grammar_json_from_data (line, -1, &error);
  g_autoptr (GrammarRecord) record = NULL;
  g_autoptr (JsonNode) written_node = NULL;
  g_autofree char *written = NULL;

  g_assert_no_error (error);
  record = grammar_record_new_from_json (node, &error);
  g_assert_no_error (error);
  /* a number kept as its text is still a number where one is read */
  g_assert_cmpfloat (grammar_record_get_latency_ms (record), ==, 3.5);
  written_node = grammar_record_to_json (record);
  written = grammar_json_to_data (written_node, 0, NULL);
  g_assert_cmpstr (written,
                   ==,
                   "{\"id\":\"q1\",\"group\":\"g1\",\"bindings\":{\"item.amount\":154.80},"
                   "\"answer\":[[12345678901234567890.5,99999999999999999999,\"0.10\",2265.8,0.10]],"
                   "\"response\":\"154.8\",\"latency_ms\":3.5,\"kept\":{\"price\":1.50}}");
}

/* The fixture: each value as each database gives it ------------------------------ */

typedef struct
{
  const char *column;
  const char *row;      /* the item's name */
  const char *sqlite;   /* the JSON text of the value SQLite gives */
  const char *server;   /* … PostgreSQL and MariaDB give; NULL: the same */
} Cell;

static const Cell cells[] = {
  { "price", "Alpha", "154.8", NULL },
  { "price", "Beta", "2265.8", NULL },
  { "price", "Gamma", "62.4", NULL },
  /* SQLite's NUMERIC affinity stores the double 154.8 and the integer 12 */
  { "amount", "Alpha", "154.8", "154.80" },
  { "amount", "Beta", "12", "12.00" },
  { "amount", "Gamma", "0.1", "0.10" },
  { "exact", "Alpha", "1.2345678901234567e+19", "12345678901234567890.5" },
  { "exact", "Beta", "-0.5", NULL },
  { "exact", "Gamma", "1", "1.0" },
  { "whole", "Alpha", "1e+20", "99999999999999999999" },
  { "whole", "Beta", "-42", NULL },
  { "whole", "Gamma", "0", NULL },
  { "big", "Alpha", "9007199254740993", NULL },
  { "big", "Beta", "-9223372036854775807", NULL },
  { "big", "Gamma", "9223372036854775807", NULL },
  { "day", "Alpha", "\"2021-03-04\"", NULL },
  { "day", "Beta", "\"1999-12-31\"", NULL },
  { "day", "Gamma", "\"2000-02-29\"", NULL },
  { "note", "Alpha", "\"Flann O'Brien\"", NULL },
  { "note", "Beta", "\"2021-03-04T05:06:07Z\"", NULL },
  { "note", "Gamma", "\"0.10\"", NULL },
};

/* Templates that ask by a value as well as for one: the value is then in
 * the bindings, the filled SQL and the question too. */
static const char * const asked_by[] = { "price", "amount", "exact", "big" };

/* Texts no file may hold: what 17 digits, a double for a 64-bit integer
 * or for a decimal made of these values before. (The contains matcher's
 * reason names the 15 digits it compares, 1.23456789012346e+19:
 * doc/matchers.md.) */
static const char * const wrong[] = {
  "154.80000000000001", "2265.8000000000002", "62.399999999999999",
  "1.2345678901234568e+19", "12345678901234567000", "9007199254740992",
};

static const char *
cell_json (const Cell *cell)
{
  return server != NULL && cell->server != NULL ? cell->server : cell->sqlite;
}

/* The value as text: a number as its JSON text, a string without quotes
 * (none of the fixture's strings has an escape). */
static char *
cell_text (const Cell *cell)
{
  const char *json = cell_json (cell);

  if (json[0] == '"')
    return g_strndup (json + 1, strlen (json) - 2);
  return g_strdup (json);
}

static char *
fixture_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "servers", "value-fidelity.sql", NULL);
}

/* The expectations for SQLite are SQLite's own values: each read with
 * sqlite3 itself, and each JSON text reads back as it. */
static void
check_sqlite_values (void)
{
  g_autofree char *path = fixture_path ();
  g_autofree char *script = NULL;
  sqlite3 *db = NULL;

  g_assert_true (g_file_get_contents (path, &script, NULL, NULL));
  g_assert_cmpint (sqlite3_open (":memory:", &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, script, NULL, NULL, NULL), ==, SQLITE_OK);
  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT %s FROM item WHERE name = ?", cells[i].column);
      sqlite3_stmt *stmt = NULL;
      const char *json = cells[i].sqlite;

      g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
      sqlite3_bind_text (stmt, 1, cells[i].row, -1, SQLITE_STATIC);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      switch (sqlite3_column_type (stmt, 0))
        {
        case SQLITE_INTEGER:
          {
            g_autofree char *digits = g_strdup_printf ("%lld", (long long) sqlite3_column_int64 (stmt, 0));

            g_assert_cmpstr (json, ==, digits);
            break;
          }
        case SQLITE_FLOAT:
          g_assert_cmpfloat (g_ascii_strtod (json, NULL), ==, sqlite3_column_double (stmt, 0));
          break;
        case SQLITE_TEXT:
          {
            g_autofree char *quoted = g_strdup_printf ("\"%s\"", (const char *) sqlite3_column_text (stmt, 0));

            g_assert_cmpstr (json, ==, quoted);
            break;
          }
        default:
          g_assert_not_reached ();
        }
      sqlite3_finalize (stmt);
    }
  sqlite3_close (db);
}

/* The pipeline ---------------------------------------------------------------------- */

static char *
database_section (void)
{
  g_autofree char *path = NULL;

  if (server == NULL)
    {
      path = fixture_path ();
      return g_strdup_printf ("[database]\nplugin=sqlite\nscript=%s\n", path);
    }
  return g_strdup_printf ("[database]\nplugin=%s\nhost=%s\nport=%s\ndatabase=%s\nuser=%s\n"
                          "password-env=GRAMMAR_TEST_DB_PASSWORD\nsslmode=disable\n",
                          server, g_getenv ("GRAMMAR_TEST_DB_HOST"), g_getenv ("GRAMMAR_TEST_DB_PORT"),
                          g_getenv ("GRAMMAR_TEST_DB_NAME"), g_getenv ("GRAMMAR_TEST_DB_USER"));
}

static const char rest_of_config[] =
  "\n[documents]\ntables=item\nitem.title={name}\n"
  "item.text={name} costs {price}; amount {amount}, exact {exact}, whole {whole}, big {big}, day {day}, note {note}.\n"
  /* "answer to: QUESTION": every record is incorrect, so that every
   * answer is listed in the report */
  "\n[system]\nplugin=rag-test\n"
  "\n[matcher]\nplugin=contains\n"
  "\n[metrics]\nmetrics=keypoints\n"
  "\n[keypoints]\nplugin=rageval-keypoints\nsource=answer\nverdicts=grounded\n";

static void
run_ok (const char *dir,
        ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_auto (GrammarTestRun) run = { 0 };
  const char *arg;
  va_list ap;

  va_start (ap, dir);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  grammar_test_runv (&run, dir, (const char * const *) args->pdata);
  if (run.status != 0)
    g_error ("grammar %s exited %d: %s", (const char *) args->pdata[0], run.status, run.err);
}

static char *
read_text (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

static const Cell *
find_cell (const char *column,
           const char *row,
           const char *json)
{
  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    if (g_str_equal (cells[i].column, column) &&
        (row == NULL || g_str_equal (cells[i].row, row)) &&
        (json == NULL || g_str_equal (cell_json (&cells[i]), json)))
      return &cells[i];
  return NULL;
}

static void
assert_no_wrong_text (const char *name,
                      const char *contents)
{
  for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
    if (strstr (contents, wrong[i]) != NULL)
      g_error ("%s holds “%s”", name, wrong[i]);
}

/* Every line of a JSON Lines file of records: its answer (and, asked by
 * a value, its bindings, filled SQL and question) byte for byte as the
 * database gave it; @seen counts the cells met. */
static void
check_records (const char *dir,
               const char *name,
               gboolean    keypoints,
               guint      *seen)
{
  g_autofree char *contents = read_text (dir, name);
  g_auto (GStrv) lines = g_strsplit (contents, "\n", -1);
  guint records = 0;

  assert_no_wrong_text (name, contents);
  for (guint l = 0; lines[l] != NULL && lines[l][0] != '\0'; l++)
    {
      g_autoptr (JsonNode) node = json_from_string (lines[l], NULL);
      const char *sql = json_object_get_string_member (json_node_get_object (node), "sql");
      const char *question = json_object_get_string_member (json_node_get_object (node), "text");
      g_autofree char *column = NULL;
      g_autofree char *answer = NULL;
      g_autofree char *text = NULL;
      const Cell *cell;
      char row[16] = "";
      char by[16] = "";
      int consumed = 0;

      if (sscanf (sql, "SELECT name FROM item WHERE %15[a-z] = %n", by, &consumed) == 1 && consumed > 0)
        {
          g_autofree char *bindings = NULL;

          cell = find_cell (by, NULL, sql + consumed);
          if (cell == NULL)
            g_error ("%s:%u: the value of “%s” is not one the database gave", name, l + 1, sql);
          text = cell_text (cell);
          answer = g_strdup_printf ("\"answer\":[[\"%s\"]]", cell->row);
          bindings = g_strdup_printf ("\"bindings\":{\"item.%s\":%s}", by, cell_json (cell));
          grammar_test_assert_contains (lines[l], bindings);
          grammar_test_assert_contains (question, text);
        }
      else
        {
          column = g_malloc0 (strlen (sql) + 1);
          g_assert_cmpint (sscanf (sql, "SELECT %[a-z] FROM item WHERE name = '%15[A-Za-z]'", column, row), ==, 2);
          cell = find_cell (column, row, NULL);
          g_assert_nonnull (cell);
          text = cell_text (cell);
          answer = g_strdup_printf ("\"answer\":[[%s]]", cell_json (cell));
          if (keypoints)
            {
              g_autofree char *value = g_strdup_printf ("\"value\":\"%s\"", text);

              grammar_test_assert_contains (lines[l], value);
            }
        }
      grammar_test_assert_contains (lines[l], answer);
      seen[cell - cells]++;
      records++;
    }
  g_assert_cmpuint (records, >, 0);
}

/* The JSON text of @text without the spaces between its tokens. */
static char *
compact_json (const char *text)
{
  GString *out = g_string_new (NULL);
  gboolean in_string = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (in_string)
        {
          g_string_append_c (out, *p);
          if (*p == '\\' && p[1] != '\0')
            g_string_append_c (out, *++p);
          else if (*p == '"')
            in_string = FALSE;
        }
      else if (*p == '"')
        {
          in_string = TRUE;
          g_string_append_c (out, *p);
        }
      else if (!g_ascii_isspace (*p))
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* The answer [[JSON]] as each report format shows it. */
static char *
report_answer (const char *format,
               const char *json)
{
  g_autofree char *answer = g_strdup_printf ("[[%s]]", json);

  if (g_str_equal (format, "json"))
    return g_strdup_printf ("\"answer\":%s", answer);
  if (g_str_equal (format, "markdown"))
    {
      g_autoptr (GString) escaped = g_string_new (answer);

      g_string_replace (escaped, "[", "\\[", 0);
      g_string_replace (escaped, "]", "\\]", 0);
      return g_string_free (g_steal_pointer (&escaped), FALSE);
    }
  if (g_str_equal (format, "html"))
    {
      g_autoptr (GString) escaped = g_string_new (answer);

      g_string_replace (escaped, "\"", "&quot;", 0);
      g_string_replace (escaped, "'", "&apos;", 0);
      return g_string_free (g_steal_pointer (&escaped), FALSE);
    }
  return g_steal_pointer (&answer);
}

static void
check_reports (const char *dir)
{
  static const char * const formats[] = { "text", "json", "markdown", "html" };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autofree char *name = g_strdup_printf ("report.%s", formats[f]);
      g_autofree char *format = g_strdup_printf ("--format=%s", formats[f]);
      g_autofree char *contents = NULL;

      run_ok (dir, "report", "-i", "judged.jsonl", "--assessed", "assessed.jsonl", format,
              "--max-list=0", "-o", name, NULL);
      contents = read_text (dir, name);
      if (g_str_equal (formats[f], "json"))
        {
          g_autofree char *compact = compact_json (contents);

          g_free (contents);
          contents = g_steal_pointer (&compact);
        }
      assert_no_wrong_text (name, contents);
      for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
        {
          g_autofree char *answer = report_answer (formats[f], cell_json (&cells[i]));

          grammar_test_assert_contains (contents, answer);
        }
    }
}

static void
check_documents (const char *dir)
{
  g_autofree char *contents = read_text (dir, "documents.jsonl");

  assert_no_wrong_text ("documents.jsonl", contents);
  /* a real as the dataset writes it, not as SQLite prints it */
  g_assert_null (strstr (contents, "1.23456789012346e+19"));
  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autofree char *text = cell_text (&cells[i]);
      g_autofree char *fact = g_strdup_printf ("%s %s", cells[i].column, text);
      g_autofree char *title = g_strdup_printf ("\"title\":\"%s\"", cells[i].row);
      const char *line = strstr (contents, title);
      g_autofree char *document = NULL;

      g_assert_nonnull (line);
      document = g_strndup (line, strcspn (line, "\n"));
      if (!g_str_equal (cells[i].column, "price"))
        grammar_test_assert_contains (document, fact);
      else
        grammar_test_assert_contains (document, text);
    }
}

static void
test_pipeline (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, server != NULL ? server : "sqlite", NULL);
  g_autofree char *database = database_section ();
  g_autofree char *config = g_strconcat (database, rest_of_config, NULL);
  g_autoptr (GString) templates = g_string_new ("[\n");
  guint seen[G_N_ELEMENTS (cells)] = { 0 };
  const char * const columns[] = { "price", "amount", "exact", "whole", "big", "day", "note" };

  if (server == NULL)
    check_sqlite_values ();

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_free (grammar_test_write_file (dir, "fidelity.ini", config));
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    g_string_append_printf (templates, "  {\"sql\": \"SELECT %s FROM item WHERE name = '[item.name]'\"},\n",
                            columns[c]);
  for (guint c = 0; c < G_N_ELEMENTS (asked_by); c++)
    g_string_append_printf (templates, "  {\"sql\": \"SELECT name FROM item WHERE %s = [item.%s]\"}%s\n",
                            asked_by[c], asked_by[c], c + 1 < G_N_ELEMENTS (asked_by) ? "," : "");
  g_string_append (templates, "]\n");
  g_free (grammar_test_write_file (dir, "sql-templates.json", templates->str));

  run_ok (dir, "text-templates", "-c", "fidelity.ini", "-q", "-s", "short,long",
          "-i", "sql-templates.json", "-o", "text-templates.json", NULL);
  run_ok (dir, "docs", "-c", "fidelity.ini", "-q", "-o", "documents.jsonl", NULL);
  run_ok (dir, "qa", "-c", "fidelity.ini", "-q", "-i", "text-templates.json", "-d", "documents.jsonl",
          "-o", "dataset.jsonl", NULL);
  run_ok (dir, "rag", "-c", "fidelity.ini", "-q", "-i", "dataset.jsonl", "-o", "results.jsonl", NULL);
  run_ok (dir, "judge", "-c", "fidelity.ini", "-q", "-i", "results.jsonl", "-o", "judged.jsonl", NULL);
  run_ok (dir, "assess", "-c", "fidelity.ini", "-q", "-i", "judged.jsonl", "-o", "assessed.jsonl", NULL);

  check_documents (dir);
  check_records (dir, "dataset.jsonl", FALSE, seen);
  check_records (dir, "results.jsonl", FALSE, seen);
  check_records (dir, "judged.jsonl", FALSE, seen);
  check_records (dir, "assessed.jsonl", TRUE, seen);
  /* every value was asked for, in each of the four files */
  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    if (seen[i] < 4)
      g_error ("%s of %s is in no record", cells[i].column, cells[i].row);
  check_reports (dir);
}

/* Matching ---------------------------------------------------------------------------- */

static void
test_matching (void)
{
  static const struct
  {
    const char *answer;
    const char *response;
    const char *verdict;
  } cases[] = {
    { "[[154.80]]", "It costs 154.8 euros.", "correct" },
    { "[[154.8]]", "It costs 154.80 euros.", "correct" },
    { "[[0.10]]", "0.1", "correct" },
    { "[[\"0.10\"]]", "0.1", "correct" },
    { "[[12.00]]", "12", "correct" },
    { "[[12345678901234567890.5]]", "It is 12345678901234567890.5.", "correct" },
    { "[[12345678901234567890.5]]", "It is 12345678901234567890.4.", "incorrect" },
    { "[[99999999999999999999]]", "99999999999999999999", "correct" },
    { "[[99999999999999999999]]", "100000000000000000000", "incorrect" },
    { "[[9007199254740993]]", "9007199254740992", "incorrect" },
  };
  g_autofree char *dir = g_build_filename (tmp_dir, "matching", NULL);
  g_autoptr (GString) results = g_string_new (NULL);
  g_autofree char *judged = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_free (grammar_test_write_file (dir, "matcher.ini", "[matcher]\nplugin=contains\n"));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_string_append_printf (results, "{\"id\":\"m%u\",\"group\":\"g%u\",\"style\":\"short\",\"text\":\"How much?\","
                            "\"answer\":%s,\"response\":\"%s\"}\n", i, i, cases[i].answer, cases[i].response);
  g_free (grammar_test_write_file (dir, "results.jsonl", results->str));

  run_ok (dir, "judge", "-c", "matcher.ini", "-q", "-i", "results.jsonl", "-o", "judged.jsonl", NULL);
  judged = read_text (dir, "judged.jsonl");
  lines = g_strsplit (judged, "\n", -1);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *answer = g_strdup_printf ("\"answer\":%s", cases[i].answer);
      g_autofree char *verdict = g_strdup_printf ("\"verdict\":\"%s\"", cases[i].verdict);

      g_assert_nonnull (lines[i]);
      grammar_test_assert_contains (lines[i], answer);
      grammar_test_assert_contains (lines[i], verdict);
    }
}

/* grammar import ---------------------------------------------------------------------- */

static void
test_import (void)
{
  /* The Python tool's eval results, with numbers a double or a 64-bit
   * integer would change (Python's json writes its ints whole). */
  static const char results[] =
    "[\n"
    "  {\"query\": \"Amount of Alpha?\", \"answer\": 154.80, \"gpt_response\": \"154.8\", \"judgement\": \"Correct\", \"query_tag\": 1},\n"
    "  {\"query\": \"Whole of Alpha?\", \"answer\": 12345678901234567890, \"gpt_response\": \"no idea\", \"judgement\": \"Incorrect\", \"query_tag\": 2},\n"
    "  {\"query\": \"Values?\", \"answer\": [1.0, 2265.8, \"0.10\", 9007199254740993], \"gpt_response\": \"none\", \"judgement\": \"Incorrect\", \"query_tag\": 3},\n"
    "  {\"query\": \"Huge?\", \"answer\": 1E5, \"gpt_response\": \"none\", \"judgement\": \"Incorrect\", \"query_tag\": 4}\n"
    "]\n";
  static const char * const answers[] = {
    "\"answer\":[[154.80]]",
    "\"answer\":[[12345678901234567890]]",
    "\"answer\":[[1.0],[2265.8],[\"0.10\"],[9007199254740993]]",
    "\"answer\":[[1E5]]",
  };
  g_autofree char *dir = g_build_filename (tmp_dir, "import", NULL);
  g_autofree char *judged = NULL;
  g_autofree char *report = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_free (grammar_test_write_file (dir, "results_short_balanced.json", results));
  run_ok (dir, "import", "--from", "grammar-py", "-q", "-o", "judged.jsonl", "results_short_balanced.json", NULL);
  judged = read_text (dir, "judged.jsonl");
  lines = g_strsplit (judged, "\n", -1);
  for (guint i = 0; i < G_N_ELEMENTS (answers); i++)
    {
      g_assert_nonnull (lines[i]);
      grammar_test_assert_contains (lines[i], answers[i]);
    }

  run_ok (dir, "report", "-i", "judged.jsonl", "--max-list=0", "-o", "report.txt", NULL);
  report = read_text (dir, "report.txt");
  grammar_test_assert_contains (report, "[[12345678901234567890]]");
  grammar_test_assert_contains (report, "[[1.0],[2265.8],[\"0.10\"],[9007199254740993]]");
  grammar_test_assert_contains (report, "[[1E5]]");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  server = g_getenv ("GRAMMAR_TEST_SERVER");
  tmp_dir = grammar_test_make_tmp_dir ("grammar-value-fidelity-XXXXXX");
  grammar_test_add_plugin_path ("rag-test-system");

  /* Under a server only what depends on the database. */
  if (server == NULL)
    {
      g_test_add_func ("/value-fidelity/json/numbers", test_json_numbers);
      g_test_add_func ("/value-fidelity/json/numbers-random", test_json_numbers_random);
      g_test_add_func ("/value-fidelity/json/record", test_json_record);
      g_test_add_func ("/value-fidelity/matching", test_matching);
      g_test_add_func ("/value-fidelity/import", test_import);
    }
  g_test_add_func ("/value-fidelity/pipeline", test_pipeline);

  status = g_test_run ();
  grammar_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
