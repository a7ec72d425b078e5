#!/bin/sh
# The interactive monitor and its terminal (tmux, recorded trees and the
# live machine):
#  notty_*          stdin not a terminal (</dev/null, closed, setsid without
#                   a controlling tty), stdout not a terminal, TERM=dumb:
#                   status 1 and the reason on stderr, at once (never spins)
#  hangup_*         the terminal goes away (tmux kill-session) or SIGHUP
#                   while a prompt or dialog is open: the process is gone
#  pause_cpu        Z: no busy loop while paused
#  sigquit_*        SIGQUIT and Ctrl-\: status 131, the terminal restored
#                   (stty; tmux: alternate screen, cursor, mouse, keypad)
#  locale_*         C / POSIX locale: only printable ASCII on screen; a CJK
#                   process name is one '?' per character there
#  manynodes_*      64 and 1024 nodes at small sizes: every screen, no crash
#  help_*           the help reaches every key label of ui_keys[]
#  prompt_*         / and \ do not stop sampling, SIGTERM still ends it;
#                   UTF-8 typed into the prompt; a resize while it is open
#  too_small_*      the "window too small" message fits 10x5
#  threads_off_*    leaving the thread view (H) resets the scroll
#  dialog_40x10_*   the dialogs and the help fit 40x10
# Every instance gets a delay (-d) with its own digits: the marker pgrep
# finds it by. Times are hang guards only.
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
GEN=tests/trees/gen_many_nodes.sh
. tests/sh/lib.sh
need tmux tmux
need setsid util-linux
need pgrep procps
need python3 python3
need getconf libc-bin
KD=${KEY_DELAY:-0.25}

# The binary may be in the middle of a rebuild: wait for it a little.
n=0
while [ ! -x "$PROG" ] && [ $n -lt 60 ]; do sleep 0.5; n=$((n + 1)); done
[ -x "$PROG" ] || { bad terminal_program "$PROG is missing"; exit 1; }
prog=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
prog_re=$(printf '%s' "$prog" | sed 's/[][\.*^$+?(){}|]/\\&/g')

T=$(mktemp -d)
export TMUX_TMPDIR="$T"
# A UTF-8 locale for tmux itself (and the monitors, unless a test says
# otherwise), whatever the caller's is.
U8=$(locale -a 2>/dev/null | grep -iEx 'c\.utf-?8' | head -1)
[ -n "$U8" ] && export LC_ALL="$U8"
bg=""
cleanup() {
	if [ -s "$T/markers" ]; then
		for p in $(pgrep -af "^$prog_re " | grep -E -- "-d ($(paste -sd'|' "$T/markers"))( |\$)" | cut -d' ' -f1); do
			kill -KILL "$p" 2>/dev/null
		done
	fi
	for p in $bg; do kill "$p" 2>/dev/null; done
	tmux kill-server 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The 1024-node tree takes ~20 s to write: in the background from the start.
# (nice: the monitors under test come first.)
nice -n 10 sh "$GEN" "$T/m64" 64 >"$T/gen64.out" 2>&1 & gen64=$!
nice -n 19 sh "$GEN" "$T/m1024" 1024 1 >"$T/gen1024.out" 2>&1 & gen1024=$!
bg="$gen64 $gen1024"

# --- helpers ---------------------------------------------------------------
# dval BASE: in $D, a delay of BASE seconds (BASE has a decimal point) with
# digits of its own: the marker of one instance (always the last option).
nmark=100
dval() { nmark=$((nmark + 1)); D="$1$$$nmark"; echo "$D" >>"$T/markers"; }
pids_of() { pgrep -f "^$prog_re .*-d $1( |\$)"; }
killall_of() { for p in $(pids_of "$1"); do kill -KILL "$p" 2>/dev/null; done; }
scr() { tmux capture-pane -p -t "$1" 2>/dev/null; }
# see SESSION TEXT [TENTHS]: wait until TEXT is on the screen (3 s).
see() {
	k=${3:-30}
	while [ "$k" -gt 0 ]; do
		scr "$1" | grep -qF -- "$2" && return 0
		sleep 0.1; k=$((k - 1))
	done
	return 1
}
# up SESSION [TENTHS]: wait until the monitor has drawn its first frame
# (the alternate screen is on and something is on it; 5 s).
up() {
	k=${2:-50}
	while [ "$k" -gt 0 ]; do
		[ "$(tmux display -p -t "$1" '#{alternate_on}' 2>/dev/null)" = 1 ] &&
			[ -n "$(scr "$1" | tr -d ' \n')" ] && return 0
		sleep 0.1; k=$((k - 1))
	done
	return 1
}
# press SESSION KEY...: one character is sent as it is, a longer word as a
# tmux key name (Enter, Escape, Tab, NPage ...).
press() {
	ps_s=$1; shift
	for k in "$@"; do
		case $k in
		?) tmux send-keys -t "$ps_s" -l "$k" ;;
		*) tmux send-keys -t "$ps_s" "$k" ;;
		esac
	done
}
# prompt_open SESSION WORD: the bottom line is the prompt WORD (Search,
# Filter), not the function-key bar (which has F3Search F4Filter too).
prompt_open() {
	k=${3:-10}
	while [ "$k" -gt 0 ]; do
		pl=$(scr "$1" | tail -1)
		case $pl in *Quit*) ;; *"$2"*) return 0 ;; esac
		sleep 0.1; k=$((k - 1))
	done
	return 1
}
# rcwait TAG [TENTHS]: wait for $T/rc.TAG (run.sh writes it; 5 s).
rcwait() {
	k=${2:-50}
	while [ "$k" -gt 0 ]; do
		[ -s "$T/rc.$1" ] && return 0
		sleep 0.1; k=$((k - 1))
	done
	return 1
}
rc_of() { cat "$T/rc.$1" 2>/dev/null; }
err_of() { head -c 300 "$T/err.$1" 2>/dev/null | tr '\n' ' '; }
# ticks PID: its CPU time so far (utime + stime, clock ticks).
ticks() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }

