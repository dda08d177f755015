# reaper.mk: host tests of the reaper's queue (kernel/reaper.c), with the test's own kobj_reap.
HOST_TESTS += reaper
HOST_SRCS_reaper := kernel/reaper.c
