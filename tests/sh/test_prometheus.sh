#!/bin/sh
# The Prometheus exporter: --format prometheus / openmetrics and --serve.
#   a. promtool accepts the text format (recorded tree, live machine); the
#      OpenMetrics text has its structure (families without _total, # EOF)
#   b. exact values, worked out from the tree's own files
#   c. label escaping of a hostile process name
#   d. --metrics-top, --metrics-min-remote, --metrics-by comm
#   e. --serve: status codes, content types, HEAD, Accept's q, Host, %00
#      and NUL in the path, bodies never read, port in use, stdout lost,
#      signals
#   f. a real Prometheus server scraping --serve: exact values, the
#      dashboard's queries
#   g. hostile clients: slowloris, scrapes beside 8 and 64 slow clients,
#      10 000 requests, a 100 kB request line,
#      100 connections at once; sampling goes on meanwhile
#   h. the Grafana dashboard (contrib/grafana) queries existing metrics
#   i. docs/prometheus.md's metric table lists the families printed, with
#      their labels, and no other (the access heat's values:
#      test_prom_access.sh)
# Runs in about 60 s (Prometheus's start, the slowloris's 11 s, scrapes
# beside slow clients 7 s).
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
DASH=contrib/grafana/numatop-tui.json
. tests/sh/lib.sh
need python3 python3
need curl curl
need promtool prometheus
need prometheus prometheus
T=$(mktemp -d)
PIDS=""
cleanup() {
	for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# The saved measurement is ours (made in a.), never the user's.
XDG_CACHE_HOME=$T/cache
export XDG_CACHE_HOME
unset NUMATOP_TUI_ROOT
ESC=$(printf '\033')

cp tests/sh/lib_prom.py "$T/"
cat >"$T/expo.py" <<'PYEOF'
# expo.py CMD ARGS: the checks of test_prometheus.sh that want a parser or
# a socket (prometheus_client is not used: a small parser of the formats);
# freeport and promq are lib_prom.py's.
import http.client, json, math, os, re, socket, subprocess, sys, time
import urllib.parse, urllib.request
from lib_prom import cmd_freeport, cmd_promq, query

NAME = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*')
LNAME = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*')

def parse_sample(line):
    """name, {label: value}, value of a sample line; ValueError if malformed."""
    m = NAME.match(line)
    if not m:
        raise ValueError('no metric name')
    name, i, labels = m.group(0), m.end(), {}
    if i < len(line) and line[i] == '{':
        i += 1
        while True:
            if line[i] == '}':
                i += 1
                break
            m = LNAME.match(line, i)
            if not m or line[m.end():m.end() + 2] != '="':
                raise ValueError('bad label at %d' % i)
            key, i, val = m.group(0), m.end() + 2, []
            while line[i] != '"':
                if line[i] == '\\':
                    e = line[i + 1]
                    if e not in '\\"n':
                        raise ValueError('bad escape \\%s' % e)
                    val.append('\n' if e == 'n' else e)
                    i += 2
                else:
                    val.append(line[i])
                    i += 1
            i += 1
            if key in labels:
                raise ValueError('label %s twice' % key)
            labels[key] = ''.join(val)
            if line[i] == ',':
                i += 1
            elif line[i] != '}':
                raise ValueError('bad label separator at %d' % i)
    rest = line[i:]
    if not rest.startswith(' '):
        raise ValueError('no space before the value')
    parts = rest[1:].split(' ')
    if len(parts) not in (1, 2):
        raise ValueError('bad value %r' % rest)
    return name, labels, float(parts[0])

def samples(path):
    out = []
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f.read().split('\n'):
            if line and not line.startswith('#'):
                out.append(parse_sample(line))
    return out

def key(name, labels):
    return name + '{' + ','.join('%s=%r' % kv for kv in sorted(labels.items())) + '}'

def index(path):
    return {key(n, l): v for n, l, v in samples(path)}

def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))

def alive(pid):
    try:
        st = open('/proc/%d/stat' % int(pid)).read()
    except OSError:
        return False
    return st[st.rindex(')') + 2] not in 'ZX'

# --- the formats --------------------------------------------------------------

def cmd_om(path):
    """OpenMetrics 1.0 structure: TYPE and HELP per family, counter and info
    families named without _total / _info, samples named after their family
    and together, no blank line, "# EOF" last."""
    raw = open(path, 'rb').read()
    probs = []
    if not raw.endswith(b'\n# EOF\n'):
        probs.append('does not end with "# EOF": %r' % raw[-40:])
    lines = raw.decode('utf-8').split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if lines.count('# EOF') != 1:
        probs.append('"# EOF" %d times' % lines.count('# EOF'))
    fams, helps, cur, done = {}, set(), None, set()
    for n, line in enumerate(lines[:-1], 1):
        if line == '':
            probs.append('line %d: blank line' % n)
        elif line.startswith('#'):
            w = line.split(' ', 3)
            if len(w) < 4 or w[0] != '#' or w[1] not in ('TYPE', 'HELP', 'UNIT'):
                probs.append('line %d: bad comment %r' % (n, line))
                continue
            fam = w[2]
            if fam != cur:
                if fam in done:
                    probs.append('line %d: family %s split' % (n, fam))
                if cur:
                    done.add(cur)
                cur = fam
            if w[1] == 'HELP':
                helps.add(fam)
            if w[1] == 'TYPE':
                if fam in fams:
                    probs.append('line %d: TYPE of %s twice' % (n, fam))
                fams[fam] = w[3]
                if w[3] not in ('counter', 'gauge', 'info', 'stateset', 'unknown',
                                'histogram', 'gaugehistogram', 'summary'):
                    probs.append('line %d: type %r' % (n, w[3]))
                if w[3] == 'counter' and fam.endswith('_total'):
                    probs.append('line %d: counter family named with _total: %s' % (n, fam))
                if w[3] == 'info' and fam.endswith('_info'):
                    probs.append('line %d: info family named with _info: %s' % (n, fam))
        else:
            try:
                name, labels, v = parse_sample(line)
            except (ValueError, IndexError) as e:
                probs.append('line %d: %s: %r' % (n, e, line))
                continue
            t = fams.get(cur)
            want = {'counter': (cur + '_total', cur + '_created'),
                    'info': (cur + '_info',)}.get(t, (cur,))
            if name not in want:
                probs.append('line %d: sample %s in family %s (%s)' % (n, name, cur, t))
            if t == 'counter' and (v < 0 or math.isnan(v)):
                probs.append('line %d: counter value %s' % (n, v))
            if cur not in helps:
                probs.append('line %d: family %s has no HELP' % (n, cur))
    if 'counter' not in fams.values():
        probs.append('no counter family at all')
    for p in probs[:20]:
        print(p)
    return 1 if probs else 0

def cmd_samples(path, *skip):
    """Canonical "name{labels} value" lines; the families in skip left out."""
    for n, l, v in samples(path):
        if n not in skip:
            print('%s %r' % (key(n, l), v))
    return 0

def cmd_names(path):
    for n in sorted({n for n, l, v in samples(path)}):
        print(n)
    return 0

def cmd_value(path, name, *labels):
    """The value of the one sample NAME with exactly the labels k=v."""
    want = dict(a.split('=', 1) for a in labels)
    vals = [v for n, l, v in samples(path) if n == name and l == want]
    if len(vals) != 1:
        print('%d samples' % len(vals))
        return 1
    print(repr(vals[0]))
    return 0

def cmd_label(path, name, label):
    """LABEL of every sample of NAME, decoded, as JSON strings."""
    for n, l, v in samples(path):
        if n == name and label in l:
            print(json.dumps(l[label]))
    return 0

def cmd_count(path, name, *labels):
    """How many samples of NAME have the labels k=v (and maybe others)."""
    want = dict(a.split('=', 1) for a in labels)
    print(sum(1 for n, l, v in samples(path)
              if n == name and all(l.get(k) == v for k, v in want.items())))
    return 0

# --- expected values from the tree's files ------------------------------------

def cpulist(s):
    out = set()
    for part in s.strip().split(','):
        if part:
            a, _, b = part.partition('-')
            out.update(range(int(a), int(b or a) + 1))
    return out

