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

# Promotion and demotion over time: a copy of tiered2 whose node 0
# demotes more at each write of its vmstat (node 1 stays still). The
# Nodes screen draws each tier's "promoted in" / "demoted out" as
# sparklines (tier4's demotions rise, tier67's stay flat), the panels
# each node's "promo" / "demo".
cp -r "$TREE" "$T/tv"
vm=$T/tv/sys/devices/system/node/node0/vmstat
tui_start 200 50 "$prog --root $T/tv -d 1"
wait_for "SLOW%" 30
( d=12800; for k in 1 2 3 4 5 6 7 8; do
	d=$((d + 1000 * k))
	sed "s/^pgdemote_kswapd .*/pgdemote_kswapd $d/" "$vm" >"$vm.new" && mv "$vm.new" "$vm"
	sleep 1
  done ) &
writer=$!
wait "$writer"
sleep 2
p=$(screen | grep -E '^ *N0 ' | head -1)
echo "$p" | sed 's/.*demo //' | grep -q '[▂▃▄▅▆▇█]' && echo "$p" | grep -q 'promo .*demo ' &&
	ok tui_tiers_node_sparklines || bad tui_tiers_node_sparklines "$p"
keys Tab
wait_for "tier67  slowest" 30
t4=$(screen | grep -A1 '^  tier4 ' | tail -1)
t67=$(screen | grep -A1 '^  tier67 ' | tail -1)
case $t4 in *"promoted in "*"demoted out "*) : ;; *) t4="no sparkline line: $t4" ;; esac
echo "$t4" | sed 's/.*demoted out //' | grep -q '[▂▃▄▅▆▇█]' &&
	echo "$t67" | grep -q 'demoted out  *▁' && ! echo "$t67" | sed 's/.*demoted out //' | grep -q '[▂▃▄▅▆▇█]' &&
	ok tui_tiers_tier_sparklines || bad tui_tiers_tier_sparklines "tier4: $t4 / tier67: $t67"
keys q

# One tier (opteron4): the tier columns stay out of the default table.
tui_start 160 45 "$prog --root tests/trees/opteron4 -d 1"
wait_for "REMOTE%" 30
screen | grep ' PID ' | grep -q 'SLOW' && bad tui_tiers_one_tier_no_columns "$(screen | grep ' PID ')" ||
	ok tui_tiers_one_tier_no_columns
keys q
# Tiers and heat: a recorded DAMON kdamond on a copy of tiered2 sees
# 100's 64 MiB on the slow node 1 hot and 200's memory cold. HOTSLOW,
# COLDFAST join the default columns; 100 is slow_tier_hot with the
# advice to promote the hot part to node 0, 200 stays demoted.
. tests/sh/damon_tree.sh
cp -r "$TREE" "$T/th"
damon_tree_tiered "$T/th"
"$PROG" --root "$T/th" -b -n 1 -o pid,slow,hotslow,coldfast,why >"$T/th.txt" 2>&1
r=$(awk '$1 == 100 || $1 == 200 { print $1, $2, $3, $4, $5 }' "$T/th.txt" | tr '\n' ' ')
[ "$r" = "100 65536 65536 96 slow_tier_hot 200 16384 0 49248 demoted " ] && ok tiers_heat_columns ||
	bad tiers_heat_columns "$r"
"$PROG" --root "$T/th" -b -n 1 2>&1 | grep ' PID ' | grep -q 'SLOW% *HOTSLOW *COLDFAST' &&
	ok tiers_heat_columns_default || bad tiers_heat_columns_default "$("$PROG" --root "$T/th" -b -n 1 2>&1 | grep ' PID ')"
"$PROG" --root "$T/th" --format prometheus -n 1 >"$T/th.prom" 2>&1
r=$(sed -n 's/^numatop_process_\(hot_slow\|cold_fast\)_tier_bytes{pid="\([0-9]*\)".*} /\1 \2 /p' "$T/th.prom" | tr '\n' ' ')
[ "$r" = "hot_slow 100 67108864 hot_slow 200 0 cold_fast 100 98304 cold_fast 200 50429952 " ] &&
	ok tiers_heat_prometheus || bad tiers_heat_prometheus "$r"
"$PROG" --root "$TREE" --format prometheus -n 1 2>&1 | grep -q '^numatop_process_hot_slow_tier_bytes{' &&
	bad tiers_heat_prometheus_needs_heat "series without an access source" || ok tiers_heat_prometheus_needs_heat
"$PROG" --root "$T/th" --json -n 1 >"$T/th.json" 2>&1
if python3 -c '
import json, sys
d = {p["pid"]: p for p in json.load(open(sys.argv[1]))["processes"]}
a, b = d[100], d[200]
assert (a["hot_slow_kb"], a["cold_fast_kb"], a["remote_cause"]) == (65536, 96, "slow_tier_hot"), a
assert a["advice"]["action"] == "migrate_hot" and a["advice"]["node"] == 0, a["advice"]
assert "promote its hot memory (64.0 MiB) to node 0" in a["advice"]["text"], a["advice"]
assert (b["hot_slow_kb"], b["cold_fast_kb"], b["remote_cause"]) == (0, 49248, "demoted"), b
assert d[300]["hot_slow_kb"] is None and d[300]["cold_fast_kb"] is None
' "$T/th.json" 2>"$T/th.err"; then ok tiers_heat_json_advice; else bad tiers_heat_json_advice "$(cat "$T/th.err")"; fi
# Without heat the two are unknown (null), not 0.
"$PROG" --root "$TREE" --json -n 1 | grep -q '"hot_slow_kb":null,"cold_fast_kb":null' &&
	ok tiers_heat_null_without_source || bad tiers_heat_null_without_source
exit 0
