#!/bin/sh
# Broken recorded trees: each gives a clear warning or an unknown mark, the
# rest of the output still works, and nothing crashes.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need tmux tmux
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
N=sys/devices/system/node
fresh() { rm -rf "$T/t"; cp -r tests/trees/opteron4 "$T/t"; }
run() { "$PROG" --root "$T/t" "$@" 2>&1; }

fresh; echo "10 20 20" > "$T/t/$N/node2/distance"
o=$(run -b -n 1); rc=$?
[ $rc -eq 0 ] && echo "$o" | grep -q 'warning: node2/distance has 3 values for 4 nodes' \
	&& echo "$o" | grep -Eq '^ +N2 +- +- +- +-' && echo "$o" | grep -Eq '^ +N0 +10 +20 +20 +20' \
	&& ok broken_distance_row_size || bad broken_distance_row_size "$o"
j=$(run --json -n 1); [ $? -eq 0 ] && echo "$j" | grep -q '\[null,null,null,null\]' && ok broken_distance_json_null || bad broken_distance_json_null

fresh; printf 'garbage here\n' > "$T/t/$N/node1/distance"
o=$(run -b -n 1); [ $? -eq 0 ] && echo "$o" | grep -q 'warning: node1/distance' && ok broken_distance_garbage || bad broken_distance_garbage "$o"

fresh; rm "$T/t/$N/online" "$T/t/$N/possible"
o=$(run --json -n 1); [ $? -eq 0 ] && echo "$o" | grep -q '"distances":{"nodes":\[0,1,2,3\],"matrix":\[\[10,20,20,20\]' \
	&& echo "$o" | grep -q '"warnings":\["node\\/online unreadable: online nodes taken from the node directories"' \
	&& ok missing_node_online || bad missing_node_online "$o"

fresh; rm "$T/t/$N/node3/meminfo"; mkdir "$T/t/$N/node3/meminfo"
o=$(run --json -n 1); [ $? -eq 0 ] && echo "$o" | grep -q '"id":3,[^}]*"mem_total_kb":null' \
	&& ok meminfo_is_a_directory || bad meminfo_is_a_directory "$o"

fresh; printf 'Node 0 MemTotal: lots kB\n\001\002\n' > "$T/t/$N/node0/meminfo"
o=$(run --json -n 1); [ $? -eq 0 ] && echo "$o" | grep -q '"id":0,[^}]*"mem_total_kb":null' \
	&& ok meminfo_garbage_unknown || bad meminfo_garbage_unknown "$o"

fresh; head -c 10 "$T/t/proc/4242/numa_maps" > "$T/t/x"; mv "$T/t/x" "$T/t/proc/4242/numa_maps"
o=$(run --json -n 1 -p 4242); [ $? -eq 0 ] && echo "$o" | grep -q '"numa_maps":"error"' && echo "$o" | grep -q '"node_kb":null' \
	&& ok numa_maps_truncated_garbage || bad numa_maps_truncated_garbage "$o"

fresh; printf '4242 (cat' > "$T/t/proc/4242/stat"
o=$(run --json -n 1); [ $? -eq 0 ] && ! echo "$o" | grep -q '"pid":4242' && echo "$o" | grep -q '"pid":1000' \
	&& echo "$o" | grep -q '"warnings":\["1 process skipped: \\/proc\\/4242\\/stat unparsable"\]' \
	&& ok pid_stat_truncated_skipped || bad pid_stat_truncated_skipped "$o"
o=$(run -b -n 1); echo "$o" | grep -q '^warning: 1 process skipped: /proc/4242/stat unparsable$' \
	&& ok pid_stat_truncated_said || bad pid_stat_truncated_said "$o"

# Node ids up to 1023 with a 4096-bit cpumap (and no cpulist).
fresh; mv "$T/t/$N/node3" "$T/t/$N/node1023"; rm "$T/t/$N/node1023/cpulist"
m=""; for g in $(seq 1 127); do m="${m}00000000,"; done; echo "${m}000000c0" > "$T/t/$N/node1023/cpumap"
echo "0-2,1023" > "$T/t/$N/online"
o=$(run --json -n 1); [ $? -eq 0 ] && echo "$o" | grep -q '"id":1023,"cpus":\[6,7\]' \
	&& echo "$o" | grep -q '"nodes":\[0,1,2,1023\]' && echo "$o" | grep -q '"home_node":1023' \
	&& ok sparse_id_1023_and_4096_bit_mask || bad sparse_id_1023_and_4096_bit_mask "$o"

# A numa_maps of 100 000 lines goes through the whole program.
fresh; awk 'BEGIN { for (i = 0; i < 100000; i++) printf "%x default anon=1 N%d=1 kernelpagesize_kB=4\n", 4096 + i * 4096, i % 4 }' \
	> "$T/t/proc/2000/numa_maps"
o=$(run --json -n 1 -p 2000); [ $? -eq 0 ] && echo "$o" | grep -q '"total_kb":400000' && echo "$o" | grep -q '"mappings":100000' \
	&& ok numa_maps_100000_lines || bad numa_maps_100000_lines "$(echo "$o" | head -c 600)"

# A self-referencing symlink where a node directory would be.
fresh; ln -s node9 "$T/t/$N/node9"; ln -s . "$T/t/$N/node0/cpu0"
o=$(run --json -n 1); [ $? -eq 0 ] && echo "$o" | grep -q '"nodes":\[0,1,2,3\]' && ok symlink_loops_ignored || bad symlink_loops_ignored "$o"

