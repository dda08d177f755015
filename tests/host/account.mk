# account.mk: host tests of kernel memory accounts (kernel/object/account.c) over the object fakes.
HOST_TESTS += account
HOST_SRCS_account := kernel/object/account.c tests/host/fake_kernel.c tests/host/fake_pages.c
$(BUILD)/host/test_account: HOST_CFLAGS += -Ikernel/arch/riscv/include
