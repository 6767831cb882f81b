#!/usr/bin/env python3
# test-progress.py GRAMMAR DEMO_INI: the progress line of the long commands.
#
# Each of docs, qa, rag, judge, assess and run is run on the demo database
# under a pseudo-terminal (stdin, stdout and stderr all on it): a progress
# line "\r\e[Kgrammar COMMAND: … N.N/s" appears, no wider than the
# terminal. Then again with stdout still on the terminal but stderr
# redirected to a file, and under the terminal with -q: no progress at all
# (no "\r", no escape sequence), only the summary.  TAP output.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import tempfile
import termios

import tap
from tap import check

grammar, demo_ini = os.path.abspath(sys.argv[1]), sys.argv[2]
COLUMNS = 200


def under_terminal(argv, cwd, stderr_file=None, columns=COLUMNS):
    """Runs argv with a pseudo-terminal of @columns columns as its terminal;
    returns (exit status, what the terminal got, what stderr_file got)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    err = open(stderr_file, "wb") if stderr_file else slave
    process = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=err, close_fds=True)
    os.close(slave)
    if stderr_file:
        err.close()
    received = bytearray()
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            process.kill()
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every copy of the slave side is closed
            break
        if not chunk:
            break
        received += chunk
    os.close(master)
    status = process.wait()
    written = open(stderr_file, "rb").read() if stderr_file else b""
    return status, received.decode("utf-8", "replace"), written.decode("utf-8", "replace")


def progress_lines(text):
    """The progress lines drawn: each starts with \r\e[K and has no line
    end (what follows the last erase, the summary, has one)."""
    return [part for part in text.split("\r\x1b[K")[1:] if "\n" not in part]


def keyfile(folder):
    """demo.ini with its paths made absolute, the corpus in @folder."""
    demo_dir = os.path.dirname(os.path.abspath(demo_ini))
    text = open(demo_ini, encoding="utf-8").read()
    text = text.replace("script=acme/acme.sql", "script=" + os.path.join(demo_dir, "acme", "acme.sql"))
    text = re.sub(r"^documents=.*$", "documents=" + os.path.join(folder, "documents.jsonl"), text,
                  flags=re.MULTILINE)
    path = os.path.join(folder, "demo.ini")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def quietly(argv, cwd):
    run = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        tap.bail_out(f"{' '.join(argv)} exited {run.returncode}")


def commands(cfg):
    """(command, its arguments for a given output tag, the pattern of its
    progress line), in an order where each input exists."""
    return [
        ("docs", lambda t: ["-o", f"documents{t}.jsonl"],
         r"^grammar docs: \d+ documents, tables done: \d+, [\d.]+/s$"),
        ("qa", lambda t: ["-i", "text-templates.json", "-d", "documents.jsonl", "-o", f"dataset{t}.jsonl"],
         r"^grammar qa: \d+ records, \d+ groups, template \d+/\d+, [\d.]+/s$"),
        ("rag", lambda t: ["-i", "dataset.jsonl", "-o", f"results{t}.jsonl"],
         r"^grammar rag: \d+/\d+ records \(\d+ %\), \d+ failed, [\d.]+/s"),
        ("judge", lambda t: ["-i", "results.jsonl", "-o", f"judged{t}.jsonl"],
         r"^grammar judge: \d+/\d+ records \(\d+ %\), \d+ failed, [\d.]+/s"),
        ("assess", lambda t: ["-i", "results.jsonl", "-o", f"assessed{t}.jsonl"],
         r"^grammar assess: \d+/\d+ records \(\d+ %\), \d+ failed, [\d.]+/s"),
        ("run", lambda t: ["-d", f"run{t}"],
         r"^grammar (?:(docs|qa): \d+ (?:documents|records)|(rag|judge|assess): \d+/\d+ records \(\d+ %\)), "
         r"[\d.]+/s"),
    ]


def no_progress(text):
    """No escape sequence, and no carriage return but those a terminal
    puts before a line feed."""
    return "\x1b" not in text and "\r" not in text.replace("\r\n", "\n")


with tempfile.TemporaryDirectory() as folder:
    cfg = keyfile(folder)
    quietly([grammar, "sql-templates", "-c", cfg, "-o", "sql-templates.json"], folder)
    quietly([grammar, "text-templates", "-c", cfg, "-i", "sql-templates.json", "-s", "short",
             "-o", "text-templates.json"], folder)

    for command, arguments, pattern in commands(cfg):
        argv = [grammar, command, "-c", cfg]
        status, terminal, _ = under_terminal(argv + arguments(""), folder)
        lines = progress_lines(terminal)
        drawn = [line for line in lines if re.search(pattern, line)]
        check(status == 0 and drawn, f"{command} on a terminal draws a progress line",
              f"exit {status}; got {terminal!r}")
        if command == "run":
            stages = {re.match(r"^grammar ([\w-]+):", line).group(1) for line in drawn}
            check(stages == {"docs", "qa", "rag", "judge", "assess"},
                  "run draws the line for each long stage", f"{sorted(stages)}")
        # Each run on a terminal ends with the line erased, then the summary.
        summary = terminal.rstrip("\r\n").rsplit("\r\x1b[K", 1)[-1]
        check(re.match(r"^(grammar \w+: |\n)", summary) is not None and not re.search(pattern, summary),
              f"{command}: the line is erased before what follows", f"{summary!r}")

        log = os.path.join(folder, f"{command}.log")
        status, terminal, written = under_terminal(argv + arguments("-file"), folder, log)
        check(status == 0 and no_progress(written) and no_progress(terminal) and f"grammar " in written,
              f"{command} with stderr in a file: no progress, the summary stays",
              f"exit {status}; stderr {written!r}")

        status, terminal, _ = under_terminal(argv + ["-q"] + arguments("-quiet"), folder)
        check(status == 0 and no_progress(terminal), f"{command} -q on a terminal: no progress",
              f"exit {status}; got {terminal!r}")

    # A narrow terminal: the line is cut short of the last column, so that
    # it never wraps (a wrapped line cannot be erased with \r).
    status, terminal, _ = under_terminal([grammar, "rag", "-c", cfg, "-i", "dataset.jsonl", "-o", "narrow.jsonl"],
                                         folder, columns=30)
    lines = progress_lines(terminal)
    check(status == 0 and lines and all(len(line) <= 29 and line.startswith("grammar rag: ") for line in lines),
          "on a terminal of 30 columns, the progress line is cut to 29", f"{lines}")

sys.exit(tap.finish())
