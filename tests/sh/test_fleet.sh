#!/bin/sh
# --fleet: a real Prometheus (Debian's prometheus, on 127.0.0.1, a
# temporary config and data directory, scraping every second) over three
# numatop-tui --serve exporters, each over its own recorded tree (--root),
# so each is a host of its own:
#   a. the Fleet JSON (--fleet URL --json) lists the three instances, with
#      their target labels, up, version and node count, each with the
#      remote bytes (and hot remote and hot slow-tier bytes, or null) of its
#      own tree's sample (--root TREE --json of that tree), the worst
#      process first, in at most 10 queries; it is valid against
#      docs/fleet.schema.json; -b prints the same hosts as text
#      the recording rules of contrib/prometheus loaded: the rates read
#      from them alone once found
#   b. --fleet-match narrows it to one host's labels
#   c. errors, one line each and exit 1: a server that cannot be reached,
#      a URL that is not Prometheus (the exporter's own), no numatop series
#      (a matcher nothing has); a bad matcher is a usage error (2)
#   d. an exporter that dies: its host stays, up 0, and its scrapes are said
#      to fail; the two others are still read (exit 0); its target taken
#      out of the config: the host is said to be no longer scraped
#   e. the HTTP layer against a loopback server in Prometheus's place: a
#      503 is asked once more (two requests per query, the table comes); a
#      server that does not answer within fleet_timeout is one line, exit 1
# Skipped without prometheus. Every wait is bounded (60 s or more); nothing
# is timed. Everything started here is stopped here, by PID.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
. tests/sh/damon_tree.sh
if ! command -v prometheus >/dev/null 2>&1; then
	echo "SKIP fleet: prometheus not found (apt-get install prometheus)"
	exit 0
