/* test-cli.c: the `grammar` command as a user runs it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <sqlite3.h>

#include <grammar.h>

#include "grammar-test-util.h"

static char *tmpdir;

static void
make_fixture (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "library.sqlite", NULL);
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  sqlite3_exec (db,
    "CREATE TABLE author (author_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, country TEXT);"
    "CREATE TABLE book (book_id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER REFERENCES author);"
    "CREATE TABLE review (book_id INTEGER, reviewer TEXT, stars INT,"
    "  PRIMARY KEY (book_id, reviewer), FOREIGN KEY (book_id) REFERENCES book (book_id));"
    "INSERT INTO author VALUES (1, 'Flann O''Brien', 'Ireland');"
    "INSERT INTO book VALUES (1, 'The Third Policeman', 1);"
    "INSERT INTO review VALUES (1, 'Zoë', 5);",
    NULL, NULL, &message);
  g_assert_null (message);
  sqlite3_close (db);
}

static void
test_version_and_usage (void)
{
  g_auto (GrammarTestRun) version = { 0, }, bare = { 0, }, unknown = { 0, }, option = { 0, }, help = { 0, };

  grammar_test_run (&version, tmpdir, "--version", NULL);
  g_assert_cmpint (version.status, ==, 0);
  g_assert_true (g_str_has_prefix (version.out, "grammar " GRAMMAR_VERSION_S));

  grammar_test_run (&bare, tmpdir, NULL);
  g_assert_cmpint (bare.status, ==, 2);
  grammar_test_assert_contains (bare.err, "Usage: grammar COMMAND");

  grammar_test_run (&unknown, tmpdir, "frobnicate", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  grammar_test_assert_contains (unknown.err, "unknown command “frobnicate”");

  grammar_test_run (&option, tmpdir, "schema", "--bogus", NULL);
  g_assert_cmpint (option.status, ==, 2);
  grammar_test_assert_contains (option.err, "--bogus");

  grammar_test_run (&help, tmpdir, "schema", "--help", NULL);
  g_assert_cmpint (help.status, ==, 0);
  grammar_test_assert_contains (help.out, "grammar schema");
  grammar_test_assert_contains (help.out, "--config");
}

static void
test_plugins (void)
{
  g_auto (GrammarTestRun) text = { 0, }, json = { 0, }, bad = { 0, };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root;
  JsonArray *plugins;
  gboolean found = FALSE;

  grammar_test_run (&text, tmpdir, "plugins", NULL);
  g_assert_cmpint (text.status, ==, 0);
  grammar_test_assert_contains (text.out, "database (GrammarDatabase):");
  grammar_test_assert_contains (text.out, "  sqlite — ");
  grammar_test_assert_contains (text.out, "busy-timeout");

  grammar_test_run (&json, tmpdir, "plugins", "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  json_parser_load_from_data (parser, json.out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (root, "search_path"));
  plugins = json_object_get_array_member (root, "plugins");
  for (guint i = 0; i < json_array_get_length (plugins); i++)
    {
      JsonObject *plugin = json_array_get_object_element (plugins, i);
      JsonArray *properties = json_object_get_array_member (plugin, "properties");

      if (!g_str_equal (json_object_get_string_member (plugin, "name"), "sqlite"))
        continue;
      found = TRUE;
      g_assert_cmpstr (json_object_get_string_member (plugin, "interface"), ==, "database");
      g_assert_cmpstr (json_object_get_string_member (plugin, "description"), !=, "");
      for (guint j = 0; j < json_array_get_length (properties); j++)
        {
          JsonObject *property = json_array_get_object_element (properties, j);

          if (g_str_equal (json_object_get_string_member (property, "name"), "uri"))
            {
              g_assert_true (json_object_get_boolean_member (property, "path"));
              g_assert_cmpstr (json_object_get_string_member (property, "type"), ==, "gchararray");
            }
          if (g_str_equal (json_object_get_string_member (property, "name"), "busy-timeout"))
            g_assert_cmpint (json_object_get_int_member (property, "default"), ==, 5000);
        }
    }
  g_assert_true (found);

  grammar_test_run (&bad, tmpdir, "plugins", "--interface", "nope", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  grammar_test_assert_contains (bad.err, "unknown interface “nope”");
}

static void
test_schema (void)
{
  g_autofree char *config = grammar_test_write_file (tmpdir, "library.ini", "[database]\nplugin=sqlite\nuri=library.sqlite\n");
  g_auto (GrammarTestRun) text = { 0, }, json = { 0, };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *tables;
  JsonObject *book, *review, *fk;

  /* Run from another folder: the relative uri resolves against the keyfile. */
  grammar_test_run (&text, tmpdir, "schema", "-c", config, NULL);
  g_assert_cmpint (text.status, ==, 0);
  grammar_test_assert_contains (text.out, "3 tables, 0 views");
  grammar_test_assert_contains (text.out, "TABLE review");
  grammar_test_assert_contains (text.out, "primary key (book_id, reviewer)");
  grammar_test_assert_contains (text.out, "author_id  INTEGER  → author(author_id)");
  grammar_test_assert_contains (text.out, "book_id   INTEGER  primary key 1  → book(book_id)");

  grammar_test_run (&json, tmpdir, "schema", "--json", "-c", config, NULL);
  g_assert_cmpint (json.status, ==, 0);
  json_parser_load_from_data (parser, json.out, -1, &error);
  g_assert_no_error (error);
  tables = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "tables");
  g_assert_cmpuint (json_array_get_length (tables), ==, 3);
  book = json_array_get_object_element (tables, 1);
  review = json_array_get_object_element (tables, 2);
  g_assert_cmpstr (json_object_get_string_member (book, "name"), ==, "book");
  fk = json_array_get_object_element (json_object_get_array_member (book, "foreign_keys"), 0);
  g_assert_cmpstr (json_object_get_string_member (fk, "table"), ==, "author");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (fk, "references"), 0), ==, "author_id");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (review, "primary_key")), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (review, "primary_key"), 1), ==, "reviewer");
}

