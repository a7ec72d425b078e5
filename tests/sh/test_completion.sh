#!/bin/sh
# The bash completion (completion/numatop-tui.bash) on a --root tree whose
# node and memory tier directories have hostile names: a command
# substitution, backticks, a variable, arithmetic, a newline, a blank, a
# glob. Capture trees are handed around for bug reports, so every name
# read from a tree is data: completing --to, -s and -o on such a tree (by
# --root DIR, --root=DIR and NUMATOP_TUI_ROOT) runs nothing (no marker
# file appears), and offers exactly what it offers on the same tree
# without those directories: the valid node ids (and N<id>, T<id>). With
# bash-completion loaded and without it (the completion's own fallback).
# What the completion offers on a clean tree and on the live machine:
# tests/sh/test_install.sh.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need bash bash
T=$(mktemp -d /tmp/numatop-completion.XXXXXX)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
COMP=$(pwd)/completion/numatop-tui.bash
BC=${BASH_COMPLETION_SCRIPT:-/usr/share/bash-completion/bash_completion}
bindir=$(cd "$(dirname "$PROG")" && pwd)
[ -x "$bindir/numatop-tui" ] || { echo "FAIL test_completion.sh: no $bindir/numatop-tui (make numatop-tui)"; exit 1; }

# Two trees: clean (nodes 0 and 1, memory tier 4) and hostile (the same
# and the hostile names). The markers: absolute paths in the environment
# of the completing shell, so that a name that runs "touch" makes one.
N=sys/devices/system/node
MT=sys/devices/virtual/memory_tiering
for t in clean hostile; do
	mkdir -p "$T/$t/$N/node0" "$T/$t/$N/node1" "$T/$t/$MT/memory_tier4"
done
H=$T/hostile
: >"$H/$N/node7"                        # a file, not a node directory
mkdir "$H/$N/"'node8$(touch "$M1")' \
	"$H/$N/"'node9`touch "$M2"`' \
	"$H/$N/"'node10$HOME' \
	"$H/$N/"'node11$((6*7))' \
	"$H/$N/node12
13" \
	"$H/$N/node1*" \
	"$H/$N/node14 15" \
	"$H/$N/"'node16${M3:=x}' \
	"$H/$MT/"'memory_tier5$(touch "$M4")' \
	"$H/$MT/"'memory_tier6`touch "$M5"`' \
	"$H/$MT/memory_tier7*" \
	"$H/$MT/memory_tier8
9" || { echo "FAIL completion_tree: mkdir failed"; exit 1; }
# A glob left unquoted in the current directory finds this one.
mkdir "$T/cwd" && : >"$T/cwd/1glob" && : >"$T/cwd/7glob" && : >"$T/cwd/N1glob"
mkdir "$T/home"

# comp BC LINE [VAR=VALUE]: what the function registered for numatop-tui
# offers at the end of LINE (bash-completion BC sourced first; /dev/null:
# without it), one candidate a line, in the order given.
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
[ ${#COMPREPLY[@]} -gt 0 ] && printf '<%s>\n' "${COMPREPLY[@]}"
exit 0
EOF
comp() {
	(cd "$T/cwd" && env HOME="$T/home" M1="$T/m1" M2="$T/m2" M3="$T/m3" M4="$T/m4" M5="$T/m5" \
		${3:+"$3"} bash "$T/comp.bash" "$1" "$COMP" "$bindir" "$2" 2>&1)
}
show() { printf '%s\n' "$1" | head -30 | tr '\n' ' '; }
markers() { for m in m1 m2 m3 m4 m5; do [ -e "$T/$m" ] && printf '%s ' "$m"; done; }

# check NAME LINE-WITH-@ [VAR=@]: LINE with @ the hostile tree offers what
# it offers with @ the clean tree, and no marker was made.
check() {
	name=$1
	for bc in "$BC" /dev/null; do
		[ "$bc" = /dev/null ] && n=${name}_plain || n=$name
		if [ "$bc" != /dev/null ] && [ ! -f "$bc" ]; then
			echo "SKIP $n: no $bc (apt-get install bash-completion)"
			continue
		fi
		rm -f "$T"/m[0-9]
		hl=$(printf '%s\n' "$2" | sed "s|@|$H|")
		cl=$(printf '%s\n' "$2" | sed "s|@|$T/clean|")
		he=${3:+$(printf '%s\n' "$3" | sed "s|@|$H|")}
		ce=${3:+$(printf '%s\n' "$3" | sed "s|@|$T/clean|")}
		got=$(comp "$bc" "$hl" "$he")
		m=$(markers)
		want=$(comp "$bc" "$cl" "$ce")
		if [ -z "$m" ] && [ "$got" = "$want" ] && [ -n "$want" ]; then
			ok "$n"
		else
			bad "$n" "${3:+$3 }$2<TAB>${m:+: ran code from a directory name (made $m)}
hostile tree: $(show "$got")
clean tree:   $(show "$want")"
		fi
	done
}

# --to: the node ids, and only those.
check comp_to_hostile_root 'numatop-tui --root @ --to '
check comp_to_hostile_root_eq 'numatop-tui --root=@ --to '
check comp_to_hostile_env 'numatop-tui --to ' NUMATOP_TUI_ROOT=@
check comp_to_hostile_prefix 'numatop-tui --root @ --to 1'
c=$(comp "$BC" "numatop-tui --root $H --to ")
[ "$c" = "<0>
<1>" ] && ok comp_to_hostile_exact || bad comp_to_hostile_exact "--root $H --to <TAB>: $(show "$c"), want <0> <1>"
# N<id> and T<id> among the columns of -s and -o.
check comp_sort_hostile_nodes 'numatop-tui --root @ -s n'
check comp_sort_hostile_tiers 'numatop-tui --root @ -s t'
check comp_columns_hostile 'numatop-tui --root @ -o pid,n'
check comp_columns_hostile_tiers 'numatop-tui --root @ -o PID,T'
check comp_columns_hostile_all 'numatop-tui --root @ -o '
rm -f "$T"/m[0-9]
