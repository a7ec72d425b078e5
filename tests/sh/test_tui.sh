#!/bin/sh
# TUI tests driven by tmux: start on recorded trees, press keys, read the
# screen with capture-pane. Needs tmux (installed by make deps).
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
FIX=${NUMATOP_FIXTURES:-../shared/fixtures/hwloc-linux}
. tests/sh/lib.sh
need tmux tmux
need bzip2 bzip2   # tar -xjf of the shared fixtures
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
tui_init
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")

start() { # start WIDTH HEIGHT ARGS...: the monitor, its PID in $T/pid
	w=$1; h=$2; shift 2
	tui_start "$w" "$h" "TERM=tmux-256color sh -c 'echo \$\$ >$T/pid; exec $prog $*'; echo EXIT=\$?; sleep 30"
}
# First process row: the line after the table header.
first_row() { screen | sed -n '/^ *PID. USER/{n;p;q}' | awk '{print $1}'; }

start 120 40 --root $TREE -d 5
s=$(screen)
echo "$s" | grep -q '^N0 ' && echo "$s" | grep -q '^N3 ' && ok tui_node_panels || bad tui_node_panels "$s"
# Node 0's memory as htop counts it: programs' part (total - free - page
# cache: 4061184 - 1523712 - 812032 kB = 1.6G), the cache apart.
echo "$s" | grep -Eq '^Mem +\[.*1\.6G/3\.9G\]' && ok tui_node_mem_without_cache || bad tui_node_mem_without_cache "$(echo "$s" | grep '^Mem' | head -1)"
echo "$s" | grep -Eq '^ +0  10\* +20 +20 +20' && ok tui_heatmap_values || bad tui_heatmap_values "$s"
for p in 1000 2000 3000 4242; do echo "$s" | grep -Eq "^ +$p " || miss="$miss $p"; done
[ -z "$miss" ] && ok tui_process_rows || bad tui_process_rows "missing:$miss"
echo "$s" | grep -E '^ +3000 ' | grep -q 'error' && ok tui_unreadable_not_zero || bad tui_unreadable_not_zero "$(echo "$s" | grep 3000)"
# Default sort: REMOTE descending (1000 has 57 MiB remote).
[ "$(first_row)" = 1000 ] && ok tui_default_sort_remote || bad tui_default_sort_remote "$(first_row)"
keys N; [ "$(first_row)" = 1000 ] && screen | grep -q 'PID^' && ok tui_sort_pid || bad tui_sort_pid "$(screen | grep PID)"
keys I; [ "$(first_row)" = 4242 ] && ok tui_invert || bad tui_invert "$(first_row)"
keys R; [ "$(first_row)" = 1000 ] && ok tui_sort_R || bad tui_sort_R "$(first_row)"
keys '>'; screen | grep -q 'REMOTE%v' && ok tui_sort_next_column || bad tui_sort_next_column "$(screen | grep PID)"
keys '<' '<'; screen | grep -Eq 'N3v' && ok tui_sort_prev_column || bad tui_sort_prev_column "$(screen | grep PID)"
keys R
# F6: a list of columns; Down twice from REMOTE's place picks the next ones.
keys F6; screen | grep -q 'Sort by (Enter, Esc)' && screen | grep -q '\* REMOTE' && ok tui_f6_menu || bad tui_f6_menu "$(screen)"
keys Up Enter; screen | grep -q 'N3v' && ok tui_f6_choose || bad tui_f6_choose "$(screen | grep 'PID. USER')"
keys R
# Filter by node: only the process whose HOME is node 3 ... 4242 and 3000.
keys '\' 'node 3' Enter
s=$(screen)
echo "$s" | grep -Eq '^ +4242 ' && ! echo "$s" | grep -Eq '^ +1000 ' && ok tui_filter_node || bad tui_filter_node "$s"
keys '\' C-u; for i in 1 2 3 4 5 6; do keys BSpace; done; keys 'remote>=50' Enter
s=$(screen)
echo "$s" | grep -Eq '^ +4242 ' && ! echo "$s" | grep -Eq '^ +2000 ' && ok tui_filter_remote_pct || bad tui_filter_remote_pct "$s"
keys '\'
# The prompt names every form the filter takes, and starts from the filter.
screen | grep -q '^Filter (name | node N | remote>=X | cgroup PATH): *remote>=50' && ok tui_filter_prompt_forms \
	|| bad tui_filter_prompt_forms "$(screen | grep '^Filter')"
keys C-u 'node 9' Enter
screen | grep -q 'node 9: no such node (nodes: 0 1 2 3)' && ok tui_filter_no_such_node \
	|| bad tui_filter_no_such_node "$(screen | tail -3)"
