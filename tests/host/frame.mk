# frame.mk: host tests of frame objects (kernel/object/frame.c): derivation stays one level deep.
HOST_TESTS += frame
HOST_SRCS_frame := kernel/object/frame.c kernel/object/account.c kernel/object/cap.c tests/host/fake_kernel.c tests/host/fake_pages.c
$(BUILD)/host/test_frame: HOST_CFLAGS += -Ikernel/arch/riscv/include
