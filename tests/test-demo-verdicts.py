#!/usr/bin/python3
# test-demo-verdicts.py: runs the built-in demo (examples/demo.ini) through
# `grammar run` into a temporary folder, as tools/demo does, and fails on
# every judged record that is judged incorrect although its response holds
# every value of the true answer verbatim and neither refuses nor lists
# candidates. Such a verdict is a matcher bug (issue 24: an email judged
# missing because the question's name was masked inside it).
#
# "Verbatim" does not use the matcher's tokenizer: a value is in the
# response when its text, case folded, occurs there with no letter or
# digit right before or after it ("us" is not in "business", the email
# "a.b@c.example" is in "address is a.b@c.example."). The cells are read
# as the JSON writes them (154.80 stays "154.80"), booleans as true/false.
#
# Speaks TAP.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import re
import subprocess
import sys
import tempfile

# A refusal says the answer is not known or not given: an apology, "I don't
# know", "could not find / determine…", "no information", "not mentioned /
# provided…", "does not mention…". The extractive reader of the demo refuses
# with "I don't know."; language models with the other phrasings.
REFUSAL = re.compile(
    r"\b(sorry|apologi[sz]e|unfortunately|as an ai|i (?:do not|don't|dont) know|"
    r"(?:can ?not|can't|cant|could not|couldn't|couldnt|unable to|not able to) "
    r"(?:find|determine|identify|locate|provide|answer|say|tell|access|confirm)|"
    r"no (?:information|mention|data|details|record)|"
    r"not (?:explicitly )?(?:mentioned|specified|provided|stated|given|available|known|found|listed)|"
    r"(?:does not|doesn't|do not|don't) (?:mention|specify|contain|say|state|include|provide))\b",
    re.IGNORECASE)

# A list of candidates names several possible answers instead of one: two
# or more lines that start as the items of a list ("- ", "* ", "• ", "1. ",
# "2) "), or a choice put in words ("either … or", "one of the following",
# "could be", "might be", "may be", "possibly", "candidates"). Such a
# response holding the values is not a plain answer, whatever the verdict.
LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+\S", re.MULTILINE)
CHOICE = re.compile(
    r"\b(either\b.*\bor|one of the following|one of these|could be|might be|may be|possibly|candidates?)\b",
    re.IGNORECASE | re.DOTALL)


def is_refusal(response):
    return REFUSAL.search(response) is not None


def lists_candidates(response):
    return len(LIST_ITEM.findall(response)) >= 2 or CHOICE.search(response) is not None


def cell_text(cell):
    if isinstance(cell, bool):
        return 'true' if cell else 'false'
    return str(cell)


def values_of(answer):
    return [cell_text(cell) for row in answer or [] for cell in row if cell is not None]


def verbatim(value, response):
    """Whether @value occurs in @response, case folded, between non-alphanumeric boundaries."""
    sought = value.strip().casefold()
    text = response.casefold()
    if not sought:
        return False
    at = text.find(sought)
    while at >= 0:
        end = at + len(sought)
        before = text[at - 1] if at > 0 else ' '
        after = text[end] if end < len(text) else ' '
        if not before.isalnum() and not after.isalnum():
            return True
        at = text.find(sought, at + 1)
    return False


def wrongly_incorrect(record):
    """Whether @record is judged incorrect although it holds every value verbatim."""
    response = record.get('response')
    values = values_of(record.get('answer'))
    if record.get('verdict') != 'incorrect' or not isinstance(response, str) or not values:
        return False
    if is_refusal(response) or lists_candidates(response):
        return False
    return all(verbatim(value, response) for value in values)


def self_check():
    """The rules themselves, on a few hand-made cases."""
    assert verbatim('margit.halvorsen@kestrelridge.example', 'is margit.halvorsen@kestrelridge.example.')
    assert not verbatim('US', 'a business')
    assert verbatim('154.80', 'costs 154.80 euros')
    assert not verbatim('154.8', 'costs 154.80 euros')
    assert is_refusal("I don't know.")
    assert is_refusal('The documents do not mention the email of Margit Halvorsen.')
    assert not is_refusal('Their email address is margit.halvorsen@kestrelridge.example.')
    assert lists_candidates('It could be Oslo or Bergen.')
    assert lists_candidates('Candidates:\n- Oslo\n- Bergen\n')
    assert not lists_candidates('Tobias Wren directs it and Rosalind Pike manages it.')


def main():
    grammar = os.environ.get('GRAMMAR_EXE', 'grammar')
    demo = os.path.abspath(sys.argv[1])
    print('1..4')
    try:
        self_check()
        print('ok 1 - the verbatim, refusal and candidate rules')
    except AssertionError as e:
        print('not ok 1 - the verbatim, refusal and candidate rules # %r' % e)

    with tempfile.TemporaryDirectory(prefix='test-demo-verdicts-') as outdir:
        run = subprocess.run([grammar, 'run', '-c', demo, '-d', outdir, '--force', '-q'],
                             capture_output=True, text=True, timeout=600)
        ok = run.returncode == 0
        print('%s 2 - grammar run on the demo exits 0' % ('ok' if ok else 'not ok'))
        if not ok:
            print('# ' + (run.stderr or run.stdout).replace('\n', '\n# '))

        judged = []
        for name in sorted(os.listdir(outdir)):
            if name.endswith('.judged.jsonl'):
                with open(os.path.join(outdir, name), encoding='utf-8') as f:
                    judged += [json.loads(line, parse_float=str) for line in f if line.strip()]
        measured = [r for r in judged if r.get('verdict') in ('correct', 'incorrect')]
        print('%s 3 - the demo has judged records (%d, %d measured)'
              % ('ok' if measured else 'not ok', len(judged), len(measured)))

        wrong = [r for r in measured if wrongly_incorrect(r)]
        print('%s 4 - no record holding every value verbatim is judged incorrect (%d of %d)'
              % ('ok' if not wrong else 'not ok', len(wrong), len(judged)))
        for record in wrong:
            print('# %s: %s | answer %s | %s | %s'
                  % (record.get('id'), record.get('text'), json.dumps(record.get('answer'), ensure_ascii=False),
                     record.get('judge', {}).get('reason'), record.get('response')))


main()