def cmd_tree(tree, prom, jsonfile, what, min_remote='1048576'):
    got = index(prom)
    exp = {}
    nd = os.path.join(tree, 'sys/devices/system/node')
    nodes = sorted(int(d[4:]) for d in os.listdir(nd) if re.fullmatch(r'node\d+', d))
    if what == 'memory':
        fields = {'MemTotal:': 'total', 'MemFree:': 'free', 'FilePages:': 'file',
                  'AnonPages:': 'anon', 'Shmem:': 'shmem'}
        for n in nodes:
            for line in open('%s/node%d/meminfo' % (nd, n)):
                w = line.split()     # Node N Field: VALUE kB
                if len(w) >= 4 and w[2] in fields:
                    exp[key('numatop_node_memory_%s_bytes' % fields[w[2]],
                            {'node': str(n)})] = int(w[3]) * 1024
    elif what == 'distance':
        for n in nodes:
            row = open('%s/node%d/distance' % (nd, n)).read().split()
            for j, d in zip(nodes, row):
                exp[key('numatop_node_distance', {'node': str(n), 'to': str(j)})] = int(d)
    elif what == 'numastat':
        for n in nodes:
            for line in open('%s/node%d/numastat' % (nd, n)):
                k, v = line.split()
                exp[key('numatop_node_numa_events_total', {'node': str(n), 'type': k})] = int(v)
    elif what == 'cpu':
        hz = os.sysconf('SC_CLK_TCK')
        stat = {}
        for line in open(os.path.join(tree, 'proc/stat')):
            w = line.split()
            if re.fullmatch(r'cpu\d+', w[0]):
                stat[int(w[0][3:])] = [int(x) for x in w[1:9]]
        online = cpulist(open(os.path.join(tree, 'sys/devices/system/cpu/online')).read())
        modes = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal']
        for n in nodes:
            cpus = cpulist(open('%s/node%d/cpulist' % (nd, n)).read()) & online
            exp[key('numatop_node_cpus', {'node': str(n)})] = len(cpus)
            for m, mode in enumerate(modes):
                exp[key('numatop_node_cpu_seconds_total', {'node': str(n), 'mode': mode})] = \
                    sum(stat[c][m] for c in cpus) / hz
    elif what == 'process':
        j = json.load(open(jsonfile))
        exp[key('numatop_processes', {})] = len(j['processes'])
        exp[key('numatop_build_info', {'version': j['version']})] = 1
        below = 0
        for p in j['processes']:
            if p['numa_maps'] != 'ok':
                continue
            if p['remote_kb'] * 1024 <= int(min_remote):
                below += 1
                continue
            lab = {'pid': str(p['pid']), 'comm': p['comm'], 'user': p['user']}
            exp[key('numatop_process_remote_bytes', lab)] = p['remote_kb'] * 1024
            exp[key('numatop_process_remote_ratio', lab)] = \
                p['remote_kb'] / sum(p['node_kb'].values())
            for nid, kb in p['node_kb'].items():
                exp[key('numatop_process_memory_bytes', dict(lab, node=nid))] = kb * 1024
        exp[key('numatop_processes_below_min_remote', {})] = below
        # The host's sum counts every placed process, those below too.
        exp[key('numatop_remote_bytes', {})] = \
            sum(p['remote_kb'] * 1024 for p in j['processes'] if p['numa_maps'] == 'ok')
        for k in got:       # and no process sample that is not expected
            if k.startswith(('numatop_process_memory', 'numatop_process_remote', 'numatop_comm_')) \
                    and k not in exp:
                print('unexpected %s %r' % (k, got[k]))
                return 1
    bad = 0
    for k, v in sorted(exp.items()):
        if k not in got:
            print('missing %s (expected %r)' % (k, v))
            bad += 1
        elif not close(got[k], v):
            print('%s = %r, expected %r' % (k, got[k], v))
            bad += 1
    if not exp:
        print('nothing expected: the tree was not read')
        bad += 1
    return 1 if bad else 0

def cmd_comm(prom, jsonfile, min_remote, top='50'):
    """--metrics-by comm: the sums per command name and user of the
    processes whose placement was read, for the top groups above
    min_remote; the processes of the others counted; no other process or
    command sample."""
    got, exp, groups, below = index(prom), {}, {}, 0
    for p in json.load(open(jsonfile))['processes']:
        if p['numa_maps'] == 'ok':
            g = groups.setdefault((p['comm'], p['user']), {'n': 0, 'remote': 0, 'total': 0, 'node': {}})
            g['n'] += 1
            g['remote'] += p['remote_kb'] * 1024
            g['total'] += p['total_kb'] * 1024
            for nid, kb in p['node_kb'].items():
                g['node'][nid] = g['node'].get(nid, 0) + kb * 1024
    kept = sorted((g for g in groups.items() if g[1]['remote'] > int(min_remote)),
                  key=lambda g: (-g[1]['remote'], g[0]))
    below = sum(g['n'] for k, g in groups.items() if g['remote'] <= int(min_remote))
    for (comm, user), g in kept[:int(top)]:
        lab = {'comm': comm, 'user': user}
        exp[key('numatop_comm_processes', lab)] = g['n']
        exp[key('numatop_comm_remote_bytes', lab)] = g['remote']
        exp[key('numatop_comm_resident_bytes', lab)] = g['total']
        for nid, b in g['node'].items():
            exp[key('numatop_comm_memory_bytes', dict(lab, node=nid))] = b
    exp[key('numatop_processes_below_min_remote', {})] = below
    bad = ['unexpected %s %r' % (k, v) for k, v in got.items()
           if k.startswith(('numatop_comm_', 'numatop_process_')) and k not in exp]
    bad += ['missing %s (expected %r)' % (k, v) for k, v in exp.items() if k not in got]
    bad += ['%s = %r, expected %r' % (k, got[k], v) for k, v in exp.items()
            if k in got and not close(got[k], v)]
    for b in sorted(bad):
        print(b)
    print('%d groups, %d shown, %d processes below' % (len(groups), min(len(kept), int(top)), below),
          file=sys.stderr)
    return 1 if bad or not groups else 0

def cmd_doctable(md, have_meas, *proms):
    """docs/prometheus.md's metric table against the expositions: every
    family they hold is a row, with its type and its samples' labels in
    order; every row is in one of them (those with a measurement only when
    one was made)."""
    rows, bad = {}, []
    for line in open(md, encoding='utf-8'):
        cells = [c.strip() for c in line.strip().strip('|').split(' | ')]
        if line.startswith('| `') and len(cells) == 5:
            name = cells[0].strip('`')
            if not NAME.fullmatch(name):
                bad.append('a row that is not one family: %s' % cells[0])
                continue
            rows[name] = (cells[1], [l for l in cells[2].split(', ') if l], cells[3])
    seen = set()
    for path in proms:
        types = {}
        for line in open(path, encoding='utf-8', errors='surrogateescape'):
            if line.startswith('# TYPE '):
                _, _, name, t = line.split()
                types[name] = t
        for name, t in types.items():
            seen.add(name)
            if name not in rows:
                bad.append('%s: %s is not in the table' % (path, name))
            elif t != rows[name][0] and not (t == 'gauge' and rows[name][0] == 'info'):
                bad.append('%s: %s is a %s, the table says %s' % (path, name, t, rows[name][0]))
        for n, l, v in samples(path):
            if n in rows and list(l) != rows[n][1]:
                bad.append('%s: %s has labels %s, the table says %s' % (path, n, list(l), rows[n][1]))
    for name, (t, labels, when) in rows.items():
        if name not in seen and (have_meas == '1' or 'measurement' not in when):
            bad.append('%s is in the table, in no exposition' % name)
    for b in sorted(set(bad)):
        print(b)
    return 1 if bad or not rows else 0

def cmd_json(jsonfile, pid, field):
    for p in json.load(open(jsonfile))['processes']:
        if p['pid'] == int(pid):
            print(p[field])
            return 0
    return 1

# --- HTTP ---------------------------------------------------------------------

def get(port, req=b'GET /metrics HTTP/1.0\r\n\r\n', src='127.0.0.1', timeout=5):
    """The raw reply to REQ (the server closes: HTTP/1.0), or None."""
    s = socket.create_connection(('127.0.0.1', int(port)), timeout=timeout,
                                 source_address=(src, 0))
    try:
        s.sendall(req)
        d = b''
        while True:
            x = s.recv(65536)
            if not x:
                return d
            d += x
    finally:
        s.close()

def runs(seq):
    out = []
    for x in seq:
        if out and out[-1][0] == x:
            out[-1][1] += 1
        else:
            out.append([x, 1])
    return ' '.join(x if n == 1 else '%sx%d' % (x, n) for x, n in out)

def cmd_ready(port, pid):
    """Poll GET /metrics from the exporter's start until a 200 (10 s at most);
    prints what the requests got, e.g. "503x3 200"."""
    seq, t0 = [], time.time()
    while time.time() - t0 < 10:
        if not alive(pid):
            print('exited after: ' + runs(seq))
            return 1
        try:
            d = get(port)
        except ConnectionRefusedError:
            time.sleep(0.002)
            continue
        except OSError as e:
            seq.append(type(e).__name__)
            continue
        st = d.split(b' ')[1].decode() if d.startswith(b'HTTP/1.') else 'closed'
        seq.append(st)
        if st == '200':
            print(runs(seq))
            return 0
        time.sleep(0.002)
    print('no 200 in 10 s: ' + runs(seq))
    return 1

def cmd_http(port, method, path):
    """Status, headers and body length of one request."""
    d = get(port, ('%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
                   % (method, path)).encode())
    head, _, body = d.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    print('status ' + (lines[0].split(' ')[1] if lines[0].startswith('HTTP/1.') else 'none'))
    for h in lines[1:]:
        k, _, v = h.partition(':')
        print('%s: %s' % (k.strip().lower(), v.strip()))
    print('body %d' % len(body))
    return 0

def samples_total(port, src='127.0.0.9'):
    try:
        for line in get(port, src=src).decode('utf-8', 'replace').split('\n'):
            if line.startswith('numatop_samples_total '):
                return float(line.split()[1])
    except OSError:
        pass
    return -1

