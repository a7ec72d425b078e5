#!/bin/sh
# gen_many_nodes.sh OUTDIR [NODES] [CPUS_PER_NODE]
#
# Writes a synthetic recorded tree (read with `numatop-tui --root OUTDIR`)
# for a big NUMA machine: NODES nodes (default 64) with CPUS_PER_NODE CPUs
# each (default 2), in the file formats of tests/trees/opteron4. POSIX sh
# and awk only (runs on a bare Debian: no python, no bash).
#
# The machine:
# - Node ids 0..NODES-1, no gaps. The last NODES/16 nodes (4 of 64) are
#   memory-only (no CPUs, empty cpulist, CXL-like), the others have
#   CPUS_PER_NODE CPUs each: node i has CPUs i*C .. i*C+C-1.
# - A package (socket) holds two nodes (2p, 2p+1), a board four packages
#   (8 nodes), a chassis two boards (16 nodes). SLIT distances, symmetric:
#   10 local, 16 same package, 22 same board, 28 same chassis, 32 farther.
#   Memory-only node k (k = 0, 1, ... among them) hangs off board
#   k mod boards: 30 to that board's nodes, 40 to every other node.
# - Per node MemTotal / MemFree / numastat vary (deterministic
#   pseudo-random); every 8th CPU node has 2 MiB hugepages. /proc/meminfo,
#   /proc/vmstat and /proc/stat are the sums.
# - 11 processes (etc/passwd users) under proc/: numa_maps with pages on
#   several nodes (anon=, file=, mapped=, an interleave over every node,
#   a bind to a memory-only node, a hugetlb mapping), threads whose last CPU
#   (stat field 39) puts HOME on different nodes, and several processes
#   with a big REMOTE share (memcached: threads on one node, memory bound
#   to a memory-only node; java: heap interleaved over all nodes).
#   VmRSS = the numa_maps pages in kB without hugetlb.
#
# The same arguments give the same tree, byte for byte. OUTDIR must not
# exist or be empty.
set -eu

usage() { echo "usage: $0 OUTDIR [NODES] [CPUS_PER_NODE]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 3 ] || usage
OUT=$1
N=${2:-64}
C=${3:-2}
case $N in ''|*[!0-9]*) usage ;; esac
case $C in ''|*[!0-9]*) usage ;; esac
[ "$N" -ge 1 ] && [ "$N" -le 1024 ] || { echo "$0: NODES must be 1..1024" >&2; exit 2; }
[ "$C" -ge 1 ] && [ "$C" -le 64 ] || { echo "$0: CPUS_PER_NODE must be 1..64" >&2; exit 2; }

M=$((N / 16))                 # memory-only nodes, at the end
NC=$((N - M))                 # nodes with CPUs: 0 .. NC-1
NCPU=$((NC * C))              # CPUs: 0 .. NCPU-1
NG=$(((NCPU + 31) / 32))      # 32-bit groups in a CPU mask
NBOARD=$(((NC + 7) / 8))
NNG=$(((N + 31) / 32)); [ "$NNG" -lt 2 ] && NNG=2   # groups in Mems_allowed

# OUTDIR must be new or empty: nothing outside it is touched, nothing in it
# is deleted.
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ]; then
	echo "$0: $OUT exists and is not empty" >&2; exit 1
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SYS=$OUT/sys/devices/system
mkdir -p "$SYS/node" "$SYS/cpu" "$OUT/proc" "$OUT/etc"

