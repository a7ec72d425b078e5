#!/bin/sh
# Hostile input: copies of the 4-node Opteron tree broken on purpose, plus
# a few live runs, and what the program must still do.
#  - Special files (FIFO with no writer, /dev/urandom and /dev/zero
#    character devices, a UNIX socket) in place of each file the program
#    reads: no hang (timeout 10), no signal; a per-process file gives
#    valid JSON (a special numa_maps: "numa_maps":"error"); a node/system
#    file gives exit 1 or 0, and stderr or the warnings name the file or
#    say "not a regular file". SIGTERM ends a run blocked on a FIFO.
#  - A numa_maps over the 64 MiB cap: "error", "too large".
#  - Node ids 2147483647 and 100000000 under ulimit -v 400000: exit 0, a
#    "node id" warning, nodes 0-3 still there.
#  - stat counters at INT64_MAX / UINT64_MAX: rss_kb null, nothing
#    negative or wrapped.
#  - Pages on node 999 (not in the topology): unknown_node_kb, not in
#    remote_kb, one "node 999" warning.
#  - Unparsable N<id>= counts: numa_maps_warnings >= 1, still "ok".
#  - Huge pages of unknown size: huge_kb null; kernelpagesize_kB=0 pages
#    are not counted.
#  - An unreadable /proc/PID/stat (as nobody): a warning naming it.
#  - -u nosuchuser: exit 2, "no such user".
#  - stdout lost (/dev/full, closed): non-zero exit and a message.
#  - The detail screen of a process with a 50 MB numa_maps: VmHWM < 64 MB.
# Runs of the special-file cases go in parallel (a hang costs 10 s once).
PROG=${PROG:-./numatop-tui}
BASE=tests/trees/opteron4
. tests/sh/lib.sh
need python3 python3
need timeout coreutils
need mkfifo coreutils
need mknod coreutils
N=sys/devices/system/node
SP=1000                         # the process whose files are broken
T=$(mktemp -d /tmp/numatop-hostile-input.XXXXXX)
chmod 755 "$T"                  # nobody reads a copy below it (check 8)
SLEEPER=""; bgp=""
export XDG_CACHE_HOME="$T/cache"   # --measure-quick saves there
cleanup() {
	[ -n "$SLEEPER" ] && kill "$SLEEPER" 2>/dev/null
	for p in $bgp; do kill "$p" 2>/dev/null; done
	TMUX_TMPDIR="$T" tmux kill-server 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The pyenv shim costs 0.6 s a start; the system python is the same json.
PY=python3; [ -x /usr/bin/python3 ] && PY=/usr/bin/python3

# The binary may be missing for a moment while someone rebuilds it.
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
waitprog() {
	i=0; while [ ! -x "$prog" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
}
waitprog
[ -x "$prog" ] || { echo "FAIL hostile_input_setup: $PROG missing"; exit 1; }
# pr ARGS...: the program under the hang guard (TO seconds, 10); status
# 124 = hang. Redirections of the call apply to the program.
pr() { waitprog; timeout "${TO:-10}" "$prog" "$@"; }
# An ASAN build reserves terabytes of address space: no ulimit -v then.
ASAN=""; grep -q __asan_init "$prog" 2>/dev/null && ASAN=1
# Sanitized runs start slowly, and 48 of them at once take about 20 s: the
# hang guard (only a guard) is longer there.
[ -n "$ASAN" ] && TO=${TO:-60}

# fresh DIR: DIR/t is a new copy of the tree.
fresh() { rm -rf "$1"; mkdir -p "$1"; cp -r "$BASE" "$1/t"; }

cat >"$T/j.py" <<'EOF'
import json, sys
path, expr = sys.argv[1], sys.argv[2]
try:
    d = json.loads(open(path, encoding="utf-8").read())
    assert isinstance(d, dict), "not an object"
except Exception as e:
    print("invalid JSON: %s" % e)
    sys.exit(2)
def P(pid):
    for p in d.get("processes") or []:
        if p.get("pid") == pid:
            return p
    return {}
W = "\n".join(str(w) for w in (d.get("warnings") or []))
def neg(x):
    if isinstance(x, bool):
        return False
    if isinstance(x, (int, float)):
        return x < 0
    if isinstance(x, dict):
        return any(neg(v) for v in x.values())
    if isinstance(x, list):
        return any(neg(v) for v in x)
    return False
def isint(x):
    return isinstance(x, int) and not isinstance(x, bool)
r = eval(expr)
if len(sys.argv) > 3:
    print(r if not isinstance(r, (dict, list)) else json.dumps(r))
sys.exit(0 if r or len(sys.argv) > 3 else 1)
EOF
# jt FILE EXPR: EXPR (python; d = the JSON, P(pid) = a process or {}, W =
# the warnings, one a line) is true. Invalid JSON: status 2, said.
jt() { $PY "$T/j.py" "$1" "$2"; }
# jv FILE EXPR: print EXPR's value.
jv() { $PY "$T/j.py" "$1" "$2" print; }
# jd FILE PID: what a failure shows: rc, stderr, that process, warnings.
jd() {
	echo "rc=$(cat "${1%.out}.rc" 2>/dev/null) stderr: $(head -c 300 "${1%.out}.err" 2>/dev/null)"
	jv "$1" "[P($2), d.get('warnings')]" 2>&1 | head -c 1500
}
# run DIR ARGS...: the program on DIR/t, DIR.out/.err/.rc.
run() { d=$1; shift; pr --root "$d/t" "$@" >"$d.out" 2>"$d.err"; echo $? >"$d.rc"; }
rcof() { cat "$1.rc"; }
# rcwhy RC: "" for an ordinary exit, else why it is a failure.
rcwhy() {
	case $1 in
	124) echo "hang (timeout)" ;;
	137) echo "hang, and killed with SIGKILL" ;;
	12[5-7]) echo "could not run (status $1)" ;;
	*) [ "$1" -gt 128 ] && echo "killed by signal $(($1 - 128))" ;;
	esac
}