fi
need python3 python3
need curl curl
need tmux tmux
T=$(mktemp -d)
PIDS=""
cleanup() {
	[ -n "${TMUX_TMPDIR:-}" ] && tmux kill-server 2>/dev/null
	for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
unset NUMATOP_TUI_ROOT
# The settings file is the test's (none), never the user's.
XDG_CONFIG_HOME=$T/cfg
export XDG_CONFIG_HOME

cp tests/sh/lib_prom.py "$T/"
cat >"$T/fl.py" <<'PYEOF'
# fl.py CMD ARGS: the checks of test_fleet.sh that want JSON or sockets;
# freeport and promq are lib_prom.py's.
import json, os, sys
from lib_prom import cmd_freeport, cmd_promq

def cmd_expect(tree_json):
    """remote bytes, hot remote bytes (or null), hot slow bytes (or null)
    of a sample, summed over its placed processes as the exporter sums them."""
    d = json.load(open(tree_json))
    procs = [p for p in d['processes'] if p['numa_maps'] == 'ok' and p['remote_kb'] is not None]
    rem = sum(p['remote_kb'] * 1024 for p in procs)
    hot = [(p.get('access') or {}).get('hot_remote_kb') for p in procs]
    hot = [h for h in hot if h is not None]
    slow = [p.get('hot_slow_kb') for p in procs if p.get('hot_slow_kb') is not None]
    print(json.dumps([rem, sum(hot) * 1024 if hot else None, sum(slow) * 1024 if slow else None]))
    return 0

def cmd_check(fleet_json, *want):
    """want: INSTANCE=EXPECT_JSON_FILE ...: the hosts are exactly these,
    each with the sums of its own tree's sample."""
    d = json.load(open(fleet_json))
    hosts = {h['instance']: h for h in d['hosts']}
    bad = []
    if sorted(hosts) != sorted(w.split('=')[0] for w in want):
        bad.append('instances %s, want %s' % (sorted(hosts), [w.split('=')[0] for w in want]))
    for w in want:
        inst, f = w.split('=')
        rem, hot, slow = json.load(open(f))
        h = hosts.get(inst)
        if not h:
            continue
        got = (h['remote_bytes'], h['hot_remote_bytes'], h['hot_slow_tier_bytes'])
        if got != (rem, hot, slow):
            bad.append('%s: remote, hot remote, hot slow %s, want %s' % (inst, got, (rem, hot, slow)))
        if h['up'] != 1 or h['nodes'] < 2 or not h['version'] or h['labels'].get('tree') is None:
            bad.append('%s: up %r, nodes %r, version %r, labels %r' % (inst, h['up'], h['nodes'],
                                                                       h['version'], h['labels']))
        if h['top'] and rem and not any(t['remote_bytes'] for t in h['top']):
            bad.append('%s: top without remote bytes: %r' % (inst, h['top']))
    if d['queries'] > 10:
        bad.append('%d queries' % d['queries'])
    # Sorted by hot remote bytes, then remote (unknown last).
    key = [(-(h['hot_remote_bytes'] if h['hot_remote_bytes'] is not None else -1),
            -(h['remote_bytes'] if h['remote_bytes'] is not None else -1)) for h in d['hosts']]
    if key != sorted(key):
        bad.append('not sorted: %s' % [h['instance'] for h in d['hosts']])
    for b in bad:
        print(b)
    if not bad:
        print(' '.join('%s=%s' % (h['instance'].split(':')[1], h['remote_bytes']) for h in d['hosts']))
    return 1 if bad else 0

def cmd_schema(schema, doc):
    import jsonschema
    jsonschema.validate(json.load(open(doc)), json.load(open(schema)))
    return 0

def cmd_host(fleet_json, inst, field):
    d = json.load(open(fleet_json))
    for h in d['hosts']:
        if h['instance'] == inst:
            print(json.dumps(h[field]))
            return 0
    print('no host %s' % inst)
    return 1

def cmd_fake(port_file, mode):
    """A loopback server in place of Prometheus: 'flaky' answers 503 to
    every first request of a query and a host's series to the second;
    'slow' answers nothing for 60 s. Writes its port, then each request
    path's count to port_file + '.log'."""
    import http.server, threading, time
    seen = {}
    class H(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass
        def do_GET(self):
            seen[self.path] = seen.get(self.path, 0) + 1
            with open(port_file + '.log', 'w') as f:
                f.write('%d %d\n' % (sum(seen.values()), len(seen)))
            if mode == 'slow':
                time.sleep(60)
                return
            if mode == 'garbage':
                body = b'<html>not the query API</html>'
                self.send_response(200)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            if seen[self.path] == 1:
                self.send_response(503)
                self.end_headers()
                return
            body = json.dumps({'status': 'success', 'data': {'resultType': 'vector', 'result': [
                {'metric': {'instance': 'fake:1', 'job': 'numa'}, 'value': [1, '1']}]}}).encode()
            self.send_response(200)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
    srv.daemon_threads = True
    with open(port_file + '.tmp', 'w') as f:
        f.write('%d\n' % srv.server_address[1])
    os.rename(port_file + '.tmp', port_file)
    srv.serve_forever()

def tokens_by_header(lines, first, stop):
    """{pid: {header: cell}} of a table whose header line starts with
    first: the cells before the header named stop (cells are one word)."""
    out, hdr = {}, None
    for l in lines:
        t = l.split()
        if not t:
            hdr = None if hdr and out else hdr
            continue
        if t[0] == first and hdr is None:
            hdr = t[:t.index(stop)] if stop in t else t
            continue
        if hdr and t[0].isdigit():
            out[t[0]] = dict(zip(hdr, t[:len(hdr)]))
    return out

def cmd_drill(screen_file, batch_file):
    """The process rows of the Fleet screen's host (PID ... REMOTE, LAST
    HOUR) against the same PIDs of --root TREE -b: every column both have."""
    scr = tokens_by_header(open(screen_file).read().splitlines(), 'PID', 'REMOTE,')
    bat = tokens_by_header(open(batch_file).read().splitlines(), 'PID', 'POLICY')
    bad, same = [], 0
    if not scr:
        bad.append('no process rows on the screen')
    for pid, row in scr.items():
        b = bat.get(pid)
        if not b:
            bad.append('pid %s not in -b' % pid)
            continue
        for k, v in row.items():
            if k in ('PID', 'USER'):
                continue
            if k in b:
                same += 1
                if b[k] != v:
                    bad.append('pid %s %s: screen %s, -b %s' % (pid, k, v, b[k]))
    for x in bad:
        print(x)
    if not bad:
        print('%d processes, %d cells alike' % (len(scr), same))
    return 1 if bad or same == 0 else 0

def cmd_cells(screen_file, batch_file, col):
    """Each host row's cell under col, on the screen and in -b's table."""
    def cells(lines):
        out = {}
        hdr = None
        for l in lines:
            t = l.split()
            if t and t[0] == 'INSTANCE':
                hdr = [h.rstrip('v^') for h in t]
                continue
            if hdr and not t:
                break
            if hdr and t and t[0].startswith('127.0.0.1:') and col in hdr:
                out[t[0]] = t[hdr.index(col)]
        return out
    a = cells(open(screen_file).read().splitlines())
    b = cells(open(batch_file).read().splitlines())
    if not a or any(b.get(k) != v for k, v in a.items()):
        print('screen %s, -b %s' % (a, b))
        return 1
    print(' '.join('%s=%s' % kv for kv in sorted(a.items())))
    return 0

def cmd_instances(fleet_json):
    print(' '.join(sorted(h['instance'] for h in json.load(open(fleet_json))['hosts'])))
    return 0

if __name__ == '__main__':
    sys.exit(globals()['cmd_' + sys.argv[1]](*sys.argv[2:]))
PYEOF
X="python3 -S $T/fl.py"
JSCHEMA=$(for p in /usr/bin/python3 python3; do "$p" -c 'import jsonschema' 2>/dev/null && echo "$p" && break; done)

# The three hosts' trees: opteron4 with a kdamond (hot remote bytes),
# tiered2 with one (hot bytes on the slow tier), tiered3 without (null).
cp -r tests/trees/opteron4 "$T/a" && damon_tree "$T/a"
cp -r tests/trees/tiered2 "$T/b" && damon_tree_tiered "$T/b"
cp -r tests/trees/tiered3 "$T/c"
for h in a b c; do
	"$PROG" --root "$T/$h" --json -n 1 >"$T/$h.json" 2>/dev/null
	$X expect "$T/$h.json" >"$T/$h.exp"
done

# Each exporter on a free port (another one tried when it was taken meanwhile).
serve() {
	for _ in 1 2 3 4 5; do
		port=$($X freeport)
		"$PROG" --root "$T/$1" -d 1 --serve "127.0.0.1:$port" >"$T/$1.out" 2>"$T/$1.err" &
		pid=$!
		i=0
		while [ $i -lt 300 ] && kill -0 "$pid" 2>/dev/null; do
			curl -sf -o /dev/null "http://127.0.0.1:$port/metrics" && { echo "$port $pid"; return 0; }
			sleep 0.2; i=$((i + 1))
		done
		kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		grep -q 'Address already in use' "$T/$1.err" || return 1
	done
	return 1
}
for h in a b c; do
	set -- $(serve $h)
	[ -n "$2" ] || { bad "fleet_exporter_$h" "$(cat "$T/$h.out" "$T/$h.err")"; exit 1; }
	eval "PORT_$h=$1 PID_$h=$2"
	PIDS="$PIDS $2"
done
DEAD=$($X freeport)

P=$($X freeport)
PU=http://127.0.0.1:$P
cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: [ '$PWD/contrib/prometheus/numatop-rules.yml' ]
scrape_configs:
  - job_name: numa
    static_configs:
      - targets: ['127.0.0.1:$PORT_a']
        labels: { tree: opteron4 }
      - targets: ['127.0.0.1:$PORT_b']
        labels: { tree: tiered2 }
      - targets: ['127.0.0.1:$PORT_c']
        labels: { tree: tiered3 }
      # Never a numatop exporter: never a host of the fleet.
      - targets: ['127.0.0.1:$DEAD']
        labels: { tree: none }
EOF
# (A lookback of 15 s, not 5 min: a target taken out of the config has no
# up series 15 s later, as it would 5 min later in the default set-up.)
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/data" \
	--web.listen-address="127.0.0.1:$P" --query.lookback-delta=15s >"$T/prometheus.log" 2>&1 &
PROM=$!; PIDS="$PIDS $PROM"

# Bounded wait: every exporter scraped (its build_info in Prometheus).
i=0
while [ $i -lt 120 ] && kill -0 "$PROM" 2>/dev/null; do
	n=$($X promq "$PU" 'count(numatop_build_info{job="numa"})' 2>/dev/null)
	[ "$n" = 3 ] && break
	sleep 0.5; i=$((i + 1))
done
if [ "$n" != 3 ]; then
	bad fleet_prometheus_scrapes "$n of 3 exporters scraped in 60 s: $(tail -5 "$T/prometheus.log")"
	exit 1
fi
ok "fleet_prometheus_scrapes"

# --- a. the Fleet JSON: three hosts, each with its own tree's sums --------
# (asked again until the exporters' samples are complete, and the rules'
# top processes evaluated since: 60 s at most)
i=0
while [ $i -lt 60 ]; do
	"$PROG" --fleet "$PU" --json >"$T/f.json" 2>"$T/f.err"; rc=$?
	$X check "$T/f.json" "127.0.0.1:$PORT_a=$T/a.exp" "127.0.0.1:$PORT_b=$T/b.exp" \
		"127.0.0.1:$PORT_c=$T/c.exp" >"$T/o" 2>&1 &&
		$X host "$T/f.json" "127.0.0.1:$PORT_a" top | grep -q '"pid"' && break
	sleep 1; i=$((i + 1))
done
[ "$rc" = 0 ] && $X check "$T/f.json" "127.0.0.1:$PORT_a=$T/a.exp" "127.0.0.1:$PORT_b=$T/b.exp" \
	"127.0.0.1:$PORT_c=$T/c.exp" >"$T/o" 2>&1 && [ ! -s "$T/f.err" ] &&
	ok "fleet_json_three_hosts ($(cat "$T/o"))" ||
	bad fleet_json_three_hosts "rc=$rc $(cat "$T/o" "$T/f.err"; head -c 2000 "$T/f.json")"
# Host a's hot remote bytes are known (its kdamond), c's are not (null);
# b's hot bytes on the slow tier are known.
r="$($X host "$T/f.json" "127.0.0.1:$PORT_a" hot_remote_bytes) $($X host "$T/f.json" "127.0.0.1:$PORT_c" hot_remote_bytes)"
r="$r $($X host "$T/f.json" "127.0.0.1:$PORT_b" hot_slow_tier_bytes)"
case $r in [1-9]*' null '[1-9]*) ok "fleet_json_heat_known_or_null ($r)" ;; *) bad fleet_json_heat_known_or_null "$r" ;; esac
# The worst process of a: its tree's pid with the most hot remote bytes.
w=$($X host "$T/f.json" "127.0.0.1:$PORT_a" top | python3 -c 'import json,sys; t=json.load(sys.stdin); print(t[0]["pid"], t[0]["comm"])')
[ "$w" = "1000 dbserver" ] && ok "fleet_json_worst_process ($w)" || bad fleet_json_worst_process "$w"
if [ -n "$JSCHEMA" ]; then
	"$JSCHEMA" "$T/fl.py" schema docs/fleet.schema.json "$T/f.json" >"$T/o" 2>&1 && ok fleet_json_schema ||
		bad fleet_json_schema "$(tail -5 "$T/o")"
