#!/bin/sh
# The screen that leads to the culprit, at 80x24 and 120x40 in tmux:
#  - the status line: its fields first (the tasks, [PAUSED], the filter,
#    the interval, the tool's CPU, the heat), a warning in short ("2
#    unreadable: run as root"), whole fields only; the warning's whole
#    text in F1 Help and the detail; as root (without the file-reading
#    capabilities: "even as root") and as nobody, over a tree whose
#    numa_maps files are mode 000;
#  - the Nodes screen's header and lines in whole words;
#  - once heat is known (a recorded DAMON state): sorted by HOTREM, said
#    by the header's mark, the per-node kB columns kept (not blocks);
#  - the issue's "send-keys S-Tab" (tmux types S - T a b: Setup, then
#    letters) and Esc from Setup write no settings file; columns the
#    monitor added for the heat are never written, so a run with
#    --access off after a change in Setup shows no heat columns.
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
. tests/sh/lib.sh
need tmux tmux
need setpriv util-linux
[ "$(id -u)" = 0 ] || { echo "SKIP tui_culprit: needs root (setpriv)"; exit 0; }
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
chmod 755 "$T"
tui_init
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
# nobody must be able to run it (a private copy otherwise).
setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$prog" 2>/dev/null ||
	{ cp "$prog" "$T/numatop-tui" && chmod 755 "$T/numatop-tui" && prog=$T/numatop-tui; }

# Two of the four processes' numa_maps unreadable without the right to
# read any file.
cp -r "$TREE" "$T/np"
chmod -R a+rX "$T/np"
chmod 000 "$T/np/proc/1000/numa_maps" "$T/np/proc/2000/numa_maps"
ROOT_NOCAP="setpriv --bounding-set=-dac_override,-dac_read_search"
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

status() { screen | grep '^Tasks' | sed 's/ *$//'; }
# ended: the monitor of session $S has quit (its session is gone), 10 s at
# most: its settings file is written by then, or never.
ended() {
	k=100
	while [ $k -gt 0 ] && tmux has-session -t "$S" 2>/dev/null; do sleep 0.1; k=$((k - 1)); done
}
# whole LINE: what is left of the status line after each field it may
# show, whole; empty when nothing was cut inside a word.
whole() {
	printf '%s\n' "$1" | sed -E 's/^Tasks: ([0-9]+ shown of [0-9]+|[0-9]+\/[0-9]+)//
		s/  \[PAUSED\]//; s/  filter: [^ ]+//; s/  (interval|every) [0-9.]+s//
		s/  (tool CPU|self) [0-9.-]+%//
		s/  heat: (no DAMON in this kernel|none|DAMON [0-9]+\/[0-9]+)//
		s/  [0-9]+ unreadable( even as root|: run as root)?//
		s/  [0-9]+ warnings?( \(Tab: Nodes\))?//; s/  age [0-9.]+s//
		s/  (placement read for [0-9]+ of [0-9]+|read [0-9]+\/[0-9]+)//
		s/  numa_maps [0-9]+ read [0-9]+ sampled [0-9]+ms//
		s/  [0-9]+ (kernel threads hidden \(K\)|kthreads hidden)//'
}

