#!/usr/bin/env python3
"""bench.py: Tacet's benchmarks (`make bench`). Boots QEMU once per benchmark, with the servers
of servers/bench/ started by init, under -icount, where the cycle counter counts retired
instructions (one count for all harts) and a run is deterministic. Prints a table and writes
build/bench/results.json; the serial logs go to build/bench/NAME.log.

  python3 tests/bench/bench.py [-k SUBSTRING] [--stress] [--check-deterministic]
                               [--check-budgets] [--check-scaling] [--plots] [--write-docs]
                               [--jobs N] [--wall [--repeat N]]

--stress (`make bench-stress`) runs the stress benchmarks (STRESS_BENCHMARKS: the interrupt
paths' tail while stressors run on the other harts, on 4 harts and on 8: `-k stress8` the 8-hart
ones alone) instead of the others; results.json keeps the other set's figures from its last
run. A stress boot fails unless each of its stressors reports a count above 0, and the run
exits 1, naming the figure and its stressor, if any same-hart sample is above the same-hart
bound (STRESS_SAME_HART_BOUND, 10,000 instructions).

--check-deterministic runs every benchmark twice and exits 1, naming the figures, if any differ.
The wall-clock benchmarks (WALL_CLOCK: the block service's 4 KiB read IOPS) run after, alone
and without -icount; their figures are printed only (not with --check-deterministic or
--check-budgets).

--wall (`make bench-wall`) runs only the wall-clock stress benchmarks (WALL_STRESS: no -icount,
2 or 4 harts really in parallel, an RTC alarm's driver on hart 0 while a stressor on each other
hart is held asleep, held busy in user mode, or running, in turns; servers/bench/wall.c), one
boot at a time, --repeat N times each; it prints each boot's phases, the stressed phase's
ratios to the busy one and the busy phase's to the idle one (tests/bench/wall.py) and
exits 1 only if a boot fails or a phase's report is missing: never on a time.

--check-budgets exits 1 if a figure's median or maximum is over its budget (tests/bench/
benchmarks.py declares each benchmark, its figures and their budgets; the message names the
path, the budget and the new count); a change that makes a path faster should lower its budget
there.

--check-scaling exits 1 if a scaling curve (SCALING) misses its goal: flat where nothing on the
path may walk what the machine holds, at most logarithmic for the timers' tree.

--plots (`make bench`) then writes the charts into build/bench/ (tests/bench/plots.py: the
latency figures beside other kernels', each latency's histogram, the scaling curves).

--write-docs (`make bench-docs`) runs both sets and writes the figures into the table of
docs/benchmarks.md (tests/bench/figures.py), which `make test` checks against its own run; it
needs every benchmark (no -k) and skips the wall-clock ones.
Expects `make kernel test-kernel userspace qemu-plugins` done (make bench does it); each boot
gets the device tree the Makefile dumps for exactly its machine (with or without the edu
device), through make print-dtb, and the shipped kernel (build/kernel.bin), or the test kernel
(build/test/kernel.bin) for the kernel's own benchmarks (-append test=NAME: in-kernel tests are
only in the test kernel) and for the boots that measure BKL holds per hart (below).

The longest BKL hold (`stress_<stressor>_bkl_hold_max`, `stress8_...`, `frame_bkl_hold_max`) is
counted per hart by a QEMU plugin, build/bkl_holds.so (tools/qemu-plugins/bkl_holds.c): those
boots run the test kernel, whose hold markers (one HINT instruction each where a hold's stretch
starts and ends, kernel/test/ktest_marks.h) the plugin finds at translation, and it counts the
instructions each hart itself retires between them, from the hart's start of scheduling; it
writes build/bench/BOOT.holds at QEMU's exit. The figure is the longest over every hart (for
frame_new, over bench_frame's hart), one sample; the hart, the functions of its start and end
markers and every hart's longest are printed under the table. The kernel's own figure, in the
one global count, which also holds whatever the other harts ran while QEMU's round robin had
left the holder, is recorded beside it as `..._bkl_hold_max_global`: printed, in results.json
and the docs' table, but not budgeted (docs/benchmarks.md, "BKL holds per hart").

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
sys.path.insert(0, os.path.join(ROOT, "tests"))
from machine import MACHINES, dtb_for_machine, icount_args, kernel_for, kernel_image  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmarks import (BENCHMARKS, GLOBAL_SUFFIX, HOLDS, SCALE_FLAT, SCALING,  # noqa: E402
                        STRESS_BENCHMARKS, TIMER_LOG_STEP, WALL_CLOCK, WALL_STRESS,
                        declaration_problems, figures, scale_figures)
import wall  # noqa: E402  (tests/bench/wall.py: the wall-clock stress benchmark's figures)

BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench")
OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin"
SMP = 2
MEM = "128M"
TIMEOUT = 180  # seconds per boot

# The longest BKL hold counted per hart (docs/benchmarks.md, "BKL holds per hart"): the QEMU
# plugin tools/qemu-plugins/bkl_holds.c (built by the Makefile: make bench, bench-stress, test)
# counts the instructions each hart itself retires between the test kernel's hold markers
# (kernel/test/ktest_marks.h), where the kernel's own bkl_hold_max, read from the one global
# count of -icount, also holds what the other harts ran while QEMU's round robin had left the
# holder. A figure whose printed name is HOLDS is the plugin's: its boot runs the test kernel
# with the plugin, which writes build/bench/BOOT.holds (one line per vCPU). The kernel's own
# figure beside it is recorded with GLOBAL_SUFFIX, printed but not budgeted.
HOLDS_PLUGIN = os.path.join(BUILD, "bkl_holds.so")
# The per-component split (a benchmark's option "split": {hart: component}): its boot loads
# tools/qemu-plugins/hart_split.c, which writes build/bench/BOOT.split, each hart's user, kernel
# and firmware instructions over each stretch the server marks; the server prints one
# `SPLITUNITS FIGURE units=N` line per stretch, in order (what the stretch's counts divide by).
# Printed after the table, not budgeted: the figure itself is.
SPLIT_PLUGIN = os.path.join(BUILD, "hart_split.so")
SPLIT_LINE_RE = re.compile(r"^stretch=(\d+) vcpu=(\d+) user=(\d+) kernel=(\d+) firmware=(\d+)$",
                           re.M)
SPLITUNITS_RE = re.compile(r"^SPLITUNITS (\S+) units=(\d+)\s*$", re.M)
# HOLDS_DETAIL=1 in the environment: the plugin also writes the translation blocks of each
# hart's longest hold into BOOT.holds (detail=on): where a hold went, by hand.
HOLDS_DETAIL = ",detail=on" if os.environ.get("HOLDS_DETAIL") else ""
HOLDS_RE = re.compile(r"^vcpu=(\d+) longest=(\d+) stretches=(\d+) from=(0x[0-9a-f]+|0) "
                      r"to=(0x[0-9a-f]+|0) retired=(\d+) open=([01]) anomalies=(\d+)\s*$", re.M)
# The plugin numbers the harts as QEMU's vCPUs (hart ids); the kernel's hart 0 is the one it
# booted on (the rest in the device tree's order): the same numbers when that is hart 0.
BOOT_HART_RE = re.compile(r"^harts: \d+ in the device tree, boot hart (\d+)\s*$", re.M)


def scaling_problems(results):
    """The scaling curves against their goals (SCALING), as readable lines; only the curves
    whose every figure is in results are checked."""
    import math
    by_name = {r["name"]: r["median"] for r in results}
    problems = []
    for prefix, curve in SCALING.items():
        if any(f.name not in by_name for f in scale_figures(prefix)):
            continue
        points = [(n, by_name[f"{prefix}_{n}"]) for n in curve["points"]]
        first_n, first = points[0]
        for (n0, v0), (n, v) in zip(points, points[1:]):
            if curve["flat"] and abs(v - first) > SCALE_FLAT * first:
                problems.append(f"{prefix}_{n}: median {v:,} instructions, more than "
                                f"{SCALE_FLAT:.0%} from {prefix}_{first_n}'s {first:,}: the path "
                                f"grows with what else the machine holds (flat is the goal)")
            bound = TIMER_LOG_STEP * math.log2(n / n0)
            if not curve["flat"] and v - v0 > bound:
                problems.append(f"{prefix}_{n}: median {v:,} instructions, {v - v0:,} above "
                                f"{prefix}_{n0}'s {v0:,}, more than {bound:.0f} "
                                f"({TIMER_LOG_STEP} a doubling): arming walks the armed timers")
    return problems


# The module archive each boot loads (-initrd) holds init and the servers its init.run= names,
# nothing else, padded to ARCHIVE_SIZE: the kernel maps the whole archive into init a page at a
# time, and where it ends (QEMU puts it at a fixed place) shapes the page pool, so a boot of
# build/modules.img moves every figure (boot_to_shell_*, process_end_1024) when a server that
# boot never starts is added to the tree. With the archive its own and of one size, a figure
# moves only with what the boot runs. Made from the stripped ELFs the Makefile packs into
# build/modules.img (build/modules/NAME.elf), before the boots, into build/bench/modules/.
MODULES = os.path.join(BUILD, "modules")
ARCHIVES = os.path.join(OUT, "modules")
ARCHIVE_SIZE = 1 << 20
# init.run='s entries are separated by commas, each starting with a module's name (after an
# optional ^ and %) up to one of these (servers/init/init.h's NAME_STOP); a comma inside the devices
# part (virtio,mmio) is followed by no module's name.
RUN_RE = re.compile(r"(?:^|\s)init\.run=(\S*)")
NAME_STOP_RE = re.compile(r"[\^%]*([^, =@/:*+\[]*)")

# The same-hart bound: an interrupt's raise to its driver on the driver's own hart, under any load,
# takes at most this many instructions (docs/benchmarks.md, "The tail under stress"): every stress
# boot's same-hart maximum must stay at or under it (a hard check, beside the budgets; --stress, and
# make test's bench/stress-same-hart-bound).
STRESS_SAME_HART_BOUND = 10000
# the stress figures of the same-hart path, each with its boot's stressor: the bound's figures
STRESS_SAME_HART = {f.name: (b[0], b[4]["stressors"][0][0])
                    for b in STRESS_BENCHMARKS for f in b[2] if f.name.endswith("_same_hart")}
# Each budgeted figure's budget ({"median": N, "max": N} or {"max": N}), by name.
BUDGETS = {f.name: f.budget for f in figures() if f.budget is not None}
BUDGETS_HOME = os.path.join(ROOT, "tests", "bench", "benchmarks.py")

WALL_RE = re.compile(r"^BLKBENCH (\S+) iops=(\d+) requests=(\d+) ns=(\d+)\s*$", re.M)

BENCH_RE = re.compile(r"^BENCH (\S+) samples=(\d+) min=(\d+) median=(\d+) max=(\d+)\s*$", re.M)
# The line after each BENCH line (kernel/uapi/tacet/bench_hist.h): nearest-rank percentiles and
# the histogram, one low:count per non-empty bucket (bucket 0 the minimum, bucket k >= 1 the
# samples min + 2^(k-1) .. min + 2^k - 1), at most HIST_MAX_BUCKETS of them, the last also
# holding every sample above it.
HIST_RE = re.compile(r"^BENCHHIST (\S+) p90=(\d+) p99=(\d+)((?: \d+:\d+)+)\s*$", re.M)
HIST_MAX_BUCKETS = 8  # TACET_HIST_MAX_BUCKETS
OVERHEAD_RE = re.compile(r"^bench: rdcycle pair overhead (\d+) instructions", re.M)
# A stressor's last line (servers/bench/stress.c): its count, or how it failed. It is one write,
# but may land after another server's unfinished one (a prompt, a line longer than that
# server's buffer) rather than at a line's start.
STRESSOR_DONE_RE = re.compile(r"stress (\S+): (\d+) ([a-z ]+?) on hart (\d+)\s*$",
                              re.M)
STRESSOR_FAIL_RE = re.compile(r"stress (\S+): FAIL after (\d+) ([a-z ]+?) on hart "
                              r"(\d+): (.*?)\s*$", re.M)
DONE_RE = re.compile(r"init: all \d+ servers done; powering off|"
                     r"init: power off requested by bench_|ktest: irq_\w+: PASS")


class BenchError(Exception):
    pass


def bench_option(bench, key, default=None):
    """One of a benchmark's options (its fifth field), or default."""
    return bench[4].get(key, default) if len(bench) > 4 else default


