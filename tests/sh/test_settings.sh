#!/bin/sh
# The monitor's settings file, like htoprc:
# $XDG_CONFIG_HOME/numatop-tui/numatop-tuirc (~/.config/... without it),
# "key=value" lines. Read at start (the command line wins for that run),
# written on quit only when a setting was changed with a key (not the
# values of the command line's options, not with -n); a file it cannot
# read is said on the status line, not used at all and never overwritten;
# a save that fails is said on stderr, the exit status stays 0; root never
# writes into a home it does not own (said at start); batch and JSON runs
# neither read nor write it. Each run has a private HOME under $T, on a
# copy of the recorded 4-node tree (with one kernel thread).
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need tmux tmux
T=$(mktemp -d)
cleanup() {
	TMUX_TMPDIR="$T" tmux kill-server 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
unset NUMATOP_TUI_ROOT XDG_CONFIG_HOME
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
TREE=$T/tree
cp -r tests/trees/opteron4 "$TREE"
add_kthread "$TREE" 2 0 kthreadd
chmod -R a+rX "$TREE"
tui_init
NB=65534

# mon NAME ENV... [-- ARGS...]: the monitor at 160x40 on $TREE with a
# clean settings environment plus ENV (NAME=VALUE words), ARGS after --.
# Its stderr goes to $OUT/NAME.err, "rc=STATUS" to $OUT/NAME.rc once it
# has quit. RUNAS: a prefix for the command (setpriv ...); OUT: where the
# runner and its files go ($T by default).
mon() {
	name=$1; shift
	envs=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs="$envs '$1'"; shift; done
	[ "$1" = -- ] && shift
	o=${OUT:-$T}
	ERR=$o/$name.err RC=$o/$name.rc
	rm -f "$ERR" "$RC"
	cat >"$o/$name.sh" <<EOF
cd '${RUNDIR:-$T}' || exit 1
env -u XDG_CONFIG_HOME -u NO_COLOR XDG_CACHE_HOME='$o/cache' TERM=tmux-256color $envs \\
	'${MONPROG:-$prog}' --root '$TREE' $* 2>'$ERR'
echo rc=\$? >'$RC'
sleep 30
EOF
	chmod 644 "$o/$name.sh"
	tui_start 160 40 "${RUNAS:-} sh '$o/$name.sh'"
}
# quit: q, then wait (5 s at most) for the exit status.
quit() {
	keys q
	k=50
	while [ ! -s "$RC" ] && [ $k -gt 0 ]; do sleep 0.1; k=$((k - 1)); done
}
rc() { sed -n 's/^rc=//p' "$RC" 2>/dev/null; }
hdr() { screen | grep -E '^ *(PID|USER|COMMAND)' | head -1 | tr -s ' ' | sed 's/^ //; s/ $//'; }
# sortcol: the column whose header carries the sort mark (v or ^).
sortcol() { hdr | tr ' ' '\n' | sed -n 's/^\(.*[^v^]\)[v^]$/\1/p' | head -1; }
# why: what to print when a check fails.
why() { echo "rc=$(rc) stderr: $(head -c 500 "$ERR" 2>/dev/null)"; }
# lsr DIR: the files below DIR with their owners.
lsr() { find "$1" ! -type d -printf '%u %p\n' 2>/dev/null; }

# --- 1. round trip; the command line wins for its run; no rewrite -----------
H=$T/h1; mkdir "$H"
F=$H/.config/numatop-tui/numatop-tuirc
mon s1 "HOME=$H"
c0=$(sortcol)
keys P
quit
[ "$(rc)" = 0 ] && [ -f "$F" ] && ok settings_saved_on_change ||
	bad settings_saved_on_change "sort before P: $c0; $(why); files: $(lsr "$H")"
grep -qx 'sort=CPU%' "$F" 2>/dev/null && ok settings_sort_written || bad settings_sort_written "$(cat "$F" 2>&1)"
miss=""
for k in sort sort_descending columns show_nodes show_heatmap heatmap_layer delay kernel_threads tree; do
	grep -q "^$k=" "$F" 2>/dev/null || miss="$miss $k"
done
[ -f "$F" ] && [ -z "$miss" ] && ok settings_all_keys || bad settings_all_keys "missing:$miss"
cp "$F" "$T/f1" 2>/dev/null
st1=$(stat -c '%i %y' "$F" 2>/dev/null)
mon s1b "HOME=$H"
[ "$(sortcol)" = 'CPU%' ] && ok settings_sort_restored || bad settings_sort_restored "$(hdr)"
quit
[ "$(rc)" = 0 ] && [ -f "$F" ] && [ "$(stat -c '%i %y' "$F")" = "$st1" ] && ok settings_unchanged_not_rewritten ||
	bad settings_unchanged_not_rewritten "$(why); before: $st1, after: $(stat -c '%i %y' "$F" 2>&1)"
mon s1c "HOME=$H" -- -s PID
[ "$(sortcol)" = PID ] && ok settings_cmdline_wins || bad settings_cmdline_wins "$(hdr)"
quit
[ -f "$F" ] && cmp -s "$F" "$T/f1" && ok settings_cmdline_not_saved ||
	bad settings_cmdline_not_saved "$(why); file: $(cat "$F" 2>&1)"

# --- 2. the other keys persist (XDG_CONFIG_HOME, not HOME/.config) ----------
H=$T/h2; C=$T/c2; mkdir "$H" "$C"
F=$C/numatop-tui/numatop-tuirc
mon s2 "HOME=$H" "XDG_CONFIG_HOME=$C"
keys t
keys n
keys D
keys +
keys K
keys F2 Delete Escape   # F2 Setup: the first column (PID) out
h2=$(hdr)
quit
[ "$(rc)" = 0 ] && [ -f "$F" ] && [ -z "$(lsr "$H")" ] && ok settings_xdg_config_home ||
	bad settings_xdg_config_home "$(why); under XDG_CONFIG_HOME: $(lsr "$C"); under HOME: $(lsr "$H")"
bad=""
for kv in tree=1 show_nodes=0 show_heatmap=0 kernel_threads=1; do grep -qx "$kv" "$F" 2>/dev/null || bad="$bad $kv"; done
grep -Eqx 'delay=3(\.0*)?' "$F" 2>/dev/null || bad="$bad delay=3"
cl=$(sed -n 's/^columns=//p' "$F" 2>/dev/null)
case ",$cl," in *,[Pp][Ii][Dd],*|,,) bad="$bad columns-without-PID" ;; esac
[ -z "$bad" ] && ok settings_keys_written || bad settings_keys_written "not as set:$bad (header was: $h2)
$(cat "$F" 2>&1)"
mon s2b "HOME=$H" "XDG_CONFIG_HOME=$C"
s=$(screen)
echo "$s" | grep -q '^Tasks:.*\[tree\]' && ! echo "$s" | grep -q '^Mem  *\[' && ok settings_tree_nodes_restored ||
	bad settings_tree_nodes_restored "$s"
