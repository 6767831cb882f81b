#!/usr/bin/env python3
"""Conformance across backends: the same data in SQLite and in a server.

Run by with-server.py (which starts the server and exports its address):

    with-server.py postgres|mysql --database acme=ACME.sql --database library=LIB.sql \\
        --database names=NAMES.sql -- conformance.py DEMO.ini ACME.sql LIB.sql NAMES.sql

For each fixture, `grammar schema --json` (up to the declared type names,
which keep each server's spelling), `grammar sql-templates`,
`grammar text-templates` and `grammar qa` must write the same bytes from
the sqlite plugin (the fixture as a script) and from the server plugin;
and `grammar run` on the demo keyfile, with only its [database] section
changed, must write the same datasets, verdicts and reports.

The names fixture (conformance-names.sql) holds names that need quotes:
mixed case, reserved words, spaces, letters outside ASCII. Each backend
quotes the ones its dialect needs (PostgreSQL `"People_ID"` where SQLite
and MariaDB write `People_ID`; `"user"` in PostgreSQL only), so its
files must be the same bytes once the SQL in them is read without the
quotes a plain name does not need; the template ids, which do not depend
on those quotes, must be the same as they are.

One difference is pinned rather than removed: when each binding of a
template has one row at most, `grammar qa` reads the template's rows
without ORDER BY (the fast plan), in the order the database reads the
table. SQLite reads in rowid order and PostgreSQL a freshly loaded table
in the order it was written, the same here; MariaDB/MySQL may read
through an index (InnoDB's clustered key, or a covering index), so its
datasets hold the same records, byte for byte, in another order. Results
files are compared as records too: `grammar rag` writes them in the order
the answers come, and their latency differs from run to run.

Prints TAP. SPDX-License-Identifier: LGPL-2.1-or-later
"""

import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

GRAMMAR = os.environ.get("GRAMMAR_EXE", "grammar")
SERVER = os.environ.get("GRAMMAR_TEST_SERVER", "")
STYLES = "short,long,interrogative"

results = []


def tap(ok, name, detail=""):
    results.append(ok)
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), name))
    if detail and not ok:
        for line in detail.splitlines()[:60]:
            print("# " + line)
    sys.stdout.flush()


def grammar(*args, cwd=None):
    result = subprocess.run([GRAMMAR] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    return result.returncode, result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace")


def server_section(database, over_socket):
    lines = ["[database]", "plugin=%s" % SERVER]
    if over_socket:
        lines.append("socket=%s" % os.environ["GRAMMAR_TEST_DB_SOCKET"])
        if SERVER == "postgres":
            lines.append("port=%s" % os.environ["GRAMMAR_TEST_DB_PORT"])
    else:
        lines.append("host=%s" % os.environ["GRAMMAR_TEST_DB_HOST"])
        lines.append("port=%s" % os.environ["GRAMMAR_TEST_DB_PORT"])
    lines += ["database=%s" % database,
              "user=%s" % os.environ["GRAMMAR_TEST_DB_USER"],
              "password-env=GRAMMAR_TEST_DB_PASSWORD",
              "sslmode=disable"]
    return "\n".join(lines) + "\n"


def sqlite_section(script):
    return "[database]\nplugin=sqlite\nscript=%s\n" % script


def replace_database_section(keyfile, section):
    """The keyfile with its [database] section swapped for @section."""
    out, skipping = [], False
    for line in keyfile.splitlines(keepends=True):
        if line.startswith("["):
            skipping = line.strip() == "[database]"
            if skipping:
                out.append(section)
                continue
        if not skipping:
            out.append(line)
    return "".join(out)


def diff(a, b, name_a, name_b):
    """A unified diff, after the neighbourhood of the first differing byte
    (records are long lines)."""
    lines_a, lines_b = a.splitlines(keepends=True), b.splitlines(keepends=True)
    first = ""
    for x, y in zip(lines_a, lines_b):
        if x != y:
            at = next(i for i in range(min(len(x), len(y)) + 1) if i == min(len(x), len(y)) or x[i] != y[i])
            first = "first difference, at character %d of a line:\n  %s: …%s…\n  %s: …%s…\n" % (
                at, name_a, x[max(0, at - 80):at + 80].rstrip("\n"), name_b, y[max(0, at - 80):at + 80].rstrip("\n"))
            break
    return first + "".join(difflib.unified_diff(lines_a, lines_b, name_a, name_b, n=1))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def without_types(schema_json):
    return re.sub(r'"type" : "[^"]*"', '"type" : …', schema_json)


def sorted_lines(text):
    return "".join(sorted(text.splitlines(keepends=True)))


def records(text):
    """JSON Lines as sorted records, without the run's latencies."""
    out = []
    for line in text.splitlines():
        record = json.loads(line)
        record.pop("latency_ms", None)
        out.append(json.dumps(record, sort_keys=True, ensure_ascii=False))
    return "\n".join(sorted(out)) + "\n"


PLAIN_NAME = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)"')


