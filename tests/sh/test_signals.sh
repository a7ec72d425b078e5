#!/bin/sh
# Signals and the terminal. The monitor in tmux survives a storm of SIGWINCH
# and window resizes, then on a fresh instance each of SIGHUP, SIGTERM,
# SIGINT and Ctrl-C ends it with status 0 (ui/ui_main.c: the handlers set a
# flag, the loop ends, endwin) and the pane is restored: stty shows icanon
# and echo, the alternate screen is left, the cursor is visible, keypad and
# mouse modes are off. Batch mode: `| head -1` ends it with status 0 and
# nothing on stderr (src/batch.c: EPIPE is a clean end), and storms of
# SIGWINCH (ignored) and SIGHUP/SIGTERM/SIGINT (stop after the current
# sample) leave well formed output.
# The other signals that end a process (SIGUSR1, SIGALRM, ... and, outside
# sanitized builds, a crash: SIGSEGV): the monitor restores the terminal the
# same way, then dies of the signal (status 128 + the signal).
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
. tests/sh/lib.sh
need tmux tmux
T=$(mktemp -d)
export TMUX_TMPDIR="$T"
bpids=""
cleanup() {
	for p in $bpids; do kill "$p" 2>/dev/null; done
	tmux kill-server 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
tree=$(pwd)/$TREE

# One complete JSON object per line (python3, else jq, else the shape).
json_lines_ok() {
	if python3 -c 'import json' 2>/dev/null; then
		python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    d = json.loads(line); n += 1
    assert isinstance(d, dict) and isinstance(d["processes"], list), "not a sample"
print(n)' "$1" 2>&1
	elif command -v jq >/dev/null; then
		n=0
		while IFS= read -r l; do
			printf '%s\n' "$l" | jq -e 'type == "object" and (.processes | type) == "array"' >/dev/null 2>&1 \
				|| { echo "line $((n + 1)) does not parse"; return 1; }
			n=$((n + 1))
		done <"$1"
		echo "$n"
	else
		n=$(wc -l <"$1")
		[ "$(grep -c '^{"timestamp":.*"processes":\[.*\]}$' "$1")" -eq "$n" ] || { echo "broken lines"; return 1; }
		echo "$n"
	fi
}
# Every text sample complete: its table has as many rows as its header says.
text_samples_ok() {
	awk '/^numatop-tui / { if (t) bad++; n++; t = 0 }
	     /^nodes [0-9]+ / { for (i = 3; i < NF; i++) if ($i == "processes") want = $(i + 1) }
	     /^ +PID USER/ { t = 1; rows = 0; next }
	     t && /^$/ { if (rows != want) bad++; t = 0; done++ }
	     t { rows++ }
	     END { if (t || bad || n == 0 || done != n) { print "incomplete samples: " n " started, " done " complete"; exit 1 }; print n }' "$1"
}

if command -v tmux >/dev/null; then
	# The pane: the wrapper ignores SIGINT (Ctrl-C reaches the whole
	# foreground group) so that it can report the program's exit status,
	# then stty -a on the same terminal.
	cat >"$T/pane.sh" <<'EOF'
tag=$1; dir=$2; shift 2
trap '' INT
ulimit -c 0
sh -c 'echo $$ >"$0"; exec "$@"' "$dir/pid.$tag" "$@"
echo "EXIT=$?"
stty -a >"$dir/stty.$tag" 2>&1
echo STTY_DONE
sleep 60
EOF
	# A session that outlives the others: killing the last session makes
	# the server exit, which races with the next new-session.
	tmux new-session -d -s keep -x 80 -y 24 "sleep 600"
	F='alt=#{alternate_on} cursor=#{cursor_flag} keypad=#{keypad_cursor_flag}#{keypad_flag} mouse=#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}'
	screen() { tmux capture-pane -p -t "$1"; }
	wait_for() { # wait_for SESSION TEXT [tenths]
		n=${3:-30}
		while [ "$n" -gt 0 ]; do screen "$1" | grep -qF -- "$2" && return 0; sleep 0.1; n=$((n - 1)); done
		return 1
	}
	for how in HUP TERM INT ctrl-c; do
		s=sig-$how
		tmux new-session -d -s "$s" -x 120 -y 40 "TERM=tmux-256color sh $T/pane.sh $how $T $prog --root $tree -d 0.2"
		if ! wait_for "$s" F10Quit 50; then bad "tui_${how}_starts" "$(screen "$s")"; continue; fi
		pid=$(cat "$T/pid.$how")
		running=$(tmux display -p -t "$s" "$F")
		# Storm: 200 SIGWINCH, a resize every 20, while sampling every 0.2 s.
		i=0
		for size in 80x24 132x43 60x20 200x60 100x30 81x25 40x12 120x40 90x50 120x40; do
			tmux resize-window -t "$s" -x "${size%x*}" -y "${size#*x}" 2>/dev/null
			j=0; while [ $j -lt 20 ]; do kill -WINCH "$pid" 2>/dev/null; j=$((j + 1)); done
			i=$((i + 20))
		done
		sleep 0.5
		last=$(screen "$s" | sed -n '40p')
		if kill -0 "$pid" 2>/dev/null && printf '%s\n' "$last" | grep -q F10Quit && screen "$s" | grep -Eq 'PID. USER'; then
			ok "tui_${how}_winch_storm_survived ($i signals, 10 resizes)"
		else
			bad "tui_${how}_winch_storm_survived" "$(screen "$s")"
		fi
		case $how in
			ctrl-c) tmux send-keys -t "$s" C-c ;;
			# A storm of the ending signal too: the handler may run many
			# times while the terminal is being restored.
			*) j=0; while [ $j -lt 50 ]; do kill -"$how" "$pid" 2>/dev/null; j=$((j + 1)); done ;;
		esac
		wait_for "$s" STTY_DONE 50
		st=$(screen "$s" | sed -n 's/^EXIT=//p')
		[ "$st" = 0 ] && ok "tui_${how}_exit_status" || bad "tui_${how}_exit_status" "EXIT=$st; $(screen "$s" | grep -v '^$' | tail -5)"
		stt=$(tr '\n' ' ' <"$T/stty.$how" 2>/dev/null)
		printf ' %s ' "$stt" | grep -q ' icanon ' && printf ' %s ' "$stt" | grep -q ' echo ' \
			&& ok "tui_${how}_stty_restored" || bad "tui_${how}_stty_restored" "$stt"
		after=$(tmux display -p -t "$s" "$F")
		case "$running" in
			"alt=1 cursor=0 "*) ;;
			*) bad "tui_${how}_modes_seen_while_running" "$running (expected the alternate screen and a hidden cursor)" ;;
		esac
		[ "$after" = "alt=0 cursor=1 keypad=00 mouse=000" ] && ok "tui_${how}_screen_cursor_mouse_restored" \
			|| bad "tui_${how}_screen_cursor_mouse_restored" "after exit: $after (while running: $running)"
		tmux kill-session -t "$s" 2>/dev/null
	done
	# Signals that end the program by default: the terminal restored, then
	# the program dies of the signal. The crash handlers are compiled out
	# of sanitized builds (the sanitizers report crashes themselves).
	sanitized=0
	LC_ALL=C grep -qaE '__asan_init|__ubsan_handle' "$prog" && sanitized=1
	for sig in USR1 ALRM PWR SEGV; do
		s=die-$sig
		if [ $sig = SEGV ] && [ $sanitized = 1 ]; then
			echo "SKIP tui_${sig}_terminal_restored: sanitized build (the crash handler is compiled out)"
			continue
		fi
		tmux new-session -d -s "$s" -x 100 -y 30 "TERM=tmux-256color sh $T/pane.sh $sig $T $prog --root $tree -d 0.5"
		if ! wait_for "$s" F10Quit 50; then bad "tui_${sig}_starts" "$(screen "$s")"; continue; fi
		pid=$(cat "$T/pid.$sig")
		running=$(tmux display -p -t "$s" "$F")
		kill -"$sig" "$pid"
		wait_for "$s" STTY_DONE 50
		st=$(screen "$s" | sed -n 's/^EXIT=//p')
		[ -n "$st" ] && [ "$(kill -l "$st" 2>/dev/null)" = "$sig" ] && ok "tui_${sig}_dies_of_it" \
			|| bad "tui_${sig}_dies_of_it" "EXIT=$st (want 128 + SIG$sig); $(screen "$s" | grep -v '^$' | tail -5)"
		stt=$(tr '\n' ' ' <"$T/stty.$sig" 2>/dev/null)
		after=$(tmux display -p -t "$s" "$F")
		case "$running" in
			"alt=1 cursor=0 "*) ;;
			*) bad "tui_${sig}_modes_seen_while_running" "$running (expected the alternate screen and a hidden cursor)" ;;
		esac
		if printf ' %s ' "$stt" | grep -q ' icanon ' && printf ' %s ' "$stt" | grep -q ' echo ' \
			&& [ "$after" = "alt=0 cursor=1 keypad=00 mouse=000" ]; then
			ok "tui_${sig}_terminal_restored"
		else
			bad "tui_${sig}_terminal_restored" "after: $after (while running: $running); stty: $(printf '%s' "$stt" | grep -oE -- '-?(icanon|echo)( |$)' | tr -d '\n')"
		fi
		tmux kill-session -t "$s" 2>/dev/null
	done
