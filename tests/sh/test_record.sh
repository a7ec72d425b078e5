#!/bin/sh
# Recording and replay: -w on the recorded tree gives what --json gives
# (zstdcat: the header line, then one sample line each); --replay --json
# prints the recorded lines, windows with --begin/--end; -p and -u filter
# as live; a file being recorded reads without a warning; a SIGKILLed
# recorder's file reads and is continued by the next one; a cut and a
# corrupted frame lose only what they must, with a warning; a sample that
# cannot be read is skipped with a warning (batch and monitor), names are
# escaped, absurd numbers are malformed; files that are no recording, of
# a newer or no version, with no sample, or a full disk are clear errors;
# a recorder started with fds 0-2 closed keeps its messages out of the
# file; a second recorder on a file or directory is refused (the lock);
# daily files and --keep-days (which removes only the user's own
# recordings).
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need zstd zstd
need jq jq
TREE=tests/trees/opteron4
T=$(mktemp -d)
REC=
cleanup() {
	[ -n "$REC" ] && kill -9 "$REC" 2>/dev/null
	tmux kill-server 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
export TMUX_TMPDIR="$T"

# What changes from one run to the next (times, the tool's own cost).
VOLATILE='del(.timestamp, .tool_cpu_pct, .interval_s, .numa_maps_budget.spent_ms, .cgroups_read_ms, .sample)
	| .processes |= map(del(.sample_age_s, .sched_age_s))'

# --- round trip on the recorded tree ---
"$PROG" --root "$TREE" -w "$T/a.zst" -d 0.2 -n 3 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && ok record_exit || bad record_exit "rc=$rc $(cat "$T/err")"
zstdcat "$T/a.zst" >"$T/a.ndjson" 2>"$T/zerr"; zrc=$?
lines=$(wc -l <"$T/a.ndjson")
[ $zrc -eq 0 ] && [ "$lines" = 4 ] && ok record_zstdcat_lines || bad record_zstdcat_lines "zstdcat rc=$zrc lines=$lines $(cat "$T/zerr")"
head -1 "$T/a.ndjson" | jq -e '.numatop_tui_recording == 1 and .program_version != null and
	(.topology.nodes | length) == 4 and (.topology.distances.matrix | length) == 4 and
	(.topology.cpus | length) > 0 and .start != null and .interval_s == 0.2' >/dev/null \
	&& ok record_header || bad record_header "$(head -c 400 "$T/a.ndjson")"
tail -n +2 "$T/a.ndjson" | jq -e '.timestamp != null and (.processes | length) > 0' >/dev/null \
	&& ok record_samples_json || bad record_samples_json
# The samples are what --json prints of the same tree.
"$PROG" --root "$TREE" --json -d 0.2 -n 3 >"$T/j.ndjson" 2>/dev/null
jq -c "$VOLATILE" <"$T/j.ndjson" >"$T/j.norm"
tail -n +2 "$T/a.ndjson" | jq -c "$VOLATILE" >"$T/a.norm"
cmp -s "$T/j.norm" "$T/a.norm" && ok record_same_as_json \
	|| bad record_same_as_json "$(diff "$T/j.norm" "$T/a.norm" | head -c 600)"
# Replay prints exactly the recorded sample lines.
"$PROG" --replay "$T/a.zst" --json >"$T/r.ndjson" 2>"$T/err"; rc=$?
tail -n +2 "$T/a.ndjson" | cmp -s - "$T/r.ndjson" && [ $rc -eq 0 ] && [ ! -s "$T/err" ] \
	&& ok replay_json_round_trip || bad replay_json_round_trip "rc=$rc $(cat "$T/err")"
"$PROG" --replay "$T/a.zst" --json -n 2 | wc -l | grep -qx 2 && ok replay_n || bad replay_n
# Text rebuilt from the recording is the text the live run printed (but
# the first line: its root and times).
# -p and -u filter as they did live (the sampler's own filter).
for args in "-b" "-b -s PID" "-b --cgroups -o PID,USER,N0,N3,REMOTE,WHY,CGROUP,TIME+,COMMAND" \
	"-b -p 1000,3000 -u root" "-b -u 1001"; do
	"$PROG" --root "$TREE" -w "$T/b.zst" -d 0.3 -n 2 2>/dev/null
	"$PROG" --root "$TREE" $args -d 0.3 -n 2 | grep -v '^numatop-tui \|tool cpu%\|^numa_maps budget' >"$T/live.txt"
	"$PROG" --replay "$T/b.zst" $args | grep -v '^numatop-tui \|tool cpu%\|^numa_maps budget' >"$T/replay.txt"
	rm -f "$T/b.zst"
	name=replay_text_same$(echo "$args" | tr -c 'a-zA-Z0-9\n' _ | cut -c1-30)
	[ -s "$T/live.txt" ] && cmp -s "$T/live.txt" "$T/replay.txt" && ok "$name" \
		|| bad "$name" "$(diff "$T/live.txt" "$T/replay.txt" | head -20)"
done
"$PROG" --replay "$T/a.zst" -b | head -1 | grep -q "replay $T/a.zst" && ok replay_text_says_replay \
	|| bad replay_text_says_replay "$("$PROG" --replay "$T/a.zst" -b | head -1)"

# --- --begin / --end: samples 1 s apart ---
"$PROG" --root "$TREE" -w "$T/t.zst" -d 1 -n 4 2>/dev/null
zstdcat "$T/t.zst" | tail -n +2 | jq -r .timestamp >"$T/times"
t3=$(sed -n 3p "$T/times"); t2=$(sed -n 2p "$T/times")
hms3=$(date -d "$t3" +%H:%M:%S); hms2=$(date -d "$t2" +%H:%M:%S)
got=$("$PROG" --replay "$T/t.zst" --json --begin "$hms3" | jq -r .timestamp | head -1)
[ "$got" = "$t3" ] && ok replay_begin || bad replay_begin "begin $hms3 ($t3): first $got"
# One rule for times: local time, its zone said. In another zone, --begin
# is that zone's time of day and -b's header prints the same, with it.
jst3=$(TZ=JST-9 date -d "$t3" +%H:%M:%S)
h=$(TZ=JST-9 "$PROG" --replay "$T/t.zst" -b -n 1 --begin "$jst3" | head -1)
case "$h" in *" $jst3 JST "*) ok replay_time_zone_said ;; *) bad replay_time_zone_said "--begin $jst3 (JST): $h" ;; esac
got=$("$PROG" --replay "$T/t.zst" --json --begin "$hms2" --end "$hms3" | jq -r .timestamp | tr '\n' ' ')
[ "$got" = "$t2 $t3 " ] && ok replay_begin_end || bad replay_begin_end "want $t2 $t3, got $got"
full=$(date -d "$t3" '+%Y-%m-%d %H:%M:%S')
got=$("$PROG" --replay "$T/t.zst" --json --begin "$full" -n 1 | jq -r .timestamp)
[ "$got" = "$t3" ] && ok replay_begin_date || bad replay_begin_date "$full: $got"
"$PROG" --replay "$T/t.zst" --json --begin 25:99 >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'begin' "$T/err" && ok replay_bad_time || bad replay_bad_time "rc=$rc"