echo "$s" | grep -q '^Tasks:.*interval 3\.0s' && ! echo "$s" | grep -q '^Distances (' && ok settings_heatmap_delay_restored ||
	bad settings_heatmap_delay_restored "$s"
echo "$s" | grep -q 'kthreadd' && ! echo "$s" | grep -q 'kernel threads hidden' && ok settings_kthreads_restored ||
	bad settings_kthreads_restored "$s"
[ -n "$h2" ] && [ "$(hdr | sed 's/[v^]\( \|$\)/\1/')" = "$(echo "$h2" | sed 's/[v^]\( \|$\)/\1/')" ] &&
	hdr | grep -q '^USER' && ok settings_columns_restored || bad settings_columns_restored "set: $h2, after restart: $(hdr)"
quit

# --- 3. no change, no file ---------------------------------------------------
H=$T/h3; mkdir "$H"
mon s3 "HOME=$H"
quit
[ "$(rc)" = 0 ] && [ -z "$(lsr "$H")" ] && ok settings_no_change_no_file || bad settings_no_change_no_file "$(why); $(lsr "$H")"
mon s3b "HOME=$H"
keys Down
keys Down
keys Up
quit
[ "$(rc)" = 0 ] && [ -z "$(lsr "$H")" ] && ok settings_navigation_no_file || bad settings_navigation_no_file "$(why); $(lsr "$H")"

# --- 4. a file it cannot read: said, used as far as it goes, never written ---
C=$T/c4; mkdir -p "$C/numatop-tui"
F=$C/numatop-tui/numatop-tuirc
{
	printf 'sort=NOSUCHCOLUMN\nthis is not key value\nsort_descending=banana\ndelay=-7\n'
	printf 'columns=,,NOPE,\nheatmap_layer=x\n\001\002\377\376\000garbage\n'
	head -c 400 "$prog"
} >"$F"
cp "$F" "$T/f4"
mon s4 "HOME=$T/h4" "XDG_CONFIG_HOME=$C"
wait_for settings 20
s=$(screen)
echo "$s" | grep -i settings | grep -Eq 'numatop-tuirc|line ?[0-9]|:[0-9]+' && ok settings_garbage_message ||
	bad settings_garbage_message "$s"
echo "$s" | grep -Eq '^ +1000 ' && [ "$(sortcol)" = REMOTE ] && ok settings_garbage_starts ||
	bad settings_garbage_starts "sort: $(sortcol); $s"
keys P
quit
[ "$(rc)" = 0 ] && cmp -s "$F" "$T/f4" && ok settings_garbage_kept || bad settings_garbage_kept "$(why); $(cmp "$F" "$T/f4" 2>&1)"