else
	echo "SKIP tui_signals: tmux not installed"
fi

# stopped PID: wait until PID has exited (a hang guard, 15 s, not a timing
# assertion); then reap it and leave its status in $rc. 1 if it hung.
stopped() {
	n=150
	while [ $n -gt 0 ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null || echo gone)" != Z ] && kill -0 "$1" 2>/dev/null; do
		sleep 0.1; n=$((n - 1))
	done
	hung=0; [ $n -eq 0 ] && { hung=1; kill -KILL "$1" 2>/dev/null; }
	wait "$1"; rc=$?; bpids=""
	return $hung
}

# Batch: the reader goes away after one line.
for mode in -b --json; do
	{ timeout 30 "$prog" $mode 2>"$T/head.err"; echo $? >"$T/head.rc"; } | head -1 >"$T/head.out"
	rc=$(cat "$T/head.rc")
	if [ "$rc" = 0 ] && [ ! -s "$T/head.err" ] && [ -s "$T/head.out" ]; then ok "batch_head_1_clean$mode"
	else bad "batch_head_1_clean$mode" "status $rc$([ "$rc" = 124 ] && echo ' (still running after 30 s)'); stderr: $(head -3 "$T/head.err")"; fi
done
# Cut in the middle of a sample, with a large snapshot (the whole tree).
{ timeout 30 "$prog" --root "$tree" --json -d 0.1 2>"$T/head.err"; echo $? >"$T/head.rc"; } | head -c 100 >/dev/null
rc=$(cat "$T/head.rc")
[ "$rc" = 0 ] && [ ! -s "$T/head.err" ] && ok batch_head_c_mid_sample_clean || bad batch_head_c_mid_sample_clean "status $rc; $(head -3 "$T/head.err")"

