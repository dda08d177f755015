#!/usr/bin/env python3
"""trace.py: the kernel's event trace (docs/tracing.md), from a boot to a file Perfetto opens.

  trace.py record [--bootargs B] [--qemu-extra E] [--smp N] [--until REGEX] [--no-icount]
      Boots a scenario with the boot argument trace=on (by default the edu flood for tracing:
      four edu devices, four edu_trace drivers, one on each hart), waits until the console
      prints REGEX (the default scenario: pci's release of its four drivers' functions, whose
      lines would cut into the dump; any other: the shell's first prompt), types `trace dump` and, once the dump has ended, `poweroff`; writes
      build/trace/console.log and converts it to build/trace/trace.json. `make trace` runs it.
  trace.py convert LOG [-o OUT] [--cycles-per-us X]
      Converts the TRACE lines of a console log (the shell's `trace dump`,
      servers/uart/traceshow.c) to the Chrome/Perfetto trace-event format (JSON).

The output: one track per hart (pid 1, tid = the hart), complete events (ph "X", ts and dur in
microseconds) for each top half ("irq LINE", from its trap entry to its end), each run of a
thread ("PROCESS:TID", from its switch in to the hart's next switch or idle; the name the
kernel recorded as the thread was made, so a thread that ended before the dump has it too),
each idle wait ("idle") and each wait for the BKL ("BKL wait"); instants (ph "i") for
acknowledgements, calls, replies, signals and threads made; and a flow arrow (ph "s" inside
the interrupt's slice, "f" with bp "e" just inside the run it caused) from every top half to
each thread it woke. "otherData" holds the rings' sizes and drops, the kernel's count of each
line, and the unit. Python's standard library only.
"""
import argparse
import json
import os
import shlex
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT_DIR = os.path.join(ROOT, "build", "trace")

# <tacet/trace.h>: struct tacet_trace_event, little-endian; the kinds and the reasons.
EVENT = struct.Struct("<QQIIII")
IRQ, SIGNAL, SWITCH, IDLE, BKL, ACK, CALL, REPLY, THREAD = range(1, 10)
# A THREAD event's process name (struct tacet_trace_thread): 8 bytes where since is, 8 where
# b and pad are, NUL-padded.
THREAD_NAME = ((8, 16), (24, 32))
WHY = {0: "scheduler", 1: "call", 2: "reply", 3: "signal", 4: "wait"}

DEFAULT_SCENARIO = {
    "bootargs": "init.run=^uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                "edu_trace@0,edu_trace@1,edu_trace@2,edu_trace@3",
    "qemu_extra": "-device edu,addr=1 -device edu,addr=2 -device edu,addr=3 -device edu,addr=4",
    "qemu_devices": "",
    # the four drivers done and pci done with each (it quiets the function, waits 100 ms and
    # releases its DMA quarantine, printing as it goes: a line that would cut into the dump)
    "until": r"(pci: 00:0\d\.0 [^\n]*pages back from its DMA quarantine[\s\S]*){4}",
}
PROMPT = r"tacet> "


class TraceError(Exception):
    pass


def fnv1a(text):
    h = 2166136261
    for b in text.encode():
        h = ((h ^ b) * 16777619) & 0xffffffff
    return h


def thread_event_name(raw):
    """The process name a THREAD event holds (THREAD_NAME)."""
    name = b"".join(raw[lo:hi] for lo, hi in THREAD_NAME).split(b"\0")[0]
    return name.decode(errors="replace") or "?"


