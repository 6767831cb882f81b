#!/usr/bin/env python3
"""Makes the seed corpus of each harness (corpus/NAME/) from the string
fixtures of the GTest programs in tests/: every C string literal (adjacent
literals joined, escapes decoded) goes to the harnesses whose input it looks
like. Run it again after adding fixtures; each seed is named by the hash of
its content, so running it twice adds nothing.

    tests/fuzz/make-corpus.py
"""
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# A run of adjacent literals: "a" "b" (across lines)
RUN = re.compile(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+')
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "0": "\0"}


def decode(body):
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", body[i + 2:])
                out.append(chr(int(m.group(0), 16)))
                i += 2 + len(m.group(0))
                continue
            if n in "01234567" and re.match(r"[0-7]{3}", body[i + 1:]):
                out.append(chr(int(body[i + 1:i + 4], 8)))
                i += 4
                continue
            out.append(ESCAPES.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def literals(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for run in RUN.finditer(text):
        yield "".join(decode(m.group(1)) for m in LITERAL.finditer(run.group(0)))


def is_json(text, kinds):
    try:
        return isinstance(json.loads(text), kinds)
    except ValueError:
        return False


def jsonl_lines(text):
    lines = [l for l in text.split("\n") if l.strip()]
    return lines and all(is_json(l, dict) for l in lines)


SQL = re.compile(r"^\s*(SELECT|WITH|VALUES)\b", re.I)


def classify(text, source):
    """The harnesses a fixture seeds."""
    names = []
    if re.search(r"^\[[^\]\n]+\]\s*$", text, re.M) and "=" in text:
        names.append("config")
    if jsonl_lines(text) and '"id"' in text:
        names.append("jsonl")
    if is_json(text, (dict, list)) and "template" in text:
        names += ["template-set", "py-import"]
    if source in ("test-import.c",) and is_json(text, (dict, list)):
        names.append("py-import")
    if SQL.match(text):
        names += ["sql-template", "sql-rewrite"]
    if source == "test-systems.c" and text.startswith("/") and len(text) < 80:
        names.append("json-pointer")
    if source == "test-systems.c" and is_json(text, dict):
        names += ["http-system", "json-pointer-doc"]
    if source in ("test-llm-openai.c", "test-fake-openai.c", "test-dense.c") and is_json(text, dict):
        names.append("openai")
    if source == "test-matchers.c" and 0 < len(text) < 300 and "\n" not in text:
        names.append("matcher-text")
    return names


def main():
    seeds = {}
    for source in sorted(os.listdir(TESTS)):
        if not source.endswith(".c"):
            continue
        for text in literals(os.path.join(TESTS, source)):
            for name in classify(text, source):
                seeds.setdefault(name, []).append(text)

    # Harnesses whose input is made of several fixtures
    pointers = seeds.pop("json-pointer", [])
    docs = seeds.pop("json-pointer-doc", [])
    seeds["json-pointer"] = pointers + [p + "\n" + d for p in pointers[:20] for d in docs[:3]]
    texts = seeds.pop("matcher-text", [])
    seeds["matcher"] = ["Which value?\n" + a + "\n" + b for a, b in zip(texts, texts[1:])]
    # openai: the first byte is the status and the number of choices
    seeds["openai"] = [chr(k) + body for body in seeds.get("openai", []) for k in (0, 1, 4)]

    for name, texts in sorted(seeds.items()):
        folder = os.path.join(HERE, "corpus", name)
        os.makedirs(folder, exist_ok=True)
        for text in texts:
            data = text.encode("utf-8", "surrogateescape")
            path = os.path.join(folder, hashlib.sha1(data).hexdigest())
            with open(path, "wb") as f:
                f.write(data)
        print(f"{name}: {len(os.listdir(folder))} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