# Batch under SIGWINCH: ignored, every sample there and whole.
"$prog" --json -n 20 -d 0.1 >"$T/w.out" 2>"$T/w.err" & p=$!; bpids=$p
i=0; while [ $i -lt 200 ] && kill -WINCH $p 2>/dev/null; do i=$((i + 1)); [ $((i % 50)) -eq 0 ] && sleep 0.2; done
stopped $p || echo "    (still running 15 s after the storm: killed)"
n=$(json_lines_ok "$T/w.out")
[ $rc -eq 0 ] && [ ! -s "$T/w.err" ] && [ "$n" = 20 ] && ok "batch_winch_storm ($i signals)" \
	|| bad batch_winch_storm "status $rc, samples '$n' (want 20), stderr: $(head -3 "$T/w.err")"

# Batch stop signals, as storms: exit 0, nothing on stderr, the output
# ends with a whole sample.
for spec in HUP:-b TERM:--json INT:--proc-files_-b HUP:--json; do
	sig=${spec%%:*}; args=$(echo "${spec#*:}" | tr _ ' ')
	# shellcheck disable=SC2086
	"$prog" $args -d 0.2 >"$T/s.out" 2>"$T/s.err" & p=$!; bpids=$p
	n=0; while [ $n -lt 30 ] && [ ! -s "$T/s.out" ]; do sleep 0.1; n=$((n + 1)); done
	sleep 0.3
	i=0; while [ $i -lt 50 ] && kill -"$sig" $p 2>/dev/null; do i=$((i + 1)); done
	stopped $p || echo "    (still running 15 s after 50 SIG$sig: killed)"
	case "$args" in *json*) n=$(json_lines_ok "$T/s.out") ;; *) n=$(text_samples_ok "$T/s.out") ;; esac; v=$?
	name="batch_${sig}_storm_$(echo "$args" | tr -d ' -')"
	[ $rc -eq 0 ] && [ ! -s "$T/s.err" ] && [ $v -eq 0 ] && ok "$name ($n whole samples)" \
		|| bad "$name" "status $rc ($i signals), check: $n, stderr: $(head -3 "$T/s.err")"
done
