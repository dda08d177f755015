#!/usr/bin/env python3
"""callcycles.py: the kernel must not recurse (docs/foundation.md, "No recursion a user can
deepen"): its stack is 16 KiB, so a recursion whose depth a user controls is a panic waiting
for a hostile server. This reads the call graph gcc writes beside each kernel object
(-fcallgraph-info: build/kernel/**/*.c.ci, the files `make callgraph` lists in
BUILD_DIR/callgraph.files: none of a source gone), removes the few calls listed in ALLOWED
(each a cycle whose depth is bounded, and why), and prints every cycle left: a function that
can reach itself. Each BUILD_DIR is one kernel's object tree, checked on its own: build (the
shipped kernel) and build/test (the test kernel: the same sources and kernel/test's). Calls
through function pointers (the system call table, timer callbacks, the interrupt chip) are not
in the graph; none of their targets calls back into its caller.

It also checks the one file built with its callee-saved registers treated as scratch (the
Makefile's ENTRY_CALL_USED: its functions' prologues save none, so nothing but trap.S, which
never expects them kept, may call them): no function it defines outside a static one is the
target of a call from any other file.

  python3 tools/callcycles.py [BUILD_DIR...]     exit status 1 if a cycle or such a call is left
"""
import os
import re
import sys

# (caller, callee): the call that closes a cycle of bounded depth, and why it is bounded.
ALLOWED = {
    ("reaper_free", "kobj_reap"): "the reaper's loop: kobj_reap's own reaper calls only queue",
    ("reaper_end", "kobj_reap"): "the reaper's loop: kobj_reap's own reaper calls only queue",
    ("run", "kobj_reap"): "the reaper's loop (when gcc does not inline run)",
    ("spin_misuse", "panic"): "a panic inside a panic stops at panic_begin",
    ("recurse", "recurse"): "ktest's stack-overflow test recurses on purpose",
}

# Built with -fcall-used-s1..s11 (the Makefile's ENTRY_CALL_USED): called from trap.S only.
CALL_USED_SOURCES = ["kernel/core/entry.c"]

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "[^"]*" \}')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)" label: "([^"]+)"')
CLONE = re.compile(r"\.(isra|constprop|part|cold|lto_priv)\.\d+")


def name(symbol):
    """A function's plain name: no file prefix (static functions), no gcc clone suffix."""
    return CLONE.sub("", symbol.rsplit(":", 1)[-1])


def read_graph(build):
    edges, where = {}, {}
    try:
        with open(os.path.join(build, "callgraph.files")) as f:
            files = f.read().split()
    except FileNotFoundError:
        files = []
    for path in files:
        with open(path) as f:
            for caller, callee, label in EDGE.findall(f.read()):
                caller, callee = name(caller), name(callee)
                if (caller, callee) in ALLOWED:
                    continue
                edges.setdefault(caller, set()).add(callee)
                where.setdefault((caller, callee), label)
    return files, edges, where


def cycles(edges):
    """Strongly connected components with a cycle (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in list(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in edges.get(v, ()):
                    found.append(sorted(comp))
    return found


def call_used_callers(build, files):
    """Calls from another file into a function a CALL_USED_SOURCES file defines (its globals:
    a static one cannot be reached from outside), as 'caller -> callee (where)' lines."""
    defined, bad = {}, []
    for path in files:
        for src in CALL_USED_SOURCES:
            if path.endswith(src + ".ci"):
                with open(path) as f:
                    for title in NODE.findall(f.read()):
                        if ":" not in title:
                            defined[title] = src
    for path in files:
        with open(path) as f:
            text = f.read()
        for caller, callee, label in EDGE.findall(text):
            src = defined.get(callee)
            if src and not path.endswith(src + ".ci"):
                bad.append(f"{name(caller)} -> {callee} ({label})")
    for line in bad:
        print(f"callcycles: {build}: a call into {', '.join(CALL_USED_SOURCES)}, whose "
              f"functions keep no callee-saved register: {line}")
    return not bad


def check(build):
    """Prints the cycles of the kernel whose object tree is build; whether it has none."""
    files, edges, where = read_graph(build)
    if not files:
        print(f"callcycles: no call graph listed in {build}/callgraph.files: run make callgraph")
        return False
    found = cycles(edges)
    for comp in found:
        members = set(comp)
        calls = sorted(f"{a} -> {b} ({where[(a, b)]})" for a in comp
                       for b in edges.get(a, ()) if b in members)
        print(f"callcycles: {build}: recursion among " + ", ".join(comp) + ":\n  " +
              "\n  ".join(calls))
    calls = sum(len(v) for v in edges.values())
    print(f"callcycles: {build}: {len(files)} files, {len(edges)} functions, {calls} calls: "
          f"{len(found)} cycle(s) besides the {len(ALLOWED)} allowed calls")
    return call_used_callers(build, files) and not found


def main():
    results = [check(build) for build in sys.argv[1:] or ["build"]]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
