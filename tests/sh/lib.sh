# lib.sh - what the shell tests share. Sourced (". tests/sh/lib.sh"), not
# run: tests/run.sh runs only tests/sh/test_*.sh, from the source tree.

# The monitor's settings file (numatop-tuirc) is never the user's own: a
# test that presses P would change how the next monitor starts. Each test
# file gets a fresh XDG_CONFIG_HOME (under one directory that tests/run.sh
# removes), and tui_start a fresh one per session.
NUMATOP_TEST_CFG=${NUMATOP_TEST_CFG:-${TMPDIR:-/tmp}/numatop-tui-test-cfg}
mkdir -p "$NUMATOP_TEST_CFG"
XDG_CONFIG_HOME=$(mktemp -d "$NUMATOP_TEST_CFG/cfg.XXXXXX")
export XDG_CONFIG_HOME NUMATOP_TEST_CFG

# ok NAME / bad NAME [DETAILS]: one result line; details indented below.
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1"; [ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/    /'; }

# --- programs outside Debian's Essential set ---
# need CMD PACKAGE: stop this test file with a FAIL line that names the
# Debian package when CMD is not installed ("make deps" installs it). Call
# it at the top of every test that runs such a program, so that a missing
# one is never read as "no output" or "nothing found".
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "FAIL $(basename "$0"): needs $1 (apt-get install $2)"
	exit 1
}
# need_py MODULE PACKAGE: the same for a Python module; sets PY to a
# python3 that has it. Debian's /usr/bin/python3 first: the package puts
# the module there, and a python3 earlier in PATH (a venv) may lack it.
need_py() {
	for PY in /usr/bin/python3 python3; do
		"$PY" -c "import $1" >/dev/null 2>&1 && return 0
	done
	echo "FAIL $(basename "$0"): needs the Python module $1 (apt-get install $2)"
	exit 1
}
# pcount PGREP_ARGS...: how many processes pgrep finds, other than this
# shell; "0" only when pgrep says none matched (status 1). When pgrep
# fails (status 2 or more, 127 when it is missing) prints "pgrep failed
# (status N)", which no numeric check accepts: a broken pgrep never counts
# as no processes. Compare with = 0, or check the count is a number first.
pcount() {
	pc_out=$(pgrep "$@"); pc_rc=$?
	case $pc_rc in
	0) printf '%s\n' "$pc_out" | grep -cvx "$$" ;;
	1) echo 0 ;;
	*) echo "pgrep failed (status $pc_rc)" ;;
	esac
}
# isnum VALUE: VALUE is a whole number (a count that really was counted).
isnum() { case $1 in ''|*[!0-9]*) return 1 ;; esac; }

# --- tmux: the monitor on a screen the test can read ---
# tui_init: a private tmux server under $T (set it first), with a session
# that lives as long as the test, so that the server never exits between
# sessions (a new-session racing with the last kill-session fails).
tui_init() {
	export TMUX_TMPDIR="$T"
	tmux new-session -d -s keep -x 20 -y 5 "sleep 3600" 2>/dev/null
	# Monitors in tmux run without LeakSanitizer (a sanitized build): a
	# monitor ended by its terminal's hang-up was seen spinning for good
	# in LSan's stop-the-world at exit (its tracer waiting, itself
	# running). Batch runs keep the leak check.
	[ -n "${ASAN_OPTIONS:-}" ] && tmux set-environment -g ASAN_OPTIONS "$ASAN_OPTIONS:detect_leaks=0"
	S=tui-0
	tui_n=0
}
# tui_start WIDTH HEIGHT COMMAND: COMMAND (a shell command line) in a fresh
# session $S; the old session goes after the new one exists. Waits for the
# monitor's function-key line.
tui_start() {
	w=$1; h=$2; shift 2
	old=$S; tui_n=$((tui_n + 1)); S=tui-$tui_n
	tmux new-session -d -s "$S" -x "$w" -y "$h" \
		-e XDG_CONFIG_HOME="$(mktemp -d "$NUMATOP_TEST_CFG/cfg.XXXXXX")" "$*"
	tmux kill-session -t "$old" 2>/dev/null
	wait_for F10Quit 50
}
screen() { tmux capture-pane -p -t "$S"; }
# wait_for TEXT [TENTHS]: poll the screen until TEXT shows up (3 s).
wait_for() {
	k=${2:-30}
	while [ "$k" -gt 0 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1; k=$((k - 1))
	done
	return 1
}
# keys KEY...: send, then give the monitor time to redraw.
keys() { tmux send-keys -t "$S" "$@"; sleep "${KEY_DELAY:-0.3}"; }

# add_kthread TREE PID PPID COMM: a kernel thread (PF_KTHREAD in stat's
# flags field) in a recorded tree.
add_kthread() {
	mkdir -p "$1/proc/$2"
	echo "$2 ($4) S $3 0 0 0 -1 2129984 0 0 0 0 0 5 0 0 20 0 1 0 $(( $2 + 2 )) 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 0 0 0 0" >"$1/proc/$2/stat"
	printf 'Name:\t%s\nUid:\t0\t0\t0\t0\nThreads:\t1\n' "$4" >"$1/proc/$2/status"
	: >"$1/proc/$2/cmdline"
}