def bench_mem(bench):
    """The RAM a benchmark boots with."""
    return bench_option(bench, "mem", MEM)


def bench_machine(bench):
    """(RAM, harts) of the machine a benchmark boots."""
    return bench_mem(bench), bench_option(bench, "smp", SMP)


def bench_variant(bench):
    """The machine variant a benchmark boots (machine.MACHINES): the PLIC's unless it says."""
    return bench_option(bench, "variant", "aclint")


def figure_names(figure):
    """(the name its BENCH line prints, or HOLDS, the name it is recorded under)."""
    return figure.printed, figure.name


def figure_unit(name):
    """What a figure counts: instructions, but bytes for a name ending in _bytes (the interrupt
    stack 8 nested lines use, irq_nest8_stack_bytes)."""
    return "bytes" if name.endswith("_bytes") else "instructions"


def budgeted(name):
    """Whether a figure has a budget: all but the kernel's own hold figures beside the
    plugin's (GLOBAL_SUFFIX), which hold what QEMU's round robin ran meanwhile."""
    return name in BUDGETS


def bench_holds(bench):
    """Whether a benchmark records the plugin's hold figure (its boot runs the test kernel
    with the plugin)."""
    return any(figure_names(f)[0] == HOLDS for f in bench[2])


def bench_kernel(bench):
    """The kernel a benchmark boots: the test kernel for an in-kernel benchmark (test=) and
    for the plugin's hold markers, else the shipped one."""
    return "test" if bench_holds(bench) else kernel_for(bench[1])