# run.sh DIR TAG MODE COMMAND...: COMMAND in a pane, its stdin/stdout as MODE
# says, stderr in DIR/err.TAG; then stty -a of the pane in DIR/stty.TAG and
# the status in DIR/rc.TAG. Ctrl-C and Ctrl-\ reach the whole foreground
# group: this shell catches them (a caught signal is the default again in
# COMMAND; an ignored one would be inherited).
cat >"$T/run.sh" <<'EOF'
dir=$1; tag=$2; mode=$3; shift 3
trap : INT QUIT
ulimit -c 0
case $mode in
devnull) "$@" </dev/null 2>"$dir/err.$tag" ;;
closed) "$@" <&- 2>"$dir/err.$tag" ;;
outfile) "$@" >"$dir/out.$tag" 2>"$dir/err.$tag" ;;
*) "$@" 2>"$dir/err.$tag" ;;
esac
rc=$?
stty -a >"$dir/stty.$tag" 2>&1
echo "$rc" >"$dir/rc.$tag"
echo "EXIT=$rc"
exec sleep 300
EOF
# mon SESSION WxH MODE ARGS...: the monitor with ARGS under run.sh (tag =
# SESSION), TERM=$TERMV (tmux-256color).
mon() {
	m_s=$1; m_g=$2; m_m=$3; shift 3
	tmux new-session -d -s "$m_s" -x "${m_g%x*}" -y "${m_g#*x}" \
		"env TERM=${TERMV:-tmux-256color} sh $T/run.sh $T $m_s $m_m $prog $*"
}
# A session that lives as long as the test: the server never exits between
# sessions.
tmux new-session -d -s keep -x 20 -y 5 "sleep 3600"

# The help labels: the third field of each ui_keys[] row (ui/ui_keys.c).
cat >"$T/labels.awk" <<'EOF'
/ui_keys\[\][ \t]*=[ \t]*\{/ { on = 1; next }
on && /^[ \t]*\};/ { on = 0 }
on && /^[ \t]*\{/ {
	s = $0; sub(/^[ \t]*\{/, "", s)
	n = 1; q = ""; depth = 0; out = ""; str = 0
	for (i = 1; i <= length(s) && n <= 3; i++) {
		c = substr(s, i, 1)
		if (q != "") {
			if (c == "\\") { i++; if (n == 3) out = out substr(s, i, 1); continue }
			if (c == q) { q = ""; continue }
			if (n == 3) out = out c
			continue
		}
		if (c == "\"" || c == "\047") { q = c; if (n == 3 && c == "\"") str = 1; continue }
		if (c == "(") depth++
		else if (c == ")") depth--
		else if (c == "," && depth == 0) n++
	}
	if (str) print out
}
EOF
awk -f "$T/labels.awk" ui/ui_keys.c >"$T/labels"

# box.py CAPTURE WIDTH TITLE_RE FOOTER_RE: a dialog drawn as a box in a
# capture-pane -e -N. The box's columns: the run of cells in the box's colour
# (that of the cell left of the title) through the title. Complete when the
# last line (FOOTER_RE, below the title) is on screen inside those columns
# and the box's colour reaches both of its edges on that row too: the top
# and the bottom of the box the same width, nothing cut. Prints why not.
cat >"$T/box.py" <<'EOF'
import re, sys
path, W, tre, fre = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
fg = bg = None
rev = False
rows = []
for line in open(path, encoding="utf-8", errors="replace").read().split("\n"):
    line = re.sub(r"\x1b[()][0-9A-Za-z]|\x1b\[[0-9;:?]*[A-La-ln-z]", "", line)
    cells = []
    for part in re.split(r"(\x1b\[[0-9;:]*m)", line):
        if part.startswith("\x1b["):
            ps = [int(x) if x.isdigit() else 0 for x in re.split("[;:]", part[2:-1])]
            i = 0
            while i < len(ps):
                p = ps[i]
                if p == 0: fg = bg = None; rev = False
                elif p == 7: rev = True
                elif p == 27: rev = False
                elif 30 <= p <= 37 or 90 <= p <= 97: fg = p
                elif p == 39: fg = None
                elif 40 <= p <= 47 or 100 <= p <= 107: bg = p
                elif p == 49: bg = None
                elif p in (38, 48):
                    n = 3 if i + 1 < len(ps) and ps[i + 1] == 5 else 5
                    v = tuple(ps[i + 1:i + n])
                    if p == 38: fg = v
                    else: bg = v
                    i += n - 1
                i += 1
            continue
        for ch in part:
            cells.append((ch, ("rev", fg, bg) if rev else ("bg", bg)))
    cells += [(" ", None)] * (W - len(cells))
    rows.append(cells[:W])
text = ["".join(c for c, _ in r) for r in rows]
t = next(((y, m) for y, l in enumerate(text) for m in [re.search(tre, l)] if m), None)
if not t:
    print("no title /%s/ on screen" % tre); sys.exit(1)
ty, tm = t
x = max(tm.start() - 1, 0)
key = rows[ty][x][1]
a = x
while a > 0 and rows[ty][a - 1][1] == key: a -= 1
b = tm.end() - 1
if any(rows[ty][i][1] != key for i in range(x, tm.end())):
    b = x
while b + 1 < W and rows[ty][b + 1][1] == key: b += 1
f = [(y, m) for y, l in enumerate(text) if y > ty for m in [re.search(fre, l)] if m]
if not f:
    print("title on line %d, columns %d-%d; its last line /%s/ is not on screen" % (ty + 1, a, b, fre))
    sys.exit(1)
fy, fm = f[-1]
why = []
if fm.start() < a or fm.end() - 1 > b:
    why.append("the last line sticks out of the box")
if rows[fy][a][1] != key or rows[fy][b][1] != key:
    l = [i for i in range(W) if rows[fy][i][1] == key]
    why.append("bottom line in the box colour at columns %s-%s, the title line %d-%d"
               % (l[0] if l else "-", l[-1] if l else "-", a, b))
if why:
    print("; ".join(why)); sys.exit(1)
print("lines %d-%d, columns %d-%d" % (ty + 1, fy + 1, a, b))
EOF

# =========================================================================
# 1-3. Not a terminal, TERM=dumb: all at once, one 5 s hang guard.
# =========================================================================
: >"$T/empty"
dval 1.37; D_devnull=$D
mon nt-devnull 80x24 devnull --root $TREE -d "$D"
dval 1.37; D_closed=$D
mon nt-closed 80x24 closed --root $TREE -d "$D"
dval 1.37; D_outfile=$D
mon nt-outfile 80x24 outfile --root $TREE -d "$D"
dval 1.37; D_dumb=$D
TERMV=dumb mon nt-dumb 80x24 tty --root $TREE -d "$D"
dval 1.37; D_setsid=$D
( TERM=tmux-256color setsid -w "$prog" --root $TREE -d "$D" <"$T/empty" >"$T/out.nt-setsid" 2>"$T/err.nt-setsid"
  echo $? >"$T/rc.nt-setsid" ) &
k=50
while [ $k -gt 0 ]; do
	all=1
	for s in devnull closed outfile dumb setsid; do [ -s "$T/rc.nt-$s" ] || all=0; done
	[ $all = 1 ] && break
	sleep 0.1; k=$((k - 1))
done
# notty NAME SESSION MARKER WANT_TEXT: status 1 and WANT_TEXT on stderr.
notty() {
	if [ ! -s "$T/rc.$2" ]; then
		p=$(pids_of "$3" | head -1)
		bad "$1" "still running after 5 s ($( [ -n "$p" ] && echo "state $(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f1), $(ticks "$p") CPU ticks" ); killed)"
		killall_of "$3"
		return 1
	fi
	r=$(rc_of "$2")
	if [ "$r" = 1 ] && grep -q "$4" "$T/err.$2"; then ok "$1"; return 0; fi
	bad "$1" "status $r (want 1), stderr: $(err_of "$2") (want \"$4\")"
	return 1
}
notty notty_stdin_devnull nt-devnull "$D_devnull" "not a terminal"
notty notty_stdin_closed nt-closed "$D_closed" "not a terminal"
notty notty_setsid_no_ctty nt-setsid "$D_setsid" "not a terminal"
if notty notty_stdout_file nt-outfile "$D_outfile" "not a terminal"; then
	if grep -q "$(printf '\033')" "$T/out.nt-outfile"; then
		bad notty_stdout_file_nothing_drawn "escape sequences in stdout: $(head -c 60 "$T/out.nt-outfile" | od -An -c | head -2 | tr -s ' ')"
	else ok notty_stdout_file_nothing_drawn; fi
else
	if [ -s "$T/out.nt-outfile" ] && grep -q "$(printf '\033')" "$T/out.nt-outfile"; then
		bad notty_stdout_file_nothing_drawn "$(wc -c <"$T/out.nt-outfile") bytes of escape sequences written to the file"
	else ok notty_stdout_file_nothing_drawn; fi
fi
notty notty_term_dumb nt-dumb "$D_dumb" "cannot move the cursor"
for s in devnull closed outfile dumb; do tmux kill-session -t "nt-$s" 2>/dev/null; done
for s in devnull closed outfile dumb setsid; do eval "killall_of \"\$D_$s\""; done

# =========================================================================
# 4. Hang-up (tmux kill-session) and SIGHUP while a prompt or dialog is
# open: 7 x 2 monitors at once, one 5 s hang guard.
# =========================================================================
sleep 300 & victim=$!; bg="$bg $victim"
DIALOGS="search filter kill migrate help setup detail"
for d in $DIALOGS; do
	for how in hangup sighup; do
		dval 1.37
		echo "$D" >"$T/mark.h-$d-$how"
		case $d in
		kill|migrate) args="-p $victim" ;;   # live: actions are refused on a tree
		*) args="--root $TREE" ;;
		esac
		tmux new-session -d -s "h-$d-$how" -x 80 -y 24 "env TERM=tmux-256color $prog $args -d $D"
	done
