#!/bin/sh
# Run every test: the unit binaries given as arguments, then tests/sh/*.sh.
# Each test prints "PASS name", "FAIL name" or "SKIP name: why" lines; the
# last line is "N passed, N failed, N skipped". Exit status 1 on any failure.
cd "$(dirname "$0")/.." || exit 1
export PROG="${PROG:-./numatop-tui}" BUILD="${BUILD:-build}"
log=$(mktemp)
# Orphaned processes of the program (parent 1) before the tests: not ours.
before=$(mktemp)
pgrep -x -P 1 numatop-tui | sort >"$before"
# Where the tests' settings files go (tests/sh/lib.sh), removed at the end.
NUMATOP_TEST_CFG=$(mktemp -d)
export NUMATOP_TEST_CFG
trap 'rm -f "$log" "$before"; rm -rf "$NUMATOP_TEST_CFG"' EXIT
run() {
	name=$1; shift
	echo "== $name"
	t0=$(date +%s)
	out=$("$@" 2>&1); rc=$?
	printf '%s\n' "$out"
	echo "-- $name: $(($(date +%s) - t0)) s"
	printf '%s\n' "$out" | grep -E '^(PASS|FAIL|SKIP) ' >>"$log"
	# A crash or failure exit with no FAIL line still counts as a failure.
	if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
		echo "FAIL $name (exit status $rc)" | tee -a "$log"
	fi
}
# The unit tests run tar -xjf on the shared fixtures: a missing bzip2 is
# said with its package, not only as "tar -xjf failed" (tests/sh/*.sh say
# it themselves: need in tests/sh/lib.sh).
if [ $# -gt 0 ] && ! command -v bzip2 >/dev/null 2>&1; then
	echo "FAIL unit_tests: needs bzip2 (apt-get install bzip2)" | tee -a "$log"
fi
for t in "$@"; do run "$(basename "$t")" "$t"; done
for t in tests/sh/test_*.sh; do [ -f "$t" ] && run "$(basename "$t")" sh "$t"; done
# Processes of the program still running now were left behind by a test
# (a monitor whose tmux went away): said, and ended, so that they do not
# load the machine for whatever runs next.
orphans() { pgrep -x -P 1 numatop-tui | sort; }
left=$(orphans | comm -23 - "$before")
for p in $left; do left="$left $(pgrep -P "$p")"; done
# (zombies are on their way out: not counted)
left=$(for p in $left; do st=$(ps -o stat= -p "$p" 2>/dev/null); [ -n "$st" ] && [ "${st#Z}" = "$st" ] && echo "$p"; done)
if [ -n "$left" ]; then
	echo "note: $(echo "$left" | wc -l) process(es) of $PROG left running by the tests, killed:"
	ps -o pid,etime,time,args -p "$(echo "$left" | tr '\n' ',' | sed 's/,$//')" 2>/dev/null | sed 's/^/    /'
	echo "$left" | xargs kill -9 2>/dev/null
fi
p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
echo
grep '^FAIL ' "$log" | sed 's/^/  /'
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
