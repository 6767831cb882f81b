#!/usr/bin/env bash
# test-third-party.sh: builds a plugin the way an outside author would
# (one C file, only `pkg-config --cflags --libs grammar-1`) and checks
# that the `grammar` command line finds it, lists its properties, builds
# it from a keyfile and reports keyfile mistakes against it. Speaks TAP.
#
# Usage: test-third-party.sh GRAMMAR BUILD_ROOT SOURCE_DIR [CC...]
#   GRAMMAR     the grammar executable
#   BUILD_ROOT  the meson build root: installed into a temporary prefix
#               with `$MESON install --destdir` when MESON is set (then
#               the plugin builds against the installed headers and
#               grammar-1.pc only); else its meson-uninstalled/ folder has
#               grammar-1-uninstalled.pc, which pkg-config prefers
#   SOURCE_DIR  the folder holding static-database.c
#   CC...       the C compiler command (default: $CC, else cc)
#
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

if [ $# -lt 3 ]; then
  echo "usage: $0 GRAMMAR BUILD_ROOT SOURCE_DIR [CC...]" >&2
  exit 99
fi

grammar=$1
build_root=$2
source_dir=$3
shift 3
if [ $# -gt 0 ]; then
  compiler=("$@")
else
  # shellcheck disable=SC2206  # CC may hold a command and its arguments
  compiler=(${CC:-cc})
fi

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/grammar-third-party.XXXXXX") || {
  echo "Bail out! cannot create a temporary folder"
  exit 99
}
trap 'rm -rf "$tmpdir"' EXIT

# With MESON set (meson test does), the build is installed into a
# temporary prefix and the plugin sees only what is installed there: its
# grammar-1.pc and headers. Without it, pkg-config takes the
# grammar-1-uninstalled.pc meson writes into the build folder, whose flags
# name the source folder.
installed=no
if [ -n "${MESON:-}" ]; then
  # shellcheck disable=SC2086  # MESON may hold a command and its arguments
  if $MESON install -C "$build_root" --no-rebuild --quiet --destdir "$tmpdir/root" \
       >"$tmpdir/install.log" 2>&1; then
    pc=$(find "$tmpdir/root" -name grammar-1.pc | head -n 1)
  else
    pc=
  fi
  if [ -z "$pc" ]; then
    echo "Bail out! meson install into $tmpdir/root failed or wrote no grammar-1.pc"
    sed 's/^/# /' "$tmpdir/install.log"
    exit 99
  fi
  # The prefix of the .pc file, moved under the temporary root
  prefix=$(sed -n 's/^prefix=//p' "$pc")
  sed -i "s|^prefix=.*|prefix=$tmpdir/root$prefix|" "$pc"
  export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  installed=yes
else
  # pkg-config prefers NAME-uninstalled.pc, which meson writes here.
  export PKG_CONFIG_PATH="$build_root/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
fi
# Whatever the caller had, without our folder: the in-tree plugins.
base_plugin_path=${GRAMMAR_PLUGIN_PATH:-}
with_plugin_path="$tmpdir${base_plugin_path:+:$base_plugin_path}"

python=
for candidate in /usr/bin/python3 python3 python; do
  if command -v "$candidate" >/dev/null 2>&1; then
    python=$candidate
    break
  fi
done

n=0
failed=0

ok () {
  n=$((n + 1))
  echo "ok $n - $1"
}

not_ok () {
  n=$((n + 1))
  failed=$((failed + 1))
  echo "not ok $n - $1"
  shift
  for line in "$@"; do
    printf '%s\n' "$line" | sed 's/^/# /'
  done
}

# diag FILE...: the files, as TAP comments
diag () {
  for f in "$@"; do
    if [ -s "$f" ]; then
      echo "# --- $(basename "$f"):"
      sed 's/^/#   /' "$f"
    fi
  done
}

# json_check FILE PYTHON-EXPRESSION: evaluates the expression with `d`
# bound to the parsed JSON document; prints why when it does not hold.
json_check () {
  "$python" - "$1" "$2" <<'EOF'
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
except Exception as e:
    print("not JSON: %s" % e)
    sys.exit(1)
try:
    result = eval("(" + sys.argv[2] + "\n)", {"d": d})
except Exception as e:
    print("%s: %s" % (type(e).__name__, e))
    sys.exit(1)
if not result:
    print("does not hold: %s" % sys.argv[2])
    sys.exit(1)
EOF
}

echo "# grammar: $grammar"
echo "# PKG_CONFIG_PATH: $PKG_CONFIG_PATH (installed into a temporary prefix: $installed)"
echo "# compiler: ${compiler[*]}"
echo "# GRAMMAR_PLUGIN_PATH: $with_plugin_path"

# 1. the pluginsdir variable a plugin author installs into
pluginsdir=$(pkg-config --variable=pluginsdir grammar-1 2>"$tmpdir/pkg-config.err")
if [ -n "$pluginsdir" ]; then
  ok "pkg-config --variable=pluginsdir grammar-1 is set ($pluginsdir)"
else
  not_ok "pkg-config --variable=pluginsdir grammar-1 is set" \
    "empty or missing; pc file searched in $build_root/meson-uninstalled" \
    "$(cat "$tmpdir/pkg-config.err")"
fi

# 2. the plugin source uses the public API only
bad_includes=$(grep -E '^[[:space:]]*#[[:space:]]*include' "$source_dir/static-database.c" |
               grep -Ev '<(grammar-plugin\.h|glib\.h|glib-object\.h|gio/gio\.h|gmodule\.h)>')
if [ -z "$bad_includes" ]; then
  ok "static-database.c includes only <grammar-plugin.h> and GLib/GIO headers"
else
  not_ok "static-database.c includes only <grammar-plugin.h> and GLib/GIO headers" \
    "unexpected: $bad_includes"
fi

# 3. the plugin compiles with nothing but the pkg-config flags (of the
#    installed grammar-1.pc, whose headers are the installed ones)
built=no
if flags=$(pkg-config --cflags --libs grammar-1 2>"$tmpdir/pkg-config.err"); then
  if [ "$installed" = yes ]; then
    case "$flags" in
      *"$tmpdir/root"*) ;;
      *) echo "Bail out! pkg-config --cflags --libs grammar-1 does not name the installed prefix: $flags"
         exit 99 ;;
    esac
  fi
  # shellcheck disable=SC2086  # the flags are words
  if "${compiler[@]}" -shared -fPIC -o "$tmpdir/libgrammar-static.so" \
       "$source_dir/static-database.c" $flags >"$tmpdir/cc.log" 2>&1; then
    built=yes
    ok "libgrammar-static.so builds with only \`pkg-config --cflags --libs grammar-1\`"
  else
    not_ok "libgrammar-static.so builds with only \`pkg-config --cflags --libs grammar-1\`" \
      "command: ${compiler[*]} -shared -fPIC -o $tmpdir/libgrammar-static.so $source_dir/static-database.c $flags" \
      "$(cat "$tmpdir/cc.log")"
  fi