else
	echo "SKIP fleet_json_schema: python3-jsonschema not installed"
fi
"$PROG" --fleet "$PU" -b >"$T/f.txt" 2>"$T/f.err"; rc=$?
n=$(grep -c "^127.0.0.1:\($PORT_a\|$PORT_b\|$PORT_c\) *up " "$T/f.txt")
[ "$rc" = 0 ] && [ "$n" = 3 ] && grep -q '^INSTANCE  *UP  *AGE  *NODES  *REMOTE  *HOTREM' "$T/f.txt" &&
	ok fleet_batch_text || bad fleet_batch_text "rc=$rc $n hosts $(cat "$T/f.txt" "$T/f.err")"

# --fleet-host: one host's nodes and processes, as --root TREE -b of its
# tree says them; its JSON with the host's remote bytes of its own sample.
"$PROG" --root "$T/a" -b -n 1 >"$T/a.txt" 2>/dev/null
"$PROG" --fleet "$PU" --fleet-host "127.0.0.1:$PORT_a" -b >"$T/h.txt" 2>"$T/h.err"; rc=$?
[ "$rc" = 0 ] && $X drill "$T/h.txt" "$T/a.txt" >"$T/o" && grep -q '^ NODE ' "$T/h.txt" &&
	ok "fleet_host_batch_as_root_b ($(cat "$T/o"))" || bad fleet_host_batch_as_root_b "rc=$rc $(cat "$T/o" "$T/h.err" "$T/h.txt")"
