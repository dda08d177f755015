#!/usr/bin/env python3
"""plots.py: the benchmarks' charts, as SVG, from build/bench/results.json (`make bench` runs it
after bench.py; `make test` checks what it writes, bench/plots):

  build/bench/latency.svg     the latency figures (benchmarks.py's latency=) as bars, beside the
                              reference figures of other kernels (REFERENCES: each labelled with
                              where it was measured)
  build/bench/histograms.svg  the histograms of the figures benchmarks.py marks histogram=True
                              (results.json's buckets)
  build/bench/scaling.svg     the scaling curves (benchmarks.SCALING): each figure against its
                              count
  build/bench/controllers.svg the interrupt paths on each controller (benchmarks.CONTROLLERS,
                              CONTROLLER_PATHS): PLIC, APLIC, PCI MSI side by side

  python3 tests/bench/plots.py [--docs]

--docs also writes the latency chart to docs/latency.svg (the README shows it) and the
controllers chart to docs/controllers.svg (docs/interrupts.md shows it): run it with the
figures table (`python3 tests/bench/figures.py --write`) when the figures move.

Each chart's text stays text (svg.fonttype none), so a chart names its figures where a reader
(and bench/plots, which checks each figure's name) can find them, and carries no date: the same
results write the same files. Needs Debian's python3-matplotlib (tools/install-deps.sh installs
it), which is /usr/bin/python3's: another python3 without it hands over to that one.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(ROOT, "build", "bench", "results.json")
OUT = os.path.join(ROOT, "build", "bench")
DOCS_CHART = os.path.join(ROOT, "docs", "latency.svg")
DOCS_CONTROLLERS = os.path.join(ROOT, "docs", "controllers.svg")
SYSTEM_PYTHON = "/usr/bin/python3"

try:
    import matplotlib
except ImportError:
    if os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON) and \
            os.path.exists(SYSTEM_PYTHON):
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__), *sys.argv[1:]])
    sys.exit("plots: no matplotlib: install Debian's python3-matplotlib "
             "(tools/install-deps.sh does)")
matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchmarks  # noqa: E402 (tests/bench/benchmarks.py: what each chart shows)

plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "tacet", "font.size": 8})

# The latency chart's own figures (idle machine, one hart unless named), as results.json names
# them, and their labels: those benchmarks.py declares with latency=.
LATENCIES = [(f.name, f.latency) for f in benchmarks.figures() if f.latency]
# Other kernels' figures, as docs/benchmarks.md gives them: (label, value, unit and where).
REFERENCES = [
    ("seL4 IPC call+reply", 708, "instructions, this QEMU, -icount"),
    ("seL4 signal -> waiting thread", 739, "instructions, this QEMU, -icount"),
    ("xv6 null system call", 1130, "instructions, this QEMU, -icount"),
    ("seL4 IRQ -> user handler", 800, "cycles, real RISC-V hardware"),
]
# The histograms: the figures benchmarks.py declares with histogram=True.
HISTOGRAMS = [f.name for f in benchmarks.figures() if f.histogram]
CHARTS = ("latency.svg", "histograms.svg", "scaling.svg", "controllers.svg")


def save(fig, path, title):
    """One chart, deterministic (no date; ids from svg.hashsalt), its title in the file."""
    fig.savefig(path, format="svg", metadata={"Title": title, "Date": None, "Creator": None})
    plt.close(fig)


def latency_chart(by_name, path):
    rows = [(label, by_name[name]["median"], f"Tacet `{name}`", "C0")
            for name, label in LATENCIES if name in by_name]
    rows += [(label, value, where, "C7") for label, value, where in REFERENCES]
    fig, ax = plt.subplots(figsize=(7, 0.32 * len(rows) + 1.2))
    ys = range(len(rows))[::-1]
    ax.barh(list(ys), [r[1] for r in rows], color=[r[3] for r in rows])
    ax.set_yticks(list(ys), [f"{label}\n({where})" for label, _, where, _ in rows], fontsize=6)
    for y, (_, value, _, _) in zip(ys, rows):
        ax.text(value, y, f" {value:,}", va="center", fontsize=6)
    ax.set_xlabel("instructions (median; Tacet under -icount, 2 harts, QEMU virt)")
    ax.set_title("Latency: Tacet (blue) beside seL4 and xv6 (grey)")
    ax.set_xlim(0, max(r[1] for r in rows) * 1.15)
    fig.tight_layout()
    save(fig, path, "Latency")


def histogram_chart(by_name, path):
    names = [n for n in HISTOGRAMS if n in by_name] or [r for r in by_name][:1]
    cols = 3
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(9, 2.1 * rows), squeeze=False)
    for ax, name in zip(axes.flat, names):
        r = by_name[name]
        lows = [low for low, _ in r["histogram"]]
        counts = [count for _, count in r["histogram"]]
        ax.bar([str(low) if i == 0 else f"{low}+" for i, low in enumerate(lows)], counts,
               color="C0")
        ax.set_yscale("log")
        ax.set_title(f"{name}\nmedian {r['median']:,}, p99 {r['p99']:,}, max {r['max']:,}",
                     fontsize=7)
        ax.set_xlabel("instructions (bucket's low)", fontsize=6)
        ax.tick_params(labelsize=6)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle(f"Histograms ({by_name[names[0]]['samples']} samples each; a bucket holds the "
                 "minimum, or minimum + [2^(k-1), 2^k))")
    fig.tight_layout()
    save(fig, path, "Histograms")


def scaling_chart(by_name, path):
    curves = benchmarks.SCALING
    fig, axes = plt.subplots(1, len(curves), figsize=(4 * len(curves), 3.2), squeeze=False)
    for ax, (prefix, curve) in zip(axes.flat, curves.items()):
        points = [(n, by_name[f"{prefix}_{n}"]["median"]) for n in curve["points"]
                  if f"{prefix}_{n}" in by_name] or [(1, 0)]
        ax.plot([n for n, _ in points], [v for _, v in points], "o-", color="C0")
        for n, v in points:
            ax.annotate(f"{v:,}", (n, v), textcoords="offset points", xytext=(0, 5),
                        ha="center", fontsize=6)
        ax.set_xscale("log", base=2)
        ax.set_ylim(0, max(v for _, v in points) * 1.3)
        ax.set_title(f"{prefix}_N: {curve['title']}", fontsize=7)
        ax.set_xlabel(curve["x"], fontsize=7)
        ax.set_ylabel("instructions (median)", fontsize=7)
    fig.suptitle(f"Scaling curves (goal: {'; '.join(c['goal'] for c in curves.values())})",
                 fontsize=7)
    fig.tight_layout()
    save(fig, path, "Scaling curves")


def controllers_chart(by_name, path):
    """Grouped bars: each path (a group) on each controller (a colour); a figure the run lacks
    (bench.py -k) is left out."""
    paths = benchmarks.CONTROLLER_PATHS
    width = 0.8 / len(benchmarks.CONTROLLERS)
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for i, controller in enumerate(benchmarks.CONTROLLERS):
        xs = [p + (i - (len(benchmarks.CONTROLLERS) - 1) / 2) * width for p in range(len(paths))]
        values = [by_name[names[i]]["median"] if names[i] in by_name else 0
                  for _, names in paths]
        ax.bar(xs, values, width, label=controller, color=f"C{i}")
        for x, v in zip(xs, values):
            if v:
                ax.text(x, v, f"{v:,}", ha="center", va="bottom", fontsize=6)
    ax.set_xticks(range(len(paths)), [f"{label}\n" + "\n".join(names) for label, names in paths],
                  fontsize=6)
    ax.set_ylabel("instructions (median; -icount)", fontsize=7)
    ax.set_title("Interrupt controllers: each path on the PLIC, the APLIC and as a PCI MSI",
                 fontsize=8)
    ax.legend(fontsize=6)
    fig.tight_layout()
    save(fig, path, "Interrupt controllers")


def write(results, docs=False):
    """Every chart into build/bench/ (and the latency chart into docs/ if docs); the paths."""
    by_name = {r["name"]: r for r in results}
    os.makedirs(OUT, exist_ok=True)
    paths = [os.path.join(OUT, c) for c in CHARTS]
    latency_chart(by_name, paths[0])
    histogram_chart(by_name, paths[1])
    scaling_chart(by_name, paths[2])
    controllers_chart(by_name, paths[3])
    if docs:
        latency_chart(by_name, DOCS_CHART)
        controllers_chart(by_name, DOCS_CONTROLLERS)
        paths += [DOCS_CHART, DOCS_CONTROLLERS]
    return paths


def main():
    try:
        with open(RESULTS) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"plots: cannot read {os.path.relpath(RESULTS, ROOT)} ({e}): run make bench")
    for path in write(results, docs="--docs" in sys.argv[1:]):
        print(f"plots: wrote {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
