# frame.mk: host tests of frame objects (kernel/object/frame.c): derivation stays one level deep;
# FRAME_NEW preempted at each of its points, with another hart's acts in the window.
HOST_TESTS += frame
HOST_SRCS_frame := kernel/object/frame.c kernel/object/account.c kernel/object/cap.c \
	tests/host/fake_kernel.c tests/host/fake_pages.c tests/host/fake_kobj.c
$(BUILD)/host/test_frame: HOST_CFLAGS += -Ikernel/arch/riscv/include