# --- a recorder killed with SIGKILL, then continued ---
"$PROG" --root "$TREE" -w "$T/k.zst" -d 0.1 2>/dev/null &
REC=$!
sleep 2
# Read while it records: its last frame is open, not cut (no warning; a
# read that meets a sample half written may say so: at most 1 run in 3).
cuts=0
for i in 1 2 3; do
	"$PROG" --replay "$T/k.zst" --json >"$T/live.ndjson" 2>"$T/err"
	grep -q 'cut' "$T/err" && cuts=$((cuts + 1))
done
[ "$cuts" -le 1 ] && [ -s "$T/live.ndjson" ] && ok replay_while_recording_not_cut \
	|| bad replay_while_recording_not_cut "$cuts of 3 runs said: $(cat "$T/err")"
kill -9 $REC; wait $REC 2>/dev/null; REC=
"$PROG" --replay "$T/k.zst" --json >"$T/k1.ndjson" 2>"$T/err"; rc=$?
n1=$(wc -l <"$T/k1.ndjson")
[ $rc -eq 0 ] && [ "$n1" -ge 5 ] && jq -e . "$T/k1.ndjson" >/dev/null \
	&& ok killed_recording_reads || bad killed_recording_reads "rc=$rc samples=$n1 $(cat "$T/err")"
# What zstdcat gives of the cut file (whole lines) is what the replay gives,
# line for line; the replay may keep one sample more from the cut frame,
# which zstdcat gives up on.
zstdcat "$T/k.zst" 2>/dev/null | tail -n +2 | grep '}$' >"$T/kz.ndjson"
nz=$(wc -l <"$T/kz.ndjson")
head -n "$nz" "$T/k1.ndjson" | cmp -s - "$T/kz.ndjson" && [ "$n1" -ge "$nz" ] && [ "$n1" -le $((nz + 1)) ] \
	&& ok killed_recording_zstdcat || bad killed_recording_zstdcat \
	"replay $n1 samples, zstdcat $(zstdcat "$T/k.zst" 2>/dev/null | wc -l) lines; first difference: $(cmp "$T/kz.ndjson" "$T/k1.ndjson" 2>&1 | head -1)
$(diff "$T/kz.ndjson" "$T/k1.ndjson" | cut -c1-200 | head -4) $(cat "$T/err")"
"$PROG" --root "$TREE" -w "$T/k.zst" -d 0.1 -n 3 2>"$T/err"; rc=$?
zstdcat "$T/k.zst" >"$T/k2.ndjson" 2>"$T/zerr"; zrc=$?
hdrs=$(grep -c '^{"numatop_tui_recording"' "$T/k2.ndjson")
samples=$(grep -c '^{"timestamp"' "$T/k2.ndjson")
[ $rc -eq 0 ] && [ $zrc -eq 0 ] && [ "$hdrs" = 2 ] && [ "$samples" -eq $((n1 + 3)) ] \
	&& ok continued_recording || bad continued_recording "rc=$rc zstd=$zrc headers=$hdrs samples=$samples (want $((n1 + 3))) $(cat "$T/err" "$T/zerr")"
"$PROG" --replay "$T/k.zst" --json 2>"$T/err" | wc -l | grep -qx "$((n1 + 3))" && [ ! -s "$T/err" ] \
	&& ok continued_replay || bad continued_replay "$(cat "$T/err")"

# --- a cut last frame ---
size=$(stat -c %s "$T/a.zst")
head -c $((size - 9)) "$T/a.zst" >"$T/cut.zst"
"$PROG" --replay "$T/cut.zst" --json >"$T/cut.ndjson" 2>"$T/err"; rc=$?
n=$(wc -l <"$T/cut.ndjson")
[ $rc -eq 0 ] && [ "$n" = 2 ] && grep -q 'cut' "$T/err" && grep -q "$T/cut.zst" "$T/err" \
	&& tail -n +2 "$T/a.ndjson" | head -2 | cmp -s - "$T/cut.ndjson" \
	&& ok cut_frame_reads || bad cut_frame_reads "rc=$rc samples=$n $(cat "$T/err")"

# --- a corrupted frame among three (each recorder run starts a frame) ---
for run in 1 2 3; do "$PROG" --root "$TREE" -w "$T/c.zst" -d 0.1 -n 12 2>/dev/null; done
zstdcat "$T/c.zst" | grep '^{"timestamp"' >"$T/c.ndjson"
python3 - "$T/c.zst" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
magic = b'\x28\xb5\x2f\xfd'
offs = [i for i in range(len(b)) if b[i:i+4] == magic]
# Damage the middle of the second frame's data.
a, z = offs[1], offs[2]
mid = (a + z) // 2
for i in range(mid, mid + 40):
    b[i] ^= 0x5a