def curl(port, src='127.0.0.1'):
    """Code and seconds of a normal curl /metrics from address src."""
    r = subprocess.run(['curl', '-s', '-o', '/dev/null', '--interface', src, '--max-time', '10',
                        '-w', '%{http_code} %{time_total}', 'http://127.0.0.1:%s/metrics' % port],
                       capture_output=True, text=True)
    w = r.stdout.split()
    return (w[0] if w else '000'), (float(w[1]) if len(w) > 1 else 10.0)

def proc_status(pid, field):
    for line in open('/proc/%s/status' % pid):
        if line.startswith(field + ':'):
            return int(line.split()[1])
    return -1

# --- hostile clients ----------------------------------------------------------

class Slow:
    """A slowloris connection from address src: a partial request line,
    then one more byte at every poll."""
    def __init__(self, port, src):
        self.t0, self.closed = time.time(), None
        self.s = socket.socket()
        self.s.bind((src, 0))
        self.s.settimeout(5)
        try:
            self.s.connect(('127.0.0.1', int(port)))
            self.s.sendall(b'GET /metri')
        except OSError:
            self.closed = 0.0
        self.s.setblocking(False)

    def poll(self, send=True):
        if self.closed is not None:
            return
        try:
            if send:
                self.s.send(b'c')
            self.s.recv(4096)     # b'' (closed) or an answer (408, 400): the end
            self.closed = time.time() - self.t0
        except BlockingIOError:
            pass
        except OSError:
            self.closed = time.time() - self.t0

def cmd_slowloris(port, pid):
    seq = [samples_total(port)]
    other = [Slow(port, '127.0.0.2') for _ in range(20)]     # an attacker elsewhere
    time.sleep(1)
    for c in other:
        c.poll(send=False)
    print('other_scrape %s %.3f' % curl(port))
    same = [Slow(port, '127.0.0.1') for _ in range(20)]      # one on the scraper's address
    time.sleep(1)
    for c in same:
        c.poll(send=False)
    print('same_scrape %s %.3f' % curl(port))
    print('accepted other=%d same=%d' % (sum(c.closed is None for c in other),
                                         sum(c.closed is None for c in same)))
    end = same[0].t0 + 9        # a byte every 2 s, for 9 s after the last opened
    while time.time() < end:
        time.sleep(2)
        for c in other + same:
            c.poll()
        seq.append(samples_total(port))
    print('closed_at %.1f' % max([c.closed for c in other + same if c.closed is not None] or [0]))
    time.sleep(0.5)
    for c in other + same:
        c.poll(send=False)
    print('open_after_9s %d other=%d same=%d' % (
        sum(c.closed is None for c in other + same),
        sum(c.closed is None for c in other), sum(c.closed is None for c in same)))
    for c in other + same:
        c.s.close()
    time.sleep(0.5)
    print('after_scrape %s %.3f' % curl(port))
    seq.append(samples_total(port))
    print('samples ' + ' '.join('%d' % v for v in seq))
    return 0

class Trickle:
    """A slow client from address src that sends its request a byte a
    second and, when the server cuts it, connects again (as an attacker
    holding N connections does)."""
    def __init__(self, port, src):
        self.port, self.src, self.s, self.cuts = int(port), src, None, 0
        self.connect()

    def connect(self):
        self.s = socket.socket()
        self.s.bind((self.src, 0))
        self.s.settimeout(2)
        try:
            self.s.connect(('127.0.0.1', self.port))
            self.s.sendall(b'G')
        except OSError:
            pass
        self.s.setblocking(False)
        self.sent = 1
        self.last = time.time()

    def poll(self):
        try:
            if self.s.recv(4096) == b'':
                raise ConnectionResetError
        except BlockingIOError:
            if time.time() - self.last >= 1:     # 1 byte/s
                try:
                    self.s.send(b'GET /metrics HTTP/1.1\r\nHost: x\r\n'[self.sent % 30:][:1])
                    self.sent += 1
                    self.last = time.time()
                except OSError:
                    pass
            return
        except OSError:
            pass
        self.s.close()
        self.cuts += 1
        self.connect()

def cmd_slowscrape(port, pid, nscrapes='20', plan='1:8,2-9:64,1:64'):
    """Scrapes from 127.0.0.1 (curl, 3 s at most each) while slow clients
    are connected: for each "ADDRS:N" of plan, N of them spread over
    127.0.0.ADDRS. Prints a line a phase: "phase ADDRS:N ok=K of M ...",
    with the successes' time percentiles and how often the slow ones
    were cut."""
    nscrapes = int(nscrapes)
    for ph in plan.split(','):
        addrs, n = ph.split(':')
        a, _, b = addrs.partition('-')
        srcs = ['127.0.0.%d' % i for i in range(int(a), int(b or a) + 1)]
        slow = [Trickle(port, srcs[i % len(srcs)]) for i in range(int(n))]
        time.sleep(0.3)
        oks, tries, times, t0 = 0, 0, [], time.time()
        for i in range(nscrapes):
            if time.time() - t0 > 10 + 0.1 * nscrapes:     # a hang guard: the rest failed
                break
            tries += 1
            for c in slow:
                c.poll()
            r = subprocess.run(['curl', '-s', '-o', '/dev/null', '--max-time', '3',
                                '-w', '%{http_code} %{time_total} %{size_download}',
                                'http://127.0.0.1:%s/metrics' % port],
                               capture_output=True, text=True)
            w = r.stdout.split()
            if len(w) == 3 and w[0] == '200' and int(w[2]) > 1000:
                oks += 1
                times.append(float(w[1]))
            time.sleep(0.05)
        times.sort()
        pct = lambda p: times[min(len(times) - 1, int(p * len(times)))] if times else -1
        print('phase %s:%s ok=%d of %d tried=%d p50=%.4f p99=%.4f max=%.4f cuts=%d alive=%d' % (
            addrs, n, oks, nscrapes, tries, pct(0.5), pct(0.99), times[-1] if times else -1,
            sum(c.cuts for c in slow), int(alive(pid))))
        for c in slow:
            c.s.close()
        time.sleep(0.2)
    return 0

def cmd_many(port, pid):
    seq = [samples_total(port)]
    curl(port)
    rss0, thr = proc_status(pid, 'VmRSS'), proc_status(pid, 'Threads')
    codes, n, t0 = {}, 0, time.time()
    # 10 000 requests at least, and for 3 s at least (several samples at
    # -d 1: here 10 000 can take less than one), with a hang guard.
    while (n < 10000 or time.time() - t0 < 3) and time.time() - t0 < 60:
        c = http.client.HTTPConnection('127.0.0.1', int(port), timeout=10)
        try:
            for i in range(100):                     # keep-alive: 100 a connection
                c.request('GET', '/metrics')
                r = c.getresponse()
                r.read()
                codes[r.status] = codes.get(r.status, 0) + 1
                n += 1
        except (OSError, http.client.HTTPException) as e:
            codes[type(e).__name__] = codes.get(type(e).__name__, 0) + 1
            n += 1
        c.close()
        if n % 1000 == 0:
            thr = max(thr, proc_status(pid, 'Threads'))
    seq.append(samples_total(port))
    print('codes ' + ' '.join('%s=%d' % kv for kv in sorted(codes.items(), key=str)))
    print('rss_kb %d %d' % (rss0, proc_status(pid, 'VmRSS')))
    print('threads %d' % max(thr, proc_status(pid, 'Threads')))
    print('samples ' + ' '.join('%d' % v for v in seq))
    return 0

def cmd_longline(port, pid):
    s = socket.create_connection(('127.0.0.1', int(port)), timeout=10)
    res = 'closed'
    try:
        s.sendall(b'GET /' + b'a' * 100000 + b' HTTP/1.1\r\nHost: x\r\n\r\n')
    except OSError:
        pass
    try:
        d = s.recv(200)
        if d:
            res = d.split(b'\r\n')[0].decode('latin-1')
    except socket.timeout:
        res = 'no answer in 10 s'
    except OSError:
        pass
    s.close()
    print('longline %s' % res)
    print('after_scrape %s %.3f' % curl(port))
    return 0

def cmd_parallel(port, pid):
    seq, t0 = [samples_total(port)], time.time()
    socks = []           # a burst: 100 connections at once, each with a request
    for i in range(100):
        try:
            socks.append(socket.create_connection(('127.0.0.1', int(port)), timeout=10))
        except OSError:
            pass
    for s in socks:
        try:
            s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        except OSError:
            pass
    res = {}
    for s in socks:
        try:
            d = b''
            while True:
                x = s.recv(65536)
                if not x:
                    break
                d += x
            k = d.split(b' ')[1].decode() if d.startswith(b'HTTP/1.1 ') else \
                ('closed' if not d else 'garbage')
            if k == '200' and not d.endswith(b'\nnumatop_numa_maps_reads_total{kind="sampled"} 0\n'):
                k = 'truncated'
        except socket.timeout:
            k = 'hang'
        except OSError:
            k = 'closed'
        res[k] = res.get(k, 0) + 1
        s.close()
    print('burst ' + ' '.join('%s=%d' % kv for kv in sorted(res.items())))
    held = []            # 100 idle connections at once, held
    for i in range(100):
        try:
            held.append(socket.create_connection(('127.0.0.1', int(port)), timeout=10))
        except OSError:
            pass
    time.sleep(0.5)
    print('held_scrape_other %s %.3f' % curl(port, '127.0.0.9'))
    for s in held:
        s.close()
    time.sleep(0.5)
    print('after_scrape %s %.3f' % curl(port))
    time.sleep(max(0.0, t0 + 2.5 - time.time()))     # two samples at -d 1 at least
    seq.append(samples_total(port))
    print('samples ' + ' '.join('%d' % v for v in seq))
    return 0

