# bench.mk: `make bench` (included by the Makefile): builds the kernel, the servers (the
# benchmark ones are servers/bench/) and the two-hart device tree, then tests/bench/bench.py
# boots each benchmark under -icount and writes build/bench/results.json.
# `python3 tests/bench/bench.py --check-deterministic` runs them twice and compares.
BENCH_SMP := 2

bench: deps
	@$(MAKE) --no-print-directory kernel userspace $(BUILD)/dts/aclint-smp$(BENCH_SMP).dtb
	@python3 tests/bench/bench.py