def started_modules(append):
    """The modules a boot with these boot arguments starts: init, then each server its
    init.run= names, in that order, once each."""
    known = {f[:-len(".elf")] for f in os.listdir(MODULES) if f.endswith(".elf")}
    run = RUN_RE.search(append)
    names = ["init"]
    for entry in run.group(1).split(",") if run else []:
        name = NAME_STOP_RE.match(entry).group(1)
        if name in known and name not in names:
            names.append(name)
    return names


def archive_path(append):
    """Where the module archive of a boot with these boot arguments is (make_archive)."""
    return os.path.join(ARCHIVES, "+".join(started_modules(append)) + ".img")


def make_archive(append):
    """Writes the boot's module archive (see ARCHIVE_SIZE) unless it is there and newer than
    each module; returns its path. BenchError if the modules are more than ARCHIVE_SIZE."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    sys.dont_write_bytecode = True
    import tacet_modules  # tools/tacet_modules.py: the archive's format
    path = archive_path(append)
    files = [os.path.join(MODULES, f"{name}.elf") for name in started_modules(append)]
    if os.path.exists(path) and all(os.path.getmtime(f) <= os.path.getmtime(path)
                                    for f in files):
        return path
    modules = []
    for f in files:
        with open(f, "rb") as elf:
            modules.append((os.path.basename(f)[:-len(".elf")].encode(), elf.read()))
    image = tacet_modules.pack(modules)
    if len(image) > ARCHIVE_SIZE:
        raise BenchError(f"{os.path.relpath(path, ROOT)}: {len(image):,} bytes, more than "
                         f"ARCHIVE_SIZE ({ARCHIVE_SIZE:,}): raise it (every boot figure moves)")
    os.makedirs(ARCHIVES, exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(image + bytes(ARCHIVE_SIZE - len(image)))
    os.replace(path + ".tmp", path)
    return path


def qemu_command(append, extra, mem, smp=SMP, icount=True, kernel=None, holds_out=None,
                 variant="aclint", split_out=None):
    """QEMU's command line for one boot: kernel is a key of machine.KERNELS (by default the
    one the boot arguments need); holds_out, the hold plugin's output file, split_out the split
    plugin's (None: no plugin); variant, the machine (machine.MACHINES: the PLIC's, or "aia").
    The boot's module archive (make_archive) must have been made."""
    dtb = dtb_for_machine(ROOT, variant, smp, mem, extra)
    return ["qemu-system-riscv64", *MACHINES[variant],
            "-global", "virtio-mmio.force-legacy=false", "-smp", str(smp), "-m", mem,
            *(icount_args() if icount else []),
            *(["-plugin", f"{HOLDS_PLUGIN},out={holds_out}{HOLDS_DETAIL}"] if holds_out else []),
            *(["-plugin", f"{SPLIT_PLUGIN},out={split_out}"] if split_out else []),
            "-display", "none", "-monitor", "none", "-serial", "stdio",
            "-bios", OPENSBI, "-kernel", kernel_image(ROOT, kernel or kernel_for(append)),
            "-dtb", dtb, "-initrd", archive_path(append), "-append", append,
            *extra]


def boot_logged(cmd, log):
    """Run QEMU to its end (at most TIMEOUT); its output goes to log after the command line.
    Returns (output, exit status or None if it timed out)."""
    try:
        proc = subprocess.run(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=TIMEOUT)
        out, status = proc.stdout.decode(errors="replace"), proc.returncode
    except subprocess.TimeoutExpired as e:
        out, status = (e.stdout or b"").decode(errors="replace"), None
    with open(log, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + out)
    return out, status


