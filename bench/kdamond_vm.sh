#!/bin/sh
# kdamond_vm.sh - make bench-damon: the CPU of the monitor's kdamond (its
# DAMON thread, for access heat) where make bench cannot measure it (DAMON
# in use by someone else, as on a machine whose kernel runs its own
# kdamond): in a QEMU guest of Debian's 6.12 kernel (tests/vm/vmtest.sh,
# layout vmbench, payload section 3e), with PROCS processes of MIB MiB
# (16 x 1024: the target's load) for WINDOW seconds.
#
# QEMU runs the guest under TCG (no KVM here): every instruction is
# emulated, so a CPU % measured in the guest overstates a real machine's.
# The same reference workload (build/bench/bench --cpuref: page-table
# walks clearing accessed bits, and plain arithmetic; bench/cpuref.c) runs
# in the guest before and after the measurement and on this host before
# and after the guest; the guest's median time over the host's least
# (undisturbed) time is the slowdown, and the guest's kdamond CPU divided
# by it is the estimate for this host. Measured and estimated figures are
# printed as such. Long (the guest writes PROCS x MIB MiB under TCG): not
# part of make vmtest or make test.
#
# Environment: PROG (./numatop-tui), BUILD (build), KDAMOND_PROCS (16),
# KDAMOND_MIB (1024), KDAMOND_WINDOW (60), and vmtest.sh's (VMTEST_TIMEOUT,
# VMTEST_BOOT_RETRIES, VMTEST_VERBOSE...).
#
# QEMU takes from the host the memory the guest writes: PROCS x MIB MiB
# and about 1.5 GiB more (17.5 GiB in all with 16 x 1024 MiB). With less
# than that and 3 GiB for everything else available, MIB is lowered to
# what fits (in steps of 64 MiB), and said.
# The guest takes this host's transparent huge page setting.
set -u
cd "$(dirname "$0")/.." || exit 1
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
BENCH=$BUILD/bench/bench
PROCS=${KDAMOND_PROCS:-16}
MIB=${KDAMOND_MIB:-1024}
WINDOW=${KDAMOND_WINDOW:-60}
LAYOUT=tests/vm/layouts/vmbench.layout
OUT=$BUILD/vm
mkdir -p "$OUT" || exit 1
[ -x "$BENCH" ] || { echo "bench-damon: no $BENCH (make $BENCH)"; exit 1; }

# --- The load that fits, on the host and in the guest. ----------------------
guest_mib=$(awk '$1 == "node" { s += $3 } END { print s + 0 }' "$LAYOUT")
avail=$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)
want=$MIB
# The guest: its kernel and programs (~700 MiB) and the benchmark's own
# reserve (768 MiB, bench/kdamond.c) besides the load.
fit_guest=$(((guest_mib - 1500) / PROCS / 64 * 64))
fit_host=$(((avail - 1536 - 3072) / PROCS / 64 * 64))
[ "$fit_guest" -lt "$MIB" ] && MIB=$fit_guest
[ "$fit_host" -lt "$MIB" ] && MIB=$fit_host
if [ "$MIB" -lt 128 ]; then
	echo "bench-damon: not run: $avail MiB available on this host; $PROCS processes of 128 MiB" \
		"need $((PROCS * 128 + 4608)) MiB (with 3 GiB left for the rest)"
	exit 1
fi
[ "$MIB" != "$want" ] && echo "bench-damon: $PROCS processes of $MIB MiB instead of $want" \
	"($avail MiB available on this host, the guest has $guest_mib MiB)"

# --- The reference on the host, the guest, the reference again. ------------
# The guest takes this host's transparent huge page setting (a huge page's
# accessed bit is checked at its PMD, a small page's at its PTE).
thp=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
hv=$(dmesg 2>/dev/null | sed -n 's/.*Hypervisor detected: *//p' | head -1)
grep -qw hypervisor /proc/cpuinfo && hv=${hv:-yes} || hv=${hv:-none}
echo "bench-damon: host: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs" \
	"($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), hypervisor: $hv, THP ${thp:-?}"
"$BENCH" --cpuref >"$OUT/cpuref-host-before.out" || { cat "$OUT/cpuref-host-before.out"; exit 1; }
VMTEST_LAYOUTS=vmbench VMTEST_BENCH=$BENCH \
	VMTEST_APPEND="vmbench.procs=$PROCS vmbench.mib=$MIB vmbench.window=$WINDOW${thp:+ vmbench.thp=$thp}" \
	VMTEST_TIMEOUT=${VMTEST_TIMEOUT:-5400} VMTEST_BOOT_WAIT=${VMTEST_BOOT_WAIT:-300} \
	BUILD=$BUILD PROG=$PROG tests/vm/vmtest.sh
