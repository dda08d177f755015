"""wall.py: the wall-clock stress benchmark's figures (servers/bench/wall.c; bench.py --wall,
`make bench-wall`): reads its WALL lines, checks their shape, and gives the stressed phase's
figures as ratios to the busy phase of the same boot (what the kernel's work costs: the other
harts as busy in both, in the kernel only in one), and the busy phase's to the idle one's (what a
busy hart costs on this host). No bound on time anywhere: a wall-clock figure moves with the
host's load (docs/benchmarks.md, "The tail on parallel harts").

A boot prints, for each phase (PHASES), these lines (all times in ns; one subject's values may
come on two lines, each under the kernel's 128-byte DEBUG_WRITE chunk: they are merged):
  WALL phase=P driver alarms=N windows=N p50_ns= p99_ns= max_ns=  alarm due -> driver running
  WALL phase=P top count=N avg_ns= p50_ns= p99_ns= max_ns=  the RTC line's histogram diff:
  WALL phase=P wake avg_ns= p50_ns= p99_ns= max_ns=           top half, wake-up
  WALL phase=P hart=H waits=N slept=N total_ns= avg_ns=     hart H's BKL hand-overs
  WALL phase=P hart=H p50_ns= p99_ns= max_ns=
"""
import re

PHASES = ("idle", "busy", "stressed")
# The ratios a boot is judged by: (row label, phase, over phase).
RATIOS = (("ratio", "stressed", "busy"), ("busy/idle", "busy", "idle"))
LINE_RE = re.compile(r"^WALL phase=(\w+) (driver|top|wake|hart=(\d+)) ((?:\w+=\d+ ?)+)\s*$",
                     re.M)
# What a phase is summed up by, in order: (key, label) of summary()'s figures.
# The hand-over's p99 and max are the worst hart's; its average is over every hart's waits;
# hart 0's average apart (the driver's hart: its top half's waits).
SUMMARY = (("driver_p50", "driver p50"), ("driver_p99", "p99"), ("driver_max", "max"),
           ("top_avg", "top half avg"), ("wake_avg", "wake avg"),
           ("handover_avg", "hand-over avg"), ("handover_p99", "p99"), ("handover_max", "max"),
           ("hart0_avg", "hart 0's avg"))
WIDTH = 14


def parse(out):
    """{phase: {"driver": {...}, "top": {...}, "wake": {...}, "harts": {H: {...}}}} from a
    boot's output."""
    phases = {}
    for m in LINE_RE.finditer(out):
        values = {k: int(v) for k, v in (kv.split("=") for kv in m.group(4).split())}
        phase = phases.setdefault(m.group(1), {"harts": {}})
        if m.group(3) is not None:
            phase["harts"].setdefault(int(m.group(3)), {}).update(values)
        else:
            phase.setdefault(m.group(2), {}).update(values)
    return phases


def problems(phases, harts):
    """What is missing from a boot's WALL lines, as readable lines: every phase of PHASES must
    report its driver (alarms measured), the line's record (interrupts counted, the wake-up)
    and each of harts harts (both of its lines)."""
    found = []
    for name in PHASES:
        p = phases.get(name)
        if p is None:
            found.append(f"phase {name}: no WALL line")
            continue
        if not p.get("driver", {}).get("alarms"):
            found.append(f"phase {name}: no driver line with alarms measured")
        if not p.get("top", {}).get("count"):
            found.append(f"phase {name}: no top line with interrupts counted")
        if "avg_ns" not in p.get("wake", {}):
            found.append(f"phase {name}: no wake line")
        missing = [h for h in range(harts)
                   if not {"waits", "max_ns"} <= set(p["harts"].get(h, {}))]
        if missing:
            found.append(f"phase {name}: no hand-over line for hart(s) {missing}")
    return found