else
  not_ok "libgrammar-static.so builds with only \`pkg-config --cflags --libs grammar-1\`" \
    "pkg-config --cflags --libs grammar-1 failed" "$(cat "$tmpdir/pkg-config.err")"
fi

# run NAME PLUGIN_PATH ARGS...: runs grammar, keeping stdout, stderr and
# the exit status in $tmpdir/NAME.{out,err,status}
run () {
  local name=$1 path=$2
  shift 2
  GRAMMAR_PLUGIN_PATH=$path "$grammar" "$@" >"$tmpdir/$name.out" 2>"$tmpdir/$name.err" </dev/null
  echo $? >"$tmpdir/$name.status"
}

status_of () {
  cat "$tmpdir/$1.status"
}

# 4. `grammar plugins --json` lists it, with its property
if [ "$built" = yes ]; then
  run plugins "$with_plugin_path" plugins --json
  status=$(status_of plugins)
  if [ "$status" != 0 ]; then
    not_ok "grammar plugins --json lists database plugin \"static\" with property \"tables\"" \
      "exit status $status, expected 0"
    diag "$tmpdir/plugins.out" "$tmpdir/plugins.err"
  elif [ -z "$python" ]; then
    if grep -q '"static"' "$tmpdir/plugins.out" && grep -q '"tables"' "$tmpdir/plugins.out"; then
      ok "grammar plugins --json lists database plugin \"static\" with property \"tables\" (grep only: no python)"
    else
      not_ok "grammar plugins --json lists database plugin \"static\" with property \"tables\""
      diag "$tmpdir/plugins.out" "$tmpdir/plugins.err"
    fi
  elif why=$(json_check "$tmpdir/plugins.out" \
      'any(p["interface"] == "database" and p["name"] == "static"
           and p["description"] == "Fixed schema for testing third-party plugins"
           and any(q["name"] == "tables" for q in p["properties"])
           for p in d["plugins"])
       and "'"$tmpdir"'" in d["search_path"]'); then
    ok "grammar plugins --json lists database plugin \"static\" with property \"tables\""
  else
    not_ok "grammar plugins --json lists database plugin \"static\" with property \"tables\"" "$why"
    diag "$tmpdir/plugins.out" "$tmpdir/plugins.err"
  fi
