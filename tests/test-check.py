#!/usr/bin/env python3
# test-check.py GRAMMAR: `grammar check`, and the check `grammar run` makes
# before its first stage, on a keyfile shaped like a user's (their own
# section names, comments, a database with quoted mixed-case names).
#
# Each bad keyfile ([matcher] plugin=containz, [kb_search] topk=1,
# [system] generator=nosuch, a retriever documents= file that nothing
# writes) exits 2 from `grammar check` and from `grammar run` within a
# second, with no output folder made; one with all of them lists every
# problem; the good one checks with exit 0 and the list of stages, and
# after a run every stage is done and would be kept.  TAP output.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys
import tempfile
import time

import tap
from tap import check

grammar = os.path.abspath(sys.argv[1])

LIBRARY_SQL = '''
CREATE TABLE "Branch" ("BranchId" INTEGER PRIMARY KEY, "Branch Name" TEXT NOT NULL, "City" TEXT);
CREATE TABLE "Book" ("BookId" INTEGER PRIMARY KEY, "Title" TEXT NOT NULL,
  "BranchId" INTEGER REFERENCES "Branch" ("BranchId"), "Year" INTEGER);
INSERT INTO "Branch" VALUES (1, 'Harbour Street', 'Leith'), (2, 'Old Town', 'Edinburgh');
INSERT INTO "Book" VALUES (1, 'Kidnapped', 1, 1886), (2, 'Waverley', 2, 1814), (3, 'Ivanhoe', 2, 1819);
'''

DOCUMENTS = '''
# one page per book and per branch
[documents]
tables=Book;Branch
Book.title={Title}
Book.text={Title} was published in {Year}.
Branch.title={Branch Name}
Branch.text={Branch Name} is a branch in {City}.
'''

GOOD = '''# Our library's catalogue, evaluated with a keyword search.
[database]
plugin=sqlite
script=library.sql
%s
# the system under test
[system]
plugin=pipeline
retriever=kb_search
generator=answerer

[kb_search]
plugin=keyword
documents=corpus/documents.jsonl
top-k=2

[answerer]
plugin=extractive

[matcher]
plugin=contains

[run]
styles=short
per-template=1
'''

BAD = {
    'matcher': ('plugin=contains', 'plugin=containz',
                '[matcher] plugin: unknown matcher plugin “containz”'),
    'topk': ('top-k=2', 'topk=1', '[kb_search] topk: unknown key'),
    'generator': ('generator=answerer', 'generator=nosuch', '[system] generator: there is no section [nosuch]'),
}
MISSING_DOCUMENTS = '[kb_search] documents: no file '


def run(args, cwd):
    started = time.monotonic()
    done = subprocess.run([grammar] + args, cwd=cwd, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def keyfile(folder, name, text):
    with open(os.path.join(folder, name), 'w') as f:
        f.write(text)
    return name


def bad_case(folder, name, text, problems):
    ini = keyfile(folder, name + '.ini', text)
    status, out, err, _ = run(['check', '-c', ini, '-d', 'out-' + name], folder)
    check(status == 2 and all(p in err for p in problems) and out == '',
          'grammar check on %s exits 2 naming the problem' % name, err)
    status, out, err, seconds = run(['run', '-c', ini, '-d', 'out-' + name], folder)
    check(status == 2 and all(p in err for p in problems), 'grammar run on %s exits 2 naming the problem' % name, err)
    check(seconds < 1.0, 'grammar run on %s stops within a second' % name, '%.2f s' % seconds)
    check(not os.path.exists(os.path.join(folder, 'out-' + name)),
          'grammar run on %s makes no output folder' % name)


def main():
    with tempfile.TemporaryDirectory(prefix='grammar-check-') as folder:
        with open(os.path.join(folder, 'library.sql'), 'w') as f:
            f.write(LIBRARY_SQL)
        good = GOOD % DOCUMENTS

        for name, (old, new, problem) in BAD.items():
            bad_case(folder, name, good.replace(old, new), [problem])
        # nothing writes the corpus without [documents]
        bad_case(folder, 'documents', GOOD % '', [MISSING_DOCUMENTS])

        everything = GOOD % ''
        for old, new, _ in BAD.values():
            everything = everything.replace(old, new)
        problems = [p for _, _, p in BAD.values()] + [MISSING_DOCUMENTS]
        ini = keyfile(folder, 'all.ini', everything)
        status, out, err, _ = run(['check', '-c', ini], folder)
        check(status == 2 and '4 problems' in err and all(p in err for p in problems),
              'grammar check lists every problem of a keyfile at once', err)
        status, out, err, _ = run(['run', '-c', ini, '-d', 'out-all'], folder)
        check(status == 2 and all(p in err for p in problems), 'grammar run lists every problem at once', err)

        ini = keyfile(folder, 'good.ini', good)
        status, out, err, seconds = run(['check', '-c', ini, '-d', 'out'], folder)
        stages = ['sql-templates →', 'docs →', 'text-templates short →', 'qa short →', 'rag short →',
                  'judge short →', 'report →']
        check(status == 0 and all(s in out for s in stages) and out.count('would run') == len(stages),
              'grammar check on a good keyfile exits 0 and lists the stages', out + err)
        check('[kb_search] keyword' in out and '[answerer] extractive' in out and 'out/documents.jsonl' in out,
              'the plan names the components and the corpus the run writes', out)
        check(not os.path.exists(os.path.join(folder, 'out')), 'grammar check writes nothing')
        check(seconds < 1.0, 'grammar check takes under a second', '%.2f s' % seconds)
        # --probe: a pipeline calls no service, and its corpus is not written yet: nothing is built.
        status, out, err, _ = run(['check', '-c', ini, '-d', 'out', '--probe'], folder)
        check(status == 0 and 'probe: the pipeline system of [system] calls no service; nothing to probe' in out
              and not os.path.exists(os.path.join(folder, 'out')),
              'grammar check --probe on a pipeline has nothing to probe', out + err)

        status, out, err, _ = run(['run', '-c', ini, '-d', 'out', '-q'], folder)
        check(status == 0, 'grammar run on the good keyfile succeeds', err)
        status, out, err, _ = run(['check', '-c', ini, '-d', 'out'], folder)
        check(status == 0 and out.count('done, would be kept') == len(stages) and 'would run' not in out,
              'after a run, grammar check says every stage is done and would be kept', out + err)
        status, out, err, _ = run(['check', '-c', ini, '-d', 'out', '--per-template', '2'], folder)
        check(status == 0 and 'sql-templates → out/sql-templates.json: done, would be kept' in out and
              'text-templates short → out/short.text-templates.json: would run again' in out,
              'an option of grammar run changes what check says would run', out + err)

    return tap.finish()


if __name__ == '__main__':
    sys.exit(main())
