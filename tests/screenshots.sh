#!/bin/sh
# make screenshots: run the real program in tmux on recorded trees, capture
# the screen with colours (capture-pane -e), turn it into HTML with aha and
# into a PNG with headless Chromium. Output: screenshots/NAME.png and, beside
# each, its screen as text (screenshots/NAME.txt), which
# tests/sh/test_screenshots.sh compares with the program's screen of now.
#
#   tests/screenshots.sh             the PNGs and their texts
#   tests/screenshots.sh --text DIR  only the texts, into DIR (no aha or
#                                    Chromium; what the test runs)
#
# Each shot runs in a directory of its own tree's parent, with --root
# given relative to it, so that the title says the tree's name and not
# where this run unpacked it.
set -eu
cd "$(dirname "$0")/.."
TOP=$(pwd)
PROG=${PROG:-./numatop-tui}
case $PROG in /*) ;; *) PROG=$TOP/$PROG ;; esac
FIX=${NUMATOP_FIXTURES:-../shared/fixtures/hwloc-linux}
case $FIX in /*) ;; *) FIX=$TOP/$FIX ;; esac
TEXT=
if [ "${1:-}" = --text ]; then
	TEXT=${2:?usage: screenshots.sh [--text DIR]}
	mkdir -p "$TEXT"
fi
# The packages come from make screenshots (SHOT_PKGS in the Makefile).
tools="tmux:tmux bzip2:bzip2"
[ -n "$TEXT" ] || tools="$tools aha:aha chromium:chromium"
for tool in $tools; do
	command -v "${tool%%:*}" >/dev/null ||
		{ echo "screenshots: ${tool%%:*} missing (apt-get install ${tool#*:})"; exit 1; }
done
T=$(mktemp -d)
export TMUX_TMPDIR="$T"
trap 'tmux kill-server 2>/dev/null || true; rm -rf "$T"' EXIT
# A session that lives as long as the test: the server never exits between
# sessions (a new-session racing with the last kill-session fails).
tmux new-session -d -s keep -x 20 -y 5 "sleep 3600" 2>/dev/null

# wait_screen TEXT: until the screen of session $S shows TEXT (10 s).
wait_screen() {
	k=100
	while [ $k -gt 0 ]; do
		tmux capture-pane -p -t "$S" 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.1; k=$((k - 1))
	done
	echo "screenshots: $name: no '$1' on the screen" >&2
	return 1
}
# settle: until two looks 0.2 s apart see the same screen (8 s).
settle() {
	prev= k=40
	while [ $k -gt 0 ]; do
		cur=$(tmux capture-pane -p -t "$S")
		[ "$cur" = "$prev" ] && return 0
		prev=$cur; sleep 0.2; k=$((k - 1))
	done
}

shot() { # shot NAME COLS ROWS "KEYS" DIR ARGS...
	name=$1 w=$2 h=$3 keys=$4 dir=$5; shift 5
	S=shot-$name
	# A fixed locale and terminal, settings of its own (none: not the
	# user's, which a shot ended by its terminal's hang-up would write);
	# -d 60: the first sample and the warm-up's reads of placement only
	# (the same screen each time on a recorded tree). The status line says
	# "placement read for N of M" (or "read N/M") while the warm-up goes
	# on: the shot waits for the table, then for that to go.
	mkdir -p "$T/cfg-$name"
	tmux new-session -d -s "$S" -x "$w" -y "$h" -c "$dir" \
		"LC_ALL=C.UTF-8 TERM=tmux-256color XDG_CONFIG_HOME=$T/cfg-$name $PROG -d 60 $*; sleep 30"
	wait_screen "Tasks:" || return 1
	k=100
	while [ $k -gt 0 ] && tmux capture-pane -p -t "$S" | grep -Eq '^Tasks:.*(placement read for|  read [0-9]+/)'; do
		sleep 0.1; k=$((k - 1))
	done
	# Each key: until the screen changes, then until it stays.
	for key in $keys; do
		before=$(tmux capture-pane -p -t "$S")
		tmux send-keys -t "$S" "$key"
		n=60
		while [ $n -gt 0 ] && [ "$(tmux capture-pane -p -t "$S")" = "$before" ]; do
			sleep 0.05; n=$((n - 1))
		done
	done
	settle
	out=${TEXT:-screenshots}
	tmux capture-pane -p -t "$S" > "$out/$name.txt"
	if [ -z "$TEXT" ]; then
		tmux capture-pane -e -p -t "$S" > "$T/$name.ans"
		aha --black --title "$name" < "$T/$name.ans" |
			sed 's|<pre>|<pre style="font-family: DejaVu Sans Mono, monospace; font-size: 14px; line-height: 1.15; margin: 8px">|' \
			> "$T/$name.html"
		px_w=$((w * 85 / 10 + 16)); px_h=$((h * 161 / 10 + 16))
		chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$T/chrome" --hide-scrollbars \
			--window-size="$px_w,$px_h" --screenshot="$TOP/screenshots/$name.png" \
			"file://$T/$name.html" >/dev/null 2>&1
		echo "screenshots/$name.png screenshots/$name.txt"
	fi
	tmux kill-session -t "$S" 2>/dev/null || true
}
# With --text the shots run side by side (no Chromium to share).
pids=
run() {
	if [ -n "$TEXT" ]; then
		shot "$@" & pids="$pids $!"
	else
		shot "$@"
	fi
}

mkdir -p screenshots
# (64 nodes: 3 s of making files, while the other shots run.)
sh tests/trees/gen_many_nodes.sh "$T/m64" >/dev/null &
gen=$!
run main-opteron4 120 36 "" "$TOP/tests/trees" --root opteron4
run detail-opteron4 120 36 "Enter" "$TOP/tests/trees" --root opteron4
run help 100 40 "h" "$TOP/tests/trees" --root opteron4
run setup 120 30 "F2" "$TOP/tests/trees" --root opteron4
if [ -f "$FIX/16amd64-8n2c.tar.bz2" ]; then
	mkdir "$T/fx"
	tar -xjf "$FIX/16amd64-8n2c.tar.bz2" -C "$T/fx"
	root=$(find "$T/fx" -mindepth 1 -maxdepth 1 -type d | head -1)
	# The recorded tree has no processes: overlay the synthetic ones.
	cp -r tests/trees/opteron4/etc "$root/"
	mkdir -p "$root/proc" && cp -r tests/trees/opteron4/proc/1000 tests/trees/opteron4/proc/2000 \
	      tests/trees/opteron4/proc/4242 "$root/proc/"
	run main-8node 120 40 "" "$T/fx" --root "$(basename "$root")"
	mkdir "$T/fx2"
	tar -xjf "$FIX/64amd64-4s2n4ca2co.tar.bz2" -C "$T/fx2"
	root2=$(find "$T/fx2" -mindepth 1 -maxdepth 1 -type d | head -1)
	run topology-64cpu 120 40 "Tab Tab Tab" "$T/fx2" --root "$(basename "$root2")"
	# The firmware's HMAT layer (v) of a tree with memory-only tiers.
	mkdir "$T/fx3"
	tar -xjf "$FIX/fakeheteromemtiers.tar.bz2" -C "$T/fx3"
	run hmat-layer 120 36 "v" "$T/fx3" --root fakeheteromemtiers
else
	echo "SKIP screenshots: fixtures not at $FIX: 8-node, topology and HMAT shots left out"
fi
# The tiered lab (tests/trees/tiered2: node 0 with the CPUs in
# memory_tier4, node 1 memory-only in memory_tier67, HMAT 80 vs 300 ns)
# with a recorded kdamond: 100's 64 MiB bound to the slow node is hot
# (slow_tier_hot), 200's pages there were demoted (cold). The panels
# grouped by tier, FAST / SLOW / HOTSLOW / COLDFAST, WHY; the Nodes
# screen's tier lines.
. "$TOP/tests/sh/damon_tree.sh"
cp -r "$TOP/tests/trees/tiered2" "$T/lab"
damon_tree_tiered "$T/lab"
run tiers-lab 160 30 "" "$T" --root lab
run tiers-nodes 120 30 "Tab" "$T" --root lab
# A many-node machine: the 64-node synthetic tree of the tests (the panels
# flow into columns, the heatmap points to its screen, the table keeps
# half the height).
wait $gen
run main-64node 120 40 "" "$T" --root m64
fail=0
for p in $pids; do wait "$p" || fail=1; done
exit $fail
