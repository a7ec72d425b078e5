#!/bin/sh
# tests/run.sh ends only what the tests started: a process of the tests
# left running is ended (found by the run's marker in its environment);
# a process named numatop-tui that the run did not start (an orphan with
# parent 1, as a recorder or exporter restarted by systemd would be) is
# left alone, though it appeared while the run went on.
. tests/sh/lib.sh
need setsid util-linux
T=$(mktemp -d)
decoy= left=
cleanup() {
	[ -n "$decoy" ] && kill "$decoy" 2>/dev/null
	[ -n "$left" ] && kill "$left" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
cp "$(command -v sleep)" "$T/numatop-tui"
# The inner run's one test: leaves a process of its own behind, and starts
# one that is not the run's (no marker), both orphans.
cat >"$T/test_inner.sh" <<EOT
setsid sleep 300 </dev/null >/dev/null 2>&1 &
echo \$! >"$T/left.pid"
env -u NUMATOP_TEST_RUN setsid "$T/numatop-tui" 301 </dev/null >/dev/null 2>&1 &
echo \$! >"$T/decoy.pid"
echo "PASS inner"
EOT
NUMATOP_TEST_FILES="$T/test_inner.sh" sh tests/run.sh >"$T/out" 2>&1
left=$(cat "$T/left.pid" 2>/dev/null) decoy=$(cat "$T/decoy.pid" 2>/dev/null)
if [ -z "$left" ] || [ -z "$decoy" ]; then
	bad run_cleanup "the inner test did not run: $(cat "$T/out")"
	exit 0
fi
alive() { st=$(ps -o stat= -p "$1" 2>/dev/null); [ -n "$st" ] && [ "${st#Z}" = "$st" ]; }
k=20; while [ $k -gt 0 ] && alive "$left"; do sleep 0.1; k=$((k - 1)); done
alive "$left" && bad run_cleanup_ends_its_own "PID $left (the run's own sleep) still running: $(cat "$T/out")" \
	|| ok run_cleanup_ends_its_own
alive "$decoy" && ok run_cleanup_spares_others \
	|| bad run_cleanup_spares_others "PID $decoy (numatop-tui, not the run's) was ended: $(cat "$T/out")"
exit 0
