#!/usr/bin/env python3
"""Algorithm 1 of the GRAMMAR paper, one query per combination.

    baseline.py DB TEXT_TEMPLATES_JSON OUT.jsonl [--budget N] [--expected-pairs P1,P2,...]

This is how the reference implementation generates data: for each SQL
template, the distinct values of each placeholder column
(SELECT DISTINCT), their Cartesian product, and for every combination
the template run once (here with bound parameters, so that SQLite's
statement cache helps it; the reference pastes the values into the SQL
text), skipping empty answers. Each answer becomes records in the same
JSON Lines shape `grammar qa` writes.

With --budget N, a template with more than N combinations runs only its
first N combinations, and its time is extrapolated linearly to all of
them; its number of QA pairs is then taken from --expected-pairs (the
number of non-empty combinations, counted by the caller outside the
timing). A JSON summary goes to stdout.
"""
import argparse
import hashlib
import itertools
import json
import re
import sqlite3
import sys
import time

PLACEHOLDER = re.compile(r"'?\[([^\[\].]+)\.([^\[\].]+)\]'?")


def placeholders(sql):
    seen = []
    for match in PLACEHOLDER.finditer(sql):
        key = (match.group(1), match.group(2))
        if key not in seen:
            seen.append(key)
    return seen


def bind(sql, keys):
    """The template with ?N for each placeholder (and its quotes)."""
    return PLACEHOLDER.sub(lambda m: "?%d" % (keys.index((m.group(1), m.group(2))) + 1), sql)


def literal(value):
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def fill_sql(sql, keys, values):
    return PLACEHOLDER.sub(lambda m: literal(values[keys.index((m.group(1), m.group(2)))]), sql)


def fill_text(text, keys, values):
    for (table, column), value in zip(keys, values):
        text = text.replace("[%s.%s]" % (table, column), value if isinstance(value, str) else repr(value))
    return text


def run_template(db, template, texts, out, budget):
    sql = template["sql"]
    keys = placeholders(sql)
    bound = bind(sql, keys)
    started = time.perf_counter()
    domains = []
    for table, column in keys:
        rows = db.execute('SELECT DISTINCT "%s" FROM "%s"' % (column, table)).fetchall()
        domains.append([row[0] for row in rows if row[0] is not None])
    total = 1
    for domain in domains:
        total *= len(domain)
    limit = total if not budget or total <= budget else budget

    pairs = 0
    done = 0
    for values in itertools.islice(itertools.product(*domains), limit):
        done += 1
        answer = db.execute(bound, values).fetchall()
        if not answer:
            continue
        bindings = {"%s.%s" % key: value for key, value in zip(keys, values)}
        bindings_json = json.dumps(bindings, ensure_ascii=False, separators=(",", ":"))
        group = "g" + hashlib.md5((template["id"] + "\n" + bindings_json).encode()).hexdigest()[:12]
        filled = fill_sql(sql, keys, values)
        for index, text in enumerate(texts):
            out.write(json.dumps({
                "id": "%s-%s-%d" % (group, text["style"], index), "group": group,
                "template": template["id"], "style": text["style"],
                "text": fill_text(text["text"], keys, values), "sql": filled,
                "bindings": bindings, "answer": [list(row) for row in answer], "doc_ids": [],
            }, ensure_ascii=False, separators=(",", ":")) + "\n")
            pairs += 1
    seconds = time.perf_counter() - started
    return {"template": template["id"], "combinations": total, "run": done, "pairs": pairs,
            "seconds": seconds, "extrapolated": done < total}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("templates")
    parser.add_argument("out")
    parser.add_argument("--budget", type=int, default=0)
    parser.add_argument("--expected-pairs", default="")
    args = parser.parse_args()

    spec = json.load(open(args.templates))
    expected = [int(x) for x in args.expected_pairs.split(",") if x]
    db = sqlite3.connect("file:%s?mode=ro" % args.db, uri=True)
    results = []
    with open(args.out, "w", encoding="utf-8") as out:
        for i, template in enumerate(spec["sql_templates"]):
            texts = [t for t in spec["text_templates"] if t["template"] == template["id"]]
            result = run_template(db, template, texts, out, args.budget)
            if result["extrapolated"]:
                # time for every combination, at the measured rate
                result["seconds"] *= result["combinations"] / result["run"]
                result["pairs"] = expected[i] * len(texts) if i < len(expected) else result["pairs"]
            results.append(result)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