for who in root nobody; do
	if [ $who = root ]; then run=$ROOT_NOCAP short="2 unreadable" long=" even as root"
	else run=$NOBODY short="2 unreadable" long=": run as root"; fi
	for size in "80 24" "120 40"; do
		set -- $size
		tag=${who}_$1
		tui_start "$1" "$2" "XDG_CONFIG_HOME=$T/cfg-$tag $run $prog --root $T/np -d 1"
		keys F4 d b Enter
		keys Z
		wait_for '[PAUSED]' 30
		s=$(status)
		left=$(whole "$s")
		case $s in
		*"[PAUSED]"*"filter: db"*"s"*"heat: "*"$short"*) [ -z "$left" ] && ok "status_fields_$tag" ||
			bad "status_fields_$tag" "cut: '$left' in: $s" ;;
		*) bad "status_fields_$tag" "$s" ;;
		esac
		# The interval and the tool's CPU, in one form or the other.
		printf '%s\n' "$s" | grep -Eq '  (interval|every) 1\.0s  (tool CPU|self) [0-9.-]+%' &&
			ok "status_interval_cpu_$tag" || bad "status_interval_cpu_$tag" "$s"
		[ "$1" = 120 ] && { printf '%s\n' "$s" | grep -q "2 unreadable$long" &&
			ok "status_warning_long_$tag" || bad "status_warning_long_$tag" "$s"; }
		keys q
	done
	# The whole text: F1 Help and the detail of an unreadable process.
	tui_start 120 40 "XDG_CONFIG_HOME=$T/cfg-$who $run $prog --root $T/np -d 1"
	keys F1
	wait_for 'Warnings now' 50
	if [ $who = root ]; then full="2 of 4 processes not readable even as root (more privileged than this program, or in another user namespace)"
	else full="2 of 4 processes not readable: run as root or with CAP_SYS_PTRACE"; fi
	screen | grep -qF "$full" && ok "help_warning_whole_$who" || bad "help_warning_whole_$who" "$(screen | head -6)"
	keys Escape
	keys F3 d b s e r v e r Enter
	keys Enter
	wait_for 'numa_maps: not readable' 50
	if [ $who = root ]; then want="numa_maps: not readable even as root (more privileged than this program, or in"
	else want="numa_maps: not readable: run as root or with CAP_SYS_PTRACE"; fi
	screen | grep -qF "$want" && ok "detail_warning_whole_$who" ||
		bad "detail_warning_whole_$who" "$(screen | grep -n 'numa_maps\|PID' | head -5)"
	keys Escape q
done

# The Nodes screen: its header is whole columns, its lines whole words.
for size in "80 24" "120 40"; do
	set -- $size
	tui_start "$1" "$2" "XDG_CONFIG_HOME=$T/cfg-n $prog --root $TREE -d 1"
	keys Tab
	wait_for TOTAL_kB 30
	h=$(screen | grep 'TOTAL_kB' | sed 's/ *$//')
	left=$(printf '%s\n' "$h" | sed -E 's/ (NODE|TOTAL_kB|FREE_kB|FILE_kB|ANON_kB|SHMEM_kB|numa_hit|miss|foreign|other|hit\/s|miss\/s|other\/s)( |$)/ /g; s/ +//g')
	[ -z "$left" ] && printf '%s\n' "$h" | grep -q 'hit/s' && ok "nodes_header_whole_$1" ||
		bad "nodes_header_whole_$1" "left '$left' of: $h"
	b=$(screen | sed -n '/^numa balancing:/,/^memory tiers:/p' | tr '\n' ' ')
	case $b in
	*"demoted - kswapd, - direct"*) ok "nodes_balancing_whole_$1" ;;
	*) bad "nodes_balancing_whole_$1" "$b" ;;
	esac
	# Shift-Tab (tmux's BTab, the terminal's \e[Z): back to Processes,
	# then to the last screen (Distances); never Setup.
	keys BTab
	wait_for 'REMOTE' 30
	s1=$(screen)
	keys BTab
	k=30; while [ $k -gt 0 ] && screen | grep -Eq '^ +PID +USER'; do sleep 0.1; k=$((k - 1)); done
	s2=$(screen)
	if printf '%s\n' "$s1" | grep -Eq '^ +PID +USER' && printf '%s\n' "$s2" | grep -q 'Distances (SLIT)' &&
		! printf '%s\n' "$s2" | grep -Eq '^ +PID +USER' &&
		! printf '%s\n%s\n' "$s1" "$s2" | grep -q 'Active columns'; then ok "shift_tab_previous_$1"
	else bad "shift_tab_previous_$1" "$(printf '%s\n' "$s1" | head -3) / $(printf '%s\n' "$s2" | head -3)"; fi
	keys q
done