# --- helpers ---------------------------------------------------------------
# lst LO HI: a cpulist ("3", "4-7", or empty when HI < LO).
lst() {
	if [ "$2" -lt "$1" ]; then echo
	elif [ "$1" -eq "$2" ]; then echo "$1"
	else echo "$1-$2"; fi
}
# mask NGROUPS LO HI: a cpumap of bits LO..HI, comma-separated 32-bit
# groups, highest first (as the kernel prints it).
mask() {
	_g=$(($1 - 1))
	while [ $_g -ge 0 ]; do
		_b=$((_g * 32)); _v=0; _a=$2; _e=$3
		[ $_a -lt $_b ] && _a=$_b
		[ $_e -gt $((_b + 31)) ] && _e=$((_b + 31))
		[ $_a -le $_e ] && _v=$(( ((1 << (_e - _b + 1)) - 1) ^ ((1 << (_a - _b)) - 1) ))
		printf '%08x' $_v
		[ $_g -gt 0 ] && printf ','
		_g=$((_g - 1))
	done
	echo
}
# rnd MOD: next pseudo-random number 0..MOD-1 in $R (an LCG: no forks).
SEED=20240512
rnd() { SEED=$(( (SEED * 1103515245 + 12345) % 2147483648 )); R=$(( (SEED / 65536) % $1 )); }
# dist I J: the SLIT distance, in $D.
dist() {
	if [ "$1" -eq "$2" ]; then D=10; return; fi
	if [ "$1" -lt $NC ] && [ "$2" -lt $NC ]; then
		if [ $(($1 / 2)) -eq $(($2 / 2)) ]; then D=16
		elif [ $(($1 / 8)) -eq $(($2 / 8)) ]; then D=22
		elif [ $(($1 / 16)) -eq $(($2 / 16)) ]; then D=28
		else D=32; fi
		return
	fi
	if [ "$1" -ge $NC ] && [ "$2" -ge $NC ]; then D=40; return; fi
	if [ "$1" -ge $NC ]; then _m=$1; _c=$2; else _m=$2; _c=$1; fi
	if [ $(( (_m - NC) % NBOARD )) -eq $((_c / 8)) ]; then D=30; else D=40; fi
}
# cn K: a node with CPUs (K modulo their number), in $V.
cn() { V=$(($1 % NC)); }
# mn K: a memory-only node (K modulo their number; a CPU node if none), in $V.
mn() { if [ $M -gt 0 ]; then V=$((NC + $1 % M)); else V=$(( (NC - 1 - $1 % NC) )); fi; }

# --- nodes -----------------------------------------------------------------
ND=$SYS/node
lst 0 $((N - 1)) >"$ND/online"
lst 0 $((N - 1)) >"$ND/possible"
lst 0 $((NC - 1)) >"$ND/has_cpu"
lst 0 $((N - 1)) >"$ND/has_memory"
lst 0 $((NC - 1)) >"$ND/has_normal_memory"   # memory-only nodes: ZONE_MOVABLE

T_TOTAL=0; T_FREE=0; T_FILE=0; T_ANON=0; T_SHMEM=0; T_HP=0; T_HPF=0
T_HIT=0; T_MISS=0; T_FOREIGN=0; T_IL=0; T_LOCAL=0; T_OTHER=0
i=0
while [ $i -lt $N ]; do
	d=$ND/node$i
	mkdir -p "$d/hugepages/hugepages-2048kB"
	if [ $i -lt $NC ]; then
		lo=$((i * C)); hi=$((lo + C - 1))
	else
		lo=1; hi=0
	fi
	lst $lo $hi >"$d/cpulist"
	mask $NG $lo $hi >"$d/cpumap"
	j=0; line=
	while [ $j -lt $N ]; do
		dist $i $j; line="$line${line:+ }$D"; j=$((j + 1))
	done
	echo "$line" >"$d/distance"
	# Memory: CPU nodes 16 GiB less a varying reserve (node 0 more),
	# memory-only nodes 64 GiB.
	if [ $i -lt $NC ]; then
		rnd 24; tot=$((16777216 - 131072 - R * 16384))
		[ $i -eq 0 ] && tot=$((tot - 393216))
	else
		rnd 8; tot=$((67108864 - R * 65536))
	fi
	rnd 90; free=$((tot / 100 * (R + 5)))
	used=$((tot - free))
	rnd 40; filep=$((used / 100 * (R + 20)))
	anonp=$((used - filep - used / 20))
	rnd 64; shmem=$((R * 256))
	hp=0; hpf=0
	if [ $i -lt $NC ] && [ $((i % 8)) -eq 1 ]; then hp=32; rnd 32; hpf=$R; fi
	{
		printf 'Node %d MemTotal:       %8d kB\n' $i $tot
		printf 'Node %d MemFree:        %8d kB\n' $i $free
		printf 'Node %d MemUsed:        %8d kB\n' $i $used
		printf 'Node %d FilePages:      %8d kB\n' $i $filep
		printf 'Node %d AnonPages:      %8d kB\n' $i $anonp
		printf 'Node %d Shmem:          %8d kB\n' $i $shmem
		printf 'Node %d HugePages_Total: %5d\n' $i $hp
		printf 'Node %d HugePages_Free:  %5d\n' $i $hpf
		printf 'Node %d HugePages_Surp:  %5d\n' $i 0
	} >"$d/meminfo"
	echo $hp >"$d/hugepages/hugepages-2048kB/nr_hugepages"
	echo $hpf >"$d/hugepages/hugepages-2048kB/free_hugepages"
	rnd 50000; hit=$((1000000 + R * 400 + i * 7))
	[ $i -ge $NC ] && hit=$((hit / 8))
	rnd 2000; miss=$((R * 13 + 17))
	rnd 2000; foreign=$((R * 11 + 5))
	rnd 5000; il=$((R + 1000))
	rnd 3000; other=$((miss + R * 7))
	lcl=$((hit - other / 2))
	{
		echo "numa_hit $hit"
		echo "numa_miss $miss"
		echo "numa_foreign $foreign"
		echo "interleave_hit $il"
		echo "local_node $lcl"
		echo "other_node $other"
	} >"$d/numastat"
	T_TOTAL=$((T_TOTAL + tot)); T_FREE=$((T_FREE + free)); T_FILE=$((T_FILE + filep))
	T_ANON=$((T_ANON + anonp)); T_SHMEM=$((T_SHMEM + shmem)); T_HP=$((T_HP + hp)); T_HPF=$((T_HPF + hpf))
	T_HIT=$((T_HIT + hit)); T_MISS=$((T_MISS + miss)); T_FOREIGN=$((T_FOREIGN + foreign))
	T_IL=$((T_IL + il)); T_LOCAL=$((T_LOCAL + lcl)); T_OTHER=$((T_OTHER + other))
	i=$((i + 1))
