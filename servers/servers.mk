# servers.mk: the servers packed into the boot module archive, each with its sources
# (lib/lib.mk links $(BUILD)/servers/NAME.elf from SERVER_SRCS_NAME).

# hello: the first program the kernel runs; checks that the C library works on Tacet.
SERVERS += hello
SERVER_SRCS_hello := servers/hello/hello.c

# init: the root server the kernel starts; it starts the others (init.run= in the bootargs).
# One ELF reader serves both the kernel and init: kernel/lib/elf.c, the bounds-checked reader
# the kernel checks init with, is one of init's sources too, and checks every server init
# loads. It is freestanding and includes only its own folder's headers, so it builds as it is
# with the user-space flags (lib/lib.mk puts that object apart from the kernel's); init's files
# that read ELF include its header as the kernel does, "lib/elf.h" under -Ikernel.
SERVERS += init
SERVER_SRCS_init := $(sort $(wildcard servers/init/*.c)) kernel/lib/elf.c
$(BUILD)/servers/init/loader.o $(BUILD)/servers/init/devices.o: USER_CFLAGS += -Ikernel
.SECONDARY: $(call user_objs,$(SERVER_SRCS_init))

# Test and benchmark servers keep their own lists beside their sources.
include $(sort $(wildcard servers/*/module.mk))