keys '\'; for i in 1 2 3 4 5 6 7 8 9 10; do keys BSpace; done; keys Enter
s=$(screen); echo "$s" | grep -Eq '^ +2000 ' && ok tui_filter_cleared || bad tui_filter_cleared "$s"
# Search, then Enter opens the detail of the found process, Esc returns.
keys / web Enter Enter
wait_for "PID 2000" 20 && screen | grep -q 'Mems_allowed' && ok tui_search_and_detail || bad tui_search_and_detail "$(screen)"
screen | grep -q 'MAPPING' && ok tui_detail_mappings || bad tui_detail_mappings
keys Escape; wait_for "REMOTE%" 20 && ok tui_escape_back || bad tui_escape_back "$(screen)"
# H shows threads: dbserver's two other threads, with their nodes.
keys H; s=$(screen)
# (HOME of a thread row: the node of its last CPU, 2 -> node 1.)
echo "$s" | grep -Eq '^ +1001 +1 .*thread of 1000' && echo "$s" | grep -Eq '^ +1002 +1 .*thread of 1000' \
	&& ok tui_threads || bad tui_threads "$s"
# The status line counts processes as processes, and says their threads
# (3 + 2 + 1 + 1 on this tree).
echo "$s" | grep -q '^Tasks: 4 shown of 4, with 7 threads' && ok tui_threads_status_counts \
	|| bad tui_threads_status_counts "$(echo "$s" | grep Tasks)"
keys H; screen | grep -q 'thread of' && bad tui_threads_off || ok tui_threads_off
# Mouse (X10 encoding, as xterm sends it): click the PID header, then a row.
click() { # click X Y (0-based screen cell)
	bx=$(printf "\\$(printf %03o $((32 + $1 + 1)))"); by=$(printf "\\$(printf %03o $((32 + $2 + 1)))")
	tmux send-keys -t $S -l "$(printf '\033[M ')$bx$by"
	tmux send-keys -t $S -l "$(printf '\033[M#')$bx$by"; sleep 0.3
}
hy=$(($(screen | grep -n 'PID. USER' | cut -d: -f1) - 1))
click 3 $hy
screen | grep -q 'PID^' && ok tui_mouse_sort_header || bad tui_mouse_sort_header "$(screen | grep 'PID. USER')"
third=$(screen | sed -n "$((hy + 4))p" | awk '{print $1}')
click 3 $((hy + 3)); keys Enter
wait_for "PID $third " 20 && ok tui_mouse_select_row || bad tui_mouse_select_row "want $third: $(screen | head -3)"
keys Escape R
# Help from the key table.
keys h; s=$(screen)
echo "$s" | grep -q 'sort by REMOTE' && echo "$s" | grep -q 'F7 m' && ok tui_help || bad tui_help "$s"
# It scrolls to the dialogs' own keys and the columns (from the column table).
all=$(screen); keys NPage; all="$all$(screen)"; keys NPage; all="$all$(screen)"; keys NPage; s=$(screen)
echo "$s" | grep -Eq 'HOME +node where most threads last ran' && echo "$s" | grep -q 'REMOTE%' &&
	ok tui_help_columns || bad tui_help_columns "$s"
# The help says what each part of a node panel's meters is.
all="$all$s"
echo "$all" | grep -q 'Node panels' && echo "$all" | grep -q 'page cache' && ok tui_help_panels \
	|| bad tui_help_panels "no 'Node panels' section"
keys x; wait_for "REMOTE%" 20 && ok tui_help_returns || bad tui_help_returns
# Tab cycles screens.
keys Tab; screen | grep -q 'TOTAL_kB' && ok tui_tab_nodes || bad tui_tab_nodes "$(screen)"
keys Tab; wait_for 'db.service' 10; s=$(screen)
echo "$s" | grep -q 'cgroups (v2, memory hierarchy): 8' && echo "$s" | grep -Eq '^ +1 +116.0M +20.0M +64.0M +16.0M +16.0M +96.0M 0 ' \
	&& ok tui_tab_cgroups || bad tui_tab_cgroups "$s"
keys Tab; s=$(screen); echo "$s" | grep -q 'node 3: CPUs 6-7' && echo "$s" | grep -q 'package 3' \
	&& ok tui_tab_topology || bad tui_tab_topology "$s"
keys BTab BTab; screen | grep -q 'TOTAL_kB' && ok tui_shift_tab || bad tui_shift_tab
# The fifth screen: the whole distance matrix.
keys Tab Tab Tab; s=$(screen)
echo "$s" | grep -q 'Distances (SLIT)' && echo "$s" | grep -Eq '^ +3 +20 +20 +20 +10\*' && ! echo "$s" | grep -q 'PID' &&
	ok tui_tab_distances || bad tui_tab_distances "$s"
