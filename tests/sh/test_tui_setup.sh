#!/bin/sh
# The monitor's column table and first-look keys in tmux: -o, F2 Setup
# (add, remove, reorder, reset), the function-key bar from the key table
# (F7 Migrate, F8 Bind), K for kernel threads, and F7 opening the migrate
# dialog on the process's HOME node.
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
. tests/sh/lib.sh
need tmux tmux
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
unset NUMATOP_TUI_ROOT
tui_init
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
start() { # start WIDTH HEIGHT ARGS...
	w=$1; h=$2; shift 2
	tui_start "$w" "$h" "TERM=tmux-256color $prog $*; echo EXIT=\$?; sleep 30"
}
# The table's header line, blanks squeezed.
hdr() { screen | grep -E '^ *(PID|USER|COMMAND)' | head -1 | tr -s ' ' | sed 's/^ //; s/ $//'; }

# --- -o in the monitor -----------------------------------------------------
start 120 30 --root $TREE -o pid,comm,remote,policy
[ "$(hdr)" = "PID COMMAND REMOTEv POLICY" ] && screen | grep -Eq '^ +1000 /usr/sbin/dbser\+ +57\.1M mixed: default' &&
	ok tui_o_columns || bad tui_o_columns "$(hdr) / $(screen | grep 1000)"
# The function-key bar: generated from the key table, F7/F8 the actions.
screen | tail -1 | grep -q '^F1Help F2Setup F3Search F4Filter F5Tree F6SortBy F7Migrate F8Bind F9Kill F10Quit' &&
	ok tui_fkey_bar || bad tui_fkey_bar "$(screen | tail -1)"

# --- F2 Setup ----------------------------------------------------------------
start 120 30 --root $TREE
before=$(hdr)
keys F2
s=$(screen)
echo "$s" | grep -q 'Active columns' && echo "$s" | grep -q 'Available columns' &&
	echo "$s" | grep -Eq 'POLICY +memory policy' && ok tui_setup_opens || bad tui_setup_opens "$s"
# Remove the first active column (PID), then add POLICY after the cursor.
keys Delete
keys Right
# Available: PID RACC% HOT HOTREM HOTREM% TIME THR AGE CGROUP POLICY (table order): POLICY is the tenth.
keys Down Down Down Down Down Down Down Down Down
keys Enter
keys Escape
after=$(hdr)
# (At 120 columns POLICY leaves COMMAND under 20: WHY gives way to the
# per-node columns, which stay whole.)
[ "$after" = "USER POLICY HOME CPU% RSS N0 N1 N2 N3 REMOTEv REMOTE% COMMAND" ] &&
	ok tui_setup_remove_add || bad tui_setup_remove_add "before: $before / after: $after"
# Move COMMAND up to the front with ] / [ and reset with r.
keys F2
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do keys Down; done
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do keys '['; done
keys Escape
hdr | grep -q '^COMMAND USER POLICY' && ok tui_setup_move || bad tui_setup_move "$(hdr)"
keys F2 r Escape
[ "$(hdr)" = "$before" ] && ok tui_setup_reset || bad tui_setup_reset "want $before, got $(hdr)"
# The table keeps one column at least.
keys F2
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do keys Delete; done
keys Escape
[ "$(hdr)" = "COMMAND" ] && screen | grep -q '^/usr/sbin/dbserver' && ok tui_setup_one_left || bad tui_setup_one_left "$(hdr)"

# --- the status line: the hidden kernel threads are said where there is
# room (120 columns), after the fields; at 80 the fields come first, and
# nothing wraps onto the table ---------------------------------------------
K=$T/tree; cp -r $TREE "$K"
add_kthread "$K" 2 0 kthreadd
add_kthread "$K" 77 2 'kworker/0:1'
start 120 24 --root "$K"
st=$(screen | grep '^Tasks:')
echo "$st" | grep -q '^Tasks: 4 shown of 4  interval .*  2 kernel threads hidden (K)' && [ "$(echo "$st" | wc -l)" -eq 1 ] &&
	ok tui_status_120_kthreads || bad tui_status_120_kthreads "$(screen)"
start 80 24 --root "$K"
st=$(screen | grep '^Tasks:')
echo "$st" | grep -q '^Tasks: 4 shown of 4  interval ' && [ "$(echo "$st" | wc -l)" -eq 1 ] &&
	screen | grep -A1 '^Tasks:' | tail -1 | grep -Eq '^ +PID +USER' &&
	ok tui_status_80_kthreads || bad tui_status_80_kthreads "$(screen)"

# --- K: kernel threads, live ------------------------------------------------
nk=$($PROG --kernel-threads -b -n 1 | grep -c ' kthreadd$')
if [ "$nk" -ge 1 ]; then
	# The extra field waits for room: on a busy machine the warm-up's
	# "placement read for N of M" fills the line until it ends.
	start 200 40 -s pid -o pid,comm
	wait_for 'kernel threads hidden (K)' 600
	s=$(screen)
	echo "$s" | grep -q 'kernel threads hidden (K)' && ! echo "$s" | grep -q ' kthreadd$' &&
		ok tui_kthreads_hidden || bad tui_kthreads_hidden "$s"
	keys K
	s=$(screen)
	echo "$s" | grep -Eq '^ +2 kthreadd$' && ! echo "$s" | grep -q 'kernel threads hidden' &&
		ok tui_kthreads_shown || bad tui_kthreads_shown "$s"
	keys K
	# (the status line's part, once K's message has gone)
	wait_for 'kernel threads hidden (K)' 80 && ! screen | grep -q ' kthreadd$' &&
		ok tui_kthreads_hidden_again || bad tui_kthreads_hidden_again "$(screen)"
else
	echo "SKIP tui_kthreads: no kthreadd on this machine (a container?)"
fi

# --- F7: the migrate dialog, on HOME, with what is on each node -------------
if [ "$(id -u)" = 0 ]; then
	sleep 60 & sp=$!
	start 120 40 -p $sp
	keys F7
	s=$(screen)
	echo "$s" | grep -q "Migrate memory of PID $sp" && echo "$s" | grep -q 'process here' &&
		echo "$s" | grep -Eq 'N0 +> +[0-9.]+[KMG] +[0-9.]+[KMG] +100%' &&
		ok tui_f7_migrate_on_home || bad tui_f7_migrate_on_home "$s"
	keys Escape
	keys F8
	screen | grep -q "Rebind threads of PID $sp" && ok tui_f8_bind || bad tui_f8_bind "$(screen)"
	keys Escape
	kill $sp 2>/dev/null
else
	echo "SKIP tui_f7: not root"
fi
