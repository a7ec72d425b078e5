#!/bin/sh
# The layer rule (HACKING.md, tools/layers.py) holds on this tree: no
# include or call runs up a layer, no private header leaves its family,
# every file has a layer. And the check can fail: a copy of the tree with
# the parser including the monitor's header, and with a file no layer
# names, is refused.
PROG=${PROG:-./numatop-tui}
BUILD=${BUILD:-build}
. tests/sh/lib.sh
need python3 python3
need nm binutils
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if python3 tools/layers.py --build "$BUILD" >"$T/out" 2>&1; then
	ok "layers_hold ($(tail -1 "$T/out"))"
else
	bad layers_hold "$(grep -v '^cycle' "$T/out")"
fi
python3 tools/layers.py --build "$T/none" >"$T/out1" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^not built: ' "$T/out1" && ok layers_unbuilt_refused ||
	bad layers_unbuilt_refused "rc=$rc $(cat "$T/out1")"
mkdir "$T/tree"
cp -r include src ui tools "$T/tree/"
printf '#include "ui.h"\n' >>"$T/tree/src/parse.c"
printf 'int stray(void) { return 0; }\n' >"$T/tree/src/stray.c"
python3 "$T/tree/tools/layers.py" --build "$PWD/$BUILD" >"$T/out2" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^up a layer: src/parse.c (base) -> ui/ui.h (ui): include' "$T/out2" &&
	grep -q '^no layer: src/stray.c' "$T/out2" && ok layers_violation_refused ||
	bad layers_violation_refused "rc=$rc $(cat "$T/out2")"