done

# --- CPUs ------------------------------------------------------------------
CD=$SYS/cpu
lst 0 $((NCPU - 1)) >"$CD/online"
lst 0 $((NCPU - 1)) >"$CD/possible"
lst 0 $((NCPU - 1)) >"$CD/present"
cache() { # cache DIR LEVEL TYPE SIZE LO HI
	echo "$2" >"$1/level"; echo "$3" >"$1/type"; echo "$4" >"$1/size"
	lst $5 $6 >"$1/shared_cpu_list"; mask $NG $5 $6 >"$1/shared_cpu_map"
}
# All directories in one mkdir (relative names: no spaces), not one per file.
dirs=; cpu=0
while [ $cpu -lt $NCPU ]; do
	dirs="$dirs cpu$cpu/topology cpu$cpu/cache/index0 cpu$cpu/cache/index1 cpu$cpu/cache/index2 cpu$cpu/cache/index3"
	cpu=$((cpu + 1))
done
(cd "$CD" && mkdir -p $dirs)
cpu=0
while [ $cpu -lt $NCPU ]; do
	d=$CD/cpu$cpu
	[ $cpu -gt 0 ] && echo 1 >"$d/online"      # cpu0: no online file, as on x86
	node=$((cpu / C)); pkg=$((node / 2))
	plo=$((pkg * 2 * C)); phi=$((plo + 2 * C - 1))
	[ $phi -ge $NCPU ] && phi=$((NCPU - 1))
	nlo=$((node * C)); nhi=$((nlo + C - 1))
	echo $((cpu - plo)) >"$d/topology/core_id"
	echo $pkg >"$d/topology/physical_package_id"
	mask $NG $cpu $cpu >"$d/topology/thread_siblings"
	lst $cpu $cpu >"$d/topology/thread_siblings_list"
	mask $NG $plo $phi >"$d/topology/core_siblings"
	lst $plo $phi >"$d/topology/core_siblings_list"
	cache "$d/cache/index0" 1 Data 32K $cpu $cpu
	cache "$d/cache/index1" 1 Instruction 32K $cpu $cpu
	cache "$d/cache/index2" 2 Unified 512K $cpu $cpu
	cache "$d/cache/index3" 3 Unified 8192K $nlo $nhi
	cpu=$((cpu + 1))
done

