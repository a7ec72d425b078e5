#!/bin/sh
# The screenshots are of the program as it is: each screenshots/NAME.png
# has its screen as text beside it (screenshots/NAME.txt, written by make
# screenshots), and that text is the program's screen of now, made the same
# way (tests/screenshots.sh --text: the same trees, sizes and keys). Only
# what changes from one run to the next is left out of the comparison, in
# the status line: the sample's age, the tool's own CPU and the time its
# numa_maps reads took. A screenshot that goes stale fails here: run
# make screenshots.
PROG=${PROG:-./numatop-tui}
FIX=${NUMATOP_FIXTURES:-../shared/fixtures/hwloc-linux}
. tests/sh/lib.sh
need tmux tmux
need bzip2 bzip2   # tar -xjf of the shared fixtures
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Every PNG has its text, and every text its PNG.
bad=""
for f in screenshots/*.png; do [ -f "${f%.png}.txt" ] || bad="$bad ${f%.png}.txt missing;"; done
for f in screenshots/*.txt; do [ ! -f "$f" ] || [ -f "${f%.txt}.png" ] || bad="$bad ${f%.txt}.png missing;"; done
[ -z "$bad" ] && ok screenshots_have_text || bad screenshots_have_text "$bad"

PROG=$PROG NUMATOP_FIXTURES=$FIX sh tests/screenshots.sh --text "$T/now" >"$T/out" 2>&1 ||
	bad screenshots_text_made "$(cat "$T/out")"
norm() {
	sed -E 's/  age [0-9]+(\.[0-9]+)?s/  age #s/; s/  tool CPU [-0-9.]+%/  tool CPU #%/;
		s/ sampled [0-9]+ms/ sampled #ms/' "$1"
}
for f in screenshots/*.txt; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .txt)
	if [ ! -f "$T/now/$name.txt" ]; then
		# The shots of the shared fixtures' trees, where they are absent.
		if grep -q '^SKIP screenshots' "$T/out"; then
			echo "SKIP screenshot_current_$name: $(grep '^SKIP' "$T/out")"
		else
			bad "screenshot_current_$name" "tests/screenshots.sh made no $name: $(cat "$T/out")"
		fi
		continue
	fi
	norm "$f" >"$T/was"
	norm "$T/now/$name.txt" >"$T/is"
	if cmp -s "$T/was" "$T/is"; then
		ok "screenshot_current_$name"
	else
		bad "screenshot_current_$name" "the program's screen is not the screenshot's (make screenshots):
$(diff "$T/was" "$T/is" | head -20)"
	fi
done
