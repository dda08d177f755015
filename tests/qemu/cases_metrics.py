"""cases_metrics.py: the shell's `metrics` (the Prometheus text lib/metrics.c renders): accepted
by `promtool check metrics` (Debian's prometheus package, which make deps installs: a missing
promtool fails the case), and agreeing with `irqs` printed around it in the same run."""

import re
import shutil
import subprocess

# The edu driver has ended, and init, the kernel and the PCI server (which releases the device,
# and its DMA quarantine 100 ms later, after the wait a function without a reset gets) have said
# so, whole lines: nothing else prints into the shell's answers (another printer's line in the
# middle of the metrics would be promtool's complaint, not the renderer's).
EDU_OVER = [r"edu 0: factorial[^\n]*\n", r"init: server edu finished with status 0\r?\n",
            r"tacet: process edu ended \(status 0\)\r?\n",
            r"pci: \S+ released \(its driver ended\)[^\n]*\n",
            r"pci: \S+ [^\n]*DMA quarantine[^\n]*\n"]


def edu_over_console_up(out):
    prompt = out.find("tacet> ")
    return prompt >= 0 and all(re.search(p, out[prompt:]) for p in EDU_OVER)


def answer(out, command, nth=0):
    """What the shell printed for the nth `command` typed (to the next prompt), or None. The
    command's echo follows its prompt, or starts a line (a server's line came after the
    prompt)."""
    found = list(re.finditer(rf"(?:^|tacet> ){command}\n", out, re.M))
    if len(found) <= nth:
        return None
    start = found[nth].end()
    end = out.find("tacet> ", start)
    return out[start:end if end >= 0 else len(out)]


def promtool_problems(text):
    """promtool check metrics on text: its complaints, or that promtool is missing."""
    tool = shutil.which("promtool")
    if not tool:
        return ["promtool not found: install Debian's prometheus package (make deps does)"]
    proc = subprocess.run([tool, "check", "metrics"], input=text, capture_output=True,
                          text=True, timeout=60)
    said = (proc.stdout + proc.stderr).strip()
    return [] if proc.returncode == 0 and not said else [f"promtool check metrics: {said}"]


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def samples(text):
    """The text's samples: {name: [(labels dict, value)]}."""
    got = {}
    for line in text.splitlines():
        m = SAMPLE.match(line)
        if m and not line.startswith("#"):
            labels = dict(LABEL.findall(m.group(2) or ""))
            value = float(m.group(3))
            got.setdefault(m.group(1), []).append((labels, value))
    return got


def by_irq(got, name):
    return {int(labels["irq"]): value for labels, value in got.get(name, [])}


def irqs_counts(table):
    """irqs' count table: {line: count}."""
    return {int(m.group(1)): int(m.group(2)) for m in re.finditer(
        r"^ *(\d+) (?:unbound|idle|pending|disabled|\?) +\d+ +(\d+)", table, re.M)}


def irqs_max(table):
    """irqs' times table: {line: (TOP MAX, WAKE MAX, SERV MAX)}."""
    return {int(m.group(1)): tuple(int(v) for v in m.group(2).split()[2::3])
            for m in re.finditer(r"^ *(\d+)((?: +\d+){9})$", table, re.M)}


HISTOGRAMS = ("tacet_irq_top_half_cycles", "tacet_irq_wake_latency_cycles",
              "tacet_irq_server_time_cycles")


def histogram_problems(got, name, irq):
    """One line's histogram: cumulative buckets, +Inf == _count, its maximum (the _max_cycles
    gauge) in the first bucket that holds every value, no more than _sum. Returns (count,
    problems)."""
    strip = name[:-len("_cycles")]
    buckets = sorted((float(labels["le"]), value) for labels, value in got.get(name + "_bucket", [])
                     if labels["irq"] == str(irq))
    count = by_irq(got, name + "_count").get(irq)
    total = by_irq(got, name + "_sum").get(irq)
    top = by_irq(got, strip + "_max_cycles").get(irq)
    if not buckets or count is None or total is None or top is None:
        return 0, [f"line {irq}: no {name} histogram with _sum, _count and maximum"]
    problems = []
    counts = [v for _, v in buckets]
    if counts != sorted(counts):
        problems.append(f"line {irq}: {name}'s buckets are not cumulative: {counts}")
    if buckets[-1][0] != float("inf") or counts[-1] != count:
        problems.append(f"line {irq}: {name}: +Inf {buckets[-1]}, _count {count}")
    if count:
        le = next(le for le, v in buckets if v == count)
        below = [b for b, _ in buckets if b < le]
        if not (below and below[-1] < top <= le or not below and top <= le):
            problems.append(f"line {irq}: {name}: maximum {top} not in the last bucket "
                            f"to fill (le {le})")
        if top > total:
            problems.append(f"line {irq}: {name}: maximum {top} above _sum {total}")
    return count, problems