# --- HTTP details --------------------------------------------------------------

def reply(port, req, wait_close=True):
    """(status, {header: value}, body) of the answer to the raw REQ; body
    None when the server did not close within 5 s (wait_close), status
    'none' when no answer came in 5 s."""
    s = socket.create_connection(('127.0.0.1', int(port)), timeout=5)
    d, closed = b'', False
    try:
        s.sendall(req)
        while wait_close or b'\r\n\r\n' not in d:
            x = s.recv(65536)
            if not x:
                closed = True
                break
            d += x
    except OSError:
        pass
    finally:
        s.close()
    head, sep, body = d.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    if not sep or not lines[0].startswith('HTTP/1.'):
        return 'none', {}, None
    hdr = {}
    for h in lines[1:]:
        k, _, v = h.partition(':')
        hdr[k.strip().lower()] = v.strip()
    return lines[0].split(' ')[1], hdr, body if closed else None

def cmd_details(port):
    """The answers to requests that were answered wrongly once: one line
    "NAME ok" or "NAME bad: why" each, then "checks N"."""
    n = [0]
    def check(name, good, why):
        n[0] += 1
        print('%s %s' % (name, 'ok' if good else 'bad: ' + why))
    def req(method, target, hdrs=b'Host: x\r\n', version=b'HTTP/1.1', body=b''):
        return (method + b' ' + target + b' ' + version + b'\r\n' + hdrs +
                b'Connection: close\r\n\r\n' + body)
    # The target: %00 (decoded to a NUL) and raw control bytes never
    # reach /metrics or / (they once ended the path there).
    for name, t, want in (('nul_escape', b'/metrics%00.txt', ('404',)),
                          ('nul_escape_end', b'/metrics%00', ('404',)),
                          ('nul_escape_root', b'/%00', ('404',)),
                          ('nul_raw', b'/metrics\x00x', ('400', '404')),
                          ('nul_raw_end', b'/metrics\x00', ('400', '404')),
                          ('nul_raw_query', b'/metrics?a\x00b', ('400', '404')),
                          ('ctl_raw', b'/metrics\x01', ('400', '404')),
                          ('del_raw', b'/metrics\x7f', ('400', '404')),
                          ('escaped_letter', b'/metri%63s', ('200',)),
                          ('query', b'/metrics?x=1', ('200',))):
        st = reply(port, req(b'GET', t))[0]
        check('target_' + name, st in want, '%r: %s, want %s' % (t, st, ' or '.join(want)))
    # HEAD: the Content-Length a GET's body has (a new sample may come
    # between the two: tried again).
    for name, t in (('metrics', b'/metrics'), ('root', b'/'), ('404', b'/nope')):
        for _ in range(5):
            st, hdr, body = reply(port, req(b'HEAD', t))
            st2, _, body2 = reply(port, req(b'GET', t))
            if body2 is not None and hdr.get('content-length') == str(len(body2)):
                break
        check('head_length_' + name, st == st2 and body == b'' and body2 and
              hdr.get('content-length') == str(len(body2)),
              'HEAD %s: %s Content-Length %s body %r; GET: %s, %s bytes' % (
                  t, st, hdr.get('content-length'), body, st2,
                  len(body2) if body2 is not None else None))
    # Accept: OpenMetrics only when named with a q above 0 and not below
    # the text format's.
    pq = ('application/openmetrics-text;version=1.0.0,application/openmetrics-text;'
          'version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1')
    for name, acc, want in (('om_q0', ['application/openmetrics-text;q=0'], 'prom'),
                            ('om_q0_spaces', ['application/openmetrics-text ; q=0.000'], 'prom'),
                            ('om_Q0', ['application/openmetrics-text;Q=0'], 'prom'),
                            ('om_q0_version', ['application/openmetrics-text;version=1.0.0;q=0, text/plain'], 'prom'),
                            ('om_below_text', ['application/openmetrics-text;q=0.1, text/plain;q=0.5'], 'prom'),
                            ('om_below_any', ['application/openmetrics-text;q=0.5, */*;q=0.9'], 'prom'),
                            ('om_bad_q', ['application/openmetrics-text;q=2'], 'prom'),
                            ('any', ['*/*'], 'prom'),
                            ('om_above_text', ['text/plain;q=0.5, application/openmetrics-text;q=0.6'], 'om'),
                            ('om', ['application/openmetrics-text'], 'om'),
                            ('om_case', ['Application/OpenMetrics-Text; version=1.0.0'], 'om'),
                            ('om_second_header', ['text/plain;q=0.1', 'application/openmetrics-text'], 'om'),
                            ('prometheus', [pq], 'om')):
        h = b'Host: x\r\n' + b''.join(b'Accept: ' + a.encode() + b'\r\n' for a in acc)
        st, hdr, _ = reply(port, req(b'GET', b'/metrics', h))
        ct = hdr.get('content-type', '')
        got = 'om' if ct.startswith('application/openmetrics-text') else \
              'prom' if ct.startswith('text/plain; version=0.0.4') else ct
        check('accept_' + name, st == '200' and got == want,
              'Accept %s: %s %s, want %s' % (acc, st, ct, want))
    # HTTP/1.1 needs one Host header; HTTP/1.0 none.
    for name, h, v, want in (('11_none', b'', b'HTTP/1.1', '400'),
                             ('11_twice', b'Host: a\r\nHost: b\r\n', b'HTTP/1.1', '400'),
                             ('11_one', b'Host: a\r\n', b'HTTP/1.1', '200'),
                             ('10_none', b'', b'HTTP/1.0', '200')):
        st = reply(port, req(b'GET', b'/metrics', h, v))[0]
        check('host_' + name, st == want, '%s with %r: %s, want %s' % (v, h, st, want))
    # A body is never waited for: the answer comes while the client has
    # sent a few bytes of a 1 GB or endless one.
    for name, m, h, b, want in (
            ('post_chunked', b'POST', b'Transfer-Encoding: chunked\r\n', b'5\r\nabcde\r\n', '405'),
            ('post_length', b'POST', b'Content-Length: 1000000000\r\n', b'abcde', '405'),
            ('put_chunked', b'PUT', b'Transfer-Encoding: chunked\r\n', b'5\r\nabcde\r\n', '405'),
            ('get_length', b'GET', b'Content-Length: 1000000000\r\n', b'abcde', '200')):
        st = reply(port, req(m, b'/metrics', b'Host: x\r\n' + h, body=b), False)[0]
        check('body_not_read_' + name, st == want, '%s with %s: %s, want %s (in 5 s, the body unsent)'
              % (m, h.strip(), st, want))
    print('checks %d' % n[0])
    return 0

# --- Prometheus and the dashboard ---------------------------------------------

def cmd_targets(url):
    r = json.load(urllib.request.urlopen(url + '/api/v1/targets', timeout=5))
    for t in r['data']['activeTargets']:
        print('%s %s lastError=%r' % (t['labels'].get('job'), t['health'], t['lastError']))
    return 0

MEASURED = ('numatop_node_latency_seconds', 'numatop_node_read_bandwidth_bytes_per_second',
            'numatop_measurement_timestamp_seconds')

def exprs(dash):
    out = []
    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == 'expr' and isinstance(v, str):
                    out.append(v)
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(json.load(open(dash)))
    return out

def cmd_exprnames(dash):
    """The numatop_ metric names of every expr of a Grafana dashboard."""
    names = set()
    for e in exprs(dash):
        names.update(re.findall(r'\bnumatop_[a-zA-Z0-9_:]*', e))
    for n in sorted(names):
        print(n)
    return 0 if names else 1

def cmd_dashq(url, dash):
    """Every expr of the dashboard, its variables set to match all, runs in
    Prometheus; those on sampled metrics return something."""
    bad, n = 0, 0
    for e in exprs(dash):
        q = e.replace('$__rate_interval', '1m').replace('$instance', '.*') \
             .replace('$node', '.*').replace('$job', '.*')
        n += 1
        try:
            res = query(url, q)
        except Exception as ex:
            print('%s: %s' % (e, ex))
            bad += 1
            continue
        if not res and not any(m in e for m in MEASURED):
            print('%s: no result' % e)
            bad += 1
    print('%d queries' % n)
    return 1 if bad else 0

