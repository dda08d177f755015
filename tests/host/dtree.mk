# dtree.mk: host tests of the deadline tree (kernel/lib/dtree.c), which orders each hart's armed
# notification timers.
HOST_TESTS += dtree
HOST_SRCS_dtree := kernel/lib/dtree.c