def run_one(bench, tag):
    """Boot one benchmark; returns its figures as dicts (results.json's fields + overhead)."""
    boot, append, figures, extra = bench[:4]
    holds_out = os.path.join(OUT, f"{boot}{tag}.holds") if bench_holds(bench) else None
    split = bench_option(bench, "split", None)
    split_out = os.path.join(OUT, f"{boot}{tag}.split") if split else None
    for path in (holds_out, split_out):
        if path and os.path.exists(path):
            os.remove(path)  # the plugin writes it at QEMU's exit: none left from before
    cmd = qemu_command(append, extra, *bench_machine(bench), kernel=bench_kernel(bench),
                       variant=bench_variant(bench),
                       holds_out=holds_out, split_out=split_out)
    start = time.monotonic()
    log = os.path.join(OUT, f"{boot}{tag}.log")
    out, status = boot_logged(cmd, log)
    took = time.monotonic() - start
    where = os.path.relpath(log, ROOT)
    # The fuzzer (stress_fuzz) writes runs of NUL bytes with DEBUG_WRITE, which the kernel's
    # log passes on whole; one in front of a line would hide it from the ^-anchored patterns.
    out = out.replace("\0", "")
    if status is None:
        raise BenchError(f"{boot}: timed out after {TIMEOUT}s (log: {where})")
    overhead = OVERHEAD_RE.search(out)
    if "PANIC" in out or status != 0 or not DONE_RE.search(out) or not overhead:
        raise BenchError(f"{boot}: no clean result (QEMU exit status {status}; log: {where})")
    problems = stressor_problems(out, bench_option(bench, "stressors", []))
    if problems:
        raise BenchError(f"{boot}: the stressors' work did not complete (log: {where}):\n  "
                         + "\n  ".join(problems))
    results = []
    for figure in figures:
        printed, name = figure_names(figure)
        if printed == HOLDS:
            r = holds_figure(bench, name, out, holds_out, where)
            r.update({"overhead": int(overhead.group(1)), "seconds": took})
            results.append(r)
            continue
        found = [m for m in BENCH_RE.finditer(out) if m.group(1) == printed]
        if len(found) != 1:
            raise BenchError(f"{boot}: {len(found)} results for {printed} (log: {where})")
        m = found[0]
        hist = [h for h in HIST_RE.finditer(out) if h.group(1) == printed]
        if len(hist) != 1:
            raise BenchError(f"{boot}: {len(hist)} histograms for {printed} (log: {where})")
        r = {"name": name, "unit": figure_unit(name), "samples": int(m.group(2)),
             "min": int(m.group(3)), "median": int(m.group(4)), "max": int(m.group(5)),
             "overhead": int(overhead.group(1)), "seconds": took}
        r.update(parse_histogram(hist[0]))
        problem = histogram_problem(r)
        if problem:
            raise BenchError(f"{boot}: {printed}: {problem} (log: {where})")
        results.append(r)
    if split:
        attach_split(results, split, read_split(split_out, out, where))
    return results


def read_split(path, out, where):
    """The split plugin's output with the server's SPLITUNITS lines: {figure: (units,
    {vCPU: (user, kernel, firmware)})}."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BenchError(f"the split plugin wrote no {os.path.relpath(path, ROOT)}: {e}")
    if "error:" in text:
        raise BenchError(f"the split plugin failed: {text.strip()}")
    units = SPLITUNITS_RE.findall(out)
    stretches = {}
    for m in SPLIT_LINE_RE.finditer(text):
        k, v = int(m.group(1)), int(m.group(2))
        stretches.setdefault(k, {})[v] = tuple(int(m.group(i)) for i in (3, 4, 5))
    if len(units) != len(stretches):
        raise BenchError(f"{len(units)} SPLITUNITS lines for {len(stretches)} stretches the "
                         f"split plugin counted (log: {where})")
    return {name: (int(n), stretches[k]) for k, (name, n) in enumerate(units)}


def attach_split(results, components, split):
    """Each figure the split covers gets "split": per component its user instructions a unit,
    then the kernel's (kernel and firmware, every hart) and their total."""
    for r in results:
        if r["name"] not in split:
            continue
        units, harts = split[r["name"]]
        units = max(units, 1)
        parts = {components.get(h, f"hart {h}"): harts[h][0] / units for h in sorted(harts)}
        parts["kernel"] = sum(c[1] + c[2] for c in harts.values()) / units
        parts["total"] = sum(sum(c) for c in harts.values()) / units
        r["split"] = {name: round(v) for name, v in parts.items()}


def read_holds(path):
    """The plugin's output: {vCPU: {longest, stretches, from, to, retired, open, anomalies}}
    (BenchError if it is missing or says it failed)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BenchError(f"the BKL holds plugin wrote no {os.path.relpath(path, ROOT)}: {e}")
    if re.search(r"^error:", text, re.M):
        raise BenchError(f"the BKL holds plugin failed: {text.strip()}")
    keys = ("longest", "stretches", "from", "to", "retired", "open", "anomalies")
    return {int(m.group(1)): dict(zip(keys, (int(v, 0) for v in m.groups()[1:])))
            for m in HOLDS_RE.finditer(text)}


def holds_figure(bench, name, out, holds_out, where):
    """The plugin's figure: the longest hold any hart (or the option holds_hart's hart) retired
    itself, one sample, as results.json's fields (plus where: its hart, the addresses of its
    start and end markers, and every hart's longest)."""
    boot = bench[0]
    smp = bench_option(bench, "smp", SMP)
    holds = read_holds(holds_out)
    if sorted(holds) != list(range(smp)):
        raise BenchError(f"{boot}: the BKL holds plugin reported vCPUs {sorted(holds)}, not "
                         f"0..{smp - 1} ({os.path.relpath(holds_out, ROOT)}; log: {where})")
    bad = [f"vCPU {v}: {h['anomalies']} markers out of order" for v, h in holds.items()
           if h["anomalies"]]
    if bad:
        raise BenchError(f"{boot}: the hold markers do not pair ({', '.join(bad)}; "
                         f"{os.path.relpath(holds_out, ROOT)})")
    boot_hart = BOOT_HART_RE.search(out)
    if not boot_hart or boot_hart.group(1) != "0":
        raise BenchError(f"{boot}: the kernel did not boot on hart 0: its hart numbers are "
                         f"not the plugin's vCPUs (log: {where})")
    harts = range(smp)
    pattern = bench_option(bench, "holds_hart")
    if pattern:
        m = re.search(pattern, out, re.M)
        if not m:
            raise BenchError(f"{boot}: no hart for {name} in the output (log: {where})")
        harts = [int(m.group(1))]
    hart = max(harts, key=lambda h: (holds[h]["longest"], -h))
    v = holds[hart]["longest"]
    return {"name": name, "unit": "instructions", "samples": 1, "min": v, "median": v,
            "max": v, "p90": v, "p99": v, "histogram": [[v, 1]], "hart": hart,
            "from": holds[hart]["from"], "to": holds[hart]["to"],
            "harts": [holds[h]["longest"] for h in range(smp)]}


