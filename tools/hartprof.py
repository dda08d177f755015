#!/usr/bin/env python3
"""hartprof.py: where one component's share of a benchmark goes, by function.

Boots one of tests/bench/bench.py's benchmarks with the QEMU plugin build/hart_profile.so
(tools/qemu-plugins/hart_profile.c: one hart's instructions by address over one stretch the
benchmark server marks, hart_split.h), then prints that hart's instructions per unit of the
stretch (the server's SPLITUNITS line: for udp_echo, a datagram echoed) by function: user code
named from --elf, the kernel's from the kernel the benchmark boots. For benchmarks that run each
component on a hart of its own (a benchmark's split=); the stretch is the K-th the server marks
(udp_echo: 0, 1, 2 for 1, 16, 256 in flight). Unlike tools/itrace.py it logs nothing per
instruction, so a stretch late in a long boot costs one run at about the benchmark's speed.

  tools/hartprof.py udp_echo --elf build/servers/ip_static.elf --hart 1 --stretch 2 [--top N]
"""
import argparse
import bisect
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import bench  # noqa: E402
import itrace  # noqa: E402  (tools/: symbols())
from machine import kernel_for, kernel_image  # noqa: E402

PLUGIN = os.path.join(ROOT, "build", "hart_profile.so")
KERNEL_VA = 0xffffffc000000000


def name_of(tables, pc):
    keys, syms = tables[pc >= KERNEL_VA]
    i = bisect.bisect_right(keys, pc) - 1
    name = syms[i][1] if i >= 0 else hex(pc)
    return "kernel:" + name if pc >= KERNEL_VA else name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("benchmark", help="a boot name from tests/bench/bench.py")
    ap.add_argument("--elf", required=True, help="the component's ELF (user symbols)")
    ap.add_argument("--hart", type=int, required=True, help="the component's hart")
    ap.add_argument("--stretch", type=int, default=0, help="which marked stretch (from 0)")
    ap.add_argument("--top", type=int, default=40, help="functions printed (default 40)")
    args = ap.parse_args()

    b = itrace.find_benchmark(args.benchmark)
    kernel_elf = kernel_image(ROOT, kernel_for(b[1]), ".elf")
    bench.make_archive(b[1])
    out = os.path.join(bench.OUT, f"{b[0]}.prof")
    if os.path.exists(out):
        os.remove(out)
    cmd = bench.qemu_command(b[1], b[3], *bench.bench_machine(b), variant=bench.bench_variant(b))
    cmd += ["-plugin", f"{PLUGIN},out={out},hart={args.hart},stretch={args.stretch}"]
    log = subprocess.run(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                         timeout=bench.TIMEOUT).stdout.decode(errors="replace")
    units = re.findall(r"^SPLITUNITS (\S+) units=(\d+)", log, re.M)
    if len(units) <= args.stretch:
        sys.exit(f"hartprof: {len(units)} stretches marked; no stretch {args.stretch}")
    figure, n = units[args.stretch][0], int(units[args.stretch][1])
    tables = []
    for elf in (args.elf, kernel_elf):
        syms = itrace.symbols(elf)
        tables.append(([a for a, _ in syms], syms))
    totals = {}
    with open(out) as f:
        for line in f:
            pc, count = line.split()
            name = name_of(tables, int(pc, 16))
            totals[name] = totals.get(name, 0) + int(count)
    kernel = sum(c for k, c in totals.items() if k.startswith("kernel:"))
    print(f"{figure}: hart {args.hart}, {n} units: {sum(totals.values()) / n:.0f} instructions "
          f"a unit ({(sum(totals.values()) - kernel) / n:.0f} user, {kernel / n:.0f} kernel)")
    for name, c in sorted(totals.items(), key=lambda x: -x[1])[:args.top]:
        print(f"  {c / n:8.1f}  {name}")


if __name__ == "__main__":
    main()