def summary(phase):
    """A phase's figures (SUMMARY's keys), ns; the hand-over average over every hart's waits."""
    d, top, wake, harts = phase["driver"], phase["top"], phase["wake"], phase["harts"].values()
    waits = sum(h["waits"] for h in harts)
    return {"driver_p50": d["p50_ns"], "driver_p99": d["p99_ns"], "driver_max": d["max_ns"],
            "top_avg": top["avg_ns"], "wake_avg": wake["avg_ns"],
            "handover_avg": sum(h["total_ns"] for h in harts) // waits if waits else 0,
            "handover_p99": max(h["p99_ns"] for h in harts),
            "handover_max": max(h["max_ns"] for h in harts),
            "hart0_avg": phase["harts"][0]["avg_ns"],
            "waits": waits, "slept": sum(h["slept"] for h in harts)}


def ratios(phases, of="stressed", over="busy"):
    """Each SUMMARY figure of phase of over phase over's (None where over's is 0)."""
    a, b = summary(phases[of]), summary(phases[over])
    return {k: a[k] / b[k] if b[k] else None for k, _ in SUMMARY}


def us(ns):
    return f"{ns / 1000:.1f}"


def ratio(r):
    return f"{r:.2f}x" if r is not None else "-"  # idle had none (no hand-over, typically)


def report(boot, phases):
    """A boot's lines for the terminal: each phase's summary, the ratios, each hart's waits."""
    lines = [f"{boot}: {'(us)':<10}" + "".join(f"{label:>{WIDTH}}" for _, label in SUMMARY)
             + "  slept/hand-overs"]
    for name in PHASES:
        s = summary(phases[name])
        lines.append(f"{boot}: {name:<10}" + "".join(f"{us(s[k]):>{WIDTH}}" for k, _ in SUMMARY)
                     + f"  {s['slept']}/{s['waits']}")
    for label, of, over in RATIOS:
        r = ratios(phases, of, over)
        lines.append(f"{boot}: {label:<10}" + "".join(f"{ratio(r[k]):>{WIDTH}}"
                                                      for k, _ in SUMMARY))
    for name in PHASES:
        for h, w in sorted(phases[name]["harts"].items()):
            lines.append(f"{boot}: {name} hart {h}: {w['waits']} hand-overs, {w['slept']} slept,"
                         f" avg {us(w['avg_ns'])} p50 <= {us(w['p50_ns'])} p99 <= "
                         f"{us(w['p99_ns'])} max <= {us(w['max_ns'])} us")
    return lines


def span(values, fmt):
    """A range over runs, as the docs' table writes it: "a-b", or "a" when they agree."""
    lo, hi = fmt(min(values)), fmt(max(values))
    return lo if lo == hi else f"{lo}-{hi}"


def table(runs):
    """The docs' table (markdown) over runs: [(stressor, phases)], several per stressor; per
    stressor each phase's driver p50, p99, trap -> top half done and hand-over averages (every
    hart's, and hart 0's: the driver's), and the ratios (RATIOS)."""
    keys = ("driver_p50", "driver_p99", "top_avg", "handover_avg", "hart0_avg")
    lines = ["| stressor (on harts 1 to n-1) | phase | driver p50 (us) | p99 (us) | trap -> top half "
             "done avg (us) | hand-over avg, all harts (us) | hart 0's (us) |",
             "|---|---|---|---|---|---|---|"]
    for stressor in dict.fromkeys(s for s, _ in runs):
        mine = [p for s, p in runs if s == stressor]
        for name in PHASES:
            cells = [span([summary(p[name])[k] for p in mine], us) for k in keys]
            lines.append(f"| {stressor} | {name} | " + " | ".join(cells) + " |")
        for label, of, over in RATIOS:
            rs = [ratios(p, of, over) for p in mine]
            cells = [span(known, lambda x: f"{x:.2f}x") if known else f"- ({over}: none)"
                     for known in ([r[k] for r in rs if r[k] is not None] for k in keys)]
            lines.append(f"| {stressor} | {label} | " + " | ".join(cells) + " |")
    return lines