# The untouched tree: the numbers the checks compare with.
fresh "$T/base"; run "$T/base" --json -n 1
jt "$T/base.out" 'P(1000).get("numa_maps") == "ok"' >/dev/null ||
	{ echo "FAIL hostile_input_setup: the untouched tree does not give JSON"; jd "$T/base.out" 1000 | sed 's/^/    /'; exit 1; }
BASE_REMOTE_1000=$(jv "$T/base.out" 'P(1000)["remote_kb"]')
BASE_TOTAL_2000=$(jv "$T/base.out" 'P(2000)["total_kb"]')

# ---------------------------------------------------------------- 1
# Special files: 12 files x 4 kinds, each in its own copy, all at once.
FILES="node0_meminfo:$N/node0/meminfo node0_distance:$N/node0/distance
node0_cpulist:$N/node0/cpulist node0_numastat:$N/node0/numastat
cpu_online:sys/devices/system/cpu/online proc_stat:proc/stat
proc_meminfo:proc/meminfo proc_vmstat:proc/vmstat pid_stat:proc/$SP/stat
pid_status:proc/$SP/status pid_cmdline:proc/$SP/cmdline
pid_numa_maps:proc/$SP/numa_maps"
KINDS="fifo chr_urandom chr_zero socket"
mkdir "$T/s"
socks=""
for k in $KINDS; do
	for e in $FILES; do
		tag=${e%%:*}; f=${e#*:}; d=$T/s/${k}_$tag
		fresh "$d"; rm -f "$d/t/$f"
		case $k in
		fifo) mkfifo "$d/t/$f" ;;
		chr_urandom) mknod "$d/t/$f" c 1 9 ;;
		chr_zero) mknod "$d/t/$f" c 1 5 ;;
		socket) socks="$socks $d/t/$f" ;;
		esac
	done
done
# shellcheck disable=SC2086
$PY -c '
import os, socket, sys
for p in sys.argv[1:]:
    os.chdir(os.path.dirname(p))
    socket.socket(socket.AF_UNIX).bind(os.path.basename(p))
' $socks || echo "FAIL special_socket_setup: python3 could not bind the sockets"
# A blocked read and SIGTERM: with the hang still there, TERM after 1 s
# must end it (status 124); still alive 5 s later = 137 (SIGKILL).
fresh "$T/s/sigterm"; rm "$T/s/sigterm/t/proc/meminfo"; mkfifo "$T/s/sigterm/t/proc/meminfo"
( timeout -k 5 -s TERM 1 "$prog" --root "$T/s/sigterm/t" --json -n 1 >"$T/s/sigterm.out" 2>"$T/s/sigterm.err"
  echo $? >"$T/s/sigterm.rc" ) &
