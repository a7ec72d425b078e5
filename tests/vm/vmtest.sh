#!/bin/bash
# make vmtest: boot Debian's stock cloud kernel in QEMU (TCG, no KVM needed)
# once per NUMA layout in tests/vm/layouts/ and run tests/vm/payload.sh in
# the guest, against the program in $PROG (default ./numatop-tui).
#
# Prints "PASS name", "FAIL name" and "SKIP name: why" lines (names start
# with the layout, e.g. "vm4_json_nodes") and ends with "N passed, N failed".
# Exit status 1 on any failure, including a VM that never reported its exit.
#
# Environment:
#   PROG            program to test (default ./numatop-tui, from the repo root)
#   BUILD           build directory (default build); work files go to $BUILD/vm
#   VMTEST_CACHE    where the kernel and busybox are kept between runs
#                   (default ${XDG_CACHE_HOME:-$HOME/.cache}/numatop-tui-vm)
#   VMTEST_KERNEL   use this vmlinuz instead of the cached Debian one (for
#                   the layouts without a "kernel" line)
#   VMTEST_KERNEL_6_12  the same for the layouts that say "kernel 6.12"
#                   (any series: its dots as underscores)
#   VMTEST_LAYOUTS  layout names to run (default: every tests/vm/layouts/*.layout
#                   but those whose "tests" line says damonbench: make
#                   bench-damon's, run only when named)
#   VMTEST_TIMEOUT  seconds before a VM is killed (default 300)
#   VMTEST_BOOT_WAIT     seconds a guest has to start the payload (default 120)
#   VMTEST_BOOT_RETRIES  boots again a guest that did not (default 3)
#   VMTEST_VERBOSE  1: print each VM's whole console log
#   VMTEST_BENCH    the benchmark (build/bench/bench), put in the guest as
#                   /usr/bin/numatop-bench (make bench-damon)
#   VMTEST_APPEND   more words for the guest kernel's command line (the
#                   payload reads its own, e.g. vmbench.mib=1024)
#
# A guest that does not start the payload (the kernel panicked early, or no
# "VMTEST-START" line within VMTEST_BOOT_WAIT seconds) is booted again, at
# most VMTEST_BOOT_RETRIES times, and a "vmtest: LAYOUT: boot N of M failed"
# line says why; so is one whose kernel dies (panic, BUG, Oops) after the
# payload started but before its first result line (each boot is a fresh
# guest, so nothing of the first try remains). A payload that printed a
# result never runs twice. Each layout's time
# (boot and payload) is printed: "vmtest: LAYOUT: N s, ...".
#
# Nothing is installed on the host but the Debian packages listed in
# DEB_PKGS: the kernel package is only downloaded and unpacked in the cache.
set -u
cd "$(dirname "$0")/../.." || exit 1
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
WORK=$BUILD/vm
CACHE=${VMTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/numatop-tui-vm}
TIMEOUT=${VMTEST_TIMEOUT:-300}
DEB_PKGS="qemu-system-x86 busybox-static numactl util-linux gcc libc6-dev xz-utils"  # xz: 6.12's modules
KERNEL_META=linux-image-cloud-amd64

# die MESSAGE: a setup failure, reported like a failed test.
die() { echo "FAIL vm_setup: $*"; echo "0 passed, 1 failed"; exit 1; }

# --- 1. Host packages: install when root, else print the line and stop. ----
missing=""
for p in $DEB_PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "missing packages; run as root:"
		echo "  apt-get install -y$missing"
		exit 1
	fi
	echo "installing:$missing"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing \
		|| die "apt-get install failed"
fi
[ -x "$PROG" ] || die "no program at '$PROG' (run make first, or set PROG)"
mkdir -p "$WORK" "$CACHE" || die "cannot create $WORK or $CACHE"

