#!/bin/sh
# --capture copies DAMON's state (/sys/kernel/mm/damon/admin/kdamonds, the
# files damon.c reads) so that --root CAPTURE has the access heat the
# capture saw, and writes nothing but the capture:
#   - a copy of the recorded tree with a kdamond (tests/sh/damon_tree.sh):
#     captured, it is the same tree, file for file, and gives the same
#     access JSON (DAMON's source, the same heat and regions); the summary
#     says so; files DAMON has and the program does not read stay out
#   - a tree without DAMON: no DAMON directory in the capture (which the
#     reader would take for DAMON's files being broken)
#   - this machine, under strace: every file written, directory made or
#     file changed is in the capture (nothing under /sys), DAMON's files
#     were read, and the kdamonds captured say what the kernel's say.
PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
. tests/sh/lib.sh
. tests/sh/damon_tree.sh
need jq jq
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
K=sys/kernel/mm/damon/admin/kdamonds

# --- the tree with a kdamond ---
cp -r "$TREE" "$T/dm"
damon_tree "$T/dm"
# A file of DAMON's that the program does not read: not copied.
echo 0 >"$T/dm/$K/0/contexts/0/schemes/0/apply_interval_us"
out=$("$PROG" --root "$T/dm" --capture "$T/cap" 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^damon: 1 kdamond, as read' && ok capture_damon_said ||
	bad capture_damon_said "rc=$rc $out"
rm "$T/dm/$K/0/contexts/0/schemes/0/apply_interval_us"
d=$(diff -r -x EXPECTED.md -x numatop-tui-capture.txt "$T/dm" "$T/cap" 2>&1)
[ -z "$d" ] && [ -s "$T/cap/$K/0/contexts/0/schemes/0/tried_regions/7/nr_accesses" ] &&
	ok capture_damon_same_files || bad capture_damon_same_files "$d"
ACC='[.access, [.processes[] | {pid, access}]]'
"$PROG" --root "$T/dm" --json -n 1 | jq -S -c "$ACC" >"$T/a" 2>&1
"$PROG" --root "$T/cap" --json -n 1 | jq -S -c "$ACC" >"$T/b" 2>&1
src=$(jq -r '.[0].source + " " + ([.[1][] | .access.regions // [] | length] | add | tostring)' "$T/b" 2>&1)
[ "$src" = "damon 3" ] && cmp -s "$T/a" "$T/b" && ok "capture_damon_same_access_json ($src regions)" ||
	bad capture_damon_same_access_json "read back: $src (want damon 3: the hot and warm regions of pid 1000); $(diff "$T/a" "$T/b" | head -10)"
# Without DAMON's files the heat is gone: the check above can fail.
rm -r "$T/cap/sys/kernel/mm/damon"
"$PROG" --root "$T/cap" --json -n 1 | jq -S -c "$ACC" >"$T/c" 2>&1
cmp -s "$T/a" "$T/c" && bad capture_damon_needed "the same access JSON without DAMON's files" ||
	ok "capture_damon_needed ($(jq -r '.[0].reason' "$T/c"))"

# --- a tree without DAMON: nothing of it in the capture ---
"$PROG" --root "$TREE" --capture "$T/nod" >"$T/nod.out" 2>&1
[ ! -e "$T/nod/sys/kernel/mm/damon" ] && ! grep -q '^damon:' "$T/nod.out" &&
	[ "$("$PROG" --root "$T/nod" --json -n 1 | jq -r .access.reason)" = no_damon ] &&
	ok capture_no_damon_no_dir || bad capture_no_damon_no_dir "$(ls -R "$T/nod/sys/kernel" | head; cat "$T/nod.out")"

# --- this machine: nothing written outside the capture ---
if ! command -v strace >/dev/null 2>&1; then
	echo "FAIL capture_live_writes_only_capture: needs strace (apt-get install strace; make deps installs it)"
elif [ ! -r /$K/nr_kdamonds ]; then
	echo "SKIP capture_live_writes_only_capture: no readable /$K/nr_kdamonds (kernel without DAMON, or not root)"
else
	before=$(for f in /$K/nr_kdamonds /$K/[0-9]*/state /$K/[0-9]*/pid; do [ -r "$f" ] && echo "$f $(cat "$f")"; done)
	# LeakSanitizer cannot run under ptrace: under make asan this run
	# goes without leak checks (every other run keeps them).
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -y -qq -o "$T/trace" -e trace=%file,%desc,chmod,fchmod,fchmodat,chown,fchown,fchownat \
		"$PROG" --capture "$T/live" --capture-processes none >"$T/live.out" 2>&1; rc=$?
	after=$(for f in /$K/nr_kdamonds /$K/[0-9]*/state /$K/[0-9]*/pid; do [ -r "$f" ] && echo "$f $(cat "$f")"; done)
	cat >"$T/writes.py" <<'PYEOF'
# writes.py TRACE DEST: each call of the trace that writes (opens for
# writing, makes, removes, renames, links, changes the mode or owner, or
# writes to a file) outside DEST; standard output and error are the
# caller's, whatever they are.
import re, sys
trace, dest = sys.argv[1], sys.argv[2].rstrip('/') + '/'
WRITE_OPEN = re.compile(r'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND')
ALWAYS = ('mkdir', 'mkdirat', 'rmdir', 'unlink', 'unlinkat', 'rename', 'renameat', 'renameat2',
          'link', 'linkat', 'symlink', 'symlinkat', 'chmod', 'fchmodat', 'chown', 'fchownat',
          'truncate', 'mknod', 'mknodat', 'creat')
FD_WRITE = ('write', 'writev', 'pwrite64', 'pwritev', 'pwritev2', 'ftruncate', 'fchmod',
            'fchown', 'fallocate', 'copy_file_range', 'sendfile')
CALL = re.compile(r'^\d+\s+(\w+)\((.*)')
FD = re.compile(r'^(-?\d+|AT_FDCWD)(?:<([^>]*)>)?')
STR = re.compile(r'"((?:[^"\\]|\\.)*)"')
bad, reads, n = [], 0, 0
def inside(p):
    return (p + '/').startswith(dest) or p.startswith(('pipe:', 'socket:', '/dev/pts/', '/dev/tty', '/dev/null'))
for line in open(trace):
    m = CALL.match(line)
    if not m:
        continue
    n += 1
    call, args = m.groups()
    # An open that gave a descriptor of one of DAMON's files.
    reads += bool(call.startswith('open') and re.search(r'= \d+</sys/kernel/mm/damon/admin/kdamonds/', args)
                  and not WRITE_OPEN.search(args))
    if call in FD_WRITE:
        fd = FD.match(args)
        if not fd or fd.group(1) in ('1', '2'):
            continue
        if not fd.group(2) or not inside(fd.group(2)):
            bad.append(line.strip())
        continue
    if call.startswith('open') and WRITE_OPEN.search(args) or call in ALWAYS:
        fd, s = FD.match(args), STR.search(args)
        path = s.group(1) if s else ''
        if not path.startswith('/'):
            path = ((fd.group(2) if fd and fd.group(2) else '?') + '/' + path)
        if not inside(path):
            bad.append(line.strip())
for b in bad[:10]:
    print(b)
print('%d calls traced, %d opens of DAMON files for reading' % (n, reads))
sys.exit(1 if bad or n == 0 or reads == 0 else 0)
PYEOF
	python3 "$T/writes.py" "$T/trace" "$T/live" >"$T/w" 2>&1 && [ $rc -eq 0 ] &&
		ok "capture_live_writes_only_capture ($(tail -1 "$T/w"))" ||
		bad capture_live_writes_only_capture "rc=$rc $(cat "$T/w" "$T/live.out" | head -20)"
	# The check sees writes: the capture's own, taken for outside.
	python3 "$T/writes.py" "$T/trace" "$T/elsewhere" >"$T/w" 2>&1 &&
		bad capture_live_writes_check_can_fail "$(cat "$T/w")" ||
		ok "capture_live_writes_check_can_fail ($(grep -c "$T/live" "$T/w") of the first 10 in the capture)"
	# The kdamonds captured: what the kernel's files said (read before and
	# after: a kdamond someone changed meanwhile is said, not failed).
	got=$(cd "$T/live" && for f in $K/nr_kdamonds $K/[0-9]*/state $K/[0-9]*/pid; do [ -r "$f" ] && echo "/$f $(cat "$f")"; done)
	if [ "$before" != "$after" ]; then
		echo "SKIP capture_live_kdamonds_as_read: DAMON changed while it was captured"
	elif [ -n "$got" ] && [ "$got" = "$before" ]; then
		ok "capture_live_kdamonds_as_read ($(echo "$got" | wc -l) files)"
	else
		bad capture_live_kdamonds_as_read "captured: $got; the kernel's: $before"
	fi
fi
