# bkl.mk: host tests of the big kernel lock's contended side (kernel/core/bkl.c) and of the
# spinlocks' sleeping waiters (kernel/core/spinlock.c), harts as threads; the test supplies the
# IPIs, the clock and the rest of what they call.
HOST_TESTS += bkl
HOST_SRCS_bkl := kernel/core/bkl.c kernel/core/spinlock.c
HOST_DEPS_bkl := kernel/core/bkl.h kernel/core/hart.h kernel/core/spinlock.h
HOST_LIBS_bkl := -lpthread

# the port's host path (TACET_HOST_TEST: the hart is the thread's); CONFIG_DEBUG turns on the
# lock's assertions (a hart taking it twice, a release by a hart that does not hold it)
$(BUILD)/host/test_bkl: HOST_CFLAGS += -Ikernel/arch/riscv/include -DCONFIG_DEBUG
