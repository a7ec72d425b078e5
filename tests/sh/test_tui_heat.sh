#!/bin/sh
# Access heat in the monitor, on a copy of opteron4 with a recorded DAMON
# kdamond (tests/sh/damon_tree.sh): the status line names the source, the
# heat columns are shown, the detail screen lists the hot regions hottest
# first with their node split and mapping; without DAMON results the
# detail says why there is no heat.
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
. tests/sh/lib.sh
need tmux tmux
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
tui_init
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
. tests/sh/damon_tree.sh
cp -r "$TREE" "$T/dm"
damon_tree "$T/dm"

start() { # start WIDTH HEIGHT ARGS...
	w=$1; h=$2; shift 2
	tui_start "$w" "$h" "TERM=tmux-256color $prog $*; echo EXIT=\$?; sleep 30"
}

start 160 50 --root "$T/dm" -d 5
s=$(screen)
echo "$s" | grep -q 'heat: DAMON 2/16' && ok tui_heat_status || bad tui_heat_status "$(echo "$s" | grep Tasks)"
# (sorted by HOTREM once the heat is known: its header marked)
echo "$s" | grep -q 'HOT  HOTREMv HOTREM%' && ok tui_heat_columns || bad tui_heat_columns "$(echo "$s" | grep 'PID ')"
# 1000: 96 MiB hot; its threads run on N0 and N1, so the hot remote part
# is the interleaved region's 16 MiB on each of N2 and N3: 32 MiB.
echo "$s" | grep -Eq '^ +1000 .* 96\.0M +32\.0M +33\.3 ' && ok tui_heat_row || bad tui_heat_row "$(echo "$s" | grep ' 1000 ')"
keys Enter
s=$(screen)
echo "$s" | grep -q '^access heat (damon, window 0.1s, watched 60s, .* ago): hot 96.0M, 32.0M of it remote (33.3%); warm 8192K; cold 16.7M' \
	&& ok tui_heat_detail_sums || bad tui_heat_detail_sums "$(echo "$s" | grep -i heat)"
echo "$s" | grep -q '^  hot by node:  N0 16.0M  N1\* 48.0M  N2 16.0M  N3 16.0M' && ok tui_heat_detail_by_node \
	|| bad tui_heat_detail_by_node "$(echo "$s" | grep 'hot by node')"
# The regions hottest first: the 64 MiB one (18 of 20 samples), the 32
# MiB bind:1 one (5 of 20), then the warm heap; each with its mapping.
regs=$(echo "$s" | sed -n '/^HOT\/WARM REGION/,/^cgroup/p' | sed '1d;$d')
first=$(echo "$regs" | sed -n 1p) second=$(echo "$regs" | sed -n 2p) third=$(echo "$regs" | sed -n 3p)
echo "$first" | grep -Eq '^00007f0000000000-00007f0004000000 +64\.0M +18/20 .* 16\.0M +16\.0M +16\.0M +16\.0M \[anon\]' &&
	echo "$second" | grep -Eq '^00007f1000000000-00007f1002000000 +32\.0M +5/20 .* 0K +32\.0M +0K +0K \[anon\]' &&
	echo "$third" | grep -Eq '^0000000000a08000-0000000001208000 +8192K +0/20 +2s .*\[heap\]' &&
	ok tui_heat_detail_regions || bad tui_heat_detail_regions "$regs"
keys Escape
# 2000 is watched and all cold; 4242 is not watched: the detail says why.
keys '\' 'cat' Enter Enter
s=$(screen)
echo "$s" | grep -q '^access heat: unknown -- not monitored yet (waiting for its turn)' && ok tui_heat_detail_why \
	|| bad tui_heat_detail_why "$(echo "$s" | grep -i 'heat')"
keys Escape q

