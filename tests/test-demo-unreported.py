#!/usr/bin/python3
# test-demo-unreported.py: the built-in demo (examples/demo.ini) answered by
# the user's own service through the `http` system, a service that reports
# no documents (issue 26, part 1).
#
# The demo runs once with its pipeline; a stand-in service on 127.0.0.1
# then serves the pipeline's own answers, shaped as many services reply,
# {"data": {"answer": "…", "sources": []}}, and `grammar run` asks it:
#
#   - with retrieved-pointer= (empty), the documented way for a service
#     that does not report its documents, and with
#     retrieved-pointer=/data/sources and the default reports-documents:
#     the same verdicts, accuracy and robustness as the pipeline, while
#     retrieval is unmeasured (no `retrieved` in results.jsonl, retrieval
#     accuracy null, no retrieval metric measured), no gap group or error
#     is blamed on retrieval (all `unknown`), the comparison names no
#     module, and a warning names the keys, on stderr and in the report;
#   - with reports-documents=true: the empty lists are misses, measured,
#     every gap group blamed on retrieval, and no warning.
#
# Speaks TAP.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import tap
from tap import check

# The keys of [system] http for each run against the stand-in: (what is
# checked, keys, whether retrieval is unmeasured)
CASES = [
    ('retrieved-pointer= (empty)', ['retrieved-pointer='], True),
    ('sources: [] without reports-documents', ['retrieved-pointer=/data/sources'], True),
    ('sources: [] with reports-documents=true',
     ['retrieved-pointer=/data/sources', 'reports-documents=true'], False),
]


def sections(text):
    """The keyfile @text as [(name, lines)], comments and all, in order."""
    out = [('', [])]
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith('[') and stripped.endswith(']'):
            out.append((stripped[1:-1], []))
        out[-1][1].append(line)
    return out


def http_keyfile(demo, url, keys):
    """The demo's keyfile with its [system] the http system at @url, set by
    @keys, and without the pipeline's own sections and the samples."""
    root = os.path.dirname(demo)
    lines = []
    for name, body in sections(open(demo, encoding='utf-8').read()):
        if name in ('retriever', 'reader'):
            continue
        if name == 'system':
            body = ['[system]', 'plugin=http', 'url=' + url, 'answer-pointer=/data/answer'] + keys + ['']
        for line in body:
            if line.startswith('script='):
                line = 'script=' + os.path.join(root, line[len('script='):])
            elif line.startswith('metrics='):
                line = 'metrics=faithfulness-lexical;keypoints'   # selfcheck needs samples
            lines.append(line)
    return '\n'.join(lines) + '\n'


