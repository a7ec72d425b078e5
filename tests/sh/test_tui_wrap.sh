#!/bin/sh
# No line of any screen wraps: every screen, heatmap layer, prompt and
# dialog at widths 40..250, in the C and a UTF-8 locale, on recorded trees
# (opteron4, an HMAT tree, 64 nodes), a replay and the live machine with a
# saved measurement (the measured layers, the dialogs that act).
#
# A terminal's screen cannot tell a wrap from a line that fills the width
# (tmux capture-pane -J joins both), so the monitor says it: under
# NUMATOP_TEST_WRAPS=FILE (ui/ui_out.c) each text write that passes the
# right edge or goes on in the row below is written to FILE, with each
# screen drawn ("frame WxH WHAT"). The walk (ptyrun: a terminal resized at
# once, where tmux passes a resize on every 250 ms at most) waits for the
# monitor to say it drew each screen at each width: a screen the walk did
# not reach is a failure too, not a pass.
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
FIX=${NUMATOP_FIXTURES:-../shared/fixtures/hwloc-linux}
. tests/sh/lib.sh
need bzip2 bzip2   # tar -xjf of the shared fixtures
need tput ncurses-bin
ptyrun=$BUILD/tests/helpers/ptyrun
[ -x "$ptyrun" ] || { bad tui_wrap "no $ptyrun (make $ptyrun)"; exit 1; }
T=$(mktemp -d)
trap '[ -n "${sleeper:-}" ] && kill "$sleeper" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
WIDTHS=${WRAP_WIDTHS:-40 41 57 80 100 120 133 160 200 250}
X=$T/xdg
mkdir -p "$X"

# The keys as the terminal (xterm-256color) sends them, for ptyrun's send.
TERM_W=xterm-256color
F2=$(tput -T $TERM_W kf2) F5=$(tput -T $TERM_W kf5) F6=$(tput -T $TERM_W kf6)
key() {
	case $1 in
	Escape) printf '\\e' ;; Tab) printf '\\t' ;; Enter) printf '\\r' ;;
	F2) printf '%s' "$F2" ;; F5) printf '%s' "$F5" ;; F6) printf '%s' "$F6" ;;
	'\') printf '\\\\' ;; *) printf '%s' "$1" ;;
	esac
}

# walk NAME HEIGHT LOCALE LAYERS KIND ARGS...: one monitor on a terminal
# of ptyrun's, every screen at every width (LAYERS: the heatmap's layers
# after SLIT; KIND live: the dialogs that act, replay: its time prompt);
# what the monitor said in $T/NAME.log, ptyrun's complaints in
# $T/NAME.miss. At each width: resized once, then every screen by keys,
# each step waiting for the monitor to say it drew that screen there.
walk() {
	name=$1 h=$2 loc=$3 layers=$4 live=0 replay=0; shift 4
	case $1 in live) live=1 ;; replay) replay=1 ;; esac; shift
	log=$T/$name.log
	: >"$log"
	{
		echo "log $log"
		echo "waitlog frame 250x$h Processes v0"
		for w in $WIDTHS; do
			# With a message in the status line (an action refused on a
			# tree or a replay; x on a process with nothing to fix). The
			# key after the resize also wakes a monitor that would see
			# the resize only when its wait is up (a SIGWINCH just before
			# it went to wait).
			echo "resize $w $h"
			[ "$live" = 1 ] && echo "send x" || echo "send m"
			echo "waitlog frame ${w}x$h Processes v0"
			steps | while IFS='|' read -r want keys; do
				# Esc alone: the monitor takes it as Esc, not as the
				# start of the next key's sequence.
				for k in $keys; do
					case $k in
					Escape) printf 'send %s\n' "$(key Escape)"; line= ;;
					*) line="${line:-send }$(key "$k")" ;;
					esac
				done
				[ -n "$line" ] && printf '%s\n' "$line"
				line=
				echo "waitlog frame ${w}x$h $want"
			done
		done
		echo "send q"
	} >"$T/$name.script"
	"$ptyrun" 250 "$h" "$T/$name.script" "$T/$name.out" -- env LC_ALL="$loc" LANG="$loc" \
		XDG_CACHE_HOME="$X" XDG_CONFIG_HOME="$(mktemp -d "$NUMATOP_TEST_CFG/cfg.XXXXXX")" \
		NUMATOP_TEST_WRAPS="$log" TERM=$TERM_W "$prog" "$@" >/dev/null 2>"$T/$name.miss"
	rc=$?
	[ $rc -eq 0 ] || echo "exit status $rc" >>"$T/$name.miss"
}