else
  not_ok "grammar plugins --json lists database plugin \"static\" with property \"tables\"" \
    "the plugin did not build"
fi

# 5. `grammar schema` builds it from a keyfile
printf '[database]\nplugin=static\ntables=alpha;beta\n' >"$tmpdir/static.ini"
if [ "$built" = yes ]; then
  run schema "$with_plugin_path" schema -c "$tmpdir/static.ini" --json
  status=$(status_of schema)
  if [ "$status" != 0 ]; then
    not_ok "grammar schema --json reports tables alpha and beta" "exit status $status, expected 0"
    diag "$tmpdir/static.ini" "$tmpdir/schema.out" "$tmpdir/schema.err"
  elif [ -z "$python" ]; then
    if grep -q '"alpha"' "$tmpdir/schema.out" && grep -q '"beta"' "$tmpdir/schema.out"; then
      ok "grammar schema --json reports tables alpha and beta (grep only: no python)"
    else
      not_ok "grammar schema --json reports tables alpha and beta"
      diag "$tmpdir/schema.out" "$tmpdir/schema.err"
    fi
  elif why=$(json_check "$tmpdir/schema.out" \
      '[t["name"] for t in d["tables"]] == ["alpha", "beta"]
       and all([c["name"] for c in t["columns"]] == ["id", "name"]
               and t["primary_key"] == ["id"]
               and [c["type"] for c in t["columns"]] == ["INTEGER", "TEXT"]
               and t["columns"][1]["nullable"] is False
               and t["foreign_keys"] == []
               for t in d["tables"])'); then
    ok "grammar schema --json reports tables alpha and beta"
  else
    not_ok "grammar schema --json reports tables alpha and beta" "$why"
    diag "$tmpdir/schema.out" "$tmpdir/schema.err"
  fi
else
  not_ok "grammar schema --json reports tables alpha and beta" "the plugin did not build"
fi

# 6. a misspelt key names the file, section and key, and lists the properties
printf '[database]\nplugin=static\ntabels=x\n' >"$tmpdir/typo.ini"
if [ "$built" = yes ]; then
  run typo "$with_plugin_path" schema -c "$tmpdir/typo.ini" --json
  status=$(status_of typo)
  reasons=()
  [ "$status" = 2 ] || reasons+=("exit status $status, expected 2")
  grep -q 'tabels' "$tmpdir/typo.err" || reasons+=("the message does not name the key tabels")
  grep -qF '[database]' "$tmpdir/typo.err" || reasons+=("the message does not name the section [database]")
  grep -q 'typo\.ini' "$tmpdir/typo.err" || reasons+=("the message does not name the file typo.ini")
  # `tables` as a word of its own, not only as part of `tabels`
  grep -qE '(^|[^[:alnum:]_-])tables([^[:alnum:]_-]|$)' "$tmpdir/typo.err" ||
    reasons+=("the message does not list the property tables")
  if [ ${#reasons[@]} -eq 0 ]; then
    ok "an unknown key tabels= exits 2 naming the key and section and listing tables"
  else
    not_ok "an unknown key tabels= exits 2 naming the key and section and listing tables" "${reasons[@]}"
    diag "$tmpdir/typo.out" "$tmpdir/typo.err"
  fi
else
  not_ok "an unknown key tabels= exits 2 naming the key and section and listing tables" \
    "the plugin did not build"
fi

# 7. without the folder on GRAMMAR_PLUGIN_PATH there is no such plugin
run missing "$base_plugin_path" schema -c "$tmpdir/static.ini" --json
status=$(status_of missing)
reasons=()
[ "$status" = 2 ] || reasons+=("exit status $status, expected 2")
grep -q 'unknown database plugin' "$tmpdir/missing.err" ||
  reasons+=("the message does not say \"unknown database plugin\"")
grep -q 'static' "$tmpdir/missing.err" || reasons+=("the message does not name static")
if [ ${#reasons[@]} -eq 0 ]; then
  ok "without the plugin folder, plugin=static exits 2 with \"unknown database plugin\""
else
  not_ok "without the plugin folder, plugin=static exits 2 with \"unknown database plugin\"" "${reasons[@]}"
  diag "$tmpdir/missing.out" "$tmpdir/missing.err"
fi

# 8. its SQL generator: listed as a sql-generator, chosen by [sql-generator]
#    and by --generator, and its templates written
printf '[database]\nplugin=static\ntables=alpha;beta\n\n[sql-generator]\nplugin=static\ncolumn=name\n' \
  >"$tmpdir/generator.ini"
if [ "$built" = yes ]; then
  run generator "$with_plugin_path" sql-templates -c "$tmpdir/generator.ini" -o "$tmpdir/from-section.json"
  run named "$with_plugin_path" sql-templates -c "$tmpdir/static.ini" --generator static -o "$tmpdir/by-name.json"
  reasons=()
  [ "$(status_of generator)" = 0 ] || reasons+=("[sql-generator]: exit status $(status_of generator), expected 0")
  [ "$(status_of named)" = 0 ] || reasons+=("--generator static: exit status $(status_of named), expected 0")
  grep -q '"sql-generator"' "$tmpdir/plugins.out" || reasons+=("grammar plugins --json lists no sql-generator")
  for f in from-section by-name; do
    if [ ! -f "$tmpdir/$f.json" ]; then
      reasons+=("$f.json not written")
    elif [ -n "$python" ]; then
      why=$(json_check "$tmpdir/$f.json" \
        'sorted(t["sql"] for t in d) ==
           ["SELECT name FROM alpha WHERE id = [alpha.id]", "SELECT name FROM beta WHERE id = [beta.id]"]') ||
        reasons+=("$f.json: $why")
    fi
  done
  if [ ${#reasons[@]} -eq 0 ]; then
    ok "a third-party SQL generator runs from [sql-generator] and from --generator static"
  else
    not_ok "a third-party SQL generator runs from [sql-generator] and from --generator static" "${reasons[@]}"
    diag "$tmpdir/generator.out" "$tmpdir/generator.err" "$tmpdir/named.out" "$tmpdir/named.err"
  fi
else
  not_ok "a third-party SQL generator runs from [sql-generator] and from --generator static" \
    "the plugin did not build"
fi

echo "1..$n"
if [ "$failed" -gt 0 ]; then
  echo "# $failed of $n checks failed"
  exit 1
fi
exit 0
