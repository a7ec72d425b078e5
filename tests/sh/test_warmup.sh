#!/bin/sh
# The warm-up: on a tree of 2000 processes whose numa_maps take a while
# to read, the first sample has read some, the progress is said (status
# line, text header, JSON), and the picture completes within the next
# samples; then the budget is the usual 20 ms and nothing is "not read".
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need tmux tmux
need python3 python3
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
cp -r tests/trees/opteron4 "$T/t"
# 2000 copies of process 1000 (single-threaded); their numa_maps (hard
# links to one file) take ~0.2 ms each to read and parse: 6000 lines, 2000
# in a sanitized build (slower: the warm-up must still end in 6 samples).
lines=6000
case "$PROG" in *asan*) lines=2000 ;; esac
ldd "$PROG" 2>/dev/null | grep -q 'libasan\|libubsan' && lines=2000
python3 - "$T/t" "$lines" <<'EOF'
import os, sys, shutil
root = sys.argv[1]
src = os.path.join(root, "proc", "1000")
stat = open(os.path.join(src, "stat")).read().split(" ", 1)[1]
fields = stat.split(" ")
fields[18] = "1"            # num_threads (after "(comm) state"): one thread
stat = " ".join(fields)
base = open(os.path.join(src, "numa_maps")).read().splitlines()
lines = []
for i in range(int(sys.argv[2])):
    l = base[i % len(base)].split(" ", 1)[1]
    lines.append("%x %s" % (0x10000000 + i * 0x10000, l))
nm = os.path.join(root, "numa_maps.big")
open(nm, "w").write("\n".join(lines) + "\n")
for pid in range(20000, 22000):
    d = os.path.join(root, "proc", str(pid))
    os.makedirs(d)
    for f in ("status", "cmdline", "cgroup"):
        if os.path.exists(os.path.join(src, f)):
            shutil.copy(os.path.join(src, f), d)
    open(os.path.join(d, "stat"), "w").write("%d %s" % (pid, stat))
    os.link(nm, os.path.join(d, "numa_maps"))
EOF
n=$(ls -d "$T"/t/proc/[0-9]* | wc -l)

# JSON: the first sample is partial and says so; a later one is whole.
# The interval is made long enough for this machine and build: at least
# half of what reading every numa_maps at once takes here (--full, the
# floor, measured now), so that five waits read them all twice over.
t0=$(date +%s%N)
"$PROG" --root "$T/t" -b -n 1 --full >/dev/null 2>&1
full_ms=$((($(date +%s%N) - t0) / 1000000))
d=$(awk -v f="$full_ms" 'BEGIN { d = f / 2000; printf "%.2f", d < 0.5 ? 0.5 : d }')
"$PROG" --root "$T/t" --json -n 6 -d "$d" >"$T/j" 2>"$T/err"
python3 - "$T/j" "$n" >"$T/py" 2>&1 <<'EOF'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[2])
b = [x["numa_maps_budget"] for x in s]
assert all(x["processes"] == n for x in b), [x["processes"] for x in b]
assert b[0]["warmup"] and 0 < b[0]["known"] < n, b[0]
assert b[0]["budget_ms"] == 100.0, b[0]
for x, y in zip(b, b[1:]):
    assert y["known"] >= x["known"], (x, y)
done = [i for i, x in enumerate(b) if not x["warmup"]]
assert done, b
i = done[0]
assert b[i]["known"] == n, b[i]
assert all(p["numa_maps"] != "not_read" for p in s[i]["processes"])
assert all(not x["warmup"] and x["budget_ms"] == 20.0 for x in b[i + 1:]), b
print("complete at sample %d of %d" % (s[i]["sample"], len(s)))
EOF
[ $? -eq 0 ] && ok "warmup_json_completes ($(cat "$T/py"), -d $d, --full took $full_ms ms)" ||
	bad warmup_json_completes "-d $d (--full took $full_ms ms): $(cat "$T/py" "$T/err")"

# Text: the header says how far the warm-up is.
"$PROG" --root "$T/t" -b -n 1 --budget 20 -d 1 >/dev/null 2>&1   # a single snapshot is full: no warm-up
"$PROG" --root "$T/t" -b -n 2 -d 0.2 >"$T/b" 2>&1
grep -Eq "^warming up: placement read for [0-9]+ of $n processes" "$T/b" \
	&& ok warmup_text_header || bad warmup_text_header "$(grep -E '^(numa_maps|warming)' "$T/b")"

# The monitor: the status line shows the progress, then the usual line.
tui_init
tui_start 200 40 "$PROG --root $T/t -d 2"
if wait_for "placement read for" 50; then
	ok warmup_tui_progress
else
	bad warmup_tui_progress "$(screen | head -3)"
fi
if wait_for "numa_maps" 200 && ! screen | grep -q "placement read for"; then
	ok warmup_tui_completes
else
	bad warmup_tui_completes "$(screen | head -3)"
fi
keys q
