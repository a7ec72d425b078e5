#!/bin/sh
# Why is it remote, through the whole program on recorded trees: the WHY
# column and the detail in tmux, x (the advice as an action, refused on a
# tree with the action it would take), and copies of the tree made to
# show moved (Cpus_allowed excludes the node holding its anonymous
# pages) and cpuset (Mems_allowed excludes HOME) in JSON. Each cause is
# proved on real kernels in make vmtest; tests/unit/test_why.c has the
# rules.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need tmux tmux
need python3 python3
TREE=tests/trees/opteron4
T=$(mktemp -d)
tui_init
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")

# jwhy FILE PID: "cause|action|node|evidence...", one line.
jwhy() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d["processes"] if p["pid"] == int(sys.argv[2])][0]
a = p.get("advice") or {}
print("|".join([str(p.get("remote_cause")), str(a.get("action")), str(a.get("node"))] + p.get("remote_evidence", [])))' "$1" "$2"
}

# --- the monitor on the tree ---------------------------------------------
tui_start 150 35 "$prog --root $TREE -d 1"
s=$(screen)
echo "$s" | grep -Eq '^ +1000 .* policy +/usr/sbin/dbserver' && echo "$s" | grep -Eq '^ +2000 .* shared_file +/usr/bin/web' &&
	echo "$s" | grep -Eq '^ +4242 .* none +cat' && ok why_column || bad why_column "$s"
keys x
screen | grep -q 'PID 1000, remote: policy: interleaved by its policy, as intended' && ok why_x_nothing_to_do \
	|| bad why_x_nothing_to_do "$(screen | tail -3)"
keys Enter
s=$(screen)
echo "$s" | grep -q '^why remote: policy -- interleaved by its policy' &&
	echo "$s" | grep -q '^  - 49.9 of 57.1 MiB remote are in mappings with policy interleave:0-3' &&
	echo "$s" | grep -q '^kernel (NUMA balancing, 0s ago): RACC% 30.0 of its sampled faults remote' &&
	ok why_detail || bad why_detail "$s"
keys Escape

# --- moved: a copy where 2000's heap is on node 0 and its CPUs exclude it.
M=$T/moved
cp -r $TREE "$M"
sed -i 's/^00604000 default heap anon=1500 dirty=1500 N2=1500/00604000 default heap anon=1500 dirty=1500 N0=1500/' \
	"$M/proc/2000/numa_maps"
sed -i 's/^Cpus_allowed:.*/Cpus_allowed:\t30/; s/^Cpus_allowed_list:.*/Cpus_allowed_list:\t4-5/' "$M/proc/2000/status"
# Its second thread last ran on CPU 4 (node 2), as the new affinity allows.
awk '{ $39 = 4; print }' "$M/proc/2000/task/2001/stat" >"$T/s" && cp "$T/s" "$M/proc/2000/task/2001/stat"
"$PROG" --root "$M" --json -n 1 >"$T/m.json" 2>"$T/m.err"
# ADVICE says the same fix in a word (batch text, not the last column).
r=$("$PROG" --root "$M" -b -n 1 -o pid,why,advice,remote 2>&1 | awk '$1 == 2000 || $1 == 1000 { print $1, $2, $3 }' | tr '\n' ' ')
[ "$r" = "1000 policy none 2000 moved migrate->N2 " ] && ok why_advice_column || bad why_advice_column "$r"
r=$(jwhy "$T/m.json" 2000)
case $r in
'moved|migrate|2|Cpus_allowed excludes node 0, which holds '*) ok why_moved_json ;;
*) bad why_moved_json "$r $(cat "$T/m.err")" ;;
esac
tui_start 150 35 "$prog --root $M -d 1"
keys Down x
screen | grep -q 'migrate: disabled on a recorded tree' && ok why_x_moved_would_migrate \
	|| bad why_x_moved_would_migrate "$(screen | grep -E '^ +2000|Tasks')"

# --- cpuset: Mems_allowed 0 excludes HOME 2. -------------------------------
C=$T/cpuset
cp -r $TREE "$C"
sed -i 's/^Mems_allowed:.*/Mems_allowed:\t00000000,00000001/; s/^Mems_allowed_list:.*/Mems_allowed_list:\t0/' \
	"$C/proc/2000/status"
sed -i 's/^00604000 default heap anon=1500 dirty=1500 N2=1500/00604000 default heap anon=1500 dirty=1500 N0=1500/' \
	"$C/proc/2000/numa_maps"
"$PROG" --root "$C" --json -n 1 >"$T/c.json" 2>"$T/c.err"
r=$(jwhy "$T/c.json" 2000)
case $r in
'cpuset|rebind|0|Mems_allowed 0 excludes HOME node 2'*) ok why_cpuset_json ;;
*) bad why_cpuset_json "$r $(cat "$T/c.err")" ;;
esac
tui_start 150 35 "$prog --root $C -d 1"
keys Down x
screen | grep -q 'rebind: disabled on a recorded tree' && ok why_x_cpuset_would_rebind \
	|| bad why_x_cpuset_would_rebind "$(screen | grep -E '^ +2000|Tasks')"

# --- unreadable status: the evidence says so, never a guess. -------------
U=$T/nostatus
cp -r "$M" "$U"
mv "$U/proc/2000/status" "$U/proc/2000/status.gone"
"$PROG" --root "$U" --json -n 1 >"$T/u.json" 2>"$T/u.err"
r=$(jwhy "$T/u.json" 2000)
case $r in
'unknown|migrate|2|'*'status could not be read'*) ok why_unknown_says_missing ;;
*) bad why_unknown_says_missing "$r" ;;
esac

# --- memory tiers: tests/trees/tiered2, node 1 memory-only in tier 67 ---
# 100 binds 64 MiB to node 1: its policy, tiered memory, never "rebind to
# node 1" (a node without CPUs); 200 has 16 MiB on node 1 by default
# policy while the kernel demotes: demoted, no action. Also the batch
# WHY column and the monitor's detail say so.
"$PROG" --root tests/trees/tiered2 --json -n 1 >"$T/tiers.json" 2>/dev/null
r=$(jwhy "$T/tiers.json" 100)
case $r in
'policy|none|None|'*'node 1 is memory only'*) ok why_tiers_bound_no_rebind ;;
*) bad why_tiers_bound_no_rebind "$r" ;;
esac
r=$(jwhy "$T/tiers.json" 200)
case $r in
'demoted|none|None|'*'demotes cold pages'*) ok why_tiers_demoted ;;
*) bad why_tiers_demoted "$r" ;;
esac
r=$("$PROG" --root tests/trees/tiered2 -b -n 1 -o pid,why 2>/dev/null | awk '$1 == 100 || $1 == 200 { printf "%s:%s ", $1, $2 }')
[ "$r" = "100:policy 200:demoted " ] && ok why_tiers_batch || bad why_tiers_batch "$r"
exit 0
