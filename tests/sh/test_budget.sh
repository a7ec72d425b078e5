#!/bin/sh
# The numa_maps budget on the live machine: options, what a sample read or
# kept (JSON numa_maps_budget, sample_age_s), --full, and the sampled
# placement of a 1.2 GiB process against its exact numa_maps count.
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
. tests/sh/lib.sh
need python3 python3   # the JSON checks
T=$(mktemp -d)
hog=
trap '[ -n "$hog" ] && kill $hog 2>/dev/null; rm -rf "$T"' EXIT

for arg in 0 abc 10001 -5; do
	"$PROG" -b -n 1 --budget "$arg" >/dev/null 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && grep -q 'budget' "$T/err" && ok "budget_rejects_$arg" || bad "budget_rejects_$arg" "rc=$rc $(cat "$T/err")"
done

# One snapshot is complete: no budget line, every row read now.
out=$("$PROG" -b -n 1 --age)
echo "$out" | grep -q '^numa_maps budget' && bad budget_single_snapshot_full "$out" || ok budget_single_snapshot_full
echo "$out" | awk '/^ +PID USER/ { t = 1; next } t && NF { n++; if ($0 !~ / 0s  /) b++ } END { exit (n > 0 && !b) ? 0 : 1 }' \
	&& ok budget_single_snapshot_age_0 || bad budget_single_snapshot_age_0 "$out"

py() { python3 -c "$1" "$T/j"; }
# Three samples on the budget: the first reads, later ones keep most.
"$PROG" --json -n 3 -d 0.3 >"$T/j" 2>"$T/err"
py '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
b = [x["numa_maps_budget"] for x in s]
assert len(s) == 3 and not any(x["full"] for x in b), b
# 20 ms a tick; 100 ms while warming up (until every process has a
# result: the sample that ends the warm-up still ran on its budget).
for i, x in enumerate(b):
    if x["warmup"]:
        assert x["budget_ms"] == 100.0, b
    elif i == 0 or b[i - 1]["warmup"]:
        assert x["budget_ms"] in (20.0, 100.0), b
    else:
        assert x["budget_ms"] == 20.0, b
# A warm-up that goes on (thousands of processes, or a loaded machine
# where the 100 ms budgets read fewer) has read more by the third sample.
if b[2]["warmup"]:
    assert b[2]["known"] > b[0]["known"], b
for x in s:
    nb, ps = x["numa_maps_budget"], x["processes"]
    assert nb["processes"] == len(ps), nb
    assert nb["known"] == len([p for p in ps if p["numa_maps"] != "not_read"]), nb
    if not nb["warmup"]:
        assert nb["known"] == nb["processes"], nb
    # Read in this sample: age 0 exactly. A kept result may show 0.0
    # too: the warm-up reads run late in a tick, and on a busy machine the
    # next tick can come within 0.05 s of them (no time is assumed of
    # the load); the kept are the rest.
    fresh = [p for p in ps if p["sample_age_s"] == 0]
    assert nb["read"] + nb["sampled"] <= len(fresh), (nb, len(fresh))
    assert nb["kept"] == len(ps) - nb["read"] - nb["sampled"], (nb, len(ps))
    for p in ps:
        a = p["sample_age_s"]
        if p["numa_maps"] == "not_read":
            assert a is None, p
        else:
            assert isinstance(a, (int, float)) and a >= 0, p
        if p["numa_maps"] == "ok":
            assert p["placement"] in ("numa_maps", "sampled"), p
assert b[2]["kept"] > 0, b
ages = [p["sample_age_s"] for p in s[2]["processes"] if p["numa_maps"] == "ok"]
assert any(a > 0 for a in ages), ages
' 2>"$T/py" && ok budget_json_read_then_kept || bad budget_json_read_then_kept "$(cat "$T/py" "$T/err")"

"$PROG" --json -n 2 -d 0.3 --full >"$T/j"
py '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
for x in s:
    assert x["numa_maps_budget"]["full"] and x["numa_maps_budget"]["kept"] == 0
    assert all(p["sample_age_s"] == 0 and p.get("placement") in (None, "numa_maps") for p in x["processes"])
' 2>"$T/py" && ok budget_full_reads_all || bad budget_full_reads_all "$(cat "$T/py")"

# A 1.2 GiB process of 4 KiB pages: a walk of ~11 ms, so the budgeted
# sampler estimates it from maps + move_pages; --full counts it exactly.
if [ "$(id -u)" != 0 ]; then echo "SKIP budget_sampled: needs root"; exit 0; fi
"$BUILD/tests/helpers/memhog" 1200 >"$T/hog" 2>&1 &
hog=$!
# Ready once every page is written (seconds on a loaded machine; the
# bound only ends a hang).
n=0; while [ $n -lt 1200 ] && ! grep -q ready "$T/hog"; do sleep 0.1; n=$((n + 1)); done
grep -q ready "$T/hog" || { bad budget_sampled_matches_exact "memhog 1200 not ready in 120 s: $(cat "$T/hog")"; exit 1; }
"$PROG" --json -n 1 --full -p $hog >"$T/exact"
"$PROG" --json -n 2 -d 0.2 -u root >"$T/j" 2>&1
cp "$T/exact" "$T/e"
python3 -c '
import json, sys
exact = json.loads(open(sys.argv[1]).readline())["processes"][0]
pid = exact["pid"]
# The sample that estimated it (the first, on a quiet machine; a loaded
# one may read it whole once and sample it later): its numbers.
seen = [x for l in open(sys.argv[2]) for x in json.loads(l)["processes"] if x["pid"] == pid]
assert exact["placement"] == "numa_maps", exact
assert seen and all(x["numa_maps"] == "ok" for x in seen), seen
sampled = [x for x in seen if x["placement"] == "sampled"]
p = sampled[0] if sampled else seen[0]
e, g = exact["total_kb"], p["total_kb"]
assert e > 1200 * 1024 and abs(g - e) <= 0.02 * e, (e, g)
for k, v in exact["node_kb"].items():
    assert abs(p["node_kb"][k] - v) <= 0.02 * e + 4096, (k, v, p["node_kb"][k])
print("exact %d kB, %s %d kB" % (e, p["placement"], g))
' "$T/e" "$T/j" >"$T/py" 2>&1 && ok "budget_sampled_matches_exact ($(cat "$T/py"))" || bad budget_sampled_matches_exact "$(cat "$T/py")"
# Selected (-p): an exact read, not an estimate.
# (--budget 2000: a loaded machine's slow walk is not taken for a
# walk too long to make, which a selected process is sampled for.)
"$PROG" --json -n 2 -d 0.2 --budget 2000 -p $hog >"$T/j"
python3 -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
# Exact every time (never estimated); read now in the first sample (a
# loaded machine may keep it in the second: its budget, not exactness).
assert all(x["processes"][0]["placement"] == "numa_maps" for x in s), s[-1]["processes"]
assert s[0]["processes"][0]["sample_age_s"] == 0, s[0]["processes"]
' "$T/j" 2>"$T/py" && ok budget_selected_exact || bad budget_selected_exact "$(cat "$T/py")"