done
for d in $DIALOGS; do
	case $d in
	search) key=/; want=Search ;;
	filter) key='\'; want=Filter ;;
	kill) key=k; want=SIGTERM ;;
	migrate) key=m; want="Migrate memory" ;;
	help) key='?'; want=help ;;
	setup) key=S; want=columns ;;
	detail) key=Enter; want=Mems_allowed ;;
	esac
	for how in hangup sighup; do
		s=h-$d-$how
		up "$s" || echo "startup" >"$T/why.$s"
		press "$s" "$key"
		echo "$want" >"$T/want.$s"
	done
done
sleep 0.3
for d in $DIALOGS; do
	for how in hangup sighup; do
		s=h-$d-$how
		w=$(cat "$T/want.$s")
		case $d in search|filter) prompt_open "$s" "$w" ;; *) see "$s" "$w" 10 ;; esac || { echo "the dialog did not open (no \"$w\"): $(scr "$s" | grep -v '^ *$' | tail -2 | tr '\n' '|')" >"$T/why.$s"; }
	done
done
# One pgrep a round, its lines searched for each marker (14 pgreps a round
# are slow on a loaded machine).
snap() { pgrep -af "^$prog_re " >"$T/procs"; }
in_snap() { grep -E -- "-d $1( |\$)" "$T/procs" | cut -d' ' -f1; }
snap
for d in $DIALOGS; do
	for how in hangup sighup; do
		s=h-$d-$how; mk=$(cat "$T/mark.$s")
		if [ $how = hangup ]; then tmux kill-session -t "$s"
		else for p in $(in_snap "$mk"); do kill -HUP "$p"; done; fi
	done
done
k=25
while [ $k -gt 0 ]; do
	snap
	left=0
	for d in $DIALOGS; do for how in hangup sighup; do
		[ -n "$(in_snap "$(cat "$T/mark.h-$d-$how")")" ] && left=1
	done; done
	[ $left = 0 ] && break
	sleep 0.2; k=$((k - 1))
done
for d in $DIALOGS; do
	for how in hangup sighup; do
		s=h-$d-$how; mk=$(cat "$T/mark.$s")
		[ $how = hangup ] && name="hangup_kill_session_in_$d" || name="hangup_sighup_in_$d"
		p=$(in_snap "$mk" | head -1)
		if [ -n "$p" ]; then
			bad "$name" "still running 5 s after the $( [ $how = hangup ] && echo 'terminal went away' || echo 'SIGHUP') (state $(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f1), $(ticks "$p") CPU ticks); killed$( [ -s "$T/why.$s" ] && echo "; $(cat "$T/why.$s")")"
			for q in $(in_snap "$mk"); do kill -KILL "$q" 2>/dev/null; done
		elif [ -s "$T/why.$s" ]; then
			bad "$name" "$(cat "$T/why.$s")"
		else
			ok "$name"
		fi
		tmux kill-session -t "$s" 2>/dev/null
	done
