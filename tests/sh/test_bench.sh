#!/bin/sh
# make bench, small: the benchmark runs with N=20 and prints its table;
# its load is gone afterwards, also when it is killed midway. Timing is
# never asserted here (make bench prints it; docs/performance.md has a real run).
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
BENCH=$BUILD/bench/bench
. tests/sh/lib.sh
need pgrep procps
need numastat numactl   # the numastat -p column of the table
if [ ! -x "$BENCH" ]; then bad bench_built "$BENCH missing (make $BENCH)"; exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "SKIP bench_smoke: needs root (move_pages queries of the load)"; exit 0; fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Processes of this test's benchmark runs (its load is forked, so it has
# its name), told by this run's marker in their environment: another
# benchmark on the machine (a busy one) is not ours. A number, or
# pcount's "pgrep failed" that no check below takes for 0.
: "${NUMATOP_TEST_RUN:=bench.$$.$(date +%s%N)}"
export NUMATOP_TEST_RUN
leftover() {
	lo=$(pcount -f "^$BENCH --smoke")
	isnum "$lo" || { echo "$lo"; return; }
	lo=0
	for p in $(pgrep -f "^$BENCH --smoke"); do
		{ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null |
			grep -qxF "NUMATOP_TEST_RUN=$NUMATOP_TEST_RUN" && lo=$((lo + 1))
	done
	echo "$lo"
}

# TMPDIR: the fleet phase's directory (its blocks, Prometheus's data) is
# made there, and must be gone afterwards.
mkdir "$T/tmp"
TMPDIR="$T/tmp" "$BENCH" --smoke --prog "$PROG" >"$T/out" 2>"$T/err"; rc=$?
out=$(cat "$T/out")
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && ok bench_smoke_exit || bad bench_smoke_exit "rc=$rc $(cat "$T/err")"
# One row for N=20 K=10 with every column numeric.
row=$(echo "$out" | grep -E '^ +20 +10 ')
echo "$row" | awk -F'|' '
	{ for (i = 1; i <= NF; i++) { f = $i; gsub(/sampled|gap|in|[ \/x,s]/, " ", f); n = split(f, w, " ");
	  for (j = 1; j <= n; j++) if (w[j] !~ /^-?[0-9.]+$/ && w[j] != "") bad = 1 } }
	END { exit (NR == 1 && !bad) ? 0 : 1 }' && ok bench_smoke_row || bad bench_smoke_row "$out"
# Numbers that cannot be zero on a machine that ran anything.
echo "$row" | awk -F'|' '{ split($2, a, "/"); split($3, b, "/"); split($7, r, " ");
	exit (a[1] + 0 > 0 && b[1] + 0 > 0 && r[1] + 0 > 0) ? 0 : 1 }' \
	&& ok bench_smoke_nonzero || bad bench_smoke_nonzero "$row"
echo "$out" | grep -Eq '^parser: [0-9]+ MB/s on [0-9.]+ MB' && ok bench_smoke_parser || bad bench_smoke_parser "$out"
echo "$out" | grep -q '^targets' && echo "$out" | grep -Eq 'parser throughput .*(met|MISS)' \
	&& ok bench_smoke_targets || bad bench_smoke_targets "$out"
