# process_new.mk: host tests of PROCESS_NEW (kernel/object/process.c's sys_process_new) preempted
# at its point, with the real accounts, capabilities and watch records; the rest is faked in the
# test.
HOST_TESTS += process_new
HOST_SRCS_process_new := kernel/object/process.c kernel/object/process_watch.c \
	kernel/object/account.c kernel/object/cap.c tests/host/fake_kernel.c tests/host/fake_pages.c \
	tests/host/fake_kobj.c
$(BUILD)/host/test_process_new: HOST_CFLAGS += -Ikernel/arch/riscv/include
