#!/usr/bin/env python3
"""layers.py - the layer rule, checked over includes and calls.

Every source file belongs to one layer (LAYERS below, by file name); a file
may include a header of, or call a function defined in, its own layer or a
lower one, never a higher one. A private header (src/X_int.h) is included
only by its family (files named X.c or X_*.c). The calls come from the
objects' symbol tables (nm), the includes from the sources.

    tools/layers.py [--build DIR] [--report]

Prints each violation and the file-level cycles (files that call each
other in a loop: the strongly connected components of the call graph, and
the number of elementary cycles among their files, counted to a cap); exit
status 1 when there is a violation or a file no layer names. --report
prints the counts only (no failure): for comparing two trees.
"""
import os
import re
import subprocess
import sys

# Lowest first. A name matches a file's stem ("proc_live" for
# src/proc_live.c) exactly, or as a prefix followed by "_" when it ends in
# "_*".
LAYERS = [
    ("base", ["buf", "bitmap", "strpool", "sanitize", "safefile", "fsroot", "monotime", "parse", "parse_*",
              "numa_maps", "numa_maps_*", "cgroup_parse", "nmsched", "sigstop", "maps", "jsonget", "jsonput"]),
    ("readers", ["topology", "topology_*", "proc", "proc_*", "cgroup", "cgroup_procs",
                 "placement", "detail", "nodestat", "hmat", "tiers", "measure_io", "record", "record_read",
                 "record_write", "record_frames", "record_guard", "damon", "damon_parse",
                 # DAMON is a source the sampler asks (its kdamond made
                 # and stopped only when it is ours: damon_ctl.h)
                 "damon_ctl", "damon_ctl_*"]),
    ("model", ["sampler", "sampler_*", "why", "snapshot", "snapshot_*", "columns", "columns_*", "format", "history", "node_fields",
               "session", "settings", "snapshot_json", "snapshot_json_*", "replay", "replay_*", "sample_loop", "fields_*",
               "access", "access_*"]),
    # (the fleet: the exporters' series read back through Prometheus, its
    # queries named by the exposition's family table)
    ("emit/act", ["output", "output_*", "record_header", "capture", "capture_*", "action",
                  "action_*", "measure", "fleet", "fleet_*"]),
    # The monitor in four, each calling only its own and those below: the
    # drawing toolkit (with the monitor's headers: ui.h, ui_int.h), the
    # state the screens share, the screens and their dialogs, and the frame
    # (the screen and key tables, the prompt, the sample, the main loop),
    # which any other ui/ file is.
    ("ui", ["ui/ui", "ui/ui_out", "ui/ui_paint", "ui/ui_status", "ui/ui_history"]),
    ("ui state", ["ui/ui_rows", "ui/ui_tags", "ui/ui_layers", "ui/ui_guard", "ui/ui_replay",
                  "ui/ui_settings"]),
    ("ui screens", ["ui/ui_processes", "ui/ui_table", "ui/ui_panels", "ui/ui_heatmap", "ui/ui_screens",
                    "ui/ui_detail", "ui/ui_kill", "ui/ui_cgroups", "ui/ui_cgmove", "ui/ui_action",
                    "ui/ui_action_*", "ui/ui_measure", "ui/ui_setup"]),
    ("ui frame", ["ui/*"]),
    ("cli", ["cli/*", "tools/*"]),
]


def stem(path):
    base = os.path.splitext(os.path.basename(path))[0]
    if path.startswith("ui/"):
        return "ui/" + base
    if path.startswith("src/cli/"):
        return "cli/" + base
    if path.startswith("tools/"):
        return "tools/" + base
    return base


def layer_of(path):
    s = stem(path)
    if s.endswith("_int"):
        s = s[:-4]
    for i, (_, names) in enumerate(LAYERS):
        for n in names:
            if n.endswith("/*"):
                if s.startswith(n[:-1]):
                    return i
            elif n.endswith("_*"):
                if s.startswith(n[:-1]):
                    return i
            elif s == n:
                return i
    return None


def sources(root):
    out = []
    for d in ("include", "src", "src/cli", "ui", "tools"):
        p = os.path.join(root, d)
        if not os.path.isdir(p):
            continue
        for f in sorted(os.listdir(p)):
            if f.endswith((".c", ".h")):
                out.append(os.path.join(d, f))
    return out


INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def resolve(root, frm, name):
    for d in (os.path.dirname(frm), "include", "src", "src/cli", "ui"):
        p = os.path.normpath(os.path.join(d, name))
        if os.path.exists(os.path.join(root, p)):
            return p
    return None


def includes(root, files):
    edges = []
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for name in INC.findall(fh.read()):
                to = resolve(root, f, name)
                if to and to != f:
                    edges.append((f, to, "include"))
    return edges