def cmd_dashcheck(dash):
    """The dashboard's shape: a datasource variable every panel uses, an
    instance and a node variable, unique panel ids, a grid of 24."""
    d = json.load(open(dash))
    probs = []
    if not 30 <= d.get('schemaVersion', 0) <= 45:
        probs.append('schemaVersion %r' % d.get('schemaVersion'))
    vs = {v['name']: v for v in d['templating']['list']}
    ds = [v for v in vs.values() if v['type'] == 'datasource' and v.get('query') == 'prometheus']
    if len(ds) != 1:
        probs.append('no Prometheus datasource variable')
    for want in ('instance', 'node'):
        if want not in vs:
            probs.append('no %s variable' % want)
    dsref = {'type': 'prometheus', 'uid': '${%s}' % (ds[0]['name'] if ds else 'datasource')}
    ids = set()
    for p in d['panels']:
        if p['id'] in ids:
            probs.append('panel id %d twice' % p['id'])
        ids.add(p['id'])
        g = p['gridPos']
        if g['x'] + g['w'] > 24:
            probs.append('%s: wider than the grid' % p['title'])
        if p['type'] == 'row':
            continue
        if p.get('datasource') != dsref:
            probs.append('%s: datasource %r' % (p['title'], p.get('datasource')))
        for t in p.get('targets', []):
            if t.get('datasource') != dsref or not t.get('expr'):
                probs.append('%s: target %s' % (p['title'], t.get('refId')))
    for p in probs:
        print(p)
    return 1 if probs else 0

if __name__ == '__main__':
    sys.exit(globals()['cmd_' + sys.argv[1]](*sys.argv[2:]))
PYEOF
# The interpreter itself (not a wrapper such as pyenv's shim), without
# site-packages (only the standard library is used): it starts ~10x faster.
PY=$(python3 -c 'import sys; print(sys.executable)')
X="$PY -S $T/expo.py"

# alive PID: running (not gone, not a zombie waiting for us).
alive() {
	st=$(sed -n 's/^.*) \([A-Z]\) .*$/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
# stop PID [SIGNAL]: send SIGNAL (TERM), wait 30 s at most (a hang guard:
# a sanitized build's exit, its leak check included, on a loaded machine
# took over 10 s), then SIGKILL. STOP_RC: its exit status; STOP_HUNG=1
# when it was killed.
stop() {
	kill -"${2:-TERM}" "$1" 2>/dev/null
	i=0
	while [ $i -lt 300 ] && alive "$1"; do sleep 0.1; i=$((i + 1)); done
	STOP_HUNG=0
	if alive "$1"; then STOP_HUNG=1; kill -KILL "$1" 2>/dev/null; fi
	wait "$1"; STOP_RC=$?
	PIDS=$(echo " $PIDS " | sed "s/ $1 / /")
}
# serve_start NAME ARGS...: $PROG ARGS --serve 127.0.0.1:PORT on a free
# port (another one when it was taken meanwhile); SRV = its pid, READY =
# what the first requests got ("503x2 200"). Status 1 without a 200 in 10 s.
serve_start() {
	n=$1; shift
	for _ in 1 2 3 4 5; do
		PORT=$($X freeport)
		"$PROG" "$@" --serve "127.0.0.1:$PORT" >"$T/$n.out" 2>"$T/$n.err" &
		SRV=$!; PIDS="$PIDS $SRV"
		READY=$($X ready "$PORT" "$SRV") && return 0
		stop "$SRV"
		grep -q 'Address already in use' "$T/$n.err" || return 1
	done
	return 1
}
# promcheck NAME FILE: promtool check metrics says nothing and exits 0.
promcheck() {
	promtool check metrics <"$2" >"$T/promtool.out" 2>&1; rc=$?
	[ -s "$2" ] || echo "$2 is empty" >>"$T/promtool.out"
	[ $rc -eq 0 ] && [ ! -s "$T/promtool.out" ] && ok "$1" || bad "$1" "rc=$rc $(head -20 "$T/promtool.out")"
}
# same NAME A B: the numbers a and b are equal.
same() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 == b + 0) }'; }
# incr SEQ...: every "samples a b c" line has strictly increasing values.
incr() {
	printf '%s\n' "$@" | awk 'NF < 3 { bad = 1 } { for (i = 2; i <= NF; i++) if ($i < 0 || (i > 2 && $i <= $(i - 1))) bad = 1; n++ }
		END { exit bad || n == 0 }'
}
# field FILE KEY: the rest of the line "KEY ..." of FILE.
field() { sed -n "s/^$2 //p" "$1" | head -1; }

# --- a. the formats -------------------------------------------------------
"$PROG" --root "$TREE" --format prometheus -n 1 >"$T/tree.prom" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ -s "$T/tree.prom" ] && [ ! -s "$T/err" ] && ok prom_tree_runs || bad prom_tree_runs "rc=$rc $(cat "$T/err")"
promcheck promtool_tree "$T/tree.prom"
# The tiered tree: each node's tier, the tiers' order (fast -> slow) and
# HMAT latency, SLOW per process (100: 64 MiB bound to the slow node).
"$PROG" --root tests/trees/tiered2 --format prometheus -n 1 >"$T/tiers.prom" 2>"$T/err"
promcheck promtool_tiers "$T/tiers.prom"
r="$(field "$T/tiers.prom" 'numatop_node_memory_tier{node="1"}') $(field "$T/tiers.prom" 'numatop_tier_order{tier="67"}')"
r="$r $(field "$T/tiers.prom" 'numatop_tier_read_latency_seconds{tier="67"}')"
r="$r $(field "$T/tiers.prom" 'numatop_process_slow_tier_bytes{pid="100",comm="slowbound",user="alice"}')"
[ "$r" = "67 1 3e-07 67108864" ] && ok prom_tiers || bad prom_tiers "got '$r'"
# The live machine, with a saved measurement (latency and bandwidth families).
"$PROG" --measure-quick >"$T/measure.out" 2>&1; mrc=$?
"$PROG" --format prometheus -n 1 >"$T/live.prom" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ -s "$T/live.prom" ] && [ ! -s "$T/err" ] && ok prom_live_runs || bad prom_live_runs "rc=$rc $(cat "$T/err")"
promcheck promtool_live "$T/live.prom"
if [ $mrc -eq 0 ]; then
	grep -q '^numatop_node_latency_seconds{node="0",to="0"} [0-9]' "$T/live.prom" &&
		grep -q '^numatop_node_read_bandwidth_bytes_per_second{node="0",to="0"} [0-9]' "$T/live.prom" &&
		grep -q '^numatop_measurement_timestamp_seconds [0-9]' "$T/live.prom" &&
		ok prom_live_measurement || bad prom_live_measurement "$(grep -E 'latency|bandwidth|measurement' "$T/live.prom")"
else
	echo "SKIP prom_live_measurement: --measure-quick failed: $(tail -1 "$T/measure.out")"
fi
"$PROG" --root "$TREE" --format openmetrics -n 1 >"$T/tree.om" 2>"$T/err"; rc=$?
"$PROG" --root "$TREE" --openmetrics -n 1 >"$T/tree2.om" 2>>"$T/err"; rc2=$?
"$PROG" --format openmetrics -n 1 >"$T/live.om" 2>>"$T/err"; rc3=$?
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] && [ ! -s "$T/err" ] && ok om_runs || bad om_runs "rc=$rc/$rc2/$rc3 $(cat "$T/err")"
[ "$(tail -1 "$T/tree.om")" = "# EOF" ] && [ "$(tail -1 "$T/live.om")" = "# EOF" ] && ok om_ends_with_eof \
	|| bad om_ends_with_eof "$(tail -2 "$T/tree.om")"
nc=$(grep -c '^# TYPE [^ ]* counter$' "$T/tree.om")
grep '^# TYPE [^ ]*_total counter$' "$T/tree.om" "$T/live.om" >"$T/o"
[ "$nc" -ge 5 ] && [ ! -s "$T/o" ] && ok "om_counter_families_without_total ($nc counters)" \
	|| bad om_counter_families_without_total "$nc counter families; $(cat "$T/o")"
for f in tree live; do
	$X om "$T/$f.om" >"$T/o" 2>&1 && ok "om_structure_$f" || bad "om_structure_$f" "$(cat "$T/o")"
done
# The same samples in both formats (but the run's own cost).
SELF="numatop_scrape_duration_seconds numatop_sample_cpu_seconds_total"
$X samples "$T/tree.prom" $SELF >"$T/s1" 2>&1
$X samples "$T/tree.om" $SELF >"$T/s2" 2>&1
$X samples "$T/tree2.om" $SELF >"$T/s3" 2>&1
[ -s "$T/s1" ] && cmp -s "$T/s1" "$T/s2" && cmp -s "$T/s2" "$T/s3" && ok om_same_samples_as_prom \
	|| bad om_same_samples_as_prom "$(diff "$T/s1" "$T/s2"; diff "$T/s2" "$T/s3")"

# --- b. exact values on the tree ---------------------------------------
"$PROG" --root "$TREE" --json -n 1 >"$T/tree.json" 2>&1
for w in memory distance numastat cpu process; do
	$X tree "$TREE" "$T/tree.prom" "$T/tree.json" $w >"$T/o" 2>&1 && ok "tree_exact_$w" || bad "tree_exact_$w" "$(cat "$T/o")"
