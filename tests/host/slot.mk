# slot: lib/slot.c, the one slot allocator: lib's pool, a thread's own pools, two threads at once.
HOST_TESTS += slot
HOST_SRCS_slot := lib/slot.c
HOST_DEPS_slot := tests/host/slot/tacet.h lib/include/tacet/slot.h
HOST_CFLAGS_slot := -Itests/host/slot -Ilib/include
HOST_LIBS_slot := -lpthread
