#!/bin/sh
# Process churn on the live machine: tests/helpers/churn forks and reaps
# hundreds of processes a second (threads that come and go, memory touched,
# zombies held a while) while four batch instances run side by side:
# -b, --json, and both again with --proc-files, every 0.2 s. Each must exit
# 0 on SIGTERM with nothing on stderr, keep its open file descriptors and
# RSS flat, and print well formed output: JSON lines that parse, complete
# text tables, no negative or absurd numbers, and processes that vanished
# mid-read marked "gone" (text) / "numa_maps":"gone" (JSON) consistently,
# never shown as 0 kB.
#   CHURN_SECONDS=N   run N seconds instead of 20 (e.g. 600 for a soak)
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
S=${CHURN_SECONDS:-20}
. tests/sh/lib.sh
case "$S" in ''|*[!0-9]*) echo "FAIL churn: CHURN_SECONDS must be whole seconds"; exit 1 ;; esac
[ "$S" -lt 6 ] && S=6
HELPER=$BUILD/tests/helpers/churn
if [ ! -x "$HELPER" ]; then
	if [ -f tests/helpers/churn.c ] && command -v cc >/dev/null; then
		HELPER=$(mktemp) && cc -O2 -std=c11 -D_GNU_SOURCE -o "$HELPER" tests/helpers/churn.c -lpthread \
			|| { echo "FAIL churn: cannot build tests/helpers/churn.c"; exit 1; }
		own_helper=$HELPER
	else
		echo "SKIP churn: $BUILD/tests/helpers/churn not built"; exit 0
	fi
fi
[ -d /proc/self/fd ] || { echo "SKIP churn: no /proc"; exit 0; }

T=$(mktemp -d)
pids=""; churn=""; napper=""
cleanup() {
	for p in $pids $churn $napper; do kill -TERM "$p" 2>/dev/null; done
	for p in $pids $churn; do wait "$p" 2>/dev/null; done
	rm -rf "$T" ${own_helper:+"$own_helper"}
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# A sleep that a trapped signal interrupts (a foreground sleep would delay
# the cleanup until it ends).
nap() { sleep "$1" & napper=$!; wait $napper; napper=""; }
# Open descriptors other than a process's own (/proc/N and below: the
# live backend's kept /proc/N, /proc/N/schedstat and /proc/N/stat, two
# per listed process, three while it runs, closed at the scan after the
# process is gone; and the reads in flight of a long tick, such as
# /proc/N/task or numa_maps): "N K", with K how many of those are held
# for PIDs that no longer exist. The smallest of 5 looks.
fdcount() {
	m=""; k=""
	for i in 1 2 3 4 5; do
		set -- $( { ls /proc | sed -n 's/^\([0-9][0-9]*\)$/P \1/p'
			    ls -l "/proc/$1/fd" 2>/dev/null | sed -n 's/.* -> /F /p'; } | awk '
			$1 == "P" { live[$2] = 1; next }
			$2 ~ /^\/proc\/[0-9]+(\/|$)/ { split($2, a, "/"); if (!(a[3] in live)) stale++; next }
			{ n++ }
			END { print n + 0, stale + 0 }') "$1"
		[ -z "$m" ] || [ "$1" -lt "$m" ] && m=$1
		[ -z "$k" ] || [ "$2" -lt "$k" ] && k=$2
		set -- "$3"
		sleep 0.05
	done
	echo "$m $k"
}
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null; }
# AddressSanitizer's quarantine keeps freed memory: RSS grows by design.
sanitized=""
case "$PROG" in *asan*) sanitized=1 ;; esac
ldd "$PROG" 2>/dev/null | grep -q 'libasan\|libubsan' && sanitized=1
memtotal=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
ncpu=$(getconf _NPROCESSORS_CONF 2>/dev/null || echo 1)