# Heat known: sorted by HOTREM (the header's mark), per-node columns kept.
. tests/sh/damon_tree.sh
cp -r "$TREE" "$T/dm"
damon_tree "$T/dm"
tui_start 120 40 "XDG_CONFIG_HOME=$T/cfg-h $prog --root $T/dm -d 1"
wait_for 'HOTREM' 30
hdr=$(screen | grep ' PID ')
case $hdr in
*" N0 "*" N3 "*"HOTREMv"*) ok heat_sort_and_node_columns_120 ;;
*) bad heat_sort_and_node_columns_120 "$hdr" ;;
esac
# 1000 (32 MiB hot remote) first, 2000 (none) next.
screen | grep -E '^ +[0-9]+ +[a-z]' | awk '{ print $1 }' | head -2 | tr '\n' ' ' | grep -q '^1000 2000 $' &&
	ok heat_sort_rows || bad heat_sort_rows "$(screen | grep -E '^ +[0-9]+ ')"
# A sort key is the user's: R goes back to REMOTE.
keys R
wait_for 'REMOTEv' 50
screen | grep ' PID ' | grep -q 'REMOTEv' && ok heat_sort_key_wins || bad heat_sort_key_wins "$(screen | grep ' PID ')"
keys q
tui_start 80 24 "XDG_CONFIG_HOME=$T/cfg-h $prog --root $T/dm -d 1"
wait_for 'HOTREM' 30
screen | grep ' PID ' | grep -q 'HOTREMv' && ok heat_sort_80 || bad heat_sort_80 "$(screen | grep ' PID ')"
keys q
ended
# None of this was a change of settings (R chose REMOTE, as the file's
# default already is): nothing written.
[ ! -e "$T/cfg-h/numatop-tui/numatop-tuirc" ] && ok heat_default_not_saved ||
	bad heat_default_not_saved "$(cat "$T/cfg-h/numatop-tui/numatop-tuirc")"

# "tmux send-keys S-Tab" types S - T a b: Setup opens, then Esc. Nothing
# is written.
tui_start 120 40 "XDG_CONFIG_HOME=$T/cfg-s $prog --root $T/dm -d 1"
wait_for 'HOTREM' 30
keys S - T a b
keys Escape
keys q
ended
[ ! -e "$T/cfg-s/numatop-tui/numatop-tuirc" ] && ok setup_esc_writes_nothing ||
	bad setup_esc_writes_nothing "$(cat "$T/cfg-s/numatop-tui/numatop-tuirc")"
# A real change in Setup (THR added): written, without the heat's columns;
# then with --access off no heat column shows.
tui_start 120 40 "XDG_CONFIG_HOME=$T/cfg-s $prog --root $T/dm -d 1"
wait_for 'HOTREM' 30
keys F2 Right
# the first available column, added after the first active one
keys Enter
keys Escape
keys q
ended
f="$T/cfg-s/numatop-tui/numatop-tuirc"
if [ -e "$f" ] && grep -q '^columns=' "$f" && ! grep -q 'HOT' "$f"; then ok setup_change_saved_without_heat_columns
else bad setup_change_saved_without_heat_columns "$(cat "$f" 2>&1)"; fi
tui_start 120 40 "XDG_CONFIG_HOME=$T/cfg-s $prog --root $T/dm --access off -d 1"
wait_for 'REMOTE' 30
screen | grep ' PID ' | grep -q 'HOT' && bad access_off_no_heat_columns "$(screen | grep ' PID ')" ||
	ok access_off_no_heat_columns
keys q

# Replay: t between samples less than a second apart moves visibly (the
# title says the sample's number).
mkdir "$T/rq"
"$PROG" --root "$TREE" -w "$T/rq/numatop-tui_20260101.zst" -d 0.2 -n 3 >/dev/null 2>&1
tui_start 120 40 "XDG_CONFIG_HOME=$T/cfg-r $prog --replay $T/rq"
t1=$(screen | head -1)
keys t
wait_for 'sample 2 ' 30
t2=$(screen | head -1)
keys t
wait_for 'sample 3 ' 30
t3=$(screen | head -1)
case "$t1|$t2|$t3" in
*"sample 1 "*"|"*"sample 2 "*"|"*"sample 3 "*) ok replay_t_moves_visibly ;;
*) bad replay_t_moves_visibly "$t1 / $t2 / $t3" ;;
esac
keys q
