#!/usr/bin/env python3
"""figures.py: the table of benchmark figures in docs/benchmarks.md, the one place the docs give
the current figures (prose elsewhere names a figure and points here). The table lies between
the lines MARK_BEGIN and MARK_END and is generated, never edited by hand: every figure's
minimum, median and maximum from build/bench/results.json (what the last run of bench.py
measured, in BENCHMARKS then STRESS_BENCHMARKS order) and its budget from its declaration in
tests/bench/benchmarks.py (a stress figure's median has none: "-"; the kernel's own BKL hold
figures beside the plugin's, `..._global`, have none at all: bench.budgeted).

  make bench-docs                           run the benchmarks, then write the table
  python3 tests/bench/figures.py --write    write it from the results.json there is (after
                                            `make test` or `make bench`)
  python3 tests/bench/figures.py --check    exit 1, naming every figure the table has wrong

`make test` runs the check after the benchmarks (bench/docs-figures, tests/run.py), so a
change that moves a figure fails until its commit carries the table regenerated.
"""
import argparse
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import bench  # noqa: E402 (tests/bench/bench.py: the figures it records, how a check reports)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
RESULTS = os.path.join(ROOT, "build", "bench", "results.json")
BUDGETS = os.path.join(ROOT, "tests", "bench", "benchmarks.py")  # each figure's declaration
MARK_BEGIN = "<!-- figures:begin -->"
MARK_END = "<!-- figures:end -->"
REGENERATE = "make bench-docs"
COLUMNS = ("min", "median", "max", "budget (median)", "budget (max)")
SOURCES = (os.path.relpath(RESULTS, ROOT),) * 3 + (os.path.relpath(BUDGETS, ROOT),) * 2
HEADER = ["| figure | " + " | ".join(COLUMNS) + " |", "|---|" + "---:|" * len(COLUMNS)]
NO_BUDGET = "-"  # the stress figures are budgeted on their maximum only; _global ones not at all
ROW_RE = re.compile(r"^\| `([^`]+)` \|(.*)\|\s*$")


class FiguresError(Exception):
    pass


def rel(path):
    return os.path.relpath(path, ROOT)


def load_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise FiguresError(f"cannot read {what} {rel(path)}: {e}") from e


def expected_names():
    """Every figure bench.py records, in its order."""
    return [f.name for f in bench.figures()]


def figures(results=None):
    """{name: (min, median, max, budget median, budget max)} in bench.py's order, from results
    (results.json's list; read from RESULTS if None) and the budgets benchmarks.py declares
    (BUDGETS). The results must hold
    every figure: a table from a `bench.py -k` run would drop the others."""
    if results is None:
        results = load_json(RESULTS, "the benchmark results")
    budgets = bench.BUDGETS
    by_name = {r["name"]: r for r in results}
    names = expected_names()
    missing = [n for n in names if n not in by_name]
    if missing:
        raise FiguresError(f"{rel(RESULTS)} has no {', '.join(missing)} (a partial run, "
                           f"bench.py -k?): run {REGENERATE}")
    if bench.declaration_problems():
        raise FiguresError(f"{rel(BUDGETS)}: " + "; ".join(bench.declaration_problems()))
    none = {}
    return {n: (by_name[n]["min"], by_name[n]["median"], by_name[n]["max"],
                budgets.get(n, none).get("median", NO_BUDGET),
                budgets.get(n, none).get("max", NO_BUDGET)) for n in names}


def cell(v):
    """A number with thousands separators; NO_BUDGET as it is."""
    return f"{v:,}" if isinstance(v, int) else v


def render(figs):
    """The table, markers included, as lines."""
    lines = [MARK_BEGIN,
             f"<!-- generated from {rel(RESULTS)} and {rel(BUDGETS)} by `{REGENERATE}` "
             "(tests/bench/figures.py); do not edit by hand -->"]
    lines += HEADER
    lines += [f"| `{name}` | " + " | ".join(cell(v) for v in values) + " |"
              for name, values in figs.items()]
    lines.append(MARK_END)
    return lines


def split_doc(text):
    """(lines before the table, the table's lines with its markers, lines after)."""
    lines = text.split("\n")
    begins = [i for i, line in enumerate(lines) if line.strip() == MARK_BEGIN]
    ends = [i for i, line in enumerate(lines) if line.strip() == MARK_END]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise FiguresError(f"{rel(DOC)} must hold one {MARK_BEGIN} line and, after it, one "
                           f"{MARK_END} line (found {len(begins)} and {len(ends)})")
    return lines[:begins[0]], lines[begins[0]:ends[0] + 1], lines[ends[0] + 1:]


def parse_rows(table):
    """{name: [the row's cells as numbers, or as written where one is no number]}."""
    rows = {}
    for line in table:
        m = ROW_RE.match(line)
        if not m:
            continue
        cells = [c.strip() for c in m.group(2).split("|")]
        rows[m.group(1)] = [int(c.replace(",", "")) if re.fullmatch(r"[\d,]+", c) else c
                            for c in cells]
    return rows


def problems(figs, table):
    """What the docs' table has wrong, one line per figure; then, should every figure agree, a
    line if the table is still not exactly what --write writes."""
    rows = parse_rows(table)
    out = []
    for name, values in figs.items():
        row = rows.get(name)
        if row is None:
            out.append(f"{name}: not in the table")
            continue
        cells = row + ["nothing"] * (len(values) - len(row))
        wrong = [f"{col} {got:,} where {source} says {cell(want)}" if isinstance(got, int)
                 else f"{col} {got!r} where {source} says {cell(want)}"
                 for col, source, got, want in zip(COLUMNS, SOURCES, cells, values)
                 if got != want]
        if len(row) > len(values):
            wrong.append(f"{len(row) - len(values)} cells more than the {len(values)} columns")
        if wrong:
            out.append(f"{name}: the table says " + "; ".join(wrong))
    out += [f"{name}: in the table, but no benchmark records it" for name in rows
            if name not in figs]
    if not out and table != render(figs):
        out.append("the table is not as figures.py writes it (its header or format changed)")
    return out


def write(figs):
    with open(DOC) as f:
        before, _, after = split_doc(f.read())
    with open(DOC, "w") as f:
        f.write("\n".join(before + render(figs) + after))


def check(figs):
    """The problems, each a line naming its figure; empty when the table is right."""
    with open(DOC) as f:
        _, table, _ = split_doc(f.read())
    return problems(figs, table)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true",
                      help=f"write the table into {rel(DOC)} from {rel(RESULTS)}")
    mode.add_argument("--check", action="store_true",
                      help=f"exit 1 if the table differs from {rel(RESULTS)}")
    args = ap.parse_args()
    try:
        figs = figures()
        if args.write:
            write(figs)
            print(f"figures: {len(figs)} figures written into {rel(DOC)}")
            return 0
        found = check(figs)
    except FiguresError as e:
        print(f"figures: {e}")
        return 1
    passed = bench.report_check(
        "figures", f"{rel(DOC)} disagrees with {rel(RESULTS)}; run {REGENERATE} (or python3 "
        "tests/bench/figures.py --write after make test) and commit the table", found,
        f"the table in {rel(DOC)} holds the {len(figs)} figures of {rel(RESULTS)}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
