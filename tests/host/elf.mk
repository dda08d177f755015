# elf.mk: host tests of the ELF executable checker (kernel/lib/elf.c), including a real RISC-V program
# built here with the cross toolchain and readelf's view of its loadable segments.
HOST_TESTS += elf
HOST_SRCS_elf := kernel/lib/elf.c

ELF_TEST_DIR := $(BUILD)/host/elf
HOST_DEPS_elf := $(ELF_TEST_DIR)/prog.elf $(ELF_TEST_DIR)/prog.readelf

$(ELF_TEST_DIR)/prog.elf: tests/host/elf/prog.S
	@mkdir -p $(@D)
	$(CC) -march=rv64gc -mabi=lp64 -nostdlib -static -Wl,-Ttext=0x10000 -Wl,--build-id=none \
		-o $@ $<

# The reference: "entry ADDR", then one "load OFFSET VADDR FILESZ MEMSZ FLAGS" line per PT_LOAD
# as readelf prints them (FLAGS joined, e.g. "RE").
$(ELF_TEST_DIR)/prog.readelf: $(ELF_TEST_DIR)/prog.elf
	$(CROSS)readelf -hlW $< | awk ' \
		/Entry point address:/ { print "entry", $$4 } \
		$$1 == "LOAD" { f = ""; for (i = 7; i < NF; i++) f = f $$i; \
			print "load", $$2, $$3, $$5, $$6, f }' > $@.tmp
	mv $@.tmp $@
