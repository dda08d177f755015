# irq.mk: host tests of the generic interrupt layer (kernel/irq/irq.c) against the fake
# controller and machine of fake_irqchip.c, with the real capability tables (kernel/object/cap.c)
# and the real notifications (kernel/object/notification.c, its timers' kernel/lib/dtree.c).
HOST_TESTS += irq
HOST_SRCS_irq := $(wildcard kernel/irq/*.c) kernel/object/cap.c kernel/object/notification.c \
	kernel/lib/dtree.c kernel/core/runqueue.c tests/host/fake_irqchip.c tests/host/fake_kernel.c \
	tests/host/fake_pages.c
HOST_DEPS_irq := kernel/irq/irq.h kernel/irq/irqchip.h tests/host/fake_irqchip.h \
	tests/host/fake_kernel.h
# the fake logs each signal of the top half, then calls the real one (fake_irqchip.h)
HOST_LIBS_irq := -Wl,--wrap=notification_signal_stamped

# arch.h reaches the port's types, whose host path (TACET_HOST_TEST) runs as the hart the test
# chooses; CONFIG_DEBUG turns on the spinlock assertions, so misuse of the BKL fails a test.
$(BUILD)/host/test_irq: HOST_CFLAGS += -Ikernel/arch/riscv/include -DCONFIG_DEBUG
