#!/bin/sh
# make screenshots: run the real program in tmux on recorded trees, capture
# the screen with colours (capture-pane -e), turn it into HTML with aha and
# into a PNG with headless Chromium. Output: screenshots/*.png
set -eu
cd "$(dirname "$0")/.."
PROG=$(pwd)/numatop-tui
FIX=${NUMATOP_FIXTURES:-../shared/fixtures/hwloc-linux}
# The packages come from make screenshots (SHOT_PKGS in the Makefile).
for tool in tmux:tmux aha:aha chromium:chromium bzip2:bzip2; do
	command -v "${tool%%:*}" >/dev/null ||
		{ echo "screenshots: ${tool%%:*} missing (apt-get install ${tool#*:})"; exit 1; }
done
T=$(mktemp -d)
export TMUX_TMPDIR="$T"
trap 'tmux kill-server 2>/dev/null || true; rm -rf "$T"' EXIT
# A session that lives as long as the test: the server never exits between
# sessions (a new-session racing with the last kill-session fails).
tmux new-session -d -s keep -x 20 -y 5 "sleep 3600" 2>/dev/null
S=shots

shot() { # shot NAME COLS ROWS "KEYS" ARGS...
	name=$1 w=$2 h=$3 k=$4; shift 4
	tmux kill-session -t $S 2>/dev/null || true
	tmux new-session -d -s $S -x "$w" -y "$h" "TERM=tmux-256color $PROG $*; sleep 30"
	sleep 1.5
	for key in $k; do tmux send-keys -t $S "$key"; sleep 0.4; done
	sleep 0.5
	tmux capture-pane -e -p -t $S > "$T/$name.ans"
	aha --black --title "$name" < "$T/$name.ans" |
		sed 's|<pre>|<pre style="font-family: DejaVu Sans Mono, monospace; font-size: 14px; line-height: 1.15; margin: 8px">|' \
		> "$T/$name.html"
	px_w=$((w * 85 / 10 + 16)); px_h=$((h * 161 / 10 + 16))
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T/chrome" --hide-scrollbars \
		--window-size="$px_w,$px_h" --screenshot="$(pwd)/screenshots/$name.png" \
		"file://$T/$name.html" >/dev/null 2>&1
	echo "screenshots/$name.png"
	tmux kill-session -t $S 2>/dev/null || true
}

mkdir -p screenshots
shot main-opteron4 120 36 "" --root tests/trees/opteron4
shot detail-opteron4 120 36 "Enter" --root tests/trees/opteron4
shot help 100 40 "h" --root tests/trees/opteron4
shot cgroups-opteron4 130 30 "Tab Tab" --root tests/trees/opteron4
if [ -f "$FIX/16amd64-8n2c.tar.bz2" ]; then
	mkdir "$T/fx"
	tar -xjf "$FIX/16amd64-8n2c.tar.bz2" -C "$T/fx"
	root=$(find "$T/fx" -mindepth 1 -maxdepth 1 -type d | head -1)
	# The recorded tree has no processes: overlay the synthetic ones.
	cp -r tests/trees/opteron4/etc "$root/"
	mkdir -p "$root/proc" && cp -r tests/trees/opteron4/proc/1000 tests/trees/opteron4/proc/2000 \
	      tests/trees/opteron4/proc/4242 "$root/proc/"
	shot main-8node 120 40 "" --root "$root"
	mkdir "$T/fx2"
	tar -xjf "$FIX/64amd64-4s2n4ca2co.tar.bz2" -C "$T/fx2"
	root2=$(find "$T/fx2" -mindepth 1 -maxdepth 1 -type d | head -1)
	shot topology-64cpu 120 40 "Tab Tab Tab" --root "$root2"
	# The firmware's HMAT layer (v) of a tree with memory-only tiers.
	mkdir "$T/fx3"
	tar -xjf "$FIX/fakeheteromemtiers.tar.bz2" -C "$T/fx3"
	shot hmat-layer 120 36 "v" --root "$T/fx3/fakeheteromemtiers"
else
	echo "screenshots: fixtures not at $FIX: 8-node and topology shots skipped"
fi
# A many-node machine: the 64-node synthetic tree of the tests (the panels
# flow into columns, the heatmap points to its screen, the table keeps
# half the height); and F2 Setup.
sh tests/trees/gen_many_nodes.sh "$T/m64" >/dev/null
shot main-64node 120 40 "" --root "$T/m64"
shot setup 120 30 "F2" --root tests/trees/opteron4
