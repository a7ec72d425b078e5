#!/bin/sh
# Many nodes (issue 12): on a 64-node machine the node panels and the
# heatmap must not eat the screen. The monitor runs in tmux on a generated
# 64-node tree (tests/trees/gen_many_nodes.sh: 60 CPU nodes + 4 memory-only,
# 11 processes) at 80x24, 120x40 and 200x60, then on the 17-node ia64
# fixture. Per size:
#   header  the process table header (PID ... USER ...; at 200 columns also
#           COMMAND) is on screen
#   half    the header is on screen row LINES/2 or above (0-based, as curses
#           counts: the table keeps about half the screen)
#   rows    process rows below it: at least min(5, nprocs) at 80x24, all
#           nprocs at the bigger sizes; every row is a PID of the tree
#   remote  every row shows its REMOTE and REMOTE% values (from -b) when
#           the header has the REMOTE% (or REMOT%) column
#   width   no line is wider than the terminal, the first line is the tab
#           bar and the last the function-key bar (nothing wrapped/scrolled)
#   nodes   N0 is above the table, and so is N<last> or "+K more"
# The fixture has no processes: header, width and nodes only.
PROG=${PROG:-./numatop-tui}
FIX=${NUMATOP_FIXTURES:-../shared/fixtures/hwloc-linux}
GEN=tests/trees/gen_many_nodes.sh
. tests/sh/lib.sh
# A missing tmux is a FAIL naming the package (lib.sh's need; the same
# here when this lib.sh does not have it yet).
command -v need >/dev/null 2>&1 || need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "FAIL $(basename "$0"): needs $1 (apt-get install $2)"
	exit 1
}
need tmux tmux
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")

# --- the tree ---
M64=$T/m64
if ! sh "$GEN" "$M64" 64 2 >"$T/gen.out" 2>&1; then
	bad manynodes_generate "$(cat "$T/gen.out")"; exit 0
fi
ok manynodes_generate
PIDS=$(cd "$M64/proc" && for d in [0-9]*; do echo "$d"; done | sort -n)
NPROCS=$(echo "$PIDS" | wc -l)

# Batch and JSON read it without warnings: 64 node rows, every process.
out=$($prog --root "$M64" -b -n 1 2>"$T/err"); rc=$?
nrows=$(printf '%s\n' "$out" | sed -n '/^ NODE /,/^$/p' | grep -cE '^ +[0-9]+ ')
prows=$(printf '%s\n' "$out" | sed -n '/^ *PID USER/,$p' | grep -cE '^ +[0-9]+ ')
[ $rc -eq 0 ] && [ "$nrows" -eq 64 ] && [ "$prows" -eq "$NPROCS" ] && [ ! -s "$T/err" ] \
	&& ok manynodes_tree_batch \
	|| bad manynodes_tree_batch "rc=$rc node rows=$nrows process rows=$prows (want 64, $NPROCS); stderr: $(cat "$T/err")"
j=$($prog --root "$M64" --json -n 1 2>"$T/err"); rc=$?
ids=$(printf '%s\n' "$j" | grep -o '"id":[0-9]*' | wc -l)
[ $rc -eq 0 ] && [ "$ids" -eq 64 ] && printf '%s\n' "$j" | grep -q '"warnings":\[\]' && [ ! -s "$T/err" ] \
	&& ok manynodes_tree_json || bad manynodes_tree_json "rc=$rc ids=$ids; stderr: $(cat "$T/err")"
# Per PID, what the REMOTE and REMOTE% cells must say (as ui_human_kb
# and fmt_pct print them): "PID KB-HUMAN PCT".
printf '%s\n' "$out" | awk '
	function human(kb) {
		if (kb < 10000) return sprintf("%dK", kb)
		if (kb < 1048576) return sprintf("%.1fM", kb / 1024)
		if (kb < 1073741824) return sprintf("%.1fG", kb / 1048576)
		return sprintf("%.1fT", kb / 1073741824)
	}
	/^ *PID USER/ { for (i = 1; i <= NF; i++) if ($i == "REMOTE") r = i; next }
	r && /^ +[0-9]+ / { print $1, ($r ~ /^[0-9]+$/ ? human($r) : $r), $(r + 1) }' >"$T/remote"
