# bench_hist.mk: host tests of the benchmark histogram (kernel/uapi/tacet/bench_hist.h), which the
# benchmark servers and the kernel's own benchmark print for tests/bench/bench.py.
HOST_TESTS += bench_hist
