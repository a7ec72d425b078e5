#!/bin/sh
# Cgroups: the recorded tree's v2 hierarchy on the Cgroups screen (fold,
# sort, Enter to its processes), the CGROUP column and the F4 filter, the
# detail's cgroup line; broken hierarchies (a cgroup gone mid-read, an
# unparsable numa_stat, a hostile name, v1 in pages, none at all); and on
# this machine a real cgroup holding a 64 MiB process, found in JSON and
# on the screen. The hand-computed values are in
# tests/trees/opteron4/EXPECTED.md ("Cgroups").
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
. tests/sh/lib.sh
need tmux tmux
need python3 python3
TREE=tests/trees/opteron4
T=$(mktemp -d)
tui_init
CG=
HOGP=
cleanup() {
	tmux kill-server 2>/dev/null
	[ -n "$HOGP" ] && kill "$HOGP" 2>/dev/null && wait "$HOGP" 2>/dev/null
	[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")

# jq_py FILE EXPR: EXPR over the JSON object d of FILE (C: cgroups by
# path, P: processes by pid); prints the value, status 1 on an error.
jq_py() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
C = {c["path"]: c for c in d.get("cgroups") or []}
P = {p["pid"]: p for p in d["processes"]}
print(eval(sys.argv[2]))' "$1" "$2"
}
# jcheck NAME FILE EXPR: PASS when EXPR is true.
jcheck() {
	r=$(jq_py "$2" "$3" 2>&1)
	[ "$r" = True ] && ok "$1" || bad "$1" "$3 -> $r"
}

# --- the screen on the recorded tree ------------------------------------
tui_start 150 30 "$prog --root $TREE -d 1"
keys Tab Tab
wait_for 'session-1.scope' 30
s=$(screen)
order=$(echo "$s" | sed -n 's/.* [0-9-][0-9-]* *\([-+ ] \)\{0,1\}\([a-z][a-z0-9.-]*\)$/\2/p' | tr '\n' ' ')
echo "$s" | grep -Eq '^ +6 +128.4M .* - /$' && ok cg_screen_root || bad cg_screen_root "$s"
echo "$s" | grep -Eq '^ +1 +11.0M +1024K +0K +9216K +1024K +1024K 0-3 +0-7 +docker-3f9c2d7e1b0a48d6' \
	&& ok cg_screen_docker || bad cg_screen_docker "$s"
echo "$s" | grep -Eq '^ +0 +- +- +- +- +- +- 0-3 +0-7 +cron.service' && ok cg_screen_no_memory_unknown \
	|| bad cg_screen_no_memory_unknown "$s"
# Fold /system.slice (second row): its three children disappear.
keys Down -
s=$(screen)
echo "$s" | grep -q '+ system.slice' && ! echo "$s" | grep -q 'db.service' && echo "$s" | grep -q 'session-1.scope' \
	&& ok cg_fold || bad cg_fold "$s"
keys +
screen | grep -q 'db.service' && ok cg_unfold || bad cg_unfold "$(screen)"
# Sort by PROCS, then MEM (descending): db.service before docker, the
# 448K user slice after the 127M system slice.
keys '>' '>'
s=$(screen)
echo "$s" | grep -q 'sorted by MEM desc' && [ "$(echo "$s" | grep -n 'db.service' | cut -d: -f1)" -lt \
	"$(echo "$s" | grep -n 'docker-' | cut -d: -f1)" ] && [ "$(echo "$s" | grep -n 'system.slice' | cut -d: -f1)" -lt \
	"$(echo "$s" | grep -n 'user.slice' | cut -d: -f1)" ] && ok cg_sort_mem || bad cg_sort_mem "$s"
keys I
s=$(screen)
echo "$s" | grep -q 'sorted by MEM asc' && [ "$(echo "$s" | grep -n 'user.slice' | cut -d: -f1)" -lt \
	"$(echo "$s" | grep -n 'system.slice' | cut -d: -f1)" ] && ok cg_sort_invert || bad cg_sort_invert "$s"
# Enter on db.service: the process table, only PID 1000.
keys '<' '<'
keys Home Down Down Down
screen | grep -q 'sorted by CGROUP asc' || bad cg_sort_back "$(screen)"
keys Enter
s=$(screen)
echo "$s" | grep -q 'Tasks: 1 shown of 4' && echo "$s" | grep -q 'filter: cgroup /system.slice/db.service' &&
	echo "$s" | grep -Eq '^ +1000 +alice' && ok cg_enter_filters || bad cg_enter_filters "$s"
# The detail of that process names its cgroup.
keys Enter
wait_for 'cgroup /system.slice/db.service' 20 && ok cg_detail_line || bad cg_detail_line "$(screen)"
keys Escape

# F4 "cgroup session": a part of a path; the CGROUP column's short names.
tui_start 150 30 "$prog --root $TREE -d 1 -o pid,user,cgroup,remote,command"
keys F4; keys C-u 2>/dev/null
tmux send-keys -t "$S" 'cgroup session'; keys Enter
s=$(screen)
echo "$s" | grep -q 'Tasks: 2 shown of 4' && echo "$s" | grep -Eq '^ +4242 +root +session-1.scope' &&
	echo "$s" | grep -Eq '^ +3000 +root +session-1.scope' && ok cg_filter_part || bad cg_filter_part "$s"
keys F4; for _ in $(seq 1 20); do tmux send-keys -t "$S" BSpace; done; keys Enter
s=$(screen)
echo "$s" | grep -Eq '^ +2000 +bob +docker-3f9c2d7e1b0a ' && echo "$s" | grep -Eq '^ +1000 +alice +db.service ' &&
	ok cg_column || bad cg_column "$s"

# --- the cgroup action: refusals that say why (the move itself is proved
# in the VM guests, cgroup v2: make vmtest) --------------------------------
out=$("$PROG" --root $TREE --migrate-cgroup /system.slice/db.service --to 1 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'disabled on a recorded tree' && ok cg_move_tree_refused \
	|| bad cg_move_tree_refused "rc=$rc $out"
out=$("$PROG" --readonly --migrate-cgroup /x --to 0 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'disabled by --readonly' && ok cg_move_readonly || bad cg_move_readonly "rc=$rc $out"
out=$("$PROG" --migrate-cgroup /x 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'need --to NODE' && ok cg_move_needs_to || bad cg_move_needs_to "rc=$rc $out"
out=$("$PROG" --migrate-cgroup /x --migrate 1 --to 0 2>&1); rc=$?
[ $rc -eq 2 ] && ok cg_move_alone || bad cg_move_alone "rc=$rc $out"
live=$("$PROG" --json -n 1 -p 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["cgroup_layout"])')
out=$("$PROG" --migrate-cgroup / --to 0 2>&1); rc=$?
case $live in
v2) want='the root cgroup has no cpuset.mems' ;;
*) want="needs cgroup v2 (this machine: $live)" ;;
esac
[ $rc -eq 1 ] && echo "$out" | grep -qF "$want" && ok cg_move_live_refusal || bad cg_move_live_refusal "rc=$rc $out (want: $want)"
out=$("$PROG" --migrate-cgroup '/../etc' --to 0 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -qE "not a cgroup path|needs cgroup v2" && ok cg_move_bad_path || bad cg_move_bad_path "rc=$rc $out"
# m on the Cgroups screen: on a tree, refused in the status line; live,
# the dialog chooses a node and says why it cannot (or moves, on v2).
tui_start 150 30 "$prog --root $TREE -d 1"
keys Tab Tab
wait_for 'session-1.scope' 30
keys Down m
screen | grep -q 'cgroup move: disabled on a recorded tree' && ok cg_move_key_tree || bad cg_move_key_tree "$(screen)"
if [ "$live" != v2 ]; then
	tui_start 150 30 "$prog -d 1"
	keys Tab Tab
	wait_for 'cgroups (' 30
	keys Down m
	s=$(screen)
	echo "$s" | grep -q 'Which node?' && echo "$s" | grep -q '> node 0' && ok cg_move_dialog || bad cg_move_dialog "$s"
	keys Enter
	s=$(screen)
	echo "$s" | grep -q "needs cgroup v2 (this machine: $live)" && ok cg_move_dialog_refusal || bad cg_move_dialog_refusal "$s"
	keys Escape
	screen | grep -q 'Which node?' && bad cg_move_dialog_closes "$(screen)" || ok cg_move_dialog_closes
fi

# --- broken hierarchies ---------------------------------------------------
# copy TREE DIR: a writable copy of the recorded tree.
copy() { rm -rf "$1"; cp -r "$TREE" "$1"; }
B=$T/broken
copy "$B"
rm "$B/sys/fs/cgroup/system.slice/db.service/cgroup.procs"            # removed mid-read
printf 'anon N0=garbage\nfile N0=1\n' >"$B/sys/fs/cgroup/user.slice/memory.numa_stat"
evil=$(printf 'evil\033[2J\007name')
mkdir "$B/sys/fs/cgroup/$evil"
printf 'anon N0=4096\nfile N0=0\n' >"$B/sys/fs/cgroup/$evil/memory.numa_stat"
: >"$B/sys/fs/cgroup/$evil/cgroup.procs"
"$PROG" --root "$B" --json -n 1 >"$T/b.json" 2>"$T/b.err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/b.err" ] && ok cg_broken_runs || bad cg_broken_runs "rc=$rc $(cat "$T/b.err")"
jcheck cg_gone_not_zero "$T/b.json" \
	'[C["/system.slice/db.service"][k] for k in ("state", "processes", "node_kb", "remote_kb")] == ["gone", None, None, None]'
jcheck cg_unparsable_error "$T/b.json" \
	'[C["/user.slice"][k] for k in ("state", "node_kb", "total_kb")] == ["error", None, None]'
jcheck cg_others_still_read "$T/b.json" 'C["/system.slice/docker-3f9c2d7e1b0a48d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2.scope"]["total_kb"] == 11264'
"$PROG" --root "$B" -b --cgroups -n 1 >"$T/b.txt" 2>&1
if grep -q "$(printf '\033')" "$T/b.txt" || grep -q "$(printf '\007')" "$T/b.txt"; then
	bad cg_hostile_name_text "control characters reached the output"
else
	grep -q '/evil\\x1b\[2J\\x07name$' "$T/b.txt" && ok cg_hostile_name_text || bad cg_hostile_name_text "$(grep evil "$T/b.txt")"
fi
grep -Eq '^ +- +gone ' "$T/b.txt" && ok cg_gone_text || bad cg_gone_text "$(cat "$T/b.txt")"

# A tree deeper than the walk goes (70 levels under db.service, its one
# process at the bottom): the cut is said, and the process counts above it
# are unknown, never 0; cgroups off that path keep theirs.
D=$T/deep
copy "$D"
dp=$D/sys/fs/cgroup/system.slice/db.service rel=/system.slice/db.service
: >"$dp/cgroup.procs"
for i in $(seq 1 70); do
	dp=$dp/l$i rel=$rel/l$i
	mkdir "$dp"
	: >"$dp/cgroup.procs"
done
echo 1000 >"$dp/cgroup.procs"
echo "0::$rel" >"$D/proc/1000/cgroup"
"$PROG" --root "$D" --json -n 1 >"$T/d.json" 2>"$T/d.err"
cut62=/system.slice/db.service$(seq -s /l 0 62 | sed 's/^0//')
jcheck cg_deep_warned "$T/d.json" 'any("not read below .../" in w and "/l62 (deeper than 64 levels" in w for w in d["warnings"])'
jcheck cg_deep_counts_unknown "$T/d.json" \
	"[C[p]['processes'] for p in ('/', '/system.slice', '/system.slice/db.service', '$cut62')] == [None] * 4"
jcheck cg_deep_others_counted "$T/d.json" "C['/user.slice']['processes'] == 2 and C['/system.slice/db.service']['total_kb'] == 118784"
"$PROG" --root "$D" -b --cgroups -n 1 >"$T/d.txt" 2>&1
grep -q '^warning: cgroups: 1 not read below .*/l62 ' "$T/d.txt" && grep -Eq '^ +- +[0-9]+ .* /system.slice$' "$T/d.txt" \
	&& [ "$(grep -c 'cgroups: .*not read' "$T/d.txt")" = 1 ] \
	&& ok cg_deep_text || bad cg_deep_text "$(head -40 "$T/d.txt")"

# v1 (the memory controller's hierarchy, counts in pages) and no cgroups.
V=$T/v1
copy "$V"
rm -rf "$V/sys/fs/cgroup"
mkdir -p "$V/sys/fs/cgroup/memory/app" "$V/sys/fs/cgroup/cpuset/app"
pk=$(($(getconf PAGESIZE) / 1024))
printf 'total=300 N0=100 N1=200 N2=0 N3=0\nfile=50 N0=50 N1=0 N2=0 N3=0\nanon=250 N0=50 N1=200 N2=0 N3=0\nunevictable=0 N0=0 N1=0 N2=0 N3=0\nhierarchical_total=1300 N0=1100 N1=200 N2=0 N3=0\nhierarchical_file=550 N0=550 N1=0 N2=0 N3=0\nhierarchical_anon=750 N0=550 N1=200 N2=0 N3=0\n' \
	>"$V/sys/fs/cgroup/memory/memory.numa_stat"
printf 'total=300 N0=100 N1=200 N2=0 N3=0\nfile=50 N0=50 N1=0 N2=0 N3=0\nanon=250 N0=50 N1=200 N2=0 N3=0\nhierarchical_total=300 N0=100 N1=200 N2=0 N3=0\nhierarchical_file=50 N0=50 N1=0 N2=0 N3=0\nhierarchical_anon=250 N0=50 N1=200 N2=0 N3=0\n' \
	>"$V/sys/fs/cgroup/memory/app/memory.numa_stat"
printf '1\n' >"$V/sys/fs/cgroup/memory/cgroup.procs"
printf '1000\n' >"$V/sys/fs/cgroup/memory/app/cgroup.procs"
printf '1\n' >"$V/sys/fs/cgroup/cpuset/cgroup.procs"
echo 0-7 >"$V/sys/fs/cgroup/cpuset/cpuset.effective_cpus"; echo 0-3 >"$V/sys/fs/cgroup/cpuset/cpuset.effective_mems"
echo 0-1 >"$V/sys/fs/cgroup/cpuset/app/cpuset.effective_cpus"; echo 0 >"$V/sys/fs/cgroup/cpuset/app/cpuset.effective_mems"
printf '4:memory:/app\n3:cpuset:/app\n0::/\n' >"$V/proc/1000/cgroup"
"$PROG" --root "$V" --json -n 1 >"$T/v1.json" 2>"$T/v1.err"
jcheck cg_v1_layout "$T/v1.json" 'd["cgroup_layout"] == "v1" and len(C) == 2'
jcheck cg_v1_pages "$T/v1.json" "C['/app']['node_kb'] == {'0': 100 * $pk, '1': 200 * $pk, '2': 0, '3': 0} and C['/']['total_kb'] == 1300 * $pk"
jcheck cg_v1_mems_remote "$T/v1.json" "C['/app']['mems_effective'] == [0] and C['/app']['remote_kb'] == 200 * $pk and C['/app']['remote_against'] == 'mems_effective'"
jcheck cg_v1_proc_memory_line "$T/v1.json" 'P[1000]["cgroup"] == "/app" and C["/app"]["version"] == 1'
N=$T/none
copy "$N"
rm -rf "$N/sys/fs/cgroup"
"$PROG" --root "$N" --json -n 1 >"$T/n.json" 2>"$T/n.err"; rc=$?
jcheck cg_none "$T/n.json" 'd["cgroup_layout"] == "none" and d["cgroups"] == [] and P[1000]["cgroup"] is None'
"$PROG" --root "$N" -b --cgroups -n 1 2>&1 | grep -q '^cgroups: none mounted under /sys/fs/cgroup$' && ok cg_none_text \
	|| bad cg_none_text "$("$PROG" --root "$N" -b --cgroups -n 1 2>&1 | head -12)"

# --- this machine: a real cgroup with a 64 MiB process -------------------
HOG=$BUILD/tests/helpers/memhog
layout=$("$PROG" --json -n 1 -p 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["cgroup_layout"])')
case $layout in
v1|hybrid) base=/sys/fs/cgroup/memory ;;
v2) base=/sys/fs/cgroup
    grep -qw memory "$base/cgroup.subtree_control" 2>/dev/null || base= ;;
