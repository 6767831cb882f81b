#!/usr/bin/env python3
# test-man-page.py GRAMMAR MANPAGE: doc/grammar.1 renders without a warning
# and documents every command `grammar --help` lists, with every option of
# `grammar COMMAND --help`, so that a new command or option without its
# part of the manual page fails here.  TAP output.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import subprocess
import sys

import tap
from tap import check

grammar, manpage = sys.argv[1], sys.argv[2]

def commands():
    """The commands of `grammar --help`, in its order."""
    text = subprocess.run([grammar, "--help"], capture_output=True, text=True, check=True).stdout
    block = text.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in block.splitlines() if line.strip()]


def options(command):
    """The long options of `grammar COMMAND --help`, without --help."""
    text = subprocess.run([grammar, command, "--help"], capture_output=True, text=True, check=True).stdout
    found = re.findall(r"^\s+(?:-\w, )?(--[\w-]+)", text, re.MULTILINE)
    return [o for o in found if o != "--help"]


def sections(source):
    """{command: the troff text of its .SS section} of the COMMANDS part."""
    found = {}
    parts = re.split(r'^\.SS "grammar ([^"]+)"\n', source, flags=re.MULTILINE)
    for name, body in zip(parts[1::2], parts[2::2]):
        body = re.split(r"^\.S[HS] ", body, maxsplit=1, flags=re.MULTILINE)[0]
        found[name.replace("\\-", "-")] = body.replace("\\-", "-")
    return found


source = open(manpage, encoding="utf-8").read()

groff = shutil.which("groff")
if groff is None:
    tap.skip_all("groff is not installed (tools/setup-debian --tests installs groff-base)")

# -ww: every warning; -z: no output, only the diagnostics.
env = dict(os.environ, LC_ALL="C.UTF-8")
run = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", manpage], capture_output=True, text=True, env=env)
check(run.returncode == 0 and run.stderr == "", "groff -man -Tutf8 -ww renders it without a warning",
      run.stderr.strip())

rendered = subprocess.run([groff, "-man", "-Tutf8", manpage], capture_output=True, text=True, env=env).stdout
plain = re.sub(r".\x08", "", rendered)
for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"]:
    check(re.search(r"^" + heading + r"$", plain, re.MULTILINE) is not None, f"it has the section {heading}")
for variable in ["GRAMMAR_PLUGIN_PATH", "password-env", "api-key-env"]:
    check(variable in plain.split("ENVIRONMENT", 1)[-1].split("FILES", 1)[0], f"ENVIRONMENT names {variable}")

listed = commands()
check(len(listed) >= 13, "grammar --help lists the commands", f"{listed}")
documented = sections(source)
for command in listed:
    body = documented.get(command)
    check(body is not None, f"grammar {command} has a section",
          f'add .SS "grammar {command}" to {manpage}')
    if body is None:
        continue
    missing = [o for o in options(command) if o not in body]
    check(not missing, f"grammar {command}: every option of --help is in its section", f"missing: {missing}")
stale = sorted(set(documented) - set(listed))
check(not stale, "every command section is a command of grammar --help", f"not commands: {stale}")

sys.exit(tap.finish())