# --- 2. Kernels: Debian packages, unpacked. -------------------------------
# A layout without a "kernel" line boots the package linux-image-cloud-amd64
# depends on (6.1 in bookworm); "kernel 6.12" the newest
# linux-image-6.12.*-cloud-amd64-unsigned apt can download. The cloud kernels
# have NUMA, ACPI SLIT (and HMAT), page migration, the 8250 console and
# initramfs support built in (6.12 also DAMON with vaddr), so the guest
# needs no modules.
find_kernel() { ls -1 "$1"/boot/vmlinuz-* 2>/dev/null | sort -V | tail -1; }
# kernel_pkg SERIES: the package name ("" when apt knows none).
kernel_pkg() {
	if [ -z "$1" ]; then
		apt-cache depends "$KERNEL_META" 2>/dev/null | awk '/Depends:/ { print $2; exit }'
		return
	fi
	# shellcheck disable=SC2046  # the names, one argument each
	apt-cache policy $(apt-cache pkgnames "linux-image-$1." 2>/dev/null |
		grep -E "^linux-image-${1//./\\.}\.[0-9]+\+deb[0-9]+-cloud-amd64-unsigned\$") 2>/dev/null |
		awk '/^[^ ]/ { p = $1; sub(/:$/, "", p) } $1 == "Candidate:" && $2 != "(none)" { print p }' |
		sort -V | tail -1
}
# kernel_for SERIES: the vmlinuz for SERIES ("" for the default), downloaded
# and unpacked in the cache the first time; "" when there is none.
kernel_for() {
	local series=$1 var kpkg k="" dl
	var=VMTEST_KERNEL${series:+_${series//./_}}
	[ -n "${!var:-}" ] && { echo "${!var}"; return; }
	kpkg=$(kernel_pkg "$series")
	if [ -z "$kpkg" ] && [ "$(id -u)" = 0 ]; then
		apt-get update -qq >/dev/null 2>&1
		kpkg=$(kernel_pkg "$series")
	fi
	if [ -n "$kpkg" ]; then
		k=$(find_kernel "$CACHE/$kpkg")
		if [ -z "$k" ]; then
			echo "vmtest: downloading $kpkg (unpacked in $CACHE, not installed)" >&2
			dl=$(mktemp -d "$CACHE/dl.XXXXXX") || return
			chmod 755 "$dl"  # apt's _apt user writes the download here
			if (cd "$dl" && apt-get download -q "$kpkg" >/dev/null 2>&1) &&
				dpkg -x "$dl"/*.deb "$dl/root"; then
				rm -rf "${CACHE:?}/$kpkg" && mv "$dl/root" "$CACHE/$kpkg"
			fi
			rm -rf "$dl"
			k=$(find_kernel "$CACHE/$kpkg")
		fi
	fi
	# Offline, or the package moved on: one of the series cached before.
	if [ -z "$k" ] && [ -n "$series" ]; then
		k=$(ls -1 "$CACHE/linux-image-$series".*-unsigned/boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
	elif [ -z "$k" ]; then
		k=$(ls -1 "$CACHE"/linux-image-*-cloud-amd64/boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
	fi
	echo "$k"
}
layouts=${VMTEST_LAYOUTS:-$(for f in tests/vm/layouts/*.layout; do
	awk '$1 == "tests" { for (i = 2; i <= NF; i++) if ($i == "damonbench") b = 1 } END { exit !b }' "$f" ||
		basename "$f" .layout
done)}
# lay_kernel LAYOUT: its "kernel" series, "" for the default.
lay_kernel() { awk '$1 == "kernel" { print $2; exit }' "tests/vm/layouts/$1.layout" 2>/dev/null; }
declare -A kernel_of=()  # series ("-" for the default) -> vmlinuz
for L in $layouts; do
	series=$(lay_kernel "$L")
	[ -n "${kernel_of[${series:--}]+set}" ] && continue
	k=$(kernel_for "$series")
	if [ -z "$k" ] || [ ! -r "$k" ]; then
		if [ -z "$series" ]; then
			die "no kernel: 'apt-get download \$(apt-cache depends $KERNEL_META)' failed (run apt-get update?)"
		fi
		die "no kernel $series: no linux-image-$series.*-cloud-amd64-unsigned to download (run apt-get update?)"
	fi
	kernel_of[${series:--}]=$k
done

# --- 3. Static test helpers (the guest has no compiler). -------------------
for h in memhog jsonflat ptyrun; do
	if [ ! -x "$WORK/$h" ] || [ "tests/helpers/$h.c" -nt "$WORK/$h" ]; then
		${CC:-cc} -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o "$WORK/$h" \
			"tests/helpers/$h.c" -lpthread || die "cannot build tests/helpers/$h.c statically"
	fi
done

# --- 4. The initramfs: busybox, the program, numactl, setpriv, libraries. ---
root=$WORK/initrd.d
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,root,vmtest/layouts} ||
	die "cannot create $root"
chmod 1777 "$root/tmp"

# copy_bin SRC DEST: a program and every library ldd lists for it (with
# the dynamic loader), each at the path the loader will look for it.
copy_bin() {
	install -m 755 "$1" "$root$2" || die "cannot copy $1"
	ldd "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' |
	while read -r lib; do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib" || die "cannot copy $lib"
	done
}

# busybox is kept in the cache beside the kernel (refreshed when the
# host's copy is newer).
hb=$(command -v busybox) && [ "$hb" -nt "$CACHE/busybox" ] && cp "$hb" "$CACHE/busybox"
bb=$CACHE/busybox
[ -x "$bb" ] || die "no busybox (install busybox-static)"
cp "$CACHE/busybox" "$root/bin/busybox" || die "cannot copy busybox"
for a in $("$root/bin/busybox" --list); do
	[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
done
copy_bin "$PROG" /usr/bin/numatop-tui
copy_bin "$(command -v numactl)" /usr/bin/numactl
copy_bin "$(command -v setpriv)" /usr/bin/setpriv
install -m 755 "$WORK/memhog" "$WORK/jsonflat" "$WORK/ptyrun" "$root/usr/bin/"
if [ -n "${VMTEST_BENCH:-}" ]; then
	[ -x "$VMTEST_BENCH" ] || die "no benchmark at '$VMTEST_BENCH' (make build/bench/bench)"
	copy_bin "$VMTEST_BENCH" /usr/bin/numatop-bench
fi
# The RAM disk driver of each kernel package (brd is a module in the
# cloud kernel, ext4 is built in), as /vmtest/modules/RELEASE/brd.ko: a
# real file system, and so real page cache, for the shared_file test
# (payload.sh section 13). Optional: the test uses tmpfs without it
# (VMTEST_KERNEL, a kernel without modules).
for kernel in "${kernel_of[@]}"; do
	kver=$(basename "$kernel")
	kver=${kver#vmlinuz-}
	brd=$(dirname "$(dirname "$kernel")")/lib/modules/$kver/kernel/drivers/block/brd.ko
	mkdir -p "$root/vmtest/modules/$kver"
	if [ -r "$brd" ]; then
		install -m 644 "$brd" "$root/vmtest/modules/$kver/brd.ko"
	elif [ -r "$brd.xz" ]; then  # 6.12's modules are compressed
		xz -dc "$brd.xz" >"$root/vmtest/modules/$kver/brd.ko" || rm -f "$root/vmtest/modules/$kver/brd.ko"
	fi
done

# Terminfo for the terminals the guest could report (the monitor needs one).
for t in l/linux v/vt100 x/xterm x/xterm-256color d/dumb; do
	for d in /lib/terminfo /usr/share/terminfo; do
		[ -e "$d/$t" ] || continue
		mkdir -p "$root$d/${t%/*}" && cp -L "$d/$t" "$root$d/$t"
	done
done

printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
	'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >"$root/etc/passwd"
printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$root/etc/group"
install -m 755 tests/vm/init "$root/init"
install -m 755 tests/vm/payload.sh "$root/vmtest/payload.sh"
cp tests/vm/layouts/*.layout "$root/vmtest/layouts/"

initrd=$WORK/initrd.gz
(cd "$root" && find . | sed 's|^\./||; /^\.$/d' | sort |
	"$bb" cpio -o -H newc -R 0:0 2>/dev/null) | gzip -1 >"$initrd" ||
	die "cannot build $initrd"

# --- 5. One VM per layout. --------------------------------------------------
# qemu_numa_args FILE: the -m/-smp/-object/-numa options for a layout file.
# Each node gets its own RAM backend; each CPU node one socket of "cores"
# CPUs; every ordered pair of nodes gets its -numa dist. With "hmat" lines:
# -machine hmat=on, each node's initiator (a CPU node is its own, a
# memory-only node has the initiator of its lowest-latency hmat line), and
# an access latency and bandwidth -numa hmat-lb for each line.
qemu_numa_args() {
	awk '
	$1 == "cores" { cores = $2 }
	$1 == "node"  { n = nn++; id[n] = $2; mem[n] = $3; cpu[n] = $4
	                for (j = 5; j <= NF; j++) d[n, j - 5] = $j }
	$1 == "hmat"  { h = nh++; hi[h] = $2; ht[h] = $3; hl[h] = $4; hb[h] = $5
	                if (!($3 in lat) || $4 < lat[$3]) { lat[$3] = $4; init[$3] = $2 } }
	END {
		if (!cores) cores = 1
		if (nh) print "-machine hmat=on"
		for (i = 0; i < nn; i++) {
			total += mem[i]
			printf "-object memory-backend-ram,id=m%d,size=%dM\n", i, mem[i]
			printf "-numa node,nodeid=%d,memdev=m%d", id[i], i
			if (nh) printf ",initiator=%d", cpu[i] == "yes" ? id[i] : init[id[i]]
			printf "\n"
			if (cpu[i] == "yes")
				printf "-numa cpu,node-id=%d,socket-id=%d\n", id[i], sockets++
		}
		for (i = 0; i < nn; i++) for (j = 0; j < nn; j++) if (i != j)
			printf "-numa dist,src=%d,dst=%d,val=%d\n", id[i], id[j], d[i, j]
		for (h = 0; h < nh; h++) {
			lb = sprintf("-numa hmat-lb,initiator=%d,target=%d,hierarchy=memory,", hi[h], ht[h])
			printf "%sdata-type=access-latency,latency=%d\n", lb, hl[h]
			printf "%sdata-type=access-bandwidth,bandwidth=%s\n", lb, hb[h]
		}
		printf "-m %dM\n-smp %d,sockets=%d,cores=%d,threads=1\n",
		       total, sockets * cores, sockets, cores
	}' "$1"
}

results=$WORK/results
: >"$results"
emit() { printf '%s\n' "$1" | tee -a "$results"; }
boot_wait=${VMTEST_BOOT_WAIT:-120}
tries=$((${VMTEST_BOOT_RETRIES:-3} + 1))

for L in $layouts; do
	lf=tests/vm/layouts/$L.layout
	[ -r "$lf" ] || { emit "FAIL ${L}_layout: no file $lf"; continue; }
	log=$WORK/$L.log
	series=$(lay_kernel "$L")
	kernel=${kernel_of[${series:--}]}
	t0=$SECONDS
	try=0
	rm -f "$log".boot*
	# Boot until the payload starts (VMTEST-START), at most $tries times:
	# the guest powers off when done, or panics (panic=-1 with -no-reboot:
	# QEMU exits); a guest stuck before the payload is stopped by its PID.
	while :; do
		try=$((try + 1))
		rm -f "$log.raw"
		# shellcheck disable=SC2046  # one option or value per line, no spaces
		timeout "$TIMEOUT" qemu-system-x86_64 -M pc -accel tcg \
			-nodefaults -no-user-config -display none -no-reboot \
			-kernel "$kernel" -initrd "$initrd" \
			$(qemu_numa_args "$lf") \
			-append "console=ttyS0 quiet panic=-1 rdinit=/init numa_balancing=disable vmtest.layout=$L${VMTEST_APPEND:+ $VMTEST_APPEND}" \
			-serial file:"$log.raw" </dev/null >"$log.qemu" 2>&1 &
		qpid=$!
		tb=$SECONDS
		while kill -0 "$qpid" 2>/dev/null && ! grep -q VMTEST-START "$log.raw" 2>/dev/null &&
			[ $((SECONDS - tb)) -lt "$boot_wait" ]; do
			sleep 0.5
		done
		if grep -q VMTEST-START "$log.raw" 2>/dev/null; then
			boot_s=$((SECONDS - tb))
			wait "$qpid"
			qrc=$?
			# The kernel died before the payload said anything (the 6.12
			# kernel under TCG was seen to panic in its first seconds,
			# also just after the payload started): booted again, as a
			# guest that did not start; a panic after a result line is
			# the payload's failure and is reported.
			panic=$(tr -d '\r' <"$log.raw" 2>/dev/null | grep -m 1 -E 'Kernel panic|BUG:|Oops:')
			if [ -z "$panic" ] || tr -d '\r' <"$log.raw" | grep -qE '^(PASS|FAIL|SKIP) ' ||
				[ "$try" -ge "$tries" ]; then
				break
			fi
			cp "$log.raw" "$log.boot$try" 2>/dev/null
			echo "vmtest: $L: boot $try of $tries: the kernel died before the first result" \
				"(${panic#\[*\] }; see $log.boot$try); booting again"
			continue
		fi
		if kill -0 "$qpid" 2>/dev/null; then
			why="no VMTEST-START within $boot_wait s"
			kill "$qpid"
		else
			why="QEMU exited before VMTEST-START"
		fi
		wait "$qpid"
		qrc=$?
		panic=$(tr -d '\r' <"$log.raw" 2>/dev/null | grep -m 1 -E 'Kernel panic|BUG:|Oops:')
		[ -n "$panic" ] && why="$why: ${panic#\[*\] }"
		cp "$log.raw" "$log.boot$try" 2>/dev/null
		if [ "$try" -ge "$tries" ]; then
			echo "vmtest: $L: boot $try of $tries failed ($why; see $log.boot$try); no more tries"
			break
		fi
		echo "vmtest: $L: boot $try of $tries failed ($why; see $log.boot$try); booting again"
	done
	tr -d '\r' <"$log.raw" >"$log" 2>/dev/null
	[ "${VMTEST_VERBOSE:-0}" = 1 ] && sed "s/^/[$L] /" "$log"
	# Result lines, and the indented details the payload prints after a FAIL.
	grep -E '^(PASS|FAIL|SKIP) |^    ' "$log"
	grep -E '^(PASS|FAIL|SKIP) ' "$log" >>"$results"
	marker=$(sed -n 's/^VMTEST-EXIT=\([0-9]*\)$/\1/p' "$log" | tail -1)
	if ! grep -q VMTEST-START "$log"; then
		emit "FAIL ${L}_vm: the payload did not start in $try boots (the last: $why; see $log, $log.qemu)"
		tail -n 20 "$log" "$log.qemu" | sed 's/^/    /'
	elif [ -z "$marker" ]; then
		emit "FAIL ${L}_vm: no VMTEST-EXIT marker (qemu exit $qrc; see $log, $log.qemu)"
		tail -n 20 "$log" "$log.qemu" | sed 's/^/    /'
	elif [ "$marker" != 0 ] && ! grep -q "^FAIL ${L}_" "$log"; then
		emit "FAIL ${L}_vm: payload exit status $marker without a FAIL line (see $log)"
	fi
	if grep -q VMTEST-START "$log"; then
		echo "vmtest: $L: $((SECONDS - t0)) s (the payload started ${boot_s} s after boot $try;" \
			"$(basename "$kernel"))"
	else
		echo "vmtest: $L: $((SECONDS - t0)) s ($try boots; $(basename "$kernel"))"
	fi
done

p=$(grep -c '^PASS ' "$results"); f=$(grep -c '^FAIL ' "$results")
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
