#!/bin/sh
# --capture DIR: what the program reads, copied into a tree that --root
# reads back. This machine captured beside a live sample taken at the
# same time (the same PIDs, a helper's node_kb exactly, the same nodes,
# CPUs and distances); --capture-processes none / top:N / -p; a capture
# of the recorded tree is that tree, file for file, and gives its JSON;
# a non-empty directory, a symbolic link, a file and a directory someone
# else could change are refused; a capture is private (0700, files 0600:
# nobody cannot read a root process's numa_maps in it, as in /proc); the
# summary says what it holds (host name, user names, command lines, file
# paths) and --capture-anonymize leaves those out, read back cleanly; a
# process that exits while it is copied is left out whole.
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
. tests/sh/lib.sh
need jq jq
TREE=tests/trees/opteron4
HOG=$BUILD/tests/helpers/memhog
CHURN=$BUILD/tests/helpers/churn
T=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

# What changes from one run to the next (times, the tool's own cost), and
# the root, which names the capture.
VOLATILE='del(.timestamp, .tool_cpu_pct, .interval_s, .numa_maps_budget.spent_ms, .cgroups_read_ms, .sample, .root)
	| .processes |= map(del(.sample_age_s, .sched_age_s))'
# Numeric directories of a capture's proc/ (its processes).
procdirs() { ls "$1/proc" | grep -E '^[0-9]+$' | sort -n; }

