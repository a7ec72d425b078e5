#!/bin/sh
# 100 batch refreshes of the live machine (text and JSON) under valgrind:
# no invalid reads or writes, no definite or indirect leaks.
PROG=${PROG:-./numatop-tui}
if ! command -v valgrind >/dev/null; then echo "SKIP valgrind: not installed"; exit 0; fi
case "$PROG" in *asan*) echo "SKIP valgrind: sanitizer build"; exit 0 ;; esac
for mode in -b --json; do
	log=$(mktemp)
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 --log-file="$log" "$PROG" $mode -n 100 -d 0.1 >/dev/null 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$log" ]; then echo "PASS valgrind_100_refreshes$mode"
	else echo "FAIL valgrind_100_refreshes$mode (rc=$rc)"; head -30 "$log"; fi
	rm -f "$log"
done