"$PROG" --fleet "$PU" --fleet-host "127.0.0.1:$PORT_a" --json >"$T/h.json" 2>"$T/h.err"; rc=$?
r=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); e=json.load(open(sys.argv[2]))
print("ok" if d["remote_bytes"] == e[0] and d["processes_exported"] and d["nodes"] else "bad %r %r" % (d["remote_bytes"], e[0]))' "$T/h.json" "$T/a.exp" 2>&1)
[ "$rc" = 0 ] && [ "$r" = ok ] && ok fleet_host_json || bad fleet_host_json "rc=$rc $r $(cat "$T/h.err")"
"$PROG" --fleet "$PU" --fleet-host "no-such:1" -b >"$T/h.txt" 2>"$T/h.err"; rc=$?
[ "$rc" = 1 ] && grep -q 'no numatop series of instance no-such:1' "$T/h.err" && ok fleet_host_unknown ||
	bad fleet_host_unknown "rc=$rc $(cat "$T/h.err")"

# The recording rules are loaded: once their rates are there, the table
# says so and a second refresh of the same run reads them alone; the
# tiered hosts' rates are known, opteron4's (no tiers) are not.
i=0
while [ $i -lt 60 ]; do
	"$PROG" --fleet "$PU" --json -n 2 -d 0.5 >"$T/rr.json" 2>"$T/rr.err"; rc=$?
	[ "$(sed -n 2p "$T/rr.json" | grep -c '"recording_rules":true')" = 1 ] && break
	sleep 1; i=$((i + 1))