def calls(root, build, files, missing):
    """(caller.c, callee.c, 'call') from the objects' symbol tables; the
    sources without an object are added to missing."""
    defined, undef = {}, {}
    for f in files:
        if not f.endswith(".c"):
            continue
        obj = os.path.join(root, build, os.path.splitext(f)[0] + ".o")
        if not os.path.exists(obj):
            if not f.startswith("tools/"):      # tools/ link whole programs
                missing.append(f)
            continue
        out = subprocess.run(["nm", obj], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                defined[parts[2]] = f
            elif len(parts) == 2 and parts[0] == "U":
                undef.setdefault(f, set()).add(parts[1])
    edges = []
    for f, syms in undef.items():
        for s in syms:
            to = defined.get(s)
            if to and to != f:
                edges.append((f, to, "call " + s))
    return edges


def unit(path):
    """The file a header stands for (its .c when one has its stem)."""
    return path


def family_ok(frm, to):
    s = stem(to)
    if not s.endswith("_int"):
        return True
    fam = s[:-4]
    fs = stem(frm)
    return fs == fam or fs.startswith(fam + "_") or fs == s


def sccs(nodes, adj):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def count_cycles(comp, adj, cap=10000):
    """Elementary cycles inside one component (simple DFS, capped)."""
    order = {v: i for i, v in enumerate(comp)}
    n = 0
    for s in comp:
        stack = [(s, iter(sorted(w for w in adj.get(s, ()) if w in order and order[w] >= order[s])))]
        path = {s}
        while stack:
            v, it = stack[-1]
            w = next(it, None)
            if w is None:
                stack.pop()
                path.discard(v)
                continue
            if w == s:
                n += 1
                if n >= cap:
                    return n
            elif w not in path:
                path.add(w)
                stack.append((w, iter(sorted(x for x in adj.get(w, ()) if x in order and order[x] >= order[s]))))
    return n


def main():
    args = sys.argv[1:]
    build = "build"
    report = "--report" in args
    if "--build" in args:
        build = args[args.index("--build") + 1]
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    files = sources(root)
    bad = 0
    unknown = [f for f in files if layer_of(f) is None]
    for f in unknown:
        print("no layer: %s (add it to LAYERS in tools/layers.py)" % f)
    missing = []
    edges = includes(root, files) + calls(root, build, files, missing)
    if missing:
        print("not built: no object for %d of the sources under %s (%s ...): the calls are not "
              "checked; build first, or give --build DIR" % (len(missing), build, missing[0]))
    # A header counts as the module of its stem: include/proc.h is proc.c's.
    def node(p):
        s = stem(p)
        return s[:-4] if s.endswith("_int") else s
    up = []
    for frm, to, how in edges:
        lf, lt = layer_of(frm), layer_of(to)
        if lf is None or lt is None:
            continue
        if lt > lf:
            up.append("%s (%s) -> %s (%s): %s" % (frm, LAYERS[lf][0], to, LAYERS[lt][0], how))
        elif how == "include" and not family_ok(frm, to):
            up.append("%s -> %s: a private header outside its family" % (frm, to))
    up = sorted(set(up))
    # Cycles over the calls (an include of a module's own header by the
    # files that implement it is no dependency).
    adj = {}
    for frm, to, how in edges:
        if not how.startswith("call"):
            continue
        a, b = node(frm), node(to)
        if a != b:
            adj.setdefault(a, set()).add(b)
    comps = sccs(sorted(adj), adj)
    ncyc = sum(count_cycles(c, adj) for c in comps)
    # The same between modules: files that share a private header (X_int.h:
    # X.c and X_*.c) are one module; a cycle inside one is its own business.
    # The outermost family: ui/ui_action_int.h is a private header inside
    # ui/ui_int.h's family (ui/ui_*), proc_live_int.h inside proc's.
    fams = sorted({stem(f)[:-4] for f in files if stem(f).endswith("_int")}, key=len)
    def family(n):
        for f in fams:
            if n == f or n.startswith(f + "_"):
                return f
        return n
    mcomps = [c for c in comps if len({family(n) for n in c}) > 1]
    if not report:
        for u in up:
            print("up a layer: " + u)
        for c in comps:
            print("%s: %s" % ("cycle across modules" if c in mcomps else "cycle inside a module",
                                " <-> ".join(c)))
    print("layers: %d imports or calls up a layer, %d file cycles (%d components, %d files in them), "
          "%d of them across modules" % (len(up), ncyc, len(comps), sum(len(c) for c in comps), len(mcomps)))
    if report:
        return 0
    return 1 if up or unknown or missing else 0


if __name__ == "__main__":
    sys.exit(main())
