#!/bin/sh
# shellcheck disable=SC2015,SC2048,SC2086  # "a && pass || fail"; word splitting on purpose
# The tests run inside the vmtest guest (busybox sh, as root), started by
# /init as "payload.sh LAYOUT". Prints "PASS LAYOUT_name", "FAIL LAYOUT_name"
# (with indented details) and "SKIP LAYOUT_name: why" lines on the console;
# the exit status is the number of failures (at most 125).
#
# The layout file (/vmtest/layouts/LAYOUT.layout) says what QEMU was asked
# for; the kernel's /sys/devices/system/node says what the guest got; the
# program must print the latter. The memory tests use nodes 0 and 1 and a
# memhog of 64 MiB placed with numactl; the cgroup tests (cgroup v2, mounted
# here if /init did not) the first and last nodes and a memhog in a cgroup
# whose cpuset.mems is changed. No check depends on timing (the waits for
# the kernel are bounded polls).
L=${1:?usage: payload.sh LAYOUT}
LF=/vmtest/layouts/$L.layout
# Full paths: this busybox runs its own applets (it has a setpriv too) in
# preference to $PATH.
P=/usr/bin/numatop-tui
SETPRIV=/usr/bin/setpriv
SYS=/sys/devices/system/node
T=/tmp/vt
MB=64                           # memhog size
KB=$((MB * 1024))
MIN95=$((KB * 95 / 100))        # "the pages moved": >= 95 % on the target
mkdir -p $T
nfail=0

pass() { echo "PASS ${L}_$1"; }
fail() {
	echo "FAIL ${L}_$1"; shift
	# Each further argument is a detail, printed indented below the line.
	for d in "$@"; do printf '%s\n' "$d"; done | sed 's/^/    /'
	nfail=$((nfail + 1))
}
skip() { echo "SKIP ${L}_$1: $2"; }
# Whitespace-normalised words: "a  b\n c" -> "a b c".
words() { echo $*; }
# Expand a kernel cpulist/nodelist: "0-2,5" -> "0 1 2 5"; "" -> "".
expand() {
	echo "$1" | awk -F, '{ s = ""
		for (i = 1; i <= NF; i++) {
			if (split($i, r, "-") == 2) { for (c = r[1] + 0; c <= r[2] + 0; c++) s = s " " c }
			else if ($i != "") s = s " " ($i + 0)
		}
		sub(/^ /, "", s); print s }'
}
# run NAME CMD...: CMD's stdout in $T/NAME.out, stderr in $T/NAME.err,
# status in $RC; a hung program is killed (the status is then non-zero).
run() {
	o=$1; shift
	timeout 120 "$@" >"$T/$o.out" 2>"$T/$o.err"
	RC=$?
}
why() {
	echo "exit $RC; stderr: $(head -c 400 "$T/$1.err")"
	[ -s "$T/$1.out" ] && echo "stdout: $(head -c 600 "$T/$1.out")"
}

# --- Layout file, sysfs and flattened JSON (tests/helpers/jsonflat.c). ----
lay_nodes=$(awk '$1 == "node" { printf "%s ", $2 }' "$LF")
lay_cores=$(awk '$1 == "cores" { print $2 }' "$LF")
lay_field() { awk -v n="$1" -v f="$2" '$1 == "node" && $2 == n { print $f }' "$LF"; }
lay_row() {
	awk -v n="$1" '$1 == "node" && $2 == n { for (i = 5; i <= NF; i++) printf "%s ", $i }' "$LF"
}
sys_nodes=$(expand "$(cat $SYS/online)")
sys_cpus() { expand "$(cat $SYS/node$1/cpulist)"; }
sys_dist() { words "$(cat $SYS/node$1/distance)"; }
# jkey KEY: KEY as a grep pattern (dots literal).
jkey() { echo "$1" | sed 's/\./\\./g'; }
# jget FLAT KEY: one value; jlist FLAT KEY: the elements of an array.
jget() { grep "^$(jkey "$2")=" "$1" | head -1 | cut -d= -f2-; }
jlist() { words "$(grep "^$(jkey "$2")\.[0-9]*=" "$1" | cut -d= -f2-)"; }
# jnode FLAT ID / jproc FLAT PID: index in "nodes" / "processes", or "".
jnode() { grep "^nodes\.[0-9]*\.id=$2\$" "$1" | head -1 | cut -d. -f2; }
jproc() { grep "^processes\.[0-9]*\.pid=$2\$" "$1" | head -1 | cut -d. -f2; }

# numa_kb PID NODE: kB of PID's pages on NODE from /proc/PID/numa_maps
# (pages x kernelpagesize_kB, summed over the mappings).
numa_kb() {
	awk -v n="N$2" '{ ps = 4
		for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) ps = substr($i, 19) + 0
		for (i = 1; i <= NF; i++) { split($i, a, "="); if (a[1] == n) kb += a[2] * ps } }
		END { print kb + 0 }' "/proc/$1/numa_maps" 2>/dev/null || echo 0
}
numa_all() { for n in $sys_nodes; do printf 'N%s=%s ' "$n" "$(numa_kb "$1" "$n")"; done; }