# The tree is what the layout tests need: processes with pages on several
# nodes (N<id> columns between RSS_KB and REMOTE), one with REMOTE% >= 90.
multi=$(printf '%s\n' "$out" | awk '
	/^ *PID USER/ { for (i = 1; i <= NF; i++) { if ($i == "N0") a = i; if ($i == "REMOTE") r = i }; next }
	r && /^ +[0-9]+ / { k = 0; for (i = a; i < r; i++) if ($i + 0 > 0) k++; if (k >= 2) m++ }
	END { print m + 0 }')
far=$(awk '$3 + 0 >= 90' "$T/remote" | wc -l)
[ "$multi" -ge 5 ] && [ "$far" -ge 1 ] && ok manynodes_tree_placement \
	|| bad manynodes_tree_placement "$multi processes on >= 2 nodes (want >= 5), $far with REMOTE% >= 90 (want >= 1)"

tui_init

# --- reading a screen ---
# scr_width FILE: the widest line in display columns.
if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then
	scr_width() { LC_ALL=C.UTF-8 wc -L <"$1" | tr -d ' '; }
else    # no UTF-8 locale: one column per UTF-8 sequence (the blocks are narrow)
	scr_width() { LC_ALL=C sed 's/[\xc0-\xff][\x80-\xbf]*/x/g' "$1" | LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
fi
# hdr_line FILE: the line number of the process table header (0: none).
hdr_line() { grep -nE '^ *PID[v^ ]? +USER' "$1" | head -1 | cut -d: -f1 | grep . || echo 0; }
# table_rows FILE: the lines between the table header and the last line
# that start with a number (process rows).
table_rows() {
	_hl=$(hdr_line "$1"); [ "$_hl" -gt 0 ] || return 0
	sed -n "$((_hl + 1)),\$p" "$1" | sed '$d' | grep -E '^ *[0-9]+ '
}
# row_pids FILE: the first field of each process row.
row_pids() { table_rows "$1" | awk '{ print $1 }'; }
# count_rows FILE: how many distinct PIDs of the tree the table shows.
count_rows() { row_pids "$1" | sort -u | grep -cxF "$PIDS"; }

# check_screen NAME FILE W H NODES [NPROCS WANTROWS]: the checks above.
check_screen() {
	n=$1; f=$2; w=$3; h=$4; nn=$5; np=${6:-}; want=${7:-}
	hl=$(hdr_line "$f")
	above=$T/above; : >"$above"
	[ "$hl" -gt 1 ] && sed -n "1,$((hl - 1))p" "$f" >"$above"
	# header
	if [ "$hl" -gt 0 ] && { [ "$w" -lt 200 ] || sed -n "${hl}p" "$f" | grep -q 'COMMAND'; }; then
		ok "${n}_header"
	else
		bad "${n}_header" "no table header (PID USER$([ "$w" -ge 200 ] && echo ' ... COMMAND')):
$(cat "$f")"
	fi
	# half: the header's screen row (0-based, as curses counts) <= LINES/2
	if [ -n "$np" ]; then
		[ "$hl" -gt 0 ] && [ $((hl - 1)) -le $((h / 2)) ] && ok "${n}_half" \
			|| bad "${n}_half" "table header on screen row $((hl - 1)) (0-based) of $h, want <= $((h / 2))"
	fi
	# rows
	if [ -n "$np" ]; then
		got=$(count_rows "$f")
		stray=$(row_pids "$f" | grep -vxF "$PIDS" | tr '\n' ' ')
		[ "$got" -ge "$want" ] && [ -z "$stray" ] && ok "${n}_rows" \
			|| bad "${n}_rows" "$got of $np processes shown, want >= $want${stray:+; rows not of the tree: $stray}"
	fi
	# remote
	if [ -n "$np" ]; then
		if [ "$hl" -gt 0 ] && sed -n "${hl}p" "$f" | grep -qE 'REMOTE?%'; then
			miss=
			for p in $(row_pids "$f" | grep -xF "$PIDS"); do
				read -r _ rk rp <<-EOF
				$(grep "^$p " "$T/remote")
				EOF
				re=$(printf ' %s~? +%s( |$)' "$rk" "$rp" | sed 's/[.]/[.]/g')
				line=$(table_rows "$f" | grep -E "^ *$p " | head -1)
				printf '%s\n' "$line" | grep -qE "$re" || miss="$miss
$p (want $rk $rp): $line"
			done
			[ -z "$miss" ] && ok "${n}_remote" || bad "${n}_remote" "rows without their REMOTE and REMOTE% cells:$miss"
		else
			echo "SKIP ${n}_remote: no REMOTE% column in the header at ${w} columns"
		fi
	fi
	# width
	mw=$(scr_width "$f"); lines=$(wc -l <"$f")
	first=$(head -1 "$f"); last=$(tail -1 "$f")
	if [ "$mw" -le "$w" ] && [ "$lines" -le "$h" ] && echo "$first" | grep -q '^ Processes ' \
		&& echo "$last" | grep -q '^F1'; then
		ok "${n}_width"
	else
		bad "${n}_width" "widest line $mw (terminal $w), $lines lines (terminal $h)
first: $first
last:  $last"
	fi
	# nodes: every node's panel, or as many as fit and "+K more" for the
	# rest (the busiest are shown, so not always N0): labels + K = nodes.
	shown=$(grep -oE '(^|[^[:alnum:]])N[0-9]+ ' "$above" | grep -oE 'N[0-9]+' | sort -u | wc -l)
	more=$(grep -oE '\+[0-9]+ more' "$above" | grep -oE '[0-9]+' | head -1)
	if [ "$shown" -eq "$nn" ] || { [ -n "$more" ] && [ "$shown" -gt 0 ] && [ $((shown + more)) -eq "$nn" ]; }; then
		ok "${n}_nodes"
	else
		bad "${n}_nodes" "want all $nn node panels, or some and '+K more' for the rest; $shown shown, more=$more:
$(cat "$above")"
	fi
}

# run_size NAME W H ROOT NODES [NPROCS WANTROWS]: start, wait for the
# table, capture, check.
run_size() {
	n=$1; w=$2; h=$3; root=$4
	f=$T/$n.screen
	if ! tui_start "$w" "$h" "TERM=tmux-256color $prog --root $root; echo EXIT=\$?; sleep 30"; then
		screen >"$f"
		bad "${n}_start" "no function-key bar after 5 s:
$(cat "$f")"
		return
	fi
	# The first sample may land after the first frame: wait until the rows
	# are all there or their number holds still over 0.5 s (at most about
	# 3 s), then let a frame settle.
	k=15; prev=-1; same=0
	while [ $k -gt 0 ]; do
		screen >"$f"
		if [ "$(hdr_line "$f")" -gt 0 ]; then
			[ -z "${6:-}" ] && break
			c=$(count_rows "$f")
			[ "$c" -ge "$7" ] && break
			if [ "$c" -gt 0 ] && [ "$c" -eq "$prev" ]; then
				same=$((same + 1)); [ $same -ge 3 ] && break
			else
				same=0
			fi
			prev=$c
		fi
		sleep 0.2; k=$((k - 1))
	done
	sleep 0.3
	screen >"$f"
	check_screen "$n" "$f" "$w" "$h" "$5" "${6:-}" "${7:-}"
	[ -n "${MANYNODES_SCREENS:-}" ] && cp "$f" "$MANYNODES_SCREENS/$n.screen"
}

for size in 80x24 120x40 200x60; do
	w=${size%x*}; h=${size#*x}
	want=$NPROCS
	[ "$w" -eq 80 ] && want=$((NPROCS < 5 ? NPROCS : 5))
	run_size "manynodes_$size" "$w" "$h" "$M64" 64 "$NPROCS" "$want"
done

# --- the 17-node ia64 fixture (no processes) ---
tb=$FIX/128ia64-17n4s2c.tar.bz2
if [ -f "$tb" ]; then
	need bzip2 bzip2   # tar -xjf
	mkdir "$T/ia" && tar -xjf "$tb" -C "$T/ia"
	r17=$(find "$T/ia" -mindepth 1 -maxdepth 1 -type d | head -1)
	n17=$(find "$r17/sys/devices/system/node" -maxdepth 1 -name 'node[0-9]*' -type d | wc -l)
	for size in 80x24 120x40 200x60; do
		run_size "manynodes_${size}_17n" "${size%x*}" "${size#*x}" "$r17" "$n17"
	done
else
	echo "SKIP manynodes_17n: ../shared/fixtures absent ($tb)"
fi
tmux send-keys -t "$S" q 2>/dev/null
exit 0