# --- the recorded tree: captured, it is the same tree ---
out=$("$PROG" --root "$TREE" --capture "$T/tree" 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "processes (all): 4 copied" &&
	ok capture_tree_exit || bad capture_tree_exit "rc=$rc $out"
d=$(diff -r -x EXPECTED.md -x numatop-tui-capture.txt "$TREE" "$T/tree" 2>&1)
[ -z "$d" ] && ok capture_tree_same_files || bad capture_tree_same_files "$d"
"$PROG" --root "$TREE" --json -n 1 --cgroups | jq -S -c "$VOLATILE" >"$T/tree.a" 2>&1
"$PROG" --root "$T/tree" --json -n 1 --cgroups | jq -S -c "$VOLATILE" >"$T/tree.b" 2>&1
[ -s "$T/tree.a" ] && cmp -s "$T/tree.a" "$T/tree.b" && ok capture_tree_same_json ||
	bad capture_tree_same_json "$(diff "$T/tree.a" "$T/tree.b" | head -20)"
"$PROG" --root "$TREE" -b -n 1 --kernel-threads 2>&1 | grep -v '^numatop-tui.*[0-9]:[0-9]' >"$T/tree.ta"
"$PROG" --root "$T/tree" -b -n 1 --kernel-threads 2>&1 | grep -v '^numatop-tui.*[0-9]:[0-9]' >"$T/tree.tb"
[ -s "$T/tree.ta" ] && cmp -s "$T/tree.ta" "$T/tree.tb" && ok capture_tree_same_text ||
	bad capture_tree_same_text "$(diff "$T/tree.ta" "$T/tree.tb" | head -20)"
# The tiered tree: the tier nodelists, the HMAT attributes and their
# initiator links, demotion_enabled and the promotion rate limit come along,
# and the tiers read back the same.
"$PROG" --root tests/trees/tiered2 --capture "$T/tiers" >/dev/null 2>&1
d=$(diff -r --no-dereference -x numatop-tui-capture.txt tests/trees/tiered2 "$T/tiers" 2>&1)
[ -z "$d" ] && ok capture_tiers_same_files || bad capture_tiers_same_files "$d"
a=$("$PROG" --root tests/trees/tiered2 --json -n 1 | jq -S -c '[.numa_balancing.memory_tiers, .numa_balancing.demotion_enabled, .numa_balancing.promote_rate_limit_mbps, [.nodes[].hmat]]')
b=$("$PROG" --root "$T/tiers" --json -n 1 | jq -S -c '[.numa_balancing.memory_tiers, .numa_balancing.demotion_enabled, .numa_balancing.promote_rate_limit_mbps, [.nodes[].hmat]]')
[ -n "$a" ] && [ "$a" = "$b" ] && ok capture_tiers_same_json || bad capture_tiers_same_json "$a" "$b"
# A capture of a capture is the capture.
"$PROG" --root "$T/tree" --capture "$T/tree2" >/dev/null 2>&1
d=$(diff -r -x numatop-tui-capture.txt "$T/tree" "$T/tree2" 2>&1)
[ -z "$d" ] && ok capture_of_capture || bad capture_of_capture "$d"

# --- the destination ---
mkdir "$T/full" "$T/keep-mode" && chmod 0755 "$T/full" "$T/keep-mode" && echo x >"$T/full/keep"
out=$("$PROG" --root "$TREE" --capture "$T/full" 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "is not empty" && [ "$(ls "$T/full")" = keep ] &&
	[ "$(stat -c %a "$T/full")" = "$(stat -c %a "$T/keep-mode")" ] &&
	ok capture_refuses_nonempty || bad capture_refuses_nonempty "rc=$rc $out $(ls "$T/full")"
mkdir "$T/empty" && ln -s "$T/empty" "$T/link"
out=$("$PROG" --root "$TREE" --capture "$T/link" 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "symbolic link" && [ -z "$(ls "$T/empty")" ] &&
	ok capture_refuses_symlink || bad capture_refuses_symlink "rc=$rc $out $(ls "$T/empty")"
: >"$T/file"
out=$("$PROG" --root "$TREE" --capture "$T/file" 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "not a directory" && [ ! -s "$T/file" ] &&
	ok capture_refuses_file || bad capture_refuses_file "rc=$rc $out"
out=$("$PROG" --root "$TREE" --capture "$T/no/such/dir" 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "no/such/dir" && ok capture_refuses_no_parent ||
	bad capture_refuses_no_parent "rc=$rc $out"
out=$("$PROG" --root "$TREE" --capture "$T/empty" 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$(procdirs "$T/empty" | wc -l)" -eq 4 ] && ok capture_into_empty_dir ||
	bad capture_into_empty_dir "rc=$rc $out"

# A directory someone else could change or read is refused (as the
# settings file's): owned by another user, writable by its group or by
# everyone (sticky or not). Nothing is written into it.
if [ "$(id -u)" = 0 ]; then
	for m in nobody 0777 1777 0770 0703; do
		d=$T/not-mine-$m
		mkdir "$d"
		case $m in nobody) chown 65534 "$d" ;; *) chmod "$m" "$d" ;; esac
		out=$("$PROG" --root "$TREE" --capture "$d" 2>&1); rc=$?
		[ $rc -eq 1 ] && [ -z "$(ls -A "$d")" ] && printf '%s\n' "$out" | grep -Eq "owned by uid 65534|writable by" ||
			echo "$m: rc=$rc $out; in it: $(ls -A "$d" | head -3)"
	done >"$T/o.out"
	[ ! -s "$T/o.out" ] && ok capture_refuses_others_dir || bad capture_refuses_others_dir "$(cat "$T/o.out")"
else
	echo "SKIP capture_refuses_others_dir: needs root (chown)"
fi
# Private: an existing empty directory of ours (0755) and a new one end
# 0700, every directory 0700 and every file 0600.
mkdir "$T/open" && chmod 0755 "$T/open"
"$PROG" --root "$TREE" --capture "$T/open" >/dev/null 2>&1
(umask 0; "$PROG" --root "$TREE" --capture "$T/new" >/dev/null 2>&1)
for d in "$T/open" "$T/new"; do
	[ "$(stat -c %a "$d")" = 700 ] && [ -s "$d/proc/1000/numa_maps" ] &&
		[ -z "$(find "$d" ! -type l \( -perm /077 -o -type f ! -perm 0600 -o -type d ! -perm 0700 \))" ] ||
		echo "$d: $(stat -c %a "$d"); $(find "$d" ! -type l \( -perm /077 -o -type f ! -perm 0600 \) -printf '%m %p\n' | head -5)"
done >"$T/o.out"
[ ! -s "$T/o.out" ] && ok capture_private_modes || bad capture_private_modes "$(cat "$T/o.out")"

# --- what it holds: said; --capture-anonymize leaves names out ---
# The tree names users (etc/passwd), has command lines with arguments and
# mapped files: the summary says so. Anonymized: no etc/passwd, each
# command line is its command name, numa_maps names no file, and --root
# reads it without a word on stderr: the same processes and numbers, uids
# for users.
out=$("$PROG" --root "$TREE" --capture "$T/named" 2>&1)
printf '%s\n' "$out" | grep -q '^includes: 4 user names, 4 command lines with their arguments, the mapped file paths of 3 processes' &&
	printf '%s\n' "$out" | grep -q -- '--capture-anonymize leaves out the host name, user names, command lines' &&
	cmp -s "$TREE/etc/passwd" "$T/named/etc/passwd" && ok capture_says_what_it_holds || bad capture_says_what_it_holds "$out"
out=$("$PROG" --root "$TREE" --capture "$T/anon" --capture-anonymize 2>&1); rc=$?
printf '%s\n' "$out" | grep -q '^includes: command names, uids, cgroup paths$' &&
	printf '%s\n' "$out" | grep -q '^left out (--capture-anonymize): the host name, user names, command lines' &&
	grep -q 'left out (--capture-anonymize)' "$T/anon/numatop-tui-capture.txt" &&
	[ $rc -eq 0 ] && ok capture_anonymize_says || bad capture_anonymize_says "rc=$rc $out"
left=$(cd "$T/anon" && { ls etc 2>/dev/null; grep -rl -e 'file=/' -e alice -e bob -e '/home' .; })
cmds=$(for p in $(procdirs "$T/anon"); do
	c=$(tr '\0' ' ' <"$T/anon/proc/$p/cmdline"); comm=$(sed 's/^[0-9]* (\(.*\)) .*/\1/' "$T/anon/proc/$p/stat")
	[ -z "$c" ] || [ "$c" = "$comm " ] || echo "$p: '$c' is not '$comm'"
done)
[ "$(procdirs "$T/anon" | wc -l)" -eq 4 ] && [ -z "$left" ] && [ -z "$cmds" ] && ok capture_anonymize_leaves_out ||
	bad capture_anonymize_leaves_out "left: $left; $cmds"
ANON='del(.host) | .processes |= map(del(.user, .cmdline))'
"$PROG" --root "$TREE" --json -n 1 --cgroups | jq -S -c "$VOLATILE | $ANON" >"$T/an.a" 2>&1
"$PROG" --root "$T/anon" --json -n 1 --cgroups 2>"$T/an.err" >"$T/an.json"
jq -S -c "$VOLATILE | $ANON" "$T/an.json" >"$T/an.b" 2>&1
users=$(jq -r '.processes[].user' "$T/an.json" | sort -u | tr '\n' ' ')
[ -s "$T/an.a" ] && cmp -s "$T/an.a" "$T/an.b" && [ ! -s "$T/an.err" ] && [ "$users" = "0 1000 1001 " ] &&
	ok capture_anonymize_reads_back || bad capture_anonymize_reads_back "users: $users; $(cat "$T/an.err"; diff "$T/an.a" "$T/an.b" | head -10)"

# --- the options ---
"$PROG" --capture "$T/o1" --json >"$T/o.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "runs alone" "$T/o.out" && [ ! -e "$T/o1" ] && ok capture_runs_alone ||
	bad capture_runs_alone "rc=$rc $(cat "$T/o.out")"
"$PROG" --capture-processes none >"$T/o.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "needs --capture" "$T/o.out" && ok capture_processes_needs_capture ||
	bad capture_processes_needs_capture "rc=$rc $(cat "$T/o.out")"
n=0
for spec in top:0 top top:x some top:-1 "top 1x" top:99999999999; do
	"$PROG" --capture "$T/o2" --capture-processes "$spec" >/dev/null 2>&1
	[ $? -eq 2 ] && [ ! -e "$T/o2" ] || { n=$((n + 1)); echo "accepted '$spec'"; }
done >"$T/o.out"
[ $n -eq 0 ] && ok capture_processes_bad_specs || bad capture_processes_bad_specs "$(cat "$T/o.out")"
"$PROG" --capture-anonymize -b -n 1 >"$T/o.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "capture-anonymize needs --capture" "$T/o.out" && ok capture_anonymize_needs_capture ||
	bad capture_anonymize_needs_capture "rc=$rc $(cat "$T/o.out")"
"$PROG" --help | grep -q -- "--capture DIR" && "$PROG" --help | grep -q -- "--capture-processes" &&
	"$PROG" --help | grep -q -- "--capture-anonymize" &&
	ok capture_in_help || bad capture_in_help

# --- --capture-processes and -p on the tree ---
"$PROG" --root "$TREE" --capture "$T/none" --capture-processes=none >/dev/null 2>&1
n=$("$PROG" --root "$T/none" --json -n 1 --kernel-threads | jq '.processes | length')
[ "$n" = 0 ] && [ -z "$(procdirs "$T/none")" ] && [ -s "$T/none/proc/meminfo" ] &&
	ok capture_processes_none || bad capture_processes_none "n=$n $(procdirs "$T/none")"
# top 2 by resident memory: the tree's two largest (EXPECTED.md: 1000, 2000).
want=$("$PROG" --root "$TREE" --json -n 1 --kernel-threads |
	jq -r '.processes | sort_by(-.rss_kb, .pid) | .[0:2] | map(.pid) | sort | .[]' | tr '\n' ' ')
for spec in "top 2" top:2 top=2 top2; do
	rm -rf "$T/top"
	"$PROG" --root "$TREE" --capture "$T/top" --capture-processes "$spec" >/dev/null 2>&1
	got=$("$PROG" --root "$T/top" --json -n 1 --kernel-threads | jq -r '.processes[].pid' | sort -n | tr '\n' ' ')
	[ "$got" = "$want" ] || echo "$spec: $got, not $want"
done >"$T/top.out"
[ ! -s "$T/top.out" ] && [ -n "$want" ] && ok capture_processes_top || bad capture_processes_top "$(cat "$T/top.out")"
"$PROG" --root "$TREE" --capture "$T/p" -p 2000,3000 >/dev/null 2>&1
got=$(procdirs "$T/p" | tr '\n' ' ')
[ "$got" = "2000 3000 " ] && ok capture_pid_list || bad capture_pid_list "$got"

# --- this machine, beside a live sample ---
if [ ! -x "$HOG" ] || [ ! -r /proc/self/numa_maps ]; then
	echo "SKIP capture_live: $HOG not built or no numa_maps"
	exit 0
fi
"$HOG" 48 2 >"$T/hog.out" 2>&1 &
H=$!; pids="$pids $H"
n=50; while [ $n -gt 0 ] && ! grep -q ready "$T/hog.out"; do sleep 0.1; n=$((n - 1)); done
"$PROG" --json -n 1 --full >"$T/live.json" 2>"$T/live.err"
start=$(date +%s.%N)
out=$("$PROG" --capture "$T/live" 2>&1); rc=$?
end=$(date +%s.%N)
"$PROG" --root "$T/live" --json -n 1 --full >"$T/cap.json" 2>"$T/cap.err"
nproc_cap=$(procdirs "$T/live" | wc -l)
echo "    (captured $nproc_cap processes in $(echo "$end - $start" | bc 2>/dev/null || echo '?') s)"
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "read it back: numatop-tui --root $T/live" &&
	[ -s "$T/live/numatop-tui-capture.txt" ] && [ "$nproc_cap" -gt 1 ] &&
	ok capture_live_exit || bad capture_live_exit "rc=$rc $out"
# PIDs: the helper in both; a live-sample process still running after the
# capture (same start time) is in the capture.
jq -r '.processes[] | "\(.pid) \(.start_ticks)"' "$T/live.json" | sort >"$T/live.pids"
jq -r '.processes[] | "\(.pid) \(.start_ticks)"' "$T/cap.json" | sort >"$T/cap.pids"
missing=$(comm -23 "$T/live.pids" "$T/cap.pids" | while read -r p st; do
	[ -r "/proc/$p/stat" ] || continue
	now=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f20)
	[ "$now" = "$st" ] && echo "$p"
done)
both=$(comm -12 "$T/live.pids" "$T/cap.pids" | wc -l)
grep -q "^$H " "$T/live.pids" && grep -q "^$H " "$T/cap.pids" && [ -z "$missing" ] && [ "$both" -gt 1 ] &&
	ok capture_live_same_pids || bad capture_live_same_pids "missing: $missing; in both: $both"
pick=".processes[] | select(.pid == $H) | {comm, cmdline, user, uid, threads, start_ticks, node_kb, anon_kb, file_kb, huge_kb, total_kb, mappings, policy, numa_maps}"
a=$(jq -S -c "$pick" "$T/live.json"); b=$(jq -S -c "$pick" "$T/cap.json")
[ -n "$a" ] && [ "$a" = "$b" ] && printf '%s\n' "$a" | grep -q '"numa_maps":"ok"' &&
	ok capture_live_helper_node_kb || bad capture_live_helper_node_kb "live: $a
capture: $b"
topo='{nodes: [.nodes[] | {id, cpus, cpus_online, kind, mem_total_kb}], distances, cgroup_layout, numa}'
a=$(jq -S -c "$topo" "$T/live.json"); b=$(jq -S -c "$topo" "$T/cap.json")
[ -n "$a" ] && [ "$a" = "$b" ] && ok capture_live_same_topology || bad capture_live_same_topology "live: $a
capture: $b"
[ ! -s "$T/cap.err" ] && ok capture_live_reads_clean || bad capture_live_reads_clean "$(head -5 "$T/cap.err")"
out=$("$PROG" --capture "$T/ltop" --capture-processes top:5 2>&1)
n=$(procdirs "$T/ltop" | wc -l)
# Five, less those of the five that exited while read (a busy machine:
# the capture says how many).
left=$(printf '%s\n' "$out" | sed -n 's/.* copied, \([0-9]*\) left out (exited while read).*/\1/p')
[ -n "$left" ] && [ "$n" -ge 1 ] && [ $((n + left)) -eq 5 ] && ok capture_live_top5 ||
	bad capture_live_top5 "n=$n left=$left: $out"
"$PROG" --capture "$T/lnone" --capture-processes none >/dev/null 2>&1
n=$("$PROG" --root "$T/lnone" --json -n 1 --kernel-threads | jq '.processes | length')
[ "$n" = 0 ] && ok capture_live_none || bad capture_live_none "n=$n"

# Not more readable than /proc: a user who cannot read a root process's
# numa_maps there cannot read its copy (the capture 0700, files 0600).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	NB="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 0755 "$T"
	p=$(procdirs "$T/live" | while read -r p; do
		[ "$(stat -c %u "/proc/$p" 2>/dev/null)" = 0 ] && [ -s "$T/live/proc/$p/numa_maps" ] &&
			! $NB cat "/proc/$p/numa_maps" >/dev/null 2>&1 && echo "$p" && break
	done)
	if [ -n "$p" ]; then
		got=$($NB cat "$T/live/proc/$p/numa_maps" 2>&1 | head -c 200); rc=$?
		others=$(find "$T/live" ! -type l -perm /077 | head -5)
		! $NB test -r "$T/live/proc/$p/numa_maps" && [ -z "$others" ] && ok capture_live_not_readable_by_others ||
			bad capture_live_not_readable_by_others "nobody read proc/$p/numa_maps: $got; readable by others: $others"
	else
		echo "SKIP capture_live_not_readable_by_others: no root process whose numa_maps nobody cannot read"
	fi
	chmod 0700 "$T"
else
	echo "SKIP capture_live_not_readable_by_others: needs root and setpriv"
fi
# Anonymized on the live machine: a secret on a command line, the host
# name and user names are not in it; --root reads it cleanly.
bash -c 'exec -a "$0" sleep 30' "numatop-secret-$$ --password=numatop-secret-$$" &
B=$!; pids="$pids $B"
n=20; while [ $n -gt 0 ] && ! grep -q "numatop-secret" "/proc/$B/cmdline" 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
"$PROG" --capture "$T/lnamed" -p "$B" >/dev/null 2>&1
out=$("$PROG" --capture "$T/lanon" -p "$B" --capture-anonymize 2>&1); rc=$?
"$PROG" --root "$T/lanon" --json -n 1 -p "$B" 2>"$T/lanon.err" >"$T/lanon.json"
a=$(jq -c ".host, (.processes[] | select(.pid == $B) | [.user, .cmdline, .comm])" "$T/lanon.json" | tr '\n' ' ')
grep -rq "numatop-secret-$$" "$T/lnamed" && [ -s "$T/lnamed/proc/sys/kernel/hostname" ] &&
	[ $rc -eq 0 ] && ! grep -rq "numatop-secret" "$T/lanon" && [ ! -e "$T/lanon/proc/sys/kernel/hostname" ] &&
	[ ! -e "$T/lanon/etc" ] && [ ! -s "$T/lanon.err" ] && [ "$a" = 'null ["0","sleep","sleep"] ' ] &&
	ok capture_live_anonymize || bad capture_live_anonymize "rc=$rc $out; read back: $a $(cat "$T/lanon.err");
in the plain capture: $(grep -rl "numatop-secret-$$" "$T/lnamed" | head -3); in the anonymized: $(grep -rl numatop-secret "$T/lanon" | head -3)"

# --- churn: a process that exits while it is copied is left out whole ---
if [ -x "$CHURN" ]; then
	"$CHURN" 4 >/dev/null 2>&1 &
	pids="$pids $!"
	sleep 0.5
	i=0; half=""
	while [ $i -lt 3 ]; do
		rm -rf "$T/churn"
		"$PROG" --capture "$T/churn" >/dev/null 2>&1 || half="$half rc=$?"
		for p in $(procdirs "$T/churn"); do
			for f in stat status cmdline; do
				[ -f "$T/churn/proc/$p/$f" ] || half="$half $p/$f"
			done
		done
		i=$((i + 1))
	done
	[ -z "$half" ] && ok capture_churn_whole_processes || bad capture_churn_whole_processes "$half"
else
	echo "SKIP capture_churn_whole_processes: $CHURN not built"
fi