done

# =========================================================================
# 5. Z: paused, no busy loop.
# =========================================================================
dval 0.5
tmux new-session -d -s pause -x 80 -y 24 "env TERM=tmux-256color $prog --root $TREE -d $D"
if up pause; then
	press pause Z
	see pause PAUSED 20 || echo "    (no [PAUSED] on the status line)"
	sleep 0.3
	p=$(pids_of "$D" | head -1)
	hz=$(getconf CLK_TCK)
	t0=$(ticks "$p"); u0=$(cut -d' ' -f1 /proc/uptime)
	sleep 3
	t1=$(ticks "$p"); u1=$(cut -d' ' -f1 /proc/uptime)
	if [ -z "$p" ] || [ -z "$t1" ]; then
		bad pause_cpu "the monitor is gone: $(scr pause | tail -3 | tr '\n' '|')"
	else
		res=$(awk -v a="$t0" -v b="$t1" -v u0="$u0" -v u1="$u1" -v hz="$hz" 'BEGIN {
			e = (u1 - u0) * hz; c = b - a
			printf "%d ticks of CPU in %.1f s (%.0f%%)", c, u1 - u0, (e > 0 ? 100 * c / e : 0)
			exit !(c < 0.1 * e) }')
		[ $? = 0 ] && ok "pause_cpu ($res)" || bad pause_cpu "paused: $res, want below 10%"
	fi
else
	bad pause_cpu "did not start: $(scr pause | tail -3)"
fi
killall_of "$D"; tmux kill-session -t pause 2>/dev/null

# =========================================================================
# 6. SIGQUIT and Ctrl-\: status 131, the terminal restored.
# =========================================================================
dval 1.37; D_qk=$D
mon q-kill 80x24 tty --root $TREE -d "$D"
dval 1.37; D_qc=$D
mon q-ctrl 80x24 tty --root $TREE -d "$D"
up q-kill; up q-ctrl
# The pane's modes as tmux sees them: alternate screen, cursor, mouse,
# keypad (cursor keys and numeric pad).
QF='alt=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag} keypad=#{keypad_cursor_flag}#{keypad_flag}'
run_q_kill=$(tmux display -p -t q-kill "$QF"); run_q_ctrl=$(tmux display -p -t q-ctrl "$QF")
for p in $(pids_of "$D_qk"); do kill -QUIT "$p"; done
tmux send-keys -t q-ctrl -H 1c
for how in kill ctrl; do
	eval "mk=\$D_q$( [ $how = kill ] && echo k || echo c)"
	name=sigquit_$( [ $how = kill ] && echo kill || echo ctrl_backslash)
	if ! rcwait "q-$how"; then
		bad "${name}_status" "still running 5 s after SIGQUIT; killed"; killall_of "$mk"
		echo "SKIP ${name}_tty_restored: the program did not end"
		continue
	fi
	r=$(rc_of "q-$how")
	[ "$r" = 131 ] && ok "${name}_status" || bad "${name}_status" "status $r (want 131); stderr: $(err_of "q-$how")"
	st=$(tr '\n' ' ' <"$T/stty.q-$how")
	printf ' %s ' "$st" | grep -q ' icanon ' && printf ' %s ' "$st" | grep -q ' echo ' \
		&& ok "${name}_tty_restored" \
		|| bad "${name}_tty_restored" "stty after exit: $(printf '%s' "$st" | grep -oE -- '-?(icanon|echo|isig|icrnl|opost)( |$)' | tr -d '\n')"
	eval "run=\$run_q_$how"
	after=$(tmux display -p -t "q-$how" "$QF")
	case $run in
	"alt=1 cursor=0 "*) [ "$after" = "alt=0 cursor=1 mouse=000 keypad=00" ] && ok "${name}_modes_restored" \
		|| bad "${name}_modes_restored" "after exit: $after (while running: $run)" ;;
	*) bad "${name}_modes_restored" "while running: $run (expected the alternate screen and a hidden cursor)" ;;
	esac
done
tmux kill-session -t q-kill 2>/dev/null; tmux kill-session -t q-ctrl 2>/dev/null

