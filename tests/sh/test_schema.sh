#!/bin/sh
# The JSON Schema (docs/numatop-tui.schema.json) against what the program
# writes: the golden outputs, a live sample (the second, with rates), the
# recorded tree with --cgroups, a recording's header (live, with the
# firmware's HMAT, with a saved measurement) and samples, a sample whose
# stat has a state byte that is no character, --replay --json of a
# recording and of one made before schema_version (which gains it, in its
# place), a sample taken as nobody (no_perm processes). The schema's enums
# are the program's tables (read from the sources), every member it names
# is seen in some output, and samples broken one way each (a wrong type, an
# unknown key, a value outside an enum, a per-node field of an unread
# process not null ...) are refused: the schema can fail. The jq recipes
# of docs/json.md run on samples with nulls, where the naive
# sort_by(-.remote_kb) fails.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need jq jq
need zstd zstd
need_py jsonschema python3-jsonschema
SCHEMA=docs/numatop-tui.schema.json
TREE=tests/trees/opteron4
T=$(mktemp -d)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

# The files to check, one line each: NAME<TAB>FILE<TAB>WHAT (a Python
# expression on the file's last line, d, that must hold: the file has
# what the check is about). check.py (below) validates them all at once.
: >"$T/list"
add() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$T/list"; }

