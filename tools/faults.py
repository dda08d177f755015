#!/usr/bin/env python3
"""faults.py: the fault injection campaign's runner and its figures (docs/faults.md).

  python3 tools/faults.py run --n N --seed SEED --drivers rbtu [--log LOG]
      boot the faults kernel (build/faults/kernel.bin) with servers/faults as the campaign
      (N faults, that seed, into rng, blk, rtc and the console's uart: letters r b t u) and the
      drivers restarted as often as it takes, each asked whether it is alive (`~200`); the
      serial output goes to LOG (build/faults/campaign-SEED.log); prints the figures; exits 1
      unless the campaign said `faults: PASS`. `make faults [N=... SEED=... DRIVERS=...]`.
  python3 tools/faults.py table LOG...
      the figures of the campaigns in those logs, as the markdown table docs/faults.md holds.
  python3 tools/faults.py table --write LOG...
      rewrite that table in docs/faults.md (between MARK_BEGIN and MARK_END; never by hand).

A campaign's log has one line per fault (servers/faults/faults.c): `faults: #K DRIVER TYPE ...
-> OUTCOME in T us (E errors)`. A restart's cause is in init's lines between that fault's line
and the one before it: "faulted" (the driver crashed: crash + restart), "has not answered"
(init's liveness thread: hang + restart), "says it left a request unanswered" (a client's
report, INIT_STUCK: hang + restart, told by the client). A fault whose client saw errors before
a good answer counts as client-visible too."""
import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.dont_write_bytecode = True
from machine import MACHINES, dtb_for_machine, kernel_image  # noqa: E402

DOC = os.path.join(ROOT, "docs", "faults.md")
MARK_BEGIN = "<!-- faults:begin -->"
MARK_END = "<!-- faults:end -->"
OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin"
DISK = "build/blk-test.img"  # relative: QEMU runs in ROOT
DEVICES = ["-device", "virtio-rng-device", "-drive",
           f"file={DISK},if=none,format=raw,id=disk0,snapshot=on",
           "-device", "virtio-blk-device,drive=disk0"]
RESTARTS = 1000000  # each driver's `*N`: as often as it takes
ALIVE_MS = 200      # each driver's `~MS`
MINIX_FAULTS = 3400000  # Herder et al., "Fault isolation for device drivers", DSN 2009

FAULT_RE = re.compile(r"faults: #(\d+) (\S+) (\S+) (?:where=(\S+) value=(\S+) )?-> (\S+)"
                      r"(?: in (\d+) us \((\d+) errors\))?")
TYPES = ("reg-arg", "reg-saved", "reg-sp", "reg-ra", "reg-pc", "text-flip", "text-set", "data",
         "hang")
DRIVERS = ("rng", "blk", "rtc", "uart")
OUTCOMES = ("no effect", "detected error", "crash + restart", "hang + restart",
            "hang + restart (client's report)", "data mismatch", "unrecovered", "skipped")


def bootargs(n, seed, drivers):
    entry = lambda name: f"{name}*{RESTARTS}~{ALIVE_MS}"  # noqa: E731
    return ("init.run=" + ",".join([
        "^%" + entry("uart=console:ns16550a"), entry("rng:virtio-rng"),
        entry("rtc:goldfish-rtc"), entry("blk:virtio-blk"),
        f"^%faults={n}.{seed}.{drivers}@1[blk=0-63;rng=1;rtc=1;console=1]"]))


