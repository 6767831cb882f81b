#!/usr/bin/env python3
# test-signals-locks.py: one writer per output, and SIGINT, SIGTERM and
# SIGHUP on every long command (issue 15, parts 1 and 2).
#
# Spawns the `grammar` of the build (GRAMMAR_EXE) on fixtures it makes
# itself: a dataset asked of tests/rag-test-system (a delay per answer),
# judged by tests/judge-test-matcher, scored by faithfulness-lexical, a
# SQLite table for qa and docs, and the demo database for `grammar run`.
# TAP output; run by meson (tests/meson.build) with the test environment.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import tap
from tap import check

EXE = os.environ["GRAMMAR_EXE"]
BUILDDIR = os.environ["G_TEST_BUILDDIR"]
SRCDIR = os.environ["G_TEST_SRCDIR"]
os.environ["GRAMMAR_PLUGIN_PATH"] = ":".join(
    [os.path.join(BUILDDIR, "rag-test-system"), os.path.join(BUILDDIR, "judge-test-matcher"),
     os.environ.get("GRAMMAR_PLUGIN_PATH", "")])

TMP = tempfile.mkdtemp(prefix="grammar-signals-")
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
N_RECORDS = 3000


def sanitized():
    with open(EXE, "rb") as f:
        return b"__asan_init" in f.read()


# A command stops within 2 s of a signal. Under AddressSanitizer every step,
# and the exit itself, is several times slower: the bound is looser there.
STOP_WITHIN = 4.0 if sanitized() else 2.0

def path(name):
    return os.path.join(TMP, name)


def write(name, text):
    with open(path(name), "w") as f:
        f.write(text)
    return path(name)