/* Every bad configuration: a message naming the place, and exit status 2. */
static void
test_bad_configs (void)
{
  static const struct { const char *name; const char *text; const char *fragments[4]; } cases[] = {
    { "parse", "[database\nplugin=sqlite\n", { "parse.ini", NULL } },
    { "no-section", "[other]\nplugin=sqlite\n", { "no-section.ini", "no section [database]", NULL } },
    { "no-plugin", "[database]\nuri=x.db\n", { "[database] plugin:", "missing", "sqlite", NULL } },
    { "unknown-plugin", "[database]\nplugin=sqlit\n", { "[database] plugin:", "unknown database plugin “sqlit”", "available:", " sqlite" } },
    { "unknown-key", "[database]\nplugin=sqlite\nurii=x.db\n", { "[database] urii:", "unknown key", "uri", "busy-timeout" } },
    { "bad-value", "[database]\nplugin=sqlite\nuri=library.sqlite\nbusy-timeout=soon\n", { "[database] busy-timeout:", "“soon” is not a whole number", NULL } },
    { "missing-db", "[database]\nplugin=sqlite\nuri=missing.sqlite\n", { "[database]", "missing.sqlite", NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strconcat (cases[i].name, ".ini", NULL);
      g_autofree char *path = grammar_test_write_file (tmpdir, name, cases[i].text);
      g_auto (GrammarTestRun) run = { 0, };

      grammar_test_run (&run, tmpdir, "schema", "-c", path, NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
      grammar_test_assert_contains (run.err, "grammar schema: ");
      for (guint j = 0; j < G_N_ELEMENTS (cases[i].fragments) && cases[i].fragments[j] != NULL; j++)
        grammar_test_assert_contains (run.err, cases[i].fragments[j]);
    }

  {
    g_auto (GrammarTestRun) missing = { 0, }, none = { 0, };

    grammar_test_run (&missing, tmpdir, "schema", "-c", "nowhere.ini", NULL);
    g_assert_cmpint (missing.status, ==, 2);
    grammar_test_assert_contains (missing.err, "nowhere.ini");

    grammar_test_run (&none, tmpdir, "schema", NULL);
    g_assert_cmpint (none.status, ==, 2);
    grammar_test_assert_contains (none.err, "pass -c FILE.ini");
  }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = grammar_test_make_tmp_dir ("grammar-cli-XXXXXX");
  make_fixture ();

  g_test_add_func ("/cli/version-and-usage", test_version_and_usage);
  g_test_add_func ("/cli/plugins", test_plugins);
  g_test_add_func ("/cli/schema", test_schema);
  g_test_add_func ("/cli/bad-configs", test_bad_configs);

  status = g_test_run ();
  grammar_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
