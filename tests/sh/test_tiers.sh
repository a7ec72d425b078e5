#!/bin/sh
# Memory tiers in the monitor, on tests/trees/tiered2 (node 0 with the
# CPUs in memory_tier4, node 1 memory-only in memory_tier67, HMAT 80 vs
# 300 ns, demotion on): the node panels grouped by tier with the slow
# node named as such and the promotion/demotion rates, FAST / SLOW /
# SLOW% among the default columns (not on a one-tier machine), WHY
# demoted, the Nodes screen's tier lines, the heatmap's HMAT layer with
# the tier boundary, and the help saying what the numbers are. On
# tests/trees/tiered3 (a third node, memory-only, in memory_tier100): one
# T<id> column per tier instead of FAST and SLOW, in batch and the monitor.
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
# WHY whole in batch text when it is not the last column (slow_tier_hot
# was cut to slow_tier_+), ADVICE the promotion in a word; the order is
# HOTSLOW once heat is known on a tiered machine, and the heat line says so.
r=$("$PROG" --root "$T/th" -b -n 1 -o pid,why,advice,slow 2>&1 | awk '$1 == 100 { print $2, $3 }')
[ "$r" = "slow_tier_hot hot->N0" ] && ok tiers_why_advice_whole || bad tiers_why_advice_whole "$r"
"$PROG" --root "$T/th" -b -n 1 >"$T/thb.txt" 2>&1
grep -q '^heat: DAMON, 2 of 16 watched, window [0-9.]*s; usable for 2  sorted by HOTSLOW (heat known)$' "$T/thb.txt" &&
	[ "$(sed -n '/ PID /,$p' "$T/thb.txt" | awk '$1 ~ /^[0-9]+$/ { print $1; exit }')" = 100 ] && ok tiers_heat_sort_hotslow ||
	bad tiers_heat_sort_hotslow "$(grep -E '^heat|^ *[0-9]+ ' "$T/thb.txt")"
"$PROG" --root "$T/th" -b -n 1 2>&1 | grep ' PID ' | grep -q 'SLOW% *HOTSLOW *COLDFAST' &&
	ok tiers_heat_columns_default || bad tiers_heat_columns_default "$("$PROG" --root "$T/th" -b -n 1 2>&1 | grep ' PID ')"
"$PROG" --root "$T/th" --format prometheus -n 1 >"$T/th.prom" 2>&1
r=$(sed -n 's/^numatop_process_\(hot_slow\|cold_fast\)_tier_bytes{pid="\([0-9]*\)".*} /\1 \2 /p' "$T/th.prom" | tr '\n' ' ')
[ "$r" = "hot_slow 100 67108864 hot_slow 200 0 cold_fast 100 98304 cold_fast 200 50429952 " ] &&
	ok tiers_heat_prometheus || bad tiers_heat_prometheus "$r"
# The host's hot slow-tier bytes: the sum over the processes with heat.
grep -qx 'numatop_hot_slow_tier_bytes 67108864' "$T/th.prom" && ok tiers_heat_prometheus_host ||
	bad tiers_heat_prometheus_host "$(grep '^numatop_hot_slow' "$T/th.prom") (want 64 MiB: pid 100's)"
"$PROG" --root "$TREE" --format prometheus -n 1 2>&1 | grep -q '^numatop_hot_slow_tier_bytes ' &&
	bad tiers_heat_prometheus_host_needs_heat "a sum without an access source" || ok tiers_heat_prometheus_host_needs_heat
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

# --- more than two tiers: one T<id> column per tier (tests/trees/tiered3) ---
T3=tests/trees/tiered3
tiering=$T3/sys/devices/virtual/memory_tiering
ids=$(ls "$tiering" | sed -n 's/^memory_tier\([0-9]*\)$/\1/p' | sort -n | tr '\n' ' ')
want_hdr=$(for i in $ids; do printf 'T%s ' "$i"; done)
want_hdr=${want_hdr% }
# Each process's kB per tier (fast -> slow) from its numa_maps and the
# tiers' nodelists: "PID KB KB KB".
for i in $ids; do echo "$i $(cat "$tiering/memory_tier$i/nodelist")"; done >"$T/t3.tiers"
for p in $(ls "$T3/proc" | grep -E '^[0-9]+$' | sort -n); do
	awk -v pid="$p" -v ids="$ids" '
	FNR == NR { n = split($2, a, ","); for (i = 1; i <= n; i++) { m = split(a[i], r, "-")
		    for (k = r[1]; k <= r[m]; k++) tier[k] = $1 }; next }
	{ ps = 4
	  for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) ps = substr($i, 19)
	  for (i = 1; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split(substr($i, 2), kv, "="); kb[tier[kv[1]]] += kv[2] * ps } }
	END { printf "%s", pid; n = split(ids, t, " "); for (i = 1; i <= n; i++) printf " %d", kb[t[i]]; print "" }' \
		"$T/t3.tiers" "$T3/proc/$p/numa_maps"
done >"$T/t3.want"
"$PROG" --root "$T3" -b -n 1 >"$T/t3.txt" 2>"$T/t3.err"
hdr=$(grep '^ *PID ' "$T/t3.txt" | tr -s ' ')
[ "$(echo $ids | wc -w)" -gt 2 ] && [ ! -s "$T/t3.err" ] && case $hdr in
	*" REMOTE% $want_hdr SLOW% "*) ! echo "$hdr" | grep -qE ' (FAST|SLOW) ' ;;
	*) false ;;
