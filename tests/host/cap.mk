# cap.mk: host tests of the capability tables (kernel/object/cap.c) over the fakes in fake_kernel.c.
HOST_TESTS += cap
HOST_SRCS_cap := kernel/object/cap.c tests/host/fake_kernel.c tests/host/fake_pages.c

# cap.c and the fakes include arch.h, which reaches the port's types.
$(BUILD)/host/test_cap: HOST_CFLAGS += -Ikernel/arch/riscv/include
