# fastpath.mk: host tests of the IPC fast paths (kernel/core/fastpath.h, inline) against the fake
# machine of fake_irqchip.c, with the real capability tables (kernel/object/cap.c) and
# notifications (kernel/object/notification.c, its timers' kernel/lib/dtree.c).
HOST_TESTS += fastpath
HOST_SRCS_fastpath := $(wildcard kernel/irq/*.c) kernel/object/cap.c \
	kernel/object/notification.c kernel/lib/dtree.c kernel/core/runqueue.c \
	tests/host/fake_irqchip.c tests/host/fake_kernel.c tests/host/fake_pages.c
HOST_DEPS_fastpath := kernel/core/fastpath.h kernel/object/endpoint.h kernel/core/sched.h \
	tests/host/fake_irqchip.h tests/host/fake_kernel.h
# the fake logs each signal of the top half, then calls the real one (fake_irqchip.h)
HOST_LIBS_fastpath := -Wl,--wrap=notification_signal_stamped

# arch.h reaches the port's types, whose host path (TACET_HOST_TEST) runs as the hart the test
# chooses; CONFIG_DEBUG turns on the spinlock assertions.
$(BUILD)/host/test_fastpath: HOST_CFLAGS += -Ikernel/arch/riscv/include -DCONFIG_DEBUG