done
# The three values f. asks Prometheus for, worked out here once.
FREE1=$(( $(awk '$3 == "MemFree:" { print $4 }' "$TREE/sys/devices/system/node/node1/meminfo") * 1024 ))
DIST02=$(awk '{ print $3 }' "$TREE/sys/devices/system/node/node0/distance")
REM1000=$(( $($X json "$T/tree.json" 1000 remote_kb) * 1024 ))
v1=$($X value "$T/tree.prom" numatop_node_memory_free_bytes node=1)
v2=$($X value "$T/tree.prom" numatop_node_distance node=0 to=2)
v3=$($X value "$T/tree.prom" numatop_process_remote_bytes pid=1000 comm=dbserver user=alice)
same "$v1" "$FREE1" && same "$v2" "$DIST02" && same "$v3" "$REM1000" && ok "tree_exact_spot ($FREE1 $DIST02 $REM1000)" \
	|| bad tree_exact_spot "free node1 $v1 (want $FREE1), distance 0->2 $v2 (want $DIST02), remote pid 1000 $v3 (want $REM1000)"

# MemUsed of a node, in bytes, and in the JSON as kB (a node field's row).
USED1=$(( $(awk '$3 == "MemUsed:" { print $4 }' "$TREE/sys/devices/system/node/node1/meminfo") * 1024 ))
v=$($X value "$T/tree.prom" numatop_node_memory_used_bytes node=1)
j=$("$PROG" --root "$TREE" --json -n 1 | grep -o '{"id":1,[^}]*"mem_used_kb":[0-9]*' | sed 's/.*://')
same "$v" "$USED1" && [ "$((j * 1024))" = "$USED1" ] && ok "tree_exact_mem_used ($USED1)" ||
	bad tree_exact_mem_used "node 1 MemUsed: prometheus $v, JSON $j kB (want $USED1 bytes)"

# --- c. label escaping --------------------------------------------------
cp -r "$TREE" "$T/esc"
name=$(printf 'db"q\\z\033[2Jx')
rest=$(sed 's/^[0-9]* ([^)]*) //' "$TREE/proc/1000/stat")
printf '1000 (%s) %s\n' "$name" "$rest" >"$T/esc/proc/1000/stat"
{ printf 'Name:\t%s\n' "$name"; sed 1d "$TREE/proc/1000/status"; } >"$T/esc/proc/1000/status"
"$PROG" --root "$T/esc" --format prometheus -n 1 >"$T/esc.prom" 2>"$T/err"
"$PROG" --root "$T/esc" --openmetrics -n 1 >"$T/esc.om" 2>>"$T/err"
[ ! -s "$T/err" ] && grep -q '^numatop_process_remote_bytes{pid="1000",' "$T/esc.prom" && ok escape_runs \
	|| bad escape_runs "$(cat "$T/err"; grep remote_bytes "$T/esc.prom")"
promcheck escape_promtool "$T/esc.prom"
$X om "$T/esc.om" >"$T/o" 2>&1 && ok escape_om_structure || bad escape_om_structure "$(cat "$T/o")"
LC_ALL=C grep -q "$ESC" "$T/esc.prom" "$T/esc.om" && bad escape_no_raw_esc "$(LC_ALL=C grep "$ESC" "$T/esc.prom" | od -c | head)" \
	|| ok escape_no_raw_esc
# The label holds the name as the monitor shows it (ESC as \x1b, so a
# backslash as \\), written with \" and \\ escapes.
line=$(grep '^numatop_process_remote_bytes{pid="1000",' "$T/esc.prom")
lab=$($X label "$T/esc.prom" numatop_process_remote_bytes comm | sed -n 1p)
case $line in
*'comm="db\"q\\'*) grep -qF 'comm="db\"q\\' "$T/esc.om" && [ "$lab" = '"db\"q\\\\z\\x1b[2Jx"' ] && ok escape_label_value \
	|| bad escape_label_value "decoded (JSON): $lab; want \"db\\\"q\\\\\\\\z\\\\x1b[2Jx\"; $line" ;;
*) bad escape_label_value "$line" ;;
esac

# --- d. --metrics-top ------------------------------------------------------
"$PROG" --root "$TREE" --format prometheus -n 1 --metrics-top 1 >"$T/top1.prom" 2>&1
n=$($X count "$T/top1.prom" numatop_process_remote_bytes)
n1=$($X count "$T/top1.prom" numatop_process_remote_bytes pid=1000)
nm=$(grep -c '^numatop_process_memory_bytes{pid="1000",' "$T/top1.prom")
no=$(grep '^numatop_process_' "$T/top1.prom" | grep -vc '^numatop_process_[a-z_]*{pid="1000",')
[ "$n" = 1 ] && [ "$n1" = 1 ] && [ "$nm" = 4 ] && [ "$no" = 0 ] && ok metrics_top_1 \
	|| bad metrics_top_1 "$n remote_bytes samples, $n1 of pid 1000, $nm memory samples; $(grep '^numatop_process_' "$T/top1.prom")"
promcheck metrics_top_1_promtool "$T/top1.prom"
"$PROG" --root "$TREE" --format prometheus -n 1 --metrics-top 0 >"$T/top0.prom" 2>&1
n=$(grep -c '^numatop_process_' "$T/top0.prom")
[ "$n" = 0 ] && grep -q '^numatop_node_memory_free_bytes{node="1"}' "$T/top0.prom" && ok metrics_top_0 \
	|| bad metrics_top_0 "$(grep '^numatop_process_' "$T/top0.prom" | head)"
promcheck metrics_top_0_promtool "$T/top0.prom"
n=$($X count "$T/tree.prom" numatop_process_remote_bytes)
[ "$n" = 2 ] && ok "metrics_top_default ($n processes)" ||
	bad metrics_top_default "$n remote_bytes samples (3 processes have numa_maps, 2 above 1 MiB remote)"

# --- d2. --metrics-min-remote, --metrics-by comm ------------------------------
# The default threshold, 1 MiB: only processes with more remote memory get
# series (tree_exact_process checks which); the others are counted. At or
# below a threshold is out, one byte or 1K less is in: in bytes and with a
# suffix, on the tree's own numbers.
below=$($X value "$T/tree.prom" numatop_processes_below_min_remote)
R2000=$($X json "$T/tree.json" 2000 remote_kb)
mr=""
for a in "${R2000}K out" "$((R2000 - 1))K in" "$((R2000 * 1024)) out" "$((R2000 * 1024 - 1)) in" "0 in"; do
	"$PROG" --root "$TREE" --format prometheus -n 1 --metrics-min-remote "${a% *}" >"$T/mr.prom" 2>"$T/err"
	n=$($X count "$T/mr.prom" numatop_process_remote_bytes pid=2000)
	case "${a#* }:$n" in out:0 | in:1) ;; *) mr="$mr [--metrics-min-remote ${a% *}: pid 2000 ${a#* }, $n samples $(cat "$T/err")]" ;; esac
done
same "$below" 1 && [ -n "$R2000" ] && [ -z "$mr" ] && ok "metrics_min_remote_threshold (pid 2000: $R2000 kB remote)" ||
	bad metrics_min_remote_threshold "below=$below (want 1: pid 4242's 352 kB)$mr"
promcheck metrics_min_remote_promtool "$T/mr.prom"
# A process with no remote memory never gets series (this machine: every
# process, when it has one node), however low the threshold.
"$PROG" --format prometheus -n 1 --metrics-min-remote 0 --metrics-top 100000 >"$T/mr0.prom" 2>"$T/err"
z=$(grep -c '^numatop_process_remote_bytes{.*} 0$' "$T/mr0.prom")
[ "$z" = 0 ] && grep -q '^numatop_processes_below_min_remote [0-9]' "$T/mr0.prom" && [ ! -s "$T/err" ] &&
	ok "metrics_min_remote_no_zero_series ($(field "$T/mr0.prom" numatop_processes_below_min_remote) below)" ||
	bad metrics_min_remote_no_zero_series "$z processes at 0 remote bytes; $(cat "$T/err")"
# --metrics-by comm on a tree where two processes share a command name and
# user (sums) and a third the name only (a group of its own): the sums, the
# threshold and --metrics-top on the groups, no pid series.
cp -r "$TREE" "$T/comm"
for p in 2000 4242; do
	rest=$(sed 's/^[0-9]* ([^)]*) //' "$TREE/proc/$p/stat")
	printf '%s (dbserver) %s\n' "$p" "$rest" >"$T/comm/proc/$p/stat"
	sed 's/^Name:.*/Name:\tdbserver/' "$TREE/proc/$p/status" >"$T/comm/proc/$p/status"
done
sed 's/^Uid:.*/Uid:\t1000\t1000\t1000\t1000/' "$TREE/proc/2000/status" | sed 's/^Name:.*/Name:\tdbserver/' >"$T/comm/proc/2000/status"
"$PROG" --root "$T/comm" --json -n 1 >"$T/comm.json" 2>&1
cm=""
for a in "1048576 50" "0 50" "0 1"; do
	"$PROG" --root "$T/comm" --format prometheus -n 1 --metrics-by comm --metrics-min-remote "${a% *}" \
		--metrics-top "${a#* }" >"$T/comm.prom" 2>"$T/err"
	$X comm "$T/comm.prom" "$T/comm.json" $a >"$T/o" 2>"$T/o2" || cm="$cm [min ${a% *} top ${a#* }: $(cat "$T/o" "$T/err")]"
	[ "$a" = "0 50" ] && cp "$T/comm.prom" "$T/comm0.prom" && sh0=$(cat "$T/o2")