# --- /proc totals ----------------------------------------------------------
{
	printf 'MemTotal:       %8d kB\n' $T_TOTAL
	printf 'MemFree:        %8d kB\n' $T_FREE
	printf 'MemAvailable:   %8d kB\n' $((T_FREE + T_FILE / 2))
	printf 'Buffers:        %8d kB\n' $((T_FILE / 40))
	printf 'Cached:         %8d kB\n' $T_FILE
	printf 'SwapCached:     %8d kB\n' 0
	printf 'Active:         %8d kB\n' $(((T_ANON + T_FILE) / 3 * 2))
	printf 'Inactive:       %8d kB\n' $(((T_ANON + T_FILE) / 3))
	printf 'AnonPages:      %8d kB\n' $T_ANON
	printf 'Shmem:          %8d kB\n' $T_SHMEM
	printf 'SwapTotal:      %8d kB\n' 8388604
	printf 'SwapFree:       %8d kB\n' 8388604
	printf 'HugePages_Total:   %5d\n' $T_HP
	printf 'HugePages_Free:    %5d\n' $T_HPF
	printf 'HugePages_Rsvd:    %5d\n' 0
	printf 'HugePages_Surp:    %5d\n' 0
	printf 'Hugepagesize:       2048 kB\n'
} >"$OUT/proc/meminfo"

{
	echo "nr_free_pages $((T_FREE / 4))"
	echo "nr_anon_pages $((T_ANON / 4))"
	echo "numa_hit $T_HIT"
	echo "numa_miss $T_MISS"
	echo "numa_foreign $T_FOREIGN"
	echo "numa_interleave $T_IL"
	echo "numa_local $T_LOCAL"
	echo "numa_other $T_OTHER"
	echo "numa_pte_updates 0"
	echo "numa_hint_faults 0"
	echo "numa_hint_faults_local 0"
	echo "numa_pages_migrated 0"
	echo "pgmigrate_success 4321"
	echo "pgmigrate_fail 12"
} >"$OUT/proc/vmstat"

# /proc/stat: per CPU user nice system idle iowait irq softirq steal guest guest_nice
cpu=0; SU=0; SN=0; SS=0; SI=0; SW=0; SQ=0; lines=
while [ $cpu -lt $NCPU ]; do
	rnd 90000; u=$((10000 + R))
	rnd 100; n=$R
	rnd 30000; s=$((3000 + R))
	i=$((9100000 - u - s))
	rnd 3000; w=$R
	rnd 2000; q=$R
	lines="$lines
cpu$cpu $u $n $s $i $w 0 $q 0 0 0"
	SU=$((SU + u)); SN=$((SN + n)); SS=$((SS + s)); SI=$((SI + i)); SW=$((SW + w)); SQ=$((SQ + q))
	cpu=$((cpu + 1))
done
{
	echo "cpu  $SU $SN $SS $SI $SW 0 $SQ 0 0 0$lines"
	echo "intr 123456789 0 0 0"
	echo "ctxt 987654321"
	echo "btime 1714000000"
	echo "processes 98765"
	echo "procs_running 3"
	echo "procs_blocked 0"
	echo "softirq 5101 0 1200 3 400 0 0 2500 0 0 998"
} >"$OUT/proc/stat"

# --- users -----------------------------------------------------------------
cat >"$OUT/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin
postgres:x:110:118:PostgreSQL administrator,,,:/var/lib/postgresql:/bin/bash
memcache:x:111:119:Memcached,,,:/nonexistent:/bin/false
alice:x:1000:1000:Alice,,,:/home/alice:/bin/bash
bob:x:1001:1001:Bob,,,:/home/bob:/bin/bash
carol:x:1002:1002:Carol,,,:/home/carol:/bin/bash
EOF