def parse_dump(text):
    """The TRACE lines of a console log: a dict with harts, clock, rings (hart -> capacity,
    count, dropped, events), irq counts and thread names (of the THREAD events, each thread's
    since it was made, ended or not; and of the dump's thread lines, the threads alive).
    Raises TraceError on a line that fails its check, a gap in a ring, or a dump that does not
    end."""
    lines = [ln.strip() for ln in text.replace("\r", "").split("\n")]
    lines = [ln[ln.index("TRACE "):] for ln in lines if "TRACE " in ln]
    begins = [i for i, ln in enumerate(lines) if ln.startswith("TRACE begin ")]
    if not begins:
        raise TraceError("no `TRACE begin` line: was the kernel booted with trace=on and was "
                         "`trace dump` typed?")
    lines = lines[begins[-1]:]
    d = {"rings": {}, "irqs": {}, "threads": {}, "clock": None, "harts": 0}
    ended = False
    for n, ln in enumerate(lines, 1):
        f = ln.split()
        kind = f[1]
        if kind == "begin":
            d["harts"] = int(f[4])
        elif kind == "clock":
            d["clock"] = {"timebase_hz": int(f[3]), "start_cycles": int(f[5]),
                          "start_time": int(f[6]), "cycles": int(f[8]), "time": int(f[9])}
        elif kind == "ring":
            d["rings"][int(f[2])] = {"capacity": int(f[4]), "count": int(f[6]),
                                     "dropped": int(f[8]), "events": []}
        elif kind == "ev":
            body, check = ln.rsplit(" ", 1)
            if f"{fnv1a(body):08x}" != check:
                raise TraceError(f"line {n} of the dump fails its check: {ln[:60]}...")
            hart, first, payload = int(f[2]), int(f[3]), bytes.fromhex(f[4])
            ring = d["rings"][hart]
            if first != len(ring["events"]) or len(payload) % EVENT.size:
                raise TraceError(f"hart {hart}'s ring: events from {first} where "
                                 f"{len(ring['events'])} were expected")
            for off in range(0, len(payload), EVENT.size):
                ts, since, k, a, b, _ = EVENT.unpack_from(payload, off)
                if k == THREAD:  # a name, not times: the thread's, until its end and after
                    d["threads"][a] = thread_event_name(payload[off:off + EVENT.size])
                    since = b = 0
                ring["events"].append({"ts": ts, "since": since, "kind": k, "a": a, "b": b})
        elif kind == "irq":
            d["irqs"][int(f[2])] = int(f[3])
        elif kind == "thread":
            d["threads"][int(f[2])] = " ".join(f[4:]) if len(f) > 4 else "?"
        elif kind == "end":
            if int(f[2]) != n:
                raise TraceError(f"the dump says {f[2]} lines; {n} arrived")
            ended = True
            break
    if not ended:
        raise TraceError("the dump has no `TRACE end` line: cut short")
    for hart, ring in d["rings"].items():
        if len(ring["events"]) != ring["count"]:
            raise TraceError(f"hart {hart}'s ring holds {ring['count']} events; "
                             f"{len(ring['events'])} arrived")
    if d["clock"] is None or sorted(d["rings"]) != list(range(d["harts"])):
        raise TraceError("the dump lacks its clock line or a hart's ring")
    return d


def cycles_per_us(clock):
    """Cycles a microsecond, as the run measured them: the cycle counter against rdtime
    (timebase_hz ticks a second) from the rings' start to the dump."""
    ticks = clock["time"] - clock["start_time"]
    if ticks <= 0:
        raise TraceError("the clock did not move between the trace's start and the dump")
    return (clock["cycles"] - clock["start_cycles"]) / ticks * clock["timebase_hz"] / 1e6


def thread_name(d, tid):
    return f"{d['threads'].get(tid, 'thread')}:{tid}"


def hart_slices(d, hart, events, t_end):
    """The slices and instants of one hart's events, in cycles: a list of (begin, end, name,
    category, args) and of instants (ts, name, args); and the wakes by an interrupt: (ts inside
    the top half, woken tid, line, hart)."""
    slices, instants, wakes = [], [], []
    run = None  # (begin, name, args) of the open run or idle slice
    pending_signals = []  # signals recorded since the last top half (belong to the next one)

    def close(at):
        nonlocal run
        if run is not None:
            begin, name, cat, args = run
            slices.append((begin, max(begin, at), name, cat, args))
            run = None

    def begin_of(e):
        return e["since"] if e["kind"] in (IRQ, BKL) else e["ts"]

    def wake_from_idle(i):
        """Where an idle wait ends: the earliest begin among the events from the i-th to the
        first top half, switch or idle wait (a signal, or a wait for the BKL, is recorded
        before the top half it is part of)."""
        at = events[i]["ts"]
        for e in events[i:]:
            at = min(at, begin_of(e))
            if e["kind"] in (IRQ, SWITCH, IDLE):
                break
        return at

    for i, e in enumerate(events):
        k, ts = e["kind"], e["ts"]
        if run is not None and run[2] == "idle":
            close(wake_from_idle(i))  # an idle wait ends where the next thing begins
        if k == IRQ:
            slices.append((e["since"], ts, f"irq {e['a']}", "top half",
                           {"line": e["a"], "woke": e["b"]}))
            for s_ts, tid in pending_signals:
                if e["since"] <= s_ts <= ts:
                    wakes.append((s_ts, tid, e["a"], hart))
            pending_signals = []
            if e["b"]:  # direct delivery: the woken thread runs from the top half's end
                wakes.append(((e["since"] + ts) / 2, e["b"], e["a"], hart))
                close(ts)
                run = (ts, thread_name(d, e["b"]), "run", {"tid": e["b"], "why": "interrupt"})
        elif k == SWITCH:
            close(ts)
            run = (ts, thread_name(d, e["a"]), "run", {"tid": e["a"], "why": WHY.get(e["b"])})
        elif k == IDLE:
            close(ts)
            run = (ts, "idle", "idle", {})
        elif k == BKL:
            slices.append((e["since"], ts, "BKL wait", "bkl", {"cycles": ts - e["since"]}))
        elif k == SIGNAL:
            instants.append((ts, f"signal -> {e['a']}" if e["a"] else "signal", {"tid": e["a"]}))
            if e["a"] and e["b"]:
                pending_signals.append((ts, e["a"]))
        elif k == ACK:
            instants.append((ts, f"ack {e['a']}", {"line": e["a"], "handled": e["b"]}))
        elif k == CALL:
            instants.append((ts, f"call -> {e['a']}" if e["a"] else "call (queued)",
                             {"tid": e["a"]}))
        elif k == REPLY:
            instants.append((ts, f"reply -> {e['a']}", {"tid": e["a"]}))
        elif k == THREAD:
            instants.append((ts, f"new thread {thread_name(d, e['a'])}", {"tid": e["a"]}))
    close(max(t_end, run[0]) if run else t_end)
    return slices, instants, wakes