done
sed -n 2p "$T/rr.json" >"$T/rr2.json"
r="$($X host "$T/rr2.json" "127.0.0.1:$PORT_b" promote_pages_per_second) $($X host "$T/rr2.json" "127.0.0.1:$PORT_a" promote_pages_per_second)"
[ "$rc" = 0 ] && grep -q '"recording_rules":true' "$T/rr2.json" && case $r in [0-9]*' null') true ;; *) false ;; esac &&
	ok "fleet_recording_rules_read (promotion rates: $r)" ||
	bad fleet_recording_rules_read "rc=$rc rates $r $(cat "$T/rr.err"; head -c 600 "$T/rr2.json")"

# --- b. --fleet-match ------------------------------------------------------
"$PROG" --fleet "$PU" --fleet-match '{job="numa",tree="tiered2"}' --json >"$T/m.json" 2>"$T/m.err"; rc=$?
r=$($X instances "$T/m.json")
[ "$rc" = 0 ] && [ "$r" = "127.0.0.1:$PORT_b" ] && ok fleet_match_narrows || bad fleet_match_narrows "rc=$rc $r $(cat "$T/m.err")"

# --- c. errors ---------------------------------------------------------------
"$PROG" --fleet "http://127.0.0.1:$DEAD" --json >"$T/e.json" 2>"$T/e.err"; rc=$?
[ "$rc" = 1 ] && [ ! -s "$T/e.json" ] && [ "$(grep -c . "$T/e.err")" = 1 ] && grep -q 'cannot reach' "$T/e.err" &&
	ok "fleet_error_unreachable ($(cat "$T/e.err"))" || bad fleet_error_unreachable "rc=$rc $(cat "$T/e.err")"
"$PROG" --fleet "http://127.0.0.1:$PORT_a" -b >"$T/e.txt" 2>"$T/e.err"; rc=$?
[ "$rc" = 1 ] && [ "$(grep -c . "$T/e.err")" = 1 ] && grep -q 'is not a Prometheus server' "$T/e.err" &&
	ok "fleet_error_not_prometheus ($(cat "$T/e.err"))" ||
	bad fleet_error_not_prometheus "rc=$rc $(cat "$T/e.err")"
"$PROG" --fleet "$PU" --fleet-match '{job="nothing-here"}' --json >"$T/e.json" 2>"$T/e.err"; rc=$?
[ "$rc" = 1 ] && grep -q 'no numatop series on' "$T/e.err" && ok fleet_error_no_series ||
	bad fleet_error_no_series "rc=$rc $(cat "$T/e.err")"
"$PROG" --fleet "$PU" --fleet-match '{job="x"} or vector(1)' -b >"$T/e.txt" 2>"$T/e.err"; rc=$?
[ "$rc" = 2 ] && grep -q 'not a PromQL label matcher' "$T/e.err" && ok fleet_error_bad_matcher ||
	bad fleet_error_bad_matcher "rc=$rc $(cat "$T/e.err")"
# Credentials from files only: a token file that cannot be read is said.
mkdir -p "$XDG_CONFIG_HOME/numatop-tui"
echo "fleet_token_file=$T/no-such-token" >"$XDG_CONFIG_HOME/numatop-tui/numatop-tuirc"
"$PROG" --fleet "$PU" -b >"$T/e.txt" 2>"$T/e.err"; rc=$?
[ "$rc" = 1 ] && grep -q "cannot read the bearer token file $T/no-such-token" "$T/e.err" && ok fleet_error_token_file ||
	bad fleet_error_token_file "rc=$rc $(cat "$T/e.err")"
# A token that can be read is sent (Prometheus ignores it): the table comes.
echo secret >"$T/token"
echo "fleet_token_file=$T/token" >"$XDG_CONFIG_HOME/numatop-tui/numatop-tuirc"
"$PROG" --fleet "$PU" -b >"$T/e.txt" 2>"$T/e.err"; rc=$?
[ "$rc" = 0 ] && [ "$(grep -c "^127.0.0.1:" "$T/e.txt")" -ge 3 ] && ok fleet_token_file_read ||
	bad fleet_token_file_read "rc=$rc $(cat "$T/e.err")"
rm -f "$XDG_CONFIG_HOME/numatop-tui/numatop-tuirc"