# --- processes -------------------------------------------------------------
# proc_new PID PPID UID COMM CMDLINE...: starts a process; then nm_* lines,
# thr NODE lines (the first is the main thread), then proc_end.
CPUMASK=$(mask $NG 0 $((NCPU - 1)))
MEMMASK=$(mask $NNG 0 $((N - 1)))
proc_new() {
	P=$1; PP=$2; PU=$3; PC=$4; shift 4
	PD=$OUT/proc/$P
	mkdir -p "$PD/task"
	printf '%s\0' "$@" >"$PD/cmdline"
	: >"$PD/numa_maps"
	NTHR=0; TIDS=; MAINCPU=0
}
# nm ADDR "POLICY FIELDS (@ = total pages)" "NODE=PAGES ..." [PAGE_KB]:
# one numa_maps line; pages on the same node are added, N<id> ascending.
nm() {
	echo "$3" | awk -v addr="$1" -v head="$2" -v kb="${4:-4}" '
		{ for (i = 1; i <= NF; i++) { split($i, a, "="); p[a[1] + 0] += a[2]; t += a[2] } }
		END {
			gsub(/@/, t, head); s = addr " " head
			for (n = 0; n < 4096; n++) if (n in p && p[n] > 0) s = s " N" n "=" p[n]
			if (t > 0) s = s " kernelpagesize_kB=" kb
			print s
		}' >>"$PD/numa_maps"
}
# thr NODE: a thread whose last CPU is on NODE (a CPU of it, round robin).
thr() {
	tcpu=$(($1 * C + NTHR % C))
	if [ $NTHR -eq 0 ]; then tid=$P; MAINCPU=$tcpu; else tid=$((P + NTHR)); fi
	TIDS="$TIDS $tid:$tcpu"
	NTHR=$((NTHR + 1))
}
statline() { # statline PID CPU UTIME STIME START
	echo "$1 ($PC) S $PP $P $P 0 -1 4194560 $(($3 / 3)) 0 $(($3 / 900)) 0 $3 $4 0 0 20 0 $NTHR 0 $5 $VSZ $(($RSS / 4)) 18446744073709551615 4194304 4238324 140737488346512 0 0 0 0 0 0 0 0 0 17 $2 0 0 0 0 0 6335888 6337152 6340608 140737488347875 140737488347900 140737488347900 140737488351211 0"
}
proc_end() { # proc_end UTIME STIME START
	RSS=$(awk '!/ huge /{ k = 4; for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) { split($i, a, "="); k = a[2] }
		for (i = 1; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, a, "="); s += a[2] * k } } END { print s + 0 }' "$PD/numa_maps")
	VSZ=$((RSS * 1024 * 2 + 67108864))
	for ts in $TIDS; do
		tid=${ts%%:*}; tc=${ts#*:}
		mkdir -p "$PD/task/$tid"
		statline $tid $tc $(($1 / NTHR)) $(($2 / NTHR)) $(($3 + tid - P)) >"$PD/task/$tid/stat"
	done
	statline $P $MAINCPU $1 $2 $3 >"$PD/stat"
	cat >"$PD/status" <<EOF
Name:	$PC
Umask:	0022
State:	S (sleeping)
Tgid:	$P
Ngid:	0
Pid:	$P
PPid:	$PP
TracerPid:	0
Uid:	$PU	$PU	$PU	$PU
Gid:	$PU	$PU	$PU	$PU
FDSize:	64
Groups:	$PU
VmPeak:	$((VSZ / 1024)) kB
VmSize:	$((VSZ / 1024)) kB
VmRSS:	$RSS kB
Threads:	$NTHR
Cpus_allowed:	$CPUMASK
Cpus_allowed_list:	$(lst 0 $((NCPU - 1)))
Mems_allowed:	$MEMMASK
Mems_allowed_list:	$(lst 0 $((N - 1)))
voluntary_ctxt_switches:	120
nonvoluntary_ctxt_switches:	7
EOF
}
LIBC="file=/usr/lib/x86_64-linux-gnu/libc.so.6"

# PID 1 systemd (root): node 0, libc page cache partly on node 1.
proc_new 1 0 0 systemd /sbin/init splash
cn 0; a=$V; cn 1; b=$V
nm 55d0c0000000 "default file=/usr/lib/systemd/systemd mapped=@ mapmax=2" "$a=310"
nm 55d0c0400000 "default heap anon=@ dirty=@" "$a=2200"
nm 7f10c0000000 "default $LIBC mapped=@ mapmax=180" "$a=120 $b=280"
nm 7ffd10000000 "default stack anon=@ dirty=@" "$a=36"
thr $a
proc_end 91000 45000 2

# PID 812 sshd (root): node 2, all local.
proc_new 812 1 0 sshd "sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups"
cn 2; a=$V
nm 5600a0000000 "default file=/usr/sbin/sshd mapped=@ mapmax=3" "$a=210"
nm 5600a0400000 "default heap anon=@ dirty=@" "$a=400"
nm 7f20a0000000 "default $LIBC mapped=@ mapmax=180" "$a=400"
nm 7ffe20000000 "default stack anon=@ dirty=@" "$a=33"
thr $a
proc_end 800 400 900

