#!/bin/sh
# The access heat in the Prometheus exposition, on a copy of the recorded
# tree with a DAMON kdamond watching two of its processes
# (tests/sh/damon_tree.sh), every value worked out from the same sample's
# JSON:
#   a. numatop_process_hot_remote_bytes: each process's hot_remote_kb, only
#      for the processes whose heat is known and by the rules of the remote
#      bytes series (--metrics-min-remote, --metrics-top); --metrics-by comm
#      sums it per command name and user (numatop_comm_hot_remote_bytes)
#   b. numatop_node_hot_bytes: the hot kB on each node, summed over the
#      processes whose heat is known
#   c. the source's state: numatop_access_source_info{source,reason},
#      numatop_access_monitored_processes, numatop_access_window_seconds
#   d. no DAMON (the recorded tree itself): no hot sample at all (unknown
#      is no sample, never 0), the source none with its reason
#   e. promtool accepts each exposition; OpenMetrics has the same samples
# The table of docs/prometheus.md is checked against these families by
# test_prometheus.sh (group i).
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
. tests/sh/lib.sh
. tests/sh/damon_tree.sh
need python3 python3
need promtool prometheus
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
unset NUMATOP_TUI_ROOT

cat >"$T/acc.py" <<'PYEOF'
# acc.py CMD ARGS: the expected access series from a sample's JSON.
import json, re, sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')
FAMS = ('numatop_process_hot_remote_bytes', 'numatop_comm_hot_remote_bytes',
        'numatop_node_hot_bytes', 'numatop_access_', 'numatop_hot_remote_bytes')

def key(name, labels):
    return name + '{' + ','.join('%s=%r' % kv for kv in sorted(labels.items())) + '}'

def samples(path):
    out = {}
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError('not a sample: %r' % line)
        out[key(m.group(1), dict(LABEL.findall(m.group(2) or '')))] = float(m.group(3))
    return out

def placed(p):
    return p['numa_maps'] == 'ok' and p['remote_kb'] is not None

def hot_remote(p):
    a = p.get('access') or {}
    return a.get('hot_remote_kb')

def expected(d, min_remote, top, by):
    exp = {}
    procs = [p for p in d['processes'] if placed(p)]
    if by == 'pid':
        kept = sorted((p for p in procs if p['remote_kb'] * 1024 > min_remote),
                      key=lambda p: (-p['remote_kb'], p['pid']))[:top]
        for p in kept:
            if hot_remote(p) is not None:
                lab = {'pid': str(p['pid']), 'comm': p['comm'], 'user': p['user']}
                exp[key('numatop_process_hot_remote_bytes', lab)] = hot_remote(p) * 1024
    else:
        groups = {}
        for p in procs:
            g = groups.setdefault((p['comm'], p['user']), {'remote': 0, 'hot': None})
            g['remote'] += p['remote_kb']
            if hot_remote(p) is not None:
                g['hot'] = (g['hot'] or 0) + hot_remote(p)
        kept = sorted((kv for kv in groups.items() if kv[1]['remote'] * 1024 > min_remote),
                      key=lambda kv: (-kv[1]['remote'], kv[0]))[:top]
        for (comm, user), g in kept:
            if g['hot'] is not None:
                exp[key('numatop_comm_hot_remote_bytes', {'comm': comm, 'user': user})] = g['hot'] * 1024
    # The host's sum: every placed process whose heat is known, whatever
    # the threshold and the top leave out of the process series.
    hots = [hot_remote(p) for p in procs if hot_remote(p) is not None]
    if hots:
        exp[key('numatop_hot_remote_bytes', {})] = sum(hots) * 1024
    for nid in d['processes'][0]['node_kb']:
        vals = [p['access']['hot_kb'][nid] for p in d['processes']
                if (p.get('access') or {}).get('hot_total_kb') is not None
                and p['access']['hot_kb'][nid] is not None]
        if vals:
            exp[key('numatop_node_hot_bytes', {'node': nid})] = sum(vals) * 1024
    a = d['access']
    exp[key('numatop_access_source_info', {'source': a['source'], 'reason': a['reason']})] = 1
    exp[key('numatop_access_monitored_processes', {})] = a['monitored']
    if a['window_s'] is not None:
        exp[key('numatop_access_window_seconds', {})] = a['window_s']
    if a['kdamond_cpu_pct'] is not None:
        exp[key('numatop_access_kdamond_cpu_ratio', {})] = a['kdamond_cpu_pct'] / 100
    return exp

