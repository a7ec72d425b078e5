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
#   VMTEST_KERNEL   use this vmlinuz instead of the cached Debian one
#   VMTEST_LAYOUTS  layout names to run (default: every tests/vm/layouts/*.layout)
#   VMTEST_TIMEOUT  seconds before a VM is killed (default 300)
#   VMTEST_VERBOSE  1: print each VM's whole console log
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
DEB_PKGS="qemu-system-x86 busybox-static numactl util-linux gcc libc6-dev"
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

# --- 2. Kernel: the package linux-image-cloud-amd64 depends on, unpacked. ---
# The cloud kernel has NUMA, ACPI SLIT, page migration, the 8250 console and
# initramfs support built in, so the guest needs no modules.
find_kernel() { ls -1 "$1"/boot/vmlinuz-* 2>/dev/null | sort -V | tail -1; }
kernel=${VMTEST_KERNEL:-}
if [ -z "$kernel" ]; then
	kpkg=$(apt-cache depends "$KERNEL_META" 2>/dev/null | awk '/Depends:/ { print $2; exit }')
	if [ -z "$kpkg" ] && [ "$(id -u)" = 0 ]; then
		apt-get update -qq >/dev/null 2>&1
		kpkg=$(apt-cache depends "$KERNEL_META" 2>/dev/null | awk '/Depends:/ { print $2; exit }')
	fi
	if [ -n "$kpkg" ]; then
		kernel=$(find_kernel "$CACHE/$kpkg")
		if [ -z "$kernel" ]; then
			echo "vmtest: downloading $kpkg (unpacked in $CACHE, not installed)"
			dl=$(mktemp -d "$CACHE/dl.XXXXXX") || die "mktemp failed"
			chmod 755 "$dl"  # apt's _apt user writes the download here
			if (cd "$dl" && apt-get download -q "$kpkg" >/dev/null 2>&1) &&
				dpkg -x "$dl"/*.deb "$dl/root"; then
				rm -rf "${CACHE:?}/$kpkg" && mv "$dl/root" "$CACHE/$kpkg"
			fi
			rm -rf "$dl"
			kernel=$(find_kernel "$CACHE/$kpkg")
		fi
	fi
	# Offline, or the package moved on: any kernel cached before will do.
	[ -n "$kernel" ] || kernel=$(ls -1 "$CACHE"/*/boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
fi
[ -n "$kernel" ] && [ -r "$kernel" ] ||
	die "no kernel: 'apt-get download \$(apt-cache depends $KERNEL_META)' failed (run apt-get update?)"

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
# The RAM disk driver of the same kernel package (brd is a module in the
# cloud kernel, ext4 is built in): a real file system, and so real page
# cache, for the shared_file test (payload.sh section 13). Optional: the
# test uses tmpfs without it (VMTEST_KERNEL, a kernel without modules).
kver=$(basename "$kernel")
brd=$(dirname "$(dirname "$kernel")")/lib/modules/${kver#vmlinuz-}/kernel/drivers/block/brd.ko
[ -r "$brd" ] && install -m 644 "$brd" "$root/vmtest/brd.ko"

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
# CPUs; every ordered pair of nodes gets its -numa dist.
qemu_numa_args() {
	awk '
	$1 == "cores" { cores = $2 }
	$1 == "node"  { n = nn++; id[n] = $2; mem[n] = $3; cpu[n] = $4
	                for (j = 5; j <= NF; j++) d[n, j - 5] = $j }
	END {
		if (!cores) cores = 1
		for (i = 0; i < nn; i++) {
			total += mem[i]
			printf "-object memory-backend-ram,id=m%d,size=%dM\n", i, mem[i]
			printf "-numa node,nodeid=%d,memdev=m%d\n", id[i], i
			if (cpu[i] == "yes")
				printf "-numa cpu,node-id=%d,socket-id=%d\n", id[i], sockets++
		}
		for (i = 0; i < nn; i++) for (j = 0; j < nn; j++) if (i != j)
			printf "-numa dist,src=%d,dst=%d,val=%d\n", id[i], id[j], d[i, j]
		printf "-m %dM\n-smp %d,sockets=%d,cores=%d,threads=1\n",
		       total, sockets * cores, sockets, cores
	}' "$1"
}

layouts=${VMTEST_LAYOUTS:-$(for f in tests/vm/layouts/*.layout; do basename "$f" .layout; done)}
results=$WORK/results
: >"$results"
emit() { printf '%s\n' "$1" | tee -a "$results"; }

for L in $layouts; do
	lf=tests/vm/layouts/$L.layout
	[ -r "$lf" ] || { emit "FAIL ${L}_layout: no file $lf"; continue; }
	log=$WORK/$L.log
	# shellcheck disable=SC2046  # one option or value per line, no spaces
	timeout "$TIMEOUT" qemu-system-x86_64 -M pc -accel tcg \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		$(qemu_numa_args "$lf") \
		-append "console=ttyS0 quiet panic=-1 rdinit=/init numa_balancing=disable vmtest.layout=$L" \
		-serial stdio </dev/null 2>"$log.qemu" | tr -d '\r' >"$log"
	qrc=${PIPESTATUS[0]}
	[ "${VMTEST_VERBOSE:-0}" = 1 ] && sed "s/^/[$L] /" "$log"
	# Result lines, and the indented details the payload prints after a FAIL.
	grep -E '^(PASS|FAIL|SKIP) |^    ' "$log"
	grep -E '^(PASS|FAIL|SKIP) ' "$log" >>"$results"
	marker=$(sed -n 's/^VMTEST-EXIT=\([0-9]*\)$/\1/p' "$log" | tail -1)
	if [ -z "$marker" ]; then
		emit "FAIL ${L}_vm: no VMTEST-EXIT marker (qemu exit $qrc; see $log, $log.qemu)"
		tail -n 20 "$log" "$log.qemu" | sed 's/^/    /'
	elif [ "$marker" != 0 ] && ! grep -q "^FAIL ${L}_" "$log"; then
		emit "FAIL ${L}_vm: payload exit status $marker without a FAIL line (see $log)"
	fi
done

p=$(grep -c '^PASS ' "$results"); f=$(grep -c '^FAIL ' "$results")
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