# The scale phase: a row for its 50 processes with the monitor's CPU per
# refresh (a number; 10 ms clock ticks over 2 s can make it 0), the stat
# floor and a complete picture in seconds (htop's columns only when it is
# installed). The picture is of the whole machine: beside thousands of
# other processes on a loaded machine it may not come within its 10 s,
# which the row says with the count read (a measure too, not a failure).
srow=$(echo "$out" | grep -E '^ +50 \| ')
echo "$srow" | awk -F'|' '{ m = $2; f = $5 + 0; c = $9 }
	END { exit (NR == 1 && m ~ /^ *[0-9.]+ *$/ && f > 0 &&
		    (c ~ /^ *[0-9.]+ s / || c ~ /^ *not complete after [0-9]+ s \([0-9]+ of [0-9]+ read/)) ? 0 : 1 }' \
	&& ok bench_smoke_scale_row || bad bench_smoke_scale_row "$(echo "$out" | sed -n '/^scale:/,/^$/p')"
# The access heat phase: where DAMON is free (and we are root) the
# kdamond's CPU and its target; anywhere else one line saying why not and
# where it is measured instead, and no figure.
kd=$(echo "$out" | sed -n '/^kdamond: /,$p')
if echo "$kd" | grep -q '^  not measured here: '; then
	echo "$kd" | grep -Eq '^  not measured here: (.*; measured in a QEMU guest instead: make bench-damon|[0-9]+ MiB available)' &&
		! echo "$kd" | grep -q '% of one CPU' && ok bench_smoke_kdamond || bad bench_smoke_kdamond "$kd"
else
	echo "$kd" | grep -Eq '^  our kdamond \(kdamond\.[0-9]+, pid [0-9]+\): [0-9.]+ % of one CPU' &&
		echo "$kd" | grep -Eq '^  target: kdamond CPU <= 1 % of one CPU .*(met|MISS)$' &&
		ok bench_smoke_kdamond || bad bench_smoke_kdamond "$kd"
fi
# The fleet phase at 5 hosts x 3 processes: every host complete in each
# run of --fleet --json, its queries within the target, its directory
# removed; without prometheus one line saying so.
fl=$(echo "$out" | sed -n '/^fleet: /,/^  peak RSS (--fleet/p')
if echo "$fl" | grep -q '^  not measured here: prometheus or promtool not found'; then
	echo "SKIP bench_smoke_fleet: prometheus not installed"
else
	echo "$fl" | grep -Eq '^fleet: 5 hosts x 3 processes' &&
		[ "$(echo "$fl" | grep -Ec 'run [0-9]: [0-9.]+ s to the table \(exit\), peak RSS [0-9.]+ MiB, [0-9]+ queries, 5 hosts, 5 complete')" = 2 ] &&
		echo "$fl" | grep -Eq '^  library, its next refresh .* 5 of 5 hosts complete' &&
		echo "$fl" | grep -Eq '^  queries per refresh +[0-9.]+ +\(<= 10\) +met' &&
		echo "$fl" | grep -Eq '^  first complete table .*every host complete' &&
		ok bench_smoke_fleet || bad bench_smoke_fleet "$fl"
fi
[ -z "$(ls -A "$T/tmp")" ] && ok bench_smoke_fleet_dir_removed || bad bench_smoke_fleet_dir_removed "$(ls -A "$T/tmp")"
left=$(leftover)
[ "$left" = 0 ] && ok bench_smoke_load_reaped || bad bench_smoke_load_reaped "left: $left; $(pgrep -af "$BENCH")"
# The cgroups it made to measure reading them are gone again.
cgleft() { ls -d /sys/fs/cgroup/memory/numatop-bench-* /sys/fs/cgroup/numatop-bench-* 2>/dev/null; }
echo "$out" | grep -Eq '^  cgroups \((v1|v2|hybrid|none)\): the machine.s [0-9]+ read in [0-9.]+ ms' \
	&& ok bench_smoke_cgroups || bad bench_smoke_cgroups "$out"
[ -z "$(cgleft)" ] && ok bench_smoke_cgroups_removed || bad bench_smoke_cgroups_removed "$(cgleft)"

# Killed midway: the load goes with it.
"$BENCH" --smoke --ticks 400 --prog "$PROG" >"$T/out2" 2>&1 &
b=$!
n=0
while [ "$n" -lt 50 ] && ! grep -q '^ *N ' "$T/out2"; do sleep 0.1; n=$((n + 1)); done
sleep 0.5
kids=$(pcount -P $b)
kill -TERM $b
wait $b; rc=$?
sleep 0.3
left=$(leftover)
[ -z "$(cgleft)" ] && ok bench_sigterm_cgroups_removed || bad bench_sigterm_cgroups_removed "$(cgleft)"
isnum "$kids" && [ "$kids" -ge 2 ] && [ $rc -eq 143 ] && [ "$left" = 0 ] && ok bench_sigterm_reaps_load \
	|| bad bench_sigterm_reaps_load "children before: $kids, rc=$rc, left: $left; $(pgrep -af "$BENCH")"