def convert(d, per_us=None, unit=None):
    """The trace-event JSON (a dict) of a parsed dump."""
    per_us = per_us or cycles_per_us(d["clock"])
    t0 = min((e["since"] or e["ts"]) for r in d["rings"].values() for e in r["events"]) \
        if any(r["events"] for r in d["rings"].values()) else 0
    t_end = max((e["ts"] for r in d["rings"].values() for e in r["events"]), default=0)

    def us(c):
        return round((c - t0) / per_us, 3)

    out = [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "tacet"}}]
    runs = []  # (begin, end, tid, hart) of every thread run, for the flows' ends
    wakes = []
    irq_slices = {}
    for hart in range(d["harts"]):
        out.append({"ph": "M", "name": "thread_name", "pid": 1, "tid": hart,
                    "args": {"name": f"hart {hart}"}})
        out.append({"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": hart,
                    "args": {"sort_index": hart}})
        slices, instants, w = hart_slices(d, hart, d["rings"][hart]["events"], t_end)
        wakes += w
        for begin, end, name, cat, args in slices:
            b, e = us(begin), us(end)
            out.append({"ph": "X", "name": name, "cat": cat, "pid": 1, "tid": hart, "ts": b,
                        "dur": round(e - b, 3), "args": args})
            if cat == "run":
                runs.append((begin, end, args["tid"], hart))
            if cat == "top half":
                irq_slices[args["line"]] = irq_slices.get(args["line"], 0) + 1
        for ts, name, args in instants:
            out.append({"ph": "i", "s": "t", "name": name, "cat": "event", "pid": 1,
                        "tid": hart, "ts": us(ts), "args": args})
    runs.sort()
    flows, unmatched = 0, 0
    for ts, tid, line, hart in sorted(wakes):
        run = next((r for r in runs if r[2] == tid and r[0] >= ts and r[1] > r[0]), None)
        if run is None:
            unmatched += 1  # it never ran before the trace ended
            continue
        flows += 1
        b, e = us(run[0]), us(run[1])
        at = round(b + min(0.001, (e - b) / 2), 3)
        args = {"line": line, "tid": tid}
        out.append({"ph": "s", "id": flows, "name": "wake", "cat": "wake", "pid": 1,
                    "tid": hart, "ts": us(ts), "args": args})
        out.append({"ph": "f", "bp": "e", "id": flows, "name": "wake", "cat": "wake", "pid": 1,
                    "tid": run[3], "ts": at, "args": args})
    other = {
        "unit": unit or f"cycle counter, {per_us:g} cycles a microsecond (measured against "
                        "rdtime)",
        "cycles_per_us": per_us,
        "harts": d["harts"],
        "capacity": {str(h): r["capacity"] for h, r in d["rings"].items()},
        "events": {str(h): r["count"] for h, r in d["rings"].items()},
        "dropped": {str(h): r["dropped"] for h, r in d["rings"].items()},
        "irq_count_kernel": {str(k): v for k, v in d["irqs"].items()},
        "irq_count_trace": {str(k): v for k, v in sorted(irq_slices.items())},
        "flows": flows,
        "wakes_unmatched": unmatched,
    }
    return {"traceEvents": out, "displayTimeUnit": "ns", "otherData": other}


