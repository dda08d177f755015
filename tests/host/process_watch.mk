# process_watch.mk: host tests of PROCESS_WATCH's records (kernel/object/process_watch.c) with the
# real accounts (kernel/object/account.c); the test records notification_signal.
HOST_TESTS += process_watch
HOST_SRCS_process_watch := kernel/object/process_watch.c kernel/object/account.c tests/host/fake_kernel.c tests/host/fake_pages.c
HOST_DEPS_process_watch := kernel/object/process_watch.h kernel/object/notification.h
$(BUILD)/host/test_process_watch: HOST_CFLAGS += -Ikernel/arch/riscv/include