def serve(answers):
    """A stand-in service answering each query with its demo answer and no sources."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
            reply = json.dumps({'data': {'answer': answers.get(body['query'], ''), 'sources': []}}).encode()
            self.send_response(200)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def read_jsonl(path):
    with open(path, encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def unreported_problems(outdir, stderr, baseline):
    """What is wrong with a run whose system reported no documents."""
    problems = []
    report = json.load(open(os.path.join(outdir, 'report.json'), encoding='utf-8'))
    for style in ('short', 'long'):
        if any('retrieved' in r for r in read_jsonl(os.path.join(outdir, style + '.results.jsonl'))):
            problems.append('%s.results.jsonl has a retrieved member' % style)
    for name in ('accuracy', 'robustness', 'measured', 'correct'):
        if report[name] != baseline[name]:
            problems.append('%s %r, the pipeline had %r' % (name, report[name], baseline[name]))
    if report['retrieval']['measured'] != 0 or report['retrieval']['accuracy'] is not None:
        problems.append('retrieval %r' % report['retrieval'])
    if report['retrieval_metrics']['measured'] != 0:
        problems.append('%d records measured for hit rate' % report['retrieval_metrics']['measured'])
    gap = report.get('attribution', {}).get('gap_groups', {})
    if gap.get('retrieval') != 0 or gap.get('unknown') != report['groups']['gap'] or report['groups']['gap'] == 0:
        problems.append('gap group attribution %r of %d gap groups' % (gap, report['groups']['gap']))
    blamed = [e.get('group') or e.get('id') for e in report['gap_groups'] + report['debug']
              if e['attribution'] != 'unknown']
    if blamed:
        problems.append('attributed to a module: %s' % ', '.join(blamed[:5]))
    if report['comparison']['module'] in ('retrieval', 'language-model', 'both'):
        problems.append('the comparison blames %s' % report['comparison']['module'])
    warnings = report.get('warnings', [])
    if not warnings or 'reports-documents' not in warnings[0] or 'retrieved-pointer' not in warnings[0]:
        problems.append('report warnings %r' % warnings)
    if 'warning: retrieval is unmeasured' not in stderr:
        problems.append('no warning on stderr: %s' % stderr)
    text = open(os.path.join(outdir, 'report.txt'), encoding='utf-8').read()
    if 'Retrieval is unmeasured' not in text or 'Warning: retrieval is unmeasured' not in text:
        problems.append('report.txt does not say retrieval is unmeasured')
    return problems


def reported_problems(outdir, stderr):
    """What is wrong with a run whose system reports its (empty) documents."""
    problems = []
    report = json.load(open(os.path.join(outdir, 'report.json'), encoding='utf-8'))
    results = read_jsonl(os.path.join(outdir, 'short.results.jsonl'))
    if any(r.get('retrieved') != [] for r in results if r.get('response') is not None):
        problems.append('an answered record without "retrieved": []')
    measures = report['retrieval_metrics']
    if measures['measured'] == 0 or measures['overall']['hit@retrieved']['value'] != 0:
        problems.append('retrieval metrics %r' % {k: measures[k] for k in ('measured', 'no_retrieval')})
    if any(g['attribution'] != 'retrieval' for g in report['gap_groups']):
        problems.append('a gap group not blamed on retrieval')
    if 'warnings' in report or 'attribution' in report or 'retrieval is unmeasured' in stderr:
        problems.append('warned: %r %s' % (report.get('warnings'), stderr))
    return problems


def main():
    grammar = os.environ.get('GRAMMAR_EXE', 'grammar')
    demo = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix='test-demo-unreported-') as tmp:
        pipeline = os.path.join(tmp, 'pipeline')
        run = subprocess.run([grammar, 'run', '-c', demo, '-d', pipeline, '-q'],
                             capture_output=True, text=True, timeout=600)
        if not check(run.returncode == 0, 'grammar run on the demo exits 0', run.stderr):
            for what, _, _ in CASES:
                tap.skip('no demo answers', what)
            return tap.finish()
        baseline = json.load(open(os.path.join(pipeline, 'report.json'), encoding='utf-8'))
        answers = {}
        for style in ('short', 'long'):
            for record in read_jsonl(os.path.join(pipeline, style + '.results.jsonl')):
                answers[record['text']] = record.get('response') or ''

        server = serve(answers)
        try:
            url = 'http://127.0.0.1:%d/v1/ask' % server.server_address[1]
            for n, (what, keys, unreported) in enumerate(CASES, start=2):
                name = 'case%d' % n
                ini = os.path.join(tmp, name + '.ini')
                with open(ini, 'w', encoding='utf-8') as f:
                    f.write(http_keyfile(demo, url, keys))
                outdir = os.path.join(tmp, name)
                run = subprocess.run([grammar, 'run', '-c', ini, '-d', outdir, '-q'],
                                     capture_output=True, text=True, timeout=600)
                if run.returncode != 0:
                    check(False, what, ['exit %d' % run.returncode, run.stderr])
                    continue
                problems = (unreported_problems(outdir, run.stderr, baseline) if unreported
                            else reported_problems(outdir, run.stderr))
                check(not problems,
                      what + (': retrieval unmeasured, nothing blamed on it, a warning' if unreported
                              else ': empty lists are measured misses'), problems)
        finally:
            server.shutdown()
            server.server_close()
    return tap.finish()


sys.exit(main())
