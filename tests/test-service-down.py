#!/usr/bin/env python3
# test-service-down.py GRAMMAR: the user's own RAG service through the
# `http` system, when it is down and when it is busy (issue 26, parts 2
# and 3). A stand-in service on 127.0.0.1 (port 0) answers
# {"data": {"answer", "sources": [{"doc_id", "snippet", "relevance"}]}}
# after 50 ms and counts the requests it has in flight at once.
#
# - A closed port: `grammar rag`, `grammar run` and `grammar check --probe`
#   stop within 30 s (in fact at once), exit 1 with a message naming the
#   address (without its password) and the error; the records answered
#   before stay byte for byte.
# - A service that dies after a few answers: `grammar run` stops the rag
#   stage after max-consecutive-failures queries in a row failed, keeps
#   the answers, writes none of the failures; once the service is back,
#   the next run resumes and every id is answered once.
# - One concurrency knob: the service sees 16 queries at once by default
#   and with --concurrency 16 (not the plugin's old 8), [run]
#   concurrency= reaches `grammar run`, and a [system] max-concurrency
#   below it caps it with a warning saying which cap wins.
#
# TAP output.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

import tap
from tap import check

grammar = os.path.abspath(sys.argv[1])

SECRET = 'hunter2-not-shown'
LATENCY = 0.05


class StandIn(http.server.ThreadingHTTPServer):
    """The user's service: POST /v1/ask {"question": ...}. After
    @answer_limit requests it drops every connection and stops listening,
    like a service that died."""
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 512    # 100 connections at once, not socketserver's 5

    def __init__(self, port=0, answer_limit=None, latency=LATENCY):
        super().__init__(('127.0.0.1', port), Handler)
        self.latency = latency
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        self.requests = 0
        self.answer_limit = answer_limit
        self.dead = False
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def port(self):
        return self.server_address[1]

    def die(self):
        if not self.dead:
            self.dead = True
            threading.Thread(target=self.stop, daemon=True).start()

    def stop(self):
        self.shutdown()
        self.server_close()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def do_POST(self):
        server = self.server
        body = json.loads(self.rfile.read(int(self.headers.get('Content-Length', '0'))) or b'{}')
        with server.lock:
            server.requests += 1
            over = server.answer_limit is not None and server.requests > server.answer_limit
            server.in_flight += 1
            server.max_in_flight = max(server.max_in_flight, server.in_flight)
        if over or server.dead:
            server.die()
            with server.lock:
                server.in_flight -= 1
            self.close_connection = True
            return
        time.sleep(server.latency)
        question = body.get('question', '')
        reply = json.dumps({'data': {
            'answer': 'Ask Margit Öberg (margit@example.com) about: ' + question,
            'sources': [{'doc_id': 'HR-Policy v2.pdf#3', 'snippet': 'Remote work is approved by HR.',
                         'relevance': 0.91}]}}).encode()
        with server.lock:
            server.in_flight -= 1
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


def closed_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


SYSTEM = '''[system]
plugin=http
url=http://ops:%s@127.0.0.1:%%d/v1/ask
query-member=question
answer-pointer=/data/answer
retrieved-pointer=/data/sources
retrieved-id-pointer=/doc_id
retrieved-text-pointer=/snippet
retrieved-score-pointer=/relevance
''' % SECRET

COMPANY_SQL = '''
CREATE TABLE "Company" ("CompanyId" INTEGER PRIMARY KEY, "Company Name" TEXT NOT NULL UNIQUE, "City" TEXT);
CREATE TABLE "Person" ("PersonId" INTEGER PRIMARY KEY, "Full Name" TEXT NOT NULL UNIQUE, "Email" TEXT,
  "CompanyId" INTEGER REFERENCES "Company" ("CompanyId"));
INSERT INTO "Company" VALUES (1, 'Acme Rockets', 'Lyon'), (2, 'Blue Fern', 'Porto'), (3, 'Cobalt & Sons', 'Oslo');
INSERT INTO "Person" VALUES (1, 'Ana Lima', 'ana.lima@acme.example', 1), (2, 'Bo Chen', 'bo@bluefern.example', 2),
  (3, 'Cy Diaz', 'cy@cobalt.example', 3), (4, 'Dee Eko', 'dee@acme.example', 1);
'''

RUN = '''[database]
plugin=sqlite
script=company.sql

[run]
styles=short
%s
'''


