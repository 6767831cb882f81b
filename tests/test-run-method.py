#!/usr/bin/python3
# test-run-method.py: examples/python/run-method.py, the whole method
# through GObject Introspection, run on the demo into a temporary folder:
# it succeeds, runs every stage, and prints the headline figures of the
# report.json it made and the same report.txt `grammar run` prints.
# Speaks TAP.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import subprocess
import sys
import tempfile

example, demo = sys.argv[1], sys.argv[2]
print('1..4')
with tempfile.TemporaryDirectory(prefix='test-run-method-') as outdir:
    run = subprocess.run([sys.executable, example, demo, outdir], capture_output=True, text=True, timeout=300)
    out = run.stdout
    ok = run.returncode == 0
    print('%s 1 - the example exits 0' % ('ok' if ok else 'not ok'))
    if not ok:
        print('# ' + (run.stderr or out).replace('\n', '\n# '))
    stages = [line.split()[0] for line in out.splitlines() if line and not line.startswith(('styles', 'accuracy'))]
    wanted = ['sql-templates', 'docs', 'text-templates', 'qa', 'rag', 'judge', 'report']
    print('%s 2 - every stage ran' % ('ok' if all(w in stages for w in wanted) else 'not ok'))
    try:
        with open(os.path.join(outdir, 'report.json'), encoding='utf-8') as f:
            report = json.load(f)
        expected = 'accuracy %.4f' % report['accuracy']
        ok = expected in out and ('robustness %.4f' % report['robustness']) in out
    except (OSError, ValueError, KeyError) as e:
        print('# %s' % e)
        ok = False
    print('%s 3 - the headline figures are those of report.json' % ('ok' if ok else 'not ok'))
    ok = 'conclusion: ' in out and report.get('comparison', {}).get('conclusion', '') in out
    print('%s 4 - the comparison of the first two styles is printed' % ('ok' if ok else 'not ok'))
