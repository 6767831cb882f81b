#!/usr/bin/python3
# run-method.py: the whole GRAMMAR method from Python, through GObject
# Introspection (Grammar-1.0): the same GrammarMethod object `grammar run`
# is a shell over. Prints what each stage did and the report's headline
# figures.
#
#   examples/python/run-method.py [KEYFILE [OUTDIR]]
#
# Default: the built-in demo (examples/demo.ini) into a temporary folder.
# Uninstalled, run it inside `meson devenv -C build -w .`, which sets
# GI_TYPELIB_PATH, LD_LIBRARY_PATH and GRAMMAR_PLUGIN_PATH.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import shutil
import sys
import tempfile

import gi

gi.require_version('GLib', '2.0')
gi.require_version('Json', '1.0')
gi.require_version('Grammar', '1.0')
from gi.repository import GLib, Grammar, Json  # noqa: E402


def on_stage_finished(method, stage, style, path, summary):
    name = stage if style is None else '%s (%s)' % (stage, style)
    print('%-24s %s' % (name, summary))


def headline(report):
    """The report's headline figures, as `grammar report` names them."""
    lines = []
    interval = report['intervals']['accuracy']
    lines.append('accuracy %.4f [%.4f, %.4f]' % (report['accuracy'], interval[0], interval[1]))
    lines.append('robustness %.4f' % report['robustness'])
    lines.append('knowledge accuracy %.4f' % report['knowledge_accuracy'])
    lines.append('retrieval accuracy %.4f' % report['retrieval']['accuracy'])
    if 'comparison' in report:
        lines.append('conclusion: %s' % report['comparison']['conclusion'])
    return lines


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    keyfile = argv[1] if len(argv) > 1 else os.path.join(here, '..', 'demo.ini')
    made_outdir = len(argv) <= 2
    outdir = argv[2] if not made_outdir else tempfile.mkdtemp(prefix='grammar-method-')
    try:
        config = Grammar.Config.new_from_file(keyfile)
        method = Grammar.Method.new(config)      # [run] sets styles, per-template, ...
        method.props.outdir = outdir
        method.connect('stage-finished', on_stage_finished)
        method.run(None)

        # the report's data (report.json), a JsonNode
        report = json.loads(Json.to_string(method.get_report(), False))
        print()
        print('styles: %s' % ', '.join(method.props.styles))
        for line in headline(report):
            print(line)
    except GLib.Error as e:
        print('run-method.py: %s' % e.message, file=sys.stderr)
        return 1
    finally:
        if made_outdir:
            shutil.rmtree(outdir, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