*) base= ;;
esac
if [ "$(id -u)" != 0 ] || [ -z "$base" ] || [ ! -x "$HOG" ]; then
	echo "SKIP cg_live: needs root, a memory controller to create a cgroup in ($layout) and $HOG"
	exit 0
fi
name=numatop-test-$$
CG=$base/$name
if ! mkdir "$CG" 2>"$T/mk.err"; then
	echo "SKIP cg_live: cannot create $CG: $(cat "$T/mk.err")"
	CG=
	exit 0
fi
# The process joins the cgroup before it allocates: its pages are charged there.
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 64' sh "$CG" "$HOG" >"$T/hog.out" 2>&1 &
HOGP=$!
n=100; while [ $n -gt 0 ] && ! grep -q ready "$T/hog.out"; do sleep 0.1; n=$((n - 1)); done
"$PROG" --json -n 1 >"$T/live.json" 2>"$T/live.err"
jcheck cg_live_found "$T/live.json" "C['/$name']['processes'] == 1 and C['/$name']['total_kb'] >= 64 * 1024 * 0.95"
jcheck cg_live_process "$T/live.json" "P[$HOGP]['cgroup'] == '/$name'"
jcheck cg_live_remote_known "$T/live.json" "C['/$name']['remote_kb'] == 0 and C['/$name']['run_nodes'] != []"
jcheck cg_live_parent_includes "$T/live.json" "C['/']['total_kb'] >= C['/$name']['total_kb']"
tui_start 150 40 "$prog -d 1"
keys Tab Tab
wait_for "$name" 30
row=$(screen | grep -E " $name\$")
# 64 MiB and what the process itself needs (more under ASan: its shadow).
echo "$row" | grep -Eq '^ +1 +(6[4-9]|[7-9][0-9]|[1-9][0-9][0-9])\.[0-9]M ' && ok cg_live_screen || bad cg_live_screen "row: $row
$(screen)"
exit 0