vrc=$?
"$BENCH" --cpuref >"$OUT/cpuref-host-after.out" || { cat "$OUT/cpuref-host-after.out"; exit 1; }

# --- What was measured, and the estimate. -----------------------------------
log=$OUT/vmbench.log
sed -n 's/^# bench: //p' "$log" 2>/dev/null >"$OUT/bench-damon.guest"
echo
echo "In the guest (measured; TCG):"
grep -v -e '^guest before: ' -e '^guest after: ' -e '^kdamond-result: ' "$OUT/bench-damon.guest" | sed 's/^/  /'
result=$(grep '^kdamond-result: ' "$OUT/bench-damon.guest" | tail -1)
gb=$(sed -n 's/^guest before: //p' "$OUT/bench-damon.guest" | grep '^cpuref: ' | tail -1)
ga=$(sed -n 's/^guest after: //p' "$OUT/bench-damon.guest" | grep '^cpuref: ' | tail -1)
hb=$(grep '^cpuref: ' "$OUT/cpuref-host-before.out")
ha=$(grep '^cpuref: ' "$OUT/cpuref-host-after.out")
if [ -z "$result" ] || [ -z "$gb" ] || [ -z "$ga" ]; then
	echo "bench-damon: the guest did not measure (see $log)"
	exit 1
fi
printf '%s\n' "R $result" "GB $gb" "GA $ga" "HB $hb" "HA $ha" | awk -v target=1 '
	# v(KEY): KEY=value of the current line.
	function v(k,   i) { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	function min(a, b) { return a < b ? a : b }
	$1 == "R" { procs = v("procs"); mib = v("mib"); kd = v("kdamond_pct"); kdj = v("kdamond_json_pct")
	            mon = v("monitor_pct"); quiet = v("kdamond_quiet_pct"); win = v("window_s"); rmin = v("regions_min"); rmax = v("regions_max") }
	$1 == "GB" { gw1 = v("walk_med_s"); ga1 = v("arith_med_s") }
	$1 == "GA" { gw2 = v("walk_med_s"); ga2 = v("arith_med_s") }
	$1 == "HB" { hw1 = v("walk_s"); ha1 = v("arith_s") }
	$1 == "HA" { hw2 = v("walk_s"); ha2 = v("arith_s") }
	END {
		gw = (gw1 + gw2) / 2; gar = (ga1 + ga2) / 2; hw = min(hw1, hw2); har = min(ha1, ha2)
		fw = hw > 0 ? gw / hw : 0; fa = har > 0 ? gar / har : 0
		printf "\nThe reference (bench/cpuref.c; CPU seconds; measured):\n"
		printf "  page-table walks (clear_refs): guest %.3f s (median, before %.3f, after %.3f), host %.3f s (least, before %.3f, after %.3f): %.1fx\n", gw, gw1, gw2, hw, hw1, hw2, fw
		printf "  arithmetic:                    guest %.3f s (median, before %.3f, after %.3f), host %.3f s (least, before %.3f, after %.3f): %.1fx\n", gar, ga1, ga2, har, ha1, ha2, fa
		printf "\nkdamond CPU, %d processes of %d MiB, %.0f s:\n", procs, mib, win
		printf "  measured in the guest: %.2f %% of one guest CPU (the JSON: %.2f %%), with the monitor stopped (DAMON%ss sampling alone) %.2f %%; the monitor itself %.2f %%; regions %d..%d\n", kd, kdj, "\047", quiet, mon, rmin, rmax
		if (kd >= 90)
			printf "  the guest kdamond was saturated (a sample took longer than its interval): the estimate below is not one\n"
		if (fw <= 0 || fa <= 0) { print "  no estimate: a reference time is missing"; exit 1 }
		ew = kd / fw; ea = kd / fa
		printf "  estimated for this host (the guest %% divided by the slowdown): %.2f %% by the page-table walks (%.1fx), %.2f %% by the arithmetic (%.1fx); with the monitor stopped %.2f %% / %.2f %%; the monitor itself %.2f %% / %.2f %%\n", ew, fw, ea, fa, quiet / fw, quiet / fa, mon / fw, mon / fa
		printf "  target: kdamond CPU <= %d %% of one CPU with 16 x 1024 MiB: estimated %.2f %% (by the walks)  %s%s\n", target, ew,
		       ew <= target ? "met" : "MISS", procs == 16 && mib == 1024 ? "" : sprintf(" (measured with %d x %d MiB)", procs, mib)
	}'
arc=$?
[ $vrc -eq 0 ] && [ $arc -eq 0 ]
