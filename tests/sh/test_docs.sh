#!/bin/sh
# The documentation. docs/options.md, docs/keys.md and docs/prometheus.md
# are what make docs writes (tools/genman.c --markdown, from doc/*.md.in
# and the program's own --help text, key, format, column and metric family
# tables): written again into a
# temporary directory, they must be the committed files. Every relative
# link and #anchor of README.md, HACKING.md and docs/*.md must resolve: the
# file exists, and an anchor is the slug of a heading of its file by
# GitHub's rule (lower case, blanks to "-", punctuation other than "-" and
# "_" dropped; a repeated slug gets -1, -2 ...). The checker is first run
# on a tree made with broken links, which it must find, and only those.
# The README keeps its quick start (make run, make test), links every page
# of docs/ and HACKING.md, and stays within 250 lines.
# This test calls make for its docs target only (with BUILD and PROG set to
# a private build directory, from there; under make asan from build/, as
# test_install.sh does).
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
need make make
need python3 python3
MB=build MP=""
case ${BUILD:-build} in
build | build-asan) ;;
*) MB=$BUILD MP=${PROG#./} ;;
esac
mk() {
	env -u PROG -u BUILD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u LDFLAGS -u CPPFLAGS make -s \
		${MP:+BUILD="$MB" PROG="$MP"} "$@" >"$T/make.log" 2>&1
}

# --- the generated pages ----------------------------------------------------
mk docs DOCS_OUT="$T/gen"; rc=$?
for d in options keys prometheus; do
	if [ $rc -ne 0 ] || [ ! -s "$T/gen/$d.md" ]; then
		bad "docs_${d}_generated" "make -s docs DOCS_OUT=$T/gen: status $rc, no $d.md
$(tail -15 "$T/make.log")"
	elif cmp -s "$T/gen/$d.md" "docs/$d.md"; then
		ok "docs_${d}_generated"
	else
		bad "docs_${d}_generated" "docs/$d.md is not what make docs writes from doc/$d.md.in and the program: run make docs
$(diff -u "docs/$d.md" "$T/gen/$d.md" | head -30)"
	fi
done
# The JSON Schema: its template and the process facts' catalogue (tools/genschema.c).
if [ $rc -ne 0 ] || [ ! -s "$T/gen/numatop-tui.schema.json" ]; then
	bad docs_schema_generated "make -s docs DOCS_OUT=$T/gen: status $rc, no numatop-tui.schema.json"
elif cmp -s "$T/gen/numatop-tui.schema.json" docs/numatop-tui.schema.json; then
	ok docs_schema_generated
else
	bad docs_schema_generated "docs/numatop-tui.schema.json is not what make docs writes from doc/numatop-tui.schema.json.in and src/fields_proc.c: run make docs
$(diff -u docs/numatop-tui.schema.json "$T/gen/numatop-tui.schema.json" | head -30)"
fi

# --- links --------------------------------------------------------------------
# links.py FILE...: one line "FILE: TARGET: why" for each link that does not
# resolve. Code (fenced blocks, code spans) holds no links.
cat >"$T/links.py" <<'EOF'
import os, re, sys

def strip_fences(text):
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
            out.append("")
        elif fence is not None:
            if re.match(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$", line):
                fence = None
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)

def slugs(path):
    seen, out = {}, set()
    for line in strip_fences(open(path, encoding="utf-8").read()).split("\n"):
        m = re.match(r"^ {0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$", line)
        if not m:
            continue
        s = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out

LINK = re.compile(r"!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)", re.M)
for f in sys.argv[1:]:
    text = strip_fences(open(f, encoding="utf-8").read())
    text = re.sub(r"(`+)(?:.|\n)*?(?<!`)\1(?!`)", "", text)   # code spans
    text = re.sub(r"\\.", "", text)                          # escapes
    targets = [m.group(2) for m in LINK.finditer(text)] + [m.group(1) for m in REF.finditer(text)]
    for t in targets:
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", t):
            continue                      # https:, mailto: ...
        path, _, anchor = t.partition("#")
        where = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not t:
            print("%s: (empty): no target" % f)
        elif not os.path.exists(where):
            print("%s: %s: no such file" % (f, t))
        elif anchor:
            if not where.endswith(".md"):
                print("%s: %s: an anchor in a file that is not Markdown" % (f, t))
            elif anchor not in slugs(where):
                print("%s: %s: no heading with that anchor in %s" % (f, t, where))
EOF
# The checker on a tree with broken links: it must name exactly these.
mkdir -p "$T/neg/sub"
cat >"$T/neg/a.md" <<'EOF'
# A title

## Batch output (`-b`)

## Dup

## Dup

Good: [b](sub/b.md#real-heading), [self](#a-title), [code](#batch-output--b),
[twice](#dup-1), [image](sub/b.md), [split
text](sub/b.md#real-heading), [web](https://example.org/nope.md).
Not links: `[x](nope-in-code.md)`, \[y](nope-escaped.md).

```
[z](nope-in-fence.md)
```

Broken: [file](nope.md), [anchor](sub/b.md#no-such-heading), [self](#missing),
[dup](#dup-2).
EOF
printf '# Real heading\n' >"$T/neg/sub/b.md"
(cd "$T/neg" && python3 "$T/links.py" a.md) >"$T/neg.out" 2>&1
want="a.md: #dup-2: no heading with that anchor in a.md
a.md: #missing: no heading with that anchor in a.md
a.md: nope.md: no such file
a.md: sub/b.md#no-such-heading: no heading with that anchor in sub/b.md"
got=$(LC_ALL=C sort "$T/neg.out")
[ "$got" = "$want" ] && ok docs_link_checker_finds_broken ||
	bad docs_link_checker_finds_broken "want:
$want
got:
$got"

set -- README.md HACKING.md docs/*.md
python3 "$T/links.py" "$@" >"$T/links.out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/links.out" ] && [ -f HACKING.md ] && [ -f docs/options.md ] && ok docs_links ||
	bad docs_links "$(head -30 "$T/links.out") (checked: $*)"

# --- the README -----------------------------------------------------------------
n=$(wc -l <README.md)
[ "$n" -le 250 ] && ok readme_short || bad readme_short "README.md has $n lines (at most 250: the rest belongs in docs/ or HACKING.md)"
grep -qE '^ +make run( |$)' README.md && grep -qE '^ +make test( |$)' README.md && ok readme_quick_start ||
	bad readme_quick_start "README.md lacks the quick start's make run / make test lines"
miss=""
for f in HACKING.md docs/*.md; do
	grep -qE "\]\($f(#[^)]*)?\)" README.md || miss="$miss $f"
done
[ -z "$miss" ] && ok readme_links_every_page || bad readme_links_every_page "README.md does not link:$miss"

# --- the docs agree with the program ----------------------------------------
# Every exit status a front end returns (src/cli/*.c, the monitor's main
# loop) is in the program's exit-status table, which --help and the man
# page print; every option README.md or docs/*.md names is one --help has;
# the man page's SYNOPSIS shows each mode (record, replay, serve, migrate,
# measure).
"$PROG" --help >"$T/help" 2>&1
codes=$(grep -ohE '(status = |return |_?exit\()[0-9]+' src/cli/*.c ui/ui_main.c | grep -oE '[0-9]+$' | sort -un)
table=$(sed -n '/^Exit status:/,$p' "$T/help" | grep -oE '^  [0-9]+' | tr -d ' ' | sort -un)
miss=""; for c in $codes; do printf '%s\n' "$table" | grep -qx "$c" || miss="$miss $c"; done
[ -n "$table" ] && [ -z "$miss" ] && ok "docs_exit_statuses ($(echo $table))" \
	|| bad docs_exit_statuses "returned but not in --help's Exit status:$miss (table: $(echo $table))"
opts=$(grep -oE '^ {1,7}(-[A-Za-z], )?--[a-z-]+' "$T/help" | grep -oE -- '--[a-z-]+' | sort -u)
# (other programs' options on lines that name them are theirs: numactl,
# systemctl, genman, node_exporter)
named=$(cat README.md docs/*.md | grep -v 'numactl\|systemctl\|genman\|node_exporter' |
	grep -oE '(^|[ `(])--[a-z][a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u)
unknown=""; for o in $named; do printf '%s\n' "$opts" | grep -qx -- "$o" || unknown="$unknown $o"; done
[ -z "$unknown" ] && ok docs_options_exist || bad docs_options_exist "named in README.md or docs/ but not in --help:$unknown"
if mk man; then
	syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$MB/numatop-tui.1" | tr -d '\\')
	gone=""; for m in -w --replay --serve --migrate --measure; do
		printf '%s\n' "$syn" | grep -q -- "^\.BR\? $m\$\|^\.BR\? $m " || gone="$gone $m"
	done
	[ -z "$gone" ] && ok docs_man_synopsis_modes || bad docs_man_synopsis_modes "not in SYNOPSIS:$gone"
else
	bad docs_man_synopsis_modes "make man: $(tail -5 "$T/make.log")"
fi