# PID 1520 postgres: 6 threads, 3 on node 4 (HOME), 2 on 5, 1 on 12;
# shared buffers spread over its package, board and chassis.
proc_new 1520 1 110 postgres /usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main
cn 4; a=$V; cn 5; b=$V; cn 6; c=$V; cn 7; d=$V; cn 12; e=$V
nm 55e000000000 "default file=/usr/lib/postgresql/15/bin/postgres mapped=@ mapmax=12" "$a=1800 $b=200"
nm 55e000a00000 "default heap anon=@ dirty=@" "$a=9000 $b=1000"
nm 7f3000000000 "default file=/dev/shm/PostgreSQL.1984 dirty=@ mapped=@ mapmax=12 active=0" "$a=60000 $b=40000 $c=20000 $d=20000 $e=12000"
nm 7f4000000000 "default $LIBC mapped=@ mapmax=180" "$b=400"
nm 7ffc30000000 "default stack anon=@ dirty=@" "$a=48"
thr $a; thr $a; thr $b; thr $a; thr $b; thr $e
proc_end 2400000 600000 1500

# PID 2210 java (alice): 16 threads on 16 nodes (a tie: the main thread's
# node 8 is HOME); the heap interleaved over every node: far mostly remote.
proc_new 2210 1 1000 java /usr/lib/jvm/java-17-openjdk-amd64/bin/java -XX:+UseNUMA -Xmx64g -jar app.jar
cn 8; a=$V; cn 9; b=$V
nm 55f000000000 "default file=/usr/lib/jvm/java-17-openjdk-amd64/bin/java mapped=@ mapmax=2" "$a=12"
spread=; k=0; while [ $k -lt $N ]; do spread="$spread $k=$((1024 + (k * 37) % 512))"; k=$((k + 1)); done
nm 7e0000000000 "interleave:$(lst 0 $((N - 1))) anon=@ dirty=@ active=0" "$spread"
nm 7f5000000000 "default file=/usr/lib/jvm/java-17-openjdk-amd64/lib/modules mapped=@ mapmax=2" "$a=9000 $b=3000"
nm 7f5800000000 "default $LIBC mapped=@ mapmax=180" "$a=400"
nm 7ffc40000000 "default stack anon=@ dirty=@" "$a=132"
k=0; while [ $k -lt 16 ]; do cn $((8 + k)); thr $V; k=$((k + 1)); done
proc_end 8800000 1200000 4000

# PID 2985 memcached (memcache): 4 threads on node 10, its slab memory
# bound to a memory-only node: REMOTE about 99%.
proc_new 2985 1 111 memcached /usr/bin/memcached -m 1024 -p 11211 -u memcache
cn 10; a=$V; mn 2; m=$V
nm 5610c0000000 "default file=/usr/bin/memcached mapped=@ mapmax=1" "$a=60"
nm 5610c0200000 "default heap anon=@ dirty=@" "$a=700"
nm 7f6000000000 "bind:$m anon=@ dirty=@ active=0" "$m=262144"
nm 7f6100000000 "default $LIBC mapped=@ mapmax=180" "$a=400"
nm 7ffc50000000 "default stack anon=@ dirty=@" "$a=33"
thr $a; thr $a; thr $a; thr $a
proc_end 340000 210000 6000

# PID 3301/3302 nginx (www-data): master on node 33, worker on node 34;
# the worker's heap local, its shared cache on the master's node.
proc_new 3301 1 33 nginx "nginx: master process /usr/sbin/nginx -g daemon on; master_process on;"
cn 33; a=$V; cn 34; b=$V
nm 5620d0000000 "default file=/usr/sbin/nginx mapped=@ mapmax=2" "$a=280"
nm 5620d0400000 "default heap anon=@ dirty=@" "$a=1100"
nm 7f7000000000 "default file=/dev/zero\\040(deleted) dirty=@ mapped=@ mapmax=2" "$a=2048"
nm 7f7100000000 "default $LIBC mapped=@ mapmax=180" "$a=300 $b=100"
nm 7ffc60000000 "default stack anon=@ dirty=@" "$a=33"
thr $a
proc_end 2000 1500 7000
proc_new 3302 3301 33 nginx "nginx: worker process"
nm 5620d0000000 "default file=/usr/sbin/nginx mapped=@ mapmax=2" "$a=280"
nm 5620d0400000 "default heap anon=@ dirty=@" "$b=5200"
nm 7f7000000000 "default file=/dev/zero\\040(deleted) dirty=@ mapped=@ mapmax=2" "$a=2048"
nm 7f7100000000 "default $LIBC mapped=@ mapmax=180" "$a=300 $b=100"
nm 7ffc70000000 "default stack anon=@ dirty=@" "$b=40"
thr $b; thr $b
proc_end 90000 60000 7010