open(p, 'wb').write(b)
EOF
"$PROG" --replay "$T/c.zst" --json >"$T/c2.ndjson" 2>"$T/err"; rc=$?
n=$(wc -l <"$T/c2.ndjson")
first=$(head -12 "$T/c2.ndjson" | cmp -s - "$(head -12 "$T/c.ndjson" >"$T/c60"; echo "$T/c60")" && echo same)
last=$(tail -12 "$T/c2.ndjson" | cmp -s - "$(tail -12 "$T/c.ndjson" >"$T/c10"; echo "$T/c10")" && echo same)
[ $rc -eq 0 ] && [ "$n" -ge 24 ] && [ "$n" -lt 36 ] && [ "$first" = same ] && [ "$last" = same ] \
	&& grep -q 'damaged' "$T/err" && jq -e . "$T/c2.ndjson" >/dev/null \
	&& ok corrupt_frame_skipped || bad corrupt_frame_skipped "rc=$rc samples=$n first=$first last=$last $(cat "$T/err")"

# --- samples that cannot be read: skipped with a warning, never a crash,
# never printed as a wrong number (a cgroup's run_nodes [-1] or
# mems_effective [99999999], an unknown key holding 70 nested arrays,
# 1e308 kB, a PID of 2^40) ---
zstdcat "$T/a.zst" >"$T/g.ndjson"
head -1 "$T/g.ndjson" >"$T/g.hdr"
for k in 1 2 3; do sed -n "$((k + 1))p" "$T/g.ndjson" >"$T/g$k"; done
nest=$(printf '%070d' 0 | tr 0 '[')$(printf '%070d' 0 | tr 0 ']')
i=0
for edit in 's/"run_nodes":\[/"run_nodes":[-1,/' 's/"mems_effective":\[/"mems_effective":[99999999,/' \
	"s/\"comm\":/\"x\":$nest,\"comm\":/" 's/"rss_kb":[0-9]*/"rss_kb":1e308/' 's/"pid":1000,/"pid":1099511627776,/'; do
	i=$((i + 1))
	sed "$edit" "$T/g2" >"$T/bad"
	cat "$T/g.hdr" "$T/g1" "$T/bad" "$T/g3" | zstd -q >"$T/gbg.zst"
	"$PROG" --replay "$T/gbg.zst" -b >"$T/out" 2>"$T/err"; rc=$?
	n=$(grep -c '^numatop-tui ' "$T/out")
	"$PROG" --replay "$T/gbg.zst" --json >"$T/out.json" 2>"$T/err.json"; jrc=$?
	! cmp -s "$T/g2" "$T/bad" && [ $rc -eq 0 ] && [ "$n" = 2 ] && grep -q 'malformed: skipped' "$T/err" \
		&& ! grep -qE '[0-9]{17}|^ +0 +[a-z]' "$T/out" && [ $jrc -eq 0 ] && [ "$(wc -l <"$T/out.json")" = 2 ] \
		&& grep -q 'malformed: skipped' "$T/err.json" && ok "replay_skips_malformed_$i" \
		|| bad "replay_skips_malformed_$i" "$edit: rc=$rc samples=$n json rc=$jrc $(cat "$T/err" "$T/err.json")"
done
cat "$T/g.hdr" "$T/bad" | zstd -q >"$T/allbad.zst"
"$PROG" --replay "$T/allbad.zst" -b >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'none of its samples could be read' "$T/err" && ok replay_none_readable \
	|| bad replay_none_readable "rc=$rc $(cat "$T/err")"
# A name with an escape sequence and bytes that are no UTF-8: --json
# prints JSON (jq reads every line), -b prints no raw escape.
python3 - "$T/g1" "$T/esc" <<'PYEOF'
import sys
b = open(sys.argv[1], 'rb').read()
b = b.replace(b'"comm":"dbserver"', b'"comm":"db\x1b]0;owned\x07\x1b[2J\xff\xfe"', 1)
open(sys.argv[2], 'wb').write(b)
PYEOF
cat "$T/g.hdr" "$T/esc" | zstd -q >"$T/esc.zst"
"$PROG" --replay "$T/esc.zst" --json >"$T/out.json" 2>"$T/err"; rc=$?
"$PROG" --replay "$T/esc.zst" -b >"$T/out" 2>>"$T/err"
esc=$(printf '\033')
[ $rc -eq 0 ] && jq -e '.processes[0].comm | test("^db\u001b")' "$T/out.json" >/dev/null \
	&& ! grep -q "$esc" "$T/out.json" && ! grep -q "$esc" "$T/out" && grep -q 'db\\x1b' "$T/out" \
	&& ok replay_escapes_names || bad replay_escapes_names "rc=$rc $(cat "$T/err"; head -c 300 "$T/out.json")"
# Header versions that are none; a header and no sample; a later header
# that is no topology (a warning: its samples skipped, the next read).
for v in 0 1e300; do
	sed "s/\"numatop_tui_recording\":1/\"numatop_tui_recording\":$v/" "$T/g.hdr" | cat - "$T/g1" | zstd -q >"$T/v.zst"
	"$PROG" --replay "$T/v.zst" --json >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 1 ] && [ ! -s "$T/out" ] && grep -q 'format version' "$T/err" && ok "replay_refuses_version_$v" \
		|| bad "replay_refuses_version_$v" "rc=$rc $(cat "$T/err")"
