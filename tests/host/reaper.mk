# reaper.mk: host tests of the reaper's queue (kernel/object/reaper.c), with the test's own kobj_reap.
HOST_TESTS += reaper
HOST_SRCS_reaper := kernel/object/reaper.c