bgp="$bgp $!"
for k in $KINDS; do
	for e in $FILES; do
		d=$T/s/${k}_${e%%:*}
		# An endless device read into a growing buffer stops at 600 MB
		# (48 runs at once), not at the machine's memory.
		( [ -z "$ASAN" ] && ulimit -v 600000; run "$d" --json -n 1 ) &
		bgp="$bgp $!"
	done
done
# shellcheck disable=SC2086
wait $bgp; bgp=""

for k in $KINDS; do
	for e in $FILES; do
		tag=${e%%:*}; f=${e#*:}; d=$T/s/${k}_$tag; name=special_${k}_$tag
		rc=$(rcof "$d"); why=$(rcwhy "$rc")
		if [ -n "$why" ]; then bad "$name: $why" "$(head -c 300 "$d.err")"; continue; fi
		case $tag in
		pid_*)
			msg=$(jt "$d.out" 'isinstance(d.get("processes"), list)')
			case $? in
			2) bad "$name: no valid JSON" "rc=$rc $msg; stderr: $(head -c 300 "$d.err")"; continue ;;
			1) bad "$name: JSON without processes" "$(jd "$d.out" $SP)"; continue ;;
			esac
			if [ "$tag" = pid_numa_maps ]; then
				jt "$d.out" "P($SP).get('numa_maps') == 'error'" >/dev/null && ok "$name" ||
					bad "$name: process $SP not \"numa_maps\":\"error\"" "$(jd "$d.out" $SP)"
			else
				ok "$name"
			fi ;;
		*)
			# The path as the program may say it: its last two parts.
			short=$(echo "$f" | awk -F/ '{ print $(NF - 1) "/" $NF }')
			said=$(cat "$d.err"; jt "$d.out" True >/dev/null 2>&1 && jv "$d.out" 'W')
			if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
				bad "$name: exit status $rc (0 with a warning or 1 with a message)" "$(head -c 300 "$d.err")"
			elif [ "$rc" -eq 0 ] && ! jt "$d.out" 'True' >/dev/null; then
				bad "$name: exit 0 without valid JSON" "$(jt "$d.out" True; head -c 300 "$d.err")"
			elif ! printf '%s\n' "$said" | grep -qiF -e "$short" -e "not a regular file"; then
				bad "$name: neither stderr nor the warnings name $short or say \"not a regular file\"" \
					"rc=$rc; said: $(printf '%s' "$said" | head -c 400)"
			else
				ok "$name"
			fi ;;
		esac
	done
done
rc=$(rcof "$T/s/sigterm")
case $rc in
0|1|124) ok special_fifo_sigterm_ends_run ;;
*) bad "special_fifo_sigterm_ends_run: $(rcwhy "$rc") (status $rc; SIGTERM 1 s in)" "$(head -c 300 "$T/s/sigterm.err")" ;;
esac
rm -rf "$T/s"

