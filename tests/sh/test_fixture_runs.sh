#!/bin/sh
# The whole program (batch, JSON and the monitor) on every recorded tree in
# ../shared/fixtures/hwloc-linux: exits 0, prints every node, no crash.
PROG=${PROG:-./numatop-tui}
FIX=${NUMATOP_FIXTURES:-../shared/fixtures/hwloc-linux}
if [ ! -d "$FIX" ]; then echo "SKIP fixture_runs: fixtures not present at $FIX"; exit 0; fi
. tests/sh/lib.sh
need tmux tmux
need bzip2 bzip2   # tar -xjf
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
tui_init
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
for tb in "$FIX"/*.tar.bz2; do
	name=$(basename "$tb" .tar.bz2)
	mkdir "$T/x" && tar -xjf "$tb" -C "$T/x"
	root=$(find "$T/x" -mindepth 1 -maxdepth 1 -type d | head -1)
	nodes=$(find "$root/sys/devices/system/node" -maxdepth 1 -name 'node[0-9]*' -type d 2>/dev/null | wc -l)
	[ "$nodes" -eq 0 ] && nodes=1
	out=$($prog --root "$root" -b -n 2 -d 0.1 2>&1); rc=$?
	got=$(printf '%s\n' "$out" | sed -n '/^ NODE /,/^$/p' | grep -cE '^ +[0-9]+ ')
	if [ $rc -eq 0 ] && [ "$got" -eq $((2 * nodes)) ]; then echo "PASS batch_$name"
	else echo "FAIL batch_$name (rc=$rc, $got node rows for $nodes nodes x2)"; fi
	j=$($prog --root "$root" --json -n 1 2>&1); rc=$?
	ids=$(printf '%s\n' "$j" | grep -o '"id":[0-9]*' | wc -l)
	if [ $rc -eq 0 ] && [ "$ids" -eq "$nodes" ]; then echo "PASS json_$name"
	else echo "FAIL json_$name (rc=$rc ids=$ids nodes=$nodes)"; fi
	tmux new-session -d -s f -x 80 -y 24 "TERM=tmux-256color $prog --root $root; echo EXIT=\$?; sleep 20"
	i=0; while [ $i -lt 40 ] && ! tmux capture-pane -p -t f | grep -q F10Quit; do sleep 0.1; i=$((i+1)); done
	for k in Tab Tab Tab Enter Escape D n; do tmux send-keys -t f "$k"; sleep 0.15; done
	tmux send-keys -t f q
	i=0; while [ $i -lt 40 ] && ! tmux capture-pane -p -t f | grep -q 'EXIT='; do sleep 0.1; i=$((i+1)); done
	if tmux capture-pane -p -t f | grep -q 'EXIT=0'; then echo "PASS tui_$name"
	else echo "FAIL tui_$name"; tmux capture-pane -p -t f | tail -5; fi
	tmux kill-session -t f 2>/dev/null
	rm -rf "$T/x"
done