# --- the golden outputs (their placeholders given values of their type) ----
set -- tests/golden/*.json
[ -f "$1" ] || bad schema_golden "no tests/golden/*.json"
for g in "$@"; do
	n=$(basename "$g" .json)
	sed -e 's/"timestamp":"TIME"/"timestamp":"2026-12-04T00:00:00Z"/' -e 's/"tool_cpu_pct":TOOLCPU/"tool_cpu_pct":null/' \
	    -e 's/"spent_ms":SPENT/"spent_ms":1.5/' -e 's/"cgroups_read_ms":CGMS/"cgroups_read_ms":1.5/' \
		"$g" >"$T/golden-$n.json"
	add "schema_golden_$n" "$T/golden-$n.json" 'len(d["processes"]) > 0'
done

# --- live: the second sample has the rates ---------------------------------
"$PROG" --json -n 2 -d 0.2 >"$T/live.ndjson" 2>/dev/null
sed -n 2p "$T/live.ndjson" >"$T/live2.json"
add schema_live_second_sample "$T/live2.json" 'd["sample"] == 2 and d["interval_s"] is not None'

# --- the recorded tree: cgroups, the kernel's balancing, two samples --------
"$PROG" --root "$TREE" --json --cgroups -n 2 -d 0.1 >"$T/tree.ndjson" 2>/dev/null
add schema_tree_cgroups "$T/tree.ndjson" 'd["sample"] == 2 and d["cgroups"] and d["numa_balancing"]'
# The tiered tree (node 1 memory-only in a slower tier, HMAT, demotion
# on): tiers fast -> slow with their figures, tier_kb per process.
"$PROG" --root tests/trees/tiered2 --json -n 2 -d 0.1 >"$T/tiered.ndjson" 2>/dev/null
sed -n 2p "$T/tiered.ndjson" >"$T/tiered2.json"
add schema_tree_tiers "$T/tiered2.json" \
	'[t["tier"] for t in d["numa_balancing"]["memory_tiers"]] == [4, 67] and d["numa_balancing"]["demotion_enabled"] is True and d["nodes"][1]["hmat"]["read_latency_ns"] == 300 and [p["tier_kb"]["67"] for p in d["processes"] if p["pid"] == 100] == [65536]'
# A copy of the tree with the firmware's HMAT (access1 initiators) and a
# state byte that is no character (0xff) in a stat: a header with hmat,
# a sample whose state is null (never written as it is: not UTF-8).
cp -r "$TREE" "$T/hm"
for j in 0 1 2 3; do
	d="$T/hm/sys/devices/system/node/node$j/access1/initiators"
	mkdir -p "$d"
	ln -s ../../../node$j "$d/node$j"
	echo $((80 + 40 * (j % 2))) >"$d/read_latency"
	echo 20000 >"$d/read_bandwidth"
done
sed 's/^\(4242 (cat) \)R /\1\xff /' "$TREE/proc/4242/stat" >"$T/hm/proc/4242/stat"
"$PROG" --root "$T/hm" -w "$T/hm.zst" -n 1 2>/dev/null
zstdcat "$T/hm.zst" 2>/dev/null | head -1 >"$T/hm.json"
zstdcat "$T/hm.zst" 2>/dev/null | sed -n 2p >"$T/hm-sample.json"
add schema_header_hmat "$T/hm.json" 'd["hmat"]["access_class"] == 1'
add schema_state_not_a_character "$T/hm-sample.json" \
	'[p["state"] for p in d["processes"] if p["pid"] == 4242] == [None] and open(f.replace("hm-sample.json", "hm/proc/4242/stat"), "rb").read().startswith(b"4242 (cat) \xff ")'

# A copy of the tree with a DAMON kdamond watching two of its processes
# (tests/sh/damon_tree.sh): access heat with hot, warm and cold regions.
. tests/sh/damon_tree.sh
cp -r "$TREE" "$T/dm"
damon_tree "$T/dm"
"$PROG" --root "$T/dm" --json -n 1 >"$T/dm.json" 2>/dev/null
add schema_access_damon "$T/dm.json" \
	'd["access"]["source"] == "damon" and any(p["access"].get("regions") for p in d["processes"])'

# --- a recording: header and samples; replayed; one older than the schema ---
"$PROG" -w "$T/rec.zst" -n 2 -d 0.2 2>/dev/null
zstdcat "$T/rec.zst" >"$T/rec.ndjson" 2>/dev/null
add schema_recording "$T/rec.ndjson" 'd["sample"] == 2 and open(f).readline().startswith("{\"numatop_tui_recording\":1,")'
"$PROG" --replay "$T/rec.zst" --json >"$T/replay.ndjson" 2>/dev/null
add schema_replayed "$T/replay.ndjson" 'd["sample"] == 2'
sed 1d "$T/rec.ndjson" | cmp -s - "$T/replay.ndjson" && ok replay_json_as_recorded ||
	bad replay_json_as_recorded "$(sed 1d "$T/rec.ndjson" | cmp - "$T/replay.ndjson" 2>&1)"
# Recorded before schema_version: no such member in the header or the
# samples. It replays (--json and text), and --json gives it back after
# "version", the line otherwise as recorded.
sed 's/,"schema_version":1,/,/' "$T/rec.ndjson" >"$T/old.ndjson"
zstd -q -o "$T/old.zst" "$T/old.ndjson"
"$PROG" --replay "$T/old.zst" --json >"$T/old-replay.ndjson" 2>"$T/old.err"; rc=$?
if grep -q schema_version "$T/old.ndjson"; then
	bad replay_old_gains_schema_version "the old recording still has schema_version"
elif [ $rc -eq 0 ] && [ ! -s "$T/old.err" ] && [ -s "$T/replay.ndjson" ] &&
	cmp -s "$T/old-replay.ndjson" "$T/replay.ndjson"; then
	ok replay_old_gains_schema_version
else
	bad replay_old_gains_schema_version "status $rc: $(head -c 300 "$T/old.err")
$(cut -c1-150 "$T/old-replay.ndjson")"
fi
"$PROG" --replay "$T/old.zst" -b -n 1 >"$T/old.txt" 2>"$T/old.err"; rc=$?
[ $rc -eq 0 ] && grep -q '^numatop-tui .* sample 1 ' "$T/old.txt" && [ ! -s "$T/old.err" ] && ok replay_old_text ||
	bad replay_old_text "status $rc: $(head -3 "$T/old.txt") $(head -c 300 "$T/old.err")"
# A header with a saved measurement (--measure-quick: root, about 1 s).
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/cache"
	XDG_CACHE_HOME="$T/cache" "$PROG" --measure-quick >/dev/null 2>&1
	XDG_CACHE_HOME="$T/cache" "$PROG" -w "$T/meas.zst" -n 1 2>/dev/null
	zstdcat "$T/meas.zst" 2>/dev/null | head -1 >"$T/meas.json"
	add schema_header_measurement "$T/meas.json" 'd["measurement"]["latency_ns"][0][0] > 0'
else
	echo "SKIP schema_header_measurement: --measure needs root"
fi

# --- as nobody: root's processes are no_perm, their per-node fields null ---
: >"$T/nobody.json"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
	as_nobody() {
		(cd "$T" && env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$T" XDG_CACHE_HOME="$T/nbcache" \
			XDG_CONFIG_HOME="$T/nbcfg" ASAN_OPTIONS=detect_leaks=0 \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$@")
	}
	as_nobody test -x "$prog" || { cp "$prog" "$T/numatop-tui" && chmod 755 "$T/numatop-tui" && prog=$T/numatop-tui; }
	as_nobody "$prog" --json -n 1 >"$T/nobody.json" 2>/dev/null
	add schema_nobody_no_perm "$T/nobody.json" 'any(p["numa_maps"] == "no_perm" for p in d["processes"])'
else
	echo "SKIP schema_nobody_no_perm: needs root and setpriv"
fi

# check.py SCHEMA LIST SAMPLE HEADER ACCESS: a PASS or FAIL line for
# - the schema itself (a draft 2020-12 schema);
# - its enums: the program's tables, read from the sources;
# - each file of LIST: every line strict JSON (UTF-8, no NaN, no repeated
#   key) and valid, and its WHAT true;
# - every member the schema names seen in some file (no stale field);
# - SAMPLE and HEADER (valid) broken one way each: every one refused; the
#   same for ACCESS, a sample with access heat.
cat >"$T/check.py" <<'PYEOF'
import copy, json, re, sys
import jsonschema
schema_path, list_path, sample_path, header_path = sys.argv[1:5]
def result(name, errs):
    if errs:
        print("FAIL " + name)
        for e in errs[:20]:
            print("    " + e)
    else:
        print("PASS " + name)
schema = json.load(open(schema_path, encoding="utf-8"))
try:
    jsonschema.Draft202012Validator.check_schema(schema)
    result("schema_is_a_schema", [])
except jsonschema.SchemaError as e:
    result("schema_is_a_schema", [str(e)[:500]])
    sys.exit(1)
v = jsonschema.Draft202012Validator(schema)
D = schema["$defs"]

# The enums against the C tables they come from; the per-node table's
# fields (node_fields.c) in the node object.
def strings(body):
    return re.findall(r'"((?:[^"\\]|\\.)*)"', body)
def table(path, name):
    m = re.search(re.escape(name) + r"\s*\[[^\]]*\]\s*=\s*\{(.*?)\};", open(path).read(), re.S)
    return strings(m.group(1)) if m else ["(no table %s in %s)" % (name, path)]
def func(path, name):
    m = re.search(r"\b" + re.escape(name) + r"\([^)]*\)\s*\{(.*?)\n\}", open(path).read(), re.S)
    return strings(m.group(1)) if m else ["(no function %s in %s)" % (name, path)]
P = D["process"]["properties"]
nvm = table("src/parse_numa.c", "nvm_names")
nst = table("src/parse.c", "numastat_names")
checks = [
    ("nm_state_names", table("src/snapshot.c", "nm_state_names"), P["numa_maps"]["enum"]),
    ("why_cause_names", [c for c in table("src/why.c", "why_cause_names") if c != "-"] + [None],
     P["remote_cause"]["enum"]),
    ("why_action_names", table("src/why.c", "why_action_names"), D["advice"]["properties"]["action"]["enum"]),
    ("cgroup_state_names", table("src/cgroup_parse.c", "cgroup_state_names"),
     D["cgroup"]["properties"]["state"]["enum"]),
    ("cgroup_layout_names", table("src/cgroup_parse.c", "cgroup_layout_names"),
     D["sample"]["properties"]["cgroup_layout"]["enum"]),
    ("nvm_names", nvm, D["vmstat_names"]["enum"]),
    ("nvm_names (counters)", nvm, D["vmstat_counters"]["required"]),
    ("nvm_names (per_s)", nvm, D["vmstat_per_s"]["required"]),
    ("numastat_names", nst, D["numastat"]["required"]),
    ("numastat_names (per_s)", nst, D["numastat_per_s"]["required"]),
    ("snapshot_balancing_name", func("src/snapshot.c", "snapshot_balancing_name"),
     D["numa_balancing"]["properties"]["mode_name"]["enum"]),
    ("fmt_node_kind", [k or "normal" for k in func("src/format.c", "fmt_node_kind")],
     D["node"]["properties"]["kind"]["enum"]),
]
errs = ["%s: program %s, schema %s" % (n, sorted(map(str, a)), sorted(map(str, b)))
        for n, a, b in checks if sorted(map(str, a)) != sorted(map(str, b))]
nf = re.findall(r'\{\s*"([a-z0-9_]+)",\s*NF_', open("src/node_fields.c").read())
if not nf:
    errs.append("no node field in src/node_fields.c")
errs += ["node field %s not in the schema's node" % k for k in nf
         if k not in D["node"]["properties"] or k not in D["node"]["required"]]
result("schema_enums_are_the_programs", errs)

# The files.
def no_const(c):
    raise ValueError("not JSON: " + c)
def pairs(kv):
    d = {}
    for k, x in kv:
        if k in d:
            raise ValueError("repeated key " + k)
        d[k] = x
    return d
seen = set()
def walk(x):
    if isinstance(x, dict):
        for k, y in x.items():
            if not k.isdigit():
                seen.add(k)
            walk(y)
    elif isinstance(x, list):
        for y in x:
            walk(y)
for entry in open(list_path).read().splitlines():
    name, f, what = entry.split("\t")
    errs, d = [], None
    try:
        text = open(f, "rb").read().decode("utf-8")
    except UnicodeDecodeError as e:
        result(name, ["%s: not UTF-8: %s" % (f, e)])
        continue
    for i, line in enumerate(text.split("\n"), 1):
        if not line:
            continue
        try:
            d = json.loads(line, parse_constant=no_const, object_pairs_hook=pairs)
        except ValueError as e:
            errs.append("%s:%d: %s" % (f, i, e))
            continue
        walk(d)
        for e in list(v.iter_errors(d))[:3]:
            errs.append("%s:%d: /%s: %s" % (f, i, "/".join(map(str, e.absolute_path)), e.message[:300]))
    if d is None:
        errs.append("%s: no line" % f)
    elif what:
        try:
            if not eval(what):
                errs.append("%s: not so: %s" % (f, what))
        except Exception as e:
            errs.append("%s: %s: %r" % (f, what, e))
    result(name, errs)

# Every member the schema names is written somewhere above.
names = set()
def names_of(x):
    if isinstance(x, dict):
        for k in ("properties", "dependentRequired"):
            names.update(x.get(k, {}))
        names.update(x.get("required", []))
        for y in x.values():
            names_of(y)
    elif isinstance(x, list):
        for y in x:
            names_of(y)
names_of(schema)
result("schema_names_only_what_is_written",
       ["never written: " + " ".join(sorted(names - seen))] if names - seen else [])

# Broken one way each: refused.
s = json.loads(open(sample_path).readline())
h = json.loads(open(header_path).readline())
P = s["processes"]
ok = next(i for i, p in enumerate(P) if p["numa_maps"] == "ok")
er = next(i for i, p in enumerate(P) if p["numa_maps"] == "error")
def setp(i, k, x):
    return lambda d: d["processes"][i].__setitem__(k, x)
def delete(path):
    def f(d):
        for k in path[:-1]:
            d = d[k]
        del d[path[-1]]
    return f
sample = {
    "remote_kb a string": setp(ok, "remote_kb", str(P[ok]["remote_kb"])),
    "pid a fraction": setp(ok, "pid", 1.5),
    "rss_kb negative": setp(ok, "rss_kb", -1),
    "state two letters": setp(ok, "state", "SS"),
    "numa_maps not a state": setp(ok, "numa_maps", "maybe"),
    "remote_cause not a cause": setp(ok, "remote_cause", "because"),
    "advice action not an action": lambda d: d["processes"][ok]["advice"].__setitem__("action", "reboot"),
    "unknown key at the top": lambda d: d.__setitem__("bogus", 1),
    "unknown key in a process": setp(ok, "bogus", 1),
    "unknown key in a node": lambda d: d["nodes"][0].__setitem__("bogus", 1),
    "unknown vmstat counter": lambda d: d["numa_balancing"]["counters"].__setitem__("pgbogus", 1),
    "node id key not a number": lambda d: d["processes"][ok]["node_kb"].__setitem__("x", 1),
    "schema_version 2": lambda d: d.__setitem__("schema_version", 2),
    "no schema_version": delete(["schema_version"]),
    "no mem_total_kb": delete(["nodes", 0, "mem_total_kb"]),
    "error without numa_maps_error": delete(["processes", er, "numa_maps_error"]),
    "numa_maps_error when ok": setp(ok, "numa_maps_error", "x"),
    "per-node kB of an unread process": setp(er, "node_kb", {"0": 1}),
    "remote_kb 0 of an unread process": setp(er, "remote_kb", 0),
    "cgroups without cgroup_layout": delete(["cgroup_layout"]),
    "memory_tier without numa_balancing": delete(["numa_balancing"]),
    "timestamp not UTC": lambda d: d.__setitem__("timestamp", "2026-12-04 00:00:00"),
}
header = {
    "header: unknown key in topology": lambda d: d["topology"].__setitem__("bogus", 1),
    "header: interval_s a string": lambda d: d.__setitem__("interval_s", "10"),
    "header: hmat access_class 2": lambda d: d["hmat"].__setitem__("access_class", 2),
    "header: no schema_version": delete(["schema_version"]),
    "header: cpu online a number": lambda d: d["topology"]["cpus"][0].__setitem__("online", 1),
}
# The access heat (the sample of the tree with a kdamond).
a = json.loads(open(sys.argv[5]).readline())
hot = next(i for i, p in enumerate(a["processes"]) if (p["access"].get("hot_total_kb") or 0) > 0)
def seta(k, x):
    return lambda d: d["processes"][hot]["access"].__setitem__(k, x)
def setr(k, x):
    return lambda d: d["processes"][hot]["access"]["regions"][0].__setitem__(k, x)
access = {
    "access: hot_remote_pct past 100": seta("hot_remote_pct", 150.0),
    "access: window_s 0": seta("window_s", 0),
    "access: hot_total_kb negative": seta("hot_total_kb", -1),
    "access: source not a source": seta("source", "perf"),
    "access: region end 17 hex digits": setr("end", "0x1" + "0" * 16),
    "access: region max_accesses 0": setr("max_accesses", 0),
    "access: status window_s 0": lambda d: d["access"].__setitem__("window_s", 0),
    "access: status reason not a reason": lambda d: d["access"].__setitem__("reason", "busy"),
}
errs = []
for name, doc, muts in (("sample", s, sample), ("header", h, header), ("access sample", a, access)):
    if not v.is_valid(doc):
        errs.append("the %s itself is not valid" % name)
    for n, f in muts.items():
        d = copy.deepcopy(doc)
        f(d)
        if v.is_valid(d):
            errs.append("accepted: " + n)
result("schema_refuses_broken_samples", errs)
PYEOF
"$PY" "$T/check.py" "$SCHEMA" "$T/list" "$T/golden-opteron4.json" "$T/hm.json" "$T/dm.json" >"$T/check.out" 2>&1
sed '/^PASS \|^FAIL \|^    /!s/^/    /' "$T/check.out"
grep -q '^PASS schema_refuses_broken_samples$' "$T/check.out" ||
	grep -q '^FAIL schema_refuses_broken_samples$' "$T/check.out" ||
	bad schema_check "check.py stopped before its end"

# --- the jq recipes of docs/json.md, on samples with nulls -------------------
# Each "numatop-tui ... | jq ..." line of the recipes' block, its jq part
# run on the tree's sample (PID 3000: numa_maps error) and nobody's (root's
# processes no_perm): status 0 and some output.
sed -n '/^## jq recipes/,/^## /p' docs/json.md | sed -n '/^```/,/^```/p' |
	sed -n 's/^numatop-tui [^|]*| *\(jq .*\)$/\1/p' >"$T/recipes"
nrec=$(grep -c '' "$T/recipes")
# The tree's sample has a null where the recipes guard against one.
if jq -e '.processes | sort_by(-.remote_kb)' "$T/golden-opteron4.json" >/dev/null 2>&1; then
	bad docs_jq_naive_fails "sort_by(-.remote_kb) worked: no null remote_kb in the tree's sample"
else
	ok docs_jq_naive_fails
fi
cat "$T/golden-opteron4.json" "$T/nobody.json" >"$T/nulls.ndjson"
fails=""
while IFS= read -r r; do
	o=$(sh -c "$r" <"$T/nulls.ndjson" 2>&1); rc=$?
	[ $rc -eq 0 ] && [ -n "$o" ] || fails="$fails
$r: status $rc: $(printf '%s' "$o" | head -3)"
done <"$T/recipes"
[ "$nrec" -ge 5 ] && [ -z "$fails" ] && ok docs_jq_recipes ||
	bad docs_jq_recipes "$nrec recipes in docs/json.md's jq recipes$fails"
