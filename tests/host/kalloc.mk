# kalloc.mk: host tests of the object caches (kernel/mm/kalloc.c) over the page fakes.
HOST_TESTS += kalloc
HOST_SRCS_kalloc := kernel/mm/kalloc.c tests/host/fake_pages.c

# kalloc.c takes its spinlock through arch.h (the port's host path) with the assertions on.
$(BUILD)/host/test_kalloc: HOST_CFLAGS += -Ikernel/arch/riscv/include -DCONFIG_DEBUG