def unquote_plain_names(sql):
    """@sql without the quotes around names of ASCII letters, digits and
    underscores, string literals left alone."""
    parts = re.split(r"('(?:[^']|'')*')", sql)
    return "".join(part if part.startswith("'") else PLAIN_NAME.sub(r"\1", part) for part in parts)


def without_name_quotes(value):
    """A JSON value with every "sql" member read by unquote_plain_names()."""
    if isinstance(value, dict):
        return {key: unquote_plain_names(item) if key == "sql" and isinstance(item, str) else without_name_quotes(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [without_name_quotes(item) for item in value]
    return value


def sql_without_name_quotes(text):
    """A JSON file, or JSON Lines, with its SQL read without needless quotes."""
    try:
        return json.dumps(without_name_quotes(json.loads(text)), ensure_ascii=False, indent=1) + "\n"
    except ValueError:
        return "".join(json.dumps(without_name_quotes(json.loads(line)), ensure_ascii=False) + "\n"
                       for line in text.splitlines())


def template_ids(text):
    """The SQL template ids of a sql.json or text.json, in file order."""
    data = json.loads(text)
    templates = data.get("sql_templates", []) if isinstance(data, dict) else data
    return "\n".join(template["id"] for template in templates) + "\n"


def compare_files(label, sqlite_path, server_path, normalise=None):
    if not os.path.exists(sqlite_path) or not os.path.exists(server_path):
        tap(False, label, "missing: %s or %s" % (sqlite_path, server_path))
        return
    a, b = read(sqlite_path), read(server_path)
    if normalise is not None:
        a, b = normalise(a), normalise(b)
    tap(a == b, label, diff(a, b, "sqlite", SERVER))


def generate(label, config, folder):
    """schema, sql-templates, text-templates, qa into @folder; TAP lines for failures."""
    os.makedirs(folder, exist_ok=True)
    steps = [
        ("schema", ["schema", "-c", config, "--json"]),
        ("sql-templates", ["sql-templates", "-c", config, "-q", "-o", os.path.join(folder, "sql.json")]),
        ("text-templates", ["text-templates", "-c", config, "-q", "-s", STYLES,
                            "-i", os.path.join(folder, "sql.json"), "-o", os.path.join(folder, "text.json")]),
        ("qa", ["qa", "-c", config, "-q", "-i", os.path.join(folder, "text.json"),
                "-o", os.path.join(folder, "qa.jsonl")]),
    ]
    for name, args in steps:
        code, out, err = grammar(*args)
        if name == "schema":
            with open(os.path.join(folder, "schema.json"), "w", encoding="utf-8") as f:
                f.write(out)
        if code != 0:
            tap(False, "%s: grammar %s exits 0" % (label, name), "exit %d\n%s" % (code, err))
            return False
    return True


def conformance(tmp, name, database, script, over_socket, quotes_differ=False):
    sqlite_ini = os.path.join(tmp, name + "-sqlite.ini")
    server_ini = os.path.join(tmp, name + "-server.ini")
    with open(sqlite_ini, "w") as f:
        f.write(sqlite_section(script))
    with open(server_ini, "w") as f:
        f.write(server_section(database, over_socket))
    a, b = os.path.join(tmp, name, "sqlite"), os.path.join(tmp, name, SERVER)
    ok = generate("%s from sqlite" % name, sqlite_ini, a) and generate("%s from %s" % (name, SERVER), server_ini, b)
    if not ok:
        return
    compare_files("%s: grammar schema --json is the same up to type names" % name,
                  os.path.join(a, "schema.json"), os.path.join(b, "schema.json"), without_types)
    how, unquote = "byte-identical", (lambda text: text)
    if quotes_differ:
        how, unquote = "the same up to the quotes of plain names in its SQL", sql_without_name_quotes
        for file in ("sql.json", "text.json"):
            compare_files("%s: %s has the same template ids" % (name, file),
                          os.path.join(a, file), os.path.join(b, file), template_ids)
    for file in ("sql.json", "text.json"):
        compare_files("%s: %s is %s" % (name, file, how), os.path.join(a, file), os.path.join(b, file), unquote)
    if SERVER == "mysql":
        records_how = "the same records, up to the quotes of plain names in their SQL," if quotes_differ \
            else "byte-identical records"
        compare_files("%s: qa.jsonl has %s (in InnoDB's order)" % (name, records_how),
                      os.path.join(a, "qa.jsonl"), os.path.join(b, "qa.jsonl"),
                      lambda text: sorted_lines(unquote(text)))
    else:
        compare_files("%s: qa.jsonl is %s" % (name, how), os.path.join(a, "qa.jsonl"), os.path.join(b, "qa.jsonl"),
                      unquote)
    lines = read(os.path.join(b, "qa.jsonl")).count("\n")
    print("# %s: %d dataset records from %s" % (name, lines, SERVER))


def whole_run(tmp, demo_ini, acme_script):
    """`grammar run` on the demo with only [database] changed."""
    keyfile = read(demo_ini)
    outputs = {}
    for backend, section in (("sqlite", sqlite_section(acme_script)), (SERVER, server_section("acme", True))):
        config = os.path.join(tmp, "demo-%s.ini" % backend)
        with open(config, "w") as f:
            f.write(replace_database_section(keyfile, section))
        out = os.path.join(tmp, "run-%s" % backend)
        code, stdout, err = grammar("run", "-c", config, "-d", out, "-q")
        if code != 0:
            tap(False, "grammar run on the demo from %s exits 0" % backend, "exit %d\n%s" % (code, err))
            return
        outputs[backend] = out
    a, b = outputs["sqlite"], outputs[SERVER]

    def report(text):
        # The folder's name, and the rule under the title as long as it.
        text = text.replace(a, "OUT").replace(b, "OUT")
        text = text.replace(a.replace("_", "\\_"), "OUT").replace(b.replace("_", "\\_"), "OUT")
        # The system's latency, which every run measures anew.
        text = re.sub(r"(?m)^.*System latency: .*\n", "", text)
        text = re.sub(r'(?s)"system_latency_ms" : \{.*?\},\n\s*', "", text)
        return re.sub(r"(?m)^=+$", "===", text)

    for file in sorted(os.listdir(a)):
        if file == "manifest.json":
            continue
        if file.endswith(".dataset.jsonl"):
            how, normalise = ("the same records" if SERVER == "mysql" else "byte-identical",
                              sorted_lines if SERVER == "mysql" else None)
        elif file.endswith(".jsonl"):
            how, normalise = "the same records", records
        else:
            how, normalise = "the same", report
        compare_files("grammar run: %s is %s" % (file, how), os.path.join(a, file), os.path.join(b, file), normalise)
    summary = [line for line in read(os.path.join(b, "report.txt")).splitlines() if "ccuracy" in line][:3]
    for line in summary:
        print("# %s report: %s" % (SERVER, line.strip()))


def admin_sql(sql, database=None):
    argv = [sys.executable, os.environ["GRAMMAR_TEST_WITH_SERVER"], "admin-sql"] + ([database] if database else [])
    result = subprocess.run(argv, input=sql.encode(), stdout=subprocess.PIPE, check=True)
    return result.stdout.decode()


BIG_ROWS = 1000000


def load_big_table():
    """A table of BIG_ROWS rows in grammar_test, made by the server itself."""
    if SERVER == "postgres":
        admin_sql("CREATE TABLE big (k INTEGER PRIMARY KEY, v VARCHAR(40) NOT NULL);"
                  "INSERT INTO big SELECT g, 'value ' || g FROM generate_series(1, %d) AS g;" % BIG_ROWS)
    else:
        admin_sql("CREATE TABLE big (k INTEGER PRIMARY KEY, v VARCHAR(40) NOT NULL);"
                  "INSERT INTO big SELECT seq, CONCAT('value ', seq) FROM seq_1_to_%d;" % BIG_ROWS)


def reader_sessions():
    """The ids of the reader's sessions running a statement now."""
    user = os.environ["GRAMMAR_TEST_DB_USER"]
    if SERVER == "postgres":
        sql = ("SELECT pid FROM pg_stat_activity WHERE usename = '%s' AND state = 'active';" % user)
        out = admin_sql("\\pset tuples_only on\n\\pset format unaligned\n" + sql)
    else:
        sql = ("SELECT id FROM information_schema.PROCESSLIST WHERE user = '%s' AND command <> 'Sleep';" % user)
        out = admin_sql(sql)
    return [line.strip() for line in out.splitlines() if line.strip().isdigit()]


def dropped_connection(tmp):
    """`grammar qa` whose connection the server drops mid-run fails: exit
    1, a message naming [database] and the server, and no output file."""
    load_big_table()
    config = os.path.join(tmp, "big.ini")
    with open(config, "w") as f:
        f.write(server_section(os.environ["GRAMMAR_TEST_DB_NAME"], True))
    templates = os.path.join(tmp, "big.json")
    with open(templates, "w") as f:
        json.dump({"sql_templates": [{"id": "sbig", "sql": "SELECT v FROM big WHERE k = [big.k]", "origin": "manual"}],
                   "text_templates": [{"template": "sbig", "style": "short", "text": "The value of [big.k]?"}]}, f)
    output = os.path.join(tmp, "big.jsonl")
    process = subprocess.Popen([GRAMMAR, "qa", "-q", "-c", config, "-i", templates, "-o", output],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    killed = []
    deadline = time.monotonic() + 30
    # Until grammar qa ends: a session killed between two statements is
    # opened again (the plugins reconnect once, as they should), so the
    # kills go on until one lands in a statement.
    while process.poll() is None and time.monotonic() < deadline:
        for session in reader_sessions():
            admin_sql("SELECT pg_terminate_backend(%s);" % session if SERVER == "postgres" else "KILL %s;" % session)
            killed.append(session)
        time.sleep(0.05)
    err = process.communicate(timeout=60)[1].decode("utf-8", "replace")
    print("# killed session(s) %s; grammar qa exited %d: %s" % (",".join(killed) or "none", process.returncode,
                                                                   err.strip().replace("\n", " / ")[:300]))
    tap(bool(killed), "a reader session was running grammar qa's statement, and was killed")
    tap(process.returncode == 1, "grammar qa whose connection drops mid-run exits 1", err)
    tap("[database]" in err, "its message names the [database] section", err)
    tap(not os.path.exists(output), "it leaves no output file")
    tap(os.environ["GRAMMAR_TEST_DB_PASSWORD"] not in err, "its message does not hold the password", err)


def main(argv):
    if SERVER not in ("postgres", "mysql") or len(argv) != 5:
        print("usage: with-server.py postgres|mysql --database acme=A.sql --database library=L.sql"
              " --database names=N.sql -- conformance.py DEMO.ini A.sql L.sql N.sql", file=sys.stderr)
        return 2
    demo_ini, acme, library, names = (os.path.abspath(p) for p in argv[1:5])
    if SERVER == "mysql":
        # Table creation order comes from InnoDB's table ids, which need PROCESS.
        grant = "GRANT PROCESS ON *.* TO '%s'@'localhost'; GRANT PROCESS ON *.* TO '%s'@'127.0.0.1';" % (
            os.environ["GRAMMAR_TEST_DB_USER"], os.environ["GRAMMAR_TEST_DB_USER"])
        subprocess.run([sys.executable, os.environ["GRAMMAR_TEST_WITH_SERVER"], "admin-sql"],
                       input=grant.encode(), check=True)
    print("# %s started in %s s" % (SERVER, os.environ.get("GRAMMAR_TEST_DB_STARTUP", "?")))
    tmp = tempfile.mkdtemp(prefix="grammar-conformance-")
    try:
        conformance(tmp, "acme", "acme", acme, over_socket=True)
        conformance(tmp, "library", "library", library, over_socket=False)
        conformance(tmp, "names", "names", names, over_socket=True, quotes_differ=True)
        whole_run(tmp, demo_ini, acme)
        dropped_connection(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