def convert_file(log, out_path, per_us=None, unit=None):
    with open(log, errors="replace") as f:
        d = parse_dump(f.read())
    trace = convert(d, per_us, unit)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "w") as f:
        json.dump(trace, f, separators=(",", ":"))
    return trace


def make_args(scenario, smp):
    args = [f"SMP={smp}", "VARIANT=aclint", f"BOOTARGS=trace=on {scenario['bootargs']}".strip(),
            f"QEMU_EXTRA={scenario['qemu_extra']}"]
    if scenario.get("qemu_devices") is not None:
        args.append(f"QEMU_DEVICES={scenario['qemu_devices']}")
    return args


def qemu_command(scenario, smp, icount):
    """The command `make run` would run for the scenario (its tree built first), to run under
    a pipe: the console on stdio, no monitor."""
    args = make_args(scenario, smp)
    for target in (["dtbs"], ["-n", "run"]):
        proc = subprocess.run(["make", "--no-print-directory", "-s", *target, *args], cwd=ROOT,
                              capture_output=True, text=True)
        if proc.returncode:
            raise TraceError(f"make {' '.join(target)} failed:\n{proc.stdout}{proc.stderr}")
    line = [ln for ln in proc.stdout.splitlines() if "-kernel" in ln][-1]
    cmd = shlex.split(line)
    cmd = [c for c in cmd if c != "-nographic"]
    cmd += ["-display", "none", "-monitor", "none", "-serial", "stdio"]
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from machine import icount_args  # noqa: E402
    return cmd + (icount_args(typed=True) if icount else [])  # it types `trace dump`


def record(scenario, smp, icount, timeout):
    """Boot, dump, power off (tests/run.py's boot(), which types each text once its pattern
    was printed); the console's output."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from run import boot  # noqa: E402

    cmd = qemu_command(scenario, smp, icount)
    os.makedirs(OUT_DIR, exist_ok=True)
    out, _, _, typed = boot(cmd, timeout, [(scenario["until"], "trace dump\r"),
                                           (r"TRACE end \d+", "poweroff\r")])
    with open(os.path.join(OUT_DIR, "console.log"), "w") as f:
        f.write("$ " + shlex.join(cmd) + "\n" + out)
    missed = [t for t in typed if t.startswith("never typed")]
    if missed:
        raise TraceError(f"{missed[0]} within {timeout}s (build/trace/console.log)")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--bootargs", default="")
    rec.add_argument("--qemu-extra", default="")
    rec.add_argument("--smp", type=int, default=4)
    rec.add_argument("--until", default="")
    rec.add_argument("--no-icount", action="store_true")
    rec.add_argument("--timeout", type=float, default=300)
    conv = sub.add_parser("convert")
    conv.add_argument("log")
    conv.add_argument("-o", "--out", default=os.path.join(OUT_DIR, "trace.json"))
    conv.add_argument("--cycles-per-us", type=float, default=None)
    args = ap.parse_args()
    try:
        if args.cmd == "convert":
            t = convert_file(args.log, args.out, args.cycles_per_us)
        else:
            if args.bootargs:
                scenario = {"bootargs": args.bootargs, "qemu_extra": args.qemu_extra,
                            "qemu_devices": None, "until": args.until or PROMPT}
            else:
                scenario = dict(DEFAULT_SCENARIO, until=args.until or DEFAULT_SCENARIO["until"])
            record(scenario, args.smp, not args.no_icount, args.timeout)
            per_us, unit = (1000.0, "cycle counter = retired instructions (QEMU -icount "
                            "shift=0): 1 instruction = 1 ns of virtual time") \
                if not args.no_icount else (None, None)
            args.out = os.path.join(OUT_DIR, "trace.json")
            t = convert_file(os.path.join(OUT_DIR, "console.log"), args.out, per_us, unit)
    except TraceError as e:
        print(f"trace: {e}", file=sys.stderr)
        return 1
    o = t["otherData"]
    print(f"trace: {os.path.relpath(args.out, os.getcwd())}: {o['harts']} harts, "
          f"{sum(o['events'].values())} events ({sum(o['dropped'].values())} dropped), "
          f"{o['flows']} wake-ups by interrupts; open it in https://ui.perfetto.dev")
    return 0


if __name__ == "__main__":
    sys.exit(main())