done
zstd -q <"$T/g.hdr" >"$T/hdronly.zst"
"$PROG" --replay "$T/hdronly.zst" -b >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'no samples in it' "$T/err" && ok replay_header_only || bad replay_header_only "rc=$rc $(cat "$T/err")"
{ cat "$T/g.hdr" "$T/g1" | zstd -q
  sed 's/"topology":{/"topology":7,"x":{/' "$T/g.hdr" | cat - "$T/g2" | zstd -q
  cat "$T/g.hdr" "$T/g3" | zstd -q; } >"$T/h2.zst"
"$PROG" --replay "$T/h2.zst" -b >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^numatop-tui ' "$T/out")" = 2 ] && grep -q 'header .*unusable' "$T/err" \
	&& ok replay_bad_later_header || bad replay_bad_later_header "rc=$rc $(cat "$T/err")"

# --- not a recording, a newer version ---
head -c 5000 /dev/urandom >"$T/junk"
"$PROG" --replay "$T/junk" --json >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "$T/junk: not a numatop-tui recording" "$T/err" && ok replay_not_recording \
	|| bad replay_not_recording "rc=$rc $(cat "$T/err")"
printf 'hello\n' | zstd -q >"$T/other.zst"
"$PROG" --replay "$T/other.zst" --json >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'not a numatop-tui recording' "$T/err" && ok replay_other_zstd \
	|| bad replay_other_zstd "rc=$rc $(cat "$T/err")"
printf '{"numatop_tui_recording":99}\n' | zstd -q >"$T/new.zst"
"$PROG" --replay "$T/new.zst" --json >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'version 99 is newer' "$T/err" && ok replay_newer_version \
	|| bad replay_newer_version "rc=$rc $(cat "$T/err")"
: >"$T/empty.zst"
"$PROG" --replay "$T/empty.zst" --json >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'empty' "$T/err" && ok replay_empty_file || bad replay_empty_file "rc=$rc $(cat "$T/err")"
"$PROG" --root "$TREE" -w "$T/junk" -n 1 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'not a numatop-tui recording' "$T/err" && cmp -s "$T/junk" "$T/junk" \
	&& ok record_refuses_other_file || bad record_refuses_other_file "rc=$rc $(cat "$T/err")"
ln -s "$T/a.zst" "$T/link.zst"
"$PROG" --root "$TREE" -w "$T/link.zst" -n 1 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'symbolic link' "$T/err" && ok record_refuses_symlink || bad record_refuses_symlink "rc=$rc $(cat "$T/err")"

# --- a full disk ---
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	mkdir "$T/small"
	prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
	tree=$(pwd)/$TREE
	# 16 pages, 15 of them filled: the header and some samples fit.
	unshare -m sh -c "mount -t tmpfs -o size=64k none '$T/small' &&
		head -c 61440 /dev/zero >'$T/small/filler' &&
		'$prog' --root '$tree' -w '$T/small/f.zst' -d 0.1 -n 100000 2>'$T/err'; echo \$? >'$T/rc';
		cp '$T/small/f.zst' '$T/full.zst'"
	rc=$(cat "$T/rc")
	"$PROG" --replay "$T/full.zst" --json >"$T/full.ndjson" 2>"$T/err2"; rrc=$?
	n=$(wc -l <"$T/full.ndjson")
	[ "$rc" = 1 ] && grep -q 'No space left' "$T/err" && ok full_disk_error || bad full_disk_error "rc=$rc $(cat "$T/err")"
	[ $rrc -eq 0 ] && [ "$n" -ge 1 ] && jq -e . "$T/full.ndjson" >/dev/null && ok full_disk_file_reads \
		|| bad full_disk_file_reads "rc=$rrc samples=$n $(cat "$T/err2")"
else
	echo "SKIP full_disk: needs root and unshare -m (a small tmpfs)"
fi

