#!/bin/sh
# Command-line behaviour: options, errors, live batch and JSON output.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

$PROG --help >"$t/o" 2>&1 && grep -q -- '--root DIR' "$t/o" && ok cli_help || bad cli_help "$(cat "$t/o")"
$PROG -V | grep -Eq '^numatop-tui [0-9]+\.[0-9]+' && ok cli_version || bad cli_version
$PROG --bogus >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "unknown option '--bogus'" "$t/o" && ok cli_bad_option || bad cli_bad_option "rc=$rc $(cat "$t/o")"
$PROG -b -n 0 >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q -- '-n: need a count' "$t/o" && ok cli_bad_count || bad cli_bad_count "rc=$rc"
$PROG -b -d abc >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q -- '-d: need seconds' "$t/o" && ok cli_bad_delay || bad cli_bad_delay "rc=$rc"
$PROG -b -n 1 -s nosuch >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "unknown column 'nosuch'" "$t/o" && ok cli_bad_sort || bad cli_bad_sort "rc=$rc $(cat "$t/o")"

# A missing root and a root without /sys or /proc: clear message, exit 1.
$PROG --root /no/such/dir -b -n 1 >"$t/o" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "cannot open root '/no/such/dir': No such file or directory" "$t/o" \
	&& ok cli_missing_root || bad cli_missing_root "rc=$rc $(cat "$t/o")"
mkdir "$t/empty"
$PROG --root "$t/empty" -b -n 1 >"$t/o" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "has no readable /sys or /proc" "$t/o" && ok cli_empty_root || bad cli_empty_root "rc=$rc $(cat "$t/o")"
NUMATOP_TUI_ROOT=/no/such/env $PROG -b -n 1 >"$t/o" 2>&1
grep -q "'/no/such/env'" "$t/o" && ok cli_env_root || bad cli_env_root "$(cat "$t/o")"

# Live: two JSON samples; load is null first, a number second.
$PROG --json -n 2 -d 0.3 >"$t/j" 2>"$t/e"; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$t/j")" -eq 2 ] && ok live_json_two_lines || bad live_json_two_lines "rc=$rc $(cat "$t/e")"
head -1 "$t/j" | grep -q '"cpu_busy_pct":null' && ok live_json_first_load_null || bad live_json_first_load_null
tail -1 "$t/j" | grep -Eq '"cpu_busy_pct":[0-9]' && ok live_json_second_load_number || bad live_json_second_load_number
# PID 1 is EACCES even for root here, or readable: either way never zeros.
if head -1 "$t/j" | grep -q '"pid":1,[^}]*"numa_maps":"no_perm"'; then
	head -1 "$t/j" | grep -Eq '"pid":1,[^}]*"node_kb":null[^}]*"total_kb":null' \
		&& ok live_no_perm_is_null || bad live_no_perm_is_null
else
	echo "SKIP live_no_perm_is_null: /proc/1/numa_maps is readable here"
fi
# -p selects; our own shell is there with its memory read.
$PROG --json -n 1 -p $$ >"$t/j" 2>&1
grep -q "\"pid\":$$," "$t/j" && [ "$(grep -o '"pid":' "$t/j" | wc -l)" -eq 1 ] \
	&& grep -q '"numa_maps":"ok"' "$t/j" && ok live_pid_filter || bad live_pid_filter "$(cat "$t/j")"
# -u by name and by uid.
$PROG --json -n 1 -u root | grep -q '"user":"root"' && ok live_user_filter || bad live_user_filter
# None: a whole sample with an empty process list (a program that failed
# and printed nothing must not count as "no processes"). A uid nobody
# runs as; a name that is no user is a usage error (as with ps -u).
$PROG --json -n 1 -u 54321 >"$t/j" 2>&1; rc=$?
n=$(grep -o '"pid":' "$t/j" | wc -l)
[ $rc -eq 0 ] && grep -q '"processes":\[\]}$' "$t/j" && [ "$n" -eq 0 ] && ok live_user_filter_none \
	|| bad live_user_filter_none "rc=$rc, $n processes: $(head -c 300 "$t/j")"
$PROG --json -n 1 -u nosuchuser >"$t/j" 2>"$t/e"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$t/j" ] && grep -q "no such user" "$t/e" && ok live_user_unknown \
	|| bad live_user_unknown "rc=$rc: $(cat "$t/e")"
