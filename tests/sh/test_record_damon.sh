#!/bin/sh
# DAMON's region numbers as sysfs may hold them, recorded and replayed. On
# a copy of opteron4 with a recorded kdamond (tests/sh/damon_tree.sh),
# the regions' nr_accesses and age files hold numbers the kernel's
# unsigned ints do not (empty, not a number, negative, 2^32, 2^64) beside
# large valid ones (2^31, UINT_MAX):
#  - --json: each region's nr_accesses is null (unknown) or the number
#    read, 0..4294967295; never negative or wrapped; age_s likewise;
#  - an unknown count is neither hot nor cold (warm);
#  - a recording made over the tree replays every sample (no "malformed"),
#    with the same regions, and the text rebuilt from it is the live text;
#  - a count past 4294967295 put into a recording by hand makes that
#    sample malformed (said, skipped), never a wrong number.
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
. tests/sh/lib.sh
need jq jq
need zstd zstd
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
. tests/sh/damon_tree.sh
cp -r "$TREE" "$T/h"
damon_tree "$T/h"
R=$T/h/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/tried_regions
# set REGION FILE TEXT: the file's content exactly (printf: "" is empty).
set_f() { printf '%s' "$3" >"$R/$1/$2"; }
# 1000's regions (damon_tree.sh): 0 program (cold), 1 heap (warm, age
# 20), 2 0x7f0000000000 (hot 18, age 40), 3 (cold), 4 0x7f1000000000
# (hot 5, age 40), 5 (cold); 2000's: 6, 7 (cold).
set_f 2 nr_accesses 2147483648          # valid: hot, as it is
set_f 2 age 4294967295                  # valid
set_f 4 nr_accesses abc                 # unknown: warm
set_f 1 age 18446744073709551616        # unknown age: warm, age_s null
set_f 0 nr_accesses ""                  # unknown
set_f 3 nr_accesses -1
set_f 5 age 4294967296
set_f 6 nr_accesses 4294967296
set_f 7 nr_accesses 18446744073709551616

# regions FILE: pid 1000's regions of each sample, one a line: "start heat
# nr_accesses age_s".
regions() {
	jq -r '.processes[]? | select(.pid == 1000) | .access.regions[]? |
		"\(.start) \(.heat) \(.nr_accesses) \(.age_s)"' "$1" 2>&1
}

"$PROG" --root "$T/h" --json -n 1 >"$T/live.json" 2>"$T/live.err"; rc=$?
# Every count in the heat: null or 0..4294967295, whole.
badn=$(jq -r '[.processes[]?.access.regions[]? | .nr_accesses, .age_s] |
	map(select(. != null and (. < 0 or . > 4294967295 * 1000000))) | length' "$T/live.json" 2>&1)
badc=$(jq -r '[.processes[]?.access.regions[]?.nr_accesses |
	select(. != null and (. < 0 or . > 4294967295 or . != floor))] | length' "$T/live.json" 2>&1)
[ $rc -eq 0 ] && [ "$badn" = 0 ] && [ "$badc" = 0 ] && ok damon_numbers_in_range ||
	bad damon_numbers_in_range "rc=$rc, $badn/$badc out of range: $(regions "$T/live.json" | tr '\n' ';') $(head -c 300 "$T/live.err")"
r=$(regions "$T/live.json")
want="0x7f0000000000 hot 2147483648 429496729.5
0x7f1000000000 warm null 4
0xa08000 warm 0 null"
got=$(printf '%s\n' "$r" | grep -E '^0x(7f0000000000|7f1000000000|a08000) ' | LC_ALL=C sort)
[ "$got" = "$want" ] && ok damon_numbers_json || bad damon_numbers_json "got:
$got
want:
$want"

# Recorded, replayed: every sample read, the same regions.
"$PROG" --root "$T/h" -w "$T/h.zst" -n 2 -d 0.2 >/dev/null 2>"$T/w.err"; wrc=$?
"$PROG" --replay "$T/h.zst" --json >"$T/r.json" 2>"$T/r.err"; rrc=$?
n=$(grep -c . "$T/r.json")
[ $wrc -eq 0 ] && [ $rrc -eq 0 ] && [ "$n" = 2 ] && ! grep -qiE 'malformed|could not be read' "$T/w.err" "$T/r.err" &&
	ok damon_numbers_replayed || bad damon_numbers_replayed "record rc=$wrc, replay rc=$rrc, $n samples:
$(cat "$T/w.err" "$T/r.err" | head -c 600)"
zstdcat "$T/h.zst" 2>/dev/null | tail -n +2 >"$T/rec.json"
a=$(regions "$T/rec.json" | LC_ALL=C sort); b=$(regions "$T/r.json" | LC_ALL=C sort)
c=$( (regions "$T/live.json"; regions "$T/live.json") | LC_ALL=C sort)
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ] && ok damon_numbers_recorded_regions ||
	bad damon_numbers_recorded_regions "recorded: $(echo "$a" | tr '\n' ';')
replayed: $(echo "$b" | tr '\n' ';')
live x2:  $(echo "$c" | tr '\n' ';')"
# The model rebuilt from the recording: its text is the live text.
cols="-o pid,hot,hotrem,hotrem%,command -s pid"
"$PROG" --root "$T/h" -b -n 1 $cols 2>&1 | sed -n '/ PID /,$p' >"$T/lt"
"$PROG" --replay "$T/h.zst" -b -n 1 $cols 2>&1 | sed -n '/ PID /,$p' >"$T/rt"
[ -s "$T/lt" ] && grep -q ' 1000 ' "$T/lt" && cmp -s "$T/lt" "$T/rt" && ok damon_numbers_replay_text ||
	bad damon_numbers_replay_text "$(diff "$T/lt" "$T/rt" | head -20)"

# A count past the kernel's unsigned int, put in by hand: that sample is
# malformed, said, skipped; the other one is read.
zstdcat "$T/h.zst" 2>/dev/null | awk 'NR == 2 { sub(/"nr_accesses":2147483648/, "\"nr_accesses\":4294967296") } { print }' |
	zstd -q -o "$T/e.zst" 2>/dev/null
zstdcat "$T/e.zst" 2>/dev/null | grep -q '"nr_accesses":4294967296' || echo "the edit was not made" >"$T/e.err0"
"$PROG" --replay "$T/e.zst" --json >"$T/e.json" 2>"$T/e.err"; erc=$?
n=$(grep -c . "$T/e.json")
grep -q 'malformed' "$T/e.err" && [ "$n" = 1 ] && ! grep -q '4294967296' "$T/e.json" && [ ! -e "$T/e.err0" ] &&
	ok damon_numbers_past_uint_refused || bad damon_numbers_past_uint_refused "rc=$erc, $n samples read:
$(cat "$T/e.err0" "$T/e.err" 2>/dev/null | head -c 400)"