# --- closed standard descriptors: the recording is never fd 0-2 ---
# A file size limit (SIGXFSZ ignored: a write fails with EFBIG) ends the
# run with an error message; with fds 0-2 closed that message must not
# land in the recording (it did, as fd 2), and every whole sample reads
# back. The limit: a.zst's size (a header, 3 samples) and a little more, in
# dash's ulimit -f blocks of 512 bytes.
lim=$(( ($(stat -c %s "$T/a.zst") + 128) / 512 + 1 ))
for c in 'out_err:>&- 2>&-' 'in_err:<&- 2>&-' 'all:<&- >&- 2>&-'; do
	closed=${c#*:}
	rm -f "$T/fd.zst"
	sh -c 'trap "" XFSZ; ulimit -f $4; eval "exec \"\$0\" --root \"\$1\" -w \"\$2\" -d 0.1 -n 200 $3"' \
		"$PROG" "$TREE" "$T/fd.zst" "$closed" "$lim"; rc=$?
	zn=$(zstdcat "$T/fd.zst" 2>/dev/null | grep -c '^{"timestamp"')
	rn=$("$PROG" --replay "$T/fd.zst" --json 2>"$T/err" | wc -l)
	inside=$(grep -ac 'numatop-tui: ' "$T/fd.zst")
	name=closed_std_fds_recording_${c%%:*}
	[ "$rc" = 1 ] && [ "$inside" = 0 ] && [ "$zn" -ge 3 ] && [ "$rn" = "$zn" ] && ! grep -q damaged "$T/err" \
		&& ok "$name" || bad "$name" \
		"$closed: rc=$rc messages in the file: $inside, samples: zstdcat $zn, replay $rn $(cat "$T/err")"
done

# --- two recorders at once: the second is refused by the lock, the
# first's stream reads back whole ---
# two_recorders NAME SPEC: a recorder on SPEC (a file or DIR/) runs; a
# second one on SPEC, and one on the file the first writes, exit 1 naming
# the first's pid; the first, ended by SIGTERM, left a whole stream.
two_recorders() {
	"$PROG" --root "$TREE" -w "$2" -d 0.1 2>"$T/err1" &
	REC=$!
	k=100; f=
	while [ $k -gt 0 ]; do
		case $2 in */) f=$(ls "$2"numatop-tui_*.zst 2>/dev/null | head -1) ;; *) f=$2 ;; esac
		[ -n "$f" ] && [ -s "$f" ] && break
		sleep 0.1; k=$((k - 1))
	done
	"$PROG" --root "$TREE" -w "$2" -d 0.1 -n 5 2>"$T/err2"; rc2=$?
	"$PROG" --root "$TREE" -w "$f" -d 0.1 -n 5 2>"$T/err3"; rc3=$?
	first=$REC
	kill -TERM "$REC"; wait "$REC"; rc1=$?; REC=
	zstdcat "$f" >"$T/two.ndjson" 2>"$T/zerr"; zrc=$?
	hdrs=$(grep -c '^{"numatop_tui_recording"' "$T/two.ndjson")
	zn=$(grep -c '^{"timestamp"' "$T/two.ndjson")
	jn=$("$PROG" --replay "$f" --json 2>"$T/rerr" | wc -l)
	bn=$("$PROG" --replay "$f" -b 2>>"$T/rerr" | grep -c "^numatop-tui .* replay $f")
	[ "$rc2" = 1 ] && grep -q "is being recorded .*by another numatop-tui (pid $first)" "$T/err2" \
		&& ok "${1}_second_refused" || bad "${1}_second_refused" "rc=$rc2 $(cat "$T/err2")"
	[ "$rc3" = 1 ] && grep -q "$f is being recorded by another numatop-tui (pid $first)" "$T/err3" \
		&& ok "${1}_its_file_refused" || bad "${1}_its_file_refused" "rc=$rc3 $(cat "$T/err3")"
	[ "$rc1" = 0 ] && [ ! -s "$T/err1" ] && [ $zrc -eq 0 ] && [ "$hdrs" = 1 ] && [ "$zn" -ge 1 ] \
		&& [ "$jn" = "$zn" ] && [ "$bn" = "$zn" ] && [ ! -s "$T/rerr" ] \
		&& ok "${1}_first_whole" || bad "${1}_first_whole" \
		"rc=$rc1 zstdcat rc=$zrc headers=$hdrs samples=$zn replay json=$jn text=$bn $(cat "$T/err1" "$T/zerr" "$T/rerr")"
}
two_recorders two_recorders_file "$T/two.zst"
mkdir "$T/twod"
two_recorders two_recorders_dir "$T/twod/"

# --- daily files, --keep-days, a directory replayed in date order ---
mkdir "$T/d"
: >"$T/d/numatop-tui_20200101.zst"
old=$(date -d '-40 days' +%Y%m%d); young=$(date -d '-3 days' +%Y%m%d)
: >"$T/d/numatop-tui_$old.zst"
: >"$T/d/other-file.zst"
"$PROG" --root "$TREE" -w "$T/d/" -d 0.1 -n 2 2>"$T/err"; rc=$?
today=$(date +%Y%m%d)
[ $rc -eq 0 ] && [ -s "$T/d/numatop-tui_$today.zst" ] && ok daily_file_named || bad daily_file_named "rc=$rc $(ls "$T/d") $(cat "$T/err")"
[ ! -e "$T/d/numatop-tui_20200101.zst" ] && [ ! -e "$T/d/numatop-tui_$old.zst" ] && [ -e "$T/d/other-file.zst" ] \
	&& ok daily_keep_days_prunes || bad daily_keep_days_prunes "$(ls "$T/d")"
cp "$T/d/numatop-tui_$today.zst" "$T/d/numatop-tui_$young.zst"
"$PROG" --root "$TREE" -w "$T/d" --keep-days 2 -d 0.1 -n 1 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ ! -e "$T/d/numatop-tui_$young.zst" ] && ok daily_keep_days_option || bad daily_keep_days_option "rc=$rc $(ls "$T/d")"
# --keep-days removes only this user's recordings (regular, one link):
# never what merely has an old daily name.
mkdir "$T/p"
old=$T/p/numatop-tui_197001
printf 'important\n' >"${old}01.zst"
ln -s "$T/a.zst" "${old}02.zst"
mkfifo "${old}03.zst"
cp "$T/a.zst" "$T/hard.zst"; ln "$T/hard.zst" "${old}04.zst"
printf 'hello\n' | zstd -q >"${old}05.zst"
mkdir "${old}06.zst"
cp "$T/a.zst" "${old}07.zst"         # the one to go: an old recording
kept="01 02 03 04 05 06"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	cp "$T/a.zst" "${old}08.zst"; chown nobody "${old}08.zst"
	kept="$kept 08"
else
	echo "SKIP prune_other_users_recording: chown needs root"
fi
"$PROG" --root "$TREE" -w "$T/p/" -d 0.1 -n 1 2>"$T/err"; rc=$?
gone=
for n in $kept; do [ -e "${old}$n.zst" ] || [ -L "${old}$n.zst" ] || gone="$gone $n"; done
[ $rc -eq 0 ] && [ -z "$gone" ] && grep -qx important "${old}01.zst" && [ -p "${old}03.zst" ] \
	&& [ "$(stat -c %h "$T/hard.zst")" = 2 ] && ok prune_keeps_what_is_no_own_recording \
	|| bad prune_keeps_what_is_no_own_recording "rc=$rc removed:$gone $(cat "$T/err")"