# Text batch: header, node table, distances, process table.
$PROG -b -n 1 >"$t/o" 2>&1
grep -q '^numatop-tui ' "$t/o" && grep -q 'MEM_TOTAL_KB' "$t/o" && grep -q '^DISTANCE' "$t/o" \
	&& grep -Eq '^ +PID USER +HOME' "$t/o" && ok live_batch_sections || bad live_batch_sections "$(head -20 "$t/o")"
# A closed stdout (| head -1) ends cleanly, quickly, without an error.
out=$( ( $PROG -b -d 0.1 2>"$t/e"; echo "rc=$?" >"$t/rc" ) | head -1)
case "$out" in numatop-tui*) ok batch_closed_pipe_output ;; *) bad batch_closed_pipe_output "$out" ;; esac
grep -q 'rc=0' "$t/rc" && [ ! -s "$t/e" ] && ok batch_closed_pipe_clean || bad batch_closed_pipe_clean "$(cat "$t/rc" "$t/e")"
# SIGTERM stops the batch loop with status 0.
$PROG -b -d 0.2 >/dev/null 2>&1 & pid=$!
sleep 0.5; kill -TERM $pid; wait $pid; rc=$?
[ $rc -eq 0 ] && ok batch_sigterm || bad batch_sigterm "rc=$rc"

# --- values refused as usage errors (exit 2), each echoed without a raw
# control character; on the recorded tree, so that a value wrongly taken
# runs one quick sample (exit 0) ---
TREE=tests/trees/opteron4
# use NAME ARGS...: "NAME: rc=N message" when the program did not refuse
# the arguments with exit 2 and a one-line message.
use() {
	name=$1; shift
	$PROG --root "$TREE" "$@" >/dev/null 2>"$t/e"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$t/e")" -eq 2 ] || echo "$name: rc=$rc $(head -c 300 "$t/e")"
}
for u in 4294967295 4294967296 18446744073709551616 99999999999999999999999; do
	use "-u $u" -b -n 1 -u "$u"
done >"$t/o"
$PROG --root "$TREE" -b -n 1 -u 4294967294 >/dev/null 2>&1 || echo "-u 4294967294 refused" >>"$t/o"
[ ! -s "$t/o" ] && grep -q 'out of range' "$t/e" && ok cli_user_uid_range || bad cli_user_uid_range "$(cat "$t/o")"
nl=$(printf 'ro\nnot'); esc=$(printf 'a\033[31mb'); cr=$(printf 'x\ry')
for a in "-u $nl" "-u $esc" "-u $cr" "-s $nl" "-o PID,$esc" "--format $esc" "--serve $nl:1" "-d $esc"; do
	use "$a" -b -n 1 ${a%% *} "${a#* }"
	tr -d '\n' <"$t/e" | LC_ALL=C grep -q '[[:cntrl:]]' && echo "$a: a control character in: $(od -c "$t/e" | head -3)"
done >"$t/o" 2>&1
[ ! -s "$t/o" ] && ok cli_echo_escaped || bad cli_echo_escaped "$(cat "$t/o")"
for l in PID,,RSS ,PID PID, , PID,RSS,,; do
	use "-o $l" -b -n 1 -o "$l"
	grep -q 'empty name' "$t/e" || echo "-o $l: $(cat "$t/e")"
done >"$t/o"
[ ! -s "$t/o" ] && ok cli_columns_empty_name || bad cli_columns_empty_name "$(cat "$t/o")"
# A host name is not an address (the server binds numbers only): a usage
# error before anything starts, not a failure once the sampler runs.
for s in localhost:1 example.invalid:9000 '[localhost]:1' 1.2.3:80 '[::1:80'; do
	use "--serve $s" --serve "$s"
done >"$t/o"
[ ! -s "$t/o" ] && ok cli_serve_bad_address_usage || bad cli_serve_bad_address_usage "$(cat "$t/o")"
# --metrics-min-remote SIZE: bytes, or K M G T (binary, either case), up
# to 1T; anything else (a sign, a fraction, a unit with more letters, a
# number beyond 1T or beyond 64 bits) is a usage error. --metrics-by: pid
# or comm.
for v in -1 +1 1.5M 1MB 1X K '' ' 1' 1k2 0x10 1099511627777 1025G 2T 18446744073709551616 99999999999999999999T; do
	use "--metrics-min-remote '$v'" --format prometheus -n 1 --metrics-min-remote "$v"