# --- f. the Fleet screen (the monitor, in tmux) ------------------------------
tui_init
# Host rows in order: the instances as the screen lists them.
rows() { screen | grep -o '^127\.0\.0\.1:[0-9]*' | tr '\n' ' '; }
# 120x40: every host, in the fleet's order (that of --json), each with the
# REMOTE and HOTREM cells of -b; the columns the issue names are there.
"$PROG" --fleet "$PU" --json >"$T/f.json" 2>/dev/null
"$PROG" --fleet "$PU" -b >"$T/f.txt" 2>/dev/null
want=$(python3 -c 'import json,sys; print(" ".join(h["instance"] for h in json.load(open(sys.argv[1]))["hosts"]) + " ")' "$T/f.json")
tui_start 120 40 "$PROG --fleet $PU -d 1; echo EXIT \$?; sleep 60"
wait_for "127.0.0.1:$PORT_c" 100
screen >"$T/s120"
r=$(rows)
if [ "$r" = "$want" ] && grep -q 'INSTANCE  *UP  *AGE  *REMOTE  *HOTREMv  *HOTSLOW  *PROMO/s  *DEMO/s  *HEAT  *WORST  *USED/NODE' "$T/s120" &&
	$X cells "$T/s120" "$T/f.txt" REMOTE >"$T/o" && $X cells "$T/s120" "$T/f.txt" HOTREM >>"$T/o"; then
	ok "fleet_screen_120x40 ($(tr '\n' ' ' <"$T/o"))"
else
	bad fleet_screen_120x40 "rows '$r' want '$want' $(cat "$T/o" "$T/s120")"
fi
# Enter on host a: its processes agree with --root TREE -b of its tree.
"$PROG" --root "$T/a" -b -n 1 >"$T/a.txt" 2>/dev/null
keys F4; keys C-u "$PORT_a" Enter
keys Enter
wait_for 'REMOTE, LAST HOUR' 100
sleep 0.5
screen >"$T/sa"
grep -q "host 127.0.0.1:$PORT_a (job numa)" "$T/sa" && $X drill "$T/sa" "$T/a.txt" >"$T/o" &&
	grep -q '^ NODE ' "$T/sa" && ok "fleet_screen_drill_down_as_batch ($(cat "$T/o"))" ||
	bad fleet_screen_drill_down_as_batch "$(cat "$T/o" "$T/sa")"
# Esc: back to the hosts (the filter still on: one row).
keys Escape
wait_for 'INSTANCE' 50
r=$(rows)
[ "$r" = "127.0.0.1:$PORT_a " ] && ok fleet_screen_esc_filter || bad fleet_screen_esc_filter "rows '$r' $(screen)"
keys F4; keys C-u Enter
wait_for "127.0.0.1:$PORT_c" 50
# Sort: > moves the sort to the next column (its header marked); I inverts.
keys '>'
screen | grep -q 'HOTSLOWv' && ok fleet_screen_sort_key || bad fleet_screen_sort_key "$(screen | head -3)"
keys '<'; keys I
r=$(rows)
rev=$(echo "$want" | tr ' ' '\n' | grep . | tac | tr '\n' ' ')
[ "$r" = "$rev" ] && ok fleet_screen_invert || bad fleet_screen_invert "rows '$r' want '$rev'"
keys I
# Search (/): the row of tiered2's host selected; l: the labels shown.
keys /; keys tiered2 Enter
keys l
wait_for 'tree=tiered2' 30 && screen | grep -q "LABELS" && ok fleet_screen_labels || bad fleet_screen_labels "$(screen | head -6)"
# t: a minute back (the title says the time); T: live again.
keys t
wait_for ' at 20' 50 && ok fleet_screen_time_back || bad fleet_screen_time_back "$(screen | head -2)"
keys T
wait_for ' live' 50 && ok fleet_screen_time_live || bad fleet_screen_time_live "$(screen | head -2)"
keys b; keys nonsense Enter
wait_for 'not a time: nonsense' 30 && ok fleet_screen_time_bad || bad fleet_screen_time_bad "$(screen | tail -3)"
keys F1
wait_for 'Fleet keys' 30 && screen | grep -q 'HOTREM  *the part of it' && ok fleet_screen_help ||
	bad fleet_screen_help "$(screen)"
