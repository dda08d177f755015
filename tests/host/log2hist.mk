# log2hist.mk: host tests of the interrupt statistics' log2 histograms
# (kernel/uapi/tacet/log2hist.h), which the kernel fills (kernel/irq/irq_inline.h) and the
# shell reads (lib/metrics.c).
HOST_TESTS += log2hist