# threads_not_on PID CPULIST: the threads whose Cpus_allowed_list differs.
threads_not_on() {
	for s in /proc/$1/task/*/status; do
		a=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$s")
		[ "$a" = "$2" ] || echo "${s%/status}: $a"
	done
}
nthreads() { ls /proc/$1/task | wc -l; }
# thp PID: transparent huge page facts, for the details of a failed move.
thp() {
	echo "THP $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null);" \
		"$(grep AnonHugePages "/proc/$1/smaps_rollup" 2>/dev/null)"
}

# start_hog MEMNODE CPUNODE THREADS: a 64 MiB memhog under numactl, waited
# for until it says "ready"; its PID in $HOG ("" if it did not start).
hogs=""
nhog=0
start_hog() {
	nhog=$((nhog + 1))
	/usr/bin/numactl --membind="$1" --cpunodebind="$2" /usr/bin/memhog $MB "$3" >"$T/hog$nhog" 2>&1 &
	HOG=$!
	wait_hog
}
# wait_hog: wait for the memhog started as $HOG (output in $T/hog$nhog).
wait_hog() {
	hogs="$hogs $HOG"
	i=0
	until grep -q '^ready' "$T/hog$nhog" 2>/dev/null; do
		i=$((i + 1))
		if ! kill -0 "$HOG" 2>/dev/null || [ $i -gt 3000 ]; then
			echo "    memhog did not start: $(cat "$T/hog$nhog")"
			HOG=""
			return 1
		fi
		sleep 0.1
	done
}
stop_hog() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
trap 'for h in $hogs; do kill $h 2>/dev/null; done' EXIT

# --- 1. The guest has the layout asked for. --------------------------------
[ "$(words $sys_nodes)" = "$(words $lay_nodes)" ] && pass layout_nodes ||
	fail layout_nodes "sysfs online: $sys_nodes; layout: $lay_nodes"
bad=""
for n in $lay_nodes; do
	[ "$(sys_dist "$n")" = "$(words "$(lay_row "$n")")" ] ||
		bad="$bad node$n: sysfs '$(sys_dist "$n")' layout '$(lay_row "$n")';"
	c=$(sys_cpus "$n" | wc -w)
	if [ "$(lay_field "$n" 4)" = yes ]; then want=${lay_cores:-1}; else want=0; fi
	[ "$c" -eq "$want" ] || bad="$bad node$n: $c CPUs, want $want;"
done
[ -z "$bad" ] && pass layout_matches || fail layout_matches "$bad"

# --- 2. JSON: nodes, CPUs and distances are what the kernel shows. ---------
run json $P --json -n 1
if [ $RC -eq 0 ] && /usr/bin/jsonflat <"$T/json.out" >"$T/json.flat" 2>"$T/json.flaterr" &&
	[ "$(wc -l <"$T/json.out")" -eq 1 ]; then
	pass json_runs
else
	fail json_runs "$(why json) $(cat "$T/json.flaterr" 2>/dev/null)"
fi
F=$T/json.flat
jn=$(words "$(grep '^nodes\.[0-9]*\.id=' "$F" | cut -d= -f2)")
[ "$jn" = "$(words $sys_nodes)" ] && pass json_nodes ||
	fail json_nodes "JSON nodes '$jn', sysfs '$sys_nodes'"
bad=""
for n in $sys_nodes; do
	i=$(jnode "$F" "$n")
	[ -n "$i" ] || { bad="$bad node$n missing;"; continue; }
	[ "$(jlist "$F" "nodes.$i.cpus")" = "$(words "$(sys_cpus "$n")")" ] ||
		bad="$bad node$n: JSON '$(jlist "$F" "nodes.$i.cpus")' sysfs '$(sys_cpus "$n")';"
done
[ -z "$bad" ] && pass json_cpus || fail json_cpus "$bad"
bad=""
[ "$(jlist "$F" distances.nodes)" = "$(words $sys_nodes)" ] ||
	bad="distances.nodes '$(jlist "$F" distances.nodes)';"
r=0
for n in $sys_nodes; do
	[ "$(jlist "$F" "distances.matrix.$r")" = "$(sys_dist "$n")" ] ||
		bad="$bad row $r: JSON '$(jlist "$F" "distances.matrix.$r")' sysfs '$(sys_dist "$n")';"
	r=$((r + 1))
done
[ -z "$bad" ] && pass json_distances || fail json_distances "$bad"

# The same distances in the text output: "DISTANCE N0 N1 ..." then rows.
run batch $P -b -n 1
bad=""
[ $RC -eq 0 ] || bad="$(why batch);"
hdr=$(awk '$1 == "DISTANCE" { $1 = ""; print; exit }' "$T/batch.out")
[ "$(words $hdr)" = "$(words $(for n in $sys_nodes; do echo "N$n"; done))" ] ||
	bad="$bad header '$hdr';"
for n in $sys_nodes; do
	row=$(awk -v r="N$n" 'h && $1 == r { $1 = ""; print; exit } $1 == "DISTANCE" { h = 1 }' "$T/batch.out")
	[ "$(words $row)" = "$(sys_dist "$n")" ] || bad="$bad N$n: '$row' sysfs '$(sys_dist "$n")';"
done
[ -z "$bad" ] && pass batch_distances || fail batch_distances "$bad"

# --- 3. A memory-only node: memory, no CPUs, marked as such. ---------------
memonly=""
for n in $lay_nodes; do [ "$(lay_field "$n" 4)" = no ] && memonly="$memonly $n"; done
if [ -z "$memonly" ]; then
	skip memonly_node "layout has no memory-only node"
else
	bad=""
	for n in $memonly; do
		[ -z "$(sys_cpus "$n")" ] || bad="$bad sysfs node$n has CPUs;"
		i=$(jnode "$F" "$n")
		[ -n "$i" ] || { bad="$bad node$n not in JSON;"; continue; }
		[ "$(jget "$F" "nodes.$i.cpus")" = "[]" ] || bad="$bad JSON cpus '$(jlist "$F" "nodes.$i.cpus")';"
		[ "$(jget "$F" "nodes.$i.kind")" = memory-only ] || bad="$bad JSON kind '$(jget "$F" "nodes.$i.kind")';"
		[ "$(jget "$F" "nodes.$i.mem_total_kb")" -gt 0 ] 2>/dev/null || bad="$bad JSON mem_total_kb not > 0;"
		awk -v n="$n" 'h && $1 == n { print; exit } $1 == "NODE" { h = 1 }' "$T/batch.out" |
			grep -q 'memory-only' || bad="$bad text node row lacks 'memory-only';"
	done
	[ -z "$bad" ] && pass memonly_node || fail memonly_node "$bad"
fi

if [ -z "$(sys_cpus 0)" ] || [ -z "$(sys_cpus 1)" ]; then
	for t in hog migrate rebind both tui nonroot exited readonly cgroup; do
		skip "$t" "the memory tests need CPUs on nodes 0 and 1"
	done
	exit $((nfail > 125 ? 125 : nfail))
fi
CPUS0=$(cat $SYS/node0/cpulist)
CPUS1=$(cat $SYS/node1/cpulist)

# json_proc NAME PID: "--json -n 1 -p PID" flattened in $T/NAME.flat;
# sets $J (index of PID in processes, "" if absent).
json_proc() {
	run "$1" $P --json -n 1 -p "$2"
	/usr/bin/jsonflat <"$T/$1.out" >"$T/$1.flat" 2>/dev/null
	J=$(jproc "$T/$1.flat" "$2")
}
# batch_col FILE PID COLUMN: PID's value in the process table column.
batch_col() {
	awk -v pid="$2" -v col="$3" '$1 == "PID" { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		c && $1 == pid { print $c; exit }' "$1"
}

# --- 4. Memory on node 0, threads on node 1: HOME 1, 64 MiB REMOTE. --------
start_hog 0 1 0
[ -n "$HOG" ] && [ "$(numa_kb "$HOG" 0)" -ge $MIN95 ] && pass hog_start ||
	fail hog_start "numactl --membind=0 did not put the pages on node 0: $(numa_all "$HOG")"
if [ -n "$HOG" ]; then
	json_proc hogj "$HOG"
	home=$(jget "$T/hogj.flat" "processes.$J.home_node")
	remote=$(jget "$T/hogj.flat" "processes.$J.remote_kb")
	[ -n "$J" ] && [ "$home" = 1 ] && pass hog_json_home ||
		fail hog_json_home "home_node '$home' (want 1); $(why hogj)"
	[ "$remote" -ge $MIN95 ] 2>/dev/null && [ "$remote" -le $((KB + 8192)) ] && pass hog_json_remote ||
		fail hog_json_remote "remote_kb '$remote', want about $KB; numa_maps $(numa_all "$HOG")"
	run hogb $P -b -n 1 -p "$HOG"
	home=$(batch_col "$T/hogb.out" "$HOG" HOME)
	remote=$(batch_col "$T/hogb.out" "$HOG" REMOTE)
	[ "$home" = 1 ] && pass hog_batch_home || fail hog_batch_home "HOME '$home'; $(why hogb)"
	[ "$remote" -ge $MIN95 ] 2>/dev/null && [ "$remote" -le $((KB + 8192)) ] && pass hog_batch_remote ||
		fail hog_batch_remote "REMOTE '$remote', want about $KB"

	# --- 5. --migrate PID --to 1: the pages follow the threads. --------
	run migrate $P --migrate "$HOG" --to 1
	sed 's/^/# /' "$T/migrate.out"   # for the log (VMTEST_VERBOSE=1)
	[ $RC -eq 0 ] && [ -s "$T/migrate.out" ] && pass migrate_exit ||
		fail migrate_exit "$(why migrate)" "$(thp "$HOG")"
	on1=$(numa_kb "$HOG" 1)
	[ "$on1" -ge $MIN95 ] && pass migrate_pages ||
		fail migrate_pages "N1 $on1 kB, want >= $MIN95; numa_maps $(numa_all "$HOG")"
	json_proc migj "$HOG"
	home=$(jget "$T/migj.flat" "processes.$J.home_node")
	remote=$(jget "$T/migj.flat" "processes.$J.remote_kb")
	[ "$home" = 1 ] && [ "$remote" -lt 2048 ] 2>/dev/null && pass migrate_remote ||
		fail migrate_remote "home '$home' remote_kb '$remote' (want < 2048)"
	stop_hog "$HOG"
else
	for t in hog_json_home hog_json_remote hog_batch_home hog_batch_remote \
		migrate_exit migrate_pages migrate_remote; do fail $t "no memhog"; done
fi

# --- 6. --rebind PID --to 0: every thread's affinity is node 0's CPUs. -----
start_hog 1 1 3
if [ -n "$HOG" ]; then
	run rebind $P --rebind "$HOG" --to 0
	[ $RC -eq 0 ] && pass rebind_exit || fail rebind_exit "$(why rebind)"
	bad=$(threads_not_on "$HOG" "$CPUS0")
	[ "$(nthreads "$HOG")" -eq 4 ] && [ -z "$bad" ] && pass rebind_threads ||
		fail rebind_threads "$(nthreads "$HOG") threads; want all on $CPUS0: $bad"
	# What a rebind cannot change is said: the process's own policy.
	grep -q "^note: memory policy bind:1 stays (another process's policy cannot be changed)" "$T/rebind.out" &&
		pass rebind_policy_note || fail rebind_policy_note "$(cat "$T/rebind.out")"
	# With NUMA balancing on, the note says the kernel may move pages.
	nb=/proc/sys/kernel/numa_balancing
	if [ -w $nb ] && echo 1 >$nb 2>/dev/null; then
		run rebind_nb $P --rebind "$HOG" --to 0
		echo 0 >$nb
		grep -q '^note: kernel.numa_balancing=1: the kernel may move pages again' "$T/rebind_nb.out" &&
			pass rebind_balancing_note || fail rebind_balancing_note "$(cat "$T/rebind_nb.out")"
	else
		skip rebind_balancing_note "this kernel has no writable $nb"
	fi
	stop_hog "$HOG"
else
	fail rebind_exit "no memhog"; fail rebind_threads "no memhog"; fail rebind_policy_note "no memhog"
fi

# --- 7. --migrate PID --rebind PID --to 1: both in one step. ----------------
start_hog 0 0 3
if [ -n "$HOG" ]; then
	run both $P --migrate "$HOG" --rebind "$HOG" --to 1
	[ $RC -eq 0 ] && pass both_exit || fail both_exit "$(why both)" "$(thp "$HOG")"
	on1=$(numa_kb "$HOG" 1)
	[ "$on1" -ge $MIN95 ] && pass both_pages || fail both_pages "N1 $on1 kB; $(numa_all "$HOG")"
	bad=$(threads_not_on "$HOG" "$CPUS1")
	[ -z "$bad" ] && pass both_threads || fail both_threads "want all on $CPUS1: $bad"
	stop_hog "$HOG"
else
	fail both_exit "no memhog"; fail both_pages "no memhog"; fail both_threads "no memhog"
fi

# --- 7b. The m dialog in the monitor, on a pseudo-terminal (ptyrun): it
# opens on the HOME node (1), the preview says what will move, Enter starts; the
# progress screen (bar, MB/s, Esc: cancel) is drawn before the first batch;
# before/after; the pages are on node 1 afterwards. Then again with Esc
# right after Enter: cancelled before any batch, the pages stay.
tui_script() {
	printf '%s\n' 'wait F10Quit' 'send m' 'wait Migrate memory of PID' \
		'sleep 300' 'send \r' 'wait will move to N1' "send $1" 'wait pages by move_pages' \
		'sleep 300' 'send \r' 'sleep 300' 'send q' >"$T/$2.script"
}
# tui_run NAME: the monitor on the memhog, driven by $T/NAME.script; sets
# RC and X (the screen text written).
tui_run() {
	TERM=linux /usr/bin/ptyrun 120 40 "$T/$1.script" "$T/$1.out" -- $P -p "$HOG" -d 1 \
		2>"$T/$1.err"
	RC=$?
	X=$T/$1.out.txt
}
start_hog 0 1 0
if [ -n "$HOG" ]; then
	tui_script '\r' tui_m
	tui_run tui_m
	[ $RC -eq 0 ] && pass tui_migrate_runs || fail tui_migrate_runs "rc=$RC $(cat "$T/tui_m.err")" "$(tail -c 1500 "$X")"
	# The node list with free memory and how much of the process is on
	# each node (all of the 64 MiB on N0), the cursor on the HOME node N1.
	grep -Eq 'N1 +> +[0-9.]+[KMG] ' "$X" && grep -Eq 'N0 +[0-9.]+[KMG] +6[0-9]\.[0-9]M +[0-9]+%' "$X" &&
		grep -q 'will move to N1: 6[0-9]\.[0-9]M' "$X" && pass tui_migrate_node_chosen ||
		fail tui_migrate_node_chosen "$(grep -o 'N[01] [^N]*\|will move to[^(]*' "$X" | head -6)"
	grep -q 'process 1 of 1: [0-9.]* MiB moved, [0-9.]* MB/s' "$X" && grep -q 'Esc: cancel' "$X" &&
		pass tui_migrate_progress || fail tui_migrate_progress "$(tail -c 1500 "$X")"
	grep -q 'before .*N0 ' "$X" && grep -q 'after .*N1 6[0-9]\.[0-9]M' "$X" &&
		grep -q 'moved 6[0-9]\.[0-9]M to N1' "$X" && pass tui_migrate_before_after ||
		fail tui_migrate_before_after "$(grep -o 'before.*\|after.*\|moved.*' "$X" | tail -4)"
	on1=$(numa_kb "$HOG" 1)
	[ "$on1" -ge $MIN95 ] && pass tui_migrate_pages || fail tui_migrate_pages "N1 $on1 kB; $(numa_all "$HOG")"
	stop_hog "$HOG"
else
	fail tui_migrate_runs "no memhog"
fi
start_hog 0 1 0
if [ -n "$HOG" ]; then
	tui_script '\r\e' tui_c
	tui_run tui_c
	on0=$(numa_kb "$HOG" 0)
	[ $RC -eq 0 ] && grep -q 'cancelled' "$X" && [ "$on0" -ge $MIN95 ] && pass tui_migrate_cancel ||
		fail tui_migrate_cancel "rc=$RC; N0 $on0 kB; $(grep -o 'moved[^)]*)[^ ]*' "$X" | tail -2)"
	stop_hog "$HOG"
else
	fail tui_migrate_cancel "no memhog"
fi

# The B dialog: Down past the last node with CPUs stays there (a
# memory-only node cannot take threads), Enter, Enter: every thread runs on
# that node's CPUs.
last=""
for n in $sys_nodes; do [ -n "$(sys_cpus "$n")" ] && last=$n; done
start_hog 0 0 3
if [ -n "$HOG" ]; then
	printf '%s\n' 'wait F10Quit' 'send B' 'wait Rebind threads of PID' 'send \e[B' 'send \e[B' \
		'send \e[B' 'send \e[B' 'sleep 300' 'send \r' 'wait threads will run on' 'send \r' \
		'wait threads set' 'sleep 300' 'send \r' 'sleep 300' 'send q' >"$T/tui_b.script"
	# With NUMA balancing on, the preview says the kernel may move pages.
	nb=/proc/sys/kernel/numa_balancing
	nbon=""; [ -w $nb ] && echo 1 >$nb 2>/dev/null && nbon=1
	tui_run tui_b
	[ -n "$nbon" ] && echo 0 >$nb
	if [ -n "$nbon" ]; then
		grep -q 'kernel.numa_balancing is on: the kernel may move pages again' "$X" &&
			pass tui_balancing_line || fail tui_balancing_line "$(tail -c 1500 "$X")"
	else
		skip tui_balancing_line "this kernel has no writable $nb"
	fi
	want=$(cat $SYS/node$last/cpulist)
	bad=$(threads_not_on "$HOG" "$want")
	[ $RC -eq 0 ] && grep -q "threads will run on CPUs $want (node $last)" "$X" &&
		grep -q 'rebind: 4 of 4 threads set' "$X" && [ -z "$bad" ] && pass tui_rebind_last_cpu_node ||
		fail tui_rebind_last_cpu_node "rc=$RC; want node $last ($want): $bad" "$(grep -o 'threads will run[^)]*)\|rebind: [^t]*threads set' "$X")"
	stop_hog "$HOG"
else
	fail tui_rebind_last_cpu_node "no memhog"
fi

# A memory-only node takes memory but no threads.
for mo in $memonly; do
	start_hog 0 0 0
	[ -n "$HOG" ] || { fail memonly_actions "no memhog"; break; }
	run mo_rebind $P --rebind "$HOG" --to "$mo"
	[ $RC -eq 1 ] && grep -q "node $mo has no CPUs (memory only)" "$T/mo_rebind.err" &&
		pass memonly_rebind_refused || fail memonly_rebind_refused "$(why mo_rebind)"
	run mo_migrate $P --migrate "$HOG" --to "$mo"
	on=$(numa_kb "$HOG" "$mo")
	[ $RC -eq 0 ] && [ "$on" -ge $MIN95 ] && pass memonly_migrate ||
		fail memonly_migrate "$(why mo_migrate); N$mo $on kB; $(numa_all "$HOG")"
	stop_hog "$HOG"
	break
done

# --- 8. Not root: refused with a clear message, nothing moved. -------------
start_hog 1 1 0
if [ -n "$HOG" ]; then
	# The program itself runs as nobody (libraries, /proc, /etc/passwd).
	run nobody $SETPRIV --reuid=65534 --regid=65534 --clear-groups $P --json -n 1 -p "$HOG"
	[ $RC -eq 0 ] && grep -q "\"pid\":$HOG," "$T/nobody.out" && pass nonroot_runs ||
		fail nonroot_runs "$(why nobody)"
	before=$(numa_all "$HOG")
	run nonroot $SETPRIV --reuid=65534 --regid=65534 --clear-groups $P --migrate "$HOG" --to 0
	[ $RC -ne 0 ] && grep -q 'needs root or CAP_SYS_NICE' "$T/nonroot.err" && pass nonroot_refused ||
		fail nonroot_refused "$(why nonroot)"
	after=$(numa_all "$HOG")
	[ "$before" = "$after" ] && [ "$(numa_kb "$HOG" 1)" -ge $MIN95 ] && pass nonroot_unchanged ||
		fail nonroot_unchanged "before $before; after $after"
	stop_hog "$HOG"
else
	fail nonroot_runs "no memhog"; fail nonroot_refused "no memhog"
	fail nonroot_unchanged "no memhog"
fi

# --- 9. A PID that has exited. ----------------------------------------------
start_hog 0 0 0
if [ -n "$HOG" ]; then
	stop_hog "$HOG"
	if [ -d "/proc/$HOG" ]; then
		skip exited_pid "PID $HOG still exists after kill and wait"
	else
		run exited $P --migrate "$HOG" --to 1
		[ $RC -ne 0 ] && grep -q 'process exited' "$T/exited.err" && pass exited_pid ||
			fail exited_pid "$(why exited)"
	fi
else
	fail exited_pid "no memhog"
fi

# --- 10. --readonly refuses to change anything. -----------------------------
start_hog 0 1 0
if [ -n "$HOG" ]; then
	before=$(numa_all "$HOG")
	run ro $P --readonly --migrate "$HOG" --to 1
	# Exit 1, not 2: a program that does not know --readonly must not pass.
	[ $RC -eq 1 ] && grep -q 'readonly' "$T/ro.err" && ! grep -q 'unknown option' "$T/ro.err" &&
		pass readonly_refused ||
		fail readonly_refused "$(why ro)"
	after=$(numa_all "$HOG")
	[ "$before" = "$after" ] && [ "$(numa_kb "$HOG" 0)" -ge $MIN95 ] && pass readonly_unchanged ||
		fail readonly_unchanged "before $before; after $after"
	stop_hog "$HOG"
else
	fail readonly_refused "no memhog"; fail readonly_unchanged "no memhog"
fi

# --- 11. --measure-quick: every (CPU node, memory node) pair measured, the
# buffer's placement verified, the file written. TCG timing says nothing
# about memory, so no value is checked, only that each is there. ----------
run meas env XDG_CACHE_HOME=$T/xdg $P --measure-quick --json
/usr/bin/jsonflat <"$T/meas.out" >"$T/meas.flat" 2>/dev/null
[ $RC -eq 0 ] && [ -s "$T/meas.flat" ] && pass measure_runs || fail measure_runs "$(why meas)"
missing=""; unplaced=""; extra=""
i=0
for ci in $sys_nodes; do
	j=0
	for mj in $sys_nodes; do
		lat=$(jget "$T/meas.flat" "latency_ns.$i.$j")
		pct=$(jget "$T/meas.flat" "on_node_pct.$i.$j")
		bw=$(jget "$T/meas.flat" "bandwidth_all_gbs.$i.$j")
		memkb=$(awk '/MemTotal/ { print $4 }' $SYS/node$mj/meminfo)
		if [ -n "$(sys_cpus $ci)" ] && [ "${memkb:-0}" -gt 0 ]; then
			[ -n "$lat" ] && [ "$lat" != null ] && [ -n "$bw" ] && [ "$bw" != null ] ||
				missing="$missing $ci->$mj"
			awk -v p="$pct" 'BEGIN { exit !(p != "null" && p + 0 >= 95) }' || unplaced="$unplaced $ci->$mj($pct)"
		elif [ "$lat" != null ]; then
			extra="$extra $ci->$mj"
		fi
		j=$((j + 1))
	done
	i=$((i + 1))
done
[ -z "$missing" ] && pass measure_every_pair || fail measure_every_pair "not measured:$missing"
[ -z "$unplaced" ] && pass measure_placement_verified || fail measure_placement_verified "$unplaced"
[ -z "$extra" ] && pass measure_memory_only_rows_empty || fail measure_memory_only_rows_empty "$extra"
saved=$(jget "$T/meas.flat" saved)
[ -n "$saved" ] && [ -f "$saved" ] && case "$saved" in "$T/xdg/numatop-tui/measure-"*) true ;; *) false ;; esac &&
	pass measure_file_written || fail measure_file_written "saved '$saved'"

# --- 12. cgroup v2: a cgroup's memory per node (memory.numa_stat), REMOTE
# against its cpuset.mems, each process's cgroup; then cpuset.mems changed
# to another node: on v2 the kernel moves the pages itself. ----------------
CGR=/sys/fs/cgroup
CG=$CGR/numatop-vm
cfirst=${sys_nodes%% *}
clast=${sys_nodes##* }
# The CPUs of the last node, or every CPU when it has none (memory-only).
ccpus=$(cat $SYS/node$clast/cpulist)
[ -n "$ccpus" ] || ccpus=$(cat /sys/devices/system/cpu/online)
# cg_json NAME: "--json -n 1" flattened in $T/NAME.flat with json-c's "\/"
# as "/"; sets $C (index of /numatop-vm in "cgroups", "" if absent).
cg_json() {
	run "$1" $P --json -n 1
	/usr/bin/jsonflat <"$T/$1.out" 2>/dev/null | sed 's|\\/|/|g' >"$T/$1.flat"
	C=$(grep '^cgroups\.[0-9]*\.path=/numatop-vm$' "$T/$1.flat" | head -1 | cut -d. -f2)
	# For the log (VMTEST_VERBOSE=1).
	[ -n "$C" ] && grep "^cgroups\.$C\." "$T/$1.flat" | tr '\n' ' ' | sed 's/^/# /; s/$/\n/'
}
# cg_facts: what the kernel says, for the details of a failure.
cg_facts() {
	echo "cgroup.procs '$(words "$(cat $CG/cgroup.procs 2>/dev/null)")'" \
		"mems.effective '$(cat $CG/cpuset.mems.effective 2>/dev/null)'" \
		"cpus.effective '$(cat $CG/cpuset.cpus.effective 2>/dev/null)'"
	echo "numa_stat: $(grep -E '^(anon|file) ' $CG/memory.numa_stat 2>/dev/null | tr '\n' ';')"
	[ -n "$HOG" ] && echo "memhog $HOG numa_maps $(numa_all "$HOG"); $(thp "$HOG")"
}
# cg_get FLAT FIELD: the /numatop-vm cgroup's FIELD in FLAT.
cg_get() { jget "$1" "cgroups.$C.$2"; }
# cg_node_check FLAT NODE: "" when /numatop-vm has >= 60000 kB and the
# majority of its memory on NODE, its mems_effective is [NODE] and its
# remote_kb is a number under 10 % of its total; else what is wrong.
cg_node_check() {
	onn=$(cg_get "$1" "node_kb.$2")
	tot=$(cg_get "$1" total_kb)
	rem=$(cg_get "$1" remote_kb)
	nk="node_kb {$(grep "^cgroups\.$C\.node_kb\." "$1" | sed 's/^cgroups\.[0-9]*\.node_kb\.//' | tr '\n' ' ')}"
	[ "$onn" -ge 60000 ] 2>/dev/null && [ $((onn * 2)) -gt "$tot" ] 2>/dev/null ||
		echo "node_kb.$2 '$onn' (want >= 60000 and over half of total_kb '$tot'); $nk"
	[ "$(jlist "$1" "cgroups.$C.mems_effective")" = "$2" ] ||
		echo "mems_effective '$(jlist "$1" "cgroups.$C.mems_effective")' (want $2)"
	case "$rem" in
	'' | null | *[!0-9]*) echo "remote_kb '$rem' (want a number)" ;;
	*) [ $((rem * 10)) -lt "$tot" ] 2>/dev/null ||
		echo "remote_kb $rem (want < 10 % of total_kb '$tot'); $nk" ;;
	esac
	ra=$(cg_get "$1" remote_against)
	[ "$ra" = mems_effective ] || echo "remote_against '$ra' (want mems_effective: [$2] leaves nodes with memory out)"
}

# cg_step WHAT CMD...: run CMD (stderr kept) unless a step failed before;
# a failure is said in $bad.
bad=""
cg_step() {
	[ -z "$bad" ] || return 1
	w=$1; shift
	"$@" 2>"$T/cg.err" || bad="$w: $(cat "$T/cg.err")"
}
cg_write() { echo "$1" >"$2"; }
grep -q "^[^ ]* $CGR cgroup2 " /proc/mounts || cg_step "mount -t cgroup2" mount -t cgroup2 cgroup2 $CGR
cg_step "+cpuset +memory (controllers '$(cat $CGR/cgroup.controllers 2>/dev/null)')" \
	cg_write "+cpuset +memory" $CGR/cgroup.subtree_control
cg_step "mkdir $CG" mkdir $CG
cg_step "cpuset.mems $clast" cg_write "$clast" $CG/cpuset.mems
cg_step "cpuset.cpus $ccpus" cg_write "$ccpus" $CG/cpuset.cpus
[ -z "$bad" ] && pass cgroup_setup || fail cgroup_setup "$bad"
HOG=""
if [ -z "$bad" ]; then
	# The shell moves itself into the cgroup, then becomes the memhog: every
	# page is allocated there (cpuset.mems: the last node).
	nhog=$((nhog + 1))
	/bin/sh -c "echo \$\$ >$CG/cgroup.procs && exec /usr/bin/memhog $MB 0" >"$T/hog$nhog" 2>&1 &
	HOG=$!
	wait_hog
fi
if [ -n "$HOG" ]; then
	[ "$(cat /proc/$HOG/cgroup)" = "0::/numatop-vm" ] && [ "$(numa_kb "$HOG" "$clast")" -ge $MIN95 ] &&
		pass cgroup_hog_start ||
		fail cgroup_hog_start "/proc/$HOG/cgroup '$(cat /proc/$HOG/cgroup)'; want >= $MIN95 kB on N$clast" "$(cg_facts)"

	# --- 12a. Memory on the last node, as cpuset.mems says. -----------------
	cg_json cgj
	F=$T/cgj.flat
	[ $RC -eq 0 ] && [ "$(jget "$F" cgroup_layout)" = v2 ] && pass cgroup_json_layout ||
		fail cgroup_json_layout "cgroup_layout '$(jget "$F" cgroup_layout)'; $(why cgj)"
	[ -n "$C" ] && [ "$(cg_get "$F" state)" = ok ] && [ "$(cg_get "$F" version)" = 2 ] &&
		[ "$(cg_get "$F" processes)" = 1 ] && [ "$(cg_get "$F" processes_own)" = 1 ] &&
		pass cgroup_json_found ||
		fail cgroup_json_found "index '$C' state '$(cg_get "$F" state)' version '$(cg_get "$F" version)'" \
			"processes '$(cg_get "$F" processes)' processes_own '$(cg_get "$F" processes_own)' (want 1, 1)" \
			"$(cg_facts)"
	[ "$(jlist "$F" "cgroups.$C.cpus_effective")" = "$(words "$(expand "$ccpus")")" ] &&
		pass cgroup_json_cpus || fail cgroup_json_cpus \
		"cpus_effective '$(jlist "$F" "cgroups.$C.cpus_effective")' (want $(expand "$ccpus"))"
	bad=$(cg_node_check "$F" "$clast")
	[ -n "$C" ] && [ -z "$bad" ] && pass cgroup_json_last_node || fail cgroup_json_last_node "$bad" "$(cg_facts)"
	J=$(jproc "$F" "$HOG")
	pc=$(jget "$F" "processes.$J.cgroup")
	[ -n "$J" ] && [ "$pc" = /numatop-vm ] && pass cgroup_json_proc_cgroup ||
		fail cgroup_json_proc_cgroup "PID $HOG at index '$J': cgroup '$pc' (want /numatop-vm)"

	# --- 12b. The text table names it (the path is the last column). ---------
	run cgb $P -b --cgroups -n 1
	sed -n '/^cgroups/,$s/^/# /p' "$T/cgb.out"
	[ $RC -eq 0 ] && grep -q '/numatop-vm$' "$T/cgb.out" && pass cgroup_batch_line ||
		fail cgroup_batch_line "$(why cgb)" "$(sed -n '/^cgroups/,$p' "$T/cgb.out" | head -12)"

	# --- 12c. The cgroup action: --migrate-cgroup sets cpuset.mems to the
	# first node, the kernel moves the pages (v2 cpusets migrate on a mems
	# change); its after numbers say so, and numa_maps agrees (polled for
	# up to 20 s). --------------------------------------------------------
	run cgmv $P --migrate-cgroup /numatop-vm --to "$cfirst"
	sed 's/^/# /' "$T/cgmv.out"
	set -- $(sed -n "s/^cpuset.mems.effective \([^;]*\); on node $cfirst: \([0-9]*\) of \([0-9]*\) kB$/\1 \2 \3/p" "$T/cgmv.out")
	[ $RC -eq 0 ] && [ "$1" = "$cfirst" ] && [ -n "$2" ] && [ "$2" -ge $MIN95 ] && [ $(($2 * 100)) -ge $(($3 * 95)) ] &&
		grep -q '^before ' "$T/cgmv.out" && grep -q '^after ' "$T/cgmv.out" && pass cgroup_action_after ||
		fail cgroup_action_after "$(why cgmv)" "$(cat "$T/cgmv.out")"
	if [ $RC -eq 0 ]; then
		i=0
		until [ "$(numa_kb "$HOG" "$cfirst")" -ge $MIN95 ] &&
			[ "$(awk -v n="N$cfirst" '$1 == "anon" { for (i = 2; i <= NF; i++) { split($i, a, "=")
				if (a[1] == n) print int(a[2] / 1024) } }' $CG/memory.numa_stat)" -ge 60000 ] 2>/dev/null; do
			i=$((i + 1))
			[ $i -gt 200 ] && break
			sleep 0.1
		done
		echo "# cpuset.mems $clast -> $cfirst: $i polls of 0.1 s; $(cg_facts | tr '\n' ' ')"
		[ "$(numa_kb "$HOG" "$cfirst")" -ge $MIN95 ] && pass cgroup_mems_pages_moved ||
			fail cgroup_mems_pages_moved "the kernel did not move the pages to N$cfirst in 20 s" "$(cg_facts)"
	else
		fail cgroup_mems_pages_moved "--migrate-cgroup failed: $(why cgmv)"
	fi
	cg_json cgm
	bad=$(cg_node_check "$T/cgm.flat" "$cfirst")
	[ $RC -eq 0 ] && [ -n "$C" ] && [ -z "$bad" ] && pass cgroup_json_first_node ||
		fail cgroup_json_first_node "$bad" "$(why cgm)" "$(cg_facts)"

	# --- 12d. Clean up: the memhog ends, the cgroup goes. ------------------
	stop_hog "$HOG"
	i=0
	until rmdir $CG 2>"$T/cg.err"; do
		i=$((i + 1))
		[ $i -gt 50 ] && break
		sleep 0.1
	done
	[ ! -d $CG ] && pass cgroup_cleanup || fail cgroup_cleanup "rmdir $CG: $(cat "$T/cg.err"); $(cg_facts)"
else
	for t in cgroup_hog_start cgroup_json_layout cgroup_json_found cgroup_json_cpus \
		cgroup_json_last_node cgroup_json_proc_cgroup cgroup_batch_line \
		cgroup_action_after cgroup_mems_pages_moved cgroup_json_first_node; do
		fail $t "no memhog in $CG"
	done
	rmdir $CG 2>/dev/null
fi

exit $((nfail > 125 ? 125 : nfail))