done >"$t/o"
cp "$t/e" "$t/e1"
for v in '' PID pid,comm user; do
	use "--metrics-by '$v'" --format prometheus -n 1 --metrics-by "$v"
done >>"$t/o"
for v in 0 1048576 512k 1M 1g 1T 1099511627776; do
	$PROG --root "$TREE" --format prometheus -n 1 --metrics-min-remote "$v" --metrics-by comm >/dev/null 2>&1 ||
		echo "--metrics-min-remote $v refused"
done >>"$t/o"
[ ! -s "$t/o" ] && grep -q 'need a size in bytes' "$t/e1" && grep -q 'need pid or comm' "$t/e" && ok cli_metrics_options || bad cli_metrics_options "$(cat "$t/o")"
# --begin / --end: a date that is not in the calendar, and a span that
# ends before it begins (times of day, or dates), on a real recording.
$PROG --root "$TREE" -w "$t/r.zst" -n 2 -d 0.1 >/dev/null 2>&1
for d in '2026-02-30 10:00' '2026-04-31T10:00' '2026-02-29 10:00:00' '2026-02-30T10:00:00Z' '2027-06-31 00:00'; do
	use "--begin $d" --replay "$t/r.zst" --json --begin "$d"
	use "--end $d" --replay "$t/r.zst" --json --end "$d"
done >"$t/o"
$PROG --replay "$t/r.zst" --json --begin '2024-02-29 10:00' >/dev/null 2>&1 || echo "2024-02-29 refused" >>"$t/o"
[ -s "$t/r.zst" ] && [ ! -s "$t/o" ] && grep -q 'no such date' "$t/e" && ok cli_replay_no_such_date ||
	bad cli_replay_no_such_date "$(cat "$t/o")"
use "12:00 11:59" --replay "$t/r.zst" --json --begin 12:00 --end 11:59 >"$t/o"
use "dates" --replay "$t/r.zst" --json --begin '2026-01-02 00:00' --end '2026-01-01 23:59:59' >>"$t/o"
[ -s "$t/r.zst" ] && [ ! -s "$t/o" ] && grep -q 'is after --end' "$t/e" && ok cli_replay_begin_after_end ||
	bad cli_replay_begin_after_end "$(cat "$t/o")"
# A time of day (on the recording's first day) and a date: ordered only
# once the recording is open; the other way round the window has samples.
$PROG --replay "$t/r.zst" --json --begin 00:00 --end '2000-01-01 00:00' >"$t/o" 2>"$t/e"; rc=$?
$PROG --replay "$t/r.zst" --json --begin 00:00 --end '2999-01-01 00:00' >"$t/o2" 2>/dev/null; rc2=$?
[ $rc -eq 2 ] && [ ! -s "$t/o" ] && grep -q "is after --end 2000-01-01 00:00 (times of day are on the recording's first day)" "$t/e" &&
	[ $rc2 -eq 0 ] && [ "$(grep -c '"sample"' "$t/o2")" -eq 2 ] && ok cli_replay_begin_time_after_end_date ||
	bad cli_replay_begin_time_after_end_date "rc=$rc $(cat "$t/e") / rc=$rc2 $(head -c 200 "$t/o2")"
# -c (--full-command): batch text's COMMAND is the command line, as top -c;
# without it, the name.
a=$($PROG --root "$TREE" -b -n 1 -c -p 1000 | grep -E '^ +1000 ')
b=$($PROG --root "$TREE" -b -n 1 --full-command -p 1000 | grep -E '^ +1000 ')
c=$($PROG --root "$TREE" -b -n 1 -p 1000 | grep -E '^ +1000 ')
case "$a|$b|$c" in
*"/usr/sbin/dbserver --config /etc/db.conf|"*"/usr/sbin/dbserver --config /etc/db.conf|"*" dbserver") ok cli_full_command ;;
*) bad cli_full_command "-c: $a / --full-command: $b / none: $c" ;;
esac