done
[ -z "$cm" ] && grep -q '^numatop_comm_processes{comm="dbserver",user="alice"} 2$' "$T/comm0.prom" &&
	ok "metrics_by_comm ($sh0)" || bad metrics_by_comm "$cm $(grep '^numatop_comm_processes' "$T/comm0.prom")"
promcheck metrics_by_comm_promtool "$T/comm0.prom"
# Its labels escaped as the pid series' are.
"$PROG" --root "$T/esc" --format prometheus -n 1 --metrics-by comm --metrics-min-remote 0 >"$T/escc.prom" 2>&1
labc=$($X label "$T/escc.prom" numatop_comm_remote_bytes comm | sort | grep x1b)
[ -n "$labc" ] && [ "$labc" = "$lab" ] && ok metrics_by_comm_escaped || bad metrics_by_comm_escaped "$labc (pid series: $lab)"
promcheck metrics_by_comm_escaped_promtool "$T/escc.prom"

# --- e. --serve -----------------------------------------------------------
if ! serve_start srv --root "$TREE" -d 1; then
	bad serve_starts "$READY; $(cat "$T/srv.out" "$T/srv.err")"
	exit 1
fi
U=http://127.0.0.1:$PORT
grep -q "^numatop-tui: serving http://127.0.0.1:$PORT/metrics" "$T/srv.out" && ok serve_starts \
	|| bad serve_starts "$(cat "$T/srv.out")"
# Before the first sample: 503 (a fast sample may leave no time for one).
case $READY in
200|503*' 200') ok "serve_503_until_first_sample ($READY)" ;;
*) bad serve_503_until_first_sample "the first requests got: $READY" ;;
esac
r=$(curl -s --max-time 10 -o "$T/srv.prom" -w '%{http_code}|%{content_type}' "$U/metrics")
case $r in
'200|text/plain; version=0.0.4'*) ok serve_metrics_200 ;;
*) bad serve_metrics_200 "$r" ;;
esac
promcheck serve_promtool "$T/srv.prom"
$X names "$T/tree.prom" >"$T/n1" 2>&1
$X names "$T/srv.prom" >"$T/n2" 2>&1
[ -s "$T/n1" ] && cmp -s "$T/n1" "$T/n2" && ok serve_same_families || bad serve_same_families "$(diff "$T/n1" "$T/n2")"
VARY="$SELF numatop_samples_total numatop_numa_maps_reads_total"
$X samples "$T/tree.prom" $VARY >"$T/s1" 2>&1
$X samples "$T/srv.prom" $VARY >"$T/s2" 2>&1
cmp -s "$T/s1" "$T/s2" && ok serve_same_values || bad serve_same_values "$(diff "$T/s1" "$T/s2" | head)"
r=$(curl -s --max-time 10 -H 'Accept: application/openmetrics-text; version=1.0.0' -o "$T/srv.om" -w '%{http_code}|%{content_type}' "$U/metrics")
case $r in
'200|application/openmetrics-text'*) [ "$(tail -1 "$T/srv.om")" = "# EOF" ] && ok serve_openmetrics || bad serve_openmetrics "$(tail -2 "$T/srv.om")" ;;
*) bad serve_openmetrics "$r" ;;
esac
$X om "$T/srv.om" >"$T/o" 2>&1 && ok serve_om_structure || bad serve_om_structure "$(cat "$T/o")"
$X samples "$T/srv.om" $VARY >"$T/s3" 2>&1
cmp -s "$T/s2" "$T/s3" && ok serve_om_same_values || bad serve_om_same_values "$(diff "$T/s2" "$T/s3" | head)"
r=$(curl -s --max-time 10 -o "$T/o" -w '%{http_code}' "$U/")
[ "$r" = 200 ] && [ -s "$T/o" ] && ok serve_root || bad serve_root "$r $(cat "$T/o")"
r=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' "$U/nope")
[ "$r" = 404 ] && ok serve_404 || bad serve_404 "$r"
$X http "$PORT" POST /metrics >"$T/o" 2>&1
grep -qx 'status 405' "$T/o" && grep -q '^allow: .*GET' "$T/o" && ok serve_post_405_allow || bad serve_post_405_allow "$(cat "$T/o")"
$X http "$PORT" DELETE /metrics >"$T/o" 2>&1
grep -qx 'status 405' "$T/o" && ok serve_delete_405 || bad serve_delete_405 "$(cat "$T/o")"
$X http "$PORT" HEAD /metrics >"$T/o" 2>&1
grep -qx 'status 200' "$T/o" && grep -qx 'body 0' "$T/o" && grep -q '^content-type: text/plain; version=0.0.4' "$T/o" \
	&& ok serve_head || bad serve_head "$(cat "$T/o")"
# The target (%00, raw NUL), HEAD's length, Accept's q, Host, a body
# never read: one PASS or FAIL each.
$X details "$PORT" >"$T/details" 2>&1; rc=$?
while read -r name verdict why; do
	case $name in checks) continue ;; esac
	[ "$verdict" = ok ] && ok "serve_$name" || bad "serve_$name" "$why"
done <"$T/details"
n=$(field "$T/details" checks)
[ $rc -eq 0 ] && isnum "$n" && [ "$(grep -c ' ok$' "$T/details")" -eq "$n" ] && ok "serve_details_all ($n)" \
	|| bad serve_details_all "$(tail -3 "$T/details")"
# The port in use: the default address (127.0.0.1) and the one given.
timeout 10 "$PROG" --root "$TREE" --serve "$PORT" -d 1 >"$T/o" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "cannot listen on 127.0.0.1 port $PORT: Address already in use" "$T/o" && ok serve_port_in_use \
	|| bad serve_port_in_use "rc=$rc $(cat "$T/o")"
alive "$SRV" && ok serve_survives_second_bind || bad serve_survives_second_bind
# The "serving" line lost (stdout /dev/full or closed): exit 1 and a
# message, as every other mode (timeout: a hang guard, it used to serve on).
for m in devfull closed; do
	P3=$($X freeport)
	if [ $m = devfull ]; then
		timeout 10 "$PROG" --root "$TREE" --serve "127.0.0.1:$P3" -d 1 >/dev/full 2>"$T/o"; rc=$?
	else
		timeout 10 "$PROG" --root "$TREE" --serve "127.0.0.1:$P3" -d 1 >&- 2>"$T/o"; rc=$?
	fi
	[ $rc -eq 1 ] && grep -q 'writing to standard output failed' "$T/o" && ok "serve_stdout_lost_$m" \
		|| bad "serve_stdout_lost_$m" "rc=$rc $(cat "$T/o")"
done

# --- f. a real Prometheus scraping --serve ----------------------------
P2=$($X freeport)
PU=http://127.0.0.1:$P2
cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 5s
  scrape_timeout: 5s
  evaluation_interval: 1s
scrape_configs:
  - job_name: numatop
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/data" \
	--web.listen-address="127.0.0.1:$P2" >"$T/prometheus.log" 2>&1 &
PROM=$!; PIDS="$PIDS $PROM"
i=0; v=
while [ $i -lt 120 ] && alive "$PROM"; do
	v=$($X promq "$PU" 'numatop_node_memory_free_bytes{node="1"}') && break
	sleep 0.5; i=$((i + 1))
done
if same "$v" "$FREE1"; then
	ok "prom_server_scrapes ($((i / 2)) s)"
	ok prom_free_node1
	r=$($X promq "$PU" 'up{job="numatop"}')
	[ "$r" = 1 ] && ok prom_up || bad prom_up "$r; $($X targets "$PU")"
	$X targets "$PU" >"$T/o" 2>&1
	grep -qx "numatop up lastError=''" "$T/o" && ok prom_target_healthy || bad prom_target_healthy "$(cat "$T/o")"
	r=$($X promq "$PU" 'numatop_process_remote_bytes{pid="1000"}')
	same "$r" "$REM1000" && ok prom_remote_pid1000 || bad prom_remote_pid1000 "$r, want $REM1000"
	r=$($X promq "$PU" 'numatop_node_distance{node="0",to="2"}')
	same "$r" "$DIST02" && ok prom_distance_0_2 || bad prom_distance_0_2 "$r, want $DIST02"
	# Prometheus asks for OpenMetrics: its counters keep the _total name.
	r=$($X promq "$PU" 'numatop_node_cpu_seconds_total{node="1",mode="user"}')
	w=$($X value "$T/tree.prom" numatop_node_cpu_seconds_total node=1 mode=user)
	same "$r" "$w" && ok prom_cpu_counter || bad prom_cpu_counter "$r, want $w"
	r=$($X promq "$PU" 'numatop_build_info')
	[ "$r" = 1 ] && ok prom_build_info || bad prom_build_info "$r"
	# The dashboard's queries are PromQL that Prometheus runs (two
	# scrapes at least for the rates: asked again for up to 60 s; a
	# scrape is given 5 s, which a loaded machine may need).
	i=0
	while ! $X dashq "$PU" "$DASH" >"$T/o" 2>&1 && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
	$X dashq "$PU" "$DASH" >"$T/o" 2>&1 && ok "dashboard_queries_run ($(tail -1 "$T/o"))" \
		|| bad dashboard_queries_run "$(cat "$T/o")"
else
	bad prom_server_scrapes "no numatop_node_memory_free_bytes{node=\"1\"} = $FREE1 in 60 s: $v