# --- 5. a save that fails (nobody, read-only directory): said, status 0 ------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$T"   # nobody walks to its HOME (safefile opens each directory O_RDONLY)
	W=$T/nh; mkdir "$W"; chown $NB:$NB "$W"
	cp "$prog" "$T/prog"; chmod 755 "$T/prog"
	C=$W/cfg; F=$C/numatop-tui/numatop-tuirc
	OUT=$W RUNDIR=$W MONPROG=$T/prog RUNAS="setpriv --reuid=$NB --regid=$NB --clear-groups"
	# A first save, as nobody (written by hand should that fail).
	mon s5a "HOME=$W" "XDG_CONFIG_HOME=$C"
	keys t
	quit
	first="saved by the monitor"
	if [ ! -f "$F" ]; then
		first="written by the test: the monitor saved nothing ($(why))"
		mkdir -p "$C/numatop-tui" && printf 'tree=1\n' >"$F" && chown -R $NB:$NB "$C"
	fi
	chmod 0444 "$F"; chmod 0555 "$C/numatop-tui"
	cp "$F" "$T/f5"
	mon s5b "HOME=$W" "XDG_CONFIG_HOME=$C"
	keys P
	quit
	[ "$(rc)" = 0 ] && cmp -s "$F" "$T/f5" && grep -qi settings "$ERR" && ok settings_readonly_dir ||
		bad settings_readonly_dir "first file $first; $(why); files: $(ls -la "$C/numatop-tui")"
	OUT="" RUNDIR="" MONPROG="" RUNAS=""
	chmod 755 "$C/numatop-tui" 2>/dev/null
else
	echo "SKIP settings_readonly_dir: needs root and setpriv (to run as nobody)"
fi

# --- 6. batch and JSON neither read nor write it -----------------------------
C=$T/c6; mkdir -p "$C/numatop-tui"
F=$C/numatop-tui/numatop-tuirc
printf 'sort=PID\nsort_descending=0\ncolumns=PID,COMMAND\ntree=1\nkernel_threads=1\n' >"$F"
cp "$F" "$T/f6"
H=$T/h6; mkdir "$H"
b() { # b CONFIG_DIR ARGS...: a batch run on $TREE, HOME=$H
	c=$1; shift
	env -u XDG_CONFIG_HOME HOME="$H" ${c:+XDG_CONFIG_HOME="$c"} XDG_CACHE_HOME="$T/cache6" \
		$PROG --root "$TREE" "$@" 2>&1
}
b "$C" -b -n 1 | sed 1d >"$T/with"
b "$T/none" -b -n 1 | sed 1d >"$T/without"
grep -Eq '^ +1000 ' "$T/without" && cmp -s "$T/with" "$T/without" && ok settings_batch_ignores_file ||
	bad settings_batch_ignores_file "$(diff "$T/without" "$T/with" | head -20)"
js() { sed 's/"timestamp":"[^"]*"//; s/"spent_ms":[0-9.e+-]*//; s/"cgroups_read_ms":[0-9.e+-]*//'; }
b "$C" --json -n 1 | js >"$T/with"
b "$T/none" --json -n 1 | js >"$T/without"
grep -q '"pid":1000' "$T/without" && cmp -s "$T/with" "$T/without" && ok settings_json_ignores_file ||
	bad settings_json_ignores_file "$(cmp "$T/without" "$T/with" 2>&1)"
b "" -b -n 1 >/dev/null
b "" --json -n 1 >/dev/null
[ -z "$(lsr "$H")" ] && cmp -s "$F" "$T/f6" && ok settings_batch_no_write || bad settings_batch_no_write "$(lsr "$H") $(cmp "$F" "$T/f6" 2>&1)"

# --- 7. root with another user's HOME (sudo): no root-owned file there -------
if [ "$(id -u)" = 0 ]; then
	H=$T/uh; mkdir "$H"; chown -R $NB:$NB "$H"
	mon s7 "HOME=$H"
	wait_for settings 20
	s=$(screen)
	echo "$s" | grep settings | grep -q 'owned by' && ok settings_sudo_said_at_start ||
		bad settings_sudo_said_at_start "$s"
	keys P
	quit
	[ "$(rc)" = 0 ] && [ -z "$(find "$H" -user root)" ] && ok settings_sudo_no_root_file ||
		bad settings_sudo_no_root_file "$(why); files: $(find "$H" -printf '%u %p\n')"
else
	echo "SKIP settings_sudo_no_root_file: not root"
fi