keys Tab
# Resize to 80x24 and back: still laid out.
tmux resize-window -t $S -x 80 -y 24; sleep 0.5
s=$(screen); echo "$s" | grep -q 'F10Quit' && echo "$s" | grep -Eq 'PID. USER' && ok tui_resize_80x24 || bad tui_resize_80x24 "$s"
# There, the status line holds whole fields only (none cut mid-word).
st=$(echo "$s" | grep '^Tasks:' | sed 's/ *$//')
echo "$st" | grep -Eq '^Tasks: .*(interval [0-9.]+s|age [0-9.]+s|tool CPU [0-9.-]+%|\]|ms|heat: (no DAMON in this kernel|none))$' && ok tui_80x24_status_whole_fields \
	|| bad tui_80x24_status_whole_fields "$st"
# There, COMMAND keeps 20 columns at least: WHY goes first.
hdr=$(echo "$s" | grep -E 'PID. USER')
c=$(printf '%s\n' "$hdr" | awk '{ print index($0, "COMMAND") }')
[ "$c" -gt 0 ] && [ $((80 - c + 1)) -ge 20 ] && ! printf '%s' "$hdr" | grep -q WHY && ok tui_80x24_command_room \
	|| bad tui_80x24_command_room "COMMAND at column $c: $hdr"
# Kill is refused on a recorded tree.
keys k; screen | grep -q 'disabled on a recorded tree' && ok tui_kill_refused_on_tree || bad tui_kill_refused_on_tree "$(screen | tail -3)"
# q quits with 0 and the shell sees a restored (normal) screen.
keys q; wait_for "EXIT=0" 30 && ok tui_quit_status || bad tui_quit_status "$(screen)"
screen | grep -q 'F10Quit' && bad tui_terminal_restored "$(screen)" || ok tui_terminal_restored

# SIGTERM also restores the terminal.
start 100 30 --root $TREE
tmux send-keys -t $S ''   # no-op
pid=$(cat "$T/pid")
[ -n "$pid" ] && kill -TERM "$pid"
wait_for "EXIT=0" 30 && ok tui_sigterm_restores || bad tui_sigterm_restores "$(screen)"

# Many nodes: the 8-node Opteron tree uses compact panels that fit 80x24.
if [ -f "$FIX/16amd64-8n2c.tar.bz2" ]; then
	mkdir "$T/fx" && tar -xjf "$FIX/16amd64-8n2c.tar.bz2" -C "$T/fx"
	root=$(find "$T/fx" -mindepth 1 -maxdepth 1 -type d | head -1)
	start 80 24 --root "$root"
	s=$(screen)
	[ "$(echo "$s" | grep -c '^N[0-7] ')" -eq 8 ] && echo "$s" | grep -q 'F10Quit' \
		&& ok tui_compact_8_nodes || bad tui_compact_8_nodes "$s"
	keys q
else
	echo "SKIP tui_compact_8_nodes: fixtures not present at $FIX"