def metrics_agree_with_irqs():
    """irqs, metrics, irqs: promtool accepts the metrics; they list the lines irqs lists, each
    line's count between the two irqs' (equal for the quiet line, the edu driver's, whose 1001
    interrupts are over: INTx line 33, or on the AIA its message-signalled line, as the driver
    says), its per-hart counts adding up; each histogram consistent (histogram_problems), the
    quiet line's top-half histogram holding its count and its maxima irqs' (instructions)."""
    def check(out):
        edu = re.search(r"edu 0: id \S+, (?:irq|msi line) (\d+) on hart", out)
        if not edu:
            return ["no edu line to check"]
        quiet = int(edu.group(1))
        first, text, second = answer(out, "irqs"), answer(out, "metrics"), answer(out, "irqs", 1)
        if first is None or text is None or second is None:
            return ["no irqs, metrics, irqs output to check"]
        problems = promtool_problems(text)
        got = samples(text)
        before, after = irqs_counts(first), irqs_counts(second)
        counts = by_irq(got, "tacet_irq_interrupts_total")
        if not counts or set(counts) != set(before) or set(before) != set(after):
            problems.append(f"lines: metrics {sorted(counts)}, irqs {sorted(before)} then "
                            f"{sorted(after)}")
        for irq, n in counts.items():
            if not before.get(irq, -1) <= n <= after.get(irq, -1):
                problems.append(f"line {irq}: irqs {before.get(irq)}, metrics {n}, irqs "
                                f"{after.get(irq)}")
        if not before.get(quiet, 0) == counts.get(quiet) == after.get(quiet) >= 1001:
            problems.append(f"quiet line {quiet}: irqs {before.get(quiet)}, metrics "
                            f"{counts.get(quiet)}, irqs {after.get(quiet)} (1001 raised)")
        per_hart = sum(v for labels, v in got.get("tacet_irq_hart_interrupts_total", [])
                       if labels["irq"] == str(quiet))
        if per_hart != counts.get(quiet):
            problems.append(f"quiet line {quiet}: per hart {per_hart}, all {counts.get(quiet)}")
        if got.get("tacet_irq_timing_visible") != [({}, 1.0)]:
            problems.append("tacet_irq_timing_visible is not 1 with the trace authority")
        for irq in counts:
            n = [0, 0, 0]
            for i, name in enumerate(HISTOGRAMS):
                n[i], more = histogram_problems(got, name, irq)
                problems += more
            if irq == quiet and n[0] != counts[quiet]:
                problems.append(f"quiet line {quiet}: top-half histogram of {n[0]} values, "
                                f"{counts[quiet]} interrupts")
            if not n[2] <= n[1] <= n[0]:
                problems.append(f"line {irq}: {n[1]} wake-ups and {n[2]} acks timed of "
                                f"{n[0]} interrupts")
        maxima = tuple(by_irq(got, name[:-len("_cycles")] + "_max_cycles").get(quiet)
                       for name in HISTOGRAMS)
        if not irqs_max(first).get(quiet) == maxima == irqs_max(second).get(quiet):
            problems.append(f"quiet line {quiet}: maxima {maxima}, irqs "
                            f"{irqs_max(first).get(quiet)} then {irqs_max(second).get(quiet)}")
        return problems
    return check


def metrics_without_timing(out):
    """metrics without the trace authority: promtool accepts it; it says the timing is left
    out and leaves it out; the counts are there."""
    text = answer(out, "metrics")
    if text is None:
        return ["no metrics output to check"]
    got = samples(text)
    problems = promtool_problems(text)
    if got.get("tacet_irq_timing_visible") != [({}, 0.0)]:
        problems.append("tacet_irq_timing_visible is not 0 without the trace authority")
    if any(name.startswith(HISTOGRAMS) or "_max_cycles" in name and "bkl" not in name
           for name in got):
        problems.append("line timing shown without the trace authority")
    if not by_irq(got, "tacet_irq_interrupts_total").get(10):
        problems.append("no count for the console's line 10")
    return problems


EDU_RUN = "init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,edu@1"

CASES = [
    # The edu driver's 1001 interrupts on its line (33; on the AIA its MSI line, 97), then irqs,
    # metrics, irqs on the
    # deterministic machine (the times in instructions, so metrics' cycles are irqs' figures).
    case("metrics-promtool",
         [r"# TYPE tacet_irq_top_half_cycles histogram", r"init: power off requested by uart"],
         smp=2, bootargs=EDU_RUN + " cycles=instructions", qemu_args=("-device", "edu"),
         icount=True, console_input=(edu_over_console_up, "irqs\rmetrics\rirqs\rpoweroff\r"),
         check=metrics_agree_with_irqs(), timeout=60, variants=CONTROLLERS),
    # A console without the trace authority (no `%`): the counts, no timing.
    case("metrics-no-authority",
         [r"tacet_irq_timing_visible 0", r"init: power off requested by uart"],
         smp=2, bootargs="init.run=^uart=console:ns16550a",
         console_input=(r"tacet> ", "metrics\rpoweroff\r"), check=metrics_without_timing,
         timeout=60, variants=CONTROLLERS),
]