esac && ok tiers3_default_columns || bad tiers3_default_columns "ids: $ids header: $hdr $(cat "$T/t3.err")"
# The cells under each T<id> header, per process (the columns before
# POLICY, whose cell may hold blanks).
got=$(awk -v ids="$ids" '
	/^ *PID / { for (i = 1; i <= NF; i++) col[$i] = i; on = 1; next }
	on && NF == 0 { on = 0 }
	on { printf "%s", $1; n = split(ids, t, " "); for (i = 1; i <= n; i++) printf " %s", $(col["T" t[i]]); print "" }' \
	"$T/t3.txt" | sort -n)
[ -n "$got" ] && [ "$got" = "$(cat "$T/t3.want")" ] && ok tiers3_values_per_tier ||
	bad tiers3_values_per_tier "got: $got / from numa_maps: $(cat "$T/t3.want")"
# -o and -s: T<id> (tier<id>) sorts, largest first.
mid=$(echo $ids | cut -d' ' -f2)
got=$("$PROG" --root "$T3" -b -n 1 -o "pid,t$mid" -s "tier$mid" 2>&1 | sed -n '/^ *PID /,/^$/p' | awk 'NF { print $1, $2 }')
want=$(awk '{ print $1, $3 }' "$T/t3.want" | sort -k2,2nr -k1,1n)
[ "$got" = "$(printf 'PID T%s\n%s' "$mid" "$want")" ] && [ "$(echo "$want" | cut -d' ' -f2 | sort -u | wc -l)" -gt 1 ] &&
	ok tiers3_sort_by_tier || bad tiers3_sort_by_tier "got: $got / want: $want"
# T: every tier of the sample; a tier the machine lacks is unknown (-).
got=$("$PROG" --root "$T3" -b -n 1 -o pid,T,t5 -p 100 2>&1 | sed -n '/^ *PID /,/^$/p' | tr -s ' ' | sed 's/^ //')
[ "$got" = "$(printf 'PID %s T5\n%s -' "$want_hdr" "$(grep '^100 ' "$T/t3.want")")" ] && ok tiers3_every_tier_entry ||
	bad tiers3_every_tier_entry "$got"
# Two tiers: FAST, SLOW, SLOW% as before, no T<id>.
hdr=$("$PROG" --root "$TREE" -b -n 1 2>&1 | grep '^ *PID ' | tr -s ' ')
case $hdr in *" REMOTE% FAST SLOW SLOW% "*) ! echo "$hdr" | grep -q ' T[0-9]' ;; *) false ;; esac &&
	ok tiers2_default_columns_kept || bad tiers2_default_columns_kept "$hdr"
# The monitor: the T<id> columns in the header, FAST and SLOW out; sorted
# by the fastest tier (-s tier<id>: its header marked, largest first, not
# REMOTE's order); F6 offers each tier.
first=$(echo $ids | awk '{ print $1 }')
tui_start 200 45 "$prog --root $T3 -d 1 -s tier$first"
wait_for "SLOW%" 30
hdr=$(screen | grep ' PID ' | tr -s ' ')
plain=$(echo "$hdr" | sed 's/[v^] / /g')    # (the sort's mark)
case $plain in *" $want_hdr SLOW% "*) ! echo "$hdr" | grep -qE ' (FAST|SLOW) ' ;; *) false ;; esac &&
	ok tui_tiers3_columns || bad tui_tiers3_columns "$hdr"
got=$(screen | sed -n '/ PID /,$p' | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1 }' | tr '\n' ' ')
want=$(sort -k2,2nr -k1,1n "$T/t3.want" | awk '{ print $1 }' | tr '\n' ' ')
case $hdr in *" T${first}v "*) [ "$got" = "$want" ] ;; *) false ;; esac && ok tui_tiers3_sort ||
	bad tui_tiers3_sort "header: $hdr rows: $got want: $want"
keys F6
n=0
for i in $ids; do screen | grep -q "T$i (kB on tier $i)" && n=$((n + 1)); done
[ "$n" = "$(echo $ids | wc -w)" ] && ok tui_tiers3_sort_menu || bad tui_tiers3_sort_menu "$(screen | grep -i tier)"
keys Escape q
# A replay that moves from the three-tier machine to the two-tier one and
# back: the columns follow, no T<id> left over.
mkdir "$T/rp"
"$PROG" --root "$T3" -w "$T/rp/numatop-tui_20260101.zst" -n 1 >/dev/null 2>&1
"$PROG" --root "$TREE" -w "$T/rp/numatop-tui_20260102.zst" -n 1 >/dev/null 2>&1
tui_start 200 45 "$prog --replay $T/rp"
wait_for "SLOW%" 30
h1=$(screen | grep ' PID ' | tr -s ' ')
keys End
wait_for " FAST " 30
h2=$(screen | grep ' PID ' | tr -s ' ')
keys Home
wait_for "$want_hdr" 30
h3=$(screen | grep ' PID ' | tr -s ' ')
case "$h1|$h2|$h3" in
	*" $want_hdr SLOW% "*"|"*" FAST SLOW SLOW% "*"|"*" $want_hdr SLOW% "*)
		! echo "$h2" | grep -q ' T[0-9]' && ! echo "$h3" | grep -qE ' (FAST|SLOW) ' ;;
	*) false ;;
esac && ok tui_tiers_replay_columns_follow || bad tui_tiers_replay_columns_follow "$h1 / $h2 / $h3"
keys q
exit 0