keys q
wait_for 'Fleet  hosts' 30
# 80x24: the hosts, with REMOTE, HOTREM and WORST; nothing drawn past the edge.
tui_start 80 24 "NUMATOP_TEST_WRAPS=$T/wraps $PROG --fleet $PU -d 1; echo EXIT \$?; sleep 60"
wait_for "127.0.0.1:$PORT_c" 100
screen >"$T/s80"
r=$(rows)
[ "$r" = "$want" ] && grep -q 'INSTANCE  *UP  *AGE  *REMOTE  *HOTREMv.*WORST' "$T/s80" &&
	! grep -q '^wrap ' "$T/wraps" 2>/dev/null && $X cells "$T/s80" "$T/f.txt" REMOTE >"$T/o" &&
	ok "fleet_screen_80x24 ($(cat "$T/o"))" || bad fleet_screen_80x24 "rows '$r' $(cat "$T/s80" "$T/wraps" 2>/dev/null)"
keys Enter
wait_for 'COMMAND' 100 && screen | grep -q '^ *[0-9][0-9]* [a-z]' && ok fleet_screen_80x24_host || bad fleet_screen_80x24_host "$(screen)"
# --fleet alone: the settings file's fleet=URL.
mkdir -p "$T/cfgf/numatop-tui"
echo "fleet=$PU" >"$T/cfgf/numatop-tui/numatop-tuirc"
tmux kill-session -t "$S" 2>/dev/null
S=fleet-settings
tmux new-session -d -s "$S" -x 120 -y 30 -e XDG_CONFIG_HOME="$T/cfgf" "$PROG --fleet -d 1"
wait_for "127.0.0.1:$PORT_c" 100 && ok fleet_screen_settings_url || bad fleet_screen_settings_url "$(screen)"
XDG_CONFIG_HOME="$T/cfgf" "$PROG" --fleet -b >"$T/o" 2>&1 && grep -q "^127.0.0.1:$PORT_c" "$T/o" &&
	ok fleet_batch_settings_url || bad fleet_batch_settings_url "$(cat "$T/o")"
# Prometheus stopped under the screen: said (the table kept, said stale);
# started again on the same data: the screen recovers by itself.
kill -TERM "$PROM"; wait "$PROM" 2>/dev/null
wait_for 'cannot reach' 100 && screen | grep -q "127.0.0.1:$PORT_c" && ok fleet_screen_prometheus_stopped_said ||
	bad fleet_screen_prometheus_stopped_said "$(screen)"
keys Down
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/data" \
	--web.listen-address="127.0.0.1:$P" --query.lookback-delta=15s >>"$T/prometheus.log" 2>&1 &
PROM=$!; PIDS="$PIDS $PROM"
i=0
while [ $i -lt 120 ]; do
	screen | grep -q 'cannot reach\|stale' || break
	sleep 0.5; i=$((i + 1))
done
screen | grep -q 'cannot reach\|stale' && bad fleet_screen_prometheus_back "$(screen)" ||
	{ wait_for "127.0.0.1:$PORT_c" 100 && ok fleet_screen_prometheus_back || bad fleet_screen_prometheus_back "$(screen)"; }
tmux kill-session -t "$S" 2>/dev/null

# --- d. an exporter dies: its host is said, up 0; the others still read ----
# A stopped host's last sample is found at the query's 30 s steps over the
# last hour: the host is killed once one step has seen it (60 s at most).
i=0
while [ $i -lt 60 ]; do
	curl -s "$PU/api/v1/query" --data-urlencode \
		"query=max_over_time(timestamp(numatop_build_info{instance=\"127.0.0.1:$PORT_c\"})[1h:30s])" |
		grep -q '"value"' && break
	sleep 1; i=$((i + 1))
done
kill -TERM "$PID_c"; wait "$PID_c" 2>/dev/null
i=0
while [ $i -lt 60 ]; do
	"$PROG" --fleet "$PU" --json >"$T/d.json" 2>"$T/d.err"; rc=$?
	[ "$($X host "$T/d.json" "127.0.0.1:$PORT_c" up 2>/dev/null)" = 0 ] && break
	sleep 1; i=$((i + 1))
done
r="$($X host "$T/d.json" "127.0.0.1:$PORT_c" up) $($X host "$T/d.json" "127.0.0.1:$PORT_a" up)"
[ "$rc" = 0 ] && [ "$r" = "0 1" ] && grep -q "host 127.0.0.1:$PORT_c (job numa): its scrapes fail" "$T/d.err" &&
	ok "fleet_host_down_said ($(grep 'scrapes fail' "$T/d.err"))" || bad fleet_host_down_said "rc=$rc up $r $(cat "$T/d.err")"
