#!/usr/bin/env python3
# test-exports.py: the symbols libgrammar exports are exactly the public
# API its installed headers declare with a GRAMMAR_AVAILABLE_IN_ or
# GRAMMAR_DEPRECATED macro. Speaks TAP.
#
# Usage:
#   test-exports.py LIBRARY HEADER...      check (the test)
#   test-exports.py --annotate HEADER...   put GRAMMAR_AVAILABLE_IN_ALL on
#                                          every public declaration that has
#                                          no macro yet, and include
#                                          grammar-visibility.h where needed
#
# A declaration is a top-level function prototype whose name starts with
# grammar_, or a G_DECLARE_*_TYPE line (which declares the type's
# get_type function). The check fails on
#   - a public declaration without a macro (it would not be exported),
#   - a declared function that the library does not export (missing),
#   - an exported grammar_ symbol that no public header declares (extra).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import subprocess
import sys

import tap

MACRO = re.compile(r'GRAMMAR_(AVAILABLE_IN_\w+|DEPRECATED(_FOR)?)$')
TOKEN = re.compile(r'[A-Za-z_]\w*|\S')


def blank(text):
    """The text with comments, string literals and preprocessor lines
    replaced by spaces (newlines kept), so that offsets stay the same."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            j += 1
        elif c == '#' and line_start:
            j = i
            while j < n and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
        else:
            if c == '\n':
                line_start = True
            elif not c.isspace():
                line_start = False
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != '\n':
                out[k] = ' '
        i = j
    return ''.join(out)


def declarations(text):
    """The public declarations of a header: (name, offset, annotated),
    offset being where the declaration (or its macro) starts."""
    tokens = [(m.group(0), m.start()) for m in TOKEN.finditer(blank(text))]
    found = []
    i = 0
    statement = []  # the tokens of the current top-level statement
    depth = 0
    while i < len(tokens):
        tok, pos = tokens[i]
        if depth == 0 and not statement and tok in ('G_BEGIN_DECLS', 'G_END_DECLS'):
            i += 1
            continue
        # A macro call with no semicolon: G_DECLARE_*, G_DEFINE_AUTOPTR_*
        if depth == 0 and re.match(r'G_(DECLARE|DEFINE)_\w+$', tok) and \
                all(MACRO.match(t) or t in '()' or re.match(r'\w+$', t) for t, _ in statement):
            j, parens, args = i + 1, 0, []
            while j < len(tokens):
                t = tokens[j][0]
                if t == '(':
                    parens += 1
                elif t == ')':
                    parens -= 1
                    if parens == 0:
                        break
                elif parens == 1 and t != ',':
                    args.append(t)
                j += 1
            if tok.startswith('G_DECLARE_') and len(args) >= 2:
                annotated = any(MACRO.match(t) for t, _ in statement)
                start = statement[0][1] if statement else pos
                found.append((args[1] + '_get_type', start, annotated))
            statement = []
            i = j + 1
            continue
        statement.append((tok, pos))
        if tok == '{':
            depth += 1
        elif tok == '}':
            depth -= 1
        elif tok == ';' and depth == 0:
            declaration(statement, found)
            statement = []
        i += 1
    return found


def declaration(statement, found):
    words = [t for t, _ in statement]
    if not words or words[0] in ('typedef', 'struct', 'enum', 'union', 'static'):
        return
    if '(' not in words:
        return
    k = words.index('(')
    # skip the DEPRECATED_FOR (name) of the macro itself
    if k > 0 and words[k - 1] == 'GRAMMAR_DEPRECATED_FOR':
        rest = words[k:].index(')') + k + 1
        if '(' not in words[rest:]:
            return
        k = words.index('(', rest)
    name = words[k - 1] if k > 0 else ''
    if not name.startswith('grammar_'):
        return
    annotated = any(MACRO.match(w) for w in words[:k - 1])
    found.append((name, statement[0][1], annotated))


def annotate(paths):
    changed = 0
    for path in paths:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        missing = [pos for _, pos, annotated in declarations(text) if not annotated]
        if not missing:
            continue
        for pos in sorted(missing, reverse=True):
            line_start = text.rfind('\n', 0, pos) + 1
            indent = text[line_start:pos]
            if indent.strip():
                sys.exit('%s: a declaration does not start its line at offset %d' % (path, pos))
            text = text[:line_start] + indent + 'GRAMMAR_AVAILABLE_IN_ALL\n' + text[line_start:]
        if os.path.basename(path) != 'grammar-visibility.h' and \
                '#include "grammar-visibility.h"' not in text:
            begin = text.find('G_BEGIN_DECLS')
            last = text.rfind('#include', 0, begin)
            if begin < 0 or last < 0:
                sys.exit('%s: no #include before G_BEGIN_DECLS to put grammar-visibility.h after' % path)
            end = text.index('\n', last) + 1
            text = text[:end] + '\n#include "grammar-visibility.h"\n' + text[end:]
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        print('%s: %d declaration(s) annotated' % (path, len(missing)))
        changed += len(missing)
    print('%d declaration(s) annotated in all' % changed)


def exported(library):
    nm = shutil.which('nm')
    if nm is None:
        tap.skip_all('nm not found')
    out = subprocess.run([nm, '-D', '--defined-only', library],
                         check=True, capture_output=True, text=True).stdout
    symbols = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[-1].startswith('grammar_'):
            symbols.add(fields[-1].split('@')[0])
    return symbols


def check(library, headers):
    declared, bare = {}, []
    for path in headers:
        with open(path, encoding='utf-8') as f:
            for name, pos, annotated in declarations(f.read()):
                if annotated:
                    declared[name] = os.path.basename(path)
                else:
                    bare.append('%s (%s)' % (name, os.path.basename(path)))
    symbols = exported(library)
    missing = sorted(n for n in declared if n not in symbols)
    extra = sorted(symbols - set(declared))

    results = [
        ('every public declaration of %d headers has a GRAMMAR_AVAILABLE_IN_ macro' % len(headers),
         bare, 'without a macro (add it with: %s --annotate HEADER...)' % sys.argv[0]),
        ('every declared function (%d) is exported' % len(declared),
         ['%s (%s)' % (n, declared[n]) for n in missing], 'declared but not exported'),
        ('every exported grammar_ symbol (%d) is declared in a public header' % len(symbols),
         extra, 'exported but declared in no public header with a macro'),
    ]
    for what, problems, why in results:
        tap.check(not problems, what, ['%d %s:' % (len(problems), why)] + ['  %s' % p for p in problems],
                  max_lines=None)
    return tap.finish()


def main(argv):
    if len(argv) >= 2 and argv[0] == '--annotate':
        annotate(argv[1:])
        return 0
    if len(argv) < 2:
        print(__doc__ if __doc__ else 'usage: test-exports.py LIBRARY HEADER... | --annotate HEADER...',
              file=sys.stderr)
        return 99
    return check(argv[0], argv[1:])


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
