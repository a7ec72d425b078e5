#!/bin/sh
# 100 batch refreshes of the live machine (text and JSON) under valgrind:
# no invalid reads or writes, no definite or indirect leaks.
# VALGRIND_REFRESHES=N runs N instead (a longer soak).
PROG=${PROG:-./numatop-tui}
N=${VALGRIND_REFRESHES:-100}
. tests/sh/lib.sh
case "$N" in ''|*[!0-9]*) echo "FAIL valgrind: VALGRIND_REFRESHES must be a number"; exit 1 ;; esac
case "$PROG" in *asan*) echo "SKIP valgrind: sanitizer build"; exit 0 ;; esac
need valgrind valgrind
for mode in -b --json; do
	log=$(mktemp)
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 --log-file="$log" "$PROG" $mode -n "$N" -d 0.1 >/dev/null 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$log" ]; then echo "PASS valgrind_${N}_refreshes$mode"
	else echo "FAIL valgrind_${N}_refreshes$mode (rc=$rc)"; head -30 "$log"; fi
	rm -f "$log"
done