def cmd_check(prom, jsonfile, min_remote, top, by):
    """The exposition's access samples are exactly the expected ones."""
    got = {k: v for k, v in samples(prom).items() if k.startswith(FAMS)}
    exp = expected(json.load(open(jsonfile)), int(min_remote), int(top), by)
    bad = ['unexpected %s %r' % (k, v) for k, v in got.items() if k not in exp]
    bad += ['missing %s (expected %r)' % (k, v) for k, v in exp.items() if k not in got]
    bad += ['%s = %r, expected %r' % (k, got[k], v) for k, v in exp.items()
            if k in got and abs(got[k] - v) > 1e-9 * max(abs(v), 1)]
    for b in sorted(bad):
        print(b)
    said = [re.search(r"(pid)='([^']*)'" if k.startswith('numatop_process') else r"(comm)='([^']*)'", k)
            for k in exp if k.startswith(('numatop_process_hot', 'numatop_comm_hot'))]
    print(' '.join(sorted('%s %s' % m.groups() for m in said)) or 'no hot remote series')
    return 1 if bad else 0

def cmd_count(prom, prefix):
    print(sum(1 for k in samples(prom) if k.startswith(prefix)))
    return 0

def cmd_same(a, b):
    sa = {k: v for k, v in samples(a).items() if k.startswith(FAMS)}
    sb = {k: v for k, v in samples(b).items() if k.startswith(FAMS)}
    diff = sorted(set(sa.items()) ^ set(sb.items()))
    for k in diff[:10]:
        print(k)
    return 1 if diff or not sa else 0

if __name__ == '__main__':
    sys.exit(globals()['cmd_' + sys.argv[1]](*sys.argv[2:]))
PYEOF
X="python3 -S $T/acc.py"
# promcheck NAME FILE: promtool check metrics says nothing and exits 0.
promcheck() {
	promtool check metrics <"$2" >"$T/promtool.out" 2>&1; rc=$?
	[ $rc -eq 0 ] && [ -s "$2" ] && [ ! -s "$T/promtool.out" ] && ok "$1" || bad "$1" "rc=$rc $(head -20 "$T/promtool.out")"
}

cp -r "$TREE" "$T/dm"
damon_tree "$T/dm"
"$PROG" --root "$T/dm" --json -n 1 >"$T/dm.json" 2>"$T/err"
[ -s "$T/dm.json" ] && [ ! -s "$T/err" ] && grep -q '"hot_remote_kb":[1-9]' "$T/dm.json" && ok prom_access_fixture ||
	bad prom_access_fixture "the fixture has no hot remote memory: $(cat "$T/err"; head -c 300 "$T/dm.json")"

# --- a-c. per pid: the default threshold; a threshold that leaves pid 2000
# out (its remote kB exactly); 0 (pid 4242, no heat, gets remote bytes and
# no hot remote bytes); --metrics-top 1 ---
R2000=$(python3 -c "import json; print([p['remote_kb'] for p in json.load(open('$T/dm.json'))['processes'] if p['pid'] == 2000][0])")
for a in "1048576 50" "$((R2000 * 1024)) 50" "0 50" "0 1" "0 0"; do
	n=$(echo "$a" | tr ' ' _)
	"$PROG" --root "$T/dm" --format prometheus -n 1 --metrics-min-remote "${a% *}" --metrics-top "${a#* }" \
		>"$T/pid$n.prom" 2>"$T/err"
	$X check "$T/pid$n.prom" "$T/dm.json" $a pid >"$T/o" 2>&1 && [ ! -s "$T/err" ] &&
		ok "prom_access_pid_min_${a% *}_top_${a#* } ($(tail -1 "$T/o"))" ||
		bad "prom_access_pid_min_${a% *}_top_${a#* }" "$(cat "$T/o" "$T/err")"
	promcheck "prom_access_pid_min_${a% *}_top_${a#* }_promtool" "$T/pid$n.prom"
done
# The expected sets differ where they must (so the checks above can fail).
h() { grep -c '^numatop_process_hot_remote_bytes{' "$1"; }
r="$(h "$T/pid1048576_50.prom") $(h "$T/pid$((R2000 * 1024))_50.prom") $(h "$T/pid0_50.prom") $(h "$T/pid0_1.prom") $(h "$T/pid0_0.prom")"
[ "$r" = "2 1 2 1 0" ] && grep -q '^numatop_process_remote_bytes{pid="4242",' "$T/pid0_50.prom" &&
	ok "prom_access_pid_series_rules ($r)" ||
	bad prom_access_pid_series_rules "hot remote samples per run: $r (want 2 1 2 1 0; pid 4242 has remote bytes and no heat)"
# The host's hot remote bytes do not depend on the process series' rules.
r=$(grep -h '^numatop_hot_remote_bytes ' "$T/pid1048576_50.prom" "$T/pid0_0.prom" "$T/pid$((R2000 * 1024))_50.prom" | sort -u)
case $r in 'numatop_hot_remote_bytes '[1-9]*[0-9]) ok "prom_access_host_hot_remote (${r#* })" ;;
*) bad prom_access_host_hot_remote "$r (want one value whatever --metrics-min-remote and --metrics-top)" ;; esac
v=$(grep '^numatop_process_hot_remote_bytes{pid="1000",' "$T/pid1048576_50.prom")
case $v in *'} 33554432') ok prom_access_pid_1000_hot_remote ;; *) bad prom_access_pid_1000_hot_remote "$v (want 32 MiB: the 64 MiB interleaved over 4 nodes, its threads on 0 and 1)" ;; esac

