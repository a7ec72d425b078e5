#!/bin/sh
# Run every test: the unit binaries given as arguments, then tests/sh/*.sh.
# Each test prints "PASS name", "FAIL name" or "SKIP name: why" lines; the
# last line is "N passed, N failed, N skipped". Exit status 1 on any failure.
cd "$(dirname "$0")/.." || exit 1
export PROG="${PROG:-./numatop-tui}" BUILD="${BUILD:-build}"
log=$(mktemp)
# Every process the tests start carries this run's marker in its
# environment: what is left at the end and carries it is ours to end.
# Nothing else is touched, whatever its name (a recorder or exporter of
# someone else's, a service restarted meanwhile).
NUMATOP_TEST_RUN=$$.$(date +%s%N)
export NUMATOP_TEST_RUN
# Where the tests' settings files go (tests/sh/lib.sh), removed at the end.
NUMATOP_TEST_CFG=$(mktemp -d)
export NUMATOP_TEST_CFG
trap 'rm -f "$log"; rm -rf "$NUMATOP_TEST_CFG"' EXIT
# Each test file gets TEST_FILE_TIMEOUT seconds (a hang fails it, and the
# run goes on; on a loaded machine the slowest file takes a few minutes).
TEST_FILE_TIMEOUT=${TEST_FILE_TIMEOUT:-1200}
run() {
	name=$1; shift
	echo "== $name"
	t0=$(date +%s)
	out=$(timeout -k 10 "$TEST_FILE_TIMEOUT" "$@" 2>&1); rc=$?
	[ $rc -eq 124 ] && out="$out
FAIL $name (still running after $TEST_FILE_TIMEOUT s: ended)"
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
# NUMATOP_TEST_FILES: other shell tests than tests/sh/test_*.sh (the test
# of this script's own clean-up runs it on one of its own).
for t in ${NUMATOP_TEST_FILES:-tests/sh/test_*.sh}; do [ -f "$t" ] && run "$(basename "$t")" sh "$t"; done
# Processes the tests started and left running (a monitor whose tmux
# went away, a helper): said, and ended, so that they do not load the
# machine for whatever runs next. Found by the marker in their environment,
# never by name; zombies are on their way out and not counted.
left=
for e in /proc/[0-9]*/environ; do
	p=${e#/proc/}; p=${p%/environ}
	[ "$p" = $$ ] && continue
	# (the braces: a process gone meanwhile fails the redirection, quietly)
	{ tr '\0' '\n' <"$e"; } 2>/dev/null | grep -qxF "NUMATOP_TEST_RUN=$NUMATOP_TEST_RUN" || continue
	st=$(ps -o stat= -p "$p" 2>/dev/null)
	[ -n "$st" ] && [ "${st#Z}" = "$st" ] && left="$left $p"
done
if [ -n "$left" ]; then
	echo "note: $(echo $left | wc -w) process(es) started by the tests left running, killed:"
	ps -o pid,etime,time,args -p "$(echo $left | tr ' ' ',')" 2>/dev/null | sed 's/^/    /'
	kill -9 $left 2>/dev/null
fi
p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
echo
grep '^FAIL ' "$log" | sed 's/^/  /'
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