def spawn(*args):
    return subprocess.Popen([EXE] + list(args), cwd=TMP, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def run(*args):
    return subprocess.run([EXE] + list(args), cwd=TMP, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, timeout=300)


def count_lines(name):
    try:
        with open(path(name), "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


def ids_of(name):
    """The ids of the output's lines; None when a line is not whole JSON."""
    counter = collections.Counter()
    with open(path(name)) as f:
        for line in f:
            try:
                counter[json.loads(line)["id"]] += 1
            except (ValueError, KeyError):
                return None
    return counter


def wait_until(condition, what, timeout=60):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.01)


def temporaries(name):
    return [f for f in os.listdir(TMP) if f.startswith("." + name + ".") and not f.endswith(".lock")]


def interrupt(process, number):
    """Sends @number; returns (exit status, seconds until the exit)."""
    sent = time.monotonic()
    process.send_signal(number)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None, 10.0, process.stderr.read()
    return process.returncode, time.monotonic() - sent, process.stderr.read()


# Fixtures ------------------------------------------------------------------

def make_fixtures():
    with open(path("dataset.jsonl"), "w") as f:
        for i in range(N_RECORDS):
            f.write(json.dumps({"id": "q%d" % i, "group": "g%d" % (i // 3), "template": "t", "style": "short",
                                "text": "Which number has thing %d?" % i, "sql": "SELECT 1",
                                "bindings": {}, "answer": [["%d" % i]], "doc_ids": []}) + "\n")
    with open(path("results.jsonl"), "w") as f:
        for i in range(25000):
            f.write(json.dumps({"id": "r%d" % i, "group": "g%d" % (i // 3), "template": "t", "style": "short",
                                "text": "Which number has thing %d?" % i, "sql": "SELECT 1", "bindings": {},
                                "answer": [["%d" % i]], "doc_ids": ["thing-%d" % i],
                                "response": "Thing %d is number %d." % (i, i), "latency_ms": 1,
                                "retrieved": [{"id": "thing-%d" % i, "score": 1.0,
                                               "text": "Thing %d is thing number %d, made in %d." % (i, i, i)}]})
                    + "\n")
    for name, rows in (("docs.sqlite", 300000), ("qa.sqlite", 6000)):
        db = sqlite3.connect(path(name))
        db.executescript("CREATE TABLE thing (thing_id INTEGER PRIMARY KEY, label TEXT NOT NULL);"
                         "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d)"
                         " INSERT INTO thing SELECT i, 'thing ' || i FROM n;" % rows)
        db.commit()
        db.close()
    write("stages.ini", "[database]\nplugin=sqlite\nuri=docs.sqlite\n\n"
                        "[system]\nplugin=rag-test\ndelay-ms=5\n\n"
                        "[slow]\nplugin=rag-test\ndelay-ms=10000\nlog=slow-asked.txt\n\n"
                        "[matcher]\nplugin=test-contains\ndelay-ms=5\n\n"
                        "[metrics]\nmetrics=lexical\n\n[lexical]\nplugin=faithfulness-lexical\n\n"
                        "[documents]\ntables=thing\nthing.title={label}\nthing.text={label} is thing {thing_id}.\n")
    write("qa.ini", "[database]\nplugin=sqlite\nuri=qa.sqlite\n")
    # LIMIT makes qa run one query per value: a few seconds.
    write("templates.json", json.dumps({
        "sql_templates": [{"id": "big", "sql": "SELECT thing_id FROM thing WHERE label = '[thing.label]' LIMIT 1",
                           "tables": ["thing"], "origin": "manual"}],
        "text_templates": [{"template": "big", "style": "short", "text": "Which number has [thing.label]?"}]}))
    acme = os.path.join(SRCDIR, "..", "examples", "acme", "acme.sql")
    write("run.ini", "[database]\nplugin=sqlite\nscript=%s\n\n[system]\nplugin=rag-test\ndelay-ms=20\n\n"
                     "[run]\nstyles=short\n" % os.path.abspath(acme))


# Part 1: one writer per output ---------------------------------------------

def test_two_rag():
    first = spawn("rag", "-q", "-c", "stages.ini", "-i", "dataset.jsonl", "-o", "two.jsonl")
    wait_until(lambda: count_lines("two.jsonl") > 0, "the first rag writing")
    started = time.monotonic()
    second = run("rag", "-q", "-c", "stages.ini", "-i", "dataset.jsonl", "-o", "two.jsonl")
    seconds = time.monotonic() - started
    check(second.returncode == 2, "a second rag on the same output exits 2", second.stderr)
    check("two.jsonl is being written by another process (pid %d" % first.pid in second.stderr,
          "its message names the file and the first process's pid", second.stderr)
    check(seconds < 1.0, "it stops at once (%.3f s)" % seconds)
    first.wait(timeout=120)
    check(first.returncode == 0, "the first rag completes", first.stderr.read())
    ids = ids_of("two.jsonl")
    check(ids is not None and len(ids) == N_RECORDS and max(ids.values()) == 1,
          "every record exactly once", ids and collections.Counter(ids.values()))
    check(not os.path.exists(path("two.jsonl.lock")), "the lock file is removed at the end")


def test_killed_rag():
    first = spawn("rag", "-q", "-c", "stages.ini", "-i", "dataset.jsonl", "-o", "killed.jsonl")
    wait_until(lambda: count_lines("killed.jsonl") > 0, "rag writing")
    first.send_signal(signal.SIGKILL)
    first.wait()
    check(os.path.exists(path("killed.jsonl.lock")), "SIGKILL leaves the lock file")
    again = run("rag", "-q", "-c", "stages.ini", "-i", "dataset.jsonl", "-o", "killed.jsonl")
    check(again.returncode == 0, "the next rag takes the lock over and completes", again.stderr)
    ids = ids_of("killed.jsonl")
    check(ids is not None and len(ids) == N_RECORDS and max(ids.values()) == 1, "every record exactly once")


def test_two_runs():
    first = spawn("run", "-q", "-c", "run.ini", "-d", "two-runs")
    wait_until(lambda: count_lines("two-runs/short.results.jsonl") > 0, "the first run's rag stage")
    second = run("run", "-q", "-c", "run.ini", "-d", "two-runs")
    check(second.returncode == 2, "a second run on the same folder exits 2", second.stderr)
    check("two-runs is being written by another process (pid %d" % first.pid in second.stderr,
          "its message names the folder and the first process's pid", second.stderr)
    first.send_signal(signal.SIGKILL)
    first.wait()
    check(os.path.exists(path("two-runs/.lock")), "SIGKILL leaves the folder's lock file")
    again = run("run", "-q", "-c", "run.ini", "-d", "two-runs")
    check(again.returncode == 0, "the next run takes the folder over and completes", again.stderr)
    for name in ("short.dataset.jsonl", "short.results.jsonl", "short.judged.jsonl"):
        ids = ids_of("two-runs/" + name)
        check(ids is not None and len(ids) > 0 and max(ids.values()) == 1 and
              len(ids) == count_lines("two-runs/short.dataset.jsonl"), name + ": every record exactly once")
    check(not os.path.exists(path("two-runs/.lock")), "the folder's lock file is removed at the end")


# Part 2: signals -------------------------------------------------------------

# command line, output, whether it appends (else it replaces atomically), records expected
STAGES = {
    "rag": (["rag", "-q", "-c", "stages.ini", "-i", "dataset.jsonl", "-o", "sig-rag.jsonl"], "sig-rag.jsonl",
            True, N_RECORDS),
    "judge": (["judge", "-q", "-c", "stages.ini", "-i", "dataset-results.jsonl", "-o", "sig-judge.jsonl"],
              "sig-judge.jsonl", True, N_RECORDS),
    "assess": (["assess", "-q", "-c", "stages.ini", "-i", "results.jsonl", "-o", "sig-assess.jsonl"],
               "sig-assess.jsonl", True, 25000),
    "qa": (["qa", "-q", "-c", "qa.ini", "-i", "templates.json", "-o", "sig-qa.jsonl"], "sig-qa.jsonl", False, 6000),
    "docs": (["docs", "-q", "-c", "stages.ini", "-o", "sig-docs.jsonl"], "sig-docs.jsonl", False, 300000),
    "run": (["run", "-q", "-c", "run.ini", "-d", "sig-run"], "sig-run/short.results.jsonl", True, None),
}


def test_signals(command):
    args, output, appends, expected = STAGES[command]
    if not appends:
        write(output, "previous\n")
    for number in SIGNALS:
        name = signal.Signals(number).name
        before = count_lines(output)
        process = spawn(*args)
        if appends:
            wait_until(lambda: count_lines(output) > before, command + " writing")
        else:
            wait_until(lambda: temporaries(output), command + " writing its temporary file")
            time.sleep(0.2)
        status, seconds, err = interrupt(process, number)
        check(status == 128 + number, "%s: %s exits %d (%s)" % (command, name, 128 + number, status), err)
        check(seconds < STOP_WITHIN,
              "%s: %s stops it within %g s (%.3f s)" % (command, name, STOP_WITHIN, seconds))
        if appends:
            ids = ids_of(output)
            check(ids is not None and max(ids.values()) == 1 and
                  (expected is None or len(ids) < expected),
                  "%s: %s leaves whole lines, each record once, %d of them" % (command, name, len(ids or ())))
        else:
            with open(path(output)) as f:
                check(f.read() == "previous\n", "%s: %s leaves the previous file as it was" % (command, name))
            check(not temporaries(output), "%s: %s leaves no temporary file" % (command, name))
        check(not os.path.exists(path(output + ".lock")) and not os.path.exists(path("sig-run/.lock")),
              "%s: %s releases the lock" % (command, name))
    again = run(*args)
    check(again.returncode == 0, "%s: the next run completes" % command, again.stderr)
    if expected is None:
        expected = count_lines("sig-run/short.dataset.jsonl")
    ids = ids_of(output)
    check(ids is not None and len(ids) == expected and max(ids.values()) == 1,
          "%s: every record exactly once (%d)" % (command, len(ids or ())))


def test_second_signal():
    """The [slow] system answers after 10 s and ignores cancellation: a
    second Ctrl-C exits at once, and a single SIGTERM still stops the
    command within 2 s."""
    args = ["rag", "-q", "-c", "stages.ini", "--system", "slow", "-i", "dataset.jsonl", "-o", "slow.jsonl"]
    process = spawn(*args)
    wait_until(lambda: count_lines("slow-asked.txt") > 0, "rag asking")
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=10)
    seconds = time.monotonic() - sent
    err = process.stderr.read()
    check(process.returncode == 130 and seconds < 1.0,
          "a second SIGINT exits 130 at once (%.3f s after the first)" % seconds, err)
    check("a second signal" in err, "it says so", err)

    os.unlink(path("slow-asked.txt"))
    process = spawn(*args)
    wait_until(lambda: count_lines("slow-asked.txt") > 0, "rag asking")
    status, seconds, err = interrupt(process, signal.SIGTERM)
    check(status == 143 and 1.0 < seconds < STOP_WITHIN,
          "calls that ignore the cancellation: SIGTERM still exits 143 within %g s (%.3f s)" % (STOP_WITHIN, seconds),
          err)
    check(count_lines("slow.jsonl") == 0 and os.path.getsize(path("slow.jsonl")) == 0,
          "nothing half written")


def main():
    make_fixtures()
    done = run("rag", "-q", "-c", "stages.ini", "-i", "dataset.jsonl", "-o", "dataset-results.jsonl")
    check(done.returncode == 0, "the judge's input is made", done.stderr)
    test_two_rag()
    test_killed_rag()
    test_two_runs()
    for command in STAGES:
        test_signals(command)
    test_second_signal()
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
