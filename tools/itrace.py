#!/usr/bin/env python3
"""itrace.py: where the instructions of one benchmark sample go, instruction by instruction.

Runs one of tests/bench/bench.py's benchmarks under QEMU with every instruction logged
(-singlestep -d exec,nochain; under -icount the figures are those of `make bench`), cuts the
trace at a marker instruction, and for one window between two executions of the marker prints
the functions the window ran through, in order, with their instruction counts, then the totals
per function, and how long each lock (the BKL) was held. The log streams through a pipe (a whole run logs ~2 GB).

  tools/itrace.py irq_server_cycle --elf build/servers/bench_irq_cycle.elf \\
      --marker raiser:rdcycle --window 1000

--marker FUNC:MNEMONIC is the first instruction in FUNC (of --elf) whose mnemonic is MNEMONIC;
window k runs from the marker's k-th execution to its (k+1)-th. Kernel addresses are named from
the ELF of the kernel the benchmark boots (build/kernel.elf, or build/test/kernel.elf for an
in-kernel benchmark), user addresses from --elf (other processes' code is named the same way, so a
window should run only the benchmark's own process and the kernel).
"""
import argparse
import bisect
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import bench  # noqa: E402
from machine import kernel_for, kernel_image  # noqa: E402

TRACE_RE = re.compile(rb"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
NM = "riscv64-unknown-elf-nm"
OBJDUMP = "riscv64-unknown-elf-objdump"


def symbols(elf):
    """Sorted [(address, name)] of the ELF's functions."""
    out = subprocess.run([NM, "-n", elf], capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16), parts[2]))
    return syms


def marker_address(elf, func, mnemonic):
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", elf], capture_output=True,
                         text=True, check=True).stdout
    inside = False
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            inside = m.group(2) == func
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)", line)
        if inside and m and m.group(2) == mnemonic:
            return int(m.group(1), 16)
    sys.exit(f"itrace: no {mnemonic} in {func} of {elf}")


class Namer:
    def __init__(self, kernel, user):
        self.tables = [symbols(kernel), symbols(user)]
        self.keys = [[a for a, _ in t] for t in self.tables]

    def name(self, pc):
        t = 0 if pc >= 0xffffffff80000000 else 1
        i = bisect.bisect_right(self.keys[t], pc) - 1
        return self.tables[t][i][1] if i >= 0 else hex(pc)


def disassembly(elf):
    """{address: 'mnemonic operands'} of the ELF's code."""
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", elf], capture_output=True,
                         text=True, check=True).stdout
    insns = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(.*)$", line)
        if m:
            insns[int(m.group(1), 16)] = m.group(2).strip()
    return insns


def lock_spans(window, insns):
    """[(first, length)] of the spans from a lock's acquiring swap (amoswap.w.aq) to its
    releasing one (amoswap.w zero,zero): on these paths the BKL is the only lock taken."""
    spans, start = [], None
    for i, pc in enumerate(window):
        insn = insns.get(pc, "")
        if insn.startswith("amoswap.w.aq"):
            start = i
        elif insn.startswith("amoswap.w") and "zero,zero" in insn and start is not None:
            spans.append((start, i - start + 1))
            start = None
    return spans


def write_listing(path, window, namer, elf, insns):
    with open(path, "w") as f:
        for i, pc in enumerate(window):
            f.write(f"{i:5d} {pc:#18x} {namer.name(pc):28s} {insns.get(pc, '?')}\n")


def find_benchmark(name):
    for b in bench.BENCHMARKS:
        if b[0] == name or any(name in bench.figure_names(f) for f in b[2]):
            return b
    sys.exit(f"itrace: no benchmark {name!r} in tests/bench/bench.py")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("benchmark", help="a boot or figure name from tests/bench/bench.py")
    ap.add_argument("--elf", required=True, help="the benchmark server's ELF (user symbols)")
    ap.add_argument("--marker", required=True, help="FUNC:MNEMONIC in --elf")
    ap.add_argument("--window", type=int, default=1000, help="which window (default 1000)")
    ap.add_argument("--list", metavar="FILE",
                    help="also write the window's instructions, disassembled, to FILE")
    args = ap.parse_args()

    b = find_benchmark(args.benchmark)
    func, mnemonic = args.marker.split(":")
    marker = marker_address(args.elf, func, mnemonic)
    kernel_elf = kernel_image(ROOT, kernel_for(b[1]), ".elf")
    namer = Namer(kernel_elf, args.elf)
    cmd = bench.qemu_command(b[1], b[3], bench.bench_mem(b), variant=bench.bench_variant(b))
    tmp = tempfile.mkdtemp()
    fifo = os.path.join(tmp, "trace")
    os.mkfifo(fifo)
    cmd += ["-singlestep", "-d", "exec,nochain", "-D", fifo,
            "-dfilter", "0xffffffff80000000..0xffffffffffffffff,0x0..0x3fffffffff"]
    qemu = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    seen, window = 0, []
    try:
        with open(fifo, "rb") as f:
            for line in f:
                m = TRACE_RE.match(line)
                if not m:
                    continue
                pc = int(m.group(1), 16)
                if pc == marker:
                    seen += 1
                    if seen == args.window + 1:
                        break
                if seen == args.window:
                    window.append(pc)
    finally:
        qemu.kill()
        qemu.wait()
        os.unlink(fifo)
        os.rmdir(tmp)
    if not window:
        sys.exit(f"itrace: the marker ran {seen} times; no window {args.window}")
    runs, totals = [], {}
    for pc in window:
        n = namer.name(pc)
        totals[n] = totals.get(n, 0) + 1
        if runs and runs[-1][0] == n:
            runs[-1][1] += 1
        else:
            runs.append([n, 1])
    print(f"{args.benchmark}: window {args.window}: {len(window)} instructions "
          f"(marker {func}:{mnemonic} at {marker:#x})")
    print("in order:")
    for n, c in runs:
        print(f"  {c:5d}  {n}")
    insns = disassembly(kernel_elf)
    insns.update(disassembly(args.elf))
    if args.list:
        write_listing(args.list, window, namer, args.elf, insns)
    for first, length in lock_spans(window, insns):
        print(f"lock held: {length} instructions (from instruction {first}, "
              f"{namer.name(window[first])})")
    print("per function:")
    for n, c in sorted(totals.items(), key=lambda x: -x[1]):
        print(f"  {c:5d}  {n}")


if __name__ == "__main__":
    main()
