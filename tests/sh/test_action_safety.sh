#!/bin/sh
# Safety of what the program writes, reads and acts on, on the live machine
# (root, any number of nodes; node 0 is the target):
#  - the measurement cache: never written through a symlink, never into a
#    directory chain owned by another user (root saving into nobody's
#    directory refuses, "owned by", and still prints the measurement);
#    never read through a symlink, from a FIFO (no hang) or from a special
#    or huge file (not read whole);
#  - a PID reused by another process while a dialog is open: the kill
#    dialog sends nothing to the newcomer and says "exited"; the detail
#    screen says "exited" and does not show the newcomer;
#  - a process that execs while its migrate (m) or rebind (B) preview is
#    open: confirming is refused, the refusal mentions exec (its CPUs
#    unchanged after B);
#  - kernel threads (kthreadd, kswapd0) are refused by --migrate/--rebind
#    and by the monitor's B and m, their CPUs unchanged;
#  - under hidepid=2 (a private mount namespace, the host's /proc left
#    alone) nobody's --migrate of root's process says "not visible".
# Needs root (nobody via setpriv, ns_last_pid to reuse a PID, unshare).
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
[ "$(id -u)" = 0 ] || { echo "SKIP action_safety: needs root"; exit 0; }
need tmux tmux
need setpriv util-linux
need unshare util-linux
need flock util-linux
need taskset util-linux
need mkfifo coreutils
# The binary may be replaced by a rebuild running beside us: wait a little.
n=30; while [ $n -gt 0 ] && [ ! -x "$PROG" ]; do sleep 1; n=$((n - 1)); done
[ -x "$PROG" ] || { echo "FAIL action_safety: $PROG not found"; exit 1; }
NB=65534
T=$(mktemp -d)
chmod 755 "$T"
pids=""
cleanup() {
	TMUX_TMPDIR="$T" tmux kill-server 2>/dev/null
	# KILL: a child forked a moment ago may still have this shell's TERM
	# trap (a TERM then is lost, and wait sits until it ends by itself).
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
# nobody must be able to run it (a private copy otherwise).
env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=$NB --regid=$NB --clear-groups test -x "$prog" ||
	{ cp "$prog" "$T/numatop-tui" && chmod 755 "$T/numatop-tui" && prog=$T/numatop-tui; }
SLEEP=$(command -v sleep)
tag=$$
flat() { screen | tr '\n' ' ' | tr -s ' '; }   # wrapped lines joined
# alive PID: exists and is not a zombie (kill -0 reaches a zombie too).
alive() { [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != Z ]; }
# named NAME: a symlink to sleep called NAME (its comm), path printed.
named() { ln -sf "$SLEEP" "$T/$1" && echo "$T/$1"; }

# =====================================================================
# 1. The measurement cache.
# =====================================================================
# A normal save first: where the file goes (its name is learnt here).
XDG_CACHE_HOME=$T/c "$prog" --measure-quick --json >"$T/m0.json" 2>"$T/m0.err"; rc=$?
saved=$(sed -n 's/.*"saved":"\([^"]*\)".*/\1/p' "$T/m0.json")
if [ $rc -eq 0 ] && [ -n "$saved" ] && [ -f "$saved" ] && [ ! -L "$saved" ]; then
	ok cache_save_normal
else
	bad cache_save_normal "rc=$rc saved='$saved' $(cat "$T/m0.err"); ls: $(ls -la "$T/c/numatop-tui" 2>&1)"
fi
cname=$(basename "${saved:-measure-unknown.json}")
[ -n "$saved" ] && [ -f "$saved" ] && cp "$saved" "$T/valid.json"

# 1a. Root saving into a directory owned by nobody: refused, untouched.
E=$T/evil
mkdir -p "$E/numatop-tui"
echo decoy >"$E/numatop-tui/decoy"
chown -R $NB:$NB "$E"
before=$(find "$E" -printf '%p %u %g %m %s %T@\n' | sort)
XDG_CACHE_HOME=$E "$prog" --measure-quick >"$T/m1.out" 2>"$T/m1.err"; rc=$?
after=$(find "$E" -printf '%p %u %g %m %s %T@\n' | sort)
grep -q "owned by" "$T/m1.err" && ok cache_refuses_nobody_owned_dir ||
	bad cache_refuses_nobody_owned_dir "rc=$rc stderr: $(cat "$T/m1.err") stdout tail: $(tail -2 "$T/m1.out")"
[ "$before" = "$after" ] && [ -z "$(find "$E" -user root)" ] && ok cache_nobody_dir_untouched ||
	bad cache_nobody_dir_untouched "before:
$before
after:
$after"
grep -q 'latency, ns' "$T/m1.out" && ok cache_refused_still_prints_measurement ||
	bad cache_refused_still_prints_measurement "rc=$rc $(head -5 "$T/m1.out") $(cat "$T/m1.err")"
# The chain above XDG_CACHE_HOME counts too: a root-owned directory inside
# nobody's (nobody can rename it away and put a symlink in its place).
E2=$T/evil2
mkdir -p "$E2/x"
chown $NB:$NB "$E2"
XDG_CACHE_HOME=$E2/x "$prog" --measure-quick >"$T/m2.out" 2>"$T/m2.err"; rc=$?
grep -q "owned by" "$T/m2.err" && [ -z "$(find "$E2/x" -mindepth 1)" ] && ok cache_refuses_nobody_owned_parent ||
	bad cache_refuses_nobody_owned_parent "rc=$rc stderr: $(cat "$T/m2.err"); created: $(find "$E2/x" -mindepth 1)"

# 1b. Symlinks planted at the final name and at the temp names: the file
# they point to is never written.
printf precious >"$T/victim"
D=$T/c/numatop-tui
rm -f "$D/$cname"
ln -s "$T/victim" "$D/$cname"
# The temp names: PATH.tmpPID for the next 500 PIDs, planted by one
# process (one ln per name would use up the PIDs it plants for).
perl -e 'open(my $f, "<", "/proc/sys/kernel/ns_last_pid") or die "ns_last_pid: $!";
	my $l = <$f>; chomp $l;
	for my $i (1 .. 500) { symlink($ARGV[0], "$ARGV[1].tmp" . ($l + $i)) or die "symlink: $!" }' \
	"$T/victim" "$D/$cname" || bad cache_plant_symlinks "perl could not plant the temp-name symlinks"
XDG_CACHE_HOME=$T/c "$prog" --measure-quick >"$T/m3.out" 2>"$T/m3.err"; rc=$?
if [ -f "$T/victim" ] && [ ! -L "$T/victim" ] && [ "$(cat "$T/victim")" = precious ]; then
	ok cache_write_never_follows_symlinks
else
	bad cache_write_never_follows_symlinks "rc=$rc victim now: $(head -c 200 "$T/victim" 2>&1); $(cat "$T/m3.err")"
fi

# 1c. Reading, as nobody, in the monitor: the saved measurement is the
# heatmap's latency layer after v (only the SLIT otherwise).
tui_init
W=$T/home
mkdir -p "$W/.cache/numatop-tui" "$W/elsewhere"
C=$W/.cache/numatop-tui/$cname
chown -R $NB:$NB "$W"
chmod 700 "$W"
cat >"$T/nb.sh" <<EOF
cd "$W" && exec env -i PATH=/usr/bin:/bin HOME="$W" XDG_CACHE_HOME="$W/.cache" \
	TERM=tmux-256color env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=$NB --regid=$NB --clear-groups "$prog" -d 1
EOF
nb_start() { tui_start 140 40 "sh $T/nb.sh; echo EXIT=\$?; sleep 30"; }
nb_pid() { pgrep -P "$(tmux list-panes -t "$S" -F '#{pane_pid}' 2>/dev/null | head -1)" 2>/dev/null | head -1; }
plant() { # plant: what is at the cache name, owned by nobody
	rm -f "$C"
	"$@"
	chown -h $NB:$NB "$C" 2>/dev/null
}
# measured_layer: v, then whether the measured latency layer is shown.
measured_layer() { keys v; sleep 0.3; screen | grep -q 'Latency, ns (measured'; }
if [ ! -f "$T/valid.json" ]; then
	for c in read_control_plain_file read_symlink_ignored read_fifo_json_no_hang read_fifo_monitor_starts \
		read_big_file_rejected read_chardev_rejected; do echo "SKIP $c: no saved measurement to plant"; done
else
	# Control: the same file, plainly there, is used.
	plant cp "$T/valid.json" "$C"
	if nb_start && measured_layer; then ok read_control_plain_file
	else bad read_control_plain_file "$(screen)"; fi
	# A symlink to a valid file elsewhere: not used.
	cp "$T/valid.json" "$W/elsewhere/m.json"; chown -R $NB:$NB "$W/elsewhere"
	plant ln -s "$W/elsewhere/m.json" "$C"
	if ! nb_start; then bad read_symlink_ignored "monitor did not start: $(screen)"
	elif measured_layer; then bad read_symlink_ignored "the measurement behind the symlink is shown: $(screen | grep -m1 Latency)"
	else ok read_symlink_ignored; fi
	# A FIFO: batch and monitor both go on.
	plant mkfifo "$C"
	(cd "$W" && env -i PATH=/usr/bin:/bin HOME="$W" XDG_CACHE_HOME="$W/.cache" \
		timeout 10 env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=$NB --regid=$NB --clear-groups "$prog" --json -n 1 >"$T/f.out" 2>"$T/f.err"); rc=$?
	[ $rc -ne 124 ] && [ $rc -ne 137 ] && ok read_fifo_json_no_hang || bad read_fifo_json_no_hang "timed out after 10 s (rc=$rc)"
	if nb_start || wait_for F10Quit 50; then
		measured_layer && bad read_fifo_monitor_starts "a measurement from a FIFO?" || ok read_fifo_monitor_starts
	else
		bad read_fifo_monitor_starts "no monitor after 10 s (blocked opening the FIFO?): $(screen | head -3)"
	fi
	# 100 MB: the valid file, then zeros (sparse). Rejected, and not read
	# whole (the monitor's rchar stays far below 100 MB).
	plant sh -c 'cp "$1" "$2" && truncate -s 100M "$2"' sh "$T/valid.json" "$C"
	if ! nb_start; then bad read_big_file_rejected "monitor did not start: $(screen | head -3)"
	else
		pp=$(nb_pid)
		rchar=$(awk '/^rchar:/ {print $2}' "/proc/$pp/io" 2>/dev/null)
		if measured_layer; then bad read_big_file_rejected "a 100 MB cache file was used"
		elif ! isnum "$rchar"; then bad read_big_file_rejected "no rchar for the monitor (pid '$pp')"
		elif [ "$rchar" -ge 52428800 ]; then bad read_big_file_rejected "the monitor read $rchar bytes"
		else ok "read_big_file_rejected (read $rchar bytes)"; fi
	fi
	# A character device (/dev/zero's numbers): rejected, no endless read.
	rm -f "$C"
	if mknod "$C" c 1 5 2>/dev/null; then
		if ! nb_start && ! wait_for F10Quit 50; then bad read_chardev_rejected "no monitor after 10 s: $(screen | head -3)"
		elif measured_layer; then bad read_chardev_rejected "a measurement from a device?"
		else ok read_chardev_rejected; fi
		rm -f "$C"
	else
		echo "SKIP read_chardev_rejected: mknod failed"
	fi
fi
tmux kill-session -t "$S" 2>/dev/null

# =====================================================================
# 2-3. A PID reused while the kill dialog / the detail screen is open.
# =====================================================================
# reuse_pid PID PATH: start PATH 1000 with that PID (ns_last_pid = PID-1,
# under flock, a few tries); NEWPID is what it got. No fork between the
# write and the spawn.
reuse_pid() {
	[ -w /proc/sys/kernel/ns_last_pid ] || return 1
	NEWPID=""
	tries=0
	while [ $tries -lt 8 ]; do
		tries=$((tries + 1))
		exec 9</proc/sys/kernel/ns_last_pid || return 1
		flock 9
		echo $(($1 - 1)) >/proc/sys/kernel/ns_last_pid || { exec 9<&-; return 1; }
		"$2" 1000 &
		NEWPID=$!
		exec 9<&-
		pids="$pids $NEWPID"
		[ "$NEWPID" = "$1" ] && return 0
		# KILL: just forked, it may still hold our TERM trap (see cleanup).
		kill -KILL "$NEWPID" 2>/dev/null; wait "$NEWPID" 2>/dev/null
		sleep 0.1
	done
	return 1
}
mon() { tui_start 160 45 "TERM=tmux-256color $prog $*; echo EXIT=\$?; sleep 30"; }

# 2. Kill dialog on A; A exits and B gets its PID; Enter (SIGTERM). The
# table is filtered to our two names (other processes' command lines could
# say "exited"); / selects A.
an=nts${tag}A; bn=nts${tag}B
"$(named "$an")" 1000 & A=$!; pids="$pids $A"
named "$bn" >/dev/null
sleep 0.3
mon -d 0.5
keys '\' "nts$tag" Enter
# A's row there before it is searched for (a loaded machine: the filter
# and the first samples come late; k on no row, or another, says nothing
# of A).
wait_for "$an" 100
keys / "$an" Enter
keys k
if ! wait_for "Send signal to PID $A" 20; then
	bad kill_reused_pid_spares_newcomer "kill dialog not on PID $A: $(screen)"
	bad kill_reused_pid_says_exited "(no dialog)"
else
	kill "$A"; wait "$A" 2>/dev/null
	if ! reuse_pid "$A" "$T/$bn"; then
		echo "SKIP kill_reused_pid_spares_newcomer: could not give PID $A to a new process (got $NEWPID)"
		echo "SKIP kill_reused_pid_says_exited: the same"
		keys Escape
	else
		B=$NEWPID
		sleep 1.5   # a refresh or more (-d 0.5)
		keys Enter
		wait_for exited 30; ok_msg=$?
		sleep 0.5
		alive "$B" && ok kill_reused_pid_spares_newcomer ||
			bad kill_reused_pid_spares_newcomer "the new process $B (same PID as A) was killed: $(screen | grep -v '^ *$' | tail -4)"
		[ $ok_msg -eq 0 ] && ok kill_reused_pid_says_exited || bad kill_reused_pid_says_exited "$(screen | grep -v '^ *$' | tail -4)"
		kill "$B" 2>/dev/null; wait "$B" 2>/dev/null
	fi
fi

# 3. Detail screen on A2; A2 exits and C gets its PID.
an2=nts${tag}D; cn=nts${tag}C
"$(named "$an2")" 1000 & A2=$!; pids="$pids $A2"
named "$cn" >/dev/null
sleep 0.3
mon -d 0.5
wait_for "$an2" 100
keys / "$an2" Enter
keys Enter
if ! wait_for "PID $A2  $an2" 20; then
	bad detail_reused_pid_says_exited "detail screen not on PID $A2: $(screen | head -5)"
else
	kill "$A2"; wait "$A2" 2>/dev/null
	if ! reuse_pid "$A2" "$T/$cn"; then
		echo "SKIP detail_reused_pid_says_exited: could not give PID $A2 to a new process (got $NEWPID)"
	else
		C2=$NEWPID
		sleep 1.5
		wait_for exited 30; r=$?
		if [ $r -eq 0 ] && ! screen | grep -q "$cn"; then ok detail_reused_pid_says_exited
		else bad detail_reused_pid_says_exited "$(screen | head -6; screen | tail -2)"; fi
		kill "$C2" 2>/dev/null; wait "$C2" 2>/dev/null
	fi
fi
keys Escape

# =====================================================================
# 4. A process that execs while an action's preview is open.
# =====================================================================
# exec_under_preview TEST COMM KEY DIALOG DONE_RE [taskset -c CPUS]: COMM
# (a script) waits on a FIFO, then execs sleep; the monitor watches it
# (-p) and KEY's preview is open when it execs. Confirming then is
# refused, the refusal mentions exec, DONE_RE (the action's result) is
# not shown, and its CPUs are unchanged.
exec_under_preview() {
	test=$1 comm=$2 key=$3 dialog=$4 done_re=$5
	shift 5
	fifo=$T/$comm.fifo
	mkfifo "$fifo"
	printf '#!/bin/sh\nread x <"%s"\nexec sleep 1000\n' "$fifo" >"$T/$comm"
	chmod 755 "$T/$comm"
	"$@" "$T/$comm" & xp=$!; pids="$pids $xp"
	sleep 0.3
	cpus0=$(grep Cpus_allowed_list "/proc/$xp/status" | cut -f2)
	mon -p "$xp" -d 0.5
	keys "$key"
	if ! wait_for "$dialog $xp" 20; then
		bad "$test" "no dialog: $(screen)"
	else
		keys Enter
		wait_for "Enter: start" 20
		timeout 5 sh -c 'echo go >"$1"' sh "$fifo"
		n=30; while [ $n -gt 0 ] && [ "$(cat /proc/$xp/comm 2>/dev/null)" != sleep ]; do sleep 0.1; n=$((n - 1)); done
		if [ "$(cat /proc/$xp/comm 2>/dev/null)" != sleep ]; then
			echo "SKIP $test: PID $xp did not exec sleep"
		else
			sleep 1.5
			keys Enter
			n=40; r=1
			while [ $n -gt 0 ]; do
				flat | sed 's/exec sleep//g' | grep -qi exec && { r=0; break; }
				sleep 0.1; n=$((n - 1))
			done
			cpus1=$(grep Cpus_allowed_list "/proc/$xp/status" | cut -f2)
			[ $r -eq 0 ] && ! flat | grep -q "$done_re" && [ "$cpus1" = "$cpus0" ] \
				&& ok "$test (CPUs $cpus1 kept)" ||
				bad "$test" "CPUs $cpus0 -> $cpus1; $(screen | grep -v '^ *$')"
		fi
		keys Enter
	fi
	kill "$xp" 2>/dev/null; wait "$xp" 2>/dev/null
}

exec_under_preview exec_under_preview_refused "ntsE$tag" m "Migrate memory of PID" \
	"moved [0-9.]*[KMG] to N"
# The same under the rebind preview (B). It starts on CPU 0 only, so a
# rebind to node 0 would change its CPUs when node 0 has more than that.
exec_under_preview exec_under_rebind_preview_refused "ntsR$tag" B "Rebind threads of PID" \
	"threads set" taskset -c 0

# =====================================================================
# 5. Kernel threads are refused.
# =====================================================================
KS=$(pgrep -x kswapd0 | head -1)
cpus2=$(grep Cpus_allowed_list /proc/2/status | cut -f2)
cpusk=$([ -n "$KS" ] && grep Cpus_allowed_list "/proc/$KS/status" | cut -f2)
kcheck() { # kcheck NAME ARGS...
	name=$1; shift
	out=$("$prog" "$@" 2>"$T/k.err"); rc=$?
	[ $rc -ne 0 ] && grep -q "kernel thread" "$T/k.err" && ok "$name" ||
		bad "$name" "rc=$rc stderr: $(cat "$T/k.err") stdout: $(printf '%s' "$out" | head -3)"
}
if [ "$(cat /proc/2/comm)" = kthreadd ]; then
	kcheck kthread_cli_rebind_kthreadd --rebind 2 --to 0
	kcheck kthread_cli_migrate_kthreadd --migrate 2 --to 0
else
	echo "SKIP kthread_cli_kthreadd: PID 2 is $(cat /proc/2/comm), not kthreadd"
fi
if [ -n "$KS" ]; then
	kcheck kthread_cli_rebind_kswapd0 --rebind "$KS" --to 0
	kcheck kthread_cli_migrate_kswapd0 --migrate "$KS" --to 0
else
	echo "SKIP kthread_cli_kswapd0: no kswapd0"
fi
now2=$(grep Cpus_allowed_list /proc/2/status | cut -f2)
if [ "$now2" = "$cpus2" ]; then ok kthread_cpus_unchanged
else
	bad kthread_cpus_unchanged "kthreadd: $cpus2 -> $now2 (restored)"
	taskset -pc "$cpus2" 2 >/dev/null 2>&1
fi
if [ -n "$KS" ] && [ "$(grep Cpus_allowed_list "/proc/$KS/status" | cut -f2)" != "$cpusk" ]; then
	echo "    kswapd0's CPUs changed: restored to $cpusk"
	taskset -pc "$cpusk" "$KS" >/dev/null 2>&1
fi
# The monitor: K, select the kernel thread, B, then m: each refused with
# "kernel thread" at once (no dialog, nothing to confirm).
for kn in kthreadd kswapd0; do
	if ! pgrep -x "$kn" >/dev/null; then echo "SKIP kthread_tui_${kn}: no $kn"; continue; fi
	sfx=""; [ $kn = kswapd0 ] && sfx=_kswapd0
	mon -d 1
	keys K
	keys '\' "$kn" Enter
	keys / "$kn" Enter
	for spec in B:rebind m:migrate; do
		key=${spec%%:*}; what=${spec#*:}
		keys "$key"
		sleep 0.3
		kt=$(screen | grep -i "$what: .*kernel thread")
		dlg=$(screen | grep -E "Rebind threads of|Migrate memory of")
		if [ -n "$kt" ] && [ -z "$dlg" ]; then ok "kthread_tui_${what}_refused$sfx"
		else bad "kthread_tui_${what}_refused$sfx" "$(screen | grep -v '^ *$')"; fi
		# Escape only to close a dialog that should not be there (in
		# the table it would clear the search and move the selection).
		[ -n "$dlg" ] && keys Escape Escape
	done
	keys q
done
[ "$(grep Cpus_allowed_list /proc/2/status | cut -f2)" = "$cpus2" ] || taskset -pc "$cpus2" 2 >/dev/null 2>&1

# =====================================================================
# 6. hidepid=2: root's process is not visible to nobody.
# =====================================================================
hn=ntsH$tag
"$(named "$hn")" 1000 & H=$!; pids="$pids $H"
sleep 0.2
m0=$(grep ' /proc ' /proc/mounts)
# nobody must be able to run the program (a clone under /root is not).
hprog=$prog
env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$hprog" 2>/dev/null ||
	{ cp "$prog" "$T/numatop-tui-h" && chmod 755 "$T/numatop-tui-h" && chmod a+x "$T" && hprog=$T/numatop-tui-h; }
(cd / && unshare -m --propagation private sh -c '
	mount -t proc -o hidepid=2 proc /proc || exit 99
	exec env ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=65534 --regid=65534 --clear-groups "$1" --migrate "$2" --to 0' sh "$hprog" "$H" \
	>"$T/h.out" 2>"$T/h.err"); rc=$?
m1=$(grep ' /proc ' /proc/mounts)
if [ $rc -eq 99 ] || { [ $rc -ne 0 ] && grep -q '^unshare: ' "$T/h.err"; }; then
	echo "SKIP hidepid_not_visible: unshare/mount of a hidepid=2 proc failed: $(cat "$T/h.err")"
elif [ $rc -ne 0 ] && grep -q "not visible" "$T/h.err" && ! grep -q "exited" "$T/h.err"; then
	ok hidepid_not_visible
else
	bad hidepid_not_visible "rc=$rc stderr: $(cat "$T/h.err") stdout: $(head -3 "$T/h.out")"
fi
[ "$m0" = "$m1" ] && ok hidepid_host_proc_unchanged || bad hidepid_host_proc_unchanged "before: $m0 after: $m1"
exit 0
