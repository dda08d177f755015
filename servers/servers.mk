# servers.mk: the servers packed into the boot module archive, each with its sources
# (lib/lib.mk links $(BUILD)/servers/NAME.elf from SERVER_SRCS_NAME).

# hello: the first program the kernel runs; checks that the C library works on Tacet.
SERVERS += hello
SERVER_SRCS_hello := servers/hello/hello.c

# init: the root server the kernel starts; it starts the others (init.run= in the bootargs).
SERVERS += init
SERVER_SRCS_init := servers/init/init.c servers/init/elf.c

# Test and benchmark servers keep their own lists beside their sources.
include $(sort $(wildcard servers/*/module.mk))
