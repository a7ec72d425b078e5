#!/bin/sh
# Measured distances on this machine: --measure-quick (JSON and text),
# plausible ranges, the saved file; refusal on a recorded tree; the TUI's
# heatmap layers (HMAT on the shared fakeheteromemtiers tree, the saved
# measurement on the live machine) and the L dialog (run, cancel).
PROG=${PROG:-./numatop-tui}
FIX=${NUMATOP_FIXTURES:-../shared/fixtures/hwloc-linux}
. tests/sh/lib.sh
need tmux tmux
need python3 python3   # measure_plausible
need bzip2 bzip2       # tar -xjf of the shared fixtures
T=$(mktemp -d)
export TMUX_TMPDIR="$T"
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
X=$T/xdg

XDG_CACHE_HOME=$X "$PROG" --measure-quick --json >"$T/m.json" 2>"$T/m.err"; rc=$?
[ $rc -eq 0 ] && ok measure_json_exit || bad measure_json_exit "rc=$rc $(cat "$T/m.err")"
python3 - "$T/m.json" "$X" >"$T/py" 2>&1 <<'EOF' && ok "measure_plausible ($(cat "$T/py"))" || bad measure_plausible "$(cat "$T/py")"
import json, os, sys
d = json.loads(open(sys.argv[1]).read())
n = len(d["nodes"])
lat, b1, ba, pct = d["latency_ns"], d["bandwidth_1t_gbs"], d["bandwidth_all_gbs"], d["on_node_pct"]
assert len(lat) == n and all(len(r) == n for r in lat), lat
# One node here: the matrix is 1x1 and every cell is measured.
for i in range(n):
    for j in range(n):
        if lat[i][j] is None:
            continue
        # Units, not speed: a loaded machine or a sanitized build is slow
        # (3.6 us seen under ASan); picoseconds or bytes/s are not.
        assert 5 <= lat[i][j] <= 50000, ("latency", lat[i][j])
        assert 0.01 <= b1[i][j] <= 2000 and 0.01 <= ba[i][j] <= 2000, (b1[i][j], ba[i][j])
        assert pct[i][j] >= 95, pct
assert lat[0][0] is not None
l2 = d["l2"]["latency_ns"]
assert l2 is not None and l2 < lat[0][0], (l2, lat[0][0])
assert d["buffer_kb"] >= 32768, d["buffer_kb"]
p = d["saved"]
assert p and p.startswith(sys.argv[2] + "/numatop-tui/measure-") and os.path.isfile(p), p
assert json.load(open(p))["latency_ns"] == lat
print("%.0f ns, L2 %.1f ns, %.1f / %.1f GB/s" % (lat[0][0], l2, b1[0][0], ba[0][0]))
EOF
XDG_CACHE_HOME=$X "$PROG" --measure-quick >"$T/m.txt" 2>&1; rc=$?
for s in 'latency, ns' 'NUMA factor' 'read bandwidth, one thread' 'every CPU' 'placement check' 'SLIT distance' 'saved to'; do
	grep -q "$s" "$T/m.txt" || { bad measure_text "no '$s': $(cat "$T/m.txt")"; rc=99; }
done
[ $rc -eq 0 ] && ok measure_text
"$PROG" --measure --root tests/trees/opteron4 >"$T/o" 2>"$T/e"; rc=$?
[ $rc -eq 1 ] && grep -q 'live machine' "$T/e" && ok measure_refused_on_tree || bad measure_refused_on_tree "rc=$rc $(cat "$T/e")"

tui_init
KEY_DELAY=0.4
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
start() { tui_start 120 40 "XDG_CACHE_HOME=$X TERM=tmux-256color $prog $*; sleep 30"; }

if [ -f "$FIX/fakeheteromemtiers.tar.bz2" ]; then
	mkdir "$T/fh" && tar -xjf "$FIX/fakeheteromemtiers.tar.bz2" -C "$T/fh"
	start --root "$T/fh/fakeheteromemtiers"
	screen | grep -q 'Distances (SLIT)' && ok tui_layer_slit_first || bad tui_layer_slit_first "$(screen)"
	keys v
	s=$(screen)
	# HMAT: node 1 reaches memory-only node 4 at 10000 MB/s; latency is 0
	# (not given) there, so only the bandwidth layer exists.
	echo "$s" | grep -q 'HMAT read bandwidth, GB/s (firmware, access1)' &&
		echo "$s" | grep -E '^ +1 ' | grep -Eq ' 10 ' && ok tui_layer_hmat || bad tui_layer_hmat "$s"
	keys v
	screen | grep -q 'Distances (SLIT)' && ok tui_layer_cycles_back || bad tui_layer_cycles_back "$(screen)"
	keys L
	screen | grep -q 'measuring needs the live machine' && ok tui_measure_refused_on_tree || bad tui_measure_refused_on_tree "$(screen)"
else
	echo "SKIP tui_layer_hmat: fixtures not present at $FIX"
fi

# Live: the measurement saved above is the latency layer after v.
start -d 1
keys v
s=$(screen)
echo "$s" | grep -q 'Latency, ns (measured' && echo "$s" | grep -Eq '^ +0 +[0-9]+\*' && ok tui_layer_saved_latency || bad tui_layer_saved_latency "$s"
keys v
screen | grep -q 'Read bandwidth, GB/s' && ok tui_layer_bandwidth || bad tui_layer_bandwidth "$(screen)"
# L: confirm, run, done; then cancel a second run right away.
keys L
screen | grep -q 'Enter: start' && ok tui_measure_confirm || bad tui_measure_confirm "$(screen)"
keys Enter
wait_for 'Done in' 600 && ok tui_measure_done || bad tui_measure_done "$(screen)"
keys x
# The new result: the status line says so and the heatmap shows its
# latency layer (its age depends on how fast this machine is: not checked).
s=$(screen)
echo "$s" | grep -q 'measured in [0-9]* s; v cycles' && echo "$s" | grep -Eq 'Latency, ns \(measured [0-9]+s ago' &&
	ok tui_measure_shows_latency || bad tui_measure_shows_latency "$s"
keys L
keys Enter
tmux send-keys -t "$S" Escape
wait_for 'Cancelled.' 600 && ok tui_measure_cancel || bad tui_measure_cancel "$(screen)"
keys x
keys q