# It outlives the monitors (stopped first, then it): one that saw it exit
# in a sanitized build would see it stopped by LeakSanitizer, alive, its
# numa_maps unreadable ("error", rightly).
"$HELPER" $((S + 60)) 24 >"$T/churn.out" 2>&1 &
churn=$!
sleep 0.5
# name: args
# The default numa_maps budget: kept rows are as old as their AGE, so
# "0 kB but RSS > 0" is checked on fresh rows (AGE 0s) only.
set -- text:"-b --age" json:"--json" files_text:"--proc-files -b --age" files_json:"--proc-files --json"
for spec; do
	name=${spec%%:*}; args=${spec#*:}
	# shellcheck disable=SC2086
	"$PROG" $args -d 0.2 >"$T/$name.out" 2>"$T/$name.err" &
	eval "pid_$name=$!"; pids="$pids $!"
done
nap 1
for spec; do name=${spec%%:*}; eval "fd0_$name=\$(fdcount \$pid_$name)"; done
early=$((S / 4)); [ "$early" -lt 2 ] && early=2
nap $((early - 1))
for spec; do name=${spec%%:*}; eval "rss0_$name=\$(rss \$pid_$name)"; done
nap $((S - early - 1))
for spec; do
	name=${spec%%:*}
	eval "rss1_$name=\$(rss \$pid_$name); fd1_$name=\$(fdcount \$pid_$name)"
done
nap 1
for spec; do
	name=${spec%%:*}; eval "p=\$pid_$name"
	kill -TERM "$p" 2>/dev/null
	# Hang guard (not a timing assertion): 15 s to stop after SIGTERM.
	n=150; while [ $n -gt 0 ] && [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null || echo gone)" != Z ] \
		&& kill -0 "$p" 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
	[ $n -eq 0 ] && { kill -KILL "$p" 2>/dev/null; echo "hung 15 s after SIGTERM: killed" >>"$T/$name.err"; }
	wait "$p"; eval "rc_$name=$?"
done
pids=""
kill -TERM "$churn" 2>/dev/null; wait "$churn"; crc=$?; churn=""
forks=$(sed -n 's/.*forks=\([0-9]*\).*/\1/p' "$T/churn.out")
# It forked: hundreds a second on a quiet machine, far fewer beside
# sanitizer builds or a loaded machine (a floor, not a rate to reach).
minrate=10
[ "$crc" -eq 0 ] && [ "${forks:-0}" -ge $((S * minrate)) ] && ok "churn_helper_ran ($(cat "$T/churn.out"))" \
	|| bad churn_helper_ran "rc=$crc: $(cat "$T/churn.out")"

for spec; do
	name=${spec%%:*}
	eval "rc=\$rc_$name fd0=\$fd0_$name fd1=\$fd1_$name r0=\$rss0_$name r1=\$rss1_$name"
	if [ "$rc" -eq 0 ] && [ ! -s "$T/$name.err" ]; then ok "churn_${name}_exit_clean"
	else bad "churn_${name}_exit_clean" "exit status $rc$( [ "$rc" -gt 128 ] && echo " (signal $((rc - 128)))"); stderr: $(head -5 "$T/$name.err")"; fi
	# Kept descriptors of exited processes: only those of the last
	# interval (hundreds of exits a second here), never accumulating.
	stale=${fd1#* }; fd0=${fd0% *}; fd1=${fd1% *}
	if [ -n "$fd0" ] && [ -n "$fd1" ] && [ "$fd1" -le "$fd0" ] && [ "${stale:-0}" -le 400 ]; then
		ok "churn_${name}_no_fd_leak ($fd0 -> $fd1, $stale kept for exited processes)"
	else bad "churn_${name}_no_fd_leak" "open fds at 1 s: '$fd0', at $((S - 1)) s: '$fd1' (kept for exited processes: $stale)"; fi
	if [ -n "$sanitized" ]; then echo "SKIP churn_${name}_rss_flat: sanitizer build (its quarantine grows RSS)"
	elif [ -n "$r0" ] && [ -n "$r1" ] && [ $((r1 - r0)) -le 4096 ] && [ $((r1 - r0)) -le $((r0 / 2)) ]; then
		ok "churn_${name}_rss_flat (${r0} -> ${r1} kB)"
	else bad "churn_${name}_rss_flat" "VmRSS at ${early} s: '$r0' kB, at $((S - 1)) s: '$r1' kB (bound: +4096 kB and +50%)"; fi
done

# Text tables. Columns are fixed width (src/output_text.c):
# "%7d %-10s %4s %6s %10s" + " %10s" per node + " %10s %7s  %-24s %s".
check_text() {
	LC_ALL=C awk -v memtotal="$memtotal" -v cpumax=$((ncpu * 300)) -v san="${sanitized:-}" '
	function num(s) { return s ~ /^[0-9]+$/ }
	function pct(s) { return s ~ /^[0-9]+(\.[0-9])?$/ }
	function err(m) { nerr++; if (nerr <= 10) print "sample " samples ": " m ": " $0 }
	function endblock() {
		if (inrows && rows != want) { nerr++; print "sample " samples ": table has " rows " rows, header said " want }
		inrows = 0
	}
	/^numatop-tui / { endblock(); samples++; next }
	/^nodes [0-9]+ / {
		nn = $2; want = -1
		for (i = 3; i < NF; i++) if ($i == "processes") want = $(i + 1)
		next
	}
	/^ +PID USER/ { inrows = 1; rows = 0; o = 41 + 11 * nn; next }
	inrows && /^$/ { endblock(); next }
	inrows {
		rows++
		pid = substr($0, 1, 7); sub(/^ +/, "", pid)
		home = substr($0, 20, 4); sub(/^ +/, "", home)
		cpu = substr($0, 25, 6); sub(/^ +/, "", cpu)
		rss = substr($0, 32, 10); sub(/^ +/, "", rss)
		rem = substr($0, o + 2, 10); sub(/^ +/, "", rem)
		rp = substr($0, o + 13, 7); sub(/^ +/, "", rp)
		age = substr($0, o + 21, 6); sub(/^ +/, "", age)
		pol = substr($0, o + 29, 24); sub(/ +$/, "", pol)
		if (age != "-" && age !~ /^[0-9]+[smh]$/) err("bad AGE \"" age "\"")
		if (!num(pid) || pid == 0) err("bad PID")
		if (home != "-" && !num(home)) err("bad HOME")
		if (cpu != "-" && (!pct(cpu) || cpu + 0 > cpumax)) err("bad CPU%")
		if (rss != "-" && (!num(rss) || rss + 0 > memtotal)) err("bad RSS")
		mark = ""; sum = 0; allzero = 1
		for (j = 0; j < nn; j++) {
			c = substr($0, 43 + 11 * j, 10); sub(/^ +/, "", c)
			sub(/~$/, "", c)   # a sampled estimate
			if (num(c)) {
				if (c + 0 > memtotal) err("node cell above MemTotal")
				sum += c; if (c + 0 != 0) allzero = 0
				if (mark != "") err("mixed node cells")
				mark = "ok"
			} else if (c == "no perm" || c == "gone" || c == "error" || c == "-") {
				if (mark != "" && mark != c) err("mixed node cells")
				mark = c
			} else err("bad node cell \"" c "\"")
		}
		if (mark == "ok") {
			if (rem != "-" && (!num(rem) || rem + 0 > sum)) err("REMOTE not within 0..total")
			if (rp != "-" && (!pct(rp) || rp + 0 > 100)) err("REMOTE% not within 0..100")
			if (allzero && num(rss) && rss + 0 > 0 && age == "0s") err("0 kB on every node but RSS " rss " kB (exited mid-read, should be gone)")
		} else {
			marks[mark]++
			# A vanished process is gone, never an error. (no perm stays
			# possible even as root: the PID 1 of a container, say.) In
			# a sanitized build the sibling monitors are ptrace-stopped
			# by LeakSanitizer as they exit, and their numa_maps read
			# can fail then: they are alive, so "error" is right.
			# Only the churn helper processes are judged: another on a
			# busy machine may be reading as "error" for its own
			# reasons (EINVAL while it execs, say).
			if (mark == "error" && $0 ~ /churn/ && !(san != "" && $0 ~ /numatop-tui/)) err("vanished process shown as error: " $0)
			if (rem != "-" || rp != "-" || pol != "-") err("unread row (" mark ") has REMOTE/REMOTE%/POLICY values")
		}
		next
	}
	END {
		endblock()
		if (samples < 2) { print "only " samples " samples"; nerr++ }
		printf "samples=%d gone_rows=%d\n", samples, marks["gone"] > "/dev/stderr"
		exit nerr ? 1 : 0
	}' "$1"
}
for name in text files_text; do
	out=$(check_text "$T/$name.out" 2>"$T/$name.stat"); r=$?
	st=$(cat "$T/$name.stat")
	[ $r -eq 0 ] && ok "churn_${name}_well_formed ($st)" || bad "churn_${name}_well_formed" "$out"
	g=$(echo "$st" | sed -n 's/.*gone_rows=\([0-9]*\).*/\1/p')
	[ "${g:-0}" -gt 0 ] && ok "churn_${name}_gone_marked" \
		|| bad "churn_${name}_gone_marked" "no row marked gone, though zombies were held all along ($st)"
done

# JSON lines: python3 when it works, else jq, else a shape check.
cat >"$T/check.py" <<'EOF'
import json, sys
memtotal, cpumax = int(sys.argv[2]), int(sys.argv[3])
sanitized = len(sys.argv) > 4 and sys.argv[4] != ""
errs, gone, nsamp, prev = [], 0, 0, 0
PERNODE = ("node_kb", "anon_kb", "file_kb", "huge_kb", "total_kb", "remote_kb",
           "remote_pct", "policy", "mappings")
def num(v, lo, hi):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and lo <= v <= hi
for ln, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    def err(m):
        if len(errs) < 10: errs.append("line %d: %s" % (ln, m))
    try:
        d = json.loads(line)
    except ValueError as e:
        err("does not parse: %s: %.80s" % (e, line)); continue
    nsamp += 1
    if not isinstance(d, dict) or not isinstance(d.get("processes"), list):
        err("not a sample object"); continue
    if d.get("sample") != prev + 1: err("sample %r after %r" % (d.get("sample"), prev))
    prev = d.get("sample") if isinstance(d.get("sample"), int) else prev
    for n in d.get("nodes", []):
        for k in ("cpu_busy_pct", "cpu_user_pct", "cpu_system_pct"):
            if n.get(k) is not None and not num(n[k], 0, 100.05): err("node %s %s=%r" % (n.get("id"), k, n[k]))
        if not num(n.get("mem_free_kb"), 0, n.get("mem_total_kb") or 0): err("node mem_free_kb %r" % n.get("mem_free_kb"))
    for p in d["processes"]:
        pid, st = p.get("pid"), p.get("numa_maps")
        if not num(pid, 1, 1 << 31): err("pid %r" % pid)
        if st not in ("ok", "no_perm", "gone", "error", "not_read"): err("pid %s numa_maps=%r" % (pid, st)); continue
        age = p.get("sample_age_s")
        if st == "not_read" and age is not None: err("pid %s not read but sample_age_s %r" % (pid, age))
        if st != "not_read" and not num(age, 0, 1e6): err("pid %s sample_age_s %r" % (pid, age))
        if st == "ok" and p.get("placement") not in ("numa_maps", "sampled"): err("pid %s placement %r" % (pid, p.get("placement")))
        if p.get("rss_kb") is not None and not num(p["rss_kb"], 0, memtotal): err("pid %s rss_kb=%r" % (pid, p["rss_kb"]))
        if p.get("cpu_pct") is not None and not num(p["cpu_pct"], 0, cpumax): err("pid %s cpu_pct=%r" % (pid, p["cpu_pct"]))
        if p.get("threads") is not None and not num(p["threads"], 0, 1 << 22): err("pid %s threads=%r" % (pid, p["threads"]))
        # Sanitized: the sibling monitors, stopped by LeakSanitizer as
        # they exit, are alive when their read fails (see the text check).
        # Only the churn helper processes are judged (another process on a
        # busy machine may read as "error" for its own reasons).
        if st == "error" and (p.get("comm") or "").startswith("churn") and \
                not (sanitized and p.get("comm") == "numatop-tui"):
            err("pid %s (%s) numa_maps=%r (%s): a vanished process is gone" %
                (pid, p.get("comm"), st, p.get("numa_maps_error")))
        if st != "ok":
            gone += st == "gone"
            for k in PERNODE:
                if p.get(k) is not None: err("pid %s is %s but %s=%r" % (pid, st, k, p[k]))
            continue
        nk, tot, rem, rp = p.get("node_kb") or {}, p.get("total_kb"), p.get("remote_kb"), p.get("remote_pct")
        if not nk or not all(num(v, 0, memtotal) for v in nk.values()): err("pid %s node_kb=%r" % (pid, nk))
        elif sum(nk.values()) != tot: err("pid %s node_kb %r does not add up to total_kb %r" % (pid, nk, tot))
        if rem is not None and not num(rem, 0, tot if isinstance(tot, int) else -1): err("pid %s remote_kb=%r total %r" % (pid, rem, tot))
        if rp is not None and not num(rp, 0, 100): err("pid %s remote_pct=%r" % (pid, rp))
        if tot == 0 and (p.get("rss_kb") or 0) > 0 and age == 0:
            err("pid %s: numa_maps ok with 0 kB but rss_kb %r (exited mid-read, should be gone): %s" % (pid, p["rss_kb"], json.dumps(p)))
if nsamp < 2: errs.append("only %d samples" % nsamp)
sys.stderr.write("samples=%d gone=%d\n" % (nsamp, gone))
print("\n".join(errs))
sys.exit(1 if errs else 0)
EOF
check_json() {
	if python3 -c 'import json' 2>/dev/null; then
		python3 "$T/check.py" "$1" "$memtotal" $((ncpu * 300)) "${sanitized:-}"
	elif command -v jq >/dev/null; then
		# Each line alone must be one object; then the same invariants.
		n=0; bl=0
		while IFS= read -r line; do
			n=$((n + 1))
			printf '%s\n' "$line" | jq -e 'type == "object"' >/dev/null 2>&1 || { echo "line $n does not parse"; bl=1; }
		done <"$1"
		v=$(jq -r --argjson mt "$memtotal" --argjson cm $((ncpu * 300)) '
			.processes[] | . as $p |
			if (.numa_maps | IN("ok","no_perm","gone","error","not_read") | not) then "pid \(.pid) numa_maps \(.numa_maps)"
			elif .numa_maps != "ok" then
				(if [.node_kb, .total_kb, .remote_kb, .remote_pct, .policy] | any(. != null)
				 then "pid \(.pid) \(.numa_maps) with per-node values" else "GONE_" + .numa_maps end)
			elif ([.node_kb[]] | any(. < 0 or . > $mt)) or ([.node_kb[]] | add) != .total_kb then "pid \(.pid) node_kb \(.node_kb) total \(.total_kb)"
			elif .remote_pct != null and (.remote_pct < 0 or .remote_pct > 100) then "pid \(.pid) remote_pct \(.remote_pct)"
			elif .cpu_pct != null and (.cpu_pct < 0 or .cpu_pct > $cm) then "pid \(.pid) cpu_pct \(.cpu_pct)"
			elif .total_kb == 0 and (.rss_kb // 0) > 0 and .sample_age_s == 0 then "pid \(.pid): 0 kB but rss_kb \(.rss_kb) (should be gone)"
			else empty end' "$1" 2>&1)
		echo "samples=$n gone=$(printf '%s\n' "$v" | grep -c '^GONE_gone')" >&2
		v=$(printf '%s\n' "$v" | grep -v '^GONE_\|^$' | head -10)
		[ -n "$v" ] && echo "$v"
		[ $bl -eq 0 ] && [ -z "$v" ] && [ $n -ge 2 ]
	else
		# Lightweight: every line one complete object, valid UTF-8.
		n=$(wc -l <"$1"); g=$(grep -c '^{"timestamp":.*"processes":\[.*\]}$' "$1")
		echo "samples=$n gone=$(grep -o '"numa_maps":"gone"' "$1" | wc -l)" >&2
		iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 && [ "$n" -eq "$g" ] && [ "$n" -ge 2 ] \
			|| echo "$((n - g)) of $n lines are not whole sample objects"
		[ "$n" -eq "$g" ] && [ "$n" -ge 2 ]
	fi
}
for name in json files_json; do
	out=$(check_json "$T/$name.out" 2>"$T/$name.stat"); r=$?
	st=$(tr '\n' ' ' <"$T/$name.stat")
	[ $r -eq 0 ] && ok "churn_${name}_well_formed ($st)" || bad "churn_${name}_well_formed" "$out"
	g=$(echo "$st" | sed -n 's/.*gone=\([0-9]*\).*/\1/p')
	[ "${g:-0}" -gt 0 ] && ok "churn_${name}_gone_marked" \
		|| bad "churn_${name}_gone_marked" "no process with numa_maps \"gone\", though zombies were held all along ($st)"
done
