#!/bin/sh
# Hostile process names (ESC/OSC sequences, CR/LF, ')' and spaces, invalid
# UTF-8, right-to-left override) on a copy of the Opteron tree: batch text
# and the monitor show them escaped, JSON escapes them, the terminal (tmux
# pane title) is untouched.
PROG=${PROG:-./numatop-tui}
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1"; [ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/    /'; }
T=$(mktemp -d)
export TMUX_TMPDIR="$T"
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
# A session that lives as long as the test: the server never exits between
# sessions (a new-session racing with the last kill-session fails).
tmux new-session -d -s keep -x 20 -y 5 "sleep 3600" 2>/dev/null
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
cp -r tests/trees/opteron4 "$T/tree"
d="$T/tree/proc/6666"
mkdir -p "$d"
# comm: OSC title escape, CSI clear, CR, ') (' and an RTL override.
name=$(printf '\033]0;pwned\007\033[2J\rx) (y \342\200\256exe\377')
printf '6666 (%s) S 1 6666 6666 0 -1 0 1 0 0 0 5 5 0 0 20 0 1 0 300000 1000 10 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 2 0 0 0 0 0\n' "$name" >"$d/stat"
printf 'Name:\tevil\nUid:\t0\t0\t0\t0\nThreads:\t1\nVmRSS:\t40 kB\nCpus_allowed_list:\t0-7\nMems_allowed_list:\t0-3\n' >"$d/status"
: >"$d/cmdline"   # empty: the monitor shows comm
printf '00400000 default anon=10 N0=5 N1=5 kernelpagesize_kB=4\n' >"$d/numa_maps"
esc=$(printf '\033')

out=$($prog --root "$T/tree" -b -n 1 -p 6666 2>&1)
printf '%s\n' "$out" | grep -q "$esc" && bad batch_no_raw_escape "$(printf '%s' "$out" | od -c | head)" || ok batch_no_raw_escape
printf '%s\n' "$out" | grep -qF '\x1b]0;pwned\x07\x1b[2J\x0dx) (y \u202eexe\xff' && ok batch_name_escaped \
	|| bad batch_name_escaped "$(printf '%s\n' "$out" | tail -2)"
printf '%s\n' "$out" | grep -E '^ +6666 ' | grep -q ' 20 ' && ok batch_stat_last_paren || bad batch_stat_last_paren "$out"
j=$($prog --root "$T/tree" --json -n 1 -p 6666 2>&1)
printf '%s\n' "$j" | grep -q "$esc" && bad json_no_raw_escape || ok json_no_raw_escape
printf '%s\n' "$j" | grep -qF '"comm":"\u001b]0;pwned\u0007\u001b[2J\rx) (y' && ok json_name_escaped || bad json_name_escaped "$j"
# The invalid byte 0xff becomes U+FFFD, so the line stays valid UTF-8.
printf '%s\n' "$j" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 && ok json_valid_utf8 || bad json_valid_utf8

if command -v tmux >/dev/null; then
	tmux new-session -d -s h -x 120 -y 30 "TERM=tmux-256color $prog --root $T/tree; echo EXIT=\$?; sleep 20"
	i=0; while [ $i -lt 40 ] && ! tmux capture-pane -p -t h | grep -q F10Quit; do sleep 0.1; i=$((i+1)); done
	title=$(tmux display-message -p -t h '#{pane_title}')
	s=$(tmux capture-pane -p -t h)
	printf '%s\n' "$s" | grep -qF '\x1b]0;pwned' && ok tui_name_escaped || bad tui_name_escaped "$s"
	[ "$title" != pwned ] && ok tui_title_untouched || bad tui_title_untouched "$title"
	printf '%s\n' "$s" | grep -q 'F10Quit' && printf '%s\n' "$s" | grep -q '^N0 ' && ok tui_screen_intact || bad tui_screen_intact "$s"
	tmux send-keys -t h q
	sleep 0.5
	tmux capture-pane -p -t h | grep -q 'EXIT=0' && ok tui_hostile_quit || bad tui_hostile_quit
fi