[ ! -e "${old}07.zst" ] && ok prune_removes_old_recording || bad prune_removes_old_recording "$(ls "$T/p")"
cp "$T/d/numatop-tui_$today.zst" "$T/d/numatop-tui_$(date -d '-1 day' +%Y%m%d).zst"
"$PROG" --replay "$T/d" --json 2>"$T/err" | wc -l | grep -qx 6 && ok daily_dir_replay || bad daily_dir_replay "$(cat "$T/err")"
"$PROG" --replay "$T/a.zst" --json -n 1 --begin 00:00 >/dev/null 2>&1 && ok replay_begin_before_start || bad replay_begin_before_start
"$PROG" -w "$T/nodir/" -n 1 --root "$TREE" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'not a directory' "$T/err" && ok daily_missing_dir || bad daily_missing_dir "rc=$rc $(cat "$T/err")"
"$PROG" -w "$T/x.zst" --format text -n 1 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && ok record_format_conflict || bad record_format_conflict "rc=$rc"

# --- the monitor on a recording ---
need tmux tmux
cp "$T/t.zst" "$T/m.zst"     # 4 samples 1 s apart
zstdcat "$T/m.zst" | tail -n +2 | jq -r .timestamp >"$T/mtimes"
lt() { date -d "$(sed -n "$1p" "$T/mtimes")" '+%Y-%m-%d %H:%M:%S'; }
tui_init
tui_start 160 40 "$PROG --replay $T/m.zst"
screen | grep -q "replay $(lt 1)" && screen | grep -q '/usr/sbin/dbserver' && ok tui_replay_opens \
	|| bad tui_replay_opens "$(screen | head -3)"
# The key bar shows only keys that work on a recording.
bar=$(screen | tail -1)
echo "$bar" | grep -q 'Help' && echo "$bar" | grep -q 'Quit' && ! echo "$bar" | grep -Eq 'Migrate|Bind|Kill|Fix' \
	&& ok tui_replay_bar_no_actions || bad tui_replay_bar_no_actions "$bar"
keys t
wait_for "replay $(lt 2)" && ok tui_replay_next || bad tui_replay_next "$(screen | head -1)"
keys End
wait_for "replay $(lt 4)" && ok tui_replay_end || bad tui_replay_end "$(screen | head -1)"
keys t
wait_for "the last sample" && screen | grep -q "replay $(lt 4)" && ok tui_replay_stays_at_end \
	|| bad tui_replay_stays_at_end "$(screen | grep -n 'replay\|last')"
keys T
wait_for "replay $(lt 3)" && ok tui_replay_prev || bad tui_replay_prev "$(screen | head -1)"
keys Home
wait_for "replay $(lt 1)" && ok tui_replay_home || bad tui_replay_home "$(screen | head -1)"
keys b
wait_for "Jump to" && keys "$(date -d "$(sed -n 3p "$T/mtimes")" +%H:%M:%S)" Enter
wait_for "replay $(lt 3)" && ok tui_replay_jump || bad tui_replay_jump "$(screen | head -1; screen | tail -2)"
for key in m B k L x; do
	keys "$key"
	wait_for "disabled on a recording" 10 && ! screen | grep -q 'Migrate to\|Signal to\|Measure' \
		&& screen | grep -q 'disabled on a recording: F7 m, F8 B, x, F9 k, L act on the live machine' \
		&& ok "tui_replay_refuses_$key" || bad "tui_replay_refuses_$key" "$(screen | tail -4)"
	keys Escape
done
# Sorting, filter and detail work on the recorded sample.
keys N
wait_for "PIDv" 10 || wait_for "PID^" 10
first=$(screen | grep -E '^ +[0-9]+ +(alice|bob|root) ' | head -1 | awk '{print $1}')
[ "$first" = 4242 ] || [ "$first" = 1000 ] && ok tui_replay_sort || bad tui_replay_sort "first row $first"
keys F4; keys web Enter
rows=$(screen | grep -cE '^ +[0-9]+ (alice|bob|root)')
screen | grep -qE '^ +2000 bob' && [ "$rows" = 1 ] && ok tui_replay_filter || bad tui_replay_filter "$(screen | grep -E '^ +[0-9]+ +(alice|bob|root) ')"
keys Enter
wait_for "PID 2000" && screen | grep -q 'not recorded' && screen | grep -q 'N2 .*9336K' \
	&& ok tui_replay_detail || bad tui_replay_detail "$(screen | head -14)"
keys Escape
keys F4; keys C-u Enter
keys F3; keys secret Enter
screen | grep -E '^ +3000 ' | grep -q 'secret' && [ "$(screen | grep -cE '^ +[0-9]+ +(alice|bob|root) ')" = 4 ] \
	&& ok tui_replay_search || bad tui_replay_search "$(screen | tail -3)"
keys F5
wait_for '[tree]' && screen | grep -q "replay $(lt 3)" && ok tui_replay_tree_f5 || bad tui_replay_tree_f5 "$(screen | grep Tasks)"
keys F5
keys F3; keys dbserver Enter
keys Tab
wait_for "Node" && screen | grep -q "replay $(lt 3)" && ok tui_replay_nodes_screen || bad tui_replay_nodes_screen "$(screen | head -5)"
keys F1
wait_for "next / previous sample" && ok tui_replay_help || bad tui_replay_help "$(screen | head -5)"
keys Escape; keys BTab
wait_for PID
# History: sparklines of the samples stepped through (t), in the node
# panels, the Nodes screen and the detail; a jump rebuilds the nodes'
# history from the samples before the new one. (The
# tree's CPU load is unknown: its /proc/stat does not move; free memory
# is known.)
keys Home; keys t; keys t; keys t
wait_for "replay $(lt 4)"
line=$(screen | grep -E '^N0 ' | head -1)
nspark=$(printf '%s' "$line" | sed 's/.*free //;s/miss.*//' | grep -o '[▁▂▃▄▅▆▇█]' | wc -l)
echo "$line" | grep -q 'cpu .*free .*miss' && [ "$nspark" = 4 ] && ok tui_history_panel_sparklines \
	|| bad tui_history_panel_sparklines "blocks=$nspark $line"
