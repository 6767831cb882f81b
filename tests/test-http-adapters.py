#!/usr/bin/env python3
# test-http-adapters.py: the worked keyfiles of doc/systems.md ("Worked
# keyfiles for common RAG servers"), each run by `grammar rag` against
# tests/rag-stand-in in the shape it is written for (issue 26, part 7).
#
# The keyfiles are taken from the page itself, so that the documentation
# and the test cannot drift apart: a heading renamed or a block lost
# fails here. The stand-in answers from a documents.jsonl this script
# writes (ids with spaces and "#", an e-mail address and a URL in the
# answers, a quoted mixed-case name). TAP output; run by meson
# (tests/meson.build) with the test environment (GRAMMAR_EXE,
# RAG_STAND_IN, G_TEST_SRCDIR).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import tap
from tap import check

EXE = os.environ["GRAMMAR_EXE"]
STAND_IN = os.environ["RAG_STAND_IN"]
SRCDIR = os.environ["G_TEST_SRCDIR"]
PAGE = os.path.join(SRCDIR, "..", "doc", "systems.md")
DOC_ADDRESS = "http://127.0.0.1:8000"

TMP = tempfile.mkdtemp(prefix="grammar-http-adapters-")

# heading of the page (its start) -> the stand-in's --shape
SHAPES = [
    ("An OpenAI-compatible chat endpoint", "openai-chat-citations"),
    ("LangChain", "langchain"),
    ("LlamaIndex", "llamaindex"),
    ("A search endpoint and an answering endpoint", "search-answer"),
]

DOCUMENTS = [
    {"id": "HR-Policy v2.pdf#3", "title": "HR Policy",
     "text": "Employees accrue 2.5 days of paid vacation per month. Leave requests go to "
             "hr-leave@acme-corp.example at least two weeks ahead."},
    {"id": "HR-Policy v2.pdf#4", "title": "HR Policy",
     "text": "Parental leave is 16 weeks at full pay. It applies to every employee after six months of service."},
    {"id": "Travel Policy 2024.docx#1", "title": "Travel",
     "text": "Economy class is booked for flights shorter than six hours. Bookings are made at "
             "https://travel.acme-corp.example/book before the trip."},
    {"id": "Onboarding FAQ.html#2", "title": "Onboarding",
     "text": "New starters collect their badge at the \"Ground Floor\" reception. Margit Köhler runs the "
             "first-day tour at 9:30."},
]

# id, query, the expected answer, the expected first retrieved id
QUERIES = [
    ("q-vacation", "Where do leave requests go, and how far ahead?",
     "Leave requests go to hr-leave@acme-corp.example at least two weeks ahead.", "HR-Policy v2.pdf#3"),
    ("q-booking", "At which address are trip bookings made?",
     "Bookings are made at https://travel.acme-corp.example/book before the trip.", "Travel Policy 2024.docx#1"),
    ("q-tour", "Who runs the first-day tour for new starters?",
     "Margit Köhler runs the first-day tour at 9:30.", "Onboarding FAQ.html#2"),
    ("q-parental", "How long is parental leave?", "Parental leave is 16 weeks at full pay.", "HR-Policy v2.pdf#4"),
]

def path(name):
    return os.path.join(TMP, name)


def write(name, text):
    with open(path(name), "w") as f:
        f.write(text)
    return path(name)


def page_keyfiles():
    """The ```ini block under each #### heading of the worked keyfiles."""
    with open(PAGE) as f:
        text = f.read()
    start = text.find("### Worked keyfiles for common RAG servers")
    if start < 0:
        return {}
    end = text.find("\n### ", start + 1)
    section = text[start:end if end > 0 else len(text)]
    blocks = {}
    for part in re.split(r"\n#### ", section)[1:]:
        heading = part.split("\n", 1)[0]
        found = re.findall(r"```ini\n(.*?)```", part, re.S)
        blocks[heading] = found
    return blocks


