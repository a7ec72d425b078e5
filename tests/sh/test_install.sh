#!/bin/sh
# Installing: make install / make uninstall (PREFIX, DESTDIR) into
# directories under $T; the man page make man generates
# (build/numatop-tui.1) with every option, column and key that the program
# has and no groff warnings; the bash completion
# (completion/numatop-tui.bash) in a real bash with bash-completion loaded;
# the recorder's systemd unit (contrib/systemd/numatop-tui-record.service.in):
# installed with its ExecStart on the installed program, accepted by
# systemd-analyze verify, and its command line recording a daily file
# (with only the unit's capabilities, as root).
# This test calls make for its install, uninstall and man targets only
# (they may build the program first); never a plain make. With BUILD and
# PROG set (a private build directory: make BUILD=build-x PROG=build-x/...)
# those make calls build and install from there; under make asan
# (BUILD=build-asan, whose objects need the sanitizer flags) from build/.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
T=$(mktemp -d)
sp=""
cleanup() {
	[ -n "$sp" ] && kill "$sp" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
need make make
ver=$(sed -n 's/^VERSION *:= *//p' Makefile)
MB=build MP=""
case ${BUILD:-build} in
build | build-asan) ;;
*) MB=$BUILD MP=${PROG#./} ;;
esac
MANPAGE=$MB/numatop-tui.1
# mk TARGET VAR=VALUE...: make as a user would call it. A parent make's
# flags are not passed on; BUILD and PROG only for a private build
# directory (above).
mk() {
	env -u PROG -u BUILD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u LDFLAGS -u CPPFLAGS make -s \
		${MP:+BUILD="$MB" PROG="$MP"} "$@" >"$T/make.log" 2>&1
}
# files DIR: every non-directory below DIR, relative, sorted.
files() { (cd "$1" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort); }

# --- make install PREFIX=/usr DESTDIR=... -----------------------------------
R=$T/root
mkdir -p "$R/usr/bin"
echo "not ours" >"$R/usr/bin/other"
# The documentation: README.md, HACKING.md and every page of docs/ (in
# docs/, where the README's links point), with the JSON Schemas.
docs="$(ls docs/*.md) docs/numatop-tui.schema.json docs/fleet.schema.json"
[ -n "$docs" ] || bad install_docs_pages "no docs/*.md in the tree"
want=$({ printf '%s\n' "usr/bin/numatop-tui 755" \
	"usr/lib/systemd/system/numatop-tui-record.service 644" \
	"usr/share/bash-completion/completions/numatop-tui 644" \
	"usr/share/doc/numatop-tui/README.md 644" "usr/share/doc/numatop-tui/HACKING.md 644" \
	"usr/share/man/man1/numatop-tui.1 644"
	for d in $docs; do echo "usr/share/doc/numatop-tui/$d 644"; done; } | LC_ALL=C sort)
mk install PREFIX=/usr DESTDIR="$R"; rc=$?
[ $rc -eq 0 ] && ok install_runs || bad install_runs "make -s install PREFIX=/usr DESTDIR=$R: status $rc
$(tail -15 "$T/make.log")"
# Exactly these files.
got=$(files "$R" | grep -vx 'usr/bin/other')
[ "$got" = "$(echo "$want" | cut -d' ' -f1)" ] && ok install_files ||
	bad install_files "want:
$(echo "$want" | cut -d' ' -f1)
got:
$got"
modes=$(echo "$want" | while read -r f m; do
	[ -e "$R/$f" ] || continue
	[ -f "$R/$f" ] && [ ! -L "$R/$f" ] || { echo "$f: not a regular file"; continue; }
	a=$(stat -c %a "$R/$f"); [ "$a" = "$m" ] || echo "$f: mode $a, want $m"
done)
[ -n "$got" ] && [ -z "$modes" ] && ok install_modes || bad install_modes "${modes:-nothing installed}"
v=$("$R/usr/bin/numatop-tui" -V 2>&1)
[ "$v" = "numatop-tui $ver" ] && ok install_binary_version || bad install_binary_version "-V: $v"
# The installed files are the repository's (the man page: the generated one).
diffs=""
for p in "completion/numatop-tui.bash usr/share/bash-completion/completions/numatop-tui" \
	"README.md usr/share/doc/numatop-tui/README.md" "HACKING.md usr/share/doc/numatop-tui/HACKING.md" \
	"$MANPAGE usr/share/man/man1/numatop-tui.1"; do
	set -- $p
	cmp -s "$1" "$R/$2" || diffs="$diffs$R/$2 is not $1; "
done
for d in $docs; do
	cmp -s "$d" "$R/usr/share/doc/numatop-tui/$d" || diffs="$diffs$R/usr/share/doc/numatop-tui/$d is not $d; "
done
[ -z "$diffs" ] && ok install_same_files || bad install_same_files "$diffs"
# The unit: its template with ExecStart on the installed program.
UNIT=numatop-tui-record.service
CMD='-w /var/log/numatop-tui/ -d 10 --keep-days 28'
# unit_check FILE BINDIR: what is wrong with the installed unit FILE.
unit_check() {
	[ -f "$1" ] || { echo "no $1"; return; }
	e=$(grep '^ExecStart=' "$1")
	[ "$e" = "ExecStart=$2/numatop-tui $CMD" ] || echo "want ExecStart=$2/numatop-tui $CMD, got: $e"
	grep -q '@' "$1" && echo "a placeholder left: $(grep '@' "$1")"
	for l in Type=simple LogsDirectory=numatop-tui Restart=on-failure 'Documentation=man:numatop-tui(1)' \
		WantedBy=multi-user.target NoNewPrivileges=yes ProtectSystem=strict; do
		grep -qxF "$l" "$1" || echo "no line $l"
	done
	grep -E '^(ProtectProc|ProcSubset|User|DynamicUser|PrivatePIDs)=' "$1" | sed 's/^/hides processes or drops root: /'
}
w=$(unit_check "$R/usr/lib/systemd/system/$UNIT" /usr/bin)
[ -z "$w" ] && ok install_unit || bad install_unit "$w"

# --- make uninstall: those files, the emptied doc directory; not other -----
mk uninstall PREFIX=/usr DESTDIR="$R"; rc=$?
[ $rc -eq 0 ] && [ ! -e "$R/usr/lib/systemd/system/$UNIT" ] && ok uninstall_removes_unit ||
	bad uninstall_removes_unit "status $rc; $(ls -l "$R/usr/lib/systemd/system/$UNIT" 2>&1)"
left=$(files "$R" | grep -vx 'usr/bin/other')
[ $rc -eq 0 ] && [ -z "$left" ] && [ ! -e "$R/usr/share/doc/numatop-tui" ] && ok uninstall_removes ||
	bad uninstall_removes "status $rc; left: $left $([ -e "$R/usr/share/doc/numatop-tui" ] && echo "usr/share/doc/numatop-tui/")
$(tail -15 "$T/make.log")"
[ "$(cat "$R/usr/bin/other" 2>/dev/null)" = "not ours" ] && ok uninstall_keeps_other ||
	bad uninstall_keeps_other "usr/bin/other is gone or changed"

# --- PREFIX defaults to /usr/local; PREFIX alone without DESTDIR -----------
mk install DESTDIR="$T/r2"; rc=$?
out=$(files "$T/r2" | grep -v '^usr/local/')
w=$(unit_check "$T/r2/usr/local/lib/systemd/system/$UNIT" /usr/local/bin)
[ $rc -eq 0 ] && [ -x "$T/r2/usr/local/bin/numatop-tui" ] && [ -f "$T/r2/usr/local/share/man/man1/numatop-tui.1" ] &&
	[ -z "$out" ] && [ -z "$w" ] && ok install_default_prefix ||
	bad install_default_prefix "status $rc; $w; files: $(files "$T/r2" | tr '\n' ' ')
$(tail -15 "$T/make.log")"
mk uninstall DESTDIR="$T/r2"; rc=$?
[ $rc -eq 0 ] && [ -z "$(files "$T/r2")" ] && ok uninstall_default_prefix ||
	bad uninstall_default_prefix "status $rc; left: $(files "$T/r2" | tr '\n' ' ')"
mk install PREFIX="$T/p"; rc=$?
[ $rc -eq 0 ] && [ -x "$T/p/bin/numatop-tui" ] && [ -f "$T/p/share/man/man1/numatop-tui.1" ] &&
	ok install_prefix_only || bad install_prefix_only "make -s install PREFIX=$T/p: status $rc; files: $(files "$T/p" 2>/dev/null | tr '\n' ' ')
$(tail -15 "$T/make.log")"

# --- the recorder's unit, installed under PREFIX=$T/p (its program exists) ---
U=$T/p/lib/systemd/system/$UNIT
w=$(unit_check "$U" "$T/p/bin")
[ -z "$w" ] && ok install_unit_prefix || bad install_unit_prefix "$w"
if ! command -v systemd-analyze >/dev/null 2>&1; then
	echo "SKIP unit_verify: no systemd-analyze (apt-get install systemd)"
elif [ -f "$U" ]; then
	# Documentation=man:numatop-tui(1) is looked up with man: the
	# installed page.
	MANPATH=$T/p/share/man systemd-analyze verify "$U" >"$T/verify" 2>&1; rc=$?
	[ $rc -eq 0 ] && [ ! -s "$T/verify" ] && ok unit_verify || bad unit_verify "systemd-analyze verify $U: status $rc
$(head -20 "$T/verify")"
fi
# The unit's command line, as systemd runs it but into $T/log/ (not
# /var/log/numatop-tui/), two samples 0.2 s apart: today's daily file,
# replayed. As root with only the unit's capabilities (setpriv), and a
# process of another user (nobody) read: placement from its numa_maps.
need jq jq
if [ -f "$U" ]; then
	cmd=$(sed -n 's/^ExecStart=//p' "$U" | sed 's|/var/log/numatop-tui/|'"$T"'/log/|; s/ -d 10 / -d 0.2 /')
	# CapabilityBoundingSet=CAP_A CAP_B as setpriv's -all,+a,+b (none
	# given: all of them).
	caps=-all$(sed -n 's/^CapabilityBoundingSet=//p' "$U" | tr 'A-Z' 'a-z' | sed 's/cap_/,+/g; s/ //g')
	grep -q '^CapabilityBoundingSet=' "$U" || caps=+all
	mkdir -p "$T/log"
	pre=""
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
		pre="setpriv --bounding-set $caps --no-new-privs"
		setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 & sp=$!
		sleep 0.3
	fi
	d0=$(date +%Y%m%d)
	set -f
	$pre $cmd -n 2 >"$T/rec.out" 2>&1; rc=$?
	set +f
	d1=$(date +%Y%m%d)
	f=""
	for d in $d0 $d1; do [ -f "$T/log/numatop-tui_$d.zst" ] && f=$T/log/numatop-tui_$d.zst; done
	n=$([ -n "$f" ] && "$T/p/bin/numatop-tui" --replay "$f" --json 2>/dev/null | jq -s 'length')
	[ $rc -eq 0 ] && [ -n "$f" ] && [ "$n" = 2 ] && ok unit_execstart_records ||
		bad unit_execstart_records "$pre $cmd -n 2: status $rc, $n samples replayed; in $T/log: $(ls "$T/log" | tr '\n' ' ')
$(head -10 "$T/rec.out")"
	if [ -n "$sp" ]; then
		# Once more with --full: the budget of two samples may not reach
		# the sleep on a busy machine.
		mkdir -p "$T/log2"
		set -f
		$pre $(echo "$cmd" | sed "s|$T/log/|$T/log2/|") -n 1 --full >"$T/rec.out" 2>&1; rc=$?
		set +f
		nm=$(for f in "$T"/log2/numatop-tui_*.zst; do "$T/p/bin/numatop-tui" --replay "$f" --json; done 2>/dev/null |
			tail -1 | jq -r --argjson p "$sp" '.processes[] | select(.pid == $p) | .numa_maps')
		[ $rc -eq 0 ] && [ "$nm" = ok ] && ok unit_caps_read_numa_maps ||
			bad unit_caps_read_numa_maps "with the bounding set $caps the numa_maps of nobody's sleep ($sp): '$nm' (status $rc)
$(head -5 "$T/rec.out")"
		kill -KILL "$sp" 2>/dev/null; wait "$sp" 2>/dev/null; sp=""
	else
		echo "SKIP unit_caps_read_numa_maps: not root or no setpriv"
	fi
fi

# --- the man page -------------------------------------------------------------
mk man; rc=$?
[ $rc -eq 0 ] && [ -s "$MANPAGE" ] && ok man_generated || bad man_generated "make -s man: status $rc, $MANPAGE $([ -s "$MANPAGE" ] && echo exists || echo missing)
$(tail -15 "$T/make.log")"
need man man-db
need col bsdextrautils
if [ -s "$MANPAGE" ]; then
	LC_ALL=C.UTF-8 man --warnings -l "$MANPAGE" >/dev/null 2>"$T/warn"
	[ ! -s "$T/warn" ] && ok man_no_warnings || bad man_no_warnings "$(head -20 "$T/warn")"
	# Wide, without hyphenation (no word broken across lines), hyphens and
	# minus signs as "-" (Debian renders both so; other groffs may not).
	LC_ALL=C.UTF-8 MANWIDTH=200 MANROFFOPT=-rHY=0 man -l "$MANPAGE" 2>/dev/null | col -bx |
		sed 's/‐/-/g; s/−/-/g' >"$T/man.txt"
	# section NAME: the text of one section of the rendered page.
	section() { awk -v s="$1" '/^[A-Z][A-Z0-9 ]*$/ { cur = $0; next } cur == s' "$T/man.txt"; }
	# has_word WORD [FILE]: WORD (a fixed string) with no letter, digit or
	# dash right before or after it.
	has_word() {
		re=$(printf '%s\n' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g; s/</<?/g; s/>/>?/g')
		grep -Eq -- "(^|[^A-Za-z0-9-])$re([^A-Za-z0-9-]|\$)" "${2:-$T/man.txt}"
	}
	miss=""
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS KEYS COLUMNS FILES ENVIRONMENT "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -qx "$s" "$T/man.txt" || miss="$miss [$s]"
	done
	[ -z "$miss" ] && ok man_sections || bad man_sections "missing:$miss"
	# Every option --help prints (the lines that start with blanks).
	$PROG --help >"$T/help" 2>&1
	longs=$(grep '^ ' "$T/help" | grep -oE -- '--[a-z-]+' | LC_ALL=C sort -u)
	shorts=$(grep -oE '^ +-[A-Za-z],' "$T/help" | tr -d ' ,' | LC_ALL=C sort -u)
	miss=""
	for o in $longs $shorts; do has_word "$o" || miss="$miss $o"; done
	[ -n "$longs" ] && [ -z "$miss" ] && ok man_options || bad man_options "missing:${miss:- (no options in --help?)}"
	# Each option line of --help (between its first two empty lines,
	# starting within 8 columns; the lines indented further continue the
	# text above) is one .TP entry whose heading is the flags part: up to
	# the first run of two or more blanks, or, where one blank separates
	# them from the text ("--kernel-threads show ..."), the options and an
	# argument word without lower-case letters. A short heading shares
	# its line with the first word of the text.
	awk 'NF == 0 { b++; next } b == 1 && /^ *-/ && index($0, "-") <= 8' "$T/help" |
		sed -E 's/^ +//' | while IFS= read -r l; do
			f=$(printf '%s\n' "$l" | sed 's/  .*//' |
				grep -oE '^(-[A-Za-z], )?--?[A-Za-z][A-Za-z-]*( [^ a-z]+)?')
			w=${l#"$f"}; w=${w#"${w%%[! ]*}"}
			printf '%s\t%s\n' "$f" "${w%% *}"
		done >"$T/flags"
	section OPTIONS | awk '/^   [^ ]/ { exit } /^       [^ ]/' | sed 's/^ *//; s/   */ /g' >"$T/headings"
	wrong=$(paste "$T/flags" "$T/headings" | awk -F '\t' '
		$3 != $1 && $3 != $1 " " $2 && index($3, $1 " " $2 " ") != 1 { print "  want \"" $1 "\", got \"" $3 "\"" }')
	[ -s "$T/flags" ] && [ "$(wc -l <"$T/flags")" = "$(wc -l <"$T/headings")" ] && [ -z "$wrong" ] &&
		ok man_option_headings ||
		bad man_option_headings "$(wc -l <"$T/flags") options in --help, $(wc -l <"$T/headings") headings in OPTIONS
$wrong"
	# Every column of --help's Columns section (N<id> may read Nid).
	cols=$(awk '/^Columns/ { f = 1; next } f && /^$/ { f = 0 } f && /^  [^ ]/ { print $1 }' "$T/help")
	miss=""
	for c in $cols; do has_word "$c" || miss="$miss $c"; done
	[ -n "$cols" ] && [ -z "$miss" ] && ok man_columns || bad man_columns "missing:${miss:- (no columns in --help?)}"
	# Every key label of ui_keys[] (third field, where a string), each of
	# its tokens a word of KEYS (words split at blanks, commas, semicolons
	# and parentheses; a/b also counts as a and b).
	sed -n '/ui_keys\[\] *=/,/^};/p' ui/ui_keys.c |
		sed -n 's/^[[:space:]]*{[^,]*,[^,]*, *"\(\([^"\\]\|\\.\)*\)".*/\1/p' |
		sed 's/\\\\/\\/g; s/\\"/"/g' >"$T/labels"
	section KEYS | tr ' \t,;()' '\n\n\n\n\n\n' | sed 's/\([^.:]\)[.:]$/\1/' | grep -v '^$' >"$T/kw"
	# (a/b as a and b: through a file of its own, never read and appended
	# at once: a KEYS section past tr's buffer would grow without end)
	tr '/' '\n' <"$T/kw" >"$T/kw2" && cat "$T/kw2" >>"$T/kw"
	miss=""
	set -f   # labels hold ? and the like: words, not patterns
	for k in $(cat "$T/labels"); do grep -qxF -- "$k" "$T/kw" || miss="$miss $k"; done
	set +f
	[ -s "$T/labels" ] && [ -s "$T/kw" ] && [ -z "$miss" ] && ok man_keys ||
		bad man_keys "$(wc -l <"$T/labels") labels in ui_keys[]; not in KEYS:${miss:- (no KEYS section)}"
	miss=""
	for w in numatop-tuirc XDG_CONFIG_HOME XDG_CACHE_HOME NUMATOP_TUI_ROOT NO_COLOR; do
		has_word "$w" || miss="$miss $w"
	done
	[ -z "$miss" ] && ok man_files_environment || bad man_files_environment "missing:$miss"
	section "SEE ALSO" >"$T/see"
	miss=""
	for w in 'htop(1)' 'numastat(8)' 'numactl(8)' 'migratepages(8)' 'lstopo(1)'; do
		grep -qF "$w" "$T/see" || miss="$miss $w"
	done
	[ -z "$miss" ] && ok man_see_also || bad man_see_also "missing in SEE ALSO:$miss"
else
	echo "SKIP man_content: no $MANPAGE"
fi

# --- the bash completion ----------------------------------------------------
need bash bash
# BASH_COMPLETION_SCRIPT: another bash_completion, to try this without the
# package.
BC=${BASH_COMPLETION_SCRIPT:-/usr/share/bash-completion/bash_completion}
COMP=$(pwd)/completion/numatop-tui.bash
if [ ! -f "$BC" ]; then
	bad completion "needs $BC (apt-get install bash-completion)"
elif [ ! -f "$COMP" ]; then
	bad completion "no completion/numatop-tui.bash"
else
	# comp LINE: what the function registered for numatop-tui offers at
	# the end of LINE, one candidate a line (trailing blanks cut).
	cat >"$T/comp.bash" <<'EOF'
. "$1" >/dev/null 2>&1
. "$2" || { echo "SOURCE-FAILED"; exit 1; }
PATH=$3:$PATH
line=$4
spec=$(complete -p numatop-tui 2>/dev/null) || { echo "NO-COMPLETE-SPEC"; exit 1; }
fn=$(printf '%s\n' "$spec" | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
[ -n "$fn" ] || { echo "NO-FUNCTION: $spec"; exit 1; }
read -r -a COMP_WORDS <<<"$line"
[[ $line == *' ' ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE=$line COMP_POINT=${#line} COMP_TYPE=9 COMP_KEY=9
COMPREPLY=()
"$fn" numatop-tui "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
[ ${#COMPREPLY[@]} -gt 0 ] && printf '%s\n' "${COMPREPLY[@]}"
exit 0
EOF
	bindir=$(cd "$(dirname "$PROG")" && pwd)
	comp() { HOME=$T bash "$T/comp.bash" "$BC" "$COMP" "$bindir" "$1" 2>&1 | sed 's/ *$//'; }
	has() { printf '%s\n' "$1" | grep -qxF -- "$2"; }
	show() { printf '%s\n' "$1" | head -30 | tr '\n' ' '; }
	c=$(comp 'numatop-tui --ba')
	[ "$c" = "--batch" ] && ok comp_long_option || bad comp_long_option "numatop-tui --ba<TAB>: $(show "$c")"
	c=$(comp 'numatop-tui -s ')
	has "$c" REMOTE && has "$c" 'CPU%' && has "$c" PID && ok comp_sort_column ||
		bad comp_sort_column "numatop-tui -s <TAB>: $(show "$c")"
	c=$(comp 'numatop-tui --')
	n=$(printf '%s\n' "$c" | grep -cx -- '--format')
	dup=$(printf '%s\n' "$c" | LC_ALL=C sort | uniq -d | tr '\n' ' ')
	[ "$n" = 1 ] && [ -z "$dup" ] && ok comp_options_once ||
		bad comp_options_once "numatop-tui --<TAB>: --format $n times; twice: $dup"
	c=$(comp 'numatop-tui -s c')
	has "$c" 'CPU%' && has "$c" COMMAND && has "$c" CGROUP && ! has "$c" PID && ok comp_sort_case ||
		bad comp_sort_case "numatop-tui -s c<TAB>: $(show "$c")"
	c=$(comp 'numatop-tui -o pid,us')
	has "$c" 'pid,USER' && [ "$(printf '%s\n' "$c" | wc -l)" = 1 ] && ok comp_column_list_case ||
		bad comp_column_list_case "numatop-tui -o pid,us<TAB>: $(show "$c")"
	c=$(comp 'numatop-tui -o PID,US')
	printf '%s\n' "$c" | grep -qix 'PID,USER' && ok comp_column_list ||
		bad comp_column_list "numatop-tui -o PID,US<TAB>: $(show "$c")"
	# T<id>: the tiers of the machine on the line (--root), beside THR and TIME.
	c=$(comp 'numatop-tui --root tests/trees/tiered3 -s t')
	has "$c" T && has "$c" T4 && has "$c" T67 && has "$c" T100 && has "$c" THR && has "$c" TIME &&
		! has "$c" 'T<id>' && ok comp_tier_columns ||
		bad comp_tier_columns "numatop-tui --root tests/trees/tiered3 -s t<TAB>: $(show "$c")"
	if ls /sys/devices/system/node 2>/dev/null | grep -q '^node[0-9]'; then
		want=$(ls /sys/devices/system/node | sed -n 's/^node\([0-9][0-9]*\)$/\1/p' | sort -n)
		c=$(comp 'numatop-tui --to ')
		[ "$(printf '%s\n' "$c" | sort -n)" = "$want" ] && ok comp_to_nodes ||
			bad comp_to_nodes "numatop-tui --to <TAB>: $(show "$c"), want $(show "$want")"
	else
		echo "SKIP comp_to_nodes: no /sys/devices/system/node here"
	fi
	sleep 100 & sp=$!
	c=$(comp 'numatop-tui --migrate ')
	has "$c" "$sp" && ok comp_migrate_pid || bad comp_migrate_pid "numatop-tui --migrate <TAB> (sleep is $sp): $(show "$c")"
	c=$(comp 'numatop-tui -p ')
	has "$c" "$sp" && ok comp_pid || bad comp_pid "numatop-tui -p <TAB> (sleep is $sp): $(show "$c")"
	kill -KILL "$sp" 2>/dev/null; wait "$sp" 2>/dev/null; sp=""
	mkdir -p "$T/cwd/adir"; : >"$T/cwd/afile"
	c=$(cd "$T/cwd" && comp 'numatop-tui --root ')
	{ has "$c" adir || has "$c" adir/; } && ! has "$c" afile && ok comp_root_dirs ||
		bad comp_root_dirs "numatop-tui --root <TAB> in a directory with adir/ and afile: $(show "$c")"
	c=$(cd "$T/cwd" && comp 'numatop-tui --capture ')
	{ has "$c" adir || has "$c" adir/; } && ! has "$c" afile && ok comp_capture_dirs ||
		bad comp_capture_dirs "numatop-tui --capture <TAB>: $(show "$c")"
	for o in -w --record --replay; do
		c=$(cd "$T/cwd" && comp "numatop-tui $o ")
		{ has "$c" adir || has "$c" adir/; } && has "$c" afile && ok "comp_paths_$o" ||
			bad "comp_paths_$o" "numatop-tui $o <TAB>: $(show "$c")"
	done
fi
