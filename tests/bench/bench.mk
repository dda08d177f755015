# bench.mk: `make bench` (included by the Makefile): builds both kernels (the test kernel for
# the kernel's own benchmarks, test=NAME) and the servers (the benchmark ones are
# servers/bench/), then tests/bench/bench.py has the device trees made for its machines
# (make print-dtb), boots each benchmark under -icount and writes
# build/bench/results.json and the charts (tests/bench/plots.py: build/bench/*.svg); then the
# wall-clock ones (the block service's IOPS, on
# build/blk-big.img), printed only. bench_frame's boot runs the test kernel with the BKL holds
# plugin (qemu-plugins, the Makefile), as the stress boots do.
# `python3 tests/bench/bench.py --check-deterministic` runs them twice and compares.

bench: deps
	@$(MAKE) --no-print-directory kernel test-kernel userspace qemu-plugins $(BLK_BIG_IMG)
	@python3 tests/bench/bench.py --plots

# `make bench-docs`: the same benchmarks but the wall-clock ones, and the stress benchmarks (make
# bench-stress), then their figures written into the table of docs/benchmarks.md
# (tests/bench/figures.py). Run it when a change moves a figure and commit the table with the
# change: `make test` fails while the two disagree (bench/docs-figures).
.PHONY: bench-docs
bench-docs: deps
	@$(MAKE) --no-print-directory kernel test-kernel userspace qemu-plugins
	@python3 tests/bench/bench.py --write-docs

# `make bench-stress`: the stress benchmarks (bench.py --stress): the interrupt paths' tail and
# the longest BKL hold while a stressor runs on each other hart (servers/bench/stress.h), on 4
# harts and on 8 (one stressor on six harts), seconds a boot; results.json keeps the other
# benchmarks' figures from their last run. They boot the test kernel with the BKL holds plugin
# (each hart's own instructions in its holds). make test runs them as
# bench/stress-deterministic, bench/stress-budgets and bench/stress-same-hart-bound.
.PHONY: bench-stress
bench-stress: deps
	@$(MAKE) --no-print-directory kernel test-kernel userspace qemu-plugins
	@python3 tests/bench/bench.py --stress

# `make bench-wall`: the wall-clock stress benchmark (bench.py --wall; servers/bench/wall.c):
# without -icount, the harts really in parallel (MTTCG; 2 harts, then 4), an RTC alarm every ms to
# its driver on hart 0, idle then with a stressor on each other hart; each phase's driver
# latency, the line's top half and wake-up and every hart's BKL hand-overs, and the stressed
# phase's ratios to the idle one. Noisy (the host's load): printed, never budgeted. One boot
# at a time; WALL_REPEAT=N boots each N times and prints the docs' table over the runs;
# WALL_SPIN_US=N boots with bkl_spin_us=N (an interrupt's entry spins that long for the BKL
# before it sleeps: docs/foundation.md).
WALL_REPEAT ?= 1
WALL_SPIN_US ?=
.PHONY: bench-wall
bench-wall: deps
	@$(MAKE) --no-print-directory kernel userspace
	@WALL_SPIN_US=$(WALL_SPIN_US) python3 tests/bench/bench.py --wall --repeat $(WALL_REPEAT)