# The steps from the Processes screen back to it: SCREEN|KEYS (the
# screen as the monitor names it: its name, the heatmap layer, views,
# prompt, dialog). Esc and the next key go together: the monitor says
# only a screen that differs from the last one it drew.
steps() {
	p() { printf '%s\n' "$@"; }
	for l in $layers; do p "Processes v$l|v"; done
	# F5, not t: t steps a replay on.
	p "Processes v0 tree|${layers:+v }F5" "Processes v0 threads|F5 H" "Processes v0 search|H / x" \
	  "Processes v0 filter|Escape \\ x"
	[ "$replay" = 1 ] && p "Processes v0 time|Escape b 1"
	p "Nodes v0|Escape Tab" "Cgroups v0|Tab"
	[ "$live" = 1 ] && p "Cgroups v0 cgmove|m"
	p "Topology v0|Escape Tab" "Distances v0|Tab"
	for l in $layers; do p "Distances v$l|v"; done
	p "Process detail v0|${layers:+v }Tab Enter" "Help v0|Escape h" "Setup (F2) v0|Escape F2" \
	  "Sort menu (F6) v0|Escape F6"
	# The dialogs that act, on the walk's own process (-p): opened and
	# closed with Esc, never confirmed.
	[ "$live" = 1 ] && p "Signal dialog (F9) v0|Escape k" "Migrate / bind dialog (F7 F8) v0|Escape m" \
	  "Measure dialog (L) v0|Escape L" "Migrate / bind dialog (F7 F8) v0|Escape B"
	p "Processes v0|Escape"
}

# The trees: opteron4 (4 nodes), fakeheteromemtiers (HMAT bandwidth,
# memory-only nodes), 64 nodes (panels in columns, the heatmap summary), a
# recording of opteron4 (the replay's title and keys).
# (64 nodes: 3 s of making files, while the other walks begin.)
sh tests/trees/gen_many_nodes.sh "$T/m64" >/dev/null &
gen=$!
"$prog" --root tests/trees/opteron4 -w "$T/rec.zst" -d 0.2 -n 3 >/dev/null 2>&1 ||
	bad tui_wrap_recording "could not record opteron4"
hmat=
if [ -f "$FIX/fakeheteromemtiers.tar.bz2" ]; then
	mkdir "$T/fh" && tar -xjf "$FIX/fakeheteromemtiers.tar.bz2" -C "$T/fh" && hmat=$T/fh/fakeheteromemtiers
	# It has no processes: opteron4's (the table, the detail).
	mkdir -p "$hmat/proc" && cp -r tests/trees/opteron4/proc/1000 tests/trees/opteron4/proc/2000 "$hmat/proc/"
fi
# The live machine: a saved measurement gives the measured latency and
# bandwidth layers; the table shows only a process of the test's own.
XDG_CACHE_HOME=$X "$prog" --measure-quick >/dev/null 2>&1 || bad tui_wrap_measure "--measure-quick failed"
sleep 600 &
sleeper=$!

# The walks side by side; -C: no colours (the heatmap legend is digits
# then). WRAP_ONLY="NAME ...": only those walks; KEEP=1: $T is kept (to
# look into one).
pids=
run() {
	case " ${WRAP_ONLY:-$1} " in *" $1 "*) walk "$@" & pids="$pids $!" ;; esac
}
run opteron4-utf8 40 C.UTF-8 "" tree --root tests/trees/opteron4 -d 5
run opteron4-c 24 C "" tree -C --root tests/trees/opteron4 -d 5
run replay-c 24 C "" replay -C --replay "$T/rec.zst"
run live-utf8 40 C.UTF-8 "1 2" live -p "$sleeper" -d 5
run live-c 24 C "1 2" live -C -p "$sleeper" -d 5
if [ -n "$hmat" ]; then
	run hmat-utf8 40 C.UTF-8 4 tree --root "$hmat" -d 5
	run hmat-c 24 C 4 tree -C --root "$hmat" -d 5
fi
wait "$gen" || bad tui_wrap_m64 "gen_many_nodes.sh failed"
run m64-utf8 30 C.UTF-8 "" tree --root "$T/m64" -d 5
# shellcheck disable=SC2086 # the PIDs, one word each
[ -z "$pids" ] || wait $pids
[ -n "$hmat" ] || echo "SKIP tui_wrap_hmat: fixtures not present at $FIX"

for log in "$T"/*.log; do
	name=$(basename "$log" .log)
	frames=$(grep -c '^frame ' "$log")
	if [ -s "$T/$name.miss" ]; then
		bad "tui_wrap_walk_$name" "$(cat "$T/$name.miss"; tail -5 "$log")"
	elif grep -q '^wrap ' "$log"; then
		bad "tui_no_wrap_$name ($frames screens)" "$(grep '^wrap ' "$log" | head -20)"
	else
		ok "tui_no_wrap_$name ($frames screens)"
	fi
done