def run(args, cwd, timeout=120):
    started = time.monotonic()
    done = subprocess.run([grammar] + args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def write(folder, name, text):
    with open(os.path.join(folder, name), 'w') as f:
        f.write(text)
    return name


def read(folder, name):
    with open(os.path.join(folder, name)) as f:
        return f.read()


def dataset(n):
    return ''.join(json.dumps({'id': 'HR-Policy v2.pdf#%d' % i,
                               'text': 'Who approves "Remote Work" for margit@example.com? (%d)' % i}) + '\n'
                   for i in range(n))


def answered_line(i):
    return json.dumps({'id': 'HR-Policy v2.pdf#%d' % i, 'text': 'earlier', 'response': 'an earlier answer',
                       'retrieved': [], 'latency_ms': 12}) + '\n'


def says_down(err, port):
    return ('http://ops@127.0.0.1:%d/v1/ask' % port in err and 'Connection refused' in err and SECRET not in err)


def test_closed_port(folder):
    port = closed_port()
    write(folder, 'down.ini', SYSTEM % port)
    write(folder, 'dataset.jsonl', dataset(40))
    earlier = ''.join(answered_line(i) for i in range(3))
    write(folder, 'results.jsonl', earlier)

    status, out, err, seconds = run(['rag', '-c', 'down.ini', '-i', 'dataset.jsonl', '-o', 'results.jsonl'], folder)
    check(status == 1, 'grammar rag against a closed port exits 1', 'status %d: %s' % (status, err))
    check(seconds < 30, 'grammar rag against a closed port ends in under 30 s', '%.2f s' % seconds)
    check(says_down(err, port) and 'no query was asked' in err,
          'the message names the address, without its password, and the error', err)
    check(read(folder, 'results.jsonl') == earlier, 'the records answered before stay as they were')


def stage_max_in_flight(folder, name, system, args, n=64):
    # 200 ms: the requests of a wave overlap at the service even on a busy machine
    service = StandIn(latency=0.2)
    try:
        write(folder, name + '.ini', (SYSTEM % service.port) + system)
        status, out, err, seconds = run(['rag', '-c', name + '.ini', '-i', 'dataset%d.jsonl' % n, '-o',
                                         name + '.results.jsonl'] + args, folder)
        return status, err, service.max_in_flight, n / seconds
    finally:
        service.stop()


def test_concurrency(folder):
    write(folder, 'dataset64.jsonl', dataset(64))
    status, err, seen, rate = stage_max_in_flight(folder, 'default', '', [])
    check(status == 0 and seen == 16, 'by default the service sees 16 queries at once',
          'status %d, %d at once: %s' % (status, seen, err))
    status, err, seen, rate = stage_max_in_flight(folder, 'thirty-two', '', ['--concurrency', '32'])
    check(status == 0 and seen == 32, '--concurrency 32 reaches the service (no cap of the plugin)',
          'status %d, %d at once: %s' % (status, seen, err))
    status, err, seen, rate = stage_max_in_flight(folder, 'capped', 'max-concurrency=8\n', [])
    check(status == 0 and seen == 8, '[system] max-concurrency=8 caps the stage at 8', '%d at once' % seen)
    check('system: max-concurrency=8 caps concurrency 16' in err and err.count('caps concurrency') == 1,
          'a warning says once which cap wins', err)
    status, err, seen, rate = stage_max_in_flight(folder, 'in-run', '\n[run]\nconcurrency=6\n', [])
    check(status == 0 and seen == 6, '[run] concurrency=6 reaches grammar rag', '%d at once' % seen)
    write(folder, 'zero.ini', (SYSTEM % closed_port()) + '\n[run]\nconcurrency=0\n')
    status, out, err, seconds = run(['rag', '-c', 'zero.ini', '-i', 'dataset64.jsonl', '-o', 'zero.jsonl'], folder)
    check(status == 2 and 'zero.ini: [run] concurrency: “0” must be a whole number, at least 1' in err and
          not os.path.exists(os.path.join(folder, 'zero.jsonl')),
          '[run] concurrency=0 is an input error naming the key, exit 2', 'status %d: %s' % (status, err))
    # Unset, a plugin's max-concurrency still bounds what is in flight (64), and says so.
    write(folder, 'dataset160.jsonl', dataset(160))
    status, err, seen, rate = stage_max_in_flight(folder, 'hundred', '', ['--concurrency', '100'], n=160)
    check(status == 0 and seen == 64 and 'system: at most 64 requests are in flight while its max-concurrency is '
          'unset; set max-concurrency=100 for concurrency 100' in err,
          '--concurrency 100 with max-concurrency unset: 64 at once, and told', '%d at once: %s' % (seen, err))
    status, err, seen, rate = stage_max_in_flight(folder, 'hundred-set', 'max-concurrency=100\n',
                                                  ['--concurrency', '100'], n=160)
    # (the threads of this stand-in do not always take 100 connections at once)
    check(status == 0 and 64 < seen <= 100 and 'caps' not in err and 'at most' not in err,
          '--concurrency 100 with max-concurrency=100: more than 64 at once', '%d at once: %s' % (seen, err))


def test_run_dies(folder):
    write(folder, 'company.sql', COMPANY_SQL)
    service = StandIn(answer_limit=5)
    port = service.port
    try:
        write(folder, 'run.ini', (RUN % 'concurrency=4') + '\n' + (SYSTEM % port))
        status, out, err, seconds = run(['run', '-c', 'run.ini', '-d', 'out'], folder)
    finally:
        service.stop()
    results = [json.loads(line) for line in read(folder, 'out/short.results.jsonl').splitlines()]
    check(status == 1, 'grammar run against a service that dies exits 1', 'status %d: %s' % (status, err))
    check(seconds < 30, 'grammar run against a service that dies ends in under 30 s', '%.2f s' % seconds)
    check('records in a row failed' in err and 'max-consecutive-failures=10' in err and
          'http://ops@127.0.0.1:%d/v1/ask' % port in err and SECRET not in err,
          'the message names the address and the last error', err)
    check(len(results) == 4 and all(r.get('error') is None and r['response'].startswith('Ask Margit')
                                    for r in results),
          'the 4 answers before it died stay, and no failure is written', str(results))

    # Back up on the same port: the next run asks what is left, once each.
    service = StandIn(port=port)
    try:
        status, out, err, seconds = run(['run', '-c', 'run.ini', '-d', 'out'], folder)
    finally:
        service.stop()
    results = [json.loads(line) for line in read(folder, 'out/short.results.jsonl').splitlines()]
    ids = [r['id'] for r in results]
    total = len(read(folder, 'out/short.dataset.jsonl').splitlines())
    check(status == 0 and '(resumed)' in err, 'the next run resumes once the service is back',
          'status %d: %s' % (status, err))
    check(len(ids) == total and len(set(ids)) == total and all(r.get('error') is None for r in results),
          'every id answered once', '%d lines, %d ids, %d records' % (len(ids), len(set(ids)), total))

    port = closed_port()
    write(folder, 'run-down.ini', (RUN % '') + '\n' + (SYSTEM % port))
    status, out, err, seconds = run(['run', '-c', 'run-down.ini', '-d', 'out-down'], folder)
    check(status == 1 and seconds < 30 and says_down(err, port),
          'grammar run against a closed port stops at the rag stage at once, exit 1',
          'status %d (%.2f s): %s' % (status, seconds, err))

    status, out, err, seconds = run(['check', '-c', 'run-down.ini', '--probe', '-d', 'checked'], folder)
    check(status == 1 and says_down(err, port) and seconds < 30 and 'no problem found' not in out,
          'grammar check --probe tells the service is down, exit 1', 'status %d (%.2f s): %s' % (status, seconds, err))


def test_run_concurrency(folder):
    service = StandIn(latency=0.2)
    try:
        write(folder, 'run-c.ini', (RUN % 'concurrency=12') + '\n' + (SYSTEM % service.port))
        status, out, err, seconds = run(['run', '-c', 'run-c.ini', '-d', 'out-c'], folder)
        seen = service.max_in_flight
    finally:
        service.stop()
    check(status == 0 and seen == 12, '[run] concurrency=12 reaches the service in grammar run',
          'status %d, %d at once: %s' % (status, seen, err))
    service = StandIn(latency=0.2)
    try:
        write(folder, 'run-c.ini', (RUN % 'concurrency=12') + '\n' + (SYSTEM % service.port))
        status, out, err, seconds = run(['check', '-c', 'run-c.ini', '-d', 'out-c', '--probe'], folder)
        asked = service.requests
    finally:
        service.stop()
    check(status == 0 and 'probe: the system of [system] answered' in out and asked == 1,
          'grammar check --probe asks a service that is up one query', 'status %d, %d asked: %s' % (status, asked, err))
    service = StandIn(latency=0.2)
    try:
        write(folder, 'run-c.ini', (RUN % 'concurrency=12') + '\n' + (SYSTEM % service.port))
        status, out, err, seconds = run(['run', '-c', 'run-c.ini', '-d', 'out-c2', '--concurrency', '3'], folder)
        seen = service.max_in_flight
    finally:
        service.stop()
    check(status == 0 and seen == 3, 'grammar run --concurrency 3 wins over [run]', '%d at once: %s' % (seen, err))
    # Two styles, two rag stages: the cap is told once.
    service = StandIn(latency=0.2)
    try:
        write(folder, 'run-two.ini', (RUN % 'concurrency=12').replace('styles=short', 'styles=short;long') + '\n' +
              (SYSTEM % service.port) + 'max-concurrency=4\n')
        status, out, err, seconds = run(['run', '-c', 'run-two.ini', '-d', 'out-two'], folder)
        seen = service.max_in_flight
    finally:
        service.stop()
    check(status == 0 and seen == 4 and
          err.count('grammar rag: warning: system: max-concurrency=4 caps concurrency 12') == 1,
          'grammar run with two styles: capped at 4, and told once', '%d at once: %s' % (seen, err))


def main():
    with tempfile.TemporaryDirectory(prefix='grammar-service-down-') as folder:
        for test in (test_closed_port, test_concurrency, test_run_dies, test_run_concurrency):
            try:
                test(folder)
            except Exception as e:  # a failure of the test itself is a failed check
                check(False, test.__name__, repr(e))
    return tap.finish()


if __name__ == '__main__':
    sys.exit(main())