keys Enter
wait_for "REMOTE% over 4 samples" && screen | grep -qE '^  N1 +kB .*[▁▂▃▄▅▆▇█]' \
	&& ok tui_history_detail || bad tui_history_detail "$(screen | head -12)"
keys Escape
keys Home
nspark=$(screen | grep -E '^N0 ' | head -1 | sed 's/.*free //;s/miss.*//' | grep -o '[▁▂▃▄▅▆▇█]' | wc -l)
[ "$nspark" = 1 ] && ok tui_history_reset_on_jump || bad tui_history_reset_on_jump "blocks=$nspark"
# A jump fills the node history from the samples before the new one.
keys End
wait_for "replay $(lt 4)"
nspark=$(screen | grep -E '^N0 ' | head -1 | sed 's/.*free //;s/miss.*//' | grep -o '[▁▂▃▄▅▆▇█]' | wc -l)
[ "$nspark" = 4 ] && ok tui_history_prefilled_on_jump || bad tui_history_prefilled_on_jump "blocks=$nspark"
tui_start 160 40 "LANG=C LC_ALL=C $PROG --replay $T/m.zst"
keys t; keys t
line=$(screen | grep -E '^N0 ' | head -1)
printf '%s' "$line" | grep -q 'free [_.:=+*#-]' && ! printf '%s' "$line" | LC_ALL=C grep -q "$(printf '[\200-\377]')" \
	&& ok tui_history_ascii || bad tui_history_ascii "$line"
keys q
# Live: the panels fill as samples come.
tui_start 160 40 "$PROG --root $TREE -d 0.2"
sleep 1.5
line=$(screen | grep -E '^N2 ' | head -1)
nspark=$(printf '%s' "$line" | sed 's/.*free //' | grep -o '[▁▂▃▄▅▆▇█]' | wc -l)
[ "$nspark" -ge 4 ] && ok tui_history_live || bad tui_history_live "blocks=$nspark $line"
keys Tab
wait_for NODE && [ "$(screen | grep -cE '^ +cpu .*free .*miss')" = 4 ] && ok tui_history_nodes_screen \
	|| bad tui_history_nodes_screen "$(screen | head -20)"
keys q
# The heatmap's recorded layers: a tree with the firmware's HMAT, and a
# live recording with a saved measurement.
cp -r "$TREE" "$T/hm"
for j in 0 1 2 3; do
	d="$T/hm/sys/devices/system/node/node$j/access1/initiators"
	mkdir -p "$d"
	ln -s ../../../node$j "$d/node$j"
	echo $((80 + 40 * (j % 2))) >"$d/read_latency"
	echo 20000 >"$d/read_bandwidth"
done
"$PROG" --root "$T/hm" -w "$T/hm.zst" -n 1 2>/dev/null
zstdcat "$T/hm.zst" | head -1 | jq -e '.hmat.latency_ns[0][0] == 80 and .hmat.access_class == 1 and .hmat.latency_ns[1][1] == 120 and .hmat.latency_ns[0][1] == null' >/dev/null \
	&& ok record_header_hmat || bad record_header_hmat "$(zstdcat "$T/hm.zst" | head -1 | jq -c .hmat)"
tui_start 160 40 "$PROG --replay $T/hm.zst"
for i in 1 2 3 4; do screen | grep -q 'HMAT read latency' && break; keys v; done
screen | grep -q 'HMAT read latency, ns (firmware, access1)' && screen | grep -qE '^ +1 .* 120' \
	&& ok tui_replay_hmat_layer || bad tui_replay_hmat_layer "$(screen | sed -n 9,16p)"
keys q
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/cache"
	XDG_CACHE_HOME="$T/cache" "$PROG" --measure-quick >/dev/null 2>&1
	XDG_CACHE_HOME="$T/cache" "$PROG" -w "$T/meas.zst" -n 1 2>/dev/null
	zstdcat "$T/meas.zst" | head -1 | jq -e '.measurement.latency_ns[0][0] > 0' >/dev/null \
		&& ok record_header_measurement || bad record_header_measurement "$(zstdcat "$T/meas.zst" | head -1 | jq -c .measurement | head -c 300)"
	tui_start 160 40 "$PROG --replay $T/meas.zst"
	for i in 1 2 3 4; do screen | grep -q 'Latency, ns (measured' && break; keys v; done
	screen | grep -q 'Latency, ns (measured .* ago' && ok tui_replay_measured_layer \
		|| bad tui_replay_measured_layer "$(screen | sed -n 1,8p)"
	keys q
else
	echo "SKIP record_header_measurement: --measure needs root"
fi
# A sample that cannot be read: skipped, said, never a crash; at the
# start (mems_effective [99999999] first) and on t / T (run_nodes [-1]).
zstdcat "$T/m.zst" >"$T/m.ndjson"
head -1 "$T/m.ndjson" >"$T/m.hdr"
sed -n 2p "$T/m.ndjson" | sed 's/"mems_effective":\[/"mems_effective":[99999999,/' >"$T/mbad1"
sed -n 3p "$T/m.ndjson" | sed 's/"run_nodes":\[/"run_nodes":[-1,/' >"$T/mbad2"
{ cat "$T/m.hdr" "$T/mbad1"; sed -n 3,4p "$T/m.ndjson"; } | zstd -q >"$T/mb1.zst"
tui_start 160 40 "$PROG --replay $T/mb1.zst"
screen | grep -q "replay $(lt 2)" && screen | grep -q 'malformed: skipped' && screen | grep -q '/usr/sbin/dbserver' \
	&& ok tui_replay_skips_bad_first || bad tui_replay_skips_bad_first "$(screen | head -3; screen | grep Tasks)"
{ sed -n 1,2p "$T/m.ndjson"; cat "$T/mbad2"; sed -n 4p "$T/m.ndjson"; } | zstd -q >"$T/mb2.zst"
tui_start 160 40 "$PROG --replay $T/mb2.zst"
keys t
wait_for "replay $(lt 3)" && screen | grep -q 'malformed: skipped' && ok tui_replay_skips_bad_next \
	|| bad tui_replay_skips_bad_next "$(screen | head -1; screen | grep Tasks)"