def stressor_problems(out, stressors):
    """What is wrong with the stressors' completion lines in a boot's output, one line per
    stressor: each (name, unit, hart) of stressors must have printed `stress NAME: COUNT UNIT
    on hart H` once, with COUNT above 0 (the stressors' work completes)."""
    problems = []
    for name, unit, hart in stressors:
        def mine(m):
            return m.group(1) == name and int(m.group(4)) == hart
        done = [m for m in STRESSOR_DONE_RE.finditer(out) if mine(m)]
        failed = [m for m in STRESSOR_FAIL_RE.finditer(out) if mine(m)]
        who = f"stressor {name} on hart {hart}"
        if failed:
            m = failed[0]
            problems.append(f"{who} failed after {m.group(2)} {m.group(3)}: {m.group(5)}")
        elif not done:
            problems.append(f"{who} printed no completion line (`stress {name}: COUNT {unit} "
                            f"on hart {hart}`): it never stopped, or its hart never ran it")
        elif len(done) > 1:
            problems.append(f"{who} printed {len(done)} completion lines")
        elif done[0].group(3) != unit:
            problems.append(f"{who} counted {done[0].group(3)!r}, not {unit!r}")
        elif int(done[0].group(2)) == 0:
            problems.append(f"{who} reported 0 {unit}: its work never completed a round")
    return problems


def same_hart_bound_problems(rounds):
    """Every stress boot's same-hart samples against STRESS_SAME_HART_BOUND (the bound on an
    interrupt's raise to its driver on the driver's hart), in every round run: the
    failures, as readable lines naming the figure, its stressor and the sample."""
    problems = []
    for results in rounds:
        for r in results:
            if r["name"] not in STRESS_SAME_HART or r["max"] <= STRESS_SAME_HART_BOUND:
                continue
            boot, stressor = STRESS_SAME_HART[r["name"]]
            line = (f"{r['name']}: a sample of {r['max']:,} instructions (the maximum of "
                    f"{r['samples']}; p99 {r['p99']:,}) from the raise to the driver on its own "
                    f"hart, with the {stressor} stressor running ({boot}), is above the "
                    f"same-hart bound of {STRESS_SAME_HART_BOUND:,}")
            if line not in problems:
                problems.append(line)
    return problems


# The masked-vs-threaded experiment's relations (docs/interrupts.md, "Masked, windowed or
# threaded"): what each case shows, checked on every run that has its figures (make test's
# bench/masked-threaded). (what it shows, figure, its field, relation, other figure, its field,
# slack): figure.field relation other.field, other within slack (a fraction) for "~".
MASKED_THREADED = (
    ("masked: B waits for A's whole handler", "irq_masked_b_latency", "min", ">=",
     "irq_a_handler_length", "max", 0),
    ("window: B nests into A", "irq_window_b_latency", "max", "<", "irq_a_handler_length",
     "min", 0),
    ("threaded, A's server lower: B's server preempts it, as fast as a plain raise to a server",
     "irq_threaded_lower_b_latency", "max", "~", "irq_raise_to_server_same_hart", "max", 0.1),
    ("threaded, equal priorities: B's server waits for A's", "irq_threaded_equal_b_latency",
     "min", ">=", "irq_a_server_length", "max", 0),
)


# A driver's own loop is the fast path (make test's bench/service-loop): an interrupt reaches
# a driver waiting in a service loop (a receive, as its notification's bound thread) as
# directly as a plain waiter, on the line's hart and on another. Same shape as MASKED_THREADED.
# On the line's hart the difference is what a receive's result is: a NOTIFY message (a0, the
# tag, the bits, the badge: three more stores and the tag's constant) where a wait gets one
# word, and the look for a waiter first: 14 instructions, about 5% (docs/benchmarks.md).
SERVICE_LOOP = (
    ("service loop on the line's hart: as fast as a plain waiter",
     "irq_raise_to_service_same_hart", "median", "~", "irq_raise_to_server_same_hart", "median",
     0.06),
    ("service loop on another hart: as fast as a plain waiter",
     "irq_raise_to_service_cross_hart", "median", "~", "irq_raise_to_server_cross_hart",
     "median", 0.03),
)


def relation_problems(results, relations=MASKED_THREADED):
    """relations (MASKED_THREADED's shape) against one run's results: those that do not hold,
    as readable lines (none if the run lacks a relation's figures: bench.py -k)."""
    by_name = {r["name"]: r for r in results}
    problems = []
    for what, a, ka, rel, b, kb, slack in relations:
        if a not in by_name or b not in by_name:
            continue
        x, y = by_name[a][ka], by_name[b][kb]
        ok = {">=": x >= y, "<": x < y, "~": abs(x - y) <= slack * y}[rel]
        if not ok:
            problems.append(f"{what}: {a} {ka} {x:,} is not {rel} {b} {kb} {y:,}"
                            + (f" (within {slack:.0%})" if rel == "~" else ""))
    return problems


def parse_histogram(m):
    """A BENCHHIST match as results.json's fields: p90, p99 and histogram ([low, count]...)."""
    buckets = [[int(v) for v in pair.split(":")] for pair in m.group(4).split()]
    return {"p90": int(m.group(2)), "p99": int(m.group(3)), "histogram": buckets}