# Heat that has not settled (every region 10 windows old: 1 s of 0.1 s
# windows, under the 15 windows DAMON's regions need) is shown marked "~",
# never sorted by, nor exported, nor acted on: reason "measuring", and the
# advice waits. The same tree's settled heat (ages 40 and 600) is used.
cp -r "$TREE" "$T/young"
damon_tree_of "$T/young" "1000 2000" <<-REGIONS
	0x00400000 0x00a08000 0 10
	0x00a08000 0x01208000 0 10
	0x7f0000000000 0x7f0004000000 18 10
	0x7f0004000000 0x7f1000000000 0 10
	0x7f1000000000 0x7f1002000000 5 10
	0x7f1002000000 0x7fff00000000 0 10
	0x00400000 0x00700000 0 10
	0x7f8000000000 0x7ffd00010000 0 10
	REGIONS
"$PROG" --root "$T/young" -b -n 1 -o pid,hot,hotrem -s hotrem >"$T/yb" 2>&1
"$PROG" --root "$T/dm" -b -n 1 -o pid,hot,hotrem -s hotrem >"$T/ob" 2>&1
grep -Eq '^ +1000 +98304~ +32768~ *$' "$T/yb" && grep -Eq '^ +1000 +98304 +32768 *$' "$T/ob" &&
	ok heat_measuring_marked || bad heat_measuring_marked "$(grep -E ' (1000|2000) ' "$T/yb" "$T/ob")"
"$PROG" --root "$T/young" --json -n 1 >"$T/yj" 2>&1
"$PROG" --root "$T/dm" --json -n 1 >"$T/oj" 2>&1
r=$(python3 -c '
import json, sys
for f in sys.argv[1:]:
    d = json.loads(open(f).readline())
    p = [x for x in d["processes"] if x["pid"] == 1000][0]
    print(p["access"]["reason"], p["advice"]["action"], "measuring heat" in p["advice"]["text"])
' "$T/yj" "$T/oj" 2>&1 | tr '\n' ' ')
case "$r" in
"measuring none "*" on "*) ok "heat_measuring_reason ($r)" ;;
*) bad heat_measuring_reason "$r" ;;
esac
# What the recorder writes of it, replay reads back (a sample with heat
# that is not usable is not malformed), with its reason.
"$PROG" --root "$T/young" -w "$T/y.zst" -n 2 -d 0.2 >/dev/null 2>"$T/yw"
"$PROG" --replay "$T/y.zst" --json >"$T/yr" 2>>"$T/yw"
r=$(python3 -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
print(len(s), " ".join(p["access"]["reason"] for x in s for p in x["processes"] if p["pid"] == 1000))
' "$T/yr" 2>&1)
[ "$r" = "2 measuring measuring" ] && ! grep -q malformed "$T/yw" && ok "heat_measuring_replayed ($r)" ||
	bad heat_measuring_replayed "$r; $(head -c 400 "$T/yw")"
"$PROG" --root "$T/young" --format prometheus -n 1 >"$T/yp" 2>&1
"$PROG" --root "$T/dm" --format prometheus -n 1 >"$T/op" 2>&1
! grep -q '^numatop_process_hot_remote_bytes{pid="1000"' "$T/yp" &&
	grep -q '^numatop_process_hot_remote_bytes{pid="1000".* 33554432$' "$T/op" &&
	ok heat_measuring_not_exported || bad heat_measuring_not_exported "$(grep hot_remote "$T/yp" "$T/op")"

# A tree from a kernel without DAMON: the status line and the detail say so.
start 160 50 --root "$TREE" -d 5
s=$(screen)
echo "$s" | grep -q 'heat: no DAMON in this kernel' && ! echo "$s" | grep -q 'HOTREM' && ok tui_heat_none_status \
	|| bad tui_heat_none_status "$(echo "$s" | grep -E 'Tasks|PID ')"
keys Enter
screen | grep -q '^access heat: unknown -- kernel without DAMON (CONFIG_DAMON_SYSFS)' && ok tui_heat_none_detail \
	|| bad tui_heat_none_detail "$(screen | grep -i heat)"
keys Escape q