# A file the program does read is a symlink to itself: that process's
# numa_maps is an error (ELOOP), the others are read.
fresh; rm "$T/t/proc/4242/numa_maps"; ln -s numa_maps "$T/t/proc/4242/numa_maps"
o=$(run --json -n 1); [ $? -eq 0 ] && echo "$o" | grep -q '"pid":4242,[^}]*"numa_maps":"error","placement":null,"sample_age_s":0.0,"numa_maps_error":"Too many levels of symbolic links"' \
	&& echo "$o" | grep -q '"mappings":12,"numa_maps":"ok"' && ok numa_maps_symlink_loop_error || bad numa_maps_symlink_loop_error "$o"

# The monitor on a tree broken in several places at once: the panels, the
# heatmap and the table still draw, the status line says there are
# warnings and the Nodes screen shows them.
if command -v tmux >/dev/null; then
	fresh; echo "10 20 20" > "$T/t/$N/node2/distance"; rm "$T/t/$N/online"
	rm "$T/t/$N/node3/meminfo"; mkdir "$T/t/$N/node3/meminfo"
	rm "$T/t/proc/4242/numa_maps"; ln -s numa_maps "$T/t/proc/4242/numa_maps"
	printf '3000 (secr' > "$T/t/proc/3000/stat"
	tui_init
	prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
	tmux new-session -d -s b -x 150 -y 40 "TERM=tmux-256color $prog --root $T/t; echo EXIT=\$?; sleep 20"
	i=0; while [ $i -lt 50 ] && ! tmux capture-pane -p -t b | grep -q F10Quit; do sleep 0.1; i=$((i+1)); done
	s=$(tmux capture-pane -p -t b)
	echo "$s" | grep -q '^N0 ' && echo "$s" | grep -q '^N3 ' && echo "$s" | grep -Eq ' 4242 .*error' \
		&& echo "$s" | grep -Eq ' 1000 ' && echo "$s" | grep -q '4 warnings (Tab: Nodes)' \
		&& ok tui_broken_tree_main_screen || bad tui_broken_tree_main_screen "$s"
	tmux send-keys -t b Tab
	i=0; while [ $i -lt 50 ] && ! tmux capture-pane -p -t b | grep -q 'node/online unreadable'; do sleep 0.1; i=$((i+1)); done
	s=$(tmux capture-pane -p -t b)
	echo "$s" | grep -q 'node2/distance has 3 values for 4 nodes' && echo "$s" | grep -q 'node/online unreadable' \
		&& echo "$s" | grep -q '1 process skipped: /proc/3000/stat unparsable' \
		&& ok tui_broken_tree_nodes_screen || bad tui_broken_tree_nodes_screen "$s"
	tmux send-keys -t b q
	i=0; while [ $i -lt 30 ] && ! tmux capture-pane -p -t b | grep -q 'EXIT=0'; do sleep 0.1; i=$((i+1)); done
	tmux capture-pane -p -t b | grep -q 'EXIT=0' && ok tui_broken_tree_quit || bad tui_broken_tree_quit

	# Two processes that are each other's parent (same start time): c
	# (tag with children) tags both once and the monitor goes on.
	fresh
	sed -i 's/^1000 (dbserver) S 1 /1000 (dbserver) S 2000 /' "$T/t/proc/1000/stat"
	sed -i 's/^2000 (web) S 1 \(.*\) 250000 /2000 (web) S 1000 \1 120000 /' "$T/t/proc/2000/stat"
	tmux new-session -d -s c -x 150 -y 40 "TERM=tmux-256color $prog --root $T/t -s PID; echo EXIT=\$?; sleep 20"
	i=0; while [ $i -lt 50 ] && ! tmux capture-pane -p -t c | grep -q F10Quit; do sleep 0.1; i=$((i+1)); done
	tmux send-keys -t c c
	sleep 0.5
	tmux send-keys -t c q
	i=0; while [ $i -lt 30 ] && ! tmux capture-pane -p -t c | grep -q 'EXIT='; do sleep 0.1; i=$((i+1)); done
	tmux capture-pane -p -t c | grep -q 'EXIT=0' && ok tui_ppid_cycle_tag_children || bad tui_ppid_cycle_tag_children "$(tmux capture-pane -p -t c)"

	# Node id 1023 in the monitor: the heatmap's header and rows keep the
	# ids apart.
	fresh; mv "$T/t/$N/node3" "$T/t/$N/node1023"; echo "0-2,1023" > "$T/t/$N/online"
	tmux new-session -d -s d -x 150 -y 40 "TERM=tmux-256color $prog --root $T/t; echo EXIT=\$?; sleep 20"
	i=0; while [ $i -lt 50 ] && ! tmux capture-pane -p -t d | grep -q F10Quit; do sleep 0.1; i=$((i+1)); done
	s=$(tmux capture-pane -p -t d)
	echo "$s" | grep -Eq '^ +0 +1 +2 +1023 *$' && echo "$s" | grep -Eq '^1023 ' && ok tui_heatmap_node_1023 ||
		bad tui_heatmap_node_1023 "$s"
	tmux send-keys -t d q
	tmux kill-server 2>/dev/null
fi
