# fdt.mk: host tests of the device-tree reader (kernel/lib/fdt.c) and the trees they read.
# The trees: tests/host/fdt/*.dts, good.dts again as format version 16, and QEMU's own virt tree;
# Debian's libfdt is the reference the reader is checked against.
HOST_TESTS += fdt
HOST_SRCS_fdt := kernel/lib/fdt.c kernel/lib/pci_dt.c

FDT_TEST_DIR := $(BUILD)/host/fdt
FDT_TEST_TREES := $(patsubst tests/host/fdt/%.dts,$(FDT_TEST_DIR)/%.dtb, \
	$(wildcard tests/host/fdt/*.dts))

# libfdt also exports fdt_getprop, fdt_next_node and fdt_header_size, with other signatures, and
# calls them through its PLT: linked beside kernel/lib/fdt.c, the shared -lfdt would run our functions
# from inside its own. So the test links a copy of Debian's static libfdt with each fdt_* symbol
# renamed libfdt_*, which keeps the two readers apart.
LIBFDT_A := $(shell $(HOST_CC) -print-file-name=libfdt.a)
HOST_LIBS_fdt := $(FDT_TEST_DIR)/libfdt-renamed.a
HOST_DEPS_fdt := $(FDT_TEST_TREES) $(FDT_TEST_DIR)/good-v16.dtb $(FDT_TEST_DIR)/qemu-virt.dtb \
	$(FDT_TEST_DIR)/qemu-virt-aia.dtb \
	$(HOST_LIBS_fdt)

# Built through the pattern rule below, so make would delete them as intermediates after the link.
.SECONDARY: $(FDT_TEST_TREES)

$(FDT_TEST_DIR)/%.dtb: tests/host/fdt/%.dts
	@mkdir -p $(@D)
	dtc -q -I dts -O dtb -o $@ $<

# The same good tree in format version 16 (a 36-byte header without size_dt_struct).
$(FDT_TEST_DIR)/good-v16.dtb: tests/host/fdt/good.dts
	@mkdir -p $(@D)
	dtc -q -V 16 -I dts -O dtb -o $@ $<

# The tree QEMU itself hands Tacet (the dump is zero-padded; its header says how much is tree).
$(FDT_TEST_DIR)/qemu-virt.dtb:
	@mkdir -p $(@D)
	$(QEMU) -machine virt,aclint=on,dumpdtb=$@ -smp 4 -m 128M -nographic

# The AIA machine's: an APLIC (two interrupt cells) and IMSICs instead of the PLIC.
$(FDT_TEST_DIR)/qemu-virt-aia.dtb:
	@mkdir -p $(@D)
	$(QEMU) -machine virt,aia=aplic-imsic,dumpdtb=$@ -smp 4 -m 128M -nographic

$(FDT_TEST_DIR)/libfdt-renamed.a: $(LIBFDT_A)
	@mkdir -p $(@D)
	nm -g --defined-only $< | awk '$$3 ~ /^fdt_/ { print $$3, "lib" $$3 }' | sort -u > $@.syms
	objcopy --redefine-syms=$@.syms $< $@