def run(args):
    log = args.log or os.path.join(ROOT, "build", "faults", f"campaign-{args.seed}.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    dtb = dtb_for_machine(ROOT, "aclint", args.smp, "128M", DEVICES)
    cmd = ["qemu-system-riscv64", *MACHINES["aclint"], "-global",
           "virtio-mmio.force-legacy=false", "-smp", str(args.smp), "-m", "128M", "-display",
           "none", "-monitor", "none", "-serial", "stdio", "-bios", OPENSBI, "-kernel",
           kernel_image(ROOT, "faults"), "-dtb", dtb, "-initrd",
           os.path.join(ROOT, "build", "modules.img"), "-append",
           bootargs(args.n, args.seed, args.drivers), *DEVICES]
    with open(log, "w") as out:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                              timeout=args.timeout, cwd=ROOT)
    text = open(log, errors="replace").read()
    print("\n".join(table([text])))
    ok = proc.returncode == 0 and "faults: PASS" in text and "PANIC" not in text
    print(f"{log}: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


def faults_of(text):
    """Each fault of a campaign's log: (driver, type, outcome, us, errors)."""
    since = []
    for line in text.splitlines():
        m = FAULT_RE.search(line)
        if not m:
            since.append(line)
            continue
        _, driver, ftype, _, _, got, us, errors = m.groups()
        between = "\n".join(since)
        since = []
        if got == "restart":
            got = ("hang + restart (client's report)" if "left a request unanswered" in between
                   else "hang + restart" if "has not answered" in between
                   else "crash + restart")
        else:
            got = {"none": "no effect", "error": "detected error", "mismatch": "data mismatch",
                   "unrecovered": "unrecovered", "skipped": "skipped"}[got]
        yield driver, ftype, got, int(us or 0), int(errors or 0)


def totals_of(text):
    """The campaign's own totals line: (faults, ms, rate, its parameters N.SEED.DRIVERS)."""
    m = re.search(r"faults: (\d+) faults in (\d+) ms \((\d+) a second\)", text)
    seed = re.search(r'faults: \d+ faults into \d+ drivers, seed "([^"]+)"', text)
    return (tuple(int(g) for g in m.groups()) if m else (0, 0, 0)) + \
        (seed.group(1) if seed else "?",)


def table(texts):
    faults = [f for t in texts for f in faults_of(t)]
    runs = [totals_of(t) for t in texts]
    count = lambda pred: sum(1 for f in faults if pred(f))  # noqa: E731
    lines = ["| fault type | " + " | ".join(DRIVERS) + " | all |",
             "|---|" + "---:|" * (len(DRIVERS) + 1)]
    for t in TYPES:
        cells = [count(lambda f: f[0] == d and f[1] == t) for d in DRIVERS]
        lines.append(f"| {t} | " + " | ".join(map(str, cells)) + f" | {sum(cells)} |")
    lines.append("| **all** | " + " | ".join(str(count(lambda f: f[0] == d)) for d in DRIVERS)
                 + f" | {len(faults)} |")
    lines += ["", "| outcome | " + " | ".join(DRIVERS) + " | all |",
              "|---|" + "---:|" * (len(DRIVERS) + 1)]
    for o in OUTCOMES:
        cells = [count(lambda f: f[0] == d and f[2] == o) for d in DRIVERS]
        lines.append(f"| {o} | " + " | ".join(map(str, cells)) + f" | {sum(cells)} |")
    visible = [count(lambda f: f[0] == d and f[4] > 0) for d in DRIVERS]
    lines.append("| client saw an error first | " + " | ".join(map(str, visible))
                 + f" | {sum(visible)} |")
    panics = sum(t.count("PANIC") for t in texts)
    lines += ["", "| beside MINIX 3 | MINIX 3 (Herder et al., DSN 2009) | Tacet (these runs) |",
              "|---|---:|---:|",
              f"| faults injected | {MINIX_FAULTS:,} | {len(faults):,} |",
              f"| drivers | 4 Ethernet drivers | {len(DRIVERS)} ({', '.join(DRIVERS)}) |",
              f"| system crashes (kernel panics) | 0 | {panics} |",
              f"| hangs not recovered | 1 (blamed on the hardware) | "
              f"{count(lambda f: f[2] == 'unrecovered')} |",
              f"| silent data mismatches | not measured | "
              f"{count(lambda f: f[2] == 'data mismatch')} |"]
    back = sorted(f[3] for f in faults if f[2] not in ("no effect", "skipped", "unrecovered"))
    secs = sum(r[1] for r in runs) / 1000
    lines += ["", f"Runs: {len(runs)} ({', '.join(f'{r[0]} faults as {r[3]}' for r in runs)}: "
              "N.SEED.DRIVERS); "
              f"the largest {max((r[0] for r in runs), default=0)}. "
              f"Restarts: {count(lambda f: 'restart' in f[2])}. "
              f"Time to a working driver after a restart or error: median "
              f"{statistics.median(back) / 1000 if back else 0:.1f} ms, worst "
              f"{(back[-1] if back else 0) / 1000:.1f} ms. "
              f"Rate: {len(faults) / secs if secs else 0:.1f} faults a second."]
    return lines


def write(lines):
    doc = open(DOC).read()
    begin, end = doc.index(MARK_BEGIN), doc.index(MARK_END)
    note = ("<!-- generated by `python3 tools/faults.py table --write LOG...` from campaign "
            "logs; do not edit by hand -->")
    doc = doc[:begin] + MARK_BEGIN + "\n" + note + "\n" + "\n".join(lines) + "\n" + doc[end:]
    open(DOC, "w").write(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--n", type=int, default=1000)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--drivers", default="rbtu")
    r.add_argument("--smp", type=int, default=2)
    r.add_argument("--log")
    r.add_argument("--timeout", type=int, default=None)
    t = sub.add_parser("table")
    t.add_argument("--write", action="store_true")
    t.add_argument("logs", nargs="+")
    args = ap.parse_args()
    if args.cmd == "run":
        return run(args)
    lines = table([open(p, errors="replace").read() for p in args.logs])
    if args.write:
        write(lines)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
