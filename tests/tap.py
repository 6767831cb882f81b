# tap.py: the TAP output of the Python tests in tests/ (Python 3 standard
# library only). A test script does
#
#     import tap
#     tap.check(ok, "what is checked", detail)   # "ok N - …" / "not ok N - …"
#     ...
#     sys.exit(tap.finish())                      # the plan "1..N"; 0 or 1
#
# Each result is printed and flushed as it is known, so that the log of a
# test that meson stops at its timeout shows how far it went; the plan
# comes last, which TAP allows. The detail of a failed check follows it as
# "# " lines (by default at most DETAIL_LINES of them, each cut at
# DETAIL_WIDTH characters). skip_all() skips the whole test before its
# first check; skip() counts a check that could not be made; bail_out()
# stops the test.
#
# The scripts are run as `python3 tests/NAME.py …`, so this file's folder
# is their sys.path[0] and `import tap` finds it.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys

DETAIL_LINES = 50
DETAIL_WIDTH = 2000

_count = 0
_failed = 0


def _print(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def diagnostic(text, max_lines=DETAIL_LINES):
    """Prints @text (a string, or a list of them) as "# " lines, at most
    @max_lines of them (None: every line)."""
    if isinstance(text, (list, tuple)):
        text = "\n".join(str(item) for item in text)
    lines = str(text).splitlines()
    shown = lines if max_lines is None else lines[:max_lines]
    for line in shown:
        if len(line) > DETAIL_WIDTH:
            line = line[:DETAIL_WIDTH] + " …"
        _print("# " + line)
    if len(lines) > len(shown):
        _print("# … %d more lines" % (len(lines) - len(shown)))


def check(ok, name, detail="", max_lines=DETAIL_LINES):
    """One result: "ok N - @name", or "not ok N - @name" followed by
    @detail (see diagnostic()). Returns whether it passed."""
    global _count, _failed
    ok = bool(ok)
    _count += 1
    if not ok:
        _failed += 1
    _print("%s %d - %s" % ("ok" if ok else "not ok", _count, name))
    if not ok and detail:
        diagnostic(detail, max_lines)
    return ok


def skip(reason, name=""):
    """A check that could not be made: "ok N - @name # SKIP @reason"."""
    global _count
    _count += 1
    _print("ok %d%s # SKIP %s" % (_count, " - " + name if name else "", reason))


def skip_all(reason):
    """Skips the whole test ("1..0 # SKIP @reason") and exits 0; only
    before the first check."""
    _print("1..0 # SKIP %s" % reason)
    sys.exit(0)


def bail_out(reason):
    """Stops the test: "Bail out! @reason", exit 1."""
    _print("Bail out! %s" % reason)
    sys.exit(1)


def finish():
    """Prints the plan "1..N"; returns the exit status, 0 when every check
    passed, 1 otherwise."""
    _print("1..%d" % _count)
    return 1 if _failed else 0