keys T
wait_for "replay $(lt 1)" && screen | grep -q '/usr/sbin/dbserver' && ok tui_replay_skips_bad_prev \
	|| bad tui_replay_skips_bad_prev "$(screen | head -1; screen | grep Tasks)"
keys q
# A jump into a gap of the recording (samples 3 and 4 ten minutes later)
# says so, and where it went.
zstdcat "$T/m.zst" | python3 -c '
import sys, json, datetime
for i, l in enumerate(sys.stdin):
    if i >= 3:
        d = json.loads(l)
        t = datetime.datetime.strptime(d["timestamp"], "%Y-%m-%dT%H:%M:%SZ") + datetime.timedelta(seconds=600)
        l = l.replace(d["timestamp"], t.strftime("%Y-%m-%dT%H:%M:%SZ"), 1)
    sys.stdout.write(l)' | zstd -q >"$T/gap.zst"
t2=$(sed -n 2p "$T/mtimes")
gin=$(date -d "$t2 + 300 seconds" +%H:%M:%S); gto=$(date -d "$(sed -n 3p "$T/mtimes") + 600 seconds" +%H:%M:%S)
tui_start 160 40 "$PROG --replay $T/gap.zst"
keys b
wait_for "Jump to" && keys "$gin" Enter
wait_for "no samples $gin-$gto: showing $gto" 20 && ok tui_replay_jump_gap_said \
	|| bad tui_replay_jump_gap_said "want 'no samples $gin-$gto: showing $gto': $(screen | grep -E 'replay|samples' | head -3)"
keys q
# A message longer than the line: cut at a character, with an ellipsis.
tui_start 60 24 "$PROG --replay $T/m.zst"
keys m
line=$(screen | grep '^disabled on a recording')
case "$line" in *…|*...) ;; *) line="(no ellipsis) $line" ;; esac
[ "$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -m)" -le 60 ] && [ "${line#(no}" = "$line" ] && ok tui_message_cut_ellipsis \
	|| bad tui_message_cut_ellipsis "$line"
keys q
"$PROG" --replay "$T/junk" </dev/null >/dev/null 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q 'not a numatop-tui recording\|not a terminal' "$T/err" && ok tui_replay_bad_file || bad tui_replay_bad_file "rc=$rc"
tmux kill-server 2>/dev/null
# Every per-node metric comes back from a recording as it went in (the
# node field table's setters against its getters): the replayed sample's
# node memory gauges are the live ones of the same tree (the gauges the
# table exports; a recording keeps no cumulative CPU seconds).
"$PROG" --root "$TREE" -w "$T/nf.zst" -n 2 -d 0.2 >/dev/null 2>&1
"$PROG" --replay "$T/nf.zst" --format prometheus -n 2 2>/dev/null | grep '^numatop_node_memory_' | sort -u >"$T/nf.rep"
"$PROG" --root "$TREE" --format prometheus -n 2 -d 0.2 2>/dev/null | grep '^numatop_node_memory_' | sort -u >"$T/nf.live"
[ -s "$T/nf.live" ] && [ "$(grep -c 'numatop_node_memory_' "$T/nf.live")" -ge 20 ] && cmp -s "$T/nf.rep" "$T/nf.live" &&
	ok replay_node_fields_round_trip || bad replay_node_fields_round_trip "$(diff "$T/nf.live" "$T/nf.rep" | head)"
# The memory tiers come back from a recording as they went in: the tier
# and Prometheus tier series, tier_kb and the FAST / SLOW columns of the
# tiered tree, live against replayed (a recording keeps the nodes'
# promotion and demotion rates, not their counters since boot).
"$PROG" --root tests/trees/tiered2 -w "$T/tiers.zst" -n 1 >/dev/null 2>&1
"$PROG" --replay "$T/tiers.zst" --format prometheus -n 1 2>/dev/null | grep -E '^numatop_(node_memory_tier|tier_|process_slow)' |
	grep -v '_pages_total' | sort >"$T/tiers.rep"
"$PROG" --root tests/trees/tiered2 --format prometheus -n 1 2>/dev/null | grep -E '^numatop_(node_memory_tier|tier_|process_slow)' |
	grep -v '_pages_total' | sort >"$T/tiers.live"
q='[.numa_balancing.memory_tiers, .numa_balancing.demotion_enabled, .numa_balancing.promote_rate_limit_mbps, [.nodes[] | .memory_tier_order, .hmat], [.processes[] | .tier_kb]]'
a=$("$PROG" --root tests/trees/tiered2 --json -n 1 2>/dev/null | jq -S -c "$q")
b=$("$PROG" --replay "$T/tiers.zst" --json -n 1 2>/dev/null | jq -S -c "$q")
ta=$("$PROG" --root tests/trees/tiered2 -b -n 1 -o pid,fast,slow,slow% 2>/dev/null | sed -n '/^ *PID/,$p')
tb=$("$PROG" --replay "$T/tiers.zst" -b -n 1 -o pid,fast,slow,slow% 2>/dev/null | sed -n '/^ *PID/,$p')
[ "$(grep -c 'numatop_tier_' "$T/tiers.live")" -ge 11 ] && cmp -s "$T/tiers.rep" "$T/tiers.live" &&
	[ -n "$a" ] && [ "$a" = "$b" ] && [ -n "$ta" ] && [ "$ta" = "$tb" ] && ok replay_tiers_round_trip ||
	bad replay_tiers_round_trip "$(diff "$T/tiers.live" "$T/tiers.rep" | head)" "$a" "$b" "$ta" "$tb"
