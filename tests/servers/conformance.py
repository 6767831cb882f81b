#!/usr/bin/env python3
"""Conformance across backends: the same data in SQLite and in a server.

Run by with-server.py (which starts the server and exports its address):

    with-server.py postgres|mysql --database acme=ACME.sql --database library=LIB.sql \\
        -- conformance.py DEMO.ini ACME.sql LIB.sql

For each fixture, `grammar schema --json` (up to the declared type names,
which keep each server's spelling), `grammar sql-templates`,
`grammar text-templates` and `grammar qa` must write the same bytes from
the sqlite plugin (the fixture as a script) and from the server plugin;
and `grammar run` on the demo keyfile, with only its [database] section
changed, must write the same datasets, verdicts and report.

Prints TAP. SPDX-License-Identifier: LGPL-2.1-or-later
"""

import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

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
    return "".join(difflib.unified_diff(a.splitlines(keepends=True), b.splitlines(keepends=True),
                                        name_a, name_b, n=1))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def without_types(schema_json):
    return re.sub(r'"type" : "[^"]*"', '"type" : …', schema_json)


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


def conformance(tmp, name, database, script, over_socket):
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
    for file in ("sql.json", "text.json", "qa.jsonl"):
        compare_files("%s: %s is byte-identical" % (name, file), os.path.join(a, file), os.path.join(b, file))
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

    def paths(text):
        return text.replace(a, "OUT").replace(b, "OUT")

    for file in sorted(os.listdir(a)):
        if file == "manifest.json" or file.endswith(".html"):
            continue
        compare_files("grammar run: %s is the same" % file, os.path.join(a, file), os.path.join(b, file), paths)
    summary = [line for line in read(os.path.join(b, "report.txt")).splitlines() if "ccuracy" in line][:3]
    for line in summary:
        print("# %s report: %s" % (SERVER, line.strip()))


def main(argv):
    if SERVER not in ("postgres", "mysql") or len(argv) != 4:
        print("usage: with-server.py postgres|mysql --database acme=A.sql --database library=L.sql"
              " -- conformance.py DEMO.ini A.sql L.sql", file=sys.stderr)
        return 2
    demo_ini, acme, library = (os.path.abspath(p) for p in argv[1:4])
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
        whole_run(tmp, demo_ini, acme)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