# --- a. --metrics-by comm: pid 2000 is renamed dbserver of alice (one group
# with pid 1000: the sum), pid 4242 too but of root (a group of its own,
# no heat: no hot remote sample) ---
cp -r "$T/dm" "$T/comm"
for p in 2000 4242; do
	rest=$(sed 's/^[0-9]* ([^)]*) //' "$TREE/proc/$p/stat")
	printf '%s (dbserver) %s\n' "$p" "$rest" >"$T/comm/proc/$p/stat"
	sed 's/^Name:.*/Name:\tdbserver/' "$TREE/proc/$p/status" >"$T/comm/proc/$p/status"
done
sed 's/^Uid:.*/Uid:\t1000\t1000\t1000\t1000/' "$T/comm/proc/2000/status" >"$T/s" && mv "$T/s" "$T/comm/proc/2000/status"
"$PROG" --root "$T/comm" --json -n 1 >"$T/comm.json" 2>/dev/null
for a in "1048576 50" "0 50" "0 1"; do
	n=$(echo "$a" | tr ' ' _)
	"$PROG" --root "$T/comm" --format prometheus -n 1 --metrics-by comm --metrics-min-remote "${a% *}" \
		--metrics-top "${a#* }" >"$T/comm$n.prom" 2>"$T/err"
	$X check "$T/comm$n.prom" "$T/comm.json" $a comm >"$T/o" 2>&1 && [ ! -s "$T/err" ] &&
		ok "prom_access_comm_min_${a% *}_top_${a#* } ($(tail -1 "$T/o"))" ||
		bad "prom_access_comm_min_${a% *}_top_${a#* }" "$(cat "$T/o" "$T/err")"
	promcheck "prom_access_comm_min_${a% *}_top_${a#* }_promtool" "$T/comm$n.prom"
done
v=$(grep '^numatop_comm_hot_remote_bytes' "$T/comm0_50.prom" | tr '\n' ' ')
[ "$v" = 'numatop_comm_hot_remote_bytes{comm="dbserver",user="alice"} 33554432 ' ] &&
	[ "$($X count "$T/comm0_50.prom" numatop_comm_remote_bytes)" = 2 ] &&
	ok prom_access_comm_sum || bad prom_access_comm_sum "$v (want only dbserver/alice: 32 MiB + 0)"

# --- d. no DAMON: no hot sample, the source none, why ---
"$PROG" --root "$TREE" --format prometheus -n 1 --metrics-min-remote 0 >"$T/none.prom" 2>"$T/err"
"$PROG" --root "$TREE" --json -n 1 >"$T/none.json" 2>/dev/null
$X check "$T/none.prom" "$T/none.json" 0 50 pid >"$T/o" 2>&1 && ok prom_access_none_exact || bad prom_access_none_exact "$(cat "$T/o")"
n="$($X count "$T/none.prom" numatop_process_hot_remote_bytes) $($X count "$T/none.prom" numatop_node_hot_bytes)"
n="$n $($X count "$T/none.prom" numatop_access_window_seconds) $($X count "$T/none.prom" numatop_hot_remote_bytes)"
grep -q '^numatop_access_source_info{source="none",reason="no_damon"} 1$' "$T/none.prom" && [ "$n" = "0 0 0 0" ] &&
	grep -q '^numatop_access_monitored_processes 0$' "$T/none.prom" && ok prom_access_none_no_samples ||
	bad prom_access_none_no_samples "samples (hot remote, node hot, window, host hot remote): $n; $(grep access "$T/none.prom")"
promcheck prom_access_none_promtool "$T/none.prom"
# The check itself fails on an exposition that is not the JSON's.
$X check "$T/pid0_50.prom" "$T/none.json" 0 50 pid >"$T/o" 2>&1 && bad prom_access_check_can_fail "$(cat "$T/o")" ||
	ok "prom_access_check_can_fail ($(grep -c . "$T/o") differences)"

# --- e. OpenMetrics: the same access samples ---
"$PROG" --root "$T/dm" --format openmetrics -n 1 --metrics-min-remote 0 >"$T/dm.om" 2>"$T/err"
grep -v '^# EOF$' "$T/dm.om" >"$T/dm.om.txt"
$X same "$T/pid0_50.prom" "$T/dm.om.txt" >"$T/o" 2>&1 && grep -q '^# TYPE numatop_access_source info$' "$T/dm.om" &&
	ok prom_access_openmetrics || bad prom_access_openmetrics "$(cat "$T/o" "$T/err"; grep 'TYPE numatop_access' "$T/dm.om")"
