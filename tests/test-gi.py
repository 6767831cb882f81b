#!/usr/bin/python3
# test-gi.py: libgrammar through GObject Introspection (Grammar-1.0), the
# way a Python user sees it: the plugin registry, a database built from a
# keyfile, its schema, bound queries and the errors. Speaks TAP.
#
# Run by meson with GI_TYPELIB_PATH and LD_LIBRARY_PATH on the build
# folder of libgrammar and GRAMMAR_PLUGIN_PATH on the in-tree plugins.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sqlite3
import sys
import tempfile
import traceback
import unittest

try:
    import gi

    gi.require_version('GLib', '2.0')
    gi.require_version('GObject', '2.0')
    gi.require_version('Gio', '2.0')
    gi.require_version('Grammar', '1.0')
    from gi.repository import GLib, GObject, Grammar
except Exception as e:  # noqa: BLE001 - anything here means no test can run
    print('Bail out! cannot load Grammar-1.0 through GObject Introspection: %s' % e)
    print('# GI_TYPELIB_PATH=%s' % os.environ.get('GI_TYPELIB_PATH', ''))
    print('# LD_LIBRARY_PATH=%s' % os.environ.get('LD_LIBRARY_PATH', ''))
    sys.exit(1)

CONFIG_ERROR = 'grammar-config-error-quark'
DATABASE_ERROR = 'grammar-database-error-quark'

# The fixture: a composite primary key declared in another order than the
# columns, a composite foreign key, a single-column foreign key, a unique
# column, a NULL and a value with an apostrophe.
FIXTURE_SQL = '''
CREATE TABLE authors (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE books (
  author_id INTEGER NOT NULL REFERENCES authors (id),
  number INTEGER NOT NULL,
  title TEXT NOT NULL,
  PRIMARY KEY (number, author_id)
);
CREATE TABLE loans (
  id INTEGER PRIMARY KEY,
  book_number INTEGER NOT NULL,
  author_id INTEGER NOT NULL,
  borrower TEXT,
  FOREIGN KEY (book_number, author_id) REFERENCES books (number, author_id)
);
INSERT INTO authors (id, name) VALUES (1, 'Austen'), (2, 'O''Brien'), (3, 'Orwell');
INSERT INTO books (author_id, number, title) VALUES
  (1, 1, 'Emma'), (2, 1, 'At Swim-Two-Birds'), (2, 2, 'The Third Policeman'), (3, 1, '1984');
INSERT INTO loans (id, book_number, author_id, borrower) VALUES
  (1, 2, 2, 'Flann'), (2, 1, 3, NULL);
'''

SCRIPT_SQL = '''
CREATE TABLE scripted (
  code TEXT PRIMARY KEY,
  label TEXT
);
INSERT INTO scripted VALUES ('a', 'first'), ('b', 'second');
'''