# =========================================================================
# 7. C and POSIX locales: printable ASCII only, on every screen.
# =========================================================================
LOCS="C-120x40 C-80x24 POSIX-120x40 POSIX-80x24"
if [ -n "$U8" ]; then LOCS="$LOCS UTF8-80x24"; else echo "SKIP locale_utf8_control: no C.UTF-8 locale"; fi
for l in $LOCS; do
	case $l in
	C-*) e="LANG=C LC_ALL=C" ;;
	POSIX-*) e="LC_ALL=POSIX" ;;
	UTF8-*) e="LC_ALL=$U8" ;;
	esac
	dval 30.0; echo "$D" >"$T/mark.lc-$l"
	tmux new-session -d -s "lc-$l" -x "$(echo "${l#*-}" | cut -dx -f1)" -y "${l##*x}" \
		"env $e TERM=tmux-256color $prog --root $TREE -d $D"
done
for l in $LOCS; do up "lc-$l" 2>/dev/null; scr "lc-$l" >"$T/lc.$l"; done
for i in 1 2 3; do
	for l in $LOCS; do press "lc-$l" Tab 2>/dev/null; done
	sleep "$KD"
	for l in $LOCS; do scr "lc-$l" >>"$T/lc.$l"; done
done
for l in $LOCS; do
	f=$T/lc.$l
	if [ "${l%%-*}" = UTF8 ]; then
		grep -q F10Quit "$f" && ok "locale_utf8_control_draws ($(LC_ALL=C tr -d ' -~\n' <"$f" | wc -c) non-ASCII bytes: block characters allowed)" \
			|| bad locale_utf8_control_draws "$(head -5 "$f")"
		continue
	fi
	name="locale_${l%%-*}_${l#*-}_ascii_only"
	nb=$(LC_ALL=C tr -d ' -~\n' <"$f" | wc -c)
	junk=$(grep -nE '~[@A-Z^_]|M-[^ ]' "$f" | head -3)
	if ! grep -q F10Quit "$f"; then bad "$name" "no main screen: $(head -3 "$f")"
	elif [ "$nb" -eq 0 ] && [ -z "$junk" ]; then ok "$name"
	else bad "$name" "$nb bytes outside printable ASCII; $(printf '%s\n' "$junk" "$(LC_ALL=C grep -n '[^ -~]' "$f" | head -2)" | grep -v '^$' | head -3 | cut -c1-100)"; fi
done
for l in $LOCS; do tmux kill-session -t "lc-$l" 2>/dev/null; killall_of "$(cat "$T/mark.lc-$l" 2>/dev/null)"; done

# A process named in CJK (comm and cmdline 山田db): in the C locale each
# character is one '?' in the table (never raw bytes, which a C-locale
# terminal shows as ~T junk); in a UTF-8 locale the name shows.
cp -r "$TREE" "$T/cjk"
cjk=$T/cjk/proc/4242
sed -i 's/^4242 ([^)]*)/4242 (山田db)/' "$cjk/stat"
sed -i 's/^Name:.*/Name:	山田db/' "$cjk/status"
printf '山田db\0--serve\0' >"$cjk/cmdline"
CJKL="C"; [ -n "$U8" ] && CJKL="C UTF8"
for l in $CJKL; do
	case $l in C) e="LANG=C LC_ALL=C" ;; UTF8) e="LC_ALL=$U8" ;; esac
	dval 30.0; echo "$D" >"$T/mark.cjk-$l"
	tmux new-session -d -s "cjk-$l" -x 120 -y 40 "env $e TERM=tmux-256color $prog --root $T/cjk -s PID -d $D"
done
for l in $CJKL; do
	up "cjk-$l"; see "cjk-$l" 4242 >/dev/null
	scr "cjk-$l" >"$T/cjk.$l"
	row=$(grep -E '^ *4242 ' "$T/cjk.$l" | head -1)
	if [ $l = C ]; then
		nb=$(LC_ALL=C tr -d ' -~\n' <"$T/cjk.$l" | wc -c)
		if printf '%s\n' "$row" | grep -qE ' \?\?db --serve' && [ "$nb" -eq 0 ] \
			&& ! printf '%s\n' "$row" | grep -qE '~[@A-Z^_]|M-'; then ok locale_C_cjk_name_question_marks
		else bad locale_C_cjk_name_question_marks "row: '$row'; $nb bytes outside printable ASCII on screen"; fi
	else
		printf '%s\n' "$row" | grep -q ' 山田db --serve' && ok locale_utf8_cjk_name_shown \
			|| bad locale_utf8_cjk_name_shown "row: '$row'"
	fi
done
[ -z "$U8" ] && echo "SKIP locale_utf8_cjk_name_shown: no C.UTF-8 locale"
for l in $CJKL; do tmux kill-session -t "cjk-$l" 2>/dev/null; killall_of "$(cat "$T/mark.cjk-$l" 2>/dev/null)"; done

# =========================================================================
# 8. Many nodes at small sizes: every screen, help, detail, then q: status 0.
# =========================================================================
SIZES="40x10 80x12 60x15 100x20 20x6"
manynodes() { # manynodes NODES TREE
	if [ ! -d "$2/proc" ]; then
		bad "manynodes_$1_tree" "gen_many_nodes.sh failed: $(tail -3 "$T/gen$1.out")"; return
	fi
	for g in $SIZES; do
		dval 30.0; echo "$D" >"$T/mark.mn-$1-$g"
		mon "mn-$1-$g" "$g" tty --root "$2" -d "$D"
	done
	for g in $SIZES; do up "mn-$1-$g" 200 || echo "no first frame within 20 s" >"$T/why.mn-$1-$g"; done
	for key in Tab Tab Tab Tab '?' Escape Enter Escape n D H; do
		for g in $SIZES; do press "mn-$1-$g" "$key"; done
		sleep "$KD"
	done
	sleep 0.5
	for g in $SIZES; do
		s=mn-$1-$g
		if [ -s "$T/rc.$s" ]; then echo "died before q" >"$T/early.$s"; else press "$s" q; fi
	done
	for g in $SIZES; do
		s=mn-$1-$g; name="manynodes_$1_nodes_$g"
		if ! rcwait "$s" 100; then
			bad "$name" "still running 10 s after q; killed$( [ -s "$T/why.$s" ] && echo "; $(cat "$T/why.$s")")"
			killall_of "$(cat "$T/mark.$s")"
			continue
		fi
		r=$(rc_of "$s")
		if [ -s "$T/early.$s" ]; then
			bad "$name" "$1 nodes at $g: exited before q with status $r$( [ "$r" = 139 ] && echo ' (SIGSEGV)'); stderr: $(err_of "$s")"
		elif [ "$r" = 0 ]; then ok "$name"
		else bad "$name" "$1 nodes at $g: status $r after q$( [ "$r" = 139 ] && echo ' (SIGSEGV)'); stderr: $(err_of "$s")"; fi
		tmux kill-session -t "$s" 2>/dev/null
	done
}
wait $gen64
manynodes 64 "$T/m64"

# =========================================================================
# 9. The help at 80x24 scrolls to every key label of ui_keys[].
# =========================================================================
nl=$(wc -l <"$T/labels")
if [ "$nl" -lt 20 ] || ! grep -qx 'F1 h ?' "$T/labels" || ! grep -qx 'Tab S-Tab' "$T/labels"; then
	bad help_labels_parsed "only $nl labels read from ui/ui_keys.c: $(tr '\n' '|' <"$T/labels")"
fi
dval 30.0; D_help=$D
tmux new-session -d -s help -x 80 -y 24 "env TERM=tmux-256color $prog --root $TREE -d $D"
up help
press help '?'
see help help 20
scr help >"$T/help.txt"; prev=$(scr help)
for key in NPage Down; do
	i=0
	while [ $i -lt 40 ]; do
		press help "$key"; sleep 0.15
		cur=$(scr help)
		[ "$cur" = "$prev" ] && break
		printf '%s\n' "$cur" >>"$T/help.txt"; prev=$cur; i=$((i + 1))
	done
