# metrics: lib/metrics.c, the interrupt and hart figures as text (the shell's tables and the
# Prometheus text), linked as it is with lib/clock.c and lib/sink.c, fed by a fake of the
# kernel's info records.
HOST_TESTS += metrics
HOST_SRCS_metrics := lib/metrics.c lib/clock.c lib/sink.c
HOST_CFLAGS_metrics := -Ilib/include
HOST_DEPS_metrics := lib/include/tacet/metrics.h lib/include/tacet/clock.h \
	lib/include/tacet/sink.h