fi
# The live machine works too.
start 100 30 -d 1
s=$(screen); echo "$s" | grep -q 'live' && echo "$s" | grep -Eq '^ +[0-9]+ root' && ok tui_live || bad tui_live "$s"
keys q; wait_for "EXIT=0" 30 && ok tui_live_quit || bad tui_live_quit
# Colour: 256 colours in tmux, none with -C or NO_COLOR, 8 on a TERM that has 8.
start 100 30 --root $TREE
tmux capture-pane -e -p -t $S | grep -q '48;5;' && ok tui_colour_256 || bad tui_colour_256
start 100 30 -C --root $TREE
tmux capture-pane -e -p -t $S | grep -Eq '\[([34][0-7]|[34]8;5;[0-9]+)m' && bad tui_no_colour_flag || ok tui_no_colour_flag
tmux capture-pane -p -t $S | grep -Eq '^ +0  10\* +20' && ok tui_monochrome_heatmap_numbers || bad tui_monochrome_heatmap_numbers
start 100 30 --root $TREE
tui_start 100 30 "NO_COLOR=1 TERM=tmux-256color $prog --root $TREE; sleep 30"
tmux capture-pane -e -p -t $S | grep -Eq '\[([34][0-7]|[34]8;5;[0-9]+)m' && bad tui_no_color_env || ok tui_no_color_env
tui_start 100 30 "TERM=screen $prog --root $TREE; sleep 30"
e=$(tmux capture-pane -e -p -t $S)
echo "$e" | grep -q '48;5;' && bad tui_colour_8 "256-colour codes on TERM=screen" || { echo "$e" | grep -Eq '\[4[0-7]m|;4[0-7]m' && ok tui_colour_8 || bad tui_colour_8; }
# Many nodes at 80 columns: one block character per node; -U makes it ASCII.
if [ -f "$FIX/128ia64-17n4s2c.tar.bz2" ]; then
	mkdir "$T/ia" && tar -xjf "$FIX/128ia64-17n4s2c.tar.bz2" -C "$T/ia"
	r17=$(find "$T/ia" -mindepth 1 -maxdepth 1 -type d | head -1)
	mkdir -p "$r17/proc" && cp -r $TREE/proc/1000 "$r17/proc/" && cp -r $TREE/etc "$r17/"
	start 80 24 --root "$r17"
	s=$(screen)
	echo "$s" | grep -E '^ +1000 ' | grep -q '█\|▇\|▆\|▅\|▄\|▃\|▂\|▁' && ok tui_node_blocks_utf8 || bad tui_node_blocks_utf8 "$s"
	# The 17 node panels flow into columns: every node, the table below.
	n17=0; for i in $(seq 0 16); do echo "$s" | grep -Eq "(^| )N$i " && n17=$((n17 + 1)); done
	[ $n17 -eq 17 ] && echo "$s" | grep -q 'F10Quit' && echo "$s" | grep -Eq '^ +1000 ' && ok tui_17_nodes_80x24 || bad tui_17_nodes_80x24 "$n17 nodes: $s"
	start 80 24 -U --root "$r17"
	s=$(screen)
	echo "$s" | grep -E '^ +1000 ' | grep -q '█\|▇\|▆\|▅\|▄\|▃\|▂\|▁' && bad tui_node_blocks_ascii "$s" || ok tui_node_blocks_ascii
else
	echo "SKIP tui_17_nodes: fixtures not present at $FIX"
fi
# Tree view, tagging, interval and pause.
start 120 40 --root $TREE
keys t; screen | grep -q '\[tree\]' && ok tui_tree_view || bad tui_tree_view "$(screen | grep Tasks)"
keys t
keys N Space; s=$(screen); echo "$s" | grep -Eq '^ +1000 ' && ok tui_tag_moves_down || bad tui_tag_moves_down
# A message replaces the status line whole (no fragment of the line beside
# it), and goes after a few seconds, the line back as it was.
keys K
st=$(screen | grep -E '^(Tasks:|kernel threads)')
[ "$st" = "kernel threads shown" ] && ok tui_message_whole_line || bad tui_message_whole_line "$st"
if wait_for 'Tasks:' 90 && ! screen | grep -q 'kernel threads shown'; then ok tui_message_expires
else bad tui_message_expires "$(screen | grep -E 'Tasks:|kernel threads')"; fi
keys K
keys + +; screen | grep -q 'interval 4.0s' && ok tui_interval_plus || bad tui_interval_plus "$(screen | grep Tasks)"
keys -; screen | grep -q 'interval 3.0s' && ok tui_interval_minus || bad tui_interval_minus "$(screen | grep Tasks)"
keys Z; screen | grep -q 'PAUSED' && ok tui_pause || bad tui_pause "$(screen | grep Tasks)"
keys Z C-l; screen | grep -q 'PAUSED' && bad tui_resume || ok tui_resume
# AGE: hidden by default, A shows it (0s: every row read on this tree),
# and the detail view says how old its placement numbers are.
screen | grep -E '^ +PID' | grep -q 'AGE' && bad tui_age_hidden_by_default || ok tui_age_hidden_by_default
keys A; s=$(screen)
echo "$s" | grep -E '^ +PID' | grep -q 'AGE' && echo "$s" | grep -Eq '^ +1000 .* [0-9]+s ' && ok tui_age_column || bad tui_age_column "$s"
keys A
start 120 40 --root $TREE -p 1000
keys Enter; screen | grep -Eq 'placement: numa_maps, sampled [0-9]+s ago' && ok tui_detail_sample_age || bad tui_detail_sample_age "$(screen)"
keys Escape
# Kill on the live machine: a signal list, Enter sends SIGTERM to exactly
# the selected process (identity re-checked by PID and start time).
sleep 300 & victim=$!
start 120 40 -p $victim
keys k; screen | grep -q 'SIGTERM' && screen | grep -q "PID $victim" && ok tui_kill_dialog || bad tui_kill_dialog "$(screen)"
keys Escape; kill -0 $victim 2>/dev/null && ok tui_kill_cancel || bad tui_kill_cancel
keys k Enter; sleep 0.3
if kill -0 $victim 2>/dev/null; then bad tui_kill_sends "$(screen | grep -i signal)"; kill $victim; else ok tui_kill_sends; fi
wait $victim 2>/dev/null
keys q
