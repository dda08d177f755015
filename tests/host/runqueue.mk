# runqueue.mk: host tests of the thread FIFOs and priority run queues (kernel/core/runqueue.c).
HOST_TESTS += runqueue
HOST_SRCS_runqueue := kernel/core/runqueue.c

# thread.h reaches the port's types (struct trap_frame) through arch.h.
$(BUILD)/host/test_runqueue: HOST_CFLAGS += -Ikernel/arch/riscv/include