tui_start 120 30 "$PROG --fleet $PU -d 1; echo EXIT \$?; sleep 60"
wait_for '1 host DOWN' 100 && screen | grep -q "^127.0.0.1:$PORT_c  *DOWN " && ok fleet_screen_host_down ||
	bad fleet_screen_host_down "$(screen)"
tmux kill-session -t "$S" 2>/dev/null

# A host that is no longer scraped (its target gone from the config):
# said, with the age of its last sample.
sed "/127.0.0.1:$PORT_c/,+1d" "$T/prometheus.yml" >"$T/p2.yml" && mv "$T/p2.yml" "$T/prometheus.yml"
kill -HUP "$PROM"
i=0
while [ $i -lt 60 ]; do
	"$PROG" --fleet "$PU" -b >"$T/g.txt" 2>"$T/g.err"; rc=$?
	grep -q "host 127.0.0.1:$PORT_c (job numa): no longer scraped" "$T/g.err" && break
	sleep 1; i=$((i + 1))
done
[ "$rc" = 0 ] && grep -q "host 127.0.0.1:$PORT_c (job numa): no longer scraped (last sample [0-9]" "$T/g.err" &&
	ok "fleet_host_gone_said ($(grep 'no longer' "$T/g.err"))" || bad fleet_host_gone_said "rc=$rc $(cat "$T/g.err")"

# --- e. retry and time limit, against a loopback server ------------------------
# fake MODE: the server started (FAKE its PID, FP its port; in this shell:
# PIDS must know it).
fake() {
	rm -f "$T/fake.port" "$T/fake.port.log"
	python3 "$T/fl.py" fake "$T/fake.port" "$1" >/dev/null 2>"$T/fake.err" &
	FAKE=$!; PIDS="$PIDS $FAKE"
	i=0
	while [ ! -s "$T/fake.port" ] && [ $i -lt 300 ] && kill -0 "$FAKE" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	FP=$(cat "$T/fake.port" 2>/dev/null)
}
fake flaky
"$PROG" --fleet "http://127.0.0.1:$FP" --json >"$T/r.json" 2>"$T/r.err"; rc=$?
r=$(cat "$T/fake.port.log" 2>/dev/null)
q=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["queries"])' "$T/r.json" 2>/dev/null)
[ "$rc" = 0 ] && [ -n "$q" ] && [ "$r" = "$((q * 2)) $q" ] && [ "$($X instances "$T/r.json")" = fake:1 ] &&
	ok "fleet_http_retry_once ($r: requests, queries)" || bad fleet_http_retry_once "rc=$rc requests/queries: $r ($q) $(cat "$T/r.err" "$T/fake.err")"
kill -TERM "$FAKE"; wait "$FAKE" 2>/dev/null
fake slow
echo "fleet_timeout=1" >"$XDG_CONFIG_HOME/numatop-tui/numatop-tuirc"
"$PROG" --fleet "http://127.0.0.1:$FP" -b >"$T/s.txt" 2>"$T/s.err"; rc=$?
[ "$rc" = 1 ] && [ "$(grep -c . "$T/s.err")" = 1 ] && grep -qi 'timed out' "$T/s.err" && [ ! -s "$T/s.txt" ] &&
	ok "fleet_http_time_limit ($(cat "$T/s.err"))" || bad fleet_http_time_limit "rc=$rc $(cat "$T/s.err" "$T/s.txt")"
rm -f "$XDG_CONFIG_HOME/numatop-tui/numatop-tuirc"
# The screen on the silent server: keys are answered meanwhile (the help
# opens, closes), and q ends it at once (the request under way cancelled,
# long before the server's 60 s).
tui_start 100 30 "$PROG --fleet http://127.0.0.1:$FP -d 1; echo EXIT \$?; sleep 60"
keys F1
wait_for 'Fleet keys' 30 && ok fleet_screen_slow_server_keys || bad fleet_screen_slow_server_keys "$(screen)"
keys q; keys q
wait_for 'EXIT 0' 150 && ok fleet_screen_slow_server_quit || bad fleet_screen_slow_server_quit "$(screen)"
tmux kill-session -t "$S" 2>/dev/null
kill -TERM "$FAKE"; wait "$FAKE" 2>/dev/null || :
fake garbage
tui_start 100 30 "$PROG --fleet http://127.0.0.1:$FP -d 1; echo EXIT \$?; sleep 60"
wait_for 'is not a Prometheus server' 100 && keys F1 && wait_for 'Fleet keys' 30 &&
	ok fleet_screen_garbage_server || bad fleet_screen_garbage_server "$(screen)"
tmux kill-session -t "$S" 2>/dev/null
kill -TERM "$FAKE"; wait "$FAKE" 2>/dev/null || :
