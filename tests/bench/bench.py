#!/usr/bin/env python3
"""bench.py: Tacet's benchmarks (`make bench`). Boots QEMU once per benchmark, with the servers
of servers/bench/ started by init, under -icount, where the cycle counter counts retired
instructions (one count for all harts) and a run is deterministic. Prints a table and writes
build/bench/results.json; the serial logs go to build/bench/NAME.log.

  python3 tests/bench/bench.py [-k SUBSTRING] [--check-deterministic] [--jobs N]

--check-deterministic runs every benchmark twice and exits 1, naming the figures, if any differ.
Expects `make kernel userspace build/dts/aclint-smp2.dtb` done (make bench does it).

Every figure is in instructions, less the cost of an empty rdcycle; rdcycle pair (measured by
each server the same way, printed as "overhead"). Cross-hart figures count what both harts
retire between the two reads: QEMU's -icount runs the harts in turn on one host thread, each
until it waits (wfi), so the sending hart's way back to its own wait is in the count too.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench")
OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin"
SMP = 2
MEM = "128M"
TIMEOUT = 180  # seconds per boot
ICOUNT = ["-icount", "shift=0,align=off,sleep=off", "-seed", "1", "-rtc", "clock=vm"]

# (benchmark, init.run=): the servers and their harts/priorities (servers/bench/module.mk).
BENCHMARKS = [
    ("null_syscall", "bench_null@1"),
    ("ipc_call_reply_same_hart", "bench_ipc_srv@1,bench_ipc_same@1"),
    ("ipc_call_reply_cross_hart", "bench_ipc_srv@1,bench_ipc_cross@0"),
    ("notify_wake_same_hart", "bench_ntfn_same@1/200"),
    ("notify_wake_cross_hart", "bench_ntfn_cross@1/200"),
]

BENCH_RE = re.compile(r"^BENCH (\S+) samples=(\d+) min=(\d+) median=(\d+) max=(\d+)\s*$", re.M)
OVERHEAD_RE = re.compile(r"^bench: rdcycle pair overhead (\d+) instructions", re.M)
DONE_RE = re.compile(r"init: all \d+ servers done; powering off")


class BenchError(Exception):
    pass


def qemu_command(run):
    dtb = os.path.join(BUILD, "dts", f"aclint-smp{SMP}.dtb")
    return ["qemu-system-riscv64", "-machine", "virt,aclint=on", "-cpu", "rv64",
            "-smp", str(SMP), "-m", MEM, *ICOUNT,
            "-display", "none", "-monitor", "none", "-serial", "stdio",
            "-bios", OPENSBI, "-kernel", os.path.join(BUILD, "kernel.bin"), "-dtb", dtb,
            "-initrd", os.path.join(BUILD, "modules.img"), "-append", f"init.run={run}"]


def run_one(name, run, tag):
    """Boot one benchmark; returns its figures as a dict (results.json's fields + overhead)."""
    cmd = qemu_command(run)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=TIMEOUT)
        out, status = proc.stdout.decode(errors="replace"), proc.returncode
    except subprocess.TimeoutExpired as e:
        out, status = (e.stdout or b"").decode(errors="replace"), None
    took = time.monotonic() - start
    log = os.path.join(OUT, f"{name}{tag}.log")
    with open(log, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + out)
    where = os.path.relpath(log, ROOT)
    if status is None:
        raise BenchError(f"{name}: timed out after {TIMEOUT}s (log: {where})")
    found = [m for m in BENCH_RE.finditer(out) if m.group(1) == name]
    overhead = OVERHEAD_RE.search(out)
    if "PANIC" in out or status != 0 or not DONE_RE.search(out) or len(found) != 1 or not overhead:
        raise BenchError(f"{name}: no clean result (QEMU exit status {status}; log: {where})")
    m = found[0]
    return {"name": name, "unit": "instructions", "samples": int(m.group(2)),
            "min": int(m.group(3)), "median": int(m.group(4)), "max": int(m.group(5)),
            "overhead": int(overhead.group(1)), "seconds": took}


def run_all(selected, rounds, jobs):
    """rounds x every selected benchmark, in parallel (-icount makes each run independent of
    the host's load). Returns one list of results per round, in BENCHMARKS order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [[pool.submit(run_one, name, run, f".{r + 1}" if rounds > 1 else "")
                    for name, run in selected] for r in range(rounds)]
        return [[f.result() for f in round_futures] for round_futures in futures]


def print_table(results):
    print(f"{'benchmark':<28}{'samples':>8}{'min':>8}{'median':>8}{'max':>8}  (instructions)")
    for r in results:
        print(f"{r['name']:<28}{r['samples']:>8}{r['min']:>8}{r['median']:>8}{r['max']:>8}")
    overheads = sorted({r["overhead"] for r in results})
    print(f"(less the empty rdcycle; rdcycle pair: {', '.join(map(str, overheads))} instruction"
          f"{'s' if overheads != [1] else ''}, measured by each server and subtracted)")


def compare(first, second):
    """The figures that differ between two rounds, as readable lines."""
    diffs = []
    for a, b in zip(first, second):
        for key in ("samples", "min", "median", "max", "overhead"):
            if a[key] != b[key]:
                diffs.append(f"{a['name']}: {key} {a[key]} in run 1, {b[key]} in run 2")
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", dest="pattern", default="", help="only benchmarks whose name has this")
    ap.add_argument("--check-deterministic", action="store_true",
                    help="run everything twice; fail if any figure differs")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="QEMU instances at once (default: one per host CPU)")
    args = ap.parse_args()
    selected = [b for b in BENCHMARKS if args.pattern in b[0]]
    if not selected:
        sys.exit(f"bench: no benchmark matches {args.pattern!r}")
    for path in ("kernel.bin", "modules.img", f"dts/aclint-smp{SMP}.dtb"):
        if not os.path.exists(os.path.join(BUILD, path)):
            sys.exit(f"bench: build/{path} missing: run make bench (or make kernel userspace "
                     f"build/dts/aclint-smp{SMP}.dtb)")
    os.makedirs(OUT, exist_ok=True)
    start = time.monotonic()
    try:
        rounds = run_all(selected, 2 if args.check_deterministic else 1, args.jobs)
    except BenchError as e:
        sys.exit(f"bench: FAIL {e}")
    results = rounds[0]
    print_table(results)
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump([{k: r[k] for k in ("name", "unit", "samples", "min", "median", "max")}
                   for r in results], f, indent=2)
        f.write("\n")
    print(f"bench: {len(results) * len(rounds)} boots in {time.monotonic() - start:.1f}s; "
          f"results in {os.path.relpath(os.path.join(OUT, 'results.json'), ROOT)}")
    if args.check_deterministic:
        diffs = compare(rounds[0], rounds[1])
        if diffs:
            print("bench: FAIL not deterministic: two runs under -icount gave different figures:")
            for d in diffs:
                print("  " + d)
            return 1
        print(f"bench: deterministic: two runs of {len(results)} benchmarks gave identical "
              "figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