class TapResult(unittest.TestResult):
    """Writes one TAP line per test, with the details as comments."""

    def __init__(self, stream):
        super().__init__()
        self.stream = stream
        self.number = 0

    def _name(self, test):
        method = getattr(test, '_testMethodName', None)
        if method is None:  # a failing setUpClass or tearDownClass
            return str(test)
        return '%s.%s' % (type(test).__name__, method)

    def _line(self, text):
        self.stream.write(text + '\n')
        self.stream.flush()

    def _comment(self, text):
        for line in text.rstrip('\n').split('\n'):
            self._line('# ' + line)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.number += 1
        self._line('ok %d - %s' % (self.number, self._name(test)))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.number += 1
        self._line('not ok %d - %s' % (self.number, self._name(test)))
        self._comment(self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self.number += 1
        self._line('not ok %d - %s' % (self.number, self._name(test)))
        self._comment(self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.number += 1
        self._line('ok %d - %s # SKIP %s' % (self.number, self._name(test), reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.number += 1
        self._line('ok %d - %s # TODO expected failure' % (self.number, self._name(test)))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.number += 1
        self._line('not ok %d - %s # TODO unexpected success' % (self.number, self._name(test)))


def all_plugins(registry):
    """Every registered plugin, by interface: list_plugins(TYPE_INVALID)
    as far as Python can say it."""
    plugins = []
    for interface in Grammar.Registry.get_interfaces():
        plugins.extend(registry.list_plugins(interface))
    return plugins


def property_names(info):
    return [pspec.name for pspec in info.list_properties()]


class GrammarGITest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix='grammar-gi-')
        root = cls.tmp.name

        # The database lives in a sub-folder; the keyfile names it relatively.
        os.mkdir(os.path.join(root, 'data'))
        cls.db_path = os.path.join(root, 'data', 'library.sqlite')
        connection = sqlite3.connect(cls.db_path)
        try:
            connection.executescript(FIXTURE_SQL)
            connection.commit()
        finally:
            connection.close()

        cls.config_path = cls.write(
            'library.ini', '[database]\nplugin=sqlite\nuri=data/library.sqlite\n')

        with open(os.path.join(root, 'data', 'scripted.sql'), 'w', encoding='utf-8') as f:
            f.write(SCRIPT_SQL)

        # Run from elsewhere, so that a relative path resolved against the
        # working folder instead of the keyfile's folder is not found.
        cls.cwd = os.getcwd()
        os.chdir(tempfile.gettempdir())

    @classmethod
    def tearDownClass(cls):
        os.chdir(cls.cwd)
        cls.tmp.cleanup()

    @classmethod
    def write(cls, name, text):
        path = os.path.join(cls.tmp.name, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def build_database(self, config_path=None):
        config = Grammar.Config.new_from_file(config_path or self.config_path)
        database = config.build('database', Grammar.Database.__gtype__)
        self.assertIsNotNone(database)
        self.assertIsInstance(database, Grammar.Database)
        return database

    def assertGError(self, context, domain, code):
        error = context.exception
        self.assertIsInstance(error, GLib.Error)
        self.assertEqual(error.domain, domain, 'message: %s' % error.message)
        self.assertEqual(error.code, int(code), 'message: %s' % error.message)
        return error

    # --- the registry ---

    def test_01_registry_lists_sqlite(self):
        registry = Grammar.Registry.get_default()
        self.assertIs(registry, Grammar.Registry.get_default())

        plugins = all_plugins(registry)
        found = [(p.get_interface_name(), p.get_name()) for p in plugins]
        self.assertIn(('database', 'sqlite'), found)

        sqlite = [p for p in plugins
                  if p.get_interface_name() == 'database' and p.get_name() == 'sqlite'][0]
        self.assertTrue(sqlite.get_description())
        self.assertEqual(sqlite.get_interface_type(), Grammar.Database.__gtype__)
        self.assertTrue(GObject.type_is_a(sqlite.get_gtype(), Grammar.Database.__gtype__))
        names = property_names(sqlite)
        for name in ('uri', 'script', 'busy-timeout'):
            self.assertIn(name, names)

        uri = [p for p in sqlite.list_properties() if p.name == 'uri'][0]
        self.assertEqual(uri.value_type, GObject.TYPE_STRING)

    def test_01b_list_all_plugins(self):
        # list_plugins(TYPE_INVALID) in C; PyGObject cannot pass GType 0,
        # so bindings call list_all_plugins().
        registry = Grammar.Registry.get_default()
        plugins = registry.list_all_plugins()
        self.assertEqual([(p.get_interface_name(), p.get_name()) for p in plugins],
                         [(p.get_interface_name(), p.get_name()) for p in all_plugins(registry)])

    def test_02_registry_by_interface(self):
        registry = Grammar.Registry.get_default()
        databases = registry.list_plugins(Grammar.Database.__gtype__)
        self.assertIn('sqlite', [p.get_name() for p in databases])
        for plugin in databases:
            self.assertEqual(plugin.get_interface_name(), 'database')

        info = registry.lookup(Grammar.Database.__gtype__, 'sqlite')
        self.assertEqual(info.get_name(), 'sqlite')
        self.assertEqual(info.get_interface_name(), 'database')
        self.assertEqual(Grammar.Registry.interface_name(Grammar.Database.__gtype__), 'database')
        self.assertEqual(Grammar.Registry.interface_from_name('database'), Grammar.Database.__gtype__)

    def test_03_search_path(self):
        search_path = Grammar.Registry.get_default().get_search_path()
        self.assertTrue(search_path)
        for folder in os.environ.get('GRAMMAR_PLUGIN_PATH', '').split(':'):
            if folder:
                self.assertIn(folder, search_path)

    def test_04_unknown_plugin_lookup(self):
        registry = Grammar.Registry.get_default()
        with self.assertRaises(GLib.Error) as context:
            registry.lookup(Grammar.Database.__gtype__, 'no-such-database')
        error = self.assertGError(context, CONFIG_ERROR, Grammar.ConfigError.UNKNOWN_PLUGIN)
        self.assertIn('no-such-database', error.message)
        self.assertIn('sqlite', error.message)

    # --- the keyfile ---

    def test_05_unknown_plugin_in_keyfile(self):
        path = self.write('unknown-plugin.ini', '[database]\nplugin=no-such-database\n')
        config = Grammar.Config.new_from_file(path)
        with self.assertRaises(GLib.Error) as context:
            config.build('database', Grammar.Database.__gtype__)
        error = self.assertGError(context, CONFIG_ERROR, Grammar.ConfigError.UNKNOWN_PLUGIN)
        self.assertIn('no-such-database', error.message)
        self.assertIn('sqlite', error.message)

    def test_06_unknown_key_in_keyfile(self):
        path = self.write('unknown-key.ini', '[database]\nplugin=sqlite\nurl=data/library.sqlite\n')
        config = Grammar.Config.new_from_file(path)
        with self.assertRaises(GLib.Error) as context:
            config.build('database', Grammar.Database.__gtype__)
        error = self.assertGError(context, CONFIG_ERROR, Grammar.ConfigError.UNKNOWN_KEY)
        self.assertIn('unknown-key.ini', error.message)
        self.assertIn('[database]', error.message)
        self.assertIn('url', error.message)

    def test_06b_assembly_check(self):
        # every problem of a keyfile at once, as `grammar check` lists them
        path = self.write('problems.ini',
                          '# a user keyfile\n'
                          '[database]\nplugin=sqlite\nurl=data/library.sqlite\n'
                          '[system]\nplugin=pipeline\nretriever=kb_search\ngenerator=nosuch\n'
                          '[kb_search]\nplugin=keyword\ntopk=1\n'
                          '[matcher]\nplugin=containz\n')
        assembly = Grammar.Assembly.new_from_file(path)
        with self.assertRaises(GLib.Error) as context:
            assembly.check()
        error = self.assertGError(context, CONFIG_ERROR, Grammar.ConfigError.BAD_VALUE)
        problems = assembly.dup_problems()
        self.assertEqual(len(problems), 4, problems)
        for place in ('[database] url', '[system] generator', '[kb_search] topk', '[matcher] plugin'):
            self.assertTrue(any(place in p for p in problems), (place, problems))
            self.assertIn(place, error.message)
        # fixed, the keyfile has no problem
        path = self.write('fixed.ini',
                          '[database]\nplugin=sqlite\nuri=data/library.sqlite\n'
                          '[system]\nplugin=pipeline\nretriever=kb_search\ngenerator=reader\n'
                          '[kb_search]\nplugin=keyword\ntop-k=1\n[reader]\nplugin=extractive\n'
                          '[matcher]\nplugin=contains\n')
        assembly = Grammar.Assembly.new_from_file(path)
        self.assertTrue(assembly.check())
        self.assertEqual(assembly.dup_problems(), [])

    # --- the schema ---

    def test_07_schema(self):
        database = self.build_database()
        # uri= was relative to the keyfile's folder.
        self.assertEqual(database.props.uri, self.db_path)
        schema = database.get_schema(None)
        self.assertIsInstance(schema, Grammar.Schema)

        tables = {t.get_name(): t for t in schema.get_tables()}
        self.assertEqual(sorted(tables), ['authors', 'books', 'loans'])
        self.assertEqual(schema.get_table('books').get_name(), 'books')
        self.assertIsNone(schema.get_table('no_such_table'))

        authors = tables['authors']
        self.assertFalse(authors.get_is_view())
        self.assertEqual(authors.dup_primary_key(), ['id'])
        self.assertTrue(authors.is_unique_key(['name']))
        self.assertEqual(authors.get_foreign_keys(), [])

        books = tables['books']
        columns = books.get_columns()
        self.assertEqual([c.get_name() for c in columns], ['author_id', 'number', 'title'])
        self.assertEqual([c.get_declared_type() for c in columns], ['INTEGER', 'INTEGER', 'TEXT'])
        self.assertEqual([c.get_nullable() for c in columns], [False, False, False])
        # The key in its declared order, not the order of the columns.
        self.assertEqual([c.get_primary_key_position() for c in columns], [2, 1, 0])
        self.assertEqual(books.dup_primary_key(), ['number', 'author_id'])
        self.assertTrue(books.is_unique_key(['number', 'author_id']))

        keys = books.get_foreign_keys()
        self.assertEqual(len(keys), 1)
        self.assertEqual(keys[0].get_columns(), ['author_id'])
        self.assertEqual(keys[0].get_referenced_table(), 'authors')
        self.assertEqual(keys[0].get_referenced_columns(), ['id'])

        loans = tables['loans']
        self.assertTrue(loans.get_column('borrower').get_nullable())
        keys = loans.get_foreign_keys()
        self.assertEqual(len(keys), 1)
        self.assertEqual(keys[0].get_columns(), ['book_number', 'author_id'])
        self.assertEqual(keys[0].get_referenced_table(), 'books')
        self.assertEqual(keys[0].get_referenced_columns(), ['number', 'author_id'])

    # --- queries ---

    def test_08_bound_query_with_apostrophe(self):
        database = self.build_database()
        parameters = GLib.Variant('av', [GLib.Variant('s', "O'Brien")])
        result = database.query('SELECT id, name FROM authors WHERE name = ?1', parameters, None)
        self.assertEqual(result.get_n_rows(), 1)
        self.assertEqual(result.get_n_columns(), 2)
        self.assertEqual(result.get_column_name(0), 'id')
        self.assertEqual(result.get_column_name(1), 'name')
        self.assertEqual(result.get_value(0, 0).unpack(), 2)
        self.assertEqual(result.get_value(0, 1).unpack(), "O'Brien")

        # The value is bound, not pasted: the same text with SQL around it
        # matches nothing.
        parameters = GLib.Variant('av', [GLib.Variant('s', "O' OR '1'='1")])
        result = database.query('SELECT id FROM authors WHERE name = ?1', parameters, None)
        self.assertEqual(result.get_n_rows(), 0)

    def test_09_query_integers_and_null(self):
        database = self.build_database()
        parameters = GLib.Variant('av', [GLib.Variant('x', 1), GLib.Variant('x', 3)])
        result = database.query(
            'SELECT l.borrower, b.title FROM loans l'
            ' JOIN books b ON b.number = l.book_number AND b.author_id = l.author_id'
            ' WHERE l.book_number = ?1 AND l.author_id = ?2', parameters, None)
        self.assertEqual(result.get_n_rows(), 1)
        self.assertIsNone(result.get_value(0, 0))
        self.assertEqual(result.get_value(0, 1).unpack(), '1984')

        result = database.query('SELECT count(*) FROM books', None, None)
        self.assertEqual(result.get_n_rows(), 1)
        self.assertEqual(result.get_value(0, 0).unpack(), 4)

    def test_10_write_refused(self):
        database = self.build_database()
        with self.assertRaises(GLib.Error) as context:
            database.query('DELETE FROM authors', None, None)
        self.assertGError(context, DATABASE_ERROR, Grammar.DatabaseError.NOT_READ_ONLY)

        with self.assertRaises(GLib.Error) as context:
            parameters = GLib.Variant('av', [GLib.Variant('s', "O'Brien")])
            database.query('DELETE FROM authors WHERE name = ?1', parameters, None)
        self.assertGError(context, DATABASE_ERROR, Grammar.DatabaseError.NOT_READ_ONLY)

        # A write hidden behind a read is refused before anything runs.
        with self.assertRaises(GLib.Error) as context:
            database.query('SELECT 1; DELETE FROM authors', None, None)
        self.assertEqual(context.exception.domain, DATABASE_ERROR)

        # Nothing was deleted, seen from inside and from outside.
        result = database.query('SELECT count(*) FROM authors', None, None)
        self.assertEqual(result.get_value(0, 0).unpack(), 3)
        connection = sqlite3.connect(self.db_path)
        try:
            self.assertEqual(connection.execute('SELECT count(*) FROM authors').fetchone()[0], 3)
        finally:
            connection.close()

    def test_11_query_async(self):
        database = self.build_database()
        loop = GLib.MainLoop()
        outcome = {}

        def done(source, async_result):
            try:
                outcome['result'] = source.query_finish(async_result)
            except GLib.Error as e:
                outcome['error'] = e
            loop.quit()

        def too_long():
            outcome['timeout'] = True
            loop.quit()
            return GLib.SOURCE_REMOVE

        parameters = GLib.Variant('av', [GLib.Variant('s', "O'Brien")])
        database.query_async('SELECT title FROM books b JOIN authors a ON a.id = b.author_id'
                             ' WHERE a.name = ?1 ORDER BY b.number', parameters, None, done)
        timeout = GLib.timeout_add_seconds(30, too_long)
        loop.run()
        if 'timeout' not in outcome:
            GLib.source_remove(timeout)

        self.assertNotIn('timeout', outcome, 'query_async never finished')
        self.assertNotIn('error', outcome)
        result = outcome['result']
        self.assertEqual([result.get_value(r, 0).unpack() for r in range(result.get_n_rows())],
                         ['At Swim-Two-Birds', 'The Third Policeman'])

    def test_12_script_property(self):
        path = self.write('scripted.ini', '[database]\nplugin=sqlite\nscript=data/scripted.sql\n')
        database = self.build_database(path)
        tables = [t.get_name() for t in database.get_schema(None).get_tables()]
        self.assertEqual(tables, ['scripted'])
        parameters = GLib.Variant('av', [GLib.Variant('s', 'b')])
        result = database.query('SELECT label FROM scripted WHERE code = ?1', parameters, None)
        self.assertEqual(result.get_n_rows(), 1)
        self.assertEqual(result.get_value(0, 0).unpack(), 'second')

    def test_12b_server_statement_and_values(self):
        # What a database plugin written in another language would call.
        sql, order, n = Grammar.sql_rewrite_query(
            "SELECT a FROM t WHERE b = ?2 AND c = ?1 OR d = ?2",
            Grammar.SqlParameterStyle.POSITIONAL, ['INTO'], ['sleep'])
        self.assertEqual(sql, "SELECT a FROM t WHERE b = ? AND c = ? OR d = ?")
        self.assertEqual(list(order), [1, 0, 1])
        self.assertEqual(n, 2)
        with self.assertRaises(GLib.Error) as context:
            Grammar.sql_rewrite_query("SELECT sleep(5)", Grammar.SqlParameterStyle.DOLLAR, None, ['sleep'])
        self.assertGError(context, 'grammar-database-error-quark', Grammar.DatabaseError.NOT_READ_ONLY)
        # A decimal keeps the server's text, and JSON writes it as that number.
        decimal = Grammar.value_new_decimal(b'1234.50')
        self.assertEqual(decimal.unpack(), ('1234.50',))
        self.assertEqual(Grammar.value_get_decimal(decimal), '1234.50')
        self.assertEqual(Grammar.json_to_data(Grammar.value_to_json(decimal), 0)[0], '1234.50')
        self.assertEqual(Grammar.value_new_decimal(b'12').unpack(), 12)
        self.assertIsNone(Grammar.value_get_decimal(GLib.Variant('d', 1234.5)))
        node = Grammar.json_from_data(b'[[154.80, 2265.8, 99999999999999999999]]')
        self.assertEqual(Grammar.json_to_data(node, 0)[0], '[[154.80,2265.8,99999999999999999999]]')
        row = node.get_array().get_array_element(0)
        self.assertEqual(Grammar.json_node_get_number_text(row.get_element(0)), '154.80')
        self.assertIsNone(Grammar.json_node_get_number_text(row.get_element(1)))
        self.assertEqual(Grammar.value_new_text(b'a\x00b').unpack(), 'a\ufffdb')

    def test_13_http_client(self):
        import http.server
        import threading

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the name http.server calls
                body = ('you sent %s' % self.headers.get('Authorization')).encode()
                self.send_response(200 if self.path == '/ok' else 401)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer(('127.0.0.1', 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            root = 'http://127.0.0.1:%d' % server.server_address[1]
            client = Grammar.HttpClient.new()
            client.set_property('max-retries', 0)
            client.set_bearer_token('sk-python-SECRET')
            self.assertEqual(client.redact('key sk-python-SECRET'), 'key [redacted]')

            body, status = client.send('GET', root + '/ok', None, None, None)
            self.assertEqual(status, 200)
            self.assertEqual(body.get_data(), b'you sent Bearer sk-python-SECRET')

            loop = GLib.MainLoop()
            outcome = {}

            def check(status, body, *user_data):
                if status == 200:
                    return True
                raise GLib.Error('HTTP %d: %s' % (status, body.get_data().decode()))

            def done(source, async_result):
                try:
                    outcome['result'] = source.send_finish(async_result)
                except GLib.Error as e:
                    outcome['error'] = e
                loop.quit()

            client.send_async('GET', root + '/denied', None, None, check, cancellable=None, callback=done)
            loop.run()
            self.assertIn('error', outcome)
            self.assertIn('/denied: HTTP 401: you sent Bearer [redacted]', outcome['error'].message)
            self.assertEqual(client.get_property('requests'), 2)
            self.assertEqual(client.get_property('failures'), 1)
        finally:
            server.shutdown()
            server.server_close()

    def test_answer_documents_not_reported(self):
        # None: the system did not report its documents (retrieval
        # unmeasured); an empty list: it reported none (a miss).
        # PyGObject gives a NULL array as [], hence has_retrieved().
        unreported = Grammar.Answer.new('Ask margit.odegaard@hr.example', None)
        self.assertFalse(unreported.has_retrieved())
        self.assertEqual(list(unreported.get_retrieved() or []), [])
        missed = Grammar.Answer.new('Ask your manager.', [])
        self.assertTrue(missed.has_retrieved())
        self.assertEqual(list(missed.get_retrieved()), [])
        hit = Grammar.Hit.new('HR-Policy v2.pdf#3', 0.87, 'Leave is approved by HR Operations.')
        found = Grammar.Answer.new('Ask margit.odegaard@hr.example', [hit])
        self.assertEqual([h.get_document_id() for h in found.get_retrieved()], ['HR-Policy v2.pdf#3'])
        record = Grammar.Record.new_from_json(
            Grammar.json_from_data(b'{"id": "HR-7", "text": "Who approves leave?", "response": "Ask HR."}'))
        self.assertFalse(record.has_retrieved())
        record = Grammar.Record.new_from_json(
            Grammar.json_from_data(b'{"id": "HR-8", "text": "Who approves leave?", "response": "Ask HR.", '
                                   b'"retrieved": []}'))
        self.assertTrue(record.has_retrieved())

    def test_json_numbers(self):
        # The one number writer of the product's files, from Python too:
        # shortest round-trip reals, infinities as documented strings.
        gi.require_version('Json', '1.0')
        from gi.repository import Json
        builder = Json.Builder()
        builder.begin_array()
        for value in (1e20, 0.1, 2.0, float('inf'), float('-inf'), float('nan')):
            builder.add_double_value(value)
        builder.add_int_value(42)
        builder.end_array()
        text = Grammar.json_to_data(builder.get_root(), 0)
        if isinstance(text, tuple):
            text = text[0]
        self.assertEqual(text, '[1e+20,0.1,2.0,"Infinity","-Infinity","NaN",42]')

    def test_report_write_full(self):
        # The report of `grammar report`, from Python: one pass over the
        # judged file, the json lists read again, to a file or a stream.
        import json
        gi.require_version('Gio', '2.0')
        from gi.repository import Gio
        with tempfile.TemporaryDirectory() as folder:
            judged = os.path.join(folder, 'judged.jsonl')
            with open(judged, 'w') as f:
                for g, verdicts in enumerate(('CC', 'II', 'CI')):
                    for k, v in enumerate(verdicts):
                        f.write(json.dumps({
                            'id': 'q%d-%d' % (g, k), 'group': 'q%d' % g, 'template': 't', 'style': 's',
                            'text': "Which client is O'Brien %d?" % k, 'sql': 'SELECT %d' % g, 'answer': [[g]],
                            'response': 'r', 'verdict': 'correct' if v == 'C' else 'incorrect'}) + '\n')
            path = os.path.join(folder, 'report.json')
            self.assertTrue(Grammar.report_write_full(judged, None, None, None, False, 0.05, 0,
                                                      Grammar.ReportFormat.JSON, path, None, None))
            with open(path) as f:
                report = json.load(f)
            self.assertEqual(report['instances'], 6)
            self.assertEqual([g['group'] for g in report['gap_groups']], ['q1'])
            self.assertEqual([d['id'] for d in report['debug']], ['q2-1'])
            memory = Gio.MemoryOutputStream.new_resizable()
            self.assertTrue(Grammar.report_write_full(judged, None, None, [1], False, 0.05, 1,
                                                      Grammar.ReportFormat.TEXT, None, memory, None))
            memory.close(None)
            self.assertIn('GRAMMAR report', bytes(memory.steal_as_bytes().get_data()).decode())
            with self.assertRaises(GLib.Error):
                Grammar.report_write_full(os.path.join(folder, 'missing.jsonl'), None, None, None, False, 0.05, 0,
                                          Grammar.ReportFormat.JSON, path, None, None)


def main():
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(GrammarGITest)
    print('1..%d' % suite.countTestCases())
    sys.stdout.flush()
    result = TapResult(sys.stdout)
    try:
        suite.run(result)
    except Exception:  # noqa: BLE001 - report, do not hide, a broken runner
        print('Bail out! %s' % traceback.format_exc().replace('\n', ' | '))
        return 1
    # A failure in setUpClass is reported through addError with no test
    # number of its own; count it so the plan does not go unnoticed.
    if result.number != suite.countTestCases():
        print('# %d test lines for a plan of %d' % (result.number, suite.countTestCases()))
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main())