$($X targets "$PU" 2>&1)
$(tail -5 "$T/prometheus.log")"
fi
t_attack=$(date +%s)

# --- g. hostile clients (Prometheus keeps scraping meanwhile) ---------
$X slowloris "$PORT" "$SRV" >"$T/slow" 2>&1
set -- $(field "$T/slow" other_scrape)
[ "$1" = 200 ] && same "$(awk -v t="$2" 'BEGIN { print (t <= 5) }')" 1 && ok "slowloris_scrape_other_address ($2 s)" \
	|| bad slowloris_scrape_other_address "20 slow connections from 127.0.0.2; curl from 127.0.0.1: code $1 in $2 s
$(cat "$T/slow")"
# A client trickling a byte every 2 s (under the idle timeout) is cut 5 s
# after it connected: no slot is held for longer.
set -- $(field "$T/slow" open_after_9s)
c=$(field "$T/slow" closed_at)
[ "$1" = 0 ] && same "$(awk -v t="$c" 'BEGIN { print (t >= 4 && t <= 9.5) }')" 1 && ok "slowloris_closed_by_server (after ${c} s)" \
	|| bad slowloris_closed_by_server "still open after 9 s: $1; last closed after $c s
$(cat "$T/slow")"
# 20 slow connections on the scraper's own address (a reverse proxy's
# 127.0.0.1) do not lock it out.
set -- $(field "$T/slow" same_scrape)
[ "$1" = 200 ] && ok "slowloris_scrape_same_address ($2 s)" \
	|| bad slowloris_scrape_same_address "20 slow connections from 127.0.0.1; curl from there: code $1 in $2 s
$(cat "$T/slow")"
set -- $(field "$T/slow" after_scrape)
[ "$1" = 200 ] && ok slowloris_recovers || bad slowloris_recovers "code $1 after the slow connections closed"
S1=$(grep '^samples ' "$T/slow")

# Scrapes keep succeeding while slow clients (a byte a second, connecting
# again when cut) hold 8 connections on the scraper's address, 64 on 8
# others, then 64 on its own: 19 of 20 at least each time (curl gives
# each 3 s; one takes milliseconds).
$X slowscrape "$PORT" "$SRV" >"$T/slowscrape" 2>&1
for ph in 1:8 2-9:64 1:64; do
	r=$(field "$T/slowscrape" "phase $ph")
	n=$(echo "$r" | sed -n 's/^ok=\([0-9]*\) .*/\1/p')
	isnum "$n" && [ "$n" -ge 19 ] && ok "slow_clients_scrapes_$ph ($r)" \
		|| bad "slow_clients_scrapes_$ph" "$(cat "$T/slowscrape")"
done

$X many "$PORT" "$SRV" >"$T/many" 2>&1
r=$(field "$T/many" codes)
case $r in
'200='*[!0-9]*|'200=') bad many_requests_all_200 "$r $(cat "$T/many")" ;;
'200='*) [ "${r#200=}" -ge 10000 ] && ok "many_requests_all_200 ($r)" || bad many_requests_all_200 "$r $(cat "$T/many")" ;;
*) bad many_requests_all_200 "$r $(cat "$T/many")" ;;
esac
set -- $(field "$T/many" rss_kb)
if ldd "$PROG" 2>/dev/null | grep -q 'libasan'; then
	echo "SKIP many_requests_rss: sanitizer build (its quarantine keeps freed memory: $1 -> $2 kB)"
else
	[ -n "$2" ] && [ "$2" -gt 0 ] && [ "$2" -lt $(($1 * 2 + 10240)) ] && ok "many_requests_rss ($1 -> $2 kB)" \
		|| bad many_requests_rss "VmRSS $1 kB before, $2 kB after"
fi
r=$(field "$T/many" threads)
[ -n "$r" ] && [ "$r" -gt 0 ] && [ "$r" -lt 10 ] && ok "many_requests_threads ($r)" || bad many_requests_threads "Threads: $r"
S2=$(grep '^samples ' "$T/many")

$X longline "$PORT" "$SRV" >"$T/long" 2>&1
r=$(field "$T/long" longline)
case $r in
'HTTP/1.'*' 414 '*|'HTTP/1.'*' 400 '*|'HTTP/1.'*' 431 '*|closed) ok "longline_rejected ($r)" ;;
*) bad longline_rejected "$r" ;;
esac
set -- $(field "$T/long" after_scrape)
[ "$1" = 200 ] && ok longline_still_answers || bad longline_still_answers "code $1"

$X parallel "$PORT" "$SRV" >"$T/par" 2>&1
r=$(field "$T/par" burst)
case " $r" in
*garbage*|*truncated*|*hang*|' ') bad parallel_burst "$r" ;;
*' 200='*) ok "parallel_burst ($r)" ;;
*) bad parallel_burst "no 200 at all: $r" ;;
esac
set -- $(field "$T/par" held_scrape_other)
[ "$1" = 200 ] && ok parallel_held_other_client || bad parallel_held_other_client "100 idle connections from 127.0.0.1; curl from 127.0.0.9: code $1"
set -- $(field "$T/par" after_scrape)
[ "$1" = 200 ] && ok parallel_still_answers || bad parallel_still_answers "code $1"
S3=$(grep '^samples ' "$T/par")
alive "$SRV" && ok serve_survives_attacks || bad serve_survives_attacks "$(cat "$T/srv.err")"
incr "$S1" "$S2" "$S3" && ok "sampling_goes_on ($(echo $S1 | cut -d' ' -f2) -> $(echo $S3 | awk '{ print $NF }'))" \
	|| bad sampling_goes_on "numatop_samples_total during the attacks: $S1 / $S2 / $S3"

# Did Prometheus (on 127.0.0.1 too) get every scrape meanwhile?
sleep 1
d=$(( $(date +%s) - t_attack ))
r=$($X promq "$PU" "min_over_time(up{job=\"numatop\"}[${d}s])")
c=$($X promq "$PU" "count_over_time(up{job=\"numatop\"}[${d}s])")
[ "$r" = 1 ] && ok "prom_up_during_attacks ($c scrapes in $d s)" \
	|| bad prom_up_during_attacks "min up over the $d s of attacks: $r ($c scrapes)"
stop "$PROM"
[ $STOP_HUNG -eq 0 ] && ok prom_server_stops || bad prom_server_stops "Prometheus needed SIGKILL"

# Signals: a clean stop, status 0.
stop "$SRV" TERM
[ $STOP_HUNG -eq 0 ] && [ $STOP_RC -eq 0 ] && ok serve_sigterm || bad serve_sigterm "rc=$STOP_RC hung=$STOP_HUNG $(cat "$T/srv.err")"
for sig in INT HUP; do
	if serve_start sig --root "$TREE" -d 1; then
		stop "$SRV" $sig
		[ $STOP_HUNG -eq 0 ] && [ $STOP_RC -eq 0 ] && ok "serve_sig$sig" || bad "serve_sig$sig" "rc=$STOP_RC hung=$STOP_HUNG"
	else
		bad "serve_sig$sig" "did not start: $READY $(cat "$T/sig.err")"
	fi
done

# --- h. the Grafana dashboard ---------------------------------------------
python3 -m json.tool "$DASH" >/dev/null 2>"$T/o" && ok dashboard_json || bad dashboard_json "$(cat "$T/o")"
$X dashcheck "$DASH" >"$T/o" 2>&1 && ok dashboard_shape || bad dashboard_shape "$(cat "$T/o")"
# Every metric it queries is in the tree's exposition; the latency and
# bandwidth families only come with a saved measurement (live machine).
$X names "$T/live.prom" >"$T/n3" 2>&1
$X exprnames "$DASH" >"$T/dn" 2>&1
miss=; live=
while read -r m; do
	if grep -qx "$m" "$T/n1"; then :
	elif grep -qx "$m" "$T/n3"; then live="$live $m"
	else miss="$miss $m"
	fi
done <"$T/dn"
[ -s "$T/dn" ] && [ -z "$miss" ] && ok "dashboard_metrics_exist ($(wc -l <"$T/dn") names, $(echo $live | wc -w) only with a measurement)" \
	|| bad dashboard_metrics_exist "not in the exposition:$miss"

# --- i. the documented families ---------------------------------------------
# docs/prometheus.md's table (generated from the program's family table)
# against what the exporter prints: the tree, per pid and per command, the
# tree with DAMON's access heat (tests/sh/damon_tree.sh; its values are
# test_prom_access.sh's), and the live machine with a measurement.
. tests/sh/damon_tree.sh
cp -r "$TREE" "$T/dm" && damon_tree "$T/dm"
"$PROG" --root "$T/dm" --format prometheus -n 1 >"$T/dm.prom" 2>&1
"$PROG" --root "$T/dm" --format prometheus -n 1 --metrics-by comm >"$T/dmc.prom" 2>&1
$X doctable docs/prometheus.md "$([ $mrc -eq 0 ] && echo 1 || echo 0)" "$T/tree.prom" "$T/comm0.prom" \
	"$T/live.prom" "$T/dm.prom" "$T/dmc.prom" >"$T/o" 2>&1 && ok "docs_metric_table ($(grep -c '^| `numatop_' docs/prometheus.md) families)" ||
	bad docs_metric_table "$(head -20 "$T/o")"