# --- 8. the command line's settings are that run's, not the file's -----------
# -d, -s, -o and --kernel-threads are not written when another setting is
# changed (P): the file keeps its own value, or has none; a setting given
# on the command line and then changed in the monitor is written.
H=$T/h8; mkdir "$H"
F=$H/.config/numatop-tui/numatop-tuirc
mon s8 "HOME=$H" -- -d 0.5 --kernel-threads
keys P
quit
[ "$(rc)" = 0 ] && grep -qx 'sort=CPU%' "$F" 2>/dev/null && ! grep -Eq '^delay=0?\.5' "$F" &&
	! grep -qx 'kernel_threads=1' "$F" && ok settings_cmdline_values_not_written ||
	bad settings_cmdline_values_not_written "$(why); file: $(cat "$F" 2>&1)"
printf 'sort=PID\nsort_descending=0\ncolumns=PID,USER,COMMAND\ndelay=3\nkernel_threads=0\ntree=0\n' >"$F"
mon s8b "HOME=$H" -- -d 0.5 --kernel-threads -o PID,COMMAND -s REMOTE
keys t
quit
bad=""
for kv in sort=PID sort_descending=0 columns=PID,USER,COMMAND delay=3 kernel_threads=0 tree=1; do
	grep -qx "$kv" "$F" 2>/dev/null || bad="$bad $kv"
done
[ "$(rc)" = 0 ] && [ -z "$bad" ] && ok settings_cmdline_file_values_kept ||
	bad settings_cmdline_file_values_kept "$(why); not kept:$bad; file: $(cat "$F" 2>&1)"
mon s8c "HOME=$H" -- -d 0.5
keys +
quit
d=$(sed -n 's/^delay=//p' "$F" 2>/dev/null)
[ "$(rc)" = 0 ] && [ -n "$d" ] && [ "$d" != 3 ] && [ "$d" != 0.5 ] && ok settings_cmdline_changed_written ||
	bad settings_cmdline_changed_written "$(why); -d 0.5 then +: delay=$d; file: $(cat "$F" 2>&1)"

# --- 9. -n N opens the monitor for N samples: it never writes the file -------
H=$T/h9; mkdir "$H"
mon s9 "HOME=$H" -- -n 1000
keys P
keys t
quit
[ "$(rc)" = 0 ] && [ -z "$(lsr "$H")" ] && ok settings_n_no_write || bad settings_n_no_write "$(why); $(lsr "$H")"

# --- 10. a file refused is not half applied ----------------------------------
# sort=PID is a good value, columns=NOPE is not: the file is refused as a
# whole, the sort stays the default (REMOTE), and the file is kept.
C=$T/c10; mkdir -p "$C/numatop-tui"
F=$C/numatop-tui/numatop-tuirc
printf 'sort=PID\nsort_descending=0\ntree=1\ncolumns=NOPE\n' >"$F"
cp "$F" "$T/f10"
mon s10 "HOME=$T/h10" "XDG_CONFIG_HOME=$C"
wait_for settings 20
s=$(screen)
echo "$s" | grep -i settings | grep -q 'not used' && [ "$(sortcol)" = REMOTE ] &&
	! echo "$s" | grep -q '^Tasks:.*\[tree\]' && ok settings_refused_not_applied ||
	bad settings_refused_not_applied "sort: $(sortcol); $s"
keys P
quit
[ "$(rc)" = 0 ] && cmp -s "$F" "$T/f10" && ok settings_refused_kept || bad settings_refused_kept "$(why); $(cat "$F" 2>&1)"

# --- 11. a settings "file" that is none, said in words -----------------------
# A FIFO (never waited on) and a symbolic link: the status line says what
# is wrong ("is not a regular file (a FIFO)", "is a symbolic link: not
# followed"), not errno's text ("Wrong medium type", "Too many levels of
# symbolic links"); the monitor starts and leaves them as they are.
C=$T/c11; mkdir -p "$C/numatop-tui"
F=$C/numatop-tui/numatop-tuirc
mkfifo "$F"
mon s11 "HOME=$T/h11" "XDG_CONFIG_HOME=$C"
wait_for 'not used' 20
s=$(screen)
echo "$s" | grep settings | grep -q 'is not a regular file (a FIFO)' && ok settings_fifo_said ||
	bad settings_fifo_said "$s"
quit
rm -f "$F"; printf 'tree=1\n' >"$C/real"; ln -s ../real "$F"
mon s11b "HOME=$T/h11" "XDG_CONFIG_HOME=$C"
wait_for 'not used' 20
s=$(screen)
echo "$s" | grep settings | grep -q 'is a symbolic link: not followed' && ok settings_symlink_said ||
	bad settings_symlink_said "$s"
quit
[ "$(rc)" = 0 ] && [ -L "$F" ] && [ "$(cat "$C/real")" = tree=1 ] && ok settings_symlink_kept ||
	bad settings_symlink_kept "$(why); $(ls -l "$C" "$C/numatop-tui")"