class StandIn:
    def __init__(self, shape, *args):
        self.process = subprocess.Popen([STAND_IN, "--shape", shape, "--documents", path("documents.jsonl")]
                                        + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()

    def stats(self):
        import urllib.request
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(self.url + "/_stats") as reply:
            return json.load(reply)

    def stop(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def run_rag(keyfile, output):
    if os.path.exists(path(output)):
        os.unlink(path(output))
    return subprocess.run([EXE, "rag", "-c", keyfile, "-i", "dataset.jsonl", "-o", output], cwd=TMP,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)


def read_results(output):
    with open(path(output)) as f:
        return {r["id"]: r for r in (json.loads(line) for line in f if line.strip())}


def check_answers(name, shape, records):
    problems = []
    for qid, _, answer, first in QUERIES:
        record = records.get(qid)
        if record is None:
            problems.append("%s: missing" % qid)
            continue
        if record.get("response") != answer:
            problems.append("%s: response %r, expected %r" % (qid, record.get("response"), answer))
        retrieved = record.get("retrieved") or []
        if not retrieved or retrieved[0].get("id") != first:
            problems.append("%s: retrieved %r, expected %r first" % (qid, [r.get("id") for r in retrieved], first))
            continue
        by_id = {d["id"]: d["text"] for d in DOCUMENTS}
        if retrieved[0].get("text") != by_id[first]:
            problems.append("%s: the text of %s is %r" % (qid, first, retrieved[0].get("text")))
        scored = shape in ("llamaindex", "search-answer")
        if scored != (retrieved[0].get("score", 0) > 0):
            problems.append("%s: score %r (%s)" % (qid, retrieved[0].get("score"),
                                                   "scored shape" if scored else "no scores in this shape"))
    return check(not problems, "%s: the answers and retrieved ids of every query" % name, "\n".join(problems))


def main():
    with open(path("documents.jsonl"), "w") as f:
        for document in DOCUMENTS:
            f.write(json.dumps(document, ensure_ascii=False) + "\n")
    with open(path("dataset.jsonl"), "w") as f:
        for qid, text, _, _ in QUERIES:
            f.write(json.dumps({"id": qid, "text": text, "group": "g1"}, ensure_ascii=False) + "\n")

    blocks = page_keyfiles()
    keyfiles = {}
    for start, shape in SHAPES:
        matches = [(heading, found) for heading, found in blocks.items() if heading.startswith(start)]
        ok = check(len(matches) == 1 and len(matches[0][1]) == 1,
                   "doc/systems.md has one keyfile under “%s…”" % start,
                   "headings: %r" % list(blocks))
        if ok:
            keyfiles[shape] = matches[0][1][0]
    check(len(blocks) == len(SHAPES), "every worked keyfile of doc/systems.md is tested", repr(list(blocks)))

    # Each keyfile, as the page shows it, against the stand-in in its shape.
    for shape, keyfile in keyfiles.items():
        with StandIn(shape) as server:
            config = write(shape + ".ini", keyfile.replace(DOC_ADDRESS, server.url))
            run = run_rag(config, shape + ".results.jsonl")
            if check(run.returncode == 0, "%s: grammar rag exits 0" % shape, run.stderr):
                check_answers(shape, shape, read_results(shape + ".results.jsonl"))
            stats = server.stats()
            # one probe before the first query (to search-url for the pair), then one request a query and endpoint
            expected = 1 + len(QUERIES) * (2 if shape == "search-answer" else 1)
            check(stats["requests"] == expected, "%s: %d requests, the probe and one per query and endpoint"
                  % (shape, expected),
                  repr(stats))

    # Through faults: every second request a 503 with Retry-After: 0, on
    # both endpoints of the pair; the retries make every query answered.
    if "search-answer" in keyfiles:
        with StandIn("search-answer", "--fail-every", "2") as server:
            # enough tries that a request unlucky enough to meet several even serials in a row still gets through
            config = write("faults.ini", keyfiles["search-answer"].replace(DOC_ADDRESS, server.url)
                           + "max-retries=10\n")
            run = run_rag(config, "faults.results.jsonl")
            if check(run.returncode == 0, "search-answer with a 503 every second request: exits 0", run.stderr):
                check_answers("search-answer with 503s", "search-answer", read_results("faults.results.jsonl"))
            stats = server.stats()
            check(stats["failed"] > 0 and stats["requests"] == 1 + 2 * len(QUERIES) + stats["failed"],
                  "search-answer with 503s: every 503 was tried again", repr(stats))

    # The answer endpoint answers only from the documents it is given: without
    # documents-pointer the pair is a configuration error, not silent "I don't know."
    if "search-answer" in keyfiles:
        broken = "\n".join(line for line in keyfiles["search-answer"].splitlines()
                           if not line.startswith("documents-pointer"))
        config = write("no-documents.ini", broken.replace(DOC_ADDRESS, "http://127.0.0.1:9"))
        run = run_rag(config, "no-documents.results.jsonl")
        check(run.returncode == 2 and "search-url needs documents-pointer" in run.stderr
              and "no-documents.ini: [system]" in run.stderr,
              "search-url without documents-pointer: exit 2, the key and the place named", run.stderr)

    # query-pointer and query-member set together; a pointer that cannot be written.
    if "openai-chat-citations" in keyfiles:
        both = keyfiles["openai-chat-citations"] + "query-member=question\n"
        config = write("both.ini", both.replace(DOC_ADDRESS, "http://127.0.0.1:9"))
        run = run_rag(config, "both.results.jsonl")
        check(run.returncode == 2 and "query-member and query-pointer are both set" in run.stderr,
              "query-member beside query-pointer: exit 2 with the message", run.stderr)
        deep = keyfiles["openai-chat-citations"].replace("query-pointer=/messages/1/content",
                                                         "query-pointer=/messages/2/content")
        config = write("deep.ini", deep.replace(DOC_ADDRESS, "http://127.0.0.1:9"))
        run = run_rag(config, "deep.results.jsonl")
        check(run.returncode == 2 and "query-pointer: “/messages/2/content”: nothing is at “/messages/2”"
              in run.stderr and "extra-body={\"model\": \"acme-rag-gpt\"" in run.stderr,
              "query-pointer past the messages of extra-body: exit 2, the pointer and extra-body shown", run.stderr)

    # A cut JSON reply fails its query (a service that replies in the wrong
    # shape is not asked again), naming the URL; the others are answered.
    if "llamaindex" in keyfiles:
        with StandIn("llamaindex", "--truncate-every", "3") as server:
            config = write("truncated.ini", keyfiles["llamaindex"].replace(DOC_ADDRESS, server.url))
            run = run_rag(config, "truncated.results.jsonl")
            records = read_results("truncated.results.jsonl") if os.path.exists(path("truncated.results.jsonl")) \
                else {}
            failed = [r for r in records.values() if r.get("error")]
            check(run.returncode == 1 and len(records) == len(QUERIES) and len(failed) == 1
                  and failed[0]["error"].startswith(server.url + "/query: the reply is not JSON"),
                  "llamaindex with a cut reply: that query fails with the URL named, the others are answered",
                  run.stderr + repr(failed))

    shutil.rmtree(TMP, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