# ---------------------------------------------------------------- 2
# A numa_maps of ~70 MB (over the 64 MiB cap) of valid lines.
LINE='7f0000000000 default anon=1 dirty=1 N0=1 kernelpagesize_kB=4'
LLEN=$((${#LINE} + 1))
d=$T/big; fresh "$d"
yes "$LINE" | head -n $((70000000 / LLEN + 1)) >"$d/t/proc/$SP/numa_maps"
TO=30; run "$d" --json -n 1; TO=10
rc=$(rcof "$d"); why=$(rcwhy "$rc")
if [ -n "$why" ]; then
	bad "numa_maps_70MB_over_cap: $why" "$(head -c 300 "$d.err")"
elif ! jt "$d.out" "P($SP).get('numa_maps') == 'error'" >/dev/null; then
	bad "numa_maps_70MB_over_cap: process $SP not \"numa_maps\":\"error\"" "$(jd "$d.out" $SP)"
else
	ok numa_maps_70MB_over_cap
fi
jt "$d.out" "'too large' in (str(P($SP).get('numa_maps_error') or '') + W).lower()" >/dev/null &&
	ok numa_maps_70MB_too_large_said ||
	bad "numa_maps_70MB_too_large_said: neither numa_maps_error nor a warning says \"too large\"" "$(jd "$d.out" $SP)"
rm -rf "$d"

# ---------------------------------------------------------------- 3
# A node directory with a huge id, in 400 MB of address space.
for id in 2147483647 100000000; do
	name=huge_node_id_$id
	if [ -n "$ASAN" ]; then echo "SKIP $name: ASAN build (ulimit -v)"; continue; fi
	d=$T/nid$id; fresh "$d"; cp -r "$d/t/$N/node3" "$d/t/$N/node$id"
	( ulimit -v 400000; run "$d" --json -n 1 )
	rc=$(rcof "$d"); why=$(rcwhy "$rc")
	if [ -n "$why" ]; then bad "$name: $why" "$(head -c 300 "$d.err")"
	elif [ "$rc" -ne 0 ]; then bad "$name: exit status $rc" "$(head -c 300 "$d.err")"
	elif ! jt "$d.out" '{0, 1, 2, 3} <= {n.get("id") for n in d.get("nodes") or []}' >/dev/null; then
		bad "$name: nodes 0-3 not all listed" "$(jv "$d.out" '[n.get("id") for n in d.get("nodes") or []]' 2>&1)"
	elif ! jt "$d.out" '"node id" in W' >/dev/null; then
		bad "$name: no warning with \"node id\"" "$(jv "$d.out" 'd.get("warnings")' 2>&1)"
	else ok "$name"
	fi
	rm -rf "$d"
done

# ---------------------------------------------------------------- 4
# stat's rss (field 24) at INT64_MAX; status without VmRSS (which would
# be used instead): rss_kb unknown, nothing negative.
d=$T/rss; fresh "$d"
awk '{ $24 = "9223372036854775807"; print }' "$BASE/proc/$SP/stat" >"$d/t/proc/$SP/stat"
grep -v '^VmRSS:' "$BASE/proc/$SP/status" >"$d/t/proc/$SP/status"
run "$d" --json -n 1
rc=$(rcof "$d"); why=$(rcwhy "$rc")
if [ -n "$why" ] || [ "$rc" -ne 0 ]; then bad "stat_rss_int64_max: ${why:-exit status $rc}" "$(head -c 300 "$d.err")"
elif ! jt "$d.out" "P($SP).get('pid') == $SP and 'rss_kb' in P($SP) and P($SP)['rss_kb'] is None" >/dev/null; then
	bad "stat_rss_int64_max: rss_kb not null" "$(jd "$d.out" $SP)"
elif jt "$d.out" "neg(P($SP))" >/dev/null; then
	bad "stat_rss_int64_max: a negative number" "$(jd "$d.out" $SP)"
else ok stat_rss_int64_max
fi
# utime (field 14) at UINT64_MAX: JSON and text without a negative or
# wrapped number. stime alone is 82012 ticks (13:40.12): a TIME below
# that has wrapped (utime + stime mod 2^64 = 13:40.11); "-" (unknown) or
# a saturated value is fine.
d=$T/utime; fresh "$d"
awk '{ $14 = "18446744073709551615"; print }' "$BASE/proc/$SP/stat" >"$d/t/proc/$SP/stat"
run "$d" --json -n 1
rc=$(rcof "$d"); why=$(rcwhy "$rc")
txt=$(pr --root "$d/t" -b -n 1 -p $SP -o PID,TIME,RSS 2>&1); trc=$?
row=$(printf '%s\n' "$txt" | grep -E "^ +$SP ")
if [ -n "$why" ] || [ "$rc" -ne 0 ]; then bad "stat_utime_uint64_max: ${why:-exit status $rc}" "$(head -c 300 "$d.err")"
elif ! jt "$d.out" "P($SP).get('pid') == $SP and not neg(P($SP))" >/dev/null; then
	bad "stat_utime_uint64_max: process missing or a negative number" "$(jd "$d.out" $SP)"
elif [ $trc -ne 0 ] || [ -z "$row" ] || printf '%s\n' "$row" | grep -q -- '-[0-9]'; then
	bad "stat_utime_uint64_max: text (-o PID,TIME,RSS) status $trc, row '$row'" "$txt"
elif printf '%s\n' "$row" | awk '$2 ~ /^[0-9]+:[0-9][0-9]\.[0-9][0-9]$/ { split($2, a, ":"); if (a[1] * 60 + a[2] < 820.12) exit 0 } { exit 1 }'; then
	bad "stat_utime_uint64_max: TIME wrapped (below stime alone, 13:40.12)" "$row"
else ok stat_utime_uint64_max
fi
rm -rf "$T/rss" "$T/utime"

# ---------------------------------------------------------------- 5
# 100 pages (4 kB) on node 999, which the topology does not have.
d=$T/n999; fresh "$d"
sed -i 's/^\(00a08000 default heap .*\) kernelpagesize_kB=4$/\1 N999=100 kernelpagesize_kB=4/' "$d/t/proc/$SP/numa_maps"
grep -q N999=100 "$d/t/proc/$SP/numa_maps" || echo "FAIL unknown_node_999_setup: sed found no heap line"
run "$d" --json -n 1
rc=$(rcof "$d"); why=$(rcwhy "$rc")
if [ -n "$why" ] || [ "$rc" -ne 0 ]; then
	bad "unknown_node_999: ${why:-exit status $rc}" "$(head -c 300 "$d.err")"
else
	jt "$d.out" "P($SP).get('unknown_node_kb') == 400" >/dev/null && ok unknown_node_999_kb ||
		bad "unknown_node_999_kb: unknown_node_kb is not 400" "$(jv "$d.out" "P($SP).get('unknown_node_kb', 'missing')" 2>&1)"
	jt "$d.out" "P($SP).get('remote_kb') == $BASE_REMOTE_1000" >/dev/null && ok unknown_node_999_not_remote ||
		bad "unknown_node_999_not_remote: remote_kb $(jv "$d.out" "P($SP).get('remote_kb')" 2>&1), without N999 $BASE_REMOTE_1000"
	jt "$d.out" "len([w for w in d.get('warnings') or [] if 'node 999' in str(w)]) == 1" >/dev/null &&
		ok unknown_node_999_warned_once ||
		bad "unknown_node_999_warned_once: not exactly one warning with \"node 999\"" "$(jv "$d.out" 'd.get("warnings")' 2>&1)"
fi
rm -rf "$d"

# ---------------------------------------------------------------- 6
# Page counts that are not numbers, negative, or over 64 bits.
jt "$T/base.out" 'all(isint(p.get("numa_maps_warnings")) and p["numa_maps_warnings"] == 0
    for p in d["processes"] if p.get("numa_maps") == "ok")' >/dev/null &&
	ok numa_maps_warnings_clean_zero ||
	bad "numa_maps_warnings_clean_zero: a clean process without numa_maps_warnings 0" \
		"$(jv "$T/base.out" '[(p["pid"], p.get("numa_maps_warnings", "missing")) for p in d["processes"]]' 2>&1)"
for c in zz:N1=zz negative:N0=-5 overflow:N0=99999999999999999999; do
	name=numa_maps_bad_count_${c%%:*}; ent=${c#*:}
	d=$T/bad_${c%%:*}; fresh "$d"
	echo "7f9000000000 default anon=1 dirty=1 $ent kernelpagesize_kB=4" >>"$d/t/proc/$SP/numa_maps"
	run "$d" --json -n 1
	rc=$(rcof "$d"); why=$(rcwhy "$rc")
	if [ -n "$why" ] || [ "$rc" -ne 0 ]; then bad "$name: ${why:-exit status $rc}" "$(head -c 300 "$d.err")"
	elif ! jt "$d.out" "P($SP).get('numa_maps') == 'ok'" >/dev/null; then
		bad "$name: process $SP not \"ok\"" "$(jd "$d.out" $SP)"
	elif ! jt "$d.out" "isint(P($SP).get('numa_maps_warnings')) and P($SP)['numa_maps_warnings'] >= 1" >/dev/null; then
		bad "$name: numa_maps_warnings not an integer >= 1" "$(jv "$d.out" "P($SP).get('numa_maps_warnings', 'missing')" 2>&1)"
	elif ! jt "$d.out" "P(2000).get('numa_maps_warnings') == 0" >/dev/null; then
		bad "$name: the clean process 2000 has numa_maps_warnings $(jv "$d.out" "P(2000).get('numa_maps_warnings', 'missing')" 2>&1)"
	else ok "$name"
	fi
	rm -rf "$d"
done

# ---------------------------------------------------------------- 7
# A huge mapping without kernelpagesize_kB, and no Hugepagesize in
# /proc/meminfo: the size is unknown, so is huge_kb.
d=$T/hps; fresh "$d"
grep -v '^Hugepagesize:' "$BASE/proc/meminfo" >"$d/t/proc/meminfo"
printf '%s\n' '7f9000000000 default file=/anon_hugepage\040(deleted) huge anon=4 dirty=4 N2=4' >>"$d/t/proc/2000/numa_maps"
run "$d" --json -n 1
rc=$(rcof "$d"); why=$(rcwhy "$rc")
if [ -n "$why" ] || [ "$rc" -ne 0 ]; then bad "huge_unknown_pagesize_null: ${why:-exit status $rc}" "$(head -c 300 "$d.err")"
elif jt "$d.out" "'huge_kb' in P(2000) and P(2000)['huge_kb'] is None" >/dev/null; then ok huge_unknown_pagesize_null
else bad "huge_unknown_pagesize_null: huge_kb is not null" "$(jd "$d.out" 2000)"
fi
rm -rf "$d"
# kernelpagesize_kB=0: a warning, and the pages are not counted (as 4 kB
# or any size).
d=$T/ps0; fresh "$d"
echo '7f9000000000 default anon=100 dirty=100 N2=100 kernelpagesize_kB=0' >>"$d/t/proc/2000/numa_maps"
run "$d" --json -n 1
rc=$(rcof "$d"); why=$(rcwhy "$rc")
if [ -n "$why" ] || [ "$rc" -ne 0 ]; then bad "pagesize_zero_not_counted: ${why:-exit status $rc}" "$(head -c 300 "$d.err")"
else
	jt "$d.out" "isint(P(2000).get('numa_maps_warnings')) and P(2000)['numa_maps_warnings'] >= 1" >/dev/null &&
		ok pagesize_zero_warned ||
		bad "pagesize_zero_warned: numa_maps_warnings not an integer >= 1" "$(jv "$d.out" "P(2000).get('numa_maps_warnings', 'missing')" 2>&1)"
	jt "$d.out" "P(2000).get('total_kb') == $BASE_TOTAL_2000" >/dev/null && ok pagesize_zero_not_counted ||
		bad "pagesize_zero_not_counted: total_kb $(jv "$d.out" "P(2000).get('total_kb')" 2>&1), without the line $BASE_TOTAL_2000"
fi
rm -rf "$d"

# ---------------------------------------------------------------- 8
# /proc/PID/stat unreadable (mode 000, run as nobody): a warning names it.
if [ "$(id -u)" != 0 ]; then
	echo "SKIP stat_unreadable_warned: needs root to switch to nobody"
else
	need setpriv util-linux
	d=$T/perm; fresh "$d"; chmod -R a+rX "$d"; chmod 000 "$d/t/proc/2000/stat"
	# nobody must be able to run the program (a clone under /root is not).
	nprog=$prog
	env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$nprog" 2>/dev/null ||
		{ cp "$prog" "$T/numatop-tui-n" && chmod 755 "$T/numatop-tui-n" && chmod a+rx "$T" && nprog=$T/numatop-tui-n; }
	(cd "$T" && waitprog && env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		timeout 10 "$nprog" --root "$d/t" --json -n 1 >"$d.out" 2>"$d.err"; echo $? >"$d.rc")
	rc=$(rcof "$d"); why=$(rcwhy "$rc")
	if [ -n "$why" ] || [ "$rc" -ne 0 ]; then bad "stat_unreadable_warned: ${why:-exit status $rc}" "$(head -c 300 "$d.err")"
	elif jt "$d.out" "'/proc/2000/stat' in W" >/dev/null; then ok stat_unreadable_warned
	else bad "stat_unreadable_warned: no warning names /proc/2000/stat" "$(jv "$d.out" 'd.get("warnings")' 2>&1)"
	fi
	rm -rf "$d"
fi

# ---------------------------------------------------------------- 9
# An unknown user: a usage error (2), said.
for where in root live; do
	for fmt in batch json; do
		name=no_such_user_${where}_$fmt
		r=""; [ $where = root ] && r="--root $BASE"
		f="-b"; [ $fmt = json ] && f="--json"
		# shellcheck disable=SC2086
		pr $r $f -n 1 -u nosuchuser >"$T/u.out" 2>"$T/u.err"; rc=$?
		if [ "$rc" -eq 2 ] && grep -qi 'no such user' "$T/u.err"; then ok "$name"
		else bad "$name: status $rc (want 2 and \"no such user\")" "stderr: $(head -c 300 "$T/u.err"); stdout: $(head -c 200 "$T/u.out")"
		fi
	done
done

# ---------------------------------------------------------------- 10
# stdout lost: /dev/full and a closed stdout give a non-zero exit and a
# message on stderr; stdout to a file (the control) exits 0.
sleep 100 & SLEEPER=$!
mkdir "$T/o"
for c in "version:-V" "help:-h" "json:--root $BASE --json -n 1" "batch:--root $BASE -b -n 1" \
	"format_text:--root $BASE --format text -n 1" "migrate:--migrate $SLEEPER --to 0" \
	"rebind:--rebind $SLEEPER --to 0" "measure_quick:--measure-quick" "measure_quick_json:--measure-quick --json"; do
	tag=${c%%:*}; args=${c#*:}
	o=$T/o/$tag
	# shellcheck disable=SC2086
	pr $args >"$o.ctl" 2>"$o.ctl.err"; rc=$?
	if [ "$rc" -eq 0 ] && [ -s "$o.ctl" ]; then ok "output_control_$tag"
	else bad "output_control_$tag: stdout to a file: status $rc$([ -s "$o.ctl" ] || echo ', no output')" "$(head -c 300 "$o.ctl.err")"
	fi
	for m in devfull closed; do
		name=output_lost_${m}_$tag
		if [ $m = devfull ]; then
			# shellcheck disable=SC2086
			pr $args >/dev/full 2>"$o.$m.err"; rc=$?
		else
			# shellcheck disable=SC2086
			pr $args >&- 2>"$o.$m.err"; rc=$?
		fi
		why=$(rcwhy "$rc")
		if [ -n "$why" ]; then bad "$name: $why" "$(head -c 300 "$o.$m.err")"
		elif [ "$rc" -eq 0 ]; then bad "$name: exit status 0" "stderr: $(head -c 300 "$o.$m.err")"
		elif [ ! -s "$o.$m.err" ]; then bad "$name: status $rc but nothing on stderr"
		else ok "$name"
		fi
	done
done
kill "$SLEEPER" 2>/dev/null; wait "$SLEEPER" 2>/dev/null; SLEEPER=""
rm -rf "$T/o"

# ---------------------------------------------------------------- 11
# The detail screen of a process with a 50 MB numa_maps: the memory the
# program ever held (VmHWM) stays under 64 MB.
need tmux tmux
d=$T/tui; fresh "$d"
yes "$LINE" | head -n $((50000000 / LLEN)) >"$d/t/proc/$SP/numa_maps"
tui_init
waitprog
tui_start 160 40 "TERM=tmux-256color exec $prog --root $d/t -d 1"
ppid=$(tmux display-message -p -t "$S" '#{pane_pid}' 2>/dev/null)
if ! screen | grep -q F10Quit; then
	bad "detail_50MB_numa_maps_memory: the monitor did not start" "$(screen)"
else
	hwm0=$(awk '/^VmHWM:/ { print $2 }' "/proc/$ppid/status" 2>/dev/null)
	keys / dbserver Enter Enter
	if ! wait_for "PID $SP" 30; then
		bad "detail_50MB_numa_maps_memory: the detail screen of $SP did not open" "$(screen)"
	else
		sleep 3
		hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$ppid/status" 2>/dev/null)
		if ! isnum "$hwm"; then
			bad "detail_50MB_numa_maps_memory: the monitor is gone (pid $ppid)" "$(screen)"
		elif [ "$hwm" -lt 65536 ]; then ok "detail_50MB_numa_maps_memory"
		else bad "detail_50MB_numa_maps_memory: VmHWM $hwm kB (limit 65536 kB; $hwm0 kB before the detail)"
		fi
	fi
	keys Escape; keys q
fi
tmux kill-server 2>/dev/null
rm -rf "$d"
exit 0
