# quiesce.mk: host tests of the quiesce descriptions' interpreter (lib/quiesce.c) and of the ELF
# reader's section lookup (kernel/lib/elf.c) init finds them with, against a fake device; and
# of the sections in real server images (built by the cross toolchain: make userspace).
HOST_TESTS += quiesce
HOST_SRCS_quiesce := lib/quiesce.c lib/compatible.c kernel/lib/elf.c
HOST_CFLAGS_quiesce := -Ilib/include
HOST_DEPS_quiesce := lib/include/tacet/quiesce.h $(BUILD)/servers/rtc.elf $(BUILD)/servers/rng.elf \
	$(BUILD)/servers/uart.elf $(BUILD)/servers/quietbad.elf