# PID 4100 redis-server (bob): node 41, mostly local, a bit on its
# package neighbour 40 and a 2 MiB hugetlb area.
proc_new 4100 1 1001 redis-server "/usr/bin/redis-server 127.0.0.1:6379"
cn 41; a=$V; cn 40; b=$V
nm 5630e0000000 "default file=/usr/bin/redis-server mapped=@ mapmax=1" "$a=500"
nm 5630e0800000 "default heap anon=@ dirty=@" "$a=180000 $b=12000"
nm 7f8000000000 "default file=/anon_hugepage\\040(deleted) huge anon=@ dirty=@" "$a=16" 2048
nm 7f8100000000 "default $LIBC mapped=@ mapmax=180" "$a=400"
nm 7ffc80000000 "default stack anon=@ dirty=@" "$a=33"
thr $a; thr $a; thr $a; thr $b
proc_end 1200000 300000 8000

# PID 4711 stream (alice): 12 threads on nodes 48..59, each touching its
# own array locally: a tie, HOME is the main thread's node; the rest remote.
proc_new 4711 2000 1000 stream ./stream_omp 100000000
cn 48; a=$V
nm 400000 "default file=/home/alice/bench/stream_omp mapped=@ mapmax=1" "$a=5"
k=0
while [ $k -lt 12 ]; do
	cn $((48 + k)); nm "$(printf '7f%02x00000000' $((0x90 + k)))" "default anon=@ dirty=@ active=0" "$V=65536"
	thr $V
	k=$((k + 1))
done
nm 7fa000000000 "default $LIBC mapped=@ mapmax=180" "$a=400"
nm 7ffc90000000 "default stack anon=@ dirty=@" "$a=33"
proc_end 720000 30000 9000

# PID 5050 python3 (carol): node 20, reads data files cached on other
# nodes (copy-on-write pages: file= with anon=).
proc_new 5050 4990 1002 python3 python3 /home/carol/etl.py --input /srv/data
cn 20; a=$V; cn 0; b=$V; cn 1; c=$V; cn 30; d=$V; cn 21; e=$V
nm 5640f0000000 "default file=/usr/bin/python3.11 mapped=@ mapmax=4" "$b=700 $c=200"
nm 5640f0c00000 "default file=/usr/bin/python3.11 anon=@ dirty=@" "$a=120"
nm 5640f1000000 "default heap anon=@ dirty=@" "$a=42000"
nm 7f9000000000 "default file=/srv/data/part-0001.parquet mapped=@ mapmax=1" "$d=24000 $a=6000"
nm 7f9100000000 "prefer:$a anon=@ dirty=@" "$a=30000 $e=2000"
nm 7f9200000000 "default $LIBC mapped=@ mapmax=180" "$b=120 $c=280"
nm 7ffca0000000 "default stack anon=@ dirty=@" "$a=64"
thr $a; thr $a
proc_end 410000 52000 10000

# PID 6001 tar (root): a backup on node 55 whose page cache sits on 16
# nodes it ran on earlier: almost all remote.
proc_new 6001 1 0 tar tar -czf /backup/home.tgz /home
cn 55; a=$V
nm 565000000000 "default file=/usr/bin/tar mapped=@ mapmax=1" "$a=90"
nm 565000400000 "default heap anon=@ dirty=@" "$a=600"
spread=; k=0; while [ $k -lt 16 ]; do cn $((k * 3)); spread="$spread $V=$((3000 + k * 250))"; k=$((k + 1)); done
nm 7fb000000000 "default file=/home/bob/videos/holiday.mkv mapped=@ mapmax=1" "$spread"
nm 7fb100000000 "default $LIBC mapped=@ mapmax=180" "$a=400"
nm 7ffcb0000000 "default stack anon=@ dirty=@" "$a=33"
thr $a
proc_end 150000 260000 11000

echo "$OUT: $N nodes ($NC with $C CPUs each, $M memory-only), $NCPU CPUs, $(ls -d "$OUT"/proc/[0-9]* | wc -l) processes"
