#!/bin/sh
# Hostile process names (ESC/OSC sequences, CR/LF, ')' and spaces, invalid
# UTF-8, right-to-left override) on a copy of the Opteron tree and in live
# processes (comm set with prctl, hostile arguments): batch text and the
# monitor show them escaped, JSON escapes them, the terminal (tmux pane
# title, cursor, alternate screen) is untouched.
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
. tests/sh/lib.sh
need tmux tmux
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; [ -n "$NP" ] && kill $NP 2>/dev/null; rm -rf "$T"' EXIT
tui_init
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

# run NAME CMD...: stdout to $T/NAME.out; PASS only with exit status 0 and
# nothing on stderr (a sanitizer report would be there).
run() {
	n=$1; shift
	"$@" >"$T/$n.out" 2>"$T/$n.err"; rc=$?
	[ $rc -eq 0 ] && [ ! -s "$T/$n.err" ] && ok "${n}_clean_exit" || bad "${n}_clean_exit" "rc=$rc $(cat "$T/$n.err")"
}
run batch $prog --root "$T/tree" -b -n 1 -p 6666
out=$(cat "$T/batch.out")
printf '%s\n' "$out" | grep -q "$esc" && bad batch_no_raw_escape "$(printf '%s' "$out" | od -c | head)" || ok batch_no_raw_escape
printf '%s\n' "$out" | grep -qF '\x1b]0;pwned\x07\x1b[2J\x0dx) (y \u202eexe\xff' && ok batch_name_escaped \
	|| bad batch_name_escaped "$(printf '%s\n' "$out" | tail -2)"
# Fields after the last ')': state S, ppid 1, utime+stime 10 ticks, RSS
# 10 pages = 40 kB. With the first ')' the row would be unparsable.
row=$(printf '%s\n' "$out" | grep -E '^ +6666 ')
printf '%s\n' "$row" | awk '{exit !($5 == 40)}' && ok batch_stat_last_paren || bad batch_stat_last_paren "$out"
run json $prog --root "$T/tree" --json -n 1 -p 6666
j=$(cat "$T/json.out")
printf '%s\n' "$j" | grep -q '"ppid":1,' && printf '%s\n' "$j" | grep -q '"state":"S"' &&
	ok json_stat_last_paren || bad json_stat_last_paren "$j"

printf '%s\n' "$j" | grep -q "$esc" && bad json_no_raw_escape || ok json_no_raw_escape
printf '%s\n' "$j" | grep -qF '"comm":"\u001b]0;pwned\u0007\u001b[2J\rx) (y' && ok json_name_escaped || bad json_name_escaped "$j"
# The invalid byte 0xff becomes U+FFFD, so the line stays valid UTF-8.
printf '%s\n' "$j" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 && ok json_valid_utf8 || bad json_valid_utf8

# Live processes: the comm comes from libproc2, which escapes bytes its own
# way ('.' and '?'); the output must still show the kernel's bytes.
NAMER=$BUILD/tests/helpers/namer
if [ -x "$NAMER" ]; then
	lname=$(printf '\033]0;pw\007) (\n\342\200\256\377')
	larg=$(printf 'arg\033[2J\r\nnext\342\200\256\377')
	"$NAMER" "$lname" "$larg" >"$T/namer.out" 2>&1 &
	NP=$!
	i=0; while [ $i -lt 50 ] && ! grep -q ready "$T/namer.out"; do sleep 0.1; i=$((i+1)); done
	for be in "" --proc-files; do
		tag=live${be:+_files}
		run "${tag}_batch" $prog $be -b -n 1 -p $NP
		lo=$(cat "$T/${tag}_batch.out")
		printf '%s\n' "$lo" | grep -q "$esc" && bad "${tag}_batch_no_raw_escape" || ok "${tag}_batch_no_raw_escape"
		printf '%s\n' "$lo" | grep -E "^ +$NP " | grep -qF '\x1b]0;pw\x07) (\x0a\u202e\xff' &&
			ok "${tag}_batch_comm_escaped" || bad "${tag}_batch_comm_escaped" "$lo"
		run "${tag}_json" $prog $be --json -n 1 -p $NP
		lj=$(cat "$T/${tag}_json.out")
		printf '%s\n' "$lj" | grep -q "$esc" && bad "${tag}_json_no_raw_escape" || ok "${tag}_json_no_raw_escape"
		# Control bytes as JSON escapes; U+202E is valid UTF-8 and kept as
		# is (JSON needs no escape for it); the invalid 0xff is U+FFFD.
		printf '%s\n' "$lj" | grep -qF "$(printf '"comm":"\\u001b]0;pw\\u0007) (\\n\342\200\256\357\277\275"')" &&
			ok "${tag}_json_comm_escaped" || bad "${tag}_json_comm_escaped" "$lj"
		printf '%s\n' "$lj" | grep -qF 'arg\u001b[2J\r\nnext' &&
			ok "${tag}_json_cmdline_escaped" || bad "${tag}_json_cmdline_escaped" "$lj"
		printf '%s\n' "$lj" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 && ok "${tag}_json_valid_utf8" || bad "${tag}_json_valid_utf8"
	done
else
	echo "SKIP live_hostile: $NAMER not built"
fi

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
	if [ -n "$NP" ]; then
		# The live process in the monitor: its command line holds the same
		# bytes as its comm, plus ESC [2J and CR LF.
		tmux new-session -d -s l -x 160 -y 30 "TERM=tmux-256color $prog -p $NP; echo EXIT=\$?; sleep 20"
		i=0; while [ $i -lt 40 ] && ! tmux capture-pane -p -t l | grep -q F10Quit; do sleep 0.1; i=$((i+1)); done
		s=$(tmux capture-pane -p -t l)
		printf '%s\n' "$s" | grep -F "$NP" | grep -qF '\x1b]0;pw\x07) (\x0a\u202e\xff arg\x1b[2J\x0d\x0anext' &&
			ok tui_live_cmdline_escaped || bad tui_live_cmdline_escaped "$s"
		title=$(tmux display-message -p -t l '#{pane_title}')
		[ "$title" != pw ] && ok tui_live_title_untouched || bad tui_live_title_untouched "$title"
		tmux send-keys -t l q
		i=0; while [ $i -lt 40 ] && ! tmux capture-pane -p -t l | grep -q 'EXIT=0'; do sleep 0.1; i=$((i+1)); done
		st=$(tmux display-message -p -t l '#{alternate_on} #{cursor_flag} #{pane_title}')
		tmux capture-pane -p -t l | grep -q 'EXIT=0' && [ "${st%% *}" = 0 ] && [ "$(echo "$st" | cut -d' ' -f2)" = 1 ] &&
			ok tui_live_terminal_restored || bad tui_live_terminal_restored "$st"
	fi
fi
