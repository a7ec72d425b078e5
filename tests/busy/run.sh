#!/bin/sh
# make test-busy: make test beside a build-like load (what a loaded CI
# runner or a build host does): one CPU-bound loop, a shell forking as
# fast as it can, short sleepers three at a time, and 200 MB written and
# synced over and over. Each part of the load runs in a session of its
# own (setsid: its process group is its PID), ended with its children by
# that group when the tests end (never by name).
# Tests must pass here as on a quiet machine: they assert no times and
# compare only processes they started.
cd "$(dirname "$0")/../.." || exit 1
W=$(mktemp -d)
setsid sh -c 'while :; do :; done' &
g1=$!
setsid sh -c 'while :; do /bin/true; done' &
g2=$!
setsid sh -c 'while :; do sleep 0.05 & sleep 0.07 & sleep 0.03 & wait; done' &
g3=$!
setsid sh -c "while :; do dd if=/dev/zero of=$W/big bs=1M count=200 conv=fsync 2>/dev/null; sync; done" &
g4=$!
stop() {
	for g in $g1 $g2 $g3 $g4; do kill -KILL -"$g" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$W"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP
echo "load: CPU loop $g1, fork loop $g2, sleepers $g3, 200 MB write+sync $g4"
${MAKE:-make} test
