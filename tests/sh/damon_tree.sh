# damon_tree.sh - sourced by tests: damon_tree DIR writes, into a copy of
# a recorded tree at DIR, a DAMON sysfs tree as the kernel shows it with
# one kdamond running (pid 77) that watches PIDs 1000 and 2000 of
# tests/trees/opteron4 with a stat scheme whose tried_regions were read:
#   1000 (dbserver, threads on nodes 0 and 1):
#     0x7f0000000000-0x7f0004000000  64 MiB interleave:0-3  hot (18 of 20)
#     0x7f1000000000-0x7f1002000000  32 MiB bind:1          hot (5 of 20)
#     0x00a08000-0x01208000          the heap               warm (idle 2 s)
#     the rest                                              cold (idle 60 s)
#   2000 (web): all cold (idle 30 s).
# Sampling 5 ms, aggregation 100 ms (20 samples a window).
damon_tree() {
	damon_tree_of "$1" "1000 2000" <<-REGIONS
	0x00400000 0x00a08000 0 600
	0x00a08000 0x01208000 0 20
	0x7f0000000000 0x7f0004000000 18 40
	0x7f0004000000 0x7f1000000000 0 600
	0x7f1000000000 0x7f1002000000 5 40
	0x7f1002000000 0x7fff00000000 0 600
	0x00400000 0x00700000 0 300
	0x7f8000000000 0x7ffd00010000 0 300
	REGIONS
}

# damon_tree_tiered DIR: on a copy of tests/trees/tiered2, the kdamond
# sees 100's 64 MiB (bound to the slow node 1) hot and 200's memory cold.
damon_tree_tiered() {
	damon_tree_of "$1" "100 200" <<-REGIONS
	0x00400000 0x00410000 0 600
	0x7f0000000000 0x7f0004000000 20 50
	0x7ffc00000000 0x7ffc00008000 0 600
	0x00400000 0x00410000 0 600
	0x7f0000000000 0x7f0004000000 0 600
	0x7ffc00000000 0x7ffc00008000 0 600
	REGIONS
}

# damon_tree_of DIR "PID..." <REGIONS: the same kdamond watching PIDs
# (in order) with the tried regions read from stdin, one per line "start
# end nr_accesses age" (age in aggregation intervals), each target's in
# rising address order.
damon_tree_of() {
	k=$1/sys/kernel/mm/damon/admin/kdamonds
	c=$k/0/contexts/0
	mkdir -p "$c/monitoring_attrs/intervals" "$c/monitoring_attrs/nr_regions" \
		"$c/schemes/0/tried_regions"
	echo 1 >"$k/nr_kdamonds"
	echo on >"$k/0/state"
	echo 77 >"$k/0/pid"
	echo 1 >"$k/0/contexts/nr_contexts"
	echo vaddr >"$c/operations"
	echo "vaddr fvaddr paddr" >"$c/avail_operations"
	echo 5000 >"$c/monitoring_attrs/intervals/sample_us"
	echo 100000 >"$c/monitoring_attrs/intervals/aggr_us"
	echo 1000000 >"$c/monitoring_attrs/intervals/update_us"
	echo 10 >"$c/monitoring_attrs/nr_regions/min"
	echo 1000 >"$c/monitoring_attrs/nr_regions/max"
	t=0
	for pid in $2; do
		mkdir -p "$c/targets/$t"
		echo "$pid" >"$c/targets/$t/pid_target"
		t=$((t + 1))
	done
	echo $t >"$c/targets/nr_targets"
	echo 1 >"$c/schemes/nr_schemes"
	echo stat >"$c/schemes/0/action"
	i=0
	while read -r s e a g; do
		d=$c/schemes/0/tried_regions/$i
		mkdir -p "$d"
		echo $((s)) >"$d/start"
		echo $((e)) >"$d/end"
		echo "$a" >"$d/nr_accesses"
		echo "$g" >"$d/age"
		i=$((i + 1))
	done
	echo 0 >"$c/schemes/0/tried_regions/total_bytes"
}
