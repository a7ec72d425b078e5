#!/bin/sh
# Memory tiers in the monitor, on tests/trees/tiered2 (node 0 with the
# CPUs in memory_tier4, node 1 memory-only in memory_tier67, HMAT 80 vs
# 300 ns, demotion on): the node panels grouped by tier with the slow
# node named as such and the promotion/demotion rates, FAST / SLOW /
# SLOW% among the default columns (not on a one-tier machine), WHY
# demoted, the Nodes screen's tier lines, the heatmap's HMAT layer with
# the tier boundary, and the help saying what the numbers are.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need tmux tmux
TREE=tests/trees/tiered2
T=$(mktemp -d)
tui_init
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")

tui_start 160 45 "$prog --root $TREE -d 1"
wait_for "SLOW%" 30
screen >"$T/procs"
grep -q 'N1 *tier67 slow, memory-only, 300 ns' "$T/procs" && ok tui_tiers_panel_slow_node ||
	bad tui_tiers_panel_slow_node "$(head -6 "$T/procs")"
wait_for "promo 0/s demo 0/s" 30 && ok tui_tiers_panel_rates || bad tui_tiers_panel_rates "$(screen | head -6)"
# The columns: FAST and SLOW of 100 (64 MiB bound to node 1), WHY.
hdr=$(grep ' PID ' "$T/procs")
case $hdr in *"REMOTE%"*FAST*SLOW*SLOW%*WHY*) ok tui_tiers_columns_default ;; *) bad tui_tiers_columns_default "$hdr" ;; esac
r=$(awk '$1 == 100 { print $10, $11, $12, $13 } $1 == 200 { print $13 }' "$T/procs" | tr '\n' ' ')
[ "$r" = "96K 64.0M 99.9 policy demoted " ] && ok tui_tiers_row_values || bad tui_tiers_row_values "$r"
keys Tab
wait_for "tier67  slowest N1  memory only  300 ns 5.1 GB/s" 30 && ok tui_tiers_nodes_screen ||
	bad tui_tiers_nodes_screen "$(screen | grep -i tier)"
screen | grep -q "tiering: balancing tiering, demotion on, promotion limit 65536 MB/s" && ok tui_tiers_knobs ||
	bad tui_tiers_knobs "$(screen | grep -i tier)"
keys Tab Tab Tab Tab v
wait_for "HMAT read latency" 30
l=$(screen | grep -A1 'HMAT read latency' | tr -s ' ')
case $l in *"tier boundary"*" 0| 1"*) ok tui_tiers_heatmap_boundary ;; *) bad tui_tiers_heatmap_boundary "$l" ;; esac
keys F1
k=10
while [ $k -gt 0 ] && ! screen | grep -q "promo demo"; do keys PageDown; k=$((k - 1)); done
screen | grep -q "promo demo.*promoted into the node" && ok tui_tiers_help || bad tui_tiers_help "$(screen | tail -5)"
keys Escape q

# One tier (opteron4): the tier columns stay out of the default table.
tui_start 160 45 "$prog --root tests/trees/opteron4 -d 1"
wait_for "REMOTE%" 30
screen | grep ' PID ' | grep -q 'SLOW' && bad tui_tiers_one_tier_no_columns "$(screen | grep ' PID ')" ||
	ok tui_tiers_one_tier_no_columns
keys q
exit 0
