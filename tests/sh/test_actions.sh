#!/bin/sh
# Actions on this (one-node) machine: --migrate / --rebind from the command
# line (success, --readonly, recorded trees, exited PID, missing node,
# another user's process as nobody), and the m / B dialogs in tmux (open,
# choose, cancel, confirm, the "also migrate" toggle, --readonly refusing).
# Multi-node moves are proved in the VM (make vmtest).
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
. tests/sh/lib.sh
need tmux tmux
need numactl numactl
need jq jq
HOG=$BUILD/tests/helpers/memhog
if [ ! -x "$HOG" ]; then echo "SKIP actions: $HOG not built"; exit 0; fi
T=$(mktemp -d)
tui_init
pids=""
cleanup() {
	tmux kill-server 2>/dev/null
	for p in $pids; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")

# hog MIB THREADS: start a memhog, wait for "ready", print its PID.
hog() {
	"$HOG" "$@" >"$T/hog.out" 2>&1 &
	p=$!
	n=50; while [ $n -gt 0 ] && ! grep -q ready "$T/hog.out"; do sleep 0.1; n=$((n - 1)); done
	echo $p
}
P=$(hog 32 2); pids="$pids $P"
node=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | head -1 | sed 's/.*node//')
node=${node:-0}

# --- command line ---
# Demote cold here: this machine has one memory tier (or none), so it is
# refused before any heat is watched, and nothing moves.
out=$($PROG --migrate $P --to $node --cold 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -Eq "^numatop-tui: --cold: PID $P: refused: this machine has (one|no) memory tier: there is no slower tier" &&
	! printf '%s\n' "$out" | grep -q '^before ' && ok cli_cold_refused_one_tier || bad cli_cold_refused_one_tier "rc=$rc $out"
out=$($PROG --migrate $P --to $node 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "^before " && printf '%s\n' "$out" | grep -q "^after " &&
	printf '%s\n' "$out" | grep -q "pid $P (memhog): migrate memory to node $node" &&
	ok cli_migrate_table || bad cli_migrate_table "rc=$rc $out"
# The kB on the node after is about the 32 MiB the hog touched.
kb=$(printf '%s\n' "$out" | awk '$1 == "after" { print $2 }')
[ "${kb:-0}" -ge 32768 ] && ok cli_migrate_after_kb || bad cli_migrate_after_kb "$out"
out=$($PROG --rebind $P --to $node 2>&1); rc=$?
want=$(cat /sys/devices/system/node/node$node/cpulist 2>/dev/null || echo 0)
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "rebind: 3 threads to CPUs $want (node $node): 3 set, 0 failed" &&
	ok cli_rebind_threads || bad cli_rebind_threads "rc=$rc $out"
# What a rebind cannot change is said even when nothing is migrated.
printf '%s\n' "$out" | grep -qF "note: memory policy default stays (another process's policy cannot be changed): new pages go to the node of the CPU that first touches them (now the chosen node's)" &&
	ok cli_rebind_policy_note || bad cli_rebind_policy_note "$out"
# A process under numactl --membind keeps its policy: said plainly.
numactl --membind=$node "$HOG" 8 0 >"$T/b.out" 2>&1 & B=$!; pids="$pids $B"
n=50; while [ $n -gt 0 ] && ! grep -q ready "$T/b.out"; do sleep 0.1; n=$((n - 1)); done
out=$($PROG --migrate $B --to $node 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "^note: memory policy bind:$node stays (another process's policy cannot be changed): its future allocations follow that policy" &&
	ok cli_migrate_bind_policy_note || bad cli_migrate_bind_policy_note "rc=$rc $out"
kill $B 2>/dev/null
out=$($PROG --rebind $P --migrate $P --to $node 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "rebind and migrate memory to node $node" &&
	printf '%s\n' "$out" | grep -q "^after " && ok cli_rebind_and_migrate || bad cli_rebind_and_migrate "rc=$rc $out"
out=$($PROG --readonly --migrate $P --to $node 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q -- "--readonly" && ! printf '%s\n' "$out" | grep -q "^after" &&
	ok cli_readonly_refuses || bad cli_readonly_refuses "rc=$rc $out"
out=$($PROG --root tests/trees/opteron4 --migrate 1000 --to 1 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "recorded tree" && ok cli_tree_refuses || bad cli_tree_refuses "rc=$rc $out"
out=$($PROG --migrate $P --to 4095 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "no such node" && ok cli_bad_node || bad cli_bad_node "rc=$rc $out"
out=$($PROG --migrate $P 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q -- "--to NODE" && ok cli_needs_to || bad cli_needs_to "rc=$rc $out"
# An exited (reaped) PID, and a zombie: both "process exited".
"$HOG" 1 0 >"$T/g.out" 2>&1 & G=$!
sleep 0.3; kill $G; wait $G 2>/dev/null
out=$($PROG --migrate $G --to $node 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "process exited (ESRCH)" && ok cli_exited_pid || bad cli_exited_pid "rc=$rc $out"
sh -c 'sleep 0.2 & exec sleep 5' & Z=$!
sleep 0.6
zpid=$(awk '{print $1}' /proc/$Z/task/$Z/children 2>/dev/null)
if [ -n "$zpid" ] && grep -q '^State:.*Z' /proc/$zpid/status 2>/dev/null; then
	out=$($PROG --migrate $zpid --to $node 2>&1); rc=$?
	[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "process exited" && ok cli_zombie_exited || bad cli_zombie_exited "rc=$rc $out"
else
	echo "SKIP cli_zombie_exited: no zombie to test with"
fi
kill $Z 2>/dev/null; wait $Z 2>/dev/null
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	before=$(grep Cpus_allowed_list /proc/$P/status)
	# Where its pages are (nodes holding any), not the numa_maps text: a
	# live process's mappings may change (THP collapse, its stack).
	where() { "$PROG" -p $P --json -n 1 | jq -c '.processes[0].node_kb | map_values(. > 0)'; }
	nm_before=$(where)
	out=$(cd / && env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=65534 --regid=65534 --clear-groups "$prog" --migrate $P --to $node 2>&1); rc=$?
	[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "needs root or CAP_SYS_NICE" &&
		[ -n "$nm_before" ] && [ "$(where)" = "$nm_before" ] && ok cli_nobody_migrate_eperm ||
		bad cli_nobody_migrate_eperm "rc=$rc $out"
	out=$(cd / && env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=65534 --regid=65534 --clear-groups "$prog" --rebind $P --to $node 2>&1); rc=$?
	[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "needs root or CAP_SYS_NICE" &&
		[ "$(grep Cpus_allowed_list /proc/$P/status)" = "$before" ] && ok cli_nobody_rebind_eperm ||
		bad cli_nobody_rebind_eperm "rc=$rc $out"
else
	echo "SKIP cli_nobody: needs root and setpriv (util-linux)"
fi

# --- the dialogs ---
start() { tui_start 110 32 "TERM=tmux-256color $prog $*; echo EXIT=\$?; sleep 30"; }

start -p $P -d 1
keys m
wait_for "Migrate memory of PID $P (memhog)" 20 && screen | grep -q "N$node .*0-\|N$node .*[0-9]" &&
	ok tui_migrate_dialog_opens || bad tui_migrate_dialog_opens "$(screen)"
keys Escape
wait_for "REMOTE%" 20 && ! screen | grep -q "Migrate memory" && ok tui_migrate_cancel || bad tui_migrate_cancel "$(screen)"
keys m; keys Enter
wait_for "will move to N$node" 20 && screen | grep -q "will not move:" && screen | grep -q "Enter: start" &&
	ok tui_migrate_preview || bad tui_migrate_preview "$(screen)"
screen | tr '\n' ' ' | tr -s ' ' | grep -qF "memory policy default stays (another process's policy cannot be changed): new pages go to the node of the CPU" &&
	ok tui_preview_policy_note || bad tui_preview_policy_note "$(screen)"
keys Escape
wait_for "Up/Down: node" 20 && ok tui_preview_back || bad tui_preview_back "$(screen)"
keys Enter; keys Enter
wait_for "Enter: close" 30 && screen | grep -q "^ *before " && screen | grep -q "^ *after " &&
	screen | grep -q "moved [0-9.]*[KMG] to N$node ([0-9]* pages by move_pages)" && ok tui_migrate_confirm || bad tui_migrate_confirm "$(screen)"
keys Enter
wait_for "REMOTE%" 20 && kill -0 $P && ok tui_migrate_close || bad tui_migrate_close "$(screen)"
# B: rebind, with the "also migrate" toggle.
keys B
wait_for "Rebind threads of PID $P" 20 && screen | grep -qF "[ ] also migrate memory" &&
	ok tui_rebind_dialog || bad tui_rebind_dialog "$(screen)"
keys a
wait_for "Rebind and migrate PID $P" 20 && screen | grep -qF "[x] also migrate" &&
	ok tui_rebind_toggle || bad tui_rebind_toggle "$(screen)"
keys Enter
wait_for "threads will run on CPUs $want" 20 && ok tui_rebind_preview || bad tui_rebind_preview "$(screen)"
keys Enter
wait_for "Enter: close" 30 && screen | grep -q "rebind: 3 of 3 threads set" && screen | grep -q "^ *after " &&
	ok tui_rebind_confirm || bad tui_rebind_confirm "$(screen)"
keys Enter
keys q
wait_for "EXIT=0" 30 && ok tui_actions_quit || bad tui_actions_quit "$(screen)"

# The process exits while the preview is open: Enter says so, nothing else
# is acted on.
"$HOG" 8 0 >"$T/h4.out" 2>&1 & P4=$!; pids="$pids $P4"
n=50; while [ $n -gt 0 ] && ! grep -q ready "$T/h4.out"; do sleep 0.1; n=$((n - 1)); done
start -p $P4 -d 1
keys m
wait_for "Migrate memory of PID $P4" 20 && keys Enter
wait_for "Enter: start" 20
kill $P4; wait $P4 2>/dev/null
keys Enter
wait_for "Enter: close" 30 && screen | grep -q "PID $P4: process exited (ESRCH)" &&
	ok tui_target_exits_before_confirm || bad tui_target_exits_before_confirm "$(screen)"
keys Enter
keys q

# Tagged processes: m acts on all of them; a tagged process that exits is
# untagged (a tag is PID + start time: a reused PID is never tagged).
P2=$(hog 8 0); pids="$pids $P2"
# P3's parent is a sleep that never reaps it: killed, it stays a zombie in
# the table with its PID and start time, still matching its tag unless
# exited processes are untagged.
sh -c '"$1" 8 0 >"$2/h3.out" 2>&1 & echo $! >"$2/h3.pid"; exec sleep 120' sh "$HOG" "$T" & Z3=$!
pids="$pids $Z3"
n=50; while [ $n -gt 0 ] && ! grep -q ready "$T/h3.out" 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
P3=$(cat "$T/h3.pid"); pids="$pids $P3"
start -p $P2,$P3 -d 1 -s PID
keys Space; keys Space
keys m
wait_for "Migrate memory of 2 tagged processes" 20 && ok tui_migrate_tagged_dialog || bad tui_migrate_tagged_dialog "$(screen)"
keys Enter; keys Enter
wait_for "Enter: close" 30 && screen | grep -q "moved [0-9.]*[KMG] to N$node" && ok tui_migrate_tagged_done ||
	bad tui_migrate_tagged_done "$(screen)"
keys Enter
kill $P3
n=50; while [ $n -gt 0 ] && ! grep -q '^State:.*Z' /proc/$P3/status 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
wait_for "gone" 40   # the zombie's row, in a sample taken after it exited
keys m
wait_for "Migrate memory of PID $P2 (memhog)" 20 && ok tui_exited_tag_dropped || bad tui_exited_tag_dropped "$(screen)"
keys Escape
keys q
kill $Z3 2>/dev/null; wait $Z3 2>/dev/null

start --readonly -p $P -d 1
wait_for F10Quit 20
bar=$(screen | tail -1)
! echo "$bar" | grep -Eq 'Migrate|Bind|Kill|Fix' && echo "$bar" | grep -q Quit && ok tui_readonly_bar_no_actions \
	|| bad tui_readonly_bar_no_actions "$bar"
keys m
wait_for "disabled by --readonly" 20 && ! screen | grep -q "Migrate memory" && ok tui_readonly_m || bad tui_readonly_m "$(screen)"
keys B
wait_for "rebind: disabled by --readonly" 20 && ok tui_readonly_B || bad tui_readonly_B "$(screen)"
keys k
wait_for "kill: disabled by --readonly" 20 && ok tui_readonly_kill || bad tui_readonly_kill "$(screen)"
keys q
start --root tests/trees/opteron4 -d 5
keys m
wait_for "recorded tree" 20 && ok tui_tree_refuses || bad tui_tree_refuses "$(screen)"
keys q
exit 0