def histogram_problem(r):
    """What is inconsistent between a figure's summary and its histogram, or None: the counts
    add up to the samples, there are at most HIST_MAX_BUCKETS buckets, the first starts at the
    minimum and each other one at the minimum plus a power of two, the buckets rise, the
    maximum lies in the last one, the percentiles between the median and the maximum, and the
    median, p90 and p99 each in the bucket whose counts hold its rank."""
    lows = [low for low, _ in r["histogram"]]
    if sum(count for _, count in r["histogram"]) != r["samples"]:
        return f"histogram counts {sum(c for _, c in r['histogram'])} samples, not {r['samples']}"
    if len(lows) > HIST_MAX_BUCKETS:
        return f"histogram has {len(lows)} buckets, more than {HIST_MAX_BUCKETS}"
    excess = [low - r["min"] for low in lows[1:]]
    if (lows[0] != r["min"] or lows != sorted(set(lows)) or r["max"] < lows[-1]
            or any(e & (e - 1) for e in excess)):
        return f"histogram buckets {lows} do not fit min {r['min']} and max {r['max']}"
    if not r["median"] <= r["p90"] <= r["p99"] <= r["max"]:
        return f"percentiles p90 {r['p90']} p99 {r['p99']} outside median..max"
    # the counts say which bucket holds each rank: the value printed for it must lie there
    n = r["samples"]
    for key, rank in (("median", (n - 1) // 2 + 1), ("p90", (n * 90 + 99) // 100),
                      ("p99", (n * 99 + 99) // 100)):
        low, high = bucket_of_rank(r, rank)
        if not low <= r[key] <= high:
            return (f"{key} {r[key]} is not in the bucket {low}..{high} that holds sample "
                    f"{rank} of {n}")
    return None


def bucket_of_rank(r, rank):
    """The least and greatest value the bucket holding the rank-th smallest sample (from 1)
    may hold: from its low to just under the next bucket's, the last one's to the maximum."""
    hist = r["histogram"]
    seen = 0
    for i, (low, count) in enumerate(hist):
        seen += count
        if seen >= rank:
            return low, hist[i + 1][0] - 1 if i + 1 < len(hist) else r["max"]
    raise ValueError(f"rank {rank} beyond {seen} samples")


def format_histogram(r):
    """One line: each bucket as low+:count (low alone for the minimum's)."""
    return " ".join(f"{low}{'+' if i else ''}:{count}"
                    for i, (low, count) in enumerate(r["histogram"]))


def run_wall_clock(bench):
    """Boot one wall-clock benchmark alone (nothing else running in this script meanwhile);
    returns {figure: (requests per second, requests, ns)}."""
    boot, append, figures, extra = bench
    cmd = qemu_command(append, extra, MEM, icount=False)
    log = os.path.join(OUT, f"{boot}.log")
    out, status = boot_logged(cmd, log)
    found = {m.group(1): tuple(int(m.group(i)) for i in (2, 3, 4)) for m in WALL_RE.finditer(out)}
    if status != 0 or "PANIC" in out or any(f not in found for f in figures):
        raise BenchError(f"{boot}: no clean result (QEMU exit status {status}; log: "
                         f"{os.path.relpath(log, ROOT)})")
    return {f: found[f] for f in figures}


def run_wall_stress(bench, tag):
    """Boot one wall-clock stress benchmark (WALL_STRESS) alone, without -icount; returns its
    phases (wall.parse). BenchError if the boot is not clean, a stressor did not complete or a
    phase's report is missing (wall.problems): the shape, never a time."""
    boot, append, _, extra = bench[:4]
    smp = bench_option(bench, "smp", SMP)
    cmd = qemu_command(append, extra, MEM, smp=smp, icount=False)
    log = os.path.join(OUT, f"{boot}{tag}.log")
    out, status = boot_logged(cmd, log)
    out, where = out.replace("\0", ""), os.path.relpath(log, ROOT)  # the fuzzer's NULs
    if status is None:
        raise BenchError(f"{boot}: timed out after {TIMEOUT}s (log: {where})")
    if "PANIC" in out or status != 0 or not DONE_RE.search(out):
        raise BenchError(f"{boot}: no clean result (QEMU exit status {status}; log: {where})")
    phases = wall.parse(out)
    problems = stressor_problems(out, bench_option(bench, "stressors", [])) + wall.problems(
        phases, smp)
    if problems:
        raise BenchError(f"{boot}: incomplete (log: {where}):\n  " + "\n  ".join(problems))
    return phases


def main_wall(pattern, repeat):
    """--wall: every WALL_STRESS boot whose name has pattern, repeat times in turn, one at a
    time; prints each boot's phases and ratios, then (repeat > 1) the docs' table over the
    runs, and writes build/bench/wall.json. Exits 1 on a boot's BenchError."""
    selected = [b for b in WALL_STRESS if pattern in b[0]]
    if not selected:
        sys.exit(f"bench: no wall-clock stress benchmark matches {pattern!r}")
    try:
        for b in selected:
            make_archive(b[1])
    except (RuntimeError, BenchError, OSError) as e:
        sys.exit(f"bench: {e}")
    os.makedirs(OUT, exist_ok=True)
    runs = []
    for r in range(repeat):
        for b in selected:
            try:
                phases = run_wall_stress(b, f".{r + 1}" if repeat > 1 else "")
            except BenchError as e:
                sys.exit(f"bench: FAIL {e}")
            runs.append((b[0], phases))
            print("\n".join(wall.report(b[0], phases)), flush=True)
    with open(os.path.join(OUT, "wall.json"), "w") as f:
        json.dump([{"boot": boot, "phases": p} for boot, p in runs], f, indent=2)
    if repeat > 1:
        print("\n".join(wall.table([(boot[len("wall_"):], p) for boot, p in runs])))
    print(f"bench: wall clock, not budgeted (no -icount; noisy): {len(runs)} boots, each "
          f"phase reported, ratios to the busy phase printed")
    return 0


def run_all(selected, rounds, jobs):
    """rounds x every selected benchmark, in parallel (-icount makes each run independent of
    the host's load). Returns one list of results per round, in BENCHMARKS order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [[pool.submit(run_one, bench, f".{r + 1}" if rounds > 1 else "")
                    for bench in selected] for r in range(rounds)]
        return [[res for f in round_futures for res in f.result()] for round_futures in futures]


def check_budgets(results):
    """Each figure's median and maximum against its budget (tests/bench/benchmarks.py: those
    it has; a figure printed only has none): the failures, as readable lines."""
    problems = []
    for r in results:
        budget = BUDGETS.get(r["name"], {})
        for key in ("median", "max"):  # a stress figure's budget has a maximum only
            if key in budget and r[key] > budget[key]:
                problems.append(f"{r['name']}: {key} {r[key]} {r['unit']} is over its budget "
                                f"of {budget[key]} ({os.path.relpath(BUDGETS_HOME, ROOT)}): the "
                                f"path got slower")
    return problems


def print_table(results):
    print(f"{'benchmark':<32}{'samples':>8}{'min':>10}{'median':>10}{'max':>10}  (instructions)")
    for r in results:
        print(f"{r['name']:<32}{r['samples']:>8}{r['min']:>10}{r['median']:>10}{r['max']:>10}")
    overheads = sorted({r["overhead"] for r in results})
    print(f"(less the empty rdcycle; rdcycle pair: {', '.join(map(str, overheads))} instruction"
          f"{'s' if overheads != [1] else ''}, measured by each server and subtracted)")
    print(f"\n{'histogram':<32}{'p90':>10}{'p99':>10}  buckets (low:samples; low+ runs to "
          f"the next low, the last to max)")
    for r in results:
        print(f"{r['name']:<32}{r['p90']:>10}{r['p99']:>10}  {format_histogram(r)}")
    splits = [r for r in results if "split" in r]
    if splits:
        print("\nPer component (tools/qemu-plugins/hart_split.c: each hart's user instructions, "
              "a component a hart;\n  the kernel's on every hart, firmware included; over all "
              "the samples, a unit each)")
        for r in splits:
            print(f"{r['name']:<32}" + ", ".join(f"{k} {v}" for k, v in r["split"].items()))
    holds = [r for r in results if "hart" in r]
    if holds:
        syms = kernel_symbols()
        print("\nBKL holds per hart (tools/qemu-plugins/bkl_holds.c: each hart's own "
              "instructions;\n  the kernel's own figure, in the global count, is the "
              f"{GLOBAL_SUFFIX} one, printed only)")
        for r in holds:
            print(f"{r['name']:<32}{r['max']:>10}  hart {r['hart']}, {syms(r['from'])} to "
                  f"{syms(r['to'])}; every hart: {', '.join(map(str, r['harts']))}")


def kernel_symbols():
    """A function naming the test kernel's text symbol at or before an address (its
    build/test/kernel.syms, `nm -n`'s text lines), as SYMBOL+0xOFFSET."""
    import bisect
    table = []
    try:
        with open(kernel_image(ROOT, "test", ".syms")) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3:
                    table.append((int(parts[0], 16), parts[2]))
    except (OSError, ValueError):
        pass
    addresses = [a for a, _ in table]

    def name(address):
        i = bisect.bisect_right(addresses, address) - 1
        if i < 0 or not address:
            return hex(address)
        return f"{table[i][1]}+{address - table[i][0]:#x}"
    return name


def compare(first, second):
    """The figures that differ between two rounds, as readable lines."""
    diffs = []
    for a, b in zip(first, second):
        for key in ("samples", "min", "median", "max", "overhead", "p90", "p99", "histogram"):
            if a[key] != b[key]:
                diffs.append(f"{a['name']}: {key} {a[key]} in run 1, {b[key]} in run 2")
    return diffs


def report_check(tool, failure, problems, success):
    """Print a check's outcome: `TOOL: FAIL failure:` and each problem on a line of its own, or
    `TOOL: success`. Returns whether the check passed."""
    if problems:
        print(f"{tool}: FAIL {failure}:")
        for p in problems:
            print("  " + p)
        return False
    print(f"{tool}: {success}")
    return True


def write_results(results, pool):
    """build/bench/results.json: this run's figures, and from the file as it was those of the
    set of benchmarks the run did not draw from (`make bench` and `make bench-stress` each run
    one set: the file keeps the other's last figures), every figure in BENCHMARKS then
    STRESS_BENCHMARKS order."""
    path = os.path.join(OUT, "results.json")
    ran = {figure_names(f)[1] for b in pool for f in b[2]}
    kept = []
    try:
        with open(path) as f:
            kept = [r for r in json.load(f) if r["name"] not in ran]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    fields = ("name", "unit", "samples", "min", "median", "max", "p90", "p99", "histogram")
    order = {f.name: i for i, f in enumerate(figures())}
    merged = sorted([{k: r[k] for k in fields} for r in results] + kept,
                    key=lambda r: order.get(r["name"], len(order)))
    with open(path, "w") as f:
        json.dump(merged, f, indent=2)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", dest="pattern", default="", help="only benchmarks whose name has this")
    ap.add_argument("--check-deterministic", action="store_true",
                    help="run everything twice; fail if any figure differs")
    ap.add_argument("--check-budgets", action="store_true",
                    help="fail if a median or maximum is over its budget "
                    "(tests/bench/benchmarks.py)")
    ap.add_argument("--check-scaling", action="store_true",
                    help="fail if a scaling curve misses its goal (SCALING)")
    ap.add_argument("--plots", action="store_true",
                    help="then write the charts into build/bench/ (tests/bench/plots.py)")
    ap.add_argument("--write-docs", action="store_true",
                    help="write the figures into docs/benchmarks.md's table (tests/bench/"
                    "figures.py)")
    ap.add_argument("--stress", action="store_true",
                    help="the stress benchmarks (STRESS_BENCHMARKS) instead of the others")
    ap.add_argument("--wall", action="store_true",
                    help="the wall-clock stress benchmarks (WALL_STRESS) alone, one at a time")
    ap.add_argument("--repeat", type=int, default=1,
                    help="--wall: boot each that many times (the docs' table over the runs)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="QEMU instances at once (default: one per host CPU)")
    args = ap.parse_args()
    if declaration_problems():
        sys.exit("bench: tests/bench/benchmarks.py: " + "; ".join(declaration_problems()))
    if args.wall:
        return main_wall(args.pattern, args.repeat)
    pool = STRESS_BENCHMARKS if args.stress else BENCHMARKS
    if args.write_docs:
        pool = BENCHMARKS + STRESS_BENCHMARKS  # the table has every figure
    selected = [b for b in pool
                if args.pattern in b[0] or any(args.pattern in figure_names(f)[1] for f in b[2])]
    wall = [b for b in WALL_CLOCK if args.pattern in b[0] or any(args.pattern in f for f in b[2])]
    if args.write_docs and args.pattern:
        sys.exit("bench: --write-docs writes every figure: run it without -k")
    if args.check_deterministic or args.check_budgets or args.write_docs or args.stress:
        wall = []  # neither deterministic nor budgeted nor in the table
    if not selected and not wall:
        sys.exit(f"bench: no benchmark matches {args.pattern!r}")
    needed = {kernel_image(ROOT, bench_kernel(b)) for b in selected} | {
        kernel_image(ROOT, kernel_for(b[1])) for b in wall} | {os.path.join(BUILD, "modules.img")}
    if any(bench_holds(b) for b in selected):
        needed.add(HOLDS_PLUGIN)
    if any(bench_option(b, "split", None) for b in selected):
        needed.add(SPLIT_PLUGIN)
    for path in sorted(needed):
        if not os.path.exists(path):
            sys.exit(f"bench: {os.path.relpath(path, ROOT)} missing: run make bench "
                     f"(or make kernel test-kernel userspace {os.path.relpath(HOLDS_PLUGIN, ROOT)})")
    try:
        for extra, (mem, smp) in {(tuple(b[3]), bench_machine(b)) for b in selected}:  # trees
            dtb_for_machine(ROOT, "aclint", smp, mem, extra)
        for append in {b[1] for b in selected + wall}:
            make_archive(append)
    except (RuntimeError, BenchError, OSError) as e:
        sys.exit(f"bench: {e}")
    os.makedirs(OUT, exist_ok=True)
    start = time.monotonic()
    try:
        rounds = run_all(selected, 2 if args.check_deterministic else 1, args.jobs)
        walls = [run_wall_clock(b) for b in wall]
    except BenchError as e:
        sys.exit(f"bench: FAIL {e}")
    results = rounds[0]
    if results:
        print_table(results)
    for figures in walls:
        print("wall clock, not budgeted (no -icount; QEMU's disk backend dominates):")
        for name, (iops, n, ns) in figures.items():
            print(f"{name:<32}{iops:>8} requests/s  ({n} reads in {ns / 1e6:.1f} ms)")
    write_results(results, pool)
    if args.plots:  # from results.json: the other set's figures too
        plots = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "bench", "plots.py")],
                               cwd=ROOT)
        if plots.returncode:
            sys.exit("bench: FAIL the charts were not written (tests/bench/plots.py)")
    print(f"bench: {len(selected) * len(rounds)} boots in {time.monotonic() - start:.1f}s; "
          f"results in {os.path.relpath(os.path.join(OUT, 'results.json'), ROOT)}")
    if args.write_docs:
        sys.dont_write_bytecode = True  # no __pycache__ in the source tree
        import figures  # tests/bench/figures.py
        try:
            figures.write(figures.figures(results))
        except figures.FiguresError as e:
            sys.exit(f"bench: {e}")
        print(f"bench: figures written into {os.path.relpath(figures.DOC, ROOT)}")
    checks = []
    if any(r["name"] in STRESS_SAME_HART for r in results):
        checks.append((f"same-hart bound: a stress figure's raise to its driver on the same "
                       f"hart is above {STRESS_SAME_HART_BOUND:,} instructions",
                       same_hart_bound_problems(rounds),
                       f"same-hart bound: every stress figure's same-hart maximum is at or under "
                       f"{STRESS_SAME_HART_BOUND:,} instructions"))
    if any(r["name"] == rel[1] for r in results for rel in MASKED_THREADED):
        checks.append(("masked-threaded: a relation of the masked-vs-threaded experiment does "
                       "not hold", relation_problems(results),
                       "masked-threaded: every relation of the experiment holds "
                       "(docs/interrupts.md, \"Masked, windowed or threaded\")"))
    if any(r["name"] == rel[1] for r in results for rel in SERVICE_LOOP):
        checks.append(("service-loop: a service loop's driver is not as fast as a plain waiter",
                       relation_problems(results, SERVICE_LOOP),
                       "service-loop: a service loop's driver is as fast as a plain waiter "
                       f"(within {SERVICE_LOOP[0][-1]:.0%} on the line's hart, "
                       f"{SERVICE_LOOP[1][-1]:.0%} across harts)"))
    if args.check_scaling:
        checks.append(("scaling: a curve is not flat where flat is the goal, or arming a "
                       "timer grows faster than logarithmically", scaling_problems(results),
                       "scaling: the curves are flat where flat is the goal, and arming a "
                       "timer grows at most logarithmically"))
    if args.check_deterministic:
        checks.append(("not deterministic: two runs under -icount gave different figures",
                       compare(rounds[0], rounds[1]),
                       f"deterministic: two runs of {len(results)} benchmarks gave identical "
                       "figures"))
    if args.check_budgets:
        checks.append(("over budget", check_budgets(results),
                       f"all {len(results)} figures within their budgets "
                       f"({os.path.relpath(BUDGETS_HOME, ROOT)})"))
    passed = [report_check("bench", failure, problems, success)
              for failure, problems, success in checks]
    return 0 if all(passed) else 1


if __name__ == "__main__":
    sys.exit(main())