done
# A label is found when a line starts with it (after blanks), followed by a
# blank or the end of the line.
missing=$(awk 'NR == FNR { want[++n] = $0; next }
	{ l = $0; sub(/^ +/, "", l); lines[++m] = l }
	END {
		for (i = 1; i <= n; i++) {
			f = 0
			for (j = 1; j <= m && !f; j++)
				if (index(lines[j], want[i]) == 1 && (length(lines[j]) == length(want[i]) || substr(lines[j], length(want[i]) + 1, 1) == " ")) f = 1
			if (!f) printf "\"%s\" ", want[i]
		}
	}' "$T/labels" "$T/help.txt")
[ -z "$missing" ] && ok "help_every_key_label ($nl labels)" || bad help_every_key_label "not in the help: $missing"
# The label column: up to the first two blanks; each key a word in it.
missing=$(awk '{ l = $0; sub(/^ +/, "", l); p = index(l, "  "); if (p) l = substr(l, 1, p - 1); labs = labs " " l " " }
	END { split("q m B L v Tab Enter", k, " ")
		for (i = 1; i <= 7; i++) if (index(labs, " " k[i] " ") == 0) printf "%s ", k[i] }' "$T/help.txt")
[ -z "$missing" ] && ok help_keys_q_m_B_L_v_Tab_Enter || bad help_keys_q_m_B_L_v_Tab_Enter "no help line for: $missing"
killall_of "$D_help"; tmux kill-session -t help 2>/dev/null

# =========================================================================
# 10. The prompts do not stop the program: sampling goes on (the TIME+ of a
# spinning process changes on screen), SIGTERM ends it (status 0).
# =========================================================================
sh -c 'while :; do :; done' & spin=$!; bg="$bg $spin"
for pr in search filter; do
	dval 0.5; echo "$D" >"$T/mark.p-$pr"
	mon "p-$pr" 100x30 tty -p $spin -o PID,TIME,COMMAND -d "$D"
done
time_of() { scr "$1" | awk -v p=$spin '$1 == p { print $2; exit }'; }
for pr in search filter; do
	s=p-$pr
	up "$s"; see "$s" "$spin " 30
	[ $pr = search ] && press "$s" / || press "$s" '\'
done
sleep 0.5
for pr in search filter; do
	s=p-$pr; want=$( [ $pr = search ] && echo Search || echo Filter )
	prompt_open "$s" "$want" || echo "no prompt on screen: $(scr "$s" | tail -1)" >"$T/why.$s"
	time_of "$s" >"$T/t1.$s"
done
sleep 1.6
for pr in search filter; do
	s=p-$pr; name="prompt_${pr}_sampling_continues"
	t1=$(cat "$T/t1.$s"); t2=$(time_of "$s")
	if [ -s "$T/why.$s" ]; then bad "$name" "$(cat "$T/why.$s")"
	elif [ -n "$t1" ] && [ -n "$t2" ] && [ "$t1" != "$t2" ] && prompt_open "$s" "$( [ $pr = search ] && echo Search || echo Filter )" 1; then
		ok "$name (TIME+ of the spinning PID $t1 -> $t2 with the prompt open)"
	else
		bad "$name" "TIME+ of the spinning PID $spin: '$t1' then '$t2' 1.6 s later (-d 0.5); bottom line: $(scr "$s" | tail -1)"
	fi
	for p in $(pids_of "$(cat "$T/mark.$s")"); do kill -TERM "$p"; done
done
for pr in search filter; do
	s=p-$pr; name="prompt_${pr}_sigterm_ends"
	if ! rcwait "$s" 30; then
		bad "$name" "still running 3 s after SIGTERM with the prompt open; killed"
		killall_of "$(cat "$T/mark.$s")"
	else
		r=$(rc_of "$s")
		[ "$r" = 0 ] && ok "$name" || bad "$name" "status $r (want 0); stderr: $(err_of "$s")"
	fi
	tmux kill-session -t "$s" 2>/dev/null
done
kill "$spin" 2>/dev/null

# =========================================================================
# 10b. A paste into a prompt: three 10 KB pastes into the filter prompt,
# then Escape. The monitor takes them without a redraw per key (20 s of
# CPU per paste once) and keeps sampling: the prompt closes
# within a bound far above what the keys cost, and the TIME+ of a
# spinning process moved.
# =========================================================================
sh -c 'while :; do :; done' & spin=$!; bg="$bg $spin"
dval 0.5; D_paste=$D
mon paste 100x30 tty -p $spin -o PID,TIME,COMMAND -d "$D"
up paste; see paste "$spin " 30
head -c 10000 /dev/zero | tr '\0' 'a' >"$T/paste.txt"
tmux load-buffer -b p "$T/paste.txt"
press paste '\'; prompt_open paste Filter
t1=$(scr paste | awk -v p=$spin '$1 == p { print $2; exit }')
for i in 1 2 3; do tmux paste-buffer -b p -t paste; sleep 0.3; done
press paste Escape
k=150; while [ $k -gt 0 ] && ! scr paste | tail -1 | grep -q Quit; do sleep 0.1; k=$((k - 1)); done
sleep 1.2
t2=$(scr paste | awk -v p=$spin '$1 == p { print $2; exit }')
if [ $k -eq 0 ]; then bad prompt_paste_no_freeze "30 KB pasted into the filter prompt, then Escape: the prompt still open 15 s later: $(scr paste | tail -1 | cut -c1-80)"
elif [ -z "$t1" ] || [ "$t1" = "$t2" ]; then bad prompt_paste_no_freeze "TIME+ of the spinning PID $spin: '$t1' then '$t2' (no sample during or after the paste)"
else ok "prompt_paste_no_freeze (TIME+ $t1 -> $t2)"; fi
killall_of "$D_paste"; tmux kill-session -t paste 2>/dev/null
kill "$spin" 2>/dev/null

# =========================================================================
# 11. UTF-8 typed into the prompt; 12. a resize while it is open;
# 13. "window too small" at 10x5.
# =========================================================================
if [ -n "$U8" ]; then
	dval 30.0; D_u8=$D
	tmux new-session -d -s u8 -x 80 -y 24 "env LC_ALL=$U8 TERM=tmux-256color $prog --root $TREE -d $D"
	up u8; press u8 /; prompt_open u8 Search
	tmux send-keys -t u8 -H c3 a9; press u8 x; sleep "$KD"
	last=$(scr u8 | tail -1)
	printf '%s\n' "$last" | grep -qF "$(printf '\303\251x')" && ok prompt_utf8_input \
		|| bad prompt_utf8_input "typed e-acute then x; the prompt line: '$last'"
	killall_of "$D_u8"; tmux kill-session -t u8 2>/dev/null
else
	echo "SKIP prompt_utf8_input: no C.UTF-8 locale"
fi

dval 60.0; D_rz=$D
tmux new-session -d -s rz -x 80 -y 24 "env TERM=tmux-256color $prog --root $TREE -d $D"
dval 60.0; D_ref=$D
tmux new-session -d -s ref -x 100 -y 30 "env TERM=tmux-256color $prog --root $TREE -d $D"
up rz; up ref
press rz /; prompt_open rz Search
tmux resize-window -t rz -x 100 -y 30
sleep 0.8
scr ref >"$T/ref.txt"; scr rz >"$T/rz.txt"
# Everything above the status line, and the table header, as a monitor
# started at 100x30 draws it; the prompt still on the bottom line.
hdr=$(grep -n 'PID' "$T/ref.txt" | head -1 | cut -d: -f1)
st=$(grep -n '^Tasks:' "$T/ref.txt" | head -1 | cut -d: -f1)
d1=$(awk -v st="${st:-0}" -v hdr="${hdr:-0}" 'NR == FNR { r[FNR] = $0; next }
	(FNR < st || FNR == hdr) && r[FNR] != $0 {
		for (c = 1; substr($0, c, 1) == substr(r[FNR], c, 1); c++) ;
		printf "line %d differs from column %d: \"%s\" (a monitor started at 100x30: \"%s\")", FNR, c, substr($0, c, 50), substr(r[FNR], c, 50); exit }' "$T/ref.txt" "$T/rz.txt")
lastl=$(tail -1 "$T/rz.txt")
if [ -z "$st" ] || [ -z "$hdr" ]; then bad prompt_resize_redraws "the 100x30 reference has no status/header line: $(head -3 "$T/ref.txt")"
elif [ -n "$d1" ]; then bad prompt_resize_redraws "after 80x24 -> 100x30 with / open, $d1"
elif [ "$(wc -l <"$T/rz.txt")" -ne 30 ] || ! prompt_open rz Search 1; then
	bad prompt_resize_redraws "the prompt is not on the new bottom line (line 30): '$lastl'"
else ok prompt_resize_redraws; fi
killall_of "$D_rz"; killall_of "$D_ref"; tmux kill-session -t rz 2>/dev/null; tmux kill-session -t ref 2>/dev/null

dval 30.0; D_small=$D
tmux new-session -d -s small -x 10 -y 5 "env TERM=tmux-256color $prog --root $TREE -d $D"
up small; sleep 0.2
s=$(scr small)
if printf '%s\n' "$s" | grep -qi 'too small' && [ "$(printf '%s\n' "$s" | awk 'length > 10' | wc -l)" -eq 0 ]; then
	ok too_small_message_fits_10x5
else
	bad too_small_message_fits_10x5 "want \"too small\" whole on one line: $(printf '%s\n' "$s" | sed 's/$/|/' | tr -d '\n')"
fi
killall_of "$D_small"; tmux kill-session -t small 2>/dev/null

# =========================================================================
# 13b. A status message replaces the status line whole: no fragment of
# the counts or of an earlier message beside it.
# =========================================================================
dval 30.0; D_msg=$D
tmux new-session -d -s msg -x 120 -y 30 "env TERM=tmux-256color $prog --root $TREE -d $D"
up msg; sleep 0.2
# The status row: the one above the table's header.
status_row() { scr msg | sed -n '/PID. *USER/{x;p;q};h' | sed 's/ *$//'; }
press msg / zzzz-no-such-process-name Enter; sleep "$KD"
sl=$(status_row)
[ "$sl" = "not found: zzzz-no-such-process-name" ] && ok status_message_whole \
	|| bad status_message_whole "status line: '$sl' (want the message alone)"
press msg +; sleep "$KD"
sl=$(status_row)
case $sl in
"interval "*s) ok status_message_replaced ;;
*) bad status_message_replaced "status line: '$sl' (want the new message alone)" ;;
esac
killall_of "$D_msg"; tmux kill-session -t msg 2>/dev/null

# =========================================================================
# 14. Leaving the thread view leaves no scroll offset that hides rows: the
# table is full (the selection stays on its process, as in htop, so the
# table may start further down). Live machine, no new sample: -d 60.
# =========================================================================
dval 60.0; D_thr=$D
# Sorted by PID: one order (REMOTE is 0 for every process on a one-node
# machine, and ties may come in any order).
tmux new-session -d -s thr -x 80 -y 24 "env TERM=tmux-256color $prog -s PID -d $D"
up thr; sleep 0.3
first_row() { scr thr | sed -n '/^ *PID/{n;p;q}' | awk '{ print $1 }'; }
press thr H; sleep "$KD"
press thr End; sleep "$KD"
press thr NPage NPage NPage; sleep "$KD"
press thr H; sleep "$KD"
scr thr >"$T/thr.txt"
r1=$(first_row)
# The table's first row: Home selects it (other processes come and go on
# the live machine: the one shown first at the start may be gone).
press thr Home; sleep "$KD"
r0=$(first_row)
H=$(wc -l <"$T/thr.txt")
hl=$(grep -n '^ *PID' "$T/thr.txt" | head -1 | cut -d: -f1)
# (Tasks: N shown of M, or in short Tasks: N/M)
nshown=$(sed -n 's/^Tasks: \([0-9]*\)\( shown\|\/\).*/\1/p' "$T/thr.txt" | head -1)
area=$((H - 1 - ${hl:-0}))
rows=$(awk -v a="${hl:-0}" -v b="$H" 'NR > a && NR < b && /[^ ]/' "$T/thr.txt" | wc -l)
want=$area; [ -n "$nshown" ] && [ "$nshown" -lt "$area" ] && want=$nshown
if [ -z "$hl" ] || [ -z "$r0" ] || [ -z "$r1" ]; then bad threads_off_scroll_reset "no process table: $(head -3 "$T/thr.txt")"
elif [ "$rows" -eq "$want" ] && isnum "$r1"; then ok "threads_off_scroll_reset ($rows rows from PID $r1)"
else bad threads_off_scroll_reset "after H End PgDn x3 H: first row PID $r1 (the table starts with $r0), $rows rows shown (want $want)"; fi
killall_of "$D_thr"; tmux kill-session -t thr 2>/dev/null

# =========================================================================
# 15. The dialogs (k, m, B, L, F6, F2, x: live, on our own sleeping
# process) and the help at 40x10. Only Esc is pressed in them: nothing is
# sent or moved.
# =========================================================================
dval 60.0; D_dlg=$D
tmux new-session -d -s dlg -x 40 -y 10 "env TERM=tmux-256color $prog -p $victim -d $D"
up dlg; sleep 0.2
for spec in "kill:k:Send signal" "migrate:m:Migrate [a-z]" "rebind:B:Rebind threads of" "measure:L:Measure"; do
	name=${spec%%:*}; rest=${spec#*:}; key=${rest%%:*}; title=${rest#*:}
	press dlg "$key"; sleep "$KD"
	tmux capture-pane -e -N -p -t dlg >"$T/dlg.$name"
	res=$(python3 "$T/box.py" "$T/dlg.$name" 40 "$title" 'Esc' 2>&1)
	[ $? = 0 ] && ok "dialog_40x10_$name ($res)" \
		|| bad "dialog_40x10_$name" "$res; screen: $(scr dlg | sed 's/$/|/' | tr -d '\n' | cut -c1-420)"
	press dlg Escape; sleep "$KD"
done
# F6: the sort menu, a box down to its last row (the selected column, "*").
press dlg F6; sleep "$KD"
tmux capture-pane -e -N -p -t dlg >"$T/dlg.sort"
res=$(python3 "$T/box.py" "$T/dlg.sort" 40 'Sort by' '\* [A-Z]' 2>&1)
[ $? = 0 ] && ok "dialog_40x10_sort ($res)" \
	|| bad dialog_40x10_sort "$res; screen: $(scr dlg | sed 's/$/|/' | tr -d '\n' | cut -c1-420)"
press dlg Escape; sleep "$KD"
# F2: the setup screen's two lists side by side, each row a column name in
# both (nothing spilled onto the next row), its key line last, 10 rows.
press dlg F2; sleep "$KD"
scr dlg >"$T/dlg.setup"
res=$(python3 - "$T/dlg.setup" 40 10 <<'PYEOF'
import re, sys
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
W, H = int(sys.argv[2]), int(sys.argv[3])
while rows and rows[-1] == "" and len(rows) > H: rows.pop()
why = []
if len(rows) != H: why.append("%d rows" % len(rows))
if any(len(r) > W for r in rows): why.append("a row wider than %d" % W)
t = next((i for i, r in enumerate(rows) if "Active columns" in r), None)
if t is None or "Available" not in rows[t]:
    why.append("no 'Active columns ... Available columns' title row")
else:
    xa = rows[t].index("Available")
    n = 0
    for r in rows[t + 1:H - 1]:
        if not r.strip(): break
        n += 1
        if not re.match(r" [A-Z][A-Z0-9%_]* ", r) or (len(r) > xa and not re.match(r" ?[A-Z][A-Z0-9%_]*( |$)", r[xa - 1:])):
            why.append("row spilled or out of line: %r" % r)
    if n < 3: why.append("only %d list rows" % n)
if not rows[H - 1].startswith("Up/Down"): why.append("last row %r" % rows[H - 1])
print("; ".join(why) if why else "title row %d, lists side by side" % (t + 1))
sys.exit(1 if why else 0)
PYEOF
)
[ $? = 0 ] && ok "dialog_40x10_setup ($res)" \
	|| bad dialog_40x10_setup "$res; screen: $(scr dlg | sed 's/$/|/' | tr -d '\n' | cut -c1-420)"
press dlg Escape; sleep "$KD"
# x: our sleeping process has nothing remote (no advice, so no dialog: on a
# multi-node machine with advice it opens the m/B dialog above): its answer
# is one status row, cut, not wrapped over the table header below it.
press dlg x; sleep "$KD"
scr dlg >"$T/dlg.fix"
xr=$(grep -n "^PID $victim, remote:" "$T/dlg.fix" | cut -d: -f1)
if [ -n "$xr" ] && sed -n "$((xr + 1))p" "$T/dlg.fix" | grep -Eq '^ +PID +[A-Z]'; then ok "dialog_40x10_fix (its answer on row $xr)"
else bad dialog_40x10_fix "screen: $(sed 's/$/|/' "$T/dlg.fix" | tr -d '\n' | cut -c1-420)"; fi
# The help: its title line whole (the line under it is empty or a key).
press dlg '?'; sleep "$KD"
scr dlg >"$T/dlg.help"
l1=$(sed -n 1p "$T/dlg.help"); l2=$(sed -n 2p "$T/dlg.help" | sed 's/^ *//')
l2ok=0
if [ -z "$l2" ]; then l2ok=1
else while IFS= read -r lab; do case $l2 in "$lab"|"$lab "*) l2ok=1 ;; esac; done <"$T/labels"; fi
if printf '%s\n' "$l1" | grep -q help && [ $l2ok = 1 ]; then ok dialog_40x10_help
else bad dialog_40x10_help "help title wrapped or missing: line 1 '$l1', line 2 '$(sed -n 2p "$T/dlg.help")'"; fi
press dlg Escape
killall_of "$D_dlg"; tmux kill-session -t dlg 2>/dev/null
kill "$victim" 2>/dev/null

# =========================================================================
# 8 (continued). The 1024-node tree, generated in the background.
# =========================================================================
wait $gen1024
manynodes 1024 "$T/m1024"
